"""The site's home page: every family, and how to look a code up."""
from __future__ import annotations

from functools import partial

from generator.domain.family import Catalog
from generator.rendering.output import Planned
from generator.rendering.site.context import Context, banner, doc_path
from generator.rendering.site.markup import render_page
from generator.rendering.site.message_site import capitalized, family_labels, lookup_words
from generator.rendering.site.pages import family_view


def plan_home(catalog: Catalog) -> list[Planned]:
    return [Planned(doc_path("", lang, index=True), partial(render_home, catalog, lang), lang=lang)
            for lang in catalog.site.languages]


def render_home(catalog: Catalog, lang: str) -> str:
    ctx = Context(catalog, lang, "")
    return render_page("home.md.j2", title=ctx.label("home"), banner=banner(), hide_toc=False,
                       site_name=catalog.site.name[lang], labels=ctx.labels,
                       lookups=[lookup_words(family_labels(catalog, f, lang), f)
                                for f in catalog.message_families if f.codes],
                       families=[family_view(Context(catalog, lang, "", f), f) for f in catalog.families],
                       messages=[(f.id, f.name.get(lang) or f.name.first(),
                                  capitalized(f.description.get(lang) or f.description.first()), f"{f.prefix}codes/",
                                  len(f.codes)) for f in catalog.message_families])
