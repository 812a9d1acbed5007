"""The site's home page: every family, and how to look a code up."""
from __future__ import annotations

from functools import partial

from generator.domain.family import Catalog
from generator.rendering.output import Planned
from generator.rendering.site.context import Context, doc_path
from generator.rendering.site.pages import family_block
from generator.rendering.site.parts import TITLE_ID, heading, page
from generator.rendering.stamps import Digests


def plan_home(catalog: Catalog, digests: Digests) -> list[Planned]:
    return [Planned(doc_path("", lang, index=True), partial(render_home, catalog, lang), lang=lang)
            for lang in catalog.site.languages]


def render_home(catalog: Catalog, lang: str, stamp: str) -> str:
    ctx = Context(catalog, lang, "")
    body = [heading(1, catalog.site.name[lang], TITLE_ID), f"<p>{ctx.l('home_intro')}</p>",
            heading(2, ctx.label("lookup_title"), "lookup"), f"<p>{ctx.l('lookup_text')}</p>",
            heading(2, ctx.label("families"), "families")]
    for family in catalog.families:
        body.append(family_block(Context(catalog, lang, "", family), family))
    return page(ctx.label("home"), stamp, body)
