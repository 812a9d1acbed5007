"""The catalog against the seed pages: every row's code, meaning, recoverability and solution."""
import pytest

from generator.upstream import normalized

from tests import upstream

ZH = {"yes": "是", "no": "否", "n/a": "无"}
EN = {"yes": "Yes", "no": "No", "n/a": "None"}


def _rows(catalog, edition_id):
    return catalog.edition_by_id[edition_id].rows


def test_v1_en_rows_equal_seed_003(catalog):
    seed = upstream.seed_v1_en()
    rows = _rows(catalog, "9.0.0-v1")
    assert [r.code for r in rows] == [s.name for s in seed]
    for row, expected in zip(rows, seed):
        code = catalog.code_by_name[row.code]
        got = (code.text("meaning", "9.0.0-v1", "en"), EN[row.recoverable], code.text("solution", "9.0.0-v1", "en"))
        assert got == (expected.meaning, expected.recoverable, expected.solution), row.code


def test_v2_zh_rows_equal_seed_001(catalog):
    seed = upstream.seed_v2_zh()
    rows = _rows(catalog, "9.0.0-v2")
    assert [r.code for r in rows] == [s.name for s in seed]
    for row, expected in zip(rows, seed):
        code = catalog.code_by_name[row.code]
        assert code.text("meaning", "9.0.0-v2", "zh") == expected.meaning, row.code
        assert ZH[row.recoverable] == expected.recoverable, row.code
        assert normalized(code.text("solution", "9.0.0-v2", "zh")) == normalized(expected.solution), row.code


def test_v1_zh_rows_equal_seed_000_ignoring_punctuation(catalog):
    seed = upstream.seed_v1_zh_segments()
    rows = _rows(catalog, "9.0.0-v1")
    assert [r.code for r in rows] == [name for name, _ in seed]
    for row, (name, segment) in zip(rows, seed):
        code = catalog.code_by_name[row.code]
        joined = code.text("meaning", "9.0.0-v1", "zh") + ZH[row.recoverable] + code.text("solution", "9.0.0-v1", "zh")
        assert upstream.letters_only(joined) == upstream.letters_only(segment), name


@pytest.mark.parametrize("edition_id", ["9.0.0-v1", "9.0.0-v2"])
def test_punctuation_of_v1_zh_is_restored(catalog, edition_id):
    """Seed 000 lost its punctuation; the catalog's 9.0.0 zh texts must have it back."""
    code = catalog.code_by_name["LLM_FAILED"]
    assert code.text("solution", edition_id, "zh") == "重启机器或容器；\n保留现场，获取Host/Device日志，并备份。"


def test_texts_shared_by_editions_are_written_once(catalog):
    """A text identical in 9.0.0-v1 and 9.0.0-v2 is one catalog entry naming both."""
    for code in catalog.codes:
        for field_name in ("meaning", "solution"):
            entries = getattr(code, field_name)
            seen = {}
            for entry in entries:
                key = (entry.lang, entry.text)
                assert key not in seen, f"{code.name} {field_name} {entry.lang} written twice (lines {seen.get(key)} and {entry.pos.line})"
                seen[key] = entry.pos.line
