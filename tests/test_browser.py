"""The built site as its readers use it, in headless Chromium (Debian's), driven by Playwright.

The committed site is built once (tests/support/site_build.py) for the address it is then served
at: a local http.server on 127.0.0.1, under the sub-path /llm/, as a site published at
https://example.org/llm/ would be (SITE_URL). Every request any page makes is recorded,
and one that leaves 127.0.0.1 fails the test that made it.

Expectations come from the catalog, not from today's pages: which codes hold a word,
which cells a picture must have. `make test` installs Chromium first
(scripts/ensure-browser); these tests fail, never skip, when it is missing.

Screenshots (both widths, both colour schemes, each kind of page) go to $SCREENSHOT_DIR,
by default tests/.artifacts/screenshots/ (git-ignored).
"""
from __future__ import annotations

import re

import pytest
import snowballstemmer
from playwright.sync_api import expect

from generator.domain.markup import markdown_plain as plain
from generator.domain.messages import MessageFamily
from tests.support.samples import sample_codes, sample_editions
from tests.support.browser import (MEASURE_TABLES, MEASURE_WRAPS, SCREENSHOTS, SUB_PATH, WIDTHS, SiteHandler, Visit,
                                   lang_prefix, search)

pytestmark = [pytest.mark.slow, pytest.mark.browser]
PORTER = snowballstemmer.stemmer("porter")


# -- what the catalog says ------------------------------------------------------------------------------


def code_pages(catalog, lang: str) -> dict[str, tuple]:
    """Every code page's path within the site -> (family, code): a family of messages' too."""
    pages = {f"{lang_prefix(catalog, lang)}{family.prefix}codes/{code.name}/": (family, code)
             for family in catalog.families for code in family.codes}
    pages.update({f"{lang_prefix(catalog, lang)}{family.prefix}codes/{code.id}/": (family, code)
                  for family in catalog.message_families for code in family.codes})
    return pages


def names_of(family, code) -> list[str]:
    if isinstance(family, MessageFamily):
        return [code.id]
    names = [code.python_name, code.c_name, (family.c.macro_prefix + code.c_name) if code.c_name else None]
    return [n for n in names + [n.name for n in code.cpp] if n]


def texts_of(family, code, lang: str) -> list[str]:
    """The code's meanings, causes and solutions in `lang`, in every edition that lists it (a
    message's: its template, meanings, cause and solution, as its page shows them)."""
    if isinstance(family, MessageFamily):
        shown = lang if lang in family.languages else family.languages[0]
        return [plain(t) for t in (code.template or code.category, *code.meanings_in(shown), code.cause_in(shown),
                                   code.solution_in(shown)) if t]
    texts = []
    for edition in family.editions_listing(code):
        for field in edition.page.text_fields:
            text = code.text(field, edition.id, lang)
            if text:
                texts.append(text)
    return texts


def holds(text: str, query: str) -> bool:
    """Whether a text holds the query or its stem. An English word: a word of the text with
    the same Porter stem, or that begins with that stem (of four letters or more) or with the
    word itself; anything else (Chinese, a name, a number) as written."""
    lower, word = text.lower(), query.lower()
    if not re.fullmatch(r"[a-z]+", word):
        return word in lower
    stem = PORTER.stemWord(word)
    return any(PORTER.stemWord(w) == stem or (len(stem) >= 4 and w.startswith(stem)) or w.startswith(word)
               for w in re.findall(r"[a-z]+", lower))


def value_of(query: str):
    if re.fullmatch(r"[-+]?\d+", query):
        return int(query)
    if re.fullmatch(r"(0x)?[0-9a-fA-F]+", query) and (query.lower().startswith("0x") or re.search(r"[a-fA-F]", query)):
        return int(query, 16)
    return None


def expected_codes(catalog, lang: str, query: str) -> set[str]:
    """The code pages a query must find first: by value, by a name that holds it, or by a
    text (meaning, cause, solution) that holds it."""
    value = value_of(query)
    found = set()
    for path, (family, code) in code_pages(catalog, lang).items():
        if value is not None:
            if getattr(code, "value", None) == value:
                found.add(path)
        elif any(query.lower() in n.lower() for n in names_of(family, code)) or \
                any(holds(t, query) for t in texts_of(family, code, lang)):
            found.add(path)
    return found


