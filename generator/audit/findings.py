"""What `audit` reports: a finding, with its kind from a closed list, a row of findings about one
file, reading a file to audit, and the lines where two versions of a file differ."""
from __future__ import annotations

import difflib
from dataclasses import asdict, dataclass, field
from typing import Callable, Iterator, Optional, TypeVar

from generator.upstream.files import UnreadableFile
from generator.rendering.escape import terminal


# Every kind of finding (the JSON report's "kind"): a closed list, so that tools reading
# the report can rely on it; Finding refuses any other.
KINDS = (
    "unreadable", "missing from catalog", "missing upstream", "value differs", "name differs", "order differs",
    "recoverable differs", "text differs", "structure differs", "row does not fit", "listed twice", "unknown heading",
    "merge conflict", "unresolved reference", "checked against the catalog's fact", "translation, not compared",
    "not this family's file",
)


_File = TypeVar("_File")  # what read_text reads: a path, or a blob's id


@dataclass(frozen=True)
class Finding:
    file: str
    line: int
    kind: str
    code: str = ""
    upstream: Optional[str] = None
    catalog: Optional[str] = None
    known: bool = False  # recorded by the catalog, or a note: it does not fail the audit
    field: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"no such kind of finding: {self.kind!r}")

    def __str__(self) -> str:
        what = f"{self.field} {self.kind}" if self.field else self.kind
        # the file and the code can be upstream's (a path, a name cell): escaped as the texts are
        text = f"{terminal(self.file)}:{self.line}: {terminal(self.code) + ': ' if self.code else ''}{what}"
        if self.upstream is not None or self.catalog is not None:
            text += f" (upstream: {_show(self.upstream)}; catalog: {_show(self.catalog)})"
        return text + (" [known]" if self.known else "")

    def as_dict(self) -> dict:
        return asdict(self)


def _show(value: Optional[str]) -> str:
    if value is None:
        return "—"
    return repr(value if len(value) <= 160 else value[:150] + "…")


@dataclass
class Row:
    """What `audit --upstream` says of one file (or a set of files) of one family."""

    family: str
    subject: str  # an edition id, or what a source file is
    file: str
    findings: list[Finding] = field(default_factory=list)
    note: str = ""  # "not checked: ..."

    @property
    def failing(self) -> list[Finding]:
        return [f for f in self.findings if not f.known]

    @property
    def result(self) -> str:
        if self.note:
            return self.note
        known = len(self.findings) - len(self.failing)
        if self.failing:
            return f"{len(self.failing)} difference(s)" + (f", {known} known" if known else "")
        return "ok" + (f" ({known} known)" if known else "")


def read_text(read: Callable[[_File], str], file: _File, label: str, findings: list[Finding]) -> Optional[str]:
    """The text of a file given on the command line or of a blob, read(file), or None with the
    finding that says why it is not read added to `findings`."""
    try:
        return read(file)
    except UnreadableFile as error:
        findings.append(Finding(label, error.line, "unreadable", upstream=error.message))
        return None


def differing_lines(old: list[str], new: list[str]) -> Iterator[tuple[int, Optional[str], Optional[str]]]:
    """Where two versions of a file's lines differ, line by line: (the index in `old` of the line,
    or of where the new one would go; old's line or None; new's line or None)."""
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        for k in range(max(i2 - i1, j2 - j1) if tag != "equal" else 0):
            here = i1 + k < i2
            yield (i1 + k if here else i1), (old[i1 + k] if here else None), (new[j1 + k] if j1 + k < j2 else None)
