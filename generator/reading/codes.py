"""Reading the `codes` section: one Code per entry, names and values unique in the family."""
from __future__ import annotations

import re
from typing import Optional

from ruamel.yaml.nodes import MappingNode, Node

from generator.reading.fields import Fields
from generator.domain.codes import Code, CppName, Rename, TextEntry
from generator.domain.markup import plain
from generator.domain.model import TEXT_FIELDS, TEXT_ORIGINS, UNTRANSLATED
from generator.core.problems import Reporter
from generator.core.releases import release_key

CPP_NAME = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)?(::[A-Za-z_][A-Za-z0-9_]*)+$")  # ::NAME: the global namespace
C_RANGE = (0, 0xFFFFFFFF)  # a C/C++ status is uint32_t
PYTHON_RANGE = (-(2**63), 2**64 - 1)
_CODE_FIELDS = ("python", "c", "renamed", "value", "wrapper", "cpp", "log_message", "added", "removed",
                "notes") + TEXT_FIELDS


class Codes(list):
    """The valid codes, and the names of those written with a problem of their own
    (rows naming them are not reported a second time)."""

    def __init__(self) -> None:
        super().__init__()
        self.flawed: set[str] = set()


def read_codes(section, languages, headers, rep: Reporter) -> Optional[Codes]:
    f: Fields = section.reader
    codes = Codes()
    names: dict[str, Code] = {}
    values: dict[int, Code] = {}
    wrappers: dict[str, Code] = {}
    header_paths = {h.path for h in headers or ()}
    items = f.sequence(section.value, "codes")
    if items is None:
        return None
    for index, item in enumerate(items):
        reported = len(rep.problems)
        code = _code(f, item, index, languages, header_paths)
        if code is None or len(rep.problems) > reported:
            codes.flawed.update(n for n in (f.peek(item, "python"), f.peek(item, "c")) if n)
        if code is None:
            continue
        clash = _name_clash(code, names)
        if clash:
            f.error(item, clash)
            codes.flawed.update(_names(code))
            continue
        if code.value in values:
            other = values[code.value]
            f.error(
                item,
                f"{code.name}: value {code.hex} already used by {other.name} (line {other.pos.line}); every value is "
                "used once",
            )
            codes.flawed.update(_names(code))
            continue
        if code.wrapper is not None and code.wrapper in wrappers:
            other = wrappers[code.wrapper]
            f.error(item, f"{code.name}: wrapper {code.wrapper} is already {other.name}'s (line {other.pos.line})")
            codes.flawed.update(_names(code))
            continue
        values[code.value] = code
        if code.wrapper is not None:
            wrappers[code.wrapper] = code
        for name in _names(code):
            names.setdefault(name, code)
        codes.append(code)
    return codes


def _names(code: Code) -> set[str]:
    """Every name a code has had, Python and C."""
    return set(code.python_names) | set(code.c_names)


def _name_clash(code: Code, names: dict[str, Code]) -> Optional[str]:
    for name in sorted(_names(code)):
        other = names.get(name)
        if other is not None:
            return (f"{code.name}: the name {name} is taken: the code at line {other.pos.line} ({other.name}) has "
                    "it; a name, old or new, identifies one code in the family")
    return None


def _code(f: Fields, node: Node, index: int, languages, header_paths) -> Optional[Code]:
    label = f.peek(node, "python", "c") or "a code"
    fields = f.mapping(node, label, required=("value",), optional=_CODE_FIELDS)
    if fields is None or "value" not in fields:
        return None
    python = f.identifier(fields["python"][1], "python name") if "python" in fields else None
    c = f.identifier(fields["c"][1], "c name") if "c" in fields else None
    if python is None and c is None:
        if "python" not in fields and "c" not in fields:
            f.error(node, "a code needs a python name, a c name, or both")
        return None
    name = python or c
    value = f.integer(fields["value"][1], f"{name}: value")
    if value is not None:
        low, high = C_RANGE if c else PYTHON_RANGE
        if not low <= value <= high:
            lang = "C/C++ (uint32_t)" if c else "Python"
            f.error(fields["value"][1], f"{name}: value {value} is out of range for {lang}: {low}..{high}")
            value = None
    wrapper = f.identifier(fields["wrapper"][1], f"{name}: wrapper", c_too=False) if "wrapper" in fields else None
    cpp = _cpp_names(f, fields.get("cpp"), name, header_paths)
    log_message = f.text(fields["log_message"][1], f"{name}: log_message") if "log_message" in fields else None
    notes = f.localized(fields["notes"][1], f"{name}: notes", languages) if "notes" in fields else None
    added = _releases(f, fields["added"][1], f"{name}: added") if "added" in fields else ()
    removed = _releases(f, fields["removed"][1], f"{name}: removed") if "removed" in fields else ()
    renamed = _renamed(f, fields["renamed"][1], name or "a code") if "renamed" in fields else ()
    texts = tuple((k, _text_entries(f, fields[k][1], f"{name}: {k}", languages)) for k in TEXT_FIELDS if k in fields)
    broken = any(v is None for _, v in texts) or ("wrapper" in fields and wrapper is None) \
        or ("log_message" in fields and log_message is None) or ("notes" in fields and notes is None) \
        or added is None or removed is None or renamed is None
    if value is None or cpp is None or broken:
        return None
    return Code(python, c, value, wrapper, cpp, log_message, notes, texts, index, f.pos(node),  # type: ignore[arg-type]
                added, removed, renamed)  # type: ignore[arg-type]


