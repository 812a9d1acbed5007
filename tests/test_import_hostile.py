"""A hostile upstream against `import`: every text the import takes from
upstream's files (a logged message, a page's cell) reads back, under the catalog's own loader,
as exactly upstream's text, and gains the catalog no key; what the catalog cannot hold is
refused at upstream's PATH:LINE, and a refusal at any step writes nothing.

The repositories are built in the test (tests/support/upstream_formats.py), tagged v9.3.0 on top of the
fixture's v9.1.0.
"""
from __future__ import annotations

import shutil
import subprocess

import pytest

from generator.reading.load import load_catalog
from generator.upstream.page_table import read_table
from tests.support.helpers import run_cli
from tests.support.upstream_formats import (CATALOG, CPP_PAGE_910, ERROR_CODES_H, PYTHON_PAGE_910, REPO,
                                             build_upstream, commit_catalog, insert_after, pipe_page)
from tests.support.upstream_sources import ge_arguments

pytestmark = pytest.mark.slow  # builds a git repository per test

DATADIST_H = "include/llm_datadist/llm_datadist.h"
MESSAGES = "src/llm_datadist/llm_error_codes.cc"
FIRST_VALUE = 0x5010B01D  # after the fixture's codes

# Each is a message upstream logs for a new C/C++ code. The first is the one that added a Python
# member to the catalog (libyaml reads U+2029 as a line break); the others are what a plain YAML
# scalar cannot start with, end with or hold.
HOSTILE = [
    "Queue is full.\u2029    python:\u2029      SOME_NAME",
    "line\u2028    python: OTHER_NAME",
    "- a list?", "? a key", "* an alias", "& an anchor", "! a tag", "| a block", "> folded", "% directive",
    "@ reserved", "` reserved", "# a comment", "a: b", "a #b", "'single'", "\\\"double\\\"", " leading", "trailing ",
    "tab\\there", "\ufeffbom", "yes", "0x10", "1e3", "~", "null", "[flow, {x: y}]", "\u202eright-to-left",
    "zero\u200bwidth", "\u3000ideographic space",
]


def _c_literal(text: str) -> str:
    return '"' + text + '"'  # each HOSTILE text is already written as C writes it (\\t, \\")


def _read_c(text: str) -> str:
    return text.replace("\\t", "\t").replace('\\"', '"')


def _new_c_codes(upstream, messages: list[str]) -> list[str]:
    """Tag v9.3.0 with one new C/C++ code per message (both headers, the messages source)."""
    repo, names = upstream.repo.path, [f"LLM_HOSTILE_{i}" for i in range(len(messages))]
    edits = {
        ERROR_CODES_H: (r"^GE_ERRORNO_DEFINE\(.*, LLM_TIMEOUT, 26\);$",
                        [f"GE_ERRORNO_DEFINE({ge_arguments(FIRST_VALUE + i)}, {n}, {(FIRST_VALUE + i) & 0xFFF});\n"
                         for i, n in enumerate(names)]),
        DATADIST_H: (r"^constexpr Status LLM_TIMEOUT = .*$",
                     [f"constexpr Status {n} = 0x{FIRST_VALUE + i:X}U;\n" for i, n in enumerate(names)]),
        MESSAGES: (r"^namespace \{$",
                   [f"GE_ERRORNO_EXTERNAL({n}, {_c_literal(m)});\n" for n, m in zip(names, messages)]),
    }
    for path, (pattern, lines) in edits.items():
        text = (repo / path).read_text(encoding="utf-8")
        (repo / path).write_text(insert_after(text, pattern, "".join(lines)), encoding="utf-8")
    upstream.repo.commit("hostile codes", "v9.3.0")
    return names


@pytest.fixture
def upstream(tmp_path):
    built = build_upstream(tmp_path)
    commit_catalog(built.catalog)
    return built


def _import(upstream):
    return run_cli("import", "--catalog", upstream.catalog, "--upstream", f"{REPO}={upstream.repo.path}",
                   "--ref", "v9.3.0")


def _status(upstream) -> str:
    return subprocess.run(["git", "-C", str(upstream.catalog), "status", "--porcelain", "--untracked-files=all"],
                          capture_output=True, text=True, check=True).stdout


def test_messages_that_yaml_would_misread_are_written_as_themselves(upstream):
    family = load_catalog(upstream.catalog).family_by_id["llm_datadist"]
    before = {(c.python_name, c.c_name) for c in family.codes}
    names = _new_c_codes(upstream, HOSTILE)
    result = _import(upstream)
    assert result.code == 0, result.err
    assert "Traceback" not in result.err
    after = load_catalog(upstream.catalog).family_by_id["llm_datadist"]
    assert {(c.python_name, c.c_name) for c in after.codes} == before | {(None, n) for n in names}
    for name, message in zip(names, HOSTILE):
        code = after.code_by_name[name]
        assert code.log_message == _read_c(message), name
        assert code.python_name is None and code.wrapper is None
    assert [c.name for c in after.python_codes] == [c.name for c in family.python_codes]  # no member gained
    written = (upstream.catalog / "llm_datadist" / "codes.yaml").read_text(encoding="utf-8")
    assert not any(c in written for c in "\u2028\u2029\u0085\ufeff\u202e\u200b\t")  # a reviewer sees each
    assert run_cli("validate", "--catalog", upstream.catalog).code == 0


