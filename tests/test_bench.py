"""A smoke run of `make bench` at 100 codes: it runs and its outputs are right (not its speed)."""
import re

from generator import bench
from generator.catalog import load_catalog
from tests.helpers import run_cli


def test_the_synthetic_catalog_has_the_real_shape(tmp_path):
    catalog = load_catalog(bench.synthetic_catalog(100, tmp_path / "catalog"))
    assert len(catalog.codes) == 100 and len(catalog.editions) == bench.EDITIONS
    assert all(code.log_message and code.notes and code.cpp_names for code in catalog.codes)
    known = [e for e in catalog.editions if e.texts_known]
    assert known and all(code.text("solution", e.id, lang) for e in known for code in catalog.codes
                         if code.name in e.row_by_code for lang in ("zh", "en"))
    rows = [{r.code: r.recoverable for r in e.rows} for e in catalog.editions]
    assert len({frozenset(r.items()) for r in rows}) == bench.EDITIONS  # every edition differs


def test_generate_and_check_of_the_synthetic_catalog(tmp_path):
    catalog = bench.synthetic_catalog(100, tmp_path / "catalog")
    out = tmp_path / "out"
    assert run_cli("generate", "--catalog", catalog, "--out", out).code == 0
    assert run_cli("check", "--catalog", catalog, "--out", out).code == 0


def test_the_report_prints_every_figure():
    text = bench.report([100], repeat=1)
    assert re.search(r"start-up with the generator's imports: \d+\.\d+ s", text)
    assert re.search(r"real catalog, make generate .*: \d+\.\d+ s = \d+\.\d+x start-up", text)
    row = next(line for line in text.splitlines() if line.strip().startswith("100 "))
    assert len(re.findall(r"\(\d+\.\d+x\)", row)) == 4
