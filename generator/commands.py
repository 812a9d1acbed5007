"""What each verb does, given parsed arguments: load, call the layer that knows, print."""
from __future__ import annotations

import gc
import json
import os
import sys
from pathlib import Path
from typing import Optional

from generator.reading.load import display_path, load_catalog
from generator.domain.family import Catalog, Family
from generator.core.exits import EXIT_DIFFERENT, EXIT_OK, OutputError, UsageError, safe_print
from generator.writing.lock import run_lock
from generator.writing.tree import survey, unified_diff, write_survey
from generator.rendering.targets import all_owners, describe_targets, plan_outputs
from generator.core.project import project_version


# Full-width digits, Latin letters, low line and hyphen-minus, as a Chinese input method types them in
# its full-width mode (０x５０１０Ｂ０１Ａ, ＬＬＭ＿ＴＩＭＥＯＵＴ, －１), read as the ASCII ones every value and
# name is written in (the site's search does too)
HALF_WIDTH = {c: c - 0xFEE0 for c in (*range(0xFF10, 0xFF1A), *range(0xFF21, 0xFF3B), *range(0xFF41, 0xFF5B),
                                      0xFF3F, 0xFF0D)}


def catalog_of(args) -> Catalog:
    location = args.catalog
    if location is None:
        raise UsageError("no catalog: pass --catalog DIR (an installed generator has no catalog of its own)")
    try:
        location.stat()
    except FileNotFoundError:
        raise UsageError(f"--catalog {location}: no such file or directory") from None
    except OSError as error:
        raise UsageError(f"--catalog {location}: {error.strerror}") from None
    return load_catalog(location)


def out_of(args) -> Path:
    out = args.out
    try:
        out.stat()
    except FileNotFoundError:
        return out
    except OSError as error:
        raise UsageError(f"--out {out}: {error.strerror}") from None
    if not out.is_dir():
        raise UsageError(f"--out {out} is a file; --out names the directory under which the outputs go")
    return out


def families_of(catalog: Catalog, names: Optional[list[str]]) -> Optional[list[str]]:
    """The families --family names (of codes or of messages), all (None) without it."""
    if not names:
        return None
    known = [*catalog.family_by_id, *catalog.message_family_by_id]
    for name in names:
        if name not in known:
            raise UsageError(f"no family {name!r}; families: {', '.join(known)}")
    return names


def family_of(catalog: Catalog, name: Optional[str], edition: Optional[str] = None) -> Family:
    """The family of codes --family names; else the one whose edition `edition` names (a UsageError
    where several have an edition of that id); else the first."""
    if name is not None:
        family = catalog.family_by_id.get(name)
        if family is None:
            codes = ", ".join(f.id for f in catalog.families)
            if name in catalog.message_family_by_id:
                raise UsageError(f"{name!r} is a family of messages, which this verb does not take; "
                                 f"families of codes: {codes}")
            raise UsageError(f"no family {name!r}; families: {codes}")
        return family
    if edition is not None:
        having = [family for family in catalog.families if family.edition(edition) is not None]
        if len(having) > 1:
            raise UsageError(f"edition {edition!r} is in several families ({', '.join(f.id for f in having)}); "
                             "pass --family NAME")
        if having:
            return having[0]
        raise UsageError(f"no edition {edition!r} in any family; " + "; ".join(
            f"{f.id}: {', '.join(e.id for e in f.editions)}" for f in catalog.families))
    return catalog.families[0]


# -- generate, check, validate, targets --------------------------------------------------------------


def _plan_and_survey(args, every_family: bool = False, catalog: Optional[Catalog] = None):
    """The outputs planned (the families of --family, or all of them for `every_family`),
    rendered, and compared with the tree."""
    wanted = None if every_family else getattr(args, "family", None)
    out = out_of(args)
    catalog = catalog or catalog_of(args)
    # The model lives as long as the run and holds no cycle to collect: kept out of the cyclic
    # collector's scans, which at 10,000 codes revisited it for a fifth of the run.
    gc.freeze()
    outputs, owners = plan_outputs(catalog, families_of(catalog, wanted))
    return out, outputs, survey(out, outputs, owners, all_owners(catalog))


