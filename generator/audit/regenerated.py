"""Upstream's pipe-table pages against the catalog, by regeneration: for every repository
source that records its page's framing (`page`), the file written back from the catalog
(rendering.upstream_page) compared byte for byte with the file at the source's commit (for a
section of a larger file, with that section: its heading to the next of its level or higher)."""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Optional

from generator.domain.family import Catalog
from generator.domain.layout import compared_part
from generator.rendering.upstream_page import NotWritable, render_upstream_page
from generator.audit.page import audit_page
from generator.audit.findings import Finding, differing_lines
from generator.upstream.git import GitRepo


@dataclass(frozen=True)
class PageCheck:
    family: str
    edition: str
    lang: str
    repo: str
    path: str
    commit: str
    blob: Optional[str]  # None: the file is not at that commit
    identical: bool
    diff: str  # a unified diff of upstream's file (---) and the regenerated one (+++); why not, when not written
    section: Optional[str] = None  # the heading of the section compared, where the page is one of a larger file


def check_pages(catalog: Catalog, repos: dict[str, GitRepo]) -> list[PageCheck]:
    """Every (edition, language) whose page is a described pipe-table file of a repository given."""
    checks, seen = [], set()
    for family in catalog.families:
        for edition in family.editions:
            for source in edition.sources:
                repo = repos.get(source.repo or "")
                if source.layout is None or repo is None:
                    continue
                for lang in (source.lang,) if source.lang else family.languages:
                    key = (family.id, edition.id, lang, source.path)
                    if key not in seen:
                        seen.add(key)
                        checks.append(_check(family, edition, lang, source, repo))
    return checks


def _check(family, edition, lang: str, source, repo: GitRepo) -> PageCheck:
    found_at = (family.id, edition.id, lang, source.repo, source.path, source.commit)
    blob = repo.blob_or_none(source.commit, source.path)
    if blob is None:
        return PageCheck(*found_at, None, False, f"{source.path} is not at commit {source.commit}")
    section = source.layout.heading if source.layout.level > 1 else None
    part = compared_part(source.layout, repo.read_blob(blob))
    if part is None:
        return PageCheck(*found_at, blob, False, f"{source.path} has no heading {source.layout.heading!r}")
    upstream = part[1]
    try:
        written = render_upstream_page(family, edition, lang, source).encode("utf-8")
    except NotWritable as error:
        return PageCheck(*found_at, blob, False, str(error), section)
    if written == upstream:
        return PageCheck(*found_at, blob, True, "", section)
    old = upstream.decode("utf-8", "replace").splitlines(keepends=True)
    new = written.decode("utf-8").splitlines(keepends=True)
    diff = "".join(difflib.unified_diff(old, new, f"upstream/{source.path}", f"regenerated/{source.path}", n=0))
    return PageCheck(*found_at, blob, False, diff or "the bytes differ (line endings or the end of the file)", section)


# -- audit by regeneration -------------------------------------------------------------------------------


def page_findings(family, edition, source, label: str, text: str, data: bytes) -> list[Finding]:
    """`audit --upstream`'s verdict on a page file. A described pipe-table file (its source has
    a `page`) is written back from the catalog and compared byte for byte: identical, it is
    clean, whatever any reader makes of it; else each differing line is a finding (the lines of
    a unified diff: upstream's, and the regenerated one), after the differences the page
    reader names (row, word, structure). Any other file is read and compared cell by cell."""
    edition = edition.in_file(source)
    if source.layout is None:
        return audit_page(family, edition, label, text)
    lang = source.lang or family.languages[0]
    part = compared_part(source.layout, data)  # (the index of its first line in the file, its bytes)
    if part is None:
        return [Finding(label, 1, "structure differs", upstream="no such heading",
                        catalog=source.layout.heading, field="page")]
    first, data = part
    try:
        written = render_upstream_page(family, edition, lang, source).encode("utf-8")
    except NotWritable as error:
        return [Finding(label, 1, "structure differs", upstream="the file", catalog=str(error), field="page")]
    if written == data:
        return []
    old = data.decode("utf-8", "replace").split("\n")
    new = written.decode("utf-8").split("\n")
    lines = [Finding(label, first + index + 1, "structure differs", upstream=theirs, catalog=ours,
                     field="regenerated line") for index, theirs, ours in differing_lines(old, new)]
    return audit_page(family, edition, label, text) + lines
