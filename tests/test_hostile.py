"""Hostile text goes through every output intact and inert: in every text field and in every
piece of wording (family name and description, titles, headings, labels, site name, notes,
sources). The module returns it and runs nothing on import, the header compiles and prints its
exact bytes and declares nothing, the pages show it as text with nothing injected."""
import functools
import html
import importlib.util
import json
import re
import shutil
import subprocess
import sys
import threading
from html.parser import HTMLParser

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.helpers import run_cli
from tests.support.hostile import HOSTILE, WORDING_ATTACK, WORDING_ATTACKS, hostile_catalog, live_markup
from tests.support.site_build import build_site, page_html

ALLOWED_TAGS = {
    "h1",
    "h2",
    "h3",
    "h4",
    "p",
    "strong",
    "em",
    "small",
    "div",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "a",
    "br",
    "code",
    "wbr",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "span",
    "svg",
    "g",
    "rect",
    "text",
    "title",
    "del",
    "ins",
    "sup",  # a text's origin as a sign (parts.html.j2: origin_sign)
    "section",
    "details",
    "summary",
    "form",
    "label",
    "select",
    "option",
    "optgroup",
    "defs",
    "symbol",
    "use",
    "script:json",
}  # a page's data for its script: <script type="application/json">, which must parse
fragments = st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufffe\uffff") | st.sampled_from(
    [
        "\n",
        "\t",
        "|",
        "<",
        "*",
        "`",
        "\\",
        "{{",
        "{%",
        "??=",
        "*/",
        "- ",
        "1. ",
        "# ",
        "&amp;",
        "<script>",
        "]",
        '"""',
        "<!--",
        "\\N{",
    ]
)
texts_strategy = st.lists(
    st.lists(fragments, min_size=1, max_size=30).map("".join).filter(lambda s: s.strip()), min_size=1, max_size=6
)


def generate(tmp_path, texts, wording=None):
    catalog = hostile_catalog(tmp_path / "catalog", texts, wording)
    out = tmp_path / "out"
    result = run_cli("generate", "--catalog", catalog, "--out", out)
    assert result.code == 0, result.err
    return out


# -- Python ------------------------------------------------------------------------------------------


def check_python(tmp_path, out, texts, wording=None):
    probe = tmp_path / "probe"
    probe.mkdir(exist_ok=True)
    script = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); import demo_codes as d\n"
        "print(json.dumps({'doc': d.__doc__, 'texts': [[getattr(d.DemoCode, 'DEMO_HOSTILE_%d' % i).meaning(l, "
        "'2.0-new') "
        "for l in ('zh', 'en')] + [getattr(d.DemoCode, 'DEMO_HOSTILE_%d' % i).solution(l, '2.0-new') for l in ('zh', "
        "'en')] "
        "for i in range(int(sys.argv[2]))]}))"
    )
    result = subprocess.run([sys.executable, "-c", script, str(out / "generated" / "python"), str(len(texts))],
                            capture_output=True, text=True, cwd=probe, timeout=60)
    assert result.returncode == 0, result.stderr
    assert not list(probe.iterdir()), "importing the module ran something"
    data = json.loads(result.stdout)
    assert data["texts"] == [[text] * 4 for text in texts]
    if wording is not None:  # its characters as written; a docstring wraps its long lines at a space
        assert " ".join(wording.split()) in " ".join(data["doc"].split())
        assert all(len(line) <= 120 for line in (out / "generated" / "python" / "demo_codes.py").read_text(
            encoding="utf-8").split("\n")[:20])


# -- C ---------------------------------------------------------------------------------------------------


