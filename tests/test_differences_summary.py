"""What a comparison of two editions sums up, and what it folds.

A small catalog written here holds pairs of editions whose every change is chosen: a code added,
one dropped, two rows moved to another file of a split page, a recoverability changed, texts
changed in meaning, in punctuation alone (；→。, ，→,) and in translation alone (this project's
English re-translated, upstream's Chinese unchanged), and upstream's English alone reworded
(the Chinese page says so, where its own text did not change). Each pair's counts and folds are written
out by hand below; the comparison page must say them in its summary line, show the changes of
meaning first and fold the rest below them, marked; and the page's script (extra.js), given the
page's data, must say the same for every pair of editions, in Chromium. The comparison page
opens on the release a reader chose on a code page: the rule is checked here on a page of two
timelines, and in the browser.
"""
from __future__ import annotations

import itertools

import pytest

from generator.domain.changes import Fold, compare_editions
from generator.reading.load import load_catalog
from generator.rendering.site import compare
from generator.rendering.site.context import Context
from tests.support.comparisons import read
from tests.support.helpers import ROOT

CATALOG = """\
format: 6
site:
  languages: [zh, en]
  language_names: {zh: 中文, en: English}
  name: {zh: 折叠演示, en: Fold demo}
repositories:
  demo/repo: {url: "https://example.org/demo/repo", default_branch: main}
family:
  id: fold
  name: {zh: 折叠, en: Fold}
  description: {zh: 折叠演示的状态码, en: the status codes of a fold demonstration}
  languages: [zh, en]
  python: {module: fold_codes, shape: enum, class: FoldCode, lookup: lookup, default_page: py}
  c: {header: fold_codes, guard: FOLD_CODES_H, namespace: fold_codes, name_function: fold_status_name}
  sphinx_directive: fold-codes
  recoverable_labels:
    "yes": {zh: [是], en: ["Yes"]}
    "no": {zh: [否], en: ["No"]}
    n/a: {zh: [无], en: [N/A]}
    not known: {zh: [未知], en: [Not known]}
  pages:
    - id: py
      name: {zh: Python 页面, en: Python page}
      title: {zh: FoldCode, en: FoldCode}
      rows: python
      columns: [name, meaning, recoverable, solution]
      headings:
        name: {zh: [枚举值], en: [Value]}
        meaning: {zh: [含义], en: [Meaning]}
        recoverable: {zh: [是否可恢复], en: [Recoverable]}
        solution: {zh: [解决办法], en: [Solution]}
      timelines:
        - {id: main, suffix: '', name: {zh: 主页面, en: Main page}, repo: demo/repo, paths: [docs/a.md]}
        - {id: next, suffix: -next, name: {zh: 新页面, en: Next page}}
versions:
  main:
    - version: '1.0'
      sources:
        - {repo: demo/repo, path: docs/a.md, commit: a1b2c3d4e5f60718293a4b5c6d7e8f9012345678, tags: [v1.0], lang: zh}
        - {repo: demo/repo, path: docs/en/a.md, commit: a1b2c3d4e5f60718293a4b5c6d7e8f9012345678, tags: [v1.0],
           lang: en}
        - {repo: demo/repo, path: docs/b.md, commit: a1b2c3d4e5f60718293a4b5c6d7e8f9012345678, tags: [v1.0], lang: zh,
           codes: [FOLD_MOVED]}
      texts: [zh, en]
      order: page
      rows: {FOLD_SAME: "yes", FOLD_PUNCT: "yes", FOLD_WIDTH: "yes", FOLD_TRANS: "no", FOLD_UPEN: "no",
             FOLD_BOTH: "no", FOLD_RECOV: "yes", FOLD_MOVED: "no", FOLD_GONE: "no"}
    - version: '2.0'
      sources:
        - {repo: demo/repo, path: docs/a.md, commit: b1b2c3d4e5f60718293a4b5c6d7e8f9012345678, tags: [v2.0], lang: zh}
        - {repo: demo/repo, path: docs/en/a.md, commit: b1b2c3d4e5f60718293a4b5c6d7e8f9012345678, tags: [v2.0],
           lang: en}
        - {repo: demo/repo, path: docs/b.md, commit: b1b2c3d4e5f60718293a4b5c6d7e8f9012345678, tags: [v2.0], lang: zh,
           codes: [FOLD_SAME]}
      texts: [zh, en]
      order: page
      rows: {FOLD_SAME: "yes", FOLD_PUNCT: "yes", FOLD_WIDTH: "yes", FOLD_TRANS: "no", FOLD_UPEN: "no",
             FOLD_BOTH: "no", FOLD_RECOV: "no", FOLD_MOVED: "no", FOLD_NEW: "yes"}
    - version: '3.0'
      sources:
        - {repo: demo/repo, path: docs/a.md, commit: c1b2c3d4e5f60718293a4b5c6d7e8f9012345678, tags: [v3.0], lang: zh}
        - {repo: demo/repo, path: docs/b.md, commit: c1b2c3d4e5f60718293a4b5c6d7e8f9012345678, tags: [v3.0], lang: zh,
           codes: [FOLD_SAME]}
      texts: [zh]
      order: page
      rows: {FOLD_SAME: "yes", FOLD_PUNCT: "yes", FOLD_WIDTH: "yes", FOLD_TRANS: "no", FOLD_UPEN: "no",
             FOLD_BOTH: "no", FOLD_RECOV: "no", FOLD_MOVED: "no", FOLD_NEW: "yes"}
  next:
    - version: '2.0-next'
      release: '2.0'
      sources: [{document: the published next page}]
      texts: not known
      order: not known
      rows: {FOLD_SAME: "yes"}
    - version: '3.0-next'
      release: '3.0'
      sources: [{document: the published next page}]
      texts: not known
      order: not known
      rows: {FOLD_SAME: "yes"}
    - version: '4.0-next'
      release: '4.0'
      sources: [{document: the published next page}]
      texts: not known
      order: not known
      rows: {FOLD_SAME: "yes", FOLD_NEW: "yes"}
codes:
  - python: FOLD_SAME
    value: 1
    meaning: [{from: ['1.0'], zh: 相同, en: Same}]
    solution: [{from: ['1.0'], zh: 无需处理。, en: Nothing to do.}]
  - python: FOLD_PUNCT
    value: 2
    meaning: [{from: ['1.0'], zh: 标点, en: Punctuation}]
    solution:
      - {from: ['1.0'], zh: 重启机器；再试, en: "Restart; retry"}
      - {from: ['2.0'], zh: 重启机器。再试, en: "Restart, retry."}
  - python: FOLD_WIDTH
    value: 3
    meaning: [{from: ['1.0'], zh: 全角, en: Full width}]
    solution:
      - {from: ['1.0'], zh: 检查参数，重试, en: Check the parameters.}
      - {from: ['2.0'], zh: "检查参数,重试"}
  - python: FOLD_TRANS
    value: 4
    meaning: [{from: ['1.0'], zh: 译文, en: Translation}]
    solution:
      - {from: ['1.0'], zh: 稍后重试。}
      - {from: ['1.0'], origin: translation, en: Retry later.}
      - {from: ['2.0'], origin: translation, en: Try again in a while.}
  - python: FOLD_UPEN
    value: 5
    meaning: [{from: ['1.0'], zh: 上游英文, en: Upstream English}]
    solution:
      - {from: ['1.0'], zh: 检查链路。, en: Check the link.}
      - {from: ['2.0'], en: Check the network.}
  - python: FOLD_BOTH
    value: 6
    meaning: [{from: ['1.0'], zh: 两者, en: Both}]
    solution:
      - {from: ['1.0'], zh: 检查配置。}
      - {from: ['1.0'], origin: translation, en: Check the configuration.}
      - {from: ['2.0'], zh: 检查网络。}
      - {from: ['2.0'], origin: translation, en: Check the network.}
  - python: FOLD_RECOV
    value: 7
    meaning:
      - {from: ['1.0'], zh: 忙碌；, en: Busy}
      - {from: ['3.0'], zh: 忙碌。}
    solution: [{from: ['1.0'], zh: 无。, en: None.}]
  - python: FOLD_MOVED
    value: 8
    meaning: [{from: ['1.0'], zh: 移动, en: Moved}]
    solution: [{from: ['1.0'], zh: 无。, en: None.}]
  - python: FOLD_GONE
    value: 9
    meaning: [{from: ['1.0'], zh: 删除, en: Gone}]
    solution: [{from: ['1.0'], zh: 无。, en: None.}]
  - python: FOLD_NEW
    value: 10
    meaning: [{from: ['2.0'], zh: 新增, en: New}]
    solution: [{from: ['2.0'], zh: 无。, en: None.}]
"""


