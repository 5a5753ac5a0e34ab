"""A portfolio race for one puzzle: the ordinary pipeline in several worker processes at once,
each with another configuration; the first definitive answer wins and the others are stopped.

On big puzzles no single configuration wins (connectivity lowering, solver, decision order:
measured in encodings/solver.md, "A portfolio race for one puzzle"), and an idle core can run a
second one for the price of a process. This is the classic algorithm-portfolio idea (Gomes and Selman, "Algorithm portfolios",
Artificial Intelligence 126, 2001; for SAT: ManySAT, Hamadi, Jabbour and Sais, JSAT 6, 2009),
without sharing learnt clauses: each worker runs :func:`satgrid.api.solve` (encode, solve,
uniqueness, decode, check) on its own with its own :class:`~satgrid.api.Options`.

The race (:func:`race`):

1. One worker process per configuration (the rivals :data:`RIVAL_DELAY_S` after the user's own
   one, so that a puzzle it settles at once starts no rival) (:data:`START_METHOD`: ``fork`` where the platform
   has it, ``spawn`` elsewhere), the rivals of the user's own at a lower priority
   (:data:`RIVAL_NICENESS`). Each becomes the leader of a process group of its own (whatever it
   starts is stopped with it) and asks the kernel to kill it should the parent die (Linux). Its
   temporary files go into a directory of the race's, removed when the race ends, or, when the
   parent was killed outright, by the next race (:func:`_scratch`). A platform without process
   groups (not POSIX) has no race: :func:`race` refuses with one line.
2. Each worker sends back its :class:`~satgrid.api.Result` (or the error it raised) through a
   pipe. The first *definitive* one wins: ``unique``, ``multiple``, ``unsatisfiable``, or
   ``solved`` when uniqueness was not asked. ``unknown``, and ``solved`` with uniqueness asked
   but unknown, wait for the others.
3. The winner is taken, every worker is killed (its whole process group, SIGKILL) and reaped,
   and the race's directory is removed; the same happens on Ctrl-C, on SIGTERM, on an error and
   when the time limit has passed in every worker. A worker that runs an external SAT binary
   (which satgrid.external starts in a session of its own) gets SIGTERM first, so that it kills
   its binary on the way out (:func:`_stop`).
4. The parent puts the winning solution, and the second solution of a ``multiple`` answer,
   through the genre's independent checker again (:func:`satgrid.api.check_solution`) before it
   is reported, as a solve in this process would.

A worker's answers come from the same code and the same embedded solvers as a solve in this
process: an UNSAT answer ("unique", "unsatisfiable") is the embedded CaDiCaL's own, as it is
without a race (the external-solver verification of :mod:`satgrid.external` applies inside a
worker that runs a foreign binary, as it would outside). On a puzzle with one solution every
winner gives the same answer; on a puzzle with several, which two solutions are shown depends on
the configuration that won.
"""
from __future__ import annotations

import contextlib
import ctypes
import glob
import multiprocessing
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection, wait
from typing import Any, Collection, Iterator

from .errors import CheckFailed, SatgridError
from .external import is_external
from .processes import signal_group

try:
    import fcntl
except ImportError:  # not POSIX: no race (:func:`race` says so)
    fcntl = None  # type: ignore[assignment]

#: The rivals of the user's own configuration, in the order a race takes them (``--jobs 2``
#: races the first, ``--jobs 3`` the first two): changes to :class:`~satgrid.api.Options`.
#: Chosen by the worst and the median over the big sample puzzles (bench/bench_portfolio.py;
#: figures and the configurations left out: encodings/solver.md, "A portfolio race for one
#: puzzle"). A rival never stops its search to probe (:data:`satgrid.api.PROBE_AFTER_S`): that is
#: the user's configuration's other road, and on the biggest puzzle it only delays the rival that
#: settles it (encodings/grading.md, "Probing before a slow search").
RIVALS: tuple[dict[str, Any], ...] = (
    {"connectivity": "propagator", "solver": "cadical195", "probe": False},
    {"connectivity": "lazy", "solver": "cadical195", "probe": False},
)

#: Options fields a race may vary (the rest are always the user's: limits, trust).
VARIED = ("solver", "connectivity")

#: A grid of this many cells or fewer is solved in this process whatever ``jobs`` says: starting,
#: stopping and reaping the workers costs about as much as such a puzzle's whole solve, and no
#: configuration saves more (measured in encodings/solver.md, "A portfolio race for one puzzle").
RACE_CELLS = 100

