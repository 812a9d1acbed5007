"""Reading a repository source's `page` (editions.yaml): the file's framing and dialect."""
from __future__ import annotations

import re
import string
from typing import Optional

from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from generator.domain.layout import CODE_PLACES, TABLE_STYLES, Block, CodeBlock, PageLayout
from generator.domain.markup import link_problems
from generator.domain.model import RECOVERABLE_VALUES
from generator.reading.fields import Fields

_FIELDS = ("title", "before", "after", "table", "header", "labels", "note", "unclosed", "bom", "level", "blank_after")
_CODE_FIELDS = ("fence", "open", "line", "close", "values")


def read_layout(f: Fields, node: Node, what: str, columns: int, path: str) -> Optional[PageLayout]:
    """A source's `page`; `path`: the file's path in its repository, that its links resolve from."""
    what = f"{what}: page"
    fields = f.mapping(node, what, required=("title", "table", "header"), optional=_FIELDS)
    if fields is None or not all(k in fields for k in ("title", "table", "header")):
        return None
    title = f.text(fields["title"][1], f"{what} title")
    table = f.choice(fields["table"][1], f"{what} table", TABLE_STYLES)
    header = f.text_list(fields["header"][1], f"{what} header")
    if header is not None and len(header) != columns:
        f.error(fields["header"][1], f"{what} header has {len(header)} cells; the page has {columns} columns")
        header = None
    before = _blocks(f, fields.get("before"), f"{what} before")
    after = _blocks(f, fields.get("after"), f"{what} after")
    labels = _labels(f, fields.get("labels"), f"{what} labels")
    note = f.text(fields["note"][1], f"{what} note") if "note" in fields else None
    unclosed = f.text_list(fields["unclosed"][1], f"{what} unclosed") if "unclosed" in fields else []
    bom = _flag(f, fields.get("bom"), f"{what} bom")
    level = _number(f, fields.get("level"), f"{what} level", 1, 6, 1)
    blank_after = _number(f, fields.get("blank_after"), f"{what} blank_after", 0, 9, 0)
    if title is not None and "\n" in title:
        f.error(fields["title"][1], f"{what} title is one line (the heading's text, after its #)")
        title = None
    parts = (title, table, header, before, after, labels, unclosed, bom, level, blank_after)
    if any(p is None for p in parts) or ("note" in fields and note is None):
        return None
    _check_links(f, fields, path, what)  # reported; the layout stays, so that its texts are checked too
    return PageLayout(title, before, after, table, tuple(h for h, _ in header),  # type: ignore[arg-type,union-attr]
                      labels, note, tuple(u for u, _ in unclosed), bom,  # type: ignore[arg-type,union-attr]
                      level, blank_after)  # type: ignore[arg-type]


def _number(f: Fields, pair, what: str, low: int, high: int, default: int) -> Optional[int]:
    """A small whole number within [low, high]: a heading's level (1 the file's title, 2-6 a
    section's heading), or a count of blank lines."""
    if pair is None:
        return default
    value = f.integer(pair[1], what)
    if value is not None and not low <= value <= high:
        f.error(pair[1], f"{what} must be from {low} to {high}, not {value}")
        return None
    return value


def _check_links(f: Fields, fields: dict, path: str, what: str) -> None:
    """Every text of the framing links only where a copied page may (domain.markup.link_problems),
    and no piece of a code block can end it early (what follows would be read as Markdown): a
    line that is a fence, an info string with a backtick or a line break."""
    for key in ("title", "before", "after", "header", "labels", "note"):
        if key not in fields:
            continue
        fences = _fences(fields[key][1])
        for node, in_code in _texts(fields[key][1]):
            text = str(node.value)
            for problem in link_problems(text, (path,)):
                f.error(node, f"{what} {key}: {problem}")
            if in_code and (FENCE.search(text) or node in fences and re.search("[`\n]", text)):
                f.error(node, f"{what} {key}: {text!r} would end its code block early, so that what follows is read "
                              f"as Markdown; write it without a fence (``` or ~~~), an info string without ` or a "
                              f"line break")


