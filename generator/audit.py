"""`audit`: the catalog against upstream's own files.

Each difference is a Finding: which file and line, which code, what kind, and
what each side says. A finding the catalog already records (a merge conflict
an edition keeps) is `known`; so is a note (a value checked against the
catalog's own fact, a translation that is not compared); neither fails an
audit. Unreadable input is a finding too, never a crash.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Optional, Union

from generator import upstream
from generator.escape import terminal
from generator.model import Catalog, Code, Edition, Family, Header, Page, hex_value
from generator.pagereader import TableRow, normalize_text, read_table

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
        return upstream.read_file(path), None
    except upstream.UnreadableFile as error:
        return None, Finding(str(path), error.line, "unreadable", upstream=error.message)


def audit_files(catalog: Catalog, family: Family, edition: Optional[Edition], python=None, binding=None,
                headers=(), page=None) -> list[Finding]:
    """Everything the command line gave, each file against the catalog: with an edition of a
    release, the source files against the codes that release's repository has (a code added
    later, or obsolete since, is not missing from them)."""
    findings: list[Finding] = []
    page_family = family
    repos = {s.repo for s in edition.sources if s.repo} if edition is not None and edition.released else set()
    if repos and edition is not None:
        family = replace(family, codes=tuple(c for c in family.codes if any(c.present_at(r, edition.release) for r in repos)))
    header_constants: list[upstream.Constant] = []
    for path in headers:
        source, problem = read_text(path)
        if source is None:
            findings += [problem] if problem else []
            continue
        found, constants = audit_header(family, str(path), source)
        findings += found
        header_constants += constants
    bound: Optional[dict[str, Optional[int]]] = None  # None: no binding read, compare references by name
    if binding:
        source, problem = read_text(binding)
        if source is None:
            findings += [problem] if problem else []
        else:
            found, bound = audit_binding(family, str(binding), source, header_constants)
            findings += found
    if python:
        source, problem = read_text(python)
        findings += audit_python(family, str(python), source, bound) if source is not None else [problem] if problem else []
    if page:
        assert edition is not None, "a page is audited against an edition"
        source, problem = read_text(page)
        findings += audit_page(page_family, edition, str(page), source) if source is not None else [problem] if problem else []
    return findings


# -- the Python source ---------------------------------------------------------------------------


def audit_python(family: Family, file: str, source: str, bound: Optional[dict[str, Optional[int]]],
                 base: Optional[str] = None) -> list[Finding]:
    """Members, order and values of upstream's enum (or a package's exported names).
    `bound`: the binding's resolved values, when a binding was read (None for a binding whose
    own finding already says what is wrong with it); without one, references are compared by name."""
    enum = family.python.shape == "enum"
    parsed = upstream.read_python(source, family.python.class_name if enum else None)
    if parsed.problems:
        return [Finding(file, p.line, "unreadable", upstream=p.message) for p in parsed.problems]
    if not enum:
        return _audit_exports(family, file, parsed)
    findings: list[Finding] = []
    if base is not None and [b.rsplit(".", 1)[-1] for b in parsed.bases] != [base]:
        findings.append(Finding(file, parsed.line, "value differs", family.python.class_name, ", ".join(parsed.bases) or "none",
                                base, field="base class"))
    ours = {code.python_name: code for code in family.python_codes}
    by_wrapper = {code.wrapper: code for code in family.python_codes if code.wrapper}
    for member in parsed.members:
        code = ours.get(member.name)
        if code is None:
            findings.append(Finding(file, member.line, "missing from catalog", member.name, upstream=_value_text(member.value)))
            continue
        findings += _member_value(file, member, code, by_wrapper, bound)
    lines = {m.name: m.line for m in parsed.members}
    order = [code.python_name or "" for code in family.python_codes]
    after = max(lines.values(), default=0) + 1
    for code in family.python_codes:
        if code.python_name not in lines:
            findings.append(Finding(file, expected_line(order, lines, code.python_name or "", after), "missing upstream",
                                    code.name, catalog=code.hex))
    findings += _order(file, [m.name for m in parsed.members], [c.python_name or "" for c in family.python_codes],
                       {m.name: m.line for m in parsed.members})
    findings += _code_map(family, file, parsed)
    return findings


def _member_value(file, member, code: Code, by_wrapper, bound) -> list[Finding]:
    value = member.value
    if isinstance(value, int):
        if value != code.value:
            return [Finding(file, member.line, "value differs", code.name, hex_value(value), code.hex)]
        return []
    if isinstance(value, upstream.Reference):
        reference = f"{value.module}.{value.name}"
        other = by_wrapper.get(value.name)
        also = f" (the value of {other.name})" if other is not None and other is not code else ""
        if bound is None:  # nothing to resolve it with: the constant must be the one the catalog records
            if code.wrapper is not None and value.name != code.wrapper:
                return [Finding(file, member.line, "value differs", code.name, reference + also, f"{value.module}.{code.wrapper}")]
            return []
        if value.name not in bound:
            return [Finding(file, member.line, "unresolved reference", code.name, reference,
                            "a constant the binding does not bind")]
        resolved = bound[value.name]
        if resolved is not None and resolved != code.value:
            return [Finding(file, member.line, "value differs", code.name, f"{reference} = {hex_value(resolved)}{also}", code.hex)]
        return []
    return [Finding(file, member.line, "unresolved reference", code.name, "an expression that is neither a number nor a constant")]


def _code_map(family: Family, file: str, parsed: upstream.PythonSource) -> list[Finding]:
    """upstream's code_2_status map: exactly the wrapper values, each to its own member."""
    if not parsed.mapping or family.python.code_2_status is None:
        return []
    by_wrapper = {code.wrapper: code for code in family.python_codes if code.wrapper}
    findings = []
    mapped: dict[str, int] = {}  # member whose wrapper is a key -> line
    for entry in parsed.mapping:
        if not isinstance(entry.key, upstream.Reference):
            continue
        key = f"{entry.key.module}.{entry.key.name}"
        code = by_wrapper.get(entry.key.name)
        if code is None:
            findings.append(Finding(file, entry.line, "missing from catalog", entry.member, f"{key} maps to {entry.member}",
                                    "no code has this wrapper", field="code_2_status"))
            continue
        mapped[code.python_name or ""] = entry.line
        if entry.member != code.python_name:
            findings.append(Finding(file, entry.line, "value differs", code.name, f"{key} maps to {entry.member}",
                                    f"{key} maps to {code.python_name}", field="code_2_status"))
    order = [code.python_name or "" for code in family.python_codes if code.wrapper]
    after = max(mapped.values(), default=0) + 1
    for code in family.python_codes:
        if code.wrapper and code.python_name not in mapped:
            findings.append(Finding(file, expected_line(order, mapped, code.python_name or "", after), "missing upstream", code.name,
                                    catalog=f"code_2_status maps {code.wrapper}", field="code_2_status"))
    return findings


