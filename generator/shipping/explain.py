"""`explain` and `diff`: a code, or the change between two editions, as text or data."""
from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass
from functools import partial
from typing import Optional, Sequence, Union

from generator.domain import changes
from generator.domain.changes import Presence
from generator.domain.codes import Code, hex_value
from generator.domain.editions import Edition
from generator.domain.family import Family
from generator.domain.messages import MessageFamily
from generator.domain.model import Site
from generator.shipping.explain_messages import MessageMatch, from_key, ids_in, message_templates, site_page
from generator.domain.queries import default_edition, other_names, value_at_edition
from generator.core.releases import UNRELEASED
# A number is read as the generated modules' lookup() reads it: one rule, in one place.
from generator.rendering.runtime.module_runtime import _TOO_LONG as TOO_LONG, _number as key_number


class NotFound(LookupError):
    """No code matches a key; the message names the closest ones."""


def _exists_key(code) -> str:
    return "exists_both" if code.in_python and code.in_c else "exists_python" if code.in_python else "exists_c"


def find_codes(families: Sequence[Family], key: str) -> list[tuple[Family, Code]]:
    """The code a key names in each of `families` that has one; NotFound, naming the closest
    names of all of them, when none has."""
    found = [(family, code) for family in families if (code := _find(family, key)) is not None]
    if found:
        return found
    text = key.strip()
    where = families[0].id if len(families) == 1 else "any family"
    value = key_number(text, lambda name: any(_by_name(f, name) for f in families))
    if value is TOO_LONG:
        raise NotFound(f"no code of {where} has a value of {len(text)} digits")
    if value is not None:
        raise NotFound(f"no code of {where} has the value {text}")
    raise NotFound(f"no code of {where} is named or logged as {key!r}{_closest(families, text)}")


def _find(family: Family, key: str) -> Optional[Code]:
    text = key.strip()
    value = key_number(text, lambda name: _by_name(family, name) is not None)
    if value is TOO_LONG:
        return None
    if value is not None:
        return next((code for code in family.codes if code.value == value), None) \
            or next((code for code in family.codes if value in code.values), None)
    return _by_name(family, text)


def _by_name(family: Family, text: str) -> Optional[Code]:
    folded = text.casefold()
    for code in family.codes:
        names = (*code.python_names, *code.c_names, *(n.name for n in code.cpp), *(n.short for n in code.cpp),
                 code.wrapper)  # the binding's constant (kLLMTimeout), as the site's /codes/kLLMTimeout/ reads it
        if any(n is not None and n.casefold() == folded for n in names):
            return code
    for code in family.codes:
        if code.log_message is not None and code.log_message.casefold() == folded:
            return code
    return None


# -- a pasted log line ---------------------------------------------------------------------------------------

MAX_LINE = 10_000  # characters of a log line read (a longer one is cut: no message is that long)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,199}|0[xX][0-9a-fA-F]{1,16}")
# the number a line logs as its status, decimal or hex: after ret, status, code, error or ErrorNo (with
# =, :, a space or "is"), as the site's search reads it (ret = 1343270938, status_code: 0x5010B01A, and
# CANN's own error lines: `ErrorNo: 1343270938(Process timeout.)`)
_KEYED = re.compile(r"\b(?:ret|status|code|error|errorno)(?:_code)?(?:\s*[=:]\s*|\s+(?:is\s+)?)"
                    r"([-+]?(?:0x[0-9a-f]{1,16}|\d{1,20}))\b", re.IGNORECASE)


@dataclass(frozen=True)
class LineMatch:
    """What a log line names: a code, how it was found (a name or value in the line, or its
    message matched against the code's), and the values its message's placeholders took."""

    family: Family
    code: Code
    how: str  # "name", "value" or "message"
    placeholders: tuple[str, ...] = ()


