"""The differences of a family's pages, in three kinds of page under `differences/`:

- `differences/`: per page, its timelines and the codes on one copy of a release only;
- `differences/PAGE/`: any two editions of the page compared, across its copies too;
- `differences/PAGE/TIMELINE/`: which edition of the timeline lists which code (a picture),
  and each step from one edition to the next, in short.

A comparison is computed here, by changes.compare_editions, for the one each comparison page
shows first; any other a reader picks, the page's script (assets/javascripts/extra.js)
computes in the browser from the page's data (`compare-data`: every edition's rows, each text
once), by the same rules, into the same HTML (a test compares every pair). So each page
stays as light as a code's page, however many editions a page has.

A timeline's steps skip the repository copies of a published page (`-repo`): a copy is
compared with its published page on the index, where a change of punctuation alone is said so.
"""
from __future__ import annotations

import re
from typing import Optional
from urllib.parse import quote

from generator.domain.changes import (EditionDiff, Presence, compare_editions, copied_releases, listable,
                                      release_copies)
from generator.rendering.escape import html_in_markdown as esc
from generator.domain.editions import Edition
from generator.domain.family import Catalog, Family
from generator.domain.model import Page, Timeline
from generator.rendering.site import svg
from generator.rendering.site.context import Context
from generator.rendering.site.html import code_html, details, link, table, table_ends, table_rows
from generator.rendering.site.parts import TITLE_ID, heading, json_script, page as page_md
from generator.rendering.site.release_words import fill_label
from generator.rendering.site.worddiff import word_diff

DATA_ID = "compare-data"
# What a change of punctuation or spacing alone leaves alike: letters, digits and ideographs.
_NOT_WORDS = re.compile(
    r"[\s!-/:-@\[-`{-~\u2010-\u2027\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]+"
)


def differences_location(family: Family, page: Optional[Page] = None, timeline: Optional[Timeline] = None) -> str:
    return f"{family.prefix}differences/" + (f"{page.id}/" if page else "") + (f"{timeline.id}/" if timeline else "")


def compared(family: Family, page: Page) -> bool:
    """Whether the page has a comparison page: two editions or more."""
    return len(family.page_editions(page)) > 1


def render_differences(catalog: Catalog, family: Family, lang: str, stamp: str) -> str:
    """The index: per page, where to compare its editions, its timelines, and its copies of one release."""
    ctx = Context(catalog, lang, differences_location(family), family)
    title = f"{family.name[lang]} · {ctx.label('differences_title')}"
    body: list[str] = [heading(1, title, TITLE_ID)]
    for page in family.pages:
        editions = family.page_editions(page)
        if not editions:
            continue
        body.append(heading(2, page.name[lang], f"page-{page.id}"))
        items = []
        if compared(family, page):
            items.append(link(ctx.url(differences_location(family, page)), ctx.l("compare_title")))
        for timeline in page.timelines:
            shown = family.timeline_editions(timeline)
            if shown:
                span = pair_html(shown[0], shown[-1], " … ") if len(shown) > 1 else pair_html(shown[0])
                items.append(link(ctx.url(differences_location(family, page, timeline)), esc(timeline.name[lang]))
                             + f" · {span}")
        body.append('<ul class="differences-index">' + "".join(f"<li>{item}</li>" for item in items) + "</ul>")
        copies = _copies(ctx, family, page)
        if copies:
            body.append(heading(3, ctx.label("page_split"), f"copies-{page.id}"))
            body.append(copies)
    return page_md(title, stamp, body)


def render_page_differences(catalog: Catalog, family: Family, page: Page, lang: str, stamp: str) -> str:
    """Any two editions of a page: two lists, the first comparison written out, and the data of the rest."""
    ctx = Context(catalog, lang, differences_location(family, page), family)
    title = f"{page.name[lang]} · {ctx.label('compare_title')}"
    editions = family.page_editions(page)
    old, new = first_pair(family, page)

    def select(name: str, label: str, chosen: int) -> str:
        groups = []
        for timeline in page.timelines:
            options = "".join(f'<option value="{esc(e.id)}"{" selected" if e is editions[chosen] else ""}>'
                              f"{esc(e.id)}{_copy_word(ctx, e)}</option>" for e in family.timeline_editions(timeline))
            if options:
                groups.append(f'<optgroup label="{esc(timeline.name[lang])}">{options}</optgroup>')
        return f'<label><span>{ctx.l(label)}</span> <select name="{name}">{"".join(groups)}</select></label>'

    form = (f'<form class="compare" data-same="{ctx.l("compare_same")}" '
            f'data-not-here="{ctx.l("compare_not_here")}" hidden>'
            f'{select("old", "compare_old", old)} {select("new", "compare_new", new)}</form>')
    shown = f'<p class="compare-pair">{pair_html(editions[old], editions[new])}</p>'
    result = f'<div class="compare-result">{shown}{diff_html(ctx, family, editions[old], editions[new])}</div>'
    body = [heading(1, title, TITLE_ID), f'<p class="differences-up">{_up(ctx, family)}</p>', form, result,
            json_script(compare_data(ctx, family, page), DATA_ID)]
    return page_md(f"{family.name[lang]} · {title}", stamp, body)


