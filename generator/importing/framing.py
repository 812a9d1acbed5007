"""A pipe-table page's framing and dialect, read from upstream's file: what a new version's
source records as `page` (editions.yaml) so that `upstream-page` writes the file back.

The file is read as upstream writes these pages: an optional byte-order mark, a `# ` title,
blocks separated by blank lines (paragraphs, and fenced code blocks whose lines list the
codes), one pipe table, more blocks. A code block is recorded as the template that derives
it from the codes (the previous version's, or one read off its lines) when that template
writes it back exactly, else as the paragraph it is. The caller checks the whole file is
written back byte for byte, and says so when it is not.
"""
from __future__ import annotations

import re
from typing import Optional, Union

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from generator.domain.codes import Code
from generator.domain.family import Family
from generator.domain.layout import HEADING, CodeBlock, PageLayout, code_block_text, headings, section_end
from generator.domain.model import Page
from generator.importing import catalog_yaml as cy

BOM = "\ufeff"
Block = Union[str, CodeBlock]


def read_framing(text: str, family: Family, page: Page, rows: list[tuple[str, str]], lang: str,
                 previous: Optional[PageLayout]) -> Optional[PageLayout]:
    """The framing of a pipe-table page (`rows`: (name shown, code) per table row, in order),
    or None when the file is not one page of one pipe table, or a section holding one (a heading
    of level 2 or lower, to the next heading of its level or higher)."""
    bom = text.startswith(BOM)
    lines = (text[1:] if bom else text).split("\n")
    if lines[0].startswith("# ") and lines[-1] == "":
        whole = _framing(lines, 1, bom, family, page, rows, lang, previous)
        if whole is not None:
            return whole
    section = _section(lines, rows)
    heading = HEADING.match(section[0]) if section is not None else None
    return None if section is None or heading is None else _framing(section, len(heading.group(1)), False, family,
                                                                    page, rows, lang, previous)


def _section(lines: list[str], rows: list[tuple[str, str]]) -> Optional[list[str]]:
    """The lines of the section (a heading of level 2 or lower, to the next of its level or
    higher) that holds the table whose first row names the first of `rows`; a blank line
    after the last, as a file's lines end."""
    if not rows:
        return None
    table = next((i for i in range(len(lines) - 2) if lines[i].startswith("|") and lines[i + 2].startswith("|")
                  and re.split(r"(?<!\\)\|", lines[i + 2])[1].strip() == rows[0][0]), None)
    above = [(i, level) for i, level in headings(lines) if table is not None and i < table]
    if not above or above[-1][1] < 2:
        return None
    start = above[-1][0]
    end = section_end(lines, start)
    return lines[start:end] + ([""] if end < len(lines) else [])


def _framing(lines: list[str], level: int, bom: bool, family: Family, page: Page, rows: list[tuple[str, str]],
             lang: str, previous: Optional[PageLayout]) -> Optional[PageLayout]:
    """The framing of a page's lines (a whole file's, or a section's): its heading of `level`,
    blocks, one pipe table, blocks; the lines end with an empty one (the file's last newline)."""
    if not lines[0].startswith("#" * level + " ") or lines[-1] != "":
        return None
    body = lines[1:-1]
    blank_after = 0
    while body and body[-1] == "":
        body, blank_after = body[:-1], blank_after + 1
    start = next((i for i, line in enumerate(body) if line.startswith("|")), None)
    if start is None:
        return None
    end = next((i for i in range(start, len(body)) if not body[i].startswith("|")), len(body))
    table = body[start:end]
    style = _style(table[0])
    if style is None or len(table) < 2:
        return None
    codes = [family.code_by_name[code] for _, code in rows]
    old = list(previous.before + previous.after) if previous is not None else []
    before = _blocks(body[:start], family, codes, old)
    after = _blocks(body[end:], family, codes, old)
    if before is None or after is None:
        return None
    cells = [_cells(line, style) for line in table[2:]]
    if rows and (not cells or cells[0][0].strip() != rows[0][0]):
        return None  # the first table is another one (a larger page's): not this page's table
    recoverable = [row[column] for row in cells if (column := page.columns.index("recoverable")) < len(row)] \
        if "recoverable" in page.columns else []
    return PageLayout(lines[0][level + 1:], tuple(before), tuple(after), style, tuple(_cells(table[0], style)),
                      _labels(family, recoverable, lang, previous), _note(table[2:], previous),
                      tuple(c[0] for c, line in zip(cells, table[2:]) if not line.endswith("|")), bom, level,
                      blank_after)


def _style(header: str) -> Optional[str]:
    if header.startswith("| ") and header.endswith(" |"):
        return "spaced"
    if header.startswith("| ") or re.match(r"^\|[^|]*\| ", header):
        return "mixed"
    if header.startswith("|") and not header.startswith("| "):
        return "tight"
    return None


def _cells(line: str, style: str) -> list[str]:
    """A row's cells as upstream wrote them (a pipe inside a cell is escaped: \\|)."""
    inner = line[1:-1] if line.endswith("|") else line[1:]
    cells = re.split(r"(?<!\\)\|", inner)
    return [c.strip(" ") if style != "tight" else c for c in cells]