@pytest.fixture(scope="module")
def fold(tmp_path_factory):
    path = tmp_path_factory.mktemp("fold") / "catalog.yaml"
    path.write_text(CATALOG, encoding="utf-8")
    catalog = load_catalog(path)
    return catalog, catalog.family_by_id["fold"]


# (old, new, language): the counts the summary line says (None: the texts are not known), and which
# code's text goes where: shown first (meaning) or folded (punctuation, translation; elsewhere: upstream's
# words in the other language alone changed)
EXPECTED = {
    ("1.0", "2.0", "zh"): (
        {"added": 1, "dropped": 1, "listing_not_known": 0, "moved_row": 2, "renamed_row": 0,
         "recoverable_changed": 1, "became_known": 0, "texts_reworded": 1, "punctuation_changed": 2,
         "translation_changed": 0, "reworded_elsewhere": 1},
        {"meaning": ["FOLD_BOTH"], "punctuation": ["FOLD_PUNCT", "FOLD_WIDTH"], "translation": [],
         "elsewhere": ["FOLD_UPEN"]}),
    ("1.0", "2.0", "en"): (
        {"added": 1, "dropped": 1, "listing_not_known": 0, "moved_row": 2, "renamed_row": 0,
         "recoverable_changed": 1, "became_known": 0, "texts_reworded": 2, "punctuation_changed": 1,
         "translation_changed": 1, "reworded_elsewhere": 0},
        {"meaning": ["FOLD_UPEN", "FOLD_BOTH"], "punctuation": ["FOLD_PUNCT"], "translation": ["FOLD_TRANS"],
         "elsewhere": []}),
    ("2.0", "3.0", "zh"): (
        {"added": 0, "dropped": 0, "listing_not_known": 0, "moved_row": 0, "renamed_row": 0,
         "recoverable_changed": 0, "became_known": 0, "texts_reworded": 0, "punctuation_changed": 1,
         "translation_changed": 0, "reworded_elsewhere": 0},
        {"meaning": [], "punctuation": ["FOLD_RECOV"], "translation": [], "elsewhere": []}),
    ("2.0", "3.0", "en"): (  # 3.0's English texts were never seen
        {"added": 0, "dropped": 0, "listing_not_known": 0, "moved_row": 0, "renamed_row": 0,
         "recoverable_changed": 0, "became_known": 0, "texts_reworded": None, "punctuation_changed": 0,
         "translation_changed": 0, "reworded_elsewhere": 0},
        {"meaning": [], "punctuation": [], "translation": [], "elsewhere": []}),
}

