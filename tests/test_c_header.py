"""The generated headers, compiled as C99 and C++11 with every warning an error, run, and
compared with the catalog; each beside upstream's own declarations (our fixtures in their format)."""
import shutil
import subprocess

import pytest

from generator.rendering.c_header import c_path
from tests.support import upstream_sources as us
from tests.support.helpers import ROOT

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


def families(catalog):
    return catalog.families


def expected_lines(family) -> str:
    lines = []
    for code in family.c_codes:
        message = (
            code.log_message.encode().hex() if code.log_message is not None and family.c.message_function else "NULL"
        )
        lines.append(f"{code.c_name} {code.value} {code.c_name.encode().hex()} {message}")
    lines.append("unknown NULL NULL")
    return "\n".join(lines) + "\n"


def program(family, qualify: str, macro_prefix: str, prefix: str = "") -> str:
    c = family.c
    message = (lambda arg: f"{c.message_function}({arg})") if c.message_function else (lambda arg: "NULL")
    calls = "\n".join(
        f'    print_code("{code.c_name}", (unsigned long){qualify}{macro_prefix}{code.c_name}, '
        f"{c.name_function}({qualify}{macro_prefix}{code.c_name}), {message(qualify + macro_prefix + code.c_name)});"
        for code in family.c_codes)
    return (f'{prefix}\n#include "{c.header}.h"\n{PRINT_HELPERS}\nint main(void) {{\n{calls}\n'
            f'    printf("unknown"); print_text({c.name_function}(0x7FFFFFFFU)); print_text({message("0x7FFFFFFFU")}); '
            'printf("\\n");\n    return 0;\n}\n')


