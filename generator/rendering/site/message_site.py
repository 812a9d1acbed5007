"""A family of messages on the site (GE's error codes, under /ge/): its overview, the list of its codes
with each code's message, and a page per code that answers first (the message, what its placeholders
stand for, the solution, in the reader's language), with the examples and the registry's history
below. Every text is upstream's own in both languages; Python passes data, the templates write HTML."""
from __future__ import annotations

from functools import partial
from typing import NamedTuple, Optional
from urllib.parse import quote

from generator.domain.family import Catalog
from generator.domain.markup import markdown_plain as plain
from generator.domain.messages import MessageCode, MessageFamily
from generator.domain.model import Site
from generator.rendering.message_pages import page_path
from generator.rendering.output import Planned
from generator.rendering.runtime.message_match import match_template, template_pieces
from generator.rendering.site.context import Labels, banner, doc_path, filled
from generator.rendering.site.markup import render_page


class Placeholder(NamedTuple):
    number: int
    name: str  # the registry's name
    meaning: str  # what the page says it stands for (plain text), or ""


class Said(NamedTuple):
    releases: str  # "9.0.0-beta.1 – 9.0.1"
    text: str


class MessageView(NamedTuple):
    id: str
    category: str
    location: str
    template: Optional[str]
    indexed: bool  # the pages' index lists it (no page and no index line: only the registry has it)
    placeholders: list[Placeholder]
    meanings_sentence: Optional[str]  # where the meanings are not one per placeholder: the page's list
    cause: Optional[str]
    cause_from: Optional[str]  # the language whose page has the cause, where this language's has none
    solution: Optional[str]
    note: Optional[str]
    examples: list[tuple[str, bool]]  # (example, whether it fits one of the code's messages)
    messages: list[Said]  # the registry's message over the releases
    solutions: list[Said]  # the registry's (English) solution over the releases
    solution_na: bool  # a release registers "N/A" for a solution: the page says what that means
    added: Optional[str]
    known: list[str]  # what upstream's own files disagree on, in words
    page_urls: list[tuple[str, str]]  # (language name, upstream's page at its commit)


def plan_message_site(catalog: Catalog, family: MessageFamily) -> list[Planned]:
    planned = []
    for lang in catalog.site.languages:
        planned.append(Planned(doc_path(family.prefix, lang, index=True),
                               partial(render_message_family, catalog, family, lang), lang=lang))
        planned.append(Planned(doc_path(f"{family.prefix}codes/", lang, index=True),
                               partial(render_message_list, catalog, family, lang), lang=lang))
        planned += [Planned(doc_path(f"{family.prefix}codes/{code.id}/", lang),
                            partial(render_message_code, catalog, family, code, lang), item=code.id, lang=lang)
                    for code in family.codes]
    return planned


def _lang(family: MessageFamily, lang: str) -> str:
    """The language a family's texts are shown in on a page of `lang`: its own, else its first."""
    return lang if lang in family.languages else family.languages[0]


def family_labels(catalog: Catalog, family: MessageFamily, lang: str) -> Labels:
    """The site's labels in `lang`, their {family} the family's name."""
    return Labels(catalog.site.labels_for(lang, family.name.get(lang) or family.name.first()))


def _url(location: str, target: str) -> str:
    return "../" * location.count("/") + target


def render_message_family(catalog: Catalog, family: MessageFamily, lang: str) -> str:
    labels = family_labels(catalog, family, lang)
    location = family.prefix
    repo = catalog.repositories.get(family.pages.repo)
    names = catalog.site.language_names
    pages = [(names[other], f"{repo.url}/tree/{family.pages.commit}/{quote(family.pages.folder(other))}")
             for other in family.languages if repo and family.pages.commit]
    return render_page("message_family.md.j2", title=family.name[_lang(family, lang)], banner=banner(),
                       hide_toc=False, labels=labels, description=_sentence(family.description[_lang(family, lang)]),
                       codes=_url(location, f"{family.prefix}codes/"), count=len(family.codes),
                       lookup=lookup_words(labels, family), pages=pages,
                       pages_intro=filled(labels["message_pages_source"], branch=family.pages.branch),
                       registry=family.registry is not None,
                       registry_intro=filled(labels["message_registry_source"], path=family.registry.path
                                           if family.registry else "", releases=", ".join(family.releases)))


def lookup_words(labels: Labels, family: MessageFamily) -> str:
    """How a reader looks one of the family's codes up: by its id (the first code's, for an
    example), or a message from a log, whole or in part; "" for a family without codes."""
    return filled(labels["lookup_messages"], example=family.codes[0].id) if family.codes else ""


def capitalized(text: str) -> str:
    """A description (written to follow a family's name) as the start of a paragraph: its first letter a capital."""
    return text[:1].upper() + text[1:]


def _sentence(text: str) -> str:
    """A description as a sentence: its first letter a capital, its end a full stop (。 after Chinese)."""
    text = capitalized(text)
    return text + ("。" if text[-1:] >= "\u3000" else ".")


