"""`import`: bring an upstream page into the catalog as an edition's rows and texts.

The YAML is edited with ruamel.yaml's round trip, so comments, key order and
blank lines outside the changed entries survive. A text equal to one already
written is shared (its entry gains the edition) instead of written again, and
importing the same page twice changes nothing. The edited catalog is validated
before anything is written.
"""
from __future__ import annotations

import copy
import io
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, LiteralScalarString, SingleQuotedScalarString

from generator import upstream
from generator.audit import recoverable_value
from generator.catalog import catalog_files, display_path, load_catalog
from generator.model import Catalog, TEXT_FIELDS
from generator.outputs import atomic_write
from generator.problems import CatalogError, Pos, Problem


class ImportProblem(Exception):
    """The page cannot be imported as it is; nothing was written."""


@dataclass(frozen=True)
class PageImport:
    edition: str
    lang: str
    rows: tuple[tuple[str, str, str, str], ...]  # code, recoverable, meaning, solution


def round_trip() -> YAML:
    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def read_import(catalog: Catalog, edition: str, lang: str, page_path: Path) -> PageImport:
    try:
        source = page_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ImportProblem(f"{page_path}:1: cannot read the page: {getattr(error, 'strerror', None) or error}")
    page = upstream.read_page(source)
    problems = [f"{page_path}:{p.line}: {p.message}" for p in page.problems]
    if page.lang and page.rows and page.lang != lang:
        problems.append(f"{page_path}:1: the page reads as {page.lang}, not {lang}; pass --lang {page.lang}")
    names = {n: c for c in catalog.codes for n in filter(None, (c.python_name, c.c_name))}
    rows = []
    for row in page.rows:
        code = names.get(row.name)
        value = recoverable_value(catalog, row.recoverable)
        if code is None:
            problems.append(f"{page_path}:{row.line}: no code named {row.name!r} in the catalog; add it to the codes first")
        elif value is None:
            problems.append(f"{page_path}:{row.line}: {row.name}: recoverable cell {row.recoverable!r} is none of the catalog's labels")
        else:
            rows.append((code.name, value, _clean(row.meaning), _clean(row.solution)))
    if problems:
        raise ImportProblem("\n".join(problems))
    return PageImport(edition, lang, tuple(rows))


def _clean(text: str) -> str:
    return "\n".join(re.sub(r"^•\s*", "- ", line.strip()) for line in text.split("\n") if line.strip())


def import_page(location: Path, page: PageImport) -> list[Path]:
    """Apply the import to the catalog files; returns the files that changed."""
    yaml = round_trip()
    files = catalog_files(location)
    documents = {path: yaml.load(path.read_text(encoding="utf-8")) for path in files}
    editions_doc = next(p for p, d in documents.items() if isinstance(d, dict) and "editions" in d)
    codes_doc = next(p for p, d in documents.items() if isinstance(d, dict) and "codes" in d)
    dropped = _apply_edition(documents[editions_doc]["editions"], page)
    _apply_texts(documents[codes_doc]["codes"], page, dropped)
    rendered = {path: _dump(yaml, doc) for path, doc in documents.items()}
    changed = {path: text for path, text in rendered.items() if text != path.read_text(encoding="utf-8")}
    _validate(files, rendered)
    for path, text in changed.items():
        atomic_write(path, text.encode("utf-8"))
    return sorted(changed)


def _dump(yaml: YAML, document) -> str:
    out = io.StringIO()
    yaml.dump(document, out)
    return out.getvalue()


def _validate(files: list[Path], rendered: dict[Path, str]) -> None:
    """Load the edited catalog from a scratch copy; CatalogError (naming the real files) stops the import."""
    with tempfile.TemporaryDirectory() as scratch:
        real = {display_path(Path(scratch) / path.name): display_path(path) for path in files}
        for path in files:
            (Path(scratch) / path.name).write_text(rendered[path], encoding="utf-8")
        try:
            load_catalog(Path(scratch))
        except CatalogError as error:
            raise CatalogError(
                Problem(Pos(real.get(p.pos.path, p.pos.path), p.pos.line, p.pos.col), f"{p.message} (after the import)")
                for p in error.problems) from None


