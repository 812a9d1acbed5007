"""`import`: bring an upstream page into the catalog as an edition's rows, texts and sources.

The page is read as `audit` reads it (generator.pagereader: links become their
text, escapes their characters, lists bullets and steps). A new edition goes
to its place in release order within the family; an existing one is updated.
The YAML is edited with ruamel.yaml's round trip, so comments, key order and
blank lines outside the changed entries survive. A text equal to one already
written (same language and origin) is shared: its entry gains the edition.
Importing the same page twice changes nothing. The edited catalog is
validated before anything is written.
"""
from __future__ import annotations

import copy
import io
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import CommentMark
from ruamel.yaml.tokens import CommentToken
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, LiteralScalarString, SingleQuotedScalarString

from generator.audit import recoverable_value
from generator.catalog import catalog_groups, display_path, load_catalog
from generator.model import Catalog, Family, Timeline
from generator.outputs import atomic_write
from generator.pagereader import read_table
from generator.problems import CatalogError, Pos, Problem
from generator.upstream import UnreadableFile, read_file
from generator.versions import edition_order, release_key


class ImportProblem(Exception):
    """The page cannot be imported as it is; nothing was written."""


@dataclass(frozen=True)
class PageSource:
    text: str
    shown: str  # how messages name the page
    is_html: bool
    source: dict  # the edition's source entry (repo/path/commit/tags, or url)


def read_source(catalog: Catalog, args) -> PageSource:
    if args.page is not None:
        try:
            text = read_file(args.page)
        except UnreadableFile as error:
            raise ImportProblem(f"{args.page}:{error.line}: cannot read the page: {error.message}") from None
        source = {"url": args.url} if args.url else {}
        return PageSource(text, str(args.page), str(args.page).lower().endswith((".html", ".htm")), source)
    from generator.audit_upstream import parse_upstream_args
    from generator.commands import UsageError
    from generator.gitrepo import GitError

    if not args.ref or not args.path:
        raise UsageError("--upstream needs --ref TAG and --path PATH: the tag (or branch) and the page's path")
    if args.ref.startswith("-"):
        raise UsageError(f"--ref {args.ref!r}: a tag, branch or commit never begins with -")
    [(name, repo)] = parse_upstream_args([args.upstream], catalog).items()
    try:
        repo.commit(args.ref)
    except GitError:
        tags = repo.release_tags()
        raise UsageError(f"--ref {args.ref}: no such tag, branch or commit in {name}; "
                         f"its release tags: {', '.join(tags[-5:]) or 'none'}") from None
    blob = repo.blob_at(args.ref, args.path)
    if blob is None:
        raise UsageError(f"--path {args.path}: no such file at {args.ref} in {name}; "
                         f"`git ls-tree -r --name-only {args.ref}` lists its files")
    shipping = [t for t in repo.release_tags() if repo.blob_at(t, args.path) == blob]
    if shipping:
        source = {"repo": name, "path": args.path, "commit": repo.commit(shipping[0]), "tags": shipping}
    elif repo.commit(args.ref) == repo.commit("HEAD"):
        source = {"repo": name, "path": args.path, "commit": repo.commit(args.ref), "branch": repo.head_branch()}
    else:  # a commit on no tag and not the branch's head (upstream's English pages)
        source = {"repo": name, "path": args.path, "commit": repo.commit(args.ref), "tags": []}
    shown = f"{name}:{args.path}@{args.ref}"
    try:
        text = repo.read_text(blob)
    except UnreadableFile as error:
        raise ImportProblem(f"{shown}:{error.line}: cannot read the page: {error.message}") from None
    return PageSource(text, shown, False, source)


@dataclass(frozen=True)
class ImportedRow:
    name: str  # the name the page's rows use
    code: str  # the code's catalog name
    recoverable: str
    texts: tuple[tuple[str, str], ...]  # (field, text)


