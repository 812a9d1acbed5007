"""The verbs that compare the catalog with upstream and bring upstream in: `audit` and `import`."""
from __future__ import annotations

import json
import sys
from functools import partial

from generator.domain.editions import place_of
from generator.domain.markup import first_line_difference
from generator.domain.family import Catalog, Family
from generator.core.exits import EXIT_DIFFERENT, EXIT_OK, UsageError, safe_print
from generator.commands import catalog_of, edition_of, existing_file, family_of, language_of


# -- audit, import, vendor ----------------------------------------------------------------------------------


def cmd_audit(args) -> int:
    from generator.audit import given_files as audit

    catalog = catalog_of(args)
    if args.upstream:
        if args.edition or args.python or args.binding or args.header or args.page:
            raise UsageError("--upstream audits everything the catalog records; give it alone (with --json)")
        from generator.audit.repositories import audit_upstream
        from generator.upstream.git import parse_upstream_args

        report = audit_upstream(catalog, parse_upstream_args(args.upstream, catalog))
        if args.json:
            safe_print(json.dumps(report.as_dict(), ensure_ascii=False, indent=2))
        else:
            safe_print(report.table())
        return EXIT_OK if report.clean else EXIT_DIFFERENT
    if not (args.python or args.binding or args.header or args.page):
        raise UsageError("audit needs at least one of --python, --binding, --header, --page, or --upstream")
    for option in ("python", "binding", "page"):
        existing_file(getattr(args, option), f"--{option}")
    for header in args.header or ():
        existing_file(header, "--header")
    if args.page and not args.edition:
        raise UsageError("--page needs --edition: the edition whose page the file is")
    family = family_of(catalog, args.family, args.edition)
    edition = edition_of(family, args.edition) if args.edition else None
    findings = audit.audit_files(catalog, family, edition, python=args.python, binding=args.binding,
                                 headers=args.header or [], page=args.page)
    failing = [f for f in findings if not f.known]
    if args.json:
        safe_print(json.dumps({"family": family.id, "edition": edition.id if edition else None,
                               "findings": [f.as_dict() for f in findings]}, ensure_ascii=False, indent=2))
    else:
        for finding in findings:
            safe_print(str(finding))
        what = f"audit {family.id}{' ' + edition.id if edition else ''}"
        known = len(findings) - len(failing)
        safe_print(f"{what}: {len(failing)} difference(s)" + (f", {known} known" if known else "") if findings
                   else f"{what}: no differences")
    return EXIT_DIFFERENT if failing else EXIT_OK


def cmd_upstream_page(args) -> int:
    from generator.rendering.upstream_page import NotWritable, render_upstream_page

    catalog = catalog_of(args)
    messages = catalog.message_family_by_id.get(args.family)
    if messages is not None:
        return _write_out(_message_page(messages, args))
    if args.code is not None:
        raise UsageError("--code is for a family with one page per code: "
                         + (", ".join(f"--family {m.id}" for m in catalog.message_families) or "the catalog has none"))
    family = family_of(catalog, args.family, args.edition)
    edition = edition_of(family, args.edition)
    lang = language_of(family, args.lang)
    files = [s for s in edition.sources if s.kind == "repo" and s.lang in (lang, None) and s.layout is not None]
    source = next((s for s in files if s.path == args.path), None) if args.path else None
    if args.path and source is None:
        raise UsageError(f"edition {edition.id} has no {lang} file {args.path}; its files: "
                         + (", ".join(s.path or "" for s in files) or "none"))
    try:
        text = render_upstream_page(family, edition, lang, source)
    except NotWritable as error:
        raise UsageError(str(error)) from None
    return _write_out(text)


