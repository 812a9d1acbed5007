"""`import`: an upstream page into the catalog, as the smallest diff that records it.

Each test works on a copy of the fixture catalog (tests/fixtures/upstream/catalog) and on pages
this project writes from it in upstream's formats (tests/support/upstream_formats.py), or on a git
repository of such pages built in the test: an unchanged page costs a line, a changed one a
version written against the one before and an entry per changed text.
"""
from __future__ import annotations

import difflib
import os
import shutil
from pathlib import Path

import pytest
from html5lib.html5parser import HTMLParser
from markdown_it import MarkdownIt

from generator.audit.page import audit_page
from generator.reading.load import load_catalog
from generator.domain.model import UNTRANSLATED
from tests.support import upstream_formats as uf
from tests.support.helpers import run_cli
from tests.support.upstream_formats import (CATALOG, ENGLISH_PAGE_910, PYTHON_PAGE_900, PYTHON_PAGE_910, REPO,
                                             build_upstream)

pytestmark = pytest.mark.slow  # edits catalogs and builds git repositories; make test-fast leaves it out


def copy_catalog(tmp_path: Path) -> Path:
    target = tmp_path / "catalog"
    shutil.copytree(CATALOG, target)
    return target


def family_of(catalog: Path):
    return load_catalog(catalog).family_by_id["llm_datadist"]


def files(catalog: Path) -> dict[str, str]:
    return {p.relative_to(catalog).as_posix(): p.read_text(encoding="utf-8") for p in sorted(catalog.rglob("*.yaml"))}


def changed_lines(before: str, after: str) -> list[tuple[str, list[str], list[str]]]:
    old, new = before.splitlines(), after.splitlines()
    return [
        (op, old[a:b], new[c:d])
        for op, a, b, c, d in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
        if op != "equal"
    ]


def import_page(catalog: Path, page: Path, edition: str, lang: str = "zh", *extra: str):
    return run_cli("import", "--catalog", catalog, "--edition", edition, "--lang", lang, "--page", page, *extra)


RENDER = {
    "html": lambda f, e, lang: uf.html_page(f, e, lang),
    "pipe": lambda f, e, lang: uf.pipe_page(f, e, lang, bom=True, marked=False),
}


def write_page(tmp_path: Path, family, edition_id: str, fmt: str, lang: str = "zh") -> Path:
    """The edition's page as the catalog says it (API names unmarked, as its texts are)."""
    page = tmp_path / f"{edition_id}.{lang}.{fmt}.md"
    page.write_text(RENDER[fmt](family, family.edition_by_id[edition_id], lang) if lang == "zh" or fmt == "html"
                    else uf.english_page(family, family.edition_by_id[edition_id], marked=False), encoding="utf-8")
    return page


# -- a page of the catalog again ------------------------------------------------------------------------------


def test_cells_written_with_markup_are_recorded_with_it(tmp_path):
    """Code spans in an English page's cells (upstream's `unlink_clusters`) come in as
    `markdown: true` texts (tests/test_release_shapes.py writes such a page back byte for byte);
    a second import of it changes nothing."""
    catalog = copy_catalog(tmp_path)
    family = family_of(catalog)
    text = uf.english_page(family, family.edition_by_id["9.1.0-v2"])
    assert "`unlink_clusters`" in text
    page = tmp_path / "en.md"
    page.write_text(text, encoding="utf-8")
    assert import_page(catalog, page, "9.1.0-v2", "en").code == 0
    family = family_of(catalog)
    marked = [c.entry("solution", "9.1.0-v2", "en") for c in family.codes]
    marked = [e for e in marked if e is not None and "`unlink_clusters`" in e.written]
    assert marked and all(e.markdown and "`" not in e.text and e.origin == "upstream" for e in marked)
    assert all("9.0.1-v2" not in e.editions for e in marked)  # the release before keeps its own
    before = files(catalog)
    again = import_page(catalog, page, "9.1.0-v2", "en")
    assert again.code == 0 and "0 file(s) changed" in again.out and files(catalog) == before, again


