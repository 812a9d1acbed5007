"""`explain` and `diff`: timelines kept apart, display-width padding, nothing printed as
"None", a terminal that cannot show Chinese, and the end of an unknown never called a change."""
import json
import os
import re
import subprocess
import sys
import unicodedata

import pytest

from tests.support.helpers import ROOT, run_cli


def display_width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 0 if unicodedata.combining(ch) else 1 for ch in text)


def history_blocks(output: str) -> dict[str, list[str]]:
    """{'page · timeline': [step lines]} from explain's history section."""
    blocks, current = {}, None
    section = output.split("\n", 1)[1]
    for line in section.splitlines():
        if re.match(r"^  \S.* · .*:$", line):
            current = line.strip()[:-1]
            blocks[current] = []
        elif current and line.startswith("    "):
            blocks[current].append(line)
        elif not line.startswith(" "):
            current = None
    return blocks


def explain(*argv):
    result = run_cli("explain", *argv)
    assert result.code == 0, result.err
    return result.out


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_llm_timeout_shows_each_timeline_apart_and_is_never_dropped(llm, catalog, lang):
    out = explain("LLM_TIMEOUT", "--lang", lang)
    blocks = history_blocks(out)
    code = llm.code_by_name["LLM_TIMEOUT"]
    expected = [
        f"{page.name[lang]} · {t.name[lang]}"
        for page in llm.pages
        if code.name_on(page)
        for t in page.timelines
        if any(e.timeline is t for e in llm.editions)
    ]
    assert list(blocks) == expected
    assert len(expected) >= 3  # Python v1, Python v2 and a C++ timeline at least
    dropped = catalog.site.label("dropped", lang)
    assert dropped not in out


@pytest.mark.parametrize("name", ["LLM_TIMEOUT", "LLM_LINK_BUSY"])
def test_the_answer_says_where_other_pages_of_its_release_give_another_recoverability(llm, name):
    """As the site's card says at its top: what the default edition's peers say otherwise, in
    the text and in --json; nothing where they agree."""
    from generator.domain.queries import default_edition

    code = llm.code_by_name[name]
    edition = default_edition(llm, code)
    said = edition.row_by_code[name].recoverable
    differing = sorted(e.id for e in llm.release_editions(edition.release) if name in e.row_by_code
                       and {said, e.row_by_code[name].recoverable}.isdisjoint({"not known"})
                       and e.row_by_code[name].recoverable != said)
    if name == "LLM_TIMEOUT":
        assert differing, "the Python and C++ pages of its release disagree: this test needs that"
    out = explain(name, "--lang", "en")
    head = out.split("\nHistory:")[0]
    assert ("Other pages of CANN" in head) == bool(differing), head
    told = head.split("say otherwise:")[-1] if differing else ""
    assert all(ident in told for ident in differing), head
    data = json.loads(explain(name, "--json"))[0]
    assert data["recoverable"] == said
    assert sorted(d["edition"] for d in data["said_otherwise"]) == differing
    assert all(d["recoverable"] != said for d in data["said_otherwise"])


def test_json_answers_for_the_edition_asked_for(llm):
    """--json --edition ID: what that edition says (its recoverability and texts), as the text does."""
    code = llm.code_by_name["LLM_TIMEOUT"]
    for edition in [e for e in llm.editions if code.name in e.row_by_code][:6]:
        data = json.loads(explain("LLM_TIMEOUT", "--json", "--lang", "en", "--edition", edition.id))[0]
        assert data["edition"] == edition.id and data["recoverable"] == edition.row_by_code[code.name].recoverable
        assert data["meaning"] == code.text("meaning", edition.id, "en")


def _timeline_of(llm, block_name, lang):
    for page in llm.pages:
        for timeline in page.timelines:
            if f"{page.name[lang]} · {timeline.name[lang]}" == block_name:
                return timeline
    raise AssertionError(block_name)


@pytest.mark.slow  # every code of every family
def test_every_dropped_in_any_history_follows_a_listing_in_the_same_timeline(catalog):
    """Independent of changes.py: read the rows of the timeline's own editions."""
    for family in catalog.families:
        dropped_label = catalog.site.label("dropped", "en")
        for code in family.codes:
            out = explain(code.name, "--family", family.id, "--lang", "en")
            for block, lines in history_blocks(out).items():
                timeline = _timeline_of(family, block, "en")
                editions = [e for e in family.editions if e.timeline is timeline]
                for line in lines:
                    if dropped_label not in line:
                        continue
                    edition_id = line.split()[0]
                    index = [e.id for e in editions].index(edition_id)  # the step is of this timeline
                    assert code.name not in editions[index].row_by_code
                    earlier = [e for e in editions[:index] if code.name not in e.not_known]
                    assert earlier and code.name in earlier[-1].row_by_code, f"{code.name} {edition_id}: {line}"