# What the summary line reads, for two of them (the kinds said only where some changed left out).
SUMMARY_LINES = {
    ("1.0", "2.0", "en"): "In short Added: 1 · Dropped: 1 · Moved to another file: 2 · Renamed: 0 · "
                          "Recoverability changed: 1 · Texts reworded: 2 · Punctuation or spacing only: 1 · "
                          "Translation only: 1",
    ("2.0", "3.0", "zh"): "变化概览 新增：0 · 不再列出：0 · 移至另一文件：0 · 改名：0 · 可恢复性变化：0 · "
                          "文本措辞变化：0 · 仅标点或空白变化：1",
    ("2.0", "3.0", "en"): "In short Added: 0 · Dropped: 0 · Moved to another file: 0 · Renamed: 0 · "
                          "Recoverability changed: 0 · Texts reworded: Not known (no copy of this edition's texts "
                          "was seen)",
}


def context(catalog, family, lang):
    return Context(catalog, lang, compare.differences_location(family, family.page_by_id["py"]), family)


@pytest.mark.parametrize("old,new,lang", list(EXPECTED), ids=["-".join(k) for k in EXPECTED])
def test_each_pair_is_counted_and_folded_as_written_by_hand(fold, old, new, lang):
    catalog, family = fold
    diff = compare_editions(family, family.edition_by_id[old], family.edition_by_id[new])
    counts, where = EXPECTED[(old, new, lang)]
    assert compare.change_counts(diff, lang) == counts
    got = {kind.value: [c.code for c in diff.texts if c.lang == lang and c.fold == kind] for kind in Fold}
    assert {**got, "elsewhere": [c.code for c in diff.elsewhere_for(lang)]} == where
    # the page: the summary line, the changes of meaning before every fold, each fold marked as such
    html = compare.diff_html(context(catalog, family, lang), family, family.edition_by_id[old],
                             family.edition_by_id[new])
    page = read(html)
    if (old, new, lang) in SUMMARY_LINES:
        assert page.summary == SUMMARY_LINES[(old, new, lang)]
    folds = [b for b in page.blocks if b["fold"] is not None]
    kinds = [k for k in ("punctuation", "translation", "elsewhere") if where[k]]
    assert [b["fold"] for b in folds] == [f"compare-fold fold-{k}" for k in kinds]
    first_fold = next((i for i, b in enumerate(page.blocks) if b["fold"] is not None), len(page.blocks))
    assert all(b["fold"] is None for b in page.blocks[:first_fold]) and \
        all(b["fold"] is not None for b in page.blocks[first_fold:]), page.blocks
    meaning_tables = page.blocks[:first_fold]
    if where["meaning"]:
        assert meaning_tables[-1]["codes"] == where["meaning"]  # the texts' table closes the changes of meaning
    for block, kind in zip(folds, kinds):
        assert block["codes"] == where[kind]
        words = catalog.site.label(f"{kind}_only", lang)
        assert block["summary"] == words.replace("{count}", str(len(where[kind])))


