"""A family of messages (one page per code, GE's shape), end to end on fixtures of this project's own
in upstream's formats: a registry source at two tags and the pages and index at the default branch,
in a git repository made here. `import` brings them in (the registry's history over the tags, every
field of every page), `generate` writes the pages back byte for byte and a module whose lookup() and
match() answer from the same fields, `audit --upstream` is clean and sees a changed file, and
`explain` matches a pasted log line. A changed meaning, template or list of codes in the catalog
changes the pages, the index and match() alike."""
from __future__ import annotations

import html
import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.reading.load import load_catalog
from tests.support.helpers import MINI, ROOT, run_cli

REGISTRY = "base/error_registry.cc"
ZH, EN = "docs/zh/errors", "docs/en/errors"
PREFIX = "[ERROR] GE(4242,python):2026-12-06-12:00:00.123.456 [graph.cc:88] "

FAMILY = """\
message_family:
  id: ge
  name: {zh: 演示错误码, en: Demo errors}
  description: {zh: 演示的错误码, en: demo error codes}
  languages: [zh, en]
  site_path: ge
  key: '^[EW][0-9]{5}$'
  module: demo_errors
  pages:
    repo: demo/ge
    branch: main
    folders: {zh: docs/zh/errors, en: docs/en/errors}
    index_title: Demo Errors
    framing:
      zh:
        symptom: 错误信息
        cause: 可能原因
        solution: 解决方法
        example: 报错示例如下：
        example_numbered: 报错示例{n}如下：
        separator: 、
        intro:
          sequence: 报错格式如下，占位符%s的含义依次为{meanings}：
          single: 报错格式如下，占位符%s表示{meanings}：
          all: 报错格式如下，占位符%s都表示{meanings}：
      en:
        symptom: Symptom
        cause: Possible Cause
        solution: Solution
        example: 'Error example:'
        example_numbered: 'Error example {n}:'
        separator: ', '
        intro:
          sequence: 'The meanings of the placeholders %s in sequence are: {meanings}.'
          single: The placeholder %s indicates the {meanings}.
          all: The placeholders %s indicate the {meanings}.
  registry:
    repo: demo/ge
    path: base/error_registry.cc
    error_class: Demo Errors
"""

# Several placeholders and two numbered examples; a fixed message with a cause section; a cause in
# English only; a code the index lists without a page; two templates that one line matches alike.
PAGES = {
    "E20001-Invalid_Value.md": (
        "# E20001 Invalid\\_Value\n\n## 错误信息\n\n报错格式如下，占位符%s的含义依次为参数值、参数名、报错原因：\n\n"
        "```text\nValue %s for option --%s is invalid. Reason: %s\n```\n\n报错示例1如下：\n\n```text\n"
        "Value 7 for option --level is invalid. Reason: too high.\n```\n\n报错示例2如下：\n\n```text\n"
        "Value x for option --mode is invalid. Reason: not a number.\n```\n\n## 解决方法\n\n请按Reason修改参数值。\n",
        "# E20001 Invalid\\_Value\n\n## Symptom\n\nThe meanings of the placeholders %s in sequence are: option value, "
        "option name, reason.\n\n```text\nValue %s for option --%s is invalid. Reason: %s\n```\n\nError example 1:\n\n"
        "```text\nValue 7 for option --level is invalid. Reason: too high.\n```\n\nError example 2:\n\n```text\n"
        "Value x for option --mode is invalid. Reason: not a number.\n```\n\n## Solution\n\n"
        "Correct the value as the reason says \\(see **--help**\\).\n"),
    "E20002-Inner_Error.md": (
        "# E20002 Inner\\_Error\n\n## 错误信息\n\n```text\nUnknown error occurred.\n```\n\n## 可能原因\n\n"
        "系统异常。\n\n## 解决方法\n\n1. 收集日志。\n2. 联系技术支持。\n",
        "# E20002 Inner\\_Error\n\n## Symptom\n\n```text\nUnknown error occurred.\n```\n\n## Possible Cause\n\n"
        "The system failed.\n\n## Solution\n\n1. Collect the logs.\n2. Contact support.\n"),
    "W20003-Slow_Operator.md": (
        "# W20003 Slow\\_Operator\n\n## 错误信息\n\n报错格式如下，占位符%s表示算子名称：\n\n```text\n"
        "Op %s might be slow.\n```\n\n报错示例如下：\n\n```text\nOp add might be slow.\n```\n\n## 解决方法\n\n"
        "算子可能较慢。请在<https://example.org/issues> 提交问题。\n",
        "# W20003 Slow\\_Operator\n\n## Symptom\n\nThe placeholder %s indicates the op name.\n\n```text\n"
        "Op %s might be slow.\n```\n\nError example:\n\n```text\nOp add might be slow.\n```\n\n## Possible Cause\n\n"
        "The operator might be slow.\n\n## Solution\n\nSubmit an issue at <https://example.org/issues>.\n"),
    "E20005-Open_Error.md": (
        "# E20005 Open\\_Error\n\n## 错误信息\n\n报错格式如下，占位符%s表示文件名：\n\n"
        "```text\nCannot open %s.\n```\n\n"
        "## 解决方法\n\n检查文件。\n",
        "# E20005 Open\\_Error\n\n## Symptom\n\nThe placeholder %s indicates the file name.\n\n```text\n"
        "Cannot open %s.\n```\n\n## Solution\n\nCheck the file.\n"),
    "E20006-Access_Error.md": (
        "# E20006 Access\\_Error\n\n## 错误信息\n\n报错格式如下，占位符%s表示操作：\n\n"
        "```text\nCannot %s file.\n```\n\n"
        "## 解决方法\n\n检查权限。\n",
        "# E20006 Access\\_Error\n\n## Symptom\n\nThe placeholder %s indicates the operation.\n\n```text\n"
        "Cannot %s file.\n```\n\n## Solution\n\nCheck the permissions.\n"),
}
INDEX_ORDER = ["E20001-Invalid_Value", "E20004-Lost_Code", "E20005-Open_Error", "E20006-Access_Error",
               "W20003-Slow_Operator", "E20002-Inner_Error"]


