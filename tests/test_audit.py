"""`audit` of single files against the catalog: pages in upstream's formats (HTML tables inside
Markdown, pipe tables, upstream's English), the Python source with its llm_wrapper references,
the pybind binding and the GE_ERRORNO_DEFINE headers.

Every page here is written by this project from the catalog itself (tests/support/upstream_formats.py),
so a faithful copy must audit clean whatever the catalog holds, and each deliberate change to a
copy must be reported once, at its line. So are the source files (tests/support/upstream_sources.py), with
the codes of hicann/hixl's newest release. Expectations are computed from the catalog's model, never counted.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Optional

import pytest

from generator.audit import given_files as audit
from generator.audit.page import audit_page, compare_text
from generator.upstream.page_table import recoverable_value
from generator.audit.source_code import audit_header, audit_python

from generator.upstream import c_source
from generator.reading.load import load_catalog
from generator.upstream.page_table import read_table
from tests.support import upstream_formats as uf
from tests.support import upstream_sources as us
from tests.support.helpers import ROOT, run_cli

REPO = "hicann/hixl"
STATUS_PY, BINDING = "python", "binding"
ERROR_CODES_H = us.ERROR_CODES_HEADER
DATADIST_H = us.DATADIST_HEADER
# Where upstream keeps them: audit tells a family's headers by their path.
HEADER_PATHS = {
    ERROR_CODES_H: "include/llm_datadist/llm_error_codes.h",
    DATADIST_H: "include/llm_datadist/llm_datadist.h",
}


@lru_cache(maxsize=None)
def faithful(key: str, family_id: str = "llm_datadist") -> str:
    """A source file as hicann/hixl's newest release has it, in upstream's format, written from the
    catalog (tests/support/upstream_sources.py): status.py, the binding, or the header named `key`."""
    family = load_catalog(ROOT / "catalog").family_by_id[family_id]
    codes = us.codes_at(family, REPO)
    if key in (STATUS_PY, BINDING):
        return us.source_text(family, key, None, codes)
    return us.source_text(family, "header", key, codes)

RENDER = {
    "html": lambda family, edition, lang: uf.html_page(family, edition, lang),
    "pipe": lambda family, edition, lang: uf.pipe_page(family, edition, lang),
    "pipe+bom": lambda family, edition, lang: uf.pipe_page(family, edition, lang, bom=True),
}


def failing(findings):
    return [f for f in findings if not f.known]


def show(findings) -> str:
    return "\n".join(str(f) for f in findings) or "(none)"


def editions_with_texts(catalog):
    return [(family, edition, lang) for family in catalog.families for edition in family.editions
            for lang in family.languages if edition.has_texts(lang)]


def translated_cells(family, edition, lang) -> set[tuple[str, str]]:
    """(code, field) of each cell whose text in `lang` is this project's translation."""
    return {(row.code, field) for row in edition.rows for field in edition.page.text_fields
            if (entry := family.code_by_name[row.code].entry(field, edition.id, lang)) is not None
            and entry.origin == "translation"}


def audit_copy(family, edition, text: str, name: str = "page.md"):
    return audit_page(family, edition, name, text)


# -- faithful pages read clean ------------------------------------------------------------------------


@pytest.mark.slow  # every edition of every family, rendered and audited
@pytest.mark.parametrize("fmt", sorted(RENDER))
def test_every_edition_in_upstreams_formats_audits_clean(catalog, fmt):
    """Links, code spans, escapes, <p>, <ul>, <ol>, notes, N/A, a byte-order mark: none of it is a
    difference; a translated text is reported apart (known), once per translated cell."""
    checked = 0
    for family, edition, lang in editions_with_texts(catalog):
        findings = audit_copy(family, edition, RENDER[fmt](family, edition, lang))
        where = f"{family.id} {edition.id} {lang} ({fmt})"
        assert not failing(findings), f"{where}:\n{show(findings)}"
        notes = {(f.code, f.field) for f in findings if f.kind == "translation, not compared"}
        assert notes == translated_cells(family, edition, lang), where
        assert all(f.kind == "translation, not compared" for f in findings), f"{where}:\n{show(findings)}"
        checked += 1
    assert checked, "the catalog has no edition with texts to render"


def _editions_whose_texts(family, lang: str, pattern: str):
    """Editions (of the given language, upstream's own text) with a text matching the pattern."""
    found = []
    for edition in family.editions:
        if not edition.has_texts(lang):
            continue
        for row in edition.rows:
            code = family.code_by_name[row.code]
            for field in edition.page.text_fields:
                entry = code.entry(field, edition.id, lang)
                if entry is not None and entry.origin == "upstream" and re.search(pattern, entry.text, re.M):
                    found.append(edition)
                    break
            else:
                continue
            break
    return found


def test_links_escapes_and_code_spans_are_the_text_a_reader_sees(llm):
    """The v1 page at v9.2.0-beta.1 gave 8 false differences: [pull_cache](pull_cache.md),
    link\\_clusters, `link_clusters` are compared as the words they show."""
    editions = _editions_whose_texts(llm, "zh", uf.API.pattern)
    assert editions, "no zh text of the catalog names an API page: the test has nothing to read"
    for edition in editions:
        page = uf.pipe_page(llm, edition, "zh")
        assert re.search(r"\]\(\w+\.md\)", page) and "\\_" in page
        assert not failing(audit_copy(llm, edition, page)), edition.id
    english = [e for e in _editions_whose_texts(llm, "en", uf.API.pattern)]
    assert english
    for edition in english:
        page = uf.english_page(llm, edition)
        assert "`" in page
        assert not failing(audit_copy(llm, edition, page)), edition.id


