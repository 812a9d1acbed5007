"""A page text as upstream writes it (its inline Markdown), the plain text derived from it, and
the link targets such a text may carry into upstream's own files (below).

The rule (codes.yaml's header says it too): an entry marked `markdown: true` keeps its texts
as upstream's cell writes them, one line per `<br>`-separated segment, with links
`[text](target)`, code spans `` `x` `` and blank lines (upstream's `<br><br>`). Their plain
text, what `meaning()`, search and every page of the site show, is derived by one rule: blank
lines are dropped, a link to a relative target becomes its text, a link to an absolute URL
`text (URL)`, a code span its content. A backslash is kept as written (upstream's cells escape
nothing). A text without markup is its own plain text.
"""
from __future__ import annotations

import html
import posixpath
import re
from typing import Sequence

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



_BOLD = re.compile(r"\*\*(.+?)\*\*")
_AUTOLINK_URL = re.compile(r"<(https?://[^>\s]{1,2000})>")


def markdown_plain(markdown: str) -> str:
    """The plain text of a text written in Markdown proper (a family of messages' pages, which escape
    `_ ( ) ~` and use **bold** and <autolinks>): escapes dropped, bold and autolinks as their words."""
    return _ESCAPED.sub(r"\1", _AUTOLINK_URL.sub(r"\1", _BOLD.sub(r"\1", markdown)))


def first_difference(first: str, second: str) -> tuple[int, str, str]:
    """The first line (1-based) where two texts differ, and that line of each ("(end of file)" past one's end)."""
    return first_line_difference(first.split("\n"), second.split("\n"), "(end of file)")


def first_line_difference(a: Sequence[str], b: Sequence[str], end: str) -> tuple[int, str, str]:
    """The first line (1-based) where two runs of lines differ, and that line of each (`end` past one's end)."""
    index = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return index + 1, (a[index] if index < len(a) else end), (b[index] if index < len(b) else end)

# -- link targets ---------------------------------------------------------------------------------------
# Where a Markdown renderer (upstream's forge or documentation site) takes a link target from a
# text written into upstream's own files: an inline link or image [text](target), a reference
# definition [ref]: target, an autolink <scheme:...>, and raw HTML (an attribute that holds a
# URL, an event handler, an element that runs or loads). Conservative: what any of them could
# read as a link counts.
_INLINE = re.compile(r"\]\(\s*(?:<([^>\n]*)>|((?:[^\s()]|\([^\s()]*\))*))")
_DEFINITION = re.compile(r"^ {0,3}\[[^\]\n]+\]:[ \t]*(?:<([^>\n]*)>|(\S+))", re.M)
_AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*)>")
_TAG = re.compile(r"<([A-Za-z][A-Za-z0-9-]*)((?:[^<>\"']|\"[^\"]*\"|'[^']*')*)>")
_ATTRIBUTE = re.compile(r"([^\s\"'<>/=]+)(?:\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?")
_URL_ATTRIBUTES = frozenset({"href", "src", "srcset", "action", "formaction", "xlink:href", "data", "poster",
                             "background", "cite", "ping", "manifest"})
# Elements that run, embed or redirect rather than show.
_LIVE_ELEMENTS = frozenset({"script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "base",
                            "meta", "link", "form", "svg", "math"})
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")  # a Markdown backslash escape of ASCII punctuation
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
WEB_SCHEMES = ("http", "https")


def link_targets(text: str) -> list[str]:
    """Every link target a renderer could take from the text, as written (entities and escapes kept)."""
    found = [next(g for g in m.groups() if g is not None)  # <target> or target
             for pattern in (_INLINE, _DEFINITION, _AUTOLINK) for m in pattern.finditer(text)]
    for tag in _TAG.finditer(text):
        found += [value.strip("\"'") for name, value in _ATTRIBUTE.findall(tag.group(2))
                  if name.lower() in _URL_ATTRIBUTES]
    return found


def live_html(text: str) -> list[str]:
    """The raw HTML of a text that runs or loads rather than shows: an element such as <script>,
    an event handler such as onclick=."""
    found = []
    for tag in _TAG.finditer(text):
        if tag.group(1).lower() in _LIVE_ELEMENTS:
            found.append(f"<{tag.group(1)}>")
        found += [f"{name}=" for name, _ in _ATTRIBUTE.findall(tag.group(2)) if name.lower().startswith("on")]
    return found


def _as_followed(target: str) -> str:
    """A target as a browser follows it: Markdown escapes and HTML entities (jav&#x61;script:)
    undone, tabs and line breaks dropped anywhere, leading controls and spaces dropped."""
    target = html.unescape(_ESCAPED.sub(r"\1", target))
    return re.sub("[\t\n\r]", "", target).lstrip("".join(map(chr, range(0x21))))


def _quoted(target: str) -> str:
    """A target in a message: as written, in quotes (repr where it holds what a line cannot)."""
    return f"'{target}'" if target.isprintable() and "'" not in target else repr(target)


def link_problem(target: str, page_path: str) -> str | None:
    """Why a copied page must not carry this link target (None when it may): another scheme than
    http(s), a scheme-relative //host, a relative path that climbs out of the repository of the
    page at `page_path` (its path within the repository)."""
    followed = _as_followed(target)
    scheme = _SCHEME.match(followed)
    if scheme:
        if scheme.group(1).lower() in WEB_SCHEMES:
            return None
        return (f"link target {_quoted(target)} uses the scheme {scheme.group(1).lower()}:; link only to http:// or "
                f"https:// URLs or to a path within the page's repository")
    path = re.sub("%2e", ".", followed.replace("\\", "/"), flags=re.I).split("?")[0].split("#")[0]
    if path.startswith("//"):
        return (f"link target {_quoted(target)} names another host without a scheme; write it as an https:// URL, "
                f"or drop the link")
    base = "" if path.startswith("/") else posixpath.dirname(page_path)
    resolved = posixpath.normpath(posixpath.join(base, path.lstrip("/"))) if path else "."
    if resolved == ".." or resolved.startswith("../"):
        start = f"from {page_path}" if page_path else "from the repository's root"
        return (f"link target {_quoted(target)} leaves the page's repository ({start} it resolves above the "
                f"repository's root); link to a path within the repository, or to an https:// URL")
    return None


def link_problems(text: str, page_paths: tuple[str, ...]) -> list[str]:
    """Why the text must not be written into upstream's files, shown by pages at these paths (in
    their repositories): each link target that must not be there, each live piece of HTML; each once."""
    problems = [f"raw HTML {piece} runs script or loads a page wherever the text is shown; write the text without "
                f"it" for piece in dict.fromkeys(live_html(text))]
    for target in dict.fromkeys(link_targets(text)):
        found = (link_problem(target, path) for path in page_paths or ("",))
        problem = next((p for p in found if p is not None), None)
        if problem is not None and problem not in problems:
            problems.append(problem)
    return problems
