"""Files in the output tree, safely: paths that never pass through a link, atomic writes,
OS errors as messages. (The run lock is generator.writing.lock.)"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import itertools
import os
import stat
from pathlib import Path
from typing import Optional

from generator.core.exits import OutputError


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
            raise link_refused(path)
    return path


def link_refused(path: Path) -> OutputError:
    return OutputError(f"{path} is a symbolic link: the generator never writes or deletes through links; "
                       "replace it with a directory or file of its own, or generate elsewhere (--out DIR)")


def read_output(root: Path, rel: str) -> Optional[bytes]:
    """The bytes of an output, None when missing; OutputError when something else is in its place."""
    return TreeReader(root).read(rel)


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def make_parents(root: Path, rel: str) -> None:
    path = root
    for part in rel.split("/")[:-1]:
        path = path / part
        try:
            path.mkdir(exist_ok=True)
        except FileExistsError:
            raise OutputError(f"cannot write {rel}: {path} is a file where a directory belongs; remove it") from None
        except OSError as error:
            raise os_problem(rel, error) from None


def remove_empty_parents(root: Path, rel: str) -> None:
    """Remove the directories an orphan leaves empty, up to the top of the tree."""
    parts = rel.split("/")[:-1]
    while parts:
        with contextlib.suppress(OSError):
            os.rmdir(root.joinpath(*parts))  # fails, harmlessly, when not empty
        parts.pop()


def atomic_write(target: Path, data: bytes, make_parent: bool = True, mode: int = 0o644) -> None:
    if make_parent:
        target.parent.mkdir(parents=True, exist_ok=True)
    temp = f"{target.parent}/.{target.name[:100]}{TEMP_MARK}{os.getpid()}-{next(_serial)}"
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
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


class TreeReader:
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
        """The bytes of an output, None when missing; OutputError when something else is in its place."""
        path = self._path(rel)
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            return None
        except NotADirectoryError:
            raise OutputError(f"cannot read {rel}: a file is in the way of one of its directories; remove it") from None
        except OSError as error:
            raise os_problem(rel, error, "read") from None
        refuse_non_file(rel, path, info)
        try:
            with open(path, "rb") as handle:
                return handle.read()
        except OSError as error:
            raise os_problem(rel, error, "read") from None


def refuse_non_file(rel: str, path, info: os.stat_result) -> None:
    if stat.S_ISLNK(info.st_mode):
        raise link_refused(path)
    if stat.S_ISDIR(info.st_mode):
        raise OutputError(f"{rel} is a directory where the output file belongs: remove it, then run `make generate`")
    if not stat.S_ISREG(info.st_mode):
        raise OutputError(f"{rel} is not a regular file (a FIFO or a device?): remove it, then run `make generate`")
