"""`upstream-page`: an edition's page written back as upstream's own Markdown file, byte for byte.

The test writes upstream's files by hand, one per dialect upstream uses (zh pages padded
`| a | b |` with a byte-order mark, a code block of the constants and a note; the English
pages' `| a| b|` with code spans and N/A; the tight `|a|b|` of the ADXL pages, with a row left
unclosed), commits them to a repository it builds, records their framing in a copy of the mini
catalog (tests/fixtures/mini), and requires the verb, and the comparison with the repository
(audit.regenerated, what scripts/check_upstream_pages.py runs on the real ones), to give
exactly those bytes. The real repositories are never read here.
"""
from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from generator.domain.markup import plain
from generator.reading.load import load_catalog
from generator.rendering.upstream_page import cell_markup
from generator.upstream.git import GitRepo
from generator.audit.regenerated import check_pages
from tests.support.helpers import MINI, ROOT, run_cli
from tests.support.upstream_formats import Repository

# -- upstream's files, as upstream writes them (by hand: not by the code under test) ---------------------

ZH_PAGE = "\ufeff" + """# DemoCode

演示用的状态码，`status\\_code`取值如下。

```cpp
namespace demo {
constexpr Status DEMO_OK = 0x0U;
constexpr Status DEMO_BUSY_C = 0x10U;
}  // namespace demo
```

| 枚举值 | 含义 | 是否可恢复 | 解决办法 |
| --- | --- | --- | --- |
| DEMO_BUSY | 繁忙 | 否 | 稍后重试，参见[retry](retry.md)：<br><br>  - 等待；<br>  - 再试。<br> 说明： 预留。 |
| DEMO_OK | 成功 | 无 | 无 |
| DEMO_ODD | 奇怪 \\| <b>x</b> | 是 | 1. 一<br>  2. 二 |

表格之后的一段。
"""

EN_PAGE = """# DemoCode

Status codes for a demonstration.

| Value| Meaning| Recoverable| Solution|
| --- | --- | --- | --- |
| DEMO_BUSY | Busy| No| Try again later with `retry`:<br><br>  - wait;<br>  - retry.<br> Note: This code is reserved.|
| DEMO_OK | Success| N/A| None|
| DEMO_ODD | Odd \\| <b>x</b>| Yes| 1. one<br>  2. two|
"""

CPP_PAGE = """# 错误码

```
DEMO_DEFINE(0b01, DEMO_BUSY_C, 16);
DEMO_DEFINE(0b01, DEMO_C_ONLY, 17);
```

|错误码|含义|可能原因|是否可恢复|解决办法|
|--|--|--|--|--|
|17|只在 C 中|-|否|1. 一<br>  2. 二|
|16|繁忙|太多请求。|是|请稍后再试。
"""

PAGES = {"docs/demo.md": ZH_PAGE, "docs/en/demo.md": EN_PAGE, "docs/cpp.md": CPP_PAGE}

# -- what the catalog records of them -------------------------------------------------------------------

ZH_LAYOUT = {"title": "DemoCode", "bom": True, "note": "说明：", "table": "spaced",
             "header": ["枚举值", "含义", "是否可恢复", "解决办法"],
             "before": ["演示用的状态码，`status\\_code`取值如下。",
                        {"code": {"fence": "cpp", "open": ["namespace demo {"],
                                  "line": "constexpr Status {name} = {literal}U;",
                                  "close": ["}  // namespace demo"], "values": [0, 16]}}],
             "after": ["表格之后的一段。"]}
EN_LAYOUT = {"title": "DemoCode", "note": "Note:", "table": "mixed", "labels": {"n/a": "N/A"},
             "header": ["Value", "Meaning", "Recoverable", "Solution"], "before": ["Status codes for a demonstration."]}
CPP_LAYOUT = {"title": "错误码", "table": "tight", "unclosed": ["16"],
              "header": ["错误码", "含义", "可能原因", "是否可恢复", "解决办法"],
              "before": [{"code": {"line": "DEMO_DEFINE(0b01, {name}, {low});", "values": [16, 17]}}]}

BUSY_SOLUTION = {"from": ["2.0-new"], "markdown": True,
                 "zh": "稍后重试，参见[retry](retry.md)：\n\n- 等待；\n- 再试。\n说明： 预留。",
                 "en": "Try again later with `retry`:\n\n- wait;\n- retry.\nNote: This code is reserved."}


