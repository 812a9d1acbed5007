"""`audit --upstream OWNER/NAME=DIR ...`: the whole catalog against upstream's repositories.

In one run: every edition against the exact file its sources name (git show
COMMIT:PATH), and the tags its sources claim; every upstream source file the
catalog records (status.py, the binding, the headers) at every release tag and
at the default branch; and what upstream has that the catalog lacks (a version
of a page no edition records, a page no timeline names).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from generator.domain.queries import family_at
from generator.audit.source_code import audit_binding, audit_header, audit_messages, audit_python
from generator.audit.regions import audit_regions
from generator.audit.messages import audit_message_family
from generator.core.releases import release_key, tag_release
from generator.audit.findings import Finding, Row, read_text
from generator.rendering.escape import terminal
from generator.upstream.git import GitRepo
from generator.domain.family import Catalog, Family
from generator.upstream.files import UnreadableFile
from generator.audit.regenerated import page_findings


@dataclass
class Report:
    rows: list[Row] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)  # worth knowing, not a disagreement: exit 0

    @property
    def clean(self) -> bool:
        return not any(row.failing for row in self.rows)

    def table(self) -> str:
        lines = ["| family | what | file | result |", "| --- | --- | --- | --- |"]
        for row in self.rows:  # a file or a tag can be named by upstream: escaped for the terminal
            lines.append(f"| {row.family} | {terminal(row.subject)} | {terminal(row.file)} | {terminal(row.result)} |")
        details = [f"{row.family} {row.subject}: {finding}" for row in self.rows for finding in row.failing]
        known: dict[tuple[str, Optional[str], Optional[str]], str] = {}
        for row in self.rows:
            for finding in row.findings:
                if finding.known:
                    known.setdefault(
                        (finding.kind, finding.code, finding.upstream), f"{row.family} {row.subject}: {finding}"
                    )
        details += [f"known: {text}" for text in known.values()]
        details += [f"notice: {text}" for text in self.notices]
        checked = sum(1 for row in self.rows if not row.note)
        failing = sum(len(row.failing) for row in self.rows)
        summary = (f"audit --upstream: {checked} file version(s) checked, "
                   + ("all clean" if self.clean else f"{failing} difference(s)"))
        return "\n".join(lines + ([""] + details if details else []) + ["", summary])

    def as_dict(self) -> dict:
        return {"clean": self.clean, "notices": list(self.notices), "rows": [
            {"family": r.family, "what": r.subject, "file": r.file, "result": r.result,
             "findings": [f.as_dict() for f in r.findings]} for r in self.rows]}


def audit_upstream(catalog: Catalog, repos: dict[str, GitRepo]) -> Report:
    report = Report()
    for name, repo in sorted(repos.items()):
        odd = repo.odd_tags()
        if odd:  # a tag at a tree or a blob ships no release: said once, and skipped
            report.rows.append(Row("—", "tags", name, [
                Finding(name, 1, "unreadable", upstream=f"tag {tag} points at a {kind}, not a commit",
                        catalog="skipped: no release ships files through it", known=True) for tag, kind in odd]))
    for family in catalog.families:
        for version in family.versions:  # each upstream file once, however many releases ship it
            report.rows += _edition_rows(family, version, repos)
        report.rows += _source_rows(family, repos)
        named = _named_versions(family, repos)
        report.rows += _lacking_rows(catalog, family, repos, named)
        report.notices += _release_branch_notices(family, repos, named)
    for messages in catalog.message_families:
        report.rows += audit_message_family(messages, repos)
    return report


def _release_branch_notices(family: Family, repos: dict[str, GitRepo], named: dict[str, set[tuple[str, str]]]
                            ) -> list[str]:
    """A release branch (`9.2.0-beta.2`) whose head holds a version of a page that no edition
    records: no tag ships it (yet), so it is no disagreement, but a maintainer may want it."""
    notices = []
    for timeline in family.timelines:
        repo = repos.get(timeline.repo or "")
        if repo is None:
            continue
        for branch, ref in repo.release_branches():
            path, blob = repo.file_at(ref, tuple(timeline.paths))
            if path is None or blob is None or (path, blob) in named.get(repo.name, set()):
                continue
            if any(repo.blob_or_none(tag, path) == blob for tag in repo.release_tags()):
                continue  # a tag ships it: the timeline's own check covers it
            notices.append(
                f"{family.id} timeline {timeline.id}: {repo.name} branch {branch} holds a version of {path} "
                f"(blob {blob[:8]}) that no tag ships and no edition records (not a disagreement: a release may "
                f"still ship it; docs/releases.md, \"Release branches\")")
    return notices


# -- editions ----------------------------------------------------------------------------------------


def _edition_rows(family: Family, version, repos: dict[str, GitRepo]) -> list[Row]:
    """A version's files against it (as its first edition shows it)."""
    edition = family.edition_by_id[version.editions[0]]
    rows = []
    for source in version.sources:
        if source.kind != "repo":
            what = {"url": source.url, "seed": f"seed {source.seed}", "document": "a description"}[source.kind]
            rows.append(Row(family.id, version.id, what or "", note="not checked: not a repository file"))
            continue
        label = f"{source.repo}:{source.path}@{source.commit[:12]}"
        repo = repos.get(source.repo)
        if repo is None:
            rows.append(Row(family.id, version.id, label, note=f"not checked: no --upstream {source.repo}=DIR"))
            continue
        row = Row(family.id, version.id, label)
        blob = repo.blob_or_none(source.commit, source.path)
        if not repo.has_commit(source.commit):
            row.findings.append(
                Finding(
                    label,
                    1,
                    "unreadable",
                    upstream=f"commit {source.commit} is not in {repo.directory}",
                    catalog="fetch the repository again, or correct the commit",
                )
            )
        elif blob is None:
            row.findings.append(Finding(label, 1, "unreadable", upstream=f"no {source.path} at commit {source.commit}"))
        else:
            text = read_text(repo.read_text, blob, label, row.findings)
            if text is not None:  # a pipe-table file by regeneration, byte for byte; any other cell by cell
                row.findings += page_findings(family, edition, source, label, text, repo.read_blob(blob))
            row.findings += _tags(repo, source, blob, label, _claimed(family, repo, source, blob))
        rows.append(row)
    return rows