def test_a_cell_reads_as_its_visible_text():
    source = ("| 枚举值 | 是否可恢复 | 解决办法 |\n| --- | --- | --- |\n"
              "| LLM_X | 是 | 调用[pull\\_cache](pull_cache.md)或`link_clusters`，见[文档](https://example.org/d)。"
              "<br>  - 一<br>  - 二<br> 说明： 本错误码为预留。 |\n")
    table = read_table(source, {"name": {"zh": ("枚举值",)}, "recoverable": {"zh": ("是否可恢复",)},
                                "solution": {"zh": ("解决办法",)}})
    assert table.lang == "zh" and table.columns == ("name", "recoverable", "solution")
    [row] = table.rows
    assert row.line == 3
    assert row.by_column["solution"].text == (
        "调用pull_cache或link_clusters，见文档 (https://example.org/d)。\n- 一\n- 二\n说明： 本错误码为预留。")


def test_html_cells_read_as_a_browser_lays_them_out():
    """<p> paragraphs, <ul> bullets, <ol> numbered steps (start and value respected), the note title
    and its body as two lines, as a browser lays out the notebody block."""
    source = ('<table><tr><th>枚举值</th><th>是否可恢复</th><th>解决办法</th></tr>\n'
              '<tr><td><p>LLM_X</p></td><td><p>否</p></td>\n'
              '<td><p>先检查。</p><ul><li>一</li><li>二</li></ul><ol><li>甲</li><li>乙</li></ol>'
              '<ol start="3"><li>丙</li><li value="7">丁</li></ol>\n'
              '<div class="note"><span class="notetitle"> 说明： </span><div class="notebody"><p>本错误码为预留。</p>\n'
              '</div></div></td></tr></table>\n')
    table = read_table(source, {"name": {"zh": ("枚举值",)}, "recoverable": {"zh": ("是否可恢复",)},
                                "solution": {"zh": ("解决办法",)}})
    [row] = table.rows
    assert (row.line, row.by_column["solution"].line) == (2, 3)
    assert row.by_column["solution"].text == (
        "先检查。\n- 一\n- 二\n1. 甲\n2. 乙\n3. 丙\n7. 丁\n说明：\n本错误码为预留。")


def test_note_titles_read_as_each_format_shows_them(llm):
    """An HTML note's title and body are two lines ("说明：", "本…"); in a pipe table the note is
    one line, and the space typed after the colon is the text's ("说明： 本", as from 9.1.0)."""
    editions = _editions_whose_texts(llm, "zh", r"说明：")
    assert editions, "no zh text of the catalog holds a note"
    assert any("说明： " in (c.text("solution", e.id, "zh") or "") for e in editions for c in llm.codes)
    for edition in editions:
        for page in (uf.html_page(llm, edition, "zh"), uf.pipe_page(llm, edition, "zh")):
            assert not failing(audit_copy(llm, edition, page)), edition.id


def test_english_pages_write_n_a_or_none(llm):
    edition = next(e for e in llm.editions if e.has_texts("en") and any(r.recoverable == "n/a" for r in e.rows))
    page = uf.english_page(llm, edition)
    assert "| N/A|" in page
    assert not failing(audit_copy(llm, edition, page))
    assert not failing(audit_copy(llm, edition, page.replace("| N/A|", "| None|")))
    assert recoverable_value(llm, "N/A", "en") == recoverable_value(llm, "无", "zh") == "n/a"


def test_a_translation_is_reported_apart_and_an_upstream_english_text_is_compared(llm):
    edition, cell = next((e, c) for e in llm.editions if e.has_texts("en")
                         for c in sorted(translated_cells(llm, e, "en")))
    code = llm.code_by_name[cell[0]]
    ours = code.text(cell[1], edition.id, "en")
    page = uf.english_page(llm, edition)
    changed = page.replace(uf._pipe_text(ours, english=True), "Something else entirely.", 1)
    assert changed != page
    findings = audit_copy(llm, edition, changed)
    assert not failing(findings), show(findings)
    assert [f.known for f in findings if (f.code, f.field) == cell] == [True]

    edition, (name, field) = next((e, (r.code, f)) for e in llm.editions if e.has_texts("en") for r in e.rows
                                  for f in e.page.text_fields
                                  if (x := llm.code_by_name[r.code].entry(f, e.id, "en")) and x.origin == "upstream"
                                  and uf._pipe_text(x.text, english=True) not in ("None", "-"))
    theirs = uf._pipe_text(llm.code_by_name[name].text(field, edition.id, "en"), english=True)
    page = uf.english_page(llm, edition)
    findings = failing(audit_copy(llm, edition, page.replace(theirs, theirs + " Really.", 1)))
    assert [(f.kind, f.code, f.field) for f in findings] == [("text differs", name, field)], show(findings)


def test_byte_order_mark_is_read(llm):
    edition = next(e for e in llm.editions if e.has_texts("zh"))
    pipe = uf.pipe_page(llm, edition, "zh")
    table_only = "\ufeff" + pipe[pipe.index("\n| ") + 1:]  # the mark right before the table's first pipe
    for page in (uf.pipe_page(llm, edition, "zh", bom=True), table_only, "\ufeff" + uf.html_page(llm, edition, "zh")):
        table = read_table(page, edition.page.headings, is_html=False)
        assert table.bom and len(table.rows) == len(edition.rows)
        assert not failing(audit_copy(llm, edition, page))


def test_the_deprecated_page_reads_its_cause_column_and_is_chinese(llm):
    """The 5-column page of decimal values: 可能原因 is the cause, not the recoverable column."""
    page_def = next(p for p in llm.pages if "cause" in p.columns and p.first_column == "decimal")
    edition = next(e for e in llm.page_editions(page_def) if e.has_texts("zh"))
    for text in (uf.html_page(llm, edition, "zh"), uf.pipe_page(llm, edition, "zh")):
        table = read_table(text, page_def.headings, is_html=False)
        assert table.lang == "zh"
        assert table.columns == page_def.columns
        assert [r.by_column["name"].text for r in table.rows] == [
            str(llm.code_by_name[r.code].value) for r in edition.rows
        ]
        assert not failing(audit_copy(llm, edition, text))
    row = next(
        r for r in edition.rows if llm.code_by_name[r.code].entry("cause", edition.id, "zh").text not in ("-", "")
    )
    cause = llm.code_by_name[row.code].text("cause", edition.id, "zh")
    page = uf.pipe_page(llm, edition, "zh")
    escaped = uf._pipe_text(cause)
    findings = failing(audit_copy(llm, edition, page.replace(f"| {escaped} |", f"| {escaped}吗 |", 1)))
    assert [(f.kind, f.code, f.field) for f in findings] == [("text differs", row.code, "cause")], show(findings)


