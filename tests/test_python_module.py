"""The generated enum module, imported in fresh interpreters with nothing installed,
compared member by member with the catalog."""
import json
import subprocess
import textwrap

import pytest

from generator.render_code import python_path
from tests.helpers import ROOT, interpreters

PY_RECOVERABLE = {"yes": True, "no": False, "n/a": None, "not known": "UNKNOWN"}

DUMP = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, sys.argv[1])
    import {module} as m
    assert not any(name.split(".")[0] in ("ruamel", "jinja2", "generator") for name in sys.modules)
    def call(fn, *args):
        try:
            value = fn(*args)
        except KeyError:
            return "KeyError"
        return "UNKNOWN" if value is m.UNKNOWN else value
    out = {{"editions": list(m.EDITIONS), "members": []}}
    for member in m.{enum}:
        record = {{"name": member.name, "value": int(member), "str": str(member), "format": "%s" % format(member),
                   "c_name": member.c_name, "editions": list(member.editions), "per_edition": {{}}}}
        for edition in list(m.EDITIONS) + [None]:
            record["per_edition"][str(edition)] = {{
                "recoverable": call(member.recoverable, edition),
                "texts": {{lang: [call(member.meaning, lang, edition), call(member.solution, lang, edition),
                                  call(member.text_origin, lang, edition)] for lang in m.LANGUAGES}},
            }}
        out["members"].append(record)
    print(json.dumps(out))
""")


def expected(catalog) -> dict:
    editions = [e.id for e in catalog.editions]
    members = []
    for code in catalog.python_codes:
        listing = [e.id for e in catalog.editions_listing(code)]
        per_edition = {}
        for edition in catalog.editions + (None,):
            target = edition if edition is not None else (
                catalog.edition_by_id[listing[-1]] if listing else None)
            per_edition[str(edition.id if edition else None)] = _cell(catalog, code, target)
        members.append({
            "name": code.python_name, "value": code.value, "str": f"LLMStatusCode.{code.python_name}",
            "format": f"LLMStatusCode.{code.python_name}", "c_name": code.c_name, "editions": listing,
            "per_edition": per_edition,
        })
    return {"editions": editions, "members": members}


def _cell(catalog, code, edition):
    languages = catalog.family.languages
    if edition is None or (code.name not in edition.row_by_code and code.name not in edition.not_known):
        return {"recoverable": "KeyError", "texts": {lang: ["KeyError"] * 3 for lang in languages}}
    row = edition.row_by_code.get(code.name)
    texts = {}
    for lang in languages:
        meaning, solution = code.text("meaning", edition.id, lang), code.text("solution", edition.id, lang)
        texts[lang] = [meaning, solution, edition.text_origin(lang) if meaning is not None else None]
    return {"recoverable": PY_RECOVERABLE[row.recoverable] if row else "UNKNOWN", "texts": texts}


@pytest.mark.parametrize("python", interpreters())
def test_module_matches_catalog_under(python, catalog):
    module_path = ROOT / python_path(catalog)
    script = DUMP.format(module=module_path.stem, enum=catalog.family.python.enum)
    result = subprocess.run([python, "-I", "-S", "-B", "-c", script, str(module_path.parent)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == expected(catalog)


def test_interpreters_from_39_up_were_found():
    versions = interpreters()
    assert versions, "no CPython 3.9+ found"
