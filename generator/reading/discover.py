"""Which files the catalog is read from, and what each adds to the hash of its sources.

Imports nothing heavy: the quick path (generator.writing.fastpath) hashes the same files
before the rest of the generator loads.
"""
from __future__ import annotations

from pathlib import Path


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


def source_record(directory: str, name: str, data: bytes) -> bytes:
    """What one catalog file adds to the hash of the catalog's sources: its place and bytes."""
    return f"{directory}/{name}\0{len(data)}\0".encode() + data
