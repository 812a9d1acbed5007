"""The catalog's content against upstream facts recorded as fixtures: upstream-facts.md (names,
values, order, the old editions) and upstream-editions.json (every file version each release
ships, read from upstream's repositories). A new release means adding its facts there."""
import pytest

from tests import facts

ZH = {"是": "yes", "否": "no", "无": "n/a"}
EN = {"Yes": "yes", "No": "no", "None": "n/a", "N/A": "n/a"}


def test_every_code_of_the_facts_is_in_the_catalog_with_its_names_and_value(llm):
    got = [(c.python_name, c.c_name, c.value) for c in llm.codes]
    assert got == [(f.python, f.c, f.value) for f in facts.fact_codes()]


def test_python_members_are_in_upstream_order(llm):
    assert [c.python_name for c in llm.python_codes] == [f.python for f in facts.fact_codes() if f.python]
    assert [c.python_name for c in llm.python_codes][:4] == ["LLM_SUCCESS", "LLM_FAILED", "LLM_PARAM_INVALID", "LLM_WAIT_PROCESS_TIMEOUT"]


def test_c_only_and_python_only_codes(llm):
    assert [c.c_name for c in llm.codes if not c.in_python] == [f.c for f in facts.fact_codes() if "C++ only" in f.where]
    assert [c.python_name for c in llm.codes if not c.in_c] == [f.python for f in facts.fact_codes() if "Python only" in f.where]


def test_public_cpp_api_is_recorded_with_its_header(llm):
    public = [c.c_name for c in llm.codes for n in c.cpp if n.name == f"llm_datadist::{c.c_name}"]
    assert sorted(public) == sorted(facts.fact_public_api())
    assert all(n.header == "llm_datadist/llm_datadist.h" for c in llm.codes for n in c.cpp if n.namespace == "llm_datadist")


def test_every_c_code_has_its_ge_name(llm):
    """llm_error_codes.h declares every LLM code in ge::; SUCCESS and FAILED come from another GE header."""
    for code in llm.c_codes:
        ge = [n for n in code.cpp if n.namespace == "ge"]
        assert len(ge) == 1, code.name
        if code.value in (0, 0xFFFFFFFF):
            assert ge[0].header is None and ge[0].short in ("SUCCESS", "FAILED")
        else:
            assert ge[0].short == code.c_name and ge[0].header == "llm_datadist/llm_error_codes.h"


def test_registered_log_messages(llm):
    assert {c.c_name: c.log_message for c in llm.codes if c.log_message is not None} == facts.fact_messages()


def test_wrappers_are_the_28_members_code_2_status_maps(llm):
    wrapped = [c.python_name for c in llm.python_codes if c.wrapper]
    assert len(wrapped) == 28 and "LLM_UNKNOWN_ERROR" not in wrapped


@pytest.mark.parametrize("name", [c.python for c in facts.fact_codes() if c.python])
def test_presence_matrix_cell(llm, name):
    """Each cell of facts §2: listed with its recoverability, not listed, or not known."""
    editions, matrix = facts.fact_matrix()
    for edition_id in editions:
        edition = llm.edition_by_id[edition_id]
        cell = matrix[name][edition_id]
        row = edition.row_by_code.get(name)
        if cell == "?":
            assert row is None and name in edition.not_known, (edition_id, name)
        elif cell is None:
            assert row is None and name not in edition.not_known, (edition_id, name)
        else:
            assert row is not None and row.recoverable == cell, (edition_id, name)


def _recorded():
    return [(family, edition_id, data) for family, editions in facts.recorded_editions().items()
            for edition_id, data in editions.items()]


