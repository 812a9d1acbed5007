"""Questions about the model that more than one output asks, answered once.

`default_edition` is the edition a code answers from when no edition is named: the
generated module's recoverable(), meaning() and solution() with edition=None, `explain`
without --edition, and the site's lists of codes. CONTRACT §4 fixes the rule. In order:

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
"""
from __future__ import annotations

from typing import Optional

from generator.domain.codes import Code

from generator.domain.editions import Edition

from generator.domain.family import Family

from generator.domain.model import Timeline
from generator.core.releases import is_final_release, release_key


def default_timeline(family: Family) -> Timeline:
    """The timeline of the default page that answers first: the page's last (its newest copy)."""
    return family.page_by_id[family.python.default_page].timelines[-1]


def default_edition(family: Family, code: Code) -> Optional[Edition]:
    """The edition a code answers from by default (the rule above), or None."""
    page, main = family.python.default_page, default_timeline(family)
    listing = [e for e in family.editions_listing(code) if e.released]
    steps = (
        [e for e in listing if e.timeline.id == main.id and is_final_release(e.release)],
        [e for e in listing if e.page.id == page and e.timeline.id != main.id and is_final_release(e.release)],
        [e for e in listing if e.page.id == page and not is_final_release(e.release)],
        [e for e in listing if e.page.id != page and is_final_release(e.release)],
    )
    for candidates in steps:
        if candidates:
            return max(candidates, key=lambda e: (release_key(e.release), e.timeline.id == main.id, -e.page.index,
                                                  e.timeline.index, not e.repo_copy))
    return None
