"""A routine upstream release, brought in by one command, on a repository built in the test
(tests/support/upstream_formats.py: the fixture catalog's pages and source files in upstream's formats,
tagged v9.0.0 to v9.1.0).

1. A tag after one Python-page solution text changed: a small catalog diff; the new edition's
   English is carried for every text whose Chinese did not change, and the changed text is marked
   untranslated (the module answers None and "untranslated" for it); a second run changes nothing.
2. A further tag adding one code to status.py, the binding, both headers, the messages source
   and both pages: the code comes in with its names, value and message, and records the release
   that added it, so the audit stays clean at every older tag.
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from generator.reading.load import load_catalog
from tests.support.helpers import generated_module, run_cli
from tests.support.upstream_formats import (CPP_PAGE_910, PYTHON_PAGE_910, REPO, build_upstream, commit_catalog,
                                             insert_after)

pytestmark = pytest.mark.slow  # builds git repositories and generates every output twice

STATUS_PY = "src/python/llm_datadist/llm_datadist/status.py"
BINDING = "src/python/llm_wrapper/llm_wrapper_v2.cc"
ERROR_CODES_H = "include/llm_datadist/llm_error_codes.h"
DATADIST_H = "include/llm_datadist/llm_datadist.h"
MESSAGES = "src/llm_datadist/llm_error_codes.cc"
OLD_SOLUTION = "基于日志排查错误原因。"
NEW_SOLUTION = "基于日志排查错误原因，并检查入参。"


def _numstat(catalog: Path) -> tuple[int, int]:
    """(changed lines, the longest changed line's length) of the catalog's uncommitted diff."""
    diff = subprocess.run(["git", "-C", str(catalog), "diff", "-U0", "--no-color", "."], capture_output=True, text=True,
                          check=True).stdout
    changed = [line[1:] for line in diff.splitlines() if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    return len(changed), max((len(line) for line in changed), default=0)




def _generate(upstream, out: Path):
    result = run_cli("generate", "--catalog", upstream.catalog, "--out", out)
    assert result.code == 0, result.err
    check = run_cli("check", "--full", "--catalog", upstream.catalog, "--out", out)
    assert check.code == 0, check.out + check.err


@pytest.fixture
def released(tmp_path):
    """The fixture's upstream with a tag v9.2.0 whose Python page changed one solution text."""
    upstream = build_upstream(tmp_path)
    commit_catalog(upstream.catalog)
    page = upstream.repo.path / PYTHON_PAGE_910
    text = page.read_text(encoding="utf-8")
    assert text.count(OLD_SOLUTION) == 1
    page.write_text(text.replace(OLD_SOLUTION, NEW_SOLUTION), encoding="utf-8")
    upstream.repo.commit("a clearer solution", "v9.2.0")
    return upstream


def _import(upstream, ref: str):
    return run_cli("import", "--catalog", upstream.catalog, "--upstream", f"{REPO}={upstream.repo.path}", "--ref", ref)


def test_a_release_that_changes_one_text(released, tmp_path):
    upstream = released
    result = _import(upstream, "v9.2.0")
    assert result.code == 0, result.err
    assert "translate: LLM_PARAM_INVALID solution (en) from 9.2.0-v2" in result.out, result.out
    # each line names its family: a version id alone (9.2.0-beta.1) may be HIXL's or ADXL's
    assert "\nllm_datadist 9.2.0-v2: a new page version" in "\n" + result.out, result.out
    changed, longest = _numstat(upstream.catalog)
    assert 0 < changed <= 40 and longest <= 160, (changed, longest)
    validated = run_cli("validate", "--catalog", upstream.catalog)
    assert validated.code == 0 and validated.err.count("is not translated yet") == 1, validated.err
    _generate(upstream, tmp_path / "out")
    module = generated_module(tmp_path / "out", "release_one")
    assert "9.2.0-v2" in module.EDITIONS
    family = load_catalog(upstream.catalog).family_by_id["llm_datadist"]
    code = module.LLMStatusCode
    for member in code:
        if member.name != "LLM_PARAM_INVALID" and family.code_by_name[member.name].text("solution", "9.1.0-v2", "en"):
            assert member.solution("en", edition="9.2.0-v2") == family.code_by_name[member.name].text(
                "solution", "9.1.0-v2", "en"
            )
    assert code.LLM_TIMEOUT.solution("en") == family.code_by_name["LLM_TIMEOUT"].text("solution", "9.1.0-v2", "en")
    assert code.LLM_PARAM_INVALID.solution("zh") == NEW_SOLUTION
    assert code.LLM_PARAM_INVALID.solution("en") is None
    assert code.LLM_PARAM_INVALID.text_origin("en", field="solution") == "untranslated"
    assert code.LLM_PARAM_INVALID.text_origin("en", field="meaning") == "upstream"
    assert code.LLM_PARAM_INVALID.meaning("en") is not None  # its meaning did not change

    # the English pages show the new Chinese text, marked as not translated yet: never "not known"
    shown = [
        p
        for p in (tmp_path / "out" / "site" / "docs").rglob("*.en.md")
        if NEW_SOLUTION in p.read_text(encoding="utf-8")
    ]
    assert {p.name for p in shown} >= {"LLM_PARAM_INVALID.en.md", "9.2.0-v2.en.md"}, shown
    for page in shown:
        row = next(line for line in page.read_text(encoding="utf-8").splitlines() if NEW_SOLUTION in line)
        assert "not translated yet" in row and "Not known" not in row, (page, row)

    subprocess.run(["git", "-C", str(upstream.catalog), "add", "-A"], check=True)
    again = _import(upstream, "v9.2.0")
    assert again.code == 0, again.err
    assert _numstat(upstream.catalog)[0] == 0

    # diff says which side is the zh text still to be translated, in words and in --json
    for old, new, said, flags in (("9.1.0-v2", "9.2.0-v2", "(Solution) (not translated yet):", (False, True)),
                                  ("9.2.0-v2", "9.1.0-v2", "(Solution) (Before: not translated yet):", (True, False))):
        text = run_cli("diff", "--catalog", upstream.catalog, old, new, "--lang", "en")
        assert f"LLM_PARAM_INVALID {said}" in text.out, text.out
        data = json.loads(run_cli("diff", "--catalog", upstream.catalog, old, new, "--lang", "en", "--json").out)
        change = next(c for c in data["texts"] if c["code"] == "LLM_PARAM_INVALID")
        assert (change["before_untranslated"], change["untranslated"]) == flags


@pytest.mark.parametrize("path,changed_again,version,head_moved", [
    (PYTHON_PAGE_910, True, b"9.2.0-v2", False), (CPP_PAGE_910, False, b"9.2.0-cpp-v2", False),
    (PYTHON_PAGE_910, True, b"9.2.0-v2", True)])
def test_a_newer_tag_imported_first_gives_the_catalog_of_the_release_order(tmp_path, path, changed_again, version,
                                                                            head_moved):
    """The catalog records the branch head's page (unreleased-…); upstream then tags it v9.2.0 (or,
    `head_moved`, changes it again first and tags that), and tags v9.2.1 after it, which changes a
    text again (the Python page) or not (the C++ page). Imported v9.2.1 first, the catalog is the one
    the release order makes, byte for byte: the head's version is v9.2.0's (v9.2.1 took a changed head
    over and lost its texts and their translations; it named an unchanged one after itself), and
    v9.2.0 is imported first where v9.2.1 needs it."""
    catalogs = {}
    for order in (("v9.2.0", "v9.2.1"), ("v9.2.1", "v9.2.0")):
        upstream = build_upstream(tmp_path / "-".join(order))
        page = upstream.repo.path / path
        text = page.read_text(encoding="utf-8")
        assert text.count(OLD_SOLUTION) == 1
        page.write_text(text.replace(OLD_SOLUTION, NEW_SOLUTION), encoding="utf-8")
        upstream.repo.commit("a change on the default branch")
        assert _import(upstream, "master").code == 0
        if head_moved:  # v9.2.0 is cut after the recorded head, with a page of its own
            page.write_text(page.read_text(encoding="utf-8").replace(NEW_SOLUTION, NEW_SOLUTION + "先"),
                            encoding="utf-8")
            upstream.repo.commit("after the recorded head")
        upstream.repo.git("tag", "v9.2.0")
        if changed_again:
            page.write_text(page.read_text(encoding="utf-8").replace(NEW_SOLUTION, NEW_SOLUTION + "再试。"),
                            encoding="utf-8")
        (upstream.repo.path / "NEWS").write_text("9.2.1\n", encoding="utf-8")
        upstream.repo.commit("another change", "v9.2.1")
        first = _import(upstream, order[0])
        assert first.code == 0, first.err
        needed = changed_again and order[0] == "v9.2.1"
        assert ("import: v9.2.0 first, as v9.2.1 needs it" in first.out) == needed, first.out
        assert _import(upstream, order[1]).code == 0
        catalogs[order] = {p.relative_to(upstream.catalog).as_posix(): p.read_bytes()
                           for p in sorted(upstream.catalog.rglob("*.yaml"))}
    in_order, reversed_order = catalogs.values()
    assert in_order == reversed_order
    assert b"- version: '" + version + b"'" in in_order["llm_datadist/editions.yaml"]


def test_a_tag_before_the_recorded_branch_head_does_not_take_its_version_over(tmp_path):
    """v9.2.0 and v9.2.1 each change a text, and the default branch a third time after them. Imported
    v9.2.0, then the branch head, then v9.2.1: v9.2.1's page is a version of its own before the head's,
    which stays unreleased, and every edition says what the release order makes it say (v9.2.1 took
    the head's version over, though the head comes after it and says otherwise)."""
    from tests.test_release_sequences import _said
    catalogs = {}
    for order in (("v9.2.0", "v9.2.1", "master"), ("v9.2.0", "master", "v9.2.1")):
        upstream = build_upstream(tmp_path / "-".join(order))
        page = upstream.repo.path / PYTHON_PAGE_910
        commits = {}
        for step, tag in ((1, "v9.2.0"), (2, None), (3, None)):
            text = page.read_text(encoding="utf-8")
            old = OLD_SOLUTION if step == 1 else NEW_SOLUTION + "再试。" * (step - 2)
            page.write_text(text.replace(old, NEW_SOLUTION + "再试。" * (step - 1)), encoding="utf-8")
            commits[step] = upstream.repo.commit(f"change {step}", *([tag] if tag else []))
        for ref in order:
            if ref == "v9.2.1":  # tagged only now: no version records it yet, as when it is new
                upstream.repo.git("tag", "v9.2.1", commits[2])
            result = _import(upstream, ref)
            assert result.code == 0, result.err
        out = tmp_path / ("out-" + "-".join(order))
        _generate(upstream, out)
        module = generated_module(out, "head_" + "_".join(order).replace(".", "_"))
        catalogs[order] = (module.EDITIONS, _said(module))
    in_order, head_first = catalogs.values()
    assert in_order == head_first and "unreleased-v2" in in_order[0] and "9.2.1-v2" in in_order[0]


def _head_recorded(tmp_path):
    """The fixture's upstream whose default branch changed a text after its tags, its catalog
    committed and then recording that branch head (`unreleased-v2`)."""
    upstream = build_upstream(tmp_path)
    commit_catalog(upstream.catalog)
    page = upstream.repo.path / PYTHON_PAGE_910
    page.write_text(page.read_text(encoding="utf-8").replace(OLD_SOLUTION, NEW_SOLUTION), encoding="utf-8")
    upstream.repo.commit("a change on the default branch")
    assert _import(upstream, "master").code == 0
    return upstream


def test_a_tag_taking_the_head_over_rewrites_only_the_lines_that_change(tmp_path):
    """The head's version becomes the release's: its id, its source's branch for the tag, and the
    alias; its framing (`page:`), however it is written (here its header as a block list, as a person
    or an older import wrote it), stays as it is, where the import wrote the whole source again."""
    upstream = _head_recorded(tmp_path)
    editions = upstream.catalog / "llm_datadist" / "editions.yaml"
    flow = "            header: [枚举值, 含义, 是否可恢复, 解决办法]\n"
    block = "            header:\n" + "".join(f"              - {h}\n"
                                               for h in ("枚举值", "含义", "是否可恢复", "解决办法"))
    assert editions.read_text(encoding="utf-8").count(flow) == 1
    editions.write_text(editions.read_text(encoding="utf-8").replace(flow, block), encoding="utf-8")
    subprocess.run(["git", "-C", str(upstream.catalog), "add", "-A"], check=True)
    upstream.repo.git("tag", "v9.2.0")
    assert _import(upstream, "v9.2.0").code == 0
    assert block in editions.read_text(encoding="utf-8")
    changed, _ = _numstat(upstream.catalog)
    # the id, branch -> tags, superseded (two lines), the texts' `from` and the unchanged pages' tags
    assert changed <= 12, changed


def test_a_tag_off_the_default_branch_leaves_the_branch_heads_version_unreleased(tmp_path):
    """v9.2.0 tagged on a commit of its own on top of the recorded head (as hicann/hixl's v9.1.0 is),
    the default branch still at that head: the release took the head's version over ("the branch
    head's page is now release 9.2.0's") and the unreleased edition was gone, though the default
    branch still ships it; the audit then said so. Found by a contract walkthrough. Then the release
    branch merged back: unreleased follows the default branch's page (found by review)."""
    from tests.test_release_sequences import _said

    upstream = _head_recorded(tmp_path)
    before = load_catalog(upstream.catalog).family_by_id["llm_datadist"]
    upstream.repo.git("checkout", "-q", "-b", "release")
    page = upstream.repo.path / PYTHON_PAGE_910
    page.write_text(page.read_text(encoding="utf-8").replace(NEW_SOLUTION, NEW_SOLUTION + "再试。"), encoding="utf-8")
    upstream.repo.commit("the release's own change", "v9.2.0")
    upstream.repo.git("checkout", "-q", "master")
    result = _import(upstream, "v9.2.0")
    assert result.code == 0 and "is now release" not in result.out, result.out
    family = load_catalog(upstream.catalog).family_by_id["llm_datadist"]
    assert family.edition_by_id["unreleased-v2"].version == before.edition_by_id["unreleased-v2"].version
    assert family.edition_by_id["9.2.0-v2"].version != family.edition_by_id["unreleased-v2"].version
    out = tmp_path / "out"
    _generate(upstream, out)
    said = _said(generated_module(out, "tag_off_the_branch"))
    assert any(edition == "9.2.0-v2" and texts[2].endswith("再试。") for (_, edition, lang), texts in said.items()
               if lang == "zh"), "the release's text"
    audited = upstream.audit()
    assert audited.code == 0, audited.out
    # the release branch merged back: the default branch's page is the release's, and so is unreleased's
    # (it kept the older page, and the import said the catalog records it already)
    upstream.repo.git("merge", "-q", "--ff-only", "release")
    result = _import(upstream, "master")
    assert result.code == 0 and "already records it" not in result.out, result.out
    _generate(upstream, tmp_path / "merged")
    said = _said(generated_module(tmp_path / "merged", "tag_off_the_branch_merged"))
    assert [texts for (place, edition, lang), texts in said.items() if edition == "unreleased-v2" and lang == "zh"] \
        == [texts for (place, edition, lang), texts in said.items() if edition == "9.2.0-v2" and lang == "zh"]
    audited = upstream.audit()
    assert audited.code == 0, audited.out


def test_a_branch_that_is_not_the_default_one_says_what_it_imports(tmp_path):
    """--ref develop (a branch whose page changed, neither a tag nor the default head): nothing to
    record from it, and the import says why and what to import instead, where it said nothing."""
    upstream = build_upstream(tmp_path)
    upstream.repo.git("checkout", "-q", "-b", "develop")
    page = upstream.repo.path / PYTHON_PAGE_910
    page.write_text(page.read_text(encoding="utf-8").replace(OLD_SOLUTION, NEW_SOLUTION), encoding="utf-8")
    upstream.repo.commit("on develop")
    upstream.repo.git("checkout", "-q", "master")
    result = _import(upstream, "develop")
    assert result.code == 0 and "for a person: --ref develop is no tag of" in result.out, result.out
    assert "import that tag" in result.out
    # and its last line does not say the catalog records it already
    assert result.out.splitlines()[-1] == "import: 0 file(s) changed; the lines for a person above say what is not " \
        "recorded", result.out


def test_a_branch_head_older_than_the_recorded_one_is_refused(tmp_path):
    """A stale clone (or a fork's older head under this repository's name) would move `unreleased`
    back to an older commit: refused, writing nothing, saying what to pass instead."""
    upstream = _head_recorded(tmp_path)
    subprocess.run(["git", "-C", str(upstream.catalog), "add", "-A"], check=True)
    stale = tmp_path / "stale"
    subprocess.run(["git", "clone", "-q", "--no-local", str(upstream.repo.path), str(stale)], check=True)
    subprocess.run(["git", "-C", str(stale), "reset", "-q", "--hard", "HEAD~1"], check=True)
    result = run_cli("import", "--catalog", upstream.catalog, "--upstream", f"{REPO}={stale}", "--ref", "master")
    assert result.code == 1 and "which comes after its head" in result.err and "git fetch" in result.err, result.err
    assert _numstat(upstream.catalog)[0] == 0


def test_the_default_branch_is_the_catalogs_whatever_a_clone_has_checked_out(tmp_path):
    """A maintainer's clone with a topic branch checked out: --ref master is the default branch's head
    (the catalog's `default_branch`), and the topic branch is no release, where the checked-out
    branch was taken for the default one (its commit recorded as `unreleased`, master refused)."""
    upstream = build_upstream(tmp_path)
    page = upstream.repo.path / PYTHON_PAGE_910
    page.write_text(page.read_text(encoding="utf-8").replace(OLD_SOLUTION, NEW_SOLUTION), encoding="utf-8")
    master = upstream.repo.commit("a change on the default branch")
    upstream.repo.git("checkout", "-q", "-b", "work")
    page.write_text(page.read_text(encoding="utf-8").replace(NEW_SOLUTION, NEW_SOLUTION + "再试。"), encoding="utf-8")
    upstream.repo.commit("a topic's change")
    work = _import(upstream, "work")
    assert work.code == 0 and "--ref work is no tag" in work.out, work.out
    result = _import(upstream, "master")
    assert result.code == 0, result.err
    head = next(v for v in load_catalog(upstream.catalog).family_by_id["llm_datadist"].versions
                if v.id == "unreleased-v2")
    assert [(s.branch, s.commit) for s in head.sources] == [("master", master.strip())]


def test_family_limits_a_release_import_to_that_family(released):
    """import --upstream … --family NAME: the release's pages and codes of that family only; a name
    that is no family is a usage error (it was ignored, and every family imported)."""
    upstream = released
    other = run_cli("import", "--catalog", upstream.catalog, "--upstream", f"{REPO}={upstream.repo.path}", "--ref",
                    "v9.2.0", "--family", "no_such_family")
    assert other.code == 2 and "no_such_family" in other.err, other.err
    assert _numstat(upstream.catalog)[0] == 0
    ours = run_cli("import", "--catalog", upstream.catalog, "--upstream", f"{REPO}={upstream.repo.path}", "--ref",
                   "v9.2.0", "--family", "llm_datadist")
    assert ours.code == 0 and "llm_datadist 9.2.0-v2: a new page version" in ours.out, ours.out


def test_a_shallow_clone_is_refused_with_what_to_run(tmp_path):
    """A shallow clone's tags and history are cut, so which tags ship a file cannot be told: refused,
    naming the command that makes it whole (it made a duplicate version, silently)."""
    upstream = build_upstream(tmp_path)
    shallow = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", "--branch", "v9.1.0", f"file://{upstream.repo.path}",
                    str(shallow)], check=True, capture_output=True)
    for verb in (("import", "--ref", "v9.1.0"), ("audit",)):
        result = run_cli(verb[0], "--catalog", upstream.catalog, "--upstream", f"{REPO}={shallow}", *verb[1:])
        assert result.code == 2 and "a shallow clone" in result.err and "--unshallow" in result.err, result.err


