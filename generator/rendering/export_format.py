"""The JSON export's format, declared once: what generated/json/FAMILY.json holds.

The export is built as these typed dicts (generator.rendering.json_export; mypy holds the
builder to them), and its JSON Schema, generated/schemas/export.schema.json, is generated
from them. Every field of every file of the catalog is in it, resolved: each edition with its
rows and sources, each code with what each edition's page says of it.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, Union

from pydantic import ConfigDict, Field
from typing_extensions import NotRequired, TypedDict  # typing.TypedDict is not enough for pydantic on 3.11

_DOCS = ConfigDict(use_attribute_docstrings=True, extra="forbid")

Localized = Annotated[dict[str, Union[str, list[str]]], Field(
    description="one text per language ({zh: ..., en: ...}); `translated` lists the languages this project translated")]
Recoverable = Literal["yes", "no", "n/a", "not known"]
Origin = Literal["upstream", "translation", "untranslated", "proposed"]


class Generator(TypedDict):
    version: str
    """The generator's version."""


class SiteData(TypedDict):
    """The catalog's site section (its labels are the pages' wording, not data of the codes)."""

    languages: list[str]
    language_names: Localized
    name: Localized
    description: Localized
    families: list[str]


PythonNamesData = TypedDict("PythonNamesData", {  # `class` is a key of the catalog's, not a Python name
    "module": str, "shape": Literal["enum", "constants"], "class": str, "lookup": str, "default_page": str,
    "exception": Optional[str], "status": Optional[str], "default_status": Optional[str],
    "code_2_status": Optional[str], "unknown_status": Optional[str]})


class CNamesData(TypedDict):
    header: str
    guard: str
    namespace: str
    macro_prefix: str
    name_function: str
    message_function: Optional[str]
    literals: Literal["hex", "decimal"]


class LayoutFieldData(TypedDict):
    shift: int
    mask: int


class ValueLayoutData(TypedDict):
    macro: str
    arguments: list[str]
    fields: dict[str, LayoutFieldData]


class HeaderData(TypedDict):
    path: str
    namespace: str


class UpstreamFileData(TypedDict):
    repo: str
    paths: list[str]
    kind: Literal["python", "binding", "header", "messages"]
    header: Optional[str]


class FamilyData(TypedDict):
    """The family's names, languages and upstream facts (catalog: family.yaml)."""

    id: str
    name: Localized
    description: Localized
    languages: list[str]
    site_path: str
    python: PythonNamesData
    c: CNamesData
    sphinx_directive: str
    value_layouts: list[ValueLayoutData]
    runtime_constants: dict[str, int]
    headers: list[HeaderData]
    upstream: list[UpstreamFileData]
    discover: list[str]
    recoverable_labels: dict[str, dict[str, list[str]]]


class RepositoryData(TypedDict):
    name: str
    """OWNER/NAME."""
    url: str
    default_branch: str


class TimelineData(TypedDict):
    id: str
    suffix: str
    name: Localized
    repo: Optional[str]
    paths: list[str]
    translations: dict[str, list[str]]


class PageData(TypedDict):
    id: str
    name: Localized
    title: Localized
    intro: Optional[Localized]
    rows: Literal["python", "c"]
    row_prefix: str
    first_column: Literal["name", "decimal"]
    columns: list[str]
    headings: dict[str, dict[str, list[str]]]
    timelines: list[TimelineData]


class CodeBlockData(TypedDict):
    fence: str
    open: list[str]
    line: str
    close: list[str]
    values: Optional[list[int]]


class CodeBlockHolderData(TypedDict):
    code: CodeBlockData


class LayoutData(TypedDict):
    """A pipe-table file's framing and dialect (catalog: a source's `page`)."""

    title: str
    before: list[Union[str, CodeBlockHolderData]]
    after: list[Union[str, CodeBlockHolderData]]
    table: Literal["spaced", "mixed", "tight"]
    header: list[str]
    labels: dict[str, str]
    note: Optional[str]
    unclosed: list[str]
    bom: bool
    level: int
    blank_after: int


class SourceData(TypedDict):
    """Where a version's content comes from: an upstream file (repo), a published page (url), a
    scraped copy (seed) or a description (document)."""

    kind: Literal["repo", "url", "seed", "document"]
    repo: NotRequired[str]
    path: NotRequired[str]
    commit: NotRequired[str]
    """The commit of the first tag that ships it (40 hex digits), or the branch head."""
    tags: NotRequired[list[str]]
    """Every tag, pre-releases included, that ships this file at this path."""
    ref: NotRequired[Literal["tag", "branch", "merge-request"]]
    """What holds the commit: a tag, a branch, or only a merge request's ref (proposed texts)."""
    branch: NotRequired[str]
    layout: NotRequired[LayoutData]
    url: NotRequired[str]
    seed: NotRequired[str]
    document: NotRequired[str]
    lang: Optional[str]
    """Its language (null: every language)."""


class RowData(TypedDict):
    code: str
    """The code's name in the catalog."""
    name: str
    """The name the page shows."""
    recoverable: Recoverable
    other_pages: dict[str, Recoverable]
    """Where the page in another language says otherwise."""


class MalformationData(TypedDict):
    kind: str
    code: str
    field: str
    line: int
    shown: str
    sides: dict[str, str]


class VersionData(TypedDict):
    """A page version: one upstream file's content that one or more releases ship."""

    id: str
    page: str
    timeline: str
    based_on: Optional[str]
    release: Optional[str]
    sources: list[SourceData]
    texts: Union[list[str], Literal["not known"]]
    order: Literal["page", "not known"]
    rows: list[RowData]
    not_listed_not_known: list[str]
    malformations: list[MalformationData]
    notes: Optional[Localized]
    editions: list[str]


