"""`import --upstream` for a family of messages (one page per code): the registry at a tag (which
codes the release ships, with their titles, templates, argument names and suggestions) and, at
the default branch's head, both languages' pages and the index, field by field.

The catalog's facts are recomputed, not patched: every registry release the catalog records (and
the new one) is turned back into its entries, the new facts are laid over them, and each code's
registry history is written again in its smallest form (an item only where a text changes, no
text where it is the page's own). The YAML is edited through ruamel's round trip, so that comments
and the entries nobody changed stay as they were.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from generator.core.releases import UNRELEASED, release_key
from generator.domain.messages import MessageCode, MessageFamily, default_wording, plain_or_na
from generator.importing import catalog_yaml as cy
from generator.importing.page_source import ImportProblem, Report
from generator.core.problems import CatalogError
from generator.reading.load import load_catalog
from generator.upstream.message_page import PageError, PageFields, parse_index, parse_page, parse_registry

FIELDS = ("id", "category", "page", "indexed", "template", "meanings", "wording", "examples", "numbered", "note",
          "cause", "solution", "registry", "added", "known")


def import_messages(location: Path, catalog, name: str, repo, ref: str, release: Optional[str],
                    staged: dict[Path, str], report: Report, only: Optional[str] = None) -> None:
    """Stage the catalog files of every message family that `name` keeps (or the family `only`), as
    `ref` changes them."""
    for family in (f for f in catalog.message_families if only in (None, f.id)):
        registry = family.registry is not None and family.registry.repo == name and release not in (None, UNRELEASED)
        pages = family.pages.repo == name and release == UNRELEASED
        if not registry and not pages:
            continue
        codes = {code.id: as_fields(family, code) for code in family.codes}
        order = [code.id for code in family.codes]
        entries = registry_entries(family)
        if registry:
            assert family.registry is not None and release is not None
            if repo.blob_or_none(ref, family.registry.path) is None:
                # as a source file missing at a tag: no removal, and the rest of the release is imported; a
                # person looks only where a release the catalog records is older (upstream moved the file?)
                older = [r for r in family.releases if (release_key(r) or ()) < (release_key(release) or ())]
                (report.todo if older else report.done).append(
                    f"{family.id}: {family.registry.path} is not at {ref}: no registry recorded for {release}"
                    + (" (if upstream moved it, correct message_family.registry.path)" if older else ""))
                if not pages:
                    continue
                registry = False
            else:
                entries[release] = _registry_at(family, repo, ref)
        if pages:
            order = _pages_at(family, repo, ref, codes, order, report)
        _lay_registry(family, codes, entries, report)
        _known(codes, family, report)
        _stage_codes(location, family, [codes[i] for i in order] + [codes[i] for i in sorted(codes) if i not in order],
                     staged)
        _stage_family(location, family, release if registry else None, repo.commit(ref), ref if pages else None,
                      staged)
        report.done.append(f"{family.id}: {len(codes)} codes; "
                           + (f"registry of {release}" if registry else f"pages at {ref}"))
        _validated(location, staged)


def _validated(location: Path, staged: dict[Path, str]) -> None:
    """The catalog as the import would leave it loads; else the import stops, writing nothing."""
    try:
        load_catalog(location, {path: text.encode("utf-8") for path, text in staged.items()})
    except CatalogError as error:
        raise ImportProblem("the import would leave the catalog invalid (write the change by hand):\n"
                            + "\n".join(str(problem) for problem in error.problems[:20])) from None


# -- the catalog's facts, as fields ------------------------------------------------------------------------


def as_fields(family: MessageFamily, code: MessageCode) -> dict[str, Any]:
    """A code's page fields as the catalog writes them (its registry is recomputed from the entries)."""
    fields: dict[str, Any] = {"id": code.id, "category": code.category}
    if not code.page:
        fields["page"] = False
    if not code.indexed:
        fields["indexed"] = False
    if code.template is not None:
        fields["template"] = code.template
    if code.meanings:
        fields["meanings"] = {lang: list(items) for lang, items in code.meanings}
    if code.wording:
        fields["wording"] = dict(code.wording)
    if code.page:
        fields["examples"] = list(code.examples)
    if code.numbered:
        fields["numbered"] = dict(code.numbered)
    if code.note is not None:
        fields["note"] = code.note.as_dict()
    for key in ("cause", "solution"):
        if getattr(code, key):
            fields[key] = dict(getattr(code, key))
    if code.known:
        fields["known"] = list(code.known)
    return fields