def match_line(families: Sequence[Family], line: str,
               messages: Sequence[MessageFamily] = ()) -> list[Union[LineMatch, MessageMatch]]:
    """The codes a pasted log line is about: a name or a hex value in it wins (the first there,
    in each family that has it), then the number it logs as a status (`ret = 103901`); otherwise
    its message is matched against every code's logged message as a template (each %s takes any
    text): the most specific wins, equal ones are all answers. Work linear in the line's length
    (generator/rendering/runtime/message_match.py)."""
    from generator.rendering.runtime.message_match import all_matches, most_specific, template_pieces

    line = line[:MAX_LINE]
    by_id = ids_in(messages, line)  # a family of messages: an id in the line wins
    if by_id:
        return list(by_id)
    names = [_names_as_written(f) for f in families]
    for word in _WORD.findall(line):
        if word[:2] in ("0x", "0X"):
            named = [LineMatch(f, c, "value") for f in families if (c := _find(f, word)) is not None]
        else:  # as written: "timeout" in a message is a word, TIMEOUT a name
            named = [LineMatch(f, found[word], "name") for f, found in zip(families, names) if word in found]
        if named:
            return list(named)
    for keyed in _KEYED.finditer(line):
        named = [LineMatch(f, c, "value") for f in families if (c := _find(f, keyed.group(1))) is not None]
        if named:
            return list(named)
    templates = {f"{f.id}\0{c.name}": template_pieces(c.log_message) for f in families for c in f.codes
                 if c.log_message}
    templates.update(message_templates(messages))
    family_by_id = {f.id: f for f in families}
    found: list[Union[LineMatch, MessageMatch]] = []
    matched = all_matches(line, templates)
    # a template the line fits less closely is no answer, but a reader is told of its code: its
    # placeholder may hold the words the closer one has as its own (`Value %s for parameter %s`)
    best = most_specific(matched)
    answers = {key.split("\0")[2] for key, _ in best if key.startswith("m\0")}
    also = tuple(dict.fromkeys(ident for score, key, _ in matched if key.startswith("m\0")
                               and (ident := key.split("\0")[2]) not in answers))
    for key, values in best:
        if key.startswith("m\0"):
            match = from_key(messages, key, values, also)
            if not any(isinstance(m, MessageMatch) and m.code is match.code for m in found):
                found.append(match)
        else:
            fid, name = key.split("\0")
            found.append(LineMatch(family_by_id[fid], family_by_id[fid].code_by_name[name], "message", values))
    return found


def _names_as_written(family: Family) -> dict[str, Code]:
    """Every name a code of the family has had, as its sources write it (Python, C with and
    without the family's macro prefix, C++ without its namespace)."""
    found: dict[str, Code] = {}
    for code in family.codes:
        for name in (*code.python_names, *code.c_names, *(family.c.macro_prefix + n for n in code.c_names),
                     *(n.short for n in code.cpp), *((code.wrapper,) if code.wrapper else ())):
            found.setdefault(name, code)
    return found


def line_data(site: Site, match: LineMatch, lang: str, edition: Optional[Edition] = None) -> dict:
    """A match as data (`explain --json`): the code, how it was found, the placeholders' values,
    and what the edition (`--edition`, else the default one) says."""
    family, code = match.family, match.code
    edition = edition or default_edition(family, code)
    said = {f: code.text(f, edition.id, lang) if edition else None for f in ("meaning", "solution")}
    row = edition.row_by_code.get(code.name) if edition else None
    return {"family": family.id, "code": code.name, "value": code.value, "hex": code.hex, "found_by": match.how,
            "page": site_page(site, family.prefix, code.name, lang),
            "log_message": code.log_message, "placeholders": list(match.placeholders),
            "edition": edition.id if edition else None, **said,
            "recoverable": row.recoverable if row else None,
            "said_otherwise": [{"edition": e.id, "recoverable": value} for e, value in _others(family, code, edition)]
            if row and edition else []}


