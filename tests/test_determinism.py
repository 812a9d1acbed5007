"""Same input, same bytes: whatever the hash seed, locale, time zone or working directory."""
import os
import subprocess
import sys

import pytest

from tests.support.helpers import MINI, ROOT, tree

VARIANTS = {
    "baseline": ({"PYTHONHASHSEED": "0", "LC_ALL": "C", "TZ": "UTC"}, ROOT, []),
    "other seed, locale and zone": ({"PYTHONHASHSEED": "12345", "LC_ALL": "C.UTF-8", "LANG": "zh_CN.UTF-8",
                                     "TZ": "Asia/Shanghai"}, "/", []),
    "random seed": ({"PYTHONHASHSEED": "random", "TZ": "America/Los_Angeles"}, "/tmp", []),
}


def generate(catalog, out, env_extra, cwd, extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "PYTHONHASHSEED", "TZ"))}
    env.update(env_extra, PYTHONPATH=str(ROOT))
    result = subprocess.run(
        [sys.executable, "-m", "generator", "generate", "--catalog", str(catalog), "--out", str(out), *extra],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    return tree(out, outputs_only=True)


@pytest.mark.slow  # the real catalog, generated three times from scratch
@pytest.mark.parametrize("catalog", ["real", "mini"])
def test_every_environment_gives_the_same_bytes(tmp_path, catalog):
    location = ROOT / "catalog" if catalog == "real" else MINI
    trees = {name: generate(location, tmp_path / name.replace(" ", "-").replace(",", ""), *variant)
             for name, variant in VARIANTS.items()}
    baseline = trees.pop("baseline")
    assert baseline
    for name, produced in trees.items():
        differing = sorted(p for p in set(baseline) | set(produced) if baseline.get(p) != produced.get(p))
        assert not differing, f"{name}: {differing[:5]}"


DIGEST_PROBE = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from generator.rendering.catalog_hash import digest; "
    "v = ('LLM_TIMEOUT', '请求超时，请重试。', None, True, False, 0, -1, 0x5010B01A, 2 ** 70, "
    "('a', ('b',)), (('k', ('v', 1)),)); "
    "print(digest(v))"
)


def test_digests_are_the_same_on_every_python():
    """Stamps and CATALOG_HASH are written with marshal's version 2: the same
    values must give the same bytes on every interpreter the generator may run on."""
    from tests.support.helpers import interpreters

    found = {}
    for python in interpreters():
        version = subprocess.run([python, "-c", "import sys; print(sys.version_info >= (3, 11))"],
                                 capture_output=True, text=True, timeout=60).stdout.strip()
        if version != "True":  # the generator itself needs 3.11
            continue
        result = subprocess.run([python, "-c", DIGEST_PROBE, str(ROOT)], capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        found[python] = result.stdout.strip()
    assert found and len(set(found.values())) == 1, found


def test_compiled_templates_change_no_byte_and_an_unwritable_cache_is_no_error(tmp_path):
    """The templates compiled (the site's and the code outputs'), and the JSON Schemas rendered, in the user's cache
    (XDG_CACHE_HOME): a run that fills it, one that reads it, and one whose cache cannot be written
    write the same bytes."""
    import os
    import subprocess
    import sys

    from tests.support.helpers import ROOT

    outputs = {}
    cache = tmp_path / "cache"
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache's folder would be\n", encoding="utf-8")
    for run, home in (("fills", cache), ("reads", cache), ("cannot write", blocked)):
        out = tmp_path / run.replace(" ", "-")
        result = subprocess.run([sys.executable, "-m", "generator", "generate", "--out", str(out)], cwd=ROOT,
                                env={**os.environ, "XDG_CACHE_HOME": str(home)}, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        outputs[run] = {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    compiled = [d for d in (cache / "llm-status-codes").glob("jinja2-*") if any(d.iterdir())]
    assert len(compiled) == 2, "the site's and the code outputs' templates are each kept compiled"
    assert outputs["fills"] == outputs["reads"] == outputs["cannot write"]


def test_a_kept_schema_cut_short_or_edited_is_rendered_again(tmp_path):
    """A schema (or the field reference) kept in the user's cache is used only whole: one cut
    short, or one that is no schema, is rendered again, so check still passes."""
    import os
    import subprocess
    import sys

    from tests.support.helpers import ROOT

    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    run = [sys.executable, "-m", "generator", "check"]
    assert subprocess.run(run, cwd=ROOT, env=env, capture_output=True).returncode == 0
    kept = sorted((tmp_path / "llm-status-codes" / "texts").glob("*.schema.json-*"))
    assert len(kept) == 2
    kept[0].write_text(kept[0].read_text(encoding="utf-8")[:-40], encoding="utf-8")
    kept[1].write_text('{"$schema": "https://json-schema.org/draft/2020-12/schema", "edited": true}', encoding="utf-8")
    [reference] = (tmp_path / "llm-status-codes" / "texts").glob("catalog.md-*")
    reference.write_text(reference.read_text(encoding="utf-8")[:5000], encoding="utf-8")
    result = subprocess.run(run, cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
