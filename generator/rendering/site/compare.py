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
from typing import NamedTuple, Optional
from urllib.parse import quote

from markupsafe import Markup

from generator.domain.changes import (EditionDiff, Presence, compare_editions, copied_releases, listable,
                                      release_copies)
from generator.domain.editions import Edition
from generator.domain.family import Catalog, Family
from generator.domain.model import Page, Timeline
from generator.rendering.site import svg
from generator.rendering.site.context import Context, Link, banner
from generator.rendering.site.markup import escaped, fill, macro, render_page

# What a change of punctuation or spacing alone leaves alike: letters, digits and ideographs.
_NOT_WORDS = re.compile(
    r"[\s!-/:-@\[-`{-~\u2010-\u2027\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]+"
)
_MACROS = "compare.html.j2"


def differences_location(family: Family, page: Optional[Page] = None, timeline: Optional[Timeline] = None) -> str:
    return f"{family.prefix}differences/" + (f"{page.id}/" if page else "") + (f"{timeline.id}/" if timeline else "")


def compared(family: Family, page: Page) -> bool:
    """Whether the page has a comparison page: two editions or more."""
    return len(family.page_editions(page)) > 1


class IndexEntry(NamedTuple):
    """A page on the index: where to compare its editions, its timelines, and its copies of one release."""

    id: str
    name: str
    compare: str  # the comparison page's address ("" where it has none)
    timelines: list[tuple[str, str, str, Optional[str]]]  # (address, name, first edition, last edition or None)
    repo_copies: list[RepoCopy]
    only_columns: list[tuple[str, str]]
    only_on: list[tuple[str, list[tuple[Link, list[Link]]]]]  # per release: (edition, codes only its copy lists)


def render_differences(catalog: Catalog, family: Family, lang: str) -> str:
    """The index: per page, where to compare its editions, its timelines, and its copies of one release."""
    ctx = Context(catalog, lang, differences_location(family), family)
    title = f"{family.name[lang]} · {ctx.label('differences_title')}"
    entries = []
    for page in family.pages:
        if not family.page_editions(page):
            continue
        timelines = []
        for timeline in page.timelines:
            shown = family.timeline_editions(timeline)
            if shown:
                timelines.append((ctx.url(differences_location(family, page, timeline)), timeline.name[lang],
                                  shown[0].id, shown[-1].id if len(shown) > 1 else None))
        entries.append(IndexEntry(
            page.id, page.name[lang], ctx.url(differences_location(family, page)) if compared(family, page) else "",
            timelines, _repo_copies(ctx, family, page),
            [("edition", ctx.label("edition")), ("only", ctx.label("only_on"))], _only_on(ctx, family, page)))
    return render_page("differences.md.j2", title=title, banner=banner(), hide_toc=False, labels=ctx.labels,
                       pages=entries)


def render_page_differences(catalog: Catalog, family: Family, page: Page, lang: str) -> str:
    """Any two editions of a page: two lists, the first comparison written out, and the data of the rest."""
    ctx = Context(catalog, lang, differences_location(family, page), family)
    title = f"{page.name[lang]} · {ctx.label('compare_title')}"
    editions = family.page_editions(page)
    old, new = first_pair(family, page)
    timelines = [(timeline.name[lang], [(e.id, e.repo_copy) for e in family.timeline_editions(timeline)])
                 for timeline in page.timelines]
    form = Choice(editions[old].id, editions[new].id, [t for t in timelines if t[1]])
    return render_page("compare.md.j2", title=f"{family.name[lang]} · {title}", banner=banner(),
                       hide_toc=False, labels=ctx.labels, name=title, up=_up(ctx, family), form=form,
                       old=editions[old].id, new=editions[new].id,
                       diff=diff_of(ctx, family, compare_editions(family, editions[old], editions[new])),
                       data=compare_data(ctx, family, page))


