"""Load and validate the catalog: every problem at once, or a Catalog model."""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Optional

from ruamel.yaml.nodes import Node

from generator.fields import Fields
from generator.model import (
    LABEL_KEYS, RECOVERABLE_VALUES, TEXT_FIELDS, TEXT_ORIGINS, Catalog, CNames, Code, Edition, Family,
    Localized, Obsolete, PythonNames, Row, TextEntry,
)
from generator.problems import CatalogError, Pos, Reporter, closest
from generator.texts import check_texts
from generator.yamlsource import read_document

FORMAT = 1
PYTHON_NAME_FIELDS = ("module", "enum", "exception", "default_status", "unknown_status")
SECTIONS = ("format", "family", "editions", "codes")
EDITION_ID = re.compile(r"^[0-9A-Za-z][0-9A-Za-z._-]*$")
CPP_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)+$")
C_RANGE = (0, 0xFFFFFFFF)  # ge::Status is uint32_t
PYTHON_RANGE = (-(2**63), 2**64 - 1)
FALLBACK_LANGUAGES = ("zh", "en")


def display_path(path: Path) -> str:
    """A path as messages show it: relative to the working directory when inside it."""
    rel = os.path.relpath(path)
    return str(path) if rel.startswith("..") else rel


def catalog_files(location: Path) -> list[Path]:
    if location.is_dir():
        return sorted(p for p in location.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())
    return [location]


def load_catalog(location: Path) -> Catalog:
    """Read and validate the catalog at a directory or file; raises CatalogError."""
    rep = Reporter()
    files = catalog_files(location)
    if not files:
        rep.error(Pos(display_path(location)), "no catalog files (*.yaml) here; pass --catalog DIR or FILE")
    sections = _read_sections(files, rep)
    rep.raise_if_any()
    return build_catalog(sections, rep, tuple(display_path(p) for p in files))


def _read_sections(files: list[Path], rep: Reporter) -> dict[str, tuple[Fields, Node, Node]]:
    sections: dict[str, tuple[Fields, Node, Node]] = {}
    for path in files:
        shown = display_path(path)
        try:
            data = path.read_bytes()
        except OSError as exc:
            rep.error(Pos(shown), f"cannot read the catalog file: {exc.strerror}")
            continue
        doc, problems = read_document(shown, data)
        rep.problems.extend(problems)
        if problems or doc.root is None:
            if not problems:
                rep.error(Pos(shown), "the file is empty; it needs one of the sections " + ", ".join(SECTIONS))
            continue
        reader = Fields(doc, rep)
        top = reader.mapping(doc.root, "the catalog file", optional=SECTIONS)
        for name, (key, value) in (top or {}).items():
            if name in sections:
                other = sections[name][0].pos(sections[name][1])
                reader.error(key, f"section {name!r} is already defined at {other}; keep one")
                continue
            sections[name] = (reader, key, value)
    if files and not rep.problems:
        for name in SECTIONS:
            if name not in sections:
                rep.error(Pos(display_path(files[0])), f"the catalog has no {name!r} section")
    return sections


def build_catalog(sections, rep: Reporter, files: tuple[str, ...]) -> Catalog:
    reader, _, node = sections["format"]
    version = reader.integer(node, "format")
    if version is not None and version != FORMAT:
        reader.error(node, f"format {version} is not supported; this generator reads format {FORMAT}")
    family = _family(*_pick(sections, "family"), rep)
    languages = family.languages if family else FALLBACK_LANGUAGES
    codes = _codes(*_pick(sections, "codes"), languages)
    written = _written_names(*_pick(sections, "codes"))
    editions = _editions(*_pick(sections, "editions"), languages, codes, written)
    declared = _declared_ids(*_pick(sections, "editions"))
    check_texts(codes, editions, declared, rep)
    if family is not None:
        _check_status_members(sections["family"][0], sections["family"][2], family, codes)
    rep.raise_if_any()
    return Catalog(family, tuple(editions), tuple(codes), files)  # type: ignore[arg-type]


def _check_status_members(f: Fields, node: Node, family: Family, codes: list[Code]) -> None:
    members = {code.python_name for code in codes if code.in_python}
    for field_name in ("default_status", "unknown_status"):
        name = getattr(family.python, field_name)
        if name not in members:
            f.error(node, f"family.python.{field_name}: {name!r} is no Python member of the codes{closest(name, members - {None})}")


