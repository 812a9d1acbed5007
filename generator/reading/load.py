"""Load and validate the catalog: every problem at once, or a Catalog model.

A catalog is a directory (or one file). Its top-level files hold the sections
that belong to the whole catalog (`format`, `site`, `repositories`) and may
hold one family; every subdirectory holds one family. A family is the
`family`, `editions` and `codes` sections of one directory (or file).
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Mapping, Optional

from ruamel.yaml.nodes import Node

from generator.reading.family import read_family
from generator.reading.discover import catalog_groups
from generator.reading.site import read_repositories, read_site
from generator.reading.fields import Fields
from generator.domain.family import Catalog, Family
from generator.core.problems import Pos, Reporter
from generator.reading.yaml_source import read_document

# 3: page versions (editions.yaml `versions:`) and texts held `from` versions;
# 4: names and removals per release (`renamed`, `removed`), a text's range within one timeline,
#    where a page's translations are kept (`translations`)
FORMAT = 4
# Earlier formats were converted by one-off scripts; they live in the project's history.
HOW_TO_CONVERT = {
    2: "convert it with scripts/migrate_to_versions.py, then with scripts/migrate_to_format_4.py",
    3: "convert it with scripts/migrate_to_format_4.py",
}
CATALOG_SECTIONS = ("format", "site", "repositories")
FAMILY_SECTIONS = ("family", "versions", "codes")
MAX_FILE_BYTES = 64 * 1024 * 1024  # a catalog of 10,000 codes is 15 MB


def display_path(path: Path) -> str:
    """A path as messages show it: relative to the working directory when inside it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive
        return str(path)
    return str(path) if rel.startswith("..") else rel


@dataclass
class Section:
    name: str
    reader: Fields
    key: Node
    value: Node


@dataclass
class Group:
    """The files of one directory: where one family's sections are found."""

    directory: str
    files: list[str]
    sections: dict[str, Section]


def catalog_files(location: Path) -> list[Path]:
    return [path for _, files in catalog_groups(location) for path in files]


def load_catalog(location: Path, staged: Optional[Mapping[Path, bytes]] = None) -> Catalog:
    """Read and validate the catalog at a directory or file; raises CatalogError. `staged`:
    the bytes some of its files are to have (an import's, before it writes them), read
    instead of the files'."""
    rep = Reporter()
    journal = (
        location / ".import-journal.json"
        if location.is_dir()
        else location.parent / f".{location.name}.import-journal.json"
    )
    if os.path.lexists(journal):
        rep.error(
            Pos(display_path(journal)),
            "an `import` was stopped part-way, so the catalog's files may be a mix of "
            "before and after it: run any `python -m generator import` to finish it (or remove this file "
            "and restore the catalog with `git checkout`)",
        )
        rep.raise_if_any()
    groups = [_read_group(directory, files, rep, staged or {}) for directory, files in catalog_groups(location)]
    if not any(group.files for group in groups):
        rep.error(Pos(display_path(location)), "no catalog files (*.yaml) here; pass --catalog DIR or FILE")
    rep.raise_if_any()
    catalog = build_catalog(groups, rep)
    return replace(catalog, warnings=tuple(sorted(set(rep.warnings))))


