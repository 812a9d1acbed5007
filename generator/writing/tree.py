"""The output tree surveyed and brought up to date: what is stale, missing or orphaned, and writing it.

One path for `generate` and `check`: every output is rendered and compared, byte for byte,
with the file on disk. What the generator owns is exactly what it wrote: each owner (a
family, or the site's shared files) has a manifest, generated/manifest/OWNER.json, listing
its outputs and their content hashes. An orphan is a file a manifest lists that is no longer
rendered; it is removed only if it is still as written. Nothing else in the tree is ever
touched, and no path is followed through a symbolic link.

Each output is written to a temporary file beside it and renamed into place, so a reader
(or a run killed part-way) only ever sees a whole old or a whole new file. The manifests are
written last, after the orphans are removed: a run that stops before them leaves the old
manifests, which still list the orphans, so that the next run removes them. A journal
(.generate-journal.json) exists while a run writes: the next run says the previous one
did not finish, removes its temporary files, and takes each output that run wrote (the
journal records their hashes: no manifest lists them yet) and no output plans now (the
catalog changed back) for an orphan, as a manifest's.
"""
from __future__ import annotations

import contextlib
import difflib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
import re
from typing import Optional

from generator.core.exits import OutputError
from generator.rendering.output import MANIFEST_DIR, Output, manifest_path
from generator.rendering.targets import FOLDERS_WITHOUT_BANNER
from generator.writing.files import (
    TreeReader, atomic_write, make_parents, os_problem, read_output, remove_empty_parents, resolve, sha,
)
from generator.writing.records import (
    JOURNAL,
    read_journal,
    read_manifest,
    render_manifest,
    temp_leftovers,
    unfinished,
)


# -- survey ---------------------------------------------------------------------------------


@dataclass
class Survey:
    """How the tree differs from the rendered outputs."""

    texts: dict[str, bytes] = field(default_factory=dict)  # rendered outputs that must be written, as UTF-8
    current: dict[str, bytes] = field(default_factory=dict)  # what is on disk, for diffs
    stale: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    orphaned: list[str] = field(default_factory=list)  # still as written: removable
    edited_orphans: list[str] = field(default_factory=list)  # changed since written: left in place
    not_files: list[str] = field(default_factory=list)  # links, FIFOs, devices among the outputs' folders
    hashes: dict[str, str] = field(default_factory=dict)  # path -> sha256 of the output as rendered
    warnings: list[str] = field(default_factory=list)
    journal: Optional[dict] = None  # what an unfinished run left ({} where unreadable): the write clears it up

    def __bool__(self) -> bool:
        return bool(self.stale or self.missing or self.orphaned or self.edited_orphans or self.not_files)


def survey(root: Path, outputs: list[Output], owners: list[str],
           every_owner: Optional[list[str]] = None) -> Survey:
    """Render every output and compare it, and each owner's manifest, with the tree. Each
    parent directory is checked once. `every_owner`: the owners the catalog has
    (targets.all_owners); a manifest of any other is a retired family's, whose files are
    all orphans."""
    result = Survey()
    journal = result.journal = read_journal(root)
    if journal is not None:
        result.warnings.append(unfinished(journal))
    reader = TreeReader(root)
    for output in outputs:
        data = output.render_bytes()
        result.hashes[output.path] = sha(data)
        _compare(result, output.path, data, reader.read(output.path))
    folders = output_folders([o.path for o in outputs])
    planned = {o.path for o in outputs}
    for owner in owners:
        _survey_manifest(root, owner, [o for o in outputs if o.owner == owner], result, folders, planned)
    for owner in _retired_owners(root, every_owner) if every_owner is not None else ():
        _survey_retired(root, owner, result, folders, planned)
    if journal is not None:
        _survey_unfinished(root, journal, result, folders, planned)
    result.not_files = not_files_under(root, folders)
    return result


def _survey_unfinished(root: Path, journal: dict, result: Survey, folders: list[str], planned: set[str]) -> None:
    """What a run that did not finish wrote and no output plans now: it stopped before its manifests,
    so only its journal lists them, with their hashes; each is an orphan as a manifest's are (the
    manifests themselves are the manifests' survey's)."""
    written = journal.get("writes")
    for path, digest in sorted(written.items()) if isinstance(written, dict) else ():
        if isinstance(path, str) and isinstance(digest, str) and path not in planned \
                and not path.startswith(MANIFEST_DIR + "/"):
            _survey_orphan(root, JOURNAL, path, digest, result, folders)


