"""A family's pages: one per code, one per edition, the lists of both, the differences,
and the family's overview. Each is planned as an Output (path, owner, what it reads)
and rendered only when asked."""
from __future__ import annotations

import json
from typing import Optional

from generator.domain.changes import Presence, compare_editions, copied_releases, history, presence, release_copies
from generator.rendering.escape import html_text as esc, md_inline
from generator.domain.codes import Code
from generator.domain.editions import Edition
from generator.domain.family import Catalog, Family
from generator.domain.model import UNTRANSLATED, Page
from generator.rendering.inputs import Digests
from generator.rendering.output import Planned
from generator.domain.queries import default_edition
from generator.rendering.site import svg
from generator.rendering.site.context import Context, doc_path, markdown_banner
from generator.rendering.site.html import admonition, code_html, link, table, text_html
from generator.rendering.site.worddiff import word_diff

# The id of every page's title, the same in every language; the hyphen keeps it apart from
# the rows' anchors (a code's lower-case name).
TITLE_ID = "page-title"


def front_matter(title: str, hide_toc: bool = False) -> str:
    """The page's title, escaped for HTML: MkDocs themes put it into <title> and the navigation as it is."""
    hide = "hide:\n  - toc\n" if hide_toc else ""
    return f"---\ntitle: {json.dumps(esc(title), ensure_ascii=False)}\n{hide}---\n"


def _page(title: str, stamp: str, body: list[str], hide_toc: bool = False) -> str:
    """A page; hide_toc for a page with no sections, whose table takes the table of contents' room."""
    head = front_matter(title, hide_toc) + markdown_banner(stamp) + "\n\n"
    return head + "\n\n".join(p for p in body if p) + "\n"


def _h(level: int, text: str, ident: str) -> str:
    """A Markdown heading with a stable id, the same in every language; its text escaped
    for Markdown (a `*` or `[` in a name stays a character) and for HTML."""
    return f"{'#' * level} {md_inline(text)} {{#{ident}}}"


def listable_pages(family: Family, code: Code) -> list[Page]:
    return [p for p in family.pages if code.name_on(p) is not None]


# -- the family's overview ---------------------------------------------------------------------


def plan_family_page(catalog: Catalog, family: Family, digests: Digests) -> list[Planned]:
    if not family.site_path:
        return []  # the family at the site's root is shown on the home page
    return [Planned(doc_path(f"{family.prefix}", lang, index=True),
                    lambda stamp, lang=lang: render_family_page(catalog, family, lang, stamp), lang=lang)
            for lang in catalog.site.languages]


def render_family_page(catalog: Catalog, family: Family, lang: str, stamp: str) -> str:
    ctx = Context(catalog, lang, family.prefix, family)
    return _page(family.name[lang], stamp, [_h(1, family.name[lang], TITLE_ID), family_block(ctx, family, heading=False)])


def family_block(ctx: Context, family: Family, heading: bool = True) -> str:
    """A family in brief: what it is, its pages, their copies and editions, and where to go."""
    out = []
    if heading:
        out.append(_h(2, family.name[ctx.lang], f"family-{family.id}"))
    out.append(esc(ctx.label("family_intro", family)))
    links = [link(ctx.url(f"{family.prefix}codes/"), esc(ctx.label("all_codes"))),
             link(ctx.url(f"{family.prefix}editions/"), esc(ctx.label("editions"))),
             link(ctx.url(f"{family.prefix}differences/"), esc(ctx.label("differences_title")))]
    out.append('<p class="family-links">' + " · ".join(links) + "</p>")
    columns = [("page", ctx.l("page")), ("timeline", ctx.l("timeline")), ("editions", ctx.l("editions"))]
    rows = []
    for page in family.pages:
        for timeline in page.timelines:
            editions = ", ".join(ctx.edition_link(family, e) for e in family.timeline_editions(timeline))
            rows.append((None, [esc(page.name[ctx.lang]), esc(timeline.name[ctx.lang]), editions or "—"]))
    out.append(table(columns, rows, "family-pages"))
    return "\n\n".join(out)


# -- codes -----------------------------------------------------------------------------------------


def plan_code_list(catalog: Catalog, family: Family, digests: Digests) -> list[Planned]:
    return [Planned(doc_path(f"{family.prefix}codes/", lang, index=True),
                    lambda stamp, lang=lang: render_codes_index(catalog, family, lang, stamp), lang=lang)
            for lang in catalog.site.languages]


