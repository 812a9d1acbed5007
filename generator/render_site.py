"""The documentation site: one Markdown page per code, per edition, the
differences and a home page, in every language, plus the MkDocs config.

Pages are data for templates; every catalog text passes through an escaping
filter (`md`, or textblocks.md_cell for table cells) before it reaches them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from generator import changes
from generator.escape import md_inline
from generator.model import Catalog, Code, Edition
from generator.render import render_template
from generator.textblocks import md_cell

DOCS = "site/docs"
PRESENCE_MARKS = {changes.NOT_LISTED: "—", changes.NOT_KNOWN: "?"}


@dataclass(frozen=True)
class Page:
    """What every page template gets: the catalog, its language and label lookup."""

    catalog: Catalog
    lang: str

    def label(self, key: str) -> str:
        return md_inline(self.raw(key))

    def raw(self, key: str) -> str:
        """A label as plain text, for templates that escape it themselves (HTML blocks)."""
        return self.catalog.family.label(key, self.lang)

    def localized(self, texts) -> str:
        return texts[self.lang]

    def md_cell(self, text: str) -> str:
        return md_cell(text)

    def column(self, key: str) -> str:
        return md_inline(self.catalog.family.column(key, self.lang))

    def recoverable(self, value: Optional[str]) -> str:
        if value is None:
            return "—"
        return md_inline(self.catalog.family.recoverable_label(value, self.lang))

    def text_cell(self, code: Code, field_name: str, edition: Edition) -> str:
        text = code.text(field_name, edition.id, self.lang)
        if text is None:
            return f"*{self.label('text_not_known')}*"
        return md_cell(text)

    def code_link(self, name: str, prefix: str) -> str:
        return f"[{md_inline(name)}]({prefix}codes/{name}.md)"

    def edition_link(self, edition: Edition, prefix: str, anchor: str = "") -> str:
        return f"[{md_inline(edition.id)}]({prefix}editions/{edition.id}.md{anchor})"

    def row_link(self, edition: Edition, code: Code, prefix: str) -> str:
        """A link to the code's row on an edition page, or to the page where it has no row."""
        anchor = f"#{code.slug}" if code.name in edition.row_by_code else ""
        return self.edition_link(edition, prefix, anchor)

    def presence_cell(self, edition: Edition, code: Code) -> str:
        state = changes.presence(edition, code)
        if state != changes.LISTED:
            return PRESENCE_MARKS[state]
        value = changes.recoverable(edition, code)
        return "✓" if value == "not known" else self.recoverable(value)

    def exists_in(self, code: Code) -> str:
        key = "exists_both" if code.in_python and code.in_c else ("exists_python" if code.in_python else "exists_c")
        return self.label(key)

    def translated(self, edition: Edition) -> bool:
        return edition.text_origin(self.lang) == "translation"


def render_site(catalog: Catalog) -> dict[str, str]:
    files = {
        "site/mkdocs.yml": render_mkdocs_config(catalog),
        "site/hooks/search_words.py": render_template("site/hooks/search_words.py.j2"),
        f"{DOCS}/assets/extra.css": render_template("site/extra.css"),
    }
    for lang in catalog.family.languages:
        page = Page(catalog, lang)
        files[_doc("index", lang)] = render_template("site/home.md.j2", p=page, c=catalog)
        files[_doc("differences", lang)] = render_template(
            "site/differences.md.j2", p=page, c=catalog, diffs=_consecutive_diffs(catalog),
            splits=_page_splits(catalog))
        for edition in catalog.editions:
            files[_doc(f"editions/{edition.id}", lang)] = render_template("site/edition.md.j2", p=page, c=catalog, e=edition)
        for code in catalog.codes:
            files[_doc(f"codes/{code.name}", lang)] = render_template(
                "site/code.md.j2", p=page, c=catalog, code=code, columns=_edition_columns(catalog, code, lang),
                history=changes.history(catalog, code))
    return files


def _doc(name: str, lang: str) -> str:
    return f"{DOCS}/{name}.{lang}.md"


def render_mkdocs_config(catalog: Catalog) -> str:
    family = catalog.family
    default = family.languages[0]
    sections = ("editions", "codes", "differences", "home")
    return render_template(
        "site/mkdocs.yml.j2", family=family, default=default,
        nav_titles={key: family.label(key, default) for key in sections},
        translations={lang: {family.label(k, default): family.label(k, lang) for k in sections}
                      for lang in family.languages[1:]},
        editions=catalog.editions, codes=catalog.codes,
    )


@dataclass(frozen=True)
class EditionColumn:
    """Editions whose page says the same about a code, shown as one column."""

    editions: tuple[Edition, ...]
    recoverable: Optional[str]
    presence: str


def _edition_columns(catalog: Catalog, code: Code, lang: str) -> list[EditionColumn]:
    groups: dict[tuple, list[Edition]] = {}
    for edition in catalog.editions:
        state = changes.presence(edition, code)
        if state == changes.NOT_LISTED:
            continue
        key = (state, changes.recoverable(edition, code), edition.text_origin(lang),
               code.text("meaning", edition.id, lang), code.text("solution", edition.id, lang))
        groups.setdefault(key, []).append(edition)
    return [EditionColumn(tuple(eds), key[1], key[0]) for key, eds in groups.items()]


def _consecutive_diffs(catalog: Catalog) -> list[changes.EditionDiff]:
    editions = catalog.editions
    return [changes.compare_editions(catalog, a, b) for a, b in zip(editions, editions[1:])]


def _page_splits(catalog: Catalog) -> list[tuple[str, list[tuple[Edition, list[Code]]]]]:
    """Per release with several pages: the codes each page lists and the others do not."""
    releases: dict[str, list[Edition]] = {}
    for edition in catalog.editions:
        releases.setdefault(edition.release, []).append(edition)
    splits = []
    for release, editions in releases.items():
        if len(editions) < 2:
            continue
        only = []
        for edition in editions:
            others = [e for e in editions if e is not edition]
            codes = [c for c in catalog.codes if c.name in edition.row_by_code
                     and all(changes.presence(o, c) == changes.NOT_LISTED for o in others)]
            only.append((edition, codes))
        splits.append((release, only))
    return splits
