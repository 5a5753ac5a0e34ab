"""One incremental solver per encoding, and the one CEGAR loop every query goes through.

``Session.solve(assumptions)``: solve -> read the assignment -> ask every lazy global rule for
cuts -> add them -> solve again, until the assignment obeys every rule (or UNSAT / a limit).
Cuts follow from the rules alone, so they stay in the solver for every later query, clue set and
puzzle that shares the encoding.

Time limits are deadlines on the monotonic clock (:meth:`Session.set_deadline`): every SAT call
of every query stops there, and :func:`within` bounds the building of a new session too.
"""
from __future__ import annotations

import gc
import itertools
import signal
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Literal, Sequence

from .cnf import Clause, VarPool, guarded
from .connectivity import Cut, Keep, Value
from .encoding import ClueEncoding, ClueKey, Encoding, GlobalRule
from .errors import LimitReached, SolverError
from .global_rule import RootedCuts
from .solver import DEFAULT_SOLVER, Assignment, _canonical_name, open_solver

Connectivity = Literal["lazy", "eager", "propagator"]
#: The lowerings of global rules: ``lazy`` (CEGAR cuts), ``eager`` (complete CNF), ``propagator``
#: (plain-adjacency connected rules checked inside the search by
#: :class:`satgrid.propagator.ConnectivityPropagator`, python-sat's cadical195 and cadical300
#: only; every other rule lazy). A DIMACS export is eager or lazy: a propagator is code, not
#: clauses.
CONNECTIVITIES = ("lazy", "eager", "propagator")
Status = Literal["sat", "unsat", "unknown"]


def check_connectivity(connectivity: str, solver: str) -> None:
    """SolverError unless ``connectivity`` is a lowering (:data:`CONNECTIVITIES`) that ``solver``
    can run: the propagator needs a solver that takes one
    (:data:`satgrid.propagator.PROPAGATOR_SOLVERS`); there is no silent fall-back to lazy."""
    from .propagator import PROPAGATOR_SOLVERS

    if connectivity not in CONNECTIVITIES:
        raise SolverError(f"connectivity must be one of {', '.join(CONNECTIVITIES)}, not {connectivity!r}")
    if connectivity == "propagator" and _canonical_name(solver) not in PROPAGATOR_SOLVERS:
        raise SolverError(f"connectivity propagator needs solver {' or '.join(PROPAGATOR_SOLVERS)} "
                          f"(python-sat's IPASIR-UP), not {solver}")


@dataclass
class Stats:
    """Counters for reports: SAT calls, CEGAR iterations that added cuts, cuts added, time, the
    UNSAT answers of an external solver by how they were established (re-solved or trusted,
    see :mod:`satgrid.external`), and the facts a slow solve proved by probing before its search
    went on (:data:`satgrid.api.PROBE_AFTER_S`; not a session's counter, set on a result)."""

    sat_calls: int = 0
    cegar_iterations: int = 0
    cuts: int = 0
    time_s: float = 0.0
    unsat_checks: dict[str, int] = field(default_factory=dict)
    probed: int = 0

    def since(self, start: "Stats") -> "Stats":
        checks = {how: n - start.unsat_checks.get(how, 0) for how, n in self.unsat_checks.items()}
        return Stats(
            self.sat_calls - start.sat_calls,
            self.cegar_iterations - start.cegar_iterations,
            self.cuts - start.cuts,
            self.time_s - start.time_s,
            {how: n for how, n in checks.items() if n},
        )

    def to_json(self) -> dict[str, Any]:
        """The ``"stats"`` object of the JSON reports."""
        return {"time_s": round(self.time_s, 6), "sat_calls": self.sat_calls,
                "cegar_iterations": self.cegar_iterations, "cuts": self.cuts,
                **({"probed": self.probed} if self.probed else {})}

    def copy(self) -> "Stats":
        return Stats(self.sat_calls, self.cegar_iterations, self.cuts, self.time_s,
                     dict(self.unsat_checks))


#: The most :func:`within` stops a build ahead of its deadline; how soon it tries again when
#: it could not stop the build (a garbage collection was running finalizers); and how long after
#: the deadline it gives up trying.
BUILD_MARGIN_S = 0.2
RETRY_S = 0.001


def within(deadline: float | None) -> "BuildTimer":
    """``with within(deadline):`` raises :class:`LimitReached` in the block once the monotonic
    clock passes ``deadline`` (None: never); see :class:`BuildTimer`."""
    return BuildTimer(deadline)


