"""The one table of outputs: what `generate`, `check`, `targets` and the docs all read.

Each target names where its files go (a pattern over the family's data) and the function
that plans them. `plan_outputs` expands the table into Outputs (nothing is rendered yet).
Every run renders every output and writes only the files whose bytes changed. A family's
targets are owned by that family; the site's shared files by SITE, and they read every family.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Optional

from generator.domain.family import Catalog, Family
from generator.rendering.output import SITE, Output, Planned, manifest_path
from generator.rendering.c_header import plan_c
from generator.rendering.json_export import plan_json
from generator.rendering.python_module import plan_python
from generator.rendering.message_module import plan_message_module
from generator.rendering.message_pages import plan_message_upstream
from generator.rendering.site.message_site import plan_message_site
from generator.rendering.schemas import plan_reference, plan_schemas
from generator.rendering.upstream_page import UPSTREAM_DIR, plan_upstream
from generator.rendering.site import pages as site_pages
from generator.rendering.site import home as site_home, search_index as site_search, theme as site_theme


@dataclass(frozen=True)
class Target:
    name: str
    scope: str  # "family" or "site"
    pattern: str  # where its files go
    description: str
    plan: Optional[Callable[..., list[Planned]]]
    banner: bool = True  # False: its files keep upstream's bytes, so only the manifest says the generator wrote one


TARGETS = (
    Target("python", "family", "generated/python/{python.module}.py",
           "the Python module to vendor (an IntEnum, or constants and lookup())",
           plan_python),
    Target("c", "family", "generated/c/{c.header}.h",
           "the C/C++ header",
           plan_c),
    Target("json", "family", "generated/json/{python.module}.json",
           "the family's catalog, resolved, for other tools",
           plan_json),
    Target("site-family", "family", "site/docs/{site_path}/index.{lang}.md",
           "the family's overview page (not for the family at the site's root)",
           site_pages.plan_family_page),
    Target("site-code-list", "family", "site/docs/{prefix}codes/index.{lang}.md",
           "the list of codes",
           site_pages.plan_code_list),
    Target("site-codes", "family", "site/docs/{prefix}codes/{NAME}.{lang}.md",
           "one page per code",
           site_pages.plan_code_pages),
    Target("site-edition-list", "family", "site/docs/{prefix}editions/index.{lang}.md",
           "the list of editions",
           site_pages.plan_edition_list),
    Target("site-editions", "family", "site/docs/{prefix}editions/{ID}.{lang}.md",
           "one page per edition",
           site_pages.plan_edition_pages),
    Target("site-differences", "family", "site/docs/{prefix}differences{,/PAGE,/PAGE/TIMELINE}.{lang}.md",
           "what changed between editions: an index, any two editions of a page compared, a picture per timeline",
           site_pages.plan_differences),
    Target("upstream", "family", UPSTREAM_DIR + "/{repo}/{path}",
           "each timeline's newest repository page, as upstream's own file (no banner: upstream's bytes)",
           plan_upstream, banner=False),
    Target("message-module", "messages", "generated/python/{module}.py  generated/json/{module}.json",
           "a family of messages: the module (lookup, match) and the export",
           plan_message_module),
    Target("message-upstream", "messages", UPSTREAM_DIR + "/{repo}/{folder}/{file,index}",
           "a family of messages: every page and the index, as upstream's own files (no banner: upstream's bytes)",
           plan_message_upstream, banner=False),
    Target("message-site", "messages", "site/docs/{site_path}/{index,codes/index,codes/ID}.{lang}.md",
           "a family of messages on the site: its overview, the list of its codes with their messages, a page per code",
           plan_message_site),
    Target("manifest", "family", f"{manifest_path('{id}')}",
           "what the generator wrote for the family",
           None),
    Target("site-home", "site", "site/docs/index.{lang}.md",
           "the home page: every family, how to look a code up",
           site_home.plan_home),
    Target("site-config", "site", "site/mkdocs.yml  site/overrides/*  site/hooks/*  site/docs/assets/*.{css,js}",
           "the MkDocs config, theme overrides, hooks, styles and scripts",
           site_theme.plan_assets),
    Target("site-search", "site", "site/docs/assets/search/index-{lang}.json",
           "the search index of each language",
           site_search.plan_search),
    Target("schemas", "site", "generated/schemas/{catalog,export}.schema.json",
           "the JSON Schemas of the catalog's files (for editors) and of the JSON export, from their declarations",
           plan_schemas),
    Target("catalog-reference", "site", "docs/catalog.md",
           "the catalog's field reference, from the declaration the schemas come from",
           plan_reference),
    Target("site-manifest", "site", manifest_path(SITE),
           "what the generator wrote for the site's shared files",
           None),
)

# The folders of the files that carry no banner (generated/upstream): an orphan there is told
# by the manifest alone, whether or not this run plans any file in them.
FOLDERS_WITHOUT_BANNER = tuple(sorted({t.pattern.partition("{")[0].rstrip("/") for t in TARGETS if not t.banner}))


def all_owners(catalog: Catalog) -> list[str]:
    """Every owner the catalog has, whichever families a run works on: a manifest of any
    other owner is a family's that the catalog no longer has."""
    return [f.id for f in catalog.families] + [f.id for f in catalog.message_families] + [SITE]


