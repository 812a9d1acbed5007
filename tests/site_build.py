"""Building a generated site with MkDocs, for the tests."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Optional


def build_site(site_dir: Path, dest: Path, site_url: Optional[str] = None) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` of site_dir/mkdocs.yml into dest; raises with the log on failure.
    `site_url` is the address the site is published at (SITE_URL); None builds without one,
    whatever the environment says, as `make docs` does on a machine without SITE_URL."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    env.pop("SITE_URL", None)
    if site_url is not None:
        env["SITE_URL"] = site_url
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(site_dir / "mkdocs.yml"),
         "--site-dir", str(dest)],
        capture_output=True, text=True, env=env, timeout=600,
    )
    if result.returncode != 0:
        raise AssertionError(f"mkdocs build failed:\n{result.stdout}\n{result.stderr}")
    return result
