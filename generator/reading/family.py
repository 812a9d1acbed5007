"""One family as the model holds it: its `family` section (names, pages, timelines, upstream
facts), then its codes and versions, then the checks across them. The format has checked
every field's type; what is checked here needs the rest of the catalog."""
from __future__ import annotations

import re
from typing import Any, Optional

from generator.core.problems import Problem, Reporter, closest
from generator.core.releases import UNRELEASED, release_key, tag_release
from generator.domain.family import Family
from generator.domain.model import (
    RECOVERABLE_VALUES,
    TEXT_FIELDS,
    CNames,
    Header,
    LayoutField,
    Page,
    PythonNames,
    Site,
    SourceRegion,
    Timeline,
    UpstreamFile,
    ValueLayout,
)
from generator.reading import format as fmt
from generator.reading.codes import read_codes
from generator.reading.links import check_text_links
from generator.reading.names import check_names
from generator.reading.site import languages_of, localized, upstream_words
from generator.reading.texts import resolve_texts
from generator.reading.versions import read_versions


def read_family(sections, files: list[str], site: Site, repositories, broken: set[str],
                rep: Reporter) -> Optional[Family]:
    record: fmt.Family = sections["family"].record
    languages = _languages(record, site, rep)
    if languages is None:
        return None
    name = localized(record, "name", "family.name", languages, rep)
    description = localized(record, "description", "family.description", languages, rep)
    pages = _pages(record, languages, repositories, rep)
    python = _python_names(record, pages, rep)
    c = CNames(record.c.header, record.c.guard, record.c.namespace, record.c.macro_prefix, record.c.name_function,
               record.c.message_function, record.c.literals)
    layouts = _value_layouts(record, rep)
    headers = tuple(Header(h.path, h.namespace, h.at()) for h in record.headers)
    upstream = _upstream(record, repositories, headers, rep)
    labels = _recoverable_labels(record, languages, rep)
    discover = _patterns(record, rep)
    if None in (name, description, pages, python, layouts, upstream, labels, discover):
        return None
    codes = read_codes(sections["codes"], languages, headers, repositories, broken, rep)
    read = read_versions(sections["versions"], record.id, languages, pages, codes, repositories, broken, rep)
    if read is None:
        return None
    resolved, warnings = resolve_texts(codes, read.versions, read.editions, languages, rep, frozenset(read.declared))
    rep.warnings.extend(warnings)
    family = Family(
        record.id, name, description, languages, record.site_path, python, c,  # type: ignore[arg-type]
        record.sphinx_directive or record.id.replace("_", "-"), layouts,  # type: ignore[arg-type]
        tuple(record.runtime_constants.items()), headers, upstream, labels, pages,  # type: ignore[arg-type]
        tuple(read.versions), tuple(read.editions), tuple(resolved), tuple(files), sections["family"].file.pos(
            "family", of_key=True), discover, tuple(sorted(read.aliases.items())))  # type: ignore[arg-type]
    check_names(family, record, rep, codes.flawed | broken)
    check_text_links(family, rep)
    _check_releases(family, rep)
    return family


def _check_releases(family: Family, rep: Reporter) -> None:
    """Warnings, at the code, for what its releases say that the catalog's pages contradict: a
    release that `added`, `removed` or an earlier item's `until` names and that the catalog
    records for none of the repository's files (a typo such as 9.40 for 9.4.0 reads as a release
    of its own); a page of the repository that lists the code before the release that added it
    there, or from the release that removed it on (that version's `rows` say `dropped` where the
    page no longer lists it)."""
    known: dict[str, set[str]] = {}
    for version in family.versions:
        for source in version.sources:
            if source.repo:
                known.setdefault(source.repo, set()).update(r for t in source.tags if (r := tag_release(t)))
    for edition in family.editions:
        if edition.timeline.repo:
            known.setdefault(edition.timeline.repo, set()).add(edition.release)

    def unknown(pos, what: str, repo: str, release: str) -> None:
        if repo in known and release not in known[repo]:
            newest = sorted(known[repo], key=lambda r: release_key(r) or ())[-3:]
            rep.warnings.append(Problem(pos, f"warning: {what} {repo}: {release!r}, a release no page version of "
                                             f"{repo} records (its newest: {', '.join(newest)}); write one of its "
                                             "releases"))

    for code in family.codes:
        for before in code.earlier:
            for repo, release in before.until:
                unknown(before.pos, f"{code.name}: until", repo, release)
        for key, pairs in (("added", code.added), ("removed", code.removed)):
            for repo, release in pairs:
                unknown(code.pos, f"{code.name}: {key}", repo, release)
        _check_listings(family, code, rep)


