"""Load and validate the catalog: every problem at once, or a Catalog model.

A catalog is a directory (or one file). Its top-level files hold the sections that belong to
the whole catalog (`format`, `site`, `repositories`) and may hold one family; every
subdirectory holds one family. A family is the `family`, `versions` and `codes` sections of
one directory (or file). Each file is checked against the format (generator.reading.format);
an item the format refuses (a code, a version) is left out and the rest is checked on, so that
one run reports every problem; then the model is built, with the checks only code can make.
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping, Optional, Sequence, Union

from generator.core.problems import Pos, Reporter
from generator.domain.family import Catalog, Family
from generator.domain.messages import MessageFamily
from generator.reading.discover import catalog_groups
from generator.reading.family import read_family
from generator.reading.messages import read_message_family
from generator.reading.format import CATALOG_SECTIONS, FAMILY_SECTIONS, FORMAT, MESSAGE_SECTIONS, CatalogFile
from generator.reading.raw import RawList, RawMap, to_raw, validate
from generator.reading.site import read_repositories, read_site
from generator.reading.yaml_source import read_document

# Earlier formats were converted by one-off scripts, each deleted once it ran (git log --all -- PATH finds it):
# the commit named is the last that has the script and the generator that reads what it writes.
HOW_TO_CONVERT = {  # format -> (COMMIT:SCRIPT that converts it, the format it writes)
    2: ("d976187^:scripts/migrate_to_versions.py", 3),
    3: ("af12b7a^:scripts/migrate_to_format_4.py", 4),
    4: ("e1142d7:scripts/migrate_to_format_5.py", 5),
    5: ("faf602e:scripts/migrate_to_format_6.py", 6),
}
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
    record: Any  # what the format made of it (a Site, a Family, the versions by timeline, the codes)
    raw: Any  # as written
    file: RawMap  # the file's top mapping


@dataclass
class Group:
    """The files of one directory: where one family's sections are found."""

    directory: str
    files: list[str]
    sections: dict[str, Section]
    broken: set[str] = field(default_factory=set)  # names of codes and ids of versions the format refused
    written: set[str] = field(default_factory=set)  # every section its files write, refused or not
    unreadable: bool = False  # a file that could not be read as YAML


def catalog_files(location: Path) -> list[Path]:
    return [path for _, files in catalog_groups(location) for path in files]


def load_catalog(location: Path, staged: Optional[Mapping[Path, bytes]] = None) -> Catalog:
    """Read and validate the catalog at a directory or file; raises CatalogError. `staged`:
    the bytes some of its files are to have (an import's, before it writes them), read
    instead of the files'."""
    rep = Reporter()
    journal = (location / ".import-journal.json" if location.is_dir()
               else location.parent / f".{location.name}.import-journal.json")
    if os.path.lexists(journal):
        rep.error(Pos(display_path(journal)),
                  "an `import` was stopped part-way, so the catalog's files may be a mix of before and after it: run "
                  "any `python -m generator import` to finish it (or remove this file and restore the catalog with "
                  "`git checkout`)")
        rep.raise_if_any()
    groups = [_read_group(directory, files, rep, staged or {}) for directory, files in catalog_groups(location)]
    if not any(group.files for group in groups):
        rep.error(Pos(display_path(location)), "no catalog files (*.yaml) here; pass --catalog DIR or FILE")
        rep.raise_if_any()  # nothing else to say of a catalog that has no file
    if any(group.unreadable for group in groups):
        rep.raise_if_any()  # a file that is no YAML: what is missing from it would only be reported again
    catalog = build_catalog(groups, rep)
    return replace(catalog, warnings=tuple(sorted(set(rep.warnings))))


