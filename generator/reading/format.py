"""The catalog's format, declared once: every file, section and field, with what it means.

The catalog is a folder of YAML files: its own files hold `format`, `site` and `repositories`,
and each subfolder one code family in `family.yaml`, `editions.yaml` and `codes.yaml`. The files
are YAML 1.2 read strictly: duplicate keys, unknown fields, tags, anchors and aliases are errors;
a version such as '8.10' must be quoted (a plain 8.10 is the number 8.1); `true`, `false` and
`null` are never text. Every problem is reported at once as PATH:LINE:COL with how to fix it.
Upstream's words (titles, headings, texts) are upstream's, under its licence; what this project
translated is marked (`translated: [en]`, `origin: translation`).

From these classes come the structural validation of the catalog (types, closed sets,
unknown fields, patterns), the JSON Schema that editors read (`generated/schemas/
catalog.schema.json`, which every catalog file's first line names) and the field reference
of `docs/catalog.md`. What only code can check (a row naming a code, a text's range, the
release order of a timeline, reserved names) is checked where the model is built
(generator.reading.family, codes, versions, texts), each problem at its PATH:LINE:COL.

A catalog file is YAML 1.2 read strictly (generator.reading.yaml_source): a plain `8.10` is a
number and `true` a boolean, never text; a field that holds text must then be quoted.
"""
from __future__ import annotations

import keyword
import re
import unicodedata
from typing import TYPE_CHECKING, Annotated, Any, Literal, Optional, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Discriminator, Field, PrivateAttr, Tag, model_validator

FORMAT = 6  # 6: a code's earlier names and values in `earlier`; 5: each text written once

# -- scalars -----------------------------------------------------------------------------------------

MAX_NAME = 100  # a name is part of file names (codes/NAME.zh.md): far below NAME_MAX
# C and C++ keywords and alternative tokens (C23, C++23), and what <stddef.h> and <stdint.h>
# define as macros or types: none can name a constant of a generated header.
C_KEYWORDS = frozenset(
    """alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t
    char32_t class co_await co_return co_yield compl concept const consteval constexpr constinit
    const_cast continue decltype default delete do double dynamic_cast else enum explicit export
    extern false float for friend goto if inline int long mutable namespace new noexcept not not_eq
    nullptr operator or or_eq private protected public register reinterpret_cast requires restrict
    return short signed sizeof static static_assert static_cast struct switch template this
    thread_local throw true try typedef typeid typename union unsigned using virtual void volatile
    wchar_t while xor xor_eq _Alignas _Alignof _Atomic _Bool _Complex _Generic _Imaginary _Noreturn
    _Static_assert _Thread_local NULL offsetof defined main size_t ptrdiff_t max_align_t nullptr_t
    wint_t""".split()
)
# <stdint.h>: intN_t, uintN_t, INTN_MAX, INTN_C, SIZE_MAX ...; and names reserved to the implementation.
C_RESERVED = re.compile(
    r"^(?:u?int(?:_least|_fast)?\d*_t|u?intmax_t|u?intptr_t|U?INT(?:_LEAST|_FAST)?\d*_(?:MAX|MIN|C)"
    r"|U?INTMAX_(?:MAX|MIN|C)|U?INTPTR_(?:MAX|MIN)|(?:SIZE|PTRDIFF|SIG_ATOMIC|WCHAR|WINT)_(?:MAX|MIN)"
    r"|_[A-Z_].*|.*__.*)$")

# Patterns of the fields that have one, and what a person is told when a value breaks it.
IDENTIFIER = r"^[A-Za-z_][A-Za-z0-9_]*$"
PATTERN_RULES = {
    IDENTIFIER: "a valid identifier in Python and C (letters, digits, _; not a keyword)",
    r"^[a-z]{2,3}$": "a lower-case ISO 639 code such as zh or en",
    r"^[a-z][a-z0-9_]*$": "lower-case letters, digits and _",
    r"^(?:[a-z][a-z0-9_-]*)?$": "'' or a lower-case word",
    r"^[a-z][a-z0-9-]*$": "lower-case words joined by -",
    r"^(?:-[a-z][a-z0-9-]*)?$": "'' or -word (-v1, -cpp-v2)",
    r"^[A-Z][A-Z0-9]*_$|^$": "upper-case letters and digits ending in _ (HIXL_)",
    r"^[0-9A-Za-z][0-9A-Za-z._-]{0,63}$": "letters, digits, '.', '-' and '_', at most 64 of them (edition ids are "
                                          "part of URLs and file names)",
    r"^[0-9a-f]{40}$": "40 lower-case hex digits (git rev-parse TAG^{commit})",
    r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$": "OWNER/NAME, as the forge spells it",
    r"^https?://[^\s<>\"'`]+$": "an http(s) URL without spaces or quotes",
    r"^([A-Za-z_][A-Za-z0-9_]*)?(::[A-Za-z_][A-Za-z0-9_]*)+$": "qualified by its namespace, such as 'ns::NAME'",
}


def visible(text: str) -> bool:
    """Whether a text shows anything: not only spaces and invisible format characters."""
    if text[:1].isalnum():  # most texts: a letter or digit is neither a space nor a format character
        return True
    return any(not ch.isspace() and unicodedata.category(ch) not in ("Cf", "Zs", "Zl", "Zp") for ch in text)


def _shown(text: str) -> str:
    if not visible(text):
        raise ValueError("must not be empty" if not text.strip() else "must not be made only of invisible characters")
    return text