def _message_page(family, args) -> str:
    """A page (or the index) of a family with one page per code, at its one page version (`unreleased`)."""
    from generator.core.releases import UNRELEASED
    from generator.rendering.message_pages import render_index, render_page

    if args.edition not in (UNRELEASED, family.pages.branch):
        raise UsageError(f"--edition {args.edition}: {family.id}'s pages have one edition, {UNRELEASED} (the head of "
                         f"{family.pages.branch}); its releases ship the registry, not the pages")
    lang = args.lang or family.languages[0]
    if lang not in family.languages:
        raise UsageError(f"--lang {lang}: {family.id} has {', '.join(family.languages)}")
    if args.code is None:
        return render_index(family)
    code = family.code_by_id.get(args.code.strip().upper())
    if code is None or not code.page:
        raise UsageError(f"--code {args.code}: {family.id} has no page for it" + (
            "" if code else f"; its codes: {family.codes[0].id} … {family.codes[-1].id}"))
    return render_page(family, code, lang)


def _write_out(text: str) -> int:
    binary = getattr(sys.stdout, "buffer", None)
    if binary is None:  # a text stream (a caller's in-process capture): the same characters
        sys.stdout.write(text)
        return EXIT_OK
    sys.stdout.flush()
    binary.write(text.encode("utf-8"))  # upstream's bytes: no newline translation, the BOM kept
    binary.flush()
    return EXIT_OK


def cmd_import(args) -> int:
    from generator.importing.catalog_files import finish_stopped_import, remove_stopped_temps
    from generator.importing.page_source import ImportProblem, read_source
    from generator.importing.one_page import import_page

    if args.catalog is not None and args.catalog.exists():
        try:
            finished = finish_stopped_import(args.catalog)
        except ImportProblem as problem:
            safe_print(str(problem), sys.stderr)
            return EXIT_DIFFERENT
        if finished:
            safe_print(f"finished the import that was stopped part-way: {', '.join(finished)}")
        left = remove_stopped_temps(args.catalog)
        if left:
            safe_print(f"removed what an import stopped before its first rename left: {', '.join(left)}")
    catalog = catalog_of(args)
    if (args.page is None) == (args.upstream is None):
        raise UsageError("import reads --page FILE, or --upstream OWNER/NAME=DIR with --ref (and --path for one page)")
    try:
        if args.page is None and args.path is None and args.edition is None:
            report = _import_release(catalog, args)
        else:
            if args.edition is None or args.lang is None:
                raise UsageError("import of one page needs --edition ID and --lang LANG")
            family = family_of(catalog, args.family) if args.family else _family_for_new_edition(catalog, args.edition)
            lang = language_of(family, args.lang)
            existing_file(args.page, "--page")
            source = read_source(
                catalog, page=args.page, url=args.url, upstream=args.upstream, ref=args.ref, path=args.path
            )
            report = import_page(args.catalog, catalog, family, args.edition, lang, source)
    except ImportProblem as problem:
        safe_print(str(problem), sys.stderr)
        first = getattr(problem, "written_first", None)
        safe_print(f"import: {', '.join(first)} (which {args.ref} needs first) imported and written, {args.ref} "
                   "itself not: run `make generate`" if first else "import: nothing was written", sys.stderr)
        return EXIT_DIFFERENT
    for line in report.done:
        safe_print(line)
    person = report.for_a_person()
    for line in person:
        safe_print(f"for a person: {line}")
    written = len({line for line in report.done if line.startswith("wrote ")})
    # nothing written with lines for a person (a ref no tag is, a release branch's) is not "recorded already"
    safe_print(f"import: {written} file(s) changed" + ("; run `make generate`" if written else
                                                       "; the lines for a person above say what is not recorded"
                                                       if person else "; the catalog already records it"))
    return EXIT_OK


