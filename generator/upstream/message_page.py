"""Upstream's per-code pages and their index read back into fields (the inverse of
generator/rendering/message_pages.py), and GE's registry source read as its entries.

A page that breaks the layout raises PageError with its line, so that import and audit can say
where. The framing (headings, labels, the meanings sentence) is the catalog's: a page that words
them otherwise is not read as this family's page.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Optional

from generator.domain.messages import WORDINGS, Framing

_TITLE = re.compile(r"# ([A-Z][A-Z0-9_]{0,39}) ((?:[A-Za-z0-9]|\\_){1,200})")
_ENTRY = re.compile(r"- (\*\*)?\[([A-Z][A-Z0-9_]{0,39}) ((?:[A-Za-z0-9]|\\_){1,200})\]\(([^()\s]{1,300})\)(\*\*)?")
_RAW_STRING = re.compile(r'R"\((.*?)\)"', re.S)


class PageError(ValueError):
    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}")
        self.line = line


@dataclass
class PageFields:
    """One language's page of one code, as fields."""

    id: str
    category: str
    template: str
    meanings: Optional[list[str]] = None
    wording: Optional[str] = None
    examples: list[str] = field(default_factory=list)
    numbered: Optional[bool] = None
    note: Optional[str] = None
    cause: Optional[str] = None
    solution: str = ""


class _Lines:
    def __init__(self, text: str):
        if not text.endswith("\n") or text.endswith("\n\n"):
            raise PageError(max(1, text.count("\n")), "a page ends with exactly one newline")
        self.lines = text[:-1].split("\n")
        self.i = 0

    def peek(self) -> Optional[str]:
        return self.lines[self.i] if self.i < len(self.lines) else None

    def take(self, expected: Optional[str] = None) -> str:
        line = self.peek()
        if line is None or (expected is not None and line != expected):
            raise PageError(self.i + 1, f"expected {expected!r}, found {line!r}" if expected is not None
                            else "the page ends too early")
        self.i += 1
        return line

    def block_until(self, stop: Optional[str]) -> str:
        """The lines up to the blank line before `stop` (or to the end): a Markdown block as written."""
        start = self.i
        while self.i < len(self.lines) and not (
                self.lines[self.i] == "" and stop is not None and self.i + 1 < len(self.lines)
                and self.lines[self.i + 1] == stop):
            self.i += 1
        block = "\n".join(self.lines[start:self.i])
        if not block.strip() or block.startswith("\n") or block.endswith("\n"):
            raise PageError(start + 1, "an empty or badly delimited section")
        return block

    def fence(self) -> str:
        self.take("```text")
        body = self.take()
        self.take("```")
        return body


def _intro(line: str, framing: Framing, number: int) -> tuple[str, list[str]]:
    for wording in WORDINGS:
        sentence = framing.sentence(wording)
        if sentence is None or "{meanings}" not in sentence:
            continue
        head, tail = sentence.split("{meanings}", 1)
        if line.startswith(head) and line.endswith(tail) and len(line) > len(head) + len(tail):
            body = line[len(head):len(line) - len(tail)]
            return wording, body.split(framing.separator) if wording in ("sequence", "respectively") else [body]
    raise PageError(number, f"the sentence {line!r} is none of the framing's `intro` sentences")


def parse_page(text: str, framing: Framing) -> PageFields:
    """A page's fields; PageError where it breaks the layout."""
    r = _Lines(text)
    title = _TITLE.fullmatch(r.take())
    if title is None:
        raise PageError(1, "the title is not `# ID Category`")
    r.take("")
    r.take(f"## {framing.symptom}")
    r.take("")
    page = PageFields(title.group(1), title.group(2).replace("\\_", "_"), "")
    if r.peek() != "```text":
        page.wording, page.meanings = _intro(r.take(), framing, r.i)
        r.take("")
    page.template = r.fence()
    r.take("")
    labels: list[str] = []
    while r.peek() not in (f"## {framing.cause}", f"## {framing.solution}", None):
        label = r.take()
        r.take("")
        if r.peek() == "```text":
            labels.append(label)
            page.examples.append(r.fence())
            r.take("")
        elif page.note is None and not page.examples:
            page.note = label  # a paragraph in place of the examples
        else:
            raise PageError(r.i - 1, f"a paragraph {label!r} where an example's label was expected")
    _check_labels(labels, framing, r.i)
    page.numbered = bool(labels) and labels[0] != framing.example if labels else None
    if r.peek() == f"## {framing.cause}":
        r.take()
        r.take("")
        page.cause = r.block_until(f"## {framing.solution}")
        r.take("")
    r.take(f"## {framing.solution}")
    r.take("")
    page.solution = r.block_until(None)
    return page


def _check_labels(labels: list[str], framing: Framing, line: int) -> None:
    numbered = bool(labels) and labels[0] != framing.example
    expected = ([framing.example_numbered.replace("{n}", str(n)) for n in range(1, len(labels) + 1)] if numbered
                else [framing.example] * len(labels))
    if labels != expected:
        raise PageError(line, f"the examples' labels {labels} are not the framing's {expected}")


def parse_index(text: str) -> tuple[str, list[tuple[str, str, str]]]:
    """The index's title and its entries (id, category, file), in order."""
    head, _, body = text.partition("\n\n")
    if not head.startswith("# ") or "\n" in head:
        raise PageError(1, "the index starts with `# TITLE` and a blank line")
    entries = []
    line = 3
    for entry in body.rstrip("\n").split("\n\n") if body.strip() else []:
        found = _ENTRY.fullmatch(entry)
        if found is None or bool(found.group(1)) != bool(found.group(5)):
            raise PageError(line, f"the entry {entry!r} is not `- [ID Category](FILE)`")
        entries.append((found.group(2), found.group(3).replace("\\_", "_"), found.group(4)))
        line += entry.count("\n") + 2
    return head[2:], entries


def parse_registry(text: str) -> list[dict]:
    """The entries of a registry source: the JSON in its C++ raw string, `error_info_list`."""
    raw = _RAW_STRING.search(text)
    if raw is None:
        raise PageError(1, 'no raw string R"( ... )" holding the registry\'s JSON')
    line = text.count("\n", 0, raw.start()) + 1
    try:
        data = json.loads(raw.group(1))
    except json.JSONDecodeError as exc:
        raise PageError(line + raw.group(1).count("\n", 0, exc.pos), f"the registry's JSON: {exc.msg}") from None
    entries = data.get("error_info_list") if isinstance(data, dict) else None
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise PageError(line, "the registry's JSON has no list `error_info_list` of entries")
    return entries
