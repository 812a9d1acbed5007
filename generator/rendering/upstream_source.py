"""The regions of upstream's source files that list a family's codes (status.py's enum and its
code_2_status map, the binding's constants, the headers' constants and macros, the registered
messages), rendered from the catalog's facts as a release has them: the names, values, presence
and order `generator.domain.queries.family_at` gives at that release, and the layout the family
records for each region (`upstream: … regions:` in family.yaml). No region's text is stored.

`find_regions` finds where a file keeps each region (the lines right after its `after` line that
have the region's form); `render_region` writes a region's lines; `outside_regions` lists the lines
of a file that define one of the family's codes outside every region (a form no rule writes).
A family of messages' registry (GE's error_registry.cc) is one region, the JSON inside its raw
string: `find_registry` and `render_registry`.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Optional

from generator.core.releases import release_key
from generator.domain.codes import Code
from generator.domain.family import Family
from generator.domain.messages import MessageFamily
from generator.domain.model import SourceRegion, UpstreamFile, ValueLayout
from generator.domain.queries import family_at


class MissingFact(Exception):
    """A region needs a fact the catalog does not have (one line, with the code and the field)."""


# How each form of line is recognised when finding a region: loosely (spacing, a comment), so
# that a line the catalog would write otherwise is a difference, not the region's end.
_NAME = r"[A-Za-z_]\w*"
DETECT = {
    "enum-member": r"^[ \t]+[A-Za-z]\w*\s*=\s*[\w.+-]+\s*,?\s*(#.*)?$",
    "code-map-entry": r"^[ \t]+\w+\.\w+\s*:\s*\w+\.\w+\s*,?\s*(#.*)?$",
    "binding": r"^[ \t]*m\.attr\(\s*\"\w+\"\s*\)\s*=\s*py::int_\(\s*[\w:]+\s*\)\s*;\s*(//.*)?$",
    "constant": r"^\s*(?:static\s+)?(?:constexpr|const)\s+[\w:\s]*?\b\w+\s*=\s*[\w:]+\s*;\s*(//.*|/\*.*)?$",
    "name": r"^[ \t]+[A-Za-z_]\w*\s*,?\s*(#.*)?$",
    "quoted-name": r"^[ \t]+[\"'][A-Za-z_]\w*[\"']\s*,?\s*(#.*)?$",
}


def _detect(region: SourceRegion) -> re.Pattern:
    if region.lines in ("macro", "message-macro"):
        return re.compile(rf"^\s*{re.escape(region.macro or '')}\s*\(.*\)\s*;.*$")
    return re.compile(DETECT[region.lines])


@dataclass(frozen=True)
class Found:
    """Where a file keeps a region: its first line (1-based) and its lines (maybe none)."""

    region: SourceRegion
    start: int
    lines: tuple[str, ...]

    @property
    def end(self) -> int:
        return self.start + len(self.lines) - 1


def family_names(family: Family) -> set[str]:
    """Every name and binding constant of the family's codes (a list that holds other names
    too keeps only the lines naming these)."""
    names = {n for code in family.codes for n in (*code.python_names, *code.c_names, code.wrapper) if n}
    return names | {cpp.short for code in family.codes for cpp in code.cpp}


def find_regions(text: str, item: UpstreamFile, family: Family, where: str) -> list[Found]:
    """Each region of the file, in the order the family records them. MissingFact where a
    region's `after` line is not in the file (or twice)."""
    lines = text.split("\n")
    names = family_names(family)
    found = []
    for region in item.regions:
        anchors = [i for i, line in enumerate(lines) if line.strip().startswith(region.after.strip())]
        if len(anchors) != 1:
            raise MissingFact(f"{where}: {'no' if not anchors else 'more than one'} line {region.after!r}, the line "
                              f"before its {region.lines} region (family.yaml, upstream: regions)")
        detect, start = _detect(region), anchors[0] + 1
        end = start
        while end < len(lines) and detect.match(lines[end]) and \
                (not region.only_codes or names & set(re.findall(r"\w+", lines[end]))):
            end += 1
        found.append(Found(region, start + 1, tuple(lines[start:end])))
    return found


# -- rendering ------------------------------------------------------------------------------------------------


def render_region(family: Family, item: UpstreamFile, region: SourceRegion, release: Optional[str]) -> list[str]:
    """The region's lines as the release has them (None: the newest); MissingFact where a code
    lacks a fact its line needs."""
    at = family_at(family, item.repo, release)
    # a list in value order keeps a line where it was when a release fixes the code's value (upstream
    # edits the line in place): the order of the values the codes were first declared with
    first = {c.index: next((e.value for e in c.earlier if e.value is not None), c.value) for c in family.codes}
    codes = _selected(at, region, lambda c: first[c.index])
    comments = dict(region.comments)
    lines = []
    for index, code in enumerate(codes):
        line, name = _line(at, region, code, last=index == len(codes) - 1, release=release)
        lines.append(line + comments.get(name, ""))
    return lines


