"""The site's search, as readers use it, and the weight of the pages around it.

Fast: the worker's unit tests in Node (tests/node/), the record of the Material blocks and
bundle the site's copies were checked against, what each search index carries.
Slow (browser): the committed site built for a sub-path and served as GitHub Pages serves
it (every missing address answered with the site's root 404.html), searched in headless
Chromium: what readers paste from a log or a line of code, synonyms, queries in the other
language, empty results; no page asks for search/search_index.json; the pages' weight and
English chrome on English pages.

Expectations come from the catalog (the code's names, value, wrapper and log message), with
the codes the issue names.
"""
from __future__ import annotations

import functools
import hashlib
import json
import re
import shutil
import subprocess
import threading
from importlib.metadata import version
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest

from tests.support.helpers import ROOT
from tests.support.site_build import shared_site

DOCS = ROOT / "site" / "docs"
NODE_TESTS = ROOT / "tests" / "node"
PLAYWRIGHT_NODE = Path(__import__("playwright").__file__).parent / "driver" / "node"
MAX_CODE_PAGE = 47_000  # bytes of codes/LLM_TIMEOUT/index.html, the heaviest code page (46.7 kB once the
# navigation listed GE's error codes)


# -- the worker without a browser ------------------------------------------------------------------


def node() -> str:
    found = (
        shutil.which("node") or shutil.which("nodejs") or (str(PLAYWRIGHT_NODE) if PLAYWRIGHT_NODE.exists() else None)
    )
    assert found, "no Node.js to run tests/node/: install Debian's nodejs (apt-get install nodejs)"
    return found


def test_the_workers_unit_tests_pass_in_node():
    tests = sorted(NODE_TESTS.glob("*.test.js"))
    assert tests, "no tests in tests/node/"
    result = subprocess.run([node(), "--test", *map(str, tests)], cwd=ROOT, capture_output=True, text=True, timeout=120,
                            check=False)
    summary = dict(re.findall(r"^# (pass|fail) (\d+)$", result.stdout, re.MULTILINE))
    assert result.returncode == 0 and summary.get("fail") == "0", result.stdout[-6000:] + result.stderr[-2000:]
    assert int(summary["pass"]) >= 10, result.stdout[-2000:]


# -- the copies of Material's blocks and protocol -----------------------------------------------------


def material_dir() -> Path:
    import material

    return Path(material.__file__).parent


def jinja_block(text: str, name: str) -> str:
    """The block `name` of a Jinja template, from {% block name %} to its own {% endblock %}."""
    start = text.index(f"{{% block {name} %}}")
    depth = 0
    for match in re.finditer(r"{%-?\s*(block|endblock)\b[^%]*%}", text[start:]):
        depth += 1 if match.group(1) == "block" else -1
        if depth == 0:
            return text[start:start + match.end()]
    raise AssertionError(f"block {name} does not end")


def test_material_is_what_the_copies_were_checked_against():
    """A new Material fails here until the blocks copied into main.html, the worker's protocol
    and the answer to the index request are checked against it and the record is updated."""
    templates = {path: (ROOT / "templates" / path).read_text(encoding="utf-8")
                 for path in ("site/overrides/main.html.j2", "site/assets/search-worker.js.j2")}
    blocks = {name: digest for text in templates.values()
              for name, digest in re.findall(r"material-block (\w+) ([0-9a-f]{12})\b", text)}
    bundles = {
        name for text in templates.values() for name in re.findall(r"material-bundle (bundle\.\w+\.min\.js)", text)
    }
    assert set(blocks) == {"site_meta", "config"} and len(bundles) == 1, (blocks, bundles)
    base = (material_dir() / "templates" / "base.html").read_text(encoding="utf-8")
    installed = {name: hashlib.sha256(jinja_block(base, name).encode("utf-8")).hexdigest()[:12] for name in blocks}
    changed = {name: (blocks[name], installed[name]) for name in blocks if installed[name] != blocks[name]}
    assert not changed, (
        f"mkdocs-material {version('mkdocs-material')}: its blocks {sorted(changed)} changed since they were "
        f"copied into templates/site/overrides/main.html.j2 (recorded, installed: {changed}); check the "
        "copies against them, then record the new hashes there"
    )
    present = sorted(p.name for p in (material_dir() / "templates" / "assets" / "javascripts").glob("bundle.*.min.js"))
    assert present == sorted(bundles), (
        f"mkdocs-material {version('mkdocs-material')} ships {present}, not {sorted(bundles)}: "
        "check the search worker's protocol and main.html's answer to the request for "
        "search/search_index.json against it, then record its name in both templates"
    )
    checked = set(re.findall(r"Material for MkDocs (\d+\.\d+\.\d+)", templates["site/assets/search-worker.js.j2"]))
    assert checked == {version("mkdocs-material")}, checked