def index_text(order=INDEX_ORDER) -> str:
    entries = [f"- [{name.split('-', 1)[0]} {name.split('-', 1)[1].replace('_', chr(92) + '_')}]({name}.md)"
               for name in order]
    return "# Demo Errors\n\n" + "\n\n".join(entries) + "\n"


def entry(code, title, message, args, cause="N/A", solution="N/A"):
    return {"errClass": "Demo Errors", "errTitle": title, "ErrCode": code, "ErrMessage": message, "Arglist": args,
            "suggestion": {"Possible Cause": cause, "Solution": solution}}


def registry(entries) -> str:
    body = json.dumps({"error_info_list": entries}, indent=2, ensure_ascii=False)
    return f'#include <string>\nnamespace {{\nconst std::string demo_error_code = R"(\n{body}\n)";\n}}  // namespace\n'


V1 = [entry("E20001", "Invalid_Value", "Value %s for option --%s is invalid.", "value,option"),
      entry("E20002", "Inner_Error", "Unknown error occurred.", "", "The system failed.",
            "1. Collect the logs. 2. Contact support."),
      entry("W20003", "Slow_Operator", "Op %s might be slow.", "opname", "The operator might be slow.",
            "Submit an issue at https://example.org/issues.")]
V2 = [entry("E20001", "Invalid_Value", "Value %s for option --%s is invalid. Reason: %s", "value,option,reason"),
      V1[1], entry("E20004", "Lost_Code", "Lost %s.", "what"),
      entry("E20005", "Open_Error", "Cannot open %s.", "file", solution="Check the file."),
      entry("E20006", "Access_Error", "Cannot %s file.", "operation", solution="Check the permissions."), V1[2]]


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True,
                          env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
                               "GIT_COMMITTER_EMAIL": "t@example.org", "HOME": str(repo),
                               "GIT_AUTHOR_DATE": "2026-01-01T00:00:00", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00"}
                          ).stdout


def commit(repo: Path, files: dict[str, str], message: str, tag: str = "") -> None:
    for path, text in files.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    if tag:
        git(repo, "tag", tag)


def pages(index=None, changed=None) -> dict[str, str]:
    files = {f"{ZH}/README.md": index or index_text(), f"{EN}/README.md": index or index_text()}
    for name, (zh, en) in {**PAGES, **(changed or {})}.items():
        files[f"{ZH}/{name}"], files[f"{EN}/{name}"] = zh, en
    return files


@pytest.fixture(scope="module")
def upstream(tmp_path_factory) -> Path:
    repo = tmp_path_factory.mktemp("upstream") / "ge"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, {REGISTRY: registry(V1)}, "registry", "v1.0.0")
    commit(repo, {REGISTRY: registry(V2)}, "registry grows", "v1.1.0")
    commit(repo, pages(), "pages")
    return repo


