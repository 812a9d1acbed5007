from pathlib import Path

import pytest

from generator.catalog import load_catalog
from tests.helpers import ROOT


@pytest.fixture(scope="session")
def catalog():
    return load_catalog(ROOT / "catalog")