def plan_outputs(catalog: Catalog, families: Optional[Iterable[str]] = None) -> tuple[list[Output], list[str]]:
    """Every output of the chosen families (all by default) and the site's shared files,
    sorted by path, and the owners whose manifests they complete."""
    chosen = [f for f in catalog.families if families is None or f.id in set(families)]
    messages = [f for f in catalog.message_families if families is None or f.id in set(families)]
    outputs: dict[str, Output] = {}
    for target in TARGETS:
        if target.plan is None:
            continue
        if target.scope == "site":
            planned = [(SITE, p) for p in target.plan(catalog)]
        elif target.scope == "messages":
            planned = [(family.id, p) for family in messages for p in target.plan(catalog, family)]
        else:
            planned = [(family.id, p) for family in chosen for p in target.plan(catalog, family)]
        for owner, item in planned:
            if item.path in outputs:
                raise AssertionError(f"two targets render {item.path}")  # pragma: no cover - paths are unique
            outputs[item.path] = Output(item.path, owner, target.name, item.render)
    owners = [f.id for f in chosen] + [f.id for f in messages] + [SITE]
    return sorted(outputs.values(), key=lambda o: o.path), owners


def describe_targets(catalog: Optional[Catalog] = None) -> str:
    """The table of targets, with each family's paths when a catalog is given."""
    lines = ["| target | owner | path | what |", "| --- | --- | --- | --- |"]
    for target in TARGETS:
        owner = {"family": "each family", "messages": "each family of messages"}.get(target.scope, "the site")
        lines.append(f"| {target.name} | {owner} | `{target.pattern}` | {target.description} |")
    if catalog is not None:
        lines.append("")
        for family in catalog.families:
            lines.append(f"{family.id}: {family_paths(family)}")
        for messages in catalog.message_families:
            module = messages.module
            lines.append(f"{messages.id}: generated/python/{module}.py, generated/json/{module}.json, "
                         f"site/docs/{messages.prefix}{{index,codes}}")
    return "\n".join(lines) + "\n"


def family_paths(family: Family) -> str:
    # a family under its own prefix has an overview page there; the root family's is the site's home
    return ", ".join(
        (
            f"generated/python/{family.python.module}.py",
            f"generated/c/{family.c.header}.h",
            f"generated/json/{family.python.module}.json",
            f"site/docs/{family.prefix}"
            + ("{index,codes,editions,differences}" if family.prefix else "{codes,editions,differences}"),
        )
    )
