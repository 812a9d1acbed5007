"""Reading the `codes` section: one Code per entry, names and values unique."""
from __future__ import annotations

import re
from typing import Optional

from ruamel.yaml.nodes import Node

from generator.fields import Fields
from generator.model import TEXT_FIELDS, Code, Obsolete, TextEntry

CPP_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)+$")
C_RANGE = (0, 0xFFFFFFFF)  # ge::Status is uint32_t
PYTHON_RANGE = (-(2**63), 2**64 - 1)


_CODE_FIELDS = ("python", "c", "value", "cpp", "log_message", "obsolete", "notes", "meaning", "solution")


def read_codes(f: Fields, node: Node, languages, flawed: set[str]) -> list[Code]:
    """The valid codes; `flawed` receives the names of those read with a problem of their own."""
    codes: list[Code] = []
    names: dict[str, Code] = {}
    values: dict[int, Code] = {}
    for index, item in enumerate(f.sequence(node, "codes") or ()):
        reported = len(f.rep.problems)
        code = _code(f, item, index, languages)
        if code is not None and len(f.rep.problems) > reported:
            flawed.add(code.name)
        if code is None:
            continue
        clash = _name_clash(code, names)
        if clash:
            f.error(item, clash)
            continue
        if code.value in values:
            other = values[code.value]
            f.error(item, f"{code.name}: value {code.hex} already used by {other.name} (line {other.pos.line}); every value is used once")
            continue
        values[code.value] = code
        for name in filter(None, (code.python_name, code.c_name)):
            names.setdefault(name, code)
        codes.append(code)
    return codes


def _name_clash(code: Code, names: dict[str, Code]) -> Optional[str]:
    for name in filter(None, (code.python_name, code.c_name)):
        other = names.get(name)
        if other is not None:
            return f"{code.name}: name {name} is already used by {other.name} (line {other.pos.line}); names identify one code"
    return None


def _code(f: Fields, node: Node, index: int, languages) -> Optional[Code]:
    label = f.peek(node, "python", "c") or "a code"
    fields = f.mapping(node, label, required=("value",), optional=_CODE_FIELDS)
    if fields is None or "value" not in fields:
        return None
    python = f.identifier(fields["python"][1], "python name") if "python" in fields else None
    c = f.identifier(fields["c"][1], "c name") if "c" in fields else None
    if python is None and c is None:
        if "python" not in fields and "c" not in fields:
            f.error(node, "a code needs a python name, a c name, or both")
        return None
    name = python or c
    value = f.integer(fields["value"][1], f"{name}: value")
    if value is not None:
        low, high = C_RANGE if c else PYTHON_RANGE
        if not low <= value <= high:
            lang = "C/C++ (uint32_t)" if c else "Python"
            f.error(fields["value"][1], f"{name}: value {value} is out of range for {lang}: {low}..{high}")
            value = None
    cpp = _cpp_names(f, fields.get("cpp"), name)
    log_message = f.text(fields["log_message"][1], f"{name}: log_message") if "log_message" in fields else None
    notes = f.localized(fields["notes"][1], f"{name}: notes", languages) if "notes" in fields else None
    obsolete = _obsolete(f, fields["obsolete"][1], name, languages) if "obsolete" in fields else None
    texts = {k: _text_entries(f, fields[k][1], f"{name}: {k}", languages) if k in fields else () for k in TEXT_FIELDS}
    if value is None or cpp is None or None in texts.values():
        return None
    return Code(python, c, value, cpp, log_message, obsolete, notes, texts["meaning"], texts["solution"], index, f.pos(node))  # type: ignore[arg-type]


def _cpp_names(f: Fields, pair, name) -> Optional[tuple[str, ...]]:
    if pair is None:
        return ()
    items = f.text_list(pair[1], f"{name}: cpp")
    if items is None:
        return None
    for text, item in items:
        if not CPP_NAME.match(text):
            f.error(item, f"{name}: cpp name {text!r} must be qualified, such as 'llm_datadist::LLM_TIMEOUT'")
    return tuple(text for text, _ in items)


def _obsolete(f: Fields, node: Node, name: str, languages) -> Optional[Obsolete]:
    fields = f.mapping(node, f"{name}: obsolete", required=("since", "reason"))
    if not fields or len(fields) < 2:
        return None
    since = f.text(fields["since"][1], f"{name}: obsolete.since")
    reason = f.localized(fields["reason"][1], f"{name}: obsolete.reason", languages)
    return Obsolete(since, reason) if since and reason else None


def _text_entries(f: Fields, node: Node, what: str, languages) -> Optional[tuple[TextEntry, ...]]:
    entries: list[TextEntry] = []
    for item in f.sequence(node, what) or ():
        fields = f.mapping(item, f"{what} entry", required=("editions",), optional=languages)
        if not fields or "editions" not in fields:
            continue
        editions = f.text_list(fields["editions"][1], f"{what}: editions")
        if editions == []:
            f.error(fields["editions"][1], f"{what} entry names no edition")
        langs = [lang for lang in languages if lang in fields]
        if not langs:
            f.error(item, f"{what} entry gives no text; add one or more of: {', '.join(languages)}")
        for lang in langs:
            text = f.text(fields[lang][1], f"{what} ({lang})")
            if text is not None and editions is not None:
                ids = tuple(e for e, _ in editions)
                places = tuple(f.pos(node) for _, node in editions)
                entries.append(TextEntry(ids, lang, text, f.pos(fields[lang][1]), places))
    return tuple(entries)


def written_names(f: Fields, node: Node) -> set[str]:
    """Every code name written, valid or not."""
    items = node.value if isinstance(node.value, list) else []
    names = set()
    for item in items:
        names.update(n for n in (f.peek(item, "python"), f.peek(item, "c")) if n)
    return names
