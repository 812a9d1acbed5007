"""The other shapes of an upstream release, each brought in by `import --upstream … --ref TAG` on a
repository built in the test (tests/support/upstream_formats.py, tagged v9.0.0 to v9.1.0), with
v9.2.0 made here:

1. a Python name renamed, value kept: the new name is the member, the old one an alias;
2. a code removed from every file: the member stays, `removed_in` says where it went;
3. only the English page changed: the new release's English changes, the older one's does not;
4. the Chinese page moved to a new path: the timeline learns the path;
5. a value changed under a kept name: the code's value from that release on, the older releases
   keeping theirs (`earlier`), said for a person.

In each, every output of an older edition stays byte for byte what it was, `upstream-page` writes
the new edition's page back as upstream's file, and the audit against the repository is clean.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from generator.reading.load import load_catalog
from tests.support.helpers import generated_module, run_cli
from tests.support.upstream_formats import (CPP_PAGE_910, ENGLISH_PAGE_910, PYTHON_PAGE_910, REPO, build_upstream,
                                             commit_catalog)

pytestmark = pytest.mark.slow  # builds a git repository and generates every output twice

STATUS_PY = "src/python/llm_datadist/llm_datadist/status.py"
BINDING = "src/python/llm_wrapper/llm_wrapper_v2.cc"
ERROR_CODES_H = "include/llm_datadist/llm_error_codes.h"
DATADIST_H = "include/llm_datadist/llm_datadist.h"
MESSAGES = "src/llm_datadist/llm_error_codes.cc"
PAGES = (PYTHON_PAGE_910, CPP_PAGE_910, ENGLISH_PAGE_910)
ROOT = Path(__file__).resolve().parent.parent


def _edit(repo: Path, path: str, pattern: str, new: str, count: int = 1) -> None:
    """Every line of `path` that `pattern` matches replaced by `new` ('' drops the line)."""
    target = repo / path
    text = target.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    hits = [i for i, line in enumerate(lines) if re.search(pattern, line)]
    assert len(hits) == count, (path, pattern, hits)
    for i in hits:
        lines[i] = re.sub(pattern, new, lines[i]) if new else ""
    target.write_text("".join(lines), encoding="utf-8")


def _generate(catalog: Path, out: Path) -> None:
    result = run_cli("generate", "--catalog", catalog, "--out", out)
    assert result.code == 0, result.err


# a version that v9.2.0 ships unchanged gains the tag in its list of sources: a fact, not a change
NEW_TAG = re.compile(rb', <a href="https://github\.com/hicann/hixl/tree/v9\.2\.0">v9\.2\.0</a>')


def _older_outputs(out: Path) -> dict[str, bytes]:
    """Every output that belongs to an edition before 9.2.0 (its site pages and upstream's pages)."""
    found = {}
    for path in sorted(out.rglob("*")):
        name = path.name
        if path.is_file() and re.match(r"9\.(0|1)\.\d", name) and "differences" not in str(path):
            found[str(path.relative_to(out))] = NEW_TAG.sub(b"", path.read_bytes())
    assert len(found) >= 8, sorted(found)
    return found




@pytest.fixture
def shaped(tmp_path):
    """(upstream, release): the fixture's upstream with its catalog committed and every output
    generated; `release(edits)` applies the edits, tags v9.2.0, imports it and returns the result."""
    upstream = build_upstream(tmp_path)
    commit_catalog(upstream.catalog)
    _generate(upstream.catalog, tmp_path / "before")

    def release():
        upstream.repo.commit("9.2.0", "v9.2.0")
        return run_cli("import", "--catalog", upstream.catalog, "--upstream", f"{REPO}={upstream.repo.path}",
                       "--ref", "v9.2.0")

    return upstream, release


def _after(upstream, tmp_path: Path, name: str, moved: tuple[bytes, bytes] = (), new_paths: tuple[str, ...] = ()):
    """Outputs generated after the import, checked against the catalog; the older editions' outputs
    unchanged (but for links to the page of a code a rename `moved`, and the sources at `new_paths`, where
    the release ships a version's file moved unchanged: a fact, not a change); the audit clean."""
    _generate(upstream.catalog, tmp_path / "after")
    check = run_cli("check", "--catalog", upstream.catalog, "--out", tmp_path / "after")
    assert check.code == 0, check.out + check.err
    before, after = _older_outputs(tmp_path / "before"), _older_outputs(tmp_path / "after")
    assert before.keys() <= after.keys()
    if moved:  # (old, new): the older editions link the code's page by its new name
        after = {path: text.replace(b"codes/%s/" % moved[1], b"codes/%s/" % moved[0]) for path, text in after.items()}
    for new in new_paths:  # its item in the edition page's list of sources
        after = {path: re.sub(rb'<li><a href="[^"]*/%s">.*?</li>' % re.escape(new.encode()), b"", text)
                 for path, text in after.items()}
    changed = [path for path in before if before[path] != after[path]]
    assert changed == [], changed
    audited = upstream.audit()
    assert audited.code == 0, audited.out
    return generated_module(tmp_path / "after", name)


def _written_back(upstream, edition: str, path: str, lang: str = "zh") -> None:
    """`upstream-page` prints the edition's page as upstream's file, byte for byte."""
    result = subprocess.run([sys.executable, "-m", "generator", "upstream-page", "--catalog", str(upstream.catalog),
                             "--edition", edition, "--lang", lang], capture_output=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout == (upstream.repo.path / path).read_bytes(), (edition, lang)


def test_a_python_name_renamed_keeps_the_old_name_as_an_alias(shaped, tmp_path):
    upstream, release = shaped
    repo = upstream.repo.path
    _edit(repo, STATUS_PY, r"\bLLM_KV_CACHE_NOT_EXIST\b", "LLM_CACHE_NOT_EXIST", count=2)
    for page in (PYTHON_PAGE_910, ENGLISH_PAGE_910):
        _edit(repo, page, r"^\| LLM_KV_CACHE_NOT_EXIST\b", "| LLM_CACHE_NOT_EXIST")
    result = release()
    assert result.code == 0, result.err
    assert "LLM_KV_CACHE_NOT_EXIST: renamed to LLM_CACHE_NOT_EXIST in 9.2.0 (hicann/hixl, its Python name)" in \
        result.out, result.out
    code = load_catalog(upstream.catalog).family_by_id["llm_datadist"].code_by_name["LLM_CACHE_NOT_EXIST"]
    assert code.python_name == "LLM_CACHE_NOT_EXIST" and code.c_name == "LLM_KV_CACHE_NOT_EXIST"
    assert code.python_at(REPO, "9.1.0") == "LLM_KV_CACHE_NOT_EXIST" and code.python_at(REPO, "9.2.0") == code.name

    module = _after(upstream, tmp_path, "shape_rename", (b"LLM_KV_CACHE_NOT_EXIST", b"LLM_CACHE_NOT_EXIST"))
    member = module.LLMStatusCode.LLM_CACHE_NOT_EXIST
    assert module.LLMStatusCode.LLM_KV_CACHE_NOT_EXIST is member and module.lookup("LLM_KV_CACHE_NOT_EXIST") is member
    assert [m.name for m in module.LLMStatusCode].count("LLM_CACHE_NOT_EXIST") == 1
    assert "LLM_KV_CACHE_NOT_EXIST" not in [m.name for m in module.LLMStatusCode]
    explained = run_cli("explain", "--catalog", upstream.catalog, "--lang", "en", "LLM_KV_CACHE_NOT_EXIST")
    assert explained.code == 0 and "renamed to LLM_CACHE_NOT_EXIST in 9.2.0 (hicann/hixl)" in explained.out, explained
    # each edition shows the name it used; the site's page of the old name leads to the code's page
    site = tmp_path / "after" / "site" / "docs"
    new, old = (site / "editions" / f"{e}.zh.md" for e in ("9.2.0-v2", "9.1.0-v2"))
    assert 'id="llm_cache_not_exist"' in new.read_text(encoding="utf-8")
    assert "LLM_<wbr>CACHE_<wbr>NOT_<wbr>EXIST</code></a>" in new.read_text(encoding="utf-8")
    assert 'id="llm_kv_cache_not_exist"' in old.read_text(encoding="utf-8")
    assert "LLM_<wbr>CACHE_<wbr>NOT" not in old.read_text(encoding="utf-8")
    diff = run_cli("diff", "--catalog", upstream.catalog, "9.1.0-v2", "9.2.0-v2")
    assert diff.code == 0 and "LLM_KV_CACHE_NOT_EXIST" in diff.out and "LLM_CACHE_NOT_EXIST" in diff.out, diff.out
    header = (tmp_path / "after" / "generated" / "c" / "llm_status_codes.h").read_text(encoding="utf-8")
    assert re.search(r"#define LLM_KV_CACHE_NOT_EXIST\b", header)
    _written_back(upstream, "9.2.0-v2", PYTHON_PAGE_910)


def test_a_code_removed_from_every_file_keeps_its_member(shaped, tmp_path):
    upstream, release = shaped
    repo = upstream.repo.path
    for path in (STATUS_PY, BINDING, ERROR_CODES_H, DATADIST_H, MESSAGES, *PAGES):
        text = (repo / path).read_text(encoding="utf-8")
        count = len(re.findall(r"(?m)^.*\b(LLM_NOTIFY_PROMPT_UNLINK_FAILED|kNotifyPromptUnlinkFailed)\b.*$", text))
        _edit(repo, path, r"\b(LLM_NOTIFY_PROMPT_UNLINK_FAILED|kNotifyPromptUnlinkFailed)\b", "", count=count)
    result = release()
    assert result.code == 0, result.err
    assert "LLM_NOTIFY_PROMPT_UNLINK_FAILED: no longer in hicann/hixl from 9.2.0 on" in result.out, result.out
    family = load_catalog(upstream.catalog).family_by_id["llm_datadist"]
    code = family.code_by_name["LLM_NOTIFY_PROMPT_UNLINK_FAILED"]
    assert code.removed == ((REPO, "9.2.0"),)
    assert code.name not in family.edition_by_id["9.2.0-v2"].row_by_code

    module = _after(upstream, tmp_path, "shape_removal")
    member = module.LLMStatusCode.LLM_NOTIFY_PROMPT_UNLINK_FAILED
    assert member.removed_in == {REPO: "9.2.0"}
    said = " ".join((module.__doc__ or "").split())
    assert "LLM_NOTIFY_PROMPT_UNLINK_FAILED: hicann/hixl no longer ships it from 9.2.0 on" in said, said
    # and the member's own docstring (the contract's "its docstring"); a member with no history keeps the class's
    assert "hicann/hixl no longer ships it from 9.2.0 on" in (member.__doc__ or ""), member.__doc__
    assert module.LLMStatusCode.LLM_SUCCESS.__doc__ == module.LLMStatusCode.__doc__
    with pytest.raises(KeyError):
        member.meaning("zh", edition="9.2.0-v2")
    assert member.meaning("zh", edition="9.1.0-v2")
    header = (tmp_path / "after" / "generated" / "c" / "llm_status_codes.h").read_text(encoding="utf-8")
    assert "hicann/hixl no longer ships it from 9.2.0 on" in header, header
    explained = run_cli("explain", "--catalog", upstream.catalog, "--lang", "en", "LLM_NOTIFY_PROMPT_UNLINK_FAILED")
    assert "9.2.0" in explained.out and "removed" in explained.out.lower(), explained.out
    _written_back(upstream, "9.2.0-v2", PYTHON_PAGE_910)


def test_a_code_removed_from_the_python_api_only_keeps_its_member_and_its_macro(shaped, tmp_path):
    upstream, release = shaped
    repo = upstream.repo.path
    for path in (STATUS_PY, BINDING, PYTHON_PAGE_910, ENGLISH_PAGE_910):  # the headers and the C++ page keep it
        text = (repo / path).read_text(encoding="utf-8")
        count = len(re.findall(r"(?m)^.*\b(LLM_NOTIFY_PROMPT_UNLINK_FAILED|kNotifyPromptUnlinkFailed)\b.*$", text))
        _edit(repo, path, r"\b(LLM_NOTIFY_PROMPT_UNLINK_FAILED|kNotifyPromptUnlinkFailed)\b", "", count=count)
    result = release()
    assert result.code == 0, result.err
    assert "LLM_NOTIFY_PROMPT_UNLINK_FAILED: no longer in hicann/hixl's Python API from 9.2.0 on" in result.out, \
        result.out
    assert any(line.startswith("for a person: LLM_NOTIFY_PROMPT_UNLINK_FAILED:") for line in result.out.splitlines())
    written = (upstream.catalog / "llm_datadist" / "codes.yaml").read_text(encoding="utf-8")
    assert "removed: {hicann/hixl: {python: '9.2.0'}}" in written, written
    family = load_catalog(upstream.catalog).family_by_id["llm_datadist"]
    code = family.code_by_name["LLM_NOTIFY_PROMPT_UNLINK_FAILED"]
    assert code.removed == () and code.removed_api == ((REPO, "python", "9.2.0"),)
    assert code.present_at(REPO, "9.2.0") and not code.api_present_at(REPO, "9.2.0", "python")

    module = _after(upstream, tmp_path, "shape_python_removal")
    member = module.LLMStatusCode.LLM_NOTIFY_PROMPT_UNLINK_FAILED
    assert member.removed_in == {REPO: "9.2.0"}
    said = " ".join((module.__doc__ or "").split())
    assert "LLM_NOTIFY_PROMPT_UNLINK_FAILED: hicann/hixl's Python API no longer have it from 9.2.0 on" not in said
    assert "hicann/hixl's Python API no longer has it from 9.2.0 on" in said, said
    header = (tmp_path / "after" / "generated" / "c" / "llm_status_codes.h").read_text(encoding="utf-8")
    assert "#define LLM_NOTIFY_PROMPT_UNLINK_FAILED" in header
    assert "hicann/hixl's Python API no longer has it from 9.2.0 on (its headers do)" in header, header
    explained = run_cli("explain", "--catalog", upstream.catalog, "--lang", "en", "LLM_NOTIFY_PROMPT_UNLINK_FAILED")
    assert "hicann/hixl's Python API no longer has this code from 9.2.0 on" in explained.out, explained.out


def test_an_english_only_change_leaves_the_older_release_as_it_was(shaped, tmp_path):
    upstream, release = shaped
    repo = upstream.repo.path
    family = load_catalog(upstream.catalog).family_by_id["llm_datadist"]
    old = family.code_by_name["LLM_PARAM_INVALID"].text("solution", "9.1.0-v2", "en")
    assert old
    new = old.rstrip(".") + ", and check the arguments."
    text = (repo / ENGLISH_PAGE_910).read_text(encoding="utf-8")
    assert text.count(old) == 1
    (repo / ENGLISH_PAGE_910).write_text(text.replace(old, new), encoding="utf-8")
    result = release()
    assert result.code == 0, result.err
    family = load_catalog(upstream.catalog).family_by_id["llm_datadist"]
    code = family.code_by_name["LLM_PARAM_INVALID"]
    assert code.text("solution", "9.2.0-v2", "en") == new
    assert code.text("solution", "9.1.0-v2", "en") == old
    assert code.text("solution", "9.2.0-v2", "zh") == code.text("solution", "9.1.0-v2", "zh")
    # a reader of the Chinese is told that upstream's English alone changed, not "no changes"
    diff = json.loads(run_cli("diff", "--catalog", upstream.catalog, "--lang", "zh", "--json", "9.1.0-v2",
                              "9.2.0-v2").out)
    assert diff["texts"] == [] and [(c["code"], c["field"], c["lang"], c["before"], c["after"])
                                    for c in diff["reworded_elsewhere"]] == [
        ("LLM_PARAM_INVALID", "solution", "en", old, new)], diff
    module = _after(upstream, tmp_path, "shape_english")
    member = module.LLMStatusCode.LLM_PARAM_INVALID
    assert member.solution("en", edition="9.2.0-v2") == new and member.solution("en", edition="9.1.0-v2") == old
    assert member.text_origin("en", edition="9.2.0-v2", field="solution") == "upstream"
    _written_back(upstream, "9.2.0-v2", PYTHON_PAGE_910)
    _written_back(upstream, "9.2.0-v2", ENGLISH_PAGE_910, "en")


def test_an_english_cell_that_gains_a_code_span_is_written_back_with_it(shaped, tmp_path):
    """Upstream marks an API name in one English cell: the text comes in as `markdown: true`
    (its plain text unchanged), and the page is written back byte for byte."""
    upstream, release = shaped
    repo = upstream.repo.path
    text = (repo / ENGLISH_PAGE_910).read_text(encoding="utf-8")
    assert text.count("unlink_clusters") >= 1 and "`" not in text
    (repo / ENGLISH_PAGE_910).write_text(text.replace("unlink_clusters", "`unlink_clusters`", 1), encoding="utf-8")
    result = release()
    assert result.code == 0, result.err
    assert "for a person" not in result.out, result.out
    family = load_catalog(upstream.catalog).family_by_id["llm_datadist"]
    marked = [e for c in family.codes for e in c.entries("solution") if "`unlink_clusters`" in e.written]
    assert len(marked) == 1 and marked[0].markdown and marked[0].editions == ("9.2.0-v2",), marked
    _after(upstream, tmp_path, "shape_marked")
    _written_back(upstream, "9.2.0-v2", ENGLISH_PAGE_910, "en")
    _written_back(upstream, "9.2.0-v2", PYTHON_PAGE_910)


def test_a_page_moved_to_a_new_path_is_followed(shaped, tmp_path):
    upstream, release = shaped
    moved = "docs/zh/api/python/llm_status_code.md"
    upstream.repo.git("mv", PYTHON_PAGE_910, moved)
    result = release()
    assert result.code == 0, result.err
    family = load_catalog(upstream.catalog).family_by_id["llm_datadist"]
    assert family.timeline_by_id["v2"].paths[-1] == moved, family.timeline_by_id["v2"].paths
    # the same file at its new path: the release joins the version (docs/releases.md), as hicann/hixl's
    # v9.2.0-beta.1 joins 9.1.0-v2, where the import made a version of its own (found importing from scratch)
    assert family.edition_by_id["9.2.0-v2"].version == "9.1.0-v2", result.out
    _after(upstream, tmp_path, "shape_moved", new_paths=(moved,))
    _written_back(upstream, "9.2.0-v2", moved)


def test_a_source_line_in_an_order_the_catalog_cannot_write_is_said_for_a_person(shaped, tmp_path):
    """A binding that lists two constants the other way round (as a new code placed before the
    runtime constants is): the import recorded nothing to say, and only the audit found it."""
    upstream, release = shaped
    path = upstream.repo.path / BINDING
    lines = path.read_text(encoding="utf-8").split("\n")
    at = [i for i, line in enumerate(lines) if line.lstrip().startswith("m.attr(")]
    assert len(at) >= 2
    lines[at[0]], lines[at[1]] = lines[at[1]], lines[at[0]]
    path.write_text("\n".join(lines), encoding="utf-8")
    result = release()
    assert result.code == 0, result.err
    said = [line for line in result.out.splitlines() if line.startswith("for a person:") and BINDING in line]
    assert said and f"{BINDING}@v9.2.0:{at[0] + 1}: upstream has {lines[at[0]].strip()!r}" in said[0], result.out
    assert upstream.audit().code == 1  # what the line said: the audit finds it too


def test_a_page_moved_with_its_translation_is_followed_in_both_languages(shaped, tmp_path):
    """Both languages' files moved in one commit: the English one was left out (the release counted as
    imported once its zh file was), and the audit found a new page no timeline names."""
    upstream, release = shaped
    moved = {page: page.replace("LLMStatusCode.md", "status/LLMStatusCode.md")
             for page in (PYTHON_PAGE_910, ENGLISH_PAGE_910)}
    for old, new in moved.items():
        (upstream.repo.path / new).parent.mkdir(parents=True, exist_ok=True)
        upstream.repo.git("mv", old, new)
    result = release()
    assert result.code == 0, result.err
    assert f"its en page moved from {ENGLISH_PAGE_910} to {moved[ENGLISH_PAGE_910]}" in result.out, result.out
    assert load_catalog(upstream.catalog).family_by_id["llm_datadist"].edition_by_id["9.2.0-v2"].version == "9.1.0-v2"
    _after(upstream, tmp_path, "shape_moved_both", new_paths=tuple(moved.values()))
    _written_back(upstream, "9.2.0-v2", moved[ENGLISH_PAGE_910], "en")


def test_a_value_changed_under_a_kept_name_is_the_codes_value_from_that_release(shaped, tmp_path):
    upstream, release = shaped
    repo = upstream.repo.path
    _edit(repo, DATADIST_H, r"LLM_TIMEOUT = 0x5010B01AU", "LLM_TIMEOUT = 0x5010B0FFU")
    _edit(repo, ERROR_CODES_H, r"LLM_TIMEOUT, 26\)", "LLM_TIMEOUT, 255)")
    result = release()
    assert result.code == 0, result.out + result.err
    assert "LLM_TIMEOUT: its value is 0x5010B0FF from 9.2.0 on (hicann/hixl); older releases keep 0x5010B01A" \
        in result.out, result.out
    assert any(line.startswith("for a person: LLM_TIMEOUT:") and "0x5010B01A" in line
               for line in result.out.splitlines()), result.out
    written = (upstream.catalog / "llm_datadist" / "codes.yaml").read_text(encoding="utf-8")
    assert "earlier:\n      - {value: 0x5010B01A, until: {hicann/hixl: '9.2.0'}}" in written, written
    code = load_catalog(upstream.catalog).family_by_id["llm_datadist"].code_by_name["LLM_TIMEOUT"]
    assert (code.value, code.value_at(REPO, "9.1.0"), code.value_at(REPO, "9.2.0")) == (0x5010B0FF, 0x5010B01A,
                                                                                         0x5010B0FF)

    module = _after(upstream, tmp_path, "shape_value")
    member = module.LLMStatusCode.LLM_TIMEOUT
    assert int(member) == 0x5010B0FF and module.lookup(0x5010B01A) is member and module.lookup("0x5010b01a") is member
    with pytest.raises(ValueError):
        module.LLMStatusCode(0x5010B01A)  # as upstream's newest enum
    assert module.code_2_status(0x5010B01A) is module.LLMStatusCode.LLM_FAILED
    assert module.code_2_status(0x5010B0FF) is member
    assert member.earlier_values == {0x5010B01A: {REPO: "9.2.0"}}
    assert "LLM_TIMEOUT is 0x5010B0FF; it was 0x5010B01A before 9.2.0 in hicann/hixl" in " ".join(
        module.__doc__.split()), module.__doc__
    assert "it was 0x5010B01A before 9.2.0 in hicann/hixl" in (member.__doc__ or ""), member.__doc__
    header = next((tmp_path / "after" / "generated" / "c").glob("llm*.h")).read_text(encoding="utf-8")
    assert re.search(r"LLM_TIMEOUT = 0x5010B0FFU;  /\* 0x5010B01AU before 9\.2\.0 in hicann/hixl \*/", header)
    explained = run_cli("explain", "--catalog", upstream.catalog, "--lang", "en", "0x5010B01A")
    assert explained.code == 0 and "Earlier value: 0x5010B01A (1343270938), before 9.2.0 in hicann/hixl" \
        in explained.out, explained.out


# -- a new code of a family whose Python side is module constants (HIXL) ----------------------------------------

HIXL_FILES = {
    "include/hixl/hixl_types.h": ("namespace hixl {{\nusing Status = uint32_t;\n"
                                  'constexpr const char OPTION_BUFFER_POOL[] = "BufferPool";\n{constants}'
                                  "constexpr int32_t FEATURE_SUPPORTED = 1;\n"
                                  "enum class TransferStatus {{ WAITING, COMPLETED, TIMEOUT, FAILED }};\n}}\n"),
    "src/python/hixl_py/hixl_py.cc": ("PYBIND11_MODULE(hixl, m) {{\n{bindings}"
                                      '  m.attr("OPTION_BUFFER_POOL") = py::str(hixl::OPTION_BUFFER_POOL);\n}}\n'),
    "src/python/hixl_py/hixl/__init__.py": ("from hixl.hixl import (\n{exported}    OPTION_BUFFER_POOL,\n"
                                            "    MemType,\n)\n"),
}


def _hixl_files(codes: list[tuple[str, int]]) -> dict[str, str]:
    """hixl's header, binding and package in upstream's formats, declaring `codes` (name, value)."""
    parts = {"constants": "".join(f"constexpr Status {n} = {v}U;\n" for n, v in codes),
             "bindings": "".join(f'  m.attr("{n}") = py::int_(hixl::{n});\n' for n, _ in codes),
             "exported": "".join(f"    {n},\n" for n, _ in codes)}
    return {path: text.format(**parts) for path, text in HIXL_FILES.items()}


def test_a_new_code_of_a_constants_family_comes_in(tmp_path):
    import shutil

    from tests.support.upstream_formats import Repository

    catalog = tmp_path / "catalog"
    shutil.copytree(ROOT / "catalog", catalog)
    hixl = load_catalog(catalog).family_by_id["hixl"]
    codes = [(c.c_name, c.value) for c in hixl.codes if c.in_python and c.c_name]
    assert codes, "the catalog's HIXL family has no constants to declare"
    repo = Repository(tmp_path / "hixl")
    for files, tag in ((_hixl_files(codes), "v9.8.0"), (_hixl_files(codes + [("QUEUE_FULL", 203999)]), "v9.9.0")):
        for path, text in files.items():
            repo.write(path, text)
        repo.commit(tag, tag)
    commit_catalog(catalog)
    result = run_cli("import", "--catalog", catalog, "--upstream", f"hicann/hixl={repo.path}", "--ref", "v9.9.0")
    assert result.code == 0, result.err
    assert "QUEUE_FULL: a new code (203999), added in hicann/hixl 9.9.0" in result.out, result.out
    changed = subprocess.run(["git", "-C", str(catalog), "status", "--porcelain"], capture_output=True, text=True,
                             check=True).stdout.split()
    assert changed == ["M", "hixl/codes.yaml"], changed
    new = load_catalog(catalog).family_by_id["hixl"].code_by_name["QUEUE_FULL"]
    assert (new.python_name, new.c_name, new.value, new.added) == ("QUEUE_FULL", "QUEUE_FULL", 203999,
                                                                    (("hicann/hixl", "9.9.0"),))
    assert [n.name for n in new.cpp] == ["hixl::QUEUE_FULL"]
    # no code that the package still declares is recorded as removed
    assert not [c.name for c in load_catalog(catalog).family_by_id["hixl"].codes if c.removed]


def test_two_english_only_releases_imported_once_both_are_tagged(tmp_path):
    """Catching up on releases: v9.2.0 and v9.3.0 each change only the English page, and both tags
    exist before either is imported. The first import must not give v9.3.0 to its version (the
    zh file is the same at both tags), so that the second can make a version of its own."""
    upstream = build_upstream(tmp_path)
    commit_catalog(upstream.catalog)
    page = upstream.repo.path / ENGLISH_PAGE_910
    family = load_catalog(upstream.catalog).family_by_id["llm_datadist"]
    old = family.code_by_name["LLM_PARAM_INVALID"].text("solution", "9.1.0-v2", "en")
    for tag, words in (("v9.2.0", ", and check the arguments."), ("v9.3.0", ", and check every argument.")):
        page.write_text(page.read_text(encoding="utf-8").replace(old, old.rstrip(".") + words), encoding="utf-8")
        old = old.rstrip(".") + words
        upstream.repo.commit(tag, tag)
    for tag in ("v9.2.0", "v9.3.0"):
        result = run_cli("import", "--catalog", upstream.catalog, "--upstream", f"{REPO}={upstream.repo.path}",
                         "--ref", tag)
        assert result.code == 0, (tag, result.err)
    code = load_catalog(upstream.catalog).family_by_id["llm_datadist"].code_by_name["LLM_PARAM_INVALID"]
    said = [code.text("solution", edition, "en") for edition in ("9.1.0-v2", "9.2.0-v2", "9.3.0-v2")]
    assert said[1].endswith("check the arguments.") and said[2].endswith("check every argument."), said
    assert said[0] != said[1]


# -- where upstream's own sources disagree: said for a person, never silently ------------------------------------


def test_where_status_py_its_map_and_the_binding_disagree_the_import_says_so(shaped):
    upstream, release = shaped
    repo = upstream.repo.path
    # a member renamed to a name Enum keeps for itself; a map entry dropped; a binding constant unbound
    _edit(repo, STATUS_PY, r"^    LLM_WAIT_PROCESS_TIMEOUT = ", "    _missing_ = ")
    _edit(repo, STATUS_PY, r"^    llm_wrapper\.kLLMKVCacheNotExist: LLMStatusCode\.LLM_KV_CACHE_NOT_EXIST,", "")
    _edit(repo, BINDING, r'"kLLMDeviceMemError"', "")
    result = release()
    assert result.code == 0, result.err
    person = [line for line in result.out.splitlines() if line.startswith("for a person: ")]
    said = "\n".join(person)
    assert re.search(r"_missing_: .*status\.py@v9\.2\.0:\d+ assigns it in the enum, but Enum makes no member", said), \
        said
    assert re.search(r"LLM_KV_CACHE_NOT_EXIST: .*code_2_status does not map it", said), said
    assert re.search(r"LLM_WAIT_PROCESS_TIMEOUT: .*:\d+: code_2_status maps it, but the enum has no such member",
                     said), said
    assert re.search(r"LLM_DEVICE_MEM_ERROR: .* declares it, but the binding's kLLMDeviceMemError is found in no "
                     r"header or binding", said), said


# -- a page split over two files ------------------------------------------------------------------------------


def _split(repo: Path, page: str, new: str, codes: tuple[str, ...], title: str) -> None:
    """Rows of `codes` moved from `page` into a new file `new` with the same framing."""
    text = (repo / page).read_text(encoding="utf-8")
    lines = text.split("\n")
    moved = [line for line in lines if any(line.startswith(f"| {code} |") for code in codes)]
    assert len(moved) == len(codes), moved
    head = lines[: next(i for i, line in enumerate(lines) if line.startswith("| ---")) + 1]
    head[0] = head[0].replace("LLMStatusCode", title)
    (repo / page).write_text("\n".join(line for line in lines if line not in moved), encoding="utf-8")
    (repo / new).write_text("\n".join([*head, *moved, ""]), encoding="utf-8")


def test_a_page_split_over_two_files_is_followed_and_its_codes_move(shaped, tmp_path):
    upstream, release = shaped
    repo = upstream.repo.path
    codes = ("LLM_TIMEOUT", "LLM_DEVICE_MEM_ERROR")
    zh_part, en_part = PYTHON_PAGE_910.replace(".md", "-2.md"), ENGLISH_PAGE_910.replace(".md", "-2.md")
    _split(repo, PYTHON_PAGE_910, zh_part, codes, "LLMStatusCode-2")
    _split(repo, ENGLISH_PAGE_910, en_part, codes, "LLMStatusCode-2")
    result = release()
    assert result.code == 0, result.out + result.err
    said = [line for line in result.out.splitlines() if line.startswith("for a person: ")]
    assert any(f"2 rows of {PYTHON_PAGE_910} moved to {zh_part} at v9.2.0" in line for line in said), result.out
    family = load_catalog(upstream.catalog).family_by_id["llm_datadist"]
    edition = family.edition_by_id["9.2.0-v2"]
    assert {r.code for r in edition.rows} == {r.code for r in family.edition_by_id["9.1.0-v2"].rows}  # none dropped
    assert edition.file_of("LLM_TIMEOUT", "zh") == zh_part and edition.file_of("LLM_TIMEOUT", "en") == en_part
    assert edition.file_of("LLM_SUCCESS", "zh") == PYTHON_PAGE_910
    code = family.code_by_name["LLM_TIMEOUT"]
    for lang in ("zh", "en"):  # the texts came along, both languages, and were not written again
        assert code.text("solution", "9.2.0-v2", lang) == code.text("solution", "9.1.0-v2", lang)
        assert code.entry("solution", "9.2.0-v2", lang) is code.entry("solution", "9.1.0-v2", lang)
    diff = run_cli("diff", "--catalog", upstream.catalog, "9.1.0-v2", "9.2.0-v2", "--json")
    assert diff.code == 0, diff.err
    data = json.loads(diff.out)
    assert data["dropped"] == [] and data["added"] == [], data
    assert {(c["code"], c["before"], c["after"]) for c in data["moved"]} == {
        (code, PYTHON_PAGE_910, zh_part) for code in codes}, data
    module = _after(upstream, tmp_path, "shape_split")
    assert "9.2.0-v2" in module.LLMStatusCode.LLM_TIMEOUT.editions
    for path, lang in ((PYTHON_PAGE_910, "zh"), (zh_part, "zh"), (ENGLISH_PAGE_910, "en"), (en_part, "en")):
        result = subprocess.run([sys.executable, "-m", "generator", "upstream-page", "--catalog",
                                 str(upstream.catalog), "--edition", "9.2.0-v2", "--lang", lang, "--path", path],
                                capture_output=True, cwd=ROOT)
        assert result.returncode == 0, result.stderr.decode()
        assert result.stdout == (repo / path).read_bytes(), path
    # a file of the split page that names a code the version does not list is refused, at its line
    editions = upstream.catalog / "llm_datadist" / "editions.yaml"
    text = editions.read_text(encoding="utf-8")
    assert text.count("codes: [LLM_TIMEOUT, LLM_DEVICE_MEM_ERROR]") == 2, text
    editions.write_text(text.replace("codes: [LLM_TIMEOUT, LLM_DEVICE_MEM_ERROR]",
                                     "codes: [LLM_TIMEOUT, LLM_CACHE_INCOMPATIBLE]", 1), encoding="utf-8")
    refused = run_cli("validate", "--catalog", upstream.catalog)
    assert refused.code == 3 and re.search(r"editions\.yaml:\d+:\d+: version 9\.2\.0-v2: \S+LLMStatusCode-2\.md: "
                                           r"`codes` names LLM_CACHE_INCOMPATIBLE, which the version does not list",
                                           refused.err), refused.err


def test_a_new_code_that_no_page_documents_is_said_for_a_person(shaped, tmp_path):
    upstream, release = shaped
    repo = upstream.repo.path
    _edit(repo, STATUS_PY, r"^(    LLM_TIMEOUT = llm_wrapper\.kLLMTimeout)$",
          r"\1\n    LLM_NEW_LINK_ERROR = llm_wrapper.kLLMNewLinkError")
    _edit(repo, STATUS_PY, r"^(    llm_wrapper\.kLLMTimeout: LLMStatusCode\.LLM_TIMEOUT,)$",
          r"\1\n    llm_wrapper.kLLMNewLinkError: LLMStatusCode.LLM_NEW_LINK_ERROR,")
    _edit(repo, BINDING, r'^(  m\.attr\("kLLMTimeout"\) = py::int_\(ge::LLM_TIMEOUT\);)$',
          r'\1\n  m.attr("kLLMNewLinkError") = py::int_(ge::LLM_NEW_LINK_ERROR);')
    _edit(repo, ERROR_CODES_H, r"^(GE_ERRORNO_DEFINE\(0b01, 0b01, 0b000, 8, 11, LLM_TIMEOUT, 26\);)$",
          r"\1\nGE_ERRORNO_DEFINE(0b01, 0b01, 0b000, 8, 11, LLM_NEW_LINK_ERROR, 238);")
    result = release()
    assert result.code == 0, result.out + result.err
    assert "LLM_NEW_LINK_ERROR: a new code (0x5010B0EE), added in hicann/hixl 9.2.0" in result.out, result.out
    said = [line for line in result.out.splitlines() if line.startswith("for a person: LLM_NEW_LINK_ERROR: ")]
    assert len(said) == 2 and all("does not list it: no page documents it yet" in line for line in said), said
    assert "python page" in said[0] and "cpp page" in said[1], said
    module = _after(upstream, tmp_path, "shape_no_page")
    member = module.LLMStatusCode.LLM_NEW_LINK_ERROR
    assert int(member) == 0x5010B0EE and member.editions == () and member.meaning("zh") is None


def _text_change(repo: Path, path: str, family, code: str, lang: str, field: str = "solution") -> tuple[str, str]:
    """One text of a code changed on its page, as upstream would: (old, new)."""
    old = family.code_by_name[code].text(field, "9.1.0-v2", lang)
    new = old.rstrip(".。") + ("，并检查参数。" if lang == "zh" else ", and check the arguments.")
    cell, new_cell = (f"| {old} |", f"| {new} |") if field == "meaning" else (old, new)
    text = (repo / path).read_text(encoding="utf-8")
    assert text.count(cell) == 1, (code, old)
    (repo / path).write_text(text.replace(cell, new_cell), encoding="utf-8")
    return old, new


def _import(upstream, ref: str):
    return run_cli("import", "--catalog", upstream.catalog, "--upstream", f"{REPO}={upstream.repo.path}", "--ref", ref)


def test_a_release_cut_from_the_branch_head_with_another_chinese_change_takes_the_head_over(shaped, tmp_path):
    """The branch head changes a Chinese text (imported as unreleased), and the tag cut after it
    changes another: the release takes the head's version over with both changes (this import
    stopped with a traceback, KeyError 'unreleased-v2', looking the version up by its old id)."""
    upstream, release = shaped
    repo = upstream.repo.path
    family = load_catalog(upstream.catalog).family_by_id["llm_datadist"]
    _, first = _text_change(repo, PYTHON_PAGE_910, family, "LLM_PARAM_INVALID", "zh")
    upstream.repo.commit("master: a text")
    assert (result := _import(upstream, "master")).code == 0, result.err
    assert load_catalog(upstream.catalog).family_by_id["llm_datadist"].edition("unreleased-v2") is not None
    _, second = _text_change(repo, PYTHON_PAGE_910, family, "LLM_TIMEOUT", "zh", "meaning")
    result = release()
    assert result.code == 0, result.out + result.err
    family = load_catalog(upstream.catalog).family_by_id["llm_datadist"]
    assert family.edition("unreleased-v2").id == "9.2.0-v2"  # the tag took it over; its id resolves
    assert family.code_by_name["LLM_PARAM_INVALID"].text("solution", "9.2.0-v2", "zh") == first
    assert family.code_by_name["LLM_TIMEOUT"].text("meaning", "9.2.0-v2", "zh") == second
    _after(upstream, tmp_path, "shape_head_chinese")
    _written_back(upstream, "9.2.0-v2", PYTHON_PAGE_910)


def test_a_release_that_ships_the_branch_heads_english_file_tags_it_and_keeps_its_texts(shaped, tmp_path):
    """The branch head changes an English text (its file cited by the branch), and the tag cut after
    it changes a Chinese one, the English file as the head had it: the file's source gets the tag
    (the import stopped with a traceback, KeyError 'tags'), and the English of the changed Chinese
    text is the file's, not a translation left to do."""
    upstream, release = shaped
    repo = upstream.repo.path
    family = load_catalog(upstream.catalog).family_by_id["llm_datadist"]
    _text_change(repo, PYTHON_PAGE_910, family, "LLM_PARAM_INVALID", "zh")
    _, english = _text_change(repo, ENGLISH_PAGE_910, family, "LLM_PARAM_INVALID", "en")
    upstream.repo.commit("master: a text, in both languages")
    assert (result := _import(upstream, "master")).code == 0, result.err
    assert "translate:" not in result.out, result.out  # the English page gave it
    kept = family.code_by_name["LLM_TIMEOUT"].text("meaning", "9.1.0-v2", "en")
    _, chinese = _text_change(repo, PYTHON_PAGE_910, family, "LLM_TIMEOUT", "zh", "meaning")
    result = release()
    assert result.code == 0, result.out + result.err
    assert "translate:" not in result.out, result.out
    family = load_catalog(upstream.catalog).family_by_id["llm_datadist"]
    version = family.version_by_id[family.edition("9.2.0-v2").version]
    cited = [s for s in version.sources if s.lang == "en"]
    assert [(s.path, s.branch, s.tags) for s in cited] == [(ENGLISH_PAGE_910, None, ("v9.2.0",))], cited
    code = family.code_by_name["LLM_TIMEOUT"]
    assert (code.text("meaning", "9.2.0-v2", "zh"), code.text("meaning", "9.2.0-v2", "en")) == (chinese, kept)
    assert family.code_by_name["LLM_PARAM_INVALID"].text("solution", "9.2.0-v2", "en") == english
    _after(upstream, tmp_path, "shape_head_english")
    _written_back(upstream, "9.2.0-v2", PYTHON_PAGE_910)
    _written_back(upstream, "9.2.0-v2", ENGLISH_PAGE_910, "en")


def test_an_until_release_no_file_records_is_warned_at_its_item(shaped):
    """A release typed by hand in `until` (9.20 for 9.2.0) reads as a release of its own: validate
    says so at the item, and passes the release import recorded."""
    upstream, release = shaped
    _edit(upstream.repo.path, DATADIST_H, r"LLM_TIMEOUT = 0x5010B01AU", "LLM_TIMEOUT = 0x5010B0FFU")
    _edit(upstream.repo.path, ERROR_CODES_H, r"LLM_TIMEOUT, 26\)", "LLM_TIMEOUT, 255)")
    assert (result := release()).code == 0, result.err
    checked = run_cli("validate", "--catalog", upstream.catalog)
    assert checked.code == 0 and "warning: LLM_TIMEOUT: until" not in checked.err, checked.err
    codes = upstream.catalog / "llm_datadist" / "codes.yaml"
    text = codes.read_text(encoding="utf-8")
    assert text.count(f"{REPO}: '9.2.0'") == 1, text
    codes.write_text(text.replace(f"{REPO}: '9.2.0'", f"{REPO}: '9.20'"), encoding="utf-8")
    checked = run_cli("validate", "--catalog", upstream.catalog)
    line = next(n for n, t in enumerate(codes.read_text(encoding="utf-8").splitlines(), 1) if "'9.20'" in t)
    warned = [w for w in checked.err.splitlines() if "until" in w]
    assert checked.code == 0 and len(warned) == 1, checked.err
    assert re.match(rf".*codes\.yaml:({line}|{line - 1}|{line - 2}):\d+: warning: LLM_TIMEOUT: until {REPO}: '9.20'",
                    warned[0]) and "9.2.0" in warned[0], warned


def test_diff_between_two_releases_says_a_value_fixed_in_the_source_files(shaped):
    """A release that fixes a value and changes a text: `diff` of its edition and the one before
    lists the value beside the text (it said only the text, or "No changes" with no text)."""
    upstream, release = shaped
    repo = upstream.repo.path
    family = load_catalog(upstream.catalog).family_by_id["llm_datadist"]
    _edit(repo, DATADIST_H, r"LLM_TIMEOUT = 0x5010B01AU", "LLM_TIMEOUT = 0x5010B0FFU")
    _edit(repo, ERROR_CODES_H, r"LLM_TIMEOUT, 26\)", "LLM_TIMEOUT, 255)")
    _text_change(repo, PYTHON_PAGE_910, family, "LLM_PARAM_INVALID", "zh")
    assert (result := release()).code == 0, result.out + result.err
    text = run_cli("diff", "9.1.0-v2", "9.2.0-v2", "--catalog", upstream.catalog, "--lang", "en")
    assert "Values changed (in the source files):\n  LLM_TIMEOUT: 0x5010B01A → 0x5010B0FF\n" in text.out, text.out
    data = json.loads(run_cli("diff", "9.1.0-v2", "9.2.0-v2", "--catalog", upstream.catalog, "--json").out)
    assert data["values"] == [{"code": "LLM_TIMEOUT", "before": "0x5010B01A", "after": "0x5010B0FF"}]
    same = json.loads(run_cli("diff", "9.0.1-v2", "9.1.0-v2", "--catalog", upstream.catalog, "--json").out)
    assert same["values"] == []
