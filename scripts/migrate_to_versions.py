#!/usr/bin/env python3
"""Migrates a catalog from one entry per edition to one entry per page version (2026-12).

Before: editions.yaml listed every edition (one per release per timeline) with its
sources and rows, and each text in codes.yaml listed every edition it holds for
(`editions: [...]`). After: editions.yaml lists, per timeline, each distinct page
version once (`versions:`), the editions derive from the tags that ship it; and
each text names the versions from which it holds (`from: [...]`), until a later
entry of the same code, column and language replaces it.

    python scripts/migrate_to_versions.py CATALOG   # a catalog directory or a one-file catalog

It reads the old YAML itself (it needs nothing of the generator) and rewrites the
files in place: the `editions` section becomes `versions`, each text list is
rewritten, everything else (comments, layout, other sections) is kept. Editions
of one timeline are one version when their first-language repository sources
are the same files at the same commits; the id of a version is the id of its
first edition. A version is written `based_on` the previous one of its timeline
with only the rows that differ, when that is shorter and its rows keep their order.
"""
from __future__ import annotations

import json
import re
import sys
import textwrap
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

TEXT_FIELDS = ("meaning", "cause", "solution")


def compose(text: str):
    return YAML(typ="rt").compose(text)


def mapping(node) -> dict:
    return {k.value: (k, v) for k, v in node.value} if isinstance(node, MappingNode) else {}


def plain(node):
    """A node as Python data (strings, lists, dicts)."""
    if isinstance(node, ScalarNode):
        return node.value
    if isinstance(node, SequenceNode):
        return [plain(item) for item in node.value]
    return {k.value: plain(v) for k, v in node.value}


def source_text(text: str, node) -> str:
    return text[node.start_mark.index:node.end_mark.index]


# -- one family's files ---------------------------------------------------------------------------


class Family:
    def __init__(self, family_text: str, family_root, editions_text: str, editions_node, codes_text: str, codes_node):
        self.languages = plain(mapping(family_root)["languages"][1])
        self.timeline_order = []  # (timeline id, suffix), in family.yaml's order
        for page in plain(mapping(family_root)["pages"][1]):
            for timeline in page["timelines"]:
                self.timeline_order.append((timeline["id"], timeline.get("suffix", "")))
        self.editions_text, self.editions_node = editions_text, editions_node
        self.codes_text, self.codes_node = codes_text, codes_node
        self.editions = [plain(item) | {"_node": item} for item in editions_node.value]
        self.versions = self._group()

    def _group(self) -> dict[str, list[list[dict]]]:
        """Per timeline, its versions: lists of editions sharing their first-language repo files."""
        first = self.languages[0]
        by_timeline: dict[str, list[list[dict]]] = {}
        keys: dict[tuple, list[dict]] = {}
        for edition in self.editions:
            sources = edition.get("sources") or []
            files = tuple((s["repo"], s["path"], s["commit"]) for s in sources
                          if "repo" in s and s.get("lang", first) == first)
            key = (edition["timeline"], files) if files else (edition["timeline"], edition["id"])
            if key not in keys:
                keys[key] = []
                by_timeline.setdefault(edition["timeline"], []).append(keys[key])
            keys[key].append(edition)
        return by_timeline

    def version_of(self) -> dict[str, str]:
        """{edition id: version id}"""
        return {e["id"]: group[0]["id"] for groups in self.versions.values() for group in groups for e in group}


# -- writing versions -------------------------------------------------------------------------------


def q(value: str) -> str:
    """A string as a YAML scalar: quoted when YAML would read it as something else."""
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_/ -]*", value) and value.lower() not in ("yes", "no", "true", "false", "null",
                                                                                    "on", "off", "y", "n"):
        return value
    return json.dumps(value, ensure_ascii=False)


