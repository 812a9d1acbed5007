"""What a pull request can plant in the output tree, and what the tree's own run files can be.

A committed manifest that lists other files, a link among the site's sources, a FIFO or a link
where the journal or the lock goes, JSON nested past Python's recursion limit, two runs at once:
each is refused in one line or made harmless, nothing outside the outputs is written or
deleted, and no traceback."""
from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.writing.lock import LOCK
from generator.writing.records import JOURNAL
from tests.support.helpers import MINI, ROOT, catalog_text, run_cli

MODULE = "generated/python/demo_codes.py"


@pytest.fixture
def out(tmp_path):
    target = tmp_path / "out"
    result = run_cli("generate", "--catalog", MINI, "--out", target)
    assert result.code == 0, result.err
    return target


def _owner_manifest(out: Path) -> tuple[Path, dict]:
    path = next((out / "generated" / "manifest").glob("*.json"))
    return path, json.loads(path.read_text(encoding="utf-8"))


def _check(out: Path, *extra: str):
    return run_cli("check", "--catalog", MINI, "--out", out, *extra)


def _generate(out: Path, *extra: str):
    return run_cli("generate", "--catalog", MINI, "--out", out, *extra)


# -- a planted manifest deletes nothing that is not the generator's ----------------------------------------


def test_a_manifest_listing_other_files_deletes_none_of_them(out):
    planted = {"README.md": b"# mine\n", "LICENSE": b"licence\n", "pyproject.toml": b"[project]\n",
               "catalog/site.yaml": b"site: {}\n", ".git/HEAD": b"ref: refs/heads/main\n",
               "generated/python/notes.py": b"# my notes, not generated\n",  # in an output folder, no banner
               "site/docs/codes/x.zh.md": b"# mine\n"}
    for rel, data in planted.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(data)
    path, manifest = _owner_manifest(out)
    manifest["files"].update({rel: hashlib.sha256(data).hexdigest() for rel, data in planted.items()})
    path.write_text(json.dumps(manifest), encoding="utf-8")

    checked = _check(out)
    assert checked.code == 1 and "orphaned:" not in checked.out, checked.out
    result = _generate(out)
    assert result.code == 0, result.err
    assert "removed " not in result.out, result.out
    for rel, data in planted.items():
        assert (out / rel).read_bytes() == data, rel
    assert "outside the generator's folders" in result.err and "does not carry the generator's banner" in result.err
    assert _check(out).code == 0  # the manifest is rewritten; the planted files stay, as they are not outputs


def test_an_orphan_the_generator_wrote_is_still_removed(out):
    """The guard keeps the manifest's purpose: a file the generator wrote and no longer renders goes."""
    module = (out / MODULE).read_bytes()
    old = out / "generated" / "python" / "old_codes.py"
    old.write_bytes(module)
    path, manifest = _owner_manifest(out)
    manifest["files"]["generated/python/old_codes.py"] = hashlib.sha256(module).hexdigest()
    path.write_text(json.dumps(manifest), encoding="utf-8")
    result = _generate(out)
    assert "removed generated/python/old_codes.py" in result.out and not old.exists()


# -- generated/upstream: upstream's bytes, no banner; the manifest alone says what the generator wrote ----

UPSTREAM_PAGE = "generated/upstream/x/y/z.md"


def _list_in_manifest(out: Path, rel: str, data: bytes) -> None:
    path, manifest = _owner_manifest(out)
    manifest["files"][rel] = hashlib.sha256(data).hexdigest()
    path.write_text(json.dumps(manifest), encoding="utf-8")


def _plant(out: Path, rel: str, data: bytes) -> Path:
    (out / rel).parent.mkdir(parents=True, exist_ok=True)
    (out / rel).write_bytes(data)
    return out / rel


def test_an_upstream_page_the_manifest_lists_and_no_output_plans_is_an_orphan(out):
    page = _plant(out, UPSTREAM_PAGE, b"# upstream's page\n\n| a | b |\n")
    _list_in_manifest(out, UPSTREAM_PAGE, page.read_bytes())
    for extra in ((), ("--full",)):
        checked = _check(out, *extra)
        assert checked.code == 1 and f"orphaned: {UPSTREAM_PAGE}" in checked.out, checked
    result = _generate(out)
    assert result.code == 0 and f"removed {UPSTREAM_PAGE}" in result.out, result
    assert not page.exists() and not (out / "generated" / "upstream").exists()  # its empty folders go too
    assert _check(out).code == 0