def plan_code_pages(catalog: Catalog, family: Family, digests: Digests) -> list[Planned]:
    return [Planned(doc_path(f"{family.prefix}codes/{code.name}/", lang),
                    lambda stamp, code=code, lang=lang: render_code_page(catalog, family, code, lang, stamp),
                    item=code.name, lang=lang)
            for code in family.codes for lang in catalog.site.languages]


def render_codes_index(catalog: Catalog, family: Family, lang: str, stamp: str) -> str:
    ctx = Context(catalog, lang, f"{family.prefix}codes/", family)
    columns = [("name", ctx.l("name")), ("value", ctx.l("value")),
               ("meaning", esc(family.page_by_id[family.python.default_page].heading("meaning", lang)))]
    rows = []
    for code in family.codes:
        edition = default_edition(family, code)
        meaning = code.text("meaning", edition.id, lang) if edition else None
        name = ctx.code_link(family, code, code_html(code.name))
        if code.c_name and code.c_name != code.name:
            name += f'<br><span class="code-other-name">{ctx.l("c_name")}: {code_html(code.c_name)}</span>'
        value = f'{code_html(code.hex)}<br><code class="copyable">{code.value}</code>'
        rows.append((code.slug, [name, value, text_html(meaning) if meaning else "—"]))
    title = f"{family.name[lang]} · {ctx.label('all_codes')}"
    return _page(title, stamp, [_h(1, title, TITLE_ID), table(columns, rows, "codes-table")], hide_toc=True)


def render_code_page(catalog: Catalog, family: Family, code: Code, lang: str, stamp: str) -> str:
    ctx = Context(catalog, lang, f"{family.prefix}codes/{code.name}/", family)
    body = [_h(1, code.name, TITLE_ID), _code_facts(ctx, family, code)]
    if code.obsolete:
        reason = code.obsolete.reason[lang] if code.obsolete.reason is not None else ctx.label("reason_not_recorded")
        body.append(admonition("warning", f"{ctx.label('obsolete')} ({code.obsolete.since})", text_html(reason)))
    if not code.in_python:
        body.append(admonition("info", ctx.label("exists_c"), text_html(ctx.label("c_only_note"))))
    elif not code.in_c:
        body.append(admonition("info", ctx.label("exists_python"), text_html(ctx.label("python_only_note"))))
    pages = listable_pages(family, code)
    body.append(_h(2, ctx.label("timeline_picture"), "timeline"))
    body.extend(_strips(ctx, family, code, pages))
    body.append(_h(2, ctx.label("per_edition"), "per-edition"))
    said = False
    for page in pages:
        cards = _says(ctx, family, code, page)
        if cards:
            said = True
            body.append(_h(3, page.name[lang], f"says-{page.id}"))
            body.append(cards)
    if not said:
        body.append(admonition("info", ctx.label("not_listed"), text_html(ctx.label("undocumented"))))
    body.append(_h(2, ctx.label("history"), "history"))
    body.extend(_histories(ctx, family, code, pages))
    if code.notes:
        body.append(admonition("note", ctx.label("notes"), text_html(code.notes[lang])))
    return _page(code.name, stamp, body)


def _strips(ctx: Context, family: Family, code: Code, pages: list[Page]) -> list[str]:
    """The code's row of each page's picture; one line for the pages that never list it."""
    out, never = [], []
    for page in pages:
        if not svg.ever_listed(code, family.page_editions(page)):
            never.append(esc(page.name[ctx.lang]))
            continue
        groups = [family.timeline_editions(t) for t in page.timelines]
        out.append(_h(3, page.name[ctx.lang], f"timeline-{page.id}"))
        out.append(svg.strip(code, groups, ctx.state, lambda e, c: _cell_href(ctx, family, e, c),
                             f"{code.name}: {page.name[ctx.lang]}"))
    if never:
        out.append(f'<p class="never-listed">{ctx.l("not_listed")}: {"; ".join(never)}</p>')
    return out


def _cell_href(ctx: Context, family: Family, edition: Edition, code: Code) -> str:
    """A cell links to the code's row of the edition's table, or to the table where it has none."""
    anchor = f"#{code.slug}" if code.name in edition.row_by_code else ""
    return ctx.url(ctx.edition_location(family, edition)) + anchor