def cmd_generate(args) -> int:
    catalog = catalog_of(args)  # read first: a catalog refused writes nothing, not even --out or its lock
    with run_lock(out_of(args)):  # from the survey to the last write: concurrent runs take turns
        out, _outputs, result = _plan_and_survey(args, catalog=catalog)
        for warning in result.warnings:
            safe_print(f"warning: {warning}", sys.stderr)
        actions = write_survey(out, result)
    for action, path in actions:
        safe_print(f"{action} {path}")
    for path in result.edited_orphans:
        safe_print(f"kept {path}: no longer generated, but edited by hand since it was written; delete it yourself")
    for path in result.not_files:
        safe_print(f"warning: {path} is a symbolic link or no regular file among the outputs' folders: the generator "
                   "never writes one, and the site would publish what it points to; remove it", sys.stderr)
    written = sum(1 for action, _ in actions if action == "wrote")
    safe_print(f"generate: {len(result.hashes)} outputs, {written} written, {len(actions) - written} removed")
    return EXIT_OK


def cmd_check(args) -> int:
    # every output rendered and compared byte for byte: a cache (anyone who can write the tree
    # can plant one) never vouches for what `check` says
    if args.out is not None and not args.out.is_dir():  # `generate --out` makes its tree; check only reads one
        raise UsageError(f"--out {args.out}: no such directory to check; check the path (relative paths start from "
                         f"{Path.cwd()}), or run `generate --out {args.out}` first")
    out, outputs, result = _plan_and_survey(args)
    for warning in result.warnings:
        safe_print(f"warning: {warning}", sys.stderr)
    if not result:
        safe_print(f"check: all {len(result.hashes)} outputs match the catalog")
        return EXIT_OK
    for label, paths in (("stale", result.stale), ("missing", result.missing), ("orphaned", result.orphaned),
                         ("orphaned, edited by hand", result.edited_orphans),
                         ("not a file (a link, a FIFO or a device: remove it)", result.not_files)):
        for path in paths:
            safe_print(f"{label}: {path}")
    for path in result.stale:
        sys.stdout.write(unified_diff(path, result.current[path], result.texts[path]))
    count = (len(result.stale) + len(result.missing) + len(result.orphaned) + len(result.edited_orphans)
             + len(result.not_files))
    safe_print(f"check: {count} output(s) differ from the catalog; run `make generate` to update them", sys.stderr)
    if result.edited_orphans:
        safe_print("(generate never removes an orphan edited by hand: delete it yourself, after keeping what you "
                   "changed in it)", sys.stderr)
    if result.stale:  # a stale output may be an edit: generate puts the catalog's bytes back
        safe_print("(generate writes each stale output again from the catalog: a change made in one by hand is "
                   "lost; make it in catalog/ or templates/ instead)", sys.stderr)
    return EXIT_DIFFERENT