class Choice(NamedTuple):
    """The two lists of a comparison page: the editions chosen first, and every edition of each timeline."""

    old: str
    new: str
    timelines: list[tuple[str, list[tuple[str, bool]]]]  # (timeline's name, (edition id, a repository copy))


def render_timeline_differences(catalog: Catalog, family: Family, page: Page, timeline: Timeline,
                                lang: str) -> str:
    """One timeline: its picture, and each step from one edition to the next, in short."""
    ctx = Context(catalog, lang, differences_location(family, page, timeline), family)
    title = f"{page.name[lang]} · {timeline.name[lang]}"
    editions = family.timeline_editions(timeline)
    codes = [c for c in family.codes if c.name_on(page) is not None]
    shown = [c for c in codes if svg.ever_listed(c, editions)]
    shown_names = {c.name for c in shown}  # a set: a list made this quadratic at 10,000 codes
    picture = svg.picture(shown, [editions], ctx.state, ctx.url(f"{family.prefix}editions/"),
                          f"{family.name[lang]}: {page.name[lang]}, {timeline.name[lang]}")
    return render_page(
        "timeline.md.j2", title=f"{family.name[lang]} · {title}", banner=banner(), hide_toc=False,
        labels=ctx.labels, phrases=ctx.phrases, name=title, up=_up(ctx, family), timeline=timeline.id,
        legend=svg.legend_words(ctx.state), picture=picture,
        never=[ctx.code_link(family, c) for c in codes if c.name not in shown_names],
        editions=tuple(ctx.edition_link(family, e) for e in editions), steps=_steps(ctx, family, page, timeline))


def _up(ctx: Context, family: Family) -> Link:
    return Link(ctx.url(differences_location(family)), f"{family.name[ctx.lang]} · {ctx.label('differences_title')}")


class Step(NamedTuple):
    href: str  # the step compared in full
    old: str
    new: str
    counts: list[tuple[str, int]]  # (label, how many) per kind of change it makes
    comparable: bool  # whether the texts in the page's language are known on both sides


def _steps(ctx: Context, family: Family, page: Page, timeline: Timeline) -> list[Step]:
    """Each step of the timeline (a repository copy aside): what kinds of change it makes, how
    many of each, and a link to the step compared in full."""
    editions = [e for e in family.timeline_editions(timeline) if not e.repo_copy]
    steps = []
    for old, new in zip(editions, editions[1:]):
        diff = compare_editions(family, old, new)
        texts = sum(1 for c in diff.texts if c.lang == ctx.lang)
        counts = [("added", len(diff.added)), ("dropped", len(diff.dropped)),
                  ("listing_not_known", len(diff.presence) - len(diff.added) - len(diff.dropped)),
                  ("renamed_row", len(diff.renamed)), ("moved_row", len(diff.moved)),
                  ("recoverable_changed", len(diff.recoverable)),
                  ("became_known", len(diff.became_known)), ("texts_changed", texts)]
        href = ctx.url(differences_location(family, page)) + f"?old={quote(old.id)}&new={quote(new.id)}"
        steps.append(Step(href, old.id, new.id, [(k, n) for k, n in counts if n], ctx.lang in diff.texts_comparable))
    return steps


# -- any two editions of a page ---------------------------------------------------------------------------


class Table(NamedTuple):
    """A kind of change a comparison lists: its title, its table's columns, and its rows."""

    kind: str  # presence, renamed, recoverable, known, texts
    title: str
    note: str
    columns: list[tuple[str, str]]
    rows: list[tuple]  # (code's link, before, after); for texts (code's link, field, (before, after), untranslated)


class Diff(NamedTuple):
    """What changed between two editions (templates/site/macros/compare.html.j2, `diff`)."""

    tables: list[Table]
    not_known: list[str]  # where no text change is listed and the texts are not known: the editions that lack them
    not_known_words: tuple[str, str]  # what is said before and after their ids


