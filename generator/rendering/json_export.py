"""The JSON export of a family: the whole catalog part of the family, resolved, for other
tools, built as the typed dicts that declare it (generator.rendering.export_format, from which
its schema, generated/schemas/export.schema.json, is generated)."""
from __future__ import annotations

import json
from typing import Any, Optional, Union, cast

from generator.domain.codes import Code, TextEntry
from generator.domain.editions import Edition, Source, Version
from generator.domain.layout import PageLayout
from generator.domain.family import Catalog, Family
from generator.domain.model import Localized, Page
from generator.rendering.catalog_hash import catalog_hash
from generator.rendering.export_format import (
    CodeData, EditionData, EntryData, Export, FamilyData, LayoutData, ListedData, MalformationData, PageData, RowData,
    SaidText, SiteData, SourceData, VersionData)
from generator.rendering.output import Planned
from generator.rendering.environment import banner_lines
from generator.core.project import project_version

EXPORT_FORMAT = 4  # 4: a code's `earlier` names and values (3: `renamed`, names only)


def json_path(family: Family) -> str:
    return f"generated/json/{family.python.module}.json"


def plan_json(catalog: Catalog, family: Family) -> list[Planned]:
    return [
        Planned(
            json_path(family), lambda: layout_json(family_as_data(catalog, family, catalog_hash(family)))
        )
    ]


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))  # json.dumps would make one a call


def _dump(value) -> str:
    return _ENCODER.encode(value)


def layout_json(data: Export) -> str:
    """JSON with one top-level key per line and one list item per line.

    json.dumps(indent=...) runs CPython's pure-Python encoder; encoding each
    item compactly keeps the C encoder and still diffs one code per line.
    """
    parts: list[str] = []
    for index, (key, value) in enumerate(data.items()):
        parts.append(("{\n" if index == 0 else ",\n") + f"  {_dump(key)}: ")
        if isinstance(value, list) and value:
            parts.append("[\n")
            for number, item in enumerate(value):
                if number:
                    parts.append(",\n")
                parts.append("    " + _dump(item))
            parts.append("\n  ]")
        else:
            parts.append(_dump(value))
    parts.append("\n}\n")
    return "".join(parts)


def _loc(value: Optional[Localized]) -> Any:
    """One text per language, and `translated` where this project translated some: Optional[LocalizedData]."""
    if value is None:
        return None
    data: dict[str, Union[str, list[str]]] = dict(value.items)
    if value.translated:
        data["translated"] = list(value.translated)
    return data


def family_as_data(catalog: Catalog, family: Family, catalog_hash: str) -> Export:
    """The export's data."""
    used = sorted({s.repo for e in family.editions for s in e.sources if s.repo} |
                  {t.repo for t in family.timelines if t.repo} | {u.repo for u in family.upstream})
    return {
        "$comment": " ".join(banner_lines()),
        "format": EXPORT_FORMAT,
        "generator": {"version": project_version()},
        "catalog_hash": catalog_hash,
        "site": _site_data(catalog),
        "family": _family_data(family),
        "repositories": [{"name": r, "url": catalog.repositories[r].url,
                          "default_branch": catalog.repositories[r].default_branch} for r in used],
        "pages": [_page_data(p) for p in family.pages],
        "versions": [_version_data(v) for v in family.versions],
        "editions": [_edition_data(e) for e in family.editions],
        "aliases": dict(family.aliases),
        "codes": [_code_data(family, c) for c in family.codes],
    }


def _site_data(catalog: Catalog) -> SiteData:
    """The catalog's site section (its labels are the pages' wording, not data of the codes)."""
    site = catalog.site
    return {"languages": list(site.languages), "language_names": _loc(site.language_names), "name": _loc(site.name),
            "description": _loc(site.description), "families": [f.id for f in catalog.families]}


def _family_data(family: Family) -> FamilyData:
    python, c = family.python, family.c
    return {
        "id": family.id,
        "name": _loc(family.name),
        "description": _loc(family.description),
        "languages": list(family.languages),
        "site_path": family.site_path,
        "python": {"module": python.module, "shape": python.shape, "class": python.class_name,  # type: ignore[typeddict-item]
                   "lookup": python.lookup, "default_page": python.default_page, "exception": python.exception,
                   "status": python.status, "default_status": python.default_status,
                   "code_2_status": python.code_2_status, "unknown_status": python.unknown_status},
        "c": {"header": c.header, "guard": c.guard, "namespace": c.namespace, "macro_prefix": c.macro_prefix,
              "name_function": c.name_function, "message_function": c.message_function,
              "literals": c.literals},  # type: ignore[typeddict-item]
        "sphinx_directive": family.sphinx_directive,
        "value_layouts": [{"macro": layout.macro, "arguments": list(layout.arguments),
                           "fields": {f.name: {"shift": f.shift, "mask": f.mask} for f in layout.fields}}
                          for layout in family.value_layouts],
        "runtime_constants": dict(family.runtime_constants),
        "headers": [{"path": h.path, "namespace": h.namespace} for h in family.headers],
        "upstream": [{"repo": u.repo, "paths": list(u.paths), "kind": u.kind, "header": u.header}  # type: ignore[typeddict-item]
                     for u in family.upstream],
        "discover": list(family.discover),
        "recoverable_labels": {v: {lang: list(texts) for lang, texts in per.items()}
                               for v, per in family.recoverable_labels.items()},
    }


