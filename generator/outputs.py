"""The one module that touches the output tree: compare, and write atomically.

Each output is written to a temporary file beside it and renamed into place,
so a reader (or a run killed part-way) only ever sees a whole old or a whole
new file. Only files whose bytes changed are written. A lock file serialises
concurrent `generate` runs on one tree.
"""
from __future__ import annotations

import contextlib
import difflib
import fcntl
import itertools
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

TEMP_MARK = ".tmp-generate-"
LOCK_NAME = ".generate.lock"
_serial = itertools.count()  # with the pid, names each temporary file uniquely


@dataclass
class Drift:
    """How the tree on disk differs from the rendered outputs."""

    stale: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    orphaned: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.stale or self.missing or self.orphaned)


def existing_files(root: Path, owned_dirs: tuple[str, ...]) -> list[str]:
    """Every file under the owned folders, as sorted POSIX paths relative to root."""
    found = []
    for owned in owned_dirs:
        base = root / owned
        if not base.is_dir():
            continue
        for dirpath, dirnames, filenames in os.walk(base):
            # Python's bytecode cache (importing the vendored module in place) is no output.
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for name in filenames:
                found.append((Path(dirpath) / name).relative_to(root).as_posix())
    return sorted(found)


def compare(root: Path, files: dict[str, str], owned_dirs: tuple[str, ...]) -> Drift:
    drift = Drift()
    for path, text in files.items():
        current = _read(root / path)
        if current is None:
            drift.missing.append(path)
        elif current != text.encode("utf-8"):
            drift.stale.append(path)
    drift.orphaned = [p for p in existing_files(root, owned_dirs) if p not in files]
    return drift


def unified_diff(root: Path, path: str, text: str, limit: int = 200) -> str:
    current = (_read(root / path) or b"").decode("utf-8", "replace")
    lines = list(difflib.unified_diff(
        current.splitlines(keepends=True), text.splitlines(keepends=True),
        fromfile=f"a/{path} (committed)", tofile=f"b/{path} (generated from the catalog)",
    ))
    if len(lines) > limit:
        lines = lines[:limit] + [f"... ({len(lines) - limit} more diff lines)\n"]
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def write_outputs(root: Path, files: dict[str, str], owned_dirs: tuple[str, ...]) -> list[tuple[str, str]]:
    """Write what changed and remove orphans; returns [(action, path)]."""
    actions: list[tuple[str, str]] = []
    with _locked(root):
        drift = compare(root, files, owned_dirs)
        made: set[Path] = set()
        for path in sorted(drift.missing + drift.stale):
            target = root / path
            if target.parent not in made:
                target.parent.mkdir(parents=True, exist_ok=True)
                made.add(target.parent)
            atomic_write(target, files[path].encode("utf-8"), make_parent=False)
            actions.append(("wrote", path))
        for path in drift.orphaned:
            (root / path).unlink(missing_ok=True)
            actions.append(("removed", path))
        _remove_empty_dirs(root, owned_dirs)
    return actions


def atomic_write(target: Path, data: bytes, make_parent: bool = True) -> None:
    if make_parent:
        target.parent.mkdir(parents=True, exist_ok=True)
    temp = f"{target.parent}/.{target.name}{TEMP_MARK}{os.getpid()}-{next(_serial)}"
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
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise


@contextlib.contextmanager
def _locked(root: Path) -> Iterator[None]:
    root.mkdir(parents=True, exist_ok=True)
    with open(root / LOCK_NAME, "a+b") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock.fileno(), fcntl.LOCK_UN)


def _remove_empty_dirs(root: Path, owned_dirs: tuple[str, ...]) -> None:
    for owned in owned_dirs:
        base = root / owned
        if not base.is_dir():
            continue
        for dirpath, _dirnames, _filenames in sorted(os.walk(base), reverse=True):
            if Path(dirpath) != base and not os.listdir(dirpath):
                os.rmdir(dirpath)


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None
