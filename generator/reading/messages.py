"""A family of messages as the model holds it, and the checks its format cannot make: ids that
match the family's key, one code per id and per file name, the releases the registry was read at
in order, overrides that say something the rule does not, a language for every solution."""
from __future__ import annotations

import re
from typing import Optional

from generator.core.problems import Reporter
from generator.core.releases import release_key
from generator.domain.messages import (
    WORDINGS, Framing, MessageCode, MessageFamily, PagesSource, Registry, Said, default_wording,
)
from generator.domain.model import Localized
from generator.reading import format as fmt


def read_message_family(sections, files: list[str], repositories, rep: Reporter) -> Optional[MessageFamily]:
    record: fmt.MessageFamily = sections["message_family"].record
    languages = tuple(record.languages)
    before = len(rep.problems)
    for field_name in ("name", "description"):
        _every_language(getattr(record, field_name), languages, record, field_name, rep)
    for repo, where in ((record.pages.repo, record.pages.at("repo")),
                        (record.registry.repo if record.registry else None,
                         record.registry.at("repo") if record.registry else None)):
        if repo is not None and where is not None and repositories is not None and repo not in repositories:
            rep.error(where, f"repository {repo!r} is not declared under `repositories` in the catalog's site files")
    for lang in languages:
        if lang not in record.pages.folders:
            rep.error(record.pages.at("folders"), f"no folder for the {lang} pages; add `{lang}: PATH`")
        if lang not in record.pages.framing:
            rep.error(record.pages.at("framing"), f"no framing for the {lang} pages; add `{lang}:` with its headings")
    try:
        key = re.compile(record.key)
    except re.error as exc:
        rep.error(record.at("key"), f"the key is no regular expression: {exc}")
        key = re.compile(".*")
    releases = list(record.registry.releases) if record.registry else []
    if releases != sorted(releases, key=release_key):  # type: ignore[arg-type]
        rep.error(record.registry.at("releases"), "list the registry's releases oldest first: "  # type: ignore[union-attr]
                  + ", ".join(sorted(releases, key=release_key)))  # type: ignore[arg-type]
    codes = tuple(_codes(sections["messages"].record, key, languages, set(releases), rep))
    if len(rep.problems) > before:
        return None
    return MessageFamily(
        id=record.id, name=_localized(record.name, languages), description=_localized(record.description, languages),
        languages=languages, site_path=record.site_path, key=record.key, module=record.module,
        pages=_pages(record.pages), registry=_registry(record.registry), codes=codes, files=tuple(files),
        pos=record.at(),
    )


def _every_language(value: dict, languages: tuple[str, ...], record, key: str, rep: Reporter) -> None:
    for lang in languages:
        if lang not in value:
            rep.error(record.at(key), f"{key} has no {lang} text; add `{lang}: ...`")


def _localized(value: dict[str, str], languages: tuple[str, ...]) -> Localized:
    return Localized(tuple((lang, value[lang]) for lang in languages if lang in value))


def _pages(pages: fmt.MessagePages) -> PagesSource:
    framing = tuple(
        (lang, Framing(f.symptom, f.cause, f.solution, f.example, f.example_numbered, f.separator,
                       tuple((w, f.intro[w]) for w in WORDINGS if w in f.intro)))  # type: ignore[index]
        for lang, f in pages.framing.items()
    )
    return PagesSource(pages.repo, pages.branch, pages.commit, tuple(pages.folders.items()), pages.file, pages.index,
                       pages.index_title, framing)


def _registry(registry: Optional[fmt.MessageRegistry]) -> Optional[Registry]:
    if registry is None:
        return None
    return Registry(registry.repo, registry.path, registry.error_class, tuple(registry.releases.items()))


def _codes(records: list[fmt.Message], key: re.Pattern, languages: tuple[str, ...], releases: set[str],
           rep: Reporter):
    seen: dict[str, fmt.Message] = {}
    for item in records:
        if item.id in seen:
            rep.error(item.at("id"), f"{item.id} is already a code at {seen[item.id].at('id')}; keep one")
            continue
        seen[item.id] = item
        if not key.fullmatch(item.id):
            rep.error(item.at("id"), f"{item.id!r} does not match the family's key {key.pattern!r}")
        _check_code(item, languages, releases, rep)
        yield MessageCode(
            id=item.id, category=item.category, page=item.page, indexed=item.indexed, template=item.template,
            meanings=tuple((lang, tuple(item.meanings[lang])) for lang in languages if lang in item.meanings),
            wording=tuple(item.wording.items()), examples=tuple(item.examples), numbered=tuple(item.numbered.items()),
            note=_localized(item.note, languages) if item.note else None,
            cause=tuple((lang, item.cause[lang]) for lang in languages if lang in item.cause),
            solution=tuple((lang, item.solution[lang]) for lang in languages if lang in item.solution),
            args=item.registry.args if item.registry else None,
            registry_args=_said(item.registry.args_history if item.registry else []),
            registry_message=_said(item.registry.message if item.registry else []),
            registry_cause=_said(item.registry.cause if item.registry else []),
            registry_solution=_said(item.registry.solution if item.registry else []),
            added=item.added, known=tuple(item.known), pos=item.at(),
        )


def _said(items: list[fmt.RegistryText]) -> tuple[Said, ...]:
    return tuple(Said(item.from_, item.text) for item in items)


def _check_code(item: fmt.Message, languages: tuple[str, ...], releases: set[str], rep: Reporter) -> None:
    where = item.id
    if item.page:
        if item.template is None:
            rep.error(item.at(), f"{where} has a page but no `template`; add the message as its page shows it, or "
                                 "`page: false` for a code the index lists without a page")
        for lang in languages:
            if lang not in item.solution:
                rep.error(item.at("solution") if item.given("solution") else item.at(),
                          f"{where} has no {lang} solution; add `{lang}: ...` under `solution`")
    placeholders = item.template.count("%s") if item.template else 0
    if item.meanings and not placeholders:
        rep.error(item.at("meanings"), f"{where}'s message has no placeholder, so its page has no meanings to "
                                       "list; remove `meanings`")
    if item.note is not None and item.examples:
        rep.error(item.at("note"), f"{where} has examples: a note stands in their place; keep one")
    for lang, wording in item.wording.items():
        if wording == default_wording(len(item.meanings.get(lang, [])), placeholders):
            rep.error(item.at("wording", lang), f"{where}'s {lang} wording is {wording!r} by the rule already; "
                                                "remove it")
    for lang, numbered in item.numbered.items():
        if numbered == (len(item.examples) > 1):
            rep.error(item.at("numbered", lang), f"{where}'s {lang} labels are {'' if numbered else 'not '}numbered "
                                                 "by the rule already; remove it")
    _check_releases(item, releases, rep)


def _check_releases(item: fmt.Message, releases: set[str], rep: Reporter) -> None:
    named = [(item.at("added"), item.added)] if item.added else []
    if item.registry is not None:
        for key in ("message", "cause", "solution", "args_history"):
            history = getattr(item.registry, key)
            named += [(said.at("from"), said.from_) for said in history]
            order = [said.from_ for said in history]
            if order != sorted(order, key=release_key):  # type: ignore[arg-type]
                rep.error(item.registry.at(key), f"{item.id}'s registry {key}: list its items oldest release first")
    elif item.added:
        rep.error(item.at("added"), f"{item.id} is in no registry (no `registry:`), so no release added it; "
                                    "remove `added`")
    for where, release in named:
        if releases and release not in releases:
            rep.error(where, f"{release} is not one of the releases the registry was read at "
                             f"({', '.join(sorted(releases, key=release_key))})")  # type: ignore[arg-type]
