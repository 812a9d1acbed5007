"""The seed pages, each reproduced under the edition it really is: seed 003 is 9.0.0-v1's
English, seed 001 the published 9.0.0-v2 page, seed 000 the v1 page at tag v9.2.0-beta.1."""
from generator.audit.page import words
from tests.support import facts

ZH = {"yes": "是", "no": "否", "n/a": "无"}
EN = {"yes": "Yes", "no": "No", "n/a": "None"}


def test_seed_003_is_the_english_of_9_0_0_v1(llm):
    seed = facts.seed_v1_en()
    rows = llm.edition_by_id["9.0.0-v1"].rows
    assert [r.code for r in rows] == [s.name for s in seed]
    for row, expected in zip(rows, seed):
        code = llm.code_by_name[row.code]
        got = (code.text("meaning", "9.0.0-v1", "en"), EN[row.recoverable], code.text("solution", "9.0.0-v1", "en"))
        assert got == (expected.meaning, expected.recoverable, expected.solution), row.code
        assert code.entry("solution", "9.0.0-v1", "en").origin == "upstream"


def test_seed_001_is_the_published_9_0_0_v2_page(llm):
    seed = facts.seed_v2_zh()
    edition = llm.edition_by_id["9.0.0-v2"]
    assert [r.code for r in edition.rows] == [s.name for s in seed]
    assert any(s.url and "/900/" in s.url for s in edition.sources)
    for row, expected in zip(edition.rows, seed):
        code = llm.code_by_name[row.code]
        assert code.text("meaning", "9.0.0-v2", "zh") == expected.meaning, row.code
        assert ZH[row.recoverable] == expected.recoverable, row.code
        # The scrape lost line breaks and list markers: compare the words.
        assert words(code.text("solution", "9.0.0-v2", "zh")) == words(expected.solution), row.code


def test_seed_000_is_the_v1_page_at_v9_2_0_beta_1(llm):
    seed = facts.seed_v1_zh_segments()
    rows = llm.edition_by_id["9.2.0-beta.1-v1"].rows
    assert [r.code for r in rows] == [name for name, _ in seed]
    for row, (name, segment) in zip(rows, seed):
        code = llm.code_by_name[row.code]
        joined = (
            code.text("meaning", "9.2.0-beta.1-v1", "zh")
            + ZH[row.recoverable]
            + code.text("solution", "9.2.0-beta.1-v1", "zh")
        )
        assert facts.letters_only(joined) == facts.letters_only(segment), name


def test_the_9_0_0_v1_page_is_the_released_one_not_seed_000(llm):
    """Release 9.0.0 shipped 错误码 and "uncorrect error"; the v9.2.0-beta.1 page says error-code, incorrect."""
    link = llm.code_by_name["LLM_LINK_FAILED"]
    assert "错误码" in link.text("solution", "9.0.0-v1", "zh") and "error-code" in link.text(
        "solution", "9.2.0-beta.1-v1", "zh"
    )
    mem = llm.code_by_name["LLM_DEVICE_MEM_ERROR"]
    assert "uncorrect error" in mem.text("meaning", "9.0.0-v1", "zh")
    assert "incorrect error" in mem.text("meaning", "9.2.0-beta.1-v1", "zh")


def test_texts_shared_by_editions_are_written_once(catalog):
    for family in catalog.families:
        for code in family.codes:
            for field_name, entries in code.texts:
                seen = {}
                for entry in entries:
                    # with its markup (a link makes another text); once per timeline, as an entry holds
                    # one timeline's versions
                    timeline = family.edition_by_id[entry.editions[0]].timeline.id
                    key = (timeline, entry.lang, entry.written, entry.origin)
                    assert key not in seen, (
                        f"{code.name} {field_name} {entry.lang} written twice in {timeline} (lines {seen.get(key)} and "
                        f"{entry.pos.line})"
                    )
                    seen[key] = entry.pos.line
