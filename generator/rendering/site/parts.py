"""What several kinds of page share: the page's frame (front matter, banner, headings) and
the cells that say what an edition says about a code (its recoverability, its texts)."""
from __future__ import annotations

import json
from typing import Optional

from generator.rendering.escape import html_in_markdown as esc, md_inline
from generator.domain.codes import Code
from generator.domain.family import Family
from generator.domain.model import PROPOSED, UNTRANSLATED, Page
from generator.rendering.site import svg
from generator.rendering.site.context import Context, markdown_banner

# The id of every page's title, the same in every language; the hyphen keeps it apart from
# the rows' anchors (a code's lower-case name).
TITLE_ID = "page-title"


def front_matter(title: str, hide_toc: bool = False) -> str:
    """The page's title, escaped for HTML: MkDocs themes put it into <title> and the navigation as it is."""
    hide = "hide:\n  - toc\n" if hide_toc else ""
    return f"---\ntitle: {json.dumps(esc(title), ensure_ascii=False)}\n{hide}---\n"


def page(title: str, stamp: str, body: list[str], hide_toc: bool = False) -> str:
    """A page; hide_toc for a page with no sections, whose table takes the table of contents' room."""
    head = front_matter(title, hide_toc) + markdown_banner(stamp) + "\n\n"
    return head + "\n\n".join(p for p in body if p) + "\n"


def heading(level: int, text: str, ident: str, tail_html: str = "") -> str:
    """A Markdown heading with a stable id, the same in every language; its text escaped
    for Markdown (a `*` or `[` in a name stays a character) and for HTML. `tail_html`:
    HTML written after the text (already escaped)."""
    return f"{'#' * level} {md_inline(text)}{tail_html} {{#{ident}}}"


def listable_pages(family: Family, code: Code) -> list[Page]:
    return [p for p in family.pages if code.name_on(p) is not None]


def recoverable_html(ctx: Context, family: Family, value: Optional[str], disagreements, words: bool = False) -> str:
    """A 是否可恢复 cell: upstream's word (with what it means in words, for `words`), and where
    another language's page says otherwise."""
    shown = ctx.recoverable(value, family)
    if words and value is not None:
        shown = ctx.label(f"recoverable_words_{svg.RECOVERABLE_STATE[value]}").replace("{value}", shown)
    state = svg.RECOVERABLE_STATE[value] if value is not None else "absent"
    html = f'<span class="recoverable st-{state}">{esc(shown)}</span>'
    for lang, other in disagreements:
        note = ctx.label("disagreement").replace("{lang}", ctx.site.language_names.get(lang) or lang) \
            .replace("{value}", family.recoverable_label(other, lang) if other is not None else "—")
        html += f'<br><small class="disagreement">{esc(note)}</small>'
    return html


def text_cell(ctx: Context, text: Optional[str], origin: Optional[str]) -> str:
    from generator.rendering.site.html import text_html

    if text is None:
        return f'<em class="not-known">{esc(ctx.label("text_not_known"))}</em>'
    # a mark says whose words a text is: a bare "-" has none to mark
    marked = origin in (UNTRANSLATED, PROPOSED, "translation") and any(c.isalnum() for c in text)
    return text_html(text) + (origin_mark(ctx, origin) if marked else "")  # type: ignore[arg-type]


_MARKS = {"translation": ("translation", ""), UNTRANSLATED: ("untranslated", " untranslated"),
          PROPOSED: ("proposed", " proposed")}


def origin_mark(ctx: Context, origin: str) -> str:
    """What marks a text that is not upstream's released words, wherever the site shows one (the
    page's note says what each mark means)."""
    label, extra = _MARKS[origin]
    return f' <span class="translation{extra}">({esc(ctx.label(label))})</span>'


def translation_mark(ctx: Context) -> str:
    """What marks a text this project translated, wherever the site shows one."""
    return origin_mark(ctx, "translation")


def json_script(value, ident: str, cls: str = "") -> str:
    """Data for the page's script: JSON in a <script> element, where no `<`, `>` or `&` of a
    catalog text can end the element or open a comment, and no character that Markdown reads as
    a line's end (str.splitlines: U+0085, U+2028, U+2029) breaks a string in two."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    text = text.replace("\x85", "\\u0085").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    klass = f' class="{esc(cls)}"' if cls else ""
    return f'<script type="application/json" id="{esc(ident)}"{klass}>{text}</script>'
