"""The output tree under stress: interrupted and concurrent runs, a hand edit, read-only trees,
full disks, things in the way. Each ends in whole files and a one-line message naming the
path and what to do; never a traceback."""
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.writing import tree as outputs
from generator.bench_catalog import change_one_text, synthetic_catalog
from generator.writing.files import TEMP_MARK
from generator.writing.lock import LOCK
from generator.writing.records import JOURNAL
from tests.support import unprivileged
from tests.support.helpers import MINI, ROOT, run_cli, tree


@pytest.fixture(scope="module")
def two_catalogs(tmp_path_factory):
    """Two versions of a 200-code catalog whose every output differs (about 900 files: a run
    stopped after its fifth write has hundreds still to write)."""
    base = tmp_path_factory.mktemp("catalogs")
    old = synthetic_catalog(200, base / "old")
    new = synthetic_catalog(200, base / "new")
    codes = new / "bench" / "codes.yaml"
    codes.write_text(
        codes.read_text(encoding="utf-8").replace("log_message: code", "log_message: status code"), encoding="utf-8"
    )
    editions = new / "bench" / "editions.yaml"
    editions.write_text(
        editions.read_text(encoding="utf-8").replace("Notes of edition", "The notes of edition"), encoding="utf-8"
    )
    site = new / "site.yaml"
    site.write_text(
        site.read_text(encoding="utf-8").replace("Benchmark codes", "Benchmark status codes"), encoding="utf-8"
    )
    return old, new


@pytest.fixture(scope="module")
def two_trees(two_catalogs, tmp_path_factory):
    """(old outputs, new outputs, a directory generated from the old catalog): each generated once
    for the module; a test copies the directory and runs the new catalog over the copy."""
    old_dir, new_dir = two_catalogs
    base = tmp_path_factory.mktemp("trees")
    old, new = rendered(old_dir, base, "old"), rendered(new_dir, base, "new")
    return old, new, base / "old"


def _old_tree(two_trees, tmp_path) -> Path:
    out = tmp_path / "out"
    shutil.copytree(two_trees[2], out, symlinks=True)
    return out


def rendered(catalog_dir, tmp_path, name):
    out = tmp_path / name
    assert run_cli("generate", "--catalog", catalog_dir, "--out", out).code == 0
    return tree(out, outputs_only=True)


def assert_each_file_old_or_new(out: Path, old: dict, new: dict, temps_allowed=False):
    current = tree(out, outputs_only=True)
    temps = [p for p in current if TEMP_MARK in p]
    assert temps_allowed or not temps, "temporary files left behind"
    current = {p: d for p, d in current.items() if p not in temps}
    assert set(current) <= set(old) | set(new)
    for path, data in current.items():
        assert data in (old.get(path), new.get(path)), f"{path} is neither the old nor the new output"


@pytest.mark.slow  # a 200-code catalog, generated once per module and once per test
def test_a_failure_between_two_writes_leaves_whole_files_and_the_next_run_says_so(two_catalogs, two_trees, tmp_path,
                                                                                    monkeypatch):
    new_dir = two_catalogs[1]
    old, new = two_trees[:2]
    out = _old_tree(two_trees, tmp_path)
    real_write, calls = outputs.atomic_write, []

    def failing_write(target, data, **options):
        calls.append(target)
        if len(calls) == 50:
            raise OSError(28, "No space left on device")
        real_write(target, data, **options)

    monkeypatch.setattr(outputs, "atomic_write", failing_write)
    result = run_cli("generate", "--catalog", new_dir, "--out", out)
    assert result.code == 1 and "No space left on device" in result.err and "free some space" in result.err
    assert "Traceback" not in result.err
    monkeypatch.undo()
    assert_each_file_old_or_new(out, old, new)
    assert (out / JOURNAL).exists()
    check = run_cli("check", "--catalog", new_dir, "--out", out)
    assert check.code == 1 and "did not finish" in check.err and "stale:" in check.out
    repair = run_cli("generate", "--catalog", new_dir, "--out", out)
    assert repair.code == 0 and "did not finish" in repair.err
    assert tree(out, outputs_only=True) == new and not (out / JOURNAL).exists()


