"""`audit` of upstream sources: the Python module, the binding, the registered messages, the headers."""
from __future__ import annotations

from typing import Callable, Optional

from generator.upstream import c_source
from generator.upstream import python_source
from generator.domain.codes import Code, hex_value
from generator.domain.family import Family
from generator.domain.model import Header
from generator.audit.findings import Finding


# -- the Python source ---------------------------------------------------------------------------


def audit_python(family: Family, file: str, source: str, bound: Optional[dict[str, Optional[int]]],
                 base: Optional[str] = None) -> list[Finding]:
    """Members, order and values of upstream's enum (or a package's exported names).
    `bound`: the binding's resolved values, when a binding was read (None for a binding whose
    own finding already says what is wrong with it); without one, references are compared by name."""
    enum = family.python.shape == "enum"
    parsed = python_source.read_python(source, family.python.class_name if enum else None)
    if parsed.problems:
        return [Finding(file, p.line, "unreadable", upstream=p.message) for p in parsed.problems]
    if not enum:
        return _audit_exports(family, file, parsed)
    findings: list[Finding] = []
    if base is not None and [b.rsplit(".", 1)[-1] for b in parsed.bases] != [base]:
        findings.append(
            Finding(
                file,
                parsed.line,
                "value differs",
                family.python.class_name,
                ", ".join(parsed.bases) or "none",
                base,
                field="base class",
            )
        )
    ours = {code.python_name: code for code in family.python_codes}
    by_wrapper = {code.wrapper: code for code in family.python_codes if code.wrapper}
    for member in parsed.members:
        code = ours.get(member.name)
        if code is None:
            findings.append(
                Finding(file, member.line, "missing from catalog", member.name, upstream=_value_text(member.value))
            )
            continue
        findings += _member_value(file, member, code, by_wrapper, bound)
    lines = {m.name: m.line for m in parsed.members}
    named = [(code.python_name or "", code) for code in family.python_codes]
    findings += _missing(file, lines, named, lambda code: code.hex)
    findings += order_findings(file, [m.name for m in parsed.members], [name for name, _ in named], lines)
    findings += _code_map(family, file, parsed, by_wrapper)
    return findings


def _member_value(file, member, code: Code, by_wrapper, bound) -> list[Finding]:
    value = member.value
    if isinstance(value, int):
        if value != code.value:
            return [Finding(file, member.line, "value differs", code.name, hex_value(value), code.hex)]
        return []
    if isinstance(value, python_source.Reference):
        reference = f"{value.module}.{value.name}"
        other = by_wrapper.get(value.name)
        also = f" (the value of {other.name})" if other is not None and other is not code else ""
        if bound is None:  # nothing to resolve it with: the constant must be the one the catalog records
            if code.wrapper is not None and value.name != code.wrapper:
                return [
                    Finding(
                        file,
                        member.line,
                        "value differs",
                        code.name,
                        reference + also,
                        f"{value.module}.{code.wrapper}",
                    )
                ]
            return []
        if value.name not in bound:
            return [Finding(file, member.line, "unresolved reference", code.name, reference,
                            "a constant the binding does not bind")]
        resolved = bound[value.name]
        if resolved is not None and resolved != code.value:
            return [
                Finding(
                    file,
                    member.line,
                    "value differs",
                    code.name,
                    f"{reference} = {hex_value(resolved)}{also}",
                    code.hex,
                )
            ]
        return []
    return [
        Finding(
            file,
            member.line,
            "unresolved reference",
            code.name,
            "an expression that is neither a number nor a constant",
        )
    ]


def _code_map(family: Family, file: str, parsed: python_source.PythonSource,
              by_wrapper: dict[str, Code]) -> list[Finding]:
    """upstream's code_2_status map: exactly the wrapper values, each to its own member."""
    if not parsed.mapping or family.python.code_2_status is None:
        return []
    findings = []
    mapped: dict[str, int] = {}  # member whose wrapper is a key -> line
    for entry in parsed.mapping:
        if not isinstance(entry.key, python_source.Reference):
            continue
        key = f"{entry.key.module}.{entry.key.name}"
        code = by_wrapper.get(entry.key.name)
        if code is None:
            findings.append(
                Finding(
                    file,
                    entry.line,
                    "missing from catalog",
                    entry.member,
                    f"{key} maps to {entry.member}",
                    "no code has this wrapper",
                    field="code_2_status",
                )
            )
            continue
        mapped[code.python_name or ""] = entry.line
        if entry.member != code.python_name:
            findings.append(Finding(file, entry.line, "value differs", code.name, f"{key} maps to {entry.member}",
                                    f"{key} maps to {code.python_name}", field="code_2_status"))
    named = [(code.python_name or "", code) for code in family.python_codes if code.wrapper]
    return findings + _missing(file, mapped, named, lambda code: f"code_2_status maps {code.wrapper}",
                               "code_2_status")


