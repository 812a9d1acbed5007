"""Escaping per target language: each output gets text through exactly one of these.

The rules depend on nothing but the code point, never on the running Python's
Unicode database, so the same catalog gives the same bytes everywhere.
"""
from __future__ import annotations

import html as _html
import json
import re
from functools import lru_cache

# Python literals keep readable: printable ASCII, Latin-1 letters and signs,
# general punctuation (dashes, quotes, bullet), CJK symbols, ideographs and
# full-width forms. Everything else (invisible marks, separators, emoji,
# backslash and the quote) is escaped.
_PY_ESCAPE = re.compile(
    "[^\x20-\x7e\xa1-\xac\xae-\xff\u2010-\u2027\u2030-\u205e\u3001-\u303f\u4e00-\u9fff\uff01-\uff60]|[\\\\\"]"
)
_PY_NAMED = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t"}


def _py_escape(match: re.Match) -> str:
    char = match.group()
    if char in _PY_NAMED:
        return _PY_NAMED[char]
    code = ord(char)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def py_str(text: str) -> str:
    """A double-quoted Python literal that evaluates to exactly `text`."""
    return '"' + _PY_ESCAPE.sub(_py_escape, text) + '"'


def py_opt(text: str | None) -> str:
    return "None" if text is None else py_str(text)


def py_doc(text: str) -> str:
    """Text for the inside of a triple-quoted docstring: every backslash and quote
    escaped (so nothing can end the string, and \\N{...} means nothing), line
    breaks kept, every other character as py_str writes it."""
    return "\n".join(py_str(line)[1:-1] for line in text.split("\n"))


# What a compiler, an editor or a terminal would obey rather than show: C0 and C1 controls
# (a carriage return ends a line for a C compiler; ESC starts a terminal's sequence), DEL, the
# marks that reorder or hide text (bidirectional controls, zero-width characters), line and
# paragraph separators, and lone surrogates.
_OBEYED = "\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\ud800-\udfff"
# In a comment: `*/` and `/*`, a `?` that starts a trigraph (??/ is a backslash), a backslash
# that ends a line (translation phase 2 joins it and the newline, before comments are seen:
# `*\` + newline + `/` would close the comment), and what the compiler or an editor obeys.
_C_COMMENT = re.compile(r"\*/|/\*|\?(?=\?)|\\(?=\s*\Z)|[" + _OBEYED + "]")


def _c_comment_piece(match: re.Match) -> str:
    piece = match.group()
    if piece in ("*/", "/*", "?"):
        return {"*/": "*\\/", "/*": "/\\*", "?": "?\\"}[piece]
    return f"<U+{ord(piece):04X}>"  # as GCC names a character it warns about


def c_comment(text: str) -> str:
    """Text for the inside of a /* */ comment, safe as written and after translation phases 1-2:
    no `*/` or `/*` forms, nor a trigraph; no line ends in a backslash; a line break goes on
    with ` * `; a control or bidirectional character is written as <U+202E>."""
    lines = [_C_COMMENT.sub(_c_comment_piece, line) for line in text.split("\n")]
    return lines[0] + "".join("\n *" + (" " + line if line else "") for line in lines[1:])


_C_ESCAPE = re.compile(rb'[^\x20-\x7e]|[\\"?]')
_C_NAMED = {b"\\": b"\\\\", b'"': b'\\"', b"?": b"\\?", b"\n": b"\\n", b"\t": b"\\t"}


def c_str(text: str) -> str:
    """A C/C++ string literal of the UTF-8 bytes of `text`.

    `?` is always escaped so that no trigraph (`??=`) can form; other bytes
    outside printable ASCII become three-digit octal escapes, which, unlike
    hex escapes, never swallow the character that follows.
    """
    body = _C_ESCAPE.sub(lambda m: _C_NAMED.get(m.group()) or b"\\%03o" % m.group()[0], text.encode("utf-8"))
    return '"' + body.decode("ascii") + '"'


_HTML_SPECIAL = re.compile("[&<>\"']")


def html_text(text: str) -> str:
    """Text for HTML element content or a quoted attribute."""
    if _HTML_SPECIAL.search(text) is None:  # most texts: nothing to escape (a search costs less than five replaces)
        return text
    return _html.escape(text, quote=True)


def html_in_jinja(text: str) -> str:
    """Text for HTML inside a template that MkDocs renders with Jinja (the theme's overrides):
    escaped for HTML, and no brace left to open a {{ }}, {% %} or {# #}."""
    return html_text(text).replace("{", "&#123;").replace("}", "&#125;")


