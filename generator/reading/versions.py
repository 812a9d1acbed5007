"""The `versions` section (editions.yaml) as the model holds it: each timeline's page versions,
oldest first, and the editions that derive from them.

A version is one upstream file's content. Its editions: one per final release whose tag
ships it (`9.0.0-v1`), else one for the first pre-release that ships it
(`9.2.0-beta.1-v1`), else `unreleased-v1` for a branch head no tag ships; a version no
repository source ships (a published page, a document) names its `release`. A repository
copy whose release also has a published version on the timeline is `...-repo`.
"""
from __future__ import annotations

from typing import Any, Optional

from generator.core.problems import Reporter, closest
from generator.core.releases import UNRELEASED
from generator.domain.editions import Source
from generator.domain.model import Page, Timeline
from generator.reading import format as fmt
from generator.reading.editions import Draft, Read, derive
from generator.reading.page_layout import read_layout
from generator.reading.rows import RowsReader
from generator.reading.site import localized


def read_versions(section, family_id, languages, pages, codes, repositories, broken: set[str],
                  rep: Reporter) -> Optional[Read]:
    timelines = {t.id: (t, page) for page in pages for t in page.timelines}
    reader = _Reader(languages, codes, repositories, rep)
    by_timeline: dict[str, list[fmt.Version]] = section.record
    if not by_timeline:
        rep.error(section.file.pos("versions"), "versions must list at least one timeline's versions")
    drafts: list[Draft] = []
    declared = {v.version for items in by_timeline.values() for v in items} | broken
    for name, items in by_timeline.items():
        if name not in timelines:
            rep.error(section.raw.pos(name, True), f"versions: no timeline {name!r}{closest(name, timelines)} in "
                                                   f"family.yaml; timelines: {', '.join(timelines)}")
            continue
        if not section.raw[name].node.value:
            rep.error(section.raw.pos(name), f"versions of {name}: list at least one version, or leave the timeline "
                                             "out")
        drafts.extend(reader.timeline_versions(items, *timelines[name], declared))
    read = derive(rep, family_id, languages[0], drafts)
    if read is not None:
        read.declared = declared
    return read