# -- searching ----------------------------------------------------------------------------------------


ENGLISH = ["memory", "retry", "clusters", "logs", "duplicate", "established", "reserved", "recoverable"]
NAMES = ["LINK_BUSY", "BUSY", "WAIT_PROC", "SEQ_LEN", "OUT_OF_MEMORY", "5010B01A", "0x7BCAD", "-1"]
CHINESE = ["重试", "未释放", "内存不足", "不支持"]
QUERIES = [("en", q) for q in ENGLISH + NAMES] + [("zh", q) for q in NAMES + CHINESE]


@pytest.mark.parametrize("lang", sorted({lang for lang, _ in QUERIES}))
def test_search_finds_the_right_code_first(catalog, visit, lang):
    """For each query, typed in turn into one page's search box: the first result is a code
    whose name, meaning or solution holds the query (or its stem); every such code is found,
    before any other page; and only pages of the language."""
    v = visit()
    default, others = catalog.site.languages[0], catalog.site.languages[1:]
    failures = []
    for number, query in enumerate(q for language, q in QUERIES if language == lang):
        expected = expected_codes(catalog, lang, query)
        assert expected, f"the catalog has no {lang} code that holds {query!r}: a wrong expectation"
        results, announced = search(v, lang_prefix(catalog, lang), query, everything=True, again=number > 0)
        if not results or announced != len(results):
            failures.append((query, "announced", announced, results))
        elif results[0] not in expected or set(results[:len(expected)]) != expected:
            failures.append((query, results[:len(expected)], sorted(expected)))
        elif lang == default and [r for r in results if r.startswith(tuple(f"{o}/" for o in others))]:
            failures.append((query, "another language", results))
        elif lang != default and not all(r.startswith(f"{lang}/") for r in results):
            failures.append((query, "another language", results))
    assert not failures, failures


def test_a_paste_without_a_key_searches(catalog, visit):
    """A log line pasted from the context menu (an input event, no key) is searched at once."""
    v = visit()
    v.goto(lang_prefix(catalog, "en"))
    v.page.locator('.md-header label[for="__search"]:visible, input.md-search__input:visible').first.click()
    v.page.locator("input.md-search__input").evaluate("""box => {
        box.value = "transfer failed, ret:103901"
        box.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertFromPaste" }))
    }""")
    first = v.page.locator(".md-search-result__item > a").first
    expect(first).to_have_attribute("href", re.compile(r"/hixl/codes/TIMEOUT/"))


def test_nothing_found_is_counted_as_none(catalog, visit):
    """The card that says nothing was found (with the nearest codes) is not "1 matching document"."""
    v = visit()
    results, _ = search(v, lang_prefix(catalog, "en"), "qqqzzz")
    assert results  # the card and its advice stay
    expect(v.page.locator(".md-search-result__item .search-nothing")).to_have_count(1)
    none = v.page.evaluate("JSON.parse(document.getElementById('__config').textContent).translations"
                           "['search.result.none']")
    # (waited for: the count line is set as the list is drawn, and the page's script corrects it then)
    expect(v.page.locator(".md-search-result__meta")).to_have_text(none)


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_the_home_page_has_no_empty_heading_and_says_how_to_search_on_a_phone(catalog, visit, width):
    """Every heading of the home page has something under it before the next heading of its level
    or higher; where the search box is an icon (a phone), the lookup text says to tap it."""
    v = visit(width)
    for lang in catalog.site.languages:
        v.goto(lang_prefix(catalog, lang))
        empty = v.page.evaluate("""() => [...document.querySelectorAll("article h2, article h3")].filter(h => {
            const next = h.nextElementSibling
            return !next || (/^H[1-6]$/.test(next.tagName) && next.tagName <= h.tagName)
        }).map(h => h.textContent)""")
        assert empty == [], (lang, width, empty)
        box_shown = v.page.locator("input.md-search__input").is_visible()
        lookup = v.page.locator("#lookup + p").inner_text()
        assert box_shown or re.search("icon|图标", lookup), (lang, width, lookup)


