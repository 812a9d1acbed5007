"""What an upstream page holds around its table, and its Markdown dialect, as data: enough,
with the codes' texts, to write the page back byte for byte (`rendering.upstream_page`)."""
from __future__ import annotations

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

