"""Readers of upstream's C/C++ files: the binding's constants, registered messages, and header
constants with their macros."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Optional, Sequence

from generator.domain.model import ValueLayout
from generator.upstream.files import Unreadable


# -- the binding ------------------------------------------------------------------------------

# Every pattern here stops at the first character that cannot be part of its match (a
# semicolon, a parenthesis, the end of a line), so that no attempt scans the rest of the
# file: each reader is linear in the file's size.
# The expression runs to the first parenthesis and is trimmed after: a lazy `[^;()]*?\s*\)`
# tried every split of a run of spaces (quadratic), as `[ \t]+\(?[ \t]*` did in a #define.
_BIND = re.compile(r'm\.attr\(\s*"(?P<name>\w+)"\s*\)\s*=\s*py::int_\((?P<expr>[^;()]*)\)\s*;')
_QUALIFIED = re.compile(r"^(?:[A-Za-z_]\w*::)*[A-Za-z_]\w*$")


@dataclass(frozen=True)
class Binding:
    name: str  # the Python-side constant: kLLMTimeout
    expression: str  # what it is bound to: ge::LLM_TIMEOUT, ACL_ERROR_RT_DEVICE_MEM_ERROR
    line: int


def read_binding(source: str) -> tuple[list[Binding], list[Unreadable]]:
    """Every `m.attr("kX") = py::int_(NAME)` whose NAME is a (qualified) identifier."""
    code = strip_comments(source)
    lines = LineIndex(code)
    bindings = [Binding(m["name"], m["expr"].strip(), lines.line(m.start())) for m in _BIND.finditer(code)
                if _QUALIFIED.fullmatch(m["expr"].strip())]
    problems = [] if bindings else [Unreadable(1, 'no `m.attr("NAME") = py::int_(CONSTANT)` bindings in this file')]
    return bindings, problems


# -- registered messages ------------------------------------------------------------------------

# GE_ERRORNO_EXTERNAL(LLM_TIMEOUT, "Process timeout."); the message is a C string literal
_MESSAGE = re.compile(r'\b(?P<macro>GE_ERRORNO_EXTERNAL|REGISTER_ERROR_MESSAGE)\s*\(\s*(?P<name>[A-Za-z_]\w*)\s*,\s*'
                      r'"(?P<text>(?:[^"\\\n]|\\.){0,1000})"\s*\)')


@dataclass(frozen=True)
class Message:
    name: str  # the code's C name
    text: str
    line: int


def read_messages(source: str) -> tuple[list[Message], list[Unreadable]]:
    """Every `GE_ERRORNO_EXTERNAL(NAME, "message")`: the message upstream logs for a code."""
    code = strip_comments(source)
    lines = LineIndex(code)
    found = [Message(m["name"], _unescape_c(m["text"]), lines.line(m.start())) for m in _MESSAGE.finditer(code)]
    problems = [] if found else [Unreadable(1, 'no `GE_ERRORNO_EXTERNAL(NAME, "message")` registrations in this file')]
    return found, problems


def _unescape_c(text: str) -> str:
    return re.sub(r'\\(["\\?\'])', r"\1", text).replace("\\n", "\n").replace("\\t", "\t")


# -- C/C++ headers ----------------------------------------------------------------------------

# A declared type is a few words (`unsigned long long int`), none of them `const` or
# `constexpr`, which start a declaration of their own: unbounded, a `const x` that declares
# nothing made each attempt read on to the end of the file.
_CONSTANT = re.compile(
    r"\b(?:static\s+)?(?:constexpr|const)\s+(?P<type>(?:(?!(?:constexpr|const)\b)[\w:]+\s+){1,8}?)"
    r"(?P<name>[A-Za-z_]\w*)\s*=\s*"
    r"(?P<value>0[xX][0-9a-fA-F]+|\d+)[uUlL]*\s*;")
_BLANK = r"[ \t\f\v\r]"  # white space within one line
_DEFINE = re.compile(rf"^{_BLANK}*#{_BLANK}*define{_BLANK}+(?P<name>[A-Za-z_]\w*){_BLANK}+(?:\({_BLANK}*)?"
                     rf"(?P<value>0[xX][0-9a-fA-F]+|\d+)[uUlL]*{_BLANK}*(?:\){_BLANK}*)?$", re.M)


@dataclass(frozen=True)
class Constant:
    name: str
    namespace: Optional[str]
    value: Optional[int]  # None: a macro whose arguments cannot be read
    line: int
    type: str  # the declared type (Status), "#define", or the macro's name
    message: Optional[str] = None  # the text a macro registers with the value (GE_ERRORNO's desc)

    @property
    def qualified(self) -> str:
        return f"{self.namespace}::{self.name}" if self.namespace else self.name


def read_header(source: str, layouts: Sequence[ValueLayout] = ()) -> tuple[list[Constant], list[Unreadable]]:
    """Constants declared as constexpr/const, #define, or one of the layouts' macros."""
    code = strip_comments(source)
    lines, spaces = LineIndex(code), Namespaces(code)
    constants: list[Constant] = []
    problems: list[Unreadable] = []
    for match in _CONSTANT.finditer(code):
        constants.append(Constant(match["name"], spaces.at(match.start()), _number(match["value"]),
                                  lines.line(match.start()), " ".join(match["type"].split())))
    for match in _DEFINE.finditer(code):
        constants.append(Constant(match["name"], None, _number(match["value"]), lines.line(match.start()), "#define"))
    for layout in layouts:
        # the arguments: anything but a semicolon, with parentheses one level deep
        for match in re.finditer(rf"\b{re.escape(layout.macro)}\s*\((?P<args>(?:[^;()]|\([^;()]*\))*)\)\s*;", code):
            constant, problem = _macro(match, lines, spaces, layout)
            if constant is not None:
                constants.append(constant)
            if problem is not None:
                problems.append(problem)
    if not constants and not problems:
        problems.append(Unreadable(1, "no status-code constants in this file"))
    return sorted(constants, key=lambda c: c.line), problems