def _closest(families: Sequence[Family], text: str) -> str:
    """The three names (or logged messages) of any of the families most like `text` as
    written or in upper case, best first, each with its family when there are several."""
    owners: dict[str, list[str]] = {}
    for family in families:
        for name in sorted({n for c in family.codes for n in (*c.python_names, *c.c_names, c.log_message) if n}):
            owners.setdefault(name, []).append(family.id)
    scores = []
    for name in owners:
        score = 0.0
        for wanted in dict.fromkeys((text, text.upper())):
            matcher = difflib.SequenceMatcher(None, wanted, name)
            if matcher.real_quick_ratio() >= 0.5 and matcher.quick_ratio() >= 0.5:
                score = max(score, matcher.ratio())
        if score >= 0.5:
            scores.append((-score, name))
    best = [name for _, name in sorted(scores)[:3]]
    if len(families) > 1:
        best = [f"{name} ({', '.join(owners[name])})" for name in best]
    return f"; closest: {', '.join(best)}" if best else ""


def width(text: str) -> int:
    """Display width in a terminal: East Asian wide and full-width characters take two columns."""
    return sum(
        2 if unicodedata.east_asian_width(ch) in ("W", "F") else 0 if unicodedata.combining(ch) else 1 for ch in text
    )


def pad(text: str, columns: int) -> str:
    return text + " " * max(0, columns - width(text))


def explain(site: Site, family: Family, code: Code, lang: str, edition: Optional[Edition]) -> str:
    label = partial(site.label, lang=lang)
    listing = family.editions_listing(code)
    shown = edition or default_edition(family, code)
    lines = [
        f"{code.name}  ({family.name[lang]})",
        f"  {label('site_page')}: {site_page(site, family.prefix, code.name, lang)}",
        f"  {label('python_name')}: {code.python_name or '—'}",
        f"  {label('c_name')}: {family.c.macro_prefix + code.c_name if code.c_name else '—'}",
        f"  {label('hex')}: {code.hex}   {label('decimal')}: {code.value}",
        f"  {label('exists_in')}: {label(_exists_key(code))}",
    ]
    if code.cpp:
        lines.append(
            f"  {label('cpp_names')}: "
            + ", ".join(f"{n.name} ({n.header or label('declared_outside')})" for n in code.cpp)
        )
    if code.log_message is not None:
        lines.append(f"  {label('log_message')}: {code.log_message}")
    lines += [f"  {label('renamed')}: {name}: {what}" for name, what in other_names(family, code)]
    lines += [f"  {label('earlier_value')}: {hex_value(e.value)} ({e.value}), " + ", ".join(
        _filled(label("held_until"), repo, release) for repo, release in e.until)
        for e in reversed(code.earlier) if e.value is not None]
    lines += [f"  {label('removed')}: {_filled(label('removed_from'), repo, release)}"
              for repo, release in code.removed]
    lines += [f"  {label('removed')}: {_filled(label(f'removed_from_{api}'), repo, release)}"
              for repo, api, release in code.removed_api]
    lines.append(f"  {label('listed_by')}: {', '.join(e.id for e in listing) or label('listed_by_none')}")
    if shown is not None:
        lines += _edition_lines(family, code, shown, lang, label)
    lines.append(f"{label('history')}:")
    for page in family.pages:
        if code.name_on(page) is None:
            continue
        for timeline in page.timelines:
            steps = changes.history(family, code, timeline)
            if not steps:
                continue
            lines.append(f"  {page.name[lang]} · {timeline.name[lang]}:")
            if all(step.presence == Presence.NOT_LISTED for step in steps):
                lines.append(f"    {label('not_listed')} ({', '.join(s.edition.id for s in steps)})")
                continue
            id_width = max(width(s.edition.id) for s in steps) + 2
            state_width = max(width(label(s.presence.label_key)) for s in steps) + 2
            value_width = max(width(_recoverable(family, s.recoverable, lang)) for s in steps) + 2
            for step in steps:
                events = ", ".join(label(e.value) for e in step.events)
                lines.append(
                    (
                        "    "
                        + pad(step.edition.id, id_width)
                        + pad(label(step.presence.label_key), state_width)
                        + pad(_recoverable(family, step.recoverable, lang), value_width)
                        + events
                    ).rstrip()
                )
    if code.notes:
        lines += [f"{label('notes')}:", _indent(code.notes[lang])]
    return "\n".join(lines) + "\n"


