"""`audit` of a documentation page: its rows, recoverability and texts against an edition."""
from __future__ import annotations

import html
import re
from typing import Optional

from generator.upstream import c_source
from generator.domain.codes import Code, hex_value
from generator.domain.editions import Edition
from generator.domain.family import Family
from generator.domain.queries import page_release
from generator.upstream.page_table import TableRow, normalize_text, read_table, recoverable_value
from generator.audit.source_code import expected_line, order_findings
from generator.audit.findings import Finding
from generator.audit.html_cells import compare_cell, html_rows
from generator.upstream.html_parse import TooDeep, TooManyTags, refusal


# -- a documentation page ---------------------------------------------------------------------------------


def audit_page(family: Family, edition: Edition, file: str, source: str) -> list[Finding]:
    page = edition.page
    table = read_table(source, page.headings, is_html=_is_html(file, source))
    findings = [Finding(file, line, "unreadable", upstream=message) for line, message in table.problems
                if not message.startswith("headings")]
    findings += [Finding(file, line, "unknown heading", upstream=message) for line, message in table.problems
                 if message.startswith("headings")]
    if not table.rows:
        return findings
    lang = table.lang or family.languages[0]
    findings += _conflicts(file, edition, table, source)
    # an HTML table's texts are read a second way, by a reader that shares nothing with import's
    try:
        independent = None if table.pipe else html_rows(source, page.headings)
    except (TooDeep, TooManyTags) as error:
        line, message = refusal(error, source)
        return findings + [Finding(file, line, "unreadable", upstream=message)]
    keyed = _row_codes(family, edition, table, file, findings)
    on_page: dict[str, int] = {}  # code -> the line of its row, in the page's order
    for row, code in keyed:
        if code is None:
            continue
        if code.name not in edition.row_by_code:
            findings.append(
                Finding(file, row.line, "missing from catalog", code.name, upstream="listed", catalog="not listed")
            )
        elif code.name in on_page:
            findings.append(
                Finding(
                    file,
                    row.line,
                    "listed twice",
                    code.name,
                    f"again (first at line {on_page[code.name]})",
                    "listed once",
                )
            )
        else:
            on_page[code.name] = row.line
            findings += _row(family, edition, file, row, code, lang, table, independent)
    order = [r.code for r in edition.rows]
    after = max(cell.line for cell in table.rows[-1].cells) + 1 if table.rows[-1].cells else table.rows[-1].line + 1
    for listed in edition.rows:
        if listed.code not in on_page:  # reported where the page would have it
            findings.append(
                Finding(
                    file,
                    expected_line(order, on_page, listed.code, after),
                    "missing upstream",
                    listed.code,
                    upstream="not listed",
                    catalog="listed",
                )
            )
    if edition.order_known:
        findings += order_findings(file, list(on_page), order, on_page)
    findings += _code_blocks(family, edition, file, table)
    return findings


def _is_html(file: str, source: str) -> bool:
    return file.lower().endswith((".html", ".htm")) or source.lstrip("\ufeff \n").lower().startswith(
        ("<!doctype", "<html")
    )


def _conflicts(file: str, edition: Edition, table, source: str) -> list[Finding]:
    if not table.conflicts:
        return []
    line, marker = table.conflicts[0]
    recorded = [m for m in edition.malformations if m.kind == "merge conflict"]
    findings = [Finding(file, line, "merge conflict", upstream=f"{len(table.conflicts)} marker lines, first {marker!r}",
                        catalog="recorded by the edition" if recorded else None, known=bool(recorded))]
    lines = source.split("\n")
    return findings + [f for m in recorded for f in _conflict_record(file, m, lines)]


def _plain(lines: list[str]) -> str:
    """Lines of a page as their characters read, to find a text in: tags dropped, entities read,
    white space dropped (a tag may stand between two words of Chinese, or between two of English)."""
    return "".join(html.unescape(re.sub(r"<[^>]*>", " ", " ".join(lines))).split())