def test_jinja_block_reads_nested_blocks():
    text = "{% block a %}x{% block b %}y{% endblock %}z{% endblock %} rest"
    assert jinja_block(text, "a") == "{% block a %}x{% block b %}y{% endblock %}z{% endblock %}"
    assert jinja_block(text, "b") == "{% block b %}y{% endblock %}"


# -- what each index carries -----------------------------------------------------------------------------


def test_each_index_carries_how_its_language_is_read(catalog):
    site = catalog.site
    for lang in site.languages:
        data = json.loads((DOCS / "assets" / "search" / f"index-{lang}.json").read_text(encoding="utf-8"))
        reading = site.search_language(lang)
        assert data["lang"] == lang and data["script"] == reading.script
        assert data["synonyms"] == [list(group) for group in reading.synonyms] and data["synonyms"]
        assert {entry["lang"]: entry["script"] for entry in data["languages"]} == \
            {other: site.search_language(other).script for other in site.languages}
        assert all(text == site.label(f"search_{key}", lang) for key, text in data["labels"].items())
        assert [f["name"] for f in data["families"]] == [f.name[lang] for f in catalog.families] + [
            m.name[lang] for m in catalog.message_families]
        for family, entry in zip(catalog.families, data["families"]):
            assert family.id in entry["words"] and entry["codes"].endswith(f"{family.prefix}codes/")
        for family in catalog.families:
            for code in family.codes:
                doc = next(d for d in data["docs"] if d["l"].endswith(f"{family.prefix}codes/{code.name}/"))
                if code.wrapper:
                    assert code.wrapper in doc["n"].split(" ")
                # C++ names as a reader writes them: HIXL_TIMEOUT for ::HIXL_TIMEOUT (HIXL's C interface)
                assert {n.name.removeprefix("::") for n in code.cpp} <= set(doc["n"].split(" ")), doc["n"]
                assert doc.get("g") == code.log_message
        for messages in catalog.message_families:  # a GE code by its id and its category (Inner_Error: nothing)
            for code in messages.codes:
                doc = next(d for d in data["docs"] if d["l"].endswith(f"{messages.prefix}codes/{code.id}/"))
                assert doc["n"].split(" ") == [code.id, code.category], doc["n"]


def test_the_shipped_search_languages_are_the_sites():
    from generator.reading.site import default_search

    shipped = default_search()
    assert {"zh", "en"} <= set(shipped)
    assert {entry.script for entry in shipped.values()} == {"cjk", "latin"}
    assert all(len(group) >= 2 and all(word == word.lower() for word in group) for entry in shipped.values()
               for group in entry.synonyms)


# -- in the browser ---------------------------------------------------------------------------------------

browser = [pytest.mark.slow, pytest.mark.browser]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The committed site, built for and served under a sub-path, every missing address
    answered with the site's root 404.html (as GitHub Pages does); its build directory."""
    from tests.support.browser import SUB_PATH, QuietServer, SiteHandler

    class GitHubPages(SiteHandler):
        one_404 = True

    root = shared_site(tmp_path_factory)
    httpd = QuietServer(("127.0.0.1", 0), functools.partial(GitHubPages, directory=str(root)))
    base = f"http://127.0.0.1:{httpd.server_address[1]}{SUB_PATH}"
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield base, root / SUB_PATH.strip("/")
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def reader(chromium, served):
    """A reader's browser on the served site; every request it makes is recorded and must
    stay on the site."""
    from tests.support.browser import Visit

    visit = Visit(chromium, served[0])
    yield visit
    outside = visit.outside()
    visit.close()
    assert not outside, outside


