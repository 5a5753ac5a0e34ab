"""The solver layer: python-sat's embedded solvers by name, with time and conflict limits.

A limit that is hit makes ``solve`` return ``None`` (status "unknown"), never an exception. Limits
are checked once, here (:func:`check_time_limit`, :func:`check_conflict_limit`), for the library
and the command line alike.
"""
from __future__ import annotations

import math
import threading
from contextlib import contextmanager
import time
from threading import get_ident
from collections import deque
from functools import lru_cache
from itertools import repeat
from typing import Callable, Iterable, Iterator, Sequence

import pysat.solvers as pysat_solvers
import pysolvers
from pysat.solvers import NoSuchSolverError, Solver, SolverNames

from .cnf import Clause
from .errors import SolverError

#: Chosen by ``bench/solvers.py`` (many small incremental calls on every genre's puzzles).
DEFAULT_SOLVER = "cadical153"

#: Options set on a new embedded solver. CaDiCaL's inprocessing (variable elimination above all)
#: reruns on every incremental call and undoes itself whenever a new cut mentions an eliminated
#: variable: it is turned off, which speeds up many incremental calls and leaves one-shot solves
#: as they were (figures: encodings/solver.md, section "CaDiCaL without inprocessing").
TUNED_OPTIONS: dict[str, dict[str, int]] = {
    "cadical153": {"inprocessing": 0},
    "cadical195": {"inprocessing": 0},
    "cadical300": {"inprocessing": 0},
}

#: Options that keep a learnt clause's assumption literals as they are (added to
#: :data:`TUNED_OPTIONS` for a solver opened with ``keep_assumptions``). CaDiCaL's shrinking
#: replaces the literals of one decision level in a learnt clause by a single implication point of
#: that level: for the assumption levels that is mostly an assumption that holds this call only
#: (an activation literal), and the clause is lost with it. Without shrinking, the clause names
#: the clue selectors it rests on, and serves every later call that assumes them (figures:
#: encodings/diagnostics.md, "Live re-checks", "A fourth pass").
KEEP_ASSUMPTIONS_OPTIONS: dict[str, dict[str, int]] = {
    "cadical153": {"shrink": 0},
    "cadical195": {"shrink": 0},
}

#: python-sat solver classes whose C clause adder ``add`` calls itself: (the attribute holding
#: the solver's handle, the ``pysolvers`` function). python-sat's ``append_formula`` spends two
#: Python calls a clause around it; a generator loads a few thousand clauses per puzzle
#: (figures: encodings/solver.md, section "python-sat's C clause adder called directly").
#: Other solvers go through ``append_formula``.
DIRECT_ADD = {
    "Minisat22": ("minisat", "minisat22_add_cl"),
    "MinisatGH": ("minisat", "minisatgh_add_cl"),
    "Cadical153": ("cadical", "cadical153_add_cl"),
    "Cadical195": ("cadical", "cadical195_add_cl"),
    "Cadical300": ("cadical", "cadical300_add_cl"),
    "Glucose4": ("glucose", "glucose41_add_cl"),
}

#: python-sat solver classes whose C ``solve`` is called directly (the attribute holding the
#: handle, the ``pysolvers`` function) when no limit is set: python-sat's wrapper spends three
#: Python calls and a thread lookup a call, and an audit makes many short calls (figures:
#: encodings/solver.md, section "python-sat's C solve called directly"). The wrapper's
#: ``status`` and ``prev_assumps`` (which its ``get_model`` and ``get_core`` read) are set as it
#: sets them. (cadical300's wrapper also syncs an attached ``IDPool`` around the call, for its
#: bounded variable addition; satgrid attaches none, so BVA stays off and there is nothing to sync.)
DIRECT_SOLVE = {
    "Cadical153": ("cadical", "cadical153_solve"),
    "Cadical195": ("cadical", "cadical195_solve"),
    "Cadical300": ("cadical", "cadical300_solve"),
}

#: The largest conflict limit: CaDiCaL (embedded and the binary's ``-c``) reads it as a C ``int``,
#: so python-sat's CaDiCaL takes 2**32 + 50 for 50; the other solvers stop at a C ``long``.
MAX_CONFLICT_LIMIT = 2**31 - 1


