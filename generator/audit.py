"""`audit`: the catalog against upstream's own files, for one edition.

Each difference is a Finding: which file and line, which code, what kind, and
what each side says. Unreadable input is a finding too (exit 1), never a crash.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Optional

from generator import upstream
from generator.model import Catalog, Code, Edition

KINDS = (
    "unreadable", "missing from catalog", "missing upstream", "value differs", "name differs",
    "order differs", "recoverable differs", "meaning differs", "solution differs",
)


@dataclass(frozen=True)
class Finding:
    file: str
    line: int
    kind: str
    code: str
    upstream: Optional[str] = None
    catalog: Optional[str] = None

    def __str__(self) -> str:
        if self.kind == "unreadable":
            return f"{self.file}:{self.line}: cannot read: {self.upstream}"
        text = f"{self.file}:{self.line}: {self.code + ': ' if self.code else ''}{self.kind}"
        if self.upstream is not None or self.catalog is not None:
            text += f" (upstream: {_show(self.upstream)}; catalog: {_show(self.catalog)})"
        return text

    def as_dict(self) -> dict:
        return asdict(self)


def _show(value: Optional[str]) -> str:
    return "—" if value is None else repr(value)


def read_text(path: Path) -> tuple[Optional[str], Optional[Finding]]:
    try:
        return path.read_text(encoding="utf-8"), None
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        return None, Finding(str(path), 1, "unreadable", "", upstream=reason)


# -- Python ----------------------------------------------------------------------


def audit_python(catalog: Catalog, path: Path) -> list[Finding]:
    source, problem = read_text(path)
    if problem:
        return [problem]
    parsed = upstream.read_python(source, catalog.family.python.enum)  # type: ignore[arg-type]
    findings = [Finding(str(path), p.line, "unreadable", "", upstream=p.message) for p in parsed.problems]
    if parsed.problems:
        return findings
    ours = {code.python_name: code for code in catalog.python_codes}
    theirs = {member.name: member for member in parsed.members}
    for member in parsed.members:
        code = ours.get(member.name)
        if code is None:
            findings.append(Finding(str(path), member.line, "missing from catalog", member.name, upstream=_value(member.value)))
        elif member.value is not None and member.value != code.value:
            findings.append(Finding(str(path), member.line, "value differs", member.name, _value(member.value), code.hex))
    for code in catalog.python_codes:
        if code.python_name not in theirs:
            findings.append(Finding(str(path), 1, "missing upstream", code.name, catalog=code.hex))
    findings.extend(_order(str(path), [m.name for m in parsed.members], [c.python_name for c in catalog.python_codes],
                           {m.name: m.line for m in parsed.members}))
    return findings


def _value(value: Optional[int]) -> Optional[str]:
    if value is None:
        return "a reference that cannot be resolved"
    return f"0x{value:08X}" if value >= 0 else str(value)


def _order(file: str, theirs: list[str], ours: list, lines: dict[str, int]) -> list[Finding]:
    common = set(theirs) & set(ours)
    a = [n for n in theirs if n in common]
    b = [n for n in ours if n in common]
    for index, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return [Finding(file, lines.get(x, 1), "order differs", x, upstream=f"position {index + 1}",
                            catalog=f"position {b.index(x) + 1}")]
    return []


# -- C/C++ header -------------------------------------------------------------


def audit_header(catalog: Catalog, path: Path) -> list[Finding]:
    source, problem = read_text(path)
    if problem:
        return [problem]
    constants, problems = upstream.read_header(source)  # type: ignore[arg-type]
    findings = [Finding(str(path), p.line, "unreadable", "", upstream=p.message) for p in problems]
    names = _header_names(catalog)
    by_value = {code.value: code for code in catalog.c_codes}
    seen: set[str] = set()
    for constant in constants:
        code = names.get(constant.name)
        if code is None:
            other = by_value.get(constant.value)
            if other is not None:
                findings.append(Finding(str(path), constant.line, "name differs", other.name, constant.name, other.c_name))
                seen.add(other.name)
            else:
                findings.append(Finding(str(path), constant.line, "missing from catalog", constant.name, upstream=_value(constant.value)))
            continue
        seen.add(code.name)
        if constant.value != code.value:
            findings.append(Finding(str(path), constant.line, "value differs", code.name, _value(constant.value), code.hex))
    namespaces = {c.namespace for c in constants if c.namespace}
    for code in catalog.c_codes:
        expected = [n for n in code.cpp_names if n.rsplit("::", 1)[0] in namespaces]
        if expected and code.name not in seen:
            findings.append(Finding(str(path), 1, "missing upstream", code.name, catalog=", ".join(expected)))
    return findings


def _header_names(catalog: Catalog) -> dict[str, Code]:
    names = {code.c_name: code for code in catalog.c_codes}
    for code in catalog.c_codes:
        for qualified in code.cpp_names:
            names.setdefault(qualified.rsplit("::", 1)[1], code)
    return names  # type: ignore[return-value]


# -- documentation page --------------------------------------------------------


def audit_page(catalog: Catalog, edition: Edition, path: Path) -> list[Finding]:
    source, problem = read_text(path)
    if problem:
        return [problem]
    page = upstream.read_page(source)  # type: ignore[arg-type]
    findings = [Finding(str(path), p.line, "unreadable", "", upstream=p.message) for p in page.problems]
    if not page.rows:
        return findings
    lang = page.lang or catalog.family.languages[0]
    names = {n: code for code in catalog.codes for n in filter(None, (code.python_name, code.c_name))}
    page_codes: list[str] = []
    for row in page.rows:
        code = names.get(row.name)
        if code is None or code.name not in edition.row_by_code:
            findings.append(Finding(str(path), row.line, "missing from catalog", row.name,
                                    upstream="listed", catalog=None if code is None else "not listed"))
            continue
        page_codes.append(code.name)
        findings.extend(_row_findings(catalog, edition, code, row, lang, str(path)))
    for listed in edition.rows:
        if listed.code not in page_codes:
            findings.append(Finding(str(path), 1, "missing upstream", listed.code, upstream="not listed", catalog="listed"))
    if edition.order_known:
        findings.extend(_order(str(path), page_codes, [r.code for r in edition.rows], {r.name: r.line for r in page.rows}))
    return findings


def _row_findings(catalog, edition, code, row, lang, file) -> list[Finding]:
    findings = []
    recoverable = recoverable_value(catalog, row.recoverable)
    ours = edition.row_by_code[code.name].recoverable
    if ours != "not known" and recoverable != ours:
        findings.append(Finding(file, row.line, "recoverable differs", code.name, row.recoverable,
                                catalog.family.recoverable_label(ours, lang)))
    for field_name, theirs in (("meaning", row.meaning), ("solution", row.solution)):
        text = code.text(field_name, edition.id, lang)
        if text is not None and upstream.normalized(text) != upstream.normalized(theirs):
            findings.append(Finding(file, row.line, f"{field_name} differs", code.name, theirs, text))
    return findings


def recoverable_value(catalog: Catalog, cell: str) -> Optional[str]:
    """The catalog's value for a page's 是否可恢复 cell (是, Yes, None, ...), or None."""
    wanted = cell.strip().casefold()
    for value, labels in catalog.family.recoverable_labels:
        if any(text.casefold() == wanted for _, text in labels.items):
            return value
    return None
