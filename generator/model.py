"""The catalog as frozen dataclasses: what every renderer reads, and never changes.

A catalog holds the site's own settings, the upstream repositories it cites,
and one or more code families. A family has codes, pages, each page has
timelines (one per repository that keeps a copy), and each timeline has
editions (one per release). Every record keeps the position it was written
at, so that any later check (audit, import, drift) can point back into the
catalog.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Optional

from generator.problems import Pos

# Recoverability, as the catalog spells it and as a page's 是否可恢复 cell means it.
RECOVERABLE_VALUES = ("yes", "no", "n/a", "not known")
# Where a text comes from: upstream's page, this project's translation, or nowhere yet: a text
# seen upstream in another language whose translation is still to be written ("untranslated").
TEXT_ORIGINS = ("upstream", "translation")
UNTRANSLATED = "untranslated"
# The columns a page's table may have, and the ones that hold a text per code.
COLUMN_KEYS = ("name", "meaning", "cause", "recoverable", "solution")
TEXT_FIELDS = ("meaning", "cause", "solution")


@dataclass(frozen=True)
class Localized:
    """One text per language, in the order the languages were declared.

    `translated` names the languages whose text is this project's translation
    rather than upstream's own words (where the text comes from upstream).
    """

    items: tuple[tuple[str, str], ...]
    translated: tuple[str, ...] = ()

    def __getitem__(self, lang: str) -> str:
        for key, text in self.items:
            if key == lang:
                return text
        raise KeyError(lang)

    def get(self, lang: str, default: Optional[str] = None) -> Optional[str]:
        for key, text in self.items:
            if key == lang:
                return text
        return default

    def first(self) -> str:
        return self.items[0][1]

    def as_dict(self) -> dict[str, str]:
        return dict(self.items)


@dataclass(frozen=True)
class Repository:
    name: str  # owner/name
    url: str
    default_branch: str
    pos: Pos

    def file_url(self, commit: str, path: str) -> str:
        return f"{self.url}/blob/{commit}/{path}"


@dataclass(frozen=True)
class SearchLanguage:
    """How the site's search reads one language (generator/search.yaml)."""

    lang: str
    script: str  # "cjk" or "latin"
    synonyms: tuple[tuple[str, ...], ...]  # groups of words or phrases that mean the same


@dataclass(frozen=True)
class Site:
    languages: tuple[str, ...]
    language_names: Localized
    name: Localized
    description: Localized
    families: tuple[str, ...]  # ids, in the site's order
    labels: dict[str, Localized]  # every key of generator/labels.yaml, with the catalog's overrides
    search: tuple[SearchLanguage, ...] = ()  # one per site language, in its order

    def label(self, key: str, lang: str) -> str:
        return self.labels[key][lang]

    def search_language(self, lang: str) -> SearchLanguage:
        for entry in self.search:
            if entry.lang == lang:
                return entry
        return SearchLanguage(lang, "latin", ())


# -- families, pages, timelines ---------------------------------------------------------


@dataclass(frozen=True)
class PythonNames:
    module: str
    shape: str  # "enum": an IntEnum; "constants": module-level ints and a lookup()
    class_name: str  # the enum, or the class of what lookup() returns
    lookup: str
    default_page: str
    exception: Optional[str] = None
    status: Optional[str] = None  # a Status(code) class with is_ok() and status_code
    default_status: Optional[str] = None  # the exception's default status_code
    code_2_status: Optional[str] = None  # name of the int -> member function
    unknown_status: Optional[str] = None  # what it returns for an int no wrapper value has


@dataclass(frozen=True)
class CNames:
    header: str
    guard: str
    namespace: str
    macro_prefix: str
    name_function: str
    message_function: Optional[str] = None
    literals: str = "hex"  # how values are written: hex (0x5010B01A) or decimal (103900), as upstream does

    @property
    def macro_base(self) -> str:
        """The prefix of the header's own macros (LLM_STATUS_CODES_CATALOG_HASH): the guard without _H."""
        return self.guard[:-2] if self.guard.endswith("_H") else self.guard

    @property
    def own_macros(self) -> tuple[str, ...]:
        return (self.guard, f"{self.macro_base}_GENERATOR_VERSION", f"{self.macro_base}_CATALOG_HASH")


@dataclass(frozen=True)
class LayoutField:
    name: str
    shift: int
    mask: int


