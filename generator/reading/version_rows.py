"""Reading a page version's rows: the changes to its base's rows, rows not known, malformations."""
from __future__ import annotations

from typing import Optional

from ruamel.yaml.nodes import MappingNode, Node, ScalarNode

from generator.reading.fields import Fields
from generator.domain.codes import Code
from generator.domain.editions import Malformation, Row
from generator.domain.model import RECOVERABLE_VALUES, TEXT_FIELDS, Page
from generator.core.problems import closest
from generator.reading.editions import Draft

DROPPED = "dropped"  # a row's value that removes it from its base's rows


class RowsReader:
    """The rows part of a version as written; the version reader (reading.timelines) is one."""

    def __init__(self, f: Fields, languages, codes):
        self.f, self.languages = f, languages
        # every name a code has had names it: a page shows the name of its release
        self.by_kind = {"python": {n: c for c in codes for n in c.python_names},
                        "c": {n: c for c in codes for n in c.c_names}}
        self.flawed = codes.flawed

    def _code(self, node: Node, name: str, what: str, page: Page) -> Optional[Code]:
        """The code a row names, by the name kind its page uses; every miss is reported."""
        kind = page.row_names
        if page.row_prefix and name.startswith(page.row_prefix):
            name = name[len(page.row_prefix):]
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

    def rows(self, pair, what: str, page: Page, base: Optional[Draft], node: Node) -> Optional[list[Row]]:
        """The version's rows: as written, or its base's with the changes written."""
        if pair is None:
            if base is None:
                self.f.error(node, f"{what}: rows are missing; list the codes its page lists (or give based_on)")
                return None
            return list(base.rows)
        fields = self.f.mapping(pair[1], f"{what}: rows", free_keys=True)
        if fields is None:
            return None
        rows = _Order(base.rows if base is not None else ())
        ok = True
        for name, (key, value) in fields.items():
            code = self._code(key, name, what, page)
            if code is None:
                # a code reported where it is written (a duplicate name or value) leaves its row out, and
                # the version stands: its other rows, the versions based on it, its malformations are
                # checked as usual instead of each failing for want of it
                ok = ok and name in self.flawed
                continue
            shown = name[len(page.row_prefix):] if page.row_prefix and name.startswith(page.row_prefix) else name
            ok = self._change(rows, code, shown, key, value, f"{what}: rows: {name}", base, page) and ok
        return rows.rows() if ok else None

    def _change(self, rows: "_Order", code: Code, shown: str, key: Node, value: Node, what: str, base,
                page: Page) -> bool:
        """One row as written: new, changed (its cell, its place or the name it shows), or dropped."""
        f = self.f
        if base is not None and isinstance(value, ScalarNode) and value.value == DROPPED:
            if code.name not in rows:
                f.error(value, f"{what}: version {base.ident} does not list it, so there is nothing to drop")
                return False
            rows.remove(code.name)
            return True
        place = None
        if isinstance(value, MappingNode) and base is not None:
            place = self._place(value, what, page, rows)
            if place is False:
                return False
        row = self._row(value, what, code, shown, key, allow_place=base is not None)
        if row is None:
            return False
        if code.name in rows:
            if base is None:
                f.error(key, f"{what}: listed twice")
                return False
            if place is None:
                rows.replace(row)
                return True
            rows.remove(code.name)
        if isinstance(place, tuple):
            anchor, after = place
            if anchor not in rows:
                f.error(value, f"{what}: the row it goes {'after' if after else 'before'} is not listed")
                return False
            rows.insert(row, anchor, after)
        else:
            rows.append(row)
        return True

    def _place(self, node: MappingNode, what: str, page: Page, names: "_Order"):
        """(code name, after?) from `after:`/`before:`, None when neither is given, False on error.
        (The row's mapping itself is read, and its keys checked, by _row.)"""
        fields = {k.value: (k, v) for k, v in node.value if isinstance(k, ScalarNode)}
        given = [k for k in ("after", "before") if k in fields]
        if not given:
            return None
        if len(given) > 1:
            self.f.error(node, f"{what}: give `after` or `before`, not both")
            return False
        name = self.f.text(fields[given[0]][1], f"{what}: {given[0]}")
        code = self._code(fields[given[0]][1], name, what, page) if name else None
        return False if code is None else (code.name, given[0] == "after")

    def _row(self, node: Node, what: str, code: Code, shown: str, key: Node,
             allow_place: bool = False) -> Optional[Row]:
        f = self.f
        if not isinstance(node, MappingNode):
            value = f.choice(node, what, RECOVERABLE_VALUES + ((DROPPED,) if allow_place else ()))
            if value == DROPPED:
                f.error(node, f"{what}: `dropped` needs a version it is based on")
                return None
            return None if value is None else Row(code.name, shown, value, (), f.pos(key))
        places = ("after", "before") if allow_place else ()
        fields = f.mapping(
            node, what, required=("recoverable",), optional=("recoverable",) + places + tuple(self.languages)
        )
        if fields is None or "recoverable" not in fields:
            return None
        value = f.choice(fields["recoverable"][1], what, RECOVERABLE_VALUES)
        others = tuple(
            (lang, f.choice(v, f"{what} ({lang} page)", RECOVERABLE_VALUES))
            for lang, (_, v) in fields.items()
            if lang not in ("recoverable",) + places
        )
        if value is None or any(v is None for _, v in others):
            return None
        for lang, other in others:
            if other == value:
                f.error(fields[lang][1], f"{what}: the {lang} page agrees ({other}); record only a disagreement")
                return None
        return Row(code.name, shown, value, others, f.pos(key))  # type: ignore[arg-type]

    def not_known(self, pair, what, page, rows) -> Optional[list[str]]:
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
                self.f.error(
                    item, f"{what}: {name} is in rows, so its listing is known; remove it from not_listed_not_known"
                )
                ok = False
            elif code.name in result:
                self.f.error(item, f"{what}: {name} is named twice in not_listed_not_known")
                ok = False
            else:
                result.append(code.name)
        return result if ok else None

    def malformations(self, pair, what, page, rows) -> Optional[tuple[Malformation, ...]]:
        if pair is None:
            return ()
        f = self.f
        listed = {row.code for row in rows}
        result, ok = [], True
        for item in f.sequence(pair[1], f"{what}: malformations") or ():
            fields = f.mapping(
                item, f"{what}: malformation", required=("kind", "code", "field", "line", "shown", "sides")
            )
            if fields is None or len(fields) < 6:
                ok = False
                continue
            kind = f.choice(
                fields["kind"][1], f"{what}: malformation kind", ("merge conflict", "unclosed cell", "extra cell")
            )
            name = f.text(fields["code"][1], f"{what}: malformation code")
            code = self._code(fields["code"][1], name, what, page) if name and page else None
            if code is not None and code.name not in listed:
                f.error(fields["code"][1], f"{what}: malformation of {name}, which the version does not list")
                code = None
            field = f.choice(fields["field"][1], f"{what}: malformation field", ("name", "recoverable") + TEXT_FIELDS)
            line = f.integer(fields["line"][1], f"{what}: malformation line")
            shown = f.text(fields["shown"][1], f"{what}: malformation shown")
            sides = [
                (label, f.text(v, f"{what}: malformation side {label}"))
                for label, (_, v) in (
                    f.mapping(fields["sides"][1], f"{what}: malformation sides", free_keys=True) or {}
                ).items()
            ]
            if shown is not None and shown not in [label for label, _ in sides]:
                names = ", ".join(side for side, _ in sides)
                f.error(fields["shown"][1], f"{what}: shown must name one of the sides ({names})")
                shown = None
            if None in (kind, code, field, line, shown) or len(sides) < 2 or any(t is None for _, t in sides):
                if len(sides) < 2:
                    f.error(fields["sides"][1], f"{what}: a malformation records at least two sides")
                ok = False
                continue
            result.append(Malformation(kind, code.name, field, line, shown, tuple(sides), f.pos(item)))  # type: ignore[union-attr,arg-type]
        return tuple(result) if ok else None


