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

A comparison says first, in a line, how many changes of each kind it lists (SUMMARY), then the
changes of meaning, and folds below them the texts changed in punctuation alone or in
translation alone (changes.Fold). A reader who chose a release on a code page opens the page
on that release's edition to the newest (remembered_pairs; the page's script reads the choice).

A timeline's steps skip the repository copies of a published page (`-repo`): a copy is
compared with its published page on the index, where a change of punctuation alone is said so.
"""
from __future__ import annotations

from typing import NamedTuple, Optional
from urllib.parse import quote

from markupsafe import Markup

from generator.domain.changes import (EditionDiff, Fold, Presence, compare_editions, copied_releases, listable,
                                      has_own_copy, own_words, punctuation_only, release_copies, upstream_words,
                                      words_of)
from generator.domain.editions import Edition
from generator.domain.family import Catalog, Family
from generator.domain.model import Page, Timeline
from generator.rendering.site import svg
from generator.rendering.site.context import Context, Link, banner, filled
from generator.rendering.site.markup import escaped, fill, macro, render_page

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
                       hide_toc=False, labels=ctx.labels, phrases=ctx.phrases, name=title, up=_up(ctx, family),
                       form=form,
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
        counts = change_counts(diff, ctx.lang)
        href = ctx.url(differences_location(family, page)) + f"?old={quote(old.id)}&new={quote(new.id)}"
        steps.append(Step(href, old.id, new.id, [(k, n) for k, _ in SUMMARY if (n := counts[k])],
                          ctx.lang in diff.texts_comparable))
    return steps


# -- what changed, counted --------------------------------------------------------------------------------

# The kinds of change a comparison counts, in the order its summary line says them: (the key of
# its label, whether the line says it where nothing of that kind changed). A text's change counts
# under its fold (changes.Fold): of meaning, or of punctuation or translation alone.
SUMMARY = (("added", True), ("dropped", True), ("listing_not_known", False), ("moved_row", True),
           ("renamed_row", True), ("recoverable_changed", True), ("became_known", False),
           ("texts_reworded", True), ("punctuation_changed", False), ("translation_changed", False),
           ("reworded_elsewhere", False))
FOLD_COUNTS = {Fold.MEANING: "texts_reworded", Fold.PUNCTUATION: "punctuation_changed",
               Fold.TRANSLATION: "translation_changed"}


def change_counts(diff: EditionDiff, lang: str) -> dict[str, Optional[int]]:
    """How many changes of each kind (SUMMARY's keys) a comparison lists in `lang`; for the texts
    of meaning, None where the texts in `lang` are not known on both sides."""
    counts: dict[str, Optional[int]] = {
        "added": len(diff.added), "dropped": len(diff.dropped),
        "listing_not_known": len(diff.presence) - len(diff.added) - len(diff.dropped),
        "moved_row": len(diff.moved), "renamed_row": len(diff.renamed),
        "recoverable_changed": len(diff.recoverable), "became_known": len(diff.became_known),
    }
    for fold, key in FOLD_COUNTS.items():
        counts[key] = sum(1 for c in diff.texts if c.lang == lang and c.fold == fold)
    if lang not in diff.texts_comparable:
        counts["texts_reworded"] = None
    counts["reworded_elsewhere"] = len(diff.elsewhere_for(lang))
    return counts


def summary_of(ctx: Context, diff: EditionDiff) -> list[tuple[str, object]]:
    """The summary line's items: (label, how many, or the words for "not known")."""
    counts = change_counts(diff, ctx.lang)
    return [(ctx.label(key), ctx.label("text_not_known") if counts[key] is None else counts[key])
            for key, always in SUMMARY if always or counts[key]]


# -- any two editions of a page ---------------------------------------------------------------------------


class Table(NamedTuple):
    """A kind of change a comparison lists: its title, its table's columns, and its rows."""

    kind: str  # presence, renamed, moved, recoverable, known, texts; folded: punctuation, translation, elsewhere
    title: str
    note: str
    columns: list[tuple[str, str]]
    rows: list[tuple]  # (code's link, before, after); for texts (code's link, field, (before, after), untranslated);
    # elsewhere: (code's link, field)


class Folded(NamedTuple):
    """Changes of texts folded below the changes of meaning: punctuation or translation alone, or
    upstream's words in another language alone."""

    kind: str  # punctuation, translation, elsewhere
    summary: str  # what the fold says it holds, and how many
    table: Table


class Diff(NamedTuple):
    """What changed between two editions (templates/site/macros/compare.html.j2, `diff`)."""

    tables: list[Table]
    not_known: list[str]  # where no text change is listed and the texts are not known: the editions that lack them
    not_known_words: tuple[str, str]  # what is said before and after their ids
    summary: list[tuple[str, object]] = []  # the summary line's (label, count); none: no line
    folded: list[Folded] = []  # after the tables, folded


def _tables(ctx: Context) -> dict[str, tuple[str, str, list[tuple[str, str]]]]:
    """Each kind of change a comparison lists: its title, its note and its table's columns."""
    before_after = [("code", ctx.label("name")), ("before", ctx.label("before")), ("after", ctx.label("after"))]
    texts = [("code", ctx.label("name")), ("field", ctx.label("column")), ("change", ctx.label("change"))]
    return {
        "presence": (ctx.label("listing_changed"), "", before_after),
        "renamed": (ctx.label("renamed_row"), "", before_after),
        "moved": (ctx.label("moved_row"), "", before_after),
        "recoverable": (ctx.label("recoverable_changed"), "", before_after),
        "known": (ctx.label("became_known"), "", before_after),
        "texts": (ctx.label("texts_changed"), ctx.label("word_diff_note"), texts),
        "punctuation": ("", ctx.label("word_diff_note"), texts),
        "translation": ("", ctx.label("translation_only_note"), texts),
        "elsewhere": ("", "", texts[:2]),  # what it holds, its fold's summary says
    }


# A fold's kind: the label that says what it holds ({count}: how many).
_FOLDS = {Fold.PUNCTUATION.value: "punctuation_only", Fold.TRANSLATION.value: "translation_only",
          "elsewhere": "elsewhere_only"}


def _not_known_words(ctx: Context) -> tuple[str, str]:
    """What a comparison says where the texts in its language are not known: the label's words
    before and after the ids of the editions whose texts are not known."""
    before, *after = fill(ctx.phrases["compare_texts_not_known"], editions=Markup("\0")).split("\0")
    # a catalog's wording without {editions} has the ids at its end; with it twice, at the first
    return before, Markup("").join(after)


def diff_of(ctx: Context, family: Family, diff: EditionDiff, summary: bool = True, fold: bool = True) -> Diff:
    """What changed between two editions, as the page shows it (the page's script the same): its
    summary line (`summary`), the changes of meaning, then, folded (`fold`), the changes of
    texts in punctuation or translation alone."""
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
    shown = [c for c in diff.texts if c.lang == ctx.lang]

    def texts(fold_: Optional[Fold]) -> list[tuple]:
        return [(code(c.code), diff.new.page.heading(c.field, ctx.lang), (c.before, c.after), c.untranslated)
                for c in shown if fold_ is None or c.fold == fold_]

    kinds.append(("texts", texts(Fold.MEANING if fold else None)))
    folds = {Fold.PUNCTUATION.value: texts(Fold.PUNCTUATION), Fold.TRANSLATION.value: texts(Fold.TRANSLATION),
             "elsewhere": [(code(c.code), diff.new.page.heading(c.field, ctx.lang))
                           for c in diff.elsewhere_for(ctx.lang)]} if fold else {}
    folded = [Folded(kind, fill(ctx.phrases[label], count=len(rows)), Table(kind, *tables[kind], rows))
              for kind, label in _FOLDS.items() if (rows := folds.get(kind))]
    unseen = [e.id for e in (diff.old, diff.new) if not e.has_texts(ctx.lang)] \
        if not shown and ctx.lang not in diff.texts_comparable else []
    return Diff([Table(kind, *tables[kind], rows) for kind, rows in kinds if rows], unseen,
                _not_known_words(ctx) if unseen else ("", ""), summary_of(ctx, diff) if summary else [], folded)


def diff_html(ctx: Context, family: Family, old: Edition, new: Edition) -> str:
    """What changed between two editions, as the page writes it (the page's script writes the same)."""
    return str(macro(_MACROS, "diff")(diff_of(ctx, family, compare_editions(family, old, new)), ctx.labels,
                                      ctx.phrases))


def pair_html(old: Edition, new: Optional[Edition] = None, arrow: str = " → ") -> str:
    """"OLD → NEW" as the page writes it: each id kept whole, the line free to break at the arrow."""
    return str(macro(_MACROS, "pair")(old.id, new.id if new is not None else None, arrow))


def remembered_pairs(family: Family, page: Page) -> dict[str, list[int]]:
    """The comparison the page opens on for a reader who chose a release on a code page (and a
    copy: one of this page's timelines, or none), as the code page remembers it ("RELEASE|TIMELINE"):
    that release's edition, copies aside, to the newest released edition of that timeline; with
    no copy of this page chosen, to the newest of the first comparison (first_pair), from the
    release's edition on its timeline, else on another. None where the release's edition is no
    older than that newest (the page then shows its first comparison)."""
    editions = family.page_editions(page)
    newest = first_pair(family, page)[1]
    pairs: dict[str, list[int]] = {}
    for timeline in [None, *page.timelines]:
        on = editions[newest].timeline if timeline is None else timeline
        last = newest if timeline is None else next(
            (i for i in reversed(range(len(editions))) if editions[i].timeline.id == on.id
             and editions[i].released and not editions[i].repo_copy), None)
        if last is None:
            continue
        for release in dict.fromkeys(e.release for e in editions):
            mine = [i for i, e in enumerate(editions) if e.release == release and not e.repo_copy
                    and (timeline is None or e.timeline.id == timeline.id)]
            # on the newest's timeline where the release has an edition there, else its last
            old = next((i for i in mine if editions[i].timeline.id == on.id), mine[-1] if mine else None)
            if old is not None and old < last:
                pairs[f"{release}|{timeline.id if timeline else ''}"] = [old, last]
    return pairs


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
    others = [lang for lang in family.languages if lang != ctx.lang]
    codes = [c for c in family.codes
             if listable(c, page) or any(c.name in e.row_by_code or c.name in e.not_known for e in editions)]
    index = {c.name: i for i, c in enumerate(codes)}
    texts: dict[str, int] = {}
    words: dict[str, int] = {}  # what of a text punctuation leaves alike (changes.words_of), each once
    value_index = {value: i for i, value in enumerate(family.recoverable_labels)}
    # where upstream split the page over several files: the file of each row (a row moves between files)
    split = any(s.codes for e in editions for s in e.sources)
    with_other_words = _with_other_words(ctx, codes, fields, list(editions), others)
    files: dict[str, int] = {}
    rows = []
    for edition in editions:
        # a row: [code, its name on the page (0: its own), recoverable, a text per field (-1: none), for a code in
        # with_other_words, per field and other language its upstream words (index into words; -1: not upstream's)];
        # pending: [row, field] awaiting translation; ours: this project's; b: no source in this language (own_words)
        borrowed = not has_own_copy(edition, ctx.lang)
        listed: list[list] = []
        pending: list[list[int]] = []
        ours: list[list[int]] = []
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
                elif entry is not None and not borrowed and not upstream_words(entry.origin):
                    ours.append([len(listed), k])
            listed.append(cells + (_upstream_words(c, edition, fields, others, words) if c.name in with_other_words
                                   else []))
        data = {"t": int(edition.has_texts(ctx.lang)), "l": listed, "x": pending, "y": ours,
                "u": [index[c.name] for c in codes if c.name in edition.not_known], **({"b": 1} if borrowed else {})}
        if split:  # as changes._moved: the timeline, whether this edition is split, each row's file
            lang = family.languages[0]
            data.update(tl=edition.timeline.id, s=int(any(s.codes for s in edition.sources)),
                        f=[-1 if (path := edition.file_of(codes[r[0]].name, lang)) is None
                           else files.setdefault(path, len(files)) for r in listed])
        rows.append(data)
    text_words = [words.setdefault(words_of(text), len(words)) for text in texts]
    return {
        "editions": [e.id for e in editions], "rows": rows, "texts": list(texts), "w": text_words,
        "others": len(others), "files": list(files), "family": family.id,
        "remembered": remembered_pairs(family, page),
        # an edition id once published keeps naming its edition in the address (?old=ALIAS)
        "aliases": {alias: target for alias, target in family.aliases if target in ids},
        "codes": [[c.name, int(listable(c, page))] for c in codes], "base": ctx.url(f"{family.prefix}codes/"),
        "fields": [[f, str(escaped(page.heading(f, ctx.lang)))] for f in fields],
        **_script_pieces(ctx, family),
    }


def _with_other_words(ctx: Context, codes, fields, editions: list[Edition], others: list[str]) -> set[str]:
    """The codes with a text on the page that changes between editions and that some edition shows
    not as its own copy's words in the page's language (only a change of theirs may be of
    translation alone), or whose upstream words in another language differ beyond punctuation
    between two editions where its text in the page's language is the same (a change only the
    other language shows): only their rows say upstream's words in the other languages (the
    page's data as light as it can be)."""
    found = set()
    for c in codes:
        for f in fields:
            said = [(e, entry) for e in editions if (entry := c.entry(f, e.id, ctx.lang)) is not None]
            if len({entry.text for _, entry in said}) > 1 and \
                    any(not own_words(e, entry.origin, ctx.lang) for e, entry in said):
                found.add(c.name)
            for other in others:
                worded: dict[str, set[str]] = {}  # the page's text: upstream's words in `other` beside it
                for e, entry in said:
                    if (theirs := c.entry(f, e.id, other)) is not None and own_words(e, theirs.origin, other):
                        worded.setdefault(entry.text, set()).add(words_of(theirs.text))
                if any(len(w) > 1 for w in worded.values()):
                    found.add(c.name)
    return found


def _upstream_words(code, edition: Edition, fields, others: list[str], words: dict[str, int]) -> list[int]:
    """Per field and other language, the edition's own upstream words there (an index into `words`,
    each what punctuation leaves of a text), or -1 where the text there is not those or not known:
    where they are alike on both sides, a change of this project's translation is one of
    translation alone (changes.text_fold)."""
    cells = []
    for field_name in fields:
        for other in others:
            entry = code.entry(field_name, edition.id, other)
            cells.append(words.setdefault(words_of(entry.text), len(words))
                         if entry is not None and own_words(edition, entry.origin, other) else -1)
    return cells


def _script_pieces(ctx: Context, family: Family) -> dict:
    """The HTML a comparison writes around what changed, in pieces for the page's script to put
    the changes between: each table's title and start, a row's pieces around its cells, a
    table's end, what is said after a text awaiting its translation, where nothing changed,
    and around the ids of the editions whose texts are not known; and the words it shows, as
    HTML (the script inserts them as such)."""
    def pieces(markup: Markup) -> list[str]:
        return str(markup).split("\0")

    # a folded table's rows are the texts' (their pieces said once, the page as light as before)
    tables = {kind: [str(macro(_MACROS, "table_head")(Table(kind, title, note, columns, [])))] + (
                  [] if kind in ("punctuation", "translation")
                  else [pieces(macro("parts.html.j2", "row")(columns, None, ["\0"] * len(columns)))])
              for kind, (title, note, columns) in _tables(ctx).items()}
    return {
        "tables": tables, "end": str(macro("parts.html.j2", "table_end")()),
        # the summary line: its start, an item ("\x01": the label, "\x02": the count), between two, its end
        "summary": [str(macro(_MACROS, "summary_start")(ctx.labels)),
                    str(macro(_MACROS, "summary_item")(("\x01", "\x02"), ctx.phrases)),
                    str(macro(_MACROS, "summary_between")()), str(macro(_MACROS, "summary_end")())],
        "counted": [[key, str(escaped(ctx.label(key))), int(always)] for key, always in SUMMARY],
        "text_not_known": str(escaped(ctx.label("text_not_known"))),
        # a fold: its start, around its count, and its end
        "folds": {kind: pieces(macro(_MACROS, "fold_start")(kind, fill(ctx.phrases[label], count="\0")))
                  for kind, label in _FOLDS.items()},
        "fold_end": str(macro(_MACROS, "fold_end")()),
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


def _repo_copy(ctx: Context, family: Family, published: Edition, copy: Edition) -> RepoCopy:
    diff = compare_editions(family, published, copy)
    texts = [c for c in diff.texts if c.lang == ctx.lang]
    noise = tuple(c for c in texts if punctuation_only(c.before, c.after))
    worded = EditionDiff(diff.old, diff.new, diff.presence, diff.recoverable, diff.became_known,
                         tuple(c for c in diff.texts if c not in noise), diff.texts_comparable, diff.renamed,
                         diff.moved)
    only = EditionDiff(diff.old, diff.new, (), (), (), noise, diff.texts_comparable)
    # the index folds a copy's punctuation its own way, and says no summary
    return RepoCopy(
        published=published.id, copy=copy.id,
        worded=diff_of(ctx, family, worded, False, False) if worded or not noise else None,
        noise=[(ctx.code_link(family, family.code_by_name[c.code]), copy.page.heading(c.field, ctx.lang))
               for c in noise],
        noise_summary=filled(ctx.label("punctuation_only"), count=str(len(noise))),
        punctuation=diff_of(ctx, family, only, False, False) if noise else None)
