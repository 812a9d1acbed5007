"""The `codes` section as the model holds it: one Code per entry, names and values unique in
the family, each text entry in the languages of the family."""
from __future__ import annotations

from typing import Any, Optional

from generator.core.problems import Pos, Reporter, closest
from generator.core.releases import release_key
from generator.domain.codes import Code, CppName, Earlier, TextEntry, hex_value
from generator.domain.markup import plain
from generator.domain.model import TEXT_FIELDS, UNTRANSLATED
from generator.reading import format as fmt
from generator.reading.site import localized

C_RANGE = (0, 0xFFFFFFFF)  # a C/C++ status is uint32_t
PYTHON_RANGE = (-(2**63), 2**64 - 1)


class Codes(list):
    """The valid codes, and the names of those written with a problem of their own
    (rows naming them are not reported a second time)."""

    def __init__(self) -> None:
        super().__init__()
        self.flawed: set[str] = set()


def read_codes(section, languages: tuple[str, ...], headers, repositories, broken: set[str],
               rep: Reporter) -> Codes:
    codes = Codes()
    codes.flawed.update(broken)
    names: dict[str, Code] = {}
    values: dict[int, Code] = {}
    wrappers: dict[str, Code] = {}
    header_paths = {h.path for h in headers}
    for index, record in enumerate(section.record):
        reported = len(rep.problems)
        code = _code(record, index, languages, header_paths, rep)
        if code is not None and not _releases_fit(record, code.name, repositories, rep):
            code = None
        own = {n for n in (record.python, record.c) if n} | {n for r in record.earlier for n in (r.python, r.c) if n}
        clash = None if code is None else _clash(code, record, names, values, wrappers)
        if clash:
            rep.error(*clash)
        if code is None or clash or len(rep.problems) > reported:
            codes.flawed.update(own)
        if code is None or clash:
            continue
        values.update((value, code) for value in code.values)
        if code.wrapper is not None:
            wrappers[code.wrapper] = code
        for name in _names(code):
            names.setdefault(name, code)
        codes.append(code)
    return codes


def _releases_fit(record: fmt.Code, name: str, repositories, rep: Reporter) -> bool:
    """Each repository that `added`, `removed` and an earlier item's `until` name is one of the
    catalog's `repositories`, and no code is removed from a repository at or before the
    release that added it there; else an error each, and False."""
    named: list[tuple[Any, str, str]] = [(record, "added", repo) for repo in record.added]
    named += [(record, "removed", repo) for repo in record.removed]
    named += [(before, "until", repo) for before in record.earlier for repo in before.until]
    ok = True
    for holder, key, repo in named:
        if repo not in repositories:
            rep.error(holder.at(key, repo, of_key=True), f"{name}: {key}: repository {repo!r} is not in repositories"
                                                         f"{closest(repo, repositories)}")
            ok = False
    for repo, at in record.removed.items():
        added = record.added.get(repo)
        for release in [at] if isinstance(at, str) else [r for r in (at.python, at.c) if r]:
            if added is not None and (release_key(release) or ()) <= (release_key(added) or ()):
                rep.error(record.at("removed", repo), f"{name}: removed from {repo} at {release}, not after the "
                                                      f"release that added it there ({added}); a code is removed "
                                                      "from the first release that no longer ships it")
                ok = False
    return ok


def _names(code: Code) -> set[str]:
    """Every name a code has had, Python and C."""
    return set(code.python_names) | set(code.c_names)


def _clash(code: Code, record, names: dict[str, Code], values: dict[int, Code],
           wrappers: dict[str, Code]) -> Optional[tuple[Pos, str]]:
    """Where a code takes a name, a value or a wrapper an earlier code has (the line that writes
    it: its own or an `earlier` item's), and what to say."""
    for name in sorted(_names(code)):
        other = names.get(name)
        if other is not None:
            where = next((record.at(key) for key, own in (("python", code.python_name), ("c", code.c_name))
                          if own == name and record.given(key)),
                         next((e.pos for e in code.earlier if name in (e.python, e.c)), record.at()))
            return where, (f"{code.name}: the name {name} is taken: the code at line {other.pos.line} ({other.name}) "
                           "has it; a name, old or new, identifies one code in the family")
    for value in code.values:
        other = values.get(value)
        if other is not None:
            where = record.at("value") if value == code.value else \
                next((e.pos for e in code.earlier if e.value == value), record.at())
            return where, (f"{code.name}: value {value} ({hex_value(value)}) already used by {other.name} (line "
                           f"{other.pos.line}); a value, old or new, identifies one code in the family")
    if code.wrapper is not None and code.wrapper in wrappers:
        other = wrappers[code.wrapper]
        return record.at("wrapper"), (f"{code.name}: wrapper {code.wrapper} is already {other.name}'s "
                                      f"(line {other.pos.line})")
    return None


