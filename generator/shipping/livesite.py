"""The site as `serve` builds it: MkDocs in this process, the whole site when its shape changes,
else only the pages whose sources changed.

A page's HTML comes from its own Markdown, the navigation (site/mkdocs.yml), the theme and its
overrides, the hooks, and which pages exist (each page links its twin in the other language).
So when only files under site/docs/ changed, and none was added or removed, the pages whose
sources did not change would come out of a full build as they are: MkDocs' dirty build
renders the others, and copies the changed static files (the search indexes). Which files
changed is said here, from their (mtime, size) before and after, never guessed by MkDocs
from mtimes. Anything else (mkdocs.yml, overrides, hooks, a page added or removed) builds
the whole site. The hook writes the sitemaps from every page of the build, rendered or not.

MkDocs' theme templates are compiled once a process (a bytecode cache in memory, checked
against each template's source): compiling them again was half of a one-page rebuild.
"""
from __future__ import annotations

import contextlib
import logging
import os
import sys
import tempfile
from pathlib import Path
from typing import Optional
from urllib.parse import urlsplit

import jinja2
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.livereload import _serve_url
from mkdocs.plugins import BasePlugin, event_priority

from generator.shipping.sitebuild import stat_files

Sources = dict[str, tuple[int, int]]
FOLDERS = ("docs", "overrides", "hooks")  # what the site is built from, under site/, with mkdocs.yml


def site_sources(site_dir: Path) -> Sources:
    """(mtime, size) of every file the site is built from; a file that vanishes mid-scan is left out."""
    walked = (os.path.join(directory, file) for name in FOLDERS
              for directory, _, files in os.walk(site_dir / name) for file in files)
    return stat_files([site_dir / "mkdocs.yml", *walked])


def only_pages_changed(site_dir: Path, before: Sources, now: Sources) -> Optional[set[str]]:
    """The files that changed, when they are all existing files under docs/; None when the
    whole site must be built (a file added or removed, or a change outside docs/)."""
    if not before or set(before) != set(now):
        return None
    changed = {path for path in now if before[path] != now[path]}
    docs = str(site_dir / "docs") + os.sep
    return changed if all(path.startswith(docs) for path in changed) else None


class LiveSite:
    """The site built into a temporary directory, for a server to serve at `dev_addr`."""

    def __init__(self, site_dir: Path, dev_addr: str):
        self.site_dir = site_dir.resolve()
        self.config_file = str(self.site_dir / "mkdocs.yml")
        self.build_dir = tempfile.mkdtemp(prefix="mkdocs_")
        self.dev_addr = dev_addr
        self.built: Sources = {}
        self.templates = _CompiledTemplates()
        self.listings: dict[tuple[str, ...], list[str]] = {}
        first = load_config(config_file=self.config_file, site_dir=self.build_dir, dev_addr=dev_addr)
        self.host, self.port = first.dev_addr
        self.mount_path = urlsplit(first.site_url or "/").path
        self.url = _serve_url(self.host, self.port, self.mount_path)
        self.plugins = first.plugins
        first.plugins.on_startup(command="serve", dirty=False)  # as `mkdocs serve` does, once

    def update(self) -> Optional[str]:
        """Build what changed since the last build: a line saying what was built, or None when
        nothing changed. A build that fails is logged, and the next update builds everything."""
        now = site_sources(self.site_dir)
        if now == self.built:
            return None
        changed = only_pages_changed(self.site_dir, self.built, now)
        self.built = now
        try:
            pages = self.build(changed)
        except Exception as error:  # MkDocs' own errors, a hook's: the server goes on
            self.built = {}
            logging.getLogger("mkdocs").error(f"the site could not be built: {error}")
            return "serve: the site could not be built (above); it is built again at the next change"
        if changed is None:
            return f"serve: built the whole site ({pages} pages)"
        return f"serve: rebuilt {pages} page(s) whose sources changed ({len(changed)} file(s))"

    def build(self, changed: Optional[set[str]]) -> int:
        """One MkDocs build into the temporary directory: every page (changed None) or only those
        whose source is in `changed`. The number of pages rendered."""
        config = load_config(config_file=self.config_file, site_dir=self.build_dir, dev_addr=self.dev_addr)
        config.site_url = self.url
        only = _OnlyChanged(changed, self.templates, self.listings)
        config.plugins["serve-only-changed"] = only
        with _dirty_language_builds(changed is not None):
            build(config, serve_url=self.url, dirty=changed is not None)
        return only.pages

    def page_not_found(self, code: int) -> Optional[bytes]:
        """The site's own 404 page, as `mkdocs serve` answers with it."""
        page = Path(self.build_dir) / f"{code}.html"
        return page.read_bytes() if code in (404, 500) and page.is_file() else None

    def close(self) -> None:
        import shutil

        self.plugins.on_shutdown()
        shutil.rmtree(self.build_dir, ignore_errors=True)


