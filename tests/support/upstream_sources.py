"""Upstream's source files, written by this project from a catalog family in upstream's formats.

status.py (the `LLMStatusCode` enum read from the pybind module, `_code_2_status`, `Status`,
`code_2_status`), the binding (`m.attr("kLLMTimeout") = py::int_(ge::LLM_TIMEOUT);`), GE's
`llm_error_codes.h` (`GE_ERRORNO_DEFINE(0b01, 0b01, 0b000, 8, 11, LLM_TIMEOUT, 26);`),
`llm_datadist.h` (`constexpr Status LLM_TIMEOUT = 0x5010B01AU;`), the messages source
(`GE_ERRORNO_EXTERNAL(LLM_TIMEOUT, "Process timeout.");`) and hixl's `hixl_types.h`, each with
the lines around the codes that upstream's files have and that are not codes (options, data
types, a namespace of another family).

Written from the catalog, a faithful file audits clean whatever the catalog holds (a new release
with a new code turns no test red), and each deliberate change to one must be reported at its
line. Whether the catalog's codes are upstream's is what the content tests check against facts
recorded from upstream's repositories (tests/test_catalog_content.py).
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional, Sequence

from generator.domain.codes import Code

from generator.domain.family import Family
from generator.domain.queries import family_at
from generator.core.releases import release_key

GE_NAMESPACE = "ge"
PUBLIC_NAMESPACE = "llm_datadist"
ERROR_CODES_HEADER = "llm_datadist/llm_error_codes.h"
DATADIST_HEADER = "llm_datadist/llm_datadist.h"


def newest_release(family: Family, repo: str) -> Optional[str]:
    """The newest release of `repo` the family's editions record."""
    releases = {e.release for e in family.editions if e.released and any(s.repo == repo for s in e.sources)}
    keyed = [r for r in releases if release_key(r) is not None]
    return max(keyed, key=release_key) if keyed else None


def codes_at(family: Family, repo: str, release: Optional[str] = None) -> list[Code]:
    """The codes upstream's files of `repo` have at `release` (default: its newest), each under
    the names those files gave it then."""
    release = release or newest_release(family, repo)
    if release is None:
        return [c for c in family_at(family, repo, None).codes if not c.removed]
    return list(family_at(family, repo, release).codes)


def _c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _named(code: Code, namespace: str, header: Optional[str] = None):
    return next((n for n in code.cpp if n.namespace == namespace and (header is None or n.header == header)), None)


def _bound_to(family: Family, code: Code) -> str:
    """What the binding gives the code's wrapper constant: its ge:: name, or the runtime's constant."""
    ge = _named(code, GE_NAMESPACE)
    if ge is not None:
        return ge.name
    runtime = [name for name, value in family.runtime_constants if value == code.value]
    assert runtime, f"{code.name}: neither a ge:: name nor a runtime constant binds it"
    return runtime[0]


def status_py(family: Family, codes: Sequence[Code], banner: str = "") -> str:
    members = [c for c in codes if c.python_name]
    lines = [f"# {banner}"] if banner else []
    lines += ["from enum import IntEnum", "from llm_datadist.utils import log", "",
              "from llm_datadist import llm_datadist_wrapper as llm_wrapper", "", "",
              "class LLMStatusCode(IntEnum):"]
    for code in members:
        value = f"llm_wrapper.{code.wrapper}" if code.wrapper else str(code.value)
        lines.append(f"    {code.python_name} = {value}")
    lines += [
        "",
        "    def __str__(self):",
        '        return f"{self.__class__.__name__}.{self.name}"',
        "",
        "",
        "class LLMException(RuntimeError):",
        "    def __init__(self, *args, status_code=LLMStatusCode.LLM_SUCCESS):",
        "        super().__init__(*args)",
        "        self._status_code = status_code",
        "",
        "    @property",
        "    def status_code(self):",
        '        """',
        "        获取异常的错误码",
        "        Returns:",
        "            异常的错误码",
        '        """',
        "        return self._status_code",
        "",
        "",
        "_code_2_status = {",
    ]
    wrapped = [c for c in members if c.wrapper]
    lines += [f"    llm_wrapper.{c.wrapper}: LLMStatusCode.{c.python_name}," for c in wrapped]
    if wrapped:
        lines[-1] = lines[-1].rstrip(",")  # upstream's last entry has no comma
    lines += [
        "}",
        "",
        "",
        "class Status():",
        "    def __init__(self, status):",
        "        self._status_code = status",
        "",
        "    def is_ok(self):",
        "        return self._status_code == LLMStatusCode.LLM_SUCCESS",
        "",
        "    @property",
        "    def status_code(self):",
        "        return self._status_code",
        "",
        "",
        "def code_2_status(status) -> LLMStatusCode:",
        "    return _code_2_status[status] if status in _code_2_status else LLMStatusCode.LLM_FAILED",
        "",
        "",
        "def handle_llm_status(status, func_name, other_info):",
        "    if status != int(llm_wrapper.kSuccess):",
        '        raise LLMException(f"{func_name} failed, error code is {code_2_status(status)}, {other_info}.",',
        "                           status_code=code_2_status(status))",
    ]
    return "\n".join(lines) + "\n"