class _Order:
    """A page's rows while a version's changes apply: replace, drop and insert next to a row
    each in constant time (a list made a version with thousands of changes quadratic:
    21 s of 25 at 10,000 codes)."""

    _END = ""  # the sentinel before the first row and after the last (no code is named "")

    def __init__(self, rows) -> None:
        self.by_code: dict[str, Row] = {}
        self.next: dict[str, str] = {self._END: self._END}
        self.prev: dict[str, str] = {self._END: self._END}
        for row in rows:
            self.append(row)

    def __contains__(self, code: str) -> bool:
        return code in self.by_code

    def _link(self, code: str, before: str, after: str) -> None:
        self.next[before], self.prev[code], self.next[code], self.prev[after] = code, before, after, code

    def append(self, row: Row) -> None:
        self.by_code[row.code] = row
        self._link(row.code, self.prev[self._END], self._END)

    def insert(self, row: Row, anchor: str, after: bool) -> None:
        self.by_code[row.code] = row
        if after:
            self._link(row.code, anchor, self.next[anchor])
        else:
            self._link(row.code, self.prev[anchor], anchor)

    def replace(self, row: Row) -> None:
        self.by_code[row.code] = row

    def remove(self, code: str) -> None:
        before, after = self.prev.pop(code), self.next.pop(code)
        self.next[before], self.prev[after] = after, before
        del self.by_code[code]

    def rows(self) -> list[Row]:
        out, code = [], self.next[self._END]
        while code != self._END:
            out.append(self.by_code[code])
            code = self.next[code]
        return out
