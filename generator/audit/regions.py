"""Upstream's source files against the catalog by regeneration: each region that lists a family's
codes (generator.rendering.upstream_source) written from the catalog as the file's releases have
it, compared line by line with upstream's; and every line that defines a code outside the regions."""
from __future__ import annotations

import re

from generator.audit.findings import Finding, differing_lines
from generator.domain.family import Family
from generator.domain.model import UpstreamFile
from generator.rendering.upstream_source import (MissingFact, family_names, find_regions, outside_regions,
                                                 render_region)


def audit_regions(family: Family, item: UpstreamFile, label: str, text: str, releases: list[str]) -> list[Finding]:
    """Findings at upstream's lines, each naming the code whose catalog entry writes the line
    otherwise (or lacks what it needs)."""
    try:
        found = find_regions(text, item, family, label)
    except MissingFact as error:
        return [Finding(label, 1, "structure differs", upstream=str(error), field="region")]
    names = family_names(family)
    findings: dict[tuple, Finding] = {}
    for release in releases:
        for region in found:
            try:
                ours = render_region(family, item, region.region, release)
            except MissingFact as error:
                finding = Finding(label, region.start, "missing from catalog", catalog=str(error), field="region")
                findings.setdefault((finding.line, str(error)), finding)
                continue
            for index, upstream, catalog in differing_lines(list(region.lines), ours):
                line = region.start + index
                code = next((w for w in re.findall(r"\w+", catalog or upstream or "") if w in names), "")
                finding = Finding(label, line, "structure differs", code, upstream, catalog,
                                  field=f"regenerated {region.region.lines} line (at {release})")
                findings.setdefault((line, upstream, catalog), finding)
    for line, shown in outside_regions(text, family, found, label.endswith(".py")):
        code = next((w for w in re.findall(r"\w+", shown) if w in names), "")
        findings.setdefault((line, shown), Finding(label, line, "structure differs", code, shown, None,
                                                   field="line outside every region"))
    return sorted(findings.values(), key=lambda f: f.line)
