"""Unit tests of the pure layers: escaping for each place a text lands, text blocks,
release order, and the changes between editions (on the mini catalog)."""
import ast
import html
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from generator.domain import changes

from generator.rendering import escape

from generator.domain import blocks as textblocks

from generator.core import releases as versions
from generator.reading.load import load_catalog
from generator.domain.changes import Event, Presence
from generator.rendering.site.markup import text_markup as text_html
from tests.support.helpers import MINI
from tests.support.hostile import live_markup
from tests.support.site_build import page_html

# Text from any catalog: every code point YAML can carry (no surrogates), weighted
# towards the characters each syntax gives a meaning to.
SPECIALS = "\\\"'`*_[]{}<>&|#+-=.)!?/ \t\n\u2028\u2029\u200b\u00ad\x85{%}"
texts = st.text(alphabet=st.one_of(st.sampled_from(SPECIALS), st.characters(blacklist_categories=("Cs",))), max_size=40)


# -- Python --------------------------------------------------------------------------------------------


@given(texts)
@example('"""and __import__("os").system("touch PWNED")or"""')
@example("\\N{BULLET} \\x00 \\")
def test_py_str_evaluates_to_the_text(text):
    literal = escape.py_str(text)
    assert ast.literal_eval(literal) == text
    assert "\n" not in literal and "\r" not in literal


@given(texts)
@example('"""and __import__("os").system("touch PWNED")or"""')
@example('ends with a quote"')
def test_py_doc_inside_a_docstring_evaluates_to_the_text(text):
    assert ast.literal_eval('"""' + escape.py_doc(text) + '"""') == text


def test_py_str_keeps_chinese_readable_and_escapes_invisible_marks():
    assert escape.py_str("重试") == '"重试"'
    assert escape.py_str("a\u200bb") == '"a\\u200bb"'
    assert escape.py_opt(None) == "None"


# -- C -------------------------------------------------------------------------------------------------


def c_literal_bytes(literal: str) -> bytes:
    """Decode a C string literal as a compiler would (the escapes c_str writes)."""
    assert literal[0] == literal[-1] == '"'
    body, out, i = literal[1:-1], bytearray(), 0
    named = {"n": 10, "t": 9, "\\": 92, '"': 34, "?": 63}
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            assert 0x20 <= ord(ch) <= 0x7E and ch not in '"?'
            out.append(ord(ch))
            i += 1
        elif body[i + 1] in named:
            out.append(named[body[i + 1]])
            i += 2
        else:
            digits = body[i + 1:i + 4]
            assert re.fullmatch(r"[0-7]{3}", digits), body
            out.append(int(digits, 8))
            i += 4
    return bytes(out)


@given(texts)
@example("??= trigraph ??/")
def test_c_str_is_the_utf8_bytes_of_the_text(text):
    literal = escape.c_str(text)
    assert c_literal_bytes(literal) == text.encode("utf-8")
    assert "??" not in literal


TRIGRAPHS = dict(zip("=/'()!<>-", "#\\^[]|{}~"))


def c_phases_1_2(source: str) -> str:
    """The source as a C compiler reads it after translation phases 1 and 2: trigraphs replaced,
    and each backslash-newline removed (GCC's too when spaces come between them)."""
    source = re.sub(r"\?\?([=/'()!<>-])", lambda m: TRIGRAPHS[m.group(1)], source)
    return re.sub(r"\\[ \t\f\v]*(?:\r\n|\r|\n)", "", source)


@given(texts)
@example("*/ static const int injected = 42; /*")
@example("a*//*b ??/")
@example("*\\\n/ int injected; /\\\n*")
@example("*??/\n/ int injected; /??/\n*")
@example("end \\ \t")
@example("bidi \u202e \u2066 \u200f \u061c \r \x85 \u2028")
def test_c_comment_cannot_end_or_nest_the_comment(text):
    inside = escape.c_comment(text)
    assert "*/" not in inside and "/*" not in inside and "??" not in inside
    seen = c_phases_1_2(f"/* {inside} */")  # as written is not enough: phases 1-2 come first
    assert seen.count("*/") == 1 and seen.endswith(" */") and "/*" not in seen[2:]
    assert not re.search(r"\\\s*$", inside, re.M)
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]", inside)


# -- HTML and Jinja ----------------------------------------------------------------------------------------


@given(texts)
@example("<img src=x onerror=alert(1)>")
@example("<!-- hides the page")
def test_html_text_is_inert_and_exact(text):
    out = escape.html_text(text)
    assert "<" not in out and ">" not in out and '"' not in out and "'" not in out
    assert html.unescape(out) == text


