"""`explain` and `diff`: a code, or the change between two editions, as text or data."""
from __future__ import annotations

import difflib
import re
from typing import Optional

from generator import changes
from generator.model import Catalog, Code, Edition


class NotFound(LookupError):
    """No code matches a key; the message names the closest ones."""


def find_code(catalog: Catalog, key: str) -> Code:
    """A code by Python name, C name, hex, decimal, or the message upstream logs for it."""
    text = key.strip()
    if re.fullmatch(r"[-+]?0[xX][0-9a-fA-F]+|[-+]?\d+", text):
        value = int(text, 16) if "x" in text.lower() else int(text, 10)
        for code in catalog.codes:
            if code.value == value:
                return code
        raise NotFound(f"no code has the value {text}")
    folded = text.casefold()
    for code in catalog.codes:
        names = (code.python_name, code.c_name, *(n.rsplit("::", 1)[1] for n in code.cpp_names))
        if any(n is not None and n.casefold() == folded for n in names):
            return code
    for code in catalog.codes:
        if code.log_message is not None and code.log_message.casefold() == folded:
            return code
    raise NotFound(f"no code is named or logged as {key!r}{_closest(catalog, text)}")


def _closest(catalog: Catalog, text: str) -> str:
    names = {n for c in catalog.codes for n in (c.python_name, c.c_name, c.log_message) if n}
    matches = difflib.get_close_matches(text, sorted(names), n=3, cutoff=0.5)
    matches += difflib.get_close_matches(text.upper(), sorted(names), n=3, cutoff=0.5)
    unique = list(dict.fromkeys(matches))[:3]
    return f"; closest: {', '.join(unique)}" if unique else ""


def explain(catalog: Catalog, code: Code, lang: str, edition: Optional[Edition]) -> str:
    family = catalog.family

    def label(key: str) -> str:
        return family.label(key, lang)

    listing = catalog.editions_listing(code)
    edition = edition or (listing[-1] if listing else None)
    lines = [code.name, f"  {label('python_name')}: {code.python_name or '—'}",
             f"  {label('c_name')}: {code.c_name or '—'}",
             f"  {label('hex')}: {code.hex}   {label('decimal')}: {code.value}",
             f"  {label('exists_in')}: {label(code.exists_label)}",
             f"  {label('log_message')}: {code.log_message if code.log_message is not None else label('none')}",
             f"  {label('listed_by')}: {', '.join(e.id for e in listing) or label('none')}"]
    if edition is not None:
        lines += _edition_lines(catalog, code, edition, lang, label)
    lines.append(f"{label('history')}:")
    for step in changes.history(catalog, code):
        events = ", ".join(label(e) for e in step.events)
        lines.append(f"  {step.edition.id:<10} {_presence(step.presence, label):<12} "
                     f"{_recoverable(catalog, step.recoverable, lang):<10} {events}".rstrip())
    if code.notes:
        lines += [f"{label('notes')}:", _indent(code.notes[lang])]
    return "\n".join(lines) + "\n"


def _edition_lines(catalog, code, edition, lang, label) -> list[str]:
    family = catalog.family
    row = edition.row_by_code.get(code.name)
    lines = [f"{label('edition')} {edition.id}:"]
    if row is None:
        state = changes.presence(edition, code)
        lines.append(f"  {_presence(state, label)}")
        return lines
    lines.append(f"  {family.column('recoverable', lang)}: {_recoverable(catalog, row.recoverable, lang)}")
    for field_name in ("meaning", "solution"):
        text = code.text(field_name, edition.id, lang)
        origin = edition.text_origin(lang)
        mark = f" ({label('translation')})" if origin == "translation" and text is not None else ""
        lines.append(f"  {family.column(field_name, lang)}{mark}:")
        lines.append(_indent(text if text is not None else label("text_not_known"), 4))
    return lines


def _presence(state: str, label) -> str:
    return label(changes.PRESENCE_LABELS[state])


def _recoverable(catalog: Catalog, value: Optional[str], lang: str) -> str:
    return catalog.family.recoverable_label(value, lang) if value else "—"


def _indent(text: str, width: int = 2) -> str:
    return "\n".join(" " * width + line for line in text.split("\n"))


# -- diff ---------------------------------------------------------------------------


def diff_data(catalog: Catalog, diff: changes.EditionDiff, lang: str) -> dict:
    return {
        "old": diff.old, "new": diff.new, "lang": lang,
        "added": list(diff.added), "dropped": list(diff.dropped),
        "presence": [vars(c) for c in diff.presence if c.code not in diff.added + diff.dropped],
        "recoverable": [vars(c) for c in diff.recoverable],
        "texts": [vars(c) for c in diff.texts if c.lang == lang],
        "texts_known": lang in diff.texts_comparable,
    }


def diff_text(catalog: Catalog, diff: changes.EditionDiff, lang: str) -> str:
    family = catalog.family

    def label(key: str) -> str:
        return family.label(key, lang)

    data = diff_data(catalog, diff, lang)
    lines = [f"{diff.old} → {diff.new}"]
    for key in ("added", "dropped"):
        if data[key]:
            lines.append(f"{label(key)}: {', '.join(data[key])}")
    for change in data["presence"]:
        lines.append(f"{change['code']}: {_presence(change['before'], label)} → {_presence(change['after'], label)}")
    if data["recoverable"]:
        lines.append(f"{label('recoverable_changed')}:")
        lines += [f"  {c['code']}: {_recoverable(catalog, c['before'], lang)} → {_recoverable(catalog, c['after'], lang)}"
                  for c in data["recoverable"]]
    if data["texts"]:
        lines.append(f"{label('texts_changed')}:")
        for change in data["texts"]:
            lines.append(f"  {change['code']} ({family.column(change['field'], lang)}):")
            lines += _text_diff(change["before"], change["after"])
    elif not data["texts_known"]:
        lines.append(label("text_not_known"))
    if len(lines) == 1:
        lines.append(label("no_changes"))
    return "\n".join(lines) + "\n"


def _text_diff(before: str, after: str) -> list[str]:
    diff = difflib.unified_diff(before.split("\n"), after.split("\n"), lineterm="", n=1)
    return ["    " + line for line in list(diff)[2:]]
