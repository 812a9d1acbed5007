"""The scalars `import` writes into the catalog (generator/importing/yaml_edit.py): any text reads
back, under the catalog's own loader, as exactly that text, or is refused when no catalog text
may hold it; no character a diff does not show is written raw."""
from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

from generator.reading.yaml_source import bad_character, read_document, scalar_type
from generator.importing import yaml_edit as ye
from generator.importing.page_source import ImportProblem

# Every code point, surrogates too, weighted towards what YAML gives a meaning to.
SPECIALS = "-?:,[]{}#&*!|>'\"%@`~ \t\n\r\\\u0085\u2028\u2029\ufeff\u200b\u202e\u00a0\u3000\x00\x1b\x7f"
TEXTS = st.one_of(
    st.text(alphabet=st.one_of(st.sampled_from(SPECIALS), st.characters()), max_size=40),
    st.sampled_from(["yes", "No", "null", "~", "8.10", "0x1F", "1e3", ".inf", "true", "-1", "0o7", "1_000", ""]),
)
HOSTILE = "Queue is full.\u2029    python:\u2029      SOME_NAME"


def _value(document: str):
    doc, problems = read_document("written.yaml", document.encode("utf-8"))
    assert problems == [], (document, problems)
    return doc.root


def _text(node) -> str:
    assert isinstance(node, ScalarNode) and scalar_type(node) == "str", node
    return node.value


def _reads_back(text: str) -> None:
    """Each writer's output, where the importer puts it, read by the catalog's loader."""
    root = _value(f"k: {ye.scalar(text)}\n")
    assert isinstance(root, MappingNode) and len(root.value) == 1 and _text(root.value[0][1]) == text
    root = _value(f"k: {ye.quoted(text)}\n")
    assert _text(root.value[0][1]) == text
    key = text[:1000]  # YAML's limit on a key on one line is 1024 characters; keys are names
    root = _value(ye.entry(key, text) + "\n")
    assert [(_text(k), _text(v)) for k, v in root.value] == [(key, text)]
    root = _value(f"k: {ye.flow([text, 'x', text], quote=False)}\n")
    items = root.value[0][1]
    assert isinstance(items, SequenceNode) and [_text(n) for n in items.value] == [text, "x", text]
    root = _value(f"k: {ye.flow([text], quote=True)}\n")
    assert [_text(n) for n in root.value[0][1].value] == [text]
    root = _value(f"k: {ye.flow_map([('a', text), (key or 'b', 'y')], ids=('a',))}\n")
    assert [(_text(k), _text(v)) for k, v in root.value[0][1].value] == [("a", text), (key or "b", "y")]
    lines = ye.text_lines("zh", text, 8)
    root = _value("k:\n" + "".join(line + "\n" for line in lines))
    assert _text(root.value[0][1].value[0][1]) == text


def _written(text: str) -> list[str]:
    return [ye.scalar(text), ye.quoted(text), ye.flow([text]), ye.flow_map([("a", text)]),
            *ye.text_lines("zh", text, 8)]


@settings(max_examples=400, deadline=None, database=None, derandomize=True)
@given(TEXTS)
@example(HOSTILE)
@example("line\u2028    python: OTHER")
@example("a\rb")
@example(" lead\ntrail \n")
@example("- 1\n- 2")
@example("x" * 5000)
@example("x" * 4000 + "\n" + "y")
@example("\ud800")
def test_every_writer_reads_back_as_the_text_or_refuses_what_no_catalog_text_may_hold(text):
    if bad_character(text) is not None:
        for write in (ye.scalar, ye.quoted, lambda t: ye.flow([t]), lambda t: ye.text_lines("zh", t, 8)):
            try:
                write(text)
            except ImportProblem as problem:
                assert "into the catalog so that it reads back as the same text: control character" in str(problem)
            else:
                raise AssertionError(f"{text!r} written, though no catalog text may hold it")
        return
    _reads_back(text)
    for form in _written(text):
        assert all(ye.shown(c) for c in form), form  # invisible characters, tabs and line breaks are escapes


def test_a_plain_scalar_only_where_it_is_one():
    assert ye.scalar("重试") == "重试" and ye.scalar("9.0.0") == "9.0.0"
    assert ye.scalar(HOSTILE) == '"Queue is full.\\u2029    python:\\u2029      SOME_NAME"'
    assert ye.scalar("no") == '"no"' and ye.quoted("8.10") == "'8.10'"
    assert ye.flow(["a,b", "c"]) == '["a,b", c]'
    assert ye.text_lines("zh", "1. 一\n2. 二", 8) == ["        zh: |-", "          1. 一", "          2. 二"]
    assert ye.text_lines("zh", "1. 一\u2028\n2. 二", 8) == ['        zh: "1. 一\\u2028\\n2. 二"']
