"""The Sphinx directive: one per family, an edition's table with every text escaped by
Sphinx, and a rebuild after a catalog edit shows the new text."""
import re
import shutil
import subprocess
import sys
from html import unescape

import pytest

from tests.support.helpers import MINI, ROOT

pytestmark = pytest.mark.slow  # runs sphinx-build


def project(tmp_path, body: str, catalog_rel: str) -> tuple:
    src = tmp_path / "docs"
    src.mkdir()
    (src / "conf.py").write_text(
        "extensions = ['generator.sphinx']\n"
        f"llm_status_codes_catalog = {catalog_rel!r}\n"
        "project = 'probe'\n", encoding="utf-8")
    (src / "index.rst").write_text("Probe\n=====\n\n" + body, encoding="utf-8")
    return src, tmp_path / "html"


def sphinx_build(src, out, *extra):
    return subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-q", *extra, str(src), str(out)],
                          capture_output=True, text=True, cwd=ROOT)


def cells(html: str) -> list[list[str]]:
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    return [
        [unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)] for r in rows
    ]


def test_the_llm_directive_renders_an_edition_in_its_own_order_with_row_ids(tmp_path, llm):
    src, out = project(tmp_path, ".. llm-status-codes::\n   :edition: 9.0.0-v2\n   :lang: en\n", str(ROOT / "catalog"))
    result = sphinx_build(src, out, "-W")
    assert result.returncode == 0, result.stderr
    html = (out / "index.html").read_text(encoding="utf-8")
    edition = llm.edition_by_id["9.0.0-v2"]
    rows = cells(html)
    assert len(rows) == len(edition.rows)
    page = edition.page
    names = [r[page.columns.index("name")].split()[0] for r in rows]
    assert names == [llm.code_by_name[r.code].name_on(page) or r.code for r in edition.rows]
    first = llm.code_by_name[edition.rows[0].code]
    assert f'id="{first.slug}"' in html
    meaning = first.entry("meaning", edition.id, "en")
    assert meaning is not None and meaning.text.split("\n")[0] in unescape(html)


def test_without_an_edition_the_table_is_the_one_the_module_answers_from(tmp_path, llm):
    """No :edition: gives the newest final release on the default timeline, the edition the module
    answers from by default (it gave 9.2.0-beta.1-v1, a pre-release of the other copy)."""
    from generator.domain.queries import default_edition

    src, out = project(tmp_path, ".. llm-status-codes::\n   :lang: en\n", str(ROOT / "catalog"))
    result = sphinx_build(src, out, "-W")
    assert result.returncode == 0, result.stderr
    html = (out / "index.html").read_text(encoding="utf-8")
    expected = default_edition(llm, llm.code_by_name["LLM_TIMEOUT"])
    assert expected.id == "9.1.0-v2"  # the module's answer for a code every page lists
    names = [r[expected.page.columns.index("name")].split()[0] for r in cells(html)]
    assert names == [llm.code_by_name[r.code].name_on(expected.page) or r.code for r in expected.rows]
    assert "LLM_TIMEOUT" in names
    # the columns' widths reach the page (the recoverability column of one CJK character a line was
    # a column the browser sized by its heading's narrowest word)
    widths = [float(w) for w in re.findall(r'<col style="width: ([\d.]+)%" />', html)]
    assert len(widths) == len(expected.page.columns) and min(widths) >= 10, widths


@pytest.mark.parametrize("edition", ["9.0.0-v2", "9.1.0-v2"])
def test_each_sign_on_the_tables_texts_is_said_above_it(tmp_path, llm, catalog, edition):
    """Every kind of text that is not upstream's released words (proposed *, this project's
    translation †, not translated yet ‡) has its note above the table when the table shows one,
    as the site's edition pages do; 9.0.0-v2's English showed * on nearly every cell with a note
    that said only what † means."""
    src, out = project(tmp_path, f".. llm-status-codes::\n   :edition: {edition}\n   :lang: en\n",
                       str(ROOT / "catalog"))
    result = sphinx_build(src, out, "-W")
    assert result.returncode == 0, result.stderr
    html = unescape((out / "index.html").read_text(encoding="utf-8")).replace("\u2019", "'")  # smart quotes
    shown = {e.origin for r in llm.edition_by_id[edition].rows for f in llm.edition_by_id[edition].page.text_fields
             for e in [llm.code_by_name[r.code].entry(f, edition, "en")] if e is not None}
    for kind, origin in (("untranslated_note", "untranslated"), ("translation_note", "translation"),
                         ("proposed_note", "proposed")):
        assert (catalog.site.label(kind, "en") in html) == (origin in shown), (kind, shown)


