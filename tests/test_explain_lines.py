"""`explain` with a pasted log line, and `explain -` with a whole log: a name or value in the line
wins; otherwise its message is matched against every code's logged message as a template."""
from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
import time

import pytest

from generator.reading.load import load_catalog
from generator.shipping.explain import match_line
from tests.support.helpers import ROOT, run_cli

PREFIX = "2026-12-06 10:01:02.123 [ERROR] LLMDD(1234,python):2026-12-06-10:01:02.123 [llm_datadist.cc:88] "


def _catalog():
    return load_catalog(ROOT / "catalog")


def test_a_logged_message_after_a_log_prefix_names_its_code_and_says_so():
    result = run_cli("explain", PREFIX + "Process timeout.", "--lang", "en")
    assert result.code == 0, result.err
    first = result.out.splitlines()
    assert first[0] == "(the line's message is LLM_TIMEOUT's: 'Process timeout.')", result.out
    assert first[1].startswith("LLM_TIMEOUT  (LLM-DataDist)")


def test_a_name_or_a_value_in_the_line_wins_over_its_message():
    catalog = _catalog()
    named = match_line(catalog.families, "[ERROR] pull failed with HIXL_TIMEOUT: Process timeout.")
    assert [(m.family.id, m.code.name, m.how) for m in named] == [("hixl", "TIMEOUT", "name")]
    valued = match_line(catalog.families, "[ERROR] pull_cache ret=0x5010B01B, Process timeout.")
    assert [(m.code.name, m.how) for m in valued] == [("LLM_LINK_BUSY", "value")]
    # a word of a message is no name: "timeout" is not HIXL's TIMEOUT
    assert [m.code.name for m in match_line(catalog.families, PREFIX + "Process timeout.")] == ["LLM_TIMEOUT"]


def test_the_number_a_line_logs_as_its_status_names_its_code_in_decimal_or_hex():
    catalog = _catalog()

    def found(line):
        return [(m.family.id, m.code.name, m.how) for m in match_line(catalog.families, line)]

    assert found("PullKvCache failed, ret = 1343270938") == [("llm_datadist", "LLM_TIMEOUT", "value")]
    assert found("status_code: 0x5010B01B, pull failed") == [("llm_datadist", "LLM_LINK_BUSY", "value")]
    both = [("hixl", "TIMEOUT", "value"), ("adxl", "TIMEOUT", "value")]  # one value, two families
    assert found("[ERROR] HIXL(123,python): transfer failed, ret=103901") == both
    assert found("[ERROR] pull failed, error code 103901") == both
    # a number that is not given as the status (a process id, a count) is not read as one
    assert found("[ERROR] LLMDD(1343270938,python): 1343270938 caches pulled") == []
    result = subprocess.run([sys.executable, "-m", "generator", "explain", "-", "--lang", "en"],
                            input="[ERROR] pull failed, ret = 1343270938\n", capture_output=True, text=True, cwd=ROOT)
    assert "  -> LLM_TIMEOUT (0x5010B01A, llm_datadist)" in result.stdout, result.stdout + result.stderr


def test_an_id_no_code_has_names_the_nearest_ids():
    """E10015 was "no code of any family has the value E10015" (read as hex); the module's lookup
    suggested E16005, E16001, E14001 (by spelling)."""
    result = run_cli("explain", "E10015")
    assert result.code == 2 and "E10015 is none of the GE error codes; the nearest: E10014, E10016" in result.err
    sys.path.insert(0, str(ROOT / "generated" / "python"))
    try:
        import ge_error_codes
    finally:
        sys.path.pop(0)
    with pytest.raises(KeyError, match="did you mean E10014, E10016"):
        ge_error_codes.lookup("e10015")