def _macro(match: re.Match, lines: LineIndex, spaces: Namespaces,
           layout: ValueLayout) -> tuple[Optional[Constant], Optional[Unreadable]]:
    """GE_ERRORNO_DEFINE(0b01, 0b01, 0b000, 8, 11, NAME, 1): every argument shifted into place."""
    line = lines.line(match.start())
    args = _arguments(match["args"])
    if len(args) != len(layout.arguments):
        return None, Unreadable(
            line, f"{layout.macro} has {len(args)} arguments here; the layout names {len(layout.arguments)}"
        )
    values: dict[str, int] = {}
    name = message = None
    for label, arg in zip(layout.arguments, args):
        if label == "name":
            name = arg
            continue
        if label == "message":
            message = _c_string(arg)
            if message is None:
                return None, Unreadable(line, f"{layout.macro}: argument message = {arg!r} is not a string literal")
            continue
        number = parse_c_int(arg)
        if number is None:
            return None, Unreadable(line, f"{layout.macro}: argument {label} = {arg!r} is not a number")
        values[label] = number
    if name is None or not re.fullmatch(r"[A-Za-z_]\w*", name):
        return None, Unreadable(line, f"{layout.macro}: the name argument {name!r} is not an identifier")
    return Constant(name, spaces.at(match.start()), layout.compute(values), line, layout.macro, message), None


def _arguments(text: str) -> list[str]:
    """A macro's arguments, split at commas outside string literals and parentheses."""
    args, current, depth, quoted = [], "", 0, False
    i = 0
    while i < len(text):
        ch = text[i]
        if quoted:
            current += ch
            if ch == "\\" and i + 1 < len(text):
                current += text[i + 1]
                i += 1
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted, current = True, current + ch
        elif ch == "(":
            depth, current = depth + 1, current + ch
        elif ch == ")":
            depth, current = depth - 1, current + ch
        elif ch == "," and depth == 0:
            args.append(current.strip())
            current = ""
        else:
            current += ch
        i += 1
    args.append(current.strip())
    return args


