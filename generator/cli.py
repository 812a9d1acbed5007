"""Command line: parses arguments and calls; holds no logic of its own.

Exit status: 0 ok; 1 differences found; 2 wrong usage; 3 invalid catalog.
"""
from __future__ import annotations

import argparse
import contextlib
import gc
import json
import signal
import sys
from pathlib import Path
from typing import Optional, Sequence

from generator.catalog import display_path, load_catalog
from generator.outputs import compare, unified_diff, write_outputs
from generator.problems import CatalogError
from generator.targets import OWNED_DIRS, render_all

ROOT = Path(__file__).resolve().parent.parent
EXIT_OK, EXIT_DIFFERENT, EXIT_USAGE, EXIT_INVALID = 0, 1, 2, 3


class UsageError(Exception):
    """Wrong usage found after parsing (an unknown key, edition or language)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m generator",
        description="Generate LLM-DataDist status-code outputs from the catalog, and check them.",
    )
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    for name, func, help_text in (
        ("generate", cmd_generate, "write every output that changed"),
        ("check", cmd_check, "compare the committed outputs with the catalog; write nothing"),
        ("validate", cmd_validate, "check the catalog only"),
    ):
        sub = verbs.add_parser(name, help=help_text, description=help_text)
        _catalog_option(sub)
        if name != "validate":
            sub.add_argument("--out", type=Path, default=ROOT, metavar="DIR",
                             help="root under which outputs are written or compared (default: the repository)")
        sub.set_defaults(func=func)
    _add_lookup_verbs(verbs)
    return parser


def _add_lookup_verbs(verbs) -> None:
    explain = verbs.add_parser("explain", help="print one code (by name, C name, hex, decimal or logged message)")
    explain.add_argument("key")
    explain.add_argument("--lang", default=None, help="zh or en (default: the catalog's first language)")
    explain.add_argument("--edition", default=None, help="the edition whose text to show (default: the newest listing it)")
    _catalog_option(explain)
    explain.set_defaults(func=cmd_explain)

    diff = verbs.add_parser("diff", help="what changed between two editions")
    diff.add_argument("old")
    diff.add_argument("new")
    diff.add_argument("--lang", default=None)
    diff.add_argument("--json", action="store_true", help="print the changes as JSON")
    _catalog_option(diff)
    diff.set_defaults(func=cmd_diff)

    audit = verbs.add_parser("audit", help="compare the catalog with upstream files for one edition")
    audit.add_argument("--edition", required=True)
    audit.add_argument("--python", type=Path, metavar="FILE", help="a Python source defining the enum")
    audit.add_argument("--header", type=Path, metavar="FILE", help="a C/C++ header with the LLM_* constants")
    audit.add_argument("--page", type=Path, metavar="FILE", help="a documentation page (Markdown or HTML table)")
    audit.add_argument("--json", action="store_true")
    _catalog_option(audit)
    audit.set_defaults(func=cmd_audit)

    imp = verbs.add_parser("import", help="bring an upstream page into the catalog as an edition")
    imp.add_argument("--edition", required=True)
    imp.add_argument("--lang", required=True)
    imp.add_argument("--page", type=Path, required=True, metavar="FILE")
    _catalog_option(imp)
    imp.set_defaults(func=cmd_import)


def _catalog_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--catalog", type=Path, default=ROOT / "catalog", metavar="PATH",
                        help="the catalog directory, or one catalog file (default: the repository's catalog/)")


def cmd_validate(args) -> int:
    catalog = load_catalog(args.catalog)
    texts = sum(len(code.meaning) + len(code.solution) for code in catalog.codes)
    print(f"{display_path(args.catalog)}: valid: {len(catalog.codes)} codes "
          f"({len(catalog.python_codes)} in Python, {len(catalog.c_codes)} in C/C++), "
          f"{len(catalog.editions)} editions, {texts} texts")
    return EXIT_OK


def cmd_generate(args) -> int:
    files = render_all(load_catalog(args.catalog))
    actions = write_outputs(args.out, files, OWNED_DIRS)
    for action, path in actions:
        print(f"{action} {path}")
    written = sum(1 for action, _ in actions if action == "wrote")
    removed = len(actions) - written
    print(f"generate: {len(files)} outputs, {written} written, {removed} removed")
    return EXIT_OK


def cmd_check(args) -> int:
    files = render_all(load_catalog(args.catalog))
    drift = compare(args.out, files, OWNED_DIRS)
    if not drift:
        print(f"check: all {len(files)} outputs match the catalog")
        return EXIT_OK
    for label, paths in (("stale", drift.stale), ("missing", drift.missing), ("orphaned", drift.orphaned)):
        for path in paths:
            print(f"{label}: {path}")
    for path in drift.stale + drift.missing:
        sys.stdout.write(unified_diff(args.out, path, files[path]))
    count = len(drift.stale) + len(drift.missing) + len(drift.orphaned)
    print(f"check: {count} output(s) differ from the catalog; run `make generate` to update them", file=sys.stderr)
    return EXIT_DIFFERENT


def _language(catalog, lang):
    if lang is None:
        return catalog.family.languages[0]
    if lang not in catalog.family.languages:
        raise UsageError(f"--lang must be one of {', '.join(catalog.family.languages)}, not {lang!r}")
    return lang


def _edition(catalog, edition_id):
    if edition_id is None:
        return None
    edition = catalog.edition_by_id.get(edition_id)
    if edition is None:
        raise UsageError(f"no edition {edition_id!r}; editions: {', '.join(e.id for e in catalog.editions)}")
    return edition


def cmd_explain(args) -> int:
    from generator.explain import NotFound, explain, find_code

    catalog = load_catalog(args.catalog)
    lang, edition = _language(catalog, args.lang), _edition(catalog, args.edition)
    try:
        code = find_code(catalog, args.key)
    except NotFound as error:
        raise UsageError(str(error)) from None
    sys.stdout.write(explain(catalog, code, lang, edition))
    return EXIT_OK


def cmd_diff(args) -> int:
    from generator.changes import compare_editions
    from generator.explain import diff_data, diff_text

    catalog = load_catalog(args.catalog)
    lang = _language(catalog, args.lang)
    old, new = _edition(catalog, args.old), _edition(catalog, args.new)
    diff = compare_editions(catalog, old, new)
    if args.json:
        print(json.dumps(diff_data(catalog, diff, lang), ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(diff_text(catalog, diff, lang))
    return EXIT_OK


def cmd_audit(args) -> int:
    from generator import audit

    catalog = load_catalog(args.catalog)
    edition = _edition(catalog, args.edition)
    if not (args.python or args.header or args.page):
        raise UsageError("audit needs at least one of --python FILE, --header FILE, --page FILE")
    findings = []
    if args.python:
        findings += audit.audit_python(catalog, args.python)
    if args.header:
        findings += audit.audit_header(catalog, args.header)
    if args.page:
        findings += audit.audit_page(catalog, edition, args.page)
    if args.json:
        print(json.dumps({"edition": edition.id, "findings": [f.as_dict() for f in findings]}, ensure_ascii=False, indent=2))
    else:
        for finding in findings:
            print(finding)
        print(f"audit {edition.id}: {len(findings)} difference(s)" if findings else f"audit {edition.id}: no differences")
    return EXIT_DIFFERENT if findings else EXIT_OK


def cmd_import(args) -> int:
    from generator.importer import ImportProblem, import_page, read_import

    catalog = load_catalog(args.catalog)
    lang = _language(catalog, args.lang)
    try:
        page = read_import(catalog, args.edition, lang, args.page)
    except ImportProblem as problem:
        print(problem, file=sys.stderr)
        print("import: nothing was written", file=sys.stderr)
        return EXIT_DIFFERENT
    changed = import_page(args.catalog, page)
    for path in changed:
        print(f"wrote {display_path(path)}")
    print(f"import: {len(page.rows)} rows into edition {page.edition} ({lang}); "
          f"{len(changed)} file(s) changed{'; run `make generate`' if changed else ''}")
    return EXIT_OK


def _terminate(signum, _frame):
    raise SystemExit(128 + signum)  # unwinds through `finally`: no temporary file is left


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help (0) or wrong usage (2)
        return int(exc.code or 0)
    previous = signal.signal(signal.SIGTERM, _terminate) if _main_thread() else None
    try:
        with _batch_gc():
            return args.func(args)
    except CatalogError as error:
        for problem in error.problems:
            print(problem, file=sys.stderr)
        print(f"{len(error.problems)} problem(s) in the catalog; nothing was written", file=sys.stderr)
        return EXIT_INVALID
    except UsageError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


@contextlib.contextmanager
def _batch_gc():
    """A command builds millions of long-lived objects and frees them at exit:
    the cyclic collector rescanning them costs a third of a large run."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


def entry_point() -> None:
    sys.exit(main())