def _compare(result: Survey, path: str, data: bytes, current: Optional[bytes]) -> None:
    if current is None:
        result.missing.append(path)
        result.texts[path] = data
    elif current != data:
        result.stale.append(path)
        result.texts[path] = data
        result.current[path] = current


def _survey_manifest(root: Path, owner: str, outputs: list[Output], result: Survey, folders: list[str],
                     planned: set[str]) -> None:
    """The owner's manifest, as it must be now, and the files it lists that no output plans. An
    orphan edited by hand stays listed, as it was written, until someone deletes it: until
    then `check` reports it, and the site it lands in publishes it."""
    old, warning = read_manifest(root, owner)
    if warning:
        result.warnings.append(warning)
    kept = {}
    for path, written in sorted(old.items()):
        if path not in planned and path != manifest_path(owner):
            _survey_orphan(root, manifest_path(owner), path, written, result, folders)
            if path in result.edited_orphans:
                kept[path] = written
    path = manifest_path(owner)
    data = render_manifest(owner, {**{o.path: result.hashes[o.path] for o in outputs}, **kept}).encode("utf-8")
    result.hashes[path] = sha(data)
    _compare(result, path, data, read_output(root, path))


def _retired_owners(root: Path, owners: list[str]) -> list[str]:
    """The owners of the manifests in generated/manifest/ that the catalog no longer has."""
    try:
        with os.scandir(resolve(root, MANIFEST_DIR)) as entries:
            names = [e.name for e in entries if e.is_file(follow_symlinks=False)]
    except (OSError, OutputError):
        return []  # no folder yet; a link or worse in its place is reported by the survey of each owner
    return sorted(n[:-len(".json")] for n in names if n.endswith(".json") and n[:-len(".json")] not in owners)


def _survey_retired(root: Path, owner: str, result: Survey, folders: list[str], planned: set[str]) -> None:
    """A retired owner's manifest: each file it lists that no output plans is an orphan, and so
    is the manifest, once it is exactly as the generator writes one. A JSON file there that is
    no manifest is not the generator's: left alone, unreported."""
    old, warning = read_manifest(root, owner)
    if warning:
        return
    for path, written in sorted(old.items()):
        if path not in planned:
            _survey_orphan(root, manifest_path(owner), path, written, result, folders)
    path = manifest_path(owner)
    as_written = read_output(root, path) == render_manifest(owner, old).encode("utf-8")
    (result.orphaned if as_written else result.edited_orphans).append(path)


def _survey_orphan(root: Path, listed_by: str, path: str, written: str, result: Survey, folders: list[str]) -> None:
    """A file a manifest (or an unfinished run's journal) lists and no output plans. The manifest is a committed file
    anyone can edit, so it is believed only where it can be right: the file lies in the
    outputs' folders, still has the bytes the manifest records and carries the generator's
    banner, except under the folders of upstream's own bytes (generated/upstream), where no
    file carries one and the manifest alone says the generator wrote it."""
    if path in result.orphaned or path in result.edited_orphans:
        return  # listed by two owners' manifests
    bannerless = _under(path, FOLDERS_WITHOUT_BANNER)
    if not bannerless and not _under(path, folders):
        result.warnings.append(f"{listed_by} lists {path!r}, which is outside the generator's folders "
                               f"({', '.join(folders)}): left in place")
        return
    try:
        current = read_output(root, path)
    except OutputError as error:
        result.warnings.append(f"orphaned {path} left in place: {error}")
        return
    if current is None:
        return
    if not bannerless and not GENERATED_MARK.search(current[:4096]):
        result.warnings.append(f"{listed_by} lists {path}, which does not carry the generator's banner: "
                               "left in place")
        return
    (result.orphaned if sha(current) == written else result.edited_orphans).append(path)


def _under(path: str, folders) -> bool:
    return any(path.startswith(folder + "/") for folder in folders)


# What every file the generator writes with a banner says (generator.rendering.environment);
# the stamp in parentheses is what earlier generators wrote there.
GENERATED_MARK = re.compile(rb"Generated by llm-status-codes \S+ from [^\n]{0,300}?(?: \(stamp [0-9a-f]{12}\))?\.")