def counted(number: int, noun: str) -> str:
    """`1 page`, `2 pages` (every noun counted here takes an s)."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def cmd_validate(args) -> int:
    catalog = catalog_of(args)
    for warning in catalog.warnings:
        safe_print(str(warning), sys.stderr)
    for family in catalog.families:
        texts = sum(len(entries) for code in family.codes for _, entries in code.texts)
        safe_print(
            f"{family.id}: {counted(len(family.codes), 'code')} ({len(family.python_codes)} in Python, "
            f"{len(family.c_codes)} in C/C++), {counted(len(family.pages), 'page')}, "
            f"{counted(len(family.timelines), 'timeline')}, {counted(len(family.editions), 'edition')}, "
            f"{counted(texts, 'text')}"
        )
    for messages in catalog.message_families:
        pages = sum(1 for code in messages.codes if code.page)
        safe_print(f"{messages.id}: {counted(len(messages.codes), 'code')} ({pages} with a page in "
                   f"{', '.join(messages.languages)}), {counted(len(messages.releases), 'registry release')}, "
                   f"{counted(sum(len(c.examples) for c in messages.codes), 'example')}")
    safe_print(f"{display_path(args.catalog)}: valid")
    return EXIT_OK


def cmd_targets(args) -> int:
    catalog = catalog_of(args) if args.catalog is not None else None
    sys.stdout.write(describe_targets(catalog))
    return EXIT_OK


def version_text(location: Optional[Path]) -> str:
    from generator.rendering.catalog_hash import catalog_hash
    from generator.rendering.message_module import message_hash

    lines = [f"llm-status-codes {project_version()}"]
    if location is not None and location.exists():
        try:
            catalog = load_catalog(location)
        except Exception as error:  # noqa: BLE001 - --version must say something useful, not fail
            lines.append(
                f"catalog at {display_path(location)}: cannot be read ({type(error).__name__}); run `validate`"
            )
        else:
            lines.append(f"catalog at {display_path(location)}, CATALOG_HASH of each family:")
            for family in catalog.families:
                lines.append(f"  {family.id}: {catalog_hash(family)}")
            for messages in catalog.message_families:
                lines.append(f"  {messages.id}: {message_hash(messages)}")
    return "\n".join(lines)


# -- the verbs that read one code or edition -----------------------------------------------------------


def cmd_explain(args) -> int:
    from generator.shipping.explain import LineMatch, NotFound, find_codes, match_line
    from generator.shipping.explain_messages import find_message

    catalog = catalog_of(args)
    families, messages = _explained_families(catalog, args.family)
    if args.key == "-":
        return _explain_log(catalog, families, messages, args)
    args.key = args.key.translate(HALF_WIDTH)
    found: list = find_message(messages, args.key)
    try:
        found = found or [LineMatch(family, code, "key") for family, code in find_codes(families, args.key)]
    except NotFound as error:
        found = match_line(families, args.key, messages)  # a pasted log line: a name or id in it, or its message
        if not found:
            line = " " in args.key.strip()  # a key of one word is a name or a number, not a line
            raise UsageError(f"{error}; nor does any code's logged message match it as a log line" if line
                             else _no_such_id(messages, args.key, error)) from None
    if args.json:
        safe_print(json.dumps([_match_data(catalog, m, args.lang, args.edition) for m in found], ensure_ascii=False,
                              indent=2))
        return EXIT_OK
    for match in found:
        sys.stdout.flush()
        safe_print(_match_text(catalog, match, args).rstrip("\n"))
    return EXIT_OK


def _no_such_id(messages, key: str, error: LookupError) -> str:
    """What explain says of a one-word key that nothing matched: for a key shaped as a family of
    messages' id (E10015), that no code has it and the nearest ids; for a number no code has as its
    value, `error` and the ids of that number (10059: E10059, typed without its letter), else those one
    digit away (10015: E10014, E10016), as the site's search suggests them; else `error`."""
    import re

    from generator.rendering.runtime.message_runtime import nearest_ids

    ident = key.strip().strip("[]:").upper()
    for family in messages:
        if re.fullmatch(family.key, ident):
            near = nearest_ids(ident, family.code_by_id)
            return f"{ident} is none of the {family.name['en']}" + (f"; the nearest: {', '.join(near)}" if near else "")
    if not ident.isascii() or not ident.isdigit():
        return str(error)
    ids = [f"{i} ({family.name['en']})" for family in messages for i in family.code_by_id
           if i[1:] == ident and i[:1].isalpha()]
    if ids:
        return f"{error}; the id{'s' if len(ids) > 1 else ''} with that number: {', '.join(ids)}"
    near = [f"{i} ({family.name['en']})" for family in messages
            for letter in sorted({i[0] for i in family.code_by_id if i[:1].isalpha()})
            for i in nearest_ids(letter + ident, family.code_by_id)
            if sum(a != b for a, b in zip(i[1:], ident)) == 1]
    return f"{error}; the ids one digit away: {', '.join(near)}" if near else str(error)


def _explained_families(catalog: Catalog, name: Optional[str]):
    """The families `--family` names (all by default): (families of codes, families of messages)."""
    if name in catalog.message_family_by_id:
        return [], [catalog.message_family_by_id[name]]
    if name:
        return [family_of(catalog, name)], []
    return list(catalog.families), list(catalog.message_families)


def _language(catalog: Catalog, match, lang: Optional[str]) -> str:
    from generator.shipping.explain_messages import MessageMatch

    if isinstance(match, MessageMatch):
        if lang is not None and lang not in match.family.languages:
            raise UsageError(f"--lang {lang}: {match.family.id} has {', '.join(match.family.languages)}")
        return lang or match.family.languages[0]
    return language_of(match.family, lang)