def _audit_exports(family: Family, file: str, parsed: upstream.PythonSource) -> list[Finding]:
    exported = dict(parsed.exported)
    return [Finding(file, 1, "missing upstream", code.name, catalog=f"exported name {code.python_name}")
            for code in family.python_codes if code.python_name not in exported]


def _value_text(value) -> Optional[str]:
    if isinstance(value, int):
        return hex_value(value)
    if isinstance(value, upstream.Reference):
        return f"{value.module}.{value.name}"
    return None


def expected_line(order: list[str], lines: dict[str, int], name: str, after_last: int) -> int:
    """Where a missing name would be: the line of the first name after it (in `order`) that is
    there, else `after_last`."""
    for other in order[order.index(name) + 1:]:
        if other in lines:
            return lines[other]
    return after_last


def _order(file: str, theirs: list[str], ours: list[str], lines: dict[str, int]) -> list[Finding]:
    common = set(theirs) & set(ours)
    a = [n for n in theirs if n in common]
    b = [n for n in ours if n in common]
    for index, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return [Finding(file, lines.get(x, 1), "order differs", x, upstream=f"position {index + 1}",
                            catalog=f"position {b.index(x) + 1}")]
    return []


# -- the binding ------------------------------------------------------------------------------------


def audit_binding(family: Family, file: str, source: str, header_constants) -> tuple[list[Finding], dict[str, Optional[int]]]:
    """Each binding of a wrapper constant resolved to a value: from the headers given, else
    from the catalog's C++ names, else from the catalog's runtime facts (said so). A header
    constant whose value differs from the catalog's is its header's finding: the binding is
    resolved past it, so that one change is reported once. A binding with a finding of its own
    is bound to None."""
    bindings, problems = upstream.read_binding(source)
    findings = [Finding(file, p.line, "unreadable", upstream=p.message) for p in problems]
    by_cpp = {n.name: code for code in family.codes for n in code.cpp}
    declared = {c.qualified: c.value for c in header_constants
                if c.value is not None and (c.qualified not in by_cpp or by_cpp[c.qualified].value == c.value)}
    facts = dict(family.runtime_constants)
    by_wrapper = {code.wrapper: code for code in family.codes if code.wrapper}
    bound: dict[str, Optional[int]] = {}
    lines: dict[str, int] = {}
    for binding in bindings:
        code = by_wrapper.get(binding.name)
        if code is None:
            continue  # a constant of something else (data types, options)
        lines[binding.name] = binding.line
        value, how = _resolve(binding.expression, declared, by_cpp, facts)
        bound[binding.name] = value if value == code.value else None
        if value is None:
            findings.append(Finding(file, binding.line, "unresolved reference", code.name, binding.expression,
                                    "a name no header given and no catalog record declares"))
        elif value != code.value:
            findings.append(Finding(file, binding.line, "value differs", code.name,
                                    f"{binding.expression} = {hex_value(value)}", code.hex, field=f"binding {binding.name}"))
        elif how == "fact":
            findings.append(Finding(file, binding.line, "checked against the catalog's fact", code.name, binding.expression,
                                    f"{code.value} (runtime_constants: no cited repository declares it)", known=True))
    order = [code.wrapper for code in family.codes if code.wrapper]
    after = max(lines.values(), default=0) + 1
    for code in family.codes:
        if code.wrapper and code.wrapper not in lines:
            findings.append(Finding(file, expected_line(order, lines, code.wrapper, after), "missing upstream", code.name,
                                    catalog=f"binding of {code.wrapper}"))
            bound[code.wrapper] = None
    return findings, bound


