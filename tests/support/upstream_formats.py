"""Pages written by this project in upstream's formats, from an edition of the catalog, so that
audit and import are tested on files shaped like upstream's own:

- `html_page`: HTML tables inside Markdown, as CANN's documentation tool exports them (cells of
  <p> paragraphs with <a name> anchors, <ul>/<ol> lists, "说明：" notes in a note <div>, links to
  sibling API pages, width and header attributes);
- `pipe_page`: Markdown pipe tables as upstream writes them from 9.1.0 on (<br> line breaks,
  "- " and "1. " written out, [links](x.md), escaped underscores, a byte-order mark at will);
- `english_page`: upstream's English pipe tables (code spans for identifiers, N/A, no spaces
  before the closing pipe): `pipe_page` with lang "en".
Each writes a row's recoverable cell as that language's page says it (an edition's recorded
disagreement included), and the texts the catalog records for that edition and language.
And `build_upstream`: a git repository of such pages and of source files in upstream's formats
(tests/support/upstream_sources.py), at upstream's paths and with release tags, beside a copy of the
fixture catalog (tests/fixtures/upstream/catalog) whose sources name the commits it made.
Nothing here reads upstream's repositories.
"""
from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from generator.reading.load import load_catalog
from generator.domain.editions import Edition
from generator.domain.family import Family
from tests.support.helpers import FIXTURES, run_cli
from tests.support.upstream_sources import write_sources

API = re.compile(r"\b(pull_cache|pull_blocks|transfer_cache_async|link_clusters|unlink_clusters|check_link_status|"
                 r"LinkLlmClusters|UnlinkLlmClusters|PullKvCache|PullKvBlocks)\b")
LABELS_ZH = {"yes": "是", "no": "否", "n/a": "无"}
LABELS_EN = {"yes": "Yes", "no": "No", "n/a": "N/A"}


def _columns(family: Family, edition: Edition, lang: str) -> list[tuple[str, str]]:
    return [(c, edition.page.heading(c, lang)) for c in edition.page.columns]


def _key(family: Family, edition: Edition, code) -> str:
    return str(code.value) if edition.page.first_column == "decimal" else code.name_on(edition.page)


# -- HTML inside Markdown ------------------------------------------------------------------------------


def _html_text(text: str, counter: list[int]) -> str:
    """A cell's text as the export writes it: <p> per line, <ul>/<ol> lists, notes, API links."""
    parts, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        line = lines[i]
        kind = "ul" if line.startswith("- ") else "ol" if re.match(r"^\d+\. ", line) else None
        if kind:
            items = []
            while i < len(lines) and (lines[i].startswith("- ") if kind == "ul" else re.match(r"^\d+\. ", lines[i])):
                items.append(re.sub(r"^(- |\d+\. )", "", lines[i]))
                i += 1
            counter[0] += 1
            anchor = f"{kind}{counter[0]}"
            lis = "".join(f"<li>{_link(item)}</li>" for item in items)
            parts.append(f'<a name="{anchor}"></a><a name="{anchor}"></a><{kind} id="{anchor}">{lis}</{kind}>')
            continue
        counter[0] += 1
        anchor = f"p{counter[0]}"
        if line == "说明：" and i + 1 < len(lines):  # a note: its title, then its body (a line of its own)
            i += 1
            parts.append(
                f'<div class="note" id="note{counter[0]}"><span class="notetitle"> 说明： </span><div class="notebody">'
                f'<p id="{anchor}"><a name="{anchor}"></a>{_link(lines[i])}</p>\n</div></div>'
            )
        else:
            parts.append(f'<p id="{anchor}"><a name="{anchor}"></a><a name="{anchor}"></a>{_link(line)}</p>')
        i += 1
    return "\n".join(parts)


def _link(text: str) -> str:
    return API.sub(lambda m: f'<a href="{m.group()}.md">{m.group()}</a>', html.escape(text, quote=False))


def html_page(family: Family, edition: Edition, lang: str = "zh") -> str:
    columns = _columns(family, edition, lang)
    width = f"{100 / len(columns):.4f}%"
    counter = [0]
    head = "".join(
        f'<th class="cellrowborder" valign="top" width="{width}" id="mcps1.1.5.1.{i}"><p id="h{i}">'
        f'<a name="h{i}"></a><a name="h{i}"></a>{html.escape(label)}</p>\n</th>\n'
        for i, (_, label) in enumerate(columns, 1)
    )
    rows = []
    for index, row in enumerate(edition.rows):
        code = family.code_by_name[row.code]
        cells = []
        for i, (column, _) in enumerate(columns, 1):
            if column == "name":
                content = _html_text(_key(family, edition, code), counter)
            elif column == "recoverable":
                value = dict(row.disagreements).get(lang, row.recoverable)
                content = _html_text((LABELS_ZH if lang == "zh" else LABELS_EN)[value], counter)
            else:
                content = _html_text(code.text(column, edition.id, lang), counter)
            cells.append(
                f'<td class="cellrowborder" valign="top" width="{width}" headers="mcps1.1.5.1.{i} ">{content}\n</td>\n'
            )
        rows.append(f'<tr id="row{index}">' + "".join(cells) + "</tr>\n")
    title = edition.page.title[lang]
    intro = edition.page.intro[lang] if edition.page.intro else ""
    return (
        f'# {title}<a name="ZH-CN_TOPIC_0000001"></a>\n\n{intro}\n\n<a name="table1"></a>\n'
        f'<table><thead align="left"><tr id="row_head">{head}</tr>\n</thead>\n<tbody>'
        + "".join(rows)
        + "</tbody>\n</table>\n"
    )