def _conflict_record(file: str, record, lines: list[str]) -> list[Finding]:
    """The edition's record of a merge conflict against the page: its line is a conflict's first
    marker, its sides are the markers' labels in order, and each side's text is upstream's, white
    space aside: the first side's what stands between its markers, the last side's that and the rest
    of the row after the conflict (a browser shows it with that side). The site shows these texts as
    upstream's."""
    def differs(line: int, upstream: str, catalog: str) -> Finding:
        return Finding(file, line, "merge conflict", record.code, upstream=upstream, catalog=catalog,
                       field=record.field)

    start = record.line - 1
    if not (0 <= start < len(lines) and lines[start].startswith("<<<<<<<")):
        shown = repr(lines[start][:60]) if 0 <= start < len(lines) else "no such line"
        return [differs(record.line, shown, f"line {record.line}: the conflict's first marker (<<<<<<<)")]
    middle = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("=======")), None)
    end = next((i for i in range(middle + 1, len(lines)) if lines[i].startswith(">>>>>>>")), None) \
        if middle is not None else None
    if middle is None or end is None:
        return [differs(record.line, "a conflict without its ======= or >>>>>>> line", "a whole conflict")]
    labels = [lines[start][7:].strip(), lines[end][7:].strip()]
    if [label for label, _ in record.sides] != labels:
        return [differs(record.line, f"sides {labels}", f"sides {[label for label, _ in record.sides]}")]
    after = next((i for i in range(end + 1, len(lines)) if "</tr>" in lines[i].lower()), len(lines))
    found = []
    for (label, text), read in zip(record.sides, (lines[start + 1:middle],
                                                  lines[middle + 1:end] + lines[end + 1:after + 1])):
        if "".join(text.split()) != _plain(read):
            found.append(differs(record.line, f"side {label}: {_plain(read)[:80]!r}",
                                 f"side {label}: {text[:80]!r}"))
    return found


def _row_codes(family: Family, edition: Edition, table, file: str,
               findings: list) -> list[tuple[TableRow, Optional[Code]]]:
    """Each row with its code (by any name the code has had: a page shows its release's); a
    name other than the one the edition records is a finding."""
    page = edition.page
    prefix = page.row_prefix if page.row_names == "c" else ""
    by_name = {prefix + name: code for code in family.codes
               for name in (code.python_names if page.row_names == "python" else code.c_names)}
    at = (edition.timeline.repo, page_release(family, edition))  # the values the page was written with
    by_value = {str(value): code for code in family.codes for value in code.values}  # any value it had
    by_value.update((str(code.value_at(*at)), code) for code in family.codes)  # the release's first
    result = []
    for row in table.rows:
        key_cell = row.by_column.get("name")
        key = key_cell.text.strip() if key_cell else ""
        code = by_value.get(key) if page.first_column == "decimal" else by_name.get(key)
        if code is None:
            other = next((c for c in family.codes if key in (c.python_name, c.c_name, str(c.value))), None)
            findings.append(
                Finding(
                    file,
                    row.line,
                    "missing from catalog",
                    key,
                    upstream="listed",
                    catalog=f"{other.name} exists, named otherwise on this page" if other else "no such code",
                )
            )
        shown = edition.name_shown(code.name) if code is not None else None
        if shown is not None and page.first_column != "decimal" and key != shown:
            findings.append(Finding(file, row.line, "name differs", code.name, upstream=key, catalog=shown,  # type: ignore[union-attr]
                                    field="name"))
        result.append((row, code))
    return result


