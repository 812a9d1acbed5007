"""A message family's Python module (lookup(ID), match(line)) and its JSON export.

The module is the banner, a docstring, the matcher of runtime/message_match.py, the family's data
tables, and the runtime of runtime/message_runtime.py: one file, standard library only, typed,
Python 3.9+. The JSON holds every field of every code, the registry's entry at each release and
the pages' source, for other tools.
"""
from __future__ import annotations

import dataclasses
import json
import re
import textwrap
from functools import lru_cache
from typing import Optional

from generator.core.releases import UNRELEASED
from generator.domain.messages import MessageCode, MessageFamily
from generator.rendering.catalog_hash import digest, values
from generator.rendering.environment import comment_banner, runtime_source, seal
from generator.rendering.escape import py_doc, py_str
from generator.rendering.export_format import MessageCodeData, MessageExport, MessagePageData
from generator.rendering.message_pages import page_path
from generator.rendering.output import Planned
from generator.rendering.python_module import WIDTH, text_width


def message_hash(family: MessageFamily) -> str:
    """The digest of everything the family says (not where its files are: the hash is the same from any
    directory)."""
    return digest(values(dataclasses.replace(family, files=())))


def message_module_path(family: MessageFamily) -> str:
    return f"generated/python/{family.module}.py"


def plan_message_module(catalog: object, family: MessageFamily) -> list[Planned]:
    return [Planned(message_module_path(family), lambda: render_message_module(family)),
            Planned(f"generated/json/{family.module}.json", lambda: render_message_json(family))]


@lru_cache(maxsize=None)
def _part(name: str, part: str) -> str:
    source = runtime_source(name)
    if part == "all":
        body = source.split('"""', 2)[2]  # message_match.py after its docstring
        return re.sub(r"^from __future__ import annotations\n", "", body, flags=re.M).strip("\n") + "\n"
    parts = re.split(r"^# runtime: (\w+)\n", source, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))[part].strip("\n") + "\n"


def render_message_module(family: MessageFamily) -> str:
    name = family.name.get("en") or family.name.first()
    example = next((c for c in family.codes if c.examples), None)
    description = family.description.get("en") or family.description.first()
    about = textwrap.wrap(py_doc(description[:1].upper() + description[1:]) + ".", 100)
    doc = [f"{family.module}: {py_doc(name)}, from the catalog.", "", *about, "",
           "``lookup(ID)`` gives a code's message template, its placeholders, examples, cause and solution, per",
           "language (the pages: edition ``unreleased``) and per release (the registry); ``match(line)`` reads a",
           "pasted log line and returns its code and the values its placeholders took (``matches`` lists equal",
           "answers)::", ""]
    if example is not None:
        doc += [f'    lookup("{example.id}").solution("en")',
                "    match(line).code.id, match(line).values"]
    doc += ["", "Standard library only, Python 3.9 or newer, typed: vendor this one file."]
    text = "\n".join([
        comment_banner("# ", sealed=True),
        '"""' + "\n".join(doc) + '\n"""',
        "import re as _re",
        _part("message_runtime.py", "prelude").rstrip("\n"),
        "",
        '__all__ = ["CATALOG_HASH", "EDITIONS", "LANGUAGES", "RELEASES", "ErrorCode", "Match", "lookup", "match", '
        '"matches"]',
        "",
        f"CATALOG_HASH = {py_str(message_hash(family))}",
        _tables(family),
        _part("message_match.py", "all").replace("import re as _re\nfrom typing import Optional\n", ""),
        "",
        _part("message_runtime.py", "body"),
    ])
    return seal(text.encode("utf-8")).decode("utf-8")


def _tables(family: MessageFamily) -> str:
    """The data tables as Python literals, one item a line, no line wider than the linters' 120 columns."""
    lines = [_assign("EDITIONS: tuple[str, ...]", family.editions),
             _assign("RELEASES: tuple[str, ...]", family.releases),
             _assign("LANGUAGES: tuple[str, ...]", family.languages),
             f"_PAGES = {py_str(UNRELEASED)}"]
    codes = {code.id: (code.category, code.template, code.arg_names, code.examples, family.first_release(code))
             for code in family.codes}
    lines.append(_assign("_CODES: dict[str, tuple[str, Optional[str], tuple[str, ...], tuple[str, ...], "
                         "Optional[str]]]", codes))
    texts = {(code.id, lang): (code.meanings_in(lang), code.cause_in(lang), code.solution_in(lang),
                               code.note.get(lang) if code.note else None)
             for code in family.codes if code.page for lang in family.languages}
    lines.append(_assign("_PAGE_TEXTS: dict[tuple[str, str], tuple[tuple[str, ...], Optional[str], Optional[str], "
                         "Optional[str]]]", texts))
    registry = {}
    for code in family.codes:
        entries = [(r, e) for r in family.releases if (e := code.registry_at(r, family)) is not None]
        if entries:
            registry[code.id] = tuple((r, str(e["ErrMessage"]), str(e["suggestion"]["Possible Cause"]),  # type: ignore[index]
                                       str(e["suggestion"]["Solution"])) for r, e in entries)  # type: ignore[index]
    lines.append(_assign("_REGISTRY: dict[str, tuple[tuple[str, str, str, str], ...]]", registry))
    return "\n".join(lines) + "\n"


