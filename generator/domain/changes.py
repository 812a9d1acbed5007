"""What changed between editions, always within one timeline.

Presence ("first listed", "dropped", "listed again"), recoverability and texts
are compared only between consecutive editions of the same timeline: a copy
of a page in one repository never makes a code "dropped" on another's. An
unknown on either side is reported as such, never as a change it may not be:
an end of "not known" is "became known", not a change of value.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Optional

from generator.domain.codes import Code

from generator.domain.editions import Edition

from generator.domain.family import Family

from generator.domain.model import UNTRANSLATED, Timeline


class Presence(str, Enum):
    LISTED = "listed"
    NOT_LISTED = "not listed"
    NOT_KNOWN = "not known"

    @property
    def label_key(self) -> str:
        """The key of its wording in the site's labels (an Event's value is its own key)."""
        return {"listed": "listed", "not listed": "not_listed", "not known": "listing_not_known"}[self.value]


class Event(str, Enum):
    FIRST_LISTED = "first_listed"
    DROPPED = "dropped"
    LISTED_AGAIN = "listed_again"
    BECAME_KNOWN = "became_known"
    RECOVERABLE_CHANGED = "recoverable_changed"
    TEXTS_CHANGED = "texts_changed"
    RENAMED = "renamed_row"


def presence(edition: Edition, code: Code) -> Presence:
    if code.name in edition.row_by_code:
        return Presence.LISTED
    return Presence.NOT_KNOWN if code.name in edition.not_known else Presence.NOT_LISTED


def recoverable(edition: Edition, code: Code) -> Optional[str]:
    row = edition.row_by_code.get(code.name)
    return row.recoverable if row else None


def listable(code: Code, timeline_page) -> bool:
    """Whether a page could list the code at all: it has a name of the kind the page's rows use."""
    return bool(code.python_names if timeline_page.row_names == "python" else code.c_names)


def name_change(edition_before: Edition, edition_after: Edition, code: Code) -> Optional["NameChange"]:
    """The code's row under another name on the later page, where both list it."""
    before, after = edition_before.name_shown(code.name), edition_after.name_shown(code.name)
    if before is None or after is None or before == after:
        return None
    return NameChange(code.name, before, after)


@dataclass(frozen=True)
class PresenceChange:
    code: str
    before: Presence
    after: Presence


@dataclass(frozen=True)
class NameChange:
    code: str
    before: str  # the name the older page shows
    after: str


@dataclass(frozen=True)
class RecoverableChange:
    code: str
    before: str  # one of RECOVERABLE_VALUES
    after: str


# What a change of punctuation or spacing alone leaves alike: letters, digits and ideographs
# (full-width forms of punctuation too: ；。，：（）).
_NOT_WORDS = re.compile(
    r"[\s!-/:-@\[-`{-~\u2010-\u2027\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]+"
)
# Where a text's words are this project's (its translation), or nobody's yet (another language's
# text shown until the translation is written); every other origin is upstream's words.
_OURS = frozenset(("translation", UNTRANSLATED))


@lru_cache(maxsize=None)  # a code page compares each text with those of every other page of its release
def words_of(text: str) -> str:
    """What of a text a change of punctuation, list marks or spacing leaves alike."""
    return _NOT_WORDS.sub("", text)


def punctuation_only(before: str, after: str) -> bool:
    """Whether two texts differ in punctuation, list marks or spacing alone."""
    return before == after or words_of(before) == words_of(after)


def upstream_words(origin: str) -> bool:
    """Whether a text of this origin is upstream's words (released or proposed), not this
    project's translation nor another language's text awaiting one."""
    return origin not in _OURS


class Fold(str, Enum):
    """What a change of a text is: one of meaning, shown first; or one a reader may pass over,
    folded below: punctuation or spacing alone, or this project's translation alone (upstream's
    words, in another language, unchanged but for punctuation)."""

    MEANING = "meaning"
    PUNCTUATION = "punctuation"
    TRANSLATION = "translation"


@dataclass(frozen=True)
class TextChange:
    code: str
    field: str
    lang: str
    before: str
    after: str
    untranslated: bool = False  # `after` is another language's text, its translation still to be written
    fold: Fold = Fold.MEANING
    before_untranslated: bool = False  # `before` is, likewise


@dataclass(frozen=True)
class ElsewhereChange:
    """A change of upstream's own words in another language (`change`, of meaning) where the text
    in `lang` stayed the same: what a reader of `lang` alone would not see (upstream reworded its
    Chinese and this project's English did not follow, or upstream changed its English alone)."""

    lang: str
    change: TextChange