def _claimed(family: Family, repo: GitRepo, source, blob: str) -> set[str]:
    """Every tag that the family's sources say ship this file version: one file version can hold
    two page versions' text of one language (the English changed, the Chinese did not)."""
    return {tag for version in family.versions for other in version.sources
            if other.kind == "repo" and (other.repo, other.path) == (source.repo, source.path) and other.tags
            and other.commit and other.path and repo.blob_or_none(other.commit, other.path) == blob
            for tag in other.tags}


def _tags(repo: GitRepo, source, blob: str, label: str, claimed: set[str]) -> list[Finding]:
    """The tags a source claims ship the file, against the tags that do."""
    shipping = [t for t in repo.release_tags() if repo.blob_or_none(t, source.path) == blob]
    findings = []
    for tag in source.tags:
        if tag not in shipping:
            findings.append(
                Finding(
                    label,
                    1,
                    "value differs",
                    field="tags",
                    upstream=f"{tag} ships another version (or none)",
                    catalog=f"{tag} ships this one",
                )
            )
    missing = [t for t in shipping if t not in claimed]
    if missing and source.tags:
        findings.append(
            Finding(
                label,
                1,
                "missing from catalog",
                field="tags",
                upstream=(f"{missing[0]} ships" if len(missing) == 1 else f"{', '.join(missing)} ship")
                + " this version too",
                catalog=", ".join(source.tags),
            )
        )
    elif missing and source.branch:  # the branch head's version, that a tag now ships: a release to import
        findings.append(Finding(label, 1, "missing from catalog", field="tags",
                                upstream=(f"{missing[0]} ships" if len(missing) == 1 else f"{', '.join(missing)} ship")
                                + " this version",
                                catalog=f"the branch head's only: import --ref {missing[0]}"))
    first = next((t for t in shipping if t in source.tags), None)
    if first is not None and repo.commit(first) != source.commit:
        findings.append(Finding(label, 1, "value differs", field="commit",
                                upstream=f"{first}, the first tag that ships it, is {repo.commit(first)}",
                                catalog=source.commit))
    return findings


# -- upstream source files -----------------------------------------------------------------------------


def _source_rows(family: Family, repos: dict[str, GitRepo]) -> list[Row]:
    """Each repository's python, binding and headers, at every tag and the branch head, once per
    distinct set of file versions: the python source is checked with the binding and headers of its ref."""
    rows = []
    for name in sorted({u.repo for u in family.upstream}):
        files = [u for u in family.upstream if u.repo == name]
        repo = repos.get(name)
        if repo is None:
            rows.append(Row(family.id, "sources", name, note=f"not checked: no --upstream {name}=DIR"))
            continue
        groups: dict[tuple, list[str]] = {}
        for label, ref in repo.refs():
            key = tuple(repo.file_at(ref, u.paths) for u in files)
            if any(blob for _, blob in key):
                groups.setdefault(key, []).append(label)
        for key, labels in groups.items():
            at = {u: found for u, found in zip(files, key)}
            rows.append(_source_row(family, repo, at, labels))
        gone = _gone_rows(family, repo, files)
        rows += [gone] if gone.findings else []
    return rows