def import_in_order(upstream: Path, catalog: Path, refs: tuple[str, ...]) -> Path:
    """A catalog holding the family's names and framing alone, into which `refs` are imported in turn."""
    (catalog / "ge").mkdir(parents=True)
    text = MINI.read_text(encoding="utf-8").replace(
        "repositories:\n", "repositories:\n  demo/ge: {url: \"https://example.org/demo/ge\", default_branch: main}\n")
    (catalog / "catalog.yaml").write_text(text, encoding="utf-8")
    (catalog / "ge" / "family.yaml").write_text(FAMILY, encoding="utf-8")
    (catalog / "ge" / "codes.yaml").write_text("messages: []\n", encoding="utf-8")
    for ref in refs:
        result = run_cli("import", "--catalog", catalog, "--upstream", f"demo/ge={upstream}", "--ref", ref)
        assert result.code == 0, result.err
    return catalog


@pytest.fixture(scope="module")
def imported(upstream, tmp_path_factory) -> Path:
    return import_in_order(upstream, tmp_path_factory.mktemp("catalog") / "catalog", ("v1.0.0", "v1.1.0", "main"))


def test_releases_imported_in_reverse_order_give_the_same_catalog(imported, upstream, tmp_path):
    """The registry's history is worked out from every release recorded, whatever order they came
    in: here the branch first, then the newest tag, then the oldest."""
    refs = ("main", "v1.1.0", "v1.0.0")
    other = import_in_order(upstream, tmp_path / "catalog", refs)
    for name in ("family.yaml", "codes.yaml"):
        text = (other / "ge" / name).read_text(encoding="utf-8")
        assert text == (imported / "ge" / name).read_text(encoding="utf-8"), f"{name} after importing {', '.join(refs)}"


def family(catalog: Path):
    from generator.reading.load import load_catalog

    return load_catalog(catalog).message_families[0]


def test_import_records_every_field_and_the_registry_history(imported):
    ge = family(imported)
    assert [c.id for c in ge.codes] == [n.split("-")[0] for n in INDEX_ORDER]  # the index's order
    assert ge.releases == ("1.0.0", "1.1.0")
    one = ge.code_by_id["E20001"]
    assert one.meanings_in("zh") == ("参数值", "参数名", "报错原因") and len(one.examples) == 2
    assert one.registry_at("1.0.0", ge)["ErrMessage"] == "Value %s for option --%s is invalid."
    assert one.registry_at("1.1.0", ge)["ErrMessage"] == one.template  # the page's own words: not written twice
    assert one.solution_in("en") == "Correct the value as the reason says \\(see **--help**\\)."
    fixed = ge.code_by_id["E20002"]
    assert fixed.placeholders == 0 and not fixed.meanings and fixed.cause_in("zh") == "系统异常。"
    assert fixed.solution_in("zh") == "1. 收集日志。\n2. 联系技术支持。"
    warn = ge.code_by_id["W20003"]
    assert warn.cause_in("en") and warn.cause_in("zh") is None  # a cause in one language only
    lost = ge.code_by_id["E20004"]
    assert not lost.page and lost.template is None and lost.added == "1.1.0"  # in the index, without a page
    codes_yaml = (imported / "ge" / "codes.yaml").read_text(encoding="utf-8")
    assert "known: [message]" not in codes_yaml  # E20001's newest registry message is its page's


def test_generate_writes_the_pages_back_byte_for_byte(imported, upstream, tmp_path):
    assert run_cli("generate", "--catalog", imported, "--out", tmp_path).code == 0
    written = tmp_path / "generated" / "upstream" / "demo" / "ge"
    for path, text in pages().items():
        assert (written / path).read_text(encoding="utf-8") == text, path
    assert not (written / ZH / "E20004-Lost_Code.md").exists()
    for lang in ("zh", "en"):
        shown = run_cli("upstream-page", "--catalog", imported, "--family", "ge", "--edition", "unreleased",
                        "--lang", lang, "--code", "E20001")
        assert shown.out == PAGES["E20001-Invalid_Value.md"][lang == "en"]


def test_the_verbs_take_a_family_of_messages_by_its_name(imported, tmp_path):
    """generate and check work on the family alone (--family ge), --version gives its hash, and a
    verb that takes only a family of codes says what ge is."""
    from generator.commands import version_text

    assert run_cli("generate", "--catalog", imported, "--out", tmp_path, "--family", "ge").code == 0
    checked = run_cli("check", "--catalog", imported, "--out", tmp_path, "--family", "ge")
    assert checked.code == 0, checked.out + checked.err
    assert "\n  ge: " in version_text(imported)
    refused = run_cli("diff", "--catalog", imported, "--family", "ge", "1.0.0", "1.1.0")
    assert refused.code == 2 and "'ge' is a family of messages" in refused.err, refused.err