def _resolve(expression: str, declared: dict[str, int], by_cpp: dict[str, Code], facts: dict[str, int]) -> tuple[Optional[int], str]:
    if expression in declared:
        return declared[expression], "header"
    if expression in by_cpp:
        return by_cpp[expression].value, "catalog"
    if expression in facts:
        return facts[expression], "fact"
    return None, ""


# -- registered messages ---------------------------------------------------------------------------------


def audit_messages(family: Family, file: str, source: str) -> list[Finding]:
    """The messages upstream registers for its codes against each code's log_message."""
    found, problems = upstream.read_messages(source)
    findings = [Finding(file, p.line, "unreadable", upstream=p.message) for p in problems]
    if problems:
        return findings
    by_c = {code.c_name: code for code in family.codes if code.c_name}
    registered = {m.name: m for m in found}
    for message in found:
        code = by_c.get(message.name)
        if code is None:
            continue  # a message of another family's code (the file registers what its library logs)
        if code.log_message != message.text:
            findings.append(Finding(file, message.line, "text differs", code.name, message.text, code.log_message,
                                    field="log_message"))
    last = max((m.line for m in found), default=1)
    for code in family.codes:
        if code.log_message is not None and code.c_name not in registered and code.value not in (0, 0xFFFFFFFF):
            findings.append(Finding(file, last, "missing upstream", code.name, catalog=f"log_message {code.log_message!r}"))
    return findings


