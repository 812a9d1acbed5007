"""The structure of a catalog text: paragraphs, bullets ("- ") and numbered steps ("1. ").

A text is plain text, one line per paragraph or list item; this module turns
it into the markup of each output, escaping every piece for its context.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from generator.escape import md_inline

_BULLET = re.compile(r"^- (.*)$", re.S)
_NUMBERED = re.compile(r"^(\d{1,9})\. (.*)$", re.S)


@dataclass(frozen=True)
class Block:
    kind: str  # "p" (paragraph lines), "ul" or "ol"
    items: tuple[str, ...]
    start: int = 1


def blocks(text: str) -> list[Block]:
    result: list[Block] = []
    for line in text.split("\n"):
        kind, item, start = _classify(line)
        last = result[-1] if result else None
        if last is not None and last.kind == kind and kind != "ol":
            result[-1] = Block(kind, last.items + (item,), last.start)
        elif last is not None and kind == "ol" and last.kind == "ol" and start == last.start + len(last.items):
            result[-1] = Block(kind, last.items + (item,), last.start)
        else:
            result.append(Block(kind, (item,), start))
    return result


def _classify(line: str) -> tuple[str, str, int]:
    match = _BULLET.match(line)
    if match:
        return "ul", match.group(1), 1
    match = _NUMBERED.match(line)
    if match:
        return "ol", match.group(2), int(match.group(1))
    return "p", line, 1


def _markup(text: str, inline) -> str:
    parts, structure = [], blocks(text)
    for block in structure:
        if block.kind == "p":
            parts.append("<br>".join(inline(item) for item in block.items))
        else:
            start = f' start="{block.start}"' if block.kind == "ol" and block.start != 1 else ""
            items = "".join(f"<li>{inline(item)}</li>" for item in block.items)
            parts.append(f"<{block.kind}{start}>{items}</{block.kind}>")
    return _join(parts, structure)


def _join(parts: list[str], kinds: list[Block]) -> str:
    out = ""
    for index, part in enumerate(parts):
        if index and kinds[index - 1].kind == "p" and kinds[index].kind == "p":
            out += "<br>"
        out += part
    return out


def md_cell(text: str) -> str:
    """A text as one line of Markdown (a table cell), its structure kept as inline HTML."""
    return _markup(text, md_inline)
