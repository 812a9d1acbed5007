"""A family and the whole catalog: every page, version, edition and code, and the questions they answer."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Optional, TypeVar, cast

from generator.core.problems import Pos
from generator.domain.codes import Code
from generator.domain.editions import REPO_COPY, Edition, Version
from generator.domain.messages import MessageFamily
from generator.domain.model import (
    CNames,
    Header,
    Localized,
    Page,
    PythonNames,
    Repository,
    Site,
    Timeline,
    UpstreamFile,
    ValueLayout,
)


T = TypeVar("T")


def _grouped(editions: tuple[Edition, ...], key: Callable[[Edition], str]) -> dict[str, tuple[Edition, ...]]:
    """Editions by a key, each group in the editions' order."""
    table: dict[str, list[Edition]] = {}
    for edition in editions:
        table.setdefault(key(edition), []).append(edition)
    return {name: tuple(group) for name, group in table.items()}


@dataclass(frozen=True)
class Family:
    id: str
    name: Localized
    description: Localized
    languages: tuple[str, ...]  # of the texts; the first is the default
    site_path: str  # "" (the site's root) or "hixl": where its pages live
    python: PythonNames
    c: CNames
    sphinx_directive: str
    value_layouts: tuple[ValueLayout, ...]  # how upstream's macros compute values (GE_ERRORNO_DEFINE, GE_ERRORNO)
    runtime_constants: tuple[tuple[str, int], ...]  # facts from headers in none of the cited repositories
    headers: tuple[Header, ...]
    upstream: tuple[UpstreamFile, ...]
    recoverable_labels: dict[str, dict[str, tuple[str, ...]]]  # value -> lang -> labels (first one shown)
    pages: tuple[Page, ...]
    versions: tuple[Version, ...]  # every page version, by timeline (in family.yaml's order), oldest first
    editions: tuple[Edition, ...]
    codes: tuple[Code, ...]
    files: tuple[str, ...]  # the catalog files it was read from
    pos: Pos
    discover: tuple[str, ...] = ()  # regular expressions of paths that look like its pages (audit --upstream)
    # edition ids once published that no longer name an edition -> the edition that now holds
    # their version (or the release that superseded it); accepted wherever an edition is asked for
    aliases: tuple[tuple[str, str], ...] = ()

    @cached_property
    def code_by_name(self) -> dict[str, Code]:
        return {code.name: code for code in self.codes}

    @cached_property
    def edition_by_id(self) -> dict[str, Edition]:
        return {edition.id: edition for edition in self.editions}

    @cached_property
    def version_by_id(self) -> dict[str, Version]:
        return {version.id: version for version in self.versions}

    def edition(self, ident: str) -> Optional[Edition]:
        """The edition an id names: an edition's own id, or an alias of one."""
        found = self.edition_by_id.get(ident)
        if found is None:
            target = dict(self.aliases).get(ident)
            found = self.edition_by_id.get(target) if target is not None else None
        return found

    @cached_property
    def page_by_id(self) -> dict[str, Page]:
        return {page.id: page for page in self.pages}

    @cached_property
    def timelines(self) -> tuple[Timeline, ...]:
        return tuple(t for page in self.pages for t in page.timelines)

    @cached_property
    def timeline_by_id(self) -> dict[str, Timeline]:
        return {t.id: t for t in self.timelines}

    @property
    def python_codes(self) -> tuple[Code, ...]:
        return tuple(code for code in self.codes if code.in_python)

    @property
    def c_codes(self) -> tuple[Code, ...]:
        return tuple(code for code in self.codes if code.in_c)

    def recoverable_label(self, value: str, lang: str) -> str:
        return self.recoverable_labels[value][lang][0]

    def timeline_editions(self, timeline: Timeline) -> tuple[Edition, ...]:
        return self._by_timeline.get(timeline.id, ())

    def timeline_versions(self, timeline: Timeline) -> tuple[Version, ...]:
        """The timeline's page versions, oldest first."""
        return tuple(v for v in self.versions if v.timeline.id == timeline.id)

    def page_editions(self, page: Page) -> tuple[Edition, ...]:
        return self._by_page.get(page.id, ())

    def release_editions(self, release: str) -> tuple[Edition, ...]:
        return self._by_release.get(release, ())

    @cached_property
    def _by_release(self) -> dict[str, tuple[Edition, ...]]:
        return _grouped(self.editions, lambda e: e.release)

    @cached_property
    def _by_page(self) -> dict[str, tuple[Edition, ...]]:
        return _grouped(self.editions, lambda e: e.page.id)

    @cached_property
    def _by_timeline(self) -> dict[str, tuple[Edition, ...]]:
        return _grouped(self.editions, lambda e: e.timeline.id)

    def remember(self, key: tuple, compute: Callable[[], T]) -> T:
        """The answer to a question every page asks again (queries.default_edition,
        changes.history, changes.compare_editions, a code page's choices), worked out once:
        `key` is (question, what it is asked of: a code, pages, timelines, editions); a code's page
        asks for each of its pages and timelines in every language, and the lists ask again.
        The family is frozen once built, so is the answer."""
        if key not in self._answers:
            self._answers[key] = compute()
        return cast(T, self._answers[key])

    @cached_property
    def _answers(self) -> dict[tuple, object]:
        return {}

    def other_copy(self, edition: Edition) -> Optional[Edition]:
        """The release's other copy on the edition's timeline: a repository copy's published
        page, or a published page's repository copy (None when the release has one copy there)."""
        if edition.repo_copy:
            return self.edition_by_id.get(edition.id[:-len(REPO_COPY)])
        return self.edition_by_id.get(edition.id + REPO_COPY)

    def editions_listing(self, code: Code, page: Optional[Page] = None) -> tuple[Edition, ...]:
        """Editions whose page is known to list the code, oldest first."""
        return tuple(e for e in self.editions if code.name in e.row_by_code and (page is None or e.page is page))

    def editions_not_known(self, code: Code) -> tuple[Edition, ...]:
        return tuple(e for e in self.editions if code.name in e.not_known)

    @property
    def prefix(self) -> str:
        """The family's part of site paths: "" or "hixl/"."""
        return f"{self.site_path}/" if self.site_path else ""


@dataclass(frozen=True)
class Catalog:
    site: Site
    repositories: dict[str, Repository]
    families: tuple[Family, ...]
    files: tuple[str, ...] = field(default=())
    warnings: tuple = ()  # problems.Problem that validate reports without failing (an untranslated text)
    message_families: tuple[MessageFamily, ...] = ()  # families of one page per code (GE's error codes)

    @cached_property
    def family_by_id(self) -> dict[str, Family]:
        return {family.id: family for family in self.families}

    @cached_property
    def message_family_by_id(self) -> dict[str, MessageFamily]:
        return {family.id: family for family in self.message_families}
