"""The structure of a catalog text: paragraphs, bullets ("- ") and numbered steps ("1. ").

A text is plain text, one line per paragraph or list item; this module finds
that structure, and each output's renderer marks it up (escaping every item for
its context): the site's HTML, the Sphinx directive's nodes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

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