class BuildTimer:
    """The context manager of :func:`within`.

    For building a *new* session (encoding the rules, loading the solver), which is Python code
    that cannot be asked to stop: a SIGALRM timer interrupts it between two bytecodes. That is
    safe only because everything the block makes is thrown away with the exception; never wrap
    work on a shared session in it. The timer fires a tenth of the time early (at most
    :data:`BUILD_MARGIN_S`): a garbage-collection pass and freeing the half-built encoding come
    between the signal and the caller, and a build that would end in that last tenth leaves no
    time to solve anyway. While a garbage collection runs, finalizers may be what is running and
    an exception raised in one is lost, so the handler only marks the limit as due, and the end of
    the collection fires the timer again :data:`RETRY_S` later, however long the collection took.
    A finalizer that runs outside a collection (its object's last reference went, say a solver's
    ``__del__``) puts the timer off by :data:`RETRY_S` until it has returned.
    Other ``gc.callbacks`` hooks (a test library's, say) run in the collection too: a hook first
    in the list marks its start and one last in the list its end, so that the handler never
    raises inside any of them.
    Where no timer can be set (not the main thread, or SIGALRM already has a handler), the block
    runs to its end and the queries find the deadline passed. A signal that comes while
    ``__enter__`` still runs (a deadline already passed) fires the timer again, so that the
    limit is raised inside the block and ``__exit__`` restores the handler.
    """

    def __init__(self, deadline: float | None):
        self.deadline = deadline
        self.armed = False
        self.collecting = False
        self.due = False

    def __enter__(self) -> "BuildTimer":
        if self.deadline is not None and hasattr(signal, "setitimer") \
                and threading.current_thread() is threading.main_thread() \
                and signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, None):
            self.armed = True
            gc.callbacks.insert(0, self._gc_start)
            gc.callbacks.append(self._gc_stop)
            signal.signal(signal.SIGALRM, self._expire)
            left = self.deadline - time.monotonic()
            signal.setitimer(signal.ITIMER_REAL, max(left - min(left / 10, BUILD_MARGIN_S), 1e-6))
        return self

    def _gc_start(self, phase: str, info: dict) -> None:
        if phase == "start":
            self.collecting = True

    def _gc_stop(self, phase: str, info: dict) -> None:
        if phase == "stop":
            self.collecting = False
            if self.due and self.armed:
                signal.setitimer(signal.ITIMER_REAL, RETRY_S)

    def _expire(self, signum: int, frame: Any) -> None:
        if not self.armed or (frame is not None and frame.f_code is BuildTimer.__exit__.__code__):
            return  # the block is over: __exit__ disarms the timer
        if self.collecting:
            self.due = True  # raised once the collection ends (:meth:`_gc_stop`)
            return
        if _in_finalizer(frame):  # garbage freed by its last reference going: lost in there too
            signal.setitimer(signal.ITIMER_REAL, RETRY_S)
            return
        if frame is not None and frame.f_code in (BuildTimer.__enter__.__code__, BuildTimer._gc_start.__code__,
                                                  BuildTimer._gc_stop.__code__):
            # raised in a hook it would be lost; raised in __enter__ (a deadline already passed)
            # the block would never start, so __exit__ would never disarm the timer
            signal.setitimer(signal.ITIMER_REAL, RETRY_S)
            return
        raise LimitReached("time limit reached while building the encoding")

    def __exit__(self, *exc: object) -> None:
        if self.armed:
            self.armed = False
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, signal.SIG_DFL)
            gc.callbacks.remove(self._gc_start)
            gc.callbacks.remove(self._gc_stop)


def _in_finalizer(frame: Any) -> bool:
    """Whether ``frame`` runs inside a ``__del__`` (an exception raised there is lost)."""
    while frame is not None:
        if frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False


@dataclass
class Outcome:
    """The answer to one query: a status and, when SAT, the assignment."""

    status: Status
    assignment: Assignment | None = None


#: The fewest variables a session makes before it counts as worn (:meth:`Session.worn`), so that
#: small grids are not rebuilt too often.
MIN_WEAR = 500


