"""Convert a catalog of format 5 to format 6: a code's earlier facts in `earlier`.

Format 5 kept a code's earlier names in `renamed` (each with `until`: per repository, the first
release with the newer name). Format 6 keeps every earlier identity fact there, under `earlier`:
an item may name an earlier `python` name, `c` name and `value`, each holding until the releases
of `until`. Converting is renaming the key (and the `format` line); every byte else stays.

    python scripts/migrate_to_format_6.py CATALOG [CATALOG ...]

CATALOG: a catalog directory or one catalog file. It runs once and is deleted after it ran (the
project's history keeps it; the loader names the commit that has it).
"""
from __future__ import annotations

import re
import sys
from pathlib import Path


def convert(data: bytes) -> bytes:
    data = re.sub(rb"(?m)^format: 5$", b"format: 6", data)
    return re.sub(rb"(?m)^([ \t]+)renamed:", rb"\1earlier:", data)


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip().split("\n\n")[1].strip(), file=sys.stderr)
        return 2
    changed = 0
    for given in map(Path, argv):
        for path in sorted(given.rglob("*.yaml")) if given.is_dir() else [given]:
            data = path.read_bytes()  # as bytes: a fixture may hold bytes that are not UTF-8 on purpose
            new = convert(data)
            if new != data:
                path.write_bytes(new)
                changed += 1
    print(f"converted {changed} files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