@dataclass(frozen=True)
class EditionDiff:
    old: Edition
    new: Edition
    presence: tuple[PresenceChange, ...]
    recoverable: tuple[RecoverableChange, ...]  # both sides known and different
    became_known: tuple[RecoverableChange, ...]  # "not known" before, a value after
    texts: tuple[TextChange, ...]
    texts_comparable: tuple[str, ...]  # languages whose texts are known on both sides
    renamed: tuple[NameChange, ...] = ()  # rows the newer page shows under another name
    moved: tuple[NameChange, ...] = ()  # rows a split page holds in another file (before, after: the paths)
    elsewhere: tuple[ElsewhereChange, ...] = ()

    def elsewhere_for(self, lang: str) -> tuple[TextChange, ...]:
        """The changes of upstream's words in another language where the text in `lang` stayed the same."""
        return tuple(e.change for e in self.elsewhere if e.lang == lang)

    def __bool__(self) -> bool:
        return bool(self.presence or self.recoverable or self.became_known or self.texts or self.renamed or self.moved)

    @property
    def added(self) -> tuple[str, ...]:
        return tuple(c.code for c in self.presence if c.after == Presence.LISTED and c.before == Presence.NOT_LISTED)

    @property
    def dropped(self) -> tuple[str, ...]:
        return tuple(c.code for c in self.presence if c.before == Presence.LISTED and c.after == Presence.NOT_LISTED)


def comparable_languages(family: Family, old: Edition, new: Edition) -> tuple[str, ...]:
    return tuple(lang for lang in family.languages if old.has_texts(lang) and new.has_texts(lang))


def compare_editions(family: Family, old: Edition, new: Edition) -> EditionDiff:
    """What changed from `old` to `new` (any two editions of the family, for `diff`); the
    same in every language (the comparison pages of each ask)."""
    return family.remember(("compare", old.id, new.id), lambda: _compare_editions(family, old, new))


def _compare_editions(family: Family, old: Edition, new: Edition) -> EditionDiff:
    presence_changes, recoverable_changes, known, texts = [], [], [], []
    languages = comparable_languages(family, old, new)
    fields = shared_text_fields(old, new)
    for code in family.codes:
        if not (listable(code, old.page) or listable(code, new.page)):
            continue
        p, r, k, t = compare_code(code, old, new, languages, fields)
        presence_changes += p
        recoverable_changes += r
        known += k
        texts += t
    renamed = tuple(change for code in family.codes if (change := name_change(old, new, code)) is not None)
    return EditionDiff(
        old, new, tuple(presence_changes), tuple(recoverable_changes), tuple(known), tuple(texts), languages, renamed,
        _moved(family, old, new), _elsewhere(family, old, new, texts, languages)
    )


def _elsewhere(family: Family, old: Edition, new: Edition, texts: list[TextChange], languages) -> tuple:
    """Each change of meaning of a text in upstream's own words on both sides, for each other
    language (of those known on both sides) whose text of the code and field is the same on both."""
    changed = {(c.code, c.field, c.lang) for c in texts}
    found = []
    for c in texts:
        code = family.code_by_name[c.code]
        if c.fold != Fold.MEANING or not all(
                own_words(e, entry.origin, c.lang) for e in (old, new)
                if (entry := code.entry(c.field, e.id, c.lang)) is not None):
            continue
        found += [ElsewhereChange(lang, c) for lang in languages if lang != c.lang
                  and (c.code, c.field, lang) not in changed
                  and code.entry(c.field, old.id, lang) is not None and code.entry(c.field, new.id, lang) is not None]
    return tuple(found)


def _moved(family: Family, old: Edition, new: Edition) -> tuple[NameChange, ...]:
    """Rows that a page split over several files (on one timeline) holds in another file than
    before: moved, not dropped and added."""
    if old.timeline is not new.timeline or not any(s.codes for s in (*old.sources, *new.sources)):
        return ()
    lang = family.languages[0]
    # in the family's order of codes, as every other kind of change
    return tuple(NameChange(code.name, before, after) for code in family.codes
                 if code.name in new.row_by_code and code.name in old.row_by_code
                 and (before := old.file_of(code.name, lang)) and (after := new.file_of(code.name, lang))
                 and before != after)


def shared_text_fields(old: Edition, new: Edition) -> tuple[str, ...]:
    """The text fields both editions' pages have, in the older page's order."""
    return tuple(f for f in old.page.text_fields if f in new.page.text_fields)


def compare_code(code: Code, old: Edition, new: Edition, languages, fields=None) -> tuple[list, list, list, list]:
    """One code's changes: (presence, recoverable, became known, texts); `fields`:
    shared_text_fields(old, new), when the caller compares many codes."""
    before, after = presence(old, code), presence(new, code)
    if before != after:
        return [PresenceChange(code.name, before, after)], [], [], []
    if before != Presence.LISTED:
        return [], [], [], []
    changed: list[RecoverableChange] = []
    known: list[RecoverableChange] = []
    texts: list[TextChange] = []
    r_old, r_new = recoverable(old, code), recoverable(new, code)
    if r_old is not None and r_new is not None and r_old != r_new and r_new != "not known":
        (known if r_old == "not known" else changed).append(RecoverableChange(code.name, r_old, r_new))
    for lang in languages:
        for field_name in shared_text_fields(old, new) if fields is None else fields:
            a, b = code.entry(field_name, old.id, lang), code.entry(field_name, new.id, lang)
            if a is not None and b is not None and a.text != b.text:
                texts.append(TextChange(code.name, field_name, lang, a.text, b.text, b.untranslated,
                                        text_fold(code, field_name, old, new, lang, languages),
                                        before_untranslated=a.untranslated))
    return [], changed, known, texts