def _check_listings(family: Family, code, rep: Reporter) -> None:
    added, removed = dict(code.added), dict(code.removed)
    for edition in family.editions:
        repo, key = edition.timeline.repo, release_key(edition.release)
        if code.name not in edition.row_by_code or key is None or edition.release == UNRELEASED:
            continue
        if repo in added and key < (release_key(added[repo]) or key):
            rep.warnings.append(Problem(code.pos, f"warning: {code.name}: added {repo}: {added[repo]!r}, but its "
                                                  f"edition {edition.id} lists it, before that release; write "
                                                  "the first release that ships it"))
            return
        if repo in removed and key >= (release_key(removed[repo]) or key):
            rep.warnings.append(Problem(code.pos, f"warning: {code.name}: removed {repo}: {removed[repo]!r}, but "
                                                  f"its edition {edition.id} still lists it; where "
                                                  "a page no longer lists it, its version's rows say "
                                                  f"`{code.name}: dropped`"))
            return


def _languages(record: fmt.Family, site: Site, rep: Reporter) -> Optional[tuple[str, ...]]:
    """The family's languages, each of the site's among them."""
    languages = languages_of(record, "languages", "family.languages", rep)
    for lang in site.languages:
        if languages is not None and lang not in languages:
            rep.error(record.at("languages"), f"family.languages lacks {lang!r}, a language of the site; every "
                                              "family on a site has texts in the site's languages")
    return languages


# -- the generated API's names ------------------------------------------------------------------------


def _python_names(record: fmt.Family, pages, rep: Reporter) -> Optional[PythonNames]:
    names = record.python
    ok = True
    if pages is not None and names.default_page not in {p.id for p in pages}:
        rep.error(names.at("default_page"), f"family.python.default_page: no page {names.default_page!r}"
                                            f"{closest(names.default_page, [p.id for p in pages])}")
        ok = False
    enum_only = ("exception", "status", "code_2_status", "default_status", "unknown_status")
    if names.shape == "constants":
        for key in enum_only:
            if names.given(key):
                rep.error(names.at(key, of_key=True), f"family.python.{key} belongs to the enum shape; a constants "
                                                      "module has none")
                ok = False
    if names.code_2_status and not names.unknown_status:
        rep.error(names.at(), "family.python: code_2_status needs unknown_status, what it returns for an unknown "
                              "integer")
        ok = False
    if names.exception and not names.default_status:
        rep.error(names.at(), "family.python: exception needs default_status, its status_code when none is given")
        ok = False
    if not ok:
        return None
    return PythonNames(module=names.module, shape=names.shape, class_name=names.class_, lookup=names.lookup,
                       default_page=names.default_page, exception=names.exception, status=names.status,
                       default_status=names.default_status, code_2_status=names.code_2_status,
                       unknown_status=names.unknown_status)


def _value_layouts(record: fmt.Family, rep: Reporter) -> Optional[tuple[ValueLayout, ...]]:
    """A layout per macro: its arguments name `name` once (and `message` at most once), and its
    fields are numeric arguments."""
    layouts, ok = [], True
    macros = [layout.macro for layout in record.value_layouts]
    if len(set(macros)) < len(macros):
        rep.error(record.at("value_layouts"), "family.value_layouts: a macro is laid out twice; give each macro one "
                                              "layout")
        ok = False
    for layout in record.value_layouts:
        arguments = layout.arguments
        if arguments.count("name") != 1 or arguments.count("message") > 1:
            rep.error(layout.at("arguments"), "family.value_layouts.arguments must name the argument `name` (the "
                                              "constant's name) once, and `message` (the registered text) at most once")
            ok = False
            continue
        for part in layout.fields:
            if part not in arguments or part in ("name", "message"):
                rep.error(layout.at("fields", part, of_key=True), f"family.value_layouts.fields: {part!r} is no "
                                                                  f"numeric argument of {layout.macro}"
                                                                  f"({', '.join(arguments)})")
                ok = False
        parts = tuple(LayoutField(p, spec.shift, spec.mask) for p, spec in layout.fields.items())
        if not parts:
            rep.error(layout.at("fields"), "family.value_layouts.fields: place at least one numeric argument")
            ok = False
        layouts.append(ValueLayout(layout.macro, tuple(arguments), parts))
    return tuple(layouts) if ok else None