def binding_cc(family: Family, codes: Sequence[Code], banner: str = "") -> str:
    lines = [f"/* {banner} */"] if banner else []
    lines += ['#include "pybind11/pybind11.h"', '#include "acl/acl.h"', '#include "llm_datadist/llm_error_codes.h"', "",
              "namespace py = pybind11;", "", "PYBIND11_MODULE(llm_datadist_wrapper, m) {",
              '  m.doc() = "llm datadist wrapper";  // not a status code']
    lines += [
        f'  m.attr("{c.wrapper}") = py::int_({_bound_to(family, c)});' for c in codes if c.python_name and c.wrapper
    ]
    lines += ['  m.attr("DT_FLOAT") = py::int_(static_cast<int32_t>(ge::DataType::DT_FLOAT));', "}"]
    return "\n".join(lines) + "\n"


def ge_arguments(value: int) -> str:
    """GE_ERRORNO_DEFINE's arguments before the name, as upstream writes them (api_error_codes.h:
    runtime << 30 | type << 28 | level << 25 | sysid << 17 | modid << 12 | value)."""
    return (
        f"0b{format(value >> 30 & 0x3, '02b')}, 0b{format(value >> 28 & 0x3, '02b')}, "
        f"0b{format(value >> 25 & 0x7, '03b')}, "
        f"{value >> 17 & 0xFF}, {value >> 12 & 0x1F}"
    )


def error_codes_h(family: Family, codes: Sequence[Code], banner: str = "") -> str:
    lines = [f"/* {banner} */"] if banner else []
    lines += ["#ifndef LLM_ERROR_CODES_H_", "#define LLM_ERROR_CODES_H_", "",
              '#include "external/ge_common/api_error_codes.h"', "", "namespace ge {"]
    for code in codes:
        name = _named(code, GE_NAMESPACE, ERROR_CODES_HEADER)
        if name is not None:
            lines.append(f"GE_ERRORNO_DEFINE({ge_arguments(code.value)}, {name.short}, {code.value & 0xFFF});")
    lines += ["}  // namespace ge", "#endif"]
    return "\n".join(lines) + "\n"


def datadist_h(family: Family, codes: Sequence[Code], banner: str = "") -> str:
    lines = [f"/* {banner} */"] if banner else []
    lines += ["#ifndef LLM_DATADIST_H_", "#define LLM_DATADIST_H_", "", "#include <cstdint>", "",
              "namespace ge {", "using Status = uint32_t;", "enum DataType { DT_FLOAT = 0 };", "}", "",
              f"namespace {PUBLIC_NAMESPACE} {{", "namespace {",
              "constexpr int32_t kDefaultTimeoutMs = 1000;  // not a status", "}", "using Status = ge::Status;",
              'constexpr const char OPTION_LISTEN_IP_INFO[] = "llm.ListenIpInfo";']
    for code in codes:
        name = _named(code, PUBLIC_NAMESPACE, DATADIST_HEADER)
        if name is not None:
            lines.append(f"constexpr Status {name.short} = 0x{code.value & 0xFFFFFFFF:X}U;")
    lines += ["", "// data types", "using ge::DT_FLOAT;", f"}}  // namespace {PUBLIC_NAMESPACE}", "#endif"]
    return "\n".join(lines) + "\n"


def messages_cc(family: Family, codes: Sequence[Code], banner: str = "") -> str:
    lines = [f"/* {banner} */"] if banner else []
    lines += [
        '#include "llm_datadist/llm_error_codes.h"',
        '#include "common/ge_common/ge_errors.h"',
        "",
        "namespace ge {",
        "namespace {",
    ]
    lines += [f"GE_ERRORNO_EXTERNAL({_named(c, GE_NAMESPACE, ERROR_CODES_HEADER).short}, {_c_string(c.log_message)});"
              for c in codes if c.log_message is not None and _named(c, GE_NAMESPACE, ERROR_CODES_HEADER) is not None]
    lines += ["}  // namespace", "}  // namespace ge"]
    return "\n".join(lines) + "\n"


def types_h(family: Family, codes: Sequence[Code], namespace: str, banner: str = "") -> str:
    """hixl's hixl_types.h (adxl's adxl_types.h): constexpr constants beside options and an enum
    whose member names are also status names (TIMEOUT, FAILED)."""
    guard = f"{namespace.upper()}_TYPES_H_"
    lines = [f"/* {banner} */"] if banner else []
    lines += [
        f"#ifndef {guard}",
        f"#define {guard}",
        "#include <cstdint>",
        "",
        f"namespace {namespace} {{",
        "using Status = uint32_t;",
        "",
        "// options",
        'constexpr const char OPTION_BUFFER_POOL[] = "BufferPool";',
        "",
        "// status codes",
    ]
    for code in codes:
        name = _named(code, namespace)
        if name is not None:
            lines.append(f"constexpr Status {name.short} = {code.value}U;")
    lines += [
        "",
        "constexpr int32_t FEATURE_SUPPORTED = 1;",
        "constexpr int32_t FEATURE_NOT_SUPPORTED = 0;",
        "",
        "enum class TransferStatus { WAITING, COMPLETED, TIMEOUT, FAILED };",
        f"}}  // namespace {namespace}",
        "#endif",
    ]
    return "\n".join(lines) + "\n"


