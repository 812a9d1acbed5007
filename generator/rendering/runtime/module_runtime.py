# The runtime of every generated Python module: the documentation API of the codes.
#
# generator/rendering/python_module.py copies it into each module in three parts, at the lines
# that say so: the prelude (imports, a type) goes to the top of the module, the
# table declarations are left out (the module defines each table, with the same
# annotation, from the catalog), and the body follows the module's tables. So the module stays one file,
# standard library only, typed, on Python 3.9+; and this file is linted and
# type-checked as it is, against the declarations.
# runtime: prelude
import re as _re
from difflib import get_close_matches as _close_matches
from typing import TYPE_CHECKING, Callable, Optional, TypeVar, Union

# A text of _TEXTS: (its index in _STRINGS, its origin: 0 upstream's words, 1 this
# project's translation, 2 not translated yet), or None where the page has no such text.
_Text = Optional[tuple[int, int]]

# runtime: tables
EDITIONS: tuple[str, ...] = ()
_ALIASES: dict[str, str] = {}
LANGUAGES: tuple[str, ...] = ()
_MEMBERS: dict[str, int] = {}
_C_NAMES: dict[str, str] = {}
_C_ONLY: dict[str, int] = {}
_OTHER_NAMES: dict[str, str] = {}
_REMOVED_IN: dict[str, dict[str, str]] = {}
_EARLIER_VALUES: dict[str, dict[int, dict[str, str]]] = {}
_ROWS: dict[str, dict[str, str]] = {}
_NOT_KNOWN: dict[str, tuple[str, ...]] = {}
_DEFAULT_EDITION: dict[str, str] = {}
_STRINGS: tuple[str, ...] = ()
_TEXTS: dict[tuple[str, str], dict[str, tuple[_Text, _Text, _Text]]] = {}

# runtime: body
_Code = TypeVar("_Code")


class _Unknown:
    """What the catalog records as not known: falsy, and never equal to False."""

    __slots__ = ()
    _instance: Optional["_Unknown"] = None

    def __new__(cls) -> "_Unknown":
        if cls._instance is None:
            cls._instance = object.__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNKNOWN"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> tuple[type["_Unknown"], tuple[()]]:
        return (_Unknown, ())


#: Returned by recoverable() where the recoverability is not known.
UNKNOWN = _Unknown()
#: What recoverable() returns: True (是), False (否), None (无, not applicable) or UNKNOWN.
Recoverable = Union[bool, None, _Unknown]
_RECOVERABLE: dict[str, Recoverable] = {"yes": True, "no": False, "n/a": None, "not known": UNKNOWN}
_FIELDS = ("meaning", "cause", "solution")
_ORIGINS = ("upstream", "translation", "untranslated", "proposed")
# Without a field, text_origin() says the kind furthest from upstream's released words.
_ORIGIN_RANK = (0, 2, 3, 1)


