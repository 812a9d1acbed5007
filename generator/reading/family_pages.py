"""Reading a family's `pages`: each page's columns, headings and timelines."""
from __future__ import annotations

import re
from typing import Optional

from ruamel.yaml.nodes import Node, ScalarNode

from generator.reading.fields import Fields
from generator.domain.model import COLUMN_KEYS, TEXT_FIELDS, Page, Timeline
from generator.core.problems import closest


# -- pages and timelines ---------------------------------------------------------------------

PAGE_FIELDS = ("id", "name", "title", "intro", "rows", "row_prefix", "first_column", "columns", "headings", "timelines")
TIMELINE_FIELDS = ("id", "suffix", "name", "repo", "paths", "translations")
PAGE_ID = re.compile(r"^[a-z][a-z0-9-]*$")
SUFFIX = re.compile(r"^(?:-[a-z][a-z0-9-]*)?$")


def read_pattern(f: Fields, node: Node, what: str, pattern: re.Pattern, rule: str) -> Optional[str]:
    value = f.text(node, what, allow_empty=bool(pattern.fullmatch("")))
    if value is not None and not pattern.fullmatch(value):
        f.error(node, f"{what} {value!r} must be {rule}")
        return None
    return value


def read_headings(f: Fields, node: Node, what: str, languages) -> Optional[dict[str, tuple[str, ...]]]:
    """{lang: (shown, alias, ...)}: a text or a list of texts per language."""
    fields = f.mapping(node, what, required=languages)
    if fields is None or len(fields) < len(languages):
        return None
    result: dict[str, tuple[str, ...]] = {}
    for lang, (_, value) in fields.items():
        texts: Optional[tuple[str, ...]]
        if isinstance(value, ScalarNode):
            text = f.text(value, f"{what} ({lang})")
            texts = (text,) if text is not None else None
        else:
            items = f.text_list(value, f"{what} ({lang})")
            texts = tuple(t for t, _ in items) if items else None
            if items == []:
                f.error(value, f"{what} ({lang}) must give at least one text")
        if texts is None:
            return None
        result[lang] = texts
    return result


def read_pages(f: Fields, node: Node, languages, repositories) -> Optional[tuple[Page, ...]]:
    pages: list[Page] = []
    timeline_ids: dict[str, Node] = {}
    suffixes: dict[str, Node] = {}
    items = f.sequence(node, "family.pages")
    if items == []:
        f.error(node, "family.pages must declare at least one page")
    ok = items is not None
    for item in items or ():
        page = _page(
            f, item, languages, repositories, len(pages), timeline_ids, suffixes, sum(len(p.timelines) for p in pages)
        )
        if page is None:
            ok = False
        elif page.id in {p.id for p in pages}:
            f.error(item, f"page id {page.id!r} is declared twice")
            ok = False
        else:
            pages.append(page)
    return tuple(pages) if ok and pages else None


def _page(
    f: Fields, node: Node, languages, repositories, index, timeline_ids, suffixes, first_timeline
) -> Optional[Page]:
    label = f"page {f.peek(node, 'id') or index + 1}"
    fields = f.mapping(node, label, required=("id", "name", "title", "rows", "columns", "headings", "timelines"),
                       optional=PAGE_FIELDS)
    if fields is None or "id" not in fields:
        return None
    ident = read_pattern(f, fields["id"][1], f"{label}: id", PAGE_ID, "lower-case words joined by -")
    name = f.localized(fields["name"][1], f"{label}: name", languages) if "name" in fields else None
    title = f.localized(fields["title"][1], f"{label}: title", languages, upstream=True) if "title" in fields else None
    intro = f.localized(fields["intro"][1], f"{label}: intro", languages, upstream=True) if "intro" in fields else None
    rows = f.choice(fields["rows"][1], f"{label}: rows", ("python", "c")) if "rows" in fields else None
    row_prefix = ""
    if "row_prefix" in fields:
        row_prefix = f.identifier(fields["row_prefix"][1], f"{label}: row_prefix", c_too=False) or ""
        if rows != "c":
            f.error(fields["row_prefix"][1], f"{label}: row_prefix goes before C names: give it with `rows: c`")
    first = (
        f.choice(fields["first_column"][1], f"{label}: first_column", ("name", "decimal"))
        if "first_column" in fields
        else "name"
    )
    columns = f.choice_list(fields["columns"][1], f"{label}: columns", COLUMN_KEYS) if "columns" in fields else None
    if columns is not None and ("name" not in [c for c, _ in columns] or "recoverable" not in [c for c, _ in columns]):
        f.error(
            fields["columns"][1],
            f"{label}: columns must include name and recoverable, and may hold {', '.join(TEXT_FIELDS)}",
        )
        columns = None
    headings: Optional[dict[str, Optional[dict[str, tuple[str, ...]]]]] = None
    if columns is not None and "headings" in fields:
        headings = {}
        mapping = f.mapping(fields["headings"][1], f"{label}: headings", required=[c for c, _ in columns]) or {}
        for column, (_, value) in mapping.items():
            headings[column] = read_headings(f, value, f"{label}: headings.{column}", languages)
        if len(mapping) < len(columns) or any(v is None for v in headings.values()):
            headings = None
    timelines = (
        _timelines(
            f, fields["timelines"][1], label, ident, languages, repositories, timeline_ids, suffixes, first_timeline
        )
        if "timelines" in fields
        else None
    )
    parts = (ident, name, title, rows, first, columns, headings, timelines)
    if columns is None or any(part is None for part in parts) or ("intro" in fields and intro is None):
        return None
    return Page(ident, name, title, intro, rows, first, tuple(c for c, _ in columns), headings, timelines,  # type: ignore[arg-type]
                index, f.pos(node), row_prefix)


