"""The browser tests' machinery: Debian's Chromium and its flags, the static server of a built
site (with the 404 pages static hosts serve), a Visit that records every request, the site's
search box, and the JavaScript that measures pages."""
from __future__ import annotations

import os
import re
import sys
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

from playwright.sync_api import expect

from tests.support.helpers import ROOT

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
SUB_PATH = "/llm/"
WIDTHS = {"phone": 390, "desktop": 1280}
HEIGHTS = {"phone": 844, "desktop": 900}
SCREENSHOTS = Path(os.environ.get("SCREENSHOT_DIR") or ROOT / "tests" / ".artifacts" / "screenshots")


# -- the served site ----------------------------------------------------------------------------------


class SiteHandler(SimpleHTTPRequestHandler):
    """Files as they are, and a 404.html for what is missing, as static hosts serve: the
    nearest one up the path (en/404.html under en/, as Cloudflare Pages does), or with
    `one_404` the site's only (GitHub Pages)."""

    one_404 = False

    def log_message(self, *args):
        pass

    def send_error(self, code, message=None, explain=None):
        if code != HTTPStatus.NOT_FOUND:
            return super().send_error(code, message, explain)
        root = Path(self.directory) / SUB_PATH.strip("/")
        parts = [p for p in unquote(urlsplit(self.path).path)[len(SUB_PATH):].split("/") if p not in ("", ".", "..")]
        nearest = [root.joinpath(*parts[:depth], "404.html") for depth in range(len(parts), 0, -1)]
        page = next((c for c in nearest if c.is_file() and not self.one_404), root / "404.html")
        if not page.is_file():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(code)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


class QuietServer(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return  # the browser dropped a request it no longer needed (a page left mid-load)
        super().handle_error(request, client_address)


class Visit:
    """A browser context at one width and colour scheme that records every request and
    refuses (and remembers) any that would leave the site's host."""

    def __init__(self, browser, site, width="desktop", scheme="light"):
        self.site, self.host = site, urlsplit(site).netloc
        self.context = browser.new_context(viewport={"width": WIDTHS[width], "height": HEIGHTS[width]},
                                           color_scheme=scheme, service_workers="block")
        self.requests: list[str] = []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.set_default_timeout(20_000)
        self.console_errors: list[tuple[str, str]] = []  # (text, url of the page)
        self.page.on("console", lambda m: m.type == "error" and self.console_errors.append((m.text, self.page.url)))

    def _route(self, route):
        url = route.request.url
        self.requests.append(url)
        if urlsplit(url).netloc == self.host or url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            route.abort()

    def outside(self) -> list[str]:
        return [u for u in self.requests if urlsplit(u).netloc != self.host and not u.startswith(("data:", "blob:"))]

    def goto(self, path: str):
        response = self.page.goto(self.site + path)
        self.page.wait_for_load_state("load")
        return response

    def close(self):
        self.context.close()


def lang_prefix(catalog, lang: str) -> str:
    return "" if lang == catalog.site.languages[0] else f"{lang}/"



def search(v: Visit, lang_path: str, query: str, everything: bool = False,
           again: bool = False) -> tuple[list[str], int]:
    """Type the query into the search box of a page; the result pages (paths within the
    site, without Material's ?h= highlight) and how many the count line announces.
    Material shows ten at a time and more as the list scrolls: `everything` scrolls to the end.
    `again`: in the box already open on the page, emptied first (until the count line is the
    placeholder again: no count of the query before is read as this one's)."""
    box = v.page.locator("input.md-search__input")
    if again:
        box.fill("")
        box.press("End")
        placeholder = v.page.evaluate(
            "JSON.parse(document.getElementById('__config').textContent).translations['search.result.placeholder']")
        v.page.wait_for_function("text => document.querySelector('.md-search-result__meta').textContent === text",
                                 arg=placeholder)
    else:
        v.goto(lang_path)
        v.page.locator('.md-header label[for="__search"]:visible, input.md-search__input:visible').first.click()
    box.fill(query)
    box.press("End")  # Material's search reacts to key events, not to fill() alone
    none = v.page.evaluate(
        "JSON.parse(document.getElementById('__config').textContent).translations['search.result.none']"
    )
    meta = v.page.wait_for_function("""none => {
        const text = document.querySelector(".md-search-result__meta").textContent
        return (/\\d/.test(text) || text === none) && text
    }""", arg=none).json_value()
    announced = int(re.search(r"\d+", meta).group()) if meta != none else 0
    items = v.page.locator(".md-search-result__item > a")
    while everything and items.count() < announced:
        # Material renders four more each time the list is scrolled to its end anew: a wheel's
        # scroll events, as a reader's (one jump to the end renders one batch and no more)
        shown = items.count()
        items.first.hover()
        for _ in range(4):
            v.page.mouse.wheel(0, 2000)
            if items.count() > shown:
                break
            v.page.wait_for_timeout(50)
        expect(items).not_to_have_count(shown)
    hrefs = items.evaluate_all("links => links.map(a => a.href)")
    return [unquote(urlsplit(h).path)[len(SUB_PATH):] for h in hrefs], announced


MEASURE_TABLES = """(selector) => {
  const out = []
  for (const table of document.querySelectorAll(selector)) {
    const width = table.getBoundingClientRect().width
    const row = table.querySelector("tbody tr")
    const display = getComputedStyle(row).display, stacked = display !== "table-row"
    const columns = {}
    for (const td of table.querySelectorAll("tbody td")) {
      const key = [...td.classList].find(c => c.startsWith("col-"))
      const share = td.getBoundingClientRect().width / width
      columns[key] = Math.min(columns[key] ?? 1, share)
    }
    out.push({ width, stacked, display, columns, right: table.getBoundingClientRect().right })
  }
  return { tables: out, overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
           viewport: document.documentElement.clientWidth }
}"""

# Every place where a line wraps inside a text node: the two characters around the break.
# A break between two letters or digits splits a word (or an identifier) and is refused.
MEASURE_WRAPS = """(selector) => {
  const splits = []
  const range = document.createRange()
  for (const root of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT)
    while (walker.nextNode()) {
      const node = walker.currentNode, text = node.nodeValue
      if (text.trim().length < 2 || !node.parentElement.getClientRects().length) continue
      let lastTop = null
      for (let i = 0; i < text.length; i++) {
        range.setStart(node, i); range.setEnd(node, i + 1)
        const rects = range.getClientRects()
        if (!rects.length) continue
        const top = rects[0].top
        if (lastTop !== null && top > lastTop + 2 && /[A-Za-z0-9]/.test(text[i - 1]) && /[A-Za-z0-9]/.test(text[i])) {
          splits.push(text.slice(Math.max(0, i - 12), i) + "|" + text.slice(i, i + 12))
        }
        lastTop = top
      }
    }
  }
  return splits
}"""


