"""The offline copy of the site (generator/shipping/offline.py): what `make docs` writes into
site/build-offline/ and site/build-offline.zip, opened from disk as a reader who downloaded it
opens it.

Fast: how a link to a page becomes the link to its file, in attributes and nowhere else.
Slow: `docs` run on a copy of the committed site/; every link of every page of the offline
copy, and every page an index names, is a file of the copy; the copy and its zip come out
the same bytes again. Browser: in headless Chromium from file://, in each language, a code's
name typed into the search box finds the code, its result opens the code's page, a link of
the navigation opens its page, and the language switch opens the same page in the other
language; no request leaves the disk.
"""
from __future__ import annotations

import html
import json
import re
import shutil
import zipfile
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import pytest

from generator.shipping.offline import (ARCHIVE, ARCHIVE_ROOT, OFFLINE_DIR, OFFLINE_SCRIPT, file_link, offline_copy,
                                        offline_page, write_archive)
from generator.shipping.sitebuild import build_docs
from tests.support.helpers import ROOT, tree

# -- links -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("link, expected", [
    ("../codes/LLM_TIMEOUT/", "../codes/LLM_TIMEOUT/index.html"),
    ("../codes/LLM_TIMEOUT/#history", "../codes/LLM_TIMEOUT/index.html#history"),
    ("../differences/python/?old=9.0.0&new=9.1.0", "../differences/python/index.html?old=9.0.0&new=9.1.0"),
    (".", "./index.html"),
    ("..", "../index.html"),
    ("../..", "../../index.html"),
    ("./", "./index.html"),
    ("../../editions/8.0.RC3/", "../../editions/8.0.RC3/index.html"),
    # files, the page itself, other sites and absolute paths stay as they are
    ("../assets/extra.css", "../assets/extra.css"),
    ("../codes/LLM_TIMEOUT/index.html", "../codes/LLM_TIMEOUT/index.html"),
    ("#llm_timeout", "#llm_timeout"),
    ("?release=9.0.0", "?release=9.0.0"),
    ("", ""),
    ("https://example.org/llm/", "https://example.org/llm/"),
    ("mailto:someone@example.org", "mailto:someone@example.org"),
    ("/codes/", "/codes/"),
])
def test_a_link_to_a_page_names_its_file(link, expected):
    assert file_link(link) == expected


def test_a_page_links_files_in_its_markup_only():
    page = ('<!doctype html><html><head><meta http-equiv="refresh" content="0; url=../X/">'
            '<script>location.replace("../X/" + location.search + location.hash)</script>'
            '<script type="application/json" id="data">{"base": "../codes/", "a": "<a href=\\"../Y/\\">"}</script>'
            '<!-- <a href="../Z/"> --></head><body>'
            '<p>text that says href="../W/" is no link</p>'
            '<a class="x" href="../differences/p/?old=a&amp;new=b">one</a>'
            "<a href='../V/'>two</a><a href=../U/>three</a><a title=\"a > b\" href=\"..\">up</a>"
            '<img src="../assets/images/x.png"><a href="https://example.org/">out</a>'
            '<script src="../assets/javascripts/bundle.a5f9d56c.min.js"></script></body></html>')
    out = offline_page(page)
    assert 'content="0; url=../X/index.html"' in out
    assert 'location.replace("../X/index.html" + location.search' in out
    assert '{"base": "../codes/", "a": "<a href=\\"../Y/\\">"}' in out  # a script's text is no markup
    assert '<!-- <a href="../Z/"> -->' in out and 'says href="../W/" is' in out
    assert 'href="../differences/p/index.html?old=a&amp;new=b"' in out
    assert 'href="../V/index.html"' in out and 'href="../U/index.html"' in out
    assert '<a title="a > b" href="../index.html">' in out
    assert 'src="../assets/images/x.png"' in out and 'href="https://example.org/"' in out
    assert out.count(OFFLINE_SCRIPT) == 1
    assert out.index(f'<script src="../{OFFLINE_SCRIPT}">') < out.index("bundle.a5f9d56c.min.js")