def compile_and_run(tmp_path, flags, source, suffix, includes=()) -> str:
    src = tmp_path / f"prog{suffix}"
    src.write_text(source, encoding="utf-8")
    exe = tmp_path / f"prog{suffix}.out"
    args = flags + ["-I", str(ROOT / "generated" / "c")]
    for include in includes:
        args += ["-I", str(include)]
    build = subprocess.run(args + [str(src), "-o", str(exe)], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    return subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("extra", [[], ["-trigraphs"]], ids=["plain", "trigraphs"])
def test_c99_program_prints_the_catalog(tmp_path, catalog, extra):
    for family in families(catalog):
        out = compile_and_run(tmp_path, C_FLAGS + extra, program(family, "", family.c.macro_prefix), ".c")
        assert out == expected_lines(family), family.id


def test_cpp11_program_prints_the_catalog(tmp_path, catalog):
    for family in families(catalog):
        out = compile_and_run(tmp_path, CXX_FLAGS, program(family, family.c.namespace + "::", ""), ".cpp")
        assert out == expected_lines(family), family.id


def test_c_macros_work_in_preprocessor_conditions(tmp_path, catalog):
    for family in families(catalog):
        checks = "\n".join(
            f"#if {family.c.macro_prefix}{c.c_name} != {c.value}UL\n#error {c.c_name}\n#endif" for c in family.c_codes
        )
        compile_and_run(
            tmp_path, C_FLAGS, f'#include "{family.c.header}.h"\n{checks}\nint main(void) {{ return 0; }}\n', ".c"
        )


def test_all_headers_together_in_one_c_unit(tmp_path, catalog):
    """Each family's macros carry its prefix: HIXL's SUCCESS and ADXL's never collide."""
    includes = "".join(f'#include "{f.c.header}.h"\n' for f in catalog.families)
    source = includes + "int main(void) { return (int)(HIXL_SUCCESS + ADXL_SUCCESS + LLM_SUCCESS); }\n"
    compile_and_run(tmp_path, C_FLAGS, source, ".c")
    compile_and_run(
        tmp_path, CXX_FLAGS, includes + "int main(void) { return (int)hixl_status_codes::SUCCESS; }\n", ".cpp"
    )


@pytest.mark.parametrize("flags,suffix", [(C_FLAGS, ".c"), (CXX_FLAGS, ".cpp")], ids=["c99", "c++11"])
def test_included_twice_and_unused_compiles_clean(tmp_path, catalog, flags, suffix):
    for family in families(catalog):
        name = f"{family.c.header}.h"
        compile_and_run(
            tmp_path, flags, f'#include "{name}"\n#include "{name}"\nint main(void) {{ return 0; }}\n', suffix
        )


def test_in_cpp_the_functions_return_nullptr_not_null(tmp_path, catalog):
    """clang++ -Wzero-as-null-pointer-constant -Werror refused `return NULL;` (g++'s NULL is __null,
    which it lets pass): as C++, every header's functions return nullptr, and NULL stays C's. With
    clang++ on the machine, it compiles them too."""
    for family in families(catalog):
        header = ROOT / "generated" / "c" / f"{family.c.header}.h"
        expanded = subprocess.run(["g++", "-std=c++11", "-E", "-P", "-x", "c++", str(header)], capture_output=True,
                                  text=True, check=True).stdout
        body = expanded[expanded.index(family.c.name_function):]
        assert "nullptr" in body and "__null" not in body and "NULL" not in body, family.id
        as_c = subprocess.run(["gcc", "-std=c99", "-E", "-P", "-x", "c", str(header)], capture_output=True, text=True,
                              check=True).stdout
        assert "nullptr" not in as_c
    if shutil.which("clang++"):
        for family in families(catalog):
            compile_and_run(tmp_path, ["clang++", "-std=c++11", "-Wall", "-Wextra", "-Werror", "-pedantic",
                                       "-Wzero-as-null-pointer-constant"],
                            f'#include "{family.c.header}.h"\nint main(void) {{ return {family.c.name_function}(1) '
                            "== nullptr ? 0 : 1; }\n", ".cpp")


def test_llm_header_beside_upstreams_llm_datadist_and_ge_headers(tmp_path, llm):
    """Upstream's llm_datadist.h (constexpr in llm_datadist::) and llm_error_codes.h (GE_ERRORNO_DEFINE in ge::)."""
    stub = tmp_path / "include" / "external" / "ge_common"
    stub.mkdir(parents=True)
    (stub / "api_error_codes.h").write_text(
        "#include <cstdint>\nnamespace ge { using Status = uint32_t; }\n"
        "#define GE_ERRORNO_DEFINE(runtime, type, level, sysid, modid, name, value) constexpr ge::Status name = "
        "(((uint32_t)(runtime)) << 30U) | (((uint32_t)(type)) << 28U) | (((uint32_t)(level)) << 25U) | "
        "(((uint32_t)(sysid)) << 17U) | (((uint32_t)(modid)) << 12U) | ((uint32_t)(value) & 0xFFFU)\n")
    written = us.write_sources(tmp_path / "upstream", llm, "hicann/hixl", kinds=("header",))
    ge_api = tmp_path / "upstream" / "ge_api_error_codes.h"  # ge's, which declares ge::SUCCESS and ge::FAILED
    ge_api.write_text(us.source_text(llm, "header", us.GE_API_HEADER, us.codes_at(llm, "hicann/ge")), encoding="utf-8")
    prefix = (
        f'#include "{ge_api}"\n#include "{written[us.ERROR_CODES_HEADER]}"\n#include "{written[us.DATADIST_HEADER]}"\n'
        "using namespace llm_datadist;\n"
    )
    ns = llm.c.namespace + "::"
    # (a code the newest release no longer declares stays in ours, with a comment that says so)
    checks = "\n".join(f'static_assert({n.name} == {ns}{code.c_name}, "{n.name}");'
                       for code in llm.c_codes if "hicann/hixl" not in dict(code.removed)
                       for n in code.cpp if n.header)
    source = program(llm, ns, "", prefix=prefix).replace(
        "int main(void) {",
        f'{checks}\nstatic_assert(LLM_SUCCESS == 0x0U, "unqualified names stay upstream\'s");\nint main(void) {{',
        1,
    )
    # upstream's GE headers write binary literals (0b01): C++14, as upstream builds them
    out = compile_and_run(
        tmp_path, CXX_FLAGS[:1] + ["-std=c++14"] + CXX_FLAGS[2:], source, ".cpp", includes=[tmp_path / "include"]
    )
    assert out == expected_lines(llm)


def test_hixl_header_beside_upstreams_hixl_types(tmp_path, catalog):
    hixl = catalog.family_by_id["hixl"]
    written = us.write_sources(tmp_path / "upstream", hixl, "hicann/hixl", kinds=("header",))
    prefix = f'#include "{written["hixl/hixl_types.h"]}"\nusing namespace hixl;\n'
    checks = "\n".join(
        f'static_assert(hixl::{c.c_name} == hixl_status_codes::{c.c_name}, "{c.c_name}");' for c in hixl.c_codes
    )
    source = program(hixl, "hixl_status_codes::", "", prefix=prefix).replace(
        "int main(void) {", f"{checks}\nint main(void) {{", 1
    )
    assert compile_and_run(tmp_path, CXX_FLAGS, source, ".cpp") == expected_lines(hixl)


def test_hixl_header_beside_upstreams_hixl_cs(tmp_path, catalog):
    """HIXL_CS (include/cs/hixl_cs.h, C++ only) declares HIXL_SUCCESS and three more as static
    consts in the global namespace: the header compiles beside it, and beside hixl_types.h too."""
    hixl = catalog.family_by_id["hixl"]
    written = us.write_sources(tmp_path / "upstream", hixl, "hicann/hixl", kinds=("header",))
    cs = [(c, n) for c in hixl.c_codes for n in c.cpp if n.header == us.HIXL_CS_HEADER]
    assert {n.name for _, n in cs} >= {"::HIXL_SUCCESS", "::HIXL_PARAM_INVALID", "::HIXL_TIMEOUT", "::HIXL_FAILED"}
    prefix = f'#include "{written[us.HIXL_CS_HEADER]}"\n#include "{written["hixl/hixl_types.h"]}"\n'
    checks = "\n".join(f'static_assert({n.name} == hixl_status_codes::{c.c_name}, "{n.name}");' for c, n in cs)
    source = program(hixl, "hixl_status_codes::", "", prefix=prefix).replace(
        "int main(void) {", f"{checks}\nint main(void) {{", 1
    )
    assert compile_and_run(tmp_path, CXX_FLAGS, source, ".cpp") == expected_lines(hixl)


def test_header_paths_come_from_the_family(catalog):
    for family in catalog.families:
        assert (ROOT / c_path(family)).is_file()


def test_version_and_catalog_hash_macros(catalog):
    from generator.rendering.catalog_hash import catalog_hash
    from generator.core.project import project_version

    for family in catalog.families:
        text = (ROOT / c_path(family)).read_text(encoding="utf-8")
        assert f'#define {family.c.macro_base}_GENERATOR_VERSION "{project_version()}"' in text
        assert f'#define {family.c.macro_base}_CATALOG_HASH "{catalog_hash(family)}"' in text
