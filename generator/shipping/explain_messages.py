"""`explain` for a family of messages (GE's error codes): a code by its id, or the code a pasted log
line comes from (an id in the line wins; else its message matched against every template of every
family, the most specific winning), with the values its placeholders took and the solution."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Optional, Sequence, TypeGuard

from generator.core.releases import UNRELEASED
from generator.domain.markup import markdown_plain as plain
from generator.domain.messages import MessageCode, MessageFamily
from generator.domain.model import Site
from generator.rendering.runtime.message_match import best_matches, template_pieces
from generator.rendering.site.message_site import known_words


@dataclass(frozen=True)
class MessageMatch:
    family: MessageFamily
    code: MessageCode
    how: str  # "key", "id" or "message"
    placeholders: tuple[str, ...] = ()
    template: Optional[str] = None  # the text of its message the line matched
    also: tuple[str, ...] = ()  # the ids of other codes whose message the line fits less closely


def find_message(families: Sequence[MessageFamily], key: str) -> list[MessageMatch]:
    """The code an id names (E10003, [E10003], e10003:)."""
    ident = key.strip().strip("[]:").upper()
    return [MessageMatch(f, f.code_by_id[ident], "key") for f in families if ident in f.code_by_id]


def ids_in(families: Sequence[MessageFamily], line: str) -> list[MessageMatch]:
    """The first code whose id stands in the line as a word, with what its own templates give its placeholders."""
    words = set()
    for start in range(len(line)):
        if line[start].isalpha() and (start == 0 or not line[start - 1].isalnum()):
            end = start
            while end < len(line) and (line[end].isalnum() or line[end] == "_") and end - start < 40:
                end += 1
            words.add((start, line[start:end]))
    for _, word in sorted(words):
        for family in families:
            code = family.code_by_id.get(word)
            if code is not None:
                own = {text: template_pieces(text) for text in code.messages(family)}
                best = best_matches(line, own)
                return [MessageMatch(family, code, "id", best[0][1] if best else (), best[0][0] if best else None)]
    return []


def message_templates(families: Sequence[MessageFamily]) -> dict[str, tuple[str, ...]]:
    """Every text of every code's message, keyed `m\\0FAMILY\\0ID\\0TEXT` (for best_matches beside the others)."""
    return {f"m\0{f.id}\0{c.id}\0{text}": template_pieces(text) for f in families for c in f.codes
            for text in c.messages(f)}


def from_key(families: Sequence[MessageFamily], key: str, values: tuple[str, ...],
             also: tuple[str, ...] = ()) -> MessageMatch:
    _, family_id, ident, text = key.split("\0", 3)
    family = next(f for f in families if f.id == family_id)
    return MessageMatch(family, family.code_by_id[ident], "message", values, text, also)


def also_fits(site: Site, match: MessageMatch, lang: str) -> str:
    """What explain says, under the answer, of the codes whose message the line fits less closely ("" for none)."""
    return site.labels_for(lang)["also_fits"].replace("{codes}", " ".join(match.also)) if match.also else ""


def site_page(site: Site, prefix: str, name: str, lang: str) -> str:
    """A code's page on the site, in `lang`: its path from the site's root (/en/codes/LLM_TIMEOUT/,
    /ge/codes/E10003/), under SITE_URL when the environment gives it, as `make docs` builds."""
    path = ("" if lang == site.languages[0] else f"{lang}/") + f"{prefix}codes/{name}/"
    return (os.environ.get("SITE_URL") or "").rstrip("/") + "/" + path


def placeholder_rows(match: MessageMatch, lang: str) -> list[tuple[str, str, str]]:
    """(name, meaning, value) per placeholder: the registry's name, the page's meaning where it lists one per
    placeholder (or one for all), and the value the line gave it."""
    known = match.code.placeholder_meanings(lang)
    rows = []
    for index in range(max(len(match.placeholders), len(known))):
        name, meaning = known[index] if index < len(known) else ("", "")
        value = match.placeholders[index] if index < len(match.placeholders) else ""
        rows.append((name or f"%s{index + 1}", meaning, value))
    return rows


