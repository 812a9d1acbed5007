"""Deep input: every reader of upstream's pages and sources does work linear in
what it reads, and recurses nowhere without a bound; past a bound, a page or a source is one
line saying where, never a traceback.

Work is counted, not timed: tests.support.helpers.steps counts the Python lines a reader runs (the
parsers, markdown-it and html5lib, are Python), the same on any machine however loaded. A reader
whose work is linear does about twice the work on twice the input; the old ones did four times
(html5lib nested `<b><div></b>` N times N deep: a 191 KiB page took three minutes).
"""
from __future__ import annotations

import ast
import shutil
from xml.etree.ElementTree import Element, SubElement

import pytest
from html5lib.html5parser import HTMLParser
from markdown_it import MarkdownIt

from generator.audit import html_cells
from generator.upstream import html_parse
from generator.upstream import python_source
from generator.upstream import page_table as pagereader
from generator.audit.page import audit_page
from generator.reading.load import load_catalog
from tests.support.helpers import ROOT, run_cli, steps
from tests.support.upstream_formats import CATALOG

HEADINGS = {"name": {"zh": ("枚举值",)}, "meaning": {"zh": ("含义",)}, "recoverable": {"zh": ("是否可恢复",)},
            "solution": {"zh": ("解决办法",)}}
PIPE_HEAD = "| 枚举值 | 含义 | 是否可恢复 | 解决办法 |\n| --- | --- | --- | --- |\n"
HTML_HEAD = "<table><tr><th>枚举值</th><th>含义</th><th>是否可恢复</th><th>解决办法</th></tr>\n"


def pipe_page(cell: str) -> str:
    return PIPE_HEAD + "| LLM_SUCCESS | ok | 是 | 无 |\n" + f"| LLM_FAILED | {cell} | 是 | 无 |\n"


def html_page(cell: str) -> str:
    return HTML_HEAD + "<tr><td>LLM_SUCCESS</td><td>ok</td><td>是</td><td>无</td></tr>\n" + \
        f"<tr><td>LLM_FAILED</td><td>{cell}</td><td>是</td><td>无</td></tr></table>\n"


def work(make, n: int, is_html: bool) -> tuple[pagereader.PageTable, int]:
    table, count = steps(pagereader.read_table, make(n), HEADINGS, is_html)
    assert isinstance(table, pagereader.PageTable), table  # a result or a problem, never an exception
    return table, count


# Each shape, at n and 2n: (how the page is built, whether it is HTML). Past the bounds a page is
# refused as soon as the parser reaches them, so its work stops growing with what follows.
SHAPES = {
    "<b><div></b> in an HTML cell": (lambda n: html_page("<b><div></b>" * n), True),
    "<b><div></b> in a pipe cell": (lambda n: pipe_page("<b><div></b>" * n), False),
    "<a><b><i><u>x</a>": (lambda n: html_page("<a><b><i><u>x</a>" * n), True),
    "<ul><li> never closed": (lambda n: html_page("<ul><li>" * n), True),
    "<table><tr><td> never closed": (lambda n: html_page("<table><tr><td>" * n), True),
    "<li> in a pipe cell": (lambda n: pipe_page("<li>" * n), False),
    "</p> under 100 open <div>": (lambda n: html_page("<div>" * 100 + "</p>" * n), True),
    "> > > blockquotes": (lambda n: "> " * n + "x\n\n" + pipe_page("y"), False),
    "- - - lists": (lambda n: "- " * n + "x\n\n" + pipe_page("y"), False),
    "**emphasis**": (lambda n: pipe_page("*" * n + "x" + "*" * n), False),
    "[[[brackets](x)": (lambda n: pipe_page("[" * n + "x" + "](y)" * n), False),
    "<x a=1 a=1 ...> attributes": (lambda n: html_page("<span " + "a=1 " * n + ">x</span>"), True),
}


@pytest.mark.slow  # counting every line a parser runs is slow: seconds per shape
@pytest.mark.parametrize("shape", SHAPES)
def test_the_work_of_reading_a_page_grows_linearly(shape):
    make, is_html = SHAPES[shape]
    _, small = work(make, 400, is_html)
    _, large = work(make, 800, is_html)
    assert large <= 2.2 * small, (small, large)  # twice the input: about twice the work, never four times


@pytest.mark.parametrize("is_html", [True, False], ids=["HTML", "pipe"])
def test_misnested_formatting_is_refused_where_it_nests_too_deep(is_html):
    """1,200 `<b><div></b>` in one cell: a RecursionError in `audit --page`, three minutes of
    html5lib at 16,000; now one problem at the cell's line as soon as the parser nests too deep."""
    table = pagereader.read_table((html_page if is_html else pipe_page)("<b><div></b>" * 1200), HEADINGS, is_html)
    assert table.rows == [] and table.problems == [(3 if is_html else 4, html_parse.TOO_DEEP)]


def test_no_tree_the_parser_builds_is_deeper_than_the_bound():
    """N triples nest N deep (and the page's own seven elements around them): up to the bound."""
    def depth(n: int) -> int:
        deepest, stack = 0, [(html_parse.parse_html(html_page("<b><div></b>" * n)), 1)]
        while stack:
            element, level = stack.pop()
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in element)
        return deepest

    assert [depth(n) for n in (10, 40, html_parse.MAX_DEPTH - 7)] == [17, 47, html_parse.MAX_DEPTH]
    with pytest.raises(html_parse.TooDeep):
        depth(html_parse.MAX_DEPTH - 6)


