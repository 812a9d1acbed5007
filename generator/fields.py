"""Typed reading of YAML nodes: each getter reports what is wrong, where, and how to fix it.

Getters return None after reporting, so that one run finds every problem.
"""
from __future__ import annotations

import keyword
import re
from typing import Iterable, Optional

from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from generator.model import Localized
from generator.problems import Reporter, closest
from generator.yamlsource import Document, parse_int, scalar_type

IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
C_KEYWORDS = frozenset(
    """auto bool break case char class const constexpr continue default delete do double else enum
    explicit extern false float for friend goto if inline int long mutable namespace new noexcept
    nullptr operator private protected public register restrict return short signed sizeof static
    struct switch template this throw true try typedef typename union unsigned using virtual void
    volatile while NULL""".split()
)
_TYPE_NAMES = {"str": "text", "int": "a number", "float": "a number", "bool": "a boolean", "null": "empty"}


class Fields:
    """Reads one YAML document against expectations, reporting into a Reporter."""

    def __init__(self, doc: Document, reporter: Reporter):
        self.doc = doc
        self.rep = reporter

    def pos(self, node: Node):
        return self.doc.pos(node)

    def error(self, node: Node, message: str) -> None:
        self.rep.error(self.pos(node), message)

    # -- containers -------------------------------------------------------

    def mapping(
        self, node: Node, what: str, required: Iterable[str] = (), optional: Iterable[str] = (),
        free_keys: bool = False,
    ) -> Optional[dict[str, tuple[Node, Node]]]:
        """The fields of a mapping as {key: (key node, value node)}, in order."""
        if not isinstance(node, MappingNode):
            self.error(node, f"{what} must be a mapping (key: value lines), not {self.describe(node)}")
            return None
        required = tuple(required)
        known = required + tuple(name for name in optional if name not in required)
        result: dict[str, tuple[Node, Node]] = {}
        for key, value in node.value:
            name = self.key(key, what)
            if name is None:
                continue
            if name in result:
                first = result[name][0].start_mark.line + 1
                self.error(key, f"{what}: duplicate key {name!r} (first at line {first}); keep one")
                continue
            if not free_keys and name not in known:
                self.error(key, f"{what}: unknown field {name!r}{closest(name, known)}; valid fields: {', '.join(known)}")
                continue
            result[name] = (key, value)
        for name in required:
            if name not in result:
                self.error(node, f"{what}: missing field {name!r}")
        return result

    @staticmethod
    def peek(node: Node, *keys: str) -> Optional[str]:
        """The text of the first of `keys` in a mapping, before it is validated (for labels)."""
        if isinstance(node, MappingNode):
            values = {k.value: v for k, v in node.value if isinstance(k, ScalarNode)}
            for key in keys:
                value = values.get(key)
                if isinstance(value, ScalarNode) and value.value:
                    return value.value
        return None

    def key(self, node: Node, what: str) -> Optional[str]:
        if not isinstance(node, ScalarNode) or scalar_type(node) != "str":
            self.error(node, f"{what}: keys must be plain names, not {self.describe(node)}")
            return None
        return node.value

    def sequence(self, node: Node, what: str) -> Optional[list[Node]]:
        if not isinstance(node, SequenceNode):
            self.error(node, f"{what} must be a list (lines starting with '- ', or [a, b]), not {self.describe(node)}")
            return None
        return list(node.value)

    # -- scalars ----------------------------------------------------------

    def text(self, node: Node, what: str, allow_empty: bool = False) -> Optional[str]:
        if not isinstance(node, ScalarNode):
            self.error(node, f"{what} must be text, not {self.describe(node)}")
            return None
        kind = scalar_type(node)
        if kind != "str":
            self.error(node, f"{what} must be text, but {node.value!r} reads as {_TYPE_NAMES[kind]}; quote it: '{node.value}'")
            return None
        if not allow_empty and not node.value.strip():
            self.error(node, f"{what} must not be empty")
            return None
        return node.value

    def choice(self, node: Node, what: str, choices: Iterable[str]) -> Optional[str]:
        choices = tuple(choices)
        if isinstance(node, ScalarNode) and node.value in choices:
            return node.value  # `yes`/`no` are text in YAML 1.2, quoted or not
        value = self.text(node, what)
        if value is not None:
            options = ", ".join(repr(c) for c in choices)
            self.error(node, f"{what} must be one of {options}, not {value!r}{closest(value, choices)}")
        return None

    def integer(self, node: Node, what: str) -> Optional[int]:
        if not isinstance(node, ScalarNode) or scalar_type(node) != "int":
            shown = node.value if isinstance(node, ScalarNode) else self.describe(node)
            self.error(node, f"{what} must be a whole number (decimal, or hex such as 0x5010B01A), not {shown!r}")
            return None
        return parse_int(node.value)

    def identifier(self, node: Node, what: str, c_too: bool = True) -> Optional[str]:
        name = self.text(node, what)
        if name is None:
            return None
        if not IDENTIFIER.match(name) or keyword.iskeyword(name) or (c_too and name in C_KEYWORDS):
            self.error(node, f"{what} {name!r} is not a valid identifier in Python and C (letters, digits, _; not a keyword)")
            return None
        return name

    def text_list(self, node: Node, what: str) -> Optional[list[tuple[str, Node]]]:
        items = self.sequence(node, what)
        if items is None:
            return None
        result = []
        for item in items:
            value = self.text(item, f"{what} item")
            if value is not None:
                result.append((value, item))
        return result

    def localized(self, node: Node, what: str, languages: tuple[str, ...]) -> Optional[Localized]:
        fields = self.mapping(node, what, required=languages)
        if fields is None:
            return None
        texts = {lang: self.text(value, f"{what} ({lang})") for lang, (_, value) in fields.items()}
        if any(texts.get(lang) is None for lang in languages):
            return None
        return Localized(tuple((lang, texts[lang]) for lang in languages))  # type: ignore[misc]

    @staticmethod
    def describe(node: Node) -> str:
        if isinstance(node, MappingNode):
            return "a mapping"
        if isinstance(node, SequenceNode):
            return "a list"
        return _TYPE_NAMES[scalar_type(node)] + f" ({node.value!r})"