def render_timeline_differences(catalog: Catalog, family: Family, page: Page, timeline: Timeline, lang: str,
                                stamp: str) -> str:
    """One timeline: its picture, and each step from one edition to the next, in short."""
    ctx = Context(catalog, lang, differences_location(family, page, timeline), family)
    title = f"{page.name[lang]} · {timeline.name[lang]}"
    body = [heading(1, title, TITLE_ID), f'<p class="differences-up">{_up(ctx, family)}</p>',
            heading(2, ctx.label("presence_matrix"), f"picture-{timeline.id}"), svg.legend(ctx.state),
            _presence_picture(ctx, family, page, timeline)]
    steps = _steps(ctx, family, page, timeline)
    if steps:
        body += [heading(2, ctx.label("changes"), f"changes-{timeline.id}"), steps]
    return page_md(f"{family.name[lang]} · {title}", stamp, body)


def _up(ctx: Context, family: Family) -> str:
    words = f"{family.name[ctx.lang]} · {ctx.label('differences_title')}"
    return link(ctx.url(differences_location(family)), esc(words))


def _copy_word(ctx: Context, edition: Edition) -> str:
    """What tells a repository copy from its release's published page, where a list names both."""
    return f" ({esc(ctx.label('repo_copy'))})" if edition.repo_copy else ""


# -- the picture of a timeline -------------------------------------------------------------------------


def _presence_picture(ctx: Context, family: Family, page: Page, timeline: Timeline) -> str:
    """Which edition lists which code, the codes no edition lists, and the editions in words
    (the picture's cells are no links: each edition's page is linked here)."""
    editions = family.timeline_editions(timeline)
    codes = [c for c in family.codes if c.name_on(page) is not None]
    shown = [c for c in codes if svg.ever_listed(c, editions)]
    out = [svg.matrix(shown, [editions], ctx.state, ctx.url(f"{family.prefix}editions/"),
                      f"{family.name[ctx.lang]}: {page.name[ctx.lang]}, {timeline.name[ctx.lang]}")]
    shown_names = {c.name for c in shown}  # a set: a list made this quadratic at 10,000 codes
    never = [c for c in codes if c.name not in shown_names]
    if never:
        out.append(f'<p class="never-listed">{ctx.l("not_listed")}: '
                   + ", ".join(ctx.code_link(family, c) for c in never) + "</p>")
    out.append('<ul class="picture-editions"><li>' + ", ".join(ctx.edition_link(family, e) for e in editions)
               + "</li></ul>")
    return "\n\n".join(out)


def _steps(ctx: Context, family: Family, page: Page, timeline: Timeline) -> str:
    """Each step of the timeline (a repository copy aside) in a line: what kinds of change it
    makes, how many of each, and a link to the step compared in full."""
    editions = [e for e in family.timeline_editions(timeline) if not e.repo_copy]
    items = []
    for old, new in zip(editions, editions[1:]):
        diff = compare_editions(family, old, new)
        texts = sum(1 for c in diff.texts if c.lang == ctx.lang)
        counts = [("added", len(diff.added)), ("dropped", len(diff.dropped)),
                  ("listing_not_known", len(diff.presence) - len(diff.added) - len(diff.dropped)),
                  ("renamed_row", len(diff.renamed)), ("recoverable_changed", len(diff.recoverable)),
                  ("became_known", len(diff.became_known)), ("texts_changed", texts)]
        said = [fill_label(ctx, "field_value", field=ctx.l(key), value=str(count)) for key, count in counts if count]
        if ctx.lang not in diff.texts_comparable:
            said.append(esc(ctx.label("text_not_known")))
        href = ctx.url(differences_location(family, page)) + f"?old={quote(old.id)}&new={quote(new.id)}"
        items.append(f'<li>{link(href, pair_html(old, new))}: {" · ".join(said) or esc(ctx.label("no_changes"))}</li>')
    return f'<ul class="differences-steps">{"".join(items)}</ul>' if items else ""


# -- any two editions of a page ---------------------------------------------------------------------------


