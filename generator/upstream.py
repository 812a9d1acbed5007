"""Readers of upstream's source files: the Python module that defines the codes, the
pybind binding that gives them values, and the C/C++ headers that declare them.

Nothing is imported or executed; a file that cannot be read yields an
`Unreadable` with its line instead of an exception. Every reader is linear in the
size of its file, and an upstream file is read only if it is a regular file of at
most MAX_FILE_BYTES (upstream's largest page is tens of kilobytes).
"""
from __future__ import annotations

import ast
import bisect
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence, Union

from generator.model import ValueLayout


MAX_FILE_BYTES = 4 * 1024 * 1024  # 4 MiB
TOO_LARGE = f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB, the most an upstream file may be"


@dataclass(frozen=True)
class Unreadable:
    line: int
    message: str


class UnreadableFile(Exception):
    """An upstream file that is not read: what is wrong with it, and the line where."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line, self.message = line, message


def read_file(path: Path) -> str:
    """An upstream file's text: a regular file of at most MAX_FILE_BYTES, in UTF-8. Opened
    without waiting (a FIFO is refused, not waited on), and never read past the limit
    (/dev/zero is refused, not read until memory runs out)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as error:
        raise UnreadableFile(1, error.strerror or str(error)) from None
    with os.fdopen(fd, "rb") as handle:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise UnreadableFile(1, "not a regular file (a device, a pipe or a socket): give the file itself")
        try:
            data = handle.read(MAX_FILE_BYTES + 1)
        except OSError as error:
            raise UnreadableFile(1, error.strerror or str(error)) from None
    return decode(data)


def decode(data: bytes) -> str:
    """The text of an upstream file's bytes; refused when too large or not UTF-8, at the line
    of the first byte that is not."""
    if len(data) > MAX_FILE_BYTES:
        raise UnreadableFile(1, TOO_LARGE)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise UnreadableFile(line, f"not UTF-8 text: byte 0x{data[error.start]:02X} at byte {column} of the line") from None


@dataclass(frozen=True)
class Reference:
    """A value written as another module's constant: llm_wrapper.kLLMTimeout."""

    module: str
    name: str


@dataclass(frozen=True)
class Member:
    name: str
    value: Union[int, Reference, None]  # None: an expression that is neither a number nor a reference
    line: int


@dataclass(frozen=True)
class MapEntry:
    """One entry of upstream's code_2_status map: `llm_wrapper.kLLMTimeout: LLMStatusCode.LLM_TIMEOUT`."""

    key: Union[int, Reference, None]
    member: str
    line: int


@dataclass
class PythonSource:
    members: list[Member] = field(default_factory=list)  # in the order they are declared
    exported: list[tuple[str, int]] = field(default_factory=list)  # names a constants module imports or lists in __all__
    mapping: list[MapEntry] = field(default_factory=list)  # code_2_status's map, entry by entry
    problems: list[Unreadable] = field(default_factory=list)
    bases: tuple[str, ...] = ()  # the class's base classes, as written (Enum, IntEnum)
    line: int = 0  # of the class statement


def read_python(source: str, class_name: Optional[str]) -> PythonSource:
    """The members of `class class_name`, or (class_name None) the names a package exports."""
    result = PythonSource()
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError) as error:
        result.problems.append(Unreadable(getattr(error, "lineno", None) or 1, f"Python syntax error: {getattr(error, 'msg', error)}"))
        return result
    except (RecursionError, MemoryError):  # an expression of a million terms, a million parentheses
        result.problems.append(Unreadable(1, "an expression nested too deeply to parse (no upstream source is): "
                                             "is this the right file?"))
        return result
    if class_name is None:
        result.exported = _exported(tree)
        if not result.exported:
            result.problems.append(Unreadable(1, "no names are imported or listed in __all__ in this file"))
        return result
    classes = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == class_name]
    if not classes:
        result.problems.append(Unreadable(1, f"no `class {class_name}` in this file"))
        return result
    result.bases = tuple(ast.unparse(base) for base in classes[0].bases)
    result.line = classes[0].lineno
    for statement in classes[0].body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
            name = statement.targets[0].id
            if not name.startswith("_"):
                result.members.append(Member(name, _value(statement.value), statement.lineno))
    result.mapping = _code_map(tree, class_name)
    return result


def _value(node: ast.AST) -> Union[int, Reference, None]:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return Reference(node.value.id, node.attr)
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _code_map(tree: ast.Module, class_name: str) -> list[MapEntry]:
    """A module-level dict whose values are all `Class.MEMBER`: upstream's code_2_status map."""
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Dict) and statement.value.values:
            values = statement.value.values
            attributes = [v for v in values if isinstance(v, ast.Attribute) and isinstance(v.value, ast.Name)
                          and v.value.id == class_name]
            if len(attributes) == len(values):
                return [MapEntry(_value(k), v.attr, k.lineno) for k, v in zip(statement.value.keys, attributes) if k is not None]
    return []


def _exported(tree: ast.Module) -> list[tuple[str, int]]:
    names: dict[str, int] = {}
    for statement in tree.body:
        if isinstance(statement, ast.ImportFrom):
            for alias in statement.names:
                names.setdefault(alias.asname or alias.name, statement.lineno)
        elif isinstance(statement, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in statement.targets):
            if isinstance(statement.value, (ast.List, ast.Tuple)):
                for element in statement.value.elts:
                    if isinstance(element, ast.Constant) and isinstance(element.value, str):
                        names.setdefault(element.value, element.lineno)
    return list(names.items())


# -- the binding ------------------------------------------------------------------------------

# Every pattern here stops at the first character that cannot be part of its match (a
# semicolon, a parenthesis, the end of a line), so that no attempt scans the rest of the
# file: each reader is linear in the file's size.
_BIND = re.compile(r'm\.attr\(\s*"(?P<name>\w+)"\s*\)\s*=\s*py::int_\(\s*(?P<expr>[^;()]*?)\s*\)\s*;')
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
    bindings = [Binding(m["name"], m["expr"], lines.line(m.start())) for m in _BIND.finditer(code)
                if _QUALIFIED.match(m["expr"])]
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
_DEFINE = re.compile(rf"^{_BLANK}*#{_BLANK}*define{_BLANK}+(?P<name>[A-Za-z_]\w*){_BLANK}+\(?{_BLANK}*"
                     rf"(?P<value>0[xX][0-9a-fA-F]+|\d+)[uUlL]*{_BLANK}*\)?{_BLANK}*$", re.M)


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
        return None, Unreadable(line, f"{layout.macro} has {len(args)} arguments here; the layout names {len(layout.arguments)}")
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
    return re.sub(r'"(?:\\.|[^"\\\n])*"|/\*(?:.*?\*/|.*)|//[^\n]*',
                  lambda m: m.group() if m.group().startswith('"') else blank(m), source, flags=re.S)


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
