"""How the pages of one release say a code apart, in words: a block per release, the newest
shown, the rest for the reader's choice."""
from __future__ import annotations

import re
from functools import lru_cache

from typing import Callable, Optional, TypeVar

from generator.rendering.escape import html_in_markdown as esc
from generator.domain.codes import Code
from generator.domain.editions import Edition
from generator.domain.family import Family
from generator.domain.model import Page
from generator.domain.queries import default_edition
from generator.rendering.site.context import Context
from generator.rendering.site.parts import (
    heading,
    recoverable_html,
)
from generator.core.releases import release_key

PLACEHOLDER = re.compile(r"\{(\w+)\}")  # {name} in a label, filled with HTML


def releases_of(family: Family, pages: list[Page]) -> list[str]:
    """The releases of the pages' editions, newest first."""
    ids = tuple(p.id for p in pages)

    def compute() -> list[str]:
        releases = {e.release for e in family.editions if e.page.id in ids}
        return sorted(releases, key=lambda r: release_key(r) or (), reverse=True)
    return list(family.remember(("releases", ids), compute))


# -- how the pages of one release differ ----------------------------------------------------------------


def release_differences_section(ctx: Context, family: Family, code: Code, pages: list[Page]) -> list[str]:
    """A block per release with two or more editions of the pages: what they say alike and
    apart. The newest release's shows; the script shows the chosen release's, or says that
    the chosen release has nothing to compare."""
    answer = default_edition(family, code)
    blocks, shown = [], False
    for release in releases_of(family, pages):
        words = release_differences(ctx, family, code, release, pages)
        if words:
            visible = answer is not None and answer.release == release
            shown = shown or visible
            blocks.append(
                f'<div class="release-differences" data-release="{esc(release)}"{"" if visible else " hidden"}>'
                f'<p class="release-differences-title"><strong>{esc(release)}</strong></p>{words}</div>'
            )
    if not blocks:
        return []
    blocks.append(
        f'<p class="release-differences-none"{" hidden" if shown else ""}>{ctx.l("release_nothing_to_compare")}</p>'
    )
    return [heading(2, ctx.label("release_differences"), "release-differences"), "".join(blocks)]


def release_differences(ctx: Context, family: Family, code: Code, release: str, pages: list[Page]) -> str:
    """How the editions of one release say the code apart, in words; "" when there are fewer than two."""
    ids = {p.id for p in pages}
    editions = [e for e in family.release_editions(release) if e.page.id in ids]
    if len(editions) < 2:
        return ""

    def links(some: list[Edition]) -> str:
        # ids, not links: the answers and the history link every edition, and a release names many
        return ", ".join(f'<span class="eid">{esc(e.id)}</span>' for e in some)

    listing = [e for e in editions if code.name in e.row_by_code]
    unknown = [e for e in editions if code.name in e.not_known]
    absent = [e for e in editions if code.name not in e.row_by_code and code.name not in e.not_known]
    said = []
    if len(listing) == 1:
        said.append(fill_label(ctx, "release_only_one", editions=links(listing)))
    elif listing:
        said.append(_recoverable_words(ctx, family, code, listing, links))
        said.extend(_text_words(ctx, code, listing, links))
    if absent:
        said.append(fill_label(ctx, "release_not_listed", editions=links(absent)))
    if unknown:
        said.append(fill_label(ctx, "release_listing_not_known", editions=links(unknown)))
    return '<ul class="release-words">' + "".join(f"<li>{s}</li>" for s in said) + "</ul>"


def fill_label(ctx: Context, key: str, **html: str) -> str:
    """A label as HTML, each {name} in it replaced by the HTML given for it, and {family} by the
    family's name (in one pass: a value that holds "{name}" is not read again); the label's own
    words escaped, braces too (they would open an attribute list in Markdown)."""
    if ctx.family is not None:
        html.setdefault("family", esc(ctx.family.name[ctx.lang]))
    return "".join(html.get(part, words) for part, words in _label_pieces(ctx.site.label(key, ctx.lang)))


@lru_cache(maxsize=1024)  # the labels of a code's page, asked for every code
def _label_pieces(label: str) -> tuple[tuple[str, str], ...]:
    """A label as (name, HTML) pieces: each placeholder's name with its own words escaped (what
    stays when no HTML is given for it), and between them the words escaped, named ""."""
    parts = PLACEHOLDER.split(label)  # words, name, words, name, ...
    return tuple((part, esc(f"{{{part}}}")) if i % 2 else ("", esc(part)) for i, part in enumerate(parts))


_V = TypeVar("_V")


def _groups(editions: list[Edition], value: Callable[[Edition], _V]) -> list[tuple[_V, list[Edition]]]:
    """Editions grouped by a value, in the order the values first appear."""
    groups: dict[_V, list[Edition]] = {}
    for edition in editions:
        groups.setdefault(value(edition), []).append(edition)
    return list(groups.items())


def _recoverable_words(ctx: Context, family: Family, code: Code, listing: list[Edition], links) -> str:
    groups = _groups(listing, lambda e: e.row_by_code[code.name].recoverable)
    words = [recoverable_html(ctx, family, value, (), words=True) for value, _ in groups]
    if len(groups) == 1:
        return fill_label(ctx, "release_recoverable_same", value=words[0])
    parts = "; ".join(f"{w}: {links(es)}" for w, (_, es) in zip(words, groups))
    return fill_label(ctx, "release_recoverable_differs", values=parts)


def _text_words(ctx: Context, code: Code, listing: list[Edition], links) -> list[str]:
    said = []
    fields = [f for f in ("meaning", "cause", "solution") if any(f in e.page.text_fields for e in listing)]
    known = [e for e in listing if e.has_texts(ctx.lang)]
    for field_name in fields:
        having = [
            e for e in known if field_name in e.page.text_fields and code.text(field_name, e.id, ctx.lang) is not None
        ]
        name = esc(having[0].page.heading(field_name, ctx.lang)) if having else ""

        def text_of(edition: Edition, field_name: str = field_name) -> Optional[str]:
            return code.text(field_name, edition.id, ctx.lang)

        groups = _groups(having, text_of)
        if len(groups) == 1 and len(having) > 1:
            # every page that lists the code says it alike: naming them all again says nothing more
            key = "release_text_same_all" if len(having) == len(listing) else "release_text_same"
            said.append(fill_label(ctx, key, field=name, editions=links(having)))
        elif len(groups) > 1:
            parts = "; ".join(links(es) for _, es in groups)
            said.append(fill_label(ctx, "release_text_differs", field=name, count=str(len(groups)), groups=parts))
    if len(known) < len(listing):
        said.append(fill_label(ctx, "release_texts_not_known", editions=links([e for e in listing if e not in known])))
    return said