def _tables(ctx: Context) -> dict[str, tuple[str, list[tuple[str, str]]]]:
    """Each kind of change a comparison lists: its title and its table's columns."""
    before_after = [("code", ctx.l("name")), ("before", ctx.l("before")), ("after", ctx.l("after"))]
    note = esc(ctx.label("word_diff_note"))
    return {
        "presence": (f"<p><strong>{esc(ctx.label('listing_changed'))}</strong></p>", before_after),
        "renamed": (f"<p><strong>{esc(ctx.label('renamed_row'))}</strong></p>", before_after),
        "recoverable": (f"<p><strong>{esc(ctx.label('recoverable_changed'))}</strong></p>", before_after),
        "known": (f"<p><strong>{esc(ctx.label('became_known'))}</strong></p>", before_after),
        "texts": (f"<p><strong>{esc(ctx.label('texts_changed'))}</strong> <small>{note}</small></p>",
                  [("code", ctx.l("name")), ("field", ctx.l("column")), ("change", ctx.l("change"))]),
    }


def _phrases(ctx: Context) -> dict[str, str]:
    """What a comparison says besides its tables: after a text awaiting its translation, and
    where nothing changed."""
    return {"untranslated": f' <span class="translation untranslated">({esc(ctx.label("untranslated"))})</span>',
            "none": f"<p>{esc(ctx.label('no_changes'))}</p>"}


def _not_known_pieces(ctx: Context) -> list[str]:
    """What a comparison says where the texts in its language are not known: the pieces before
    and after the ids of the editions whose texts are not known."""
    before, *after = fill_label(ctx, "compare_texts_not_known", editions="\0").split("\0")
    # a catalog's wording without {editions} has the ids at its end; with it twice, at the first
    return [f"<p><em>{before}", f"{''.join(after)}</em></p>"]


def _row_pieces(columns: list[tuple[str, str]]) -> list[str]:
    """A table row of these columns as the pieces around its cells (html.table_rows' markup, for
    the page's script to put cells between)."""
    return table_rows(columns, [(None, ["\0"] * len(columns))]).split("\0")


def diff_pieces(ctx: Context, family: Family, diff: EditionDiff) -> list[str]:
    """What changed between two editions, as HTML (the page's script writes the same)."""
    parts: list[str] = []
    tables, phrases = _tables(ctx), _phrases(ctx)

    def tabled(kind: str, rows) -> None:
        title, columns = tables[kind]
        start, end = table_ends(columns, "diff-table")
        parts.append(title + start + table_rows(columns, [(None, cells) for cells in rows]) + end)

    def code(name: str) -> str:
        return ctx.code_link(family, family.code_by_name[name])

    if diff.presence:
        tabled("presence", [[code(c.code), esc(ctx.label(c.before.label_key)), esc(ctx.label(c.after.label_key))]
                            for c in diff.presence])
    if diff.renamed:
        tabled("renamed", [[code(c.code), code_html(c.before, copy=False), code_html(c.after, copy=False)]
                           for c in diff.renamed])
    for kind, changes in (("recoverable", diff.recoverable), ("known", diff.became_known)):
        if changes:
            tabled(kind, [[code(c.code), esc(ctx.recoverable(c.before)), esc(ctx.recoverable(c.after))]
                          for c in changes])
    texts = [c for c in diff.texts if c.lang == ctx.lang]
    if texts:
        tabled("texts", [[code(c.code), esc(diff.new.page.heading(c.field, ctx.lang)),
                          f'<div class="word-diff">{word_diff(c.before, c.after)}</div>'
                          + (phrases["untranslated"] if c.untranslated else "")] for c in texts])
    elif ctx.lang not in diff.texts_comparable:
        unseen = ", ".join(pair_html(e) for e in (diff.old, diff.new) if not e.has_texts(ctx.lang))
        before, after = _not_known_pieces(ctx)
        parts.append(before + unseen + after)
    return parts or [phrases["none"]]


def diff_html(ctx: Context, family: Family, old: Edition, new: Edition) -> str:
    return "".join(diff_pieces(ctx, family, compare_editions(family, old, new)))


def first_pair(family: Family, page: Page) -> tuple[int, int]:
    """The comparison a page shows first (indexes into its editions): the two newest released
    editions, copies aside, of its last timeline that has two."""
    editions = family.page_editions(page)
    for timeline in reversed(page.timelines):
        main = [i for i, e in enumerate(editions) if e.timeline.id == timeline.id and e.released and not e.repo_copy]
        if len(main) >= 2:
            return main[-2], main[-1]
    return len(editions) - 2, len(editions) - 1


