"""`upstream-source`: the regions of upstream's source files that list a family's codes, written
from the catalog, on a repository built in the test (tests/support/upstream_formats.py, whose
status.py, binding, headers and messages are this project's, in upstream's formats).

Each test states upstream's lines itself (read from the file, or written out as upstream's edit
would have them), so that the rendering is checked against an independent copy."""
from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from generator.cli import main
from tests.support.helpers import run_cli
from tests.support.upstream_formats import REPO, build_upstream, commit_catalog
from tests.test_release_shapes import BINDING, DATADIST_H, ERROR_CODES_H, MESSAGES, STATUS_PY, _edit

FILES = (STATUS_PY, BINDING, DATADIST_H, ERROR_CODES_H, MESSAGES)


@pytest.fixture
def upstream(tmp_path):
    built = build_upstream(tmp_path)
    commit_catalog(built.catalog)
    return built


def _source(upstream, path: str, ref: str = "v9.1.0", *extra):
    return run_cli("upstream-source", "--catalog", upstream.catalog, "--upstream", f"{REPO}={upstream.repo.path}",
                   "--ref", ref, "--path", path, *extra)


def _regions(out: str) -> list[tuple[int, int, list[str]]]:
    """The printed regions: (start, end, lines)."""
    regions = []
    for line in out.split("\n")[:-1]:
        head = re.fullmatch(r"@@ (\d+),(\d+) @@", line)
        if head:
            regions.append((int(head[1]), int(head[2]), []))
        else:
            regions[-1][2].append(line)
    return regions


# A line that defines one of the fixture's codes, in each file's forms (an independent reader).
DEFINING = re.compile(r"= llm_wrapper\.|llm_wrapper\.\w+: LLMStatusCode\.|= -1$|m\.attr\(\"k|constexpr Status |"
                      r"GE_ERRORNO_DEFINE\(|GE_ERRORNO_EXTERNAL\(")


@pytest.mark.parametrize("path", FILES)
def test_every_region_is_upstreams_lines_and_every_defining_line_is_in_one(upstream, path):
    result = _source(upstream, path)
    assert result.code == 0, result.err
    lines = (upstream.repo.path / path).read_text(encoding="utf-8").split("\n")
    regions = _regions(result.out)
    assert regions, result.out
    for start, end, region in regions:
        assert region == lines[start - 1:end], (path, start, end)
    covered = {n for start, end, _ in regions for n in range(start, end + 1)}
    defining = {n for n, line in enumerate(lines, 1) if DEFINING.search(line)}
    assert defining and defining <= covered, (path, sorted(defining - covered))


def _emptied(text: str) -> str:
    """The file with every line that defines a code removed (its regions emptied)."""
    return "\n".join(line for line in text.split("\n") if not DEFINING.search(line))


@pytest.mark.parametrize("path", FILES)
def test_write_fills_emptied_regions_back_to_upstreams_bytes(upstream, path, tmp_path):
    copy = tmp_path / Path(path).name
    original = (upstream.repo.path / path).read_bytes()
    copy.write_text(_emptied(original.decode("utf-8")), encoding="utf-8")
    assert copy.read_bytes() != original
    result = _source(upstream, path, "v9.1.0", "--write", str(copy))
    assert result.code == 0, result.err
    assert copy.read_bytes() == original


def test_write_changes_only_the_regions_of_a_file_with_code_of_its_own(upstream, tmp_path):
    upstream_text = (upstream.repo.path / STATUS_PY).read_text(encoding="utf-8")
    opening = "class LLMStatusCode(IntEnum):"
    mine = upstream_text.replace(opening, "# our own comment\n" + opening)
    mine = mine.replace("    LLM_TIMEOUT = llm_wrapper.kLLMTimeout\n", "    LLM_TIMEOUT = llm_wrapper.kOldTimeout\n")
    mine += "\n\ndef our_helper():\n    return LLMStatusCode.LLM_TIMEOUT\n"
    copy = tmp_path / "status.py"
    copy.write_text(mine, encoding="utf-8")
    result = _source(upstream, STATUS_PY, "v9.1.0", "--write", str(copy))
    assert result.code == 0, result.err
    expected = upstream_text.replace(opening, "# our own comment\n" + opening)
    helper = "\n\ndef our_helper():\n    return LLMStatusCode.LLM_TIMEOUT\n"
    assert copy.read_text(encoding="utf-8") == expected + helper


