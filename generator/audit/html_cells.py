"""The cells of an HTML-era page as a browser lays them out, read from html5lib's tree alone.

`audit` compares an HTML table's texts through this reader, which shares nothing with
upstream.page_table (the reader `import` uses): a misreading of the page can then no longer be
made by both and hidden by their agreement. What a browser shows is what counts: a `<br>`
or a block (`p`, `div`, a list) starts a line, an `li` is a bullet ("- ") or, in an `ol`, a
numbered step ("1. "), even where upstream left out the list around it (a browser still
draws the marker), white space collapses to one space, and empty lines are not seen. A note
(`div.note`: a `notetitle`, then a `notebody` block) is two lines, "说明：" and its body, as a
browser shows it.
"""
from __future__ import annotations

import re
from typing import Optional
from xml.etree.ElementTree import Element

from generator.audit.findings import Finding
from generator.upstream.html_parse import parse_html

_BLOCKS = frozenset({"p", "div", "ul", "ol", "table", "tr", "pre", "blockquote", "dl", "dt", "dd",
                     "h1", "h2", "h3", "h4", "h5", "h6"})
_SKIPPED = frozenset({"script", "style", "title"})
_SPACE = re.compile(r"[ \t\n\r\f]+")
_MARK = re.compile(r"^(- |\d{1,9}\. )")
_CJK = re.compile(r"\s*([\u3000-\u303f\uff00-\uffef\u3400-\u9fff])\s*")


class _Lines:
    def __init__(self) -> None:
        self.lines: list[str] = [""]

    def add(self, text: Optional[str]) -> None:
        if text:
            self.lines[-1] += text

    def end(self) -> None:
        if self.lines[-1].strip():
            self.lines.append("")
        else:
            self.lines[-1] = ""

    def text(self) -> str:
        return "\n".join(line for line in (_SPACE.sub(" ", raw).strip() for raw in self.lines) if line)


def _open(element: Element, out: _Lines, in_ol: bool, counter: list[int]) -> Optional[tuple]:
    """Lay out an element's start and text; what its children are walked with (None: skipped)."""
    tag = element.tag if isinstance(element.tag, str) else ""
    if tag in _SKIPPED:
        return None
    if tag == "br":
        out.end()
    elif tag == "li":
        out.end()
        if in_ol:
            value = (element.get("value") or "").strip()
            counter[0] = int(value) if value.isdigit() and len(value) <= 9 else counter[0] + 1  # <li value="7">
            out.add(f"{counter[0]}. ")
        else:
            out.add("- ")
    elif tag in _BLOCKS:
        out.end()
    out.add(element.text)
    numbered = tag == "ol" or (in_ol and tag != "ul")
    return numbered, [0] if tag in ("ol", "ul") else counter


def _close(element: Element, out: _Lines) -> None:
    tag = element.tag if isinstance(element.tag, str) else ""
    if tag in _BLOCKS or tag == "li":
        out.end()


def cell_text(element: Element) -> str:
    """The cell's text, walked with a stack of its own: an element nested thousands deep costs
    its share of the time, never Python's recursion limit."""
    out = _Lines()
    todo: list = [(element, False, [0], None)]  # (element, in_ol, counter, tail), or a closing
    while todo:
        item = todo.pop()
        if item[0] == "close":
            _close(item[1], out)
            out.add(item[2])
            continue
        node, in_ol, counter, tail = item
        inner = _open(node, out, in_ol, counter)
        if inner is None:
            out.add(tail)
            continue
        todo.append(("close", node, tail))
        todo.extend((child, *inner, child.tail) for child in reversed(node))
    return out.text()


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def html_rows(source: str, headings: dict[str, dict[str, tuple[str, ...]]]) -> dict[str, dict[str, str]]:
    """Each row of the page's status table, by the text of its first cell -> {column: text},
    the columns told by the header cells' texts against the page's headings."""
    document = parse_html(source)
    wanted = {_SPACE.sub(" ", text).strip().casefold(): column
              for column, per_lang in headings.items() for texts in per_lang.values() for text in texts}
    for table in document.iter("table"):
        rows = [tr for tr in table.iter("tr")]
        if not rows:
            continue
        header = [cell_text(c).casefold() for c in rows[0] if _local(c.tag) in ("td", "th")]
        columns = [wanted.get(text) for text in header]
        if "name" not in columns:
            continue
        result: dict[str, dict[str, str]] = {}
        for tr in rows[1:]:
            cells = [cell_text(c) for c in tr if _local(c.tag) in ("td", "th")]
            row = {column: text for column, text in zip(columns, cells) if column is not None}
            if row.get("name"):
                result.setdefault(row["name"], row)
        return result
    return {}


def _kinds(text: str) -> list[str]:
    kinds = []
    for line in text.split("\n"):
        match = _MARK.match(line.strip())
        kinds.append("p" if not match else "-" if match.group(1) == "- " else match.group(1).strip())
    return kinds


def _words(text: str) -> str:
    joined = _SPACE.sub(" ", " ".join(_MARK.sub("", line.strip()) for line in text.split("\n"))).strip()
    return _CJK.sub(r"\1", joined)


def compare_cell(file: str, line: int, code: str, field_name: str, theirs: str, ours: str) -> list[Finding]:
    """One finding at most: the lines' kinds (a bullet a browser draws that the catalog lacks),
    else the words as laid out."""
    a, b = _kinds(theirs), _kinds(ours)
    if a != b:
        return [Finding(file, line, "structure differs", code, " ".join(a), " ".join(b), field=field_name)]
    if _words(theirs) != _words(ours):
        return [Finding(file, line, "text differs", code, theirs, ours, field=field_name)]
    return []
