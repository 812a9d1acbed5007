"""The exceptions the command line turns into one-line messages, and the exit statuses.

Light on purpose: the command line imports this before anything else of the generator.
"""
from __future__ import annotations

import sys

EXIT_OK, EXIT_DIFFERENT, EXIT_USAGE, EXIT_INVALID = 0, 1, 2, 3


class UsageError(Exception):
    """Wrong usage found after parsing (an unknown key, edition, family, or a missing path)."""


class OutputError(Exception):
    """A problem with the output tree, said in one line: the path and what to do."""


def safe_print(text: str, stream=None) -> None:
    """Print even where the terminal's encoding cannot show the text (PYTHONIOENCODING=ascii)."""
    stream = stream or sys.stdout
    try:
        print(text, file=stream)
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "ascii"
        stream.flush()
        data = (text + "\n").encode(encoding, "backslashreplace")
        if hasattr(stream, "buffer"):
            stream.buffer.write(data)
            stream.buffer.flush()
        else:  # pragma: no cover - a text-only stream
            stream.write(data.decode(encoding))