def results(reader, lang_path: str, query: str) -> list[dict]:
    """The results of a query typed on a page: each {path, title, text} (path within the site)."""
    from tests.support.browser import SUB_PATH, search

    search(reader, lang_path, query, everything=True)
    items = reader.page.locator(".md-search-result__item > a").evaluate_all(
        "links => links.map(a => ({href: a.href, title: a.querySelector('h1, h2')?.innerHTML || '', text: "
        "a.textContent}))"
    )
    return [{"path": urlsplit(i["href"]).path[len(SUB_PATH):], "title": i["title"], "text": i["text"]} for i in items]


def paths(found: list[dict]) -> list[str]:
    return [item["path"] for item in found]


def code_path(family, code, prefix: str = "") -> str:
    return f"{prefix}{family.prefix}codes/{code.name}/"


def pasted_forms(family, code) -> list[str]:
    """What readers paste from a log or a line of code, for one code."""
    hex_value = code.hex
    return [
        f"{hex_value}U",
        f"{hex_value},",
        f"status_code={code.value}",
        f"ret={code.value}",
        f"{code.name}({code.value})",
        f"{family.python.class_name}.{code.name}",
        code.wrapper,
        f"error code: {hex_value}",
        f"error code is {code.value}",
        f"PullKvCache: ErrorNo: {code.value}({code.log_message}) pull cache failed",  # CANN's own error line
        code.log_message,
    ]


@pytest.mark.slow
@pytest.mark.browser
def test_what_readers_paste_finds_the_code_first(llm, reader):
    timeout = llm.code_by_name["LLM_TIMEOUT"]
    failures = []
    for query in pasted_forms(llm, timeout):
        found = paths(results(reader, "en/", query))
        if not found or found[0] != code_path(llm, timeout, "en/"):
            failures.append((query, found[:3]))
    for query in (f"ret={timeout.value}", f"{timeout.name}({timeout.value})"):
        found = paths(results(reader, "", query))
        if not found or found[0] != code_path(llm, timeout):
            failures.append(("zh", query, found[:3]))
    assert not failures, failures


@pytest.mark.slow
@pytest.mark.browser
def test_the_start_of_a_hex_value_lists_exactly_the_codes_it_starts(catalog, llm, reader):
    typed = llm.code_by_name["LLM_TIMEOUT"].hex[:9].lower()  # 0x5010b01: seven digits
    expected = {code_path(f, c, "en/") for f in catalog.families for c in f.codes
                if c.value >= 0 and format(c.value, "08x").startswith(typed[2:])}
    assert code_path(llm, llm.code_by_name["LLM_TIMEOUT"], "en/") in expected and len(expected) > 1
    assert set(paths(results(reader, "en/", typed))) == expected


@pytest.mark.slow
@pytest.mark.browser
def test_retry_and_its_synonyms_find_the_codes_that_say_to_try_again(llm, reader):
    names = ("LLM_TIMEOUT", "LLM_WAIT_PROCESS_TIMEOUT", "LLM_PROCESSING_LINK")
    for lang_path, query in (("en/", "retry"), ("en/", "try again"), ("", "重试")):
        # among LLM-DataDist's codes (GE's messages say "retry" too, word for word: they may come first)
        own = {code_path(llm, code, lang_path) for code in llm.codes}
        top = [path for path in paths(results(reader, lang_path, query)) if path in own][:5]
        assert {code_path(llm, llm.code_by_name[name], lang_path) for name in names} <= set(top), (query, top)