# -- headers ---------------------------------------------------------------------------------------------


def which_header(family: Family, file: str, constants) -> Optional[Header]:
    """The family header a file is: by its path, else by the namespaces it declares codes in."""
    normalized = file.replace("\\", "/")
    for header in family.headers:
        if normalized.endswith("/" + header.path) or normalized == header.path:
            return header
    names = {h.path.rsplit("/", 1)[-1]: h for h in family.headers}
    if normalized.rsplit("/", 1)[-1] in names:
        return names[normalized.rsplit("/", 1)[-1]]
    spaces = {c.namespace or "::" for c in constants}
    for header in family.headers:
        if header.namespace in spaces:
            return header
    return None


def audit_header(family: Family, file: str, source: str) -> tuple[list[Finding], list[upstream.Constant]]:
    constants, problems = upstream.read_header(source, family.value_layouts)
    findings = [Finding(file, p.line, "unreadable", upstream=p.message) for p in problems]
    header = which_header(family, file, constants)
    if header is None:
        spaces = sorted({c.namespace or "(global)" for c in constants})
        findings.append(Finding(file, 1, "not this family's file", upstream=f"namespaces {', '.join(spaces)}",
                                catalog=f"{family.id}'s headers: {', '.join(h.path for h in family.headers)}"))
        return findings, constants
    # a name of the global namespace is written ::NAME in the catalog and read NAME from the header
    ours = {n.name.removeprefix("::"): (code, n) for code in family.codes for n in code.cpp if n.header == header.path}
    namespace = None if header.namespace == "::" else header.namespace
    status = [c for c in constants if c.namespace == namespace and (_is_status(c, family) or c.qualified in ours)]
    seen = set()
    for constant in status:
        entry = ours.get(constant.qualified)
        if entry is None:
            other = next((code for code in family.codes if code.value == constant.value), None)
            if other is not None and constant.value is not None:
                findings.append(Finding(file, constant.line, "name differs", other.name, constant.qualified,
                                        ", ".join(n.name for n in other.cpp) or other.c_name))
            else:
                findings.append(Finding(file, constant.line, "missing from catalog", constant.qualified,
                                        upstream=hex_value(constant.value) if constant.value is not None else None))
            continue
        code, _ = entry
        seen.add(constant.qualified)
        if constant.value != code.value:
            findings.append(Finding(file, constant.line, "value differs", code.name,
                                    hex_value(constant.value) if constant.value is not None else None, code.hex))
        if constant.message is not None and constant.message != code.log_message:
            findings.append(Finding(file, constant.line, "text differs", code.name, constant.message, code.log_message,
                                    field="log_message"))
    present = [(c.value, c.line) for c in status if c.qualified in seen and c.value is not None]
    for qualified, (code, name) in ours.items():
        if qualified not in seen:
            findings.append(Finding(file, _header_line(code.value, present, status), "missing upstream", code.name,
                                    catalog=f"{qualified} in {header.path}"))
    return findings, constants


def _header_line(value: int, present: list[tuple[int, int]], status) -> int:
    """Where a missing constant would be declared: headers declare codes by value, so right after
    the one of the next lower value, else at the one of the next higher value."""
    lower = [(v, line) for v, line in present if v < value]
    if lower:
        return max(lower)[1] + 1
    higher = [(v, line) for v, line in present if v > value]
    return min(higher)[1] if higher else max((c.line for c in status), default=0) + 1


def _is_status(constant: upstream.Constant, family: Family) -> bool:
    if any(constant.type == layout.macro for layout in family.value_layouts):
        return True
    return constant.type.split()[-1].split("::")[-1] == "Status"


# -- a documentation page ---------------------------------------------------------------------------------


