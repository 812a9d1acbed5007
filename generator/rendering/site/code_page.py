"""A code's page, answer first: right under the title, what each page that lists the code
says in the edition the default rule picks for that page (domain.queries; the Python page's
answer is the module's), each card saying in plain words which installation it fits (Python
or C++ API, the release, the repository its package or headers come from) and what the other
pages of its release say otherwise; then a choice of release and API that shows another
edition's answer; how the pages of that release differ, in words; and after all that, the
pictures, the history, every edition's texts and the identifiers.

The answers the choice can show are not written twice: each distinct saying of the code
(its texts and recoverability on one page) is written once, under "what each edition says",
and the page's data (`answer-choices`) names, for every choice, the editions to show and
the saying each one clones (assets/javascripts/extra.js)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple, Optional

from generator.domain.changes import Presence, history, presence
from generator.domain.codes import Code
from generator.domain.editions import Edition
from generator.domain.family import Catalog, Family
from generator.core.releases import UNRELEASED
from generator.domain.model import PROPOSED, UNTRANSLATED, Page
from generator.domain.queries import default_edition, disagreeing, newest_edition, release_edition, row_anchor
from generator.rendering.site import svg
from generator.rendering.site.context import Context, Link, banner, filled
from generator.rendering.site.markup import render_page
from generator.rendering.site.parts import Recoverable, listable_pages, recoverable, text_cell_of
from generator.rendering.site.release_words import (api_words, others_of, release_differences_section,
                                                     release_name, releases_of)


class SayingBody(NamedTuple):
    """A saying as its answer shows it (the filter saying_body): the page's columns in upstream's
    order, or, when the texts are not known, the one thing that is (the listing, or the
    recoverability), with the words it says them in."""

    items: tuple  # (column, heading, cell): the page's columns (none when the texts are not known)
    listing_not_known: bool
    heading: str  # the page's heading of 是否可恢复
    recoverable: Optional[Recoverable]
    words: tuple[str, str]  # the labels "listed" and "listing not known"
    field_value: tuple  # the phrase "{field}: {value}"


@dataclass
class Saying:
    """What one page says about the code in one or more of its editions (newest first)."""

    ident: str
    page: Page
    brief: bool  # nothing but the listing or the recoverability is known: one line for all of them
    body: SayingBody
    note: str = ""  # said under the body when the editions' texts are not known
    editions: list[Edition] = field(default_factory=list)
    links: tuple[Link, ...] = ()  # to the code's row in each of them


class CodePage(NamedTuple):
    """A code's page (templates/site/pages/code.md.j2): what it shows, top to bottom."""

    name: str
    hex: str
    value: int
    answers: Optional[Answers]  # None where no edition lists the code
    origins: list[str]  # the kinds of text not upstream's released words that the page shows (a note each, once)
    removed: list[tuple[str, str]]  # (repository, release) where a release no longer ships it
    exists: Optional[tuple[str, str]]  # (title, text) labels where it exists in one language only
    release_differences: tuple  # release_words.ReleaseWords
    notes: Optional[str]
    strips: list[Strip]
    never_pictured: list[str]  # the pages that never list it
    histories: list[History]
    never_in_history: list[tuple[str, tuple[Link, ...], str, str]]  # (timeline's name, links, first id, last id)
    sayings: list[PageSayings]
    facts: Facts
    colon: str


class Answers(NamedTuple):
    choice: tuple  # (family, releases (id, as the picker names it), timelines (id, the installation it fits))
    cards: list[Card]  # the default answers
    data: dict  # for the page's script


class Card(NamedTuple):
    """An answer: which installation it fits (in plain words), what the other pages of its
    release say otherwise (release_words.others_of), the page's name, a link to the edition
    (to the code's row), and its saying."""

    fits: str
    others: Optional[tuple[str, tuple[str, ...]]]  # (lead, a phrase per page or copy that says otherwise)
    page: str
    link: Link
    saying: Saying


class Strip(NamedTuple):
    id: str
    page: str
    picture: svg.Picture
    legend: tuple[tuple[str, str], ...]  # (state, words) for the states it shows


class History(NamedTuple):
    id: str
    name: str
    runs: list[tuple[tuple[Link, ...], str, str, str]]  # (links, listing, recoverability, what changed)


class PageSayings(NamedTuple):
    id: str
    name: str
    summary: str  # how many sayings and editions, in words
    cards: list[Saying]  # those of which texts are known
    brief: list[Saying]  # those of which nothing but the listing or the recoverability is known


class Facts(NamedTuple):
    python_name: Optional[str]
    c_name: Optional[str]  # with its macro prefix
    hex: str
    value: int
    exists: str  # the label of the languages it exists in
    cpp: list[tuple[str, Optional[str]]]  # (C++ name, its header)
    renames: list[tuple[str, str, str, str]]  # (old, new, release, repository)
    log_message: Optional[str]


