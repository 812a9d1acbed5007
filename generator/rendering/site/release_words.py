"""How the pages of one release say a code apart, in words: a block per release, the newest
shown, the rest for the reader's choice; which installation each API choice fits, in plain
words; and, on an answer's card, what the other pages of its release say otherwise."""
from __future__ import annotations

from collections import Counter
from typing import Callable, NamedTuple, Optional, TypeVar

from generator.domain.changes import punctuation_only
from generator.domain.codes import Code
from generator.domain.editions import Edition
from generator.domain.family import Family
from generator.domain.model import Page, Timeline
from generator.domain.queries import default_edition
from generator.rendering.site.context import Context, filled
from generator.rendering.site.parts import Recoverable, recoverable
from generator.core.releases import UNRELEASED, release_key


def releases_of(family: Family, pages: list[Page]) -> list[str]:
    """The releases of the pages' editions, newest first."""
    ids = tuple(p.id for p in pages)

    def compute() -> list[str]:
        releases = {e.release for e in family.editions if e.page.id in ids}
        return sorted(releases, key=lambda r: release_key(r) or (), reverse=True)
    return list(family.remember(("releases", ids), compute))


# -- how the pages of one release differ ----------------------------------------------------------------


class ReleaseWords(NamedTuple):
    """How the editions of one release say the code apart (the newest release's is visible)."""

    release: str
    visible: bool
    said: tuple[Said, ...]


class Said(NamedTuple):
    """One thing the editions of a release say alike or apart: a label (key) and what fills it."""

    key: str
    editions: tuple[str, ...] = ()  # ids
    field: str = ""  # a column's heading
    value: Optional[Recoverable] = None
    groups: tuple = ()  # (Recoverable, ids) per recoverability; or ids per text


def release_differences_section(ctx: Context, family: Family, code: Code,
                                pages: list[Page]) -> tuple[ReleaseWords, ...]:
    """A block per release with two or more editions of the pages: what they say alike and
    apart. The newest release's shows; the script shows the chosen release's, or says that
    the chosen release has nothing to compare."""
    answer = default_edition(family, code)
    blocks = []
    for release in releases_of(family, pages):
        said = release_differences(ctx, family, code, release, pages)
        if said:
            blocks.append(ReleaseWords(release, answer is not None and answer.release == release, tuple(said)))
    return tuple(blocks)


def release_differences(ctx: Context, family: Family, code: Code, release: str, pages: list[Page]) -> list[Said]:
    """How the editions of one release say the code apart; none when there are fewer than two."""
    ids = {p.id for p in pages}
    editions = [e for e in family.release_editions(release) if e.page.id in ids]
    if len(editions) < 2:
        return []
    listing = [e for e in editions if code.name in e.row_by_code]
    unknown = [e for e in editions if code.name in e.not_known]
    absent = [e for e in editions if code.name not in e.row_by_code and code.name not in e.not_known]
    said = []
    if len(listing) == 1:
        said.append(Said("release_only_one", _ids(listing)))
    elif listing:
        said.append(_recoverable_words(ctx, family, code, listing))
        said.extend(_text_words(ctx, code, listing))
    if absent:
        said.append(Said("release_not_listed", _ids(absent)))
    if unknown:
        said.append(Said("release_listing_not_known", _ids(unknown)))
    return said


def _ids(editions: list[Edition]) -> tuple[str, ...]:
    return tuple(e.id for e in editions)


_V = TypeVar("_V")


def _groups(editions: list[Edition], value: Callable[[Edition], _V]) -> list[tuple[_V, list[Edition]]]:
    """Editions grouped by a value, in the order the values first appear."""
    groups: dict[_V, list[Edition]] = {}
    for edition in editions:
        groups.setdefault(value(edition), []).append(edition)
    return list(groups.items())


def _recoverable_words(ctx: Context, family: Family, code: Code, listing: list[Edition]) -> Said:
    groups = _groups(listing, lambda e: e.row_by_code[code.name].recoverable)
    words = [recoverable(ctx, family, value, (), words=True) for value, _ in groups]
    if len(groups) == 1:
        return Said("release_recoverable_same", value=words[0])
    return Said("release_recoverable_differs", groups=tuple((w, _ids(es)) for w, (_, es) in zip(words, groups)))


def _text_words(ctx: Context, code: Code, listing: list[Edition]) -> list[Said]:
    said = []
    fields = [f for f in ("meaning", "cause", "solution") if any(f in e.page.text_fields for e in listing)]
    known = [e for e in listing if e.has_texts(ctx.lang)]
    for field_name in fields:
        having = [
            e for e in known if field_name in e.page.text_fields and code.text(field_name, e.id, ctx.lang) is not None
        ]
        name = having[0].page.heading(field_name, ctx.lang) if having else ""

        def text_of(edition: Edition, field_name: str = field_name) -> Optional[str]:
            return code.text(field_name, edition.id, ctx.lang)

        groups = _groups(having, text_of)
        if len(groups) == 1 and len(having) > 1:
            # every page that lists the code says it alike: naming them all again says nothing more
            key = "release_text_same_all" if len(having) == len(listing) else "release_text_same"
            said.append(Said(key, _ids(having), field=name))
        elif len(groups) > 1:
            said.append(Said("release_text_differs", field=name, groups=tuple(_ids(es) for _, es in groups)))
    if len(known) < len(listing):
        said.append(Said("release_texts_not_known", _ids([e for e in listing if e not in known])))
    return said


