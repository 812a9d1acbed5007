"""After a release's import is staged, before anything is written: each timeline's newest page
that this repository keeps as a pipe table (a whole file, or a section of one), written back
from the catalog as it would be, is compared with upstream's; a page that differs is said for a
person, with its first line."""
from __future__ import annotations

from pathlib import Path

from generator.domain.markup import first_difference
from generator.domain.layout import compared_part
from generator.importing.page_source import Report
from generator.reading.load import load_catalog
from generator.rendering.upstream_page import NotWritable, adoptable, render_upstream_page


def check_written_back(location: Path, staged: dict[Path, str], report: Report, name: str, repo) -> None:
    catalog = load_catalog(location, {path: text.encode("utf-8") for path, text in staged.items()})
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
