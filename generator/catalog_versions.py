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
from dataclasses import dataclass
from typing import Optional

from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from generator.fields import Fields
from generator.model import (
    RECOVERABLE_VALUES, TEXT_FIELDS, Code, Edition, Localized, Malformation, Page, Row, Source, Timeline, Version,
)
from generator.problems import Pos, Reporter, closest
from generator.versions import UNRELEASED, edition_order, release_key, tag_release

EDITION_ID = re.compile(r"^[0-9A-Za-z][0-9A-Za-z._-]*$")
MAX_EDITION_ID = 64
COMMIT = re.compile(r"^[0-9a-f]{40}$")
_VERSION_FIELDS = ("version", "based_on", "release", "sources", "texts", "order", "rows", "not_listed_not_known",
                   "malformations", "notes", "editions", "superseded")
_SOURCE_KINDS = ("repo", "url", "seed", "document")
_SOURCE_FIELDS = ("repo", "path", "commit", "tags", "branch", "url", "seed", "document", "lang")
DROPPED = "dropped"


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
class _Draft:
    """A version as written, before its editions are derived."""

    node: Node
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
    own: dict[str, tuple[Node, tuple[Source, ...], Optional[Localized]]]  # per-edition sources and notes
    superseded: tuple[tuple[str, str, Node], ...]  # (edition id, head commit, where) that a release took over


def read_versions(section, family_id, languages, pages, codes, repositories, rep: Reporter) -> Optional[Read]:
    f: Fields = section.reader
    timelines = {t.id: (t, page) for page in pages for t in page.timelines}
    reader = _Reader(f, languages, timelines, codes, repositories)
    by_timeline = f.mapping(section.value, "versions", free_keys=True)
    if by_timeline is None:
        return None
    if not by_timeline:
        f.error(section.value, "versions must list at least one timeline's versions")
    drafts: list[_Draft] = []
    declared = {v for _, (_, value) in by_timeline.items() for item in ye_items(value) if (v := f.peek(item, "version"))}
    for name, (key, value) in by_timeline.items():
        if name not in timelines:
            f.error(key, f"versions: no timeline {name!r}{closest(name, timelines)} in family.yaml; "
                         f"timelines: {', '.join(timelines)}")
            continue
        drafts.extend(reader.timeline_versions(value, *timelines[name]) or ())
    read = _derive(f, family_id, languages[0], drafts)
    if read is not None:
        read.declared = declared
    return read


def ye_items(node: Node) -> list[Node]:
    return list(node.value) if isinstance(node, SequenceNode) else []