def load_module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_the_module_looks_up_and_matches(imported, tmp_path):
    assert run_cli("generate", "--catalog", imported, "--out", tmp_path).code == 0
    demo = load_module(tmp_path / "generated" / "python" / "demo_errors.py", "demo_errors_a")
    code = demo.lookup("[e20001]")
    assert code.template == "Value %s for option --%s is invalid. Reason: %s"
    assert code.placeholders == ("value", "option", "reason") and code.meanings("en")[1] == "option name"
    assert code.message("1.0.0") == "Value %s for option --%s is invalid."
    assert demo.lookup("E20002").cause("en") == "The system failed."
    for example in code.examples:  # upstream's examples, with a log prefix and without their id
        found = demo.match(PREFIX + example)
        assert found is not None and found.code.id == "E20001" and found.how == "message"
    assert demo.match(PREFIX + "Value 7 for option --level is invalid.").values == ("7", "level")  # 1.0.0's text
    assert demo.match("E20002: whatever the rest says").how == "id"
    both = demo.matches(PREFIX + "Cannot open file.")  # two templates, equally specific: both answers
    assert sorted(m.code.id for m in both) == ["E20005", "E20006"] and demo.match(PREFIX + "Cannot open file.") is None
    assert demo.match("nothing of the kind") is None
    with pytest.raises(KeyError, match="E20001"):
        demo.lookup("E20011")


def test_explain_reads_a_log_line(imported):
    line = PREFIX + "Value 7 for option --level is invalid. Reason: too high."
    result = run_cli("explain", "--catalog", imported, "--lang", "en", line)
    assert result.code == 0, result.err
    assert "E20001 Invalid_Value" in result.out and "option name" in result.out and "'level'" in result.out
    data = json.loads(run_cli("explain", "--catalog", imported, "--json", "E20005").out)
    assert data[0]["code"] == "E20005" and data[0]["found_by"] == "key"
    both = json.loads(run_cli("explain", "--catalog", imported, "--json", PREFIX + "Cannot open file.").out)
    assert sorted(d["code"] for d in both) == ["E20005", "E20006"]


def test_explain_at_a_release_says_what_its_registry_says(imported):
    """--edition RELEASE: the message that release's registry has (its library logs it), in text and
    in --json; a code that release does not ship says so."""
    said = run_cli("explain", "--catalog", imported, "--lang", "en", "--edition", "1.0.0", "E20001")
    assert said.code == 0 and "Message (1.0.0): Value %s for option --%s is invalid.\n" in said.out, said.out
    data = json.loads(run_cli("explain", "--catalog", imported, "--json", "--edition", "1.0.0", "E20001").out)[0]
    assert (data["edition"], data["message"]) == ("1.0.0", "Value %s for option --%s is invalid.")
    newest = json.loads(run_cli("explain", "--catalog", imported, "--json", "E20001").out)[0]
    assert newest["edition"] == "unreleased" and newest["message"] == newest["template"] != data["message"]
    assert (data["texts_from"], newest["texts_from"]) == ("registry", "page")
    # the registry's solution is English: in zh it says whose words it shows, where the page's zh is another text
    zh = run_cli("explain", "--catalog", imported, "--lang", "zh", "--edition", "1.0.0", "E20001")
    [line] = [line for line in zh.out.splitlines() if line.startswith("  解决方法")]
    assert line.startswith("  解决方法 (1.0.0 的错误码注册表，英文): "), zh.out
    absent = run_cli("explain", "--catalog", imported, "--lang", "en", "--edition", "1.0.0", "E20004")
    assert "1.0.0's error registry does not have it." in absent.out, absent.out
    assert json.loads(run_cli("explain", "--catalog", imported, "--json", "--edition", "1.0.0", "E20004").out)[0][
        "message"] is None


def with_zh_page_changed(upstream: Path, imported: Path, tmp_path: Path, old: str, new: str) -> tuple[Path, Path]:
    """A copy of the upstream repository whose next commit changes E20005's zh page (`old` to
    `new`), and a copy of the catalog to run against it."""
    changed, copy = tmp_path / "ge", tmp_path / "catalog"
    shutil.copytree(upstream, changed)
    zh, en = PAGES["E20005-Open_Error.md"]
    commit(changed, pages(changed={"E20005-Open_Error.md": (zh.replace(old, new), en)}), "change")
    shutil.copytree(imported, copy)
    return changed, copy


def test_audit_is_clean_and_sees_a_changed_page(imported, upstream, tmp_path):
    result = run_cli("audit", "--catalog", imported, "--upstream", f"demo/ge={upstream}")
    assert result.code == 0, result.out
    changed, copy = with_zh_page_changed(upstream, imported, tmp_path, "检查文件。", "检查文件路径。")
    result = run_cli("audit", "--catalog", copy, "--upstream", f"demo/ge={changed}")
    assert result.code == 1 and "E20005-Open_Error.md" in result.out and "import --ref main" in result.out


