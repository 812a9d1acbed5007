"""Reading one family: its `family` section (names, pages, timelines, upstream
facts), then its codes and editions, then the checks across them."""
from __future__ import annotations

import re
from typing import Optional

from ruamel.yaml.nodes import Node, ScalarNode

from generator.catalog_codes import read_codes
from generator.catalog_versions import read_versions
from generator.catalog_names import check_names
from generator.catalog_site import read_languages
from generator.fields import IDENTIFIER, Fields
from generator.model import (
    COLUMN_KEYS, RECOVERABLE_VALUES, TEXT_FIELDS, CNames, Family, Header, LayoutField, Page,
    PythonNames, Site, Timeline, UpstreamFile, ValueLayout,
)
from generator.problems import Reporter, closest
from generator.texts import resolve_texts

_FAMILY_FIELDS = ("id", "name", "description", "languages", "site_path", "python", "c", "sphinx_directive",
                  "value_layouts", "runtime_constants", "headers", "upstream", "discover", "recoverable_labels", "pages")
_REQUIRED = ("id", "name", "description", "languages", "python", "c", "recoverable_labels", "pages")
_PYTHON_FIELDS = ("module", "shape", "class", "lookup", "default_page", "exception", "status", "default_status",
                  "code_2_status", "unknown_status")
_C_FIELDS = ("header", "guard", "namespace", "macro_prefix", "name_function", "message_function", "literals")
_PAGE_FIELDS = ("id", "name", "title", "intro", "rows", "row_prefix", "first_column", "columns", "headings", "timelines")
_TIMELINE_FIELDS = ("id", "suffix", "name", "repo", "paths")
FAMILY_ID = re.compile(r"^[a-z][a-z0-9_]*$")
SITE_PATH = re.compile(r"^(?:[a-z][a-z0-9_-]*)?$")
PAGE_ID = re.compile(r"^[a-z][a-z0-9-]*$")
SUFFIX = re.compile(r"^(?:-[a-z][a-z0-9-]*)?$")
DIRECTIVE = re.compile(r"^[a-z][a-z0-9-]*$")
UPSTREAM_KINDS = ("python", "binding", "header", "messages")


def read_family(sections, files: list[str], site: Site, repositories, rep: Reporter) -> Optional[Family]:
    section = sections["family"]
    f: Fields = section.reader
    fields = f.mapping(section.value, "family", required=_REQUIRED, optional=_FAMILY_FIELDS)
    if fields is None or any(name not in fields for name in _REQUIRED):
        return None
    languages = read_languages(f, fields["languages"][1], "family.languages")
    if languages is None:
        return None
    for lang in site.languages:
        if lang not in languages:
            f.error(fields["languages"][1], f"family.languages lacks {lang!r}, a language of the site; "
                                            "every family on a site has texts in the site's languages")
    ident = _pattern(f, fields["id"][1], "family.id", FAMILY_ID, "lower-case letters, digits and _")
    site_path = _pattern(f, fields["site_path"][1], "family.site_path", SITE_PATH, "'' or a lower-case word") \
        if "site_path" in fields else ""
    name = f.localized(fields["name"][1], "family.name", languages)
    description = f.localized(fields["description"][1], "family.description", languages)
    pages = _pages(f, fields["pages"][1], languages, repositories)
    python = _python_names(f, fields["python"][1], pages)
    c = _c_names(f, fields["c"][1])
    directive = _pattern(f, fields["sphinx_directive"][1], "family.sphinx_directive", DIRECTIVE,
                         "lower-case words joined by -") if "sphinx_directive" in fields else (ident or "codes").replace("_", "-")
    layouts = _value_layouts(f, fields["value_layouts"][1]) if "value_layouts" in fields else ()
    constants = _runtime_constants(f, fields["runtime_constants"][1]) if "runtime_constants" in fields else ()
    headers = _headers(f, fields["headers"][1]) if "headers" in fields else ()
    upstream = _upstream(f, fields["upstream"][1], repositories, headers or ()) if "upstream" in fields else ()
    labels = _recoverable_labels(f, fields["recoverable_labels"][1], languages)
    discover = _patterns(f, fields["discover"][1]) if "discover" in fields else ()
    parts = (ident, site_path, name, description, pages, python, c, directive, constants, headers, upstream, labels, discover)
    if any(part is None for part in parts) or ("value_layouts" in fields and layouts is None):
        return None
    codes = read_codes(sections["codes"], languages, headers, rep)
    if codes is None:
        return None
    read = read_versions(sections["versions"], ident, languages, pages, codes, repositories, rep)
    if read is None:
        return None
    resolved, warnings = resolve_texts(codes, read.versions, read.editions, languages, rep, frozenset(read.declared))
    rep.warnings.extend(warnings)
    family = Family(
        ident, name, description, languages, site_path, python, c, directive, layouts, constants, headers,  # type: ignore[arg-type]
        upstream, labels, pages, tuple(read.versions), tuple(read.editions), tuple(resolved), tuple(files),  # type: ignore[arg-type]
        f.pos(section.key), discover, tuple(sorted(read.aliases.items())))
    check_names(family, f, fields, rep, codes.flawed)
    return family