@pytest.mark.parametrize("edition, lang, fmt", [
    ("9.0.0-v2", "zh", "html"), ("9.0.1-v2", "zh", "html"), ("9.0.0-cpp-v2", "zh", "html"), ("9.1.0-v2", "zh", "pipe"),
    ("9.1.0-v2", "en", "pipe"), ("9.1.0-cpp-v2", "zh", "pipe"),
])
def test_importing_an_editions_own_page_changes_nothing(tmp_path, edition, lang, fmt):
    """Links, escapes, bullets, steps, notes and N/A read back as the catalog holds them."""
    catalog = copy_catalog(tmp_path)
    before = files(catalog)
    page = write_page(tmp_path, family_of(catalog), edition, fmt, lang)
    result = import_page(catalog, page, edition, lang)
    assert result.code == 0 and "0 file(s) changed" in result.out, result
    assert files(catalog) == before


# -- a published page of a new release -------------------------------------------------------------------------


def test_an_unchanged_page_published_for_a_new_release_is_a_short_version_and_no_text(tmp_path):
    catalog = copy_catalog(tmp_path)
    before = files(catalog)
    page = write_page(tmp_path, family_of(catalog), "9.1.0-v2", "pipe")
    result = import_page(catalog, page, "9.2.0-v2", "zh", "--url", "https://example.org/920.html")
    assert result.code == 0, result.err
    after = files(catalog)
    assert {k for k in after if after[k] != before[k]} == {"llm_datadist/editions.yaml"}
    [(op, _, inserted)] = changed_lines(before["llm_datadist/editions.yaml"], after["llm_datadist/editions.yaml"])
    assert op == "insert" and inserted[0] == "    - version: '9.2.0-v2'" and len(inserted) <= 10, inserted
    assert "      based_on: '9.1.0-v2'" in inserted and not any("rows" in line for line in inserted)
    family = family_of(catalog)
    edition, model = family.edition_by_id["9.2.0-v2"], family.edition_by_id["9.1.0-v2"]
    assert edition.rows == model.rows and [(s.url, s.lang) for s in edition.sources] == [
        ("https://example.org/920.html", "zh")
    ]
    for row in edition.rows:  # every text holds on, its English with it
        code = family.code_by_name[row.code]
        for field in edition.page.text_fields:
            for lang in ("zh", "en"):
                assert code.text(field, "9.2.0-v2", lang) == code.text(field, "9.1.0-v2", lang), (row.code, field, lang)
    findings = audit_page(family, edition, str(page), page.read_text(encoding="utf-8"))
    assert not [f for f in findings if not f.known], "\n".join(map(str, findings))
    again = import_page(catalog, page, "9.2.0-v2", "zh", "--url", "https://example.org/920.html")
    assert again.code == 0 and "0 file(s) changed" in again.out and files(catalog) == after


def test_a_changed_text_is_one_entry_whose_english_is_untranslated(tmp_path):
    catalog = copy_catalog(tmp_path)
    before = files(catalog)
    page = write_page(tmp_path, family_of(catalog), "9.1.0-v2", "pipe")
    page.write_text(page.read_text(encoding="utf-8").replace("| 参数错误 |", "| 参数不对 |", 1), encoding="utf-8")
    result = import_page(catalog, page, "9.2.0-v2", "zh", "--url", "https://example.org/p")
    assert result.code == 0, result.err
    assert "translate: LLM_PARAM_INVALID meaning (en) from 9.2.0-v2" in result.out, result.out
    [(op, _, inserted)] = changed_lines(before["llm_datadist/codes.yaml"], files(catalog)["llm_datadist/codes.yaml"])
    assert (op, inserted) == (
        "insert",
        ["      - from: ['9.2.0-v2']", "        zh: 参数不对", "        untranslated: [en]"],
    )
    family = family_of(catalog)
    code = family.code_by_name["LLM_PARAM_INVALID"]
    assert code.text("meaning", "9.2.0-v2", "zh") == "参数不对" and code.text("meaning", "9.1.0-v2", "zh") == "参数错误"
    assert code.entry("meaning", "9.2.0-v2", "en").origin == UNTRANSLATED
    assert code.entry("solution", "9.2.0-v2", "en") == code.entry(
        "solution", "9.1.0-v2", "en"
    )  # unchanged: its English
    assert run_cli("validate", "--catalog", catalog).err.count("is not translated yet") == 1


WEB_TIMELINE = """\
        - id: web
          suffix: -web
          name:
            zh: web：发布的文档
            en: "web: the published documentation"
"""