def registry_entries(family: MessageFamily) -> dict[str, dict[str, dict]]:
    """Every release's registry as the catalog says it: release -> id -> entry."""
    table: dict[str, dict[str, dict]] = {release: {} for release in family.releases}
    for (ident, release), entry in family.registry_entries.items():
        table[release][ident] = entry
    return table


def _registry_at(family: MessageFamily, repo, ref: str) -> dict[str, dict]:
    assert family.registry is not None
    path = family.registry.path
    blob = repo.blob_or_none(ref, path)
    assert blob is not None
    entries = {}
    for entry in _parsed(parse_registry, repo, ref, path, blob):
        ident = entry.get("ErrCode")
        if not isinstance(ident, str):
            raise ImportProblem(f"{repo.name}:{ref}:{path}: an entry without an ErrCode: {str(entry)[:120]}")
        entries[ident] = entry
    return entries


# -- the pages at the branch's head ------------------------------------------------------------------------


def _pages_at(family: MessageFamily, repo, ref: str, codes: dict[str, dict], order: list[str],
              report: Report) -> list[str]:
    """Lay both languages' pages over the codes; the index's order."""
    read: dict[str, dict[str, PageFields]] = {}
    indexes = {}
    for lang in family.languages:
        folder = family.pages.folder(lang)
        tree = {path[len(folder) + 1:]: blob for path, blob in repo.tree(ref).items() if path.startswith(folder + "/")}
        if family.pages.index not in tree:
            raise ImportProblem(f"{repo.name}:{ref}: no {folder}/{family.pages.index}; the family's pages are "
                                "elsewhere at this ref (message_family.pages.folders)")
        indexes[lang] = _parsed(parse_index, repo, ref, f"{folder}/{family.pages.index}", tree[family.pages.index])[1]
        for file, blob in sorted(tree.items()):
            if file == family.pages.index or not file.endswith(".md"):
                continue
            fields = _parsed(lambda text: parse_page(text, family.pages.framing_of(lang)), repo, ref,
                             f"{folder}/{file}", blob, "; if upstream changed its framing, correct "
                             "message_family.pages.framing")
            read.setdefault(fields.id, {})[lang] = fields
    order = [ident for ident, _, _ in next(iter(indexes.values()))]
    for ident, category, _ in next(iter(indexes.values())):
        codes.setdefault(ident, {"id": ident, "category": category})
        codes[ident]["category"] = category
        if ident not in read:
            _page_fields(codes[ident], None, family.languages)
            report.todo.append(f"{family.id}: {ident} is in the index but has no page; recorded with `page: false`")
    listed = set(order)
    for ident, pages in read.items():
        if ident not in order:
            order.append(ident)
            report.todo.append(f"{family.id}: {ident} has a page that the index does not list; recorded with "
                               "`indexed: false`")
        codes.setdefault(ident, {"id": ident, "category": next(iter(pages.values())).category})
        _page_fields(codes[ident], pages, family.languages)
    for ident, fields in codes.items():  # the index at the head says which codes it lists
        if ident not in listed:
            fields["indexed"] = False
    return order


def _parsed(parse: Callable[[str], Any], repo, ref: str, path: str, blob: str, hint: str = "") -> Any:
    """An upstream file of the family read by `parse`; ImportProblem at REPO:REF:PATH:LINE (and
    `hint`, what to correct) where the file breaks its layout."""
    try:
        return parse(repo.read_text(blob))
    except PageError as problem:
        raise ImportProblem(f"{repo.name}:{ref}:{path}:{problem.line}: {problem}{hint}") from None


