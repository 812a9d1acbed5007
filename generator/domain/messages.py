"""A family of messages: one page per code (GE's error codes), and the registry that ships them.

A code has a message template whose `%s` are placeholders, what each placeholder stands for in
each language, examples of the real message, maybe a possible cause, and a solution. The pages
are one page version (the default branch's head: the edition `unreleased`); the registry, a
source file that lists the codes, has a history over the releases: which codes each release
ships and what its entry says. An entry's text is the page's unless the catalog says otherwise.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Optional

from generator.core.problems import Pos
from generator.core.releases import UNRELEASED, release_key
from generator.domain.markup import markdown_plain
from generator.domain.model import Localized

PLACEHOLDER = "%s"
NOT_AVAILABLE = "N/A"
WORDINGS = ("sequence", "respectively", "single", "all")


@dataclass(frozen=True)
class Framing:
    """What every page of one language says around a code's fields."""

    symptom: str
    cause: str
    solution: str
    example: str
    example_numbered: str
    separator: str
    intro: tuple[tuple[str, str], ...]  # wording -> sentence with {meanings}

    def sentence(self, wording: str) -> Optional[str]:
        return dict(self.intro).get(wording)


@dataclass(frozen=True)
class PagesSource:
    repo: str
    branch: str
    commit: Optional[str]
    folders: tuple[tuple[str, str], ...]  # lang -> folder
    file: str
    index: str
    index_title: str
    framing: tuple[tuple[str, Framing], ...]

    def folder(self, lang: str) -> str:
        return dict(self.folders)[lang]

    def framing_of(self, lang: str) -> Framing:
        return dict(self.framing)[lang]


@dataclass(frozen=True)
class Registry:
    repo: str
    path: str
    error_class: str
    releases: tuple[tuple[str, str], ...]  # release -> commit, oldest first


@dataclass(frozen=True)
class Said:
    """A registry text from a release on; `text` None: the page's own."""

    release: str
    text: Optional[str]


@dataclass(frozen=True)
class MessageCode:
    id: str
    category: str
    page: bool
    indexed: bool  # the pages' index lists it
    template: Optional[str]
    meanings: tuple[tuple[str, tuple[str, ...]], ...]  # lang -> meanings (Markdown)
    wording: tuple[tuple[str, str], ...]
    examples: tuple[str, ...]
    numbered: tuple[tuple[str, bool], ...]
    note: Optional[Localized]
    cause: tuple[tuple[str, str], ...]
    solution: tuple[tuple[str, str], ...]
    args: Optional[str]  # the registry's newest Arglist; None: not in the registry
    registry_args: tuple[Said, ...]
    registry_message: tuple[Said, ...]
    registry_cause: tuple[Said, ...]
    registry_solution: tuple[Said, ...]
    added: Optional[str]
    known: tuple[str, ...]
    pos: Pos = field(compare=False)

    @property
    def placeholders(self) -> int:
        return self.template.count(PLACEHOLDER) if self.template else 0

    def meanings_in(self, lang: str) -> tuple[str, ...]:
        return dict(self.meanings).get(lang, ())

    def cause_in(self, lang: str) -> Optional[str]:
        return dict(self.cause).get(lang)

    def solution_in(self, lang: str) -> Optional[str]:
        return dict(self.solution).get(lang)

    def wording_in(self, lang: str) -> str:
        """How the page's sentence names the meanings: the catalog's word, else the rule."""
        given = dict(self.wording).get(lang)
        if given:
            return given
        return default_wording(len(self.meanings_in(lang)), self.placeholders)

    def numbered_in(self, lang: str) -> bool:
        given = dict(self.numbered).get(lang)
        return given if given is not None else len(self.examples) > 1

    @property
    def arg_names(self) -> tuple[str, ...]:
        """The registry's names of the placeholders, in order (none where it has none)."""
        return tuple(name.strip() for name in self.args.split(",")) if self.args else ()

    def registry_at(self, release: str, family: "MessageFamily") -> Optional[dict[str, object]]:
        """The registry's entry at a release, as upstream writes it; None where that release does not ship it."""
        return family.registry_entries.get((self.id, release))

    def _entry_at(self, release: str, family: "MessageFamily") -> Optional[dict[str, object]]:
        if self.args is None or not family.ships(self, release):
            return None
        assert family.registry is not None
        return {
            "errClass": family.registry.error_class,
            "errTitle": self.category,
            "ErrCode": self.id,
            "ErrMessage": _said(self.registry_message, release, self.template or ""),
            "Arglist": _said(self.registry_args, release, self.args),
            "suggestion": {
                "Possible Cause": _said(self.registry_cause, release, plain_or_na(self.cause_in("en"))),
                "Solution": _said(self.registry_solution, release, plain_or_na(self.solution_in("en"))),
            },
        }

    def placeholder_meanings(self, lang: str) -> list[tuple[str, str]]:
        """(the registry's name, the page's meaning) of each placeholder, in order: a name where the
        registry names one per placeholder, a meaning where the page lists one per placeholder (or one
        for all: `--%s and --%s are mutually exclusive`, each a parameter name, unless the catalog
        records that the meanings disagree: E10011's English gives one for a value and a shape's
        error value); "" where neither says (E10005's English lists three meanings for two)."""
        count = self.placeholders
        names = self.arg_names if len(self.arg_names) == count else ("",) * count
        meanings = [markdown_plain(m) for m in self.meanings_in(lang)]
        if len(meanings) == 1 and "meanings" not in self.known:
            meanings = meanings * count
        return list(zip(names, meanings if len(meanings) == count else [""] * count))

    def meanings_fit(self, lang: str) -> bool:
        """Whether the page in `lang` gives each placeholder a meaning (placeholder_meanings)."""
        return all(meaning for _, meaning in self.placeholder_meanings(lang))

    def meanings_disagree(self, languages: tuple[str, ...]) -> tuple[str, ...]:
        """The languages whose page lists meanings that do not fit the placeholders (where the catalog
        records that they disagree): E10005's is English only, its zh page lists two for two."""
        if "meanings" not in self.known:
            return ()
        return tuple(lang for lang in languages if self.meanings_in(lang) and not self.meanings_fit(lang))

    def messages(self, family: "MessageFamily") -> tuple[str, ...]:
        """Every text of its message: the page's template and the registry's of every release, each once."""
        texts: list[str] = [self.template] if self.template else []
        for release, _ in family.registry.releases if family.registry else ():
            entry = self.registry_at(release, family)
            if entry is not None and entry["ErrMessage"] not in texts:
                texts.append(str(entry["ErrMessage"]))
        return tuple(texts)


