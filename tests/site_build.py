"""Building a generated site with MkDocs, for the tests."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def build_site(site_dir: Path, dest: Path) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` of site_dir/mkdocs.yml into dest; raises with the log on failure."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(site_dir / "mkdocs.yml"),
         "--site-dir", str(dest)],
        capture_output=True, text=True, env=env, timeout=600,
    )
    if result.returncode != 0:
        raise AssertionError(f"mkdocs build failed:\n{result.stdout}\n{result.stderr}")
    return result
