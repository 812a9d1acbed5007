"""The README and docs/ stay true: the table of outputs (docs/outputs.md) is what `targets`
prints, the commands, verbs and files they name exist, and the README's Python examples run as
written and give what their comments say."""
from __future__ import annotations

import argparse
import ast
import builtins
import io
import re
import subprocess
import sys
import tokenize

from tests.support.helpers import ROOT, documentation, run_cli

README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = documentation()
GENERATED = ROOT / "generated" / "python"


def test_the_table_of_outputs_is_what_targets_prints():
    block = re.search(r"<!-- targets:[^>]*-->\n(.*?)<!-- /targets -->", documentation("outputs.md"), re.S)
    assert block, "docs/outputs.md lost its targets block"
    printed = run_cli("targets").out
    assert block.group(1).strip() == printed.strip(), \
        "docs/outputs.md's table of outputs differs from `python -m generator targets`: paste the command's output"


def test_every_make_target_the_readme_names_exists():
    named = set(re.findall(r"`make ([a-z-]+)", DOCS))
    assert {"generate", "test", "test-fast", "publish", "serve"} <= named
    listed = subprocess.run(["make", "-s", "help"], cwd=ROOT, capture_output=True, text=True).stdout
    for target in named:
        assert f"make {target} " in listed, f"the docs name `make {target}`, which `make help` does not list"


def test_every_verb_the_docs_name_is_a_verb():
    table = documentation("command-line.md")
    verbs = re.findall(r"^\| `([a-z-]+)", table, re.M)
    assert len(verbs) >= 10
    for verb in verbs:
        assert run_cli(verb, "--help").code == 0, verb


def test_every_argument_of_every_verb_says_what_it_takes():
    from generator.cli import build_parser

    verbs = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices
    bare = [f"{name} {a.option_strings[0] if a.option_strings else a.dest}" for name, verb in verbs.items()
            for a in verb._actions if not a.help and not isinstance(a, argparse._HelpAction)]
    assert len(verbs) >= 10 and bare == [], bare


def test_every_file_the_docs_name_exists():
    for path in re.findall(r"`((?:generated|generator|catalog|tests|templates|site|docs)/[\w./-]+)`", DOCS):
        if re.search(r"[{*]|OWNER|FAMILY|NAME/", path) or path.startswith("site/build"):  # patterns, not paths
            continue
        assert (ROOT / path).exists(), f"the docs name {path}, which does not exist"
    for link in re.findall(r"\]\((docs/[\w.-]+)\)", README):
        assert (ROOT / link).is_file(), f"README.md links {link}, which does not exist"


def test_the_readme_is_a_front_door():
    """What a newcomer reads in five minutes: short, and the reference lives in docs/."""
    assert len(README.encode("utf-8")) <= 15_000
    for section in ("## The two commands", "## Where each output goes", "## Vendoring", "## Changing the catalog"):
        assert section in README, section


# -- the Python examples, run as written ------------------------------------------------------------


def _comments(block: str) -> dict[int, str]:
    """The comment ending each line of a block, by line number."""
    tokens = tokenize.generate_tokens(io.StringIO(block).readline)
    return {token.start[0]: token.string for token in tokens if token.type == tokenize.COMMENT}


def _stated(comment: str, namespace: dict) -> tuple[bool, object]:
    """(True, the value) when a comment opens with one (a literal, or a name the example
    defined, before a space and a parenthesis or a comma); (False, None) for prose."""
    opening = re.match(r"#\s*(.+?)(?=\s\(|,|$)", comment)
    try:
        expression = ast.parse(opening.group(1), mode="eval").body if opening else None
    except SyntaxError:
        return False, None
    if expression is None:
        return False, None
    try:
        return True, ast.literal_eval(expression)
    except ValueError:
        pass
    root = expression
    while isinstance(root, ast.Attribute):
        root = root.value
    if isinstance(root, ast.Name) and root.id in namespace:
        return True, eval(compile(ast.Expression(expression), "README.md", "eval"), namespace)
    return False, None


def run_example(block: str, namespace: dict) -> list[str]:
    """Runs a block statement by statement, as written: what went otherwise than it says. A
    statement whose comment opens with `raises NAME` must raise that exception; any other must
    not raise, and give the value its comment opens with, if it states one."""
    failures = []
    comments = _comments(block)
    for statement in ast.parse(block).body:
        comment = comments.get(statement.end_lineno or statement.lineno, "")
        line = block.splitlines()[statement.lineno - 1].split("  #")[0].strip()
        raises = re.match(r"#\s*raises (\w+)", comment)
        try:
            if isinstance(statement, ast.Expr):
                value = eval(compile(ast.Expression(statement.value), "README.md", "eval"), namespace)
            else:
                exec(compile(ast.Module([statement], type_ignores=[]), "README.md", "exec"), namespace)
                value = None
        except Exception as error:
            if not raises or not isinstance(error, getattr(builtins, raises.group(1))):
                failures.append(f"{line}: raised {error!r}")
            continue
        if raises:
            failures.append(f"{line}: did not raise {raises.group(1)}")
            continue
        states, expected = _stated(comment, namespace) if isinstance(statement, ast.Expr) else (False, None)
        if states and not (value is expected or (type(value) is type(expected) and value == expected)):
            failures.append(f"{line}: gave {value!r}, not {expected!r} as its comment says")
    return failures


def test_the_python_examples_run_as_written():
    blocks = re.findall(r"^```python\n(.*?)^```", DOCS, re.S | re.M)
    assert len(blocks) >= 2 and any("lookup(" in block for block in blocks)
    sys.path.insert(0, str(GENERATED))
    try:
        failures = [failure for block in blocks for failure in run_example(block, {})]
    finally:
        sys.path.remove(str(GENERATED))
    assert failures == [], "\n".join(failures)


def test_an_example_that_says_otherwise_fails():
    """The check can fail: a wrong stated value, a line that raises, one that does not."""
    block = (
        "import json\n"
        "json.loads('[1]')       # [2]\n"
        "json.loads('1')         # 1 (a number)\n"
        "json.loads('x')\n"
        "json.loads('2')         # raises ValueError: it does not\n"
        "json.loads('x')         # raises ValueError: it does\n"
    )
    failures = run_example(block, {})
    assert [f.split(":")[0] for f in failures] == ["json.loads('[1]')", "json.loads('x')", "json.loads('2')"], failures
