"""The run lock: two `generate`s in one tree take turns, and no other user can take part.

The lock is a file only its user can open (0600): another user's `flock` on it, even
through a read-only descriptor, would keep every `generate` waiting. A lock file that
is another user's is refused (removing it is the tree owner's call); one of this
user's that others could open (an older version made it 0644, and a neighbour may
hold a descriptor on it already) is replaced, while locked, by a new file renamed
over it, so an old descriptor locks a file no run uses. A run that locks the file
checks that it is still the one at the path, or starts again on the new one.

A wait says which file and which process hold it, and gives up after
LLM_STATUS_CODES_LOCK_TIMEOUT seconds (default 60) with exit status 1.
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
from generator.writing.files import TEMP_MARK, os_problem

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
    """Held by a `generate` from before it surveys the tree until it has written it: two runs
    in one tree take turns, and each writes what it compared (not what another run left).
    A tree that cannot hold the lock (read-only) is surveyed unlocked: nothing can be written
    there anyway, and the write says why. Never opened through a link, never a FIFO."""
    fd = _take(root, time.monotonic() + lock_timeout())
    try:
        yield
    finally:
        if fd is not None:
            os.close(fd)  # releases the lock


def _take(root: Path, deadline: float) -> Optional[int]:
    """A descriptor of the lock file at root, locked; None for a tree that cannot hold one."""
    path = root / LOCK
    announced = False
    while True:
        fd = _open(root, path)
        if fd is None:
            return None
        try:
            announced = _wait(fd, path, deadline, announced)
            if _still_at(fd, path):
                if not os.fstat(fd).st_mode & 0o077:
                    return fd
                replaced = _replace(path)  # locked before it takes the old one's place
                os.close(fd)
                return replaced
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)  # another run replaced it meanwhile: lock the one there now


def _open(root: Path, path: Path) -> Optional[int]:
    """The lock file, made 0600 when missing; refused when it is no regular file or another user's."""
    try:
        root.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o600)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise OutputError(f"{path} is a symbolic link: the generator never opens its lock through one; "
                              "remove it, then run `make generate` again") from None
        if error.errno not in (errno.EROFS, errno.EACCES, errno.EPERM):
            raise os_problem(str(path), error, "open") from None
        try:
            info = os.lstat(path)
        except OSError:
            return None  # no lock file, and no right to make one: a tree this user cannot write
        _refuse_foreign(path, info)
        if error.errno == errno.EROFS:
            return None
        raise os_problem(str(path), error, "open") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OutputError(f"{path} is not a regular file (a FIFO or a device?): remove it, "
                              "then run `make generate` again")
        _refuse_foreign(path, info)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _refuse_foreign(path: Path, info: os.stat_result) -> None:
    """OutputError when the lock file is another user's: they could hold it for ever."""
    if info.st_uid != os.geteuid():
        raise OutputError(f"{path} belongs to {_user(info.st_uid)}, not to you: another user could hold it and keep "
                          f"`generate` waiting; if this tree is yours, remove it (rm {path}) and run again")


def _wait(fd: int, path: Path, deadline: float, announced: bool) -> bool:
    """Lock fd, trying again until the deadline; whether the wait was announced."""
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return announced
        except BlockingIOError:
            pass
        if not announced:
            print(f"waiting for another `generate` in {path.parent} to finish: {path} is held by {_holder(fd)}; "
                  f"giving up after {lock_timeout():g} s ({TIMEOUT_SETTING})", file=sys.stderr, flush=True)
            announced = True
        left = deadline - time.monotonic()
        if left <= 0:
            raise OutputError(f"gave up waiting for {path}: {_holder(fd)} holds it; wait for that run to end, or "
                              f"set {TIMEOUT_SETTING} to wait longer (seconds; now {lock_timeout():g})"
                              + _open_to_others(fd, path))
        time.sleep(min(_POLL, left))


def _open_to_others(fd: int, path: Path) -> str:
    """What to do about a lock file others can open (an older version's): they may hold it."""
    if not os.fstat(fd).st_mode & 0o077:
        return ""
    return (f"; {path} can be opened by other users (an older version made it): if that is not a run of yours, "
            f"remove it (rm {path}) and run again, and a new one only you can open is made")


def _still_at(fd: int, path: Path) -> bool:
    """Whether the file fd locked is still the one at path (not replaced meanwhile)."""
    try:
        here = os.lstat(path)
    except OSError:
        return False
    mine = os.fstat(fd)
    return (here.st_dev, here.st_ino) == (mine.st_dev, mine.st_ino)


def _replace(path: Path) -> int:
    """A new lock file of this user's alone, locked, renamed over the old one (whose lock the
    caller holds and which its descriptor still names): its descriptor."""
    temp = f"{path}{TEMP_MARK}{os.getpid()}-{os.urandom(4).hex()}"
    try:
        fd = os.open(temp, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError as error:
        raise _cannot_replace(path, error) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # nobody else knows the file yet
        os.replace(temp, path)
    except OSError as error:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise _cannot_replace(path, error) from None
    return fd


def _cannot_replace(path: Path, error: OSError) -> OutputError:
    return OutputError(f"{path} can be opened by other users, who could hold it and keep `generate` waiting, and "
                       f"it cannot be replaced ({error.strerror or error}): remove it (rm {path}) and run again")


def _holder(fd: int) -> str:
    """Who holds the lock on fd's file, as the kernel's table of locks says: `pid N (user U)`."""
    info = os.fstat(fd)
    where = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as table:
            for line in table:
                fields = line.split()
                if len(fields) > 5 and fields[1] == "FLOCK" and fields[5] == where and fields[4].isdigit():
                    return f"pid {fields[4]} ({_user_of_process(int(fields[4]))})"
    except OSError:
        pass
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
