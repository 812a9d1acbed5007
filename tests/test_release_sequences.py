"""Shapes of a release imported one after another, in many orders: a shape that only fails after
another is found here, not by users.

Four shapes (each on codes of its own, so that any order makes sense upstream): a Python name
renamed, a value fixed under a kept name, a code removed from every file, and an English-only
text change. Each ordering tags v9.2.0 … v9.5.0 on a repository built in the test
(tests/support/upstream_formats.py), one shape a tag, and imports each tag in turn. The
orderings are not all 24 but the 12 of ORDERS (chosen here and checked below), a sequence
covering array of strength 3 that also covers every state an import meets: any three shapes
appear, in every one of their six orders, in some ordering, and each shape is imported after
each set of the others (none, any one, any two, all three), which is what the repository holds
when its tag is imported. A failure that needs up to three shapes in a given order, or a shape
after a given set of them, is found at half the cost (no set of 6 orderings covers the states;
none of 8 to 11 covers both).

After each import: exit 0. At the end: `check` passes on fresh outputs, every output of an
edition before 9.2.0 is byte for byte what it was (but for links to a renamed code's page), every
edition that existed before says through the module what it said, each shape's fact holds from
its own release on, and `audit` against the repository is clean.
"""
from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from tests.support.helpers import generated_module, run_cli
from tests.support.upstream_formats import ENGLISH_PAGE_910, PYTHON_PAGE_910, REPO, build_upstream, commit_catalog
from tests.test_release_shapes import BINDING, CPP_PAGE_910, DATADIST_H, ERROR_CODES_H, MESSAGES, STATUS_PY, _edit
from tests.test_release_shapes import _generate, _older_outputs

pytestmark = pytest.mark.slow  # a repository per ordering, four imports each

def rename(repo: Path, before: dict) -> None:
    _edit(repo, STATUS_PY, r"\bLLM_KV_CACHE_NOT_EXIST\b", "LLM_CACHE_NOT_EXIST", count=2)
    for page in (PYTHON_PAGE_910, ENGLISH_PAGE_910):
        _edit(repo, page, r"^\| LLM_KV_CACHE_NOT_EXIST\b", "| LLM_CACHE_NOT_EXIST")


def value_fix(repo: Path, before: dict) -> None:
    _edit(repo, DATADIST_H, r"LLM_TIMEOUT = 0x5010B01AU", "LLM_TIMEOUT = 0x5010B0FFU")
    _edit(repo, ERROR_CODES_H, r"LLM_TIMEOUT, 26\)", "LLM_TIMEOUT, 255)")


def removal(repo: Path, before: dict) -> None:
    for path in (STATUS_PY, BINDING, ERROR_CODES_H, DATADIST_H, MESSAGES, PYTHON_PAGE_910, CPP_PAGE_910,
                 ENGLISH_PAGE_910):
        text = (repo / path).read_text(encoding="utf-8")
        count = len(re.findall(r"(?m)^.*\b(LLM_NOTIFY_PROMPT_UNLINK_FAILED|kNotifyPromptUnlinkFailed)\b.*$", text))
        _edit(repo, path, r"\b(LLM_NOTIFY_PROMPT_UNLINK_FAILED|kNotifyPromptUnlinkFailed)\b", "", count=count)


def english(repo: Path, before: dict) -> None:
    old = before["solution"]
    text = (repo / ENGLISH_PAGE_910).read_text(encoding="utf-8")
    assert text.count(old) == 1
    (repo / ENGLISH_PAGE_910).write_text(text.replace(old, old.rstrip(".") + ", and check the arguments."),
                                         encoding="utf-8")


NEW_TAGS = re.compile(rb', <a href="https://github\.com/hicann/hixl/tree/v9\.[3-5]\.0">v9\.[3-5]\.0</a>')
SHAPES = {"rename": rename, "value": value_fix, "removal": removal, "english": english}


def _covered(order) -> set:
    """What one ordering covers: each ordered triple of shapes it holds as a subsequence, and each
    (set of shapes imported before, shape) it imports."""
    return set(itertools.combinations(order, 3)) | {(frozenset(order[:i]), order[i]) for i in range(len(order))}


def _covering_orders(shapes) -> list[tuple[str, ...]]:
    """Orderings of the shapes that together cover what every ordering covers: greedily, each time
    the first ordering that covers most of what is still missing."""
    everything = list(itertools.permutations(shapes))
    missing, chosen = set().union(*map(_covered, everything)), []
    while missing:
        best = max(everything, key=lambda order: len(_covered(order) & missing))
        chosen.append(best)
        missing -= _covered(best)
    return chosen


ORDERS = _covering_orders(SHAPES)


def test_the_orders_cover_every_order_of_three_shapes_and_every_shape_after_every_set_of_others():
    triples = {triple for order in ORDERS for triple in itertools.combinations(order, 3)}
    assert triples == set(itertools.permutations(SHAPES, 3))
    states = {(frozenset(order[:i]), order[i]) for order in ORDERS for i in range(4)}
    assert states == {(frozenset(before), shape) for shape in SHAPES for n in range(4)
                      for before in itertools.combinations([s for s in SHAPES if s != shape], n)}
    assert len(states) == 32 and len(ORDERS) == 12 == len(set(ORDERS))


