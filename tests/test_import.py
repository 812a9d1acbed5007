"""`import`: an upstream page into the catalog, keeping its comments and sharing equal texts."""
import re
import shutil

import pytest

from generator.catalog import load_catalog
from generator.upstream import normalized
from tests.helpers import FIXTURES, ROOT, run_cli, tree

UP = FIXTURES / "upstream"


@pytest.fixture
def catalog_copy(tmp_path):
    target = tmp_path / "catalog"
    shutil.copytree(ROOT / "catalog", target)
    return target


def rows_of(catalog, edition_id, lang):
    edition = catalog.edition_by_id[edition_id]
    return [(r.code, r.recoverable,
             normalized(catalog.code_by_name[r.code].text("meaning", edition_id, lang)),
             normalized(catalog.code_by_name[r.code].text("solution", edition_id, lang))) for r in edition.rows]


def test_importing_seed_001_gives_the_rows_of_9_0_0_v2(catalog_copy, tmp_path):
    result = run_cli("import", "--catalog", catalog_copy, "--edition", "9.9.0-v2", "--lang", "zh",
                     "--page", UP / "page_v2_zh.md")
    assert result.code == 0, result.err
    imported = load_catalog(catalog_copy)
    assert rows_of(imported, "9.9.0-v2", "zh") == rows_of(imported, "9.0.0-v2", "zh")
    out = tmp_path / "out"
    assert run_cli("generate", "--catalog", catalog_copy, "--out", out).code == 0
    page = (out / "site/docs/editions/9.9.0-v2.zh.md").read_text(encoding="utf-8")
    reference = (out / "site/docs/editions/9.0.0-v2.zh.md").read_text(encoding="utf-8")
    assert _anchors(page) == _anchors(reference)


def _anchors(markdown):
    return re.findall(r'id="([a-z0-9_]+)"', markdown)


def test_importing_the_html_table_shares_every_equal_text(catalog_copy):
    before = load_catalog(catalog_copy)
    entries_before = sum(len(c.meaning) + len(c.solution) for c in before.codes)
    result = run_cli("import", "--catalog", catalog_copy, "--edition", "9.9.0-v1", "--lang", "en",
                     "--page", UP / "page_v1_en.html")
    assert result.code == 0, result.err
    after = load_catalog(catalog_copy)
    assert sum(len(c.meaning) + len(c.solution) for c in after.codes) == entries_before
    for row in after.edition_by_id["9.0.0-v1"].rows:
        code = after.code_by_name[row.code]
        for field in ("meaning", "solution"):
            assert code.text(field, "9.9.0-v1", "en") == code.text(field, "9.0.0-v1", "en"), row.code
    assert after.edition_by_id["9.9.0-v1"].text_origin("zh") is None


def test_import_twice_changes_nothing(catalog_copy):
    args = ("import", "--catalog", catalog_copy, "--edition", "9.9.0-v2", "--lang", "zh", "--page", UP / "page_v2_zh.md")
    assert run_cli(*args).code == 0
    snapshot = tree(catalog_copy)
    second = run_cli(*args)
    assert second.code == 0 and "0 file(s) changed" in second.out
    assert tree(catalog_copy) == snapshot


def test_reimporting_an_existing_edition_changes_nothing(catalog_copy):
    before = tree(catalog_copy)
    result = run_cli("import", "--catalog", catalog_copy, "--edition", "9.0.0-v1", "--lang", "en",
                     "--page", UP / "page_v1_en.html")
    assert result.code == 0, result.err
    assert tree(catalog_copy) == before


