# The runtime of every generated Python module: the documentation API of the
# codes. It is copied verbatim into each module, after the module's data
# tables (_MEMBERS, _ROWS, _TEXTS, ...) and before its classes, so that the
# module stays one file with the standard library only, on Python 3.9+.
# This file is linted and tested as Python; the generator never edits it.
# pylint: disable=undefined-variable
# flake8: noqa: F821  (the data tables are defined by the generated module)
import re as _re
from difflib import get_close_matches as _close_matches


class _Unknown(object):
    """What the catalog records as not known: falsy, and never equal to False."""

    __slots__ = ()
    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = object.__new__(cls)
        return cls._instance

    def __repr__(self):
        return "UNKNOWN"

    def __bool__(self):
        return False

    def __reduce__(self):
        return (_Unknown, ())


#: Returned by recoverable() where the recoverability is not known.
UNKNOWN = _Unknown()
_RECOVERABLE = {"yes": True, "no": False, "n/a": None, "not known": UNKNOWN}
_FIELDS = ("meaning", "cause", "solution")
_ORIGINS = ("upstream", "translation", "untranslated")


class _Documented(object):
    """What the documentation says about a code; its subclasses have `name`."""

    __slots__ = ()

    @property
    def c_name(self):
        """The C/C++ name, or None for a code that exists only in Python."""
        return _C_NAMES.get(self.name)

    @property
    def editions(self):
        """Ids of the editions, of any page, that list this code, oldest first."""
        rows = _ROWS.get(self.name, {})
        return tuple(edition for edition in EDITIONS if edition in rows)

    def recoverable(self, edition=None):
        """True (是), False (否), None (无, not applicable) or UNKNOWN (not known)."""
        edition = _edition_for(self.name, edition)
        if edition is None:
            return UNKNOWN
        return _RECOVERABLE[_ROWS.get(self.name, {}).get(edition, "not known")]

    def meaning(self, lang=None, edition=None):
        """The meaning as the edition's page shows it, or None where not known (or not
        translated yet: text_origin() says "untranslated")."""
        return _text(self.name, 0, lang, edition)

    def cause(self, lang=None, edition=None):
        """The possible cause, on pages that have that column; otherwise None."""
        return _text(self.name, 1, lang, edition)

    def solution(self, lang=None, edition=None):
        """The solution as the edition's page shows it, or None where not known."""
        return _text(self.name, 2, lang, edition)

    def text_origin(self, lang=None, edition=None, field=None):
        """"upstream" for a text taken from an upstream page, "translation" for one this
        project translated, "untranslated" for a text seen upstream in another language
        whose translation is still to be written; None where not known. Without `field`,
        the last of those that any of the edition's texts of this code is."""
        texts = _texts_of(self.name, lang, edition)
        if texts is None:
            return None
        if field is not None:
            pair = texts[_FIELDS.index(field)]
            return None if pair is None else _ORIGINS[pair[1]]
        return _ORIGINS[max(pair[1] for pair in texts if pair is not None)]


def _language(lang):
    if lang is None:
        return LANGUAGES[0]
    if lang not in LANGUAGES:
        raise ValueError("lang must be one of %s, not %r" % (", ".join(LANGUAGES), lang))
    return lang


def _edition_for(name, edition):
    """The edition to answer from: the default one, or the one asked for (or the edition an
    id once published now resolves to) if it lists the code."""
    if edition is None:
        return _DEFAULT_EDITION.get(name)
    edition = _ALIASES.get(edition, edition)
    rows = _ROWS.get(name, {})
    if edition in rows or edition in _NOT_KNOWN.get(name, ()):
        return edition
    if edition not in EDITIONS:
        raise KeyError("no edition %r; editions: %s" % (edition, ", ".join(EDITIONS)))
    raise KeyError("the %s page does not list %s" % (edition, name))


def _texts_of(name, lang, edition):
    lang = _language(lang)
    edition = _edition_for(name, edition)
    if edition is None:
        return None
    return _TEXTS.get((name, edition), {}).get(lang)


