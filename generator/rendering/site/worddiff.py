"""Word-level differences between two texts: deletions and insertions, as the data that
templates/site/macros/text.html.j2 (`word_diff`) marks up, deletions struck, insertions marked.

Chinese has no spaces between words, so each ideograph is a token; other text
is split into words, runs of spaces and single punctuation marks.
"""
from __future__ import annotations

import difflib
import re
from functools import lru_cache

from generator.rendering.site.text import Chunks, breaks

_BREAK_AFTER = frozenset("/.?&=#-")
_SPECIAL = re.compile(r"(\n|[/.?&=#-])")
_TOKEN = re.compile(r"\n|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[A-Za-z0-9_]+|\s+|.", re.S)


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _chunks(tokens_: list[str]) -> Chunks:
    """The tokens as chunks: a line may break after an identifier's underscore or a URL's
    slash or dot (as in the site's tables), never inside a word; a line's end is its own
    chunk. (Worked on the joined text: no token boundary can join an identifier's underscore
    to its letters.)"""
    out: list[tuple[str, bool]] = []
    for piece in _SPECIAL.split("".join(tokens_)):
        if not piece:
            continue
        if piece == "\n" or piece in _BREAK_AFTER:
            out.append((piece, piece != "\n"))
        else:
            out.extend(breaks(piece))
    return tuple(out)


@lru_cache(maxsize=4096)
def word_diff(before: str, after: str) -> tuple[tuple[str, Chunks], ...]:
    """`after`, with what `before` had and it lacks in a "del" segment, and what it adds in an
    "ins" one; the rest in segments of no tag."""
    a, b = tokens(before), tokens(after)
    # the common head and tail need no matching (most changes touch a few words)
    head = 0
    while head < len(a) and head < len(b) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < len(a) - head and tail < len(b) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    out = [("", _chunks(a[:head]))]
    middle_a, middle_b = a[head:len(a) - tail], b[head:len(b) - tail]
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, middle_a, middle_b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(("", _chunks(middle_a[i1:i2])))
            continue
        if i2 > i1:
            out.append(("del", _chunks(middle_a[i1:i2])))
        if j2 > j1:
            out.append(("ins", _chunks(middle_b[j1:j2])))
    out.append(("", _chunks(a[len(a) - tail:])))
    return tuple(out)
