"""Reading the `versions` section (editions.yaml): each timeline's page versions, oldest
first, and the editions that derive from them.

A version is one upstream file's content. Its editions: one per final release whose tag
ships it (`9.0.0-v1`), else one for the first pre-release that ships it
(`9.2.0-beta.1-v1`), else `unreleased-v1` for a branch head no tag ships; a version no
repository source ships (a published page, a document) names its `release`. A repository
copy whose release also has a published version on the timeline is `...-repo`.
"""
from __future__ import annotations

import re
from typing import Optional

from ruamel.yaml.nodes import Node, ScalarNode, SequenceNode

from generator.reading.fields import Fields
from generator.domain.editions import Source
from generator.domain.model import Page, Timeline
from generator.core.problems import Reporter, closest
from generator.core.releases import UNRELEASED, release_key
from generator.reading.editions import Draft, Read, derive
from generator.reading.page_layout import read_layout
from generator.reading.site import URL
from generator.reading.version_rows import RowsReader

EDITION_ID = re.compile(r"^[0-9A-Za-z][0-9A-Za-z._-]*$")
MAX_EDITION_ID = 64
COMMIT = re.compile(r"^[0-9a-f]{40}$")
_VERSION_FIELDS = ("version", "based_on", "release", "sources", "texts", "order", "rows", "not_listed_not_known",
                   "malformations", "notes", "editions", "superseded")
_SOURCE_KINDS = ("repo", "url", "seed", "document")
_SOURCE_FIELDS = ("repo", "path", "commit", "tags", "branch", "url", "seed", "document", "lang", "ref", "page")


def read_versions(section, family_id, languages, pages, codes, repositories, rep: Reporter) -> Optional[Read]:
    f: Fields = section.reader
    timelines = {t.id: (t, page) for page in pages for t in page.timelines}
    reader = _Reader(f, languages, timelines, codes, repositories)
    by_timeline = f.mapping(section.value, "versions", free_keys=True)
    if by_timeline is None:
        return None
    if not by_timeline:
        f.error(section.value, "versions must list at least one timeline's versions")
    drafts: list[Draft] = []
    declared = {
        v for _, (_, value) in by_timeline.items() for item in ye_items(value) if (v := f.peek(item, "version"))
    }
    for name, (key, value) in by_timeline.items():
        if name not in timelines:
            f.error(key, f"versions: no timeline {name!r}{closest(name, timelines)} in family.yaml; "
                         f"timelines: {', '.join(timelines)}")
            continue
        drafts.extend(reader.timeline_versions(value, *timelines[name]) or ())
    read = derive(f, family_id, languages[0], drafts)
    if read is not None:
        read.declared = declared
    return read


def ye_items(node: Node) -> list[Node]:
    return list(node.value) if isinstance(node, SequenceNode) else []