def test_a_line_no_region_writes_is_refused_with_its_line_and_nothing_is_written(upstream, tmp_path):
    text = (upstream.repo.path / STATUS_PY).read_text(encoding="utf-8")
    text = text.replace("    LLM_UNKNOWN_ERROR = -1\n",
                        "    LLM_UNKNOWN_ERROR = -1\n\n    LLM_OLD_TIMEOUT = LLM_TIMEOUT\n")
    copy = tmp_path / "status.py"
    copy.write_text(text, encoding="utf-8")
    line = text.split("\n").index("    LLM_OLD_TIMEOUT = LLM_TIMEOUT") + 1
    result = _source(upstream, STATUS_PY, "v9.1.0", "--write", str(copy))
    assert result.code == 1
    assert f"status.py:{line}: 'LLM_OLD_TIMEOUT = LLM_TIMEOUT' defines one of llm_datadist's codes outside" \
        in result.err, result.err
    assert copy.read_text(encoding="utf-8") == text


def test_a_region_whose_line_before_is_gone_is_refused(upstream, tmp_path):
    text = (upstream.repo.path / ERROR_CODES_H).read_text(encoding="utf-8").replace("namespace ge {", "namespace ge")
    copy = tmp_path / "llm_error_codes.h"
    copy.write_text(text, encoding="utf-8")
    result = _source(upstream, ERROR_CODES_H, "v9.1.0", "--write", str(copy))
    assert result.code == 1 and "no line 'namespace ge {'" in result.err, result.err
    assert copy.read_text(encoding="utf-8") == text


# -- upstream's edits, and the catalog's: the regions follow ------------------------------------------------------


def _release(upstream, *edits) -> None:
    for path, pattern, new in edits:
        _edit(upstream.repo.path, path, pattern, new)
    upstream.repo.commit("9.2.0", "v9.2.0")
    result = run_cli("import", "--catalog", upstream.catalog, "--upstream", f"{REPO}={upstream.repo.path}",
                     "--ref", "v9.2.0")
    assert result.code == 0, result.out + result.err


def _printed(upstream, path: str, ref: str) -> list[str]:
    result = _source(upstream, path, ref)
    assert result.code == 0, result.err
    return [line for _, _, lines in _regions(result.out) for line in lines]


def test_a_value_changed_upstream_changes_the_lines_that_state_it_at_that_release_only(upstream):
    _release(upstream, (DATADIST_H, r"LLM_TIMEOUT = 0x5010B01AU", "LLM_TIMEOUT = 0x5010B0FFU"),
             (ERROR_CODES_H, r"LLM_TIMEOUT, 26\)", "LLM_TIMEOUT, 255)"))
    assert "constexpr Status LLM_TIMEOUT = 0x5010B0FFU;" in _printed(upstream, DATADIST_H, "v9.2.0")
    assert "GE_ERRORNO_DEFINE(0b01, 0b01, 0b000, 8, 11, LLM_TIMEOUT, 255);" in _printed(upstream, ERROR_CODES_H,
                                                                                        "v9.2.0")
    assert "constexpr Status LLM_TIMEOUT = 0x5010B01AU;" in _printed(upstream, DATADIST_H, "v9.1.0")
    assert "GE_ERRORNO_DEFINE(0b01, 0b01, 0b000, 8, 11, LLM_TIMEOUT, 26);" in _printed(upstream, ERROR_CODES_H,
                                                                                       "v9.1.0")


def test_a_cpp_only_rename_changes_the_headers_and_the_binding_not_status_py(upstream):
    _release(upstream, (DATADIST_H, r"\bLLM_TIMEOUT =", "LLM_PROCESS_TIMEOUT ="),
             (ERROR_CODES_H, r"\bLLM_TIMEOUT, 26", "LLM_PROCESS_TIMEOUT, 26"),
             (BINDING, r"ge::LLM_TIMEOUT\)", "ge::LLM_PROCESS_TIMEOUT)"))
    assert "constexpr Status LLM_PROCESS_TIMEOUT = 0x5010B01AU;" in _printed(upstream, DATADIST_H, "v9.2.0")
    assert '  m.attr("kLLMTimeout") = py::int_(ge::LLM_PROCESS_TIMEOUT);' in _printed(upstream, BINDING, "v9.2.0")
    assert "    LLM_TIMEOUT = llm_wrapper.kLLMTimeout" in _printed(upstream, STATUS_PY, "v9.2.0")
    assert '  m.attr("kLLMTimeout") = py::int_(ge::LLM_TIMEOUT);' in _printed(upstream, BINDING, "v9.1.0")


