"""An edition's page in upstream's own format: the Markdown file its repository source names,
written back byte for byte from the catalog (the codes' texts with their inline markup, and
the source's `page`: framing and dialect). Only for pages upstream writes as pipe tables."""
from __future__ import annotations

import re
from typing import Callable, Optional

from generator.domain.codes import Code
from generator.domain.editions import Edition, Row, Source
from generator.domain.family import Family
from generator.domain.layout import CodeBlock, PageLayout, code_block_text
from generator.domain.queries import page_release
from generator.rendering.output import Planned

BOM = "\ufeff"
ITEM = re.compile(r"^(- |\d+\. )")
ITEM_SPACES, NOTE_SPACES = "  ", " "  # after a <br>: before a list item, before a note


class NotWritable(Exception):
    """Why an edition's page cannot be written in upstream's format (one line)."""


def page_source(edition: Edition, lang: str) -> Source:
    """The repository source of an edition's page in a language, with its layout; else why not."""
    sources = [s for s in edition.sources if s.lang in (lang, None)]
    repo = [s for s in sources if s.kind == "repo"]
    if not sources:
        raise NotWritable(f"edition {edition.id} has no {lang} source: upstream's {lang} page of it is not known, "
                          f"so there is no file to write")
    if not repo:
        kinds = " and ".join(sorted({s.kind for s in sources}))
        raise NotWritable(f"edition {edition.id}'s {lang} page is known only from a {kinds} source, not a file in a "
                          f"repository: there are no upstream bytes to write")
    with_layout = [s for s in repo if s.layout is not None]
    if not with_layout:
        where = f"{repo[0].repo}:{repo[0].path}"
        raise NotWritable(f"edition {edition.id}'s {lang} page ({where}) is not described as a Markdown pipe table "
                          f"(its source has no `page`): an HTML-era file, which upstream-page does not write")
    return with_layout[0]


def render_upstream_page(family: Family, edition: Edition, lang: str, source: Optional[Source] = None) -> str:
    """The edition's page in `lang` as upstream's file; `source`: which of its files, where
    upstream split the page over several (default: the first)."""
    edition = edition.in_file(source or page_source(edition, lang))
    source = page_source(edition, lang)
    layout: PageLayout = source.layout  # type: ignore[assignment]
    blocks = [layout.heading]
    blocks += [_block(family, edition, b) for b in layout.before]
    blocks.append(_table(family, edition, lang, layout))
    blocks += [_block(family, edition, b) for b in layout.after]
    return (BOM if layout.bom else "") + "\n\n".join(blocks) + "\n" * (1 + layout.blank_after)


def _block(family: Family, edition: Edition, block) -> str:
    if isinstance(block, str):
        return block
    return _code_block(family, edition, block)


def _code_block(family: Family, edition: Edition, block: CodeBlock) -> str:
    """The codes under the names the edition's release gives them: its rows' (a row's name is
    the page's), or, for a block of a range of values, every C/C++ code's there and then."""
    at = (edition.timeline.repo, page_release(family, edition))
    if block.values is None:
        codes = [(row.name, family.code_by_name[row.code].value_at(*at)) for row in edition.rows]
    else:
        codes = [(name, c.value_at(*at)) for c in family.codes
                 if (name := c.c_at(edition.timeline.repo, edition.release))]
    return code_block_text(block, codes, family.c.literals == "hex")


def _table(family: Family, edition: Edition, lang: str, layout: PageLayout) -> str:
    width = len(layout.header)
    if layout.table == "tight":
        lines = ["|" + "|".join(layout.header) + "|", "|" + "|".join(["--"] * width) + "|"]
    elif layout.table == "mixed":
        lines = ["|" + "|".join(" " + h for h in layout.header) + "|", "| " + " | ".join(["---"] * width) + " |"]
    else:
        lines = ["| " + " | ".join(layout.header) + " |", "| " + " | ".join(["---"] * width) + " |"]
    for row in edition.rows:
        cells = _cells(family, edition, lang, layout, row)
        lines.append(_row(layout, cells))
    return "\n".join(lines)


