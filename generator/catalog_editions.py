"""Reading the `editions` section: each edition's rows, in its page's order."""
from __future__ import annotations

import re
from typing import Optional

from ruamel.yaml.nodes import Node, ScalarNode

from generator.fields import Fields
from generator.model import RECOVERABLE_VALUES, TEXT_ORIGINS, Code, Edition, Row
from generator.problems import closest

EDITION_ID = re.compile(r"^[0-9A-Za-z][0-9A-Za-z._-]*$")


_EDITION_FIELDS = ("id", "release", "page", "sources", "texts", "order", "rows", "not_listed_not_known", "notes")


def read_editions(f: Fields, node: Node, languages, codes: list[Code], written: set[str]) -> list[Edition]:
    code_index = {code.name: code.index for code in codes}
    editions: list[Edition] = []
    seen: dict[str, Edition] = {}
    items = f.sequence(node, "editions")
    if items == []:
        f.error(node, "editions must list at least one edition")
    for index, item in enumerate(items or ()):
        edition = _edition(f, item, languages, code_index, written)
        if edition is None:
            continue
        if edition.id in seen:
            f.error(item, f"edition {edition.id!r} is already declared at line {seen[edition.id].pos.line}; ids are unique")
            continue
        seen[edition.id] = edition
        editions.append(edition)
    return editions


def declared_ids(f: Fields, node: Node) -> set[str]:
    """Every edition id written, valid or not: texts naming a broken edition are not reported twice."""
    items = node.value if isinstance(node.value, list) else []
    return {f.peek(item, "id") for item in items} - {None}  # type: ignore[return-value]


def _edition(f: Fields, node: Node, languages, code_index, written) -> Optional[Edition]:
    label = f"edition {f.peek(node, 'id')}" if f.peek(node, "id") else "an edition"
    fields = f.mapping(node, label, required=("id", "release", "page", "texts", "order", "rows"), optional=_EDITION_FIELDS)
    if fields is None or "id" not in fields:
        return None
    ident = f.text(fields["id"][1], "edition id")
    if ident is not None and not EDITION_ID.match(ident):
        f.error(fields["id"][1], f"edition id {ident!r} may hold only letters, digits, '.', '-' and '_' (it is part of URLs)")
        ident = None
    what = f"edition {ident}"
    release = f.text(fields["release"][1], f"{what}: release") if "release" in fields else None
    page = f.localized(fields["page"][1], f"{what}: page", languages) if "page" in fields else None
    sources = f.text_list(fields["sources"][1], f"{what}: sources") if "sources" in fields else []
    origins = _origins(f, fields["texts"][1], what, languages) if "texts" in fields else None
    order = f.choice(fields["order"][1], f"{what}: order", ("page", "not known")) if "order" in fields else None
    notes = f.localized(fields["notes"][1], f"{what}: notes", languages) if "notes" in fields else None
    rows = _rows(f, fields["rows"][1], what, code_index, written) if "rows" in fields else None
    unknown = _not_known(f, fields.get("not_listed_not_known"), what, code_index, rows or (), written)
    parts = (ident, release, page, sources, origins, order, rows, unknown)
    if any(part is None for part in parts) or ("notes" in fields and notes is None):
        return None
    if order == "not known":
        rows = sorted(rows, key=lambda row: code_index[row.code])  # type: ignore[arg-type]
    return Edition(
        ident, release, page, tuple(s for s, _ in sources), None if origins == "not known" else origins,  # type: ignore[arg-type]
        order == "page", tuple(rows), tuple(unknown), notes, f.pos(node))  # type: ignore[arg-type]


def _origins(f: Fields, node: Node, what: str, languages):
    if isinstance(node, ScalarNode):
        return f.choice(node, f"{what}: texts", ("not known",))
    fields = f.mapping(node, f"{what}: texts", optional=languages)
    if fields is None:
        return None
    origins = tuple((lang, f.choice(v, f"{what}: texts ({lang})", TEXT_ORIGINS)) for lang, (_, v) in fields.items())
    if not origins:
        f.error(node, f"{what}: texts names no language; write `texts: not known` instead")
        return None
    order = {lang: i for i, lang in enumerate(languages)}
    return None if any(o is None for _, o in origins) else tuple(sorted(origins, key=lambda x: order[x[0]]))


def _rows(f: Fields, node: Node, what: str, code_index, written) -> Optional[list[Row]]:
    fields = f.mapping(node, f"{what}: rows", free_keys=True)
    if fields is None:
        return None
    rows = []
    for name, (key, value) in fields.items():
        if name not in code_index and name in written:
            continue  # a code written but invalid: reported where it is written
        if name not in code_index:
            f.error(key, f"{what}: rows: no code named {name!r}{closest(name, code_index)}; add it to codes first")
            continue
        recoverable = f.choice(value, f"{what}: rows: {name}", RECOVERABLE_VALUES)
        if recoverable is not None:
            rows.append(Row(name, recoverable, f.pos(key)))
    return rows if len(rows) == len(fields) else None


def _not_known(f: Fields, pair, what: str, code_index, rows, written) -> Optional[list[str]]:
    if pair is None:
        return []
    items = f.text_list(pair[1], f"{what}: not_listed_not_known")
    if items is None:
        return None
    listed = {row.code for row in rows}
    result = []
    for name, item in items:
        if name not in code_index and name in written:
            return None  # a code written but invalid: reported where it is written
        if name not in code_index:
            f.error(item, f"{what}: not_listed_not_known: no code named {name!r}{closest(name, code_index)}")
        elif name in listed:
            f.error(item, f"{what}: {name} is in rows, so its listing is known; remove it from not_listed_not_known")
        elif name in result:
            f.error(item, f"{what}: {name} is named twice in not_listed_not_known")
        else:
            result.append(name)
    return result