def test_the_worker_stems_as_porter_does(catalog, visit, site):
    """The worker's English stemmer agrees with the Porter stemmer on every word of the catalog."""
    words = set()
    for family in catalog.families:
        for code in family.codes:
            for text in texts_of(family, code, "en"):
                words.update(re.findall(r"[a-z]+", text.lower()))
    words.update(ENGLISH + ["caresses", "ponies", "agreed", "hopping", "filing", "happy", "sky", "generalizations",
                            "oscillators", "controlling", "rational", "electrical", "adjustable", "toy", "saying"])
    v = visit()
    v.goto("")
    stems = v.page.evaluate("""async ([url, words]) => {
        const source = await (await fetch(url)).text()
        const load = new Function("self", "addEventListener", "postMessage", source + "\\nreturn stem")
        const stem = load({ location: { href: url + "?lang=en" } }, () => {}, () => {})
        return Object.fromEntries(words.map(w => [w, stem(w)]))
    }""", [site + "assets/javascripts/search-worker.js", sorted(words)])
    wrong = {w: (s, PORTER.stemWord(w)) for w, s in stems.items() if s != PORTER.stemWord(w)}
    assert len(stems) > 100 and not wrong, wrong


# -- reading: tables at both widths ---------------------------------------------------------------------

EDITION_COLUMNS = """() => {
  const th = document.querySelector("table.edition-table th.col-recoverable")
  const box = th.getBoundingClientRect()
  const cells = [...document.querySelectorAll("table.edition-table td.col-recoverable")].map(td => {
    const r = td.getBoundingClientRect()
    return { text: td.innerText, left: r.left, right: r.right, width: r.width, height: r.height,
             label: getComputedStyle(td, "::before").content, shown: getComputedStyle(td, "::before").display }
  })
  const id = document.querySelector("h1 .eid")
  return { heading: th.innerText, visible: box.width > 0 && box.height > 0 && getComputedStyle(th).display !== "none",
           left: box.left, right: box.right, viewport: document.documentElement.clientWidth, cells,
           idLines: id.getClientRects().length, id: id.textContent,
           overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth }
}"""


def _recoverable_column(m, family, edition, lang, width) -> bool:
    """At 1280 px a 是否可恢复 column with its heading, each cell under it; on a phone each card
    shows the heading beside its value. The edition's id in the title is on one line."""
    heading = edition.page.heading("recoverable", lang)
    values = [family.recoverable_label(r.recoverable, lang) for r in edition.rows]
    ok = len(m["cells"]) == len(values) and all(c["width"] > 0 and c["height"] > 0 for c in m["cells"]) \
        and all(c["text"].startswith(value) for c, value in zip(m["cells"], values))
    if width == "desktop":
        ok = ok and m["visible"] and m["heading"] == heading and m["right"] <= m["viewport"] \
            and all(m["left"] - 1 <= c["left"] and c["right"] <= m["right"] + 1 for c in m["cells"])
    else:
        ok = ok and all(c["shown"] != "none" and heading in c["label"] for c in m["cells"])
    return ok and m["idLines"] == 1 and m["id"] == edition.id and m["overflow"] <= 0


@pytest.mark.parametrize("width", WIDTHS)
def test_edition_tables_read_at_both_widths(catalog, visit, width):
    """Every text column of an edition table gets at least a fifth of the table (or rows are
    stacked), no table is wider than the screen, no word or identifier is split, and the
    是否可恢复 column shows with its heading (_recoverable_column); the edition pages of
    tests/support/samples.py, those whose content is at an extreme."""
    v = visit(width)
    figures, failures = [], []
    for lang in catalog.site.languages:
        for family in catalog.families:
            for edition in sample_editions(family):
                path = f"{lang_prefix(catalog, lang)}{family.prefix}editions/{edition.id}/"
                v.goto(path)
                measured = v.page.evaluate(MEASURE_TABLES, "table.edition-table")
                assert len(measured["tables"]) == 1, path
                table = measured["tables"][0]
                # 是否可恢复 holds one word (kept whole: the splits below), not a text that needs room
                narrow = {k: round(s, 3) for k, s in table["columns"].items() if s < 0.2 and k != "col-recoverable"}
                if narrow or measured["overflow"] > 0 or table["right"] > measured["viewport"] + 0.5:
                    failures.append((path, narrow, measured["overflow"]))
                splits = v.page.evaluate(MEASURE_WRAPS, "table.edition-table, .md-content h1, dl.edition-facts")
                if splits:
                    failures.append((path, "split", splits[:5]))
                m = v.page.evaluate(EDITION_COLUMNS)
                if not _recoverable_column(m, family, edition, lang, width):
                    failures.append((path, "recoverable column", m["heading"], m["idLines"], m["overflow"]))
                figures.append(table)
    assert not failures, failures[:10]
    record_figures(f"edition-tables-{width}", figures)


