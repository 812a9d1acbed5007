"""A family's pages: one per code (generator.rendering.site.code_page), one per edition, the lists
of both, the differences (generator.rendering.site.compare), and the family's overview. Each is
planned as an Output (path, owner, what it reads) and rendered only when asked."""
from __future__ import annotations

from functools import partial
from typing import NamedTuple, Optional

from generator.domain.codes import Code, hex_value
from generator.domain.editions import Edition, Malformation
from generator.domain.family import Catalog, Family
from generator.domain.model import PROPOSED, UNTRANSLATED
from generator.rendering.output import Planned
from generator.domain.queries import default_edition, row_anchor, row_names
from generator.rendering.site.code_page import pages_disagree, render_code_page
from generator.rendering.site.compare import (compared, differences_location, render_differences,
                                              render_page_differences, render_timeline_differences)
from generator.rendering.site.context import Context, Labels, Link, SourceView, banner, doc_path
from generator.rendering.site.markup import render_page
from generator.rendering.site.theme import release_anchor
from generator.rendering.site.parts import Recoverable, TextCell, recoverable, text_cell_of


# -- the family's overview ---------------------------------------------------------------------


def plan_family_page(catalog: Catalog, family: Family) -> list[Planned]:
    if not family.site_path:
        return []  # the family at the site's root is shown on the home page
    return [Planned(doc_path(f"{family.prefix}", lang, index=True),
                    partial(render_family_page, catalog, family, lang), lang=lang)
            for lang in catalog.site.languages]


def render_family_page(catalog: Catalog, family: Family, lang: str) -> str:
    ctx = Context(catalog, lang, family.prefix, family)
    return render_page("family.md.j2", title=family.name[lang], banner=banner(), hide_toc=False,
                       family=family_view(ctx, family))


class FamilyView(NamedTuple):
    """A family in brief: what it is, its pages, their copies and editions, and where to go
    (templates/site/macros/family.md.j2)."""

    id: str
    name: str
    labels: Labels  # the family's own (its name in them)
    codes: str  # where its pages are
    editions: str
    differences: str
    rows: list  # a FamilyRow per page's timeline


class FamilyRow(NamedTuple):
    page: str
    timeline: str
    editions: tuple[Link, ...]


def family_view(ctx: Context, family: Family) -> FamilyView:
    rows = [FamilyRow(page.name[ctx.lang], timeline.name[ctx.lang],
                      tuple(ctx.edition_link(family, e) for e in family.timeline_editions(timeline)))
            for page in family.pages for timeline in page.timelines]
    return FamilyView(family.id, family.name[ctx.lang], ctx.labels, ctx.url(f"{family.prefix}codes/"),
                      ctx.url(f"{family.prefix}editions/"), ctx.url(f"{family.prefix}differences/"), rows)


# -- codes -----------------------------------------------------------------------------------------


def plan_code_list(catalog: Catalog, family: Family) -> list[Planned]:
    return [Planned(doc_path(f"{family.prefix}codes/", lang, index=True),
                    partial(render_codes_index, catalog, family, lang), lang=lang)
            for lang in catalog.site.languages]


def plan_code_pages(catalog: Catalog, family: Family) -> list[Planned]:
    return [Planned(doc_path(f"{family.prefix}codes/{code.name}/", lang),
                    partial(render_code_page, catalog, family, code, lang),
                    item=code.name, lang=lang)
            for code in family.codes for lang in catalog.site.languages]


class CodeListRow(NamedTuple):
    """A code in the list: its name (and C name), value, and the newest release's answer."""

    slug: str
    link: Link
    c_name: str  # "" where it is its name
    hex: str
    value: int
    meaning: Optional[TextCell]  # None: no edition answers for it (—)
    recoverable: Optional[Recoverable]
    pages_disagree: list[tuple[str, str]]  # (page's name, its word) where the pages' newest answers disagree
    solution: Optional[TextCell] = None
    source: Optional[Link] = None  # the edition the answer is, at the code's row