def test_columns_are_read_by_their_headings(llm):
    """A copy with its columns in another order reads the same."""
    edition = next(e for e in llm.editions if e.has_texts("zh") and len(e.page.columns) == 4)
    page = uf.pipe_page(llm, edition, "zh")
    lines = page.split("\n")
    swapped = []
    for line in lines:
        if line.startswith("| "):
            cells = line[2:-2].split(" | ")
            if len(cells) == 4:
                cells = [cells[0], cells[3], cells[2], cells[1]]
                line = "| " + " | ".join(cells) + " |"
        swapped.append(line)
    text = "\n".join(swapped)
    assert text != page
    assert not failing(audit_copy(llm, edition, text))


def test_an_unknown_heading_is_reported_and_its_column_not_compared(llm):
    edition = next(e for e in llm.editions if e.has_texts("zh") and "meaning" in e.page.columns)
    page = uf.pipe_page(llm, edition, "zh")
    heading = edition.page.heading("meaning", "zh")
    findings = failing(audit_copy(llm, edition, page.replace(f"| {heading} |", "| 意思 |", 1)))
    assert [(f.kind, f.line) for f in findings] == [("unknown heading", uf.line_of(page, f"| {heading} |"))], show(
        findings
    )


# -- malformed rows -------------------------------------------------------------------------------------


def _html_row(page: str, index: int) -> tuple[int, int]:
    start = page.index(f'<tr id="row{index}">')
    return start, page.index("</tr>\n", start) + len("</tr>\n")


def test_a_row_with_more_cells_than_headings_is_reported_at_its_line(llm):
    edition = next(e for e in llm.editions if e.has_texts("zh") and len(e.rows) > 3 and not e.malformations)
    page = uf.html_page(llm, edition, "zh")
    start, end = _html_row(page, 2)
    row = page[start:end].replace("</tr>\n", '<td class="cellrowborder"><p>多余</p></td>\n</tr>\n')
    findings = failing(audit_copy(llm, edition, page[:start] + row + page[end:]))
    expected = [("row does not fit", edition.rows[2].code, uf.line_of(page, '<tr id="row2">'))]
    assert [(f.kind, f.code, f.line) for f in findings] == expected, show(findings)


def test_an_unclosed_cell_is_read_as_a_browser_shows_it(llm):
    """An unclosed <td> followed by another gives the row an extra cell; the solution column shows
    the first one, and that is the text compared."""
    edition = next(e for e in llm.editions if e.has_texts("zh") and len(e.rows) > 3 and not e.malformations
                   and e.page.columns[-1] == "solution")
    page = uf.html_page(llm, edition, "zh")
    start, end = _html_row(page, 2)
    row = page[start:end]
    last = row.rindex("\n</td>\n")
    unclosed = row[:last] + '\n<td class="cellrowborder"><p>另一侧的文本。</p>\n</td>\n</tr>\n'
    findings = failing(audit_copy(llm, edition, page[:start] + unclosed + page[end:]))
    code = edition.rows[2].code
    assert [(f.kind, f.code) for f in findings] == [("row does not fit", code)], show(findings)
    # The browser's cell is the first: put the other text there and the solution differs.
    cell_start = row.rindex("<td ")
    first_other = row[:cell_start] + '<td class="cellrowborder"><p>另一侧的文本。</p>\n' + row[cell_start:]
    findings = failing(audit_copy(llm, edition, page[:start] + first_other + page[end:]))
    assert [(f.kind, f.code) for f in findings][0] == ("row does not fit", code), show(findings)
    assert [(f.kind in ("text differs", "structure differs"), f.field) for f in findings[1:]] == [(True, "solution")], (
        show(findings)
    )


def _with_conflict(family, edition, page: str, code_name: str, malformation) -> str:
    """The page with the malformation's merge conflict in the code's last cell, laid out as
    upstream's 8.5.0 file has it: each side opens its own <td>, one </td> closes both; its first
    marker at the line the record gives (blank lines before the row, where it would come earlier)."""
    index = next(i for i, r in enumerate(edition.rows) if r.code == code_name)
    start, end = _html_row(page, index)
    row = page[start:end]
    cell = row.rindex("<td ")
    sides = dict(malformation.sides)
    other = next(label for label in sides if label != malformation.shown)
    def paragraphs(text: str) -> str:
        return "".join(f"<p>{line}</p>" for line in text.split("\n"))
    conflict = (f"<<<<<<< {malformation.shown}\n<td class=\"cellrowborder\">{paragraphs(sides[malformation.shown])}\n"
                f"=======\n<td class=\"cellrowborder\">{paragraphs(sides[other])}\n>>>>>>> {other}\n</td>\n</tr>\n")
    before = page[:start] + row[:cell]
    padding = "\n" * max(0, malformation.line - 1 - before.count("\n"))
    return page[:start] + padding + row[:cell] + conflict + page[end:]