def read_catalog_bytes(path: Path, shown: str, rep: Reporter) -> Optional[bytes]:
    """A catalog file's bytes, refusing what is no regular file or is too large to be one."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            rep.error(Pos(shown), "this is not a regular file (a FIFO, a device, a directory?); pass a catalog file or "
                                  "directory")
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
        top = _raw_file(shown, data, rep) if data is not None else None
        if top is None:
            group.unreadable = True
            continue
        names = list(top)
        group.written.update(names)
        record = _checked(top, group, rep)
        for name in names:
            if name in group.sections:
                rep.error(top.pos(name, of_key=True),
                          f"section {name!r} is already defined at {group.sections[name].file.pos(name, of_key=True)}"
                          "; keep one")
            elif directory and name in CATALOG_SECTIONS:
                rep.error(top.pos(name, of_key=True), f"section {name!r} belongs to the whole catalog: move it to a "
                                                      "file at the catalog's top level")
            elif record is not None and name in top and getattr(record, name) is not None:
                group.sections[name] = Section(name, getattr(record, name), top[name], top)
    return group


def _raw_file(shown: str, data: bytes, rep: Reporter) -> Optional[RawMap]:
    """A file's top mapping as written, or None after reporting why there is none."""
    doc, problems = read_document(shown, data)
    rep.problems.extend(problems)
    if problems:
        return None
    if doc.root is None:
        rep.error(Pos(shown), "the file is empty; it needs one of the sections "
                              + ", ".join(CATALOG_SECTIONS + FAMILY_SECTIONS))
        return None
    top = to_raw(doc, doc.root, rep.problems)
    if not isinstance(top, RawMap):
        rep.error(doc.pos(doc.root), "a catalog file is a mapping of sections (format:, site:, family:, codes: ...)")
        return None
    if "editions" in top:  # format 2's section: say how to convert, not just "unknown field"
        rep.error(top.pos("editions", of_key=True), "`editions:` is the catalog's former shape (format 2, one entry "
                                                    f"per edition); this generator reads format {FORMAT}: "
                                                    f"{_convert(2)}")
        return None
    return top


def _checked(top: RawMap, group: Group, rep: Reporter) -> Optional[CatalogFile]:
    """The file as the format reads it. An item the format refuses (a code, a version, a
    repository; any other section whole) is reported and left out, its names kept in
    `group.broken`, so that what is left is checked on."""
    for _ in range(3):  # leaving an item out can only leave its list too short: a few rounds settle it
        record, found = validate(CatalogFile, top)
        if record is not None:
            return record
        rep.problems.extend(problem for problem, _ in found if problem not in rep.problems)
        dropped: dict[int, tuple[RawList, set[int], tuple[str, ...]]] = {}
        for _, loc in found:
            _leave_out(top, loc, dropped)
        for items, indexes, keys in dropped.values():
            group.broken.update(name for i in indexes for name in _item_names(items[i], keys))
            items.drop(indexes)
    return None


def _leave_out(top: RawMap, loc: tuple, dropped: dict) -> None:
    """Mark the item an error is in to be left out: a code, a version, a repository; else its section."""
    section = loc[0] if loc else None
    value = top.get(section)
    if section == "codes" and len(loc) > 1 and isinstance(value, RawList) and isinstance(loc[1], int):
        dropped.setdefault(id(value), (value, set(), ("python", "c")))[1].add(loc[1])
    elif section == "versions" and len(loc) > 2 and isinstance(value, RawMap) \
            and isinstance(value.get(loc[1]), RawList) and isinstance(loc[2], int):
        dropped.setdefault(id(value[loc[1]]), (value[loc[1]], set(), ("version",)))[1].add(loc[2])
    elif section == "repositories" and len(loc) > 1 and isinstance(value, RawMap):
        value.pop(loc[1], None)
    elif section in top:
        del top[section]


def _item_names(item: Any, keys: tuple[str, ...]) -> set[str]:
    names = {item[k] for k in keys if isinstance(item, dict) and isinstance(item.get(k), str)}
    renamed = item.get("earlier") if isinstance(item, dict) else None
    for rename in renamed if isinstance(renamed, list) else ():
        names |= {rename[k] for k in ("python", "c") if isinstance(rename, dict) and isinstance(rename.get(k), str)}
    return names