def _upstream(record: fmt.Family, repositories, headers, rep: Reporter) -> Optional[tuple[UpstreamFile, ...]]:
    result, ok = [], True
    known = {h.path for h in headers}
    for item in record.upstream:
        problem = _upstream_problem(item, repositories, known)
        if problem is not None:
            rep.error(item.at(problem[0]), problem[1])
            ok = False
            continue
        paths = tuple(item.paths) if item.paths else (item.path,)
        regions = _regions(record, item, rep)
        if regions is None:
            ok = False
            continue
        result.append(UpstreamFile(item.repo, paths, item.kind, item.header, item.at(),  # type: ignore[arg-type]
                                   tuple(item.base.items()), regions))
    return tuple(result) if ok else None


def _regions(record: fmt.Family, item: fmt.UpstreamFile, rep: Reporter) -> Optional[tuple[SourceRegion, ...]]:
    """The regions of an upstream file, with what only code can check: the macro a region writes
    is a value layout's, and a region of header codes knows its header."""
    result, ok = [], True
    macros = {layout.macro: layout for layout in record.value_layouts}
    for region in item.regions:
        where = region.at()
        needs = {"macro": ("macro",), "message-macro": ("macro",), "enum-member": ("module",),
                 "code-map-entry": ("module",), "binding": ("namespace",), "constant": ("declaration",)}
        missing = [key for key in needs.get(region.lines, ()) if getattr(region, key) is None]
        header = region.header or item.header
        if missing:
            rep.error(where, f"family.upstream: a region of {region.lines} lines needs `{missing[0]}`")
        elif region.lines == "macro" and region.macro not in macros:
            rep.error(region.at("macro"), f"family.upstream: macro {region.macro} is none of value_layouts' "
                                          f"({', '.join(macros) or 'none'}): say how its arguments make the value")
        elif region.lines == "macro" and set(region.arguments) != \
                {a for a in macros[region.macro].arguments if a not in ("name", "message")}:  # type: ignore[index]
            rep.error(region.at("arguments"), f"family.upstream: arguments: write how each field of "
                                              f"{region.macro} is written, and only those")
        elif region.codes == "header" and header is None:
            rep.error(where, "family.upstream: a region of a header's codes needs `header:` (here or on the file)")
        else:
            result.append(SourceRegion(
                region.lines, region.after, region.codes, header, region.namespace, region.order,
                region.declaration, region.literal, region.module, region.macro, tuple(region.arguments.items()),
                tuple(region.comments.items()), tuple(region.last_comma.items()), region.only_codes, where))
            continue
        ok = False
    return tuple(result) if ok else None


def _upstream_problem(item: fmt.UpstreamFile, repositories, known: set[str]) -> Optional[tuple[Optional[str], str]]:
    """(the field, what is wrong) of an upstream file's entry, or None."""
    if (item.path is None) == (item.paths is None):
        return None, "family.upstream: give the file's `path`, or its `paths` (oldest first) where it moved"
    if item.repo not in repositories:
        return "repo", f"family.upstream: repository {item.repo!r} is not in repositories" \
                       f"{closest(item.repo, repositories)}"
    if item.kind == "header" and item.header not in known:
        return None, ("family.upstream: a header needs `header:`, one of family.headers "
                      f"({', '.join(sorted(known)) or 'none'})")
    if item.base and item.kind != "python":
        return "base", "family.upstream: `base` (the enum's base class) belongs to a python source"
    keys = [release_key(since) or () for since in item.base.values()]
    if keys != sorted(keys):
        return "base", "family.upstream: base: list the classes in the order of their releases, oldest first"
    return None


def _patterns(record: fmt.Family, rep: Reporter) -> Optional[tuple[str, ...]]:
    ok = True
    for index, pattern in enumerate(record.discover):
        try:
            re.compile(pattern)
        except re.error as error:
            rep.error(record.at("discover", index), f"family.discover: {pattern!r} is not a regular expression: "
                                                    f"{error}")
            ok = False
    return tuple(record.discover) if ok else None


def _recoverable_labels(record: fmt.Family, languages, rep: Reporter
                        ) -> Optional[dict[str, dict[str, tuple[str, ...]]]]:
    table: dict[str, dict[str, tuple[str, ...]]] = {}
    for value in RECOVERABLE_VALUES:
        if value not in record.recoverable_labels:
            rep.error(record.at("recoverable_labels"), f"family.recoverable_labels: missing field {value!r}")
            continue
        table[value] = headings(record.recoverable_labels[value], record, "recoverable_labels", value,
                                f"family.recoverable_labels.{value}", languages, rep)
    return table if len(table) == len(RECOVERABLE_VALUES) and all(table.values()) else None


def headings(per_lang: dict, holder: Any, key: str, item: str, what: str, languages, rep: Reporter
             ) -> dict[str, tuple[str, ...]]:
    """{lang: (shown, accepted...)} of every language ({} after reporting a language missing or unknown)."""
    found = {lang: (texts,) if isinstance(texts, str) else tuple(texts) for lang, texts in per_lang.items()}
    bad = [lang for lang in found if lang not in languages] + [lang for lang in languages if lang not in found]
    for lang in bad:
        rep.error(holder.at(key, item), f"{what}: {'missing field' if lang in languages else 'no language'} {lang!r}")
    return {} if bad else {lang: found[lang] for lang in languages}