@given(texts)
@example("{{ config.extra }} {% include 'x' %} {# c #}")
def test_html_in_jinja_leaves_no_brace_to_open_a_tag(text):
    out = escape.html_in_jinja(text)
    assert "{" not in out and "}" not in out and html.unescape(out) == text


@given(texts)
@example("<img src=x onerror=alert(1)> &lt;b&gt; Follow the system's setting")
def test_html_read_as_html_is_inert_when_a_script_inserts_the_attribute_as_html(text):
    attribute = escape.html_read_as_html(text)
    assert '"' not in attribute and "<" not in attribute
    read = html.unescape(attribute)  # what a script reads from the attribute, and sets as innerHTML
    assert "<" not in read and html.unescape(read) == text


# -- Markdown ----------------------------------------------------------------------------------------------


def rendered_text(markdown_text: str) -> str:
    out = page_html(markdown_text)
    out = re.sub(r"^<p>|</p>$", "", out)
    assert not re.search(r"<(?!br\s*/?>)[a-zA-Z/!]", out), f"markup appeared: {out!r}"
    return html.unescape(out.replace("<br />", "\n").replace("<br>", "\n"))


line_texts = st.text(alphabet=st.one_of(st.sampled_from("\\`*_[]{}<>&|#+-=.)! 1"), st.sampled_from("ab中文")),
                     min_size=1, max_size=30).filter(lambda t: t.strip() == t and t)


@settings(max_examples=300, deadline=None)  # the first loads MkDocs' configuration
@given(line_texts)
@example("# C#")
@example("1. not a list")
@example("- not a bullet")
@example("<script>alert(1)</script>")
@example("a | b")
@example("[link](http://x) *em* __strong__ `code`")
@example('!!! danger "x"')
@example("~~~")
def test_md_inline_renders_to_exactly_the_text(text):
    assert rendered_text(escape.md_inline(text)) == text


@settings(deadline=None)
@given(texts)
@example('HIXL ![x](x){onerror=console.log(1)} [docs](javascript:alert(1)) <javascript:alert(1)>')
@example('x\n\n{: onclick="alert(2)" }\n\n[r]: javascript:alert(3)\n\n[r] *e*{: onclick="alert(4)" }')
def test_html_in_markdown_is_exact_as_html_and_inert_as_markdown(text):
    out = escape.html_in_markdown(text)
    assert html.unescape(out) == text
    for place in (f"x {out}", f'<span class="x">{out}</span>', f'<p class="x">{out}</p>'):
        rendered = page_html(place)
        assert not live_markup(rendered) and not re.search(r"<(?:a|img|script)\b", rendered), (place, rendered)


def test_md_inline_line_breaks_become_br():
    assert escape.md_inline("a\nb") == "a<br>b"


# -- text blocks -------------------------------------------------------------------------------------------


def test_blocks_group_paragraphs_bullets_and_numbered_steps():
    text = "Intro line\nSecond line\n- one\n- two\n1. first\n2. second\n4. renumbered\nAfter"
    got = textblocks.blocks(text)
    assert [(b.kind, b.items, b.start) for b in got] == [
        ("p", ("Intro line", "Second line"), 1),
        ("ul", ("one", "two"), 1),
        ("ol", ("first", "second"), 1),
        ("ol", ("renumbered",), 4),
        ("p", ("After",), 1),
    ]


def test_the_sites_text_html_keeps_the_structure_and_escapes_the_items():
    html = text_html("Do this:\n- a <b>\n- c|d\n3. three\nsee https://example.org/a_b.")
    assert html == ('<p>Do this:</p><ul><li>a &lt;b&gt;</li><li>c|d</li></ul><ol start="3"><li>three</li></ol>'
                    '<p>see <a href="https://example.org/a_b" rel="noopener">https://<wbr>example.<wbr>org/<wbr>a_<wbr>b</a>.</p>')


def test_a_dash_without_space_or_a_number_without_dot_is_a_paragraph():
    assert [b.kind for b in textblocks.blocks("-x\n1 x\n10.x")] == ["p"]


# -- release order -------------------------------------------------------------------------------------------


def test_release_order_of_the_contract():
    releases = ["8.0.RC3", "8.0.0", "8.2.RC1", "8.5.0", "9.0.0-beta.1", "9.0.0", "9.0.1", "9.1.0", "9.2.0-beta.1",
                "unreleased"]
    shuffled = list(reversed(releases))
    assert sorted(shuffled, key=versions.release_key) == releases