def timeline_of(family: Family, edition_id: str) -> tuple[Timeline, str]:
    """The timeline whose suffix the id ends with (the longest), and the release before it."""
    best: Optional[tuple[Timeline, str]] = None
    for timeline in family.timelines:
        for tail in (timeline.suffix + "-repo", timeline.suffix):
            release = edition_id[: len(edition_id) - len(tail)] if tail else edition_id
            if edition_id.endswith(tail) and release_key(release) is not None:
                if best is None or len(timeline.suffix) > len(best[0].suffix):
                    best = (timeline, release)
                break
    if best is None:
        raise ImportProblem(f"edition {edition_id!r} fits no timeline of {family.id}: its id is RELEASE + one of "
                            + ", ".join(repr(t.suffix) for t in family.timelines))
    return best


def read_rows(family: Family, timeline: Timeline, lang: str, page: PageSource) -> list[ImportedRow]:
    page_def = family.page_by_id[timeline.page]
    table = read_table(page.text, page_def.headings, is_html=page.is_html)
    problems = [f"{page.shown}:{line}: {message}" for line, message in table.problems]
    if table.conflicts:
        problems.append(f"{page.shown}:{table.conflicts[0][0]}: the page holds merge-conflict markers: "
                        "record the edition by hand, with its `malformations`")
    if table.lang and table.rows and table.lang != lang:
        problems.append(f"{page.shown}:{table.heading_line}: the page's headings are {table.lang}, not {lang}; pass --lang {table.lang}")
    by_key = {(str(c.value) if page_def.first_column == "decimal" else c.name_on(page_def)): c for c in family.codes
              if c.name_on(page_def)}
    rows = []
    for row in table.rows:
        key = row.by_column["name"].text.strip() if "name" in row.by_column else ""
        code = by_key.get(key)
        cell = row.by_column.get("recoverable")
        value = recoverable_value(family, cell.text if cell else "", lang)
        if code is None:
            problems.append(f"{page.shown}:{row.line}: no code {key!r} of this page's kind in {family.id}; add it to the codes first")
        elif value is None:
            problems.append(f"{page.shown}:{row.line}: {key}: recoverable cell {cell.text if cell else ''!r} is none of the family's labels")
        elif len(row.cells) != len(table.columns):
            problems.append(f"{page.shown}:{row.line}: {key}: the row has {len(row.cells)} cells and the headings {len(table.columns)}")
        else:
            texts = tuple((f, row.by_column[f].text) for f in page_def.text_fields if f in row.by_column)
            rows.append(ImportedRow(key, code.name, value, texts))
    if problems:
        raise ImportProblem("\n".join(problems))
    return rows


def import_page(location: Path, catalog: Catalog, family: Family, edition_id: str, lang: str, page: PageSource) -> tuple[list[Path], str]:
    """Apply the import to the family's catalog files; returns the files that changed and a summary."""
    timeline, release = timeline_of(family, edition_id)
    rows = read_rows(family, timeline, lang, page)
    yaml = round_trip()
    files = _family_files(location, family)
    documents = {path: yaml.load(path.read_text(encoding="utf-8")) for path in files}
    editions_doc = next(d for d in documents.values() if isinstance(d, dict) and "editions" in d)
    codes_doc = next(d for d in documents.values() if isinstance(d, dict) and "codes" in d)
    primary = lang == family.languages[0]
    existing = family.edition_by_id.get(edition_id)
    if existing is None and not primary:
        raise ImportProblem(f"edition {edition_id} does not exist yet: import its {family.languages[0]} page first")
    entry = _edition_entry(editions_doc["editions"], family, edition_id, release, timeline)
    dropped = _apply_rows(entry, rows, lang, primary, family, existing)
    _apply_source(entry, page.source, lang)
    if existing is None:
        _separate(editions_doc["editions"], entry)
    order = {e.id: e.order_key for e in family.editions}
    order[edition_id] = _new_order_key(family, edition_id, release, timeline)
    _apply_texts(codes_doc["codes"], rows, edition_id, lang, dropped, order)
    rendered = {path: _dump(yaml, document) for path, document in documents.items()}
    changed = {path: text for path, text in rendered.items() if text != path.read_text(encoding="utf-8")}
    _validate(location, rendered)
    for path, text in changed.items():
        atomic_write(path, text.encode("utf-8"))
    return sorted(changed), f"{len(rows)} rows into edition {edition_id} ({lang}) of {family.id}, timeline {timeline.id}"


