"""The Python module of a family: an IntEnum (a drop-in for upstream's class) or
module-level constants, with the documentation of every code per edition.

The module is a small template for the names, the data tables built here, and
the static runtime (generator/rendering/runtime/module_runtime.py) copied verbatim.
"""
from __future__ import annotations

import re
import textwrap
import unicodedata
from functools import lru_cache
from typing import Optional

from generator.rendering.catalog_hash import catalog_hash
from generator.rendering.escape import py_str
from generator.domain.codes import Code
from generator.domain.family import Catalog, Family
from generator.domain.model import PROPOSED, TEXT_FIELDS, UNTRANSLATED
from generator.rendering.output import Planned
from generator.domain.queries import (default_edition, default_timeline, earlier_values, member_c_name, member_name,
                                      other_names)
from generator.rendering.environment import comment_banner, comment_language, render_template, runtime_source, seal
from generator.core.project import project_version

RUNTIME = "module_runtime.py"


def python_path(family: Family) -> str:
    return f"generated/python/{family.python.module}.py"


def literal(family: Family, code: Code, value: Optional[int] = None) -> str:
    """A value of the code (default: its newest) as the family's C header writes it: hex (0x5010B01A) or decimal."""
    value = code.value if value is None else value
    if value >= 0 and code.in_c and family.c.literals == "hex":
        return f"0x{value:X}"
    return str(value)


def plan_python(catalog: Catalog, family: Family) -> list[Planned]:
    return [Planned(python_path(family), lambda: render_python_module(family, catalog_hash(family)))]


_DATA = "\x00data\x00"  # where the data tables go: no catalog text holds a NUL


def render_python_module(family: Family, catalog_hash: str) -> str:
    """The module, sealed: its checksum line is the hash of the text with the placeholder."""
    template = f"python/{family.python.shape}_module.py.j2"
    names = family.python
    members = [{"name": _member(family, c), "literal": literal(family, c)} for c in family.python_codes]
    example = names.unknown_status or family.python_codes[0].python_name if family.python_codes else None
    example_code = family.code_by_name.get(example) if example else None
    exports: list[str] = [
        n for n in (names.class_name, names.exception, names.status, names.code_2_status, names.lookup) if n
    ]
    exports += ["CATALOG_HASH", "EDITIONS", "LANGUAGES", "UNKNOWN"]
    if names.shape == "constants":
        exports = [m["name"] for m in members] + exports
    text = render_template(
        template, banner=comment_banner("# ", sealed=True), class_name=names.class_name, module=names.module,
        description=family.description[comment_language(family)], exception=names.exception,
        default_status=names.default_status, status=names.status, code_2_status=names.code_2_status,
        unknown_status=names.unknown_status, lookup=names.lookup, languages=family.languages,
        ok_member=_ok_member(family), example=example,
        example_key=example_code.hex if example_code else "0", exports=exports,
        upstream_api=_listed([f"``{n}``" for n in (names.exception, names.status) if n]
                             + ([f"``{names.code_2_status}()``"] if names.code_2_status else [])),
        version=project_version(), catalog_hash=catalog_hash, members=members,
        default_rule=_default_rule(family), upstream_bases=_upstream_bases(family),
        aliases=_aliases(family), history=_history(family),
        member_history={member: " ".join(lines) for member, lines in _histories(family).items()},
        wrapped=[{"name": _member(family, c), "literal": literal(family, c)} for c in family.python_codes if c.wrapper],
        data=_DATA, prelude=runtime_part("prelude"), runtime=runtime_part("body"),
    )
    before, after = text.split(_DATA)
    return seal((before + _data(family) + after).encode("utf-8")).decode("utf-8")


@lru_cache(maxsize=None)
def runtime_part(name: str) -> str:
    """One part of the runtime (generator/rendering/runtime/module_runtime.py): `prelude`, `tables` or `body`,
    as the file's `# runtime: NAME` lines divide it."""
    parts = re.split(r"^# runtime: (\w+)\n", runtime_source(RUNTIME), flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))[name].strip("\n") + "\n"


@lru_cache(maxsize=None)
def table_types() -> dict[str, str]:
    """Each data table's annotation, as the runtime declares it."""
    return dict(re.findall(r"^(\w+): (.+?) = ", runtime_part("tables"), flags=re.M))


def _member(family: Family, code: Code) -> str:
    """A code's member name in the module (the default repository's newest Python name)."""
    return member_name(family, code) or ""


def _c_only_names(family: Family, code: Code) -> list[str]:
    """A C-only code's names: every C name it had, and each as the header's macro."""
    prefix = family.c.macro_prefix
    return [*code.c_names, *(prefix + name for name in code.c_names if prefix)]


