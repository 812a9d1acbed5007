"""scripts/migrate_to_versions.py: a catalog of format 2 (one entry per edition, texts
naming every edition) becomes format 3 (page versions, texts held from versions) with
every edition and every text as it was."""
from __future__ import annotations

import shutil
import subprocess
import sys

from generator.reading.load import load_catalog
from generator.domain.model import TEXT_FIELDS
from tests.helpers import FIXTURES, MINI, ROOT, run_cli

OLD = FIXTURES / "format2" / "catalog.yaml"


def resolved(path):
    """Every edition (all it says) and every text of a catalog, by edition."""
    family = load_catalog(path).families[0]
    editions = [
        (
            e.id,
            e.release,
            e.timeline.id,
            e.sources,
            e.languages,
            e.order_known,
            [(r.code, r.recoverable, r.disagreements) for r in e.rows],
            e.not_known,
            e.notes,
        )
        for e in family.editions
    ]
    texts = {(c.name, f, e.id, lang): (c.entry(f, e.id, lang).text, c.entry(f, e.id, lang).origin)
             for c in family.codes for e in family.editions for f in TEXT_FIELDS for lang in family.languages
             if c.entry(f, e.id, lang) is not None}
    return editions, texts


def test_the_format_2_catalog_is_refused_with_the_way_out():
    result = run_cli("validate", "--catalog", OLD)
    assert result.code == 3 and "run `python scripts/migrate_to_versions.py CATALOG`" in result.err


def test_migrating_keeps_every_edition_and_text(tmp_path):
    catalog = tmp_path / "catalog.yaml"
    shutil.copy(OLD, catalog)
    subprocess.run([sys.executable, str(ROOT / "scripts" / "migrate_to_versions.py"), str(catalog)], check=True)
    text = catalog.read_text(encoding="utf-8").replace("format: 2", "format: 3", 1)
    catalog.write_text(text, encoding="utf-8")
    new_editions, new_texts = resolved(catalog)
    mini_editions, mini_texts = resolved(MINI)
    strip = [tuple(x for i, x in enumerate(e) if i != 3) for e in new_editions]  # sources carry their positions
    assert strip == [tuple(x for i, x in enumerate(e) if i != 3) for e in mini_editions]
    assert [[(s.kind, s.repo, s.path, s.commit, s.tags, s.document) for s in e[3]] for e in new_editions] == \
        [[(s.kind, s.repo, s.path, s.commit, s.tags, s.document) for s in e[3]] for e in mini_editions]
    assert new_texts == mini_texts and len(new_texts) > 20
    assert "editions:" not in text and "- from: [" in text