def test_a_corrupt_clone_is_named_in_what_git_says(tmp_path):
    """A clone that lost an object: the one line says which repository and which git command, where
    it said only git's own 'fatal: git cat-file: could not get object info'."""
    upstream = build_upstream(tmp_path)
    blob = upstream.repo.git("rev-parse", f"HEAD:{PYTHON_PAGE_910}").strip()
    (upstream.repo.path / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    result = run_cli("audit", "--catalog", upstream.catalog, "--upstream", f"{REPO}={upstream.repo.path}")
    assert result.code == 1 and "Traceback" not in result.err, result.err
    assert f"{REPO} ({upstream.repo.path}): git cat-file: " in result.err, result.err


def test_a_tag_already_recorded_is_not_read_again(released, monkeypatch):
    """Re-importing a tag the catalog records changes nothing and reads none of its pages: a
    version recorded by hand (hicann/hixl's v8.5.0, whose page holds merge-conflict markers, with
    its `malformations`) would be refused if it were read again. Here every read of a page fails."""
    upstream = released
    assert _import(upstream, "v9.2.0").code == 0
    subprocess.run(["git", "-C", str(upstream.catalog), "add", "-A"], check=True)
    import generator.importing.release as release

    def refused(*args, **kwargs):
        raise release.ImportProblem("the page holds merge-conflict markers: record the version by hand")
    monkeypatch.setattr(release, "read_rows", refused)
    for ref in ("v9.2.0", "v9.1.0"):
        again = _import(upstream, ref)
        assert again.code == 0 and "llm_datadist v2 " + ref[1:] + ": already recorded" in again.out, again.err
        assert _numstat(upstream.catalog)[0] == 0


def test_a_release_that_adds_a_code(released, tmp_path):
    upstream = released
    assert _import(upstream, "v9.2.0").code == 0
    subprocess.run(
        ["git", "-C", str(upstream.catalog), "commit", "-qam", "9.2.0", "--author", "t <t@t>"],
        check=True,
        capture_output=True,
        env={"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t", "PATH": "/usr/bin:/bin"},
    )
    repo = upstream.repo.path
    edits = {
        STATUS_PY: [
            (r"^    LLM_TIMEOUT = llm_wrapper\.kLLMTimeout$", "    LLM_QUEUE_FULL = llm_wrapper.kLLMQueueFull\n"),
            (
                r"^    llm_wrapper\.kLLMTimeout: LLMStatusCode\.LLM_TIMEOUT,$",
                "    llm_wrapper.kLLMQueueFull: LLMStatusCode.LLM_QUEUE_FULL,\n",
            ),
        ],
        BINDING: [(r'^  m\.attr\("kLLMTimeout"\).*$', '  m.attr("kLLMQueueFull") = py::int_(ge::LLM_QUEUE_FULL);\n')],
        ERROR_CODES_H: [
            (
                r"^GE_ERRORNO_DEFINE\(.*, LLM_TIMEOUT, 26\);$",
                "GE_ERRORNO_DEFINE(0b01, 0b01, 0b000, 8, 11, LLM_QUEUE_FULL, 29);\n",
            )
        ],
        DATADIST_H: [(r"^constexpr Status LLM_TIMEOUT = .*$", "constexpr Status LLM_QUEUE_FULL = 0x5010B01DU;\n")],
        # at the end of the registrations, in the codes' order (the order the audit regenerates them in)
        MESSAGES: [(r"^GE_ERRORNO_EXTERNAL\(LLM_KV_CACHE_NOT_EXIST, .*$",
                    'GE_ERRORNO_EXTERNAL(LLM_QUEUE_FULL, "Queue is full.");\n')],
        PYTHON_PAGE_910: [(r"^\| LLM_TIMEOUT \|.*$", "| LLM_QUEUE_FULL | 队列已满 | 是 | 稍后重试。 |\n")],
        CPP_PAGE_910: [(r"^\| LLM_TIMEOUT \|.*$", "| LLM_QUEUE_FULL | 队列已满 | 是 | 稍后重试。 |\n")],
    }
    for path, inserts in edits.items():
        text = (repo / path).read_text(encoding="utf-8")
        for pattern, new in inserts:
            text = insert_after(text, pattern, new)
        (repo / path).write_text(text, encoding="utf-8")
    upstream.repo.commit("LLM_QUEUE_FULL", "v9.3.0")

    result = _import(upstream, "v9.3.0")
    assert result.code == 0, result.err
    assert "LLM_QUEUE_FULL: a new code (0x5010B01D), added in hicann/hixl 9.3.0" in result.out, result.out
    changed, longest = _numstat(upstream.catalog)
    assert 0 < changed <= 70 and longest <= 160, (changed, longest)  # two new versions, each with its framing
    family = load_catalog(upstream.catalog).family_by_id["llm_datadist"]
    new = family.code_by_name["LLM_QUEUE_FULL"]
    assert (new.python_name, new.c_name, new.value, new.wrapper, new.log_message) == (
        "LLM_QUEUE_FULL", "LLM_QUEUE_FULL", 0x5010B01D, "kLLMQueueFull", "Queue is full.")
    assert {n.name for n in new.cpp} == {"llm_datadist::LLM_QUEUE_FULL", "ge::LLM_QUEUE_FULL"}
    assert new.added == (("hicann/hixl", "9.3.0"),)
    names = [c.name for c in family.python_codes]
    assert names.index("LLM_QUEUE_FULL") == names.index("LLM_TIMEOUT") + 1
    assert (
        new.text("meaning", "9.3.0-v2", "zh") == "队列已满" and new.text("meaning", "9.3.0-cpp-v2", "zh") == "队列已满"
    )
    assert new.text("meaning", "9.2.0-v2", "zh") is None
    codes = (upstream.catalog / "llm_datadist" / "codes.yaml").read_text(encoding="utf-8")
    assert codes.count("zh: 队列已满") == codes.count("zh: 稍后重试。") == 1  # both pages' texts, each written once
    assert codes.count("from: ['9.3.0-v2', '9.3.0-cpp-v2']") == 2

    _generate(upstream, tmp_path / "out")
    module = generated_module(tmp_path / "out", "release_two")
    found = module.lookup("LLM_QUEUE_FULL")
    assert found is module.LLMStatusCode.LLM_QUEUE_FULL and int(found) == 0x5010B01D
    assert module.lookup(0x5010B01D) is found
    audited = upstream.audit()
    assert audited.code == 0, audited.out
    # the release's own files audit clean against its edition; an older release's lack the code, as they should
    old = tmp_path / "status-9.2.0.py"
    old.write_text(upstream.repo.git("show", f"v9.2.0:{STATUS_PY}") + "\n", encoding="utf-8")
    for edition, source, code in (("9.2.0-v2", old, 0), ("9.3.0-v2", repo / STATUS_PY, 0), ("9.3.0-v2", old, 1)):
        result = run_cli("audit", "--catalog", upstream.catalog, "--edition", edition, "--python", source)
        assert result.code == code, (edition, source, result.out)
    assert "LLM_QUEUE_FULL: missing upstream" in result.out
    again = _import(upstream, "v9.3.0")
    assert again.code == 0 and "0 file(s) changed" in again.out, again.out
    # an older release that ships it too, imported after (a tag made later on the same commit): added from it
    upstream.repo.git("tag", "v9.2.5", "v9.3.0")
    assert _import(upstream, "v9.2.5").code == 0
    assert load_catalog(upstream.catalog).family_by_id["llm_datadist"].code_by_name["LLM_QUEUE_FULL"].added == (
        ("hicann/hixl", "9.2.5"),)


def test_a_text_that_goes_back_to_an_older_wording_is_not_written_again(released):
    """v9.3.0 takes back v9.2.0's changed solution (and changes another text, so that its page is a
    version of its own): the entry that writes the older wording holds from 9.3.0-v2 too, its `from`
    one version longer; the text is not written a second time."""
    upstream = released
    assert _import(upstream, "v9.2.0").code == 0
    subprocess.run(["git", "-C", str(upstream.catalog), "commit", "-qam", "9.2.0"], check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@t", "PATH": "/usr/bin:/bin"})
    page = upstream.repo.path / PYTHON_PAGE_910
    text = page.read_text(encoding="utf-8").replace(NEW_SOLUTION, OLD_SOLUTION).replace("| 成功 |", "| 成功了 |", 1)
    page.write_text(text, encoding="utf-8")
    upstream.repo.commit("the older solution again", "v9.3.0")
    codes = upstream.catalog / "llm_datadist" / "codes.yaml"
    before = codes.read_text(encoding="utf-8")
    result = _import(upstream, "v9.3.0")
    assert result.code == 0, result.err
    after = codes.read_text(encoding="utf-8")
    assert after.count(f"zh: {OLD_SOLUTION}") == before.count(f"zh: {OLD_SOLUTION}") == 1
    diff = subprocess.run(["git", "-C", str(upstream.catalog), "diff", "-U0", "--", "llm_datadist/codes.yaml"],
                          capture_output=True, text=True, check=True).stdout
    removed = [line for line in diff.splitlines() if line.startswith("-") and not line.startswith("---")]
    assert removed == ["-      - from: ['9.0.0-v2', '9.0.0-cpp-v2']"], diff
    assert "+      - from: ['9.0.0-v2', '9.0.0-cpp-v2', '9.3.0-v2']" in diff.splitlines(), diff
    code = load_catalog(upstream.catalog).family_by_id["llm_datadist"].code_by_name["LLM_PARAM_INVALID"]
    said = [code.text("solution", edition, "zh") for edition in ("9.1.0-v2", "9.2.0-v2", "9.3.0-v2", "9.1.0-cpp-v2")]
    assert said == [OLD_SOLUTION, NEW_SOLUTION, OLD_SOLUTION, OLD_SOLUTION], said
    assert "translate: LLM_PARAM_INVALID solution (en) from 9.3.0-v2" in result.out, result.out
    assert run_cli("validate", "--catalog", upstream.catalog).code == 0
    audited = upstream.audit()
    assert audited.code == 0, audited.out


def test_an_edition_id_once_published_resolves_after_a_tag_takes_its_version(tmp_path):
    """The branch head's page is `unreleased-v2` until a tag ships it: then the release's edition
    holds the version and the old id resolves to it, in the module as in the catalog, listed nowhere."""
    upstream = build_upstream(tmp_path)
    page = upstream.repo.path / PYTHON_PAGE_910
    page.write_text(page.read_text(encoding="utf-8").replace(OLD_SOLUTION, NEW_SOLUTION), encoding="utf-8")
    upstream.repo.commit("a change on the default branch")
    assert _import(upstream, "master").code == 0
    _generate(upstream, tmp_path / "before")
    before = generated_module(tmp_path / "before", "release_head")
    assert "unreleased-v2" in before.EDITIONS
    upstream.repo.git("tag", "v9.2.0")
    audit = run_cli("audit", "--catalog", upstream.catalog, "--upstream", f"{REPO}={upstream.repo.path}")
    assert audit.code == 1 and "unreleased-v2" in audit.out and "import --ref v9.2.0" in audit.out, audit.out
    assert _import(upstream, "v9.2.0").code == 0
    _generate(upstream, tmp_path / "after")
    after = generated_module(tmp_path / "after", "release_tag")
    assert "unreleased-v2" not in after.EDITIONS and "9.2.0-v2" in after.EDITIONS
    member = after.LLMStatusCode.LLM_PARAM_INVALID
    assert member.solution("zh", edition="unreleased-v2") == member.solution("zh", edition="9.2.0-v2") == NEW_SOLUTION
    assert not (tmp_path / "after" / "site" / "docs" / "editions" / "unreleased-v2.zh.md").exists()
