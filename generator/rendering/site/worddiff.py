"""Word-level differences between two texts, as HTML: deletions struck, insertions marked.

Chinese has no spaces between words, so each ideograph is a token; other text
is split into words, runs of spaces and single punctuation marks.
"""
from __future__ import annotations

import difflib
import re
from functools import lru_cache

from generator.rendering.escape import html_in_markdown as esc
from generator.rendering.site.html import breakable

_BREAK_AFTER = frozenset("/.?&=#-")
_SPECIAL = re.compile(r"(\n|[/.?&=#-])")
_TOKEN = re.compile(r"\n|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[A-Za-z0-9_]+|\s+|.", re.S)


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _html(tokens_: list[str]) -> str:
    """The tokens as HTML: a line may break after an identifier's underscore or a URL's
    slash or dot (as in the site's tables), never inside a word. (Worked on the joined
    text: no token boundary can join an identifier's underscore to its letters.)"""
    out = []
    for piece in _SPECIAL.split("".join(tokens_)):
        if not piece:
            continue
        if piece == "\n":
            out.append("<br>")
        elif piece in _BREAK_AFTER:
            out.append(esc(piece) + "<wbr>")
        else:
            out.append(breakable(piece))
    return "".join(out)


@lru_cache(maxsize=4096)
def word_diff(before: str, after: str) -> str:
    """`after`, with what `before` had and it lacks in <del>, and what it adds in <ins>."""
    a, b = tokens(before), tokens(after)
    # the common head and tail need no matching (most changes touch a few words)
    head = 0
    while head < len(a) and head < len(b) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < len(a) - head and tail < len(b) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    out = [_html(a[:head])]
    middle_a, middle_b = a[head:len(a) - tail], b[head:len(b) - tail]
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, middle_a, middle_b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(_html(middle_a[i1:i2]))
            continue
        if i2 > i1:
            out.append(f"<del>{_html(middle_a[i1:i2])}</del>")
        if j2 > j1:
            out.append(f"<ins>{_html(middle_b[j1:j2])}</ins>")
    out.append(_html(a[len(a) - tail:]))
    return "".join(out)
