"""Run the generator as an unprivileged user (nobody), wherever the checkout lives.

The checkout and its .venv/ may sit under a directory that only root can enter (a clone in
/root, or in a `mktemp -d`), and pyenv's interpreters live under /root. So the generator is not
run from the checkout: what it needs (its package, the templates, pyproject.toml for the version,
and the installed dependencies that pyproject.toml names) is copied into a directory anyone can
read, and run with an interpreter of the same version that nobody can execute.
"""
from __future__ import annotations

import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from tests.support.helpers import ROOT

NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc")


def why_not() -> str | None:
    """Why nobody cannot run the generator here, or None when it can."""
    if os.geteuid() != 0:
        return "drops privileges with setpriv, which needs root"
    if not shutil.which("setpriv"):
        return "drops privileges with setpriv, which is not installed"
    if reachable_base() is None:
        return "no directory that user nobody can enter: neither $TMPDIR, /tmp, /var/tmp nor /dev/shm"
    if interpreter() is None:
        return (f"no Python {sys.version_info.major}.{sys.version_info.minor} that user nobody can execute "
                f"({', '.join(_candidates())} tried)")
    return None


def _enterable_by_all(path: Path) -> bool:
    """Every directory from / down to path lets others through (o+x)."""
    return all(os.stat(p).st_mode & 0o001 for p in [path, *path.parents])


def reachable_base() -> Path | None:
    for base in (tempfile.gettempdir(), "/tmp", "/var/tmp", "/dev/shm"):
        path = Path(base)
        if path.is_dir() and _enterable_by_all(path.resolve()):
            return path.resolve()
    return None


def world_readable_dir(prefix: str) -> Path:
    """A new directory anyone can enter and read, in a place anyone can reach."""
    base = reachable_base()
    assert base is not None, why_not()
    path = Path(tempfile.mkdtemp(prefix=prefix, dir=base))
    path.chmod(0o755)
    return path


def _candidates() -> list[str]:
    """Interpreters of this test run's version: its own base interpreter first, then the system's."""
    minor = f"python{sys.version_info.major}.{sys.version_info.minor}"
    found = [os.path.realpath(getattr(sys, "_base_executable", sys.executable)), os.path.realpath(sys.executable)]
    found += [shutil.which(minor) or "", f"/usr/bin/{minor}", f"/usr/local/bin/{minor}"]
    return list(dict.fromkeys(p for p in found if p and os.path.isfile(p)))


_INTERPRETER: list[str | None] = []


def interpreter() -> str | None:
    """The first candidate that nobody can start and that reports this run's version."""
    if not _INTERPRETER:
        want = "%d.%d" % sys.version_info[:2]
        chosen = None
        for path in _candidates():
            try:
                probe = subprocess.run([*NOBODY, path, "-I", "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                                       capture_output=True, text=True, timeout=60, cwd="/")
            except (OSError, subprocess.SubprocessError):
                continue
            if probe.returncode == 0 and probe.stdout.strip() == want:
                chosen = path
                break
        _INTERPRETER.append(chosen)
    return _INTERPRETER[0]


def _dependencies() -> list[str]:
    """The distributions the generator needs at run time: pyproject.toml's `dependencies`."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [re.match(r"[A-Za-z0-9._-]+", spec).group(0) for spec in project["dependencies"]]


def copy_runtime(into: Path) -> Path:
    """Copy the generator and its dependencies into `into` (world-readable); returns it."""
    shutil.copytree(ROOT / "generator", into / "generator", ignore=IGNORE)
    shutil.copytree(ROOT / "templates", into / "templates", ignore=IGNORE)
    shutil.copy(ROOT / "pyproject.toml", into / "pyproject.toml")
    site = into / "site-packages"
    for name in _dependencies():
        dist = importlib.metadata.distribution(name)
        for file in dist.files or ():
            if file.parts[0] == ".." or "__pycache__" in file.parts:
                continue  # scripts in bin/, compiled caches
            target = site / Path(*file.parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(dist.locate_file(file), target)
    for path in [into, *into.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return into


def run_as_nobody(runtime: Path, args: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess:
    """`python -m generator ARGS` as nobody, from the copy in `runtime`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(
        PYTHONPATH=f"{runtime}{os.pathsep}{runtime / 'site-packages'}", PYTHONDONTWRITEBYTECODE="1", HOME=str(runtime)
    )
    return subprocess.run([*NOBODY, interpreter(), "-s", "-m", "generator", *args],
                          capture_output=True, text=True, cwd=cwd or runtime, env=env, timeout=120)
