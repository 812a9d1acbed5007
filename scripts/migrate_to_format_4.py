"""Convert a catalog of format 3 to format 4, in place: the smallest text edits, comments kept.

    python scripts/migrate_to_format_4.py CATALOG      (a catalog directory, or one catalog file)

Format 4 changes three things a format-3 catalog can hold:
- a text entry's `from` names versions of one timeline only: an entry whose `from` mixes
  timelines becomes one entry per timeline, each with the same texts and keys, in the order
  their first versions were written;
- each timeline of family.yaml says where the page's translations are kept (`translations:
  {en: [PATH, ...]}`): the paths of the translation sources its versions cite;
- `format: 3` becomes `format: 4`.
(`renamed` and `removed` are new and optional; a code marked `obsolete` cannot be converted
without knowing which repository dropped it: the script stops and says so.)

Nothing else changes: every edition resolves to the same texts, and the outputs to the same
bytes apart from their stamps and the JSON export's copy of the entries as written.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from ruamel.yaml import YAML

ENTRY = re.compile(r"^(?P<indent> *)- from: \[(?P<ids>[^\]]*)\]\n")


def versions_of(editions_yaml: Path) -> tuple[dict[str, str], dict[str, dict[str, list[str]]]]:
    """Each version's timeline, and per timeline the paths of its translation sources by language."""
    data = YAML(typ="safe").load(editions_yaml.read_text(encoding="utf-8")) or {}
    if "versions" not in data:
        return {}, {}
    timeline_of: dict[str, str] = {}
    translations: dict[str, dict[str, list[str]]] = {}
    for timeline, versions in data["versions"].items():
        for version in versions:
            timeline_of[version["version"]] = timeline
            for source in version.get("sources") or ():
                lang, path = source.get("lang"), source.get("path")
                if lang not in (None, "zh") and path:
                    paths = translations.setdefault(timeline, {}).setdefault(lang, [])
                    if path not in paths:
                        paths.append(path)
    return timeline_of, translations


def split_entries(text: str, timeline_of: dict[str, str]) -> tuple[str, int]:
    """codes.yaml with each mixed entry split per timeline; and how many were split."""
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    split = 0
    index = 0
    while index < len(lines):
        match = ENTRY.match(lines[index])
        if not match:
            out.append(lines[index])
            index += 1
            continue
        indent = match.group("indent")
        body_end = index + 1
        while body_end < len(lines) and lines[body_end].startswith(indent + "  ") and lines[body_end].strip():
            body_end += 1
        ids = [i.strip().strip("'\"") for i in match.group("ids").split(",") if i.strip()]
        groups: dict[str, list[str]] = {}
        for ident in ids:
            groups.setdefault(timeline_of[ident], []).append(ident)
        split += len(groups) > 1
        for group in groups.values():
            out.append(f"{indent}- from: [{', '.join(repr(i) for i in group)}]\n")
            out += lines[index + 1:body_end]
        index = body_end
    return "".join(out), split


def add_translations(text: str, translations: dict[str, dict[str, list[str]]]) -> str:
    """family.yaml with `translations:` after each timeline's `paths` list."""
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    current = None
    index = 0
    while index < len(lines):
        line = lines[index]
        out.append(line)
        index += 1
        found = re.match(r"^ *- id: (\S+)\n", line)
        if found:
            current = found.group(1)
        paths = re.match(r"^( *)paths:\n", line)
        if not paths or current not in translations:
            continue
        indent = paths.group(1)
        while index < len(lines) and lines[index].startswith(indent + "  - "):
            out.append(lines[index])
            index += 1
        out.append(f"{indent}translations:\n")
        for lang, found_paths in translations[current].items():
            out.append(f"{indent}  {lang}:\n")
            out += [f"{indent}    - {p}\n" for p in found_paths]
    return "".join(out)


def migrate_family(codes: Path, editions: Path, family: Path) -> list[str]:
    """One family's files (a single-file catalog passes the same file three times)."""
    if re.search(r"^ +obsolete:", codes.read_text(encoding="utf-8"), re.M):
        raise SystemExit(f"{codes}: a code is marked `obsolete`; write `removed: {{REPO: RELEASE}}` by hand")
    timeline_of, translations = versions_of(editions)
    text, split = split_entries(codes.read_text(encoding="utf-8"), timeline_of)
    codes.write_text(text, encoding="utf-8")
    family.write_text(add_translations(family.read_text(encoding="utf-8"), translations), encoding="utf-8")
    return [f"{codes}: {split} entries split per timeline",
            f"{family}: translations of {', '.join(sorted(translations)) or 'no timeline'}"]


def migrate(catalog: Path) -> list[str]:
    """A catalog directory (files at its top, a folder per family) or a single catalog file."""
    done = []
    tops = [catalog] if catalog.is_file() else sorted(catalog.glob("*.yaml"))
    for path in tops:
        text = path.read_text(encoding="utf-8")
        new = re.sub(r"^format: 3$", "format: 4", text, flags=re.M)
        if new != text:
            path.write_text(new, encoding="utf-8")
            done.append(f"{path}: format 4")
        if re.search(r"^versions:", new, re.M):
            done += migrate_family(path, path, path)
    for family in sorted(p for p in catalog.iterdir() if (p / "editions.yaml").is_file()) if catalog.is_dir() else ():
        done += migrate_family(family / "codes.yaml", family / "editions.yaml", family / "family.yaml")
    return done


if __name__ == "__main__":
    if len(sys.argv) != 2 or not Path(sys.argv[1]).exists():
        sys.exit("usage: python scripts/migrate_to_format_4.py CATALOG (a directory or one file)")
    print("\n".join(migrate(Path(sys.argv[1]))))
