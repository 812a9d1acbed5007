"""Sphinx extension: each family's directive (`.. llm-status-codes::` for LLM-DataDist,
named by the family's `sphinx_directive`) renders an edition's table from the catalog.

    extensions = ["generator.sphinx"]
    llm_status_codes_catalog = "path/to/catalog"   # relative to conf.py; a checkout's catalog/ by default

    .. llm-status-codes::
       :edition: 9.1.0-v2
       :lang: en

`:edition:` defaults to the edition of the newest final release on the family's
default timeline (as the generated module answers: 9.1.0-v2), `:lang:` to the
project's language when the family has it (`en`, `en_US` and `en-GB` are English), else
the family's first language. The table is built as docutils nodes, so every text is escaped
by Sphinx's own writers, and no text is changed by them: Sphinx's smart quotes stay out of the
table (upstream's `Parameter's invalid!` is a log message to search for, and `--option` an
option). Each row says what the site's edition page says of it: the value and the names the
code had at the edition's release, and where the other language's page says otherwise; the
edition's notes, and the codes whose listing is not known, stand above the table. Every
catalog file is a dependency of the document, so editing a text rebuilds it, and so does
mending a catalog that was invalid.

Without a catalog, a directive named as the README's are (`.. NAME-status-codes::`) is
defined all the same, never docutils' "Unknown directive type": when the setting is missing,
each use says how to set it; when it names no readable or no valid catalog, one warning names
the setting and the path.
"""
from __future__ import annotations

import errno
import functools
import os
import re
from pathlib import Path
from typing import Optional

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

from generator.reading.load import catalog_files, load_catalog
from generator.domain.codes import Code, hex_value
from generator.domain.editions import Edition
from generator.domain.family import Catalog, Family
from generator.domain.queries import default_timeline, newest_edition, row_names
from generator.core.problems import CatalogError
from generator.rendering.site.text import IDENTIFIER_JOIN, URL_JOIN, URL_PATTERN  # the site's break rules
from generator.domain.blocks import blocks

CHECKOUT_CATALOG = Path(__file__).resolve().parent.parent / "catalog"
SETTING = "llm_status_codes_catalog"
HOW_TO_SET = (
    f'set {SETTING} in conf.py to the catalog directory, relative to conf.py (for example {SETTING} = "../catalog")'
)
# Without a catalog the directives' names are unknown; a document's use of one named as the
# README's are (`.. NAME-status-codes::`) is defined as it is read, to say why it has no table.
_DIRECTIVE_USE = re.compile(r"^[ \t]*\.\.[ \t]+([a-z0-9]+(?:-[a-z0-9]+)*-status-codes)::", re.M)
_cache: dict[tuple, Catalog] = {}


def catalog_location(config, srcdir) -> Optional[Path]:
    configured = config.llm_status_codes_catalog
    if configured:
        return Path(srcdir, configured).resolve()
    return CHECKOUT_CATALOG if CHECKOUT_CATALOG.is_dir() else None


def _catalog(location: Path) -> Catalog:
    """The catalog, read again whenever one of its files changed."""
    files = catalog_files(location)
    key = (str(location),) + tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in files)
    if key not in _cache:
        _cache.clear()
        _cache[key] = load_catalog(location)
    return _cache[key]


def _read(location: Path) -> Catalog:
    """The catalog at `location`; OSError when there is none (CatalogError when it is invalid)."""
    if not location.exists():
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(location))
    return _catalog(location)