class _Reader:
    def __init__(self, f: Fields, languages, timelines, codes, repositories):
        self.f, self.languages, self.timelines, self.repositories = f, languages, timelines, repositories
        self.by_kind = {"python": {c.python_name: c for c in codes if c.python_name},
                        "c": {c.c_name: c for c in codes if c.c_name}}
        self.flawed = codes.flawed
        self.index_of = {code.name: code.index for code in codes}

    def timeline_versions(self, node: Node, timeline: Timeline, page: Page) -> Optional[list[_Draft]]:
        f = self.f
        items = f.sequence(node, f"versions of {timeline.id}")
        if items is None:
            return None
        if not items:
            f.error(node, f"versions of {timeline.id}: list at least one version, or leave the timeline out")
        drafts: list[_Draft] = []
        seen: dict[str, _Draft] = {}
        self.declared = {f.peek(item, "version") for item in items}  # a broken version is reported once, where it is
        for number, item in enumerate(items):
            self.later = {f.peek(other, "version") for other in items[number + 1:]}
            draft = self.version(item, timeline, page, seen)
            if draft is None:
                continue
            if draft.ident in seen:
                f.error(item, f"version {draft.ident!r} is already declared at line {f.pos(seen[draft.ident].node).line}; "
                              "ids are unique")
                continue
            seen[draft.ident] = draft
            drafts.append(draft)
        return drafts

    def version(self, node: Node, timeline: Timeline, page: Page, earlier: dict[str, _Draft]) -> Optional[_Draft]:
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
                f.error(fields["release"][1], f"{what}: release {release!r} is no release (8.0.RC3, 9.0.0, 9.2.0-beta.1)")
                release = None
        base = self._based_on(fields.get("based_on"), what, earlier)
        sources = self._sources(fields.get("sources"), what)
        languages = self._languages(fields["texts"][1], what) if "texts" in fields else None
        order = f.choice(fields["order"][1], f"{what}: order", ("page", "not known")) if "order" in fields else None
        notes = f.localized(fields["notes"][1], f"{what}: notes", self.languages) if "notes" in fields else None
        rows = self._rows(fields.get("rows"), what, page, base, node)
        unknown = self._not_known(fields.get("not_listed_not_known"), what, page, rows or ())
        malformations = self._malformations(fields.get("malformations"), what, page, rows or ())
        own = self._own(fields.get("editions"), what)
        superseded = self._superseded(fields.get("superseded"), what)
        parts = (ident, sources, languages, order, rows, unknown, malformations, own, superseded)
        if any(part is None for part in parts) or ("notes" in fields and notes is None) \
                or ("release" in fields and release is None) or ("based_on" in fields and base is None):
            return None
        if order == "not known":
            rows = sorted(rows, key=lambda row: self.index_of.get(row.code, 0))  # type: ignore[arg-type]
        return _Draft(node, ident, timeline, page, base.ident if base else None, release, sources,  # type: ignore[arg-type]
                      None if languages == "not known" else languages, order == "page", tuple(rows),  # type: ignore[arg-type]
                      tuple(unknown), malformations, notes, own, superseded)  # type: ignore[arg-type]

    def _id(self, node: Node, what: str) -> Optional[str]:
        ident = self.f.text(node, what)
        if ident is None:
            return None
        if len(ident) > MAX_EDITION_ID or not EDITION_ID.match(ident):
            self.f.error(node, f"{what} {ident!r} may hold only letters, digits, '.', '-' and '_', "
                               f"at most {MAX_EDITION_ID} of them (edition ids are part of URLs and file names)")
            return None
        return ident

    def _based_on(self, pair, what: str, earlier: dict[str, _Draft]) -> Optional[_Draft]:
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
        values = {k: f.text(v, f"{what}: source {k}") for k, (_, v) in fields.items() if k not in ("tags", "lang")}
        if any(v is None for v in values.values()):
            return None
        allowed = {"repo": ("path", "commit", "tags", "branch"), "url": (), "seed": (), "document": ()}[kind]
        for key in fields:
            if key not in allowed and key not in (kind, "lang"):
                f.error(fields[key][0], f"{what}: a {kind} source has no {key!r}")
                return None
        if kind == "repo":
            return self._repo_source(node, fields, values, lang, what)
        if kind == "url" and not re.match(r"^https?://[^\s<>\"'`]+$", values["url"] or ""):
            f.error(fields["url"][1], f"{what}: source url must be an http(s) URL without spaces or quotes")
            return None
        return Source(kind, lang, url=values.get("url"), seed=values.get("seed"), document=values.get("document"), pos=f.pos(node))

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
        if not COMMIT.match(values["commit"]):
            f.error(fields["commit"][1], f"{what}: commit must be 40 lower-case hex digits (git rev-parse TAG^{{commit}})")
            return None
        tags = tuple(t for t, _ in f.text_list(fields["tags"][1], f"{what}: tags") or ()) if "tags" in fields else ()
        if "tags" not in fields and "branch" not in fields:
            f.error(node, f"{what}: a repository source names the tags that ship the file, or the branch of an unreleased one")
            return None
        return Source("repo", lang, repo=values["repo"], path=values["path"], commit=values["commit"], tags=tags,
                      branch=values.get("branch"), pos=f.pos(node))

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
            notes = f.localized(fields["notes"][1], f"{what}: edition {ident}: notes", self.languages) if "notes" in fields else None
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
            if commit is not None and not COMMIT.match(commit):
                f.error(fields["commit"][1], f"{what}: superseded commit must be 40 lower-case hex digits")
                commit = None
            if ident is None or commit is None:
                ok = False
                continue
            result.append((ident, commit, item))
        return tuple(result) if ok else None

    # -- rows ---------------------------------------------------------------------------

    def _code(self, node: Node, name: str, what: str, page: Page) -> Optional[Code]:
        """The code a row names, by the name kind its page uses; every miss is reported."""
        kind = page.row_names
        if page.row_prefix and name.startswith(page.row_prefix):
            name = name[len(page.row_prefix):]
        code = self.by_kind[kind].get(name)
        if code is not None:
            return code
        if name in self.flawed:
            return None  # reported where the code is written
        other_kind = "c" if kind == "python" else "python"
        other = self.by_kind[other_kind].get(name)
        names = "Python" if kind == "python" else "C"
        if other is not None:
            right = other.python_name if kind == "python" else other.c_name
            fix = f"write {right}" if right else f"{other.name} has no {names} name, so this page cannot list it"
            self.f.error(node, f"{what}: {name} is the {'C' if kind == 'python' else 'Python'} name of {other.name}; "
                               f"page {page.id} names its rows by {names} name: {fix}")
        else:
            self.f.error(node, f"{what}: no code has the {names} name {name!r}{closest(name, self.by_kind[kind])}; "
                               "add it to codes first, or correct the name")
        return None

    def _rows(self, pair, what: str, page: Page, base: Optional[_Draft], node: Node) -> Optional[list[Row]]:
        """The version's rows: as written, or its base's with the changes written."""
        if pair is None:
            if base is None:
                self.f.error(node, f"{what}: rows are missing; list the codes its page lists (or give based_on)")
                return None
            return list(base.rows)
        fields = self.f.mapping(pair[1], f"{what}: rows", free_keys=True)
        if fields is None:
            return None
        rows = _Order(base.rows if base is not None else ())
        ok = True
        for name, (key, value) in fields.items():
            code = self._code(key, name, what, page)
            if code is None:
                # a code reported where it is written (a duplicate name or value) leaves its row out, and
                # the version stands: its other rows, the versions based on it, its malformations are
                # checked as usual instead of each failing for want of it
                ok = ok and name in self.flawed
                continue
            ok = self._change(rows, code, key, value, f"{what}: rows: {name}", base, page) and ok
        return rows.rows() if ok else None

    def _change(self, rows: "_Order", code: Code, key: Node, value: Node, what: str, base, page: Page) -> bool:
        f = self.f
        if base is not None and isinstance(value, ScalarNode) and value.value == DROPPED:
            if code.name not in rows:
                f.error(value, f"{what}: version {base.ident} does not list it, so there is nothing to drop")
                return False
            rows.remove(code.name)
            return True
        place = None
        if isinstance(value, MappingNode) and base is not None:
            place = self._place(value, what, page, rows)
            if place is False:
                return False
        row = self._row(value, what, code, key, allow_place=base is not None)
        if row is None:
            return False
        if code.name in rows:
            if base is None:
                f.error(key, f"{what}: listed twice")
                return False
            if place is None:
                rows.replace(row)
                return True
            rows.remove(code.name)
        if isinstance(place, tuple):
            anchor, after = place
            if anchor not in rows:
                f.error(value, f"{what}: the row it goes {'after' if after else 'before'} is not listed")
                return False
            rows.insert(row, anchor, after)
        else:
            rows.append(row)
        return True

    def _place(self, node: MappingNode, what: str, page: Page, names: "_Order"):
        """(code name, after?) from `after:`/`before:`, None when neither is given, False on error.
        (The row's mapping itself is read, and its keys checked, by _row.)"""
        fields = {k.value: (k, v) for k, v in node.value if isinstance(k, ScalarNode)}
        given = [k for k in ("after", "before") if k in fields]
        if not given:
            return None
        if len(given) > 1:
            self.f.error(node, f"{what}: give `after` or `before`, not both")
            return False
        name = self.f.text(fields[given[0]][1], f"{what}: {given[0]}")
        code = self._code(fields[given[0]][1], name, what, page) if name else None
        return False if code is None else (code.name, given[0] == "after")

    def _row(self, node: Node, what: str, code: Code, key: Node, allow_place: bool = False) -> Optional[Row]:
        f = self.f
        if not isinstance(node, MappingNode):
            value = f.choice(node, what, RECOVERABLE_VALUES + ((DROPPED,) if allow_place else ()))
            if value == DROPPED:
                f.error(node, f"{what}: `dropped` needs a version it is based on")
                return None
            return None if value is None else Row(code.name, value, (), f.pos(key))
        places = ("after", "before") if allow_place else ()
        fields = f.mapping(node, what, required=("recoverable",), optional=("recoverable",) + places + tuple(self.languages))
        if fields is None or "recoverable" not in fields:
            return None
        value = f.choice(fields["recoverable"][1], what, RECOVERABLE_VALUES)
        others = tuple((lang, f.choice(v, f"{what} ({lang} page)", RECOVERABLE_VALUES)) for lang, (_, v) in fields.items()
                       if lang not in ("recoverable",) + places)
        if value is None or any(v is None for _, v in others):
            return None
        for lang, other in others:
            if other == value:
                f.error(fields[lang][1], f"{what}: the {lang} page agrees ({other}); record only a disagreement")
                return None
        return Row(code.name, value, others, f.pos(key))  # type: ignore[arg-type]

    def _not_known(self, pair, what, page, rows) -> Optional[list[str]]:
        if pair is None:
            return []
        items = self.f.text_list(pair[1], f"{what}: not_listed_not_known")
        if items is None or page is None:
            return None
        listed = {row.code for row in rows}
        result, ok = [], True
        for name, item in items:
            code = self._code(item, name, what, page)
            if code is None:
                ok = False
            elif code.name in listed:
                self.f.error(item, f"{what}: {name} is in rows, so its listing is known; remove it from not_listed_not_known")
                ok = False
            elif code.name in result:
                self.f.error(item, f"{what}: {name} is named twice in not_listed_not_known")
                ok = False
            else:
                result.append(code.name)
        return result if ok else None

    def _malformations(self, pair, what, page, rows) -> Optional[tuple[Malformation, ...]]:
        if pair is None:
            return ()
        f = self.f
        listed = {row.code for row in rows}
        result, ok = [], True
        for item in f.sequence(pair[1], f"{what}: malformations") or ():
            fields = f.mapping(item, f"{what}: malformation", required=("kind", "code", "field", "line", "shown", "sides"))
            if fields is None or len(fields) < 6:
                ok = False
                continue
            kind = f.choice(fields["kind"][1], f"{what}: malformation kind", ("merge conflict", "unclosed cell", "extra cell"))
            name = f.text(fields["code"][1], f"{what}: malformation code")
            code = self._code(fields["code"][1], name, what, page) if name and page else None
            if code is not None and code.name not in listed:
                f.error(fields["code"][1], f"{what}: malformation of {name}, which the version does not list")
                code = None
            field = f.choice(fields["field"][1], f"{what}: malformation field", ("name", "recoverable") + TEXT_FIELDS)
            line = f.integer(fields["line"][1], f"{what}: malformation line")
            shown = f.text(fields["shown"][1], f"{what}: malformation shown")
            sides = [(label, f.text(v, f"{what}: malformation side {label}"))
                     for label, (_, v) in (f.mapping(fields["sides"][1], f"{what}: malformation sides", free_keys=True) or {}).items()]
            if shown is not None and shown not in [label for label, _ in sides]:
                f.error(fields["shown"][1], f"{what}: shown must name one of the sides ({', '.join(l for l, _ in sides)})")
                shown = None
            if None in (kind, code, field, line, shown) or len(sides) < 2 or any(t is None for _, t in sides):
                if len(sides) < 2:
                    f.error(fields["sides"][1], f"{what}: a malformation records at least two sides")
                ok = False
                continue
            result.append(Malformation(kind, code.name, field, line, shown, tuple(sides), f.pos(item)))  # type: ignore[union-attr,arg-type]
        return tuple(result) if ok else None