def _histories(ctx: Context, family: Family, code: Code, pages: list[Page]) -> list[str]:
    """A table per timeline that ever lists the code; one line for those that never do."""
    out, never = [], []
    for page in pages:
        for timeline in page.timelines:
            steps = history(family, code, timeline)
            if not steps:
                continue
            name = f"{page.name[ctx.lang]} · {timeline.name[ctx.lang]}"
            if all(step.presence == Presence.NOT_LISTED for step in steps):
                never.append(f"{esc(name)} ({esc(steps[0].edition.id)} – {esc(steps[-1].edition.id)})")
                continue
            out.append(_h(3, name, f"history-{timeline.id}"))
            out.append(_history_table(ctx, family, code, steps))
    if never:
        out.append(f'<p class="never-listed">{ctx.l("not_listed")}:</p><ul class="never-listed">'
                   + "".join(f"<li>{n}</li>" for n in never) + "</ul>")
    return out


def _code_facts(ctx: Context, family: Family, code: Code) -> str:
    rows = [
        (ctx.label("python_name"), code_html(code.python_name) if code.python_name else "—"),
        (ctx.label("c_name"), code_html(family.c.macro_prefix + code.c_name) if code.c_name else "—"),
        (ctx.label("hex"), code_html(code.hex)),
        (ctx.label("decimal"), f'<code class="copyable">{code.value}</code>'),
        (ctx.label("exists_in"), esc(ctx.label("exists_both" if code.in_python and code.in_c else
                                              "exists_python" if code.in_python else "exists_c"))),
    ]
    if code.cpp:
        decls = []
        for name in code.cpp:
            where = f"<code>{esc(name.header)}</code>" if name.header else esc(ctx.label("declared_outside"))
            decls.append(f"{code_html(name.name)} ({where})")
        rows.append((ctx.label("cpp_names"), "<br>".join(decls)))
    rows.append((ctx.label("log_message"), f"<code>{esc(code.log_message)}</code>" if code.log_message is not None else "—"))
    listing = family.editions_listing(code)
    rows.append((ctx.label("listed_by"), ", ".join(ctx.edition_link(family, e, code) for e in listing)
                 or esc(ctx.label("listed_by_none"))))
    items = "".join(f"<dt>{esc(k)}</dt><dd>{v}</dd>" for k, v in rows)
    return f'<dl class="code-facts">{items}</dl>'


def _says(ctx: Context, family: Family, code: Code, page: Page) -> str:
    """What the page's editions say about the code, one card per distinct saying."""
    groups: dict[tuple, list[Edition]] = {}
    for edition in family.page_editions(page):
        state = presence(edition, code)
        if state == Presence.NOT_LISTED:
            continue
        row = edition.row_by_code.get(code.name)
        key = (state, row.recoverable if row else None, row.disagreements if row else (),
               edition.has_texts(ctx.lang),
               tuple((f, code.text(f, edition.id, ctx.lang), getattr(code.entry(f, edition.id, ctx.lang), "origin", None))
                     for f in page.text_fields))
        groups.setdefault(key, []).append(edition)
    cards = []
    for (state, value, disagreements, _texts_known, texts), editions in groups.items():
        links = ", ".join(ctx.edition_link(family, e, code) for e in editions)
        items = []
        if state == Presence.NOT_KNOWN:
            items.append(f"<dt>{esc(ctx.label('listed'))}</dt><dd><em>{esc(ctx.label('listing_not_known'))}</em></dd>")
        else:
            items.append(f"<dt>{esc(page.heading('recoverable', ctx.lang))}</dt><dd>{_recoverable_html(ctx, family, value, disagreements)}</dd>")
            for field_name, text, origin in texts:
                items.append(f"<dt>{esc(page.heading(field_name, ctx.lang))}</dt><dd>{_text_cell(ctx, text, origin)}</dd>")
        cards.append(f'<div class="says"><p class="says-editions">{links}</p><dl>{"".join(items)}</dl></div>')
    return '<div class="says-list">' + "".join(cards) + "</div>" if cards else ""


