"""What changed between two editions: presence, recoverability and texts.

Used by the differences page, each code's history and the `diff` verb. An
unknown on either side is reported as such, never as a change it may not be.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from generator.model import TEXT_FIELDS, Catalog, Code, Edition

LISTED, NOT_LISTED, NOT_KNOWN = "listed", "not listed", "not known"
PRESENCE_LABELS = {LISTED: "listed", NOT_LISTED: "not_listed", NOT_KNOWN: "listing_not_known"}  # family.labels keys


def presence(edition: Edition, code: Code) -> str:
    if code.name in edition.row_by_code:
        return LISTED
    return NOT_KNOWN if code.name in edition.not_known else NOT_LISTED


def recoverable(edition: Edition, code: Code) -> Optional[str]:
    row = edition.row_by_code.get(code.name)
    return row.recoverable if row else None


@dataclass(frozen=True)
class PresenceChange:
    code: str
    before: str  # LISTED, NOT_LISTED or NOT_KNOWN
    after: str


@dataclass(frozen=True)
class RecoverableChange:
    code: str
    before: str  # one of RECOVERABLE_VALUES
    after: str


@dataclass(frozen=True)
class TextChange:
    code: str
    field: str
    lang: str
    before: str
    after: str


@dataclass(frozen=True)
class EditionDiff:
    old: str
    new: str
    presence: tuple[PresenceChange, ...]
    recoverable: tuple[RecoverableChange, ...]
    texts: tuple[TextChange, ...]
    texts_comparable: tuple[str, ...]  # languages whose texts are known on both sides

    def __bool__(self) -> bool:
        return bool(self.presence or self.recoverable or self.texts)

    @property
    def added(self) -> tuple[str, ...]:
        return tuple(c.code for c in self.presence if c.after == LISTED and c.before == NOT_LISTED)

    @property
    def dropped(self) -> tuple[str, ...]:
        return tuple(c.code for c in self.presence if c.before == LISTED and c.after == NOT_LISTED)


def comparable_languages(catalog: Catalog, old: Edition, new: Edition) -> tuple[str, ...]:
    return tuple(lang for lang in catalog.family.languages if old.text_origin(lang) and new.text_origin(lang))


def compare_editions(catalog: Catalog, old: Edition, new: Edition) -> EditionDiff:
    presence_changes, recoverable_changes, text_changes = [], [], []
    languages = comparable_languages(catalog, old, new)
    for code in catalog.codes:
        p, r, t = compare_code(code, old, new, languages)
        presence_changes.extend(p)
        recoverable_changes.extend(r)
        text_changes.extend(t)
    return EditionDiff(old.id, new.id, tuple(presence_changes), tuple(recoverable_changes),
                       tuple(text_changes), languages)


def compare_code(code: Code, old: Edition, new: Edition, languages):
    """One code's changes from `old` to `new`: (presence, recoverable, texts) lists."""
    before, after = presence(old, code), presence(new, code)
    if before != after:
        return [PresenceChange(code.name, before, after)], [], []
    if before != LISTED:
        return [], [], []
    r_old, r_new = recoverable(old, code), recoverable(new, code)
    recoverable_changes = [RecoverableChange(code.name, r_old, r_new)] if r_old != r_new else []  # type: ignore[arg-type]
    return [], recoverable_changes, _text_changes(code, old, new, languages)


def _text_changes(code: Code, old: Edition, new: Edition, languages) -> list[TextChange]:
    changes = []
    for lang in languages:
        for field_name in TEXT_FIELDS:
            before, after = code.text(field_name, old.id, lang), code.text(field_name, new.id, lang)
            if before is not None and after is not None and before != after:
                changes.append(TextChange(code.name, field_name, lang, before, after))
    return changes


@dataclass(frozen=True)
class HistoryStep:
    edition: Edition
    presence: str
    recoverable: Optional[str]
    events: tuple[str, ...]  # label keys: first_listed, dropped, listed_again, recoverable_changed, texts_changed


def history(catalog: Catalog, code: Code) -> tuple[HistoryStep, ...]:
    """The code through the editions, oldest first, with what changed at each."""
    steps, seen_listed, previous = [], False, None
    for edition in catalog.editions:
        state = presence(edition, code)
        events = []
        if state == LISTED and not seen_listed:
            events.append("first_listed")
        elif previous is not None:
            events.extend(_events(catalog, code, previous, edition, state))
        seen_listed = seen_listed or state == LISTED
        steps.append(HistoryStep(edition, state, recoverable(edition, code), tuple(events)))
        if state != NOT_KNOWN:
            previous = edition
    return tuple(steps)


def _events(catalog: Catalog, code: Code, previous: Edition, edition: Edition, state: str) -> list[str]:
    before = presence(previous, code)
    if before == LISTED and state == NOT_LISTED:
        return ["dropped"]
    if before == NOT_LISTED and state == LISTED:
        return ["listed_again"]
    if before == state == LISTED:
        _, recoverable_changes, text_changes = compare_code(
            code, previous, edition, comparable_languages(catalog, previous, edition))
        return ["recoverable_changed"] * bool(recoverable_changes) + ["texts_changed"] * bool(text_changes)
    return []
