"""A code's texts in one column, as `import` changes them and writes them back (codes.yaml).

An entry of a column writes texts in one or more languages and the versions they hold from
(`from`). The import reads each language of each entry as one `Held`: its text and the versions
it holds from. It changes those (a version joins a text, leaves one, a new text starts at it) and
writes them back: an entry whose languages still hold from the same versions stays one entry,
changed in place; one whose languages come to hold from different versions is split, in place;
new texts become new entries at the column's end. A text is written once: a version whose text
some entry already writes (the same words in that language, from upstream, with the same markup)
joins that entry.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from generator.importing import catalog_yaml as cy

TEXT_COLUMNS = ("meaning", "cause", "solution")


@dataclass(eq=False)
class Held:
    """One language of an entry: its text, and the versions it holds from."""

    lang: str
    text: Optional[str]  # as written (its markup kept where `markdown`); None: untranslated
    origin: str  # upstream, translation
    markdown: bool
    starts: list[str]  # its entry's `from`
    entry: Optional[CommentedMap]  # the entry that writes it; None for a new one

    def says(self, text: str, markdown: bool) -> bool:
        """Whether it is this very text of upstream's, written with this markup."""
        return self.text == text and self.markdown == markdown and self.origin == "upstream"


def _read(entry: CommentedMap, languages: tuple[str, ...]) -> list[Held]:
    """Each language of an entry, in the order it writes them."""
    starts, origin, markdown = cy.texts_of(entry.get("from")), str(entry.get("origin", "upstream")), \
        bool(entry.get("markdown", False))
    held = [Held(key, str(entry[key]), origin, markdown, list(starts), entry) for key in entry if key in languages]
    return held + [Held(lang, None, "upstream", False, list(starts), entry)
                   for lang in cy.texts_of(entry.get("untranslated"))]


class FieldEdit:
    """The texts of one column of one code, read from its node, changed, then written back."""

    def __init__(self, code: CommentedMap, column: str, languages: tuple[str, ...]):
        self.code, self.column, self.languages = code, column, languages
        self.entries: list[CommentedMap] = list(code.get(column) or [])
        self.held = [held for entry in self.entries for held in _read(entry, languages)]

    def starting(self, version: str, lang: str) -> Optional[Held]:
        """The text in `lang` that starts at the version (a valid catalog has at most one)."""
        return next((h for h in self.held if h.lang == lang and version in h.starts), None)

    def same(self, lang: str, text: str, markdown: bool) -> Optional[Held]:
        """A text of upstream's in `lang` with these words and markup that an entry writes already."""
        return next((h for h in self.held if h.lang == lang and h.starts and h.says(text, markdown)), None)

    def stop_at(self, version: str) -> None:
        """No text of the column starts at the version any longer."""
        for held in self.held:
            if version in held.starts:
                held.starts.remove(version)

    def rename(self, renamed: dict[str, str]) -> None:
        for held in self.held:
            held.starts[:] = [renamed.get(s, s) for s in held.starts]

    def join(self, version: str, found: Held, known: tuple[str, ...]) -> list[str]:
        """The version joins the entry that writes `found`: each of that entry's languages that holds
        from the same versions, and whose texts the version knows (`known`), holds from it too (where
        no text of that language starts there yet). The languages it now has a text in from it."""
        kin = [h for h in self.held if h.entry is found.entry and h.starts == found.starts and h.lang in known
               and (h is found or self.starting(version, h.lang) is None)]
        for held in kin:
            held.starts.append(version)
        return [h.lang for h in kin if h.text is not None]

    def keep_following(self, new: str, following: str, lang: str, held_from: tuple[str, ...]) -> None:
        """A version inserted before `following` (a backport imported after newer releases) starts a
        text in `lang`, where `following` held on the text of the entry `held_from` names: `following`
        now starts that text itself, or the inserted one would hold on into it (an entry holds until
        the next start on the timeline)."""
        started = self.starting(new, lang)
        if started is None or self.starting(following, lang) is not None:
            return
        held = next((h for h in self.held if h.lang == lang and h.entry is not None
                     and tuple(cy.texts_of(h.entry.get("from"))) == held_from), None)
        if held is not None and held is not started:
            held.starts.append(following)

    def add(self, version: str, lang: str, text: Optional[str], markdown: bool = False) -> None:
        """A new text (None: untranslated) starting at the version."""
        self.held.append(Held(lang, text, "upstream", markdown, [version], None))

    def give(self, version: str, lang: str, text: str, markdown: bool) -> None:
        """Upstream's text in `lang` from the version on: the text that started there (unless it is
        this one) no longer does, or is changed in place; a text an entry writes already holds from it."""
        current = self.starting(version, lang)
        if current is not None and current.says(text, markdown):
            return
        if current is not None:
            current.starts.remove(version)
        found = self.same(lang, text, markdown)
        if found is not None:
            found.starts.append(version)
        elif current is not None and not current.starts:
            current.text, current.origin, current.markdown, current.starts = text, "upstream", markdown, [version]
        else:
            self.add(version, lang, text, markdown)

    # -- writing back ------------------------------------------------------------------------------------------

    def write(self) -> None:
        """The column's entries as the texts now hold: in place where they can, split where an
        entry's languages came apart, new entries last."""
        sequence = self.code.get(self.column)
        for entry in self.entries:
            index = next(i for i, e in enumerate(sequence) if e is entry)
            groups = _groups([h for h in self.held if h.entry is entry and h.starts])
            if not groups:
                cy.remove_item(sequence, index)
                continue
            _update(entry, groups[0], self.languages)
            for offset, group in enumerate(groups[1:], 1):
                cy.insert_item(sequence, index + offset, _new_entry(group, self.languages))
        new = [_new_entry(group, self.languages) for group in _groups([h for h in self.held if h.entry is None
                                                                        and h.starts])]
        if new and sequence is None:
            sequence = CommentedSeq()
            later = [k for k in TEXT_COLUMNS[TEXT_COLUMNS.index(self.column) + 1:] if k in self.code]
            cy.insert_key(self.code, list(self.code).index(later[0]) if later else len(self.code), self.column,
                          sequence)
        for entry in new:
            cy.insert_item(sequence, len(sequence), entry)
        if sequence is not None and not sequence:
            cy.remove_key(self.code, self.column)


