"""Interrupted and concurrent runs: every output whole (old or new), no temporary file left."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator import outputs
from generator.bench import synthetic_catalog
from generator.outputs import TEMP_MARK
from tests.helpers import ROOT, run_cli, tree


@pytest.fixture(scope="module")
def two_catalogs(tmp_path_factory):
    """Two versions of a 400-code catalog whose every output differs."""
    base = tmp_path_factory.mktemp("catalogs")
    old = synthetic_catalog(400, base / "old")
    new = synthetic_catalog(400, base / "new")
    codes = (new / "codes.yaml").read_text(encoding="utf-8")
    (new / "codes.yaml").write_text(codes.replace("log_message: code", "log_message: status code"), encoding="utf-8")
    editions = (new / "editions.yaml").read_text(encoding="utf-8")
    (new / "editions.yaml").write_text(editions.replace("Page of edition", "The page of edition"), encoding="utf-8")
    return old, new


def rendered(catalog_dir, tmp_path, name):
    out = tmp_path / name
    assert run_cli("generate", "--catalog", catalog_dir, "--out", out).code == 0
    return {p: d for p, d in tree(out).items() if p != outputs.LOCK_NAME}


def assert_each_file_old_or_new(out: Path, old: dict, new: dict):
    current = {p: d for p, d in tree(out).items() if p != outputs.LOCK_NAME}
    assert not [p for p in current if TEMP_MARK in p], "temporary files left behind"
    assert set(current) <= set(old) | set(new)
    for path, data in current.items():
        assert data in (old.get(path), new.get(path)), f"{path} is neither the old nor the new output"


def test_a_failure_between_two_writes_leaves_whole_files(two_catalogs, tmp_path, monkeypatch):
    old_dir, new_dir = two_catalogs
    old, new = rendered(old_dir, tmp_path, "old"), rendered(new_dir, tmp_path, "new")
    out = tmp_path / "out"
    assert run_cli("generate", "--catalog", old_dir, "--out", out).code == 0
    real_write, calls = outputs.atomic_write, []

    def failing_write(target, data, **options):
        calls.append(target)
        if len(calls) == 50:
            raise OSError(28, "No space left on device")
        real_write(target, data, **options)

    monkeypatch.setattr(outputs, "atomic_write", failing_write)
    with pytest.raises(OSError):
        run_cli("generate", "--catalog", new_dir, "--out", out)
    assert_each_file_old_or_new(out, old, new)
    written = [p for p, d in tree(out).items() if p in new and d == new[p] and d != old.get(p)]
    assert len(written) == 49


def test_a_temp_file_is_removed_when_its_write_fails(tmp_path, monkeypatch):
    target = tmp_path / "dir" / "file.txt"
    target.parent.mkdir()
    target.write_text("old")
    monkeypatch.setattr(os, "replace", lambda *a: (_ for _ in ()).throw(OSError("boom")))
    with pytest.raises(OSError):
        outputs.atomic_write(target, b"new")
    assert sorted(p.name for p in target.parent.iterdir()) == ["file.txt"] and target.read_text() == "old"


def _start_generate(catalog_dir, out):
    return subprocess.Popen([sys.executable, "-m", "generator", "generate", "--catalog", str(catalog_dir), "--out", str(out)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _wait_for_writes(out: Path, old: dict, new: dict, process, minimum=5):
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        changed = sum(1 for p in new if (out / p).is_file() and (out / p).read_bytes() == new[p] != old.get(p))
        if changed >= minimum:
            return
        time.sleep(0.005)


def _generate_new_over_old(two_catalogs, tmp_path):
    """The old outputs in place, and a generate of the new catalog well under way over them."""
    old_dir, new_dir = two_catalogs
    old, new = rendered(old_dir, tmp_path, "old"), rendered(new_dir, tmp_path, "new")
    out = tmp_path / "out"
    assert run_cli("generate", "--catalog", old_dir, "--out", out).code == 0
    process = _start_generate(new_dir, out)
    _wait_for_writes(out, old, new, process)
    return process, out, old, new


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_generate_killed_part_way_leaves_whole_files(two_catalogs, tmp_path, signum):
    process, out, old, new = _generate_new_over_old(two_catalogs, tmp_path)
    process.send_signal(signum)
    _, err = process.communicate(timeout=60)
    assert b"Traceback" not in err
    assert_each_file_old_or_new(out, old, new)


def test_after_sigkill_the_next_generate_cleans_up(two_catalogs, tmp_path):
    process, out, old, new = _generate_new_over_old(two_catalogs, tmp_path)
    process.kill()
    process.wait(timeout=60)
    stray = out / "generated" / "c" / f".llm_status_codes.h{TEMP_MARK}12345-abcdef01"
    stray.write_bytes(b"half a header")  # what SIGKILL can leave between write and rename
    current = {p: d for p, d in tree(out).items() if p != outputs.LOCK_NAME and TEMP_MARK not in p}
    assert all(d in (old.get(p), new.get(p)) for p, d in current.items())
    new_dir = two_catalogs[1]
    result = run_cli("check", "--catalog", new_dir, "--out", out)
    assert result.code == 1 and f"orphaned: {stray.relative_to(out).as_posix()}" in result.out
    assert run_cli("generate", "--catalog", new_dir, "--out", out).code == 0
    assert {p: d for p, d in tree(out).items() if p != outputs.LOCK_NAME} == new


def test_two_generates_at_once_end_in_a_consistent_tree(two_catalogs, tmp_path):
    _, new_dir = two_catalogs
    new = rendered(new_dir, tmp_path, "new")
    out = tmp_path / "out"
    first, second = _start_generate(new_dir, out), _start_generate(new_dir, out)
    for process in (first, second):
        _, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
    assert {p: d for p, d in tree(out).items() if p != outputs.LOCK_NAME} == new
