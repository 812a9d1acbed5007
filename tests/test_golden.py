"""Golden outputs: every file generated from the small fixture catalog, compared whole.

After an intended change of an output, refresh them with
    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_golden.py
and read the diff of tests/fixtures/mini/golden/ before committing it.
"""
import os
import shutil

from generator import outputs
from tests.helpers import FIXTURES, MINI, run_cli, tree

GOLDEN = FIXTURES / "mini" / "golden"


def test_outputs_of_the_mini_catalog_equal_the_golden_files(tmp_path):
    out = tmp_path / "out"
    result = run_cli("generate", "--catalog", MINI, "--out", out)
    assert result.code == 0, result.err
    (out / outputs.LOCK_NAME).unlink()
    if os.environ.get("UPDATE_GOLDEN"):
        shutil.rmtree(GOLDEN, ignore_errors=True)
        shutil.copytree(out, GOLDEN)
    assert tree(out) == tree(GOLDEN)
