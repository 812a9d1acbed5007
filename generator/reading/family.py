"""Reading one family: its `family` section (names, pages, timelines, upstream
facts), then its codes and editions, then the checks across them."""
from __future__ import annotations

import re
from typing import Optional

from ruamel.yaml.nodes import Node

from generator.reading.codes import read_codes
from generator.reading.timelines import read_versions
from generator.reading.names import check_names
from generator.reading.site import read_languages
from generator.reading.fields import IDENTIFIER, Fields
from generator.domain.family import Family
from generator.domain.model import (
    RECOVERABLE_VALUES,
    CNames,
    Header,
    LayoutField,
    PythonNames,
    Site,
    UpstreamFile,
    ValueLayout,
)
from generator.core.problems import Reporter, closest
from generator.reading.links import check_text_links
from generator.reading.texts import resolve_texts
from generator.reading.family_pages import read_headings, read_pages, read_pattern


_FAMILY_FIELDS = (
    "id",
    "name",
    "description",
    "languages",
    "site_path",
    "python",
    "c",
    "sphinx_directive",
    "value_layouts",
    "runtime_constants",
    "headers",
    "upstream",
    "discover",
    "recoverable_labels",
    "pages",
)
_REQUIRED = ("id", "name", "description", "languages", "python", "c", "recoverable_labels", "pages")
_PYTHON_FIELDS = ("module", "shape", "class", "lookup", "default_page", "exception", "status", "default_status",
                  "code_2_status", "unknown_status")
_C_FIELDS = ("header", "guard", "namespace", "macro_prefix", "name_function", "message_function", "literals")
FAMILY_ID = re.compile(r"^[a-z][a-z0-9_]*$")
SITE_PATH = re.compile(r"^(?:[a-z][a-z0-9_-]*)?$")
DIRECTIVE = re.compile(r"^[a-z][a-z0-9-]*$")
UPSTREAM_KINDS = ("python", "binding", "header", "messages")


def read_family(sections, files: list[str], site: Site, repositories, rep: Reporter) -> Optional[Family]:
    section = sections["family"]
    f: Fields = section.reader
    fields = f.mapping(section.value, "family", required=_REQUIRED, optional=_FAMILY_FIELDS)
    if fields is None or any(name not in fields for name in _REQUIRED):
        return None
    languages = _languages(f, fields, site)
    if languages is None:
        return None
    ident = read_pattern(f, fields["id"][1], "family.id", FAMILY_ID, "lower-case letters, digits and _")
    site_path = read_pattern(f, fields["site_path"][1], "family.site_path", SITE_PATH, "'' or a lower-case word") \
        if "site_path" in fields else ""
    name = f.localized(fields["name"][1], "family.name", languages)
    description = f.localized(fields["description"][1], "family.description", languages)
    pages = read_pages(f, fields["pages"][1], languages, repositories)
    python = _python_names(f, fields["python"][1], pages)
    c = _c_names(f, fields["c"][1])
    directive = read_pattern(f, fields["sphinx_directive"][1], "family.sphinx_directive", DIRECTIVE,
                             "lower-case words joined by -") if "sphinx_directive" in fields \
        else (ident or "codes").replace("_", "-")
    layouts = _value_layouts(f, fields["value_layouts"][1]) if "value_layouts" in fields else ()
    constants = _runtime_constants(f, fields["runtime_constants"][1]) if "runtime_constants" in fields else ()
    headers = _headers(f, fields["headers"][1]) if "headers" in fields else ()
    upstream = _upstream(f, fields["upstream"][1], repositories, headers or ()) if "upstream" in fields else ()
    labels = _recoverable_labels(f, fields["recoverable_labels"][1], languages)
    discover = _patterns(f, fields["discover"][1]) if "discover" in fields else ()
    parts = (ident, site_path, name, description, pages, python, c, directive, constants, headers, upstream, labels,
             discover)
    if any(part is None for part in parts) or ("value_layouts" in fields and layouts is None):
        return None
    codes = read_codes(sections["codes"], languages, headers, rep)
    read = read_versions(sections["versions"], ident, languages, pages, codes, repositories, rep) \
        if codes is not None else None
    if codes is None or read is None:
        return None
    resolved, warnings = resolve_texts(codes, read.versions, read.editions, languages, rep, frozenset(read.declared))
    rep.warnings.extend(warnings)
    family = Family(
        ident, name, description, languages, site_path, python, c, directive, layouts, constants, headers,  # type: ignore[arg-type]
        upstream, labels, pages, tuple(read.versions), tuple(read.editions), tuple(resolved), tuple(files),  # type: ignore[arg-type]
        f.pos(section.key), discover, tuple(sorted(read.aliases.items())))  # type: ignore[arg-type]
    check_names(family, f, fields, rep, codes.flawed)
    check_text_links(family, rep)
    return family


def _languages(f: Fields, fields, site: Site) -> Optional[tuple[str, ...]]:
    """The family's languages, each of the site's among them."""
    languages = read_languages(f, fields["languages"][1], "family.languages")
    for lang in site.languages:
        if languages is not None and lang not in languages:
            f.error(fields["languages"][1], f"family.languages lacks {lang!r}, a language of the site; "
                                            "every family on a site has texts in the site's languages")
    return languages


