"""Code pages that answer first, as readers use them in headless Chromium, and the
rules behind them that need no browser.

A reader arrives with a code and wants its meaning, whether it is recoverable and what to do,
for their release and API. The browser tests measure what that reader needs, at 1280×900 and
390×844, in zh and en, light and dark: the answer on the first screen (at scroll 0, below the
sticky header and above the viewport's bottom); the choice of release and API, kept in the
address and remembered; pictures with a legend, contrast measured from computed styles, and
nothing focusable inside an image; edition pages with upstream's 是否可恢复 column; any two
editions of a timeline compared as the generator compares them.

Expectations come from the catalog (which edition answers, its texts, which states a picture
shows), never from today's pages. Figures (fold positions, contrast ratios, Tab stops) go to
$SCREENSHOT_DIR/code-pages-*.txt, by default tests/.artifacts/screenshots/.
"""
from __future__ import annotations

import json
import re
from dataclasses import replace
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from markupsafe import Markup

from generator.reading.load import load_catalog
from generator.domain.model import Localized
from generator.domain.queries import default_edition, release_edition
from generator.domain import changes
from generator.rendering.site import compare
from generator.rendering.site.markup import fill
from generator.rendering.site.context import Context
from generator.rendering.site.parts import json_script, text_cell
from generator.core.releases import is_final_release
from tests.support.helpers import FIXTURES, ROOT
from tests.support import comparisons
from tests.support.word_diffs import WordDiffs
from tests.support.browser import SCREENSHOTS, lang_prefix
from tests.support.samples import sample_codes



def browser_test(test):
    """Marks a test that drives Chromium (slow: it builds the site)."""
    return pytest.mark.slow(pytest.mark.browser(test))

DOCS = ROOT / "site" / "docs"
FIGURES: dict[str, list[str]] = {}


def record(name: str, line: str) -> None:
    """A figure for the report; each file is rewritten whole by the test that fills it."""
    FIGURES.setdefault(name, []).append(line)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / f"code-pages-{name}.txt").write_text("\n".join(FIGURES[name]) + "\n", encoding="utf-8")


def visible(text: str) -> str:
    """What a reader sees of a catalog text: list markers gone, white space collapsed."""
    lines = [re.sub(r"^(?:- |\d{1,9}\. )", "", line) for line in text.split("\n")]
    return re.sub(r"\s+", " ", " ".join(lines)).strip()


