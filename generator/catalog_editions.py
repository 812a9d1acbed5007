"""Reading the `editions` section: each edition's timeline, sources and rows, in release order."""
from __future__ import annotations

import re
from typing import Optional

from ruamel.yaml.nodes import MappingNode, Node, ScalarNode

from generator.fields import Fields
from generator.model import RECOVERABLE_VALUES, TEXT_FIELDS, Code, Edition, Malformation, Page, Row, Source, Timeline
from generator.problems import Reporter, closest
from generator.versions import UNRELEASED, release_key

EDITION_ID = re.compile(r"^[0-9A-Za-z][0-9A-Za-z._-]*$")
MAX_EDITION_ID = 64
COMMIT = re.compile(r"^[0-9a-f]{40}$")
_EDITION_FIELDS = ("id", "release", "timeline", "sources", "texts", "order", "rows", "not_listed_not_known",
                   "malformations", "notes")
_SOURCE_KINDS = ("repo", "url", "seed", "document")
_SOURCE_FIELDS = ("repo", "path", "commit", "tags", "branch", "url", "seed", "document", "lang")


class Editions(list):
    """The valid editions, and every id written (texts naming a broken edition are not reported twice)."""

    def __init__(self) -> None:
        super().__init__()
        self.declared: set[str] = set()


def read_editions(section, family_id, languages, pages, codes, repositories, rep: Reporter) -> Optional[Editions]:
    f: Fields = section.reader
    timelines = {t.id: (t, page) for page in pages for t in page.timelines}
    by_kind = {"python": {c.python_name: c for c in codes if c.python_name},
               "c": {c.c_name: c for c in codes if c.c_name}}
    context = _Context(f, family_id, languages, timelines, by_kind, codes.flawed, repositories)
    editions = Editions()
    seen: dict[str, Edition] = {}
    items = f.sequence(section.value, "editions")
    if items is None:
        return None
    editions.declared.update(filter(None, (f.peek(item, "id") for item in items)))
    if not items:
        f.error(section.value, "editions must list at least one edition")
    for item in items:
        edition = context.edition(item, len(editions))
        if edition is None:
            continue
        if edition.id in seen:
            f.error(item, f"edition {edition.id!r} is already declared at line {seen[edition.id].pos.line}; ids are unique")
            continue
        if editions and edition.order_key < editions[-1].order_key:
            f.error(item, f"edition {edition.id} is out of release order: it belongs before {editions[-1].id} "
                          "(editions are listed oldest release first; within a release by page, then timeline)")
        seen[edition.id] = edition
        editions.append(edition)
    for edition in editions:
        if edition.repo_copy and edition.id[: -len("-repo")] not in seen:
            f.rep.error(edition.pos, f"edition {edition.id} is a repository copy, but the published edition "
                                    f"{edition.id[:-5]} it differs from is not declared")
    return editions


