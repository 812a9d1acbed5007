"""The editions a family's page versions derive: one per release that ships a version, the
ids once published that now resolve to another, and the checks across a timeline."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from generator.core.problems import Reporter
from generator.domain.editions import Edition, Malformation, Row, Source, Version, edition_id
from generator.domain.model import Localized, Page, Timeline
from generator.core.releases import UNRELEASED, edition_order, edition_releases, tag_release


@dataclass
class Read:
    """The versions of a family, the editions they derive, and the ids that resolve to one;
    `declared`: every version id written, valid or not (texts naming a broken version are
    not reported a second time)."""

    versions: list[Version]
    editions: list[Edition]
    aliases: dict[str, str]
    declared: set[str]


@dataclass
class Draft:
    """A version as written, before its editions are derived."""

    record: Any  # the version as written (generator.reading.format.Version)
    ident: str
    timeline: Timeline
    page: Page
    based_on: Optional[str]
    release: Optional[str]
    sources: tuple[Source, ...]
    languages: Optional[tuple[str, ...]]
    order_known: bool
    rows: tuple[Row, ...]
    not_known: tuple[str, ...]
    malformations: tuple[Malformation, ...]
    notes: Optional[Localized]
    own: dict[str, tuple[Any, tuple[Source, ...], Optional[Localized]]]  # per-edition (where, sources, notes)
    superseded: tuple[tuple[str, str, Any], ...]  # (edition id, head commit, where) that a release took over


# -- editions ---------------------------------------------------------------------------------------


def _releases(draft: Draft, first_language: str) -> tuple[list[str], bool]:
    """The releases whose edition shows the version, and whether that is a pre-release or
    a branch head no final release ships."""
    if draft.release is not None:
        return [draft.release], False
    shipping = [s for s in draft.sources if s.kind == "repo" and (s.lang or first_language) == first_language
                and not s.codes]  # a split page's other files: its first file says the releases
    tags = [release for s in shipping for release in map(tag_release, s.tags) if release is not None]
    if tags:
        return edition_releases(tags)
    if any(s.branch for s in shipping):
        return [UNRELEASED], True
    return [], False


def derive(rep: Reporter, family_id: str, first_language: str, drafts: list[Draft]) -> Optional[Read]:
    published = {(d.timeline.id, d.release) for d in drafts if d.release is not None}
    planned: list[tuple[tuple, str, str, Draft]] = []  # (order key, edition id, release, draft)
    ok = True
    for draft in drafts:
        releases, _ = _releases(draft, first_language)
        if not releases:
            rep.error(draft.record.at(), f"version {draft.ident}: no source says which release ships it: give its "
                                         "repository "
                                "source's tags (or branch), or `release:` for a page no tag ships")
            ok = False
            continue
        for release in releases:
            copy = draft.release is None and (draft.timeline.id, release) in published
            ident = edition_id(release, draft.timeline.suffix, copy)
            planned.append(
                (edition_order(release, draft.page.index, draft.timeline.index, copy), ident, release, draft)
            )
    if not ok:
        return None
    planned.sort(key=lambda p: p[0])
    ids: dict[str, Draft] = {}
    for _, ident, _, draft in planned:
        if ident in ids:
            rep.error(draft.record.at(), f"version {draft.ident}: its edition {ident} is also version "
                                         f"{ids[ident].ident}'s; "
                                "two versions of one timeline cannot be shown by the same release")
            ok = False
        ids[ident] = draft
    for draft in drafts:
        for ident, (key, _, _) in draft.own.items():
            if ids.get(ident) is not draft:
                rep.error(key, f"version {draft.ident}: {ident} is not one of its editions "
                             f"({', '.join(i for i, d in ids.items() if d is draft)})")
                ok = False
    _check_timeline_order(rep, drafts, planned)
    ok = all([_check_parts(rep, draft) for draft in drafts]) and ok
    if not ok:
        return None
    editions: list[Edition] = []
    shown: dict[str, list[str]] = {}
    for index, (_, ident, release, draft) in enumerate(planned):
        _, extra, notes = draft.own.get(ident, (None, (), None))
        shown.setdefault(draft.ident, []).append(ident)
        editions.append(Edition(
            ident, release, draft.timeline, draft.page, family_id, draft.ident, draft.sources + extra, draft.languages,
            draft.order_known, draft.rows, draft.not_known, draft.malformations, notes or draft.notes, index,
            draft.record.at()))
    versions = []
    for index, draft in enumerate(drafts):
        versions.append(Version(
            draft.ident, draft.timeline, draft.page, draft.based_on, draft.release, draft.sources, draft.languages,
            draft.order_known, draft.rows, draft.not_known, draft.malformations, draft.notes, tuple(shown[draft.ident]),
            index, draft.record.at()))
    return Read(versions, editions, _aliases(drafts, versions, ids), set())


def _check_parts(rep: Reporter, draft: Draft) -> bool:
    """A split page's files: each names codes of the version's rows, no code in two files of one
    language, and a first file (one without `codes`) in that language."""
    listed, ok = {r.code for r in draft.rows}, True
    for source in (s for s in draft.sources if s.codes):
        where = source.pos or draft.record.at()
        others = [s for s in draft.sources if s is not source and s.kind == "repo" and s.lang == source.lang]
        unknown = [c for c in source.codes if c not in listed]
        twice = [c for s in others for c in s.codes if c in source.codes]
        if not any(not s.codes for s in others):
            rep.error(where, f"version {draft.ident}: {source.path} holds some of the rows (`codes`), but no other "
                             f"{source.lang or 'every-language'} file of the version holds the rest: list the page's "
                             "first file too, without `codes`")
        elif unknown or twice:
            rep.error(where, f"version {draft.ident}: {source.path}: `codes` names "
                             + (f"{', '.join(unknown)}, which the version does not list" if unknown else
                                f"{', '.join(twice)}, which another file of the version holds too")
                             + "; a row is in one file of each language")
        else:
            continue
        ok = False
    return ok


def _check_timeline_order(rep: Reporter, drafts: list[Draft], planned) -> None:
    first_key: dict[str, tuple] = {}
    for key, _, _, draft in planned:
        first_key.setdefault(draft.ident, key)
    last: dict[str, Draft] = {}
    for draft in drafts:
        before = last.get(draft.timeline.id)
        if before is not None and draft.ident in first_key and before.ident in first_key \
                and first_key[draft.ident] < first_key[before.ident]:
            rep.error(draft.record.at(), f"version {draft.ident} is out of release order: it belongs before "
                                         f"{before.ident} "
                                "(a timeline's versions are listed oldest release first)")
        last[draft.timeline.id] = draft


def _aliases(drafts: list[Draft], versions: list[Version], ids: dict[str, Draft]) -> dict[str, str]:
    """Ids once published that no longer name an edition, and the edition that holds their
    content now: a version's own id when none of its editions has it (a pre-release id once
    the final release ships the version), and the branch-head editions a release took over.
    An id an edition has again (a later branch head) is that edition's, not an alias."""
    aliases: dict[str, str] = {}
    for draft, version in zip(drafts, versions):
        for ident in (version.id, *(s[0] for s in draft.superseded)):
            if ident not in ids and ident not in aliases:
                aliases[ident] = version.editions[0]
    return aliases


