"""The stamp in each output's banner: a short hash of the parts of the catalog the output shows.

Each target in the table of targets (generator.rendering.targets) names, in its row, the
parts of the catalog its outputs show (`reads`). An output's stamp is the hash of those
parts' digests (with the project's version, the target's templates and the output's own
code, edition and language). Every run renders every output; the stamp only keeps a change
of one text from rewriting the banner of every file, and `CATALOG_HASH` (a family's whole
digest) lets a vendored copy be told from one made from another catalog.

A part's digest covers every field of the model objects in it, walked generically
(so a field added to the model is covered without a change here), except the
positions the catalog was read at: moving an entry or rewording a comment changes
no output. Digests are kept per run in a `Digests`, never on the model.
"""
from __future__ import annotations

import dataclasses
import hashlib
import marshal
from enum import Enum
from operator import attrgetter
from typing import Any, Callable, Optional, cast

from generator.domain.codes import Code

from generator.domain.editions import Edition

from generator.domain.family import Catalog, Family
from generator.core.problems import Pos

LENGTH = 16  # hex digits of a digest: 64 bits


class Input(str, Enum):
    """A part of the catalog. The first four are the family's (or, for the site's shared
    files, every family's); the last three are the output's own code or edition. A part
    holding texts holds them as a page in the output's language shows them (every
    language, for an output that has none)."""

    SITE = "site"  # site.yaml: the site's settings, labels and the upstream repositories
    FAMILY = "family"  # family.yaml: names, languages, pages, timelines, headers, labels
    EDITIONS = "editions"  # every page version and edition, all they say (sources, rows, notes), and the aliases
    CODES = "codes"  # every code's names, value and facts, in order; not its texts
    TEXTS = "texts"  # every code's texts
    CODE = "code"  # the output's code: its names, value, facts and texts
    EDITION = "edition"  # the output's edition: all it says
    EDITION_TEXTS = "edition texts"  # the texts the output's edition shows, for every code it lists


OWN = (Input.CODE, Input.EDITION, Input.EDITION_TEXTS)  # parts that name the output's code or edition
IN_LANGUAGE = (Input.TEXTS, Input.CODE, Input.EDITION_TEXTS)  # parts that hold texts


def digest(value: object) -> str:
    """A short hash of plain values (tuples, strings, numbers, booleans, None). marshal's
    version 2 shares no references, so equal values give equal bytes."""
    return hashlib.sha256(marshal.dumps(cast(Any, value), 2)).hexdigest()[:LENGTH]


# -- the generic walk ---------------------------------------------------------------------------

# Fields that are parts of their own (walked where those parts are asked for), or not content.
_LEFT_OUT = {"Family": ("versions", "editions", "codes", "files", "aliases"),
             "Catalog": ("families", "files", "warnings"),
             "Code": ("texts",)}
_PLAIN = {str, int, float, bool, type(None)}
_FIELDS: dict[type, Callable[[Any], tuple]] = {}  # a model class -> its fields' values, in order


def _fields(cls: type) -> Callable[[Any], tuple]:
    getter = _FIELDS.get(cls)
    if getter is None:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"no digest for a {cls.__name__} in the model")  # pragma: no cover - the model is plain
        skip = _LEFT_OUT.get(cls.__name__, ())
        names = [f.name for f in dataclasses.fields(cls) if f.name not in skip]
        if len(names) > 1:
            getter = attrgetter(*names)  # a tuple of the values, in C
        else:
            getter = lambda obj: tuple(getattr(obj, name) for name in names)  # noqa: E731
        _FIELDS[cls] = getter
    return getter


def values(obj: Any) -> object:
    """Everything a model object holds, as plain values, without positions. (Dispatched on
    the exact type, plain values kept without a call: a catalog of 10,000 codes has millions.)"""
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


# -- digests of the parts, per run -----------------------------------------------------------------