def _convert(version: int) -> str:
    """How to convert a catalog of an earlier format: the scripts, each from the commit that has it."""
    steps = []
    while version in HOW_TO_CONVERT:
        script, version = HOW_TO_CONVERT[version]
        steps.append(f"`git show {script} > convert.py && python convert.py CATALOG`")
    return ("convert it in this repository's clone with " + ", then ".join(steps)
            + " (each script converts one format; git log --all -- SCRIPT finds it)")


def build_catalog(groups: list[Group], rep: Reporter) -> Catalog:
    top = groups[0]
    where = Pos(top.files[0]) if top.files else Pos(groups[1].files[0] if len(groups) > 1 else "catalog")
    for name in ("format", "site"):
        if name not in top.sections and name not in top.written:  # one written but refused is reported there
            rep.error(where, f"the catalog has no {name!r} section; add it to a file at the catalog's top level")
    if "format" in top.sections:
        _check_format(top.sections["format"], rep)
    site = read_site(top.sections["site"], rep) if "site" in top.sections else None
    repositories = read_repositories(top.sections.get("repositories"))
    families: list[Family] = []
    messages: list[MessageFamily] = []
    for group in groups:
        if any(name in group.written for name in MESSAGE_SECTIONS):
            found = _message_family(group, repositories, rep)
            messages += [found] if found is not None else []
            continue
        family = _family(group, site, repositories, rep)
        if family is not None:
            families.append(family)
    if site is not None and not rep.problems:
        families = _site_order(site, families, top, rep, messages)
    rep.raise_if_any()
    return Catalog(site, repositories, tuple(families), tuple(f for g in groups for f in g.files),  # type: ignore[arg-type]
                   message_families=tuple(sorted(messages, key=lambda m: (*site.families, m.id).index(m.id))))  # type: ignore[union-attr]


def _message_family(group: Group, repositories, rep: Reporter) -> Optional[MessageFamily]:
    """A family of messages (one page per code): its two sections, and no section of the table families'."""
    for name in MESSAGE_SECTIONS:
        if name not in group.written:
            rep.error(Pos(group.files[0]), f"the family in {group.directory or 'the top level'} has no {name!r} "
                                           "section")
    for name in FAMILY_SECTIONS:
        if name in group.written:
            rep.error(Pos(group.files[0]), f"the family in {group.directory} is a family of messages "
                                           f"(message_family:): it has no {name!r} section; remove it")
    if not all(name in group.sections for name in MESSAGE_SECTIONS):
        return None
    return read_message_family(group.sections, group.files, repositories, rep)


def _check_format(section: Section, rep: Reporter) -> None:
    version = section.record
    pos = section.file.pos("format")
    if version in HOW_TO_CONVERT:
        rep.error(pos, f"format {version} is an earlier shape of the catalog; this generator reads format {FORMAT}: "
                       f"{_convert(version)}")
    elif version != FORMAT:
        rep.error(pos, f"format {version} is not supported; this generator reads format {FORMAT}")


def _family(group: Group, site, repositories, rep: Reporter) -> Optional[Family]:
    present = [name for name in FAMILY_SECTIONS if name in group.sections]
    written = [name for name in FAMILY_SECTIONS if name in group.written]
    if not written:
        if group.directory and group.files:
            rep.error(Pos(group.files[0]), f"this directory holds no family; give it the sections "
                                           f"{', '.join(FAMILY_SECTIONS)}")
        return None
    for name in FAMILY_SECTIONS:
        if name not in group.sections and name not in written:
            rep.error(Pos(group.files[0]), f"the family in {group.directory or 'the top level'} has no {name!r} "
                                           "section")
    if len(present) < len(FAMILY_SECTIONS) or site is None:
        return None
    return read_family(group.sections, group.files, site, repositories, group.broken, rep)