def other_lookup_names(family: Family) -> list[tuple[str, str]]:
    """Each member's names that lookup() accepts besides its own and its C name: the names it
    had before (or has in another repository), the header's macros (the C names with the family's
    prefix), the C++ qualified names (ns::NAME, ::PREFIX_NAME), and a C++ name without its
    namespace where no member, C name or other code's name reads the same."""
    taken = {_member(family, c) for c in family.python_codes} | \
        {n for c in family.python_codes if (n := member_c_name(family, c))} | \
        {n for c in family.codes if not c.in_python for n in c.c_names}
    names = {cpp.name: _member(family, code) for code in family.python_codes for cpp in code.cpp}
    names.update({family.c.macro_prefix + name: _member(family, code) for code in family.python_codes
                  for name in code.c_names if family.c.macro_prefix})
    names.update({name: _member(family, code) for code in family.python_codes
                  for name in (*code.python_names, *code.c_names) if name not in taken})
    owners: dict[str, set[str]] = {}
    for code in family.python_codes:
        for cpp in code.cpp:
            owners.setdefault(cpp.short, set()).add(_member(family, code))
    names.update({short: next(iter(o)) for short, o in owners.items() if short not in taken and len(o) == 1})
    return sorted(names.items())


def _default_rule(family: Family) -> str:
    """generator.domain.queries.default_edition's rule in words, with the family's pages and timelines."""
    lang = comment_language(family)
    page, main = family.page_by_id[family.python.default_page], default_timeline(family)
    others = [t.id for t in reversed(page.timelines) if t is not main]
    text = f"Without an edition, a code answers from the newest final release of the {page.name[lang]} that lists it"
    text += f" (its {', then '.join([main.id + ' copy first', *others])})" if others else ""
    text += ", else from the page's newest pre-release"
    later = [
        p.name[lang] + (f" ({', then '.join(t.id for t in reversed(p.timelines))})" if len(p.timelines) > 1 else "")
        for p in family.pages
        if p is not page
    ]
    text += f", else from the newest final release of another page: the {', then the '.join(later)}" if later else ""
    text += ("; never from an unreleased edition. A code that no such edition lists answers UNKNOWN "
             "and None, as one that no page lists.")
    return textwrap.fill(text, 79)


def _aliases(family: Family) -> list[dict[str, str]]:
    """Each earlier Python name of a member (or its name in another repository): an alias."""
    members = {_member(family, c) for c in family.python_codes}
    return [{"name": name, "member": _member(family, code)} for code in family.python_codes
            for name in code.python_names if name not in members]


def _history(family: Family) -> str:
    """The members renamed or no longer shipped, in words, for the module's docstring."""
    lines = [line for said in _histories(family).values() for line in said]
    return "\n".join(textwrap.fill(line, 79, subsequent_indent="    ") for line in lines)


def _histories(family: Family) -> dict[str, list[str]]:
    """Each member renamed, no longer shipped or given another value: what its history says, in
    words (the module's docstring says it of them all; each member's own docstring of it)."""
    found: dict[str, list[str]] = {}
    for code in family.python_codes:
        member = _member(family, code)
        lines = found.setdefault(member, [])
        for name, what in other_names(family, code, "python"):
            lines.append(f"{name} is {member}: {what}.")
        for repo, release in code.removed:
            lines.append(f"{member}: {repo} no longer ships it from {release} on (its older releases do); "
                         "the member stays.")
        for api, words in (("python", "Python API"), ("c", "C/C++ headers")):
            for repo, release in code.api_removals(api):
                lines.append(f"{member}: {repo}'s {words} no longer {'has' if api == 'python' else 'have'} it from "
                             f"{release} on (the other API's "
                             "files and its older releases do); the member stays.")
        for value, where in earlier_values(code):
            lines.append(f"{member} is {literal(family, code)}; it was {literal(family, code, value)} {where}: "
                         "lookup() accepts that value, the constructor does not (as upstream's).")
    return {member: lines for member, lines in found.items() if lines}


def _upstream_bases(family: Family) -> str:
    """Upstream's base class of the enum, per repository and release, as the catalog records it."""
    parts = [f"in {u.repo} " + ", then ".join(f"an ``{base}`` from {since}" for base, since in u.bases)
             for u in family.upstream if u.kind == "python" and u.bases]
    if not parts:
        return ""
    text = (f"Upstream's ``{family.python.class_name}`` is {'; '.join(parts)}. This one is an ``IntEnum`` "
            "in every case: its members also equal their int values, as an Enum's do not.")
    return textwrap.fill(text, 79)


