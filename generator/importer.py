"""`import`: upstream's pages into the catalog, as the smallest diff that records them.

A page in the family's first language (zh) is a page version of its timeline. When a
version of the timeline already has its content (its rows, and its texts), the
import only says which release ships it: the tag joins that version's source (the
branch head's version that a tag now ships becomes the release's, and its
`unreleased-...` id an alias of it). Otherwise the page is a new version, `based_on`
the one before it, with only the rows that differ and, in codes.yaml, one entry for
each text that changed (its English `untranslated` until someone writes it); a text
that did not change goes on holding, its English with it.

A page in another language (upstream's English) gives the English of the version it
translates, for every version whose zh text is the same.

The files are edited as text (generator.yamledit): what the import does not change
keeps its bytes, comments and layout. The edited catalog is validated before
anything is written. Importing the same page twice changes nothing.
"""
from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from ruamel.yaml.nodes import Node

from generator import yamledit as ye
from generator.audit import recoverable_value
from generator.catalog import catalog_groups, display_path, load_catalog
from generator.fastpath import read_regular
from generator.model import UNTRANSLATED, Catalog, Code, Family, Timeline, Version
from generator.outputs import atomic_write
from generator.pagereader import read_table
from generator.problems import CatalogError, Pos, Problem
from generator.upstream import UnreadableFile, read_file
from generator.versions import UNRELEASED, edition_order, release_key, sort_tags, tag_release


class ImportProblem(Exception):
    """The page cannot be imported as it is; nothing was written."""


@dataclass(frozen=True)
class PageSource:
    text: str
    shown: str  # how messages name the page
    is_html: bool
    source: dict  # {repo, path, commit, tags} / {repo, path, commit, branch} / {url} / {} (none given)
    repo: object = None  # the GitRepo it was read from: a version citing the same file is the same version
    blob: Optional[str] = None


@dataclass(frozen=True)
class ImportedRow:
    name: str  # the name the page's rows use
    code: str  # the code's catalog name
    recoverable: str
    texts: tuple[tuple[str, str], ...]  # (field, text)


@dataclass
class Report:
    """One line per thing the import did, and per thing left for a person."""

    done: list[str] = field(default_factory=list)
    todo: list[str] = field(default_factory=list)


# -- reading a page ----------------------------------------------------------------------------------------


def read_source(catalog: Catalog, page: Optional[Path] = None, url: Optional[str] = None, upstream: Optional[str] = None,
                ref: Optional[str] = None, path: Optional[str] = None) -> PageSource:
    """The page to import: a file (a copy of a published page at `url`), or a file of an
    upstream repository at a tag, a branch or a commit."""
    if page is not None:
        try:
            text = read_file(page)
        except UnreadableFile as error:
            raise ImportProblem(f"{page}:{error.line}: cannot read the page: {error.message}") from None
        return PageSource(text, str(page), str(page).lower().endswith((".html", ".htm")), {"url": url} if url else {})
    from generator.audit_upstream import parse_upstream_args
    from generator.errors import UsageError
    from generator.gitrepo import GitError

    if not ref or not path:
        raise UsageError("--upstream needs --ref TAG and --path PATH: the tag (or branch) and the page's path")
    if ref.startswith("-"):
        raise UsageError(f"--ref {ref!r}: a tag, branch or commit never begins with -")
    [(name, repo)] = parse_upstream_args([upstream], catalog).items()
    try:
        repo.commit(ref)
    except GitError:
        tags = repo.release_tags()
        raise UsageError(f"--ref {ref}: no such tag, branch or commit in {name}; "
                         f"its release tags: {', '.join(tags[-5:]) or 'none'}") from None
    blob = repo.blob_at(ref, path)
    if blob is None:
        raise UsageError(f"--path {path}: no such file at {ref} in {name}; `git ls-tree -r --name-only {ref}` lists its files")
    return PageSource(_blob_text(repo, blob, f"{name}:{path}@{ref}"), f"{name}:{path}@{ref}", False,
                      shipping_source(name, repo, ref, path, blob), repo, blob)


def _blob_text(repo, blob: str, shown: str) -> str:
    try:
        return repo.read_text(blob)
    except UnreadableFile as error:
        raise ImportProblem(f"{shown}:{error.line}: cannot read the page: {error.message}") from None


def shipping_source(name: str, repo, ref: str, path: str, blob: str) -> dict:
    """How a file at a ref is cited: the tags that ship it (and the first one's commit), the
    branch head, or a commit no tag and no branch head has (upstream's English pages)."""
    shipping = [t for t in repo.release_tags() if repo.blob_at(t, path) == blob]
    if ref in repo.release_tags() or (shipping and repo.commit(ref) != repo.commit("HEAD")):
        return {"repo": name, "path": path, "commit": repo.commit(shipping[0]), "tags": shipping}
    if repo.commit(ref) == repo.commit("HEAD"):
        return {"repo": name, "path": path, "commit": repo.commit(ref), "branch": repo.head_branch()}
    return {"repo": name, "path": path, "commit": repo.commit(ref), "tags": []}


def edition_place(family: Family, edition_id: str) -> tuple[Timeline, str]:
    """The timeline whose suffix the id ends with (the longest), and the release before it."""
    best: Optional[tuple[Timeline, str]] = None
    for timeline in family.timelines:
        for tail in (timeline.suffix + "-repo", timeline.suffix):
            release = edition_id[: len(edition_id) - len(tail)] if tail else edition_id
            if edition_id.endswith(tail) and release_key(release) is not None:
                if best is None or len(timeline.suffix) > len(best[0].suffix):
                    best = (timeline, release)
                break
    if best is None:
        raise ImportProblem(f"edition {edition_id!r} fits no timeline of {family.id}: its id is RELEASE + one of "
                            + ", ".join(repr(t.suffix) for t in family.timelines))
    return best


