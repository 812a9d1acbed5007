"""`import --upstream ... --ref REF`: every page and every code a release ships."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional


from generator.importing import yaml_edit as ye
from generator.reading.load import display_path, load_catalog
from generator.domain.codes import Code
from generator.domain.editions import Version
from generator.domain.family import Family
from generator.domain.model import Timeline
from generator.core.releases import UNRELEASED, release_key, sort_tags, tag_release
from generator.importing.catalog_files import Files, Plan, stage, write_staged
from generator.reading.yaml_source import bad_character
from generator.importing.page_source import ImportProblem, PageSource, Report, blob_text, read_rows, shipping_source
from generator.importing.one_page import first_language, other_language


# -- a whole release ---------------------------------------------------------------------------------------------


def import_release(location: Path, name: str, repo, ref: str) -> Report:
    """Every page of every family with a timeline (or a page's translation) in repository
    `name`, at `ref` (a tag, the branch head, or a commit for an untagged translation).
    Each step reads the catalog as the steps before it left it, in memory; the files are
    written at the end, all or none."""
    report = Report()
    release = _release_of(repo, ref)
    staged: dict[Path, str] = {}
    for step in ("codes", "first", "other"):  # the codes a page lists first, the pages a translation translates next
        catalog = load_catalog(location, {path: text.encode("utf-8") for path, text in staged.items()})
        for family in catalog.families:
            plan = Plan(family, Files(location, family, staged), report)
            if step == "codes":
                _release_codes(plan, name, repo, ref, release)
            for timeline in family.timelines:
                if step == "first":
                    _release_page(plan, timeline, name, repo, ref, release)
                elif step == "other":
                    _release_translations(plan, timeline, name, repo, ref, release)
            stage(plan, staged)
    report.done += [f"wrote {display_path(path)}" for path in write_staged(location, staged)]
    return report


def _release_of(repo, ref: str) -> Optional[str]:
    """The release a ref is: a tag's, `unreleased` for the branch head, None for another commit."""
    if ref in repo.release_tags():
        return tag_release(ref)
    if repo.commit(ref) == repo.commit("HEAD"):
        return UNRELEASED
    return None


def _release_page(plan: Plan, timeline: Timeline, name: str, repo, ref: str, release: Optional[str]) -> None:
    if timeline.repo != name or release is None:
        return
    found = [(path, repo.blob_at(ref, path)) for path in reversed(timeline.paths)]
    path, blob = next(((p, b) for p, b in found if b), (None, None))
    if path is None or blob is None:
        plan.report.todo.append(f"{timeline.id}: no page at {', '.join(timeline.paths)} at {ref}: "
                                "if it moved, add its path to the timeline's `paths` in family.yaml")
        return
    page = PageSource(blob_text(repo, blob, f"{name}:{path}@{ref}"), f"{name}:{path}@{ref}", False,
                      shipping_source(name, repo, ref, path, blob), repo, blob)
    edition_id = release + timeline.suffix
    rows = read_rows(plan.family, timeline, plan.family.languages[0], page)
    before = len(plan.report.done)
    first_language(plan, timeline, release, edition_id, rows, page)
    if len(plan.report.done) == before:
        plan.report.done.append(f"{edition_id}: already recorded")


def _release_translations(plan: Plan, timeline: Timeline, name: str, repo, ref: str, release: Optional[str]) -> None:
    """The timeline's pages in other languages that a version cites in this repository."""
    family = plan.family
    versions = [v for v in family.versions if v.timeline.id == timeline.id]
    cited = {(s.lang, s.path) for v in versions for s in v.sources
             if s.repo == name and s.path is not None and s.lang not in (None, family.languages[0])}
    for lang, path in sorted(cited):
        blob = repo.blob_at(ref, path)
        if blob is None:
            continue
        source = shipping_source(name, repo, ref, path, blob)
        same = [
            (v, s)
            for v in versions
            for s in v.sources
            if s.repo == name
            and s.path == path
            and s.lang == lang
            and repo.has_commit(s.commit)
            and repo.blob_at(s.commit, path) == blob
        ]
        if same:
            version, known = same[0]
            new_tags = [t for t in source.get("tags", []) if t not in known.tags]
            if new_tags:
                _add_tags(plan, version, known, new_tags)
            continue
        target = _translated_version(family, versions, release, timeline)
        if target is None:
            plan.report.todo.append(f"{timeline.id}: {name}:{path}@{ref} ({lang}): which version it translates is not "
                                    f"clear; import it with --edition ID --lang {lang} --ref {ref} --path {path}")
            continue
        page = PageSource(blob_text(repo, blob, f"{name}:{path}@{ref}"), f"{name}:{path}@{ref}", False, source)
        other_language(plan, timeline, target.editions[0], lang, read_rows(family, timeline, lang, page), source)


def _translated_version(
    family: Family, versions: list[Version], release: Optional[str], timeline: Timeline
) -> Optional[Version]:
    """The version a translation at a release is of: that release's; for an untagged commit,
    the newest version of a final release."""
    if release is not None:
        edition = family.edition(release + timeline.suffix)
        return None if edition is None else family.version_by_id[edition.version]
    final = [v for v in versions if any(family.edition_by_id[e].released and "-" not in family.edition_by_id[e].release
                                        for e in v.editions)]
    return final[-1] if final else None


def _add_tags(plan: Plan, version: Version, known, new_tags: list[str]) -> None:
    node = plan.files.version_node(version.id)
    item = next(n for n, s in zip(ye.items(ye.value(node, "sources")), version.sources) if s is known)
    plan.files.versions.replace(ye.value(item, "tags"), ye.flow(sort_tags(list(known.tags) + new_tags)))
    plan.report.done.append(
        f"{version.id}: {known.path} ({known.lang}) unchanged, shipped by {', '.join(new_tags)} too"
    )


# -- the codes of a release ---------------------------------------------------------------------------------------


@dataclass
class _Sources:
    """What a repository's source files say at one ref: members, bindings, constants, messages."""

    members: list = field(default_factory=list)  # python_source.Member of the enum, in order
    bindings: dict[str, str] = field(default_factory=dict)  # wrapper -> the constant it binds
    constants: list[tuple] = field(default_factory=list)  # (c_source.Constant, header path)
    messages: dict[str, tuple[str, str]] = field(default_factory=dict)  # C name -> (its message, where it is)
    read: set[str] = field(default_factory=set)  # the kinds of file read


def _sources_at(family: Family, name: str, repo, ref: str) -> _Sources:
    from generator.upstream import c_source
    from generator.upstream import python_source

    found = _Sources()
    for item in (u for u in family.upstream if u.repo == name):
        path, blob = repo.file_at(ref, item.paths)
        if blob is None:
            continue
        text = blob_text(repo, blob, f"{name}:{path}@{ref}")
        found.read.add(item.kind)
        if item.kind == "python" and family.python.shape == "enum":
            found.members = python_source.read_python(text, family.python.class_name).members
        elif item.kind == "binding":
            found.bindings.update((b.name, b.expression) for b in c_source.read_binding(text)[0])
        elif item.kind == "header":
            found.constants += [(c, item.header) for c in c_source.read_header(text, family.value_layouts)[0]]
        elif item.kind == "messages":
            found.messages.update((m.name, (m.text, f"{name}:{path}@{ref}:{m.line}"))
                                  for m in c_source.read_messages(text)[0])
    return found


def _message(found: _Sources, c_name: Optional[str]) -> Optional[str]:
    """The message upstream logs for a code; ImportProblem, where it is written, when the
    catalog cannot hold its text."""
    text, where = found.messages.get(c_name or "", (None, ""))
    why = bad_character(text) if text is not None else None
    if why:
        raise ImportProblem(f"{where}: the message of {c_name} holds a {why}; the catalog cannot hold it: "
                            "fix the message upstream, or add the code by hand")
    return text


def _statuses(family: Family, found: _Sources) -> dict[str, list[tuple]]:
    """The status constants the headers declare, by short name: (Constant, header path)."""
    from generator.upstream.c_source import is_status

    namespaces = {h.namespace for h in family.headers}
    by_short: dict[str, list[tuple]] = {}
    for constant, header in found.constants:
        if constant.namespace in namespaces and constant.value is not None \
                and is_status(constant, family.value_layouts):
            by_short.setdefault(constant.name, []).append((constant, header))
    return by_short


def _release_codes(plan: Plan, name: str, repo, ref: str, release: Optional[str]) -> None:
    """Codes upstream's source files have at a release that the catalog lacks (added, with
    where they came from), and codes they no longer have (obsolete, the reason left to a person)."""
    family = plan.family
    if release is None or not any(u.repo == name for u in family.upstream):
        return
    found = _sources_at(family, name, repo, ref)
    by_short = _statuses(family, found)
    known_python = {c.python_name for c in family.codes if c.python_name}
    known_c = {c.c_name for c in family.codes if c.c_name}
    values = {c.value: c for c in family.codes}
    previous: Optional[str] = None  # new members go after the catalog's code before them, in order
    for member in found.members:
        if member.name in known_python:
            previous = member.name
            _seen_in(plan, family.code_by_name[member.name], name, release)
            continue
        new = _new_member(plan, member, found, by_short, values, name, release)
        if new is not None:
            _insert_code(plan, new, after=previous)
    bound = {expr.rsplit("::", 1)[-1] for expr in found.bindings.values()}
    for short, declared in by_short.items():
        if short in known_c or short in bound or any(short == m.name for m in found.members):
            continue
        value = declared[0][0].value
        if value in values:
            continue
        code = {"c": short, "value": value, "cpp": _cpp_lines(declared), "log": _message(found, short)}
        _insert_code(plan, {**code, "added": {name: release}}, after=_by_value(family, value))
        plan.report.done.append(f"{short}: a new C/C++ code ({_literal(family, value)}), added in {name} {release}")
    earlier = [t for t in repo.release_tags() if release_key(tag_release(t)) < release_key(release)]  # type: ignore[operator]
    if earlier:
        before = _sources_at(family, name, repo, earlier[-1])
        _gone(plan, (found, by_short), (before, _statuses(family, before)), name, release)


def _new_member(plan: Plan, member, found: _Sources, by_short, values, name: str, release: str) -> Optional[dict]:
    from generator.upstream.python_source import Reference

    family = plan.family
    wrapper, c_name, value = None, None, member.value if isinstance(member.value, int) else None
    if isinstance(member.value, Reference):
        wrapper = member.value.name
        expression = found.bindings.get(wrapper)
        if expression is not None:
            short = expression.rsplit("::", 1)[-1]
            declared = by_short.get(short)
            if declared:
                c_name, value = short, declared[0][0].value
            elif expression in dict(family.runtime_constants):
                value = dict(family.runtime_constants)[expression]
    if value is None:
        plan.report.todo.append(f"{member.name}: a new member of {family.python.class_name} in {name} {release} whose "
                                "value could not be read from the binding and headers; add it to codes.yaml by hand")
        return None
    if value in values:
        plan.report.todo.append(f"{member.name}: a new member with the value of {values[value].name} ({value}); "
                                "add it to codes.yaml by hand")
        return None
    plan.report.done.append(f"{member.name}: a new code ({_literal(family, value)}), added in {name} {release}")
    return {"python": member.name, "c": c_name, "value": value, "wrapper": wrapper,
            "cpp": _cpp_lines(by_short.get(c_name, ())) if c_name else [], "log": _message(found, c_name),
            "added": {name: release}}


def _seen_in(plan: Plan, code: Code, name: str, release: str) -> None:
    """A code added in some repositories that this one now has too: it records where."""
    if not code.added or name in dict(code.added):
        return
    node = ye.value(plan.files.code_node(code.name), "added")
    added = {**dict(code.added), name: release}
    plan.files.codes.replace(node, ye.flow_map(list(added.items()), ids=tuple(added)))
    plan.report.done.append(f"{code.name}: {name} has it too, from {release}")


def _cpp_lines(declared) -> list[str]:
    return [f"      - {ye.flow_map([('name', constant.qualified), ('header', header)], ids=('name',))}"
            for constant, header in declared]


def _literal(family: Family, value: int) -> str:
    return f"0x{value:X}" if family.c.literals == "hex" and value >= 0 else str(value)


def _by_value(family: Family, value: int) -> Optional[str]:
    """The code a C-only code goes after: the last with a smaller value."""
    smaller = [c for c in family.codes if 0 <= c.value < value and c.in_c]
    return max(smaller, key=lambda c: c.value).name if smaller else None


def _insert_code(plan: Plan, code: dict, after: Optional[str]) -> None:
    family, files = plan.family, plan.files
    lines: list[str] = []
    for key in ("python", "c"):
        if code.get(key):
            lines.append(("  - " if not lines else "    ") + ye.entry(key, code[key]))
    lines.append(f"    value: {_literal(family, code['value'])}")
    if code.get("wrapper"):
        lines.append(f"    {ye.entry('wrapper', code['wrapper'])}")
    if code["cpp"]:
        lines += ["    cpp:"] + code["cpp"]
    if code.get("log") is not None:
        lines.append(f"    {ye.entry('log_message', code['log'])}")
    lines.append(f"    added: {ye.flow_map(list(code['added'].items()), ids=tuple(code['added']))}")
    codes = ye.items(ye.value(files.roots[files.codes_path], "codes"))
    if after is None:
        files.codes.insert_before(codes[0], lines)
    else:
        files.codes.insert_after(files.code_node(after), lines)


def _gone(plan: Plan, now: tuple, before: tuple, name: str, release: str) -> None:
    """Codes this repository's files had at its release before and no longer have: obsolete
    since this release (why is left to a person)."""
    family = plan.family
    for code in family.codes:
        if code.obsolete is not None or not code.present_at(name, release):
            continue
        if not _has(family, code, *before) or _has(family, code, *now):
            continue
        node = plan.files.code_node(code.name)
        text_keys = [k for k in ("meaning", "cause", "solution") if ye.get(node, k)]
        line = [f"    obsolete: {ye.flow_map([('since', release)], ids=('since',))}"]
        if text_keys:
            plan.files.codes.insert_before(ye.key(node, text_keys[0]), line)
        else:
            plan.files.codes.insert_after(node.value[-1][1], line)
        plan.report.done.append(f"{code.name}: gone from {name} at {release}: obsolete since {release}")
        plan.report.todo.append(
            f"{code.name}: word why it is obsolete (codes.yaml: obsolete.reason, in every language)"
        )


def _has(family: Family, code: Code, found: _Sources, by_short: dict) -> bool:
    """Whether a repository's files at a ref have the code (by its Python or its C name)."""
    return (code.python_name is not None and code.python_name in {m.name for m in found.members}) or \
        (code.c_name is not None and code.c_name in by_short)
