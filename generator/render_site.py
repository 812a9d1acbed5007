"""The documentation site: one Markdown page per code, per edition, the
differences and a home page, in every language, plus the MkDocs config.

Templates hold each page's layout; the rows of its tables are built here, as
plain strings, because a site of 10,000 codes has hundreds of thousands of
cells. Every catalog text passes through an escaping function (md_inline, or
md_cell for table cells) before it reaches a page.
"""
from __future__ import annotations

from functools import cached_property, lru_cache
from typing import Optional

from generator import changes
from generator.escape import md_inline
from generator.model import LABEL_KEYS, RECOVERABLE_VALUES, TEXT_FIELDS, Catalog, Code, Edition
from generator.render import render_template
from generator.textblocks import md_cell

DOCS = "site/docs"
PRESENCE_MARKS = {changes.NOT_LISTED: "—", changes.NOT_KNOWN: "?"}


class Page:
    """One language's wording, escaped once, and the cell builders every page shares."""

    def __init__(self, catalog: Catalog, lang: str):
        self.catalog, self.lang = catalog, lang
        family = catalog.family
        self.labels = {key: md_inline(family.label(key, lang)) for key in LABEL_KEYS}
        self.columns = {key: md_inline(family.column(key, lang)) for key, _ in family.columns}
        self.recoverable_labels = {v: md_inline(family.recoverable_label(v, lang)) for v in RECOVERABLE_VALUES}
        self.not_known_text = f"*{self.labels['text_not_known']}*"

    # -- what templates call -------------------------------------------------------

    def label(self, key: str) -> str:
        return self.labels[key]

    def raw(self, key: str) -> str:
        """A label as plain text, for templates that escape it themselves (HTML blocks)."""
        return self.catalog.family.label(key, self.lang)

    def localized(self, texts) -> str:
        return texts[self.lang]

    def column(self, key: str) -> str:
        return self.columns[key]

    def translated(self, edition: Edition) -> bool:
        return edition.text_origin(self.lang) == "translation"

    # -- cells -----------------------------------------------------------------------

    def recoverable(self, value: Optional[str]) -> str:
        return "—" if value is None else self.recoverable_labels[value]

    def text_cell(self, code: Code, field_name: str, edition: Edition) -> str:
        text = code.text(field_name, edition.id, self.lang)
        return self.not_known_text if text is None else _cell(text)

    def presence_cell(self, edition: Edition, code: Code) -> str:
        state = changes.presence(edition, code)
        if state != changes.LISTED:
            return PRESENCE_MARKS[state]
        value = changes.recoverable(edition, code)
        return "✓" if value == "not known" else self.recoverable(value)

    def presence(self, state: str) -> str:
        return self.labels[changes.PRESENCE_LABELS[state]]

    def exists_in(self, code: Code) -> str:
        return self.labels[code.exists_label]


@lru_cache(maxsize=None)
def _cell(text: str) -> str:
    """A text as a table cell; cached because the same text fills many pages."""
    return md_cell(text)


@lru_cache(maxsize=None)
def code_link(name: str, prefix: str) -> str:
    return f"[{md_inline(name)}]({prefix}codes/{name}.md)"


def edition_link(edition: Edition, prefix: str, anchor: str = "") -> str:
    return _edition_link(edition.id, prefix, anchor)


@lru_cache(maxsize=None)
def _edition_link(edition_id: str, prefix: str, anchor: str) -> str:
    return f"[{md_inline(edition_id)}]({prefix}editions/{edition_id}.md{anchor})"


def row_link(edition: Edition, code: Code, prefix: str) -> str:
    """A link to the code's row on an edition page, or to the page where it has no row."""
    return edition_link(edition, prefix, f"#{code.slug}" if code.name in edition.row_by_code else "")


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


# -- pages ---------------------------------------------------------------------------


