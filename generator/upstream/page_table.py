"""Reading an upstream documentation page the way its readers see it.

A page is Markdown (pipe tables, or HTML tables inside the Markdown) or HTML.
It is rendered as a CommonMark renderer does (markdown-it-py, with tables and
raw HTML), and the HTML is parsed as a browser parses it (html5lib: unclosed
cells, stray text in a table and implied tags end up where a browser puts
them). The status-code table is then read by its headings, and each cell
becomes the text a reader sees: links become their text, code spans and
escapes their characters, <br> a line break, <p> a paragraph, <ul> bullets
("- ") and <ol> numbered steps ("1. ").

Every row and cell keeps the line it starts on in the source file.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import partial
from typing import Optional

from markdown_it import MarkdownIt

from generator.domain.family import Family
from generator.upstream import html_parse

_BLOCKS = frozenset("p div ul ol li table thead tbody tfoot tr td th h1 h2 h3 h4 h5 h6 pre blockquote dl dt dd hr "
                    "section article header footer figure figcaption details summary".split())
_SKIP = frozenset("script style template head title".split())
_CONFLICT = re.compile(r"^(<{7}|={7}|>{7})(?: .*)?$")
_ROW_TAG = re.compile(r"<(tr|td|th)(?=[\s>/])", re.I)
# Full-width punctuation and forms (、。，：；（） and so on), and CJK ideographs.
_CJK_PUNCT = "\u3000-\u303f\uff00-\uffef"
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"


def normalize_line(line: str) -> str:
    """One line of text as a browser lays it out: runs of white space are one space, none at
    the ends, and none beside full-width punctuation or between two ideographs (a line
    break in the source there shows as nothing in a Chinese page)."""
    line = re.sub(r"[ \t\r\n\f]+", " ", line).strip()
    line = re.sub(rf" (?=[{_CJK_PUNCT}])|(?<=[{_CJK_PUNCT}]) ", "", line)
    return re.sub(rf"(?<=[{_CJK}]) (?=[{_CJK}])", "", line)


def normalize_text(text: str, literal_spaces: bool = False) -> str:
    """A text with every line normalized and empty lines dropped. `literal_spaces`: the
    text comes from a Markdown line (a pipe table's cell), where every space was typed on
    one line and a browser shows it, beside CJK punctuation too ("说明： 本"); only runs of
    spaces are one and the ends are trimmed."""
    normalize = _trim_line if literal_spaces else normalize_line
    return "\n".join(line for line in (normalize(part) for part in text.split("\n")) if line)


def _trim_line(line: str) -> str:
    return re.sub(r"[ \t\r\n\f]+", " ", line).strip()


@dataclass(frozen=True)
class Cell:
    text: str
    line: int
    typed: Optional[str] = None  # a pipe table's cell as its line types it (its markup), ends trimmed


@dataclass(frozen=True)
class TableRow:
    line: int
    cells: tuple[Cell, ...]  # as a browser lays the row out
    by_column: dict  # column key -> Cell, for the columns the headings name


@dataclass(frozen=True)
class CodeBlock:
    text: str
    line: int  # of its first line of code


@dataclass
class PageTable:
    lang: Optional[str] = None
    columns: tuple[str, ...] = ()
    heading_line: int = 0
    rows: list[TableRow] = field(default_factory=list)
    problems: list[tuple[int, str]] = field(default_factory=list)
    conflicts: list[tuple[int, str]] = field(default_factory=list)  # (line, marker line)
    code_blocks: list[CodeBlock] = field(default_factory=list)
    bom: bool = False
    pipe: bool = False  # a Markdown pipe table: its cells' spaces are typed, and shown


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True}).enable("table")

    def mark_lines(state) -> None:
        for token in state.tokens:
            if token.type == "tr_open" and token.map:
                token.attrSet("data-line", str(token.map[0] + 1))
            elif token.type == "html_block" and token.map:
                token.content = mark_html_lines(token.content, token.map[0] + 1)

    md.core.ruler.push("mark_lines", mark_lines)
    return md


_MD = _markdown()


def mark_html_lines(html: str, first_line: int) -> str:
    """Every <tr>, <td> and <th> start tag gains data-line="N", its line in the source (lines
    counted on from the tag before, not from the start: a page of many cells is read once)."""
    counted = [0, first_line]  # offset, its line

    def add(match: re.Match) -> str:
        counted[1] += html.count("\n", counted[0], match.start())
        counted[0] = match.start()
        return f'{match.group(0)} data-line="{counted[1]}"'
    return _ROW_TAG.sub(add, html)


def _document(source: str, is_html: bool, page: PageTable):
    """The page as a browser's document tree (an ElementTree element), or None with the
    problem that stopped the parser, at its line."""
    html = mark_html_lines(source, 1) if is_html else _MD.render(source)
    try:
        return html_parse.parse_html(html)
    except html_parse.TooManyTags as many:
        page.problems.append((_line_at(html, many.offset, is_html), html_parse.TOO_MANY_TAGS))
    except html_parse.TooDeep as deep:
        page.problems.append((deep.parser_line if is_html else deep.marked_line or 1, html_parse.TOO_DEEP))
    return None


def _line_at(html: str, offset: int, is_html: bool) -> int:
    """The source line of an offset of the HTML: counted in a page's own HTML; in HTML rendered
    from Markdown, the line of the row or HTML block before it."""
    if is_html:
        return html.count("\n", 0, offset) + 1
    marked = html.rfind(' data-line="', 0, offset)
    digits = re.match(r' data-line="(\d{1,9})"', html[marked:marked + 24]) if marked >= 0 else None
    return int(digits.group(1)) if digits else 1


def code_blocks(source: str) -> list[CodeBlock]:
    return [
        CodeBlock(t.content, t.map[0] + 2) for t in _MD.parse(source) if t.type in ("fence", "code_block") and t.map
    ]


def conflict_markers(source: str) -> list[tuple[int, str]]:
    """Lines of a merge conflict (<<<<<<< ... ======= ... >>>>>>>), each with its line number."""
    found, opened = [], False
    for number, line in enumerate(source.split("\n"), 1):
        match = _CONFLICT.match(line.rstrip("\r"))
        if not match:
            continue
        if match.group(1)[0] == "<":
            opened = True
        if opened:
            found.append((number, line.rstrip("\r")))
        if match.group(1)[0] == ">":
            opened = False
    return found


# -- cells as text ----------------------------------------------------------------------------


class _TextBuilder:
    """Walks a cell's elements and lays out its text in lines. The walk keeps its own stack of
    what is still to do, so that elements nested thousands deep (a hostile page) cost time in
    proportion to their number and never Python's recursion limit."""

    def __init__(self) -> None:
        self.lines: list[str] = [""]
        self.todo: list = []  # what is still to do, the next step last

    def newline(self) -> None:
        if self.lines[-1].strip():
            self.lines.append("")

    def add(self, text: Optional[str]) -> None:
        if text:
            self.lines[-1] += text

    def run(self, element) -> None:
        """Lay out the content of `element` (its text and children, not its tail)."""
        self._content(element)
        while self.todo:
            self.todo.pop()()

    def _then(self, *steps) -> None:
        """Do `steps`, in this order, before anything already to do."""
        self.todo.extend(reversed(steps))

    def _visit(self, element) -> None:
        tag = element.tag if isinstance(element.tag, str) else None
        tail = partial(self.add, element.tail)
        if tag in _SKIP or tag is None:
            tail()
        elif tag == "br":
            self.lines.append("")
            tail()
        elif tag in ("ul", "ol"):
            self.newline()
            self._then(*self._list_steps(element, tag), tail)
        elif tag == "li":  # an item whose list upstream left out: a browser still draws its bullet
            self._then(partial(self._item, element, "ul", [1]), self.newline, tail)
        elif tag in _BLOCKS:
            self.newline()
            self._then(partial(self._content, element), self.newline, tail)
        else:
            self._then(partial(self._content, element), partial(self._link, element, tag), tail)

    def _link(self, element, tag: str) -> None:
        href = element.get("href") if tag == "a" else None
        if href and re.match(r"^https?://", href) and "".join(element.itertext()).strip() != href:
            self.add(f" ({href})")

    def _content(self, element) -> None:
        self.add(element.text)
        self._then(*(partial(self._visit, child) for child in element))

    def _list_steps(self, element, tag: str) -> list:
        number = [_int(element.get("start"), 1)]
        steps = [partial(self._item, item, tag, number) if isinstance(item.tag, str) and item.tag == "li"
                 else partial(self._visit, item) for item in element]
        return steps + [self.newline]

    def _item(self, item, tag: str, number: list[int]) -> None:
        number[0] = _int(item.get("value"), number[0])
        self.newline()
        self.add(f"{number[0]}. " if tag == "ol" else "- ")
        number[0] += 1
        self._then(partial(self._content, item), self.newline)


def _int(text: Optional[str], default: int) -> int:
    try:
        return int(text) if text is not None else default
    except ValueError:
        return default


def cell_text(element, literal_spaces: bool = False) -> str:
    builder = _TextBuilder()
    builder.run(element)
    return normalize_text("\n".join(builder.lines), literal_spaces)


# -- the table ------------------------------------------------------------------------------


MAX_TABLE_ROWS = 5000  # upstream's longest page has 34 rows
# Markdown's parser is linear, but slow on what no page holds: a quarter of a megabyte of `[`
# costs it 14 s. Upstream's largest page is about 20 KB.
MAX_PAGE_CHARS = 1024 * 1024
TOO_LARGE = ("larger than 1 MiB: upstream's pages are tens of kilobytes, and reading this one would take "
             "minutes; is this the right file?")


def too_many_rows(source: str) -> Optional[int]:
    """The line of the first table row past MAX_TABLE_ROWS (a Markdown line starting with a
    pipe, or an HTML <tr>), None when there are fewer: counted before any parsing, which
    costs some 150 microseconds and 8 KB a row."""
    count = 0
    for number, line in enumerate(source.split("\n"), 1):  # lines as an editor and the parsers count them
        stripped = line.lstrip()
        count += stripped.startswith("|") + stripped.lower().count("<tr")
        if count > MAX_TABLE_ROWS:
            return number
    return None


def read_table(source: str, headings: dict[str, dict[str, tuple[str, ...]]], is_html: bool = False) -> PageTable:
    """The status-code table of a page: the first table whose headings name the
    `name` and `recoverable` columns in one of the languages of `headings`
    ({column: {lang: (heading, ...)}})."""
    page = PageTable()
    if source.startswith("\ufeff"):
        page.bom, source = True, source[1:]
    if _past_a_limit(source, page):
        return page
    page.conflicts = conflict_markers(source)
    lookup = {_heading_key(text): (column, lang) for column, per_lang in headings.items()
              for lang, texts in per_lang.items() for text in texts}
    document = _document(source, is_html, page)
    if document is None:
        return page
    page.code_blocks = [] if is_html else code_blocks(source)  # parsed only once the page is within the limits
    for table in document.iter("table"):
        rows = [tr for tr in table.iter("tr")]
        if not rows:
            continue
        head = [c for c in rows[0] if isinstance(c.tag, str) and c.tag in ("td", "th")]
        texts = [cell_text(c) for c in head]
        found = [lookup.get(_heading_key(t)) for t in texts]
        columns = [f[0] if f else None for f in found]
        if "name" not in columns or "recoverable" not in columns:
            continue
        page.heading_line = _line(rows[0], 1)
        langs = [f[1] for f in found if f]
        page.lang = max(sorted(set(langs)), key=langs.count)
        unknown = [t for t, c in zip(texts, columns) if c is None]
        if unknown:
            page.problems.append(
                (
                    page.heading_line,
                    f"headings {', '.join(map(repr, unknown))} name no column this page has; "
                    f"known: {', '.join(sorted(k for k in headings))}",
                )
            )
        page.columns = tuple(c or "?" for c in columns)
        # a pipe table's cell is one typed line, where every space shows; an HTML table's
        # white space is layout, and a line break between ideographs shows as nothing
        lines = source.split("\n")
        pipe = (
            not is_html
            and 0 < page.heading_line <= len(lines)
            and lines[page.heading_line - 1].lstrip().startswith("|")
        )
        page.pipe = pipe
        for tr in rows[1:]:
            row = _row(tr, page.columns, literal_spaces=pipe)
            page.rows.append(_typed(row, lines[row.line - 1], page.columns) if pipe and 0 < row.line <= len(lines)
                             else row)
        return page
    page.problems.append(
        (1, "no status-code table found: no table has the headings of a name and a recoverable column")
    )
    return page


def _past_a_limit(source: str, page: PageTable) -> bool:
    """Whether the page has too many rows, is too large, or nests its tags as written too deep:
    each counted in one pass before any parser reads it, and recorded as the page's problem."""
    many = too_many_rows(source)
    if many is not None:
        page.problems.append((many, f"more than {MAX_TABLE_ROWS:,} table rows: upstream's pages have fewer than a "
                                    "hundred, and reading this many would take minutes; is this the right file?"))
        return True
    if len(source) > MAX_PAGE_CHARS:
        page.problems.append((source.count("\n", 0, MAX_PAGE_CHARS) + 1, TOO_LARGE))
        return True
    deep = html_parse.too_deep(source)
    if deep is not None:
        page.problems.append((deep, html_parse.TOO_DEEP))
    return deep is not None


def _heading_key(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def _line(element, default: int) -> int:
    return _int(element.get("data-line"), default)


def _row(tr, columns: tuple[str, ...], literal_spaces: bool = False) -> TableRow:
    line = _line(tr, 0)
    cells = []
    for element in tr:
        if isinstance(element.tag, str) and element.tag in ("td", "th"):
            cells.append(Cell(cell_text(element, literal_spaces), _line(element, line)))
    return _table_row(line or (cells[0].line if cells else 0), tuple(cells), columns)


def _table_row(line: int, cells: tuple[Cell, ...], columns: tuple[str, ...]) -> TableRow:
    """A row of these cells, each under the column its heading names."""
    return TableRow(line, cells, {column: cell for column, cell in zip(columns, cells) if column != "?"})


_CELL_BAR = re.compile(r"(?<!\\)\|")  # a cell's end: a pipe not escaped


def typed_cells(line: str) -> list[str]:
    """A pipe table row's cells as typed, split where a table extension splits them (at each
    pipe not escaped, code spans included), the outer pipes dropped, ends trimmed."""
    line = line.strip()
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|") and not line.endswith("\\|"):
        line = line[:-1]
    return [cell.strip() for cell in _CELL_BAR.split(line)]


def _typed(row: TableRow, line: str, columns: tuple[str, ...]) -> TableRow:
    """The row with each cell's typed markup, where the line's cells are the row's."""
    typed = typed_cells(line)
    if len(typed) != len(row.cells):
        return row
    return _table_row(row.line, tuple(Cell(c.text, c.line, t) for c, t in zip(row.cells, typed)), columns)


def recoverable_value(family: Family, cell: str, lang: str) -> Optional[str]:
    """The catalog's value for a page's 是否可恢复 cell (是, Yes, N/A, ...), or None."""
    wanted = cell.strip().casefold()
    for value, per_lang in family.recoverable_labels.items():
        for texts in ([per_lang[lang]] if lang in per_lang else per_lang.values()):
            if any(text.casefold() == wanted for text in texts):
                return value
    return None