def _pick(sections, name):
    reader, _, node = sections[name]
    return reader, node


# -- family ---------------------------------------------------------------

_FAMILY_FIELDS = (
    "python", "c", "languages", "language_names", "title", "site_name", "intro", "columns",
    "recoverable_labels", "search_words", "labels")


def _family(f: Fields, node: Node, rep: Reporter) -> Optional[Family]:
    fields = f.mapping(node, "family", required=_FAMILY_FIELDS)
    if fields is None or len(fields) < len(_FAMILY_FIELDS):
        return None
    languages = _languages(f, fields["languages"][1])
    if languages is None:
        return None
    loc = {k: f.localized(fields[k][1], f"family.{k}", languages) for k in ("language_names", "title", "site_name", "intro")}
    columns = _localized_table(f, fields["columns"][1], "family.columns", ("name", "meaning", "recoverable", "solution"), languages)
    labels = _localized_table(f, fields["recoverable_labels"][1], "family.recoverable_labels", RECOVERABLE_VALUES, languages)
    site_labels = _localized_table(f, fields["labels"][1], "family.labels", LABEL_KEYS, languages)
    words = f.text_list(fields["search_words"][1], "family.search_words")
    python = _names(f, fields["python"][1], "family.python", PYTHON_NAME_FIELDS)
    c = _names(f, fields["c"][1], "family.c", ("header", "guard", "namespace", "name_function", "message_function"))
    parts = (python, c, columns, labels, site_labels, words, *loc.values())
    if any(part is None for part in parts):
        return None
    return Family(
        PythonNames(**python), CNames(**c), languages, columns=columns, recoverable_labels=labels,  # type: ignore[arg-type]
        search_words=tuple(w for w, _ in words), labels=site_labels, **loc)  # type: ignore[union-attr]


def _languages(f: Fields, node: Node) -> Optional[tuple[str, ...]]:
    items = f.text_list(node, "family.languages")
    if not items:
        if items is not None:
            f.error(node, "family.languages must name at least one language")
        return None
    seen: list[str] = []
    for lang, item in items:
        if not re.match(r"^[a-z]{2,3}$", lang):
            f.error(item, f"language {lang!r} must be a lower-case ISO 639 code such as zh or en")
        elif lang in seen:
            f.error(item, f"language {lang!r} is listed twice")
        else:
            seen.append(lang)
    return tuple(seen) if len(seen) == len(items) else None


def _localized_table(f: Fields, node: Node, what: str, keys, languages):
    fields = f.mapping(node, what, required=keys)
    if fields is None:
        return None
    table = tuple((k, f.localized(v, f"{what}.{k}", languages)) for k, (_, v) in fields.items())
    if len(table) != len(keys) or any(v is None for _, v in table):
        return None
    order = {k: i for i, k in enumerate(keys)}
    return tuple(sorted(table, key=lambda kv: order[kv[0]]))


def _names(f: Fields, node: Node, what: str, keys) -> Optional[dict[str, str]]:
    fields = f.mapping(node, what, required=keys)
    if fields is None:
        return None
    names = {k: f.identifier(v, f"{what}.{k}") for k, (_, v) in fields.items()}
    return names if len(names) == len(keys) and None not in names.values() else None  # type: ignore[return-value]


# -- codes ----------------------------------------------------------------

_CODE_FIELDS = ("python", "c", "value", "cpp", "log_message", "obsolete", "notes", "meaning", "solution")


def _codes(f: Fields, node: Node, languages) -> list[Code]:
    codes: list[Code] = []
    names: dict[str, Code] = {}
    values: dict[int, Code] = {}
    for index, item in enumerate(f.sequence(node, "codes") or ()):
        code = _code(f, item, index, languages)
        if code is None:
            continue
        clash = _name_clash(code, names)
        if clash:
            f.error(item, clash)
            continue
        if code.value in values:
            other = values[code.value]
            f.error(item, f"{code.name}: value {code.hex} already used by {other.name} (line {other.pos.line}); every value is used once")
            continue
        values[code.value] = code
        for name in filter(None, (code.python_name, code.c_name)):
            names.setdefault(name, code)
        codes.append(code)
    return codes


