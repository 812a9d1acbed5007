"""The gates a consumer's project puts a vendored module through, run on every generated
Python module: ruff (E, F, W, B, UP for Python 3.9, 120 columns) and mypy --strict, the module
alone and as a typed dependency of a small program. Pinned in pyproject.toml, so the verdict is
the same on every machine."""
from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.helpers import MINI, ROOT, run_cli

GENERATED = ROOT / "generated" / "python"
RUFF = [sys.executable, "-m", "ruff", "check", "--no-cache", "--isolated", "--select", "E,F,W,B,UP",
        "--target-version", "py39", "--line-length", "120"]
MYPY = [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", "/dev/null",
        "--python-version", "3.10"]  # the oldest this mypy checks; 3.9 itself imports every module (test_python_module)


def _modules(tmp_path: Path) -> list[Path]:
    """The committed modules, and those of the mini catalog (both shapes, a hostile-free example)."""
    out = tmp_path / "mini"
    assert run_cli("generate", "--catalog", MINI, "--out", out).code == 0
    return sorted(GENERATED.glob("*.py")) + sorted((out / "generated" / "python").glob("*.py"))


def _run(args: list, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=300)


def test_ruff_passes_every_generated_module(tmp_path):
    modules = _modules(tmp_path)
    result = _run(RUFF + modules, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_module_switches_a_linter_off():
    for module in GENERATED.glob("*.py"):
        text = module.read_text(encoding="utf-8")
        assert "noqa" not in text and "flake8" not in text and "type: ignore" not in text, module


@pytest.mark.parametrize("name", sorted(p.stem for p in GENERATED.glob("*.py")))
def test_mypy_strict_passes_each_module(tmp_path, name):
    shutil.copy(GENERATED / f"{name}.py", tmp_path)
    result = _run(MYPY + [f"{name}.py"], tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


CONSUMER = textwrap.dedent('''\
    from typing import Optional

    from llm_status_codes import LLMStatusCode, code_2_status, lookup

    code = lookup("LLM_TIMEOUT")
    reveal_type(code)
    reveal_type(code.meaning("zh"))
    reveal_type(code.solution("en", edition="9.1.0-v2"))
    reveal_type(code.recoverable())
    reveal_type(code_2_status(0x5010B01A))
    text: Optional[str] = LLMStatusCode.LLM_FAILED.meaning()
    value: int = code + 1
''')


def test_a_consumer_passes_mypy_strict_and_sees_precise_types(tmp_path):
    shutil.copy(GENERATED / "llm_status_codes.py", tmp_path)
    (tmp_path / "consumer.py").write_text(CONSUMER, encoding="utf-8")
    result = _run(MYPY + ["consumer.py"], tmp_path)
    revealed = [line.split("Revealed type is ", 1)[1].strip('"') for line in result.stdout.splitlines()
                if "Revealed type is" in line]
    assert revealed == ["llm_status_codes.LLMStatusCode", "str | None", "str | None",
                        "bool | None | llm_status_codes._Unknown", "llm_status_codes.LLMStatusCode"], result.stdout
    assert "error" not in result.stdout, result.stdout


def test_mypy_would_see_a_wrong_use(tmp_path):
    """The gate can fail: a consumer that treats meaning() as always a str is refused."""
    shutil.copy(GENERATED / "llm_status_codes.py", tmp_path)
    (tmp_path / "wrong.py").write_text("from llm_status_codes import lookup\n"
                                       "length: int = len(lookup('LLM_TIMEOUT').meaning())\n", encoding="utf-8")
    result = _run(MYPY + ["wrong.py"], tmp_path)
    assert result.returncode == 1 and "wrong.py:2: error" in result.stdout, result.stdout


# -- the project's own code ---------------------------------------------------------------------

PROJECT_RUFF = [sys.executable, "-m", "ruff", "check", "--no-cache", "--select", "E,F,W", "--line-length", "120"]
PROJECT_MYPY = [
    sys.executable,
    "-m",
    "mypy",
    "--no-incremental",
    "--cache-dir",
    "/dev/null",
]  # [tool.mypy] in pyproject


def test_ruff_passes_the_generator_and_the_tests():
    result = _run(PROJECT_RUFF + ["generator", "tests", "scripts"], ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_passes_the_generator_in_default_mode():
    result = _run(PROJECT_MYPY, ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues found" in result.stdout, result.stdout


def test_the_project_gates_fail_on_a_planted_error(tmp_path):
    """The gates above are not vacuous: a long line, an unused import and a type error fail them."""
    package = tmp_path / "generator"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "bad.py").write_text("import os\n\n\ndef f() -> int:\n    return '" + "x" * 120 + "'\n")
    ruff = _run(PROJECT_RUFF + ["generator"], tmp_path)
    assert ruff.returncode == 1 and "E501" in ruff.stdout and "F401" in ruff.stdout, ruff.stdout
    mypy = _run(PROJECT_MYPY + ["generator"], tmp_path)
    assert mypy.returncode == 1 and "Incompatible return value type" in mypy.stdout, mypy.stdout
