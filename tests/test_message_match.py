"""A logged line matched to the template of its message (generator/rendering/runtime/message_match.py,
which explain and the generated modules share): placeholders take any text, the prefix of a log
line is ignored, the most specific template wins and equal ones are all answers, and the work is
linear in the line's length whatever the templates."""
from __future__ import annotations

import pytest

from generator.rendering.runtime.message_match import (
    best_matches, match_template, message_start, specificity, template_pieces,
)
from tests.support.patterns import RATIO_BOUND, cost

PREFIX = "[ERROR] GE(12345,python):2026-12-06-12:00:00.123.456 [ge_api.cc:123] "
TEMPLATES = {
    "E10003": template_pieces("Value %s for parameter --%s is invalid. Reason: %s"),
    "E10001": template_pieces("Value %s for parameter %s is invalid. Reason: %s"),
    "E10008": template_pieces("--weight must not be empty when --framework is set to 0 (Caffe)."),
    "E19999": template_pieces("%s"),
    "X1": template_pieces("Op %s failed at %s."),
    "X2": template_pieces("Op %s failed at node %s."),
    "Y1": template_pieces("Cannot open %s."),
    "Y2": template_pieces("Cannot %s file."),
}


def test_placeholders_take_the_text_between_the_pieces_and_the_prefix_is_ignored():
    line = PREFIX + "Value 1.1,2,4,8 for parameter --dynamic_batch_size is invalid. Reason: digits only."
    assert match_template(TEMPLATES["E10003"], line) == ("1.1,2,4,8", "dynamic_batch_size", "digits only.")
    assert best_matches(line, TEMPLATES) == [("E10003", ("1.1,2,4,8", "dynamic_batch_size", "digits only."))]


def test_a_message_without_placeholders_is_the_end_of_the_line():
    line = PREFIX + "--weight must not be empty when --framework is set to 0 (Caffe)."
    assert best_matches(line, TEMPLATES) == [("E10008", ())]
    assert match_template(TEMPLATES["E10008"], line + " and more") is None
    assert match_template(template_pieces("failed"), "the link xfailed") is None  # no word runs into it


def test_the_most_specific_template_wins_and_equal_ones_are_all_answers():
    assert [key for key, _ in best_matches("Op add failed at node conv1.", TEMPLATES)] == ["X2"]
    assert specificity(TEMPLATES["Y1"]) == specificity(TEMPLATES["Y2"])
    assert [key for key, _ in best_matches("Cannot open file.", TEMPLATES)] == ["Y1", "Y2"]
    assert best_matches("nothing of the kind", {"Y1": TEMPLATES["Y1"]}) == []


def test_a_template_that_is_only_a_placeholder_takes_the_message():
    assert message_start(PREFIX + "E10003: Value") == len(PREFIX) + len("E10003: ")
    assert match_template(TEMPLATES["E19999"], PREFIX + "anything at all  ") == ("anything at all",)


def test_what_comes_before_a_named_id_is_no_placeholders_value():
    """GE's Python API raises `{api} failed; {context}; {message}` (api/python/ge/ge/error.py): the
    message starts after the id, not at the start of the line."""
    leading = template_pieces("%s failed. Reason: %s.")
    for before in ("ge.error.GeError: run_graph failed; graph_id=1; ", "RuntimeError: ", PREFIX):
        line = before + "E10059: Build graph failed. Reason: graph 1 has no output."
        assert match_template(leading, line) == ("Build graph", "graph 1 has no output"), before
    # a template that starts with its own text, which the context before the id holds too
    exclusive = template_pieces("--%s and --%s are mutually exclusive.")
    line = "build_model failed; options=--framework 5; E10047: --input_shape and --input_shape_range are mutually " \
           "exclusive."
    assert match_template(exclusive, line) == ("input_shape", "input_shape_range")
    assert match_template(exclusive, "see --help\nE10047: --a and --b are mutually exclusive.") == ("a", "b")


def test_a_value_stops_at_the_end_of_the_messages_line():
    """CANN's whole error text: the message, then `Solution:` and `TraceBack` lines (CRLF or LF)."""
    for newline in ("\r\n", "\n"):
        text = newline.join([
            "load_model failed; path=/m.om; E10003: [PID: 42] 2026-12-06-12:00:00 Value 3 for parameter --mode is "
            "invalid. Reason: not 0 or 1.", "        Solution: Try again with a valid argument.",
            "        TraceBack (most recent call last):", "        Load model failed.", ""])
        assert match_template(TEMPLATES["E10003"], text) == ("3", "mode", "not 0 or 1."), repr(newline)
        assert match_template(TEMPLATES["E19999"], "E19999: inner error" + newline + "TraceBack") == ("inner error",)
        assert match_template(TEMPLATES["E10008"], "E10008: " + TEMPLATES["E10008"][0] + newline + "  Solution: x") \
            == ()


HOSTILE = {  # pieces that repeat, overlap and never all appear: each a chance to backtrack
    "many": template_pieces("a%s" * 50 + "b"),
    "overlap": template_pieces("aa%saaa%saaaa%sz"),
    "empty pieces": template_pieces("%s%s%s%s"),
    "long": template_pieces("x" * 400 + "%s" + "y" * 400),
}


@pytest.mark.parametrize("line", ["a", "ab", "aab", " ", "a%s"])
def test_the_work_is_linear_in_the_line_for_hostile_templates(line):
    short, long = ((line * (n // len(line) + 1))[:n] for n in (1000, 10_000))
    ratio = cost(lambda: best_matches(long, HOSTILE), 0.002, 3) / cost(lambda: best_matches(short, HOSTILE), 0.002, 3)
    assert ratio <= RATIO_BOUND, ratio


def test_a_matcher_built_as_a_pattern_would_fail_the_bound():
    """The bound finds what it is for: the same template as a backtracking pattern (each
    placeholder a lazy `.*?`) costs the square of the line on a line that never matches."""
    import re

    pattern = re.compile(".*?".join(map(re.escape, template_pieces("a%sb"))))
    short, long = "a" * 300, "a" * 3000
    ratio = cost(lambda: pattern.search(long), 0.002, 3) / cost(lambda: pattern.search(short), 0.002, 3)
    assert ratio > RATIO_BOUND
