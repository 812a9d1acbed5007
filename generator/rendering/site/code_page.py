"""A code's page, answer first: right under the title, what each page that lists the code
says in the edition the default rule picks for that page (domain.queries; the Python page's
answer is the module's); then a choice of release and API that shows another edition's
answer; how the pages of that release differ, in words; and after all that, the pictures,
the history, every edition's texts and the identifiers.

The answers the choice can show are not written twice: each distinct saying of the code
(its texts and recoverability on one page) is written once, under "what each edition says",
and the page's data (`answer-choices`) names, for every choice, the editions to show and
the saying each one clones (assets/javascripts/extra.js)."""
from __future__ import annotations

from dataclasses import dataclass, field

from generator.domain.changes import Presence, history, presence
from generator.rendering.escape import html_in_markdown as esc
from generator.domain.codes import Code
from generator.domain.editions import Edition
from generator.domain.family import Catalog, Family
from generator.domain.model import PROPOSED, Page
from generator.domain.queries import default_edition, disagreeing, release_edition, row_anchor
from generator.rendering.site import svg
from generator.rendering.site.context import Context
from generator.rendering.site.html import admonition, code_html, text_html
from generator.rendering.site.parts import (
    TITLE_ID,
    heading,
    json_script,
    listable_pages,
    page as page_md,
    recoverable_html,
    text_cell,
)
from generator.rendering.site.release_words import fill_label, release_differences_section, releases_of


CHOICES_ID = "answer-choices"


@dataclass
class Saying:
    """What one page says about the code in one or more of its editions (newest first)."""

    ident: str
    page: Page
    editions: list[Edition] = field(default_factory=list)
    body: str = ""  # the answer's HTML (a <dl class="says-body">, or a brief <span> when nothing is known)
    note: str = ""  # said under the body when the editions' texts are not known
    brief: bool = False  # nothing but the listing or the recoverability is known: one line for all of them


def render_code_page(catalog: Catalog, family: Family, code: Code, lang: str, stamp: str) -> str:
    ctx = Context(catalog, lang, f"{family.prefix}codes/{code.name}/", family)
    pages = listable_pages(family, code)
    sayings = {p.id: _sayings(ctx, family, code, p) for p in pages}
    by_edition = {e.id: s for page_sayings in sayings.values() for s in page_sayings for e in s.editions}
    shown = [p for p in pages if svg.ever_listed(code, family.page_editions(p))]
    body = [heading(1, code.name, TITLE_ID), _value_line(code)]
    if by_edition:
        body.extend(_answers(ctx, family, code, pages, shown, by_edition))
    else:
        body.append(admonition("info", ctx.label("not_listed"), text_html(ctx.label("undocumented"))))
    body.extend(_origin_notes(ctx, family, code))
    body.extend(_standing(ctx, code))
    body.extend(release_differences_section(ctx, family, code, shown))
    if code.notes:
        body.append(admonition("note", ctx.label("notes"), text_html(code.notes[lang])))
    body.append(heading(2, ctx.label("timeline_picture"), "timeline"))
    body.extend(_strips(ctx, family, code, pages))
    body.append(heading(2, ctx.label("history"), "history"))
    body.extend(_histories(ctx, family, code, pages))
    if by_edition:
        body.append(heading(2, ctx.label("per_edition"), "per-edition"))
        body.extend(_sayings_html(ctx, family, code, p, sayings[p.id]) for p in pages if sayings[p.id])
    body.append(heading(2, ctx.label("identifiers"), "identifiers"))
    body.append(_code_facts(ctx, family, code))
    return page_md(code.name, stamp, body)


def _value_line(code: Code) -> str:
    """The code's value under its title: what a reader arriving with a number checks first."""
    return f'<p class="code-value-line">{code_html(code.hex)} · <code class="copyable">{code.value}</code></p>'


def _standing(ctx: Context, code: Code) -> list[str]:
    """Whether the code is still emitted, and in which languages it exists, where that is not both."""
    out = []
    if code.removed:
        said = "<br>".join(fill_label(ctx, "removed_from", repo=esc(repo), release=esc(release))
                           for repo, release in code.removed)
        out.append(admonition("warning", ctx.label("removed"), said))
    if not code.in_python:
        out.append(admonition("info", ctx.label("exists_c"), text_html(ctx.label("c_only_note"))))
    elif not code.in_c:
        out.append(admonition("info", ctx.label("exists_python"), text_html(ctx.label("python_only_note"))))
    return out


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
            groups[key] = Saying(f"says-{page.id}-{len(groups)}", page, brief=brief)
            groups[key].body, groups[key].note = _saying_body(ctx, family, page, state, row, texts, brief)
        groups[key].editions.append(edition)
    return list(groups.values())