def test_a_page_of_more_tags_than_the_bound_is_refused_before_parsing(monkeypatch):
    parsed = []
    original = HTMLParser.parse
    monkeypatch.setattr(HTMLParser, "parse", lambda self, *args: parsed.append(1) or original(self, *args))
    for page, is_html, line in ((html_page("<br>" * (html_parse.MAX_TAGS + 1)), True, 3),
                                (pipe_page("<br>" * (html_parse.MAX_TAGS + 1)), False, 4)):
        table = pagereader.read_table(page, HEADINGS, is_html)
        assert table.rows == [] and table.problems == [(line, html_parse.TOO_MANY_TAGS)]
    assert parsed == []


def test_a_page_larger_than_the_bound_is_refused_before_parsing(monkeypatch):
    """Markdown's parser is linear, but a quarter of a megabyte of `[` took it 14 s."""
    parsed = []
    original = MarkdownIt.parse
    monkeypatch.setattr(MarkdownIt, "parse", lambda self, *args: parsed.append(1) or original(self, *args))
    page = pipe_page("ok") + "\n" * 10 + "[" * pagereader.MAX_PAGE_CHARS
    table = pagereader.read_table(page, HEADINGS)
    assert table.rows == [] and table.problems == [(15, pagereader.TOO_LARGE)] and parsed == []


def test_import_refuses_a_deep_page_in_one_line_and_writes_nothing(tmp_path):
    catalog = tmp_path / "catalog"
    shutil.copytree(CATALOG, catalog)
    before = {p: p.read_bytes() for p in catalog.rglob("*") if p.is_file()}
    page = tmp_path / "page.md"
    page.write_text(pipe_page("<b><div></b>" * 1200), encoding="utf-8")
    result = run_cli("import", "--catalog", catalog, "--edition", "9.2.0-v2", "--lang", "zh", "--page", page,
                     "--url", "https://example.org/page")
    assert result.code == 1 and result.err.splitlines() == [f"{page}:4: {html_parse.TOO_DEEP}",
                                                             "import: nothing was written"], result.err
    assert {p: p.read_bytes() for p in catalog.rglob("*") if p.is_file()} == before


def test_audit_of_a_cell_of_misnested_formatting_is_one_unreadable_line(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# 错误码\n\n" + html_page("<b><div></b>" * 1200), encoding="utf-8")
    result = run_cli("audit", "--edition", "9.0.0-v2", "--page", page)
    assert result.code == 1 and result.err == "", result.err
    assert result.out.splitlines()[0] == (f"{page}:5: unreadable (upstream: {html_parse.TOO_DEEP!r}; catalog: —)")


def test_audit_reads_the_second_way_within_the_same_bounds(monkeypatch, tmp_path):
    """audit reads an HTML table's cells a second way (html_cells): its parse is bounded too,
    and a refusal there is an unreadable finding at its line."""
    deep = html_page("<b><div></b>" * 1200)
    with pytest.raises(html_parse.TooDeep) as raised:
        html_cells.html_rows(deep, HEADINGS)
    assert raised.value.parser_line == 3
    family = load_catalog(ROOT / "catalog").family_by_id["llm_datadist"]
    edition = family.edition_by_id["9.0.0-v2"]
    monkeypatch.setattr("generator.audit.page.html_rows", html_cells.html_rows)
    fine = html_page("ok")
    monkeypatch.setattr("generator.audit.page.html_rows",
                        lambda source, headings: html_cells.html_rows(deep, headings))
    findings = audit_page(family, edition, "page.md", fine)
    assert [(f.line, f.kind, f.upstream) for f in findings if f.kind == "unreadable"] == [
        (3, "unreadable", html_parse.TOO_DEEP)]


def test_a_cell_nested_deeper_than_pythons_recursion_limit_is_laid_out():
    """html_cells walked a cell recursively: 1,200 elements deep was a RecursionError."""
    cell = Element("td")
    node = cell
    for _ in range(20_000):
        node = SubElement(node, "span")
    node.text = "deep"
    SubElement(cell, "br").tail = "after"
    assert html_cells.cell_text(cell) == "deep\nafter"


# -- Python sources -------------------------------------------------------------------------------------


def test_a_base_class_of_six_hundred_attributes_is_read_in_a_loop(tmp_path):
    """`class LLMStatusCode(a.b.b...)` crashed `audit --python` in ast.unparse, which recurses."""
    base = "a" + ".b" * 600
    parsed = python_source.read_python(f"class LLMStatusCode({base}):\n    LLM_SUCCESS = 0\n", "LLMStatusCode")
    assert parsed.problems == [] and parsed.members == [python_source.Member("LLM_SUCCESS", 0, 2)]
    assert len(parsed.bases) == 1 and parsed.bases[0].endswith(".b.b") and len(parsed.bases[0]) <= 123
    status = tmp_path / "status.py"
    status.write_text(f"class LLMStatusCode({base}):\n    LLM_SUCCESS = 0\n", encoding="utf-8")
    result = run_cli("audit", "--edition", "9.0.0-v2", "--python", status)
    assert result.code == 1 and result.err == "" and "Traceback" not in result.out


def test_a_members_value_is_evaluated_only_when_it_is_a_few_nodes(monkeypatch):
    evaluated = []
    original = ast.literal_eval
    monkeypatch.setattr(ast, "literal_eval", lambda node: evaluated.append(node) or original(node))
    source = "class LLMStatusCode(IntEnum):\n    DEEP = " + "-" * 400 + "1\n    FINE = -0x5\n"
    parsed = python_source.read_python(source, "LLMStatusCode")
    assert [(m.name, m.value) for m in parsed.members] == [("DEEP", None), ("FINE", -5)]
    assert len(evaluated) == 1  # the deep one was never handed to the recursive evaluator