def output_folders(paths) -> list[str]:
    """The folders the outputs live in, two levels deep (generated/python, site/docs): where
    an orphan may be, and where nothing but files may be."""
    folders = set()
    for path in paths:
        parts = path.split("/")[:-1]
        if len(parts) >= 2:
            folders.add("/".join(parts[:2]))
    return sorted(folders)


def not_files_under(root: Path, folders) -> list[str]:
    """Every symbolic link, FIFO, device or socket under the folders (not followed): none is
    an output, and a link among the site's sources would be built and published."""
    found = []
    for folder in folders:
        stack = [os.path.join(root, folder)]
        if os.path.islink(stack[0]):
            found.append(folder)
            continue
        while stack:
            try:
                entries = os.scandir(stack.pop())
            except OSError:
                continue
            with entries:
                for item in entries:
                    if item.is_symlink():
                        found.append(os.path.relpath(item.path, root))
                    elif item.is_dir(follow_symlinks=False):
                        stack.append(item.path)
                    elif not item.is_file(follow_symlinks=False):
                        found.append(os.path.relpath(item.path, root))
    return sorted(found)


# -- writing ----------------------------------------------------------------------------------


def write_survey(root: Path, result: Survey) -> list[tuple[str, str]]:
    """Write what changed and remove orphans still as written; returns [(action, path)].
    The caller holds run_lock(root) from before its survey."""
    actions: list[tuple[str, str]] = []
    if not (result.texts or result.orphaned) and result.journal is None:
        return actions
    if result.journal:
        for leftover in temp_leftovers(root, result.journal):
            with contextlib.suppress(OSError):
                leftover.unlink()
    _write_journal(root, result)
    ready: dict[str, Path] = {}  # each parent directory, checked for links and made once
    manifests = sorted(path for path in result.texts if path.startswith(MANIFEST_DIR + "/"))
    _write(root, sorted(path for path in result.texts if path not in manifests), result, ready, actions)
    for path in result.orphaned:
        try:
            resolve(root, path).unlink(missing_ok=True)
        except OSError as error:
            _stopped(root, actions)
            raise os_problem(path, error, "remove") from None
        actions.append(("removed", path))
        remove_empty_parents(root, path)
    _write(root, manifests, result, ready, actions)
    with contextlib.suppress(FileNotFoundError):
        (root / JOURNAL).unlink()
    return actions


def _write(root: Path, paths: list[str], result: Survey, ready: dict[str, Path], actions: list) -> None:
    for path in paths:
        parent, _, name = path.rpartition("/")
        if parent not in ready:
            ready[parent] = resolve(root, parent) if parent else root
            make_parents(root, path)
        target = resolve(ready[parent], name)  # the file itself: never a link either
        try:
            atomic_write(target, result.texts[path], make_parent=False)
        except OSError as error:
            _stopped(root, actions)
            raise os_problem(path, error) from None
        actions.append(("wrote", path))


def _stopped(root: Path, actions: list) -> None:
    """A write failed: where nothing was written yet the tree is as it was, and its journal goes
    (the next run has nothing to say); else it stays, and the next run checks every output."""
    if not actions:
        with contextlib.suppress(OSError):
            (root / JOURNAL).unlink()


def _write_journal(root: Path, result: Survey) -> None:
    # what it writes, with the hash of each: if it stops before its manifests, the next run takes
    # what it wrote and no output plans then for an orphan
    data = {"pid": os.getpid(), "writes": {path: result.hashes[path] for path in sorted(result.texts)},
            "removes": result.orphaned}
    try:
        atomic_write(root / JOURNAL, json.dumps(data).encode())
    except OSError as error:
        raise os_problem(JOURNAL, error) from None


def unified_diff(path: str, current: bytes, rendered: bytes, limit: int = 200) -> str:
    lines = list(
        difflib.unified_diff(
            current.decode("utf-8", "replace").splitlines(keepends=True),
            rendered.decode("utf-8").splitlines(keepends=True),
            fromfile=f"a/{path} (committed)",
            tofile=f"b/{path} (generated from the catalog)",
        )
    )
    if len(lines) > limit:
        lines = lines[:limit] + [f"... ({len(lines) - limit} more diff lines)\n"]
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
