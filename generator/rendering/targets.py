"""The one table of outputs: what `generate`, `check`, `targets` and the docs all read.

Each target names where its files go (a pattern over the family's data), the
templates it renders, and the parts of the catalog its renders read
(generator.rendering.stamps): that row is the only place an output's inputs are declared.
`plan_outputs` expands the table into Outputs, each with its stamp (nothing is
rendered yet). A family's targets are owned by that family; the site's shared
files by SITE, and they read every family.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Callable, Iterable, Optional

from generator.rendering.stamps import Digests, Input
from generator.domain.family import Catalog, Family
from generator.rendering.output import SITE, Output, Planned, manifest_path
from generator.rendering.environment import template_digest
from generator.rendering.c_header import plan_c
from generator.rendering.json_export import plan_json
from generator.rendering.python_module import plan_python
from generator.rendering.format_reference import plan_reference
from generator.rendering.schemas import plan_schemas
from generator.rendering.upstream_page import UPSTREAM_DIR, plan_upstream
from generator.rendering.site import pages as site_pages
from generator.rendering.site import home as site_home, search_index as site_search, theme as site_theme
from generator.core.project import project_version

I = Input  # noqa: E741 - the rows below read better short
WHOLE_FAMILY = (I.FAMILY, I.EDITIONS, I.CODES, I.TEXTS)


@dataclass(frozen=True)
class Target:
    name: str
    scope: str  # "family" or "site"
    pattern: str  # where its files go
    description: str
    reads: tuple[Input, ...]  # the parts of the catalog its renders read: the only declaration
    templates: tuple[str, ...]  # templates and runtime files it renders (`runtime/NAME`)
    plan: Optional[Callable[..., list[Planned]]]
    banner: bool = True  # False: its files keep upstream's bytes, so only the manifest says the generator wrote one


TARGETS = (
    Target(
        "python",
        "family",
        "generated/python/{python.module}.py",
        "the Python module to vendor (an IntEnum, or constants and lookup())",
        WHOLE_FAMILY,
        ("python/enum_module.py.j2", "python/constants_module.py.j2", "runtime/module_runtime.py"),
        plan_python,
    ),
    Target("c", "family", "generated/c/{c.header}.h", "the C/C++ header", WHOLE_FAMILY, ("c/header.h.j2",), plan_c),
    Target(
        "json",
        "family",
        "generated/json/{python.module}.json",
        "the family's catalog, resolved, for other tools",
        (I.SITE, *WHOLE_FAMILY),
        (),
        plan_json,
    ),
    Target(
        "site-family",
        "family",
        "site/docs/{site_path}/index.{lang}.md",
        "the family's overview page (not for the family at the site's root)",
        (I.SITE, I.FAMILY, I.EDITIONS),
        (),
        site_pages.plan_family_page,
    ),
    Target(
        "site-code-list",
        "family",
        "site/docs/{prefix}codes/index.{lang}.md",
        "the list of codes",
        (I.SITE, *WHOLE_FAMILY),
        (),
        site_pages.plan_code_list,
    ),
    Target(
        "site-codes",
        "family",
        "site/docs/{prefix}codes/{NAME}.{lang}.md",
        "one page per code",
        (I.SITE, I.FAMILY, I.EDITIONS, I.CODE),
        (),
        site_pages.plan_code_pages,
    ),
    Target(
        "site-edition-list",
        "family",
        "site/docs/{prefix}editions/index.{lang}.md",
        "the list of editions",
        (I.SITE, I.FAMILY, I.EDITIONS),
        (),
        site_pages.plan_edition_list,
    ),
    Target(
        "site-editions",
        "family",
        "site/docs/{prefix}editions/{ID}.{lang}.md",
        "one page per edition",
        (I.SITE, I.FAMILY, I.CODES, I.EDITION, I.EDITION_TEXTS),
        (),
        site_pages.plan_edition_pages,
    ),
    Target(
        "site-differences",
        "family",
        "site/docs/{prefix}differences{,/PAGE,/PAGE/TIMELINE}.{lang}.md",
        "what changed between editions: an index, any two editions of a page compared, a picture per timeline",
        (I.SITE, *WHOLE_FAMILY),
        (),
        site_pages.plan_differences,
    ),
    Target(
        "upstream",
        "family",
        UPSTREAM_DIR + "/{repo}/{path}",
        "each timeline's newest repository page, as upstream's own file (no banner: upstream's bytes)",
        (I.FAMILY, I.CODES, I.EDITION, I.EDITION_TEXTS),
        (),
        plan_upstream,
        banner=False,
    ),
    Target("manifest", "family", f"{manifest_path('{id}')}", "what the generator wrote for the family", (), (), None),
    Target(
        "site-home",
        "site",
        "site/docs/index.{lang}.md",
        "the home page: every family, how to look a code up",
        (I.SITE, I.FAMILY, I.EDITIONS),
        (),
        site_home.plan_home,
    ),
    Target(
        "site-config",
        "site",
        "site/mkdocs.yml  site/overrides/*  site/hooks/*  site/docs/assets/*.{css,js}",
        "the MkDocs config, theme overrides, hooks, styles and scripts",
        (I.SITE, I.FAMILY, I.EDITIONS, I.CODES),
        (
            "site/mkdocs.yml.j2",
            "site/overrides/main.html.j2",
            "site/overrides/404.html.j2",
            "site/hooks/site.py.j2",
            "site/assets/extra.css",
            "site/assets/extra.js.j2",
            "site/assets/search-worker.js.j2",
        ),
        site_theme.plan_assets,
    ),
    Target(
        "site-search",
        "site",
        "site/docs/assets/search/index-{lang}.json",
        "the search index of each language",
        (I.SITE, *WHOLE_FAMILY),
        (),
        site_search.plan_search,
    ),
    Target(
        "schemas",
        "site",
        "generated/schemas/{catalog,export}.schema.json",
        "the JSON Schemas of the catalog's files (for editors) and of the JSON export, from their declarations",
        (),
        (),
        plan_schemas,
    ),
    Target(
        "catalog-reference",
        "site",
        "docs/catalog.md",
        "the catalog's field reference, from the declaration the schemas come from",
        (),
        (),
        plan_reference,
    ),
    Target(
        "site-manifest",
        "site",
        manifest_path(SITE),
        "what the generator wrote for the site's shared files",
        (),
        (),
        None,
    ),
)

# The folders of the files that carry no banner (generated/upstream): an orphan there is told
# by the manifest alone, whether or not this run plans any file in them.
FOLDERS_WITHOUT_BANNER = tuple(sorted({t.pattern.partition("{")[0].rstrip("/") for t in TARGETS if not t.banner}))


def output_stamp(target: Target, planned: Planned, families: Iterable[Family], digests: Digests) -> str:
    """A short hash of exactly what an output is rendered from: the parts its target reads
    (of its family, or of every family for the site's files), the target's templates, the
    output's code or edition and language, and the project's version."""
    parts = tuple(
        digests.part(part, family, planned.item, planned.lang) for family in families for part in target.reads
    )
    templates = tuple(template_digest(t) for t in target.templates)
    text = repr((project_version(), target.name, templates, planned.item, planned.lang, parts))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def all_owners(catalog: Catalog) -> list[str]:
    """Every owner the catalog has, whichever families a run works on: a manifest of any
    other owner is a family's that the catalog no longer has."""
    return [f.id for f in catalog.families] + [SITE]


def plan_outputs(catalog: Catalog, families: Optional[Iterable[str]] = None) -> tuple[list[Output], list[str]]:
    """Every output of the chosen families (all by default) and the site's shared files,
    sorted by path, and the owners whose manifests they complete."""
    chosen = [f for f in catalog.families if families is None or f.id in set(families)]
    digests = Digests(catalog)
    outputs: dict[str, Output] = {}
    for target in TARGETS:
        if target.plan is None:
            continue
        if target.scope == "site":
            planned = [(SITE, p, catalog.families) for p in target.plan(catalog, digests)]
        else:
            planned = [(family.id, p, (family,)) for family in chosen for p in target.plan(catalog, family, digests)]
        for owner, item, read in planned:
            if item.path in outputs:
                raise AssertionError(
                    f"two targets render {item.path}"
                )  # pragma: no cover - paths come from unique names
            outputs[item.path] = Output(
                item.path, owner, target.name, output_stamp(target, item, read, digests), item.render
            )
    owners = [f.id for f in chosen] + [SITE]
    return sorted(outputs.values(), key=lambda o: o.path), owners


def describe_targets(catalog: Optional[Catalog] = None) -> str:
    """The table of targets, with each family's paths when a catalog is given."""
    lines = ["| target | owner | path | reads | what |", "| --- | --- | --- | --- | --- |"]
    for target in TARGETS:
        owner = "each family" if target.scope == "family" else "the site"
        reads = ", ".join(part.value for part in target.reads) or "—"
        lines.append(f"| {target.name} | {owner} | `{target.pattern}` | {reads} | {target.description} |")
    if catalog is not None:
        lines.append("")
        for family in catalog.families:
            lines.append(f"{family.id}: {family_paths(family)}")
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
