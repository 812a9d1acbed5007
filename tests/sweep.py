"""The mutation sweep: every value of a catalog changed, one at a time.

A mutation replaces one scalar of one catalog file (a value, or a key) by another
value of the same kind: another value seen at the same kind of place in the
catalog when there is one (so a recoverability becomes another recoverability, a
text another text), else the value itself changed (a number plus one, a boolean
flipped, a string with a letter added). Each step then checks, from the outputs
and the cache that `generate` left for the unchanged catalog:

- plain `check` lists exactly the files `check --full` lists;
- an incremental `generate` writes exactly the tree a full render gives.

A mutation that makes the catalog invalid is skipped and counted.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional

from ruamel.yaml import YAML
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

from generator.core.problems import CatalogError
from tests.helpers import run_cli, tree

_INT = "tag:yaml.org,2002:int"
_BOOL = "tag:yaml.org,2002:bool"
_STR = "tag:yaml.org,2002:str"


@dataclass(frozen=True)
class Mutation:
    file: str  # relative to the catalog directory
    line: int
    col: int
    place: str  # the kind of place: the path, with list items as []
    start: int  # character offsets of the scalar in the file
    end: int
    after: str  # the scalar's new source text

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col} ({self.place}) -> {self.after[:60]}"

    def apply(self, catalog: Path) -> None:
        path = catalog / self.file
        text = path.read_text(encoding="utf-8")
        path.write_text(text[:self.start] + self.after + text[self.end:], encoding="utf-8")


@dataclass(frozen=True)
class _Scalar:
    file: str
    node: ScalarNode
    place: str
    text: str  # the file's text


def _scalars(file: str, text: str) -> list[_Scalar]:
    found: list[_Scalar] = []

    def walk(node, place: str) -> None:
        if isinstance(node, ScalarNode):
            found.append(_Scalar(file, node, place, text))
        elif isinstance(node, MappingNode):
            for key, value in node.value:
                name = key.value if isinstance(key, ScalarNode) else "?"
                walk(key, f"{place}.<key>")
                walk(value, f"{place}.{name}")
        elif isinstance(node, SequenceNode):
            for item in node.value:
                walk(item, f"{place}[]")

    walk(YAML(typ="rt").compose(text), "")
    return found


def _literal(value: str) -> str:
    """A string as a one-line YAML scalar (a JSON string is a double-quoted YAML scalar)."""
    return json.dumps(value, ensure_ascii=False)


def _changed(scalar: _Scalar) -> Optional[str]:
    """The scalar's own value changed, as source text."""
    node = scalar.node
    if node.tag == _INT:
        source = scalar.text[node.start_mark.index:node.end_mark.index]
        match = re.fullmatch(r"(-?)(0x)?([0-9A-Fa-f]+)", source.strip())
        if match is None:
            return None
        sign, hexa, digits = match.groups()
        number = int(digits, 16 if hexa else 10) + 1
        return f"{sign}0x{number:0{len(digits)}X}" if hexa else f"{sign}{number}"
    if node.tag == _BOOL:
        return "false" if node.value.lower() == "true" else "true"
    return _literal(node.value + "Z")


def _other(scalar: _Scalar, seen: dict[str, list[_Scalar]]) -> Optional[str]:
    """Another value seen at the same kind of place, as source text; None when there is none."""
    node = scalar.node
    values = sorted({s.node.value for s in seen.get(scalar.place, ()) if s.node.tag == node.tag} - {node.value})
    if not values:
        return None
    after = next((v for v in values if v > node.value), values[0])  # the next one, in order
    if node.tag == _STR:
        return _literal(after)
    source = next(s for s in seen[scalar.place] if s.node.value == after)
    return source.text[source.node.start_mark.index:source.node.end_mark.index].strip()


def mutations(catalog: Path, files: Optional[Iterable[str]] = None) -> list[Mutation]:
    """One mutation per scalar of the named files (every catalog file by default)."""
    every = sorted(p.relative_to(catalog).as_posix() for p in catalog.rglob("*.yaml"))
    scalars = {f: _scalars(f, (catalog / f).read_text(encoding="utf-8")) for f in every}
    seen: dict[str, list[_Scalar]] = {}
    for found in scalars.values():
        for scalar in found:
            seen.setdefault(scalar.place, []).append(scalar)
    out = []
    for file in files if files is not None else every:
        for scalar in scalars[file]:
            after = _other(scalar, seen) or _changed(scalar)
            if after is None:
                continue
            node = scalar.node
            start, end = node.start_mark.index, node.end_mark.index
            source = scalar.text[start:end]
            if node.style in ("|", ">"):  # a block scalar's span ends with its line break(s)
                after += "\n" * (len(source) - len(source.rstrip("\n")))
            out.append(
                Mutation(file, node.start_mark.line + 1, node.start_mark.column + 1, scalar.place, start, end, after)
            )
    return out


