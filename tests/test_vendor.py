"""Vendoring: `vendor` writes a stamped copy into another project and refuses to replace
one edited by hand; `verify-vendored` (the pre-commit hook) tells a copy whose checksum
matches, a hand-edited and an out-of-date copy apart and names the fix, and, given the
catalog, whether the bytes are what it generates."""
import json
import re
import shlex
import shutil
import subprocess
import sys

import pytest
from ruamel.yaml import YAML

from tests.support.helpers import MINI, ROOT, run_cli


def vendored(tmp_path, *extra):
    to = tmp_path / "project" / "third_party"
    result = run_cli("vendor", "--catalog", MINI, "--to", to, *extra)
    assert result.code == 0, result.err
    return to, result


def edited_catalog(tmp_path):
    copy = tmp_path / "newer.yaml"
    copy.write_text(MINI.read_text(encoding="utf-8").replace("en: Too many requests.", "en: Far too many requests."),
                    encoding="utf-8")
    return copy


def test_vendor_writes_the_module_and_header_stamped_and_working(tmp_path):
    to, result = vendored(tmp_path, "--header")
    module, header = to / "demo_codes.py", to / "demo_codes.h"
    assert module.is_file() and header.is_file()
    assert f"wrote {module}" in result.out
    text = module.read_text(encoding="utf-8")
    assert re.search(r'^CATALOG_HASH = "[0-9a-f]{12,}"$', text, re.M)
    assert re.search(r'^__version__ = "\d+\.\d+\.\d+"$', text, re.M)
    assert "do not edit" in text.lower()
    probe = subprocess.run(
        [sys.executable, "-s", "-c", "import demo_codes as m; print(m.DemoCode.DEMO_BUSY.meaning('en'))"],
        cwd=to,
        capture_output=True,
        text=True,
    )
    assert probe.returncode == 0 and probe.stdout.strip() == "Busy", probe.stderr
    assert "#define DEMO_CATALOG_HASH" in header.read_text(encoding="utf-8") or "CATALOG_HASH" in header.read_text(
        encoding="utf-8"
    )
    again = run_cli("vendor", "--catalog", MINI, "--to", to, "--header")
    assert again.code == 0 and again.out.count("unchanged") == 2


def test_verify_vendored_unmodified_copy_passes_against_catalog_and_json(tmp_path):
    to, _ = vendored(tmp_path, "--header")
    files = [to / "demo_codes.py", to / "demo_codes.h"]
    assert run_cli("verify-vendored", *files).code == 0
    assert run_cli("verify-vendored", *files, "--against", MINI).code == 0
    export = tmp_path / "out"
    assert run_cli("generate", "--catalog", MINI, "--out", export).code == 0
    result = run_cli("verify-vendored", *files, "--against", export / "generated" / "json" / "demo_codes.json")
    assert result.code == 0 and "checksums match and CATALOG_HASH is current" in result.out, result.out
    proven = run_cli("verify-vendored", *files, "--against", MINI)
    assert proven.code == 0 and f"2 file(s): what {MINI} generates, line for line" in proven.out, proven.out


def test_a_hand_edited_copy_is_named_and_vendor_will_not_overwrite_it_unless_forced(tmp_path):
    to, _ = vendored(tmp_path)
    module = to / "demo_codes.py"
    module.write_text(module.read_text(encoding="utf-8").replace('"Busy"', '"Not busy"', 1), encoding="utf-8")
    result = run_cli("verify-vendored", module)
    assert result.code == 1 and "edited by hand" in result.err and "--force" in result.err
    refused = run_cli("vendor", "--catalog", MINI, "--to", to)
    assert refused.code == 1 and "edited by hand" in refused.err and "Not busy" in module.read_text(encoding="utf-8")
    forced = run_cli("vendor", "--catalog", MINI, "--to", to, "--force")
    assert forced.code == 0 and run_cli("verify-vendored", module).code == 0


def test_the_command_to_vendor_an_edited_copy_again_names_its_family_without_against(tmp_path):
    """Without --against, the checkout's catalog says whose module a vendored file is: the command
    to run is whole (it said --family FAMILY)."""
    to = tmp_path / "vendored"
    assert run_cli("vendor", "--family", "hixl", "--to", to, "--header").code == 0
    for path in sorted(to.iterdir()):
        path.write_text(path.read_text(encoding="utf-8").replace("TIMEOUT", "TIME_OUT", 1), encoding="utf-8")
        said = run_cli("verify-vendored", path).err
        assert "edited by hand" in said and "--family hixl" in said and "FAMILY" not in said, said


def test_an_out_of_date_copy_is_named_with_both_hashes(tmp_path):
    to, _ = vendored(tmp_path, "--header")
    newer = edited_catalog(tmp_path)
    for path in (to / "demo_codes.py", to / "demo_codes.h"):
        result = run_cli("verify-vendored", path, "--against", newer)
        assert result.code == 1 and "out of date" in result.err and "vendor it again" in result.err
        assert run_cli("verify-vendored", path).code == 0  # its seal still matches: only --against knows it is old
    assert run_cli("vendor", "--catalog", newer, "--to", to).code == 0
    assert run_cli("verify-vendored", to / "demo_codes.py", "--against", newer).code == 0