@pytest.mark.slow
def test_a_failure_at_the_first_write_leaves_the_tree_as_it_was_and_nothing_to_say(two_catalogs, two_trees, tmp_path,
                                                                                   monkeypatch):
    """Nothing written (a read-only folder, a full disk at once): no journal, so the next run does
    not say a previous one left a mix of old and new outputs."""
    out = _old_tree(two_trees, tmp_path)
    real_write = outputs.atomic_write

    def failing_write(target, data, **options):
        if Path(target).name == JOURNAL:
            return real_write(target, data, **options)
        raise OSError(13, "Permission denied")

    monkeypatch.setattr(outputs, "atomic_write", failing_write)
    result = run_cli("generate", "--catalog", two_catalogs[1], "--out", out)
    assert result.code == 1 and "Permission denied" in result.err
    monkeypatch.undo()
    assert tree(out, outputs_only=True) == two_trees[0] and not (out / JOURNAL).exists()
    check = run_cli("check", "--catalog", two_catalogs[1], "--out", out)
    assert check.code == 1 and "did not finish" not in check.err


def test_a_run_stopped_before_it_removed_an_orphan_leaves_it_to_the_next_run(tmp_path, monkeypatch):
    """The manifests are written after the orphans are removed: a run stopped in between (here a
    removal that fails) leaves the old manifest, which still lists the orphan, and the next run
    removes it; written first, the new manifest forgot it, and it stayed for good."""
    import hashlib

    out = tmp_path / "out"
    assert run_cli("generate", "--catalog", MINI, "--out", out).code == 0
    orphan = out / "generated" / "python" / "old_codes.py"
    [module] = (out / "generated" / "python").glob("*.py")
    orphan.write_bytes(module.read_bytes())  # as the generator wrote it: with its banner
    [manifest_path] = [p for p in (out / "generated" / "manifest").iterdir() if "old_codes" not in p.name
                       and "generated/python/" in p.read_text(encoding="utf-8")]
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    manifest["files"]["generated/python/old_codes.py"] = hashlib.sha256(orphan.read_bytes()).hexdigest()
    manifest_path.write_text(json.dumps(manifest), encoding="utf-8")
    unlink = Path.unlink

    def refused(self, *args, **kwargs):
        if self.name == "old_codes.py":
            raise PermissionError(13, "Permission denied", str(self))
        return unlink(self, *args, **kwargs)

    monkeypatch.setattr(Path, "unlink", refused)
    stopped = run_cli("generate", "--catalog", MINI, "--out", out)
    assert stopped.code == 1 and "old_codes.py" in stopped.err, stopped.err
    monkeypatch.undo()
    assert orphan.exists()
    result = run_cli("generate", "--catalog", MINI, "--out", out)
    assert result.code == 0 and "removed generated/python/old_codes.py" in result.out, result.out + result.err
    assert not orphan.exists()
    assert run_cli("check", "--catalog", MINI, "--out", out).code == 0