def _import_release(catalog: Catalog, args):
    from generator.upstream.git import parse_upstream_args
    from generator.importing.page_source import unknown_ref
    from generator.importing.release import import_release

    if not args.ref:
        raise UsageError("--upstream needs --ref: the tag of the release (or a commit, for an untagged translation)")
    if args.ref.startswith("-"):
        raise UsageError(f"--ref {args.ref!r}: a tag, branch or commit never begins with -")
    [(name, repo)] = parse_upstream_args([args.upstream], catalog).items()
    if not repo.has_commit(args.ref):
        raise UsageError(unknown_ref(args.ref, name, repo))
    if args.family is not None and args.family not in catalog.message_family_by_id:
        family_of(catalog, args.family)  # one of the catalog's families, or a usage error that lists them
    return _in_release_order(args.catalog, name, repo, args.ref, partial(import_release, only=args.family))


def _in_release_order(location, name: str, repo, ref: str, import_release):
    """The release at `ref`, after each older tag it needs first (a tag not imported yet that ships
    the branch head's page the catalog records, or was cut after that head: it takes the head's
    version over, as in release order), with one report for them all."""
    from generator.importing.one_page import OlderTagFirst
    from generator.importing.page_source import ImportProblem

    earlier: list = []
    while True:
        try:
            report = import_release(location, name, repo, ref)
        except OlderTagFirst as needed:
            if any(tag == needed.tag for tag, _, _ in earlier):  # asked for twice: a loop, not a release to import
                looped = ImportProblem(f"{ref}: importing {needed.tag} first did not take over the branch head's "
                                       "version; record it by hand")
                looped.written_first = [tag for tag, _, _ in earlier]  # type: ignore[attr-defined]
                raise looped from None
            earlier.append((needed.tag, _in_release_order(location, name, repo, needed.tag, import_release),
                            needed.why))
            continue
        except ImportProblem as problem:
            if earlier:  # what was written stays: each of those releases is whole
                problem.written_first = [tag for tag, _, _ in earlier]  # type: ignore[attr-defined]
            raise
        for tag, first, why in reversed(earlier):
            report.done[:0] = [f"import: {tag} first, as {ref} needs it ({why})", *first.done]
            report.todo[:0] = first.todo
            report.untranslated = {**first.untranslated, **report.untranslated}
        return report


def _family_for_new_edition(catalog: Catalog, edition_id: str) -> Family:
    """The family whose timeline suffix the edition id ends with (the longest suffix wins)."""
    best, length = None, -1
    for family in catalog.families:
        if family.edition(edition_id) is not None:
            return family
        place = place_of(edition_id, family.timelines)
        if place is not None and len(place[0].suffix) > length:
            best, length = family, len(place[0].suffix)
    if best is None:
        raise UsageError(f"edition {edition_id!r} fits no family's timeline; pass --family NAME")
    return best


# -- upstream-source ----------------------------------------------------------------------------------------