class StatusCodesDirective(SphinxDirective):
    has_content = False
    option_spec = {"edition": directives.unchanged_required, "lang": directives.unchanged_required}
    family_id = ""
    cannot_read = False  # the catalog could not be read: a warning named the setting and the path

    def run(self) -> list[nodes.Node]:
        location = catalog_location(self.config, self.env.srcdir)
        if location is None:
            return [self._error(f"{self.name}: no status-code catalog: {HOW_TO_SET}")]
        self._depend_on(location)
        if self.cannot_read:
            return []  # the one warning about the setting says why (config-inited, every build)
        try:
            catalog = _catalog(location)
        except CatalogError as error:
            return [self._error(f"the status-code catalog is invalid:\n{error}")]
        family = catalog.family_by_id.get(self.family_id)
        if family is None:
            known = ", ".join(f".. {f.sphinx_directive}::" for f in catalog.families)
            return [
                self._error(
                    f"{self.name}: the catalog at {location} has no family with this directive; its directives: {known}"
                )
            ]
        edition = self._edition(family)
        if edition is None:
            known = ", ".join(e.id for e in family.editions)
            return [self._error(f"no edition {self.options.get('edition')!r} in {family.id}; editions: {known}")]
        lang = self.options.get("lang") or self._default_lang(family)
        if lang not in family.languages:
            return [self._error(f":lang: must be one of {', '.join(family.languages)}, not {lang!r}")]
        return EditionTable(catalog, family, edition, lang, self.state.document).document_nodes()

    def _depend_on(self, location: Path) -> None:
        """Every file of the catalog is a dependency, also of a build that could not read it (so that
        mending it rebuilds the document); where there is none, its path (missing: always rebuilt)."""
        try:
            paths = catalog_files(location)
        except (OSError, CatalogError):
            paths = []
        for path in paths or [location]:
            self.env.note_dependency(str(path))

    def _edition(self, family: Family) -> Optional[Edition]:
        wanted = self.options.get("edition")
        if wanted:
            return family.edition(wanted)
        # as the module answers: the newest final release on the default timeline (v2)
        return newest_edition(family, default_timeline(family)) or family.editions[-1]

    def _default_lang(self, family: Family) -> str:
        language = re.split("[_-]", self.config.language or "")[0].lower()
        return language if language in family.languages else family.languages[0]

    def _error(self, message: str) -> nodes.Node:
        return self.state.document.reporter.error(message, line=self.lineno)