def test_an_address_with_markup_is_written_escaped():
    out = offline_page('<a href="../a&quot;&lt;b/">x</a>')
    assert out == '<a href="../a&quot;&lt;b/index.html">x</a>'


# -- the copy `make docs` writes ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def docs_built(tmp_path_factory) -> Path:
    """A copy of the committed site/ (without what a build wrote) after `docs`, as `make docs`
    runs it without SITE_URL: its site/ directory."""
    site = tmp_path_factory.mktemp("offline") / "site"
    shutil.copytree(ROOT / "site", site,
                    ignore=lambda folder, names: [n for n in names if Path(folder) == ROOT / "site"
                                                  and n in ("build", OFFLINE_DIR, ARCHIVE)])
    assert build_docs(site, "") == 0
    return site


ATTRIBUTE = re.compile(r"""\s(?:href|src|action)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))""", re.IGNORECASE)
NOT_MARKUP = re.compile(r"<!--.*?-->|<(script|style|textarea)\b[^>]*>.*?</\1\s*>", re.DOTALL | re.IGNORECASE)


def local_target(page: Path, link: str):
    """The file a link of a page opens from disk, or None for a link off the disk or within the page."""
    if not link or link.startswith("#") or re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", link):
        return None
    path = unquote(urlsplit(link).path)
    return (page.parent / path) if path else None


@pytest.mark.slow
def test_every_link_of_the_offline_copy_opens_a_file_of_it(docs_built):
    copy = docs_built / OFFLINE_DIR
    pages = sorted(copy.rglob("*.html"))
    assert len(pages) > 100 and not list(copy.rglob("404.html")) and not list(copy.rglob("sitemap.xml*"))
    missing, checked = [], 0
    for page in pages:
        text = page.read_text(encoding="utf-8")
        links = [html.unescape(next(g for g in m.groups() if g is not None))
                 for m in ATTRIBUTE.finditer(NOT_MARKUP.sub("", text))]
        links += [json.loads(s) for s in re.findall(r'<script>location\.replace\(("(?:[^"\\]|\\.)*")', text)]
        refresh = re.search(r'http-equiv="refresh" content="\d+; url=([^"]*)"', text)
        links += [html.unescape(refresh.group(1))] if refresh else []
        for link in links:
            target = local_target(page, link)
            if target is None:
                continue
            checked += 1
            if not target.is_file():
                missing.append(f"{page.relative_to(copy)}: {link}")
        if 'id="__config"' in text:  # a page of the site: it searches from disk
            assert re.search(rf'<script src="(\.\./)*{re.escape(OFFLINE_SCRIPT)}"></script><script src="[./]*'
                             r'assets/javascripts/bundle\.', text), page
    assert checked > 5000 and not missing, missing[:20]
    for index in sorted((copy / "assets" / "search").glob("index-*.json")):
        data = json.loads(index.read_text(encoding="utf-8"))
        script = index.with_suffix(".js").read_text(encoding="utf-8")
        assert script.endswith(f"= {json.dumps(data, ensure_ascii=False, separators=(',', ':'))};\n")
        unopened = [d["l"] for d in data["docs"] if not (copy / urlsplit(d["l"]).path).is_file()]
        unopened += [f["codes"] for f in data["families"] if not (copy / f["codes"]).is_file()]
        assert data["docs"] and not unopened, (index.name, unopened)
    assert (copy / "search" / "search_index.js").read_text(encoding="utf-8").startswith("var __index = {")


@pytest.mark.slow
def test_the_offline_copy_and_its_zip_are_the_same_bytes_again(docs_built, tmp_path):
    copy, archive = docs_built / OFFLINE_DIR, docs_built / ARCHIVE
    again = tmp_path / "again"
    assert offline_copy(docs_built / "build", again) > 100
    write_archive(again, tmp_path / "again.zip")
    assert tree(again) == tree(copy)
    assert (tmp_path / "again.zip").read_bytes() == archive.read_bytes()
    with zipfile.ZipFile(archive) as bundle:
        names = bundle.namelist()
        assert names == sorted(names) and all(n.startswith(ARCHIVE_ROOT + "/") for n in names)
        assert {n.removeprefix(ARCHIVE_ROOT + "/") for n in names} == set(tree(copy))
        assert bundle.read(f"{ARCHIVE_ROOT}/index.html") == (copy / "index.html").read_bytes()
        assert {i.date_time for i in bundle.infolist()} == {(1980, 1, 1, 0, 0, 0)}