@dataclass(frozen=True)
class ValueLayout:
    """How upstream computes a value from a macro's arguments (GE's GE_ERRORNO_DEFINE)."""

    macro: str
    arguments: tuple[str, ...]  # in the macro's order; "name" is the constant's name
    fields: tuple[LayoutField, ...]

    def compute(self, values: dict[str, int]) -> int:
        total = 0
        for part in self.fields:
            total |= (values[part.name] & part.mask) << part.shift
        return total & 0xFFFFFFFF


@dataclass(frozen=True)
class Header:
    """An upstream header that declares codes of the family."""

    path: str  # as users include it: llm_datadist/llm_datadist.h
    namespace: str
    pos: Pos


@dataclass(frozen=True)
class UpstreamFile:
    """An upstream source file `audit --upstream` reads at every tag that has it."""

    repo: str
    paths: tuple[str, ...]  # where the repository keeps it, oldest first: at a ref, the newest one there
    kind: str  # python, binding, header, messages (the registrations of the messages upstream logs)
    header: Optional[str]  # for kind header: which Header it is
    pos: Pos
    # for kind python: the base class of the enum, from the release each names on (oldest first)
    bases: tuple[tuple[str, str], ...] = ()

    @property
    def path(self) -> str:
        """Where it is now (the newest of its paths)."""
        return self.paths[-1]

    def base_at(self, release: str) -> Optional[str]:
        """The enum's base class at a release (the branch head: the newest), None when not recorded."""
        from generator.versions import UNRELEASED, release_key

        key = release_key(release) if release != UNRELEASED else None
        found = None
        for base, since in self.bases:
            since_key = release_key(since)
            if key is None or (since_key is not None and since_key <= key):
                found = base
        return found


@dataclass(frozen=True)
class Timeline:
    id: str
    suffix: str  # what edition ids of this timeline end with: "-v1"; "" for none
    name: Localized
    repo: Optional[str]
    paths: tuple[str, ...]  # where the repository keeps the page, oldest first
    page: str  # the id of its page
    index: int  # order within the family
    pos: Pos


@dataclass(frozen=True)
class Page:
    id: str
    name: Localized
    title: Localized
    intro: Optional[Localized]
    row_names: str  # "python" or "c": which names its rows use
    first_column: str  # "name" or "decimal": what the first column shows
    columns: tuple[str, ...]  # COLUMN_KEYS in the upstream table's order
    headings: dict[str, dict[str, tuple[str, ...]]]  # column -> lang -> headings (first one shown)
    timelines: tuple[Timeline, ...]
    index: int
    pos: Pos
    # what the page writes before a C name (HIXL_CS's rows: HIXL_SUCCESS for SUCCESS); rows: c only
    row_prefix: str = ""

    @cached_property  # asked for every text of every row
    def text_fields(self) -> tuple[str, ...]:
        return tuple(c for c in self.columns if c in TEXT_FIELDS)

    def heading(self, column: str, lang: str) -> str:
        return self.headings[column][lang][0]


# -- editions ----------------------------------------------------------------------------


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
    url: Optional[str] = None
    seed: Optional[str] = None
    document: Optional[str] = None
    pos: Optional[Pos] = None


@dataclass(frozen=True)
class Row:
    """One row of an edition's page: the code it lists and its 是否可恢复 cell."""

    code: str  # the code's catalog name (Code.name)
    recoverable: str  # one of RECOVERABLE_VALUES: what the edition says
    disagreements: tuple[tuple[str, str], ...]  # (lang, value) where that language's page says otherwise
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
        from generator.versions import UNRELEASED

        return self.release != UNRELEASED

    @property
    def repo_copy(self) -> bool:
        """A repository copy of a published page that says otherwise (`-repo`)."""
        return self.id.endswith("-repo")

    @property
    def order_key(self) -> tuple:
        from generator.versions import edition_order

        return edition_order(self.release, self.page.index, self.timeline.index, self.repo_copy)


# -- codes ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class TextEntry:
    """A text in one language. It holds, on each timeline, from the versions its entry names
    (`starts`) until a later entry of the same code, column and language starts; `editions`
    are the editions that resolves to (the editions of the versions covered that list the
    code and whose texts in this language are known)."""

    editions: tuple[str, ...]
    lang: str
    text: str  # for an untranslated text: the text in the family's first language, as seen
    origin: str  # one of TEXT_ORIGINS, or UNTRANSLATED
    pos: Pos
    starts: tuple[str, ...]  # the version ids of its `from`
    start_pos: tuple[Pos, ...]  # where each start is written