def sq(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def flow_list(items) -> str:
    return "[" + ", ".join(items) + "]"


def write_source(source: dict, indent: str) -> list[str]:
    if "repo" in source:
        lines = [
            f"{indent}- repo: {source['repo']}",
            f"{indent}  path: {source['path']}",
            f"{indent}  commit: {source['commit']}",
        ]
        if "tags" in source:
            lines.append(f"{indent}  tags: {flow_list(source['tags'])}")
        if "branch" in source:
            lines.append(f"{indent}  branch: {source['branch']}")
    else:
        kind = next(k for k in ("url", "seed", "document") if k in source)
        lines = (
            [f"{indent}- {kind}: {sq(source[kind])}"]
            if len(source[kind]) < 90 or kind != "document"
            else [f"{indent}- {kind}: >-"]
            + [f"{indent}    {line}" for line in textwrap.wrap(source[kind], 90, break_on_hyphens=False)]
        )
    if "lang" in source:
        lines.append(f"{indent}  lang: {source['lang']}")
    return lines


def row_value(value) -> str:
    if isinstance(value, dict):
        inner = ", ".join(f"{k}: {q(v)}" for k, v in value.items())
        return "{" + inner + "}"
    return q(value)


def rows_diff(base: list[tuple[str, object]], rows: list[tuple[str, object]]):
    """The changes that make `base` into `rows`, or None when their common codes change order."""
    base_names, names = [n for n, _ in base], [n for n, _ in rows]
    common = [n for n in names if n in base_names]
    if common != [n for n in base_names if n in names]:
        return None
    changes = []
    old = dict(base)
    for index, (name, value) in enumerate(rows):
        if name not in old:
            if not index and len(names) < 2:
                return None  # nothing to place it by: write the rows in full
            where = {"after": names[index - 1]} if index else {"before": names[1]}
            recoverable = value if isinstance(value, dict) else {"recoverable": value}
            changes.append((name, {**recoverable, **where}))
        elif old[name] != value:
            changes.append((name, value))
    for name in base_names:
        if name not in names:
            changes.append((name, "dropped"))
    return changes


def write_notes(notes: dict, indent: str) -> list[str]:
    return [f"{indent}notes:"] + [
        f"{indent}  {k}: {q(v) if k != 'translated' else flow_list(v)}" for k, v in notes.items()
    ]


def notes_source(family: Family, edition: dict) -> list[str]:
    """An edition's notes as written (kept verbatim: long lines, quoting)."""
    key, value = mapping(edition["_node"])["notes"]
    return lines_of(family.editions_text, key, value)


def lines_of(text: str, key, value) -> list[str]:
    """The lines a key and its value are written on."""
    start = text.rfind("\n", 0, key.start_mark.index) + 1
    end = value.end_mark.index
    line_start = text.rfind("\n", 0, end) + 1
    if not text[line_start:end].strip():  # the mark is on the next key's line, at its indentation
        end = line_start
    return text[start:end].rstrip("\n").split("\n")


def reindent(lines: list[str], old: int, new: int) -> list[str]:
    return [(" " * new + line[old:]) if line.strip() else line for line in lines]


def write_version(family: Family, group: list[dict], previous, previous_id: str, out: list[str]) -> None:
    first = group[0]
    ind = "      "
    out.append(f"    - version: {sq(first['id'])}")
    sources = [s for s in first.get("sources") or []]
    common = [s for s in sources if all(s in (e.get("sources") or []) for e in group)]
    has_tags = any("repo" in s and s.get("lang", family.languages[0]) == family.languages[0] for s in common)
    if not has_tags:
        out.append(f"{ind}release: {sq(first['release'])}")
    rows = [(n, v) for n, v in (first.get("rows") or {}).items()]
    diff = rows_diff(previous, rows) if previous is not None else None
    based = diff is not None and len(diff) < len(rows) and previous is not None
    if based:
        out.append(f"{ind}based_on: {sq(previous_id)}")
    if common:
        out.append(f"{ind}sources:")
        for source in common:
            out.extend(write_source(source, ind + "  "))
    texts = first["texts"]
    out.append(f"{ind}texts: {flow_list(texts) if isinstance(texts, list) else texts}")
    out.append(f"{ind}order: {first['order']}")
    if based:
        if diff:
            out.append(f"{ind}rows:")
            for name, value in diff:
                out.append(f"{ind}  {name}: {row_value(value)}")
    else:
        out.append(f"{ind}rows:")
        for name, value in rows:
            out.append(f"{ind}  {name}: {row_value(value)}")
    if first.get("not_listed_not_known"):
        out.append(f"{ind}not_listed_not_known: {flow_list(first['not_listed_not_known'])}")
    if first.get("malformations"):
        key, value = mapping(first["_node"])["malformations"]
        out.extend(reindent(lines_of(family.editions_text, key, value), 4, 6))
    notes_same = all(e.get("notes") == first.get("notes") for e in group)
    if notes_same and first.get("notes"):
        out.extend(reindent(notes_source(family, first), 4, 6))
    extras = []
    for edition in group:
        own = [s for s in edition.get("sources") or [] if s not in common]
        notes = edition.get("notes") if not notes_same else None
        if own or notes:
            extras.append((edition, own, notes))
    if extras:
        out.append(f"{ind}editions:")
        for edition, own, notes in extras:
            out.append(f"{ind}  {sq(edition['id'])}:")
            if own:
                out.append(f"{ind}    sources:")
                for source in own:
                    out.extend(write_source(source, ind + "      "))
            if notes:
                out.extend(reindent(notes_source(family, edition), 4, 10))


def write_versions(family: Family) -> str:
    out = ["versions:"]
    for timeline, _suffix in family.timeline_order:
        groups = family.versions.get(timeline)
        if not groups:
            continue
        out.append(f"  {timeline}:")
        previous, previous_id = None, ""
        for group in groups:
            write_version(family, group, previous, previous_id, out)
            previous, previous_id = [(n, v) for n, v in (group[0].get("rows") or {}).items()], group[0]["id"]
    return "\n".join(out) + "\n"


# -- texts ---------------------------------------------------------------------------------------------


def text_sources(text: str, entries_node) -> dict[tuple[str, str], str]:
    """{(lang, text): the scalar's source as written} of a field's old entries."""
    found = {}
    for item in entries_node.value:
        for key, value in item.value:
            if key.value not in ("editions", "origin") and isinstance(value, ScalarNode):
                found.setdefault((key.value, value.value), source_text(text, value).rstrip("\n"))
    return found


def new_entries(family: Family, code_node, field: str, version_of: dict[str, str]) -> list[dict]:
    """The field's entries with `from` lists: where each text starts in each timeline."""
    entries = [plain(item) for item in mapping(code_node)[field][1].value]
    at: dict[tuple[str, str], tuple[str, str]] = {}  # (edition, lang) -> (text, origin)
    for entry in entries:
        for lang in family.languages:
            if lang in entry:
                for edition in entry["editions"]:
                    at[(edition, lang)] = (entry[lang], entry.get("origin", "upstream"))
    starts: dict[tuple[str, str, str], list[str]] = {}  # (lang, text, origin) -> versions
    order: dict[tuple[str, str, str], int] = {}
    index = {e["id"]: i for i, e in enumerate(family.editions)}
    for lang in family.languages:
        for timeline, groups in family.versions.items():
            last = None
            for group in groups:
                values = {at.get((e["id"], lang)) for e in group} - {None}
                if len(values) > 1:
                    raise SystemExit(
                        f"{field} of {plain(code_node).get('python') or plain(code_node).get('c')} differs "
                        f"between editions of version {group[0]['id']} ({lang})"
                    )
                if not values:
                    continue
                value = values.pop()
                if value != last:
                    key = (lang, *value)
                    starts.setdefault(key, []).append(version_of[group[0]["id"]])
                    order.setdefault(key, index[group[0]["id"]])
                last = value
    merged: list[dict] = []
    for key in sorted(starts, key=lambda k: (order[k], family.languages.index(k[0]))):
        lang, text, origin = key
        versions = sorted(starts[key], key=lambda v: index[v])
        for entry in merged:  # zh and en that start at the same versions share an entry
            if entry["from"] == versions and entry["origin"] == origin and lang not in entry["texts"]:
                entry["texts"][lang] = text
                break
        else:
            merged.append({"from": versions, "origin": origin, "texts": {lang: text}})
    return merged


def write_entries(entries: list[dict], sources: dict, languages) -> list[str]:
    out = []
    for entry in entries:
        out.append(f"      - from: {flow_list(sq(v) for v in entry['from'])}")
        if entry["origin"] != "upstream":
            out.append(f"        origin: {entry['origin']}")
        for lang in languages:
            if lang in entry["texts"]:
                out.append(f"        {lang}: {sources[(lang, entry['texts'][lang])]}")
    return out


def migrate_codes(family: Family) -> str:
    text = family.codes_text
    version_of = family.version_of()
    edits = []  # (start, end, replacement)
    for code in family.codes_node.value:
        for field in TEXT_FIELDS:
            if field not in mapping(code):
                continue
            key, value = mapping(code)[field]
            sources = text_sources(text, value)
            entries = new_entries(family, code, field, version_of)
            start = text.rfind("\n", 0, value.start_mark.index) + 1  # the first entry's line
            end = value.end_mark.index
            line_start = text.rfind("\n", 0, end) + 1
            if not text[line_start:end].strip():  # the mark is on the next key's line, at its indentation
                end = line_start
            replacement = "\n".join(write_entries(entries, sources, family.languages)) + "\n"
            edits.append((start, end, replacement))
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


# -- files -----------------------------------------------------------------------------------------------


def section_span(text: str, name: str) -> tuple[int, int]:
    """The lines of a top-level section: from its key to the next top-level key."""
    match = re.search(rf"^{name}:.*$", text, re.M)
    start = match.start()
    following = re.compile(r"^[A-Za-z_]+:", re.M).search(text, match.end())
    return start, following.start() if following else len(text)


def migrate_directory(directory: Path) -> None:
    family_text = (directory / "family.yaml").read_text(encoding="utf-8")
    editions_path, codes_path = directory / "editions.yaml", directory / "codes.yaml"
    editions_text, codes_text = editions_path.read_text(encoding="utf-8"), codes_path.read_text(encoding="utf-8")
    family = Family(
        family_text,
        mapping(compose(family_text))["family"][1],
        editions_text,
        mapping(compose(editions_text))["editions"][1],
        codes_text,
        mapping(compose(codes_text))["codes"][1],
    )
    start, end = section_span(editions_text, "editions")
    editions_path.write_text(editions_text[:start] + write_versions(family) + editions_text[end:], encoding="utf-8")
    codes_path.write_text(migrate_codes(family), encoding="utf-8")


def migrate_file(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    root = mapping(compose(text))
    family = Family(text, root["family"][1], text, root["editions"][1], text, root["codes"][1])
    codes = migrate_codes(family)  # codes come after editions in these files: rewrite them first
    family.codes_text = codes
    start, end = section_span(codes, "editions")
    path.write_text(codes[:start] + write_versions(family) + codes[end:], encoding="utf-8")


def main(argv: list[str]) -> int:
    location = Path(argv[1])
    if location.is_dir():
        for directory in sorted(p for p in location.iterdir() if p.is_dir() and (p / "editions.yaml").exists()):
            migrate_directory(directory)
    else:
        migrate_file(location)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
