"""A comparison of two editions as a reader meets it (compare.html.j2 `diff`, and the page's
script's): its summary line, its tables of changes of meaning, and its folds, in order."""
from __future__ import annotations

import re
from html.parser import HTMLParser


class Blocks(HTMLParser):
    """A comparison's HTML as a reader meets it, in order: the summary line's text, each table's
    kind (meaning first) with its codes, and each fold (<details>) with its summary and codes."""

    def __init__(self):
        super().__init__()
        self.summary, self.blocks, self._in = "", [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "p" and attrs.get("class") == "compare-summary":
            self._in.append("summary")
        elif tag == "details":
            self.blocks.append({"fold": attrs.get("class", ""), "summary": "", "codes": []})
            self._in.append("details")
        elif tag == "summary":
            self._in.append("fold-summary")
        elif tag == "table" and not (self.blocks and self.blocks[-1].get("open")):
            self.blocks.append({"fold": None, "codes": []})
        elif tag == "a" and "/codes/" in attrs.get("href", "") and self.blocks:
            self.blocks[-1]["codes"].append(attrs["href"].rstrip("/").rsplit("/", 1)[1])
        if tag == "details":
            self.blocks[-1]["open"] = True

    def handle_endtag(self, tag):
        if tag == "p" and self._in[-1:] == ["summary"]:
            self._in.pop()
        elif tag == "summary" and self._in[-1:] == ["fold-summary"]:
            self._in.pop()
        elif tag == "details":
            self._in.pop()
            self.blocks[-1]["open"] = False

    def handle_data(self, data):
        if self._in[-1:] == ["summary"]:
            self.summary += data
        elif self._in[-1:] == ["fold-summary"]:
            self.blocks[-1]["summary"] += data


def read(html: str) -> Blocks:
    parser = Blocks()
    parser.feed(html)
    return parser


def counts(summary: str, lead: str) -> dict[str, str]:
    """The summary line's items, its lead's words (`lead`) dropped: label -> what it says (a
    count, or the words for "not known")."""
    assert summary.startswith(lead + " "), summary
    return dict(re.split(r"：|: ", item, maxsplit=1) for item in summary[len(lead) + 1:].split(" · "))
