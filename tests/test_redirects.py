"""Addresses readers type (README, "The site"): a code's C name and any name in lower case, and an
edition id that became an alias, land on the page, in both languages and every family; a
missing page answers in its address's language.

The redirects are made where the site is served, by its 404 page (nothing is committed under
site/docs/ for them: a stub llm_timeout/ beside LLM_TIMEOUT/ would collide on a file system
that ignores case). The browser tests run the site as GitHub Pages serves it (a static server
that answers every missing address with the site's root 404.html) and under `mkdocs serve`.
"""
from __future__ import annotations

import functools
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from generator.reading.load import load_catalog
from generator.rendering.site.theme import moved_pages, redirect_pages, release_anchor, value_forms
from tests.support.helpers import MINI, ROOT, run_cli
from tests.support.samples import sample_codes
from tests.support.site_build import build_site, shared_site

DOCS = ROOT / "site" / "docs"
SUPERSEDED = "      superseded: [{edition: unreleased-new, commit: 0123456789abcdef0123456789abcdef01234567}]\n"


def mini_with_an_alias(tmp_path: Path) -> Path:
    """The mini catalog, whose 2.0 release took over the branch head's edition unreleased-new
    (an id once published, now an alias of 2.0-new)."""
    text = MINI.read_text(encoding="utf-8")
    anchor = "    - version: '2.0-new'\n"
    assert anchor in text
    path = tmp_path / "catalog.yaml"
    path.write_text(text.replace(anchor, anchor + SUPERSEDED), encoding="utf-8")
    return path


# -- the table of moved addresses ------------------------------------------------------------------


def test_every_name_of_every_code_is_moved_to_its_page(catalog):
    moved = moved_pages(catalog)
    for family in catalog.families:
        for code in family.codes:
            page = f"{family.prefix}codes/{code.name}"
            names = {
                code.name,
                code.python_name,
                code.c_name,
                (family.c.macro_prefix + code.c_name) if code.c_name else None,
            }
            for name in filter(None, names):
                key = f"{family.prefix}codes/{name}".lower()
                assert moved.get(key, key) == page or key == page, (key, moved.get(key), page)
        for edition in family.editions:
            key = f"{family.prefix}editions/{edition.id}".lower()
            assert moved.get(key, key) == f"{family.prefix}editions/{edition.id}"
        for alias, _ in family.aliases:  # the catalog's own (HIXL's 9.0.0-beta.2-cs)
            assert (
                moved[f"{family.prefix}editions/{alias}".lower()]
                == f"{family.prefix}editions/{family.edition(alias).id}"
            )
    pages = {f"{f.prefix}codes/{c.name}" for f in catalog.families for c in f.codes} | \
        {f"{f.prefix}editions/{e.id}" for f in catalog.families for e in f.editions} | \
        {f"{f.prefix}codes/{c.id}" for f in catalog.message_families for c in f.codes}
    for messages in catalog.message_families:  # a family of messages: its ids in lower case too
        assert all(moved[f"{messages.prefix}codes/{c.id}".lower()] == f"{messages.prefix}codes/{c.id}"
                   for c in messages.codes)
    assert all(key == key.lower() and target in pages for key, target in moved.items())
    # the codes the contract and the issue name
    llm = catalog.family_by_id["llm_datadist"]
    by_c = {code.c_name: code.name for code in llm.codes if code.c_name}
    assert (
        moved["codes/llm_wait_proc_timeout"]
        == f"codes/{by_c['LLM_WAIT_PROC_TIMEOUT']}"
        != "codes/LLM_WAIT_PROC_TIMEOUT"
    )
    assert moved["codes/llm_seq_len_over_limit"] == f"codes/{by_c['LLM_SEQ_LEN_OVER_LIMIT']}"
    assert moved["codes/llm_timeout"] == "codes/LLM_TIMEOUT"


def test_a_page_keeps_its_own_name_when_another_code_has_it_as_a_c_name(mini):
    from dataclasses import replace

    family = mini.families[0]
    busy, ok = family.code_by_name["DEMO_BUSY"], family.code_by_name["DEMO_OK"]
    # DEMO_OK's C name made the own name of DEMO_BUSY: the page DEMO_BUSY keeps its address
    codes = tuple(replace(c, c_name="DEMO_BUSY") if c is ok else c for c in family.codes)
    catalog = replace(mini, families=(replace(family, codes=codes),))
    moved = moved_pages(catalog)
    assert "codes/demo_busy" not in moved or moved["codes/demo_busy"] == f"codes/{busy.name}"
    assert moved.get("codes/demo_busy_c") == "codes/DEMO_BUSY"


