"""The Python module of a family: an IntEnum (a drop-in for upstream's class) or
module-level constants, with the documentation of every code per edition.

The module is a small template for the names, the data tables built here, and
the static runtime (generator/runtime/documented.py) copied verbatim.
"""
from __future__ import annotations

import textwrap
from typing import Optional

from generator.escape import py_str
from generator.inputs import Digests
from generator.model import TEXT_FIELDS, UNTRANSLATED, Catalog, Code, Family
from generator.outputs_model import Planned
from generator.queries import default_edition, default_timeline
from generator.render import comment_banner, comment_language, render_template, runtime_source, seal
from generator.version import project_version

RUNTIME = "documented.py"


def python_path(family: Family) -> str:
    return f"generated/python/{family.python.module}.py"


def literal(family: Family, code: Code) -> str:
    """A value as the family's C header writes it: hex (0x5010B01A) or decimal."""
    if code.value >= 0 and code.in_c and family.c.literals == "hex":
        return f"0x{code.value:X}"
    return str(code.value)


def plan_python(catalog: Catalog, family: Family, digests: Digests) -> list[Planned]:
    return [Planned(python_path(family), lambda stamp: render_python_module(family, digests.family(family), stamp))]


_DATA = "\x00data\x00"  # where the data tables go: no catalog text holds a NUL


def render_python_module(family: Family, catalog_hash: str, stamp: str) -> str:
    """The module, sealed: its checksum line is the hash of the text with the placeholder."""
    template = f"python/{family.python.shape}_module.py.j2"
    names = family.python
    members = [{"name": c.python_name, "literal": literal(family, c)} for c in family.python_codes]
    example = names.unknown_status or family.python_codes[0].python_name if family.python_codes else None
    example_code = family.code_by_name.get(example) if example else None
    exports = [n for n in (names.class_name, names.exception, names.status, names.code_2_status, names.lookup) if n]
    exports += ["CATALOG_HASH", "EDITIONS", "LANGUAGES", "UNKNOWN"]
    if names.shape == "constants":
        exports = [m["name"] for m in members] + exports
    text = render_template(
        template, banner=comment_banner(stamp, "# ", sealed=True), class_name=names.class_name, module=names.module,
        description=family.description[comment_language(family)], exception=names.exception,
        default_status=names.default_status, status=names.status, code_2_status=names.code_2_status,
        unknown_status=names.unknown_status, lookup=names.lookup, languages=family.languages,
        ok_member=_ok_member(family), example=example,
        example_key=example_code.hex if example_code else "0", exports=exports,
        upstream_api=_listed([f"``{n}``" for n in (names.exception, names.status) if n]
                             + ([f"``{names.code_2_status}()``"] if names.code_2_status else [])),
        version=project_version(), catalog_hash=catalog_hash, members=members,
        default_rule=_default_rule(family),
        wrapped=[{"name": c.python_name, "literal": literal(family, c)} for c in family.python_codes if c.wrapper],
        data=_DATA, runtime=runtime_source(RUNTIME).rstrip("\n") + "\n",
    )
    before, after = text.split(_DATA)
    return seal((before + _data(family) + after).encode("utf-8")).decode("utf-8")


def _default_rule(family: Family) -> str:
    """generator.queries.default_edition's rule in words, with the family's pages and timelines."""
    lang = comment_language(family)
    page, main = family.page_by_id[family.python.default_page], default_timeline(family)
    others = [t.id for t in reversed(page.timelines) if t is not main]
    text = f"Without an edition, a code answers from the newest final release of the {page.name[lang]} that lists it"
    text += f" (its {', then '.join([main.id + ' copy first', *others])})" if others else ""
    text += ", else from the page's newest pre-release"
    later = [p.name[lang] + (f" ({', then '.join(t.id for t in reversed(p.timelines))})" if len(p.timelines) > 1 else "")
             for p in family.pages if p is not page]
    text += f", else from the newest final release of another page: the {', then the '.join(later)}" if later else ""
    text += ("; never from an unreleased edition. A code that no such edition lists answers UNKNOWN "
             "and None, as one that no page lists.")
    return textwrap.fill(text, 79)


def _listed(items: list[str]) -> str:
    """a, b and c"""
    return " and ".join(filter(None, (", ".join(items[:-1]), items[-1]))) if items else ""