def read_rows(family: Family, timeline: Timeline, lang: str, page: PageSource) -> list[ImportedRow]:
    page_def = family.page_by_id[timeline.page]
    table = read_table(page.text, page_def.headings, is_html=page.is_html)
    problems = [f"{page.shown}:{line}: {message}" for line, message in table.problems]
    if table.conflicts:
        problems.append(f"{page.shown}:{table.conflicts[0][0]}: the page holds merge-conflict markers: "
                        "record the version by hand, with its `malformations`")
    if table.lang and table.rows and table.lang != lang:
        problems.append(f"{page.shown}:{table.heading_line}: the page's headings are {table.lang}, not {lang}; pass --lang {table.lang}")
    by_key = {(str(c.value) if page_def.first_column == "decimal" else c.name_on(page_def)): c for c in family.codes
              if c.name_on(page_def)}
    rows: list[ImportedRow] = []
    seen: dict[str, int] = {}
    for row in table.rows:
        key = row.by_column["name"].text.strip() if "name" in row.by_column else ""
        code = by_key.get(key)
        cell = row.by_column.get("recoverable")
        value = recoverable_value(family, cell.text if cell else "", lang)
        if code is None:
            problems.append(f"{page.shown}:{row.line}: no code {key!r} of this page's kind in {family.id}; add it to the codes first")
        elif code.name in seen:
            problems.append(f"{page.shown}:{row.line}: {key} is listed twice (first at line {seen[code.name]}); "
                            "a page lists a code once: record the version by hand, with its `malformations`")
        elif value is None:
            problems.append(f"{page.shown}:{row.line}: {key}: recoverable cell {cell.text if cell else ''!r} is none of the family's labels")
        elif len(row.cells) != len(table.columns):
            problems.append(f"{page.shown}:{row.line}: {key}: the row has {len(row.cells)} cells and the headings {len(table.columns)}")
        else:
            seen[code.name] = row.line
            texts = tuple((f, row.by_column[f].text) for f in page_def.text_fields if f in row.by_column)
            rows.append(ImportedRow(key, code.name, value, texts))
    if problems:
        raise ImportProblem(_some(problems))
    return rows


MAX_PROBLEMS_SHOWN = 20


def _some(problems: list[str]) -> str:
    """The first problems, and how many more: a page of 100,000 bad rows is not 100,000 lines."""
    shown = problems[:MAX_PROBLEMS_SHOWN]
    if len(problems) > len(shown):
        shown.append(f"... and {len(problems) - len(shown)} more problem(s) of the same page")
    return "\n".join(shown)


# -- the family's files ----------------------------------------------------------------------------------------


class Files:
    """A family's catalog files, their composed YAML and the edits pending on them."""

    def __init__(self, location: Path, family: Family):
        shown = set(family.files)
        self.location = location
        self.paths = [p for _, paths in catalog_groups(location) for p in paths if display_path(p) in shown]
        self.edits = {p: ye.FileEdit(p.read_text(encoding="utf-8")) for p in self.paths}
        self.roots = {p: self.edits[p].root() for p in self.paths}
        self.versions_path = self._holding("versions")
        self.codes_path = self._holding("codes")

    def _holding(self, section: str) -> Path:
        return next(p for p in self.paths if ye.get(self.roots[p], section) is not None)

    @property
    def versions(self) -> ye.FileEdit:
        return self.edits[self.versions_path]

    @property
    def codes(self) -> ye.FileEdit:
        return self.edits[self.codes_path]

    def timeline_node(self, timeline: str) -> Optional[Node]:
        found = ye.get(ye.get(self.roots[self.versions_path], "versions")[1], timeline)
        return None if found is None else found[1]

    def version_node(self, version_id: str) -> Node:
        for _, _, nodes in ye.pairs(ye.get(self.roots[self.versions_path], "versions")[1]):
            for node in ye.items(nodes):
                found = ye.get(node, "version")
                if found is not None and str(found[1].value) == version_id:
                    return node
        raise KeyError(version_id)  # pragma: no cover - versions come from the loaded model

    def code_node(self, name: str) -> Node:
        for node in ye.items(ye.get(self.roots[self.codes_path], "codes")[1]):
            for key in ("python", "c"):
                found = ye.get(node, key)
                if found is not None and str(found[1].value) == name:
                    return node
        raise KeyError(name)  # pragma: no cover

    def rendered(self) -> dict[Path, str]:
        return {p: e.result() for p, e in self.edits.items()}


# -- one page ---------------------------------------------------------------------------------------------------


@dataclass
class _Plan:
    """What an import changes, gathered before any text is written."""

    family: Family
    files: Files
    report: Report
    renamed: dict[str, str] = field(default_factory=dict)  # version id -> its new id
    entries: dict[tuple[str, str], "_FieldEdit"] = field(default_factory=dict)
    new_versions: dict[str, str] = field(default_factory=dict)  # version id added by this import -> its timeline

    def timeline_of(self, version_id: str) -> Optional[str]:
        known = self.family.version_by_id.get(version_id)
        return known.timeline.id if known is not None else self.new_versions.get(version_id)

    def field_edit(self, code: Code, field_name: str) -> "_FieldEdit":
        key = (code.name, field_name)
        if key not in self.entries:
            found = ye.get(self.files.code_node(code.name), field_name)
            items = ye.items(found[1]) if found else []
            written = [[str(s.value) for s in ye.items(ye.get(item, "from")[1])] for item in items]
            marks = [ye.get(item, "untranslated") for item in items]
            languages = [{k for k, _, _ in ye.pairs(item) if k in self.family.languages}
                         | ({str(v.value) for v in ye.items(mark[1])} if mark else set()) for item, mark in zip(items, marks)]
            self.entries[key] = _FieldEdit(code, field_name, written, languages)
        return self.entries[key]


@dataclass
class _FieldEdit:
    code: Code
    field: str
    written: list[list[str]]  # each entry's `from`, as written
    languages: list[set[str]]  # each entry's languages, texts and untranslated marks
    new: list[dict] = field(default_factory=list)  # entries to add: {from: [...], texts: {lang: text}, untranslated: [...]}
    starts: dict[int, list[str]] = field(default_factory=dict)  # entry index -> its new `from`
    texts: dict[tuple[int, str], str] = field(default_factory=dict)  # (entry index, lang) -> its text now

    def current(self, index: int) -> list[str]:
        return self.starts.get(index, self.written[index])

    def holds(self, index: int, lang: str) -> bool:
        return lang in self.languages[index]


def import_page(location: Path, catalog: Catalog, family: Family, edition_id: str, lang: str, page: PageSource) -> Report:
    """Record one page as edition `edition_id`'s: what was done, and what is left for a person."""
    timeline, release = edition_place(family, edition_id)
    rows = read_rows(family, timeline, lang, page)
    plan = _Plan(family, Files(location, family), Report())
    if lang == family.languages[0]:
        _first_language(plan, timeline, release, edition_id, rows, page)
    else:
        _other_language(plan, timeline, edition_id, lang, rows, page.source)
    if not plan.report.done:
        plan.report.done.append(f"{edition_id} ({lang}): already recorded")
    plan.report.done += [f"wrote {display_path(path)}" for path in write(plan)]
    return plan.report