class SiteRenderer:
    def __init__(self, catalog: Catalog):
        self.catalog = catalog

    @cached_property
    def histories(self) -> dict[str, tuple]:
        return {code.name: changes.history(self.catalog, code) for code in self.catalog.codes}

    @cached_property
    def diffs(self) -> list[changes.EditionDiff]:
        editions = self.catalog.editions
        return [changes.compare_editions(self.catalog, a, b) for a, b in zip(editions, editions[1:])]

    def render(self) -> dict[str, str]:
        catalog = self.catalog
        files = {
            "site/mkdocs.yml": render_mkdocs_config(catalog),
            "site/hooks/search_words.py": render_template("site/hooks/search_words.py.j2"),
            f"{DOCS}/assets/extra.css": render_template("site/extra.css"),
        }
        for lang in catalog.family.languages:
            page = Page(catalog, lang)
            files[_doc("index", lang)] = self.home(page)
            files[_doc("differences", lang)] = self.differences(page)
            for edition in catalog.editions:
                files[_doc(f"editions/{edition.id}", lang)] = self.edition(page, edition)
            for code in catalog.codes:
                files[_doc(f"codes/{code.name}", lang)] = self.code(page, code)
        return files

    def home(self, p: Page) -> str:
        c = self.catalog
        editions = table([p.label("edition"), p.label("release"), p.label("page"), p.label("codes")], [
            [edition_link(e, ""), md_inline(e.release), md_inline(e.page[p.lang]), str(len(e.rows))] for e in c.editions])
        codes = table([p.column("name"), p.label("hex"), p.label("decimal"), p.label("c_name"), p.label("listed_by")], [
            [code_link(code.name, ""), f"`{code.hex}`", str(code.value), f"`{code.c_name}`" if code.c_name else "—",
             ", ".join(row_link(e, code, "") for e in c.editions_listing(code)) or "—"] for code in c.codes])
        return render_template("site/home.md.j2", p=p, c=c, editions_table=editions, codes_table=codes)

    def edition(self, p: Page, e: Edition) -> str:
        rows = []
        for row in e.rows:
            code = self.catalog.code_by_name[row.code]
            name = f'<a class="code-anchor" id="{code.slug}"></a>{code_link(code.name, "../")}<br>`{code.hex}` ({code.value})'
            if code.c_name and code.c_name != code.name:
                name += f"<br>{p.labels['c_name']}: `{code.c_name}`"
            rows.append([name, p.text_cell(code, "meaning", e), p.recoverable(row.recoverable), p.text_cell(code, "solution", e)])
        body = table([p.column(k) for k in ("name", "meaning", "recoverable", "solution")], rows)
        unknown = [code_link(name, "../") for name in e.not_known]
        return render_template("site/edition.md.j2", p=p, c=self.catalog, e=e, rows_table=body, not_known=unknown)

    def code(self, p: Page, code: Code) -> str:
        c = self.catalog
        names = table([p.label(k) for k in ("python_name", "c_name", "hex", "decimal", "exists_in")], [[
            f"`{code.python_name}`" if code.python_name else "—", f"`{code.c_name}`" if code.c_name else "—",
            f"`{code.hex}`", str(code.value), p.exists_in(code)]])
        facts = [
            (p.label("cpp_names"), ", ".join(f"`{n}`" for n in code.cpp_names) or p.label("none")),
            (p.label("log_message"), md_inline(code.log_message) if code.log_message is not None else p.label("none")),
            (p.label("listed_by"), ", ".join(row_link(e, code, "../") for e in c.editions_listing(code)) or p.label("none")),
        ]
        return render_template("site/code.md.j2", p=p, code=code, names_table=names, facts=facts,
                               per_edition=self._per_edition(p, code), history=self._history(p, code))

    def _per_edition(self, p: Page, code: Code) -> Optional[str]:
        columns = _edition_columns(self.catalog, code, p.lang)
        if not columns:
            return None
        header = [""] + [", ".join(row_link(e, code, "../") for e in eds) + (f" ({p.labels['translation']})" if p.translated(eds[0]) else "")
                         for eds, _, _ in columns]
        listed = [p.recoverable(value) if state == changes.LISTED else f"*{p.labels['listing_not_known']}*"
                  for _, value, state in columns]
        rows = [[p.column("recoverable")] + listed]
        rows += [[p.column(f)] + [p.text_cell(code, f, eds[0]) for eds, _, _ in columns] for f in TEXT_FIELDS]
        return table(header, rows)

    def _history(self, p: Page, code: Code) -> str:
        return table([p.label("edition"), p.label("listed"), p.column("recoverable"), p.label("change")], [
            [edition_link(step.edition, "../"), p.presence(step.presence), p.recoverable(step.recoverable),
             ", ".join(p.labels[e] for e in step.events)] for step in self.histories[code.name]])

    def differences(self, p: Page) -> str:
        c = self.catalog
        matrix = table([p.column("name")] + [edition_link(e, "") for e in c.editions],
                       [[code_link(code.name, "")] + [p.presence_cell(e, code) for e in c.editions] for code in c.codes])
        return render_template("site/differences.md.j2", p=p, matrix=matrix, splits=self._splits(p),
                               changes=[self._diff(p, d) for d in self.diffs])

    def _splits(self, p: Page) -> list[tuple[str, str, list[str]]]:
        result = []
        for release, pages in _page_splits(self.catalog):
            rows = [[edition_link(e, ""), ", ".join(code_link(code.name, "") for code in codes) or "—"] for e, codes in pages]
            notes = [f"{code_link(code.name, '')}: {md_inline(code.notes[p.lang])}"
                     for _, codes in pages for code in codes if code.notes]
            result.append((md_inline(release), table([p.label("edition"), p.label("only_on")], rows), notes))
        return result

    def _diff(self, p: Page, diff: changes.EditionDiff) -> tuple[str, list[tuple[Optional[str], str]]]:
        parts: list[tuple[Optional[str], str]] = []
        if diff.presence:
            parts.append((None, table([p.column("name"), p.label("before"), p.label("after")], [
                [code_link(ch.code, ""), p.presence(ch.before), p.presence(ch.after)] for ch in diff.presence])))
        if diff.recoverable:
            parts.append((p.label("recoverable_changed"), table([p.column("name"), p.label("before"), p.label("after")], [
                [code_link(ch.code, ""), p.recoverable(ch.before), p.recoverable(ch.after)] for ch in diff.recoverable])))
        texts = [ch for ch in diff.texts if ch.lang == p.lang]
        if texts:
            parts.append((p.label("texts_changed"), table([p.column("name"), "", p.label("before"), p.label("after")], [
                [code_link(ch.code, ""), p.column(ch.field), _cell(ch.before), _cell(ch.after)] for ch in texts])))
        elif p.lang not in diff.texts_comparable:
            parts.append((None, f"*{p.label('text_not_known')}*"))
        if not diff:
            parts.insert(0, (None, p.label("no_changes")))
        return f"{md_inline(diff.old)} → {md_inline(diff.new)}", parts


def render_site(catalog: Catalog) -> dict[str, str]:
    return SiteRenderer(catalog).render()


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


def _edition_columns(catalog: Catalog, code: Code, lang: str) -> list[tuple[tuple[Edition, ...], Optional[str], str]]:
    """Editions whose page says the same about a code, grouped as one column each."""
    groups: dict[tuple, list[Edition]] = {}
    for edition in catalog.editions:
        state = changes.presence(edition, code)
        if state == changes.NOT_LISTED:
            continue
        key = (state, changes.recoverable(edition, code), edition.text_origin(lang),
               code.text("meaning", edition.id, lang), code.text("solution", edition.id, lang))
        groups.setdefault(key, []).append(edition)
    return [(tuple(eds), key[1], key[0]) for key, eds in groups.items()]


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
