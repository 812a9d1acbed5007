"""The real catalog mutated thousands of ways: every run either succeeds or is refused
with exit status 3 and PATH:LINE:COL messages, never a traceback."""
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import ROOT, run_cli

FILES = sorted(p.name for p in (ROOT / "catalog").glob("*.yaml"))
ORIGINAL = {name: (ROOT / "catalog" / name).read_text(encoding="utf-8") for name in FILES}
TOKENS = [": ", "- ", "  ", "\t", "'", '"', "[", "]", "{", "}", "&a ", "*a", "!!python/object/apply:os.system ['true']",
          "!!str ", "#", "|", ">", "0x", "-1", "8.10", "yes", "no", "null", "~", "true", "\x00", "\x85", "\ufeff",
          "\u200f", "😀", "LLM_TIMEOUT", "9.0.0-v1", "not known", "n/a", "editions:", "zh:", "en:", "value: 0x0",
          "\n", "\n  - ", "%YAML 1.1\n---\n", "...\n", "<<: *a\n"]
LINE = re.compile(r"^[^:\n]+:\d+:\d+: .+$")


@st.composite
def mutation(draw):
    name = draw(st.sampled_from(FILES))
    lines = ORIGINAL[name].split("\n")
    kind = draw(st.sampled_from(["delete", "duplicate", "swap", "insert", "replace", "indent", "truncate", "char"]))
    i = draw(st.integers(0, len(lines) - 1))
    if kind == "delete":
        del lines[i]
    elif kind == "duplicate":
        lines.insert(i, lines[i])
    elif kind == "swap" and i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif kind in ("insert", "replace"):
        at = draw(st.integers(0, len(lines[i])))
        cut = draw(st.integers(0, 6)) if kind == "replace" else 0
        lines[i] = lines[i][:at] + draw(st.sampled_from(TOKENS)) + lines[i][at + cut:]
    elif kind == "indent":
        delta = draw(st.sampled_from([-2, -1, 1, 2]))
        lines[i] = (" " * delta + lines[i]) if delta > 0 else lines[i][-delta:]
    elif kind == "truncate":
        lines = lines[:i]
    elif kind == "char":
        at = draw(st.integers(0, len(lines[i])))
        lines[i] = lines[i][:at] + draw(st.characters(blacklist_categories=("Cs",))) + lines[i][at:]
    return name, "\n".join(lines)


@pytest.fixture(scope="module")
def scratch():
    with tempfile.TemporaryDirectory() as directory:
        yield Path(directory)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(change=mutation())
def test_a_mutated_catalog_is_accepted_or_refused_cleanly(scratch, change):
    name, text = change
    for file_name in FILES:
        (scratch / file_name).write_text(text if file_name == name else ORIGINAL[file_name], encoding="utf-8")
    result = run_cli("validate", "--catalog", scratch)
    assert result.code in (0, 3), result.err
    if result.code == 3:
        lines = result.err.splitlines()
        assert lines[-1].endswith("problem(s) in the catalog; nothing was written")
        assert lines[:-1] and all(LINE.match(line) for line in lines[:-1]), result.err
    assert "Traceback" not in result.err