def _resolved_rows(version: Version) -> list[tuple[str, str]]:
    return [(r.code, r.recoverable) for r in version.rows]


def _text_at(family: Family, code_name: str, field_name: str, version: Version, lang: str):
    entry = family.code_by_name[code_name].entry(field_name, version.editions[0], lang)
    return entry


def _same_content(family: Family, version: Version, rows: list[ImportedRow], lang: str) -> bool:
    if _resolved_rows(version) != [(r.code, r.recoverable) for r in rows]:
        return False
    for row in rows:
        for field_name, text in row.texts:
            entry = _text_at(family, row.code, field_name, version, lang)
            if entry is None or entry.text != text or entry.origin == UNTRANSLATED:
                return False
    return True


def _first_language(plan: _Plan, timeline: Timeline, release: str, edition_id: str, rows: list[ImportedRow],
                    page: PageSource) -> None:
    family, source = plan.family, page.source
    versions = [v for v in family.versions if v.timeline.id == timeline.id]
    existing = family.edition(edition_id)
    if "url" in source or (not source and existing is None):
        if not source:
            raise ImportProblem("a new edition needs a source: import with --upstream OWNER/NAME=DIR --ref --path, or give --url")
        published = next((v for v in versions if v.release == release), None)
        _published(plan, timeline, release, published, rows, source, versions)
        return
    if not source:  # the page again, for an edition the catalog has: its content, in place
        version = family.version_by_id[existing.version]
        if not _same_content(family, version, rows, family.languages[0]):
            _change_content(plan, version, rows, _previous(versions, version))
        return
    same = next((v for v in versions if _same_file(v, page)), None) if page.repo is not None else \
        next((v for v in versions if _same_content(family, v, rows, family.languages[0])), None)
    head = next((v for v in versions if _is_head(v)), None)
    if same is not None:
        _ship(plan, same, source, release)
    elif head is not None and (release == UNRELEASED or _newer_than_all(release, versions)):
        _take_over_head(plan, head, source, release, edition_id)
        _change_content(plan, head, rows, _previous(versions, head), renamed=plan.renamed.get(head.id, head.id))
    else:
        _new_version(plan, timeline, edition_id, release, rows, source, versions)


def _same_file(version: Version, page: PageSource) -> bool:
    """Whether a version cites the very file the page is (same repository, path and blob)."""
    repo = page.repo
    return any(s.kind == "repo" and s.repo == page.source.get("repo") and s.path == page.source.get("path")
               and repo.has_commit(s.commit) and repo.blob_at(s.commit, s.path) == page.blob for s in version.sources)


def _is_head(version: Version) -> bool:
    return any(s.kind == "repo" and s.branch for s in version.sources) and not any(s.tags for s in version.sources)


def _newer_than_all(release: str, versions: list[Version]) -> bool:
    tagged = [r for v in versions for s in v.sources for r in map(tag_release, s.tags) if r]
    return all(release_key(release) > release_key(r) for r in tagged)  # type: ignore[operator]


def _previous(versions: list[Version], version: Version) -> Optional[Version]:
    index = versions.index(version)
    return versions[index - 1] if index else None


# -- editions.yaml ---------------------------------------------------------------------------------------------


def _source_lines(source: dict, lang: str, indent: int) -> list[str]:
    pad = " " * indent
    if "repo" in source:
        lines = [f"{pad}- repo: {source['repo']}", f"{pad}  path: {ye.scalar(source['path'])}", f"{pad}  commit: {source['commit']}"]
        if "branch" in source:
            lines.append(f"{pad}  branch: {source['branch']}")
        else:
            lines.append(f"{pad}  tags: {ye.flow(source.get('tags', []))}")
    else:
        lines = [f"{pad}- url: {ye.scalar(source['url'])}"]
    return lines + [f"{pad}  lang: {lang}"]


def _ship(plan: _Plan, version: Version, source: dict, release: str) -> None:
    """A version whose content the page has: the release's tag joins its source."""
    files, lang = plan.files, plan.family.languages[0]
    node = files.version_node(version.id)
    sources = ye.get(node, "sources")
    same_file = [(n, s) for n, s in zip(ye.items(sources[1]) if sources else [], version.sources)
                 if s.kind == "repo" and s.repo == source.get("repo") and s.path == source.get("path")]
    if _is_head(version) and "tags" in source and source["tags"]:
        _take_over_head(plan, version, source, release, release + version.timeline.suffix)
        return
    if "branch" in source:
        if same_file and same_file[0][1].branch and same_file[0][1].commit != source["commit"]:
            files.versions.replace(ye.get(same_file[0][0], "commit")[1], source["commit"])
            plan.report.done.append(f"{version.id}: the branch head is now {source['commit'][:12]}")
        return
    if same_file and same_file[0][1].tags is not None and not same_file[0][1].branch:
        item, known = same_file[0]
        new_tags = [t for t in source.get("tags", []) if t not in known.tags]
        if new_tags:
            tags = sort_tags(list(known.tags) + new_tags)
            files.versions.replace(ye.get(item, "tags")[1], ye.flow(tags))
            plan.report.done.append(f"{version.id}: unchanged page, shipped by {', '.join(new_tags)} too")
        return
    if sources is None:  # pragma: no cover - a version shipped by a repository has sources
        raise ImportProblem(f"version {version.id} has no sources to add {source.get('path')} to")
    files.versions.insert_after(ye.items(sources[1])[-1], _source_lines(source, lang, 8))
    plan.report.done.append(f"{version.id}: unchanged page, also at {source['repo']}:{source['path']} ({', '.join(source.get('tags', []))})")