@dataclass(frozen=True)
class MessageFamily:
    id: str
    name: Localized
    description: Localized
    languages: tuple[str, ...]
    site_path: str
    key: str
    module: str
    pages: PagesSource
    registry: Optional[Registry]
    codes: tuple[MessageCode, ...]
    files: tuple[str, ...]
    pos: Pos = field(compare=False)

    @property
    def prefix(self) -> str:
        return f"{self.site_path}/"

    @cached_property
    def code_by_id(self) -> dict[str, MessageCode]:
        return {code.id: code for code in self.codes}

    @cached_property
    def releases(self) -> tuple[str, ...]:
        """The releases whose registry the catalog records, oldest first."""
        return tuple(release for release, _ in self.registry.releases) if self.registry else ()

    @property
    def editions(self) -> tuple[str, ...]:
        """Every edition: each release the registry was read at, then the pages' `unreleased`."""
        return self.releases + (UNRELEASED,)

    @cached_property
    def registry_entries(self) -> dict[tuple[str, str], dict[str, object]]:
        """Every code's registry entry at every release that ships it: (id, release) -> entry (made once)."""
        return {(code.id, release): entry for code in self.codes for release in self.releases
                if (entry := code._entry_at(release, self)) is not None}

    def over_releases(self, code: MessageCode, key: str) -> list[tuple[list[str], str]]:
        """What the registry says of a code (`ErrMessage`, or a suggestion's `Solution` or `Possible Cause`),
        each text with the consecutive releases that say it, oldest first."""
        runs: list[tuple[list[str], str]] = []
        for release in self.releases:
            entry = code.registry_at(release, self)
            if entry is None:
                continue
            text = str(entry[key] if key in entry else entry["suggestion"][key])  # type: ignore[index]
            if runs and runs[-1][1] == text:
                runs[-1][0].append(release)
            else:
                runs.append(([release], text))
        return runs

    def ships(self, code: MessageCode, release: str) -> bool:
        """Whether a release's registry has the code."""
        if code.args is None or release not in self.releases:
            return False
        first = code.added or (self.releases[0] if self.releases else release)
        return bool(release_key(first) <= release_key(release))  # type: ignore[operator]

    def file_name(self, code: MessageCode) -> str:
        return self.pages.file.replace("{id}", code.id).replace("{category}", code.category)

    def first_release(self, code: MessageCode) -> Optional[str]:
        return next((r for r in self.releases if self.ships(code, r)), None)


def _said(history: tuple[Said, ...], release: str, page: str) -> str:
    """What the registry says at a release: the last item from a release at or before it, else the page's."""
    text: Optional[str] = None
    for said in history:
        if release_key(said.release) <= release_key(release):  # type: ignore[operator]
            text = said.text if said.text is not None else page
    return page if text is None else text


def default_wording(meanings: int, placeholders: int) -> str:
    """The page's usual sentence: several meanings in sequence; one for one placeholder; one for all."""
    if meanings > 1:
        return "sequence"
    return "single" if placeholders <= 1 else "all"


def plain_or_na(markdown: Optional[str]) -> str:
    return markdown_plain(markdown) if markdown else NOT_AVAILABLE


def pieces(template: str) -> tuple[str, ...]:
    return tuple(template.split(PLACEHOLDER))