def read_mini() -> dict:
    yaml = YAML(typ="safe")
    return yaml.load(MINI.read_text(encoding="utf-8"))


def catalog_doc(commit: str) -> dict:
    doc = read_mini()
    fields = {"kind": {"shift": 8, "mask": 255}, "value": {"shift": 0, "mask": 255}}
    doc["family"]["value_layouts"] = [{"macro": "DEMO_DEFINE", "arguments": ["kind", "name", "value"],
                                       "fields": fields}]
    new, cpp = doc["versions"]["new"][0], doc["versions"]["cpp"][0]
    new["sources"][0].update(commit=commit, lang="zh", page=copy.deepcopy(ZH_LAYOUT))  # its English: a file of its own
    new["sources"].append({"repo": "demo/repo", "path": "docs/en/demo.md", "commit": commit, "tags": ["v2.0"],
                           "lang": "en", "page": copy.deepcopy(EN_LAYOUT)})
    new["rows"]["DEMO_BUSY"] = "no"
    cpp["sources"][0].update(commit=commit, lang="zh", page=copy.deepcopy(CPP_LAYOUT))
    busy = next(c for c in doc["codes"] if c.get("python") == "DEMO_BUSY")
    busy["solution"][0] = copy.deepcopy(BUSY_SOLUTION)
    return doc


def write_catalog(doc: dict, directory: Path) -> Path:
    path = directory / "catalog.yaml"
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


@pytest.fixture()
def upstream(tmp_path):
    repo = Repository(tmp_path / "repo")
    for path, text in PAGES.items():
        target = repo.path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))
    commit = repo.commit("2.0", "v2.0")
    catalog = write_catalog(catalog_doc(commit), tmp_path)
    return repo, catalog, commit


def page_bytes(catalog: Path, edition: str, lang: str) -> subprocess.CompletedProcess:
    """The verb as a person runs it: its stdout's very bytes."""
    return subprocess.run([sys.executable, "-m", "generator", "upstream-page", "--catalog", str(catalog),
                           "--edition", edition, "--lang", lang], capture_output=True, cwd=ROOT, timeout=120)


# -- byte for byte, in each dialect ---------------------------------------------------------------------


@pytest.mark.parametrize("edition, lang, path", [
    ("2.0-new", "zh", "docs/demo.md"), ("2.0-new", "en", "docs/en/demo.md"), ("2.0-cpp", "zh", "docs/cpp.md"),
], ids=["spaced-bom", "mixed-en", "tight"])
def test_upstream_page_prints_the_file_byte_for_byte(upstream, edition, lang, path):
    repo, catalog, commit = upstream
    result = page_bytes(catalog, edition, lang)
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout == subprocess.run(["git", "-C", str(repo.path), "show", f"{commit}:{path}"],
                                           capture_output=True, check=True).stdout


def test_the_comparison_with_the_repository_finds_every_page_identical(upstream):
    repo, catalog, _ = upstream
    checks = check_pages(load_catalog(catalog), {"demo/repo": GitRepo("demo/repo", repo.path)})
    assert sorted((c.edition, c.lang) for c in checks) == [("2.0-cpp", "zh"), ("2.0-new", "en"), ("2.0-new", "zh")]
    assert all(c.identical for c in checks), [c.diff for c in checks]


@pytest.mark.parametrize("change, where", [
    (lambda d: d["versions"]["new"][0]["sources"][0]["page"].pop("bom"), "DemoCode"),
    (lambda d: d["versions"]["new"][0]["sources"][0]["page"]["before"][1]["code"].update(values=[16, 16]), "DEMO_OK"),
    (lambda d: d["versions"]["new"][0]["sources"][1]["page"].pop("labels"), "N/A"),
    (lambda d: d["versions"]["new"][0]["sources"][1]["page"].update(table="spaced"), "| Value |"),
    (lambda d: d["versions"]["cpp"][0]["sources"][0]["page"].pop("unclosed"), "请稍后再试。"),
    (lambda d: d["codes"][1]["solution"][0].update(zh="稍后重试，参见retry：\n- 等待；\n- 再试。\n说明： 预留。",
                                                   markdown=False), "[retry](retry.md)"),
], ids=["bom", "code block", "label", "dialect", "unclosed row", "markup lost"])
def test_a_fact_the_catalog_loses_is_a_difference_with_its_line(upstream, tmp_path, change, where):
    repo, _, commit = upstream
    doc = catalog_doc(commit)
    change(doc)
    directory = tmp_path / "changed"
    directory.mkdir()
    checks = check_pages(load_catalog(write_catalog(doc, directory)), {"demo/repo": GitRepo("demo/repo", repo.path)})
    differing = [c for c in checks if not c.identical]
    assert len(differing) == 1, [(c.edition, c.lang) for c in differing]
    assert where in differing[0].diff and differing[0].diff.startswith("--- upstream/")


