"""`make bench` runs and prints its floors and ratios (its speed is measured, not tested),
and its synthetic catalogs are valid catalogs whose outputs the generator checks clean."""
import re
import subprocess
import sys

import pytest

from generator.bench_catalog import add_one_edition, change_one_text, synthetic_catalog
from tests.helpers import ROOT, run_cli


@pytest.mark.slow
def test_synthetic_catalogs_and_their_edits_are_valid(tmp_path):
    catalog = synthetic_catalog(30, tmp_path / "catalog")
    out = tmp_path / "out"
    assert run_cli("generate", "--catalog", catalog, "--out", out).code == 0
    change_one_text(catalog)
    add_one_edition(catalog, 30)
    assert run_cli("validate", "--catalog", catalog).code == 0
    assert run_cli("check", "--catalog", catalog, "--out", out).code == 1  # both edits show
    assert run_cli("generate", "--catalog", catalog, "--out", out).code == 0
    assert run_cli("check", "--full", "--catalog", catalog, "--out", out).code == 0


@pytest.mark.slow
def test_the_benchmark_prints_every_row_with_its_ratios():
    result = subprocess.run([sys.executable, "-m", "generator.bench", "--sizes", "20,200", "--repeat", "1"],
                            cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert re.search(
        r"real catalog .*: no-op generate [\d.]+ s; import jinja2, ruamel.yaml [\d.]+ s; check --full [\d.]+ s; "
        r"check --full --jobs 1 [\d.]+ s",
        text,
    )
    guards = [line for line in text.splitlines() if line.startswith(("holds ", "BROKEN", "not measured"))]
    assert len(guards) == 5, text  # each guard says whether it holds, with its figures
    assert sum(line.startswith("not measured") for line in guards) == 3  # the 10,000-code guards need 10,000 codes
    assert all(re.search(r"[\d.]+x|no slower", line) for line in guards if not line.startswith("not measured"))
    for floor in ("event floor", "compose floor", "safe-load floor"):
        assert floor in text
    for column in ("validate", "generate (cold)", "generate (nothing)", "generate (one text)", "generate (one edition)",
                   "check --full"):
        assert column in text
    rows = [line for line in text.splitlines() if re.match(r"^\s+(20|200) ", line)]
    assert len(rows) == 4 and all(re.search(r"\(\s*[\d.]+x\)", r) for r in rows[2:])
