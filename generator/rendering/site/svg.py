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
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Sequence

from generator.domain.changes import Presence, presence
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
class Shape:
    """What every picture draws alike (the templates' global `shape`)."""

    cell: int = CELL
    angle: int = ANGLE
    states: tuple[str, ...] = STATES
    glyphs: dict[str, str] = field(default_factory=lambda: dict(GLYPHS))
    symbol: str = "presence-"  # a state's symbol is #presence-STATE (one picture of many rows a page)


SHAPE = Shape()
SYMBOL = SHAPE.symbol


Column = tuple[str, int]  # an edition's id, its x
Row = tuple[str, int, tuple[str, ...]]  # a code's name, its y, a state per column


@dataclass(frozen=True)
class Picture:
    """A picture's geometry and words: templates/site/macros/svg.html.j2 draws it."""

    label: str
    editions_url: str  # where the editions' pages are (relative to the page), that a click on a cell goes to
    columns: tuple[Column, ...]  # tuples: a picture of 10,000 codes draws 80,000 cells
    rows: tuple[Row, ...]
    header: int  # the height of the edition ids written upwards
    width: int
    height: int
    name_width: int
    words: tuple[tuple[str, str], ...]  # (state, its words), for a one-code picture's tooltips
    alone: bool  # a one-code picture (a code's page): each cell drawn whole, with its tooltip

    @property
    def xs(self) -> str:
        """The columns' x, for the page's script (data-x)."""
        return " ".join(str(x) for _, x in self.columns)

    @property
    def ids(self) -> str:
        """The columns' editions, for the page's script (data-ids)."""
        return " ".join(edition for edition, _ in self.columns)


def columns(groups: Sequence[Sequence[Edition]]) -> list[Column]:
    """Editions left to right, a gap between timelines."""
    result, x = [], 0
    for index, editions in enumerate(groups):
        if index:
            x += GAP
        for edition in editions:
            result.append((edition.id, x))
            x += CELL
    return result


@lru_cache(maxsize=1024)  # every code's strip measures its page's edition ids again
def _label_extent(text: str) -> tuple[int, int]:
    """How far an edition id written at ANGLE reaches (right, up) from where it starts."""
    length = len(text) * CHAR
    return math.ceil(length * math.cos(math.radians(ANGLE))), math.ceil(length * math.sin(math.radians(ANGLE)))


def picture(codes: Sequence[Code], groups: Sequence[Sequence[Edition]], describe: Callable[[str], str],
            editions_url: str, label: str) -> Picture:
    """The picture of a page: a row per code, a column per edition (grouped by timeline).
    `describe(state)` words a cell's state.

    A one-code picture (a code's page) draws each cell whole, with its tooltip. A larger one
    draws each cell as a use of its state's symbol, in a row that names its code: the cells
    svg names its columns' x and editions (data-x, data-ids), which the page's script reads
    for a click. So a timeline of 50 codes and 8 editions stays a tenth of a page."""
    cols = columns(groups)
    editions = [e for group in groups for e in group]
    header = max((_label_extent(edition)[1] for edition, _ in cols), default=0) + 12
    width = max([(cols[-1][1] + CELL) if cols else CELL] + [x + 15 + _label_extent(e)[0] + 4 for e, x in cols])
    rows = tuple((code.name, header + index * CELL, tuple(state(e, code) for e in editions))
                 for index, code in enumerate(codes))
    name_width = math.ceil(max((len(c.name) for c in codes), default=4) * CHAR) + 12
    return Picture(label, editions_url, tuple(cols), rows, header, width, header + CELL * len(codes), name_width,
                   _words(describe, len(codes) == 1), len(codes) == 1)


def _words(describe: Callable[[str], str], alone: bool) -> tuple[tuple[str, str], ...]:
    return tuple((st, describe(st)) for st in STATES) if alone else ()


def strip(code: Code, groups: Sequence[Sequence[Edition]], describe: Callable[[str], str],
          editions_url: str, label: str) -> Picture:
    """One code's row of a page's picture: its timeline on that page."""
    return picture([code], groups, describe, editions_url, label)


def legend_words(describe: Callable[[str], str], states: Sequence[str] = STATES) -> tuple[tuple[str, str], ...]:
    """What each state's cell means, in words, for the states a picture shows."""
    return tuple((st, describe(st)) for st in states)
