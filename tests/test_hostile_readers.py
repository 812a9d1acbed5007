"""Hostile upstream files and keys: what a pull request, a tampered mirror or a careless
command line can hand the readers of upstream's files, `explain` and the generated modules.

Each reader test uses an input sized so that the quadratic reader it replaced would take
minutes (measured: the old `read_header` took 12 s on 64 KB of `const x` lines, and four
times as long for twice the input) and checks what it read; no test asserts a time (a reader
that does not return at all is stopped after HANG seconds, so that it fails its test rather
than the run). Each memory test runs the command in a child process under an address-space limit,
so that a regression fails the test rather than the machine.
"""
from __future__ import annotations

import builtins
import importlib.util
import os
import re
import resource
import signal
import subprocess
import symtable
import sys

import pytest
from html5lib.html5parser import HTMLParser

from generator.upstream import html_parse
from generator.upstream import page_table as pagereader

from generator.upstream import c_source
from generator.upstream import files as upstream_files
from generator.domain.model import ValueLayout
from tests.support.helpers import FIXTURES, MINI, ROOT, run_cli

HANG = 120  # seconds: not a bound on speed (the readers take well under a second here), a guard against a hang


class Hung(Exception):
    pass


def read(function, *args):
    """The reader's result; a reader that has not returned after HANG seconds (a regular expression
    that backtracks without end) fails the test instead of the whole run."""
    def hung(signum, frame):
        raise Hung(f"{function.__name__} did not return within {HANG} s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(HANG)
    try:
        return function(*args)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def child(*argv: str, memory_mb: int = 1024, timeout: float = 60, stdin=None) -> subprocess.CompletedProcess:
    """`python -m generator ARGV` in a child process whose address space is capped."""
    def cap() -> None:
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return subprocess.run([sys.executable, "-m", "generator", *argv], capture_output=True, text=True, cwd=ROOT,
                          preexec_fn=cap, timeout=timeout, stdin=stdin)


def no_traceback(text: str) -> None:
    assert "Traceback" not in text and "Error:" not in text.replace("error:", ""), text


# -- 1. linear readers ------------------------------------------------------------------------------------


def test_read_header_is_linear_on_const_lines_that_declare_nothing():
    source = "const x\n" * 80_000  # 640 KB: the old reader scanned to the end from every `const`
    constants, problems = read(c_source.read_header, source)
    assert constants == [] and [p.message for p in problems] == ["no status-code constants in this file"]


def test_read_header_finds_namespaces_in_one_pass():
    count = 40_000  # the old namespace_at rescanned the file up to each constant
    source = "namespace ge {\n" + "".join(f"constexpr Status C{i} = {i}U;\n" for i in range(count)) + "}\n"
    source += "constexpr Status OUTSIDE = 7;\n"
    constants, problems = read(c_source.read_header, source)
    assert problems == [] and len(constants) == count + 1
    assert constants[0] == c_source.Constant("C0", "ge", 0, 2, "Status")
    assert constants[count - 1].line == count + 1 and constants[count - 1].namespace == "ge"
    assert constants[-1] == c_source.Constant("OUTSIDE", None, 7, count + 3, "Status")


def test_namespaces_nest_and_close_as_braces_say():
    source = ("namespace a { namespace b::c {\nconst Status X = 1;\n}\nstruct S { const int Y = 2; };\n"
              "const Status Z = 3;\n}\nconst Status W = 4;\n")
    constants, _ = c_source.read_header(source)
    assert [(c.name, c.namespace, c.line) for c in constants] == [
        ("X", "a::b::c", 2), ("Y", "a", 4), ("Z", "a", 5), ("W", None, 7)]


def test_read_header_is_linear_on_defines_and_blank_lines():
    # `[ \t]+\(?[ \t]*` tried every split of the blanks after a name: 16 s for 20,000 of them; here a
    # million, and the old pattern would run for days
    source = "#define D 1\n" * 50_000 + "\n" * 1_000_000 + "#define X" + " " * 1_000_000 + "y\n#define E ( 2 )\n"
    constants, _ = c_source.read_header(source)
    assert len(constants) == 50_001 and constants[49_999].line == 50_000
    assert (constants[-1].name, constants[-1].value, constants[-1].line) == ("E", 2, 1_050_002)


def test_read_header_is_linear_on_macros_that_never_close():
    layout = ValueLayout("GE_ERRORNO_DEFINE", ("name", "value"), ())
    source = "GE_ERRORNO_DEFINE(a, 1)\n" * 60_000 + "GE_ERRORNO_DEFINE(LAST, 1);\n"
    constants, problems = read(c_source.read_header, source, (layout,))
    assert [(c.name, c.line) for c in constants] == [("LAST", 60_001)] and problems == []


def test_comments_left_open_are_read_once():
    source = "/*" * 200_000 + "\nconst Status X = 1;\n"
    constants, _ = c_source.read_header(source)
    assert constants == []  # an open comment runs to the end of the file, as a compiler reads it


@pytest.mark.parametrize("line", ['"\\' * 500_000, '"' + '\\"' * 500_000, "'\\" * 500_000],
                         ids=["quote-backslash", "escaped quotes", "apostrophe-backslash"])
def test_string_literals_left_open_are_read_once(line):
    """A string left open runs to the end of its line: it had to close, so each quote of such a
    line started a scan to its end (53 s for 40 KB; this megabyte, days)."""
    source = line + "x\nconstexpr Status X = 1; /* a comment\nconst Status Y = 2; */\n"
    constants, _ = c_source.read_header(source)
    assert [(c.name, c.line) for c in constants] == [("X", 2)]


def test_a_character_literal_holding_a_quote_opens_no_string():
    source = "char q = '\"'; /* constexpr Status HIDDEN = 1;\n */ constexpr Status X = 2;\n"
    assert [c.name for c in c_source.read_header(source)[0]] == ["X"]


def test_read_binding_is_linear_on_bindings_without_a_semicolon():
    source = 'm.attr("kX") = py::int_(ge::X)\n' * 40_000 + 'm.attr("kY") = py::int_(ge::Y);\n'  # 1.2 MB
    # and spaces in an expression that never closes: a lazy expression tried every split of them
    source += 'm.attr("kZ") = py::int_(a' + " " * 1_000_000 + 'b;\nm.attr("kW") = py::int_( ge::W );\n'
    bindings, problems = c_source.read_binding(source)
    assert bindings == [c_source.Binding("kY", "ge::Y", 40_001), c_source.Binding("kW", "ge::W", 40_003)]
    assert problems == []


def test_a_decimal_too_long_for_int_is_a_value_not_read():
    constants, _ = c_source.read_header("const Status HUGE = " + "9" * 5000 + ";\n")
    assert [(c.name, c.value) for c in constants] == [("HUGE", None)]


def test_audit_of_a_large_header_is_quick(tmp_path):
    header = tmp_path / "llm_error_codes.h"
    header.write_text("namespace ge {\n" + "const x\n" * 100_000 + "constexpr Status LLM_NEW = 0x5010B0FFU;\n}\n")
    result = read(run_cli, "audit", "--header", header)
    assert result.code == 1 and f"{header}:100002: ge::LLM_NEW: missing from catalog" in result.out, (
        result.out + result.err
    )


# -- 1. what an upstream file may be ----------------------------------------------------------------------


def test_audit_refuses_dev_zero_without_reading_it():
    result = child("audit", "--edition", "9.0.0-v2", "--page", "/dev/zero", memory_mb=1024)
    assert result.returncode == 1, result.stderr
    no_traceback(result.stderr)
    assert result.stdout.splitlines()[0].startswith("/dev/zero:1: unreadable (upstream: 'not a regular file"), (
        result.stdout
    )


def test_audit_refuses_a_fifo_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "page.md"
    os.mkfifo(fifo)
    result = child("audit", "--edition", "9.0.0-v2", "--page", str(fifo), timeout=60)
    assert result.returncode == 1 and result.stdout.startswith(f"{fifo}:1: unreadable"), result.stdout + result.stderr


def test_an_upstream_file_larger_than_the_limit_is_refused(tmp_path):
    page = tmp_path / "page.md"
    with open(page, "wb") as handle:
        handle.truncate(upstream_files.MAX_FILE_BYTES + 1)  # sparse: nothing is written
    result = run_cli("audit", "--edition", "9.0.0-v2", "--page", page)
    assert result.code == 1 and result.out.startswith(f"{page}:1: unreadable (upstream: 'larger than 4 MiB"), result.out
    assert len(result.out.splitlines()) == 2  # the finding and the summary


def test_a_file_at_the_limit_is_read(tmp_path):
    header = tmp_path / "llm_error_codes.h"
    body = "namespace ge {\nconstexpr Status LLM_NEW = 0x5010B0FFU;\n}\n"
    header.write_text(body + " " * (upstream_files.MAX_FILE_BYTES - len(body)))
    assert header.stat().st_size == upstream_files.MAX_FILE_BYTES
    result = run_cli("audit", "--header", header)
    assert "LLM_NEW: missing from catalog" in result.out, result.out


def test_the_limit_is_documented():
    assert f"{upstream_files.MAX_FILE_BYTES // (1024 * 1024)} MiB" in (ROOT / "docs" / "auditing.md").read_text(
        encoding="utf-8")


def test_import_refuses_a_device_too():
    result = child("import", "--edition", "9.9.0-v2", "--lang", "zh", "--page", "/dev/zero")
    assert result.returncode == 1 and result.stderr.startswith(
        "/dev/zero:1: cannot read the page: not a regular file"
    ), result.stderr


@pytest.mark.slow
def test_audit_upstream_reads_no_blob_over_the_limit_and_names_the_line_of_bad_utf8(tmp_path):
    from tests.support.upstream_formats import ERROR_CODES_H, REPO, STATUS_PY, build_upstream

    built = build_upstream(tmp_path)
    status = built.repo.path / STATUS_PY
    lines = status.read_bytes().split(b"\n")
    lines[4] += b" \xff"
    status.write_bytes(b"\n".join(lines))
    (built.repo.path / ERROR_CODES_H).write_bytes(b" " * (upstream_files.MAX_FILE_BYTES + 1))
    built.repo.commit("hostile")
    result = built.audit()
    assert result.code == 1 and result.err == "", result.out + result.err
    details = sorted(line for line in result.out.splitlines() if "unreadable" in line)
    assert details == [
        f"llm_datadist sources: {REPO}:{ERROR_CODES_H}:1: unreadable (upstream: 'larger than 4 MiB, the most an "
        "upstream file may be'; catalog: —)",
        f"llm_datadist sources: {REPO}:{STATUS_PY}:5: unreadable (upstream: 'not UTF-8 text: byte 0xFF at byte "
        f"{len(lines[4])} of the line'; catalog: —)",
    ], result.out


# -- 2. inputs that ended in a traceback ------------------------------------------------------------------

HEADINGS = {"name": {"zh": ("枚举值",)}, "meaning": {"zh": ("含义",)}, "recoverable": {"zh": ("是否可恢复",)},
            "solution": {"zh": ("解决办法",)}}
PIPE_HEAD = "| 枚举值 | 含义 | 是否可恢复 | 解决办法 |\n| --- | --- | --- | --- |\n"


# the page's own html, body, table, tbody, tr and td are open around a cell
@pytest.mark.parametrize("depth", [html_parse.MAX_DEPTH // 2, html_parse.MAX_DEPTH - 6])
@pytest.mark.parametrize("tag", ["span", "div", "blockquote", "b"])
def test_a_cell_nested_a_hundred_deep_is_read(depth, tag):
    cell = f"<{tag}>" * depth + "deep" + f"</{tag}>" * depth
    table = pagereader.read_table(PIPE_HEAD + f"| LLM_SUCCESS | {cell} | 是 | 无 |\n", HEADINGS)
    assert table.problems == [] and [c.text for c in table.rows[0].cells] == ["LLM_SUCCESS", "deep", "是", "无"]


def test_a_cell_nested_past_what_a_browser_builds_is_a_problem_at_its_line(monkeypatch):
    depth = 100_000  # html5lib's parser checks each start tag against every open one: an hour at this depth
    source = PIPE_HEAD + "| LLM_SUCCESS | ok | 是 | 无 |\n" + "| LLM_FAILED | " + "<div>" * depth + "x | 是 | 无 |\n"
    parsed = []
    original = HTMLParser.parse
    monkeypatch.setattr(HTMLParser, "parse", lambda self, *args: parsed.append(1) or original(self, *args))
    table = pagereader.read_table(source, HEADINGS)
    assert parsed == []  # refused from the tags as written, before the parser reads any
    assert table.rows == [] and table.problems == [
        (4, f"elements nested more than {html_parse.MAX_DEPTH} deep: no page upstream writes does so, "
            "and no browser shows it so; is this the right file?")]


def test_the_nesting_bound_counts_what_end_tags_close():
    closed = "<table><tr><td><p>a<p>b</td></tr></table>\n" * (html_parse.MAX_DEPTH * 2)
    assert html_parse.too_deep(closed) is None
    unclosed = "<br><img>" * 1000 + "\n" + "<li>" * (html_parse.MAX_DEPTH + 1)
    assert html_parse.too_deep(unclosed) == 2


def test_audit_reports_a_deep_page_as_unreadable(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(PIPE_HEAD + "| LLM_SUCCESS | " + "<span>" * 5000 + " | 是 | 无 |\n", encoding="utf-8")
    result = run_cli("audit", "--edition", "9.0.0-v2", "--page", page)
    assert (
        result.code == 1
        and result.err == ""
        and result.out.startswith(f"{page}:3: unreadable (upstream: 'elements nested")
    ), result.out


@pytest.mark.parametrize(
    "expression",
    ["+".join(["1"] * 300_000), "-" * 1_000_000 + "1", "(" * 100_000 + "1" + ")" * 100_000],
    ids=["300,000 terms", "a million signs", "100,000 parentheses"],
)
def test_audit_of_a_python_source_too_deep_to_parse(tmp_path, expression):
    source = tmp_path / "status.py"
    source.write_text(f"class LLMStatusCode(IntEnum):\n    LLM_SUCCESS = {expression}\n")
    result = child("audit", "--python", str(source), memory_mb=1536)
    assert result.returncode == 1, result.stdout + result.stderr
    no_traceback(result.stderr)
    assert result.stdout.startswith(f"{source}:"), result.stdout
    assert " unreadable (upstream: " in result.stdout.splitlines()[0]


def test_verify_vendored_against_json_nested_too_deeply(tmp_path):
    deep = tmp_path / "llm_status_codes.json"
    deep.write_text("[" * 100_000)
    result = run_cli("verify-vendored", ROOT / "generated" / "python" / "llm_status_codes.py", "--against", deep)
    assert (result.code, result.out) == (2, "")
    assert result.err == (f"error: --against {deep}: nested too deeply to be a JSON export of this generator "
                          "(generated/json/*.json)\n")


@pytest.mark.parametrize("key", ["9" * 5000, "-" + "9" * 5000, "0x" + "F" * 5000, "0" * 5000 + "1343270938"])
def test_explain_of_a_number_of_thousands_of_digits(key):
    result = run_cli("explain", key, "--family", "llm_datadist")
    if key.endswith("1343270938"):  # leading zeros are no digits of the value
        assert result.code == 0 and result.out.startswith("LLM_TIMEOUT"), result.err
        return
    assert result.code == 2 and result.out == "", result.err
    digits = len(key.strip())
    assert result.err == f"error: no code of llm_datadist has a value of {digits} digits\n"


def load_module(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "generated" / "python" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["llm_status_codes", "hixl_status_codes"])
@pytest.mark.parametrize("key", ["9" * 5000, "0x" + "f" * 5000, 10 ** 5000, -(10 ** 5000)],
                         ids=["5,000 digits", "5,000 hex digits", "an int of 5,000 digits", "a negative one"])
def test_the_modules_lookup_of_a_huge_number_raises_the_documented_key_error(name, key):
    module = load_module(name)
    with pytest.raises(KeyError, match="no status code has a value of more than 40 digits"):
        module.lookup(key)


# -- 3. hex without 0x ------------------------------------------------------------------------------------


def test_the_module_reads_hex_without_0x_in_any_case(llm):
    module = load_module("llm_status_codes")
    for code in llm.python_codes:
        if code.value < 0:
            continue
        member = module.LLMStatusCode[code.python_name]
        digits = f"{code.value:X}"
        for key in (digits, digits.lower(), f"0x{digits.lower()}", f" {digits} ", code.hex[2:]):
            assert module.lookup(key) is member, key
        assert module.lookup(str(code.value)) is member


@pytest.mark.parametrize("family_id", ["llm_datadist", "hixl"])
def test_explain_reads_hex_without_0x(catalog, family_id):
    family = catalog.family_by_id[family_id]
    code = max(family.codes, key=lambda c: c.value)  # one with hex letters, if any code has them
    for key in (f"{code.value:X}", f"{code.value:x}", code.hex[2:]):
        result = run_cli("explain", key, "--family", family_id)
        assert result.code == 0 and result.out.startswith(f"{code.name}  ("), (key, result.err)


def _catalog_with_hex_like_name(tmp_path):
    """The mini catalog with a C-only code named FADE (hex digits) whose value is 0x12 (18)."""
    text = (FIXTURES / "mini" / "catalog.yaml").read_text(encoding="utf-8")
    text += ("  - c: FADE\n    value: 0x12\n    cpp:\n      - 'demo::FADE'\n"
             "  - python: DEMO_TEN\n    c: DEMO_TEN\n    value: 10\n    cpp:\n      - 'demo::DEMO_TEN'\n")
    path = tmp_path / "catalog.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_digits_only_are_decimal_and_hex_digits_that_name_a_code_are_the_name(tmp_path):
    catalog = _catalog_with_hex_like_name(tmp_path)
    out = tmp_path / "out"
    assert run_cli("generate", "--catalog", catalog, "--out", out).code == 0
    spec = importlib.util.spec_from_file_location("demo_codes", out / "generated" / "python" / "demo_codes.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.lookup("10") is module.DemoCode.DEMO_TEN  # digits only: decimal, never 0x10
    assert module.lookup("0x10") is module.DemoCode.DEMO_BUSY
    assert module.lookup("a") is module.DemoCode.DEMO_TEN  # hex 0xA
    with pytest.raises(KeyError, match="'fade' is FADE .*exists only in C/C\\+\\+"):
        module.lookup("fade")  # the name, not 0xFADE
    for key, name in (
        ("FADE", "FADE"),
        ("fade", "FADE"),
        ("0xFADE", None),
        ("12", None),
        ("0x12", "FADE"),
        ("10", "DEMO_TEN"),
    ):
        result = run_cli("explain", key, "--catalog", catalog)
        if name is None:
            assert result.code == 2 and "has the value" in result.err, (key, result.err)
        else:
            assert result.code == 0 and result.out.startswith(f"{name}  ("), (key, result.err)


# -- 4. explain looks in every family --------------------------------------------------------------------


def _closest_named(err: str) -> list[str]:
    return err.strip().split("; closest: ", 1)[1].split(", ") if "; closest: " in err else []


def test_explain_of_a_misspelt_name_suggests_across_every_family():
    result = run_cli("explain", "LLM_TIMEOT")
    assert result.code == 2 and result.out == ""
    assert result.err.startswith("error: no code of any family is named or logged as 'LLM_TIMEOT'; closest: "), (
        result.err
    )
    assert _closest_named(result.err)[0] == "LLM_TIMEOUT (llm_datadist)"


def test_explain_suggests_names_of_every_family_not_the_last_one_tried(catalog):
    first, *others = catalog.families
    other_names = {c.name for f in others for c in f.codes}
    name = next(c.name for c in first.codes if c.name not in other_names and len(c.name) > 6)
    typo = name[:3] + name[4:]
    result = run_cli("explain", typo)
    assert result.code == 2 and f"{name} ({first.id})" in _closest_named(result.err), result.err
    only = run_cli("explain", typo, "--family", others[-1].id)
    assert only.code == 2 and only.err.startswith(f"error: no code of {others[-1].id} is named"), only.err
    assert all("(" not in n for n in _closest_named(only.err))


def test_explain_of_a_value_no_family_has():
    result = run_cli("explain", "0x5010BFFF")
    assert (result.code, result.err) == (2, "error: no code of any family has the value 0x5010BFFF\n")


# -- 5. names the language around an output owns -----------------------------------------------------------

CONSTANTS_SHAPE = (
    "  python: {module: demo_codes, shape: enum, class: DemoCode, lookup: lookup, default_page: py, exception: "
    "DemoException,\n"
    "           default_status: DEMO_OK, status: DemoStatus, code_2_status: code_2_status, unknown_status: DEMO_BUSY}",
    "  python: {module: demo_codes, shape: constants, class: DemoCode, lookup: lookup, default_page: py}",
)


def _mini_with(tmp_path, text: str):
    path = tmp_path / "catalog.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _constants_mini() -> str:
    text = (FIXTURES / "mini" / "catalog.yaml").read_text(encoding="utf-8")
    assert CONSTANTS_SHAPE[0] in text
    return (
        text.replace(CONSTANTS_SHAPE[0], CONSTANTS_SHAPE[1])
        .replace("    wrapper: kOk\n", "")
        .replace("    wrapper: kBusy\n", "")
    )


def test_the_constants_shaped_mini_catalog_is_valid(tmp_path):
    assert run_cli("validate", "--catalog", _mini_with(tmp_path, _constants_mini())).code == 0


@pytest.mark.parametrize("name", ["dict", "isinstance", "object", "str", "sorted", "list", "abs", "len", "KeyError",
                                  "ValueError", "NotImplemented", "super", "type", "tuple", "print"])
def test_a_constant_named_as_a_python_builtin_is_refused(tmp_path, name):
    catalog = _mini_with(tmp_path, _constants_mini().replace("DEMO_ODD", name))
    result = run_cli("validate", "--catalog", catalog)
    assert result.code == 3
    assert re.fullmatch(
        rf"{re.escape(str(catalog))}:\d+:\d+: {name}: a built-in of Python; as a module-level constant it "
        r"would replace the built-in that the generated module and its importers call; rename the code's "
        r"Python name\n1 problem\(s\) in the catalog; nothing was written\n",
        result.err,
    ), result.err


def test_an_enum_member_may_take_a_builtins_name(tmp_path):
    """A member of an IntEnum is an attribute of its class, not a module-level name."""
    text = (FIXTURES / "mini" / "catalog.yaml").read_text(encoding="utf-8").replace("DEMO_ODD", "sorted")
    assert run_cli("validate", "--catalog", _mini_with(tmp_path, text)).code == 0


def _global_reads(source: str) -> set[str]:
    """Every name a module's code reads from its globals or the built-ins."""
    names = set()
    tables = [symtable.symtable(source, "module", "exec")]
    while tables:
        table = tables.pop()
        for symbol in table.get_symbols():
            if symbol.is_referenced() and (table.get_type() == "module" or symbol.is_global()):
                names.add(symbol.get_name())
        tables += table.get_children()
    return names


@pytest.mark.parametrize("module_name", ["hixl_status_codes", "llm_status_codes"])
def test_every_name_the_generated_module_reads_is_refused_as_a_constant(catalog, module_name):
    from generator.reading.names import MODULE_GLOBALS
    from generator.reading.reserved_names import PYTHON_BUILTINS

    family = next(f for f in catalog.families if f.python.module == module_name)
    source = (ROOT / "generated" / "python" / f"{module_name}.py").read_text(encoding="utf-8")
    members = {code.python_name for code in family.python_codes}
    python = family.python
    api = {python.class_name, python.lookup, python.exception, python.status, python.code_2_status, python.module}
    unguarded = {n for n in _global_reads(source) - members
                 if not n.startswith("_") and n not in PYTHON_BUILTINS | MODULE_GLOBALS | api}
    assert unguarded == set()
    builtins_read = {n for n in _global_reads(source) if n in dir(builtins)}
    assert builtins_read <= PYTHON_BUILTINS and {"dict", "isinstance", "sorted"} <= builtins_read


C_NAMES = ["EOF", "errno", "stdin", "printf", "strlen", "memcpy", "EINVAL", "ERANGE", "BUFSIZ", "CHAR_BIT", "RAND_MAX",
           "EXIT_FAILURE", "exit", "FILE", "NDEBUG", "va_list", "SIGINT", "LC_ALL", "PRIu32", "isnan", "ENOTREALLY"]


@pytest.mark.parametrize("name", C_NAMES)
def test_a_c_name_of_the_standard_library_is_refused(tmp_path, name):
    text = (FIXTURES / "mini" / "catalog.yaml").read_text(encoding="utf-8").replace("DEMO_C_ONLY", name)
    catalog = _mini_with(tmp_path, text)
    result = run_cli("validate", "--catalog", catalog)
    assert result.code == 3
    assert re.fullmatch(
        rf"{re.escape(str(catalog))}:\d+:\d+: {name}: <[a-z]+\.h> defines or reserves this name; the "
        rf"generated header would not compile beside it \(C macro {name}, C\+\+ constant demo_codes::{name}\); "
        r"rename the code's C name\n1 problem\(s\) in the catalog; nothing was written\n",
        result.err,
    ), result.err


def test_a_macro_prefix_that_makes_a_library_name_is_refused_too(tmp_path):
    text = (FIXTURES / "mini" / "catalog.yaml").read_text(encoding="utf-8")
    text = text.replace("namespace: demo_codes,", "namespace: demo_codes, macro_prefix: LC_,").replace(
        "DEMO_C_ONLY", "ALL"
    )
    result = run_cli("validate", "--catalog", _mini_with(tmp_path, text))
    assert result.code == 3 and ": ALL: <locale.h> defines or reserves LC_ALL; " in result.err, result.err


STANDARD_HEADERS = (
    "assert complex ctype errno fenv float inttypes iso646 limits locale math setjmp signal stdalign stdarg "
    "stdatomic stdbool stddef stdint stdio stdlib stdnoreturn string tgmath threads time uchar wchar "
    "wctype"
).split()


def test_every_macro_of_the_standard_headers_is_refused(tmp_path):
    """What gcc's C library defines when a file includes every standard header: each macro
    not reserved to the implementation (a leading underscore) is a name validation refuses."""
    from generator.reading.format import C_KEYWORDS, C_RESERVED
    from generator.reading.reserved_names import c_library_header

    source = tmp_path / "all.c"
    source.write_text("".join(f"#include <{h}.h>\n" for h in STANDARD_HEADERS))
    result = subprocess.run(["gcc", "-std=c17", "-dM", "-E", str(source)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    macros = {line.split()[1].split("(")[0] for line in result.stdout.splitlines() if line.startswith("#define ")}
    macros = {m for m in macros if not m.startswith("_")}
    assert len(macros) > 300 and {"EOF", "EINVAL", "CHAR_BIT", "RAND_MAX", "BUFSIZ", "SIGINT"} <= macros
    assert sorted(m for m in macros if not (c_library_header(m) or m in C_KEYWORDS or C_RESERVED.match(m))) == []


def test_the_refused_names_do_break_the_header_when_allowed(tmp_path):
    """Why the names are refused: the header the mini catalog makes, with DEMO_BUSY_C renamed
    to each name, fails to compile after the standard headers."""
    out = tmp_path / "out"
    assert run_cli("generate", "--catalog", MINI, "--out", out).code == 0
    header = (out / "generated" / "c" / "demo_codes.h").read_text(encoding="utf-8")
    includes = "".join(
        f"#include <{h}.h>\n" for h in ("errno", "stdio", "stdlib", "string", "limits", "stdarg", "assert")
    )
    for name in ("EOF", "errno", "stdin", "EINVAL", "BUFSIZ", "CHAR_BIT", "RAND_MAX", "EXIT_FAILURE"):
        broken = tmp_path / f"{name}.c"
        broken.write_text(includes + header.replace("DEMO_BUSY_C", name) + "int main(void) { return 0; }\n")
        result = subprocess.run(["gcc", "-std=c99", "-x", "c", "-Wall", "-Werror", "-fsyntax-only", str(broken)],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode != 0, name


# -- 6. upstream's git and the terminal ---------------------------------------------------------------------


def _git(directory, *args: str) -> str:
    from tests.support.upstream_formats import git_env

    result = subprocess.run(["git", "-C", str(directory), *args], capture_output=True, text=True, env=git_env())
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@pytest.fixture
def small_repo(tmp_path):
    directory = tmp_path / "repo"
    directory.mkdir()
    _git(directory, "init", "-q", "-b", "main")
    (directory / "a.md").write_text("a\n")
    _git(directory, "add", "-A")
    _git(directory, "commit", "-q", "-m", "one")
    _git(directory, "tag", "v1.0.0")
    _git(directory, "tag", "v0.9.0", _git(directory, "rev-parse", "HEAD^{tree}"))
    _git(directory, "tag", "-a", "-m", "a blob", "v0.8.0", _git(directory, "rev-parse", "HEAD:a.md"))
    return directory


def test_tags_at_a_tree_or_a_blob_are_no_releases(small_repo):
    from generator.upstream.git import GitRepo

    repo = GitRepo("demo/repo", small_repo)
    assert repo.release_tags() == ("v1.0.0",)
    assert sorted(repo.odd_tags()) == [("v0.8.0", "blob"), ("v0.9.0", "tree")]


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085"])
def test_a_tag_holding_a_unicode_line_break_is_one_tag(small_repo, separator):
    """git allows U+2028 in a tag's name; the listing was split with splitlines(), so that
    `x<U+2028>v9.9.9` made a release tag v9.9.9 that no ref names (and grep's paths likewise)."""
    from generator.upstream.git import GitRepo

    _git(small_repo, "tag", f"x{separator}v9.9.9")
    (small_repo / f"b{separator}v.md").write_text("needle\n")
    _git(small_repo, "add", "-A")
    _git(small_repo, "commit", "-q", "-m", "two")
    repo = GitRepo("demo/repo", small_repo)
    assert repo.release_tags() == ("v1.0.0",)
    assert f"x{separator}v9.9.9" in {name for name, _ in repo._tags()}
    assert repo.files_containing("HEAD", "needle") == {f"b{separator}v.md"}


@pytest.mark.parametrize("ref", ["--all", "--output=PWNED", "-h"])
def test_a_ref_that_looks_like_an_option_never_reaches_git(small_repo, ref, monkeypatch):
    from generator.upstream.git import GitError, GitRepo

    monkeypatch.chdir(small_repo)
    repo = GitRepo("demo/repo", small_repo)
    for call in (
        lambda: repo.commit(ref),
        lambda: repo.tree(ref),
        lambda: repo.read_blob(ref),
        lambda: repo.read_text(ref),
    ):
        with pytest.raises(GitError, match="is not a tag, branch or commit: a name never begins with -"):
            call()
    assert not (small_repo / "PWNED").exists()


def test_git_is_told_where_options_end(small_repo):
    from generator.upstream.git import _end_of_options

    version = tuple(int(n) for n in re.search(r"(\d+)\.(\d+)", _git(small_repo, "--version")).groups())
    assert _end_of_options() == (("--end-of-options",) if version >= (2, 30) else ())


def test_import_refuses_a_ref_beginning_with_a_dash(tmp_path):
    result = run_cli("import", "--edition", "9.9.0-v2", "--lang", "zh", "--upstream", f"hicann/hixl={tmp_path}",
                     "--ref=--all", "--path", "docs/x.md")
    assert (result.code, result.out) == (2, "")
    assert result.err == "error: --ref '--all': a tag, branch or commit never begins with -\n"


def test_names_and_paths_from_upstream_are_printed_escaped():
    from generator.audit.findings import Finding

    finding = Finding("hicann/hixl:docs/\x1b]0;owned\x07/LLMStatusCode.md", 3, "missing from catalog",
                      "LLM_\x1b[2JX\u202e", upstream="listed\x1b[1m")
    assert str(finding) == (
        "hicann/hixl:docs/\\x1b]0;owned\\x07/LLMStatusCode.md:3: LLM_\\x1b[2JX\\u202e: missing from "
        "catalog (upstream: 'listed\\x1b[1m'; catalog: —)"
    )


def test_audit_prints_a_name_cell_with_an_escape_sequence_escaped(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(PIPE_HEAD + "| LLM_\x1b[2J\x1b]0;owned\x07X | x | 是 | 无 |\n", encoding="utf-8")
    result = run_cli("audit", "--edition", "9.0.0-v2", "--page", page)
    assert result.code == 1
    assert "\x1b" not in result.out and "\x07" not in result.out
    assert f"{page}:3: LLM_\\x1b[2J\\x1b]0;owned\\x07X: missing from catalog" in result.out, result.out


@pytest.mark.parametrize("command", ["audit", "import"])
def test_bad_utf8_is_reported_at_its_line(tmp_path, command):
    page = tmp_path / "page.md"
    page.write_bytes(
        PIPE_HEAD.encode() + "| LLM_SUCCESS | 成功 | 是 | 无 |\n".encode() + b"| LLM_FAILED | \xc3\x28 | x | y |\n"
    )
    if command == "audit":
        result = run_cli("audit", "--edition", "9.0.0-v2", "--page", page)
        column = len(b"| LLM_FAILED | ") + 1
        assert result.code == 1 and result.out.startswith(f"{page}:4: unreadable (upstream: 'not UTF-8 text: byte 0xC3 "
                                                          f"at byte {column} of the line'"), result.out
    else:
        result = run_cli("import", "--edition", "9.9.0-v2", "--lang", "zh", "--page", page)
        assert result.code == 1 and result.err.startswith(f"{page}:4: cannot read the page: not UTF-8 text"), result.err


@pytest.mark.slow
def test_audit_upstream_skips_tags_at_trees_and_escapes_upstream_paths(tmp_path):
    from tests.support.upstream_formats import build_upstream

    built = build_upstream(tmp_path)
    tree = built.repo.git("rev-parse", "v9.0.0^{tree}")
    built.repo.git("tag", "v8.0.0", tree)  # older than every release: the first tag of every file, were it read
    built.repo.git("tag", "v9.9.0", tree)
    hostile = "docs/x\x1b]0;owned\x07/LLMStatusCode.md"
    built.repo.write(hostile, "# LLMStatusCode\n")
    built.repo.commit("a page at a hostile path")
    result = built.audit()
    assert result.err == "" and result.code == 1, result.out + result.err  # the new page is a difference
    assert "\x1b" not in result.out and "\x07" not in result.out
    assert "hicann/hixl:docs/x\\x1b]0;owned\\x07/LLMStatusCode.md:1: missing from catalog" in result.out, result.out
    known = [line for line in result.out.splitlines() if line.startswith("known: — tags: ")]
    assert [line.split("upstream: ")[1].split(";")[0] for line in known] == [
        "'tag v8.0.0 points at a tree, not a commit'", "'tag v9.9.0 points at a tree, not a commit'"]