def test_what_a_stopped_run_wrote_for_a_catalog_changed_back_is_removed_by_the_next(tmp_path, monkeypatch):
    """A run stopped before its manifests (here at an orphan's removal), then the catalog changed
    back: the pages that run wrote for a renamed code are listed by no manifest, only by its journal,
    with their hashes; the next run removes them, and the tree is the catalog's (they stayed, and
    check passed)."""
    fresh, out = tmp_path / "fresh", tmp_path / "out"
    assert run_cli("generate", "--catalog", MINI, "--out", fresh).code == 0
    assert run_cli("generate", "--catalog", MINI, "--out", out).code == 0
    renamed = tmp_path / "catalog.yaml"
    text = MINI.read_text(encoding="utf-8")
    renamed.write_text(text.replace("  - python: DEMO_ODD", "  - python: DEMO_ODDER").replace(
        "        DEMO_ODD:", "        DEMO_ODDER:").replace("[DEMO_ODD]", "[DEMO_ODDER]"), encoding="utf-8")
    unlink = Path.unlink

    def refused(self, *args, **kwargs):
        if "DEMO_ODD." in self.name:
            raise PermissionError(13, "Permission denied", str(self))
        return unlink(self, *args, **kwargs)

    monkeypatch.setattr(Path, "unlink", refused)
    stopped = run_cli("generate", "--catalog", renamed, "--out", out)
    monkeypatch.undo()
    assert stopped.code == 1 and any("DEMO_ODDER" in path for path in tree(out)), stopped.out + stopped.err
    result = run_cli("generate", "--catalog", MINI, "--out", out)
    assert result.code == 0 and "did not finish" in result.err, result.out + result.err
    assert len(result.err.strip().splitlines()) == 1, result.err  # that sentence only: no manifest taken for more
    assert "removed site/docs/codes/DEMO_ODDER.en.md" in result.out, result.out
    assert tree(out, outputs_only=True) == tree(fresh, outputs_only=True)
    assert run_cli("check", "--catalog", MINI, "--out", out).code == 0


def test_a_temp_file_is_removed_when_its_write_fails(tmp_path, monkeypatch):
    target = tmp_path / "dir" / "file.txt"
    target.parent.mkdir()
    target.write_text("old")
    monkeypatch.setattr(os, "replace", lambda *a: (_ for _ in ()).throw(OSError("boom")))
    with pytest.raises(OSError):
        outputs.atomic_write(target, b"new")
    assert sorted(p.name for p in target.parent.iterdir()) == ["file.txt"] and target.read_text() == "old"


