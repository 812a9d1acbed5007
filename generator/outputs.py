"""The one module that touches the output tree: survey, write atomically, remove orphans.

What the generator owns is exactly what it wrote: each owner (a family, or the
site's shared files) has a manifest, generated/manifest/OWNER.json, listing
its outputs and their content hashes. An orphan is a file a manifest lists
that is no longer rendered; it is removed only if it is still as written.
Nothing else in the tree is ever touched, and no path is followed through a
symbolic link.

Each output is written to a temporary file beside it and renamed into place,
so a reader (or a run killed part-way) only ever sees a whole old or a whole
new file. A journal (.generate-journal.json) exists while a run writes: if a
run finds one, the previous run did not finish, and every output is checked
in full. A cache (.generate-cache.json, outside the committed tree, its last
line a checksum of the rest) records each output's stamp (generator.inputs) and
the hash of the bytes written, so that an output whose inputs did not change and
whose file still has those bytes, as read now, is not rendered again. `check
--full` uses none of it.
"""
from __future__ import annotations

import contextlib
import difflib
import errno
import fcntl
import hashlib
import itertools
import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Optional

from generator import fastpath
from generator.errors import OutputError
from generator.fastpath import CACHE, JOURNAL, generator_fingerprint
from generator.outputs_model import Output

MANIFEST_DIR = "generated/manifest"
LOCK = ".generate.lock"
TEMP_MARK = ".tmp-generate-"
_serial = itertools.count()  # with the pid, names each temporary file uniquely
_HINTS = {
    errno.ENOSPC: "the disk is full: free some space, then run `make generate` again",
    errno.EDQUOT: "the disk quota is exceeded: free some space, then run `make generate` again",
    errno.EFBIG: "the file-size limit (ulimit -f) is too small for this output",
    errno.EROFS: "the file system is read-only: generate into a writable tree (--out DIR)",
    errno.EACCES: "no permission to write here: fix the permissions or generate elsewhere (--out DIR)",
    errno.EPERM: "no permission to write here: fix the permissions or generate elsewhere (--out DIR)",
    errno.EISDIR: "a directory is in the way: remove it",
    errno.ENOTDIR: "a file is in the way of a directory: remove it",
    errno.ENAMETOOLONG: "the name is too long for this file system",
}



def os_problem(path: str, error: OSError, doing: str = "write") -> OutputError:
    hint = _HINTS.get(error.errno or 0, "")
    reason = error.strerror or str(error)
    return OutputError(f"cannot {doing} {path}: {reason}" + (f"; {hint}" if hint else ""))


def manifest_path(owner: str) -> str:
    return f"{MANIFEST_DIR}/{owner}.json"


# -- safe paths ----------------------------------------------------------------------


def resolve(root: Path, rel: str) -> Path:
    """root/rel, refusing any path that leaves root or passes through a symbolic link."""
    parts = rel.split("/")
    if rel.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise OutputError(f"refusing the output path {rel!r}: it must stay inside the output tree")
    path = root
    exists = True
    for part in parts:
        path = path / part
        if not exists:
            continue
        try:
            info = os.lstat(path)
        except (FileNotFoundError, NotADirectoryError):
            exists = False
            continue
        except OSError as error:
            raise os_problem(str(path), error, "read") from None
        if stat.S_ISLNK(info.st_mode):
            raise _link_refused(path)
    return path


def _link_refused(path: Path) -> OutputError:
    return OutputError(f"{path} is a symbolic link: the generator never writes or deletes through links; "
                       "replace it with a directory or file of its own, or generate elsewhere (--out DIR)")


def read_output(root: Path, rel: str) -> Optional[bytes]:
    """The bytes of an output, None when missing; OutputError when something else is in its place."""
    return _Reader(root).read(rel)


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# -- manifests, cache, journal -----------------------------------------------------------


