"""The quick answer for `generate` and `check` when nothing changed since the last run.

Reading the catalog (YAML composition, validation, the model) is most of the cost of a
run that has nothing to write; importing the code that does it is most of the rest.
A run that finished cleanly records, in the git-ignored cache, the hash of everything
it was made from (every catalog file's name and bytes, the generator's own code and
templates, the families asked for) and the SHA-256 of every file it owns. When the
next run finds the same inputs and every one of those files still as written (each
file's own bytes hashed, so an output edited by hand is never missed), it answers
without reading the catalog. Anything else (a missing or foreign cache, a changed
byte anywhere, a journal of an unfinished run, a symbolic link) takes the full path.

This module imports nothing heavy: it runs before the rest of the generator loads.
"""
from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path
from typing import Optional

PACKAGE_DIR = Path(__file__).resolve().parent
# Installed, the templates ship inside the package; in a checkout they are the
# repository's templates/ directory (pyproject.toml maps one onto the other).
TEMPLATES = PACKAGE_DIR / "templates" if (PACKAGE_DIR / "templates").is_dir() else PACKAGE_DIR.parent / "templates"
CACHE = ".generate-cache.json"
JOURNAL = ".generate-journal.json"
_fingerprint: Optional[str] = None


def catalog_groups(location: Path) -> list[tuple[str, list[Path]]]:
    """(directory, files) for the top level and each subdirectory, in name order: the
    files the catalog is read from."""
    if not location.is_dir():
        return [("", [location])]
    groups = [("", _yaml_files(location))]
    for sub in sorted(p for p in location.iterdir() if p.is_dir() and not p.name.startswith(".")):
        files = _yaml_files(sub)
        if files:
            groups.append((sub.name, files))
    return groups


def _yaml_files(directory: Path) -> list[Path]:
    return sorted(p for p in directory.iterdir() if p.suffix in (".yaml", ".yml") and not p.name.startswith("."))


def generator_fingerprint() -> str:
    """A hash of the generator's own code, templates and runtime: a cache built by other
    code is foreign. (Not part of any stamp: editing a comment here rewrites nothing.)"""
    global _fingerprint
    if _fingerprint is None:
        from generator.version import project_version

        digest = hashlib.sha256(project_version().encode())
        for base in (PACKAGE_DIR, TEMPLATES):
            for path in sorted(p for p in base.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
                digest.update(str(path.relative_to(base)).encode() + b"\0" + path.read_bytes() + b"\0")
        _fingerprint = digest.hexdigest()[:16]
    return _fingerprint


def source_record(directory: str, name: str, data: bytes) -> bytes:
    """What one catalog file adds to the hash of the catalog's sources: its place and bytes."""
    return f"{directory}/{name}\0{len(data)}\0".encode() + data


def inputs_key(catalog: Path, families: Optional[list[str]]) -> Optional[str]:
    """The hash of everything a run's outputs are made from, or None when a catalog file
    cannot be read as a regular file (the full path then says why)."""
    source = hashlib.sha256()
    try:
        for directory, files in catalog_groups(catalog):
            for path in files:
                if not stat.S_ISREG(os.stat(path).st_mode):
                    return None
                with open(path, "rb") as handle:
                    source.update(source_record(directory, path.name, handle.read()))
    except OSError:
        return None
    return key_of(source.hexdigest(), families)


def key_of(source_hash: str, families: Optional[list[str]]) -> str:
    """The inputs' key: the catalog's sources, the generator's own code, the families asked for."""
    digest = hashlib.sha256(generator_fingerprint().encode() + b"\0")
    digest.update(json.dumps(sorted(families) if families else None).encode() + b"\0")
    digest.update(source_hash.encode())
    return digest.hexdigest()


def cache_data(root: Path) -> dict:
    """The cache's contents: {} when it is missing, unreadable, or not as written (the
    last line is the SHA-256 of the rest, so a cache damaged in any byte is ignored)."""
    try:
        raw = (root / CACHE).read_bytes()
        body, _, checksum = raw.rpartition(b"\n")
        if hashlib.sha256(body).hexdigest().encode() != checksum:
            return {}
        data = json.loads(body.decode("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def cache_bytes(data: dict) -> bytes:
    """The cache as written: JSON, then a line with its SHA-256."""
    body = json.dumps(data, separators=(",", ":")).encode()
    return body + b"\n" + hashlib.sha256(body).hexdigest().encode()


def unchanged(root: Path, key: Optional[str]) -> Optional[int]:
    """The number of outputs when the last clean run had these inputs and every file it
    owns is still as it wrote it; None otherwise."""
    if key is None:
        return None
    quick = cache_data(root).get("unchanged")
    if not isinstance(quick, dict) or quick.get("key") != key or os.path.lexists(root / JOURNAL):
        return None
    files, outputs = quick.get("files"), quick.get("outputs")
    if not isinstance(files, dict) or not isinstance(outputs, int):
        return None
    real_root = os.path.realpath(root)
    checked_dirs: dict[str, bool] = {}
    for rel, expected in files.items():
        if not isinstance(rel, str) or not isinstance(expected, str) or rel.startswith("/") or ".." in rel.split("/"):
            return None
        parent = os.path.dirname(rel)
        if parent not in checked_dirs:  # no symbolic link on the way: the full path refuses those
            checked_dirs[parent] = os.path.realpath(os.path.join(root, parent)) == os.path.join(real_root, parent).rstrip("/")
        if not checked_dirs[parent]:
            return None
        try:
            fd = os.open(os.path.join(root, rel), os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            return None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            digest = hashlib.sha256()
            while True:
                block = os.read(fd, 1 << 20)
                if not block:
                    break
                digest.update(block)
        finally:
            os.close(fd)
        if digest.hexdigest() != expected:
            return None
    return outputs


def entry(key: str, files: dict[str, str], outputs: int) -> dict:
    """What the cache records of a clean run, for `unchanged`."""
    return {"key": key, "outputs": outputs, "files": dict(sorted(files.items()))}


# What `generate` and `check` print last: the quick answer must read like the full one.
def generate_summary(outputs: int, written: int, removed: int, rendered: int) -> str:
    return f"generate: {outputs} outputs, {written} written, {removed} removed, {rendered} rendered"


def check_summary(outputs: int) -> str:
    return f"check: all {outputs} outputs match the catalog"