def render_code_page(catalog: Catalog, family: Family, code: Code, lang: str) -> str:
    ctx = Context(catalog, lang, f"{family.prefix}codes/{code.name}/", family)
    pages = listable_pages(family, code)
    sayings = {p.id: _sayings(ctx, family, code, p) for p in pages}
    by_edition = {e.id: s for page_sayings in sayings.values() for s in page_sayings for e in s.editions}
    shown = [p for p in pages if svg.ever_listed(code, family.page_editions(p))]
    origins = {e.origin for _, entries in code.texts for e in entries if e.lang == lang}
    strips, never_pictured = _strips(ctx, family, code, pages)
    histories, never_in_history = _histories(ctx, family, code, pages)
    view = CodePage(
        name=code.name, hex=code.hex, value=code.value,
        answers=_answers(ctx, family, code, pages, shown, by_edition) if by_edition else None,
        origins=[kind for kind in (UNTRANSLATED, "translation", PROPOSED) if kind in origins],
        removed=list(code.removed),
        exists=_exists(code), release_differences=release_differences_section(ctx, family, code, shown),
        notes=code.notes[lang] if code.notes else None, strips=strips, never_pictured=never_pictured,
        histories=histories, never_in_history=never_in_history,
        sayings=[_page_sayings(ctx, p, sayings[p.id]) for p in pages if sayings[p.id]] if by_edition else [],
        facts=_code_facts(ctx, family, code), colon="：" if lang == "zh" else ": ")
    return render_page("code.md.j2", title=code.name, banner=banner(), hide_toc=False, labels=ctx.labels,
                       phrases=ctx.phrases, p=view)


def _exists(code: Code) -> Optional[tuple[str, str]]:
    """Where the code exists in one language only: the note's title and text (labels)."""
    if not code.in_python:
        return "exists_c", "c_only_note"
    if not code.in_c:
        return "exists_python", "python_only_note"
    return None


# -- what each edition says ------------------------------------------------------------------------


def _sayings(ctx: Context, family: Family, code: Code, page: Page) -> list[Saying]:
    """The page's distinct sayings about the code, newest first; editions that do not list it are in none."""
    groups: dict[tuple, Saying] = {}
    for edition in reversed(family.page_editions(page)):
        state = presence(edition, code)
        if state == Presence.NOT_LISTED:
            continue
        row = edition.row_by_code.get(code.name)
        brief = state == Presence.NOT_KNOWN or not edition.has_texts(ctx.lang)
        texts = () if brief else tuple(
            (f, code.text(f, edition.id, ctx.lang), getattr(code.entry(f, edition.id, ctx.lang), "origin", None))
            for f in page.text_fields)
        key = (state, row.recoverable if row else None, row.disagreements if row else (), brief, texts)
        if key not in groups:
            groups[key] = _saying(ctx, family, page, f"says-{page.id}-{len(groups)}", state, row, texts, brief)
        groups[key].editions.append(edition)
        groups[key].links += (ctx.edition_link(family, edition, code),)
    return list(groups.values())


def _saying(ctx: Context, family: Family, page: Page, ident: str, state: Presence, row, texts,
            brief: bool) -> Saying:
    """A saying as its answer shows it: the page's columns in upstream's order, or, when the
    texts are not known, the one thing that is (the listing, or the recoverability)."""
    words = (ctx.label("listed"), ctx.label("listing_not_known"))
    if state == Presence.NOT_KNOWN:
        return Saying(ident, page, brief, SayingBody((), True, "", None, words, ctx.phrases["field_value"]))
    value = recoverable(ctx, family, row.recoverable, row.disagreements, words=True)
    heading = page.heading("recoverable", ctx.lang)
    items: tuple = ()
    if not brief:
        cells: dict = {f: text_cell_of(ctx, text, origin) for f, text, origin in texts}
        cells["recoverable"] = value
        items = tuple((c, page.heading(c, ctx.lang), cells[c]) for c in page.columns if c in cells)
    return Saying(ident, page, brief, SayingBody(items, False, heading, value, words, ctx.phrases["field_value"]),
                  ctx.label("text_not_known") if brief else "")


def _page_sayings(ctx: Context, page: Page, sayings: list[Saying]) -> PageSayings:
    count = sum(len(s.editions) for s in sayings)
    words = filled(ctx.label("sayings_count"), sayings=str(len(sayings)), editions=str(count))
    return PageSayings(page.id, page.name[ctx.lang], words, [s for s in sayings if not s.brief],
                       [s for s in sayings if s.brief])


# -- the answers and the reader's choice -------------------------------------------------------------