_C_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'", "0": "\0"}


def _c_string(arg: str) -> Optional[str]:
    """The text of a C string literal ("success"), None when the argument is not one."""
    match = re.fullmatch(r'"((?:[^"\\]|\\.)*)"', arg)
    if match is None:
        return None
    return re.sub(r"\\(.)", lambda m: _C_ESCAPES.get(m.group(1), m.group(1)), match.group(1))


def parse_c_int(text: str) -> Optional[int]:
    match = re.fullmatch(r"(0[bB][01]+|0[xX][0-9a-fA-F]+|0[0-7]*|[1-9]\d*)[uUlL]*", text.strip())
    if not match:
        return None
    body = match.group(1)
    if body[:2] in ("0b", "0B"):
        return int(body[2:], 2)
    if body[:2] in ("0x", "0X"):
        return int(body[2:], 16)
    return int(body, 8) if len(body) > 1 and body.startswith("0") else _number(body)


def strip_comments(source: str) -> str:
    """Comments blanked out, keeping every newline so that lines stay true. A comment left
    open runs to the end of the file, as a compiler reads it."""
    def blank(match: re.Match) -> str:
        return re.sub(r"[^\n]", " ", match.group())
    return _LITERAL_OR_COMMENT.sub(lambda m: m.group() if m.group()[0] in "\"'" else blank(m), source)


# A string or character literal runs to its closing quote or, left open, to the end of its
# line: each match starts where the one before ended, so no character is read twice. (A string
# had to close: a line of `"\"\"\"...` left open was rescanned from every quote, 53 s for 40 KB.)
# A character literal ('"') is one so that its quote opens no string.
_LITERAL_OR_COMMENT = re.compile(r'"(?:\\.|[^"\\\n])*"?|\'(?:\\.|[^\'\\\n])*\'?|/\*(?:.*?\*/|.*)|//[^\n]*', re.S)


class LineIndex:
    """The line of any offset of a text, by bisection over the offsets lines start at."""

    def __init__(self, text: str):
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)


class Namespaces:
    """The C++ namespace in effect at any offset of a text (comments stripped), from one pass
    over its braces: `namespace a { namespace b {` opens a::b, a `{` of anything else opens an
    unnamed scope, `}` closes the innermost."""

    def __init__(self, code: str):
        self.offsets: list[int] = [0]
        self.names: list[Optional[str]] = [None]
        stack: list[Optional[str]] = []  # the qualified namespace inside each open brace
        for match in re.finditer(r"\bnamespace\s+([\w:]+)\s*\{|\{|\}", code):
            current = stack[-1] if stack else None
            if match.group(1):
                stack.append(f"{current}::{match.group(1)}" if current else match.group(1))
            elif match.group() == "{":
                stack.append(current)
            elif stack:
                stack.pop()
            else:
                continue
            self.offsets.append(match.end())
            self.names.append(stack[-1] if stack else None)

    def at(self, offset: int) -> Optional[str]:
        return self.names[bisect.bisect_right(self.offsets, offset) - 1]


def _number(text: str) -> Optional[int]:
    """A literal's value; None for a decimal too long for int() (thousands of digits)."""
    try:
        return int(text, 0)
    except ValueError:
        return None


def is_status(constant: Constant, layouts: tuple[ValueLayout, ...]) -> bool:
    """Whether a header constant is a status code: declared by one of the family's value
    macros (GE_ERRORNO_DEFINE) or with a type named Status."""
    if any(constant.type == layout.macro for layout in layouts):
        return True
    return constant.type.split()[-1].split("::")[-1] == "Status"