def _ok_member(family: Family) -> Optional[str]:
    for code in family.python_codes:
        if code.value == 0:
            return code.python_name
    return family.python.default_status


_RECOVERABLE = {"yes": '"yes"', "no": '"no"', "n/a": '"n/a"', "not known": '"not known"'}
_ORIGIN_FLAGS = {"upstream": 0, "translation": 1, UNTRANSLATED: 2}  # the runtime's _ORIGINS, by index


def _data(family: Family) -> str:
    """The data tables the runtime reads, built as text: a family of 10,000 codes has
    hundreds of thousands of entries, too many for a template loop."""
    out: list[str] = ["#: Every edition of every page of the family, oldest first."]
    out.append("EDITIONS = (\n" + "".join(f"    {py_str(e.id)},\n" for e in family.editions) + ")")
    out.append("# Edition ids once published that now resolve to another edition (accepted as edition=).")
    out.append("_ALIASES = {\n" + "".join(f"    {py_str(alias)}: {py_str(target)},\n" for alias, target in family.aliases) + "}")
    out.append("#: The languages of the texts; the first is the default.")
    out.append("LANGUAGES = (" + ", ".join(py_str(lang) for lang in family.languages) + ",)")
    out.append("")
    out.append("# Every member's value, in upstream's order.")
    out.append("_MEMBERS = {\n" + "".join(f"    {py_str(c.python_name)}: {literal(family, c)},\n"
                                           for c in family.python_codes) + "}")
    out.append("# The C/C++ name of each member that has one.")
    out.append("_C_NAMES = {\n" + "".join(f"    {py_str(c.python_name)}: {py_str(c.c_name)},\n"
                                           for c in family.python_codes if c.c_name) + "}")
    out.append("# Codes that exist only in C/C++: not members, but lookup() names them.")
    out.append("_C_ONLY = {\n" + "".join(f"    {py_str(c.c_name)}: {literal(family, c)},\n"
                                          for c in family.codes if not c.in_python) + "}")
    out.append("# For each member, the editions whose page lists it, with the page's recoverability.")
    rows = [(c.python_name, tuple((e.id, e.row_by_code[c.name].recoverable) for e in family.editions_listing(c)))
            for c in family.python_codes]
    out.append("_ROWS = {\n" + _rows_lines(rows) + "}")
    out.append("# Editions for which it is not known whether their page lists the member.")
    out.append("_NOT_KNOWN = {\n" + "".join(
        f"    {py_str(c.python_name)}: ({''.join(py_str(e.id) + ', ' for e in family.editions_not_known(c))}),\n"
        for c in family.python_codes if family.editions_not_known(c)) + "}")
    out.append("# The edition each member answers from by default, by the rule the module's docstring says.")
    defaults = ((c, default_edition(family, c)) for c in family.python_codes)
    out.append("_DEFAULT_EDITION = {\n" + "".join(f"    {py_str(c.python_name)}: {py_str(e.id)},\n"
                                                   for c, e in defaults if e is not None) + "}")
    strings, texts = _texts(family)
    out.append("# Every text, once; _TEXTS refers to them by index.")
    out.append("_STRINGS = (\n" + "".join(f"    {py_str(text)},\n" for text in strings) + ")")
    out.append("# (member, edition) -> {lang: (meaning, cause, solution)}, each (text index, 0 for upstream's own\n"
               "# words, 1 for this project's translation, 2 for not translated yet: the index is the first\n"
               "# language's text), or None where the page has no such text.")
    out.append("_TEXTS = {\n" + _texts_lines(texts) + "}")
    return "\n".join(out) + "\n"


def _rows_lines(chunk) -> str:
    return "".join(f"    {py_str(name)}: {{{', '.join(f'{py_str(e)}: {_RECOVERABLE[value]}' for e, value in rows)}}},\n"
                   for name, rows in chunk)


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
        members.append((code.python_name, tuple(editions)))
    return strings, members


def _texts_lines(chunk) -> str:
    parts = []
    for name, editions in chunk:
        for edition, langs in editions:
            lines = "".join(f"        {py_str(lang)}: ({', '.join('None' if f is None else f'({f[0]}, {f[1]})' for f in fields)}),\n"
                            for lang, fields in langs)
            parts.append(f"    ({py_str(name)}, {py_str(edition)}): {{\n{lines}    }},\n")
    return "".join(parts)