def _text(name, index, lang, edition):
    texts = _texts_of(name, lang, edition)
    if texts is None or texts[index] is None or _ORIGINS[texts[index][1]] == "untranslated":
        return None
    return _STRINGS[texts[index][0]]


_HEX = _re.compile(r"^[-+]?0[xX][0-9a-fA-F]+$")
_BARE_HEX = _re.compile(r"^[0-9a-fA-F]+$")
_DECIMAL = _re.compile(r"^[-+]?[0-9]+$")
# More digits than any status code's value has: int() refuses a decimal string of
# thousands of digits (ValueError), and no code could match one anyway.
_MAX_DIGITS = 40
_TOO_LONG = object()


def _number(text, is_name=lambda text: False):
    """The int a string spells: decimal when it is digits only, hex with or without 0x (any
    case); None for any other string, and for hex digits that are also a name (`is_name`,
    "BAD" is a name before it is 0xBAD). _TOO_LONG for a number with more digits than any
    code's value has."""
    text = text.strip()
    if _DECIMAL.match(text):
        base = 10
    elif _HEX.match(text) or (_BARE_HEX.match(text) and not is_name(text)):
        base = 16
    else:
        return None
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-")
    digits = (digits[2:] if digits[:2] in ("0x", "0X") else digits).lstrip("0") or "0"
    if len(digits) > _MAX_DIGITS:
        return _TOO_LONG
    return sign * int(digits, base)


def _lookup(key, by_value, by_name, kind):
    """The code for an int, a hex or decimal string, a name or a C name; KeyError otherwise."""
    if isinstance(key, bool) or not isinstance(key, (int, str)):
        raise KeyError("lookup() takes an int or a str, not %s" % type(key).__name__)
    if isinstance(key, str):
        value = _number(key, _is_name)
        if value is None:
            return _find_name(key.strip(), key, by_name, kind)
        return _find_value(value, key, by_value)
    return _find_value(int(key), key, by_value)


def _is_name(text):
    """Whether a text names a member or a C-only code (as _find_name reads names)."""
    c_names = set(_C_NAMES.values())
    return any(name in _MEMBERS or name in c_names or name in _C_ONLY for name in (text, text.upper()))


def _find_value(value, key, by_value):
    if value is _TOO_LONG or abs(value) >= 1 << (4 * _MAX_DIGITS):
        raise KeyError("no status code has a value of more than %d digits" % _MAX_DIGITS)
    if value in by_value:
        return by_value[value]
    for name, c_value in _C_ONLY.items():
        if c_value == value:
            raise KeyError(_c_only_message(name, key))
    values = sorted(_MEMBERS.items(), key=lambda item: (abs(item[1] - value), item[1]))[:3]
    raise KeyError("no status code has the value %r; closest: %s" % (
        key, ", ".join("%s (%d)" % (name, number) for name, number in values)))


def _find_name(text, key, by_name, kind):
    name = text[len(kind) + 1:] if text.startswith(kind + ".") else text
    by_c_name = dict((c_name, python_name) for python_name, c_name in _C_NAMES.items())
    for candidate in (name, name.upper()):
        if candidate in _MEMBERS:
            return by_name(candidate)
        if candidate in by_c_name:
            return by_name(by_c_name[candidate])
        if candidate in _C_ONLY:
            raise KeyError(_c_only_message(candidate, key))
    names = sorted(set(list(_MEMBERS) + list(by_c_name) + list(_C_ONLY)))
    matches = _close_matches(name.upper(), names, n=3, cutoff=0.5)
    hint = "; closest: %s" % ", ".join(matches) if matches else ""
    raise KeyError("no status code is named %r%s" % (key, hint))


def _c_only_message(name, key):
    return "%r is %s (0x%08X), a code that exists only in C/C++: it has no Python name" % (key, name, _C_ONLY[name])
