"""Whether this Python can run the generator, and the one line that says what to do when not.

The generator runs in the project's .venv/ (Python 3.11 or newer with the pinned dependencies
of pyproject.toml), which `make generate` creates. Another python3 (the system's, or one on
PATH, run from the repository's root) may be too old or lack a dependency: that is wrong usage,
said in one line (exit status 2), never a traceback. Standard library only, and light: the
command line checks this before it imports anything that needs a dependency.
"""
from __future__ import annotations

import importlib.util
import sys
from typing import Optional

# pyproject.toml's requires-python (tests/test_environment.py keeps the two equal)
REQUIRED_PYTHON = (3, 11)
_WHAT_TO_DO = ("run `make generate` (it creates .venv/ with the pinned dependencies), "
               "or use `.venv/bin/python -m generator ...`")


def python_too_old() -> Optional[str]:
    """The line to print when this Python is older than the generator needs; None when it fits."""
    if sys.version_info >= REQUIRED_PYTHON:
        return None
    needed = ".".join(map(str, REQUIRED_PYTHON))
    return (f"error: the generator needs Python {needed} or newer, and {sys.executable or 'this Python'} is "
            f"{sys.version_info[0]}.{sys.version_info[1]}: {_WHAT_TO_DO}")


def missing_package(error: ModuleNotFoundError) -> Optional[str]:
    """The line to print for a package this Python lacks; None when the missing module is the
    generator's own (a bug, whose traceback says where)."""
    package = (error.name or "").partition(".")[0]
    if not package or package == "generator":
        return None
    return (f"error: {sys.executable or 'this Python'} has no module {package!r}, which the generator needs: "
            f"{_WHAT_TO_DO}")


def require(module: str) -> None:
    """For a package that a child process runs (`python -m mkdocs`): ModuleNotFoundError, as an
    import would raise it, unless this Python has it."""
    if importlib.util.find_spec(module) is None:
        raise ModuleNotFoundError(f"No module named {module!r}", name=module)
