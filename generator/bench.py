"""`make bench`: validate, generate and check on synthetic catalogs of 100, 1,000
and 10,000 codes, against two floors: parsing the same YAML with the fastest
C-backed safe loader, and Python start-up with the generator's imports.

    python -m generator.bench [--sizes 100,1000,10000] [--repeat 5]

Prints one table of medians and ratios. Timings are wall-clock seconds of
whole commands (`python -m generator VERB`), as a pre-commit hook would see.
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

ROOT = Path(__file__).resolve().parent.parent
EDITIONS = 8
_WORDS_ZH = "检查 链路 内存 超时 建链 断链 集群 参数 请求 日志 重试 释放 缓存 前缀 网络 连接 配置 接口 返回 异常".split()
_WORDS_EN = ("check link memory timeout establish release cluster parameter request log retry cache prefix network "
             "connection configure interface return exception device").split()


def _sentence(words: list[str], index: int, length: int, joiner: str) -> str:
    return joiner.join(words[(index * 7 + k * 3) % len(words)] for k in range(length))


def synthetic_catalog(size: int, target: Path) -> Path:
    """A catalog with the real one's shape: every field filled, zh and en texts of
    realistic length, 8 editions with per-edition differences."""
    target.mkdir(parents=True, exist_ok=True)
    family = (ROOT / "catalog" / "family.yaml").read_text(encoding="utf-8")
    family = family.replace("default_status: LLM_SUCCESS", "default_status: LLM_CODE_00000")
    family = family.replace("unknown_status: LLM_FAILED", "unknown_status: LLM_CODE_00001")
    (target / "family.yaml").write_text(family, encoding="utf-8")
    (target / "editions.yaml").write_text(_editions_yaml(size), encoding="utf-8")
    (target / "codes.yaml").write_text(_codes_yaml(size), encoding="utf-8")
    return target


def _edition_ids() -> list[str]:
    return [f"{major}.{minor}.0-v{page}" for major in (8, 9) for minor in (0, 5) for page in (1, 2)][:EDITIONS]


def _listed(code: int, edition: int) -> bool:
    return (code + edition) % 10 != 0  # each edition drops a different tenth


def _has_texts(edition: int) -> bool:
    return edition >= EDITIONS // 2


def _editions_yaml(size: int) -> str:
    out = ["editions:"]
    for e, ident in enumerate(_edition_ids()):
        out += [f"  - id: '{ident}'", f"    release: '{ident.split('-')[0]}'",
                f"    page: {{zh: 第{e}版页面, en: Page of edition {e}}}", "    sources: [synthetic]",
                "    texts: {zh: upstream, en: translation}" if _has_texts(e) else "    texts: not known",
                "    order: page" if e % 2 else "    order: not known", "    rows:"]
        values = ('"yes"', '"no"', "n/a", "not known")
        for c in range(size):
            if _listed(c, e):
                out.append(f"      LLM_CODE_{c:05d}: {values[(c + e // 3) % 4]}")
        out.append(f"    notes: {{zh: 第{e}版的说明。, en: Notes of edition {e}.}}")
    return "\n".join(out) + "\n"


def _codes_yaml(size: int) -> str:
    out = ["codes:"]
    texts = [e for e in range(EDITIONS) if _has_texts(e)]
    ids = _edition_ids()
    for c in range(size):
        out += [f"  - python: LLM_CODE_{c:05d}", f"    c: LLM_CODE_{c:05d}_C", f"    value: 0x{0x50000000 + c:08X}",
                f"    cpp: ['llm_datadist::LLM_CODE_{c:05d}_C']", f"    log_message: code {c} happened.",
                f"    notes: {{zh: 第{c}号的说明。, en: A note on code {c}.}}"]
        for field, length in (("meaning", 4), ("solution", 24)):
            out.append(f"    {field}:")
            for variant in (0, 1):  # the newer half of the editions says it differently
                eds = [ids[e] for e in texts if _listed(c, e) and (e >= EDITIONS - 2) == bool(variant)]
                if eds:
                    out += [f"      - editions: [{', '.join(repr(i) for i in eds)}]",
                            f"        zh: {_sentence(_WORDS_ZH, c + variant, length, '')}。",
                            f"        en: {_sentence(_WORDS_EN, c + variant, length, ' ').capitalize()}."]
    return "\n".join(out) + "\n"


# -- measuring --------------------------------------------------------------------


def _median_time(run: Callable[[], None], repeat: int, setup: Callable[[], None] = lambda: None) -> float:
    times = []
    for _ in range(repeat):
        setup()  # not timed
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _command(*args: str) -> Callable[[], None]:
    def run() -> None:
        subprocess.run([sys.executable, *args], check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    return run


def _parse_floor(catalog: Path) -> Callable[[], None]:
    """The fastest C-backed safe load of the same files, in a fresh interpreter."""
    files = [str(p) for p in sorted(catalog.glob("*.yaml"))]
    script = ("import sys\nfrom ruamel.yaml import YAML\ny = YAML(typ='safe', pure=False)\n"
              "for f in sys.argv[1:]:\n    y.load(open(f, encoding='utf-8'))\n")
    return lambda: subprocess.run([sys.executable, "-c", script, *files], check=True)


def measure(size: int, repeat: int, scratch: Path) -> dict[str, float]:
    catalog = synthetic_catalog(size, scratch / f"catalog-{size}")
    out = scratch / f"out-{size}"

    generate = _command("-m", "generator", "generate", "--catalog", str(catalog), "--out", str(out))
    row = {
        "parse floor": _median_time(_parse_floor(catalog), repeat),
        "validate": _median_time(_command("-m", "generator", "validate", "--catalog", str(catalog)), repeat),
        "generate (cold)": _median_time(generate, repeat, setup=lambda: shutil.rmtree(out, ignore_errors=True)),
        "generate (again)": _median_time(_command("-m", "generator", "generate", "--catalog", str(catalog), "--out", str(out)), repeat),
        "check": _median_time(_command("-m", "generator", "check", "--catalog", str(catalog), "--out", str(out)), repeat),
    }
    row["files"] = sum(len(files) for _, _, files in os.walk(out))
    return row


def startup_floor(repeat: int) -> float:
    script = "import generator.cli, generator.catalog, generator.targets"
    return _median_time(lambda: subprocess.run([sys.executable, "-c", script], check=True), repeat)


def real_generate(repeat: int, scratch: Path) -> float:
    out = scratch / "real"
    _command("-m", "generator", "generate", "--out", str(out))()
    return _median_time(_command("-m", "generator", "generate", "--out", str(out)), repeat)


def report(sizes: list[int], repeat: int) -> str:
    lines = []
    with tempfile.TemporaryDirectory(prefix="llm-bench-") as scratch:
        start = startup_floor(repeat)
        real = real_generate(repeat, Path(scratch))
        rows = {size: measure(size, repeat, Path(scratch)) for size in sizes}
    lines.append(f"median of {repeat} runs, seconds; machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    lines.append(f"start-up with the generator's imports: {start:.3f} s")
    lines.append(f"real catalog, make generate (nothing to write): {real:.3f} s = {real / start:.2f}x start-up")
    lines.append("")
    lines.append(f"{'codes':>7} {'outputs':>8} {'parse floor':>12} " + " ".join(
        f"{name:>22}" for name in ("validate", "generate (cold)", "generate (again)", "check")))
    for size, row in rows.items():
        cells = [f"{row[name]:8.3f} ({row[name] / row['parse floor']:4.2f}x)" for name in
                 ("validate", "generate (cold)", "generate (again)", "check")]
        lines.append(f"{size:>7} {row['files']:>8} {row['parse floor']:>12.3f} " + " ".join(f"{c:>22}" for c in cells))
    if len(sizes) >= 2 and sizes[-1] == 10 * sizes[-2]:
        a, b = rows[sizes[-2]], rows[sizes[-1]]
        lines.append("")
        lines.append(f"growth {sizes[-2]} -> {sizes[-1]} codes: generate (cold) {b['generate (cold)'] / a['generate (cold)']:.1f}x, "
                     f"check {b['check'] / a['check']:.1f}x")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m generator.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    sys.stdout.write(report([int(s) for s in args.sizes.split(",")], args.repeat))
    return 0


if __name__ == "__main__":
    sys.exit(main())
