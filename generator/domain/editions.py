"""The model of what upstream published: sources, rows, page versions and the editions that ship them."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Iterable, Optional

from generator.core.problems import Pos
from generator.core.releases import UNRELEASED, edition_order
from generator.domain.layout import PageLayout
from generator.domain.model import Localized, Page, Recoverable, Timeline

# An edition's id: its release, its timeline's suffix, and -repo for a repository copy of a
# release that also has a published page on the timeline (9.0.0-v2-repo). The one place
# that rule is written.
REPO_COPY = "-repo"


def edition_id(release: str, suffix: str, repo_copy: bool = False) -> str:
    return release + suffix + (REPO_COPY if repo_copy else "")


def id_tails(suffix: str) -> tuple[str, str]:
    """The endings an edition id of a timeline with this suffix can have, the longer first."""
    return suffix + REPO_COPY, suffix


def place_of(edition_id: str, timelines: Iterable[Timeline]) -> Optional[tuple[Timeline, str]]:
    """The timeline whose suffix an edition id ends with (the longest), and the release before
    it; None when the id fits none of them."""
    from generator.core.releases import release_key

    best: Optional[tuple[Timeline, str]] = None
    for timeline in timelines:
        for tail in id_tails(timeline.suffix):
            release = edition_id[: len(edition_id) - len(tail)] if tail else edition_id
            if edition_id.endswith(tail) and release_key(release) is not None:
                if best is None or len(timeline.suffix) > len(best[0].suffix):
                    best = (timeline, release)
                break
    return best


@dataclass(frozen=True)
class Source:
    """Where an edition's content comes from, in one language (or all: lang None)."""

    kind: str  # "repo", "url", "seed" or "document"
    lang: Optional[str]
    repo: Optional[str] = None
    path: Optional[str] = None
    commit: Optional[str] = None
    tags: tuple[str, ...] = ()
    branch: Optional[str] = None
    ref: Optional[str] = None  # for a repository file: "tag", "branch" or "merge-request", what holds its commit
    url: Optional[str] = None
    seed: Optional[str] = None
    document: Optional[str] = None
    pos: Optional[Pos] = None
    layout: Optional[PageLayout] = None  # for a pipe-table file: its framing and dialect
    codes: tuple[str, ...] = ()  # a split page's second (third …) file: the codes whose rows it holds


@dataclass(frozen=True)
class Row:
    """One row of an edition's page: the code it lists, by the name the page gives it, and its
    是否可恢复 cell."""

    code: str  # the code's catalog name (Code.name)
    name: str  # the name the page shows (a name the code had then), without the page's row_prefix
    recoverable: Recoverable  # what the edition says
    disagreements: tuple[tuple[str, Recoverable], ...]  # (lang, value) where that language's page says otherwise
    pos: Pos


@dataclass(frozen=True)
class Malformation:
    """A known break in an upstream file (merge-conflict markers, an unclosed cell)."""

    kind: str
    code: str
    field: str
    line: int
    shown: str  # which side a reader sees
    sides: tuple[tuple[str, str], ...]  # (label, text)
    pos: Pos


@dataclass(frozen=True)
class Version:
    """A page version: one upstream file's content on one timeline (per language), which one
    or more releases ship. Its editions derive from the tags that ship it (one per final
    release; else one for its first pre-release; else `unreleased` for a branch head), or
    from `release` for a page no tag ships (a published page, a document)."""

    id: str
    timeline: Timeline
    page: Page
    based_on: Optional[str]  # the version its rows are written against
    release: Optional[str]  # written only for a version no repository source ships
    sources: tuple[Source, ...]
    languages: Optional[tuple[str, ...]]  # languages whose texts are known; None: not known
    order_known: bool
    rows: tuple[Row, ...]  # resolved: the based_on version's rows with this version's changes
    not_known: tuple[str, ...]
    malformations: tuple[Malformation, ...]
    notes: Optional[Localized]
    editions: tuple[str, ...]  # the ids of the editions that show it, oldest first
    index: int  # position in its timeline
    pos: Pos

    @cached_property
    def row_by_code(self) -> dict[str, Row]:
        return {row.code: row for row in self.rows}

    def has_texts(self, lang: str) -> bool:
        return self.languages is not None and lang in self.languages


@dataclass(frozen=True)
class Edition:
    """One page version as one release shows it (what the site, the module and the export
    call an edition: `9.0.0-v2`)."""

    id: str
    release: str
    timeline: Timeline
    page: Page
    family: str
    version: str  # the id of its page version
    sources: tuple[Source, ...]
    languages: Optional[tuple[str, ...]]  # languages whose texts are known; None: not known
    order_known: bool
    rows: tuple[Row, ...]  # in display order: the page's, or the catalog's when not known
    not_known: tuple[str, ...]  # codes whose listing on this page is not known
    malformations: tuple[Malformation, ...]
    notes: Optional[Localized]
    index: int  # position in the family's release order
    pos: Pos

    @cached_property
    def row_by_code(self) -> dict[str, Row]:
        return {row.code: row for row in self.rows}

    def name_shown(self, code: str) -> Optional[str]:
        """The name this edition's page gives a code it lists (with the page's row prefix), or None."""
        row = self.row_by_code.get(code)
        if row is None:
            return None
        return (self.page.row_prefix if self.page.row_names == "c" else "") + row.name

    @cached_property
    def position(self) -> dict[str, int]:
        """1-based position of each listed code in this edition's display order."""
        return {row.code: index for index, row in enumerate(self.rows, 1)}

    @property
    def texts_known(self) -> bool:
        return self.languages is not None

    def has_texts(self, lang: str) -> bool:
        return self.languages is not None and lang in self.languages

    @property
    def released(self) -> bool:
        return self.release != UNRELEASED

    @property
    def repo_copy(self) -> bool:
        """A repository copy of a published page that says otherwise (`-repo`)."""
        return self.id.endswith(REPO_COPY)

    def file_of(self, code: str, lang: Optional[str]) -> Optional[str]:
        """The path of the file (of `lang`) whose table lists the code, where the page spans several."""
        files = [s for s in self.sources if s.kind == "repo" and s.lang in (lang, None)]
        return next((s.path for s in files if code in s.codes), files[0].path if files else None)

    def in_file(self, source: Source) -> "Edition":
        """The edition as one of its files shows it: where upstream split the page over several
        files, only the rows that file holds (and no other file of its language); else itself."""
        same = [s for s in self.sources if s.kind == "repo" and s.lang == source.lang]
        if not any(s.codes for s in same):
            return self
        held = set(source.codes) if source.codes else \
            {r.code for r in self.rows} - {c for s in same for c in s.codes}
        from dataclasses import replace

        return replace(self, rows=tuple(r for r in self.rows if r.code in held),
                       sources=tuple(s for s in self.sources if s is source or s.lang != source.lang))

    @property
    def order_key(self) -> tuple:
        return edition_order(self.release, self.page.index, self.timeline.index, self.repo_copy)
