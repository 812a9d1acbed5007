"""The C/C++ header of a family: macros in C, constexpr constants in C++, and the
functions that name a code and give the message upstream logs for it."""
from __future__ import annotations

from generator.rendering.stamps import Digests
from generator.domain.codes import Code
from generator.domain.family import Catalog, Family
from generator.rendering.output import Planned
from generator.rendering.environment import block_comment_banner, comment_language, render_template, seal
from generator.core.project import project_version

TEMPLATE = "c/header.h.j2"


def c_path(family: Family) -> str:
    return f"generated/c/{family.c.header}.h"


def c_literal(family: Family, code: Code) -> str:
    """A plain unsigned literal (no cast), so that it works in #if and as a case label."""
    return f"0x{code.value:08X}U" if family.c.literals == "hex" else f"{code.value}U"


def plan_c(catalog: Catalog, family: Family, digests: Digests) -> list[Planned]:
    # The header carries the family's CATALOG_HASH, so it is made from the whole family.
    return [Planned(c_path(family), lambda stamp: render_c_header(family, digests.family(family), stamp))]


def render_c_header(family: Family, catalog_hash: str, stamp: str) -> str:
    comment = comment_language(family)
    codes = [{"c_name": c.c_name, "macro": family.c.macro_prefix + (c.c_name or ""), "literal": c_literal(family, c),
              "log_message": c.log_message} for c in family.c_codes]
    example = family.code_by_name.get(family.python.unknown_status or "")
    example_name = example.c_name if example is not None and example.c_name else family.c_codes[0].c_name or ""
    namespaces = list(dict.fromkeys(n.namespace + "::" if n.namespace else "the global namespace"
                                    for c in family.codes for n in c.cpp))
    text = render_template(
        TEMPLATE, banner=block_comment_banner(stamp, sealed=True), title=family.name[comment],
        description=family.description[comment], namespace=family.c.namespace, guard=family.c.guard,
        name_function=family.c.name_function, message_function=family.c.message_function, codes=codes,
        example=example_name, example_macro=family.c.macro_prefix + example_name,
        upstream_namespaces=" and ".join(namespaces), macro_base=family.c.macro_base,
        version=project_version(), catalog_hash=catalog_hash)
    return seal(text.encode("utf-8")).decode("utf-8")
