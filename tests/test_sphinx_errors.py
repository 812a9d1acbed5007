"""The Sphinx directive when conf.py is wrong or the page is unusual: a wrong
catalog path is one warning naming the setting and the path (no traceback, no "please open an
issue at sphinx-doc"); a missing setting is said at the directive, which is defined anyway; the
table fits alabaster's page at 1280 px though a text holds a long URL; the same table three
times in one document repeats no HTML id."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections import Counter

import pytest

from tests.support.helpers import MINI, ROOT

pytestmark = pytest.mark.slow  # runs sphinx-build

LONG_URL = ("https://www.hiascend.com/document/detail/zh/Pytorch/2600/apiref/torchnpuCustomsapi/"
            "docs/zh/custom_APIs/overview_of_every_api.md")


def project(tmp_path, body: str, setting: str | None, extra_conf: str = ""):
    src = tmp_path / "docs"
    src.mkdir()
    conf = "extensions = ['generator.sphinx']\nproject = 'probe'\n" + extra_conf
    if setting is not None:
        conf += f"llm_status_codes_catalog = {setting!r}\n"
    (src / "conf.py").write_text(conf, encoding="utf-8")
    (src / "index.rst").write_text("Probe\n=====\n\n" + body, encoding="utf-8")
    return src, tmp_path / "html"


def sphinx_build(src, out, *extra, cwd=ROOT, env=None):
    return subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-q", *extra, str(src), str(out)],
                          capture_output=True, text=True, cwd=cwd, env=env, timeout=600)


def test_a_wrong_catalog_path_is_one_warning_naming_the_setting_and_the_path(tmp_path):
    src, out = project(tmp_path, ".. llm-status-codes::\n   :lang: en\n", "nope/catalog")
    result = sphinx_build(src, out)
    assert (
        "Traceback" not in result.stderr
        and "sphinx-doc" not in result.stderr
        and "Extension error" not in result.stderr
    )
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "llm_status_codes_catalog = 'nope/catalog' in conf.py" in lines[0]
    assert str(src / "nope" / "catalog") in lines[0] and "No such file or directory" in lines[0]
    assert "Unknown directive" not in result.stderr
    assert sphinx_build(src, tmp_path / "strict", "-W").returncode != 0  # a warning: -W builds fail on it


def test_a_catalog_that_is_a_fifo_is_named_too(tmp_path):
    fifo = tmp_path / "catalog.yaml"
    os.mkfifo(fifo)
    src, out = project(tmp_path, "Nothing.\n", "../catalog.yaml")
    result = sphinx_build(src, out)
    assert "Traceback" not in result.stderr and "sphinx-doc" not in result.stderr
    assert "llm_status_codes_catalog = '../catalog.yaml' in conf.py" in result.stderr and str(fifo) in result.stderr


def test_without_the_setting_the_directive_says_how_to_set_it(tmp_path):
    """As installed with pip: the package has no catalog beside it, so the setting is needed."""
    installed = tmp_path / "installed"
    shutil.copytree(ROOT / "generator", installed / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "templates", installed / "templates", ignore=shutil.ignore_patterns("__pycache__"))
    src, out = project(tmp_path, ".. llm-status-codes::\n   :lang: en\n\n.. hixl-status-codes::\n", None)
    env = dict(os.environ, PYTHONPATH=str(installed))
    probe = subprocess.run([sys.executable, "-c", "import generator; print(generator.__file__)"],
                           capture_output=True, text=True, cwd=tmp_path, env=env)
    assert probe.stdout.startswith(str(installed)), probe  # the copy, not the checkout, is imported
    result = sphinx_build(src, out, cwd=tmp_path, env=env)
    assert "Unknown directive type" not in result.stderr and "Traceback" not in result.stderr
    said = [line for line in result.stderr.splitlines() if "set llm_status_codes_catalog in conf.py" in line]
    assert len(said) == 2, result.stderr
    assert re.search(r"index\.rst:4: ERROR: llm-status-codes: ", said[0]) and "relative to conf.py" in said[0]
    assert "hixl-status-codes: " in said[1]


def _ids(html: str) -> Counter:
    return Counter(re.findall(r'\sid="([^"]+)"', html))


def test_three_identical_directives_repeat_no_html_id(tmp_path):
    body = "".join(".. demo-codes::\n   :edition: 2.0-new\n   :lang: en\n\n" for _ in range(3))
    src, out = project(tmp_path, body, str(MINI))
    result = sphinx_build(src, out, "-W")
    assert result.returncode == 0, result.stderr
    html = (out / "index.html").read_text(encoding="utf-8")
    assert html.count("<table") == 3
    repeated = {k: n for k, n in _ids(html).items() if n > 1}
    assert not repeated, repeated


def _long_texts_catalog(tmp_path):
    catalog = tmp_path / "catalog.yaml"
    text = MINI.read_text(encoding="utf-8")
    assert "en: Busy" in text
    catalog.write_text(
        text.replace(
            "en: Busy", f"en: 'Busy: see {LONG_URL} or call transfer_cache_async_with_retries_and_timeout'", 1
        ),
        encoding="utf-8",
    )
    return catalog


def test_long_urls_and_identifiers_may_break_and_stay_links(tmp_path):
    _long_texts_catalog(tmp_path)
    src, out = project(tmp_path, ".. demo-codes::\n   :edition: 2.0-new\n   :lang: en\n", "../catalog.yaml")
    assert sphinx_build(src, out, "-W").returncode == 0
    html = (out / "index.html").read_text(encoding="utf-8")
    link = re.search(rf'<a class="reference external" href="{re.escape(LONG_URL)}">(.*?)</a>', html)
    assert link, "the URL is a link"
    assert link.group(1).count("<wbr>") >= 10 and link.group(1).replace("<wbr>", "") == LONG_URL
    assert "transfer_<wbr>cache_<wbr>async_<wbr>with" in html
    text = subprocess.run([sys.executable, "-m", "sphinx", "-b", "text", "-q", str(src), str(tmp_path / "text")],
                          capture_output=True, text=True, cwd=ROOT)
    assert text.returncode == 0 and "<wbr>" not in (tmp_path / "text" / "index.txt").read_text(encoding="utf-8")


@pytest.mark.browser
def test_the_table_fits_alabaster_at_1280_px(tmp_path):
    from playwright.sync_api import sync_playwright

    from tests.support.browser import CHROMIUM, FLAGS

    _long_texts_catalog(tmp_path)
    src, out = project(tmp_path, ".. demo-codes::\n   :edition: 2.0-new\n   :lang: en\n", "../catalog.yaml",
                       extra_conf="html_theme = 'alabaster'\n")
    assert sphinx_build(src, out, "-W").returncode == 0
    assert os.access(CHROMIUM, os.X_OK), f"{CHROMIUM} is missing: run `make test`, which installs it"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto((out / "index.html").as_uri())
        widths = page.evaluate(
            "() => [document.documentElement.scrollWidth, document.querySelector('table').scrollWidth,"
            " document.querySelector('div.body').clientWidth]"
        )
        browser.close()
    page_width, table_width, body_width = widths
    assert page_width <= 1280 and table_width <= body_width, widths


def test_mending_an_invalid_catalog_brings_the_table_back_in_an_incremental_build(tmp_path):
    """The catalog's files are the document's dependencies also while it is invalid: a CI that keeps
    _build/ published pages without their tables after the catalog was mended."""
    shutil.copytree(ROOT / "catalog", tmp_path / "catalog")
    catalog = tmp_path / "catalog" / "llm_datadist" / "codes.yaml"
    good = catalog.read_text(encoding="utf-8")
    catalog.write_text(good.replace("value: 0x5010B01A", "value: 0x_", 1), encoding="utf-8")
    src, out = project(tmp_path, ".. llm-status-codes::\n   :edition: 9.1.0-v2\n   :lang: en\n", "../catalog")
    assert "is invalid" in sphinx_build(src, out).stderr
    assert "<table" not in (out / "index.html").read_text(encoding="utf-8")
    catalog.write_text(good, encoding="utf-8")
    result = sphinx_build(src, out)  # incremental: only the catalog changed
    assert result.returncode == 0, result.stderr
    assert "<table" in (out / "index.html").read_text(encoding="utf-8")