# -- which installation an API choice fits, in plain words ----------------------------------------------


def release_name(ctx: Context, release: str) -> str:
    """A release as readers name their installation: "CANN 9.0.0", or "not released yet"."""
    if release == UNRELEASED:
        return ctx.label("api_unreleased")
    return filled(ctx.label("api_release"), release=release)


def api_words(ctx: Context, family: Family, pages: list[Page]) -> dict[str, str]:
    """Per timeline of the pages, the installation it fits in plain words, its release a
    "{release}" to fill (release_name): the page's kind (Python, C++), the release, and where
    the package or the headers come from (the timeline's repository, by its name); the page's
    name after them where two timelines would read alike (the C++ page and the page to be
    deprecated, both of hicann/ge)."""
    def words(timeline: Timeline, page: Page) -> str:
        python = page.row_names == "python"
        if timeline.repo:
            source = filled(ctx.label("api_from_package" if python else "api_from_headers"),
                            repo=timeline.repo.rsplit("/", 1)[-1])
        else:
            source = ctx.label("api_from_documentation")
        return filled(ctx.label("api_fits"), api=ctx.label("api_python" if python else "api_cpp"), source=source)

    plain = {t.id: (words(t, p), p) for p in pages for t in p.timelines}
    alike = Counter(w for w, _ in plain.values())
    return {ident: filled(ctx.label("api_fits_page"), fits=w, page=p.name[ctx.lang]) if alike[w] > 1 else w
            for ident, (w, p) in plain.items()}


# -- what the other pages of an answer's release say otherwise -------------------------------------------


def others_of(ctx: Context, family: Family, code: Code, edition: Edition, pages: list[Page]) -> tuple[str, ...]:
    """Where the other editions of the answer's release (of the pages, those that list the
    code) say the code otherwise than the answer, a phrase per page ("Python PAGE page:
    Recoverable: Yes (recoverable); Solution: a different text"), or per copy where the
    copies of a page do not say the same: the recoverability they give, each text of theirs
    that differs in words (punctuation and spacing alone are no difference). None where they
    all agree, or the answer does not list the code."""
    if code.name not in edition.row_by_code:
        return ()
    ids = [p.id for p in pages]
    peers = [e for e in family.release_editions(edition.release)
             if e.page.id in ids and e is not edition and code.name in e.row_by_code]
    said = {e.id: _what_differs(ctx, family, code, edition, e) for e in peers}
    join = ctx.label("answer_other_join")

    def phrase(who: str, what: tuple[str, ...]) -> str:
        return filled(ctx.label("field_value"), field=who, value=join.join(what))

    out = []
    for page in pages:
        mates = [e for e in peers if e.page.id == page.id]
        if not any(said[e.id] for e in mates):
            continue
        if page.id != edition.page.id and len({said[e.id] for e in mates}) == 1:
            out.append(phrase(page.name[ctx.lang], said[mates[0].id]))
            continue
        for other in mates:
            if said[other.id]:
                out.append(phrase(_copy_name(ctx, page, other, [edition, *mates]), said[other.id]))
    return tuple(out)


def _copy_name(ctx: Context, page: Page, edition: Edition, among: list[Edition]) -> str:
    """A copy of a page by its repository, where no other of `among` comes from it; else by its id."""
    repo = edition.timeline.repo
    if repo and sum(e.timeline.repo == repo for e in among) == 1:
        return filled(ctx.label("answer_copy_in"), page=page.name[ctx.lang], repo=repo.rsplit("/", 1)[-1])
    return filled(ctx.label("answer_copy_id"), page=page.name[ctx.lang], edition=edition.id)


def _what_differs(ctx: Context, family: Family, code: Code, edition: Edition, other: Edition) -> tuple[str, ...]:
    mine, theirs = edition.row_by_code[code.name].recoverable, other.row_by_code[code.name].recoverable
    said = []
    if "not known" not in (mine, theirs) and mine != theirs:
        value = recoverable(ctx, family, theirs, (), words=True).shown
        said.append(filled(ctx.label("field_value"), field=other.page.heading("recoverable", ctx.lang), value=value))
    for field_name in edition.page.text_fields:
        if field_name not in other.page.text_fields:
            continue
        a, b = code.text(field_name, edition.id, ctx.lang), code.text(field_name, other.id, ctx.lang)
        if a is not None and b is not None and not punctuation_only(a, b):
            said.append(filled(ctx.label("answer_other_text"), field=edition.page.heading(field_name, ctx.lang)))
    return tuple(said)
