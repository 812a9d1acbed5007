"""Questions about the model that more than one output asks, answered once.

`default_edition` is the edition a code answers from when no edition is named: the
generated module's recoverable(), meaning() and solution() with edition=None, `explain`
without --edition, and the site's lists of codes. Users rely on this rule (docs/vendoring.md, "The
Python module"), so it changes only with them. In order:

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

from typing import Iterable, NamedTuple, Optional

from generator.domain.codes import Code
from generator.domain.editions import Edition
from generator.domain.family import Family
from generator.domain.model import Page, Timeline
from generator.core.releases import is_final_release, release_key, tag_release


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
    key = ("default_edition", code.name, page.id if page else None, timeline.id if timeline else None)
    return family.remember(key, lambda: _default_edition(family, code, page, timeline))


def _default_edition(family: Family, code: Code, page: Optional[Page], timeline: Optional[Timeline]):
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


def disagreeing(code: Code, editions: Iterable[Edition]) -> list[Edition]:
    """The editions of answers shown together (one per page) whose pages say the code's
    recoverability otherwise than one another (two known values that differ); [] when they agree."""
    listing = [e for e in editions if code.name in e.row_by_code]
    values = {e.row_by_code[code.name].recoverable for e in listing} - {"not known"}
    return listing if len(values) > 1 else []


def release_edition(family: Family, code: Code, release: str, page: Optional[Page] = None,
                    timeline: Optional[Timeline] = None) -> Optional[Edition]:
    """The edition of `release` (on `page` or `timeline` when given) that answers for the code:
    one that lists it before one whose listing is not known before one that does not, then
    by the rule's ties; None when the release has no edition there."""
    editions = _within(family.release_editions(release), page, timeline)
    if not editions:
        return None
    return max(editions, key=lambda e: (code.name in e.row_by_code, code.name in e.not_known, _tie_key(family, e)))


def default_repository(family: Family) -> Optional[str]:
    """The repository whose newest release names the family's members: the repository of the
    default timeline, else of the family's first Python source, else of its first source."""
    if default_timeline(family).repo:
        return default_timeline(family).repo
    python = [u.repo for u in family.upstream if u.kind == "python"]
    named = python or [u.repo for u in family.upstream]
    return named[0] if named else None


def member_name(family: Family, code: Code) -> Optional[str]:
    """The code's Python name in the generated module: the default repository's newest."""
    return code.python_at(default_repository(family))


def member_c_name(family: Family, code: Code) -> Optional[str]:
    """The code's C/C++ name in the generated header: the default repository's newest."""
    return code.c_at(default_repository(family))


def other_names(family: Family, code: Code, kind: Optional[str] = None) -> list[tuple[str, str]]:
    """(name, what became of it) for every Python (`kind` "python") or C/C++ ("c") name, or both
    (None), that the code had or has elsewhere, other than the module's and the header's own:
    "renamed to NEW in RELEASE (REPOSITORY)"."""
    found = []
    for which, current in (("python", member_name(family, code)), ("c", member_c_name(family, code))):
        if kind not in (None, which):
            continue
        newer = getattr(code, f"{which}_name")
        for rename in reversed(code.renamed):
            old = getattr(rename, which)
            if old is None:
                continue
            where = ", ".join(f"{release} ({repo})" for repo, release in rename.until)
            if old != current:
                found.append((old, f"renamed to {newer} in {where}"))
            newer = old
        newest = getattr(code, f"{which}_name")
        if newest not in (None, current):
            repos = sorted({repo for rename in code.renamed for repo, _ in rename.until})
            found.append((newest, f"its name in {', '.join(repos)}"))
    return list(dict(found).items())


def family_at(family: Family, repo: Optional[str], release: Optional[str]) -> Family:
    """The family as upstream's files of `repo` at `release` (None: its newest) show it: the codes
    those files have, each under the names and with the value they give it then."""
    from dataclasses import replace

    from generator.core.releases import UNRELEASED

    at = None if release == UNRELEASED else release
    codes = []
    for code in family.codes:
        if repo is not None and release is not None and not code.present_at(repo, release):  # unreleased: newest
            continue
        python, c = code.names_at(repo, at)
        if repo is not None and code.removed_api:  # one API dropped it: the other's files still have it
            python = python if code.api_present_at(repo, at, "python") else None
            c = c if code.api_present_at(repo, at, "c") else None
        cpp = tuple(replace(n, name=f"{n.namespace}::{c}") if c and n.short == code.c_name else n for n in code.cpp)
        cpp = cpp if c else ()
        wrapper = code.wrapper if python or not code.python_name else None  # the binding serves the Python API
        codes.append(replace(code, python_name=python, c_name=c, cpp=cpp, value=code.value_at(repo, at), earlier=(),
                             wrapper=wrapper))
    return replace(family, codes=tuple(codes))


def names_at_edition(code: Code, edition: Edition) -> tuple[Optional[str], Optional[str]]:
    """(Python name, C name) of the code in the files of the edition's repository at its release."""
    return code.names_at(edition.timeline.repo, edition.release)


def row_anchor(edition: Edition, code: Code) -> str:
    """A row's anchor on an edition's page: the code's name in lower case, as the edition's release
    named it (a later rename leaves an older edition's links as they were)."""
    python, c = names_at_edition(code, edition)
    name = python or c or code.name
    return code.slug if name == code.name else name.lower()


def value_at_edition(code: Code, edition: Edition) -> int:
    """The code's value in the files of the edition's repository at its release."""
    return code.value_at(edition.timeline.repo, edition.release)


class RowNames(NamedTuple):
    """What an edition's row says a code is called: the site's edition pages and the Sphinx tables."""

    shown: str  # its first column: the name the page gives it, or on a page of decimal values, the value
    value: int  # at the edition's release
    then: str  # the name the release's files gave it, where that is not `shown` ("" otherwise)
    other_c: str  # its C/C++ name, where that is neither ("" otherwise)
    c: Optional[str]  # its C/C++ name at the release


def row_names(code: Code, edition: Edition) -> RowNames:
    value = value_at_edition(code, edition)
    shown = str(value) if edition.page.first_column == "decimal" else edition.name_shown(code.name) or code.name
    python, c = names_at_edition(code, edition)
    then = python or c or code.name  # the code's name in that release's files
    return RowNames(shown, value, then if then != shown else "", c if c and c not in (shown, then) else "", c)


def newest_edition(family: Family, timeline: Timeline) -> Optional[Edition]:
    """The timeline's edition "the newest final release" means: its newest final released one,
    else its newest released, else its newest (a published page before its repository copy)."""
    editions = family.timeline_editions(timeline)
    final = [e for e in editions if e.released and is_final_release(e.release)]
    return max(final or [e for e in editions if e.released] or editions,
               key=lambda e: (release_key(e.release) or (), not e.repo_copy), default=None)


def page_release(family: Family, edition: Edition) -> str:
    """The release a page version's own words about values were written at: the first tag of the
    edition's repository that ships it (a page shipped unchanged by a later release that fixed a
    value in the headers still shows the value it was written with), else the edition's release."""
    version = family.version_by_id[edition.version]
    shipped = [r for s in version.sources if s.repo == edition.timeline.repo for t in s.tags if (r := tag_release(t))]
    return min(shipped, key=lambda r: release_key(r) or ()) if shipped else edition.release


def earlier_values(code: Code) -> list[tuple[int, str]]:
    """(value, where it held) for each earlier value of the code, newest first: "before RELEASE
    in OWNER/NAME"."""
    return [(e.value, ", ".join(f"before {release} in {repo}" for repo, release in e.until))
            for e in reversed(code.earlier) if e.value is not None]
