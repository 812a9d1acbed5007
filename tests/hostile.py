"""Hostile texts, and a catalog that carries them in every text field."""
from __future__ import annotations

from pathlib import Path

from tests.helpers import MINI

HOSTILE = [
    'quotes "double" \'single\' “curly” ‘curly’ «guillemets» 「括号」',
    '"""triple""" and \'\'\'triple\'\'\'',
    "back\\slash \\n \\t \\\\ \\x00 \\u0041 C:\\path\\",
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
]


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


def hostile_catalog(target: Path, texts: list[str]) -> Path:
    """The mini catalog with one extra code per text, whose every text field is that text."""
    base = MINI.read_text(encoding="utf-8")
    editions_rows, codes = [], []
    for index, text in enumerate(texts):
        name = f"DEMO_HOSTILE_{index}"
        editions_rows.append(f'      {name}: "yes"')
        q = yaml_dq(text)
        codes.append(
            f"  - python: {name}\n    c: {name}\n    value: {0x1000 + index}\n    log_message: {q}\n"
            f"    notes: {{zh: {q}, en: {q}}}\n"
            f"    meaning:\n      - editions: ['2.0']\n        zh: {q}\n        en: {q}\n"
            f"    solution:\n      - editions: ['2.0']\n        zh: {q}\n        en: {q}\n")
    rows_anchor = '      DEMO_ODD: "yes"\n'
    assert rows_anchor in base
    text = base.replace(rows_anchor, rows_anchor + "\n".join(editions_rows) + "\n", 1)
    text = text.replace("codes:\n", "codes:\n" + "".join(codes), 1)
    target.mkdir(parents=True, exist_ok=True)
    path = target / "catalog.yaml"
    path.write_text(text, encoding="utf-8")
    return path