def test_an_edition_id_that_became_an_alias_is_moved(tmp_path):
    catalog = load_catalog(mini_with_an_alias(tmp_path))
    family = catalog.families[0]
    assert dict(family.aliases) and "unreleased-new" not in family.edition_by_id
    target = family.edition("unreleased-new").id
    assert moved_pages(catalog)["editions/unreleased-new"] == f"editions/{target}"


def test_the_404_page_holds_the_table_and_nothing_is_committed_for_it(catalog):
    page = (ROOT / "site" / "overrides" / "404.html").read_text(encoding="utf-8")
    table = json.loads(re.search(r"var moved = (\{.*?\});\n", page).group(1))
    assert table == moved_pages(catalog) and table
    committed = [p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*")]
    for key in (key for key, target in table.items() if key != target):  # an address that is no page's own
        stubs = [p for p in committed if p == key or p.startswith((key + "/", key + "."))]
        assert not stubs, (key, stubs)
    # no two committed paths differ only in case (they collide where case is ignored)
    lowered = {}
    for path in committed:
        assert lowered.setdefault(path.lower(), path) == path, (path, lowered[path.lower()])


# -- the redirect pages the build writes ------------------------------------------------------------------


def test_every_other_address_of_a_page_is_a_redirect_page_unless_only_case_tells_it_apart(catalog):
    redirects = redirect_pages(catalog)
    pages = {f"{f.prefix}codes/{c.name}" for f in catalog.families for c in f.codes} | \
        {f"{f.prefix}editions/{e.id}" for f in catalog.families for e in f.editions}
    lowered = {p.lower() for p in pages}
    assert len({k.lower() for k in redirects}) == len(redirects) and not {k.lower() for k in redirects} & lowered
    for family in catalog.families:
        for code in family.codes:
            target = f"{family.prefix}codes/{code.name}"
            typed = [*code.c_names, *(family.c.macro_prefix + c for c in code.c_names), *code.python_names,
                     *value_forms(code.value), code.hex]  # code.hex: the value as the pages show it
            for name in typed:
                path = f"{family.prefix}codes/{name}"
                assert redirects.get(path) == target or path.lower() in lowered, (path, target)
        editions = (ROOT / "site" / "docs" / family.prefix / "editions" / "index.en.md").read_text(encoding="utf-8")
        for release in {e.release for e in family.editions} - {e.id for e in family.editions}:
            line = f"{family.prefix}editions/#{release_anchor(release)}"
            assert redirects[f"{family.prefix}editions/{release}"] == line
            assert f'id="{release_anchor(release)}"' in editions, release
    llm = catalog.family_by_id["llm_datadist"]
    timeout = llm.code_by_name["LLM_TIMEOUT"]
    assert redirects["codes/0x5010B01A"] == redirects["codes/1343270938"] == "codes/LLM_TIMEOUT" == \
        f"codes/{timeout.name}" and timeout.value == 0x5010B01A
    assert redirects["codes/0x0007BCAD"] == redirects["codes/0x7BCAD"] == "codes/LLM_DEVICE_MEM_ERROR"  # as shown
    assert redirects["codes/5010B01A"] == "codes/LLM_TIMEOUT"  # hex without 0x, as the search reads it
    assert moved_pages(catalog)["codes/0x5010b01a"] == "codes/LLM_TIMEOUT"  # another case: the 404 page's
    # a binding constant's name, as status.py and the pybind module write it, leads to its code too
    wrapped = [c for f in catalog.families for c in f.codes if c.wrapper and c.wrapper not in c.python_names]
    assert wrapped and all(redirects[f"codes/{c.wrapper}"] == f"codes/{c.name}" for c in wrapped
                           if c in llm.codes), wrapped


def serve_plain(directory: Path, sub_path: str):
    """A static server that knows no 404 page (python -m http.server): (server, base URL)."""
    from http.server import SimpleHTTPRequestHandler

    from tests.support.browser import QuietServer

    class Plain(SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    httpd = QuietServer(("127.0.0.1", 0), functools.partial(Plain, directory=str(directory)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}{sub_path}"


@pytest.mark.slow
@pytest.mark.browser
def test_typed_addresses_land_on_a_plain_static_server(catalog, chromium, tmp_path_factory):
    """C names, C macros, values, aliases and releases need no 404 page: the build wrote them."""
    from tests.support.browser import SUB_PATH, Visit

    httpd, base = serve_plain(shared_site(tmp_path_factory), SUB_PATH)
    llm, hixl = catalog.family_by_id["llm_datadist"], catalog.family_by_id["hixl"]
    by_c = {code.c_name: code.name for code in llm.codes if code.c_name}
    timeout = hixl.code_by_name["TIMEOUT"]
    cases = [("codes/LLM_WAIT_PROC_TIMEOUT/", f"codes/{by_c['LLM_WAIT_PROC_TIMEOUT']}/"),
             ("codes/0x5010B01A/?release=9.0.0", "codes/LLM_TIMEOUT/?release=9.0.0"),
             ("en/codes/1343270938/#history", "en/codes/LLM_TIMEOUT/#history"),
             (f"hixl/codes/HIXL_{timeout.name}/", f"hixl/codes/{timeout.name}/"),
             (f"en/hixl/codes/{timeout.value}/", f"en/hixl/codes/{timeout.name}/"),
             ("editions/9.0.0/", f"editions/#{release_anchor('9.0.0')}")]
    cases += [(f"{f.prefix}editions/{alias}/", f"{f.prefix}editions/{f.edition(alias).id}/")
              for f in catalog.families for alias, _ in f.aliases]
    try:
        visit = Visit(chromium, base)
        failures = [f for typed, page in cases for f in lands(visit, typed, page)]
        missing = visit.page.goto(base + "codes/llm_timeout/")  # another case: only a 404 page sends it on
        outside = visit.outside()
        visit.close()
        assert not failures and not outside, (failures, outside)
        assert missing.status == 404
    finally:
        httpd.shutdown()
        httpd.server_close()


# -- where the site is served --------------------------------------------------------------------------


def serve_static(directory: Path, sub_path: str):
    """A static server of `directory` answering every missing address with the root 404.html
    under `sub_path`, as GitHub Pages does; (server, base URL)."""
    from tests.support.browser import QuietServer, SiteHandler

    class GitHubPages(SiteHandler):
        one_404 = True

    httpd = QuietServer(("127.0.0.1", 0), functools.partial(GitHubPages, directory=str(directory)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}{sub_path}"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def github_pages(tmp_path_factory):
    from tests.support.browser import SUB_PATH

    httpd, base = serve_static(shared_site(tmp_path_factory), SUB_PATH)
    yield base
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def mkdocs_serve():
    """`mkdocs serve` of the committed site (it answers every missing address with the root 404.html)."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "SITE_URL"}
    env["NO_MKDOCS_2_WARNING"] = "1"
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "serve",
            "--config-file",
            str(ROOT / "site" / "mkdocs.yml"),
            "--dev-addr",
            f"127.0.0.1:{port}",
            "--no-livereload",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and server.poll() is None:
        try:
            with urllib.request.urlopen(base, timeout=5) as response:
                if response.status == 200:
                    break
        except OSError:
            time.sleep(0.5)
    else:
        server.kill()
        pytest.fail("mkdocs serve did not come up:\n" + (server.communicate()[0] or "")[-3000:])
    yield base
    server.terminate()
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


@pytest.fixture(params=["github-pages", "mkdocs-serve"])
def host(request):
    """The base URL of the site, served as GitHub Pages serves it, or by `mkdocs serve`."""
    return request.getfixturevalue("github_pages" if request.param == "github-pages" else "mkdocs_serve")


@pytest.fixture
def reader(chromium, host):
    from tests.support.browser import Visit

    visit = Visit(chromium, host)
    yield visit
    outside = visit.outside()
    visit.close()
    assert not outside, outside


def lands(reader, typed: str, page: str) -> list:
    """Go to `typed`; [] when the browser ends on `page` (and the typed address was a 404, or a
    redirect page the build wrote: never a page of its own), else what happened instead."""
    response = reader.page.goto(reader.site + typed, wait_until="commit")
    try:
        reader.page.wait_for_url(reader.site + page, timeout=10_000)
        reader.page.wait_for_load_state("load")
    except Exception:  # noqa: BLE001 - reported as the test's failure
        return [(typed, reader.page.url, page)]
    # a redirect page answers 200 and sends the reader on; a page of the site would stay
    redirect = response.status == 200 and typed != page
    return [] if response.status == 404 or redirect else [(typed, "answered", response.status)]


def typed_addresses(catalog) -> list[tuple[str, str]]:
    """(typed, page) within a language, for every family: each code's other names (C name, C
    macro), a name in lower case, an edition id in another case with a fragment."""
    pairs = []
    for family in catalog.families:
        for code in sample_codes(family):  # (every code's names: test_every_name_of_every_code_is_moved_to_its_page)
            page = f"{family.prefix}codes/{code.name}/"
            others = {code.c_name, family.c.macro_prefix + code.c_name if code.c_name else None} - {None, code.name}
            pairs += [(f"{family.prefix}codes/{name}/", page) for name in sorted(others)]
        first = family.codes[0]
        pairs.append((f"{family.prefix}codes/{first.name.lower()}/", f"{family.prefix}codes/{first.name}/"))
        edition = family.editions[-1]
        slug = family.code_by_name[edition.rows[0].code].slug
        pairs.append(
            (f"{family.prefix}editions/{edition.id.upper()}/#{slug}", f"{family.prefix}editions/{edition.id}/#{slug}")
        )
        # an edition id that became an alias (HIXL's 9.0.0-beta.2-cs, now 9.0.0-cs)
        pairs += [(f"{family.prefix}editions/{alias}/", f"{family.prefix}editions/{family.edition(alias).id}/")
                  for alias, _ in family.aliases]
    return pairs


@pytest.mark.slow
@pytest.mark.browser
def test_the_addresses_the_issue_names_land_on_their_page(catalog, reader):
    llm = catalog.family_by_id["llm_datadist"]
    by_c = {code.c_name: code.name for code in llm.codes if code.c_name}
    failures = lands(reader, "codes/LLM_WAIT_PROC_TIMEOUT/", f"codes/{by_c['LLM_WAIT_PROC_TIMEOUT']}/")
    failures += lands(reader, "codes/llm_timeout/", "codes/LLM_TIMEOUT/")
    failures += lands(reader, "en/codes/LLM_SEQ_LEN_OVER_LIMIT/", f"en/codes/{by_c['LLM_SEQ_LEN_OVER_LIMIT']}/")
    assert not failures, failures
    assert reader.page.evaluate("document.documentElement.lang") == "en"
    assert reader.page.locator("h1").first.text_content().startswith(by_c["LLM_SEQ_LEN_OVER_LIMIT"])


@pytest.mark.slow
@pytest.mark.browser
def test_every_family_in_both_languages(catalog, chromium, github_pages):
    """As GitHub Pages serves the site (mkdocs serve answers the same 404 page: the addresses the
    issue names are typed there too, above)."""
    from tests.support.browser import Visit

    reader = Visit(chromium, github_pages)
    failures = []
    for lang in catalog.site.languages:
        prefix = "" if lang == catalog.site.languages[0] else f"{lang}/"
        for typed, page in typed_addresses(catalog):
            failures += lands(reader, prefix + typed, prefix + page)
    outside = reader.outside()
    reader.close()
    assert not failures and not outside, (failures, outside)


@pytest.mark.slow
@pytest.mark.browser
def test_a_missing_page_speaks_the_language_of_its_address(catalog, reader):
    site = catalog.site
    for lang in site.languages:
        prefix = "" if lang == site.languages[0] else f"{lang}/"
        typed = reader.site + prefix + "codes/NO_SUCH_CODE/"
        response = reader.page.goto(typed)
        assert response.status == 404
        reader.page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
        reader.page.wait_for_load_state("load")
        assert reader.page.url == typed  # the address the reader typed stays in the address bar
        topic = reader.page.locator(".md-header__topic .md-ellipsis").first.text_content().strip()
        assert topic == site.name[lang], topic
        palette = reader.page.locator("form[data-md-component=palette] label").first.get_attribute("title")
        assert palette in {site.label(f"palette_{key}", lang) for key in ("auto", "light", "dark")}, palette
        first = reader.page.locator(".not-found-list section").evaluate_all(
            "sections => sections.map(s => [s.lang, s.getBoundingClientRect().top]).sort((a, b) => a[1] - b[1])[0][0]")
        assert first == lang


@pytest.mark.slow
@pytest.mark.browser
def test_an_edition_alias_lands_on_the_edition_that_holds_its_version(tmp_path, chromium):
    from tests.support.browser import SUB_PATH, Visit

    catalog_file = mini_with_an_alias(tmp_path)
    out = tmp_path / "out"
    result = run_cli("generate", "--catalog", catalog_file, "--out", out)
    assert result.code == 0, result.err
    family = load_catalog(catalog_file).families[0]
    target = family.edition("unreleased-new").id
    served = tmp_path / "served"
    httpd, base = serve_static(served, SUB_PATH)  # the handler answers missing addresses under SUB_PATH
    try:
        build_site(out / "site", served / SUB_PATH.strip("/"), site_url=base)
        visit = Visit(chromium, base)
        failures = []
        for prefix in ("", "en/"):
            failures += lands(visit, f"{prefix}editions/unreleased-new/", f"{prefix}editions/{target}/")
            failures += lands(visit, f"{prefix}codes/DEMO_BUSY_C/", f"{prefix}codes/DEMO_BUSY/")
        outside = visit.outside()
        visit.close()
        assert not failures and not outside, (failures, outside)
    finally:
        httpd.shutdown()
        httpd.server_close()
