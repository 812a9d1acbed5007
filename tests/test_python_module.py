"""The generated modules as their users see them: a drop-in for upstream's status.py under every
CPython on the machine, HIXL's constants as upstream's `hixl` package names them, and the
documentation API."""
import json
import re
import subprocess
import sys
import textwrap

import pytest

from generator.core.releases import is_final_release
from generator.domain.queries import member_name
from tests.support import facts
from tests.support import upstream_sources as us
from tests.support.helpers import ROOT, interpreters

GENERATED = ROOT / "generated" / "python"


@pytest.fixture(scope="module")
def upstream_package(tmp_path_factory, llm):
    """Upstream's status.py (tests/support/upstream_sources.py writes it in upstream's format, with the
    members of hicann/hixl's newest release), importable: its binding's constants get the values
    of the C++ constants they are bound to, as the facts record them (the catalog's for a code
    newer than the facts)."""
    root = tmp_path_factory.mktemp("upstream")
    package = root / "llm_datadist"
    package.mkdir()
    codes = us.codes_at(llm, "hicann/hixl")
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "utils.py").write_text('import logging\nlog = logging.getLogger("llm_datadist")\n', encoding="utf-8")
    (package / "status.py").write_text(us.status_py(llm, codes), encoding="utf-8")
    by_c = {c.c_name: c.value for c in codes if c.c_name}
    by_c.update({c.c: c.value for c in facts.fact_codes() if c.c})
    by_c.update({"SUCCESS": 0, "FAILED": 0xFFFFFFFF})
    runtime = {"ACL_ERROR_RT_DEVICE_MEM_ERROR": 507053, "ACL_ERROR_RT_SUSPECT_REMOTE_ERROR": 507057}
    lines = []
    for name, target in re.findall(r'm\.attr\("(k\w+)"\) = py::int_\(([\w:]+)\)', us.binding_cc(llm, codes)):
        value = runtime.get(target) if "::" not in target else by_c[target.split("::")[-1]]
        lines.append(f"{name} = {value}")
    (package / "llm_datadist_wrapper.py").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


PROBE = textwrap.dedent("""
    import json, sys
    sys.path[:0] = sys.argv[1:3]
    from llm_datadist import status as up
    import llm_status_codes as ours
    ints = [int(m) for m in up.LLMStatusCode] + [-2, -1, 0, 1, 2, 1343270912, 1343270941, 1343270932, 507052, 507054,
            2**32, 2**32 - 2, 2**64, -2**63, 0x5010B000, 0x5010B01D, True, False, 0.0, 1343270938.0]
    result = {}
    for name, module in (("up", up), ("ours", ours)):
        enum = module.LLMStatusCode
        # upstream's members: a code its newest release no longer ships stays in ours (removed_in says so)
        members = [m for m in enum if "hicann/hixl" not in getattr(m, "removed_in", {})]
        result[name] = {
            "members": [(m.name, int(m)) for m in members],
            "str": [str(m) for m in members],
            "intenum": issubclass(enum, __import__("enum").IntEnum),
            "code_2_status": [str(module.code_2_status(i)) for i in ints]
            + [str(module.code_2_status(m)) for m in members],
            "status_ok": [module.Status(i).is_ok() for i in ints] + [module.Status(m).is_ok() for m in members],
            "status_code": [module.Status(m).status_code is m for m in members],
            "exception": [str(module.LLMException("x").status_code), isinstance(module.LLMException("x"), RuntimeError),
                          str(module.LLMException("x", status_code=enum.LLM_TIMEOUT).status_code)],
            "eq_int": [m == int(m) and hash(m) == hash(int(m)) for m in members],
            "by_value": [str(enum(int(m))) for m in members],
        }
    print(json.dumps(result))
""")