class Digests:
    """The digest of each part of one catalog, each computed once."""

    def __init__(self, catalog: Catalog):
        self.catalog = catalog
        self._memo: dict[tuple, str] = {}
        self._codes: dict[tuple, object] = {}

    def _once(self, key: tuple, compute) -> str:
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = digest(compute())
        return found

    def part(self, part: Input, family: Family, item: Optional[str] = None, lang: Optional[str] = None) -> str:
        """The digest of one part of a family; `item` is the output's code or edition, `lang`
        its language (None: every language)."""
        key = (part, family.id, item if part in OWN else None, lang if part in IN_LANGUAGE else None)
        return self._once(key, lambda: _COMPUTE[part](self, family, item, key[3]))

    def family(self, family: Family) -> str:
        """Everything of one family: its CATALOG_HASH."""
        return self._once(("all", family.id), lambda: tuple(
            self.part(p, family) for p in (Input.FAMILY, Input.EDITIONS, Input.CODES, Input.TEXTS)))

    def identity(self, family: Family, code: Code) -> str:
        """The digest of a code without its texts."""
        return self._walked(("identity", family.id, code.name), lambda: digest(values(code)))

    def texts(self, family: Family, code: Code, lang: Optional[str]) -> str:
        """The digest of a code's texts in `lang` (every language for None): what each edition's
        page shows, as resolved, so that how the catalog writes its entries (one entry for several
        versions, or one each) changes no stamp."""
        def compute() -> str:
            if lang is None:
                return digest(tuple(self.texts(family, code, language) for language in family.languages))
            shown = self._indexed(family, code)
            return digest(tuple(sorted((edition, said) for (edition, language), said in shown.items()
                                       if language == lang)))
        return self._walked(("texts digest", family.id, code.name, lang), compute)

    def shown(self, family: Family, code: Code, edition: str, lang: str) -> tuple:
        """What an edition's page in `lang` shows of a code: each column's text and origin."""
        return self._indexed(family, code).get((edition, lang), ())

    def _indexed(self, family: Family, code: Code) -> dict[tuple[str, str], tuple]:
        return self._walked(("texts", family.id, code.name), lambda: _index_texts(code))

    def _walked(self, key: tuple, compute):
        found = self._codes.get(key)
        if found is None:
            found = self._codes[key] = compute()
        return found


def _index_texts(code: Code) -> dict[tuple[str, str], tuple]:
    """What a code's texts show, by (edition, language): each column's text, origin and markup."""
    shown: dict[tuple[str, str], list] = {}
    for field_name, items in code.texts:
        for entry in items:
            for edition in entry.editions:
                shown.setdefault((edition, entry.lang), []).append((field_name, entry.text, entry.origin, entry.markup))
    return {key: tuple(sorted(items)) for key, items in shown.items()}


def _edition_texts(digests: Digests, family: Family, edition: Edition, lang: Optional[str]) -> tuple:
    """What the edition's page shows of each code it lists."""
    languages = family.languages if lang is None else (lang,)
    return tuple((row.code, language, digests.shown(family, family.code_by_name[row.code], edition.id, language))
                 for row in edition.rows for language in languages)


_COMPUTE = {
    Input.SITE: lambda digests, family, item, lang: values(digests.catalog),
    Input.FAMILY: lambda digests, family, item, lang: values(family),
    Input.EDITIONS: lambda digests, family, item, lang: values((family.versions, family.editions, family.aliases)),
    Input.CODES: lambda digests, family, item, lang: tuple(digests.identity(family, c) for c in family.codes),
    Input.TEXTS: lambda digests, family, item, lang: tuple(digests.texts(family, c, lang) for c in family.codes),
    Input.CODE: lambda digests, family, item, lang: (
        digests.identity(family, family.code_by_name[item]),
        digests.texts(family, family.code_by_name[item], lang),
    ),
    Input.EDITION: lambda digests, family, item, lang: values(family.edition_by_id[item]),
    Input.EDITION_TEXTS: lambda digests, family, item, lang: _edition_texts(
        digests, family, family.edition_by_id[item], lang
    ),
}


def catalog_hash(family: Family, digests: Optional[Digests] = None) -> str:
    """A family's CATALOG_HASH: the digest of everything of the family."""
    return (digests or Digests(_no_catalog())).family(family)


def _no_catalog() -> Catalog:
    # a family's own parts never read the catalog around it
    return Catalog(site=None, repositories={}, families=())  # type: ignore[arg-type]
