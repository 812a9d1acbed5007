"""Presence pictures: one cell per (code, edition), drawn as inline SVG.

A cell's colour says whether the edition lists the code and with which
recoverability; a glyph says the same for readers who cannot tell the colours
apart. Colours are CSS classes (st-yes, st-no, ...) that the site's style
sheet sets for the light and the dark scheme. Code names sit in a picture of
their own beside the cells, so that they stay in view while the cells scroll.
Every text is selectable; the bytes depend only on the catalog.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from generator.changes import Presence, presence
from generator.escape import html_text as esc
from generator.model import Code, Edition

CELL = 22
GAP = 10  # between timelines
HEADER = 96  # room for the edition ids, written at an angle
CHAR = 7.4  # width of a character of a code name, at the picture's font size
STATES = ("yes", "no", "na", "unknown", "not-known", "absent")
GLYPHS = {"yes": "✓", "no": "✗", "na": "∅", "unknown": "•", "not-known": "?", "absent": ""}


def state(edition: Edition, code: Code) -> str:
    listed = presence(edition, code)
    if listed == Presence.NOT_KNOWN:
        return "not-known"
    if listed == Presence.NOT_LISTED:
        return "absent"
    value = edition.row_by_code[code.name].recoverable
    return {"yes": "yes", "no": "no", "n/a": "na", "not known": "unknown"}[value]


@dataclass(frozen=True)
class Column:
    edition: Edition
    x: int


def columns(groups: Sequence[Sequence[Edition]]) -> list[Column]:
    """Editions left to right, a gap between timelines."""
    result, x = [], 0
    for index, editions in enumerate(groups):
        if index:
            x += GAP
        for edition in editions:
            result.append(Column(edition, x))
            x += CELL
    return result


def matrix(codes: Sequence[Code], groups: Sequence[Sequence[Edition]], describe: Callable[[str], str],
           href: Callable[[Edition, Code], str], label: str) -> str:
    """The picture of a page: a row per code, a column per edition (grouped by timeline).
    `describe(state)` words a cell's state; `href` links a cell to the edition's row."""
    cols = columns(groups)
    width = (cols[-1].x + CELL) if cols else CELL
    height = HEADER + CELL * len(codes)
    name_width = int(max((len(c.name) for c in codes), default=4) * CHAR) + 12
    names = [f'<svg class="presence-names" xmlns="http://www.w3.org/2000/svg" width="{name_width}" height="{height}" '
             f'viewBox="0 0 {name_width} {height}" role="img" aria-label="{esc(label)}">']
    for row, code in enumerate(codes):
        y = HEADER + row * CELL
        names.append(f'<text x="{name_width - 6}" y="{y + 15}" text-anchor="end">{esc(code.name)}</text>')
    names.append("</svg>")
    cells = [f'<svg class="presence-cells" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="{esc(label)}">']
    for col in cols:
        cells.append(f'<text class="edition-id" transform="translate({col.x + 15},{HEADER - 6}) rotate(-60)">'
                     f'{esc(col.edition.id)}</text>')
    for row, code in enumerate(codes):
        y = HEADER + row * CELL
        for col in cols:
            cells.append(_cell(col.x, y, state(col.edition, code), f"{code.name} · {col.edition.id}",
                               describe, href(col.edition, code)))
    cells.append("</svg>")
    return (f'<div class="presence" data-rows="{len(codes)}" data-columns="{len(cols)}">'
            f'<div class="presence-frozen">{"".join(names)}</div>'
            f'<div class="presence-scroll" tabindex="0">{"".join(cells)}</div></div>')


def strip(code: Code, groups: Sequence[Sequence[Edition]], describe: Callable[[str], str],
          href: Callable[[Edition, Code], str], label: str) -> str:
    """One code's row of a page's picture: its timeline on that page."""
    return matrix([code], groups, describe, href, label)


def _cell(x: int, y: int, st: str, title: str, describe, href: str) -> str:
    glyph = GLYPHS[st]
    text = f'<text x="{x + CELL // 2}" y="{y + 15}" text-anchor="middle">{glyph}</text>' if glyph else ""
    body = (f'<rect class="st-{st}" x="{x + 1}" y="{y + 1}" width="{CELL - 2}" height="{CELL - 2}" rx="3"/>{text}'
            f"<title>{esc(title)}: {esc(describe(st))}</title>")
    return f'<a href="{esc(href)}" class="cell" data-state="{st}">{body}</a>' if href else f'<g class="cell" data-state="{st}">{body}</g>'


def legend(describe: Callable[[str], str]) -> str:
    items = "".join(
        f'<li><svg width="{CELL}" height="{CELL}" viewBox="0 0 {CELL} {CELL}" aria-hidden="true">'
        f'<rect class="st-{st}" x="1" y="1" width="{CELL - 2}" height="{CELL - 2}" rx="3"/>'
        f'<text x="{CELL // 2}" y="15" text-anchor="middle">{GLYPHS[st]}</text></svg> {esc(describe(st))}</li>'
        for st in STATES)
    return f'<ul class="presence-legend">{items}</ul>'
