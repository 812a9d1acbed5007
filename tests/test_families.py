"""A family unlike LLM-DataDist: English only, plain constants, decimal C literals and an
error-number macro laid out unlike GE's. Nothing in the generator may assume otherwise."""
import subprocess
import sys

import pytest

from tests.support.helpers import FIXTURES, ROOT, run_cli

ENGLISH = FIXTURES / "english" / "catalog.yaml"

HEADER = """\
#ifndef WIDGET_ERRORS_H
#define WIDGET_ERRORS_H
#include <cstdint>
#define WIDGET_ERRNO(module, name, value) constexpr uint32_t name = ((module) << 16) | (value)
namespace widget {
constexpr uint32_t OK = 0U;
constexpr int32_t FEATURE_ENABLED = 1;  // not a status code: never reported
WIDGET_ERRNO(3, BUSY, 1);
WIDGET_ERRNO(3, BROKEN, 2);
}  // namespace widget
#endif
"""


@pytest.fixture(scope="module")
def english_out(tmp_path_factory):
    out = tmp_path_factory.mktemp("english")
    result = run_cli("generate", "--catalog", ENGLISH, "--out", out)
    assert result.code == 0, result.err
    return out


def python(out, code):
    return subprocess.run(
        [sys.executable, "-s", "-c", code], cwd=out / "generated" / "python", capture_output=True, text=True
    )


def test_an_english_only_module_answers_with_no_argument(english_out):
    probe = python(
        english_out,
        "import widget_codes as w\n"
        "c = w.lookup(w.BUSY)\n"
        "print(type(w.BUSY).__name__, w.BUSY, c.meaning(), '|', c.solution(edition='1.0'), c.recoverable(), "
        "w.LANGUAGES)\n",
    )
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.strip() == "int 196609 The widget is busy | Retry later. False ('en',)"
    zh = python(english_out, "import widget_codes as w\nw.lookup(w.BUSY).meaning('zh')\n")
    assert zh.returncode != 0 and "'zh'" in zh.stderr  # a language the family lacks is refused by name


def test_its_header_compiles_in_c_and_cpp_with_decimal_literals(english_out, tmp_path):
    header = english_out / "generated" / "c" / "widget_codes.h"
    text = header.read_text(encoding="utf-8")
    assert "#define WIDGET_BUSY 196609U" in text
    for compiler, std, suffix in (("gcc", "-std=c99", "c"), ("g++", "-std=c++11", "cpp")):
        source = tmp_path / f"probe.{suffix}"
        use = "widget_codes::BUSY" if suffix == "cpp" else "WIDGET_BUSY"  # C++: upstream's own names, in a namespace
        source.write_text(f'#include "widget_codes.h"\nint main(void) {{ return widget_status_name({use}) == 0; }}\n')
        result = subprocess.run([compiler, std, "-Wall", "-Wextra", "-Werror", "-pedantic", "-I", str(header.parent),
                                 str(source), "-o", str(tmp_path / f"probe-{suffix}")], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        assert subprocess.run([str(tmp_path / f"probe-{suffix}")]).returncode == 0


def test_a_layout_other_than_ges_audits_correctly(tmp_path):
    header = tmp_path / "widget" / "errors.h"
    header.parent.mkdir()
    header.write_text(HEADER)
    clean = run_cli("audit", "--catalog", ENGLISH, "--edition", "2.0", "--header", header)
    assert clean.code == 0, clean.out + clean.err
    header.write_text(HEADER.replace("WIDGET_ERRNO(3, BROKEN, 2)", "WIDGET_ERRNO(4, BROKEN, 2)"))
    moved = run_cli("audit", "--catalog", ENGLISH, "--edition", "2.0", "--header", header)
    assert moved.code == 1 and f"{header}:9: BROKEN: value differs" in moved.out and "0x00040002" in moved.out
    header.write_text(HEADER.replace("WIDGET_ERRNO(3, BROKEN, 2);\n", ""))
    dropped = run_cli("audit", "--catalog", ENGLISH, "--edition", "2.0", "--header", header)
    assert dropped.code == 1 and "BROKEN" in dropped.out and "missing upstream" in dropped.out


def test_nothing_in_the_generator_names_a_family():
    """The check the issue asks for: family-specific names only in comments."""
    result = subprocess.run(
        [
            "git",
            "grep",
            "-n",
            "-i",
            "-w",
            "-E",
            "llm_datadist|LLMStatusCode|LLMException|LLM-DataDist|hixl|adxl|0x5010B000",
            "--",
            "generator/",
            "templates/",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    offending = []
    for line in result.stdout.splitlines():
        path, _, text = line.split(":", 2)
        stripped = text.strip()
        if stripped.startswith(("#", "//", "/*", "*", '"""', "{#")) or path.endswith((".md", ".json")):
            continue
        if "#" in text and text.index("#") < min(
            text.lower().find(w) for w in ("llm", "hixl", "adxl") if w in text.lower()
        ):
            continue  # a trailing comment
        offending.append(line)
    assert not offending, "family-specific logic in the generator:\n" + "\n".join(offending)


@pytest.mark.slow
def test_an_english_only_site_builds(english_out, tmp_path):
    from tests.support.site_build import build_site

    build_site(english_out / "site", tmp_path / "build")
    home = (tmp_path / "build" / "index.html").read_text(encoding="utf-8")
    assert "Widget codes" in home and 'lang="en"' in home
    assert (tmp_path / "build" / "codes" / "BUSY" / "index.html").is_file()
    assert not (tmp_path / "build" / "en").exists()  # one language: at the root only