def read_manifest(root: Path, owner: str) -> tuple[dict[str, str], Optional[str]]:
    """{path: sha256} of what the owner's last run wrote, and a warning when unreadable."""
    rel = manifest_path(owner)
    try:
        data = read_output(root, rel)
    except OutputError as error:
        return {}, str(error)
    if data is None:
        return {}, None
    try:
        files = json.loads(data.decode("utf-8"))["files"]
        if not isinstance(files, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in files.items()):
            raise ValueError
        return files, None
    except (ValueError, KeyError, TypeError, UnicodeDecodeError, RecursionError):
        return {}, f"{rel} is not a manifest this generator wrote; its old outputs cannot be told apart, none is removed"


def render_manifest(owner: str, hashes: dict[str, str]) -> str:
    files = {path: hashes[path] for path in sorted(hashes)}
    return json.dumps({"$comment": "The outputs the generator wrote for this owner, with their SHA-256; "
                                   "an output no longer rendered is removed only if it is still as written. "
                                   "Generated: do not edit.",
                       "owner": owner, "files": files}, indent=1, ensure_ascii=False) + "\n"


@dataclass
class Cache:
    entries: dict[str, tuple[str, str]] = field(default_factory=dict)  # path -> (stamp, sha256 of the bytes written)
    unchanged: Optional[dict] = None  # the last clean run, for fastpath.unchanged

    @staticmethod
    def load(root: Path) -> "Cache":
        """The cache, or an empty one when it is missing, corrupt (its checksum says so) or
        made by other code."""
        data = fastpath.cache_data(root)
        if data.get("fingerprint") != generator_fingerprint():
            return Cache()
        try:
            return Cache({k: (v[0], v[1]) for k, v in data["entries"].items()
                          if isinstance(v, list) and len(v) == 2 and all(isinstance(x, str) for x in v)},
                         data.get("unchanged") if isinstance(data.get("unchanged"), dict) else None)
        except (KeyError, TypeError, AttributeError):
            return Cache()

    def save(self, root: Path) -> None:
        data = {"fingerprint": generator_fingerprint(), "entries": {k: list(v) for k, v in sorted(self.entries.items())},
                "unchanged": self.unchanged}
        sealed = fastpath.cache_bytes(data)
        if sealed is None or _other_than_a_file(root / CACHE):
            return  # no key, or something not ours in its place: no cache, which only costs time
        with contextlib.suppress(OSError):  # a cache that cannot be written only costs time
            atomic_write(root / CACHE, sealed)


def _other_than_a_file(path: Path) -> bool:
    """Whether something other than a regular file (a link, a FIFO, a directory) is at path."""
    try:
        return not stat.S_ISREG(os.lstat(path).st_mode)
    except FileNotFoundError:
        return False
    except OSError:
        return True


JOURNAL_LIMIT = 64 << 20


def read_journal(root: Path) -> Optional[dict]:
    """The journal a run that did not finish left behind ({} when unreadable), or None.
    OutputError when something other than a file is in its place."""
    try:
        raw = fastpath.read_regular(root / JOURNAL, JOURNAL_LIMIT)
    except FileNotFoundError:
        return None
    except fastpath.NotRegular as error:
        raise OutputError(f"cannot read {root / JOURNAL} (the journal of a run): {error.strerror}; "
                          "remove it, then run `make generate` again") from None
    except OSError:
        return {}
    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def previous_run_unfinished(root: Path) -> Optional[str]:
    """A sentence saying the previous run did not finish, or None."""
    data = read_journal(root)
    if data is None:
        return None
    return (f"the previous `generate` (pid {data.get('pid')}) did not finish: it was stopped part-way, "
            "so the outputs may be a mix of old and new ones; every output is checked in full")


