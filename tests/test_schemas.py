"""The JSON Schemas of generator/schemas/: the catalog's (for editors) and the JSON export's (for other tools).

Every committed export and every catalog file validates; the schemas' fields are the
loader's and the model's, read from the generator itself, so that neither schema can
drift from the code unnoticed; and broken documents are refused, by the schema and,
for the catalog, by the loader too (the schema must never refuse what the generator
accepts, nor invent a rule of its own).
"""
from __future__ import annotations

import copy
import dataclasses
import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from ruamel.yaml import YAML
from ruamel.yaml.nodes import MappingNode, SequenceNode

from generator.reading import codes as catalog_codes

from generator.reading import family as catalog_family, family_pages

from generator.reading import site as catalog_site

from generator.reading import timelines as catalog_versions

from generator.reading import fields as fields_module
from generator.reading.load import CATALOG_SECTIONS, FAMILY_SECTIONS, FORMAT, catalog_files, load_catalog
from generator.reading.site import default_labels
from generator.reading.fields import Fields
from generator.domain.editions import Source
from generator.domain.model import (
    COLUMN_KEYS,
    PROPOSED,
    RECOVERABLE_VALUES,
    TEXT_FIELDS,
    TEXT_ORIGINS,
    UNTRANSLATED,
    CNames,
    PythonNames,
)
from generator.core.problems import CatalogError
from generator.rendering.json_export import EXPORT_FORMAT
from generator.core.releases import release_key
from tests.support.helpers import MINI, ROOT, run_cli

SCHEMAS = ROOT / "generator" / "schemas"
CATALOG_SCHEMA = json.loads((SCHEMAS / "catalog.schema.json").read_text(encoding="utf-8"))
EXPORT_SCHEMA = json.loads((SCHEMAS / "export.schema.json").read_text(encoding="utf-8"))
CATALOG = Draft202012Validator(CATALOG_SCHEMA)
EXPORT = Draft202012Validator(EXPORT_SCHEMA)
EXPORTS = sorted((ROOT / "generated" / "json").glob("*.json"))
CATALOG_FILES = catalog_files(ROOT / "catalog")


def read_yaml(path: Path):
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def errors(validator: Draft202012Validator, document) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}" for e in validator.iter_errors(document)]


def pointer(schema: dict, ref: str):
    """The part of a schema a local reference (#/$defs/name) points at."""
    assert ref.startswith("#"), ref
    node = schema
    for part in filter(None, ref[1:].split("/")):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def keys(schema: dict, ref: str) -> set[str]:
    return set(pointer(schema, ref)["properties"])


# -- the schemas themselves ---------------------------------------------------------------


@pytest.mark.parametrize("schema", [CATALOG_SCHEMA, EXPORT_SCHEMA], ids=["catalog", "export"])
def test_schema_is_valid_draft_2020_12(schema):
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)
    for ref in re.findall(r'"\$ref": "([^"]+)"', json.dumps(schema)):
        pointer(schema, ref)  # every $ref resolves within the file


def test_schemas_describe_the_current_formats():
    assert CATALOG_SCHEMA["properties"]["format"]["const"] == FORMAT
    assert EXPORT_SCHEMA["properties"]["format"]["const"] == EXPORT_FORMAT
    assert "generator checks the rest" in CATALOG_SCHEMA["description"]


# -- valid documents validate --------------------------------------------------------------


def test_the_exports_of_all_three_families_are_there_in_both_shapes():
    assert [p.name for p in EXPORTS] == ["adxl_status_codes.json", "hixl_status_codes.json", "llm_status_codes.json"]
    shapes = {json.loads(p.read_text(encoding="utf-8"))["family"]["python"]["shape"] for p in EXPORTS}
    assert shapes == {"enum", "constants"}


@pytest.mark.parametrize("path", EXPORTS, ids=lambda p: p.name)
def test_committed_export_validates(path):
    assert errors(EXPORT, json.loads(path.read_text(encoding="utf-8"))) == []