@pytest.mark.parametrize("ref", ["v1.0.0", "v1.1.0", "main"])
def test_upstream_source_writes_the_registrys_json_as_each_release_has_it(imported, upstream, tmp_path, ref):
    """The registry's one region: the lines inside its raw string, from the catalog (the branch: its
    newest release); --write puts them back into a copy whose JSON was edited."""
    text = git(upstream, "show", f"{ref}:{REGISTRY}")
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.endswith('R"(')) + 1
    end = next(i for i, line in enumerate(lines) if line.startswith(')"'))
    argv = ["upstream-source", "--catalog", imported, "--upstream", f"demo/ge={upstream}", "--ref", ref,
            "--path", REGISTRY]
    source = run_cli(*argv)
    assert source.code == 0, source.err
    assert source.out == f"@@ {start + 1},{end} @@\n" + "".join(line + "\n" for line in lines[start:end])
    copy = tmp_path / "error_registry.cc"
    copy.write_text(text.replace('"Arglist": "value,option', '"Arglist": "val,opt', 1), encoding="utf-8")
    assert copy.read_text(encoding="utf-8") != text and run_cli(*argv, "--write", copy).code == 0
    assert copy.read_text(encoding="utf-8") == text
    # a file no region is recorded for: the error lists the repository's files the verb writes, the registry too
    other = run_cli(*argv[:-1], "README.md")
    assert other.code == 2 and REGISTRY in other.err.split("recorded files:")[1], other.err


def test_a_registry_not_in_the_order_of_its_ids_is_a_difference(tmp_path):
    """upstream-source writes the entries by id, as every release of GE's registry has them: one that
    does not is said, by audit and by upstream-source."""
    repo = tmp_path / "ge"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, {REGISTRY: registry(V1)}, "registry", "v1.0.0")
    commit(repo, {REGISTRY: registry([V1[1], V1[0], V1[2]])}, "registry reordered", "v1.1.0")
    catalog = import_in_order(repo, tmp_path / "catalog", ("v1.0.0", "v1.1.0"))
    audited = run_cli("audit", "--catalog", catalog, "--upstream", f"demo/ge={repo}")
    assert audited.code == 1 and "E20002: registry order differs" in audited.out, audited.out
    source = run_cli("upstream-source", "--catalog", catalog, "--upstream", f"demo/ge={repo}", "--ref", "v1.1.0",
                     "--path", REGISTRY)
    assert source.code == 1 and "upstream has" in source.err, source.err


def test_a_tag_without_the_registry_records_none_and_imports_the_rest(imported, upstream, tmp_path):
    """As a source file missing at a tag: a release older than the registry (ge's v8.5.0, before
    error_registry.cc existed) records none, quietly; a newer one that lost it says so for a person.
    Neither is an error, and neither changes the catalog."""
    changed, copy = tmp_path / "ge", tmp_path / "catalog"
    shutil.copytree(upstream, changed)
    shutil.copytree(imported, copy)
    git(changed, "checkout", "-q", "--orphan", "old")
    git(changed, "rm", "-q", "-r", "-f", ".")
    commit(changed, {"README.md": "older than the registry\n"}, "old", "v0.9.0")
    git(changed, "checkout", "-q", "-f", "main")
    git(changed, "rm", "-q", REGISTRY)
    commit(changed, {}, "registry moved away", "v1.2.0")
    before = {p.name: p.read_bytes() for p in (copy / "ge").iterdir()}
    for ref, for_a_person in (("v0.9.0", False), ("v1.2.0", True)):
        result = run_cli("import", "--catalog", copy, "--upstream", f"demo/ge={changed}", "--ref", ref)
        assert result.code == 0, result.err
        said = [line for line in result.out.splitlines() if f"is not at {ref}: no registry recorded" in line]
        assert len(said) == 1 and said[0].startswith("for a person:") == for_a_person, result.out
        assert {p.name: p.read_bytes() for p in (copy / "ge").iterdir()} == before


