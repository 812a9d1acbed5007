"""What an import changes in the catalog files, and writing them all or none."""
from __future__ import annotations

import contextlib
import json
import os
import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Optional

from ruamel.yaml.error import YAMLError
from ruamel.yaml.nodes import Node

from generator.importing import yaml_edit as ye
from generator.importing.framing import layout_lines
from generator.reading.load import catalog_groups, display_path, load_catalog
from generator.core.files import read_regular
from generator.domain.codes import Code
from generator.domain.family import Family
from generator.writing.files import atomic_write
from generator.core.problems import CatalogError
from generator.importing.page_source import ImportProblem, MAX_PROBLEMS_SHOWN, Report


# -- the family's files ----------------------------------------------------------------------------------------


class Files:
    """A family's catalog files, their composed YAML and the edits pending on them."""

    def __init__(self, location: Path, family: Family, staged: Optional[Mapping[Path, str]] = None):
        shown = set(family.files)
        self.location = location
        self.paths = [p for _, paths in catalog_groups(location) for p in paths if display_path(p) in shown]
        self.edits = {p: ye.FileEdit(current_text(p, staged or {})) for p in self.paths}
        self.roots = {p: _composed(p, self.edits[p]) for p in self.paths}
        self.versions_path = self._holding("versions")
        self.codes_path = self._holding("codes")

    def _holding(self, section: str) -> Path:
        return next(p for p in self.paths if ye.get(self.roots[p], section) is not None)

    @property
    def versions(self) -> ye.FileEdit:
        return self.edits[self.versions_path]

    @property
    def codes(self) -> ye.FileEdit:
        return self.edits[self.codes_path]

    def timeline_node(self, timeline: str) -> Optional[Node]:
        found = ye.get(ye.value(self.roots[self.versions_path], "versions"), timeline)
        return None if found is None else found[1]

    def version_node(self, version_id: str) -> Node:
        for _, _, nodes in ye.pairs(ye.value(self.roots[self.versions_path], "versions")):
            for node in ye.items(nodes):
                found = ye.get(node, "version")
                if found is not None and str(found[1].value) == version_id:
                    return node
        raise KeyError(version_id)  # pragma: no cover - versions come from the loaded model

    def code_node(self, name: str) -> Node:
        for node in ye.items(ye.value(self.roots[self.codes_path], "codes")):
            for key in ("python", "c"):
                found = ye.get(node, key)
                if found is not None and str(found[1].value) == name:
                    return node
        raise KeyError(name)  # pragma: no cover

    def add_timeline_path(self, timeline: str, lang: str, first: str, path: str) -> None:
        """A path where the timeline's page in `lang` is kept now (its newest), in family.yaml."""
        holder = self._holding("family")
        pages = ye.value(ye.value(self.roots[holder], "family"), "pages")
        node = next(t for page in ye.items(pages) for t in ye.items(ye.value(page, "timelines"))
                    if str(ye.value(t, "id").value) == timeline)
        edit = self.edits[holder]
        translations = ye.get(node, "translations")
        found = ye.get(translations[1], lang) if translations is not None else None
        known = ye.value(node, "paths") if lang == first else (found[1] if found is not None else None)
        if known is not None:
            _append(edit, known, path)
            return
        item = f"- {ye.scalar(path)}"
        column = ye.key(node, "id").start_mark.column
        lines = [" " * (column + 2) + f"{lang}:", " " * (column + 4) + item]
        if translations is None:
            edit.insert_after(ye.value(node, "paths") if ye.get(node, "paths") else node,
                              [" " * column + "translations:"] + lines)
        else:
            edit.insert_after(list(ye.pairs(translations[1]))[-1][2], lines)

    def rendered(self) -> dict[Path, str]:
        return {p: e.result() for p, e in self.edits.items()}


def _append(edit: ye.FileEdit, sequence: Node, text: str) -> None:
    """`text` appended to a sequence of scalars, in the style it is written in."""
    values = ye.items(sequence)
    if getattr(sequence, "flow_style", False) or not values:
        edit.replace(sequence, ye.flow([str(v.value) for v in values] + [text]))
    else:
        edit.insert_after(values[-1], [edit.item_indent(values[-1]) + f"- {ye.scalar(text)}"])


