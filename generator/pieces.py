"""Large outputs in pieces: a piece whose key did not change is copied from the file as
the last run wrote it, instead of being rendered again.

A render function may return a list of segments instead of a text: strings, and
Pieces. A Piece's key is a digest of exactly what it is made from (the caller
says what: the material is hashed here), within one output, and only under the
generator that wrote the file (the cache is foreign to any other). Its text is
made only when the previous file cannot give it.

The previous file is trusted only as far as it can be checked: its bytes must
have the hash the cache recorded when they were written (the cache itself
carries a checksum), and its layout (the size of the file, and each piece's
key, offset and length) must describe a file of exactly that size. Anything
else renders afresh.
"""
from __future__ import annotations

import bisect
import hashlib
import marshal
from dataclasses import dataclass
from typing import Callable, Optional, Sequence, Union

KEY_LENGTH = 16


def key_of(material: object) -> str:
    """The key of what a piece is made from: tuples, lists, dicts, strings, numbers, None.
    marshal's version 2 writes values without sharing references, so equal values give
    equal bytes whatever objects hold them."""
    return hashlib.sha256(marshal.dumps(material, 2)).hexdigest()[:KEY_LENGTH]


@dataclass
class Piece:
    material: object  # what the piece is made from (hashed into its key)
    make: Callable[[], str]

    @property
    def key(self) -> str:
        return key_of(self.material)


ITEMS_PER_PIECE = 64  # rows, codes or texts: made, or copied from the last run, this many at a time


def groups(items: Sequence, material: Callable[[Sequence], object], make: Callable[[Sequence], object],
           size: int = ITEMS_PER_PIECE) -> list[Piece]:
    """Pieces of `size` items each: material(items) is what a piece is made from, make(items) its text."""
    chunks = [items[first:first + size] for first in range(0, len(items), size)]
    return [Piece(material(chunk), lambda chunk=chunk: make(chunk)) for chunk in chunks]

# {"size": bytes of the whole file, "pieces": [[key, offset, length], ...]}: a piece may
# hold pieces of its own (its make() gives segments), so ranges may nest.
Layout = dict


def joined(separator: str, items: list) -> list:
    """separator.join for a list of texts, Pieces and lists of segments: one flat list."""
    out: list = []
    for index, item in enumerate(items):
        if index:
            out.append(separator)
        if isinstance(item, list):
            out.extend(item)
        else:
            out.append(item)
    return out


def text_of(rendered: Union[str, list]) -> str:
    """The whole text of a render, every piece made."""
    if isinstance(rendered, str):
        return rendered
    return "".join(s if isinstance(s, str) else text_of(s.make()) for s in rendered)


class Previous:
    """The keyed pieces of a file as the last run wrote it."""

    def __init__(self, old: bytes, entries: list[tuple[int, int, str]]):
        self.old = old
        self.entries = sorted(entries)  # (offset, -length, key): an outer piece before those inside it
        self.offsets = [e[0] for e in self.entries]
        self.where = {key: (offset, -negative) for offset, negative, key in self.entries}

    def get(self, key: str) -> Optional[bytes]:
        found = self.where.get(key)
        return None if found is None else self.old[found[0]:found[0] + found[1]]

    def inside(self, key: str) -> list[tuple[str, int, int]]:
        """The pieces within the piece `key`: (key, offset from its start, length)."""
        offset, length = self.where[key]
        first = bisect.bisect_left(self.offsets, offset)
        last = bisect.bisect_left(self.offsets, offset + length)
        return [(k, o - offset, -n) for o, n, k in self.entries[first:last]
                if k != key and o + -n <= offset + length]


NOTHING = Previous(b"", [])


def previous_pieces(old: Optional[bytes], layout: object) -> Previous:
    """The keyed pieces of `old`, when `layout` describes a file of its size; else none."""
    if old is None or not isinstance(layout, dict) or layout.get("size") != len(old):
        return NOTHING
    entries = layout.get("pieces")
    if not isinstance(entries, list):
        return NOTHING
    found = []
    for entry in entries:
        if not (isinstance(entry, list) and len(entry) == 3):
            return NOTHING
        key, offset, length = entry
        if not (isinstance(key, str) and type(offset) is int and type(length) is int
                and 0 <= offset and 0 <= length and offset + length <= len(old)):
            return NOTHING
        found.append((offset, -length, key))
    return Previous(old, found)


class _Assembly:
    def __init__(self, previous: Previous):
        self.previous = previous
        self.chunks: list[bytes] = []
        self.size = 0
        self.entries: list[list] = []
        self.made = self.copied = 0

    def add(self, segments: list) -> None:
        pending: list[str] = []  # plain texts between pieces, encoded together
        for segment in segments:
            if isinstance(segment, str):
                pending.append(segment)
                continue
            self._text("".join(pending))
            pending.clear()
            key, start = segment.key, self.size
            data = self.previous.get(key)
            if data is not None:
                self.copied += 1
                self._bytes(data)
                # the pieces inside it keep their keys, for a later run that changes only one of them
                self.entries.extend([inner, start + offset, length] for inner, offset, length in self.previous.inside(key))
            else:
                self.made += 1
                made = segment.make()
                if isinstance(made, list):
                    self.add(made)  # its own pieces may still come from the previous file
                else:
                    self._text(made)
            self.entries.append([key, start, self.size - start])
        self._text("".join(pending))

    def _text(self, text: str) -> None:
        if text:
            self._bytes(text.encode("utf-8"))

    def _bytes(self, data: bytes) -> None:
        self.chunks.append(data)
        self.size += len(data)


def assemble(rendered: Union[str, list], previous: Previous = NOTHING) -> tuple[bytes, Optional[Layout], int, int]:
    """(UTF-8 bytes, layout, pieces made, pieces copied) of a render; a keyed piece comes
    from `previous` when its key is there."""
    if isinstance(rendered, str):
        return rendered.encode("utf-8"), None, 0, 0
    assembly = _Assembly(previous)
    assembly.add(rendered)
    layout = {"size": assembly.size, "pieces": sorted(assembly.entries, key=lambda e: (e[1], -e[2], e[0]))}
    return b"".join(assembly.chunks), layout, assembly.made, assembly.copied
