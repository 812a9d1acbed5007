"""What an output is, before it is rendered: its path, owner, stamp and how to render it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

SITE = "site"  # the owner of the files every family shares
MANIFEST_DIR = "generated/manifest"  # one manifest per owner: the files it wrote, with their hashes


def manifest_path(owner: str) -> str:
    return f"{MANIFEST_DIR}/{owner}.json"


@dataclass(frozen=True)
class Planned:
    """An output as a target's plan names it: where it goes and how it is rendered."""

    path: str  # relative to --out, POSIX
    render: Callable[[str], str] = field(repr=False)  # stamp -> the output's whole text
    item: Optional[str] = None  # the code or edition it is about (what Input.CODE/EDITION mean)
    lang: Optional[str] = None


@dataclass(frozen=True)
class Output:
    path: str
    owner: str  # a family id, or SITE
    target: str  # the name of its Target
    stamp: str  # a hash of exactly what it is made from (generator.rendering.stamps)
    render_with: Callable[[str], str] = field(repr=False)

    def render(self) -> str:
        return self.render_with(self.stamp)

    def render_bytes(self) -> bytes:
        return self.render().encode("utf-8")