def test_a_merge_conflict_an_edition_records_is_known_and_elsewhere_fails(llm):
    edition, malformation = next((e, m) for e in llm.editions for m in e.malformations if m.kind == "merge conflict")
    assert edition.page.columns[-1] == malformation.field
    page = _with_conflict(llm, edition, uf.html_page(llm, edition, "zh"), malformation.code, malformation)
    findings = audit_copy(llm, edition, page)
    assert not failing(findings), show(findings)
    assert {f.kind for f in findings if f.known} >= {"merge conflict", "row does not fit"}, show(findings)
    # The shown side is the text compared: it is the edition's.
    assert (
        llm.code_by_name[malformation.code].text(malformation.field, edition.id, "zh")
        == dict(malformation.sides)[malformation.shown]
    )
    # The record is upstream's: its line, each side's label and text (the site shows them as upstream's); a
    # record that says otherwise than the page fails (the audit read none of it)
    sides = dict(malformation.sides)
    other_label = next(label for label in sides if label != malformation.shown)
    shown_text, other_last = sides[malformation.shown].split("\n")[0], sides[other_label].split("\n")[-1]
    for changed in (page.replace("<<<<<<<", "\n<<<<<<<", 1),
                    page.replace(shown_text[:12], "另一种说法", 1),
                    page.replace(sides[other_label].split("\n")[0][:12], "另一种说法", 1),
                    page.replace(f">>>>>>> {other_label}", ">>>>>>> 1234567... other", 1),
                    # a side longer or shorter than the record (a record cut short passed before: found by review)
                    page.replace(shown_text, shown_text[:-6], 1),
                    page.replace(other_last, other_last + "另有一句。", 1)):
        assert changed != page
        wrong = [f for f in failing(audit_copy(llm, edition, changed)) if f.kind == "merge conflict"]
        assert wrong and wrong[0].code == malformation.code, show(audit_copy(llm, edition, changed))

    other = next(e for e in llm.timeline_editions(edition.timeline) if not e.malformations and e.has_texts("zh")
                 and malformation.code in e.row_by_code and e.page.columns == edition.page.columns)
    page = _with_conflict(llm, other, uf.html_page(llm, other, "zh"), malformation.code, malformation)
    kinds = {f.kind for f in failing(audit_copy(llm, other, page))}
    assert {"merge conflict", "row does not fit"} <= kinds, kinds


# -- the Python source, the binding, the headers -------------------------------------------------------


def _sources(tmp_path: Path, python: Optional[str] = None, binding: Optional[str] = None,
             headers: Optional[dict[str, str]] = None) -> dict:
    """Faithful source files (or the given texts) at upstream's paths under tmp_path."""
    files = {}
    python_path = tmp_path / "src/python/llm_datadist/llm_datadist/status.py"
    binding_path = tmp_path / "src/python/llm_wrapper/llm_wrapper_v2.cc"
    for path, text in ((python_path, python if python is not None else faithful(STATUS_PY)),
                       (binding_path, binding if binding is not None else faithful(BINDING))):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    header_paths = []
    for header, where in HEADER_PATHS.items():
        path = tmp_path / where
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text((headers or {}).get(header, faithful(header)))
        header_paths.append(path)
    files.update(python=python_path, binding=binding_path, headers=header_paths)
    return files


def audit_sources(catalog, family, files: dict):
    return audit.audit_files(catalog, family, None, **files)


def runtime_names() -> set[str]:
    """The runtime (ACL) constants the binding fixture binds: declared in no cited repository."""
    return set(re.findall(r"py::int_\((ACL_\w+)\)", faithful(BINDING)))


def test_faithful_sources_audit_clean_and_say_what_is_checked_against_a_fact(catalog, llm, tmp_path):
    findings = audit_sources(catalog, llm, _sources(tmp_path))
    assert not failing(findings), show(findings)
    facts = {f.upstream for f in findings if f.kind == "checked against the catalog's fact"}
    assert facts == runtime_names() and facts <= set(dict(llm.runtime_constants))
    assert all(f.known for f in findings)
    assert not [f for f in findings if "SUCCESS" in str(f.catalog) or "FAILED" in str(f.catalog)], show(findings)


def test_with_an_edition_the_enums_base_class_is_the_one_recorded_for_its_release(catalog, llm, tmp_path):
    """As `audit --upstream` compares it: hicann/hixl's status.py derives from IntEnum from a release on."""
    python = next(u for u in llm.upstream if u.kind == "python" and len({b for b, _ in u.bases}) > 1)
    edition = next(e for e in reversed(llm.editions) if e.released and python.repo in {s.repo for s in e.sources}
                   and e.page.row_names == "python")
    base = python.base_at(edition.release)
    other = next(b for b, _ in python.bases if b != base)
    files = _sources(tmp_path, python=faithful(STATUS_PY).replace("(IntEnum):", f"({other}):", 1))
    files = {"python": files["python"]}
    findings = failing(audit.audit_files(catalog, llm, edition, **files))
    assert [(f.field, f.upstream, f.catalog) for f in findings] == [("base class", other, base)], show(findings)
    assert not failing(audit.audit_files(catalog, llm, None, **files))  # no edition: no release to compare with


def test_python_references_are_compared_by_name_without_a_binding(catalog, llm, tmp_path):
    source = faithful(STATUS_PY)
    timeout, other = _two_wrapped(llm)
    changed = source.replace(f"= llm_wrapper.{timeout.wrapper}\n", f"= llm_wrapper.{other.wrapper}\n", 1)
    path = tmp_path / "status.py"
    path.write_text(changed)
    findings = failing(audit.audit_files(catalog, llm, None, python=path))
    line = uf.line_of(changed, f"{timeout.python_name} = ")
    assert [(f.kind, f.code, f.line) for f in findings] == [("value differs", timeout.name, line)], show(findings)


def _two_wrapped(family):
    wrapped = [c for c in family.python_codes if c.wrapper and c.cpp]
    return wrapped[-2], wrapped[-3]


