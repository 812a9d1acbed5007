"""The word-by-word differences of a built differences page, read back from its HTML."""
from __future__ import annotations

from html.parser import HTMLParser


class WordDiffs(HTMLParser):
    """Each <div class="word-diff"> as (before, after): before without <ins>, after without <del>."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.pairs, self._depth, self._in, self._before, self._after = [], 0, None, [], []

    def handle_starttag(self, tag, attrs):
        if tag == "div" and ("class", "word-diff") in attrs:
            self._depth, self._before, self._after = 1, [], []
        elif self._depth:
            if tag == "div":
                self._depth += 1
            elif tag in ("ins", "del"):
                self._in = tag
            elif tag == "br":
                self.handle_data("\n")

    def handle_endtag(self, tag):
        if not self._depth:
            return
        if tag in ("ins", "del"):
            self._in = None
        elif tag == "div":
            self._depth -= 1
            if not self._depth:
                self.pairs.append(("".join(self._before), "".join(self._after)))

    def handle_data(self, data):
        if self._depth:
            if self._in != "ins":
                self._before.append(data)
            if self._in != "del":
                self._after.append(data)