def _composed(path: Path, edit: ye.FileEdit) -> Node:
    """The file's YAML as the editor composes it (ruamel.yaml's own parser, which keeps every
    position): a file the catalog's loader read and this one cannot is refused, not a traceback."""
    try:
        return edit.root()
    except YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"{display_path(path)}:{mark.line + 1}:{mark.column + 1}" if mark else display_path(path)
        raise ImportProblem(f"{where}: the import cannot edit this file ({' '.join(str(error).split())[:200]}); "
                            "write the change by hand") from None


@dataclass
class Plan:
    """What an import changes, gathered before any text is written."""

    family: Family
    files: Files
    report: Report
    renamed: dict[str, str] = dataclasses.field(default_factory=dict)  # version id -> its new id
    entries: dict[tuple[str, str], "FieldEdit"] = dataclasses.field(default_factory=dict)
    new_versions: dict[str, str] = dataclasses.field(
        default_factory=dict
    )  # version id added by this import -> its timeline

    def timeline_of(self, version_id: str) -> Optional[str]:
        known = self.family.version_by_id.get(version_id)
        return known.timeline.id if known is not None else self.new_versions.get(version_id)

    def field_edit(self, code: Code, field_name: str) -> "FieldEdit":
        key = (code.name, field_name)
        if key not in self.entries:
            found = ye.get(self.files.code_node(code.name), field_name)
            items = ye.items(found[1]) if found else []
            written = [[str(s.value) for s in ye.items(ye.value(item, "from"))] for item in items]
            marks = [ye.get(item, "untranslated") for item in items]
            languages = [
                {k for k, _, _ in ye.pairs(item) if k in self.family.languages}
                | ({str(v.value) for v in ye.items(mark[1])} if mark else set())
                for item, mark in zip(items, marks)
            ]
            markdown = [ye.get(item, "markdown") is not None and str(ye.value(item, "markdown").value).lower() == "true"
                        for item in items]
            self.entries[key] = FieldEdit(code, field_name, written, languages, markdown)
        return self.entries[key]


@dataclass
class FieldEdit:
    code: Code
    field: str
    written: list[list[str]]  # each entry's `from`, as written
    languages: list[set[str]]  # each entry's languages, texts and untranslated marks
    markdown: list[bool]  # each entry's `markdown: true`
    new: list[dict] = dataclasses.field(
        default_factory=list
    )  # entries to add: {from: [...], texts: {lang: text}, untranslated: [...]}
    starts: dict[int, list[str]] = dataclasses.field(default_factory=dict)  # entry index -> its new `from`
    texts: dict[tuple[int, str], str] = dataclasses.field(default_factory=dict)  # (entry index, lang) -> its text now
    marked: dict[int, bool] = dataclasses.field(default_factory=dict)  # entry index -> its `markdown` now
    dropped: set[tuple[int, str]] = dataclasses.field(default_factory=set)  # (entry index, lang) it no longer holds

    def current(self, index: int) -> list[str]:
        return self.starts.get(index, self.written[index])

    def holds(self, index: int, lang: str) -> bool:
        return lang in self.languages[index]


# -- writing -------------------------------------------------------------------------------------------------


def _render_fields(plan: Plan) -> None:
    files = plan.files
    for (name, field_name), edit in plan.entries.items():
        code_node = files.code_node(name)
        found = ye.get(code_node, field_name)
        nodes = ye.items(found[1]) if found else []
        for index, starts in edit.starts.items():
            item = nodes[index]
            if starts == edit.written[index]:
                continue
            if starts:
                files.codes.replace(ye.value(item, "from"), ye.flow(starts, quote=True))
            else:
                files.codes.delete_lines(item, item)
        for (index, lang), text in edit.texts.items():
            _set_entry_text(files.codes, nodes[index], lang, text)
        for index, markdown in edit.marked.items():
            if markdown != edit.markdown[index]:
                _set_markdown(files.codes, nodes[index], markdown)
        for index, lang in sorted(edit.dropped):
            _drop_language(files.codes, nodes[index], lang)
        lines = []
        for new in edit.new:
            lines.append(f"      - from: {ye.flow(new['from'], quote=True)}")
            if new.get("markdown"):
                lines.append("        markdown: true")
            for lang, text in new["texts"].items():
                lines += ye.text_lines(lang, text, 8)
            if new["untranslated"]:
                lines.append(f"        untranslated: {ye.flow(new['untranslated'])}")
        if not lines:
            continue
        if found is not None and nodes:
            files.codes.insert_after(nodes[-1], lines)
        else:
            later = [k for k in ("cause", "solution") if ("meaning", "cause", "solution").index(k) >
                     ("meaning", "cause", "solution").index(field_name) and ye.get(code_node, k)]
            head = [f"    {field_name}:"] + lines
            if later:
                files.codes.insert_before(ye.key(code_node, later[0]), head)
            else:
                files.codes.insert_after(code_node, head)