# -- pages and timelines ------------------------------------------------------------------------------


def _pages(record: fmt.Family, languages, repositories, rep: Reporter) -> Optional[tuple[Page, ...]]:
    pages: list[Page] = []
    seen: dict[str, Any] = {"page": {}, "timeline": {}, "suffix": {}}
    ok = True
    for page in record.pages:
        built = _page(page, languages, repositories, len(pages), sum(len(p.timelines) for p in pages), seen, rep)
        ok = ok and built is not None
        if built is not None:
            pages.append(built)
    return tuple(pages) if ok else None


def _page(page: fmt.Page, languages, repositories, index: int, first_timeline: int, seen: dict,
          rep: Reporter) -> Optional[Page]:
    label = f"page {page.id}"
    ok = _unique(seen["page"], page.id, page, "id", f"page id {page.id!r}", rep)
    if page.row_prefix is not None and page.rows != "c":
        rep.error(page.at("row_prefix"), f"{label}: row_prefix goes before C names: give it with `rows: c`")
        ok = False
    if "name" not in page.columns or "recoverable" not in page.columns or len(set(page.columns)) < len(page.columns):
        rep.error(page.at("columns"), f"{label}: columns must include name and recoverable, each column once, and "
                                      f"may hold {', '.join(TEXT_FIELDS)}")
        ok = False
    table = {column: headings(page.headings[column], page, "headings", column, f"{label}: headings.{column}",
                              languages, rep) for column in page.columns if column in page.headings}
    for column in page.columns:
        if column not in page.headings:
            rep.error(page.at("headings"), f"{label}: headings: missing field {column!r}")
            ok = False
    name = localized(page, "name", f"{label}: name", languages, rep)
    title = upstream_words(page, "title", f"{label}: title", languages, rep)
    intro = upstream_words(page, "intro", f"{label}: intro", languages, rep) if page.intro is not None else None
    timelines = _timelines(page, label, languages, repositories, first_timeline, seen, rep)
    if not ok or None in (name, title, timelines) or (page.intro is not None and intro is None) \
            or not all(table.values()):
        return None
    return Page(page.id, name, title, intro, page.rows, page.first_column, tuple(page.columns), table,  # type: ignore[arg-type]
                timelines, index, page.at(), page.row_prefix or "")  # type: ignore[arg-type]


def _unique(table: dict, value: str, record: Any, key: str, what: str, rep: Reporter) -> bool:
    if value in table:
        rep.error(record.at(key), f"{what} is already used at line {table[value].line}; it must be unique in the "
                                  "family")
        return False
    table[value] = record.at(key)
    return True


def _timelines(page: fmt.Page, label: str, languages, repositories, first: int, seen: dict,
               rep: Reporter) -> Optional[tuple[Timeline, ...]]:
    result: list[Timeline] = []
    ok = True
    for item in page.timelines:
        ok = _unique(seen["timeline"], item.id, item, "id", f"{label}: timeline id {item.id!r}", rep) and ok
        ok = _unique(seen["suffix"], item.suffix, item, "suffix", f"{label}: suffix {item.suffix!r}", rep) and ok
        if item.repo is not None and item.repo not in repositories:
            rep.error(item.at("repo"), f"{label}: repository {item.repo!r} is not declared in repositories"
                                       f"{closest(item.repo, repositories)}")
            ok = False
        if item.repo is not None and not item.paths:
            rep.error(item.at(), f"{label}: timeline {item.id}: a timeline kept in a repository lists its `paths` "
                                 "there")
            ok = False
        for lang, paths in item.translations.items():
            if lang not in languages[1:]:
                rep.error(item.at("translations", lang, of_key=True),
                          f"{label}: translations: {lang!r} is not one of the family's other languages "
                          f"({', '.join(languages[1:]) or 'none'})")
                ok = False
            elif not paths:
                rep.error(item.at("translations", lang), f"{label}: translations {lang}: list the paths where the "
                                                         f"page in {lang} is kept")
                ok = False
        name = localized(item, "name", f"{label}: timeline name", languages, rep)
        if name is None:
            ok = False
            continue
        result.append(Timeline(item.id, item.suffix, name, item.repo, tuple(item.paths), page.id, first + len(result),
                               item.at(), tuple((lang, tuple(p)) for lang, p in item.translations.items())))
    return tuple(result) if ok else None
