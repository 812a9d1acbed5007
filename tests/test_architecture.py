"""The shape of generator/: layers that import only downwards, no import cycle (imports inside
functions count), no function over 60 lines, no private name imported from another module.

The layers, lowest first (docs/architecture.md, "Architecture"): a module may import its own layer and the
layers below it, never one above. `audit` and `importing` stand on one level, side by side:
neither imports the other (audit must stay independent of the importer's reading)."""
import ast
from pathlib import Path

import pytest

from tests.support.helpers import ROOT

GENERATOR = ROOT / "generator"
# Each level, lowest first; a level of several layers holds peers that never import each other.
LEVELS = (("core",), ("domain",), ("reading",), ("rendering",), ("writing",), ("upstream",), ("audit", "importing"),
          ("shipping",))
LAYERS = tuple(layer for level in LEVELS for layer in level)
TOP = len(LEVELS)  # cli, commands, the Sphinx extension, bench: the entry points
MAX_FUNCTION_LINES = 60
# The vendored module's runtime is the one lookup: `explain` reads numbers as lookup() does.
PRIVATE_ALLOWED = {("generator.shipping.explain", "generator.rendering.runtime.module_runtime")}


def module_name(path: Path, package: Path = GENERATOR) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(package: Path = GENERATOR) -> dict[str, Path]:
    return {module_name(p, package): p for p in sorted(package.rglob("*.py")) if "__pycache__" not in p.parts}


def layer_name(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else "top"


def layer_of(name: str) -> int:
    layer = layer_name(name)
    return next((n for n, level in enumerate(LEVELS) if layer in level), TOP)


def imports(path: Path, known: dict[str, Path]) -> list[tuple[str, int, list[str]]]:
    """(imported module, line, names taken from it) for every import of a generator module,
    wherever it stands in the file."""
    found = []
    own = module_name(path, next(p for p in path.parents if p.name == "generator"))
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno, []) for a in node.names if a.name.split(".")[0] == "generator"]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(own.split(".")[: len(own.split(".")) - node.level + (path.name == "__init__.py")]
                                + ([node.module] if node.module else []))
            if base.split(".")[0] != "generator":
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in known:
                    found.append((sub, node.lineno, []))
                else:
                    found.append((base, node.lineno, [alias.name]))
    return found


def graph(package: Path = GENERATOR) -> dict[str, list[tuple[str, int, list[str]]]]:
    known = modules(package)
    return {name: [(target, line, names) for target, line, names in imports(path, known) if target != name]
            for name, path in known.items()}


def upward_imports(edges) -> list[str]:
    """Imports of a higher level, or of a peer layer on the same level."""
    return [f"{source} (layer {layer_name(source)}) imports {target} (layer {layer_name(target)}) at line {line}"
            for source, targets in edges.items() for target, line, _ in targets
            if layer_of(target) > layer_of(source)
            or (layer_of(target) == layer_of(source) and layer_name(target) != layer_name(source))]


def cycles(edges) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target, _, _ in edges.get(node, ()):
            if target not in edges:
                continue
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return groups


def private_imports(edges) -> list[str]:
    return [f"{source} imports {name} from {target} (line {line})" for source, targets in edges.items()
            for target, line, names in targets for name in names
            if name.startswith("_") and not name.startswith("__") and (source, target) not in PRIVATE_ALLOWED]


def long_functions(package: Path = GENERATOR) -> list[str]:
    """Every function (or method) longer than MAX_FUNCTION_LINES, its decorators and docstring
    included: a feature splits by meaning, a function by what it does."""
    found = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                if (n := node.end_lineno - first + 1) > MAX_FUNCTION_LINES:
                    found.append(f"{path.relative_to(package.parent)}:{first} {node.name}: {n} lines")
    return found


def test_every_module_belongs_to_a_layer_or_is_an_entry_point():
    top = sorted(name for name in modules() if layer_of(name) == TOP)
    assert top == ["generator", "generator.__main__", "generator.bench", "generator.bench_catalog", "generator.cli",
                   "generator.commands", "generator.commands_upstream", "generator.sphinx"], top


def test_layers_import_only_downwards():
    assert upward_imports(graph()) == []


def test_no_import_cycle():
    assert cycles(graph()) == []


def test_no_private_name_is_imported_from_another_module():
    assert private_imports(graph()) == []


def test_no_function_is_over_60_lines():
    assert long_functions() == []


@pytest.fixture
def planted(tmp_path):
    """A small package in the generator's shape, to see each check fail."""
    package = tmp_path / "generator"
    for layer in ("core", "domain", "rendering", "audit", "importing"):
        (package / layer).mkdir(parents=True)
        (package / layer / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "core" / "problems.py").write_text("def f():\n    from generator.rendering import escape\n")
    (package / "rendering" / "escape.py").write_text("from generator.core.problems import f\n")
    (package / "domain" / "model.py").write_text("from generator.rendering.escape import _quote\n"
                                                 "def long():\n" + "    x = 1\n" * 60)
    (package / "audit" / "page.py").write_text("from generator.importing.release import g\n")
    (package / "importing" / "release.py").write_text("def g():\n    pass\n")
    return package


def test_the_checks_fail_on_a_planted_package(planted):
    edges = graph(planted)
    assert upward_imports(edges) == [
        "generator.audit.page (layer audit) imports generator.importing.release (layer importing) at line 1",
        "generator.core.problems (layer core) imports generator.rendering.escape (layer rendering) at line 2",
        "generator.domain.model (layer domain) imports generator.rendering.escape (layer rendering) at line 1"]
    assert cycles(edges) == [["generator.core.problems", "generator.rendering.escape"]]
    assert private_imports(edges) == ["generator.domain.model imports _quote from generator.rendering.escape (line 1)"]
    assert long_functions(planted) == ["generator/domain/model.py:2 long: 61 lines"]