def render_codes_index(catalog: Catalog, family: Family, lang: str) -> str:
    ctx = Context(catalog, lang, f"{family.prefix}codes/", family)
    default_page = family.page_by_id[family.python.default_page]
    columns = [("name", ctx.label("name")), ("value", ctx.label("value")),
               ("meaning", default_page.heading("meaning", lang)),
               ("recoverable", default_page.heading("recoverable", lang)),
               ("solution", default_page.heading("solution", lang))]
    title = f"{family.name[lang]} · {ctx.label('all_codes')}"
    rows = [_code_list_row(ctx, family, code) for code in family.codes]
    # what each sign on the texts means, said once above the table (the cells show the sign alone)
    marks = {cell.mark for r in rows for cell in (r.meaning, r.solution) if cell is not None and cell.mark}
    notes = [(f"{ctx.label(f'mark_{kind}')} {ctx.label(kind)}", ctx.label(f"{kind}_note"))
             for kind in (UNTRANSLATED, "translation", PROPOSED) if kind in marks]
    return render_page("codes.md.j2", title=title, banner=banner(), hide_toc=True, labels=ctx.labels,
                       columns=columns, rows=rows, notes=notes)


def _code_list_row(ctx: Context, family: Family, code: Code) -> CodeListRow:
    # the newest release's answer, as the module's edition=None gives it
    edition = default_edition(family, code)
    row = edition.row_by_code[code.name] if edition else None
    newest = [e for e in (default_edition(family, code, page=p) for p in family.pages) if e is not None]
    return CodeListRow(
        code.slug, ctx.code_link(family, code), code.c_name if code.c_name and code.c_name != code.name else "",
        code.hex, code.value, _said(ctx, code, "meaning", edition),
        recoverable(ctx, family, row.recoverable, row.disagreements) if row else None,
        pages_disagree(ctx, family, code, newest),
        _said(ctx, code, "solution", edition), ctx.edition_link(family, edition, code) if edition else None)


def _said(ctx: Context, code: Code, field_name: str, edition: Optional[Edition]) -> Optional[TextCell]:
    """A text of the default edition as a cell, marked where it is not upstream's released words."""
    if edition is None:
        return None
    entry = code.entry(field_name, edition.id, ctx.lang)
    return text_cell_of(ctx, entry.text if entry else None, entry.origin if entry else None)


# -- editions -----------------------------------------------------------------------------------------


def plan_edition_list(catalog: Catalog, family: Family) -> list[Planned]:
    return [Planned(doc_path(f"{family.prefix}editions/", lang, index=True),
                    partial(render_editions_index, catalog, family, lang), lang=lang)
            for lang in catalog.site.languages]


def plan_edition_pages(catalog: Catalog, family: Family) -> list[Planned]:
    return [Planned(doc_path(f"{family.prefix}editions/{edition.id}/", lang),
                    partial(render_edition_page, catalog, family, edition, lang),
                    item=edition.id, lang=lang)
            for edition in family.editions for lang in catalog.site.languages]


class PageEditions(NamedTuple):
    id: str
    name: str
    editions: list[tuple[Link, str, str, int]]  # (link, release, timeline's name, how many codes it lists)


def render_editions_index(catalog: Catalog, family: Family, lang: str) -> str:
    ctx = Context(catalog, lang, f"{family.prefix}editions/", family)
    columns = [(key, ctx.label(key)) for key in ("edition", "release", "timeline", "codes")]
    pages = [PageEditions(page.id, page.name[lang], [(ctx.edition_link(family, e), e.release, e.timeline.name[lang],
                                                      len(e.rows)) for e in family.page_editions(page)])
             for page in family.pages]
    title = f"{family.name[lang]} · {ctx.label('editions')}"
    return render_page("editions.md.j2", title=title, banner=banner(), hide_toc=False, labels=ctx.labels,
                       columns=columns, pages=pages, releases=_releases(ctx, family))


