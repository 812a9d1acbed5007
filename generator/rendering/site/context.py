"""What every page needs: the language's wording, links between pages, and sources."""
from __future__ import annotations

from functools import lru_cache
from typing import Optional
from urllib.parse import quote

from generator.rendering.escape import html_in_markdown as esc
from generator.domain.codes import Code
from generator.domain.editions import Edition, Source
from generator.domain.family import Catalog, Family
from generator.domain.model import Page
from generator.domain.queries import row_anchor
from generator.rendering.environment import banner_lines
from generator.rendering.site.html import code_html, link

DOCS = "site/docs"


def doc_path(location: str, lang: str, index: bool = False) -> str:
    """The Markdown file of the page at `location` (codes/X/ is codes/X.zh.md; an index
    page such as codes/ or the home page "" is codes/index.zh.md, index.zh.md)."""
    stem = location.rstrip("/")
    if index:
        stem = f"{stem}/index" if stem else "index"
    return f"{DOCS}/{stem}.{lang}.md"


def markdown_banner(stamp: str) -> str:
    return "<!-- " + " ".join(line.replace("--", "- -") for line in banner_lines(stamp)) + " -->"


@lru_cache(maxsize=1 << 14)  # a code's page links each edition from its answers, history and sayings
def _edition_link(href: str, anchor: str, edition_id: str) -> str:
    return link(href + anchor, esc(edition_id), "eid")


class Context:
    """One language of the site, seen from one page."""

    def __init__(self, catalog: Catalog, lang: str, location: str, family: Optional[Family] = None):
        self.catalog, self.lang, self.location, self.family = catalog, lang, location, family
        self.site = catalog.site
        self._labels = self.site.labels_for(lang, family.name[lang] if family is not None else None)

    # -- wording -------------------------------------------------------------------------

    def label(self, key: str, family: Optional[Family] = None) -> str:
        """A label in this page's language, its {family} the family's name (this page's family, or `family`)."""
        if family is None or family is self.family:
            return self._labels[key]
        return self.site.labels_for(self.lang, family.name[self.lang])[key]

    def l(self, key: str) -> str:  # noqa: E743 - short: used in every template line
        """A label, escaped for HTML and Markdown."""
        return esc(self.label(key))

    def recoverable(self, value: Optional[str], family: Optional[Family] = None) -> str:
        target = family or self.family
        if value is None or target is None:
            return "—"
        return target.recoverable_label(value, self.lang)

    def heading(self, page: Page, column: str) -> str:
        return page.heading(column, self.lang)

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

    def code_link(self, family: Family, code: Code, label_html: Optional[str] = None) -> str:
        return link(self.url(self.code_location(family, code)), label_html or code_html(code.name, copy=False))

    def edition_link(self, family: Family, edition: Edition, code: Optional[Code] = None) -> str:
        anchor = f"#{row_anchor(edition, code)}" if code is not None and code.name in edition.row_by_code else ""
        return _edition_link(self.url(self.edition_location(family, edition)), anchor, edition.id)

    # -- sources -------------------------------------------------------------------------------

    def source_html(self, source: Source) -> str:
        """A source as readers follow it: the file at its commit, the page's URL, linked."""
        names = self.catalog.site.language_names
        lang = f" ({esc(names.get(source.lang) or source.lang)})" if source.lang else ""
        if source.kind == "repo" and source.repo and source.commit and source.path:
            repo = self.catalog.repositories[source.repo]
            file_url = repo.file_url(source.commit, quote(source.path))
            commit = link(f"{repo.url}/commit/{source.commit}", f"<code>{esc(source.commit[:12])}</code>")
            where = (
                f"{link(file_url, f'<code>{esc(source.path)}</code>')} · {link(repo.url, esc(source.repo))} · {commit}"
            )
            if source.tags:
                tags = ", ".join(link(f"{repo.url}/tree/{quote(t)}", esc(t)) for t in source.tags)
                where += f"; {esc(self.label('source_tags'))}: {tags}"
            elif source.branch:
                where += f"; {esc(self.label('source_branch'))} {esc(source.branch)}"
            return where + lang
        if source.kind == "url" and source.url:
            return link(source.url, esc(source.url)) + lang
        if source.kind == "seed":  # this project's copy of a published page: no public address
            return f"{esc(self.label('source_seed'))}{lang}"
        return esc(source.document or "") + lang
