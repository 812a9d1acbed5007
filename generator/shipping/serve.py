"""`serve`: MkDocs' live-reloading server, following the catalog as well as the pages.

One process watches every file of the catalog and of the site's sources (polling their
mtimes and sizes). When the catalog changes, `generate` runs in this process (its imports
and caches stay warm) and rewrites the outputs whose bytes changed (atomically), then
MkDocs, also in this process, rebuilds only the pages whose sources changed
(generator/shipping/livesite.py says when the whole site is built instead), and the
browsers showing the site reload. An invalid catalog is reported
(PATH:LINE:COL, as `generate` says it), the site stays as it was, and the next save is
tried again. A change to the site's sources alone (`make generate` in another terminal,
after a template changed) rebuilds what changed too.

A save inside one family's folder regenerates that family first (its pages and the shared
files: what the reader waits for), lets the browsers reload, then regenerates every family,
which rewrites nothing unless another family's outputs read the saved file: the site is
then what a whole `generate` and a whole build give.
"""
from __future__ import annotations

import os
import sys
import re
import socketserver
import threading
from pathlib import Path
from typing import Callable, Optional

from generator.core.environment import require
from generator.shipping.sitebuild import checked_site_url, refuse_links, stat_files

Snapshot = dict[str, tuple[int, int]]
# generate(catalog, out, families or None for all) -> (exit status, the lines it printed)
Generate = Callable[[Path, Path, Optional[list[str]]], tuple[int, list[str]]]
EXIT_USAGE = 2
SETTLE = 0.05  # seconds without a further change before a rebuild starts
SITE_POLLS = 10  # the site's sources are polled at every tenth poll of the catalog
_COUNTS = re.compile(r"\b(\d+) written, (\d+) removed")  # generate's last line: what it wrote and removed


def snapshot(catalog: Path) -> Snapshot:
    """(mtime, size) of every file of the catalog; a file that vanishes mid-scan is left out."""
    return stat_files([catalog] if catalog.is_file() else sorted(p for p in catalog.rglob("*") if p.is_file()))


def saved_families(catalog: Path, before: Snapshot, now: Snapshot) -> Optional[list[str]]:
    """The folders of the catalog a save changed, when every changed file was there before and
    still is and lies in a family's folder (named as the family, as `import` writes them);
    None otherwise (a file at the top, a single-file catalog, a file added or removed)."""
    if not catalog.is_dir() or set(before) != set(now):
        return None
    folders = set()
    for path in (p for p in now if before[p] != now[p]):
        parts = Path(path).relative_to(catalog).parts
        if len(parts) != 2:
            return None
        folders.add(parts[0])
    return sorted(folders) or None


def summary_of(status: int, lines: list[str], changed: bool) -> str:
    """What a run of `generate` did, in one line."""
    if status != 0:
        return "serve: the catalog has problems (above); the pages stay as they were until the next save"
    summary = lines[-1] if lines else "generate done"
    counts = _COUNTS.search(summary)
    if changed:
        return f"serve: the catalog changed; {summary}"
    if counts and counts.groups() == ("0", "0"):
        return "serve: the pages match the catalog"
    return f"serve: the pages did not match the catalog; {summary}"


def _say(line: str) -> None:
    print(line, flush=True)


class Preview:
    """What the server runs at each change: regenerate, then rebuild what changed."""

    def __init__(self, catalog: Path, out: Path, generate: Generate, site, server=None):
        self.catalog, self.out, self.generate, self.site, self.server = catalog, out, generate, site, server
        self.catalog_seen: Snapshot = {}
        self.busy = threading.Lock()  # held while a change is being followed: the watcher waits

    def start(self, make_site) -> None:
        """The first generate, then the whole site (make_site() once the site's sources exist)."""
        self.catalog_seen = snapshot(self.catalog)
        status, lines = self.generate(self.catalog, self.out, None)
        _say(summary_of(status, lines, changed=False))
        refuse_links(self.out / "site")
        self.site = make_site()
        self.build()

    def follow(self) -> None:
        """The server's builder: runs after a change, in the server's main thread."""
        with self.busy:
            now = snapshot(self.catalog)
            if now != self.catalog_seen:
                before, self.catalog_seen = self.catalog_seen, now
                self._regenerate(saved_families(self.catalog, before, now))
            else:
                self.build()  # a change to the site's sources alone

    def _regenerate(self, families: Optional[list[str]]) -> None:
        status, lines = self.generate(self.catalog, self.out, families)
        if status == EXIT_USAGE and families:  # a folder that is no family's name: every family
            families = None
            status, lines = self.generate(self.catalog, self.out, None)
        _say(summary_of(status, lines, changed=True))
        if status != 0:
            return
        self.build()
        if families is None:
            return
        if self.server is not None:
            self.server.publish()  # the reader's page is there: browsers reload now
        status, lines = self.generate(self.catalog, self.out, None)
        written = _COUNTS.search(lines[-1] if lines else "")
        if status == 0 and written and written.groups() != ("0", "0"):
            _say(f"serve: the other families' outputs changed too; {lines[-1]}")
        if status == 0 and self.site_sources() != self.site.built:
            if self.server is not None:
                self.server.hold()  # pages wait for the rebuild, and browsers reload after it
            self.build()

    def build(self) -> None:
        line = self.site.update()
        if line:
            _say(line)

    def site_sources(self) -> Snapshot:
        from generator.shipping.livesite import site_sources

        return site_sources(self.site.site_dir)

    def pending(self, catalog: Snapshot, site: Snapshot) -> bool:
        """Whether the catalog or the site's sources changed since they were last followed."""
        return catalog != self.catalog_seen or site != self.site.built


