"""A family's pages: one per code (generator.rendering.site.code_page), one per edition, the lists
of both, the differences (generator.rendering.site.compare), and the family's overview. Each is
planned as an Output (path, owner, what it reads) and rendered only when asked."""
from __future__ import annotations

from functools import partial

from generator.rendering.escape import html_in_markdown as esc, md_inline
from generator.domain.codes import Code
from generator.domain.editions import Edition
from generator.domain.family import Catalog, Family
from generator.domain.model import PROPOSED, UNTRANSLATED
from generator.rendering.stamps import Digests
from generator.rendering.output import Planned
from generator.domain.queries import default_edition, names_at_edition, row_anchor
from generator.rendering.site.code_page import pages_disagree, render_code_page
from generator.rendering.site.compare import (compared, differences_location, render_differences,
                                              render_page_differences, render_timeline_differences)
from generator.rendering.site.context import Context, doc_path
from generator.rendering.site.html import admonition, code_html, link, table, text_html
from generator.rendering.site.theme import release_anchor
from generator.rendering.site.parts import (TITLE_ID, heading as _h, page as _page, recoverable_html,
                                  text_cell, translation_mark)



# -- the family's overview ---------------------------------------------------------------------


def plan_family_page(catalog: Catalog, family: Family, digests: Digests) -> list[Planned]:
    if not family.site_path:
        return []  # the family at the site's root is shown on the home page
    return [Planned(doc_path(f"{family.prefix}", lang, index=True),
                    partial(render_family_page, catalog, family, lang), lang=lang)
            for lang in catalog.site.languages]


def render_family_page(catalog: Catalog, family: Family, lang: str, stamp: str) -> str:
    ctx = Context(catalog, lang, family.prefix, family)
    return _page(
        family.name[lang], stamp, [_h(1, family.name[lang], TITLE_ID), family_block(ctx, family, heading=False)]
    )


def family_block(ctx: Context, family: Family, heading: bool = True) -> str:
    """A family in brief: what it is, its pages, their copies and editions, and where to go."""
    out = []
    if heading:
        out.append(_h(3, family.name[ctx.lang], f"family-{family.id}"))  # under the home's "Code families"
    out.append(md_inline(ctx.label("family_intro", family)))  # a paragraph of the page's Markdown
    links = [link(ctx.url(f"{family.prefix}codes/"), esc(ctx.label("all_codes"))),
             link(ctx.url(f"{family.prefix}editions/"), esc(ctx.label("editions"))),
             link(ctx.url(f"{family.prefix}differences/"), esc(ctx.label("differences_title")))]
    out.append('<p class="family-links">' + " · ".join(links) + "</p>")
    columns = [("page", ctx.l("page")), ("timeline", ctx.l("timeline")), ("editions", ctx.l("editions"))]
    rows = []
    for page in family.pages:
        for timeline in page.timelines:
            editions = ", ".join(ctx.edition_link(family, e) for e in family.timeline_editions(timeline))
            # one element: on a phone a cell is a grid, where each bare comma would be an item of its own
            rows.append((None, [esc(page.name[ctx.lang]), esc(timeline.name[ctx.lang]),
                                f'<span class="edition-links">{editions}</span>' if editions else "—"]))
    out.append(table(columns, rows, "family-pages"))
    return "\n\n".join(out)


# -- codes -----------------------------------------------------------------------------------------


def plan_code_list(catalog: Catalog, family: Family, digests: Digests) -> list[Planned]:
    return [Planned(doc_path(f"{family.prefix}codes/", lang, index=True),
                    partial(render_codes_index, catalog, family, lang), lang=lang)
            for lang in catalog.site.languages]


def plan_code_pages(catalog: Catalog, family: Family, digests: Digests) -> list[Planned]:
    return [Planned(doc_path(f"{family.prefix}codes/{code.name}/", lang),
                    partial(render_code_page, catalog, family, code, lang),
                    item=code.name, lang=lang)
            for code in family.codes for lang in catalog.site.languages]


