"""The committed site, built with `mkdocs build --strict` as `make docs` does: its links,
pages, sitemaps, heading ids and differences, checked in the HTML against the catalog.

Built twice, once without SITE_URL (what `make docs` gives on any machine) and once
published under a sub-path (SITE_URL=https://example.org/llm/: the build the browser tests serve).
"""
from __future__ import annotations

import gzip
import html
import json
import re
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

from generator.rendering.site import compare
from tests.support.helpers import ROOT
from tests.support.browser import SUB_PATH
from tests.support.site_build import SHARED_SITE_URL, build_site, shared_site
from tests.support.word_diffs import WordDiffs
from tests.test_search import MAX_CODE_PAGE

SITE_URL = SHARED_SITE_URL
DOCS = ROOT / "site" / "docs"
SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    """The site built without SITE_URL."""
    dest = tmp_path_factory.mktemp("plain") / "build"
    result = build_site(ROOT / "site", dest)
    return dest, result.stdout + result.stderr


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    """The site built for https://example.org/llm-status/."""
    dest = shared_site(tmp_path_factory) / SUB_PATH.strip("/")
    return dest


class Links(HTMLParser):
    """Every link, source and id of a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, str, str]] = []  # (tag, attribute, value)
        self.ids: set[str] = set()
        self.headings: list[str] = []  # ids of h1..h6, in order

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if re.fullmatch(r"h[1-6]", tag):
            self.headings.append(attrs.get("id") or "")
        for name in ("href", "src"):
            if attrs.get(name) is not None:
                self.links.append((tag, name, attrs[name]))


@lru_cache(maxsize=None)
def parse(path: Path) -> Links:
    parser = Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def is_redirect(page: Path) -> bool:
    """A page the build wrote to send a typed address on (site/hooks/site.py's redirect_page)."""
    return 'http-equiv="refresh"' in page.read_text(encoding="utf-8")


def pages(build: Path) -> list[Path]:
    """The site's pages (not its 404 pages, not the redirect pages at typed addresses)."""
    return sorted(p for p in build.rglob("*.html") if p.name != "404.html" and not is_redirect(p))


def test_every_redirect_page_leads_to_a_page_of_the_site(published):
    build = published
    redirects = [p for p in build.rglob("index.html") if is_redirect(p)]
    assert len(redirects) > 100
    for page in redirects:
        href = re.search(r'<link rel="canonical" href="([^"]+)"', page.read_text(encoding="utf-8")).group(1)
        target, fragment = target_of(build, page, href)
        assert target.is_file() and not is_redirect(target), (page, href)
        if fragment:
            assert f'id="{fragment}"' in target.read_text(encoding="utf-8"), (page, href)


def target_of(build: Path, page: Path, href: str) -> tuple[Path, str]:
    """The file and fragment a relative link of `page` leads to."""
    base = "http://site/" + page.relative_to(build).as_posix()
    url = urlsplit(urljoin(base, href))
    path = build / unquote(url.path).lstrip("/")
    if url.path.endswith("/") or path.is_dir():
        path = path / "index.html"
    return path, url.fragment


def external(href: str) -> bool:
    return href.startswith(("http://", "https://", "mailto:"))


# -- the build ------------------------------------------------------------------------------------


@pytest.mark.slow
def test_strict_build_warns_of_nothing(plain):
    _, log = plain
    assert "WARNING" not in log, log


@pytest.mark.slow
def test_every_internal_link_and_anchor_resolves(plain):
    build, _ = plain
    broken = []
    for page in pages(build):
        for tag, attribute, href in parse(page).links:
            if external(href) or href.startswith(("data:", "#__")) or href in ("#", ""):
                continue
            path, fragment = target_of(build, page, href)
            if not path.exists():
                broken.append((page.relative_to(build).as_posix(), href))
            elif fragment and path.suffix == ".html" and fragment not in parse(path).ids:
                broken.append((page.relative_to(build).as_posix(), href))
    assert not broken, broken[:20]


@pytest.mark.slow
def test_no_link_is_absolute_so_any_sub_path_works(plain, published):
    for build in (plain[0], published):
        absolute = [(page.relative_to(build).as_posix(), tag, value) for page in pages(build)
                    for tag, attribute, value in parse(page).links
                    if value.startswith("/") or (external(value) and urlsplit(value).netloc == "example.org"
                                                 and tag != "link")]
        assert not absolute, absolute[:20]
    canonical = (published / "en" / "codes" / "LLM_TIMEOUT" / "index.html").read_text(encoding="utf-8")
    assert f'<link rel="canonical" href="{SITE_URL}en/codes/LLM_TIMEOUT/">' in canonical


@pytest.mark.slow
def test_every_page_of_the_catalog_exists(catalog, plain):
    build, _ = plain
    for lang in catalog.site.languages:
        root = build if lang == catalog.site.languages[0] else build / lang
        for family in catalog.families:
            for edition in family.editions:
                page = root / family.prefix / "editions" / edition.id / "index.html"
                text = page.read_text(encoding="utf-8")
                ids = re.findall(r'<tr id="([^"]+)" role="row">', text)
                assert ids == [family.code_by_name[row.code].slug for row in edition.rows], page
                cells = re.findall(r'<tr id="[^"]+" role="row">(.*?)</tr>', text)
                assert all(row.count("<td ") == len(edition.page.columns) for row in cells), page
                # the name a row shows is an anchor too (#llm_wait_proc_timeout on a C++ page), a number not;
                # on a page of numbers, the C name a row gives
                shown = [re.sub(r"<[^>]+>", "", re.search(r'<code class="copyable">(.*?)</code>', row)[1])
                         for row in cells]
                given = r'<span class="code-other-name">[^<]+<code class="copyable">(.*?)</code>'
                shown += [re.sub(r"<[^>]+>", "", name) for row in cells for name in re.findall(given, row)
                          if edition.page.first_column == "decimal"]
                anchors = set(re.findall(r' id="([^"]+)"', text))
                assert all(name.lower() in anchors for name in shown if not name.lstrip("-").isdigit()), page
            for code in family.codes:
                assert (root / family.prefix / "codes" / code.name / "index.html").exists()
            for listing in ("codes", "editions", "differences"):
                assert (root / family.prefix / listing / "index.html").exists()


# bytes of HTML: the heaviest code page's bound (tests/test_search.py), for every differences page
MAX_PAGE = MAX_CODE_PAGE


@pytest.mark.slow
def test_the_differences_are_pages_as_light_as_a_code_page(catalog, plain):
    """The index, a comparison page per page of two editions or more, and a page per timeline,
    each within a code page's bound; the index links every one of them."""
    build, _ = plain
    for lang in catalog.site.languages:
        for family in catalog.families:
            pages = differences_pages(build, catalog, family, lang)
            expected = 1 + sum(len(family.page_editions(p)) > 1 for p in family.pages) + sum(
                1 for t in family.timelines if family.timeline_editions(t))
            assert len(pages) == expected, (lang, family.id, pages)
            heavy = {str(p.relative_to(build)): p.stat().st_size for p in pages if p.stat().st_size > MAX_PAGE}
            assert not heavy, heavy
            index = next(p for p in pages if p.parent.name == "differences")
            linked = {urljoin(f"http://h/{index.relative_to(build).parent}/", href)
                      for href in re.findall(r'href="([^"#?]*)"', index.read_text(encoding="utf-8"))}
            missing = [p for p in pages if p != index and f"http://h/{p.relative_to(build).parent}/" not in linked]
            assert not missing, missing


def test_two_copies_of_one_release_say_which_is_which(catalog):
    """An edition page of a release whose repository file differs from its published page says
    which of the two it is and links the other (their page, copy and release are the same)."""
    copies = [(f, e) for f in catalog.families for e in f.editions if e.repo_copy]
    assert copies
    for family, copy in copies:
        published = family.edition_by_id[copy.id[: -len("-repo")]]
        for lang in catalog.site.languages:
            said = {}
            for edition, other, key in ((copy, published, "repository_file"), (published, copy, "published_page")):
                text = (DOCS / family.prefix / "editions" / f"{edition.id}.{lang}.md").read_text(encoding="utf-8")
                facts = re.search(r'<dl class="edition-facts">(.*?)</dl>', text).group(1)
                words = html.escape(catalog.site.label(key, lang).split("{other}")[0], quote=True)
                assert words in facts and f"editions/{other.id}/" in facts, (edition.id, lang)
                said[edition.id] = facts
            assert said[copy.id] != said[published.id]



# -- sitemaps and the 404 pages -----------------------------------------------------------------------


def sitemap_entries(path: Path) -> dict[str, dict[str, str]]:
    import xml.etree.ElementTree as ET

    tree = ET.parse(path)
    entries = {}
    for url in tree.getroot().findall(f"{SITEMAP_NS}url"):
        loc = url.find(f"{SITEMAP_NS}loc").text
        entries[loc] = {link.get("hreflang"): link.get("href") for link in url.findall("{http://www.w3.org/1999/xhtml}link")}
    return entries


@pytest.mark.slow
def test_a_sitemap_per_language_at_site_url(catalog, published):
    default = catalog.site.languages[0]
    for lang in catalog.site.languages:
        folder = published if lang == default else published / lang
        entries = sitemap_entries(folder / "sitemap.xml")
        prefix = SITE_URL if lang == default else f"{SITE_URL}{lang}/"
        html_pages = [
            p
            for p in pages(folder)
            if lang != default or p.relative_to(published).parts[0] not in catalog.site.languages
        ]
        assert len(entries) == len(html_pages) > 0
        for loc, alternates in entries.items():
            assert loc.startswith(prefix) and (
                lang != default or not any(loc.startswith(f"{SITE_URL}{o}/") for o in catalog.site.languages)
            )
            assert alternates[lang] == loc and set(alternates) == set(catalog.site.languages)
            relative = loc[len(SITE_URL):]
            assert (published / relative / "index.html").exists(), loc
        assert gzip.decompress((folder / "sitemap.xml.gz").read_bytes()) == (folder / "sitemap.xml").read_bytes()


@pytest.mark.slow
def test_no_sitemap_address_without_site_url(catalog, plain):
    build, _ = plain
    for lang in catalog.site.languages:
        folder = build if lang == catalog.site.languages[0] else build / lang
        text = (folder / "sitemap.xml").read_text(encoding="utf-8")
        assert "None" not in text and "<loc>" not in text, text[:300]
        assert sitemap_entries(folder / "sitemap.xml") == {}


@pytest.mark.slow
def test_a_404_page_per_language_with_a_way_on(catalog, published):
    default = catalog.site.languages[0]
    for lang in catalog.site.languages:
        page = (published / ("" if lang == default else lang) / "404.html").read_text(encoding="utf-8")
        assert f'<html lang="{lang}"' in page
        current = re.search(r'<section class="not-found current" lang="([^"]+)"', page)
        assert current and current.group(1) == lang
        for other in catalog.site.languages:
            home = urlsplit(SITE_URL).path + ("" if other == default else f"{other}/")
            assert (
                f'lang="{other}"' in page
                and f'<a href="{home}">{html.escape(catalog.site.label("home", other))}</a>' in page
            )
        # its language switch leads to each language's home (en/404.html led to the page built before it)
        switch = dict((target, href) for href, target in re.findall(r'<a href="([^"]*)" hreflang="([^"]+)"', page))
        assert switch == {other: urlsplit(SITE_URL).path + ("" if other == default else f"{other}/")
                          for other in catalog.site.languages}, switch


# -- heading ids ------------------------------------------------------------------------------------


def markdown_of(build: Path, page: Path, lang: str) -> Path:
    parts = page.relative_to(build).parent.parts
    if parts and parts[0] == lang:
        parts = parts[1:]
    stem = "/".join(parts)
    for candidate in (DOCS / f"{stem}.{lang}.md", DOCS / stem / f"index.{lang}.md", DOCS / f"index.{lang}.md"):
        if candidate.exists() and (stem or candidate.name == f"index.{lang}.md"):
            return candidate
    raise AssertionError(f"no Markdown source for {page}")


@pytest.mark.slow
def test_heading_ids_are_explicit_and_the_same_in_every_language(catalog, plain):
    build, _ = plain
    default, others = catalog.site.languages[0], catalog.site.languages[1:]
    checked = 0
    for page in pages(build):
        if page.relative_to(build).parts[0] in others:
            continue
        ids = parse(page).headings
        explicit = set(re.findall(r"\{#([^}\s]+)\}", markdown_of(build, page, default).read_text(encoding="utf-8")))
        assert ids and all(ids) and set(ids) <= explicit, (page, set(ids) - explicit)
        assert not [i for i in ids if re.fullmatch(r"_\d*", i)], page
        for lang in others:
            twin = build / lang / page.relative_to(build)
            assert parse(twin).headings == ids, twin
        checked += 1
    assert checked > 50


# -- differences --------------------------------------------------------------------------------------


def text_changes(family, lang) -> set[tuple[str, str]]:
    """(before, after) of every text the built differences pages compare as written: between a
    -repo copy and its published page (the index), and between each page's first pair of
    editions (its comparison page; every other pair is the script's, tested in the browser)."""
    pairs = set()
    for page in family.pages:
        editions = family.page_editions(page)
        compared = [(family.edition_by_id[e.id[: -len("-repo")]], e) for e in editions if e.repo_copy]
        if len(editions) > 1:
            first = compare.first_pair(family, page)
            compared.append((editions[first[0]], editions[first[1]]))
        for old, new in compared:
            if not (old.has_texts(lang) and new.has_texts(lang)):
                continue
            for code in family.codes:
                if code.name not in old.row_by_code or code.name not in new.row_by_code:
                    continue
                for field in set(old.page.text_fields) & set(new.page.text_fields):
                    a, b = code.text(field, old.id, lang), code.text(field, new.id, lang)
                    if a is not None and b is not None and a != b:
                        pairs.add((a, b))
    return pairs


def differences_pages(build: Path, catalog, family, lang) -> list[Path]:
    """The built differences pages of a family in one language: the index, and every page under it."""
    root = (build if lang == catalog.site.languages[0] else build / lang) / family.prefix / "differences"
    return sorted(root.rglob("index.html"))


@pytest.mark.slow
def test_text_changes_are_marked_word_by_word(catalog, plain):
    build, _ = plain
    for lang in catalog.site.languages:
        for family in catalog.families:
            parser = WordDiffs()
            for page in differences_pages(build, catalog, family, lang):
                text = page.read_text(encoding="utf-8")
                parser.feed(text)
                diffs = re.findall(r'<div class="word-diff">(.*?)</div>', text)
                assert all("<ins>" in d or "<del>" in d for d in diffs)
            assert set(parser.pairs) == text_changes(family, lang), (lang, family.id)


@pytest.mark.slow
def test_the_end_of_an_unknown_is_never_a_change(catalog, plain):
    build, _ = plain
    for lang in catalog.site.languages:
        changed = html.escape(catalog.site.label("recoverable_changed", lang))
        for family in catalog.families:
            unknown = html.escape(family.recoverable_label("not known", lang))
            page = "".join(p.read_text(encoding="utf-8") for p in differences_pages(build, catalog, family, lang))
            for table in re.findall(rf"<p><strong>{re.escape(changed)}</strong></p>(.*?)</table>", page):
                befores = re.findall(r'<td class="col-before"[^>]*>(.*?)</td>', table)
                afters = re.findall(r'<td class="col-after"[^>]*>(.*?)</td>', table)
                assert befores and unknown not in befores + afters, (family.id, lang)


# -- search indexes -------------------------------------------------------------------------------------


def test_search_indexes_hold_only_what_the_worker_reads(catalog):
    worker = (DOCS / "assets" / "javascripts" / "search-worker.js").read_text(encoding="utf-8")
    documented = set(
        re.findall(r"\b([a-z]) (?:location|title|kind|family|names|values|meanings|solutions|log|other|what|message)\b",
                   worker)
    )
    assert documented == {"l", "t", "k", "f", "n", "v", "m", "s", "g", "o", "x", "p"}
    for lang in catalog.site.languages:
        data = json.loads((DOCS / "assets" / "search" / f"index-{lang}.json").read_text(encoding="utf-8"))
        keys = {key for doc in data["docs"] for key in doc}
        assert keys <= documented, keys - documented
        for key in keys:  # each is read: doc.l, doc.t, ... or one of the text fields ["m", ...]
            assert re.search(rf'doc\.{key}\b|\["{key}", "', worker), key
