"""Typed reading of YAML nodes: each getter reports what is wrong, where, and how to fix it.

Getters return None after reporting, so that one run finds every problem.
"""
from __future__ import annotations

import keyword
import re
import unicodedata
from typing import Iterable, Optional

from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from generator.domain.model import Localized
from generator.core.problems import Reporter, closest
from generator.reading.yaml_source import MAX_DIGITS, Document, parse_int, scalar_type

IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
MAX_NAME = 100  # a name is part of file names (codes/NAME.zh.md): keep far below NAME_MAX
# C and C++ keywords and alternative tokens (C23, C++23), and what <stddef.h> and
# <stdint.h> define as macros or types: none can name a constant of the header.
C_KEYWORDS = frozenset(
    """alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t
    char32_t class co_await co_return co_yield compl concept const consteval constexpr constinit
    const_cast continue decltype default delete do double dynamic_cast else enum explicit export
    extern false float for friend goto if inline int long mutable namespace new noexcept not not_eq
    nullptr operator or or_eq private protected public register reinterpret_cast requires restrict
    return short signed sizeof static static_assert static_cast struct switch template this
    thread_local throw true try typedef typeid typename union unsigned using virtual void volatile
    wchar_t while xor xor_eq _Alignas _Alignof _Atomic _Bool _Complex _Generic _Imaginary _Noreturn
    _Static_assert _Thread_local NULL offsetof defined main size_t ptrdiff_t max_align_t nullptr_t
    wint_t""".split()
)
# <stdint.h>: intN_t, uintN_t, INTN_MAX, INTN_C, SIZE_MAX ...; and names reserved to the implementation.
C_RESERVED = re.compile(
    r"^(?:u?int(?:_least|_fast)?\d*_t|u?intmax_t|u?intptr_t|U?INT(?:_LEAST|_FAST)?\d*_(?:MAX|MIN|C)"
    r"|U?INTMAX_(?:MAX|MIN|C)|U?INTPTR_(?:MAX|MIN)|(?:SIZE|PTRDIFF|SIG_ATOMIC|WCHAR|WINT)_(?:MAX|MIN)"
    r"|_[A-Z_].*|.*__.*)$")


def visible(text: str) -> bool:
    """Whether a text shows anything: not only spaces and invisible format characters."""
    if text[:1].isalnum():  # most texts: a letter or digit is neither a space nor a format character
        return True
    return any(not ch.isspace() and unicodedata.category(ch) not in ("Cf", "Zs", "Zl", "Zp") for ch in text)
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

    def peek_key(self, node: Node, key: str) -> Optional[Node]:
        """The key node of `key` in a mapping, without reading or reporting anything."""
        if isinstance(node, MappingNode):
            for k, _ in node.value:
                if isinstance(k, ScalarNode) and k.value == key:
                    return k
        return None

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
                self.error(
                    key, f"{what}: unknown field {name!r}{closest(name, known)}; valid fields: {', '.join(known)}"
                )
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
            self.error(
                node, f"{what} must be text, but {node.value!r} reads as {_TYPE_NAMES[kind]}; quote it: '{node.value}'"
            )
            return None
        if not allow_empty and not visible(node.value):
            what_is = "empty" if not node.value.strip() else "made only of invisible characters"
            self.error(node, f"{what} must not be {what_is}")
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
        value = parse_int(node.value) if isinstance(node, ScalarNode) and scalar_type(node) == "int" else None
        if value is None:
            shown = node.value if isinstance(node, ScalarNode) else self.describe(node)
            if isinstance(shown, str) and len(shown) > 60:
                shown = shown[:40] + f"... ({len(shown)} characters)"
            self.error(node, f"{what} must be a whole number of at most {MAX_DIGITS} digits "
                             f"(decimal, or hex such as 0x5010B01A), not {shown!r}")
            return None
        return value

    def identifier(self, node: Node, what: str, c_too: bool = True) -> Optional[str]:
        name = self.text(node, what)
        if name is None:
            return None
        if len(name) > MAX_NAME:
            self.error(node, f"{what} is {len(name)} characters long; names are at most {MAX_NAME} (they name files)")
            return None
        if not IDENTIFIER.fullmatch(name) or keyword.iskeyword(name) or (c_too and name in C_KEYWORDS):
            self.error(
                node, f"{what} {name!r} is not a valid identifier in Python and C (letters, digits, _; not a keyword)"
            )
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

    def localized(
        self, node: Node, what: str, languages: tuple[str, ...], upstream: bool = False
    ) -> Optional[Localized]:
        """{lang: text} for every language. With `upstream`, the words are upstream's and
        `translated: [en]` marks the languages whose text this project translated."""
        fields = self.mapping(node, what, required=languages, optional=("translated",) if upstream else ())
        if fields is None:
            return None
        texts = {
            lang: self.text(value, f"{what} ({lang})") for lang, (_, value) in fields.items() if lang != "translated"
        }
        translated: list[str] = []
        if "translated" in fields:
            for lang, item in self.text_list(fields["translated"][1], f"{what}: translated") or ():
                if lang not in languages:
                    self.error(item, f"{what}: translated: {lang!r} is not one of the languages {', '.join(languages)}")
                else:
                    translated.append(lang)
        if any(texts.get(lang) is None for lang in languages):
            return None
        return Localized(tuple((lang, texts[lang]) for lang in languages), tuple(translated))  # type: ignore[misc]

    def choice_list(self, node: Node, what: str, choices: tuple[str, ...]) -> Optional[list[tuple[str, Node]]]:
        """A list whose every item is one of `choices`, each once."""
        items = self.text_list(node, what)
        if items is None:
            return None
        seen: list[str] = []
        for value, item in items:
            if value not in choices:
                self.error(item, f"{what}: {value!r} is not one of {', '.join(choices)}{closest(value, choices)}")
            elif value in seen:
                self.error(item, f"{what}: {value!r} is listed twice")
            else:
                seen.append(value)
        return [(v, n) for v, n in items] if len(seen) == len(items) else None

    @staticmethod
    def describe(node: Node) -> str:
        if isinstance(node, MappingNode):
            return "a mapping"
        if isinstance(node, SequenceNode):
            return "a list"
        assert isinstance(node, ScalarNode)
        return _TYPE_NAMES[scalar_type(node)] + f" ({node.value!r})"
