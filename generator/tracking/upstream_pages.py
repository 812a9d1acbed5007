"""Upstream's pipe-table pages against the catalog, by regeneration: for every repository
source that records its page's framing (`page`), the file written back from the catalog
(rendering.upstream_page) compared byte for byte with the file at the source's commit."""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Optional

from generator.domain.family import Catalog
from generator.rendering.upstream_page import NotWritable, render_upstream_page
from generator.tracking.git import GitError, GitRepo


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
                    key = (family.id, edition.id, lang)
                    if key not in seen:
                        seen.add(key)
                        checks.append(_check(family, edition, lang, source, repo))
    return checks


def _check(family, edition, lang: str, source, repo: GitRepo) -> PageCheck:
    found = (family.id, edition.id, lang, source.repo, source.path, source.commit)
    try:
        blob = repo.blob_at(source.commit, source.path)
    except GitError:
        blob = None
    if blob is None:
        return PageCheck(*found, None, False, f"{source.path} is not at commit {source.commit}")
    upstream = repo.read_blob(blob)
    try:
        written = render_upstream_page(family, edition, lang).encode("utf-8")
    except NotWritable as error:
        return PageCheck(*found, blob, False, str(error))
    if written == upstream:
        return PageCheck(*found, blob, True, "")
    old = upstream.decode("utf-8", "replace").splitlines(keepends=True)
    new = written.decode("utf-8").splitlines(keepends=True)
    diff = "".join(difflib.unified_diff(old, new, f"upstream/{source.path}", f"regenerated/{source.path}", n=0))
    return PageCheck(*found, blob, False, diff or "the bytes differ (line endings or the end of the file)")