def test_zh_history_is_padded_by_display_width(catalog):
    out = explain("LLM_TIMEOUT", "--lang", "zh")
    checked = 0
    for lines in history_blocks(out).values():
        starts = set()
        for line in lines:
            if len(re.split(r"\s{2,}", line.strip())) < 3:
                continue  # the collapsed "not listed (…)" line
            first_gap = re.match(r"^ {4}\S+\s+", line).end()
            second = re.match(r"^(\S+\s+)", line[first_gap:]).end() + first_gap
            starts.add((display_width(line[:first_gap]), display_width(line[:second])))
            checked += 1
        assert len(starts) <= 1, f"columns drift: {starts}"
    assert checked > 5


@pytest.mark.slow  # every such code in both languages; the next test is the quick one
def test_c_only_and_python_only_codes_print_no_none(catalog, llm):
    c_only = [c for c in llm.codes if not c.in_python]
    py_only = [c for c in llm.codes if not c.in_c]
    assert c_only and py_only
    for code in c_only + py_only:
        for lang in ("zh", "en"):
            out = explain(code.name, "--lang", lang)
            assert not re.search(r": None$", out, re.M), out
            if code.log_message is None:
                assert catalog.site.label("log_message", lang) not in out


def test_a_c_only_code_prints_no_none(catalog, llm):
    code = next(c for c in llm.codes if not c.in_python and c.log_message is None)
    out = explain(code.name, "--lang", "en")
    assert not re.search(r": None$", out, re.M) and catalog.site.label("log_message", "en") not in out


def test_explain_on_a_terminal_that_cannot_show_chinese(tmp_path):
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    result = subprocess.run([sys.executable, "-m", "generator", "explain", "LLM_TIMEOUT"], cwd=ROOT, env=env,
                            capture_output=True)
    assert result.returncode == 0 and b"Traceback" not in result.stderr
    result.stdout.decode("ascii")  # every byte is ASCII: the Chinese is escaped, not lost
    assert b"LLM_TIMEOUT" in result.stdout and b"\\u" in result.stdout


def test_explain_into_a_closed_pipe_is_quiet():
    result = subprocess.run(f"{sys.executable} -m generator explain LLM_TIMEOUT --lang en | head -1", shell=True,
                            cwd=ROOT, capture_output=True, text=True)
    assert result.stdout.strip() == "LLM_TIMEOUT  (LLM-DataDist)" and "Traceback" not in result.stderr


@pytest.mark.parametrize("argv", [["--version"], ["targets"], ["explain", "LLM_TIMEOUT"]])
def test_an_output_that_cannot_be_written_is_one_line_that_says_so(argv):
    """`... > /dev/full`: --version printed a traceback, and the verbs blamed a temporary file
    (and told the user to set TMPDIR); the standard output is named, in one line."""
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "generator", *argv], cwd=ROOT, stdout=full,
                                stderr=subprocess.PIPE, text=True)
    assert result.returncode == 1 and result.stderr == \
        "error: No space left on device (writing the standard output)\n", result.stderr