def _page_fields(fields: dict[str, Any], pages: Optional[dict[str, PageFields]], languages: tuple[str, ...]) -> None:
    """A code's fields from its pages (None: the index lists it without a page)."""
    for key in FIELDS[2:11]:
        fields.pop(key, None)
    fields.pop("solution", None)
    if pages is None:
        fields["page"] = False
        return
    first = pages[next(lang for lang in languages if lang in pages)]
    for lang, page in pages.items():
        for key in ("category", "template", "examples"):
            if getattr(page, key) != getattr(first, key):
                raise ImportProblem(f"{first.id}: the {lang} page's {key} is not the other language's; the catalog "
                                    "holds one per code")
    fields.update(category=first.category, template=first.template)
    placeholders = first.template.count("%s")
    meanings = {lang: p.meanings for lang, p in pages.items() if p.meanings}
    if meanings:
        fields["meanings"] = meanings
    wording = {lang: p.wording for lang, p in pages.items()
               if p.meanings and p.wording != default_wording(len(p.meanings), placeholders)}
    if wording:
        fields["wording"] = wording
    fields["examples"] = list(first.examples)
    numbered = {lang: p.numbered for lang, p in pages.items()
                if first.examples and p.numbered != (len(first.examples) > 1)}
    if numbered:
        fields["numbered"] = numbered
    for key in ("note", "cause", "solution"):
        values = {lang: getattr(p, key) for lang, p in pages.items() if getattr(p, key) is not None}
        if values:
            fields[key] = values
    fields["id"] = first.id


# -- the registry's history, recomputed ---------------------------------------------------------------------


def _lay_registry(family: MessageFamily, codes: dict[str, dict], entries: dict[str, dict[str, dict]],
                  report: Report) -> None:
    """Each code's `registry` and `added` from every release's entries, in their smallest form."""
    releases = sorted(entries, key=release_key)  # type: ignore[arg-type]
    for release in releases:
        for ident, entry in entries[release].items():
            if ident not in codes:
                codes[ident] = {"id": ident, "category": str(entry.get("errTitle", "")), "page": False,
                                "indexed": False}
                report.todo.append(f"{family.id}: {ident} is new in the registry of {release}, and no page documents "
                                   "it yet (recorded with `page: false, indexed: false`; the import of the default "
                                   "branch's head brings its page and index line when upstream writes them)")
    for ident, fields in codes.items():
        shipped = [(r, entries[r][ident]) for r in releases if ident in entries[r]]
        fields.pop("registry", None)
        fields.pop("added", None)
        if not shipped:
            continue
        last = shipped[-1][1]
        if not fields.get("template"):
            fields["page"] = False
        first_release = shipped[0][0]
        if first_release != releases[0]:
            fields["added"] = first_release
        gaps = [r for r in releases if releases.index(r) > releases.index(first_release) and ident not in entries[r]]
        if gaps:
            report.todo.append(f"{family.id}: {ident} is not in the registry of {', '.join(gaps)}, after "
                               f"{first_release}; the catalog cannot record a code the registry dropped yet")
        registry: dict[str, Any] = {"args": str(last.get("Arglist", ""))}
        args_history = _history([(r, str(e.get("Arglist", ""))) for r, e in shipped], registry["args"])
        if args_history:
            registry["args_history"] = args_history
        defaults = {
            "message": fields.get("template") or "",
            "cause": plain_or_na((fields.get("cause") or {}).get("en")),
            "solution": plain_or_na((fields.get("solution") or {}).get("en")),
        }
        for key, read in (("message", lambda e: e.get("ErrMessage", "")),
                          ("cause", lambda e: (e.get("suggestion") or {}).get("Possible Cause", "")),
                          ("solution", lambda e: (e.get("suggestion") or {}).get("Solution", ""))):
            history = _history([(r, str(read(e))) for r, e in shipped], defaults[key])
            if history:
                registry[key] = history
        fields["registry"] = registry


def _history(values: list[tuple[str, str]], page: str) -> list[dict[str, str]]:
    """An item where the text changes (from the first release); none where it is the page's throughout."""
    items: list[dict[str, str]] = []
    previous: Optional[str] = page
    for release, text in values:
        if text != previous:
            items.append({"from": release} if text == page else {"from": release, "text": text})
            previous = text
    return items


