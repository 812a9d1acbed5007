"""Checks, against real upstream repositories, which pipe-table pages the catalog writes back
byte for byte (`python -m generator upstream-page`). Not part of the test suite: the project
never needs the repositories; this is for a maintainer who has them.

    .venv/bin/python scripts/check_upstream_pages.py \\
        --upstream hicann/ge=/path/to/ge --upstream hicann/hixl=/path/to/hixl \\
        --upstream libochao-huawei/hixl=/path/to/libochao-hixl [--diff]

Prints one line per (edition, language): identical or differs, with the blob (for a page that
is a section of a larger file, the section is compared); then the distinct blobs that are
byte-identical. Exit 0 when every one is, 1 otherwise.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.reading.load import load_catalog  # noqa: E402
from generator.upstream.git import parse_upstream_args  # noqa: E402
from generator.audit.regenerated import check_pages  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--catalog", type=Path, default=Path(__file__).resolve().parent.parent / "catalog")
    parser.add_argument("--upstream", action="append", required=True, metavar="OWNER/NAME=DIR")
    parser.add_argument("--diff", action="store_true", help="print the unified diff of each page that differs")
    args = parser.parse_args()
    catalog = load_catalog(args.catalog)
    checks = check_pages(catalog, parse_upstream_args(args.upstream, catalog))
    blobs: dict[str, bool] = {}
    for check in checks:
        verdict = "identical" if check.identical else "DIFFERS"
        print(f"{verdict:9}  {check.family:12} {check.edition:22} {check.lang}  {(check.blob or '-')[:8]}  "
              f"{check.repo}:{check.path}" + (f", its section {check.section!r}" if check.section else ""))
        if args.diff and not check.identical:
            print(check.diff)
        if check.blob:
            blobs[check.blob] = blobs.get(check.blob, True) and check.identical
    same = sorted(b[:8] for b, ok in blobs.items() if ok)
    print(f"{len(same)} of {len(blobs)} distinct blobs byte-identical: {' '.join(same)}")
    return 0 if checks and all(c.identical for c in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