def _temp_leftovers(root: Path, journal: dict) -> list[Path]:
    """The temporary files the unfinished run named in `journal` left: exactly the names
    atomic_write gives, for the paths that run was writing, with that run's pid."""
    pid = journal.get("pid")
    found: list[Path] = []
    writes = journal.get("writes")
    if not isinstance(pid, int) or not isinstance(writes, list):
        return found
    for rel in writes:
        try:
            target = resolve(root, rel) if isinstance(rel, str) else None
        except OutputError:
            target = None
        if target is None:
            continue
        parent, name = str(target.parent), target.name
        prefix = f".{name[:100]}{TEMP_MARK}{pid}-"
        try:
            entries = os.scandir(parent)
        except OSError:
            continue
        with entries:
            for entry in entries:
                if entry.name.startswith(prefix) and entry.name[len(prefix):].isdigit() and entry.is_file(follow_symlinks=False):
                    found.append(Path(entry.path))
    return found


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
    stamps: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    rendered: int = 0

    def __bool__(self) -> bool:
        return bool(self.stale or self.missing or self.orphaned or self.edited_orphans or self.not_files)


def survey(root: Path, outputs: list[Output], owners: list[str], cache: Cache, full: bool,
           render_many=None, hashed: Optional[Callable[[], dict[str, str]]] = None) -> Survey:
    """Compare every output (and each owner's manifest) with the tree; render what must be.

    An output whose cache entry has its stamp is only hashed: when the file, as read
    now, still has the hash the cache says its render wrote, it is what a render would
    write (the stamp covers everything the render reads). Every other output is read,
    rendered and compared. Each parent directory is checked once. `hashed` gives the
    hashes of the files the cache lists, taken meanwhile on another core
    (parallel.hashing); a file it does not name is looked at here."""
    result = Survey()
    unfinished = previous_run_unfinished(root)
    if unfinished:
        result.warnings.append(unfinished)
        full = True
    reader = _Reader(root)
    hash_only = {o.path for o in outputs if not full and (cache.entries.get(o.path) or ("",))[0] == o.stamp}
    known = hashed() if hashed is not None and hash_only else {}
    looked = [reader.known(o.path, known[o.path]) if o.path in hash_only and o.path in known
              else reader.look(o.path, want_bytes=o.path not in hash_only) for o in outputs]
    on_disk: dict[str, Optional[bytes]] = {}
    to_render: list[Output] = []
    for output, (exists, digest_, data) in zip(outputs, looked):
        result.stamps[output.path] = output.stamp
        if output.path in hash_only and exists and digest_ == cache.entries[output.path][1]:
            result.hashes[output.path] = digest_
            continue
        if output.path in hash_only:
            data = reader.read(output.path)
            digest_ = None if data is None else sha(data)
        on_disk[output.path] = data
        to_render.append(output)
    rendered = render_many(to_render) if render_many else {o.path: o.render_bytes() for o in to_render}
    result.rendered = len(rendered)
    for path, data in rendered.items():
        result.hashes[path] = sha(data)
        _compare(result, path, data, on_disk[path])
    folders = fastpath.output_folders([o.path for o in outputs])
    for owner in owners:
        _survey_manifest(root, owner, [o for o in outputs if o.owner == owner], result, folders)
    result.not_files = fastpath.not_files_under(root, folders)
    return result


class _Reader:
    """Reads outputs under one root, checking each parent directory for links once."""

    def __init__(self, root: Path):
        self.root = root
        self.parents: dict[str, str] = {}

    def _path(self, rel: str) -> str:
        parent, _, name = rel.rpartition("/")
        base = self.parents.get(parent)
        if base is None:
            base = self.parents[parent] = str(resolve(self.root, parent) if parent else self.root)
        if name in ("", ".", ".."):
            raise OutputError(f"refusing the output path {rel!r}: it must stay inside the output tree")
        return base + "/" + name  # a string: 20,000 Path objects cost a tenth of a second

    def read(self, rel: str) -> Optional[bytes]:
        return self.look(rel, want_bytes=True)[2]

    def known(self, rel: str, digest: str) -> tuple[bool, Optional[str], Optional[bytes]]:
        """As look(), for a file hashed a moment ago: only its directories are checked again."""
        self._path(rel)
        return True, digest, None

    def look(self, rel: str, want_bytes: bool) -> tuple[bool, Optional[str], Optional[bytes]]:
        """(exists, sha256, bytes when wanted) of an output; OutputError when something else is in its place."""
        path = self._path(rel)
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            return False, None, None
        except NotADirectoryError:
            raise OutputError(f"cannot read {rel}: a file is in the way of one of its directories; remove it") from None
        except OSError as error:
            raise os_problem(rel, error, "read") from None
        _refuse_non_file(rel, path, info)
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError as error:
            raise os_problem(rel, error, "read") from None
        return True, sha(data), data if want_bytes else None