def _pattern(f: Fields, node: Node, what: str, pattern: re.Pattern, rule: str) -> Optional[str]:
    value = f.text(node, what, allow_empty=bool(pattern.match("")))
    if value is not None and not pattern.match(value):
        f.error(node, f"{what} {value!r} must be {rule}")
        return None
    return value


def _python_names(f: Fields, node: Node, pages) -> Optional[PythonNames]:
    fields = f.mapping(node, "family.python", required=("module", "shape", "class", "default_page"), optional=_PYTHON_FIELDS)
    if fields is None or len([k for k in ("module", "shape", "class", "default_page") if k in fields]) < 4:
        return None
    shape = f.choice(fields["shape"][1], "family.python.shape", ("enum", "constants"))
    names = {}
    for key in ("module", "class", "lookup", "exception", "status", "default_status", "code_2_status", "unknown_status"):
        if key in fields:
            names[key] = f.identifier(fields[key][1], f"family.python.{key}")
    default_page = f.text(fields["default_page"][1], "family.python.default_page")
    if pages is not None and default_page is not None and default_page not in {p.id for p in pages}:
        f.error(fields["default_page"][1], f"family.python.default_page: no page {default_page!r}"
                                           f"{closest(default_page, [p.id for p in pages])}")
        default_page = None
    if shape == "constants":
        for key in ("exception", "status", "code_2_status", "default_status", "unknown_status"):
            if key in fields:
                f.error(fields[key][0], f"family.python.{key} belongs to the enum shape; a constants module has none")
    if "code_2_status" in fields and "unknown_status" not in fields:
        f.error(node, "family.python: code_2_status needs unknown_status, what it returns for an unknown integer")
    if "exception" in fields and "default_status" not in fields:
        f.error(node, "family.python: exception needs default_status, its status_code when none is given")
    if shape is None or default_page is None or any(v is None for v in names.values()):
        return None
    return PythonNames(
        module=names["module"], shape=shape, class_name=names["class"], lookup=names.get("lookup") or "lookup",
        default_page=default_page, exception=names.get("exception"), status=names.get("status"),
        default_status=names.get("default_status"), code_2_status=names.get("code_2_status"),
        unknown_status=names.get("unknown_status"))


def _c_names(f: Fields, node: Node) -> Optional[CNames]:
    fields = f.mapping(node, "family.c", required=("header", "guard", "namespace", "name_function"), optional=_C_FIELDS)
    if fields is None or len([k for k in ("header", "guard", "namespace", "name_function") if k in fields]) < 4:
        return None
    names = {key: f.identifier(value, f"family.c.{key}") for key, (_, value) in fields.items() if key not in ("macro_prefix", "literals")}
    literals = f.choice(fields["literals"][1], "family.c.literals", ("hex", "decimal")) if "literals" in fields else "hex"
    prefix = ""
    if "macro_prefix" in fields:
        prefix = f.text(fields["macro_prefix"][1], "family.c.macro_prefix", allow_empty=True) or ""
        if prefix and not re.match(r"^[A-Z][A-Z0-9]*_$", prefix):
            f.error(fields["macro_prefix"][1], f"family.c.macro_prefix {prefix!r} must be upper-case letters and digits ending in _ (HIXL_)")
            return None
    if any(value is None for value in names.values()) or literals is None:
        return None
    return CNames(names["header"], names["guard"], names["namespace"], prefix, names["name_function"],  # type: ignore[arg-type]
                  names.get("message_function"), literals)