@pytest.mark.parametrize("width", WIDTHS)
def test_code_pages_lists_and_navigation_wrap_at_underscores(catalog, visit, width):
    v = visit(width)
    llm = catalog.families[0]
    paths = [lang_prefix(catalog, lang) + p for lang in catalog.site.languages
             for p in ("", "codes/", f"{llm.prefix}codes/{max(llm.codes, key=lambda c: len(c.name)).name}/",
                       f"{llm.prefix}differences/", f"{llm.prefix}differences/{llm.pages[0].id}/")]
    failures = []
    for path in paths:
        v.goto(path)
        measured = v.page.evaluate(MEASURE_TABLES, ".md-content .table-wrap table")
        for table in measured["tables"]:
            narrow = {k: round(s, 3) for k, s in table["columns"].items() if s < 0.15}
            if narrow and not table["stacked"]:
                failures.append((path, narrow))
        if measured["overflow"] > 0:
            failures.append((path, "wider than the screen", measured["overflow"]))
        places = ".md-content .table-wrap, .md-content dl, .md-content .says-list, .md-content h1"
        if width == "desktop":
            places += ", .md-sidebar--primary .md-nav__link"
        splits = v.page.evaluate(MEASURE_WRAPS, places)
        if splits:
            failures.append((path, "split", splits[:5]))
    assert not failures, failures


