"""The default edition (docs/vendoring.md, "The Python module"): which edition a code answers from when none is named,
in the generated module, `explain` and the site, by one function (generator.domain.queries).

The rule's steps and tie-breaks are checked on tests/fixtures/defaults/catalog.yaml, where
each code is listed by the editions that make one step decide; the real catalog is checked
for the rule's properties and for the facts the issue named, with every expectation
computed from the catalog, so that a new release cannot turn these tests red.
"""
from __future__ import annotations

import importlib.util
import sys

import pytest

from generator.reading.load import load_catalog
from generator.domain.queries import default_edition, default_timeline
from generator.core.releases import is_final_release, release_key
from tests.support.helpers import documentation, FIXTURES, ROOT, run_cli

DEFAULTS = FIXTURES / "defaults" / "catalog.yaml"

# code -> (the edition it answers from, why); None: no default.
EXPECTED = {
    "DFLT_MAIN": ("1.0-new", "a final release of the default timeline, before newer ones of the old timeline, "
                             "a newer pre-release and unreleased"),
    "DFLT_OTHER": ("2.0-old", "the newest final release of the page's other timeline, before a pre-release"),
    "DFLT_PRE": ("3.0-beta.1-new", "a pre-release of the default page, before a final release of a C++ page"),
    "DFLT_CPP_TIMELINES": ("2.0-cpp2", "of one release: the C++ timeline declared last (cpp-v2 before cpp-v1), "
                                       "and it before the deprecated page"),
    "DFLT_CPP_PAGES": ("2.0-cpp", "of one release: the page declared first before the deprecated page"),
    "DFLT_NEWEST_CPP": ("2.0-dep", "the newest final release of another page; its pre-releases never"),
    "DFLT_PUBLISHED": ("2.0-new", "the published edition before its -repo copy"),
    "DFLT_UNRELEASED": (None, "unreleased editions never"),
    "DFLT_CPP_PRE_ONLY": (None, "a pre-release of another page never"),
}


@pytest.fixture(scope="module")
def defaults():
    return load_catalog(DEFAULTS).family_by_id["dflt"]


