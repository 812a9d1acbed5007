#!/usr/bin/env python3
"""Records what upstream's repositories ship, for the tests of the catalog's content.

    python scripts/record_upstream.py hicann/ge=DIR hicann/hixl=DIR libochao-huawei/hixl=DIR

writes tests/fixtures/upstream-record.json: for each repository, every release tag
and its commit, the default branch's head, and for every path the catalog cites
there (its versions' sources, its timelines' paths, its families' upstream source
files), the git blob id of the file at each of those refs; and for each page kept as a
section of a larger file, the sha256 of that section at its source's commit. It reads the
repositories with git alone: no page or source reader of the generator is used, so
a misreading in `import` or `audit` cannot hide behind the record (the byte-for-byte
regeneration of upstream's pages is checked against these blob ids).

Run it after a release is imported, and commit the record with the catalog. The
tests compare the catalog with what is recorded and nothing else: a release the
record does not know yet turns no test red.
"""
from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.reading.load import load_catalog  # noqa: E402
from generator.upstream.git import GitRepo  # noqa: E402

RECORD = ROOT / "tests" / "fixtures" / "upstream-record.json"


def cited_paths(catalog) -> dict[str, set[str]]:
    paths: dict[str, set[str]] = {}
    for family in catalog.families:
        for version in family.versions:
            for source in version.sources:
                if source.kind == "repo":
                    paths.setdefault(source.repo, set()).add(source.path)
        for timeline in family.timelines:
            if timeline.repo:
                paths.setdefault(timeline.repo, set()).update(timeline.paths)
        for upstream in family.upstream:
            paths.setdefault(upstream.repo, set()).add(upstream.path)
    return paths


def record(repos: dict[str, GitRepo], catalog) -> dict:
    out = {
        "$comment": "Recorded by `python scripts/record_upstream.py OWNER/NAME=DIR ...` from upstream's repositories "
        "with git alone: release tags and their commits, the default branch's head, and the blob id of "
        "each file the catalog cites at each of them. Do not edit by hand: run the script again.",
        "repositories": {},
    }
    for name, repo in sorted(repos.items()):
        refs = {tag: repo.commit(tag) for tag in repo.release_tags()}
        head = {"branch": repo.head_branch(), "commit": repo.commit("HEAD")}
        files = {}
        for path in sorted(cited_paths(catalog).get(name, ())):
            at = {label: repo.blob_at(ref, path) for label, ref in [*((t, t) for t in refs), ("HEAD", "HEAD")]}
            files[path] = {label: blob for label, blob in at.items() if blob}
        out["repositories"][name] = {"tags": refs, "head": head, "files": files,
                                     "sections": sections(repo, name, catalog)}
    return out


def sections(repo: GitRepo, name: str, catalog) -> dict:
    """For each page the catalog keeps as a section of a larger file: the sha256 of that section
    at the source's commit, cut here by plain line matching (its heading line, to the next
    heading of its level or higher outside ``` fences), not by the generator's own reader."""
    found: dict = {}
    for family in catalog.families:
        for version in family.versions:
            for source in version.sources:
                if source.kind != "repo" or source.repo != name or source.layout is None or source.layout.level < 2:
                    continue
                text = repo.read_blob(repo.blob_at(source.commit, source.path)).decode("utf-8")
                heading = "#" * source.layout.level + " " + source.layout.title
                cut = _cut(text, heading, source.layout.level)
                found.setdefault(source.path, {})[source.commit] = {
                    "heading": heading, "sha256": hashlib.sha256(cut.encode("utf-8")).hexdigest()}
    return found


def _cut(text: str, heading: str, level: int) -> str:
    lines = text.split("\n")
    start = lines.index(heading)
    end, fenced = len(lines), False
    for index in range(start + 1, len(lines)):
        if lines[index].startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"#{1,%d} " % level, lines[index]):
            end = index
            break
    return "\n".join(lines[start:end]) + ("\n" if end < len(lines) else "")


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    catalog = load_catalog(ROOT / "catalog")
    repos = {}
    for value in argv[1:]:
        name, _, directory = value.partition("=")
        repos[name] = GitRepo(name, Path(directory))
    RECORD.write_text(json.dumps(record(repos, catalog), indent=1, sort_keys=False) + "\n", encoding="utf-8")
    print(f"wrote {RECORD.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