def test_a_new_timelines_page_that_says_what_another_timelines_does_writes_no_text_again(tmp_path):
    """The Python page on a timeline of its own (a published copy), saying what 9.1.0-v2 says: each
    of its texts is written already, so each entry that writes one holds from the new version too
    (its `from`; an entry whose English the new version does not know yet is split) and no text is
    written again; its English page likewise."""
    catalog = copy_catalog(tmp_path)
    family_yaml = catalog / "llm_datadist" / "family.yaml"
    text = family_yaml.read_text(encoding="utf-8")
    family_yaml.write_text(text.replace("    - id: cpp\n", WEB_TIMELINE + "    - id: cpp\n", 1), encoding="utf-8")
    family = family_of(catalog)
    before = files(catalog)["llm_datadist/codes.yaml"]
    for lang in ("zh", "en"):
        page = write_page(tmp_path, family, "9.1.0-v2", "pipe", lang)
        result = import_page(catalog, page, "9.1.0-web", lang, "--url", "https://example.org/web.html")
        assert result.code == 0, result.err
    changes = changed_lines(before, files(catalog)["llm_datadist/codes.yaml"])
    assert changes and all(line.strip().startswith("- from: [") for _, old, new in changes for line in old + new), \
        changes  # only `from` lines: no text written, none taken away
    family = family_of(catalog)
    assert family.version_by_id["9.1.0-web"].languages == ("zh", "en")
    for row in family.edition_by_id["9.1.0-web"].rows:
        code = family.code_by_name[row.code]
        for field in ("meaning", "solution"):
            for lang in ("zh", "en"):
                web, v2 = code.entry(field, "9.1.0-web", lang), code.entry(field, "9.1.0-v2", lang)
                assert (web.written, web.origin) == (v2.written, v2.origin), (row.code, field, lang)
    assert run_cli("validate", "--catalog", catalog).code == 0


def test_a_file_ruamel_writes_otherwise_keeps_its_bytes_until_an_import_changes_it(tmp_path):
    """A construct that ruamel.yaml writes back otherwise (a flow mapping on two lines; the committed
    catalog has none, tests/test_catalog_yaml.py): a file the import does not change keeps its bytes,
    and one it changes is rewritten there too, which the import says, at that line, for a person."""
    catalog = copy_catalog(tmp_path)
    codes = catalog / "llm_datadist" / "codes.yaml"
    one = "      - {name: 'llm_datadist::LLM_SUCCESS', header: llm_datadist/llm_datadist.h}\n"
    two = "      - {name: 'llm_datadist::LLM_SUCCESS',\n         header: llm_datadist/llm_datadist.h}\n"
    codes.write_text(codes.read_text(encoding="utf-8").replace(one, two, 1), encoding="utf-8")
    line = 1 + codes.read_text(encoding="utf-8").split("\n").index(two.split("\n")[0])
    before = codes.read_bytes()
    page = write_page(tmp_path, family_of(catalog), "9.1.0-v2", "pipe")
    result = import_page(catalog, page, "9.2.0-v2", "zh", "--url", "https://example.org/920.html")
    assert result.code == 0 and codes.read_bytes() == before and "writes this file back" not in result.out, result
    page.write_text(page.read_text(encoding="utf-8").replace("| 参数错误 |", "| 参数不对 |", 1), encoding="utf-8")
    result = import_page(catalog, page, "9.3.0-v2", "zh", "--url", "https://example.org/930.html")
    assert result.code == 0, result.err
    assert f"codes.yaml:{line}: ruamel.yaml writes this file back otherwise than it is written" in result.out, result
    assert one in codes.read_text(encoding="utf-8")


# -- from an upstream repository ------------------------------------------------------------------------------


def _import_upstream(upstream, edition: str, ref: str, path: str, lang: str = "zh"):
    return run_cli("import", "--catalog", upstream.catalog, "--edition", edition, "--lang", lang,
                   "--upstream", f"{REPO}={upstream.repo.path}", "--ref", ref, "--path", path)


def _import_release(upstream, ref: str):
    return run_cli("import", "--catalog", upstream.catalog, "--upstream", f"{REPO}={upstream.repo.path}", "--ref", ref)


def _editions_text(upstream) -> str:
    return (upstream.catalog / "llm_datadist" / "editions.yaml").read_text(encoding="utf-8")