def worth_racing(puzzle: Any) -> bool:
    """Whether ``puzzle``'s grid has more than :data:`RACE_CELLS` cells."""
    return puzzle.rows * puzzle.cols > RACE_CELLS


#: Seconds the user's own configuration runs alone before the rivals start: a puzzle it settles
#: sooner costs one worker process, no rival is even started (measured in encodings/solver.md, "A
#: race by default").
RIVAL_DELAY_S = 0.5

#: Seconds the parent waits past the time limit for workers to report their "unknown" (they stop
#: at the limit themselves, then decode and send) before it kills them all.
GRACE_S = 2.0

#: The niceness a rival's worker adds to its own (the user's own configuration keeps the
#: parent's): on idle cores it changes nothing, on cores that other work keeps busy the rivals take
#: what is left, so that a race costs little more than its overhead against a solve alone
#: (measured in encodings/solver.md, "A portfolio race for one puzzle").
RIVAL_NICENESS = 19

#: How a worker starts: ``fork`` where the platform has it (the imports and the puzzle are
#: already in memory), else ``spawn`` (a fresh interpreter that imports satgrid and is sent the
#: puzzle and its options).
START_METHOD = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"

#: Statuses that settle a query with uniqueness asked; without it, "solved" does too.
DEFINITIVE = ("unique", "multiple", "unsatisfiable")


@dataclass(frozen=True)
class Race:
    """What a race ran: each configuration as the command-line options that rerun it alone,
    which one won (None: none gave a definitive answer), and how many were started (the rivals
    are not when the first settles the puzzle within :data:`RIVAL_DELAY_S`)."""

    configurations: tuple[str, ...]
    winner: int | None
    started: int

    @property
    def rivals_ran(self) -> bool:
        """Whether a configuration other than the user's was started."""
        return self.started > 1

    def to_json(self) -> dict[str, Any]:
        return {"configurations": list(self.configurations), "started": self.started,
                "won": None if self.winner is None else self.configurations[self.winner]}

    def line(self) -> str:
        """The note a text report shows."""
        if self.winner is None:
            return f"raced {self.started} configurations, none settled the puzzle"
        return (f"won by {self.configurations[self.winner]} (configuration {self.winner + 1} of "
                f"{self.started} raced)")


def flags(options: Any) -> str:
    """The command-line options of ``options``' varied fields (:data:`VARIED`)."""
    return " ".join(f"--{name} {getattr(options, name)}" for name in VARIED)


def configurations(options: Any, jobs: int, fixed: Collection[str] = ()) -> list[Any]:
    """Up to ``jobs`` configurations for a race: ``options`` first, then each rival of
    :data:`RIVALS` that keeps the fields named in ``fixed`` as ``options`` has them, is not
    already in the list, and can run (a propagator needs its solvers)."""
    from .session import check_connectivity

    out = [options]
    for changes in RIVALS:
        if len(out) >= jobs:
            break
        if any(name in fixed and getattr(options, name) != value for name, value in changes.items()):
            continue
        rival = replace(options, **changes)
        if rival in out:
            continue
        try:
            check_connectivity(rival.connectivity, rival.solver)
        except SatgridError:
            continue
        out.append(rival)
    return out