def _name(text: str, c_too: bool = True) -> str:
    if len(text) > MAX_NAME:
        raise ValueError(f"is {len(text)} characters long; names are at most {MAX_NAME} (they name files)")
    if keyword.iskeyword(text) or (c_too and text in C_KEYWORDS):
        kind = "a Python keyword" if keyword.iskeyword(text) else \
            "a C or C++ keyword (or a name <stddef.h> or <stdint.h> defines)"
        raise ValueError(f"{text!r} is {kind}, which no code may be named; choose another name")
    return text


def _release(text: str) -> str:
    from generator.core.releases import release_key

    if release_key(text) is None:
        raise ValueError(f"{text!r} is no release (9.3.0, 9.2.0-beta.1, 8.0.RC3)")
    return text


# text that shows something (quoted where YAML would read a number)
Text = Annotated[str, Field(min_length=1), AfterValidator(_shown)]
Name = Annotated[str, Field(pattern=IDENTIFIER), AfterValidator(_name)]  # an identifier of Python and C
PyName = Annotated[str, Field(pattern=IDENTIFIER), AfterValidator(lambda t: _name(t, c_too=False))]
Lang = Annotated[str, Field(pattern=r"^[a-z]{2,3}$", description="a language: an ISO 639 code (zh, en)")]
Repo = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$",
                            description="a repository as OWNER/NAME (declared under `repositories`)")]
Release = Annotated[str, AfterValidator(_release), Field(description="a release: 9.0.0, 9.2.0-beta.1, 8.0.RC3")]
VersionId = Annotated[str, Field(pattern=r"^[0-9A-Za-z][0-9A-Za-z._-]{0,63}$")]
Commit = Annotated[str, Field(pattern=r"^[0-9a-f]{40}$", description="a commit: 40 lower-case hex digits")]
Url = Annotated[str, Field(pattern=r"^https?://[^\s<>\"'`]+$", description="an http(s) URL")]
Recoverable = Literal["yes", "no", "n/a", "not known"]
Column = Literal["name", "meaning", "cause", "recoverable", "solution"]
Localized = Annotated[dict[Lang, Text], Field(description="one text per language: {zh: ..., en: ...}")]


FORMS = ("scalar", "mapping", "list")


def form_of(value: Any) -> str:
    """What is written: a mapping, a list or a scalar."""
    return "mapping" if isinstance(value, dict) else "list" if isinstance(value, list) else "scalar"


def by_form(**forms: Any) -> Any:
    """A field written in one of several forms (scalar=..., mapping=..., list=...), told apart by
    what is written, so that an error speaks of the form that was meant, not of every form."""
    return Annotated[Union[tuple(Annotated[kind, Tag(name)] for name, kind in forms.items())],  # type: ignore[misc]
                     Discriminator(form_of)]


if TYPE_CHECKING:
    Words = Union[str, list[str]]
    KnownLanguages = Union[str, list[str]]
else:
    # A text, or a list of texts (the first is shown; the others are accepted when reading upstream).
    Words = by_form(scalar=Text, list=Annotated[list[Text], Field(min_length=1)])
    # The languages whose texts are known, or `not known`.
    KnownLanguages = by_form(scalar=Literal["not known"], list=Annotated[list[Lang], Field(min_length=1)])


# -- the base of every record ------------------------------------------------------------------------


class Record(BaseModel):
    """A mapping of the catalog: strict types, no unknown field, and where it was written
    (the raw mapping it was read from, generator.reading.raw)."""

    # A field's meaning is the docstring under it. Only the schema and the field reference read them,
    # and pydantic reads them by parsing each class's source (a tenth of a run's CPU at the real
    # catalog's size): the module a run validates with leaves them out; this file loaded again as a
    # module named *.described has them (generator.rendering.schemas.described_format).
    model_config = ConfigDict(strict=True, extra="forbid", populate_by_name=True, frozen=True,
                              use_attribute_docstrings=__name__.endswith(".described"))
    _raw: Any = PrivateAttr(default=None)

    @model_validator(mode="wrap")
    @classmethod
    def _keep_raw(cls, data: Any, handler: Any) -> Any:
        record = handler(data)
        record._raw = data
        return record

    def at(self, key: Optional[str] = None, item: Any = None, of_key: bool = False) -> Any:
        """Where the record, one of its fields (its key with `of_key`), or an item of a list or
        mapping field is written: a Pos (generator.reading.raw keeps the nodes)."""
        raw: Any = self.__pydantic_private__["_raw"]  # type: ignore[index]  # (self._raw: pydantic's slow path)
        if item is not None and hasattr(raw, "get") and hasattr(raw.get(key), "pos"):
            inner: Any = raw.get(key)
            position = inner.pos  # a RawMap's takes of_key, a RawList's does not
            return position(item, of_key) if isinstance(inner, dict) else position(item)
        return raw.pos(key, of_key)

    def given(self, key: str) -> bool:
        """Whether the catalog writes this field (not only its default)."""
        return key in self.model_fields_set or any((f.alias or n) == key and n in self.model_fields_set
                                                   for n, f in type(self).model_fields.items())


# -- site.yaml: the whole catalog -------------------------------------------------------------------


class Repository(Record):
    """An upstream repository that editions and source files cite."""

    url: Url
    """Its address on the forge (https://github.com/OWNER/NAME)."""
    default_branch: Text
    """The branch whose head holds a page's `unreleased` edition."""