class _Documented:
    """What the documentation says about a code; its subclasses have `name`."""

    __slots__ = ()
    if TYPE_CHECKING:
        # Read-only, as Enum declares it: a plain `name: str` here clashes with Enum.name
        # under pyright's strict mode (a variable overridden by a property).
        @property
        def name(self) -> str: ...

    @property
    def c_name(self) -> Optional[str]:
        """The C/C++ name, or None for a code that exists only in Python."""
        return _C_NAMES.get(self.name)

    @property
    def removed_in(self) -> dict[str, str]:
        """Per repository whose newest release no longer ships this code, the first release
        without it ({} when every repository still ships it); older releases ship it, so the
        member stays."""
        return dict(_REMOVED_IN.get(self.name, {}))

    @property
    def earlier_values(self) -> dict[int, dict[str, str]]:
        """Each value this code had before upstream changed it, with, per repository, the first
        release with the newer value ({} when its value never changed). lookup() accepts them;
        the enum's constructor, as upstream's, does not."""
        return {value: dict(until) for value, until in _EARLIER_VALUES.get(self.name, {}).items()}

    @property
    def editions(self) -> tuple[str, ...]:
        """Ids of the editions, of any page, that list this code, oldest first."""
        rows = _ROWS.get(self.name, {})
        return tuple(edition for edition in EDITIONS if edition in rows)

    def recoverable(self, edition: Optional[str] = None) -> Recoverable:
        """True (是), False (否), None (无, not applicable) or UNKNOWN (not known), as the
        edition's page says; without an edition, as the default edition says (UNKNOWN where no
        edition lists this code).

        Raises KeyError when `edition` is no edition of the family, or one whose page does not
        list this code (one whose listing of it is not known answers UNKNOWN)."""
        chosen = _edition_for(self.name, edition)
        if chosen is None:
            return UNKNOWN
        return _RECOVERABLE[_ROWS.get(self.name, {}).get(chosen, "not known")]

    def meaning(self, lang: Optional[str] = None, edition: Optional[str] = None) -> Optional[str]:
        """The meaning as the edition's page shows it in `lang` (default: the first of
        LANGUAGES); without an edition, as the default edition shows it. None where the text
        is not known, where no edition lists this code, or where it is not translated yet
        (text_origin() says "untranslated").

        Raises KeyError when `edition` is no edition of the family, or one whose page does not
        list this code (one whose listing of it is not known answers None); ValueError when
        `lang` is not one of LANGUAGES."""
        return _text(self.name, 0, lang, edition)

    def cause(self, lang: Optional[str] = None, edition: Optional[str] = None) -> Optional[str]:
        """The possible cause, as meaning() answers: None also on a page without that column.

        Raises KeyError when `edition` is no edition of the family, or one whose page does not
        list this code (one whose listing of it is not known answers None); ValueError when
        `lang` is not one of LANGUAGES."""
        return _text(self.name, 1, lang, edition)

    def solution(self, lang: Optional[str] = None, edition: Optional[str] = None) -> Optional[str]:
        """The solution as the edition's page shows it, as meaning() answers: None where the
        text is not known, where no edition lists this code, or where it is not translated yet.

        Raises KeyError when `edition` is no edition of the family, or one whose page does not
        list this code (one whose listing of it is not known answers None); ValueError when
        `lang` is not one of LANGUAGES."""
        return _text(self.name, 2, lang, edition)

    def text_origin(self, lang: Optional[str] = None, edition: Optional[str] = None,
                    field: Optional[str] = None) -> Optional[str]:
        """"upstream" for a text taken from an upstream page that a branch or tag of upstream
        holds, "proposed" for one taken from an upstream commit that only a merge request's ref
        holds (not released), "translation" for one this project translated, "untranslated" for
        a text seen upstream in another language whose translation is still to be written;
        None where not known. Without `field` ("meaning", "cause" or "solution"), the one
        furthest from upstream's released words (in that order) that any of the edition's
        texts of this code is.

        Raises KeyError when `edition` is no edition of the family, or one whose page does not
        list this code (one whose listing of it is not known answers None); ValueError when
        `lang` is not one of LANGUAGES or `field` is not one of those three."""
        if field is not None and field not in _FIELDS:
            raise ValueError(f"field must be one of {', '.join(_FIELDS)}, not {field!r}")
        texts = _texts_of(self.name, lang, edition)
        if texts is None:
            return None
        if field is not None:
            pair = texts[_FIELDS.index(field)]
            return None if pair is None else _ORIGINS[pair[1]]
        origins = [pair[1] for pair in texts if pair is not None]
        return _ORIGINS[max(origins, key=_ORIGIN_RANK.__getitem__)] if origins else None


def _language(lang: Optional[str]) -> str:
    if lang is None:
        return LANGUAGES[0]
    if lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {', '.join(LANGUAGES)}, not {lang!r}")
    return lang


def _edition_for(name: str, edition: Optional[str]) -> Optional[str]:
    """The edition to answer from: the default one, or the one asked for (or the edition an
    id once published now resolves to) if it lists the code."""
    if edition is None:
        return _DEFAULT_EDITION.get(name)
    edition = _ALIASES.get(edition, edition)
    rows = _ROWS.get(name, {})
    if edition in rows or edition in _NOT_KNOWN.get(name, ()):
        return edition
    if edition not in EDITIONS:
        raise KeyError(f"no edition {edition!r}; editions: {', '.join(EDITIONS)}")
    raise KeyError(f"the {edition} page does not list {name}")