def test_a_tag_that_ships_an_unchanged_page_joins_its_version_in_one_line(tmp_path):
    upstream = build_upstream(tmp_path)
    upstream.repo.write("README.md", "9.1.1\n")
    upstream.repo.commit("9.1.1", "v9.1.1")
    before = _editions_text(upstream)
    result = _import_upstream(upstream, "9.1.1-v2", "v9.1.1", PYTHON_PAGE_910)
    assert result.code == 0, result.err
    [(op, old, new)] = changed_lines(before, _editions_text(upstream))
    assert op == "replace" and len(old) == len(new) == 1 and new[0].endswith("tags: [v9.1.0, v9.1.1]"), (old, new)
    family = family_of(upstream.catalog)
    assert family.edition_by_id["9.1.1-v2"].version == "9.1.0-v2"


def test_a_release_of_unchanged_pages_costs_a_line_per_page(tmp_path):
    upstream = build_upstream(tmp_path)
    upstream.repo.write("README.md", "9.1.1\n")
    upstream.repo.commit("9.1.1", "v9.1.1")
    before = files(upstream.catalog)
    result = _import_release(upstream, "v9.1.1")
    assert result.code == 0, result.err
    after = files(upstream.catalog)
    assert {k for k in after if after[k] != before[k]} == {"llm_datadist/editions.yaml"}
    changes = changed_lines(before["llm_datadist/editions.yaml"], after["llm_datadist/editions.yaml"])
    assert len(changes) == 3 and all(op == "replace" and len(old) == len(new) == 1 for op, old, new in changes), changes
    assert all(new[0].endswith("tags: [v9.1.0, v9.1.1]") for _, _, new in changes)  # the Python, C++ and English pages
    assert upstream.audit().code == 0
    again = _import_release(upstream, "v9.1.1")
    assert again.code == 0 and files(upstream.catalog) == after


def test_a_changed_page_at_a_tag_is_a_new_version_that_audits_clean(tmp_path):
    upstream = build_upstream(tmp_path)
    page = (upstream.repo.path / PYTHON_PAGE_910).read_text(encoding="utf-8")
    upstream.repo.write(PYTHON_PAGE_910, page.replace("| 成功 |", "| 成功了 |", 1))
    commit = upstream.repo.commit("9.2.0", "v9.2.0")
    result = _import_release(upstream, "v9.2.0")
    assert result.code == 0, result.err
    family = family_of(upstream.catalog)
    version = family.version_by_id["9.2.0-v2"]
    assert version.based_on == "9.1.0-v2" and version.editions == ("9.2.0-v2",)
    [source] = version.sources
    assert (source.commit, source.tags, source.branch) == (commit, ("v9.2.0",), None)
    assert family.code_by_name["LLM_SUCCESS"].text("meaning", "9.2.0-v2", "zh") == "成功了"
    audited = upstream.audit()
    assert audited.code == 0, audited.out


def test_the_branch_heads_page_is_unreleased_until_a_tag_takes_it_over(tmp_path):
    upstream = build_upstream(tmp_path)
    page = (upstream.repo.path / PYTHON_PAGE_910).read_text(encoding="utf-8")
    upstream.repo.write(PYTHON_PAGE_910, page.replace("| 成功 |", "| 成功了 |", 1))
    head = upstream.repo.commit("a change on the default branch")
    assert upstream.audit().code == 1  # the catalog lacks it ...
    result = _import_release(upstream, "master")
    assert result.code == 0, result.err
    family = family_of(upstream.catalog)
    [source] = family.version_by_id["unreleased-v2"].sources
    assert (source.commit, source.branch, source.tags) == (head, "master", ())
    assert upstream.audit().code == 0  # ... and no longer
    upstream.repo.git("tag", "v9.2.0")
    result = _import_release(upstream, "v9.2.0")
    assert result.code == 0, result.err
    family = family_of(upstream.catalog)
    assert "unreleased-v2" not in family.edition_by_id and "unreleased-v2" not in family.version_by_id
    assert family.edition("unreleased-v2").id == "9.2.0-v2"  # the id once published still resolves
    assert family.code_by_name["LLM_SUCCESS"].text("meaning", "9.2.0-v2", "zh") == "成功了"
    assert "unreleased-v2" not in (upstream.catalog / "llm_datadist" / "codes.yaml").read_text(encoding="utf-8")
    assert f"{{edition: 'unreleased-v2', commit: {head}}}" in _editions_text(upstream)
    audited = upstream.audit()
    assert audited.code == 0, audited.out