def _start_generate(catalog_dir, out, *extra):
    return subprocess.Popen(
        [sys.executable, "-m", "generator", "generate", "--catalog", str(catalog_dir), "--out", str(out), *extra],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _wait_for_writes(out: Path, old: dict, new: dict, process, minimum=5):
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        changed = sum(1 for p in new if (out / p).is_file() and (out / p).read_bytes() == new[p] != old.get(p))
        if changed >= minimum:
            return
        time.sleep(0.005)


def _generate_new_over_old(two_catalogs, two_trees, tmp_path):
    old, new = two_trees[:2]
    out = _old_tree(two_trees, tmp_path)
    process = _start_generate(two_catalogs[1], out)
    _wait_for_writes(out, old, new, process)
    return process, out, old, new


@pytest.mark.slow  # a 200-code catalog, generated once per module and once per test
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_generate_killed_part_way_leaves_whole_files(two_catalogs, two_trees, tmp_path, signum):
    process, out, old, new = _generate_new_over_old(two_catalogs, two_trees, tmp_path)
    process.send_signal(signum)
    _, err = process.communicate(timeout=60)
    assert b"Traceback" not in err
    assert_each_file_old_or_new(out, old, new)


@pytest.mark.slow  # a 200-code catalog, generated once per module and once per test
def test_after_sigkill_the_next_run_names_the_unfinished_run_and_repairs(two_catalogs, two_trees, tmp_path):
    process, out, old, new = _generate_new_over_old(two_catalogs, two_trees, tmp_path)
    process.kill()
    process.wait(timeout=60)
    # SIGKILL cannot be caught: a half-written temporary file may remain beside the
    # outputs, but never in place of one
    assert_each_file_old_or_new(out, old, new, temps_allowed=True)
    new_dir = two_catalogs[1]
    if (out / JOURNAL).exists():  # killed after its first write: the journal says so
        check = run_cli("check", "--catalog", new_dir, "--out", out)
        assert check.code == 1 and "did not finish" in check.err
    result = run_cli("generate", "--catalog", new_dir, "--out", out)
    assert result.code == 0
    assert tree(out, outputs_only=True) == new  # the killed run's temporary files are gone too
    assert not (out / JOURNAL).exists()


def test_a_journal_left_after_the_last_write_is_cleared_with_the_temp_files_of_that_run(tmp_path):
    out = tmp_path / "out"
    assert run_cli("generate", "--catalog", MINI, "--out", out).code == 0
    before = tree(out, outputs_only=True)
    target = sorted(before)[0]
    temp = out / f"{Path(target).parent}/.{Path(target).name}{TEMP_MARK}4242-7"
    unrelated = out / f"{Path(target).parent}/.{Path(target).name}{TEMP_MARK}4243-7"  # another pid: not ours to remove
    temp.write_bytes(b"half")
    unrelated.write_bytes(b"someone else's")
    (out / JOURNAL).write_text(json.dumps({"pid": 4242, "writes": [target], "removes": []}))
    result = run_cli("generate", "--catalog", MINI, "--out", out)
    assert result.code == 0 and "(pid 4242) did not finish" in result.err
    assert not temp.exists() and unrelated.exists() and not (out / JOURNAL).exists()
    assert run_cli("check", "--catalog", MINI, "--out", out).code == 0


@pytest.mark.slow  # a 200-code catalog, generated once per module and once per test
def test_two_generates_at_once_end_in_a_consistent_tree(two_catalogs, two_trees, tmp_path):
    _, new_dir = two_catalogs
    new = two_trees[1]
    out = tmp_path / "out"
    first, second = _start_generate(new_dir, out), _start_generate(new_dir, out)
    for process in (first, second):
        _, err = process.communicate(timeout=180)
        assert process.returncode == 0, err
    assert tree(out, outputs_only=True) == new


# -- a hand edit never goes unseen ---------------------------------------------------------------------


@pytest.fixture
def mini_out(tmp_path):
    out = tmp_path / "out"
    assert run_cli("generate", "--catalog", MINI, "--out", out).code == 0
    return out


def test_check_catches_a_hand_edit_and_generate_repairs_it(mini_out):
    target = mini_out / "generated" / "python" / "demo_codes.py"
    target.write_text(target.read_text().replace("DEMO_BUSY = 0x10", "DEMO_BUSY = 0x11"))
    result = run_cli("check", "--catalog", MINI, "--out", mini_out)
    assert result.code == 1 and "stale: generated/python/demo_codes.py" in result.out
    assert run_cli("generate", "--catalog", MINI, "--out", mini_out).code == 0
    assert run_cli("check", "--catalog", MINI, "--out", mini_out).code == 0


def test_a_changed_catalog_is_seen_and_written(tmp_path):
    catalog = synthetic_catalog(20, tmp_path / "catalog")
    out = tmp_path / "out"
    assert run_cli("generate", "--catalog", catalog, "--out", out).code == 0
    change_one_text(catalog)
    check = run_cli("check", "--catalog", catalog, "--out", out)
    assert check.code == 1 and "stale: generated/python/bench_codes.py" in check.out
    result = run_cli("generate", "--catalog", catalog, "--out", out)
    assert result.code == 0 and "wrote generated/python/bench_codes.py" in result.out
    assert run_cli("check", "--catalog", catalog, "--out", out).code == 0


def test_the_run_files_are_not_committed():
    ignored = (ROOT / ".gitignore").read_text()
    assert f"/{JOURNAL}" in ignored and f"/{LOCK}" in ignored


# -- what the tree can be ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def nobody_runtime():
    """The generator and its dependencies, copied where nobody can read them (the checkout may not be)."""
    holder = unprivileged.world_readable_dir("nobody-runtime-")
    yield unprivileged.copy_runtime(holder / "runtime")
    shutil.rmtree(holder)


@pytest.fixture
def readable_tree():
    """A copy of the mini outputs that anyone can read, inside a directory anyone can enter."""
    holder = unprivileged.world_readable_dir("read-only-")
    base = holder / "shared"
    out = base / "out"
    assert run_cli("generate", "--catalog", MINI, "--out", out).code == 0
    catalog = base / "catalog.yaml"
    shutil.copy(MINI, catalog)
    for path in [base, *base.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    yield out, catalog
    shutil.rmtree(holder)


@pytest.mark.skipif(bool(unprivileged.why_not()), reason=unprivileged.why_not() or "")
def test_a_read_only_tree_checks_and_noop_generates_but_refuses_to_write(nobody_runtime, readable_tree):
    out, catalog = readable_tree
    (out / ".generate.lock").unlink(missing_ok=True)

    def as_nobody(*args):
        return unprivileged.run_as_nobody(nobody_runtime, [*args, "--catalog", str(catalog), "--out", str(out)])

    check = as_nobody("check")
    assert check.returncode == 0, check.stderr
    noop = as_nobody("generate")
    assert noop.returncode == 0, noop.stderr
    target = out / "generated" / "python" / "demo_codes.py"
    original = target.read_bytes()
    target.write_bytes(original + b"# edited\n")
    target.chmod(0o644)
    refused = as_nobody("generate")
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert refused.stderr.count("\n") == 1 and ("Permission denied" in refused.stderr or "permission" in refused.stderr)


def test_an_output_replaced_by_a_directory(mini_out):
    target = mini_out / "generated" / "c" / "demo_codes.h"
    target.unlink()
    target.mkdir()
    for verb in ("check", "generate"):
        result = run_cli(verb, "--catalog", MINI, "--out", mini_out)
        assert (
            result.code == 1
            and "generated/c/demo_codes.h is a directory" in result.err
            and "Traceback" not in result.err
        )


def test_out_naming_a_file_is_wrong_usage(tmp_path):
    path = tmp_path / "file"
    path.write_text("x")
    result = run_cli("generate", "--catalog", MINI, "--out", path)
    assert result.code == 2 and "--out" in result.err and "is a file" in result.err


def test_a_file_size_limit_is_a_clear_error(tmp_path):
    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    result = subprocess.run(
        [sys.executable, "-m", "generator", "generate", "--catalog", str(MINI), "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        preexec_fn=limit,
        timeout=120,
    )
    assert result.returncode == 1 and "File too large" in result.stderr and "ulimit -f" in result.stderr
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1


# -- a second run, and what it must see ---------------------------------------------------------------------


def test_a_second_run_with_nothing_changed_writes_nothing(mini_out):
    again = run_cli("generate", "--catalog", MINI, "--out", mini_out)
    assert again.code == 0 and again.out.strip().endswith("0 written, 0 removed"), again.out
    check = run_cli("check", "--catalog", MINI, "--out", mini_out)
    assert check.code == 0 and "match the catalog" in check.out


def _flip_a_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[-2] = ord("x") if data[-2] != ord("x") else ord("y")  # same size, same mtime second
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("change", ["edit an output", "delete an output", "edit a manifest", "journal", "catalog",
                                    "symlink"])
def test_anything_that_changed_is_seen_by_the_next_run(mini_out, tmp_path, change):
    catalog = tmp_path / "catalog.yaml"
    shutil.copy(MINI, catalog)
    module = mini_out / "generated" / "python" / "demo_codes.py"
    args = ["--catalog", catalog, "--out", mini_out]
    if change == "edit an output":
        _flip_a_byte(module)
    elif change == "delete an output":
        module.unlink()
    elif change == "edit a manifest":
        _flip_a_byte(mini_out / "generated" / "manifest" / "demo.json")
    elif change == "journal":
        (mini_out / JOURNAL).write_text("{}")
    elif change == "catalog":
        catalog.write_text(catalog.read_text(encoding="utf-8").replace("en: Busy", "en: Very busy"), encoding="utf-8")
    elif change == "symlink":
        real = mini_out / "generated" / "python-real"
        (mini_out / "generated" / "python").rename(real)
        (mini_out / "generated" / "python").symlink_to(real)
    check = run_cli("check", *args)
    result = run_cli("generate", *args)
    if change == "symlink":
        assert check.code == 1 and result.code == 1 and "symbolic link" in result.err
    else:
        assert check.code == 1 or "did not finish" in check.err
        assert result.code == 0 and ("0 written" not in result.out or "did not finish" in result.err)
        assert run_cli("check", *args).code == 0
