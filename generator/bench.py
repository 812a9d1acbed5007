"""`make bench`: the generator's guards, as the CPU time of whole commands, and the time from a
saved catalog file to its page under `make serve`.

    python -m generator.bench [--repeat 5] [--codes 10000] [--only guards|save-to-page]

Each figure is the median of `--repeat` runs of one command (`python -m generator VERB`,
as a user or a pre-commit hook runs it), measured as the process's CPU time (user +
system, its children included), which another load on the machine changes much less than
it changes the wall clock. The guards:

- the real catalog: `generate` with nothing to write, and `check`: each at most 1.0 s;
- a synthetic catalog of 10,000 codes (bench_catalog.py): `generate` into an empty tree
  and `check` of that tree: each at most 3x the floor, the C-backed safe load of the same
  YAML files (what reading them costs at all).

The save-to-page time is wall time, as the author waits it: `python -m generator serve` runs in
a temporary copy of the repository (as `make serve` runs it, on a free port), a text of the
real catalog is saved, and the clock stops when the code's page, as MkDocs wrote it into the
served site, holds the new text (polled every 5 ms); the median of `--repeat` saves, at most
1.0 s.

It prints every figure, each guard's ratio, and `holds` or `BROKEN`; exit status 1 when a
guard is broken. `--only` runs one part: the CPU guards, or the save-to-page time.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Sequence

from generator.bench_catalog import synthetic_catalog

ROOT = Path(__file__).resolve().parent.parent
SAFE_LOAD = (
    "import sys\nfrom ruamel.yaml import YAML\ny = YAML(typ='safe', pure=False)\n"
    "for f in sys.argv[1:]:\n    y.load(open(f, encoding='utf-8'))\n"
)
REAL_LIMIT = 1.0  # seconds of CPU for the real catalog's generate and check
SYNTHETIC_LIMIT = 3.0  # times the safe-load floor, at 10,000 codes
SAVE_TO_PAGE_LIMIT = 1.0  # seconds of wall time from a saved catalog file to its page under serve
# The save the bench times: a text of the real catalog (in the one family file that holds it once), and the
# page (under the served site) that shows it.
SAVED_TEXT = "en: General failure\n"
SAVED_PAGE = "en/codes/LLM_FAILED/index.html"
PARTS = ("guards", "save-to-page")


def cpu_seconds(command: Sequence[str]) -> float:
    """The CPU time (user + system) of one command and the processes it waits for."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def median(command: Sequence[str], repeat: int, setup: Callable[[], None] = lambda: None) -> float:
    runs = []
    for _ in range(repeat):
        setup()  # not measured
        runs.append(cpu_seconds(command))
    return statistics.median(runs)


def generator(verb: str, *args: str) -> list[str]:
    return [sys.executable, "-m", "generator", verb, *args]


