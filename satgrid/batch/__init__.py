"""Batches: one verb (audit, solve, generate) over many puzzles, results into a store.

:func:`run` is the driver: it lists the tasks (:mod:`.tasks`), leaves out those the store
already holds (a re-run of the same command resumes where a killed one stopped), cuts the rest
into chunks, runs them on an executor (:mod:`.executors`) and writes each finished chunk to the
store in one transaction (:mod:`.store`). Only the client writes the store.

Chunk size follows the measured cost of a task: chunks start small and then aim at
:data:`CHUNK_SECONDS` of work each, so start-up and inter-process traffic stay a small share of
the run while a kill loses little and the progress bar moves (measured in encodings/batch.md).
"""
from __future__ import annotations

import functools
import json
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from .. import __version__
from .executors import InProcess
from .store import Store, StoreError
from .tasks import Task, Verb, generation_tasks, input_tasks, run_chunk

#: Seconds of work a chunk aims at, once the cost of a task is known.
CHUNK_SECONDS = 0.5
#: The size of the first chunks (before any task was timed), and the largest.
FIRST_CHUNK, MOST_CHUNK = 4, 2000


@dataclass
class Outcome:
    """What a run did: tasks listed, skipped (stored before), written, rows by status."""

    run_id: int
    tasks: int
    skipped: int
    written: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    def summary(self) -> str:
        by_status = ", ".join(f"{n} {s}" for s, n in sorted(self.counts.items(), key=lambda x: -x[1]))
        rate = self.written / self.seconds if self.seconds > 0 else 0.0
        return (f"{self.tasks} tasks: {self.skipped} already stored, {self.written} run now"
                f"{f' ({by_status})' if by_status else ''}; {self.seconds:.1f} s, {rate:.0f} tasks/s")


class Chunker:
    """Hands out chunks of ``tasks``, sized from the mean task time measured so far."""

    def __init__(self, tasks: list[Task], workers: int) -> None:
        self.tasks, self.next, self.workers = tasks, 0, workers
        self.timed_s, self.timed = 0.0, 0

    def record(self, rows: list[dict[str, Any]]) -> None:
        self.timed_s += sum(r.get("task_s") or 0.0 for r in rows)
        self.timed += len(rows)

    def __call__(self) -> list[Task] | None:
        if self.next >= len(self.tasks):
            return None
        size = FIRST_CHUNK
        if self.timed:
            mean = max(self.timed_s / self.timed, 1e-6)
            size = int(min(MOST_CHUNK, max(1, CHUNK_SECONDS / mean)))
        # never leave a worker idle at the end: at most a fair share of what is left
        size = max(1, min(size, -(-(len(self.tasks) - self.next) // (2 * self.workers))))
        chunk = self.tasks[self.next:self.next + size]
        self.next += len(chunk)
        return chunk


def run(verb: Verb, tasks: Iterable[Task], store_path: str, command: str, executor: Any = None,
        seed: int | None = None, progress: Callable[[int, int], None] | None = None) -> Outcome:
    """Run ``verb`` over ``tasks`` not yet in the store at ``store_path``; ``progress(done,
    total)`` is called after each chunk. ``executor`` defaults to :class:`InProcess` and is
    closed here."""
    executor = executor or InProcess()
    started = time.perf_counter()
    try:
        with Store(store_path, write=True) as store:
            finished = store.finished()
            todo, seen, listed = [], set(), 0
            for task in tasks:
                listed += 1
                if task.id not in finished and task.id not in seen:
                    seen.add(task.id)
                    todo.append(task)
            run_id = store.start_run(command=command, verb=verb.name,
                                     options=json.dumps(verb.key(), sort_keys=True, default=str),
                                     version=__version__, solver=verb.solver, seed=seed,
                                     executor=executor.name, tasks=listed, skipped=listed - len(todo))
            outcome = Outcome(run_id, listed, listed - len(todo))
            chunker = Chunker(todo, executor.workers)
            if progress:
                progress(0, len(todo))
            outcome_text = "interrupted"
            try:
                for rows in executor.run(functools.partial(run_chunk, verb), chunker):
                    chunker.record(rows)
                    outcome.written += store.write(rows, run_id)
                    for r in rows:
                        outcome.counts[r["status"]] = outcome.counts.get(r["status"], 0) + 1
                    if progress:
                        progress(chunker.timed, len(todo))
                outcome_text = "finished"
            finally:
                outcome.seconds = time.perf_counter() - started
                try:
                    store.end_run(run_id, written=outcome.written, outcome=outcome_text,
                                  counts=json.dumps(outcome.counts))
                except StoreError:
                    if outcome_text == "finished":
                        raise  # else the failure that interrupted the run is the one to report
    finally:
        executor.close()
    return outcome


__all__ = ["Outcome", "Task", "Verb", "generation_tasks", "input_tasks", "run"]