def test_an_edited_upstream_page_no_output_plans_is_reported_and_kept(out):
    page = _plant(out, UPSTREAM_PAGE, b"# upstream's page\n")
    _list_in_manifest(out, UPSTREAM_PAGE, page.read_bytes())
    page.write_bytes(b"# upstream's page, with my notes\n")
    checked = _check(out)
    assert checked.code == 1 and f"orphaned, edited by hand: {UPSTREAM_PAGE}" in checked.out, checked
    result = _generate(out)
    assert result.code == 0 and f"kept {UPSTREAM_PAGE}" in result.out, result
    assert f"removed {UPSTREAM_PAGE}" not in result.out
    assert page.read_bytes() == b"# upstream's page, with my notes\n"


def test_a_file_under_generated_upstream_that_no_manifest_lists_is_left_alone(out):
    page = _plant(out, UPSTREAM_PAGE, b"# my own copy\n")
    assert _check(out).code == 0 and _check(out, "--full").code == 0
    result = _generate(out)
    assert result.code == 0 and UPSTREAM_PAGE not in result.out + result.err, result
    assert page.read_bytes() == b"# my own copy\n"


def test_the_outputs_of_a_family_the_catalog_no_longer_has_are_orphans(out, tmp_path):
    """A family renamed or dropped: its manifest is no current owner's, yet it says what the
    generator wrote for it."""
    gone = tmp_path / "gone.yaml"
    gone.write_text(catalog_text().replace("id: demo\n", "id: gone\n").replace("demo_codes", "gone_codes"),
                    encoding="utf-8")
    assert run_cli("generate", "--catalog", gone, "--out", out).code == 0
    left = ["generated/c/gone_codes.h", "generated/json/gone_codes.json", "generated/manifest/gone.json",
            "generated/python/gone_codes.py"]
    assert all((out / rel).is_file() for rel in left)
    for extra in ((), ("--full",), ("--full", "--family", "demo")):
        checked = _check(out, *extra)
        assert checked.code == 1 and all(f"orphaned: {rel}" in checked.out for rel in left), checked
    result = _generate(out)
    assert result.code == 0 and all(f"removed {rel}" in result.out for rel in left), result
    assert not any((out / rel).exists() for rel in left) and _check(out, "--full").code == 0


# -- a planted cache is not believed -----------------------------------------------------------------------


def _append_code(out: Path) -> None:
    with open(out / MODULE, "a", encoding="utf-8") as handle:
        handle.write("import os; os.system('touch /tmp/PWNED')\n")


# -- links, FIFOs and devices where the run's own files go -------------------------------------------------


@pytest.mark.parametrize("name", [JOURNAL, LOCK])
@pytest.mark.parametrize("shape", ["fifo", "link to /dev/zero", "link outside"])
def test_run_files_that_are_no_files_never_hang_or_follow(out, tmp_path, name, shape):
    outside = tmp_path / "outside.txt"
    target = out / name
    target.unlink(missing_ok=True)
    if shape == "fifo":
        os.mkfifo(target)
    elif shape == "link to /dev/zero":
        target.symlink_to("/dev/zero")
    else:
        target.symlink_to(outside)
    _append_code(out)
    for verb in ("check", "generate"):
        result = subprocess.run([sys.executable, "-m", "generator", verb, "--catalog", str(MINI), "--out", str(out)],
                                capture_output=True, text=True, cwd=ROOT, timeout=60)
        assert "Traceback" not in result.stderr, result.stderr
        assert result.returncode in (0, 1), (verb, result.returncode, result.stderr)
        if result.returncode == 1 and verb == "generate":
            assert len(result.stderr.strip().splitlines()) == 1 and name in result.stderr, result.stderr
    assert not outside.exists()
    assert os.path.islink(target) or os.path.exists(target)  # never deleted: not the generator's


def test_a_journal_fifo_is_one_line_and_exit_1(out):
    (out / JOURNAL).unlink(missing_ok=True)
    os.mkfifo(out / JOURNAL)
    result = _generate(out)
    assert result.code == 1 and result.err.count("\n") == 1 and JOURNAL in result.err, result


# -- JSON nested past the recursion limit ------------------------------------------------------------------


@pytest.mark.parametrize("where", ["manifest", "journal"])
def test_json_nested_a_hundred_thousand_deep_is_unreadable_not_a_crash(out, where):
    deep = "[" * 100000 + "]" * 100000
    if where == "manifest":
        _owner_manifest(out)[0].write_text(deep)
    else:
        (out / JOURNAL).write_text(deep)
    result = _generate(out)
    assert result.code == 0 and "Traceback" not in result.err, result.err
    assert _check(out).code == 0


# -- links among the outputs' folders ----------------------------------------------------------------------


@pytest.mark.parametrize("target", ["/proc/self/environ", "outside"])
def test_a_link_among_the_site_sources_fails_check_and_is_left(out, tmp_path, target):
    outside = tmp_path / "secret.txt"
    outside.write_text("TOKEN=x\n")
    link = out / "site" / "docs" / "codes" / "secret.zh.md"
    link.symlink_to(target if target.startswith("/") else outside)
    result = _check(out)
    assert result.code == 1 and "not a file" in result.out and "site/docs/codes/secret.zh.md" in result.out, result.out
    generated = _generate(out)
    assert generated.code == 0 and "site/docs/codes/secret.zh.md" in generated.err
    assert link.is_symlink() and outside.read_text() == "TOKEN=x\n"