class _Context:
    def __init__(self, f: Fields, family_id, languages, timelines, by_kind, flawed, repositories):
        self.f, self.family_id, self.languages = f, family_id, languages
        self.timelines, self.by_kind, self.flawed, self.repositories = timelines, by_kind, flawed, repositories
        self._indexes: Optional[dict[str, int]] = None

    def edition(self, node: Node, index: int) -> Optional[Edition]:
        f = self.f
        label = f"edition {f.peek(node, 'id')}" if f.peek(node, "id") else "an edition"
        fields = f.mapping(node, label, required=("id", "release", "timeline", "texts", "order", "rows"), optional=_EDITION_FIELDS)
        if fields is None or "id" not in fields:
            return None
        ident = self._id(fields["id"][1])
        what = f"edition {ident}"
        release = f.text(fields["release"][1], f"{what}: release") if "release" in fields else None
        if release is not None and release_key(release) is None:
            f.error(fields["release"][1], f"{what}: release {release!r} is no release (8.0.RC3, 9.0.0, 9.2.0-beta.1, {UNRELEASED})")
            release = None
        timeline, page = self._timeline(fields.get("timeline"), what)
        if ident is not None and release is not None and timeline is not None:
            expected = release + timeline.suffix
            if ident not in (expected, expected + "-repo"):
                f.error(fields["id"][1], f"{what}: the id of an edition of release {release} on timeline {timeline.id} "
                                         f"is {expected!r} (or {expected + '-repo'!r} for a repository copy)")
                ident = None
        sources = self._sources(fields.get("sources"), what)
        languages = self._languages(fields["texts"][1], what) if "texts" in fields else None
        order = f.choice(fields["order"][1], f"{what}: order", ("page", "not known")) if "order" in fields else None
        notes = f.localized(fields["notes"][1], f"{what}: notes", self.languages) if "notes" in fields else None
        rows = self._rows(fields["rows"][1], what, page) if "rows" in fields and page is not None else None
        unknown = self._not_known(fields.get("not_listed_not_known"), what, page, rows or ())
        malformations = self._malformations(fields.get("malformations"), what, page, rows or ())
        parts = (ident, release, timeline, sources, languages, order, rows, unknown, malformations)
        if any(part is None for part in parts) or ("notes" in fields and notes is None):
            return None
        if order == "not known":
            index_of = self._code_indexes()
            rows = sorted(rows, key=lambda row: index_of.get(row.code, 0))  # type: ignore[arg-type]
        return Edition(
            ident, release, timeline, page, self.family_id, sources, None if languages == "not known" else languages,  # type: ignore[arg-type]
            order == "page", tuple(rows), tuple(unknown), malformations, notes, index, f.pos(node))  # type: ignore[arg-type]

    def _code_indexes(self) -> dict[str, int]:
        """Each code's place in the catalog, by name (built once: editions of unknown
        order are sorted by it, and a search per row made reading 10,000 codes quadratic)."""
        if self._indexes is None:
            self._indexes = {code.name: code.index for table in self.by_kind.values() for code in table.values()}
        return self._indexes

    def _id(self, node: Node) -> Optional[str]:
        ident = self.f.text(node, "edition id")
        if ident is None:
            return None
        if len(ident) > MAX_EDITION_ID or not EDITION_ID.match(ident):
            self.f.error(node, f"edition id {ident!r} may hold only letters, digits, '.', '-' and '_', "
                               f"at most {MAX_EDITION_ID} of them (it is part of URLs and file names)")
            return None
        return ident

    def _timeline(self, pair, what) -> tuple[Optional[Timeline], Optional[Page]]:
        if pair is None:
            return None, None
        name = self.f.text(pair[1], f"{what}: timeline")
        if name is None:
            return None, None
        if name not in self.timelines:
            self.f.error(pair[1], f"{what}: no timeline {name!r}{closest(name, self.timelines)}; "
                                  f"timelines: {', '.join(self.timelines)}")
            return None, None
        return self.timelines[name]

    def _languages(self, node: Node, what: str):
        if isinstance(node, ScalarNode):
            return self.f.choice(node, f"{what}: texts", ("not known",))
        items = self.f.choice_list(node, f"{what}: texts", self.languages)
        if items == []:
            self.f.error(node, f"{what}: texts names no language; write `texts: not known` instead")
            return None
        return None if items is None else tuple(lang for lang in self.languages if lang in {v for v, _ in items})

    # -- sources -----------------------------------------------------------------------

    def _sources(self, pair, what) -> Optional[tuple[Source, ...]]:
        if pair is None:
            return ()
        result, ok = [], True
        for item in self.f.sequence(pair[1], f"{what}: sources") or ():
            source = self._source(item, what)
            ok = ok and source is not None
            if source is not None:
                result.append(source)
        return tuple(result) if ok else None

    def _source(self, node: Node, what: str) -> Optional[Source]:
        f = self.f
        fields = f.mapping(node, f"{what}: source", optional=_SOURCE_FIELDS)
        if fields is None:
            return None
        kinds = [k for k in _SOURCE_KINDS if k in fields]
        if len(kinds) != 1:
            f.error(node, f"{what}: a source gives exactly one of {', '.join(_SOURCE_KINDS)}")
            return None
        kind = kinds[0]
        lang = f.choice(fields["lang"][1], f"{what}: source lang", self.languages) if "lang" in fields else None
        if "lang" in fields and lang is None:
            return None
        values = {k: f.text(v, f"{what}: source {k}") for k, (_, v) in fields.items() if k not in ("tags", "lang")}
        if any(v is None for v in values.values()):
            return None
        allowed = {"repo": ("path", "commit", "tags", "branch"), "url": (), "seed": (), "document": ()}[kind]
        for key in fields:
            if key not in allowed and key not in (kind, "lang"):
                f.error(fields[key][0], f"{what}: a {kind} source has no {key!r}")
                return None
        if kind == "repo":
            return self._repo_source(node, fields, values, lang, what)
        if kind == "url" and not re.match(r"^https?://[^\s<>\"'`]+$", values["url"]):
            f.error(fields["url"][1], f"{what}: source url must be an http(s) URL without spaces or quotes")
            return None
        return Source(kind, lang, url=values.get("url"), seed=values.get("seed"), document=values.get("document"), pos=f.pos(node))

    def _repo_source(self, node, fields, values, lang, what) -> Optional[Source]:
        f = self.f
        for key in ("path", "commit"):
            if key not in fields:
                f.error(node, f"{what}: a repository source needs {key!r}")
                return None
        if values["repo"] not in self.repositories:
            f.error(fields["repo"][1], f"{what}: repository {values['repo']!r} is not in repositories{closest(values['repo'], self.repositories)}")
            return None
        if not COMMIT.match(values["commit"]):
            f.error(fields["commit"][1], f"{what}: commit must be 40 lower-case hex digits (git rev-parse TAG^{{commit}})")
            return None
        tags = tuple(t for t, _ in f.text_list(fields["tags"][1], f"{what}: tags") or ()) if "tags" in fields else ()
        if "tags" not in fields and "branch" not in fields:
            f.error(node, f"{what}: a repository source names the tags that ship the file, or the branch of an unreleased one")
            return None
        return Source("repo", lang, repo=values["repo"], path=values["path"], commit=values["commit"], tags=tags,
                      branch=values.get("branch"), pos=f.pos(node))

    # -- rows ---------------------------------------------------------------------------

    def _code(self, node: Node, name: str, what: str, page: Page) -> Optional[Code]:
        """The code a row names, by the name kind its page uses; every miss is reported."""
        kind = page.row_names
        code = self.by_kind[kind].get(name)
        if code is not None:
            return code
        if name in self.flawed:
            return None  # reported where the code is written
        other_kind = "c" if kind == "python" else "python"
        other = self.by_kind[other_kind].get(name)
        names = "Python" if kind == "python" else "C"
        if other is not None:
            right = other.python_name if kind == "python" else other.c_name
            fix = f"write {right}" if right else f"{other.name} has no {names} name, so this page cannot list it"
            self.f.error(node, f"{what}: {name} is the {'C' if kind == 'python' else 'Python'} name of {other.name}; "
                               f"page {page.id} names its rows by {names} name: {fix}")
        else:
            self.f.error(node, f"{what}: no code has the {names} name {name!r}{closest(name, self.by_kind[kind])}; "
                               "add it to codes first, or correct the name")
        return None

    def _rows(self, node: Node, what: str, page: Page) -> Optional[list[Row]]:
        fields = self.f.mapping(node, f"{what}: rows", free_keys=True)
        if fields is None:
            return None
        rows, ok = [], True
        for name, (key, value) in fields.items():
            code = self._code(key, name, what, page)
            row = self._row(value, f"{what}: rows: {name}", code, key) if code is not None else None
            if row is None:
                ok = False
            else:
                rows.append(row)
        return rows if ok else None

    def _row(self, node: Node, what: str, code: Code, key: Node) -> Optional[Row]:
        f = self.f
        if not isinstance(node, MappingNode):
            value = f.choice(node, what, RECOVERABLE_VALUES)
            return None if value is None else Row(code.name, value, (), f.pos(key))
        fields = f.mapping(node, what, required=("recoverable",), optional=("recoverable",) + tuple(self.languages))
        if fields is None or "recoverable" not in fields:
            return None
        value = f.choice(fields["recoverable"][1], what, RECOVERABLE_VALUES)
        others = tuple((lang, f.choice(v, f"{what} ({lang} page)", RECOVERABLE_VALUES)) for lang, (_, v) in fields.items()
                       if lang != "recoverable")
        if value is None or any(v is None for _, v in others):
            return None
        for lang, other in others:
            if other == value:
                f.error(fields[lang][1], f"{what}: the {lang} page agrees ({other}); record only a disagreement")
                return None
        return Row(code.name, value, others, f.pos(key))  # type: ignore[arg-type]

    def _not_known(self, pair, what, page, rows) -> Optional[list[str]]:
        if pair is None:
            return []
        items = self.f.text_list(pair[1], f"{what}: not_listed_not_known")
        if items is None or page is None:
            return None
        listed = {row.code for row in rows}
        result, ok = [], True
        for name, item in items:
            code = self._code(item, name, what, page)
            if code is None:
                ok = False
            elif code.name in listed:
                self.f.error(item, f"{what}: {name} is in rows, so its listing is known; remove it from not_listed_not_known")
                ok = False
            elif code.name in result:
                self.f.error(item, f"{what}: {name} is named twice in not_listed_not_known")
                ok = False
            else:
                result.append(code.name)
        return result if ok else None

    def _malformations(self, pair, what, page, rows) -> Optional[tuple[Malformation, ...]]:
        if pair is None:
            return ()
        f = self.f
        listed = {row.code for row in rows}
        result, ok = [], True
        for item in f.sequence(pair[1], f"{what}: malformations") or ():
            fields = f.mapping(item, f"{what}: malformation", required=("kind", "code", "field", "line", "shown", "sides"))
            if fields is None or len(fields) < 6:
                ok = False
                continue
            kind = f.choice(fields["kind"][1], f"{what}: malformation kind", ("merge conflict", "unclosed cell", "extra cell"))
            name = f.text(fields["code"][1], f"{what}: malformation code")
            code = self._code(fields["code"][1], name, what, page) if name and page else None
            if code is not None and code.name not in listed:
                f.error(fields["code"][1], f"{what}: malformation of {name}, which the edition does not list")
                code = None
            field = f.choice(fields["field"][1], f"{what}: malformation field", ("name", "recoverable") + TEXT_FIELDS)
            line = f.integer(fields["line"][1], f"{what}: malformation line")
            shown = f.text(fields["shown"][1], f"{what}: malformation shown")
            sides = [(label, f.text(v, f"{what}: malformation side {label}"))
                     for label, (_, v) in (f.mapping(fields["sides"][1], f"{what}: malformation sides", free_keys=True) or {}).items()]
            if shown is not None and shown not in [label for label, _ in sides]:
                f.error(fields["shown"][1], f"{what}: shown must name one of the sides ({', '.join(l for l, _ in sides)})")
                shown = None
            if None in (kind, code, field, line, shown) or len(sides) < 2 or any(t is None for _, t in sides):
                if len(sides) < 2:
                    f.error(fields["sides"][1], f"{what}: a malformation records at least two sides")
                ok = False
                continue
            result.append(Malformation(kind, code.name, field, line, shown, tuple(sides), f.pos(item)))  # type: ignore[union-attr,arg-type]
        return tuple(result) if ok else None