# -- editions ---------------------------------------------------------------------------------------


def _releases(draft: _Draft, first_language: str) -> tuple[list[str], bool]:
    """The releases whose edition shows the version, and whether that is a pre-release or
    a branch head no final release ships."""
    if draft.release is not None:
        return [draft.release], False
    shipping = [s for s in draft.sources if s.kind == "repo" and (s.lang or first_language) == first_language]
    tags = [release for s in shipping for release in map(tag_release, s.tags) if release is not None]
    keyed = {r: release_key(r) for r in tags}
    finals = sorted((r for r, key in keyed.items() if key is not None and key[1] == 1), key=lambda r: keyed[r] or ())
    if finals:
        return finals, False
    if tags:
        return [min(tags, key=release_key)], True  # type: ignore[arg-type]
    if any(s.branch for s in shipping):
        return [UNRELEASED], True
    return [], False


def _derive(f: Fields, family_id: str, first_language: str, drafts: list[_Draft]) -> Optional[Read]:
    published = {(d.timeline.id, d.release) for d in drafts if d.release is not None}
    planned: list[tuple[tuple, str, str, _Draft]] = []  # (order key, edition id, release, draft)
    ok = True
    for draft in drafts:
        releases, _ = _releases(draft, first_language)
        if not releases:
            f.error(draft.node, f"version {draft.ident}: no source says which release ships it: give its repository "
                                "source's tags (or branch), or `release:` for a page no tag ships")
            ok = False
            continue
        for release in releases:
            copy = draft.release is None and (draft.timeline.id, release) in published
            ident = release + draft.timeline.suffix + ("-repo" if copy else "")
            planned.append((edition_order(release, draft.page.index, draft.timeline.index, copy), ident, release, draft))
    if not ok:
        return None
    planned.sort(key=lambda p: p[0])
    ids: dict[str, _Draft] = {}
    for _, ident, _, draft in planned:
        if ident in ids:
            f.error(draft.node, f"version {draft.ident}: its edition {ident} is also version {ids[ident].ident}'s; "
                                "two versions of one timeline cannot be shown by the same release")
            ok = False
        ids[ident] = draft
    for draft in drafts:
        for ident, (key, _, _) in draft.own.items():
            if ids.get(ident) is not draft:
                f.error(key, f"version {draft.ident}: {ident} is not one of its editions "
                             f"({', '.join(i for i, d in ids.items() if d is draft)})")
                ok = False
    _check_timeline_order(f, drafts, planned)
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
            f.pos(draft.node)))
    versions = []
    for index, draft in enumerate(drafts):
        versions.append(Version(
            draft.ident, draft.timeline, draft.page, draft.based_on, draft.release, draft.sources, draft.languages,
            draft.order_known, draft.rows, draft.not_known, draft.malformations, draft.notes, tuple(shown[draft.ident]),
            index, f.pos(draft.node)))
    return Read(versions, editions, _aliases(drafts, versions, ids), set())