class _CompiledTemplates(jinja2.BytecodeCache):
    """Jinja's bytecode of MkDocs' templates, in memory (a bucket checks its source's checksum)."""

    def __init__(self) -> None:
        self.codes: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self.codes:
            bucket.bytecode_from_string(self.codes[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.codes[bucket.key] = bucket.bytecode_to_string()


class _ListedLoader(jinja2.FileSystemLoader):
    """The theme's loader, listing its templates (every file of the theme's folders, which MkDocs
    copies) from `listings` when they were listed before: a third of a one-page rebuild."""

    def __init__(self, searchpath, listings: dict[tuple[str, ...], list[str]]) -> None:
        super().__init__(searchpath)
        self.listings = listings

    def list_templates(self) -> list[str]:
        key = tuple(str(path) for path in self.searchpath)
        if key not in self.listings:
            self.listings[key] = super().list_templates()
        return list(self.listings[key])


class _OnlyChanged(BasePlugin):
    """A plugin of one build: which files MkDocs takes as modified in a dirty build (those in
    `changed`), the compiled templates, the theme's listings (kept only while the theme's
    folders cannot have changed: a partial build), and a count of the pages rendered."""

    def __init__(self, changed: Optional[set[str]], templates: _CompiledTemplates,
                 listings: dict[tuple[str, ...], list[str]]) -> None:
        super().__init__()
        self.changed = changed
        self.templates = templates
        self.listings = listings
        if changed is None:
            listings.clear()
        self.pages = 0

    @event_priority(-1000)  # after mkdocs-static-i18n (-100) has set the theme of the language it builds
    def on_config(self, config):
        theme = config.theme
        make_env = type(theme).get_env.__get__(theme)

        def get_env() -> jinja2.Environment:
            env = make_env()
            env.loader = _ListedLoader(env.loader.searchpath, self.listings)
            env.bytecode_cache = self.templates
            return env

        theme.get_env = get_env
        return config

    @event_priority(-1000)  # after mkdocs-static-i18n (-100) has made the files of the language it builds
    def on_files(self, files, config):
        if self.changed is not None:
            for file in files:
                modified = file.abs_src_path is not None and os.path.normpath(file.abs_src_path) in self.changed
                file.is_modified = _TRUE if modified else _FALSE
        return files

    def on_post_page(self, output, page, config):
        self.pages += 1
        return output


def _TRUE() -> bool:
    return True


def _FALSE() -> bool:
    return False


@contextlib.contextmanager
def _dirty_language_builds(dirty: bool):
    """mkdocs-static-i18n builds the other languages dirty only when the command line says
    --dirty (it reads sys.argv): said so for the length of the build."""
    if not dirty or "--dirty" in sys.argv:
        yield
        return
    sys.argv.append("--dirty")
    try:
        yield
    finally:
        sys.argv.remove("--dirty")


class _QuietDirty(logging.Filter):
    """MkDocs warns at every dirty build that the navigation may be wrong, and mkdocs-static-i18n's
    build of the second language that the directory holds stale files: here neither is so (a
    change that can alter the navigation, or add or remove a file, builds the whole site)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith(("A 'dirty' build is being performed",
                                                   "The directory contains stale files"))


def log_as_mkdocs_does() -> None:
    """MkDocs' messages on standard error, as `mkdocs serve` prints them (INFO and up)."""
    logger = logging.getLogger("mkdocs")
    if any(getattr(handler, "serve", False) for handler in logger.handlers):
        return
    handler = logging.StreamHandler()
    handler.serve = True  # type: ignore[attr-defined]
    handler.setFormatter(logging.Formatter("%(levelname)-8s -  %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    logging.getLogger("mkdocs.commands.build").addFilter(_QuietDirty())