def _listed(items: list[str]) -> str:
    """a, b and c"""
    return " and ".join(filter(None, (", ".join(items[:-1]), items[-1]))) if items else ""


def _ok_member(family: Family) -> Optional[str]:
    for code in family.python_codes:
        if code.value == 0:
            return _member(family, code)
    return family.python.default_status


_RECOVERABLE = {"yes": '"yes"', "no": '"no"', "n/a": '"n/a"', "not known": '"not known"'}
_ORIGIN_FLAGS = {"upstream": 0, "translation": 1, UNTRANSLATED: 2, PROPOSED: 3}  # the runtime's _ORIGINS, by index


def _table(name: str, opening: str) -> str:
    return f"{name}: {table_types()[name]} = {opening}"


def _name_tables(family: Family) -> list[str]:
    """The tables of names: each member's value, its C name, every other name lookup() reads,
    the C-only codes and the removals."""
    out: list[str] = []
    out.append("# Every member's value, in upstream's order.")
    out.append(_table("_MEMBERS", "{\n") + "".join(f"    {py_str(_member(family, c))}: {literal(family, c)},\n"
                                                 for c in family.python_codes) + "}")
    out.append("# The C/C++ name of each member that has one.")
    out.append(_table("_C_NAMES", "{\n") + "".join(f"    {py_str(_member(family, c))}: {py_str(c_name)},\n"
                                                 for c in family.python_codes
                                                 if (c_name := member_c_name(family, c))) + "}")
    out.append("# Other names of members lookup() reads: earlier names, and the C++ names upstream's headers declare.")
    out.append(_table("_OTHER_NAMES", "{\n") + "".join(f"    {py_str(name)}: {py_str(python_name)},\n"
                                                     for name, python_name in other_lookup_names(family)) + "}")
    out.append("# Codes that exist only in C/C++ (by every name they had): not members, but lookup() names them.")
    out.append(_table("_C_ONLY", "{\n") + "".join(f"    {py_str(name)}: {literal(family, c)},\n"
                                                for c in family.codes if not c.in_python
                                                for name in _c_only_names(family, c)) + "}")
    out.append("# Per member that a repository's newest release no longer ships: the first release without it.")
    out.append(_table("_REMOVED_IN", "{\n") + "".join(
        f"    {py_str(_member(family, c))}: {{{', '.join(f'{py_str(r)}: {py_str(v)}' for r, v in _gone(c))}}},\n"
        for c in family.python_codes if _gone(c)) + "}")
    out.append("# Per member whose value changed: each earlier value, and per repository the first release without it.")
    out.append(_table("_EARLIER_VALUES", "{\n") + "".join(
        f"    {py_str(_member(family, c))}: {{" + ", ".join(
            f"{literal(family, c, e.value)}: {{{', '.join(f'{py_str(r)}: {py_str(v)}' for r, v in e.until)}}}"
            for e in c.earlier if e.value is not None) + "},\n"
        for c in family.python_codes if any(e.value is not None for e in c.earlier)) + "}")
    return out


def _gone(code: Code) -> list[tuple[str, str]]:
    """Where a member's code is gone from the Python side: from every file, or from the Python API alone."""
    return sorted({**dict(code.api_removals("python")), **dict(code.removed)}.items())


