"""The model of a status code: its names, value, texts per edition and history."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Optional

from generator.core.problems import Pos
from generator.domain.model import UNTRANSLATED, Localized, Page


@dataclass(frozen=True)
class TextEntry:
    """A text in one language. It holds, on each timeline, from the versions its entry names
    (`starts`) until a later entry of the same code, column and language starts; `editions`
    are the editions that resolves to (the editions of the versions covered that list the
    code and whose texts in this language are known)."""

    editions: tuple[str, ...]
    lang: str
    text: str  # for an untranslated text: the text in the family's first language, as seen
    origin: str  # one of TEXT_ORIGINS, UNTRANSLATED, or PROPOSED (computed from its sources)
    pos: Pos
    starts: tuple[str, ...]  # the version ids of its `from`
    start_pos: tuple[Pos, ...]  # where each start is written
    markup: Optional[str] = None  # the text as upstream's cell writes it (domain.markup), where not `text`
    markdown: bool = False  # written with upstream's inline Markdown (`markdown: true`), markup or none

    @property
    def untranslated(self) -> bool:
        """Another language's text, shown until the translation of this one is written."""
        return self.origin == UNTRANSLATED

    @property
    def written(self) -> str:
        """The text with upstream's inline markup (links, code spans, blank lines)."""
        return self.text if self.markup is None else self.markup


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
class Earlier:
    """What a code was before a release changed it (an earlier Python name, C name or value,
    any of them) and where it stopped: in each repository of `until`, from that release on the
    newer fact holds; in a repository not named there, this one still does."""

    python: Optional[str]
    c: Optional[str]
    until: tuple[tuple[str, str], ...]  # (owner/name, the first release with the newer fact)
    pos: Pos
    value: Optional[int] = None

    def holds(self, repo: Optional[str], release: Optional[str]) -> bool:
        """Whether this (earlier) fact is the one `repo` has at `release` (None: its newest)."""
        from generator.core.releases import release_key

        until = dict(self.until).get(repo or "")
        if until is None:
            return True
        key = release_key(release) if release is not None else None
        return key is not None and key < (release_key(until) or ())  # unreleased: the branch head, the newest


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
    notes: Optional[Localized]
    texts: tuple[tuple[str, tuple[TextEntry, ...]], ...]  # field -> entries
    index: int
    pos: Pos
    # per repository (owner/name), the release that added it there: its files at older
    # refs do not have it, and audit does not expect it there
    added: tuple[tuple[str, str], ...] = ()
    # per repository, the first release whose files no longer have it (its older releases do)
    removed: tuple[tuple[str, str], ...] = ()
    earlier: tuple[Earlier, ...] = ()  # its earlier names and values, oldest first
    # per repository and API ("python" or "c"), the first release whose files of that API no longer
    # have it while the other API's still do
    removed_api: tuple[tuple[str, str, str], ...] = ()

    def api_removals(self, api: str) -> list[tuple[str, str]]:
        """(repository, first release without it) where only `api` ("python" or "c") dropped it."""
        return [(repo, release) for repo, which, release in self.removed_api if which == api]

    def api_present_at(self, repo: str, release: Optional[str], api: str) -> bool:
        """Whether `repo`'s files of `api` at `release` (None: the newest) have this code, as far as
        a removal from that API alone says."""
        from generator.core.releases import release_key

        gone = dict(self.api_removals(api)).get(repo)
        if gone is None:
            return True
        key = release_key(release) if release is not None else None
        return key is not None and key < (release_key(gone) or ())

    def present_at(self, repo: str, release: str) -> bool:
        """Whether upstream's files of `repo` at `release` are expected to have this code: a code
        without `added` is everywhere from the first release; one with it only in the
        repositories it names, from the release named there."""
        from generator.core.releases import release_key

        key = release_key(release)
        if self.added:
            added = dict(self.added).get(repo)
            added_key = release_key(added) if added is not None else None
            if added is None or (key is not None and added_key is not None and key < added_key):
                return False
        gone = dict(self.removed).get(repo)
        gone_key = release_key(gone) if gone is not None else None
        return not (key is not None and gone_key is not None and key >= gone_key)

    def python_at(self, repo: Optional[str], release: Optional[str] = None) -> Optional[str]:
        """Its Python name in `repo`'s files at `release` (None: the repository's newest)."""
        return self.names_at(repo, release)[0]

    def c_at(self, repo: Optional[str], release: Optional[str] = None) -> Optional[str]:
        """Its C/C++ name in `repo`'s files at `release` (None: the repository's newest)."""
        return self.names_at(repo, release)[1]

    def names_at(self, repo: Optional[str], release: Optional[str] = None) -> tuple[Optional[str], Optional[str]]:
        """(Python name, C/C++ name) in `repo`'s files at `release` (None: the repository's newest)."""
        python, c = self.python_name, self.c_name
        for before in reversed(self.earlier):  # newest first, while the repository had not yet moved on
            if not before.holds(repo, release):
                break
            python, c = before.python or python, before.c or c
        return python, c

    def value_at(self, repo: Optional[str], release: Optional[str] = None) -> int:
        """Its value in `repo`'s files at `release` (None: the repository's newest)."""
        value = self.value
        for before in reversed(self.earlier):
            if not before.holds(repo, release):
                break
            value = before.value if before.value is not None else value
        return value

    @property
    def renamed(self) -> tuple[Earlier, ...]:
        """The earlier items that name an earlier name."""
        return tuple(e for e in self.earlier if e.python or e.c)

    @property
    def values(self) -> tuple[int, ...]:
        """Every value it has had, the newest first."""
        return tuple(dict.fromkeys((self.value, *(e.value for e in reversed(self.earlier) if e.value is not None))))

    @property
    def python_names(self) -> tuple[str, ...]:
        """Every Python name it has had, the newest first."""
        return tuple(dict.fromkeys(n for n in (self.python_name, *(r.python for r in reversed(self.earlier))) if n))

    @property
    def c_names(self) -> tuple[str, ...]:
        """Every C/C++ name it has had, the newest first."""
        return tuple(dict.fromkeys(n for n in (self.c_name, *(r.c for r in reversed(self.earlier))) if n))

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
    def text_table(self) -> dict[tuple[str, str, str], TextEntry]:
        """(field, edition, language) -> the entry whose text that edition's page shows."""
        table = {}
        for field_name, entries in self.texts:
            for entry in entries:
                for edition in entry.editions:
                    table[(field_name, edition, entry.lang)] = entry
        return table

    def entry(self, field_name: str, edition: str, lang: str) -> Optional[TextEntry]:
        return self.text_table.get((field_name, edition, lang))

    def untranslated(self, field_name: str, edition: str, lang: str) -> bool:
        """Whether the edition's text in `lang` is another language's, its translation still to be written."""
        entry = self.text_table.get((field_name, edition, lang))
        return entry is not None and entry.untranslated

    def text(self, field_name: str, edition: str, lang: str) -> Optional[str]:
        """The text an edition's page shows, or None when not known."""
        entry = self.text_table.get((field_name, edition, lang))
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