def test_unresolved_references_are_reported(catalog, llm, tmp_path):
    code, _ = _two_wrapped(llm)
    binding = faithful(BINDING)
    bound_to = re.search(rf'm\.attr\("{code.wrapper}"\) = py::int_\(([\w:]+)\);', binding).group(1)
    changed = binding.replace(f"py::int_({bound_to});", "py::int_(ge::LLM_NO_SUCH_CODE);", 1)
    findings = failing(audit_sources(catalog, llm, _sources(tmp_path, binding=changed)))
    line = uf.line_of(changed, "ge::LLM_NO_SUCH_CODE")
    assert [(f.kind, f.code, f.line) for f in findings] == [("unresolved reference", code.name, line)], show(findings)

    source = faithful(STATUS_PY).replace(f"= llm_wrapper.{code.wrapper}\n", "= llm_wrapper.kNoSuchConstant\n", 1)
    findings = failing(audit_sources(catalog, llm, _sources(tmp_path, python=source)))
    line = uf.line_of(source, "kNoSuchConstant")
    assert [(f.kind, f.code, f.line) for f in findings] == [("unresolved reference", code.name, line)], show(findings)


GE_ARGUMENTS = ["runtime", "type", "level", "sysid", "modid", "value"]


def test_the_value_layout_is_ges_macro_and_no_base_is_written_in_the_code(llm):
    """GE's api_error_codes.h: ((runtime & 0xFF) << 30) | ((type & 0xFF) << 28) | ((level & 0xFF) << 25)
    | ((sysid & 0xFF) << 17) | ((modid & 0xFF) << 12) | (value & 0x0FFF)."""
    define, errorno = llm.value_layouts  # GE_ERRORNO_DEFINE, and GE_ERRORNO with its registered message
    assert (define.macro, errorno.macro) == ("GE_ERRORNO_DEFINE", "GE_ERRORNO") and errorno.arguments[-1] == "message"
    for layout in (define, errorno):
        assert [a for a in layout.arguments if a not in ("name", "message")] == GE_ARGUMENTS
        for args in ((1, 1, 0, 8, 11, 26), (2, 1, 1, 9, 12, 4095), (0, 0, 0, 0, 0, 0), (3, 3, 7, 255, 31, 4095)):
            expected = (
                (args[0] & 0xFF) << 30
                | (args[1] & 0xFF) << 28
                | (args[2] & 0xFF) << 25
                | (args[3] & 0xFF) << 17
                | (args[4] & 0xFF) << 12
                | (args[5] & 0x0FFF)
            ) & 0xFFFFFFFF
            assert layout.compute(dict(zip(GE_ARGUMENTS, args))) == expected
    for module in sorted(p for folder in ("upstream", "audit") for p in (ROOT / "generator" / folder).glob("*.py")):
        assert not re.search(r"5010[bB]", module.read_text()), module.name


def test_a_header_of_another_family_is_not_this_familys(catalog, llm):
    """hixl::FAILED is not LLM_FAILED, hixl::FEATURE_NOT_SUPPORTED = 0 is not LLM_SUCCESS."""
    text = faithful("hixl/hixl_types.h", "hixl")
    findings, _ = audit_header(llm, "include/hixl/hixl_types.h", text)
    assert [f.kind for f in findings] == ["not this family's file"], show(findings)
    hixl = catalog.family_by_id["hixl"]
    findings, _ = audit_header(hixl, "include/hixl/hixl_types.h", text)
    assert not failing(findings), show(findings)


def test_constants_of_another_namespace_are_not_this_headers(llm):
    """Names are matched within the header's namespace: hixl::FAILED beside llm_datadist:: is not LLM_FAILED."""
    text = (
        faithful(DATADIST_H)
        + "\nnamespace hixl {\nconstexpr Status SUCCESS = 0U;\nconstexpr Status FAILED = 503900U;\n}\n"
    )
    findings, constants = audit_header(llm, HEADER_PATHS[DATADIST_H], text)
    assert {c.qualified for c in constants} >= {"hixl::SUCCESS", "hixl::FAILED"}
    assert not findings, show(findings)


def test_names_another_header_declares_are_not_missing(llm):
    """ge::SUCCESS and ge::FAILED come from ge's ge_api_error_codes.h, not llm_error_codes.h."""
    findings, _ = audit_header(llm, HEADER_PATHS[ERROR_CODES_H], faithful(ERROR_CODES_H))
    assert not findings, show(findings)
    assert {n.name for c in llm.codes for n in c.cpp if n.header == GE_API_H} == {"ge::SUCCESS", "ge::FAILED"}


GE_API_H = "ge/ge_api_error_codes.h"


def test_ge_errorno_lines_give_values_and_messages(llm):
    """GE_ERRORNO(0b11, 0b11, 0b111, 0xFFU, 0b11111, FAILED, 0xFFFU, "failed"): the value by the
    layout, the message against the code's log_message."""
    text = faithful(GE_API_H)
    assert 'SUCCESS, 0, "success");' in text
    findings, constants = audit_header(llm, "inc/external/" + GE_API_H, text)
    assert not failing(findings), show(findings)
    assert {(c.name, c.value, c.message) for c in constants} >= {
        ("SUCCESS", 0, "success"),
        ("FAILED", 0xFFFFFFFF, "failed"),
    }
    changed = text.replace('"failed"', '"failed, \\"badly\\""')
    findings, _ = audit_header(llm, "inc/external/" + GE_API_H, changed)
    assert [(f.kind, f.field, f.upstream) for f in failing(findings)] == [
        ("text differs", "log_message", 'failed, "badly"')
    ]


# -- every deliberate change is reported once, at its line ---------------------------------------------


@dataclass(frozen=True)
class Change:
    """One edit of a faithful copy, and the one finding it must give."""

    kind: str
    code: str
    line: int
    text: str


def _page_edition(family):
    """An edition with texts and page order whose zh solutions hold bullets and numbered steps."""
    for edition in reversed(family.editions):
        if not (edition.has_texts("zh") and edition.order_known and edition.page.row_names == "python"
                and not edition.malformations):
            continue
        texts = [family.code_by_name[r.code].text("solution", edition.id, "zh") or "" for r in edition.rows]
        if any(t.count("\n- ") >= 1 and t.startswith("- ") for t in texts) and any("\n2. " in t for t in texts):
            return edition
    pytest.fail("no edition's zh solutions hold both bullets and numbered steps")