def _selected(family: Family, region: SourceRegion, value=lambda code: code.value) -> list[Code]:
    if region.codes == "python":
        chosen = [c for c in family.codes if c.python_name]
    elif region.codes == "wrapper":
        chosen = [c for c in family.codes if c.wrapper and c.python_name]
    else:
        chosen = [c for c in family.codes if _cpp_name(c, region) is not None]
    if region.lines == "message-macro":
        chosen = [c for c in chosen if c.log_message is not None]
    if region.order == "value":
        return sorted(chosen, key=value)
    if region.order == "success-failed-first":
        general = (0, 0xFFFFFFFF)
        return sorted(chosen, key=lambda c: (c.value not in general, c.index if c.value in general else value(c)))
    return chosen


def _cpp_name(code: Code, region: SourceRegion) -> Optional[str]:
    """The code's C++ name (qualified) in the region's header and namespace."""
    for cpp in code.cpp:
        if cpp.header == region.header and (region.namespace is None or cpp.namespace == region.namespace):
            return cpp.name
    return None


def _line(family: Family, region: SourceRegion, code: Code, last: bool, release: Optional[str]) -> tuple[str, str]:
    """(the line, the name it writes)."""
    kind = region.lines
    if kind == "enum-member":
        value = f"{region.module}.{code.wrapper}" if code.wrapper else str(code.value)
        return f"    {code.python_name} = {value}", code.python_name or ""
    if kind == "code-map-entry":
        comma = "," if not last or region.comma_at(release) else ""
        return (f"    {region.module}.{code.wrapper}: {family.python.class_name}.{code.python_name}{comma}",
                code.python_name or "")
    if kind == "binding":
        return f'  m.attr("{code.wrapper}") = py::int_({_bound(family, region, code)});', code.wrapper or ""
    if kind in ("name", "quoted-name"):
        quote = '"' if kind == "quoted-name" else ""
        return f"    {quote}{code.python_name}{quote},", code.python_name or ""
    short = (_cpp_name(code, region) or "").rsplit("::", 1)[-1]
    if kind == "constant":
        literal = f"0x{code.value:X}U" if region.literal == "hex" else f"{code.value}U"
        return f"{region.declaration} {short} = {literal};", short
    if kind == "message-macro":
        return f'{region.macro}({short}, "{_c_string(code.log_message or "")}");', short
    layout = next(v for v in family.value_layouts if v.macro == region.macro)
    return f"{region.macro}({', '.join(_arguments(layout, region, code, short))});", short


def _bound(family: Family, region: SourceRegion, code: Code) -> str:
    """What the binding binds a code's constant to: its C++ name in the region's namespace, else
    the runtime constant of its value (a header outside the cited repositories declares it)."""
    for cpp in code.cpp:
        if region.namespace is None or cpp.namespace == region.namespace:
            return cpp.name
    constant = next((name for name, value in family.runtime_constants if value == code.value), None)
    if constant is None:
        raise MissingFact(f"{code.name}: the binding binds {code.wrapper} to a C++ name in namespace "
                          f"{region.namespace!r} or a runtime constant, and the catalog has neither: add its `cpp` "
                          "name, or the constant to the family's runtime_constants")
    return constant


def _arguments(layout: ValueLayout, region: SourceRegion, code: Code, short: str) -> list[str]:
    """A value layout's macro arguments for a code: its name, its message, and each field of its
    value (the bits between the field's shift and the next field's), written as the region says."""
    shifts = sorted({f.shift for f in layout.fields}) + [32]
    formats = dict(region.arguments)
    out = []
    for argument in layout.arguments:
        if argument == "name":
            out.append(short)
        elif argument == "message":
            if code.log_message is None:
                raise MissingFact(f"{code.name}: {layout.macro} registers its message, and the catalog has no "
                                  "`log_message` for it")
            out.append(f'"{_c_string(code.log_message)}"')
        else:
            field = next(f for f in layout.fields if f.name == argument)
            width = shifts[shifts.index(field.shift) + 1] - field.shift
            out.append(_formatted((code.value >> field.shift) & ((1 << width) - 1), formats[argument]))
    return out


def _formatted(number: int, spec: str) -> str:
    """A field as the region writes it: spec is a format for it ('0b{:02b}', '0x{:X}U'), then,
    after a `|`, how zero is written."""
    form, bar, zero = spec.partition("|")
    return zero if bar and number == 0 else form.format(number)


def _c_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")


# -- lines that define a code outside every region ---------------------------------------------------------------

