"""Building a generated site with MkDocs, for the tests: as `make publish` builds it."""
from __future__ import annotations

import functools
import os
import re
import subprocess
from pathlib import Path
from typing import Optional

import markdown

from generator.shipping.publish import mkdocs_build
from tests.support.helpers import ROOT


def build_site(site_dir: Path, dest: Path, site_url: Optional[str] = None) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` into dest (see generator.shipping.sitebuild.mkdocs_build); raises with
    the log on failure."""
    result = mkdocs_build(site_dir, dest, site_url, timeout=600)
    if result.returncode != 0:
        raise AssertionError(f"mkdocs build failed:\n{result.stdout}\n{result.stderr}")
    return result


@functools.lru_cache(maxsize=1)
def mkdocs_markdown() -> tuple[tuple[str, ...], dict]:
    """The Markdown extensions MkDocs runs on the site's pages, and their settings: its own
    (toc, tables, fenced_code) and site/mkdocs.yml's (attr_list, admonition, ...)."""
    from mkdocs.config import load_config

    config = load_config(config_file=str(ROOT / "site" / "mkdocs.yml"))
    return tuple(config["markdown_extensions"]), dict(config["mdx_configs"])


def page_html(md_text: str) -> str:
    """A page's Markdown (its front matter dropped) as HTML, with MkDocs' Markdown extensions."""
    body = re.sub(r"\A---\n.*?\n---\n", "", md_text, flags=re.S)
    extensions, configs = mkdocs_markdown()
    return markdown.markdown(body, extensions=list(extensions), extension_configs=configs)


# The committed site, built once per test run for every test that serves it: for this URL, whose
# path is the sub-path the tests serve it under (tests/support/browser.py SUB_PATH).
SHARED_SITE_URL = "https://example.org/llm/"


def shared_site(tmp_path_factory) -> Path:
    """The directory to serve (it holds the site under SUB_PATH): built by the first test
    process that asks, under a lock that the others wait on (pytest-xdist's workers share the
    base temporary directory's parent)."""
    import fcntl

    from tests.support.browser import SUB_PATH

    base = tmp_path_factory.getbasetemp()
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "shared-site"
    shared.mkdir(exist_ok=True)
    done = shared / "built"
    with open(shared / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not done.exists():
                build_site(ROOT / "site", shared / SUB_PATH.strip("/"), site_url=SHARED_SITE_URL)
                done.write_text("yes\n", encoding="utf-8")
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return shared
