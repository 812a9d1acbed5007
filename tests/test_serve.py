"""`serve` follows the catalog: a saved edit of a text reaches the served page, rebuilding only the
pages whose sources changed, as a whole build has them; an invalid save leaves the site as it was."""
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from tests.support.helpers import MINI, ROOT

pytestmark = pytest.mark.slow  # runs MkDocs' server


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def fetch(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read().decode("utf-8")
    except OSError:
        return ""


def wait_for(predicate, seconds: float):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    return None


def test_editing_a_catalog_text_changes_the_served_page_within_ten_seconds(tmp_path):
    catalog = tmp_path / "catalog.yaml"
    shutil.copy(MINI, catalog)
    out = tmp_path / "out"
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "generator", "serve", "--catalog", str(catalog), "--out", str(out),
                               "--dev-addr", f"127.0.0.1:{port}"], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    page = f"http://127.0.0.1:{port}/en/codes/DEMO_BUSY/"
    try:
        assert wait_for(lambda: "Too many requests." in fetch(page), 60), "the server did not come up"
        catalog.write_text(catalog.read_text(encoding="utf-8").replace("en: Too many requests.",
                                                                        "en: Far too many requests."), encoding="utf-8")
        edited = time.monotonic()
        assert wait_for(lambda: "Far too many requests." in fetch(page), 10), "the page did not follow the catalog"
        print(f"the served page changed {time.monotonic() - edited:.1f} s after the catalog was saved")
        # a broken save is reported and the last good pages stay served
        catalog.write_text(catalog.read_text(encoding="utf-8").replace("codes:\n", "codes: [\n", 1), encoding="utf-8")
        time.sleep(2)
        assert "Far too many requests." in fetch(page)
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=30)
    assert "the catalog has problems" in output and f"{catalog}:" in output
    assert "Traceback" not in output


# -- a save rebuilds the pages whose sources changed, and only those, as a full build has them ---------------


class Serving:
    """`serve` of a copy of the mini catalog, its served site found on disk (MkDocs builds it in
    a temporary directory: TMPDIR is one of the test's), its output read as it comes."""

    def __init__(self, tmp_path, catalog: Path = MINI, saved: str = ""):
        if catalog.is_dir():
            self.catalog = Path(shutil.copytree(catalog, tmp_path / "catalog"))
            self.saved = self.catalog / saved
        else:
            self.catalog = self.saved = tmp_path / "catalog.yaml"
            shutil.copy(catalog, self.catalog)
        self.out = tmp_path / "out"
        self.temporary = tmp_path / "tmp"
        self.temporary.mkdir()
        self.port = free_port()
        self.lines: list[str] = []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "generator", "serve", "--catalog", str(self.catalog), "--out", str(self.out),
             "--dev-addr", f"127.0.0.1:{self.port}"], cwd=ROOT, env=dict(os.environ, TMPDIR=str(self.temporary)),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        threading.Thread(target=lambda: self.lines.extend(self.process.stdout), daemon=True).start()

    @property
    def site(self) -> Path:
        built = list(self.temporary.glob("mkdocs_*"))
        assert len(built) == 1, built
        return built[0]

    def said(self, start: str, after: int = 0, seconds: float = 120) -> str:
        """The first line from `after` on that starts so, waited for."""
        found = wait_for(lambda: next((line for line in self.lines[after:] if line.startswith(start)), None), seconds)
        assert found, f"serve never said {start!r}:\n" + "".join(self.lines)
        return found

    def save(self, old: str, new: str) -> int:
        """Replace a text in the catalog; the number of lines said before the save."""
        said = len(self.lines)
        text = self.saved.read_text(encoding="utf-8")
        assert old in text
        self.saved.write_text(text.replace(old, new, 1), encoding="utf-8")
        return said

    def stop(self) -> str:
        self.process.terminate()
        self.process.wait(timeout=60)
        return "".join(self.lines)


