"""The JSON Schemas of the catalog's files and of the JSON export, generated from the one
declaration of each (generator.reading.format, generator.rendering.export_format): editors
read the first (each catalog file's first line names it), other tools the second."""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from generator.domain.family import Catalog
from generator.reading.format import FORMAT, CatalogFile
from generator.reading.site import default_labels
from generator.rendering.environment import banner_lines
from generator.rendering.export_format import export_schema
from generator.rendering.json_export import EXPORT_FORMAT
from generator.rendering.output import Planned

CATALOG_SCHEMA = "generated/schemas/catalog.schema.json"
EXPORT_SCHEMA = "generated/schemas/export.schema.json"
DRAFT = "https://json-schema.org/draft/2020-12/schema"


def plan_schemas(catalog: Catalog) -> list[Planned]:
    return [Planned(CATALOG_SCHEMA, render_catalog_schema), Planned(EXPORT_SCHEMA, render_export_schema)]


# Each schema comes from the code alone, never the catalog: rendered once a process (`serve`
# regenerates in one process at every save, and building them took a sixth of a regeneration).
@lru_cache(maxsize=1)
def render_catalog_schema() -> str:
    schema = CatalogFile.model_json_schema(by_alias=True)
    # the labels a catalog may override are those the generator ships
    labels = schema["$defs"]["Site"]["properties"]["labels"]
    labels["propertyNames"] = {"enum": sorted(default_labels())}
    return _document(f"CANN status-code catalog: one file of catalog/ (format {FORMAT})", schema)


@lru_cache(maxsize=1)
def render_export_schema() -> str:
    return _document(f"CANN status codes of one family, resolved (generated/json/*.json, format "
                            f"{EXPORT_FORMAT})", export_schema())


def _document(title: str, schema: dict[str, Any]) -> str:
    head = {"$schema": DRAFT, "$comment": " ".join(banner_lines()), "title": title}
    body = {key: value for key, value in schema.items() if key != "title"}
    return json.dumps({**head, **body}, indent=2, ensure_ascii=False) + "\n"
