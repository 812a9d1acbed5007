"""The catalog-wide sections as the model holds them: `site` (languages, names, wording, with
the labels the generator ships) and `repositories`."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, Optional

from pydantic import Field

from generator.core.problems import CatalogError, Reporter, closest
from generator.domain.model import Localized, Repository, SearchLanguage, Site
from generator.reading import format as fmt
from generator.reading.raw import to_raw, validate
from generator.reading.yaml_source import read_document

LABELS_FILE = Path(__file__).resolve().parent.parent / "labels.yaml"


class SearchReading(fmt.Record):
    """How the site's search reads a language."""

    script: Literal["cjk", "latin"]
    synonyms: list[fmt.Annotated[list[fmt.Text], Field(min_length=2)]] = []
    """Groups of words or phrases that mean the same (each of two or more)."""


class LabelsFile(fmt.Record):
    """generator/labels.yaml: the wording the generator ships, and how its search reads each language."""

    labels: dict[fmt.Text, dict[fmt.Lang, fmt.Text]]
    search: dict[fmt.Lang, SearchReading] = {}


@lru_cache(maxsize=1)
def _shipped() -> LabelsFile:
    doc, problems = read_document(str(LABELS_FILE), LABELS_FILE.read_bytes())
    raw = to_raw(doc, doc.root, problems) if doc.root is not None else None
    shipped, found = validate(LabelsFile, raw)
    if problems or shipped is None:  # pragma: no cover - the shipped file is tested
        raise CatalogError(problems + [problem for problem, _ in found])
    return shipped


def default_labels() -> dict[str, dict[str, str]]:
    """The wording the generator ships: labels.yaml, {key: {lang: text}}."""
    return {key: dict(texts) for key, texts in _shipped().labels.items()}


def default_search() -> dict[str, SearchLanguage]:
    """How the site's search reads each language the generator ships (labels.yaml's `search`)."""
    return {lang: SearchLanguage(lang, reading.script, tuple(tuple(w.lower() for w in group)
                                                             for group in reading.synonyms))
            for lang, reading in _shipped().search.items()}


def read_site(section: Any, rep: Reporter) -> Optional[Site]:
    record: fmt.Site = section.record
    languages = languages_of(record, "languages", "site.languages", rep)
    if languages is None:
        return None
    texts = {k: localized(record, k, f"site.{k}", languages, rep) for k in ("language_names", "name", "description")}
    labels = _labels(record, languages, rep)
    if texts["language_names"] is None or texts["name"] is None or labels is None \
            or (record.description is not None and texts["description"] is None):
        return None
    search = tuple(default_search().get(lang) or SearchLanguage(lang, "latin", ()) for lang in languages)
    return Site(languages, texts["language_names"], texts["name"], texts["description"] or texts["name"],
                tuple(record.families), labels, search)


def languages_of(record: Any, key: str, what: str, rep: Reporter) -> Optional[tuple[str, ...]]:
    """A list of languages, each once."""
    seen: list[str] = []
    for index, lang in enumerate(getattr(record, key)):
        if lang in seen:
            rep.error(record.at(key, index), f"language {lang!r} is listed twice in {what}")
        seen.append(lang)
    return tuple(seen) if len(set(seen)) == len(seen) else None


def localized(record: Any, key: str, what: str, languages: tuple[str, ...], rep: Reporter,
              translated: tuple[str, ...] = ()) -> Optional[Localized]:
    """A field of one text per language: exactly the given languages, in their order."""
    texts = getattr(record, key)
    if texts is None:
        return None
    texts = dict(texts) if isinstance(texts, dict) else dict(texts.__pydantic_extra__ or {})
    for lang in texts:
        if lang not in languages:
            rep.error(record.at(key, lang, of_key=True),
                      f"{what}: {lang!r} is not one of the languages ({', '.join(languages)})"
                      f"{closest(lang, languages)}")
    missing = [lang for lang in languages if lang not in texts]
    for lang in missing:
        rep.error(record.at(key), f"{what}: missing field {lang!r}")
    if missing or len(texts) != len(languages):
        return None
    return Localized(tuple((lang, texts[lang]) for lang in languages), translated)


def upstream_words(record: Any, key: str, what: str, languages: tuple[str, ...], rep: Reporter
                   ) -> Optional[Localized]:
    """Upstream's words in every language, with the languages this project translated."""
    words = getattr(record, key)
    if words is None:
        return None
    for index, lang in enumerate(words.translated):
        if lang not in languages:
            rep.error(words.at("translated", index),
                      f"{what}: translated: {lang!r} is not one of the languages {', '.join(languages)}")
    return localized(record, key, what, languages, rep, tuple(t for t in words.translated if t in languages))


def _labels(record: fmt.Site, languages: tuple[str, ...], rep: Reporter) -> Optional[dict[str, Localized]]:
    defaults = default_labels()
    for key in record.labels:
        if key not in defaults:
            rep.error(record.at("labels", key, of_key=True), f"site.labels: no label {key!r}{closest(key, defaults)}")
    labels: dict[str, Localized] = {}
    complete = True
    for key, shipped in defaults.items():
        given = record.labels.get(key, {})
        items = []
        for lang in languages:
            text = given.get(lang) or shipped.get(lang)
            if text is None:
                complete = False
                where = record.at("labels", key) if key in record.labels else record.at("labels")
                rep.error(where, f"site.labels.{key}: no {lang} text; the generator ships labels in "
                                 f"{', '.join(_shipped_languages())} only")
                continue
            items.append((lang, text))
        labels[key] = Localized(tuple(items))
    return labels if complete else None


def _shipped_languages() -> list[str]:
    return sorted({lang for texts in default_labels().values() for lang in texts})


def read_repositories(section: Any) -> dict[str, Repository]:
    if section is None:
        return {}
    return {name: Repository(name, repo.url.rstrip("/"), repo.default_branch, section.raw.pos(name, True))
            for name, repo in section.record.items()}