def record_figures(name, figures):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    lines = []
    for table in figures:
        shares = ", ".join(f"{k[4:]} {s:.0%}" for k, s in sorted(table["columns"].items()))
        layout = {"grid": "rows as grids", "block": "rows as cards", "table-row": "table"}.get(
            table["display"], table["display"]
        )
        lines.append(f"{table['width']:.0f}px, {layout}: {shares}")
    (SCREENSHOTS / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


# -- reading: the pictures of differences -----------------------------------------------------------------


def cell_state(edition, code) -> str:
    if code.name in edition.row_by_code:
        return {"yes": "yes", "no": "no", "n/a": "na", "not known": "unknown"}[
            edition.row_by_code[code.name].recoverable
        ]
    return "not-known" if code.name in edition.not_known else "absent"


CELLS = """picture => [...picture.querySelectorAll("[data-code]")].flatMap(row =>
  [...row.querySelectorAll("[data-edition], use")].map(cell => {
    if (cell.dataset.edition) return [row.dataset.code, cell.dataset.edition, cell.dataset.state]
    const svg = cell.closest("svg")  // a use of its state's symbol, at its column's x
    return [row.dataset.code, svg.dataset.ids.split(" ")[svg.dataset.x.split(" ").indexOf(cell.getAttribute("x"))],
            cell.getAttribute("href").replace("#presence-", "")]
  }))"""


def read_cells(locator) -> list[tuple[str, str, str]]:
    return [tuple(cell) for cell in locator.evaluate(CELLS)]


def test_differences_picture_has_one_cell_per_code_and_edition(catalog, visit):
    v = visit()
    for lang in catalog.site.languages:
        for family in catalog.families:
            for page in family.pages:
                codes = [c for c in family.codes if c.name_on(page) is not None]
                for timeline in page.timelines:
                    editions = family.timeline_editions(timeline)
                    if not editions:
                        continue
                    v.goto(f"{lang_prefix(catalog, lang)}{family.prefix}differences/{page.id}/{timeline.id}/")
                    shown = [c for c in codes if any(cell_state(e, c) != "absent" for e in editions)]
                    picture = v.page.locator(f"#picture-{timeline.id} ~ .presence").first
                    expect(picture).to_be_visible()
                    cells = read_cells(picture)
                    assert len(cells) == len(shown) * len(editions), (family.id, timeline.id)
                    assert {(c, e): s for c, e, s in cells} == {
                        (c.name, e.id): cell_state(e, c) for c in shown for e in editions
                    }
                    box = picture.locator("svg.presence-cells").bounding_box()
                    assert box and box["width"] >= len(editions) * 20 and box["height"] >= len(shown) * 20
                    never = [c.name for c in codes if c not in shown]
                    if never:
                        line = v.page.locator(f"#picture-{timeline.id} ~ p.never-listed").first.text_content()
                        assert all(name in line for name in never), (timeline.id, never, line)


def test_each_code_page_has_its_strip_of_the_picture(catalog, visit):
    """(The sampled codes' pages: the differences page's picture, every code's row of it, is
    checked whole by test_differences_picture_has_one_cell_per_code_and_edition.)"""
    v = visit()
    for family in catalog.families:
        for code in sample_codes(family):
            v.goto(f"{family.prefix}codes/{code.name}/")
            for page in family.pages:
                if code.name_on(page) is None:
                    continue
                editions = family.page_editions(page)
                strip = v.page.locator(f"#timeline-{page.id} + .presence")
                if all(cell_state(e, code) == "absent" for e in editions):
                    assert strip.count() == 0
                    expect(v.page.locator("p.never-listed").first).to_contain_text(page.name["zh"])
                    continue
                cells = read_cells(strip)
                assert cells == [(code.name, e.id, cell_state(e, code)) for t in page.timelines
                                 for e in family.timeline_editions(t)], (code.name, page.id)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_picture_colours_tell_states_apart(catalog, visit, scheme):
    """Each state its own colour, in the legend and in the picture's cells (its symbols) alike."""
    v = visit(scheme=scheme)
    v.goto("differences/python/v2/")
    fills = v.page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(".presence-legend li")]
        .map(li => [li.className.replace("legend-", ""), getComputedStyle(li.querySelector("rect")).fill]))""")
    assert len(fills) == 6 and len(set(fills.values())) == 6, fills
    cells = v.page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(".presence symbol")]
        .map(s => [s.id.replace("presence-", ""), getComputedStyle(s.querySelector("rect")).fill]))""")
    assert cells == fills, (cells, fills)


# -- dark mode, fonts, requests ----------------------------------------------------------------------------


def luminance(colour: str) -> float:
    r, g, b = (int(x) for x in re.findall(r"\d+", colour)[:3])
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_colour_scheme_follows_the_system_and_toggles(visit, scheme):
    v = visit(scheme=scheme)
    v.goto("codes/LLM_TIMEOUT/")
    background = lambda: luminance(v.page.evaluate("getComputedStyle(document.body).backgroundColor"))  # noqa: E731
    first = background()
    assert (first < 0.2) if scheme == "dark" else (first > 0.8), first
    # the palette toggle: follow the system -> light -> dark -> follow the system
    seen = set()
    for _ in range(3):
        v.page.locator("form[data-md-component=palette] label:visible").first.click()
        seen.add(round(background(), 1))
    assert min(seen) < 0.2 and max(seen) > 0.8, seen


def test_no_request_leaves_the_site_and_no_web_font_is_loaded(catalog, visit):
    v = visit()
    llm = catalog.families[0]
    for lang in catalog.site.languages:
        prefix = lang_prefix(catalog, lang)
        for path in ("", "codes/", "codes/LLM_TIMEOUT/", f"editions/{llm.editions[-1].id}/", "differences/",
                     "hixl/", "no-such-page/"):
            v.goto(prefix + path)
    search(v, "", "LLM_TIMEOUT", everything=True)
    assert len(v.requests) > 20 and not v.outside(), v.outside()
    fonts = [u for u in v.requests if re.search(r"\.(woff2?|ttf|otf)(\?|$)", u) or "fonts." in u]
    assert not fonts, fonts
    # the only error a page may log is the 404 of an address that has no page
    assert not [(text, url) for text, url in v.console_errors if "no-such-page" not in url], v.console_errors


# -- language switch, 404, copy buttons, permalinks ------------------------------------------------------