def _name_clash(code: Code, names: dict[str, Code]) -> Optional[str]:
    for name in filter(None, (code.python_name, code.c_name)):
        other = names.get(name)
        if other is not None:
            return f"{code.name}: name {name} is already used by {other.name} (line {other.pos.line}); names identify one code"
    return None


def _code(f: Fields, node: Node, index: int, languages) -> Optional[Code]:
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
    cpp = _cpp_names(f, fields.get("cpp"), name)
    log_message = f.text(fields["log_message"][1], f"{name}: log_message") if "log_message" in fields else None
    notes = f.localized(fields["notes"][1], f"{name}: notes", languages) if "notes" in fields else None
    obsolete = _obsolete(f, fields["obsolete"][1], name, languages) if "obsolete" in fields else None
    texts = {k: _text_entries(f, fields[k][1], f"{name}: {k}", languages) if k in fields else () for k in TEXT_FIELDS}
    if value is None or cpp is None or None in texts.values():
        return None
    return Code(python, c, value, cpp, log_message, obsolete, notes, texts["meaning"], texts["solution"], index, f.pos(node))  # type: ignore[arg-type]


def _cpp_names(f: Fields, pair, name) -> Optional[tuple[str, ...]]:
    if pair is None:
        return ()
    items = f.text_list(pair[1], f"{name}: cpp")
    if items is None:
        return None
    for text, item in items:
        if not CPP_NAME.match(text):
            f.error(item, f"{name}: cpp name {text!r} must be qualified, such as 'llm_datadist::LLM_TIMEOUT'")
    return tuple(text for text, _ in items)


def _obsolete(f: Fields, node: Node, name: str, languages) -> Optional[Obsolete]:
    fields = f.mapping(node, f"{name}: obsolete", required=("since", "reason"))
    if not fields or len(fields) < 2:
        return None
    since = f.text(fields["since"][1], f"{name}: obsolete.since")
    reason = f.localized(fields["reason"][1], f"{name}: obsolete.reason", languages)
    return Obsolete(since, reason) if since and reason else None


def _text_entries(f: Fields, node: Node, what: str, languages) -> Optional[tuple[TextEntry, ...]]:
    entries: list[TextEntry] = []
    for item in f.sequence(node, what) or ():
        fields = f.mapping(item, f"{what} entry", required=("editions",), optional=languages)
        if not fields or "editions" not in fields:
            continue
        editions = f.text_list(fields["editions"][1], f"{what}: editions")
        if editions == []:
            f.error(fields["editions"][1], f"{what} entry names no edition")
        langs = [lang for lang in languages if lang in fields]
        if not langs:
            f.error(item, f"{what} entry gives no text; add one or more of: {', '.join(languages)}")
        for lang in langs:
            text = f.text(fields[lang][1], f"{what} ({lang})")
            if text is not None and editions is not None:
                ids = tuple(e for e, _ in editions)
                places = tuple(f.pos(node) for _, node in editions)
                entries.append(TextEntry(ids, lang, text, f.pos(fields[lang][1]), places))
    return tuple(entries)


# -- editions ------------------------------------------------------------

_EDITION_FIELDS = ("id", "release", "page", "sources", "texts", "order", "rows", "not_listed_not_known", "notes")


def _editions(f: Fields, node: Node, languages, codes: list[Code], written: set[str]) -> list[Edition]:
    code_index = {code.name: code.index for code in codes}
    editions: list[Edition] = []
    seen: dict[str, Edition] = {}
    items = f.sequence(node, "editions")
    if items == []:
        f.error(node, "editions must list at least one edition")
    for index, item in enumerate(items or ()):
        edition = _edition(f, item, len(editions), languages, code_index, written)
        if edition is None:
            continue
        if edition.id in seen:
            f.error(item, f"edition {edition.id!r} is already declared at line {seen[edition.id].pos.line}; ids are unique")
            continue
        seen[edition.id] = edition
        editions.append(edition)
    return editions


def _written_names(f: Fields, node: Node) -> set[str]:
    """Every code name written, valid or not."""
    items = node.value if isinstance(node.value, list) else []
    names = set()
    for item in items:
        names.update(n for n in (f.peek(item, "python"), f.peek(item, "c")) if n)
    return names


def _declared_ids(f: Fields, node: Node) -> set[str]:
    """Every edition id written, valid or not: texts naming a broken edition are not reported twice."""
    items = node.value if isinstance(node.value, list) else []
    return {f.peek(item, "id") for item in items} - {None}  # type: ignore[return-value]


