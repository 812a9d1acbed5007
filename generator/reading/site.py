"""Reading the catalog-wide sections: `site` (languages, names, wording) and `repositories`."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Optional

from ruamel.yaml.nodes import Node

from generator.reading.fields import Fields
from generator.domain.model import Localized, Repository, SearchLanguage, Site
from generator.core.problems import CatalogError, Pos, Reporter
from generator.reading.yaml_source import read_document

LABELS_FILE = Path(__file__).resolve().parent.parent / "labels.yaml"
SCRIPTS = ("cjk", "latin")
REPO_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$")
URL = re.compile(r"^https?://[^\s<>\"'`]+$")
_SITE_FIELDS = ("languages", "language_names", "name", "description", "families", "labels")


@lru_cache(maxsize=1)
def _shipped() -> tuple[dict[str, dict[str, str]], dict[str, SearchLanguage]]:
    """What labels.yaml ships: the labels, {key: {lang: text}}, and how the search reads each
    language, {lang: SearchLanguage}."""
    rep = Reporter()
    doc, problems = read_document(str(LABELS_FILE), LABELS_FILE.read_bytes())
    rep.problems.extend(problems)
    rep.raise_if_any()
    reader = Fields(doc, rep)
    assert doc.root is not None
    top = reader.mapping(doc.root, "labels file", required=("labels",), optional=("search",)) or {}
    table: dict[str, dict[str, str]] = {}
    for key, (_, node) in (reader.mapping(top["labels"][1], "labels", free_keys=True) or {}).items():
        texts = reader.mapping(node, f"labels.{key}", free_keys=True) or {}
        table[key] = {lang: text for lang, (_, value) in texts.items()
                      if (text := reader.text(value, f"labels.{key}.{lang}")) is not None}
    search = _search_languages(reader, top["search"][1]) if "search" in top else {}
    if rep.problems:  # pragma: no cover - the shipped file is tested
        raise CatalogError(rep.problems)
    return table, search


def _search_languages(reader: Fields, node: Node) -> dict[str, SearchLanguage]:
    table: dict[str, SearchLanguage] = {}
    for lang, (_, entry) in (reader.mapping(node, "search", free_keys=True) or {}).items():
        fields = reader.mapping(entry, f"search.{lang}", required=("script",), optional=("synonyms",)) or {}
        script = reader.choice(fields["script"][1], f"search.{lang}.script", SCRIPTS) if "script" in fields else None
        groups: list[tuple[str, ...]] = []
        for group in (
            (reader.sequence(fields["synonyms"][1], f"search.{lang}.synonyms") or []) if "synonyms" in fields else []
        ):
            words = tuple(word.lower() for word, _ in reader.text_list(group, f"search.{lang}.synonyms") or ())
            if len(words) < 2:
                reader.error(group, f"search.{lang}.synonyms: a group holds at least two words or phrases")
            groups.append(words)
        table[lang] = SearchLanguage(lang, script or "latin", tuple(groups))
    return table


def default_labels() -> dict[str, dict[str, str]]:
    """The wording the generator ships: labels.yaml, {key: {lang: text}}."""
    return _shipped()[0]


def default_search() -> dict[str, SearchLanguage]:
    """How the search reads each language the generator ships (labels.yaml's `search`)."""
    return _shipped()[1]


def read_site(section, rep: Reporter) -> Optional[Site]:
    f: Fields = section.reader
    fields = f.mapping(section.value, "site", required=("languages", "language_names", "name"), optional=_SITE_FIELDS)
    if fields is None or "languages" not in fields:
        return None
    languages = read_languages(f, fields["languages"][1], "site.languages")
    if languages is None:
        return None
    texts = {k: f.localized(fields[k][1], f"site.{k}", languages) if k in fields else None
             for k in ("language_names", "name", "description")}
    families = (
        tuple(v for v, _ in f.text_list(fields["families"][1], "site.families") or ()) if "families" in fields else ()
    )
    labels = _labels(f, fields.get("labels"), languages)
    if texts["language_names"] is None or texts["name"] is None or labels is None:
        return None
    description = texts["description"] or texts["name"]
    shipped = default_search()
    search = tuple(shipped.get(lang) or SearchLanguage(lang, "latin", ()) for lang in languages)
    return Site(languages, texts["language_names"], texts["name"], description, families, labels, search)


def read_languages(f: Fields, node: Node, what: str) -> Optional[tuple[str, ...]]:
    items = f.text_list(node, what)
    if not items:
        if items is not None:
            f.error(node, f"{what} must name at least one language")
        return None
    seen: list[str] = []
    for lang, item in items:
        if not re.fullmatch(r"^[a-z]{2,3}$", lang):
            f.error(item, f"language {lang!r} must be a lower-case ISO 639 code such as zh or en")
        elif lang in seen:
            f.error(item, f"language {lang!r} is listed twice")
        else:
            seen.append(lang)
    return tuple(seen) if len(seen) == len(items) else None


def _labels(f: Fields, pair, languages) -> Optional[dict[str, Localized]]:
    defaults = default_labels()
    overrides: dict[str, tuple[Optional[Node], dict]] = {}
    if pair is not None:
        for key, (key_node, node) in (f.mapping(pair[1], "site.labels", free_keys=True) or {}).items():
            if key not in defaults:
                from generator.core.problems import closest

                f.error(key_node, f"site.labels: no label {key!r}{closest(key, defaults)}")
                continue
            texts = f.mapping(node, f"site.labels.{key}", optional=languages) or {}
            overrides[key] = (node, {lang: f.text(v, f"site.labels.{key} ({lang})") for lang, (_, v) in texts.items()})
    labels: dict[str, Localized] = {}
    complete = True
    for key, shipped in defaults.items():
        override, given = overrides.get(key) or (None, {})  # None when the catalog does not override it
        items = []
        for lang in languages:
            text = given.get(lang) or shipped.get(lang)
            if text is None:
                complete = False
                where = override if override is not None else (pair[1] if pair is not None else None)
                in_labels = ", ".join(_shipped_languages())
                message = f"site.labels.{key}: no {lang} text; the generator ships labels in {in_labels} only"
                if where is not None:
                    f.error(where, message)
                else:
                    f.rep.error(Pos(f.doc.path), message)
                continue
            items.append((lang, text))
        labels[key] = Localized(tuple(items))
    return labels if complete else None


def _shipped_languages() -> list[str]:
    return sorted({lang for texts in default_labels().values() for lang in texts})


def read_repositories(section, rep: Reporter) -> dict[str, Repository]:
    if section is None:
        return {}
    f: Fields = section.reader
    result = {}
    for name, (key, node) in (f.mapping(section.value, "repositories", free_keys=True) or {}).items():
        if not REPO_NAME.fullmatch(name):
            f.error(key, f"repositories: {name!r} must be OWNER/NAME, as the forge spells it")
            continue
        fields = f.mapping(node, f"repositories.{name}", required=("url", "default_branch"))
        if not fields or len(fields) < 2:
            continue
        url = f.text(fields["url"][1], f"repositories.{name}.url")
        branch = f.text(fields["default_branch"][1], f"repositories.{name}.default_branch")
        if url is not None and not URL.fullmatch(url):
            f.error(fields["url"][1], f"repositories.{name}.url must be an http(s) URL without spaces or quotes")
            url = None
        if url and branch:
            result[name] = Repository(name, url.rstrip("/"), branch, f.pos(key))
    return result
