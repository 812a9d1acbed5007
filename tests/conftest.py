import functools
import os
import threading

import pytest
from playwright.sync_api import sync_playwright

from generator.reading.load import load_catalog
from tests.support.browser import CHROMIUM, FLAGS, SUB_PATH, QuietServer, SiteHandler, Visit
from tests.support.helpers import MINI, ROOT
from tests.support.site_build import shared_site


# The edit-test loop (make test-fast, under 20 s on two cores): every bad catalog refused with its
# message and nothing written, the header compiled as C and C++ and run, and the module imported
# and compared with upstream's status.py under every Python present. `make test` runs them too.
FAST = ("tests/test_bad_inputs.py::", "tests/test_c_header.py::",
        "tests/test_python_module.py::test_every_module_imports_and_documents_under_every_python",
        "tests/test_python_module.py::test_the_module_behaves_like_upstreams_status_py")


# The longest modules first: pytest-xdist hands out whole modules (make test: --dist loadscope)
# in the order they are collected, so the two workers finish together instead of one waiting on
# a long module that came last.
LONGEST = ("tests/test_code_pages.py", "tests/test_browser.py", "tests/test_hostile_publish.py",
           "tests/test_hostile.py", "tests/test_redirects.py")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.nodeid.startswith(FAST) and not item.get_closest_marker("slow"):
            item.add_marker(pytest.mark.fast)
    items.sort(key=lambda item: next((i for i, path in enumerate(LONGEST) if item.nodeid.startswith(path + "::")),
                                     len(LONGEST)))


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
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The base URL of the committed site (built once per run), served under SUB_PATH."""
    root = shared_site(tmp_path_factory)
    httpd = QuietServer(("127.0.0.1", 0), functools.partial(SiteHandler, directory=str(root)))
    base = f"http://127.0.0.1:{httpd.server_address[1]}{SUB_PATH}"
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield base
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def browser():
    assert os.access(CHROMIUM, os.X_OK), f"{CHROMIUM} is missing: run `make test`, which installs it"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def visit(browser, site):
    """visit(width, scheme) -> a Visit; each one's requests must all stay on the site."""
    visits = []

    def make(width="desktop", scheme="light"):
        visits.append(Visit(browser, site, width, scheme))
        return visits[-1]

    yield make
    for v in visits:
        outside = v.outside()
        v.close()
        assert not outside, f"requests left the site: {outside}"


