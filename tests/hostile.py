"""Hostile texts, and a catalog that carries them in every text field and every piece of wording."""
from __future__ import annotations

from pathlib import Path

from tests.helpers import MINI

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
]
# A single-line string that would break every context it is not escaped for.
WORDING_ATTACK = '<img src=x onerror=alert(1)> */ int injected; /* """x""" \\N{BULLET} {{ x }} <!-- C# ??= -->'


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
]
LABELS = ("home", "codes", "all_codes", "editions", "differences_title", "permalink", "notes", "history", "translation",
          "home_intro", "lookup_text", "not_found_title", "palette_auto")


def hostile_catalog(target: Path, texts: list[str], wording: str | None = None) -> Path:
    """The mini catalog with one extra code per text, whose every text field is that text;
    with `wording`, every other string of the catalog (names, titles, labels...) is that too."""
    base = MINI.read_text(encoding="utf-8")
    if wording is not None:
        q = yaml_dq(wording)
        for old, new in WORDING:
            assert old in base, old
            base = base.replace(old, new.format(q=q), 1)
        labels = "".join(f"    {key}: {{zh: {q}, en: {q}}}\n" for key in LABELS)
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