def test_a_code_only_the_registry_has_gets_no_index_line(imported, upstream, tmp_path):
    """A new tag's registry adds E20007, which no page documents and the index does not list: the
    catalog says so (`page: false, indexed: false`), the index is written back as upstream has it,
    the audit stays clean, and explain says only the registry has it."""
    changed, copy, out = tmp_path / "ge", tmp_path / "catalog", tmp_path / "out"
    shutil.copytree(upstream, changed)
    shutil.copytree(imported, copy)
    new = entry("E20007", "Cache_Dir", "Cache dir %s is invalid.", "path")  # by id, as GE's registry lists them
    commit(changed, {REGISTRY: registry(V2[:-1] + [new, V2[-1]])}, "a new code, no page yet", "v1.2.0")
    for ref in ("v1.2.0", "main"):
        result = run_cli("import", "--catalog", copy, "--upstream", f"demo/ge={changed}", "--ref", ref)
        assert result.code == 0, result.err
        assert ref == "main" or "E20007 is new in the registry of 1.2.0" in result.out, result.out
    code = next(c for c in family(copy).codes if c.id == "E20007")
    assert (code.page, code.indexed) == (False, False)
    assert run_cli("generate", "--catalog", copy, "--out", out).code == 0
    for lang_folder in (ZH, EN):
        written = out / "generated" / "upstream" / "demo" / "ge" / lang_folder / "README.md"
        assert written.read_text(encoding="utf-8") == index_text() and "E20007" not in written.read_text("utf-8")
    audit = run_cli("audit", "--catalog", copy, "--upstream", f"demo/ge={changed}")
    assert audit.code == 0, audit.out
    said = run_cli("explain", "--catalog", copy, "--lang", "en", "E20007")
    assert "only the error registry has it" in said.out and "index lists it" not in said.out, said.out


def edited(imported: Path, tmp_path: Path, old: str, new: str) -> Path:
    copy = tmp_path / "catalog"
    shutil.copytree(imported, copy)
    codes = copy / "ge" / "codes.yaml"
    text = codes.read_text(encoding="utf-8")
    assert old in text
    codes.write_text(text.replace(old, new, 1), encoding="utf-8")
    return copy


@pytest.mark.parametrize("old,new,page,index_changes,line,expected", [
    # a placeholder's meaning: the page's sentence changes, not the index, nor what matches
    ("[参数值, 参数名, 报错原因]", "[取值, 参数名, 报错原因]", "E20001-Invalid_Value.md", False,
     "Value 7 for option --level is invalid. Reason: too high.", "E20001"),
    # a template: the page and match() follow it
    ("template: Cannot open %s.", "template: Cannot read %s.", "E20005-Open_Error.md", False,
     "Cannot read data.", "E20005"),
    # a code removed: its page and its index entry go, and match() no longer names it
    ("  - id: E20006\n", "  - id: E20006\n    page: false\n", "E20006-Access_Error.md", False,
     "Cannot open file.", "E20005"),
])
def test_a_changed_fact_changes_the_pages_the_index_and_match(imported, tmp_path, old, new, page, index_changes,
                                                              line, expected):
    before, after = tmp_path / "before", tmp_path / "after"
    assert run_cli("generate", "--catalog", imported, "--out", before).code == 0
    copy = edited(imported, tmp_path, old, new)
    if "page: false" in new:  # a code the pages no longer show, nor the registry: out of the catalog
        text = (copy / "ge" / "codes.yaml").read_text(encoding="utf-8")
        start = text.index("  - id: E20006\n")
        end = text.index("  - id: ", start + 1)
        (copy / "ge" / "codes.yaml").write_text(text[:start] + text[end:], encoding="utf-8")
    result = run_cli("generate", "--catalog", copy, "--out", after)
    assert result.code == 0, result.err
    root = Path("generated") / "upstream" / "demo" / "ge" / ZH
    old_page = (before / root / page).read_text(encoding="utf-8")
    new_page = after / root / page
    assert not new_page.exists() if "page: false" in new else new_page.read_text(encoding="utf-8") != old_page
    index_before = (before / root / "README.md").read_text(encoding="utf-8")
    index_after = (after / root / "README.md").read_text(encoding="utf-8")
    assert (index_before != index_after) == ("page: false" in new or index_changes)
    demo = load_module(after / "generated" / "python" / "demo_errors.py", f"demo_errors_{tmp_path.name}")
    assert [m.code.id for m in demo.matches(PREFIX + line)] == [expected]
    earlier = load_module(before / "generated" / "python" / "demo_errors.py", f"demo_errors_{tmp_path.name}_0")
    assert [m.code.id for m in earlier.matches(PREFIX + line)] != [expected] or "参数值" in old  # match() followed


def test_a_broken_page_is_refused_with_its_line(upstream, imported, tmp_path):
    broken, copy = with_zh_page_changed(upstream, imported, tmp_path, "## 解决方法", "## 处理方法")
    before = (copy / "ge" / "codes.yaml").read_bytes()
    result = run_cli("import", "--catalog", copy, "--upstream", f"demo/ge={broken}", "--ref", "main")
    assert result.code == 1 and "E20005-Open_Error.md:" in result.err and "nothing was written" in result.err
    assert (copy / "ge" / "codes.yaml").read_bytes() == before