def test_a_page_that_is_no_pipe_table_file_is_refused_in_one_line(upstream, tmp_path):
    _, catalog, _ = upstream
    doc = json.loads(catalog.read_text(encoding="utf-8"))
    del doc["versions"]["cpp"][0]["sources"][0]["page"]
    directory = tmp_path / "html"
    directory.mkdir()
    html_era = write_catalog(doc, directory)
    cases = [(html_era, "2.0-cpp", "zh", "not described as a Markdown pipe table"),
             (catalog, "2.0-cpp", "en", "has no en source"),
             (catalog, "1.0", "zh", "known only from a document source")]
    for path, edition, lang, says in cases:
        result = run_cli("upstream-page", "--catalog", path, "--edition", edition, "--lang", lang)
        assert result.code == 2 and result.out == "", result
        lines = result.err.strip().splitlines()
        assert len(lines) == 1 and says in lines[0] and "Traceback" not in result.err, result.err


def test_an_unknown_edition_is_a_usage_error(upstream):
    _, catalog, _ = upstream
    result = run_cli("upstream-page", "--catalog", catalog, "--edition", "9.9.9", "--lang", "zh")
    assert result.code == 2 and "9.9.9" in result.err


def test_a_broken_page_layout_is_reported_where_it_is_written(upstream, tmp_path):
    _, _, commit = upstream
    doc = catalog_doc(commit)
    doc["versions"]["new"][0]["sources"][0]["page"]["header"] = ["枚举值", "含义"]
    doc["versions"]["cpp"][0]["sources"][0]["page"]["before"][0]["code"]["line"] = "X {name.__class__} {oops}"
    doc["versions"]["cpp"][0]["sources"][0]["page"]["table"] = "wide"
    result = run_cli("validate", "--catalog", write_catalog(doc, tmp_path))
    assert result.code == 3
    assert "header has 2 cells; the page has 4 columns" in result.err
    assert "may name only {name}, {literal}, {low}, not name.__class__, oops" in result.err
    assert "table must be one of" in result.err
    assert all(line.startswith(str(tmp_path)) or "problem(s)" in line for line in result.err.strip().splitlines())


# -- the text rule ----------------------------------------------------------------------------------------


def test_plain_text_is_derived_from_the_markup_by_one_rule():
    assert plain("排查[link_clusters](link_clusters.md)和`16`。") == "排查link_clusters和16。"
    assert plain("见[文档](https://example.org/a_b)。") == "见文档 (https://example.org/a_b)。"
    assert plain("A：\n\n- b\n- c") == "A：\n- b\n- c"
    assert plain("C:\\path\\_x [not a link] `") == "C:\\path\\_x [not a link] `"  # nothing to derive: kept as written


def test_markup_is_opt_in_and_the_module_shows_the_plain_text(upstream, tmp_path):
    _, catalog, _ = upstream
    family = load_catalog(catalog).family_by_id["demo"]
    busy = family.code_by_name["DEMO_BUSY"]
    entry = busy.entry("solution", "2.0-new", "zh")
    assert entry.markup == BUSY_SOLUTION["zh"]
    assert entry.text == "稍后重试，参见retry：\n- 等待；\n- 再试。\n说明： 预留。"
    assert busy.text("solution", "2.0-new", "en") == \
        "Try again later with retry:\n- wait;\n- retry.\nNote: This code is reserved."
    odd = family.code_by_name["DEMO_ODD"].entry("meaning", "2.0-new", "zh")
    assert odd.markup is None and odd.text == "奇怪 | <b>x</b>"  # no markdown: the text as written
    out = tmp_path / "out"
    assert run_cli("generate", "--catalog", catalog, "--out", out).code == 0
    module = (out / "generated" / "python" / "demo_codes.py").read_text(encoding="utf-8")
    assert "稍后重试，参见retry：" in module and "[retry](retry.md)" not in module
    export = json.loads((out / "generated" / "json" / "demo_codes.json").read_text(encoding="utf-8"))
    written = next(c for c in export["codes"] if c["name"] == "DEMO_BUSY")["entries"]["solution"][0]
    assert written["markup"] == BUSY_SOLUTION["zh"] and written["text"] == entry.text


