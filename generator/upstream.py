"""Readers of upstream's source files: the Python module that defines the codes, the
pybind binding that gives them values, and the C/C++ headers that declare them.

Nothing is imported or executed; a file that cannot be read yields an
`Unreadable` with its line instead of an exception.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Optional, Union

from generator.model import ValueLayout


@dataclass(frozen=True)
class Unreadable:
    line: int
    message: str


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


def read_python(source: str, class_name: Optional[str]) -> PythonSource:
    """The members of `class class_name`, or (class_name None) the names a package exports."""
    result = PythonSource()
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError) as error:
        result.problems.append(Unreadable(getattr(error, "lineno", None) or 1, f"Python syntax error: {getattr(error, 'msg', error)}"))
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
            if all(isinstance(v, ast.Attribute) and isinstance(v.value, ast.Name) and v.value.id == class_name for v in values):
                return [MapEntry(_value(k), v.attr, k.lineno) for k, v in zip(statement.value.keys, values) if k is not None]
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

_BIND = re.compile(r'm\.attr\(\s*"(?P<name>\w+)"\s*\)\s*=\s*py::int_\(\s*(?P<expr>[^;]*?)\s*\)\s*;')
_QUALIFIED = re.compile(r"^(?:[A-Za-z_]\w*::)*[A-Za-z_]\w*$")


@dataclass(frozen=True)
class Binding:
    name: str  # the Python-side constant: kLLMTimeout
    expression: str  # what it is bound to: ge::LLM_TIMEOUT, ACL_ERROR_RT_DEVICE_MEM_ERROR
    line: int


def read_binding(source: str) -> tuple[list[Binding], list[Unreadable]]:
    """Every `m.attr("kX") = py::int_(NAME)` whose NAME is a (qualified) identifier."""
    code = strip_comments(source)
    bindings = [Binding(m["name"], m["expr"], line_of(code, m.start())) for m in _BIND.finditer(code)
                if _QUALIFIED.match(m["expr"])]
    problems = [] if bindings else [Unreadable(1, 'no `m.attr("NAME") = py::int_(CONSTANT)` bindings in this file')]
    return bindings, problems


# -- C/C++ headers ----------------------------------------------------------------------------

_CONSTANT = re.compile(
    r"\b(?:static\s+)?(?:constexpr|const)\s+(?P<type>(?:[\w:]+\s+)+?)(?P<name>[A-Za-z_]\w*)\s*=\s*"
    r"(?P<value>0[xX][0-9a-fA-F]+|\d+)[uUlL]*\s*;")
_DEFINE = re.compile(r"^\s*#\s*define\s+(?P<name>[A-Za-z_]\w*)\s+\(?\s*(?P<value>0[xX][0-9a-fA-F]+|\d+)[uUlL]*\s*\)?\s*$", re.M)


@dataclass(frozen=True)
class Constant:
    name: str
    namespace: Optional[str]
    value: Optional[int]  # None: a macro whose arguments cannot be read
    line: int
    type: str  # the declared type (Status), "#define", or the macro's name

    @property
    def qualified(self) -> str:
        return f"{self.namespace}::{self.name}" if self.namespace else self.name


def read_header(source: str, layout: Optional[ValueLayout] = None) -> tuple[list[Constant], list[Unreadable]]:
    """Constants declared as constexpr/const, #define, or (with a layout) its macro."""
    code = strip_comments(source)
    constants: list[Constant] = []
    problems: list[Unreadable] = []
    for match in _CONSTANT.finditer(code):
        constants.append(Constant(match["name"], namespace_at(code, match.start()), int(match["value"], 0),
                                  line_of(code, match.start()), " ".join(match["type"].split())))
    for match in _DEFINE.finditer(code):
        constants.append(Constant(match["name"], None, int(match["value"], 0), line_of(code, match.start()), "#define"))
    if layout is not None:
        for match in re.finditer(rf"\b{re.escape(layout.macro)}\s*\((?P<args>[^;]*?)\)\s*;", code):
            constant, problem = _macro(match, code, layout)
            if constant is not None:
                constants.append(constant)
            if problem is not None:
                problems.append(problem)
    if not constants and not problems:
        problems.append(Unreadable(1, "no status-code constants in this file"))
    return sorted(constants, key=lambda c: c.line), problems


def _macro(match: re.Match, code: str, layout: ValueLayout) -> tuple[Optional[Constant], Optional[Unreadable]]:
    """GE_ERRORNO_DEFINE(0b01, 0b01, 0b000, 8, 11, NAME, 1): every argument shifted into place."""
    line = line_of(code, match.start())
    args = [a.strip() for a in match["args"].split(",")]
    if len(args) != len(layout.arguments):
        return None, Unreadable(line, f"{layout.macro} has {len(args)} arguments here; the layout names {len(layout.arguments)}")
    values: dict[str, int] = {}
    name = None
    for label, arg in zip(layout.arguments, args):
        if label == "name":
            name = arg
            continue
        number = parse_c_int(arg)
        if number is None:
            return None, Unreadable(line, f"{layout.macro}: argument {label} = {arg!r} is not a number")
        values[label] = number
    if name is None or not re.fullmatch(r"[A-Za-z_]\w*", name):
        return None, Unreadable(line, f"{layout.macro}: the name argument {name!r} is not an identifier")
    return Constant(name, namespace_at(code, match.start()), layout.compute(values), line, layout.macro), None


def parse_c_int(text: str) -> Optional[int]:
    match = re.fullmatch(r"(0[bB][01]+|0[xX][0-9a-fA-F]+|0[0-7]*|[1-9]\d*)[uUlL]*", text.strip())
    if not match:
        return None
    body = match.group(1)
    if body[:2] in ("0b", "0B"):
        return int(body[2:], 2)
    if body[:2] in ("0x", "0X"):
        return int(body[2:], 16)
    return int(body, 8) if len(body) > 1 and body.startswith("0") else int(body)


def strip_comments(source: str) -> str:
    """Comments blanked out, keeping every newline so that lines stay true."""
    def blank(match: re.Match) -> str:
        return re.sub(r"[^\n]", " ", match.group())
    return re.sub(r'"(?:\\.|[^"\\\n])*"|/\*.*?\*/|//[^\n]*', lambda m: m.group() if m.group().startswith('"') else blank(m),
                  source, flags=re.S)


def namespace_at(code: str, offset: int) -> Optional[str]:
    stack: list[Optional[str]] = []
    for match in re.finditer(r"\bnamespace\s+([\w:]+)\s*\{|\{|\}", code[:offset]):
        if match.group(1):
            stack.append(match.group(1))
        elif match.group() == "{":
            stack.append(None)
        elif stack:
            stack.pop()
    named = [n for n in stack if n]
    return "::".join(named) if named else None


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1
