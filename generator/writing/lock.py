"""The run lock: two `generate`s in one tree take turns, each writing what it compared.

The lock is a file only its user can open (0600), never opened through a link: a lock file of
another user's is refused, as they could hold it for ever (removing it is the tree owner's
call). A wait says which process holds it, and gives up after LLM_STATUS_CODES_LOCK_TIMEOUT
seconds (default 60) with exit status 1.
"""
from __future__ import annotations

import contextlib
import errno
import fcntl
import math
import os
import stat
import sys
import time
from pathlib import Path
from typing import Iterator, Optional

from generator.core.exits import OutputError, UsageError
from generator.writing.files import os_problem

LOCK = ".generate.lock"
TIMEOUT_SETTING = "LLM_STATUS_CODES_LOCK_TIMEOUT"
DEFAULT_TIMEOUT = 60.0
_POLL = 0.05  # seconds between two tries while another run holds the lock


def lock_timeout() -> float:
    """How long a run waits for the lock, in seconds: the setting, or the default."""
    raw = os.environ.get(TIMEOUT_SETTING)
    if raw is None or not raw.strip():
        return DEFAULT_TIMEOUT
    try:
        seconds = float(raw)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds) or seconds < 0:
        raise UsageError(f"{TIMEOUT_SETTING}={raw!r}: give the seconds to wait for another run's lock "
                         f"(a number, 0 or more; default {DEFAULT_TIMEOUT:g})")
    return seconds


@contextlib.contextmanager
def run_lock(root: Path) -> Iterator[None]:
    """Held by a `generate` from before it surveys the tree until it has written it. A tree
    that cannot hold the lock (read-only) is surveyed unlocked: nothing can be written there
    anyway, and the write says why."""
    fd = _open(root / LOCK)
    try:
        if fd is not None:
            _wait(fd, root / LOCK, time.monotonic() + lock_timeout())
        yield
    finally:
        if fd is not None:
            os.close(fd)  # releases the lock


def _open(path: Path) -> Optional[int]:
    """The lock file, made 0600 when missing; refused when it is no regular file or another user's."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o600)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise OutputError(f"{path} is a symbolic link: the generator never opens its lock through one; "
                              "remove it, then run `make generate` again") from None
        with contextlib.suppress(OSError):
            _refuse_foreign(path, os.lstat(path))
        if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM) and not os.path.lexists(path) \
                or error.errno == errno.EROFS:
            return None  # a tree this user cannot write
        raise os_problem(str(path), error, "open") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid():
        os.close(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OutputError(f"{path} is not a regular file (a FIFO or a device?): remove it, then run "
                              "`make generate` again")
        _refuse_foreign(path, info)
    return fd


def _refuse_foreign(path: Path, info: os.stat_result) -> None:
    """OutputError when the lock file is another user's: they could hold it for ever."""
    if info.st_uid != os.geteuid():
        raise OutputError(f"{path} belongs to {_user(info.st_uid)}, not to you: another user could hold it and keep "
                          f"`generate` waiting; if this tree is yours, remove it (rm {path}) and run again")


def _wait(fd: int, path: Path, deadline: float) -> None:
    """Lock fd, trying again until the deadline; the first wait is said, giving up is an error."""
    announced = False
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        if not announced:
            print(f"waiting for another `generate` in {path.parent} to finish: {path} is held by {_holder(fd)}; "
                  f"giving up after {lock_timeout():g} s ({TIMEOUT_SETTING})", file=sys.stderr, flush=True)
            announced = True
        left = deadline - time.monotonic()
        if left <= 0:
            raise OutputError(f"gave up waiting for {path}: {_holder(fd)} holds it; wait for that run to end, or "
                              f"set {TIMEOUT_SETTING} to wait longer (seconds; now {lock_timeout():g})")
        time.sleep(min(_POLL, left))


def _holder(fd: int) -> str:
    """Who holds the lock on fd's file, as the kernel's table of locks says: `pid N (user U)`."""
    info = os.fstat(fd)
    where = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    with contextlib.suppress(OSError):
        with open("/proc/locks", encoding="ascii", errors="replace") as table:
            for fields in map(str.split, table):
                if len(fields) > 5 and fields[1] == "FLOCK" and fields[5] == where and fields[4].isdigit():
                    return f"pid {fields[4]} ({_user_of_process(int(fields[4]))})"
    return "another process"


def _user_of_process(pid: int) -> str:
    try:
        return _user(os.stat(f"/proc/{pid}").st_uid)
    except OSError:
        return "user unknown"


def _user(uid: int) -> str:
    import pwd

    try:
        return f"user {pwd.getpwuid(uid).pw_name}"
    except KeyError:
        return f"uid {uid}"
