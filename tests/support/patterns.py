"""Regular expressions that cannot be made to run long: the two checks of tests/test_linear_patterns.py.

A backtracking engine (Python's `re`, JavaScript's) takes time exponential or polynomial in
the text when a pattern nests one repeat in another (`(?:\\.?\\d+)*`) or can fail after a
long run at every place it starts (`[^a]+$` searched in a long run without `a`). The first is
refused by shape (`nested_repeat`); both show in what a pattern costs on adversarial texts of
1,000 and 10,000 characters (`cost_ratio`): a linear pattern costs about ten times more on
the longer, a quadratic one a hundred.
"""
from __future__ import annotations

import ast
import re
import time
from pathlib import Path
from typing import Callable, Iterator, Optional

try:  # Python 3.11+
    from re import _constants as _sre, _parser as _sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    import sre_constants as _sre  # type: ignore[no-redef]
    import sre_parse as _sre_parse  # type: ignore[no-redef]

_REPEATS = {_sre.MAX_REPEAT, _sre.MIN_REPEAT, getattr(_sre, "POSSESSIVE_REPEAT", _sre.MAX_REPEAT)}
_RE_FUNCTIONS = {"compile", "match", "search", "sub", "subn", "findall", "finditer", "fullmatch", "split"}
RATIO_BOUND = 20  # the longer text may cost at most this many times the shorter (ten times its length)

# The units adversarial texts repeat: digits, words, separators, what wraps names and values.
UNITS = ("1", "1.", "1.1", "a", "a_", "A", "Aa", " ", "\t", "\n", "retry ", "retry", ".", "-", "_", "x", "0x",
         "::", ":", "(", "(1", "[", "<", "'", '"', "\\", "`", "*", "](", "ret:", "code ", "中", "中文", "_a", "a.",
         "1-", "v1.", "9.0.0-beta.", "E1", "%s ", "LLM_")


def nested_repeat(pattern: str, flags: int = 0) -> bool:
    """Whether a repeat that may run more than once holds another repeat (`(a+)*`, `(?:\\.\\d+)*?`)."""
    return _nested(list(_sre_parse.parse(pattern, flags)))


def _holds_repeat(items) -> bool:
    return any(op in _REPEATS or any(_holds_repeat(sub) for sub in _subpatterns(op, av)) for op, av in items)


def _nested(items) -> bool:
    for op, av in items:
        if op in _REPEATS:
            low, high, sub = av
            if high != 1 and _holds_repeat(sub):
                return True
        if any(_nested(sub) for sub in _subpatterns(op, av)):
            return True
    return False


def _subpatterns(op, av) -> list:
    if op in _REPEATS:
        return [list(av[2])]
    if op is _sre.SUBPATTERN:
        return [list(av[-1])]
    if op is _sre.BRANCH:
        return [list(b) for b in av[1]]
    if op in (_sre.ASSERT, _sre.ASSERT_NOT):
        return [list(av[1])]
    if op is getattr(_sre, "ATOMIC_GROUP", None):
        return [list(av)]
    return []


def patterns_in_source(path: Path) -> Iterator[tuple[int, str, int]]:
    """(line, pattern, flags) of every `re.FUNCTION("literal", ...)` call of a Python file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id in ("re", "_re")
                and node.func.attr in _RE_FUNCTIONS and node.args):
            continue
        first = node.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            yield node.lineno, first.value, _flags(node)


def _flags(call: ast.Call) -> int:
    """The flags a call names (re.M | re.I), as a number; 0 when it names none it can read."""
    flag_nodes = [k.value for k in call.keywords if k.arg == "flags"]
    if call.func.attr == "compile" and len(call.args) > 1:  # type: ignore[attr-defined]
        flag_nodes.append(call.args[1])
    value = 0
    for node in flag_nodes:
        for name in (n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)):
            value |= getattr(re, name, 0)
    return value


def adversarial_texts(length: int) -> Iterator[str]:
    """Each unit repeated to `length` characters, alone and with a character that ends a match."""
    for unit in UNITS:
        body = (unit * (length // len(unit) + 1))[:length]
        yield body
        yield body[:-1] + "!"
        yield "!" + body[1:]


def cost(run: Callable[[], object], budget: float = 0.0003, trials: int = 2) -> float:
    """Seconds per call of `run`: the least of `trials` averages over at least `budget` seconds."""
    best = float("inf")
    for _ in range(trials):
        calls, start = 0, time.perf_counter()
        while True:
            run()
            calls += 1
            elapsed = time.perf_counter() - start
            if elapsed >= budget:
                break
        best = min(best, elapsed / calls)
    return best


def _ratio(run_long: Callable[[], object], run_short: Callable[[], object]) -> float:
    """cost(long) / cost(short); a ratio over the bound is measured again, longer, before it
    counts (a pause of the collector or of the machine makes one measure, never three, look slow)."""
    ratio = cost(run_long) / cost(run_short)
    for again in range(1, 4):
        if ratio <= RATIO_BOUND:
            break
        ratio = min(ratio, cost(run_long, 0.002 * again, 3) / cost(run_short, 0.002 * again, 3))
    return ratio


def worst_ratio(compiled: re.Pattern, short: int = 1000, long: int = 10_000) -> tuple[float, Optional[str]]:
    """The largest cost(long text) / cost(short text) over the adversarial texts and the ways
    the generator uses a pattern (match at the start, search, every match), with the text's unit."""
    worst, unit_of_worst = 0.0, None
    for text_short, text_long in zip(adversarial_texts(short), adversarial_texts(long)):
        for use in (compiled.match, compiled.search, compiled.findall):
            ratio = _ratio(lambda: use(text_long), lambda: use(text_short))
            if ratio > worst:
                worst, unit_of_worst = ratio, text_short[:12]
            if worst > RATIO_BOUND:  # one is enough to fail
                return worst, unit_of_worst
    return worst, unit_of_worst
