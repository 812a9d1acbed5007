"""Incremental rendering: after any edit, a `generate` that renders only the outputs whose
declared inputs changed writes exactly the bytes a full render writes; and no stale,
damaged or lying cache changes that. (tests/test_sweep.py changes every value.)"""
from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Callable

import pytest

from generator.bench_catalog import change_one_text, synthetic_catalog
from generator.writing.fastpath import CACHE
from tests.helpers import run_cli, tree

CODES = 150


def _sub(path: Path, pattern: str, replacement: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    new, done = re.subn(pattern, replacement, text, count=count, flags=re.M)
    assert done, f"{pattern!r} not found in {path}"
    path.write_text(new, encoding="utf-8")


def _edition_row(catalog: Path, edition: str, code: str, replacement: str) -> None:
    """Change (or with "" drop) the code's row in one edition."""
    path = catalog / "bench" / "editions.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index(f"    - version: '{edition}'")
    end = text.find("    - version: ", start + 1)
    end = len(text) if end < 0 else end
    block, done = re.subn(rf"^        {code}: .*\n", replacement, text[start:end], count=1, flags=re.M)
    assert done
    path.write_text(text[:start] + block + text[end:], encoding="utf-8")


def _swap_rows(catalog: Path, edition: str, first: str, second: str) -> None:
    path = catalog / "bench" / "editions.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index(f"    - version: '{edition}'")
    a, b = text.index(f"        {first}: ", start), text.index(f"        {second}: ", start)
    line_a, line_b = text[a:text.index("\n", a) + 1], text[b:text.index("\n", b) + 1]
    assert a + len(line_a) == b
    path.write_text(text[:a] + line_b + line_a + text[b + len(line_b):], encoding="utf-8")


EDITS: dict[str, Callable[[Path], None]] = {
    "an English text": change_one_text,
    "a Chinese text": lambda c: _sub(
        c / "bench" / "codes.yaml", r"(- python: LLM_CODE_00100\n(?:    .*\n)*?        zh: )(.*)", r"\1改过的\2"
    ),
    "a text of the newest editions": lambda c: _sub(  # the second text of a field: its newer wording
        c / "bench" / "codes.yaml",
        r"(- python: LLM_CODE_00110\n(?:    .*\n)*?        en: .*\n(?:    .*\n)*?        en: )(.*)",
        r"\1Reworded, \2",
    ),
    "a recoverability": lambda c: _edition_row(
        c, "8.0.0-v2", "LLM_CODE_00070", '        LLM_CODE_00070: "not known"\n'
    ),
    "a row dropped": lambda c: _edition_row(c, "8.0.0-v1", "LLM_CODE_00101", ""),  # an edition without texts
    "a code's value": lambda c: _sub(c / "bench" / "codes.yaml", r"value: 0x50000030$", "value: 0x5000FF30"),
    "a code renamed": lambda c: [
        _sub(c / "bench" / f, r"\bLLM_CODE_00120\b", "LLM_CODE_X0120", count=0) for f in ("codes.yaml", "editions.yaml")
    ],
    "two rows swapped": lambda c: _swap_rows(
        c, "8.0.0-v2", "LLM_CODE_00002", "LLM_CODE_00003"
    ),  # its order is the page's
    "the site's name": lambda c: _sub(c / "site.yaml", r"en: Benchmark codes", "en: Renamed benchmark codes"),
    "a column heading": lambda c: _sub(c / "bench" / "family.yaml", r"en: \[Meaning\]", "en: [What it means]"),
    "an edition's notes": lambda c: _sub(
        c / "bench" / "editions.yaml", r"en: Notes of edition 5\.", "en: Other notes."
    ),
}


def _generate(catalog: Path, out: Path, *extra: str) -> str:
    result = run_cli("generate", "--catalog", catalog, "--out", out, *extra)
    assert result.code == 0, result.err
    return result.out.splitlines()[-1]


def _full_render(catalog: Path, tmp_path: Path) -> dict[str, bytes]:
    reference = tmp_path / "reference"
    shutil.rmtree(reference, ignore_errors=True)
    _generate(catalog, reference)
    return tree(reference, outputs_only=True)


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """A catalog and its outputs, with the cache of the run that wrote them."""
    root = tmp_path_factory.mktemp("incremental")
    catalog = synthetic_catalog(CODES, root / "catalog")
    _generate(catalog, root / "out")
    return root


@pytest.fixture
def work(base, tmp_path):
    shutil.copytree(base / "catalog", tmp_path / "catalog")
    shutil.copytree(base / "out", tmp_path / "out")
    return tmp_path / "catalog", tmp_path / "out"


FAST_EDIT = "an English text"  # `make test-fast` runs this one; `make test` every edit


def _rendered(summary: str) -> int:
    return int(re.search(r"(\d+) rendered", summary).group(1))


@pytest.mark.parametrize("edit", [e if e == FAST_EDIT else pytest.param(e, marks=pytest.mark.slow) for e in EDITS])
def test_an_edit_renders_the_bytes_of_a_full_render(work, tmp_path, edit):
    catalog, out = work
    EDITS[edit](catalog)
    summary = _generate(catalog, out)
    assert tree(out, outputs_only=True) == _full_render(catalog, tmp_path)
    outputs = int(re.search(r"(\d+) outputs", summary).group(1))
    if edit in PARTIAL:  # a text or a value is read by that code's pages and the family-wide ones only
        assert 0 < _rendered(summary) < outputs / 2, summary


# Edits of an edition reach every code's page (each lists every edition: the `editions` part),
# the site's name and a heading every page: only these render part of the tree.
PARTIAL = ("an English text", "a Chinese text", "a text of the newest editions", "a code's value")


@pytest.mark.slow
def test_edits_one_after_another_stay_equal_to_full_renders(work, tmp_path):
    catalog, out = work
    for edit in EDITS.values():
        edit(catalog)
        _generate(catalog, out)
    assert tree(out, outputs_only=True) == _full_render(catalog, tmp_path)


def test_a_stale_cache_from_an_earlier_run_does_not_hide_an_edit(work, tmp_path):
    """The cache of the first run, put back after a second: its hashes no longer match the
    files it lists, so those are rendered."""
    catalog, out = work
    old_cache = (out / CACHE).read_bytes()
    change_one_text(catalog)
    _generate(catalog, out)
    (out / CACHE).write_bytes(old_cache)
    EDITS["a Chinese text"](catalog)
    _generate(catalog, out)
    assert tree(out, outputs_only=True) == _full_render(catalog, tmp_path)


@pytest.mark.parametrize("damage", ["a byte flipped", pytest.param("cut short", marks=pytest.mark.slow)])
def test_a_damaged_cache_is_ignored(work, tmp_path, damage):
    catalog, out = work
    raw = (out / CACHE).read_bytes()
    if damage == "a byte flipped":
        index = raw.index(b'"entries"') + 20
        raw = raw[:index] + bytes([raw[index] ^ 1]) + raw[index + 1:]
    else:
        raw = raw[:-100]
    (out / CACHE).write_bytes(raw)
    change_one_text(catalog)
    summary = _generate(catalog, out)
    assert tree(out, outputs_only=True) == _full_render(catalog, tmp_path)
    assert _rendered(summary) == int(re.search(r"(\d+) outputs", summary).group(1)), (
        "a cache it cannot trust renders all"
    )


def test_a_hand_edited_page_is_rendered_again(work, tmp_path):
    catalog, out = work
    page = out / "site" / "docs" / "differences.en.md"
    page.write_text(page.read_text(encoding="utf-8").replace("LLM_CODE_00004", "LLM_CODE_HACKED"), encoding="utf-8")
    change_one_text(catalog)
    _generate(catalog, out)
    assert tree(out, outputs_only=True) == _full_render(catalog, tmp_path)
    assert "HACKED" not in page.read_text(encoding="utf-8")


def test_check_and_check_full_both_see_a_page_edited_by_hand(work):
    catalog, out = work
    page = out / "site" / "docs" / "editions" / "9.5.0-v2.en.md"
    page.write_bytes(page.read_bytes().replace(b"Check", b"Chek", 1))
    for flags in ((), ("--full",)):
        result = run_cli("check", "--catalog", catalog, "--out", out, *flags)
        assert result.code == 1 and "stale: site/docs/editions/9.5.0-v2.en.md" in result.out
