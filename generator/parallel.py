"""Rendering on every core: the outputs are split across forked workers.

Workers inherit the loaded catalog (fork), render their share and send the
texts back; the results are put back in the outputs' order, so the bytes do
not depend on how many workers ran or which finished first. An exception in a
worker is raised here, as it would be without workers.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
from typing import Callable, Optional

from generator.outputs_model import Output

MIN_WEIGHT_PER_WORKER = 600  # codes read; below this, starting a worker costs more than it saves
_PENDING: list[list[Output]] = []


def _worker_start() -> None:
    """A worker ends when the pool ends it: the command line's SIGTERM handler (which
    unwinds through `finally` blocks) and Ctrl-C belong to the parent alone. Inherited,
    they left a worker that SIGTERM interrupted inside a lock, and the parent waiting
    for it forever."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _render_share(index: int) -> list[bytes]:
    # bytes, not str: pickled as they are, and the parent hashes and writes bytes
    return [output.render().encode("utf-8") for output in _PENDING[index]]


def shares(outputs: list[Output], workers: int) -> list[list[Output]]:
    """The outputs dealt to workers, heaviest first to the least loaded (deterministic:
    ties go by position), so that one large page does not leave a core idle."""
    loads = [0] * workers
    dealt: list[list[Output]] = [[] for _ in range(workers)]
    for output in sorted(outputs, key=lambda o: -o.weight):  # stable: equal weights keep their order
        least = loads.index(min(loads))
        dealt[least].append(output)
        loads[least] += output.weight
    return dealt


def renderer(jobs: Optional[int]) -> Callable[[list[Output]], dict[str, bytes]]:
    """A function rendering outputs to {path: UTF-8 bytes}, sorted by path."""
    def render_many(outputs: list[Output]) -> dict[str, bytes]:
        total = sum(max(o.weight, 1) for o in outputs)
        workers = min(jobs or os.cpu_count() or 1, len(outputs), max(1, total // MIN_WEIGHT_PER_WORKER))
        if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
            return dict(sorted((output.path, output.render().encode("utf-8")) for output in outputs))
        global _PENDING
        _PENDING = shares(outputs, workers)
        # workers - 1 children; this process renders the first share meanwhile (a child
        # copies every page of the model it touches, so one fork fewer is a core's worth)
        pool = multiprocessing.get_context("fork").Pool(workers - 1, initializer=_worker_start)
        try:
            pending = pool.map_async(_render_share, range(1, workers), chunksize=1)
            texts = [_render_share(0)] + pending.get()
            pool.close()  # the workers finish and exit on their own
        except BaseException:
            pool.terminate()
            raise
        finally:
            pool.join()
            dealt, _PENDING = _PENDING, []
        return dict(sorted((output.path, text) for share, rendered in zip(dealt, texts) for output, text in zip(share, rendered)))
    return render_many
