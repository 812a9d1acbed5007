"""HTML parsed as a browser parses it (html5lib), within bounds that keep the work linear.

html5lib checks each tag against the elements still open, so its work is the number of tags
times how deep they nest. Counting the tags as written bounds neither: misnested formatting
(`<b><div></b>`, repeated) makes the parser reopen every `<b>` inside the next block, so that
N such triples nest N deep, and reading 191 KiB of them took three minutes. Here the parser's
own stack of open elements refuses to grow past MAX_DEPTH, and a text with more than MAX_TAGS
tags is refused before it is parsed: the work is at most MAX_TAGS × MAX_DEPTH steps of the
parser, whatever the input.
"""
from __future__ import annotations

import re
from typing import Optional
from xml.etree.ElementTree import Element

from html5lib import treebuilders
from html5lib.html5parser import HTMLParser

MAX_DEPTH = 128  # elements open at once; upstream's pages nest fewer than 20 deep
MAX_TAGS = 50_000  # upstream's largest page has about 1,000
_TAG = re.compile(r"<[A-Za-z/]")
TOO_DEEP = (f"elements nested more than {MAX_DEPTH} deep: no page upstream writes does so, and no browser shows "
            "it so; is this the right file?")
TOO_MANY_TAGS = (f"more than {MAX_TAGS:,} tags: upstream's pages have about a thousand, and reading this many "
                 "would take minutes; is this the right file?")


class TooDeep(Exception):
    """Elements nested more than MAX_DEPTH deep. `marked_line`: the line of the innermost open
    row or cell (data-line), where one is; `parser_line`: the parser's line in the HTML."""

    def __init__(self, marked_line: Optional[int]):
        super().__init__(marked_line)
        self.marked_line = marked_line
        self.parser_line = 1


class TooManyTags(Exception):
    """More than MAX_TAGS tags, the first past the limit at `offset` of the text."""

    def __init__(self, offset: int):
        super().__init__(offset)
        self.offset = offset


class _OpenElements(list):
    """html5lib's stack of open elements, which grows only by append and insert."""

    def append(self, element) -> None:
        self._room()
        super().append(element)

    def insert(self, index, element) -> None:  # type: ignore[override]
        self._room()
        super().insert(index, element)

    def _room(self) -> None:
        if len(self) >= MAX_DEPTH:
            raise TooDeep(_marked_line(self))


def _marked_line(stack: list) -> Optional[int]:
    """The line of the innermost open element that carries one (data-line: rows and cells)."""
    for element in reversed(stack):
        line = (getattr(element, "attributes", None) or {}).get("data-line")
        if line and line.isdigit():
            return int(line)
    return None


_EtreeBuilder = treebuilders.getTreeBuilder("etree")


class _BoundedBuilder(_EtreeBuilder):  # type: ignore[misc, valid-type]
    def reset(self) -> None:
        super().reset()
        self.openElements = _OpenElements()


_WRITTEN_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)")
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())


def too_deep(source: str) -> Optional[int]:
    """The line where the source's tags first nest deeper than MAX_DEPTH, or None: counted from
    the tags as written (an end tag closes everything opened since its start tag), before any
    parsing and at the exact line. The parser can still build deeper from misnested tags; its
    own bound (parse_html) stops that."""
    stack: list[str] = []
    open_names: dict[str, int] = {}  # how many of each name the stack holds
    for match in _WRITTEN_TAG.finditer(source):
        name = match.group(2).lower()
        if not match.group(1):
            if name not in _VOID:
                stack.append(name)
                open_names[name] = open_names.get(name, 0) + 1
                if len(stack) > MAX_DEPTH:
                    return source.count("\n", 0, match.start()) + 1
        elif open_names.get(name):
            while True:
                closed = stack.pop()
                open_names[closed] -= 1
                if closed == name:
                    break
    return None


def refusal(error: Exception, html: str) -> tuple[int, str]:
    """(line, message) of a parse refused past a bound, for a page that is its own HTML."""
    if isinstance(error, TooManyTags):
        return html.count("\n", 0, error.offset) + 1, TOO_MANY_TAGS
    return getattr(error, "parser_line", 1), TOO_DEEP


def parse_html(html: str) -> Element:
    """The document tree a browser builds from `html`; TooManyTags (counted before any parsing),
    or TooDeep."""
    for count, match in enumerate(_TAG.finditer(html), 1):
        if count > MAX_TAGS:
            raise TooManyTags(match.start())
    parser = HTMLParser(tree=_BoundedBuilder, namespaceHTMLElements=False)
    try:
        return parser.parse(html)
    except TooDeep as deep:
        deep.parser_line = parser.tokenizer.stream.position()[0]
        raise