def _assign(head: str, value: object) -> str:
    return _literal(value, "", f"{head} = ", "")


def _literal(value: object, indent: str, lead: str = "", tail: str = ",") -> str:
    """`lead`, a value as a Python literal and `tail`, at an indent: on one line where it fits, else one item
    a line (a long text as adjacent literals). Each part is written once (the items before their whole)."""
    if value is None or isinstance(value, str):
        one = indent + lead + repr_literal(value) + tail
        if value is None or text_width(one) <= WIDTH:
            return one
        inner = indent + "    "
        pieces = "\n".join(inner + py_str(piece) for piece in _pieces(value, WIDTH - text_width(inner) - 2))
        return indent + lead + "(\n" + pieces + "\n" + indent + ")" + tail
    inner = indent + "    "
    if isinstance(value, dict):
        opening, closing = "{", "}"
        items = [_literal(v, inner, repr_literal(k) + ": ") for k, v in value.items()]
    else:
        opening, closing = "(", ")"
        items = [_literal(item, inner) for item in value]  # type: ignore[attr-defined]
    if all("\n" not in item for item in items):
        flat = [item[len(inner):-1] for item in items]  # without the indent and the comma
        one = indent + lead + opening + ", ".join(flat) + ("," if len(flat) == 1 and closing == ")" else "") \
            + closing + tail
        if text_width(one) <= WIDTH:
            return one
    return indent + lead + opening + "\n" + "\n".join(items) + "\n" + indent + closing + tail


def _pieces(text: str, room: int) -> list[str]:
    """A text cut into pieces whose literals are each at most `room` wide (adjacent literals concatenate)."""
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:  # each character one column
        return [text[start:start + room] for start in range(0, len(text), room)] or [""]
    pieces, current, used = [], "", 0
    for char in text:
        size = 1 if char.isascii() and char.isprintable() and char not in '"\\' else text_width(py_str(char)[1:-1])
        if current and used + size > room:
            pieces.append(current)
            current, used = "", 0
        current += char
        used += size
    return pieces + [current]


def repr_literal(value: object) -> str:
    if value is None:
        return "None"
    if isinstance(value, str):
        return py_str(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{repr_literal(k)}: {repr_literal(v)}" for k, v in value.items()) + "}"
    items = [repr_literal(item) for item in value]  # type: ignore[attr-defined]
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


def export_data(family: MessageFamily) -> MessageExport:
    """The family, resolved: every field of every code, the registry at each release, the pages' source."""
    return {
        "$comment": " ".join(comment_banner("").split("\n")),
        "family": family.id, "module": family.module, "name": family.name.as_dict(),
        "description": family.description.as_dict(),
        "catalog_hash": message_hash(family), "languages": list(family.languages), "editions": list(family.editions),
        "pages": {"repo": family.pages.repo, "branch": family.pages.branch, "commit": family.pages.commit,
                  "edition": UNRELEASED,
                  "index": {lang: page_path(family, lang) for lang in family.languages}},
        "registry": ({"repo": family.registry.repo, "path": family.registry.path,
                      "releases": dict(family.registry.releases)} if family.registry else None),
        "codes": [_code(family, code) for code in family.codes],
    }


def _code(family: MessageFamily, code: MessageCode) -> MessageCodeData:
    page: Optional[dict[str, MessagePageData]] = None
    if code.page:
        page = {lang: {"path": page_path(family, lang, code), "meanings": list(code.meanings_in(lang)),
                       "wording": code.wording_in(lang) if code.meanings_in(lang) else None,
                       "numbered": code.numbered_in(lang) if code.examples else None,
                       "note": code.note.get(lang) if code.note else None,
                       "cause": code.cause_in(lang), "solution": code.solution_in(lang)}
                for lang in family.languages}
    return {
        "id": code.id, "category": code.category, "template": code.template,
        "placeholders": code.placeholders, "arguments": list(code.arg_names), "examples": list(code.examples),
        "page": page, "indexed": code.indexed, "added": family.first_release(code),
        "known_disagreements": list(code.known),
        "registry": {r: e for r in family.releases  # type: ignore[misc]
                     if (e := code.registry_at(r, family)) is not None},
    }


def render_message_json(family: MessageFamily) -> str:
    return json.dumps(export_data(family), ensure_ascii=False, indent=2) + "\n"