def round_trip() -> YAML:
    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def _family_files(location: Path, family: Family) -> list[Path]:
    shown = set(family.files)
    return [path for _, paths in catalog_groups(location) for path in paths if display_path(path) in shown]


def _dump(yaml: YAML, document) -> str:
    out = io.StringIO()
    yaml.dump(document, out)
    return out.getvalue()


def _validate(location: Path, rendered: dict[Path, str]) -> None:
    """Load the edited catalog from a scratch copy; CatalogError (naming the real files) stops the import."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "catalog"
        real: dict[str, str] = {}
        base = location if location.is_dir() else location.parent
        for _, paths in catalog_groups(location):
            for path in paths:
                copy_path = root / path.relative_to(base)
                copy_path.parent.mkdir(parents=True, exist_ok=True)
                copy_path.write_text(rendered.get(path, path.read_text(encoding="utf-8")), encoding="utf-8")
                real[display_path(copy_path)] = display_path(path)
        try:
            load_catalog(root if location.is_dir() else root / location.name)
        except CatalogError as error:
            raise CatalogError(
                Problem(Pos(real.get(p.pos.path, p.pos.path), p.pos.line, p.pos.col), f"{p.message} (after the import)")
                for p in error.problems) from None


# -- editions -----------------------------------------------------------------------------------------


def _edition_entry(editions: CommentedSeq, family: Family, edition_id: str, release: str, timeline: Timeline) -> CommentedMap:
    for entry in editions:
        if str(entry.get("id")) == edition_id:
            return entry
    entry = CommentedMap()
    entry["id"] = SingleQuotedScalarString(edition_id)
    entry["release"] = SingleQuotedScalarString(release)
    entry["timeline"] = timeline.id
    entry["sources"] = CommentedSeq()
    entry["texts"] = _flow([])
    entry["order"] = "page"
    entry["rows"] = CommentedMap()
    key = _new_order_key(family, edition_id, release, timeline)
    position = len(editions)
    for index, other in enumerate(editions):
        other_edition = family.edition_by_id.get(str(other.get("id")))
        if other_edition is not None and other_edition.order_key > key:
            position = index
            break
    editions.insert(position, entry)
    return entry


def _new_order_key(family: Family, edition_id: str, release: str, timeline: Timeline) -> tuple:
    return edition_order(release, family.page_by_id[timeline.page].index, timeline.index, edition_id.endswith("-repo"))


def _separate(editions: CommentedSeq, entry: CommentedMap) -> None:
    """A blank line between a new edition and its neighbours, as the catalog writes them."""
    index = next(i for i, other in enumerate(editions) if other is entry)
    if index > 0:
        _blank_line_after(editions[index - 1])
    if index < len(editions) - 1:
        _blank_line_after(entry)


def _blank_line_after(entry: CommentedMap) -> None:
    """ruamel keeps the blank line after an entry on its last (innermost) key."""
    node = entry
    while node:
        key = list(node)[-1]
        value = node[key]
        if isinstance(value, CommentedMap) and value and not value.fa.flow_style():
            node = value
            continue
        if node.ca.items.get(key):
            return  # a blank line or a comment already follows
        newline = "\n" if isinstance(value, LiteralScalarString) else "\n\n"
        node.ca.items[key] = [None, None, CommentToken(newline, CommentMark(0), None), None]
        return


def _quoted(value: str):
    # Quoted as the catalog writes them: a YAML 1.1 reader would take yes/no for booleans.
    return DoubleQuotedScalarString(value) if value in ("yes", "no") else value


def _apply_rows(entry: CommentedMap, rows: list[ImportedRow], lang: str, primary: bool, family: Family, existing) -> set[str]:
    """Set the edition's rows from the page (its first language's page), or record where another
    language's page disagrees; returns the codes it no longer lists."""
    old = entry.get("rows") or CommentedMap()
    if not primary:
        listed = {r.code for r in existing.rows}
        if {r.code for r in rows} != listed:
            raise ImportProblem(f"the {lang} page lists other codes than edition {existing.id} does: "
                                f"only on it: {sorted({r.code for r in rows} - listed)}, only in the catalog: {sorted(listed - {r.code for r in rows})}")
        for row in rows:
            ours = existing.row_by_code[row.code].recoverable
            current = old[row.name]
            if row.recoverable != ours:
                mapping = current if isinstance(current, dict) else CommentedMap([("recoverable", _quoted(ours))])
                mapping[lang] = _quoted(row.recoverable)
                mapping.fa.set_flow_style()
                old[row.name] = mapping
            elif isinstance(current, dict) and lang in current:
                del current[lang]
        _add_language(entry, lang, family)
        return set()
    rows_map = CommentedMap()
    for row in rows:
        current = old.get(row.name)
        if isinstance(current, dict) and str(current.get("recoverable")) == row.recoverable:
            rows_map[row.name] = current  # keeps what other languages' pages say
        else:
            rows_map[row.name] = _quoted(row.recoverable)
    dropped = {name for name in old if name not in rows_map}
    unknown = entry.get("not_listed_not_known")
    if unknown is not None:  # the page settles whether it lists these
        for name in [n for n in unknown if n in rows_map]:
            unknown.remove(name)
        if not unknown:
            del entry["not_listed_not_known"]
    if dict(old) != dict(rows_map) or list(old) != list(rows_map):
        entry["rows"] = rows_map
    if entry.get("order") != "page":
        entry["order"] = "page"
    _add_language(entry, lang, family)
    return {_code_name(family, entry, name) for name in dropped}


