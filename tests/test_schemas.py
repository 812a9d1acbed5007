"""The generated JSON Schemas: valid, named by every catalog file, and in step with what they describe.

The schemas are generated from the one declaration of each format (generator.reading.format,
generator.rendering.export_format), so no test keeps two declarations equal; these check that
what is generated is usable: every catalog file and every export validates, and what the
loader refuses for its shape the catalog schema refuses too.
"""
from __future__ import annotations

import json
import shutil

import jsonschema
import pytest

from generator.reading.load import catalog_files
from generator.reading.raw import to_raw
from generator.reading.yaml_source import read_document
from tests.support.helpers import MINI, ROOT, run_cli

SCHEMAS = ROOT / "generated" / "schemas"
CATALOG_FILES = [*catalog_files(ROOT / "catalog"), MINI]


def schema(name: str) -> dict:
    return json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))


def as_json(path) -> object:
    """A catalog file as JSON (YAML 1.2 read as the generator reads it)."""
    doc, problems = read_document(str(path), path.read_bytes())
    assert not problems, problems
    return json.loads(json.dumps(to_raw(doc, doc.root, [])))


@pytest.mark.parametrize("name", ["catalog", "export"])
def test_each_schema_is_valid_draft_2020_12_and_says_it_is_generated(name):
    document = schema(name)
    jsonschema.Draft202012Validator.check_schema(document)
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert "make generate" in document["$comment"]


@pytest.mark.parametrize("path", CATALOG_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_catalog_file_validates_and_names_the_schema(path):
    jsonschema.Draft202012Validator(schema("catalog")).validate(as_json(path))
    if path != MINI:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        named = (path.parent / first.split("$schema=", 1)[1]).resolve()
        assert named == (SCHEMAS / "catalog.schema.json").resolve(), first


@pytest.mark.parametrize("path", sorted((ROOT / "generated" / "json").glob("*.json")), ids=lambda p: p.name)
def test_every_export_validates(path):
    jsonschema.Draft202012Validator(schema("export")).validate(json.loads(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("old,new", [
    ("    value: 0x0\n    wrapper: kOk\n", "    value: 0x0\n    wraper: kOk\n"),  # an unknown field
    ("      order: page\n", "      order: paged\n"),  # a choice
    ("    value: 0x11", "    value: '0x11'"),  # a type
    ("  - python: DEMO_ODD", "  - python: 2BAD"),  # a pattern
    ("      rows: python\n", ""),  # a required field
    ("        en: Busy\n", "        en: ''\n"),  # an empty text
])
def test_what_the_loader_refuses_for_its_shape_the_schema_refuses(old, new, tmp_path):
    text = MINI.read_text(encoding="utf-8")
    assert old in text
    broken = tmp_path / "catalog.yaml"
    broken.write_text(text.replace(old, new, 1), encoding="utf-8")
    assert run_cli("validate", "--catalog", broken).code == 3
    assert not jsonschema.Draft202012Validator(schema("catalog")).is_valid(as_json(broken))


def test_the_schemas_come_back_byte_identical_and_check_fails_on_an_edited_one(tmp_path):
    out = tmp_path / "out"
    assert run_cli("generate", "--out", out).code == 0
    shutil.rmtree(out / "generated" / "schemas")
    assert run_cli("generate", "--out", out).code == 0
    for name in ("catalog", "export"):
        path = f"generated/schemas/{name}.schema.json"
        assert (out / path).read_bytes() == (ROOT / path).read_bytes()
    edited = out / "generated" / "schemas" / "catalog.schema.json"
    edited.write_text(edited.read_text(encoding="utf-8").replace('"format"', '"formats"', 1), encoding="utf-8")
    result = run_cli("check", "--out", out)
    assert result.code == 1 and "catalog.schema.json" in result.out + result.err
