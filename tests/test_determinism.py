"""The same catalog gives the same bytes: any hash seed, locale, time zone or working directory,
and any order of what carries no meaning in the catalog."""
import os
import shutil
import subprocess
import sys

import pytest
from ruamel.yaml.comments import CommentedMap

from generator import outputs
from generator.importer import round_trip
from tests.helpers import ROOT, run_cli, tree


def available_locales():
    try:
        listed = subprocess.run(["locale", "-a"], capture_output=True, text=True).stdout.split()
    except OSError:
        listed = []
    wanted = {"C", "C.UTF-8", "C.utf8", "zh_CN.UTF-8", "zh_CN.utf8"}
    return sorted(set(listed) & wanted) or ["C"]


def generate_in_subprocess(out, cwd, **env):
    environment = dict(os.environ, **env)
    result = subprocess.run([sys.executable, "-m", "generator", "generate", "--out", str(out)],
                            cwd=cwd, env=environment, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return {p: d for p, d in tree(out).items() if p != outputs.LOCK_NAME}


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    return generate_in_subprocess(tmp_path_factory.mktemp("ref") / "out", ROOT, PYTHONHASHSEED="0")


@pytest.mark.parametrize("env", [
    {"PYTHONHASHSEED": "1"}, {"PYTHONHASHSEED": "4242"}, {"PYTHONHASHSEED": "random"},
    {"TZ": "Asia/Shanghai"}, {"TZ": "America/Los_Angeles"},
] + [{"LC_ALL": name, "LANG": name} for name in available_locales()], ids=str)
def test_environment_changes_nothing(reference, tmp_path, env):
    assert generate_in_subprocess(tmp_path / "out", ROOT, **env) == reference


def test_working_directory_changes_nothing(reference, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert generate_in_subprocess(tmp_path / "out", elsewhere) == reference


def test_reordering_what_carries_no_meaning_changes_nothing(reference, tmp_path):
    catalog = tmp_path / "catalog"
    shutil.copytree(ROOT / "catalog", catalog)
    yaml = round_trip()
    codes = yaml.load((catalog / "codes.yaml").read_text(encoding="utf-8"))
    for code in codes["codes"]:
        for field in ("meaning", "solution"):
            for entry in code.get(field) or ():
                entry["editions"].reverse()  # the editions an entry names: a set
            if field in code:
                code[field].reverse()  # text entries: no order
        _reverse_keys(code)  # the fields of a code: no order
    editions = yaml.load((catalog / "editions.yaml").read_text(encoding="utf-8"))
    for edition in editions["editions"]:
        if edition["order"] == "not known":
            _reverse_keys(edition["rows"])  # rows of a page whose order is not known
    for name, data in (("codes.yaml", codes), ("editions.yaml", editions)):
        with open(catalog / name, "w", encoding="utf-8") as handle:
            yaml.dump(data, handle)
    assert (catalog / "codes.yaml").read_text(encoding="utf-8") != (ROOT / "catalog" / "codes.yaml").read_text(encoding="utf-8")
    out = tmp_path / "out"
    assert run_cli("generate", "--catalog", catalog, "--out", out).code == 0
    assert {p: d for p, d in tree(out).items() if p != outputs.LOCK_NAME} == reference


def _reverse_keys(mapping: CommentedMap) -> None:
    items = list(mapping.items())
    for key, _ in items:
        del mapping[key]
    for key, value in reversed(items):
        mapping[key] = value
