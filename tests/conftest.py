import pytest

from generator.catalog import load_catalog
from tests.helpers import MINI, ROOT


@pytest.fixture(scope="session")
def catalog():
    return load_catalog(ROOT / "catalog")


@pytest.fixture(scope="session")
def llm(catalog):
    return catalog.family_by_id["llm_datadist"]


@pytest.fixture(scope="session")
def mini():
    return load_catalog(MINI)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The repository's committed site, built once with --strict."""
    from tests.site_build import build_site

    dest = tmp_path_factory.mktemp("site") / "build"
    result = build_site(ROOT / "site", dest)
    dest.joinpath("build.log").write_text(result.stdout + result.stderr)
    return dest
