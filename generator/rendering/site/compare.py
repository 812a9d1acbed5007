"""The differences page: per page, the picture of which edition lists which code, and per
timeline a comparison of any two of its editions; then the copies of one release apart.

Every comparison is computed here, by changes.compare_editions, and written as HTML in
pieces (a table's start, its rows, its end), each piece once: the page's data
(`compare-data`) names, for every two editions of a timeline, the pieces that make their
comparison, and the script (assets/javascripts/extra.js) only joins them. So the page's
first comparison, written out, and any other the reader picks are the same algorithm's.

A timeline's steps skip the repository copies of a published page (`-repo`): a copy is
compared with its published page, apart, where a change of punctuation alone is said so.
"""
from __future__ import annotations

import re

from generator.domain.changes import EditionDiff, compare_editions, copied_releases, release_copies
from generator.rendering.escape import html_in_markdown as esc
from generator.domain.editions import Edition
from generator.domain.family import Catalog, Family
from generator.domain.model import Page, Timeline
from generator.rendering.site import svg
from generator.rendering.site.context import Context
from generator.rendering.site.html import code_html, details, table, table_ends, table_rows
from generator.rendering.site.parts import TITLE_ID, heading, json_script, page as page_md
from generator.rendering.site.worddiff import word_diff

DATA_ID = "compare-data"
# What a change of punctuation or spacing alone leaves alike: letters, digits and ideographs.
_NOT_WORDS = re.compile(
    r"[\s!-/:-@\[-`{-~\u2010-\u2027\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]+"
)


def render_differences(catalog: Catalog, family: Family, lang: str, stamp: str) -> str:
    ctx = Context(catalog, lang, f"{family.prefix}differences/", family)
    title = f"{family.name[lang]} · {ctx.label('differences_title')}"
    body: list[str] = [heading(1, title, TITLE_ID)]
    pieces = Pieces()
    data: dict[str, dict] = {}
    for page in family.pages:
        body.append(heading(2, page.name[lang], f"page-{page.id}"))
        body.append(heading(3, ctx.label("presence_matrix"), f"picture-{page.id}"))
        body.append(svg.legend(ctx.state))
        body.append(_presence_picture(ctx, family, page))
        for timeline in page.timelines:
            editions = family.timeline_editions(timeline)
            if len(editions) < 2:
                continue
            body.append(heading(3, f"{ctx.label('compare_title')}: {timeline.name[lang]}", f"changes-{timeline.id}"))
            body.append(_compare_block(ctx, family, timeline, pieces, data))
            body.append(_steps(ctx, family, timeline))
        copies = _copies(ctx, family, page)
        if copies:
            body.append(heading(3, ctx.label("page_split"), f"copies-{page.id}"))
            body.append(copies)
    body.append(json_script({"pieces": pieces.items, "timelines": data}, DATA_ID))
    return page_md(title, stamp, body)


