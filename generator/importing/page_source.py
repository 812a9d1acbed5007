"""How `import` reads a page: from a file, a published URL or a repository at a ref, into rows."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from generator.domain.editions import place_of
from generator.domain.markup import plain
from generator.domain.family import Catalog, Family
from generator.domain.model import Timeline
from generator.reading.yaml_source import bad_character
from generator.upstream.page_table import read_table, recoverable_value, typed_cells
from generator.upstream.files import UnreadableFile, read_file

if TYPE_CHECKING:
    from generator.upstream.git import GitRepo


class ImportProblem(Exception):
    """The page cannot be imported as it is; nothing was written."""


@dataclass(frozen=True)
class PageSource:
    text: str
    shown: str  # how messages name the page
    is_html: bool
    source: dict  # {repo, path, commit, tags} / {repo, path, commit, branch} / {url} / {} (none given)
    repo: Optional[GitRepo] = None  # the GitRepo it was read from: a version citing the same file is the same version
    blob: Optional[str] = None


@dataclass(frozen=True)
class ImportedRow:
    name: str  # the name the catalog's row gives it (with the page's row prefix)
    code: str  # the code's catalog name
    recoverable: str
    texts: tuple[tuple[str, str], ...]  # (field, text as written: its markup where `markdown` names the field)
    markdown: frozenset = frozenset()  # the fields whose cells are written with inline Markdown
    shown: str = ""  # its first cell as the page writes it, where that is not `name` (a page of decimal values)


@dataclass
class Report:
    """One line per thing the import did, and per thing left for a person."""

    done: list[str] = field(default_factory=list)
    todo: list[str] = field(default_factory=list)
    # the texts the import left untranslated, (code, field, language, version): a page in that
    # language that gives one later in the import takes it off
    untranslated: dict[tuple[str, str, str, str], None] = field(default_factory=dict)

    def for_a_person(self) -> list[str]:
        return self.todo + [f"translate: {name} {field_name} ({lang}) from {version} (codes.yaml: untranslated: "
                            f"[{lang}])" for name, field_name, lang, version in self.untranslated]


# -- reading a page ----------------------------------------------------------------------------------------


def unknown_ref(ref: str, name: str, repo) -> str:
    """What a user is told of a --ref the repository does not have: its newest release tags."""
    tags = repo.release_tags()
    shown = ", ".join(tags[-5:]) if len(tags) <= 5 else f"{', '.join(tags[-5:])} (the newest 5 of {len(tags)})"
    return f"--ref {ref}: no such tag, branch or commit in {name}; its release tags: {shown or 'none'}"


def read_source(
    catalog: Catalog,
    page: Optional[Path] = None,
    url: Optional[str] = None,
    upstream: Optional[str] = None,
    ref: Optional[str] = None,
    path: Optional[str] = None,
) -> PageSource:
    """The page to import: a file (a copy of a published page at `url`), or a file of an
    upstream repository at a tag, a branch or a commit."""
    if page is not None:
        try:
            text = read_file(page)
        except UnreadableFile as error:
            raise ImportProblem(f"{page}:{error.line}: cannot read the page: {error.message}") from None
        return PageSource(text, str(page), str(page).lower().endswith((".html", ".htm")), {"url": url} if url else {})
    from generator.core.exits import UsageError
    from generator.upstream.git import GitError, parse_upstream_args

    if upstream is None or not ref or not path:
        raise UsageError("--upstream needs --ref TAG and --path PATH: the tag (or branch) and the page's path")
    if ref.startswith("-"):
        raise UsageError(f"--ref {ref!r}: a tag, branch or commit never begins with -")
    [(name, repo)] = parse_upstream_args([upstream], catalog).items()
    try:
        repo.commit(ref)
    except GitError:
        raise UsageError(unknown_ref(ref, name, repo)) from None
    blob = repo.blob_at(ref, path)
    if blob is None:
        raise UsageError(
            f"--path {path}: no such file at {ref} in {name}; `git ls-tree -r --name-only {ref}` lists its files"
        )
    return PageSource(blob_text(repo, blob, f"{name}:{path}@{ref}"), f"{name}:{path}@{ref}", False,
                      shipping_source(name, repo, ref, path, blob), repo, blob)


def blob_text(repo, blob: str, shown: str) -> str:
    try:
        return repo.read_text(blob)
    except UnreadableFile as error:
        raise ImportProblem(f"{shown}:{error.line}: cannot read the page: {error.message}") from None


def shipping_source(name: str, repo, ref: str, path: str, blob: str) -> dict:
    """How a file at a ref is cited: the tags that ship it (and the first one's commit), the
    branch head, a commit a branch holds that no tag ships, or one that only a merge request's ref
    holds (upstream's proposed English pages)."""
    shipping = [t for t in repo.release_tags() if repo.blob_at(t, path) == blob]
    if ref in repo.release_tags() or (shipping and repo.commit(ref) != repo.commit(repo.head_ref())):
        return {"repo": name, "path": path, "commit": repo.commit(shipping[0]), "tags": shipping}
    if repo.commit(ref) == repo.commit(repo.head_ref()):
        return {"repo": name, "path": path, "commit": repo.commit(ref), "branch": repo.head_branch()}
    commit = repo.commit(ref)
    held = {"repo": name, "path": path, "commit": commit, "tags": []}
    return held if repo.on_a_branch_or_tag(commit) else {**held, "ref": "merge-request"}


def edition_place(family: Family, edition_id: str) -> tuple[Timeline, str]:
    """The timeline whose suffix the id ends with (the longest), and the release before it."""
    best = place_of(edition_id, family.timelines)
    if best is None:
        raise ImportProblem(f"edition {edition_id!r} fits no timeline of {family.id}: its id is RELEASE + one of "
                            + ", ".join(repr(t.suffix) for t in family.timelines))
    return best


def _table_problems(page: PageSource, table, lang: str) -> list[str]:
    """What is wrong with the page's table as a whole: its reader's problems, merge-conflict markers,
    headings in another language than the page is imported as."""
    problems = [f"{page.shown}:{line}: {message}" for line, message in table.problems]
    if table.conflicts:
        problems.append(f"{page.shown}:{table.conflicts[0][0]}: the page holds merge-conflict markers: "
                        "record the version by hand, with its `malformations`")
    if table.lang and table.rows and table.lang != lang:
        problems.append(f"{page.shown}:{table.heading_line}: the page's headings are {table.lang}, not {lang}; "
                        f"pass --lang {table.lang}")
    return problems


def read_rows(family: Family, timeline: Timeline, lang: str, page: PageSource) -> list[ImportedRow]:
    page_def = family.page_by_id[timeline.page]
    table = read_table(page.text, page_def.headings, is_html=page.is_html)
    problems = _table_problems(page, table, lang)
    prefix = page_def.row_prefix if page_def.row_names == "c" else ""
    by_key = {str(c.value): c for c in family.codes} if page_def.first_column == "decimal" else \
        {prefix + name: c for c in family.codes
         for name in (c.python_names if page_def.row_names == "python" else c.c_names)}
    rows: list[ImportedRow] = []
    seen: dict[str, int] = {}
    # a page of decimal values: its rows are named in the catalog as the timeline's last version names them, a
    # code new to it by its C name (the value the page shows is the value's history's)
    named = {r.code: prefix + r.name for v in family.timeline_versions(timeline) for r in v.rows}
    markers = {line for line, _ in table.conflicts}
    lines = page.text.split("\n") if table.pipe else []  # a pipe table's lines: its rows' cells as typed
    for row in table.rows:
        key = row.by_column["name"].text.strip() if "name" in row.by_column else ""
        if row.line in markers or key.startswith(("<<<<<<<", "=======", ">>>>>>>")):
            continue  # a merge conflict's marker line, said once above
        code = by_key.get(key)
        cell = row.by_column.get("recoverable")
        value = recoverable_value(family, cell.text if cell else "", lang)
        if code is None:
            problems.append(
                f"{page.shown}:{row.line}: no code {key!r} of this page's kind in {family.id}; add it to the codes "
                "first"
            )
        elif code.name in seen:
            problems.append(f"{page.shown}:{row.line}: {key} is listed twice (first at line {seen[code.name]}); "
                            "a page lists a code once: record the version by hand, with its `malformations`")
        elif value is None:
            problems.append(
                f"{page.shown}:{row.line}: {key}: recoverable cell {cell.text if cell else ''!r} is none of the "
                "family's labels"
            )
        elif len(row.cells) != len(table.columns) or \
                len(typed := _typed_cells(lines, row)) not in (0, len(table.columns)):
            count = len(typed) if typed else len(row.cells)
            shows = "drops the rest" if count > len(table.columns) else "shows the rest empty"
            problems.append(
                f"{page.shown}:{row.line}: {key}: the row has {count} cells and the headings {len(table.columns)}"
                + (f" (a browser {shows}): fix the page, or record the version by hand with its `malformations`"
                   if typed else "")
            )
        else:
            seen[code.name] = row.line
            written = {f: cell_markup(row.by_column[f]) for f in page_def.text_fields if f in row.by_column}
            texts = tuple((f, written[f] or row.by_column[f].text) for f in written)
            problems += _unholdable(page.shown, key, row, texts)
            name = key if page_def.first_column != "decimal" else \
                named.get(code.name) or prefix + (code.c_names or (code.name,))[0]  # its newest C name
            rows.append(ImportedRow(name, code.name, value, texts, frozenset(f for f, w in written.items() if w),
                                    shown="" if name == key else key))
    if problems:
        raise ImportProblem(_some(problems))
    return rows


def _typed_cells(lines: list[str], row) -> list[str]:
    """A pipe table row's cells as typed (a row may type more than its headings, which a browser drops)."""
    return typed_cells(lines[row.line - 1]) if 0 < row.line <= len(lines) else []


def cell_markup(cell) -> Optional[str]:
    """A pipe cell's text with its inline Markdown (links, code spans, blank lines), one line a
    `<br>`-separated segment, where the cell has markup and the catalog's rule reads it back as
    the text the page shows (domain.markup.plain); None for a cell of plain text."""
    if cell.typed is None:
        return None
    markup = "\n".join(part.strip() for part in cell.typed.replace("\\|", "|").split("<br>"))
    return markup if markup != cell.text and plain(markup) == cell.text else None


def _unholdable(shown: str, key: str, row, texts: tuple[tuple[str, str], ...]) -> list[str]:
    """The cells whose text holds what no catalog text may (a control character, a surrogate)."""
    return [f"{shown}:{row.by_column[f].line}: {key}: the {f} cell holds a {why}; fix the page, or record this "
            "version by hand" for f, why in ((f, bad_character(text)) for f, text in texts) if why]


MAX_PROBLEMS_SHOWN = 20


def _some(problems: list[str]) -> str:
    """The first problems, and how many more: a page of 100,000 bad rows is not 100,000 lines."""
    shown = problems[:MAX_PROBLEMS_SHOWN]
    if len(problems) > len(shown):
        shown.append(f"... and {len(problems) - len(shown)} more problem(s) of the same page")
    return "\n".join(shown)
