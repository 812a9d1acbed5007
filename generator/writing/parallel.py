"""Every core at work: rendering is shared with forked workers, and the files the cache
lists are hashed in a forked process while the catalog is read.

Workers inherit the loaded catalog (fork), take the outputs one at a time from a
counter they share with this process, which renders too, and send the texts back;
the results are put back in the outputs' order, so the bytes do not depend on how
many workers ran or which took what. An exception in a worker is raised here, as it
would be without workers; a worker never outlives the call that started it.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import signal
import tempfile
from pathlib import Path
from typing import Callable, Iterator, Optional

from generator.rendering.output import Output

# Below this much work per worker (Output.scale summed: about a code's row rendered once),
# starting a worker costs more than it saves: the real catalog's 226 outputs are about
# 2,000 and render in a tenth of a second; one text changed at 10,000 codes is about
# 70,000 in 9 outputs, and takes seconds.
MIN_WORK_PER_WORKER = 20000
_PENDING: list[Output] = []
_NEXT = None  # a counter in shared memory: the index in _PENDING of the next output to take
_SPILLS: list = []  # one unnamed temporary file per worker, for the texts it renders
Rendered = dict  # {path: UTF-8 bytes}


def _worker_start() -> None:
    """A worker ends when the pool ends it: the command line's SIGTERM handler (which
    unwinds through `finally` blocks) and Ctrl-C belong to the parent alone. Inherited,
    they left a worker that SIGTERM interrupted inside a lock, and the parent waiting
    for it forever."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _render_taken(worker: int = 0) -> list[tuple[int, tuple]]:
    """Take the next output not yet taken by any process and render it, until none is left:
    whichever process is free takes the next one, so that a large page does not leave a
    core idle.

    A worker writes its texts to its own spill file (unnamed: opened by the parent
    before the fork) and sends back where they are: tens of megabytes pickled through
    a pipe cost a quarter of a second, through the page cache a hundredth."""
    done: list[tuple[int, tuple]] = []
    spill, offset = (_SPILLS[worker - 1].fileno(), 0) if worker else (None, 0)
    assert _NEXT is not None  # set by render_many before any process takes work
    while True:
        with _NEXT.get_lock():
            index = _NEXT.value
            _NEXT.value += 1
        if index >= len(_PENDING):
            return done
        output = _PENDING[index]
        data = output.render_bytes()
        if spill is not None:
            view = memoryview(data)
            while view:
                view = view[os.pwrite(spill, view, offset + len(data) - len(view)):]
            data, offset = (worker, offset, len(data)), offset + len(data)
        done.append((index, data))


def _unspill(data) -> bytes:
    if isinstance(data, bytes):
        return data
    worker, offset, length = data
    out = os.pread(_SPILLS[worker - 1].fileno(), length, offset)
    if len(out) != length:  # pragma: no cover - the file is ours and complete
        raise OSError(f"a rendering worker's spill file is short ({len(out)} of {length} bytes)")
    return out


def _hash_files(root: str, paths: list[str]) -> dict[str, str]:
    from generator.core.exits import OutputError
    from generator.writing.files import TreeReader

    reader, hashes = TreeReader(Path(root)), {}
    for rel in paths:
        try:
            exists, digest, _ = reader.look(rel, want_bytes=False)
        except OutputError:
            continue  # the survey meets it again and says what is wrong
        if exists and digest is not None:
            hashes[rel] = digest
    return hashes


class _Child:
    """A forked process running one function; its result comes back pickled through a pipe.
    (multiprocessing's Pool is not used: ended early, while its task thread was handing
    over the work, its terminate() could wait forever.)"""

    def __init__(self, function: Callable, *args):
        read_end, write_end = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the child: never returns into the caller's code
            status = 1
            try:
                os.close(read_end)
                _worker_start()
                try:
                    reply = ("ok", function(*args))
                except BaseException as error:  # noqa: BLE001 - raised again in the parent
                    reply = ("error", error)
                try:
                    data = pickle.dumps(reply, pickle.HIGHEST_PROTOCOL)
                except Exception:  # noqa: BLE001 - what cannot be pickled is sent as words
                    data = pickle.dumps(("error", RuntimeError(f"{type(reply[1]).__name__}: {reply[1]}")))
                with os.fdopen(write_end, "wb") as pipe:
                    pipe.write(data)
                status = 0
            finally:
                os._exit(status)
        os.close(write_end)
        self.pipe = os.fdopen(read_end, "rb")
        self.ended = False

    def result(self):
        """Wait for the child; its function's result, or its exception raised here."""
        data = self.pipe.read()
        self._reap()
        if not data:
            raise ChildProcessError("a worker process ended without an answer")
        kind, value = pickle.loads(data)
        if kind == "error":
            raise value
        return value

    def stop(self) -> None:
        if not self.ended:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            self._reap()

    def _reap(self) -> None:
        if not self.ended:
            self.ended = True
            self.pipe.close()
            with contextlib.suppress(ChildProcessError):
                os.waitpid(self.pid, 0)


def _can_fork() -> bool:
    return hasattr(os, "fork") and "fork" in multiprocessing.get_all_start_methods()


@contextlib.contextmanager
def hashing(root: Path, paths: list[str], jobs: Optional[int]) -> Iterator[Callable[[], dict[str, str]]]:
    """Hash the files in `paths` (those the cache says were written) on another core while
    this one reads the catalog; yields a function that waits for {path: sha256} of those
    that are regular files. Threads would not do: the reader of the catalog holds the GIL,
    and a thread waiting for it after every file took longer than hashing alone."""
    cores = jobs or os.cpu_count() or 1
    if cores <= 1 or not paths or not _can_fork():
        yield lambda: _hash_files(str(root), paths)
        return
    child = _Child(_hash_files, str(root), paths)
    found: list[dict[str, str]] = []

    def wait() -> dict[str, str]:
        if not found:
            try:
                found.append(child.result())
            except Exception:  # noqa: BLE001 - without these hashes, the survey hashes every file itself
                found.append({})
        return found[0]

    try:
        yield wait
    finally:
        child.stop()  # at once, when the catalog could not be read


def renderer(jobs: Optional[int]) -> Callable[..., Rendered]:
    """A function rendering outputs to {path: UTF-8 bytes}, sorted by path."""
    def render_many(outputs: list[Output]) -> Rendered:
        global _PENDING, _NEXT, _SPILLS
        work = sum(output.scale for output in outputs)
        workers = min(jobs or os.cpu_count() or 1, len(outputs), max(1, work // MIN_WORK_PER_WORKER))
        if workers <= 1 or not _can_fork():
            return dict(sorted((output.path, output.render_bytes()) for output in outputs))
        context = multiprocessing.get_context("fork")
        _PENDING = sorted(outputs, key=lambda o: -o.scale)  # the longest first, so no core idles at the end
        _NEXT = context.Value("q", 0)
        _SPILLS = [tempfile.TemporaryFile(prefix="generate-spill-") for _ in range(1, workers)]
        children: list[_Child] = []
        try:
            # workers - 1 children; this process renders meanwhile (a child copies every page
            # of the model it touches, so one fork fewer is a core's worth)
            children = [_Child(_render_taken, worker) for worker in range(1, workers)]
            taken = _render_taken()
            for child in children:
                taken += child.result()
            return dict(sorted((_PENDING[index].path, _unspill(data)) for index, data in taken))
        finally:
            for child in children:
                child.stop()
            for spill in _SPILLS:
                spill.close()
            _PENDING, _NEXT, _SPILLS = [], None, []
    return render_many
