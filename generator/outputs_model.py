"""What an output is, before it is rendered: its path, owner, and what it is made from."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Optional

from generator import pieces
from generator.render import stamp

SITE = "site"  # the owner of the files every family shares


@dataclass
class Output:
    path: str  # relative to --out, POSIX
    owner: str  # a family id, or SITE
    target: str  # the name of its Target
    templates: tuple[str, ...]
    parts: tuple[str, ...]  # digests of the model parts it reads
    render_with: Callable[[str], object] = field(repr=False)  # stamp -> text, or segments (generator.pieces)
    # about how much rendering it costs, in codes read: one code's page 1; an output that
    # reads the whole family (0: filled in by plan_outputs) as many as the family has
    weight: int = 0
    # what is done to the whole file's bytes once its pieces are put together (a checksum)
    finish: Optional[Callable[[bytes], bytes]] = field(default=None, repr=False)

    @cached_property
    def stamp(self) -> str:
        return stamp(self.templates, self.parts)

    def render(self) -> str:
        return self.render_bytes()[0].decode("utf-8")

    def render_bytes(self, previous: Optional[tuple[bytes, object]] = None) -> tuple[bytes, Optional[dict], int, int, float]:
        """(UTF-8 bytes, layout of its pieces or None, pieces made, pieces copied, seconds it
        took); `previous` is the file as the last run wrote it (its hash checked against the
        cache) and that run's layout."""
        start = time.perf_counter()
        found = pieces.previous_pieces(*previous) if previous is not None else pieces.NOTHING
        data, layout, made, copied = pieces.assemble(self.render_with(self.stamp), found)
        data = data if self.finish is None else self.finish(data)
        return data, layout, made, copied, time.perf_counter() - start
