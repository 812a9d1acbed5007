"""A page text as upstream writes it (its inline Markdown) and the plain text derived from it.

The rule (codes.yaml's header says it too): an entry marked `markdown: true` keeps its texts
as upstream's cell writes them, one line per `<br>`-separated segment, with links
`[text](target)`, code spans `` `x` `` and blank lines (upstream's `<br><br>`). Their plain
text, what `meaning()`, search and every page of the site show, is derived by one rule: blank
lines are dropped, a link to a relative target becomes its text, a link to an absolute URL
`text (URL)`, a code span its content. A backslash is kept as written (upstream's cells escape
nothing). A text without markup is its own plain text.
"""
from __future__ import annotations

import re

LINK = re.compile(r"\[([^\]\n]*)\]\(([^)\s]+)\)")
CODE_SPAN = re.compile(r"`([^`\n]+)`")
ABSOLUTE = re.compile(r"^[a-z][a-z0-9+.-]*://", re.I)


def _link(match: re.Match) -> str:
    text, target = match.group(1), match.group(2)
    return f"{text} ({target})" if ABSOLUTE.match(target) else text


def plain(markup: str) -> str:
    """The plain text of a text written with upstream's inline markup."""
    if not any(c in markup for c in "[`") and "\n\n" not in markup:
        return markup
    lines = []
    for line in markup.split("\n"):
        if not line.strip():
            continue
        line = LINK.sub(_link, line)
        lines.append(CODE_SPAN.sub(lambda m: m.group(1), line))
    return "\n".join(lines)
