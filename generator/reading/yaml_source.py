"""Strict YAML reading: composes node trees with libyaml and types scalars itself.

Why not a YAML loader: loaders construct objects (tags can run code), accept
duplicate keys, expand aliases (billion laughs) and read `8.10` as 8.1. Here
libyaml (through ruamel.yaml's C parser) only composes nodes, which keep their
line and column; this module then refuses tags, aliases, bad bytes and control
characters, and the catalog layer types each scalar for the field it fills.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

try:  # libyaml; the pure-Python composer is the same API, only slower.
    from ruamel.yaml.cyaml import CBaseLoader as _Composer
except ImportError:  # pragma: no cover - ruamel.yaml.clib is a pinned dependency
    from ruamel.yaml.loader import BaseLoader as _Composer  # type: ignore[assignment]


if not (_Composer.yaml_implicit_resolvers or _Composer.yaml_path_resolvers):
    class _Composer(_Composer):  # type: ignore[no-redef]
        """The base loader's composer, answering its resolver's questions at once: with no
        implicit and no path resolvers (a base loader has none), every node gets its
        kind's default tag. Asked for each of a large catalog's 750,000 nodes, the
        general answer cost a tenth of the reading."""

        def resolve(self, kind, value, implicit):
            return self.DEFAULT_SCALAR_TAG if kind is ScalarNode else (
                self.DEFAULT_SEQUENCE_TAG if kind is SequenceNode else self.DEFAULT_MAPPING_TAG)

        def descend_resolver(self, current_node, current_index) -> None:
            pass

        def ascend_resolver(self) -> None:
            pass

from generator.core.problems import Pos, Problem

_STD = "tag:yaml.org,2002:"
_DEFAULT_TAGS = {ScalarNode: _STD + "str", SequenceNode: _STD + "seq", MappingNode: _STD + "map"}

# YAML 1.2 core schema, plus the 1.1 forms people still write (1_000, 0o17).
_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
_INT = re.compile(r"^[-+]?(?:[0-9][0-9_]*|0o[0-7_]+|0x[0-9a-fA-F_]+)$")
_FLOAT = re.compile(
    r"^(?:[-+]?(?:\.[0-9]+|[0-9][0-9_]*(?:\.[0-9_]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)
# Category Cc (C0 and C1 controls) but newline and tab; surrogates; non-characters.
_FORBIDDEN = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
# In the raw file: the same, but CR is a line break there (CRLF files are fine).
_FORBIDDEN_RAW = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


@dataclass(frozen=True)
class Document:
    """One parsed YAML file: its path (as shown in messages) and root node."""

    path: str
    root: Node | None

    def pos(self, node: Node) -> Pos:
        mark = node.start_mark
        return Pos(self.path, mark.line + 1, mark.column + 1)


_TYPED_START = frozenset("~nNtTfF0123456789+-.")


def scalar_type(node: ScalarNode) -> str:
    """'str', 'int', 'float', 'bool' or 'null', as YAML 1.2 would read it."""
    if node.style:  # quoted or block: always text
        return "str"
    text = node.value
    if text and text[0] not in _TYPED_START:  # most texts: no other type starts so
        return "str"
    for name, pattern in (("null", _NULL), ("bool", _BOOL), ("int", _INT), ("float", _FLOAT)):
        if pattern.match(text):
            return name
    return "str"


MAX_DIGITS = 40  # far beyond any status code; Python refuses to read numbers of 4,300+ digits


def parse_int(text: str) -> int | None:
    """The number a YAML integer scalar writes, or None when it has no digits or too many."""
    text = text.replace("_", "")
    sign = -1 if text.startswith("-") else 1
    body = text.lstrip("+-")
    base = 16 if body.startswith(("0x", "0X")) else 8 if body.startswith("0o") else 10
    digits = body[2:] if base != 10 else body
    if not digits or len(digits) > MAX_DIGITS:
        return None
    try:
        return sign * int(digits, base)
    except ValueError:
        return None


def read_document(path: str, data: bytes) -> tuple[Document, list[Problem]]:
    """Parse bytes into a Document; problems are returned, never raised."""
    text, problems = _decode(path, data)
    if not problems:
        problems = _raw_characters(path, text)
    if not problems and _may_hide_hazards(text):
        problems = _event_hazards(path, text)
    if problems:
        return Document(path, None), problems
    try:
        loader = _Composer(text)
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
    except MarkedYAMLError as exc:
        return Document(path, None), [_yaml_problem(path, exc, text)]
    except YAMLError as exc:  # errors without a mark
        return Document(path, None), [Problem(Pos(path), "YAML error: " + " ".join(str(exc).split()))]
    doc = Document(path, root)
    return doc, list(_scan(doc, root)) if root is not None and _may_hold_node_hazards(text) else []


MAX_DEPTH = 64  # a catalog nests about 6 deep; libyaml's composer recurses and would crash on 50,000
_DEEP_BLOCK = re.compile(r"^[ \t?:-]{%d,}" % (MAX_DEPTH + 1), re.M)
_BRACKETS = re.compile(r"[\[\]{}]")
# A tag or an alias starts a token with ! or *; a control character can only come
# from an escape, which needs a backslash. Without any of these, _scan finds nothing.
_NODE_HAZARD = re.compile(r"(?:^|[\s,\[{:-])[!*]|\\", re.M)


def _may_hold_node_hazards(text: str) -> bool:
    """A cheap over-estimate: might a node carry a tag, be an alias, or hold an escaped control character?"""
    if "!" not in text and "*" not in text and "\\" not in text:
        return False
    return _NODE_HAZARD.search(text) is not None


_TAG = re.compile(r"(?:^|[\s,\[{:-])!", re.M)


def _may_hide_hazards(text: str) -> bool:
    """A cheap over-estimate: might the file nest too deep, hold an anchor, or a tag (a tag that
    names a node's own kind, `!!str`, leaves no trace on the node)?

    Block nesting needs indentation or compact "- - -" on one line; flow
    nesting needs brackets. Both bounds are computed at C speed and only an
    alarm pays for the exact event scan below.
    """
    if "&" in text or ("!" in text and _TAG.search(text)):
        return True
    if _DEEP_BLOCK.search(text):
        return True
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False
    depth = 0
    for match in _BRACKETS.finditer(text):
        if match.group() in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif depth:
            depth -= 1
    return False


def _event_hazards(path: str, text: str) -> list[Problem]:
    """Anchors, tags, and nesting deeper than MAX_DEPTH, found on libyaml's events (which do not recurse)."""
    try:
        from _ruamel_yaml import CParser
    except ImportError:  # pragma: no cover - ruamel.yaml.clib is a pinned dependency
        return []
    parser = CParser(text)
    problems: list[Problem] = []
    depth = 0
    try:
        while True:
            event = parser.get_event()
            kind = type(event).__name__
            if event is None or kind == "StreamEndEvent":
                break
            mark = event.start_mark
            pos = Pos(path, mark.line + 1, mark.column + 1)
            if getattr(event, "anchor", None) is not None and kind != "AliasEvent":
                problems.append(
                    Problem(pos, f"anchors (&{event.anchor}) are not allowed: write the value out, without the anchor")
                )
            if getattr(event, "tag", None) is not None:
                problems.append(Problem(pos, f"tags are not allowed (found {_short_tag(event.tag)}); remove it"))
            if kind in ("SequenceStartEvent", "MappingStartEvent"):
                depth += 1
                if depth > MAX_DEPTH:
                    return problems + [
                        Problem(pos, f"the file nests deeper than {MAX_DEPTH} levels; a catalog needs about 6")
                    ]
            elif kind in ("SequenceEndEvent", "MappingEndEvent"):
                depth -= 1
    except MarkedYAMLError as exc:
        return problems + [_yaml_problem(path, exc, text)]
    except YAMLError as exc:
        return problems + [Problem(Pos(path), "YAML error: " + " ".join(str(exc).split()))]
    return problems


def _decode(path: str, data: bytes) -> tuple[str, list[Problem]]:
    if data.startswith(b"\xef\xbb\xbf"):
        return "", [Problem(Pos(path), "the file starts with a byte-order mark; save it as UTF-8 without BOM")]
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        col = len(data[line_start:exc.start].decode("utf-8", "replace")) + 1
        byte = data[exc.start]
        return "", [Problem(Pos(path, line, col), f"invalid UTF-8 (byte 0x{byte:02X}); save the file as UTF-8")]


# Line breaks that YAML reads and a reviewer's diff does not show: a text holding one gains
# keys nobody sees. A lone CR is one too (CRLF is a plain line end); a BOM past the start is
# invisible and YAML skips it at the start of a line.
_HIDDEN_RAW = re.compile(r"[\u2028\u2029\ufeff]|\r(?!\n)")
_HIDDEN_NAMES = {
    "\u2028": "line separator U+2028 in the file: YAML reads it as a line break where a diff shows none",
    "\u2029": "paragraph separator U+2029 in the file: YAML reads it as a line break where a diff shows none",
    "\r": "carriage return U+000D without a newline after it: YAML reads it as a line break where a diff shows none",
    "\ufeff": "byte-order mark U+FEFF inside the file: it is invisible, and YAML skips it at the start of a line",
}


def _raw_characters(path: str, text: str) -> list[Problem]:
    """Characters YAML refuses in the stream itself, or reads as line breaks a diff does not
    show, found here so that their place is exact (lines counted as a diff counts them)."""
    found = [m for m in (_FORBIDDEN_RAW.search(text), _HIDDEN_RAW.search(text)) if m is not None]
    if not found:
        return []
    match = min(found, key=lambda m: m.start())
    line = text.count("\n", 0, match.start()) + 1
    col = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
    code = ord(match.group())
    escape = f"write \\u{code:04x} in a double-quoted text if it is meant"
    if match.re is _HIDDEN_RAW:
        fix = "save the file with \\n line ends" if match.group() == "\r" else f"remove it, or {escape}"
        message = f"{_HIDDEN_NAMES[match.group()]}; {fix}"
    else:
        message = f"control character U+{code:04X} in the file; remove it ({escape})"
    return [Problem(Pos(path, line, col), message)]


# What libyaml's messages mean in this catalog, and how to fix the line they point at.
_YAML_HINTS = (
    (
        ("tab character", "'\\t'", "\t"),
        "YAML indents with spaces, never tabs: replace the tab on this line with spaces",
    ),
    (
        ("expected '-' indicator", "expected <block end>", "did not find expected key"),
        "this line is indented differently from the lines around it: indent it as its siblings are "
        "(each level two spaces deeper than its parent)",
    ),
    (
        ("mapping values are not allowed",),
        "a `key: value` is indented deeper than the value above it, or a plain text holds `: `: indent the line as its "
        "siblings are, or put the text in quotes",
    ),
    (("could not find expected ':'",), "a `key: value` lacks its colon, or a quoted text runs on: close the quote"),
    (
        ("found unexpected end of stream", "found unexpected end of file"),
        "a quote or a bracket opened here is never closed",
    ),
    (
        ("found undefined alias", "found character '*'"),
        "`*` starts an alias: put a text that begins with `*` in quotes",
    ),
    (
        ("found character '@'", "found character '`'"),
        "`@` and `` ` `` cannot begin a plain text: put the text in quotes",
    ),
    (("found character '%'",), "`%` cannot begin a plain text: put the text in quotes"),
)


def _yaml_problem(path: str, exc: MarkedYAMLError, text: str = "") -> Problem:
    mark = exc.problem_mark or exc.context_mark
    run_on = _run_on_quote(text, mark.line) if mark and text else None
    if run_on is not None:
        start, quote = run_on
        return Problem(Pos(path, start.line + 1, start.column + 1),
                       f"YAML syntax error: the text quoted here with {quote} runs on to line {mark.line + 1}, where "
                       f"the next {quote} closes it; close its quote on this line")
    what = " ".join(" ".join(x.split()) for x in (exc.context, exc.problem) if x) or "invalid YAML"
    raw = str(exc)
    hint = next((h for needles, h in _YAML_HINTS if any(n in raw or n in what for n in needles)), None)
    pos = Pos(path, mark.line + 1, mark.column + 1) if mark else Pos(path)
    return Problem(pos, f"YAML syntax error: {what}" + (f"; {hint}" if hint else ""))


def _run_on_quote(text: str, line: int):
    """(its start mark, its quote) of a quoted text that starts on an earlier line and ends on
    `line` (0-based), where the parser stopped: a quote left open reads the lines after it as
    its text, to the next quote, and the error is reported there. None when there is none."""
    from ruamel.yaml.tokens import ScalarToken

    scanner, found = _Composer(text), None
    try:
        while (token := scanner.get_token()) is not None and token.start_mark.line <= line:
            if isinstance(token, ScalarToken) and token.style in ('"', "'") and \
                    token.start_mark.line < token.end_mark.line == line:
                found = (token.start_mark, token.style)
    except YAMLError:
        pass
    finally:
        scanner.dispose()
    return found


def _scan(doc: Document, root: Node):
    """Refuse what no field accepts: tags, anchors/aliases, control characters."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            yield Problem(doc.pos(node), "aliases (*name) are not allowed: write the value out")
            continue
        seen.add(id(node))
        if node.tag != _DEFAULT_TAGS[type(node)]:
            yield Problem(doc.pos(node), f"tags are not allowed (found {_short_tag(node.tag or '')}); remove it")
            continue
        if isinstance(node, ScalarNode):
            bad = bad_character(node.value)
            if bad is not None:
                yield Problem(doc.pos(node), bad)
        elif isinstance(node, SequenceNode):
            stack.extend(reversed(node.value))
        else:
            for key, value in reversed(node.value):
                stack.extend((value, key))


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_STD):] if tag.startswith(_STD) else tag


def bad_character(text: str) -> str | None:
    """What no catalog text may hold (a control character, a surrogate, a non-character), or None."""
    match = _FORBIDDEN.search(text)
    if match is None:
        return None
    return (
        f"control character U+{ord(match.group()):04X} at offset {match.start()} of this text; "
        "only newline and tab are allowed (outputs such as HTML and C strings cannot carry it)"
    )
