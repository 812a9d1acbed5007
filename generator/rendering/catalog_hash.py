"""A family's CATALOG_HASH: a short hash of everything the family's catalog says, as resolved.

The generated module and header carry it, so that a vendored copy can be told from one made
from another catalog. It covers every field of the model objects, walked generically (a field
added to the model is covered without a change here), except the positions the catalog was
read at, and a code's texts as each edition's page shows them: how the catalog writes its
entries (one entry for several versions, or one each) changes no hash.
"""
from __future__ import annotations

import dataclasses
import hashlib
import marshal
from operator import attrgetter
from typing import Any, Callable, cast

from generator.core.problems import Pos
from generator.domain.codes import Code
from generator.domain.family import Family

LENGTH = 16  # hex digits of a digest: 64 bits

# Fields walked on their own below, or not content.
_LEFT_OUT = {"Family": ("versions", "editions", "codes", "files", "aliases"), "Code": ("texts",)}
_PLAIN = {str, int, float, bool, type(None)}
_FIELDS: dict[type, Callable[[Any], tuple]] = {}  # a model class -> its fields' values, in order


def digest(value: object) -> str:
    """A short hash of plain values (tuples, strings, numbers, booleans, None). marshal's
    version 2 shares no references, so equal values give equal bytes."""
    return hashlib.sha256(marshal.dumps(cast(Any, value), 2)).hexdigest()[:LENGTH]


def _fields(kind: type) -> Callable[[Any], tuple]:
    getter = _FIELDS.get(kind)
    if getter is None:
        skip = _LEFT_OUT.get(kind.__name__, ())
        names = [f.name for f in dataclasses.fields(kind) if f.name not in skip]
        many = attrgetter(*names) if len(names) > 1 else None
        getter = _FIELDS[kind] = (many if many is not None else  # type: ignore[assignment]
                                  lambda obj: tuple(getattr(obj, name) for name in names))
    return getter


def values(obj: Any) -> object:
    """Everything a model object holds, as plain values, without positions (dispatched on the
    exact type: a catalog of 10,000 codes holds millions of values)."""
    kind = type(obj)
    if kind in _PLAIN:
        return obj
    if kind is tuple or kind is list:
        return tuple([item if type(item) in _PLAIN else values(item) for item in obj])
    if kind is Pos:
        return None
    if kind is dict:
        return tuple(sorted([(key, values(item)) for key, item in obj.items()]))
    return (kind.__name__, *[item if type(item) in _PLAIN else values(item) for item in _fields(kind)(obj)])


def _shown(code: Code, lang: str) -> str:
    """What each edition's page in `lang` shows of a code: each column's text, origin and markup."""
    shown: dict[str, list] = {}
    for field_name, items in code.texts:
        for entry in items:
            if entry.lang == lang:
                for edition in entry.editions:
                    shown.setdefault(edition, []).append((field_name, entry.text, entry.origin, entry.markup))
    return digest(tuple(sorted((edition, tuple(sorted(said))) for edition, said in shown.items())))


def catalog_hash(family: Family) -> str:
    """The digest of everything of one family (worked out once per family: the module, the header
    and the export each show it)."""
    return family.remember(("catalog hash",), lambda: _catalog_hash(family))


def _catalog_hash(family: Family) -> str:
    texts = tuple(digest(tuple(_shown(code, lang) for lang in family.languages)) for code in family.codes)
    return digest((
        digest(values(family)),
        digest(values((family.versions, family.editions, family.aliases))),
        digest(tuple(digest(values(code)) for code in family.codes)),
        digest(texts),
    ))