def _releases(ctx: Context, family: Family) -> list[tuple[str, str, tuple[Link, ...]]]:
    """Each release and its editions, a line each, anchored (editions/9.0.0/ leads here)."""
    by_release: dict[str, list[Edition]] = {}
    for edition in family.editions:
        by_release.setdefault(edition.release, []).append(edition)
    return [(release_anchor(release), release, tuple(ctx.edition_link(family, e) for e in editions))
            for release, editions in by_release.items()]


class EditionView(NamedTuple):
    """An edition's page (templates/site/pages/edition.md.j2)."""

    id: str
    title: str  # its page's title
    page_name: str
    timeline: str
    release: str
    other: Optional[Link]  # the release's other copy of the page
    other_words: list[str]  # what tells the copies apart, around the link to the other
    intro: Optional[str]  # its page's introduction
    intro_translated: bool
    notes: list[tuple[str, str, str]]  # (kind, title, text): what the page's marks and gaps mean
    columns: tuple[tuple[str, str], ...]  # (key, heading), as its page has them
    cls: str
    rows: list[EditionRow]
    not_known: list[Link]  # the codes whose listing is not known
    malformations: list[Malformation]  # a row upstream's page writes malformed: each side's text
    edition_notes: Optional[str]
    sources: list[SourceView]


class NameCell(NamedTuple):
    """A row's name: its anchor, its link to the code's page (the name the page shows), its
    value, and the names the code had in that release's files where they differ."""

    anchor: str
    link: Link
    hex: str
    value: int
    then: str  # the code's name in that release's files, where the page shows another ("" otherwise)
    c_name: str  # its C name then, where it is neither ("" otherwise)
    also: str = ""  # the name the row shows, in lower case, where it is not the anchor: an anchor too


class EditionRow(NamedTuple):
    """A row of an edition's table: its name, and a cell per column (None for the name's, a
    Recoverable, a TextCell), each hashable (the editions of a timeline share most)."""

    name: NameCell
    cells: tuple


def render_edition_page(catalog: Catalog, family: Family, edition: Edition, lang: str) -> str:
    ctx = Context(catalog, lang, f"{family.prefix}editions/{edition.id}/", family)
    page = edition.page
    other = family.other_copy(edition)
    words = ctx.label("repository_file" if edition.repo_copy else "published_page").split("{other}")
    view = EditionView(
        id=edition.id, title=page.title[lang], page_name=page.name[lang], timeline=edition.timeline.name[lang],
        release=edition.release, other=ctx.edition_link(family, other) if other is not None else None,
        other_words=words, intro=page.intro[lang] if page.intro is not None else None,
        intro_translated=page.intro is not None and lang in page.intro.translated,
        notes=_edition_notes(ctx, family, edition), columns=tuple((c, page.heading(c, lang)) for c in page.columns),
        cls="edition-table" + (" with-cause" if "cause" in page.columns else ""),
        rows=_edition_rows(ctx, family, edition),
        not_known=[ctx.code_link(family, family.code_by_name[n]) for n in edition.not_known],
        malformations=list(edition.malformations), edition_notes=edition.notes[lang] if edition.notes else None,
        sources=[ctx.source(s) for s in public_sources(edition)])
    return render_page("edition.md.j2", title=edition.id, banner=banner(), hide_toc=True, labels=ctx.labels,
                       e=view)


def _edition_notes(ctx: Context, family: Family, edition: Edition) -> list[tuple[str, str, str]]:
    """What the marks on the edition's texts and what is not known of it mean."""
    notes = [("note", f"{ctx.label(f'mark_{kind}')} {ctx.label(kind)}", ctx.label(f"{kind}_note"))
             for kind in (UNTRANSLATED, "translation", PROPOSED) if code_entry_origin(family, edition, ctx.lang, kind)]
    if not edition.has_texts(ctx.lang):
        notes.append(("info", ctx.label("text_not_known"), ctx.label("texts_not_known")))
    if not edition.order_known:
        notes.append(("info", ctx.label("change"), ctx.label("order_not_known")))
    return notes


