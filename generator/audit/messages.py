"""`audit --upstream` for a family of messages (one page per code): the registry at every release the
catalog records, against the entries the catalog renders for that release; the pages and the index
at the commit the catalog records, against the pages it renders (byte for byte, with the first line
that differs); what upstream has that the catalog lacks (a newer tag's registry, a page or a code it
does not record, pages changed at the branch's head); and where upstream's own files disagree, the
registry of the newest release against the pages (known where the catalog records it)."""
from __future__ import annotations

from typing import Any, Optional

from generator.audit.findings import Finding, Row, read_text
from generator.core.releases import release_key, tag_release
from generator.domain.markup import first_difference
from generator.domain.messages import MessageFamily
from generator.rendering.message_pages import render_index, render_page
from generator.upstream.git import GitError, GitRepo
from generator.upstream.files import UnreadableFile
from generator.upstream.message_page import PageError, parse_registry


def audit_message_family(family: MessageFamily, repos: dict[str, GitRepo]) -> list[Row]:
    rows = []
    registry = family.registry
    if registry is not None and registry.repo in repos:
        repo = repos[registry.repo]
        for release, commit in registry.releases:
            item = Row(family.id, f"registry {release}", f"{repo.name}:{registry.path}@{commit[:8]}")
            item.findings += _registry_findings(family, repo, commit, release)
            rows.append(item)
        rows.append(_newer_tags(family, repo))
    if family.pages.repo in repos and family.pages.commit:
        repo = repos[family.pages.repo]
        for lang in family.languages:
            item = Row(family.id, f"pages {lang}", f"{repo.name}:{family.pages.folder(lang)}@{family.pages.commit[:8]}")
            item.findings += _page_findings(family, repo, family.pages.commit, lang)
            rows.append(item)
        rows.append(_head(family, repo))
        rows.append(_disagreements(family))
    return rows


def _registry_findings(family: MessageFamily, repo: GitRepo, commit: str, release: str) -> list[Finding]:
    assert family.registry is not None
    label = f"{repo.name}:{family.registry.path}"
    try:
        blob = repo.blob_or_none(commit, family.registry.path)
        if blob is None:
            return [Finding(label, 1, "missing upstream", upstream=f"no such file at {commit[:8]}",
                            catalog=f"the registry of {release}")]
        entries = parse_registry(repo.read_text(blob))
    except (PageError, UnreadableFile) as error:
        return [Finding(label, getattr(error, "line", 1), "unreadable", upstream=str(error))]
    upstream = {str(e.get("ErrCode")): e for e in entries}
    ours = {c.id: e for c in family.codes if (e := c.registry_at(release, family)) is not None}
    findings = [Finding(label, 1, "missing from catalog", code, upstream=f"{release}'s registry has it",
                        catalog=f"no code {code} shipped by {release}: import {release}")
                for code in upstream if code not in ours]
    findings += [Finding(label, 1, "missing upstream", code, upstream=f"not in {release}'s registry",
                         catalog=f"{code} is shipped by {release}") for code in ours if code not in upstream]
    for code in (c for c in ours if c in upstream):
        for key, theirs, mine in _fields(upstream[code], ours[code]):
            if theirs != mine:
                findings.append(Finding(label, 1, "text differs", code, upstream=str(theirs), catalog=str(mine),
                                        field=key))
    listed = list(upstream)
    if listed != sorted(listed):  # upstream-source writes the entries by id, as every recorded release has them
        first = next(code for code, after in zip(listed, sorted(listed)) if code != after)
        findings.append(Finding(label, 1, "order differs", first, upstream=", ".join(listed[:listed.index(first) + 2]),
                                catalog="the entries by id", field="registry"))
    return findings


def _fields(theirs: dict, mine: dict) -> list[tuple[str, Any, Any]]:
    keys = ("errClass", "errTitle", "ErrMessage", "Arglist")
    out = [(k, theirs.get(k), mine.get(k)) for k in keys]
    for key in ("Possible Cause", "Solution"):
        out.append((key, (theirs.get("suggestion") or {}).get(key), mine["suggestion"][key]))
    return out