def switch_language(v: Visit, lang: str):
    v.page.locator(".md-header__option .md-select").hover()
    v.page.locator(f'a.md-select__link[hreflang="{lang}"]').click()
    v.page.wait_for_load_state("load")


def test_the_language_switch_keeps_the_page_and_its_fragment(catalog, visit, site):
    v = visit()
    v.goto("editions/9.0.0-v2/#llm_link_busy")
    switch_language(v, "en")
    assert v.page.url == f"{site}en/editions/9.0.0-v2/#llm_link_busy"
    expect(v.page.locator("#llm_link_busy")).to_be_in_viewport()
    v.page.locator("#llm_timeout a.row-permalink").click()  # a new fragment is kept too
    switch_language(v, "zh")
    assert v.page.url == f"{site}editions/9.0.0-v2/#llm_timeout"
    v.goto("en/")
    switch_language(v, "zh")
    assert v.page.url == site


def test_the_language_switch_keeps_the_choice_of_release_and_api(catalog, visit, site):
    """A choice made on the page (it changes the address, not the page) and one the address
    brought both reach the other language; other parameters stay behind."""
    v = visit()
    v.goto("codes/LLM_TIMEOUT/?release=9.0.0&api=cpp-v1&h=timeout#history")
    switch_language(v, "en")
    assert v.page.url == f"{site}en/codes/LLM_TIMEOUT/?release=9.0.0&api=cpp-v1#history"
    assert v.page.evaluate("[...new FormData(document.querySelector('form.edition-choice'))].join()") == \
        "release,9.0.0,api,cpp-v1"
    v.page.evaluate("""() => {
        const form = document.querySelector("form.edition-choice")
        form.elements.release.value = "9.1.0"; form.elements.api.value = "v2"
        form.dispatchEvent(new Event("change"))
    }""")
    switch_language(v, "zh")
    assert v.page.url == f"{site}codes/LLM_TIMEOUT/?release=9.1.0&api=v2#history"
    shown = v.page.locator("#answer .answer").evaluate_all("cards => cards.map(c => c.dataset.edition)")
    assert shown == ["9.1.0-v2"], shown


def test_the_language_switch_keeps_the_two_editions_compared(visit, site):
    """A differences page's pair (?old=&new=) reaches the other language: it showed that page's
    default pair instead."""
    v = visit()
    v.goto("differences/python/?old=8.5.0-v1&new=9.1.0-v1")
    switch_language(v, "en")
    assert v.page.url == f"{site}en/differences/python/?old=8.5.0-v1&new=9.1.0-v1"
    assert v.page.locator(".compare-result .compare-pair").inner_text() == "8.5.0-v1 → 9.1.0-v1"


CARDS = "cards => cards.map(c => c.dataset.edition)"


def test_a_choice_made_before_never_reaches_an_address_typed_since(visit, site):
    """A reader picks 9.0.0's cpp-v1 page on one code page, then types an address: a value's or a
    binding constant's (pages that send the reader on) or the code's own. It answers for the newest
    release, and so does the other language's page that the switch opens from it."""
    v = visit()
    v.goto("codes/LLM_TIMEOUT/")
    newest = v.page.locator("#answer .answer").evaluate_all(CARDS)
    for typed in ("codes/0x5010B01A/", "codes/kLLMTimeout/", "codes/LLM_TIMEOUT/"):
        v.goto("codes/LLM_FAILED/")
        v.page.select_option("form.edition-choice select[name=release]", "9.0.0")
        v.page.select_option("form.edition-choice select[name=api]", "cpp-v1")
        v.goto(typed)
        v.page.wait_for_url(f"{site}codes/LLM_TIMEOUT/**")
        v.page.wait_for_load_state("load")
        assert v.page.url == f"{site}codes/LLM_TIMEOUT/", typed
        assert v.page.locator("#answer .answer").evaluate_all(CARDS) == newest, typed
    switch_language(v, "en")
    assert v.page.url == f"{site}en/codes/LLM_TIMEOUT/"
    assert v.page.locator("#answer .answer").evaluate_all(CARDS) == newest


