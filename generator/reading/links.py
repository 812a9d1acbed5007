"""Link targets in the texts that upstream's own files carry from the catalog.

`generated/upstream/` writes a page's texts as they stand, and the README tells upstream to
copy those files over its own: a text written with Markdown (`markdown: true`), and any text
that such a file carries, may link only to an http(s) URL or to a path within the page's
repository, and holds no raw HTML that runs (domain.markup.link_problems). A syntax check: a
target need not exist. Every other output escapes a text, so a plain text that no such file
carries may say anything. The page's framing (a source's `page`) is checked where it is read
(reading.page_layout).
"""
from __future__ import annotations

from generator.core.problems import Reporter
from generator.domain.codes import TextEntry
from generator.domain.editions import Edition
from generator.domain.family import Family
from generator.domain.markup import link_problems


def check_text_links(family: Family, rep: Reporter) -> None:
    """Every such text's links, from the pages of the editions it holds for, reported at the text."""
    editions = {e.id: e for e in family.editions}
    for code in family.codes:
        for field_name, entries in code.texts:
            for entry in entries:
                held = [editions[e] for e in entry.editions]
                if entry.untranslated or not (entry.markdown or _in_upstream_file(held, entry)):
                    continue  # another entry's text (checked there), or plain text that every output escapes
                for problem in link_problems(entry.written, page_paths(held, entry.lang)):
                    rep.error(entry.pos, f"{code.name}: {field_name} ({entry.lang}): {problem}")


def _in_upstream_file(editions: list[Edition], entry: TextEntry) -> bool:
    return any(s.layout is not None for e in editions for s in e.sources if s.lang in (entry.lang, None))


def page_paths(editions: list[Edition], lang: str) -> tuple[str, ...]:
    """Where the editions' pages in a language sit in their repositories (their repository
    sources' paths; else their timelines' paths)."""
    paths = [s.path for e in editions for s in e.sources if s.kind == "repo" and s.lang in (lang, None) and s.path]
    paths += [] if paths else [p for e in editions for p in e.timeline.paths]
    return tuple(dict.fromkeys(paths))
