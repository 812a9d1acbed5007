"""Bad catalogs: refused with exit status 3, every problem as PATH:LINE:COL, nothing written,
never a traceback. Each tests/fixtures/bad/NAME.yaml has its exact expected stderr in NAME.err."""
import os
import resource
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from generator.reading.load import load_catalog
from tests.support.helpers import FIXTURES, MINI, ROOT, run_cli

BAD = FIXTURES / "bad"
CASES = sorted(p.stem for p in BAD.glob("*.yaml"))


@pytest.fixture(scope="module")
def outputs_of_mini(tmp_path_factory):
    """The mini catalog's outputs, generated once: every bad catalog's run must leave them as they are."""
    out = tmp_path_factory.mktemp("mini") / "out"
    assert run_cli("generate", "--catalog", MINI, "--out", out).code == 0
    return out


@pytest.mark.parametrize("case", CASES)
def test_bad_catalog_is_refused_with_its_messages(case, monkeypatch):
    monkeypatch.chdir(BAD)
    result = run_cli("validate", "--catalog", f"{case}.yaml")
    assert result.code == 3
    assert result.err == (BAD / f"{case}.err").read_text(encoding="utf-8")
    assert "Traceback" not in result.err


@pytest.mark.parametrize("case", CASES)
def test_bad_catalog_touches_no_output(case, outputs_of_mini):
    before = stats(outputs_of_mini)
    result = run_cli("generate", "--catalog", BAD / f"{case}.yaml", "--out", outputs_of_mini)
    assert result.code == 3
    assert stats(outputs_of_mini) == before


def test_a_bad_catalog_makes_no_output_directory_and_no_lock(tmp_path):
    """Refused before the run takes its lock: `--out NEW` stayed, with a .generate.lock in it."""
    result = run_cli("generate", "--catalog", BAD / f"{CASES[0]}.yaml", "--out", tmp_path / "new")
    assert result.code == 3 and "nothing was written" in result.err
    assert not (tmp_path / "new").exists()


def stats(root: Path) -> dict[str, tuple[int, int, int]]:
    """Every file under root: (inode, mtime in ns, size). A write, atomic (a new inode) or in
    place (a new mtime), changes it; reading no bytes keeps 75 cases fast."""
    found = {}
    for directory, _, names in os.walk(root):
        for name in names:
            status = os.stat(os.path.join(directory, name))
            found[os.path.relpath(os.path.join(directory, name), root)] = (status.st_ino, status.st_mtime_ns,
                                                                           status.st_size)
    return found


def test_every_message_has_a_position():
    for err in BAD.glob("*.err"):
        lines = err.read_text(encoding="utf-8").splitlines()
        for line in lines[:-1]:
            path, line_no, col, _ = line.split(":", 3)
            assert path.endswith(".yaml") and int(line_no) >= 1 and int(col) >= 1, line
        assert lines[-1].endswith("problem(s) in the catalog; nothing was written")


def test_object_building_tag_runs_nothing(tmp_path):
    marker = tmp_path / "pwned"
    text = MINI.read_text(encoding="utf-8").replace(
        "    value: 0x11", f"    value: !!python/object/apply:os.system ['touch {marker}']"
    )
    catalog = tmp_path / "catalog.yaml"
    catalog.write_text(text, encoding="utf-8")
    assert run_cli("validate", "--catalog", catalog).code == 3
    assert not marker.exists()


def test_a_family_spread_over_several_files_of_a_directory(tmp_path):
    text = MINI.read_text(encoding="utf-8")
    head, codes = text.split("codes:\n", 1)
    (tmp_path / "a.yaml").write_text(head, encoding="utf-8")
    (tmp_path / "b.yaml").write_text("codes:\n" + codes, encoding="utf-8")
    assert run_cli("validate", "--catalog", tmp_path).code == 0
    (tmp_path / "c.yaml").write_text("format: 2\n", encoding="utf-8")
    result = run_cli("validate", "--catalog", tmp_path)
    assert result.code == 3 and "section 'format' is already defined at" in result.err


def test_catalog_sections_belong_at_the_top(tmp_path):
    text = MINI.read_text(encoding="utf-8")
    site, family = text.split("family:\n", 1)
    (tmp_path / "site.yaml").write_text(site, encoding="utf-8")
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "family.yaml").write_text("format: 2\nfamily:\n" + family, encoding="utf-8")
    result = run_cli("validate", "--catalog", tmp_path)
    assert result.code == 3 and "belongs to the whole catalog" in result.err


def test_usage_errors_exit_2(tmp_path):
    assert run_cli("frobnicate").code == 2
    assert run_cli("generate", "--no-such-flag").code == 2
    assert run_cli("validate", "--catalog", tmp_path / "missing").code == 2
    for option in ("--catalog", "--out"):  # '' was the current directory: a catalog's errors about ./site.yaml
        empty_path = run_cli("generate", option, "")
        assert empty_path.code == 2 and f"argument {option}: an empty path" in empty_path.err, empty_path.err
    assert run_cli("check", "--catalog", MINI, "--out", tmp_path / "missing").code == 2  # generate makes its --out
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run_cli("validate", "--catalog", empty)
    assert result.code == 3 and "no catalog files" in result.err
    assert result.err.count("\n") == 2, result.err  # that alone, and the count: no section is 'missing' of no file


def test_a_fifo_as_the_catalog_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "catalog.yaml"
    os.mkfifo(fifo)
    done = []
    thread = threading.Thread(target=lambda: done.append(run_cli("validate", "--catalog", fifo)), daemon=True)
    thread.start()
    thread.join(30)
    assert done, "validate hung on a FIFO"
    assert done[0].code == 3 and "not a regular file" in done[0].err