def _answers(ctx: Context, family: Family, code: Code, pages: list[Page], shown: list[Page],
             by_edition: dict[str, Saying]) -> Answers:
    """The default answers, the choice of release and API (any copy of a page that could list
    the code), and what every choice shows (of every page, those that ever list it)."""
    defaults = [e for e in (default_edition(family, code, page=p) for p in shown) if e is not None]
    choices = _choices(family, code, pages, shown)
    named = {e for ids in choices.values() for e in ids}
    page_index = {p.id: i for i, p in enumerate(pages)}
    fits = api_words(ctx, family, pages)
    releases = releases_of(family, pages)
    said: dict[str, int] = {}  # each phrase of what other pages say otherwise, written once

    timelines = [t.id for p in pages for t in p.timelines]  # the order of the API options
    sayings: dict[str, int] = {}

    others: dict[str, tuple[str, ...]] = {}  # what the other pages of each edition's release say otherwise

    def others_said(e: Edition) -> tuple[str, ...]:
        if e.id not in others:
            others[e.id] = others_of(ctx, family, code, e, pages)
        return others[e.id]

    def entry(e: Edition) -> list:
        said_otherwise = [_said_index(said, phrase) for phrase in others_said(e)]
        return [page_index[e.page.id], e.release, _said_index(sayings, by_edition[e.id].ident) if e.id in by_edition
                else -1, _row_link(e, code), timelines.index(e.timeline.id),
                *([said_otherwise] if said_otherwise else [])]

    # the page's data is a fifth of its weight: a choice names its editions by their place among the
    # editions' ids (sorted, as the JSON writes them; an id holds a release's dots, never a bare
    # integer that JavaScript would put first), an edition its saying by its place among them, a
    # release is named by one pattern
    editions = {e.id: entry(e) for e in family.editions if e.id in named}
    place = {ident: i for i, ident in enumerate(sorted(editions))}
    data = {"base": ctx.url(f"{family.prefix}editions/"), "slug": code.slug,
            "pages": [p.name[ctx.lang] for p in pages], "editions": editions,
            "choices": {key: [place[i] for i in ids] for key, ids in choices.items()},
            "c_pages": [i for i, p in enumerate(pages) if p.row_names == "c"], "fits": [fits[t] for t in timelines],
            "release_name": release_name(ctx, "{release}"),
            "unreleased": {r: release_name(ctx, r) for r in releases if r == UNRELEASED}, "said": list(said),
            "sayings": list(sayings)}

    def newest(timeline) -> str:  # the release an API choice shows without a release chosen
        ids = choices.get(f"|{timeline.id}")
        return family.edition_by_id[ids[0]].release if ids else releases[0]

    return Answers(
        (family.id, tuple((r, ctx.label("api_unreleased") if r == UNRELEASED else r) for r in releases),
         tuple((t.id, filled(fits[t.id], release=release_name(ctx, newest(t)))) for p in pages
               for t in p.timelines)),
        [_card(ctx, family, code, e, fits, by_edition[e.id], others_said(e)) for e in defaults], data)


def _said_index(said: dict[str, int], phrase: str) -> int:
    return said.setdefault(phrase, len(said))


def _card(ctx: Context, family: Family, code: Code, edition: Edition, fits: dict[str, str], saying: Saying,
          others: tuple[str, ...]) -> Card:
    """A default answer as the page writes it (extra.js builds the same for a reader's choice)."""
    release = release_name(ctx, edition.release)
    lead = filled(ctx.label("answer_others"), release=release)
    return Card(filled(fits[edition.timeline.id], release=release), (lead, others) if others else None,
                edition.page.name[ctx.lang], ctx.edition_link(family, edition, code), saying)


def _recoverable_word(ctx: Context, family: Family, code: Code, edition: Edition) -> str:
    """The edition's 是否可恢复 word for the code ("" where it does not list it, or it is not known)."""
    row = edition.row_by_code.get(code.name)
    return ctx.recoverable(row.recoverable, family) if row is not None and row.recoverable != "not known" else ""


def pages_disagree(ctx: Context, family: Family, code: Code, editions: list[Edition]) -> list[tuple[str, str]]:
    """Where the pages of answers shown together (the list of codes: each page's newest)
    disagree on recoverability, what each says (page's name, its word: "Python … page",
    "Yes"); none where they agree. A code's own page says on each card what the other pages
    of its release say otherwise (release_words.others_of)."""
    return [(e.page.name[ctx.lang], word) for e in disagreeing(code, editions)
            if (word := _recoverable_word(ctx, family, code, e))]


def _row_link(edition: Edition, code: Code):
    """For the script: 0 where the edition does not list the code, else 1 (its row's anchor is the
    code's slug) or the anchor an older name gave the row."""
    if code.name not in edition.row_by_code:
        return 0
    anchor = row_anchor(edition, code)
    return 1 if anchor == code.slug else anchor


