"""Drift: the committed outputs are exactly what the catalog generates, and `check` says so."""
import shutil

import pytest

from generator.targets import OWNED_DIRS
from tests.helpers import ROOT, run_cli, tree


def committed_outputs() -> dict[str, bytes]:
    files = {}
    for owned in OWNED_DIRS:
        if (ROOT / owned).is_dir():
            files.update({f"{owned}/{path}": data for path, data in tree(ROOT / owned).items()})
    return files


@pytest.fixture
def copy_of_outputs(tmp_path):
    for owned in OWNED_DIRS:
        if (ROOT / owned).is_dir():
            shutil.copytree(ROOT / owned, tmp_path / owned)
    return tmp_path


def test_regenerating_into_an_empty_tree_gives_the_committed_tree(tmp_path):
    result = run_cli("generate", "--out", tmp_path)
    assert result.code == 0, result.err
    generated = {p: d for p, d in tree(tmp_path).items() if p != ".generate.lock"}
    committed = {p: (ROOT / p).read_bytes() if (ROOT / p).is_file() else None for p in generated}
    assert generated == committed
    in_owned_dirs = {p for p in generated if p.startswith(tuple(d + "/" for d in OWNED_DIRS))}
    assert in_owned_dirs == set(committed_outputs())


def test_check_passes_on_the_committed_outputs():
    result = run_cli("check")
    assert result.code == 0, result.out + result.err
    assert "match the catalog" in result.out


def test_a_hand_edited_output_fails_check_and_stays_as_it_was(copy_of_outputs):
    target = copy_of_outputs / "generated" / "c" / "llm_status_codes.h"
    edited = target.read_bytes().replace(b"#define LLM_TIMEOUT 0x5010B01AU", b"#define LLM_TIMEOUT 0x5010B01BU")
    target.write_bytes(edited)
    before = tree(copy_of_outputs)
    result = run_cli("check", "--out", copy_of_outputs)
    assert result.code == 1
    assert "stale: generated/c/llm_status_codes.h" in result.out
    assert "-#define LLM_TIMEOUT 0x5010B01BU" in result.out and "+#define LLM_TIMEOUT 0x5010B01AU" in result.out
    assert "run `make generate`" in result.err
    assert tree(copy_of_outputs) == before


def test_check_lists_missing_and_orphaned_outputs(copy_of_outputs):
    (copy_of_outputs / "generated" / "json" / "llm_status_codes.json").unlink()
    (copy_of_outputs / "site" / "mkdocs.yml").unlink(missing_ok=True)
    (copy_of_outputs / "generated" / "python" / "old_module.py").write_text("x = 1\n")
    result = run_cli("check", "--out", copy_of_outputs)
    assert result.code == 1
    assert "missing: generated/json/llm_status_codes.json" in result.out
    assert "orphaned: generated/python/old_module.py" in result.out
    assert "missing: site/mkdocs.yml" in result.out


def test_generate_repairs_a_hand_edit_then_changes_nothing(copy_of_outputs):
    target = copy_of_outputs / "generated" / "python" / "llm_status_codes.py"
    original = target.read_bytes()
    target.write_bytes(original + b"# hand edit\n")
    (copy_of_outputs / "generated" / "c" / "stale.h").write_text("/* orphan */\n")
    first = run_cli("generate", "--out", copy_of_outputs)
    assert first.code == 0
    assert "wrote generated/python/llm_status_codes.py" in first.out
    assert "removed generated/c/stale.h" in first.out
    assert target.read_bytes() == original
    second = run_cli("generate", "--out", copy_of_outputs)
    assert not [line for line in second.out.splitlines() if line.startswith(("wrote ", "removed "))]
    assert ", 0 written, 0 removed" in second.out


def test_generate_writes_only_what_changed(copy_of_outputs):
    untouched = copy_of_outputs / "generated" / "json" / "llm_status_codes.json"
    stamp = untouched.stat().st_mtime_ns
    (copy_of_outputs / "generated" / "c" / "llm_status_codes.h").write_text("broken\n")
    run_cli("generate", "--out", copy_of_outputs)
    assert untouched.stat().st_mtime_ns == stamp