def _said(module) -> dict:
    """What the module says of every member (by its place: names and values may change) at every
    edition: recoverability and texts, both languages."""
    said = {}
    for place, member in enumerate(module.LLMStatusCode):
        for edition in member.editions:
            for lang in module.LANGUAGES:
                said[(place, edition, lang)] = (
                    member.recoverable(edition=edition), member.meaning(lang, edition=edition),
                    member.solution(lang, edition=edition))
    return said


@pytest.mark.parametrize("order", ORDERS, ids=["-".join(o) for o in ORDERS])
def test_four_shapes_in_any_order_import_and_keep_every_older_edition(order, tmp_path):
    upstream = build_upstream(tmp_path)
    commit_catalog(upstream.catalog)
    _generate(upstream.catalog, tmp_path / "before")
    module = generated_module(tmp_path / "before", "sequence_before")
    said_before = _said(module)
    before = {"solution": module.LLMStatusCode.LLM_PARAM_INVALID.solution("en", edition="9.1.0-v2")}
    release_of = {}
    for step, shape in enumerate(order):
        release = f"9.{2 + step}.0"
        SHAPES[shape](upstream.repo.path, before)
        upstream.repo.commit(release, f"v{release}")
        result = run_cli("import", "--catalog", upstream.catalog, "--upstream", f"{REPO}={upstream.repo.path}",
                         "--ref", f"v{release}")
        assert result.code == 0, (order, shape, result.out + result.err)
        release_of[shape] = release

    out = tmp_path / "after"
    _generate(upstream.catalog, out)
    check = run_cli("check", "--catalog", upstream.catalog, "--out", out)
    assert check.code == 0, check.out + check.err
    older_before, older_after = _older_outputs(tmp_path / "before"), _older_outputs(out)
    # the older editions link the renamed code's page by its new name; a version a new tag ships
    # unchanged gains the tag in its list of sources: facts, not changes
    moved = {path: NEW_TAGS.sub(b"", text.replace(b"codes/LLM_CACHE_NOT_EXIST/", b"codes/LLM_KV_CACHE_NOT_EXIST/"))
             for path, text in older_after.items()}
    assert [path for path in older_before if older_before[path] != moved.get(path)] == []

    module = generated_module(out, "sequence_after")
    said_after = _said(module)
    assert {key: said_after.get(key) for key in said_before} == said_before
    code = module.LLMStatusCode
    assert module.lookup("LLM_KV_CACHE_NOT_EXIST") is code.LLM_CACHE_NOT_EXIST
    assert int(code.LLM_TIMEOUT) == 0x5010B0FF and module.lookup(0x5010B01A) is code.LLM_TIMEOUT
    assert code.LLM_TIMEOUT.earlier_values == {0x5010B01A: {REPO: release_of["value"]}}
    assert code.LLM_NOTIFY_PROMPT_UNLINK_FAILED.removed_in == {REPO: release_of["removal"]}
    changed = f"{release_of['english']}-v2"
    new = before["solution"].rstrip(".") + ", and check the arguments."
    assert code.LLM_PARAM_INVALID.solution("en", edition=changed) == new
    assert code.LLM_PARAM_INVALID.solution("en", edition="9.1.0-v2") == before["solution"]
    audited = upstream.audit()
    assert audited.code == 0, audited.out


def split(repo: Path, before: dict) -> None:
    from tests.test_release_shapes import _split

    for page in (PYTHON_PAGE_910, ENGLISH_PAGE_910):
        _split(repo, page, page.replace(".md", "-2.md"), ("LLM_DEVICE_MEM_ERROR", "LLM_UNKNOWN_ERROR"),
               "LLMStatusCode-2")


PAIRS = [(shape, "split") for shape in SHAPES] + [("split", shape) for shape in SHAPES]


@pytest.mark.parametrize("order", PAIRS, ids=["-".join(o) for o in PAIRS])
def test_a_page_split_before_or_after_each_shape_imports_and_audits_clean(order, tmp_path):
    upstream = build_upstream(tmp_path)
    commit_catalog(upstream.catalog)
    _generate(upstream.catalog, tmp_path / "before")
    before = {"solution": generated_module(tmp_path / "before", "pair_before").LLMStatusCode.LLM_PARAM_INVALID
              .solution("en", edition="9.1.0-v2")}
    for step, shape in enumerate(order):
        release = f"9.{2 + step}.0"
        {**SHAPES, "split": split}[shape](upstream.repo.path, before)
        upstream.repo.commit(release, f"v{release}")
        result = run_cli("import", "--catalog", upstream.catalog, "--upstream", f"{REPO}={upstream.repo.path}",
                         "--ref", f"v{release}")
        assert result.code == 0, (order, shape, result.out + result.err)
    out = tmp_path / "after"
    _generate(upstream.catalog, out)
    check = run_cli("check", "--catalog", upstream.catalog, "--out", out)
    assert check.code == 0, check.out + check.err
    module = generated_module(out, "pair_after")
    newest = module.EDITIONS[-1] if module.EDITIONS[-1].endswith("-v2") else "9.3.0-v2"
    assert "9.3.0-v2" in module.LLMStatusCode.LLM_UNKNOWN_ERROR.editions, newest
    audited = upstream.audit()
    assert audited.code == 0, audited.out


