"""The site's search indexes, one per language: how the search worker reads the language,
then a document per code, edition and list page, with the fields the worker weighs."""
from __future__ import annotations

import json
import re
from functools import partial

from generator.domain.family import Catalog, Family
from generator.rendering.environment import banner_lines
from generator.rendering.output import Planned
from generator.rendering.site.context import DOCS
from generator.rendering.site.message_site import message_search_docs


def plan_search(catalog: Catalog) -> list[Planned]:
    return [Planned(f"{DOCS}/assets/search/index-{lang}.json", partial(render_search_index, catalog, lang),
                    lang=lang)
            for lang in catalog.site.languages]


# The longest query the search worker reads: it cuts a longer one and the page says so, so that
# no pasted text or ?q= address costs the reader's browser more than a query of this length.
MAX_QUERY = 500
_LIST_MARK = re.compile(r"^[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+", re.M)  # a bullet's or a numbered step's mark

# The globals of the site's offline copy (generator/shipping/offline.py), where a page opened from
# disk runs the search itself (assets/javascripts/offline.js): the worker's script sets the first
# to what the page needs of it, and each index's script (assets/search/index-LANG.js) sets
# {OFFLINE_INDEX}[LANG] to the index.
OFFLINE_SEARCH = "llmStatusCodesSearch"
OFFLINE_INDEX = "llmStatusCodesIndex"

SEARCH_LABELS = ("in_language", "nothing_found", "searched", "every_family", "nearest", "none_near", "family_has")


def render_search_index(catalog: Catalog, lang: str) -> str:
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
                     for f in catalog.families]
        + [{"name": f.name.get(lang) or f.name.first(), "words": sorted({f.id, f.site_path}),
            "codes": prefix + f"{f.prefix}codes/"} for f in catalog.message_families],
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
    for messages in catalog.message_families:
        docs += [dump(doc) for doc in message_search_docs(messages, lang, prefix)]
    fields = "".join(f"{dump(key)}:{dump(value)}," for key, value in head.items())
    return '{"$comment":' + dump(" ".join(banner_lines())) + "," + fields + '"docs":[' + ",".join(docs) + "]}\n"


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
                *code.python_names,
                *code.c_names,
                *(family.c.macro_prefix + name for name in code.c_names),
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
            text = _LIST_MARK.sub("", text) if text else text  # a snippet shows the words, not a list's marks
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
