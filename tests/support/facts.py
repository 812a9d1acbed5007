"""Parsers of the upstream material kept as fixtures: the facts page, the recorded editions and the seeds.

They split pages by the code names of the facts (never by the catalog's own
strings), so a test comparing them with the catalog can fail.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from tests.support.helpers import FIXTURES

SEEDS = FIXTURES / "seeds"
SEED_V1_ZH = SEEDS / "000_443364703bb0f216.txt"
SEED_V2_ZH = SEEDS / "001_328f633fabc8e2a2.txt"
SEED_V1_EN = SEEDS / "003_8648364faa1f153a.txt"
FACT_CELLS = {"是": "yes", "否": "no", "无": "n/a", "✓": "not known", "—": None, "?": "?"}


def _section(number: int) -> str:
    text = (FIXTURES / "upstream-facts.md").read_text(encoding="utf-8")
    return re.split(r"^## ", text, flags=re.M)[number]


def _table(section: str) -> list[list[str]]:
    rows = [line for line in section.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[2:]]


@dataclass(frozen=True)
class FactCode:
    python: str | None
    c: str | None
    value: int
    where: str


@lru_cache(maxsize=None)
def fact_codes() -> tuple[FactCode, ...]:
    codes = []
    for _num, python, c_col, hex_col, dec_col, where in _table(_section(1)):
        python_name = None if python == "–" else python
        if "Python only" in where:
            c_name = None
        elif "`llm_datadist::`" in c_col:
            c_name = re.search(r"(\w+) \(`llm_datadist::`\)", c_col).group(1)
        else:
            c_name = c_col or python_name
        codes.append(FactCode(python_name, c_name, int(dec_col), where))
    return tuple(codes)


def fact_names() -> list[str]:
    return [c.python or c.c for c in fact_codes()]


def fact_public_api() -> list[str]:
    """The 18 constants upstream's llm_datadist.h declares (upstream-facts.md §1, its notes)."""
    note = re.search(r"declares 18 of them as `[^`]+`: ([A-Z_, ]+)\.", _section(1)).group(1)
    return [name.strip() for name in note.split(",")]


@lru_cache(maxsize=None)
def fact_matrix() -> tuple[tuple[str, ...], dict[str, dict[str, str | None]]]:
    section = _section(2)
    header = next(line for line in section.splitlines() if line.startswith("| Python name"))
    editions = tuple(cell.strip() for cell in header.strip("|").split("|")[1:])
    matrix = {row[0]: {e: FACT_CELLS[cell] for e, cell in zip(editions, row[1:])} for row in _table(section)}
    return editions, matrix


def fact_messages() -> dict[str, str]:
    return {row[0]: row[1].strip("`") for row in _table(_section(3))}


# -- seeds -----------------------------------------------------------------


@dataclass(frozen=True)
class SeedRow:
    name: str
    meaning: str
    recoverable: str
    solution: str


def _names_pattern() -> re.Pattern:
    names = sorted(fact_names(), key=len, reverse=True)
    # Longest first, and no look-ahead: seed 000 runs "LLM_KV_CACHE_NOT_EXISTKV不存在" together.
    return re.compile(r"(?<![A-Z_])(" + "|".join(map(re.escape, names)) + r")")


def seed_v2_zh() -> list[SeedRow]:
    """Seed 001: a Markdown pipe table with \\_ escapes."""
    rows = []
    for line in SEED_V2_ZH.read_text(encoding="utf-8").splitlines():
        cells = [c.strip().replace("\\_", "_") for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] in fact_names():
            rows.append(SeedRow(*cells))
    return rows


def seed_v1_en() -> list[SeedRow]:
    """Seed 003: one cell per paragraph; a row starts at a code name."""
    lines = [line.strip() for line in SEED_V1_EN.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows, current = [], None
    for line in lines[1:]:
        if line in fact_names():
            current = [line]
            rows.append(current)
        else:
            current.append(re.sub(r"^• ", "- ", line))
    return [SeedRow(r[0], r[1], r[2], "\n".join(r[3:])) for r in rows]


def seed_v1_zh_segments() -> list[tuple[str, str]]:
    """Seed 000 lost its cell boundaries: (name, everything up to the next name)."""
    text = SEED_V1_ZH.read_text(encoding="utf-8")
    text = text[text.index("解决办法") + len("解决办法"):]
    text = text[: text.index("【免费下载链接】")]
    parts = _names_pattern().split(text)
    return [(parts[i], parts[i + 1]) for i in range(1, len(parts), 2)]


@lru_cache(maxsize=None)
def upstream_record() -> dict:
    """tests/fixtures/upstream-record.json: what upstream's repositories ship, recorded with git
    alone by scripts/record_upstream.py."""
    import json

    return json.loads((FIXTURES / "upstream-record.json").read_text(encoding="utf-8"))["repositories"]


def letters_only(text: str) -> str:
    """Text without punctuation, whitespace or symbols: what seed 000 can be compared on."""
    return "".join(ch for ch in text if ch.isalnum())