def _refuse_non_file(rel: str, path, info: os.stat_result) -> None:
    if stat.S_ISLNK(info.st_mode):
        raise _link_refused(path)
    if stat.S_ISDIR(info.st_mode):
        raise OutputError(f"{rel} is a directory where the output file belongs: remove it, then run `make generate`")
    if not stat.S_ISREG(info.st_mode):
        raise OutputError(f"{rel} is not a regular file (a FIFO or a device?): remove it, then run `make generate`")


def _compare(result: Survey, path: str, data: bytes, current: Optional[bytes]) -> None:
    if current is None:
        result.missing.append(path)
        result.texts[path] = data
    elif current != data:
        result.stale.append(path)
        result.texts[path] = data
        result.current[path] = current


def _survey_manifest(root: Path, owner: str, outputs: list[Output], result: Survey, folders: list[str]) -> None:
    """An orphan is a file the owner's manifest lists that is no longer rendered. The
    manifest is a committed file anyone can edit, so it is believed only where it can be
    right: a file it lists is removed only if it lies in the outputs' folders, carries the
    generator's banner and still has the bytes the manifest records."""
    old, warning = read_manifest(root, owner)
    if warning:
        result.warnings.append(warning)
    rendered = {o.path for o in outputs}
    for path, written in sorted(old.items()):
        if path in rendered or path == manifest_path(owner):
            continue
        if not any(path.startswith(folder + "/") for folder in folders):
            result.warnings.append(f"{manifest_path(owner)} lists {path!r}, which is outside the generator's folders "
                                   f"({', '.join(folders)}): left in place")
            continue
        try:
            current = read_output(root, path)
        except OutputError as error:
            result.warnings.append(f"orphaned {path} left in place: {error}")
            continue
        if current is None:
            continue
        if not fastpath.GENERATED_MARK.search(current[:4096]):
            result.warnings.append(f"{manifest_path(owner)} lists {path}, which does not carry the generator's banner: "
                                   "left in place")
            continue
        (result.orphaned if sha(current) == written else result.edited_orphans).append(path)
    path = manifest_path(owner)
    data = render_manifest(owner, {o.path: result.hashes[o.path] for o in outputs}).encode("utf-8")
    result.hashes[path] = sha(data)
    _compare(result, path, data, read_output(root, path))


# -- writing ----------------------------------------------------------------------------------


def write_survey(root: Path, result: Survey, outputs: list[Output], cache: Cache,
                 key: Optional[str] = None) -> list[tuple[str, str]]:
    """Write what changed and remove orphans still as written; returns [(action, path)].
    The caller holds run_lock(root) from before its survey.
    `key` (fastpath.inputs_key of what the outputs were rendered from) is recorded with
    the hash of every file written, when the run ends clean, for the next run's quick answer."""
    actions: list[tuple[str, str]] = []
    unchanged = (fastpath.entry(key, result.hashes, len(outputs))
                 if key is not None and not result.edited_orphans and not result.warnings and not result.not_files
                 else None)
    if not (result.texts or result.orphaned) and not os.path.lexists(root / JOURNAL):
        _refresh_cache(root, result, outputs, cache, unchanged)
        return actions
    journal = read_journal(root)
    if journal:
        for leftover in _temp_leftovers(root, journal):
            with contextlib.suppress(OSError):
                leftover.unlink()
    _write_journal(root, result)
    ready: dict[str, Path] = {}  # each parent directory, checked for links and made once
    for path in sorted(result.texts):
        parent, _, name = path.rpartition("/")
        if parent not in ready:
            ready[parent] = resolve(root, parent) if parent else root
            _make_parents(root, path)
        target = resolve(ready[parent], name)  # the file itself: never a link either
        try:
            atomic_write(target, result.texts[path], make_parent=False)
        except OSError as error:
            raise os_problem(path, error) from None
        actions.append(("wrote", path))
    for path in result.orphaned:
        try:
            resolve(root, path).unlink(missing_ok=True)
        except OSError as error:
            raise os_problem(path, error, "remove") from None
        actions.append(("removed", path))
        _remove_empty_parents(root, path)
    _refresh_cache(root, result, outputs, cache, unchanged)
    with contextlib.suppress(FileNotFoundError):
        (root / JOURNAL).unlink()
    return actions


