"""`import`: an upstream page into the catalog, as a new edition in its place or as an update.

Each test works on a copy of the fixture catalog (tests/fixtures/upstream/catalog) and on pages
this project writes from it in upstream's formats (tests/upstream_formats.py): importing an
edition's own page as a new edition must give that edition's rows and share its texts.
"""
from __future__ import annotations

import difflib
import re
import shutil
from pathlib import Path

import pytest

from generator import audit
from generator.catalog import load_catalog
from tests import upstream_formats as uf
from tests.helpers import run_cli
from tests.upstream_formats import CATALOG, PYTHON_PAGE_900, PYTHON_PAGE_910, REPO, build_upstream

pytestmark = pytest.mark.slow  # edits catalogs by round trip and builds git repositories; make test-fast leaves it out


def copy_catalog(tmp_path: Path) -> Path:
    target = tmp_path / "catalog"
    shutil.copytree(CATALOG, target)
    return target


def family_of(catalog: Path):
    return load_catalog(catalog).family_by_id["llm_datadist"]


def ids_in_file(catalog: Path) -> list[str]:
    return re.findall(r"^  - id: '([^']+)'$", (catalog / "llm_datadist" / "editions.yaml").read_text(encoding="utf-8"), re.M)


def files(catalog: Path) -> dict[str, str]:
    return {p.relative_to(catalog).as_posix(): p.read_text(encoding="utf-8") for p in sorted(catalog.rglob("*.yaml"))}


def import_page(catalog: Path, page: Path, edition: str, lang: str = "zh", *extra: str):
    return run_cli("import", "--catalog", catalog, "--edition", edition, "--lang", lang, "--page", page, *extra)


RENDER = {"html": lambda f, e, lang: uf.html_page(f, e, lang), "pipe": lambda f, e, lang: uf.pipe_page(f, e, lang, bom=True)}


def write_page(tmp_path: Path, family, edition_id: str, fmt: str, lang: str = "zh") -> Path:
    page = tmp_path / f"{edition_id}.{lang}.{fmt}.md"
    page.write_text(RENDER[fmt](family, family.edition_by_id[edition_id], lang) if lang == "zh" or fmt == "html"
                    else uf.english_page(family, family.edition_by_id[edition_id]), encoding="utf-8")
    return page


# -- a new edition ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("new, like, fmt, before", [
    ("8.5.0-v2", "9.0.0-v2", "html", "9.0.0-v2"),  # an older release: first
    ("9.0.1-v2", "9.1.0-v2", "pipe", "9.1.0-v2"),  # between two releases
    ("9.0.1-cpp-v2", "9.1.0-cpp-v2", "pipe", "9.1.0-v2"),
    ("9.1.0-beta.1-v2", "9.1.0-v2", "pipe", "9.1.0-v2"),  # a pre-release before its final release
    ("9.1.0-v2-repo", "9.0.0-v2", "html", "9.1.0-cpp-v2"),  # a repository copy after its published page
    ("unreleased-cpp-v2", "9.1.0-cpp-v2", "html", None),  # after every release
])
def test_a_new_edition_goes_to_its_place_in_release_order(tmp_path, new, like, fmt, before):
    catalog = copy_catalog(tmp_path)
    family = family_of(catalog)
    page = write_page(tmp_path, family, like, fmt)
    result = import_page(catalog, page, new, "zh", "--url", f"https://example.org/{new}.html")
    assert result.code == 0, result.err
    ids = ids_in_file(catalog)
    assert (ids[ids.index(new) + 1] if before else ids[-1]) == (before or new), ids
    after = family_of(catalog)
    assert [e.id for e in after.editions] == ids
    edition, model = after.edition_by_id[new], after.edition_by_id[like]
    assert [(r.code, r.recoverable) for r in edition.rows] == [(r.code, r.recoverable) for r in model.rows]
    assert edition.languages == ("zh",) and edition.order_known
    assert [(s.url, s.lang) for s in edition.sources] == [(f"https://example.org/{new}.html", "zh")]
    for row in edition.rows:
        code, before_code = after.code_by_name[row.code], family.code_by_name[row.code]
        for field in edition.page.text_fields:
            # Every text equal to one the catalog has is shared: the entry gains the edition.
            assert code.text(field, new, "zh") == code.text(field, like, "zh"), (row.code, field)
            assert code.entry(field, new, "zh").pos == code.entry(field, like, "zh").pos
            assert len(code.entries(field)) == len(before_code.entries(field))
    findings = audit.audit_page(after, edition, str(page), page.read_text(encoding="utf-8"))
    assert not [f for f in findings if not f.known], "\n".join(map(str, findings))