def test_version_into_a_closed_pipe_is_quiet():
    """The reader is gone before a byte is written (`| head -1` that already ended)."""
    process = subprocess.Popen([sys.executable, "-m", "generator", "--version"], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    process.stdout.close()  # long before the interpreter has started
    assert process.wait() == 1 and process.stderr.read() == ""


@pytest.mark.parametrize("key,code", [("LLM_WAIT_PROC_TIMEOUT", "LLM_WAIT_PROCESS_TIMEOUT"),
                                      ("0x5010b01a", "LLM_TIMEOUT"), ("1343270938", "LLM_TIMEOUT"),
                                      ("LLM_TIMEOUT", "LLM_TIMEOUT"), ("kLLMTimeout", "LLM_TIMEOUT"),
                                      ("status = kLLMTimeout", "LLM_TIMEOUT")])  # a binding's constant, as the site
def test_explain_finds_a_code_by_any_key(key, code):
    assert explain(key, "--lang", "en").startswith(f"{code}  ")


def test_explain_unknown_key_is_usage_with_suggestions():
    result = run_cli("explain", "LLM_TIMEOUTT")
    assert result.code == 2 and "LLM_TIMEOUT" in result.err


def diff_json(old, new, *extra):
    result = run_cli("diff", old, new, "--json", *extra)
    assert result.code == 0, result.err
    return json.loads(result.out)


def test_the_end_of_an_unknown_is_not_a_recoverability_change(llm):
    pairs = [(a, b) for a, b in zip(llm.editions, llm.editions[1:]) if a.timeline is b.timeline]
    seen_became_known = 0
    for old, new in pairs:
        data = diff_json(old.id, new.id, "--lang", "en")
        assert data["same_timeline"] is True
        for change in data["recoverable"]:
            assert "not known" not in (change["before"], change["after"]), (old.id, new.id, change)
            assert old.row_by_code[change["code"]].recoverable != new.row_by_code[change["code"]].recoverable
        expected_known = sorted(r.code for r in new.rows if r.code in old.row_by_code
                                and old.row_by_code[r.code].recoverable == "not known" and r.recoverable != "not known")
        assert sorted(c["code"] for c in data["became_known"]) == expected_known
        seen_became_known += len(expected_known)
    assert seen_became_known > 0  # the catalog has such steps: the check above was exercised


def test_diff_across_timelines_says_so(llm):
    v1 = next(e for e in llm.editions if e.timeline.id == "v1" and e.released)
    v2 = next(e for e in llm.editions if e.timeline.id == "v2" and e.released)
    data = diff_json(v1.id, v2.id)
    assert data["same_timeline"] is False
    text = run_cli("diff", v1.id, v2.id, "--lang", "en").out
    assert v1.timeline.name["en"] in text and v2.timeline.name["en"] in text


def test_diff_names_the_family_its_editions_were_found_in(catalog):
    """Bare release numbers (HIXL's edition ids) are not LLM-DataDist's: the text says whose they are."""
    hixl = catalog.family_by_id["hixl"]
    old, new = [e.id for e in hixl.editions if e.released][:2]
    assert catalog.families[0].edition(old) is None  # found in another family than the first
    lines = run_cli("diff", old, new, "--lang", "en").out.splitlines()
    assert lines[:2] == [f"{hixl.name['en']} (hixl)", f"{old} → {new}"]
    assert run_cli("diff", old, new, "--lang", "en", "--family", "hixl").out.splitlines()[0] == f"{old} → {new}"


def test_diff_of_an_unknown_edition_is_usage():
    result = run_cli("diff", "9.0.0-v2", "9.9.9")
    assert result.code == 2 and "9.9.9" in result.err


def test_a_diff_in_english_says_what_upstream_reworded_in_chinese_alone():
    """9.1.0-cpp-v1 → 9.2.0-beta.1-cpp-v1: upstream wrote error-code for 错误码 in three Chinese
    solutions, and the English (this project's translation) stayed the same. The English diff
    said "No changes."; it names the three, with upstream's Chinese change."""
    text = run_cli("diff", "9.1.0-cpp-v1", "9.2.0-beta.1-cpp-v1", "--lang", "en").out
    assert "No changes." not in text and "Reworded in Chinese only:" in text, text
    data = diff_json("9.1.0-cpp-v1", "9.2.0-beta.1-cpp-v1", "--lang", "en")
    assert data["texts"] == [] and [(c["code"], c["lang"]) for c in data["reworded_elsewhere"]] == [
        ("LLM_LINK_FAILED", "zh"), ("LLM_UNLINK_FAILED", "zh"), ("LLM_LINK_BUSY", "zh")]
    assert all("error-code" in c["after"] and "错误码" in c["before"] for c in data["reworded_elsewhere"])
    zh = diff_json("9.1.0-cpp-v1", "9.2.0-beta.1-cpp-v1", "--lang", "zh")
    assert zh["reworded_elsewhere"] == [] and len(zh["texts"]) == 3  # the Chinese shows its own change


def test_reworded_elsewhere_is_each_change_of_upstreams_words_the_other_language_does_not_show(catalog):
    """Over every step of every timeline, from the catalog's entries: a text whose words in one
    language are upstream's own on both sides and change beyond punctuation, where the other
    language's text is there on both sides and the same, is listed for the other language; nothing else is."""
    from generator.domain import changes

    found = 0
    for family in catalog.families:
        for timeline in (t for page in family.pages for t in page.timelines):
            steps = [e for e in family.editions if e.timeline is timeline]
            for old, new in zip(steps, steps[1:]):
                diff = changes.compare_editions(family, old, new)
                for lang in diff.texts_comparable:
                    want = []
                    for code in family.codes:
                        if code.name not in old.row_by_code or code.name not in new.row_by_code:
                            continue
                        for field in changes.shared_text_fields(old, new):
                            mine = [code.entry(field, e.id, lang) for e in (old, new)]
                            if None in mine or mine[0].text != mine[1].text:
                                continue
                            for other in diff.texts_comparable:
                                theirs = [code.entry(field, e.id, other) for e in (old, new)]
                                if other != lang and None not in theirs and all(
                                        changes.own_words(e, t.origin, other) for e, t in zip((old, new), theirs)) \
                                        and not changes.punctuation_only(theirs[0].text, theirs[1].text):
                                    want.append((code.name, field, other, theirs[0].text, theirs[1].text))
                    said = [(c.code, c.field, c.lang, c.before, c.after) for c in diff.elsewhere_for(lang)]
                    assert sorted(said) == sorted(want), (old.id, new.id, lang)
                    found += len(want)
    assert found  # the catalog has such steps: the check above was exercised
