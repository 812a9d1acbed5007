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

A text is written once: a version whose text an entry of the code's column already writes
(the same words in that language, upstream's, with the same markup) joins that entry's `from`,
its other languages with it (generator.importing.text_entries).

The files are edited as ruamel.yaml round-trip documents (generator.importing.catalog_files):
what the import does not change keeps its bytes, comments and layout. The edited catalog is
validated before anything is written. Importing the same page twice changes nothing.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from generator.importing import catalog_yaml as cy
from generator.upstream.git import GitError
from generator.core.exits import UsageError
from generator.reading.load import display_path
from generator.domain.editions import Version
from generator.domain.family import Catalog, Family
from generator.domain.model import UNTRANSLATED, Timeline
from generator.core.releases import UNRELEASED, edition_order, edition_releases, release_key, sort_tags, tag_release
from generator.importing.catalog_files import Files, Plan, source_map, stage, write_staged
from generator.importing.page_source import ImportProblem, ImportedRow, PageSource, Report, edition_place, read_rows


# -- one page ---------------------------------------------------------------------------------------------------

def import_page(
    location: Path, catalog: Catalog, family: Family, edition_id: str, lang: str, page: PageSource
) -> Report:
    """Record one page as edition `edition_id`'s: what was done, and what is left for a person."""
    timeline, release = edition_place(family, edition_id)
    rows = read_rows(family, timeline, lang, page)
    plan = Plan(family, Files(location, family), Report())
    if lang == family.languages[0]:
        first_language(plan, timeline, release, edition_id, rows, page)
    else:
        _shared_version(family, edition_id, lang, rows)
        other_language(plan, timeline, edition_id, lang, rows, page.source)
    if not plan.report.done:
        plan.report.done.append(f"{edition_id} ({lang}): already recorded")
    staged: dict[Path, str] = {}
    stage(plan, staged)  # applied and validated, then written
    plan.report.done += [f"wrote {display_path(path)}" for path in write_staged(location, staged)]
    return plan.report


def _shared_version(family: Family, edition_id: str, lang: str, rows: list[ImportedRow]) -> None:
    """A translation that says otherwise than the version of an edition that other editions
    share would change what those say too: refused, with the import that records it apart."""
    edition = family.edition(edition_id)
    if edition is None:
        return
    version = family.version_by_id[edition.version]
    others = [e for e in version.editions if e != edition.id]
    if others and not same_texts(family, version, rows, lang):
        raise ImportProblem(
            f"edition {edition_id} shares its page version {version.id} with {', '.join(others)}; this {lang} page "
            f"says otherwise than the version does, and recording it there would change what "
            f"{', '.join(others)} say too: import the release with `import --upstream OWNER/NAME=DIR --ref TAG`, "
            "which gives a release whose translation changed a version of its own")


def _shown(version: Version, row) -> str:
    """The name a version's row shows, with its page's row prefix (as an imported row's name)."""
    return (version.page.row_prefix if version.page.row_names == "c" else "") + row.name


def _resolved_rows(version: Version) -> list[tuple[str, str, str]]:
    return [(_shown(version, r), r.code, r.recoverable) for r in version.rows]


def _text_at(family: Family, code_name: str, field_name: str, version: Version, lang: str):
    return family.code_by_name[code_name].entry(field_name, version.editions[0], lang)


def same_texts(family: Family, version: Version, rows: list[ImportedRow], lang: str) -> bool:
    """Whether a page in `lang` says what the version says in it: the same rows, names and texts,
    each upstream's (not a translation of this project's, not one still to be written)."""
    if not version.has_texts(lang) or [(r.name, r.code) for r in rows] != [(s, c) for s, c, _ in
                                                                         _resolved_rows(version)]:
        return False
    return _same_content(family, version, rows, lang)


def _same_content(family: Family, version: Version, rows: list[ImportedRow], lang: str) -> bool:
    if lang == family.languages[0] and _resolved_rows(version) != [(r.name, r.code, r.recoverable) for r in rows]:
        return False
    if [r.code for r in version.rows] != [r.code for r in rows]:
        return False
    for row in rows:
        for field_name, text in row.texts:
            entry = _text_at(family, row.code, field_name, version, lang)
            if entry is None or not _says(entry, text, field_name in row.markdown) or \
                    entry.origin in (UNTRANSLATED, "translation"):
                return False
    return True


def first_language(plan: Plan, timeline: Timeline, release: str, edition_id: str, rows: list[ImportedRow],
                    page: PageSource, translated: bool = False, prefer=None) -> None:
    """A page in the family's first language as the release's: shipped by a version that has it,
    the branch head's version taken over, or a new version (`translated`: also when a version
    has this very file, since its translation changed in this release)."""
    family, source = plan.family, page.source
    versions = list(family.timeline_versions(timeline))
    existing = family.edition(edition_id)
    if not source or "url" in source:
        # the page again, for an edition the catalog has (its content, in place); or a page as a release
        # published it (a URL): the timeline's version for that release, else a new one
        if not source and existing is None:  # wrong usage (exit 2): the command line lacks what the page needs
            raise UsageError(f"--edition {edition_id}: a new edition needs a source: import with --upstream "
                             "OWNER/NAME=DIR --ref --path, or give --url")
        version = family.version_by_id[existing.version] if existing is not None and not source else \
            next((v for v in versions if v.release == release), None)
        if version is None:
            _new_version(plan, timeline, release + timeline.suffix, release, rows, source, versions, published=True)
        elif not _same_content(family, version, rows, family.languages[0]):
            _change_content(plan, version, rows, _previous(versions, version))
        return
    same = holding(family, versions, page, release, prefer) if page.repo is not None else \
        next((v for v in versions if _same_content(family, v, rows, family.languages[0])), None)
    head = next((v for v in versions if is_head(v)), None)
    if same is not None and release == UNRELEASED and head is not None and same is not head:
        # the default branch now ships a released version's file (a release branch merged back): the head's
        # version follows it, as it follows any change of the branch's page; else `unreleased-*` kept the
        # branch's older page and the import said the catalog records it already
        same = None
    if same is not None and translated and release != UNRELEASED:
        for version in versions:  # every version whose file this is: an English-only change may come again
            if page.repo is not None and same_file(version, page):
                _cut_tags(plan, version, source, release)
        _new_version(plan, timeline, edition_id, release, rows, source, versions)
    elif same is not None:
        _ship(plan, same, source, release, page.repo)
    elif head is not None and release != UNRELEASED and (first := _older_tag_first(head, page.repo, release)):
        # an older tag the catalog does not record yet takes the head's version over first, and this
        # release's page is a version after it (as an import in release order makes)
        raise first
    elif head is not None and (release == UNRELEASED or (_newer_than_all(release, versions)
                                                         and _cut_after(head, page.repo, source))):
        _take_over_head(plan, head, source, release, edition_id)
        _change_content(plan, head, rows, _previous(versions, head), renamed=plan.renamed.get(head.id, head.id))
    else:
        _new_version(plan, timeline, edition_id, release, rows, source, versions)


def holding(family: Family, versions: list[Version], page: PageSource, release: Optional[str],
            prefer=None) -> Optional[Version]:
    """The version whose file the page is, for `release`: of the versions citing this very file
    (after an English-only release, the version before it and the one it made both do), those
    whose translations are the release's too (`prefer`, where given and some are), the newest
    shipped by a release up to this one; else the oldest. A page moved unchanged (the same file at
    another path of the repository) is held by the versions of that file."""
    matching = [v for v in versions if same_file(v, page)] or [v for v in versions if same_file(v, page, moved=True)]
    if prefer is not None and any(prefer(v) for v in matching):
        matching = [v for v in matching if prefer(v)]
    key = release_key(release) if release and release != UNRELEASED else None
    if not matching or key is None:
        return matching[-1] if matching else None
    up_to = [v for v in matching if any((release_key(family.edition_by_id[e].release) or ()) <= key
                                        for e in v.editions if family.edition_by_id[e].released)]
    return up_to[-1] if up_to else matching[0]


def cited_tags(family: Family, version: Version, lang: Optional[str]) -> set[str]:
    """The tags any version of the version's timeline already cites for `lang`: a file that went
    back to an older version's bytes is shipped by each tag once, by the version that tag made."""
    return {t for v in family.timeline_versions(version.timeline) for s in v.sources if s.lang == lang
            for t in (s.tags or ())}


def same_file(version: Version, page: PageSource, moved: bool = False) -> bool:
    """Whether a version cites the very file the page is (same repository, path and blob; `moved`:
    at any path)."""
    repo, source = page.repo, page.source
    return repo is not None and any(cites(s, repo, source.get("repo"), s.path if moved else source.get("path"),
                                          page.blob) for s in version.sources)


def cites(source, repo, name: Optional[str], path: Optional[str], blob: Optional[str]) -> bool:
    """Whether a version's source is this very file: repository `name`'s, at `path`, whose commit
    (one `repo` has) holds `blob` there."""
    return (source.kind == "repo" and source.repo == name and source.path == path and bool(source.commit)
            and repo.has_commit(source.commit) and repo.blob_at(source.commit, path) == blob)


def _cut_tags(plan: Plan, version: Version, source: dict, release: str) -> None:
    """The new version's tags leave the version whose file they still ship: their translation
    differs, so for those releases the page is a version of its own."""
    for item, known in zip(plan.files.version(version.id)["sources"], version.sources):
        if (known.repo, known.path) != (source.get("repo"), source.get("path")) or not known.tags:
            continue
        leaving = set(source.get("tags") or ()) or {t for t in known.tags if (release_key(tag_release(t)) or ())
                                                    >= (release_key(release) or ())}
        kept = [t for t in known.tags if t not in leaving]
        if kept and kept != list(known.tags):
            cy.set_value(item, "tags", cy.flow(kept))


def is_head(version: Version) -> bool:
    """Whether the version is the branch head's only: a branch's file, and no tag ships any of its files."""
    return any(s.kind == "repo" and s.branch for s in version.sources) and not any(s.tags for s in version.sources)


def _head_source(head: Version, repo):
    """The branch head's version's source in the first language, where `repo` has its commit."""
    branch = next((s for s in head.sources if s.kind == "repo" and s.branch and s.path and s.commit), None)
    return branch if repo is not None and branch is not None and repo.has_commit(branch.commit) else None


def _cut_after(head: Version, repo, source: dict) -> bool:
    """Whether a tag that ships the page comes after the branch head the catalog records (a release
    cut from it, which takes its version over); a tag before it (the head moved on) does not, nor
    does a tag off the branch while the branch still ships the head's file (a release made on a
    commit of its own: the branch's page is still the head's version)."""
    branch = _head_source(head, repo)
    if branch is None:
        return True  # nothing to tell it by: as before
    if not any(repo.is_ancestor(branch.commit, repo.commit(tag)) for tag in source.get("tags") or ()):
        return False
    try:
        still = repo.blob_at(branch.branch, branch.path) == repo.blob_at(branch.commit, branch.path)
    except GitError:  # the branch is gone from this copy: as before
        return True
    return not still


class OlderTagFirst(ImportProblem):
    """A release whose import needs an older tag's first (`tag`, and why): the import brings that one
    in, then this."""

    def __init__(self, tag: str, why: str):
        super().__init__(f"import --ref {tag} first: {why}")
        self.tag, self.why = tag, why


def _older_tag_first(head: Version, repo, release: str) -> Optional[OlderTagFirst]:
    """The first tag older than `release` that takes the branch head's version over (one the catalog
    cannot record yet, or it would have): a tag that ships the head's page, or one cut after the head."""
    branch = _head_source(head, repo)
    if branch is None:
        return None
    blob = repo.blob_or_none(branch.commit, branch.path)
    for tag in repo.release_tags():
        if (release_key(tag_release(tag) or "") or ()) >= (release_key(release) or ()):
            break  # release order: every tag after is no older
        if blob is not None and repo.blob_or_none(tag, branch.path) == blob:
            return OlderTagFirst(tag, "the branch head's page the catalog records is the one it ships")
        if repo.is_ancestor(branch.commit, repo.commit(tag)):
            return OlderTagFirst(tag, "a release cut after the branch head the catalog records, before this one")
    return None


def _newer_than_all(release: str, versions: list[Version]) -> bool:
    tagged = [r for v in versions for s in v.sources for r in map(tag_release, s.tags) if r]
    return all(release_key(release) > release_key(r) for r in tagged)  # type: ignore[operator]


def _previous(versions: list[Version], version: Version) -> Optional[Version]:
    index = versions.index(version)
    return versions[index - 1] if index else None


# -- editions.yaml ---------------------------------------------------------------------------------------------


def _ship(plan: Plan, version: Version, source: dict, release: str, repo=None) -> None:
    """A version whose content the page has: the release's tag joins its source."""
    sources = plan.files.version(version.id)["sources"]
    same_file = [(n, s) for n, s in zip(sources, version.sources)
                 if s.kind == "repo" and s.repo == source.get("repo") and s.path == source.get("path")]
    if is_head(version) and "tags" in source and source["tags"]:
        # named by the first release that ships it, as an import in release order names it
        _take_over_head(plan, version, source, release, _first_edition_release(source["tags"], release)
                        + version.timeline.suffix)
        return
    if "branch" in source:
        if same_file and same_file[0][1].branch and same_file[0][1].commit != source["commit"]:
            cy.set_value(same_file[0][0], "commit", cy.text(source["commit"]))
            plan.report.done.append(f"{version.id}: the branch head is now {source['commit'][:12]}")
        return
    if same_file and same_file[0][1].tags is not None and not same_file[0][1].branch:
        item, known = same_file[0]
        new_tags = [t for t in source.get("tags", []) if t not in cited_tags(plan.family, version, known.lang)]
        if new_tags:
            tags = sort_tags(list(known.tags) + new_tags)
            cy.set_value(item, "tags", cy.flow(tags))
            if repo is not None and tags[0] not in known.tags:  # an older release joins: its commit is the first
                cy.set_value(item, "commit", cy.text(repo.commit(tags[0])))
            plan.report.done.append(f"{version.id}: unchanged page, shipped by {', '.join(new_tags)} too")
        return
    cy.insert_item(sources, len(sources), source_map(source, plan.family.languages[0]))
    plan.report.done.append(
        f"{version.id}: unchanged page, also at {source['repo']}:{source['path']} ({', '.join(source.get('tags', []))})"
    )


def _first_edition_release(tags: list[str], release: str) -> str:
    """The release of the first edition `tags` give (as the catalog derives editions), else `release`."""
    releases, _ = edition_releases([r for r in map(tag_release, tags) if r])
    return releases[0] if releases else release


def _take_over_head(plan: Plan, head: Version, source: dict, release: str, edition_id: str) -> None:
    """The branch head's version, now shipped by a tag: it becomes the release's (or stays the
    head, updated); its unreleased id goes on resolving (`superseded`)."""
    node = plan.files.version(head.id)
    old = next(s for s in head.sources if s.kind == "repo" and s.branch)
    index = next(i for i, s in enumerate(head.sources) if s is old)
    if release == UNRELEASED:
        if old.commit != source["commit"]:
            cy.set_value(node["sources"][index], "commit", cy.text(source["commit"]))
        return
    # only the keys that change (branch for tags, the commit): its framing keeps how it is written
    cy.update_mapping(node["sources"][index], source_map(source, plan.family.languages[0]))
    if head.id.startswith(UNRELEASED):
        cy.set_value(node, "version", cy.ident(edition_id))
        plan.renamed[head.id] = edition_id
    item = cy.flow_map([("edition", head.editions[0]), ("commit", old.commit or "")], ids=("edition",))
    if "superseded" in node:
        cy.insert_item(node["superseded"], len(node["superseded"]), item)
    else:
        cy.insert_key(node, len(node), "superseded", CommentedSeq([item]))
    plan.report.done.append(
        f"{edition_id}: the branch head's page ({head.editions[0]}, {(old.commit or '')[:12]}) is now "
        f"release {release}'s; {head.editions[0]} resolves to {edition_id}"
    )


def _new_version(plan: Plan, timeline: Timeline, edition_id: str, release: str, rows: list[ImportedRow], source: dict,
                 versions: list[Version], published: bool = False) -> None:
    """A changed page: a new version after the one before it, with what differs (`published`:
    the page a release published at a URL, whose version records that release)."""
    base, after = _around(plan.family, timeline, release, versions)
    languages = (base.languages if base is not None and base.languages else (plan.family.languages[0],))
    node = _version_map(plan.family, edition_id, release if published else None, base, source, languages,
                        _rows_map([(r.name, r.code, r.recoverable) for r in rows], base))
    _place_version(plan, timeline, node, after)
    plan.report.done.append(f"{edition_id}: the page published for {release}, a new version" if published else
                            f"{edition_id}: a new page version" + (f", based on {base.id}" if base else ""))
    _texts(plan, edition_id, rows, base, languages, carry=after is None)
    if after is not None:  # placed before a version: that one keeps the texts it had
        for (name, column), edit in plan.entries.items():
            for lang in plan.family.languages:
                held = plan.family.code_by_name[name].entry(column, after.editions[0], lang)
                if held is not None:
                    edit.keep_following(edition_id, after.id, lang, held.starts)


def _around(family: Family, timeline: Timeline, release: str,
            versions: list[Version]) -> tuple[Optional[Version], Optional[Version]]:
    """The timeline's versions just before and just after a new version of `release`."""
    key = edition_order(release, family.page_by_id[timeline.page].index, timeline.index, False)
    before = [v for v in versions if min(family.edition_by_id[e].order_key for e in v.editions) < key]
    return (before[-1] if before else None), (versions[len(before)] if len(before) < len(versions) else None)


def _version_map(family: Family, edition_id: str, release: Optional[str], base: Optional[Version], source: dict,
                 languages, rows: Optional[CommentedMap]) -> CommentedMap:
    """A new version as editions.yaml writes it."""
    node = CommentedMap([("version", cy.ident(edition_id))])
    if release is not None:
        node["release"] = cy.ident(release)
    if base is not None:
        node["based_on"] = cy.ident(base.id)
    node["sources"] = CommentedSeq([source_map(source, family.languages[0])])
    node["texts"] = cy.flow(languages)
    node["order"] = "page"
    if rows is not None:
        node["rows"] = rows
    return node


def _place_version(plan: Plan, timeline: Timeline, node: CommentedMap, after: Optional[Version]) -> None:
    """A new version before the one after it, else after the timeline's last one; the timeline's
    own key first when family.yaml declares a timeline that editions.yaml does not list yet."""
    versions = plan.files.versions
    if timeline.id not in versions:
        cy.insert_key(versions, len(versions), timeline.id, CommentedSeq())
    listed = versions[timeline.id]
    at = len(listed) if after is None else next(i for i, v in enumerate(listed) if str(v.get("version")) == after.id)
    cy.insert_item(listed, at, node)


def _rows_map(rows: list[tuple[str, str, str]], base: Optional[Version]) -> Optional[CommentedMap]:
    """The rows of a version, or what differs from its base's (None when nothing does)."""
    if base is None:
        return CommentedMap((cy.text(name), cy.text(value)) for name, _, value in rows)
    old = {r.code: r for r in base.rows}
    shown = {r.code: _shown(base, r) for r in base.rows}
    name_of = {code: name for name, code, _ in rows}
    new_order = [code for _, code, _ in rows]
    common = [c for c in new_order if c in old]
    if common != [r.code for r in base.rows if r.code in name_of]:  # moved rows: write them all
        return _rows_map(rows, None)
    changes = CommentedMap()
    for index, (name, code, value) in enumerate(rows):
        if code not in old:
            anchor = [("after", name_of[new_order[index - 1]])] if index else [("before", name_of[new_order[1]])] \
                if len(new_order) > 1 else []
            changes[cy.text(name)] = cy.flow_map([("recoverable", value)] + anchor)
        elif old[code].recoverable != value or old[code].disagreements or shown[code] != name:
            changes[cy.text(name)] = cy.text(value)  # a cell, or the name the row shows, changed
    for row in base.rows:
        if row.code not in name_of:
            changes[cy.text(shown[row.code])] = "dropped"
    return changes or None


def _change_content(plan: Plan, version: Version, rows: list[ImportedRow], base: Optional[Version],
                    renamed: Optional[str] = None) -> None:
    """A version whose content changed in place (the branch head's, `renamed` when a tag took it
    over): its rows, its texts."""
    family = plan.family
    node = plan.files.version(renamed or version.id)
    if _resolved_rows(version) != [(r.name, r.code, r.recoverable) for r in rows]:
        written = _rows_map([(r.name, r.code, r.recoverable) for r in rows], base if version.based_on else None)
        if "rows" in node and written is not None:
            cy.set_value(node, "rows", written)
        elif "rows" in node:
            cy.remove_key(node, "rows")
        elif written is not None:
            cy.insert_key(node, list(node).index("order") + 1, "rows", written)
        plan.report.done.append(f"{renamed or version.id}: its rows changed")
    _texts(plan, renamed or version.id, rows, base, version.languages or (family.languages[0],), in_place=version)


# -- codes.yaml ------------------------------------------------------------------------------------------------


def _texts(plan: Plan, version_id: str, rows: list[ImportedRow], base: Optional[Version], languages,
           in_place: Optional[Version] = None, carry: bool = True) -> None:
    """For each text the page shows: nothing when it holds on from the version before; else the
    version joins the entry that writes that text already, or a new entry starts at it (its other
    languages untranslated). A version placed before a later one (a backport imported after newer
    releases: `carry` false) joins in its own language only: the entry's other languages are a later
    release's translation, and imported in order the version would have had none."""
    family = plan.family
    first, others = family.languages[0], [lang for lang in languages if lang != family.languages[0]]
    changed = joined = 0
    for row in rows:
        code = family.code_by_name[row.code]
        for field_name, text in row.texts:
            markdown = field_name in row.markdown
            now = _text_at(family, row.code, field_name, in_place, first) if in_place is not None else None
            if now is not None and _says(now, text, markdown) and now.origin != UNTRANSLATED:
                continue
            held = (
                _text_at(family, row.code, field_name, base, first)
                if base is not None and row.code in base.row_by_code
                else None
            )
            edit = plan.field_edit(code, field_name)
            if in_place is not None:
                edit.stop_at(in_place.id)
            if held is not None and _says(held, text, markdown):
                continue  # (where the text changed in place, the start removed above lets the base's hold on)
            written = edit.same(first, text, markdown)
            carried = edit.join(version_id, written, tuple(languages) if carry else (first,)) \
                if written is not None else []
            if written is None:
                edit.add(version_id, first, text, markdown)
            changed, joined = changed + 1, joined + (written is not None)
            for lang in (lang for lang in others if lang not in carried):
                if edit.starting(version_id, lang) is None:
                    edit.add(version_id, lang, None)
                plan.report.untranslated[(code.name, field_name, lang, version_id)] = None
    if in_place is not None:  # a row the page no longer has: no text of its code starts at the version any longer
        listed = {row.code for row in rows}
        for gone in (r.code for r in in_place.rows if r.code not in listed):
            for field_name in in_place.page.text_fields:
                plan.field_edit(family.code_by_name[gone], field_name).stop_at(in_place.id)
    if changed:
        plan.report.done.append(f"{version_id}: {changed} text(s) changed" + (
            f" ({joined} written already: the entries that write them hold from it too)" if joined else ""))


def _says(entry, text: str, markdown: bool) -> bool:
    """Whether a catalog text is the page's: the same words, written with the same markup."""
    return entry.written == text if markdown else entry.text == text and entry.markup is None


def cited_texts(plan: Plan, version: Version, lang: str, rows: list[ImportedRow], path: str) -> None:
    """The texts in `lang` of a file the version cites already, where the catalog has none yet (a
    first-language text changed in this release, its translation unchanged in the file): the file's."""
    family, listed = plan.family, {r.code for r in version.rows}
    changed = 0
    for row in rows:
        if row.code not in listed:
            continue
        code = family.code_by_name[row.code]
        for field_name, text in row.texts:
            current = code.entry(field_name, version.editions[0], lang)
            if current is not None and current.origin == UNTRANSLATED:
                plan.field_edit(code, field_name).give(version.id, lang, text, field_name in row.markdown)
                changed += 1
                plan.report.untranslated.pop((code.name, field_name, lang, version.id), None)
    if changed:
        plan.report.done.append(f"{version.id}: {changed} {lang} text(s) from {path}, which it cites")


def other_language(plan: Plan, timeline: Timeline, edition_id: str, lang: str, rows: list[ImportedRow],
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
    node = plan.files.version(version.id)
    if lang not in (version.languages or ()):
        cy.set_value(node, "texts", cy.flow([lg for lg in family.languages
                                              if lg in (*(version.languages or ()), lang)]))
    kind = "repo" if "repo" in source else "url"
    if source and not any(s.kind == kind and s.lang == lang and s.path == source.get("path")
                          and s.commit == source.get("commit") and s.url == source.get("url") for s in version.sources):
        cy.insert_item(node["sources"], len(node["sources"]), source_map(source, lang))
    changed = 0
    for row in rows:
        code = family.code_by_name[row.code]
        for field_name, text in row.texts:
            markdown = field_name in row.markdown
            current = code.entry(field_name, version.editions[0], lang)
            if current is not None and _says(current, text, markdown) and current.origin == "upstream":
                continue
            plan.field_edit(code, field_name).give(version.id, lang, text, markdown)
            plan.report.untranslated.pop((code.name, field_name, lang, version.id), None)
            changed += 1
    plan.report.done.append(f"{edition_id}: {changed} {lang} text(s) from {source.get('path') or 'the page'}")
