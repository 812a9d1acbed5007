"""Drift: the committed outputs are exactly what the catalog generates, `check` says where they
differ, and `generate` owns exactly what it wrote (the manifests), nothing else."""
import json

import pytest

from generator.outputs import manifest_path
from tests.helpers import ROOT, run_cli, tree

OWNED = ("generated", "site")


def committed_outputs() -> dict[str, bytes]:
    files = {}
    for owner in ("llm_datadist", "hixl", "adxl", "site"):
        manifest = json.loads((ROOT / manifest_path(owner)).read_text(encoding="utf-8"))
        files.update({path: (ROOT / path).read_bytes() for path in manifest["files"]})
        files[manifest_path(owner)] = (ROOT / manifest_path(owner)).read_bytes()
    return files


@pytest.fixture
def copy_of_outputs(tmp_path):
    for path, data in committed_outputs().items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(data)
    return tmp_path


def test_regenerating_into_an_empty_tree_gives_the_committed_tree(tmp_path):
    result = run_cli("generate", "--out", tmp_path, "--full")
    assert result.code == 0, result.err
    assert tree(tmp_path, outputs_only=True) == committed_outputs()


def test_check_passes_on_the_committed_outputs():
    result = run_cli("check", "--full")
    assert result.code == 0, result.out + result.err
    assert "match the catalog" in result.out


def test_every_committed_file_under_the_output_folders_is_an_output():
    """Nothing stale is left in generated/ and site/ but what the manifests list (and the build)."""
    listed = set(committed_outputs())
    for folder in ("generated", "site/docs", "site/overrides", "site/hooks"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                assert path.relative_to(ROOT).as_posix() in listed, path


def test_a_hand_edited_output_fails_check_and_stays_as_it_was(copy_of_outputs):
    target = copy_of_outputs / "generated" / "c" / "llm_status_codes.h"
    target.write_bytes(target.read_bytes().replace(b"#define LLM_TIMEOUT 0x5010B01AU", b"#define LLM_TIMEOUT 0x5010B01BU"))
    before = tree(copy_of_outputs)
    result = run_cli("check", "--out", copy_of_outputs)
    assert result.code == 1
    assert "stale: generated/c/llm_status_codes.h" in result.out
    assert "-#define LLM_TIMEOUT 0x5010B01BU" in result.out and "+#define LLM_TIMEOUT 0x5010B01AU" in result.out
    assert "run `make generate`" in result.err
    assert tree(copy_of_outputs) == before


def test_check_lists_missing_and_orphaned_outputs(copy_of_outputs):
    (copy_of_outputs / "generated" / "json" / "llm_status_codes.json").unlink()
    (copy_of_outputs / "site" / "mkdocs.yml").unlink()
    manifest = copy_of_outputs / manifest_path("hixl")
    data = json.loads(manifest.read_text())
    old = copy_of_outputs / "generated" / "python" / "old_module.py"
    old.write_text("x = 1\n")
    import hashlib

    data["files"]["generated/python/old_module.py"] = hashlib.sha256(b"x = 1\n").hexdigest()
    manifest.write_text(json.dumps(data))
    result = run_cli("check", "--out", copy_of_outputs)
    assert result.code == 1
    assert "missing: generated/json/llm_status_codes.json" in result.out
    assert "missing: site/mkdocs.yml" in result.out
    assert "orphaned: generated/python/old_module.py" in result.out


def test_generate_repairs_a_hand_edit_then_changes_nothing(copy_of_outputs):
    target = copy_of_outputs / "generated" / "python" / "llm_status_codes.py"
    original = target.read_bytes()
    target.write_bytes(original + b"# hand edit\n")
    first = run_cli("generate", "--out", copy_of_outputs)
    assert first.code == 0 and "wrote generated/python/llm_status_codes.py" in first.out
    assert target.read_bytes() == original
    second = run_cli("generate", "--out", copy_of_outputs)
    assert ", 0 written, 0 removed" in second.out


def test_generate_writes_only_what_changed(copy_of_outputs):
    untouched = copy_of_outputs / "generated" / "json" / "llm_status_codes.json"
    stamp = untouched.stat().st_mtime_ns
    (copy_of_outputs / "generated" / "c" / "llm_status_codes.h").write_text("broken\n")
    run_cli("generate", "--out", copy_of_outputs)
    assert untouched.stat().st_mtime_ns == stamp


# -- what the generator owns ----------------------------------------------------------------------------


def test_files_the_generator_did_not_write_are_never_touched(copy_of_outputs):
    mine = {"generated/README.md": b"my notes\n", "site/docs/img/logo.png": b"\x89PNG...", "generated/catalog/x.yaml": b"a: 1\n",
            "site/docs/codes/MY_PAGE.zh.md": b"# mine\n"}
    for path, data in mine.items():
        (copy_of_outputs / path).parent.mkdir(parents=True, exist_ok=True)
        (copy_of_outputs / path).write_bytes(data)
    assert run_cli("check", "--out", copy_of_outputs).code == 0  # not outputs: not orphans either
    result = run_cli("generate", "--out", copy_of_outputs)
    assert result.code == 0 and "removed" not in result.out.replace(", 0 removed", "")
    for path, data in mine.items():
        assert (copy_of_outputs / path).read_bytes() == data


def test_an_orphan_edited_by_hand_is_kept_and_reported(copy_of_outputs):
    manifest = copy_of_outputs / manifest_path("adxl")
    data = json.loads(manifest.read_text())
    data["files"]["generated/python/gone.py"] = "0" * 64  # written once, and edited since
    manifest.write_text(json.dumps(data))
    (copy_of_outputs / "generated" / "python" / "gone.py").write_text("edited\n")
    assert "orphaned, edited by hand: generated/python/gone.py" in run_cli("check", "--out", copy_of_outputs).out
    result = run_cli("generate", "--out", copy_of_outputs)
    assert "kept generated/python/gone.py" in result.out
    assert (copy_of_outputs / "generated" / "python" / "gone.py").read_text() == "edited\n"


@pytest.mark.parametrize("link", ["generated", "generated/python"])
def test_a_symbolic_link_in_the_tree_is_never_followed(tmp_path, link):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "precious.txt").write_text("keep me\n")
    out = tmp_path / "out"
    (out / link).parent.mkdir(parents=True, exist_ok=True)
    (out / link).symlink_to(outside)
    result = run_cli("generate", "--out", out)
    assert result.code == 1 and "symbolic link" in result.err and "Traceback" not in result.err
    assert sorted(p.name for p in outside.iterdir()) == ["precious.txt"]