@pytest.fixture
def serving(tmp_path, request):
    serving = Serving(tmp_path, *getattr(request, "param", ()))
    try:
        serving.said("serve: built the whole site")
        serving.said("serve: watching")
        yield serving
    finally:
        serving.stop()


def html_of(markdown: Path, docs: Path) -> str:
    """Where MkDocs (with mkdocs-static-i18n's suffixes) writes a page: codes/X.en.md -> en/codes/X/index.html."""
    stem, lang = markdown.relative_to(docs).with_suffix("").with_suffix(""), markdown.suffixes[-2][1:]
    parts = [] if lang == "zh" else [lang]
    parts += [p for p in stem.parts if stem.name != "index" or p != "index"]
    return "/".join([*parts, "index.html"])


def mtimes(root: Path, pattern: str = "*.html") -> dict[str, int]:
    """Each file's mtime, but the 404 pages' (every build renders them, as MkDocs does its theme's templates)."""
    return {p.relative_to(root).as_posix(): p.stat().st_mtime_ns for p in root.rglob(pattern) if p.name != "404.html"}


def full_build(serving: Serving, dest: Path) -> Path:
    from generator.shipping.sitebuild import mkdocs_build

    built = mkdocs_build(serving.out / "site", dest, f"http://127.0.0.1:{serving.port}/")
    assert built.returncode == 0, built.stderr
    return dest


def test_a_save_rebuilds_only_the_pages_whose_sources_changed_as_a_full_build_has_them(serving, tmp_path):
    docs = serving.out / "site" / "docs"
    pages_before, sources_before = mtimes(serving.site), mtimes(docs, "*.md")
    said = serving.save("en: Too many requests.", "en: Far too many requests.")
    rebuilt = serving.said("serve: rebuilt ", said)
    changed = {p for p, mtime in mtimes(docs, "*.md").items() if sources_before.get(p) != mtime}
    expected = {html_of(docs / p, docs) for p in changed}
    assert "en/codes/DEMO_BUSY/index.html" in expected and len(expected) < len(pages_before) / 2, expected
    pages_after = mtimes(serving.site)
    assert {p for p in pages_after if pages_after[p] != pages_before.get(p)} == expected
    assert rebuilt.startswith(f"serve: rebuilt {len(expected)} page(s)"), rebuilt
    # what the server serves is what a whole build of the same pages gives, for every page and the sitemaps
    full = full_build(serving, tmp_path / "full")
    for page in sorted(expected) + ["index.html", "sitemap.xml", "en/sitemap.xml"]:
        assert (serving.site / page).read_bytes() == (full / page).read_bytes(), page
    assert "Far too many requests." in fetch(f"http://127.0.0.1:{serving.port}/en/codes/DEMO_BUSY/")


@pytest.mark.parametrize("serving", [(ROOT / "tests" / "fixtures" / "upstream" / "catalog", "llm_datadist/codes.yaml")],
                         indirect=True, ids=["a catalog folder"])
def test_a_save_in_a_familys_folder_ends_as_a_full_generate_and_build_give(serving, tmp_path):
    """That family first (the reader's page), then every family: the site is a whole build's."""
    docs = serving.out / "site" / "docs"
    sources_before = mtimes(docs, "*.md")
    said = serving.save("en: A UCE (uncorrectable error) occurred", "en: An uncorrectable error occurred")
    serving.said("serve: the catalog changed; generate: ", said)
    serving.said("serve: rebuilt ", said)
    # every family regenerated too: MkDocs' server says it reloads the browsers once the builder returns
    assert wait_for(lambda: any("Reloading browsers" in line for line in serving.lines[said:]), 60)
    changed = {p for p, mtime in mtimes(docs, "*.md").items() if sources_before.get(p) != mtime}
    assert changed and all(".en." in p for p in changed), changed
    full = full_build(serving, tmp_path / "full")
    for page in sorted(html_of(docs / p, docs) for p in changed):
        assert (serving.site / page).read_bytes() == (full / page).read_bytes(), page
    assert sorted(p.relative_to(full).as_posix() for p in full.rglob("*.html")) == \
        sorted(p.relative_to(serving.site).as_posix() for p in serving.site.rglob("*.html"))