def _gone_rows(family: Family, repo: GitRepo, files: list) -> Row:
    """Each cited file that a ref newer than its first one lacks at every one of its paths: a
    file upstream moved or deleted (the catalog then cites a path that checks nothing there).
    Where a file of that ref has the same definitions, the finding names it."""
    row = Row(family.id, "sources", f"{repo.name}: the files family.yaml cites")
    refs = repo.refs()
    for item in files:
        found = [repo.file_at(ref, item.paths) for _, ref in refs]
        first = next((i for i, (_, blob) in enumerate(found) if blob), None)
        if first is None:
            row.findings.append(
                Finding(
                    f"{repo.name}:{item.path}",
                    1,
                    "missing upstream",
                    field=item.kind,
                    upstream=f"at none of {', '.join(item.paths)} at any tag or {repo.head_branch()}",
                    catalog="cited in family.yaml",
                )
            )
            continue
        gone = [i for i in range(first + 1, len(refs)) if not found[i][1]]
        if not gone:
            continue
        last_seen, last_blob = max((i, blob) for i, (_, blob) in enumerate(found[:gone[-1]]) if i >= first and blob)
        moved = _moved_to(repo, refs[gone[-1]][1], item, last_blob, family)
        where = _span([refs[i][0] for i in gone])
        row.findings.append(Finding(
            f"{repo.name}:{found[last_seen][0]}", 1, "missing upstream", field=item.kind,
            upstream=f"gone at {where}" + (f"; the same definitions are in {', '.join(moved)}: add it to the file's "
                                           "`paths` in family.yaml" if moved else ""),
            catalog=f"cited in family.yaml (last at {refs[last_seen][0]})"))
    return row


def _moved_to(repo: GitRepo, ref: str, item, blob: str, family: Family) -> list[str]:
    """Files at `ref` (same extension) that hold every code name the cited file last held (up
    to three of them, the rarest first): where it moved."""
    try:
        text = repo.read_text(blob)
    except (UnreadableFile, OSError):
        return []
    names = [n for code in family.codes for n in (code.c_name, code.python_name, code.wrapper) if n and n in text]
    if not names:
        return []
    suffix = "." + item.path.rsplit(".", 1)[-1] if "." in item.path.rsplit("/", 1)[-1] else ""
    candidates: Optional[set] = None
    for name in sorted(set(names), key=lambda n: (-len(n), n))[:3]:
        paths = {p for p in repo.files_containing(ref, name) if p.endswith(suffix)}
        candidates = paths if candidates is None else candidates & paths
    return sorted(candidates or ())[:3]


def _span(labels: list[str]) -> str:
    """The refs of a list, as a row or finding names them: the one, or the first … the last."""
    return labels[0] if len(labels) == 1 else f"{labels[0]} … {labels[-1]} ({len(labels)} refs)"


def _source_row(family: Family, repo: GitRepo, at: dict, labels: list[str]) -> Row:
    """The files of one set of file versions, against the codes upstream has at those refs
    (a code added later, or gone, is not expected there)."""
    whole = family
    family = family_at(family, repo.name, repo.release_at(labels[0]))
    present = [(u, path, blob) for u, (path, blob) in at.items() if blob]
    row = Row(family.id, "sources",
              f"{repo.name}@{_span(labels)}: " + ", ".join(path.rsplit("/", 1)[-1] for _, path, _ in present))
    file = {u: f"{repo.name}:{path}" for u, path, _ in present}
    texts = {u: read_text(repo.read_text, blob, file[u], row.findings) for u, _, blob in present}
    readable = {u: text for u, text in texts.items() if text is not None}
    constants = []
    for item in (u for u in readable if u.kind == "header"):
        found, declared = audit_header(family, file[item], readable[item])
        row.findings += found
        constants += declared
    bound = None
    for item in (u for u in readable if u.kind == "binding"):
        found, bound = audit_binding(family, file[item], readable[item], constants)
        row.findings += found
    for item in (u for u in readable if u.kind == "python"):
        row.findings += audit_python(family, file[item], readable[item], bound,
                                     item.base_at(repo.release_at(labels[0])))
    for item in (u for u in readable if u.kind == "messages"):
        row.findings += audit_messages(family, file[item], readable[item])
    releases = sorted({repo.release_at(label) for label in labels}, key=lambda r: release_key(r) or ())
    regenerated = {file[u] for u in readable if u.regions}
    # a file whose regions the catalog describes is judged by regeneration: of what the parsers
    # say of it, only what regeneration cannot see stays (a note, an unreadable file, the enum's base,
    # a reference the binding does not resolve, a file of another family)
    unseen = ("unreadable", "unresolved reference", "not this family's file")
    def stands(f: Finding) -> bool:
        return f.file not in regenerated or f.known or f.kind in unseen or f.field == "base class"

    # where a parser read what differs in a line (a value, a name), that says more than "the line differs"
    parsed = {(f.file, f.line): f for f in row.findings if not stands(f)}
    row.findings = [f for f in row.findings if stands(f)]
    replaced: set[tuple] = set()
    for item in (u for u in readable if u.regions):  # by regeneration: every region, as its releases have it
        for finding in audit_regions(whole, item, file[item], readable[item], releases):
            where = (finding.file, finding.line)
            if finding.kind == "structure differs" and where in replaced:
                continue  # the line differs at another release too: said once
            said = parsed.pop(where, None) if finding.kind == "structure differs" else None
            if said is not None:
                replaced.add(where)
            row.findings.append(said or finding)
    return row