@pytest.mark.parametrize("python", interpreters(), ids=lambda p: p.split("/versions/")[-1].split("/")[0])
def test_the_module_behaves_like_upstreams_status_py(python, upstream_package, llm):
    result = subprocess.run(
        [python, "-c", PROBE, str(upstream_package), str(GENERATED)], capture_output=True, text=True, timeout=60
    )
    if "f-string" in result.stderr or "SyntaxError" in result.stderr:
        pytest.skip("upstream's own status.py does not run on this Python")  # upstream needs 3.6+; we run on 3.9+
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["ours"] == data["up"]
    # the facts' members in upstream's order, each by the name its code's member has now (a name a
    # later release renamed is an alias of it)
    now = {old: member_name(llm, c) for c in llm.codes for old in c.python_names}
    gone = {member_name(llm, c) for c in llm.codes if "hicann/hixl" in dict(c.removed)}  # (not in the probe's)
    facts_members = [now.get(f.python, f.python) for f in facts.fact_codes() if f.python]
    facts_members = [name for name in facts_members if name not in gone]
    assert [name for name, _ in data["ours"]["members"] if name in facts_members] == facts_members


def test_interpreters_3_9_and_later_are_tested():
    assert interpreters(), "no CPython 3.9+ found"


@pytest.mark.parametrize("python", interpreters(), ids=lambda p: p.split("/versions/")[-1].split("/")[0])
def test_every_module_imports_and_documents_under_every_python(python):
    script = textwrap.dedent("""
        import sys; sys.path.insert(0, sys.argv[1])
        import llm_status_codes as l, hixl_status_codes as h, adxl_status_codes as a
        m = l.LLMStatusCode.LLM_TIMEOUT
        assert m.recoverable() is True and m.recoverable("9.1.0-cpp-v2") is False
        # only the deprecated C++ page lists it: its newest final release answers
        f = l.LLMStatusCode.LLM_ENGINE_FINALIZED
        finals = [e for e in f.editions if e.endswith("-cpp-deprecated") and e.count("-") == 2 and e[0].isdigit()]
        assert f.recoverable() is f.recoverable(finals[-1]) is not l.UNKNOWN
        assert l.code_2_status(int(f)).recoverable() in (True, False, None)
        assert h.PARAM_INVALID == 103900 and type(h.PARAM_INVALID) is int
        assert a.lookup(a.SUCCESS).meaning("en") == "Successful"
        print("ok")
    """)
    result = subprocess.run([python, "-c", script, str(GENERATED)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr


# -- in-process: the documentation API --------------------------------------------------------------


@pytest.fixture(scope="module")
def modules():
    sys.path.insert(0, str(GENERATED))
    try:
        import adxl_status_codes
        import hixl_status_codes
        import llm_status_codes
        yield llm_status_codes, hixl_status_codes, adxl_status_codes
    finally:
        sys.path.remove(str(GENERATED))


def test_defaults_come_from_the_newest_final_python_edition(modules, llm):
    module = modules[0]
    timeout = module.LLMStatusCode.LLM_TIMEOUT
    assert timeout.solution("en") == timeout.solution("en", "9.1.0-v2")  # 9.1.0-v2 is the newest released v2 edition
    wait = module.LLMStatusCode.LLM_WAIT_PROCESS_TIMEOUT
    code = llm.code_by_name[
        "LLM_WAIT_PROCESS_TIMEOUT"
    ]  # on no v2 edition: the newest final v1 one, not its pre-release
    v1 = [e for e in llm.editions_listing(code) if e.timeline.id == "v1" and is_final_release(e.release)]
    assert wait.meaning() == wait.meaning("zh", v1[-1].id)
    assert (
        module.LLMStatusCode.LLM_SUCCESS.solution() == "无"
        and module.LLMStatusCode.LLM_SUCCESS.solution("en") == "None"
    )


def test_unknown_is_not_no(modules):
    module = modules[0]
    unknown = module.LLMStatusCode.LLM_UNKNOWN_ERROR.recoverable("8.0.RC3")
    assert unknown is module.UNKNOWN and not unknown and unknown is not False and repr(unknown) == "UNKNOWN"
    assert module.LLMStatusCode.LLM_DEVICE_MEM_ERROR.recoverable("8.2.RC1") is module.UNKNOWN  # listing not known
    assert module.LLMStatusCode.LLM_FAILED.meaning("zh", "8.2.RC1") is None
    assert "8.2.RC1" not in module.LLMStatusCode.LLM_DEVICE_MEM_ERROR.editions


def test_members_no_python_page_lists_answer_from_the_deprecated_page(modules, llm):
    """The default rule's last step: the newest final release of a C++ page that lists them (a member no
    released edition lists answers UNKNOWN: tests/test_default_edition.py)."""
    module = modules[0]
    for name in ("LLM_REQUEST_ALREADY_COMPLETED", "LLM_ENGINE_FINALIZED", "LLM_SEQ_LENOVERLIMIT", "LLM_NO_FREE_BLOCK",
                 "LLM_BLOCKS_OUT_OF_MEMORY"):
        member = module.LLMStatusCode[name]
        finals = [e for e in llm.editions_listing(llm.code_by_name[name]) if is_final_release(e.release)]
        assert {e.page.id for e in finals} == {"cpp-deprecated"}
        newest = finals[-1].id
        assert member.recoverable() is member.recoverable(newest) is not module.UNKNOWN
        assert member.meaning() == member.meaning("zh", newest) and member.solution("en") == member.solution(
            "en", newest
        )
        assert module.code_2_status(int(member)).recoverable() in (True, False, None)


def test_editions_of_any_page_and_their_causes(modules):
    finalized = modules[0].LLMStatusCode.LLM_ENGINE_FINALIZED
    assert "9.1.0-cpp-deprecated" in finalized.editions
    assert finalized.recoverable("9.1.0-cpp-deprecated") is False
    assert finalized.cause("zh", "9.1.0-cpp-deprecated") == "调度到的时候，上层已经发送了Finalize。"
    assert finalized.text_origin("en", "9.1.0-cpp-deprecated", "cause") == "translation"
    assert finalized.text_origin("en", "9.1.0-cpp-deprecated", "meaning") == "upstream"


def test_errors_name_the_problem(modules):
    module = modules[0]
    with pytest.raises(KeyError, match="does not list"):
        module.LLMStatusCode.LLM_TIMEOUT.meaning("zh", "9.1.0-v1")
    with pytest.raises(KeyError, match="no edition"):
        module.LLMStatusCode.LLM_TIMEOUT.meaning("zh", "7.0")
    with pytest.raises(ValueError, match="lang must be one of"):
        module.LLMStatusCode.LLM_TIMEOUT.meaning("fr")


@pytest.mark.parametrize("method", ["recoverable", "meaning", "cause", "solution", "text_origin"])
def test_each_method_says_what_it_raises_and_raises_it(modules, method):
    """An edition that does not list the code raises KeyError (None is for a text not known):
    each docstring says so, as it says the ValueError of a language the family does not have."""
    module = modules[0]
    doc = " ".join((getattr(module.LLMStatusCode, method).__doc__ or "").split())
    assert ("Raises KeyError when `edition` is no edition of the family, or one whose page does not list this "
            "code") in doc, doc
    unlisted = [(m, e) for m in module.LLMStatusCode for e in module.EDITIONS if e not in m.editions]
    raised = 0
    for member, edition in unlisted:  # KeyError, or the answer of a listing not known
        try:
            answer = getattr(member, method)(edition=edition)
        except KeyError as error:
            raised += 1
            assert "does not list" in str(error), error
        else:
            assert answer is None or answer is module.UNKNOWN, (member, edition, answer)
    assert raised, "no edition leaves a code out"
    with pytest.raises(KeyError, match="no edition"):
        getattr(module.LLMStatusCode.LLM_TIMEOUT, method)(edition="7.0")
    if method != "recoverable":
        assert "ValueError when `lang` is not one of LANGUAGES" in doc, doc
        with pytest.raises(ValueError, match="lang must be one of"):
            getattr(module.LLMStatusCode.LLM_TIMEOUT, method)("fr")


def test_text_origin_names_the_fields_it_takes(modules):
    with pytest.raises(ValueError, match="field must be one of meaning, cause, solution, not 'answer'"):
        modules[0].LLMStatusCode.LLM_TIMEOUT.text_origin("en", field="answer")


def test_lookup_by_every_kind_of_key(modules):
    module = modules[0]
    timeout = module.LLMStatusCode.LLM_TIMEOUT
    for key in (
        1343270938,
        "0x5010B01A",
        "0x5010b01a",
        "1343270938",
        "LLM_TIMEOUT",
        "llm_timeout",
        "LLMStatusCode.LLM_TIMEOUT",
        timeout,
    ):
        assert module.lookup(key) is timeout
    assert module.lookup("LLM_WAIT_PROC_TIMEOUT") is module.LLMStatusCode.LLM_WAIT_PROCESS_TIMEOUT
    assert module.lookup("ge::LLM_WAIT_PROC_TIMEOUT") is module.LLMStatusCode.LLM_WAIT_PROCESS_TIMEOUT
    assert module.lookup("llm_datadist::LLM_TIMEOUT") is timeout
    assert module.lookup(-1) is module.LLMStatusCode.LLM_UNKNOWN_ERROR
    with pytest.raises(KeyError, match="exists only in C/C\\+\\+"):
        module.lookup("LLM_CACHE_INCOMPATIBLE")
    with pytest.raises(KeyError, match="closest: LLM_TIMEOUT"):
        module.lookup("LLM_TIMEOUTT")
    with pytest.raises(KeyError, match="takes an int or a str"):
        module.lookup(True)


def test_hixl_constants_are_a_drop_in_for_the_hixl_package(modules):
    hixl = modules[1]
    expected = {
        "SUCCESS": 0,
        "PARAM_INVALID": 103900,
        "TIMEOUT": 103901,
        "NOT_CONNECTED": 103902,
        "ALREADY_CONNECTED": 103903,
        "NOTIFY_FAILED": 103904,
        "UNSUPPORTED": 103905,
        "FAILED": 503900,
        "RESOURCE_EXHAUSTED": 203900,
    }
    for name, value in expected.items():
        assert getattr(hixl, name) == value and type(getattr(hixl, name)) is int
        assert name in hixl.__all__
    code = hixl.lookup(hixl.TIMEOUT)
    assert (code.name, int(code), code.recoverable()) == ("TIMEOUT", 103901, False)
    assert code.solution("en") == "Preserve the environment, collect Host/Device logs, and back them up."
    assert (
        hixl.lookup("UNSUPPORTED").solution("zh", "9.2.0-beta.1")
        == "根据接口返回信息确认是否支持当前配置或特性，若不支持，请使用已经支持的参数或接口。"
    )
    assert not hasattr(hixl, "TransferStatus")
    # the C++ names of hixl_types.h and of the C interface's header (hixl_cs.h), as they are written
    for key in ("hixl::TIMEOUT", "::HIXL_TIMEOUT", "HIXL_TIMEOUT", "hixl_timeout"):
        assert hixl.lookup(key) is code
    with pytest.raises(KeyError, match="closest: HIXL_TIMEOUT"):
        hixl.lookup("HIXL_TIMEOUTT")


def test_lookup_takes_every_name_the_header_defines(modules):
    """A macro of a family's header (HIXL_NOT_CONNECTED, with its family's prefix) names the member
    of the same value, or the C-only code, as `explain` and the site's addresses take it."""
    for module in modules:
        header = (ROOT / "generated" / "c" / (module.__name__ + ".h")).read_text(encoding="utf-8")
        defined = re.findall(r"^#define ([A-Z][A-Z0-9_]*) ([0-9A-Fa-fx]+)U$", header, flags=re.M)
        assert len(defined) > 8, module.__name__
        for macro, literal in defined:
            try:
                found = int(module.lookup(macro))
            except KeyError as error:
                assert "exists only in C/C++" in str(error), (module.__name__, macro, error)
                continue
            assert found == int(literal, 0), (module.__name__, macro)


def test_adxl_records_the_english_pages_disagreement(modules):
    adxl = modules[2]
    assert adxl.lookup("SUCCESS").recoverable("9.1.0") is None  # the zh page: 无


def test_version_and_catalog_hash(modules, catalog):
    from generator.rendering.catalog_hash import catalog_hash
    from generator.core.project import project_version

    for module, family in zip(modules, catalog.families):
        assert module.__version__ == project_version()
        assert module.CATALOG_HASH == catalog_hash(family)
