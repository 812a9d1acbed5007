"""`audit --upstream OWNER/NAME=DIR`: the whole catalog against a repository, in one run.

Each test builds a small upstream repository with git in tmp_path: the fixture catalog's
(tests/fixtures/upstream/catalog) pages rendered in upstream's formats at upstream's paths
(HTML tables inside Markdown at v9.0.0, pipe tables with a byte-order mark and upstream's
English at v9.1.0, after the pages moved), its source files (written from the catalog by
tests/support/upstream_sources.py), and release tags. The catalog is copied beside it with the
commits the test made. Nothing here reads upstream's real repositories.
"""
from __future__ import annotations

import json
import re
import subprocess

import pytest

from generator.reading.load import load_catalog
from tests.support.helpers import run_cli
from tests.support.upstream_formats import (
    CPP_PAGE_900,
    PYTHON_PAGE_900,
    CPP_PAGE_910,
    ENGLISH_PAGE_910,
    ERROR_CODES_H,
    PYTHON_PAGE_910,
    REPO,
    STATUS_PY,
    Upstream,
    build_upstream as build,
    git_env,
)

pytestmark = pytest.mark.slow  # builds git repositories; make test-fast leaves it out


def table_rows(output: str) -> list[tuple[str, str, str]]:
    """(what, file, result) of each row of the summary table."""
    rows = []
    for line in output.splitlines():
        if line.startswith("| ") and not line.startswith(("| family", "| ---")):
            cells = [c.strip() for c in line.strip("|").split(" | ")]
            rows.append((cells[1], cells[2], cells[3]))
    return rows


def expected_edition_rows(upstream: Upstream) -> list[tuple[str, str]]:
    """(version, file label) of every repository source the catalog records, from its model:
    each file once, however many editions show it."""
    family = load_catalog(upstream.catalog).family_by_id["llm_datadist"]
    return [
        (v.id, f"{s.repo}:{s.path}@{s.commit[:12]}") for v in family.versions for s in v.sources if s.kind == "repo"
    ]


def failing_rows(output: str) -> list[tuple[str, str, str]]:
    return [r for r in table_rows(output) if re.match(r"\d+ difference", r[2])]


# -- a faithful repository -----------------------------------------------------------------------------------


@pytest.mark.parametrize("bare", [False, True], ids=["work tree", "bare"])
def test_a_faithful_repository_audits_clean(tmp_path, bare):
    upstream = build(tmp_path)
    directory = None
    if bare:
        directory = tmp_path / "hixl.git"
        subprocess.run(
            ["git", "clone", "-q", "--bare", str(upstream.repo.path), str(directory)], check=True, env=git_env()
        )
    result = upstream.audit(directory=directory)
    assert (result.code, result.err) == (0, ""), result.out + result.err
    rows = table_rows(result.out)
    editions = {(what, file): outcome for what, file, outcome in rows}
    for key in expected_edition_rows(upstream):
        assert editions.get(key) == "ok", (key, result.out)
    sources = [(file, outcome) for what, file, outcome in rows if what == "sources"]
    assert [o for f, o in sources if f.startswith(REPO)] == ["ok (1 known)"], result.out  # one set of file versions
    assert [o for f, o in sources if f.startswith("hicann/ge")] == ["not checked: no --upstream hicann/ge=DIR"]
    assert [o for what, _, o in rows if what.startswith(("timeline", "new pages"))] == ["ok", "ok", "ok"], result.out
    assert "known: " in result.out and "ACL_ERROR_RT_DEVICE_MEM_ERROR" in result.out
    assert result.out.rstrip().endswith("all clean")


def test_json_report(tmp_path):
    upstream = build(tmp_path)
    result = upstream.audit("--json")
    data = json.loads(result.out)
    assert result.code == 0 and data["clean"] is True
    assert {r["what"] for r in data["rows"]} >= {e for e, _ in expected_edition_rows(upstream)}
    notes = [f for r in data["rows"] for f in r["findings"]]
    assert notes and all(f["known"] for f in notes)


# -- what differs --------------------------------------------------------------------------------------------


def _recoverable_to_no(path: str, text: str) -> str:
    return text.replace("| LLM_PARAM_INVALID | 参数错误 | 是 |", "| LLM_PARAM_INVALID | 参数错误 | 否 |", 1)


def _timeout_reads_device_mem_error(path: str, text: str) -> str:
    return text.replace("LLM_TIMEOUT = llm_wrapper.kLLMTimeout", "LLM_TIMEOUT = llm_wrapper.kLLMDeviceMemError", 1)