def check_c(tmp_path, out, texts, flags):
    calls = "\n".join(f"    dump(demo_status_message({0x1000 + i}U));" for i in range(len(texts)))
    source = (
        '#include <stdio.h>\n#include "demo_codes.h"\n'
        'static void dump(const char *s) { for (; *s; ++s) printf("%02x", (unsigned)(unsigned char)*s); printf("\\n"); '
        '}\n'
        f"int main(void) {{\n{calls}\n    return 0;\n}}\n"
    )
    suffix = ".cpp" if flags[0] == "g++" else ".c"
    src, exe = tmp_path / f"hostile{suffix}", tmp_path / f"hostile{suffix}.out"
    src.write_text(source, encoding="utf-8")
    build = subprocess.run(
        flags + ["-I", str(out / "generated" / "c"), str(src), "-o", str(exe)], capture_output=True, text=True
    )
    assert build.returncode == 0, build.stderr
    printed = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split()
    assert printed == [t.encode("utf-8").hex() for t in texts]
    expanded = subprocess.run(
        [*flags, "-E", "-P", "-x", "c++" if suffix == ".cpp" else "c", str(out / "generated" / "c" / "demo_codes.h")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    code = re.sub(r'"(?:\\.|[^"\\])*"', '""', expanded)
    assert "injected" not in code and "PWNED" not in code, "a catalog string became code"


# -- pages -----------------------------------------------------------------------------------------------


class Page(HTMLParser):
    """Every element and attribute seen, and the text of every table cell (<br> and <li> as lines)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.attrs, self.rows, self.title, self.data = set(), set(), [], "", []
        self._row = self._cell = self._data = None

    def handle_starttag(self, tag, attrs):
        if tag == "script" and dict(attrs).get("type") == "application/json":
            tag, self._data = "script:json", []
        self.tags.add(tag)
        self.attrs.update(name for name, _ in attrs)
        if tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = []
        elif self._cell is not None and tag in ("br", "li", "p"):
            self._cell.append("\n")

    def handle_endtag(self, tag):
        if tag == "script" and self._data is not None:
            self.data.append("".join(self._data))
            self._data = None
        if tag in ("td", "th") and self._cell is not None:
            self._row.append("".join(self._cell))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.rows.append(self._row)
            self._row = None

    def handle_data(self, data):
        if self._data is not None:
            self._data.append(data)
        if self._cell is not None:
            self._cell.append(data)


def visible(text):
    """What a reader sees: one line per paragraph line or list item, markers gone, spaces collapsed."""
    lines = []
    for line in text.split("\n"):
        marker = re.match(r"^(?:- |\d{1,9}\. )", line)
        lines.append(line[marker.end():] if marker else line)
    return [v for v in (re.sub(r"\s+", " ", line).strip() for line in lines) if v]


def check_pages(out, texts, wording=None):
    for md_file in (out / "site" / "docs").rglob("*.md"):
        page, rendered = Page(), page_html(md_file.read_text(encoding="utf-8"))
        page.feed(rendered)
        assert page.tags <= ALLOWED_TAGS, (md_file, page.tags - ALLOWED_TAGS)
        assert not live_markup(rendered), (md_file, live_markup(rendered))
        assert all(json.loads(data) is not None for data in page.data), md_file  # a text cannot end the element
    for lang in ("zh", "en"):
        page = Page()
        page.feed(page_html((out / "site" / "docs" / "editions" / f"2.0-new.{lang}.md").read_text(encoding="utf-8")))
        rows = {row[0].split()[0].replace("\u200b", ""): row for row in page.rows[1:]}
        for index, text in enumerate(texts):
            row = rows[f"DEMO_HOSTILE_{index}¶"] if f"DEMO_HOSTILE_{index}¶" in rows else rows[f"DEMO_HOSTILE_{index}"]
            assert len(row) == 4
            assert visible(row[1]) == visible(text) and visible(row[3]) == visible(text)
    if wording is not None:
        front = (out / "site" / "mkdocs.yml").read_text(encoding="utf-8")
        from generator.rendering.escape import html_text

        assert f"site_name: {json.dumps(html_text(wording), ensure_ascii=False)}" in front
        # Material writes a palette toggle's name into a title, which its header tooltips set as innerHTML
        names = re.findall(r"toggle:\n(?: +icon: .*\n)? +name: (.*)\n", front)
        assert len(names) == 6 and not [n for n in names if "<" in html.unescape(json.loads(n))], names


# -- the tests -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("attack", WORDING_ATTACKS)
def test_hostile_texts_and_wording_survive_python_json_and_pages(tmp_path, attack):
    wording = WORDING_ATTACKS[attack]
    out = generate(tmp_path, HOSTILE, wording)
    check_python(tmp_path, out, HOSTILE, wording)
    check_pages(out, HOSTILE, wording)
    data = json.loads((out / "generated" / "json" / "demo_codes.json").read_text(encoding="utf-8"))
    assert data["family"]["description"]["en"] == wording
    by_name = {c["name"]: c for c in data["codes"]}
    assert [
        by_name[f"DEMO_HOSTILE_{i}"]["editions"]["2.0-new"]["texts"]["meaning"]["en"]["text"]
        for i in range(len(HOSTILE))
    ] == HOSTILE


def compilers() -> list[list[str]]:
    """Each way a consumer compiles the header: C99 (with trigraphs too), C++11, and, where GCC
    knows it, with every bidirectional control character an error."""
    strict = ["-Wall", "-Wextra", "-Werror", "-pedantic"]
    found = [["gcc", "-std=c99", *strict], ["gcc", "-std=c99", "-trigraphs", *strict], ["g++", "-std=c++11", *strict]]
    bidi = ["gcc", "-std=c99", *strict, "-Werror=bidi-chars=any"]
    probe = subprocess.run([*bidi, "-x", "c", "-fsyntax-only", "-"], input="", capture_output=True, text=True)
    return found + ([bidi] if probe.returncode == 0 else [])


@pytest.mark.skipif(not shutil.which("gcc"), reason="needs gcc")
@pytest.mark.parametrize("attack", WORDING_ATTACKS)
def test_hostile_texts_and_wording_survive_the_header(tmp_path, attack):
    out = generate(tmp_path, HOSTILE, WORDING_ATTACKS[attack])
    for flags in compilers():
        check_c(tmp_path, out, HOSTILE, flags)


# -- the built site, in Chromium --------------------------------------------------------------------------

# Every attack on the site's wording at once: one build serves every check of the built site.
SITE_WORDING = WORDING_ATTACK + "\n" + WORDING_ATTACKS["site"]
# What the page holds, once its scripts ran, that would run script or leave for another scheme
# than http(s): an on* attribute, or a URL attribute whose resolved address has such a scheme.
LIVE_DOM = """() => {
  const urls = ["href", "src", "action", "formaction", "data", "poster", "background", "cite", "ping", "xlink:href"]
  const found = []
  for (const element of document.querySelectorAll("*")) {
    for (const attribute of element.attributes) {
      let live = attribute.name.startsWith("on")
      if (!live && urls.includes(attribute.name)) {
        try { live = !["http:", "https:"].includes(new URL(attribute.value, document.baseURI).protocol) }
        catch (error) { live = false }  // not a URL a browser would follow
      }
      if (live) found.push(`<${element.localName} ${attribute.name}="${attribute.value}">`)
    }
  }
  return found
}"""


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory):
    """The site of a catalog whose every text, name and label is hostile, built once and served
    under a sub-path as a static host serves it: (its base URL, its build directory)."""
    from tests.support.browser import SUB_PATH, QuietServer, SiteHandler

    tmp_path = tmp_path_factory.mktemp("hostile-site")
    out = generate(tmp_path, HOSTILE, SITE_WORDING)
    root = tmp_path / "served"
    httpd = QuietServer(("127.0.0.1", 0), functools.partial(SiteHandler, directory=str(root)))
    base = f"http://127.0.0.1:{httpd.server_address[1]}{SUB_PATH}"
    build_site(out / "site", root / SUB_PATH.strip("/"), site_url=base)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield base, root / SUB_PATH.strip("/")
    httpd.shutdown()
    httpd.server_close()


@pytest.mark.slow
def test_hostile_wording_in_the_built_site(hostile_site):
    site = hostile_site[1]
    for html_file in site.rglob("*.html"):
        built = html_file.read_text(encoding="utf-8")
        assert "<img src=x" not in built and "<script>alert" not in built and "<b>bold</b>" not in built, html_file
        assert not live_markup(built), (html_file, live_markup(built))
        title = re.search(r"<title>(.*?)</title>", built, re.S).group(1)
        assert "<img" not in title
    page = (site / "en" / "editions" / "2.0-new" / "index.html").read_text(encoding="utf-8")
    assert "edition-table" in page and "DEMO_HOSTILE_26" in page  # "<!--" in the site's name hides nothing
    assert "C# and C++ and ## hashes #" in page


@pytest.mark.slow
@pytest.mark.browser
def test_hostile_site_runs_no_script_in_chromium(hostile_site, chromium):
    """Every page of the hostile site, and a search for its family, in Chromium: no dialog, no
    console message, no page error, and nothing live in the page once its scripts ran."""
    from tests.support.browser import Visit, search

    base, site = hostile_site
    visit = Visit(chromium, base)
    missing = ["no-such-page/", "en/no-such-page/"]  # served the 404 page, whose own status the console reports
    ran: list[str] = []

    def console(message):
        if not (message.text.startswith("Failed to load resource") and message.location["url"] in
                [base + path for path in missing]):
            ran.append(f"console {message.text!r} on {visit.page.url}")

    visit.page.on("dialog", lambda dialog: (ran.append(f"dialog {dialog.message!r}"), dialog.dismiss()))
    visit.page.on("console", console)
    visit.page.on("pageerror", lambda error: ran.append(f"error {error} on {visit.page.url}"))
    try:
        # (the redirect pages at typed addresses send the browser to these pages: test_hostile_wording_in_the_built_site
        # reads them)
        paths = sorted(p.parent.relative_to(site).as_posix() + "/" for p in site.rglob("index.html")
                       if 'http-equiv="refresh"' not in p.read_text(encoding="utf-8"))
        for path in ["" if p == "./" else p for p in paths] + missing:
            visit.goto(path)
            live = visit.page.evaluate(LIVE_DOM)
            assert not live, (path, live)
        for lang_path in ("", "en/"):
            search(visit, lang_path, "HIXL")  # the family's name: every page of it is a result
            assert not visit.page.evaluate(LIVE_DOM)
        assert len(paths) > 50 and not ran, ran
        assert not visit.outside(), visit.outside()
    finally:
        visit.close()


@pytest.mark.slow  # a property run: each example generates every output (about 0.5 s)
@settings(max_examples=20, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(texts=texts_strategy)
def test_generated_texts_survive_python_and_pages(tmp_path_factory, texts):
    tmp_path = tmp_path_factory.mktemp("hostile")
    out = generate(tmp_path, texts)
    check_python(tmp_path, out, texts)
    check_pages(out, texts)


@pytest.mark.slow
@pytest.mark.skipif(not shutil.which("gcc"), reason="needs gcc")
@settings(max_examples=15, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(texts=texts_strategy)
def test_generated_texts_survive_the_header(tmp_path_factory, texts):
    tmp_path = tmp_path_factory.mktemp("hostile-c")
    out = generate(tmp_path, texts)
    check_c(tmp_path, out, texts, ["gcc", "-std=c99", "-trigraphs", "-Wall", "-Wextra", "-Werror", "-pedantic"])


def test_a_module_from_a_hostile_catalog_imports_in_process(tmp_path):
    out = generate(tmp_path, HOSTILE[:3], WORDING_ATTACK)
    spec = importlib.util.spec_from_file_location("demo_hostile", out / "generated" / "python" / "demo_codes.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.DemoCode.DEMO_HOSTILE_2.meaning("en", "2.0-new") == HOSTILE[2]
