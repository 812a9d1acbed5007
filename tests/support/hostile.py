"""Hostile texts, and a catalog that carries them in every text field and every piece of wording."""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from generator.reading.site import default_labels
from tests.support.helpers import MINI

# A splice: C joins a backslash (or the trigraph ??/) and the newline after it before it sees
# comments, so that `*\` + newline + `/` closes a comment and code follows (guarded, so that the
# header still compiles cleanly where several comments carry it, and the code runs at load).
C_SPLICE = ('… *\\\n/\n#ifndef INJECTED\n#define INJECTED\n#include <stdio.h>\n'
            '__attribute__((constructor)) static void injected(void) { puts("INJECTED"); }\n#endif\n/\\\n* …')
C_TRIGRAPH_SPLICE = C_SPLICE.replace("\\", "??/")
# Every bidirectional control, unpaired (GCC's -Wbidi-chars), and a backslash that ends the text.
BIDI = "bidi \u202a embed \u202b \u202c \u202d \u202e override \u2066 \u2067 \u2068 \u2069 \u200e \u200f \u061c end\\"
# Markdown that makes a link, an image, an attribute (attr_list) or HTML, inline and as blocks
# (wording only: validate refuses such link targets in a text, tests/fixtures/bad/).
SITE_ATTACK = ('HIXL ![x](x){onerror=console.log(1)} [docs](javascript:alert(1)) <javascript:alert(1)> '
               '[d](data:text/html,x) [v](VBScript:alert(1)) [ref][r] *e*{: onclick="alert(1)" }\n\n'
               '{: onclick="alert(2)" }\n\n[r]: javascript:alert(3)\n\n<img src=x onerror=alert(4)>\n'
               '<http://x.example> [e](jav&#x61;script:alert(5)) {: onclick="alert(6)" }')
HOSTILE = [
    'quotes "double" \'single\' “curly” ‘curly’ «guillemets» 「括号」',
    '"""triple""" and \'\'\'triple\'\'\'',
    "back\\slash \\n \\t \\\\ \\x00 \\u0041 C:\\path\\ \\N{BULLET}",
    "comment */ closer /* opener // line",
    "trigraphs ??= ??/ ??' ??( ??) ??! ??< ??> ??- and ???",
    "jinja {{ banner }} {% if x %}y{% endif %} {# c #}",
    "pipes | in | a | cell || and \\| escaped",
    "<script>alert('x')</script><img src=x onerror=alert(1)><b>bold</b>",
    "entities &amp; &lt;tag&gt; &#60; &copy; & alone",
    "markdown *em* **strong** _u_ `code` [link](http://x) ![img](y) # not a heading",
    "# heading at start",
    "- a list item at start",
    "1. a numbered step",
    "line one\nline two\n- bullet\n2. step two\n\nafter a blank line",
    "tab\there and\ttrailing tab\t",
    "  leading and trailing spaces  ",
    "right-to-left \u200f mark \u202e override \u200b zero width \u2028 line sep \u2029 para sep",
    "emoji 😀🚀 and astral 𝄞 𠜎 and combining e\u0301",
    "中文：处理超时，请重试。全角｜竖线",
    "${var} %s %d %(name)s {0} $1 \\1",
    "attr {: .class #id } and {{",
    "----",
    "=== setext",
    "\ufeff BOM inside and \u00a0 nbsp and soft\u00adhyphen",
    '"""and __import__("os").system("touch PWNED")or"""',
    "*/ static const int injected = 42; /*",
    "<!-- hides the rest",
    "C# and C++ and ## hashes #",
    "javascript:alert(1) and https://example.org/?a=1&b=<2>",
    C_SPLICE,
    C_TRIGRAPH_SPLICE,
    BIDI,
]
# A single-line string that would break every context it is not escaped for.
WORDING_ATTACK = '<img src=x onerror=alert(1)> */ int injected; /* """x""" \\N{BULLET} {{ x }} <!-- C# ??= -->'
# Every attack on a piece of wording, each in every place at once (a catalog per attack): a
# splice that closes a C comment (phases 1-2: backslash-newline, ??/), bidirectional marks
# (GCC's -Wbidi-chars), Markdown that makes links, images, attributes (attr_list) or HTML.
WORDING_ATTACKS = {"markup": WORDING_ATTACK, "c-splice": C_SPLICE, "c-trigraph-splice": C_TRIGRAPH_SPLICE,
                   "bidi": BIDI, "site": SITE_ATTACK}


def yaml_dq(text: str) -> str:
    """A YAML double-quoted scalar carrying exactly `text` (every non-ASCII character escaped)."""
    out = []
    for char in text:
        code = ord(char)
        if char in '"\\':
            out.append("\\" + char)
        elif 0x20 <= code < 0x7F:
            out.append(char)
        elif code <= 0xFFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    return '"' + "".join(out) + '"'