class Site(Record):
    """The site's languages, names and wording."""

    languages: list[Lang] = Field(min_length=1)
    """The site's languages; the first is its default (at /, the others under /LANG/)."""
    language_names: Localized
    """The label of each language in the language switch, in that language."""
    name: Localized
    """The site's name."""
    description: Optional[Localized] = None
    """What the site is (its name when absent)."""
    families: list[Text] = []
    """The families' ids, in the order the site shows them (required with more than one family)."""
    labels: dict[Text, dict[Lang, Text]] = {}
    """Overrides of the site's wording (generator/labels.yaml), per label and language."""


# -- family.yaml --------------------------------------------------------------------------------------


class PythonNames(Record):
    """The generated Python module's names."""

    module: Name
    """Its file name: generated/python/MODULE.py."""
    shape: Literal["enum", "constants"]
    """enum: an IntEnum, a drop-in for upstream's class; constants: module-level ints and a lookup()."""
    class_: Name = Field(alias="class")
    """The enum, or the class that lookup() returns."""
    lookup: Name = "lookup"
    """The function that finds a code by any name or value."""
    default_page: Text
    """The page whose editions answer recoverable() and the texts by default (generator/domain/queries.py)."""
    exception: Optional[Name] = None
    """The enum shape: upstream's exception class (needs default_status)."""
    status: Optional[Name] = None
    """The enum shape: upstream's Status(code) class."""
    default_status: Optional[Name] = None
    """The enum shape: the exception's status_code when none is given."""
    code_2_status: Optional[Name] = None
    """The enum shape: the int -> member function (needs unknown_status)."""
    unknown_status: Optional[Name] = None
    """The enum shape: what code_2_status returns for an integer no wrapper value has."""


class CNames(Record):
    """The generated C/C++ header's names."""

    header: Name
    """Its file name: generated/c/HEADER.h."""
    guard: Name
    """Its include guard."""
    namespace: Name
    """The C++ namespace of its constants."""
    macro_prefix: Annotated[str, Field(pattern=r"^[A-Z][A-Z0-9]*_$|^$")] = ""
    """What every C macro's name starts with (PREFIX + C name)."""
    name_function: Name
    """The function that gives a code's C name."""
    message_function: Optional[Name] = None
    """The function that gives the message upstream's library logs for a code."""
    literals: Literal["hex", "decimal"] = "hex"
    """How values are written, as upstream does: hex (0x5010B01A) or decimal (103900)."""


class LayoutField(Record):
    """Where a numeric argument goes in the value."""

    shift: int = Field(ge=0, le=31)
    """How many bits the argument is shifted left."""
    mask: int = Field(ge=0, le=0xFFFFFFFF)
    """Which bits of the argument are kept."""


class ValueLayout(Record):
    """How upstream computes a value from a macro's arguments (GE_ERRORNO_DEFINE)."""

    macro: PyName
    """The macro's name (GE_ERRORNO_DEFINE)."""
    arguments: list[Text] = Field(min_length=1)
    """The macro's arguments in order: `name` (the constant's name), `message` (the registered text), numbers."""
    fields: dict[Text, LayoutField]
    """Each numeric argument's place in the value."""


class Header(Record):
    """An upstream header that declares codes of the family."""

    path: Text
    """As users include it: llm_datadist/llm_datadist.h."""
    namespace: Text
    """The namespace of its names."""


ARGUMENT_FORMAT = r"^[^{}|]*\{:0?[0-9]*[bdxX]\}[^{}|]*(\|[^{}|]*)?$"


class SourceRegion(Record):
    """A region of an upstream source file that lists the family's codes, one line a code, rendered
    from the catalog's facts at each release (`upstream-source`, and `audit --upstream` by
    regeneration): the lines right after the line `after`, each of the form `lines` names."""

    lines: Literal["enum-member", "code-map-entry", "binding", "constant", "macro", "message-macro", "name",
                   "quoted-name"]
    """The form of each line: `    NAME = MODULE.WRAPPER` (enum-member), `    MODULE.WRAPPER: CLASS.NAME,`
    (code-map-entry), `  m.attr("WRAPPER") = py::int_(NS::NAME);` (binding), `TYPE NAME = LITERAL;` (constant),
    `MACRO(ARGUMENTS);` with a value layout's arguments (macro), `MACRO(NAME, "MESSAGE");` (message-macro),
    `    NAME,` (name), `    "NAME",` (quoted-name)."""
    after: Text
    """The line before the region (its start, spaces aside): the same in every version of the file, once in it."""
    codes: Literal["python", "wrapper", "header"]
    """Which codes it lists: those with a Python name, with a binding constant, or with a C++ name in the header."""
    header: Optional[Text] = None
    """For codes: header, the header (of `headers`) whose names it lists (default: the entry's `header`)."""
    namespace: Optional[str] = None
    """The C++ namespace of the names it writes ('' for the global one): of a binding's expressions, of a header's
    names."""
    order: Literal["catalog", "value", "success-failed-first"] = "catalog"
    """The codes' order: codes.yaml's, by value, or 0 and 0xFFFFFFFF first and then by value (the
    value each code was first declared with: a release that fixes a value keeps its line in place)."""
    declaration: Optional[Text] = None
    """For lines: constant, what comes before the name (`constexpr Status`, `static const uint32_t`)."""
    literal: Literal["hex", "decimal"] = "hex"
    """For lines: constant, how the value is written: 0x5010B01AU (hex, no padding) or 103901U (decimal)."""
    module: Optional[PyName] = None
    """For lines: enum-member, code-map-entry, the module the binding constants are read from (llm_wrapper)."""
    macro: Optional[Name] = None
    """For lines: macro, message-macro: the macro (for macro, one of `value_layouts`)."""
    arguments: dict[Name, Annotated[str, Field(pattern=ARGUMENT_FORMAT)]] = {}
    """For lines: macro, how each field of the value is written: a format such as '0b{:02b}' or '{:d}', and after
    a `|` how zero is written ('0x{:X}U|0')."""
    comments: dict[Name, Text] = {}
    """Text after one code's line, by the name the line writes (FAILED: ' /*lint !e401*/')."""
    last_comma: dict[Release, bool] = {}
    """For lines: code-map-entry, from each release on, whether the last entry has its comma (none before)."""
    only_codes: bool = False
    """The list holds other names too: the region is its lines that name the family's codes."""


