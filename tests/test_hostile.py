"""Hostile text goes through every output intact: the module returns it, the header
compiles and prints its exact bytes, the Markdown table keeps its shape and the HTML
shows it as text, with nothing injected."""
import importlib.util
import re
import shutil
import subprocess
from html.parser import HTMLParser

import markdown
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import run_cli
from tests.hostile import HOSTILE, hostile_catalog
from tests.site_build import build_site

EXTENSIONS = ["tables", "attr_list", "admonition", "toc"]  # as site/mkdocs.yml
fragments = st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufffe\uffff") | st.sampled_from(
    ["\n", "\t", "|", "<", "*", "`", "\\", "{{", "{%", "??=", "*/", "- ", "1. ", "# ", "&amp;", "<script>", "]", '"""'])
texts_strategy = st.lists(
    st.lists(fragments, min_size=1, max_size=30).map("".join).filter(lambda s: s.strip()),
    min_size=1, max_size=6)


def generate(tmp_path, texts):
    catalog = hostile_catalog(tmp_path / "catalog", texts)
    out = tmp_path / "out"
    result = run_cli("generate", "--catalog", catalog, "--out", out)
    assert result.code == 0, result.err
    return out


# -- Python ------------------------------------------------------------------------


def load_module(out):
    path = out / "generated" / "python" / "demo_codes.py"
    spec = importlib.util.spec_from_file_location(f"demo_codes_{id(out)}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check_python(out, texts):
    module = load_module(out)
    for index, text in enumerate(texts):
        member = module.DemoCode[f"DEMO_HOSTILE_{index}"]
        for lang in ("zh", "en"):
            assert member.meaning(lang, "2.0") == text
            assert member.solution(lang, "2.0") == text


# -- C ------------------------------------------------------------------------------


def check_c(tmp_path, out, texts, flags):
    calls = "\n".join(f"    dump(demo_status_message({0x1000 + i}U));" for i in range(len(texts)))
    source = (
        '#include <stdio.h>\n#include "demo_codes.h"\n'
        'static void dump(const char *s) { for (; *s; ++s) printf("%02x", (unsigned)(unsigned char)*s); printf("\\n"); }\n'
        f"int main(void) {{\n{calls}\n    return 0;\n}}\n")
    suffix = ".cpp" if flags[0] == "g++" else ".c"
    src, exe = tmp_path / f"hostile{suffix}", tmp_path / f"hostile{suffix}.out"
    src.write_text(source, encoding="utf-8")
    build = subprocess.run(flags + ["-I", str(out / "generated" / "c"), str(src), "-o", str(exe)], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    printed = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split()
    assert printed == [t.encode("utf-8").hex() for t in texts]


# -- Markdown and HTML --------------------------------------------------------------------


class Cells(HTMLParser):
    """Text of every table cell, <br> and <li> as line breaks; and every element seen."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows, self.tags, self._cell = [], [], None

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag in ("br", "li", "p") and self._cell is not None:
            self._cell.append("\n")

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def expected_lines(text):
    """What a reader sees of a text: one line per paragraph line or list item, its marker gone."""
    lines = []
    for line in text.split("\n"):
        marker = re.match(r"^(?:- |\d{1,9}\. )", line)
        lines.append(line[marker.end():] if marker else line)
    return _visible(lines)


def shown_lines(cell):
    return _visible(cell.split("\n"))


def _visible(lines):
    """HTML collapses runs of whitespace and drops empty lines."""
    return [v for v in (re.sub(r"\s+", " ", line).strip() for line in lines) if v]


def page_html(md_text):
    body = re.sub(r"\A---\n.*?\n---\n", "", md_text, flags=re.S)
    return markdown.markdown(body, extensions=EXTENSIONS)


def check_markdown(out, texts):
    for lang in ("zh", "en"):
        md_text = (out / "site" / "docs" / "editions" / f"2.0.{lang}.md").read_text(encoding="utf-8")
        table_lines = [line for line in md_text.split("\n") if line.startswith("| ")]  # as Python-Markdown splits
        assert table_lines and all(line.count("|") == 5 for line in table_lines), "a row lost its shape"
        cells = Cells()
        cells.feed(page_html(md_text))
        assert set(cells.tags) <= {"h1", "p", "strong", "div", "table", "thead", "tbody", "tr", "th", "td", "a", "br",
                                   "code", "ul", "ol", "li", "em"}, "an element was injected"
        rows = {re.sub(r"\s.*", "", row[0].strip(), flags=re.S): row for row in cells.rows[1:]}
        for index, text in enumerate(texts):
            row = rows[f"DEMO_HOSTILE_{index}"]
            assert len(row) == 4
            assert shown_lines(row[1]) == expected_lines(text)
            assert shown_lines(row[3]) == expected_lines(text)


# -- the tests ------------------------------------------------------------------------


def test_fixed_hostile_texts_survive_python_and_markdown(tmp_path):
    out = generate(tmp_path, HOSTILE)
    check_python(out, HOSTILE)
    check_markdown(out, HOSTILE)


@pytest.mark.skipif(not shutil.which("gcc"), reason="needs gcc")
@pytest.mark.parametrize("flags", [
    ["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"],
    ["gcc", "-std=c99", "-trigraphs", "-Wall", "-Wextra", "-Werror", "-pedantic"],
    ["g++", "-std=c++11", "-Wall", "-Wextra", "-Werror", "-pedantic"],
], ids=["c99", "c99-trigraphs", "c++11"])
def test_fixed_hostile_texts_survive_the_header(tmp_path, flags):
    out = generate(tmp_path, HOSTILE)
    check_c(tmp_path, out, HOSTILE, flags)


@pytest.mark.slow
def test_fixed_hostile_texts_in_the_built_site(tmp_path):
    out = generate(tmp_path, HOSTILE)
    site = tmp_path / "site"
    build_site(out / "site", site)
    html = (site / "en" / "editions" / "2.0" / "index.html").read_text(encoding="utf-8")
    assert "<script>alert" not in html and "<img src=x" not in html and "<b>bold</b>" not in html
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in html or "&lt;script&gt;alert('x')&lt;/script&gt;" in html
    code_page = (site / "codes" / "DEMO_HOSTILE_7" / "index.html").read_text(encoding="utf-8")
    assert "<script>alert" not in code_page


@settings(max_examples=150, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(texts=texts_strategy)
def test_generated_texts_survive_python_and_markdown(tmp_path_factory, texts):
    tmp_path = tmp_path_factory.mktemp("hostile")
    out = generate(tmp_path, texts)
    check_python(out, texts)
    check_markdown(out, texts)


@pytest.mark.skipif(not shutil.which("gcc"), reason="needs gcc")
@settings(max_examples=15, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(texts=texts_strategy)
def test_generated_texts_survive_the_header(tmp_path_factory, texts):
    tmp_path = tmp_path_factory.mktemp("hostile-c")
    out = generate(tmp_path, texts)
    check_c(tmp_path, out, texts, ["gcc", "-std=c99", "-trigraphs", "-Wall", "-Wextra", "-Werror", "-pedantic"])
