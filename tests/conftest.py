import pytest

from generator.reading.load import load_catalog
from tests.helpers import MINI, ROOT
from tests.test_browser import browser, site, visit  # noqa: F401 - the browser fixtures, for every file that drives Chromium


@pytest.fixture(scope="session")
def catalog():
    return load_catalog(ROOT / "catalog")


@pytest.fixture(scope="session")
def llm(catalog):
    return catalog.family_by_id["llm_datadist"]


@pytest.fixture(scope="session")
def mini():
    return load_catalog(MINI)


@pytest.fixture(scope="module")
def chromium():
    """Debian's Chromium, headless, for the tests that drive pages of their own (search, redirects)."""
    from playwright.sync_api import sync_playwright

    from tests.test_browser import CHROMIUM, FLAGS

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield launched
        launched.close()
