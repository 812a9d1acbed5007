"""The site's frame, made from every family: the MkDocs config, the theme overrides (the main
template and the 404 page with its table of moved addresses), the hook, styles and scripts."""
from __future__ import annotations

import json
import re

from generator.domain.codes import hex_value
from generator.domain.family import Catalog, Family
from generator.rendering.environment import banner_lines, block_comment_banner, comment_banner, render_template
from generator.rendering.output import Planned
from generator.rendering.site.context import DOCS
from generator.rendering.site.search_index import MAX_QUERY, OFFLINE_INDEX, OFFLINE_SEARCH
from generator.rendering.site import svg


def plan_assets(catalog: Catalog) -> list[Planned]:
    return [
        Planned("site/mkdocs.yml", lambda: render_mkdocs_config(catalog)),
        Planned(
            "site/overrides/main.html",
            lambda: render_template("site/overrides/main.html.j2", banner_jinja=_jinja_banner()),
        ),
        Planned("site/overrides/404.html", lambda: render_404(catalog)),
        Planned(
            "site/hooks/site.py",
            lambda: render_template(
                "site/hooks/site.py.j2",
                banner_py=comment_banner("# "),
                languages=repr(list(catalog.site.languages)),
                redirects=repr(redirect_pages(catalog)),
            ),
        ),
        Planned(
            f"{DOCS}/assets/extra.css",
            lambda: block_comment_banner() + "\n" + render_template("site/assets/extra.css"),
        ),
        Planned(
            f"{DOCS}/assets/javascripts/extra.js",
            lambda: render_template(
                "site/assets/extra.js.j2",
                banner_js=block_comment_banner(),
                copy_labels=_js_labels(catalog),
                default_lang=json.dumps(catalog.site.languages[0]),
                symbol=svg.SYMBOL,
                max_query=MAX_QUERY,
                cut_labels=json.dumps({lang: catalog.site.label("search_cut", lang) for lang in catalog.site.languages},
                                      ensure_ascii=True),
            ),
        ),
        Planned(
            f"{DOCS}/assets/javascripts/search-worker.js",
            lambda: render_template("site/assets/search-worker.js.j2", banner_js=block_comment_banner(),
                                    max_query=MAX_QUERY, page_global=OFFLINE_SEARCH),
        ),
        Planned(
            f"{DOCS}/assets/javascripts/offline.js",
            lambda: render_template("site/assets/offline.js.j2", banner_js=block_comment_banner(),
                                    page_global=OFFLINE_SEARCH, index_global=OFFLINE_INDEX),
        ),
    ]


def _jinja_banner() -> str:
    return "{#- " + " ".join(banner_lines()).replace("#}", "# }").replace("{#", "{ #") + " -#}"


def _js_labels(catalog: Catalog) -> str:
    site = catalog.site
    return json.dumps({lang: [site.label(key, lang) for key in ("copy", "copied")] for lang in site.languages},
                      ensure_ascii=True)


def render_mkdocs_config(catalog: Catalog) -> str:
    site = catalog.site
    default = site.languages[0]
    sections = ("all_codes", "editions", "differences_title", "home", "overview") + \
        (("all_messages",) if catalog.message_families else ())

    def title(family: Family, lang: str) -> str:
        return family.name[lang]

    def palette(lang: str) -> dict[str, str]:
        return {key: site.label(f"palette_{key}", lang) for key in ("auto", "light", "dark")}

    languages = []
    for index, lang in enumerate(site.languages):
        translations = []
        if index:
            translations = [(site.label(k, default), site.label(k, lang)) for k in sections]
            translations += [
                (title(f, default), title(f, lang)) for f in catalog.families if title(f, default) != title(f, lang)
            ]
            translations += [(f.name[default], f.name[lang]) for f in catalog.message_families
                             if lang in f.languages and f.name[default] != f.name[lang]]
        languages.append({"code": lang, "name": site.language_names[lang], "site_name": site.name[lang],
                          "site_description": site.description[lang],
                          "nav_translations": list(dict(translations).items()), "palette": palette(lang)})
    families = [{"title": title(f, default), "prefix": f.prefix, "index": f"{f.prefix}index.md" if f.prefix else None,
                 "overview_title": site.label("overview", default),
                 "codes_title": site.label("all_codes", default), "editions_title": site.label("editions", default),
                 "differences_title": site.label("differences_title", default), "messages": False}
                for f in catalog.families]
    families += [{"title": f.name[default], "prefix": f.prefix, "index": f"{f.prefix}index.md",
                  "overview_title": site.label("overview", default), "codes_title": site.label("all_messages", default),
                  "messages": True} for f in catalog.message_families]
    return render_template(
        "site/mkdocs.yml.j2", banner_yaml=comment_banner("# "), site_name=site.name[default],
        site_description=site.description[default], default=default, languages=languages, families=families,
        home=site.label("home", default), palette=palette(default))