class EditionData(TypedDict):
    """One page version as one release shows it."""

    id: str
    release: str
    page: str
    timeline: str
    version: str
    released: bool
    repository_copy: bool
    sources: list[SourceData]
    texts: Union[list[str], Literal["not known"]]
    order: Literal["page", "not known"]
    rows: list[RowData]
    not_listed_not_known: list[str]
    malformations: list[MalformationData]
    notes: Optional[Localized]


class CppNameData(TypedDict):
    name: str
    header: Optional[str]


class EarlierData(TypedDict):
    """What a code was before a release changed it; `until`: per repository, the first release with the newer fact."""

    python: Optional[str]
    c: Optional[str]
    value: Optional[int]
    until: dict[str, str]


EntryData = TypedDict("EntryData", {  # a text entry as the catalog writes it: the versions it holds from, its text
    "from": list[str], "lang": str, "text": Optional[str], "markup": Optional[str], "origin": Origin})


class SaidText(TypedDict):
    text: Optional[str]
    origin: Origin


class ListedData(TypedDict):
    """What one edition's page says of a code."""

    name: str
    recoverable: Recoverable
    other_pages: dict[str, Recoverable]
    position: Optional[int]
    texts: dict[str, Optional[dict[str, Optional[SaidText]]]]
    """Per column and language, the text and its origin (null: not known)."""


class CodeData(TypedDict):
    name: str
    python: Optional[str]
    c: Optional[str]
    value: int
    hex: str
    wrapper: Optional[str]
    cpp: list[CppNameData]
    log_message: Optional[str]
    earlier: list[EarlierData]
    added: dict[str, str]
    removed: dict[str, Union[str, dict[str, str]]]
    """Per repository, the first release without the code; or, per API ("python", "c") that alone dropped it, the
    first release of that API without it."""
    notes: Optional[Localized]
    entries: dict[str, list[EntryData]]
    editions: dict[str, ListedData]
    """Every edition whose page lists the code, by id."""
    listing_not_known: list[str]


Export = TypedDict("Export", {  # a family's catalog, resolved, for other tools (generated/json/FAMILY.json)
    "$comment": str, "format": int, "generator": Generator, "catalog_hash": str, "site": SiteData,
    "family": FamilyData, "repositories": list[RepositoryData], "pages": list[PageData],
    "versions": list[VersionData], "editions": list[EditionData], "aliases": dict[str, str],
    "codes": list[CodeData]})

class MessagePageData(TypedDict):
    """A code's page in one language, as fields."""

    path: str
    """Its file in upstream's repository."""
    meanings: list[str]
    """What each placeholder stands for, as the page lists them (Markdown)."""
    wording: Optional[str]
    """How the page's sentence lists them (sequence, respectively, single, all); null without meanings."""
    numbered: Optional[bool]
    """Whether its examples' labels are numbered; null without examples."""
    note: Optional[str]
    cause: Optional[str]
    solution: Optional[str]


class RegistryEntryData(TypedDict):
    """The registry's entry at one release, as upstream writes it."""

    errClass: str
    errTitle: str
    ErrCode: str
    ErrMessage: str
    Arglist: str
    suggestion: dict[str, str]


class MessageCodeData(TypedDict):
    """One code of a family of messages."""

    id: str
    category: str
    template: Optional[str]
    """The page's message template (%s for each placeholder); null for a code without a page."""
    placeholders: int
    arguments: list[str]
    """The registry's names of the placeholders."""
    examples: list[str]
    page: Optional[dict[str, MessagePageData]]
    """Its page in each language (edition `unreleased`); null for a code upstream has no page for."""
    indexed: bool
    """Whether the pages' index lists it (false for a code only the registry has)."""
    added: Optional[str]
    """The first release whose registry has it."""
    known_disagreements: list[str]
    registry: dict[str, RegistryEntryData]
    """Its registry entry at each release that ships it."""


class MessagePagesData(TypedDict):
    repo: str
    branch: str
    commit: Optional[str]
    edition: str
    index: dict[str, str]


class MessageRegistryData(TypedDict):
    repo: str
    path: str
    releases: dict[str, str]
    """Each release read, and its tag's commit."""


MessageExport = TypedDict("MessageExport", {  # a family of messages, resolved (generated/json/MODULE.json)
    "$comment": str, "family": str, "module": str, "name": dict[str, str], "description": dict[str, str],
    "catalog_hash": str, "languages": list[str], "editions": list[str], "pages": MessagePagesData,
    "registry": Optional[MessageRegistryData], "codes": list[MessageCodeData]})

for _declared in (Generator, SiteData, CNamesData, LayoutFieldData, ValueLayoutData, HeaderData, UpstreamFileData,
                  FamilyData, RepositoryData, TimelineData, PageData, CodeBlockData, CodeBlockHolderData, LayoutData,
                  SourceData, RowData, MalformationData, VersionData, EditionData, CppNameData, EarlierData, SaidText,
                  ListedData, CodeData, MessagePageData, RegistryEntryData, MessageCodeData, MessagePagesData,
                  MessageRegistryData):
    setattr(_declared, "__pydantic_config__", _DOCS)  # the docstrings under the fields describe them


def export_schema() -> dict[str, Any]:
    """The export's JSON Schema, from the declarations above."""
    from pydantic import TypeAdapter

    schema = TypeAdapter(Union[Export, MessageExport]).json_schema(by_alias=True)
    schema["description"] = ("A family's catalog, resolved, for other tools (generated/json/FAMILY.json): a family "
                             "of status codes, or a family of messages with one page per code.")
    return schema
