"""Where a line of the site's text may break and what in it is a link: the data that the
text macros (templates/site/macros/text.html.j2) mark up. The Sphinx directive breaks lines
by the same rules."""
from __future__ import annotations

import re
from typing import NamedTuple

# A URL in a text, up to a space, a quote, an angle bracket or closing CJK punctuation.
URL_PATTERN = re.compile(r"https?://[^\s<>\"'`）)》，。、；]+")
# An underscore inside an identifier (transfer_cache_async): a line may break after it.
IDENTIFIER_JOIN = re.compile(r"(?<=[A-Za-z0-9])_(?=[A-Za-z0-9])")
# Where a URL may break: after a slash, a dot, an underscore, a hyphen, ? & = #.
URL_JOIN = re.compile(r"([/._\-?&=#]+)(?=[^/._\-?&=#])")

Chunks = tuple[tuple[str, bool], ...]  # (words, whether a line may break after them)


def breaks(text: str) -> Chunks:
    """Prose whose identifiers may wrap after their underscores (and nowhere else)."""
    parts = IDENTIFIER_JOIN.split(text)
    return tuple((part + "_", True) for part in parts[:-1]) + ((parts[-1], False),)


def url_breaks(url: str) -> Chunks:
    """A URL that may wrap after its slashes and dots (and its other separators)."""
    return tuple((part, index % 2 == 1) for index, part in enumerate(URL_JOIN.split(url)))


class Piece(NamedTuple):
    """A piece of a line: words, or a URL (its chunks then the URL's)."""

    chunks: Chunks
    url: str = ""


def line_pieces(text: str) -> tuple[Piece, ...]:
    """A line as words and the URLs in it."""
    out, last = [], 0
    for match in URL_PATTERN.finditer(text):
        url = match.group().rstrip(".,;:")
        out.append(Piece(breaks(text[last:match.start()])))
        out.append(Piece(url_breaks(url), url))
        last = match.start() + len(url)
    out.append(Piece(breaks(text[last:])))
    return tuple(out)