def test_each_family_has_its_directive(tmp_path, catalog):
    body = "".join(f".. {f.sphinx_directive}::\n   :lang: en\n\n" for f in catalog.families)
    src, out = project(tmp_path, body, str(ROOT / "catalog"))
    result = sphinx_build(src, out, "-W")
    assert result.returncode == 0, result.stderr
    assert (out / "index.html").read_text(encoding="utf-8").count("<table") == len(catalog.families)


def test_a_catalog_edit_shows_after_a_rebuild_and_hostile_text_is_escaped(tmp_path):
    catalog = tmp_path / "catalog.yaml"
    shutil.copy(MINI, catalog)
    src, out = project(tmp_path, ".. demo-codes::\n   :edition: 2.0-new\n   :lang: en\n", "../catalog.yaml")
    assert sphinx_build(src, out).returncode == 0
    assert "Busy" in (out / "index.html").read_text(encoding="utf-8")
    text = catalog.read_text(encoding="utf-8")
    catalog.write_text(
        text.replace("en: Busy", "en: 'Busy <script>alert(1)</script> & overloaded'", 1), encoding="utf-8"
    )
    result = sphinx_build(src, out)  # incremental: only the catalog changed
    assert result.returncode == 0, result.stderr
    html = (out / "index.html").read_text(encoding="utf-8")
    assert "Busy &lt;script&gt;alert(1)&lt;/script&gt; &amp; overloaded" in html
    assert "<script>alert(1)" not in html


def test_usage_errors_are_reported_at_the_directive(tmp_path):
    src, out = project(tmp_path, ".. demo-codes::\n   :edition: 9.9\n\n.. demo-codes::\n   :lang: fr\n", str(MINI))
    result = sphinx_build(src, out)
    assert "no edition '9.9' in demo; editions: 1.0, 2.0-new, 2.0-cpp" in result.stderr
    assert ":lang: must be one of zh, en, not 'fr'" in result.stderr
    assert re.search(r"index\.rst:\d+: ERROR", result.stderr)


def test_an_invalid_catalog_is_named_with_its_position(tmp_path):
    catalog = tmp_path / "catalog.yaml"
    catalog.write_text(MINI.read_text(encoding="utf-8").replace("value: 0x10", "value: 0x_"), encoding="utf-8")
    src, out = project(tmp_path, "Nothing here.\n", "../catalog.yaml")
    result = sphinx_build(src, out)
    assert "invalid" in result.stderr and re.search(rf"{re.escape(str(catalog))}:\d+:\d+:", result.stderr)
    assert "Traceback" not in result.stderr


