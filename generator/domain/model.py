"""The catalog as frozen dataclasses, what every renderer reads and never changes: the base records.

This module holds the site, the repositories, a family's names, pages and timelines; the
records of editions (domain.editions), of codes (domain.codes) and the family and catalog
themselves (domain.family) build on them.

A catalog holds the site's own settings, the upstream repositories it cites,
and one or more code families. A family has codes, pages, each page has
timelines (one per repository that keeps a copy), and each timeline has
editions (one per release). Every record keeps the position it was written
at, so that any later check (audit, import, drift) can point back into the
catalog.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal, Optional, get_args

from generator.core.problems import Pos


# Recoverability, as the catalog spells it and as a page's 是否可恢复 cell means it.
Recoverable = Literal["yes", "no", "n/a", "not known"]
RECOVERABLE_VALUES: tuple[Recoverable, ...] = get_args(Recoverable)
# Where a text comes from: upstream's page, this project's translation, or nowhere yet: a text
# seen upstream in another language whose translation is still to be written ("untranslated").
TEXT_ORIGINS = ("upstream", "translation")
UNTRANSLATED = "untranslated"
# Upstream's text that no release or branch holds, only a merge request's ref: proposed. The
# catalog does not write it; it follows from the sources (`ref: merge-request`).
PROPOSED = "proposed"
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
    """How the site's search reads one language (the `search` section of generator/labels.yaml)."""

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

    def labels_for(self, lang: str, family_name: Optional[str] = None) -> dict[str, str]:
        """Every label in `lang`, each {family} filled with `family_name` (left as written for
        None): made once per language and family, as pages ask half a million times."""
        found = self._filled.get((lang, family_name))
        if found is None:
            found = self._filled[(lang, family_name)] = (
                {key: text[lang] for key, text in self.labels.items()} if family_name is None else
                {key: text.replace("{family}", family_name) for key, text in self.labels_for(lang).items()})
        return found

    @cached_property
    def _filled(self) -> dict[tuple[str, Optional[str]], dict[str, str]]:
        return {}

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
class SourceRegion:
    """A region of an upstream source file that lists the family's codes (generator/reading/format.py
    declares each field)."""

    lines: str
    after: str
    codes: str
    header: Optional[str]
    namespace: Optional[str]
    order: str
    declaration: Optional[str]
    literal: str
    module: Optional[str]
    macro: Optional[str]
    arguments: tuple[tuple[str, str], ...]
    comments: tuple[tuple[str, str], ...]
    last_comma: tuple[tuple[str, bool], ...]  # (first release, whether), oldest first
    only_codes: bool
    pos: Pos

    def comma_at(self, release: Optional[str]) -> bool:
        """Whether the last entry has its comma at a release (None: the newest)."""
        from generator.core.releases import UNRELEASED, release_key

        key = release_key(release) if release and release != UNRELEASED else None
        found = False
        for since, value in self.last_comma:
            if key is None or key >= (release_key(since) or ()):
                found = value
        return found


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
    regions: tuple[SourceRegion, ...] = ()  # the regions that list the family's codes, in file order

    @property
    def path(self) -> str:
        """Where it is now (the newest of its paths)."""
        return self.paths[-1]

    def base_at(self, release: str) -> Optional[str]:
        """The enum's base class at a release (the branch head: the newest), None when not recorded."""
        from generator.core.releases import UNRELEASED, release_key

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
    # per other language, where the family's repositories keep the page's translation, oldest
    # first: a file at one of these paths, in any of them, is that language's page
    translations: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def paths_in(self, lang: str, first: str) -> tuple[str, ...]:
        """Where the page in `lang` is kept (`first`: the family's first language)."""
        return self.paths if lang == first else dict(self.translations).get(lang, ())


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


# -- codes ---------------------------------------------------------------------------------
