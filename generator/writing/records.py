"""What a run records in the output tree: the manifests, and the journal of an unfinished run."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Optional

from generator.core.exits import OutputError
from generator.core.files import NotRegular, read_regular
from generator.rendering.output import manifest_path
from generator.writing.files import TEMP_MARK, read_output, resolve


# -- manifests, journal -----------------------------------------------------------


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
        return (
            {},
            f"{rel} is not a manifest this generator wrote; its old outputs cannot be told apart, none is removed",
        )


def render_manifest(owner: str, hashes: dict[str, str]) -> str:
    files = {path: hashes[path] for path in sorted(hashes)}
    return json.dumps({"$comment": "The outputs the generator wrote for this owner, with their SHA-256; "
                                   "an output no longer rendered is removed only if it is still as written. "
                                   "Generated from the catalog: do not edit; run `make generate`, which rewrites it.",
                       "owner": owner, "files": files}, indent=1, ensure_ascii=False) + "\n"


JOURNAL = ".generate-journal.json"  # exists while a run writes
JOURNAL_LIMIT = 64 << 20


def read_journal(root: Path) -> Optional[dict]:
    """The journal a run that did not finish left behind ({} when unreadable), or None.
    OutputError when something other than a file is in its place."""
    try:
        raw = read_regular(root / JOURNAL, JOURNAL_LIMIT)
    except FileNotFoundError:
        return None
    except NotRegular as error:
        raise OutputError(f"cannot read {root / JOURNAL} (the journal of a run): {error.strerror}; "
                          "remove it, then run `make generate` again") from None
    except OSError:
        return {}
    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def unfinished(journal: dict) -> str:
    """What the journal a run left says: that run did not finish."""
    return (f"the previous `generate` (pid {journal.get('pid')}) did not finish: it was stopped, or a write failed, "
            "part-way, so the outputs may be a mix of old and new ones; every output is checked in full")


def temp_leftovers(root: Path, journal: dict) -> list[Path]:
    """The temporary files the unfinished run named in `journal` left: exactly the names
    atomic_write gives, for the paths that run was writing, with that run's pid."""
    pid = journal.get("pid")
    found: list[Path] = []
    writes = journal.get("writes")  # {path: the hash of what it writes there}
    if not isinstance(pid, int) or not isinstance(writes, (dict, list)):
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
                if (
                    entry.name.startswith(prefix)
                    and entry.name[len(prefix) :].isdigit()
                    and entry.is_file(follow_symlinks=False)
                ):
                    found.append(Path(entry.path))
    return found