# -- two runs at once --------------------------------------------------------------------------------------


def test_the_lock_covers_the_survey_not_only_the_writes(out):
    """While another run holds the lock, a `generate` waits before it compares anything: a file
    deleted meanwhile is written back, because the survey comes after the wait."""
    fd = os.open(out / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        run = subprocess.Popen([sys.executable, "-m", "generator", "generate", "--full", "--catalog", str(MINI),
                                "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = run.stderr.readline()
            if "waiting for another `generate`" in line:
                break
        else:
            pytest.fail("generate did not wait for the lock")
        (out / MODULE).unlink()  # what the other run does meanwhile
    finally:
        os.close(fd)
    stdout, _ = run.communicate(timeout=60)
    assert run.returncode == 0
    assert f"wrote {MODULE}" in stdout and (out / MODULE).is_file()
    assert _check(out, "--full").code == 0


# -- a neighbour and the lock --------------------------------------------------------------------------

LOCK_TIMEOUT = "LLM_STATUS_CODES_LOCK_TIMEOUT"
HOLD = ("import fcntl, os, sys, time\n"
        "fd = os.open(sys.argv[1], os.O_RDONLY)\n"  # read-only is enough for flock
        "fcntl.flock(fd, fcntl.LOCK_EX)\n"
        "print('held', flush=True)\n"
        "time.sleep(300)\n")


@contextlib.contextmanager
def _held(path: Path):
    """Another process holding the lock, through a descriptor opened read-only."""
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(path)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        yield holder
    finally:
        holder.kill()
        holder.wait()


def _generate_bounded(out: Path, seconds: str) -> subprocess.CompletedProcess:
    """`generate` with something to write (so that it takes the lock), waiting at most `seconds`."""
    _append_code(out)
    return subprocess.run([sys.executable, "-m", "generator", "generate", "--catalog", str(MINI), "--out", str(out)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={**os.environ, LOCK_TIMEOUT: seconds})


def test_the_lock_file_is_its_users_alone(out):
    info = os.lstat(out / LOCK)
    assert info.st_uid == os.geteuid() and info.st_mode & 0o077 == 0, oct(info.st_mode)


def test_a_held_lock_is_waited_for_within_a_bound_naming_its_holder(out):
    with _held(out / LOCK) as holder:
        result = _generate_bounded(out, "0.2")
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    error = result.stderr.strip().splitlines()[-1]
    assert error.startswith("error: ") and str(out / LOCK) in error and f"pid {holder.pid}" in error, error
    assert LOCK_TIMEOUT in error, error
    assert f"pid {holder.pid}" in result.stderr.splitlines()[0]  # the wait, said when it starts


@pytest.mark.parametrize("value", ["soon", "-1", "nan", "inf"])
def test_a_lock_timeout_that_is_no_number_of_seconds_is_wrong_usage(out, value):
    result = _generate_bounded(out, value)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and LOCK_TIMEOUT in result.stderr, result.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="gives the lock file to another user with chown, which needs root")
def test_a_lock_file_of_another_user_is_refused_in_one_line(out):
    os.chown(out / LOCK, 65534, 65534)
    result = _generate_bounded(out, "0.2")
    assert result.returncode == 1 and result.stderr.count("\n") == 1, result.stderr
    assert str(out / LOCK) in result.stderr and "nobody" in result.stderr and "remove it" in result.stderr
    assert os.lstat(out / LOCK).st_uid == 65534  # not the generator's to delete


def test_another_user_cannot_open_the_lock_file():
    from tests.support import unprivileged

    reason = unprivileged.why_not()
    if reason:
        pytest.skip(reason)
    base = unprivileged.world_readable_dir("lock-")
    try:
        out = base / "out"
        out.mkdir(mode=0o755)
        out.chmod(0o755)
        assert _generate(out).code == 0
        probe = ("import fcntl, os, sys\n"
                 "try:\n"
                 "    fcntl.flock(os.open(sys.argv[1], os.O_RDONLY), fcntl.LOCK_EX | fcntl.LOCK_NB)\n"
                 "except OSError as error:\n"
                 "    print('refused', error.errno)\n"
                 "else:\n"
                 "    print('locked')\n")
        result = subprocess.run([*unprivileged.NOBODY, unprivileged.interpreter(), "-I", "-c", probe, str(out / LOCK)],
                                capture_output=True, text=True, timeout=60, cwd="/")
        assert result.stdout.strip() == f"refused {errno.EACCES}", (result.stdout, result.stderr)
    finally:
        shutil.rmtree(base)