def _row(family: Family, edition: Edition, file: str, row, code: Code, lang: str, table,
         independent: Optional[dict[str, dict[str, str]]] = None) -> list[Finding]:
    findings = []
    known = {m.code for m in edition.malformations}
    if len(row.cells) != len(table.columns):
        findings.append(Finding(file, row.line, "row does not fit", code.name,
                                f"{len(row.cells)} cells", f"{len(table.columns)} columns, as the headings say",
                                known=code.name in known))
    ours = edition.row_by_code[code.name]
    expected = dict(ours.disagreements).get(lang, ours.recoverable)
    cell = row.by_column.get("recoverable")
    value = recoverable_value(family, cell.text if cell else "", lang)
    if cell is not None and expected != "not known" and value != expected:  # no cell: the row does not fit
        findings.append(
            Finding(
                file, row.line, "recoverable differs", code.name, cell.text, family.recoverable_label(expected, lang)
            )
        )
    for field_name in edition.page.text_fields:
        cell = row.by_column.get(field_name)
        if cell is None:
            continue
        entry = code.entry(field_name, edition.id, lang)
        if entry is None:
            continue
        if entry.origin == "translation":
            findings.append(
                Finding(
                    file,
                    cell.line,
                    "translation, not compared",
                    code.name,
                    field=field_name,
                    known=True,
                    catalog="this project's translation",
                )
            )
            continue
        laid_out = (independent or {}).get(edition.name_shown(code.name) or "", {}).get(field_name)
        if laid_out is not None:
            findings += compare_cell(file, cell.line, code.name, field_name, _without_markers(laid_out), entry.text)
            continue
        theirs = _without_markers(cell.text)
        findings += compare_text(file, cell.line, code.name, field_name, theirs, entry.text, exact=table.pipe)
    return findings


def _without_markers(text: str) -> str:
    return "\n".join(line for line in text.split("\n") if not re.match(r"^(<{7}|={7}|>{7})(?: |$)", line))


# -- texts ---------------------------------------------------------------------------------------------------

_MARKER = re.compile(r"^(- |\d{1,9}\. )")


def structure(text: str) -> list[str]:
    """Each line's kind: "p", "-" (a bullet) or "N." (a numbered step)."""
    kinds = []
    for line in normalize_text(text).split("\n"):
        match = _MARKER.match(line)
        kinds.append("p" if not match else "-" if match.group(1) == "- " else match.group(1).strip())
    return kinds


def words(text: str) -> str:
    """A text as compared across markup: no line markers, no space beside CJK, single spaces."""
    lines = [_MARKER.sub("", line) for line in normalize_text(text).split("\n")]
    joined = re.sub(r"\s+", " ", " ".join(lines)).strip()
    return re.sub(r"\s*([\u3000-\u303f\uff00-\uffef\u3400-\u9fff])\s*", r"\1", joined)


def compare_text(file: str, line: int, code: str, field_name: str, theirs: str, ours: str,
                 exact: bool = False) -> list[Finding]:
    """One finding at most: a change of structure (a bullet dropped, a step renumbered), else of words.
    `exact` (a pipe table's cell, whose every space is typed and shown): of every character but
    runs of white space; otherwise as the words a browser lays out."""
    a, b = structure(theirs), structure(ours)
    if a != b:
        return [Finding(file, line, "structure differs", code, " ".join(a), " ".join(b), field=field_name)]
    if (_spaced(theirs) != _spaced(ours)) if exact else (words(theirs) != words(ours)):
        return [Finding(file, line, "text differs", code, theirs, ours, field=field_name)]
    return []


def _spaced(text: str) -> str:
    return "\n".join(" ".join(line.split()) for line in text.split("\n") if line.strip())


def _code_blocks(family: Family, edition: Edition, file: str, table) -> list[Finding]:
    """The constants a C++ page declares in its code block, against the catalog's names and values
    at the edition's release (a page shows its release's)."""
    findings = []
    at = (edition.timeline.repo, page_release(family, edition))  # the values the page was written with
    by_name = {name: code for code in family.c_codes for name in code.c_names}
    by_name.update({n.short: code for code in family.codes for n in code.cpp})
    for block in table.code_blocks:
        constants, _ = c_source.read_header(block.text, family.value_layouts)
        for constant in constants:
            code = by_name.get(constant.name)
            if code is None or constant.value is None:
                if code is None and constant.type != "#define":
                    findings.append(Finding(file, block.line + constant.line - 1, "missing from catalog", constant.name,
                                            upstream=hex_value(constant.value) if constant.value is not None else None,
                                            field="code block"))
                continue
            if constant.value != code.value_at(*at):
                findings.append(Finding(file, block.line + constant.line - 1, "value differs", code.name,
                                        hex_value(constant.value), hex_value(code.value_at(*at)), field="code block"))
    return findings
