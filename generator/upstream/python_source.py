"""Reading upstream's Python source that defines the codes: the enum (or the constants) with
its members in order, and the values or binding references they take. Nothing is imported
or executed; every reader is linear in the size of its file and bounded in depth."""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Optional, Union

from generator.upstream.files import Unreadable


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
    exported: list[tuple[str, int]] = field(
        default_factory=list
    )  # names a constants module imports or lists in __all__
    mapping: list[MapEntry] = field(default_factory=list)  # code_2_status's map, entry by entry
    reserved: list[tuple[str, int]] = field(default_factory=list)  # names Enum keeps for itself (_x_, __x__), line
    problems: list[Unreadable] = field(default_factory=list)
    bases: tuple[str, ...] = ()  # the class's base classes, as written (Enum, IntEnum)
    line: int = 0  # of the class statement


def read_python(source: str, class_name: Optional[str]) -> PythonSource:
    """The members of `class class_name`, or (class_name None) the names a package exports."""
    result = PythonSource()
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError) as error:
        result.problems.append(
            Unreadable(getattr(error, "lineno", None) or 1, f"Python syntax error: {getattr(error, 'msg', error)}")
        )
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
    result.bases = tuple(_base_text(source, base) for base in classes[0].bases)
    result.line = classes[0].lineno
    for statement in classes[0].body:
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
        ):
            name = statement.targets[0].id
            if not name.startswith("_"):
                result.members.append(Member(name, _value(statement.value), statement.lineno))
            else:  # Enum makes no member of it: `_missing_`, `__slots__`, a private name
                result.reserved.append((name, statement.lineno))
    result.mapping = _code_map(tree, class_name)
    return result


MAX_SHOWN = 120  # characters of a base class shown; its last name is kept


def _base_text(source: str, base: ast.expr) -> str:
    """A base class: a dotted name (`enum.IntEnum`) read in a loop, anything else as the source
    writes it. ast.unparse recursed once per attribute, and `a.b.b...` 600 deep crashed it."""
    parts, node = [], base
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        text = ".".join([node.id, *reversed(parts)])
    else:
        text = " ".join((ast.get_source_segment(source, base) or "?").split())
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN // 2] + "..." + text[-(MAX_SHOWN // 2):]


MAX_VALUE_NODES = 64  # a member's value is a number, a sign and a number, or a shift: a few nodes


def _small(node: ast.AST) -> bool:
    """Whether an expression has at most MAX_VALUE_NODES nodes (ast.walk does not recurse)."""
    return sum(1 for _, _ in zip(range(MAX_VALUE_NODES + 1), ast.walk(node))) <= MAX_VALUE_NODES


def _value(node: ast.AST) -> Union[int, Reference, None]:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return Reference(node.value.id, node.attr)
    if not _small(node):  # literal_eval recurses once per level
        return None
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
                return [
                    MapEntry(_value(k), v.attr, k.lineno)
                    for k, v in zip(statement.value.keys, attributes)
                    if k is not None
                ]
    return []


def _exported(tree: ast.Module) -> list[tuple[str, int]]:
    names: dict[str, int] = {}
    for statement in tree.body:
        if isinstance(statement, ast.ImportFrom):
            for alias in statement.names:
                names.setdefault(alias.asname or alias.name, statement.lineno)
        elif isinstance(statement, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in statement.targets
        ):
            if isinstance(statement.value, (ast.List, ast.Tuple)):
                for element in statement.value.elts:
                    if isinstance(element, ast.Constant) and isinstance(element.value, str):
                        names.setdefault(element.value, element.lineno)
    return list(names.items())
