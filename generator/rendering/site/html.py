"""HTML fragments for the site's pages: every catalog text goes through `esc` or `text_html`."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable, Optional, Sequence

from generator.rendering.escape import html_in_markdown as esc
from generator.domain.blocks import blocks

# A URL in a text, up to a space, a quote, an angle bracket or closing CJK punctuation.
URL_PATTERN = re.compile(r"https?://[^\s<>\"'`）)》，。、；]+")
# An underscore inside an identifier (transfer_cache_async): a line may break after it.
IDENTIFIER_JOIN = re.compile(r"(?<=[A-Za-z0-9])_(?=[A-Za-z0-9])")
# Where a URL may break: after a slash, a dot, an underscore, a hyphen, ? & = #.
URL_JOIN = re.compile(r"([/._\-?&=#]+)(?=[^/._\-?&=#])")


def breakable(text: str) -> str:
    """Escaped prose whose identifiers may wrap after their underscores (and nowhere else)."""
    return IDENTIFIER_JOIN.sub("_<wbr>", esc(text))


def _breakable_url(url: str) -> str:
    return "".join(f"{esc(part)}<wbr>" if index % 2 else esc(part) for index, part in enumerate(URL_JOIN.split(url)))


def autolink(text: str) -> str:
    """Escaped text whose URLs are links (that wrap at their slashes and dots)."""
    out, last = [], 0
    for match in URL_PATTERN.finditer(text):
        url = match.group().rstrip(".,;:")
        end = match.start() + len(url)
        out.append(breakable(text[last:match.start()]))
        out.append(f'<a href="{esc(url)}" rel="noopener">{_breakable_url(url)}</a>')
        last = end
    out.append(breakable(text[last:]))
    return "".join(out)


@lru_cache(maxsize=1 << 14)  # a text is shown on its code's page, its editions' pages, in every comparison
def text_html(text: str) -> str:
    """A catalog text as HTML: paragraphs, bullets and numbered steps, URLs linked."""
    parts = []
    for block in blocks(text):
        if block.kind == "p":
            parts.append("".join(f"<p>{autolink(line)}</p>" for line in block.items))
        else:
            start = f' start="{block.start}"' if block.kind == "ol" and block.start != 1 else ""
            parts.append(f"<{block.kind}{start}>" + "".join(f"<li>{autolink(i)}</li>" for i in block.items)
                         + f"</{block.kind}>")
    return "".join(parts)


def link(href: str, label_html: str, cls: str = "") -> str:
    klass = f' class="{cls}"' if cls else ""
    return f'<a href="{esc(href)}"{klass}>{label_html}</a>'


@lru_cache(maxsize=1 << 14)
def code_html(name: str, copy: bool = True) -> str:
    """An identifier that wraps at underscores only, with a copy button's hook."""
    wbr = esc(name).replace("_", "_<wbr>")  # escaping never writes an underscore
    klass = ' class="copyable"' if copy else ""
    return f"<code{klass}>{wbr}</code>"


def table(columns: Sequence[tuple[str, str]], rows: Iterable[tuple[Optional[str], Sequence[str]]], cls: str) -> str:
    """A table whose cells carry their column's label (data-label), so that CSS can stack
    rows into cards on a phone. columns: (key, escaped label); rows: (row id, cells html).
    The roles keep it a table for screen readers when CSS lays its rows out otherwise."""
    start, end = table_ends(columns, cls)
    return start + table_rows(columns, rows) + end


def table_ends(columns: Sequence[tuple[str, str]], cls: str) -> tuple[str, str]:
    """What comes before and after a table's rows (for a table built in pieces)."""
    head = "".join(f'<th class="col-{key}" role="columnheader">{label}</th>' for key, label in columns)
    return (
        f'<div class="table-wrap"><table class="{cls}" role="table"><thead role="rowgroup"><tr '
        f'role="row">{head}</tr></thead>'
        '<tbody role="rowgroup">',
        "</tbody></table></div>",
    )


def table_rows(columns: Sequence[tuple[str, str]], rows: Iterable[tuple[Optional[str], Sequence[str]]]) -> str:
    labels = [(key, _attr_label(label)) for key, label in columns]
    body = []
    for row_id, cells in rows:
        ident = f' id="{esc(row_id)}"' if row_id else ""
        tds = "".join(f'<td class="col-{key}" role="cell" data-label="{label}">{cell}</td>'
                      for (key, label), cell in zip(labels, cells))
        body.append(f'<tr{ident} role="row">{tds}</tr>')
    return "".join(body)


def _attr_label(label_html: str) -> str:
    """A column label (already escaped HTML) as an attribute value: tags dropped, quotes escaped."""
    return re.sub(r"<[^>]*>", "", label_html).replace('"', "&quot;")


def details(summary_html: str, body_html: str, open_: bool = False) -> str:
    return f'<details{" open" if open_ else ""}><summary>{summary_html}</summary>{body_html}</details>'


def admonition(kind: str, title: str, body_html: str) -> str:
    return (f'<div class="admonition {esc(kind)}"><p class="admonition-title">{esc(title)}</p>'
            f"{body_html}</div>")