@pytest.fixture(scope="module")
def mini_export(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("mini-out")
    result = run_cli("generate", "--catalog", MINI, "--out", out)
    assert result.code == 0, result.err
    (path,) = (out / "generated" / "json").glob("*.json")
    return json.loads(path.read_text(encoding="utf-8"))


def test_export_of_the_mini_catalog_validates(mini_export):
    assert errors(EXPORT, mini_export) == []


@pytest.mark.parametrize("path", CATALOG_FILES + [MINI], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_catalog_file_validates(path):
    assert errors(CATALOG, read_yaml(path)) == []


@pytest.mark.parametrize("path", CATALOG_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_catalog_file_names_the_schema_for_editors(path):
    first = path.read_text(encoding="utf-8").splitlines()[0]
    match = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
    assert match, first
    assert (path.parent / match.group(1)).resolve() == SCHEMAS / "catalog.schema.json"


# A catalog that has every optional part the mini fixture lacks: value_layouts, upstream
# files, url, seed and branch sources, a malformation, a removed and a renamed code, label overrides.
def full_catalog() -> dict:
    doc = read_yaml(MINI)
    doc["site"].update(description={"zh": "演示用的状态码", "en": "Status codes for a demonstration"},
                       families=["demo"], labels={"home": {"en": "Start"}})
    family = doc["family"]
    family["site_path"] = ""
    family["c"].update(macro_prefix="DEMO_", literals="decimal")
    family["value_layouts"] = [{"macro": "DEMO_DEFINE", "arguments": ["kind", "name", "value"],
                               "fields": {"kind": {"shift": 8, "mask": 255}, "value": {"shift": 0, "mask": 255}}}]
    family["runtime_constants"] = {"ACL_DEMO": 7}
    family["upstream"] = [{"repo": "demo/repo", "path": "include/demo.h", "kind": "header", "header": "demo/demo.h"},
                          {"repo": "demo/repo", "path": "python/status.py", "kind": "python"}]
    family["discover"] = [r"(?i)^docs/.*demo.*\.md$"]
    versions = doc["versions"]
    versions["old"][0]["sources"] += [
        {"url": "https://example.org/demo/1.0/codes.html", "lang": "zh"},
        {"seed": "000", "lang": "en"},
    ]
    versions["old"][0]["notes"] = {"zh": "只读了行", "en": "rows only"}
    versions["old"][0]["editions"] = {
        "1.0": {"sources": [{"seed": "001", "lang": "zh"}], "notes": {"zh": "一版", "en": "one"}}
    }
    versions["new"][0]["malformations"] = [
        {
            "kind": "merge conflict",
            "code": "DEMO_BUSY",
            "field": "solution",
            "line": 12,
            "shown": "HEAD",
            "sides": {"HEAD": "稍后重试", "abc1234": "请稍后再试"},
        }
    ]
    versions["new"][0]["superseded"] = [
        {"edition": "unreleased-new", "commit": "0123456789abcdef0123456789abcdef01234567"}
    ]
    versions["new"].append(
        {
            "version": "unreleased-new",
            "based_on": "2.0-new",
            "sources": [
                {
                    "repo": "demo/repo",
                    "path": "docs/demo.md",
                    "commit": "0123456789abcdef0123456789abcdef01234567",
                    "branch": "main",
                }
            ],
            "texts": "not known",
            "order": "page",
            "rows": {"DEMO_OK": "dropped", "DEMO_ODD": {"recoverable": "no", "before": "DEMO_BUSY"}},
        }
    )
    page = next(p for p in family["pages"] if any(t["id"] == "new" for t in p["timelines"]))
    versions["new"][-1]["sources"][0]["page"] = {
        "title": "演示错误码", "table": "spaced", "header": [f"列{n}" for n in range(len(page["columns"]))],
        "before": ["错误码定义如下。", {"code": {"fence": "cpp", "open": ["namespace demo {"],
                                                  "line": "constexpr Status {name} = {literal}U;",
                                                  "close": ["}  // namespace demo"], "values": [0, 255]}}],
        "after": ["更多信息见 `demo.h`。"], "labels": {"n/a": "不涉及"}, "note": "说明：", "unclosed": ["DEMO_OK"],
        "bom": True}
    doc["codes"][3]["removed"] = {"demo/repo": "2.0"}
    doc["codes"][2]["renamed"] = [{"c": "DEMO_C_OLD", "until": {"demo/repo": "2.0"}}]
    assert doc["codes"][1]["meaning"][1]["from"] == ["2.0-cpp"]
    doc["codes"][1]["meaning"][1] = {"from": ["2.0-cpp"], "zh": "很忙", "untranslated": ["en"], "markdown": True}
    # The broken documents below name their places by these positions.
    assert [c.get("python") or c["c"] for c in doc["codes"]] == ["DEMO_OK", "DEMO_BUSY", "DEMO_C_ONLY", "DEMO_ODD"]
    assert [(t, v["version"]) for t, vs in versions.items() for v in vs] == [
        ("old", "1.0"), ("new", "2.0-new"), ("new", "unreleased-new"), ("cpp", "2.0-cpp")]
    return doc


def write_catalog(doc: dict, directory: Path, name: str = "catalog.yaml") -> Path:
    """The document as a catalog file: JSON is YAML 1.2, read by the generator's strict reader."""
    path = directory / name
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def full_file(tmp_path_factory) -> Path:
    return write_catalog(full_catalog(), tmp_path_factory.mktemp("full"))


def test_full_catalog_is_valid_for_the_loader_and_the_schema_and_so_is_its_export(full_file, tmp_path):
    load_catalog(full_file)
    assert errors(CATALOG, full_catalog()) == []
    result = run_cli("generate", "--catalog", full_file, "--out", tmp_path)
    assert result.code == 0, result.err
    export = json.loads((tmp_path / "generated" / "json" / "demo_codes.json").read_text(encoding="utf-8"))
    assert errors(EXPORT, export) == []
    kinds = {s["kind"] for e in export["editions"] for s in e["sources"]}
    assert kinds == {"repo", "url", "seed", "document"} and any(
        "branch" in s for e in export["editions"] for s in e["sources"]
    )
    assert export["family"]["value_layouts"] and any(c["removed"] for c in export["codes"]) and any(
        c["renamed"] for c in export["codes"])


# -- the schemas' fields are the generator's ----------------------------------------------


@pytest.mark.parametrize("ref, fields", [
    ("#", CATALOG_SECTIONS + FAMILY_SECTIONS),
    ("#/$defs/site", catalog_site._SITE_FIELDS),
    ("#/$defs/family", catalog_family._FAMILY_FIELDS),
    ("#/$defs/python", catalog_family._PYTHON_FIELDS),
    ("#/$defs/c", catalog_family._C_FIELDS),
    ("#/$defs/page", family_pages.PAGE_FIELDS),
    ("#/$defs/page/properties/headings", COLUMN_KEYS),
    ("#/$defs/timeline", family_pages.TIMELINE_FIELDS),
    ("#/$defs/family/properties/recoverable_labels", RECOVERABLE_VALUES),
    ("#/$defs/version", catalog_versions._VERSION_FIELDS),
    ("#/$defs/source", catalog_versions._SOURCE_FIELDS),
    ("#/$defs/code", catalog_codes._CODE_FIELDS),
], ids=lambda v: v if isinstance(v, str) else None)
def test_catalog_schema_fields_are_the_loaders(ref, fields):
    assert sorted(keys(CATALOG_SCHEMA, ref)) == sorted(fields)


def test_catalog_schema_required_fields_and_choices_are_the_loaders():
    defs = CATALOG_SCHEMA["$defs"]
    assert sorted(defs["family"]["required"]) == sorted(catalog_family._REQUIRED)
    assert sorted(defs["family"]["properties"]["recoverable_labels"]["required"]) == sorted(RECOVERABLE_VALUES)
    assert [branch["required"][0] for branch in defs["source"]["oneOf"]] == list(catalog_versions._SOURCE_KINDS)
    assert defs["recoverable"]["enum"] == list(RECOVERABLE_VALUES)
    assert defs["column"]["enum"] == list(COLUMN_KEYS)
    assert defs["textEntry"]["properties"]["origin"]["enum"] == list(TEXT_ORIGINS)
    assert sorted(defs["code"]["properties"][f]["$ref"] for f in TEXT_FIELDS) == ["#/$defs/textEntries"] * len(
        TEXT_FIELDS
    )
    assert defs["malformation"]["properties"]["field"]["enum"] == ["name", "recoverable", *TEXT_FIELDS]
    assert defs["family"]["properties"]["upstream"]["items"]["properties"]["kind"]["enum"] == list(
        catalog_family.UPSTREAM_KINDS
    )
    assert defs["site"]["properties"]["labels"]["propertyNames"]["enum"] == list(default_labels())


@pytest.mark.parametrize("ref, regex", [
    ("#/$defs/source/properties/commit", catalog_versions.COMMIT),
    ("#/$defs/editionId", catalog_versions.EDITION_ID),
    ("#/$defs/repoName", catalog_site.REPO_NAME),
    ("#/$defs/identifier", fields_module.IDENTIFIER),
    ("#/$defs/qualifiedName", catalog_codes.CPP_NAME),
    ("#/$defs/family/properties/id", catalog_family.FAMILY_ID),
    ("#/$defs/family/properties/site_path", catalog_family.SITE_PATH),
    ("#/$defs/family/properties/sphinx_directive", catalog_family.DIRECTIVE),
    ("#/$defs/pageId", family_pages.PAGE_ID),
    ("#/$defs/timeline/properties/suffix", family_pages.SUFFIX),
    # The loader's `\"` in a character class is `"`; ECMA-262 in unicode mode refuses the escape.
    ("#/$defs/url", re.compile(catalog_site.URL.pattern.replace('\\"', '"'))),
], ids=lambda v: v if isinstance(v, str) else None)
def test_catalog_schema_patterns_are_the_loaders(ref, regex):
    assert pointer(CATALOG_SCHEMA, ref)["pattern"] == regex.pattern


def test_length_limits_and_ranges_are_the_loaders():
    defs = CATALOG_SCHEMA["$defs"]
    assert (
        defs["editionId"]["maxLength"]
        == EXPORT_SCHEMA["$defs"]["editionId"]["maxLength"]
        == catalog_versions.MAX_EDITION_ID
    )
    assert (
        defs["identifier"]["maxLength"] == EXPORT_SCHEMA["$defs"]["identifier"]["maxLength"] == fields_module.MAX_NAME
    )
    value = defs["code"]["properties"]["value"]
    assert (value["minimum"], value["maximum"]) == catalog_codes.PYTHON_RANGE
    c_value = defs["code"]["then"]["properties"]["value"]
    assert (c_value["minimum"], c_value["maximum"]) == catalog_codes.C_RANGE


RELEASES = sorted({e.release for f in load_catalog(ROOT / "catalog").families for e in f.editions})


@pytest.mark.parametrize("schema", [CATALOG_SCHEMA, EXPORT_SCHEMA], ids=["catalog", "export"])
def test_release_pattern_accepts_what_the_loader_accepts(schema):
    pattern = re.compile(schema["$defs"]["release"]["pattern"])
    samples = RELEASES + ["1", "10.2", "9.2.0-beta.2.pre", "8.0.RC3", "1.0-rc.1", "unreleased",
                          "", "v9.0.0", "9..0", "9.0.", "9.0.0-", "9.0.0-1", "-1.0", "9.0.0 beta", "next"]
    assert len(RELEASES) > 5
    for sample in samples:
        assert bool(pattern.search(sample)) == (release_key(sample) is not None), sample


def test_export_schema_fields_are_the_models():
    defs = EXPORT_SCHEMA["$defs"]
    model = lambda cls: {f.name for f in dataclasses.fields(cls) if f.name != "pos"}  # noqa: E731
    # the export writes the catalog's key `class` for the model's `class_name`
    assert set(defs["pythonNames"]["properties"]) == {"class" if n == "class_name" else n for n in model(PythonNames)}
    assert set(defs["cNames"]["properties"]) == model(CNames)
    branches = defs["source"]["oneOf"]
    assert [b["properties"]["kind"]["const"] for b in branches] == list(catalog_versions._SOURCE_KINDS)
    assert set().union(*(b["properties"] for b in branches)) == model(Source)
    assert defs["recoverable"]["enum"] == list(RECOVERABLE_VALUES)
    assert defs["origin"]["enum"] == [TEXT_ORIGINS[0], PROPOSED, *TEXT_ORIGINS[1:], UNTRANSLATED]
    assert defs["column"]["enum"] == list(COLUMN_KEYS)
    assert defs["textField"]["enum"] == list(TEXT_FIELDS)
    assert defs["commit"]["pattern"] == catalog_versions.COMMIT.pattern
    assert defs["editionId"]["pattern"] == catalog_versions.EDITION_ID.pattern
    assert defs["repoName"]["pattern"] == catalog_site.REPO_NAME.pattern
    assert defs["identifier"]["pattern"] == fields_module.IDENTIFIER.pattern


# Every mapping the loader reads, at every level (also those whose fields are written
# inline in the loader, not as a tuple): its fields are the schema's at the same place.

def _branches(node: dict):
    while "$ref" in node:
        node = pointer(CATALOG_SCHEMA, node["$ref"])
    yield node
    for key in ("anyOf", "oneOf", "allOf"):
        for sub in node.get(key, ()):
            yield from _branches(sub)


def _child(node: dict, key) -> dict:
    for branch in _branches(node):
        if isinstance(key, int):
            if "items" in branch:
                return branch["items"]
            continue
        if key in branch.get("properties", {}):
            return branch["properties"][key]
        for pattern, sub in branch.get("patternProperties", {}).items():
            if re.search(pattern, key):
                return sub
        if isinstance(branch.get("additionalProperties"), dict):
            return branch["additionalProperties"]
    raise LookupError(key)


def _object_at(path: tuple) -> dict:
    node = CATALOG_SCHEMA
    for key in path:
        node = _child(node, key)
    (obj,) = [b for b in _branches(node) if b.get("type") == "object"]
    return obj


def _fixed_objects(node, found: dict) -> dict:
    if isinstance(node, dict):
        if node.get("type") == "object" and node.get("additionalProperties") is False:
            found[id(node)] = node
        for value in node.values():
            _fixed_objects(value, found)
    elif isinstance(node, list):
        for value in node:
            _fixed_objects(value, found)
    return found


def _node_paths(root) -> dict[int, tuple]:
    paths, stack = {}, [(root, ())]
    while stack:
        node, path = stack.pop()
        paths[id(node)] = path
        if isinstance(node, MappingNode):
            stack.extend((value, path + (key.value,)) for key, value in node.value)
        elif isinstance(node, SequenceNode):
            stack.extend((value, path + (i,)) for i, value in enumerate(node.value))
    return paths


def test_every_mapping_the_loader_reads_has_the_schemas_fields(full_file, monkeypatch):
    calls, paths = [], {}
    original = Fields.mapping

    def spy(self, node, what, required=(), optional=(), free_keys=False):
        required, optional = tuple(required), tuple(optional)
        if Path(self.doc.path).name == full_file.name:
            if id(self.doc) not in paths:
                paths[id(self.doc)] = _node_paths(self.doc.root)
            calls.append((paths[id(self.doc)][id(node)], required, optional, free_keys))
        return original(self, node, what, required, optional, free_keys)

    monkeypatch.setattr(Fields, "mapping", spy)
    load_catalog(full_file)
    doc = full_catalog()
    languages = set(doc["site"]["languages"]) | set(doc["family"]["languages"])
    headings = CATALOG_SCHEMA["$defs"]["page"]["properties"]["headings"]
    fixed = _fixed_objects(CATALOG_SCHEMA, {})
    seen: dict[int, list] = {}
    for path, required, optional, free_keys in calls:
        obj = _object_at(path)
        if free_keys:
            assert obj.get("additionalProperties") is not False, path
            continue
        assert obj.get("additionalProperties") is False, path
        seen.setdefault(id(obj), []).append((path, set(required), set(required) | set(optional)))
    for key, uses in seen.items():
        obj = fixed[key]
        where = [u[0] for u in uses][:3]
        accepted = set().union(*(u[2] for u in uses))
        assert set(obj.get("properties", {})) == accepted - languages, where
        lang_keys = any(re.search(p, lang) for p in obj.get("patternProperties", {}) for lang in languages)
        assert lang_keys == bool(accepted & languages), where
        loader_required = set.intersection(*(u[1] for u in uses)) - languages
        schema_required = set(obj.get("required", ()))
        assert schema_required <= loader_required, where  # never stricter than the loader
        if obj is not headings:  # a page's headings are required for exactly its own columns
            assert schema_required == loader_required, where
    unvisited = [o.get("description", sorted(o.get("properties", {}))) for k, o in fixed.items() if k not in seen]
    assert unvisited == []


# -- broken documents are refused ----------------------------------------------------------


def _set(path, value):
    def mutate(doc):
        *parents, last = path
        node = doc
        for key in parents:
            node = node[key]
        if value is _DELETE:
            del node[last]
        else:
            node[last] = value
    return mutate


_DELETE = object()
COMMIT = "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678"

# (what, mutation, where the schema reports it, what the loader says)
BROKEN_CATALOGS = [
    ("unknown key in a code", _set(("codes", 0, "colour"), "red"), ("codes", 0), "unknown field 'colour'"),
    ("unknown top-level section", _set(("sites",), {}), (), "unknown field 'sites'"),
    (
        "unknown key in a source",
        _set(("versions", "new", 0, "sources", 0, "sha"), COMMIT),
        ("versions", "new", 0, "sources", 0),
        "unknown field 'sha'",
    ),
    (
        "wrong recoverable value",
        _set(("versions", "new", 0, "rows", "DEMO_BUSY"), "maybe"),
        ("versions", "new", 0, "rows", "DEMO_BUSY"),
        "'maybe'",
    ),
    (
        "recoverable as a YAML 1.1 boolean",
        _set(("versions", "new", 0, "rows", "DEMO_BUSY"), True),
        ("versions", "new", 0, "rows", "DEMO_BUSY"),
        "must be text",
    ),
    (
        "wrong recoverable in another language",
        _set(("versions", "cpp", 0, "rows", "DEMO_C_ONLY", "en"), "yes!"),
        ("versions", "cpp", 0, "rows", "DEMO_C_ONLY"),
        "'yes!'",
    ),
    (
        "commit of 39 hex digits",
        _set(("versions", "new", 0, "sources", 0, "commit"), COMMIT[:39]),
        ("versions", "new", 0, "sources", 0),
        "commit must be 40",
    ),
    (
        "commit of 41 hex digits",
        _set(("versions", "new", 0, "sources", 0, "commit"), COMMIT + "0"),
        ("versions", "new", 0, "sources", 0),
        "commit must be 40",
    ),
    (
        "commit in upper case",
        _set(("versions", "new", 0, "sources", 0, "commit"), COMMIT.upper()),
        ("versions", "new", 0, "sources", 0),
        "commit must be 40",
    ),
    (
        "repository source without tags or branch",
        _set(("versions", "new", 0, "sources", 0, "tags"), _DELETE),
        ("versions", "new", 0, "sources", 0),
        "names the tags that ship the file",
    ),
    (
        "source of two kinds",
        _set(("versions", "new", 0, "sources", 0, "url"), "https://example.org/x"),
        ("versions", "new", 0, "sources", 0),
        "exactly one of",
    ),
    (
        "missing texts of a version",
        _set(("versions", "old", 0, "texts"), _DELETE),
        ("versions", "old", 0),
        "missing field 'texts'",
    ),
    ("missing value of a code", _set(("codes", 1, "value"), _DELETE), ("codes", 1), "missing field 'value'"),
    (
        "missing shape of the Python module",
        _set(("family", "python", "shape"), _DELETE),
        ("family", "python"),
        "missing field 'shape'",
    ),
    (
        "missing recoverable label",
        _set(("family", "recoverable_labels", "not known"), _DELETE),
        ("family", "recoverable_labels"),
        "missing field 'not known'",
    ),
    ("code with neither name", _set(("codes", 2, "c"), _DELETE), ("codes", 2), "needs a python name, a c name"),
    ("old catalog format", _set(("format",), 1), ("format",), "format 1 is not supported"),
    (
        "the format before page versions",
        _set(("format",), 2),
        ("format",),
        "convert it with scripts/migrate_to_versions.py",
    ),
    (
        "exception in a constants module",
        _set(("family", "python", "shape"), "constants"),
        ("family", "python"),
        "belongs to the enum shape",
    ),
    (
        "exception without default_status",
        _set(("family", "python", "default_status"), _DELETE),
        ("family", "python"),
        "exception needs default_status",
    ),
    ("C value beyond uint32_t", _set(("codes", 2, "value"), 2**32), ("codes", 2, "value"), "out of range"),
    ("negative C value", _set(("codes", 0, "value"), -1), ("codes", 0, "value"), "out of range"),
    (
        "number where text is meant",
        _set(("family", "pages", 0, "title", "zh"), 8.1),
        ("family", "pages", 0, "title", "zh"),
        "must be text",
    ),
    ("empty text", _set(("codes", 0, "meaning", 0, "zh"), "  "), ("codes", 0, "meaning", 0, "zh"), "must not be empty"),
    (
        "translated outside upstream words",
        _set(("family", "name", "translated"), ["en"]),
        ("family", "name"),
        "unknown field 'translated'",
    ),
    (
        "text entry without text",
        _set(("codes", 0, "meaning", 0), {"from": ["2.0-new"], "origin": "translation"}),
        ("codes", 0, "meaning", 0),
        "gives no text",
    ),
    (
        "unknown text origin",
        _set(("codes", 1, "cause", 1, "origin"), "machine"),
        ("codes", 1, "cause", 1, "origin"),
        "'machine'",
    ),
    (
        "columns without recoverable",
        _set(("family", "pages", 0, "columns"), ["name", "meaning", "solution"]),
        ("family", "pages", 0, "columns"),
        "must include name and recoverable",
    ),
    (
        "timeline in a repository without paths",
        _set(("family", "pages", 0, "timelines", 1, "paths"), _DELETE),
        ("family", "pages", 0, "timelines", 1),
        "lists its `paths`",
    ),
    (
        "version id with a space",
        _set(("versions", "old", 0, "version"), "1.0 old"),
        ("versions", "old", 0, "version"),
        "may hold only letters",
    ),
    (
        "version id too long",
        _set(("versions", "old", 0, "version"), "1." + "0" * 63),
        ("versions", "old", 0, "version"),
        "at most 64",
    ),
    (
        "release that is no release",
        _set(("versions", "old", 0, "release"), "v1.0"),
        ("versions", "old", 0, "release"),
        "is no release",
    ),
    (
        "text entry starting nowhere",
        _set(("codes", 0, "meaning", 0, "from"), []),
        ("codes", 0, "meaning", 0, "from"),
        "starts at no version",
    ),
    (
        "untranslated of no language",
        _set(("codes", 1, "meaning", 1, "untranslated"), ["English"]),
        ("codes", 1, "meaning", 1, "untranslated", 0),
        "'English'",
    ),
    (
        "superseded commit too short",
        _set(("versions", "new", 0, "superseded", 0, "commit"), "0123"),
        ("versions", "new", 0, "superseded", 0, "commit"),
        "40 lower-case hex",
    ),
    (
        "repository not OWNER/NAME",
        _set(("repositories", "demo"), {"url": "https://example.org/demo", "default_branch": "main"}),
        ("repositories",),
        "must be OWNER/NAME",
    ),
    (
        "url with a space",
        _set(("repositories", "demo/repo", "url"), "https://example.org/demo repo"),
        ("repositories", "demo/repo", "url"),
        "http(s) URL",
    ),
    (
        "qualified C++ name unqualified",
        _set(("codes", 2, "cpp", 0), "DEMO_C_ONLY"),
        ("codes", 2, "cpp", 0),
        "must be qualified",
    ),
    (
        "value_layout without name",
        _set(("family", "value_layouts", 0, "arguments"), ["kind", "value"]),
        ("family", "value_layouts", 0, "arguments"),
        "must name the argument `name`",
    ),
    (
        "shift beyond 31",
        _set(("family", "value_layouts", 0, "fields", "kind", "shift"), 32),
        ("family", "value_layouts", 0, "fields", "kind", "shift"),
        "shift must be 0..31",
    ),
    (
        "upstream header without header",
        _set(("family", "upstream", 0, "header"), _DELETE),
        ("family", "upstream", 0),
        "a header needs `header:`",
    ),
    (
        "malformation with one side",
        _set(("versions", "new", 0, "malformations", 0, "sides"), {"HEAD": "x"}),
        ("versions", "new", 0, "malformations", 0, "sides"),
        "at least two sides",
    ),
    (
        "renamed until no release",
        _set(("codes", 2, "renamed", 0, "until"), {"demo/repo": "v9"}),
        ("codes", 2, "renamed", 0, "until", "demo/repo"),
        "is no release",
    ),
    (
        "added in no release",
        _set(("codes", 3, "added"), {"demo/repo": "v2"}),
        ("codes", 3, "added", "demo/repo"),
        "is no release",
    ),
    (
        "label override of no label",
        _set(("site", "labels", "homepage"), {"en": "Start"}),
        ("site", "labels"),
        "no label 'homepage'",
    ),
    (
        "language that is no ISO code",
        _set(("site", "languages"), ["zh", "English"]),
        ("site", "languages", 1),
        "lower-case ISO 639",
    ),
]


@pytest.mark.parametrize("what, mutate, where, message", BROKEN_CATALOGS, ids=[b[0] for b in BROKEN_CATALOGS])
def test_broken_catalog_is_refused_by_the_schema_and_the_loader(what, mutate, where, message, tmp_path):
    doc = full_catalog()
    mutate(doc)
    found = list(CATALOG.iter_errors(doc))
    assert found, f"the schema accepts a catalog with {what}"
    assert all(tuple(e.absolute_path)[: len(where)] == where for e in found), [
        (list(e.absolute_path), e.message) for e in found
    ]
    with pytest.raises(CatalogError) as refused:
        load_catalog(write_catalog(doc, tmp_path))
    assert message in str(refused.value), str(refused.value)


BROKEN_EXPORTS = [
    ("unknown key in a code", lambda d: d["codes"][0].update(colour="red"), ("codes", 0)),
    ("unknown top-level key", lambda d: d.update(site={}), ()),
    (
        "wrong recoverable value",
        lambda d: d["editions"][1]["rows"][0].update(recoverable="maybe"),
        ("editions", 1, "rows", 0, "recoverable"),
    ),
    (
        "wrong recoverable in a code's edition",
        lambda d: d["codes"][0]["editions"]["2.0-new"].update(recoverable="No"),
        ("codes", 0, "editions", "2.0-new", "recoverable"),
    ),
    (
        "commit of 39 hex digits",
        lambda d: d["editions"][1]["sources"][0].update(commit=COMMIT[:39]),
        ("editions", 1, "sources", 0),
    ),
    (
        "url source with a commit",
        lambda d: d["editions"][0]["sources"][0].update(kind="url", url="https://example.org/x", commit=COMMIT),
        ("editions", 0, "sources", 0),
    ),
    (
        "source of no kind",
        lambda d: d["editions"][0]["sources"][0].update(kind="mirror"),
        ("editions", 0, "sources", 0),
    ),
    ("missing hex", lambda d: d["codes"][0].pop("hex"), ("codes", 0)),
    (
        "missing texts of a listed code",
        lambda d: d["codes"][0]["editions"]["2.0-new"].pop("texts"),
        ("codes", 0, "editions", "2.0-new"),
    ),
    ("missing generator", lambda d: d.pop("generator"), ()),
    ("old export format", lambda d: d.update(format=1), ("format",)),
    (
        "exception in a constants module",
        lambda d: d["family"]["python"].update(shape="constants"),
        ("family", "python"),
    ),
    ("lower-case hex", lambda d: d["codes"][2].update(hex="0x0000001a", value=26), ("codes", 2, "hex")),
    ("C value beyond uint32_t", lambda d: d["codes"][2].update(value=2**32, hex="0x100000000"), ("codes", 2)),
    ("code with neither name", lambda d: d["codes"][2].update(c=None), ("codes", 2)),
    ("released unreleased edition", lambda d: d["editions"][0].update(release="unreleased"), ("editions", 0)),
    ("repository copy without -repo", lambda d: d["editions"][0].update(repository_copy=True), ("editions", 0)),
    (
        "edition id with a space",
        lambda d: d["codes"][0]["listing_not_known"].append("2.0 new"),
        ("codes", 0, "listing_not_known", 0),
    ),
    (
        "position 0",
        lambda d: d["codes"][0]["editions"]["2.0-new"].update(position=0),
        ("codes", 0, "editions", "2.0-new", "position"),
    ),
    (
        "text without origin",
        lambda d: d["codes"][0]["editions"]["2.0-new"]["texts"]["meaning"]["zh"].pop("origin"),
        ("codes", 0, "editions", "2.0-new", "texts", "meaning"),
    ),
    (
        "text column that is no column",
        lambda d: d["codes"][0]["editions"]["2.0-new"]["texts"].update(reason=None),
        ("codes", 0, "editions", "2.0-new", "texts"),
    ),
]


@pytest.mark.parametrize("what, mutate, where", BROKEN_EXPORTS, ids=[b[0] for b in BROKEN_EXPORTS])
def test_broken_export_is_refused(what, mutate, where, mini_export):
    doc = copy.deepcopy(mini_export)
    assert errors(EXPORT, doc) == []
    mutate(doc)
    found = list(EXPORT.iter_errors(doc))
    assert found, f"the schema accepts an export with {what}"
    assert all(tuple(e.absolute_path)[: len(where)] == where for e in found), [
        (list(e.absolute_path), e.message) for e in found
    ]
