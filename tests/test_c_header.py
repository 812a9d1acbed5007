"""The generated header, compiled as C99 and C++11 with every warning an error,
run, and compared with the catalog."""
import shutil
import subprocess

import pytest

from generator.render_code import c_path
from tests import upstream
from tests.helpers import ROOT

C_FLAGS = ["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"]
CXX_FLAGS = ["g++", "-std=c++11", "-Wall", "-Wextra", "-Werror", "-pedantic"]
pytestmark = pytest.mark.skipif(not (shutil.which("gcc") and shutil.which("g++")), reason="needs gcc and g++")

PRINT_HELPERS = r"""
#include <stdio.h>
static void print_text(const char *text) {
    if (text == NULL) { printf(" NULL"); return; }
    printf(" ");
    for (; *text; ++text) printf("%02x", (unsigned)(unsigned char)*text);
}
static void print_code(const char *macro, unsigned long value, const char *name, const char *message) {
    printf("%s %lu", macro, value); print_text(name); print_text(message); printf("\n");
}
"""


def header_dir(catalog):
    return (ROOT / c_path(catalog)).parent


def header_name(catalog):
    return (ROOT / c_path(catalog)).name


def expected_lines(catalog) -> str:
    lines = []
    for code in catalog.c_codes:
        message = code.log_message.encode().hex() if code.log_message is not None else "NULL"
        lines.append(f"{code.c_name} {code.value} {code.c_name.encode().hex()} {message}")
    lines.append("unknown NULL NULL")
    return "\n".join(lines) + "\n"


def program(catalog, qualify: str, prefix: str = "") -> str:
    f = catalog.family.c
    calls = "\n".join(
        f'    print_code("{c.c_name}", (unsigned long){qualify}{c.c_name}, {f.name_function}({qualify}{c.c_name}), '
        f"{f.message_function}({qualify}{c.c_name}));"
        for c in catalog.c_codes
    )
    return (f'{prefix}\n#include "{header_name(catalog)}"\n{PRINT_HELPERS}\nint main(void) {{\n{calls}\n'
            f'    printf("unknown"); print_text({f.name_function}(0x7FFFFFFFU)); '
            f"print_text({f.message_function}(0x7FFFFFFFU)); printf(\"\\n\");\n    return 0;\n}}\n")


def compile_and_run(tmp_path, catalog, flags, source, suffix) -> str:
    src = tmp_path / f"prog{suffix}"
    src.write_text(source, encoding="utf-8")
    exe = tmp_path / f"prog{suffix}.out"
    build = subprocess.run(flags + ["-I", str(header_dir(catalog)), str(src), "-o", str(exe)],
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    return subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("extra", [[], ["-trigraphs"]], ids=["plain", "trigraphs"])
def test_c99_program_prints_the_catalog(tmp_path, catalog, extra):
    out = compile_and_run(tmp_path, catalog, C_FLAGS + extra, program(catalog, ""), ".c")
    assert out == expected_lines(catalog)


def test_cpp11_program_prints_the_catalog(tmp_path, catalog):
    ns = catalog.family.c.namespace + "::"
    out = compile_and_run(tmp_path, catalog, CXX_FLAGS, program(catalog, ns), ".cpp")
    assert out == expected_lines(catalog)


def test_c_macros_work_in_preprocessor_conditions(tmp_path, catalog):
    checks = "\n".join(f"#if {c.c_name} != {c.value}UL\n#error {c.c_name}\n#endif" for c in catalog.c_codes)
    source = f'#include "{header_name(catalog)}"\n{checks}\nint main(void) {{ return 0; }}\n'
    compile_and_run(tmp_path, catalog, C_FLAGS, source, ".c")


@pytest.mark.parametrize("flags,suffix", [(C_FLAGS, ".c"), (CXX_FLAGS, ".cpp")], ids=["c99", "c++11"])
def test_included_twice_and_unused_compiles_clean(tmp_path, catalog, flags, suffix):
    name = header_name(catalog)
    source = f'#include "{name}"\n#include "{name}"\nint main(void) {{ return 0; }}\n'
    compile_and_run(tmp_path, catalog, flags, source, suffix)


def upstream_stand_in() -> str:
    """upstream's llm_datadist.h and ge:: declarations, built from the facts."""
    values = {c.c: c.value for c in upstream.fact_codes() if c.c}
    public = "\n".join(f"constexpr Status {name} = 0x{values[name]:X}U;" for name in upstream.fact_public_api())
    ge_only = "\n".join(f"constexpr Status {c.c} = 0x{c.value:X}U;" for c in upstream.fact_codes() if "C++ only" in c.where)
    return (
        "#include <cstdint>\n"
        "namespace ge {\nusing Status = std::uint32_t;\nconstexpr Status SUCCESS = 0x0U;\n"
        f"constexpr Status FAILED = 0xFFFFFFFFU;\n{ge_only}\n}}\n"
        f"namespace llm_datadist {{\nusing Status = std::uint32_t;\n{public}\n}}\n"
        "using namespace llm_datadist;\n"
    )


def test_cpp_beside_upstreams_declarations(tmp_path, catalog):
    ns = catalog.family.c.namespace + "::"
    checks = "\n".join(
        f"static_assert(llm_datadist::{n} == {ns}{n}, \"{n}\");" for n in upstream.fact_public_api())
    prefix = upstream_stand_in()
    source = program(catalog, ns, prefix=prefix).replace(
        "int main(void) {", f"{checks}\nstatic_assert(LLM_SUCCESS == 0x0U, \"unqualified name stays upstream's\");\nint main(void) {{", 1)
    out = compile_and_run(tmp_path, catalog, CXX_FLAGS, source, ".cpp")
    assert out == expected_lines(catalog)