@dataclass(frozen=True)
class CppName:
    name: str  # qualified: llm_datadist::LLM_TIMEOUT
    header: Optional[str]  # the Header.path that declares it; None: a header outside the cited repositories
    pos: Pos

    @property
    def namespace(self) -> str:
        """Its namespace; "" for a name of the global namespace (::HIXL_SUCCESS)."""
        return self.name.rsplit("::", 1)[0]

    @property
    def short(self) -> str:
        return self.name.rsplit("::", 1)[1]


@dataclass(frozen=True)
class Obsolete:
    since: str  # the release upstream stopped emitting it in
    reason: Optional[Localized]  # None: still to be worded


def hex_value(value: int) -> str:
    """A code's value as its pages write it: eight hex digits (a negative value as it is)."""
    return f"0x{value:08X}" if value >= 0 else str(value)


@dataclass(frozen=True)
class Code:
    python_name: Optional[str]
    c_name: Optional[str]
    value: int
    wrapper: Optional[str]  # the binding's constant the Python source reads (llm_wrapper.kLLMTimeout)
    cpp: tuple[CppName, ...]
    log_message: Optional[str]
    obsolete: Optional[Obsolete]
    notes: Optional[Localized]
    texts: tuple[tuple[str, tuple[TextEntry, ...]], ...]  # field -> entries
    index: int
    pos: Pos
    # per repository (owner/name), the release that added it there: its files at older
    # refs do not have it, and audit does not expect it there
    added: tuple[tuple[str, str], ...] = ()

    def present_at(self, repo: str, release: str) -> bool:
        """Whether upstream's files of `repo` at `release` are expected to have this code: a code
        without `added` is everywhere from the first release; one with it only in the
        repositories it names, from the release named there."""
        from generator.versions import release_key

        key = release_key(release)
        if self.added:
            added = dict(self.added).get(repo)
            added_key = release_key(added) if added is not None else None
            if added is None or (key is not None and added_key is not None and key < added_key):
                return False
        gone_key = release_key(self.obsolete.since) if self.obsolete is not None and self.obsolete.since else None
        return not (key is not None and gone_key is not None and key >= gone_key)

    @cached_property
    def name(self) -> str:
        """The code's own name: its Python name, or its C name for a C-only code."""
        return self.python_name or self.c_name  # type: ignore[return-value]

    @property
    def in_python(self) -> bool:
        return self.python_name is not None

    @property
    def in_c(self) -> bool:
        return self.c_name is not None

    @property
    def hex(self) -> str:
        return hex_value(self.value)

    @cached_property
    def slug(self) -> str:
        """The code's anchor and URL segment: its name in lower case."""
        return self.name.lower()

    @cached_property
    def _texts(self) -> dict[tuple[str, str, str], TextEntry]:
        table = {}
        for field_name, entries in self.texts:
            for entry in entries:
                for edition in entry.editions:
                    table[(field_name, edition, entry.lang)] = entry
        return table

    def entry(self, field_name: str, edition: str, lang: str) -> Optional[TextEntry]:
        return self._texts.get((field_name, edition, lang))

    def text(self, field_name: str, edition: str, lang: str) -> Optional[str]:
        """The text an edition's page shows, or None when not known."""
        entry = self._texts.get((field_name, edition, lang))
        return None if entry is None else entry.text

    def entries(self, field_name: str) -> tuple[TextEntry, ...]:
        for name, entries in self.texts:
            if name == field_name:
                return entries
        return ()

    def name_on(self, page: Page) -> Optional[str]:
        """The name this code's rows use on a page."""
        if page.row_names == "python":
            return self.python_name
        return page.row_prefix + self.c_name if self.c_name is not None else None


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

    def page_editions(self, page: Page) -> tuple[Edition, ...]:
        return tuple(e for e in self.editions if e.page.id == page.id)

    @cached_property
    def _by_timeline(self) -> dict[str, tuple[Edition, ...]]:
        table: dict[str, list[Edition]] = {}
        for edition in self.editions:
            table.setdefault(edition.timeline.id, []).append(edition)
        return {key: tuple(value) for key, value in table.items()}

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
    source_hash: str = ""  # of the bytes the catalog was read from (fastpath.source_record)
    warnings: tuple = ()  # problems.Problem that validate reports without failing (an untranslated text)

    @cached_property
    def family_by_id(self) -> dict[str, Family]:
        return {family.id: family for family in self.families}

