"""What an import changes in the catalog files, and writing them all or none.

Each file the family's sections come from is loaded as a round-trip document
(generator.importing.catalog_yaml); the import edits the documents, and each is dumped whole.
What the import does not change keeps its bytes: comments, blank lines, quoting, the order of
keys. The catalog the edited files make is validated before anything is written.
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Optional

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from generator.importing import catalog_yaml as cy
from generator.importing.framing import layout_map
from generator.importing.text_entries import FieldEdit
from generator.reading.load import catalog_groups, display_path, load_catalog
from generator.core.files import read_regular
from generator.domain.codes import Code
from generator.domain.family import Family
from generator.writing.files import TEMP_MARK, atomic_write
from generator.core.problems import CatalogError
from generator.importing.page_source import ImportProblem, MAX_PROBLEMS_SHOWN, Report


# -- the family's files ----------------------------------------------------------------------------------------


# a file's text, the document an earlier step of the import left as that text, and whether the
# document dumps as the text byte for byte (the step wrote it)
Kept = dict[Path, tuple[str, CommentedMap, bool]]


class Files:
    """A family's catalog files: their texts, and the documents the import edits.

    A document is loaded when the import first reads it (ruamel's round-trip loader takes most
    of an import's time; a routine release edits one or two files), or taken from `kept` when
    an earlier step of the same import left it as the file's current text."""

    def __init__(self, location: Path, family: Family, staged: Optional[Mapping[Path, str]] = None,
                 kept: Optional[Kept] = None):
        shown = set(family.files)
        self.location = location
        self.paths = [p for _, paths in catalog_groups(location) for p in paths if display_path(p) in shown]
        self.texts = {p: current_text(p, staged or {}) for p in self.paths}
        self.kept: Kept = {} if kept is None else kept
        self.docs: dict[Path, CommentedMap] = {}
        self._sections: dict[str, Path] = {}

    def doc(self, path: Path) -> CommentedMap:
        if path not in self.docs:
            text, kept = self.texts[path], self.kept.get(path)
            self.docs[path] = kept[1] if kept is not None and kept[0] == text else cy.load(text, display_path(path))
        return self.docs[path]

    def _holding(self, section: str) -> Path:
        """The file whose top level holds `section`: the files that write it at a line's start are
        looked into first, so that the others are not loaded."""
        if section not in self._sections:
            at_start = re.compile(rf"(?m)^[\"']?{section}[\"']?[ \t]*:")
            paths = sorted(self.paths, key=lambda p: at_start.search(self.texts[p]) is None)
            self._sections[section] = next(p for p in paths if isinstance(self.doc(p), dict) and section in self.doc(p))
        return self._sections[section]

    @property
    def versions(self) -> CommentedMap:
        """editions.yaml's `versions`: each timeline's list of versions."""
        return self.doc(self._holding("versions"))["versions"]

    @property
    def codes(self) -> CommentedSeq:
        return self.doc(self._holding("codes"))["codes"]

    def version(self, version_id: str) -> CommentedMap:
        for versions in self.versions.values():
            for node in versions:
                if str(node.get("version")) == version_id:
                    return node
        raise KeyError(version_id)  # pragma: no cover - versions come from the loaded model

    def code(self, name: str) -> CommentedMap:
        for node in self.codes:
            if name in (node.get("python"), node.get("c")):
                return node
        raise KeyError(name)  # pragma: no cover

    def add_timeline_path(self, timeline: str, lang: str, first: str, path: str) -> None:
        """A path where the timeline's page in `lang` is kept now (its newest), in family.yaml."""
        pages = self.doc(self._holding("family"))["family"]["pages"]
        node = next(t for page in pages for t in page["timelines"] if str(t["id"]) == timeline)
        translations = node.get("translations")
        known = node.get("paths") if lang == first else (translations or {}).get(lang)
        if known is not None:
            append(known, path)
            return
        if lang == first:
            cy.insert_key(node, list(node).index("id") + 1, "paths", CommentedSeq([cy.text(path)]))
            return
        if translations is None:
            translations = CommentedMap()
            cy.insert_key(node, list(node).index("paths") + 1 if "paths" in node else len(node), "translations",
                          translations)
        cy.insert_key(translations, len(translations), lang, CommentedSeq([cy.text(path)]))

    def rendered(self, report: Report) -> dict[Path, str]:
        """Each file's text as the import leaves it; a file it did not change (or did not read)
        keeps its own. Each document read is kept with that text for the import's next step."""
        texts = dict(self.texts)
        for path, doc in self.docs.items():
            dumped, own = cy.dump(doc), self.texts[path]
            text = dumped
            if text != own:
                earlier = self.kept.get(path)
                if earlier is not None and earlier[0] == own and earlier[2]:
                    as_dumped = own  # an earlier step wrote it: ruamel writes its own output back as it is
                else:
                    as_dumped = cy.dump(cy.load(own, display_path(path)))
                if text == as_dumped:
                    text = own
                elif as_dumped != own:
                    report.todo.append(_rewritten(path, own, as_dumped))
            texts[path] = text
            self.kept[path] = (text, doc, text == dumped)
        return texts


def _rewritten(path: Path, own: str, as_dumped: str) -> str:
    """Said for a person: the diff of a file that ruamel does not write back byte for byte
    rewrites more than the import changed."""
    line = next((i for i, (a, b) in enumerate(zip(own.split("\n"), as_dumped.split("\n")), 1) if a != b), 1)
    return (f"{display_path(path)}:{line}: ruamel.yaml writes this file back otherwise than it is written, so the "
            "import's diff rewrites that line too: keep the layout it writes (tests/test_catalog_yaml.py)")


def append(sequence: CommentedSeq, text: str) -> None:
    """`text` appended to a sequence of texts, in the style it is written in."""
    if sequence.fa.flow_style() or not sequence:
        sequence.fa.set_flow_style()
        sequence.append(cy.flow_item(text, quote=False))
    else:
        cy.insert_item(sequence, len(sequence), cy.text(text))


def source_map(source: dict, lang: str) -> CommentedMap:
    """A version's source as editions.yaml writes it: a repository file (with its framing, for
    a pipe-table page), or a published page's URL."""
    if "repo" in source:
        item = CommentedMap((cy.text(key), cy.text(source[key])) for key in ("repo", "path", "commit", "branch")
                            if key in source)
        if "branch" not in source:
            item["tags"] = cy.flow(source.get("tags", []))
        if source.get("ref") == "merge-request":
            item["ref"] = "merge-request"
    else:
        item = CommentedMap([("url", cy.text(source["url"]))])
    item["lang"] = cy.text(lang)
    if source.get("codes"):
        item["codes"] = cy.flow(source["codes"])
    if source.get("page") is not None:
        item["page"] = layout_map(source["page"])
    return item


@dataclass
class Plan:
    """What an import changes, gathered before any text is written."""

    family: Family
    files: Files
    report: Report
    renamed: dict[str, str] = dataclasses.field(default_factory=dict)  # version id -> its new id
    entries: dict[tuple[str, str], FieldEdit] = dataclasses.field(default_factory=dict)

    def field_edit(self, code: Code, column: str) -> FieldEdit:
        """The texts of one column of a code, as this import changes them."""
        key = (code.name, column)
        if key not in self.entries:
            self.entries[key] = FieldEdit(self.files.code(code.name), column, self.family.languages)
        return self.entries[key]


# -- writing -------------------------------------------------------------------------------------------------


def _rename_starts(plan: Plan) -> None:
    """References to a version renamed by the import (the branch head's, now a release's)."""
    if not plan.renamed:
        return
    for code in plan.family.codes:
        for column, entries in code.texts:
            if any(s in plan.renamed for e in entries for s in e.starts):
                plan.field_edit(code, column).rename(plan.renamed)
    for version in plan.family.versions:
        if version.based_on in plan.renamed:
            node = plan.files.version(version.id)
            cy.set_value(node, "based_on", cy.ident(plan.renamed[version.based_on]))


def current_text(path: Path, staged: Mapping[Path, str]) -> str:
    """A catalog file's text: as an import in progress has staged it, else as it is on disk."""
    return staged[path] if path in staged else path.read_text(encoding="utf-8")


def stage(plan: Plan, staged: dict[Path, str]) -> None:
    """Apply the plan to the staged texts, once the catalog they make is valid: nothing is
    written (an import that brings in several steps writes them all at its end, or none)."""
    _rename_starts(plan)
    for edit in plan.entries.values():
        edit.write()
    rendered = plan.files.rendered(plan.report)
    changed = {path: text for path, text in rendered.items() if text != current_text(path, staged)}
    if changed:  # else the catalog is the one this step loaded
        _validate(plan.files.location, {**staged, **changed})
    staged.update(changed)


def write_staged(location: Path, staged: Mapping[Path, str]) -> list[Path]:
    """Write the staged texts that differ from their files, all or none: the files written."""
    changed = {path: text for path, text in staged.items() if text != path.read_text(encoding="utf-8")}
    write_together(location, {path: text.encode("utf-8") for path, text in changed.items()})
    return sorted(changed)


# -- several files, all or none ------------------------------------------------------------------------------

IMPORT_JOURNAL = ".import-journal.json"
IMPORT_MARK = ".import-"  # a new text written beside its file: .NAME.import-PID-RANDOM


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
            temp = path.with_name(f".{path.name}{IMPORT_MARK}{os.getpid()}-{os.urandom(4).hex()}")
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


# what write_together leaves beside a catalog file (and atomic_write beside the journal) while it writes
_IMPORT_TEMP = re.compile(rf"^\.(?P<file>.+?)(?:{re.escape(IMPORT_MARK)}(?P<pid>\d+)-[0-9a-f]{{8}}"
                          rf"|{re.escape(TEMP_MARK)}(?P<pid2>\d+)-\d+)$")


def remove_stopped_temps(location: Path) -> list[str]:
    """With no journal, the temporary files an import stopped before writing it left beside the
    catalog's files (its process gone): removed, the names returned. They are never a catalog's
    file (a dot, the generator's own pattern, a file of that name beside them)."""
    if os.path.lexists(journal_of(location)):
        return []
    directories = {p.parent for _, files in catalog_groups(location) for p in files} | \
        {location if location.is_dir() else location.parent}
    removed = []
    for directory in sorted(directories):
        with contextlib.suppress(OSError), os.scandir(directory) as entries:
            for entry in entries:
                match = _IMPORT_TEMP.match(entry.name)
                if match is None or not entry.is_file(follow_symlinks=False) or \
                        not (directory / match["file"]).name.endswith((".yaml", IMPORT_JOURNAL)):
                    continue
                if _alive(int(match["pid"] or match["pid2"])):
                    continue  # another import at work
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
                    removed.append(display_path(Path(entry.path)))
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # someone else's
    return True


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