def test_an_english_page_no_tag_ships_gives_the_english_of_its_version(tmp_path):
    upstream = build_upstream(tmp_path)
    page = (upstream.repo.path / ENGLISH_PAGE_910).read_text(encoding="utf-8")
    upstream.repo.write(ENGLISH_PAGE_910, page.replace("| Successful|", "| Succeeded|", 1))
    middle = upstream.repo.commit("a better translation")
    upstream.repo.write("README.md", "later\n")
    upstream.repo.commit("a later commit")
    result = _import_upstream(upstream, "9.1.0-v2", middle, ENGLISH_PAGE_910, "en")
    assert result.code == 0, result.err
    family = family_of(upstream.catalog)
    assert family.code_by_name["LLM_SUCCESS"].text("meaning", "9.1.0-v2", "en") == "Succeeded"
    sources = [s for s in family.version_by_id["9.1.0-v2"].sources if s.commit == middle]
    assert [(s.lang, s.tags, s.branch) for s in sources] == [("en", (), None)]


# -- refused --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, message",
    [
        (["--ref", "v9.0.1"], "--upstream needs --ref TAG and --path PATH"),
        (["--path", PYTHON_PAGE_900], "--upstream needs --ref TAG and --path PATH"),
        (["--ref", "v7.0.0", "--path", PYTHON_PAGE_900], "--ref v7.0.0: no such tag, branch or commit in hicann/hixl"),
        (
            ["--ref", "v9.0.1", "--path", "docs/python/nope.md"],
            "--path docs/python/nope.md: no such file at v9.0.1 in hicann/hixl",
        ),
    ],
    ids=["no path", "no ref", "no such ref", "no such path"],
)
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
    result = import_page(catalog, tmp_path / "missing.md", "9.2.0-v2")
    assert result.code == 2 and "no such file" in result.err
    page = write_page(tmp_path, family_of(catalog), "9.0.0-v2", "html")
    result = import_page(catalog, page, "9.2.0-v2", "zh", "--upstream", f"{REPO}={tmp_path}")
    assert result.code == 2, result


def test_a_page_that_cannot_be_imported_says_where_and_writes_nothing(tmp_path):
    catalog = copy_catalog(tmp_path)
    before = files(catalog)
    family = family_of(catalog)
    text = uf.pipe_page(family, family.edition_by_id["9.1.0-v2"], "zh")
    page = tmp_path / "page.md"
    page.write_text(text.replace("| LLM_PARAM_INVALID |", "| LLM_NO_SUCH_CODE |", 1), encoding="utf-8")
    result = import_page(catalog, page, "9.2.0-v2", "zh", "--url", "https://example.org/p")
    line = uf.line_of(text, "| LLM_PARAM_INVALID |")
    assert result.code == 1 and f"{page}:{line}: no code 'LLM_NO_SUCH_CODE'" in result.err, result
    assert files(catalog) == before

    page.write_text(uf.english_page(family, family.edition_by_id["9.1.0-v2"]), encoding="utf-8")
    result = import_page(catalog, page, "9.2.0-v2", "en", "--url", "https://example.org/p")
    assert result.code == 1 and "import its zh page first" in result.err, result
    page.write_text(text, encoding="utf-8")
    result = import_page(catalog, page, "9.1.0-v2", "en")
    assert result.code == 1 and "pass --lang zh" in result.err, result
    page.write_text(text.replace("| LLM_FAILED |", "| LLM_SUCCESS |", 1), encoding="utf-8")
    result = import_page(catalog, page, "9.2.0-v2", "zh", "--url", "https://example.org/p")
    assert result.code == 1 and "LLM_SUCCESS is listed twice" in result.err, result
    # merge-conflict markers in the table (hicann/hixl's 8.5.0): said once, its marker lines no codes
    row = next(line for line in text.split("\n") if line.startswith("| LLM_FAILED |"))
    page.write_text(text.replace(row, f"<<<<<<< HEAD\n{row}\n=======\n{row}\n>>>>>>> 6bbee6b", 1), encoding="utf-8")
    result = import_page(catalog, page, "9.2.0-v2", "zh", "--url", "https://example.org/p")
    assert result.code == 1 and "merge-conflict markers" in result.err and "no code" not in result.err, result.err
    # a row that types a cell more than the headings: a browser drops it, the import must not
    page.write_text(text.replace(row, row + " 多余 |", 1), encoding="utf-8")
    result = import_page(catalog, page, "9.2.0-v2", "zh", "--url", "https://example.org/p")
    assert result.code == 1 and f"{page}:{uf.line_of(text, row)}: LLM_FAILED: the row has 5 cells" in result.err, \
        result.err
    # and one that types fewer (a browser shows the rest empty): said at the page's line, not at the catalog's
    page.write_text(text.replace(row, row.rsplit("|", 2)[0] + "|", 1), encoding="utf-8")
    result = import_page(catalog, page, "9.2.0-v2", "zh", "--url", "https://example.org/p")
    assert result.code == 1 and f"{page}:{uf.line_of(text, row)}: LLM_FAILED: the row has 3 cells" in result.err, \
        result.err
    assert files(catalog) == before