# A line that defines a code, in any form seen or feared (after its comments are blanked): a group
# of it holds one of the family's names or binding constants, in a defining place.
_DEFINING = (
    (r"^\s*(\w+)\s*=\s*(?:\w+\.)?(\w+)\s*,?\s*$", "py"),  # a member, or an alias of one
    (r"^\s*(\w+)\s*=\s*-?(?:0[xX][0-9a-fA-F]+|\d+)[uUlL]*\s*,?\s*$", "py c"),
    (r"^\s*\w+\.(\w+)\s*:\s*\w+\.(\w+)\s*,?\s*$", "py"),
    (r"^\s*([A-Z][A-Z0-9_]*)\s*,?\s*$", "py"),
    (r"^\s*[\"']([A-Z][A-Z0-9_]*)[\"']\s*,?\s*$", "py"),
    (r"m\.attr\(\s*\"(\w+)\"\s*\)\s*=\s*py::int_\(", "c"),
    (r"\b(?:constexpr|const)\s+[\w:\s]*?\b(\w+)\s*=\s*[^;=]+;", "c"),
    (r"^\s*#\s*define\s+(\w+)\s+\(?\s*(?:0[xX][0-9a-fA-F]+|\d+|\w+)", "c"),
    (r"\b[A-Z_]+\s*\((?:[^,()]*,){5}\s*(\w+)\s*,", "c"),
    (r"\b[A-Z_]+\s*\(\s*(\w+)\s*,\s*\"", "c"),
)
_COMMENTS_PY = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|#[^\n]*')
_COMMENTS_C = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|/\*.*?\*/|//[^\n]*', re.S)


def outside_regions(text: str, family: Family, found: list[Found], python: bool) -> list[tuple[int, str]]:
    """(line, text) of each line that defines one of the family's codes outside every region."""
    pattern = _COMMENTS_PY if python else _COMMENTS_C
    code = pattern.sub(lambda m: m[0] if m[0][0] in "\"'" else re.sub(r"[^\n]", " ", m[0]), text)
    names = family_names(family)
    wrappers = {c.wrapper for c in family.codes if c.wrapper}
    covered = {n for f in found for n in range(f.start, f.end + 1)}
    language = "py" if python else "c"
    result = []
    in_define = False
    for number, line in enumerate(code.split("\n"), 1):
        continued = in_define
        in_define = line.rstrip().endswith("\\") and (continued or re.match(r"^\s*#\s*define\b", line) is not None)
        if continued or number in covered or re.match(r"^\s*#\s*(?:ifndef|ifdef|endif|undef|define\s+\w+\()", line):
            continue  # a macro's definition is not a code's
        for regex, languages in _DEFINING:
            match = re.search(regex, line) if language in languages.split() else None
            if match and any(group in names or group in wrappers for group in match.groups() if group):
                result.append((number, text.split("\n")[number - 1].strip()))
                break
    return result


# -- a registry of messages (GE's error_registry.cc) -----------------------------------------------------


@dataclass(frozen=True)
class RegistryRegion:
    """Where a registry source keeps its JSON: the lines inside its raw string R"( … )"."""

    start: int
    lines: tuple[str, ...]

    @property
    def end(self) -> int:
        return self.start + len(self.lines) - 1


def find_registry(text: str, where: str) -> RegistryRegion:
    """The JSON lines of a registry source, between the line that opens its raw string and the line
    that closes it. MissingFact where the file has no such raw string."""
    lines = text.split("\n")
    opening = [i for i, line in enumerate(lines) if line.rstrip().endswith('R"(')]
    closing = [i for i, line in enumerate(lines) if line.startswith(')"') and opening and i > opening[0]]
    if len(opening) != 1 or not closing:
        raise MissingFact(f'{where}: no line that ends with R"( and, after it, a line that starts with )": the raw '
                          "string that holds the registry's JSON")
    return RegistryRegion(opening[0] + 2, tuple(lines[opening[0] + 1:closing[0]]))


def render_registry(family: MessageFamily, release: str) -> list[str]:
    """The registry's JSON as upstream writes it (json.dumps with two spaces, every character as
    it is), for the newest release the catalog records at or before `release` (a branch: the
    newest): every code it ships, by id, as every recorded release orders them (audit --upstream
    says where a registry does not)."""
    assert family.registry is not None
    key = release_key(release) or ()
    recorded = [r for r, _ in family.registry.releases if (release_key(r) or ()) <= key]
    if not recorded:
        raise MissingFact(f"{family.id}: the catalog records no registry of {release} or of a release before it "
                          f"(import its tag)")
    entries = [entry for code in sorted(family.codes, key=lambda c: c.id)
               if (entry := code.registry_at(recorded[-1], family)) is not None]
    return json.dumps({"error_info_list": entries}, indent=2, ensure_ascii=False).split("\n")