@pytest.mark.parametrize("family_id,edition_id,data", _recorded(), ids=lambda v: v if isinstance(v, str) else "")
def test_edition_is_what_upstream_ships(catalog, family_id, edition_id, data):
    family = catalog.family_by_id[family_id]
    assert edition_id in family.edition_by_id, f"{family_id}: the recorded edition {edition_id} is not in the catalog"
    edition = family.edition_by_id[edition_id]
    assert (edition.timeline.id, edition.release) == (data["timeline"], data["release"])
    named = {(s.repo, s.path, s.commit, s.tags, s.branch) for s in edition.sources if s.kind == "repo" and s.lang == "zh"}
    for f in data["files"]:
        assert (f["repo"], f["path"], f["commit"], tuple(f["tags"]), f["branch"]) in named, f
    names = [code.name_on(edition.page) for code in (family.code_by_name[r.code] for r in edition.rows)]
    shown = [str(family.code_by_name[r.code].value) for r in edition.rows] if edition.page.first_column == "decimal" else names
    assert shown == [row[0] for row in data["zh"]]
    for row, recorded in zip(edition.rows, data["zh"]):
        assert row.recoverable == ZH[recorded[1]], (row.code, recorded[1])
        code = family.code_by_name[row.code]
        for field_name, digest in recorded[2:]:
            assert facts.text_digest(code.text(field_name, edition_id, "zh")) == digest, (row.code, field_name)
    if "en" in data:
        en = data["en"]
        assert ("libochao-huawei/hixl", en["path"], en["commit"]) in {(s.repo, s.path, s.commit) for s in edition.sources if s.lang == "en"}
        for row, recorded in zip(edition.rows, en["rows"]):
            assert dict(row.disagreements).get("en", row.recoverable) == EN[recorded[1]], row.code
            code = family.code_by_name[row.code]
            for field_name, digest in recorded[2:]:
                entry = code.entry(field_name, edition_id, "en")
                assert entry.origin == "upstream" and facts.text_digest(entry.text) == digest, (row.code, field_name)


def test_every_repository_edition_has_recorded_facts(catalog):
    recorded = facts.recorded_editions()
    for family in catalog.families:
        for edition in family.editions:
            if any(s.kind == "repo" and s.lang == "zh" for s in edition.sources):
                assert edition.id in recorded.get(family.id, {}), (
                    f"{family.id}: edition {edition.id} is not in the recorded facts: add what upstream ships "
                    "to tests/fixtures/upstream-editions.json")


def test_english_is_upstream_only_where_upstream_wrote_it(catalog):
    """An English text is upstream's only on an edition whose zh file upstream's English page
    translates, or where its zh text is the zh of a cell with upstream English (that English)."""
    for family in catalog.families:
        direct = {e.id for e in family.editions if any(s.lang == "en" and s.kind in ("repo", "seed") for s in e.sources)}
        upstream_en = {}
        for code in family.codes:
            for field_name, entries in code.texts:
                for entry in entries:
                    if entry.lang == "en" and entry.origin == "upstream":
                        for edition_id in entry.editions:
                            if edition_id in direct:
                                upstream_en.setdefault(code.text(field_name, edition_id, "zh"), set()).add(entry.text)
        for code in family.codes:
            for field_name, entries in code.texts:
                for entry in entries:
                    if entry.lang != "en" or entry.origin != "upstream":
                        continue
                    for edition_id in entry.editions:
                        if edition_id in direct:
                            continue
                        zh = code.text(field_name, edition_id, "zh")
                        if family.edition_by_id[edition_id].page.id == "cpp-deprecated" and field_name == "meaning":
                            assert entry.text == zh  # that page's meanings are upstream's English already
                            continue
                        assert entry.text in upstream_en.get(zh, set()), (family.id, code.name, field_name, edition_id)


def test_texts_not_known_only_before_any_copy_exists(catalog):
    for family in catalog.families:
        unknown = [e.id for e in family.editions if not e.texts_known]
        assert unknown == (["8.0.RC3", "8.0.0", "8.2.RC1"] if family.id == "llm_datadist" else [])


def test_every_known_edition_has_both_languages(catalog):
    for family in catalog.families:
        for edition in family.editions:
            if edition.texts_known:
                assert edition.languages == ("zh", "en"), edition.id


def test_enum_members_on_the_python_pages_and_c_names_on_the_cpp_pages(llm):
    for edition in llm.editions:
        for row in edition.rows:
            assert llm.code_by_name[row.code].name_on(edition.page) is not None, (edition.id, row.code)