def test_a_number_no_code_has_as_its_value_names_the_ids_of_that_number():
    """10059 (E10059 without its letter) was only "no code of any family has the value 10059"."""
    result = run_cli("explain", "10059")
    assert result.code == 2 and result.err.rstrip().endswith(
        "no code of any family has the value 10059; the id with that number: E10059 (GE error codes)"), result.err
    both = run_cli("explain", "11001").err
    assert "the ids with that number: E11001 (GE error codes), W11001 (GE error codes)" in both, both
    assert run_cli("explain", "10015").err.rstrip().endswith(
        "has the value 10015; the ids one digit away: E10014 (GE error codes), E10016 (GE error codes), "
        "E10013 (GE error codes)")  # as the site suggests them (found by review)
    assert run_cli("explain", "50390").err.rstrip().endswith("has the value 50390")
    assert run_cli("explain", "103901").code == 0  # a value first: HIXL's TIMEOUT


def test_a_line_no_code_is_about_is_refused_in_one_line():
    result = run_cli("explain", PREFIX + "nothing a code logs")
    assert result.code == 2 and "nor does any code's logged message match it" in result.err, result.err


def test_json_gives_the_code_how_it_was_found_and_what_it_means():
    result = run_cli("explain", "[WARN] LLM(7,x):1 Current link is busy.", "--json", "--lang", "en")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert [(d["code"], d["found_by"], d["hex"]) for d in data] == [("LLM_LINK_BUSY", "message", "0x5010B01B")]
    assert data[0]["meaning"] and data[0]["solution"]