def test_dev_zero_as_the_catalog_is_refused():
    result = run_cli("validate", "--catalog", "/dev/zero")
    assert result.code == 3 and "not a regular file" in result.err


def test_a_billion_laughs_is_refused_in_bounded_memory_and_time():
    def limit_memory():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    result = subprocess.run(
        [sys.executable, "-m", "generator", "validate", "--catalog", str(BAD / "billion_laughs.yaml")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=limit_memory,
    )
    assert result.returncode == 3, result.stderr
    assert "anchors (&a) are not allowed" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("case", ["deep_nesting", "deep_block_nesting"])
def test_deep_nesting_is_refused_in_a_subprocess_that_survives(case):
    """libyaml's composer recurses: 50,000 levels crashed it (exit 139). Refused before composing."""
    result = subprocess.run(
        [sys.executable, "-m", "generator", "validate", "--catalog", str(BAD / f"{case}.yaml")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 3 and "nests deeper than" in result.stderr


@pytest.mark.parametrize("duplicate", ["value", "name"])
def test_a_duplicate_code_is_one_problem_not_a_cascade(tmp_path, duplicate):
    """A code whose value or name another code has is reported once, where it is written: the
    page versions that list it (and the versions based on them, their malformations) do not each
    fail for want of it."""
    import shutil

    catalog = tmp_path / "catalog"
    shutil.copytree(ROOT / "catalog", catalog)
    path = catalog / "llm_datadist" / "codes.yaml"
    text = path.read_text(encoding="utf-8")
    # two codes the catalog writes with a Python name, whatever a release named them since
    first, other = [c for c in load_catalog(catalog).family_by_id["llm_datadist"].codes
                    if f"  - python: {c.python_name}\n" in text][:2]
    start = text.index(f"  - python: {other.python_name}\n")
    if duplicate == "value":
        at = text.index("    value:", start)
        text = text[:at] + f"    value: 0x{first.value:X}" + text[text.index("\n", at):]
    else:
        text = text[:start] + text[start:].replace(f"  - python: {other.python_name}\n",
                                                   f"  - python: {first.python_name}\n", 1)
    path.write_text(text, encoding="utf-8")
    result = run_cli("validate", "--catalog", catalog)
    assert result.code == 3
    lines = result.err.strip().splitlines()
    said = (f"already used by {first.name}", f"({first.name}) has it")  # a value's clash, a name's
    assert len(lines) == 2 and "codes.yaml:" in lines[0] and any(s in lines[0] for s in said), result.err


UNKNOWN_RELEASE = "a release no page version of demo/repo records (its newest: 2.0); write one of its releases"


@pytest.mark.parametrize("written, said", [
    ("    added: {demo/repo: '3.0'}\n", [f"added demo/repo: '3.0', {UNKNOWN_RELEASE}",
                                       "added demo/repo: '3.0', but its edition 2.0-new lists it, before that "
                                       "release; write the first release that ships it"]),
    ("    removed: {demo/repo: '2.0'}\n", ["removed demo/repo: '2.0', but its edition 2.0-new still lists it; "
                                         "where a page no longer lists it, its version's rows say "
                                         "`DEMO_BUSY: dropped`"]),
    ("    removed: {demo/repo: '2.1'}\n", [f"removed demo/repo: '2.1', {UNKNOWN_RELEASE}"]),
])
def test_a_release_the_pages_contradict_is_a_warning_at_its_code(tmp_path, written, said):
    """A code's `added` or `removed` that its repository's pages contradict (they list it before it
    was added, or still list it where it is removed), or a release they never had: the catalog
    is valid, and validate says what to check, at the code."""
    text = MINI.read_text(encoding="utf-8")
    catalog = tmp_path / "catalog.yaml"
    catalog.write_text(text.replace("    c: DEMO_BUSY_C\n", "    c: DEMO_BUSY_C\n" + written, 1), encoding="utf-8")
    result = run_cli("validate", "--catalog", catalog)
    line = text[:text.index("  - python: DEMO_BUSY\n")].count("\n") + 1
    assert result.code == 0, result.err
    assert result.err.splitlines() == [f"{catalog}:{line}:5: warning: DEMO_BUSY: {s}" for s in said]


def test_a_text_marked_upstreams_in_a_language_none_of_its_sources_is_in_is_a_warning(tmp_path):
    """The cpp page's source is Chinese only: its English texts are this project's translation
    (marked so), or the warning says what to write; a text the page shows in its own language's
    words (the deprecated C++ page writes log messages in English) is upstream's in both."""
    text = MINI.read_text(encoding="utf-8")
    comment = "          # no `lang`: the page holds both languages\n"
    at = text.index(comment, text.index("path: docs/cpp.md"))
    catalog = tmp_path / "catalog.yaml"
    catalog.write_text(text[:at] + "          lang: zh\n" + text[at + len(comment):], encoding="utf-8")
    result = run_cli("validate", "--catalog", catalog)
    assert result.code == 0, result.err
    warned = [line.split(": warning: ")[1].split(" is marked")[0] for line in result.err.splitlines()]
    # DEMO_BUSY's meaning holds on the Python page too, whose source is in both languages; its cause
    # is marked as this project's translation
    assert warned == ["DEMO_C_ONLY: meaning (en)"], result.err
    where = int(result.err.split(":")[1])  # the entry's en text, in DEMO_C_ONLY's meaning
    written = catalog.read_text(encoding="utf-8").split("\n")
    assert written[where - 1].startswith("        en: ") and where > written.index("  - c: DEMO_C_ONLY"), where
    assert "write `origin: translation`; else name its en source (`lang: en`)" in result.err
