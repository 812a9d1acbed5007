"""`make bench`: the generator's guards, as the CPU time of whole commands.

    python -m generator.bench [--repeat 5] [--codes 10000]

Each figure is the median of `--repeat` runs of one command (`python -m generator VERB`,
as a user or a pre-commit hook runs it), measured as the process's CPU time (user +
system, its children included), which another load on the machine changes much less than
it changes the wall clock. The guards:

- the real catalog: `generate` with nothing to write, and `check`: each at most 1.0 s;
- a synthetic catalog of 10,000 codes (bench_catalog.py): `generate` into an empty tree
  and `check` of that tree: each at most 3x the floor, the C-backed safe load of the same
  YAML files (what reading them costs at all).

It prints every figure, each guard's ratio, and `holds` or `BROKEN`; exit status 1 when a
guard is broken.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
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


def report(repeat: int, codes: int) -> tuple[str, bool]:
    with tempfile.TemporaryDirectory(prefix="status-bench-") as scratch:
        real = real_catalog(repeat, Path(scratch))
        large = synthetic(codes, repeat, Path(scratch))
        shutil.rmtree(Path(scratch) / "aside", ignore_errors=True)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    lines = [f"CPU seconds (user + system), median of {repeat} runs; {cores} core(s) available, "
             f"Python {sys.version.split()[0]}; {codes:,} codes make {int(large['outputs']):,} files"]
    checked = guards(real, large, codes)
    lines += guard_lines(checked)
    return "\n".join(lines) + "\n", all(holds for holds, _ in checked)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m generator.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--codes", type=int, default=10_000, help="the synthetic catalog's size (default 10,000)")
    args = parser.parse_args(argv)
    text, held = report(args.repeat, args.codes)
    sys.stdout.write(text)
    return 0 if held else 1


if __name__ == "__main__":
    sys.exit(main())