def squeeze(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def ever_listing_pages(family, code):
    return [p for p in family.pages if code.name_on(p) is not None
            and any(code.name in e.row_by_code or code.name in e.not_known for e in family.page_editions(p))]


# -- the rule per page, and the page's own helpers (no browser) -----------------------------------------------

DEFAULTS = FIXTURES / "defaults" / "catalog.yaml"


@pytest.fixture(scope="module")
def dflt():
    return load_catalog(DEFAULTS).family_by_id["dflt"]


# (code, page or timeline, expected edition, why): domain.queries' default rule on one page's or one copy's editions
PER_PAGE = [
    ("DFLT_MAIN", "page:py", "1.0-new", "the default timeline's final release, as without a page"),
    ("DFLT_MAIN", "timeline:old", "3.0-old", "on the other copy alone, its newest final release"),
    ("DFLT_CPP_TIMELINES", "page:py", None, "the Python page does not list it"),
    ("DFLT_CPP_TIMELINES", "page:cpp", "2.0-cpp2", "of one release, the C++ copy declared last"),
    ("DFLT_CPP_TIMELINES", "timeline:cpp", "2.0-cpp", "that copy's own edition"),
    ("DFLT_CPP_TIMELINES", "page:dep", "2.0-dep", "the deprecated page's own answer"),
    ("DFLT_NEWEST_CPP", "page:cpp", "1.0-cpp2", "the C++ page's newest final release; its pre-release never"),
    ("DFLT_PRE", "page:py", "3.0-beta.1-new", "a pre-release of the default page"),
    ("DFLT_PRE", "page:cpp", "2.0-cpp", "the C++ page's final release"),
    ("DFLT_CPP_PRE_ONLY", "page:cpp", None, "a pre-release of another page never"),
    ("DFLT_PUBLISHED", "timeline:new", "2.0-new", "the published edition before its -repo copy"),
    ("DFLT_UNRELEASED", "timeline:new", None, "unreleased editions never"),
]


def _within(family, spec):
    kind, ident = spec.split(":")
    return {"page": family.page_by_id[ident]} if kind == "page" else {"timeline": family.timeline_by_id[ident]}


@pytest.mark.parametrize("name,within,expected,why", PER_PAGE, ids=[f"{n}-{w}" for n, w, _, _ in PER_PAGE])
def test_the_default_rule_on_one_page_or_copy(dflt, name, within, expected, why):
    edition = default_edition(dflt, dflt.code_by_name[name], **_within(dflt, within))
    assert (edition.id if edition else None) == expected, why


# (code, release, page or timeline, expected, why)
PER_RELEASE = [
    ("DFLT_PUBLISHED", "2.0", "timeline:new", "2.0-new", "the published edition before its -repo copy"),
    ("DFLT_MAIN", "2.0", "page:py", "2.0-old", "an edition that lists the code before one that does not"),
    ("DFLT_MAIN", "2.0", "timeline:new", "2.0-new", "the copy's edition, though it does not list the code"),
    ("DFLT_CPP_TIMELINES", "2.0", "page:cpp", "2.0-cpp2", "of two that list it, the copy declared last"),
    ("DFLT_MAIN", "1.0", "page:dep", None, "no edition of that page in that release"),
    ("DFLT_UNRELEASED", "unreleased", "timeline:new", "unreleased-new", "a reader may ask for the unreleased edition"),
]


@pytest.mark.parametrize(
    "name,release,within,expected,why", PER_RELEASE, ids=[f"{n}-{r}-{w}" for n, r, w, _, _ in PER_RELEASE]
)
def test_a_chosen_release_answers_from_its_own_edition(dflt, name, release, within, expected, why):
    edition = release_edition(dflt, dflt.code_by_name[name], release, **_within(dflt, within))
    assert (edition.id if edition else None) == expected, why


def test_the_python_pages_answer_is_the_modules(catalog):
    """Where the default page lists a code in a released edition, its answer on the code page is
    edition=None's; a page's answer is always one of that page's editions that list the code."""
    checked = 0
    for family in catalog.families:
        page = family.page_by_id[family.python.default_page]
        for code in family.codes:
            if any(e.released for e in family.editions_listing(code, page)):
                assert default_edition(family, code, page=page) == default_edition(family, code), code.name
                checked += 1
            for other in family.pages:
                answer = default_edition(family, code, page=other)
                assert answer is None or answer in family.editions_listing(code, other), (code.name, other.id)
    assert checked


def test_page_data_cannot_end_its_script_element():
    hostile = {"t": "</script><script>alert(1)</script><!-- & \u2028"}
    html = json_script(hostile, "x")
    inner = re.fullmatch(r'<script type="application/json" id="x">(.*)</script>', html).group(1)
    assert "<" not in inner and ">" not in inner and "&" not in inner and json.loads(inner) == hostile


def test_a_labels_placeholders_are_filled_once(catalog):
    ctx = Context(catalog, "en", "codes/X/", catalog.families[0])
    filled = fill(ctx.phrases["field_value"], field=Markup("{value}"), value=Markup("<b>v</b>"))
    assert filled == "{value}: <b>v</b>"


def test_a_mark_of_whose_words_a_text_is_never_marks_a_bare_dash(catalog):
    """"(translated by this project)" on "-" says nothing: a text without a letter or a digit is
    not marked, whatever its origin; a text with words is."""
    ctx = Context(catalog, "en", "codes/X/", catalog.families[0])
    for origin in ("translation", "untranslated", "proposed"):
        assert "class=\"translation" not in text_cell(ctx, "-", origin), origin
        assert "class=\"translation" not in text_cell(ctx, " — ", origin), origin
        assert "class=\"translation" in text_cell(ctx, "Try again.", origin), origin
    assert "class=\"translation" not in text_cell(ctx, "Try again.", "upstream")
    pages = [p for p in (ROOT / "site" / "docs").rglob("*.md")
             if re.search(r"<p>\W{0,3}</p> <span class=\"translation", p.read_text(encoding="utf-8"))]
    assert not pages, pages


@pytest.mark.parametrize("before,after,same", [
    ("重启机器或容器；\n保留现场", "重启机器或容器。\n保留现场", True),
    ("- 同时调用unlink和 pull_cache。", "同时调用unlink和pull_cache。", True),
    ("集群数量超过限制", "集群数量超过限制。", True),
    ("Excessive clusters", "Too many clusters", False),
    ("uncorrect error", "incorrect error", False),
    ("重启机器；再试", "重启机器。再试", True),  # full-width and ASCII punctuation are alike
    ("检查参数，重试", "检查参数,重试", True),
    ("（见日志）", "(见日志)", True),
    ("重启机器", "重启容器", False),
])
def test_punctuation_alone_is_told_from_a_change_of_words(before, after, same):
    assert compare.punctuation_only(before, after) is same


def _pairs_with_word_diffs(text: str) -> set[tuple[str, str]]:
    parser = WordDiffs()
    parser.feed(text)
    return set(parser.pairs)


def test_copies_of_one_release_are_compared_apart_from_the_timeline(catalog):
    """A timeline's steps pass over a -repo copy; the copy is compared with its published page,
    where the changes of punctuation alone are folded apart from the changes of words."""
    for family in catalog.families:
        copies = [e for e in family.editions if e.repo_copy]
        for lang in catalog.site.languages:
            text = (DOCS / f"{family.prefix}differences.{lang}.md").read_text(encoding="utf-8")
            for copy in copies:
                published = family.edition_by_id[copy.id[:-len("-repo")]]
                section = next(block for block in text.split("\n\n") if f'id="copy-{copy.id}"' in block)
                changes = [(code, f) for code in family.codes for f in copy.page.text_fields
                           if code.name in published.row_by_code and code.name in copy.row_by_code
                           and None not in (code.text(f, published.id, lang), code.text(f, copy.id, lang))
                           and code.text(f, published.id, lang) != code.text(f, copy.id, lang)]
                noise = [c for c in changes if compare.punctuation_only(c[0].text(c[1], published.id, lang),
                                                                        c[0].text(c[1], copy.id, lang))]
                folded = section.split("<details>", 1)[1] if "<details>" in section else ""
                assert _pairs_with_word_diffs(folded) == {(c.text(f, published.id, lang), c.text(f, copy.id, lang))
                                                          for c, f in noise}, (copy.id, lang)
                assert _pairs_with_word_diffs(section) == {(c.text(f, published.id, lang), c.text(f, copy.id, lang))
                                                          for c, f in changes}, (copy.id, lang)
            for page in family.pages:
                for timeline in page.timelines:
                    if not family.timeline_editions(timeline):
                        continue
                    steps = (DOCS / f"{family.prefix}differences/{page.id}/{timeline.id}.{lang}.md").read_text(
                        encoding="utf-8")
                    editions = [e for e in family.timeline_editions(timeline) if not e.repo_copy]
                    links = re.findall(r'href="[^"?]*\?old=([^&"]+)&amp;new=([^&"]+)"', steps)
                    assert links == list(zip([e.id for e in editions], [e.id for e in editions[1:]])), timeline.id


def test_the_code_list_says_whether_each_code_is_recoverable(catalog):
    for family in catalog.families:
        for lang in catalog.site.languages:
            text = (DOCS / f"{family.prefix}codes" / f"index.{lang}.md").read_text(encoding="utf-8")
            heading = family.page_by_id[family.python.default_page].heading("recoverable", lang)
            assert f'<th class="col-recoverable" role="columnheader">{heading}</th>' in text
            for code in family.codes:
                row = re.search(rf'<tr id="{code.slug}" role="row">(.*?)</tr>', text).group(1)
                cell = re.search(r'<td class="col-recoverable"[^>]*>(.*?)</td>', row).group(1)
                edition = default_edition(family, code)
                expected = (
                    family.recoverable_label(edition.row_by_code[code.name].recoverable, lang) if edition else "—"
                )
                assert re.sub(r"<[^>]+>", "", cell).startswith(expected), (code.name, lang, cell)


# -- the answer on the first screen --------------------------------------------------------------------------------

# The first line of each of a card's fields: where it is, and the text of that line.
MEASURE_CARD = """(edition) => {
  const header = document.querySelector(".md-header").getBoundingClientRect().bottom
  const card = document.querySelector(`#answer .answer[data-edition="${edition}"]`)
  if (!card) return null
  const fields = []
  for (const dt of card.querySelectorAll("dl.says-body > dt")) {
    const dd = dt.nextElementSibling
    const walker = document.createTreeWalker(dd, NodeFilter.SHOW_TEXT)
    let node = null
    while (walker.nextNode()) { if (walker.currentNode.nodeValue.trim()) { node = walker.currentNode; break } }
    const range = document.createRange()
    range.setStart(node, 0); range.setEnd(node, 1)
    const first = range.getClientRects()[0]
    let end = 1  // the first line: the characters on the first character's line
    for (; end < node.nodeValue.length; end++) {
      range.setStart(node, end); range.setEnd(node, end + 1)
      const r = range.getClientRects()[0]
      if (r && r.top > first.top + 2) break
    }
    fields.push({ name: dt.textContent, text: dd.innerText, line: node.nodeValue.slice(0, end),
                  top: first.top, bottom: first.bottom, boxBottom: dd.getBoundingClientRect().bottom })
  }
  const body = card.querySelector(".says-body").getBoundingClientRect()
  return { header, viewport: window.innerHeight, scroll: window.scrollY, fields,
           body: { top: body.top, bottom: Math.min(body.bottom, body.top + 30) },
           source: card.querySelector(".answer-source").textContent }
}"""


def on_first_screen(measured, field) -> bool:
    return measured["header"] <= field["top"] and field["bottom"] <= measured["viewport"]


@browser_test
@pytest.mark.parametrize("width", ["desktop", "phone"])
@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_llm_timeout_answers_on_the_first_screen(catalog, visit, width, lang, scheme):
    """/codes/LLM_TIMEOUT/ shows the newest final release's meaning and its solution's first line
    on the first screen, for the Python page (the module's edition=None) and the others."""
    family = catalog.family_by_id["llm_datadist"]
    code = family.code_by_name["LLM_TIMEOUT"]
    python = family.page_by_id[family.python.default_page]
    answer = default_edition(family, code)
    assert answer.page is python and is_final_release(answer.release)
    v = visit(width, scheme)
    v.goto(f"{lang_prefix(catalog, lang)}codes/LLM_TIMEOUT/")
    measured = v.page.evaluate(MEASURE_CARD, answer.id)
    assert measured and measured["scroll"] == 0
    fields = {f["name"]: f for f in measured["fields"]}
    meaning, solution = fields[python.heading("meaning", lang)], fields[python.heading("solution", lang)]
    assert squeeze(meaning["text"]).startswith(visible(code.text("meaning", answer.id, lang)))
    assert (
        visible(code.text("solution", answer.id, lang)).startswith(squeeze(solution["line"]))
        and solution["line"].strip()
    )
    recoverable = fields[python.heading("recoverable", lang)]
    assert recoverable["text"].startswith(family.recoverable_label(answer.row_by_code[code.name].recoverable, lang))
    assert on_first_screen(measured, meaning) and on_first_screen(measured, solution), measured
    record("fold", f"LLM_TIMEOUT {width} {lang} {scheme}: header bottom {measured['header']:.0f}, meaning line "
                   f"{meaning['top']:.0f}–{meaning['bottom']:.0f}, solution's first line {solution['top']:.0f}–"
                   f"{solution['bottom']:.0f} (viewport {measured['viewport']}) [{answer.id}]")


@browser_test
@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_every_code_page_starts_its_first_answer_on_the_first_screen(catalog, visit, width):
    """The code pages of every family (tests/support/samples.py: those whose content is at an
    extreme), in every language: the first answer's meaning is on the first screen."""
    v = visit(width)
    failures = []
    for lang in catalog.site.languages:
        for family in catalog.families:
            for code in sample_codes(family):
                pages = ever_listing_pages(family, code)
                answers = [e for e in (default_edition(family, code, page=p) for p in pages) if e]
                if not answers:
                    continue
                v.goto(f"{lang_prefix(catalog, lang)}{family.prefix}codes/{code.name}/")
                measured = v.page.evaluate(MEASURE_CARD, answers[0].id)
                first = measured["fields"][0] if measured["fields"] else measured["body"]
                if not on_first_screen(measured, first):
                    failures.append((lang, code.name, first["bottom"]))
    assert not failures, failures


FIRST_ANSWER = """() => {
  const heading = document.querySelector("article h2#cause, article h2#solution")
  const text = heading && heading.nextElementSibling
  const header = document.querySelector(".md-header").getBoundingClientRect().bottom
  return heading && {header, top: heading.getBoundingClientRect().top, viewport: window.innerHeight,
                     line: text.getBoundingClientRect().top + parseFloat(getComputedStyle(text).lineHeight)}
}"""


@browser_test
@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_a_ge_code_page_shows_what_to_do_on_the_first_screen(catalog, visit, width):
    """GE's pages whose message has the most placeholders (and the longest message), in every
    language: the cause or the solution, and its first line, on the first screen; three
    placeholder cards above it pushed E10001's solution below a phone's."""
    v = visit(width)
    failures, checked = [], 0
    for family in catalog.message_families:
        answered = [c for c in family.codes if c.solution or c.cause]
        sample = {max(answered, key=lambda c: (c.placeholders, c.id)).id,
                  max(answered, key=lambda c: (len(c.template or ""), c.id)).id, "E10001"} & {c.id for c in answered}
        for lang in family.languages:
            for ident in sorted(sample):
                v.goto(f"{lang_prefix(catalog, lang)}{family.prefix}codes/{ident}/")
                measured = v.page.evaluate(FIRST_ANSWER)
                checked += 1
                shown = measured and measured["header"] <= measured["top"] and measured["line"] <= measured["viewport"]
                if not shown:
                    failures.append((lang, ident, measured))
    assert checked >= 4 and not failures, failures


# -- the reader's release and API ---------------------------------------------------------------------------------

SHOWN = """() => [...document.querySelectorAll("#answer .answer")].map(card => ({
  edition: card.dataset.edition,
  fields: [...card.querySelectorAll("dl.says-body > dt")].map(dt => [dt.textContent, dt.nextElementSibling.innerText]),
  body: card.querySelector(".says-body") ? card.querySelector(".says-body").innerText : "",
  notes: [...card.querySelectorAll(".answer-note")].map(p => p.textContent),
  href: card.querySelector(".answer-source a").href,
}))"""


def pick(v, release: str, api: str) -> None:
    """Choose as a reader does: each list in turn."""
    v.page.select_option("form.edition-choice select[name=release]", release)
    v.page.select_option("form.edition-choice select[name=api]", api)


def expected_answers(family, code, release: str, api: str) -> list:
    """The editions a choice must show, computed from the catalog (domain.queries for "newest")."""
    if api:
        timeline = family.timeline_by_id[api]
        editions = family.timeline_editions(timeline)
        if release:
            candidates = [e for e in editions if e.release == release]
            listing = [e for e in candidates if code.name in e.row_by_code]
            return [min(listing or candidates, key=lambda e: e.repo_copy)] if candidates else []
        listing = [e for e in editions if code.name in e.row_by_code and e.released]
        finals = [e for e in listing if is_final_release(e.release)]
        if finals:
            return [max(finals, key=lambda e: (e.index, not e.repo_copy))]
        pre = [e for e in listing if timeline.page == family.python.default_page]
        if pre:
            return [pre[-1]]
        # an API whose pages never list the code: its newest final release, whose edition says so
        newest = max((e for e in editions if e.released and is_final_release(e.release)), key=lambda e: e.index)
        return [min((e for e in editions if e.release == newest.release), key=lambda e: e.repo_copy)]
    return None  # every page: checked by properties in check_every_page


def check_card(family, code, lang, card, edition):
    """A card says what the edition says: its columns in upstream's order, its texts, its recoverability."""
    assert card["edition"] == edition.id
    row = edition.row_by_code.get(code.name)
    assert card["href"].endswith(f"editions/{edition.id}/" + (f"#{code.slug}" if row else ""))
    if row is None:
        assert card["notes"] and not card["fields"], card
        return
    if not edition.has_texts(lang):
        assert family.recoverable_label(row.recoverable, lang) in card["body"] and card["notes"], card
        return
    page = edition.page
    assert [name for name, _ in card["fields"]] == [page.heading(c, lang) for c in page.columns if c != "name"]
    for (name, text), column in zip(card["fields"], [c for c in page.columns if c != "name"]):
        if column == "recoverable":
            assert text.startswith(family.recoverable_label(row.recoverable, lang)), (edition.id, text)
        else:
            catalog_text = code.text(column, edition.id, lang)
            if catalog_text is not None:
                assert squeeze(text).startswith(visible(catalog_text)), (edition.id, column, text)


def check_every_page(family, code, release, shown):
    """Every page that lists the code has its card: the default rule's answer for that page
    (newest), or an edition of the chosen release, one that lists the code if any does."""
    pages = ever_listing_pages(family, code)
    expected_pages = []
    for page in pages:
        editions = (
            [e for e in family.page_editions(page) if e.release == release]
            if release
            else [e for e in family.editions_listing(code, page) if e.released and is_final_release(e.release)]
            or (
                [e for e in family.editions_listing(code, page) if e.released]
                if page.id == family.python.default_page
                else []
            )
        )
        if editions:
            expected_pages.append((page, editions))
    assert len(shown) == len(expected_pages), (release, [c["edition"] for c in shown])
    for card, (page, editions) in zip(shown, expected_pages):
        edition = family.edition_by_id[card["edition"]]
        assert edition in editions, (release, card["edition"])
        if release:
            assert (code.name in edition.row_by_code) == any(code.name in e.row_by_code for e in editions)
        else:
            assert edition.release == max(editions, key=lambda e: e.index).release
    if not release:
        assert shown[0]["edition"] == default_edition(family, code).id  # the module's answer comes first


def test_each_api_offered_without_a_release_answers_for_the_release_its_option_names(catalog):
    """Every code page of every family: an API chosen with "the newest final release" shows an
    edition (one that lists the code, else its newest final release's, which says it does not),
    and the option names that edition's release; an API whose pages never list the code gave
    "no edition of this copy" under an option naming a pre-release."""
    checked = 0
    for family in catalog.families:
        for lang in family.languages:
            for code in family.codes:
                path = DOCS / family.site_path / "codes" / f"{code.name}.{lang}.md"
                text = path.read_text(encoding="utf-8")
                select = re.search(r'<select name="api">.*?</select>', text)
                if select is None:  # one page, one copy: nothing to choose
                    continue
                data = json.loads(re.search(r'<script type="application/json" id="answer-choices">(.*?)</script>',
                                            text).group(1))
                ids = sorted(data["editions"])
                options = re.findall(r'<option value="([^"]+)">([^<]*)</option>', select.group(0))
                for api, words in options:
                    shown = data["choices"].get(f"|{api}")
                    assert shown, (path.name, api, words)
                    edition = family.edition_by_id[ids[shown[0]]]
                    assert edition.timeline.id == api
                    editions = family.timeline_editions(edition.timeline)
                    if code.name not in edition.row_by_code:  # the newest final release of the API
                        assert not any(code.name in e.row_by_code for e in editions if is_final_release(e.release))
                        assert edition.index == max(e.index for e in editions if e.released
                                                    and is_final_release(e.release)), (path.name, api)
                    assert f" {edition.release}，" in words or f" {edition.release}, " in words, (path.name, words)
                    checked += 1
    assert checked > 300, checked


@browser_test
@pytest.mark.parametrize("name", ["LLM_TIMEOUT", "LLM_WAIT_PROCESS_TIMEOUT"])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_choice_of_release_and_api_shows_that_editions_answer(catalog, visit, name, lang):
    family = catalog.family_by_id["llm_datadist"]
    code = family.code_by_name[name]
    v = visit()
    v.goto(f"{lang_prefix(catalog, lang)}codes/{name}/")
    releases = v.page.locator("form.edition-choice select[name=release] option").evaluate_all(
        "os => os.map(o => o.value)"
    )
    apis = v.page.locator("form.edition-choice select[name=api] option").evaluate_all("os => os.map(o => o.value)")
    assert set(releases) == {""} | {e.release for e in family.editions if code.name_on(e.page) is not None}
    assert apis == [""] + [t.id for p in family.pages if code.name_on(p) is not None for t in p.timelines]
    for release in releases:
        for api in apis:
            v.page.evaluate("""([release, api]) => {
                const form = document.querySelector("form.edition-choice")
                form.elements.release.value = release; form.elements.api.value = api
                form.dispatchEvent(new Event("change"))
            }""", [release, api])
            shown = v.page.evaluate(SHOWN)
            expected = expected_answers(family, code, release, api)
            if expected is None:
                check_every_page(family, code, release, shown)
            else:
                assert [c["edition"] for c in shown] == [e.id for e in expected], (release, api)
            for card in shown:
                check_card(family, code, lang, card, family.edition_by_id[card["edition"]])
            if not shown:
                assert v.page.locator("#answer > p.answer-note").count() == 1
            # how the pages of that release differ: its block, or a line that says there is nothing to compare
            blocks = v.page.locator(".release-differences:visible").evaluate_all("bs => bs.map(b => b.dataset.release)")
            wanted = release or (family.edition_by_id[shown[0]["edition"]].release if shown else "")
            exists = v.page.locator(f'.release-differences[data-release="{wanted}"]').count()
            assert blocks == ([wanted] if exists else []), (release, api, blocks)
            assert v.page.locator(".release-differences-none:visible").count() == (0 if exists else 1), (release, api)


@browser_test
def test_the_choice_is_kept_in_the_address_and_remembered(catalog, visit, site):
    """A reader picks 9.0.0's C++ v1 page: the answer changes, the address says so, a reload
    keeps it, the next code page opens on it, and "newest, every page" restores the page's own."""
    family = catalog.family_by_id["llm_datadist"]
    timeline = family.timeline_by_id["cpp-v1"]
    finals = [e for e in family.timeline_editions(timeline) if is_final_release(e.release)]
    edition = finals[-2]  # not the newest: the choice must change what the page shows first
    release = edition.release
    v = visit("phone")
    v.goto("codes/LLM_TIMEOUT/")
    initial = v.page.locator("#answer").inner_html()
    pick(v, release, timeline.id)
    for name in ("LLM_TIMEOUT", "LLM_LINK_BUSY"):
        code = family.code_by_name[name]
        if name != "LLM_TIMEOUT":  # the next page, by a link of the site: the choice remembered
            v.page.goto(f"{site}codes/{name}/", referer=v.page.url)
            v.page.wait_for_load_state("load")
        for _ in range(2):
            shown = v.page.evaluate(SHOWN)
            assert [c["edition"] for c in shown] == [edition.id], name
            check_card(family, code, "zh", shown[0], edition)
            assert parse_qs(urlsplit(v.page.url).query) == {"release": [release], "api": [timeline.id]}
            assert v.page.locator("select[name=release]").input_value() == release
            v.page.reload()
            v.page.wait_for_load_state("load")
    pick(v, "", "")
    assert urlsplit(v.page.url).query == ""
    v.goto("codes/LLM_TIMEOUT/")
    assert v.page.locator("#answer").inner_html() == initial  # the script's cards are the page's own


@browser_test
def test_a_remembered_choice_is_shown_and_never_carried_into_a_page_opened_from_outside(catalog, visit, site):
    """Opened from the address bar (no referrer from the site), a code page answers for the
    newest release whatever a reader chose before, and the site's links from it carry the newest
    on; followed from the site, a page keeps the choice, shows it, and one button leads back to
    the newest answers."""
    family = catalog.family_by_id["llm_datadist"]
    v = visit()
    v.goto("codes/LLM_TIMEOUT/")
    newest = v.page.evaluate(SHOWN)
    pick(v, "9.0.0", "")
    chosen = v.page.evaluate(SHOWN)
    assert [c["edition"] for c in chosen] != [c["edition"] for c in newest]
    v.goto("codes/LLM_LINK_BUSY/")  # typed: the newest answers, the picker at "newest"
    assert v.page.locator("select[name=release]").input_value() == ""
    assert not v.page.locator("button.choice-newest").is_visible()
    v.page.goto(f"{site}codes/LLM_TIMEOUT/", referer=f"{site}codes/LLM_LINK_BUSY/")  # a link of the typed page
    v.page.wait_for_load_state("load")
    assert [c["edition"] for c in v.page.evaluate(SHOWN)] == [c["edition"] for c in newest]
    pick(v, "9.0.0", "")
    v.page.goto(f"{site}codes/LLM_LINK_BUSY/", referer=f"{site}codes/")  # followed from the site's list
    v.page.wait_for_load_state("load")
    v.page.goto(f"{site}codes/LLM_TIMEOUT/", referer=f"{site}codes/")  # and on
    v.page.wait_for_load_state("load")
    assert v.page.locator("select[name=release]").input_value() == "9.0.0"
    assert [c["edition"] for c in v.page.evaluate(SHOWN)] == [c["edition"] for c in chosen]
    reset = v.page.locator("button.choice-newest")
    assert reset.is_visible() and reset.inner_text() == catalog.site.label("choice_reset", "zh")
    assert reset.inner_text() != v.page.locator("select[name=release] option").first.inner_text()  # an action
    reset.click()
    assert [c["edition"] for c in v.page.evaluate(SHOWN)] == [c["edition"] for c in newest]
    assert urlsplit(v.page.url).query == "" and not reset.is_visible()
    assert family.code_by_name["LLM_TIMEOUT"]


@browser_test
def test_an_address_asking_for_a_release_the_page_lacks_says_so(visit, site):
    """A link that asks a code page for a release or a copy it does not offer shows the default
    answers and says what it could not offer; a stored choice that no longer fits stays silent."""
    v = visit()
    v.goto("codes/LLM_TIMEOUT/")
    default = v.page.evaluate(SHOWN)
    v.goto("codes/LLM_TIMEOUT/?release=1.2.3&api=no-such-copy")
    said = v.page.locator("p.choice-not-offered")
    assert said.count() == 1 and said.is_visible()
    assert "1.2.3" in said.text_content() and "no-such-copy" in said.text_content()
    assert v.page.evaluate(SHOWN) == default
    assert v.page.locator("select[name=release]").input_value() == ""
    v.goto("codes/LLM_TIMEOUT/?release=9.0.0")
    assert v.page.locator("p.choice-not-offered").count() == 0
    assert [c["edition"] for c in v.page.evaluate(SHOWN)] != [c["edition"] for c in default]
    # remembered from an older site, followed from the site's list: the default answers, no word
    v.page.evaluate("""() => sessionStorage.setItem("llm-status-codes:choice:llm_datadist",
                                                JSON.stringify({release: "1.2.3", api: ""}))""")
    v.page.goto(f"{site}codes/LLM_TIMEOUT/", referer=f"{site}codes/")
    v.page.wait_for_load_state("load")
    assert v.page.locator("p.choice-not-offered").count() == 0
    assert v.page.evaluate(SHOWN) == default


CONFLICT = """() => {
  const form = document.querySelector("form.edition-choice").getBoundingClientRect()
  const top = document.getElementById("answer").getBoundingClientRect().top
  const cards = [...document.querySelectorAll("#answer .answer")].map(card => {
    const line = card.querySelector(".answer-conflict")
    return { edition: card.dataset.edition, page: card.querySelector(".answer-source strong").textContent,
             conflict: line ? line.textContent : null,
             conflictBottom: line ? line.getBoundingClientRect().bottom : null }
  })
  return { formBottom: form.bottom, formTop: form.top, answersTop: top, cards, height: window.innerHeight }
}"""


@browser_test
@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_pages_that_disagree_say_so_on_every_card_above_the_fold(catalog, visit, width):
    """LLM_TIMEOUT: its Python page says recoverable, its C++ pages not. Every card shown says, at
    its top, what the other pages of its release say otherwise; on a 390x844 phone the picker and
    the first card's line are on the first screen, the picker above the answers; a chosen release
    that disagrees says so too; a reader who came by a C name or a value (?via=c) reads the C++
    page's card first."""
    family = catalog.family_by_id["llm_datadist"]
    v = visit(width)

    def lead(card, lang):
        release = family.edition_by_id[card["edition"]].release
        return catalog.site.label("answer_others", lang).replace("{release}", f"CANN {release}")

    for lang in catalog.site.languages:
        prefix = lang_prefix(catalog, lang)
        v.goto(f"{prefix}codes/LLM_TIMEOUT/")
        m = v.page.evaluate(CONFLICT)
        assert len(m["cards"]) >= 2 and all(c["conflict"] and c["conflict"].startswith(lead(c, lang))
                                            for c in m["cards"]), m
        for card in m["cards"][1:]:
            assert card["page"] in m["cards"][0]["conflict"], (card["page"], m["cards"][0]["conflict"])
        assert m["formBottom"] <= m["answersTop"] and m["formBottom"] <= m["height"], m
        assert m["cards"][0]["conflictBottom"] <= m["height"], m
        python_first = m["cards"][0]["page"]
        pick(v, "9.0.0", "")
        chosen = v.page.evaluate(CONFLICT)
        assert all(c["conflict"] and c["conflict"].startswith(lead(c, lang)) for c in chosen["cards"]), chosen
        v.goto(f"{prefix}codes/LLM_TIMEOUT/?via=c")
        via = v.page.evaluate(CONFLICT)
        c_pages = {p.name[lang] for p in family.pages if p.row_names == "c"}
        assert via["cards"][0]["page"] in c_pages and python_first not in c_pages, (via["cards"], python_first)
        assert sorted(c["edition"] for c in via["cards"]) == sorted(c["edition"] for c in m["cards"])
    # the list of codes says so too (the code's newest answers, as its page shows them)
    listing = (ROOT / "site" / "docs" / "codes" / "index.en.md").read_text(encoding="utf-8")
    row = listing[listing.index('id="llm_timeout"'):]
    row = row[:row.index("</tr>")]
    assert catalog.site.label("answer_disagree", "en") in row


# -- pictures ---------------------------------------------------------------------------------------------------

PICTURES = """() => [...document.querySelectorAll(".presence")].map(p => {
  let legend = p.nextElementSibling
  while (legend && !legend.matches("ul.presence-legend, h2, h3")) legend = legend.nextElementSibling
  if (!legend || !legend.matches("ul.presence-legend")) {
    legend = p.previousElementSibling
    while (legend && !legend.matches("ul.presence-legend, h2, h3")) legend = legend.previousElementSibling
  }
  let heading = p.previousElementSibling
  while (heading && !heading.matches("h2, h3")) heading = heading.previousElementSibling
  let section = heading
  while (section && section.tagName !== "H2") section = section.previousElementSibling
  return {
    states: [...new Set([...p.querySelectorAll("[data-state]")].map(c => c.dataset.state)
      .concat([...p.querySelectorAll("use")].map(u => u.getAttribute("href").replace("#presence-", ""))))],
    legend: legend && legend.matches("ul.presence-legend")
      ? [...legend.querySelectorAll("li")].map(li => [li.className.replace("legend-", ""),
          li.textContent.slice(li.querySelector("svg").textContent.length).trim()]) : [],
    headings: [heading && heading.textContent, section && section.textContent].join(" "),
  }
})"""


def picture_paths(catalog, lang):
    """Every timeline's differences page, and the sampled code pages (tests/support/samples.py)."""
    prefix = lang_prefix(catalog, lang)
    for family in catalog.families:
        for page in family.pages:
            for timeline in page.timelines:
                if family.timeline_editions(timeline):
                    yield family, f"{prefix}{compare.differences_location(family, page, timeline)}"
        for code in sample_codes(family):
            yield family, f"{prefix}{family.prefix}codes/{code.name}/"


@browser_test
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_picture_has_a_legend_in_words_and_a_heading_that_says_what_cells_show(catalog, visit, lang):
    v = visit()
    words = {
        st: catalog.site.label(key, lang)
        for st, key in (
            ("yes", "legend_yes"),
            ("no", "legend_no"),
            ("na", "legend_na"),
            ("unknown", "legend_unknown"),
            ("not-known", "legend_not_known"),
            ("absent", "legend_absent"),
        )
    }
    seen = 0
    for family, path in picture_paths(catalog, lang):
        v.goto(path)
        recoverable = {p.heading("recoverable", lang).lower() for p in family.pages}
        for picture in v.page.evaluate(PICTURES):
            legend = dict(picture["legend"])
            assert set(picture["states"]) <= set(legend), (path, picture)
            assert all(legend[st] == words[st] for st in legend), (path, legend)
            assert any(r in picture["headings"].lower() for r in recoverable), (path, picture["headings"])
            seen += 1
    assert seen > len(catalog.families)


def _rgb(colour: str):
    """An rgb()/rgba() string as (r, g, b, alpha); 'none' as None."""
    if colour in ("none", ""):
        return None
    parts = [float(x) for x in re.findall(r"[\d.]+", colour)]
    return (*parts[:3], parts[3] if len(parts) > 3 else 1.0)


def _over(colour, background):
    alpha = colour[3]
    return tuple(colour[i] * alpha + background[i] * (1 - alpha) for i in range(3)) + (1.0,)


def _luminance(colour) -> float:
    def channel(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


CELL_COLOURS = """() => {
  const page = getComputedStyle(document.body).backgroundColor
  const cells = [...document.querySelectorAll(".presence .cell, .presence symbol, .presence-legend li")].map(cell => {
    const rect = cell.querySelector("rect"), text = cell.querySelector("text")
    const r = getComputedStyle(rect)
    const state = cell.dataset.state || (cell.localName === "symbol" ? cell.id.replace("presence-", "")
                                                                        : cell.className.replace("legend-", ""))
    return { state, fill: r.fill, stroke: r.stroke,
             width: parseFloat(r.strokeWidth),
             glyph: text && text.textContent.trim() ? getComputedStyle(text).fill : null }
  })
  return { page, cells }
}"""


@browser_test
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_glyphs_and_cell_edges_contrast_in_both_schemes(catalog, visit, scheme):
    """A glyph against its cell at least 4.5:1; a cell's edge against the page at least 3:1
    (its outline, or its fill where that contrasts), measured from the computed styles."""
    v = visit(scheme=scheme)
    worst: dict[str, list[float]] = {}
    for path in ("differences/python/v2/", "codes/LLM_TIMEOUT/", "codes/LLM_FAILED/"):
        v.goto(path)
        measured = v.page.evaluate(CELL_COLOURS)
        page = _rgb(measured["page"])
        assert measured["cells"]
        for cell in measured["cells"]:
            fill = _over(_rgb(cell["fill"]), page)
            edge = max(
                contrast(_over(_rgb(cell["stroke"]), page), page)
                if cell["stroke"] != "none" and cell["width"] >= 1
                else 0,
                contrast(fill, page),
            )
            glyph = contrast(_over(_rgb(cell["glyph"]), fill), fill) if cell["glyph"] else None
            worst.setdefault(cell["state"], [99.0, 99.0])
            worst[cell["state"]][0] = min(worst[cell["state"]][0], glyph if glyph is not None else 99.0)
            worst[cell["state"]][1] = min(worst[cell["state"]][1], edge)
    assert len(worst) == 6, worst
    for state, (glyph, edge) in worst.items():
        assert glyph >= 4.5 and edge >= 3.0, (scheme, state, glyph, edge)
        record(f"contrast-{scheme}", f"{state}: glyph {glyph:.2f}:1, edge {edge:.2f}:1" if glyph < 99 else
               f"{state}: no glyph, edge {edge:.2f}:1")


LINKED_CODES = """() => [...document.querySelectorAll(".md-typeset a code")].slice(0, 40).map(code => {
  const own = getComputedStyle(code), page = getComputedStyle(document.body).backgroundColor
  return { color: own.color, background: own.backgroundColor, page }
})"""


@browser_test
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_linked_code_name_contrasts_with_its_background_in_both_schemes(visit, scheme):
    """A code name that links (the list of codes, an edition's table) at least 4.5:1 against the
    background it is written on."""
    v = visit(scheme=scheme)
    for path in ("en/codes/", "en/editions/9.0.0-v2/"):
        v.goto(path)
        measured = v.page.evaluate(LINKED_CODES)
        assert measured, path
        worst = min(contrast(_over(_rgb(m["color"]), _over(_rgb(m["background"]), _rgb(m["page"]))),
                             _over(_rgb(m["background"]), _rgb(m["page"]))) for m in measured)
        assert worst >= 4.5, (scheme, path, worst)
        record(f"contrast-{scheme}", f"linked code names on {path}: {worst:.2f}:1")


SCROLL_CUES = """async () => {
  const pictures = [...document.querySelectorAll(".presence")].map(picture => {
    const area = picture.querySelector(".presence-scroll")
    return { picture, area, overflows: area.scrollWidth > area.clientWidth + 1 }
  })
  const faded = p => getComputedStyle(p.picture, "::after").backgroundImage.includes("gradient")
  const before = pictures.map(p => ({ overflows: p.overflows, faded: faded(p) }))
  for (const p of pictures) { p.area.scrollLeft = p.area.scrollWidth; p.area.dispatchEvent(new Event("scroll")) }
  await new Promise(resolve => requestAnimationFrame(resolve))
  return { before, after: pictures.map(faded) }
}"""


@browser_test
def test_a_picture_wider_than_a_phone_fades_where_it_scrolls_on(visit):
    """Phones hide scroll bars: a picture with columns beyond the screen fades at its right edge
    until the reader scrolls to its end; one that fits does not."""
    for viewport, path in (("phone", "codes/LLM_WAIT_PROCESS_TIMEOUT/"), ("desktop", "codes/LLM_SUCCESS/")):
        v = visit(viewport)
        v.goto(path)
        measured = v.page.evaluate(SCROLL_CUES)
        assert measured["before"], path
        assert [p["faded"] for p in measured["before"]] == [p["overflows"] for p in measured["before"]], measured
        assert not any(measured["after"]), measured
        if viewport == "phone":
            assert any(p["overflows"] for p in measured["before"]), measured


FOCUS_IN_PICTURES = """() => {
  const focusable = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"]), [contenteditable]'
  const inside = [...document.querySelectorAll('[role="img"]')].flatMap(img => [...img.querySelectorAll(focusable)])
  const cells = [...document.querySelectorAll('[role="img"] .cell')].filter(c => c.tabIndex >= 0)
  const stops = [...document.querySelectorAll(focusable)].filter(e => e.tabIndex >= 0 && e.getClientRects().length)
  return { inside: inside.length + cells.length, stops: stops.length }
}"""

# Each cell's target (the edition's row, or its table), and whether a link outside the pictures goes there.
CELL_TARGETS = """(withRow) => {
  const links = new Set([...document.querySelectorAll("a[href]")].filter(a => !a.closest('[role="img"]'))
                           .map(a => withRow ? a.href : a.href.split("#")[0]))
  const missing = []
  for (const picture of document.querySelectorAll(".presence[data-editions]")) {
    for (const cell of picture.querySelectorAll(".cell, use")) {
      const svg = cell.closest("svg")  // a use: its column's x names its edition, its symbol its state
      const column = svg.dataset.x ? svg.dataset.x.split(" ").indexOf(cell.getAttribute("x")) : -1
      const edition = cell.dataset.edition || svg.dataset.ids.split(" ")[column]
      const state = cell.dataset.state || cell.getAttribute("href").replace("#presence-", "")
      const listed = !["absent", "not-known"].includes(state)
      const row = withRow && listed ? "#" + cell.closest("[data-code]").dataset.code.toLowerCase() : ""
      const target = new URL(picture.dataset.editions + edition + "/" + row, location.href).href
      if (!links.has(target)) missing.push(target)
    }
  }
  return missing
}"""


@browser_test
def test_nothing_in_a_picture_takes_focus_and_every_cell_is_reached_another_way(catalog, visit, site):
    """(In the default language: the pictures and their links are the same markup in every
    language, which test_every_picture_has_a_legend_in_words... reads in each.)"""
    v = visit()
    for lang in catalog.site.languages[:1]:
        for family, path in picture_paths(catalog, lang):
            v.goto(path)
            measured = v.page.evaluate(FOCUS_IN_PICTURES)
            assert measured["inside"] == 0, path
            # a code page links every cell's exact target; the differences page every cell's edition
            missing = v.page.evaluate(CELL_TARGETS, "/codes/" in path)
            assert not missing, (path, missing[:5])
            if path.endswith("differences/python/v2/") or path.endswith("codes/LLM_TIMEOUT/"):
                record("tab-stops", f"{path}: {measured['stops']} Tab stops, none inside a picture")
    # a pointer still goes from a cell to the edition's row
    v.goto("codes/LLM_TIMEOUT/")
    listed = v.page.locator('.presence .cell[data-state="yes"]').first
    edition = listed.get_attribute("data-edition")
    listed.click()
    v.page.wait_for_load_state("load")
    assert v.page.url == f"{site}editions/{edition}/#llm_timeout"
    # and from a timeline's picture, whose cells are uses of their state's symbol
    v.goto("differences/python/v2/")
    row = v.page.locator('.presence [data-code="LLM_TIMEOUT"]')
    cell = row.locator('use[href="#presence-yes"]').first
    column = v.page.evaluate("""(cell) => { const svg = cell.closest("svg")
      return svg.dataset.ids.split(" ")[svg.dataset.x.split(" ").indexOf(cell.getAttribute("x"))] }""",
                             cell.element_handle())
    cell.click()
    v.page.wait_for_load_state("load")
    assert v.page.url == f"{site}editions/{column}/#llm_timeout"


# -- edition pages ---------------------------------------------------------------------------------------------

# -- any two editions of a timeline ------------------------------------------------------------------------------

NORMALIZED = """(html) => { const t = document.createElement("template"); t.innerHTML = html; return t.innerHTML }"""
NORMALIZED_ALL = """(htmls) => htmls.map(html => {
  const t = document.createElement("template"); t.innerHTML = html; return t.innerHTML })"""
COMPARE_ALL = """(pairs) => {
  const form = document.querySelector("form.compare"), result = document.querySelector(".compare-result")
  return pairs.map(([old, now]) => {
    form.elements.old.value = old; form.elements.new.value = now
    form.dispatchEvent(new Event("change"))
    return result.innerHTML
  })
}"""
COMPARE = """([old, now]) => {
  const form = document.querySelector("form.compare")
  form.elements.old.value = old; form.elements.new.value = now
  form.dispatchEvent(new Event("change"))
  return [document.querySelector(".compare-result").innerHTML, form.elements.old.value, form.elements.new.value,
          new URLSearchParams(location.search).toString()]
}"""


@browser_test
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_any_two_editions_compare_as_the_generator_compares_them(catalog, visit, lang):
    """For every two editions of every page, across its copies, the page's script shows exactly
    what generator.rendering.site.compare renders from changes.compare_editions (the script
    computes it from the page's data), its summary line counting what changes.compare_editions
    found of each kind and its folds holding the texts changed in punctuation or translation
    alone, and those upstream reworded in another language alone; a pair picked the other way
    round is shown older to newer, the lists keeping what was picked, and the address says the pair in that order; the
    first comparison is written into the page as it is."""
    v = visit()
    compared = reworded_elsewhere = 0
    folds = set()
    for family in catalog.families:
        for page in family.pages:
            editions = family.page_editions(page)
            if len(editions) < 2:
                continue
            path = compare.differences_location(family, page)
            ctx = Context(catalog, lang, path, family)
            v.goto(lang_prefix(catalog, lang) + path)

            def expected(pairs):  # the generator's HTML of each pair, as the browser reads it
                return v.page.evaluate(NORMALIZED_ALL, [
                    f'<p class="compare-pair">{compare.pair_html(editions[i], editions[j])}</p>'
                    + compare.diff_html(ctx, family, editions[i], editions[j]) for i, j in pairs])

            first = compare.first_pair(family, page)
            static = v.page.locator(".compare-result").inner_html()
            assert [v.page.evaluate(NORMALIZED, static)] == expected([first]), page.id
            pairs = [(i, j) for i in range(len(editions)) for j in range(i + 1, len(editions))]
            shown = v.page.evaluate(COMPARE_ALL, [[editions[i].id, editions[j].id] for i, j in pairs])
            for pair, html, want in zip(pairs, shown, expected(pairs)):
                assert html == want, (page.id, editions[pair[0]].id, editions[pair[1]].id)
                # the summary's counts and the folds, as the script wrote them, are what changes.py found
                diff = changes.compare_editions(family, editions[pair[0]], editions[pair[1]])
                read = comparisons.read(html)
                assert comparisons.counts(read.summary, ctx.label("compare_summary")) == \
                    summary_said(ctx, diff), (page.id, editions[pair[0]].id, editions[pair[1]].id)
                texts = [c for c in diff.texts if c.lang == lang]
                elsewhere = [c.code for c in diff.elsewhere_for(lang)]
                assert [(b["fold"], b["codes"]) for b in read.blocks if b["fold"]] == [
                    (f"compare-fold fold-{fold.value}", [c.code for c in texts if c.fold == fold])
                    for fold in (changes.Fold.PUNCTUATION, changes.Fold.TRANSLATION)
                    if any(c.fold == fold for c in texts)] + (
                    [("compare-fold fold-elsewhere", elsewhere)] if elsewhere else []), \
                    (page.id, editions[pair[0]].id, editions[pair[1]].id)
                folds.update(c.fold for c in texts)
                reworded_elsewhere += len(elsewhere)
            compared += len(shown)
            shown, old, new, query = v.page.evaluate(COMPARE, [editions[-1].id, editions[0].id])
            assert (old, new) == (editions[-1].id, editions[0].id) and [shown] == expected([(0, len(editions) - 1)])
            assert query == f"old={quote(editions[0].id)}&new={quote(editions[-1].id)}", query
    sizes = [len(f.page_editions(p)) for f in catalog.families for p in f.pages]
    assert compared == sum(n * (n - 1) // 2 for n in sizes)
    assert changes.Fold.PUNCTUATION in folds and changes.Fold.MEANING in folds, folds  # the catalog has both
    assert reworded_elsewhere or lang == "zh"  # upstream reworded its Chinese where the English did not follow
    record(f"compare-{lang}", f"{compared} pairs compared in the browser, each equal to the generator's")


def summary_said(ctx, diff) -> dict[str, str]:
    """What a comparison's summary line must say, from changes.compare_editions' lists: each kind
    counted, the four rarer ones only where some changed; the texts of meaning "not known" where
    the texts in the page's language are not known on both sides."""
    texts = [c for c in diff.texts if c.lang == ctx.lang]
    counted = [("added", len(diff.added), True), ("dropped", len(diff.dropped), True),
               ("listing_not_known", len(diff.presence) - len(diff.added) - len(diff.dropped), False),
               ("moved_row", len(diff.moved), True), ("renamed_row", len(diff.renamed), True),
               ("recoverable_changed", len(diff.recoverable), True), ("became_known", len(diff.became_known), False),
               ("texts_reworded", sum(c.fold == changes.Fold.MEANING for c in texts), True),
               ("punctuation_changed", sum(c.fold == changes.Fold.PUNCTUATION for c in texts), False),
               ("translation_changed", sum(c.fold == changes.Fold.TRANSLATION for c in texts), False),
               ("reworded_elsewhere", len(diff.elsewhere_for(ctx.lang)), False)]
    said = {ctx.label(key): str(n) for key, n, always in counted if always or n}
    if ctx.lang not in diff.texts_comparable:
        said[ctx.label("texts_reworded")] = ctx.label("text_not_known")
    return said


@browser_test
def test_a_step_of_a_timeline_opens_its_comparison(catalog, visit):
    """A phone reader follows a step of a timeline to the comparison page, which shows that pair
    (from the address), and picks two editions of different copies of the page."""
    family = catalog.family_by_id["llm_datadist"]
    page = family.page_by_id["python"]
    timeline = page.timelines[-1]
    steps = [e for e in family.timeline_editions(timeline) if not e.repo_copy]
    v = visit("phone")
    v.goto(compare.differences_location(family, page, timeline))
    v.page.locator("ul.differences-steps a").first.click()
    v.page.wait_for_load_state()
    title = v.page.locator(".compare-result p.compare-pair").text_content()
    assert title == f"{steps[0].id} → {steps[1].id}", title
    other = family.timeline_editions(page.timelines[0])[0]
    v.page.select_option("form.compare select[name=old]", other.id)
    title = v.page.locator(".compare-result p.compare-pair").text_content()
    assert title == f"{other.id} → {steps[1].id}", title
    # a pair made in two picks, the first "From" later than the "To" in place: both picks stand
    editions = family.page_editions(page)
    later, newest = editions[-2], editions[-1]
    v.page.select_option("form.compare select[name=old]", later.id)
    v.page.select_option("form.compare select[name=new]", newest.id)
    title = v.page.locator(".compare-result p.compare-pair").text_content()
    assert title == f"{later.id} → {newest.id}", title
    assert parse_qs(urlsplit(v.page.url).query) == {"old": [later.id], "new": [newest.id]}


@pytest.mark.parametrize("wording", ["{editions}: unseen", "Unseen.", "Unseen: {editions}; again {editions}."])
def test_a_comparison_without_texts_names_the_editions_that_lack_them(catalog, wording):
    """Where the texts in the page's language are not known, the comparison names each edition
    that lacks them, once, whatever the catalog's wording of the sentence says."""
    site = replace(catalog.site, labels={**catalog.site.labels,
                                         "compare_texts_not_known": Localized((("zh", wording), ("en", wording)))})
    ours = replace(catalog, site=site)
    family = ours.family_by_id["llm_datadist"]
    page = family.page_by_id["python"]
    for lang in ours.site.languages:
        ctx = Context(ours, lang, compare.differences_location(family, page), family)
        editions = family.page_editions(page)
        pairs = [(a, b) for i, a in enumerate(editions) for b in editions[i + 1:]
                 if not (a.has_texts(lang) and b.has_texts(lang))]
        assert pairs, lang
        for old, new in pairs:
            html = compare.diff_html(ctx, family, old, new)
            for edition in (old, new):
                mark = f'<span class="eid">{edition.id}</span>'
                assert html.count(mark) == (0 if edition.has_texts(lang) else 1), (old.id, new.id, html[-300:])
            assert "\0" not in html and "{editions}" not in html


@browser_test
def test_an_address_naming_an_edition_the_page_lacks_says_so(catalog, visit):
    """A link with an edition id the comparison page does not have keeps the default comparison
    and says which id it could not find; an id that became an alias of an edition (an edition
    id once published never stops resolving) shows that edition's pair."""
    v = visit("desktop")
    family = catalog.family_by_id["llm_datadist"]
    page = family.page_by_id["python"]
    editions = family.page_editions(page)
    old, new = compare.first_pair(family, page)
    default = f"{editions[old].id} → {editions[new].id}"
    for lang in catalog.site.languages:
        base = lang_prefix(catalog, lang) + compare.differences_location(family, page)
        v.goto(f"{base}?old=no-such-edition&new={editions[0].id}")
        note = v.page.locator(".compare-result p.compare-not-here")
        assert note.count() == 1, lang
        assert "no-such-edition" in note.text_content() and editions[0].id not in note.text_content()
        assert v.page.locator(".compare-result p.compare-pair").text_content() == default
        v.goto(f"{base}?old={editions[0].id}&new={editions[1].id}")
        assert v.page.locator(".compare-result p.compare-not-here").count() == 0
        assert v.page.locator(".compare-result p.compare-pair").text_content() == \
            f"{editions[0].id} → {editions[1].id}"
    hixl = catalog.family_by_id["hixl"]
    alias, target = hixl.aliases[0]
    edition = hixl.edition_by_id[target]
    others = [e for e in hixl.page_editions(edition.page) if e.id != target]
    v.goto(compare.differences_location(hixl, edition.page) + f"?old={alias}&new={others[-1].id}")
    assert v.page.locator(".compare-result p.compare-not-here").count() == 0
    pair = sorted([edition, others[-1]], key=hixl.page_editions(edition.page).index)
    assert v.page.locator(".compare-result p.compare-pair").text_content() == f"{pair[0].id} → {pair[1].id}"
    assert parse_qs(urlsplit(v.page.url).query) == {"old": [pair[0].id], "new": [pair[1].id]}


# -- phone layout ---------------------------------------------------------------------------------------------

COMMAS = """() => {
  const out = []
  for (const td of document.querySelectorAll("table.family-pages td.col-editions")) {
    const first = td.querySelector("a")
    if (!first) continue
    const start = first.getBoundingClientRect().left
    const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT)
    const range = document.createRange()
    while (walker.nextNode()) {
      const node = walker.currentNode
      for (let i = 0; i < node.nodeValue.length; i++) {
        if (node.nodeValue[i] !== ",") continue
        range.setStart(node, i); range.setEnd(node, i + 1)
        const r = range.getClientRects()[0]
        if (r && r.left < start - 1) out.push(r.left)
      }
    }
  }
  return out
}"""


@browser_test
def test_commas_between_edition_links_stay_with_the_links_on_a_phone(catalog, visit):
    v = visit("phone")
    for lang in catalog.site.languages:
        for path in [""] + [f.prefix for f in catalog.families if f.prefix]:
            v.goto(lang_prefix(catalog, lang) + path)
            assert v.page.locator("table.family-pages td.col-editions a").count()
            assert v.page.evaluate(COMMAS) == [], path


SIDEBAR = """() => {
  const title = document.querySelector(".md-sidebar--primary .md-nav--primary > .md-nav__title")
  const wrap = document.querySelector(".md-sidebar--primary .md-sidebar__scrollwrap")
  const t = title.getBoundingClientRect(), w = wrap.getBoundingClientRect()
  if (!t.height || t.bottom <= w.top) return []
  return [...wrap.querySelectorAll(".md-nav__link")].map(a => a.getBoundingClientRect())
    .filter(r => r.height && r.top < t.bottom - 1 && r.bottom > t.top + 1 && r.top >= w.top && r !== t)
    .map(r => [r.top, r.bottom, t.top, t.bottom])
}"""


@browser_test
def test_the_sidebar_title_covers_no_entry(catalog, visit):
    v = visit()
    family = catalog.families[0]
    for code in (family.codes[-1], family.codes[len(family.codes) // 2]):
        v.goto(f"codes/{code.name}/")
        assert v.page.evaluate(SIDEBAR) == [], code.name


def test_a_codes_title_breaks_after_an_underscore_and_nowhere_else():
    """At 390 px "LLM_PROCESSING_LINK" broke as "LLM_PROCESSING_LIN / K": the title offers a break
    after each underscore (<wbr>) and the style forbids one inside a word."""
    from tests.support.helpers import ROOT

    for lang in ("zh", "en"):
        page = (ROOT / "site" / "docs" / "codes" / f"LLM_PROCESSING_LINK.{lang}.md").read_text(encoding="utf-8")
        assert "\n# LLM\\_<wbr>PROCESSING\\_<wbr>LINK {#page-title}\n" in page
    style = (ROOT / "site" / "docs" / "assets" / "extra.css").read_text(encoding="utf-8")
    assert ".md-typeset h1#page-title { word-break: normal; overflow-wrap: normal; }" in style


def test_the_list_of_codes_shows_every_codes_meaning_recoverability_and_solution_at_a_glance():
    """Upstream's one table at a glance: every code's row holds the default edition's meaning,
    recoverable and solution (the texts the module answers with edition=None)."""
    import html
    import importlib.util
    import re

    from tests.support.helpers import ROOT

    spec = importlib.util.spec_from_file_location("glance", ROOT / "generated" / "python" / "llm_status_codes.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for lang in ("zh", "en"):
        page = (ROOT / "site" / "docs" / "codes" / f"index.{lang}.md").read_text(encoding="utf-8")
        rows = dict(re.findall(r'<tr id="([a-z0-9_]+)" role="row">(.*?)</tr>', page, re.S))
        for member in module.LLMStatusCode:
            row = rows[member.name.lower()]
            solution = re.search(r'<td class="col-solution"[^>]*>(.*?)</td>', row, re.S)
            assert solution, member.name
            shown = "".join(html.unescape(re.sub(r"<[^>]+>", " ", solution[1].replace("<wbr>", ""))).split())
            # and which edition that is, linked to the code's row in it: pages and releases differ
            said_in = re.findall(r'<small class="answer-from">[^<]*<a href="\.\./editions/([^/]+)/#([a-z0-9_]+)"', row)
            default = module._DEFAULT_EDITION.get(member.name)
            assert said_in == ([(default, member.name.lower())] if default else []), (member.name, said_in)
            said = member.solution(lang)
            if said is None:
                assert shown == "—", (member.name, shown)
            else:
                for line in said.split("\n"):  # each line of the text stands in the cell (its markup aside)
                    words = "".join(re.sub(r"^(- |\d+\. )", "", line).split())
                    assert words in shown, (member.name, lang, line, shown)


# -- which API fits, and what the other pages of its release say ----------------------------------


def release_disagreement(catalog):
    """From the catalog: (family, code, release, Python edition, C++ edition) where a Python page
    and a C++ page of one release both list the code and give it different recoverabilities,
    9.0.0's first (the release readers tried)."""
    found = []
    for family in catalog.families:
        for code in family.codes:
            for release in sorted({e.release for e in family.editions}, key=lambda r: r != "9.0.0"):
                listing = [e for e in family.release_editions(release) if code.name in e.row_by_code
                           and e.row_by_code[code.name].recoverable != "not known"]
                for python in (e for e in listing if e.page.row_names == "python"):
                    for cpp in (e for e in listing if e.page.row_names == "c"):
                        if python.row_by_code[code.name].recoverable != cpp.row_by_code[code.name].recoverable:
                            found.append((release != "9.0.0", family, code, release, python, cpp))
    assert found, "no code whose Python and C++ pages of one release disagree on recoverability"
    return min(found, key=lambda f: f[0])[1:]


FITS = """(edition) => {
  const header = document.querySelector(".md-header").getBoundingClientRect().bottom
  const card = document.querySelector(`#answer .answer[data-edition="${edition}"]`)
  const box = element => { const r = element.getBoundingClientRect(); return { top: r.top, bottom: r.bottom } }
  const select = document.querySelector("form.edition-choice select[name=api]")
  const fits = card && card.querySelector(".answer-fits"), others = card && card.querySelector(".answer-conflict")
  return { header, viewport: window.innerHeight, scroll: window.scrollY,
           options: [...select.options].map(o => [o.value, o.textContent]), select: box(select),
           fits: fits && { text: fits.innerText, ...box(fits) },
           others: others && { text: others.innerText, ...box(others) } }
}"""


@browser_test
@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_a_cpp_reader_on_a_release_sees_which_api_fits_and_what_the_python_page_says(catalog, visit, width):
    """A C++ reader picks release 9.0.0: every API option says in plain words which installation
    it fits (C++ or Python API, the release, the repository its headers or package come from),
    not a copy's id; once the C++ copy is chosen, and with every page shown too, its card says so
    first and, on the first screen, that the Python page of that release gives another
    recoverability. The code and release come from the catalog."""
    family, code, release, python, cpp = release_disagreement(catalog)
    v = visit(width)
    for lang in catalog.site.languages:
        v.goto(f"{lang_prefix(catalog, lang)}{family.prefix}codes/{code.name}/")
        v.page.select_option("form.edition-choice select[name=release]", release)
        options = dict(v.page.evaluate(FITS, "")["options"])
        for page in family.pages:
            for timeline in page.timelines:
                if timeline.id not in options:
                    continue
                words = options[timeline.id]
                kind = catalog.site.label("api_python" if page.row_names == "python" else "api_cpp", lang)
                assert kind in words and timeline.id not in words, (lang, timeline.id, words)
                if timeline.repo:
                    assert timeline.repo.split("/")[-1] in words and timeline.repo not in words, (lang, words)
                if any(e.release == release for e in family.timeline_editions(timeline)):
                    assert release in words, (lang, timeline.id, words)
        # the C++ copy chosen: its card; every page shown: the first card, whichever page's it is
        shown_first = [e for e in (release_edition(family, code, release, page=p) for p in family.pages
                                   if code.name_on(p) is not None) if e is not None and code.name in e.row_by_code]
        for api, edition in ((cpp.timeline.id, cpp), ("", shown_first[0])):
            other = python if edition.page.row_names == "c" else cpp
            v.page.select_option("form.edition-choice select[name=api]", api)
            m = v.page.evaluate(FITS, edition.id)
            assert m["scroll"] == 0 and m["fits"] and m["others"], (lang, api, m)
            kind = "api_cpp" if edition.page.row_names == "c" else "api_python"
            assert options[edition.timeline.id] in [o[1] for o in m["options"]] or api == ""
            for words in (release, edition.timeline.repo.split("/")[-1], catalog.site.label(kind, lang)):
                assert words in m["fits"]["text"], (lang, api, words, m["fits"])
            said = family.recoverable_label(other.row_by_code[code.name].recoverable, lang)
            assert other.page.name[lang] in m["others"]["text"] and said in m["others"]["text"], (lang, api, m)
            assert other.page.heading("recoverable", lang) in m["others"]["text"], (lang, api, m)
            for part in ("select", "fits", "others"):
                assert m["header"] <= m[part]["top"] and m[part]["bottom"] <= m["viewport"], (lang, api, part, m)
            record("fits", f"{code.name} {release} {width} {lang} api={api or 'every page'} [{edition.id}]: select "
                           f"{m['select']['top']:.0f}–{m['select']['bottom']:.0f}, fits {m['fits']['top']:.0f}–"
                           f"{m['fits']['bottom']:.0f}, others {m['others']['top']:.0f}–{m['others']['bottom']:.0f} "
                           f"(viewport {m['viewport']})")


def visible_texts(html: str) -> str:
    """What a page's HTML shows as text: its text nodes, no attribute (a sign's title), no script."""
    from html.parser import HTMLParser

    class Texts(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.parts, self.skip = [], 0

        def handle_starttag(self, tag, attrs):
            self.skip += tag in ("script", "style")

        def handle_endtag(self, tag):
            self.skip -= tag in ("script", "style") and self.skip > 0

        def handle_data(self, data):
            if not self.skip:
                self.parts.append(data)

    parser = Texts()
    parser.feed(html)
    return " ".join(parser.parts)


def test_provenance_notes_appear_once_per_page(catalog):
    """"(upstream's proposed text, not released)" and the other provenance words appear once on a
    page, in the note that says what the sign means (its title); each text so marked shows the
    sign alone (with the words in its title), and a page with a sign has that note."""
    checked = 0
    for lang in catalog.site.languages:
        words = {kind: catalog.site.label(kind, lang) for kind in ("proposed", "translation", "untranslated")}
        for path in sorted(DOCS.rglob(f"*.{lang}.md")):
            html = path.read_text(encoding="utf-8")
            shown = visible_texts(html)
            for kind, said in words.items():
                classes = "translation" if kind == "translation" else f"translation {kind}"
                signs = html.count(f'<sup class="{classes} origin-sign"')
                count = shown.count(said)
                assert count <= 1, (path.relative_to(DOCS), kind, count)
                if signs:
                    sign = catalog.site.label(f"mark_{kind}", lang)
                    assert count == 1 and f"{sign} {said}" in shown, (path.relative_to(DOCS), kind, signs)
                    checked += 1
    assert checked, "no page shows a sign: the test would prove nothing"


def test_a_code_whose_title_is_not_its_c_name_shows_that_name_by_its_value(catalog):
    """A reader who came by a C name (/codes/LLM_WAIT_PROC_TIMEOUT/, a search for HIXL_TIMEOUT)
    sees it on the first screen, on the line of the value under the title; a page titled by its C
    name says nothing more there."""
    for family in catalog.families:
        for code in family.codes:
            c_name = family.c.macro_prefix + code.c_name if code.c_name else None
            for lang in catalog.site.languages:
                page = (ROOT / "site" / "docs" / family.prefix / "codes" / f"{code.name}.{lang}.md").read_text("utf-8")
                line = re.search(r'<p class="code-value-line">(.*?)</p>', page)[1]
                shown = re.sub(r"<[^>]+>", "", line)
                differs = c_name is not None and c_name != code.name
                assert ("C/C++" in shown) == differs, (code.name, lang, shown)
                assert not differs or shown.endswith(f"{c_name}"), (code.name, lang, shown)


def test_the_release_picker_names_the_unreleased_edition_in_the_pages_language(catalog):
    """The branch head's edition reads as 'the unreleased version' (尚未发布的版本) in the release picker, not
    as the catalog's word `unreleased`."""
    seen = 0
    for family in catalog.families:
        for lang in catalog.site.languages:
            for page in (ROOT / "site" / "docs" / family.prefix / "codes").glob(f"*.{lang}.md"):
                options = re.findall(r'<option value="unreleased">([^<]*)</option>', page.read_text("utf-8"))
                assert options in ([], [catalog.site.label("api_unreleased", lang)]), (page, options)
                seen += len(options)
    assert seen, "no code page offers the unreleased edition: this test needs one"


def test_a_page_of_a_family_of_messages_says_where_its_texts_come_from(catalog):
    """A GE code's page says under its title that its texts are the page on upstream's default
    branch (its first screen shows no release otherwise); a code without a page says nothing of it."""
    for family in catalog.message_families:
        for code in family.codes:
            for lang in catalog.site.languages:
                page = (ROOT / "site" / "docs" / family.prefix / "codes" / f"{code.id}.{lang}.md").read_text("utf-8")
                line = re.search(r'<p class="message-family">(.*?)</p>', page)[1]
                assert (f" {family.pages.branch} " in line) == code.page, (code.id, lang, line)