def _take_over_head(plan: _Plan, head: Version, source: dict, release: str, edition_id: str) -> None:
    """The branch head's version, now shipped by a tag: it becomes the release's (or stays the
    head, updated); its unreleased id goes on resolving (`superseded`)."""
    files, lang = plan.files, plan.family.languages[0]
    node = files.version_node(head.id)
    old = next(s for s in head.sources if s.kind == "repo" and s.branch)
    sources = ye.get(node, "sources")
    item = next(n for n, s in zip(ye.items(sources[1]), head.sources) if s is old)
    if release == UNRELEASED:
        if old.commit != source["commit"]:
            files.versions.replace(ye.get(item, "commit")[1], source["commit"])
        return
    files.versions.replace_lines(item, item, _source_lines(source, lang, 8))
    if head.id.startswith(UNRELEASED):
        files.versions.replace(ye.get(node, "version")[1], ye.quoted(edition_id))
        plan.renamed[head.id] = edition_id
    superseded = ye.get(node, "superseded")
    line = f"        - {{edition: {ye.quoted(head.editions[0])}, commit: {old.commit}}}"
    if superseded is None:
        files.versions.insert_after(node, ["      superseded:", line])
    else:
        files.versions.insert_after(ye.items(superseded[1])[-1], [line])
    plan.report.done.append(f"{edition_id}: the branch head's page ({head.editions[0]}, {old.commit[:12]}) is now "
                            f"release {release}'s; {head.editions[0]} resolves to {edition_id}")


def _new_version(plan: _Plan, timeline: Timeline, edition_id: str, release: str, rows: list[ImportedRow], source: dict,
                 versions: list[Version]) -> None:
    """A changed page: a new version after the one before it, with what differs."""
    family, files = plan.family, plan.files
    plan.new_versions[edition_id] = timeline.id
    key = edition_order(release, family.page_by_id[timeline.page].index, timeline.index, False)
    before = [v for v in versions if min(family.edition_by_id[e].order_key for e in v.editions) < key]
    base = before[-1] if before else None
    lines = [f"    - version: {ye.quoted(edition_id)}"]
    if base is not None:
        lines.append(f"      based_on: {ye.quoted(base.id)}")
    lines.append("      sources:")
    lines += _source_lines(source, family.languages[0], 8)
    languages = (base.languages if base is not None and base.languages else (family.languages[0],))
    lines.append(f"      texts: {ye.flow(list(languages))}")
    lines.append("      order: page")
    lines += _rows_lines([(r.name, r.code, r.recoverable) for r in rows], base, family, timeline)
    after = versions[len(before)] if len(before) < len(versions) else None
    if after is not None:
        files.versions.insert_before(files.version_node(after.id), lines)
    else:
        _append_version(plan, timeline, lines)
    plan.report.done.append(f"{edition_id}: a new page version" + (f", based on {base.id}" if base else ""))
    _texts(plan, edition_id, rows, base, languages)


def _append_version(plan: _Plan, timeline: Timeline, lines: list[str]) -> None:
    """A version after the timeline's last one; the timeline's own key first when family.yaml
    declares a timeline that editions.yaml does not list yet."""
    node = plan.files.timeline_node(timeline.id)
    if node is not None:
        plan.files.versions.insert_after(ye.items(node)[-1], lines)
        return
    root = ye.get(plan.files.roots[plan.files.versions_path], "versions")[1]
    last = list(ye.pairs(root))[-1][2]
    plan.files.versions.insert_after(ye.items(last)[-1], [f"  {timeline.id}:"] + lines)


def _rows_lines(rows: list[tuple[str, str, str]], base: Optional[Version], family: Family, timeline: Timeline) -> list[str]:
    """The rows of a version, or what differs from its base's."""
    page = family.page_by_id[timeline.page]
    if base is None:
        return ["      rows:"] + [f"        {name}: {ye.scalar(value)}" for name, _, value in rows]
    old = {r.code: r for r in base.rows}
    name_of = {code: name for name, code, _ in rows}
    new_order = [code for _, code, _ in rows]
    common = [c for c in new_order if c in old]
    if common != [r.code for r in base.rows if r.code in name_of]:  # moved rows: write them all
        return ["      rows:"] + [f"        {name}: {ye.scalar(value)}" for name, _, value in rows]
    changes = []
    for index, (name, code, value) in enumerate(rows):
        if code not in old:
            anchor = f"after: {name_of[new_order[index - 1]]}" if index else f"before: {name_of[new_order[1]]}" \
                if len(new_order) > 1 else ""
            changes.append(f"        {name}: {{recoverable: {ye.scalar(value)}{', ' + anchor if anchor else ''}}}")
        elif old[code].recoverable != value or old[code].disagreements:
            changes.append(f"        {name}: {ye.scalar(value)}")
    for row in base.rows:
        if row.code not in name_of:
            changes.append(f"        {family.code_by_name[row.code].name_on(page)}: dropped")
    return ["      rows:"] + changes if changes else []


def _change_content(plan: _Plan, version: Version, rows: list[ImportedRow], base: Optional[Version],
                    renamed: Optional[str] = None) -> None:
    """A version whose content changed in place (the branch head's): its rows, its texts."""
    family, files = plan.family, plan.files
    node = files.version_node(version.id)
    if _resolved_rows(version) != [(r.code, r.recoverable) for r in rows]:
        lines = _rows_lines([(r.name, r.code, r.recoverable) for r in rows], base, family, version.timeline) \
            if version.based_on else _rows_lines([(r.name, r.code, r.recoverable) for r in rows], None, family, version.timeline)
        current = ye.get(node, "rows")
        if current is not None:
            files.versions.replace_lines(current[0], current[1], lines)
        elif lines:
            files.versions.insert_after(ye.get(node, "order")[1], lines)
        plan.report.done.append(f"{renamed or version.id}: its rows changed")
    _texts(plan, renamed or version.id, rows, base, version.languages or (family.languages[0],), in_place=version)


# -- codes.yaml ------------------------------------------------------------------------------------------------


def _texts(plan: _Plan, version_id: str, rows: list[ImportedRow], base: Optional[Version], languages,
           in_place: Optional[Version] = None) -> None:
    """For each text the page shows: nothing when it holds on from the version before; else
    an entry from this version (its other languages untranslated)."""
    family = plan.family
    first, others = family.languages[0], [l for l in languages if l != family.languages[0]]
    changed = 0
    for row in rows:
        code = family.code_by_name[row.code]
        for field_name, text in row.texts:
            now = _text_at(family, row.code, field_name, in_place, first) if in_place is not None else None
            if now is not None and now.text == text and now.origin != UNTRANSLATED:
                continue
            held = _text_at(family, row.code, field_name, base, first) if base is not None and row.code in base.row_by_code else None
            edit = plan.field_edit(code, field_name)
            if in_place is not None:
                _stop_at(edit, in_place.id)
            if held is not None and held.text == text and in_place is None:
                continue
            if held is not None and held.text == text:
                continue  # the start removed above lets the base's text hold on
            edit.new.append({"from": [version_id], "texts": {first: text}, "untranslated": others})
            changed += 1
            for lang in others:
                plan.report.todo.append(f"translate: {code.name} {field_name} ({lang}) from {version_id} "
                                        f"(codes.yaml: untranslated: [{lang}])")
    if changed:
        plan.report.done.append(f"{version_id}: {changed} text(s) changed")


