"""After a release's import is staged, before anything is written: each timeline's newest page
that this repository keeps as a pipe table (a whole file, or a section of one), and each region
of the family's source files at the ref (an enum's body, a binding's constants), written back
from the catalog as they would be, are compared with upstream's; one that differs is said for a
person, with its first line (what `audit --upstream` would find after the import)."""
from __future__ import annotations

from generator.domain.markup import first_difference, first_line_difference
from generator.domain.layout import compared_part
from generator.importing.page_source import Report
from generator.domain.family import Catalog
from generator.rendering.upstream_page import NotWritable, adoptable, render_upstream_page
from generator.rendering.upstream_source import MissingFact, find_regions, render_region
from generator.upstream.files import UnreadableFile


def check_written_back(catalog: Catalog, report: Report, name: str, repo) -> None:
    """The catalog as the import stages it: each page this repository keeps, written back."""
    for family in catalog.families:
        for edition, lang, source in adoptable(family, sections=True):
            if (source.repo != name or source.commit is None or source.path is None or source.layout is None
                    or not repo.has_commit(source.commit)):
                continue
            part = compared_part(source.layout, repo.read_blob(repo.blob_at(source.commit, source.path)))
            upstream = part[1].decode("utf-8", "replace") if part is not None else ""
            try:
                ours = render_upstream_page(family, edition, lang, source)
            except NotWritable as error:
                report.todo.append(f"{edition.id} ({lang}): {error}")
                continue
            if ours != upstream:
                line, theirs, mine = first_difference(upstream, ours)
                report.todo.append(f"{edition.id} ({lang}): upstream-page does not write {source.path} back byte for "
                                   f"byte: line {line} is {theirs[:80]!r} upstream, {mine[:80]!r} from the catalog; "
                                   "correct the version's `page` in editions.yaml")


def check_sources_written_back(catalog: Catalog, report: Report, name: str, repo, ref: str) -> None:
    """Each region of each source file the families record in this repository, at `ref`, as the staged
    catalog writes it, against upstream's lines: a new code that upstream lists in an order the
    catalog cannot write (a binding's line placed before others), a fact the catalog lacks."""
    release = repo.release_at(ref)
    for family in catalog.families:
        for item in (u for u in family.upstream if u.repo == name and u.regions):
            path, blob = repo.file_at(ref, tuple(item.paths))
            if path is None or blob is None:
                continue
            where = f"{name}:{path}@{ref}"
            try:
                for found in find_regions(repo.read_text(blob), item, family, where):
                    ours = render_region(family, item, found.region, release)
                    if list(ours) != list(found.lines):
                        line, theirs, mine = first_line_difference(found.lines, ours, "(the region's end)")
                        report.todo.append(f"{family.id}: {where}:{found.start + line - 1}: upstream has "
                                           f"{theirs.strip()!r}, "
                                           f"the catalog writes {mine.strip()!r}: a fact or an order the catalog "
                                           "does not record (family.yaml's `upstream` regions; audit --upstream "
                                           "lists every difference)")
                        break
            except MissingFact as error:
                report.todo.append(f"{family.id}: {where}: {error}")
            except (UnreadableFile, UnicodeDecodeError):
                continue
