"""Command line: parses arguments and calls commands; holds no logic of its own.

Exit status: 0 ok; 1 differences found; 2 wrong usage; 3 invalid catalog.
"""
from __future__ import annotations

import argparse
import contextlib
import gc
import signal
import sys
from pathlib import Path
from typing import Optional, Sequence

from generator.core.environment import missing_package, python_too_old
from generator.core.exits import EXIT_INVALID, EXIT_OK, EXIT_USAGE, OutputError, UsageError, safe_print
from generator.core.files import CHECKOUT_CATALOG as DEFAULT_CATALOG
from generator.core.problems import CatalogError

ROOT = Path(__file__).resolve().parent.parent


def _path(text: str) -> Path:
    """A path given on the command line; an empty one (`--catalog ''`, an unset variable) names none,
    where Path('') would be the current directory."""
    if not text:
        raise argparse.ArgumentTypeError("an empty path names no file or directory; give one")
    return Path(text)


class Parser(argparse.ArgumentParser):
    def error(self, message):  # exit status 2, as argparse, with the usage line
        self.print_usage(sys.stderr)
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="python -m generator",
        description="Generate status-code outputs (Python, C/C++, JSON, docs site) from one catalog, and check them.",
    )
    parser.add_argument("--version", action="store_true", help="print the generator's version and the catalog's hashes")
    parser.add_argument("--catalog", type=_path, default=None, metavar="PATH", help=argparse.SUPPRESS)
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", parser_class=Parser)
    for name, help_text in (
        ("generate", "write every output that changed, atomically; remove orphaned outputs"),
        ("check", "compare the outputs with the catalog; list stale, missing and orphaned ones; write nothing"),
    ):
        sub = _verb(verbs, name, help_text)
        _out_option(sub, "root under which outputs are written or compared (default: the repository)")
        sub.add_argument(
            "--family", action="append", metavar="NAME", help="only this family's outputs (and the shared files)"
        )
        # accepted from older versions' scripts: every run renders every output, in one process
        sub.add_argument("--full", action="store_true", help="accepted, and changes nothing: every run renders "
                                                            "every output")
        sub.add_argument("--jobs", type=int, default=None, metavar="N", help="accepted, and changes nothing")
    _verb(verbs, "validate", "check the catalog only")
    _verb(verbs, "targets", "print the table of outputs and where each goes")
    _reading_verbs(verbs)
    _upstream_verbs(verbs)
    _publishing_verbs(verbs)
    return parser


def _verb(verbs, name: str, help_text: str, catalog: bool = True) -> argparse.ArgumentParser:
    """A verb, run by commands.cmd_NAME, taking --catalog unless it reads no catalog."""
    sub = verbs.add_parser(name, help=help_text, description=help_text)
    if catalog:
        sub.add_argument("--catalog", type=_path, default=DEFAULT_CATALOG, metavar="PATH",
                         help="the catalog directory, or one catalog file (default: the repository's catalog/)")
    sub.set_defaults(func="cmd_" + name.replace("-", "_"))
    return sub


def _out_option(parser: argparse.ArgumentParser, help_text: str) -> None:
    parser.add_argument(
        "--out", type=_path, default=ROOT if DEFAULT_CATALOG else Path.cwd(), metavar="DIR", help=help_text
    )


def _reading_verbs(verbs) -> None:
    explain = _verb(verbs, "explain", "print one code (by name, C name, hex, decimal, logged message or a pasted log "
                                      "line; - reads a log from standard input)")
    explain.add_argument("key", help="LLM_TIMEOUT, 0x5010B01A, 1343270938, E10003, 'Process timeout.', a whole log "
                                     "line in quotes, or - to read a log from standard input")
    explain.add_argument("--json", action="store_true", help="the answer as JSON, for tools")
    explain.add_argument("--lang", default=None, help="zh or en (the catalog's languages; default: the family's first)")
    explain.add_argument(
        "--edition",
        default=None,
        help="the edition whose texts to show (default: the one the generated module answers from)",
    )
    explain.add_argument("--family", default=None, metavar="NAME", help="the family to look in (default: every family)")

    diff = _verb(verbs, "diff", "what changed between two editions")
    diff.add_argument("old", help="an edition id (9.0.0-v2; a family of one page names its editions by release: 9.0.0)")
    diff.add_argument("new", help="an edition id of the same family")
    diff.add_argument("--lang", default=None, help="zh or en (default: the family's first)")
    diff.add_argument("--family", default=None, metavar="NAME", help="the family (default: the first that has OLD)")
    diff.add_argument("--json", action="store_true", help="print the changes as JSON")


