"""The one table of outputs: what `generate`, `check` and the docs all iterate."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from generator.model import Catalog
from generator.render_code import render_c_header, render_json, render_python_module
from generator.render_site import render_site


@dataclass(frozen=True)
class Target:
    name: str
    description: str
    render: Callable[[Catalog], dict[str, str]]


TARGETS = (
    Target("python", "the enum module to vendor", render_python_module),
    Target("c", "the C/C++ header", render_c_header),
    Target("json", "the whole catalog, resolved", render_json),
    Target("site", "the zh and en documentation pages and the MkDocs config", render_site),
)

# Folders whose every file is an output: `generate` removes what the catalog no
# longer produces, and `check` reports it as orphaned.
OWNED_DIRS = ("generated", "site/docs")


def render_all(catalog: Catalog) -> dict[str, str]:
    """Every output as {relative path: text}, sorted by path."""
    files: dict[str, str] = {}
    for target in TARGETS:
        for path, text in target.render(catalog).items():
            if path in files:
                raise AssertionError(f"two targets render {path}")
            files[path] = text
    return dict(sorted(files.items()))