def audit_page(family: Family, edition: Edition, file: str, source: str) -> list[Finding]:
    page = edition.page
    table = read_table(source, page.headings, is_html=_is_html(file, source))
    findings = [Finding(file, line, "unreadable", upstream=message) for line, message in table.problems
                if not message.startswith("headings")]
    findings += [Finding(file, line, "unknown heading", upstream=message) for line, message in table.problems
                 if message.startswith("headings")]
    if not table.rows:
        return findings
    lang = table.lang or family.languages[0]
    findings += _conflicts(file, edition, table)
    keyed = _row_codes(family, page, table, file, findings)
    on_page: dict[str, int] = {}  # code -> the line of its row, in the page's order
    for row, code in keyed:
        if code is None:
            continue
        if code.name not in edition.row_by_code:
            findings.append(Finding(file, row.line, "missing from catalog", code.name, upstream="listed", catalog="not listed"))
        elif code.name in on_page:
            findings.append(Finding(file, row.line, "listed twice", code.name, f"again (first at line {on_page[code.name]})",
                                    "listed once"))
        else:
            on_page[code.name] = row.line
            findings += _row(family, edition, file, row, code, lang, table)
    order = [r.code for r in edition.rows]
    after = max(cell.line for cell in table.rows[-1].cells) + 1 if table.rows[-1].cells else table.rows[-1].line + 1
    for listed in edition.rows:
        if listed.code not in on_page:  # reported where the page would have it
            findings.append(Finding(file, expected_line(order, on_page, listed.code, after), "missing upstream", listed.code,
                                    upstream="not listed", catalog="listed"))
    if edition.order_known:
        findings += _order(file, list(on_page), order, on_page)
    findings += _code_blocks(family, file, table)
    return findings


def _is_html(file: str, source: str) -> bool:
    return file.lower().endswith((".html", ".htm")) or source.lstrip("\ufeff \n").lower().startswith(("<!doctype", "<html"))


def _conflicts(file: str, edition: Edition, table) -> list[Finding]:
    if not table.conflicts:
        return []
    line, marker = table.conflicts[0]
    known = any(m.kind == "merge conflict" for m in edition.malformations)
    return [Finding(file, line, "merge conflict", upstream=f"{len(table.conflicts)} marker lines, first {marker!r}",
                    catalog="recorded by the edition" if known else None, known=known)]


def _row_codes(family: Family, page: Page, table, file: str, findings: list) -> list[tuple[TableRow, Optional[Code]]]:
    by_name = {code.name_on(page): code for code in family.codes if code.name_on(page)}
    by_value = {str(code.value): code for code in family.codes}
    result = []
    for row in table.rows:
        key_cell = row.by_column.get("name")
        key = key_cell.text.strip() if key_cell else ""
        code = by_value.get(key) if page.first_column == "decimal" else by_name.get(key)
        if code is None:
            other = next((c for c in family.codes if key in (c.python_name, c.c_name, str(c.value))), None)
            findings.append(Finding(file, row.line, "missing from catalog", key, upstream="listed",
                                    catalog=f"{other.name} exists, named otherwise on this page" if other else "no such code"))
        result.append((row, code))
    return result


def _row(family: Family, edition: Edition, file: str, row, code: Code, lang: str, table) -> list[Finding]:
    findings = []
    known = {m.code for m in edition.malformations}
    if len(row.cells) != len(table.columns):
        findings.append(Finding(file, row.line, "row does not fit", code.name,
                                f"{len(row.cells)} cells", f"{len(table.columns)} columns, as the headings say",
                                known=code.name in known))
    ours = edition.row_by_code[code.name]
    expected = dict(ours.disagreements).get(lang, ours.recoverable)
    cell = row.by_column.get("recoverable")
    value = recoverable_value(family, cell.text if cell else "", lang)
    if cell is not None and expected != "not known" and value != expected:  # no cell: the row does not fit
        findings.append(Finding(file, row.line, "recoverable differs", code.name, cell.text, family.recoverable_label(expected, lang)))
    for field_name in edition.page.text_fields:
        cell = row.by_column.get(field_name)
        if cell is None:
            continue
        entry = code.entry(field_name, edition.id, lang)
        if entry is None:
            continue
        if entry.origin == "translation":
            findings.append(Finding(file, cell.line, "translation, not compared", code.name, field=field_name, known=True,
                                    catalog="this project's translation"))
            continue
        theirs = _without_markers(cell.text)
        findings += compare_text(file, cell.line, code.name, field_name, theirs, entry.text, exact=table.pipe)
    return findings


