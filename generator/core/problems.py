"""Problems found in a catalog, reported all at once as PATH:LINE:COL: message."""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Iterable, NamedTuple


class Pos(NamedTuple):
    """Where something was written: a file and a 1-based line and column. (A named tuple:
    a catalog of 10,000 codes makes 250,000 of them, and a frozen dataclass is four times
    as slow to make.)"""

    path: str
    line: int = 1
    col: int = 1

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"


@dataclass(frozen=True, order=True)
class Problem:
    pos: Pos
    message: str

    def __str__(self) -> str:
        return f"{self.pos}: {self.message}"


class CatalogError(Exception):
    """The catalog is invalid; carries every problem found, sorted by position."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems = tuple(sorted(set(problems)))
        super().__init__("\n".join(str(p) for p in self.problems))


class Reporter:
    """Collects problems so that validation can go on after the first one."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.warnings: list[Problem] = []  # what validate reports without failing (an untranslated text)

    def error(self, pos: Pos, message: str) -> None:
        self.problems.append(Problem(pos, message))

    def raise_if_any(self) -> None:
        if self.problems:
            raise CatalogError(self.problems)


def closest(word: str, choices: Iterable[str]) -> str:
    """A ' (did you mean X?)' hint, or '' when nothing is close."""
    match = difflib.get_close_matches(word, sorted(set(choices)), n=1, cutoff=0.6)
    return f" (did you mean {match[0]!r}?)" if match else ""
