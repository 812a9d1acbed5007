"""Comments, messages and docs point at real things: every path of the repository that a comment,
a docstring, a message of the generator, the README, a page of docs/ or a catalog file's header
names exists (a module named by its dotted name, and an attribute of it, too; a file named at a
commit, `git show COMMIT:PATH`, in the project's history), and nothing cites a document outside
the repository or an issue number: a reader of the code has neither, so the text says the rule
itself."""
from __future__ import annotations

import ast
import io
import re
import subprocess
import tokenize
from pathlib import Path

import pytest

from tests.support.helpers import ROOT

FOLDERS = ("generator", "tests", "scripts", "templates", "catalog", "site", "generated", ".ci")
PATH = re.compile(r"(?<![\w./-])((?:" + "|".join(re.escape(f) for f in FOLDERS) + r")/[\w.@/-]*[\w/])")
MODULE = re.compile(r"(?<![\w./-])(generator(?:\.[A-Za-z_]\w*)+)")
# What names no path: a pattern of paths, or the files a build makes (git-ignored).
PATTERN = re.compile(r"[{}*<>]|OWNER|FAMILY|NAME|MODULE|HEADER|\bID\b|LANG|/\.\.\.|site/build"
                     r"|tests/\.(tmp|artifacts)|\.\.\.$")
# A file of the project's history, as a message tells a user to take it: git show COMMIT:PATH
AT_COMMIT = re.compile(r"\b([0-9a-f]{7,40}\^?):((?:scripts|generator|catalog|tests)/[\w./-]+)")
# A section of a document, named after it: (docs/releases.md, "Release branches"), README, "Vendoring"
SECTION = re.compile(r'\b(README|docs/[\w-]+\.md),?\s*\\?"([A-Z][^"\\]{2,80})\\?"')
# A section sign after a file of the repository (upstream-facts.md §2) cites that file.
OUTSIDE = re.compile(r"\bCONTRACT\b|(?<!\.md )§\s*\d|STYLE\.md|DEVELOPERS\.md|\.\./shared\b"
                     r"|\bissues?\s*#?\s*\d+|(?<![\w&])#\d{2,}\b")


