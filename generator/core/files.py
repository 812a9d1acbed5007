"""Where the generator's own files are, and reading a file that must be a regular one."""
from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent.parent
# Installed, the templates ship inside the package; in a checkout they are the
# repository's templates/ directory (pyproject.toml maps one onto the other).
TEMPLATES = PACKAGE_DIR / "templates" if (PACKAGE_DIR / "templates").is_dir() else PACKAGE_DIR.parent / "templates"
# A checkout's catalog/, the verbs' default (None where the generator is installed without one).
CHECKOUT_CATALOG = PACKAGE_DIR.parent / "catalog" if (PACKAGE_DIR.parent / "catalog").is_dir() \
    and (PACKAGE_DIR.parent / "pyproject.toml").is_file() else None


class NotRegular(OSError):
    """What read_regular refuses: a link, a FIFO, a device, a directory, or a file too large."""


def read_regular(path, limit: int, closed_to_others: int = 0) -> bytes:
    """A regular file's bytes, read without following a symbolic link and without
    blocking on a FIFO; NotRegular for anything else or for a file over `limit` bytes.
    `closed_to_others`: mode bits the file must not have (0o077: only its user can read or
    write it), and then it must be this user's own too: NotRegular otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise NotRegular(errno.ELOOP, "a symbolic link", str(path)) from None
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegular(errno.EINVAL, "not a regular file (a directory, a FIFO or a device)", str(path))
        if closed_to_others and (info.st_uid != os.geteuid() or info.st_mode & closed_to_others):
            raise NotRegular(errno.EPERM, "another user's, or open to other users", str(path))
        if info.st_size > limit:
            raise NotRegular(errno.EFBIG, f"larger than {limit >> 20} MiB", str(path))
        chunks, total = [], 0
        while True:
            block = os.read(fd, 1 << 20)
            if not block:
                break
            total += len(block)
            if total > limit:
                raise NotRegular(errno.EFBIG, f"larger than {limit >> 20} MiB", str(path))
            chunks.append(block)
        return b"".join(chunks)
    finally:
        os.close(fd)
