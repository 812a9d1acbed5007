"""Cross-checks of the page texts: every text belongs to a listed code of an
edition whose texts are known, once per language, and none is missing."""
from __future__ import annotations

from generator.model import TEXT_FIELDS, Code, Edition
from generator.problems import Reporter, closest


def check_texts(codes: list[Code], editions: list[Edition], declared: set[str], flawed: set[str], rep: Reporter) -> None:
    """`declared`: every edition id written, including those of editions that failed validation;
    `flawed`: codes already reported, whose missing texts would only echo that report."""
    by_id = {edition.id: edition for edition in editions}
    for code in codes:
        for field_name in TEXT_FIELDS:
            _check_entries(code, field_name, by_id, declared, rep)
    for edition in editions:
        if edition.texts_known:
            _check_complete(edition, {code.name: code for code in codes if code.name not in flawed}, rep)


def _check_entries(code: Code, field_name: str, by_id: dict[str, Edition], declared: set[str], rep: Reporter) -> None:
    first: dict[tuple[str, str], int] = {}
    for entry in getattr(code, field_name):
        what = f"{code.name}: {field_name} ({entry.lang})"
        where = f"{code.name}: {field_name}"  # entries of several languages share their editions list
        for edition_id, pos in zip(entry.editions, entry.edition_pos):
            edition = by_id.get(edition_id)
            if edition is None and edition_id in declared:
                continue  # the edition itself is reported
            if edition is None:
                rep.error(pos, f"{where}: edition {edition_id!r} is not declared in editions{closest(edition_id, by_id)}")
                continue
            if code.name not in edition.row_by_code:
                rep.error(pos, f"{where}: edition {edition_id} does not list {code.name}; add it to that edition's rows or drop the edition here")
                continue
            if edition.text_origin(entry.lang) is None:
                rep.error(pos, f"{what}: edition {edition_id} has no known {entry.lang} texts; declare them in its `texts` or drop the edition here")
                continue
            key = (edition_id, entry.lang)
            if key in first:
                rep.error(pos, f"{what}: edition {edition_id} already has this text at line {first[key]}; give each edition one text per language")
                continue
            first[key] = entry.pos.line


def _check_complete(edition: Edition, codes: dict[str, Code], rep: Reporter) -> None:
    for row in edition.rows:
        code = codes.get(row.code)
        if code is None:
            continue
        for lang, _origin in edition.text_origins or ():
            for field_name in TEXT_FIELDS:
                if code.text(field_name, edition.id, lang) is None:
                    rep.error(code.pos, f"{code.name}: no {lang} {field_name} for edition {edition.id}, whose page lists it; add an entry naming {edition.id} with {lang}: ...")
