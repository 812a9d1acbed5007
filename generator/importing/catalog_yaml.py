"""The catalog's files as `import` reads and writes them: ruamel.yaml's round trip, configured once.

Loaded, a file is a document of CommentedMap and CommentedSeq that keeps its comments, its
quotes and which collections are written in flow style; the import edits that document and
dumps it whole. The configuration writes every committed catalog file back byte for byte
(tests/test_catalog_yaml.py says so), so a file's diff is what the import changed.

Every text an import writes comes from upstream (a page's cell, a logged message, a name, a
tag). It is written plain only where that reads back, under the catalog's own loader
(generator.reading.yaml_source), as exactly that text; else double-quoted, every character a
reader of the diff cannot see written as an escape; a text of several lines as a literal block
where it can be one. A dumped document is read back with that loader before it is returned:
a text it cannot hold stops the import before any file is written.
"""
from __future__ import annotations

import io
import re
import unicodedata
from functools import lru_cache
from typing import Any, Iterable, Optional, Union

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.emitter import RoundTripEmitter
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from ruamel.yaml.error import CommentMark, YAMLError
from ruamel.yaml.scalarstring import (DoubleQuotedScalarString, FoldedScalarString, LiteralScalarString,
                                       SingleQuotedScalarString)
from ruamel.yaml.tokens import CommentToken

from generator.importing.page_source import ImportProblem
from generator.reading.yaml_source import bad_character, parse_int, read_document, scalar_type

Scalar = Union[str, DoubleQuotedScalarString, SingleQuotedScalarString, LiteralScalarString]
MAX_PLAIN = 4000  # a longer text is written as a block, or quoted: plain scalars fold at the width
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t"}


def shown(char: str) -> bool:
    """Whether a diff shows the character as itself: not a control, format character, line or
    paragraph separator, unassigned or private code point, surrogate, nor a space other than ' '."""
    return char == " " or unicodedata.category(char)[0] not in "CZ"


def escaped(text: str) -> str:
    """The inside of a double-quoted scalar that reads `text`: whatever a diff would not show escaped."""
    return "".join(_ESCAPES.get(c) or (c if shown(c) else _escape(c)) for c in text)


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


class _Emitter(RoundTripEmitter):
    """ruamel's round-trip emitter, writing a double-quoted scalar on one line with every
    character a diff does not show escaped (ruamel's own writes U+200B or U+202E as they are)."""

    def write_double_quoted(self, text: Any, split: Any = True) -> None:
        self.write_indicator('"', True)
        data = escaped(text)
        self.column += len(data)
        self.stream.write(data.encode(self.encoding) if self.encoding else data)
        self.write_indicator('"', False)


def _configured() -> YAML:
    yaml = YAML(typ="rt")
    yaml.Emitter = _Emitter
    yaml.preserve_quotes = True
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


CATALOG_YAML = _configured()  # the one instance that reads and writes catalog files


def load(text: str, shown_path: str) -> CommentedMap:
    """A catalog file's document; a file the catalog's loader reads and ruamel's own parser does
    not (`value:<TAB> 0x0`) is refused at PATH:LINE:COL, not with a traceback."""
    try:
        return CATALOG_YAML.load(text)
    except YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"{shown_path}:{mark.line + 1}:{mark.column + 1}" if mark else shown_path
        raise ImportProblem(f"{where}: the import cannot edit this file ({' '.join(str(error).split())[:200]}); "
                            "write the change by hand") from None


def dump(document: Any) -> str:
    """The document's text, proven to read back, under the catalog's loader, as the document."""
    stream = io.StringIO()
    CATALOG_YAML.dump(document, stream)
    text = stream.getvalue()
    read, problems = read_document("<written>", text.encode("utf-8", "surrogatepass"))
    if problems or read.root is None or _read_values(read.root) != plain_values(document):  # pragma: no cover - a bug
        raise ImportProblem("the import would write a catalog file that reads back otherwise than it means; "
                            "write the change by hand")
    return text