def _tables(ctx: Context) -> dict[str, tuple[str, str, list[tuple[str, str]]]]:
    """Each kind of change a comparison lists: its title, its note and its table's columns."""
    before_after = [("code", ctx.label("name")), ("before", ctx.label("before")), ("after", ctx.label("after"))]
    return {
        "presence": (ctx.label("listing_changed"), "", before_after),
        "renamed": (ctx.label("renamed_row"), "", before_after),
        "moved": (ctx.label("moved_row"), "", before_after),
        "recoverable": (ctx.label("recoverable_changed"), "", before_after),
        "known": (ctx.label("became_known"), "", before_after),
        "texts": (ctx.label("texts_changed"), ctx.label("word_diff_note"),
                  [("code", ctx.label("name")), ("field", ctx.label("column")), ("change", ctx.label("change"))]),
    }


def _not_known_words(ctx: Context) -> tuple[str, str]:
    """What a comparison says where the texts in its language are not known: the label's words
    before and after the ids of the editions whose texts are not known."""
    before, *after = fill(ctx.phrases["compare_texts_not_known"], editions=Markup("\0")).split("\0")
    # a catalog's wording without {editions} has the ids at its end; with it twice, at the first
    return before, Markup("").join(after)


def diff_of(ctx: Context, family: Family, diff: EditionDiff) -> Diff:
    """What changed between two editions, as the page shows it (the page's script the same)."""
    tables = _tables(ctx)
    kinds: list[tuple[str, list[tuple]]] = []

    def code(name: str) -> Link:
        return ctx.code_link(family, family.code_by_name[name])

    kinds.append(("presence", [(code(c.code), ctx.label(c.before.label_key), ctx.label(c.after.label_key))
                               for c in diff.presence]))
    kinds.append(("renamed", [(code(c.code), c.before, c.after) for c in diff.renamed]))
    kinds.append(("moved", [(code(c.code), c.before, c.after) for c in diff.moved]))
    for kind, changes in (("recoverable", diff.recoverable), ("known", diff.became_known)):
        kinds.append((kind, [(code(c.code), ctx.recoverable(c.before), ctx.recoverable(c.after)) for c in changes]))
    texts = [(code(c.code), diff.new.page.heading(c.field, ctx.lang), (c.before, c.after), c.untranslated)
             for c in diff.texts if c.lang == ctx.lang]
    kinds.append(("texts", texts))
    unseen = [e.id for e in (diff.old, diff.new) if not e.has_texts(ctx.lang)] \
        if not texts and ctx.lang not in diff.texts_comparable else []
    return Diff([Table(kind, *tables[kind], rows) for kind, rows in kinds if rows], unseen,
                _not_known_words(ctx) if unseen else ("", ""))


def diff_html(ctx: Context, family: Family, old: Edition, new: Edition) -> str:
    """What changed between two editions, as the page writes it (the page's script writes the same)."""
    return str(macro(_MACROS, "diff")(diff_of(ctx, family, compare_editions(family, old, new)), ctx.labels))


def pair_html(old: Edition, new: Optional[Edition] = None, arrow: str = " → ") -> str:
    """"OLD → NEW" as the page writes it: each id kept whole, the line free to break at the arrow."""
    return str(macro(_MACROS, "pair")(old.id, new.id if new is not None else None, arrow))


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
    and diff_of does: every edition's rows, each text once, and the HTML around them."""
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
    return {
        "editions": [e.id for e in editions], "rows": rows, "texts": list(texts),
        # an edition id once published keeps naming its edition in the address (?old=ALIAS)
        "aliases": {alias: target for alias, target in family.aliases if target in ids},
        "codes": [[c.name, int(listable(c, page))] for c in codes], "base": ctx.url(f"{family.prefix}codes/"),
        "fields": [[f, str(escaped(page.heading(f, ctx.lang)))] for f in fields],
        **_script_pieces(ctx, family),
    }


