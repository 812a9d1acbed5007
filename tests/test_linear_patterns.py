"""The generator's query readers cannot be made to run long by what a user types or pastes.

What reads a user's query (a key given to `explain`, `lookup()` of the vendored modules, an
`--edition` or a release) uses only regular expressions that (1) nest no repeat in another and
(2) cost at most RATIO_BOUND times more on adversarial texts of 10,000 characters than on
texts of 1,000 (a ratio, not a time). The site's search worker is held to the same two rules
in tests/node/search-worker.test.js. Both checks are shown failing on planted patterns.
"""
from __future__ import annotations

import importlib.util
import re
import sys

import pytest

from tests.support.helpers import ROOT
from tests.support.patterns import RATIO_BOUND, nested_repeat, patterns_in_source, worst_ratio

# Every module that reads a query a user types: the release parser (--edition, explain's
# release), the questions the CLI answers (explain), and the vendored modules' lookup().
QUERY_READERS = (
    "generator/core/releases.py",
    "generator/domain/queries.py",
    "generator/shipping/explain.py",
    "generator/rendering/runtime/module_runtime.py",
    "generator/rendering/runtime/message_match.py",
)


def _generated_modules():
    return sorted((ROOT / "generated" / "python").glob("*.py"))


def _query_patterns() -> list[tuple[str, re.Pattern]]:
    found: dict[tuple[str, int], tuple[str, re.Pattern]] = {}
    for relative in QUERY_READERS:
        for line, pattern, flags in patterns_in_source(ROOT / relative):
            compiled = re.compile(pattern, flags)
            found[(compiled.pattern, compiled.flags)] = (f"{relative}:{line}", compiled)
    # what the vendored modules compile, however they write it (a pattern copied from a reader above,
    # as the modules copy the runtime's, is checked once: keyed as compiled, flags included)
    for where, compiled in MODULE_PATTERNS:
        found.setdefault((compiled.pattern, compiled.flags), (where, compiled))
    return sorted(found.values(), key=lambda item: item[0])


def _module_patterns(path):
    spec = importlib.util.spec_from_file_location(f"_linear_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses in the module look themselves up here
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    for name, value in sorted(vars(module).items()):
        if isinstance(value, re.Pattern):
            yield f"{path.relative_to(ROOT)}:{name}", value


MODULE_PATTERNS = [found for path in _generated_modules() for found in _module_patterns(path)]
PATTERNS = _query_patterns()


def test_the_query_readers_have_patterns_to_check():
    assert len(PATTERNS) >= 4, PATTERNS
    # every pattern of every vendored module is among those checked
    assert {where.split(":")[0] for where, _ in MODULE_PATTERNS} == \
        {str(path.relative_to(ROOT)) for path in _generated_modules()}
    checked = {(c.pattern, c.flags) for _, c in PATTERNS}
    assert all((c.pattern, c.flags) in checked for _, c in MODULE_PATTERNS)


@pytest.mark.parametrize("where,compiled", PATTERNS, ids=[w for w, _ in PATTERNS])
def test_no_query_pattern_nests_a_repeat_in_another(where, compiled):
    assert not nested_repeat(compiled.pattern, compiled.flags & ~re.UNICODE), f"{where}: {compiled.pattern}"


@pytest.mark.parametrize("where,compiled", PATTERNS, ids=[w for w, _ in PATTERNS])
def test_every_query_pattern_costs_in_proportion_to_the_text(where, compiled):
    ratio, unit = worst_ratio(compiled)
    assert ratio <= RATIO_BOUND, f"{where}: {compiled.pattern} costs {ratio:.0f}x on 10x the text ({unit!r}...)"


@pytest.mark.parametrize("pattern", [
    r"^v?(\d+\.\d+\.(?:\d+|rc\d+)(?:[.-](?:alpha|beta|rc|pre)(?:\.?\d+)*)*)$",  # the worker's old RELEASE
    r"(a+)+b", r"(?:x|\w+)*$", r"^[0-9]+(?:\.[0-9]+)*?$",
])
def test_a_nested_repeat_is_found(pattern):
    assert nested_repeat(pattern)


@pytest.mark.parametrize("pattern", [r"^[0-9]+$", r"(?:ab)?c+", r"(?:[-T ]\d{1,2}:\d{2})?", r"\b(?:ret|code)\s*[=:]"])
def test_a_flat_pattern_is_not_flagged(pattern):
    assert not nested_repeat(pattern)


def test_a_quadratic_pattern_costs_more_than_the_bound():
    """A pattern without nesting that fails after a long run at every place it starts: the
    ratio finds what the shape does not."""
    compiled = re.compile(r"^[0-9a-f]*\d[0-9a-f]*u")
    assert not nested_repeat(compiled.pattern)
    ratio, _ = worst_ratio(compiled, short=200, long=2000)
    assert ratio > RATIO_BOUND