def one_per_place(found: list[Mutation]) -> list[Mutation]:
    """One mutation per kind of place of each file, chosen by a hash (not always the first)."""
    groups: dict[tuple[str, str], list[Mutation]] = {}
    for mutation in found:
        groups.setdefault((mutation.file, mutation.place), []).append(mutation)
    picked = []
    for (file, place), items in sorted(groups.items()):
        index = int(hashlib.sha256(f"{file}|{place}".encode()).hexdigest(), 16) % len(items)
        picked.append(items[index])
    return picked


# -- the steps ------------------------------------------------------------------------------------


@dataclass
class Report:
    checked: int = 0
    skipped: int = 0  # mutations that made the catalog invalid
    failures: list[str] = field(default_factory=list)


def _link_tree(source: Path, target: Path) -> None:
    """A copy made of hard links: the generator replaces files, it never writes into them."""
    shutil.copytree(source, target, copy_function=os.link)


def _files(root: Path) -> dict[str, int]:
    return {p.relative_to(root).as_posix(): p.lstat().st_ino for p in root.rglob("*") if not p.is_dir()}


def _restore(source: Path, target: Path) -> None:
    """Make the linked copy `target` the copy of `source` again, touching only the files a
    step replaced, added or removed (on this machine, deleting a whole tree each step cost
    more than the step)."""
    wanted, present = _files(source), _files(target)
    for rel, inode in present.items():
        if wanted.get(rel) != inode:
            (target / rel).unlink()
    for rel, inode in wanted.items():
        if present.get(rel) != inode:
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            os.link(source / rel, target / rel)


def _listed(output: str) -> list[str]:
    return sorted(line for line in output.splitlines() if re.match(r"(stale|missing|orphaned)[^:]*: ", line))


def baseline(catalog: Path, out: Path) -> None:
    """The outputs and cache of the unchanged catalog, as a first `generate` leaves them."""
    result = run_cli("generate", "--catalog", catalog, "--out", out)
    assert result.code == 0, result.err


def sweep(catalog: Path, base_out: Path, work: Path, found: list[Mutation], report: Report) -> Report:
    """Apply each mutation to a copy of `catalog` and check both properties against a copy
    of `base_out` (the baseline's outputs and cache)."""
    original = {p: p.read_bytes() for p in catalog.rglob("*.yaml")}
    out = work / "out"
    _link_tree(base_out, out)
    try:
        for mutation in found:
            for path, data in original.items():
                path.write_bytes(data)
            mutation.apply(catalog)
            _step(catalog, base_out, out, mutation, report)
            _restore(base_out, out)
    finally:
        for path, data in original.items():
            path.write_bytes(data)
    return report


def _full_render(catalog: Path, out: Path) -> Optional[tuple[list[str], dict[str, bytes]]]:
    """What `check --full` lists against `out`, and the tree a full `generate` would leave
    there (None when the catalog is invalid): rendered in this process, by the same survey."""
    from generator.reading.load import load_catalog
    from generator.writing.state import Cache
    from generator.writing.tree import survey
    from generator.rendering.targets import plan_outputs

    try:
        loaded = load_catalog(catalog)
    except CatalogError:
        return None
    outputs, owners = plan_outputs(loaded)
    result = survey(out, outputs, owners, Cache(), full=True)
    listed = sorted([f"stale: {p}" for p in result.stale] + [f"missing: {p}" for p in result.missing]
                    + [f"orphaned: {p}" for p in result.orphaned]
                    + [f"orphaned, edited by hand: {p}" for p in result.edited_orphans])
    expected = tree(out, outputs_only=True)
    expected.update(result.texts)
    for path in result.orphaned:
        del expected[path]
    return listed, expected


def _step(catalog: Path, base_out: Path, out: Path, mutation: Mutation, report: Report) -> None:
    full = _full_render(catalog, out)
    if full is None:
        report.skipped += 1
        return
    report.checked += 1
    listed, expected = full
    plain = run_cli("check", "--catalog", catalog, "--out", out)
    if _listed(plain.out) != listed or plain.code != (1 if listed else 0):
        missed, extra = sorted(set(listed) - set(_listed(plain.out))), sorted(set(_listed(plain.out)) - set(listed))
        report.failures.append(f"{mutation}: plain check (exit {plain.code}) missed {missed[:5]} and added {extra[:5]}")
    generated = run_cli("generate", "--catalog", catalog, "--out", out)
    if generated.code != 0:
        report.failures.append(f"{mutation}: generate failed: {generated.err.strip()}")
    elif tree(out, outputs_only=True) != expected:
        now = tree(out, outputs_only=True)
        wrong = sorted(p for p in set(now) | set(expected) if now.get(p) != expected.get(p))
        report.failures.append(f"{mutation}: an incremental generate left {wrong[:5]} unlike a full render")


def summary(report: Report) -> str:
    return (f"{report.checked} mutations checked, {report.skipped} skipped (catalog invalid), "
            f"{len(report.failures)} failed" + "".join(f"\n  {f}" for f in report.failures[:20]))


__all__ = ["Mutation", "Report", "baseline", "mutations", "one_per_place", "summary", "sweep", "tree"]