def _row_span(page: str, fmt: str, edition, index: int) -> tuple[int, int]:
    if fmt == "html":
        return _html_row(page, index)
    family_key = edition.rows[index].code
    start = page.index(f"\n| {family_key} | ") + 1
    return start, page.index("\n", start) + 1


def _row_line(page: str, start: int) -> int:
    return page.count("\n", 0, start) + 1


def _cell_line(page: str, fmt: str, offset: int) -> int:
    """The line a cell starts on: its <td> (HTML), or its row (a pipe table)."""
    return _row_line(page, page.rindex("<td", 0, offset) if fmt == "html" else page.rindex("\n", 0, offset) + 1)


def _find_row(family, edition, test: Callable[[str], bool], field: str = "solution") -> int:
    for index, row in enumerate(edition.rows):
        text = family.code_by_name[row.code].text(field, edition.id, "zh") or ""
        if test(text):
            return index
    pytest.fail(f"{edition.id}: no row's {field} fits the change")


def change_recoverable(family, edition, page, fmt) -> Change:
    index = next(i for i, r in enumerate(edition.rows) if r.recoverable in ("yes", "no"))
    start, end = _row_span(page, fmt, edition, index)
    label, other = ("是", "否") if edition.rows[index].recoverable == "yes" else ("否", "是")
    row = page[start:end]
    cell = f"></a>{label}</p>" if fmt == "html" else f" | {label} | "
    assert row.count(cell) == 1
    return Change("recoverable differs", edition.rows[index].code, _row_line(page, start),
                  page[:start] + row.replace(cell, cell.replace(label, other)) + page[end:])


def drop_row(family, edition, page, fmt) -> Change:
    index = len(edition.rows) // 2
    start, end = _row_span(page, fmt, edition, index)
    return Change("missing upstream", edition.rows[index].code, _row_line(page, start), page[:start] + page[end:])


def add_row(family, edition, page, fmt) -> Change:
    unlisted = [c for c in family.codes if c.name_on(edition.page) and c.name not in edition.row_by_code]
    if not unlisted:
        pytest.skip(f"{edition.id} lists every code of its kind: no row to add")
    index = len(edition.rows) // 2
    start, end = _row_span(page, fmt, edition, index)
    listed = family.code_by_name[edition.rows[index].code].name_on(edition.page)
    new = unlisted[0].name_on(edition.page)
    copy = page[start:end].replace(f">{listed}</p>" if fmt == "html" else f"| {listed} |",
                                   f">{new}</p>" if fmt == "html" else f"| {new} |", 1)
    return Change("missing from catalog", unlisted[0].name, _row_line(page, end), page[:end] + copy + page[end:])


def swap_rows(family, edition, page, fmt) -> Change:
    index = len(edition.rows) // 2
    a_start, a_end = _row_span(page, fmt, edition, index)
    b_start, b_end = _row_span(page, fmt, edition, index + 1)
    assert a_end == b_start
    text = page[:a_start] + page[b_start:b_end] + page[a_start:a_end] + page[b_end:]
    return Change("order differs", edition.rows[index + 1].code, _row_line(page, a_start), text)


def change_a_word(family, edition, page, fmt) -> Change:
    index = _find_row(family, edition, lambda t: bool(re.fullmatch(r"[\u4e00-\u9fffA-Za-z，。]{4,}", t)), "meaning")
    meaning = family.code_by_name[edition.rows[index].code].text("meaning", edition.id, "zh")
    start, end = _row_span(page, fmt, edition, index)
    offset = page.index(meaning, start)
    assert offset < end
    text = page[:offset] + meaning[:-1] + "吗" + page[offset + len(meaning):]
    return Change("text differs", edition.rows[index].code, _cell_line(page, fmt, offset), text)


def drop_a_bullet(family, edition, page, fmt) -> Change:
    index = _find_row(family, edition, lambda t: t.startswith("- ") and "\n- " in t)
    start, end = _row_span(page, fmt, edition, index)
    row = page[start:end]
    if fmt == "html":
        match = re.search(r"<li>((?!<li>).)*?</li>(?=</ul>)", row)
    else:
        match = re.search(r"<br>\s*- ((?!<br>| \|).)*(?=<br>| \|)", row)
    offset = start + match.start()
    text = page[:offset] + page[start + match.end():]
    return Change("structure differs", edition.rows[index].code, _cell_line(page, fmt, offset), text)


def renumber_a_step(family, edition, page, fmt) -> Change:
    index = _find_row(family, edition, lambda t: t.startswith("1. ") and "\n2. " in t)
    start, end = _row_span(page, fmt, edition, index)
    row = page[start:end]
    if fmt == "html":
        match = re.search(r"<ol[^>]*><li>(?:(?!</li>).)*</li>(<li>)", row)
        offset, replaced = start + match.start(1), '<li value="7">'
        text = page[:offset] + replaced + page[offset + len("<li>"):]
    else:
        offset = start + row.index("<br>  2. ")
        text = page[:offset] + "<br>  7. " + page[offset + len("<br>  2. "):]
    return Change("structure differs", edition.rows[index].code, _cell_line(page, fmt, offset), text)


PAGE_CHANGES = [change_recoverable, drop_row, add_row, swap_rows, change_a_word, drop_a_bullet, renumber_a_step]


@pytest.mark.parametrize("fmt", ["html", "pipe"])
@pytest.mark.parametrize("make_change", PAGE_CHANGES, ids=lambda f: f.__name__)
def test_each_change_to_a_page_is_reported_once_at_its_line(llm, make_change, fmt):
    edition = _page_edition(llm)
    page = RENDER[fmt](llm, edition, "zh")
    assert not failing(audit_copy(llm, edition, page))
    change = make_change(llm, edition, page, fmt)
    assert change.text != page
    findings = failing(audit_copy(llm, edition, change.text))
    assert [(f.kind, f.code, f.line) for f in findings] == [(change.kind, change.code, change.line)], show(findings)


