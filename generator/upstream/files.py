"""Reading an upstream file: a regular file of at most MAX_FILE_BYTES, in UTF-8, or an
`Unreadable`/`UnreadableFile` with its line, never an exception of another kind. (Upstream's
largest page is tens of kilobytes.)"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path


MAX_FILE_BYTES = 4 * 1024 * 1024  # 4 MiB
TOO_LARGE = f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB, the most an upstream file may be"


@dataclass(frozen=True)
class Unreadable:
    line: int
    message: str


class UnreadableFile(Exception):
    """An upstream file that is not read: what is wrong with it, and the line where."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line, self.message = line, message


def read_file(path: Path) -> str:
    """An upstream file's text: a regular file of at most MAX_FILE_BYTES, in UTF-8. Opened
    without waiting (a FIFO is refused, not waited on), and never read past the limit
    (/dev/zero is refused, not read until memory runs out)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as error:
        raise UnreadableFile(1, error.strerror or str(error)) from None
    with os.fdopen(fd, "rb") as handle:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise UnreadableFile(1, "not a regular file (a device, a pipe or a socket): give the file itself")
        try:
            data = handle.read(MAX_FILE_BYTES + 1)
        except OSError as error:
            raise UnreadableFile(1, error.strerror or str(error)) from None
    return decode(data)


def decode(data: bytes) -> str:
    """The text of an upstream file's bytes; refused when too large or not UTF-8, at the line
    of the first byte that is not."""
    if len(data) > MAX_FILE_BYTES:
        raise UnreadableFile(1, TOO_LARGE)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise UnreadableFile(
            line, f"not UTF-8 text: byte 0x{data[error.start]:02X} at byte {column} of the line"
        ) from None
