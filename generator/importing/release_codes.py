"""The codes of a release: what one repository's source files declare at a ref, matched to the
catalog's codes by value (a code's identity within its family).

What the files declare that the catalog lacks is a new code (`added` there from this release);
a code the catalog has under another name there is renamed there from this release (`earlier`
keeps the old name, `python`/`c` the newest); a value that a kept name now has, where the
previous release had the code at another value and this one has nothing at it, is the code's
value fixed (`earlier` keeps the old value, `value` the newest); a code the repository's previous
release had and this one has not is `removed` there from this release. Nothing is ever deleted.

Both shapes of a family's Python side are read: an enum (status.py's members, their values
through the binding's constants and the headers), or module constants (the names a package
exports that the binding binds to a header's status constant).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarint import HexCapsInt

from generator.core.releases import release_key, tag_release
from generator.domain.codes import Code
from generator.domain.family import Family
from generator.importing import catalog_yaml as cy
from generator.importing.catalog_files import Plan
from generator.importing.page_source import ImportProblem, blob_text
from generator.reading.yaml_source import bad_character


@dataclass
class Declared:
    """A code as one repository's files declare it at a ref."""

    value: int
    python: Optional[str] = None  # its name in the Python source
    c: Optional[str] = None  # its name among the headers' status constants
    wrapper: Optional[str] = None  # the binding's constant the Python side reads
    cpp: list[tuple[str, str]] = field(default_factory=list)  # (qualified name, header) of each declaration
    message: Optional[str] = None


@dataclass
class _Files:
    """What a repository's source files say at one ref."""

    members: list = field(default_factory=list)  # python_source.Member of the enum, in order
    mapping: list = field(default_factory=list)  # python_source.MapEntry of code_2_status's map
    reserved: list = field(default_factory=list)  # (name, line) assigned in the enum that Enum keeps for itself
    where: dict = field(default_factory=dict)  # kind -> "repo:path@ref" of the file read
    exported: list[str] = field(default_factory=list)  # names a constants package exports
    bindings: dict[str, str] = field(default_factory=dict)  # wrapper -> the expression it binds
    constants: list[tuple] = field(default_factory=list)  # (c_source.Constant, header path)
    messages: dict[str, tuple[str, str]] = field(default_factory=dict)  # C name -> (message, where)


def _read(family: Family, name: str, repo, ref: str) -> _Files:
    from generator.upstream import c_source, python_source

    found = _Files()
    for item in (u for u in family.upstream if u.repo == name):
        path, blob = repo.file_at(ref, item.paths)
        if blob is None:
            continue
        where = f"{name}:{path}@{ref}"
        text = blob_text(repo, blob, where)
        found.where[item.kind] = where
        if item.kind == "python" and family.python.shape == "enum":
            source = python_source.read_python(text, family.python.class_name)
            found.members, found.mapping, found.reserved = source.members, source.mapping, source.reserved
        elif item.kind == "python":
            found.exported = [n for n, _ in python_source.read_python(text, None).exported]
        elif item.kind == "binding":
            found.bindings.update((b.name, b.expression) for b in c_source.read_binding(text)[0])
        elif item.kind == "header":
            found.constants += [(c, item.header) for c in c_source.read_header(text, family.value_layouts)[0]]
        elif item.kind == "messages":
            found.messages.update((m.name, (m.text, f"{where}:{m.line}")) for m in c_source.read_messages(text)[0])
    return found