def _script_pieces(ctx: Context, family: Family) -> dict:
    """The HTML a comparison writes around what changed, in pieces for the page's script to put
    the changes between: each table's title and start, a row's pieces around its cells, a
    table's end, what is said after a text awaiting its translation, where nothing changed,
    and around the ids of the editions whose texts are not known; and the words it shows, as
    HTML (the script inserts them as such)."""
    def pieces(markup: Markup) -> list[str]:
        return str(markup).split("\0")

    tables = {kind: [str(macro(_MACROS, "table_head")(Table(kind, title, note, columns, []))),
                     pieces(macro("parts.html.j2", "row")(columns, None, ["\0"] * len(columns)))]
              for kind, (title, note, columns) in _tables(ctx).items()}
    return {
        "tables": tables, "end": str(macro("parts.html.j2", "table_end")()),
        "untranslated": str(macro("parts.html.j2", "origin_mark")("untranslated", ctx.label("untranslated"))),
        "none": str(macro(_MACROS, "nothing")(ctx.labels)),
        "not_known": pieces(macro(_MACROS, "not_known")(_not_known_words(ctx), "\0")),
        "words": {p.value: str(escaped(ctx.label(p.label_key))) for p in Presence},
        "recoverable": [[v, str(escaped(ctx.recoverable(v)))] for v in family.recoverable_labels],
    }


# -- copies of one release -------------------------------------------------------------------------------------


class RepoCopy(NamedTuple):
    """A repository copy against its published page: its changes of wording, and apart, folded,
    those of punctuation alone."""

    published: str
    copy: str
    worded: Optional[Diff]  # None where punctuation alone changed
    noise: list[tuple[Link, str]]  # (code's link, field) of the texts that changed punctuation alone
    noise_summary: str
    punctuation: Optional[Diff]


def _repo_copies(ctx: Context, family: Family, page: Page) -> list[RepoCopy]:
    """Per release, a repository copy against its published page."""
    out = []
    for edition in family.page_editions(page):
        if edition.repo_copy:
            published = family.other_copy(edition)
            if published is not None:
                out.append(_repo_copy(ctx, family, published, edition))
    return out


def _only_on(ctx: Context, family: Family, page: Page) -> list[tuple[str, list[tuple[Link, list[Link]]]]]:
    """Per release whose copies list different codes: the codes only one timeline's copy lists."""
    if not copied_releases(family, page):
        return []
    return [(release, [(ctx.edition_link(family, e), [ctx.code_link(family, c) for c in codes]) for e, codes in only])
            for release, only in release_copies(family, page) if any(codes for _, codes in only)]


def punctuation_only(before: str, after: str) -> bool:
    """Whether two texts differ in punctuation, list marks or spacing alone."""
    return _NOT_WORDS.sub("", before) == _NOT_WORDS.sub("", after)


def _repo_copy(ctx: Context, family: Family, published: Edition, copy: Edition) -> RepoCopy:
    diff = compare_editions(family, published, copy)
    texts = [c for c in diff.texts if c.lang == ctx.lang]
    noise = tuple(c for c in texts if punctuation_only(c.before, c.after))
    worded = EditionDiff(diff.old, diff.new, diff.presence, diff.recoverable, diff.became_known,
                         tuple(c for c in diff.texts if c not in noise), diff.texts_comparable, diff.renamed,
                         diff.moved)
    only = EditionDiff(diff.old, diff.new, (), (), (), noise, diff.texts_comparable)
    return RepoCopy(
        published=published.id, copy=copy.id, worded=diff_of(ctx, family, worded) if worded or not noise else None,
        noise=[(ctx.code_link(family, family.code_by_name[c.code]), copy.page.heading(c.field, ctx.lang))
               for c in noise],
        noise_summary=ctx.label("punctuation_only").replace("{count}", str(len(noise))),
        punctuation=diff_of(ctx, family, only) if noise else None)
