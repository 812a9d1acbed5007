"""Building a generated site with MkDocs, for the tests: as `make publish` builds it."""
from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Optional

from generator.shipping.publish import mkdocs_build


def build_site(site_dir: Path, dest: Path, site_url: Optional[str] = None) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` into dest (see generator.shipping.publish.mkdocs_build); raises with
    the log on failure."""
    result = mkdocs_build(site_dir, dest, site_url, timeout=600)
    if result.returncode != 0:
        raise AssertionError(f"mkdocs build failed:\n{result.stdout}\n{result.stderr}")
    return result