def test_validate_refuses_versions_out_of_release_order(tmp_path):
    catalog = copy_catalog(tmp_path)
    path = catalog / "llm_datadist" / "editions.yaml"
    text = path.read_text(encoding="utf-8")
    start, end = text.index("    - version: '9.0.0-v2'"), text.index("    - version: '9.1.0-v2'")
    block = text[start:end]
    text = text[:start] + text[end:]
    at = text.index("  cpp-v2:")
    path.write_text(text[:at] + block.replace("'9.0.0-v2'\n", "'9.0.0-v2'\n", 1) + text[at:], encoding="utf-8")
    result = run_cli("validate", "--catalog", catalog)
    assert result.code == 3 and "based_on names 9.0.0-v2, which is listed after it" in result.err, result


def test_what_an_import_stopped_before_its_journal_left_is_removed_by_the_next(tmp_path):
    """Killed before its journal (its temporary texts written beside the files): the next import
    removes them, by their pattern and only where their process is gone; anything else stays."""
    catalog = copy_catalog(tmp_path)
    dead = 2 ** 22 + 12345  # above the kernel's largest pid: no process has it
    left = [catalog / "llm_datadist" / f".codes.yaml.import-{dead}-0a1b2c3d",
            catalog / f"..import-journal.json.tmp-generate-{dead}-0"]
    kept = [catalog / "llm_datadist" / f".codes.yaml.import-{os.getpid()}-0a1b2c3d",  # a live import's
            catalog / "llm_datadist" / f".notes.import-{dead}-0a1b2c3d", catalog / "llm_datadist" / "mine.txt"]
    for path in left + kept:
        path.write_text("x", encoding="utf-8")
    page = tmp_path / "page.md"
    family = family_of(catalog)
    page.write_text(uf.pipe_page(family, family.edition_by_id["9.1.0-v2"], "zh"), encoding="utf-8")
    result = import_page(catalog, page, "9.1.0-v2", "zh")
    assert result.code == 0, result.err
    assert "removed what an import stopped before its first rename left" in result.out, result.out
    assert not any(p.exists() for p in left) and all(p.exists() for p in kept)


def test_an_import_stopped_between_its_renames_is_refused_then_finished(tmp_path, monkeypatch):
    """Several catalog files change together: killed after the first rename, the catalog is
    not silently half-imported (validate refuses it, naming the journal), and the next import
    finishes the renames."""
    from generator.importing import catalog_files as import_files

    upstream = build_upstream(tmp_path)
    page = (upstream.repo.path / PYTHON_PAGE_910).read_text(encoding="utf-8")
    upstream.repo.write(PYTHON_PAGE_910, page.replace("| 成功 |", "| 成功了 |", 1))
    upstream.repo.commit("9.2.0", "v9.2.0")
    real_replace, calls = import_files.os.replace, []

    def stop_after_one(source, target):
        if calls:
            raise KeyboardInterrupt
        calls.append(target)
        real_replace(source, target)

    monkeypatch.setattr(import_files.os, "replace", stop_after_one)
    stopped = _import_release(upstream, "v9.2.0")  # the command line turns Ctrl-C into its exit status
    monkeypatch.undo()
    assert stopped.code != 0 and len(calls) == 1, stopped
    refused = run_cli("validate", "--catalog", upstream.catalog)
    assert refused.code == 3 and ".import-journal.json" in refused.err and "stopped part-way" in refused.err, refused
    finished = _import_release(upstream, "v9.2.0")
    assert finished.code == 0 and "finished the import that was stopped part-way" in finished.out, finished
    assert run_cli("validate", "--catalog", upstream.catalog).code == 0
    family = family_of(upstream.catalog)
    assert family.code_by_name["LLM_SUCCESS"].text("meaning", "9.2.0-v2", "zh") == "成功了"
    assert not list(upstream.catalog.rglob(".*.import-*"))


