"""Readers of upstream artifacts: a Python source defining the enum, a C/C++
header, a documentation page (Markdown pipe table or exported HTML table).

Nothing is imported or executed; a file that cannot be read yields an
`Unreadable` with its line instead of an exception.
"""
from __future__ import annotations

import ast
import html
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Optional

LLM_BASE = 0x5010B000


@dataclass(frozen=True)
class Unreadable:
    line: int
    message: str


@dataclass(frozen=True)
class Member:
    name: str
    value: Optional[int]  # None: a reference (llm_wrapper.kLLMTimeout) that cannot be resolved
    line: int


@dataclass
class PythonEnum:
    members: list[Member] = field(default_factory=list)
    problems: list[Unreadable] = field(default_factory=list)


def read_python(source: str, enum_name: str) -> PythonEnum:
    result = PythonEnum()
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        result.problems.append(Unreadable(error.lineno or 1, f"Python syntax error: {error.msg}"))
        return result
    classes = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == enum_name]
    if not classes:
        result.problems.append(Unreadable(1, f"no `class {enum_name}` in this file"))
        return result
    for statement in classes[0].body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
            name = statement.targets[0].id
            if not name.startswith("_"):
                result.members.append(Member(name, _literal_int(statement.value), statement.lineno))
    return result


def _literal_int(node: ast.AST) -> Optional[int]:
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


# -- C/C++ headers -------------------------------------------------------------

_CONSTANT = re.compile(
    r"\b(?:constexpr|const)\s+(?:[\w:]+\s+)+?(?P<name>[A-Z_][A-Z0-9_]*)\s*=\s*(?P<value>0[xX][0-9a-fA-F]+|\d+)[uUlL]*\s*;")
_DEFINE = re.compile(r"^\s*#\s*define\s+(?P<name>[A-Z_][A-Z0-9_]*)\s+\(?\s*(?P<value>0[xX][0-9a-fA-F]+|\d+)[uUlL]*\s*\)?\s*$", re.M)
_GE_ERRORNO = re.compile(r"\bGE_ERRORNO_DEFINE\s*\((?P<args>[^;]*?)\)\s*;")


@dataclass(frozen=True)
class Constant:
    name: str
    namespace: Optional[str]
    value: int
    line: int


def read_header(source: str) -> tuple[list[Constant], list[Unreadable]]:
    code = _strip_comments(source)
    constants: list[Constant] = []
    for match in _CONSTANT.finditer(code):
        constants.append(Constant(match["name"], _namespace_at(code, match.start()), int(match["value"], 0), _line(code, match.start())))
    for match in _DEFINE.finditer(code):
        constants.append(Constant(match["name"], None, int(match["value"], 0), _line(code, match.start())))
    for match in _GE_ERRORNO.finditer(code):
        constant = _ge_errorno(match, code)
        if constant is not None:
            constants.append(constant)
    problems = [] if constants else [Unreadable(1, "no status-code constants in this header")]
    return sorted(constants, key=lambda c: c.line), problems


def _ge_errorno(match: re.Match, code: str) -> Optional[Constant]:
    args = [a.strip() for a in match["args"].split(",")]
    for index, arg in enumerate(args[:-1]):
        if re.fullmatch(r"[A-Z_][A-Z0-9_]*", arg) and re.fullmatch(r"\d+", args[index + 1]):
            return Constant(arg, _namespace_at(code, match.start()), LLM_BASE + int(args[index + 1]), _line(code, match.start()))
    return None


def _strip_comments(source: str) -> str:
    """Comments blanked out, keeping every newline so that lines stay true."""
    def blank(match: re.Match) -> str:
        return re.sub(r"[^\n]", " ", match.group())
    return re.sub(r"/\*.*?\*/|//[^\n]*", blank, source, flags=re.S)


def _namespace_at(code: str, offset: int) -> Optional[str]:
    stack: list[Optional[str]] = []
    for match in re.finditer(r"\bnamespace\s+(\w+)\s*\{|\{|\}", code[:offset]):
        if match.group(1):
            stack.append(match.group(1))
        elif match.group() == "{":
            stack.append(None)
        elif stack:
            stack.pop()
    named = [n for n in stack if n]
    return "::".join(named) if named else None


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