def check_time_limit(seconds: object, what: str = "time limit") -> float | None:
    """``seconds`` as a time limit (None: no limit); SolverError, naming it ``what``, unless a
    finite number >= 0."""
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) \
            or not math.isfinite(seconds) or seconds < 0:
        raise SolverError(f"{what} {seconds!r}: give a finite number of seconds, 0 or more")
    return float(seconds)


def check_conflict_limit(conflicts: object, what: str = "conflict limit") -> int | None:
    """``conflicts`` as a conflict limit (None: no limit); SolverError, naming it ``what``,
    unless a whole number from 1 to :data:`MAX_CONFLICT_LIMIT`."""
    if conflicts is None:
        return None
    if isinstance(conflicts, bool) or not isinstance(conflicts, int) \
            or not 1 <= conflicts <= MAX_CONFLICT_LIMIT:
        raise SolverError(f"{what} {conflicts!r}: give a whole number from 1 to "
                          f"{MAX_CONFLICT_LIMIT}")
    return conflicts


#: Conflicts in the first slice of a time-limited call to a solver without ``interrupt`` (and
#: without a propagator that can stop it), and the most in one slice (see
#: :meth:`EmbeddedSolver._solve_in_slices`; measured in encodings/solver.md, "A time limit
#: through the propagator").
FIRST_SLICE, MAX_SLICE = 1000, 64000
#: The share of the time left that one slice may take, at the slowest rate seen.
SLICE_SHARE = 0.25

#: The main thread's id: python-sat installs its own SIGINT handler during a call from it.
MAIN_THREAD = threading.main_thread().ident

#: Clauses loaded by one C call (a few milliseconds' worth).
LOAD_CHUNK = 20000

#: Solvers python-sat embeds that cannot serve incremental queries, with the reason.
NOT_INCREMENTAL = {
    "kissat404": "python-sat's kissat ignores assumptions and aborts on add_clause after solve; "
    "it can only serve one-shot solves (satgrid encode + an external solver)",
}


def _direct(inner, table: dict[str, tuple[str, str]]) -> tuple[Callable[..., object], object] | None:
    """The C function ``table`` names for a python-sat solver object, and the object's handle;
    None when python-sat lays it out otherwise."""
    attribute, function = table.get(type(inner).__name__, (None, None))
    handle = getattr(inner, attribute, None) if attribute else None
    fn = getattr(pysolvers, function, None) if function else None
    return (fn, handle) if handle is not None and fn is not None else None


@contextmanager
def conflict_budget(solver: object, conflicts: int | None) -> Iterator[None]:
    """Within the block, each SAT call of ``solver`` stops after at most ``conflicts`` conflicts
    (or its own conflict limit, if smaller; None: its own limit alone); its limit is restored
    afterwards. A solver without conflict limits (an external one) is left as it is."""
    if conflicts is None or not hasattr(solver, "conflict_limit"):
        yield
        return
    before = solver.conflict_limit
    solver.conflict_limit = conflicts if before is None else min(before, conflicts)
    try:
        yield
    finally:
        solver.conflict_limit = before


def embedded_solver_names() -> list[str]:
    """Every solver name (alias included) python-sat accepts."""
    names = []
    for attr in dir(SolverNames):
        if not attr.startswith("_"):
            names.extend(getattr(SolverNames, attr))
    return sorted(set(names))


@lru_cache(maxsize=64)
def _canonical_name(name: str) -> str:
    """python-sat's main name for a solver alias (``kissat`` -> ``kissat404``), else ``name``."""
    for attr in dir(SolverNames):
        if not attr.startswith("_") and name in getattr(SolverNames, attr):
            return attr
    return name


def open_solver(name: str = DEFAULT_SOLVER, conflict_limit: int | None = None,
                trust_external_unsat: bool = False, keep_assumptions: bool = False):
    """The solver called ``name``: ``external:<binary>`` runs a separate SAT binary
    (:class:`satgrid.external.ExternalSolver`, whose UNSAT answers are re-solved unless
    ``trust_external_unsat``), any other name is a python-sat solver (``keep_assumptions``:
    with :data:`KEEP_ASSUMPTIONS_OPTIONS`)."""
    from .external import ExternalSolver, is_external

    if is_external(name):
        return ExternalSolver(name, conflict_limit, trust_external_unsat)
    return EmbeddedSolver(name, conflict_limit, keep_assumptions)


