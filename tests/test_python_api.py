"""The generated module's API (CONTRACT §4), imported in this interpreter."""
import importlib.util
import copy

import pytest

from tests.helpers import ROOT


@pytest.fixture(scope="module")
def m():
    path = ROOT / "generated" / "python" / "llm_status_codes.py"
    spec = importlib.util.spec_from_file_location("llm_status_codes_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_is_an_intenum_with_upstreams_str(m):
    L = m.LLMStatusCode
    assert issubclass(L, int) and len(L) == 29
    assert str(L.LLM_TIMEOUT) == "LLMStatusCode.LLM_TIMEOUT"
    assert L(1343270938) is L.LLM_TIMEOUT
    assert L.LLM_FAILED == 4294967295 and L.LLM_UNKNOWN_ERROR == -1
    assert f"{L.LLM_TIMEOUT:#x}" == "0x5010b01a"


def test_c_names(m):
    L = m.LLMStatusCode
    assert L.LLM_WAIT_PROCESS_TIMEOUT.c_name == "LLM_WAIT_PROC_TIMEOUT"
    assert L.LLM_SEQ_LENOVERLIMIT.c_name == "LLM_SEQ_LEN_OVER_LIMIT"
    assert [x.name for x in L if x.c_name is None] == ["LLM_DEVICE_MEM_ERROR", "LLM_SUSPECT_REMOTE_ERROR", "LLM_UNKNOWN_ERROR"]


def test_texts_and_recoverability(m):
    L = m.LLMStatusCode
    assert L.LLM_SUCCESS.solution() == "无" and L.LLM_SUCCESS.solution("en") == "None"
    assert L.LLM_SUCCESS.recoverable() is None
    assert L.LLM_FAILED.recoverable() is False
    assert L.LLM_TIMEOUT.recoverable() is True
    assert L.LLM_TIMEOUT.text_origin("en") == "translation"
    assert L.LLM_WAIT_PROCESS_TIMEOUT.text_origin("en") == "upstream"
    assert L.LLM_WAIT_PROCESS_TIMEOUT.editions == ("8.0.0", "8.2.RC1", "8.5.0-v1", "9.0.0-v1")


def test_not_known_is_not_no(m):
    L = m.LLMStatusCode
    assert L.LLM_TIMEOUT.recoverable("8.0.0") is m.UNKNOWN
    assert not m.UNKNOWN and m.UNKNOWN is not False and repr(m.UNKNOWN) == "UNKNOWN"
    assert L.LLM_TIMEOUT.meaning("zh", "8.0.0") is None
    assert L.LLM_DEVICE_MEM_ERROR.recoverable("8.2.RC1") is m.UNKNOWN
    assert "8.2.RC1" not in L.LLM_DEVICE_MEM_ERROR.editions
    assert copy.deepcopy(m.UNKNOWN) is m.UNKNOWN


def test_unlisted_edition_raises_key_error(m):
    L = m.LLMStatusCode
    with pytest.raises(KeyError):
        L.LLM_TIMEOUT.recoverable("9.0.0-v1")
    with pytest.raises(KeyError):
        L.LLM_ENGINE_FINALIZED.meaning()
    with pytest.raises(KeyError):
        L.LLM_TIMEOUT.meaning("zh", "10.0")
    with pytest.raises(ValueError):
        L.LLM_TIMEOUT.meaning("fr")


@pytest.mark.parametrize("key", [1343270938, "0x5010B01A", "0x5010b01a", "1343270938", "LLM_TIMEOUT", "llm_timeout",
                                 "LLMStatusCode.LLM_TIMEOUT"])
def test_lookup_finds(m, key):
    assert m.lookup(key) is m.LLMStatusCode.LLM_TIMEOUT


def test_lookup_by_c_name_and_negative(m):
    assert m.lookup("LLM_WAIT_PROC_TIMEOUT") is m.LLMStatusCode.LLM_WAIT_PROCESS_TIMEOUT
    assert m.lookup("-1") is m.LLMStatusCode.LLM_UNKNOWN_ERROR
    assert m.lookup("0xFFFFFFFF") is m.LLMStatusCode.LLM_FAILED


def test_lookup_errors_name_closest_and_c_only(m):
    with pytest.raises(KeyError, match="LLM_TIMEOUT"):
        m.lookup("LLM_TIMEOUTS")
    with pytest.raises(KeyError, match="only in C/C.."):
        m.lookup("LLM_COPY_CACHE_FAILED")
    with pytest.raises(KeyError, match="only in C/C.."):
        m.lookup(0x5010B016)
    with pytest.raises(KeyError):
        m.lookup(True)


def test_exception_and_code_2_status(m):
    error = m.LLMException("boom", status_code=m.LLMStatusCode.LLM_TIMEOUT)
    assert isinstance(error, RuntimeError) and error.status_code is m.LLMStatusCode.LLM_TIMEOUT
    assert m.LLMException("x").status_code is m.LLMStatusCode.LLM_SUCCESS
    assert m.code_2_status(1343270938) is m.LLMStatusCode.LLM_TIMEOUT
    assert m.code_2_status(12345) is m.LLMStatusCode.LLM_FAILED
