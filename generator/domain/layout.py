"""What an upstream page holds around its table, and its Markdown dialect, as data: enough,
with the codes' texts, to write the page back byte for byte (`rendering.upstream_page`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union

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