def _value_layouts(f: Fields, node: Node) -> Optional[tuple[ValueLayout, ...]]:
    """A layout per macro."""
    items = f.sequence(node, "family.value_layouts")
    if items is None:
        return None
    layouts = [_value_layout(f, item) for item in items]
    macros = [layout.macro for layout in layouts if layout is not None]
    if len(set(macros)) < len(macros):
        f.error(node, "family.value_layouts: a macro is laid out twice; give each macro one layout")
        return None
    return None if any(layout is None for layout in layouts) else tuple(layouts)  # type: ignore[misc]


def _value_layout(f: Fields, node: Node) -> Optional[ValueLayout]:
    fields = f.mapping(node, "family.value_layouts", required=("macro", "arguments", "fields"))
    if fields is None or len(fields) < 3:
        return None
    macro = f.identifier(fields["macro"][1], "family.value_layouts.macro", c_too=False)
    arguments = [a for a, _ in f.text_list(fields["arguments"][1], "family.value_layouts.arguments") or ()]
    if "name" not in arguments:
        f.error(fields["arguments"][1], "family.value_layouts.arguments must name the argument `name` (the constant's name)")
        return None
    if arguments.count("message") > 1 or arguments.count("name") > 1:
        f.error(fields["arguments"][1], "family.value_layouts.arguments: `name` and `message` (the registered text) once each")
        return None
    parts = []
    for part, (key, value) in (f.mapping(fields["fields"][1], "family.value_layouts.fields", free_keys=True) or {}).items():
        if part not in arguments or part in ("name", "message"):
            f.error(key, f"family.value_layouts.fields: {part!r} is no numeric argument of {macro}({', '.join(arguments)})")
            continue
        spec = f.mapping(value, f"family.value_layouts.fields.{part}", required=("shift", "mask"))
        if spec and len(spec) == 2:
            shift = f.integer(spec["shift"][1], f"{part}: shift")
            mask = f.integer(spec["mask"][1], f"{part}: mask")
            if shift is not None and mask is not None:
                if not 0 <= shift < 32 or not 0 <= mask <= 0xFFFFFFFF:
                    f.error(value, f"{part}: shift must be 0..31 and mask 0..0xFFFFFFFF")
                else:
                    parts.append(LayoutField(part, shift, mask))
    if macro is None or not parts:
        return None
    return ValueLayout(macro, tuple(arguments), tuple(parts))


def _runtime_constants(f: Fields, node: Node) -> Optional[tuple[tuple[str, int], ...]]:
    result = []
    for name, (key, value) in (f.mapping(node, "family.runtime_constants", free_keys=True) or {}).items():
        if not IDENTIFIER.match(name):
            f.error(key, f"family.runtime_constants: {name!r} is not a C identifier")
            continue
        number = f.integer(value, f"family.runtime_constants.{name}")
        if number is not None:
            result.append((name, number))
    return tuple(result)


def _headers(f: Fields, node: Node) -> Optional[tuple[Header, ...]]:
    result = []
    for item in f.sequence(node, "family.headers") or ():
        fields = f.mapping(item, "family.headers item", required=("path", "namespace"))
        if fields and len(fields) == 2:
            path = f.text(fields["path"][1], "family.headers: path")
            namespace = f.text(fields["namespace"][1], "family.headers: namespace")
            if path and namespace:
                result.append(Header(path, namespace, f.pos(item)))
    return tuple(result)


def _upstream(f: Fields, node: Node, repositories, headers) -> Optional[tuple[UpstreamFile, ...]]:
    result = []
    known_headers = {h.path for h in headers}
    for item in f.sequence(node, "family.upstream") or ():
        fields = f.mapping(item, "family.upstream item", required=("repo", "kind"), optional=("path", "paths", "header", "base"))
        if not fields or any(k not in fields for k in ("repo", "kind")):
            continue
        if ("path" in fields) == ("paths" in fields):
            f.error(item, "family.upstream: give the file's `path`, or its `paths` (oldest first) where it moved")
            continue
        repo = f.text(fields["repo"][1], "family.upstream: repo")
        if "path" in fields:
            path = f.text(fields["path"][1], "family.upstream: path")
            paths = (path,) if path else None
        else:
            listed = f.text_list(fields["paths"][1], "family.upstream: paths")
            paths = tuple(p for p, _ in listed) if listed else None
            if listed == []:
                f.error(fields["paths"][1], "family.upstream: paths names no path")
        kind = f.choice(fields["kind"][1], "family.upstream: kind", UPSTREAM_KINDS)
        header = f.text(fields["header"][1], "family.upstream: header") if "header" in fields else None
        if repo is not None and repo not in repositories:
            f.error(fields["repo"][1], f"family.upstream: repository {repo!r} is not in repositories{closest(repo, repositories)}")
            repo = None
        if kind == "header" and header not in known_headers:
            f.error(item, f"family.upstream: a header needs `header:`, one of family.headers ({', '.join(sorted(known_headers)) or 'none'})")
            kind = None
        bases = _bases(f, fields["base"][1]) if "base" in fields else ()
        if "base" in fields and kind != "python":
            f.error(fields["base"][1], "family.upstream: `base` (the enum's base class) belongs to a python source")
            bases = None
        if repo and paths and kind and bases is not None:
            result.append(UpstreamFile(repo, paths, kind, header, f.pos(item), bases))
    return tuple(result)