def comments_and_docstrings(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every comment and docstring of a Python file."""
    source = path.read_text(encoding="utf-8")
    found = [(token.start[0], token.string) for token in tokenize.generate_tokens(io.StringIO(source).readline)
             if token.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                found.append((first.lineno, first.value.value))
    return found


def messages(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every string literal of a Python file that reads as a sentence (what its
    messages say; a one-word string is a name, such as a template's, not a citation)."""
    source = path.read_text(encoding="utf-8")
    return [(token.start[0], token.string) for token in tokenize.generate_tokens(io.StringIO(source).readline)
            if token.type == tokenize.STRING and " " in token.string]


def header_comments(path: Path) -> list[tuple[int, str]]:
    """(line, text) of the comments of a YAML, Makefile or template file."""
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for pattern in (r"^\s*#(?!\w*\})(.*)$", r"\{#(.*?)#\}", r"/\*(.*?)(?:\*/|$)", r"(?:^|\s)//\s(.*)$"):
            found += [(number, m.group(1)) for m in re.finditer(pattern, line)]
    return found


def cited_texts(root: Path = ROOT) -> list[tuple[str, int, str]]:
    """(file, line, text) of every comment, docstring and README line of the repository."""
    texts: list[tuple[str, int, str]] = []
    for folder in ("generator", "tests", "scripts"):
        for path in sorted((root / folder).rglob("*.py")):
            if "fixtures" not in path.parts:
                texts += [(str(path.relative_to(root)), n, t) for n, t in comments_and_docstrings(path)]
    for path in sorted((root / "generator").rglob("*.py")):
        texts += [(str(path.relative_to(root)), n, t) for n, t in messages(path)]
    others = [root / "Makefile", *sorted((root / "catalog").rglob("*.yaml")),
              *sorted((root / "templates").rglob("*.*"))]
    for path in others:
        texts += [(str(path.relative_to(root)), n, t) for n, t in header_comments(path)]
    for path in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        lines = path.read_text(encoding="utf-8").splitlines() if path.is_file() else []
        texts += [(str(path.relative_to(root)), n, line) for n, line in enumerate(lines, 1)]
    return texts


def _in_history(root: Path, commit: str, path: str) -> bool:
    found = subprocess.run(["git", "-C", str(root), "cat-file", "-e", f"{commit}:{path}"], capture_output=True,
                           check=False)
    return found.returncode == 0


def _module_exists(root: Path, dotted: str) -> bool:
    """A module or package of the generator, or an attribute one of them defines."""
    parts = dotted.split(".")
    for size in range(len(parts), 0, -1):
        base = root.joinpath(*parts[:size])
        module = base.with_suffix(".py") if base.with_suffix(".py").is_file() else base / "__init__.py"
        if module.is_file():
            rest = parts[size:]
            if not rest:
                return True
            text = module.read_text(encoding="utf-8")
            return len(rest) <= 2 and bool(re.search(rf"^\s*(?:def|class)\s+{rest[0]}\b|^{rest[0]}\b\s*[:=]", text,
                                                     re.M))
    return False


def broken_citations(root: Path = ROOT) -> list[str]:
    problems = []
    for file, line, text in cited_texts(root):
        at_commits = AT_COMMIT.findall(text)
        for commit, path in at_commits:
            if not _in_history(root, commit, path):
                problems.append(f"{file}:{line}: cites {path} at {commit}, which the project's history does not hold")
        for match in PATH.finditer(text):
            if any(match.group(1) == path for _, path in at_commits):
                continue  # a file of the project's history, checked above
            path, after = match.group(1), text[match.end():match.end() + 2]
            if "{" in after or PATTERN.search(path):
                continue  # a pattern of paths: site/docs/index.{lang}.md
            if not (root / path.rstrip("/.")).exists():
                problems.append(f"{file}:{line}: cites {path}, which does not exist")
        for document, section in SECTION.findall(text):
            target = root / ("README.md" if document == "README" else document)
            headings = re.findall(r"^#+\s+(.*?)\s*(?:\{#[\w-]+\})?$", target.read_text(encoding="utf-8"), re.M) \
                if target.is_file() else []
            section = " ".join(section.split())
            if section not in headings:
                problems.append(f"{file}:{line}: cites the section {section!r} of {document}, which has no such "
                                "heading")
        for dotted in MODULE.findall(text):
            if not _module_exists(root, dotted):
                problems.append(f"{file}:{line}: cites {dotted}, which the generator does not have")
        for match in OUTSIDE.finditer(text):
            problems.append(f"{file}:{line}: cites {match.group(0)!r}, which the repository does not hold: "
                            "say the rule itself")
    return problems


def test_every_cited_path_exists_and_nothing_outside_is_cited():
    assert broken_citations() == []


@pytest.mark.parametrize("planted, expected", [
    ("# see generator/rendering/nothing_here.py\n", "cites generator/rendering/nothing_here.py, which does not exist"),
    ('"""As generator.reading.no_such_module reads it."""\n', "cites generator.reading.no_such_module"),
    ("# the rule of CONTRACT §4\n", "cites 'CONTRACT'"),
    ("# fixed in issue 21\n", "cites 'issue 21'"),
    ('print("convert it: git show 0000000:scripts/gone.py > c.py")\n', "cites scripts/gone.py at 0000000"),
    ('print("as the README says (README, \\"No such section\\")")\n', "cites the section 'No such section' of README"),
])
def test_the_check_fails_on_a_planted_citation(tmp_path, planted, expected):
    for name in ("generator", "tests", "scripts", "catalog", "templates"):
        (tmp_path / name).mkdir()
    (tmp_path / "generator" / "__init__.py").write_text('"""The package."""\n')
    (tmp_path / "generator" / "reading").mkdir()
    (tmp_path / "generator" / "reading" / "__init__.py").write_text("")
    (tmp_path / "generator" / "planted.py").write_text(planted)
    (tmp_path / "Makefile").write_text("# make\n")
    (tmp_path / "README.md").write_text("Reads `generator/planted.py`.\n")
    problems = broken_citations(tmp_path)
    assert problems and expected in problems[0], problems
