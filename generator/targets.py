"""The one table of outputs: what `generate`, `check`, `targets` and the docs all read.

Each target names where its files go, as a pattern over the family's data;
`plan_outputs` expands the table into Outputs (nothing is rendered yet). A
family's targets are owned by that family; the site's shared files by SITE.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Optional

from generator.model import Catalog, Family
from generator.outputs import manifest_path
from generator.outputs_model import SITE, Output
from generator.render_c import plan_c
from generator.render_json import plan_json
from generator.render_python import plan_python
from generator.site import pages as site_pages
from generator.site import shared as site_shared


@dataclass(frozen=True)
class Target:
    name: str
    scope: str  # "family" or "site"
    pattern: str  # where its files go
    description: str
    plan: Optional[Callable[..., list[Output]]]


TARGETS = (
    Target("python", "family", "generated/python/{python.module}.py",
           "the Python module to vendor (an IntEnum, or constants and lookup())", plan_python),
    Target("c", "family", "generated/c/{c.header}.h", "the C/C++ header", plan_c),
    Target("json", "family", "generated/json/{python.module}.json", "the family's catalog, resolved, for other tools", plan_json),
    Target("site-family", "family", "site/docs/{site_path}/index.{lang}.md",
           "the family's overview page (not for the family at the site's root)", site_pages.plan_family_page),
    Target("site-codes", "family", "site/docs/{prefix}codes/index.{lang}.md  site/docs/{prefix}codes/{NAME}.{lang}.md",
           "the list of codes, and one page per code", site_pages.plan_code_pages),
    Target("site-editions", "family", "site/docs/{prefix}editions/index.{lang}.md  site/docs/{prefix}editions/{ID}.{lang}.md",
           "the list of editions, and one page per edition", site_pages.plan_edition_pages),
    Target("site-differences", "family", "site/docs/{prefix}differences.{lang}.md",
           "what changed between editions, with the presence pictures", site_pages.plan_differences),
    Target("manifest", "family", f"{manifest_path('{id}')}", "what the generator wrote for the family", None),
    Target("site-home", "site", "site/docs/index.{lang}.md", "the home page: every family, how to look a code up",
           site_shared.plan_home),
    Target("site-config", "site", "site/mkdocs.yml  site/overrides/*  site/hooks/*  site/docs/assets/*",
           "the MkDocs config, theme overrides, hooks, styles, scripts and search indexes", site_shared.plan_assets),
    Target("site-manifest", "site", manifest_path(SITE), "what the generator wrote for the site's shared files", None),
)


def plan_outputs(catalog: Catalog, families: Optional[Iterable[str]] = None) -> tuple[list[Output], list[str]]:
    """Every output of the chosen families (all by default) and the site's shared files,
    sorted by path, and the owners whose manifests they complete."""
    chosen = [f for f in catalog.families if families is None or f.id in set(families)]
    outputs: list[Output] = []
    for target in TARGETS:
        if target.plan is None:
            continue
        if target.scope == "site":
            planned = [(o, sum(len(f.codes) for f in catalog.families)) for o in target.plan(catalog)]
        else:
            planned = [(o, len(family.codes)) for family in chosen for o in target.plan(catalog, family)]
        for output, codes in planned:
            output.weight = output.weight or max(codes, 1)
            outputs.append(output)
    seen: dict[str, Output] = {}
    for output in outputs:
        if output.path in seen:
            raise AssertionError(f"two targets render {output.path}")  # pragma: no cover - paths come from unique names
        seen[output.path] = output
    owners = [f.id for f in chosen] + [SITE]
    return sorted(outputs, key=lambda o: o.path), owners


def describe_targets(catalog: Optional[Catalog] = None) -> str:
    """The table of targets, with each family's paths when a catalog is given."""
    lines = ["| target | owner | path | what |", "| --- | --- | --- | --- |"]
    for target in TARGETS:
        owner = "each family" if target.scope == "family" else "the site"
        lines.append(f"| {target.name} | {owner} | `{target.pattern}` | {target.description} |")
    if catalog is not None:
        lines.append("")
        for family in catalog.families:
            lines.append(f"{family.id}: {family_paths(family)}")
    return "\n".join(lines) + "\n"


def family_paths(family: Family) -> str:
    # a family under its own prefix has an overview page there; the root family's is the site's home
    return ", ".join((f"generated/python/{family.python.module}.py", f"generated/c/{family.c.header}.h",
                      f"generated/json/{family.python.module}.json",
                      f"site/docs/{family.prefix}" + ("{index,codes,editions,differences}" if family.prefix else "{codes,editions,differences}")))