def _set_entry_text(codes: ye.FileEdit, item: Node, lang: str, text: str) -> None:
    """An entry's text in one language set, its untranslated mark for that language lifted."""
    found, mark = ye.get(item, lang), ye.get(item, "untranslated")
    lines = ye.text_lines(lang, text, 8)
    if found is not None:
        codes.replace_lines(found[0], found[1], lines)
    if mark is not None and lang in {str(v.value) for v in ye.items(mark[1])}:
        rest = [str(v.value) for v in ye.items(mark[1]) if str(v.value) != lang]
        if rest:
            codes.replace(mark[1], ye.flow(rest))
            codes.insert_before(mark[0], lines)
        else:
            codes.replace_lines(mark[0], mark[1], lines)


def _set_markdown(codes: ye.FileEdit, item: Node, markdown: bool) -> None:
    """An entry's `markdown: true` written, or taken away."""
    found = ye.get(item, "markdown")
    if markdown and found is None:
        codes.insert_after(ye.value(item, "from"), ["        markdown: true"])
    elif not markdown and found is not None:
        codes.delete_lines(found[0], found[1])


def _drop_language(codes: ye.FileEdit, item: Node, lang: str) -> None:
    """An entry no longer holds a language: its text, or its untranslated mark, goes (a new entry
    holds it, written otherwise)."""
    found, mark = ye.get(item, lang), ye.get(item, "untranslated")
    if found is not None:
        codes.delete_lines(found[0], found[1])
    elif mark is not None:
        rest = [str(v.value) for v in ye.items(mark[1]) if str(v.value) != lang]
        if rest:
            codes.replace(mark[1], ye.flow(rest))
        else:
            codes.delete_lines(mark[0], mark[1])


def _rename_starts(plan: Plan) -> None:
    """References to a version renamed by the import (the branch head's, now a release's)."""
    if not plan.renamed:
        return
    for code in plan.family.codes:
        for field_name, entries in code.texts:
            if not any(s in plan.renamed for e in entries for s in e.starts):
                continue
            edit = plan.field_edit(code, field_name)
            for index in range(len(edit.written)):
                if any(s in plan.renamed for s in edit.current(index)):
                    edit.starts[index] = [plan.renamed.get(s, s) for s in edit.current(index)]
    for version in plan.family.versions:
        if version.based_on in plan.renamed:
            node = plan.files.version_node(version.id)
            plan.files.versions.replace(ye.value(node, "based_on"), ye.quoted(plan.renamed[version.based_on]))


def current_text(path: Path, staged: Mapping[Path, str]) -> str:
    """A catalog file's text: as an import in progress has staged it, else as it is on disk."""
    return staged[path] if path in staged else path.read_text(encoding="utf-8")


def stage(plan: Plan, staged: dict[Path, str]) -> None:
    """Apply the plan to the staged texts, once the catalog they make is valid: nothing is
    written (an import that brings in several steps writes them all at its end, or none)."""
    _rename_starts(plan)
    _render_fields(plan)
    rendered = plan.files.rendered()
    changed = {path: text for path, text in rendered.items() if text != current_text(path, staged)}
    _validate(plan.files.location, {**staged, **changed})
    staged.update(changed)


def write(plan: Plan) -> list[Path]:
    """Apply the plan, validate the result, write the files that changed."""
    staged: dict[Path, str] = {}
    stage(plan, staged)
    return write_staged(plan.files.location, staged)


def write_staged(location: Path, staged: Mapping[Path, str]) -> list[Path]:
    """Write the staged texts that differ from their files, all or none: the files written."""
    changed = {path: text for path, text in staged.items() if text != path.read_text(encoding="utf-8")}
    write_together(location, {path: text.encode("utf-8") for path, text in changed.items()})
    return sorted(changed)


# -- several files, all or none ------------------------------------------------------------------------------

IMPORT_JOURNAL = ".import-journal.json"


def journal_of(location: Path) -> Path:
    """Where an import that writes several catalog files keeps its journal while it renames them."""
    return location / IMPORT_JOURNAL if location.is_dir() else location.parent / f".{location.name}{IMPORT_JOURNAL}"