def _recoverable_html(ctx: Context, family: Family, value: Optional[str], disagreements) -> str:
    html = f'<span class="recoverable st-{svg.RECOVERABLE_STATE.get(value, "absent")}">{esc(ctx.recoverable(value, family))}</span>'
    for lang, other in disagreements:
        note = ctx.label("disagreement").replace("{lang}", ctx.site.language_names.get(lang, lang)) \
            .replace("{value}", family.recoverable_label(other, lang))
        html += f'<br><small class="disagreement">{esc(note)}</small>'
    return html


def _text_cell(ctx: Context, text: Optional[str], origin: Optional[str]) -> str:
    if text is None:
        return f'<em class="not-known">{esc(ctx.label("text_not_known"))}</em>'
    if origin == UNTRANSLATED:
        return text_html(text) + f' <span class="translation untranslated">({esc(ctx.label("untranslated"))})</span>'
    return text_html(text) + (_translation_mark(ctx) if origin == "translation" else "")


def _translation_mark(ctx: Context) -> str:
    """What marks a text this project translated, wherever the site shows one."""
    return f' <span class="translation">({esc(ctx.label("translation"))})</span>'


def _history_table(ctx: Context, family: Family, code: Code, steps) -> str:
    columns = [("edition", ctx.l("edition")), ("listed", ctx.l("listed")), ("recoverable", ctx.l("recoverable_note")),
               ("change", ctx.l("change"))]
    rows = []
    for step in steps:
        rows.append((None, [ctx.edition_link(family, step.edition, code), esc(ctx.label(step.presence.label_key)),
                            esc(ctx.recoverable(step.recoverable)) if step.recoverable else "—",
                            esc(", ".join(ctx.label(e.value) for e in step.events)) or ""]))
    return table(columns, rows, "history-table")


# -- editions -----------------------------------------------------------------------------------------


def plan_edition_list(catalog: Catalog, family: Family, digests: Digests) -> list[Planned]:
    return [Planned(doc_path(f"{family.prefix}editions/", lang, index=True),
                    lambda stamp, lang=lang: render_editions_index(catalog, family, lang, stamp), lang=lang)
            for lang in catalog.site.languages]