def _blocks(lines: list[str], family: Family, codes: list[Code], old: list[Block]) -> Optional[list[Block]]:
    """The blocks between blank lines: each a paragraph as written, or a code block."""
    text = "\n".join(lines).strip("\n")
    if not text:
        return []
    return [_code_block(chunk, family, codes, old) if chunk.startswith("```") else chunk
            for chunk in re.split(r"\n\n(?=\S)", text)]


def _code_block(chunk: str, family: Family, codes: list[Code], old: list[Block]) -> Block:
    """A fenced block of the codes as a template that writes it back, else as written."""
    for candidate in [b for b in old if isinstance(b, CodeBlock)] + _inferred(chunk, family, codes):
        if render_code_block(family, codes, candidate) == chunk:
            return candidate
    return chunk


def _inferred(chunk: str, family: Family, codes: list[Code]) -> list[CodeBlock]:
    """Templates read off a code block's lines: the lines naming a code between open and close."""
    lines = chunk.split("\n")
    if len(lines) < 3 or lines[-1] != "```":
        return []
    names = {c.c_name for c in family.codes if c.c_name}
    inner = lines[1:-1]
    listed = [i for i, line in enumerate(inner) if any(re.search(rf"\b{n}\b", line) for n in names)]
    if not listed:
        return []
    first, last = listed[0], listed[-1]
    sample = inner[first]
    code = next(c for c in family.codes if c.c_name and re.search(rf"\b{c.c_name}\b", sample))
    literal = f"0x{code.value:X}" if family.c.literals == "hex" else str(code.value)
    line = sample.replace("{", "{{").replace("}", "}}").replace(code.c_name or "", "{name}", 1)
    line = _replace_last(line, literal, "{literal}") if literal in line else \
        _replace_last(line, str(code.value & 0xFFF), "{low}")
    by_name = {c.c_name: c for c in family.codes if c.c_name}
    declared = re.compile(r"\b[A-Z][A-Z0-9_]*\b(?=[^A-Za-z0-9_]*(?:=|,))")  # the name a line declares
    shown = [by_name[m.group()] for ln in inner for m in [declared.search(ln)] if m and m.group() in by_name]
    values = None if [c.name for c in shown] == [c.name for c in codes] else \
        (min(c.value for c in shown), max(c.value for c in shown))
    return [CodeBlock(lines[0][3:], tuple(inner[:first]), line, tuple(inner[last + 1:]), values)]


def _replace_last(text: str, old: str, new: str) -> str:
    head, found, tail = text.rpartition(old)
    return head + new + tail if found else text


def render_code_block(family: Family, codes: list[Code], block: CodeBlock) -> str:
    """A code block as upstream_page writes it, for the table's codes (or a range of values)."""
    listed = [(c.c_name or "", c.value) for c in codes] if block.values is None else \
        [(c.c_name, c.value) for c in family.codes if c.c_name]
    return code_block_text(block, listed, family.c.literals == "hex")


def _labels(family: Family, cells: list[str], lang: str,
            previous: Optional[PageLayout]) -> tuple[tuple[str, str], ...]:
    """The recoverable words (`cells`: the 是否可恢复 column) the page writes otherwise than the
    family's first label."""
    words = dict(previous.labels) if previous is not None else {}
    for value, per_lang in family.recoverable_labels.items():
        for word in per_lang.get(lang, ())[1:]:
            if word in cells:
                words[value] = word
    return tuple((v, w) for v, w in words.items())


def _note(rows: list[str], previous: Optional[PageLayout]) -> Optional[str]:
    if previous is not None and previous.note is not None:
        return previous.note
    found = re.search(r"<br> (说明：|Note:|Note：|注意：)", "\n".join(rows))
    return found.group(1) if found else None


# -- as editions.yaml writes it -------------------------------------------------------------------------------

HEADER_ON_ONE_LINE = 80  # a header whose flow sequence is longer is a block list (a source's page writes it at 12)


def layout_map(layout: PageLayout) -> CommentedMap:
    """`page`: a framing as a source of editions.yaml writes it (every text through the writer)."""
    page = CommentedMap([("title", cy.text(layout.title))])
    if layout.note is not None:
        page["note"] = cy.text(layout.note)
    for key, blocks in (("before", layout.before), ("after", layout.after)):
        if blocks:
            page[key] = CommentedSeq(_block(block) for block in blocks)
    page["table"] = layout.table
    header = cy.flow(layout.header)
    page["header"] = header if cy.one_line_width(header) <= HEADER_ON_ONE_LINE else \
        CommentedSeq(cy.text(h) for h in layout.header)
    if layout.labels:
        page["labels"] = cy.flow_map(layout.labels)
    if layout.unclosed:
        page["unclosed"] = CommentedSeq(cy.text(u) for u in layout.unclosed)
    if layout.bom:
        page["bom"] = True
    if layout.level != 1:
        page["level"] = layout.level
    if layout.blank_after:
        page["blank_after"] = layout.blank_after
    return page


def _block(block: Block) -> object:
    """A paragraph as it is written, or {code: ...}."""
    if isinstance(block, str):
        return cy.cell(block)
    code = CommentedMap()
    if block.fence:
        code["fence"] = cy.text(block.fence)
    if block.open:
        code["open"] = CommentedSeq(cy.text(v) for v in block.open)
    if block.close:
        code["close"] = CommentedSeq(cy.text(v) for v in block.close)
    code["line"] = cy.text(block.line)
    if block.values is not None:
        code["values"] = cy.flow(block.values)
    return CommentedMap([("code", code)])