class UpstreamFile(Record):
    """An upstream source file that `audit --upstream` reads at every tag and `import` takes codes from."""

    repo: Repo
    kind: Literal["python", "binding", "header", "messages"]
    """python (the enum), binding (the pybind module), header, messages (the logged messages' registrations)."""
    path: Optional[Text] = None
    """Where the repository keeps it (or `paths`, oldest first, for a file that moved)."""
    paths: Optional[list[Text]] = Field(default=None, min_length=1)
    """Where the repository kept it, oldest first (a file that moved): at a ref, the newest one there."""
    header: Optional[Text] = None
    """For kind header: which of `headers` it is."""
    base: dict[Name, Release] = {}
    """For kind python: the enum's base class from each release on, oldest first ({Enum: '8.5.0'})."""
    regions: list[SourceRegion] = []
    """The regions of the file that list the family's codes, in file order (`upstream-source`)."""


class Timeline(Record):
    """One copy of a page: in one repository, or the published documentation."""

    id: Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]*$")]
    """The timeline's id (v1), unique in the family; editions.yaml lists versions under it."""
    suffix: Annotated[str, Field(pattern=r"^(?:-[a-z][a-z0-9-]*)?$")]
    """What its edition ids end with (-v1); '' for none."""
    name: Localized
    repo: Optional[Repo] = None
    """For a repository copy: the repository."""
    paths: list[Text] = []
    """For a repository copy: where the page lived there, oldest first."""
    translations: dict[Lang, list[Text]] = {}
    """Where the family's repositories keep the page in another language ({en: [PATH]})."""


class UpstreamWords(Record):
    """Upstream's words in every language; `translated` names those that are this project's translation."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, Text] = Field(init=False)
    translated: list[Lang] = []
    """The languages whose words are this project's translation."""


class Page(Record):
    """One of upstream's pages of the family."""

    id: Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]*$")]
    """The page's id (python, cpp), part of its URLs."""
    name: Localized
    """What to call the page."""
    title: UpstreamWords
    """Upstream's title."""
    intro: Optional[UpstreamWords] = None
    """The sentence above its table."""
    rows: Literal["python", "c"]
    """Which names its rows use."""
    row_prefix: Optional[PyName] = None
    """What the page writes before a C name (rows: c only)."""
    first_column: Literal["name", "decimal"] = "name"
    """What its first column shows: the name, or the value in decimal."""
    columns: list[Column] = Field(min_length=1)
    """Its table's columns in upstream's order; name and recoverable among them."""
    headings: dict[Column, dict[Lang, Words]]
    """Each column's heading per language (the first shown, every one recognised by audit and import)."""
    timelines: list[Timeline] = Field(min_length=1)
    """One per copy of the page (a repository's, or the published documentation)."""


class Family(Record):
    """A family of codes: the names of its generated API, its pages and timelines, the upstream facts `audit` checks."""

    id: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]
    """The family's id: --family ID, the owner of its outputs."""
    name: Localized
    description: Localized
    languages: list[Lang] = Field(min_length=1)
    """The languages of its texts; the first is the default of meaning() and solution()."""
    site_path: Annotated[str, Field(pattern=r"^(?:[a-z][a-z0-9_-]*)?$")] = ""
    """'' to live at the site's root; a word (hixl) for /hixl/."""
    python: PythonNames
    """The generated Python module's names."""
    c: CNames
    """The generated C/C++ header's names."""
    sphinx_directive: Optional[Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]*$")]] = None
    """The Sphinx directive's name (default: the id with - for _)."""
    value_layouts: list[ValueLayout] = []
    """How upstream's macros compute a value from their arguments, so that audit computes it too."""
    runtime_constants: dict[Annotated[str, Field(pattern=IDENTIFIER)], int] = {}
    """Values of runtime constants that upstream's binding uses and no cited repository declares."""
    headers: list[Header] = []
    """The upstream headers that declare the family's codes, as users include them."""
    upstream: list[UpstreamFile] = []
    """Upstream's source files that `audit --upstream` reads at every tag and `import` takes new codes from."""
    discover: list[Text] = []
    """Regular expressions of paths that look like one of its pages (audit --upstream reports them)."""
    recoverable_labels: dict[Recoverable, dict[Lang, Words]]
    """How each recoverability reads in a page's cell, per language (the first shown)."""
    pages: list[Page] = Field(min_length=1)
    """Upstream's pages of the family."""


# -- editions.yaml --------------------------------------------------------------------------------------