def _stop_at(edit: _FieldEdit, version_id: str) -> None:
    """The field's entries that start at a version whose text changed in place stop starting there."""
    for index in range(len(edit.written)):
        if version_id in edit.current(index):
            edit.starts[index] = [s for s in edit.current(index) if s != version_id]


def _other_language(plan: _Plan, timeline: Timeline, edition_id: str, lang: str, rows: list[ImportedRow],
                    source: dict) -> None:
    """Upstream's English of a version: it holds for every version whose zh text is the same."""
    family = plan.family
    edition = family.edition(edition_id)
    if edition is None:
        raise ImportProblem(f"edition {edition_id} does not exist yet: import its {family.languages[0]} page first")
    version = family.version_by_id[edition.version]
    listed = {r.code for r in version.rows}
    if {r.code for r in rows} != listed:
        raise ImportProblem(f"the {lang} page lists other codes than edition {edition_id} does: "
                            f"only on the page: {', '.join(sorted({r.code for r in rows} - listed)) or 'none'}; "
                            f"only in the catalog: {', '.join(sorted(listed - {r.code for r in rows})) or 'none'}")
    if lang not in (version.languages or ()):
        node = plan.files.version_node(version.id)
        texts = ye.get(node, "texts")
        plan.files.versions.replace(texts[1], ye.flow([l for l in family.languages if l in (*(version.languages or ()), lang)]))
    if source and not any(s.kind == source_kind(source) and s.lang == lang and s.path == source.get("path")
                          and s.commit == source.get("commit") and s.url == source.get("url") for s in version.sources):
        node = plan.files.version_node(version.id)
        plan.files.versions.insert_after(ye.items(ye.get(node, "sources")[1])[-1], _source_lines(source, lang, 8))
    changed = 0
    for row in rows:
        code = family.code_by_name[row.code]
        for field_name, text in row.texts:
            current = code.entry(field_name, version.editions[0], lang)
            if current is not None and current.text == text and current.origin == "upstream":
                continue
            edit = plan.field_edit(code, field_name)
            starting = [i for i in range(len(edit.written)) if version.id in edit.current(i) and edit.holds(i, lang)]
            if starting:  # an entry of this language starts here: its text is this page's
                edit.texts[(starting[0], lang)] = text
            else:
                edit.new.append({"from": [version.id], "texts": {lang: text}, "untranslated": []})
            changed += 1
    plan.report.done.append(f"{edition_id}: {changed} {lang} text(s) from {source.get('path') or 'the page'}")


def source_kind(source: dict) -> str:
    return "repo" if "repo" in source else "url"


def _published(plan: _Plan, timeline: Timeline, release: str, published: Optional[Version], rows, source: dict,
               versions: list[Version]) -> None:
    """A page as a release published it (a URL): the timeline's version for that release."""
    family = plan.family
    if published is not None:
        if not _same_content(family, published, rows, family.languages[0]):
            _change_content(plan, published, rows, _previous(versions, published))
        return
    edition_id = release + timeline.suffix
    key = edition_order(release, family.page_by_id[timeline.page].index, timeline.index, False)
    before = [v for v in versions if min(family.edition_by_id[e].order_key for e in v.editions) < key]
    base = before[-1] if before else None
    lines = [f"    - version: {ye.quoted(edition_id)}", f"      release: {ye.quoted(release)}"]
    if base is not None:
        lines.append(f"      based_on: {ye.quoted(base.id)}")
    languages = base.languages if base is not None and base.languages else (family.languages[0],)
    lines += ["      sources:"] + _source_lines(source, family.languages[0], 8)
    lines += [f"      texts: {ye.flow(list(languages))}", "      order: page"]
    lines += _rows_lines([(r.name, r.code, r.recoverable) for r in rows], base, family, timeline)
    after = versions[len(before)] if len(before) < len(versions) else None
    if after is not None:
        plan.files.versions.insert_before(plan.files.version_node(after.id), lines)
    else:
        _append_version(plan, timeline, lines)
    plan.report.done.append(f"{edition_id}: the page published for {release}, a new version")
    _texts(plan, edition_id, rows, base, languages)


# -- writing -------------------------------------------------------------------------------------------------


def _render_fields(plan: _Plan) -> None:
    files = plan.files
    for (name, field_name), edit in plan.entries.items():
        code_node = files.code_node(name)
        found = ye.get(code_node, field_name)
        nodes = ye.items(found[1]) if found else []
        for index, starts in edit.starts.items():
            item = nodes[index]
            if starts == edit.written[index]:
                continue
            if starts:
                files.codes.replace(ye.get(item, "from")[1], ye.flow([ye.quoted(s) for s in starts]))
            else:
                files.codes.delete_lines(item, item)
        for (index, lang), text in edit.texts.items():
            _set_entry_text(files.codes, nodes[index], lang, text)
        lines = []
        for new in _merged(plan, edit.new):
            lines.append(f"      - from: {ye.flow([ye.quoted(s) for s in new['from']])}")
            for lang, text in new["texts"].items():
                lines += ye.text_lines(lang, text, 8)
            if new["untranslated"]:
                lines.append(f"        untranslated: {ye.flow(new['untranslated'])}")
        if not lines:
            continue
        if found is not None and nodes:
            files.codes.insert_after(nodes[-1], lines)
        else:
            later = [k for k in ("cause", "solution") if ("meaning", "cause", "solution").index(k) >
                     ("meaning", "cause", "solution").index(field_name) and ye.get(code_node, k)]
            head = [f"    {field_name}:"] + lines
            if later:
                files.codes.insert_before(ye.get(code_node, later[0])[0], head)
            else:
                files.codes.insert_after(code_node, head)


def _merged(plan: _Plan, new: list[dict]) -> list[dict]:
    """New entries with the same texts on different timelines (a new code on the Python and
    the C++ page) written once, starting at each of their versions."""
    out: list[dict] = []
    for entry in new:
        same = next((o for o in out if o["texts"] == entry["texts"] and o["untranslated"] == entry["untranslated"]
                     and not {plan.timeline_of(v) for v in o["from"]} & {plan.timeline_of(v) for v in entry["from"]}), None)
        if same is None:
            out.append({**entry, "from": list(entry["from"])})
        else:
            same["from"] += entry["from"]
    return out