@pytest.fixture(scope="module")
def defaults_module(tmp_path_factory):
    out = tmp_path_factory.mktemp("defaults")
    assert run_cli("generate", "--catalog", DEFAULTS, "--out", out, "--family", "dflt").code == 0
    path = out / "generated" / "python" / "dflt_codes.py"
    spec = importlib.util.spec_from_file_location("dflt_codes", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_code_of_the_fixture_has_its_expectation(defaults):
    assert sorted(EXPECTED) == sorted(c.name for c in defaults.codes)
    assert default_timeline(defaults).id == "new"  # the default page's last timeline


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_rule_on_the_fixture(defaults, name):
    expected, why = EXPECTED[name]
    edition = default_edition(defaults, defaults.code_by_name[name])
    assert (edition.id if edition else None) == expected, why
    if expected is not None:  # the expectation is one of the code's own editions, and not the newest of them
        assert expected in {e.id for e in defaults.editions_listing(defaults.code_by_name[name])}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_module_answers_from_the_default_edition(defaults, defaults_module, name):
    expected, why = EXPECTED[name]
    member = defaults_module.DfltCode[name]
    if expected is None:
        assert member.recoverable() is defaults_module.UNKNOWN and member.meaning() is None, why
        assert name not in defaults_module._DEFAULT_EDITION
        return
    value = defaults.edition_by_id[expected].row_by_code[name].recoverable
    assert member.recoverable() == {"yes": True, "no": False}[value] == member.recoverable(expected), why
    assert defaults_module._DEFAULT_EDITION[name] == expected


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_explain_shows_the_default_edition(name):
    expected, _ = EXPECTED[name]
    result = run_cli("explain", name, "--catalog", DEFAULTS)
    assert result.code == 0, result.err
    shown = [line.split(" (")[0] for line in result.out.splitlines() if line.startswith("Edition ")]
    assert shown == ([f"Edition {expected}"] if expected else []), result.out


def test_the_module_says_the_rule(defaults_module):
    doc = " ".join(defaults_module.__doc__.split())
    assert ("Without an edition, a code answers from the newest final release of the Python page that lists it "
            "(its new copy first, then old), else from the page's newest pre-release, else from the newest final "
            "release of another page: the C++ page (cpp2, then cpp), then the Deprecated page; never from an "
            "unreleased edition.") in doc


# -- the real catalog ------------------------------------------------------------------------------------


def _families(catalog):
    return [(family, code) for family in catalog.families for code in family.codes]


def test_no_default_is_unreleased_or_a_prerelease_where_a_final_release_lists_the_code(catalog):
    for family, code in _families(catalog):
        edition = default_edition(family, code)
        listing = [e for e in family.editions_listing(code) if e.released]
        if edition is None:
            assert not [e for e in listing if is_final_release(e.release) or e.page.id == family.python.default_page]
            continue
        assert edition.released, (code.name, edition.id)
        page_finals = [e for e in listing if e.page.id == family.python.default_page and is_final_release(e.release)]
        if not is_final_release(edition.release):
            assert edition.page.id == family.python.default_page and not page_finals, (code.name, edition.id)
        if edition.page.id != family.python.default_page:
            assert not [e for e in listing if e.page.id == family.python.default_page], (code.name, edition.id)


def test_the_default_timeline_answers_first(catalog):
    for family, code in _families(catalog):
        main = default_timeline(family)
        finals = [e for e in family.editions_listing(code) if e.timeline.id == main.id and is_final_release(e.release)]
        if finals:
            newest = max(release_key(e.release) for e in finals)
            edition = default_edition(family, code)
            assert edition.timeline.id == main.id and release_key(edition.release) == newest and not edition.repo_copy


def test_a_code_only_the_deprecated_page_lists_answers_from_it(llm, modules):
    code = llm.code_by_name["LLM_REQUEST_ALREADY_COMPLETED"]
    listing = llm.editions_listing(code)
    assert listing and not [e for e in listing if e.page.id == llm.python.default_page]  # upstream's fact
    finals = [e for e in listing if is_final_release(e.release)]
    edition = default_edition(llm, code)
    assert edition.page.id == "cpp-deprecated" and release_key(edition.release) == max(
        release_key(e.release) for e in finals
    )
    member = modules["llm_status_codes"].LLMStatusCode.LLM_REQUEST_ALREADY_COMPLETED
    assert member.recoverable() is not modules["llm_status_codes"].UNKNOWN
    assert member.recoverable() == {"yes": True, "no": False, "n/a": None}[edition.row_by_code[code.name].recoverable]
    assert member.meaning("en") == code.text("meaning", edition.id, "en") is not None


@pytest.fixture(scope="module")
def modules():
    path = str(ROOT / "generated" / "python")
    sys.path.insert(0, path)
    try:
        import adxl_status_codes
        import hixl_status_codes
        import llm_status_codes
        yield {m.__name__: m for m in (llm_status_codes, hixl_status_codes, adxl_status_codes)}
    finally:
        sys.path.remove(path)


def test_the_generated_modules_use_the_rule(catalog, modules):
    for family in catalog.families:
        module = modules[family.python.module]
        expected = {
            c.python_name: default_edition(family, c).id for c in family.python_codes if default_edition(family, c)
        }
        assert module._DEFAULT_EDITION == expected
        assert all(
            is_final_release(family.edition_by_id[e].release)
            or family.edition_by_id[e].page.id == family.python.default_page
            for e in expected.values()
        )


def test_the_site_lists_codes_with_the_default_meaning(llm):
    code = llm.code_by_name["LLM_REQUEST_ALREADY_COMPLETED"]
    meaning = code.text("meaning", default_edition(llm, code).id, "en")
    page = (ROOT / "site" / "docs" / "codes" / "index.en.md").read_text(encoding="utf-8")
    row = page.split(f'<tr id="{code.slug}"', 1)[1].split("</tr>", 1)[0]
    assert f"<p>{meaning}</p>" in row


def test_the_readme_says_the_rule():
    readme = " ".join(documentation().split())
    assert "`edition=None` means, in this order: the newest *final* release" in readme
    assert "unreleased editions never" in readme