def test_a_file_the_generator_did_not_write_and_a_missing_file(tmp_path):
    stranger = tmp_path / "demo_codes.py"
    stranger.write_text("CODES = {}\n")
    result = run_cli("verify-vendored", stranger)
    assert result.code == 1 and "not a file the generator wrote" in result.err
    missing = run_cli("verify-vendored", tmp_path / "absent_status_codes.py")
    assert missing.code == 2 and "absent_status_codes.py" in missing.err


def test_vendor_to_a_file_is_wrong_usage(tmp_path):
    target = tmp_path / "file"
    target.write_text("x")
    result = run_cli("vendor", "--catalog", MINI, "--to", target)
    assert result.code == 2 and "is a file" in result.err


# -- the pre-commit hooks, run as pre-commit runs them ----------------------------------------------


def hooks():
    return {
        hook["id"]: hook
        for hook in YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    }


def run_hook(hook, cwd, files=()):
    """The hook's entry and args, with the files pre-commit would pass (those its `files` matches)."""
    argv = shlex.split(hook["entry"]) + list(hook.get("args", []))
    assert argv[0] == "llm-status-codes"  # the console script pyproject.toml installs
    chosen = [f for f in files if re.search(hook.get("files", ""), f)] if hook.get("pass_filenames", True) else []
    return subprocess.run(
        [sys.executable, "-m", "generator", *argv[1:], *chosen], cwd=cwd, capture_output=True, text=True
    )


def test_the_hook_file_names_both_hooks_and_the_console_script_exists():
    found = hooks()
    assert set(found) == {"llm-status-codes-check", "llm-status-codes-vendored"}
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'llm-status-codes = "generator.cli:entry_point"' in pyproject


def test_vendored_hook_on_unmodified_edited_and_old_copies(tmp_path):
    """The real family's module and header, vendored under their own names (which the
    hook's `files` pattern matches), checked as pre-commit would check them."""
    hook = hooks()["llm-status-codes-vendored"]
    project = tmp_path / "downstream"
    assert run_cli("vendor", "--catalog", ROOT / "catalog", "--to", project / "third_party", "--header").code == 0
    (project / "app.py").write_text("print('hello')\n")
    files = ["third_party/llm_status_codes.py", "third_party/llm_status_codes.h", "app.py"]
    passed = run_hook(hook, project, files)
    assert passed.returncode == 0 and "2 file(s): checksums match" in passed.stdout, passed.stderr
    newer = tmp_path / "catalog"
    shutil.copytree(ROOT / "catalog", newer)
    codes = newer / "llm_datadist" / "codes.yaml"
    text = codes.read_text(encoding="utf-8")
    edited = re.sub(r"(\n\s+en: )(\S)", r"\1Edited \2", text, count=1)
    assert edited != text
    codes.write_text(edited, encoding="utf-8")
    result = run_hook(dict(hook, args=["--against", str(newer)]), project, files)
    assert result.returncode == 1 and result.stderr.count("out of date") == 2
    module = project / "third_party" / "llm_status_codes.py"
    module.write_text(module.read_text(encoding="utf-8") + "# local tweak\n", encoding="utf-8")
    result = run_hook(hook, project, files)
    assert result.returncode == 1 and "edited by hand" in result.stderr


@pytest.mark.slow
def test_check_hook_passes_on_this_repository_and_fails_on_a_drifted_copy(tmp_path):
    hook = hooks()["llm-status-codes-check"]
    assert run_hook(hook, ROOT).returncode == 0
    copy = tmp_path / "fork"
    for part in ("catalog", "generated", "site"):
        shutil.copytree(ROOT / part, copy / part, ignore=shutil.ignore_patterns("build"))
    module = copy / "generated" / "python" / "llm_status_codes.py"
    module.write_text(module.read_text(encoding="utf-8").replace("LLM_TIMEOUT", "LLM_TIME_OUT", 1), encoding="utf-8")
    result = run_hook(hook, copy)
    assert result.returncode == 1 and "stale: generated/python/llm_status_codes.py" in result.stdout


def test_json_export_against_carries_the_same_hash_as_the_module(tmp_path):
    export = tmp_path / "out"
    assert run_cli("generate", "--catalog", MINI, "--out", export).code == 0
    data = json.loads((export / "generated" / "json" / "demo_codes.json").read_text(encoding="utf-8"))
    module = (export / "generated" / "python" / "demo_codes.py").read_text(encoding="utf-8")
    assert f'CATALOG_HASH = "{data["catalog_hash"]}"' in module


def test_an_unknown_family_is_told_every_family_vendor_takes(tmp_path):
    result = run_cli("vendor", "--family", "nope", "--to", tmp_path)
    assert result.code == 2 and "no family 'nope'; families: llm_datadist, hixl, adxl, ge" in result.err, result.err


def test_without_a_catalog_the_command_to_vendor_again_says_where_its_family_is_found():
    """An installed generator (a pre-commit hook's) has no catalog to name the family by: the
    command keeps FAMILY and says what to put there (it left the placeholder unexplained)."""
    from pathlib import Path

    from generator.shipping.vendor import vendor_again

    said = vendor_again(Path("/project/third_party/hixl_status_codes.h"), None, force=True)
    assert "--family FAMILY --header --force; FAMILY: the family whose file hixl_status_codes.h is, as " \
           "`python -m generator targets` lists" in said, said
    assert "FAMILY:" not in vendor_again(Path("/p/hixl_status_codes.h"), "hixl")