class _Reader(RowsReader):
    def __init__(self, f: Fields, languages, timelines, codes, repositories):
        super().__init__(f, languages, codes)
        self.timelines, self.repositories = timelines, repositories
        self.columns = 0  # the columns of the page whose version is being read
        self.index_of = {code.name: code.index for code in codes}

    def timeline_versions(self, node: Node, timeline: Timeline, page: Page) -> Optional[list[Draft]]:
        f = self.f
        items = f.sequence(node, f"versions of {timeline.id}")
        if items is None:
            return None
        if not items:
            f.error(node, f"versions of {timeline.id}: list at least one version, or leave the timeline out")
        drafts: list[Draft] = []
        seen: dict[str, Draft] = {}
        self.declared = {f.peek(item, "version") for item in items}  # a broken version is reported once, where it is
        for number, item in enumerate(items):
            self.later = {f.peek(other, "version") for other in items[number + 1:]}
            draft = self.version(item, timeline, page, seen)
            if draft is None:
                continue
            if draft.ident in seen:
                f.error(
                    item,
                    f"version {draft.ident!r} is already declared at line {f.pos(seen[draft.ident].node).line}; "
                    "ids are unique",
                )
                continue
            seen[draft.ident] = draft
            drafts.append(draft)
        return drafts

    def version(self, node: Node, timeline: Timeline, page: Page, earlier: dict[str, Draft]) -> Optional[Draft]:
        f = self.f
        label = f"version {f.peek(node, 'version')}" if f.peek(node, "version") else "a version"
        fields = f.mapping(node, label, required=("version", "texts", "order"), optional=_VERSION_FIELDS)
        if fields is None or "version" not in fields:
            return None
        ident = self._id(fields["version"][1], "version id")
        what = f"version {ident}"
        release = None
        if "release" in fields:
            release = f.text(fields["release"][1], f"{what}: release")
            if release is not None and (release_key(release) is None or release == UNRELEASED):
                f.error(
                    fields["release"][1], f"{what}: release {release!r} is no release (8.0.RC3, 9.0.0, 9.2.0-beta.1)"
                )
                release = None
        base = self._based_on(fields.get("based_on"), what, earlier)
        self.columns = len(page.columns)
        sources = self._sources(fields.get("sources"), what)
        languages = self._languages(fields["texts"][1], what) if "texts" in fields else None
        order = f.choice(fields["order"][1], f"{what}: order", ("page", "not known")) if "order" in fields else None
        notes = f.localized(fields["notes"][1], f"{what}: notes", self.languages) if "notes" in fields else None
        rows = self.rows(fields.get("rows"), what, page, base, node)
        unknown = self.not_known(fields.get("not_listed_not_known"), what, page, rows or ())
        malformations = self.malformations(fields.get("malformations"), what, page, rows or ())
        own = self._own(fields.get("editions"), what)
        superseded = self._superseded(fields.get("superseded"), what)
        parts = (ident, sources, languages, order, rows, unknown, malformations, own, superseded)
        if any(part is None for part in parts) or ("notes" in fields and notes is None) \
                or ("release" in fields and release is None) or ("based_on" in fields and base is None):
            return None
        if order == "not known":
            rows = sorted(rows, key=lambda row: self.index_of.get(row.code, 0))  # type: ignore[arg-type]
        return Draft(node, ident, timeline, page, base.ident if base else None, release, sources,  # type: ignore[arg-type]
                      None if languages == "not known" else languages, order == "page", tuple(rows),  # type: ignore[arg-type]
                      tuple(unknown), malformations, notes, own, superseded)  # type: ignore[arg-type]

    def _id(self, node: Node, what: str) -> Optional[str]:
        ident = self.f.text(node, what)
        if ident is None:
            return None
        if len(ident) > MAX_EDITION_ID or not EDITION_ID.fullmatch(ident):
            self.f.error(node, f"{what} {ident!r} may hold only letters, digits, '.', '-' and '_', "
                               f"at most {MAX_EDITION_ID} of them (edition ids are part of URLs and file names)")
            return None
        return ident

    def _based_on(self, pair, what: str, earlier: dict[str, Draft]) -> Optional[Draft]:
        if pair is None:
            return None
        name = self.f.text(pair[1], f"{what}: based_on")
        if name is None:
            return None
        if name not in earlier:
            if name in self.later:
                self.f.error(pair[1], f"{what}: based_on names {name}, which is listed after it: a timeline's versions "
                                      "are listed oldest release first")
            elif name not in self.declared:
                self.f.error(pair[1], f"{what}: based_on names {name!r}, which is no earlier version of this timeline"
                                      f"{closest(name, earlier)}")
            return None
        return earlier[name]

    def _languages(self, node: Node, what: str):
        if isinstance(node, ScalarNode):
            return self.f.choice(node, f"{what}: texts", ("not known",))
        items = self.f.choice_list(node, f"{what}: texts", self.languages)
        if items == []:
            self.f.error(node, f"{what}: texts names no language; write `texts: not known` instead")
            return None
        return None if items is None else tuple(lang for lang in self.languages if lang in {v for v, _ in items})

    # -- sources -----------------------------------------------------------------------

    def _sources(self, pair, what) -> Optional[tuple[Source, ...]]:
        if pair is None:
            return ()
        result, ok = [], True
        for item in self.f.sequence(pair[1], f"{what}: sources") or ():
            source = self._source(item, what)
            ok = ok and source is not None
            if source is not None:
                result.append(source)
        return tuple(result) if ok else None

    def _source(self, node: Node, what: str) -> Optional[Source]:
        f = self.f
        fields = f.mapping(node, f"{what}: source", optional=_SOURCE_FIELDS)
        if fields is None:
            return None
        kinds = [k for k in _SOURCE_KINDS if k in fields]
        if len(kinds) != 1:
            f.error(node, f"{what}: a source gives exactly one of {', '.join(_SOURCE_KINDS)}")
            return None
        kind = kinds[0]
        lang = f.choice(fields["lang"][1], f"{what}: source lang", self.languages) if "lang" in fields else None
        if "lang" in fields and lang is None:
            return None
        values = {k: f.text(v, f"{what}: source {k}") for k, (_, v) in fields.items()
                  if k not in ("tags", "lang", "page")}
        if any(v is None for v in values.values()):
            return None
        allowed = {"repo": ("path", "commit", "tags", "branch", "ref", "page"),
                   "url": (), "seed": (), "document": ()}[kind]
        for key in fields:
            if key not in allowed and key not in (kind, "lang"):
                f.error(fields[key][0], f"{what}: a {kind} source has no {key!r}")
                return None
        if kind == "repo":
            return self._repo_source(node, fields, values, lang, what)
        if kind == "url" and not URL.fullmatch(values["url"] or ""):
            f.error(fields["url"][1], f"{what}: source url must be an http(s) URL without spaces or quotes")
            return None
        return Source(
            kind, lang, url=values.get("url"), seed=values.get("seed"), document=values.get("document"), pos=f.pos(node)
        )

    def _repo_source(self, node, fields, values, lang, what) -> Optional[Source]:
        f = self.f
        for key in ("path", "commit"):
            if key not in fields:
                f.error(node, f"{what}: a repository source needs {key!r}")
                return None
        if values["repo"] not in self.repositories:
            f.error(fields["repo"][1], f"{what}: repository {values['repo']!r} is not in repositories"
                                       f"{closest(values['repo'], self.repositories)}")
            return None
        if not COMMIT.fullmatch(values["commit"]):
            f.error(
                fields["commit"][1], f"{what}: commit must be 40 lower-case hex digits (git rev-parse TAG^{{commit}})"
            )
            return None
        tags = tuple(t for t, _ in f.text_list(fields["tags"][1], f"{what}: tags") or ()) if "tags" in fields else ()
        if "tags" not in fields and "branch" not in fields:
            f.error(
                node,
                f"{what}: a repository source names the tags that ship the file, or the branch of an unreleased one",
            )
            return None
        ref = self._ref(fields, values, tags, what)
        if ref is None:
            return None
        layout = read_layout(f, fields["page"][1], what, self.columns, values["path"]) if "page" in fields else None
        if "page" in fields and layout is None:
            return None
        return Source("repo", lang, repo=values["repo"], path=values["path"], commit=values["commit"], tags=tags,
                      branch=values.get("branch"), ref=ref, pos=f.pos(node), layout=layout)

    def _ref(self, fields, values, tags, what) -> Optional[str]:
        """What kind of ref holds the commit: a tag (`tags`), a branch (`branch`, or `tags: []`),
        or only a merge request's ref (`ref: merge-request`: proposed, not released)."""
        f = self.f
        if "ref" in fields:
            if values["ref"] != "merge-request" or tags or "branch" in fields:
                f.error(fields["ref"][1], f"{what}: `ref: merge-request` is for a commit that no tag or branch holds "
                                          "(then `tags: []` and no `branch`); a tag or a branch says its kind itself")
                return None
            return "merge-request"
        return "tag" if tags else "branch"  # `tags: []`: a commit a branch holds, its head or not

    def _own(self, pair, what: str) -> Optional[dict]:
        """Per-edition sources and notes: {edition id: (node, sources, notes)}."""
        if pair is None:
            return {}
        f = self.f
        found = f.mapping(pair[1], f"{what}: editions", free_keys=True)
        if found is None:
            return None
        result, ok = {}, True
        for ident, (key, value) in found.items():
            fields = f.mapping(value, f"{what}: edition {ident}", optional=("sources", "notes"))
            if fields is None:
                ok = False
                continue
            sources = self._sources(fields.get("sources"), f"{what}: edition {ident}")
            notes = (
                f.localized(fields["notes"][1], f"{what}: edition {ident}: notes", self.languages)
                if "notes" in fields
                else None
            )
            if sources is None or ("notes" in fields and notes is None):
                ok = False
                continue
            result[ident] = (key, sources, notes)
        return result if ok else None

    def _superseded(self, pair, what: str) -> Optional[tuple]:
        """The branch-head editions a release took over: [{edition: unreleased-v2, commit: SHA}]."""
        if pair is None:
            return ()
        f, result, ok = self.f, [], True
        for item in f.sequence(pair[1], f"{what}: superseded") or ():
            fields = f.mapping(item, f"{what}: superseded", required=("edition", "commit"))
            if fields is None or len(fields) < 2:
                ok = False
                continue
            ident = self._id(fields["edition"][1], f"{what}: superseded edition")
            commit = f.text(fields["commit"][1], f"{what}: superseded commit")
            if commit is not None and not COMMIT.fullmatch(commit):
                f.error(fields["commit"][1], f"{what}: superseded commit must be 40 lower-case hex digits")
                commit = None
            if ident is None or commit is None:
                ok = False
                continue
            result.append((ident, commit, item))
        return tuple(result) if ok else None

    # -- rows ---------------------------------------------------------------------------
