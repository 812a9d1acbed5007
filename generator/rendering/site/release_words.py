"""How the pages of one release say a code apart, in words: a block per release, the newest
shown, the rest for the reader's choice."""
from __future__ import annotations

from typing import Callable, NamedTuple, Optional, TypeVar

from generator.domain.codes import Code
from generator.domain.editions import Edition
from generator.domain.family import Family
from generator.domain.model import Page
from generator.domain.queries import default_edition
from generator.rendering.site.context import Context
from generator.rendering.site.parts import Recoverable, recoverable
from generator.core.releases import release_key


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
