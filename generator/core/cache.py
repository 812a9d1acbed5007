"""The user's cache (XDG_CACHE_HOME, else ~/.cache): what the generator works out from its own code
alone, kept between runs. A directory another user owns, or one that cannot be written, is never
used: each run then works it out again, as without a cache."""
from __future__ import annotations

import hashlib
import os
from typing import Callable, Optional


def cache_directory(name: str) -> Optional[str]:
    """`llm-status-codes/NAME` in the user's cache, made if missing; None where it cannot be used."""
    home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    directory = os.path.join(home, "llm-status-codes", name)
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        if os.stat(directory).st_uid != os.getuid() or not os.access(directory, os.W_OK):
            return None  # another user's directory: never read from it
    except (OSError, AttributeError):  # AttributeError: no getuid (Windows)
        return None
    return directory


def remembered_text(name: str, key: bytes, compute: Callable[[], str],
                    valid: Callable[[str], bool] = lambda text: True) -> str:
    """`compute()`, or what it returned on an earlier run for the same `key` (every input it reads,
    as bytes) where `valid` accepts it: kept in the user's cache, written whole (a file beside it,
    then renamed)."""
    directory = cache_directory("texts")
    if directory is None:
        return compute()
    path = os.path.join(directory, f"{name}-{hashlib.sha256(key).hexdigest()[:32]}")
    try:
        with open(path, encoding="utf-8") as handle:
            kept = handle.read()
        if valid(kept):
            return kept
    except (OSError, ValueError):
        pass
    text = compute()
    temp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(temp, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temp, path)
    except OSError:
        pass
    return text