def declared_at(family: Family, name: str, repo, ref: str, said: Optional[list[str]] = None) -> list[Declared]:
    """Every code the repository's files declare at `ref`: the Python side's in its order, then
    the headers' other status constants in value order. `said` gathers, for a person, where the
    files disagree among themselves (what the import cannot decide)."""
    from generator.upstream.c_source import is_status

    files = _read(family, name, repo, ref)
    namespaces = {h.namespace for h in family.headers}
    by_value: dict[int, Declared] = {}
    statuses = [(c, h) for c, h in files.constants if c.namespace in namespaces and c.value is not None
                and is_status(c, family.value_layouts)]
    header_value = {c.name: c.value for c, _ in statuses}
    header_value.update({c.qualified: c.value for c, _ in statuses})
    facts = dict(family.runtime_constants)
    known_cpp = {n.name for c in family.codes for n in c.cpp}  # and what the headers declare that is no status:
    known_cpp |= {c.qualified for c, _ in files.constants} | {c.name for c, _ in files.constants}
    order: list[int] = []
    for python, wrapper, expression in _python_side(family, files):
        value = expression if isinstance(expression, int) else header_value.get(expression or "")
        value = facts.get(expression) if value is None and isinstance(expression, str) else value
        if value is None:
            if said is not None and expression not in known_cpp:  # a header outside the repository names it
                what = f"the binding's {wrapper}" if wrapper else "its value"
                via = f" (bound to {expression})" if isinstance(expression, str) else ""
                said.append(f"{python}: {files.where.get('python', name)} declares it, but {what}{via} is "
                            "found in no header or binding read at this ref: no code is recorded for it; check "
                            "the binding and headers upstream, or record the code by hand")
            continue
        bound = expression.rsplit("::", 1)[-1] if isinstance(expression, str) and expression in header_value else None
        by_value[value] = Declared(value, python, bound, wrapper)
        order.append(value)
    for constant, header in sorted(statuses, key=lambda pair: pair[0].value):
        declared = by_value.setdefault(constant.value, Declared(constant.value))
        declared.c = declared.c or constant.name
        declared.cpp.append((constant.qualified, header))
        if constant.value not in order:
            order.append(constant.value)
    for declared in by_value.values():
        declared.message = _message(files, declared.c)
    if said is not None:
        said += _disagreements(family, files, by_value)
    return [by_value[v] for v in order]


def _disagreements(family: Family, files: _Files, by_value: dict[int, Declared]) -> list[str]:
    """Where status.py's enum, its code_2_status map and the binding disagree at one ref."""
    where = files.where.get("python", "status.py")
    lines = [f"{name}: {where}:{line} assigns it in the enum, but Enum makes no member of a name that starts with "
             "'_': the module cannot have it either; if upstream meant a code, it needs a name of its own"
             for name, line in files.reserved]
    if files.members and family.python.code_2_status:
        mapped = {entry.member for entry in files.mapping}
        members = {m.name for m in files.members}
        wrapped = [d.python for d in by_value.values() if d.python and d.wrapper]
        lines += [f"{member}: {where}: code_2_status does not map it (its binding constant is bound): upstream's "
                  f"code_2_status turns its value into {family.python.unknown_status}, while the generated "
                  "module's maps every member that has a binding constant: check with upstream"
                  for member in wrapped if member not in mapped]
        lines += [f"{entry.member}: {where}:{entry.line}: code_2_status maps it, but the enum has no such member"
                  for entry in files.mapping if entry.member not in members]
    return lines


def _python_side(family: Family, files: _Files) -> list[tuple[str, Optional[str], object]]:
    """(Python name, wrapper, an int or the expression its value is read from) per Python code."""
    from generator.upstream.python_source import Reference

    if family.python.shape == "enum":
        return [(m.name, m.value.name if isinstance(m.value, Reference) else None,
                 files.bindings.get(m.value.name) if isinstance(m.value, Reference) else m.value)
                for m in files.members]
    return [(n, n, files.bindings[n]) for n in files.exported if n in files.bindings]


def _message(files: _Files, c_name: Optional[str]) -> Optional[str]:
    """The message upstream logs for a code; ImportProblem, where it is written, when the
    catalog cannot hold its text."""
    text, where = files.messages.get(c_name or "", (None, ""))
    why = bad_character(text) if text is not None else None
    if why:
        raise ImportProblem(f"{where}: the message of {c_name} holds a {why}; the catalog cannot hold it: "
                            "fix the message upstream, or add the code by hand")
    return text


# -- recording them -------------------------------------------------------------------------------------------