def test_a_row_says_what_the_sites_edition_page_says_and_sphinx_changes_no_word(tmp_path, catalog):
    """Each row: the value the code had at the edition's release (a value fix leaves an older
    edition's value as it was), and where the other language's page says otherwise (ADXL 9.1.0's
    SUCCESS); the edition's notes above the table; and upstream's words as upstream writes them
    (Sphinx's smart quotes made the deprecated page's "Parameter's invalid!" another string)."""
    copy = tmp_path / "catalog"
    shutil.copytree(ROOT / "catalog", copy)
    codes = copy / "llm_datadist" / "codes.yaml"
    text = codes.read_text(encoding="utf-8")
    fixed = "    value: 0x5010B01A\n    wrapper: kLLMTimeout\n"
    assert text.count(fixed) == 1
    codes.write_text(text.replace(fixed, fixed + "    earlier:\n      - {value: 0x5010B0FF, until: {hicann/hixl: "
                                              "'9.1.0'}}\n"), encoding="utf-8")
    body = "".join(f".. {directive}::\n   :edition: {edition}\n   :lang: en\n\n" for directive, edition in (
        ("llm-status-codes", "9.0.0-v2"), ("llm-status-codes", "9.1.0-v2"), ("adxl-status-codes", "9.1.0"),
        ("llm-status-codes", "9.1.0-cpp-deprecated")))
    src, out = project(tmp_path, body, str(copy))
    result = sphinx_build(src, out, "-W")
    assert result.returncode == 0, result.stderr
    html = unescape((out / "index.html").read_text(encoding="utf-8"))
    old, new, adxl, deprecated = html.split("<table")[1:]
    assert "0x5010B0FF (1343271167)" in re.sub(r"<[^>]+>", "", old) and "0x5010B01A" not in old
    assert "0x5010B01A (1343270938)" in re.sub(r"<[^>]+>", "", new) and "0x5010B0FF" not in new
    adxl_family = catalog.family_by_id["adxl"]
    adxl_edition = adxl_family.edition("9.1.0")
    [(lang, other)] = adxl_edition.row_by_code["SUCCESS"].disagreements
    said = catalog.site.label("disagreement_in_table", "en").replace("{lang}", catalog.site.language_names[lang]) \
        .replace("{value}", adxl_family.recoverable_label(other, lang))
    success = [row for row in cells("<tbody>" + adxl.split("<tbody>", 1)[1]) if row[0].startswith("SUCCESS")]
    assert said in success[0][2], success
    assert adxl_edition.notes["en"] in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))
    deprecated_words = {e.text for r in catalog.family_by_id["llm_datadist"].edition("9.1.0-cpp-deprecated").rows
                        for f in ("meaning", "solution") for e in [catalog.family_by_id["llm_datadist"].code_by_name[
                            r.code].entry(f, "9.1.0-cpp-deprecated", "en")] if e is not None and "'" in e.text}
    assert deprecated_words, "the deprecated page has a text with an apostrophe"
    # the deprecated page's first column is the decimal value, as upstream writes it (and the site shows it)
    llm = catalog.family_by_id["llm_datadist"]
    rows = cells("<tbody>" + deprecated.split("<tbody>", 1)[1])
    assert [row[0].split()[0] for row in rows] == [str(llm.code_by_name[r.code].value) for r in
                                                   llm.edition("9.1.0-cpp-deprecated").rows]
    shown = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", deprecated))
    for words in deprecated_words:
        for line in words.split("\n"):
            assert re.sub(r"^(\d+\.|[-*]) ", "", line) in shown, line
    assert "\u2019" not in html and "\u201c" not in deprecated


@pytest.mark.parametrize("language", ["en_US", "en-GB", "EN"])
def test_the_projects_language_in_any_spelling_chooses_the_tables_language(tmp_path, catalog, language):
    src, out = project(tmp_path, ".. llm-status-codes::\n   :edition: 9.1.0-v2\n", str(ROOT / "catalog"))
    (src / "conf.py").write_text((src / "conf.py").read_text(encoding="utf-8") + f"language = {language!r}\n",
                                 encoding="utf-8")
    result = sphinx_build(src, out, "-W", "-D", "suppress_warnings=i18n.babel")
    assert result.returncode == 0, result.stderr
    page = catalog.family_by_id["llm_datadist"].edition("9.1.0-v2").page
    html = (out / "index.html").read_text(encoding="utf-8")
    assert page.heading("meaning", "en") in html and page.heading("meaning", "zh") not in html


def test_the_text_builder_writes_columns_a_heading_fits_in(tmp_path, catalog):
    """The column widths are characters to the text builder: 4, 3, 2 and 6 broke every word."""
    src, out = project(tmp_path, ".. llm-status-codes::\n   :edition: 9.1.0-v2\n   :lang: en\n", str(ROOT / "catalog"))
    result = subprocess.run([sys.executable, "-m", "sphinx", "-b", "text", "-q", "-W", str(src), str(out)],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    text = (out / "index.txt").read_text(encoding="utf-8")
    page = catalog.family_by_id["llm_datadist"].edition("9.1.0-v2").page
    header = next(line for line in text.splitlines() if line.startswith("| "))
    assert [cell.strip() for cell in header.strip("|").split("|")] == [page.heading(c, "en") for c in page.columns]
    assert "| LLM_TIMEOUT" in text.replace('"', "").replace("``", "")