def _timeout_deleted(path: str, text: str) -> str:
    return re.sub(r"^GE_ERRORNO_DEFINE\(.*LLM_TIMEOUT.*\n", "", text, count=1, flags=re.M)


def _timeout_value_changed(path: str, text: str) -> str:
    return re.sub(r"^(GE_ERRORNO_DEFINE\(.*LLM_TIMEOUT, )(\d+)\);", lambda m: f"{m[1]}{int(m[2]) + 3});", text,
                  count=1, flags=re.M)


def _english_word(path: str, text: str) -> str:
    return text.replace("| KV not found|", "| KV not there|", 1)


@pytest.mark.parametrize("path, edit, what, kind", [
    (PYTHON_PAGE_910, _recoverable_to_no, "9.1.0-v2", "LLM_PARAM_INVALID: recoverable differs"),
    (ENGLISH_PAGE_910, _english_word, "9.1.0-v2", "LLM_KV_CACHE_NOT_EXIST: meaning text differs"),
    (STATUS_PY, _timeout_reads_device_mem_error, "sources", "LLM_TIMEOUT: value differs"),
    (ERROR_CODES_H, _timeout_deleted, "sources", "LLM_TIMEOUT: missing upstream"),
    # a line whose value a parser reads says so, not only that the regenerated line differs
    (ERROR_CODES_H, _timeout_value_changed, "sources", "LLM_TIMEOUT: value differs"),
], ids=["page", "english page", "status.py", "header", "header value"])
def test_a_change_at_one_release_fails_that_row_only(tmp_path, path, edit, what, kind):
    upstream = build(tmp_path, at_910={path: edit})
    original = build(tmp_path / "faithful").repo.path / path
    changed = (upstream.repo.path / path).read_text(encoding="utf-8")
    assert changed != original.read_text(encoding="utf-8")
    result = upstream.audit()
    assert result.code == 1, result.out + result.err
    failing = failing_rows(result.out)
    assert len(failing) == 1 and failing[0][0] == what and failing[0][2].startswith("1 difference(s)"), result.out
    if what == "sources":
        assert failing[0][1].startswith(f"{REPO}@v9.1.0 … master (2 refs)"), failing
    details = [line for line in result.out.splitlines() if line.startswith(f"llm_datadist {what}: ")]
    assert len(details) == 1 and kind in details[0] and f"{path}" in details[0], result.out
    line = int(re.search(rf"{re.escape(path)}(?:@\w+)?:(\d+): ", details[0]).group(1))
    before = original.read_text(encoding="utf-8").splitlines()
    after = changed.splitlines()
    first_change = next(i for i, (a, b) in enumerate(zip(before + [""], after + [""]), 1) if a != b)
    assert line == first_change, (line, first_change, details[0])
    assert result.out.rstrip().endswith("1 difference(s)")


def test_what_upstream_has_that_the_catalog_lacks(tmp_path):
    upstream = build(tmp_path)
    page = (upstream.repo.path / PYTHON_PAGE_910).read_text(encoding="utf-8")
    upstream.repo.write(PYTHON_PAGE_910, page.replace("| 成功 |", "| 成功了 |", 1))
    upstream.repo.commit("a change on the default branch")
    result = upstream.audit()
    assert result.code == 1
    assert [(w, o) for w, _, o in failing_rows(result.out)] == [("timeline v2", "1 difference(s)")], result.out
    assert re.search(rf"{REPO}:{PYTHON_PAGE_910}:1: missing from catalog \(upstream: 'master ships blob \w{{8}}'; "
                     r"catalog: 'no edition records it: import it as edition unreleased-v2'\)", result.out), result.out

    upstream.repo.write("docs/zh/api/cpp/LLM-DataDist-error-code-v2.md", "# LLM-DataDist错误码\n")
    upstream.repo.commit("9.2.0", "v9.2.0")
    result = upstream.audit()
    assert result.code == 1
    # The pages v9.2.0 ships unchanged: their sources lack the tag. The changed one: an edition to import.
    assert [w for w, _, _ in failing_rows(result.out)] == ["9.1.0-v2", "9.1.0-cpp-v2", "timeline v2", "new pages"], (
        result.out
    )
    for path in (ENGLISH_PAGE_910, CPP_PAGE_910):
        assert re.search(rf"{REPO}:{path}@\w+:1: tags missing from catalog \(upstream: 'v9.2.0 ships this version too'",
                         result.out), result.out
    assert "'v9.2.0, master ship blob" in result.out and "import it as edition 9.2.0-v2" in result.out
    assert re.search(rf"{REPO}:docs/zh/api/cpp/LLM-DataDist-error-code-v2.md:1: missing from catalog "
                     r"\(upstream: 'a page at v9.2.0, master'", result.out), result.out


