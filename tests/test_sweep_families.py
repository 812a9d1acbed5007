"""The mutation sweep over every value of each real family.yaml (see tests/test_sweep.py)."""
from __future__ import annotations

import shutil

import pytest

from tests.sweep import baseline, mutations
from tests.test_sweep import FAMILIES, REAL, _passes


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    root = tmp_path_factory.mktemp("sweep-families")
    shutil.copytree(REAL, root / "catalog")
    baseline(root / "catalog", root / "base")
    return root


@pytest.mark.slow
@pytest.mark.parametrize("family", FAMILIES)
def test_every_value_of_each_family_yaml(real, tmp_path, family):
    _passes(real, tmp_path, mutations(real / "catalog", [f"{family}/family.yaml"]))
