"""Helpers shared by the tests: the repository, in-process CLI runs, interpreters."""
from __future__ import annotations

import contextlib
import glob
import importlib.util
import io
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from generator.cli import main

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
MINI = FIXTURES / "mini" / "catalog.yaml"


def documentation(name: str = "") -> str:
    """The README and the reference pages of docs/ (one of them by file name), as they read."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    return "\n".join(path.read_text(encoding="utf-8") for path in pages if not name or path.name == name)


@dataclass
class Result:
    code: int
    out: str
    err: str


def run_cli(*argv: str) -> Result:
    """Run `python -m generator ARGV` in-process, capturing its output."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in argv])
    return Result(code, out.getvalue(), err.getvalue())


# What a run leaves beside the outputs: neither committed nor compared.
RUN_FILES = {".generate.lock", ".generate-cache.json", ".generate-journal.json"}


def tree(root: Path, outputs_only: bool = False) -> dict[str, bytes]:
    """Every file under root as {relative path: bytes} (without the run's own files: outputs_only)."""
    files = {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
    if outputs_only:
        files = {k: v for k, v in files.items() if k not in RUN_FILES and "__pycache__" not in k}
    return files


def steps(function, *args) -> tuple[object, int]:
    """(what function(*args) returns or raises, the Python lines it ran): the work a reader
    does, counted the same on any machine, however loaded. Work done in C (a regular
    expression, the ast parser) is not counted."""
    count = [0]

    def line(frame, event, arg):
        count[0] += 1
        return line

    sys.settrace(lambda frame, event, arg: line)
    try:
        result: object = function(*args)
    except Exception as error:  # the refusal is the result
        result = error
    finally:
        sys.settrace(None)
    return result, count[0]


def catalog_text(name: str = "catalog.yaml") -> str:
    return (FIXTURES / "mini" / name).read_text(encoding="utf-8")


def interpreters() -> list[str]:
    """Every CPython 3.9+ on this machine (pyenv's and the system's), by version."""
    found: dict[str, str] = {}
    candidates = glob.glob(os.path.expanduser("~/.pyenv/versions/3.*/bin/python3"))
    candidates += [shutil.which(f"python3.{minor}") or "" for minor in range(9, 20)]
    for path in filter(None, candidates):
        try:
            version = subprocess.run(
                [path, "-I", "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                capture_output=True, text=True, timeout=30, check=True,
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            continue
        major, minor = map(int, version.split("."))
        if (major, minor) >= (3, 9):
            found.setdefault(version, path)
    return [found[v] for v in sorted(found, key=lambda v: tuple(map(int, v.split("."))))]


def generated_module(out: Path, name: str, file: str = "llm_status_codes.py"):
    """A module that a run generated under `out` (its file `file` in generated/python/),
    imported under `name` and not left in sys.modules (each test's module stands alone)."""
    spec = importlib.util.spec_from_file_location(name, out / "generated" / "python" / file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module