def _edition(f: Fields, node: Node, index: int, languages, code_index, written) -> Optional[Edition]:
    label = f"edition {f.peek(node, 'id')}" if f.peek(node, "id") else "an edition"
    fields = f.mapping(node, label, required=("id", "release", "page", "texts", "order", "rows"), optional=_EDITION_FIELDS)
    if fields is None or "id" not in fields:
        return None
    ident = f.text(fields["id"][1], "edition id")
    if ident is not None and not EDITION_ID.match(ident):
        f.error(fields["id"][1], f"edition id {ident!r} may hold only letters, digits, '.', '-' and '_' (it is part of URLs)")
        ident = None
    what = f"edition {ident}"
    release = f.text(fields["release"][1], f"{what}: release") if "release" in fields else None
    page = f.localized(fields["page"][1], f"{what}: page", languages) if "page" in fields else None
    sources = f.text_list(fields["sources"][1], f"{what}: sources") if "sources" in fields else []
    origins = _origins(f, fields["texts"][1], what, languages) if "texts" in fields else None
    order = f.choice(fields["order"][1], f"{what}: order", ("page", "not known")) if "order" in fields else None
    notes = f.localized(fields["notes"][1], f"{what}: notes", languages) if "notes" in fields else None
    rows = _rows(f, fields["rows"][1], what, code_index, written) if "rows" in fields else None
    unknown = _not_known(f, fields.get("not_listed_not_known"), what, code_index, rows or (), written)
    parts = (ident, release, page, sources, origins, order, rows, unknown)
    if any(part is None for part in parts) or ("notes" in fields and notes is None):
        return None
    if order == "not known":
        rows = sorted(rows, key=lambda row: code_index[row.code])  # type: ignore[arg-type]
    return Edition(
        ident, release, page, tuple(s for s, _ in sources), None if origins == "not known" else origins,  # type: ignore[arg-type]
        order == "page", tuple(rows), tuple(unknown), notes, index, f.pos(node))  # type: ignore[arg-type]


def _origins(f: Fields, node: Node, what: str, languages):
    from ruamel.yaml.nodes import ScalarNode

    if isinstance(node, ScalarNode):
        return f.choice(node, f"{what}: texts", ("not known",))
    fields = f.mapping(node, f"{what}: texts", optional=languages)
    if fields is None:
        return None
    origins = tuple((lang, f.choice(v, f"{what}: texts ({lang})", TEXT_ORIGINS)) for lang, (_, v) in fields.items())
    if not origins:
        f.error(node, f"{what}: texts names no language; write `texts: not known` instead")
        return None
    order = {lang: i for i, lang in enumerate(languages)}
    return None if any(o is None for _, o in origins) else tuple(sorted(origins, key=lambda x: order[x[0]]))


def _rows(f: Fields, node: Node, what: str, code_index, written) -> Optional[list[Row]]:
    fields = f.mapping(node, f"{what}: rows", free_keys=True)
    if fields is None:
        return None
    rows = []
    for name, (key, value) in fields.items():
        if name not in code_index and name in written:
            continue  # a code written but invalid: reported where it is written
        if name not in code_index:
            f.error(key, f"{what}: rows: no code named {name!r}{closest(name, code_index)}; add it to codes first")
            continue
        recoverable = f.choice(value, f"{what}: rows: {name}", RECOVERABLE_VALUES)
        if recoverable is not None:
            rows.append(Row(name, recoverable, f.pos(key)))
    return rows if len(rows) == len(fields) else None


def _not_known(f: Fields, pair, what: str, code_index, rows, written) -> Optional[list[str]]:
    if pair is None:
        return []
    items = f.text_list(pair[1], f"{what}: not_listed_not_known")
    if items is None:
        return None
    listed = {row.code for row in rows}
    result = []
    for name, item in items:
        if name not in code_index and name in written:
            return None  # a code written but invalid: reported where it is written
        if name not in code_index:
            f.error(item, f"{what}: not_listed_not_known: no code named {name!r}{closest(name, code_index)}")
        elif name in listed:
            f.error(item, f"{what}: {name} is in rows, so its listing is known; remove it from not_listed_not_known")
        elif name in result:
            f.error(item, f"{what}: {name} is named twice in not_listed_not_known")
        else:
            result.append(name)
    return result