# -- pipe tables ------------------------------------------------------------------------------------------------


def _pipe_text(text: str, english: bool = False, marked: bool = True) -> str:
    lines = []
    for n, line in enumerate(text.split("\n")):
        marker = re.match(r"^(- |\d+\. )", line)
        body = line[marker.end():] if marker else line
        body = body.replace("\\", "\\\\").replace("|", "\\|")
        body = _api_marked(body, english) if marked else body
        if line.startswith("说明："):
            body = " " + body  # upstream writes "<br> 说明： 本…"; the text has the space after the colon
        # upstream indents a list item after <br> ("<br>  - …"), never a paragraph ("<br>保留现场")
        lines.append(("  " if n and marker else "") + (marker.group() if marker else "") + body)
    return "<br>".join(lines)


def _api_marked(text: str, english: bool) -> str:
    """API names as upstream marks them: `code spans` in English; in zh, links to their pages
    ([pull_cache](pull_cache.md)) and every other underscore escaped (switch\\_role)."""
    if english:
        return API.sub(lambda m: f"`{m.group()}`", text)
    parts, last = [], 0
    for match in API.finditer(text):
        parts += [text[last:match.start()].replace("_", "\\_"), f"[{match.group()}]({match.group()}.md)"]
        last = match.end()
    return "".join(parts + [text[last:].replace("_", "\\_")])


def _pipe_row(cells: list[str], english: bool, heading: bool = False) -> str:
    """zh pages pad both sides of a pipe; the English pages write none before it, but for after a
    row's first cell (`| LLM_SUCCESS | Successful| N/A| None|`, as hixl's English page has it)."""
    if not english:
        return "| " + " | ".join(cells) + " |"
    if heading:
        return "| " + "| ".join(cells) + "|"
    return "| " + cells[0] + " | " + "| ".join(cells[1:]) + "|"


def pipe_page(family: Family, edition: Edition, lang: str = "zh", bom: bool = False, marked: bool = True) -> str:
    """The edition's page as a pipe table. `marked`: API names marked as upstream marks them, which a
    catalog text that is not `markdown: true` does not record (the audit reads past the marks;
    `upstream-page` writes them back only where the catalog has them)."""
    columns = _columns(family, edition, lang)
    english = lang == "en"
    intro = _api_marked(edition.page.intro[lang], english) if edition.page.intro else ""
    out = [f"# {edition.page.title[lang]}", "", intro, ""]
    out.append(_pipe_row([label for _, label in columns], english, heading=True))
    out.append("| " + " | ".join("---" for _ in columns) + " |")
    for row in edition.rows:
        code = family.code_by_name[row.code]
        cells = []
        for column, _ in columns:
            if column == "name":
                cells.append(_key(family, edition, code))
            elif column == "recoverable":
                value = dict(row.disagreements).get(lang, row.recoverable)
                cells.append((LABELS_EN if english else LABELS_ZH)[value])
            else:
                cells.append(_pipe_text(code.text(column, edition.id, lang), english, marked))
        out.append(_pipe_row(cells, english))
    text = "\n".join(out) + "\n"
    return ("\ufeff" + text) if bom else text


def english_page(family: Family, edition: Edition, bom: bool = False, marked: bool = True) -> str:
    return pipe_page(family, edition, "en", bom=bom, marked=marked)


def line_of(text: str, needle: str) -> int:
    """The 1-based line of the first occurrence of `needle`."""
    index = text.index(needle)
    return text.count("\n", 0, index) + 1


# -- a repository of them ----------------------------------------------------------------------------------

CATALOG = FIXTURES / "upstream" / "catalog"
REPO = "hicann/hixl"
# The fixture catalog's placeholder commits, by the tag whose commit replaces them.
PLACEHOLDERS = {
    "v9.0.0": "c0ffee9000000000000000000000000000000000",
    "v9.1.0": "c0ffee9100000000000000000000000000000000",
}
PYTHON_PAGE_900 = "docs/python/LLMStatusCode.md"
CPP_PAGE_900 = "docs/cpp/LLM-DataDist错误码.md"
PYTHON_PAGE_910 = "docs/zh/api/python/LLMStatusCode.md"
CPP_PAGE_910 = "docs/zh/api/cpp/LLM-DataDist-error-code.md"
ENGLISH_PAGE_910 = "docs/en/python/LLMStatusCode.md"
STATUS_PY = "src/python/llm_datadist/llm_datadist/status.py"
ERROR_CODES_H = "include/llm_datadist/llm_error_codes.h"