def _set_entry_text(codes: ye.FileEdit, item: Node, lang: str, text: str) -> None:
    """An entry's text in one language set, its untranslated mark for that language lifted."""
    found, mark = ye.get(item, lang), ye.get(item, "untranslated")
    lines = ye.text_lines(lang, text, 8)
    if found is not None:
        codes.replace_lines(found[0], found[1], lines)
    if mark is not None and lang in {str(v.value) for v in ye.items(mark[1])}:
        rest = [str(v.value) for v in ye.items(mark[1]) if str(v.value) != lang]
        if rest:
            codes.replace(mark[1], ye.flow(rest))
            codes.insert_before(mark[0], lines)
        else:
            codes.replace_lines(mark[0], mark[1], lines)


def _rename_starts(plan: _Plan) -> None:
    """References to a version renamed by the import (the branch head's, now a release's)."""
    if not plan.renamed:
        return
    for code in plan.family.codes:
        for field_name, entries in code.texts:
            if not any(s in plan.renamed for e in entries for s in e.starts):
                continue
            edit = plan.field_edit(code, field_name)
            for index in range(len(edit.written)):
                if any(s in plan.renamed for s in edit.current(index)):
                    edit.starts[index] = [plan.renamed.get(s, s) for s in edit.current(index)]
    for version in plan.family.versions:
        if version.based_on in plan.renamed:
            node = plan.files.version_node(version.id)
            plan.files.versions.replace(ye.get(node, "based_on")[1], ye.quoted(plan.renamed[version.based_on]))


def write(plan: _Plan) -> list[Path]:
    """Apply the plan, validate the result, write the files that changed."""
    _rename_starts(plan)
    _render_fields(plan)
    rendered = plan.files.rendered()
    changed = {path: text for path, text in rendered.items() if text != path.read_text(encoding="utf-8")}
    _validate(plan.files.location, rendered)
    write_together(plan.files.location, {path: text.encode("utf-8") for path, text in changed.items()})
    return sorted(changed)


# -- several files, all or none ------------------------------------------------------------------------------

IMPORT_JOURNAL = ".import-journal.json"


def journal_of(location: Path) -> Path:
    """Where an import that writes several catalog files keeps its journal while it renames them."""
    return location / IMPORT_JOURNAL if location.is_dir() else location.parent / f".{location.name}{IMPORT_JOURNAL}"


def write_together(location: Path, files: dict[Path, bytes]) -> None:
    """Write the files so that a run killed part-way leaves all of them old or, once the
    journal is written, a journal from which the next import finishes them: every new text
    is written beside its file first, then the journal naming them, then each is renamed."""
    if len(files) <= 1:
        for path, data in files.items():
            atomic_write(path, data)
        return
    journal, temps = journal_of(location), {}
    try:
        for path, data in files.items():
            temp = path.with_name(f".{path.name}.import-{os.getpid()}")
            with open(temp, "wb") as handle:
                handle.write(data)
            temps[path] = temp
        atomic_write(journal, json.dumps({"pid": os.getpid(), "files": [[str(p), str(t)] for p, t in temps.items()]},
                                         ensure_ascii=False).encode("utf-8"))
    except BaseException:
        for temp in temps.values():
            with contextlib.suppress(OSError):
                temp.unlink()
        raise
    for path, temp in temps.items():
        os.replace(temp, path)
    journal.unlink()


def finish_stopped_import(location: Path) -> list[str]:
    """Finish the renames of an import that was stopped after writing its journal; the files
    it finished (none when no import was stopped). ImportProblem when the journal is not one."""
    journal = journal_of(location)
    if not os.path.lexists(journal):
        return []
    try:
        data = json.loads(read_regular(journal, 1 << 20).decode("utf-8"))
        pairs = [(Path(p), Path(t)) for p, t in data["files"]]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        raise ImportProblem(f"{journal}: not the journal of an import; check the catalog with `git status`, "
                            "then remove this file") from None
    base = (location if location.is_dir() else location.parent).resolve()
    finished = []
    for path, temp in pairs:
        if path.resolve().parent != temp.resolve().parent or not str(path.resolve()).startswith(str(base) + os.sep):
            raise ImportProblem(f"{journal}: names {path}, outside the catalog; remove this file")
        if os.path.lexists(temp):
            os.replace(temp, path)
            finished.append(display_path(path))
    journal.unlink()
    return finished