def _apply_edition(editions: CommentedSeq, page: PageImport) -> set[str]:
    """Set the edition's rows from the page; returns the codes it no longer lists."""
    entry = next((e for e in editions if str(e.get("id")) == page.edition), None)
    if entry is None:
        entry = _new_edition(page)
        editions.append(entry)
    rows = CommentedMap()
    for code, recoverable, _, _ in page.rows:
        # Quoted as the catalog writes them: a YAML 1.1 reader would take yes/no for booleans.
        rows[code] = DoubleQuotedScalarString(recoverable) if recoverable in ("yes", "no") else recoverable
    old = entry.get("rows") or {}
    dropped = {name for name in old if name not in rows}
    unknown = entry.get("not_listed_not_known")
    if unknown is not None:  # the page settles whether it lists these
        for name in [n for n in unknown if n in rows]:
            unknown.remove(name)
        if not unknown:
            del entry["not_listed_not_known"]
    if dict(old) != dict(rows) or list(old) != list(rows):
        entry["rows"] = rows
    if entry.get("order") != "page":
        entry["order"] = "page"
    texts = entry.get("texts")
    if not isinstance(texts, dict):
        entry["texts"] = CommentedMap([(page.lang, "upstream")])
    elif texts.get(page.lang) != "upstream":
        texts[page.lang] = "upstream"
    return dropped


def _new_edition(page: PageImport) -> CommentedMap:
    release = re.sub(r"-v\d+$", "", page.edition)
    entry = CommentedMap()
    entry["id"] = SingleQuotedScalarString(page.edition)
    entry["release"] = SingleQuotedScalarString(release)
    entry["page"] = CommentedMap([("zh", f"导入的页面（{page.edition}）"), ("en", f"Imported page ({page.edition})")])
    entry["sources"] = CommentedSeq([f"imported page ({page.lang})"])
    entry["texts"] = CommentedMap([(page.lang, "upstream")])
    entry["order"] = "page"
    return entry


def _apply_texts(codes: CommentedSeq, page: PageImport, dropped: set[str]) -> None:
    by_name = {str(c.get("python") or c.get("c")): c for c in codes}
    for name in dropped:
        for field_name in TEXT_FIELDS:
            for entry in list(by_name[name].get(field_name) or ()):
                _remove_edition(by_name[name][field_name], entry, page.edition)
            if field_name in by_name[name] and not by_name[name][field_name]:
                del by_name[name][field_name]
    for name, _, meaning, solution in page.rows:
        for field_name, text in zip(TEXT_FIELDS, (meaning, solution)):
            _set_text(by_name[name], field_name, page.edition, page.lang, text)


def _set_text(code: CommentedMap, field_name: str, edition: str, lang: str, text: str) -> None:
    if field_name not in code:
        code[field_name] = CommentedSeq()
    entries: CommentedSeq = code[field_name]
    trailing = _pop_trailing_comment(entries)
    try:
        _edit_entries(entries, edition, lang, text)
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


def _edit_entries(entries: CommentedSeq, edition: str, lang: str, text: str) -> None:
    for entry in list(entries):
        if lang in entry and edition in _ids(entry):
            if entry[lang] == text:
                return  # already so
            single = _split_off(entries, entry, lang)
            _remove_edition(entries, single, edition)
    same = [e for e in entries if lang in e and e[lang] == text]
    if same:
        target = same[0] if len(same[0]) == 2 else _split_off(entries, same[0], lang)
        target["editions"].append(SingleQuotedScalarString(edition))
        return
    entry = CommentedMap()
    entry["editions"] = _flow([edition])
    entry[lang] = LiteralScalarString(text) if "\n" in text else text
    entries.append(entry)


def _split_off(entries: CommentedSeq, entry: CommentedMap, lang: str) -> CommentedMap:
    """Move one language of a shared entry into an entry of its own (same editions)."""
    if len(entry) == 2:  # editions and this language only
        return entry
    single = CommentedMap()
    single["editions"] = _flow(_ids(entry))
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


def _flow(ids: list[str]) -> CommentedSeq:
    seq = CommentedSeq(SingleQuotedScalarString(i) for i in ids)
    seq.fa.set_flow_style()
    return seq