def _line_template(line: str) -> str:
    """A code block's line may name only the places a code has ({name}, {literal}, {low})."""
    import string

    from generator.domain.layout import CODE_PLACES

    try:
        parsed = [(name, spec, conversion) for _, name, spec, conversion in string.Formatter().parse(line)
                  if name is not None]
    except ValueError as error:  # a lone { or }
        raise ValueError(f"is no template ({error}): write {{{{ and }}}} for braces") from None
    places = {name if not (spec or conversion) else f"{name} with !{conversion or ''}:{spec or ''}"
              for name, spec, conversion in parsed}
    if not places <= set(CODE_PLACES):
        raise ValueError(f"may name only {{{'}, {'.join(CODE_PLACES)}}}, not "
                         f"{', '.join(sorted(places - set(CODE_PLACES)))}")
    return line


class CodeBlock(Record):
    """A code block of a page derived from the codes."""

    fence: str = ""
    """Its info string (cpp)."""
    open: list[Text] = []
    """Its lines before the codes'."""
    line: Annotated[Text, AfterValidator(_line_template)]
    """Per code: {name}, {literal} (the value as the family writes it), {low} (its low 12 bits)."""
    close: list[Text] = []
    """Its lines after the codes'."""
    values: Optional[list[int]] = Field(default=None, min_length=2, max_length=2)
    """[LOWEST, HIGHEST]: the family's codes with a value in range (else the table's rows)."""


class CodeBlockHolder(Record):
    """A block that is a code block: {code: ...}."""

    code: CodeBlock
    """The code block."""


if TYPE_CHECKING:
    Block = Union[str, CodeBlockHolder]
else:
    Block = by_form(scalar=Text, mapping=CodeBlockHolder)


def _one_line(text: str) -> str:
    if "\n" in text:
        raise ValueError("is one line (the heading's text, after its #)")
    return text


class PageLayout(Record):
    """What a pipe-table file holds around its table, so that `upstream-page` writes it back byte for byte."""

    title: Annotated[Text, AfterValidator(_one_line)]
    """Its heading's text (after its #)."""
    before: list[Block] = []
    """The blocks before the table: a paragraph as upstream writes it, or {code: ...}."""
    after: list[Block] = []
    """The blocks after the table."""
    table: Literal["spaced", "mixed", "tight"]
    """| a | b | (spaced), | a| b| (mixed, the English pages), |a|b| (tight)."""
    header: list[Text]
    """The header row's cells."""
    labels: dict[Recoverable, Text] = {}
    """Recoverable words other than the family's first ({n/a: N/A})."""
    note: Optional[Text] = None
    """A cell line starting with it is a note (说明：)."""
    unclosed: list[Text] = []
    """Rows written without their closing pipe."""
    bom: bool = False
    """The file starts with a byte-order mark."""
    level: int = Field(default=1, ge=1, le=6)
    """2-6 for a section of a larger file (its heading's level); 1 the whole file."""
    blank_after: int = Field(default=0, ge=0, le=9)
    """Blank lines after the last block."""


