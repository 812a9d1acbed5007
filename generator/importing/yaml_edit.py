"""Edits of catalog files as text: the smallest change that records an import.

Each edit replaces or inserts whole lines (or one node) at positions read from the
composed YAML, so everything an edit does not name keeps its bytes: comments,
blank lines, quoting, the order of keys. Edits are collected per file and applied
together, last first; two edits of one place are a programming error.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterator, Optional

from ruamel.yaml import YAML
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from generator.reading.yaml_source import bad_character, read_document, scalar_type
from generator.importing.page_source import ImportProblem


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


# -- scalars that read back as written ---------------------------------------------------------------------
#
# Every text an import writes comes from upstream (a page's cell, a logged message, a name, a
# tag) and is written where the catalog's loader (generator.reading.yaml_source) reads it back.
# Each writer below proves that it does, as exactly that text, by reading its output with that
# loader before it returns it; a text it cannot write so stops the import before any file is
# written. A plain scalar is used only where that proof holds, else a double-quoted one, in
# which every character a reader of the diff cannot see is an escape.

_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
_FLOW_INDICATORS = frozenset(",[]{}")
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t"}
MAX_PLAIN = 4000  # a longer text is written as a block, or quoted


def shown(char: str) -> bool:
    """Whether a diff shows the character as itself: not a control, format character, line or
    paragraph separator, unassigned or private code point, surrogate, nor a space other than ' '."""
    return char == " " or unicodedata.category(char)[0] not in "CZ"


def double_quoted(text: str) -> str:
    """A double-quoted YAML scalar that reads `text`, escaping whatever a diff would not show."""
    return '"' + "".join(_ESCAPES.get(c) or (c if shown(c) else _escape(c)) for c in text) + '"'


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


# What YAML 1.1 readers (editors, linters) type, though the catalog's YAML 1.2 reads text: quoted too.
_YAML11_WORDS = frozenset(("yes", "no", "true", "false", "null", "on", "off", "y", "n", "~"))
_NUMBER = re.compile(r"[-+]?(\d[\d_]*(\.\d*)?|\.\d+|0x[0-9a-fA-F_]+|0o[0-7_]+)([eE][-+]?\d+)?")


def _plain_candidate(text: str, in_flow: bool) -> bool:
    """A cheap first test; only reading the scalar back decides."""
    return (0 < len(text) <= MAX_PLAIN and text[0] not in _INDICATORS and text == text.strip(" ")
            and all(shown(c) for c in text) and ": " not in text and " #" not in text and not text.endswith(":")
            and not (in_flow and any(c in _FLOW_INDICATORS for c in text))
            and text.lower() not in _YAML11_WORDS and _NUMBER.fullmatch(text) is None)


def _single_quoted(text: str) -> Optional[str]:
    if "\n" in text or not all(shown(c) for c in text):
        return None
    return "'" + text.replace("'", "''") + "'"


def _texts(node: Optional[Node]):
    """What a composed node reads as, texts only: a plain scalar YAML types (a number, a
    boolean, null) is no text and reads as None."""
    if isinstance(node, ScalarNode):
        return node.value if scalar_type(node) == "str" else None
    if isinstance(node, SequenceNode):
        return [_texts(item) for item in node.value]
    if isinstance(node, MappingNode):
        return [(_texts(k), _texts(v)) for k, v in node.value]
    return None


@lru_cache(maxsize=4096)
def _reads(document: str):
    doc, problems = read_document("<written>", document.encode("utf-8", "surrogatepass"))
    return None if problems or doc.root is None else _texts(doc.root)


def _as_value(form: str) -> str:
    return f"k: {form}\n"


def _first_that_reads(forms: list[Optional[str]], wrap, expected, text: str) -> str:
    """The first form that, wrapped into a document, reads back as `expected`; `text` names it
    in the refusal when none does."""
    for form in forms:
        if form is not None and _reads(wrap(form)) == expected:
            return form
    why = bad_character(text)
    shown_text = repr(text) if len(text) <= 80 else repr(text[:77]) + "..."
    raise ImportProblem(f"cannot write {shown_text} into the catalog so that it reads back as the same text"
                        + (f": {why}" if why else ""))


def scalar(text: str) -> str:
    """`text` as a block mapping's key or value: plain where that reads back as the same
    text, else double-quoted."""
    plain = text if _plain_candidate(text, in_flow=False) else None
    return _first_that_reads([plain, double_quoted(text)], _as_value, [("k", text)], text)


def quoted(text: str) -> str:
    """An id, single-quoted as the catalog writes ids ('8.10' is no number), or double-quoted
    when it holds what a diff would not show."""
    return _first_that_reads([_single_quoted(text), double_quoted(text)], _as_value, [("k", text)], text)


def _flow_item(text: str, quote: bool) -> str:
    plain = text if not quote and _plain_candidate(text, in_flow=True) else None
    return _first_that_reads([plain, _single_quoted(text) if quote else None, double_quoted(text)],
                             lambda form: f"[{form}]\n", [text], text)


def flow(values: list[str], quote: bool = False) -> str:
    """A flow sequence of texts (`quote`: each single-quoted, as ids are)."""
    written = "[" + ", ".join(_flow_item(v, quote) for v in values) + "]"
    return _first_that_reads([written], lambda form: form + "\n", list(values), ", ".join(values))


def flow_map(pairs: list[tuple[str, str]], ids: tuple[str, ...] = ()) -> str:
    """A flow mapping of texts; the values of the keys in `ids` single-quoted, as ids are."""
    written = "{" + ", ".join(f"{_flow_item(k, False)}: {_flow_item(v, k in ids)}" for k, v in pairs) + "}"
    return _first_that_reads([written], lambda form: form + "\n", [(k, v) for k, v in pairs],
                             ", ".join(f"{k}: {v}" for k, v in pairs))


def entry(key: str, value: str) -> str:
    """`key: value`, both texts, as one line of a block mapping."""
    return _first_that_reads([f"{scalar(key)}: {scalar(value)}"], lambda form: form + "\n", [(key, value)],
                             f"{key}: {value}")


def text_lines(key: str, text: str, indent: int) -> list[str]:
    """`key: text`; a text of several lines as a literal block where that reads back as the
    same text, else double-quoted."""
    pad = " " * indent
    if "\n" not in text and len(text) <= MAX_PLAIN:
        return [f"{pad}{key}: {scalar(text)}"]
    block = _block(text)
    if block is not None and _reads("k: |-\n" + "".join(f"  {line}\n" if line else "\n" for line in block)) == [
        ("k", text)
    ]:
        return [f"{pad}{key}: |-"] + [f"{pad}  {line}" if line else "" for line in block]
    return [f"{pad}{key}: {_first_that_reads([double_quoted(text)], _as_value, [('k', text)], text)}"]


def _block(text: str) -> Optional[list[str]]:
    """The lines of a literal block, or None when the text is none: a line a diff cannot show
    as it is (a tab, an invisible character, spaces at its ends), or empty lines at its ends."""
    lines = text.split("\n")
    if text != text.strip("\n") or any(line != line.strip(" ") or not all(c != "\t" and shown(c) for c in line)
                                       for line in lines):
        return None
    return lines


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

    def item_indent(self, node: Node) -> str:
        """The indentation of the block sequence item that holds `node` (the column of its `- `)."""
        start = self.line_start(node.start_mark.index)
        line = self.text[start:node.start_mark.index]
        return " " * (len(line) - len(line.lstrip(" ")))

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
