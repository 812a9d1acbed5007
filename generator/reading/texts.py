"""The page texts resolved: each entry holds, on each timeline, from the versions it names
until a later entry of the same code, column and language starts; it gives its text to
the editions of the versions it covers that list the code and whose texts in that
language are known. Every such edition needs exactly one text per column and language.

Reported at PATH:LINE:COL: a start that names no version, or a version that does not
list the code, has no such column or whose texts in that language are not known (an
unread version); two entries starting at one version (an overlap); and a version left
without a text (a gap), at the entry that covers it in another language when there is one.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

from generator.domain.codes import Code, TextEntry

from generator.domain.editions import Edition, Version

from generator.domain.model import PROPOSED
from generator.core.problems import Pos, Problem, Reporter, closest


def resolve_texts(codes, versions: list[Version], editions: list[Edition], languages: tuple[str, ...],
                  rep: Reporter, declared: frozenset = frozenset()) -> tuple[list[Code], list[Problem]]:
    """The codes with their entries resolved to editions, and a warning per untranslated text and
    per text marked as upstream's in a language none of its sources is in;
    `declared`: version ids written whose versions are broken (reported where they are)."""
    context = _Context(versions, editions, languages, rep)
    context.broken = set(declared) - {v.id for v in versions}
    resolved = [context.code(code) for code in codes]
    return resolved, context.warnings


class _Context:
    def __init__(self, versions: list[Version], editions: list[Edition], languages, rep: Reporter):
        self.versions = {v.id: v for v in versions}
        self.timelines: dict[str, list[Version]] = {}
        for version in versions:
            self.timelines.setdefault(version.timeline.id, []).append(version)
        self.edition_version = {e.id: e.version for e in editions}
        self.edition_index = {e.id: e.index for e in editions}
        self.edition_sources = {e.id: e.sources for e in editions}  # its version's and its own
        for timeline in self.timelines.values():  # release order, whatever order they are written in
            timeline.sort(key=lambda v: self.edition_index[v.editions[0]])
        self.languages, self.rep = languages, rep
        self.warnings: list[Problem] = []
        self.broken: set[str] = set()
        # (code, column) of which an entry's `from` names no version it can start at: which versions
        # its texts cover is not known, so no gap in that column is reported (fixing `from` may fill it)
        self.unresolved: set[tuple[str, str]] = set()

    def code(self, code: Code) -> Code:
        texts = []
        for field_name, entries in code.texts:
            texts.append((field_name, self._field(code, field_name, entries)))
        self._gaps(code, dict(texts))
        return replace(code, texts=tuple(texts))

    def _field(self, code: Code, field_name: str, entries: tuple[TextEntry, ...]) -> tuple[TextEntry, ...]:
        """Each entry with the editions it gives its text to."""
        where = f"{code.name}: {field_name}"
        covered: dict[int, list[str]] = {i: [] for i in range(len(entries))}
        for lang in self.languages:
            starts: dict[str, tuple[int, Pos]] = {}  # version id -> (entry index, where)
            for number, entry in enumerate(entries):
                if entry.lang != lang:
                    continue
                for ident, pos in zip(entry.starts, entry.start_pos):
                    version = self._start(code, field_name, entry, ident, pos, where)
                    if version is None:
                        continue
                    if ident in starts:
                        other = entries[starts[ident][0]]
                        self.rep.error(pos, f"{where} ({lang}): two entries start at version {ident}: this one and the "
                                            f"one at line {other.pos.line}; give each version one text per language")
                        continue
                    starts[ident] = (number, pos)
            for timeline in self.timelines.values():
                active: Optional[int] = None
                for version in timeline:
                    if version.id in starts:
                        active = starts[version.id][0]
                    if active is not None and _shows(version, code, field_name, lang):
                        covered[active].extend(version.editions)
        resolved = [replace(entry, editions=tuple(sorted(set(covered[n]), key=self.edition_index.__getitem__)))
                    for n, entry in enumerate(entries)]
        sources = self._upstream_sources(resolved)
        proposed = {key for key, found in sources.items() if found and all(s.ref == "merge-request" for s in found)}
        # upstream's words in a language no source of theirs is in (the page of that language shows the
        # first language's words, as the deprecated C++ page writes its log messages, is one)
        shown = {e.written for e in resolved if e.lang == self.languages[0]}
        for lang, written in (key for key, found in sources.items() if not found and key[1] not in shown):
            entry = next(e for e in resolved if (e.lang, e.written) == (lang, written) and e.origin == "upstream")
            self.warnings.append(Problem(entry.pos, (
                f"warning: {code.name}: {field_name} ({lang}) is marked as upstream's, but no source of "
                f"{', '.join(entry.starts)} is in {lang}: if this project translated it, write `origin: translation`; "
                f"else name its {lang} source (`lang: {lang}`) in editions.yaml")))
        resolved = [replace(entry, origin=PROPOSED)
                    if entry.origin == "upstream" and (entry.lang, entry.written) in proposed else entry
                    for entry in resolved]
        first = [e for e in resolved if e.lang == self.languages[0] and not e.untranslated]
        result: list[TextEntry] = []
        for entry in resolved:
            result.extend(
                self._untranslated(code, field_name, entry, first) if entry.untranslated else [entry]
            )
        return tuple(result)

    def _upstream_sources(self, entries: list[TextEntry]) -> dict[tuple[str, str], list]:
        """(lang, text) of each of upstream's texts -> its sources in that language, in the versions
        any entry with these words holds for (on every timeline: a page's copies share their words).
        Where every one is a commit that only a merge request's ref holds, the words are proposed, not
        released (a release that ships them adds a tagged source, and they are upstream's)."""
        sources: dict[tuple[str, str], list] = {}
        for entry in entries:
            if entry.origin != "upstream":
                continue
            held = [s for v in entry.starts if v in self.versions for s in self.versions[v].sources]
            held += [s for e in entry.editions for s in self.edition_sources.get(e, ())]
            sources.setdefault((entry.lang, entry.written), []).extend(s for s in held if s.lang in (entry.lang, None))
        return sources

    def _start(
        self, code: Code, field_name: str, entry: TextEntry, ident: str, pos: Pos, where: str
    ) -> Optional[Version]:
        version = self.versions.get(ident)
        if version is None and ident in self.broken:
            return None
        if version is None:
            held = self.edition_version.get(ident)
            hint = f": it is an edition of version {held}; write that" if held else closest(ident, self.versions)
            self.rep.error(pos, f"{where}: no version {ident!r} in editions.yaml{hint}")
        elif code.name not in version.row_by_code:
            self.rep.error(
                pos, f"{where}: version {ident} does not list {code.name}; start the text at a version that lists it"
            )
        elif field_name not in version.page.text_fields:
            self.rep.error(pos, f"{where}: page {version.page.id} (version {ident}) has no {field_name} column")
        elif not version.has_texts(entry.lang):
            self.rep.error(
                pos,
                f"{where} ({entry.lang}): version {ident} has no known {entry.lang} texts (an unread "
                f"version): add {entry.lang} to its `texts`, or start this text at a version that was read",
            )
        else:
            return version
        self.unresolved.add((code.name, field_name))
        return None

    def _untranslated(self, code: Code, field_name: str, entry: TextEntry, first: list[TextEntry]) -> list[TextEntry]:
        """An untranslated text shows, per edition, the text in the family's first language."""
        shown: dict[tuple[str, Optional[str]], list[str]] = {}
        for ident in entry.editions:
            original = next((e for e in first if ident in e.editions), None)
            if original is None:
                self.rep.error(
                    entry.pos,
                    f"{code.name}: {field_name} ({entry.lang}): untranslated, but edition {ident} "
                    f"has no {self.languages[0]} text to show",
                )
                continue
            shown.setdefault((original.text, original.markup), []).append(ident)
        self.warnings.append(
            Problem(
                entry.pos,
                f"warning: {code.name}: {field_name} ({entry.lang}) is not translated yet "
                f"(from {', '.join(entry.starts)}); write its {entry.lang} text here",
            )
        )
        return [replace(entry, editions=tuple(group), text=text, markup=markup)
                for (text, markup), group in shown.items()]

    def _gaps(self, code: Code, texts: dict[str, tuple[TextEntry, ...]]) -> None:
        """Every version that lists the code has a text per column and known language (unless
        a text names a broken version: what it would cover is not known)."""
        if any(s in self.broken for _, entries in code.texts for e in entries for s in e.starts):
            return
        for timeline in self.timelines.values():
            for version in timeline:
                if code.name not in version.row_by_code:
                    continue
                for field_name in version.page.text_fields:
                    if (code.name, field_name) in self.unresolved:
                        continue
                    entries = texts.get(field_name, ())
                    for lang in version.languages or ():
                        if any(version.editions[0] in e.editions for e in entries if e.lang == lang):
                            continue
                        near = next((e for e in entries if version.editions[0] in e.editions), None)
                        if near is not None:
                            self.rep.error(
                                near.pos,
                                f"{code.name}: {field_name}: no {lang} text for version {version.id}, "
                                f"whose page lists it; this entry gives {near.lang} only: add "
                                f"{lang}: ... (or untranslated: [{lang}])",
                            )
                        else:
                            self.rep.error(
                                code.pos,
                                f"{code.name}: no {lang} {field_name} for version {version.id}, whose "
                                f"page lists it; add an entry with from: ['{version.id}'] and {lang}: ...",
                            )


def _shows(version: Version, code: Code, field_name: str, lang: str) -> bool:
    """Whether a version's page shows this code's text in this column and language."""
    return code.name in version.row_by_code and field_name in version.page.text_fields and version.has_texts(lang)
