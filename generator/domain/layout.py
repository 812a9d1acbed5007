"""What an upstream page holds around its table, and its Markdown dialect, as data: enough,
with the codes' texts, to write the page back byte for byte (`rendering.upstream_page`)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional, Sequence, Union

TABLE_STYLES = ("spaced", "mixed", "tight")  # | a | b |   | a| b|   |a|b|
CODE_PLACES = ("name", "literal", "low")  # what a code block's line template may say of a code


@dataclass(frozen=True)
class CodeBlock:
    """A fenced code block of the page's constants, derived from the codes: one `line` per
    code (the table's rows in order, or the family's codes whose value is within `values`, in
    value order), between the `open` and `close` lines."""

    fence: str  # the info string after ```: "cpp", or "" for none
    open: tuple[str, ...]
    line: str  # a template: {name} the C name, {literal} the value as the family writes it, {low} its low 12 bits
    close: tuple[str, ...]
    values: Optional[tuple[int, int]] = None  # None: the table's rows


Block = Union[str, CodeBlock]  # a Markdown paragraph (its lines, as upstream writes them), or a code block


@dataclass(frozen=True)
class PageLayout:
    """One upstream file's framing and dialect (a repository source's `page`)."""

    title: str
    before: tuple[Block, ...]  # the blocks between the title and the table
    after: tuple[Block, ...]  # the blocks after the table
    table: str  # one of TABLE_STYLES
    header: tuple[str, ...]  # the header row's cells
    labels: tuple[tuple[str, str], ...]  # (recoverable value, word) where the page does not use the family's first
    note: Optional[str]  # a text line starting with this label is a note: written after `<br>` and one space
    unclosed: tuple[str, ...]  # rows (by the page's first cell) written without their closing pipe
    bom: bool
    level: int = 1  # 1: the whole file, under its `# ` title; 2-6: a section of a larger file, under its heading
    blank_after: int = 0  # blank lines after the last block (a section's, before the heading that ends it)

    @property
    def heading(self) -> str:
        return "#" * self.level + " " + self.title


def code_block_text(block: CodeBlock, codes: Sequence[tuple[str, int]], hex_literals: bool) -> str:
    """A code block as upstream writes it: `codes` (name, value) of the table's rows in order,
    or, for a block of a range of values, every code of the family as (name, value)."""
    if block.values is not None:
        low, high = block.values
        codes = sorted(((n, v) for n, v in codes if low <= v <= high), key=lambda pair: pair[1])
    lines = ["```" + block.fence, *block.open]
    for name, value in codes:
        literal = f"0x{value:X}" if hex_literals else str(value)
        lines.append(block.line.format(name=name, literal=literal, low=value & 0xFFF))
    return "\n".join([*lines, *block.close, "```"])



# -- a section of a larger page -------------------------------------------------------------------------------

HEADING = re.compile(r"^(#{1,6}) ")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")


def headings(lines: Sequence[str]) -> list[tuple[int, int]]:
    """(index, level) of each ATX heading line, outside fenced code."""
    found, fence = [], None
    for index, line in enumerate(lines):
        opened = _FENCE.match(line)
        if opened and (fence is None or opened.group(1) == fence):
            fence = opened.group(1) if fence is None else None
        elif fence is None and (heading := HEADING.match(line)):
            found.append((index, len(heading.group(1))))
    return found


def section_end(lines: Sequence[str], start: int) -> int:
    """The index of the line that ends the section whose heading is `lines[start]`: the next
    heading of the same level or higher, outside fenced code; len(lines) when none."""
    level = len(HEADING.match(lines[start]).group(1))  # type: ignore[union-attr]
    return next((i for i, lv in headings(lines) if i > start and lv <= level), len(lines))


def section_at(text: str, heading: str) -> Optional[tuple[int, str]]:
    """(the index of its heading line, its text) of the section of a file under the line
    `heading` (its first such line, outside fenced code), to the next heading of the same level
    or higher, byte for byte; None when no such line is a heading."""
    lines = text.split("\n")
    start = next((i for i, _ in headings(lines) if lines[i] == heading), None)
    if start is None:
        return None
    end = section_end(lines, start)
    return start, "\n".join(lines[start:end]) + ("\n" if end < len(lines) else "")


def compared_part(layout: PageLayout, data: bytes) -> Optional[tuple[int, bytes]]:
    """What of an upstream file a layout writes back: the whole file (from line index 0), or for
    a section (`level` above 1) the index of its heading line and the section; None when the
    file has no such heading."""
    if layout.level == 1:
        return 0, data
    found = section_at(data.decode("utf-8", "replace"), layout.heading)
    return None if found is None else (found[0], found[1].encode("utf-8"))