class Pieces:
    """HTML pieces, each kept once, by their index."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self._index: dict[str, int] = {}

    def add(self, html: str) -> int:
        if html not in self._index:
            self._index[html] = len(self.items)
            self.items.append(html)
        return self._index[html]


# -- the picture ---------------------------------------------------------------------------------------


def _presence_picture(ctx: Context, family: Family, page: Page) -> str:
    """Which edition lists which code, the codes no edition lists, and the editions in words
    (the picture's cells are no links: each edition's page is linked here)."""
    editions = family.page_editions(page)
    groups = [family.timeline_editions(t) for t in page.timelines]
    codes = [c for c in family.codes if c.name_on(page) is not None]
    shown = [c for c in codes if svg.ever_listed(c, editions)]
    out = [svg.matrix(shown, groups, ctx.state, ctx.url(f"{family.prefix}editions/"),
                      f"{family.name[ctx.lang]}: {page.name[ctx.lang]}")]
    shown_names = {c.name for c in shown}  # a set: a list made this quadratic (100 s at 10,000 codes)
    never = [c for c in codes if c.name not in shown_names]
    if never:
        out.append(f'<p class="never-listed">{ctx.l("not_listed")}: '
                   + ", ".join(ctx.code_link(family, c) for c in never) + "</p>")
    lines = "".join(f"<li>{esc(t.name[ctx.lang])}: " + ", ".join(ctx.edition_link(family, e) for e in group) + "</li>"
                    for t, group in zip(page.timelines, groups) if group)
    out.append(f'<ul class="picture-editions">{lines}</ul>')
    return "\n\n".join(out)


# -- any two editions of a timeline -------------------------------------------------------------------------


def diff_pieces(ctx: Context, family: Family, diff: EditionDiff) -> list[str]:
    """What changed between two editions, as the HTML pieces that joined make it."""
    parts: list[str] = []
    before_after = [("code", ctx.l("name")), ("before", ctx.l("before")), ("after", ctx.l("after"))]

    def tabled(title: str, columns, rows, cls: str = "diff-table") -> None:
        start, end = table_ends(columns, cls)
        parts.append(title + start)
        parts.extend(table_rows(columns, [(None, cells)]) for cells in rows)
        parts.append(end)

    if diff.presence:
        tabled(
            "",
            before_after,
            [
                [
                    ctx.code_link(family, family.code_by_name[c.code]),
                    esc(ctx.label(c.before.label_key)),
                    esc(ctx.label(c.after.label_key)),
                ]
                for c in diff.presence
            ],
        )
    if diff.renamed:
        tabled(f"<p><strong>{esc(ctx.label('renamed_row'))}</strong></p>", before_after,
               [[ctx.code_link(family, family.code_by_name[c.code]), code_html(c.before, copy=False),
                 code_html(c.after, copy=False)] for c in diff.renamed])
    for key, changes in (("recoverable_changed", diff.recoverable), ("became_known", diff.became_known)):
        if changes:
            tabled(f"<p><strong>{esc(ctx.label(key))}</strong></p>", before_after,
                   [[ctx.code_link(family, family.code_by_name[c.code]), esc(ctx.recoverable(c.before)),
                     esc(ctx.recoverable(c.after))] for c in changes])
    texts = [c for c in diff.texts if c.lang == ctx.lang]
    if texts:
        columns = [("code", ctx.l("name")), ("field", ctx.l("column")), ("change", ctx.l("change"))]
        note = esc(ctx.label("word_diff_note"))
        title = f"<p><strong>{esc(ctx.label('texts_changed'))}</strong> <small>{note}</small></p>"
        tabled(
            title,
            columns,
            [
                [
                    ctx.code_link(family, family.code_by_name[c.code]),
                    esc(diff.new.page.heading(c.field, ctx.lang)),
                    f'<div class="word-diff">{word_diff(c.before, c.after)}</div>'
                    + (
                        f' <span class="translation untranslated">({esc(ctx.label("untranslated"))})</span>'
                        if c.untranslated
                        else ""
                    ),
                ]
                for c in texts
            ],
        )
    elif ctx.lang not in diff.texts_comparable:
        parts.append(f"<p><em>{esc(ctx.label('text_not_known'))}</em></p>")
    return parts or [f"<p>{esc(ctx.label('no_changes'))}</p>"]


def diff_html(ctx: Context, family: Family, old: Edition, new: Edition) -> str:
    return "".join(diff_pieces(ctx, family, compare_editions(family, old, new)))


def first_pair(editions) -> tuple[int, int]:
    """The comparison a timeline shows first: its two newest released editions, copies aside."""
    main = [i for i, e in enumerate(editions) if e.released and not e.repo_copy]
    if len(main) < 2:
        main = list(range(len(editions)))
    return main[-2], main[-1]


def _compare_block(ctx: Context, family: Family, timeline: Timeline, pieces: Pieces, data: dict) -> str:
    """Two lists of the timeline's editions and what changed between the two chosen; the first
    comparison written out, every other one named in the page's data."""
    editions = family.timeline_editions(timeline)
    pairs = {}
    for i, older in enumerate(editions):
        for j in range(i + 1, len(editions)):
            pairs[f"{i} {j}"] = [
                pieces.add(p) for p in diff_pieces(ctx, family, compare_editions(family, older, editions[j]))
            ]
    data[timeline.id] = {"editions": [e.id for e in editions], "pairs": pairs}
    old, new = first_pair(editions)

    def select(name: str, label: str, chosen: int) -> str:
        options = "".join(f'<option value="{i}"{" selected" if i == chosen else ""}>{esc(e.id)}</option>'
                          for i, e in enumerate(editions))
        return f'<label><span>{ctx.l(label)}</span> <select name="{name}">{options}</select></label>'

    form = (f'<form class="compare" data-timeline="{esc(timeline.id)}" data-same="{ctx.l("compare_same")}" hidden>'
            f'{select("old", "compare_old", old)} {select("new", "compare_new", new)}</form>')
    shown = f'<p class="compare-pair">{pair_html(editions[old], editions[new])}</p>'
    result = "".join(pieces.items[i] for i in pairs[f"{old} {new}"])
    return f'{form}<div class="compare-result" data-timeline="{esc(timeline.id)}">{shown}{result}</div>'


def pair_html(old: Edition, new: Edition) -> str:
    """"OLD → NEW": each id kept whole, the line free to break at the arrow (on a phone two long
    ids do not fit on one line)."""
    return f'<span class="eid">{esc(old.id)}</span> → <span class="eid">{esc(new.id)}</span>'


def _steps(ctx: Context, family: Family, timeline: Timeline) -> str:
    """Every step of the timeline (a repository copy aside), folded."""
    editions = [e for e in family.timeline_editions(timeline) if not e.repo_copy]
    steps = "".join(
        f'<p class="change-title" id="change-{esc(old.id)}-{esc(new.id)}"><strong>{pair_html(old, new)}</strong></p>'
        + diff_html(ctx, family, old, new)
        for old, new in zip(editions, editions[1:])
    )
    count = esc(ctx.label("steps_count").replace("{count}", str(len(editions) - 1)))
    return details(f"{ctx.l('changes')} <small>{count}</small>", steps) if steps else ""


# -- copies of one release -------------------------------------------------------------------------------------


def _copies(ctx: Context, family: Family, page: Page) -> str:
    """Per release: a repository copy against its published page, and the codes only one
    timeline's copy lists."""
    out = []
    for edition in family.page_editions(page):
        if edition.repo_copy:
            published = family.edition_by_id.get(edition.id[:-len("-repo")])
            if published is not None:
                out.append(_repo_copy(ctx, family, published, edition))
    if copied_releases(family, page):
        columns = [("edition", ctx.l("edition")), ("only", ctx.l("only_on"))]
        for release, only in release_copies(family, page):
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
        out.append(details(esc(ctx.label("punctuation_only").replace("{count}", str(len(noise)))) + f": {names}",
                           "".join(diff_pieces(ctx, family, only))))
    return "".join(out)
