"""The pages a browser tour visits, where it need not visit every one.

Every code page is one template over the catalog, and so is every edition page: what differs
from page to page is content. A tour that checks layout (a table's columns, where the first
answer starts, a picture's cells) visits, per family, the pages that hold the extremes of that
content: the first and the last, the longest name and the most names, the longest text, a code
of one language only, a code whose pages disagree; per timeline, its first and newest edition,
the one with the most rows, the one with the longest text, and any with a page malformed or
not known. The choice is made from the catalog, so a new code with a longer text joins the
sample by itself. Tours that check what every page says (the pictures' cells, the search) do
not sample: tests/test_browser.py and tests/test_code_pages.py say which do.
"""
from __future__ import annotations


def _longest_text(texts) -> int:
    return max((len(e.text) for _, entries in texts for e in entries), default=0)


def _longest_row_text(family, edition) -> int:
    return max((len(e.text) for row in edition.rows for _, entries in family.code_by_name[row.code].texts
                for e in entries if edition.id in e.editions), default=0)


def _distinct(items: list) -> list:
    seen, out = set(), []
    for item in items:
        if item is not None and id(item) not in seen:
            seen.add(id(item))
            out.append(item)
    return out


def sample_codes(family) -> list:
    """The codes of a family whose pages a layout tour visits (see the module's docstring)."""
    codes = list(family.codes)
    listed = [c for c in codes if any(c.name in e.row_by_code for e in family.editions)]
    picks = [
        codes[0], codes[-1],
        max(codes, key=lambda c: len(c.name)),
        max(codes, key=lambda c: len(c.python_names) + len(c.c_names)),
        max(codes, key=lambda c: _longest_text(c.texts)),
        max(listed, key=lambda c: sum(c.name in e.row_by_code for e in family.editions), default=None),
        next((c for c in codes if not c.python_names), None),
        next((c for c in codes if not c.c_names), None),
        next((c for c in codes if any(r.code == c.name and r.disagreements
                                      for e in family.editions for r in e.rows)), None),
    ]
    return _distinct(picks)


def sample_editions(family) -> list:
    """The editions of a family whose pages a layout tour visits (see the module's docstring)."""
    picks = []
    for timeline in family.timelines:
        editions = list(family.timeline_editions(timeline))
        if not editions:
            continue
        picks += [editions[0], editions[-1], max(editions, key=lambda e: len(e.rows)),
                  max(editions, key=lambda e: _longest_row_text(family, e))]
        picks += [e for e in editions if e.malformations or e.not_known or not e.order_known]
    return _distinct(picks)