def _choices(family: Family, code: Code, pages: list[Page], shown: list[Page]) -> dict[str, list[str]]:
    """Every choice ("RELEASE|TIMELINE", either empty: the newest release, every page that
    lists the code) -> the editions whose answers it shows. The same in every language (pages
    and shown are the code's own), so worked out once per code."""
    return family.remember(("choices", code.name), lambda: _choices_of(family, code, pages, shown))


def _choices_of(family: Family, code: Code, pages: list[Page], shown: list[Page]) -> dict[str, list[str]]:
    timelines = [t for p in pages for t in p.timelines]
    choices: dict[str, list[str]] = {}
    for release in [""] + releases_of(family, pages):
        for timeline in [None] + timelines:
            if timeline is None:
                picks = [
                    default_edition(family, code, page=p)
                    if not release
                    else release_edition(family, code, release, page=p)
                    for p in shown
                ]
            elif release:
                picks = [release_edition(family, code, release, timeline=timeline)]
            else:  # an API whose pages never list the code answers from its newest final release too
                newest = newest_edition(family, timeline)
                picks = [default_edition(family, code, timeline=timeline)
                         or (release_edition(family, code, newest.release, timeline=timeline) if newest else None)]
            ids = [e.id for e in picks if e is not None]
            if ids:
                choices[f"{release}|{timeline.id if timeline else ''}"] = ids
    return choices


# -- pictures, history, identifiers ------------------------------------------------------------------------


def _strips(ctx: Context, family: Family, code: Code, pages: list[Page]) -> tuple[list[Strip], list[str]]:
    """The code's row of each page's picture, each with its legend; the pages that never list it."""
    out, never = [], []
    for page in pages:
        if not svg.ever_listed(code, family.page_editions(page)):
            never.append(page.name[ctx.lang])
            continue
        groups = [family.timeline_editions(t) for t in page.timelines]
        picture = svg.strip(code, groups, ctx.state, ctx.url(f"{family.prefix}editions/"),
                            f"{code.name}: {page.name[ctx.lang]}")
        states = {svg.state(e, code) for group in groups for e in group}
        out.append(Strip(page.id, page.name[ctx.lang], picture,
                         svg.legend_words(ctx.state, [s for s in svg.STATES if s in states])))
    return out, never


def _histories(ctx: Context, family: Family, code: Code, pages: list[Page]) -> tuple[list[History], list]:
    """A history per timeline that ever lists the code; those that never do."""
    out, never = [], []
    for page in pages:
        for timeline in page.timelines:
            steps = history(family, code, timeline)
            if not steps:
                continue
            name = f"{page.name[ctx.lang]} · {timeline.name[ctx.lang]}"
            if all(step.presence == Presence.NOT_LISTED for step in steps):
                # a page with a picture has a cell for each of these editions: they are linked here
                links = tuple(ctx.edition_link(family, s.edition, code) for s in steps) \
                    if svg.ever_listed(code, family.page_editions(page)) else ()
                never.append((name, links, steps[0].edition.id, steps[-1].edition.id))
                continue
            out.append(History(timeline.id, name, _history_runs(ctx, family, code, steps)))
    return out, never


def _history_runs(ctx: Context, family: Family, code: Code, steps) -> list[tuple[tuple[Link, ...], str, str, str]]:
    """The code through a timeline, a line per change: the editions it holds for (the later
    ones that change nothing share its line, each still linked), listed or not, the
    recoverability, what changed."""
    runs: list[list] = []
    for step in steps:
        if (
            runs
            and not step.events
            and (step.presence, step.recoverable) == (runs[-1][0].presence, runs[-1][0].recoverable)
        ):
            runs[-1].append(step)
        else:
            runs.append([step])
    return [(tuple(ctx.edition_link(family, s.edition, code) for s in run), ctx.label(run[0].presence.label_key),
             ctx.recoverable(run[0].recoverable) if run[0].recoverable else "",
             ", ".join(ctx.label(e.value) for e in run[0].events)) for run in runs]


def _code_facts(ctx: Context, family: Family, code: Code) -> Facts:
    # which editions list it: the history's tables say, edition by edition
    exists = "exists_both" if code.in_python and code.in_c else "exists_python" if code.in_python else "exists_c"
    return Facts(code.python_name, family.c.macro_prefix + code.c_name if code.c_name else None, code.hex,
                 code.value, exists, [(name.name, name.header) for name in code.cpp], renames(code),
                 code.log_message)


def renames(code: Code) -> list[tuple[str, str, str, str]]:
    """Each earlier name, where and when it gave way to the next (newest rename first): (old,
    new, release, repository)."""
    newer = {"python": code.python_name, "c": code.c_name}
    steps = []
    for rename in reversed(code.renamed):
        for kind in ("python", "c"):
            old = getattr(rename, kind)
            if old is not None:
                steps.append((old, newer[kind], rename.until))
                newer[kind] = old
    return [(old, new or "", release, repo) for old, new, until in steps for repo, release in until]