def cmd_upstream_source(args) -> int:
    from generator.core.exits import EXIT_DIFFERENT
    from generator.rendering.upstream_source import (MissingFact, find_regions, find_registry, outside_regions,
                                                     render_region, render_registry)
    from generator.upstream.files import UnreadableFile
    from generator.upstream.git import GitError, parse_upstream_args

    catalog = catalog_of(args)
    if len(args.upstream) != 1:
        raise UsageError("upstream-source reads one repository: give --upstream OWNER/NAME=DIR once")
    name, repo = next(iter(parse_upstream_args(args.upstream, catalog).items()))
    family, item = _recorded_file(catalog, name, args.path)
    try:
        blob = repo.blob_at(args.ref, args.path)
    except GitError as error:
        raise UsageError(f"--ref {args.ref}: {error}") from None
    if blob is None:
        raise UsageError(f"{name} has no {args.path} at {args.ref}")
    release = repo.release_at(args.ref)
    where = f"{name}:{args.path}@{args.ref}"
    try:
        upstream = repo.read_text(blob)
        if item is None:  # a family of messages' registry: one region, the JSON of its entries
            found: list = [find_registry(upstream, where)]
            rendered = [render_registry(family, release)]
        else:
            found = find_regions(upstream, item, family, where)
            rendered = [render_region(family, item, f.region, release) for f in found]
        if _said_otherwise(found, rendered, where) != EXIT_OK:
            return EXIT_DIFFERENT  # a region the catalog cannot write as upstream has it: nothing printed or written
        if args.write is None:
            for f, lines in zip(found, rendered):
                safe_print(f"@@ {f.start},{f.end} @@")
                for line in lines:
                    safe_print(line)
            return EXIT_OK
        local = existing_file(args.write, "--write") or args.write
        text = local.read_text(encoding="utf-8")
        mine: list = [find_registry(text, str(local))] if item is None else \
            find_regions(text, item, family, str(local))
    except MissingFact as error:
        print(f"upstream-source: {error}", file=sys.stderr)
        return EXIT_DIFFERENT
    except BrokenPipeError:
        raise  # `upstream-source ... | head`: the reader left (cli.py), no file is unreadable
    except (UnreadableFile, UnicodeDecodeError, OSError) as error:
        raise UsageError(f"{args.write or where}: cannot be read as UTF-8 text ({error})") from None
    outside = [] if item is None else outside_regions(text, family, mine, args.path.endswith(".py"))
    if outside:
        number, shown = outside[0]
        print(f"{local}:{number}: {shown!r} defines one of {family.id}'s codes outside every region the catalog "
              f"writes (a form no region of family.yaml's `upstream` describes): nothing was written", file=sys.stderr)
        return EXIT_DIFFERENT
    _write_regions(local, text, mine, rendered)
    safe_print(f"upstream-source: rewrote {len(mine)} region(s) of {local}")
    return EXIT_OK


def _recorded_file(catalog: Catalog, name: str, path: str):
    """(family, the recorded source file) that `path` of repository `name` is, or (the family of
    messages, None) for its registry; a fork's file is its origin's where the catalog records
    none of its own."""
    found = [(f, u) for f in catalog.families for u in f.upstream if u.repo == name and path in u.paths]
    found = found or [(f, u) for f in catalog.families for u in f.upstream if path in u.paths]
    found = [(f, u) for f, u in found if u.regions]
    if not found:
        registry = next((m for m in catalog.message_families if m.registry and m.registry.path == path), None)
        if registry is not None:
            return registry, None
        recorded = sorted({p for f in catalog.families for u in f.upstream if u.regions and u.repo == name
                           for p in u.paths} | {m.registry.path for m in catalog.message_families
                                                if m.registry and m.registry.repo == name})
        raise UsageError(f"{path}: no family records its regions (family.yaml, upstream: regions); {name}'s "
                         f"recorded files: {', '.join(recorded) or 'none'}")
    return found[0]


def _said_otherwise(found, rendered, where: str) -> int:
    """EXIT_OK where every region printed is upstream's lines at the ref; else the first line that
    differs, on stderr, and EXIT_DIFFERENT: the catalog lacks or contradicts a fact a region needs."""
    for f, lines in zip(found, rendered):
        if list(lines) == list(f.lines):
            continue
        line, theirs, mine = first_line_difference(f.lines, lines, "(the region's end)")
        print(f"upstream-source: {where}:{f.start + line - 1}: upstream has {theirs!r}, the catalog writes {mine!r}: "
              "the catalog lacks or contradicts a fact this region needs (audit --upstream lists every difference)",
              file=sys.stderr)
        return EXIT_DIFFERENT
    return EXIT_OK


def _write_regions(local, text: str, found, rendered) -> None:
    """The file with each region's lines replaced, written whole (a temporary file renamed over it)."""
    import os
    import tempfile

    lines = text.split("\n")
    for f, new in sorted(zip(found, rendered), key=lambda pair: -pair[0].start):
        lines[f.start - 1:f.end] = new
    handle, temporary = tempfile.mkstemp(dir=local.parent, prefix=f".{local.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write("\n".join(lines))
        os.replace(temporary, local)
    except BaseException:
        os.unlink(temporary)
        raise
