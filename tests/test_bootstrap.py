"""The first hour: `make` refuses a Python older than 3.11 before creating anything, and
rebuilds a .venv/ whose interpreter no longer fits instead of reusing it."""
import glob
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.helpers import ROOT

BOOTSTRAP = ROOT / "scripts" / "bootstrap"
OLD = sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.[0-9].*/bin/python3"))
             + glob.glob(os.path.expanduser("~/.pyenv/versions/3.10.*/bin/python3")))


def project(tmp_path: Path) -> Path:
    """A project with no dependencies, so that the install the bootstrap runs needs no network."""
    (tmp_path / "pyproject.toml").write_text(
        '[build-system]\nrequires = []\nbuild-backend = "backend"\nbackend-path = ["."]\n'
        '[project]\nname = "probe"\nversion = "0"\n[project.optional-dependencies]\ndocs = []\ntest = []\n')
    # the smallest PEP 517/660 backend: the bootstrap's `pip install -e` works offline
    (tmp_path / "backend.py").write_text(
        "import os, zipfile\n"
        "def _wheel(d):\n"
        "    name = 'probe-0-py3-none-any.whl'\n"
        "    with zipfile.ZipFile(os.path.join(d, name), 'w') as z:\n"
        "        z.writestr('probe-0.dist-info/METADATA', 'Metadata-Version: 2.1\\nName: probe\\nVersion: 0\\n')\n"
        "        z.writestr('probe-0.dist-info/WHEEL', 'Wheel-Version: 1.0\\nGenerator: probe\\nRoot-Is-Purelib: "
        "true\\nTag: py3-none-any\\n')\n"
        "        z.writestr('probe-0.dist-info/RECORD', '')\n"
        "    return name\n"
        "def build_wheel(d, c=None, m=None): return _wheel(d)\n"
        "def build_editable(d, c=None, m=None): return _wheel(d)\n"
    )
    return tmp_path


def bootstrap(cwd: Path, *python):
    return subprocess.run(
        [str(BOOTSTRAP), ".venv", ".venv/.installed", *python],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PIP_NO_INDEX": "1", "PIP_NO_BUILD_ISOLATION": "0"},
    )


@pytest.mark.skipif(not OLD, reason="no Python older than 3.11 on this machine (pyenv)")
def test_an_old_python_is_refused_before_anything_is_created(tmp_path):
    result = bootstrap(project(tmp_path), OLD[-1])
    assert result.returncode == 1
    assert "needs Python 3.11 or newer" in result.stderr and "PYTHON_BOOT" in result.stderr
    assert not (tmp_path / ".venv").exists()
    assert result.stderr.count("\n") <= 2  # a sentence, not a page of pip errors


@pytest.mark.slow
@pytest.mark.skipif(not OLD, reason="no Python older than 3.11 on this machine (pyenv)")
def test_a_venv_of_an_old_python_is_rebuilt(tmp_path):
    cwd = project(tmp_path)
    subprocess.run([OLD[-1], "-m", "venv", "--without-pip", str(cwd / ".venv")], check=True)
    result = bootstrap(cwd, sys.executable)
    assert result.returncode == 0, result.stderr
    assert "rebuilding" in result.stdout
    version = subprocess.run(
        [str(cwd / ".venv" / "bin" / "python"), "-c", "import sys; print(sys.version_info >= (3, 11))"],
        capture_output=True,
        text=True,
    )
    assert version.stdout.strip() == "True" and (cwd / ".venv" / ".installed").exists()


def test_a_directory_that_is_no_venv_is_left_alone(tmp_path):
    cwd = project(tmp_path)
    (cwd / ".venv").mkdir()
    (cwd / ".venv" / "mine.txt").write_text("keep")
    result = bootstrap(cwd, sys.executable)
    assert result.returncode == 1 and "not a virtual environment" in result.stderr
    assert (cwd / ".venv" / "mine.txt").read_text() == "keep"


def test_make_passes_its_python_to_the_bootstrap():
    """Through the environment: the bootstrap gets the path as it is (and refuses one that is missing
    before it creates or changes anything)."""
    run = subprocess.run(
        ["make", "-B", "venv", "PYTHON_BOOT=/opt/no such/python3.12"], cwd=ROOT, capture_output=True, text=True
    )
    assert run.returncode != 0 and "/opt/no such/python3.12 is none" in run.stderr, run.stderr
