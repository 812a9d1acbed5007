"""The C/C++ header of a family: macros in C, constexpr constants in C++, and the
functions that name a code and give the message upstream logs for it."""
from __future__ import annotations

from typing import Optional

from generator.domain.codes import Code
from generator.domain.family import Catalog, Family
from generator.rendering.catalog_hash import catalog_hash
from generator.rendering.output import Planned
from generator.rendering.environment import block_comment_banner, comment_language, render_template, seal
from generator.core.project import project_version
from generator.domain.queries import earlier_values, member_c_name, other_names

TEMPLATE = "c/header.h.j2"


def c_path(family: Family) -> str:
    return f"generated/c/{family.c.header}.h"


def c_literal(family: Family, code: Code, value: Optional[int] = None) -> str:
    """A plain unsigned literal (no cast), so that it works in #if and as a case label."""
    value = code.value if value is None else value
    return f"0x{value:08X}U" if family.c.literals == "hex" else f"{value}U"


def plan_c(catalog: Catalog, family: Family) -> list[Planned]:
    # The header carries the family's CATALOG_HASH, so it is made from the whole family.
    return [Planned(c_path(family), lambda: render_c_header(family, catalog_hash(family)))]


def render_c_header(family: Family, catalog_hash: str) -> str:
    comment = comment_language(family)
    codes = [_code(family, c) for c in family.c_codes]
    aliases = [{"c_name": name, "macro": family.c.macro_prefix + name, "literal": c_literal(family, c), "note": note}
               for c in family.c_codes for name, note in other_names(family, c, "c")]
    example = family.code_by_name.get(family.python.unknown_status or "")
    example_name = example.c_name if example is not None and example.c_name else family.c_codes[0].c_name or ""
    namespaces = list(dict.fromkeys(n.namespace + "::" if n.namespace else "the global namespace"
                                    for c in family.codes for n in c.cpp))
    text = render_template(
        TEMPLATE, banner=block_comment_banner(sealed=True), title=family.name[comment], aliases=aliases,
        description=family.description[comment], namespace=family.c.namespace, guard=family.c.guard,
        name_function=family.c.name_function, message_function=family.c.message_function, codes=codes,
        example=example_name, example_macro=family.c.macro_prefix + example_name,
        upstream_namespaces=" and ".join(namespaces), macro_base=family.c.macro_base,
        version=project_version(), catalog_hash=catalog_hash)
    return seal(text.encode("utf-8")).decode("utf-8")


def _code(family: Family, code: Code) -> dict:
    """What the header says of one code: its name (the default repository's newest), value,
    message, and where a repository no longer ships it."""
    name = member_c_name(family, code) or ""
    removed = "; ".join([*(f"{repo} no longer ships it from {release} on" for repo, release in code.removed),
                         *(f"{repo}'s headers no longer have it from {release} on (its Python API does)"
                           for repo, release in code.api_removals("c")),
                         *(f"{repo}'s Python API no longer has it from {release} on (its headers do)"
                           for repo, release in code.api_removals("python")),
                         *(f"{c_literal(family, code, value)} {where}" for value, where in earlier_values(code))])
    return {"c_name": name, "macro": family.c.macro_prefix + name, "literal": c_literal(family, code),
            "log_message": code.log_message, "removed": removed}