def test_an_import_never_writes_through_a_link_planted_where_its_temporary_files_go(tmp_path):
    """The temporary files an import writes beside each catalog file had names anyone could
    foresee (the file's name and the pid) and were opened following links: one planted there
    (a shared checkout, a committed link) took the new text into any file the user can write."""
    import os

    upstream = build_upstream(tmp_path)
    page = (upstream.repo.path / PYTHON_PAGE_910).read_text(encoding="utf-8")
    upstream.repo.write(PYTHON_PAGE_910, page.replace("| 成功 |", "| 成功了 |", 1))
    upstream.repo.commit("9.2.0", "v9.2.0")
    victim = tmp_path / "victim.txt"
    victim.write_text("mine\n", encoding="utf-8")
    for path in upstream.catalog.rglob("*.yaml"):
        path.with_name(f".{path.name}.import-{os.getpid()}").symlink_to(victim)
    result = _import_release(upstream, "v9.2.0")
    assert result.code == 0, result
    assert victim.read_text(encoding="utf-8") == "mine\n"
    assert family_of(upstream.catalog).code_by_name["LLM_SUCCESS"].text("meaning", "9.2.0-v2", "zh") == "成功了"


def test_a_page_of_a_hundred_thousand_rows_is_refused_before_any_parsing(tmp_path, monkeypatch):
    """Reading a 100,000-row page took 18 s and 770 MB; upstream's pages have fewer than a hundred rows.
    The rows are counted first: neither the Markdown nor the HTML parser reads any of it (the
    page's code blocks were parsed before the count)."""
    parsed = []
    for owner in (MarkdownIt, HTMLParser):
        original = owner.parse
        monkeypatch.setattr(owner, "parse",
                            lambda self, *a, _parse=original, **k: parsed.append(1) or _parse(self, *a, **k))
    catalog = copy_catalog(tmp_path)
    family = family_of(catalog)
    text = uf.pipe_page(family, family.edition_by_id["9.1.0-v2"], "zh")
    page = tmp_path / "page.md"
    page.write_text(text + "".join(f"|L{i}|a|无|b|\n" for i in range(100000)), encoding="utf-8")
    result = import_page(catalog, page, "9.2.0-v2", "zh", "--url", "https://example.org/p")
    assert parsed == []
    assert result.code == 1 and "more than 5,000 table rows" in result.err and result.err.count("\n") == 2, result.err


def test_a_page_of_thousands_of_bad_rows_is_twenty_lines(tmp_path):
    catalog = copy_catalog(tmp_path)
    family = family_of(catalog)
    text = uf.pipe_page(family, family.edition_by_id["9.1.0-v2"], "zh")
    rows = "".join(f"|L{i}|a|无|b|\n" for i in range(4000))
    page = tmp_path / "page.md"
    page.write_text(text + rows, encoding="utf-8")
    result = import_page(catalog, page, "9.2.0-v2", "zh", "--url", "https://example.org/p")
    assert result.code == 1 and "Traceback" not in result.err
    lines = result.err.strip().splitlines()
    assert len(lines) <= 22 and "and 3980 more problem(s)" in result.err, lines[-3:]