@dataclass
class Session:
    """An :class:`Encoding` loaded into one incremental solver."""

    encoding: Encoding
    solver_name: str = DEFAULT_SOLVER
    connectivity: Connectivity = "lazy"
    conflict_limit: int | None = None
    stats: Stats = field(default_factory=Stats)
    #: Take an external solver's UNSAT answers without re-solving them (see satgrid.external).
    trust_external_unsat: bool = False
    #: Learn over the clue selectors themselves: every selector is assumed on its own (no
    #: activation literal for all clues, :meth:`~satgrid.queries.PuzzleQueries.assumptions`) and
    #: the solver keeps assumption literals in learnt clauses (``keep_assumptions`` of
    #: :func:`~satgrid.solver.open_solver`). A clause learnt under one clue set then names the
    #: clues it rests on and serves every later clue set that holds them: for a session whose
    #: clue sets differ by a clue or two (:class:`satgrid.live.Editor`); measured in
    #: encodings/diagnostics.md ("Live re-checks").
    clue_learning: bool = False

    def __post_init__(self) -> None:
        check_connectivity(self.connectivity, self.solver_name)
        enc = self.encoding
        self.solver = open_solver(self.solver_name, self.conflict_limit, self.trust_external_unsat,
                                  keep_assumptions=self.clue_learning)
        self.solver.add(enc.clauses)
        for rule in enc.rules:
            self.solver.add(rule.clauses(enc.pool))
            if self.connectivity == "eager":
                self.solver.add(rule.eager_clauses(enc.pool))
        self.lazy_rules = list(enc.rules) if self.connectivity != "eager" else []
        #: The propagator of the ``propagator`` lowering (None in the others).
        self.propagator = None
        if self.connectivity == "propagator":
            from .propagator import ConnectivityPropagator, supports
            taken = [rule for rule in enc.rules if supports(rule)]
            if taken:
                self.propagator = ConnectivityPropagator(taken)  # type: ignore[arg-type]
                # fresh: the stop literals of a time limit (satgrid.propagator.Stoppable)
                self.solver.connect_propagator(self.propagator, lambda: enc.pool.fresh("stop"))
                self.lazy_rules = [rule for rule in enc.rules if not supports(rule)]
        #: Per rule that takes them (it has ``clue_anchor``): the clue anchors of the clues so far.
        self._anchors: dict[str, list[tuple[int, object]]] = {
            rule.name: [] for rule in enc.rules if hasattr(rule, "clue_anchor")}
        self._selectors: dict[tuple[ClueKey, object], int] = {}
        self._broken: dict[int, tuple[Clause, ...]] = {}  # a clue's broken clauses, by selector
        self._breakers: dict[int, int] = {}  # selector -> breaker
        #: Selectors that are the clue itself (a given digit): their negation is assumable.
        self.literal_clues: set[int] = set()
        #: The variables of the rules and of the clues built so far (see :meth:`worn`).
        self.built_top = enc.pool.top

    def worn(self) -> bool:
        """Whether this session has made more variables since it was built than the rules have:
        every puzzle served leaves retired blocking and activation literals (and learnt clauses
        over them) in the solver, and each call grows slower (measured in encodings/batch.md).
        The variables a clue's clauses draw (counters, the islands' levels) are part of the
        encoding, made once per clue and reused by every later query, so they are not wear (an
        island puzzle's clues draw more variables than its rules: counted as wear, its session
        was worn after its first query and rebuilt for every later one). They are bounded by the
        distinct clues (cell and value) a session sees.
        A cache of shared sessions replaces a worn one by a fresh build. A session whose solver
        a Ctrl-C broke (:attr:`EmbeddedSolver.broken`) counts as worn too."""
        if getattr(self.solver, "broken", False):  # interrupted by Ctrl-C: unusable
            return True
        return self.encoding.pool.top - self.built_top > max(self.built_top, MIN_WEAR)

    # -- clues ---------------------------------------------------------------------------------
    def selector(self, key: ClueKey, value: object) -> int:
        """The literal that switches on clue ``key = value`` (its clauses are added once)."""
        return self.selectors({key: value})[key]

    def selectors(self, clues: dict[ClueKey, object]) -> dict[ClueKey, int]:
        """:meth:`selector` for every clue, each new clue's clauses added as soon as it is built.

        No clue's clauses are kept (only its broken clauses, for :meth:`breaker`): a clue's
        lists live from its building to its loading, so the cyclic garbage collector seldom
        sees them (one call for all clues, with every clue's lists kept, cost an island puzzle
        half of its collections; measured in the encodings document of the first genre with
        islands, "The collector's share of a fresh query")."""
        out, known = {}, self._selectors
        # Building big clues can take long (the islands' levels on a 40x57 grid): the deadline
        # holds here too, and a clue counts as known only once its clauses are in the solver.
        deadline, top = self.solver.deadline, self.encoding.pool.top
        try:
            for key, value in clues.items():
                lit = known.get((key, value))
                if lit is None:
                    if deadline is not None and time.monotonic() > deadline:
                        raise LimitReached("time limit reached while building the clues")
                    lit = known[key, value] = self._load(self.encoding.encode_clue(key, value))
                out[key] = lit
        finally:
            self.built_top += self.encoding.pool.top - top  # the clues' variables are no wear
        return out

    def _load(self, clue: ClueEncoding) -> int:
        """Put a new clue into the solver behind its selector; the selector."""
        if clue.clauses:
            self.solver.add(clue.switched)
        else:
            self.literal_clues.add(clue.selector)
        if clue.anchor is not None:
            self._anchors[clue.anchor[0]].append((clue.selector, clue.anchor[1]))
        self._broken[clue.selector] = clue.broken
        return clue.selector

    def breaker(self, selector: int) -> int | None:
        """The literal that, assumed, says the clue switched on by ``selector`` is broken (its
        clauses are added once); None when the genre states no such clauses."""
        lit = self._breakers.get(selector)
        if lit is None:
            broken = self._broken[selector]
            if not broken:
                return None
            lit = self._breakers[selector] = self.encoding.pool.fresh("broken")
            self.solver.add(guarded(broken, lit))
        return lit

    def retire_breaker(self, selector: int) -> list[Clause]:
        """The unit clause that switches off for good the breaker of the clue ``selector``
        switches on (none if it has none yet), to add once no question will ask about that clue
        again; a later :meth:`breaker` call makes a fresh one."""
        lit = self._breakers.pop(selector, None)
        return [] if lit is None else [[-lit]]

    # -- the CEGAR loop ------------------------------------------------------------------------
    def set_time_limit(self, seconds: float | None) -> None:
        """Every query from now on stops (status "unknown") ``seconds`` from now (at once when
        ``seconds`` <= 0; user-given limits are checked by api.Options)."""
        self.set_deadline(None if seconds is None else time.monotonic() + seconds)

    def set_deadline(self, deadline: float | None) -> None:
        """Every query from now on stops (status "unknown") at ``deadline`` (monotonic clock)."""
        self.solver.deadline = deadline

    def solve(self, assumptions: Sequence[int] = (), need_model: bool = True,
              rounds: int | None = None) -> Outcome:
        """Find an assignment obeying every clause and global rule under ``assumptions``.

        With ``need_model=False`` and no lazy rule, a SAT answer comes without its assignment
        (reading a model costs more than a small incremental call). With ``rounds``, at most
        that many SAT calls (CEGAR rounds), then "unknown": a limit that, unlike a deadline,
        gives the same answer on a loaded machine.
        """
        start = time.perf_counter()
        pool, stats = self.encoding.pool, self.stats
        try:
            for _ in itertools.count() if rounds is None else range(rounds):
                stats.sat_calls += 1
                answer = self.solver.solve(assumptions)
                if answer is None:
                    return Outcome("unknown")
                if not answer:
                    how = getattr(self.solver, "unsat_check", None)  # external solvers only
                    if how is not None:
                        stats.unsat_checks[how] = stats.unsat_checks.get(how, 0) + 1
                    return Outcome("unsat")
                if not need_model and not self.lazy_rules:
                    return Outcome("sat")
                value = Assignment(self.solver.model())
                cuts = self.cuts(value, pool)
                if not cuts:
                    return Outcome("sat", value)
                stats.cegar_iterations += 1
                stats.cuts += len(cuts)
                self.solver.add([clause for cut in cuts for clause in cut])  # one call a round
            return Outcome("unknown")
        finally:
            stats.time_s += time.perf_counter() - start

    def cuts(self, value: Value, pool: VarPool, keep: Keep | None = None,
             rules: Sequence[GlobalRule] | None = None) -> list[Cut]:
        """The cuts of ``rules`` (default: the lazy ones) for ``value``, with the clue anchors of
        this session's clues (``pool`` names the cuts' fresh variables; ``keep``: see
        :data:`~satgrid.connectivity.Keep`)."""
        cuts: list[Cut] = []
        for rule in self.lazy_rules if rules is None else rules:
            anchors = self._anchors.get(rule.name)
            cuts += rule.cuts(value, pool, keep) if anchors is None else \
                rule.cuts(value, pool, keep, anchors=anchors)  # type: ignore[call-arg]
        return cuts

    def over_root(self, rule: GlobalRule, root: Value, keep: Keep | None = None) -> RootedCuts | None:
        """``rule``'s cut search over the extensions of ``root`` (:meth:`GlobalRule.over_root`),
        None when the rule has none or takes clue anchors in this session (then :meth:`cuts`)."""
        if self._anchors.get(rule.name):
            return None
        over_root = getattr(rule, "over_root", None)
        return None if over_root is None else over_root(root, keep)

    def add(self, clauses: list[Clause]) -> None:
        self.solver.add(clauses)

    def propagate(self, assumptions: Sequence[int]) -> tuple[bool, list[int]]:
        return self.solver.propagate(assumptions)

    def core(self) -> list[int]:
        """After an "unsat" answer: assumptions that alone are unsatisfiable (with the rules' cuts
        learnt so far, which hold in every solution)."""
        core = getattr(self.solver, "core", None)
        if core is None:
            raise SolverError(f"solver {self.solver_name} reports no unsatisfiable core")
        return core()

    def prefer(self, literals: Sequence[int]) -> None:
        """Branch towards ``literals`` first (phase hints; answers stay the same)."""
        self.solver.set_phases(literals)

    def close(self) -> None:
        self.solver.close()