def _wrapped_code(family):
    return next(c for c in reversed(family.python_codes)
                if c.wrapper and any(n.header == HEADER_PATHS_BY_HEADER["ge"] for n in c.cpp))


HEADER_PATHS_BY_HEADER = {"ge": "llm_datadist/llm_error_codes.h", "llm_datadist": "llm_datadist/llm_datadist.h"}


def swap_a_wrapper_in_status_py(family, files):
    code, other = _two_wrapped(family)
    text = faithful(STATUS_PY)
    changed = text.replace(f"{code.python_name} = llm_wrapper.{code.wrapper}\n",
                           f"{code.python_name} = llm_wrapper.{other.wrapper}\n", 1)
    return (
        "python",
        changed,
        Change("value differs", code.name, uf.line_of(text, f"{code.python_name} = llm_wrapper"), changed),
    )


def swap_two_members(family, files):
    code, other = _two_wrapped(family)  # other is declared right before code
    text = faithful(STATUS_PY)
    mine = re.search(rf"^    {code.python_name} = .*\n", text, re.M)
    theirs = re.search(rf"^    {other.python_name} = .*\n", text, re.M)
    assert theirs.end() == mine.start()
    changed = text[:theirs.start()] + mine.group() + theirs.group() + text[mine.end():]
    return "python", changed, Change("order differs", code.name, _row_line(text, theirs.start()), changed)


def swap_a_binding(family, files):
    code, other = _two_wrapped(family)
    text = faithful(BINDING)
    mine = re.search(rf'm\.attr\("{code.wrapper}"\) = py::int_\(([\w:]+)\);', text)
    theirs = re.search(rf'm\.attr\("{other.wrapper}"\) = py::int_\(([\w:]+)\);', text).group(1)
    changed = text[:mine.start(1)] + theirs + text[mine.end(1):]
    return "binding", changed, Change("value differs", code.name, _row_line(text, mine.start()), changed)


def _ge_line(family):
    code = _wrapped_code(family)
    text = faithful(ERROR_CODES_H)
    match = re.search(rf"GE_ERRORNO_DEFINE\(([^;]*), {code.c_name}, (\w+)\);", text)
    return code, text, match


def make_ge_argument_change(argument: str):
    def change_ge_argument(family, files):
        code, text, match = _ge_line(family)
        args = [a.strip() for a in match.group(1).split(",")] + [match.group(2)]
        position = GE_ARGUMENTS.index(argument)
        old = c_source.parse_c_int(args[position])
        args[position] = (bin(old ^ 1) if args[position].startswith("0b") else str(old + 1))
        line = f"GE_ERRORNO_DEFINE({', '.join(args[:5])}, {code.c_name}, {args[5]});"
        changed = text[:match.start()] + line + text[match.end():]
        return ERROR_CODES_H, changed, Change("value differs", code.name, _row_line(text, match.start()), changed)
    change_ge_argument.__name__ = f"change_ge_{argument}"
    return change_ge_argument


def make_header_deletion(header: str, namespace: str):
    def delete_a_constant(family, files):
        code = _wrapped_code(family)
        text = faithful(header)
        match = re.search(rf"^.*\b{code.c_name}\b.*\n", text, re.M)
        changed = text[:match.start()] + text[match.end():]
        return header, changed, Change("missing upstream", code.name, _row_line(text, match.start()), changed)
    delete_a_constant.__name__ = f"delete_a_{namespace}_constant"
    return delete_a_constant


SOURCE_CHANGES = (
    [swap_a_wrapper_in_status_py, swap_two_members, swap_a_binding]
    + [make_ge_argument_change(a) for a in GE_ARGUMENTS]
    + [make_header_deletion(ERROR_CODES_H, "ge"), make_header_deletion(DATADIST_H, "llm_datadist")]
)


@pytest.mark.parametrize("make_change", SOURCE_CHANGES, ids=lambda f: f.__name__)
def test_each_change_to_a_source_file_is_reported_once_at_its_line(catalog, llm, tmp_path, make_change):
    """Audited together (status.py, the binding, both headers), as audit --upstream does: a change
    in one file is reported there and not again through the files that use it."""
    where, changed, change = make_change(llm, None)
    if where == "python":
        files = _sources(tmp_path, python=changed)
        path = files["python"]
    elif where == "binding":
        files = _sources(tmp_path, binding=changed)
        path = files["binding"]
    else:
        files = _sources(tmp_path, headers={where: changed})
        path = tmp_path / HEADER_PATHS[where]
    findings = failing(audit_sources(catalog, llm, files))
    got = [(f.kind, f.code, f.line, f.file) for f in findings]
    assert got == [(change.kind, change.code, change.line, str(path))], show(findings)


def test_a_changed_code_2_status_entry_is_reported_at_its_line(catalog, llm, tmp_path):
    code, other = _two_wrapped(llm)
    text = faithful(STATUS_PY)
    entry = f"llm_wrapper.{code.wrapper}: LLMStatusCode.{code.python_name},"
    changed = text.replace(entry, f"llm_wrapper.{code.wrapper}: LLMStatusCode.{other.python_name},", 1)
    assert changed != text
    findings = failing(audit_sources(catalog, llm, _sources(tmp_path, python=changed)))
    got = [(f.kind, f.line, f.field) for f in findings]
    assert got == [("value differs", uf.line_of(text, entry), "code_2_status")], show(findings)


# -- the command line ----------------------------------------------------------------------------------