def test_a_page_of_decimal_values_imports_its_rows_by_their_codes_c_names(tmp_path):
    """GE's deprecated C++ page lists codes by decimal value (| 4294967295 | failed! | ...): a release
    that changed one of its texts was refused, the import writing each value as a row's C name ("no
    code has the C name '4294967295'"), and with it the release's other pages. Found importing
    upstream's releases from scratch."""
    from tests.support.helpers import ROOT

    catalog = tmp_path / "catalog"
    shutil.copytree(ROOT / "catalog", catalog)
    page = next((ROOT / "generated" / "upstream").rglob("error-code-deprecated.md")).read_text(encoding="utf-8")
    old = "并备份（Device日志需到宿主机进行port导回）。 |"
    assert page.count(old) == 1
    changed = tmp_path / "error-code-deprecated.md"
    new = "并备份（Device日志需到宿主机进行port导回），并检查日志。 |"
    text, last = page.replace(old, new), "| 1343270931 | Block is out of memory. |"
    assert text.count(last) == 1  # and a code new to the page (LLM_TIMEOUT's value), after the last row
    at = text.index("\n", text.index(last)) + 1
    changed.write_text(text[:at] + "| 1343270938 | Process timeout. | 处理超时。 | 是 | 重试。 |\n" + text[at:],
                       encoding="utf-8")
    result = run_cli("import", "--catalog", catalog, "--edition", "9.3.0-cpp-deprecated", "--lang", "zh",
                     "--page", changed, "--url", "https://example.org/error-code-deprecated.md")
    assert result.code == 0, result.out + result.err
    family = load_catalog(catalog).family_by_id["llm_datadist"]
    edition = family.edition_by_id["9.3.0-cpp-deprecated"]
    rows = family.version_by_id[edition.version].rows
    assert [r.name for r in rows] == [r.name for r in family.version_by_id["9.2.0-beta.1-cpp-deprecated"].rows] \
        + ["LLM_TIMEOUT"]
    assert family.code_by_name["LLM_FAILED"].entry("solution", edition.id, "zh").text.endswith("并检查日志。")


def test_a_new_edition_without_a_source_is_wrong_usage(tmp_path):
    """The command line lacks what the page needs: exit 2, as the contract says of wrong usage (was 1)."""
    from tests.support.helpers import ROOT

    catalog = tmp_path / "catalog"
    shutil.copytree(ROOT / "catalog", catalog)
    before = files(catalog)
    page = next((ROOT / "generated" / "upstream").rglob("error-code-deprecated.md"))
    result = run_cli("import", "--catalog", catalog, "--edition", "9.9.9-cpp-deprecated", "--lang", "zh",
                     "--page", page)
    assert result.code == 2 and "a new edition needs a source" in result.err, result.out + result.err
    assert files(catalog) == before


def test_a_row_dropped_from_a_version_whose_texts_start_there_is_recorded(tmp_path):
    """Upstream's default branch drops LLM_SUSPECT_REMOTE_ERROR's row, whose texts were first written
    at unreleased-v2: the import refused ("version unreleased-v2 does not list it"), the entries that
    start there being left in place. Found by a contract walkthrough."""
    from tests.support.helpers import ROOT

    catalog = tmp_path / "catalog"
    shutil.copytree(ROOT / "catalog", catalog)
    page = (ROOT / "generated" / "upstream" / "hicann" / "hixl" / "docs" / "zh" / "api" / "python" /
            "LLMStatusCode.md").read_text(encoding="utf-8")
    kept = [line for line in page.split("\n") if "LLM_SUSPECT_REMOTE_ERROR" not in line]
    assert len(kept) == page.count("\n")  # one row gone
    dropped = tmp_path / "LLMStatusCode.md"
    dropped.write_text("\n".join(kept), encoding="utf-8")
    before = load_catalog(ROOT / "catalog").family_by_id["llm_datadist"]
    result = run_cli("import", "--catalog", catalog, "--edition", "unreleased-v2", "--lang", "zh",
                     "--page", dropped)
    assert result.code == 0, result.out + result.err
    family = load_catalog(catalog).family_by_id["llm_datadist"]
    assert "LLM_SUSPECT_REMOTE_ERROR" not in family.version_by_id["unreleased-v2"].row_by_code
    code, was = family.code_by_name["LLM_SUSPECT_REMOTE_ERROR"], before.code_by_name["LLM_SUSPECT_REMOTE_ERROR"]
    for edition in ("8.5.0-v1", "8.5.0-v2"):  # what the releases said stays
        for lang, field in ((lang, field) for lang in ("zh", "en") for field in ("meaning", "solution")):
            assert code.entry(field, edition, lang).text == was.entry(field, edition, lang).text
