"""The catalog's content against upstream facts recorded as fixtures: upstream-facts.md (names,
values, order, the old editions: the project's reference) and upstream-record.json (every file
the catalog cites, at every release tag, recorded from upstream's repositories by
scripts/record_upstream.py with git alone). The tests compare only what is recorded: a
legitimate new release (an edition, a code, a text) turns no test red by itself."""
import hashlib

import pytest

from generator.rendering.upstream_page import render_upstream_page
from tests.support import facts

ZH = {"是": "yes", "否": "no", "无": "n/a"}
EN = {"Yes": "yes", "No": "no", "None": "n/a", "N/A": "n/a"}


def _in_order(names: list, within: list) -> bool:
    """Whether `names` appear in `within` in this order (other names may come between)."""
    it = iter(within)
    return all(name in it for name in names)


def test_every_code_of_the_facts_is_in_the_catalog_with_its_names_and_value(llm):
    got = [(c.python_name, c.c_name, c.value) for c in llm.codes]
    expected = [(f.python, f.c, f.value) for f in facts.fact_codes()]
    assert _in_order(expected, got), [e for e in expected if e not in got]


def test_python_members_are_in_upstream_order(llm):
    members = [c.python_name for c in llm.python_codes]
    assert _in_order([f.python for f in facts.fact_codes() if f.python], members)
    assert members[:4] == ["LLM_SUCCESS", "LLM_FAILED", "LLM_PARAM_INVALID", "LLM_WAIT_PROCESS_TIMEOUT"]


def test_c_only_and_python_only_codes(llm):
    c_only = {c.c_name for c in llm.codes if not c.in_python}
    python_only = {c.python_name for c in llm.codes if not c.in_c}
    assert {f.c for f in facts.fact_codes() if "C++ only" in f.where} <= c_only
    assert {f.python for f in facts.fact_codes() if "Python only" in f.where} <= python_only


def test_public_cpp_api_is_recorded_with_its_header(llm):
    public = [c.c_name for c in llm.codes for n in c.cpp if n.name == f"llm_datadist::{c.c_name}"]
    assert set(facts.fact_public_api()) <= set(public)
    assert all(
        n.header == "llm_datadist/llm_datadist.h" for c in llm.codes for n in c.cpp if n.namespace == "llm_datadist"
    )


def test_every_c_code_has_its_ge_name(llm):
    """llm_error_codes.h declares every LLM code in ge::; SUCCESS and FAILED come from ge_api_error_codes.h."""
    for code in llm.c_codes:
        ge = [n for n in code.cpp if n.namespace == "ge"]
        assert len(ge) == 1, code.name
        if code.value in (0, 0xFFFFFFFF):
            assert ge[0].header == "ge/ge_api_error_codes.h" and ge[0].short in ("SUCCESS", "FAILED")
        else:
            assert ge[0].short == code.c_name and ge[0].header == "llm_datadist/llm_error_codes.h"


def test_registered_log_messages(llm):
    messages = {c.c_name: c.log_message for c in llm.codes if c.log_message is not None}
    assert {name: messages.get(name) for name in facts.fact_messages()} == facts.fact_messages()


def test_wrappers_are_the_members_code_2_status_maps(llm):
    """Every member but LLM_UNKNOWN_ERROR (the literal -1) is bound to a wrapper constant."""
    wrapped = [c.python_name for c in llm.python_codes if c.wrapper]
    facts_wrapped = [f.python for f in facts.fact_codes() if f.python and f.python != "LLM_UNKNOWN_ERROR"]
    assert _in_order(facts_wrapped, wrapped) and "LLM_UNKNOWN_ERROR" not in wrapped


@pytest.mark.parametrize("name", [c.python for c in facts.fact_codes() if c.python])
def test_presence_matrix_cell(llm, name):
    """Each cell of upstream-facts.md §2: listed with its recoverability, not listed, or not known."""
    editions, matrix = facts.fact_matrix()
    for edition_id in editions:
        edition = llm.edition_by_id[edition_id]
        cell = matrix[name][edition_id]
        row = edition.row_by_code.get(name)
        if cell == "?":
            assert row is None and name in edition.not_known, (edition_id, name)
        elif cell is None:
            assert row is None and name not in edition.not_known, (edition_id, name)
        else:
            assert row is not None and row.recoverable == cell, (edition_id, name)


def _repo_sources(catalog):
    return [(family, version, source) for family in catalog.families for version in family.versions
            for source in version.sources if source.kind == "repo"]


def test_every_repository_source_names_the_file_the_recorded_tags_ship(catalog):
    """A version's file: its commit is the first tag's, and every tag it names ships that very
    blob (where the record knows the tag: a newer release is not recorded yet)."""
    record = facts.upstream_record()
    checked = 0
    for family, version, source in _repo_sources(catalog):
        repo = record[source.repo]
        files = repo["files"][source.path]
        known = [t for t in source.tags if t in repo["tags"]]
        if known:
            assert repo["tags"][known[0]] == source.commit or known[0] != source.tags[0], (version.id, source.path)
            assert len({files.get(t) for t in known}) == 1 and files.get(known[0]), (version.id, source.path, known)
            checked += 1
        elif source.branch and source.commit == repo["head"]["commit"]:
            assert files.get("HEAD"), (version.id, source.path)
            checked += 1
    assert checked >= sum(1 for f in catalog.families for t in f.timelines if t.repo)  # at least a file per timeline


