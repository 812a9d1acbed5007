"""A YAML document as plain values that remember where they were written, and the format's
verdict on them as problems at PATH:LINE:COL.

`to_raw` turns the composed nodes (generator.reading.yaml_source) into dicts, lists and
scalars typed as YAML 1.2 reads them (a plain `8.10` is a number, `true` a boolean), each
mapping and list keeping its node. `validate` hands them to a class of the format
(generator.reading.format) and turns every error it reports into a message that names the
field as the catalog writes it, at the node it is about, with how to fix it.
"""
from __future__ import annotations

import difflib
import re
import typing
from typing import Any, Optional

from pydantic import BaseModel, ValidationError
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from generator.core.problems import Pos, Problem, closest
from generator.reading.format import FORMS, PATTERN_RULES
from generator.reading.yaml_source import MAX_DIGITS, Document, parse_int, scalar_type


class Null:
    """An empty value as written (`~`, `null`, nothing): no field takes it."""

    def __repr__(self) -> str:
        return "null"


NULL = Null()


class RawMap(dict):
    """A mapping as written: its values, and its node and each key's (key node, value node)."""

    __slots__ = ("doc", "node", "nodes")
    doc: Document
    node: Node
    nodes: dict[str, tuple[Node, Node]]

    def pos(self, key: Optional[str] = None, of_key: bool = False) -> Pos:
        """Where the mapping, one of its values, or one of its keys is written."""
        if key is None or key not in self.nodes:
            return self.doc.pos(self.node)
        return self.doc.pos(self.nodes[key][0 if of_key else 1])


class RawList(list):
    """A list as written, its node and each item's node."""

    __slots__ = ("doc", "node", "nodes")
    doc: Document
    node: Node
    nodes: list[Node]

    def pos(self, index: Optional[int] = None, of_key: bool = False) -> Pos:
        """Where the list, or one of its items, is written (an item has no key: `of_key` as a map's)."""
        if index is None or not 0 <= index < len(self.nodes):
            return self.doc.pos(self.node)
        return self.doc.pos(self.nodes[index])

    def drop(self, indexes: set[int]) -> None:
        """Leave out the items at these indexes (an item the format refused)."""
        kept = [i for i in range(len(self)) if i not in indexes]
        self[:], self.nodes = [self[i] for i in kept], [self.nodes[i] for i in kept]


def to_raw(doc: Document, node: Node, problems: list[Problem]) -> Any:
    """The node's value as plain data; a key that is no plain name, or that repeats, is reported."""
    if isinstance(node, MappingNode):
        mapping = RawMap()
        mapping.doc, mapping.node, mapping.nodes = doc, node, {}
        for key, value in node.value:
            name = key.value if isinstance(key, ScalarNode) and scalar_type(key) == "str" else None
            if name is None:
                problems.append(Problem(doc.pos(key), f"keys must be plain names, not {describe_node(key)}"))
            elif name in mapping.nodes:
                first = mapping.nodes[name][0].start_mark.line + 1
                problems.append(Problem(doc.pos(key), f"duplicate key {name!r} (first at line {first}); keep one"))
            else:
                mapping.nodes[name] = (key, value)
                mapping[name] = to_raw(doc, value, problems)
        return mapping
    if isinstance(node, SequenceNode):
        items = RawList(to_raw(doc, item, problems) for item in node.value)
        items.doc, items.node, items.nodes = doc, node, list(node.value)
        return items
    assert isinstance(node, ScalarNode)
    return scalar(node)


def scalar(node: ScalarNode) -> Any:
    kind = scalar_type(node)
    if kind == "str":
        return node.value
    if kind == "int":
        number = parse_int(node.value)
        return node.value if number is None else number  # too many digits: refused as no number
    if kind == "bool":
        return node.value.lower() == "true"
    if kind == "null":
        return NULL
    return float(node.value.replace("_", "")) if "nan" not in node.value.lower() else float("nan")