def _code_name(family: Family, entry, name: str) -> str:
    page = family.page_by_id[family.timeline_by_id[str(entry["timeline"])].page]
    for code in family.codes:
        if code.name_on(page) == name:
            return code.name
    return name


def _add_language(entry: CommentedMap, lang: str, family: Family) -> None:
    texts = entry.get("texts")
    languages = [str(v) for v in texts] if isinstance(texts, list) else []
    if lang not in languages:
        ordered = [l for l in family.languages if l in languages + [lang]]
        entry["texts"] = _flow(ordered)


def _apply_source(entry: CommentedMap, source: dict, lang: str) -> None:
    if not source:
        if not entry.get("sources"):
            raise ImportProblem("a new edition needs a source: import with --upstream OWNER/NAME=DIR --ref --path, or give --url")
        return
    wanted = dict(source, lang=lang)
    sources = entry.setdefault("sources", CommentedSeq())
    for existing in sources:
        if {k: (list(v) if isinstance(v, list) else str(v)) for k, v in existing.items()} == \
                {k: (list(v) if isinstance(v, list) else v) for k, v in wanted.items()}:
            return
    item = CommentedMap()
    for key in ("repo", "path", "commit", "tags", "branch", "url", "lang"):
        if key in wanted:
            item[key] = _flow(wanted[key]) if isinstance(wanted[key], list) else _flow_scalar(wanted[key])
    item.fa.set_flow_style()
    sources.append(item)


def _flow_scalar(text: str):
    """Quoted where a plain scalar inside {...} would not read back as this text: a URL's ':',
    the flow indicators, or something that reads as a number (an all-digit commit)."""
    if re.search(r"[:#,\[\]{}&*!|>'\"%`@]", text) or text[:1] in "-?" or re.fullmatch(r"[0-9.eE+_-]+", text):
        return DoubleQuotedScalarString(text)
    return text


# -- texts ---------------------------------------------------------------------------------------------


def _apply_texts(codes: CommentedSeq, rows: list[ImportedRow], edition: str, lang: str, dropped: set[str], order: dict) -> None:
    by_name = {str(c.get("python") or c.get("c")): c for c in codes}
    for name in dropped:
        for field_name in ("meaning", "cause", "solution"):
            entries = by_name[name].get(field_name)
            for item in list(entries or ()):
                _remove_edition(entries, item, edition)
            if field_name in by_name[name] and not by_name[name][field_name]:
                del by_name[name][field_name]
    for row in rows:
        for field_name, text in row.texts:
            _set_text(by_name[row.code], field_name, edition, lang, text, order)


