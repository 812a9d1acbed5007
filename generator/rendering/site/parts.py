"""What several kinds of page share: the cells that say what an edition says about a code (its
recoverability, its texts), as the data that templates/site/macros/parts.html.j2 marks up."""
from __future__ import annotations

from typing import NamedTuple, Optional

from generator.domain.codes import Code
from generator.domain.family import Family
from generator.domain.model import PROPOSED, UNTRANSLATED, Page
from generator.rendering.site import svg
from generator.rendering.site.context import Context, filled
from generator.rendering.site.markup import macro

def listable_pages(family: Family, code: Code) -> list[Page]:
    return [p for p in family.pages if code.name_on(p) is not None]


class Recoverable(NamedTuple):
    """A 是否可恢复 cell: its state (the colour's class), the word shown, and what another
    language's page says otherwise."""

    state: str
    shown: str
    notes: tuple[str, ...] = ()


def recoverable(ctx: Context, family: Family, value: Optional[str], disagreements, words: bool = False) -> Recoverable:
    """Upstream's word (with what it means in words, for `words`), and where another language's
    page says otherwise (worked out once per family and language: every row asks)."""
    return family.remember(("recoverable", ctx.lang, value, disagreements, words),
                           lambda: _recoverable(ctx, family, value, disagreements, words))


def _recoverable(ctx: Context, family: Family, value: Optional[str], disagreements, words: bool) -> Recoverable:
    shown = ctx.recoverable(value, family)
    if words and value is not None:
        shown = filled(ctx.label(f"recoverable_words_{svg.RECOVERABLE_STATE[value]}"), value=shown)
    notes = tuple(
        filled(ctx.label("disagreement"), lang=ctx.site.language_names.get(lang) or lang,
               value=family.recoverable_label(other, lang) if other is not None else "—")
        for lang, other in disagreements)
    return Recoverable(svg.RECOVERABLE_STATE[value] if value is not None else "absent", shown, notes)


class TextCell(NamedTuple):
    """A text of an edition (None: not known), what marks it as not upstream's released words
    (translation, untranslated, proposed) if anything, the words of the mark or of "not known",
    and the short sign the cell shows for the mark (the page's note says once what it means)."""

    text: Optional[str]
    mark: Optional[str]
    words: str
    sign: str = ""


def text_cell_of(ctx: Context, text: Optional[str], origin: Optional[str]) -> TextCell:
    if text is None:
        return TextCell(None, None, ctx.label("text_not_known"))
    # a mark says whose words a text is: a bare "-" has none to mark
    marked = origin in (UNTRANSLATED, PROPOSED, "translation") and any(c.isalnum() for c in text)
    if not marked:
        return TextCell(text, None, "")
    return TextCell(text, origin, ctx.label(origin), ctx.label(f"mark_{origin}"))  # type: ignore[arg-type]


def text_cell(ctx: Context, text: Optional[str], origin: Optional[str]) -> str:
    """A text cell as the pages write it."""
    return str(macro("parts.html.j2", "text_cell")(text_cell_of(ctx, text, origin)))


def json_script(value, ident: str) -> str:
    """Data for the page's script as the pages write it: JSON in a <script> element (escape.json_in_script)."""
    return str(macro("parts.html.j2", "json_script")(value, ident))