_KINDS = {"str": "text", "int": "a number", "float": "a number", "bool": "a boolean", "null": "empty"}


def describe_node(node: Node) -> str:
    if isinstance(node, MappingNode):
        return "a mapping"
    if isinstance(node, SequenceNode):
        return "a list"
    return _KINDS[scalar_type(node)] + f" ({node.value!r})"  # type: ignore[arg-type]


# -- the format's verdict -----------------------------------------------------------------------------

T = typing.TypeVar("T", bound=BaseModel)


def validate(cls: type[T], raw: Any) -> tuple[Optional[T], list[tuple[Problem, tuple]]]:
    """`raw` as a record of `cls`; else None and every error the format finds, each as a
    problem and the location (keys and indexes) of what it is about."""
    try:
        return cls.model_validate(raw), []
    except ValidationError as error:
        found: dict[Problem, tuple] = {}
        details = _misspelt(cls, raw, error.errors(include_url=False))
        for detail in details:
            found.setdefault(_problem(cls, raw, detail), tuple(detail["loc"]))
        return None, list(found.items())


def _misspelt(cls: type, raw: Any, details: list) -> list:
    """The errors, with a field missing beside a key that is a misspelling of it (a text
    entry's `form:` for `from:`, taken for a language) told as that key unknown, once: not as
    the field missing and the key's value refused."""
    told, dropped = [], set()
    for detail in details:
        loc = tuple(detail["loc"])
        if detail["type"] != "missing" or not isinstance(loc[-1], str):
            continue
        holder = _walk(raw, loc[:-1])[-1][2] if loc[:-1] else raw
        fields = set(field_names(type_at(cls, loc[:-1])))
        keys = [k for k in holder if isinstance(k, str) and k not in fields] if isinstance(holder, dict) else []
        near = difflib.get_close_matches(loc[-1], keys, n=1, cutoff=0.6)
        if near:
            told.append({"type": "extra_forbidden", "loc": loc[:-1] + (near[0],), "msg": "", "input": None})
            dropped |= {id(detail)} | {id(d) for d in details if tuple(d["loc"])[:len(loc)] == loc[:-1] + (near[0],)}
    return [d for d in details if id(d) not in dropped] + told


def _problem(cls: type, raw: Any, detail: Any) -> Problem:
    walked = _walk(raw, detail["loc"])
    where, key, value = walked[-1]
    kind = detail["type"]
    what = label(walked[:-1] if kind in ("missing", "extra_forbidden") else walked)
    if kind == "missing":
        return Problem(where.pos() if hasattr(where, "pos") else Pos("?"), f"{what}: missing field {key!r}")
    if kind == "extra_forbidden":
        valid = field_names(type_at(cls, detail["loc"][:-1]))
        return Problem(where.pos(key, of_key=True),
                       f"{what}: unknown field {key!r}{closest(str(key), valid)}; valid fields: {', '.join(valid)}")
    pos = where.pos(key, of_key=detail["loc"][-1:] == ("[key]",)) if hasattr(where, "pos") else Pos("?")
    verdict = _verdict(kind, detail, value, where, key)
    return Problem(pos, f"{what}{verdict}" if verdict.startswith(":") else f"{what} {verdict}")


def _walk(raw: Any, loc: tuple) -> list[tuple[Any, Any, Any]]:
    """(container, key, value) along an error's location; the last is what the error is about.
    Union tags and `[key]` (an error in a mapping's key) are no steps of the data."""
    steps: list[tuple[Any, Any, Any]] = [(None, None, raw)]
    for part in loc:
        current = steps[-1][2]
        if part == "[key]" or (part in FORMS and not (isinstance(current, dict) and part in current)):
            continue
        if isinstance(current, dict):
            steps.append((current, part, current.get(part)))
        elif isinstance(current, list) and isinstance(part, int) and 0 <= part < len(current):
            steps.append((current, part, current[part]))
        else:
            break
    if len(steps) == 1:
        steps.append((raw, None, raw))
    return steps[1:]