def render_404(catalog: Catalog) -> str:
    site = catalog.site
    languages = [
        {
            "code": lang,
            "title": site.label("not_found_title", lang),
            "text": site.label("not_found_text", lang),
            "home": site.label("home", lang),
            "path": "" if index == 0 else f"{lang}/",
            "families": [
                {"name": f.name[lang], "prefix": f.prefix, "codes": site.label("all_codes", lang)}
                for f in catalog.families
            ] + [{"name": f.name.get(lang) or f.name.first(), "prefix": f.prefix,
                  "codes": site.label("all_messages", lang)} for f in catalog.message_families],
        }
        for index, lang in enumerate(site.languages)
    ]
    return render_template("site/overrides/404.html.j2", banner_jinja=_jinja_banner(), languages=languages,
                           paths=[{"lang": lang["code"], "path": lang["path"]} for lang in languages],
                           moved=moved_pages(catalog))


def moved_pages(catalog: Catalog) -> dict[str, str]:
    """The addresses a reader may type for a page that lives at another (a code by its C name,
    an old name or a lower-case name; README, "The site"), within a
    language and without the trailing slash, in lower case -> the page's own: a code by any of
    its names (its C name, the C macro), an edition by an id that is now an alias of it, and
    every page by its own name in any case (codes/llm_timeout, editions/9.0.0-V2). The 404 page sends the
    reader on (a stub page per name would collide with the page itself on a file system that
    ignores case: llm_timeout beside LLM_TIMEOUT)."""
    own: dict[str, str] = {}
    other: dict[str, str] = {}
    for family in catalog.families:
        for code in family.codes:
            target = f"{family.prefix}codes/{code.name}"
            own[target.lower()] = target
            names = (*code.python_names, *code.c_names, *(family.c.macro_prefix + c for c in code.c_names))
            for name in filter(None, names):
                other.setdefault(f"{family.prefix}codes/{name}".lower(), target)
        for edition in family.editions:
            target = f"{family.prefix}editions/{edition.id}"
            own[target.lower()] = target
        for alias, _ in family.aliases:
            held = family.edition(alias)
            if held is not None:
                other.setdefault(f"{family.prefix}editions/{alias}".lower(), f"{family.prefix}editions/{held.id}")
    for path, target in redirect_pages(catalog).items():  # a value in another case (0x5010b01a) too
        if "#" not in target:  # (a release's line in a list is no page of its own)
            other.setdefault(path.lower(), target)
    for messages in catalog.message_families:
        for message in messages.codes:
            target = f"{messages.prefix}codes/{message.id}"
            own[target.lower()] = target
    table = {**other, **own}  # a page's own name wins over another page's alias
    return {key: table[key] for key in sorted(table)}


SAFE_NAME = re.compile(r"-?[A-Za-z0-9_][A-Za-z0-9_.+-]*")  # a folder name every file system and host keeps as it is


def value_forms(value: int) -> tuple[str, ...]:
    """The addresses a code's value is typed as: upstream's hex (0x7BCAD), the eight digits the
    site and the header show (0x0007BCAD), its decimal, and its hex without 0x where a letter
    tells it from a decimal (5010B01A, as the search reads it)."""
    if value < 0:
        return (str(value),)
    bare = f"{value:X}"
    return tuple(dict.fromkeys((f"0x{bare}", hex_value(value), str(value),
                                *((bare,) if any(c in "ABCDEF" for c in bare) else ()))))


def redirect_pages(catalog: Catalog) -> dict[str, str]:
    """The addresses a reader may type that the site's build writes as pages of their own, which
    send the reader on (any static host serves them), within a language and without the trailing
    slash -> the page's own address: a code by its C name, its C macro, an older name, its binding
    constant (kLLMTimeout) or any value it has had (0x5010B01A, 1343270938); an edition by an id
    that is now an alias; a release by its number (editions/9.0.0, to its line of the editions
    list). None where another page's address or an earlier one's differs only in case: a file
    system that ignores case holds one of them, and the 404 page sends the reader on from the rest (moved_pages)."""
    taken = {f"{f.prefix}codes/{c.name}".lower() for f in catalog.families for c in f.codes} | \
        {f"{f.prefix}editions/{e.id}".lower() for f in catalog.families for e in f.editions}
    found: dict[str, str] = {}

    def add(path: str, target: str) -> None:
        if path.lower() not in taken and SAFE_NAME.fullmatch(path.rsplit("/", 1)[1]):
            taken.add(path.lower())
            found[path] = target

    for family in catalog.families:
        for code in family.codes:
            target = f"{family.prefix}codes/{code.name}"
            names = (*code.c_names, *(family.c.macro_prefix + c for c in code.c_names), *code.python_names,
                     *((code.wrapper,) if code.wrapper else ()),
                     *(form for value in code.values for form in value_forms(value)))
            for name in names:
                add(f"{family.prefix}codes/{name}", target)
        for alias, _ in family.aliases:
            held = family.edition(alias)
            if held is not None:
                add(f"{family.prefix}editions/{alias}", f"{family.prefix}editions/{held.id}")
        for release in dict.fromkeys(e.release for e in family.editions):
            add(f"{family.prefix}editions/{release}", f"{family.prefix}editions/#{release_anchor(release)}")
    return dict(sorted(found.items()))


def release_anchor(release: str) -> str:
    """The anchor of a release's line in its family's list of editions."""
    return "release-" + re.sub(r"[^A-Za-z0-9_.-]", "-", release)
