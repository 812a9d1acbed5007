"""Command line: parses arguments and calls; holds no logic of its own.

Exit status: 0 ok; 1 differences found; 2 wrong usage; 3 invalid catalog.
"""
from __future__ import annotations

import argparse
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
    return parser


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


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


def entry_point() -> None:
    sys.exit(main())