# Every piece of wording a catalog holds besides the texts of codes: each goes into a
# docstring, a C comment, a page title, a heading, the site's <title>, the MkDocs config...
WORDING = [
    ("  name: {zh: 演示, en: Demo}", "  name: {{zh: {q}, en: {q}}}"),
    ("  description: {zh: 演示状态码, en: the status codes of a demonstration}", "  description: {{zh: {q}, en: {q}}}"),
    ("  name: {zh: 演示状态码, en: Demo codes}", "  name: {{zh: {q}, en: {q}}}"),
    ("      name: {zh: Python 页面, en: Python page}", "      name: {{zh: {q}, en: {q}}}"),
    ("      title: {zh: DemoCode, en: DemoCode}", "      title: {{zh: {q}, en: {q}}}"),
    (
        "      intro: {zh: 演示用的状态码。, en: Status codes for a demonstration., translated: [en]}",
        "      intro: {{zh: {q}, en: {q}}}",
    ),
    (
        "        meaning: {zh: [含义], en: [Meaning]}\n        recoverable",
        "        meaning: {{zh: [{q}], en: [{q}]}}\n        recoverable",
    ),
    ("{id: new, suffix: -new, name: {zh: 新页面, en: New page}", "{{id: new, suffix: -new, name: {{zh: {q}, en: {q}}}"),
    ('    "yes": {zh: [是], en: ["Yes"]}', '    "yes": {{zh: [{q}], en: [{q}]}}'),
    ("        - document: the published demo documentation, read for its rows only", "        - document: {q}"),
    ("  language_names: {zh: 中文, en: English}",
     "  language_names: {{zh: {q}, en: {q}}}\n  description: {{zh: {q}, en: {q}}}"),
    ("- {id: old, suffix: '', name: {zh: 旧页面, en: Old page}}",
     "- {{id: old, suffix: '', name: {{zh: {q}, en: {q}}}}}"),
    ("name: {zh: C++ 副本, en: C++ copy}", "name: {{zh: {q}, en: {q}}}"),
    ("      name: {zh: C++ 页面, en: C++ page}", "      name: {{zh: {q}, en: {q}}}"),
    ("      title: {zh: 错误码, en: Error codes}", "      title: {{zh: {q}, en: {q}}}"),
    ("        name: {zh: [枚举值], en: [Value]}", "        name: {{zh: [{q}], en: [{q}]}}"),
    ("        solution: {zh: [解决办法], en: [Solution]}", "        solution: {{zh: [{q}], en: [{q}]}}"),
    ("        cause: {zh: [可能原因], en: [Possible Cause]}", "        cause: {{zh: [{q}], en: [{q}]}}"),
    ("      texts: [zh, en]\n      order: page\n      rows:\n        DEMO_BUSY:",
     "      texts: [zh, en]\n      order: page\n      notes: {{zh: {q}, en: {q}}}\n      rows:\n        DEMO_BUSY:"),
]
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def hostile_labels(q: str) -> str:
    """Every label the generator ships, overridden with the attack (and the label's {placeholders},
    so that what fills them, such as the family's name, lands there too)."""
    lines = []
    for key, texts in sorted(default_labels().items()):
        holes = " ".join(sorted(set(PLACEHOLDER.findall(texts.get("en", ""))))) if "en" in texts else ""
        value = q if not holes else q[:-1] + " " + holes + '"'
        lines.append(f"    {key}: {{zh: {value}, en: {value}}}\n")
    return "".join(lines)


def hostile_catalog(target: Path, texts: list[str], wording: str | None = None) -> Path:
    """The mini catalog with one extra code per text, whose every text field is that text;
    with `wording`, every other string of the catalog (names, titles, labels...) is that too."""
    base = MINI.read_text(encoding="utf-8")
    if wording is not None:
        q = yaml_dq(wording)
        for old, new in WORDING:
            assert old in base, old
            base = base.replace(old, new.format(q=q), 1)
        labels = hostile_labels(q)
        anchor = "\nrepositories:"
        assert anchor in base
        base = base.replace(anchor, "\n  labels:\n" + labels.rstrip("\n") + anchor, 1)
    editions_rows, codes = [], []
    for index, text in enumerate(texts):
        name = f"DEMO_HOSTILE_{index}"
        editions_rows.append(f'        {name}: "yes"')
        q = yaml_dq(text)
        codes.append(
            f"  - python: {name}\n    c: {name}\n    value: {0x1000 + index}\n    log_message: {q}\n"
            f"    notes: {{zh: {q}, en: {q}}}\n"
            f"    meaning:\n      - from: ['2.0-new']\n        zh: {q}\n        en: {q}\n"
            f"    solution:\n      - from: ['2.0-new']\n        zh: {q}\n        en: {q}\n")
    rows_anchor = '        DEMO_ODD: "yes"\n'
    assert rows_anchor in base
    text = base.replace(rows_anchor, rows_anchor + "\n".join(editions_rows) + "\n", 1)
    text = text.replace("\ncodes:\n", "\ncodes:\n" + "".join(codes), 1)
    target.mkdir(parents=True, exist_ok=True)
    path = target / "catalog.yaml"
    path.write_text(text, encoding="utf-8")
    return path


# -- what a browser would run or follow ------------------------------------------------------------------

# Attributes whose value a browser follows or loads as a URL.
URL_ATTRIBUTES = frozenset({"href", "src", "srcset", "action", "formaction", "data", "poster", "background", "cite",
                            "ping", "manifest", "xlink:href"})


def url_scheme(value: str):
    """The scheme a browser reads from an attribute's value (entities already decoded): tabs and
    line breaks removed anywhere, leading controls and spaces dropped; None for a relative URL."""
    url = re.sub("[\t\n\r]", "", value).lstrip("".join(map(chr, range(0x21))))
    match = re.match(r"([A-Za-z][A-Za-z0-9+.-]*):", url)
    return match.group(1).lower() if match else None


class _Live(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}={value!r}>")
            elif name in URL_ATTRIBUTES and url_scheme(value or "") not in (None, "http", "https"):
                self.found.append(f"<{tag} {name}={value!r}>")


def live_markup(html: str) -> list[str]:
    """What in a page would run script or leave for a scheme other than http(s): every on*
    attribute, every URL attribute (href, src, ...) with another scheme (javascript:, data:...)."""
    parser = _Live()
    parser.feed(html)
    return parser.found
