"""Names that are valid identifiers but would break an output: a member that shadows a
method or (as a module-level constant) a built-in, a macro that collides with the header's
own names or with the C standard library's, two codes with one URL."""
from __future__ import annotations

import sys

from generator.domain.family import Family
from generator.reading.format import C_KEYWORDS, C_RESERVED
from generator.core.problems import Reporter
from generator.reading.reserved_names import PYTHON_BUILTINS, c_library_header

# Attributes of int and IntEnum on CPython 3.9 to 3.14, and what the generated
# module's classes define: a member with one of these names would shadow it.
PYTHON_RESERVED = frozenset(
    """as_integer_ratio bit_count bit_length conjugate denominator from_bytes imag is_integer numerator real
    to_bytes name value mro property classmethod staticmethod c_name editions recoverable meaning cause solution
    text_origin code python_name hex""".split()
)
# Module-level names of a generated module that a constant must not replace (the typing
# names are those its annotations import).
MODULE_GLOBALS = frozenset("EDITIONS LANGUAGES UNKNOWN CATALOG_HASH IntEnum re Recoverable "
                           "TYPE_CHECKING Callable Optional TypeVar Union".split())
# Page names a code or edition URL must not take (codes/index/ would be the codes/ page).
RESERVED_SLUGS = frozenset({"index", "404", "assets", "search", "sitemap"})


def check_names(family: Family, record, rep: Reporter, flawed=frozenset()) -> None:
    """`record`: the family as written (generator.reading.format.Family), for the places of its names."""
    _python(family, record.python.at(), rep, flawed)
    _c(family, record.c.at(), rep)
    _slugs(family, rep)


def _python(family: Family, node, rep: Reporter, flawed) -> None:
    python = family.python
    if python.module in sys.stdlib_module_names:
        rep.error(
            node,
            f"family.python.module {python.module!r} is a standard-library module; vendoring it would shadow that "
            "module",
        )
    api = [n for n in (python.class_name, python.exception, python.status, python.lookup, python.code_2_status) if n]
    if len(set(api)) < len(api):
        rep.error(node, f"family.python: the names {', '.join(api)} must all differ")
    for name in dict.fromkeys(api):
        if name.startswith("_") or name in MODULE_GLOBALS or name in PYTHON_BUILTINS or name == python.module:
            rep.error(node, f"family.python: {name!r} is a name the generated module already uses (its own "
                            f"{'helpers' if name.startswith('_') else 'globals'}, or a built-in it calls): the "
                            "module would import and fail on every call; choose another name")
    members = {code.python_name for code in family.python_codes}
    for key in ("default_status", "unknown_status"):
        name = getattr(python, key)
        if name is not None and name not in members and name not in flawed:
            rep.error(node, f"family.python.{key}: {name!r} is no Python name of the family's codes")
    for code in family.python_codes:
        name = code.python_name or ""
        if name.startswith("_"):
            rep.error(
                code.pos,
                f"{name}: a Python name must not start with _ (Enum reserves such names, and a module hides them)",
            )
        elif name in PYTHON_RESERVED:
            rep.error(
                code.pos,
                f"{name}: this Python name would shadow an attribute of int, Enum or the generated class; rename it",
            )
        elif name in api or name in MODULE_GLOBALS or name == python.module:
            rep.error(code.pos, f"{name}: this Python name is also a name of the generated module's own API")
        elif python.shape == "constants" and name in PYTHON_BUILTINS:
            rep.error(
                code.pos,
                f"{name}: a built-in of Python; as a module-level constant it would replace the built-in "
                "that the generated module and its importers call; rename the code's Python name",
            )


def _c(family: Family, node, rep: Reporter) -> None:
    c = family.c
    own = {c.namespace, c.name_function, c.message_function, "code", "std", "uint32_t", *c.own_macros} - {None}
    if len({c.guard, c.namespace, c.name_function, c.message_function} - {None}) < len(
        [n for n in (c.guard, c.namespace, c.name_function, c.message_function) if n]
    ):
        rep.error(node, "family.c: guard, namespace and function names must all differ")
    for name in (c.guard, c.namespace, c.name_function, c.message_function):
        if name and (name in C_KEYWORDS or C_RESERVED.fullmatch(name) or c_library_header(name)):
            rep.error(node, f"family.c: {name!r} is a C/C++ keyword or a name reserved by C and its standard headers")
    for code in family.c_codes:
        assert code.c_name is not None
        macro = c.macro_prefix + code.c_name
        library = [(n, c_library_header(n)) for n in dict.fromkeys((macro, code.c_name)) if c_library_header(n)]
        if macro in C_KEYWORDS or C_RESERVED.fullmatch(macro):
            rep.error(
                code.pos,
                f"{code.c_name}: {macro} is a C/C++ keyword or a name <stdint.h>/<stddef.h> defines or reserves; "
                "rename it",
            )
        elif library:
            name, header = library[0]
            what = "this name" if name == code.c_name else name
            rep.error(
                code.pos,
                f"{code.c_name}: <{header}> defines or reserves {what}; the generated header "
                f"would not compile beside it (C macro {macro}, C++ constant {c.namespace}::{code.c_name}); "
                "rename the code's C name",
            )
        elif macro in own or code.c_name in own:
            rep.error(
                code.pos,
                f"{code.c_name}: the generated header already uses the name {macro} (guard, namespace, functions)",
            )


def _slugs(family: Family, rep: Reporter) -> None:
    seen: dict[str, str] = {}
    for code in family.codes:
        for name in filter(None, {code.python_name, code.c_name}):
            slug = name.lower()
            if slug in RESERVED_SLUGS:
                rep.error(code.pos, f"{name}: its page would be codes/{slug}/, a name the site reserves; rename it")
            elif slug in seen and seen[slug] != code.name:
                rep.error(
                    code.pos,
                    f"{name}: differs from {seen[slug]} only in case; both would have the anchor and URL {slug!r}",
                )
            seen.setdefault(slug, code.name)
    editions: dict[str, str] = {}
    for edition in family.editions:
        slug = edition.id.lower()
        if slug in RESERVED_SLUGS:
            rep.error(
                edition.pos, f"edition {edition.id}: its page would be editions/{slug}/, a name the site reserves"
            )
        elif slug in editions:
            rep.error(
                edition.pos, f"edition {edition.id} differs from {editions[slug]} only in case; both would have one URL"
            )
        editions[slug] = edition.id
