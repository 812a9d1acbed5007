"""The catalog and the JSON export against their JSON Schemas."""
import json

import jsonschema
import pytest
from ruamel.yaml import YAML

from tests.helpers import MINI, ROOT

SCHEMAS = ROOT / "generator" / "schemas"


def schema(name):
    data = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(data)
    return jsonschema.Draft202012Validator(data)


def yaml_data(path):
    return YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", sorted((ROOT / "catalog").glob("*.yaml")) + [MINI], ids=lambda p: p.name)
def test_catalog_files_match_the_catalog_schema(path):
    errors = sorted(schema("catalog.schema.json").iter_errors(yaml_data(path)), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)


def test_the_catalog_schema_can_fail():
    data = yaml_data(ROOT / "catalog" / "codes.yaml")
    data["codes"][0]["meening"] = data["codes"][0].pop("meaning")
    data["codes"][1]["value"] = "0x1"
    errors = list(schema("catalog.schema.json").iter_errors(data))
    assert len(errors) >= 2


def test_the_export_matches_the_export_schema():
    export = json.loads((ROOT / "generated" / "json" / "llm_status_codes.json").read_text(encoding="utf-8"))
    errors = list(schema("export.schema.json").iter_errors(export))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)
    assert len(export["codes"]) == 33


def test_every_catalog_file_names_its_schema():
    for path in (ROOT / "catalog").glob("*.yaml"):
        assert "yaml-language-server: $schema=../generator/schemas/catalog.schema.json" in path.read_text(encoding="utf-8")
