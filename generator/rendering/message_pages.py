"""A message family's pages in upstream's own format: one Markdown file per code and the index,
per language, rendered from the code's fields and the language's framing (nothing is stored as
page text: a changed meaning, template or list of codes changes the pages and the index).

A page: the title (id and category, `_` escaped), the symptom heading, the sentence that says
what each placeholder stands for (only where the code has meanings), the template in a `text`
fence, a note or the examples (numbered when several), the possible cause where the language has
one, and the solution, which ends the file.
"""
from __future__ import annotations

from typing import Optional

from generator.domain.messages import MessageCode, MessageFamily
from generator.rendering.output import Planned

UPSTREAM_DIR = "generated/upstream"


def md_category(category: str) -> str:
    return category.replace("_", "\\_")


def intro(family: MessageFamily, code: MessageCode, lang: str) -> Optional[str]:
    meanings = code.meanings_in(lang)
    if not meanings:
        return None
    framing = family.pages.framing_of(lang)
    sentence = framing.sentence(code.wording_in(lang)) or framing.sentence("sequence") or "{meanings}"
    return sentence.replace("{meanings}", framing.separator.join(meanings))


def example_labels(family: MessageFamily, code: MessageCode, lang: str) -> list[str]:
    framing = family.pages.framing_of(lang)
    if code.numbered_in(lang):
        return [framing.example_numbered.replace("{n}", str(n)) for n in range(1, len(code.examples) + 1)]
    return [framing.example] * len(code.examples)


def render_page(family: MessageFamily, code: MessageCode, lang: str) -> str:
    framing = family.pages.framing_of(lang)
    out = [f"# {code.id} {md_category(code.category)}", "", f"## {framing.symptom}", ""]
    sentence = intro(family, code, lang)
    if sentence is not None:
        out += [sentence, ""]
    out += ["```text", code.template or "", "```", ""]
    note = code.note.get(lang) if code.note is not None else None
    if note is not None:
        out += [note, ""]
    for label, example in zip(example_labels(family, code, lang), code.examples):
        out += [label, "", "```text", example, "```", ""]
    cause = code.cause_in(lang)
    if cause is not None:
        out += [f"## {framing.cause}", "", cause, ""]
    out += [f"## {framing.solution}", "", code.solution_in(lang) or ""]
    return "\n".join(out) + "\n"


def render_index(family: MessageFamily) -> str:
    entries = [f"- [{code.id} {md_category(code.category)}]({family.file_name(code)})" for code in family.codes
               if code.indexed]
    return f"# {family.pages.index_title}\n\n" + "\n\n".join(entries) + "\n"


def page_path(family: MessageFamily, lang: str, code: Optional[MessageCode] = None) -> str:
    """A page's (or, without a code, the index's) path in upstream's repository."""
    name = family.file_name(code) if code is not None else family.pages.index
    return f"{family.pages.folder(lang)}/{name}"


def plan_message_upstream(catalog: object, family: MessageFamily) -> list[Planned]:
    """Every page and index, at upstream's paths under generated/upstream/OWNER/NAME/ (upstream's bytes)."""
    root = f"{UPSTREAM_DIR}/{family.pages.repo}"
    planned = []
    for lang in family.languages:
        planned.append(Planned(f"{root}/{page_path(family, lang)}", lambda: render_index(family), lang=lang))
        for code in family.codes:
            if code.page:
                planned.append(Planned(f"{root}/{page_path(family, lang, code)}",
                                       lambda code=code, lang=lang: render_page(family, code, lang),  # type: ignore[misc]
                                       item=code.id, lang=lang))
    return planned
