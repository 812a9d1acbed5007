"""Where upstream's words come from: a text whose only source is a commit that only a merge
request's ref holds (`ref: merge-request`) is upstream's *proposed* text, not its released one.
The module, the JSON export, `explain` and the site tell it apart from upstream's released words
and from this project's translation; an import of a release that ships the same file makes it
upstream's, by itself."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.reading.load import load_catalog
from tests.support.helpers import generated_module, run_cli
from tests.support.upstream_formats import REPO, build_upstream, commit_catalog

ENGLISH_SOURCE = """          path: docs/en/python/LLMStatusCode.md
          commit: {commit}
          tags: [v9.1.0]"""


def _proposed(upstream) -> None:
    """The fixture's English page of 9.1.0-v2 as a merge request's commit: no tag ships it."""
    commit = upstream.commits["v9.1.0"]
    upstream.edit_catalog(ENGLISH_SOURCE.format(commit=commit),
                          ENGLISH_SOURCE.format(commit=commit).replace("tags: [v9.1.0]",
                                                                        "tags: []\n          ref: merge-request"))




def test_a_text_from_a_merge_request_is_proposed_everywhere(tmp_path):
    upstream = build_upstream(tmp_path)
    _proposed(upstream)
    family = load_catalog(upstream.catalog).family_by_id["llm_datadist"]
    code = family.code_by_name["LLM_PARAM_INVALID"]
    assert code.entry("meaning", "9.1.0-v2", "en").origin == "proposed"
    assert code.entry("meaning", "9.1.0-v2", "zh").origin == "upstream"
    assert code.entry("meaning", "9.0.0-v2", "en").origin == "translation"  # this project's, as before
    out = tmp_path / "out"
    assert run_cli("generate", "--catalog", upstream.catalog, "--out", out).code == 0
    member = generated_module(out, "provenance_one").LLMStatusCode.LLM_PARAM_INVALID
    assert member.text_origin("en", edition="9.1.0-v2", field="meaning") == "proposed"
    assert member.text_origin("zh", edition="9.1.0-v2", field="meaning") == "upstream"
    assert member.text_origin("en", edition="9.0.0-v2", field="meaning") == "translation"
    export = json.loads((out / "generated" / "json" / "llm_status_codes.json").read_text(encoding="utf-8"))
    said = next(c for c in export["codes"] if c["name"] == "LLM_PARAM_INVALID")["editions"]["9.1.0-v2"]
    assert said["texts"]["meaning"]["en"]["origin"] == "proposed"
    sources = next(e for e in export["editions"] if e["id"] == "9.1.0-v2")["sources"]
    assert sorted(s["ref"] for s in sources) == ["merge-request", "tag"]
    explained = run_cli("explain", "--catalog", upstream.catalog, "--lang", "en", "--edition", "9.1.0-v2",
                        "LLM_PARAM_INVALID")
    assert "(upstream's proposed text, not released)" in explained.out, explained.out
    # the site: the mark on each such text, and a legend of the kinds on the page
    for page in (out / "site" / "docs" / "editions" / "9.1.0-v2.en.md", out / "site" / "docs" / "codes" /
                 "LLM_PARAM_INVALID.en.md"):
        text = page.read_text(encoding="utf-8")
        signed = 'class="translation proposed origin-sign"' in text
        assert signed and "only the merge request&#x27;s ref holds" in text, page
    zh = (out / "site" / "docs" / "editions" / "9.1.0-v2.zh.md").read_text(encoding="utf-8")
    assert "proposed" not in zh


@pytest.mark.slow
def test_a_release_that_ships_the_proposed_file_makes_its_texts_upstreams(tmp_path):
    upstream = build_upstream(tmp_path)
    _proposed(upstream)
    commit_catalog(upstream.catalog)
    upstream.repo.git("tag", "v9.2.0")  # ships every file of v9.1.0, the English page too
    result = run_cli("import", "--catalog", upstream.catalog, "--upstream", f"{REPO}={upstream.repo.path}",
                     "--ref", "v9.2.0")
    assert result.code == 0, result.err
    assert "was a merge request's; v9.1.0 releases it" in result.out, result.out
    family = load_catalog(upstream.catalog).family_by_id["llm_datadist"]
    code = family.code_by_name["LLM_PARAM_INVALID"]
    assert code.entry("meaning", "9.1.0-v2", "en").origin == "upstream"
    [english] = [s for s in family.version_by_id["9.1.0-v2"].sources if s.lang == "en"]
    assert (english.ref, english.commit, english.tags) == ("tag", upstream.commits["v9.1.0"], ("v9.1.0", "v9.2.0"))


def test_the_catalog_calls_every_merge_request_commit_so():
    """libochao-huawei/hixl's ad6de2df is held by a merge request's ref alone (upstream-facts.md):
    each source citing it says so, and no English text from it alone is called upstream's."""
    catalog = load_catalog(Path(__file__).resolve().parent.parent / "catalog")
    cited = [(f.id, v.id, s) for f in catalog.families for v in f.versions for s in v.sources
             if s.commit and s.commit.startswith("ad6de2df")]
    assert len(cited) == 5 and all(s.ref == "merge-request" and not s.tags for _, _, s in cited), cited
    proposed = [e for f in catalog.families for c in f.codes for _, es in c.texts for e in es if e.origin == "proposed"]
    assert proposed and all(e.lang == "en" for e in proposed)


@pytest.mark.slow
def test_an_english_page_only_a_merge_request_holds_comes_in_as_proposed(tmp_path):
    from tests.support.upstream_formats import ENGLISH_PAGE_910

    upstream = build_upstream(tmp_path)
    # 9.1.0-v2's English as no release has it: its words are known, from no file yet
    commit = upstream.commits["v9.1.0"]
    english = f"        - repo: hicann/hixl\n{ENGLISH_SOURCE.format(commit=commit)}\n          lang: en\n"
    upstream.edit_catalog(english, "")
    page = (upstream.repo.path / ENGLISH_PAGE_910).read_text(encoding="utf-8")
    upstream.repo.write(ENGLISH_PAGE_910, page.replace("| Successful|", "| Succeeded|", 1))
    proposed = upstream.repo.commit("a better translation, proposed")
    upstream.repo.git("update-ref", "refs/merge-requests/7/head", proposed)
    upstream.repo.git("reset", "-q", "--hard", "HEAD~1")  # no branch holds it: only the merge request's ref
    result = run_cli("import", "--catalog", upstream.catalog, "--edition", "9.1.0-v2", "--lang", "en",
                     "--upstream", f"{REPO}={upstream.repo.path}", "--ref", proposed, "--path", ENGLISH_PAGE_910)
    assert result.code == 0, result.err
    family = load_catalog(upstream.catalog).family_by_id["llm_datadist"]
    [source] = [s for s in family.version_by_id["9.1.0-v2"].sources if s.commit == proposed]
    assert (source.lang, source.tags, source.ref) == ("en", (), "merge-request")
    entry = family.code_by_name["LLM_SUCCESS"].entry("meaning", "9.1.0-v2", "en")
    assert (entry.text, entry.origin) == ("Succeeded", "proposed")
