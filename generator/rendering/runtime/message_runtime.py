# The runtime of a message family's generated module (GE's error codes): lookup(ID) and match(line).
#
# generator/rendering/message_module.py copies it into the module in three parts, at the lines
# that say so: the prelude goes to the top, the table declarations are left out (the module
# defines each table from the catalog, with the same annotation), and the body follows the
# tables, after the matcher of generator/rendering/runtime/message_match.py. So the module stays
# one file, standard library only, typed, on Python 3.9+; this file is linted as it is.
# runtime: prelude
from collections.abc import Iterable
from difflib import get_close_matches as _close_matches
from typing import NamedTuple, Optional

# runtime: tables
EDITIONS: tuple[str, ...] = ()
RELEASES: tuple[str, ...] = ()
LANGUAGES: tuple[str, ...] = ()
_PAGES = "unreleased"
# id -> (category, template or None, argument names, examples, added)
_CODES: dict[str, tuple[str, Optional[str], tuple[str, ...], tuple[str, ...], Optional[str]]] = {}
# (id, lang) -> (meanings, cause, solution, note) as the page says them (Markdown)
_PAGE_TEXTS: dict[tuple[str, str], tuple[tuple[str, ...], Optional[str], Optional[str], Optional[str]]] = {}
# id -> ((release, message, cause, solution), ...): the registry's entry at each release that ships it
_REGISTRY: dict[str, tuple[tuple[str, str, str, str], ...]] = {}


def template_pieces(template: str) -> tuple[str, ...]:  # pragma: no cover - the module has message_match's
    return (template,)


def best_matches(line: str, templates: dict[str, tuple[str, ...]]) -> list[tuple[str, tuple[str, ...]]]:
    return []  # pragma: no cover - the module has message_match's


# runtime: body
class ErrorCode(NamedTuple):
    """One error code: its message template and placeholders, examples, and what its page (edition
    ``unreleased``) and the registry of each release (edition ``9.1.0`` ...) say about it."""

    id: str
    category: str
    template: Optional[str]
    """The message, each ``%s`` a placeholder, as the page shows it (None for a code without a page)."""
    placeholders: tuple[str, ...]
    """The registry's names of the placeholders, in order."""
    examples: tuple[str, ...]
    added: Optional[str]
    """The first release whose registry has it."""

    def __str__(self) -> str:
        return self.id

    def meanings(self, lang: str = "zh") -> tuple[str, ...]:
        """What each placeholder stands for, as the page lists them (Markdown)."""
        return _PAGE_TEXTS.get((self.id, _language(lang)), ((), None, None, None))[0]

    def cause(self, lang: str = "zh", edition: Optional[str] = None) -> Optional[str]:
        """The possible cause: the page's (Markdown), or the registry's at a release (English; N/A for none)."""
        return self._said(lang, edition, 1)

    def solution(self, lang: str = "zh", edition: Optional[str] = None) -> Optional[str]:
        """The solution: the page's (Markdown), or the registry's at a release (English only)."""
        return self._said(lang, edition, 2)

    def note(self, lang: str = "zh") -> Optional[str]:
        """A paragraph the page has in place of examples."""
        return _PAGE_TEXTS.get((self.id, _language(lang)), ((), None, None, None))[3]

    def message(self, edition: Optional[str] = None) -> Optional[str]:
        """The message template: the page's, or the registry's at a release (what the library logs)."""
        if edition is None or edition == _PAGES:
            return self.template
        return self._registry(edition)[1]

    @property
    def messages(self) -> tuple[str, ...]:
        """Every text its message has had: the page's template and each release's registry message."""
        texts: list[str] = [self.template] if self.template else []
        for entry in _REGISTRY.get(self.id, ()):
            if entry[1] not in texts:
                texts.append(entry[1])
        return tuple(texts)

    @property
    def editions(self) -> tuple[str, ...]:
        """The releases whose registry has it, then ``unreleased`` where a page shows it."""
        shown = tuple(entry[0] for entry in _REGISTRY.get(self.id, ()))
        return shown + ((_PAGES,) if self.template is not None else ())

    def _said(self, lang: str, edition: Optional[str], index: int) -> Optional[str]:
        lang = _language(lang)
        if edition is None or edition == _PAGES:
            texts = _PAGE_TEXTS.get((self.id, lang), ((), None, None, None))
            return texts[1] if index == 1 else texts[2]
        entry = self._registry(edition)
        return (entry[2] if index == 1 else entry[3]) if lang == "en" else None

    def _registry(self, edition: str) -> tuple[str, str, str, str]:
        for entry in _REGISTRY.get(self.id, ()):
            if entry[0] == edition:
                return entry
        if edition not in EDITIONS:
            raise KeyError(f"no edition {edition!r}; the editions: {', '.join(EDITIONS)}")
        raise KeyError(f"the registry of {edition} has no {self.id}")


