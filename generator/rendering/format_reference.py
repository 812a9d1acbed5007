"""docs/catalog.md: the catalog's field reference, generated from its one declaration
(generator.reading.format, loaded with each field's docstring: generator.rendering.schemas,
which keeps the text in the user's cache): each record, what it is, and each field's type and
meaning."""
from __future__ import annotations

import inspect
import typing
from types import ModuleType
from typing import Any

from pydantic import BaseModel

from generator.rendering.environment import banner_lines

REFERENCE = "docs/catalog.md"


def reference(fmt: ModuleType) -> str:
    """The reference of the format that `fmt` (generator.reading.format, described) declares."""
    named = _named(fmt)
    lines = [f"<!-- {' '.join(banner_lines())} -->", "", "# The catalog's format", "",
             f"Format {fmt.FORMAT}. " + " ".join(inspect.cleandoc(fmt.__doc__ or "").split("\n\n")[1].split()), "",
             "Each catalog file's first line names the JSON Schema generated from the same declaration "
             "(`generated/schemas/catalog.schema.json`), so an editor that reads `# yaml-language-server: "
             "$schema=` shows each field's meaning and checks its type as you type.", ""]
    for record in _records(fmt.CatalogFile):
        lines += [f"## {record.__name__}", "", _doc(record), "", "| field | type | | what |",
                  "| --- | --- | --- | --- |"]
        for name, field in record.model_fields.items():
            required = "required" if field.is_required() else "optional" if field.default is None \
                else f"default `{_default(field.default)}`"
            what = " ".join((field.description or "").split()).replace("|", "\\|")
            lines.append(f"| `{field.alias or name}` | {_type(field.annotation, named)} | {required} | {what} |")
        extra = record.model_config.get("extra") == "allow"
        if extra:
            lines.append("| *a language* (`zh`, `en`) | " + _extra_type(record) + " | | in that language |")
        lines.append("")
    return "\n".join(lines)


def _doc(obj: Any) -> str:
    return " ".join(inspect.cleandoc(obj.__doc__ or "").split("\n\n")[0].split())


def _default(value: Any) -> str:
    return "''" if value == "" else "[]" if value == [] else "{}" if value == {} else str(value).lower() \
        if isinstance(value, bool) else "none" if value is None else str(value)


def _records(root: type[BaseModel]) -> list[type[BaseModel]]:
    """Every record reachable from `root`, in the order they are first met."""
    found: list[type[BaseModel]] = []

    def visit(kind: Any) -> None:
        for record in _records_in(kind):
            if record not in found:
                found.append(record)
                for field in record.model_fields.values():
                    visit(field.annotation)
    visit(root)
    return found


def _records_in(kind: Any) -> list[type[BaseModel]]:
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        return [kind]
    return [r for arg in typing.get_args(kind) for r in _records_in(arg)]


def _named(fmt: ModuleType) -> tuple[tuple[Any, str], ...]:
    """The format's named types, as the reference calls them."""
    return ((fmt.Localized, "text per language"), (fmt.Words, "text, or list of texts"), (fmt.Lang, "language"),
            (fmt.Repo, "OWNER/NAME"), (fmt.Release, "release"), (fmt.VersionId, "version id"), (fmt.Commit, "commit"),
            (fmt.Url, "http(s) URL"), (fmt.Name, "identifier"), (fmt.PyName, "identifier"), (fmt.Text, "text"),
            (fmt.KnownLanguages, "`not known`, or list of languages"),
            (fmt.Row, "recoverability, `dropped`, or [RowChange](#rowchange)"),
            (fmt.Block, "text (a paragraph), or [CodeBlockHolder](#codeblockholder)"),
            (fmt.CppRef, "`ns::NAME`, or [CppName](#cppname)"))


def _type(kind: Any, named: tuple[tuple[Any, str], ...]) -> str:
    """A field's type as a reader writes it: text, number, list of X, one of 'a', 'b', a record's name."""
    name = next((name for alias, name in named if kind == alias), None)
    if name is not None:
        return name
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is typing.Annotated:
        return _type(args[0], named)
    if origin is typing.Literal:
        return "one of " + ", ".join(f"`{a}`" for a in args)
    if origin is typing.Union:
        kinds = [_type(a, named) for a in args if a is not type(None)]
        return " or ".join(dict.fromkeys(kinds))
    if origin is list:
        return f"list of {_type(args[0], named)}"
    if origin is dict:
        return f"mapping of {_type(args[0], named)} to {_type(args[1], named)}"
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        return f"[{kind.__name__}](#{kind.__name__.lower()})"
    return {str: "text", int: "number", bool: "true or false"}.get(kind, getattr(kind, "__name__", str(kind)))


def _extra_type(record: type[BaseModel]) -> str:
    annotation = record.__annotations__.get("__pydantic_extra__", "")
    return "one of `yes`, `no`, `n/a`, `not known`" if "Recoverable" in str(annotation) else "text"