def plain_values(value: Any) -> Any:
    """What a document holds: texts, and the kind and value of what is no text, in their collections
    (to compare with what an import means to write, or with what the catalog's loader reads)."""
    if isinstance(value, dict):
        return [(plain_values(k), plain_values(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [plain_values(v) for v in value]
    kind = "str" if isinstance(value, str) else "null" if value is None else "bool" if isinstance(value, bool) \
        else "int" if isinstance(value, int) else "float"
    return value if kind == "str" else (kind, value if kind in ("bool", "int") else None)


def _read_values(node: Node) -> Any:
    """The same, as the catalog's loader reads a composed document."""
    if isinstance(node, MappingNode):
        return [(_read_values(k), _read_values(v)) for k, v in node.value]
    if isinstance(node, SequenceNode):
        return [_read_values(v) for v in node.value]
    kind = scalar_type(node) if isinstance(node, ScalarNode) else "str"
    typed = {"int": parse_int(node.value), "bool": node.value.lower() == "true", "null": None}
    return node.value if kind == "str" else (kind, typed.get(kind))


def _shorten(text: str) -> str:
    return repr(text) if len(text) <= 80 else repr(text[:77]) + "..."


# -- the scalars an import writes ------------------------------------------------------------------------------

# What YAML 1.1 readers (editors, linters) type, though the catalog's YAML 1.2 reads text: quoted too.
_YAML11_WORDS = frozenset(("yes", "no", "true", "false", "null", "on", "off", "y", "n", "~"))
_NUMBER = re.compile(r"[-+]?(\d[\d_]*(\.\d*)?|\.\d+|0x[0-9a-fA-F_]+|0o[0-7_]+)([eE][-+]?\d+)?")
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
_FLOW_INDICATORS = frozenset(",[]{}")


def _holdable(text: str) -> str:
    """The text, or ImportProblem when no catalog text may hold it (a control character)."""
    why = bad_character(text)
    if why:
        raise ImportProblem(f"cannot write {_shorten(text)} into the catalog so that it reads back as the same "
                            f"text: {why}")
    return text


def _plain(text: str, in_flow: bool) -> bool:
    """Whether a plain scalar reads back as the text: a cheap test, then reading it."""
    cheap = (0 < len(text) <= MAX_PLAIN and text[0] not in _INDICATORS and text == text.strip(" ")
             and all(shown(c) for c in text) and ": " not in text and " #" not in text and not text.endswith(":")
             and not (in_flow and any(c in _FLOW_INDICATORS for c in text))
             and text.lower() not in _YAML11_WORDS and _NUMBER.fullmatch(text) is None)
    return cheap and _reads_as_text(f"[{text}]\n" if in_flow else f"k: {text}\n", text)


@lru_cache(maxsize=4096)
def _reads_as_text(document: str, text: str) -> bool:
    read, problems = read_document("<written>", document.encode("utf-8", "surrogatepass"))
    root = read.root
    node = (root.value[0] if isinstance(root, SequenceNode) else root.value[0][1]) if root is not None else None
    return not problems and isinstance(node, ScalarNode) and scalar_type(node) == "str" and node.value == text


def text(value: str, in_flow: bool = False) -> Scalar:
    """A text as a block mapping's key or value (`in_flow`: a flow collection's item), on one
    line: plain where that reads back as the text, else double-quoted."""
    return value if _plain(_holdable(value), in_flow) else DoubleQuotedScalarString(value)


def cell(value: str) -> Scalar:
    """A text that may have several lines (a page's cell, a paragraph): on one line as `text`
    does, a literal block where one reads back as the text, else double-quoted."""
    if "\n" not in _holdable(value) and len(value) <= MAX_PLAIN:
        return text(value)
    lines = value.split("\n")
    if value == value.strip("\n") and all(line == line.strip(" ") and "\t" not in line and all(map(shown, line))
                                          for line in lines):
        return LiteralScalarString(value)
    return DoubleQuotedScalarString(value)


def ident(value: str) -> Scalar:
    """An id, single-quoted as the catalog writes ids ('8.10' is no number), or double-quoted
    when it holds what a diff would not show."""
    if "\n" in _holdable(value) or not all(map(shown, value)):
        return DoubleQuotedScalarString(value)
    return SingleQuotedScalarString(value)


def flow_item(value: str, quote: bool) -> Scalar:
    return ident(value) if quote else text(value, in_flow=True)


def flow(values: Iterable[Any], quote: bool = False) -> CommentedSeq:
    """A flow sequence of texts (`quote`: each single-quoted, as ids are): [a, b]; a value that is
    no text (a number) as it is."""
    sequence = CommentedSeq(flow_item(v, quote) if isinstance(v, str) else v for v in values)
    sequence.fa.set_flow_style()
    return sequence


def flow_map(pairs: Iterable[tuple[str, Any]], ids: tuple[str, ...] = ()) -> CommentedMap:
    """A flow mapping of texts ({a: b}); the values of the keys in `ids` single-quoted, as ids
    are; a value that is no text (a flow mapping, a number) as it is."""
    mapping = CommentedMap((flow_item(k, False), flow_item(v, k in ids) if isinstance(v, str) else v)
                           for k, v in pairs)
    mapping.fa.set_flow_style()
    return mapping


def texts_of(sequence: Any) -> list[str]:
    """The texts of a sequence as written ([] for none)."""
    return [str(v) for v in sequence] if isinstance(sequence, list) else []


# -- edits that keep comments where they belong ----------------------------------------------------------------
#
# ruamel keeps a comment written between two items with the last value of the item before it.
# In the catalog such a comment speaks of what follows it: an item inserted after that value, or
# a key removed from under it, takes the comment along, so that it stays before what it speaks of.


def _after(collection: Any, key: Any) -> tuple[Any, Any, int]:
    """(collection, key or index, slot) where ruamel keeps a comment after an entry's value: with
    the last scalar of a block collection, else with the entry itself."""
    inner = collection[key]
    if isinstance(inner, (CommentedMap, CommentedSeq)) and len(inner) and not inner.fa.flow_style():
        return _after(inner, list(inner)[-1] if isinstance(inner, CommentedMap) else len(inner) - 1)
    return collection, key, 2 if isinstance(collection, CommentedMap) else 0


def _take_comment(collection: Any, key: Any) -> Optional[str]:
    """The comment lines after an entry's value, taken from it (with their indentation)."""
    holder, at, slot = _after(collection, key)
    found = holder.ca.items.get(at)
    if not found or found[slot] is None:
        return None
    token, found[slot] = found[slot], None
    ends_line = token.value.startswith("\n") and not _is_block(holder[at])  # after a one-line value: its end
    body = token.value[1:] if ends_line else token.value
    return " " * (token.column or 0) + body if body.startswith("#") else body


def _give_comment(collection: Any, key: Any, comment: Optional[str]) -> None:
    """Comment lines put after an entry's value (a one-line value's line ends first)."""
    if comment is not None:
        holder, at, slot = _after(collection, key)
        value = comment if _is_block(holder[at]) else "\n" + comment
        holder.ca.items.setdefault(at, [None, None, None, None])[slot] = CommentToken(value, CommentMark(0))


def _is_block(value: Any) -> bool:
    return isinstance(value, (LiteralScalarString, FoldedScalarString))


def insert_item(sequence: CommentedSeq, index: int, item: Any) -> None:
    """An item inserted at `index`; the comment after the item before it moves after it."""
    comment = _take_comment(sequence, index - 1) if index else None
    sequence.insert(index, item)
    _give_comment(sequence, index, comment)


def remove_item(sequence: CommentedSeq, index: int) -> None:
    """An item removed; the comment after it moves after the item before it."""
    comment = _take_comment(sequence, index)
    del sequence[index]
    if index:
        _give_comment(sequence, index - 1, comment)


def insert_key(mapping: CommentedMap, position: int, key: Any, value: Any) -> None:
    """A key inserted at `position`; inserted last, it takes the comment after the last value."""
    comment = _take_comment(mapping, list(mapping)[-1]) if mapping and position >= len(mapping) else None
    mapping.insert(position, key, value)
    _give_comment(mapping, key, comment)


def remove_key(mapping: CommentedMap, key: Any) -> None:
    """A key removed; the comment after its value moves after the value before it."""
    keys = list(mapping)
    comment = _take_comment(mapping, key)
    del mapping[key]
    at = keys.index(key)
    if at:
        _give_comment(mapping, keys[at - 1], comment)


def set_value(collection: Any, key: Any, value: Any) -> None:
    """A key's value (or an item) replaced; the comment after the old one stays after the new one."""
    comment = _take_comment(collection, key)
    collection[key] = value
    _give_comment(collection, key, comment)


def update_mapping(item: CommentedMap, new: CommentedMap) -> CommentedMap:
    """`item` made `new`, key by key, in `new`'s order: a key `new` lacks removed, a new one inserted,
    and only a value that holds otherwise written again, so that what holds the same keeps how it is
    written (its style, its comments)."""
    for key in [k for k in item if k not in new]:
        remove_key(item, key)
    for position, key in enumerate(new):
        if key not in item:
            insert_key(item, position, key, new[key])
        elif _held(item[key]) != _held(new[key]):
            set_value(item, key, new[key])
    return item


def _held(value: Any) -> Any:
    """What a value holds (plain_values), a mapping's keys in one order (its order says nothing)."""
    if isinstance(value, dict):
        return ("map", sorted((str(k), _held(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("seq", [_held(v) for v in value])
    return plain_values(value)


def one_line_width(value: Any) -> int:
    """How many characters a value written on one line takes (a flow sequence's)."""
    return len(dump(CommentedMap([("k", value)]))) - len("k: \n")