def test_a_cell_spaces_list_items_and_notes_as_upstream_does():
    assert cell_markup("A：\n\n- b\n- c", None) == "A：<br><br>  - b<br>  - c"
    assert cell_markup("1. x\n2. y\n\nz", None) == "1. x<br>  2. y<br><br>z"
    assert cell_markup("- first\n说明：x", "说明：") == "- first<br> 说明：x"
    assert cell_markup("a|b", None) == "a\\|b"


# -- generated/upstream/OWNER/NAME/PATH -------------------------------------------------------------------


def test_generate_writes_each_timelines_newest_repository_page_with_upstreams_bytes(upstream, tmp_path):
    repo, catalog, commit = upstream
    out = tmp_path / "out"
    assert run_cli("generate", "--catalog", catalog, "--out", out).code == 0
    written = sorted(p.relative_to(out / "generated" / "upstream").as_posix()
                     for p in (out / "generated" / "upstream").rglob("*") if p.is_file())
    assert written == ["demo/repo/docs/cpp.md", "demo/repo/docs/demo.md", "demo/repo/docs/en/demo.md"]
    for path in written:
        shown = subprocess.run(["git", "-C", str(repo.path), "show", f"{commit}:{path.split('/', 2)[2]}"],
                               capture_output=True, check=True).stdout
        assert (out / "generated" / "upstream" / path).read_bytes() == shown, path
    manifest = json.loads((out / "generated" / "manifest" / "demo.json").read_text(encoding="utf-8"))
    assert "generated/upstream/demo/repo/docs/demo.md" in json.dumps(manifest)


def test_check_reports_a_hand_edit_of_an_upstream_page(upstream, tmp_path):
    _, catalog, _ = upstream
    out = tmp_path / "out"
    assert run_cli("generate", "--catalog", catalog, "--out", out).code == 0
    page = out / "generated" / "upstream" / "demo" / "repo" / "docs" / "demo.md"
    page.write_bytes(page.read_bytes().replace("繁忙".encode(), "很忙".encode()))
    result = run_cli("check", "--catalog", catalog, "--out", out, "--full")
    assert result.code == 1 and "generated/upstream/demo/repo/docs/demo.md" in result.out + result.err


def test_only_the_newest_repository_edition_of_a_timeline_is_written(upstream, tmp_path):
    """A newer version of the page whose file is not described (an HTML-era file, say) means
    no file for that timeline: never an older edition's page in its place."""
    _, _, commit = upstream
    doc = catalog_doc(commit)
    newer = {"version": "3.0-new", "based_on": "2.0-new", "texts": ["zh", "en"], "order": "page",
             "sources": [{"repo": "demo/repo", "path": "docs/demo.md", "commit": commit, "tags": ["v3.0"],
                          "lang": "zh"}]}
    doc["versions"]["new"].append(newer)
    out = tmp_path / "out"
    assert run_cli("generate", "--catalog", write_catalog(doc, tmp_path), "--out", out).code == 0
    written = sorted(p.name for p in (out / "generated" / "upstream").rglob("*.md"))
    assert written == ["cpp.md", "demo.md"]  # the English page (2.0-new's, newest in en) and the C++ page
    assert (out / "generated" / "upstream" / "demo" / "repo" / "docs" / "en" / "demo.md").is_file()


def test_an_upstream_page_no_timeline_plans_any_more_is_reported_then_removed(upstream, tmp_path):
    """A newer version without its page framing leaves the old file
    unplanned; it carries no banner (upstream's bytes), and was once left on disk with `check`
    green. The manifest alone says the generator wrote it."""
    _, catalog, commit = upstream
    out = tmp_path / "out"
    assert run_cli("generate", "--catalog", catalog, "--out", out).code == 0
    doc = catalog_doc(commit)
    doc["versions"]["new"].append({"version": "3.0-new", "based_on": "2.0-new", "texts": ["zh", "en"],
                                   "order": "page", "sources": [{"repo": "demo/repo", "path": "docs/demo.md",
                                                                 "commit": commit, "tags": ["v3.0"], "lang": "zh"}]})
    newer = write_catalog(doc, tmp_path)
    old = out / "generated" / "upstream" / "demo" / "repo" / "docs" / "demo.md"
    for check in (["--full"], []):
        result = run_cli("check", "--catalog", newer, "--out", out, *check)
        assert result.code == 1 and "orphaned: generated/upstream/demo/repo/docs/demo.md" in result.out, result
    result = run_cli("generate", "--catalog", newer, "--out", out)
    assert result.code == 0 and "removed generated/upstream/demo/repo/docs/demo.md" in result.out, result
    assert not old.exists() and run_cli("check", "--catalog", newer, "--out", out, "--full").code == 0