def _page_data(page: Page) -> PageData:
    return {
        "id": page.id,
        "name": _loc(page.name),
        "title": _loc(page.title),
        "intro": _loc(page.intro),
        "rows": page.row_names,  # type: ignore[typeddict-item]
        "row_prefix": page.row_prefix,
        "first_column": page.first_column,  # type: ignore[typeddict-item]
        "columns": list(page.columns),
        "headings": {c: {lang: list(t) for lang, t in per.items()} for c, per in page.headings.items()},
        "timelines": [{"id": t.id, "suffix": t.suffix, "name": _loc(t.name), "repo": t.repo, "paths": list(t.paths),
                       "translations": {lang: list(paths) for lang, paths in t.translations}} for t in page.timelines],
    }


def source_data(source: Source) -> SourceData:
    data: dict[str, Any] = {"kind": source.kind}
    if source.kind == "repo":
        data.update(repo=source.repo, path=source.path, commit=source.commit, tags=list(source.tags), ref=source.ref)
        if source.branch:
            data["branch"] = source.branch
        if source.layout is not None:
            data["layout"] = layout_data(source.layout)
    else:
        data[source.kind] = {"url": source.url, "seed": source.seed, "document": source.document}[source.kind]
    data["lang"] = source.lang
    return cast(SourceData, data)


def layout_data(layout: PageLayout) -> LayoutData:
    def blocks(items) -> list:
        return [b if isinstance(b, str) else {"code": {
                    "fence": b.fence, "open": list(b.open), "line": b.line, "close": list(b.close),
                    "values": list(b.values) if b.values else None}} for b in items]

    return {"title": layout.title, "before": blocks(layout.before), "after": blocks(layout.after),
            "table": layout.table,  # type: ignore[typeddict-item]
            "header": list(layout.header), "labels": dict(layout.labels), "note": layout.note,
            "unclosed": list(layout.unclosed), "bom": layout.bom, "level": layout.level,
            "blank_after": layout.blank_after}


def _rows_data(rows) -> list[RowData]:
    return [{"code": r.code, "name": r.name, "recoverable": r.recoverable, "other_pages": dict(r.disagreements)}
            for r in rows]


def _version_data(version: Version) -> VersionData:
    return {
        "id": version.id, "page": version.page.id, "timeline": version.timeline.id, "based_on": version.based_on,
        "release": version.release, "sources": [source_data(s) for s in version.sources],
        "texts": list(version.languages) if version.languages is not None else "not known",
        "order": "page" if version.order_known else "not known", "rows": _rows_data(version.rows),
        "not_listed_not_known": list(version.not_known), "malformations": _malformations_data(version.malformations),
        "notes": _loc(version.notes), "editions": list(version.editions),
    }


def _malformations_data(malformations) -> list[MalformationData]:
    return [{"kind": m.kind, "code": m.code, "field": m.field, "line": m.line, "shown": m.shown, "sides": dict(m.sides)}
            for m in malformations]


def _edition_data(edition: Edition) -> EditionData:
    return {
        "id": edition.id, "release": edition.release, "page": edition.page.id, "timeline": edition.timeline.id,
        "version": edition.version, "released": edition.released, "repository_copy": edition.repo_copy,
        "sources": [source_data(s) for s in edition.sources],
        "texts": list(edition.languages) if edition.languages is not None else "not known",
        "order": "page" if edition.order_known else "not known",
        "rows": _rows_data(edition.rows),
        "not_listed_not_known": list(edition.not_known),
        "malformations": _malformations_data(edition.malformations),
        "notes": _loc(edition.notes),
    }


def _listed(code: Code, edition: Edition) -> ListedData:
    """What an edition's page says of a code it lists."""
    texts: dict[str, Optional[dict[str, Optional[SaidText]]]] = {}
    for field_name in edition.page.text_fields:
        per_lang: dict[str, Optional[SaidText]] = {}
        for lang in edition.languages or ():
            entry = code.entry(field_name, edition.id, lang)
            per_lang[lang] = None if entry is None else _said(entry)
        texts[field_name] = per_lang if edition.languages is not None else None
    row = edition.row_by_code[code.name]
    return {"name": row.name, "recoverable": row.recoverable, "other_pages": dict(row.disagreements),
            "position": edition.position[code.name] if edition.order_known else None, "texts": texts}


def _said(entry: TextEntry) -> SaidText:
    return {"text": None if entry.untranslated else entry.text, "origin": entry.origin}  # type: ignore[typeddict-item]


def _code_data(family: Family, code: Code) -> CodeData:
    return {
        "name": code.name,
        "python": code.python_name,
        "c": code.c_name,
        "value": code.value,
        "hex": code.hex,
        "wrapper": code.wrapper,
        "cpp": [{"name": n.name, "header": n.header} for n in code.cpp],
        "log_message": code.log_message,
        "earlier": [{"python": e.python, "c": e.c, "value": e.value, "until": dict(e.until)} for e in code.earlier],
        "added": dict(code.added),
        "removed": {**{repo: {api: release for r, api, release in code.removed_api if r == repo}
                       for repo, _, _ in code.removed_api}, **dict(code.removed)},
        "notes": _loc(code.notes),
        "entries": {name: [_entry_data(e) for e in _written(entries)] for name, entries in code.texts},
        "editions": {edition.id: _listed(code, edition) for edition in family.editions_listing(code)},
        "listing_not_known": [e.id for e in family.editions_not_known(code)],
    }


def _entry_data(entry: TextEntry) -> EntryData:
    return {"from": list(entry.starts), "lang": entry.lang, "text": None if entry.untranslated else entry.text,
            "markup": None if entry.untranslated else entry.markup, "origin": entry.origin}  # type: ignore[typeddict-item]


def _written(entries: tuple[TextEntry, ...]) -> list[TextEntry]:
    """The entries as written: an untranslated text resolved to several first-language texts once."""
    seen, out = set(), []
    for entry in entries:
        key = (entry.starts, entry.lang, entry.origin, entry.pos)
        if key not in seen:
            seen.add(key)
            out.append(entry)
    return out
