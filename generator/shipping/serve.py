"""`serve`: MkDocs' live-reloading server, following the catalog as well as the pages.

`mkdocs serve` rebuilds and reloads the browser when a page under site/docs changes;
it knows nothing of the catalog the pages come from. This runs it as a child process
and watches every file of the catalog: when one changes, `generate` rewrites the
outputs that changed (atomically, so MkDocs never sees half a page), MkDocs sees
them change and reloads the browser. An invalid catalog is reported, the pages stay
as they were, and the next save is tried again.
"""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from generator.core.environment import require
from generator.shipping.sitebuild import checked_site_url, refuse_links

Snapshot = dict[str, tuple[int, int]]


def snapshot(catalog: Path) -> Snapshot:
    """(mtime, size) of every file of the catalog; a file that vanishes mid-scan is left out."""
    paths = [catalog] if catalog.is_file() else sorted(p for p in catalog.rglob("*") if p.is_file())
    seen: Snapshot = {}
    for path in paths:
        try:
            info = path.stat()
        except OSError:
            continue
        seen[str(path)] = (info.st_mtime_ns, info.st_size)
    return seen


def regenerate(catalog: Path, out: Path, changed: bool = True) -> int:
    """`generate`, and one line on what it did: `changed` when a catalog file was saved, else
    (at the start) whether the pages were already current."""
    result = subprocess.run(
        [sys.executable, "-m", "generator", "generate", "--catalog", str(catalog), "--out", str(out)],
        capture_output=True,
        text=True,
    )
    lines = result.stdout.strip().splitlines()
    if result.returncode == 0:
        summary = lines[-1] if lines else "generate done"
        counts = re.search(r"\b(\d+) written, (\d+) removed", summary)
        if changed:
            print(f"serve: the catalog changed; {summary}", flush=True)
        elif counts and counts.groups() == ("0", "0"):
            print("serve: the pages match the catalog", flush=True)
        else:
            print(f"serve: the pages did not match the catalog; {summary}", flush=True)
    else:
        sys.stderr.write(result.stderr)
        print("serve: the catalog has problems (above); the pages stay as they were until the next save", flush=True)
    return result.returncode


def serve(catalog: Path, out: Path, dev_addr: str, interval: float = 0.3) -> int:
    catalog = catalog.resolve()
    if os.environ.get("SITE_URL"):  # MkDocs reads it from the environment (site/mkdocs.yml)
        checked_site_url(os.environ["SITE_URL"])
    require("mkdocs")
    regenerate(catalog, out, changed=False)
    refuse_links(out / "site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    # A shell starts a background job (`make serve &`) with SIGINT ignored, and MkDocs would
    # inherit that and ignore the SIGINT that stops it (then a kill, ten seconds later): it gets
    # the default back, and stops as it does on Ctrl-C, removing its temporary site.
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "serve",
            "--config-file",
            str(out / "site" / "mkdocs.yml"),
            "--dev-addr",
            dev_addr,
        ],
        env=env,
        preexec_fn=_default_sigint,
    )
    print(f"serve: watching {catalog} for changes", flush=True)
    before = snapshot(catalog)
    try:
        while server.poll() is None:
            time.sleep(interval)
            now = snapshot(catalog)
            if now != before:
                time.sleep(interval)  # let an editor finish saving (several files, or write-then-rename)
                before = snapshot(catalog)
                regenerate(catalog, out)
        return server.returncode
    except KeyboardInterrupt:
        return 0
    finally:
        stop(server)


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def stop(server: subprocess.Popen) -> None:
    """Stop MkDocs as Ctrl-C does (it removes its temporary site), then harder if it lingers."""
    steps = ((lambda: server.send_signal(signal.SIGINT), 5, "SIGINT"), (server.terminate, 2, "SIGTERM"),
             (server.kill, None, "SIGKILL"))
    for send, grace, name in steps:
        if server.poll() is not None:
            return
        send()
        try:
            server.wait(timeout=grace)
            return
        except subprocess.TimeoutExpired:
            print(f"serve: MkDocs did not stop {grace} s after {name}; stopping it harder", file=sys.stderr, flush=True)
            continue