def record_codes(plan: Plan, name: str, repo, ref: str, release: Optional[str]) -> None:
    """The codes of `name` at `ref` (a tag's release, or unreleased) into the catalog."""
    family = plan.family
    if release is None or not any(u.repo == name for u in family.upstream):
        return
    said: list[str] = []
    now = declared_at(family, name, repo, ref, said)
    plan.report.todo += [f"{name}@{ref}: {line}" for line in said]
    by_value = {value: c for c in family.codes for value in c.values}
    previous: Optional[str] = None  # new codes go after the catalog's code before them, in order
    fixed: set[str] = set()
    for declared in now:
        code = by_value.get(declared.value) or _value_fixed(plan, declared, now, name, release)
        if code is None:
            _new_code(plan, declared, name, release, previous)
            continue
        previous = code.name
        if code.value_at(name, release) != declared.value:
            fixed.add(code.name)
            _record_value(plan, code, declared.value, name, release)
        _seen_in(plan, code, name, release)
        _renamed(plan, code, declared, name, release)
    earlier = [t for t in repo.release_tags() if (release_key(tag_release(t)) or ()) < (release_key(release) or ())]
    gone = [repo.file_at(earlier[-1], u.paths)[0] for u in family.upstream if u.repo == name and earlier
            and repo.file_at(earlier[-1], u.paths)[1] is not None and repo.file_at(ref, u.paths)[1] is None]
    if gone:  # a file that moved is not a removal of its codes
        plan.report.todo.append(f"{family.id}: {name} has no {', '.join(gone)} at {ref} (it had at {earlier[-1]}): "
                                  "no code is recorded as removed; add the new path to the family's `upstream`")
    elif earlier:
        previously = declared_at(family, name, repo, earlier[-1])
        _one_api_dropped(plan, previously, now, name, release)
        before = {d.value for d in previously}
        for code in family.codes:
            if code.value in before and code.value not in {d.value for d in now} and code.present_at(name, release) \
                    and code.name not in fixed:
                set_release(plan, code, "removed", name, release)
                plan.report.done.append(f"{code.name}: no longer in {name} from {release} on (removed there; its "
                                        "older releases ship it)")


def _one_api_dropped(plan: Plan, previously: list[Declared], now: list[Declared], repo: str, release: str) -> None:
    """A code the previous release had in both APIs and this one in one only: removed from the other."""
    by_value = {c.value_at(repo, release): c for c in plan.family.codes}
    current = {d.value: d for d in now}
    for before in previously:
        after, code = current.get(before.value), by_value.get(before.value)
        if after is None or code is None:
            continue
        for api, words, had, has in (("python", "Python API", before.python, after.python),
                                     ("c", "C/C++ headers", before.c, after.c)):
            if had and not has and code.api_present_at(repo, release, api):
                _record_api_removal(plan, code, api, repo, release)
                plan.report.done.append(f"{code.name}: no longer in {repo}'s {words} from {release} on (the other "
                                        "API still has it)")
                plan.report.todo.append(f"{code.name}: {repo} {release} dropped it from its {words} only: check "
                                        "that upstream meant it (a page or the other API may still document it)")


def _record_api_removal(plan: Plan, code: Code, api: str, repo: str, release: str) -> None:
    """{repo: {api: release}} in the code's `removed` map."""
    node = plan.files.code(code.name)
    if "removed" in node and repo in node["removed"]:
        held = node["removed"][repo]
        if isinstance(held, dict):
            cy.set_value(held, api, cy.ident(release))
            return
    _write_map(node, "removed", {**{r: node["removed"][r] for r in node.get("removed", {})},
                                 repo: cy.flow_map([(api, release)], ids=(api,))})


def _value_fixed(plan: Plan, declared: Declared, now: list[Declared], repo: str, release: str) -> Optional[Code]:
    """The code whose value this release changed: one the repository's files name as they
    named it before (Python or C), whose earlier value they no longer declare."""
    declared_values = {d.value for d in now}
    for code in plan.family.codes:
        python, c = code.names_at(repo, release)
        if ((declared.python and declared.python == python) or (declared.c and declared.c == c)) \
                and code.value_at(repo, release) not in declared_values:
            return code
    return None