def _data(family: Family) -> str:
    """The data tables the runtime reads, built as text: a family of 10,000 codes has
    hundreds of thousands of entries, too many for a template loop. Each table carries the
    annotation the runtime declares for it; no line is longer than the linters' 120 columns."""
    out: list[str] = ["#: Every edition of every page of the family, oldest first."]
    out.append(_table("EDITIONS", "(\n") + "".join(f"    {py_str(e.id)},\n" for e in family.editions) + ")")
    out.append("# Edition ids once published that now resolve to another edition (accepted as edition=).")
    out.append(_table("_ALIASES", "{\n") + "".join(f"    {py_str(alias)}: {py_str(target)},\n"
                                                 for alias, target in family.aliases) + "}")
    out.append("#: The languages of the texts; the first is the default.")
    out.append(_table("LANGUAGES", "(") + "".join(py_str(lang) + ", " for lang in family.languages).rstrip() + ")")
    out.append("")
    out += _name_tables(family)
    out.append("# For each member, the editions whose page lists it, with the page's recoverability.")
    rows = [(_member(family, c), tuple((e.id, e.row_by_code[c.name].recoverable) for e in family.editions_listing(c)))
            for c in family.python_codes]
    out.append(_table("_ROWS", "{\n") + _rows_lines(rows) + "}")
    out.append("# Editions for which it is not known whether their page lists the member.")
    out.append(
        _table("_NOT_KNOWN", "{\n")
        + "".join(
            _items(
                f"    {py_str(_member(family, c))}: (",
                [py_str(e.id) for e in family.editions_not_known(c)],
                "),",
                tuple_=True,
            )
            for c in family.python_codes
            if family.editions_not_known(c)
        )
        + "}"
    )
    out.append("# The edition each member answers from by default, by the rule the module's docstring says.")
    defaults = ((c, default_edition(family, c)) for c in family.python_codes)
    out.append(_table("_DEFAULT_EDITION", "{\n") + "".join(f"    {py_str(_member(family, c))}: {py_str(e.id)},\n"
                                                         for c, e in defaults if e is not None) + "}")
    strings, texts = _texts(family)
    out.append("# Every text, once; _TEXTS refers to them by index.")
    out.append(_table("_STRINGS", "(\n") + "".join(_string_lines(text, "    ") for text in strings) + ")")
    out.append("# (member, edition) -> {lang: (meaning, cause, solution)}, each a _Text: the index is the first\n"
               "# language's text for one not translated yet.")
    out.append(_table("_TEXTS", "{\n") + _texts_lines(texts) + "}")
    return "\n".join(out) + "\n"


WIDTH = 120  # the line length of the consumers' linters (ruff's E501 counts a wide character as two)


def text_width(text: str) -> int:
    if text.isascii():  # most lines: no character is wide
        return len(text)
    return len(text) + sum(1 for ch in text if unicodedata.east_asian_width(ch) in "WF")


def _items(head: str, items: list[str], tail: str, tuple_: bool = False) -> str:
    """head, the items and tail on one line when they fit, else one item a line."""
    line = head + ", ".join(items) + ("," if tuple_ and len(items) == 1 else "") + tail
    if text_width(line) <= WIDTH:
        return line + "\n"
    outer = head[:len(head) - len(head.lstrip())]
    return head.rstrip() + "\n" + "".join(f"{outer}    {item},\n" for item in items) + outer + tail + "\n"


def _string_lines(text: str, indent: str) -> str:
    """A text as a tuple item: one literal when it fits, else adjacent literals in
    parentheses, each within the width (the pieces concatenate to exactly the text)."""
    whole = f"{indent}{py_str(text)},"
    if text_width(whole) <= WIDTH:
        return whole + "\n"
    room = WIDTH - text_width(indent) - 5  # a space or parenthesis, the quotes, then "),"
    pieces, current, used = [], "", 0
    for ch in text:
        escaped = py_str(ch)[1:-1]
        size = text_width(escaped)
        if current and used + size > room:
            pieces.append(current)
            current, used = "", 0
        current += ch
        used += size
    pieces.append(current)
    lines = [f"{indent}({py_str(pieces[0])}"] + [f"{indent} {py_str(piece)}" for piece in pieces[1:]]
    return "\n".join(lines) + "),\n"


def _rows_lines(chunk) -> str:
    return "".join(
        _items(f"    {py_str(name)}: {{", [f"{py_str(e)}: {_RECOVERABLE[value]}" for e, value in rows], "},")
        for name, rows in chunk
    )


def _texts(family: Family) -> tuple[dict[str, int], list]:
    """Every text once, by index in first use, and per member what _TEXTS says of it:
    (name, ((edition id, ((lang, (field's (text index, translated) or None, ...)), ...)), ...))."""
    strings: dict[str, int] = {}
    members = []
    for code in family.python_codes:
        editions = []
        for edition in family.editions_listing(code):
            langs = []
            for lang in edition.languages or ():
                fields = []
                for field_name in TEXT_FIELDS:
                    entry = code.entry(field_name, edition.id, lang)
                    fields.append(None if entry is None else
                                  (strings.setdefault(entry.text, len(strings)), _ORIGIN_FLAGS[entry.origin]))
                langs.append((lang, tuple(fields)))
            if langs:
                editions.append((edition.id, tuple(langs)))
        members.append((_member(family, code), tuple(editions)))
    return strings, members


def _texts_lines(chunk) -> str:
    parts = []
    for name, editions in chunk:
        for edition, langs in editions:
            lines = "".join(
                f"        {py_str(lang)}: "
                f"({', '.join('None' if f is None else f'({f[0]}, {f[1]})' for f in fields)}),\n"
                for lang, fields in langs
            )
            parts.append(f"    ({py_str(name)}, {py_str(edition)}): {{\n{lines}    }},\n")
    return "".join(parts)