class Assignment:
    """A SAT model as a function from literal to truth value (unset variables are false)."""

    __slots__ = ("model",)

    def __init__(self, model: Sequence[int]):
        self.model = model

    def __call__(self, lit: int) -> bool:
        var = lit if lit > 0 else -lit
        value = var <= len(self.model) and self.model[var - 1] > 0
        return value if lit > 0 else not value


class EmbeddedSolver:
    """One python-sat solver, used incrementally."""

    def __init__(self, name: str = DEFAULT_SOLVER, conflict_limit: int | None = None,
                 keep_assumptions: bool = False):
        self.conflict_limit = check_conflict_limit(conflict_limit)
        canonical = _canonical_name(name)
        if canonical in NOT_INCREMENTAL:
            raise SolverError(f"solver {name} cannot be used here: {NOT_INCREMENTAL[canonical]}")
        if name in SolverNames.cryptosat and not pysat_solvers.cms_present:
            # python-sat would fail an assert (and print a traceback from its destructor)
            raise SolverError(f"solver {name} needs the pycryptosat package, which is not installed")
        try:
            self._solver = Solver(name=name)
        except (NoSuchSolverError, NotImplementedError, ValueError):
            raise SolverError(
                f"unknown solver {name!r}; embedded solvers: {', '.join(embedded_solver_names())}"
            ) from None
        tuned = {**TUNED_OPTIONS.get(canonical, {}),
                 **(KEEP_ASSUMPTIONS_OPTIONS.get(canonical, {}) if keep_assumptions else {})}
        if tuned:
            self._solver.configure(tuned)
        if self.conflict_limit is not None:
            try:  # set again before each limited call; here it tells a solver without budgets
                self._solver.conf_budget(self.conflict_limit)
            except NotImplementedError:
                self._solver.delete()
                raise SolverError(f"solver {name} takes no --conflict-limit (python-sat gives it no "
                                  "conflict budget)") from None
        self.name = name
        self.deadline: float | None = None
        #: Set when a time-limited call ran without a limit (the solver has neither interrupt
        #: nor conflict budget): what a result under a time limit should say.
        self.limit_note = ""
        #: Interrupted by Ctrl-C in a call (see :meth:`solve`): unusable from then on.
        self.broken = False
        self._direct_add = _direct(self._solver.solver, DIRECT_ADD)
        self._direct_solve = _direct(self._solver.solver, DIRECT_SOLVE)
        #: The connected propagator when it can stop a call (:class:`satgrid.propagator.Stoppable`),
        #: the source of fresh variables for its stop literals, and the stop literal of the
        #: calls to come (0: none yet, or the last one was used).
        self._stopper = None
        self._fresh: Callable[[], int] | None = None
        self._stop = 0

    def add(self, clauses: Iterable[Clause]) -> None:
        if self.broken:
            return  # nothing can be asked of it again (see :meth:`solve`)
        if self._direct_add is None:
            self._solver.append_formula(clauses)
            return
        # map drained by a zero-length deque: no Python loop body per clause, and the handle
        # passed by ``repeat``, not bound by ``partial``; both make loading cheaper (figures:
        # encodings/solver.md, section "python-sat's C clause adder called directly")
        # A list is loaded in chunks: one C loop over it all would hold off a signal handler
        # (the time limit on building an encoding, satgrid.session.within) until it ends.
        add, handle = self._direct_add
        if isinstance(clauses, list) and len(clauses) > LOAD_CHUNK:
            for start in range(0, len(clauses), LOAD_CHUNK):
                deque(map(add, repeat(handle), clauses[start:start + LOAD_CHUNK]), 0)
        else:
            deque(map(add, repeat(handle), clauses), 0)

    def solve(self, assumptions: Sequence[int] = ()) -> bool | None:
        """True (SAT), False (UNSAT) or None (a limit was hit).

        Ctrl-C during a call from the main thread: python-sat's own SIGINT handler jumps out of
        the C solver and raises its ``error``, leaving the solver in a state where any later
        call aborts the process (CaDiCaL: "invalid API usage"). It becomes KeyboardInterrupt
        here, and the solver is marked :attr:`broken`: it takes no more clauses, answers no more
        questions (SolverError), and sessions holding it are rebuilt (``Session.worn``)."""
        if self.broken:
            raise SolverError(f"solver {self.name} was interrupted (Ctrl-C) and cannot answer again")
        try:
            return self._solve(assumptions)
        except pysolvers.error as exc:
            raise self._interrupted(exc) from None

    def _interrupted(self, exc: Exception) -> BaseException:
        """python-sat's "Caught keyboard interrupt" error (a call Ctrl-C cut short) as
        KeyboardInterrupt, the solver marked broken; any other of its errors as it is."""
        if "keyboard interrupt" not in str(exc).lower():
            return exc
        self.broken = True
        return KeyboardInterrupt()

    def _solve(self, assumptions: Sequence[int]) -> bool | None:
        if self.deadline is None and self.conflict_limit is None:
            if self._direct_solve is None:
                return self._solver.solve(assumptions=assumptions)
            solve, handle = self._direct_solve
            inner = self._solver.solver
            # the last argument: whether python-sat may take over SIGINT (main thread only)
            inner.status = solve(handle, assumptions, get_ident() == MAIN_THREAD)
            inner.prev_assumps = assumptions
            return inner.status
        if self.deadline is not None and self.deadline - time.monotonic() <= 0:
            return None
        try:
            if self.deadline is not None and not self._can_interrupt():
                if self._stopper is not None:
                    return self._solve_until_stopped(assumptions)
                return self._solve_in_slices(assumptions)
            return self._solve_interruptible(assumptions)
        except NotImplementedError:  # neither interrupt nor budget (python-sat's lingeling)
            pass
        # A time limit only (a conflict limit such a solver refused when opened): the call runs to its end, and the deadline stops the queries
        # between calls (above, and in the CEGAR loop); results say so (:attr:`limit_note`).
        self.limit_note = (f"solver {self.name} cannot interrupt a SAT call: the time limit is "
                           "checked between calls only")
        return self._solver.solve(assumptions=assumptions)

    def _can_interrupt(self) -> bool:
        # python-sat's CaDiCaL and Lingeling raise NotImplementedError on interrupt(); a timer
        # thread calling it would die with a traceback and never stop the solver.
        try:
            self._solver.clear_interrupt()
        except NotImplementedError:
            return False
        return True

    def _solve_interruptible(self, assumptions: Sequence[int]) -> bool | None:
        timer = None
        if self.deadline is not None:
            timer = threading.Timer(self.deadline - time.monotonic(), self._solver.interrupt)
            timer.daemon = True
            timer.start()
        if self.conflict_limit is not None:
            self._solver.conf_budget(self.conflict_limit)
        try:
            return self._solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
        finally:
            if timer is not None:
                timer.cancel()
                self._solver.clear_interrupt()

    def _solve_until_stopped(self, assumptions: Sequence[int]) -> bool | None:
        """A time limit through the connected propagator, for solvers without ``interrupt``:
        one call, under one more assumption, the stop literal, that the propagator falsifies at
        the first propagation fixpoint past the deadline (:class:`satgrid.propagator.Stoppable`).
        An UNSAT answer of a stopped call is "limit reached" (None), and its stop literal is
        retired (false for good; the next call takes a fresh one). Unlike
        :meth:`_solve_in_slices`, the search is never restarted by a new call, which resets
        CaDiCaL's search schedule (figures: encodings/solver.md, "A time limit through the
        propagator")."""
        stopper, solver = self._stopper, self._solver
        if not self._stop:
            self._stop = self._fresh()  # type: ignore[misc]
            solver.observe(self._stop)  # IPASIR-UP: external clauses are over observed variables
        stopper.arm(self.deadline, self._stop)  # type: ignore[union-attr]
        try:
            if self.conflict_limit is not None:
                solver.conf_budget(self.conflict_limit)
                answer = solver.solve_limited(assumptions=[*assumptions, self._stop])
            else:
                answer = solver.solve(assumptions=[*assumptions, self._stop])
        finally:
            stopped = stopper.disarm()  # type: ignore[union-attr]
        if stopped:
            self._stop = 0
            if answer is False:  # (True is a model found before the stop clause was taken)
                return None
        return answer

    def _solve_in_slices(self, assumptions: Sequence[int]) -> bool | None:
        """A time limit for solvers without ``interrupt`` and without a propagator that can stop
        them: conflict-budgeted calls until the deadline (learnt clauses carry over, so the
        slices add up to one search).

        Budgets start at :data:`FIRST_SLICE` conflicts and double up to :data:`MAX_SLICE`, but
        each is also cut to what fits in :data:`SLICE_SHARE` of the time left at the slowest
        rate (conflicts a second) a slice of this call has run, so slices shrink as the deadline
        nears and the last one ends before it in spite of bursts (restarts, clause-database
        reductions); the call gives up (None) once less than one conflict would fit."""
        budget, left = FIRST_SLICE, self.conflict_limit
        deadline: float = self.deadline  # type: ignore[assignment]
        rate = math.inf
        while True:
            step = budget if left is None else min(budget, left)
            started = time.monotonic()
            if rate < math.inf:
                step = min(step, int(rate * (deadline - started) * SLICE_SHARE))
                if step < 1:
                    return None
            self._solver.conf_budget(step)
            answer = self._solver.solve_limited(assumptions=assumptions)
            if answer is not None:
                return answer
            ended = time.monotonic()
            if left is not None:
                left -= step
                if left <= 0:
                    return None
            if ended >= deadline:
                return None
            rate = min(rate, step / max(ended - started, 1e-6))
            budget = min(2 * budget, MAX_SLICE)

    def model(self) -> list[int]:
        return self._solver.get_model()

    def connect_propagator(self, propagator, fresh: Callable[[], int] | None = None) -> None:
        """Attach an IPASIR-UP propagator (:class:`satgrid.propagator.ConnectivityPropagator`)
        and observe its variables; SolverError when the solver takes none. With ``fresh`` (a
        source of new variables, none of them ever in a clause of the encoding) and a
        :class:`satgrid.propagator.Stoppable` propagator, a time limit stops a call through the
        propagator (:meth:`_solve_until_stopped`)."""
        try:
            self._solver.connect_propagator(propagator)
        except NotImplementedError:
            from .propagator import PROPAGATOR_SOLVERS  # (it imports python-sat's engines)

            raise SolverError(f"solver {self.name} takes no propagator (python-sat's "
                              f"{' and '.join(PROPAGATOR_SOLVERS)} do)") from None
        for var in propagator.variables():
            self._solver.observe(var)
        if fresh is not None and hasattr(propagator, "arm"):
            self._stopper, self._fresh, self._stop = propagator, fresh, 0

    def propagate(self, assumptions: Sequence[int]) -> tuple[bool, list[int]]:
        """Unit propagation under ``assumptions``: (no conflict, implied literals)."""
        if self.broken:
            raise SolverError(f"solver {self.name} was interrupted (Ctrl-C) and cannot answer again")
        try:
            ok, lits = self._solver.propagate(assumptions=assumptions)
        except pysolvers.error as exc:
            raise self._interrupted(exc) from None
        except NotImplementedError:
            raise SolverError(f"solver {self.name} has no unit propagation call (python-sat implements "
                              "it in cadical153, cadical195 and the minisat family)") from None
        return bool(ok), list(lits)

    def core(self) -> list[int]:
        """After an UNSAT answer: assumptions that alone are unsatisfiable (the solver's core;
        never a stop literal, see :meth:`_solve_until_stopped`)."""
        core = self._solver.get_core() or []
        return [lit for lit in core if lit != self._stop] if self._stop else list(core)

    def set_phases(self, literals: Sequence[int]) -> None:
        """Prefer these polarities when the solver branches (a hint, never a constraint)."""
        try:
            self._solver.set_phases(literals=list(literals))
        except NotImplementedError:
            pass  # solvers without phase hints just search as usual

    def close(self) -> None:
        self._direct_add = None  # (C adder, handle): the handle is freed with the solver
        self._solver.delete()