def edit_source(upstream, path: str, key: str, value: str) -> None:
    """Set a field of the source citing `path` in the fixture's editions.yaml."""
    file = upstream.catalog / "llm_datadist" / "editions.yaml"
    lines = file.read_text(encoding="utf-8").split("\n")
    start = next(i for i, line in enumerate(lines) if line.strip() == f"path: {path}")
    index = next(i for i in range(start, start + 4) if lines[i].strip().startswith(f"{key}:"))
    lines[index] = lines[index].split(":")[0] + f": {value}"
    file.write_text("\n".join(lines), encoding="utf-8")


@pytest.mark.parametrize(
    "tags, finding",
    [
        ("[v9.0.0-rc.1, v9.0.0]", "tags missing from catalog (upstream: 'v9.0.1 ships this version too'"),
        (
            "[v9.0.0-beta.1, v9.0.0-rc.1, v9.0.0, v9.0.1]",
            "tags value differs (upstream: 'v9.0.0-beta.1 ships another version (or none)'",
        ),
    ],
    ids=["a tag left out", "a tag that does not ship it"],
)
def test_the_tags_a_source_claims_are_checked(tmp_path, tags, finding):
    upstream = build(tmp_path)
    edit_source(upstream, PYTHON_PAGE_900, "tags", tags)
    result = upstream.audit()
    assert result.code == 1
    assert [w for w, _, _ in failing_rows(result.out)] == ["9.0.0-v2"], result.out
    assert finding in result.out, result.out


def test_the_commit_a_source_claims_is_the_first_tag_that_ships_it(tmp_path):
    upstream = build(tmp_path)
    first, later = upstream.commits["v9.0.0"], upstream.commits["v9.0.1"]
    edit_source(upstream, CPP_PAGE_900, "commit", later)
    result = upstream.audit()
    assert result.code == 1
    assert [w for w, _, _ in failing_rows(result.out)] == ["9.0.0-cpp-v2"], result.out
    assert (
        f"commit value differs (upstream: 'v9.0.0-rc.1, the first tag that ships it, is {first}'; catalog: '{later}')"
        in result.out
    )


def test_a_file_missing_at_the_recorded_commit_is_unreadable(tmp_path):
    upstream = build(tmp_path)
    upstream.edit_catalog(f"path: {ENGLISH_PAGE_910}\n", "path: docs/en/python/LLMStatusCode2.md\n")
    result = upstream.audit()
    assert result.code == 1
    assert [w for w, _, _ in failing_rows(result.out)] == ["9.1.0-v2", "new pages"], result.out
    assert (
        f"unreadable (upstream: 'no docs/en/python/LLMStatusCode2.md at commit {upstream.commits['v9.1.0']}'"
        in result.out
    )
    # ... and the page that is there is one no source names any more.
    assert f"{REPO}:{ENGLISH_PAGE_910}:1: missing from catalog (upstream: 'a page at v9.1.0, master'" in result.out


def test_a_commit_the_repository_lacks_is_said_so(tmp_path):
    upstream = build(tmp_path)
    edit_source(upstream, CPP_PAGE_910, "commit", "deadbeef" * 5)
    result = upstream.audit()
    assert result.code == 1
    # ... and so no edition records the version v9.1.0 ships.
    assert [w for w, _, _ in failing_rows(result.out)] == ["9.1.0-cpp-v2", "timeline cpp-v2"], result.out
    assert f"unreadable (upstream: 'commit {'deadbeef' * 5} is not in {upstream.repo.path}'" in result.out


def test_a_directory_of_another_repository_is_said_to_be_one_first(tmp_path):
    """A directory that holds none of the commits the catalog cites for the repository (and is no
    shallow clone) is likely another one: audit and import say so on their first line, before
    what they find there (the import said only that every page was missing, and exit 0)."""
    upstream = build(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    for args in (["init", "-q", "-b", "master"], ["commit", "-q", "--allow-empty", "-m", "another"],
                 ["tag", "v9.2.0"]):
        subprocess.run(["git", *args], cwd=other, env=git_env(), check=True)
    before = {p: p.read_bytes() for p in upstream.catalog.rglob("*.yaml")}
    for verb in (["audit"], ["import", "--ref", "v9.2.0"]):
        result = run_cli(*verb, "--catalog", upstream.catalog, "--upstream", f"{REPO}={other}")
        first = result.err.splitlines()[0]
        assert first.startswith(f"warning: --upstream {REPO}={other} holds none of the") and "clone of" in first, \
            result.err
    assert {p: p.read_bytes() for p in upstream.catalog.rglob("*.yaml")} == before
    assert "warning" not in (audited := upstream.audit()).err and audited.code == 0  # the repository itself
    shallow = tmp_path / "shallow"  # a shallow clone may lack the cited commits: nothing to say
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{upstream.repo.path}", str(shallow)], check=True,
                   env=git_env())
    assert "warning" not in run_cli("audit", "--catalog", upstream.catalog, "--upstream", f"{REPO}={shallow}").err


