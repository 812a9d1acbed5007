"""What the outputs say stays said: every code, edition, text, recoverability and origin that the
generated modules and JSON exports stated at a reference commit, they state now.

The reference is the commit before the catalog's format was declared once and each of its texts
written once, read from git history; the facts are taken through
the modules' own API (lookup(), recoverable(), meaning(), text_origin() ...) and from the
exports' resolved editions, never from the catalog's files. A new release may add editions,
codes and texts (what the reference said is a subset of what is said now); changing or losing
one fails here, naming it.
"""
from __future__ import annotations

import json
import subprocess
import sys
import types

import pytest

from tests.support.helpers import ROOT

REFERENCE = "b8a4d84"  # main before the format and its texts were rewritten: every step since keeps what it said
FAMILIES = ("llm_status_codes", "hixl_status_codes", "adxl_status_codes")
FIELDS = ("meaning", "cause", "solution")


def _at(commit: str, path: str) -> str:
    shown = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:{path}"], capture_output=True, text=True,
                           check=False)
    assert shown.returncode == 0, (f"{path} at {commit} is not in this clone's history ({shown.stderr.strip()}); "
                                   "the test needs the project's history (a full clone)")
    return shown.stdout


def _module(name: str, source: str) -> types.ModuleType:
    module = types.ModuleType(name)
    sys.modules[name] = module  # its dataclasses look themselves up here
    try:
        exec(compile(source, name, "exec"), module.__dict__)
    finally:
        del sys.modules[name]
    return module


def said(module: types.ModuleType, export: dict) -> dict[tuple, object]:
    """Every fact a family's outputs state: through the module's API, and in the export."""
    facts: dict[tuple, object] = {}
    for code in export["codes"]:
        name = code["name"]
        facts[("export", name, "value")] = code["value"]
        facts[("export", name, "names")] = (code["python"], code["c"])
        for edition, listed in code["editions"].items():
            facts[("export", name, edition)] = json.dumps(listed, sort_keys=True, ensure_ascii=False)
        try:
            member = module.lookup(name)
        except KeyError:
            facts[("module", name)] = "only in C/C++"
            continue
        facts[("module", name, "value")] = int(member.value)
        facts[("module", name, "editions")] = tuple(member.editions)
        for edition in (None, *module.EDITIONS):
            facts.update(_answers(member, name, edition, module.LANGUAGES))
    return facts


def _answers(member, name: str, edition, languages) -> dict[tuple, object]:
    found: dict[tuple, object] = {}
    try:
        found[("module", name, edition, "recoverable")] = repr(member.recoverable(edition))
    except KeyError:
        return {("module", name, edition): "not listed"}
    for lang in languages:
        for field in FIELDS:
            found[("module", name, edition, field, lang)] = getattr(member, field)(lang, edition)
        found[("module", name, edition, "origin", lang)] = member.text_origin(lang, edition)
    return found


def _facts(source_of) -> dict[str, dict[tuple, object]]:
    return {family: said(_module(f"_kept_{family}", source_of(f"generated/python/{family}.py")),
                         json.loads(source_of(f"generated/json/{family}.json"))) for family in FAMILIES}


@pytest.fixture(scope="module")
def now():
    return _facts(lambda path: (ROOT / path).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def then():
    return _facts(lambda path: _at(REFERENCE, path))


@pytest.mark.parametrize("family", FAMILIES)
def test_every_fact_the_outputs_stated_they_state_still(family, then, now):
    assert len(then[family]) > 100
    changed = {key: (value, now[family].get(key, "<gone>")) for key, value in then[family].items()
               if now[family].get(key, "<gone>") != value}
    assert not changed, "\n".join(f"{key}: {old!r} -> {new!r}" for key, (old, new) in sorted(changed.items(),
                                                                                               key=repr)[:20])


def test_a_changed_fact_is_found(then):
    """The comparison can fail: one text changed in the reference's own facts is a difference."""
    facts = dict(then["llm_status_codes"])
    key = next(k for k, v in facts.items() if k[0] == "module" and len(k) == 5 and k[3] == "meaning" and v)
    facts[key] = facts[key] + "!"
    assert {k for k, v in then["llm_status_codes"].items() if facts.get(k) != v} == {key}
