"""A page version's rows as the model holds them: the changes to its base's rows, the rows
not known, the known breaks of its file."""
from __future__ import annotations

from typing import Any, Optional

from generator.core.problems import Reporter, closest
from generator.domain.codes import Code
from generator.domain.editions import Malformation, Row
from generator.domain.model import Page
from generator.reading import format as fmt

DROPPED = "dropped"  # a row's value that removes it from its base's rows


class RowsReader:
    """The rows part of a version as written; the version reader (reading.versions) is one."""

    def __init__(self, languages, codes, rep: Reporter):
        self.languages, self.rep = languages, rep
        # every name a code has had names it: a page shows the name of its release
        self.by_kind = {"python": {n: c for c in codes for n in c.python_names},
                        "c": {n: c for c in codes for n in c.c_names}}
        self.flawed = codes.flawed

    def code_named(self, where, name: str, what: str, page: Page) -> Optional[Code]:
        """The code a row names, by the name kind its page uses; every miss is reported."""
        kind = page.row_names
        if page.row_prefix and name.startswith(page.row_prefix):
            name = name[len(page.row_prefix):]
        code = self.by_kind[kind].get(name)
        if code is not None or name in self.flawed:
            return code  # a flawed code is reported where it is written
        other = self.by_kind["c" if kind == "python" else "python"].get(name)
        names = "Python" if kind == "python" else "C"
        if other is not None:
            right = other.python_name if kind == "python" else other.c_name
            fix = f"write {right}" if right else f"{other.name} has no {names} name, so this page cannot list it"
            self.rep.error(where, f"{what}: {name} is the {'C' if kind == 'python' else 'Python'} name of "
                                  f"{other.name}; page {page.id} names its rows by {names} name: {fix}")
        else:
            self.rep.error(where, f"{what}: no code has the {names} name {name!r}{closest(name, self.by_kind[kind])}; "
                                  "add it to codes first, or correct the name")
        return None

    def rows(self, record: fmt.Version, what: str, page: Page, base: Any) -> Optional[list[Row]]:
        """The version's rows: as written, or its base's with the changes written."""
        if record.rows is None:
            if base is None and record.based_on is not None:
                return None  # its base is refused (or missing), and reported where it is written
            if base is None:
                self.rep.error(record.at(), f"{what}: rows are missing; list the codes its page lists (or give "
                                            "based_on)")
                return None
            return list(base.rows)
        rows = _Order(base.rows if base is not None else ())
        ok = True
        left_out: set[str] = set()
        for name, value in record.rows.items():
            code = self.code_named(record.at("rows", name, of_key=True), name, what, page)
            if code is None:
                # a code reported where it is written (a duplicate name or value) leaves its row out, and the version
                # stands: its other rows and the versions based on it are checked as usual
                ok = ok and name in self.flawed
                left_out.add(name)
                continue
            anchor = (value.after or value.before) if isinstance(value, fmt.RowChange) else None
            if anchor in left_out or anchor in self.flawed:
                left_out.add(name)  # placed after or before a row left out: left out too, and said nowhere else
                continue
            shown = name[len(page.row_prefix):] if page.row_prefix and name.startswith(page.row_prefix) else name
            ok = self._change(rows, code, shown, record, name, value, f"{what}: rows: {name}", base, page) and ok
        return rows.rows() if ok else None

    def _change(self, rows: "_Order", code: Code, shown: str, record: fmt.Version, name: str, value: Any,
                what: str, base, page: Page) -> bool:
        """One row as written: new, changed (its cell, its place or the name it shows), or dropped."""
        where = record.at("rows", name)
        if value == DROPPED:
            if base is None:
                self.rep.error(where, f"{what}: `dropped` needs a version it is based on")
                return False
            if code.name not in rows:
                self.rep.error(where, f"{what}: version {base.ident} does not list it, so there is nothing to drop")
                return False
            rows.remove(code.name)
            return True
        row = self._row(value, code, shown, record.at("rows", name, of_key=True), what)
        place = self._place(value, what, page) if isinstance(value, fmt.RowChange) else None
        if row is None or place is False:
            return False
        if place is not None and base is None:
            self.rep.error(where, f"{what}: `after` and `before` place a row among its base's rows; this version "
                                  "has no based_on")
            return False
        if code.name in rows:
            if base is None:
                self.rep.error(record.at("rows", name, of_key=True), f"{what}: listed twice")
                return False
            if place is None:
                rows.replace(row)
                return True
            rows.remove(code.name)
        if isinstance(place, tuple):
            anchor, after = place
            if anchor not in rows:
                self.rep.error(where, f"{what}: the row it goes {'after' if after else 'before'} is not listed")
                return False
            rows.insert(row, anchor, after)
        else:
            rows.append(row)
        return True

    def _place(self, value: fmt.RowChange, what: str, page: Page):
        """(code name, after?) from `after:`/`before:`, None when neither is given, False on error."""
        given = [k for k in ("after", "before") if getattr(value, k) is not None]
        if not given:
            return None
        if len(given) > 1:
            self.rep.error(value.at(), f"{what}: give `after` or `before`, not both")
            return False
        code = self.code_named(value.at(given[0]), getattr(value, given[0]), what, page)
        return False if code is None else (code.name, given[0] == "after")

    def _row(self, value: Any, code: Code, shown: str, where, what: str) -> Optional[Row]:
        if isinstance(value, str):
            return Row(code.name, shown, value, (), where)  # type: ignore[arg-type]  # the format's Recoverable
        others = dict(value.__pydantic_extra__ or {})
        for lang, other in others.items():
            if lang not in self.languages:
                self.rep.error(value.at(lang, of_key=True), f"{what}: unknown field {lang!r}; valid fields: "
                                                            f"recoverable, after, before, {', '.join(self.languages)}")
                return None
            if other == value.recoverable:
                self.rep.error(value.at(lang), f"{what}: the {lang} page agrees ({other}); record only a disagreement")
                return None
        return Row(code.name, shown, value.recoverable, tuple(others.items()), where)

    def not_known(self, record: fmt.Version, what: str, page: Page, rows) -> Optional[list[str]]:
        listed = {row.code for row in rows}
        result, ok = [], True
        for index, name in enumerate(record.not_listed_not_known):
            where = record.at("not_listed_not_known", index)
            code = self.code_named(where, name, what, page)
            if code is None:
                ok = False
            elif code.name in listed:
                self.rep.error(where, f"{what}: {name} is in rows, so its listing is known; remove it from "
                                      "not_listed_not_known")
                ok = False
            elif code.name in result:
                self.rep.error(where, f"{what}: {name} is named twice in not_listed_not_known")
                ok = False
            else:
                result.append(code.name)
        return result if ok else None

    def malformations(self, record: fmt.Version, what: str, page: Page, rows) -> Optional[tuple[Malformation, ...]]:
        listed = {row.code for row in rows}
        result, ok = [], True
        for item in record.malformations:
            code = self.code_named(item.at("code"), item.code, what, page)
            if code is not None and code.name not in listed:
                self.rep.error(item.at("code"), f"{what}: malformation of {item.code}, which the version does not list")
                code = None
            if item.shown not in item.sides:
                self.rep.error(item.at("shown"), f"{what}: shown must name one of the sides ({', '.join(item.sides)})")
                code = None
            if len(item.sides) < 2:
                self.rep.error(item.at("sides"), f"{what}: a malformation records at least two sides")
                code = None
            if code is None:
                ok = False
                continue
            result.append(Malformation(item.kind, code.name, item.field, item.line, item.shown,
                                       tuple(item.sides.items()), item.at()))
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
