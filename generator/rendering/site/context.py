"""What every page needs: the language's wording, links between pages, and sources."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple, Optional
from urllib.parse import quote

from generator.domain.codes import Code
from generator.domain.editions import Edition, Source
from generator.domain.family import Catalog, Family
from generator.domain.queries import row_anchor
from generator.rendering.environment import banner_lines

DOCS = "site/docs"


def doc_path(location: str, lang: str, index: bool = False) -> str:
    """The Markdown file of the page at `location` (codes/X/ is codes/X.zh.md; an index
    page such as codes/ or the home page "" is codes/index.zh.md, index.zh.md)."""
    stem = location.rstrip("/")
    if index:
        stem = f"{stem}/index" if stem else "index"
    return f"{DOCS}/{stem}.{lang}.md"


def banner() -> str:
    """The banner every page carries (in an HTML comment), in one line."""
    return " ".join(banner_lines())


PLACEHOLDER = re.compile(r"\{(\w+)\}")  # {name} in a label


def filled(label: str, **values: str) -> str:
    """A label's placeholders filled, each once, in one pass (a value that holds "{x}" stays as it
    is), as plain text; a placeholder with no value given stays (release_words fills "{release}" later)."""
    return PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), label)


class Labels:
    """A language's labels, read by the templates as attributes (labels.home) or by key
    (labels[key]); made once per language and family."""

    def __init__(self, texts: dict):
        self.__dict__.update(texts)

    def __getitem__(self, key: str):
        return self.__dict__[key]


_NAMESPACES: dict[int, tuple[object, Labels, Labels]] = {}


def _namespaces(site, lang: str, family_name: Optional[str]) -> tuple[Labels, Labels]:
    """The labels, and the labels as phrases for the `fill` filter (markup.fill), made once per
    language and family (the site keeps the labels it fills with a family's name): a phrase
    is a label as pieces (name, words), a placeholder's name with its own words ("{name}"),
    the label's words between them named "", and {family} already the family's name (in one
    pass: a family's name that holds "{name}" is not read again)."""
    texts = site.labels_for(lang, family_name)
    held = _NAMESPACES.get(id(texts))
    if held is None or held[0] is not texts:
        phrases = {key: _phrase(site.label(key, lang), family_name) for key in texts}
        held = _NAMESPACES[id(texts)] = (texts, Labels(texts), Labels(phrases))
    return held[1], held[2]


@lru_cache(maxsize=1024)  # the labels of a code's page, asked for every code
def _phrase(label: str, family_name: Optional[str]) -> tuple[tuple[str, str], ...]:
    parts = PLACEHOLDER.split(label)  # words, name, words, name, ...
    return tuple(("", family_name) if i % 2 and part == "family" and family_name is not None else
                 (part, f"{{{part}}}") if i % 2 else ("", part) for i, part in enumerate(parts))


class Link(NamedTuple):
    href: str
    label: str  # text: an edition's id, a code's name


class SourceView(NamedTuple):
    """A source as readers follow it (templates/site/macros/parts.html.j2, `source`)."""

    kind: str  # "repo", "url", "seed" or "document": how it is shown
    language: str  # the name of its language, or ""
    repo: str = ""
    repo_url: str = ""
    path: str = ""
    file_url: str = ""
    commit: str = ""
    tags: tuple[tuple[str, str], ...] = ()  # (tag, its URL)
    branch: str = ""
    url: str = ""
    document: str = ""


class Context:
    """One language of the site, seen from one page."""

    def __init__(self, catalog: Catalog, lang: str, location: str, family: Optional[Family] = None):
        self.catalog, self.lang, self.location, self.family = catalog, lang, location, family
        self.site = catalog.site
        name = family.name[lang] if family is not None else None
        self._labels = self.site.labels_for(lang, name)
        self.labels, self.phrases = _namespaces(self.site, lang, name)

    # -- wording -------------------------------------------------------------------------

    def label(self, key: str, family: Optional[Family] = None) -> str:
        """A label in this page's language, its {family} the family's name (this page's family, or `family`)."""
        if family is None or family is self.family:
            return self._labels[key]
        return self.site.labels_for(self.lang, family.name[self.lang])[key]

    def recoverable(self, value: Optional[str], family: Optional[Family] = None) -> str:
        target = family or self.family
        if value is None or target is None:
            return "—"
        return target.recoverable_label(value, self.lang)

    def state(self, st: str) -> str:
        return self.label({"yes": "legend_yes", "no": "legend_no", "na": "legend_na", "unknown": "legend_unknown",
                           "not-known": "legend_not_known", "absent": "legend_absent"}[st])

    # -- links ---------------------------------------------------------------------------------

    def url(self, target: str) -> str:
        """A relative URL from this page to another page's location (works under any sub-path)."""
        depth = self.location.count("/")
        return "../" * depth + target or "./"

    def code_location(self, family: Family, code: Code) -> str:
        return f"{family.prefix}codes/{code.name}/"

    def edition_location(self, family: Family, edition: Edition) -> str:
        return f"{family.prefix}editions/{edition.id}/"

    def code_link(self, family: Family, code: Code) -> Link:
        return Link(self.url(self.code_location(family, code)), code.name)

    def edition_link(self, family: Family, edition: Edition, code: Optional[Code] = None) -> Link:
        """A link to the edition's page, or to the code's row in it (where it lists the code)."""
        anchor = f"#{row_anchor(edition, code)}" if code is not None and code.name in edition.row_by_code else ""
        return Link(self.url(self.edition_location(family, edition)) + anchor, edition.id)

    # -- sources -------------------------------------------------------------------------------

    def source(self, source: Source) -> SourceView:
        """A source as readers follow it: the file at its commit, the page's URL."""
        names = self.catalog.site.language_names
        language = (names.get(source.lang) or source.lang) if source.lang else ""
        if source.kind == "repo" and source.repo and source.commit and source.path:
            repo = self.catalog.repositories[source.repo]
            return SourceView(
                "repo", language, repo=source.repo, repo_url=repo.url, path=source.path,
                file_url=repo.file_url(source.commit, quote(source.path)), commit=source.commit,
                tags=tuple((t, f"{repo.url}/tree/{quote(t)}") for t in source.tags), branch=source.branch or "")
        if source.kind == "url" and source.url:
            return SourceView("url", language, url=source.url)
        if source.kind == "seed":  # this project's copy of a published page: no public address
            return SourceView("seed", language)
        return SourceView("document", language, document=source.document or "")