def render_codes_index(catalog: Catalog, family: Family, lang: str, stamp: str) -> str:
    ctx = Context(catalog, lang, f"{family.prefix}codes/", family)
    default_page = family.page_by_id[family.python.default_page]
    columns = [
        ("name", ctx.l("name")),
        ("value", ctx.l("value")),
        ("meaning", esc(default_page.heading("meaning", lang))),
        ("recoverable", esc(default_page.heading("recoverable", lang))),
    ]
    rows = []
    for code in family.codes:
        # the newest release's answer, as the module's edition=None gives it
        edition = default_edition(family, code)
        meaning = code.text("meaning", edition.id, lang) if edition else None
        name = ctx.code_link(family, code, code_html(code.name))
        if code.c_name and code.c_name != code.name:
            name += f'<br><span class="code-other-name">{ctx.l("c_name")}: {code_html(code.c_name)}</span>'
        value = f'{code_html(code.hex)}<br><code class="copyable">{code.value}</code>'
        row = edition.row_by_code[code.name] if edition else None
        recoverable = recoverable_html(ctx, family, row.recoverable, row.disagreements) if row else "—"
        recoverable += _pages_disagree(ctx, family, code)
        rows.append((code.slug, [name, value, text_html(meaning) if meaning else "—", recoverable]))
    title = f"{family.name[lang]} · {ctx.label('all_codes')}"
    return _page(title, stamp, [_h(1, title, TITLE_ID), table(columns, rows, "codes-table")], hide_toc=True)


def _pages_disagree(ctx: Context, family: Family, code: Code) -> str:
    """Under the list's word, where the code's newest answers (one per page, as its page shows
    them) disagree on recoverability: what each page says."""
    said = pages_disagree(ctx, family, code, [e for e in (default_edition(family, code, page=p)
                                                         for p in family.pages) if e is not None])
    return f'<br><small class="disagreement pages-disagree">{esc(ctx.label("answer_disagree"))} {said}</small>' \
        if said else ""


# -- editions -----------------------------------------------------------------------------------------


def plan_edition_list(catalog: Catalog, family: Family, digests: Digests) -> list[Planned]:
    return [Planned(doc_path(f"{family.prefix}editions/", lang, index=True),
                    partial(render_editions_index, catalog, family, lang), lang=lang)
            for lang in catalog.site.languages]


def plan_edition_pages(catalog: Catalog, family: Family, digests: Digests) -> list[Planned]:
    return [Planned(doc_path(f"{family.prefix}editions/{edition.id}/", lang),
                    partial(render_edition_page, catalog, family, edition, lang),
                    item=edition.id, lang=lang)
            for edition in family.editions for lang in catalog.site.languages]


def render_editions_index(catalog: Catalog, family: Family, lang: str, stamp: str) -> str:
    ctx = Context(catalog, lang, f"{family.prefix}editions/", family)
    title = f"{family.name[lang]} · {ctx.label('editions')}"
    body = [_h(1, title, TITLE_ID)]
    for page in family.pages:
        body.append(_h(2, page.name[lang], f"page-{page.id}"))
        columns = [("edition", ctx.l("edition")), ("release", ctx.l("release")), ("timeline", ctx.l("timeline")),
                   ("codes", ctx.l("codes"))]
        rows = [(None, [ctx.edition_link(family, e), esc(e.release), esc(e.timeline.name[lang]), str(len(e.rows))])
                for e in family.page_editions(page)]
        body.append(table(columns, rows, "editions-table"))
    body += _releases(ctx, family)
    return _page(title, stamp, body)


def _releases(ctx: Context, family: Family) -> list[str]:
    """Each release and its editions, a line each, anchored (editions/9.0.0/ leads here)."""
    by_release: dict[str, list[Edition]] = {}
    for edition in family.editions:
        by_release.setdefault(edition.release, []).append(edition)
    items = [f'<li id="{esc(release_anchor(release))}"><strong>{esc(release)}</strong>: '
             + ", ".join(ctx.edition_link(family, e) for e in editions) + "</li>"
             for release, editions in by_release.items()]
    return [_h(2, ctx.label("releases"), "releases"), '<ul class="release-list">' + "".join(items) + "</ul>"]


