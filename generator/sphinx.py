"""Sphinx extension: `.. llm-status-codes::` renders an edition's table from the catalog.

    extensions = ["generator.sphinx"]
    llm_status_codes_catalog = "path/to/catalog"   # optional; the repository's by default

    .. llm-status-codes::
       :edition: 9.0.0-v2
       :lang: en

`:edition:` defaults to the newest edition, `:lang:` to the project's language
when the catalog has it, else the catalog's first language. The table is built
as docutils nodes, so every text is escaped by Sphinx's own writers.
"""
from __future__ import annotations

from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

from generator.catalog import load_catalog
from generator.model import Catalog, Code, Edition
from generator.problems import CatalogError
from generator.textblocks import blocks

DEFAULT_CATALOG = Path(__file__).resolve().parent.parent / "catalog"
COLUMNS = ("name", "meaning", "recoverable", "solution")
_cache: dict[str, Catalog] = {}


def _catalog(location: Path) -> Catalog:
    key = str(location.resolve())
    if key not in _cache:
        _cache[key] = load_catalog(location)
    return _cache[key]


class LLMStatusCodesDirective(SphinxDirective):
    has_content = False
    option_spec = {
        "edition": directives.unchanged_required,
        "lang": directives.unchanged_required,
    }

    def run(self) -> list[nodes.Node]:
        try:
            catalog = _catalog(self._catalog_path())
        except CatalogError as error:
            return [self._error(f"the status-code catalog is invalid:\n{error}")]
        edition = catalog.edition_by_id.get(self.options.get("edition", catalog.editions[-1].id))
        lang = self.options.get("lang") or self._default_lang(catalog)
        if edition is None:
            known = ", ".join(e.id for e in catalog.editions)
            return [self._error(f"no edition {self.options['edition']!r} in the catalog; editions: {known}")]
        if lang not in catalog.family.languages:
            return [self._error(f":lang: must be one of {', '.join(catalog.family.languages)}, not {lang!r}")]
        return EditionTable(catalog, edition, lang, self.state.document).nodes()

    def _catalog_path(self) -> Path:
        configured = self.config.llm_status_codes_catalog
        if not configured:
            return DEFAULT_CATALOG
        return Path(self.env.srcdir, configured)

    def _default_lang(self, catalog: Catalog) -> str:
        language = (self.config.language or "").split("_")[0]
        return language if language in catalog.family.languages else catalog.family.languages[0]

    def _error(self, message: str) -> nodes.Node:
        return self.state.document.reporter.error(message, line=self.lineno)


class EditionTable:
    """One edition's table as docutils nodes, in the edition's own row order."""

    def __init__(self, catalog: Catalog, edition: Edition, lang: str, document):
        self.catalog, self.edition, self.lang, self.document = catalog, edition, lang, document
        self.family = catalog.family

    def nodes(self) -> list[nodes.Node]:
        result: list[nodes.Node] = []
        for key, show in (("translation_note", self.edition.text_origin(self.lang) == "translation"),
                          ("texts_not_known", not self.edition.texts_known),
                          ("order_not_known", not self.edition.order_known)):
            if show:
                result.append(nodes.note("", nodes.paragraph(text=self.family.label(key, self.lang))))
        result.append(self.table())
        return result

    def table(self) -> nodes.table:
        table = nodes.table(classes=["llm-status-codes"])
        group = nodes.tgroup(cols=len(COLUMNS))
        table += group
        for width in (3, 3, 1, 6):
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        head += self._row([nodes.paragraph(text=self.family.column(key, self.lang)) for key in COLUMNS])
        body = nodes.tbody()
        for row in self.edition.rows:
            body += self._code_row(self.catalog.code_by_name[row.code], row.recoverable)
        group += head
        group += body
        return table

    def _code_row(self, code: Code, recoverable: str) -> nodes.row:
        name = nodes.paragraph()
        name += nodes.literal(text=code.name)
        name += nodes.Text(f" {code.hex} ({code.value})")
        if code.c_name and code.c_name != code.name:
            name += nodes.Text(f" {self.family.label('c_name', self.lang)}: {code.c_name}")
        row = nodes.row()
        row += self._entry([name])
        row += self._entry(self._text(code, "meaning"))
        row += self._entry([nodes.paragraph(text=self.family.recoverable_label(recoverable, self.lang))])
        row += self._entry(self._text(code, "solution"))
        anchor = code.slug if code.slug not in self.document.ids else f"{self.edition.id}-{code.slug}"
        row["ids"].append(anchor)
        self.document.ids[anchor] = row
        return row

    def _text(self, code: Code, field_name: str) -> list[nodes.Node]:
        text = code.text(field_name, self.edition.id, self.lang)
        if text is None:
            return [nodes.paragraph("", "", nodes.emphasis(text=self.family.label("text_not_known", self.lang)))]
        return text_nodes(text)

    def _row(self, cells: list[nodes.Node]) -> nodes.row:
        row = nodes.row()
        for cell in cells:
            row += self._entry([cell])
        return row

    @staticmethod
    def _entry(children: list[nodes.Node]) -> nodes.entry:
        entry = nodes.entry()
        for child in children:
            entry += child
        return entry


def text_nodes(text: str) -> list[nodes.Node]:
    """A catalog text as paragraphs and lists."""
    result: list[nodes.Node] = []
    for block in blocks(text):
        if block.kind == "p":
            result.extend(nodes.paragraph(text=item) for item in block.items)
            continue
        lst: nodes.Element = nodes.bullet_list() if block.kind == "ul" else nodes.enumerated_list(start=block.start)
        for item in block.items:
            lst += nodes.list_item("", nodes.paragraph(text=item))
        result.append(lst)
    return result


def setup(app) -> dict:
    app.add_config_value("llm_status_codes_catalog", None, "env")
    app.add_directive("llm-status-codes", LLMStatusCodesDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