def _check_timeline_order(f: Fields, drafts: list[_Draft], planned) -> None:
    first_key: dict[str, tuple] = {}
    for key, _, _, draft in planned:
        first_key.setdefault(draft.ident, key)
    last: dict[str, _Draft] = {}
    for draft in drafts:
        before = last.get(draft.timeline.id)
        if before is not None and draft.ident in first_key and before.ident in first_key \
                and first_key[draft.ident] < first_key[before.ident]:
            f.error(draft.node, f"version {draft.ident} is out of release order: it belongs before {before.ident} "
                                "(a timeline's versions are listed oldest release first)")
        last[draft.timeline.id] = draft


def _aliases(drafts: list[_Draft], versions: list[Version], ids: dict[str, _Draft]) -> dict[str, str]:
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


class _Order:
    """A page's rows while a version's changes apply: replace, drop and insert next to a row
    each in constant time (a list made a version with thousands of changes quadratic:
    21 s of 25 at 10,000 codes)."""

    _END = ""  # the sentinel before the first row and after the last (no code is named "")

    def __init__(self, rows) -> None:
        self.by_code: dict[str, Row] = {}
        self.next: dict[str, str] = {self._END: self._END}
        self.prev: dict[str, str] = {self._END: self._END}
        for row in rows:
            self.append(row)

    def __contains__(self, code: str) -> bool:
        return code in self.by_code

    def _link(self, code: str, before: str, after: str) -> None:
        self.next[before], self.prev[code], self.next[code], self.prev[after] = code, before, after, code

    def append(self, row: Row) -> None:
        self.by_code[row.code] = row
        self._link(row.code, self.prev[self._END], self._END)

    def insert(self, row: Row, anchor: str, after: bool) -> None:
        self.by_code[row.code] = row
        if after:
            self._link(row.code, anchor, self.next[anchor])
        else:
            self._link(row.code, self.prev[anchor], anchor)

    def replace(self, row: Row) -> None:
        self.by_code[row.code] = row

    def remove(self, code: str) -> None:
        before, after = self.prev.pop(code), self.next.pop(code)
        self.next[before], self.prev[after] = after, before
        del self.by_code[code]

    def rows(self) -> list[Row]:
        out, code = [], self.next[self._END]
        while code != self._END:
            out.append(self.by_code[code])
            code = self.next[code]
        return out
