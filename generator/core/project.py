"""The project's version: pyproject.toml holds it, the installed metadata carries it."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

PACKAGE = "llm-status-codes"


@lru_cache(maxsize=1)
def project_version() -> str:
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    if pyproject.is_file():  # a checkout: its pyproject.toml is the one place the version is written
        match = re.search(r'(?m)^version\s*=\s*"([^"]+)"', pyproject.read_text(encoding="utf-8"))
        if match:
            return match.group(1)
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(PACKAGE)
    except PackageNotFoundError:  # pragma: no cover - neither a checkout nor installed
        return "0+unknown"