def _edition_for(match, edition: Optional[str]):
    """--edition for the match's family: an edition (a family of codes), a release (of messages), or None."""
    from generator.shipping.explain_messages import MessageMatch

    if not edition:
        return None
    if isinstance(match, MessageMatch):
        if edition not in match.family.editions:
            raise UsageError(f"--edition {edition}: {match.family.id}'s editions are "
                             f"{', '.join(match.family.editions)}")
        return edition
    return edition_of(match.family, edition)


def _match_data(catalog: Catalog, match, lang: Optional[str], edition: Optional[str] = None) -> dict:
    from generator.shipping.explain import line_data
    from generator.shipping.explain_messages import MessageMatch, message_data

    if isinstance(match, MessageMatch):
        return message_data(catalog.site, match, _language(catalog, match, lang), _edition_for(match, edition))
    return line_data(catalog.site, match, _language(catalog, match, lang), _edition_for(match, edition))


def _match_text(catalog: Catalog, match, args) -> str:
    from generator.shipping.explain import explain
    from generator.shipping.explain_messages import MessageMatch, explain_message

    lang = _language(catalog, match, args.lang)
    if isinstance(match, MessageMatch):
        return explain_message(catalog.site, match, lang, _edition_for(match, args.edition))
    edition = _edition_for(match, args.edition)
    text = explain(catalog.site, match.family, match.code, lang, edition)
    if match.how == "message":
        took = "; ".join(f"%s{n} = {value!r}" for n, value in enumerate(match.placeholders, 1))
        text = (f"(the line's message is {match.code.name}'s: {match.code.log_message!r}"
                + (f"; {took}" if took else "") + ")\n" + text)
    return text


def _explain_log(catalog: Catalog, families, messages, args) -> int:
    """`explain -`: a whole log from standard input, each line it recognises followed by the code
    it is about (as --json: one object per recognised line, with its line number); on stderr, how
    many lines it recognised (a log of none printed nothing at all)."""
    from generator.shipping.explain import match_line
    from generator.shipping.explain_messages import MessageMatch, also_fits

    recognised: list = []
    number = lines = 0
    for number, line in enumerate(sys.stdin, 1):
        found = match_line(families, line.rstrip("\n"), messages)
        if not found:
            continue
        lines += 1
        if args.json:
            recognised += [{"line": number, **_match_data(catalog, m, args.lang)} for m in found]
            continue
        safe_print(f"{number}: {line.rstrip()}")
        for match in found:
            data = _match_data(catalog, match, args.lang)
            took = ", ".join(repr(v) for v in match.placeholders)
            if isinstance(match, MessageMatch):
                safe_print(f"  -> {data['code']} ({data['category']}, {match.family.id})"
                           + (f" [{took}]" if took else ""))
                if match.also:  # as explain says it of one line
                    safe_print(f"     {also_fits(catalog.site, match, args.lang)}")
            else:
                safe_print(f"  -> {data['code']} ({data['hex']}, {match.family.id}): {data['meaning'] or '-'}"
                           + (f" [{took}]" if took else ""))
            if data["solution"]:
                safe_print("     " + data["solution"].replace("\n", "\n     "))
    if args.json:
        safe_print(json.dumps(recognised, ensure_ascii=False, indent=2))
    safe_print(f"explain: {lines} of {number} line(s) name a code or match a code's message", sys.stderr)
    return EXIT_OK


def cmd_diff(args) -> int:
    from generator.domain.changes import compare_editions
    from generator.shipping.explain import diff_data, diff_text

    catalog = catalog_of(args)
    family = family_of(catalog, args.family, args.old)
    lang = language_of(family, args.lang)
    old, new = edition_of(family, args.old), edition_of(family, args.new)
    diff = compare_editions(family, old, new)
    if args.json:
        safe_print(json.dumps(diff_data(family, diff, lang), ensure_ascii=False, indent=2))
    else:
        if args.family is None and len(catalog.families) > 1:  # the family its editions were found in
            safe_print(f"{family.name[lang]} ({family.id})")
        safe_print(diff_text(catalog.site, family, diff, lang).rstrip("\n"))
    return EXIT_OK


def language_of(family: Family, lang: Optional[str]) -> str:
    if lang is None:
        return family.languages[0]
    if lang not in family.languages:
        raise UsageError(f"--lang must be one of {', '.join(family.languages)}, not {lang!r}")
    return lang