def compare_data(ctx: Context, family: Family, page: Page) -> dict:
    """What the page's script needs to compare any two editions of the page as compare_editions
    and diff_pieces do: every edition's rows, each text once, and the HTML around them."""
    editions = family.page_editions(page)
    ids = {e.id for e in editions}
    fields = page.text_fields
    codes = [c for c in family.codes
             if listable(c, page) or any(c.name in e.row_by_code or c.name in e.not_known for e in editions)]
    index = {c.name: i for i, c in enumerate(codes)}
    texts: dict[str, int] = {}
    values = list(family.recoverable_labels)
    value_index = {value: i for i, value in enumerate(values)}
    rows = []
    for edition in editions:
        # a row: [code, its name on the page (0: the code's own), recoverable, a text per field (-1: none)];
        # pending: [row, field] whose text awaits its translation
        listed: list[list] = []
        pending: list[list[int]] = []
        for c in codes:
            row = edition.row_by_code.get(c.name)
            if row is None:
                continue
            shown = edition.name_shown(c.name)
            cells = [index[c.name], 0 if shown == c.name else shown, value_index[row.recoverable]]
            for k, field_name in enumerate(fields):
                entry = c.entry(field_name, edition.id, ctx.lang)
                cells.append(-1 if entry is None else texts.setdefault(entry.text, len(texts)))
                if entry is not None and entry.untranslated:
                    pending.append([len(listed), k])
            listed.append(cells)
        rows.append({"t": int(edition.has_texts(ctx.lang)), "l": listed, "x": pending,
                     "u": [index[c.name] for c in codes if c.name in edition.not_known]})
    tables = {kind: [title + table_ends(columns, "diff-table")[0], _row_pieces(columns)]
              for kind, (title, columns) in _tables(ctx).items()}
    return {
        "editions": [e.id for e in editions], "rows": rows, "texts": list(texts),
        # an edition id once published keeps naming its edition in the address (?old=ALIAS)
        "aliases": {alias: target for alias, target in family.aliases if target in ids},
        "codes": [[c.name, int(listable(c, page))] for c in codes], "base": ctx.url(f"{family.prefix}codes/"),
        "fields": [[f, esc(page.heading(f, ctx.lang))] for f in fields],
        "words": {p.value: esc(ctx.label(p.label_key)) for p in Presence},
        "recoverable": [[v, esc(ctx.recoverable(v))] for v in values],
        "tables": tables, "end": table_ends([], "diff-table")[1], **_phrases(ctx),
        "not_known": _not_known_pieces(ctx),
    }


def pair_html(old: Edition, new: Optional[Edition] = None, arrow: str = " → ") -> str:
    """"OLD → NEW": each id kept whole, the line free to break at the arrow (on a phone two long
    ids do not fit on one line)."""
    first = f'<span class="eid">{esc(old.id)}</span>'
    return first if new is None else f'{first}{arrow}<span class="eid">{esc(new.id)}</span>'


# -- copies of one release -------------------------------------------------------------------------------------


def _copies(ctx: Context, family: Family, page: Page) -> str:
    """Per release: a repository copy against its published page, and the codes only one
    timeline's copy lists."""
    out = []
    for edition in family.page_editions(page):
        if edition.repo_copy:
            published = family.other_copy(edition)
            if published is not None:
                out.append(_repo_copy(ctx, family, published, edition))
    if copied_releases(family, page):
        columns = [("edition", ctx.l("edition")), ("only", ctx.l("only_on"))]
        for release, only in release_copies(family, page):
            if not any(codes_ for _, codes_ in only):
                continue  # its copies list the same codes
            rows = [(None, [ctx.edition_link(family, e), ", ".join(ctx.code_link(family, c) for c in codes_) or "—"])
                    for e, codes_ in only]
            out.append(f"<p><strong>{esc(release)}</strong></p>" + table(columns, rows, "copies-table"))
    return "\n\n".join(out)


def punctuation_only(before: str, after: str) -> bool:
    """Whether two texts differ in punctuation, list marks or spacing alone."""
    return _NOT_WORDS.sub("", before) == _NOT_WORDS.sub("", after)


def _repo_copy(ctx: Context, family: Family, published: Edition, copy: Edition) -> str:
    """A repository copy against its published page: its changes of wording, and apart, folded,
    those of punctuation alone."""
    diff = compare_editions(family, published, copy)
    texts = [c for c in diff.texts if c.lang == ctx.lang]
    noise = tuple(c for c in texts if punctuation_only(c.before, c.after))
    worded = EditionDiff(diff.old, diff.new, diff.presence, diff.recoverable, diff.became_known,
                         tuple(c for c in diff.texts if c not in noise), diff.texts_comparable, diff.renamed)
    title = f'<p class="change-title" id="copy-{esc(copy.id)}"><strong>{pair_html(published, copy)}</strong></p>'
    out = [title, "".join(diff_pieces(ctx, family, worded)) if worded or not noise else ""]
    if noise:
        names = ", ".join(
            f"{ctx.code_link(family, family.code_by_name[c.code])} ({esc(copy.page.heading(c.field, ctx.lang))})"
            for c in noise
        )
        only = EditionDiff(diff.old, diff.new, (), (), (), noise, diff.texts_comparable)
        out.append(details(esc(ctx.label("punctuation_only").replace("{count}", str(len(noise)))),
                           f"<p>{names}</p>" + "".join(diff_pieces(ctx, family, only))))
    return "".join(out)
