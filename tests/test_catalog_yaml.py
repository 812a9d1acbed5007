"""The catalog's YAML as `import` writes it (generator/importing/catalog_yaml.py): ruamel.yaml's round
trip, configured once, writes every committed catalog file back byte for byte, so that a diff holds
only what an import changed; any text an import writes reads back, under the catalog's own loader,
as exactly that text, or is refused when no catalog text may hold it; no character a diff does not
show is written raw; a comment stays before what it speaks of when entries around it change."""
from __future__ import annotations

import difflib

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

from generator.importing import catalog_yaml as cy
from generator.importing.page_source import ImportProblem
from generator.importing.text_entries import FieldEdit
from generator.reading.load import catalog_files
from generator.reading.yaml_source import bad_character, read_document, scalar_type
from tests.support.helpers import ROOT
from tests.support.upstream_formats import CATALOG as IMPORT_FIXTURE

# The committed catalog, and the fixture catalog the import's tests edit.
CATALOG_FILES = [*catalog_files(ROOT / "catalog"), *catalog_files(IMPORT_FIXTURE)]


@pytest.mark.parametrize("path", CATALOG_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_catalog_file_is_written_back_byte_for_byte(path):
    """A construct ruamel writes otherwise would be rewritten by the next import that touches its
    file: write it as ruamel does (one commit of layout only; `make generate` then writes nothing)."""
    text = path.read_text(encoding="utf-8")
    written = cy.dump(cy.load(text, str(path)))
    assert written == text, "".join(difflib.unified_diff(text.splitlines(True), written.splitlines(True), "as written",
                                                         "as ruamel.yaml writes it", n=1))


# Every code point, surrogates too, weighted towards what YAML gives a meaning to.
SPECIALS = "-?:,[]{}#&*!|>'\"%@`~ \t\n\r\\\u0085\u2028\u2029\ufeff\u200b\u202e\u00a0\u3000\x00\x1b\x7f"
TEXTS = st.one_of(
    st.text(alphabet=st.one_of(st.sampled_from(SPECIALS), st.characters()), max_size=40),
    st.sampled_from(["yes", "No", "null", "~", "8.10", "0x1F", "1e3", ".inf", "true", "-1", "0o7", "1_000", ""]),
)
HOSTILE = "Queue is full.\u2029    python:\u2029      SOME_NAME"


def _document(text: str) -> CommentedMap:
    """The text in every place an import writes one: a value, a key, an id, flow items, a flow
    mapping's value and key, a cell of an entry."""
    key = text[:100]  # keys are names
    return CommentedMap([
        ("value", cy.text(text)),
        ("keys", CommentedMap([(cy.text(key), "y")])),
        ("id", cy.ident(text)),
        ("flow", cy.flow([text, "x", text])),
        ("ids", cy.flow([text], quote=True)),
        ("map", cy.flow_map([("a", text), ("b", text)], ids=("a",))),
        ("map_keys", cy.flow_map([(key, "y")])),
        ("entries", CommentedSeq([CommentedMap([("from", cy.flow(["v"], quote=True)), ("zh", cy.cell(text))])])),
    ])


def _read(node):
    """What the catalog's loader reads: texts only (a scalar YAML types otherwise reads as None)."""
    if isinstance(node, ScalarNode):
        return node.value if scalar_type(node) == "str" else None
    if isinstance(node, SequenceNode):
        return [_read(item) for item in node.value]
    assert isinstance(node, MappingNode)
    return [(_read(k), _read(v)) for k, v in node.value]


@settings(max_examples=400, deadline=None, database=None, derandomize=True)
@given(TEXTS)
@example(HOSTILE)
@example("line\u2028    python: OTHER")
@example("a\rb")
@example(" lead\ntrail \n")
@example("- 1\n- 2")
@example("x" * 5000)
@example("x" * 4000 + "\n" + "y")
@example("x " * 2500)
@example("\ud800")
def test_every_writer_reads_back_as_the_text_or_refuses_what_no_catalog_text_may_hold(text):
    if bad_character(text) is not None:
        for write in (cy.text, cy.cell, cy.ident, lambda t: cy.flow([t]), lambda t: cy.flow_map([("a", t)])):
            with pytest.raises(ImportProblem, match="into the catalog so that it reads back as the same text: "
                                                    "control character"):
                write(text)
        return
    written = cy.dump(_document(text))
    doc, problems = read_document("written.yaml", written.encode("utf-8"))
    assert problems == [], (written, problems)
    key = text[:100]
    assert _read(doc.root) == [
        ("value", text), ("keys", [(key, "y")]), ("id", text), ("flow", [text, "x", text]), ("ids", [text]),
        ("map", [("a", text), ("b", text)]), ("map_keys", [(key, "y")]), ("entries", [[("from", ["v"]), ("zh", text)]]),
    ], written
    assert all(cy.shown(c) for c in written.replace("\n", "")), written  # invisible characters and tabs are escapes


def _written(value) -> str:
    """A value as the catalog's YAML writes it after `k: `."""
    return cy.dump(CommentedMap([("k", value)]))[len("k: "):-1]


def test_a_plain_scalar_only_where_it_is_one():
    assert type(cy.text("重试")) is str and type(cy.text("9.0.0")) is str
    assert _written(cy.text(HOSTILE)) == '"Queue is full.\\u2029    python:\\u2029      SOME_NAME"'
    assert _written(cy.text("no")) == '"no"' and _written(cy.ident("8.10")) == "'8.10'"
    assert _written(cy.flow(["a,b", "c"])) == '["a,b", c]'
    assert _written(cy.cell("1. 一\n2. 二")) == "|-\n  1. 一\n  2. 二"
    assert _written(cy.cell("1. 一\u2028\n2. 二")) == '"1. 一\\u2028\\n2. 二"'
    assert _written(cy.text("x " * 2500)) == '"' + "x " * 2500 + '"'  # one line, though wider than the width


def test_a_comment_between_entries_stays_before_the_entry_it_speaks_of():
    """An entry split where a comment follows it: the comment stays before the entry it speaks of."""
    text = ("codes:\n  - python: X\n    meaning:\n"
            "      - from: ['a', 'c']\n        zh: 一\n        en: One\n"
            "      # about b\n"
            "      - from: ['b']\n        zh: 二\n")
    doc = cy.load(text, "codes.yaml")
    edit = FieldEdit(doc["codes"][0], "meaning", ("zh", "en"))
    edit.give("c", "en", "Another", False)  # from 'c' on, another English: the entry's English is split off
    edit.write()
    assert cy.dump(doc) == ("codes:\n  - python: X\n    meaning:\n"
                            "      - from: ['a', 'c']\n        zh: 一\n"
                            "      - from: ['a']\n        en: One\n"
                            "      # about b\n"
                            "      - from: ['b']\n        zh: 二\n"
                            "      - from: ['c']\n        en: Another\n")


def test_a_text_given_again_where_it_holds_already_changes_nothing():
    """The English an entry gives a version, given again (a page imported twice): no byte changes,
    not even the order of its `from`."""
    text = "codes:\n  - python: X\n    meaning:\n      - from: ['v', 'a']\n        zh: 一\n        en: One\n"
    doc = cy.load(text, "codes.yaml")
    edit = FieldEdit(doc["codes"][0], "meaning", ("zh", "en"))
    edit.give("v", "en", "One", False)
    edit.write()
    assert cy.dump(doc) == text
