"""`make bench`: validate, generate and check on synthetic catalogs of 100, 1,000 and
10,000 codes, against three floors for reading the same YAML: libyaml's events, the
composition of nodes with ruamel.yaml's C loader (how the generator starts reading),
and the C-backed safe load.

    python -m generator.bench [--sizes 100,1000,10000] [--repeat 5]

Prints one table of medians and ratios. Timings are wall-clock seconds of whole
commands (`python -m generator VERB`), as a pre-commit hook would see them.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable
from generator.bench_catalog import add_one_edition, change_one_text, synthetic_catalog


ROOT = Path(__file__).resolve().parent.parent
# -- measuring --------------------------------------------------------------------------------


def _median_time(run: Callable[[], None], repeat: int, setup: Callable[[], None] = lambda: None) -> float:
    times = []
    for _ in range(repeat):
        setup()  # not timed
        os.sync()  # nor the writing back of what earlier runs and the setup wrote
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


_EXTRA: list[str] = []  # --jobs N for the synthetic catalogs' runs (python -m generator.bench --jobs N)


def _command(*args: str) -> Callable[[], None]:
    def run() -> None:
        subprocess.run([sys.executable, *args], check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    return run


def _generator(verb: str, *args: str) -> Callable[[], None]:
    return _command("-m", "generator", verb, *args, *(_EXTRA if verb in ("generate", "check") else []))


def _script(script: str, files: list[str]) -> Callable[[], None]:
    def run() -> None:
        subprocess.run([sys.executable, "-c", script, *files], check=True)
    return run


FLOORS = {
    "event floor": (
        "import sys\nfrom _ruamel_yaml import CParser\n"
        "for f in sys.argv[1:]:\n    p = CParser(open(f, encoding='utf-8').read())\n"
        "    while True:\n        e = p.get_event()\n"
        "        if e is None or type(e).__name__ == 'StreamEndEvent': break\n"
    ),
    "compose floor": (
        "import sys\nfrom ruamel.yaml.cyaml import CBaseLoader\n"
        "for f in sys.argv[1:]:\n    l = CBaseLoader(open(f, encoding='utf-8').read()); l.get_single_node(); "
        "l.dispose()\n"
    ),
    "safe-load floor": (
        "import sys\nfrom ruamel.yaml import YAML\ny = YAML(typ='safe', pure=False)\n"
        "for f in sys.argv[1:]:\n    y.load(open(f, encoding='utf-8'))\n"
    ),
}
COLUMNS = ("validate", "generate (cold)", "generate (nothing)", "generate (one text)", "generate (one edition)",
           "check", "check --full")


def measure(size: int, repeat: int, scratch: Path) -> dict[str, float]:
    original = synthetic_catalog(size, scratch / f"catalog-{size}")
    catalog, out = scratch / f"work-{size}", scratch / f"out-{size}"
    files = [str(p) for p in sorted(original.rglob("*.yaml"))]
    row = {name: _median_time(_script(script, files), repeat) for name, script in FLOORS.items()}

    def fresh_catalog() -> None:
        shutil.rmtree(catalog, ignore_errors=True)
        shutil.copytree(original, catalog)

    fresh_catalog()
    generate = _generator("generate", "--catalog", str(catalog), "--out", str(out))
    row["validate"] = _median_time(_generator("validate", "--catalog", str(catalog)), repeat)
    aside = scratch / f"aside-{size}"
    aside.mkdir()

    def empty_out() -> None:
        # Moved aside, not deleted: on a file system mounted with `discard` (this machine's),
        # deleting 20,000 files slows every program's file creation for seconds afterwards,
        # which would be timed as the generator's. The scratch directory goes at the end.
        if out.exists():
            out.rename(aside / str(len(list(aside.iterdir()))))

    row["generate (cold)"] = _median_time(generate, repeat, setup=empty_out)
    row["generate (nothing)"] = _median_time(generate, repeat)
    row["check"] = _median_time(_generator("check", "--catalog", str(catalog), "--out", str(out)), repeat)
    row["check --full"] = _median_time(
        _generator("check", "--full", "--catalog", str(catalog), "--out", str(out)), repeat
    )

    def edited(change: Callable[[], None]) -> Callable[[], None]:
        def setup() -> None:
            fresh_catalog()
            generate()  # the outputs and the cache of the unchanged catalog
            change()
        return setup

    row["generate (one text)"] = _median_time(generate, repeat, setup=edited(lambda: change_one_text(catalog)))
    row["generate (one edition)"] = _median_time(generate, repeat, setup=edited(lambda: add_one_edition(catalog, size)))
    row["files"] = sum(len(names) for _, _, names in os.walk(out))
    return row


def _alternating(runs: dict[str, Callable[[], None]], repeat: int) -> dict[str, float]:
    """The median of each command, run in turn, so that all see the same machine."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeat):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(found) for name, found in times.items()}