def read_catalog_bytes(path: Path, shown: str, rep: Reporter) -> Optional[bytes]:
    """A catalog file's bytes, refusing what is no regular file or is too large to be one."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            rep.error(
                Pos(shown),
                "this is not a regular file (a FIFO, a device, a directory?); pass a catalog file or directory",
            )
            return None
        if info.st_size > MAX_FILE_BYTES:
            rep.error(Pos(shown), f"the file is {info.st_size:,} bytes; catalog files are at most {MAX_FILE_BYTES:,}")
            return None
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        rep.error(Pos(shown), f"cannot read the catalog file: {exc.strerror or exc}")
        return None
    if len(data) > MAX_FILE_BYTES:
        rep.error(Pos(shown), f"the file grew past {MAX_FILE_BYTES:,} bytes while it was read")
        return None
    return data


def _read_group(directory: str, files: list[Path], rep: Reporter, staged: Mapping[Path, bytes]) -> Group:
    group = Group(directory, [], {})
    for path in files:
        shown = display_path(path)
        group.files.append(shown)
        data = staged[path] if path in staged else read_catalog_bytes(path, shown, rep)
        if data is None:
            continue
        doc, problems = read_document(shown, data)
        rep.problems.extend(problems)
        if problems:
            continue
        if doc.root is None:
            rep.error(
                Pos(shown),
                "the file is empty; it needs one of the sections " + ", ".join(CATALOG_SECTIONS + FAMILY_SECTIONS),
            )
            continue
        reader = Fields(doc, rep)
        former = reader.peek_key(doc.root, "editions")
        if former is not None:  # format 2's section: say how to convert, not just "unknown field"
            reader.error(
                former,
                "`editions:` is the catalog's former shape (format 2, one entry per edition); this "
                f"generator reads format {FORMAT}: {HOW_TO_CONVERT[2]} (each from this project's history: "
                "git log --all -- SCRIPT)",
            )
            continue
        top = reader.mapping(doc.root, "the catalog file", optional=CATALOG_SECTIONS + FAMILY_SECTIONS)
        for name, (key, value) in (top or {}).items():
            if name in group.sections:
                other = group.sections[name]
                reader.error(key, f"section {name!r} is already defined at {other.reader.pos(other.key)}; keep one")
                continue
            if directory and name in CATALOG_SECTIONS:
                reader.error(
                    key, f"section {name!r} belongs to the whole catalog: move it to a file at the catalog's top level"
                )
                continue
            group.sections[name] = Section(name, reader, key, value)
    return group


def build_catalog(groups: list[Group], rep: Reporter) -> Catalog:
    top = groups[0]
    where = Pos(top.files[0]) if top.files else Pos(groups[1].files[0] if len(groups) > 1 else "catalog")
    for name in ("format", "site"):
        if name not in top.sections:
            rep.error(where, f"the catalog has no {name!r} section; add it to a file at the catalog's top level")
    if "format" in top.sections:
        section = top.sections["format"]
        version = section.reader.integer(section.value, "format")
        if version in HOW_TO_CONVERT:
            section.reader.error(
                section.value,
                f"format {version} is an earlier shape of the catalog; this generator reads format {FORMAT}: "
                f"{HOW_TO_CONVERT[version]} (each from this project's history: git log --all -- SCRIPT)",
            )
        elif version is not None and version != FORMAT:
            section.reader.error(
                section.value, f"format {version} is not supported; this generator reads format {FORMAT}"
            )
    site = read_site(top.sections["site"], rep) if "site" in top.sections else None
    repositories = read_repositories(top.sections.get("repositories"), rep)
    families: list[Family] = []
    for group in groups:
        present = [name for name in FAMILY_SECTIONS if name in group.sections]
        if not present:
            if group.directory:
                rep.error(
                    Pos(group.files[0]),
                    f"this directory holds no family; give it the sections {', '.join(FAMILY_SECTIONS)}",
                )
            continue
        for name in FAMILY_SECTIONS:
            if name not in group.sections:
                rep.error(
                    Pos(group.files[0]), f"the family in {group.directory or 'the top level'} has no {name!r} section"
                )
        if len(present) == len(FAMILY_SECTIONS) and site is not None:
            family = read_family(group.sections, group.files, site, repositories, rep)
            if family is not None:
                families.append(family)
    if site is not None and not rep.problems:
        families = _site_order(site, families, top, rep)
    rep.raise_if_any()
    return Catalog(site, repositories, tuple(families), tuple(f for g in groups for f in g.files))  # type: ignore[arg-type]


def _site_order(site, families: list[Family], top: Group, rep: Reporter) -> list[Family]:
    """Families in the order `site.families` gives; every family named once."""
    by_id: dict[str, Family] = {}
    for family in families:
        if family.id in by_id:
            rep.error(
                family.pos,
                f"family id {family.id!r} is already used by the family at {by_id[family.id].pos}; ids are unique",
            )
        by_id[family.id] = family
    paths: dict[str, Family] = {}
    for family in families:
        if family.site_path in paths:
            rep.error(
                family.pos, f"site_path {family.site_path!r} is already used by family {paths[family.site_path].id}"
            )
        paths[family.site_path] = family
    outputs: dict[str, Family] = {}
    for family in families:
        for name in (f"python/{family.python.module}", f"c/{family.c.header}"):
            if name in outputs:
                rep.error(
                    family.pos,
                    f"{family.id}: output {name} is also family {outputs[name].id}'s; give each family its own module "
                    "and header names",
                )
            outputs[name] = family
    section = top.sections["site"]
    if not site.families:
        if len(families) > 1:
            rep.error(
                section.reader.pos(section.key),
                "site.families must list the families in the order the site shows them: " + ", ".join(sorted(by_id)),
            )
        return families
    ordered = []
    for family_id in site.families:
        if family_id not in by_id:
            rep.error(
                section.reader.pos(section.value),
                f"site.families names {family_id!r}, which no directory of the catalog holds",
            )
        else:
            ordered.append(by_id[family_id])
    for family_id in by_id:
        if family_id not in site.families:
            rep.error(
                by_id[family_id].pos,
                f"family {family_id!r} is not in site.families; add it where the site should show it",
            )
    return ordered
