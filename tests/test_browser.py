"""The built site in headless Chromium (Debian's), driven by Playwright, served on localhost.

`make test` installs Chromium first (scripts/ensure-browser); these tests fail,
never skip, when it is missing.
"""
import functools
import os
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import expect, sync_playwright

pytestmark = pytest.mark.browser
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server(built_site):
    handler = functools.partial(QuietHandler, directory=str(built_site))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser():
    assert os.access(CHROMIUM, os.X_OK), f"{CHROMIUM} is missing: run `make test`, which installs it"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield page
    context.close()


def test_language_switch_lands_on_the_same_code(page, server):
    page.goto(f"{server}/codes/LLM_TIMEOUT/")
    expect(page.locator("h1")).to_contain_text("LLM_TIMEOUT")
    page.locator(".md-header__option .md-select").hover()
    page.locator('a.md-select__link[hreflang="en"]').click()
    page.wait_for_url(f"{server}/en/codes/LLM_TIMEOUT/")
    expect(page.locator("article")).to_contain_text("Processing timeout")


@pytest.mark.parametrize("query,lang", [("超时", "zh"), ("LLM_TIMEOUT", "zh"), ("0x5010B01A", "zh"),
                                        ("1343270938", "en")])
def test_search_lists_the_code_page(page, server, query, lang):
    page.goto(f"{server}/{'en/' if lang == 'en' else ''}")
    page.locator("label.md-search__icon, .md-search__input").first.click()
    box = page.locator("input.md-search__input")
    box.fill(query)
    box.press("End")  # Material's search reacts to key events, not to fill() alone
    results = page.locator(".md-search-result__item a")
    expect(results.first).to_be_visible()
    hrefs = results.evaluate_all("links => links.map(a => a.href)")
    expected = f"{server}/{'en/' if lang == 'en' else ''}codes/LLM_TIMEOUT/"
    assert any(href.split("#")[0].split("?")[0] == expected for href in hrefs), hrefs


def test_anchor_scrolls_to_the_row(page, server):
    page.goto(f"{server}/editions/9.0.0-v2/#llm_timeout")
    row = page.locator("tr:has(#llm_timeout)")
    expect(row).to_contain_text("LLM_TIMEOUT")
    page.wait_for_function("() => window.scrollY > 0")
    box = row.bounding_box()
    header = page.locator(".md-header").bounding_box()
    assert header["height"] <= box["y"] < 900, (box, header)


def test_screenshot_of_a_code_page(page, server, tmp_path):
    page.goto(f"{server}/codes/LLM_WAIT_PROCESS_TIMEOUT/")
    expect(page.locator("article")).to_contain_text("处理超时")
    shot = tmp_path / "LLM_WAIT_PROCESS_TIMEOUT.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