def _saying_body(ctx: Context, family: Family, page: Page, state: Presence, row, texts, brief: bool) -> tuple[str, str]:
    """A saying as its answer shows it: the page's columns in upstream's order, or, when the
    texts are not known, the one thing that is (the listing, or the recoverability)."""
    if state == Presence.NOT_KNOWN:
        value = f'<em>{esc(ctx.label("listing_not_known"))}</em>'
        said = fill_label(ctx, "field_value", field=ctx.l("listed"), value=value)
        return f'<span class="says-body">{said}</span>', ""
    value = recoverable_html(ctx, family, row.recoverable, row.disagreements, words=True)
    if brief:
        said = fill_label(ctx, "field_value", field=esc(page.heading("recoverable", ctx.lang)), value=value)
        return f'<span class="says-body">{said}</span>', ctx.label("text_not_known")
    cells = {f: text_cell(ctx, text, origin) for f, text, origin in texts}
    cells["recoverable"] = value
    items = "".join(f"<dt>{esc(page.heading(c, ctx.lang))}</dt><dd>{cells[c]}</dd>" for c in page.columns if c in cells)
    return f'<dl class="says-body">{items}</dl>', ""


def _sayings_html(ctx: Context, family: Family, code: Code, page: Page, sayings: list[Saying]) -> str:
    """A page's sayings, newest first, folded: one card per saying, and one line for the
    editions of which nothing but the listing or the recoverability is known."""
    cards, brief = [], []
    for saying in sayings:
        links = ", ".join(ctx.edition_link(family, e, code) for e in saying.editions)
        if saying.brief:
            brief.append(
                f'<span class="says-brief-item" id="{saying.ident}"{_note_attr(saying)}>{links} · {saying.body}</span>'
            )
        else:
            cards.append(
                f'<div class="says" id="{saying.ident}"><p class="says-editions">{links}</p>{saying.body}</div>'
            )
    if brief:
        cards.append(f'<div class="says-brief"><p>{esc(ctx.label("texts_not_seen"))}: {"; ".join(brief)}</p></div>')
    count = sum(len(s.editions) for s in sayings)
    summary = (
        f"{esc(page.name[ctx.lang])} <small>"
        + esc(ctx.label("sayings_count").replace("{sayings}", str(len(sayings))).replace("{editions}", str(count)))
        + "</small>"
    )
    return (f'<details class="says-page" id="says-{page.id}"><summary>{summary}</summary>'
            f'<div class="says-list">{"".join(cards)}</div></details>')


def _note_attr(saying: Saying) -> str:
    return f' data-note="{esc(saying.note)}"' if saying.note else ""


# -- the answers and the reader's choice -------------------------------------------------------------


def _answers(ctx: Context, family: Family, code: Code, pages: list[Page], shown: list[Page],
             by_edition: dict[str, Saying]) -> list[str]:
    """The default answers, the choice of release and API (any copy of a page that could list
    the code), and what every choice shows (of every page, those that ever list it)."""
    defaults = [e for e in (default_edition(family, code, page=p) for p in shown) if e is not None]
    conflict = disagreement_line(ctx, family, code, defaults)
    cards = "".join(answer_card(ctx, family, code, e, by_edition[e.id], conflict) for e in defaults)
    labels = {"not-listed": ctx.label("answer_not_listed"), "none": ctx.label("answer_none"),
              "disagree": ctx.label("answer_disagree")}
    data = "".join(f' data-{k}="{esc(v)}"' for k, v in labels.items())
    if not defaults:
        cards = f'<p class="answer-note">{esc(ctx.label("answer_no_release"))}</p>'
    answers = f'<div class="answers" id="answer"{data}>{cards}</div>'
    choices = _choices(family, code, pages, shown)
    named = {e for ids in choices.values() for e in ids}
    page_index = {p.id: i for i, p in enumerate(pages)}
    editions = {e.id: [page_index[e.page.id], e.release, by_edition[e.id].ident if e.id in by_edition else "-",
                       _row_link(e, code), _recoverable_word(ctx, family, code, e)]
                for e in family.editions if e.id in named}
    data_json = {"base": ctx.url(f"{family.prefix}editions/"), "slug": code.slug,
                 "pages": [p.name[ctx.lang] for p in pages], "editions": editions, "choices": choices,
                 "c_pages": [i for i, p in enumerate(pages) if p.row_names == "c"]}
    # the picker first: the answers it changes stay under it, in view
    return [_choice_form(ctx, family, code, pages), answers, json_script(data_json, CHOICES_ID)]