def _server_class():
    from mkdocs.livereload import LiveReloadServer

    class Server(LiveReloadServer):
        """MkDocs' server, told of changes by this module's watcher (it never watches the files
        a rebuild writes, so a rebuild never starts another), and able to let the browsers
        reload before the builder returns. Uses the state of mkdocs.livereload 1.6.1 (pinned)."""

        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self._start_lock = threading.Lock()
            self._stopping = self._serving = False

        def serve_forever(self, poll_interval: float = 0.5) -> None:
            """MkDocs' serving thread; it does not begin once shutdown has (a signal can come after
            the thread was started and before it runs, and the socket is closed by then)."""
            with self._start_lock:
                if self._stopping:
                    return
                self._serving = True
            super().serve_forever(poll_interval)

        def shutdown(self, wait: bool = False) -> None:
            """MkDocs' shutdown, which asks serve_forever to end only when its thread is marked
            alive: here it is asked whenever serve_forever began, and waited for."""
            with self._start_lock:
                self._stopping = True
                serving = self._serving
            if serving:
                socketserver.BaseServer.shutdown(self)  # returns once serve_forever has ended
            super().shutdown(wait)

        def rebuild_soon(self) -> None:
            with self._rebuild_cond:
                self._want_rebuild = True
                self._rebuild_cond.notify_all()

        def publish(self) -> None:
            """Serve the site as it is now: pages wait no longer, browsers reload."""
            with self._epoch_cond:
                self._visible_epoch = self._wanted_epoch
                self._epoch_cond.notify_all()

        def hold(self) -> None:
            """Pages wait until the builder returns (the site is about to change again)."""
            with self._epoch_cond:
                self._wanted_epoch = self._visible_epoch + 1

    return Server


def watch(preview: Preview, server, interval: float, stop: threading.Event) -> None:
    """Poll the catalog every `interval` seconds and the site's sources every SITE_POLLS of them
    (a tenth of the work each), while no rebuild runs: a change not followed yet starts a
    rebuild, and each further change before it starts delays it (the server waits SETTLE
    seconds after the last, so that an editor finishes saving)."""
    last, site, polls = None, None, 0
    while not stop.wait(interval):
        if not preview.busy.acquire(blocking=False):
            last = site = None  # the rebuild under way takes what it finds; what changed after, it leaves
            continue
        try:
            if site is None or polls % SITE_POLLS == 0:
                site = preview.site_sources()
            polls += 1
            now = (snapshot(preview.catalog), site)
            pending = preview.pending(*now)
        finally:
            preview.busy.release()
        if pending and now != last:
            server.rebuild_soon()
        last = now


def serve(catalog: Path, out: Path, dev_addr: str, interval: float = 0.025, generate: Optional[Generate] = None) -> int:
    catalog = catalog.resolve()
    if os.environ.get("SITE_URL"):  # MkDocs reads it from the environment (site/mkdocs.yml)
        checked_site_url(os.environ["SITE_URL"])
    require("mkdocs")
    from generator.shipping.livesite import LiveSite, log_as_mkdocs_does

    if generate is None:
        raise ValueError("serve runs generate at each save: pass the function")
    os.environ["NO_MKDOCS_2_WARNING"] = "1"
    sys.dont_write_bytecode = True  # MkDocs imports the site's hook: no bytecode beside it, in site/hooks
    log_as_mkdocs_does()
    preview = Preview(catalog, out, generate, site=None)
    stop = threading.Event()
    try:
        preview.start(lambda: LiveSite(out / "site", dev_addr))
        site = preview.site
        preview.server = server = _server_class()(builder=preview.follow, host=site.host, port=site.port,
                                                  root=site.build_dir, mount_path=site.mount_path)
        server.error_handler = site.page_not_found
        server.build_delay = SETTLE
        server._watched_paths[str(catalog)] = 1  # pages get the live-reload script (mkdocs.livereload 1.6.1)
        _say(f"serve: watching {catalog} for changes")
        threading.Thread(target=watch, args=(preview, server, interval, stop), daemon=True).start()
        server.serve()
        return 0
    except KeyboardInterrupt:
        return 0
    finally:
        stop.set()
        if preview.server is not None:
            preview.server.shutdown()
        if preview.site is not None:
            preview.site.close()