NODE_FIRST = """
const worker = require(process.argv[1])
const fs = require("fs")
const input = JSON.parse(fs.readFileSync(0, "utf8"))
const indexes = {}
for (const [lang, file] of Object.entries(input.indexes)) {
  indexes[lang] = new worker.Index(JSON.parse(fs.readFileSync(file, "utf8")))
}
const load = async lang => indexes[lang] || null
;(async () => {
  const out = []
  for (const [lang, query] of input.queries) {
    const found = await worker.answer(query, indexes[lang], load)
    out.push(found.items.length ? found.items[0][0].location : null)
  }
  process.stdout.write(JSON.stringify(out))
})()
"""


def test_the_sites_search_puts_the_code_first_for_a_pasted_example():
    """Upstream's examples, pasted with a log prefix and without their id, into the real site's search
    (its worker and both languages' indexes, in Node): the code whose template the generator's matcher
    finds most specific comes first, wherever that answer is one code."""
    from generator.reading.load import load_catalog
    from generator.rendering.runtime.message_match import best_matches, template_pieces
    from tests.support.helpers import ROOT
    from tests.test_search import node

    catalog = load_catalog(ROOT / "catalog")
    ge = catalog.message_families[0]
    templates = {f"{c.id}\0{n}": template_pieces(t) for c in ge.codes for n, t in enumerate(c.messages(ge))}
    queries, expected = [], []
    for code in ge.codes:
        for example in code.examples:
            best = {key.split("\0")[0] for key, _ in best_matches(PREFIX + example, templates)}
            if len(best) != 1:
                continue
            [only] = best
            for lang, prefix in (("zh", ""), ("en", "en/")):
                queries.append((lang, PREFIX + example))
                expected.append(f"{prefix}{ge.prefix}codes/{only}/")
    assert len(queries) >= 200  # 105 examples of 108 have one answer, in two languages
    indexes = {lang: str(ROOT / "site" / "docs" / "assets" / "search" / f"index-{lang}.json") for lang in ("zh", "en")}
    script = ROOT / "site" / "docs" / "assets" / "javascripts" / "search-worker.js"
    result = subprocess.run([node(), "-e", NODE_FIRST, str(script)], input=json.dumps(
        {"indexes": indexes, "queries": queries}), capture_output=True, text=True, timeout=300, check=True)
    firsts = json.loads(result.stdout)
    wrong = [(q, e, f) for q, e, f in zip(queries, expected, firsts) if f != e]
    assert not wrong, wrong[:5]


def test_the_module_vendors_and_verifies(imported, tmp_path):
    to = tmp_path / "third_party"
    assert run_cli("vendor", "--catalog", imported, "--to", to, "--family", "ge").code == 0
    assert run_cli("verify-vendored", to / "demo_errors.py", "--against", imported).code == 0
    refused = run_cli("vendor", "--catalog", imported, "--to", to, "--family", "ge", "--header")
    assert refused.code == 2 and "no C/C++ header" in refused.err
    text = (to / "demo_errors.py").read_text(encoding="utf-8")
    (to / "demo_errors.py").write_text(text.replace("Cannot open %s.", "Cannot open %s!", 1), encoding="utf-8")
    assert run_cli("verify-vendored", to / "demo_errors.py", "--against", imported).code == 1


def test_a_family_of_messages_needs_its_own_module_and_site_path(imported, tmp_path):
    copy = tmp_path / "catalog"
    shutil.copytree(imported, copy)
    family_yaml = copy / "ge" / "family.yaml"
    text = family_yaml.read_text(encoding="utf-8")
    from generator.reading.load import load_catalog

    module = load_catalog(MINI).families[0].python.module  # the table family's module (demo_codes)
    family_yaml.write_text(text.replace("module: demo_errors", f"module: {module}"), encoding="utf-8")
    result = run_cli("validate", "--catalog", copy)
    assert result.code == 3 and f"output python/{module} is also family" in result.err, result.err


