"""Questions about the model that more than one output asks, answered once.

`default_edition` is the edition a code answers from when no edition is named: the
generated module's recoverable(), meaning() and solution() with edition=None, `explain`
without --edition, and the site's lists of codes. Users rely on this rule (README, "The Python
module"), so it changes only with them. In order:

1. the newest final release on the family's default timeline (the last timeline of its
   default page, `python.default_page`: the v2 copy of the Python page) whose edition
   lists the code;
2. else the newest final release on another timeline of that page (v1, the single page);
3. else the newest pre-release edition of that page that lists it;
4. else the newest final release of another page (the C++ pages) that lists it.

An unreleased edition is never the default, and neither is a pre-release of another
page: a code only those list has no default. Ties between editions of one release: the
default timeline first, then the page declared first, the timeline declared last
(cpp-v2 before cpp-v1 before the deprecated page), the published edition before its
`-repo` copy.

A code page answers first for each page that lists the code: the same rule applied to
that page's editions only (`default_edition(..., page=P)`), so that the Python page's
answer is the module's; and for a reader's choice of a copy (`timeline=T`) the rule
applied to that copy's editions. A chosen release is answered by `release_edition`:
of that release's editions, one that lists the code, by the same ties.
"""
from __future__ import annotations

from typing import Iterable, Optional

from generator.domain.codes import Code
from generator.domain.editions import Edition
from generator.domain.family import Family
from generator.domain.model import Page, Timeline
from generator.core.releases import is_final_release, release_key


def default_timeline(family: Family) -> Timeline:
    """The timeline of the default page that answers first: the page's last (its newest copy)."""
    return family.page_by_id[family.python.default_page].timelines[-1]


def _tie_key(family: Family, edition: Edition) -> tuple:
    """Among editions of one release, the greatest answers: the rule's ties."""
    main = default_timeline(family)
    return (edition.timeline.id == main.id, -edition.page.index, edition.timeline.index, not edition.repo_copy)


def _within(editions: Iterable[Edition], page: Optional[Page], timeline: Optional[Timeline]) -> list[Edition]:
    return [e for e in editions if (page is None or e.page.id == page.id)
            and (timeline is None or e.timeline.id == timeline.id)]


def default_edition(family: Family, code: Code, page: Optional[Page] = None,
                    timeline: Optional[Timeline] = None) -> Optional[Edition]:
    """The edition a code answers from by default (the rule above), or None; with `page`
    or `timeline`, the rule applied to the editions of that page or timeline only."""
    default_page, main = family.python.default_page, default_timeline(family)
    listing = _within((e for e in family.editions_listing(code) if e.released), page, timeline)
    steps = (
        [e for e in listing if e.timeline.id == main.id and is_final_release(e.release)],
        [e for e in listing if e.page.id == default_page and e.timeline.id != main.id and is_final_release(e.release)],
        [e for e in listing if e.page.id == default_page and not is_final_release(e.release)],
        [e for e in listing if e.page.id != default_page and is_final_release(e.release)],
    )
    for candidates in steps:
        if candidates:
            return max(candidates, key=lambda e: (release_key(e.release), _tie_key(family, e)))
    return None


def release_edition(family: Family, code: Code, release: str, page: Optional[Page] = None,
                    timeline: Optional[Timeline] = None) -> Optional[Edition]:
    """The edition of `release` (on `page` or `timeline` when given) that answers for the code:
    one that lists it before one whose listing is not known before one that does not, then
    by the rule's ties; None when the release has no edition there."""
    editions = _within((e for e in family.editions if e.release == release), page, timeline)
    if not editions:
        return None
    return max(editions, key=lambda e: (code.name in e.row_by_code, code.name in e.not_known, _tie_key(family, e)))