def test_comments_and_layout_elsewhere_survive(catalog_copy):
    original = {p: (ROOT / "catalog" / p).read_text(encoding="utf-8") for p in ("family.yaml", "editions.yaml", "codes.yaml")}
    run_cli("import", "--catalog", catalog_copy, "--edition", "9.9.0-v2", "--lang", "zh", "--page", UP / "page_v2_zh.md")
    assert (catalog_copy / "family.yaml").read_text(encoding="utf-8") == original["family.yaml"]
    editions = (catalog_copy / "editions.yaml").read_text(encoding="utf-8")
    assert editions.startswith(original["editions.yaml"].rstrip("\n"))  # the new edition is appended
    codes = (catalog_copy / "codes.yaml").read_text(encoding="utf-8")
    header = original["codes.yaml"].split("codes:\n", 1)[0]
    assert codes.startswith(header)
    assert codes.count("\n\n") == original["codes.yaml"].count("\n\n")  # blank lines between codes stay
    removed = [line for line in original["codes.yaml"].splitlines() if line not in codes.splitlines()]
    assert all("editions:" in line for line in removed), removed  # only edition lists grew


def test_an_edited_edition_replaces_its_text_and_keeps_the_other_language(catalog_copy, tmp_path):
    page = tmp_path / "page.md"
    page.write_text((UP / "page_v2_zh.md").read_text(encoding="utf-8").replace("| 链路繁忙 |", "| 链路很忙 |"), encoding="utf-8")
    assert run_cli("import", "--catalog", catalog_copy, "--edition", "9.0.0-v2", "--lang", "zh", "--page", page).code == 0
    catalog = load_catalog(catalog_copy)
    busy = catalog.code_by_name["LLM_LINK_BUSY"]
    assert busy.text("meaning", "9.0.0-v2", "zh") == "链路很忙"
    assert busy.text("meaning", "9.0.0-v1", "zh") == "链路繁忙"
    assert busy.text("meaning", "9.0.0-v2", "en") == "Link busy"


@pytest.mark.parametrize("name,message", [
    ("page_v2_zh_conflict.md", "unresolved merge-conflict markers"),
    ("page_no_table.md", "no status-code table found"),
])
def test_unreadable_pages_write_nothing(catalog_copy, name, message):
    before = tree(catalog_copy)
    result = run_cli("import", "--catalog", catalog_copy, "--edition", "9.9.0-v2", "--lang", "zh", "--page", UP / name)
    assert result.code == 1 and message in result.err
    assert tree(catalog_copy) == before


def test_language_mismatch_is_refused(catalog_copy):
    result = run_cli("import", "--catalog", catalog_copy, "--edition", "9.9.0-v2", "--lang", "en", "--page", UP / "page_v2_zh.md")
    assert result.code == 1 and "reads as zh" in result.err


def test_rows_settle_codes_whose_listing_was_not_known(catalog_copy, tmp_path):
    page = tmp_path / "page.md"
    page.write_text((UP / "page_v2_zh.md").read_text(encoding="utf-8"), encoding="utf-8")
    result = run_cli("import", "--catalog", catalog_copy, "--edition", "8.2.RC1", "--lang", "zh", "--page", page)
    assert result.code == 0, result.err
    edition = load_catalog(catalog_copy).edition_by_id["8.2.RC1"]
    assert edition.not_known == () and "LLM_DEVICE_MEM_ERROR" in edition.row_by_code
    assert "not_listed_not_known" not in (catalog_copy / "editions.yaml").read_text(encoding="utf-8").split("id: '8.2.RC1'")[1].split("- id:")[0]


def test_an_import_that_would_break_the_catalog_writes_nothing_and_names_the_real_file(catalog_copy):
    """9.0.0-v1's English texts are known: giving it the v2 page's rows lists LLM_TIMEOUT there
    with no English text for that edition, so the result is refused and nothing is written."""
    before = tree(catalog_copy)
    result = run_cli("import", "--catalog", catalog_copy, "--edition", "9.0.0-v1", "--lang", "zh", "--page", UP / "page_v2_zh.md")
    assert result.code == 3
    assert "LLM_TIMEOUT: no en meaning for edition 9.0.0-v1, whose page lists it" in result.err
    assert "(after the import)" in result.err
    assert all(line.startswith(str(catalog_copy / "codes.yaml")) for line in result.err.splitlines()[:-1]), result.err
    assert tree(catalog_copy) == before