def _code(record: fmt.Code, index: int, languages, header_paths, rep: Reporter) -> Optional[Code]:
    if record.python is None and record.c is None:
        rep.error(record.at(), "a code needs a python name, a c name, or both")
        return None
    name = record.python or record.c or ""
    low, high = C_RANGE if record.c else PYTHON_RANGE
    ok = low <= record.value <= high
    if not ok:
        lang = "C/C++ (uint32_t)" if record.c else "Python"
        rep.error(record.at("value"), f"{name}: value {record.value} is out of range for {lang}: {low}..{high}")
    cpp = []
    for number, item in enumerate(record.cpp):
        if isinstance(item, str):
            cpp.append(CppName(item, None, record.at("cpp", number)))
        elif item.header not in header_paths:
            rep.error(item.at("header"), f"{name}: cpp header {item.header!r} is not in family.headers "
                                         f"({', '.join(sorted(header_paths)) or 'none declared'})")
            ok = False
        else:
            cpp.append(CppName(item.name, item.header, item.at()))
    earlier = []
    for before in record.earlier:
        if before.python is None and before.c is None and before.value is None:
            rep.error(before.at(), f"{name}: an earlier item names what the code was: write its earlier python, c "
                                   "or value (or more than one)")
            ok = False
        elif before.value is not None and not low <= before.value <= high:
            rep.error(before.at("value"), f"{name}: earlier value {before.value} is out of range: {low}..{high}")
            ok = False
        earlier.append(Earlier(before.python, before.c, tuple(before.until.items()), before.at(), before.value))
    removed, removed_api = [], []
    for repo, at in record.removed.items():
        if isinstance(at, str):
            removed.append((repo, at))
        elif at.python is None and at.c is None:
            rep.error(record.at("removed", repo), f"{name}: removed.{repo} names no API; write {{python: RELEASE}} "
                                                  "or {c: RELEASE}, or the release alone when every file dropped it")
            ok = False
        else:
            removed_api += [(repo, api, release) for api, release in (("python", at.python), ("c", at.c)) if release]
    notes = localized(record, "notes", f"{name}: notes", languages, rep) if record.notes is not None else None
    texts = tuple((key, _entries(record, key, name, languages, rep)) for key in TEXT_FIELDS if getattr(record, key))
    if not ok or any(entries is None for _, entries in texts) or (record.notes is not None and notes is None):
        return None
    return Code(record.python, record.c, record.value, record.wrapper, tuple(cpp), record.log_message, notes,
                texts, index, record.at(), tuple(record.added.items()), tuple(removed),  # type: ignore[arg-type]
                tuple(earlier), tuple(removed_api))


def _entries(record: fmt.Code, key: str, name: str, languages, rep: Reporter) -> Optional[tuple[TextEntry, ...]]:
    """A column's entries as written: each names the versions it starts at (`from`); their
    editions are resolved once the versions are read (generator.reading.texts)."""
    entries: list[TextEntry] = []
    ok = True
    what = f"{name}: {key}"
    written: dict[tuple, fmt.TextEntry] = {}  # (lang, text, origin, markdown) -> the entry that writes it
    for item in getattr(record, key):
        texts = dict(item.__pydantic_extra__ or {})
        found = _entry_problem(item, texts, what, languages) or _written_twice(item, texts, what, written)
        if found is not None:
            rep.error(*found)
            ok = False
            continue
        starts = tuple(item.from_)
        places = tuple(item.at("from", number) for number in range(len(starts)))
        origin = item.origin
        for lang in (lang for lang in languages if lang in texts):
            text = texts[lang]
            shown = plain(text) if item.markdown else text
            entries.append(TextEntry((), lang, shown, origin, item.at(lang), starts, places,
                                     markup=None if shown == text else text, markdown=item.markdown))
        for lang in item.untranslated:
            entries.append(TextEntry((), lang, "", UNTRANSLATED, item.at("untranslated"), starts, places))
    return tuple(entries) if ok else None


def _written_twice(item: fmt.TextEntry, texts: dict[str, str], what: str, written: dict) -> Optional[tuple]:
    """(where, what is wrong) when an entry writes a text another entry of the column already
    writes (same language, origin and markup): each text is written once, for every version it
    holds from."""
    for lang, text in texts.items():
        other = written.setdefault((lang, text, item.origin, item.markdown), item)
        if other is not item:
            return item.at(lang), (f"{what} ({lang}): this text is also the one of the entry at line "
                                   f"{other.at().line}; write it once: add this entry's `from` to that entry's")
    return None


def _entry_problem(item: fmt.TextEntry, texts: dict[str, str], what: str, languages) -> Optional[tuple]:
    """(where, what is wrong) with a text entry, or None."""
    valid = ["from", "origin", "untranslated", "markdown", *languages]
    for lang in texts:
        if lang not in languages:
            return item.at(lang, of_key=True), (f"{what} entry: unknown field {lang!r}{closest(lang, valid)}; valid "
                                                f"fields: {', '.join(valid)}")
    if not texts and not item.untranslated:
        return item.at(), f"{what} entry gives no text; add one or more of: {', '.join(languages)}"
    if item.given("origin") and len(texts) > 1:
        return item.at("origin", of_key=True), (
            f"{what} entry gives `origin: {item.origin}` to its {' and '.join(texts)} texts; an origin belongs to one "
            "language: give each language an entry of its own, with its own origin")
    for number, lang in enumerate(item.untranslated):
        if lang not in languages[1:] or item.untranslated.index(lang) < number:
            return item.at("untranslated", number), (
                f"{what}: untranslated: {lang!r} is not one of {', '.join(languages[1:]) or 'none'} (the family's "
                "other languages, each once)" + closest(lang, languages[1:]))
        if lang in texts:
            return item.at(lang, of_key=True), (f"{what} entry gives a {lang} text and marks {lang} untranslated; "
                                                "keep one")
    return None