def _bases(f: Fields, node: Node) -> Optional[tuple[tuple[str, str], ...]]:
    """{BaseClass: 'the release it is the base from', ...}, oldest first."""
    from generator.versions import release_key

    result = []
    for base, (key, value) in (f.mapping(node, "family.upstream: base", free_keys=True) or {}).items():
        since = f.text(value, f"family.upstream: base {base}")
        if not IDENTIFIER.match(base) or since is None or release_key(since) is None:
            f.error(key, f"family.upstream: base: {base}: give a class name and the release it is the base from ('9.1.0')")
            return None
        result.append((base, since))
    if [release_key(s) for _, s in result] != sorted(release_key(s) for _, s in result):
        f.error(node, "family.upstream: base: list the classes in the order of their releases, oldest first")
        return None
    return tuple(result)


def _patterns(f: Fields, node: Node) -> Optional[tuple[str, ...]]:
    result = []
    for pattern, item in f.text_list(node, "family.discover") or ():
        try:
            re.compile(pattern)
        except re.error as error:
            f.error(item, f"family.discover: {pattern!r} is not a regular expression: {error}")
            continue
        result.append(pattern)
    return tuple(result)


def _recoverable_labels(f: Fields, node: Node, languages) -> Optional[dict[str, dict[str, tuple[str, ...]]]]:
    fields = f.mapping(node, "family.recoverable_labels", required=RECOVERABLE_VALUES)
    if fields is None or len(fields) < len(RECOVERABLE_VALUES):
        return None
    table: dict[str, dict[str, tuple[str, ...]]] = {}
    for value, (_, entry) in fields.items():
        per_lang = _headings(f, entry, f"family.recoverable_labels.{value}", languages)
        if per_lang is None:
            return None
        table[value] = per_lang
    return table


def _headings(f: Fields, node: Node, what: str, languages) -> Optional[dict[str, tuple[str, ...]]]:
    """{lang: (shown, alias, ...)}: a text or a list of texts per language."""
    fields = f.mapping(node, what, required=languages)
    if fields is None or len(fields) < len(languages):
        return None
    result = {}
    for lang, (_, value) in fields.items():
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


# -- pages and timelines ---------------------------------------------------------------------


def _pages(f: Fields, node: Node, languages, repositories) -> Optional[tuple[Page, ...]]:
    pages: list[Page] = []
    timeline_ids: dict[str, Node] = {}
    suffixes: dict[str, Node] = {}
    items = f.sequence(node, "family.pages")
    if items == []:
        f.error(node, "family.pages must declare at least one page")
    ok = items is not None
    for item in items or ():
        page = _page(f, item, languages, repositories, len(pages), timeline_ids, suffixes, sum(len(p.timelines) for p in pages))
        if page is None:
            ok = False
        elif page.id in {p.id for p in pages}:
            f.error(item, f"page id {page.id!r} is declared twice")
            ok = False
        else:
            pages.append(page)
    return tuple(pages) if ok and pages else None