def test_git_never_rewrites_the_upstream_pages():
    attributes = (ROOT / ".gitattributes").read_text(encoding="utf-8")
    assert "generated/upstream/** -text" in attributes.splitlines()


# -- audit by regeneration --------------------------------------------------------------------------------


def test_audit_upstream_compares_a_pipe_table_page_by_regeneration(upstream, tmp_path):
    repo, catalog, commit = upstream
    clean = run_cli("audit", "--catalog", catalog, "--upstream", f"demo/repo={repo.path}")
    assert clean.code == 0, clean.out + clean.err
    # the link lost from the catalog's text: every reader that keeps only the text a reader sees
    # agrees with the catalog; writing the page back does not
    doc = catalog_doc(commit)
    doc["codes"][1]["solution"][0].update(zh="稍后重试，参见retry：\n- 等待；\n- 再试。\n说明： 预留。", markdown=False)
    directory = tmp_path / "lost"
    directory.mkdir()
    result = run_cli("audit", "--catalog", write_catalog(doc, directory), "--upstream", f"demo/repo={repo.path}")
    assert result.code == 1, result.out
    differences = [line for line in result.out.splitlines() if "regenerated line structure differs" in line]
    assert len(differences) == 1 and "docs/demo.md" in differences[0] and ":14: DEMO_BUSY" not in differences[0]
    assert "[retry](retry.md)" in differences[0] and ":14: regenerated line" in differences[0]


@pytest.mark.parametrize("line", ["namespace demo {", "}  // {name}", "{0}", "{}", "{name!x}", "{low:>{name}}"])
def test_a_code_line_that_is_no_template_is_refused_in_one_line(upstream, tmp_path, line):
    _, _, commit = upstream
    doc = catalog_doc(commit)
    doc["versions"]["cpp"][0]["sources"][0]["page"]["before"][0]["code"]["line"] = line
    result = run_cli("validate", "--catalog", write_catalog(doc, tmp_path))
    assert result.code == 3 and "Traceback" not in result.err
    assert "code.line" in result.err and len(result.err.strip().splitlines()) == 2, result.err


# -- a section of a larger page ---------------------------------------------------------------------------

# The English page's table as a section of a larger API reference, as HIXL_CS's pages keep theirs:
# the section runs from its heading to the next heading of its level; a deeper heading and a
# fenced "## " line inside it do not end it.
EN_SECTION = """## Status Codes

Status codes for a demonstration.

```
## not a heading: a line of code
```

| Value| Meaning| Recoverable| Solution|
| --- | --- | --- | --- |
| DEMO_BUSY | Busy| No| Try again later with `retry`:<br><br>  - wait;<br>  - retry.<br> Note: This code is reserved.|
| DEMO_OK | Success| N/A| None|
| DEMO_ODD | Odd \\| <b>x</b>| Yes| 1. one<br>  2. two|

### Returned by

Every call of the API.

"""
EN_API = "# Demo APIs\n\n## Supported Products\n\n| Product | Supported |\n| --- | --- |\n| A | Yes |\n\n" + \
    EN_SECTION + "## Handle Types\n\n```\ntypedef void *DemoHandle;\n```\n"
EN_SECTION_LAYOUT = {**EN_LAYOUT, "title": "Status Codes", "level": 2, "blank_after": 1,
                     "before": ["Status codes for a demonstration.", "```\n## not a heading: a line of code\n```"],
                     "after": ["### Returned by", "Every call of the API."]}


@pytest.fixture()
def sectioned(tmp_path):
    """The fixture, its English page a section of docs/en/api.md (its framing as written by hand)."""
    repo = Repository(tmp_path / "repo")
    for path, text in {**PAGES, "docs/en/api.md": EN_API}.items():
        target = repo.path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))
    commit = repo.commit("2.0", "v2.0")
    doc = catalog_doc(commit)
    doc["versions"]["new"][0]["sources"][1].update(path="docs/en/api.md", page=copy.deepcopy(EN_SECTION_LAYOUT))
    return repo, write_catalog(doc, tmp_path), commit


