"""The mutation sweep (tests/sweep.py): every value changed, one at a time, and each time
plain `check` agrees with `check --full` and an incremental `generate` writes the bytes
of a full render. It proves the one declaration of each target's inputs (the `reads` of
its row in generator/rendering/targets.py): a part left out of a row leaves outputs stale here.

Scope: every scalar of the fixture catalog; every scalar of the real site.yaml and of
each family.yaml (tests/test_sweep_families.py, a module of its own so that the two
test workers share the work); one value per kind of place in each codes.yaml and
editions.yaml. `make test-fast` runs a sample: the repositories' URLs and a few values
of the fixture.
"""
from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from generator.rendering import targets
from generator.rendering.inputs import Input
from tests.helpers import MINI, ROOT
from tests.sweep import Report, baseline, mutations, one_per_place, summary, sweep

REAL = ROOT / "catalog"
FAMILIES = sorted(p.name for p in REAL.iterdir() if p.is_dir())


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    """A copy of the real catalog and the outputs and cache its `generate` leaves."""
    root = tmp_path_factory.mktemp("sweep-real")
    shutil.copytree(REAL, root / "catalog")
    baseline(root / "catalog", root / "base")
    return root


@pytest.fixture(scope="module")
def fixture(tmp_path_factory):
    root = tmp_path_factory.mktemp("sweep-fixture")
    (root / "catalog").mkdir()
    shutil.copy(MINI, root / "catalog" / "catalog.yaml")
    baseline(root / "catalog", root / "base")
    return root


def _run(root: Path, tmp_path: Path, found) -> Report:
    assert found, "the sweep found nothing to change"
    report = sweep(root / "catalog", root / "base", tmp_path, found, Report())
    print(summary(report))
    return report


def _passes(root: Path, tmp_path: Path, found) -> None:
    report = _run(root, tmp_path, found)
    assert not report.failures, summary(report)
    assert report.checked, "every change made the catalog invalid: nothing was checked"


def _urls(root: Path):
    return [m for m in mutations(root / "catalog", ["site.yaml"]) if m.place.startswith(".repositories.") and
            m.place.endswith(".url")]


def test_changing_each_repository_url_leaves_nothing_stale(real, tmp_path):
    found = _urls(real)
    assert len(found) >= 3
    _passes(real, tmp_path, found)


def test_a_sample_of_the_fixture_catalog(fixture, tmp_path):
    found = mutations(fixture / "catalog")
    _passes(fixture, tmp_path, found[::40])


@pytest.mark.slow
@pytest.mark.parametrize("part", range(4))
def test_every_value_of_the_fixture_catalog(fixture, tmp_path, part):
    found = mutations(fixture / "catalog")
    _passes(fixture, tmp_path, found[part::4])


@pytest.mark.slow
def test_every_value_of_site_yaml(real, tmp_path):
    _passes(real, tmp_path, mutations(real / "catalog", ["site.yaml"]))


@pytest.mark.slow
@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("file", ["codes.yaml", "editions.yaml"])
def test_one_value_of_each_kind_in_codes_and_editions(real, tmp_path, family, file):
    _passes(real, tmp_path, one_per_place(mutations(real / "catalog", [f"{family}/{file}"])))


def _without(monkeypatch, target: str, part: Input) -> None:
    rows = tuple(dataclasses.replace(t, reads=tuple(r for r in t.reads if r is not part)) if t.name == target else t
                 for t in targets.TARGETS)
    monkeypatch.setattr(targets, "TARGETS", rows)


def test_the_sweep_fails_when_a_target_does_not_declare_an_input_it_reads(real, tmp_path, monkeypatch):
    """Edition pages link their sources to the repositories of site.yaml: without `site`
    in their row, a changed URL leaves them stale, and the sweep says so."""
    _without(monkeypatch, "site-editions", Input.SITE)
    shutil.rmtree(real / "dropped", ignore_errors=True)
    baseline(real / "catalog", real / "dropped")
    report = sweep(real / "catalog", real / "dropped", tmp_path, _urls(real), Report())
    assert report.failures and all("editions/" in f for f in report.failures), summary(report)