@pytest.mark.parametrize("option", ["--python", "--binding", "--header", "--page"])
def test_a_file_that_does_not_exist_is_wrong_usage(llm, option):
    edition = next(e for e in llm.editions if e.has_texts("zh"))
    result = run_cli("audit", "--catalog", ROOT / "catalog", "--edition", edition.id, option, "/nonexistent/file.x")
    assert result.code == 2, result
    assert result.out == ""
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and "/nonexistent/file.x" in lines[0] and "no such file" in lines[0], result.err


def test_an_edition_id_two_families_have_asks_for_the_family(catalog, tmp_path):
    """HIXL's and ADXL's pages both have an edition 9.1.0: an ADXL page audited as HIXL's would
    report differences that are not there."""
    shared = sorted({e.id for e in catalog.family_by_id["hixl"].editions} &
                    {e.id for e in catalog.family_by_id["adxl"].editions})
    assert shared
    page = tmp_path / "page.md"
    page.write_text("| a |\n|---|\n", encoding="utf-8")
    for argv in (["audit", "--edition", shared[0], "--page", page], ["diff", shared[0], shared[-1]],
                 ["upstream-page", "--edition", shared[0], "--lang", "zh"]):
        result = run_cli(*argv)
        assert result.code == 2 and f"edition {shared[0]!r} is in several families (hixl, adxl); pass --family " \
            "NAME" in result.err, (argv, result)


def test_audit_python_nonexistent_is_wrong_usage_not_a_difference():
    result = run_cli("audit", "--python", "/nonexistent.py")
    assert result.code == 2 and "difference" not in result.out + result.err, result
    assert result.err.count("\n") == 1 and "/nonexistent.py" in result.err


def test_cli_page_audit_exit_status_and_lines(llm, tmp_path):
    edition = _page_edition(llm)
    page = tmp_path / "LLMStatusCode.md"
    page.write_text(uf.pipe_page(llm, edition, "zh", bom=True), encoding="utf-8")
    result = run_cli("audit", "--catalog", ROOT / "catalog", "--edition", edition.id, "--page", page)
    assert (result.code, result.err) == (0, ""), result
    assert result.out.strip().endswith("no differences") or "0 difference(s)" in result.out

    change = change_recoverable(llm, edition, page.read_text(encoding="utf-8"), "pipe")
    page.write_text(change.text, encoding="utf-8")
    result = run_cli("audit", "--catalog", ROOT / "catalog", "--edition", edition.id, "--page", page)
    assert result.code == 1, result
    assert f"{page}:{change.line}: {change.code}: recoverable differs" in result.out
    assert "1 difference(s)" in result.out

    result = run_cli("audit", "--catalog", ROOT / "catalog", "--edition", edition.id, "--page", page, "--json")
    import json
    data = json.loads(result.out)
    assert result.code == 1 and [(f["kind"], f["line"]) for f in data["findings"] if not f["known"]] == [
        ("recoverable differs", change.line)]


def test_cli_sources_with_binding_and_headers(tmp_path):
    files = _sources(tmp_path)
    result = run_cli("audit", "--catalog", ROOT / "catalog", "--python", files["python"], "--binding", files["binding"],
                     *[a for h in files["headers"] for a in ("--header", h)])
    assert result.code == 0, result
    assert "checked against the catalog's fact" in result.out and "[known]" in result.out


def test_an_unreadable_file_is_a_difference_with_its_line(llm, tmp_path):
    edition = next(e for e in llm.editions if e.has_texts("zh"))
    page = tmp_path / "page.md"
    page.write_bytes(b"# LLMStatusCode\n\xff\xfe not UTF-8\n")
    result = run_cli("audit", "--catalog", ROOT / "catalog", "--edition", edition.id, "--page", page)
    assert (
        result.code == 1
        and f"{page}:2: unreadable (upstream: 'not UTF-8 text: byte 0xFF at byte 1 of the line'; catalog: —)"
        in result.out
    ), result
    source = tmp_path / "status.py"
    source.write_text("class LLMStatusCode(IntEnum):\n    LLM_SUCCESS = (\n")
    result = run_cli("audit", "--catalog", ROOT / "catalog", "--python", source)
    assert result.code == 1 and re.search(rf"{re.escape(str(source))}:\d+: unreadable", result.out), result


def test_a_pipe_cell_is_compared_space_for_space_and_an_html_cell_as_laid_out():
    """The six cells the shared reader once hid: upstream's pipe tables write "说明： 本"."""
    exact = compare_text(
        "p.md", 3, "LLM_X", "solution", "获取。\n说明： 本错误码为预留。", "获取。\n说明：本错误码为预留。", exact=True
    )
    assert [(f.kind, f.line) for f in exact] == [("text differs", 3)]
    assert not compare_text(
        "p.md", 3, "LLM_X", "solution", "获取。\n说明： 本错误码为预留。", "获取。\n说明：本错误码为预留。"
    )
    assert not compare_text("p.md", 3, "LLM_X", "solution", "a  b\n说明： 本", "a b\n说明： 本", exact=True)


def test_the_enums_base_class_is_checked_against_the_release_that_ships_it(llm):
    """hicann/hixl's LLMStatusCode became an IntEnum at 9.1.0-beta.2.pre; an Enum before."""
    [hixl] = [u for u in llm.upstream if u.kind == "python" and u.repo == "hicann/hixl"]
    assert (hixl.base_at("9.1.0-beta.1"), hixl.base_at("9.1.0-beta.2.pre"), hixl.base_at("9.2.0-beta.1")) == (
        "Enum",
        "IntEnum",
        "IntEnum",
    )
    source = faithful(STATUS_PY)  # written as hixl's newest: class LLMStatusCode(IntEnum)
    assert not failing(audit_python(llm, "status.py", source, None, base="IntEnum"))
    found = failing(audit_python(llm, "status.py", source, None, base="Enum"))
    line = uf.line_of(source, "class LLMStatusCode(")
    assert [(f.kind, f.field, f.upstream, f.catalog, f.line) for f in found] == [
        ("value differs", "base class", "IntEnum", "Enum", line)
    ]