def real_catalog(repeat: int, scratch: Path) -> dict[str, float]:
    """The repository's catalog, generating into a tree of its own (so that a run finds its
    outputs current, as a user's usually does)."""
    out = scratch / "real"
    subprocess.run(generator("generate", "--out", str(out)), check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    return {"generate": median(generator("generate", "--out", str(out)), repeat),
            "check": median(generator("check", "--out", str(out)), repeat)}


def synthetic(codes: int, repeat: int, scratch: Path) -> dict[str, float]:
    catalog = synthetic_catalog(codes, scratch / f"catalog-{codes}")
    files = [str(p) for p in sorted(catalog.rglob("*.yaml"))]
    out, aside = scratch / f"out-{codes}", scratch / "aside"
    aside.mkdir()

    def empty_out() -> None:
        # Moved aside, not deleted: on a file system mounted with `discard` (this machine's),
        # deleting 20,000 files slows the next program's writes.
        if out.exists():
            out.rename(aside / str(len(list(aside.iterdir()))))

    where = ("--catalog", str(catalog), "--out", str(out))
    return {"safe load": median([sys.executable, "-c", SAFE_LOAD, *files], repeat),
            "generate (cold)": median(generator("generate", *where), repeat, setup=empty_out),
            "check": median(generator("check", *where), repeat),
            "outputs": float(sum(len(names) for _, _, names in os.walk(out)))}


def guards(real: dict[str, float], large: dict[str, float], codes: int) -> list[tuple[bool, str]]:
    """(holds, line) per guard."""
    lines = []
    for verb in ("generate", "check"):
        seconds = real[verb]
        lines.append((seconds <= REAL_LIMIT, f"real catalog, {verb}: {seconds:.3f} s (at most {REAL_LIMIT:.1f} s)"))
    floor = large["safe load"]
    for name in ("generate (cold)", "check"):
        ratio = large[name] / floor
        line = (f"{codes:,} codes, {name}: {large[name]:.3f} s = {ratio:.2f}x the safe load of its YAML, "
                f"{floor:.3f} s (at most {SYNTHETIC_LIMIT:.0f}x)")
        lines.append((ratio <= SYNTHETIC_LIMIT, line))
    return lines


def guard_lines(checked: list[tuple[bool, str]]) -> list[str]:
    """One line a guard: `holds` or `BROKEN`, aligned, then its figures."""
    return [f"{'holds ' if holds else 'BROKEN'} {line}" for holds, line in checked]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _copy_of_the_repository(scratch: Path) -> Path:
    """The checkout's files (not its git directory, virtualenv or built sites), to serve and edit."""
    skipped = shutil.ignore_patterns(".git", ".venv", "build", "build-offline", "build-offline.zip", "__pycache__",
                                     ".pytest_cache", ".hypothesis", ".artifacts")
    return Path(shutil.copytree(ROOT, scratch / "checkout", ignore=skipped))


def _wait_for(predicate, seconds: float, server: subprocess.Popen, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        if server.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"save-to-page: {what} (serve's exit status: {server.poll()})")
        time.sleep(0.005)


def _holds(page: Path, text: str) -> bool:
    try:
        return text in page.read_text(encoding="utf-8")
    except OSError:  # not built yet
        return False


def save_to_page(repeat: int, scratch: Path, settle: float = 3.0) -> float:
    """The median wall time from saving a text of the real catalog to the code's page, as MkDocs
    wrote it into the site `serve` serves, holding the new text."""
    checkout = _copy_of_the_repository(scratch)
    holding = [path for path in sorted((checkout / "catalog").glob("*/codes.yaml"))
               if path.read_text(encoding="utf-8").count(SAVED_TEXT) == 1]
    if len(holding) != 1:
        raise RuntimeError(f"save-to-page: no one catalog file holds {SAVED_TEXT!r} once: update SAVED_TEXT")
    saved = holding[0]
    original = saved.read_text(encoding="utf-8")
    temporary = scratch / "tmp"  # MkDocs builds the served site in a temporary directory: this one
    temporary.mkdir()
    env = dict(os.environ, TMPDIR=str(temporary), NO_MKDOCS_2_WARNING="1")
    server = subprocess.Popen(generator("serve", f"--dev-addr=127.0.0.1:{_free_port()}"), cwd=checkout, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def page() -> Path:
            built = sorted(temporary.glob("mkdocs_*"))
            return built[0] / SAVED_PAGE if built else temporary / "none"

        text = SAVED_TEXT.split(": ", 1)[1].strip()
        _wait_for(lambda: _holds(page(), text), 600, server, "the served site was not built")
        runs = []
        for run in range(repeat):
            time.sleep(settle)  # the previous save followed to its end (every family regenerated)
            new = f"{text} (save {run + 1})"
            edited = original.replace(SAVED_TEXT, SAVED_TEXT.replace(text, new))
            start = time.monotonic()
            saved.write_text(edited, encoding="utf-8")
            _wait_for(lambda: _holds(page(), new), 60, server, "the saved text never reached its page")
            runs.append(time.monotonic() - start)
        return statistics.median(runs)
    finally:
        server.terminate()
        server.wait(timeout=60)


def save_to_page_guard(seconds: float, repeat: int) -> tuple[bool, str]:
    return (seconds <= SAVE_TO_PAGE_LIMIT,
            f"save to page under serve, real catalog: {seconds:.3f} s wall, median of {repeat} saves "
            f"(at most {SAVE_TO_PAGE_LIMIT:.1f} s)")


def report(repeat: int, codes: int, parts: tuple[str, ...] = PARTS) -> tuple[str, bool]:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    lines, checked = [], []
    with tempfile.TemporaryDirectory(prefix="status-bench-") as scratch:
        if "guards" in parts:
            real = real_catalog(repeat, Path(scratch))
            large = synthetic(codes, repeat, Path(scratch))
            shutil.rmtree(Path(scratch) / "aside", ignore_errors=True)
            lines.append(f"CPU seconds (user + system), median of {repeat} runs; {cores} core(s) available, "
                         f"Python {sys.version.split()[0]}; {codes:,} codes make {int(large['outputs']):,} files")
            guarded = guards(real, large, codes)
            lines += guard_lines(guarded)
            checked += guarded
        if "save-to-page" in parts:
            guard = save_to_page_guard(save_to_page(repeat, Path(scratch)), repeat)
            lines.append(f"Wall seconds from a saved catalog file to its page under `make serve`; {cores} core(s)")
            lines += guard_lines([guard])
            checked.append(guard)
    return "\n".join(lines) + "\n", all(holds for holds, _ in checked)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m generator.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--codes", type=int, default=10_000, help="the synthetic catalog's size (default 10,000)")
    parser.add_argument("--only", choices=PARTS, action="append", default=None,
                        help="run only this part (repeat for several): the CPU guards, or the save-to-page time")
    args = parser.parse_args(argv)
    text, held = report(args.repeat, args.codes, tuple(args.only or PARTS))
    sys.stdout.write(text)
    return 0 if held else 1


if __name__ == "__main__":
    sys.exit(main())
