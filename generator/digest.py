"""Digests of the parts of the model an output is rendered from.

Each output's stamp is a hash of exactly what it reads: the parts of the model
(these digests), its templates and the project's version. A digest covers
values only, never positions or comments, so that moving an entry or
rewording a comment changes no output. Digests are cached on the model.
"""
from __future__ import annotations

import hashlib
import marshal

from generator.model import Code, Edition, Family, Site

LENGTH = 16  # hex digits: 64 bits


def digest(*parts: object) -> str:
    """A short hash of values: tuples, lists, dicts, strings, numbers, booleans and None,
    written by marshal's version 2, which shares no references (equal values, equal
    bytes) and is three times as fast as repr on texts; anything else through repr."""
    try:
        data = marshal.dumps(parts, 2)
    except ValueError:
        data = b"repr:" + repr(parts).encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:LENGTH]


def _localized(value) -> object:
    return None if value is None else (value.items, value.translated)


def site_digest(site: Site) -> str:
    return _memo(site, "site", lambda: digest(
        site.languages, _localized(site.language_names), _localized(site.name), _localized(site.description),
        site.families, sorted((k, v.items) for k, v in site.labels.items())))


def family_meta_digest(family: Family) -> str:
    """The family section: names, languages, pages, timelines, labels; no editions or codes."""
    def compute() -> str:
        pages = tuple((p.id, _localized(p.name), _localized(p.title), _localized(p.intro), p.row_names, p.first_column,
                       p.columns, sorted(p.headings.items()),
                       tuple((t.id, t.suffix, _localized(t.name), t.repo, t.paths) for t in p.timelines))
                      for p in family.pages)
        layout = None if family.value_layout is None else (family.value_layout.macro, family.value_layout.arguments,
                                                               tuple((f.name, f.shift, f.mask) for f in family.value_layout.fields))
        return digest(family.id, _localized(family.name), _localized(family.description), family.languages,
                      family.site_path, vars(family.python), vars(family.c), family.sphinx_directive, layout,
                      family.runtime_constants, tuple((h.path, h.namespace) for h in family.headers),
                      tuple((u.repo, u.path, u.kind, u.header) for u in family.upstream),
                      sorted(family.recoverable_labels.items()), pages, family.discover)
    return _memo(family, "meta", compute)


def edition_meta_digest(edition: Edition) -> str:
    """What an edition says of itself: id, release, timeline, sources, texts, notes; no rows."""
    return _memo(edition, "meta", lambda: digest(
        edition.id, edition.release, edition.timeline.id, edition.languages, edition.order_known, edition.not_known,
        tuple((s.kind, s.lang, s.repo, s.path, s.commit, s.tags, s.branch, s.url, s.seed, s.document) for s in edition.sources),
        tuple((m.kind, m.code, m.field, m.line, m.shown, m.sides) for m in edition.malformations),
        _localized(edition.notes)))


def editions_meta_digest(family: Family) -> str:
    """What every edition of a family says of itself (the lists and links of editions)."""
    return _memo(family, "editions_meta", lambda: digest(tuple(edition_meta_digest(e) for e in family.editions)))


def edition_digest(edition: Edition) -> str:
    return _memo(edition, "all", lambda: digest(
        edition_meta_digest(edition), tuple((r.code, r.recoverable, r.disagreements) for r in edition.rows)))


def code_identity_digest(code: Code) -> str:
    """A code's names, value and facts; not its texts."""
    return _memo(code, "identity", lambda: digest(
        code.python_name, code.c_name, code.value, code.wrapper, tuple((c.name, c.header) for c in code.cpp),
        code.log_message, None if code.obsolete is None else (code.obsolete.since, _localized(code.obsolete.reason)),
        _localized(code.notes)))


def code_texts_digest(code: Code) -> str:
    return _memo(code, "texts", lambda: digest(tuple(
        (name, tuple((e.editions, e.lang, e.text, e.origin) for e in entries)) for name, entries in code.texts)))


def code_digest(code: Code) -> str:
    return _memo(code, "all", lambda: digest(code_identity_digest(code), code_texts_digest(code)))


def texts_by_edition(family: Family, lang: str) -> dict[str, dict[str, list]]:
    """{code name: {edition id: [(field, text, origin)]}} of the family's texts in one language."""
    def compute() -> dict:
        index: dict = {}
        for code in family.codes:
            found = index[code.name] = {}
            for name, entries in code.texts:
                for entry in entries:
                    if entry.lang == lang:
                        for edition in entry.editions:
                            found.setdefault(edition, []).append((name, entry.text, entry.origin))
        return index
    return _memo(family, "by_edition:" + lang, compute)


def code_identities(family: Family) -> dict[str, str]:
    return _memo(family, "identities", lambda: {c.name: code_identity_digest(c) for c in family.codes})


def edition_codes_digest(family: Family, edition: Edition, lang: str) -> str:
    """What an edition's page in one language shows of its codes: each row, with the
    code's names and facts and its texts there; and the codes it may list (not known)."""
    identities = code_identities(family)
    return _memo(edition, "codes:" + lang, lambda: digest(
        edition_rows_material(family, edition, edition.rows, lang), tuple(identities[n] for n in edition.not_known)))


def edition_rows_material(family: Family, edition: Edition, rows, lang: str) -> tuple:
    """What rows of an edition's page in `lang` show: each code's names and facts, its row,
    its texts there."""
    identities, texts = code_identities(family), texts_by_edition(family, lang)
    return tuple((identities[r.code], r.recoverable, r.disagreements, texts[r.code].get(edition.id)) for r in rows)


def listable_codes_digest(family: Family, page) -> str:
    """The codes a page could list, with their names: what a comparison of its editions walks."""
    from generator.changes import listable

    return _memo(family, "listable:" + page.id, lambda: digest(tuple(
        code_identity_digest(c) for c in family.codes if listable(c, page))))


def code_rows_digests(family: Family) -> dict[str, str]:
    """{code name: digest of what every edition says of it (listed with its row and place,
    listing not known, or not listed)}: what a code's page and its entry in the export
    read of the editions, besides what the editions say of themselves."""
    def compute() -> dict[str, str]:
        said: dict[str, list] = {code.name: [] for code in family.codes}
        for edition in family.editions:
            for position, row in enumerate(edition.rows):
                said[row.code].append((edition.id, position if edition.order_known else None, row.recoverable,
                                       row.disagreements))
            for name in edition.not_known:
                said[name].append((edition.id, "not known"))
        return {name: digest(tuple(rows)) for name, rows in said.items()}
    return _memo(family, "code_rows", compute)


def family_digest(family: Family) -> str:
    """Everything of one family: its CATALOG_HASH."""
    return _memo(family, "all", lambda: digest(
        family_meta_digest(family), tuple(edition_digest(e) for e in family.editions),
        tuple(code_digest(c) for c in family.codes)))


def family_language_digest(family: Family, lang: str) -> str:
    """Everything of one family but its texts in other languages: what that language's
    pages read of it."""
    return _memo(family, "all:" + lang, lambda: digest(
        family_meta_digest(family), tuple(edition_digest(e) for e in family.editions),
        tuple(code_identities(family).values()), texts_by_edition(family, lang)))


def _memo(obj, key: str, compute):
    cache = obj.__dict__.setdefault("_digests", {})
    if key not in cache:
        cache[key] = compute()
    return cache[key]