@pytest.mark.parametrize("one_404", [False, True], ids=["nearest-404", "one-404"])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_404_page_speaks_the_language_of_the_address(catalog, visit, site, lang, one_404, monkeypatch):
    """A missing page answers 404 with the site's look, in the address's language first
    (on a host that serves one 404.html for the whole site too), and links home."""
    monkeypatch.setattr(SiteHandler, "one_404", one_404)
    v = visit()
    response = v.goto(f"{lang_prefix(catalog, lang)}codes/NO_SUCH_CODE/")
    assert response.status == 404
    first = v.page.locator(".not-found-list section").evaluate_all(
        "sections => sections.map(s => [s.lang, s.getBoundingClientRect().top]).sort((a, b) => a[1] - b[1])[0][0]")
    assert first == lang
    if not one_404:
        assert v.page.evaluate("document.documentElement.lang") == lang
    assert v.page.evaluate("getComputedStyle(document.querySelector('.md-header')).position") in ("sticky", "fixed")
    v.page.locator(f'section.not-found[lang="{lang}"] a').first.click()
    v.page.wait_for_load_state("load")
    assert v.page.url == site + lang_prefix(catalog, lang)


def test_copy_buttons_copy_names_and_values(catalog, visit, site):
    v = visit()
    v.context.grant_permissions(
        ["clipboard-read", "clipboard-write"], origin=site.rstrip("/").rsplit(SUB_PATH.rstrip("/"), 1)[0]
    )
    code = catalog.families[0].code_by_name["LLM_TIMEOUT"]
    v.goto("codes/LLM_TIMEOUT/")
    buttons = v.page.locator("dl.code-facts button.copy-code")
    assert buttons.count() >= 3
    for text in (code.hex, str(code.value), code.python_name):
        button = v.page.locator(f'dl.code-facts button.copy-code[aria-label$=" {text}"]').first
        button.click()
        expect(button).to_have_class(re.compile(r"\bcopied\b"))
        assert v.page.evaluate("navigator.clipboard.readText()") == text


def test_every_row_has_a_visible_permalink(catalog, visit, site):
    v = visit()
    edition = catalog.families[0].editions[-1]
    v.goto(f"editions/{edition.id}/")
    rows = v.page.locator("table.edition-table tbody tr")
    assert rows.count() == len(edition.rows)
    pairs = rows.evaluate_all("rows => rows.map(r => [r.id, r.querySelector('a.row-permalink').getAttribute('href')])")
    slugs = [catalog.families[0].code_by_name[r.code].slug for r in edition.rows]
    assert pairs == [[slug, f"#{slug}"] for slug in slugs]
    last = rows.last
    last.hover()
    link = last.locator("a.row-permalink")
    assert float(link.evaluate("a => getComputedStyle(a).opacity")) > 0.9
    link.click()
    assert v.page.url.endswith("#" + pairs[-1][0])
    header = v.page.locator(".md-header").bounding_box()
    assert last.bounding_box()["y"] >= header["y"] + header["height"] - 1


# -- screenshots ---------------------------------------------------------------------------------------------

SHOTS = {  # kind -> (path, what to bring into view, a query for the search box)
    "home": ("", None, None),
    "edition": ("editions/9.0.0-v2/#llm_timeout", None, None),
    "code": ("en/codes/LLM_WAIT_PROCESS_TIMEOUT/", None, None),
    "differences": ("en/differences/python/v2/", "#picture-v2", None),
    "search": ("", None, "重试"),
    "404": ("en/codes/NO_SUCH_CODE/", None, None),
}


@pytest.mark.parametrize("width, scheme", [("desktop", "light"), ("phone", "dark")])
def test_screenshots(visit, width, scheme):
    """Each kind of page, at each width and in each scheme once (for a person to look at, under
    tests/.artifacts/screenshots/): the pages render and are not blank."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    v = visit(width, scheme)
    for kind, (path, into_view, query) in SHOTS.items():
        if query:
            search(v, path, query)
        else:
            v.goto(path)
        if into_view:
            v.page.locator(into_view).evaluate("e => e.scrollIntoView({block: 'start'})")
        v.page.wait_for_timeout(200)
        shot = SCREENSHOTS / f"{kind}-{width}-{scheme}.png"
        v.page.screenshot(path=str(shot))
        assert shot.stat().st_size > 5_000
