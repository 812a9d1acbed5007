"""Convert a catalog of format 4 to format 5: each text written once.

Format 4 let a text entry hold for versions of one timeline only, so a text that the copies of a
page share (the Python page in hicann/ge and in hicann/hixl, the C++ pages) was written once per
timeline. Format 5 lets an entry name versions of several timelines, and refuses an entry that
repeats another's text for the same code, column, language, origin and markup. This script
merges such entries: each text keeps every version it held from (on each timeline it still holds
until the next entry there starts, so every edition shows what it showed), and the entries are
otherwise left as written, comments included.

    python scripts/migrate_to_format_5.py CATALOG [CATALOG ...]

CATALOG: a catalog directory or one catalog file. It runs once and is deleted after it ran (the
project's history keeps it; the loader names the commit that has it).
"""
from __future__ import annotations

import io
import sys
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq

TEXT_FIELDS = ("meaning", "cause", "solution")
NOT_TEXTS = ("from", "origin", "untranslated", "markdown")


def yaml() -> YAML:
    instance = YAML(typ="rt")
    instance.preserve_quotes = True
    instance.width = 4096
    instance.indent(mapping=2, sequence=4, offset=2)
    return instance


def atoms(entry: CommentedMap) -> list[tuple]:
    """What an entry says, one piece per language: (key, lang); the key is the same for two
    pieces that say the same (language, text, origin, markdown) or mark the same language untranslated."""
    origin, markdown = str(entry.get("origin", "upstream")), bool(entry.get("markdown", False))
    found = [((lang, str(text), origin, markdown), lang) for lang, text in entry.items() if lang not in NOT_TEXTS]
    found += [(("untranslated", str(lang), markdown), ("untranslated", str(lang)))
              for lang in entry.get("untranslated", ())]
    return found


def merged(entries: CommentedSeq) -> CommentedSeq:
    """A column's entries with each text written once."""
    starts: dict[tuple, list[str]] = {}
    for entry in entries:
        for key, _ in atoms(entry):
            starts.setdefault(key, [])
            starts[key] += [str(s) for s in entry["from"] if str(s) not in starts[key]]
    written: set[tuple] = set()
    result = CommentedSeq()
    for entry in entries:
        kept = [(key, piece) for key, piece in atoms(entry) if key not in written]
        written.update(key for key, _ in kept)
        groups: dict[tuple, list] = {}
        for key, piece in kept:
            groups.setdefault(tuple(starts[key]), []).append(piece)
        for number, (group_starts, pieces) in enumerate(groups.items()):
            result.append(_entry(entry, list(group_starts), pieces, keep_comments=number == 0))
    return result


def _entry(entry: CommentedMap, group_starts: list[str], pieces: list, keep_comments: bool) -> CommentedMap:
    """The entry holding these pieces from these versions: the entry itself when it holds them all
    (its comments kept), else a copy with only them."""
    out = entry if keep_comments else CommentedMap()
    if not keep_comments:
        for key, value in entry.items():
            out[key] = value
    flow = CommentedSeq(_quoted(s, entry["from"]) for s in group_starts)
    flow.fa.set_flow_style()
    out["from"] = flow
    languages = {p for p in pieces if isinstance(p, str)}
    for lang in [k for k in list(out) if k not in NOT_TEXTS and k not in languages]:
        del out[lang]
    untranslated = [p[1] for p in pieces if isinstance(p, tuple)]
    if untranslated:
        marks = CommentedSeq(untranslated)
        marks.fa.set_flow_style()
        out["untranslated"] = marks
    elif "untranslated" in out:
        del out["untranslated"]
    return out


def _quoted(start: str, written: CommentedSeq):
    """A version id quoted as the entry writes its first one."""
    first = written[0] if len(written) else start
    return type(first)(start) if type(first) is not str else start


def convert(path: Path) -> bool:
    """Convert one file; whether it changed."""
    text = path.read_text(encoding="utf-8")
    instance = yaml()
    data = instance.load(text)
    if not isinstance(data, CommentedMap) or not ("codes" in data or "format" in data):
        return False  # nothing to convert: the file is left as it is written
    if data.get("format") == 4:
        data["format"] = 5
    for code in data.get("codes") or ():
        for field in TEXT_FIELDS:
            if field in code:
                code[field] = merged(code[field])
    out = io.StringIO()
    instance.dump(data, out)
    if out.getvalue() != text:
        path.write_text(out.getvalue(), encoding="utf-8")
        return True
    return False


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip().splitlines()[-3], file=sys.stderr)
        return 2
    for location in map(Path, argv):
        files = sorted(location.rglob("*.yaml")) if location.is_dir() else [location]
        for path in files:
            if convert(path):
                print(f"converted {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