class Source(Record):
    """Where a version's content comes from, in one language: exactly one of repo, url, seed, document."""

    repo: Optional[Repo] = None
    """An upstream file: with path, commit (of the first tag that ships it) and tags (or branch)."""
    path: Optional[Text] = None
    """The file's path in the repository."""
    commit: Optional[Commit] = None
    """The commit of the first tag that ships it, or the branch head."""
    tags: Optional[list[Text]] = None
    """Every tag, pre-releases included, that ships this file at this path ([] for a commit a branch holds)."""
    branch: Optional[Text] = None
    """The branch whose head no tag ships."""
    ref: Optional[Literal["merge-request"]] = None
    """A commit that only a merge request's ref holds (its texts are proposed, not released)."""
    page: Optional[PageLayout] = None
    """For a file upstream writes as a Markdown pipe table: what it holds around its table."""
    codes: Optional[list[Text]] = Field(default=None, min_length=1)
    """Where upstream split the page over several files: the codes whose rows this file holds (every other row of
    the version is in its first file of that language)."""
    url: Optional[Url] = None
    """A published page."""
    seed: Optional[Text] = None
    """A scraped copy of a page this project keeps."""
    document: Optional[Text] = None
    """A description of what was read."""
    lang: Optional[Lang] = None
    """Its language (every language when absent)."""

    @model_validator(mode="after")
    def _one_kind(self) -> "Source":
        kinds = [k for k in ("repo", "url", "seed", "document") if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError("a source gives exactly one of repo, url, seed, document")
        given = {k for k in self.model_fields_set if k not in (kinds[0], "lang")}
        allowed = {"path", "commit", "tags", "branch", "ref", "page", "codes"} if kinds[0] == "repo" else set()
        if given - allowed:
            raise ValueError(f"a {kinds[0]} source has no {sorted(given - allowed)[0]!r}")
        return self

    @property
    def kind(self) -> str:
        return next(k for k in ("repo", "url", "seed", "document") if getattr(self, k) is not None)


class RowChange(Record):
    """A row with more than its cell: where the page in another language says otherwise, or where it goes."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, Recoverable] = Field(init=False)
    recoverable: Recoverable
    """Its 是否可恢复 cell."""
    after: Optional[Text] = None
    """(A version based on another) the row it follows."""
    before: Optional[Text] = None
    """(A version based on another) the row it precedes."""


if TYPE_CHECKING:
    Row = Union[str, RowChange]
else:
    Row = by_form(scalar=Literal[Recoverable, "dropped"], mapping=RowChange)


class Malformation(Record):
    """A known break in an upstream file (a merge conflict): audit reports it as known."""

    kind: Literal["merge conflict", "unclosed cell", "extra cell"]
    """What broke."""
    code: Text
    """The code whose row it is, by the name the page uses."""
    field: Column
    """The column it is in."""
    line: int
    """Its line in upstream's file."""
    shown: Text
    """Which side a browser shows."""
    sides: dict[Text, Text]
    """Every side's text, by its label."""


class EditionOwn(Record):
    """What one edition of a version says of itself alone."""

    sources: list[Source] = []
    """Where this edition's copy comes from (a page as that release published it)."""
    notes: Optional[Localized] = None
    """Remarks on that release alone."""


class Superseded(Record):
    """A branch-head edition that this version's release took over."""

    edition: VersionId
    """Its id (unreleased-v2)."""
    commit: Commit
    """The branch head it showed."""


class Version(Record):
    """A page version: one upstream file's content (per language), which one or more releases ship,
    written once however many releases ship it. A release that ships an unchanged page adds its tag
    to the version's source; a changed page is a new version.

    Its editions (what the site, the module and the export show) derive from it: one per final
    release whose tag ships it (9.0.0-v1); else one for the first pre-release that ships it
    (9.2.0-beta.1-v1); else `unreleased-...` for the branch head's version no tag ships; for a page
    no tag ships (a published page, a description), its `release`. An edition's id is the release
    (the tag without its `v`) and the timeline's suffix, and `-repo` for a repository copy whose
    release also has a published page on the timeline (9.0.0-v2 is the page published for 9.0.0,
    9.0.0-v2-repo the copy at tag v9.0.0).

    Release order: 8.0.RC3 < 8.0.0 < 8.2.RC1 < 8.5.0 < 9.0.0-beta.1 < 9.0.0 < 9.0.1 < 9.1.0 <
    9.2.0-beta.1 < unreleased, a pre-release before its final release; within a release the pages
    in family.yaml's order, a published page before its -repo copy. A timeline's versions are listed
    in that order. An edition id once published never stops resolving: a version whose id is none of
    its editions' (a pre-release shipped again by its final release), and each `superseded` edition,
    become aliases of its first edition."""

    version: VersionId
    """Its id: the id of the edition that first showed it; codes.yaml names versions by it."""
    based_on: Optional[VersionId] = None
    """An earlier version of the timeline whose rows this one takes, with the changes its rows give."""
    release: Optional[Release] = None
    """Only for a version no repository source ships (a published page): its release."""
    sources: list[Source] = []
    """Where its content comes from, each in one language."""
    texts: KnownLanguages
    """The languages whose texts are known, or `not known`."""
    order: Literal["page", "not known"]
    """page: rows follow the page's order; not known: that order was never seen."""
    rows: Optional[dict[Text, Row]] = None
    """The codes the page lists, by the names it uses, with its 是否可恢复 cell ("yes", "no", n/a, not known);
    with based_on, only what differs (a changed cell, `dropped`, a new row with after/before)."""
    not_listed_not_known: list[Text] = []
    """Codes for which it is not known whether the page lists them (the only copy is cut off)."""
    malformations: list[Malformation] = []
    """Known breaks in upstream's file (a merge conflict): audit reports them as known."""
    notes: Optional[Localized] = None
    """Remarks, in every language (this project's words)."""
    editions: dict[VersionId, EditionOwn] = {}
    """What one of its editions says of itself alone (a published copy of the page, notes)."""
    superseded: list[Superseded] = []
    """The branch-head editions its release took over (their ids keep resolving, as aliases of its edition)."""


# -- codes.yaml --------------------------------------------------------------------------------------------


class CppName(Record):
    """A C++ name and the header (of `headers`) that declares it."""

    name: Annotated[str, Field(pattern=r"^([A-Za-z_][A-Za-z0-9_]*)?(::[A-Za-z_][A-Za-z0-9_]*)+$")]
    """Qualified by its namespace: llm_datadist::LLM_TIMEOUT."""
    header: Text
    """The header (of `headers`) that declares it."""


class Earlier(Record):
    """What a code was before a release changed it: an earlier name (Python, C/C++) or value, and
    where it stopped: in each repository named, from that release on the newer fact holds."""

    python: Optional[Name] = None
    """The earlier Python name."""
    c: Optional[Name] = None
    """The earlier C/C++ name."""
    value: Optional[int] = None
    """The earlier value (hex or decimal): the pages, enum and headers of older releases show it."""
    until: dict[Repo, Release] = Field(min_length=1)
    """Per repository, the first release with the newer fact (a repository not named still has this one)."""


class ApiRemoval(Record):
    """A code one API of a repository no longer ships while the other still does."""

    python: Optional[Release] = None
    """The first release whose Python API (the enum, or the package's constants) no longer has it."""
    c: Optional[Release] = None
    """The first release whose C/C++ headers no longer have it."""


if TYPE_CHECKING:
    RemovedAt = Union[str, ApiRemoval]
else:
    RemovedAt = by_form(scalar=Release, mapping=ApiRemoval)


class TextEntry(Record):
    """A text in one or more languages, and the page versions it holds from: on each of their
    timelines, from that version until a later entry of the same code, column and language starts.
    A text written once holds for every release until upstream changes it; a change is one new
    entry. It is given only to versions whose texts in its language are known (`texts`): a range
    never fills an unread version; and every such version needs, for every code it lists, one text
    per column of its page and language.

    A text is what upstream's cell says, one line per line of the cell (upstream's <br>); a line
    starting with "- " is a bullet, one starting with "1. " a numbered step. With `markdown: true`
    the texts keep upstream's inline Markdown (links, code spans, blank lines), and their plain text
    is derived by one rule (generator/domain/markup.py): a link to a relative target becomes its
    text, one to an absolute URL "text (URL)", a code span its content. An English text taken from
    upstream's English page is upstream's; `origin: translation` marks this project's."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, Text] = Field(init=False)
    from_: list[VersionId] = Field(alias="from", min_length=1)
    """The versions it holds from, on any of the family's timelines: on each one's timeline, from it until a later
    entry of the same code, column and language starts."""
    origin: Literal["upstream", "translation"] = "upstream"
    """translation: this project's (of one language); upstream: upstream's own words."""
    untranslated: list[Lang] = []
    """Languages whose translation of the changed text is still to be written."""
    markdown: bool = False
    """Its texts are written with upstream's inline Markdown (links, code spans, blank lines)."""


if TYPE_CHECKING:
    CppRef = Union[str, CppName]
else:
    CppRef = by_form(scalar=Annotated[str, Field(pattern=r"^([A-Za-z_][A-Za-z0-9_]*)?(::[A-Za-z_][A-Za-z0-9_]*)+$")],
                     mapping=CppName)


class Code(Record):
    """A status code, in the order of upstream's enum (a C/C++-only code where its value puts it).
    Codes are never deleted: one that a release of a repository no longer ships is marked
    `removed` there, so that its number, names and history stay documented. A code keeps one
    identity; a name and a value are facts of a release: `python`, `c` and `value` hold the newest,
    `earlier` what older releases had, and the generated module's member takes the newest name of
    the family's default repository, every other name an alias of it, every earlier value one
    that lookup() still finds."""

    python: Optional[Name] = None
    """Its newest name in the Python enum; absent for a C/C++-only code."""
    c: Optional[Name] = None
    """Its newest name in C/C++; absent for a Python-only code."""
    earlier: list[Earlier] = []
    """Its earlier names and values, oldest first."""
    value: int
    """Its newest number: hex (0x5010B01A) or decimal; a number is used by one code of the family."""
    wrapper: Optional[PyName] = None
    """The binding's constant that status.py reads (llm_wrapper.kLLMTimeout)."""
    cpp: list[CppRef] = []
    """The qualified names upstream's headers declare it under: {name, header}, or 'ns::NAME' for a header outside
    the cited repositories."""
    log_message: Optional[Text] = None
    """The message upstream's library registers and logs for it, typos included."""
    added: dict[Repo, Release] = {}
    """Per repository, the release whose files first have it (without it: from the first release)."""
    removed: dict[Repo, RemovedAt] = {}
    """Per repository, the first release whose files no longer have it; or, where one API dropped it and the
    other kept it, {python: RELEASE} or {c: RELEASE}."""
    notes: Optional[Localized] = None
    """Remarks, in every language (this project's words)."""
    meaning: list[TextEntry] = []
    """What it means, as each page version says it."""
    cause: list[TextEntry] = []
    """Its possible cause, on pages that have that column."""
    solution: list[TextEntry] = []
    """What to do."""


# -- a family of messages: one page per code (GE's error codes) ---------------------------------------

MessageId = Annotated[str, Field(pattern=r"^[A-Z][A-Z0-9_]{0,39}$",
                                 description="a code's id as upstream writes it (E10003, W11001)")]
Wording = Literal["sequence", "respectively", "single", "all"]


class MessageFraming(Record):
    """What every code page of one language says around a code's fields: its headings, labels
    and the sentence that names what each placeholder stands for."""

    symptom: Text
    """The heading of the section that shows the message (错误信息, Symptom)."""
    cause: Text
    """The heading of the possible cause (可能原因, Possible Cause)."""
    solution: Text
    """The heading of the solution (解决方法, Solution)."""
    example: Text
    """The label of a page's one example (报错示例如下：)."""
    example_numbered: Text
    """The label of each of several examples; `{n}` is its number (报错示例{n}如下：)."""
    separator: str
    """What joins the placeholders' meanings in the sentence (、 or ', ')."""
    intro: dict[Wording, Text]
    """The sentence before the message, by wording; `{meanings}` is the meanings joined by the separator.
    sequence: several meanings, in order; respectively: the same, other words; single: one placeholder;
    all: one meaning for every placeholder."""


class MessagePages(Record):
    """Where upstream keeps the family's pages: one Markdown file per code and an index, per language."""

    repo: Repo
    """The repository (declared under `repositories`)."""
    branch: Text
    """The branch whose head holds them (no tag ships them yet: the edition `unreleased`)."""
    commit: Optional[Commit] = None
    """That branch's head when they were read (written by import)."""
    folders: dict[Lang, Text]
    """The folder of each language's pages."""
    file: Text = "{id}-{category}.md"
    """A code page's file name; `{id}` and `{category}` are the code's."""
    index: Text = "README.md"
    """The index's file name, in each folder."""
    index_title: Text
    """The index's title (the same words in every language: GE Errors)."""
    framing: dict[Lang, MessageFraming]
    """Each language's headings and labels."""


class MessageRegistry(Record):
    """The source file that registers the family's messages (GE's error_registry.cc): which codes a release
    ships, with their titles, templates, argument names and suggestions."""

    repo: Repo
    """The repository (declared under `repositories`)."""
    path: Text
    """The file, in that repository."""
    error_class: Text
    """The `errClass` every entry has (GE Errors)."""
    releases: dict[Release, Commit] = {}
    """Each release whose registry was read, and the commit its tag names, oldest first (written by import)."""


class MessageFamily(Record):
    """A family whose codes each have their own page: a message template with placeholders, examples, a
    possible cause and a solution (GE's error codes). It has no enum and no C header: its module offers
    lookup(ID) and match(line)."""

    id: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]
    """The family's id (lower-case letters, digits, _)."""
    name: Localized
    description: Localized
    languages: list[Lang] = Field(min_length=1)
    """The languages of its texts; the first is the default."""
    site_path: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_-]*$")]
    """Where its pages live on the site (ge: /ge/codes/E10003/)."""
    key: Text = "^[A-Z][0-9]{5}$"
    """A regular expression every code's id matches (checked by validate; E10003, W11001)."""
    module: Name
    """The Python module's name (generated/python/MODULE.py) and the JSON export's."""
    pages: MessagePages
    """Upstream's pages."""
    registry: Optional[MessageRegistry] = None
    """Upstream's registry of the messages, if it has one."""