FENCE = re.compile(r"^ {0,3}(?:```|~~~)", re.M)  # a line that opens or closes a fenced code block


def _texts(node: Node, in_code: bool = False) -> list[tuple[ScalarNode, bool]]:
    """Every text under a node, in order, and whether it is a piece of a code block."""
    if isinstance(node, ScalarNode):
        return [(node, in_code)]
    if isinstance(node, SequenceNode):
        return [t for item in node.value for t in _texts(item, in_code)]
    if isinstance(node, MappingNode):
        return [t for _, value in node.value for t in _texts(value, True)]
    return []


def _fences(node: Node) -> list[Node]:
    """The info strings (`fence`) of a `before`'s or `after`'s code blocks."""
    blocks = [item for item in node.value if isinstance(item, MappingNode)] if isinstance(node, SequenceNode) else []
    codes = [v for block in blocks for k, v in block.value if k.value == "code" and isinstance(v, MappingNode)]
    return [v for code in codes for k, v in code.value if k.value == "fence"]


def _flag(f: Fields, pair, what: str) -> Optional[bool]:
    if pair is None:
        return False
    value = f.choice(pair[1], what, ("true", "false"))
    return None if value is None else value == "true"


def _labels(f: Fields, pair, what: str) -> Optional[tuple[tuple[str, str], ...]]:
    if pair is None:
        return ()
    found = f.mapping(pair[1], what, optional=RECOVERABLE_VALUES)
    if found is None:
        return None
    words = {key: f.text(value, f"{what} {key}") for key, (_, value) in found.items()}
    return None if any(w is None for w in words.values()) else tuple(words.items())  # type: ignore[arg-type]


def _blocks(f: Fields, pair, what: str) -> Optional[tuple[Block, ...]]:
    if pair is None:
        return ()
    items = f.sequence(pair[1], what)
    if items is None:
        return None
    result: list[Block] = []
    for item in items:
        block = _code(f, item, what) if isinstance(item, MappingNode) else f.text(item, f"{what} paragraph")
        if block is None:
            return None
        result.append(block)
    return tuple(result)


def _code(f: Fields, node: Node, what: str) -> Optional[CodeBlock]:
    outer = f.mapping(node, f"{what} block", required=("code",))
    if outer is None or "code" not in outer:
        return None
    what = f"{what} code"
    fields = f.mapping(outer["code"][1], what, required=("line",), optional=_CODE_FIELDS)
    if fields is None or "line" not in fields:
        return None
    line = f.text(fields["line"][1], f"{what} line")
    if line is not None:
        try:
            parsed = [(name, spec, conversion) for _, name, spec, conversion in string.Formatter().parse(line)
                      if name is not None]
            places = {name if not (spec or conversion) else f"{name} with !{conversion or ''}:{spec or ''}"
                      for name, spec, conversion in parsed}
        except ValueError as error:  # a lone { or }
            f.error(fields["line"][1], f"{what} line is no template ({error}): write {{{{ and }}}} for braces")
            return None
        if not places <= set(CODE_PLACES):
            f.error(fields["line"][1], f"{what} line may name only {{{'}, {'.join(CODE_PLACES)}}}, not "
                                       f"{', '.join(sorted(places - set(CODE_PLACES)))}")
            line = None
    fence = f.text(fields["fence"][1], f"{what} fence", allow_empty=True) if "fence" in fields else ""
    lines = {k: f.text_list(fields[k][1], f"{what} {k}") if k in fields else [] for k in ("open", "close")}
    values = None
    if "values" in fields:
        pair = f.sequence(fields["values"][1], f"{what} values")
        numbers = [f.integer(n, f"{what} values") for n in pair or ()]
        if pair is None or len(numbers) != 2 or None in numbers:
            f.error(fields["values"][1], f"{what} values: give [LOWEST, HIGHEST]")
            return None
        values = (numbers[0], numbers[1])
    if line is None or fence is None or any(v is None for v in lines.values()):
        return None
    return CodeBlock(fence, tuple(t for t, _ in lines["open"]), line,  # type: ignore[union-attr]
                     tuple(t for t, _ in lines["close"]), values)  # type: ignore[arg-type,union-attr]