def write_together(location: Path, files: dict[Path, bytes]) -> None:
    """Write the files so that a run killed part-way leaves all of them old or, once the
    journal is written, a journal from which the next import finishes them: every new text
    is written beside its file first, then the journal naming them, then each is renamed."""
    if len(files) <= 1:
        for path, data in files.items():
            atomic_write(path, data)
        return
    journal, temps = journal_of(location), {}
    try:
        for path, data in files.items():
            # a name nobody can foresee, made here (never through a link planted beside the file)
            temp = path.with_name(f".{path.name}.import-{os.getpid()}-{os.urandom(4).hex()}")
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
            temps[path] = temp
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
        atomic_write(journal, json.dumps({"pid": os.getpid(), "files": [[str(p), str(t)] for p, t in temps.items()]},
                                         ensure_ascii=False).encode("utf-8"))
    except BaseException:
        for temp in temps.values():
            with contextlib.suppress(OSError):
                temp.unlink()
        raise
    for path, temp in temps.items():
        os.replace(temp, path)
    journal.unlink()


def finish_stopped_import(location: Path) -> list[str]:
    """Finish the renames of an import that was stopped after writing its journal; the files
    it finished (none when no import was stopped). ImportProblem when the journal is not one."""
    journal = journal_of(location)
    if not os.path.lexists(journal):
        return []
    try:
        data = json.loads(read_regular(journal, 1 << 20).decode("utf-8"))
        pairs = [(Path(p), Path(t)) for p, t in data["files"]]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        raise ImportProblem(f"{journal}: not the journal of an import; check the catalog with `git status`, "
                            "then remove this file") from None
    base = (location if location.is_dir() else location.parent).resolve()
    finished = []
    for path, temp in pairs:
        if path.resolve().parent != temp.resolve().parent or not str(path.resolve()).startswith(str(base) + os.sep):
            raise ImportProblem(f"{journal}: names {path}, outside the catalog; remove this file")
        if os.path.lexists(temp):
            os.replace(temp, path)
            finished.append(display_path(path))
    journal.unlink()
    return finished


def _validate(location: Path, texts: Mapping[Path, str]) -> None:
    """Load the catalog as the import would leave it (`texts` read instead of those files);
    CatalogError stops the import, showing each problem's line as the import would write it."""
    try:
        load_catalog(location, {path: text.encode("utf-8") for path, text in texts.items()})
    except CatalogError as error:
        by_shown = {display_path(path): text for path, text in texts.items()}
        lines = []
        for p in error.problems[:MAX_PROBLEMS_SHOWN]:
            where = p.pos.path
            shown = ""
            if p.pos.line:
                text = by_shown.get(where)
                if text is None:
                    text = Path(where).read_text(encoding="utf-8") if Path(where).is_file() else ""
                at = text.split("\n")[p.pos.line - 1 : p.pos.line]  # lines as the loader counts them
                shown = f" `{at[0].strip()[:100]}`" if at else ""
            lines.append(f"{where}:{p.pos.line}:{p.pos.col}: {p.message} (as the import would write it, "
                         f"at{shown or ' that line'})")
        if len(error.problems) > MAX_PROBLEMS_SHOWN:
            lines.append(f"... and {len(error.problems) - MAX_PROBLEMS_SHOWN} more")
        raise ImportProblem("the import would make the catalog invalid, so nothing was written:\n" + "\n".join(lines)
                            ) from None


def source_lines(source: dict, lang: str, indent: int) -> list[str]:
    """A version's source as editions.yaml writes it: a repository file (with its framing, for
    a pipe-table page), or a published page's URL."""
    pad = " " * indent
    if "repo" in source:
        lines = [f"{pad}- {ye.entry('repo', source['repo'])}"] + [
            f"{pad}  {ye.entry(key, source[key])}" for key in ("path", "commit", "branch") if key in source
        ]
        if "branch" not in source:
            lines.append(f"{pad}  tags: {ye.flow(source.get('tags', []))}")
        if source.get("ref") == "merge-request":
            lines.append(f"{pad}  ref: merge-request")
    else:
        lines = [f"{pad}- {ye.entry('url', source['url'])}"]
    lines.append(f"{pad}  {ye.entry('lang', lang)}")
    if source.get("page") is not None:
        lines += layout_lines(source["page"], indent + 2)
    return lines