def test_a_text_whose_upstream_words_changed_is_never_folded_as_translation(fold):
    """FOLD_BOTH's English is this project's translation on both sides, but upstream's Chinese
    changed too: a change of meaning. FOLD_UPEN's English is upstream's own: never translation."""
    _, family = fold
    diff = compare_editions(family, family.edition_by_id["1.0"], family.edition_by_id["2.0"])
    folds = {(c.code, c.lang): c.fold for c in diff.texts}
    assert folds[("FOLD_BOTH", "en")] == Fold.MEANING and folds[("FOLD_UPEN", "en")] == Fold.MEANING
    assert folds[("FOLD_TRANS", "en")] == Fold.TRANSLATION
    assert folds[("FOLD_WIDTH", "zh")] == Fold.PUNCTUATION  # full-width comma to ASCII


# The comparison the page opens on for a release (and copy) chosen on a code page: page editions
# 1.0, 2.0, 2.0-next, 3.0, 3.0-next, 4.0-next; the first comparison is 3.0-next → 4.0-next.
REMEMBERED = {
    "1.0|": ("1.0", "4.0-next"),  # no edition on the newest's timeline: its own
    "2.0|": ("2.0-next", "4.0-next"),  # on the newest's timeline
    "3.0|": ("3.0-next", "4.0-next"),
    "2.0|main": ("2.0", "3.0"),  # a copy chosen: that copy's newest
    "1.0|main": ("1.0", "3.0"),
    "2.0|next": ("2.0-next", "4.0-next"),
    "3.0|next": ("3.0-next", "4.0-next"),
}  # 4.0 is the newest; 3.0 on main is main's newest; 1.0 has no edition on next: the first comparison


def test_a_release_chosen_on_a_code_page_opens_its_comparison_to_the_newest(fold):
    _, family = fold
    page = family.page_by_id["py"]
    editions = family.page_editions(page)
    assert [e.id for e in editions] == ["1.0", "2.0", "2.0-next", "3.0", "3.0-next", "4.0-next"]
    pairs = compare.remembered_pairs(family, page)
    assert {key: (editions[a].id, editions[b].id) for key, (a, b) in pairs.items()} == REMEMBERED


