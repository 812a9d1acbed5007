"""`pip install .` into a fresh virtual environment: the console script validates and
generates from a catalog (the templates ship inside the package), and a Sphinx project
uses the directive from the installed package."""
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.support.helpers import ROOT, tree

pytestmark = pytest.mark.slow  # creates a virtual environment and installs into it


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    env_dir = tmp_path_factory.mktemp("venv") / "env"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    build = tmp_path_factory.mktemp("build")
    # a copy of what a source distribution holds, so that building leaves nothing
    # (egg-info, build/) in the checkout
    for rel in ("pyproject.toml", "README.md", "LICENSE"):
        (build / "src").mkdir(exist_ok=True)
        shutil.copy2(ROOT / rel, build / "src" / rel)
    for rel in ("generator", "templates"):
        shutil.copytree(ROOT / rel, build / "src" / rel, ignore=shutil.ignore_patterns("__pycache__"))
    # The project itself is installed (its console script, its package data); its dependencies,
    # which scripts/bootstrap installs from the same pyproject.toml into .venv for every run, are
    # read from there rather than downloaded again (about two minutes on this machine).
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          capture_output=True, text=True, check=True).stdout.strip()
    deps = subprocess.run([sys.executable, "-c", "import sphinx, os; print(os.path.dirname(os.path.dirname("
                           "sphinx.__file__)))"], capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "project-dependencies.pth").write_text(deps + "\n", encoding="utf-8")
    result = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                             "--no-deps", str(build / "src")], capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    return env_dir


def run(env_dir, *argv, cwd=None):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{env_dir / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(
        [str(a) for a in argv], capture_output=True, text=True, cwd=cwd or env_dir, env=env, timeout=600
    )


def test_the_installed_console_script_validates_and_generates(installed, tmp_path):
    script = installed / "bin" / "llm-status-codes"
    result = run(installed, script, "validate", "--catalog", ROOT / "catalog")
    assert result.returncode == 0 and "valid" in result.stdout, result.stderr
    where = run(installed, installed / "bin" / "python", "-c", "import generator, sys; print(generator.__file__)")
    assert str(installed) in where.stdout, "the test must use the installed package, not the checkout"
    out = tmp_path / "out"
    result = run(installed, script, "generate", "--catalog", ROOT / "catalog", "--out", out)
    assert result.returncode == 0, result.stderr
    produced = tree(out, outputs_only=True)
    committed = {p: (ROOT / p).read_bytes() for p in produced}
    assert produced == committed, "an installed generator must give the checkout's bytes"
    version = run(installed, script, "--version")
    assert version.returncode == 0 and version.stdout.startswith("llm-status-codes ")


def test_without_a_catalog_the_installed_script_says_what_to_pass(installed):
    result = run(installed, installed / "bin" / "llm-status-codes", "validate")
    assert result.returncode == 2 and "--catalog" in result.stderr and "Traceback" not in result.stderr


def test_sphinx_uses_the_directive_from_the_installed_package(installed, tmp_path):
    src = tmp_path / "docs"
    src.mkdir()
    (src / "conf.py").write_text("extensions = ['generator.sphinx']\n"
                                 f"llm_status_codes_catalog = {str(ROOT / 'catalog')!r}\n", encoding="utf-8")
    (src / "index.rst").write_text("Codes\n=====\n\n.. llm-status-codes::\n   :edition: 9.0.0-v2\n   :lang: en\n",
                                   encoding="utf-8")
    result = run(
        installed, installed / "bin" / "python", "-m", "sphinx", "-b", "html", "-q", "-W", src, tmp_path / "html"
    )
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    assert 'id="llm_timeout"' in html and "LLM_WAIT_PROC_TIMEOUT" not in html.split("<tbody>")[0]