def _without_markers(text: str) -> str:
    return "\n".join(line for line in text.split("\n") if not re.match(r"^(<{7}|={7}|>{7})(?: |$)", line))


def recoverable_value(family: Family, cell: str, lang: str) -> Optional[str]:
    """The catalog's value for a page's 是否可恢复 cell (是, Yes, N/A, ...), or None."""
    wanted = cell.strip().casefold()
    for value, per_lang in family.recoverable_labels.items():
        for texts in ([per_lang[lang]] if lang in per_lang else per_lang.values()):
            if any(text.casefold() == wanted for text in texts):
                return value
    return None


# -- texts ---------------------------------------------------------------------------------------------------

_MARKER = re.compile(r"^(- |\d{1,9}\. )")


def structure(text: str) -> list[str]:
    """Each line's kind: "p", "-" (a bullet) or "N." (a numbered step)."""
    kinds = []
    for line in normalize_text(text).split("\n"):
        match = _MARKER.match(line)
        kinds.append("p" if not match else "-" if match.group(1) == "- " else match.group(1).strip())
    return kinds


def words(text: str) -> str:
    """A text as compared across markup: no line markers, no space beside CJK, single spaces."""
    lines = [_MARKER.sub("", line) for line in normalize_text(text).split("\n")]
    joined = re.sub(r"\s+", " ", " ".join(lines)).strip()
    return re.sub(r"\s*([\u3000-\u303f\uff00-\uffef\u3400-\u9fff])\s*", r"\1", joined)


def compare_text(file: str, line: int, code: str, field_name: str, theirs: str, ours: str,
                 exact: bool = False) -> list[Finding]:
    """One finding at most: a change of structure (a bullet dropped, a step renumbered), else of words.
    `exact` (a pipe table's cell, whose every space is typed and shown): of every character but
    runs of white space; otherwise as the words a browser lays out."""
    a, b = structure(theirs), structure(ours)
    if a != b:
        return [Finding(file, line, "structure differs", code, " ".join(a), " ".join(b), field=field_name)]
    if (_spaced(theirs) != _spaced(ours)) if exact else (words(theirs) != words(ours)):
        return [Finding(file, line, "text differs", code, theirs, ours, field=field_name)]
    return []


def _spaced(text: str) -> str:
    return "\n".join(" ".join(line.split()) for line in text.split("\n") if line.strip())


def _code_blocks(family: Family, file: str, table) -> list[Finding]:
    """The constants a C++ page declares in its code block, against the catalog's values."""
    findings = []
    by_name = {code.c_name: code for code in family.c_codes}
    by_name.update({n.short: code for code in family.codes for n in code.cpp})
    for block in table.code_blocks:
        constants, _ = upstream.read_header(block.text, family.value_layouts)
        for constant in constants:
            code = by_name.get(constant.name)
            if code is None or constant.value is None:
                if code is None and constant.type != "#define":
                    findings.append(Finding(file, block.line + constant.line - 1, "missing from catalog", constant.name,
                                            upstream=hex_value(constant.value) if constant.value is not None else None,
                                            field="code block"))
                continue
            if constant.value != code.value:
                findings.append(Finding(file, block.line + constant.line - 1, "value differs", code.name,
                                        hex_value(constant.value), code.hex, field="code block"))
    return findings


Source = Union[str, Path]