def public_sources(edition: Edition) -> list:
    """The sources readers can follow: a scraped copy only where no file or page of its
    language is cited (it is then the only witness of that language's texts)."""
    cited = {s.lang for s in edition.sources if s.kind in ("repo", "url")}
    return [s for s in edition.sources if s.kind != "seed" or s.lang not in cited]


def code_entry_origin(family: Family, edition: Edition, lang: str, origin: str = "translation") -> bool:
    """Whether any text of the edition in `lang` has this origin (this project's translation)."""
    return origin in family.remember(("origins",), lambda: _origins(family)).get((edition.id, lang), ())


def _origins(family: Family) -> dict[tuple[str, str], set[str]]:
    """(edition, language) -> the origins of the texts its page shows, from one pass over every
    code's texts (an edition page asks for three origins; scanning its rows each time was a
    tenth of a large catalog's edition pages)."""
    found: dict[tuple[str, str], set[str]] = {}
    for code in family.codes:
        for (field_name, edition_id, lang), entry in code.text_table.items():
            edition = family.edition_by_id.get(edition_id)
            if edition is not None and code.name in edition.row_by_code and field_name in edition.page.text_fields:
                found.setdefault((edition_id, lang), set()).add(entry.origin)
    return found


def _edition_row(ctx: Context, family: Family, edition: Edition, code: Code) -> EditionRow:
    names = row_names(code, edition)
    row = edition.row_by_code[code.name]
    cells: list = []
    for column in edition.page.columns:
        if column == "name":
            cells.append(None)
        elif column == "recoverable":
            cells.append(recoverable(ctx, family, row.recoverable, row.disagreements))
        else:
            entry = code.entry(column, edition.id, ctx.lang)
            cells.append(text_cell_of(ctx, entry.text if entry else None, entry.origin if entry else None))
    anchor = row_anchor(edition, code)
    # the row's second anchor: the name it shows, or on a page of decimal values, its C name
    named = (names.c or "") if edition.page.first_column == "decimal" else names.shown
    also = named.lower() if named and named.lower() != anchor else ""
    name = NameCell(anchor, Link(ctx.url(ctx.code_location(family, code)), names.shown), hex_value(names.value),
                    names.value, names.then, names.other_c, also)
    return EditionRow(name, tuple(cells))


def _edition_rows(ctx: Context, family: Family, edition: Edition) -> list[EditionRow]:
    """The edition's rows; a row's second anchor (the name it shows, or the C name it gives:
    #llm_wait_proc_timeout on a C++ page) only where no row of the page has it as its own."""
    rows = [_edition_row(ctx, family, edition, family.code_by_name[row.code]) for row in edition.rows]
    anchors = {r.name.anchor for r in rows}
    return [r._replace(name=r.name._replace(also="")) if r.name.also in anchors else r for r in rows]


# -- differences -------------------------------------------------------------------------------------


def plan_differences(catalog: Catalog, family: Family) -> list[Planned]:
    """The index, a comparison page per page of two editions or more, a page per timeline."""
    planned = []
    for lang in catalog.site.languages:
        planned.append(Planned(doc_path(differences_location(family), lang),
                               partial(render_differences, catalog, family, lang), lang=lang))
        for page in family.pages:
            if compared(family, page):
                planned.append(Planned(doc_path(differences_location(family, page), lang),
                                       partial(render_page_differences, catalog, family, page, lang), lang=lang))
            for timeline in page.timelines:
                if family.timeline_editions(timeline):
                    planned.append(Planned(
                        doc_path(differences_location(family, page, timeline), lang),
                        partial(render_timeline_differences, catalog, family, page, timeline, lang), lang=lang))
    return planned