def text_fold(code: Code, field_name: str, old: Edition, new: Edition, lang: str, languages) -> Fold:
    """What the change of the code's text (in `lang`, from `old` to `new`) is: punctuation or
    spacing alone; else translation alone where either side is not the edition's own copy's
    words (this project's, none yet, or upstream's words of another copy, shown by an edition with
    no source in `lang`) and, in another of `languages` (those known on both sides), each
    edition's own upstream words stand on both sides, alike but for punctuation; else a change
    of meaning."""
    a, b = code.entry(field_name, old.id, lang), code.entry(field_name, new.id, lang)
    if a is None or b is None:
        return Fold.MEANING
    if punctuation_only(a.text, b.text):
        return Fold.PUNCTUATION
    if not (own_words(old, a.origin, lang) and own_words(new, b.origin, lang)):
        for other in languages:
            x, y = code.entry(field_name, old.id, other), code.entry(field_name, new.id, other)
            if other != lang and x is not None and y is not None and own_words(old, x.origin, other) \
                    and own_words(new, y.origin, other) and punctuation_only(x.text, y.text):
                return Fold.TRANSLATION
    return Fold.MEANING


def own_words(edition: Edition, origin: str, lang: str) -> bool:
    """Whether a text the edition shows in `lang` is its own copy's words: upstream's, and the
    edition has a source in that language (else they are another copy's, borrowed)."""
    return upstream_words(origin) and has_own_copy(edition, lang)


def has_own_copy(edition: Edition, lang: str) -> bool:
    """Whether a source of the edition is in `lang` (else upstream's words it shows there are another copy's)."""
    return any(source.lang in (lang, None) for source in edition.sources)


@dataclass(frozen=True)
class HistoryStep:
    edition: Edition
    presence: Presence
    recoverable: Optional[str]
    events: tuple[Event, ...]


def history(family: Family, code: Code, timeline: Timeline) -> tuple[HistoryStep, ...]:
    """The code through one timeline's editions, oldest first, with what changed at each."""
    return family.remember(("history", code.name, timeline.id), lambda: _history(family, code, timeline))


def _history(family: Family, code: Code, timeline: Timeline) -> tuple[HistoryStep, ...]:
    steps, seen_listed, previous = [], False, None
    for edition in family.timeline_editions(timeline):
        state = presence(edition, code)
        events: list[Event] = []
        if state == Presence.LISTED and not seen_listed:
            events.append(Event.FIRST_LISTED)
        elif previous is not None:
            events.extend(_events(family, code, previous, edition, state))
        seen_listed = seen_listed or state == Presence.LISTED
        steps.append(HistoryStep(edition, state, recoverable(edition, code), tuple(events)))
        if state != Presence.NOT_KNOWN:
            previous = edition
    return tuple(steps)


def _events(family: Family, code: Code, previous: Edition, edition: Edition, state: Presence) -> list[Event]:
    before = presence(previous, code)
    if before == Presence.LISTED and state == Presence.NOT_LISTED:
        return [Event.DROPPED]
    if before == Presence.NOT_LISTED and state == Presence.LISTED:
        return [Event.LISTED_AGAIN]
    if before == state == Presence.LISTED:
        _, changed, known, texts = compare_code(
            code, previous, edition, comparable_languages(family, previous, edition)
        )
        return (
            [Event.RENAMED] * bool(name_change(previous, edition, code))
            + [Event.BECAME_KNOWN] * bool(known)
            + [Event.RECOVERABLE_CHANGED] * bool(changed)
            + [Event.TEXTS_CHANGED] * bool(texts)
        )
    return []


def copied_releases(family: Family, page) -> dict[str, list[Edition]]:
    """The releases with editions of a page on several timelines, and those editions."""
    releases: dict[str, list[Edition]] = {}
    for edition in family.page_editions(page):
        if not edition.repo_copy:
            releases.setdefault(edition.release, []).append(edition)
    return {release: editions for release, editions in releases.items() if len({e.timeline.id for e in editions}) >= 2}


def release_copies(family: Family, page) -> list[tuple[str, list[tuple[Edition, list[Code]]]]]:
    """Per release with editions on several timelines of a page: the codes each copy
    lists that no other copy of that release lists (the same in every language)."""
    return family.remember(("copies", page.id), lambda: _release_copies(family, page))


def _release_copies(family: Family, page) -> list[tuple[str, list[tuple[Edition, list[Code]]]]]:
    result = []
    for release, editions in copied_releases(family, page).items():
        only = []
        for edition in editions:
            others = [e for e in editions if e is not edition]
            codes = [c for c in family.codes if c.name in edition.row_by_code
                     and all(presence(o, c) == Presence.NOT_LISTED for o in others)]
            only.append((edition, codes))
        result.append((release, only))
    return result