def real_catalog(repeat: int, scratch: Path) -> dict[str, float]:
    """The real catalog: a no-op generate against the baseline of importing jinja2 and
    ruamel.yaml, and `check --full` with the default jobs against `--jobs 1`."""
    out = scratch / "real"
    generate = _command("-m", "generator", "generate", "--out", str(out))
    generate()
    check = ("-m", "generator", "check", "--full", "--out", str(out))
    return _alternating(
        {
            "no-op generate": generate,
            "import jinja2, ruamel.yaml": _script("import jinja2, ruamel.yaml", []),
            "check --full": _command(*check),
            "check --full --jobs 1": _command(*check, "--jobs", "1"),
        },
        repeat,
    )


# The guards `make bench` checks: (what, measured, floor, at most this many times the floor).
GUARDS = (
    ("one text changed", "generate (one text)", "compose floor", 2.0),
    ("nothing to write", "generate (nothing)", "compose floor", 1.2),
    ("cold", "generate (cold)", "safe-load floor", 2.5),
)


GUARD_SIZE = 10_000
NOISE = 1.05  # two medians of the same work differ by this much on this machine


def guards(rows: dict[int, dict[str, float]], real: dict[str, float]) -> list[str]:
    """One line per guard: the figures and whether it holds."""
    lines = []
    for what, measured, floor, limit in GUARDS:
        row = rows.get(GUARD_SIZE)
        if row is None:
            lines.append(f"not measured: {what} at {GUARD_SIZE} codes (run with --sizes {GUARD_SIZE})")
            continue
        ratio = row[measured] / row[floor]
        lines.append(
            f"{'holds ' if ratio <= limit else 'BROKEN'} {what} at {GUARD_SIZE} codes: {row[measured]:.3f} s = "
            f"{ratio:.2f}x the {floor} (at most {limit}x)"
        )
    ratio = real["no-op generate"] / real["import jinja2, ruamel.yaml"]
    lines.append(
        f"{'holds ' if ratio <= 1.0 else 'BROKEN'} real catalog, nothing to write: {real['no-op generate']:.3f} s = "
        f'{ratio:.2f}x `python -c "import jinja2, ruamel.yaml"` (at most 1.0x)'
    )
    default, one = real["check --full"], real["check --full --jobs 1"]
    lines.append(
        f"{'holds ' if default <= one * NOISE else 'BROKEN'} real catalog, check --full: {default:.3f} s with the "
        f"default jobs, {one:.3f} s with --jobs 1 (no slower, within {NOISE - 1:.0%})"
    )
    return lines


def report(sizes: list[int], repeat: int) -> str:
    lines = []
    with tempfile.TemporaryDirectory(prefix="status-bench-") as scratch:
        real = real_catalog(max(repeat, 7), Path(scratch))
        rows = {size: measure(size, repeat, Path(scratch)) for size in sizes}
    lines.append(f"median of {repeat} runs, seconds; machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    lines.append("real catalog (median of {} alternating runs): ".format(max(repeat, 7))
                 + "; ".join(f"{name} {seconds:.3f} s" for name, seconds in real.items()))
    lines.append("")
    header = f"{'codes':>6} {'outputs':>7} " + " ".join(f"{name:>15}" for name in FLOORS)
    lines.append(header)
    for size, row in rows.items():
        lines.append(f"{size:>6} {row['files']:>7} " + " ".join(f"{row[name]:>15.3f}" for name in FLOORS))
    lines.append("")
    lines.append(f"{'codes':>6} " + " ".join(f"{name:>23}" for name in COLUMNS))
    for size, row in rows.items():
        compose = row["compose floor"]
        cells = [f"{row[name]:7.3f} ({row[name] / compose:4.2f}x)" for name in COLUMNS]
        lines.append(f"{size:>6} " + " ".join(f"{c:>23}" for c in cells))
    lines.append("(ratios to the compose floor)")
    if len(sizes) >= 2 and sizes[-1] == 10 * sizes[-2]:
        a, b = rows[sizes[-2]], rows[sizes[-1]]
        lines.append(
            f"growth {sizes[-2]} -> {sizes[-1]} codes: generate (cold) "
            f"{b['generate (cold)'] / a['generate (cold)']:.1f}x, "
            f"check --full {b['check --full'] / a['check --full']:.1f}x"
        )
    lines.append("")
    lines.append("guards:")
    lines += guards(rows, real)
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m generator.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=None, help="pass --jobs N to every generate and check at each size")
    args = parser.parse_args(argv)
    if args.jobs is not None:
        _EXTRA[:] = ["--jobs", str(args.jobs)]
    sys.stdout.write(report([int(s) for s in args.sizes.split(",")], args.repeat))
    return 0


if __name__ == "__main__":
    sys.exit(main())