def _page(f: Fields, node: Node, languages, repositories, index, timeline_ids, suffixes, first_timeline) -> Optional[Page]:
    label = f"page {f.peek(node, 'id') or index + 1}"
    fields = f.mapping(node, label, required=("id", "name", "title", "rows", "columns", "headings", "timelines"),
                       optional=_PAGE_FIELDS)
    if fields is None or "id" not in fields:
        return None
    ident = _pattern(f, fields["id"][1], f"{label}: id", PAGE_ID, "lower-case words joined by -")
    name = f.localized(fields["name"][1], f"{label}: name", languages) if "name" in fields else None
    title = f.localized(fields["title"][1], f"{label}: title", languages, upstream=True) if "title" in fields else None
    intro = f.localized(fields["intro"][1], f"{label}: intro", languages, upstream=True) if "intro" in fields else None
    rows = f.choice(fields["rows"][1], f"{label}: rows", ("python", "c")) if "rows" in fields else None
    row_prefix = ""
    if "row_prefix" in fields:
        row_prefix = f.identifier(fields["row_prefix"][1], f"{label}: row_prefix", c_too=False) or ""
        if rows != "c":
            f.error(fields["row_prefix"][1], f"{label}: row_prefix goes before C names: give it with `rows: c`")
    first = f.choice(fields["first_column"][1], f"{label}: first_column", ("name", "decimal")) if "first_column" in fields else "name"
    columns = f.choice_list(fields["columns"][1], f"{label}: columns", COLUMN_KEYS) if "columns" in fields else None
    if columns is not None and ("name" not in [c for c, _ in columns] or "recoverable" not in [c for c, _ in columns]):
        f.error(fields["columns"][1], f"{label}: columns must include name and recoverable, and may hold {', '.join(TEXT_FIELDS)}")
        columns = None
    headings = None
    if columns is not None and "headings" in fields:
        headings = {}
        mapping = f.mapping(fields["headings"][1], f"{label}: headings", required=[c for c, _ in columns]) or {}
        for column, (_, value) in mapping.items():
            headings[column] = _headings(f, value, f"{label}: headings.{column}", languages)
        if len(mapping) < len(columns) or any(v is None for v in headings.values()):
            headings = None
    timelines = _timelines(f, fields["timelines"][1], label, ident, languages, repositories, timeline_ids, suffixes, first_timeline) \
        if "timelines" in fields else None
    parts = (ident, name, title, rows, first, columns, headings, timelines)
    if any(part is None for part in parts) or ("intro" in fields and intro is None):
        return None
    return Page(ident, name, title, intro, rows, first, tuple(c for c, _ in columns), headings, timelines,  # type: ignore[arg-type]
                index, f.pos(node), row_prefix)


def _timelines(f: Fields, node: Node, label, page_id, languages, repositories, ids, suffixes, first) -> Optional[tuple[Timeline, ...]]:
    result: list[Timeline] = []
    items = f.sequence(node, f"{label}: timelines")
    if items == []:
        f.error(node, f"{label}: timelines must declare at least one timeline")
    ok = items is not None
    for item in items or ():
        fields = f.mapping(item, f"{label}: timeline", required=("id", "suffix", "name"), optional=_TIMELINE_FIELDS)
        if fields is None or any(k not in fields for k in ("id", "suffix", "name")):
            ok = False
            continue
        ident = _pattern(f, fields["id"][1], f"{label}: timeline id", PAGE_ID, "lower-case words joined by -")
        suffix = _pattern(f, fields["suffix"][1], f"{label}: timeline suffix", SUFFIX, "'' or -word (-v1, -cpp-v2)")
        name = f.localized(fields["name"][1], f"{label}: timeline name", languages)
        repo = f.text(fields["repo"][1], f"{label}: timeline repo") if "repo" in fields else None
        paths = tuple(p for p, _ in f.text_list(fields["paths"][1], f"{label}: timeline paths") or ()) if "paths" in fields else ()
        if repo is not None and repo not in repositories:
            f.error(fields["repo"][1], f"{label}: repository {repo!r} is not declared in repositories{closest(repo, repositories)}")
            repo = None
            ok = False
        if repo is not None and not paths:
            f.error(item, f"{label}: timeline {ident}: a timeline kept in a repository lists its `paths` there")
            ok = False
        for value, table, what in ((ident, ids, "timeline id"), (suffix, suffixes, "suffix")):
            if value is not None and value in table:
                f.error(item, f"{label}: {what} {value!r} is already used at line {table[value].start_mark.line + 1}; it must be unique in the family")
                ok = False
            elif value is not None:
                table[value] = item
        if ident is None or suffix is None or name is None:
            ok = False
            continue
        result.append(Timeline(ident, suffix, name, repo, paths, page_id, first + len(result), f.pos(item)))
    return tuple(result) if ok else None