def _site_order(site, families: list[Family], top: Group, rep: Reporter,
                messages: Sequence[MessageFamily] = ()) -> list[Family]:
    """Families in the order `site.families` gives; every family named once."""
    by_id: dict[str, Union[Family, MessageFamily]] = {}
    every: list[Union[Family, MessageFamily]] = [*families, *messages]
    for family in every:
        if family.id in by_id:
            rep.error(family.pos, f"family id {family.id!r} is already used by the family at {by_id[family.id].pos}; "
                                  "ids are unique")
        by_id[family.id] = family
    _unique_outputs(families, rep, messages, site.languages)
    section = top.sections["site"]
    if not site.families:
        if len(families) > 1:
            rep.error(section.file.pos("site", of_key=True),
                      "site.families must list the families in the order the site shows them: " + ", ".join(by_id))
        return families
    ordered: list[Family] = []
    for index, family_id in enumerate(site.families):
        if family_id not in by_id:
            rep.error(section.record.at("families", index),
                      f"site.families names {family_id!r}, which no directory of the catalog holds")
        elif isinstance(found := by_id[family_id], Family):
            ordered.append(found)
    for family_id in by_id:
        if family_id not in site.families:
            rep.error(by_id[family_id].pos, f"family {family_id!r} is not in site.families; add it where the site "
                                            "should show it")
    return ordered


# The site's own top-level paths, which no family's site_path may take (beside the languages: /en/).
SITE_PATHS = frozenset({"assets", "codes", "editions", "differences", "search", "index", "404", "sitemap"})


def _unique_outputs(families: list[Family], rep: Reporter, messages: Sequence[MessageFamily] = (),
                    languages: Sequence[str] = ()) -> None:
    """Each family's own site path, module and header (a family of messages has a module, no header),
    and the header's own names: headers of several families are included in one translation unit."""
    paths: dict[str, str] = {}
    outputs: dict[str, str] = {}
    header_names: dict[str, str] = {}
    # upstream's namespaces, every family's (HIXL's hixl:: beside ADXL's header), and the standard library's
    upstream = {header.namespace for table in families for header in table.headers} | {"std"}
    for table in families:
        if table.c.namespace in upstream:
            whose = "the C++ standard library's" if table.c.namespace == "std" else \
                "the namespace of upstream's headers"
            rep.error(table.pos, f"{table.id}: family.c.namespace {table.c.namespace!r} is {whose}: the generated "
                                 "header is included beside them, and its constants would be redefinitions; give them "
                                 "a namespace of their own")
        for name in dict.fromkeys(n for n in (table.c.guard, table.c.namespace, table.c.name_function,
                                              table.c.message_function) if n):
            if name in header_names:
                rep.error(table.pos, f"{table.id}: family.c: {name!r} is also a name of family "
                                     f"{header_names[name]}'s header, and both headers may be included in one "
                                     "file; give each family its own guard, namespace and functions")
            header_names.setdefault(name, table.id)
    named: list[tuple[Union[Family, MessageFamily], str, tuple[str, ...]]] = [
        (f, f.site_path, (f"python/{f.python.module}", f"c/{f.c.header}")) for f in families]
    named += [(m, m.site_path, (f"python/{m.module}",)) for m in messages]
    for family, site_path, names in named:
        if site_path in SITE_PATHS or site_path in languages:
            rep.error(family.pos, f"site_path {site_path!r} is a path of the site's own (its pages, or a language's "
                                  "pages: /en/); choose another")
        elif site_path in paths:
            rep.error(family.pos, f"site_path {site_path!r} is already used by family {paths[site_path]}")
        paths[site_path] = family.id
        for name in names:
            if name in outputs:
                rep.error(family.pos, f"{family.id}: output {name} is also family {outputs[name]}'s; give each "
                                      "family its own module and header names")
            outputs[name] = family.id
