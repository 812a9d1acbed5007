"""What an output is, before it is rendered: its path, owner and how to render it."""
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
    render: Callable[[], str] = field(repr=False)  # the output's whole text
    item: Optional[str] = None  # the code or edition it is about
    lang: Optional[str] = None


@dataclass(frozen=True)
class Output:
    path: str
    owner: str  # a family id, or SITE
    target: str  # the name of its Target
    render: Callable[[], str] = field(repr=False)

    def render_bytes(self) -> bytes:
        return self.render().encode("utf-8")
