"""Each kind of input reaches the outputs it should: a change of one value, `generate`, and
the files that changed include the ones that show that value (and `check` is clean after).
There is one render path (every run renders every output and compares bytes), so nothing
can be left stale by a declaration; this only proves each input is read at all."""
from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Callable

import pytest

from generator.bench_catalog import change_one_text, synthetic_catalog
from tests.support.helpers import run_cli, tree


def _sub(path: Path, pattern: str, replacement: str) -> None:
    text = path.read_text(encoding="utf-8")
    new, done = re.subn(pattern, replacement, text, count=1, flags=re.M)
    assert done, f"{pattern!r} not found in {path}"
    path.write_text(new, encoding="utf-8")


def _codes(catalog: Path) -> Path:
    return catalog / "bench" / "codes.yaml"


def _editions(catalog: Path) -> Path:
    return catalog / "bench" / "editions.yaml"


# (the change, outputs that must change: patterns over their paths)
EDITS: dict[str, tuple[Callable[[Path], None], tuple[str, ...]]] = {
    "an English text": (change_one_text, (r"generated/python/", r"generated/json/", r"codes/LLM_CODE_00000\.en\.md")),
    "a Chinese text": (lambda c: _sub(_codes(c), r"(- python: LLM_CODE_00010\n(?:    .*\n)*?        zh: )",
                                      r"\1改过的"),
                       (r"generated/python/", r"codes/LLM_CODE_00010\.zh\.md", r"search/index-zh\.json")),
    "a recoverability": (lambda c: _sub(_editions(c), r"^(        LLM_CODE_00030: )\"yes\"", r'\1"no"'),
                         (r"generated/python/", r"codes/LLM_CODE_00030\.(zh|en)\.md")),
    "a code's value": (lambda c: _sub(_codes(c), r"value: 0x50000010$", "value: 0x5000FF10"),
                       (r"generated/c/", r"generated/python/", r"codes/LLM_CODE_00016\.en\.md")),
    "the site's name": (lambda c: _sub(c / "site.yaml", r"en: Benchmark codes", "en: Renamed codes"),
                        (r"site/docs/index\.en\.md", r"site/mkdocs\.yml")),
    "a column heading": (lambda c: _sub(c / "bench" / "family.yaml", r"en: \[Meaning\]", "en: [What it means]"),
                         (r"editions/[^/]*\.en\.md",)),
    "an edition's notes": (lambda c: _sub(_editions(c), r"en: Notes of edition 5\.", "en: Other notes."),
                           (r"editions/[^/]*\.en\.md",)),
}


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    root = tmp_path_factory.mktemp("inputs")
    catalog = synthetic_catalog(40, root / "catalog")
    assert run_cli("generate", "--catalog", catalog, "--out", root / "out").code == 0
    return root


@pytest.mark.parametrize("edit", EDITS)
def test_a_change_of_each_kind_of_input_changes_the_outputs_that_show_it(base, tmp_path, edit):
    change, expected = EDITS[edit]
    catalog, out = tmp_path / "catalog", tmp_path / "out"
    shutil.copytree(base / "catalog", catalog)
    shutil.copytree(base / "out", out)
    before = tree(out, outputs_only=True)
    change(catalog)
    assert run_cli("generate", "--catalog", catalog, "--out", out).code == 0
    after = tree(out, outputs_only=True)
    changed = [path for path in after if before.get(path) != after[path]]
    for pattern in expected:
        assert any(re.search(pattern, path) for path in changed), (pattern, changed)
    assert run_cli("check", "--catalog", catalog, "--out", out).code == 0