class EditionTable:
    """One edition's table as docutils nodes, in the edition's own row order."""

    def __init__(self, catalog: Catalog, family: Family, edition: Edition, lang: str, document):
        self.catalog, self.family, self.edition, self.lang, self.document = catalog, family, edition, lang, document
        self.site = catalog.site

    def document_nodes(self) -> list[nodes.Node]:
        result: list[nodes.Node] = []
        origins = {e.origin for r in self.edition.rows for f in self.edition.page.text_fields
                   for e in [self.family.code_by_name[r.code].entry(f, self.edition.id, self.lang)] if e is not None}
        # what each sign on the texts means, said once above the table, as the site's edition pages say it
        for key, show in (("untranslated_note", "untranslated" in origins),
                          ("translation_note", "translation" in origins), ("proposed_note", "proposed" in origins),
                          ("texts_not_known", not self.edition.has_texts(self.lang)),
                          ("order_not_known", not self.edition.order_known)):
            if show:
                result.append(nodes.note("", nodes.paragraph(text=self.site.label(key, self.lang))))
        if self.edition.notes:  # this project's notes on the edition (upstream's merge-conflict markers, ...)
            notes = nodes.admonition("", nodes.title(text=self.site.label("notes", self.lang)),
                                     *text_nodes(self.edition.notes[self.lang]), classes=["note"])
            result.append(notes)
        if self.edition.not_known:
            listed = nodes.paragraph(text=self.site.label("not_listed_not_known", self.lang) + " ")
            for index, name in enumerate(self.edition.not_known):
                listed += nodes.literal(text=name) if not index else [nodes.Text(", "), nodes.literal(text=name)]
            result.append(listed)
        result.append(self.table())
        for node in result:
            node["support_smartquotes"] = False  # the catalog's words, as it writes them (and upstream's)
        return result

    def table(self) -> nodes.table:
        page = self.edition.page
        # the writers honour the widths below; LaTeX's longtable breaks across pages (a tabular is cut off)
        table = nodes.table(classes=["status-codes", "colwidths-given", "longtable"])
        group = nodes.tgroup(cols=len(page.columns))
        table += group
        # HTML and LaTeX take the widths' proportions (是否可恢复 on two lines at most), the text builder
        # characters: a column of 12 holds 是否可恢复 and "Recoverable"
        widths = {"name": 24, "meaning": 18, "cause": 18, "recoverable": 12, "solution": 36}
        for column in page.columns:
            group += nodes.colspec(colwidth=widths[column])
        head = nodes.thead()
        head += self._row([nodes.paragraph(text=page.heading(column, self.lang)) for column in page.columns])
        body = nodes.tbody()
        for row in self.edition.rows:
            body += self._code_row(self.family.code_by_name[row.code], row.recoverable, row.disagreements)
        group += head
        group += body
        return table

    def _name_cell(self, code: Code) -> list[nodes.Node]:
        """The row's names and value, as the site's edition pages say them (domain.queries.row_names)."""
        names = row_names(code, self.edition)
        name = nodes.paragraph()
        name += nodes.literal("", "", *identifier_nodes(names.shown))
        name += nodes.Text(f" {hex_value(names.value)} ({names.value})")
        cell = [name]
        if names.then:
            cell.append(nodes.paragraph("", "", nodes.literal("", "", *identifier_nodes(names.then))))
        if names.other_c:
            cell.append(nodes.paragraph("", self.site.label("c_name", self.lang) + ": ",
                                        nodes.literal("", "", *identifier_nodes(names.other_c))))
        return cell

    def _recoverable_cell(self, recoverable: str, disagreements) -> list[nodes.Node]:
        cell: list[nodes.Node] = [nodes.paragraph(text=self.family.recoverable_label(recoverable, self.lang))]
        for lang, other in disagreements:  # what the other language's page says in this row
            words = self.site.label("disagreement_in_table", self.lang)
            words = words.replace("{lang}", self.site.language_names.get(lang) or lang).replace(
                "{value}", self.family.recoverable_label(other, lang) if other is not None else "—")
            cell.append(nodes.paragraph("", "", nodes.emphasis(text=words)))
        return cell

    def _code_row(self, code: Code, recoverable: str, disagreements=()) -> nodes.row:
        row = nodes.row()
        for column in self.edition.page.columns:
            if column == "name":
                row += self._entry(self._name_cell(code))
            elif column == "recoverable":
                row += self._entry(self._recoverable_cell(recoverable, disagreements))
            else:
                row += self._entry(self._text(code, column))
        anchor = self._unique_id(code.slug, f"{self.edition.id}-{code.slug}")
        row["ids"].append(anchor)
        self.document.ids[anchor] = row
        return row

    def _unique_id(self, *wanted: str) -> str:
        """The first wanted id the document does not use yet, else the last one numbered (the
        same table twice in one document must not repeat an id)."""
        free = [w for w in wanted if w not in self.document.ids]
        if free:
            return free[0]
        number = 2
        while f"{wanted[-1]}-{number}" in self.document.ids:
            number += 1
        return f"{wanted[-1]}-{number}"

    def _text(self, code: Code, field_name: str) -> list[nodes.Node]:
        entry = code.entry(field_name, self.edition.id, self.lang)
        if entry is None:
            return [nodes.paragraph("", "", nodes.emphasis(text=self.site.label("text_not_known", self.lang)))]
        result = text_nodes(entry.text)
        if entry.origin in ("translation", "untranslated", "proposed"):
            # the sign the site's cells show, and the words: the note above the table names the sign
            sign, words = (self.site.label(key, self.lang) for key in (f"mark_{entry.origin}", entry.origin))
            result.append(nodes.paragraph("", sign + " ", nodes.emphasis(text=f"({words})")))
        return result

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


def _wbr() -> nodes.raw:
    """A place where a line may break, in HTML only (other builders drop it)."""
    return nodes.raw("", "<wbr>", format="html")