def _python_names(f: Fields, node: Node, pages) -> Optional[PythonNames]:
    fields = f.mapping(
        node, "family.python", required=("module", "shape", "class", "default_page"), optional=_PYTHON_FIELDS
    )
    if fields is None or len([k for k in ("module", "shape", "class", "default_page") if k in fields]) < 4:
        return None
    shape = f.choice(fields["shape"][1], "family.python.shape", ("enum", "constants"))
    names: dict[str, Optional[str]] = {}
    for key in (
        "module",
        "class",
        "lookup",
        "exception",
        "status",
        "default_status",
        "code_2_status",
        "unknown_status",
    ):
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
    module, class_name = names["module"], names["class"]
    if shape is None or default_page is None or module is None or class_name is None or None in names.values():
        return None
    return PythonNames(
        module=module, shape=shape, class_name=class_name, lookup=names.get("lookup") or "lookup",
        default_page=default_page, exception=names.get("exception"), status=names.get("status"),
        default_status=names.get("default_status"), code_2_status=names.get("code_2_status"),
        unknown_status=names.get("unknown_status"))


def _c_names(f: Fields, node: Node) -> Optional[CNames]:
    fields = f.mapping(node, "family.c", required=("header", "guard", "namespace", "name_function"), optional=_C_FIELDS)
    if fields is None or len([k for k in ("header", "guard", "namespace", "name_function") if k in fields]) < 4:
        return None
    names = {
        key: f.identifier(value, f"family.c.{key}")
        for key, (_, value) in fields.items()
        if key not in ("macro_prefix", "literals")
    }
    literals = (
        f.choice(fields["literals"][1], "family.c.literals", ("hex", "decimal")) if "literals" in fields else "hex"
    )
    prefix = ""
    if "macro_prefix" in fields:
        prefix = f.text(fields["macro_prefix"][1], "family.c.macro_prefix", allow_empty=True) or ""
        if prefix and not re.fullmatch(r"^[A-Z][A-Z0-9]*_$", prefix):
            f.error(
                fields["macro_prefix"][1],
                f"family.c.macro_prefix {prefix!r} must be upper-case letters and digits ending in _ (HIXL_)",
            )
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
    laid_out = [layout for layout in layouts if layout is not None]
    return tuple(laid_out) if len(laid_out) == len(layouts) else None


def _value_layout(f: Fields, node: Node) -> Optional[ValueLayout]:
    fields = f.mapping(node, "family.value_layouts", required=("macro", "arguments", "fields"))
    if fields is None or len(fields) < 3:
        return None
    macro = f.identifier(fields["macro"][1], "family.value_layouts.macro", c_too=False)
    arguments = [a for a, _ in f.text_list(fields["arguments"][1], "family.value_layouts.arguments") or ()]
    if "name" not in arguments:
        f.error(
            fields["arguments"][1], "family.value_layouts.arguments must name the argument `name` (the constant's name)"
        )
        return None
    if arguments.count("message") > 1 or arguments.count("name") > 1:
        f.error(
            fields["arguments"][1],
            "family.value_layouts.arguments: `name` and `message` (the registered text) once each",
        )
        return None
    parts = []
    for part, (key, value) in (
        f.mapping(fields["fields"][1], "family.value_layouts.fields", free_keys=True) or {}
    ).items():
        if part not in arguments or part in ("name", "message"):
            f.error(
                key, f"family.value_layouts.fields: {part!r} is no numeric argument of {macro}({', '.join(arguments)})"
            )
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
        if not IDENTIFIER.fullmatch(name):
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
        fields = f.mapping(
            item, "family.upstream item", required=("repo", "kind"), optional=("path", "paths", "header", "base")
        )
        if not fields or any(k not in fields for k in ("repo", "kind")):
            continue
        if ("path" in fields) == ("paths" in fields):
            f.error(item, "family.upstream: give the file's `path`, or its `paths` (oldest first) where it moved")
            continue
        repo = f.text(fields["repo"][1], "family.upstream: repo")
        if "path" in fields:
            path = f.text(fields["path"][1], "family.upstream: path")
            paths: Optional[tuple[str, ...]] = (path,) if path else None
        else:
            listed = f.text_list(fields["paths"][1], "family.upstream: paths")
            paths = tuple(p for p, _ in listed) if listed else None
            if listed == []:
                f.error(fields["paths"][1], "family.upstream: paths names no path")
        kind = f.choice(fields["kind"][1], "family.upstream: kind", UPSTREAM_KINDS)
        header = f.text(fields["header"][1], "family.upstream: header") if "header" in fields else None
        if repo is not None and repo not in repositories:
            f.error(
                fields["repo"][1],
                f"family.upstream: repository {repo!r} is not in repositories{closest(repo, repositories)}",
            )
            repo = None
        if kind == "header" and header not in known_headers:
            f.error(
                item,
                "family.upstream: a header needs `header:`, one of family.headers "
                f"({', '.join(sorted(known_headers)) or 'none'})",
            )
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
    from generator.core.releases import release_key

    result = []
    for base, (key, value) in (f.mapping(node, "family.upstream: base", free_keys=True) or {}).items():
        since = f.text(value, f"family.upstream: base {base}")
        if not IDENTIFIER.fullmatch(base) or since is None or release_key(since) is None:
            f.error(
                key, f"family.upstream: base: {base}: give a class name and the release it is the base from ('9.1.0')"
            )
            return None
        result.append((base, since))
    keys = [release_key(s) or () for _, s in result]  # each one checked above
    if keys != sorted(keys):
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
        per_lang = read_headings(f, entry, f"family.recoverable_labels.{value}", languages)
        if per_lang is None:
            return None
        table[value] = per_lang
    return table


