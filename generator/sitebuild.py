"""Building the site with MkDocs, as `docs`, `serve` and `publish` do: the one place that checks
what a build is given and where it writes.

- SITE_URL lands in every page (canonical links, the 404 page, the sitemaps) as it is written,
  so it must be an http(s) address with a host and nothing HTML or a shell would read: no
  quotes, angle brackets, spaces or control characters (percent-encode them).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Optional
from urllib.parse import urlsplit

from generator.errors import UsageError

SITE_URL_EXAMPLE = "like https://example.org/llm/"
# What an address in an HTML attribute, a sitemap or a shell must never carry as it is.
_UNSAFE = re.compile(r"[\"'<>`\\{}|^\s\x00-\x1f\x7f]")
_HOST = re.compile(r"[a-z0-9]([a-z0-9.-]*[a-z0-9])?|[0-9a-f.]*:[0-9a-f:.]*")  # a name, or IPv6 (urlsplit drops the [])


def checked_site_url(value: str) -> str:
    """SITE_URL as the site uses it (ending in /), or a one-line UsageError saying what to write."""
    unsafe = _UNSAFE.search(value)
    if unsafe:
        raise UsageError(f"SITE_URL={value!r} holds {unsafe.group()!r}, which no address in a page may hold as it is; "
                         f"percent-encode it (%22 for \", %20 for a space) or leave it out")
    if not value.isascii():
        raise UsageError(f"SITE_URL={value!r} holds characters outside ASCII; percent-encode the path "
                         "and write the host in its xn-- form")
    parts = urlsplit(value)
    try:
        parts.port
    except ValueError:
        raise UsageError(f"SITE_URL={value!r} has a port that is not a number from 0 to 65535") from None
    if (parts.scheme not in ("http", "https") or "@" in parts.netloc or not _HOST.fullmatch(parts.hostname or "")
            or parts.query or parts.fragment):
        raise UsageError(f"SITE_URL={value!r} is not an http(s) address of a directory, {SITE_URL_EXAMPLE}")
    return value if value.endswith("/") else value + "/"


def mkdocs_build(site_dir: Path, dest: Path, site_url: Optional[str], timeout: Optional[float] = None,
                 capture: bool = True) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` of site_dir/mkdocs.yml into dest, for the address `site_url`
    (SITE_URL; None builds without one, whatever the environment says, as `make docs`
    does on a machine without SITE_URL). Returns the
    finished process."""
    if site_url:
        site_url = checked_site_url(site_url)
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    env.pop("SITE_URL", None)
    if site_url:
        env["SITE_URL"] = site_url
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(site_dir / "mkdocs.yml"),
                           "--site-dir", str(dest)], capture_output=capture, text=True, env=env, timeout=timeout)


def build_docs(site_dir: Path, site_url: str) -> int:
    """`make docs`: the site into site_dir/build/, for SITE_URL when it is set; MkDocs' exit status."""
    url = checked_site_url(site_url) if site_url else None
    return mkdocs_build(site_dir, site_dir / "build", url, capture=False).returncode