def test_a_code_removed_upstream_leaves_its_lines_out_from_that_release(upstream):
    name = "LLM_NOTIFY_PROMPT_UNLINK_FAILED"
    for path in FILES:
        text = (upstream.repo.path / path).read_text(encoding="utf-8")
        kept = [line for line in text.split("\n") if name not in line and "kNotifyPromptUnlinkFailed" not in line]
        (upstream.repo.path / path).write_text("\n".join(kept), encoding="utf-8")
    _release(upstream)
    for path in FILES:
        assert not any(name in line for line in _printed(upstream, path, "v9.2.0")), path
    assert any(name in line for line in _printed(upstream, STATUS_PY, "v9.1.0"))


def test_a_code_added_upstream_gets_its_lines_where_upstream_put_them(upstream):
    _release(upstream,
             (STATUS_PY, r"^(    LLM_TIMEOUT = llm_wrapper\.kLLMTimeout)$",
              r"\1\n    LLM_NEW_LINK_ERROR = llm_wrapper.kLLMNewLinkError"),
             (STATUS_PY, r"^(    llm_wrapper\.kLLMTimeout: LLMStatusCode\.LLM_TIMEOUT,)$",
              r"\1\n    llm_wrapper.kLLMNewLinkError: LLMStatusCode.LLM_NEW_LINK_ERROR,"),
             (BINDING, r'^(  m\.attr\("kLLMTimeout"\) = py::int_\(ge::LLM_TIMEOUT\);)$',
              r'\1\n  m.attr("kLLMNewLinkError") = py::int_(ge::LLM_NEW_LINK_ERROR);'),
             (ERROR_CODES_H, r"^(GE_ERRORNO_DEFINE\(0b01, 0b01, 0b000, 8, 11, LLM_TIMEOUT, 26\);)$",
              r"\1\nGE_ERRORNO_DEFINE(0b01, 0b01, 0b000, 8, 11, LLM_NEW_LINK_ERROR, 238);"))
    for path in (STATUS_PY, BINDING, ERROR_CODES_H):
        lines = (upstream.repo.path / path).read_text(encoding="utf-8").split("\n")
        printed = _source(upstream, path, "v9.2.0")
        for start, end, region in _regions(printed.out):
            assert region == lines[start - 1:end], path
    assert "    LLM_NEW_LINK_ERROR = llm_wrapper.kLLMNewLinkError" in _printed(upstream, STATUS_PY, "v9.2.0")


def _audited_after(upstream, old: str, new: str, stating: str) -> tuple[set, set, str]:
    """The catalog's codes.yaml with `old` (written once) replaced by `new`: the (file, line) of
    every difference the audit finds in the source files (a regenerated line, or what a parser read
    in it), and of every source line matching `stating`."""
    codes = upstream.catalog / "llm_datadist" / "codes.yaml"
    text = codes.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    codes.write_text(text.replace(old, new), encoding="utf-8")
    audited = upstream.audit()
    assert audited.code == 1, audited.out
    found = {(m[1], int(m[2])) for m in re.finditer(r"(?m)^llm_datadist sources: hicann/hixl:(\S+?):(\d+): \w+: ",
                                                    audited.out)}
    lines = {(path, n) for path in FILES
             for n, line in enumerate((upstream.repo.path / path).read_text(encoding="utf-8").split("\n"), 1)
             if re.search(stating, line)}
    return found, lines, audited.out


def test_a_value_changed_in_the_catalog_fails_the_audit_at_exactly_the_lines_that_state_it(upstream):
    found, stating, out = _audited_after(upstream, "value: 0x5010B01A\n", "value: 0x5010B0FE\n",
                                         r"LLM_TIMEOUT( = 0x5010B01AU|, 26\))")
    assert len(stating) == 2 and found == stating, (found, stating, out)


def test_a_fact_a_region_needs_that_the_catalog_lacks_exits_1(upstream):
    family = upstream.catalog / "llm_datadist" / "family.yaml"
    text = family.read_text(encoding="utf-8")
    family.write_text(re.sub(r"(?m)^  runtime_constants:\n    ACL_ERROR_RT_DEVICE_MEM_ERROR: 507053\n", "", text),
                      encoding="utf-8")
    result = _source(upstream, BINDING)
    assert result.code == 1 and "LLM_DEVICE_MEM_ERROR" in result.err and "runtime_constants" in result.err, \
        result.err