def _filled(text: str, repo: str, release: str) -> str:
    """A label with its {repo} and {release} filled, as plain text."""
    return text.replace("{repo}", repo).replace("{release}", release)


def _edition_lines(family: Family, code: Code, edition: Edition, lang: str, label) -> list[str]:
    row = edition.row_by_code.get(code.name)
    lines = [f"{label('edition')} {edition.id} ({edition.page.name[lang]} · {edition.timeline.name[lang]}):"]
    if row is None:
        lines.append(f"  {label(changes.presence(edition, code).label_key)}")
        return lines
    lines.append(f"  {edition.page.heading('recoverable', lang)}: {_recoverable(family, row.recoverable, lang)}")
    lines += _said_otherwise(family, code, edition, lang, label)
    for field_name in edition.page.text_fields:
        entry = code.entry(field_name, edition.id, lang)
        marked = entry is not None and entry.origin in ("translation", "untranslated", "proposed")
        mark = f" ({label(entry.origin)})" if marked and entry is not None else ""
        lines.append(f"  {edition.page.heading(field_name, lang)}{mark}:")
        lines.append(_indent(entry.text if entry is not None else label("text_not_known"), 4))
    return lines


def _said_otherwise(family: Family, code: Code, edition: Edition, lang: str, label) -> list[str]:
    """Where the other pages of the edition's release give the code another recoverability (the
    site says it at the top of the card): a line per page, its editions and what they say."""
    others: dict[tuple[str, str], list[str]] = {}
    for other, value in _others(family, code, edition):
        others.setdefault((other.page.name[lang], value), []).append(other.id)
    if not others:
        return []
    release = label("api_unreleased") if edition.release == UNRELEASED else \
        label("api_release").replace("{release}", edition.release)
    lines = [f"  {label('answer_others').replace('{release}', release)}"]
    for (page, value), ids in others.items():
        lines.append(f"    {page} ({', '.join(ids)}): {_recoverable(family, value, lang)}")
    return lines


def _others(family: Family, code: Code, edition: Edition) -> list[tuple[Edition, str]]:
    """The other editions of the edition's release that give the code another known
    recoverability than it does, each with theirs."""
    said = edition.row_by_code[code.name].recoverable
    found: list[tuple[Edition, str]] = []
    for other in family.release_editions(edition.release):
        row = other.row_by_code.get(code.name)
        if row is not None and "not known" not in (said, row.recoverable) and row.recoverable != said:
            found.append((other, row.recoverable))
    return found


def _recoverable(family: Family, value: Optional[str], lang: str) -> str:
    return family.recoverable_label(value, lang) if value else "—"


def _indent(text: str, columns: int = 2) -> str:
    return "\n".join(" " * columns + line for line in text.split("\n"))


# -- diff ---------------------------------------------------------------------------------------------------


def _values_changed(family: Family, diff: changes.EditionDiff) -> list[dict]:
    """The codes both editions list whose value their repositories' files give otherwise at the
    two releases (a value fixed under a kept name: the pages' rows do not show values)."""
    both = [c for c in family.codes if c.name in diff.old.row_by_code and c.name in diff.new.row_by_code]
    return [{"code": c.name, "before": hex_value(value_at_edition(c, diff.old)),
             "after": hex_value(value_at_edition(c, diff.new))}
            for c in both if value_at_edition(c, diff.old) != value_at_edition(c, diff.new)]