def _record_value(plan: Plan, code: Code, value: int, repo: str, release: str) -> None:
    """The code's value in `repo` from `release` on is `value`: the newest, kept in `value` (the
    old one in `earlier`), or one that another repository has had since an earlier release."""
    family = plan.family
    node = plan.files.code(code.name)
    old = code.value_at(repo, release)
    if value == code.value:  # another repository fixed it before: this one follows
        _follow(node, code, next(i for i, e in enumerate(code.earlier) if e.value == old), repo, release)
    elif old == code.value:
        cy.set_value(node, "value", _written(family, value))
        _add_earlier(node, [("value", _written(family, old))], repo, release)
    else:
        raise ImportProblem(f"{repo}@{release}: {code.name} becomes {_literal(family, value)}, while the catalog's "
                            f"newest value of it is {_literal(family, code.value)}: record this by hand (codes.yaml "
                            "`earlier`)")
    plan.report.done.append(f"{code.name}: its value is {_literal(family, value)} from {release} on ({repo}); "
                            f"older releases keep {_literal(family, old)}")
    plan.report.todo.append(f"{code.name}: {repo} changed its value at {release} under the same name: code that "
                            f"compares with {_literal(family, old)} no longer matches; the module's lookup() still "
                            "finds the old value, and its docstring and the header's comment say which releases "
                            "used which")


def _new_code(plan: Plan, declared: Declared, name: str, release: str, after: Optional[str]) -> None:
    family = plan.family
    taken = {n: c for c in family.codes for n in (*c.python_names, *c.c_names)}
    clash = taken.get(declared.python or "") or taken.get(declared.c or "")
    if clash is not None:
        raise ImportProblem(
            f"{name}@{release}: {declared.python or declared.c} now has the value {_literal(family, declared.value)}, "
            f"while {clash.name} keeps {clash.hex} there too: two codes cannot share a name; record the new code "
            "by hand, under a name of its own")
    node = CommentedMap()
    for key, text in (("python", declared.python), ("c", declared.c)):
        if text:
            node[key] = cy.text(text)
    literal = _literal(family, declared.value)
    node["value"] = _written(family, declared.value)
    if declared.wrapper:
        node["wrapper"] = cy.text(declared.wrapper)
    if declared.cpp:
        node["cpp"] = CommentedSeq(cy.flow_map([("name", q), ("header", h)], ids=("name",)) for q, h in declared.cpp)
    if declared.message is not None:
        node["log_message"] = cy.text(declared.message)
    node["added"] = cy.flow_map([(name, release)], ids=(name,))
    codes = plan.files.codes
    anchor = after if after is not None else _by_value(family, declared.value)
    at = 0 if anchor is None else next(i for i, c in enumerate(codes) if c is plan.files.code(anchor)) + 1
    cy.insert_item(codes, at, node)
    what = "code" if declared.python else "C/C++ code"
    plan.report.done.append(f"{declared.python or declared.c}: a new {what} ({literal}), "
                            f"added in {name} {release}")


def _renamed(plan: Plan, code: Code, declared: Declared, name: str, release: str) -> None:
    """A code the repository now names otherwise: renamed there from this release."""
    for kind, new, old in (("python", declared.python, code.python_at(name, release)),
                           ("c", declared.c, code.c_at(name, release))):
        if new is None or old is None or new == old:
            continue
        if kind == "c" and any(q.rsplit("::", 1)[-1] == old for q, _ in declared.cpp):
            continue  # the old name is still declared (another header): not a rename
        _record_rename(plan, code, kind, old, new, name, release)
        which = "Python" if kind == "python" else "C"
        plan.report.done.append(f"{old}: renamed to {new} in {release} ({name}, its {which} name)")


