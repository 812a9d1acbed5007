"""`audit` against upstream-format fixtures (tests/fixtures/upstream, built from facts and seeds)."""
import json

import pytest

from tests.helpers import FIXTURES, run_cli

UP = FIXTURES / "upstream"


@pytest.mark.parametrize("edition,flag,name", [
    ("9.0.0-v2", "--python", "status_reference.py"),
    ("9.0.0-v2", "--python", "status_literal.py"),
    ("9.0.0-v2", "--header", "llm_datadist.h"),
    ("9.0.0-v2", "--header", "ge_error_codes.h"),
    ("9.0.0-v2", "--page", "page_v2_zh.md"),
    ("9.0.0-v1", "--page", "page_v1_en.html"),
])
def test_matching_upstream_files_audit_clean(edition, flag, name):
    result = run_cli("audit", "--edition", edition, flag, UP / name)
    assert result.code == 0, result.out
    assert "no differences" in result.out


def altered(tmp_path, name, *replacements):
    text = (UP / name).read_text(encoding="utf-8")
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def findings(result):
    return {(f["kind"], f["code"]) for f in json.loads(result.out)["findings"]}


def test_python_drift_of_every_kind(tmp_path):
    path = altered(tmp_path, "status_literal.py",
                   ("LLM_TIMEOUT = 0x5010B01A", "LLM_TIMEOUT = 0x5010B0FF"),
                   ("    LLM_NO_FREE_BLOCK = 0x5010B012\n", ""),
                   ("    LLM_UNKNOWN_ERROR = -1\n", "    LLM_UNKNOWN_ERROR = -1\n    LLM_BRAND_NEW = 0x5010B01D\n"),
                   ("    LLM_REPEAT_REQUEST = 0x5010B003\n    LLM_REQUEST_ALREADY_COMPLETED = 0x5010B004\n",
                    "    LLM_REQUEST_ALREADY_COMPLETED = 0x5010B004\n    LLM_REPEAT_REQUEST = 0x5010B003\n"))
    result = run_cli("audit", "--edition", "9.0.0-v2", "--python", path, "--json")
    assert result.code == 1
    assert findings(result) == {("value differs", "LLM_TIMEOUT"), ("missing upstream", "LLM_NO_FREE_BLOCK"),
                                ("missing from catalog", "LLM_BRAND_NEW"), ("order differs", "LLM_REQUEST_ALREADY_COMPLETED")}


def test_unresolvable_references_compare_names_and_order(tmp_path):
    path = altered(tmp_path, "status_reference.py", ("    LLM_LINK_BUSY = llm_wrapper.kLinkBusy\n", ""))
    result = run_cli("audit", "--edition", "9.0.0-v2", "--python", path, "--json")
    assert findings(result) == {("missing upstream", "LLM_LINK_BUSY")}


def test_header_drift(tmp_path):
    path = altered(tmp_path, "llm_datadist.h",
                   ("constexpr Status LLM_TIMEOUT = 0x5010B01AU;", "constexpr Status LLM_TIMEOUT = 0x5010B01BU;"),
                   ("constexpr Status LLM_WAIT_PROC_TIMEOUT", "constexpr Status LLM_WAIT_PROCESS_TIMEOUT"),
                   ("constexpr Status LLM_OUT_OF_MEMORY = 0x5010B01CU;\n", ""))
    result = run_cli("audit", "--edition", "9.0.0-v2", "--header", path, "--json")
    assert result.code == 1
    assert findings(result) == {("value differs", "LLM_TIMEOUT"), ("name differs", "LLM_WAIT_PROCESS_TIMEOUT"),
                                ("missing upstream", "LLM_OUT_OF_MEMORY")}


def test_page_drift_of_every_kind(tmp_path):
    path = altered(tmp_path, "page_v2_zh.md",
                   ("| LLM\\_TIMEOUT | 处理超时 | 是 |", "| LLM\\_TIMEOUT | 处理超时 | 否 |"),
                   ("| 链路繁忙 |", "| 链路很忙 |"),
                   ("检查是否存在重复调用。", "检查是否存在重复的调用。"),
                   ("| LLM\\_PREFIX\\_NOT\\_EXIST | 前缀不存在 | 是 | 检查Request中的Prefix Id是否已加载过。 |\n", ""),
                   ("| LLM\\_UNKNOWN\\_ERROR |", "| LLM\\_NEW\\_CODE | 新 | 是 | 无 |\n| LLM\\_UNKNOWN\\_ERROR |"))
    result = run_cli("audit", "--edition", "9.0.0-v2", "--page", path, "--json")
    assert result.code == 1
    assert findings(result) == {("recoverable differs", "LLM_TIMEOUT"), ("meaning differs", "LLM_LINK_BUSY"),
                                ("solution differs", "LLM_REPEAT_REQUEST"), ("missing upstream", "LLM_PREFIX_NOT_EXIST"),
                                ("missing from catalog", "LLM_NEW_CODE")}


def test_page_order_drift_in_html(tmp_path):
    text = (UP / "page_v1_en.html").read_text(encoding="utf-8")
    lines = text.split("\n")
    first = next(i for i, line in enumerate(lines) if 'name="llm_param_invalid"' in line)
    lines[first], lines[first + 1] = lines[first + 1], lines[first]
    path = tmp_path / "swapped.html"
    path.write_text("\n".join(lines), encoding="utf-8")
    result = run_cli("audit", "--edition", "9.0.0-v1", "--page", path, "--json")
    assert findings(result) == {("order differs", "LLM_KV_CACHE_NOT_EXIST")}


@pytest.mark.parametrize("name,line,message", [
    ("page_v2_zh_conflict.md", 33, "unresolved merge-conflict markers"),
    ("page_no_table.md", 1, "no status-code table found"),
    ("page_short_row.md", 18, "a table row with 2 cells"),
])
def test_broken_pages_are_differences_with_their_line(name, line, message):
    result = run_cli("audit", "--edition", "9.0.0-v2", "--page", UP / name)
    assert result.code == 1
    assert f"{UP / name}:{line}: cannot read: {message}" in result.out
    assert "Traceback" not in result.out + result.err


def test_unreadable_files(tmp_path):
    result = run_cli("audit", "--edition", "9.0.0-v2", "--python", tmp_path / "absent.py", "--header", UP / "page_no_table.md")
    assert result.code == 1
    assert "absent.py:1: cannot read: No such file or directory" in result.out
    assert "page_no_table.md:1: cannot read: no status-code constants" in result.out


def test_audit_usage(tmp_path):
    assert run_cli("audit", "--edition", "9.0.0-v2").code == 2
    assert run_cli("audit", "--edition", "7.0", "--page", UP / "page_v2_zh.md").code == 2