def _audit_exports(family: Family, file: str, parsed: python_source.PythonSource) -> list[Finding]:
    exported = dict(parsed.exported)
    return [Finding(file, 1, "missing upstream", code.name, catalog=f"exported name {code.python_name}")
            for code in family.python_codes if code.python_name not in exported]


def _value_text(value) -> Optional[str]:
    if isinstance(value, int):
        return hex_value(value)
    if isinstance(value, python_source.Reference):
        return f"{value.module}.{value.name}"
    return None


def _missing(file: str, lines: dict[str, int], named: list[tuple[str, Code]], catalog: Callable[[Code], str],
             field: str = "") -> list[Finding]:
    """A finding for each (name, code) of `named` whose name `lines` lacks, at the line where upstream
    would have it (its order being `named`'s); `catalog` says what the catalog has."""
    order = [name for name, _ in named]
    return [Finding(file, expected_line(order, lines, name), "missing upstream", code.name, catalog=catalog(code),
                    field=field) for name, code in named if name not in lines]


def expected_line(order: list[str], lines: dict[str, int], name: str, after_last: Optional[int] = None) -> int:
    """Where a missing name would be: the line of the first name after it (in `order`) that is
    there, else `after_last` (by default, the line after the last of `lines`)."""
    for other in order[order.index(name) + 1:]:
        if other in lines:
            return lines[other]
    return max(lines.values(), default=0) + 1 if after_last is None else after_last


def order_findings(file: str, theirs: list[str], ours: list[str], lines: dict[str, int]) -> list[Finding]:
    common = set(theirs) & set(ours)
    a = [n for n in theirs if n in common]
    b = [n for n in ours if n in common]
    for index, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return [Finding(file, lines.get(x, 1), "order differs", x, upstream=f"position {index + 1}",
                            catalog=f"position {b.index(x) + 1}")]
    return []


# -- the binding ------------------------------------------------------------------------------------


def audit_binding(
    family: Family, file: str, source: str, header_constants
) -> tuple[list[Finding], dict[str, Optional[int]]]:
    """Each binding of a wrapper constant resolved to a value: from the headers given, else
    from the catalog's C++ names, else from the catalog's runtime facts (said so). A header
    constant whose value differs from the catalog's is its header's finding: the binding is
    resolved past it, so that one change is reported once. A binding with a finding of its own
    is bound to None."""
    bindings, problems = c_source.read_binding(source)
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
        findings += _binding_findings(file, binding, code, value, how)
    named = [(code.wrapper, code) for code in family.codes if code.wrapper]
    findings += _missing(file, lines, named, lambda code: f"binding of {code.wrapper}")
    for name, _ in named:
        bound.setdefault(name, None)  # a binding missing upstream
    return findings, bound


def _binding_findings(file: str, binding, code: Code, value: Optional[int], how: str) -> list[Finding]:
    """What one binding's resolved value says against the code's."""
    if value is None:
        return [Finding(file, binding.line, "unresolved reference", code.name, binding.expression,
                        "a name no header given and no catalog record declares")]
    if value != code.value:
        return [Finding(file, binding.line, "value differs", code.name, f"{binding.expression} = {hex_value(value)}",
                        code.hex, field=f"binding {binding.name}")]
    if how == "fact":
        return [Finding(file, binding.line, "checked against the catalog's fact", code.name, binding.expression,
                        f"{code.value} (runtime_constants: no cited repository declares it)", known=True)]
    return []


def _resolve(
    expression: str, declared: dict[str, int], by_cpp: dict[str, Code], facts: dict[str, int]
) -> tuple[Optional[int], str]:
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
    found, problems = c_source.read_messages(source)
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
            findings.append(
                Finding(file, last, "missing upstream", code.name, catalog=f"log_message {code.log_message!r}")
            )
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


def audit_header(family: Family, file: str, source: str) -> tuple[list[Finding], list[c_source.Constant]]:
    constants, problems = c_source.read_header(source, family.value_layouts)
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
    status = [c for c in constants
              if c.namespace == namespace and (c_source.is_status(c, family.value_layouts) or c.qualified in ours)]
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
                                        upstream=_value_text(constant.value)))
            continue
        code, _ = entry
        seen.add(constant.qualified)
        if constant.value != code.value:
            findings.append(Finding(file, constant.line, "value differs", code.name,
                                    _value_text(constant.value), code.hex))
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