def test_an_import_changes_nothing_but_the_new_edition_and_the_ids_that_share_its_texts(tmp_path):
    catalog = copy_catalog(tmp_path)
    before = files(catalog)
    page = write_page(tmp_path, family_of(catalog), "9.1.0-v2", "pipe")
    assert import_page(catalog, page, "9.0.1-v2", "zh", "--url", "https://example.org/p").code == 0
    after = files(catalog)
    assert {k for k in after if after[k] != before[k]} == {"llm_datadist/editions.yaml", "llm_datadist/codes.yaml"}
    old, new = before["llm_datadist/editions.yaml"].splitlines(), after["llm_datadist/editions.yaml"].splitlines()
    ops = [op for op in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes() if op[0] != "equal"]
    assert [op[0] for op in ops] == ["insert"], ops
    inserted = new[ops[0][3]:ops[0][4]]
    assert inserted[0] == "  - id: '9.0.1-v2'" and inserted[-1] == "", inserted  # its own blank line after it
    old, new = before["llm_datadist/codes.yaml"].splitlines(), after["llm_datadist/codes.yaml"].splitlines()
    assert len(old) == len(new)
    changed = [(a, b) for a, b in zip(old, new) if a != b]
    order = ids_in_file(catalog)
    for a, b in changed:  # only lists of editions, each gaining the new one in release order
        assert re.sub(r"\[.*\]", "", a) == re.sub(r"\[.*\]", "", b) == "      - editions: ", (a, b)
        ids = re.findall(r"'([^']+)'", b)
        assert sorted(ids) == sorted(re.findall(r"'([^']+)'", a) + ["9.0.1-v2"]), (a, b)
        assert ids == sorted(ids, key=order.index), (a, b)
    assert changed


def test_importing_the_same_page_again_changes_nothing(tmp_path):
    catalog = copy_catalog(tmp_path)
    page = write_page(tmp_path, family_of(catalog), "9.0.0-v2", "html")
    assert import_page(catalog, page, "9.0.1-v2", "zh", "--url", "https://example.org/p").code == 0
    once = files(catalog)
    result = import_page(catalog, page, "9.0.1-v2", "zh", "--url", "https://example.org/p")
    assert result.code == 0 and "0 file(s) changed" in result.out, result
    assert files(catalog) == once


@pytest.mark.parametrize("edition, lang, fmt", [
    ("9.0.0-v2", "zh", "html"), ("9.0.0-cpp-v2", "zh", "html"), ("9.1.0-v2", "zh", "pipe"), ("9.1.0-v2", "en", "pipe"),
    ("9.1.0-cpp-v2", "zh", "pipe"),
])
def test_importing_an_editions_own_page_changes_nothing(tmp_path, edition, lang, fmt):
    """Links, escapes, bullets, steps, notes and N/A read back as the catalog holds them."""
    catalog = copy_catalog(tmp_path)
    before = files(catalog)
    page = write_page(tmp_path, family_of(catalog), edition, fmt, lang)
    result = import_page(catalog, page, edition, lang)
    assert result.code == 0 and "0 file(s) changed" in result.out, result
    assert files(catalog) == before


def test_a_changed_text_gets_an_entry_of_its_own(tmp_path):
    catalog = copy_catalog(tmp_path)
    family = family_of(catalog)
    page = write_page(tmp_path, family, "9.1.0-v2", "pipe")
    page.write_text(page.read_text(encoding="utf-8").replace("| 参数错误 |", "| 参数不对 |", 1), encoding="utf-8")
    assert import_page(catalog, page, "9.0.1-v2", "zh", "--url", "https://example.org/p").code == 0
    code = family_of(catalog).code_by_name["LLM_PARAM_INVALID"]
    assert code.text("meaning", "9.0.1-v2", "zh") == "参数不对"
    assert code.text("meaning", "9.1.0-v2", "zh") == "参数错误"
    assert [e.editions for e in code.entries("meaning") if e.text == "参数不对"] == [("9.0.1-v2",)]


# -- from an upstream repository ----------------------------------------------------------------------------


def _import_upstream(upstream, edition: str, ref: str, path: str, lang: str = "zh"):
    return run_cli("import", "--catalog", upstream.catalog, "--edition", edition, "--lang", lang,
                   "--upstream", f"{REPO}={upstream.repo.path}", "--ref", ref, "--path", path)


def _source(upstream, edition: str):
    [source] = family_of(upstream.catalog).edition_by_id[edition].sources
    return source


def test_import_from_a_tag_records_the_first_tag_that_ships_it_and_every_tag(tmp_path):
    upstream = build_upstream(tmp_path)
    result = _import_upstream(upstream, "9.0.1-v2", "v9.0.1", PYTHON_PAGE_900)
    assert result.code == 0, result.err
    source = _source(upstream, "9.0.1-v2")
    assert (source.repo, source.path, source.commit, source.tags, source.branch, source.lang) == (
        REPO, PYTHON_PAGE_900, upstream.commits["v9.0.0"], ("v9.0.0-rc.1", "v9.0.0", "v9.0.1"), None, "zh")
    assert upstream.audit().code == 0


