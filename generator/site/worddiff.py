"""Word-level differences between two texts, as HTML: deletions struck, insertions marked.

Chinese has no spaces between words, so each ideograph is a token; other text
is split into words, runs of spaces and single punctuation marks.
"""
from __future__ import annotations

import difflib
import re

from generator.escape import html_text as esc
from generator.site.html import breakable

_BREAK_AFTER = frozenset("/.?&=#-")
_TOKEN = re.compile(r"\n|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[A-Za-z0-9_]+|\s+|.", re.S)


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _html(tokens_: list[str]) -> str:
    """The tokens as HTML: a line may break after an identifier's underscore or a URL's
    slash or dot (as in the site's tables), never inside a word."""
    out = []
    for token in tokens_:
        if token == "\n":
            out.append("<br>")
        elif token in _BREAK_AFTER:
            out.append(esc(token) + "<wbr>")
        else:
            out.append(breakable(token))
    return "".join(out)


def word_diff(before: str, after: str) -> str:
    """`after`, with what `before` had and it lacks in <del>, and what it adds in <ins>."""
    a, b = tokens(before), tokens(after)
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(_html(a[i1:i2]))
            continue
        if i2 > i1:
            out.append(f"<del>{_html(a[i1:i2])}</del>")
        if j2 > j1:
            out.append(f"<ins>{_html(b[j1:j2])}</ins>")
    return "".join(out)
