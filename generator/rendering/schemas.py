"""The JSON Schemas of the catalog's files and of the JSON export, generated from the one
declaration of each (generator.reading.format, generator.rendering.export_format): editors
read the first (each catalog file's first line names it), other tools the second."""
from __future__ import annotations

import importlib.util
import json
import sys
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any

from generator.domain.family import Catalog
from generator.core.cache import remembered_text
from generator.reading import format as fmt
from generator.rendering import export_format, format_reference
from generator.reading.site import LABELS_FILE, default_labels
from generator.rendering.environment import banner_lines
from generator.rendering.export_format import export_schema
from generator.rendering.json_export import EXPORT_FORMAT
from generator.rendering.output import Planned

CATALOG_SCHEMA = "generated/schemas/catalog.schema.json"
EXPORT_SCHEMA = "generated/schemas/export.schema.json"
DRAFT = "https://json-schema.org/draft/2020-12/schema"


def plan_schemas(catalog: Catalog) -> list[Planned]:
    return [Planned(CATALOG_SCHEMA, render_catalog_schema), Planned(EXPORT_SCHEMA, render_export_schema)]


def plan_reference(catalog: Catalog) -> list[Planned]:
    return [Planned(format_reference.REFERENCE, render_reference)]


# Each schema, and the field reference, comes from the code alone, never the catalog: rendered once
# for the code that declares it (pydantic reads every declaration's source for its docstrings: a
# fifth of a run's CPU at the real catalog's size), and kept in the user's cache under a key of
# every file it reads.
@lru_cache(maxsize=None)
def _key() -> bytes:
    import pydantic

    from generator.core.project import project_version

    sources = [Path(str(module.__file__)).read_bytes()
               for module in (fmt, export_format, format_reference, sys.modules[__name__])]
    labels = LABELS_FILE.read_bytes()
    return b"\0".join([*sources, labels, pydantic.__version__.encode(), project_version().encode(),
                        sys.version.encode()])


@lru_cache(maxsize=1)
def described_format() -> ModuleType:
    """generator.reading.format loaded again, each field described by its docstring (the module a
    run validates with leaves them out, for speed)."""
    name = f"{fmt.__name__}.described"
    spec = importlib.util.spec_from_file_location(name, str(fmt.__file__))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # pydantic resolves the annotations in the module's namespace
    spec.loader.exec_module(module)
    return module


@lru_cache(maxsize=1)
def render_catalog_schema() -> str:
    return remembered_text("catalog.schema.json", _key(), _catalog_schema, _whole)


@lru_cache(maxsize=1)
def render_export_schema() -> str:
    return remembered_text("export.schema.json", _key(), _export_schema, _whole)


@lru_cache(maxsize=1)
def render_reference() -> str:
    return remembered_text("catalog.md", _key(), lambda: format_reference.reference(described_format()),
                           lambda text: text.startswith("<!-- ") and text.endswith("|\n"))


def _whole(text: str) -> bool:
    """Whether a kept schema is one this module writes (not a file cut short or edited)."""
    try:
        return text.endswith("}\n") and json.loads(text).get("$schema") == DRAFT
    except ValueError:
        return False


def _catalog_schema() -> str:
    schema = described_format().CatalogFile.model_json_schema(by_alias=True)
    # the labels a catalog may override are those the generator ships
    labels = schema["$defs"]["Site"]["properties"]["labels"]
    labels["propertyNames"] = {"enum": sorted(default_labels())}
    return _document(f"CANN status-code catalog: one file of catalog/ (format {fmt.FORMAT})", schema)


def _export_schema() -> str:
    return _document(f"CANN status codes of one family, resolved (generated/json/*.json, format "
                            f"{EXPORT_FORMAT})", export_schema())


def _document(title: str, schema: dict[str, Any]) -> str:
    head = {"$schema": DRAFT, "$comment": " ".join(banner_lines()), "title": title}
    body = {key: value for key, value in schema.items() if key != "title"}
    return json.dumps({**head, **body}, indent=2, ensure_ascii=False) + "\n"
