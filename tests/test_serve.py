"""`serve` follows the catalog: a saved edit of a text reaches the served page."""
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

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
