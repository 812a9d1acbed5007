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

MIN_PER_WORKER = 300  # below this, starting workers costs more than it saves
_PENDING: list[Output] = []


def _worker_start() -> None:
    """A worker ends when the pool ends it: the command line's SIGTERM handler (which
    unwinds through `finally` blocks) and Ctrl-C belong to the parent alone. Inherited,
    they left a worker that SIGTERM interrupted inside a lock, and the parent waiting
    for it forever."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _render_share(share: tuple[int, int]) -> list[str]:
    index, workers = share
    return [output.render() for output in _PENDING[index::workers]]


def renderer(jobs: Optional[int]) -> Callable[[list[Output]], dict[str, str]]:
    def render_many(outputs: list[Output]) -> dict[str, str]:
        workers = min(jobs or os.cpu_count() or 1, max(1, len(outputs) // MIN_PER_WORKER))
        if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
            return {output.path: output.render() for output in outputs}
        global _PENDING
        _PENDING = outputs
        pool = multiprocessing.get_context("fork").Pool(workers, initializer=_worker_start)
        try:
            shares = pool.map(_render_share, [(i, workers) for i in range(workers)])
            pool.close()  # the workers finish and exit on their own
        except BaseException:
            pool.terminate()
            raise
        finally:
            pool.join()
            _PENDING = []
        texts: dict[str, str] = {}
        for index, output in enumerate(outputs):
            texts[output.path] = shares[index % workers][index // workers]
        return dict(sorted(texts.items()))
    return render_many