def _validate(location: Path, rendered: dict[Path, str]) -> None:
    """Load the edited catalog from a scratch copy; CatalogError (naming the real files) stops the import."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "catalog"
        real: dict[str, str] = {}
        base = location if location.is_dir() else location.parent
        for _, paths in catalog_groups(location):
            for path in paths:
                copy_path = root / path.relative_to(base)
                copy_path.parent.mkdir(parents=True, exist_ok=True)
                copy_path.write_text(rendered.get(path, path.read_text(encoding="utf-8")), encoding="utf-8")
                real[display_path(copy_path)] = display_path(path)
        try:
            load_catalog(root if location.is_dir() else root / location.name)
        except CatalogError as error:
            lines = []
            for p in error.problems[:MAX_PROBLEMS_SHOWN]:
                where = real.get(p.pos.path, p.pos.path)
                shown = ""
                if p.pos.line:
                    text = Path(p.pos.path).read_text(encoding="utf-8") if Path(p.pos.path).is_file() else ""
                    at = text.splitlines()[p.pos.line - 1:p.pos.line]
                    shown = f" `{at[0].strip()[:100]}`" if at else ""
                lines.append(f"{where}:{p.pos.line}:{p.pos.col}: {p.message} (in {where} as the import would write it, "
                             f"at{shown or ' that line'})")
            if len(error.problems) > MAX_PROBLEMS_SHOWN:
                lines.append(f"... and {len(error.problems) - MAX_PROBLEMS_SHOWN} more")
            raise ImportProblem("the page would make the catalog invalid, so nothing was written:\n" + "\n".join(lines)) from None


# -- a whole release ---------------------------------------------------------------------------------------------


def import_release(location: Path, name: str, repo, ref: str) -> Report:
    """Every page of every family with a timeline (or a page's translation) in repository
    `name`, at `ref` (a tag, the branch head, or a commit for an untagged translation)."""
    report = Report()
    release = _release_of(repo, ref)
    for step in ("codes", "first", "other"):  # the codes a page lists first, the pages a translation translates next
        catalog = load_catalog(location)
        for family in catalog.families:
            plan = _Plan(family, Files(location, family), report)
            if step == "codes":
                _release_codes(plan, name, repo, ref, release)
            for timeline in family.timelines:
                if step == "first":
                    _release_page(plan, timeline, name, repo, ref, release)
                elif step == "other":
                    _release_translations(plan, timeline, name, repo, ref, release)
            for path in write(plan):
                report.done.append(f"wrote {display_path(path)}")
    return report


def _release_of(repo, ref: str) -> Optional[str]:
    """The release a ref is: a tag's, `unreleased` for the branch head, None for another commit."""
    if ref in repo.release_tags():
        return tag_release(ref)
    if repo.commit(ref) == repo.commit("HEAD"):
        return UNRELEASED
    return None


def _release_page(plan: _Plan, timeline: Timeline, name: str, repo, ref: str, release: Optional[str]) -> None:
    if timeline.repo != name or release is None:
        return
    found = [(path, repo.blob_at(ref, path)) for path in reversed(timeline.paths)]
    path, blob = next(((p, b) for p, b in found if b), (None, None))
    if path is None:
        plan.report.todo.append(f"{timeline.id}: no page at {', '.join(timeline.paths)} at {ref}: "
                                "if it moved, add its path to the timeline's `paths` in family.yaml")
        return
    page = PageSource(_blob_text(repo, blob, f"{name}:{path}@{ref}"), f"{name}:{path}@{ref}", False,
                      shipping_source(name, repo, ref, path, blob), repo, blob)
    edition_id = release + timeline.suffix
    rows = read_rows(plan.family, timeline, plan.family.languages[0], page)
    before = len(plan.report.done)
    _first_language(plan, timeline, release, edition_id, rows, page)
    if len(plan.report.done) == before:
        plan.report.done.append(f"{edition_id}: already recorded")


def _release_translations(plan: _Plan, timeline: Timeline, name: str, repo, ref: str, release: Optional[str]) -> None:
    """The timeline's pages in other languages that a version cites in this repository."""
    family = plan.family
    versions = [v for v in family.versions if v.timeline.id == timeline.id]
    cited = {(s.lang, s.path) for v in versions for s in v.sources if s.repo == name and s.lang not in (None, family.languages[0])}
    for lang, path in sorted(cited):
        blob = repo.blob_at(ref, path)
        if blob is None:
            continue
        source = shipping_source(name, repo, ref, path, blob)
        same = [(v, s) for v in versions for s in v.sources
                if s.repo == name and s.path == path and s.lang == lang and repo.has_commit(s.commit) and repo.blob_at(s.commit, path) == blob]
        if same:
            version, known = same[0]
            new_tags = [t for t in source.get("tags", []) if t not in known.tags]
            if new_tags:
                _add_tags(plan, version, known, new_tags)
            continue
        target = _translated_version(family, versions, release, timeline)
        if target is None:
            plan.report.todo.append(f"{timeline.id}: {name}:{path}@{ref} ({lang}): which version it translates is not "
                                    f"clear; import it with --edition ID --lang {lang} --ref {ref} --path {path}")
            continue
        page = PageSource(_blob_text(repo, blob, f"{name}:{path}@{ref}"), f"{name}:{path}@{ref}", False, source)
        _other_language(plan, timeline, target.editions[0], lang, read_rows(family, timeline, lang, page), source)


def _translated_version(family: Family, versions: list[Version], release: Optional[str], timeline: Timeline) -> Optional[Version]:
    """The version a translation at a release is of: that release's; for an untagged commit,
    the newest version of a final release."""
    if release is not None:
        edition = family.edition(release + timeline.suffix)
        return None if edition is None else family.version_by_id[edition.version]
    final = [v for v in versions if any(family.edition_by_id[e].released and "-" not in family.edition_by_id[e].release
                                        for e in v.editions)]
    return final[-1] if final else None


def _add_tags(plan: _Plan, version: Version, known, new_tags: list[str]) -> None:
    node = plan.files.version_node(version.id)
    item = next(n for n, s in zip(ye.items(ye.get(node, "sources")[1]), version.sources) if s is known)
    plan.files.versions.replace(ye.get(item, "tags")[1], ye.flow(sort_tags(list(known.tags) + new_tags)))
    plan.report.done.append(f"{version.id}: {known.path} ({known.lang}) unchanged, shipped by {', '.join(new_tags)} too")


# -- the codes of a release ---------------------------------------------------------------------------------------


@dataclass
class _Sources:
    """What a repository's source files say at one ref: members, bindings, constants, messages."""

    members: list = field(default_factory=list)  # upstream.Member of the enum, in order
    bindings: dict[str, str] = field(default_factory=dict)  # wrapper -> the constant it binds
    constants: list[tuple] = field(default_factory=list)  # (upstream.Constant, header path)
    messages: dict[str, str] = field(default_factory=dict)  # C name -> the message it logs
    read: set[str] = field(default_factory=set)  # the kinds of file read


def _sources_at(family: Family, name: str, repo, ref: str) -> _Sources:
    from generator import upstream
    from generator.audit_upstream import _file_at

    found = _Sources()
    for item in (u for u in family.upstream if u.repo == name):
        path, blob = _file_at(repo, ref, item)
        if blob is None:
            continue
        text = _blob_text(repo, blob, f"{name}:{path}@{ref}")
        found.read.add(item.kind)
        if item.kind == "python" and family.python.shape == "enum":
            found.members = upstream.read_python(text, family.python.class_name).members
        elif item.kind == "binding":
            found.bindings.update((b.name, b.expression) for b in upstream.read_binding(text)[0])
        elif item.kind == "header":
            found.constants += [(c, item.header) for c in upstream.read_header(text, family.value_layouts)[0]]
        elif item.kind == "messages":
            found.messages.update((m.name, m.text) for m in upstream.read_messages(text)[0])
    return found


def _statuses(family: Family, found: _Sources) -> dict[str, list[tuple]]:
    """The status constants the headers declare, by short name: (Constant, header path)."""
    from generator.audit import _is_status

    namespaces = {h.namespace for h in family.headers}
    by_short: dict[str, list[tuple]] = {}
    for constant, header in found.constants:
        if constant.namespace in namespaces and constant.value is not None and _is_status(constant, family):
            by_short.setdefault(constant.name, []).append((constant, header))
    return by_short


def _release_codes(plan: _Plan, name: str, repo, ref: str, release: Optional[str]) -> None:
    """Codes upstream's source files have at a release that the catalog lacks (added, with
    where they came from), and codes they no longer have (obsolete, the reason left to a person)."""
    family = plan.family
    if release is None or not any(u.repo == name for u in family.upstream):
        return
    found = _sources_at(family, name, repo, ref)
    by_short = _statuses(family, found)
    known_python = {c.python_name for c in family.codes if c.python_name}
    known_c = {c.c_name for c in family.codes if c.c_name}
    values = {c.value: c for c in family.codes}
    previous: Optional[str] = None  # new members go after the catalog's code before them, in order
    for member in found.members:
        if member.name in known_python:
            previous = member.name
            _seen_in(plan, family.code_by_name[member.name], name, release)
            continue
        new = _new_member(plan, member, found, by_short, values, name, release)
        if new is not None:
            _insert_code(plan, new, after=previous)
    bound = {expr.rsplit("::", 1)[-1] for expr in found.bindings.values()}
    for short, declared in by_short.items():
        if short in known_c or short in bound or any(short == m.name for m in found.members):
            continue
        value = declared[0][0].value
        if value in values:
            continue
        code = {"c": short, "value": value, "cpp": _cpp_lines(declared), "log": found.messages.get(short)}
        _insert_code(plan, {**code, "added": {name: release}}, after=_by_value(family, value))
        plan.report.done.append(f"{short}: a new C/C++ code ({_literal(family, value)}), added in {name} {release}")
    earlier = [t for t in repo.release_tags() if release_key(tag_release(t)) < release_key(release)]  # type: ignore[operator]
    if earlier:
        before = _sources_at(family, name, repo, earlier[-1])
        _gone(plan, (found, by_short), (before, _statuses(family, before)), name, release)


def _new_member(plan: _Plan, member, found: _Sources, by_short, values, name: str, release: str) -> Optional[dict]:
    from generator.upstream import Reference

    family = plan.family
    wrapper, c_name, value = None, None, member.value if isinstance(member.value, int) else None
    if isinstance(member.value, Reference):
        wrapper = member.value.name
        expression = found.bindings.get(wrapper)
        if expression is not None:
            short = expression.rsplit("::", 1)[-1]
            declared = by_short.get(short)
            if declared:
                c_name, value = short, declared[0][0].value
            elif expression in dict(family.runtime_constants):
                value = dict(family.runtime_constants)[expression]
    if value is None:
        plan.report.todo.append(f"{member.name}: a new member of {family.python.class_name} in {name} {release} whose "
                                "value could not be read from the binding and headers; add it to codes.yaml by hand")
        return None
    if value in values:
        plan.report.todo.append(f"{member.name}: a new member with the value of {values[value].name} ({value}); "
                                "add it to codes.yaml by hand")
        return None
    plan.report.done.append(f"{member.name}: a new code ({_literal(family, value)}), added in {name} {release}")
    return {"python": member.name, "c": c_name, "value": value, "wrapper": wrapper,
            "cpp": _cpp_lines(by_short.get(c_name, ())) if c_name else [], "log": found.messages.get(c_name or ""),
            "added": {name: release}}


def _seen_in(plan: _Plan, code: Code, name: str, release: str) -> None:
    """A code added in some repositories that this one now has too: it records where."""
    if not code.added or name in dict(code.added):
        return
    node = ye.get(plan.files.code_node(code.name), "added")
    added = {**dict(code.added), name: release}
    plan.files.codes.replace(node[1], "{" + ", ".join(f"{r}: {ye.quoted(v)}" for r, v in added.items()) + "}")
    plan.report.done.append(f"{code.name}: {name} has it too, from {release}")


def _cpp_lines(declared) -> list[str]:
    return [f"      - {{name: {ye.quoted(constant.qualified)}, header: {header}}}" for constant, header in declared]


def _literal(family: Family, value: int) -> str:
    return f"0x{value:X}" if family.c.literals == "hex" and value >= 0 else str(value)


def _by_value(family: Family, value: int) -> Optional[str]:
    """The code a C-only code goes after: the last with a smaller value."""
    smaller = [c for c in family.codes if 0 <= c.value < value and c.in_c]
    return max(smaller, key=lambda c: c.value).name if smaller else None


def _insert_code(plan: _Plan, code: dict, after: Optional[str]) -> None:
    family, files = plan.family, plan.files
    lines = []
    for key in ("python", "c"):
        if code.get(key):
            lines.append(("  - " if not lines else "    ") + f"{key}: {code[key]}")
    lines.append(f"    value: {_literal(family, code['value'])}")
    if code.get("wrapper"):
        lines.append(f"    wrapper: {code['wrapper']}")
    if code["cpp"]:
        lines += ["    cpp:"] + code["cpp"]
    if code.get("log") is not None:
        lines.append(f"    log_message: {ye.scalar(code['log'])}")
    lines.append("    added: {" + ", ".join(f"{repo}: {ye.quoted(release)}" for repo, release in code["added"].items()) + "}")
    codes = ye.items(ye.get(files.roots[files.codes_path], "codes")[1])
    if after is None:
        files.codes.insert_before(codes[0], lines)
    else:
        files.codes.insert_after(files.code_node(after), lines)


def _gone(plan: _Plan, now: tuple, before: tuple, name: str, release: str) -> None:
    """Codes this repository's files had at its release before and no longer have: obsolete
    since this release (why is left to a person)."""
    family = plan.family
    for code in family.codes:
        if code.obsolete is not None or not code.present_at(name, release):
            continue
        if not _has(family, code, *before) or _has(family, code, *now):
            continue
        node = plan.files.code_node(code.name)
        text_keys = [k for k in ("meaning", "cause", "solution") if ye.get(node, k)]
        line = [f"    obsolete: {{since: {ye.quoted(release)}}}"]
        if text_keys:
            plan.files.codes.insert_before(ye.get(node, text_keys[0])[0], line)
        else:
            plan.files.codes.insert_after(node.value[-1][1], line)
        plan.report.done.append(f"{code.name}: gone from {name} at {release}: obsolete since {release}")
        plan.report.todo.append(f"{code.name}: word why it is obsolete (codes.yaml: obsolete.reason, in every language)")


def _has(family: Family, code: Code, found: _Sources, by_short: dict) -> bool:
    """Whether a repository's files at a ref have the code (by its Python or its C name)."""
    return (code.python_name is not None and code.python_name in {m.name for m in found.members}) or \
        (code.c_name is not None and code.c_name in by_short)
