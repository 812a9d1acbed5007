"""The site's shared files, made from every family: the home page, the MkDocs
config, the theme overrides, the hook, styles, scripts and the search indexes."""
from __future__ import annotations

from functools import partial

import json
import re

from generator.rendering.stamps import Digests
from generator.domain.family import Catalog, Family
from generator.rendering.output import Planned
from generator.rendering.environment import banner_lines, block_comment_banner, comment_banner, render_template
from generator.rendering.site.context import DOCS, Context, doc_path
from generator.rendering.site.pages import family_block
from generator.rendering.site.parts import TITLE_ID, heading, page


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


# -- config, overrides, hook, assets -----------------------------------------------------------


def plan_assets(catalog: Catalog, digests: Digests) -> list[Planned]:
    return [
        Planned("site/mkdocs.yml", lambda stamp: render_mkdocs_config(catalog, stamp)),
        Planned(
            "site/overrides/main.html",
            lambda stamp: render_template("site/overrides/main.html.j2", banner_jinja=_jinja_banner(stamp)),
        ),
        Planned("site/overrides/404.html", lambda stamp: render_404(catalog, stamp)),
        Planned(
            "site/hooks/site.py",
            lambda stamp: render_template(
                "site/hooks/site.py.j2",
                banner_py=comment_banner(stamp, "# "),
                languages=repr(list(catalog.site.languages)),
            ),
        ),
        Planned(
            f"{DOCS}/assets/extra.css",
            lambda stamp: block_comment_banner(stamp) + "\n" + render_template("site/assets/extra.css"),
        ),
        Planned(
            f"{DOCS}/assets/javascripts/extra.js",
            lambda stamp: render_template(
                "site/assets/extra.js.j2",
                banner_js=block_comment_banner(stamp),
                copy_labels=_js_labels(catalog),
                default_lang=json.dumps(catalog.site.languages[0]),
            ),
        ),
        Planned(
            f"{DOCS}/assets/javascripts/search-worker.js",
            lambda stamp: render_template("site/assets/search-worker.js.j2", banner_js=block_comment_banner(stamp)),
        ),
    ]


def plan_search(catalog: Catalog, digests: Digests) -> list[Planned]:
    return [Planned(f"{DOCS}/assets/search/index-{lang}.json", partial(render_search_index, catalog, lang),
                    lang=lang)
            for lang in catalog.site.languages]


def _jinja_banner(stamp: str) -> str:
    return "{#- " + " ".join(banner_lines(stamp)).replace("#}", "# }").replace("{#", "{ #") + " -#}"


def _js_labels(catalog: Catalog) -> str:
    site = catalog.site
    return json.dumps({lang: [site.label("copy", lang), site.label("copied", lang)] for lang in site.languages},
                      ensure_ascii=True)


def render_mkdocs_config(catalog: Catalog, stamp: str) -> str:
    site = catalog.site
    default = site.languages[0]
    sections = ("all_codes", "editions", "differences_title", "home", "overview")

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
        languages.append({"code": lang, "name": site.language_names[lang], "site_name": site.name[lang],
                          "site_description": site.description[lang],
                          "nav_translations": list(dict(translations).items()), "palette": palette(lang)})
    families = [{"title": title(f, default), "prefix": f.prefix, "index": f"{f.prefix}index.md" if f.prefix else None,
                 "overview_title": site.label("overview", default),
                 "codes_title": site.label("all_codes", default), "editions_title": site.label("editions", default),
                 "differences_title": site.label("differences_title", default)} for f in catalog.families]
    return render_template(
        "site/mkdocs.yml.j2", banner_yaml=comment_banner(stamp, "# "), site_name=site.name[default],
        site_description=site.description[default], default=default, languages=languages, families=families,
        home=site.label("home", default), palette=palette(default))


def render_404(catalog: Catalog, stamp: str) -> str:
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
            ],
        }
        for index, lang in enumerate(site.languages)
    ]
    return render_template("site/overrides/404.html.j2", banner_jinja=_jinja_banner(stamp), languages=languages,
                           paths=[{"lang": lang["code"], "path": lang["path"]} for lang in languages],
                           moved=moved_pages(catalog))


