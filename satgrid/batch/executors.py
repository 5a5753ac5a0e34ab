"""Where a batch's chunks run: one interface, three executors.

An executor takes chunks of tasks and yields each chunk's rows as it finishes (in any order):

* :class:`InProcess`: here, one chunk after another (``--jobs 1``);
* :class:`LocalPool`: a process pool on this machine (``--jobs N``);
* :class:`Dask`: a Dask cluster (``--scheduler tcp://host:8786``, or ``--dask-local N`` for a
  ``distributed.LocalCluster`` of N one-thread worker processes). Workers need satgrid (and its
  dependencies) importable; the store stays with the client, which is the only writer. A chunk
  whose worker dies is run again on another worker by the scheduler (and, if it raised, retried
  twice); since rows are keyed by task id, a chunk that did finish twice is stored once.

Each keeps a bounded number of chunks in flight (twice its workers), so chunk sizes can follow
the measured cost of a task (:func:`satgrid.batch.run`) and a killed run loses at most the
chunks in flight.
"""
from __future__ import annotations

import os
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Iterator

from ..errors import SatgridError

Chunk = list
Rows = list
#: ``next_chunk()`` gives the next chunk to run, or None when there is none left.
NextChunk = Callable[[], "Chunk | None"]


def cpus() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class InProcess:
    """Run chunks here, one after another."""

    workers = 1
    name = "in-process"

    def run(self, fn: Callable[[Chunk], Rows], next_chunk: NextChunk) -> Iterator[Rows]:
        while (chunk := next_chunk()) is not None:
            yield fn(chunk)

    def close(self) -> None:
        pass


class LocalPool:
    """A pool of ``workers`` processes on this machine."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.name = f"local pool of {workers}"
        self._pool = ProcessPoolExecutor(workers, initializer=_end_with_parent, initargs=(os.getpid(),))

    def run(self, fn: Callable[[Chunk], Rows], next_chunk: NextChunk) -> Iterator[Rows]:
        return _bounded(lambda chunk: self._pool.submit(fn, chunk), next_chunk, 2 * self.workers)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


def _end_with_parent(parent: int) -> None:
    """A pool worker's watchdog: exit when the client is gone (a client killed with ``kill -9``
    cannot stop its workers, which would otherwise finish their chunks for nobody)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _bounded(submit: Callable[[Chunk], Any], next_chunk: NextChunk, most: int) -> Iterator[Rows]:
    """Keep up to ``most`` chunks submitted; yield each one's rows as it finishes."""
    pending: set[Future] = set()
    exhausted = False
    while True:
        while not exhausted and len(pending) < most:
            chunk = next_chunk()
            if chunk is None:
                exhausted = True
            else:
                pending.add(submit(chunk))
        if not pending:
            return
        done, pending = wait(pending, return_when=FIRST_COMPLETED)
        for future in done:
            try:
                rows = future.result()
            except BrokenProcessPool:
                raise SatgridError("a worker process died (out of memory, or killed); the store "
                                   "keeps every finished chunk: re-run the same command to "
                                   "resume") from None
            yield rows


class Dask:
    """Chunks on a Dask cluster: ``client`` given, or one connected to ``scheduler``, or a
    ``LocalCluster`` of ``local`` workers started (and stopped) here."""

    def __init__(self, scheduler: str | None = None, local: int | None = None, client: Any = None) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise SatgridError("the dask executor needs distributed: pip install 'satgrid[dask]'") from None
        self._cluster = None
        if client is None:
            try:
                if scheduler is not None:
                    client = Client(scheduler, timeout="10s")
                else:
                    self._cluster = LocalCluster(n_workers=local, threads_per_worker=1,
                                                 processes=True, dashboard_address=None)
                    client = Client(self._cluster)
            except (OSError, TimeoutError) as exc:
                self.close()
                raise SatgridError(f"cannot reach the dask scheduler {scheduler}: {exc}") from None
        self.client = client
        self._owned = self._cluster is not None or scheduler is not None
        self.workers = max(1, sum(client.nthreads().values()))
        self.name = f"dask {scheduler or 'LocalCluster'} ({self.workers} worker threads)"

    def run(self, fn: Callable[[Chunk], Rows], next_chunk: NextChunk) -> Iterator[Rows]:
        from distributed import as_completed
        from distributed.scheduler import KilledWorker

        pending = as_completed()
        in_flight = 0

        def top_up() -> None:
            nonlocal in_flight
            while in_flight < 2 * self.workers and (chunk := next_chunk()) is not None:
                pending.add(self.client.submit(fn, chunk, pure=False, retries=2))
                in_flight += 1

        top_up()
        while in_flight:
            future = next(pending)
            in_flight -= 1
            try:
                rows = future.result()
            except KilledWorker as exc:
                raise SatgridError(f"dask gave up on a chunk whose workers kept dying ({exc}); the "
                                   "store keeps every finished chunk: re-run the same command to "
                                   "resume") from None
            future.release()
            top_up()
            yield rows

    def close(self) -> None:
        if getattr(self, "_owned", False):
            self.client.close()
        if self._cluster is not None:
            self._cluster.close()