def test_explain_dash_annotates_each_line_of_a_log_it_recognises():
    log = "starting\n[ERROR] ret=0x5010B01A in pull\n[WARN] LLM(7,x):1 Current link is busy.\nbye\n"
    result = subprocess.run([sys.executable, "-m", "generator", "explain", "-", "--lang", "en"], input=log,
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    heads = [line for line in result.stdout.splitlines() if not line.startswith(" ")]
    assert heads == ["2: [ERROR] ret=0x5010B01A in pull", "3: [WARN] LLM(7,x):1 Current link is busy."], result.stdout
    assert "  -> LLM_TIMEOUT (0x5010B01A, llm_datadist)" in result.stdout
    assert "  -> LLM_LINK_BUSY (0x5010B01B, llm_datadist)" in result.stdout
    as_json = subprocess.run([sys.executable, "-m", "generator", "explain", "-", "--json"], input=log,
                             capture_output=True, text=True, cwd=ROOT)
    assert [(d["line"], d["code"]) for d in json.loads(as_json.stdout)] == [(2, "LLM_TIMEOUT"), (3, "LLM_LINK_BUSY")]
    assert result.stderr == as_json.stderr == "explain: 2 of 4 line(s) name a code or match a code's message\n"
    none = subprocess.run([sys.executable, "-m", "generator", "explain", "-"], input="starting\nbye\n",
                          capture_output=True, text=True, cwd=ROOT)
    assert (none.returncode, none.stdout, none.stderr) == (0, "", "explain: 0 of 2 line(s) name a code or match a "
                                                                 "code's message\n")


def test_a_long_hostile_line_costs_in_proportion_to_its_length():
    catalog = _catalog()
    costs = []
    for size in (1_000, 10_000):
        line = "[" * (size // 4) + "Process " * (size // 16) + "a" * (size // 4)
        started = time.process_time()
        for _ in range(5):
            match_line(catalog.families, line)
        costs.append(time.process_time() - started)
    assert costs[1] <= 20 * max(costs[0], 1e-3), costs


@pytest.mark.parametrize("key,lang", [("LLM_TIMEOUT", "en"), ("0x5010B01B", "zh"), ("HIXL_TIMEOUT", "en"),
                                      ("E10001", "zh"), ("E10001", "en")])
def test_the_answer_names_the_codes_page_on_the_site(key, lang, monkeypatch):
    """In the text and in --json: the page's path from the site's root (the page `make docs` builds
    from site/docs/), under SITE_URL when the environment gives it."""
    monkeypatch.delenv("SITE_URL", raising=False)
    pages = [d["page"] for d in json.loads(run_cli("explain", key, "--json", "--lang", lang).out)]
    assert pages and all(p.startswith("/") for p in pages)
    languages = load_catalog(ROOT / "catalog").site.languages
    for page in pages:
        parts = page.strip("/").split("/")
        if parts[0] == lang and lang != languages[0]:
            parts = parts[1:]
        source = ROOT / "site" / "docs" / "/".join(parts[:-1]) / f"{parts[-1]}.{lang}.md"
        assert source.is_file(), (page, source)
    text = run_cli("explain", key, "--lang", lang).out
    assert f": {pages[0]}\n" in text.split("\n\n")[0]
    monkeypatch.setenv("SITE_URL", "https://example.org/llm/")
    assert json.loads(run_cli("explain", key, "--json", "--lang", lang).out)[0]["page"] == \
        "https://example.org/llm" + pages[0]


# CANN's own error lines: LLMLOGE writes "%tid %s: ErrorNo: %u(%s) ..." (hicann/ge llm_log.h), HIXL_LOGE
# "[HIXL] %tid %s: ErrorNo: %u ", GE's error manager "%tid ReportErrMessage: E10059: ..."
LLM_LINE = "[ERROR] LLMDATADIST(12345,python):2026-03-01-12:00:00.123.456 [llm_datadist.cc:123]12345 "
GE_LINE = "[ERROR] GE(30741,atc.bin):2021-12-09-16:10:22.539.201 [error_manager.cc:263]30741 ReportErrMessage: "


@pytest.mark.parametrize("line, found", [
    (LLM_LINE + "PullKvCache: ErrorNo: 1343270938(Process timeout.) pull cache timeout",
     [("llm_datadist", "LLM_TIMEOUT", "value")]),
    (LLM_LINE + "Link: ErrorNo: 1343270921(local cluster link with remote cluster failed!) link failed",
     [("llm_datadist", "LLM_LINK_FAILED", "value")]),
    ("[ERROR] HIXL(1,python):2026-03-01-12:00:00.123.456 [h.cc:9][HIXL] 1 Connect: ErrorNo: 103901 connect timeout",
     [("hixl", "TIMEOUT", "value"), ("adxl", "TIMEOUT", "value")]),
    ("link failed, error code is 1343270921", [("llm_datadist", "LLM_LINK_FAILED", "value")]),
    # a one-word message ("failed", "success") is the whole message after the prefix, never a line's last word
    (LLM_LINE + "Open: open file failed", []),
    ("operation success", []),
    (LLM_LINE + "Open: failed", [("llm_datadist", "LLM_FAILED", "message")]),
])
def test_cann_error_lines_name_their_code_and_a_last_word_is_no_message(line, found):
    assert [(m.family.id, m.code.name, m.how) for m in match_line(_catalog().families, line)] == found


def test_a_leading_placeholder_takes_the_message_not_the_log_prefix():
    """GE's E10059 (`%s failed. Reason: %s.`): the thread id, the function and the id are the prefix."""
    catalog = _catalog()
    for line in (GE_LINE + "E10059: abc_1 failed. Reason: 2,3,4.", GE_LINE + "abc_1 failed. Reason: 2,3,4."):
        [match] = match_line(catalog.families, line, catalog.message_families)
        assert (match.code.id, match.placeholders) == ("E10059", ("abc_1", "2,3,4")), line


def test_a_line_that_fits_a_less_specific_message_too_names_its_code():
    """Upstream's own example of E10001 (`Value %s for parameter %s ...`) has E10003's closer format
    (`... parameter --%s ...`): E10003 answers, and E10001 is named beside it, not hidden."""
    catalog = _catalog()
    line = ("Value FORMAT_ALL for parameter --input_format is invalid. "
            "Reason: The current value is not within the valid range.")
    [match] = match_line(catalog.families, line, catalog.message_families)
    assert match.code.id == "E10003" and "E10001" in match.also and "E10003" not in match.also
    out = run_cli("explain", line, "--lang", "en").out
    assert re.search(r"It also fits, less closely, the format of: [EW0-9 ]*E10001", out), out
    data = json.loads(run_cli("explain", line, "--json").out)
    assert data[0]["code"] == "E10003" and "E10001" in data[0]["also_fits"]
    log = subprocess.run([sys.executable, "-m", "generator", "explain", "-", "--lang", "en"], input=line + "\n",
                         capture_output=True, text=True, cwd=ROOT)  # a whole log says it too
    said = r"\n  -> E10003 .*\n     It also fits, less closely, the format of: [EW0-9 ]*E10001"
    assert re.search(said, log.stdout), log.stdout
    [alone] = match_line(catalog.families, "E10003: " + line, catalog.message_families)  # the id wins: nothing else
    assert alone.how == "id" and alone.also == ()


@pytest.mark.parametrize("line", [GE_LINE + "E10001: Value a for parameter b is invalid. Reason: ",
                                  GE_LINE + "Value a for parameter b is invalid. Reason:",
                                  GE_LINE + "Value a for parameter b is invalid. Reason:\n  TraceBack (most recent):",
                                  GE_LINE + "E10001: Value a for parameter b is invalid. Reason:\r\n  TraceBack:"])
def test_an_empty_last_value_is_read_though_the_log_dropped_the_blank_before_it(line):
    catalog = _catalog()
    [match] = match_line(catalog.families, line, catalog.message_families)
    assert (match.code.id, match.placeholders) == ("E10001", ("a", "b", "")), line
    module = _generated_ge_module()
    found = module.match(line)
    assert found is not None and (found.code.id, found.values) == ("E10001", ("a", "b", "")), line


def test_a_thread_id_against_the_source_files_bracket_is_prefix_not_value():
    catalog = _catalog()
    line = "[ERROR] GE(12345,python):2024-01-01-00:00:00.000.000 [ge_api.cc:205]12345 GEInitialize failed. Reason: x."
    [match] = match_line(catalog.families, line, catalog.message_families)
    assert (match.code.id, match.placeholders) == ("E10059", ("GEInitialize", "x")), match.placeholders
    assert _generated_ge_module().match(line).values == ("GEInitialize", "x")
    # a number that leads the message itself, after a blank, stays the message's
    [lead] = match_line(catalog.families, GE_LINE + "12345 GEInitialize failed. Reason: x.", catalog.message_families)
    assert lead.placeholders == ("12345 GEInitialize", "x")


def _generated_ge_module():
    path = ROOT / "generated" / "python" / "ge_error_codes.py"
    spec = importlib.util.spec_from_file_location("ge_error_codes_lines", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("key, code", [("０x５０１０Ｂ０１Ａ", "LLM_TIMEOUT"), ("０ｘ５０１０ｂ０１ａ", "LLM_TIMEOUT"),
                                       ("１３４３２７０９３８", "LLM_TIMEOUT"),
                                       ("ＬＬＭ＿ＴＩＭＥＯＵＴ", "LLM_TIMEOUT"), ("－１", "LLM_UNKNOWN_ERROR")])
def test_full_width_digits_and_letters_read_as_ascii(key, code):
    """As a Chinese input method types them in its full-width mode (the site's search reads them so too)."""
    result = run_cli("explain", key, "--json", "--family", "llm_datadist")
    assert result.code == 0, result.err
    assert [d["code"] for d in json.loads(result.out)] == [code]


def test_an_empty_last_value_needs_the_message_to_end_there_and_a_blank_of_the_templates_own():
    from generator.rendering.runtime.message_match import match_template, template_pieces

    assert match_template(template_pieces("Reason: %s"), "Reason:") == ("",)  # one placeholder
    assert match_template(template_pieces("Value %s is invalid. Reason: %s"), "Value 1 is invalid. Reason: x") == \
        ("1", "x")
    # the line goes on after the cut piece: not an empty value
    assert match_template(template_pieces("Value %s is invalid. Reason: %s"), "Value 1 is invalid. Reason:x y") is None
    # a template whose piece before its last placeholder is only a blank does not fit any line that lacks one
    assert match_template(template_pieces("%s %s"), "word") is None