def _recoverable_word(ctx: Context, family: Family, code: Code, edition: Edition) -> str:
    """The edition's 是否可恢复 word for the code ("" where it does not list it, or it is not
    known): the script compares the answers it shows, as disagreement_line does."""
    row = edition.row_by_code.get(code.name)
    return ctx.recoverable(row.recoverable, family) if row is not None and row.recoverable != "not known" else ""


def pages_disagree(ctx: Context, family: Family, code: Code, editions: list[Edition]) -> str:
    """Where the pages of answers shown together disagree on recoverability, what each says
    ("Python … page: Yes; C++ … page: No"), as HTML; "" where they agree."""
    return "; ".join(f"{esc(e.page.name[ctx.lang])}: {esc(word)}" for e in disagreeing(code, editions)
                     if (word := _recoverable_word(ctx, family, code, e)))


def disagreement_line(ctx: Context, family: Family, code: Code, editions: list[Edition]) -> str:
    """At the top of each answer shown together, where their pages disagree on recoverability:
    what each page says (extra.js writes the same for a reader's choice)."""
    said = pages_disagree(ctx, family, code, editions)
    return f'<p class="answer-conflict"><strong>{esc(ctx.label("answer_disagree"))}</strong> {said}</p>' \
        if said else ""


def _row_link(edition: Edition, code: Code):
    """For the script: 0 where the edition does not list the code, else 1 (its row's anchor is the
    code's slug) or the anchor an older name gave the row."""
    if code.name not in edition.row_by_code:
        return 0
    anchor = row_anchor(edition, code)
    return 1 if anchor == code.slug else anchor


def _origin_notes(ctx: Context, family: Family, code: Code) -> list[str]:
    """What the marks on the code's texts in this language mean, for the kinds it has."""
    origins = {e.origin for _, entries in code.texts for e in entries if e.lang == ctx.lang}
    return [admonition("note", ctx.label(kind), text_html(ctx.label(f"{kind}_note")))
            for kind in ("translation", PROPOSED) if kind in origins]


def answer_card(ctx: Context, family: Family, code: Code, edition: Edition, saying: Saying,
                conflict: str = "") -> str:
    """One edition's answer (the script builds the same for a reader's choice), under the line
    that says where the pages shown disagree."""
    source = (f'<p class="answer-source"><strong>{esc(edition.page.name[ctx.lang])}</strong> · '
              f'{ctx.edition_link(family, edition, code)}</p>')
    note = f'<p class="answer-note">{esc(saying.note)}</p>' if saying.note else ""
    return f'<div class="answer" data-edition="{esc(edition.id)}">{conflict}{source}{saying.body}{note}</div>'


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
            else:
                picks = [default_edition(family, code, timeline=timeline) if not release
                         else release_edition(family, code, release, timeline=timeline)]
            ids = [e.id for e in picks if e is not None]
            if ids:
                choices[f"{release}|{timeline.id if timeline else ''}"] = ids
    return choices


def _choice_form(ctx: Context, family: Family, code: Code, pages: list[Page]) -> str:
    """The reader's release and API; hidden until the script that serves it runs."""
    releases = "".join(f'<option value="{esc(r)}">{esc(r)}</option>' for r in releases_of(family, pages))
    # the page's name in each option: a closed list shows the option alone (two copies are "in hicann/ge")
    groups = "".join(f'<option value="{esc(t.id)}">{esc(p.name[ctx.lang])} · {esc(t.name[ctx.lang])}</option>'
                     for p in pages for t in p.timelines)
    return (f'<form class="edition-choice" data-family="{esc(family.id)}" '
            f'data-newest="{ctx.l("choice_newest")}" data-not-offered="{ctx.l("choice_not_offered")}" hidden>'
            f'<label><span>{ctx.l("release")}</span> <select name="release">'
            f'<option value="">{ctx.l("choice_newest")}</option>{releases}</select></label> '
            f'<label><span>{ctx.l("choice_api")}</span> <select name="api">'
            f'<option value="">{ctx.l("choice_every_page")}</option>{groups}</select></label></form>')