def git_env() -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_AUTHOR_NAME="test", GIT_AUTHOR_EMAIL="test@example.org", GIT_COMMITTER_NAME="test",
               GIT_COMMITTER_EMAIL="test@example.org", GIT_AUTHOR_DATE="2026-01-01T00:00:00Z",
               GIT_COMMITTER_DATE="2026-01-01T00:00:00Z", GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
    return env


class Repository:
    """A git work tree in tmp_path, written file by file."""

    def __init__(self, path: Path):
        self.path = path
        path.mkdir(parents=True)
        self.git("init", "-q", "-b", "master")

    def git(self, *args: str) -> str:
        result = subprocess.run(["git", "-C", str(self.path), *args], capture_output=True, text=True, env=git_env())
        assert result.returncode == 0, result.stderr
        return result.stdout.strip()

    def write(self, path: str, text: str) -> None:
        target = self.path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")

    def remove(self, path: str) -> None:
        self.git("rm", "-q", path)

    def commit(self, message: str, *tags: str) -> str:
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)
        for tag in tags:
            self.git("tag", tag)
        return self.git("rev-parse", "HEAD")


@dataclass
class Upstream:
    repo: Repository
    catalog: Path
    commits: dict[str, str] = field(default_factory=dict)  # tag -> commit

    def audit(self, *extra: str, directory: Optional[Path] = None):
        return run_cli(
            "audit", "--catalog", self.catalog, "--upstream", f"{REPO}={directory or self.repo.path}", *extra
        )

    def edit_catalog(self, old: str, new: str, name: str = "editions.yaml") -> None:
        path = self.catalog / "llm_datadist" / name
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, old
        path.write_text(text.replace(old, new), encoding="utf-8")


Edit = Callable[[str, str], str]  # (path, text) -> the text committed


def commit_catalog(catalog: Path) -> None:
    """The catalog made a git work tree, committed: `git status` then shows what an import wrote."""
    commit = ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "catalog"]
    for args in (["init", "-q"], ["add", "-A"], commit):
        subprocess.run(["git", "-C", str(catalog), *args], check=True, capture_output=True)


def insert_after(text: str, pattern: str, new: str) -> str:
    """`new` inserted after the line that `pattern` matches."""
    match = re.search(pattern, text, re.M)
    assert match, pattern
    end = text.index("\n", match.end()) + 1
    return text[:end] + new + text[end:]


def build_upstream(tmp_path: Path, at_910: Optional[dict[str, Edit]] = None, marked: bool = False) -> Upstream:
    """The upstream repository of the fixture catalog: v9.0.0-rc.1 and v9.0.0 on one commit,
    v9.0.1 with the same pages and sources, v9.1.0 with the pages moved and rewritten; master
    at v9.1.0. `at_910`: edits of files as v9.1.0 ships them; `marked`: its pipe tables mark API
    names, which the fixture's plain texts do not record (so that a page the import reads from it
    is not written back byte for byte): off, the pages say what the catalog says."""
    fixture = load_catalog(CATALOG).family_by_id["llm_datadist"]
    edition = fixture.edition_by_id
    repo = Repository(tmp_path / "hixl")
    write_sources(repo.path, fixture, REPO)
    repo.write("README.md", "# hixl\n")
    repo.write(PYTHON_PAGE_900, html_page(fixture, edition["9.0.0-v2"], "zh"))
    repo.write(CPP_PAGE_900, html_page(fixture, edition["9.0.0-cpp-v2"], "zh"))
    commits = {"v9.0.0": repo.commit("9.0.0", "v9.0.0-rc.1", "v9.0.0")}
    repo.write("README.md", "# hixl\n\n9.0.1\n")
    commits["v9.0.1"] = repo.commit("9.0.1", "v9.0.1")
    repo.remove(PYTHON_PAGE_900)
    repo.remove(CPP_PAGE_900)
    pages = {PYTHON_PAGE_910: pipe_page(fixture, edition["9.1.0-v2"], "zh", bom=True, marked=marked),
             CPP_PAGE_910: pipe_page(fixture, edition["9.1.0-cpp-v2"], "zh", bom=True, marked=marked),
             ENGLISH_PAGE_910: english_page(fixture, edition["9.1.0-v2"], marked=marked)}
    for path, edit in (at_910 or {}).items():
        text = pages.get(path) or (repo.path / path).read_text(encoding="utf-8")
        pages[path] = edit(path, text)
    for path, text in pages.items():
        repo.write(path, text)
    commits["v9.1.0"] = repo.commit("9.1.0", "v9.1.0")
    catalog = tmp_path / "catalog"
    shutil.copytree(CATALOG, catalog)
    editions = catalog / "llm_datadist" / "editions.yaml"
    text = editions.read_text(encoding="utf-8")
    for tag, placeholder in PLACEHOLDERS.items():
        text = text.replace(placeholder, commits[tag])
    editions.write_text(text, encoding="utf-8")
    return Upstream(repo, catalog, commits)
