"""The catalog as frozen dataclasses: what every renderer reads, and never changes.

Every record keeps the position it was written at, so that any later check
(audit, import, drift) can point back into the catalog.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Optional

from generator.problems import Pos

# Recoverability, as the catalog spells it and as the page's 是否可恢复 cell means it.
RECOVERABLE_VALUES = ("yes", "no", "n/a", "not known")
TEXT_FIELDS = ("meaning", "solution")
TEXT_ORIGINS = ("upstream", "translation")
# The wording the site's pages need, each in every language (family.labels).
LABEL_KEYS = (
    "home_intro", "lookup_title", "lookup_text", "all_codes", "codes", "editions",
    "edition", "home", "differences", "python_name", "c_name", "hex",
    "decimal", "listed_by", "exists_in", "exists_both", "exists_python", "exists_c",
    "cpp_names", "log_message", "none", "undocumented", "c_only_note", "python_only_note",
    "obsolete", "per_edition", "history", "notes", "listed", "not_listed",
    "listing_not_known", "text_not_known", "translation", "translation_note", "order_not_known", "texts_not_known",
    "not_listed_not_known", "release", "page", "sources", "change", "first_listed",
    "dropped", "listed_again", "recoverable_changed", "texts_changed", "presence_matrix", "legend",
    "page_split", "only_on", "changes", "added", "no_changes", "before",
    "after",
)


@dataclass(frozen=True)
class Localized:
    """One text per language, in the family's language order."""

    items: tuple[tuple[str, str], ...]

    def __getitem__(self, lang: str) -> str:
        for key, text in self.items:
            if key == lang:
                return text
        raise KeyError(lang)


@dataclass(frozen=True)
class PythonNames:
    module: str
    enum: str
    exception: str
    default_status: str  # the exception's default status_code
    unknown_status: str  # what code_2_status() returns for an integer that is no member


@dataclass(frozen=True)
class CNames:
    header: str
    guard: str
    namespace: str
    name_function: str
    message_function: str


@dataclass(frozen=True)
class Family:
    python: PythonNames
    c: CNames
    languages: tuple[str, ...]
    language_names: Localized
    title: Localized
    description: Localized
    site_name: Localized
    intro: Localized
    columns: tuple[tuple[str, Localized], ...]  # name, meaning, recoverable, solution
    recoverable_labels: tuple[tuple[str, Localized], ...]
    search_words: tuple[str, ...]
    labels: tuple[tuple[str, Localized], ...]

    def label(self, key: str, lang: str) -> str:
        return self._tables["labels"][key][lang]

    def column(self, key: str, lang: str) -> str:
        return self._tables["columns"][key][lang]

    def recoverable_label(self, value: str, lang: str) -> str:
        return self._tables["recoverable_labels"][value][lang]

    @cached_property
    def _tables(self) -> dict[str, dict[str, Localized]]:
        return {name: dict(getattr(self, name)) for name in ("labels", "columns", "recoverable_labels")}


@dataclass(frozen=True)
class Row:
    """One row of an edition's page: the code it lists and its 是否可恢复 cell."""

    code: str
    recoverable: str  # one of RECOVERABLE_VALUES
    pos: Pos


@dataclass(frozen=True)
class Edition:
    id: str
    release: str
    page: Localized
    sources: tuple[str, ...]
    text_origins: Optional[tuple[tuple[str, str], ...]]  # None: texts not known
    order_known: bool
    rows: tuple[Row, ...]  # in display order: the page's, or the enum's when not known
    not_known: tuple[str, ...]  # codes whose listing on this page is not known
    notes: Optional[Localized]
    pos: Pos

    @cached_property
    def row_by_code(self) -> dict[str, Row]:
        return {row.code: row for row in self.rows}

    @cached_property
    def position(self) -> dict[str, int]:
        """1-based position of each listed code in this edition's display order."""
        return {row.code: index for index, row in enumerate(self.rows, 1)}

    def text_origin(self, lang: str) -> Optional[str]:
        return self._origins.get(lang)

    @cached_property
    def _origins(self) -> dict[str, str]:
        return dict(self.text_origins or ())

    @property
    def texts_known(self) -> bool:
        return self.text_origins is not None


@dataclass(frozen=True)
class TextEntry:
    """A text in one language, shared by the editions it names."""

    editions: tuple[str, ...]
    lang: str
    text: str
    pos: Pos
    edition_pos: tuple[Pos, ...]  # where each of `editions` is named


@dataclass(frozen=True)
class Obsolete:
    since: str
    reason: Localized


@dataclass(frozen=True)
class Code:
    python_name: Optional[str]
    c_name: Optional[str]
    value: int
    cpp_names: tuple[str, ...]
    log_message: Optional[str]
    obsolete: Optional[Obsolete]
    notes: Optional[Localized]
    meaning: tuple[TextEntry, ...]
    solution: tuple[TextEntry, ...]
    index: int
    pos: Pos

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
    def exists_label(self) -> str:
        """The family.labels key saying where the code exists."""
        return "exists_both" if self.in_python and self.in_c else ("exists_python" if self.in_python else "exists_c")

    @property
    def hex(self) -> str:
        return f"0x{self.value:08X}" if self.value >= 0 else str(self.value)

    @cached_property
    def slug(self) -> str:
        """The code's anchor and URL segment: its name in lower case."""
        return self.name.lower()

    @cached_property
    def _texts(self) -> dict[tuple[str, str, str], str]:
        table = {}
        for field_name in TEXT_FIELDS:
            for entry in getattr(self, field_name):
                for edition in entry.editions:
                    table[(field_name, edition, entry.lang)] = entry.text
        return table

    def text(self, field_name: str, edition: str, lang: str) -> Optional[str]:
        """The text an edition's page shows, or None when not known."""
        return self._texts.get((field_name, edition, lang))


@dataclass(frozen=True)
class Catalog:
    family: Family
    editions: tuple[Edition, ...]
    codes: tuple[Code, ...]
    files: tuple[str, ...] = field(default=())

    @cached_property
    def code_by_name(self) -> dict[str, Code]:
        return {code.name: code for code in self.codes}

    @cached_property
    def edition_by_id(self) -> dict[str, Edition]:
        return {edition.id: edition for edition in self.editions}

    @property
    def python_codes(self) -> tuple[Code, ...]:
        return tuple(code for code in self.codes if code.in_python)

    @property
    def c_codes(self) -> tuple[Code, ...]:
        return tuple(code for code in self.codes if code.in_c)

    def editions_listing(self, code: Code) -> tuple[Edition, ...]:
        """Editions whose page is known to list the code, oldest first."""
        return tuple(e for e in self.editions if code.name in e.row_by_code)

    def editions_not_known(self, code: Code) -> tuple[Edition, ...]:
        return tuple(e for e in self.editions if code.name in e.not_known)