class Match(NamedTuple):
    """A log line's code, and the values its message's placeholders took (in order)."""

    code: ErrorCode
    values: tuple[str, ...]
    how: str
    """``id`` (the line names the code) or ``message`` (its message matched the code's template)."""

    @property
    def named(self) -> dict[str, str]:
        """The values by the registry's names of the placeholders (where it names each one)."""
        names = self.code.placeholders
        return dict(zip(names, self.values)) if len(names) == len(self.values) else {}


def _language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r}: one of {', '.join(LANGUAGES)}")
    return lang


def _code(ident: str) -> ErrorCode:
    category, template, names, examples, added = _CODES[ident]
    return ErrorCode(ident, category, template, names, examples, added)


def lookup(key: str) -> ErrorCode:
    """The code an id names (``E10003``; any case, with or without brackets); KeyError naming close ids."""
    ident = key.strip().strip("[]:").upper()
    if ident in _CODES:
        return _code(ident)
    close = nearest_ids(ident, _CODES) or _close_matches(ident, list(_CODES), n=3)
    raise KeyError(f"no error code {key!r}" + (f"; did you mean {', '.join(close)}?" if close else ""))


def nearest_ids(ident: str, ids: Iterable[str]) -> list[str]:
    """For an id of a letter and a number (E10015), three ids of that letter: those one digit away first
    (a digit mistyped: E20011 -> E20001), then by the nearest numbers (E10014, E10016: a neighbour, or
    a newer code); [] for another key."""
    if len(ident) < 2 or not ident[1:].isdigit() or not ident[0].isalpha():
        return []
    number = int(ident[1:])
    same = [i for i in ids if i[0] == ident[0] and i[1:].isdigit() and len(i) == len(ident)]

    def order(other: str) -> tuple[bool, int, str]:
        one_digit = sum(a != b for a, b in zip(other, ident)) == 1
        return not one_digit, abs(int(other[1:]) - number), other
    return sorted(same, key=order)[:3]


MAX_LINE = 10_000


def matches(line: str) -> list[Match]:
    """Every code a log line may come from: the code whose id the line names; else each code whose message
    template (the page's or any release's registry message) the line's message matches, most specific only
    (several when equally specific)."""
    line = line[:MAX_LINE]
    for word in _words(line):
        if word in _CODES:
            own = {str(n): template_pieces(t) for n, t in enumerate(_code(word).messages)}
            best = best_matches(line, own)
            return [Match(_code(word), best[0][1] if best else (), "id")]
    templates = {f"{ident}\0{n}": template_pieces(text) for ident in _CODES
                 for n, text in enumerate(_code(ident).messages)}
    found: list[Match] = []
    for key, values in best_matches(line, templates):
        code = _code(key.split("\0")[0])
        if all(m.code.id != code.id for m in found):
            found.append(Match(code, values, "message"))
    return found


def match(line: str) -> Optional[Match]:
    """The code a log line comes from, with its placeholders' values; None where no code, or several
    equally, fit (``matches`` lists them)."""
    found = matches(line)
    return found[0] if len(found) == 1 else None


def _words(line: str) -> list[str]:
    """The line's words that look like an id: a capital letter and five digits, alone."""
    found: list[str] = []
    for index in range(len(line) - 5):
        if line[index].isupper() and line[index + 1:index + 6].isdigit() and (
                index == 0 or not line[index - 1].isalnum()) and (
                index + 6 == len(line) or not line[index + 6].isalnum()):
            found.append(line[index:index + 6])
    return found
