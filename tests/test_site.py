"""The built documentation site: pages, URLs, anchors, languages and Chinese search."""
import json
import re

import pytest

LANG_PREFIX = {"zh": "", "en": "en/"}


def page(built_site, lang, path):
    return (built_site / LANG_PREFIX[lang] / path / "index.html").read_text(encoding="utf-8")


def test_the_build_has_no_warning(built_site):
    log = (built_site / "build.log").read_text()
    assert "WARNING" not in log


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_code_edition_and_the_differences_have_a_page(built_site, catalog, lang):
    for code in catalog.codes:
        assert (built_site / LANG_PREFIX[lang] / "codes" / code.name / "index.html").is_file(), code.name
    for edition in catalog.editions:
        assert (built_site / LANG_PREFIX[lang] / "editions" / edition.id / "index.html").is_file()
    assert (built_site / LANG_PREFIX[lang] / "differences" / "index.html").is_file()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_code_page_is_in_the_navigation(built_site, catalog, lang):
    home = page(built_site, lang, "")
    nav = home[home.index('class="md-nav md-nav--primary"'):]
    for code in catalog.codes:
        assert f'href="codes/{code.name}/"' in nav, code.name


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_edition_rows_follow_the_page_order_with_anchors(built_site, catalog, lang):
    for edition in catalog.editions:
        html = page(built_site, lang, f"editions/{edition.id}")
        anchors = re.findall(r'<a class="code-anchor" id="([a-z0-9_]+)">', html)
        assert anchors == [catalog.code_by_name[row.code].slug for row in edition.rows], edition.id


def test_language_switch_points_to_the_same_page(built_site):
    zh = page(built_site, "zh", "codes/LLM_TIMEOUT")
    en = page(built_site, "en", "codes/LLM_TIMEOUT")
    assert 'href="../../en/codes/LLM_TIMEOUT/" hreflang="en"' in zh
    assert 'href="../../../codes/LLM_TIMEOUT/" hreflang="zh"' in en


def test_texts_are_in_their_language(built_site):
    assert "处理超时" in page(built_site, "zh", "codes/LLM_TIMEOUT")
    en = page(built_site, "en", "codes/LLM_TIMEOUT")
    assert "Processing timeout" in en and "处理超时" not in en


def test_translated_texts_are_marked_on_the_page(built_site):
    en = page(built_site, "en", "editions/9.0.0-v2")
    assert "translated by this project" in en
    assert "translated by this project" not in page(built_site, "en", "editions/9.0.0-v1")
    assert 'admonition-title">本项目的翻译<' not in page(built_site, "zh", "editions/9.0.0-v2")
    assert 'admonition-title">translated by this project<' in en


def test_unknown_is_shown_as_unknown(built_site):
    html = page(built_site, "zh", "editions/8.0.0")
    row = html[html.index('id="llm_timeout"'):]
    row = row[: row.index("</tr>")]
    assert "未知" in row and "否" not in row


def search_entries(built_site, location):
    index = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    return [doc for doc in index["docs"] if doc["location"].split("#")[0] == location]


def test_chinese_is_segmented_in_the_search_index(built_site):
    text = " ".join(doc["title"] + " " + doc["text"] for doc in search_entries(built_site, "codes/LLM_TIMEOUT/"))
    assert "\u200b超时\u200b" in text
    busy = " ".join(doc["text"] for doc in search_entries(built_site, "codes/LLM_NOTIFY_PROMPT_UNLINK_FAILED/"))
    assert "\u200b断链\u200b" in busy  # a catalog search word: jieba alone cuts 侧断/链


def test_code_pages_carry_their_hex_and_decimal_values(built_site):
    text = " ".join(doc["text"] for doc in search_entries(built_site, "codes/LLM_TIMEOUT/"))
    assert "0x5010B01A" in text and "1343270938" in text