def test_upstream_page_prints_a_section_byte_for_byte(sectioned):
    _, catalog, _ = sectioned
    result = page_bytes(catalog, "2.0-new", "en")
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout == EN_SECTION.encode("utf-8")


def test_a_sections_framing_is_read_off_the_larger_page(sectioned):
    """What an import records of such a page (importing.framing) writes the section back."""
    from generator.importing.framing import read_framing
    _, catalog, _ = sectioned
    family = load_catalog(catalog).family_by_id["demo"]
    edition = family.edition_by_id["2.0-new"]
    rows = [(edition.name_shown(r.code) or r.code, r.code) for r in edition.rows]
    layout = read_framing(EN_API, family, edition.page, rows, "en", None)
    assert layout is not None and (layout.level, layout.title, layout.blank_after) == (2, "Status Codes", 1)
    assert (layout.before, layout.after) == (tuple(EN_SECTION_LAYOUT["before"]), tuple(EN_SECTION_LAYOUT["after"]))


def test_a_section_is_compared_as_a_section_and_never_written_as_a_file(sectioned, tmp_path):
    repo, catalog, commit = sectioned
    checks = check_pages(load_catalog(catalog), {"demo/repo": GitRepo("demo/repo", repo.path)})
    section = [c for c in checks if c.lang == "en"]
    assert [(c.identical, c.section) for c in section] == [(True, "## Status Codes")], section
    out = tmp_path / "out"
    assert run_cli("generate", "--catalog", catalog, "--out", out).code == 0
    written = sorted(p.relative_to(out / "generated" / "upstream").as_posix()
                     for p in (out / "generated" / "upstream").rglob("*") if p.is_file())
    assert written == ["demo/repo/docs/cpp.md", "demo/repo/docs/demo.md"]  # whole files only
    doc = json.loads(catalog.read_text(encoding="utf-8"))
    doc["versions"]["new"][0]["sources"][1]["page"]["title"] = "Status codes"  # a heading the file lacks
    changed = tmp_path / "changed"
    changed.mkdir()
    checks = check_pages(load_catalog(write_catalog(doc, changed)), {"demo/repo": GitRepo("demo/repo", repo.path)})
    assert [c.diff for c in checks if c.lang == "en"] == ["docs/en/api.md has no heading '## Status codes'"]


@pytest.mark.parametrize("timeline", ["cpp-v1", "cpp-v2", "cpp-deprecated"])
def test_a_page_version_writes_its_values_as_the_first_release_that_ships_it_had_them(timeline):
    """A page version that tags before its edition's release ship too (9.1.0's pages, first shipped
    by 9.1.0-beta.1) writes a code's value as that first release had it (its code block, or its
    column of decimal values): a release that fixed the value in its headers and shipped the page
    unchanged wrote the new value into upstream's page, and the import said the page was not
    written back byte for byte."""
    from dataclasses import replace

    from generator.domain.codes import Earlier
    from generator.domain.queries import page_release
    from generator.rendering.upstream_page import render_upstream_page

    family = load_catalog(ROOT / "catalog").family_by_id["llm_datadist"]
    edition = family.edition_by_id[f"9.1.0-{timeline}"]
    assert page_release(family, edition) == "9.1.0-beta.1", "a version tags before 9.1.0 ship: this test needs it"
    before = render_upstream_page(family, edition, "zh")
    def shown(code):  # how the page writes its value: a column of decimal values, or a code block's hex
        return f"| {code.value} |" if timeline == "cpp-deprecated" else f" 0x{code.value:X}U;"

    busy = next(family.code_by_name[row.code] for row in edition.rows
                if before.count(shown(family.code_by_name[row.code])) == 1)
    fixed = replace(busy, value=busy.value + 2, earlier=(Earlier(None, None, ((edition.timeline.repo, "9.1.0"),),
                                                                 busy.pos, value=busy.value),))
    family = replace(family, codes=tuple(fixed if c is busy else c for c in family.codes))
    assert fixed.value_at(edition.timeline.repo, "9.1.0") != busy.value  # the headers at 9.1.0
    assert render_upstream_page(family, edition, "zh") == before