def race(puzzle: Any, configs: list[Any], unique: bool = False,
         ambiguity: int | None = None) -> Any:
    """:func:`satgrid.api.solve` of ``puzzle`` (``unique``, ``ambiguity`` as there) in one worker
    process per configuration of ``configs`` (:class:`~satgrid.api.Options`, all with the same
    time limit); the first definitive result, its solutions checked again here, with
    :attr:`~satgrid.api.Result.race` set. When no worker gives a definitive answer (a limit in
    every one), the best of what they gave: a solution whose uniqueness is unknown before
    status "unknown", the earlier configuration first. A :class:`CheckFailed` in a worker, or
    here, is raised at once; another error of a worker drops that configuration, and is raised
    only when every configuration failed so."""
    from . import api

    if fcntl is None or not hasattr(os, "killpg"):
        raise SatgridError("a race of configurations (--jobs over 1 on fewer puzzles) needs "
                           "process groups, which this platform lacks: solve with --jobs 1")
    started = time.perf_counter()
    limit = configs[0].time_limit
    deadline = None if limit is None else time.monotonic() + limit + GRACE_S
    got: list[tuple[int, Any]] = []
    errors: list[tuple[int, str]] = []
    processes: list[Any] = []
    sys.stdout.flush()  # a forked worker would write the parent's buffered output again
    sys.stderr.flush()
    with _terminated_as_exit(), _scratch() as scratch:
        try:
            winner = _first_answer(puzzle, configs, unique, ambiguity, scratch, deadline,
                                   processes, got, errors)
        finally:
            for process, options in processes:  # the winner too: reaped
                _stop(process, is_external(options.solver))
    if winner is not None:
        result = next(r for i, r in got if i == winner)
    elif got:
        _, result = min(got, key=lambda found: (found[1].solution is None, found[0]))
        why = ("a limit reached in every configuration" if len(got) == len(configs)
               else f"{len(configs) - len(got)} of {len(configs)} configurations gave no answer")
        result.note = "; ".join(filter(None, (result.note, why)))
    elif errors:
        raise SatgridError(min(errors)[1])
    else:  # the parent's own deadline passed before any worker answered
        result = api.Result(puzzle, "unknown", configs[0].solver, asked_unique=unique,
                            note=f"time limit reached in all {len(configs)} configurations")
    g = api.GENRES[puzzle.genre]
    for solution in (result.solution, result.second_solution):
        if solution is not None:
            api.check_solution(g, puzzle, solution)
    result.race = Race(tuple(flags(options) for options in configs), winner, len(processes))
    result.stats.time_s = time.perf_counter() - started
    return result


def _first_answer(puzzle: Any, configs: list[Any], unique: bool, ambiguity: int | None,
                  scratch: str, deadline: float | None, processes: list, got: list,
                  errors: list) -> int | None:
    """Start a worker per configuration (into ``processes``, with its options) and collect their
    answers (into ``got`` and ``errors``, by configuration number) until one is definitive (its
    number, the return value), all have answered, or ``deadline`` (monotonic) has passed (None).
    The first configuration starts at once, the rivals :data:`RIVAL_DELAY_S` later (or as soon
    as the first has answered without settling the puzzle), with what is left of the time
    limit."""
    context = multiprocessing.get_context(START_METHOD)
    pending: dict[Connection, int] = {}
    started = time.monotonic()
    rivals_at = started + RIVAL_DELAY_S

    def start(index: int, options: Any) -> None:
        receive, send = context.Pipe(duplex=False)
        pending[receive] = index
        process = context.Process(target=_worker, daemon=True,
                                  args=(send, puzzle, options, unique, ambiguity, scratch,
                                        RIVAL_NICENESS if index else 0))
        process.start()
        processes.append((process, options))
        _lead_group(process.pid)
        send.close()  # the worker's end: closed here, so a worker that dies reads as EOF

    try:
        start(0, configs[0])
        waiting = list(enumerate(configs))[1:]  # the rivals, until their start
        while pending or waiting:
            now = time.monotonic()
            if waiting and (now >= rivals_at or not pending):
                used = now - started
                for index, options in waiting:  # a limit already over: "unknown" at once
                    start(index, options if options.time_limit is None else
                          replace(options, time_limit=max(0.0, options.time_limit - used)))
                waiting = []
                continue
            left = None if deadline is None else deadline - now
            if left is not None and left <= 0:
                return None
            if waiting:
                left = rivals_at - now if left is None else min(left, rivals_at - now)
            for conn in wait(list(pending), left):
                index = pending.pop(conn)
                try:
                    kind, payload = conn.recv()
                except (EOFError, OSError):
                    kind, payload = "error", ("a race worker died without an answer", False)
                conn.close()
                if kind == "error":
                    message, check_failed = payload
                    if check_failed:  # an encoding bug: as a solve in this process would
                        raise CheckFailed(message)
                    errors.append((index, message))
                elif payload.status in DEFINITIVE or (payload.status == "solved" and not unique):
                    got.append((index, payload))
                    return index
                else:
                    got.append((index, payload))
        return None
    finally:
        for conn in pending:
            conn.close()


#: The name of a race's directory for its workers' temporary files, before mkdtemp's suffix.
SCRATCH_PREFIX = "satgrid-race-"


