"""The Sphinx directive: a minimal project built with -W (warnings are errors) in both languages."""
import re
import subprocess
import sys
import textwrap

import pytest

from tests.helpers import MINI, ROOT


def build(tmp_path, language, body, catalog=None):
    src = tmp_path / "src"
    src.mkdir()
    conf = f'extensions = ["generator.sphinx"]\nproject = "demo"\nlanguage = "{language}"\n'
    if catalog:
        conf += f"llm_status_codes_catalog = {str(catalog)!r}\n"
    (src / "conf.py").write_text(conf, encoding="utf-8")
    (src / "index.rst").write_text("Status codes\n============\n\n" + textwrap.dedent(body), encoding="utf-8")
    out = tmp_path / "html"
    result = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(src), str(out)],
                            capture_output=True, text=True, cwd=ROOT, timeout=300)
    return result, out


def rows(html):
    return re.findall(r'<tr class="row-(?:odd|even)" id="([^"]+)">', html)


@pytest.mark.parametrize("lang,heading,meaning", [("zh", "枚举值", "处理超时"), ("en", "Enumerated Value", "Processing timeout")])
def test_directive_renders_an_edition_in_each_language(tmp_path, catalog, lang, heading, meaning):
    result, out = build(tmp_path, lang, """
        .. llm-status-codes::
           :edition: 9.0.0-v2
    """)
    assert result.returncode == 0, result.stderr
    html = (out / "index.html").read_text(encoding="utf-8")
    assert heading in html and meaning in html
    assert rows(html) == [catalog.code_by_name[r.code].slug for r in catalog.edition_by_id["9.0.0-v2"].rows]


def test_lang_option_and_translation_note(tmp_path):
    result, out = build(tmp_path, "zh", """
        .. llm-status-codes::
           :edition: 9.0.0-v2
           :lang: en
    """)
    assert result.returncode == 0, result.stderr
    html = (out / "index.html").read_text(encoding="utf-8")
    assert "this project&#8217;s translation" in html or "this project's translation" in html
    assert "Processing timeout" in html


def test_text_is_escaped_by_sphinx(tmp_path):
    result, out = build(tmp_path, "en", """
        .. llm-status-codes::
           :edition: 2.0
    """, catalog=MINI)
    assert result.returncode == 0, result.stderr
    html = (out / "index.html").read_text(encoding="utf-8")
    assert "Odd | &lt;b&gt;x&lt;/b&gt;" in html and "<b>x</b>" not in html


def test_unknown_edition_fails_the_build(tmp_path):
    result, _ = build(tmp_path, "en", """
        .. llm-status-codes::
           :edition: 7.0
    """)
    assert result.returncode != 0
    assert "no edition '7.0'" in result.stderr
