"""Which files the catalog is read from."""
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