def test_import_from_the_default_branch_records_the_branch(tmp_path):
    upstream = build_upstream(tmp_path)
    page = (upstream.repo.path / PYTHON_PAGE_910).read_text(encoding="utf-8")
    upstream.repo.write(PYTHON_PAGE_910, page.replace("| 成功 |", "| 成功了 |", 1))
    head = upstream.repo.commit("a change on the default branch")
    assert upstream.audit().code == 1  # the catalog lacks it ...
    result = _import_upstream(upstream, "unreleased-v2", "master", PYTHON_PAGE_910)
    assert result.code == 0, result.err
    source = _source(upstream, "unreleased-v2")
    assert (source.commit, source.branch, source.tags) == (head, "master", ())
    assert ids_in_file(upstream.catalog)[-1] == "unreleased-v2"
    audited = upstream.audit()
    assert audited.code == 0, audited.out  # ... and no longer


def test_import_from_a_commit_no_tag_ships_records_no_tags(tmp_path):
    upstream = build_upstream(tmp_path)
    page = (upstream.repo.path / PYTHON_PAGE_910).read_text(encoding="utf-8")
    upstream.repo.write(PYTHON_PAGE_910, page.replace("| 成功 |", "| 成功了 |", 1))
    middle = upstream.repo.commit("a change")
    upstream.repo.write("README.md", "later\n")
    upstream.repo.commit("a later commit")
    result = _import_upstream(upstream, "9.1.0-v2-repo", middle, PYTHON_PAGE_910)
    assert result.code == 0, result.err
    source = _source(upstream, "9.1.0-v2-repo")
    assert (source.commit, source.branch, source.tags) == (middle, None, ())
    assert "tags: []" in (upstream.catalog / "llm_datadist" / "editions.yaml").read_text(encoding="utf-8")


# -- refused --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("args, message", [
    (["--ref", "v9.0.1"], "--upstream needs --ref TAG and --path PATH"),
    (["--path", PYTHON_PAGE_900], "--upstream needs --ref TAG and --path PATH"),
    (["--ref", "v7.0.0", "--path", PYTHON_PAGE_900], "--ref v7.0.0: no such tag, branch or commit in hicann/hixl"),
    (["--ref", "v9.0.1", "--path", "docs/python/nope.md"], "--path docs/python/nope.md: no such file at v9.0.1 in hicann/hixl"),
], ids=["no path", "no ref", "no such ref", "no such path"])
def test_wrong_upstream_usage_is_exit_2_in_one_line(tmp_path, args, message):
    upstream = build_upstream(tmp_path)
    before = files(upstream.catalog)
    result = run_cli("import", "--catalog", upstream.catalog, "--edition", "9.0.1-v2", "--lang", "zh",
                     "--upstream", f"{REPO}={upstream.repo.path}", *args)
    assert result.code == 2 and result.out == "", result
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.err
    assert files(upstream.catalog) == before


def test_page_and_upstream_exclude_each_other_and_a_missing_page_is_usage(tmp_path):
    catalog = copy_catalog(tmp_path)
    result = import_page(catalog, tmp_path / "missing.md", "9.0.1-v2")
    assert result.code == 2 and "no such file" in result.err
    page = write_page(tmp_path, family_of(catalog), "9.0.0-v2", "html")
    result = import_page(catalog, page, "9.0.1-v2", "zh", "--upstream", f"{REPO}={tmp_path}")
    assert result.code == 2, result


def test_a_page_that_cannot_be_imported_says_where_and_writes_nothing(tmp_path):
    catalog = copy_catalog(tmp_path)
    before = files(catalog)
    family = family_of(catalog)
    text = uf.pipe_page(family, family.edition_by_id["9.1.0-v2"], "zh")
    page = tmp_path / "page.md"
    page.write_text(text.replace("| LLM_PARAM_INVALID |", "| LLM_NO_SUCH_CODE |", 1), encoding="utf-8")
    result = import_page(catalog, page, "9.0.1-v2", "zh", "--url", "https://example.org/p")
    line = uf.line_of(text, "| LLM_PARAM_INVALID |")
    assert result.code == 1 and f"{page}:{line}: no code 'LLM_NO_SUCH_CODE'" in result.err, result
    assert files(catalog) == before

    page.write_text(uf.english_page(family, family.edition_by_id["9.1.0-v2"]), encoding="utf-8")
    result = import_page(catalog, page, "9.0.1-v2", "en", "--url", "https://example.org/p")
    assert result.code == 1 and "import its zh page first" in result.err, result
    page.write_text(text, encoding="utf-8")
    result = import_page(catalog, page, "9.1.0-v2", "en")
    assert result.code == 1 and "pass --lang zh" in result.err, result
    assert files(catalog) == before


def test_validate_refuses_editions_out_of_release_order(tmp_path):
    catalog = copy_catalog(tmp_path)
    path = catalog / "llm_datadist" / "editions.yaml"
    text = path.read_text(encoding="utf-8")
    start, end = text.index("  - id: '9.0.0-v2'"), text.index("  - id: '9.0.0-cpp-v2'")
    path.write_text(text[:start] + text[end:].rstrip("\n") + "\n\n" + text[start:end], encoding="utf-8")
    result = run_cli("validate", "--catalog", catalog)
    assert result.code == 3 and "edition 9.0.0-v2 is out of release order" in result.err, result