def explain_message(site: Site, match: MessageMatch, lang: str, edition: Optional[str] = None) -> str:
    family, code = match.family, match.code
    labels = site.labels_for(lang)
    lines = [f"{code.id} {code.category}  ({family.name[lang]})",
             f"  {labels['site_page']}: {site_page(site, family.prefix, code.id, lang)}"]
    if match.how == "message":
        lines.append("  (" + labels["found_by_message"].replace("{code}", code.id) + ")")
        if match.also:
            lines.append("  " + also_fits(site, match, lang))
    message, cause, solution = _said_at(match, lang, edition)
    if _at_release(edition):  # as that release's registry says it, the message its library logs
        lines.append(f"  {labels['message_template']} ({edition}): {message}" if message is not None
                     else "  " + labels["registry_absent"].replace("{release}", str(edition)))
    elif code.template is not None:
        lines.append(f"  {labels['message_template']}: {code.template}")
    elif not code.page:
        lines.append(f"  {labels['no_page' if code.indexed else 'no_page_unindexed']}")
    rows = placeholder_rows(match, lang)
    if rows:
        lines.append(f"  {labels['placeholders']}:")
        lines += [f"    {name}" + (f" ({meaning})" if meaning else "") + (f" = {value!r}" if match.placeholders else "")
                  for name, meaning, value in rows]
    # at a release, its registry's words (English), said so: the page's in the reader's language are another text
    source = f" ({labels['from_registry'].replace('{release}', edition)})" if _at_release(edition) else ""
    if cause and cause != "N/A":
        lines.append(f"  {labels['cause']}{source}: " + plain(cause).replace("\n", "\n    "))
    if solution:
        lines.append(f"  {labels['solution']}{source}: " + plain(solution).replace("\n", "\n    "))
    if code.examples:
        lines.append(f"  {labels['examples']}:")
        lines += [f"    {example}" for example in code.examples]
    history = family.over_releases(code, "ErrMessage")
    if any(text != code.template for _, text in history):
        lines.append(f"  {labels['registry_message']}:")
        lines += [f"    {releases[0]}: {text}" for releases, text in history]
    if code.known:
        said = labels["list_separator"].join(known_words(site, family, code, lang))
        lines.append(f"  {labels['known_disagreement']}: {said}")
    return "\n".join(lines) + "\n"


def _at_release(edition: Optional[str]) -> TypeGuard[str]:
    """Whether --edition names a release (its registry answers), not the page (none, or `unreleased`)."""
    return edition not in (None, UNRELEASED)


def _said_at(match: MessageMatch, lang: str, edition: Optional[str]) -> tuple[Optional[str], ...]:
    """(message, cause, solution): the page's (in `lang`), or at a release its registry's (English;
    all None where that release does not ship the code)."""
    code = match.code
    if _at_release(edition):
        entry = code.registry_at(edition, match.family)
        if entry is None:
            return None, None, None
        suggestion: dict[str, str] = entry["suggestion"]  # type: ignore[assignment]
        return str(entry["ErrMessage"]), suggestion.get("Possible Cause"), suggestion.get("Solution")
    return code.template, code.cause_in(lang), code.solution_in(lang)


def message_data(site: Site, match: MessageMatch, lang: str, edition: Optional[str] = None) -> dict:
    """A match as data (`explain --json`); `edition`: a release, as its registry says it (`message`
    null where that release does not ship the code)."""
    code, family = match.code, match.family
    message, cause, solution = _said_at(match, lang, edition)
    return {"family": family.id, "code": code.id, "category": code.category, "found_by": match.how,
            "page": site_page(site, family.prefix, code.id, lang), "edition": edition or UNRELEASED,
            "texts_from": "registry" if _at_release(edition) else "page",
            "template": code.template, "matched": match.template, "placeholders": list(match.placeholders),
            "message": message, "also_fits": list(match.also),
            "arguments": list(code.arg_names), "meanings": [plain(m) for m in code.meanings_in(lang)],
            "cause": plain(cause) if cause else None, "solution": plain(solution) if solution else None,
            "examples": list(code.examples)}