def edition_of(family: Family, edition_id: str):
    edition = family.edition(edition_id)  # an id once published resolves to the edition that holds its version
    if edition is None:
        raise UsageError(
            f"no edition {edition_id!r} in {family.id}; editions: {', '.join(e.id for e in family.editions)}"
        )
    return edition


def existing_file(path: Optional[Path], option: str) -> Optional[Path]:
    if path is not None and not path.exists():
        raise UsageError(f"{option} {path}: no such file; check the path (relative paths start from {Path.cwd()})")
    if path is not None and path.is_dir():
        raise UsageError(f"{option} {path} is a directory; name a file in it")
    return path


def cmd_vendor(args) -> int:
    from generator.shipping.vendor import vendor

    catalog = catalog_of(args)
    families_of(catalog, [args.family] if args.family else None)  # of codes or of messages: vendor takes both
    messages = catalog.message_family_by_id.get(args.family)
    family = messages or family_of(catalog, args.family)
    for line in vendor(catalog, family, args.to, header=args.header, force=args.force):
        safe_print(line)
    return EXIT_OK


def cmd_verify_vendored(args) -> int:
    from generator.shipping.vendor import proven, verify_vendored

    for path in args.files:
        existing_file(path, "file")
    if args.against is not None and not args.against.exists():
        raise UsageError(f"--against {args.against}: no such file or directory")
    try:
        problems = verify_vendored(args.files, args.against)
    except RecursionError:  # json's parser on '[[[[…': the only nested input verify_vendored reads
        raise UsageError(f"--against {args.against}: nested too deeply to be a JSON export of this generator "
                         "(generated/json/*.json)") from None
    for line in problems:
        safe_print(line, sys.stderr)
    if not problems:
        safe_print(f"verify-vendored: {proven(len(args.files), args.against)}")
    return EXIT_DIFFERENT if problems else EXIT_OK


# -- publish, serve ----------------------------------------------------------------------------


def _site_is_current(args) -> None:
    """Publishing or serving stale pages would show readers what the catalog no longer says."""
    _out, _outputs, result = _plan_and_survey(args, every_family=True)
    stale = sorted(result.stale + result.missing)
    if stale:
        more = f" and {len(stale) - 3} more" if len(stale) > 3 else ""
        raise OutputError(f"the outputs do not match the catalog ({', '.join(stale[:3])}{more}); "
                          "run `make generate` first")


def cmd_publish(args) -> int:
    from generator.shipping.publish import PublishError, publish

    _site_is_current(args)
    try:
        published = publish(out_of(args), out_of(args) / "site", args.remote, args.branch, args.site_url or "")
    except PublishError as error:
        raise OutputError(str(error)) from None
    safe_print(published.summary())
    return EXIT_OK


def cmd_docs(args) -> int:
    from generator.shipping.sitebuild import build_docs

    return EXIT_OK if build_docs(out_of(args) / "site", os.environ.get("SITE_URL", "")) == 0 else EXIT_DIFFERENT


def cmd_serve(args) -> int:
    from generator.shipping.serve import serve

    catalog_of(args)  # a usage error (no such catalog) before anything starts
    return serve(args.catalog, out_of(args), args.dev_addr, args.interval, generate=generate_here)


def generate_here(catalog: Path, out: Path, families: Optional[list[str]] = None) -> tuple[int, list[str]]:
    """`generate` in this process, as `serve` runs it at every save (the imports and the
    code's own caches stay warm: a second of every save, as a command): the exit status and
    the lines it printed. Problems go to standard error, as the command prints them."""
    import argparse
    import contextlib
    import io

    from generator.core.exits import EXIT_INVALID, EXIT_USAGE
    from generator.core.problems import CatalogError

    args = argparse.Namespace(catalog=catalog, out=out, family=families, full=False, jobs=None)
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            status = cmd_generate(args)
    except CatalogError as error:
        for problem in error.problems:
            safe_print(str(problem), sys.stderr)
        safe_print(f"{len(error.problems)} problem(s) in the catalog; nothing was written", sys.stderr)
        status = EXIT_INVALID
    except UsageError as error:  # a family that the catalog does not have
        return EXIT_USAGE, [f"error: {error}"]
    except (OutputError, OSError) as error:
        safe_print(f"error: {error}", sys.stderr)
        status = 1
    finally:
        gc.unfreeze()  # the run froze its model out of the collector's scans; this process goes on
    return status, printed.getvalue().splitlines()
