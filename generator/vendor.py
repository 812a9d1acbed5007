"""Vendoring: a family's module (and header) written into another project, and the check
that a vendored copy is unmodified and, given the catalog or its JSON export, current.

A vendored file carries its banner (the generator's version and the stamp of
what it was rendered from), a checksum of its own text, and its family's
CATALOG_HASH; nothing else is needed to tell an edited or an old copy.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from generator import digest
from generator.catalog import load_catalog
from generator.errors import UsageError
from generator.model import Catalog, Family
from generator.outputs import OutputError, atomic_write, os_problem
from generator.render import seal_intact
from generator.render_c import c_path, plan_c
from generator.render_python import plan_python, python_path

_PY_HASH = re.compile(r'^CATALOG_HASH = "([0-9a-f]+)"$', re.M)
_C_HASH = re.compile(r'^#define (\w+)_CATALOG_HASH "([0-9a-f]+)"$', re.M)


def vendor(catalog: Catalog, family: Family, to: Path, header: bool = False, force: bool = False) -> list[str]:
    if to.exists() and not to.is_dir():
        raise UsageError(f"--to {to} is a file; it names the directory to vendor into")
    outputs = plan_python(catalog, family) + (plan_c(catalog, family) if header else [])
    lines = []
    for output in outputs:
        target = to / Path(output.path).name
        text = output.render()
        current = _read(target)
        if current == text:
            lines.append(f"unchanged {target}")
            continue
        if current is not None and seal_intact(current) is not True and not force:
            raise OutputError(f"{target} was edited by hand since it was generated (its checksum does not match); "
                              "keep your edits elsewhere, or pass --force to replace it")
        try:
            atomic_write(target, text.encode("utf-8"))
        except OSError as error:
            raise os_problem(str(target), error) from None
        lines.append(f"{'updated' if current is not None else 'wrote'} {target} ({family.id}, catalog {digest.family_digest(family)})")
    return lines


def _read(path: Path) -> Optional[str]:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as error:
        raise OutputError(f"cannot read {path}: {getattr(error, 'strerror', None) or 'not UTF-8 text'}") from None


def vendor_again(path: Path, family_id: Optional[str] = None, force: bool = False) -> str:
    """How to replace a vendored copy, said for the project that vendors it: `vendor` is a verb
    of llm-status-codes, run in its checkout (or where it is installed, with --catalog)."""
    options = f"--to {path.parent.resolve()} --family {family_id or 'FAMILY'}"
    options += (" --header" if path.suffix == ".h" else "") + (" --force" if force else "")
    return f"vendor it again from llm-status-codes (in its checkout: python -m generator vendor {options})"


@dataclass(frozen=True)
class Expected:
    """What a vendored file of this name should be, by the catalog or JSON export it is checked against."""

    family_id: str
    catalog_hash: str


def expected_files(against: Path) -> dict[str, Expected]:
    """{module or header file name: Expected} of a catalog directory, or of a JSON export."""
    if against.is_file() and against.suffix == ".json":
        try:
            data = json.loads(against.read_text(encoding="utf-8"))
            family = data["family"]
            expected = Expected(str(family["id"]), str(data["catalog_hash"]))
            return {f"{family['python']['module']}.py": expected, f"{family['c']['header']}.h": expected}
        except (OSError, ValueError, KeyError, TypeError):
            raise UsageError(f"--against {against}: not a JSON export of this generator (generated/json/*.json)") from None
    catalog = load_catalog(against)
    files = {}
    for family in catalog.families:
        expected = Expected(family.id, digest.family_digest(family))
        files[Path(python_path(family)).name] = expected
        files[Path(c_path(family)).name] = expected
    return files


def verify_vendored(files: list[Path], against: Optional[Path]) -> list[str]:
    """One line per problem; none when every copy is as generated (and current)."""
    table = expected_files(against) if against is not None else {}
    problems = []
    for path in files:
        text = _read(path)
        if text is None:
            problems.append(f"{path}: no such file")
            continue
        intact = seal_intact(text)
        if intact is None:
            problems.append(f"{path}: no generator checksum: this is not a file the generator wrote (or its banner was removed)")
            continue
        if not intact:
            problems.append(f"{path}: edited by hand since it was generated: restore it, or {vendor_again(path, force=True)}")
            continue
        if against is None:
            continue
        match = _PY_HASH.search(text) or _C_HASH.search(text)
        ours = match.group(match.lastindex) if match else None
        expected = table.get(path.name)
        if expected is None:
            problems.append(f"{path}: {against} generates no file of this name ({', '.join(sorted(table))})")
        elif ours != expected.catalog_hash:
            problems.append(f"{path}: out of date: generated from catalog {ours}, the catalog is now {expected.catalog_hash}; "
                            f"{vendor_again(path, expected.family_id)}")
    return problems