class RegistryText(Record):
    """What the registry says from a release on (until the next item)."""

    from_: Release = Field(alias="from")
    """The first release whose registry says it."""
    text: Optional[str] = None
    """The registry's words; without it, the page's own (the template, or the English cause or solution
    without its Markdown; N/A where the page has none)."""


class RegistryEntry(Record):
    """A code's entry in the registry, where it is not what the page says."""

    args: str
    """The newest `Arglist` as written (the placeholders' names, comma-separated; '' for none)."""
    args_history: list[RegistryText] = []
    """The `Arglist`, where an earlier release's is not `args`, release by release (an item without text: `args`)."""
    message: list[RegistryText] = []
    """The `ErrMessage`, where it is not the page's template, release by release."""
    cause: list[RegistryText] = []
    """The suggestion's `Possible Cause`, where it is not the page's."""
    solution: list[RegistryText] = []
    """The suggestion's `Solution`, where it is not the page's."""


class Message(Record):
    """One code of a message family: its page's fields and its registry entry."""

    id: MessageId
    """The code (E10003)."""
    category: Annotated[str, Field(pattern=r"^[A-Za-z][A-Za-z0-9_]*$")]
    """The page title's second word, the file name's second part and the registry's `errTitle`."""
    page: bool = True
    """False for a code upstream has no page for (the index may still list it: `indexed`)."""
    indexed: bool = True
    """False for a code the pages' index does not list (a code only the registry has, or a page the index leaves
    out)."""
    template: Optional[str] = None
    """The message, with `%s` for each placeholder, as the page's first code block shows it."""
    meanings: dict[Lang, list[Text]] = {}
    """What each placeholder stands for, per language, as the page's sentence lists them (Markdown)."""
    wording: dict[Lang, Wording] = {}
    """Where the page words that sentence otherwise than the rule (several meanings: sequence; one meaning and
    one placeholder: single; one meaning and several placeholders: all)."""
    examples: list[str] = []
    """The page's examples of the real message, in order."""
    numbered: dict[Lang, bool] = {}
    """Where the page numbers its examples' labels otherwise than the rule (numbered when several)."""
    note: Optional[Localized] = None
    """A paragraph in place of examples (Markdown)."""
    cause: dict[Lang, Text] = {}
    """The possible cause, in the languages whose page has that section (Markdown)."""
    solution: dict[Lang, Text] = {}
    """The solution (Markdown)."""
    registry: Optional[RegistryEntry] = None
    """Its registry entry (without it: not in the registry)."""
    added: Optional[Release] = None
    """The first release whose registry has it (without it: the first release read)."""
    known: list[Literal["message", "arguments", "meanings"]] = []
    """Where upstream's own files disagree and the catalog records it as known: the registry's newest message is
    not the page's template (message); the Arglist's count is not the placeholders' (arguments); a language's
    meanings are not one per placeholder (meanings)."""