def _cpp_names(f: Fields, pair, name, header_paths) -> Optional[tuple[CppName, ...]]:
    """`'ns::NAME'` (declared by a header outside the cited repositories) or `{name: ..., header: ...}`."""
    if pair is None:
        return ()
    result = []
    ok = True
    for item in f.sequence(pair[1], f"{name}: cpp") or ():
        if isinstance(item, MappingNode):
            fields = f.mapping(item, f"{name}: cpp item", required=("name", "header"))
            text = f.text(fields["name"][1], f"{name}: cpp name") if fields and "name" in fields else None
            header = f.text(fields["header"][1], f"{name}: cpp header") if fields and "header" in fields else None
            if header is not None and fields is not None and header not in header_paths:
                f.error(fields["header"][1], f"{name}: cpp header {header!r} is not in family.headers "
                                             f"({', '.join(sorted(header_paths)) or 'none declared'})")
                header = None
            if header is None:
                ok = False
        else:
            text, header = f.text(item, f"{name}: cpp name"), None
        if text is not None and not CPP_NAME.fullmatch(text):
            f.error(item, f"{name}: cpp name {text!r} must be qualified by its namespace, such as 'ns::NAME'")
            text = None
        if text is None:
            ok = False
        else:
            result.append(CppName(text, header, f.pos(item)))
    return tuple(result) if ok else None


def _renamed(f: Fields, node: Node, name: str) -> Optional[tuple[Rename, ...]]:
    """Its earlier names, oldest first: {python: OLD, c: OLD, until: {REPO: RELEASE}}."""
    result, ok = [], True
    for item in f.sequence(node, f"{name}: renamed") or ():
        fields = f.mapping(item, f"{name}: renamed item", required=("until",), optional=("python", "c"))
        if not fields or "until" not in fields:
            ok = False
            continue
        python = f.identifier(fields["python"][1], f"{name}: renamed python name") if "python" in fields else None
        c = f.identifier(fields["c"][1], f"{name}: renamed c name") if "c" in fields else None
        until = _releases(f, fields["until"][1], f"{name}: renamed until")
        if python is None and c is None:
            if "python" not in fields and "c" not in fields:
                f.error(item, f"{name}: a renamed item names the earlier python name, c name, or both")
            ok = False
        elif not until:
            if until is not None:
                f.error(fields["until"][1], f"{name}: renamed until names no repository; write {{OWNER/NAME: RELEASE}}")
            ok = False
        else:
            result.append(Rename(python, c, until, f.pos(item)))
    return tuple(result) if ok else None


def _releases(f: Fields, node: Node, what: str) -> Optional[tuple[tuple[str, str], ...]]:
    """{repository: release}: where upstream added, removed or renamed the code, per repository."""
    found = f.mapping(node, what, free_keys=True)
    if found is None:
        return None
    result, ok = [], True
    for repo, (key, value) in found.items():
        release = f.text(value, f"{what}.{repo}")
        if release is not None and release_key(release) is None:
            f.error(value, f"{what}.{repo}: {release!r} is no release (9.3.0, 9.2.0-beta.1)")
            release = None
        if release is None:
            ok = False
        else:
            result.append((repo, release))
    return tuple(result) if ok else None


def _text_entries(f: Fields, node: Node, what: str, languages) -> Optional[tuple[TextEntry, ...]]:
    """A column's entries as written: each names the versions it starts at (`from`); their
    editions are resolved once the versions are read (generator.reading.texts)."""
    entries: list[TextEntry] = []
    ok = True
    for item in f.sequence(node, what) or ():
        fields = f.mapping(
            item, f"{what} entry", required=("from",),
            optional=("origin", "untranslated", "markdown") + tuple(languages)
        )
        if not fields or "from" not in fields:
            ok = False
            continue
        starts = f.text_list(fields["from"][1], f"{what}: from")
        if starts == []:
            f.error(fields["from"][1], f"{what} entry starts at no version; name the versions it holds from")
        origin = f.choice(fields["origin"][1], f"{what}: origin", TEXT_ORIGINS) if "origin" in fields else "upstream"
        untranslated = _untranslated(f, fields.get("untranslated"), what, languages)
        markdown: Optional[str] = "false"
        if "markdown" in fields:
            markdown = f.choice(fields["markdown"][1], f"{what}: markdown", ("true", "false"))
        langs = [lang for lang in languages if lang in fields]
        if not langs and not untranslated:
            f.error(item, f"{what} entry gives no text; add one or more of: {', '.join(languages)}")
        if "origin" in fields and len(langs) > 1:
            f.error(fields["origin"][0], f"{what} entry gives `origin: {fields['origin'][1].value}` to its "
                                         f"{' and '.join(langs)} texts; an origin belongs to one language: give each "
                                         "language an entry of its own, with its own origin")
        for lang in untranslated or ():
            if lang in fields:
                f.error(fields[lang][0], f"{what} entry gives a {lang} text and marks {lang} untranslated; keep one")
                ok = False
        if not starts or origin is None or untranslated is None or markdown is None or not (langs or untranslated):
            ok = False
            continue
        ids = tuple(e for e, _ in starts)
        places = tuple(f.pos(n) for _, n in starts)
        for lang in langs:
            text = f.text(fields[lang][1], f"{what} ({lang})")
            if text is None:
                ok = False
            else:
                shown = plain(text) if markdown == "true" else text
                entries.append(TextEntry((), lang, shown, origin, f.pos(fields[lang][1]), ids, places,
                                         markup=None if shown == text else text, markdown=markdown == "true"))
        for lang in untranslated:
            entries.append(TextEntry((), lang, "", UNTRANSLATED, f.pos(fields["untranslated"][1]), ids, places))
    return tuple(entries) if ok else None


def _untranslated(f: Fields, pair, what: str, languages) -> Optional[list[str]]:
    """The languages whose translation of this entry's text is still to be written."""
    if pair is None:
        return []
    items = f.choice_list(pair[1], f"{what}: untranslated", languages[1:])
    return None if items is None else [lang for lang, _ in items]
