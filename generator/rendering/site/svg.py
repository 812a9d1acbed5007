"""Presence pictures: one cell per (code, edition), drawn as inline SVG.

A cell's colour says whether the edition lists the code and with which
recoverability; a glyph says the same for readers who cannot tell the colours
apart. Colours come from the site's style sheet (by a cell's data-state; a legend's
class st-yes, st-no, ...), which sets them for the light and the dark scheme. Code names sit in a picture of
their own beside the cells, so that they stay in view while the cells scroll.
Every text is selectable; the bytes depend only on the catalog.

A picture is an image (role="img") and holds nothing a keyboard can reach: a
cell names its edition (data-edition) and its row its code (data-code), the script of the
site (assets/javascripts/extra.js) takes a click on it to the edition's row, and
the pages that show a picture link every edition it shows in words too.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Sequence

from generator.domain.changes import Presence, presence
from generator.rendering.escape import html_in_markdown as esc
from generator.domain.codes import Code
from generator.domain.editions import Edition

CELL = 22
GAP = 10  # between timelines
CHAR = 7.4  # width of a character at the picture's font size (12px, monospace)
ANGLE = 60  # edition ids are written upwards at this angle
STATES = ("yes", "no", "na", "unknown", "not-known", "absent")
GLYPHS = {"yes": "✓", "no": "✗", "na": "∅", "unknown": "•", "not-known": "?", "absent": ""}
# A row's recoverable value as a state (the pages' text colours use the same classes)
RECOVERABLE_STATE = {"yes": "yes", "no": "no", "n/a": "na", "not known": "unknown"}


def state(edition: Edition, code: Code) -> str:
    listed = presence(edition, code)
    if listed == Presence.NOT_KNOWN:
        return "not-known"
    if listed == Presence.NOT_LISTED:
        return "absent"
    value = edition.row_by_code[code.name].recoverable
    return RECOVERABLE_STATE[value]


def ever_listed(code: Code, editions: Sequence[Edition]) -> bool:
    """Whether any of the editions lists the code, or may (its listing not known)."""
    return any(presence(e, code) != Presence.NOT_LISTED for e in editions)


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


@lru_cache(maxsize=1024)  # every code's strip measures its page's edition ids again
def _label_extent(text: str) -> tuple[int, int]:
    """How far an edition id written at ANGLE reaches (right, up) from where it starts."""
    length = len(text) * CHAR
    return math.ceil(length * math.cos(math.radians(ANGLE))), math.ceil(length * math.sin(math.radians(ANGLE)))


def matrix(codes: Sequence[Code], groups: Sequence[Sequence[Edition]], describe: Callable[[str], str],
           editions_url: str, label: str) -> str:
    """The picture of a page: a row per code, a column per edition (grouped by timeline).
    `describe(state)` words a cell's state; `editions_url` is where the editions' pages are
    (relative to the page), that a click on a cell goes to.

    A one-code picture (a code's page) draws each cell whole, with its tooltip. A larger one
    draws each cell as a use of its state's symbol, in a row that names its code: the cells
    svg names its columns' x and editions (data-x, data-ids), which the page's script reads
    for a click. So a timeline of 50 codes and 8 editions stays a tenth of a page."""
    cols = columns(groups)
    header = max((_label_extent(c.edition.id)[1] for c in cols), default=0) + 12
    width = max([(cols[-1].x + CELL) if cols else CELL] + [c.x + 15 + _label_extent(c.edition.id)[0] + 4 for c in cols])
    height = header + CELL * len(codes)
    name_width = math.ceil(max((len(c.name) for c in codes), default=4) * CHAR) + 12
    names = [f'<svg class="presence-names" xmlns="http://www.w3.org/2000/svg" width="{name_width}" height="{height}" '
             f'viewBox="0 0 {name_width} {height}" role="img" aria-label="{esc(label)}">']
    for row, code in enumerate(codes):
        names.append(
            f'<text x="{name_width - 6}" y="{header + row * CELL + 15}" text-anchor="end">{esc(code.name)}</text>'
        )
    names.append("</svg>")
    alone = len(codes) == 1
    where = "" if alone else (f' data-x="{" ".join(str(c.x) for c in cols)}" '
                              f'data-ids="{esc(" ".join(c.edition.id for c in cols))}"')
    cells = [f'<svg class="presence-cells" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="{esc(label)}"{where}>']
    if not alone:
        cells.append(_symbols())
    for col in cols:
        cells.append(f'<text transform="translate({col.x + 15},{header - 6}) rotate(-{ANGLE})">'
                     f'{esc(col.edition.id)}</text>')
    for row, code in enumerate(codes):
        y = header + row * CELL
        if alone:
            cells.append(f'<g data-code="{esc(code.name)}">')  # its cells name their edition and state
            cells.extend(_cell(col, y, code, describe, alone) for col in cols)
        else:
            cells.append(f'<g data-code="{esc(code.name)}" transform="translate(0 {y})">')
            cells.extend(f'<use href="#{SYMBOL}{state(col.edition, code)}" x="{col.x}"/>' for col in cols)
        cells.append("</g>")
    cells.append("</svg>")
    return (
        f'<div class="presence" data-rows="{len(codes)}" data-columns="{len(cols)}" '
        f'data-editions="{esc(editions_url)}">'
        f'<div class="presence-frozen">{"".join(names)}</div>'
        f'<div class="presence-scroll" tabindex="0">{"".join(cells)}</div></div>'
    )


SYMBOL = "presence-"  # a state's symbol is #presence-STATE (one picture of many rows a page)


def _symbols() -> str:
    """A cell of each state, drawn once. Its colours are the site's custom properties, which a
    use's copy inherits (the style sheet's selectors do not reach into it)."""
    out = []
    for st in STATES:
        dash = ";stroke-dasharray:3 2" if st == "absent" else ""
        glyph = "--st-glyph-dark" if st == "not-known" else "--st-glyph"
        text = (f'<text x="{CELL // 2}" y="15" text-anchor="middle" style="fill:var({glyph});font-weight:700">'
                f"{GLYPHS[st]}</text>") if GLYPHS[st] else ""
        out.append(f'<symbol id="{SYMBOL}{st}" overflow="visible"><rect x="1" y="1" width="{CELL - 2}" '
                   f'height="{CELL - 2}" rx="3" style="fill:var(--st-{st});stroke:var(--st-edge){dash}"/>{text}'
                   "</symbol>")
    return "<defs>" + "".join(out) + "</defs>"


def strip(code: Code, groups: Sequence[Sequence[Edition]], describe: Callable[[str], str],
          editions_url: str, label: str) -> str:
    """One code's row of a page's picture: its timeline on that page."""
    return matrix([code], groups, describe, editions_url, label)


def _cell(col: Column, y: int, code: Code, describe, alone: bool = False) -> str:
    st = state(col.edition, code)
    glyph = GLYPHS[st]
    x = col.x
    text = f'<text x="{x + CELL // 2}" y="{y + 15}" text-anchor="middle">{glyph}</text>' if glyph else ""
    # the cell's tooltip; a one-code strip (a code's own page) names the code once, in its label
    who = "" if alone else f"{esc(code.name)} · "
    body = (f'<rect x="{x + 1}" y="{y + 1}" width="{CELL - 2}" height="{CELL - 2}" rx="3"/>{text}'
            f"<title>{who}{esc(col.edition.id)}: {esc(describe(st))}</title>")
    return f'<g class="cell" data-state="{st}" data-edition="{esc(col.edition.id)}">{body}</g>'


def legend(describe: Callable[[str], str], states: Sequence[str] = STATES) -> str:
    """What each state's cell means, in words, for the states a picture shows."""
    items = "".join(
        f'<li class="legend-{st}"><svg width="{CELL}" height="{CELL}" viewBox="0 0 {CELL} {CELL}" aria-hidden="true">'
        f'<rect class="st-{st}" x="1" y="1" width="{CELL - 2}" height="{CELL - 2}" rx="3"/>'
        f'<text x="{CELL // 2}" y="15" text-anchor="middle">{GLYPHS[st]}</text></svg> {esc(describe(st))}</li>'
        for st in states)
    return f'<ul class="presence-legend">{items}</ul>'
