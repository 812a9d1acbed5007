"""Renderers of the code outputs: the Python module, the C/C++ header, the JSON export.

Pure functions from the model to {path: text}: no disk, no clock, no environment.
"""
from __future__ import annotations

import json
from typing import Optional

from generator.model import TEXT_FIELDS, Catalog, Code, Edition
from generator.render import BANNER, render_template

# How the Python module spells each recoverability.
_PY_RECOVERABLE = {"yes": "True", "no": "False", "n/a": "None", "not known": "UNKNOWN"}


def _english_or_first(texts, languages) -> str:
    """Code comments are in English where the catalog has it."""
    return texts["en"] if "en" in languages else texts[languages[0]]


def python_path(catalog: Catalog) -> str:
    return f"generated/python/{catalog.family.python.module}.py"


def c_path(catalog: Catalog) -> str:
    return f"generated/c/{catalog.family.c.header}.h"


def json_path(catalog: Catalog) -> str:
    return f"generated/json/{catalog.family.python.module}.json"


def c_literal(code: Code) -> str:
    return code.hex + "U"  # C values are never negative


def python_literal(code: Code) -> str:
    # Values that exist in C/C++ are written as the C header writes them.
    return code.hex if code.in_c else str(code.value)


def render_python_module(catalog: Catalog) -> dict[str, str]:
    family = catalog.family
    members = [_member(catalog, code) for code in catalog.python_codes]
    c_only = [{"name": c.name, "literal": python_literal(c)} for c in catalog.codes if not c.in_python]
    text = render_template(
        "python/module.py.j2",
        enum=family.python.enum, exception=family.python.exception, languages=family.languages,
        default_status=family.python.default_status, unknown_status=family.python.unknown_status,
        description=_english_or_first(family.description, family.languages),
        example=_example(catalog),
        editions=[{"id": e.id, "origins": e.text_origins} for e in catalog.editions],
        members=members, c_only=c_only, texts=_python_texts(catalog),
    )
    return {python_path(catalog): text}


def _example(catalog: Catalog) -> dict:
    """The member the module's docstring shows: the one code_2_status() falls back to."""
    code = catalog.code_by_name[catalog.family.python.unknown_status]
    listing = catalog.editions_listing(code)
    value = listing[-1].row_by_code[code.name].recoverable if listing else "not known"
    return {"name": code.python_name, "hex": code.hex, "recoverable": _PY_RECOVERABLE[value]}


def _member(catalog: Catalog, code: Code) -> dict:
    rows = [(e.id, _PY_RECOVERABLE[e.row_by_code[code.name].recoverable]) for e in catalog.editions_listing(code)]
    return {
        "name": code.python_name, "literal": python_literal(code), "c_name": code.c_name,
        "rows": rows, "not_known": [e.id for e in catalog.editions_not_known(code)],
    }


def _python_texts(catalog: Catalog) -> list[dict]:
    texts = []
    for code in catalog.python_codes:
        for edition in catalog.editions_listing(code):
            langs = [
                (lang, code.text("meaning", edition.id, lang), code.text("solution", edition.id, lang))
                for lang, _ in edition.text_origins or ()
            ]
            if langs:
                texts.append({"name": code.name, "edition": edition.id, "langs": langs})
    return texts


def render_c_header(catalog: Catalog) -> dict[str, str]:
    family = catalog.family
    codes = [
        {"c_name": code.c_name, "literal": c_literal(code), "log_message": code.log_message}
        for code in catalog.c_codes
    ]
    text = render_template(
        "c/header.h.j2", title=_english_or_first(family.title, family.languages),
        description=_english_or_first(family.description, family.languages),
        guard=family.c.guard, namespace=family.c.namespace, name_function=family.c.name_function,
        message_function=family.c.message_function, codes=codes,
        example=catalog.code_by_name[family.python.unknown_status].c_name or catalog.c_codes[0].c_name,
        upstream_namespaces=_namespaces(catalog),
    )
    return {c_path(catalog): text}


def _namespaces(catalog: Catalog) -> str:
    """The C++ namespaces upstream declares the codes in, from the catalog's cpp names."""
    found = dict.fromkeys(name.rsplit("::", 1)[0] + "::" for code in catalog.codes for name in code.cpp_names)
    return " and ".join(found) or "its own namespaces"


def render_json(catalog: Catalog) -> dict[str, str]:
    return {json_path(catalog): layout_json(catalog_as_data(catalog))}


def layout_json(data: dict) -> str:
    """JSON with one top-level key per line and one list item per line.

    json.dumps(indent=...) runs CPython's pure-Python encoder; encoding each
    item compactly keeps the C encoder and still diffs one code per line.
    """
    def dump(value) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))

    parts = []
    for key, value in data.items():
        if isinstance(value, list) and value:
            items = ",\n".join("    " + dump(item) for item in value)
            parts.append(f"  {dump(key)}: [\n{items}\n  ]")
        else:
            parts.append(f"  {dump(key)}: {dump(value)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def catalog_as_data(catalog: Catalog) -> dict:
    """The whole catalog, resolved: what other tools read instead of the YAML."""
    family = catalog.family
    return {
        "$comment": BANNER,
        "format": 1,
        "family": {
            "python": vars(family.python) | {}, "c": vars(family.c) | {},
            "languages": list(family.languages),
            "title": dict(family.title.items), "intro": dict(family.intro.items),
            "columns": {k: dict(v.items) for k, v in family.columns},
            "recoverable_labels": {k: dict(v.items) for k, v in family.recoverable_labels},
        },
        "editions": [_edition_data(catalog, e) for e in catalog.editions],
        "codes": [_code_data(catalog, c) for c in catalog.codes],
    }


def _edition_data(catalog: Catalog, edition: Edition) -> dict:
    return {
        "id": edition.id, "release": edition.release, "page": dict(edition.page.items),
        "sources": list(edition.sources),
        "texts": dict(edition.text_origins) if edition.text_origins else "not known",
        "order": "page" if edition.order_known else "not known",
        "rows": [{"code": r.code, "recoverable": r.recoverable} for r in edition.rows],
        "not_listed_not_known": list(edition.not_known),
        "notes": dict(edition.notes.items) if edition.notes else None,
    }


def _code_data(catalog: Catalog, code: Code) -> dict:
    listed = {}
    for edition in catalog.editions_listing(code):
        listed[edition.id] = {
            "recoverable": edition.row_by_code[code.name].recoverable,
            "position": edition.position[code.name] if edition.order_known else None,
            **{f: _texts_of(code, f, edition) for f in TEXT_FIELDS},
            "text_origin": dict(edition.text_origins) if edition.text_origins else None,
        }
    return {
        "name": code.name, "python": code.python_name, "c": code.c_name,
        "value": code.value, "hex": code.hex, "cpp": list(code.cpp_names),
        "log_message": code.log_message,
        "obsolete": {"since": code.obsolete.since, "reason": dict(code.obsolete.reason.items)} if code.obsolete else None,
        "notes": dict(code.notes.items) if code.notes else None,
        "editions": listed,
        "listing_not_known": [e.id for e in catalog.editions_not_known(code)],
    }


def _texts_of(code: Code, field_name: str, edition: Edition) -> Optional[dict]:
    if not edition.text_origins:
        return None
    return {lang: code.text(field_name, edition.id, lang) for lang, _ in edition.text_origins}
