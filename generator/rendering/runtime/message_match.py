"""Which message template a logged line comes from, and what its placeholders took.

A template is a message with placeholders (`Value %s for parameter --%s is invalid.`): its
literal pieces must stand in the line in their order, and each placeholder takes what lies
between them (any text on the message's line, possibly empty: a value never takes a line break,
so that CANN's `Solution:` and `TraceBack` lines after a message stay out of it). What comes
before the first piece is the log line's prefix (a level, a module and its process id, a
timestamp, a source file, the thread id and the function that logs, the code's id; where the line
names a code's id, whatever comes before it, such as `RuntimeError: run_graph failed; ...; E10059:`)
and is ignored. A line ends without its trailing blanks (a log keeps none): where the template ends
with a blank and a placeholder (`Reason: %s`), the line may end before that blank, the placeholder
empty. A template without a placeholder is the
whole message that follows the prefix, or, where it has two words or more, the end of the line
after a blank, a colon or a bracket (`... Link: ErrorNo: 1(...) link failed` ends with "link failed",
and not with the message "failed"). Of the templates a line matches, the most specific wins:
the one with the most literal text; equal ones are all answers (all_matches gives the others too).

The work is linear in the line's length for any template: each piece is looked for once, with
str.find from where the previous one ended (the last with str.rfind, so that the last
placeholder takes what it can), and never with a pattern built from the template, which a
template could make backtrack. Standard library only: the generated modules carry this file's
code as it is (generator/rendering/python_module.py).
"""
from __future__ import annotations

import re as _re
from typing import Optional

PLACEHOLDER = "%s"
# A token of a log line's prefix, read one token at a time (no pattern repeats a group): a
# bracketed tag, MODULE(pid,program):timestamp, a date or a time, a source file and line, a
# level word, a thread id and the function that logs (`30741 ReportErrMessage:`, as CANN's logs
# write them after the source file), a thread id alone where it stands against the source file's
# closing bracket (`[ge_api.cc:205]30741 GEInitialize failed.`: no message starts so), the
# code's id with its colon.
_PREFIX_TOKEN = _re.compile(r"\[[^\]\n]{0,200}\]|[A-Za-z_]{1,40}\(\d{1,10},[^)\n]{0,80}\):[\d.:-]{0,40}"
                            r"|\d{4}-\d{2}-\d{2}[\dT:.,-]{0,30}|\d{1,2}:\d{2}:\d{2}[\d.,:]{0,20}"
                            r"|[\w.-]{1,200}\.(?:cc|cpp|c|h|hpp|py):\d{1,9}|(?:ERROR|WARNING|WARN|INFO|DEBUG|EVENT)\b"
                            r"|\d{1,10} [A-Za-z_][\w:~]{0,120}:(?=\s)|(?<=\])\d{1,10}(?=[ \t])|[EW]\d{5}:")
_CODE_ID = _re.compile(r"(?<![\w])[EW]\d{5}:")  # a code's id, as a message's lead (`E10059: ...`)
_BLANKS = " \t"


def template_pieces(template: str) -> tuple[str, ...]:
    """The literal text between a template's placeholders: one more piece than placeholders."""
    return tuple(template.split(PLACEHOLDER))


def specificity(pieces: tuple[str, ...]) -> int:
    """How much of a template is its own text, not a placeholder's: the more, the more specific."""
    return sum(len(piece) for piece in pieces)


def message_start(line: str) -> int:
    """Where the message of a logged line starts: after the first code id it names (and what
    comes before it), then after its prefix's tokens and the spaces between."""
    position = _after_id(line)
    while True:
        while position < len(line) and line[position] in _BLANKS:
            position += 1
        token = _PREFIX_TOKEN.match(line, position)
        if token is None or token.end() == position:
            return position
        position = token.end()


def _after_id(line: str) -> int:
    """Where the text after the first code id a line names starts (0 where it names none)."""
    named = _CODE_ID.search(line)
    return named.end() if named else 0


def _line_of(line: str, position: int) -> str:
    """The text up to the end of the line that `position` is on (a message ends with its line)."""
    ends = [end for end in (line.find("\n", position), line.find("\r", position)) if end >= 0]
    return line[:min(ends)].rstrip() if ends else line


def match_template(pieces: tuple[str, ...], line: str) -> Optional[tuple[str, ...]]:
    """The values a line gives the template's placeholders, in order; None when it does not
    match. A template without a placeholder matches a line whose message it is."""
    line = line.rstrip()
    values = _matched(pieces, line)
    tail = list(pieces[-2:])  # the piece before the last placeholder, and the empty one after it
    cut = tail[0].rstrip() if len(tail) == 2 and not tail[1] else ""
    if values is None and cut and cut != tail[0]:
        # `... Reason: %s` logged with an empty reason: the message's line ends before the blank
        values = _matched(pieces[:-2] + (cut,), line, to_the_end=True)
        return None if values is None else values + ("",)
    return values


def _matched(pieces: tuple[str, ...], line: str, to_the_end: bool = False) -> Optional[tuple[str, ...]]:
    """match_template's work; `to_the_end`: the last piece must end the message's line."""
    if len(pieces) == 1:  # a fixed message: the message, or the end of the line where it has two words
        fixed = pieces[0].strip()
        start = message_start(line)
        line = _line_of(line, start)
        if not fixed or line[start:] == fixed:
            return () if fixed else None
        before = len(line) - len(fixed) - 1
        return () if " " in fixed and line.endswith(fixed) and before >= 0 and line[before] in " \t:]" else None
    first, middle, last = pieces[0], pieces[1:-1], pieces[-1]
    if first:  # after the id the line names: `build_model failed; options=--framework 5; E10047: --%s and --%s ...`
        found = line.find(first, _after_id(line))
        if found < 0:
            return None
        position = found + len(first)
    else:
        position = message_start(line)
    line = _line_of(line, position)
    values: list[str] = []
    for piece in middle:
        found = line.find(piece, position)
        if found < 0:
            return None
        values.append(line[position:found])
        position = found + len(piece)
    end = line.rfind(last, position) if last else len(line)
    if end < 0 or (to_the_end and end + len(last) != len(line)):
        return None
    values.append(line[position:end])
    return tuple(values)


def all_matches(line: str, templates: dict[str, tuple[str, ...]]) -> list[tuple[int, str, tuple[str, ...]]]:
    """(specificity, key, values) of every template the line matches, the most specific first, then by key."""
    found: list[tuple[int, str, tuple[str, ...]]] = []
    for key, pieces in templates.items():
        values = match_template(pieces, line)
        if values is not None:
            found.append((specificity(pieces), key, values))
    return sorted(found, key=lambda item: (-item[0], item[1]))


def best_matches(line: str, templates: dict[str, tuple[str, ...]]) -> list[tuple[str, tuple[str, ...]]]:
    """(key, values) of every template the line matches that is the most specific of them
    (several only when they are equally specific), by key."""
    return most_specific(all_matches(line, templates))


def most_specific(found: list[tuple[int, str, tuple[str, ...]]]) -> list[tuple[str, tuple[str, ...]]]:
    """(key, values) of all_matches' first, the most specific, and those as specific as they are."""
    return [(key, values) for score, key, values in found if score == found[0][0]]