def ge_api_error_codes_h(family: Family, codes: Sequence[Code], banner: str = "") -> str:
    """ge's inc/external/ge/ge_api_error_codes.h: GE_ERRORNO, which also registers a message."""
    lines = [f"/* {banner} */"] if banner else []
    lines += ["#ifndef INC_EXTERNAL_GE_GE_API_ERROR_CODES_H_", "#define INC_EXTERNAL_GE_GE_API_ERROR_CODES_H_", "",
              "#include <cstdint>", "", "namespace ge {", "using Status = uint32_t;", "}", "",
              "#ifndef GE_ERRORNO",
              "#define GE_ERRORNO(runtime, type, level, sysid, modid, name, value, desc)                     \\",
              "  constexpr ge::Status name = (((uint32_t)(runtime)) << 30U) | (((uint32_t)(type)) << 28U) |  \\",
              "      (((uint32_t)(level)) << 25U) | (((uint32_t)(sysid)) << 17U) | (((uint32_t)(modid)) << 12U) | \\",
              "      ((uint32_t)(value) & 0xFFFU)", "#endif", "", "namespace ge {", "// General error code"]
    for code in codes:
        name = _named(code, GE_NAMESPACE, GE_API_HEADER)
        if name is not None:
            lines.append(f"GE_ERRORNO({ge_arguments(code.value)}, {name.short}, {code.value & 0xFFF}, "
                         f"{_c_string(code.log_message or '')});")
    lines += ["}  // namespace ge", "#endif"]
    return "\n".join(lines) + "\n"


def hixl_cs_h(family: Family, codes: Sequence[Code], banner: str = "") -> str:
    """hixl's include/cs/hixl_cs.h: HIXL_CS's C API (C++ only: its structs have member
    initializers), whose return codes are `static const uint32_t` in the global namespace."""
    lines = [f"/* {banner} */"] if banner else []
    lines += [
        "#ifndef CANN_HIXL_INCLUDE_CS_HIXL_CS_H_",
        "#define CANN_HIXL_INCLUDE_CS_HIXL_CS_H_",
        "",
        "#include <cstdint>",
        "",
        "#ifdef __cplusplus",
        'extern "C" {',
        "#endif",
        "",
        "typedef void *HixlServerHandle;",
        "typedef uint32_t HixlStatus;",
    ]
    for code in codes:
        name = _named(code, "", HIXL_CS_HEADER)
        if name is not None:
            lines.append(f"static const uint32_t {name.short} = {code.value}U;")
    lines += [
        "",
        "struct HixlServerConfig {",
        "  const char *global_resource_config = nullptr;",
        "  uint8_t reserved[120] = {};",
        "};",
        "",
        "HixlStatus HixlCSServerCreate(const HixlServerConfig *config, HixlServerHandle *server);",
        "",
        "#ifdef __cplusplus",
        "}",
        "#endif",
        "#endif",
    ]
    return "\n".join(lines) + "\n"


HIXL_CS_HEADER = "cs/hixl_cs.h"
GE_API_HEADER = "ge/ge_api_error_codes.h"
WRITERS = {"python": status_py, "binding": binding_cc, "messages": messages_cc}
HEADER_WRITERS = {ERROR_CODES_HEADER: error_codes_h, DATADIST_HEADER: datadist_h, GE_API_HEADER: ge_api_error_codes_h,
                  HIXL_CS_HEADER: hixl_cs_h}


def source_text(family: Family, kind: str, header: Optional[str], codes: Sequence[Code], banner: str = "") -> str:
    if kind == "header":
        if header in HEADER_WRITERS:
            return HEADER_WRITERS[header](family, codes, banner)
        namespace = next(h.namespace for h in family.headers if h.path == header)
        return types_h(family, codes, namespace, banner)
    return WRITERS[kind](family, codes, banner)


def write_sources(root: Path, family: Family, repo: str, release: Optional[str] = None,
                  kinds: Sequence[str] = ("python", "binding", "header", "messages")) -> dict[str, Path]:
    """Every source file the family cites in `repo`, at its newest path under `root`, with the
    codes present there at `release`. Returns {kind or header: path}."""
    codes = codes_at(family, repo, release)
    written = {}
    for file in family.upstream:
        if file.repo != repo or file.kind not in kinds:
            continue
        path = root / file.path
        path.parent.mkdir(parents=True, exist_ok=True)
        banner = f"A test file written by this project in the format of upstream's {file.path}."
        path.write_text(source_text(family, file.kind, file.header, codes, banner), encoding="utf-8")
        written[file.header or file.kind] = path
    return written