def _git_blob(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def test_every_pipe_table_page_is_written_back_as_upstream_recorded_it(catalog):
    """`upstream-page` for every source with a `page`: a whole file has the blob id the record
    holds for it (at the source's first recorded tag, or the branch head it names); a section
    of a larger file has the sha256 of the section the record cut from upstream's file."""
    record = facts.upstream_record()
    whole = sections = 0
    for family, version, source in _repo_sources(catalog):
        if source.layout is None:
            continue
        repo = record[source.repo]
        edition = family.edition_by_id[version.editions[0]]
        for lang in (source.lang,) if source.lang else family.languages:
            written = render_upstream_page(family, edition, lang).encode("utf-8")
            if source.layout.level > 1:
                cut = repo["sections"][source.path][source.commit]
                assert cut["heading"] == source.layout.heading
                assert hashlib.sha256(written).hexdigest() == cut["sha256"], (version.id, lang, source.path)
                sections += 1
                continue
            known = [t for t in source.tags if t in repo["tags"]]
            label = known[0] if known else "HEAD" if source.commit == repo["head"]["commit"] else None
            if label is not None:
                assert _git_blob(written) == repo["files"][source.path][label], (version.id, lang, source.path)
                whole += 1
    # 19 whole files (the 3 others only a merge request's commit holds: no tag or head records them)
    assert whole >= 19 and sections >= 6, (whole, sections)


def test_every_recorded_tag_of_a_cited_page_is_in_a_version(catalog):
    """Each tag that ships a page the catalog cites is named by the version holding that file."""
    record = facts.upstream_record()
    for family in catalog.families:
        for timeline in family.timelines:
            if timeline.repo is None:
                continue
            repo = record[timeline.repo]
            named = {(s.path, t) for v in family.versions if v.timeline.id == timeline.id
                     for s in v.sources if s.kind == "repo" for t in s.tags}
            for path in timeline.paths:
                for tag in repo["files"].get(path, {}):
                    if tag != "HEAD":
                        assert (path, tag) in named, f"{family.id} {timeline.id}: {path} at {tag} is in no version"


def test_english_is_upstream_only_where_upstream_wrote_it(catalog):
    """An English text is upstream's only on an edition whose zh file upstream's English page
    translates, or where its zh text is the zh of a cell with upstream English (that English)."""
    for family in catalog.families:
        direct = {
            e.id for e in family.editions if any(s.lang == "en" and s.kind in ("repo", "seed") for s in e.sources)
        }
        upstream_en = {}
        for code in family.codes:
            for field_name, entries in code.texts:
                for entry in entries:
                    if entry.lang == "en" and entry.origin == "upstream":
                        for edition_id in entry.editions:
                            if edition_id in direct:
                                upstream_en.setdefault(code.text(field_name, edition_id, "zh"), set()).add(entry.text)
        for code in family.codes:
            for field_name, entries in code.texts:
                for entry in entries:
                    if entry.lang != "en" or entry.origin != "upstream":
                        continue
                    for edition_id in entry.editions:
                        if edition_id in direct:
                            continue
                        zh = code.text(field_name, edition_id, "zh")
                        if family.edition_by_id[edition_id].page.id == "cpp-deprecated" and field_name == "meaning":
                            assert entry.text == zh  # that page's meanings are upstream's English already
                            continue
                        assert entry.text in upstream_en.get(zh, set()), (family.id, code.name, field_name, edition_id)


def test_texts_not_known_only_before_any_copy_exists(catalog):
    for family in catalog.families:
        unknown = [e.id for e in family.editions if not e.texts_known]
        assert unknown == (["8.0.RC3", "8.0.0", "8.2.RC1"] if family.id == "llm_datadist" else [])


def test_every_known_edition_has_both_languages(catalog):
    for family in catalog.families:
        for edition in family.editions:
            if edition.texts_known:
                assert edition.languages == ("zh", "en"), edition.id


def test_enum_members_on_the_python_pages_and_c_names_on_the_cpp_pages(llm):
    for edition in llm.editions:
        for row in edition.rows:
            assert llm.code_by_name[row.code].name_on(edition.page) is not None, (edition.id, row.code)


def _non_text_lines(text: str):
    """(line number, line) of each line that is not part of a zh/en text: a text's key line and
    the lines of its block scalar are text lines, and so are the paragraphs of a source's
    page (`before`, `after`: upstream's prose around its table), and a message's texts (its
    `template`, its registry items' `text`, its `examples`)."""
    import re

    block_indent = None
    prose_indent = None
    for number, line in enumerate(text.splitlines(), 1):
        indent = len(line) - len(line.lstrip(" "))
        if block_indent is not None and (not line.strip() or indent > block_indent):
            continue
        block_indent = None
        if prose_indent is not None and indent > prose_indent and re.match(r"^ *- (?!code:)", line):
            continue
        if prose_indent is not None and indent <= prose_indent:
            prose_indent = None
        if re.match(r"^ *(before|after|examples):$", line):
            prose_indent = indent
        match = re.match(r"^( *)(?:- )?(zh|en|template|text): ?(.*)$", line)
        if match:
            if match.group(3)[:1] in ("|", ">"):
                block_indent = len(match.group(1))
            continue
        yield number, line


def test_no_line_but_a_text_is_longer_than_120_characters():
    """The catalog stays reviewable in a diff: only a text (as upstream wrote it) may be long."""
    from tests.support.helpers import ROOT

    long = [f"{path.relative_to(ROOT)}:{number}: {len(line)} characters"
            for path in sorted((ROOT / "catalog").rglob("*.yaml"))
            for number, line in _non_text_lines(path.read_text(encoding="utf-8")) if len(line) > 120]
    assert not long, "\n".join(long)