# -- the page's script, in Chromium, against the generator -----------------------------------------------

SCRIPT = ROOT / "site" / "docs" / "assets" / "javascripts" / "extra.js"
ORIGIN = "http://fixture.test"

ALL_PAIRS = """(pairs) => {
  const form = document.querySelector("form.compare"), result = document.querySelector(".compare-result")
  return pairs.map(([old, now]) => {
    form.elements.old.value = old; form.elements.new.value = now
    form.dispatchEvent(new Event("change"))
    return result.innerHTML
  })
}"""
NORMALIZED = """(htmls) => htmls.map(html => {
  const t = document.createElement("template"); t.innerHTML = html; return t.innerHTML })"""


def page_html(catalog, family, lang) -> str:
    """The fixture's comparison page as MkDocs writes its body, with the site's script."""
    from tests.support.site_build import page_html as markdown_html

    body = markdown_html(compare.render_page_differences(catalog, family, family.page_by_id["py"], lang))
    return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8"></head><body>{body}'
            f'<script>{SCRIPT.read_text(encoding="utf-8")}</script></body></html>')


@pytest.fixture
def served(chromium, fold):
    """A browser page whose requests for ORIGIN/LANG/ get the fixture's comparison page in LANG."""
    catalog, family = fold
    pages = {lang: page_html(catalog, family, lang) for lang in catalog.site.languages}
    context = chromium.new_context()

    def route(r):
        lang = r.request.url[len(ORIGIN) + 1:].split("/")[0]
        if lang in pages:
            r.fulfill(status=200, content_type="text/html; charset=utf-8", body=pages[lang])
        else:
            r.fulfill(status=200, content_type="text/html; charset=utf-8", body="<!doctype html><p>a code page</p>")

    context.route(f"{ORIGIN}/**", route)
    yield context.new_page()
    context.close()


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_pages_script_counts_and_folds_every_pair_as_the_generator(fold, served, lang):
    """Every pair of the fixture's editions, picked in the page's lists: the script's summary
    line, tables and folds are the generator's, to the character; and for the pairs written by
    hand above, the counts and folds are those."""
    catalog, family = fold
    page = served
    page.goto(f"{ORIGIN}/{lang}/")
    editions = family.page_editions(family.page_by_id["py"])
    ctx = context(catalog, family, lang)
    pairs = [(i, j) for i in range(len(editions)) for j in range(i + 1, len(editions))]
    shown = page.evaluate(ALL_PAIRS, [[editions[i].id, editions[j].id] for i, j in pairs])
    wanted = page.evaluate(NORMALIZED, [f'<p class="compare-pair">{compare.pair_html(editions[i], editions[j])}</p>'
                                        + compare.diff_html(ctx, family, editions[i], editions[j]) for i, j in pairs])
    for (i, j), html, want in zip(pairs, shown, wanted):
        assert html == want, (editions[i].id, editions[j].id)
        key = (editions[i].id, editions[j].id, lang)
        if key in SUMMARY_LINES:
            assert read(html).summary == SUMMARY_LINES[key]
    # the hand-written pairs' folds, as the script wrote them
    for (old, new, which), (_, where) in EXPECTED.items():
        if which != lang:
            continue
        pair = (editions.index(family.edition_by_id[old]), editions.index(family.edition_by_id[new]))
        html = shown[pairs.index(pair)]
        folds = [b for b in read(html).blocks if b["fold"] is not None]
        kinds = ("punctuation", "translation", "elsewhere")
        assert [b["codes"] for b in folds] == [where[k] for k in kinds if where[k]]


REMEMBER = """([family, release, api]) => sessionStorage.setItem("llm-status-codes:choice:" + family,
                                                        JSON.stringify({release: release, api: api}))"""