# -- what upstream has that the catalog lacks ----------------------------------------------------------------


def _lacking_rows(catalog: Catalog, family: Family, repos: dict[str, GitRepo],
                  named: dict[str, set[tuple[str, str]]]) -> list[Row]:
    rows = []
    for timeline in family.timelines:
        if timeline.repo is None or timeline.repo not in repos:
            continue
        repo = repos[timeline.repo]
        row = Row(family.id, f"timeline {timeline.id}", f"{repo.name}: {', '.join(timeline.paths)}")
        unrecorded: dict[tuple[str, str], list[str]] = {}
        for label, ref in repo.refs():
            for path in timeline.paths:
                blob = repo.blob_or_none(ref, path)
                if blob and (path, blob) not in named.get(repo.name, set()):
                    unrecorded.setdefault((path, blob), []).append(label)
        for (path, blob), labels in unrecorded.items():
            first = labels[0]
            suggestion = f"import it as edition {_suggest_id(first, timeline, repo)}"
            row.findings.append(
                Finding(
                    f"{repo.name}:{path}",
                    1,
                    "missing from catalog",
                    upstream=f"{', '.join(labels)} {'ships' if len(labels) == 1 else 'ship'} blob {blob[:8]}",
                    catalog=f"no edition records it: {suggestion}",
                )
            )
        rows.append(row)
    rows += _new_pages(catalog, family, repos)
    return rows


def _named_versions(family: Family, repos: dict[str, GitRepo]) -> dict[str, set[tuple[str, str]]]:
    named: dict[str, set[tuple[str, str]]] = {}
    for version in family.versions:
        for source in version.sources:
            if source.kind == "repo" and source.repo in repos and source.commit and source.path:
                blob = repos[source.repo].blob_or_none(source.commit, source.path)
                if blob:
                    named.setdefault(source.repo, set()).add((source.path, blob))
    return named


def _suggest_id(label: str, timeline, repo: GitRepo) -> str:
    release = tag_release(label) if label != repo.head_branch() else "unreleased"
    return f"{release or 'unreleased'}{timeline.suffix}"


def _new_pages(catalog: Catalog, family: Family, repos: dict[str, GitRepo]) -> list[Row]:
    """Files that look like one of the family's pages (family.discover) and that no timeline
    of any family, and no edition's source, names: at the newest tag and the branch head."""
    if not family.discover:
        return []
    known = {p for f in catalog.families for t in f.timelines for p in t.paths}
    known |= {s.path for f in catalog.families for v in f.versions for s in v.sources if s.path}
    rows = []
    for name in sorted({t.repo for t in family.timelines if t.repo}):
        repo = repos.get(name)
        if repo is None:
            continue
        refs = ([repo.release_tags()[-1]] if repo.release_tags() else []) + [repo.head_ref()]
        shown = {repo.head_ref(): repo.head_branch()}  # the default branch by its name
        row = Row(family.id, "new pages", f"{name} at {', '.join(shown.get(r, r) for r in refs)}")
        found: dict[str, list[str]] = {}
        for ref in refs:
            for path in repo.tree(ref):
                if path not in known and any(re.search(pattern, path) for pattern in family.discover):
                    found.setdefault(path, []).append(shown.get(ref, ref))
        for path, refs_ in found.items():
            row.findings.append(
                Finding(
                    f"{name}:{path}",
                    1,
                    "missing from catalog",
                    upstream=f"a page at {', '.join(refs_)}",
                    catalog="no timeline names this path: add it to a timeline's paths, or a new page",
                )
            )
        rows.append(row)
    return rows