# -- a catalog file ----------------------------------------------------------------------------------


class CatalogFile(Record):
    """A file of the catalog. The catalog directory's own files hold format, site and repositories
    (and may hold one family); each subdirectory holds one family: its family (family.yaml), versions
    (editions.yaml) and codes (codes.yaml), in one or more files. A code family has pages (upstream's
    page of its Python enum, its C++ error-code page), a page has timelines (one per repository
    that keeps a copy), a timeline has editions (one per release), and a page version is one
    upstream file's content that one or more releases ship. What no copy shows stays `not known`."""

    format: Optional[int] = None
    """The shape of the catalog's files (generator.reading.format.FORMAT)."""
    site: Optional[Site] = None
    """The site's languages, names and wording."""
    repositories: Optional[dict[Repo, Repository]] = None
    """The upstream repositories the catalog cites, by OWNER/NAME."""
    family: Optional[Family] = None
    """The family's names, pages, timelines and upstream facts (family.yaml)."""
    versions: Optional[dict[Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]*$")], list[Version]]] = None
    """Each timeline's page versions, oldest release first."""
    codes: Optional[list[Code]] = None
    """Every code of the family, in the order of upstream's enum."""
    message_family: Optional[MessageFamily] = None
    """A family of messages with one page per code (GE's error codes): its names and upstream's files."""
    messages: Optional[list[Message]] = None
    """Every code of a message family, in the order of upstream's index."""


CATALOG_SECTIONS = ("format", "site", "repositories")
FAMILY_SECTIONS = ("family", "versions", "codes")
MESSAGE_SECTIONS = ("message_family", "messages")