# What names an item of a list in messages, by the list it is in: a code by its name, a
# version by its id, a page or a timeline by its id.
_NAMED_BY = {"codes": ("python", "c"), "pages": ("id",), "timelines": ("id",)}
_LANGUAGE = re.compile(r"^[a-z]{2,3}$")


def label(walked: list[tuple[Any, Any, Any]]) -> str:
    """How a message names a field: the item it is in (a code by its name, a version by its
    id) and the keys below it (`LLM_TIMEOUT: value`, `version 9.1.0-v1: sources.page.level`),
    or the dotted keys from the file's top (`family.python.shape`); a text's language as
    `meaning (en)`; an item that no name names as `an item of sources.tags`."""
    head, parts = "", []  # type: str, list[str]
    item = False
    for index, (container, key, value) in enumerate(walked):
        if isinstance(container, list):
            keys = _named_by(walked, index)
            about_name = index == len(walked) - 2 and walked[-1][1] in keys
            if about_name:
                return _name_label(walked[-1][1], walked[-2][1] if index else None)
            named = next((value[k] for k in keys if isinstance(value, dict) and _plain_name(value.get(k))), None)
            if named is not None:
                head, parts = (named if keys[0] == "python" else f"{_KIND.get(walked[index - 1][1], 'version')} "
                                                                   f"{named}"), []
            item = named is None and index == len(walked) - 1 and bool(parts)
            continue
        if key is None:
            continue
        if _LANGUAGE.match(str(key)) and isinstance(container, dict) and "from" in container and parts:
            parts[-1] += f" ({key})"
        else:
            parts.append(str(key))
    dotted = ("an item of " if item else "") + ".".join(parts)
    return f"{head}: {dotted}" if head and dotted else head or dotted or "the file"


_KIND = {"pages": "page", "timelines": "timeline"}


def _named_by(walked: list[tuple[Any, Any, Any]], index: int) -> tuple[str, ...]:
    """The keys that name the items of the list walked through at `index`."""
    list_key = str(walked[index - 1][1]) if index else ""
    if index == 2 and walked[0][1] == "versions":
        return ("version",)
    return _NAMED_BY.get(list_key, ()) if not (list_key == "codes" and index != 1) else ()  # codes of the file


def _name_label(key: Any, list_key: Any) -> str:
    named = {"python": "python name", "c": "c name", "version": "version id"}
    return named.get(key, f"{_KIND.get(str(list_key), '')} id")


def _plain_name(value: Any) -> bool:
    """A name fit to name an item in a message (one short line)."""
    return isinstance(value, str) and 0 < len(value) <= 64 and value.isprintable() and " " not in value


def _verdict(kind: str, detail: dict, value: Any, where: Any, key: Any) -> str:
    """What is wrong with a value, and how to fix it."""
    written = _written(where, key, value)
    ctx = detail.get("ctx") or {}
    if kind in ("string_type", "str_type"):
        if isinstance(value, (dict, list)):
            return f"must be text, not {_form(value)}"
        if value is NULL and not written.strip():
            return "must be text, and nothing is written after its colon: write the text there"
        return f"must be text, but {written!r} reads as {_reads_as(value)}; quote it: '{written}'"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return (f"must be a whole number of at most {MAX_DIGITS} digits (decimal, or hex such as 0x5010B01A), "
                f"not {_short(written)!r}")
    if kind == "bool_type":
        return f"must be true or false, not {written!r}"
    if kind == "literal_error":
        options = [o.strip().strip("'") for o in str(ctx.get("expected", "")).replace(" or ", ", ").split(", ")]
        return f"must be one of {ctx.get('expected')}, not {written!r}{closest(str(written), options)}"
    if kind == "string_pattern_mismatch":
        pattern = str(ctx.get("pattern"))
        return f"{written!r} must be {PATTERN_RULES.get(pattern, 'of the form ' + pattern)}"
    if kind in ("list_type",):
        return f"must be a list (lines starting with '- ', or [a, b]), not {_form(value, written)}"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return f"must be a mapping (key: value lines), not {_form(value, written)}"
    if kind == "too_short":
        return _TOO_SHORT.get(key, "must not be empty")
    if kind == "too_long":
        return f"must have at most {ctx.get('max_length')} items"
    if kind in ("greater_than_equal", "less_than_equal"):
        return f"must be {'at least ' + str(ctx.get('ge')) if 'ge' in ctx else 'at most ' + str(ctx.get('le'))}, " \
               f"not {written}"
    if kind == "union_tag_invalid":
        return f"cannot be {_form(value, written)} here"
    message = str(detail.get("msg", kind))
    message = message[len("Value error, "):] if message.startswith("Value error, ") else message
    return message if message.split(" ", 1)[0] in ("must", "is", "has") or message[:1] in "'\"" else f": {message}"


