"""Edits of catalog files as text: the smallest change that records an import.

Each edit replaces or inserts whole lines (or one node) at positions read from the
composed YAML, so everything an edit does not name keeps its bytes: comments,
blank lines, quoting, the order of keys. Edits are collected per file and applied
together, last first; two edits of one place are a programming error.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Iterator, Optional

from ruamel.yaml import YAML
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode


def compose(text: str) -> Node:
    return YAML(typ="rt").compose(text)


def get(node: Node, key: str) -> Optional[tuple[Node, Node]]:
    """(key node, value node) of a mapping's key, or None."""
    if isinstance(node, MappingNode):
        for k, v in node.value:
            if isinstance(k, ScalarNode) and k.value == key:
                return k, v
    return None


def items(node: Node) -> list[Node]:
    return list(node.value) if isinstance(node, SequenceNode) else []


def value(node: Node, name: str) -> Node:
    """The value node of a key that the catalog, validated, is known to have."""
    found = get(node, name)
    if found is None:
        raise KeyError(f"line {node.start_mark.line + 1}: no key {name!r}")
    return found[1]


def key(node: Node, name: str) -> Node:
    """The key node of a key that the catalog, validated, is known to have."""
    found = get(node, name)
    if found is None:
        raise KeyError(f"line {node.start_mark.line + 1}: no key {name!r}")
    return found[0]


def pairs(node: Node) -> Iterator[tuple[str, Node, Node]]:
    if isinstance(node, MappingNode):
        for k, v in node.value:
            yield str(k.value), k, v


def scalar(text: str) -> str:
    """A one-line string as YAML writes it: plain where that reads back as the same text,
    else double-quoted (a JSON string is a YAML double-quoted scalar)."""
    plain = (re.fullmatch(r"[^\s\-?:,\[\]{}#&*!|>'\"%@`][^\n]*", text) is not None and not text.endswith((" ", ":"))
             and ": " not in text and " #" not in text and text.lower() not in ("yes", "no", "true", "false", "null",
                                                                                 "on", "off", "y", "n", "~")
             and not re.fullmatch(r"[-+]?(\d[\d_]*(\.\d*)?|\.\d+|0x[0-9a-fA-F_]+|0o[0-7_]+)([eE][-+]?\d+)?", text))
    return text if plain else json.dumps(text, ensure_ascii=False)


def quoted(text: str) -> str:
    """A single-quoted scalar (ids: '8.10' is no number)."""
    return "'" + text.replace("'", "''") + "'"


def flow(values: list[str]) -> str:
    return "[" + ", ".join(values) + "]"


def text_lines(key: str, text: str, indent: int) -> list[str]:
    """`key: text`, a block scalar for a text of several lines."""
    pad = " " * indent
    if "\n" not in text and len(text) < 4000:
        return [f"{pad}{key}: {scalar(text)}"]
    if any(line != line.rstrip() or line.startswith(" ") for line in text.split("\n")) or text != text.strip("\n"):
        return [f"{pad}{key}: {json.dumps(text, ensure_ascii=False)}"]
    return [f"{pad}{key}: |-"] + [f"{pad}  {line}" if line else "" for line in text.split("\n")]


@dataclass
class FileEdit:
    """The pending edits of one file's text."""

    text: str
    splices: list[tuple[int, int, str]] = field(default_factory=list)

    def root(self) -> Node:
        return compose(self.text)

    def line_start(self, offset: int) -> int:
        return self.text.rfind("\n", 0, offset) + 1

    def end_of(self, node: Node) -> int:
        """Where a node's text ends: for a block node, the start of the line after it."""
        end = node.end_mark.index
        start = self.line_start(end)
        if not self.text[start:end].strip():  # the mark sits on the next line, at its indentation
            return start
        if isinstance(node, ScalarNode) and node.style in ("|", ">"):
            return end
        newline = self.text.find("\n", end)
        return len(self.text) if newline < 0 else newline + 1

    def replace(self, node: Node, text: str) -> None:
        """The node's own text (a scalar or a flow collection) replaced."""
        self.splices.append((node.start_mark.index, node.end_mark.index, text))

    def replace_lines(self, first: Node, last: Node, lines: list[str]) -> None:
        """The lines from `first`'s to the end of `last` replaced by `lines`."""
        self.splices.append(
            (self.line_start(first.start_mark.index), self.end_of(last), "".join(line + "\n" for line in lines))
        )

    def insert_before(self, node: Node, lines: list[str]) -> None:
        at = self.line_start(node.start_mark.index)
        self.splices.append((at, at, "".join(line + "\n" for line in lines)))

    def insert_after(self, node: Node, lines: list[str]) -> None:
        at = self.end_of(node)
        self.splices.append((at, at, "".join(line + "\n" for line in lines)))

    def delete_lines(self, first: Node, last: Node) -> None:
        self.replace_lines(first, last, [])

    def result(self) -> str:
        text = self.text
        last_start = len(text) + 1
        ordered = sorted(
            ((start, end, number, new) for number, (start, end, new) in enumerate(self.splices)), reverse=True
        )
        for start, end, _, new in ordered:  # last first; inserts at one place keep the order they were made in
            if end > last_start:
                raise AssertionError(f"overlapping edits at {start}..{end}")  # pragma: no cover - a bug, not input
            text = text[:start] + new + text[end:]
            last_start = start
        return text