def _texts_of(name: str, lang: Optional[str], edition: Optional[str]) -> Optional[tuple[_Text, _Text, _Text]]:
    language = _language(lang)
    chosen = _edition_for(name, edition)
    if chosen is None:
        return None
    return _TEXTS.get((name, chosen), {}).get(language)


def _text(name: str, index: int, lang: Optional[str], edition: Optional[str]) -> Optional[str]:
    texts = _texts_of(name, lang, edition)
    pair = None if texts is None else texts[index]
    if pair is None or _ORIGINS[pair[1]] == "untranslated":
        return None
    return _STRINGS[pair[0]]


_HEX = _re.compile(r"^[-+]?0[xX][0-9a-fA-F]+$")
_BARE_HEX = _re.compile(r"^[0-9a-fA-F]+$")
_DECIMAL = _re.compile(r"^[-+]?[0-9]+$")
# More digits than any status code's value has: int() refuses a decimal string of
# thousands of digits (ValueError), and no code could match one anyway.
_MAX_DIGITS = 40


class _TooLong:
    """A number with more digits than any code's value has."""


_TOO_LONG = _TooLong()


def _never_a_name(text: str) -> bool:
    return False


def _number(text: str, is_name: Callable[[str], bool] = _never_a_name) -> Union[int, _TooLong, None]:
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


def _lookup(key: object, by_value: dict[int, _Code], by_name: Callable[[str], _Code], kind: str) -> _Code:
    """The code for an int, a hex or decimal string, a name or a C name; KeyError otherwise."""
    if isinstance(key, bool) or not isinstance(key, (int, str)):
        raise KeyError(f"lookup() takes an int or a str, not {type(key).__name__}")
    if isinstance(key, str):
        value = _number(key, _is_name)
        if value is None:
            return _find_name(key.strip(), key, by_name, kind)
        return _find_value(value, key, by_value)
    return _find_value(int(key), key, by_value)


def _is_name(text: str) -> bool:
    """Whether a text names a member or a C-only code (as _find_name reads names)."""
    c_names = set(_C_NAMES.values()) | set(_OTHER_NAMES)
    return any(name in _MEMBERS or name in c_names or name in _C_ONLY for name in (text, text.upper()))


def _find_value(value: Union[int, _TooLong], key: Union[int, str], by_value: dict[int, _Code]) -> _Code:
    if isinstance(value, _TooLong) or abs(value) >= 1 << (4 * _MAX_DIGITS):
        raise KeyError(f"no status code has a value of more than {_MAX_DIGITS} digits")
    if value in by_value:
        return by_value[value]
    for name, c_value in _C_ONLY.items():
        if c_value == value:
            raise KeyError(_c_only_message(name, key))
    nearest = sorted(_MEMBERS.items(), key=lambda item: (abs(item[1] - value), item[1]))[:3]
    closest = ", ".join(f"{name} ({number})" for name, number in nearest)
    raise KeyError(f"no status code has the value {key!r}; closest: {closest}")


def _find_name(text: str, key: str, by_name: Callable[[str], _Code], kind: str) -> _Code:
    name = text[len(kind) + 1:] if text.startswith(kind + ".") else text
    by_c_name = {c_name: python_name for python_name, c_name in _C_NAMES.items()}
    by_c_name.update(_OTHER_NAMES)
    for candidate in (name, name.upper()):
        if candidate in _MEMBERS:
            return by_name(candidate)
        if candidate in by_c_name:
            return by_name(by_c_name[candidate])
        if candidate in _C_ONLY:
            raise KeyError(_c_only_message(candidate, key))
    names = sorted(set(_MEMBERS) | set(by_c_name) | set(_C_ONLY))
    matches = _close_matches(name.upper(), names, n=3, cutoff=0.5)
    hint = f"; closest: {', '.join(matches)}" if matches else ""
    raise KeyError(f"no status code is named {key!r}{hint}")


def _c_only_message(name: str, key: Union[int, str]) -> str:
    return f"{key!r} is {name} (0x{_C_ONLY[name]:08X}), a code that exists only in C/C++: it has no Python name"