def test_generating_one_family_never_touches_anothers_files(tmp_path):
    """Two families into one tree and into separate trees, in both orders."""
    families = ("hixl", "adxl")
    alone = {}
    for family in families:
        out = tmp_path / f"alone-{family}"
        assert run_cli("generate", "--family", family, "--out", out).code == 0
        alone[family] = tree(out, outputs_only=True)
    for order in (families, tuple(reversed(families))):
        out = tmp_path / "-".join(order)
        for index, family in enumerate(order):
            before = tree(out, outputs_only=True) if out.exists() else {}
            assert run_cli("generate", "--family", family, "--out", out).code == 0
            after = tree(out, outputs_only=True)
            other = order[0] if index else None
            if other:
                own_other = {p for p in alone[other] if not _shared(p)}
                assert {p: after[p] for p in own_other} == {p: before[p] for p in own_other}, "another family's files changed"
        for family in families:
            for path, data in alone[family].items():
                if not _shared(path):
                    assert after[path] == data
    assert not set(p for p in alone["hixl"] if not _shared(p)) & set(p for p in alone["adxl"] if not _shared(p))


def _shared(path: str) -> bool:
    return path.startswith(("site/mkdocs.yml", "site/overrides", "site/hooks", "site/docs/assets", "site/docs/index."))\
        or path == manifest_path("site")


def test_generate_family_then_all_removes_nothing_of_the_others(tmp_path):
    out = tmp_path / "out"
    assert run_cli("generate", "--out", out).code == 0
    everything = tree(out, outputs_only=True)
    result = run_cli("generate", "--family", "hixl", "--out", out)
    assert result.code == 0 and ", 0 written, 0 removed" in result.out
    assert tree(out, outputs_only=True) == everything
