"""Building the site with MkDocs, as `docs`, `serve` and `publish` do: the one place that checks
what a build is given and where it writes.

- SITE_URL lands in every page (canonical links, the 404 page, the sitemaps) as it is written,
  so it must be an http(s) address with a host and nothing HTML or a shell would read: no
  quotes, angle brackets, spaces or control characters (percent-encode them).
- MkDocs copies what site/ holds into the built site, following symbolic links: a committed
  link to /proc/self/environ or to a file outside the checkout would be published. The site's
  sources hold no link, nor anything that is neither a file nor a directory (a FIFO hangs it).
- `docs` builds into site/build/, which MkDocs first empties: a site/build that is a link (or
  holds one) would empty and fill a directory outside the checkout. It must be a directory of
  the checkout, or not exist. So must site/build-offline/, which `docs` empties and fills
  with the offline copy (generator/shipping/offline.py), and site/build-offline.zip be a
  file, or not exist.
"""
from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path
from typing import Iterable, Optional, Union
from urllib.parse import urlsplit

from generator.core.environment import require
from generator.core.exits import OutputError, UsageError
from generator.shipping.offline import ARCHIVE, OFFLINE_DIR, offline_copy, write_archive

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


def _shown(path: Path) -> str:
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return str(path)
    return str(path) if relative.startswith("..") else relative


def refuse_links(site_dir: Path, skip: tuple[str, ...] = ("build", OFFLINE_DIR, ARCHIVE)) -> None:
    """OutputError unless site_dir (but its top-level `skip` entries: the built site) holds only
    directories and regular files, none of them a symbolic link."""
    def refuse(path: Path, what: str) -> None:
        raise OutputError(
            f"{_shown(path)} is {what}; the site is built only from the checkout's own files "
            "(MkDocs would copy what it points to into the site): remove it, or put the file itself there"
        )

    if site_dir.is_symlink():
        refuse(site_dir, "a symbolic link")
    if not site_dir.exists():
        return  # nothing to read (MkDocs says so when it looks for mkdocs.yml)
    for directory, subdirectories, files in os.walk(site_dir, onerror=_raise):
        here = Path(directory)
        if here == site_dir:
            subdirectories[:] = [d for d in subdirectories if d not in skip]
            files = [f for f in files if f not in skip]
        for name in [*subdirectories, *files]:
            mode = os.lstat(here / name).st_mode
            if stat.S_ISLNK(mode):
                refuse(here / name, "a symbolic link")
            if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
                refuse(here / name, "neither a file nor a directory (a FIFO, a socket, a device)")


def _raise(error: OSError) -> None:
    raise error


def stat_files(paths: Iterable[Union[str, Path]]) -> dict[str, tuple[int, int]]:
    """(mtime, size) of each file, as `serve` watches the catalog and the site's sources for changes;
    a file that vanishes mid-scan is left out."""
    seen = {}
    for path in paths:
        try:
            info = os.stat(path)
        except OSError:
            continue
        seen[str(path)] = (info.st_mtime_ns, info.st_size)
    return seen


def checked_build_dir(build: Path) -> Path:
    """site/build/ as `docs` may empty and fill it: absent, or a directory of the checkout that
    holds no link (MkDocs keeps hidden entries such as .git and never writes into them)."""
    how = f"remove it (`make clean` removes {_shown(build)})"
    if build.is_symlink():
        raise OutputError(f"{_shown(build)} is a symbolic link; the site is built only into a directory of the "
                          f"checkout, never through a link to another: {how}")
    if not build.exists():
        return build
    if not build.is_dir():
        raise OutputError(f"{_shown(build)} is not a directory; {how}")
    for directory, subdirectories, files in os.walk(build, onerror=_raise):
        here = Path(directory)
        if here == build:
            subdirectories[:] = [d for d in subdirectories if not d.startswith(".")]
            files = [f for f in files if not f.startswith(".")]
        for name in [*subdirectories, *files]:
            if (here / name).is_symlink():
                raise OutputError(f"{_shown(here / name)} is a symbolic link inside the build directory, "
                                  f"which MkDocs would write through; {how}")
    return build


def mkdocs_build(site_dir: Path, dest: Path, site_url: Optional[str], timeout: Optional[float] = None,
                 capture: bool = True) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` of site_dir/mkdocs.yml into dest, for the address `site_url`
    (SITE_URL; None builds without one, whatever the environment says, as `make docs`
    does on a machine without SITE_URL), once the site's sources are checked. Returns the
    finished process."""
    if site_url:
        site_url = checked_site_url(site_url)
    refuse_links(site_dir)
    require("mkdocs")  # the docs extra: said in one line here, not by the child's traceback
    # MkDocs imports the site's hook (site/hooks/site.py): its bytecode must not land beside it, in a
    # folder the generator owns (the checkout stays as it was; nothing there is left unowned)
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONDONTWRITEBYTECODE="1")
    env.pop("SITE_URL", None)
    if site_url:
        env["SITE_URL"] = site_url
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--config-file",
            str(site_dir / "mkdocs.yml"),
            "--site-dir",
            str(dest),
        ],
        capture_output=capture,
        text=True,
        env=env,
        timeout=timeout,
    )


def checked_archive(archive: Path) -> Path:
    """The offline copy's zip as `docs` may replace it: absent, or a file that is no link."""
    if archive.is_symlink() or (archive.exists() and not archive.is_file()):
        raise OutputError(f"{_shown(archive)} is a symbolic link or not a file; `docs` replaces it with the "
                          f"offline copy's zip: remove it (`make clean` removes {_shown(archive)})")
    return archive


def build_docs(site_dir: Path, site_url: str) -> int:
    """`make docs`: the site into site_dir/build/, for SITE_URL when it is set, then its offline
    copy into site_dir/build-offline/ and a zip of it (generator/shipping/offline.py); MkDocs'
    exit status."""
    url = checked_site_url(site_url) if site_url else None
    build = checked_build_dir(site_dir / "build")
    offline = checked_build_dir(site_dir / OFFLINE_DIR)
    archive = checked_archive(site_dir / ARCHIVE)
    status = mkdocs_build(site_dir, build, url, capture=False).returncode
    if status == 0:
        offline_copy(build, offline)
        write_archive(offline, archive)
        print(f"The offline copy (open {_shown(offline / 'index.html')} from disk): {_shown(offline)}/, "
              f"zipped as {_shown(archive)}")
    return status