def identifier_nodes(text: str) -> list[nodes.Node]:
    """Text whose identifiers may wrap after their underscores, and nowhere else (as on the site)."""
    result: list[nodes.Node] = []
    for index, part in enumerate(IDENTIFIER_JOIN.split(text)):
        if index:
            result += [nodes.Text("_"), _wbr()]
        result.append(nodes.Text(part))
    return result


def url_nodes(url: str) -> nodes.reference:
    """A link whose text may wrap after a slash, a dot, an underscore, a hyphen, ? & = #."""
    link = nodes.reference("", "", refuri=url)
    for index, part in enumerate(URL_JOIN.split(url)):
        link += nodes.Text(part)
        if index % 2:
            link += _wbr()
    return link


def inline_nodes(text: str) -> list[nodes.Node]:
    """One line of a catalog text: URLs as links, long words breakable where the site breaks them
    (an unbreakable 117-character URL made the table wider than the theme's page)."""
    result: list[nodes.Node] = []
    last = 0
    for match in URL_PATTERN.finditer(text):
        url = match.group().rstrip(".,;:")
        result += identifier_nodes(text[last:match.start()])
        result.append(url_nodes(url))
        last = match.start() + len(url)
    result += identifier_nodes(text[last:])
    return [node for node in result if not (isinstance(node, nodes.Text) and not str(node))]


def text_nodes(text: str) -> list[nodes.Node]:
    """A catalog text as paragraphs and lists."""
    result: list[nodes.Node] = []
    for block in blocks(text):
        if block.kind == "p":
            result.extend(nodes.paragraph("", "", *inline_nodes(item)) for item in block.items)
            continue
        lst: nodes.Element = nodes.bullet_list() if block.kind == "ul" else nodes.enumerated_list(start=block.start)
        for item in block.items:
            lst += nodes.list_item("", nodes.paragraph("", "", *inline_nodes(item)))
        result.append(lst)
    return result


def _catalog_problem(config, location: Path) -> str:
    """Why the catalog at `location` cannot be used, naming the setting and the path; "" when it can."""
    where = f"{SETTING} = {config[SETTING]!r} in conf.py" if config[SETTING] else "the checkout's catalog"
    try:
        _read(location)
    except OSError as error:
        return (f"{where}: no readable status-code catalog at {location} ({error.strerror or error}); "
                "name the catalog directory (or file), relative to conf.py")
    except CatalogError as error:
        return f"{where}: the status-code catalog at {location} is invalid, so its tables are not built:\n{error}"
    return ""


def _register(app, config) -> None:
    """Add one directive per family, named by the catalog (config-inited: conf.py is read)."""
    location = catalog_location(config, app.srcdir)
    problem = _catalog_problem(config, location) if location is not None else ""
    if problem:
        from sphinx.util import logging

        logging.getLogger(__name__).warning(problem)
    if location is None or problem:
        app.connect("source-read", functools.partial(_define_used, unreadable=bool(problem)))
        return
    for family in _catalog(location).families:
        app.add_directive(family.sphinx_directive, type(f"{family.id}_directive", (StatusCodesDirective,),
                                                        {"family_id": family.id}))


def _define_used(app, docname, source, unreadable: bool) -> None:
    """Without a catalog: define each `.. NAME-status-codes::` this document uses, so that it says why."""
    from sphinx.util.docutils import is_directive_registered

    for name in sorted(set(_DIRECTIVE_USE.findall(source[0]))):
        if not is_directive_registered(name):
            app.add_directive(name, type(f"{name.replace('-', '_')}_directive", (StatusCodesDirective,),
                                         {"cannot_read": unreadable}))


def setup(app) -> dict:
    app.add_config_value("llm_status_codes_catalog", None, "env")
    app.connect("config-inited", _register)
    return {"version": "2", "parallel_read_safe": True, "parallel_write_safe": True}