def diff_data(family: Family, diff: changes.EditionDiff, lang: str) -> dict:
    presence = [c for c in diff.presence if c.code not in diff.added + diff.dropped]
    return {
        "family": family.id, "old": diff.old.id, "new": diff.new.id, "lang": lang,
        "same_timeline": diff.old.timeline.id == diff.new.timeline.id,
        "added": list(diff.added), "dropped": list(diff.dropped),
        "renamed": [vars(c) for c in diff.renamed],
        "moved": [vars(c) for c in diff.moved],
        "presence": [{"code": c.code, "before": c.before.value, "after": c.after.value} for c in presence],
        "recoverable": [vars(c) for c in diff.recoverable],
        "became_known": [vars(c) for c in diff.became_known],
        "texts": [vars(c) for c in diff.texts if c.lang == lang],
        "texts_known": lang in diff.texts_comparable,
        # upstream's words changed in another language alone (this language's text stayed the same)
        "reworded_elsewhere": [vars(c) for c in diff.elsewhere_for(lang)],
        "values": _values_changed(family, diff),
    }


def diff_text(site: Site, family: Family, diff: changes.EditionDiff, lang: str) -> str:
    label = partial(site.label, lang=lang)
    data = diff_data(family, diff, lang)
    lines = [f"{diff.old.id} → {diff.new.id}"]
    if not data["same_timeline"]:
        lines.append(f"({diff.old.timeline.name[lang]} → {diff.new.timeline.name[lang]})")
    for key in ("added", "dropped"):
        if data[key]:
            lines.append(f"{label(key)}: {', '.join(data[key])}")
    for change in data["presence"]:
        lines.append(
            f"{change['code']}: {label(Presence(change['before']).label_key)} → "
            f"{label(Presence(change['after']).label_key)}"
        )
    if data["renamed"]:
        lines.append(f"{label('renamed_row')}:")
        lines += [f"  {c['before']} → {c['after']}" for c in data["renamed"]]
    if data["moved"]:
        lines.append(f"{label('moved_row')}:")
        lines += [f"  {c['code']}: {c['before']} → {c['after']}" for c in data["moved"]]
    for key in ("recoverable", "became_known"):
        if data[key]:
            lines.append(f"{label('recoverable_changed' if key == 'recoverable' else 'became_known')}:")
            lines += [
                f"  {c['code']}: {_recoverable(family, c['before'], lang)} → {_recoverable(family, c['after'], lang)}"
                for c in data[key]
            ]
    if data["values"]:
        lines.append(f"{label('values_changed')}:")
        lines += [f"  {c['code']}: {c['before']} → {c['after']}" for c in data["values"]]
    if data["texts"]:
        lines.append(f"{label('texts_changed')}:")
        for change in data["texts"]:
            # a side that is another language's text, its translation still to be written, says so: a text
            # that only became translated is no change of wording
            sides = [side for side, flag in (("before", change["before_untranslated"]),
                                             ("after", change["untranslated"])) if flag]
            mark = "" if not sides else f" ({label('untranslated')})" if sides == ["after"] else \
                " (" + "; ".join(f"{label(side)}: {label('untranslated')}" for side in sides) + ")"
            lines.append(f"  {change['code']} ({diff.new.page.heading(change['field'], lang)}){mark}:")
            lines += _text_diff(change["before"], change["after"])
    elif not data["texts_known"]:
        lines.append(label("text_not_known"))
    if data["reworded_elsewhere"]:
        lines.append(f"{label('reworded_elsewhere')}:")
        for change in data["reworded_elsewhere"]:
            lines.append(f"  {change['code']} ({diff.new.page.heading(change['field'], lang)}, {change['lang']}):")
            lines += _text_diff(change["before"], change["after"])
    if len(lines) == 1 + (not data["same_timeline"]):
        lines.append(label("no_changes"))
    return "\n".join(lines) + "\n"


def _text_diff(before: str, after: str) -> list[str]:
    diff = difflib.unified_diff(before.split("\n"), after.split("\n"), lineterm="", n=1)
    return ["    " + line for line in list(diff)[2:]]