def _record_rename(plan: Plan, code: Code, kind: str, old: str, new: str, repo: str, release: str) -> None:
    node = plan.files.code(code.name)
    newest = getattr(code, f"{kind}_name")
    if new == newest:  # another repository renamed it before: this one follows
        _follow(node, code, next(i for i, r in enumerate(code.earlier) if getattr(r, kind) == old), repo, release)
        return
    if old != newest:
        raise ImportProblem(f"{repo}@{release}: {old} becomes {new}, while the catalog's newest name of "
                            f"{code.name} is {newest}: record this rename by hand (codes.yaml `earlier`)")
    cy.set_value(node, kind, cy.text(new))
    _add_earlier(node, [(kind, old)], repo, release)
    if kind == "c":
        for index, cpp in enumerate(code.cpp):
            if cpp.short == old:
                item = node["cpp"][index]
                holder, key = (item, "name") if isinstance(item, dict) else (node["cpp"], index)
                cy.set_value(holder, key, cy.ident(f"{cpp.namespace}::{new}"))


def _seen_in(plan: Plan, code: Code, name: str, release: str) -> None:
    """A code added in some repositories that this one now has too: it records where; one that a
    release older than the recorded one ships already (a tag imported after a newer one, or after
    the branch head): added from the older release."""
    added = dict(code.added)
    if added and name not in added:
        set_release(plan, code, "added", name, release)
        plan.report.done.append(f"{code.name}: {name} has it too, from {release}")
    elif name in added and (release_key(added[name]) or ()) > (release_key(release) or ()):
        _write_map(plan.files.code(code.name), "added", {**added, name: release})
        plan.report.done.append(f"{code.name}: {name} ships it from {release} on (before {added[name]}, as recorded)")


def set_release(plan: Plan, code: Code, key: str, repo: str, release: str) -> None:
    """{repo: release} in the code's `added` or `removed` map, written or extended."""
    node = plan.files.code(code.name)
    current = dict(getattr(code, key))
    if repo in current:
        return
    _write_map(node, key, {**current, repo: release})


def _write_map(node: CommentedMap, key: str, mapping: dict) -> None:
    """A code's `added` or `removed` map, as one flow mapping, replaced or written before its texts."""
    value = cy.flow_map(list(mapping.items()), ids=tuple(mapping))
    if key in node:
        cy.set_value(node, key, value)
        return
    text_keys = [k for k in ("notes", "meaning", "cause", "solution") if k in node]
    cy.insert_key(node, list(node).index(text_keys[0]) if text_keys else len(node), key, value)


def _follow(node: CommentedMap, code: Code, index: int, repo: str, release: str) -> None:
    """Another repository made the same change before: `repo` joins the earlier item's `until`."""
    until = {**dict(code.earlier[index].until), repo: release}
    cy.set_value(node["earlier"][index], "until", cy.flow_map(list(until.items()), ids=tuple(until)))


def _written(family: Family, value: int):
    """A value as the family's catalog writes it: hex (HexCapsInt, 0x5010B01A) or decimal."""
    return HexCapsInt(value) if _literal(family, value).startswith("0x") else value


def _literal(family: Family, value: int) -> str:
    return f"0x{value:X}" if family.c.literals == "hex" and value >= 0 else str(value)


def _by_value(family: Family, value: int) -> Optional[str]:
    """The code a C-only code goes after: the last with a smaller value."""
    smaller = [c for c in family.codes if 0 <= c.value < value and c.in_c]
    return max(smaller, key=lambda c: c.value).name if smaller else None


def _add_earlier(node: CommentedMap, facts: list, repo: str, release: str) -> None:
    """An item of the code's `earlier` (written after its names), holding until `release` in `repo`."""
    entry = cy.flow_map([*facts, ("until", cy.flow_map([(repo, release)], ids=(repo,)))])
    if "earlier" in node:
        cy.insert_item(node["earlier"], len(node["earlier"]), entry)
    else:
        cy.insert_key(node, list(node).index("c" if "c" in node else "python") + 1, "earlier", CommentedSeq([entry]))