@pytest.mark.parametrize(
    "tag, release",
    [
        ("v9.0.0", "9.0.0"),
        ("V8.0.RC3", "8.0.RC3"),
        ("9.1.0", "9.1.0"),
        ("latest", None),
        ("vunreleased", None),
        ("v9.0.0-beta.2.pre", "9.0.0-beta.2.pre"),
    ],
)
def test_tag_release(tag, release):
    assert versions.tag_release(tag) == release


def test_prereleases_and_sort_tags():
    key = versions.release_key
    assert key("9.0.0-beta.1") < key("9.0.0-rc.1") < key("9.0.0") < key("9.0.1") and key("8.0.RC3") < key("8.0.0")
    assert key("9.9.9") < key("unreleased")
    assert versions.sort_tags(["v9.0.0", "master", "v9.0.0-beta.1", "v8.5.0", "v10.0.0"]) == \
        ["v8.5.0", "v9.0.0-beta.1", "v9.0.0", "v10.0.0", "master"]
    assert versions.release_key("9.0") == versions.release_key("9.0.0")
    assert versions.release_key("not a release") is None


def test_a_trailing_pre_comes_before_the_release_it_follows(catalog):
    """v9.1.0-beta.2.pre is upstream's tag of the branch 9.1.0-beta.2 (one commit): the branch's
    release sorted before its tag's, and `upstream-source --ref 9.1.0-beta.2` wrote GE's 9.1.0-beta.1
    registry (and exit 1, "upstream has ..."). Found comparing upstream-source with every branch head."""
    from generator.rendering.upstream_source import render_registry

    order = ["9.1.0-beta.1", "9.1.0-beta.2.pre", "9.1.0-beta.2", "9.1.0-beta.2.1", "9.1.0-beta.3", "9.1.0.pre",
             "9.1.0-rc.1", "9.1.0"]
    assert sorted(reversed(order), key=versions.release_key) == order
    ge = catalog.message_family_by_id["ge"]
    assert render_registry(ge, "9.1.0-beta.2") == render_registry(ge, "9.1.0-beta.2.pre") \
        != render_registry(ge, "9.1.0-beta.1")


# -- changes, on the mini catalog -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def demo():
    return load_catalog(MINI).families[0]


def test_presence_distinguishes_listed_not_listed_and_not_known(demo):
    first = demo.edition_by_id["1.0"]
    assert changes.presence(first, demo.code_by_name["DEMO_BUSY"]) == Presence.LISTED
    assert changes.presence(first, demo.code_by_name["DEMO_ODD"]) == Presence.NOT_KNOWN


def test_history_stays_inside_its_timeline(demo):
    busy = demo.code_by_name["DEMO_BUSY"]
    for timeline in demo.timelines:
        steps = changes.history(demo, busy, timeline)
        assert {s.edition.timeline.id for s in steps} <= {timeline.id}
    new = next(t for t in demo.timelines if t.id == "new")
    (step,) = changes.history(demo, busy, new)
    assert step.events == (Event.FIRST_LISTED,)  # not "changed" from the other timeline's 1.0


def test_compare_editions_calls_the_end_of_an_unknown_became_known_not_a_change(demo):
    ok = demo.code_by_name["DEMO_OK"]
    old, new = demo.edition_by_id["1.0"], demo.edition_by_id["2.0-new"]
    assert old.row_by_code["DEMO_OK"].recoverable == "not known" and new.row_by_code["DEMO_OK"].recoverable == "n/a"
    diff = changes.compare_editions(demo, old, new)
    assert "DEMO_OK" in [c.code for c in diff.became_known]
    assert "DEMO_OK" not in [c.code for c in diff.recoverable]
    busy = [c for c in diff.recoverable if c.code == "DEMO_BUSY"]
    assert busy and (busy[0].before, busy[0].after) == ("yes", "no")
    assert ok.name not in diff.added and ok.name not in diff.dropped


def test_an_unknown_ref_is_told_with_the_newest_release_tags_and_how_many_there_are():
    from types import SimpleNamespace

    from generator.importing.page_source import unknown_ref

    def repo(*tags):
        return SimpleNamespace(release_tags=lambda: tags)

    many = repo(*(f"v9.{i}.0" for i in range(13)))
    assert unknown_ref("v9.9.9", "o/r", many) == (
        "--ref v9.9.9: no such tag, branch or commit in o/r; its release tags: v9.8.0, v9.9.0, v9.10.0, v9.11.0, "
        "v9.12.0 (the newest 5 of 13)")
    assert unknown_ref("x", "o/r", repo("v1.0.0", "v1.1.0")).endswith("its release tags: v1.0.0, v1.1.0")
    assert unknown_ref("x", "o/r", repo()).endswith("its release tags: none")