def _refresh_cache(root: Path, result: Survey, outputs: list[Output], cache: Cache,
                   unchanged: Optional[dict] = None) -> None:
    fresh = {o.path: (result.stamps[o.path], result.hashes[o.path]) for o in outputs if o.path in result.hashes}
    stale = fresh != {k: cache.entries.get(k) for k in fresh} or unchanged != cache.unchanged
    if stale and os.access(root, os.W_OK):
        cache.entries.update(fresh)
        cache.unchanged = unchanged
        cache.save(root)


def _write_journal(root: Path, result: Survey) -> None:
    data = {"pid": os.getpid(), "writes": sorted(result.texts), "removes": result.orphaned}
    try:
        atomic_write(root / JOURNAL, json.dumps(data).encode())
    except OSError as error:
        raise os_problem(JOURNAL, error) from None


def _make_parents(root: Path, rel: str) -> None:
    path = root
    for part in rel.split("/")[:-1]:
        path = path / part
        try:
            path.mkdir(exist_ok=True)
        except FileExistsError:
            raise OutputError(f"cannot write {rel}: {path} is a file where a directory belongs; remove it") from None
        except OSError as error:
            raise os_problem(rel, error) from None


def _remove_empty_parents(root: Path, rel: str) -> None:
    """Remove the directories an orphan leaves empty, up to the top of the tree."""
    parts = rel.split("/")[:-1]
    while parts:
        with contextlib.suppress(OSError):
            os.rmdir(root.joinpath(*parts))  # fails, harmlessly, when not empty
        parts.pop()


def atomic_write(target: Path, data: bytes, make_parent: bool = True) -> None:
    if make_parent:
        target.parent.mkdir(parents=True, exist_ok=True)
    temp = f"{target.parent}/.{target.name[:100]}{TEMP_MARK}{os.getpid()}-{next(_serial)}"
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        # No fsync: os.replace already makes a killed run leave the old file or
        # the new one; surviving power loss is not promised, and 20,000 fsyncs
        # would dominate a large generate.
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


@contextlib.contextmanager
def run_lock(root: Path) -> Iterator[None]:
    """Held by a `generate` from before it surveys the tree until it has written it: two runs
    in one tree take turns, and each writes what it compared (not what another run left).
    A tree that cannot hold the lock (read-only) is surveyed unlocked: nothing can be written
    there anyway, and the write says why. Never opened through a link, never a FIFO."""
    try:
        root.mkdir(parents=True, exist_ok=True)
        fd = os.open(root / LOCK, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o644)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise OutputError(f"{root / LOCK} is a symbolic link: the generator never opens its lock through one; "
                              "remove it, then run `make generate` again") from None
        if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            yield
            return
        raise os_problem(str(root / LOCK), error) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OutputError(f"{root / LOCK} is not a regular file (a FIFO or a device?): remove it, "
                              "then run `make generate` again")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            import sys

            print(f"waiting for another `generate` in {root} to finish", file=sys.stderr, flush=True)
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def unified_diff(path: str, current: bytes, rendered: bytes, limit: int = 200) -> str:
    lines = list(difflib.unified_diff(
        current.decode("utf-8", "replace").splitlines(keepends=True), rendered.decode("utf-8").splitlines(keepends=True),
        fromfile=f"a/{path} (committed)", tofile=f"b/{path} (generated from the catalog)",
    ))
    if len(lines) > limit:
        lines = lines[:limit] + [f"... ({len(lines) - limit} more diff lines)\n"]
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