@pytest.mark.slow
@pytest.mark.browser
def test_the_page_opens_on_the_remembered_release_to_the_newest_when_followed_from_the_site(fold, served):
    """Followed from a page of the site with 2.0 chosen (copy: main), the page opens on 2.0 → 3.0
    and says why; opened from the address bar, or with an address that names a pair, or with a
    release it cannot open on, it shows what it shows without the choice."""
    _, family = fold
    page = served
    page.goto(f"{ORIGIN}/codes/")
    page.evaluate(REMEMBER, ["fold", "2.0", "main"])

    def opened(path, referer):
        page.goto(f"{ORIGIN}/{path}", referer=referer)
        notes = page.locator(".compare-result p.compare-remembered")
        return page.locator(".compare-result p.compare-pair").text_content(), \
            notes.text_content() if notes.count() else None

    site = f"{ORIGIN}/codes/"
    assert opened("en/", site) == ("2.0 → 3.0",
                                   "Compared from the release you chose on a code page, 2.0, to the newest.")
    assert opened("zh/", site)[0] == "2.0 → 3.0"
    assert opened("en/", None) == ("3.0-next → 4.0-next", None)  # typed: the first comparison
    assert opened("en/", "https://elsewhere.example/") == ("3.0-next → 4.0-next", None)
    assert opened("en/?old=1.0&new=2.0", site) == ("1.0 → 2.0", None)  # the address wins
    page.evaluate(REMEMBER, ["fold", "2.0", "cpp-v1"])  # a copy of another page: the release alone
    assert opened("en/", site) == ("2.0-next → 4.0-next",
                                   "Compared from the release you chose on a code page, 2.0, to the newest.")
    page.evaluate(REMEMBER, ["fold", "4.0", ""])  # the newest itself: nothing older to compare
    assert opened("en/", site) == ("3.0-next → 4.0-next", None)
    page.evaluate(REMEMBER, ["other", "1.0", ""])  # another family's choice is not this one's
    page.evaluate(REMEMBER, ["fold", "", ""])
    assert opened("en/", site) == ("3.0-next → 4.0-next", None)
    # a pick of the reader's own: the note goes with the comparison it spoke of
    page.evaluate(REMEMBER, ["fold", "2.0", "main"])
    opened("en/", site)
    page.select_option("form.compare select[name=old]", "1.0")
    assert page.locator(".compare-result p.compare-remembered").count() == 0
    assert page.locator(".compare-result p.compare-pair").text_content() == "1.0 → 3.0"


def test_english_borrowed_from_another_copy_is_no_rewording_where_upstreams_own_words_kept_theirs(catalog):
    """The page published for 9.0.0 has no English of its own: the English it shows is another copy's
    (upstream's words, borrowed). Where upstream's own Chinese changed by punctuation alone, an
    English difference says where the text came from, not that upstream reworded it: translation
    only, never a change of meaning; checked for every pair of editions of every family."""
    checked = 0
    for family in catalog.families:
        for old, new in itertools.combinations(family.editions, 2):
            if old.page is not new.page:
                continue
            diff = compare_editions(family, old, new)
            zh = {(c.code, c.field): c for c in diff.texts if c.lang == "zh"}
            for change in (c for c in diff.texts if c.lang == "en"):
                borrowed = [e.id for e in (old, new) if not any(s.lang in ("en", None) for s in e.sources)]
                if not borrowed or (change.code, change.field) not in zh:
                    continue
                checked += 1
                if zh[(change.code, change.field)].fold != Fold.MEANING:
                    assert change.fold != Fold.MEANING, (old.id, new.id, change.code, change.field, borrowed)
    assert checked > 10
    llm = catalog.family_by_id["llm_datadist"]
    diff = compare_editions(llm, llm.edition_by_id["9.0.0-v2"], llm.edition_by_id["9.0.0-v2-repo"])
    folds = {(c.code, c.field): c.fold for c in diff.texts if c.lang == "en"}
    assert folds[("LLM_CLUSTER_NUM_EXCEED_LIMIT", "meaning")] == Fold.TRANSLATION  # 集群数量超过限制 → 。
    assert folds[("LLM_DEVICE_MEM_ERROR", "meaning")] == Fold.MEANING  # upstream reworded its Chinese