def _upstream_verbs(verbs) -> None:
    audit = _verb(verbs, "audit", "compare the catalog with upstream's files, for one edition or everything")
    audit.add_argument("--edition", help="the edition whose page (and the sources) the files are")
    audit.add_argument("--family", default=None, metavar="NAME", help="the family (default: the one the edition is in)")
    audit.add_argument("--python", type=_path, metavar="FILE", help="a Python source defining the enum or constants")
    audit.add_argument(
        "--binding", type=_path, metavar="FILE", help="upstream's pybind source binding the wrapper constants"
    )
    audit.add_argument(
        "--header", type=_path, action="append", metavar="FILE", help="a C/C++ header (repeat for several)"
    )
    audit.add_argument("--page", type=_path, metavar="FILE", help="a documentation page (Markdown or HTML)")
    audit.add_argument("--upstream", action="append", metavar="OWNER/NAME=DIR",
                       help="a clone or bare git directory of an upstream repository: audit every edition and source")
    audit.add_argument("--json", action="store_true", help="the findings as JSON, for tools")

    page = _verb(verbs, "upstream-page", "print an edition's page as upstream's own Markdown file, byte for byte")
    page.add_argument("--edition", required=True, help="the edition whose page to print")
    page.add_argument("--lang", default=None, help="the page's language (default: the family's first)")
    page.add_argument("--family", default=None, metavar="NAME", help="the family (default: the one the edition is in)")
    page.add_argument("--path", default=None, help="which file, where upstream split the page over several "
                                                   "(default: its first)")
    page.add_argument("--code", default=None, metavar="ID", help="for a family with one page per code (ge): the "
                                                                "code whose page to print (default: the index)")

    source = _verb(verbs, "upstream-source", "print, from the catalog, the regions of an upstream source file that "
                                             "list a family's codes (or rewrite them in a local copy)")
    source.add_argument("--upstream", required=True, metavar="OWNER/NAME=DIR", action="append",
                        help="a clone or bare git directory of the repository")
    source.add_argument("--ref", required=True, help="the tag, branch or commit whose file it is")
    source.add_argument("--path", required=True, help="the file's path in the repository")
    source.add_argument("--write", type=_path, default=None, metavar="FILE",
                        help="rewrite the regions in this local copy of the file instead of printing them")

    imp = _verb(verbs, "import", "bring upstream into the catalog: with --upstream and --ref alone, every page, "
                                 "code and message a release (or the default branch's head) ships; with --path or "
                                 "--page, one page as an edition")
    imp.add_argument("--edition", help="the edition the page is (one page)")
    imp.add_argument("--lang", help="the page's language (one page)")
    imp.add_argument("--family", default=None, metavar="NAME",
                     help="the family the page belongs to (one page; default: the one whose editions it continues)")
    imp.add_argument("--page", type=_path, metavar="FILE", help="the page, as a file")
    imp.add_argument(
        "--upstream", metavar="OWNER/NAME=DIR", help="read the page from this repository instead (with --ref, --path)"
    )
    imp.add_argument("--ref", metavar="TAG", help="the tag (or branch) to read the page at")
    imp.add_argument("--path", metavar="PATH", help="the page's path in the repository")
    imp.add_argument("--url", help="the URL of the published page the file is a copy of")


def _publishing_verbs(verbs) -> None:
    vendor = _verb(verbs, "vendor", "write a family's module (and header) into another project, with its banner")
    vendor.add_argument("--to", type=_path, required=True, metavar="DIR", help="the folder to write the copies into")
    vendor.add_argument("--family", default=None, metavar="NAME", help="the family (default: the catalog's first)")
    vendor.add_argument("--header", action="store_true", help="also the C/C++ header")
    vendor.add_argument("--force", action="store_true", help="overwrite a copy that was edited by hand")

    verify = _verb(verbs, "verify-vendored", "check vendored copies' checksums; with --against CATALOG, their bytes "
                   "(a JSON export: their catalog hash)", catalog=False)
    verify.add_argument("files", nargs="+", type=_path, metavar="FILE", help="a vendored module or header")
    verify.add_argument("--against", type=_path, metavar="PATH", help="a catalog directory or a generated JSON export")

    publish = _verb(
        verbs, "publish", "build the site for SITE_URL and push it to a branch of a remote (as mkdocs gh-deploy)"
    )
    publish.add_argument(
        "--remote", default="origin", help="a remote of this checkout, a URL, or a path (default: origin)"
    )
    publish.add_argument(
        "--branch", default="gh-pages", help="the branch to push the built site to (default: gh-pages)"
    )
    publish.add_argument("--site-url", default="", metavar="URL",
                         help="where the site will be served (default: GitHub Pages' address for a GitHub remote)")
    _out_option(publish, "the checkout whose site/ to publish (default: the repository)")

    docs = _verb(
        verbs, "docs", "build the site into site/build/ (for $SITE_URL when it is set) and its offline copy into "
        "site/build-offline/ and .zip, as `make docs`", catalog=False
    )
    _out_option(docs, "the tree whose site/ to build (default: the repository)")

    serve = _verb(verbs, "serve", "serve the site, regenerating it whenever the catalog changes")
    serve.add_argument("--dev-addr", default="127.0.0.1:8000", metavar="HOST:PORT",
                       help="where to serve the site (default: 127.0.0.1:8000)")
    serve.add_argument("--interval", type=float, default=0.025, help=argparse.SUPPRESS)
    _out_option(serve, "the tree whose site/ to regenerate and serve (default: the repository)")