def plan_edition_pages(catalog: Catalog, family: Family, digests: Digests) -> list[Planned]:
    return [Planned(doc_path(f"{family.prefix}editions/{edition.id}/", lang),
                    lambda stamp, e=edition, lang=lang: render_edition_page(catalog, family, e, lang, stamp),
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
    return _page(title, stamp, body)


def render_edition_page(catalog: Catalog, family: Family, edition: Edition, lang: str, stamp: str) -> str:
    ctx = Context(catalog, lang, f"{family.prefix}editions/{edition.id}/", family)
    page = edition.page
    title = f"{page.title[lang]} · {edition.id}"
    meta = [(ctx.label("page"), esc(page.name[lang])), (ctx.label("timeline"), esc(edition.timeline.name[lang])),
            (ctx.label("release"), esc(edition.release))]
    body = [_h(1, title, TITLE_ID),
            '<dl class="edition-facts">' + "".join(f"<dt>{esc(k)}</dt><dd>{v}</dd>" for k, v in meta) + "</dl>"]
    if page.intro is not None:
        mark = _translation_mark(ctx) if lang in page.intro.translated else ""
        body.append(f'<p class="upstream-intro">{esc(page.intro[lang])}{mark}</p>')
    if code_entry_origin(family, edition, lang, UNTRANSLATED):
        body.append(admonition("note", ctx.label("untranslated"), text_html(ctx.label("untranslated_note"))))
    if code_entry_origin(family, edition, lang):
        body.append(admonition("note", ctx.label("translation"), text_html(ctx.label("translation_note"))))
    if not edition.has_texts(lang):
        body.append(admonition("info", ctx.label("text_not_known"), text_html(ctx.label("texts_not_known"))))
    if not edition.order_known:
        body.append(admonition("info", ctx.label("change"), text_html(ctx.label("order_not_known"))))
    body.append(_edition_table(ctx, family, edition))
    if edition.not_known:
        codes = ", ".join(ctx.code_link(family, family.code_by_name[n]) for n in edition.not_known)
        body.append(f'<p class="not-listed-not-known">{esc(ctx.label("not_listed_not_known"))} {codes}</p>')
    for broken in edition.malformations:
        sides = "".join(f"<dt>{esc(label)}{' (' + esc(ctx.label('malformed_shown')) + ')' if label == broken.shown else ''}</dt>"
                        f"<dd>{text_html(text)}</dd>" for label, text in broken.sides)
        body.append(admonition("warning", f"{ctx.label('malformed')}: {broken.kind} · {broken.code} · line {broken.line}",
                               f"<dl>{sides}</dl>"))
    if edition.notes:
        body.append(admonition("note", ctx.label("notes"), text_html(edition.notes[lang])))
    body.append(_h(2, ctx.label("sources"), "sources"))
    body.append("<ul class=\"sources\">" + "".join(f"<li>{ctx.source_html(s)}</li>" for s in public_sources(edition)) + "</ul>")
    return _page(edition.id, stamp, body, hide_toc=True)


def public_sources(edition: Edition) -> list:
    """The sources readers can follow: a scraped copy only where no file or page of its
    language is cited (it is then the only witness of that language's texts)."""
    cited = {s.lang for s in edition.sources if s.kind in ("repo", "url")}
    return [s for s in edition.sources if s.kind != "seed" or s.lang not in cited]


def code_entry_origin(family: Family, edition: Edition, lang: str, origin: str = "translation") -> bool:
    """Whether any text of the edition in `lang` has this origin (this project's translation)."""
    for row in edition.rows:
        code = family.code_by_name[row.code]
        for field_name in edition.page.text_fields:
            entry = code.entry(field_name, edition.id, lang)
            if entry is not None and entry.origin == origin:
                return True
    return False


def _edition_table(ctx: Context, family: Family, edition: Edition) -> str:
    page = edition.page
    columns = [(c, esc(page.heading(c, ctx.lang))) for c in page.columns]
    rows = []
    for row in edition.rows:
        code = family.code_by_name[row.code]
        cells = []
        for column in page.columns:
            if column == "name":
                cells.append(_name_cell(ctx, family, edition, code))
            elif column == "recoverable":
                cells.append(_recoverable_html(ctx, family, row.recoverable, row.disagreements))
            else:
                entry = code.entry(column, edition.id, ctx.lang)
                cells.append(_text_cell(ctx, entry.text if entry else None, entry.origin if entry else None))
        rows.append((code.slug, cells))
    return table(columns, rows, "edition-table" + (" with-cause" if "cause" in page.columns else ""))


def _name_cell(ctx: Context, family: Family, edition: Edition, code: Code) -> str:
    shown = str(code.value) if edition.page.first_column == "decimal" else code.name_on(edition.page)
    permalink = f'<a class="row-permalink" href="#{code.slug}" title="{esc(ctx.label("permalink"))}">¶</a>'
    parts = [f'{ctx.code_link(family, code, code_html(shown))}{permalink}']
    parts.append(f'<span class="code-value">{code_html(code.hex)} ({code.value})</span>')
    if code.name != shown:
        parts.append(f'<span class="code-other-name">{code_html(code.name)}</span>')
    if code.c_name and code.c_name not in (shown, code.name):
        parts.append(f'<span class="code-other-name">{esc(ctx.label("c_name"))}: {code_html(code.c_name)}</span>')
    return "<br>".join(parts)


# -- differences -------------------------------------------------------------------------------------


def plan_differences(catalog: Catalog, family: Family, digests: Digests) -> list[Planned]:
    return [Planned(doc_path(f"{family.prefix}differences/", lang),
                    lambda stamp, lang=lang: render_differences(catalog, family, lang, stamp), lang=lang)
            for lang in catalog.site.languages]


def render_differences(catalog: Catalog, family: Family, lang: str, stamp: str) -> str:
    ctx = Context(catalog, lang, f"{family.prefix}differences/", family)
    title = f"{family.name[lang]} · {ctx.label('differences_title')}"
    body: list[str] = [_h(1, title, TITLE_ID)]
    for page in family.pages:
        editions = family.page_editions(page)
        groups = [family.timeline_editions(t) for t in page.timelines]
        body.append(_h(2, page.name[lang], f"page-{page.id}"))
        body.append(_h(3, ctx.label("presence_matrix"), f"picture-{page.id}"))
        body.append(svg.legend(ctx.state))
        body.append(_presence_picture(ctx, family, page, editions, groups))
        for timeline in page.timelines:
            timeline_editions = family.timeline_editions(timeline)
            if len(timeline_editions) < 2:
                continue
            body.append(_h(3, f"{ctx.label('changes')}: {timeline.name[lang]}", f"changes-{timeline.id}"))
            for old, new in zip(timeline_editions, timeline_editions[1:]):
                body.append(_h(4, f"{old.id} → {new.id}", f"change-{old.id}-{new.id}"))
                body.append(_diff_html(ctx, family, compare_editions(family, old, new)))
        if copied_releases(family, page):
            body.append(_h(3, ctx.label("page_split"), f"copies-{page.id}"))
            body.append(_copies(ctx, family, page))
    return _page(title, stamp, body)


def _presence_picture(ctx: Context, family: Family, page: Page, editions: list[Edition], groups: list) -> str:
    """Which edition lists which code, and the codes no edition lists."""
    codes = [c for c in family.codes if c.name_on(page) is not None]
    shown = [c for c in codes if svg.ever_listed(c, editions)]
    out = [svg.matrix(shown, groups, ctx.state, lambda e, c: _cell_href(ctx, family, e, c),
                      f"{family.name[ctx.lang]}: {page.name[ctx.lang]}")]
    shown_names = {c.name for c in shown}  # a set: a list made this quadratic (100 s at 10,000 codes)
    never = [c for c in codes if c.name not in shown_names]
    if never:
        out.append(f'<p class="never-listed">{ctx.l("not_listed")}: '
                   + ", ".join(ctx.code_link(family, c) for c in never) + "</p>")
    return "\n\n".join(out)


def _copies(ctx: Context, family: Family, page: Page) -> str:
    """Per release on several timelines: the codes only one copy lists."""
    columns = [("edition", ctx.l("edition")), ("only", ctx.l("only_on"))]
    out = []
    for release, only in release_copies(family, page):
        rows = [(None, [ctx.edition_link(family, e), ", ".join(ctx.code_link(family, c) for c in codes_) or "—"])
                for e, codes_ in only]
        out.append(f"<p><strong>{esc(release)}</strong></p>" + table(columns, rows, "copies-table"))
    return "\n\n".join(out)


def _diff_html(ctx: Context, family: Family, diff) -> str:
    """What changed between two editions."""
    if not diff:
        return f"<p>{esc(ctx.label('no_changes'))}</p>"
    parts: list[str] = []
    before_after = [("code", ctx.l("name")), ("before", ctx.l("before")), ("after", ctx.l("after"))]
    if diff.presence:
        parts.append(table(before_after, [(None, [ctx.code_link(family, family.code_by_name[c.code]),
                                                  esc(ctx.label(c.before.label_key)), esc(ctx.label(c.after.label_key))])
                                          for c in diff.presence], "diff-table"))
    for key, changes in (("recoverable_changed", diff.recoverable), ("became_known", diff.became_known)):
        if changes:
            parts.append(f"<p><strong>{esc(ctx.label(key))}</strong></p>" + table(
                before_after, [(None, [ctx.code_link(family, family.code_by_name[c.code]),
                                       esc(ctx.recoverable(c.before)), esc(ctx.recoverable(c.after))])
                               for c in changes], "diff-table"))
    texts = [c for c in diff.texts if c.lang == ctx.lang]
    if texts:
        columns = [("code", ctx.l("name")), ("field", ctx.l("column")), ("change", ctx.l("change"))]
        title = f"<p><strong>{esc(ctx.label('texts_changed'))}</strong> <small>{esc(ctx.label('word_diff_note'))}</small></p>"
        parts.append(title + table(columns, [(None, [ctx.code_link(family, family.code_by_name[c.code]),
                                                     esc(diff.new.page.heading(c.field, ctx.lang)),
                                                     f'<div class="word-diff">{word_diff(c.before, c.after)}</div>'
                                                     + (f' <span class="translation untranslated">({esc(ctx.label("untranslated"))})</span>'
                                                        if c.untranslated else "")])
                                             for c in texts], "diff-table"))
    elif ctx.lang not in diff.texts_comparable:
        parts.append(f"<p><em>{esc(ctx.label('text_not_known'))}</em></p>")
    if not parts:
        parts.append(f"<p>{esc(ctx.label('no_changes'))}</p>")
    return "\n".join(parts)
