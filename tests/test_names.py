"""Names that are valid identifiers but would break an output are refused at their position:
Python members that shadow a method or that Enum reserves, C names that are keywords or that
collide with the header's own names and includes, names with one URL."""
import pytest

from tests.support.helpers import MINI, run_cli

PYTHON_NAMES = [
    "property",
    "mro",
    "meaning",
    "solution",
    "cause",
    "c_name",
    "editions",
    "recoverable",
    "text_origin",
    "name",
    "value",
    "_X_",
    "__X__",
    "__bar",
    "_DemoCode__x",
    "bit_length",
    "to_bytes",
    "is_integer",
    "lookup",
    "DemoException",
    "CATALOG_HASH",
    "EDITIONS",
    "UNKNOWN",
]
C_NAMES = [
    "xor",
    "bitand",
    "compl",
    "asm",
    "catch",
    "decltype",
    "wchar_t",
    "alignof",
    "static_assert",
    "UINT32_MAX",
    "SIZE_MAX",
    "INT8_C",
    "offsetof",
    "uint32_t",
    "code",
    "defined",
    "__cplusplus",
    "main",
    "DEMO_CODES_H",
    "demo_status_name",
    "DEMO_CODES_CATALOG_HASH",
    "_Reserved",
    "int64_t",
    "NULL",
]


def line_of(catalog, text: str) -> int:
    lines = catalog.read_text(encoding="utf-8").splitlines()
    return lines.index(text) + 1


def mutated(tmp_path, old, new, count=1):
    text = MINI.read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / "catalog.yaml"
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", PYTHON_NAMES)
def test_python_member_names_that_would_break_the_module(tmp_path, name):
    catalog = mutated(tmp_path, "  - python: DEMO_ODD", f"  - python: {name}")
    text = (
        catalog.read_text(encoding="utf-8")
        .replace("        DEMO_ODD:", f"        {name}:")
        .replace("[DEMO_ODD]", f"[{name}]")
    )
    catalog.write_text(text, encoding="utf-8")
    result = run_cli("validate", "--catalog", catalog)
    assert result.code == 3, result.out
    assert f"catalog.yaml:{line_of(catalog, f'  - python: {name}')}:" in result.err and "Traceback" not in result.err


@pytest.mark.parametrize("name", C_NAMES)
def test_c_names_that_would_break_the_header(tmp_path, name):
    catalog = mutated(tmp_path, "  - c: DEMO_C_ONLY", f"  - c: {name}")
    catalog.write_text(
        catalog.read_text(encoding="utf-8").replace("        DEMO_C_ONLY: {", f"        {name}: {{"), encoding="utf-8"
    )
    result = run_cli("validate", "--catalog", catalog)
    assert result.code == 3, result.out
    assert f"catalog.yaml:{line_of(catalog, f'  - c: {name}')}:" in result.err and "Traceback" not in result.err


def test_a_module_named_like_the_standard_library(tmp_path):
    result = run_cli("validate", "--catalog", mutated(tmp_path, "module: demo_codes", "module: difflib"))
    assert result.code == 3 and "standard-library module" in result.err


def test_the_exception_named_like_the_enum(tmp_path):
    result = run_cli("validate", "--catalog", mutated(tmp_path, "exception: DemoException", "exception: DemoCode"))
    assert result.code == 3 and "must all differ" in result.err


@pytest.mark.parametrize("name", ["_lookup", "_text", "UNKNOWN", "EDITIONS", "CATALOG_HASH", "Recoverable", "str",
                                  "demo_codes"])
def test_an_api_name_the_module_already_uses_is_refused(tmp_path, name):
    """lookup: _lookup imported and then failed on every call (TypeError: _lookup() takes 1 positional
    argument but 4 were given); lookup: EDITIONS made the module's EDITIONS a function."""
    result = run_cli("validate", "--catalog", mutated(tmp_path, "lookup: lookup", f"lookup: {name}"))
    assert result.code == 3 and f"{name!r} is a name the generated module already uses" in result.err, result.err
    assert "catalog.yaml:15:" in result.err


@pytest.mark.parametrize("namespace", ["demo", "std"])
def test_a_header_namespace_of_upstreams_or_the_standard_librarys_is_refused(tmp_path, namespace):
    """The header's constants are included beside upstream's `namespace demo { ... }`: in it, each
    would be a redefinition."""
    result = run_cli("validate", "--catalog", mutated(tmp_path, "namespace: demo_codes", f"namespace: {namespace}"))
    assert result.code == 3 and f"family.c.namespace {namespace!r}" in result.err, result.err


@pytest.mark.parametrize("family, old, new, said", [
    # two headers included in one file: the second guard hid the second header, a function was defined twice
    ("hixl", "guard: HIXL_STATUS_CODES_H", "guard: LLM_STATUS_CODES_H", "'LLM_STATUS_CODES_H' is also a name of"),
    ("adxl", "name_function: adxl_status_name", "name_function: hixl_status_name", "'hixl_status_name' is also"),
    # the site's own paths: a family at /en/ lost its home page to the English site's, without a warning
    ("hixl", "site_path: hixl", "site_path: en", "site_path 'en' is a path of the site's own"),
    ("ge", "site_path: ge", "site_path: assets", "site_path 'assets' is a path of the site's own"),
    # another family's upstream namespace: adxl's constants beside hixl's hixl::SUCCESS, a redefinition
    ("adxl", "namespace: adxl_status_codes", "namespace: hixl", "family.c.namespace 'hixl' is the namespace"),
])
def test_names_two_families_or_the_site_would_share_are_refused(tmp_path, family, old, new, said):
    import shutil

    from tests.support.helpers import ROOT

    shutil.copytree(ROOT / "catalog", tmp_path / "catalog")
    path = tmp_path / "catalog" / family / "family.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    result = run_cli("validate", "--catalog", tmp_path / "catalog")
    assert result.code == 3 and said in result.err, result.err
    assert "Traceback" not in result.err


def test_two_names_with_one_anchor(tmp_path):
    catalog = mutated(tmp_path, "  - c: DEMO_C_ONLY", "  - c: demo_ok")
    catalog.write_text(
        catalog.read_text(encoding="utf-8").replace("        DEMO_C_ONLY: {", "        demo_ok: {"), encoding="utf-8"
    )
    result = run_cli("validate", "--catalog", catalog)
    assert result.code == 3 and "only in case" in result.err


def test_a_code_named_index(tmp_path):
    catalog = mutated(tmp_path, "  - c: DEMO_C_ONLY", "  - c: index")
    catalog.write_text(
        catalog.read_text(encoding="utf-8").replace("        DEMO_C_ONLY: {", "        index: {"), encoding="utf-8"
    )
    result = run_cli("validate", "--catalog", catalog)
    assert result.code == 3 and "codes/index/" in result.err


def test_the_accepted_names_really_work(tmp_path):
    """What validates imports and compiles: a member called `_`-free but odd, as Python allows."""
    catalog = mutated(tmp_path, "  - python: DEMO_ODD", "  - python: match")
    catalog.write_text(
        catalog.read_text(encoding="utf-8")
        .replace("        DEMO_ODD:", "        match:")
        .replace("[DEMO_ODD]", "[match]"),
        encoding="utf-8",
    )
    out = tmp_path / "out"
    assert run_cli("generate", "--catalog", catalog, "--out", out).code == 0
    import importlib.util

    spec = importlib.util.spec_from_file_location("demo_match", out / "generated" / "python" / "demo_codes.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.DemoCode.match.meaning("en", "2.0-new") == "Odd | <b>x</b>"