@contextlib.contextmanager
def _scratch() -> Iterator[str]:
    """A new directory for the workers' temporary files, removed when the race ends. A parent
    killed outright (SIGKILL) cannot remove it, so each race first removes the directories of
    races that are over (:func:`_remove_stale`); this one's is locked (``flock``) while it runs.
    The lock lasts as long as a copy of its descriptor is open (forked workers hold one), and
    the kernel drops it when the last holder dies. A directory another race removed between its
    creation and its lock is made again."""
    _remove_stale()
    while True:
        path = tempfile.mkdtemp(prefix=SCRATCH_PREFIX)
        lock = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if os.path.samestat(os.stat(path), os.fstat(lock)):
                break
        except FileNotFoundError:
            pass
        os.close(lock)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
        os.close(lock)


def _remove_stale() -> None:
    """Remove this user's race directories in the temporary folder whose lock nobody holds: the
    race that made them is over, its parent and workers gone."""
    for path in glob.glob(os.path.join(glob.escape(tempfile.gettempdir()), SCRATCH_PREFIX + "*")):
        try:
            lock = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        except OSError:  # another user's, gone, or not a directory
            continue
        try:
            if os.fstat(lock).st_uid == os.getuid():
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                shutil.rmtree(path, ignore_errors=True)
        except OSError:  # locked: a race that is running
            pass
        finally:
            os.close(lock)


@contextlib.contextmanager
def _terminated_as_exit() -> Iterator[None]:
    """While the race runs, SIGTERM (``kill``, ``timeout``) ends the parent by SystemExit, so the
    race's ``finally`` stops the workers and removes its files; only from the main thread and
    when SIGTERM has no handler of the program's (the workers die with the parent anyway)."""
    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return

    signal.signal(signal.SIGTERM, _leave)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _worker(send: Connection, puzzle: Any, options: Any, unique: bool, ambiguity: int | None,
            scratch: str, niceness: int = 0) -> None:
    """One configuration's solve, in a worker process ``niceness`` nicer than its parent: its
    result, or its error as (message, whether it is a :class:`CheckFailed`), sent through
    ``send``."""
    # The parent's handler is not the worker's. A worker that runs a SAT binary (in a session of
    # its own, out of reach of a signal to the worker's group) leaves by SystemExit, which kills
    # the binary on the way out (satgrid.external); an embedded solver is killed outright.
    signal.signal(signal.SIGTERM, _leave if is_external(options.solver) else signal.SIG_DFL)
    if niceness and hasattr(os, "nice"):
        os.nice(niceness)
    _lead_group(0)
    _die_with_parent()
    tempfile.tempdir = scratch
    from . import api

    try:
        answer: tuple = ("result", api.solve(puzzle, unique=unique, options=options,
                                             ambiguity=ambiguity))
    except BaseException as exc:  # noqa: BLE001 - everything goes back to the parent
        answer = ("error", (str(exc) or type(exc).__name__, isinstance(exc, CheckFailed)))
    try:
        send.send(answer)
    except OSError:  # the parent has stopped listening: the race is over
        pass
    finally:
        send.close()


def _leave(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


def _lead_group(pid: int) -> None:
    """Make process ``pid`` (0: this one) the leader of a process group of its own. The parent
    and the worker both call it (the usual way to close the race between them); one of the two
    calls may fail when the other already ran or the worker is already gone."""
    try:
        os.setpgid(pid, 0)
    except OSError:
        pass


#: Linux's ``prctl`` option that sends a signal to a process when its parent dies.
PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """Ask the kernel to kill this worker when the parent dies (Linux; elsewhere the worker ends
    at its time limit); a worker whose parent is already gone exits."""
    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    if os.getppid() == 1:
        os._exit(1)


#: Seconds a worker that runs a SAT binary has, after the first SIGTERM, to kill the binary and
#: leave, and how often it is signalled again meanwhile.
STOP_GRACE_S, STOP_EVERY_S = 2.0, 0.02


def _stop(process: Any, external: bool = False) -> None:
    """Kill a worker and whatever it started in its process group, and reap it. A worker that
    runs a SAT binary (``external``) gets SIGTERM first and :data:`STOP_GRACE_S` to kill it."""
    until = time.monotonic() + STOP_GRACE_S
    while external and process.is_alive() and time.monotonic() < until:
        signal_group(process.pid, signal.SIGTERM)
        process.join(STOP_EVERY_S)
    signal_group(process.pid, signal.SIGKILL)
    process.join()