def _terminate(signum, _frame):
    raise SystemExit(128 + signum)  # unwinds through `finally`: no temporary file is left


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Every verb, as `python -m generator` and the console script run it: first whether this
    Python can run the generator at all (the imports that need a dependency come after)."""
    too_old = python_too_old()
    if too_old:
        _print_err(too_old)
        return EXIT_USAGE
    try:
        return _run(argv)
    except ModuleNotFoundError as error:
        missing = missing_package(error)
        if missing is None:
            raise
        _print_err(missing)
        return EXIT_USAGE


def _run(argv: Optional[Sequence[str]]) -> int:
    # Reading a catalog makes hundreds of thousands of objects and no garbage cycles to speak
    # of: the cyclic collector runs a hundred times less often (with the model frozen out of its
    # scans, check at 10,000 codes took 31.6 and 35.5 s of CPU against 37.5 and 40.1 s before,
    # paired runs); cycles are still collected.
    gc.set_threshold(70_000, 10, 10)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.verb is None and not args.version:
            parser.print_help()
            return EXIT_USAGE
    except UsageError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except SystemExit as exc:  # --help
        return int(exc.code or 0)
    previous = signal.signal(signal.SIGTERM, _terminate) if _main_thread() else None
    try:
        with _batch_gc(), _marked_stdout():
            from generator import commands, commands_upstream

            if args.version:
                print(commands.version_text(args.catalog or DEFAULT_CATALOG))
                return EXIT_OK
            verb = getattr(commands, args.func, None) or getattr(commands_upstream, args.func)
            return verb(args)
    except CatalogError as error:
        for problem in error.problems:
            _print_err(str(problem))
        _print_err(f"{len(error.problems)} problem(s) in the catalog; nothing was written")
        return EXIT_INVALID
    except UsageError as error:
        _print_err(f"error: {error}")
        return EXIT_USAGE
    except OutputError as error:
        _print_err(f"error: {error}")
        return 1
    except BrokenPipeError:  # `explain ... | head`: the reader left; say nothing more
        _silence_stdout()
        return 1
    except _OutputFailed as error:  # `... > /dev/full`: the standard output, not a file of ours
        _silence_stdout()
        _print_err(f"error: {error.strerror or error} (writing the standard output)")
        return 1
    except OSError as error:  # anything the layers did not word themselves: still one line, no traceback
        where = f"{error.filename}: " if error.filename else ""
        _print_err(f"error: {where}{error.strerror or error}{_where_unnamed(error)}")
        return 1
    except KeyboardInterrupt:
        _print_err("interrupted")
        return 130
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _where_unnamed(error: OSError) -> str:
    """A full disk with no file named: every output's write names its file, so this was a
    temporary file (publish builds the site in one): say where those go."""
    import errno

    if error.filename or error.errno not in (errno.ENOSPC, errno.EDQUOT):
        return ""
    import tempfile

    return (f" (writing a temporary file in {tempfile.gettempdir()}: free some space there, "
            "or set TMPDIR to a directory with room)")


class _OutputFailed(OSError):
    """Writing the standard output failed (a full disk, /dev/full): no file of the generator's."""


class _Output:
    """The standard output (or its `buffer`), its failures told apart from a file's: a full disk
    with no file named was a temporary file, unless it was this stream."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, data):
        return self._call(self._stream.write, data)

    def flush(self):
        return self._call(self._stream.flush)

    @property
    def buffer(self):
        return _Output(self._stream.buffer)

    def __getattr__(self, name):
        return getattr(self._stream, name)

    @staticmethod
    def _call(method, *args):
        try:
            return method(*args)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise _OutputFailed(error.errno, error.strerror) from None


@contextlib.contextmanager
def _marked_stdout():
    stream = sys.stdout
    sys.stdout = _Output(stream)  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout = stream


def _silence_stdout() -> None:
    import os

    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _print_err(text: str) -> None:
    safe_print(text, sys.stderr)


@contextlib.contextmanager
def _batch_gc():
    """A command builds millions of long-lived objects and frees them at exit:
    the cyclic collector rescanning them costs a third of a large run."""
    was_enabled = gc.isenabled()
    gc.set_threshold(70_000, 10, 10)
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


def exit_now(status: int) -> None:
    """End the process without freeing the model object by object (a large catalog's
    millions of objects took a third of a second to free); nothing is left to close:
    every output was written and renamed, and the streams are flushed here."""
    import os

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            _silence_stdout()
            status = status or 1
    os._exit(status)


def entry_point() -> None:
    exit_now(main())


__all__ = ["main", "entry_point", "exit_now"]
