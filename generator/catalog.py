"""Load and validate the catalog: every problem at once, or a Catalog model."""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Optional

from ruamel.yaml.nodes import Node

from generator.catalog_codes import read_codes, written_names
from generator.catalog_editions import declared_ids, read_editions
from generator.fields import Fields
from generator.model import LABEL_KEYS, RECOVERABLE_VALUES, Catalog, CNames, Code, Family, PythonNames
from generator.problems import Pos, Reporter, closest
from generator.texts import check_texts
from generator.yamlsource import read_document

FORMAT = 1
PYTHON_NAME_FIELDS = ("module", "enum", "exception", "default_status", "unknown_status")
SECTIONS = ("format", "family", "editions", "codes")
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
    flawed: set[str] = set()
    codes = read_codes(*_pick(sections, "codes"), languages, flawed)
    written = written_names(*_pick(sections, "codes"))
    editions = read_editions(*_pick(sections, "editions"), languages, codes, written)
    declared = declared_ids(*_pick(sections, "editions"))
    check_texts(codes, editions, declared, flawed, rep)
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
    "python", "c", "languages", "language_names", "title", "description", "site_name", "intro", "columns",
    "recoverable_labels", "search_words", "labels")


def _family(f: Fields, node: Node, rep: Reporter) -> Optional[Family]:
    fields = f.mapping(node, "family", required=_FAMILY_FIELDS)
    if fields is None or len(fields) < len(_FAMILY_FIELDS):
        return None
    languages = _languages(f, fields["languages"][1])
    if languages is None:
        return None
    loc = {k: f.localized(fields[k][1], f"family.{k}", languages) for k in ("language_names", "title", "description", "site_name", "intro")}
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