def _groups(held: list[Held]) -> list[list[Held]]:
    """The entries that write these texts: one per set of versions they hold from, and within it
    one per markup and origin (an origin belongs to one text); an untranslated mark goes with the
    first text of its versions."""
    by_starts: dict[tuple[str, ...], list[list[Held]]] = {}
    for item in held:
        groups = by_starts.setdefault(tuple(item.starts), [])
        fits = next((g for g in groups if item.text is None or all(
            h.text is None or (h.markdown, h.origin) == (item.markdown, item.origin) and h.origin == "upstream"
            for h in g)), None)
        if fits is None:
            groups.append([item])
        else:
            fits.append(item)
    return [group for groups in by_starts.values() for group in groups]


def _update(entry: CommentedMap, group: list[Held], languages: tuple[str, ...]) -> None:
    """An entry changed in place to write exactly `group`, each key left as it is where it is right."""
    starts = group[0].starts
    if cy.texts_of(entry["from"]) != starts:
        cy.set_value(entry, "from", cy.flow(starts, quote=True))
    texts = {h.lang: h for h in group if h.text is not None}
    _set_flag(entry, "origin", "translation" if any(h.origin == "translation" for h in texts.values()) else None)
    _set_flag(entry, "markdown", True if any(h.markdown for h in texts.values()) else None)
    for lang in [k for k in entry if k in languages and k not in texts]:
        cy.remove_key(entry, lang)
    for lang, held in texts.items():
        if lang not in entry:
            cy.insert_key(entry, list(entry).index("untranslated") if "untranslated" in entry else len(entry), lang,
                          cy.cell(held.text or ""))
        elif str(entry[lang]) != held.text:
            cy.set_value(entry, lang, cy.cell(held.text or ""))
    marks = [lang for lang in languages if any(h.lang == lang and h.text is None for h in group)]
    if marks != cy.texts_of(entry.get("untranslated")):
        if not marks:
            cy.remove_key(entry, "untranslated")
        elif "untranslated" in entry:
            cy.set_value(entry, "untranslated", cy.flow(marks))
        else:
            cy.insert_key(entry, len(entry), "untranslated", cy.flow(marks))


def _set_flag(entry: CommentedMap, key: str, value: object) -> None:
    """`origin: translation` or `markdown: true` written after `from` (and `origin`), or taken away."""
    if value is None and key in entry:
        cy.remove_key(entry, key)
    elif value is not None and entry.get(key) != value:
        if key in entry:
            cy.set_value(entry, key, value)
        else:
            cy.insert_key(entry, 1 + ("origin" in entry and key != "origin"), key, value)


def _new_entry(group: list[Held], languages: tuple[str, ...]) -> CommentedMap:
    """A new entry that writes `group`, its languages in the family's order."""
    entry = CommentedMap([("from", cy.flow(group[0].starts, quote=True))])
    _update(entry, sorted((h for h in group if h.lang in languages), key=lambda h: languages.index(h.lang)), languages)
    return entry