def _page_findings(family: MessageFamily, repo: GitRepo, commit: str, lang: str) -> list[Finding]:
    folder = family.pages.folder(lang)
    try:
        tree = _files_in(repo, commit, folder)
    except GitError as error:
        return [Finding(f"{repo.name}:{folder}", 1, "unreadable", upstream=str(error))]
    ours = {family.pages.index: render_index(family)}
    ours.update({family.file_name(c): render_page(family, c, lang) for c in family.codes if c.page})
    findings = []
    for name in sorted(set(tree) | set(ours)):
        label = f"{repo.name}:{folder}/{name}"
        if name not in tree:
            findings.append(Finding(label, 1, "missing upstream", upstream="no such file",
                                    catalog="the catalog renders it"))
        elif name not in ours:
            findings.append(Finding(label, 1, "missing from catalog", upstream="a page at the recorded commit",
                                    catalog="no code renders it: import the branch again"))
        else:
            text = read_text(repo.read_text, tree[name], label, findings)
            if text is not None and text != ours[name]:
                line, theirs, mine = first_difference(text, ours[name])
                findings.append(Finding(label, line, "text differs", upstream=theirs, catalog=mine))
    return findings


def _files_in(repo: GitRepo, commit: str, folder: str) -> dict[str, str]:
    """The files under `folder` at `commit`: {their path in the folder: blob}."""
    return {p[len(folder) + 1:]: b for p, b in repo.tree(commit).items() if p.startswith(folder + "/")}


def _newer_tags(family: MessageFamily, repo: GitRepo) -> Row:
    """Release tags after the newest recorded release whose registry the catalog does not record."""
    assert family.registry is not None
    item = Row(family.id, "registry: newer tags", f"{repo.name}:{family.registry.path}")
    recorded = set(family.releases)
    newest = max((key for r in recorded if (key := release_key(r)) is not None), default=None)
    for tag in repo.release_tags():
        release = tag_release(tag)
        if not release or release in recorded or (newest is not None and release_key(release) < newest):  # type: ignore[operator]
            continue
        if repo.blob_or_none(tag, family.registry.path):
            item.findings.append(Finding(f"{repo.name}:{family.registry.path}", 1, "missing from catalog",
                                         upstream=f"tag {tag} ships the registry",
                                         catalog=f"not recorded: import --upstream {repo.name}=DIR --ref {tag}"))
    return item


def _head(family: MessageFamily, repo: GitRepo) -> Row:
    """Whether the branch's head still holds the pages the catalog records."""
    branch = family.pages.branch
    item = Row(family.id, f"pages at {branch}", f"{repo.name}@{branch}")
    try:
        head = repo.commit(branch)
    except GitError:
        item.note = f"not checked: no branch {branch}"
        return item
    if head != family.pages.commit:
        for lang in family.languages:
            folder = family.pages.folder(lang)
            before, after = _files_in(repo, family.pages.commit or head, folder), _files_in(repo, head, folder)
            for name in sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p)):
                item.findings.append(Finding(f"{repo.name}:{folder}/{name}", 1, "missing from catalog",
                                             upstream=f"changed at {branch} ({head[:8]})",
                                             catalog=f"recorded at {(family.pages.commit or '')[:8]}: import "
                                                     f"--ref {branch}"))
    return item


def _disagreements(family: MessageFamily) -> Row:
    """Where upstream's own files disagree: the newest registry against the pages, and the pages' meanings
    against their templates. Known where the code's `known` says so."""
    item = Row(family.id, "registry against pages", "(the catalog's record of both)")
    newest: Optional[str] = family.releases[-1] if family.releases else None
    for code in family.codes:
        entry = code.registry_at(newest, family) if newest else None
        found = []
        if entry is not None and code.template is not None and entry["ErrMessage"] != code.template:
            found.append(("message", str(entry["ErrMessage"]), code.template))
        args = [a for a in code.args.split(",") if a.strip()] if code.args else []
        if code.page and code.args is not None and len(args) != code.placeholders:
            found.append(("arguments", code.args, f"{code.placeholders} placeholder(s)"))
        for lang, meanings in code.meanings:
            if len(meanings) not in (1, code.placeholders):
                found.append(("meanings", f"{len(meanings)} {lang} meaning(s)", f"{code.placeholders} placeholder(s)"))
        for kind, theirs, page in found:
            item.findings.append(Finding(f"{family.id}/{code.id}", 1, "text differs", code.id,
                                         upstream=theirs, catalog=page, field=kind, known=kind in code.known))
    return item