# What an empty list is told, by its field.
_TOO_SHORT = {
    "until": "names no repository; write {OWNER/NAME: RELEASE}",
    "texts": "names no language; write `texts: not known` instead",
    "from": "starts at no version; name the versions it holds from",
    "languages": "must name at least one language",
    "pages": "must declare at least one page",
    "timelines": "must declare at least one timeline",
    "paths": "names no path",
    "arguments": "names no argument",
    "columns": "names no column",
}


def _written(where: Any, key: Any, value: Any) -> str:
    """The scalar as the file writes it (`8.10`, not the number 8.1)."""
    node = None
    if isinstance(where, RawMap) and key in where.nodes:
        node = where.nodes[key][1]
    elif isinstance(where, RawList) and isinstance(key, int) and key < len(where.nodes):
        node = where.nodes[key]
    if isinstance(node, ScalarNode):
        return node.value
    return "" if value is NULL else str(value)


def _reads_as(value: Any) -> str:
    if value is NULL:
        return "empty"
    return "a boolean" if isinstance(value, bool) else "a number"


def _form(value: Any, written: str = "") -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"{_KIND_OF(value)} ({written!r})"


def _KIND_OF(value: Any) -> str:  # noqa: N802
    return "empty" if value is NULL else "a boolean" if isinstance(value, bool) else \
        "a number" if isinstance(value, (int, float)) else "text"


def _short(text: str) -> str:
    return text[:40] + f"... ({len(text)} characters)" if len(text) > 60 else text


# -- the record class at a place in the format --------------------------------------------------------


def type_at(kind: Any, loc: tuple) -> Any:
    """The type the format gives the value at an error's location (union tags included)."""
    for part in loc:
        kind = _unwrap(kind)
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            field = next((f for name, f in kind.model_fields.items() if (f.alias or name) == part), None)
            if field is None:
                return None
            kind = field.annotation
        elif typing.get_origin(kind) is list:
            kind = typing.get_args(kind)[0]
        elif typing.get_origin(kind) is dict:
            kind = typing.get_args(kind)[1]
        elif typing.get_origin(kind) is typing.Union:
            kind = _member(kind, part)
        else:
            return None
    return _unwrap(kind)


def _unwrap(kind: Any) -> Any:
    """Without Annotated and Optional."""
    while True:
        if typing.get_origin(kind) is typing.Annotated:
            kind = typing.get_args(kind)[0]
        elif typing.get_origin(kind) is typing.Union and type(None) in typing.get_args(kind):
            members = [a for a in typing.get_args(kind) if a is not type(None)]
            kind = members[0] if len(members) == 1 else typing.Union[tuple(members)]
        else:
            return kind


def _member(union: Any, tag: Any) -> Any:
    """The member of a union told apart by form (generator.reading.format.by_form) with this tag."""
    for member in typing.get_args(union):
        for extra in getattr(member, "__metadata__", ()):
            if getattr(extra, "tag", None) == tag:
                return member
    return None


def field_names(record: Any) -> list[str]:
    if not (isinstance(record, type) and issubclass(record, BaseModel)):
        return []
    return [field.alias or name for name, field in record.model_fields.items()]