def test_an_invalid_save_is_reported_and_the_last_good_site_stays_served(serving, tmp_path):
    page = serving.site / "en" / "codes" / "DEMO_BUSY" / "index.html"
    before = page.read_bytes()
    said = serving.save("codes:\n", "codes: [\n")
    serving.said("serve: the catalog has problems", said)
    problem = next(line for line in serving.lines[said:] if line.startswith(f"{serving.catalog}:"))
    assert re.match(rf"{re.escape(str(serving.catalog))}:\d+:\d+", problem), problem
    time.sleep(1)  # a rebuild, were there one, would have written by now (the test fails if it did)
    assert page.read_bytes() == before
    assert "Too many requests." in fetch(f"http://127.0.0.1:{serving.port}/en/codes/DEMO_BUSY/")
    # the next good save is followed from the last good site, to what a whole build gives
    said = serving.save("codes: [\n", "codes:\n")
    said = serving.save("en: Too many requests.", "en: Far fewer requests.")
    serving.said("serve: rebuilt ", said)
    full = full_build(serving, tmp_path / "full")
    assert page.read_bytes() == (full / "en" / "codes" / "DEMO_BUSY" / "index.html").read_bytes()
    assert "Traceback" not in serving.stop()


def test_a_save_in_one_familys_folder_regenerates_that_family_first(tmp_path):
    from generator.shipping.serve import saved_families, snapshot

    catalog = tmp_path / "catalog"
    for name in ("site.yaml", "one/codes.yaml", "one/family.yaml", "two/codes.yaml"):
        (catalog / name).parent.mkdir(parents=True, exist_ok=True)
        (catalog / name).write_text("x: 1\n")

    def after(*saves: str, added: str = "") -> list | None:
        before = snapshot(catalog)
        for name in saves:  # appended: the size changes too
            (catalog / name).write_text((catalog / name).read_text() + "y: 2\n")
        if added:
            (catalog / added).write_text("z: 3\n")
        try:
            return saved_families(catalog, before, snapshot(catalog))
        finally:
            if added:
                (catalog / added).unlink()

    assert after("one/codes.yaml") == ["one"]
    assert after("one/codes.yaml", "two/codes.yaml") == ["one", "two"]
    assert after("site.yaml") is None  # the site's file: every family at once
    assert after("one/codes.yaml", "site.yaml") is None
    assert after(added="one/editions.yaml") is None  # a file added: every family at once
    assert after() is None  # nothing saved
    assert saved_families(catalog / "site.yaml", {}, {}) is None  # a catalog of one file


@pytest.mark.parametrize("began", [False, True], ids=["before serve_forever began", "while serving"])
def test_shutdown_leaves_no_traceback_in_the_serving_thread(tmp_path, began):
    """A signal can stop serve after MkDocs started its serving thread and before the thread runs:
    the thread then must not serve on the closed socket (it raised ValueError, printed as a
    traceback). Stopped while serving, the thread ends and the port is free."""
    pytest.importorskip("mkdocs")
    from generator.shipping.serve import _server_class

    failures = []
    previous, threading.excepthook = threading.excepthook, failures.append
    try:
        server = _server_class()(builder=lambda: None, host="127.0.0.1", port=0, root=str(tmp_path))
        server.server_bind()
        server.server_activate()
        port = server.server_address[1]
        if began:
            server.serve_thread.start()
            deadline = time.monotonic() + 30
            while not server._serving and time.monotonic() < deadline:
                time.sleep(0.01)
            server.shutdown()
            server.serve_thread.join(30)
        else:
            server.shutdown()  # the signal came first ...
            server.serve_thread.start()  # ... the thread runs after it
            server.serve_thread.join(30)
        assert not server.serve_thread.is_alive()
    finally:
        threading.excepthook = previous
    assert failures == [], [f.exc_value for f in failures]
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", port))  # nothing serves on it any more
