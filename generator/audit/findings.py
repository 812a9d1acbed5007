"""What `audit` reports: a finding, with its kind from a closed list, and reading a file to audit."""
from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Optional

from generator.upstream import files as upstream_files
from generator.rendering.escape import terminal


# Every kind of finding (the JSON report's "kind"): a closed list, so that tools reading
# the report can rely on it; Finding refuses any other.
KINDS = (
    "unreadable", "missing from catalog", "missing upstream", "value differs", "name differs", "order differs",
    "recoverable differs", "text differs", "structure differs", "row does not fit", "listed twice", "unknown heading",
    "merge conflict", "unresolved reference", "checked against the catalog's fact", "translation, not compared",
    "not this family's file",
)


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


def read_text(path: Path) -> tuple[Optional[str], Optional[Finding]]:
    """An upstream file given on the command line, or the finding that says why it is not read."""
    try:
        return upstream_files.read_file(path), None
    except upstream_files.UnreadableFile as error:
        return None, Finding(str(path), error.line, "unreadable", upstream=error.message)