@pytest.mark.slow
@pytest.mark.browser
def test_a_query_in_the_other_language_finds_its_pages_and_says_so(catalog, llm, reader):
    site = catalog.site
    zh, en = site.languages
    for lang_path, query, other in (("en/", "超时", zh), ("", "timed out", en)):
        found = results(reader, lang_path, query)
        prefix = "" if other == site.languages[0] else f"{other}/"
        wanted = {code_path(llm, llm.code_by_name[n], prefix) for n in ("LLM_TIMEOUT", "LLM_WAIT_PROCESS_TIMEOUT")}
        assert wanted <= set(paths(found)[:5]), (query, paths(found)[:5])
        own = site.languages[0] if lang_path == "" else lang_path.rstrip("/")
        label = site.label("search_in_language", own).format(language=site.language_names[other])
        assert all(label in item["text"] for item in found), (query, found[0])
    # a word of codes' names, in any case, is no English text: the zh pages answer it (it led to en/)
    found = results(reader, "", "timeout")
    wanted = {code_path(llm, llm.code_by_name[n], "") for n in ("LLM_TIMEOUT", "LLM_WAIT_PROCESS_TIMEOUT")}
    assert wanted <= set(paths(found)[:5]) and not any(p.startswith("en/") for p in paths(found)), paths(found)[:5]


@pytest.mark.slow
@pytest.mark.browser
def test_an_empty_result_says_what_was_searched_and_what_is_near(catalog, llm, reader):
    hixl = catalog.family_by_id["hixl"]
    found = results(reader, "", f"{hixl.name['zh']} 磁盘损坏")
    assert len(found) == 1 and found[0]["path"] == f"{hixl.prefix}codes/", found
    assert "磁盘损坏" in found[0]["text"] and all(code.name in found[0]["text"] for code in hixl.codes), found[0]
    assert (
        catalog.site.label("search_family_has", "zh").format(family=hixl.name["zh"], count=len(hixl.codes))
        in found[0]["text"]
    )
    timeout = llm.code_by_name["LLM_TIMEOUT"]
    typo = timeout.name[:-2] + timeout.name[-1]  # LLM_TIMEOT
    found = results(reader, "en/", typo)
    assert typo in found[0]["text"] and code_path(llm, timeout, "en/") in paths(found)[1:], found[:3]


@pytest.mark.slow
@pytest.mark.browser
def test_no_page_asks_for_the_empty_index(catalog, llm, reader):
    edition = llm.editions[-1].id
    for lang_path in ("", "en/"):
        for path in ("", "codes/", "codes/LLM_TIMEOUT/", f"editions/{edition}/", "differences/", "no-such-page/"):
            reader.goto(lang_path + path)
            reader.page.wait_for_timeout(100)
    results(reader, "", "LLM_TIMEOUT")
    results(reader, "en/", "超时")
    asked = [u for u in reader.requests if "search_index" in u]
    assert len(reader.requests) > 30 and not asked, asked
    assert any("assets/search/index-zh.json" in u for u in reader.requests)


@pytest.mark.slow
@pytest.mark.browser
def test_an_address_with_a_query_that_could_freeze_search_leaves_it_answering(catalog, llm, reader):
    """?q= runs its query as the page loads: 40 digits after a release prefix (the nested repeat
    the worker had took minutes) and 10,000 characters of words (cut to the first MAX_QUERY,
    which the count line says) both answer, and the next query typed is answered too."""
    from generator.rendering.site.search_index import MAX_QUERY
    from tests.support.browser import search

    timeout = llm.code_by_name["LLM_TIMEOUT"]
    for lang_path, lang in (("", "zh"), ("en/", "en")):
        cut_note = catalog.site.label("search_cut", lang).replace("{count}", str(MAX_QUERY))
        for query, cut in (("1.1.1-beta" + "1" * 40 + "_", False), ("retry " * 1700, True)):
            reader.goto(f"{lang_path}?q={quote(query)}")
            reader.page.wait_for_function("""() => {
                const config = JSON.parse(document.getElementById('__config').textContent)
                const meta = document.querySelector('.md-search-result__meta')
                const text = meta ? meta.firstChild && meta.firstChild.nodeValue : ''
                return text && (/\\d/.test(text) || text === config.translations['search.result.none'])
            }""", timeout=10_000)
            if cut:
                reader.page.wait_for_selector(".md-search-result__meta .search-cut", timeout=5_000)
            else:
                reader.page.wait_for_timeout(300)
            meta = reader.page.locator(".md-search-result__meta").text_content()
            assert (cut_note in meta) == cut, (query[:20], meta)
            found, _ = search(reader, lang_path, timeout.name, again=True)
            assert found and found[0] == code_path(llm, timeout, lang_path), found[:3]