def _known(codes: dict[str, dict], family: MessageFamily, report: Report) -> None:
    """Where the pages and the newest registry disagree: recorded as known, and said for a person once."""
    for ident, fields in codes.items():
        found = []
        registry = fields.get("registry")
        if registry and fields.get("template") and registry.get("message"):
            newest = registry["message"][-1]
            if "text" in newest:
                found.append("message")
        placeholders = (fields.get("template") or "").count("%s")
        if registry and fields.get("page", True) and registry["args"] and \
                len([a for a in registry["args"].split(",") if a.strip()]) != placeholders:
            found.append("arguments")
        if any(len(items) not in (1, placeholders) for items in (fields.get("meanings") or {}).values()):
            found.append("meanings")
        new = [k for k in found if k not in fields.get("known", [])]
        if found:
            fields["known"] = found
        else:
            fields.pop("known", None)
        for key in new:
            report.todo.append(f"{family.id}: {ident}: upstream's own files disagree ({_SAID[key]}); recorded as "
                               f"known (`known: [{key}]`)")


_SAID = {"message": "the registry's message is not the page's template",
         "arguments": "the registry's Arglist does not name one argument per placeholder",
         "meanings": "a page's meanings are not one per placeholder"}


# -- writing the files ------------------------------------------------------------------------------------


def _stage_codes(location: Path, family: MessageFamily, codes: list[dict], staged: dict[Path, str]) -> None:
    path, document = _document_of(location, family, "messages", staged)
    old = {item.get("id"): item for item in document.get("messages") or []}
    items = CommentedSeq()
    for fields in codes:
        item = old.get(fields["id"])
        items.append(_updated(item, fields) if isinstance(item, CommentedMap) else _mapping(fields))
    document["messages"] = items
    staged[path] = cy.dump(document)


def _stage_family(location: Path, family: MessageFamily, release: Optional[str], commit: str, branch: Optional[str],
                  staged: dict[Path, str]) -> None:
    path, document = _document_of(location, family, "message_family", staged)
    declared = document["message_family"]
    if release is not None:
        releases = declared["registry"].get("releases")
        if not isinstance(releases, CommentedMap):
            releases = CommentedMap()
            declared["registry"]["releases"] = releases
        releases[cy.ident(release)] = commit
        ordered = sorted(releases.items(), key=lambda kv: release_key(str(kv[0])))  # type: ignore[arg-type, return-value]
        for key in list(releases):
            del releases[key]
        for key, value in ordered:
            releases[cy.ident(str(key))] = value
    if branch is not None:
        declared["pages"]["commit"] = commit
    staged[path] = cy.dump(document)


def _document_of(location: Path, family: MessageFamily, section: str,
                 staged: dict[Path, str]) -> tuple[Path, CommentedMap]:
    """The family's file that holds `section`, and its document as the import has staged it."""
    for shown in family.files:
        path = Path(shown)
        candidate = path if path.is_absolute() or path.exists() else location.parent / path
        text = candidate.read_text(encoding="utf-8")
        if f"\n{section}:" in "\n" + text:
            return candidate, cy.load(staged.get(candidate) or text, str(candidate))
    raise ImportProblem(f"{family.id}: no file of the family holds `{section}:`")


def _mapping(fields: dict[str, Any]) -> CommentedMap:
    mapping = CommentedMap()
    for key in FIELDS:
        if key in fields:
            mapping[key] = _yaml(key, fields[key])
    return mapping


def _updated(item: CommentedMap, fields: dict[str, Any]) -> CommentedMap:
    """The entry with only the changed fields rewritten (its comments and the rest kept)."""
    return cy.update_mapping(item, _mapping(fields))


def _yaml(key: str, value: Any) -> Any:
    if key in ("page", "indexed"):
        return value
    if key in ("id", "category", "template"):
        return cy.text(value)
    if key == "added":
        return cy.ident(value)
    if key == "meanings":
        return CommentedMap((lang, cy.flow(items)) for lang, items in value.items())
    if key in ("wording", "numbered"):
        return cy.flow_map(value.items())
    if key == "known":
        return cy.flow(value)
    if key == "examples":
        return CommentedSeq(cy.cell(v) for v in value) if value else cy.flow([])
    if key == "registry":
        mapping = CommentedMap([("args", cy.text(value["args"]) if value["args"] else "")])
        for part in ("args_history", "message", "cause", "solution"):
            if part in value:
                mapping[part] = CommentedSeq(_said(item) for item in value[part])
        return mapping
    return CommentedMap((lang, cy.cell(text)) for lang, text in value.items())


def _said(item: dict[str, str]) -> CommentedMap:
    mapping = CommentedMap([("from", cy.ident(item["from"]))])
    if "text" in item:
        mapping["text"] = cy.cell(item["text"])
    return mapping
