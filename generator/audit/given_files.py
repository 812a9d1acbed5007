"""`audit`: the catalog against upstream's own files.

Each difference is a Finding: which file and line, which code, what kind, and
what each side says. A finding the catalog already records (a merge conflict
an edition keeps) is `known`; so is a note (a value checked against the
catalog's own fact, a translation that is not compared); neither fails an
audit. Unreadable input is a finding too, never a crash.
"""
from __future__ import annotations

from typing import Optional

from generator.domain.queries import family_at
from generator.upstream import c_source
from generator.domain.editions import Edition
from generator.domain.family import Catalog, Family
from generator.audit.page import audit_page
from generator.audit.source_code import audit_binding, audit_header, audit_python
from generator.audit.findings import Finding, read_text
from generator.upstream.files import read_file


def audit_files(catalog: Catalog, family: Family, edition: Optional[Edition], python=None, binding=None,
                headers=(), page=None) -> list[Finding]:
    """Everything the command line gave, each file against the catalog: with an edition of a
    release, the source files against the codes that release's repository has (a code added
    later, or removed since, is not missing from them), and its enum against the base class
    the catalog records for that release."""
    findings: list[Finding] = []
    page_family = family
    repos = {s.repo for s in edition.sources if s.repo} if edition is not None and edition.released else set()
    base = None  # the enum's base class the catalog records for the edition's release, where it records one
    if repos and edition is not None:
        repo = sorted(repos)[0]
        base = next((b for u in family.upstream if u.kind == "python" and u.repo == repo
                     if (b := u.base_at(edition.release)) is not None), None)
        family = family_at(family, repo, edition.release)
    header_constants: list[c_source.Constant] = []
    for path in headers:
        source = read_text(read_file, path, str(path), findings)
        if source is not None:
            found, constants = audit_header(family, str(path), source)
            findings += found
            header_constants += constants
    bound: Optional[dict[str, Optional[int]]] = None  # None: no binding read, compare references by name
    if binding and (source := read_text(read_file, binding, str(binding), findings)) is not None:
        found, bound = audit_binding(family, str(binding), source, header_constants)
        findings += found
    if python and (source := read_text(read_file, python, str(python), findings)) is not None:
        findings += audit_python(family, str(python), source, bound, base)
    if page:
        assert edition is not None, "a page is audited against an edition"
        if (source := read_text(read_file, page, str(page), findings)) is not None:
            findings += audit_page(page_family, edition, str(page), source)
    return findings