def _timelines(
    f: Fields, node: Node, label, page_id, languages, repositories, ids, suffixes, first
) -> Optional[tuple[Timeline, ...]]:
    result: list[Timeline] = []
    items = f.sequence(node, f"{label}: timelines")
    if items == []:
        f.error(node, f"{label}: timelines must declare at least one timeline")
    ok = items is not None
    for item in items or ():
        fields = f.mapping(item, f"{label}: timeline", required=("id", "suffix", "name"), optional=TIMELINE_FIELDS)
        if fields is None or any(k not in fields for k in ("id", "suffix", "name")):
            ok = False
            continue
        ident = read_pattern(f, fields["id"][1], f"{label}: timeline id", PAGE_ID, "lower-case words joined by -")
        suffix = read_pattern(f, fields["suffix"][1], f"{label}: timeline suffix", SUFFIX, "'' or -word (-v1, -cpp-v2)")
        name = f.localized(fields["name"][1], f"{label}: timeline name", languages)
        repo = f.text(fields["repo"][1], f"{label}: timeline repo") if "repo" in fields else None
        paths = (
            tuple(p for p, _ in f.text_list(fields["paths"][1], f"{label}: timeline paths") or ())
            if "paths" in fields
            else ()
        )
        translations = _translations(f, fields.get("translations"), label, languages)
        if translations is None:
            ok = False
        if repo is not None and repo not in repositories:
            f.error(
                fields["repo"][1],
                f"{label}: repository {repo!r} is not declared in repositories{closest(repo, repositories)}",
            )
            repo = None
            ok = False
        if repo is not None and not paths:
            f.error(item, f"{label}: timeline {ident}: a timeline kept in a repository lists its `paths` there")
            ok = False
        for value, table, what in ((ident, ids, "timeline id"), (suffix, suffixes, "suffix")):
            if value is not None and value in table:
                f.error(
                    item,
                    f"{label}: {what} {value!r} is already used at line {table[value].start_mark.line + 1}; it must be "
                    "unique in the family",
                )
                ok = False
            elif value is not None:
                table[value] = item
        if ident is None or suffix is None or name is None:
            ok = False
            continue
        result.append(Timeline(ident, suffix, name, repo, paths, page_id, first + len(result), f.pos(item),
                               translations or ()))
    return tuple(result) if ok else None


def _translations(f: Fields, pair, label: str, languages) -> Optional[tuple[tuple[str, tuple[str, ...]], ...]]:
    """{lang: [paths]}: where the page's translation into each other language is kept."""
    if pair is None:
        return ()
    found = f.mapping(pair[1], f"{label}: timeline translations", free_keys=True)
    if found is None:
        return None
    result, ok = [], True
    for lang, (key, value) in found.items():
        if lang not in languages[1:]:
            f.error(key, f"{label}: translations: {lang!r} is not one of the family's other languages "
                         f"({', '.join(languages[1:]) or 'none'})")
            ok = False
            continue
        paths = f.text_list(value, f"{label}: translations {lang}")
        if paths == []:
            f.error(value, f"{label}: translations {lang}: list the paths where the page in {lang} is kept")
        if not paths:
            ok = False
            continue
        result.append((lang, tuple(p for p, _ in paths)))
    return tuple(result) if ok else None
