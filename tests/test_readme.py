"""The README stays true: its table of outputs is what `targets` prints, and the
commands and files it names exist."""
import re
import subprocess

from tests.helpers import ROOT, run_cli

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_table_of_outputs_is_what_targets_prints():
    block = re.search(r"<!-- targets:[^>]*-->\n(.*?)<!-- /targets -->", README, re.S)
    assert block, "README.md lost its targets block"
    printed = run_cli("targets").out
    assert block.group(1).strip() == printed.strip(), \
        "README.md's table of outputs differs from `python -m generator targets`: paste the command's output"


def test_every_make_target_the_readme_names_exists():
    named = set(re.findall(r"`make ([a-z-]+)", README))
    assert {"generate", "test", "test-fast", "publish", "serve"} <= named
    listed = subprocess.run(["make", "-s", "help"], cwd=ROOT, capture_output=True, text=True).stdout
    for target in named:
        assert f"make {target} " in listed, f"README names `make {target}`, which `make help` does not list"


def test_every_verb_the_readme_names_is_a_verb():
    table = README.split("## Command line", 1)[1].split("## Guarantees", 1)[0]
    verbs = re.findall(r"^\| `([a-z-]+)", table, re.M)
    assert len(verbs) >= 10
    for verb in verbs:
        assert run_cli(verb, "--help").code == 0, verb


def test_every_file_the_readme_names_exists():
    for path in re.findall(r"`((?:generated|generator|catalog|tests|templates|site)/[\w./-]+)`", README):
        if re.search(r"[{*]|OWNER|FAMILY|NAME/", path) or path.startswith("site/build"):  # patterns, not paths
            continue
        assert (ROOT / path).exists(), f"README.md names {path}, which does not exist"
