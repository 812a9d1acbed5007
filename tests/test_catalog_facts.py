"""The catalog against upstream-facts.md (kept as a fixture): every value, name and cell."""
import pytest

from tests import upstream

RECOVERABLE_OF_ROW = {"yes", "no", "n/a", "not known"}


def test_every_code_of_the_facts_is_in_the_catalog_with_its_names_and_value(catalog):
    facts = upstream.fact_codes()
    got = [(c.python_name, c.c_name, c.value) for c in catalog.codes]
    assert got == [(f.python, f.c, f.value) for f in facts]


def test_python_members_are_in_upstream_order(catalog):
    assert [c.python_name for c in catalog.python_codes] == [f.python for f in upstream.fact_codes() if f.python]
    assert len(catalog.python_codes) == 29


def test_c_only_and_python_only_codes(catalog):
    c_only = [c.c_name for c in catalog.codes if not c.in_python]
    python_only = [c.python_name for c in catalog.codes if not c.in_c]
    assert c_only == [f.c for f in upstream.fact_codes() if "C++ only" in f.where]
    assert python_only == [f.python for f in upstream.fact_codes() if "Python only" in f.where]
    assert len(c_only) == 4 and len(python_only) == 3


def test_public_cpp_api_is_recorded(catalog):
    public = [c.c_name for c in catalog.codes if f"llm_datadist::{c.c_name}" in c.cpp_names]
    assert public == upstream.fact_public_api()


def test_editions_are_declared_oldest_first(catalog):
    editions, _ = upstream.fact_matrix()
    ids = [e.id for e in catalog.editions]
    assert ids == list(editions)


@pytest.mark.parametrize("name", [c.python for c in upstream.fact_codes() if c.python])
def test_presence_matrix_cell(catalog, name):
    """Each cell of facts §2: listed with its recoverability, not listed, or not known."""
    editions, matrix = upstream.fact_matrix()
    code = catalog.code_by_name[name]
    for edition_id in editions:
        edition = catalog.edition_by_id[edition_id]
        cell = matrix[name][edition_id]
        row = edition.row_by_code.get(name)
        if cell == "?":
            assert row is None and name in edition.not_known, (edition_id, name)
        elif cell is None:
            assert row is None and name not in edition.not_known, (edition_id, name)
        else:
            assert row is not None and row.recoverable == cell, (edition_id, name)
    assert code.python_name == name


def test_registered_log_messages(catalog):
    messages = upstream.fact_messages()
    got = {c.c_name: c.log_message for c in catalog.codes if c.log_message is not None}
    assert got == messages


def test_editions_without_a_copy_of_their_texts_have_none(catalog):
    for edition in catalog.editions:
        if edition.id not in ("9.0.0-v1", "9.0.0-v2"):
            assert not edition.texts_known
            assert all(code.text(f, edition.id, lang) is None
                       for code in catalog.codes for f in ("meaning", "solution") for lang in ("zh", "en"))


def test_v2_english_is_marked_as_this_projects_translation(catalog):
    assert catalog.edition_by_id["9.0.0-v2"].text_origin("en") == "translation"
    assert catalog.edition_by_id["9.0.0-v2"].text_origin("zh") == "upstream"
    assert catalog.edition_by_id["9.0.0-v1"].text_origin("en") == "upstream"