def test_a_region_that_is_not_upstreams_lines_exits_1_with_the_first_such_line(upstream, tmp_path):
    """A code's `wrapper` deleted from the catalog (validate cannot tell: a code may have none):
    status.py's line for it would be written with a literal value, so the print says where."""
    codes = upstream.catalog / "llm_datadist" / "codes.yaml"
    text = codes.read_text(encoding="utf-8")
    assert text.count("    wrapper: kParamInvalid\n") == 1
    codes.write_text(text.replace("    wrapper: kParamInvalid\n", ""), encoding="utf-8")
    result = _source(upstream, STATUS_PY)
    upstream_line = next(n for n, line in enumerate(
        (upstream.repo.path / STATUS_PY).read_text(encoding="utf-8").split("\n"), 1) if "kParamInvalid" in line)
    assert result.code == 1 and f"{STATUS_PY}@v9.1.0:{upstream_line}: upstream has" in result.err, result.err
    assert "llm_wrapper.kParamInvalid" in result.err
    # nothing printed that is not upstream's, nor written (`--write`)
    assert result.out == "", result.out
    local = tmp_path / "status.py"
    local.write_bytes((upstream.repo.path / STATUS_PY).read_bytes().replace(b"llm_wrapper.kParamInvalid",
                                                                            b"llm_wrapper.kEdited"))
    written = run_cli("upstream-source", "--catalog", upstream.catalog, "--upstream", f"{REPO}={upstream.repo.path}",
                      "--ref", "v9.1.0", "--path", STATUS_PY, "--write", local)
    assert written.code == 1 and b"kEdited" in local.read_bytes(), written.out + written.err


def test_into_a_closed_pipe_it_is_quiet(upstream):
    """`upstream-source ... | head -1`: the reader left; no file is said to be unreadable."""
    class Closed(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")
    err = io.StringIO()
    with contextlib.redirect_stdout(Closed()), contextlib.redirect_stderr(err):
        code = main(["upstream-source", "--catalog", str(upstream.catalog), "--upstream",
                     f"{REPO}={upstream.repo.path}", "--ref", "v9.1.0", "--path", STATUS_PY])
    assert code == 1 and err.getvalue() == ""


def test_a_name_changed_in_the_catalog_fails_the_audit_at_exactly_the_source_lines_that_state_it(upstream):
    """The C++ name of LLM_TIMEOUT in GE's namespace: the macro line and the binding line state it."""
    found, stating, out = _audited_after(upstream, "{name: 'ge::LLM_TIMEOUT',", "{name: 'ge::LLM_TIME_OUT',",
                                         r"ge::LLM_TIMEOUT\b|, LLM_TIMEOUT, ")
    assert len(stating) == 2 and found == stating, (found, stating, out)


def test_a_value_fixed_out_of_value_order_keeps_its_line_where_upstream_declared_it():
    """A region listed in value order (the real catalog's headers) keeps a code's line in place when
    a release fixes its value to one past the next codes' (upstream edits the line in place): the
    audit found every later line moved after such a release."""
    from dataclasses import replace

    from generator.domain.codes import Earlier
    from generator.reading.load import load_catalog
    from generator.rendering.upstream_source import render_region
    from tests.support.helpers import ROOT

    family = load_catalog(ROOT / "catalog").family_by_id["llm_datadist"]
    busy = family.code_by_name["LLM_LINK_BUSY"]
    later = [c for c in family.codes if c.value > busy.value and c.c_name and 0x5010B000 < c.value < 0x5010C000]
    assert later, "a code after LLM_LINK_BUSY in value order: this test needs one"
    fixed = max(c.value for c in later) + 1
    moved = replace(busy, value=fixed, earlier=(*busy.earlier, Earlier(None, None, (("hicann/hixl", "9.4.0"),),
                                                                      busy.pos, value=busy.value)))
    family = replace(family, codes=tuple(moved if c is busy else c for c in family.codes))
    checked = 0
    for item in family.upstream:
        for region in item.regions:
            if region.order != "value" or item.repo != "hicann/hixl":
                continue
            lines = render_region(family, item, region, None)
            named = [i for i, line in enumerate(lines) if re.search(r"\bLLM_LINK_BUSY\b", line)]
            if not named:
                continue
            before = render_region(family, item, region, "9.1.0")
            assert [re.sub(r"\b(0x5010B0\w\wU|\d+)\b", "N", line) for line in lines] == \
                [re.sub(r"\b(0x5010B0\w\wU|\d+)\b", "N", line) for line in before], item.path
            if region.lines != "message-macro":  # a message, not the value
                assert f"{fixed:X}" in lines[named[0]].upper() or f" {fixed & 0xFF})" in lines[named[0]], lines
            checked += 1
    assert checked >= 1