def render_edition_page(catalog: Catalog, family: Family, edition: Edition, lang: str, stamp: str) -> str:
    ctx = Context(catalog, lang, f"{family.prefix}editions/{edition.id}/", family)
    page = edition.page
    meta = [(ctx.label("page"), esc(page.name[lang])), (ctx.label("timeline"), esc(edition.timeline.name[lang])),
            (ctx.label("release"), esc(edition.release))]
    other = family.other_copy(edition)
    if other is not None:  # what tells the release's two copies apart (their page, copy and release agree)
        words = ctx.label("repository_file" if edition.repo_copy else "published_page").split("{other}")
        meta.append((ctx.label("which_copy"), ctx.edition_link(family, other).join(esc(w) for w in words)))
    # the id in one piece: a phone broke "9.0.0-v2" at its hyphen
    body = [_h(1, f"{page.title[lang]} · ", TITLE_ID, f'<span class="eid">{md_inline(edition.id)}</span>'),
            '<dl class="edition-facts">' + "".join(f"<dt>{esc(k)}</dt><dd>{v}</dd>" for k, v in meta) + "</dl>"]
    if page.intro is not None:
        mark = translation_mark(ctx) if lang in page.intro.translated else ""
        body.append(f'<p class="upstream-intro">{esc(page.intro[lang])}{mark}</p>')
    if code_entry_origin(family, edition, lang, UNTRANSLATED):
        body.append(admonition("note", ctx.label("untranslated"), text_html(ctx.label("untranslated_note"))))
    if code_entry_origin(family, edition, lang):
        body.append(admonition("note", ctx.label("translation"), text_html(ctx.label("translation_note"))))
    if code_entry_origin(family, edition, lang, PROPOSED):
        body.append(admonition("note", ctx.label("proposed"), text_html(ctx.label("proposed_note"))))
    if not edition.has_texts(lang):
        body.append(admonition("info", ctx.label("text_not_known"), text_html(ctx.label("texts_not_known"))))
    if not edition.order_known:
        body.append(admonition("info", ctx.label("change"), text_html(ctx.label("order_not_known"))))
    body.append(_edition_table(ctx, family, edition))
    if edition.not_known:
        codes = ", ".join(ctx.code_link(family, family.code_by_name[n]) for n in edition.not_known)
        body.append(f'<p class="not-listed-not-known">{esc(ctx.label("not_listed_not_known"))} {codes}</p>')
    for broken in edition.malformations:
        sides = "".join(
            f"<dt>{esc(label)}{' (' + esc(ctx.label('malformed_shown')) + ')' if label == broken.shown else ''}</dt>"
            f"<dd>{text_html(text)}</dd>"
            for label, text in broken.sides
        )
        body.append(
            admonition(
                "warning",
                f"{ctx.label('malformed')}: {broken.kind} · {broken.code} · line {broken.line}",
                f"<dl>{sides}</dl>",
            )
        )
    if edition.notes:
        body.append(admonition("note", ctx.label("notes"), text_html(edition.notes[lang])))
    body.append(_h(2, ctx.label("sources"), "sources"))
    body.append(
        '<ul class="sources">' + "".join(f"<li>{ctx.source_html(s)}</li>" for s in public_sources(edition)) + "</ul>"
    )
    return _page(edition.id, stamp, body, hide_toc=True)


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


def _edition_table(ctx: Context, family: Family, edition: Edition) -> str:
    page = edition.page
    columns = [(c, esc(page.heading(c, ctx.lang))) for c in page.columns]
    rows = []
    permalink = esc(ctx.label("permalink"))
    for row in edition.rows:
        code = family.code_by_name[row.code]
        cells = []
        for column in page.columns:
            if column == "name":
                cells.append(_name_cell(ctx, family, edition, code, permalink))
            elif column == "recoverable":
                cells.append(recoverable_html(ctx, family, row.recoverable, row.disagreements))
            else:
                entry = code.entry(column, edition.id, ctx.lang)
                cells.append(text_cell(ctx, entry.text if entry else None, entry.origin if entry else None))
        rows.append((row_anchor(edition, code), cells))
    return table(columns, rows, "edition-table" + (" with-cause" if "cause" in page.columns else ""))


def _name_cell(ctx: Context, family: Family, edition: Edition, code: Code, permalink: str) -> str:
    """The row's name (its link to the code's page), its permalink (`permalink`: the link's
    title, escaped), value, and the names the code had in that release's files."""
    shown = str(code.value) if edition.page.first_column == "decimal" else edition.name_shown(code.name) or code.name
    python, c = names_at_edition(code, edition)
    then = python or c or code.name  # the code's name in that release's files
    anchor = row_anchor(edition, code)
    parts = [f'{ctx.code_link(family, code, code_html(shown))}<a class="row-permalink" href="#{anchor}" '
             f'title="{permalink}">¶</a>']
    parts.append(f'<span class="code-value">{code_html(code.hex)} ({code.value})</span>')
    if then != shown:
        parts.append(f'<span class="code-other-name">{code_html(then)}</span>')
    if c and c not in (shown, then):
        parts.append(f'<span class="code-other-name">{esc(ctx.label("c_name"))}: {code_html(c)}</span>')
    return "<br>".join(parts)


# -- differences -------------------------------------------------------------------------------------


def plan_differences(catalog: Catalog, family: Family, digests: Digests) -> list[Planned]:
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