# -- wrong usage ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("argument, message", [
    ("hicann/hixl", "write OWNER/NAME=DIR"),
    ("someone/else={dir}", "the catalog cites no such repository"),
    ("hicann/hixl={dir}/missing", "no such directory"),
    ("hicann/hixl={tmp}", "not a git repository"),
    ("hicann/hixl={empty}", "the repository has no commits"),
])
def test_wrong_upstream_arguments_are_usage_errors(tmp_path, argument, message):
    upstream = build(tmp_path / "up")
    (tmp_path / "plain").mkdir()
    subprocess.run(["git", "init", "-q", str(tmp_path / "empty")], check=True, env=git_env())
    value = argument.format(dir=upstream.repo.path, tmp=tmp_path / "plain", empty=tmp_path / "empty")
    result = run_cli("audit", "--catalog", upstream.catalog, "--upstream", value)
    assert result.code == 2 and result.out == "", result
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.err


def test_upstream_goes_alone(tmp_path):
    upstream = build(tmp_path)
    result = upstream.audit("--edition", "9.1.0-v2")
    assert result.code == 2 and "give it alone" in result.err


def test_a_cited_header_gone_at_a_newer_tag_is_reported_with_where_it_went(tmp_path):
    """hicann/ge moved llm_error_codes.h to dflow/…/llm_error_codes_v1.h at v9.2.0-beta.1: the
    audit then checked nothing there and said nothing. Now it names the tag and the new file."""
    upstream = build(tmp_path)
    text = (upstream.repo.path / ERROR_CODES_H).read_text(encoding="utf-8")
    upstream.repo.remove(ERROR_CODES_H)
    upstream.repo.write("dflow/v1/llm_error_codes_v1.h", text)
    upstream.repo.commit("move the header", "v9.2.0")
    result = upstream.audit()
    assert result.code == 1, result.out
    line = next(ln for ln in result.out.splitlines() if "missing upstream" in ln and ERROR_CODES_H in ln)
    assert "gone at v9.2.0" in line and "dflow/v1/llm_error_codes_v1.h" in line, line
    upstream.edit_catalog(
        f"      path: {ERROR_CODES_H}\n",
        f"      paths: [{ERROR_CODES_H}, dflow/v1/llm_error_codes_v1.h]\n",
        name="family.yaml",
    )
    again = upstream.audit()
    assert "gone at" not in again.out, again.out


def test_a_release_branch_with_a_page_no_tag_ships_is_a_notice_not_a_difference(tmp_path):
    """hicann/ge's branch 9.2.0-beta.2 held a version of the Python page that no tag ships: the
    audit says so once, as a notice, and exits 0; a branch not named as a release is not read."""
    upstream = build(tmp_path)
    page = upstream.repo.path / PYTHON_PAGE_910
    upstream.repo.git("checkout", "-q", "-b", "9.2.0-beta.2")
    page.write_text(page.read_text(encoding="utf-8").replace("| 成功 |", "| 成功了 |", 1), encoding="utf-8")
    upstream.repo.commit("a page on the release branch")
    upstream.repo.git("branch", "-q", "feature-x")  # the same page, on a branch no release is named after
    upstream.repo.git("checkout", "-q", "master")
    result = upstream.audit()
    assert result.code == 0, result.out
    notices = [line for line in result.out.splitlines() if line.startswith("notice: ")]
    assert len(notices) == 1 and "branch 9.2.0-beta.2 holds a version of " + PYTHON_PAGE_910 in notices[0], notices
    assert "feature-x" not in result.out
    data = json.loads(upstream.audit("--json").out)
    assert data["clean"] and len(data["notices"]) == 1
    refused = run_cli("import", "--catalog", upstream.catalog, "--upstream", f"{REPO}={upstream.repo.path}",
                      "--ref", "9.2.0-beta.2")
    assert refused.code == 1 and "is a release branch of hicann/hixl" in refused.err, refused