def _row(layout: PageLayout, cells: list[str]) -> str:
    if layout.table == "tight":
        line = "|" + "|".join(cells) + "|"
    elif layout.table == "mixed":
        line = f"| {cells[0]} |" + "|".join(" " + c for c in cells[1:]) + "|"
    else:
        line = "| " + " | ".join(cells) + " |"
    if cells[0] in layout.unclosed:
        line = line[:-1].rstrip()
    return line


def _cells(family: Family, edition: Edition, lang: str, layout: PageLayout, row: Row) -> list[str]:
    code = family.code_by_name[row.code]
    cells = []
    for column in edition.page.columns:
        if column == "name":
            cells.append(_first_cell(family, edition, code))
        elif column == "recoverable":
            value = dict(row.disagreements).get(lang, row.recoverable)
            cells.append(dict(layout.labels).get(value) or family.recoverable_label(value, lang))
        else:
            cells.append(_cell(code, column, edition, lang, layout))
    return cells


def _first_cell(family: Family, edition: Edition, code: Code) -> str:
    if edition.page.first_column == "decimal":
        return str(code.value_at(edition.timeline.repo, page_release(family, edition)))
    return edition.name_shown(code.name) or code.name


def _cell(code: Code, column: str, edition: Edition, lang: str, layout: PageLayout) -> str:
    entry = code.entry(column, edition.id, lang)
    if entry is None:
        raise NotWritable(f"edition {edition.id} has no {lang} {column} for {code.name}: its page cannot be written")
    return cell_markup(entry.written, layout.note)


def cell_markup(text: str, note: Optional[str]) -> str:
    """A text's lines as one pipe-table cell: joined by <br>, a list item after two spaces,
    a note (a line starting with the page's note label) after one, a blank line as <br><br>; a
    pipe in a text is escaped (\\|), so that the row stays a row (upstream's cells have none)."""
    parts = []
    for number, line in enumerate(text.split("\n")):
        if note and line.startswith(note):
            line = NOTE_SPACES + line
        elif number and ITEM.match(line):
            line = ITEM_SPACES + line
        parts.append(line)
    return "<br>".join(parts).replace("|", "\\|")


# -- generated/upstream/OWNER/NAME/PATH: the newest repository edition of each timeline ----------------

UPSTREAM_DIR = "generated/upstream"


def adoptable(family: Family, sections: bool = False) -> list[tuple[Edition, str, Source]]:
    """Per timeline and language: its newest edition whose page is a file of a repository, when
    that file is a described pipe table whose texts are known (an HTML-era one is not written).
    A file is written once (a source that names no language gives every language one file).
    `sections`: a section of a larger file too (generated/upstream/ holds whole files only)."""
    found, paths = [], set()
    for timeline in family.timelines:
        for lang in family.languages:
            for edition in reversed(family.timeline_editions(timeline)):
                repo = [s for s in edition.sources if s.kind == "repo" and s.lang in (lang, None)]
                if repo:
                    for source in [s for s in repo if s.layout is not None][:None if any(s.codes for s in repo) else 1]:
                        if edition.has_texts(lang) and upstream_path(source) not in paths \
                                and (sections or source.layout.level == 1):  # type: ignore[union-attr]
                            paths.add(upstream_path(source))
                            found.append((edition, lang, source))
                    break
    return found


def upstream_path(source: Source) -> str:
    return f"{UPSTREAM_DIR}/{source.repo}/{source.path}"


def plan_upstream(catalog, family: Family) -> list[Planned]:
    return [Planned(upstream_path(source), _renderer(family, edition, lang, source), item=edition.id, lang=lang)
            for edition, lang, source in adoptable(family)]


def _renderer(family: Family, edition: Edition, lang: str, source: Source) -> Callable[[], str]:
    return lambda: render_upstream_page(family, edition, lang, source)