# -- pictures, history, identifiers ------------------------------------------------------------------------


def _strips(ctx: Context, family: Family, code: Code, pages: list[Page]) -> list[str]:
    """The code's row of each page's picture, each with its legend; one line for the pages that never list it."""
    out, never = [], []
    for page in pages:
        if not svg.ever_listed(code, family.page_editions(page)):
            never.append(esc(page.name[ctx.lang]))
            continue
        groups = [family.timeline_editions(t) for t in page.timelines]
        out.append(heading(3, page.name[ctx.lang], f"timeline-{page.id}"))
        out.append(svg.strip(code, groups, ctx.state, ctx.url(f"{family.prefix}editions/"),
                             f"{code.name}: {page.name[ctx.lang]}"))
        states = {svg.state(e, code) for group in groups for e in group}
        out.append(svg.legend(ctx.state, [s for s in svg.STATES if s in states]))
    if never:
        out.append(f'<p class="never-listed">{ctx.l("not_listed")}: {"; ".join(never)}</p>')
    return out


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
                # a page with a picture has a cell for each of these editions: they are linked here
                never.append((name, steps if svg.ever_listed(code, family.page_editions(page)) else (), steps))
                continue
            out.append(heading(3, name, f"history-{timeline.id}"))
            out.append(_history_table(ctx, family, code, steps))
    if never:
        # every edition stays reachable from here: the pictures' cells are not links
        items = "".join(
            f"<li>{esc(name)}"
            + (
                ": " + ", ".join(ctx.edition_link(family, s.edition, code) for s in steps)
                if steps
                else f" ({esc(ends[0].edition.id)} – {esc(ends[-1].edition.id)})"
            )
            + "</li>"
            for name, steps, ends in never
        )
        out.append(f'<p class="never-listed">{ctx.l("not_listed")}:</p><ul class="never-listed">{items}</ul>')
    return out


def _history_table(ctx: Context, family: Family, code: Code, steps) -> str:
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
    items, colon = [], "：" if ctx.lang == "zh" else ": "
    for run in runs:
        step = run[0]
        said = [esc(ctx.label(step.presence.label_key))]
        if step.recoverable:
            said.append(f"{ctx.l('recoverable_note')}{colon}{esc(ctx.recoverable(step.recoverable))}")
        if step.events:
            said.append(f'<em>{esc(", ".join(ctx.label(e.value) for e in step.events))}</em>')
        editions = ", ".join(ctx.edition_link(family, s.edition, code) for s in run)
        items.append(f"<li>{editions}{colon}{' · '.join(said)}</li>")
    return f'<ul class="history">{"".join(items)}</ul>'


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
    if code.renamed:
        rows.append((ctx.label("renamed"), "<br>".join(renames_html(ctx, code))))
    rows.append(
        (ctx.label("log_message"), f"<code>{esc(code.log_message)}</code>" if code.log_message is not None else "—")
    )
    # which editions list it: the history's tables say, edition by edition
    items = "".join(f"<dt>{esc(k)}</dt><dd>{v}</dd>" for k, v in rows)
    return f'<dl class="code-facts">{items}</dl>'


def renames_html(ctx: Context, code: Code) -> list[str]:
    """Each earlier name, where and when it gave way to the next (newest rename first)."""
    said = []
    newer = {"python": code.python_name, "c": code.c_name}
    steps = []
    for rename in reversed(code.renamed):
        for kind in ("python", "c"):
            old = getattr(rename, kind)
            if old is not None:
                steps.append((old, newer[kind], rename.until))
                newer[kind] = old
    for old, new, until in steps:
        for repo, release in until:
            said.append(fill_label(ctx, "renamed_in", old=code_html(old), new=code_html(new or ""),
                                   release=esc(release), repo=esc(repo)))
    return said

