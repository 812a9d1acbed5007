"""The generator run by a Python that cannot run it (the system's python3 rather than the project's
.venv/): for every verb, and for the console script's entry point, one line that says to run
`make generate` or to use .venv/bin/python, exit status 2, and no traceback."""
from __future__ import annotations

import argparse
import glob
import importlib
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from generator.cli import build_parser
from generator.core.environment import REQUIRED_PYTHON
from tests.support.helpers import ROOT, run_cli

# What each verb needs on its command line to get past the parser (to the imports).
ARGUMENTS = {
    "explain": ["LLM_TIMEOUT"],
    "diff": ["9.0.0-v2", "9.1.0-v2"],
    "audit": ["--edition", "9.1.0-v2"],
    "upstream-page": ["--edition", "9.1.0-v2"],
    "upstream-source": ["--upstream", "hicann/hixl=OUT", "--ref", "v9.1.0", "--path", "status.py"],
    "import": ["--edition", "9.1.0-v2", "--lang", "zh", "--page", "README.md"],
    "vendor": ["--to", "OUT"],
    "verify-vendored": ["generated/python/llm_status_codes.py"],
    "generate": ["--out", "OUT"],
    "check": ["--out", "OUT"],
    "publish": ["--out", "OUT", "--remote", "OUT"],
    "docs": ["--out", "OUT"],
    "serve": ["--out", "OUT"],
}
# The system python3 of Debian 11 and of Ubuntu 22.04, where pyenv has them.
OLD = sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.9.*/bin/python3"))
             + glob.glob(os.path.expanduser("~/.pyenv/versions/3.10.*/bin/python3")))


def _verbs() -> list[str]:
    subparsers = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(subparsers.choices)


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory) -> Path:
    """A Python with the standard library only: a virtual environment without pip or any package."""
    venv = tmp_path_factory.mktemp("bare") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    lacks = subprocess.run([str(python), "-c", "import ruamel"], capture_output=True, text=True, timeout=60)
    assert lacks.returncode == 1 and "No module named 'ruamel'" in lacks.stderr, lacks.stderr
    return python


def _run_from_the_checkout(python: Path | str, *args: str) -> subprocess.CompletedProcess:
    """`python ARGS` from the repository's root, as a user runs `python3 -m generator` there."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTHON", "VIRTUAL_ENV"))}
    return subprocess.run([str(python), *args], cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)


def _says_to_use_the_venv(result: subprocess.CompletedProcess) -> None:
    assert result.returncode == 2, result.stderr
    assert result.stdout == "" and "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ") and "make generate" in lines[0], lines
    assert "`.venv/bin/python -m generator ...`" in lines[0], lines


@pytest.mark.parametrize("verb", _verbs())
def test_every_verb_without_the_dependencies_says_run_make_generate(bare_python, tmp_path, verb):
    arguments = [str(tmp_path) if a == "OUT" else a for a in ARGUMENTS.get(verb, [])]
    result = _run_from_the_checkout(bare_python, "-m", "generator", verb, *arguments)
    _says_to_use_the_venv(result)
    assert re.search(r"no module '(ruamel|pydantic|jinja2|markdown_it|html5lib)'", result.stderr), result.stderr
    assert list(tmp_path.iterdir()) == []


def test_version_and_the_console_script_without_the_dependencies(bare_python):
    _says_to_use_the_venv(_run_from_the_checkout(bare_python, "-m", "generator", "--version"))
    # what the `llm-status-codes` console script runs
    script = "import sys; sys.argv[1:] = ['validate']; from generator.cli import entry_point; entry_point()"
    _says_to_use_the_venv(_run_from_the_checkout(bare_python, "-c", script))


@pytest.mark.skipif(not OLD, reason="no Python older than 3.11 on this machine (pyenv)")
@pytest.mark.parametrize("python", OLD)
def test_a_python_too_old_says_run_make_generate(python):
    result = _run_from_the_checkout(python, "-m", "generator", "validate")
    _says_to_use_the_venv(result)
    assert f"needs Python {'.'.join(map(str, REQUIRED_PYTHON))} or newer" in result.stderr, result.stderr


def test_a_missing_docs_extra_is_one_line_too(monkeypatch, tmp_path):
    """docs, serve and publish run MkDocs in a child process: its absence is found before."""
    monkeypatch.setitem(sys.modules, "mkdocs", None)  # what find_spec reports for a module not installed
    result = run_cli("docs", "--out", tmp_path)
    assert result.code == 2 and result.out == "", result
    assert result.err.count("\n") == 1 and "no module 'mkdocs'" in result.err and "make generate" in result.err


def test_a_missing_module_of_the_generator_itself_stays_a_bug(monkeypatch):
    """Only a dependency is the environment's fault: a module of the generator that is missing
    is a bug, and its traceback says where."""
    from generator import cli

    def broken(argv):
        return importlib.import_module("generator.no_such_module")

    monkeypatch.setattr(cli, "_run", broken)
    with pytest.raises(ModuleNotFoundError):
        cli.main(["validate"])


def test_the_required_python_is_pyproject_s():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["requires-python"]
    assert declared == ">=" + ".".join(map(str, REQUIRED_PYTHON))
