"""`import --upstream OWNER/NAME=DIR --ref REF`: everything a release of one repository ships.

Three steps, each reading the catalog as the steps before it left it (in memory):
1. the codes the repository's source files declare (importing.release_codes): new codes,
   names changed, codes no longer there;
2. each timeline's page in the family's first language, where the timeline keeps it (found
   where git says it went when it moved): an unchanged page's version is shipped by one more
   tag; a changed one is a new version, with the framing `upstream-page` writes it back with;
   an unchanged page whose translation changed is a new version too, so that no older release
   comes to say what only this one says;
3. each timeline's pages in the family's other languages, at the paths the family knows for
   them in any of its repositories: upstream's words for the release's version.
The files are written at the end, all or none; a new pipe-table page that the catalog cannot
write back byte for byte is said (for a person), with the first line that differs.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from generator.core.releases import UNRELEASED, release_key, sort_tags, tag_release
from generator.domain.editions import Version
from generator.domain.family import Family
from generator.domain.model import Timeline
from generator.importing import catalog_yaml as cy
from generator.importing.catalog_files import Files, Kept, Plan, source_map, stage, write_staged
from generator.importing.framing import read_framing
from generator.importing.one_page import (cited_tags, cited_texts, cites, first_language, holding, is_head,
                                          other_language, same_texts)
from generator.importing.page_source import ImportProblem, PageSource, Report, blob_text, read_rows, shipping_source
from generator.importing.release_checks import check_sources_written_back, check_written_back
from generator.importing.release_codes import record_codes
from generator.importing.messages import import_messages
from generator.reading.load import display_path, load_catalog


def import_release(location: Path, name: str, repo, ref: str, only: Optional[str] = None) -> Report:
    """Every code and page of every family that repository `name` keeps, at `ref` (a tag, the
    branch head, or a commit for an untagged translation)."""
    report = Report()
    release = _release_of(repo, ref)
    if release is None and ref in dict(repo.release_branches()):
        raise ImportProblem(f"--ref {ref} is a release branch of {name}, not a tag nor the default branch's head: "
                            "the catalog records the pages a tag ships (import the tag once it exists) and the "
                            "default branch's head; audit --upstream reports what the branch holds (docs/releases.md, "
                            "\"Release branches\")")
    if release == UNRELEASED:
        _not_behind(load_catalog(location), name, repo, ref)
    staged: dict[Path, str] = {}
    kept: Kept = {}  # each step edits the documents the step before left
    for step in ("codes", "pages", "translations"):
        catalog = load_catalog(location, {path: text.encode("utf-8") for path, text in staged.items()})
        for family in (f for f in catalog.families if only in (None, f.id)):
            plan = Plan(family, Files(location, family, staged, kept), report)
            said = len(report.done)
            if step == "codes":
                record_codes(plan, name, repo, ref, release)
            for timeline in family.timelines if step != "codes" else ():
                if step == "pages":
                    _release_page(plan, timeline, name, repo, ref, release)
                else:
                    _release_translations(plan, timeline, name, repo, ref, release)
            stage(plan, staged)
            _named(report, family.id, said)
    catalog = load_catalog(location, {path: text.encode("utf-8") for path, text in staged.items()})
    families_staged = dict(staged)
    import_messages(location, catalog, name, repo, ref, release, staged, report, only)
    # the catalog as staged now: read again only where the families of messages staged a change
    staged_catalog = catalog if staged == families_staged else \
        load_catalog(location, {path: text.encode("utf-8") for path, text in staged.items()})
    check_written_back(staged_catalog, report, name, repo)
    check_sources_written_back(staged_catalog, report, name, repo, ref)
    if release is None and not report.done and not report.todo:
        report.todo.append(f"--ref {ref} is no tag of {name} and not the head of its default branch "
                           f"({repo.head_branch()}): from such a ref only an English page that no tag ships yet is "
                           "imported, and it has none the catalog lacks; its other pages are recorded when a tag "
                           "ships them (import that tag), or the default branch's head does")
    written = write_staged(location, staged)
    report.done += [f"wrote {display_path(path)}" for path in written]
    return report


def _named(report: Report, family: str, done: int) -> None:
    """The family before each line a step said it did, where the line does not name it (one version
    id, such as 9.2.0-beta.1, may name a version of two families); a line for a person starts with
    the code or the timeline it is about."""
    report.done[done:] = [line if line.startswith(f"{family} ") else f"{family} {line}" for line in report.done[done:]]


def _not_behind(catalog, name: str, repo, ref: str) -> None:
    """Refuses a branch head older than the one the catalog records for this repository, or a
    repository without that commit (a stale clone, or a fork's older head under this name):
    importing it would move `unreleased` back."""
    head = repo.commit(ref)
    recorded = {s.commit for family in catalog.families for v in family.versions for s in v.sources
                if s.kind == "repo" and s.repo == name and s.branch and s.commit and s.commit != head}
    behind = sorted(c for c in recorded if not repo.has_commit(c) or repo.is_ancestor(head, c))
    if behind:
        how = "which comes after" if repo.has_commit(behind[0]) else "a commit this repository does not have, beside"
        raise ImportProblem(f"--ref {ref}: the catalog records {name}'s branch head at {behind[0][:12]}, {how} its "
                            f"head {head[:12]}: pass an up-to-date clone of {name} (git fetch), not an older copy or "
                            "a fork (if upstream rewrote its branch so that commit is gone, set the version's commit "
                            "in editions.yaml by hand)")


def _release_of(repo, ref: str) -> Optional[str]:
    """The release a ref is: a tag's, `unreleased` for the branch head, None for another commit."""
    if ref in repo.release_tags():
        return tag_release(ref)
    if repo.commit(ref) == repo.commit(repo.head_ref()):
        return UNRELEASED
    return None


# -- a page in the first language ---------------------------------------------------------------------------


def _release_page(plan: Plan, timeline: Timeline, name: str, repo, ref: str, release: Optional[str]) -> None:
    if timeline.repo != name or release is None:
        return
    family, first = plan.family, plan.family.languages[0]
    path, blob = _found(plan, timeline, first, name, repo, ref)
    if path is None or blob is None:
        if not any(e.release != UNRELEASED and (release_key(e.release) or ()) < (release_key(release) or ())
                   for e in family.timeline_editions(timeline)):  # the page came later: nothing to look for
            plan.report.done.append(f"{family.id} {timeline.id} {release}: no page yet (its first is later)")
            return
        plan.report.todo.append(f"{timeline.id}: no page at {', '.join(timeline.paths)} in {name} at {ref}, and "
                                "git knows of no file it moved to: if it moved, add its path to the timeline's "
                                "`paths` in family.yaml")
        return
    recorded = _recorded(plan, timeline, name, repo, ref, path, blob)
    if recorded is not None:  # read again, a page recorded by hand (its `malformations`) would be refused
        plan.report.done.append(f"{family.id} {timeline.id} {release}: already recorded (page version {recorded})")
        return
    page = _page(family, timeline, first, name, repo, ref, path, blob)
    rows = read_rows(family, timeline, first, page)
    for _, part_rows in _parts(plan, timeline, first, name, repo, ref, path, rows, tell=True):
        rows = rows + part_rows  # a split page: its version lists every file's rows
    edition_id = release + timeline.suffix
    page_def = family.page_by_id[timeline.page]
    listed = {r.code for r in rows}
    for code in family.codes:
        if dict(code.added).get(name) == release and code.name_on(page_def) is not None and code.name not in listed:
            plan.report.todo.append(f"{code.name}: new in {name} {release}, but that release's {page_def.id} page "
                                    f"({path}) does not list it: no page documents it yet, so its meaning and "
                                    "solution are not known (the module answers None); a later release's page may "
                                    "document it")
    prefer = _translations_at(plan, timeline, name, repo, ref)
    translated = _translation_changed(plan, timeline, name, repo, ref, page, prefer)
    if page.source.get("tags"):  # the tags that ship this file with the same translations: the version's
        tags = _sharing_translations(plan, timeline, repo, ref, page.source["tags"])
        if tags and tags != page.source["tags"]:
            page.source.update(tags=tags, commit=repo.commit(tags[0]))
    before = len(plan.report.done)
    first_language(plan, timeline, release, edition_id, rows, page, translated=translated, prefer=prefer)
    if len(plan.report.done) == before:  # named by the page version that holds the tag (no edition of its own)
        held = next((v.id for v in family.timeline_versions(timeline)
                     if any(s.repo == name and ref in s.tags for s in v.sources)), None)
        plan.report.done.append(f"{family.id} {timeline.id} {release}: already recorded"
                                + (f" (page version {held})" if held else ""))


def _recorded(plan: Plan, timeline: Timeline, name: str, repo, ref: str, path: str, blob: str) -> Optional[str]:
    """The page version that records the tag `ref` already, as shipping this very file in the first
    language, where each other language's file at `ref` is cited, with the tag, too (by that
    version, or by an older one whose translation it carries): the tag was imported before. Not
    where another language's file moved to a path the family does not know yet (git says so)."""
    versions = plan.family.timeline_versions(timeline)

    def recorded(version: Version, lang: str, file: str, held: str) -> bool:
        return any(s.lang in (lang, None) and ref in s.tags and cites(s, repo, name, file, held)
                   for s in version.sources)
    files = _translation_files(plan.family, timeline, repo, ref)
    if any(held is None and repo.moved_to(_known_paths(plan.family, timeline, lang), ref) for lang, _, held in files):
        return None
    if not all(any(recorded(v, lang, file, held) for v in versions) for lang, file, held in files if file and held):
        return None
    return next((v.id for v in versions if recorded(v, plan.family.languages[0], path, blob)), None)


def _page(family: Family, timeline: Timeline, lang: str, name: str, repo, ref: str, path: str,
          blob: str) -> PageSource:
    """A page at a ref, with how a version cites it and, for a pipe table, its framing."""
    shown = f"{name}:{path}@{ref}"
    text = blob_text(repo, blob, shown)
    source = shipping_source(name, repo, ref, path, blob)
    page = PageSource(text, shown, False, source, repo, blob)
    if not _is_html(text):
        rows = [(r.shown or r.name, r.code) for r in read_rows(family, timeline, lang, page)]
        source["page"] = read_framing(text, family, family.page_by_id[timeline.page], rows, lang,
                                      _previous_layout(family, timeline, lang))
    return page


def _is_html(text: str) -> bool:
    return "<table" in text.lower()


def _previous_layout(family: Family, timeline: Timeline, lang: str):
    """The framing of the timeline's newest version in `lang` that records one (a hint)."""
    for version in reversed(family.timeline_versions(timeline)):
        for source in version.sources:
            if source.lang in (lang, None) and source.layout is not None:
                return source.layout
    return None


def _found(plan: Plan, timeline: Timeline, lang: str, name: str, repo, ref: str) -> tuple[Optional[str], Optional[str]]:
    """(path, blob) of the page in `lang` at `ref`: at a path the family knows, newest first,
    else where git says a known path moved to (the new path is then recorded in family.yaml)."""
    known = _known_paths(plan.family, timeline, lang)
    path, blob = repo.file_at(ref, tuple(known))
    if blob is not None:
        return path, blob
    moved = repo.moved_to(known, ref)
    if moved is None:
        return None, None
    old, new = moved
    plan.files.add_timeline_path(timeline.id, lang, plan.family.languages[0], new)
    plan.report.done.append(f"{timeline.id}: its {lang} page moved from {old} to {new} ({name}, {ref}); "
                            "family.yaml records the new path")
    return new, repo.blob_at(ref, new)


def _known_paths(family: Family, timeline: Timeline, lang: str) -> list[str]:
    """Where the family keeps the timeline's page in `lang`, oldest first: the paths family.yaml
    declares, then any other a version's source cites."""
    paths = list(timeline.paths_in(lang, family.languages[0]))
    for version in family.timeline_versions(timeline):
        paths += [s.path for s in version.sources if s.lang == lang and s.path and s.path not in paths
                  and not s.codes]  # a split page's other files are not where the page went
    return paths


def _translation_files(family: Family, timeline: Timeline, repo, ref: str) -> list[tuple]:
    """(lang, path, blob) of the timeline's page in each other language at `ref`, at a path the
    family knows for it ((lang, None, None) where none is)."""
    return [(lang, *repo.file_at(ref, tuple(_known_paths(family, timeline, lang)))) for lang in family.languages[1:]]


def _sharing_translations(plan: Plan, timeline: Timeline, repo, ref: str, tags: list[str]) -> list[str]:
    """Of the tags that ship a first-language file, those that ship the same translations as `ref`
    (one version of a page is one file per language: a tag with another English is another's)."""
    def blobs(at: str) -> list[Optional[str]]:
        return [blob for _, _, blob in _translation_files(plan.family, timeline, repo, at)]
    mine = blobs(ref)
    return [t for t in tags if blobs(t) == mine]


def _translations_at(plan: Plan, timeline: Timeline, name: str, repo, ref: str):
    """Whether a version cites, in every other language, the very file `ref` has (a release
    imported after a newer one joins the version whose translations it ships too)."""
    files = [(lang, path, blob) for lang, path, blob in _translation_files(plan.family, timeline, repo, ref)
             if blob is not None]

    def prefer(version: Version) -> bool:
        return bool(files) and all(any(s.lang == lang and cites(s, repo, name, path, blob) for s in version.sources)
                                   for lang, path, blob in files)
    return prefer


def _translation_changed(plan: Plan, timeline: Timeline, name: str, repo, ref: str, page: PageSource,
                         prefer=None) -> bool:
    """Whether this repository's translation of the page at `ref` says other than the version
    holding the unchanged first-language page does (or that version has no such translation)."""
    family = plan.family
    same = holding(family, list(family.timeline_versions(timeline)), page,
                   _release_of(repo, ref), prefer)
    if same is None:
        return False
    for lang, path, blob in _translation_files(family, timeline, repo, ref):
        if path is None or blob is None or _cited(family, timeline, lang, name, repo, path, blob) is not None:
            continue  # none, or a file a version already has: unchanged
        rows = read_rows(family, timeline, lang, _page(family, timeline, lang, name, repo, ref, path, blob))
        if not same_texts(family, same, rows, lang):
            return True
    return False


def _cited(family: Family, timeline: Timeline, lang: str, name: str, repo, path: str, blob: str):
    """The version of the timeline, and its source, that cites this very file for `lang`; None
    when no version does."""
    return next(((v, s) for v in family.timeline_versions(timeline) for s in v.sources
                 if s.lang == lang and cites(s, repo, name, path, blob)), None)


# -- a page split over several files -------------------------------------------------------------------------


def _parts(plan: Plan, timeline: Timeline, lang: str, name: str, repo, ref: str, main: str,
           rows: list, tell: bool = False) -> list[tuple[PageSource, list]]:
    """The other files of a page at `ref` whose rows the main file no longer holds: the files the
    timeline's newest version cites for them, else the files that name them (found by what they
    contain, wherever upstream put them). Each with its rows."""
    family = plan.family
    versions = list(family.timeline_versions(timeline))
    if not versions:
        return []
    previous = versions[-1]
    prefix = previous.page.row_prefix if previous.page.row_names == "c" else ""
    missing = [r for r in previous.rows if r.code not in {row.code for row in rows}]
    if not missing:
        return []
    found: list[tuple[PageSource, list]] = []
    known = [s.path for s in previous.sources if s.lang == lang and s.codes and s.path]
    candidates = known + sorted(set.intersection(*(repo.files_containing(ref, prefix + r.name) for r in missing))
                                - set(known) - {main})
    for path in candidates:
        blob = repo.blob_or_none(ref, path)
        if blob is None or not path.endswith(".md"):
            continue
        try:
            page = _page(family, timeline, lang, name, repo, ref, path, blob)
            part_rows = read_rows(family, timeline, lang, page)
        except ImportProblem:
            continue  # not a table of this page's kind in this language
        held = {r.code for r in part_rows}
        if held and held <= {r.code for r in missing} and not held & {r.code for r in rows}:
            found.append((page, part_rows))
            missing = [r for r in missing if r.code not in held]
            if tell and path not in known:
                plan.report.todo.append(f"{timeline.id}: {len(held)} rows of {main} moved to {path} at {ref} "
                                        f"({', '.join(sorted(held))}): the page now spans both files; the codes are "
                                        "recorded as moved, not dropped")
        if not missing:
            break
    return found


def _record_parts(plan: Plan, timeline: Timeline, lang: str, name: str, repo, ref: str, release: Optional[str],
                  main: str, rows: list) -> list:
    """The split page's other files in `lang` as sources of the release's version (with the codes
    each holds); their rows, for the texts."""
    family = plan.family
    edition = family.edition(release + timeline.suffix) if release else None
    parts = _parts(plan, timeline, lang, name, repo, ref, main, rows)
    if edition is None or not parts:
        return []
    version = family.version_by_id[edition.version]
    node = plan.files.version(version.id)
    extra = []
    for page, part_rows in parts:
        codes = [r.code for r in part_rows]
        cited = next((s for s in version.sources if s.lang == lang and s.path == page.source.get("path")), None)
        if cited is None:
            item = source_map({**page.source, "codes": codes}, lang)
            cy.insert_item(node["sources"], len(node["sources"]), item)
            plan.report.done.append(f"{version.id}: its {lang} rows of {', '.join(codes)} are in "
                                    f"{page.source.get('path')}")
        else:
            _add_tags(plan, version, cited, [t for t in page.source.get("tags", []) if t not in cited.tags], repo)
        extra += part_rows
    return extra


# -- the pages in other languages ---------------------------------------------------------------------------


def _release_translations(plan: Plan, timeline: Timeline, name: str, repo, ref: str, release: Optional[str]) -> None:
    """The timeline's page in each other language, at a path the family knows for it, in this
    repository: the translation of the release's version (or, for an untagged commit, of the
    newest final release's)."""
    family = plan.family
    first = family.languages[0]
    if timeline.repo == name and release is not None:
        path, blob = _found(plan, timeline, first, name, repo, ref)
        if path is not None and blob is not None:
            if _recorded(plan, timeline, name, repo, ref, path, blob) is not None:
                return  # the tag's files, in every language, are a version's already
            page = _page(family, timeline, first, name, repo, ref, path, blob)
            rows = read_rows(family, timeline, first, page)
            _record_parts(plan, timeline, first, name, repo, ref, release, path, rows)
    for lang in family.languages[1:]:
        path, blob = _found(plan, timeline, lang, name, repo, ref)
        if path is None or blob is None:
            continue
        page = _page(family, timeline, lang, name, repo, ref, path, blob)
        versions = list(family.timeline_versions(timeline))
        cited = _cited(family, timeline, lang, name, repo, path, blob)
        target = _translated_version(family, versions, release)
        rows = read_rows(family, timeline, lang, page)
        rows = rows + _record_parts(plan, timeline, lang, name, repo, ref, release, path, rows)
        if cited is not None and not (cited[1].branch and is_head(cited[0])):
            # unchanged since a version cited it: that version's still (a new version of the first
            # language carries its texts, and marks the rest untranslated); a file only the branch
            # head's version cites is that version's only while no tag has taken the version over
            _add_tags(plan, cited[0], cited[1], [t for t in page.source.get("tags", [])
                                                 if t not in cited_tags(family, cited[0], lang)], repo)
            cited_texts(plan, cited[0], lang, rows, path)
            continue
        if target is None:
            plan.report.todo.append(f"{timeline.id}: {page.shown} ({lang}): which version it translates is not "
                                    f"clear; import it with --edition ID --lang {lang} --ref {ref} --path {path}")
            continue
        other_language(plan, timeline, target.editions[0], lang, rows, page.source)


def _translated_version(family: Family, versions: list[Version], release: Optional[str]) -> Optional[Version]:
    """The version a translation at a release is of: that release's; for an untagged commit,
    the newest version of a final release."""
    if release is not None:
        ids = {e for v in versions for e in v.editions}
        edition = next((family.edition_by_id[e] for e in ids if family.edition_by_id[e].release == release), None)
        return None if edition is None else family.version_by_id[edition.version]
    final = [v for v in versions if any(family.edition_by_id[e].released and "-" not in family.edition_by_id[e].release
                                        for e in v.editions)]
    return final[-1] if final else None


def _add_tags(plan: Plan, version: Version, known, new_tags: list[str], repo) -> None:
    """Tags that ship a file a version cites. A file that only a merge request or the branch head
    held until now is released: its source names the first tag's commit, with tags, and is no
    longer `ref: merge-request` (its texts are upstream's, no longer proposed) nor the branch's."""
    if not new_tags:
        return
    item = next(n for n, s in zip(plan.files.version(version.id)["sources"], version.sources) if s is known)
    tags = sort_tags(list(known.tags) + new_tags)
    if known.branch:  # the branch head's file, in a version a tag took over: the tags' from now on
        cy.insert_key(item, list(item).index("branch"), "tags", cy.flow(tags))
        cy.remove_key(item, "branch")
    else:
        cy.set_value(item, "tags", cy.flow(tags))
    if known.ref == "merge-request" or known.branch or tags[0] not in known.tags:  # released, or an older one joins
        cy.set_value(item, "commit", cy.text(repo.commit(tags[0])))  # the first tag's commit
    if known.ref == "merge-request":
        cy.remove_key(item, "ref")
        plan.report.done.append(f"{version.id}: {known.path} ({known.lang}) was a merge request's; {tags[0]} "
                                "releases it, so its texts are upstream's")
    plan.report.done.append(
        f"{version.id}: {known.path} ({known.lang}) unchanged, shipped by {', '.join(new_tags)} too"
    )