def test_a_family_of_messages_calls_its_list_by_the_familys_name_not_status_codes():
    """GE's list of codes, the link to it from each page and the navigation say the family
    (全部 GE 错误码): they said "all status codes" (全部状态码), which GE's codes are not."""
    catalog = load_catalog(ROOT / "catalog")
    site = catalog.site
    assert catalog.message_families
    for family in catalog.message_families:
        for lang in family.languages:
            docs = ROOT / "site" / "docs" / family.site_path
            title = site.label("message_list_title", lang).replace("{family}", family.name[lang])
            listing = (docs / "codes" / f"index.{lang}.md").read_text(encoding="utf-8")
            assert f"\n# {title} {{#page-title}}\n" in listing and family.name[lang] in title
            wrong = site.label("all_codes", lang)
            pages = [listing, (docs / f"index.{lang}.md").read_text(encoding="utf-8")] + \
                [(docs / "codes" / f"{code.id}.{lang}.md").read_text(encoding="utf-8") for code in family.codes[:5]]
            assert all(wrong not in page for page in pages), wrong
            assert all(site.label("all_messages", lang) in page for page in pages[1:])
            home = (ROOT / "site" / "docs" / f"index.{lang}.md").read_text(encoding="utf-8")
            [link] = [line for line in home.splitlines() if f'href="{family.prefix}codes/"' in line]
            assert site.label("all_messages", lang) in link and wrong not in link, link
    nav = (ROOT / "site" / "mkdocs.yml").read_text(encoding="utf-8")
    assert f'- "{site.label("all_messages", site.languages[0])}": ge/codes/index.md' in nav


def test_a_solution_the_registry_writes_as_n_a_is_said_to_be_the_registrys_own_text():
    """The registry registers "N/A" for some codes' solution in some releases: the page says that
    these are the registry's words for no solution, where it shows one, and only there."""
    catalog = load_catalog(ROOT / "catalog")
    seen = 0
    for family in catalog.message_families:
        for code in family.codes:
            na = any(text == "N/A" for _, text in family.over_releases(code, "Solution"))
            seen += na
            for lang in family.languages:
                page = (ROOT / "site" / "docs" / family.site_path / "codes" / f"{code.id}.{lang}.md").read_text(
                    encoding="utf-8")
                note = html.escape(catalog.site.label("registry_na", lang))
                assert (note in page) == na, (code.id, lang)
    assert seen >= 1


def test_an_example_that_does_not_fit_its_codes_message_is_said_so_on_its_page(catalog):
    """Upstream's E13014 examples ("Value format for Op add is invalid. ...") are one placeholder short of
    its template, which no log line of it could be; the page says so under each such example, and under
    no other. The oracle here: the message as a pattern, each %s any text, matching the whole example."""
    import re

    from generator.rendering.escape import html_in_markdown  # how the page writes a text: to find it there

    family = catalog.message_family_by_id["ge"]
    misfits = []
    for code in family.codes:
        patterns = [re.compile(".*".join(re.escape(piece) for piece in message.split("%s")), re.S)
                    for message in code.messages(family)]
        for lang in catalog.site.languages:
            page = (ROOT / "site" / "docs" / family.prefix / "codes" / f"{code.id}.{lang}.md").read_text("utf-8")
            note = catalog.site.label("example_does_not_fit", lang)
            for example in code.examples:
                fits = any(p.fullmatch(example.strip()) for p in patterns)
                shown = f"<code>{html_in_markdown(example)}</code></pre>"
                assert shown in page, (code.id, example)
                follows = page.split(shown, 1)[1].lstrip("\n").startswith(
                    f'<p class="message-note">{html_in_markdown(note)}</p>')
                assert follows != fits, (code.id, lang, example)
                misfits += [code.id] if not fits and lang == "en" else []
    assert "E13014" in misfits


def test_where_meanings_disagree_the_note_names_the_pages_and_no_meaning_is_guessed(catalog):
    """E10005's zh page lists two meanings for its two placeholders, its English three: the zh page's
    note said "the page's meanings" of a page that fits. E10011's English gives one meaning for a
    value and a shape's error value: the table gave both "parameter value". The oracle: a page's
    meanings disagree where their count is not the placeholders'."""
    family = catalog.message_family_by_id["ge"]
    names = catalog.site.language_names
    checked = 0
    for code in (c for c in family.codes if "meanings" in c.known):
        disagreeing = [lang for lang in family.languages if code.meanings_in(lang)
                       and len(code.meanings_in(lang)) != code.placeholders]
        assert disagreeing, code.id
        for lang in catalog.site.languages:
            page = (ROOT / "site" / "docs" / family.prefix / "codes" / f"{code.id}.{lang}.md").read_text("utf-8")
            [note] = [line for line in page.splitlines() if 'class="message-known"' in line]
            assert [other for other in family.languages if names[other] in note] == disagreeing, (code.id, lang)
            if lang in disagreeing:  # no meaning in the table: the page's list stands under it, as upstream has it
                label = re.escape(catalog.site.label("placeholder_meaning", lang))
                cells = re.findall(rf'data-label="{label}">([^<]*)</td>', page)
                assert cells and set(cells) == {"—"}, (code.id, lang, cells)
            checked += 1
    assert checked >= 4
