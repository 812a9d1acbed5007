"""`explain` and `diff`."""
import json

import pytest

from tests.helpers import run_cli


@pytest.mark.parametrize("key", ["LLM_TIMEOUT", "llm_timeout", "0x5010B01A", "0x5010b01a", "1343270938", "Process timeout."])
def test_explain_finds_by_every_key(key):
    result = run_cli("explain", key, "--lang", "en")
    assert result.code == 0
    assert result.out.startswith("LLM_TIMEOUT\n")
    assert "Processing timeout" in result.out and "0x5010B01A" in result.out


def test_explain_by_c_name_and_logged_message_with_typos():
    assert run_cli("explain", "LLM_WAIT_PROC_TIMEOUT").out.startswith("LLM_WAIT_PROCESS_TIMEOUT\n")
    assert run_cli("explain", "kv cache not exit!").out.startswith("LLM_KV_CACHE_NOT_EXIST\n")
    assert run_cli("explain", "SUCCESS").out.startswith("LLM_SUCCESS\n")


def test_explain_shows_unknown_as_unknown():
    result = run_cli("explain", "LLM_TIMEOUT", "--edition", "8.0.0", "--lang", "en")
    assert "Recoverable: Not known" in result.out
    assert "Not known (no copy of this edition's texts was seen)" in result.out


def test_explain_marks_translations():
    assert "(translated by this project)" in run_cli("explain", "LLM_TIMEOUT", "--lang", "en").out
    assert "(translated by this project)" not in run_cli("explain", "LLM_WAIT_PROCESS_TIMEOUT", "--lang", "en").out


def test_explain_unknown_key_exits_2_with_closest():
    result = run_cli("explain", "LLM_TIMEOT")
    assert result.code == 2 and "closest: LLM_TIMEOUT" in result.err
    assert run_cli("explain", "0x5010B0FF").code == 2
    assert run_cli("explain", "LLM_TIMEOUT", "--lang", "fr").code == 2
    assert run_cli("explain", "LLM_TIMEOUT", "--edition", "1.0").code == 2


def test_diff_between_the_two_9_0_0_pages():
    result = run_cli("diff", "9.0.0-v1", "9.0.0-v2", "--json", "--lang", "zh")
    data = json.loads(result.out)
    assert data["added"] == ["LLM_TIMEOUT"]
    assert data["dropped"] == ["LLM_WAIT_PROCESS_TIMEOUT", "LLM_DEVICE_OUT_OF_MEMORY"]
    changed = {(t["code"], t["field"]) for t in data["texts"]}
    assert ("LLM_LINK_BUSY", "solution") in changed and ("LLM_DEVICE_MEM_ERROR", "meaning") in changed
    assert all(t["lang"] == "zh" for t in data["texts"])


def test_diff_reports_recoverability_and_unknowns_as_text():
    result = run_cli("diff", "8.0.0", "8.2.RC1", "--lang", "en")
    assert result.code == 0
    assert "LLM_TIMEOUT: Not known → Yes" in result.out
    assert "Not known (no copy of this edition's texts was seen)" in result.out
    assert "LLM_DEVICE_MEM_ERROR: Not listed → Not known" in result.out


def test_diff_of_an_edition_with_itself():
    assert "No changes." in run_cli("diff", "9.0.0-v1", "9.0.0-v1", "--lang", "en").out