@lru_cache(maxsize=1 << 16)  # the site's pages escape the same names, ids and labels over and over
def html_in_markdown(text: str) -> str:
    """Text for HTML inside a Markdown page (the site's pages): escaped for HTML, and inert as
    Markdown wherever the parser reads the HTML around it as Markdown (a paragraph, a <span>
    that starts no raw block): no link, image or reference ([) and no attribute list ({) can
    form. Character references, which HTML and Markdown both read as the character."""
    return html_in_jinja(text).replace("[", "&#91;").replace("]", "&#93;")


def html_comment(text: str) -> str:
    """Text inside an HTML comment (<!-- -->), which may not hold `--`."""
    return text.replace("--", "- -")


def json_in_script(value) -> str:
    """A value as JSON inside a <script type="application/json"> of a Markdown page: no `<`, `>`
    or `&` (no </script>, no comment opened), and no character that Markdown reads as a line's
    end (str.splitlines: U+0085, U+2028, U+2029) that could break a string in two."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return text.replace("\x85", "\\u0085").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def html_read_as_html(text: str) -> str:
    """Text for an HTML attribute whose value a script then inserts as HTML (Material's header
    tooltips set an element's title as innerHTML): & and < escaped once more under the
    attribute's own escaping, so that what the script reads is still inert."""
    return html_text(text.replace("&", "&amp;").replace("<", "&lt;"))


def json_in_jinja(value) -> str:
    """A value as JSON inside a <script> of a template that MkDocs renders with Jinja: no <
    (no </script>), and no brace that opens a {{ }}, {% %} or {# #} (JSON's own braces never
    do: a key follows each; one inside a string is written as \\u007b)."""
    text = json.dumps(value, ensure_ascii=True, sort_keys=True, separators=(",", ":"))
    return re.sub(r"\{(?=[{%#])", r"\\u007b", text).replace("<", "\\u003c")


# Inline Markdown syntax (Python-Markdown with tables and attr_list): backslash
# escapes where Markdown defines them, entities for HTML and the table's pipe.
_MD_INLINE = {
    "\\": "\\\\", "`": "\\`", "*": "\\*", "_": "\\_", "[": "\\[", "]": "\\]", "{": "\\{", "}": "\\}",
    "<": "&lt;", ">": "&gt;", "&": "&amp;", "|": "&#124;", "\t": "&#9;",
    # Unicode line and paragraph separators: some Markdown tools break lines at them.
    "\u2028": "&#8232;", "\u2029": "&#8233;",
}
_MD_ESCAPE = re.compile("[\\\\`*_\\[\\]{}<>&|\t\u2028\u2029]")
# Block syntax that only counts at the start of a line (headings, lists,
# quotes, setext underlines, indented code, admonitions, fences) and trailing spaces (line breaks).
_MD_LINE_START = re.compile(r"^( +)|^([#+=!~-])|^(\d+)([.)])")
_MD_TRAILING = re.compile(r"( +)$")


def _md_line_start(match: re.Match) -> str:
    spaces, mark, digits, dot = match.groups()
    if spaces:
        return "&#32;" * len(spaces)
    if mark:
        return "\\" + mark if mark in "#+-!" else {"=": "&#61;", "~": "&#126;"}[mark]
    return digits + "\\" + dot


def md_inline(text: str) -> str:
    """Plain text as inline Markdown that renders to exactly that text; a line break becomes <br>."""
    if "\n" in text:
        return "<br>".join(md_inline(line) for line in text.split("\n"))
    text = _MD_ESCAPE.sub(lambda m: _MD_INLINE[m.group()], text)
    text = _MD_LINE_START.sub(_md_line_start, text)
    return _MD_TRAILING.sub(lambda m: "&#32;" * len(m.group()), text)


# In a name or path printed to a terminal: what it obeys, and the backslash, so that an escape
# can be told from the text (a lone surrogate is a name git gave as bytes that are not UTF-8).
_TERMINAL_ESCAPE = re.compile("[\\\\" + _OBEYED + "]")


def terminal(text: str) -> str:
    """A name or path from upstream, safe to print: what a terminal would obey is escaped
    as Python writes it (\\x1b, \\u202e), everything else is kept."""
    return _TERMINAL_ESCAPE.sub(lambda m: "\\\\" if m.group() == "\\" else _py_escape(m), text)