def moved_pages(catalog: Catalog) -> dict[str, str]:
    """The addresses a reader may type for a page that lives at another (CONTRACT §6), within a
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
            names = (code.python_name, code.c_name, family.c.macro_prefix + code.c_name if code.c_name else None)
            for name in filter(None, names):
                other.setdefault(f"{family.prefix}codes/{name}".lower(), target)
        for edition in family.editions:
            target = f"{family.prefix}editions/{edition.id}"
            own[target.lower()] = target
        for alias, _ in family.aliases:
            held = family.edition(alias)
            if held is not None:
                other.setdefault(f"{family.prefix}editions/{alias}".lower(), f"{family.prefix}editions/{held.id}")
    table = {**other, **own}  # a page's own name wins over another page's alias
    return {key: table[key] for key in sorted(table)}


# -- search ---------------------------------------------------------------------------------------

SEARCH_LABELS = ("in_language", "nothing_found", "searched", "every_family", "nearest", "none_near", "family_has")


def render_search_index(catalog: Catalog, lang: str, stamp: str) -> str:
    """One language's search index: how the worker reads the language (its script, its
    synonyms, its wording, the site's languages and families), then a document per page,
    with the fields the worker weighs. One line of compact JSON: exactly json.dumps of the whole."""
    def dump(value) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    site = catalog.site
    prefix = _lang_prefix(catalog, lang)
    reading = site.search_language(lang)
    head = {
        "lang": lang, "script": reading.script, "synonyms": [list(group) for group in reading.synonyms],
        "labels": {key: site.label(f"search_{key}", lang) for key in SEARCH_LABELS},
        "languages": [{"lang": other, "path": _lang_prefix(catalog, other), "name": site.language_names[other],
                       "script": site.search_language(other).script} for other in site.languages],
        "families": [{"name": f.name[lang], "words": _family_words(f), "codes": prefix + f"{f.prefix}codes/"}
                     for f in catalog.families],
    }
    docs: list[str] = []
    for family in catalog.families:
        name = family.name[lang]
        docs += [dump(_code_doc(family, code, lang, prefix + f"{family.prefix}codes/{code.name}/", name))
                 for code in family.codes]
        for edition in family.editions:
            docs.append(
                dump(
                    {
                        "l": prefix + f"{family.prefix}editions/{edition.id}/",
                        "t": edition.id,
                        "k": "edition",
                        "f": name,
                        "x": f"{edition.page.title[lang]} · {edition.page.name[lang]} · {edition.timeline.name[lang]} "
                             f"· {edition.release}",
                    }
                )
            )
        for location, key in ((f"{family.prefix}codes/", "all_codes"), (f"{family.prefix}editions/", "editions"),
                              (f"{family.prefix}differences/", "differences_title")):
            docs.append(dump({"l": prefix + location, "t": site.label(key, lang), "k": "page", "f": name,
                              "x": family.description[lang]}))
    fields = "".join(f"{dump(key)}:{dump(value)}," for key, value in head.items())
    return '{"$comment":' + dump(" ".join(banner_lines(stamp))) + "," + fields + '"docs":[' + ",".join(docs) + "]}\n"


def _lang_prefix(catalog: Catalog, lang: str) -> str:
    return "" if lang == catalog.site.languages[0] else f"{lang}/"


def _family_words(family: Family) -> list[str]:
    """The words that name a family in a query (HIXL 内存不足): its id, path and names, in lower case."""
    words = [family.id, family.site_path, *(name for _, name in family.name.items)]
    return sorted({w.lower() for w in words if w and re.fullmatch(r"[\w.-]+", w)})


def _code_doc(family: Family, code, lang: str, location: str, family_name: str) -> dict:
    names = dict.fromkeys(
        filter(
            None,
            (
                code.python_name,
                code.c_name,
                family.c.macro_prefix + code.c_name if code.c_name else None,
                *(n.name.removeprefix("::") for n in code.cpp),
                code.wrapper,
            ),
        )
    )
    values = [str(code.value)]
    if code.value >= 0:
        values.append("x" + format(code.value, "x"))
    texts: dict[str, list[str]] = {"m": [], "s": []}
    for edition in family.editions_listing(code):
        for field_name in edition.page.text_fields:
            text = code.text(field_name, edition.id, lang)
            bucket = "m" if field_name == "meaning" else "s"
            if text and text not in texts[bucket]:
                texts[bucket].append(text)
    doc = {"l": location, "t": code.name, "k": "code", "f": family_name, "n": " ".join(names), "v": values,
           "m": " \n".join(texts["m"]), "s": " \n".join(texts["s"])}
    if code.log_message:
        doc["g"] = code.log_message
    if code.notes:
        doc["o"] = code.notes[lang]
    return doc