def render_message_list(catalog: Catalog, family: MessageFamily, lang: str) -> str:
    labels = family_labels(catalog, family, lang)
    location = f"{family.prefix}codes/"
    rows = [(code.id, f"{code.id}/", code.category, code.template or "") for code in family.codes]
    return render_page("message_codes.md.j2", title=labels["message_list_title"], banner=banner(), hide_toc=True,
                       labels=labels, rows=rows, family=family.name[_lang(family, lang)],
                       overview=_url(location, family.prefix))


def render_message_code(catalog: Catalog, family: MessageFamily, code: MessageCode, lang: str) -> str:
    labels = family_labels(catalog, family, lang)
    view = message_view(catalog, family, code, _lang(family, lang))
    return render_page("message_code.md.j2", title=f"{code.id} {code.category}", banner=banner(), hide_toc=False,
                       labels=labels, code=view, family=family.name[_lang(family, lang)],
                       codes=_url(view.location, f"{family.prefix}codes/"),
                       source=filled(labels["message_page_from"], branch=family.pages.branch) if code.page else "")


def message_view(catalog: Catalog, family: MessageFamily, code: MessageCode, lang: str) -> MessageView:
    meanings = [plain(m) for m in code.meanings_in(lang)]
    placeholders = [Placeholder(n, name, meaning)
                    for n, (name, meaning) in enumerate(code.placeholder_meanings(lang), 1)]
    # where the page's meanings do not fit the placeholders, its list as it is
    sentence = None if not meanings or code.meanings_fit(lang) else \
        family.pages.framing_of(lang).separator.join(meanings)
    repo = catalog.repositories.get(family.pages.repo)
    language_names = catalog.site.language_names
    urls = [(language_names[other], repo.file_url(family.pages.commit, quote(page_path(family, other, code))))
            for other in family.languages if repo and family.pages.commit and code.page]
    note = code.note.get(lang) if code.note else None
    cause, cause_from = code.cause_in(lang), None
    if cause is None:  # upstream's page in this language has no such section, another's has (W11001)
        other = next((o for o in family.languages if code.cause_in(o)), None)
        if other is not None:
            cause, cause_from = code.cause_in(other), catalog.site.language_names[other]
    solutions = _said(family, code, "Solution")
    return MessageView(
        id=code.id, category=code.category, location=f"{family.prefix}codes/{code.id}/", template=code.template,
        indexed=code.indexed, placeholders=placeholders, meanings_sentence=sentence,
        cause=plain(cause) if cause else None, cause_from=cause_from,
        solution=plain(s) if (s := code.solution_in(lang)) else None, note=plain(note) if note else None,
        examples=[(example, _fits(example, code.messages(family))) for example in code.examples],
        messages=_said(family, code, "ErrMessage"),
        solutions=solutions, solution_na=any(said.text == "N/A" for said in solutions),
        added=family.first_release(code),
        known=known_words(catalog.site, family, code, lang), page_urls=urls)


def known_words(site: Site, family: MessageFamily, code: MessageCode, lang: str) -> list[str]:
    """What upstream's own files disagree on, as the catalog records it (`known`), in words; for the
    meanings, whose pages (E10005's zh page lists two for two, its English three)."""
    words = []
    for kind in code.known:
        pages = code.meanings_disagree(family.languages) if kind == "meanings" else ()
        if pages:
            names = site.label("list_separator", lang).join(site.language_names[p] for p in pages)
            words.append(site.label("known_meanings_of", lang).replace("{pages}", names))
        else:
            words.append(site.label(f"known_{kind}", lang))
    return words


def _fits(example: str, messages: tuple[str, ...]) -> bool:
    """Whether an example of upstream's page is one of the code's messages with its placeholders filled
    (E13014's read "Value format for Op add is invalid", one %s short of its template)."""
    return any(match_template(template_pieces(message), example) is not None for message in messages)


def _said(family: MessageFamily, code: MessageCode, key: str) -> list[Said]:
    return [Said(r[0] if len(r) == 1 else f"{r[0]} – {r[-1]}", text) for r, text in family.over_releases(code, key)]


def message_search_docs(family: MessageFamily, lang: str, prefix: str) -> list[dict]:
    """The search documents of the family's codes: names (the id), the category, the messages as templates
    (a pasted message or example matches them), the meanings, cause and solution."""
    shown = _lang(family, lang)
    docs = []
    for code in family.codes:
        texts = [plain(t) for t in (*code.meanings_in(shown), code.cause_in(shown) or "") if t]
        doc = {"l": prefix + f"{family.prefix}codes/{code.id}/", "t": code.id, "k": "code",
               # its category names it too (E19999 Inner_Error, upstream's title): Inner_Error finds the codes of it
               "f": family.name[shown], "n": f"{code.id} {code.category}", "v": [],
               # the message first: a result shows it, so that E10001 and E10003 read apart
               "m": " \n".join([code.template or code.category.replace("_", " "), " ".join(texts)]).strip(),
               "s": plain(code.solution_in(shown) or ""), "p": list(code.messages(family))}
        docs.append(doc)
    docs.append({"l": prefix + f"{family.prefix}codes/", "t": family.name[shown], "k": "page",
                 "f": family.name[shown], "x": family.description[shown]})
    return docs