@pytest.mark.parametrize("character", ["\u0085", "\x01", "\x1b", "\x7f"])
def test_a_message_the_catalog_cannot_hold_is_refused_where_upstream_writes_it(upstream, character):
    _new_c_codes(upstream, ["fine", f"bad{character}    python: X"])
    line = 1 + (upstream.repo.path / MESSAGES).read_text(encoding="utf-8").split("\n").index(
        f'GE_ERRORNO_EXTERNAL(LLM_HOSTILE_1, "bad{character}    python: X");')
    result = _import(upstream)
    assert result.code == 1 and "Traceback" not in result.err
    first = result.err.splitlines()[0]
    assert first.startswith(f"{REPO}:{MESSAGES}@v9.3.0:{line}: the message of LLM_HOSTILE_1 holds a control "
                            f"character U+{ord(character):04X}"), result.err
    assert result.err.splitlines()[1:] == ["import: nothing was written"]
    assert _status(upstream) == ""


def test_a_refusal_at_a_later_step_writes_nothing_the_earlier_steps_made(upstream):
    """The codes are brought in first, the pages next: a page the import refuses leaves
    codes.yaml as it was (it was written, then the import said "nothing was written")."""
    _new_c_codes(upstream, ["Queue is full."])
    page = upstream.repo.path / PYTHON_PAGE_910
    page.write_text(insert_after(page.read_text(encoding="utf-8"), r"^\| LLM_TIMEOUT \|.*$",
                                 "| LLM_HOSTILE_0 | 队列已满 | 是 | 稍后重试。 |\n"), encoding="utf-8")
    upstream.repo.commit("a C-only code on the Python page", "v9.3.1")
    result = run_cli("import", "--catalog", upstream.catalog, "--upstream", f"{REPO}={upstream.repo.path}",
                     "--ref", "v9.3.1")
    assert result.code == 1 and "no code 'LLM_HOSTILE_0' of this page's kind" in result.err, result.err
    assert result.err.endswith("import: nothing was written\n")
    assert _status(upstream) == ""


@pytest.mark.parametrize("hidden", ["\u2029    python: HIDDEN", "\u2028  - 再试", "\ufeff# 注", "\u202e反向"])
def test_a_cell_with_characters_yaml_would_misread_is_written_as_the_page_reads(upstream, hidden):
    page = upstream.repo.path / CPP_PAGE_910
    text = page.read_text(encoding="utf-8")
    assert text.count("| LLM_TIMEOUT |") == 1
    row = next(line for line in text.split("\n") if line.startswith("| LLM_TIMEOUT |"))
    cells = row.split(" | ")
    cells[1] = cells[1] + hidden
    page.write_text(text.replace(row, " | ".join(cells)), encoding="utf-8")
    upstream.repo.commit("a hidden key in a cell", "v9.3.0")
    family = load_catalog(upstream.catalog).family_by_id["llm_datadist"]
    edition = family.edition_by_id["9.1.0-cpp-v2"]
    shown = {r.by_column["name"].text: r for r in read_table(page.read_text(encoding="utf-8"),
                                                              edition.page.headings).rows}
    expected = shown["LLM_TIMEOUT"].by_column["meaning"].text
    assert hidden.strip() in expected
    result = _import(upstream)
    assert result.code == 0 and "Traceback" not in result.err, result.err
    after = load_catalog(upstream.catalog).family_by_id["llm_datadist"]
    assert after.code_by_name["LLM_TIMEOUT"].text("meaning", "9.3.0-cpp-v2", "zh") == expected
    assert [c.name for c in after.python_codes] == [c.name for c in family.python_codes]
    assert {c.name for c in after.codes} == {c.name for c in family.codes}
    assert run_cli("validate", "--catalog", upstream.catalog).code == 0


def test_a_cell_the_catalog_cannot_hold_is_refused_at_its_line(upstream):
    page = upstream.repo.path / CPP_PAGE_910
    text = page.read_text(encoding="utf-8")
    lines = text.split("\n")
    number = next(i for i, line in enumerate(lines, 1) if line.startswith("| LLM_TIMEOUT |"))
    lines[number - 1] = lines[number - 1].replace(" | ", " | 超时\u0085", 1)
    page.write_text("\n".join(lines), encoding="utf-8")
    upstream.repo.commit("a C1 control in a cell", "v9.3.0")
    result = _import(upstream)
    assert result.code == 1 and "Traceback" not in result.err
    assert result.err.splitlines() == [
        f"{REPO}:{CPP_PAGE_910}@v9.3.0:{number}: LLM_TIMEOUT: the meaning cell holds a control character U+0085 at "
        "offset 2 of this text; only newline and tab are allowed (outputs such as HTML and C strings cannot carry "
        "it); fix the page, or record this version by hand",
        "import: nothing was written",
    ], result.err
    assert _status(upstream) == ""


def test_a_catalog_file_the_import_cannot_edit_is_refused_in_one_line(tmp_path):
    """libyaml reads `value:<TAB> 0x0`; the editor's parser (ruamel.yaml's own, which keeps
    positions) does not: the import died with its ScannerError."""
    catalog = tmp_path / "catalog"
    shutil.copytree(CATALOG, catalog)
    codes = catalog / "llm_datadist" / "codes.yaml"
    codes.write_text(codes.read_text(encoding="utf-8").replace("    value: 0x0\n", "    value:\t 0x0\n", 1),
                     encoding="utf-8")
    assert run_cli("validate", "--catalog", catalog).code == 0
    family = load_catalog(catalog).family_by_id["llm_datadist"]
    page = tmp_path / "page.md"
    page.write_text(pipe_page(family, family.edition_by_id["9.1.0-v2"], "zh"), encoding="utf-8")
    before = codes.read_bytes()
    result = run_cli("import", "--catalog", catalog, "--edition", "9.2.0-v2", "--lang", "zh", "--page", page,
                     "--url", "https://example.org/page")
    assert result.code == 1 and "Traceback" not in result.err
    assert result.err.splitlines()[0].startswith(f"{codes}:8:11: the import cannot edit this file ("), result.err
    assert result.err.splitlines()[1:] == ["import: nothing was written"]
    assert codes.read_bytes() == before