def _set_text(code: CommentedMap, field_name: str, edition: str, lang: str, text: str, order: dict) -> None:
    if field_name not in code:
        code[field_name] = CommentedSeq()
    entries: CommentedSeq = code[field_name]
    trailing = _pop_trailing_comment(entries)
    try:
        _edit_entries(entries, edition, lang, text, order)
    finally:
        _put_trailing_comment(entries, trailing)


def _pop_trailing_comment(entries: CommentedSeq):
    """The blank line or comment after a list sits on its last entry's last key: lift it off."""
    if entries and isinstance(entries[-1], CommentedMap) and entries[-1]:
        last = entries[-1]
        key = list(last)[-1]
        return last.ca.items.pop(key, None), isinstance(last[key], LiteralScalarString)
    return None, False


def _put_trailing_comment(entries: CommentedSeq, trailing) -> None:
    token, after_block = trailing
    if token is None or not entries or not isinstance(entries[-1], CommentedMap) or not entries[-1]:
        return
    last = entries[-1]
    key = list(last)[-1]
    now_block = isinstance(last[key], LiteralScalarString)
    comment = token[2]
    if comment is not None and after_block != now_block:
        # A block scalar ends its own line; a plain one needs the newline in the token.
        comment.value = comment.value[1:] if now_block else "\n" + comment.value
    last.ca.items[key] = token


def _origin(entry) -> str:
    return str(entry.get("origin", "upstream"))


def _edit_entries(entries: CommentedSeq, edition: str, lang: str, text: str, order: dict) -> None:
    for entry in list(entries):
        if lang in entry and edition in _ids(entry):
            if entry[lang] == text and _origin(entry) == "upstream":
                return  # already so
            single = _split_off(entries, entry, lang)
            _remove_edition(entries, single, edition)
    same = [e for e in entries if lang in e and e[lang] == text and _origin(e) == "upstream"]
    if same:
        target = same[0] if _texts_in(same[0]) == 1 else _split_off(entries, same[0], lang)
        ids = target["editions"]
        key = order.get(edition)
        position = next((i for i, other in enumerate(ids) if key is not None and order.get(str(other), key) > key), len(ids))
        ids.insert(position, SingleQuotedScalarString(edition))
        return
    entry = CommentedMap()
    entry["editions"] = _flow([edition], quoted=True)
    entry[lang] = LiteralScalarString(text) if "\n" in text else text
    entries.append(entry)


def _texts_in(entry: CommentedMap) -> int:
    return sum(1 for key in entry if key not in ("editions", "origin"))


def _split_off(entries: CommentedSeq, entry: CommentedMap, lang: str) -> CommentedMap:
    """Move one language of a shared entry into an entry of its own (same editions and origin)."""
    if _texts_in(entry) == 1:
        return entry
    single = CommentedMap()
    single["editions"] = _flow(_ids(entry), quoted=True)
    if "origin" in entry:
        single["origin"] = entry["origin"]
    single[lang] = copy.copy(entry[lang])
    del entry[lang]
    entries.insert(entries.index(entry) + 1, single)
    return single


def _remove_edition(entries: CommentedSeq, entry: CommentedMap, edition: str) -> None:
    ids = entry["editions"]
    for index, value in enumerate(list(ids)):
        if str(value) == edition:
            del ids[index]
    if not ids:
        entries.remove(entry)


def _ids(entry: CommentedMap) -> list[str]:
    return [str(v) for v in entry.get("editions") or ()]


def _flow(items: list[str], quoted: bool = False) -> CommentedSeq:
    """A flow list; edition ids are single-quoted, as the catalog writes them ('8.10' is no number)."""
    seq = CommentedSeq(SingleQuotedScalarString(i) if quoted else i for i in items)
    seq.fa.set_flow_style()
    return seq