# -- from disk, in Chromium ------------------------------------------------------------------------------


def open_search(page, query: str) -> list[str]:
    """The addresses of the results of a query typed into the search box of the open page."""
    opener = page.locator('.md-header label[for="__search"]:visible, input.md-search__input:visible').first
    try:
        opener.wait_for(timeout=10_000)
    except Exception:  # Material hides its search box when its worker cannot start
        raise AssertionError(f"no search box on {page.url}") from None
    opener.click()
    box = page.locator("input.md-search__input")
    box.fill(query)
    box.press("End")  # Material's search reacts to key events, not to fill() alone
    page.locator(".md-search-result__item > a").first.wait_for()
    return page.locator(".md-search-result__item > a").evaluate_all("links => links.map(a => a.href)")


def without_query(url: str) -> str:
    return url.split("?")[0].split("#")[0]


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("lang, family_id, name", [("zh", "llm_datadist", "LLM_TIMEOUT"),
                                                   ("en", "hixl", None), ("en", "llm_datadist", "LLM_LINK_BUSY")])
def test_from_disk_search_navigation_and_language_switch_open_pages(catalog, chromium, docs_built, lang, family_id,
                                                                    name):
    from tests.support.browser import Visit

    family = catalog.family_by_id[family_id]
    code = family.code_by_name[name] if name else family.codes[-1]
    languages = catalog.site.languages
    prefix = "" if lang == languages[0] else f"{lang}/"
    other = next(other for other in languages if other != lang)
    other_prefix = "" if other == languages[0] else f"{other}/"
    root = (docs_built / OFFLINE_DIR).as_uri() + "/"
    v = Visit(chromium, root)
    errors = []
    v.page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        v.goto(f"{prefix}index.html")
        found = open_search(v.page, code.name)
        own = f"{root}{prefix}{family.prefix}codes/{code.name}/index.html"
        assert found and without_query(found[0]) == own, (code.name, found[:5])
        v.page.locator(".md-search-result__item > a").first.click()
        v.page.wait_for_load_state("load")
        assert without_query(v.page.url) == own
        assert v.page.locator("article h1").first.inner_text().strip(" ¶") == code.name

        # the navigation: every link opens a file; the family's list of editions opens its page
        nav = v.page.locator(".md-sidebar--primary a.md-nav__link[href]")
        hrefs = nav.evaluate_all("links => links.map(a => a.href)")
        assert hrefs and all(without_query(h).endswith(".html") for h in hrefs), hrefs
        editions = f"{root}{prefix}{family.prefix}editions/index.html"
        nav.nth(hrefs.index(editions)).click()
        v.page.wait_for_load_state("load")
        assert v.page.url == editions and v.page.locator("table.editions-table, article table").count() > 0

        # the language switch: the same page in the other language
        v.page.locator(".md-header__option .md-select").first.hover()
        v.page.locator(f"a.md-select__link[hreflang={other}]").click()
        v.page.wait_for_load_state("load")
        assert v.page.url == f"{root}{other_prefix}{family.prefix}editions/index.html"
        assert v.page.locator("html").get_attribute("lang") == other
        found = open_search(v.page, code.name)
        assert without_query(found[0]) == f"{root}{other_prefix}{family.prefix}codes/{code.name}/index.html", found[:5]
        # a code page's choice of release and API reaches the other language too (no site memory
        # carries it from disk)
        v.goto(f"{other_prefix}{family.prefix}codes/{code.name}/index.html?release={family.editions[0].release}")
        v.page.locator(".md-header__option .md-select").first.hover()
        v.page.locator(f"a.md-select__link[hreflang={lang}]").click()
        v.page.wait_for_load_state("load")
        assert v.page.url == f"{own}?release={quote(family.editions[0].release)}"
        assert not errors and not v.console_errors, (errors, v.console_errors)
        assert not v.outside(), v.outside()
    finally:
        v.close()
