"""Cross-checks of the page texts: every text belongs to a code an edition lists, in a
column of its page and a language whose texts the edition has, once; and none is missing."""
from __future__ import annotations

from generator.model import Code, Edition
from generator.problems import Reporter, closest


def check_texts(codes, editions, rep: Reporter) -> None:
    by_id = {edition.id: edition for edition in editions}
    declared = getattr(editions, "declared", set(by_id))
    for code in codes:
        for field_name, entries in code.texts:
            _check_entries(code, field_name, entries, by_id, declared, rep)
    valid = {code.name: code for code in codes}
    for edition in editions:
        if edition.texts_known:
            _check_complete(edition, valid, rep)


def _check_entries(code: Code, field_name, entries, by_id: dict[str, Edition], declared: set[str], rep: Reporter) -> None:
    first: dict[tuple[str, str], int] = {}
    where = f"{code.name}: {field_name}"
    for entry in entries:
        what = f"{where} ({entry.lang})"
        for edition_id, pos in zip(entry.editions, entry.edition_pos):
            edition = by_id.get(edition_id)
            if edition is None and edition_id in declared:
                continue  # the edition itself is reported
            if edition is None:
                rep.error(pos, f"{where}: edition {edition_id!r} is not declared in editions{closest(edition_id, by_id)}")
            elif code.name not in edition.row_by_code:
                rep.error(pos, f"{where}: edition {edition_id} does not list {code.name}; add it to that edition's rows or drop the edition here")
            elif field_name not in edition.page.text_fields:
                rep.error(pos, f"{where}: page {edition.page.id} (edition {edition_id}) has no {field_name} column")
            elif not edition.has_texts(entry.lang):
                rep.error(pos, f"{what}: edition {edition_id} has no known {entry.lang} texts; add {entry.lang} to its `texts` or drop the edition here")
            elif (edition_id, entry.lang) in first:
                rep.error(pos, f"{what}: edition {edition_id} already has this text at line {first[(edition_id, entry.lang)]}; give each edition one text per language")
            else:
                first[(edition_id, entry.lang)] = entry.pos.line


def _check_complete(edition: Edition, codes: dict[str, Code], rep: Reporter) -> None:
    for row in edition.rows:
        code = codes.get(row.code)
        if code is None:
            continue
        for lang in edition.languages or ():
            for field_name in edition.page.text_fields:
                if code.entry(field_name, edition.id, lang) is None:
                    rep.error(code.pos, f"{code.name}: no {lang} {field_name} for edition {edition.id}, whose page lists it; "
                                        f"add an entry naming {edition.id} with {lang}: ...")