BACKWARDS = [("english", "value"), ("value", "english"), ("rename", "english", "removal", "value")]


@pytest.mark.parametrize("order", BACKWARDS, ids=["-".join(o) for o in BACKWARDS])
def test_releases_imported_newest_first_say_what_they_say_imported_in_order(order, tmp_path):
    """Every tag made first, then imported newest first: the catalog says, through the module, what
    the same tags imported oldest first make it say, and the audit is clean."""
    said = {}
    for direction in ("forward", "backward"):
        upstream = build_upstream(tmp_path / direction)
        commit_catalog(upstream.catalog)
        _generate(upstream.catalog, tmp_path / direction / "before")
        before = {"solution": generated_module(tmp_path / direction / "before", f"{direction}_before")
                  .LLMStatusCode.LLM_PARAM_INVALID.solution("en", edition="9.1.0-v2")}
        releases = []
        for step, shape in enumerate(order):
            release = f"9.{2 + step}.0"
            SHAPES[shape](upstream.repo.path, before)
            upstream.repo.commit(release, f"v{release}")
            releases.append(release)
        for release in releases if direction == "forward" else reversed(releases):
            result = run_cli("import", "--catalog", upstream.catalog, "--upstream", f"{REPO}={upstream.repo.path}",
                             "--ref", f"v{release}")
            assert result.code == 0, (direction, release, result.out + result.err)
        out = tmp_path / direction / "after"
        _generate(upstream.catalog, out)
        module = generated_module(out, f"{direction}_after")
        said[direction] = (module.EDITIONS, _said(module))
        audited = upstream.audit()
        assert audited.code == 0, (direction, audited.out)
    assert said["backward"] == said["forward"]


def test_a_backport_imported_after_newer_releases_changes_no_later_edition(tmp_path):
    """v9.1.1, a release branch's backport of v9.3.0's zh text, imported after v9.2.0 and v9.3.0: it
    joined 9.3.0's entry, which then held from 9.1.1 on, over 9.2.0 (an entry holds until the next
    start on its timeline), and 9.2.0's page said the new words. Found importing simulated releases."""
    upstream = build_upstream(tmp_path)
    commit_catalog(upstream.catalog)
    _generate(upstream.catalog, tmp_path / "before")
    module = generated_module(tmp_path / "before", "backport_before")
    old = module.LLMStatusCode.LLM_PARAM_INVALID.solution("zh", edition="9.1.0-v2")
    new = old.rstrip("。") + "，并检查参数。"
    english = {"solution": module.LLMStatusCode.LLM_PARAM_INVALID.solution("en", edition="9.1.0-v2")}
    repo = upstream.repo

    def backported(path: Path) -> None:
        text = (path / PYTHON_PAGE_910).read_text(encoding="utf-8")
        assert text.count(old) == 1
        (path / PYTHON_PAGE_910).write_text(text.replace(old, new), encoding="utf-8")

    removal(repo.path, {})  # 9.2.0: a new page version whose texts stay
    repo.commit("9.2.0", "v9.2.0")
    backported(repo.path)  # 9.3.0: the text changes, and its English (the backport leaves the English)
    globals()["english"](repo.path, english)
    repo.commit("9.3.0", "v9.3.0")
    repo.git("checkout", "-q", "-b", "release-9.1", "v9.1.0")
    backported(repo.path)
    repo.commit("9.1.1", "v9.1.1")
    repo.git("checkout", "-q", "master")
    for release in ("9.2.0", "9.3.0", "9.1.1"):
        result = run_cli("import", "--catalog", upstream.catalog, "--upstream", f"{REPO}={upstream.repo.path}",
                         "--ref", f"v{release}")
        assert result.code == 0, (release, result.out + result.err)
    out = tmp_path / "after"
    _generate(upstream.catalog, out)
    code = generated_module(out, "backport_after").LLMStatusCode.LLM_PARAM_INVALID
    releases = ("9.1.0", "9.1.1", "9.2.0", "9.3.0")
    assert [code.solution("zh", edition=f"{r}-v2") for r in releases] == [old, new, old, new]
    # 9.1.1's English: to be translated, as imported in order (it joined 9.3.0's text, and 9.3.0's English)
    assert [code.solution("en", edition=f"{r}-v2") for r in ("9.1.0", "9.1.1", "9.2.0")] == \
        [english["solution"], None, english["solution"]]
    assert code.text_origin("en", edition="9.1.1-v2") == "untranslated"
    audited = upstream.audit()
    assert audited.code == 0, audited.out