# -- the pages' weight and language ------------------------------------------------------------------------


@pytest.mark.slow
def test_a_code_page_is_light_and_lists_no_other_code_in_its_navigation(catalog, served):
    build = served[1]
    page = (build / "codes" / "LLM_TIMEOUT" / "index.html").read_bytes()
    assert len(page) <= MAX_CODE_PAGE, len(page)
    for family in catalog.families:
        for lang_path in ("", "en/"):
            code = family.codes[0]
            text = (build / lang_path / family.prefix / "codes" / code.name / "index.html").read_text(encoding="utf-8")
            navigation = text[text.index("md-sidebar--primary"):text.index("md-sidebar--secondary")]
            linked = [c.name for f in catalog.families for c in f.codes if f"codes/{c.name}/" in navigation]
            assert not linked, (family.id, lang_path, linked)
            # its list is marked as where the page belongs
            assert re.search(r'md-nav__item--active">\s*<a href="\.\./?"', navigation), (family.id, lang_path)


CJK = re.compile(r"[\u3400-\u9fff\uff00-\uffef\u3000-\u303f]")


@pytest.mark.slow
def test_english_pages_have_english_chrome(catalog, served):
    """Outside the article, an English page holds no Chinese but the language switch's name
    of Chinese, in its own language."""
    build = served[1]
    zh_name = catalog.site.language_names["zh"]
    pages = sorted((build / "en").rglob("*.html"))
    assert len(pages) > 50
    bad = {}
    for page in pages:
        text = page.read_text(encoding="utf-8")
        start, end = text.find("<article"), text.find("</article>")
        chrome = text[:start] + text[end:] if start >= 0 else text
        if page.name == "404.html":
            chrome = re.sub(r'<section class="not-found[^"]*" lang="zh".*?</section>', "", chrome, flags=re.DOTALL)
        found = set(CJK.findall(chrome.replace(zh_name, "")))
        if found:
            bad[page.relative_to(build).as_posix()] = "".join(sorted(found))[:40]
    assert not bad, list(bad.items())[:5]


def english_only_words(catalog) -> dict[str, set[str]]:
    """Hyphenated English words of the texts (re-established, data-plane) that no zh text and no
    code's name holds, each with the en pages of the codes whose English texts hold it: words
    the zh pages' own index cannot find, and that are no lower-case word of one piece (which a
    zh page always searched in the en index)."""
    zh_texts = " ".join(e.text.lower() for f in catalog.families for c in f.codes for _, entries in c.texts
                        for e in entries if e.lang == "zh" and e.text).lower()
    names = " ".join(n.lower() for f in catalog.families for c in f.codes for n in (*c.python_names, *c.c_names))
    found: dict[str, set[str]] = {}
    for family in catalog.families:
        for code in family.codes:
            for _, entries in code.texts:
                for entry in entries:
                    if entry.lang != "en" or not entry.text:
                        continue
                    for word in re.findall(r"(?<![\w-])[A-Za-z]+(?:-[A-Za-z]+)+(?![\w-])", entry.text):
                        if word.lower() not in zh_texts and word.lower() not in names:
                            found.setdefault(word, set()).add(code_path(family, code, "en/"))
    return found


@pytest.mark.slow
@pytest.mark.browser
def test_a_zh_search_for_english_only_words_finds_the_english_texts_labelled(catalog, reader):
    """The zh pages fall back to the English texts, as the en pages fall back to the zh ones: a
    word that only English texts hold finds their codes' en pages, each result saying it is
    English; and a Han word only zh texts hold still finds the zh pages from the en pages."""
    words = english_only_words(catalog)
    assert words, "the catalog's English texts hold no hyphenated word the zh texts lack"
    label = catalog.site.label("search_in_language", "zh").format(language=catalog.site.language_names["en"])
    failures = []
    for word in sorted(words)[:3]:
        found = results(reader, "", word)
        if not (words[word] <= set(paths(found)) and found and all(label in item["text"] for item in found)):
            failures.append((word, sorted(words[word]), [(i["path"], i["text"][-30:]) for i in found[:3]]))
    assert not failures, failures