class _Reader(RowsReader):
    def __init__(self, languages, codes, repositories, rep: Reporter):
        super().__init__(languages, codes, rep)
        self.repositories = repositories
        self.index_of = {code.name: code.index for code in codes}

    def timeline_versions(self, items: list[fmt.Version], timeline: Timeline, page: Page,
                          declared: set[str]) -> list[Draft]:
        drafts: list[Draft] = []
        seen: dict[str, Draft] = {}
        for number, item in enumerate(items):
            later = {other.version for other in items[number + 1:]}
            draft = self.version(item, timeline, page, seen, later, declared)
            if draft is None:
                continue
            if draft.ident in seen:
                rep_line = seen[draft.ident].record.at().line
                self.rep.error(item.at(), f"version {draft.ident!r} is already declared at line {rep_line}; ids are "
                                          "unique")
                continue
            seen[draft.ident] = draft
            drafts.append(draft)
        return drafts

    def version(self, record: fmt.Version, timeline: Timeline, page: Page, earlier: dict[str, Draft],
                later: set[str], declared: set[str]) -> Optional[Draft]:
        what = f"version {record.version}"
        ok = True
        if record.release == UNRELEASED:
            self.rep.error(record.at("release"), f"{what}: release {record.release!r} is no release (8.0.RC3, 9.0.0, "
                                                 "9.2.0-beta.1)")
            ok = False
        base = self._based_on(record, what, earlier, later, declared)
        sources = self._sources(record, "sources", what, len(page.columns))
        notes = localized(record, "notes", f"{what}: notes", self.languages, self.rep) if record.notes else None
        languages = None if record.texts == "not known" else self._languages(record, what)
        rows = self.rows(record, what, page, base)
        unknown = self.not_known(record, what, page, rows or ())
        malformations = self.malformations(record, what, page, rows or ())
        own = self._own(record, what, len(page.columns))
        if not ok or None in (sources, rows, unknown, malformations, own) or (record.notes and notes is None) \
                or (record.based_on is not None and base is None) or (record.texts != "not known" and not languages):
            return None
        if record.order == "not known":
            rows = sorted(rows, key=lambda row: self.index_of.get(row.code, 0))  # type: ignore[arg-type]
        superseded = tuple((s.edition, s.commit, s.at()) for s in record.superseded)
        return Draft(record, record.version, timeline, page, base.ident if base else None, record.release,
                     sources, languages, record.order == "page", tuple(rows), tuple(unknown),  # type: ignore[arg-type]
                     malformations, notes, own, superseded)  # type: ignore[arg-type]

    def _based_on(self, record: fmt.Version, what: str, earlier: dict[str, Draft], later: set[str],
                  declared: set[str]) -> Optional[Draft]:
        name = record.based_on
        if name is None or name in earlier:
            return earlier.get(name) if name else None
        if name in later:
            self.rep.error(record.at("based_on"), f"{what}: based_on names {name}, which is listed after it: a "
                                                  "timeline's versions are listed oldest release first")
        elif name not in declared:
            self.rep.error(record.at("based_on"), f"{what}: based_on names {name!r}, which is no earlier version of "
                                                  f"this timeline{closest(name, earlier)}")
        return None

    def _languages(self, record: fmt.Version, what: str) -> Optional[tuple[str, ...]]:
        given = list(record.texts)
        for index, lang in enumerate(given):
            if lang not in self.languages or given.index(lang) < index:
                self.rep.error(record.at("texts", index), f"{what}: texts: {lang!r} is not one of "
                                                          f"{', '.join(self.languages)}, each once"
                                                          f"{closest(lang, self.languages)}")
                return None
        return tuple(lang for lang in self.languages if lang in given)

    # -- sources ------------------------------------------------------------------------------------

    def _sources(self, holder: Any, key: str, what: str, columns: int) -> Optional[tuple[Source, ...]]:
        result, ok = [], True
        for item in getattr(holder, key):
            source = self._source(item, what, columns)
            ok = ok and source is not None
            if source is not None:
                result.append(source)
        return tuple(result) if ok else None

    def _source(self, item: fmt.Source, what: str, columns: int) -> Optional[Source]:
        if item.lang is not None and item.lang not in self.languages:
            self.rep.error(item.at("lang"), f"{what}: source lang must be one of {', '.join(self.languages)}, not "
                                            f"{item.lang!r}")
            return None
        if item.kind != "repo":
            return Source(item.kind, item.lang, url=item.url, seed=item.seed, document=item.document, pos=item.at())
        problem = self._repo_problem(item, what)
        if problem is not None:
            self.rep.error(*problem)
            return None
        layout = read_layout(item.page, what, columns, item.path or "", self.rep) if item.page is not None else None
        if item.page is not None and layout is None:
            return None
        ref = "merge-request" if item.ref else "tag" if item.tags else "branch"  # tags: []: a commit a branch holds
        return Source("repo", item.lang, repo=item.repo, path=item.path, commit=item.commit,
                      tags=tuple(item.tags or ()), branch=item.branch, ref=ref, pos=item.at(), layout=layout,
                      codes=tuple(item.codes or ()))

    def _repo_problem(self, item: fmt.Source, what: str) -> Optional[tuple]:
        """(where, what is wrong) with a repository source, or None."""
        for key in ("path", "commit"):
            if getattr(item, key) is None:
                return item.at(), f"{what}: a repository source needs {key!r}"
        if item.repo not in self.repositories:
            return item.at("repo"), (f"{what}: repository {item.repo!r} is not in repositories"
                                     f"{closest(str(item.repo), self.repositories)}")
        if item.tags is None and item.branch is None:
            return item.at(), f"{what}: a repository source names the tags that ship the file, or the branch of an " \
                              "unreleased one"
        if item.ref and (item.tags or item.branch):
            return item.at("ref"), (f"{what}: `ref: merge-request` is for a commit that no tag or branch holds (then "
                                    "`tags: []` and no `branch`); a tag or a branch says its kind itself")
        return None

    def _own(self, record: fmt.Version, what: str, columns: int) -> Optional[dict]:
        """Per-edition sources and notes: {edition id: (where, sources, notes)}."""
        result, ok = {}, True
        for ident, own in record.editions.items():
            label = f"{what}: edition {ident}"
            sources = self._sources(own, "sources", label, columns)
            notes = localized(own, "notes", f"{label}: notes", self.languages, self.rep) if own.notes else None
            if sources is None or (own.notes and notes is None):
                ok = False
                continue
            result[ident] = (record.at("editions", ident, of_key=True), sources, notes)
        return result if ok else None