# -- documentation pages ----------------------------------------------------

_CONFLICT = re.compile(r"^(<{7}|={7}|>{7})(\s|$)", re.M)
_CJK = re.compile(r"[\u4e00-\u9fff]")


@dataclass(frozen=True)
class PageRow:
    name: str
    meaning: str
    recoverable: str  # the cell as written: 是, Yes, None, ...
    solution: str
    line: int


@dataclass
class Page:
    lang: Optional[str] = None
    rows: list[PageRow] = field(default_factory=list)
    problems: list[Unreadable] = field(default_factory=list)


def read_page(source: str) -> Page:
    """A Markdown pipe table or an HTML <table>; the language is detected."""
    page = Page()
    conflict = _CONFLICT.search(source)
    if conflict:
        page.problems.append(Unreadable(_line(source, conflict.start()), "unresolved merge-conflict markers"))
        return page
    rows = _html_rows(source) if re.search(r"<table\b", source, re.I) else _markdown_rows(source)
    for line, cells in rows:
        if len(cells) < 4:
            page.problems.append(Unreadable(line, f"a table row with {len(cells)} cells; expected 4 (name, meaning, recoverable, solution)"))
            continue
        name = cells[0].replace("\\_", "_").strip()
        page.rows.append(PageRow(name, cells[1], cells[2].strip(), cells[3], line))
    if not rows:
        page.problems.append(Unreadable(1, "no status-code table found (neither a Markdown pipe table nor an HTML <table>)"))
    text = " ".join(r.meaning + r.solution for r in page.rows)
    page.lang = "zh" if len(_CJK.findall(text)) > len(text) / 20 else "en"
    return page


def _markdown_rows(source: str) -> list[tuple[int, list[str]]]:
    rows = []
    for number, line in enumerate(source.splitlines(), 1):
        stripped = line.strip()
        if not stripped.startswith("|") or re.fullmatch(r"\|?[\s:|-]+\|?", stripped):
            continue
        cells = [_markdown_cell(c) for c in re.split(r"(?<!\\)\|", stripped.strip("|"))]
        rows.append((number, cells))
    return rows[1:] if rows else []  # the first row is the heading


def _markdown_cell(cell: str) -> str:
    cell = re.sub(r"<br\s*/?>", "\n", cell.strip(), flags=re.I)
    cell = re.sub(r"<li>", "\n- ", cell, flags=re.I)
    cell = re.sub(r"<[^>]+>", "", cell)
    cell = re.sub(r"\\([\\`*_{}\[\]()#+\-.!|])", r"\1", cell)
    return html.unescape(cell).strip()


class _TableParser(HTMLParser):
    """Rows of <td>/<th> cells, with <p>, <br> and <li> kept as line structure."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[tuple[int, list[str]]] = []
        self._row: Optional[list[str]] = None
        self._cell: Optional[list[str]] = None
        self._row_line = 0

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self._row, self._row_line = [], self.getpos()[0]
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []
        elif self._cell is not None and tag in ("p", "br", "div"):
            self._cell.append("\n")
        elif self._cell is not None and tag == "li":
            self._cell.append("\n- ")

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            text = "".join(self._cell)
            self._row.append("\n".join(line.strip() for line in text.split("\n") if line.strip()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.rows.append((self._row_line, self._row))
            self._row = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(re.sub(r"\s+", " ", data))


def _html_rows(source: str) -> list[tuple[int, list[str]]]:
    parser = _TableParser()
    parser.feed(source)
    parser.close()
    rows = parser.rows
    return rows[1:] if rows else []


def normalized(text: str) -> str:
    """Text compared across markup: no list markers, bullets or line breaks, one space between words."""
    lines = [re.sub(r"^\s*(?:[-•*]\s+|\d+\.\s+)", "", line) for line in text.split("\n")]
    return re.sub(r"\s+", " ", " ".join(lines)).strip()
