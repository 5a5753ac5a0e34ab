"""Difficulty grades (a propagation ladder) and hints, for every genre.

The ladder (``encodings/grading.md`` has the definitions, examples and references):

* **level 0**: unit propagation from the clues fixes every primary variable (every cell or edge).
  Propagation runs over the base clauses, the clue clauses and the global rules: each rule adds
  the cuts its lazy lowering would add for the *partial* assignment propagation has reached (the
  components of the cells or edges already fixed true; for example a closed sub-loop, a walled-in
  island without a number, a black wall cut in two). With ``connectivity="eager"`` the rules'
  complete CNF is loaded too.
* **level 1**: failed-literal probing to a fixpoint fixes them all: for every unfixed primary
  literal ``l``, propagate the clues with ``l``; a conflict proves ``not l``, which is kept, and
  the probing repeats until nothing changes (Freeman's POSIT "failed literals"; Lynce and
  Ouaknine, ISAIM 2006, graded puzzles by these same steps: encodings/grading.md).
* **level 2**: neither does; the puzzle needs search (or has no unique solution).

Grades do not depend on history: a grade runs on a solver that only ever propagates (it never
searches, so it holds no learnt clauses), and the cuts and facts found while grading sit behind an
activation literal that is switched off afterwards. ``propagate`` exists in python-sat's
cadical153, cadical195 and the minisat family, not in cadical103 (SAT_NOTES).

Hints: :func:`hint` names the next cell or edge whose value is forced, by the weakest level that
proves it, with its reason: the clues, the named rules and the decided cells of a partial state
that force it, a minimal unsatisfiable subset (:mod:`satgrid.explain`).
"""
from __future__ import annotations

import bisect
import math
import time
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Hashable, Sequence

from .errors import LimitReached, SatgridError
from .external import is_external
from .puzzle import cell_name
from .session import Connectivity, Session
from .solver import DEFAULT_SOLVER

# The genres' records import StateFormat from here while the registry imports them, so the
# registry and the api (which imports the registry) are imported inside the functions that use them.

LEVELS = {0: "unit propagation", 1: "failed-literal probing", 2: "search"}


class _Partial:
    """A partial assignment as a value for the rules' ``cuts``: a literal holds iff it is fixed
    true (an unassigned variable makes both its literals false).

    ``model`` lets :func:`satgrid.connectivity.holds` read it without a call per literal: ``v``
    for a variable fixed true, ``-v`` fixed false, NaN unassigned (NaN is neither > 0 nor <= 0).
    """

    __slots__ = ("model",)

    def __init__(self, lits: Sequence[int], top: int, model: list[float] | None = None):
        """``lits`` fixed; ``model`` (taken, not copied): the values of other literals already."""
        if model is None:
            model = [math.nan] * top  # every solver variable is the pool's
        elif len(model) < top:
            model += [math.nan] * (top - len(model))
        for lit in lits:
            model[(lit if lit > 0 else -lit) - 1] = lit
        self.model = model

    def __call__(self, lit: int) -> bool:
        var = lit if lit > 0 else -lit
        return var <= len(self.model) and self.model[var - 1] == lit

    def false(self, lit: int) -> bool:
        var = lit if lit > 0 else -lit
        return var <= len(self.model) and self.model[var - 1] == -lit


class Ladder:
    """Propagation and failed-literal probing for one puzzle on a session that never searches.

    ``assumptions`` switch the puzzle on (clue selectors, decided cells). Everything this ladder
    adds to the solver (rule cuts, probed facts) carries ``-act``; :meth:`close` switches ``act``
    off for good, so the next ladder on the same session starts from the same clauses.

    With ``settled=True`` the session is the ladder's own (nothing else will ask it anything):
    the assumptions become unit clauses, and so do the facts and cuts it finds. A probe is then
    one propagation of one literal from the solver's root, instead of the assumptions' whole
    consequences again (on a 40x57 grid 0.04 ms against 0.9). The solver never lists what holds
    at its root, so the ladder keeps that itself (:attr:`_root`): the assumptions' consequences
    before they become units, and for every later batch of clauses, what propagating them
    adds (:meth:`_commit`).

    A rule with a cut search over its root (:meth:`satgrid.global_rule.GlobalRule.over_root`)
    gets one built for every new root (the root only grows) and asked at every search of that
    root's probes, which then redoes only what a probe touches; the cuts are the same
    (``rooted`` False: every search from scratch).
    """

    #: Settled: use the rules' cut searches over the root (:meth:`_searches`).
    rooted = True

    def __init__(self, session: Session, assumptions: Sequence[int], settled: bool = False):
        self.session = session
        self.pool = session.encoding.pool
        self.rules = list(session.encoding.rules)
        self.act = self.pool.fresh("grade")
        self.settled = settled
        self.base = [] if settled else [*assumptions, self.act]
        self.primary = sorted(session.encoding.primary.values())
        self.root = root_facts(session)
        self._cuts: set[tuple] = set()
        self.probes = 0
        self.propagations = 0
        self._root: list[int] = []
        self._model: list[float] = []  # settled: the values at the root, as _Partial's model
        self._root_version = 0  # settled: how often the root has grown
        self._rooted: tuple[int, dict[int, Any]] = (-1, {})  # (root version, rule id -> search)
        self._contradiction = False
        if settled:
            ok, lits = session.propagate([*assumptions, self.act])
            session.add([[lit] for lit in (*assumptions, self.act)])
            self._contradiction = not ok
            self._at_root([*self.root, *lits])

    def close(self) -> None:
        if not self.settled:  # a settled session is the ladder's own, nothing to switch off
            self.session.add([[-self.act]])

    def learn(self, lit: int) -> None:
        """Keep a proved fact for the rest of this ladder."""
        self._add([[lit]])

    def _add(self, clauses: list[list[int]]) -> None:
        if self.settled:
            self._commit(clauses)
        else:
            self.session.add([[*clause, -self.act] for clause in clauses])

    def _commit(self, clauses: list[list[int]]) -> None:
        """Settled: add ``clauses`` for good and what they force at the root to :attr:`_root`.
        They go in behind a fresh literal, which is propagated (what it adds is the clauses'
        consequences at the root) and then made a unit clause."""
        guard = self.pool.fresh("probed")
        self.session.add([[*clause, -guard] for clause in clauses])
        ok, lits = self.session.propagate([guard])
        self.session.add([[guard]])
        self._at_root(lits)
        self._contradiction = self._contradiction or not ok

    def _at_root(self, lits: list[int]) -> None:
        if lits:
            self._root_version += 1
        self._root += lits
        self._model = _Partial(lits, self.pool.top, self._model).model

    def propagate(self, assumptions: Sequence[int] | None = None,
                  extra: Sequence[int] = ()) -> tuple[bool, list[int]]:
        """Unit propagation with the rules' cuts, to a fixpoint: (no conflict, fixed literals).

        ``assumptions`` replaces the puzzle's own (``act`` is always added; not on a settled
        ladder, whose puzzle is in the solver)."""
        if assumptions is None:
            lits_in = [*self.base, *extra]
        else:
            lits_in = [*assumptions, *extra] if self.settled else [*assumptions, self.act, *extra]
        while True:
            self.propagations += 1
            ok, added = self.session.propagate(lits_in)
            lits = [*(self._root if self.settled else self.root), *added]
            if self._contradiction:
                return False, lits
            if not ok or not self.rules:
                return ok, lits
            new = self._new_cuts(added if self.settled else lits)
            if not new:
                return ok, lits
            self._add(new)

    def _new_cuts(self, lits: Sequence[int]) -> list[list[int]]:
        """The clauses of the rules' cuts for this partial assignment that act now and were not
        made before: the last clause of a cut (its head: "... -> some guard") has at most one
        literal over the old variables that is not fixed false (a conflict or a unit). Cuts that
        act on nothing are left out: made for every path segment of a partial loop, they would
        cost more than they prove.

        The rules name their cuts' fresh variables from a scratch pool (placeholders above every
        real variable); only kept cuts get real ones. Otherwise every probe would spend a fresh
        variable on every path segment (a 10x10 loop puzzle: about 2,500 a grade), and the
        session's variable count, which sizes every partial assignment, would grow without end.
        """
        top = self.pool.top
        searches = self._searches(top) if self.settled and self.rooted else {}
        # settled: ``lits`` (what holds beyond the root, never a root literal) go over the
        # root's model for the search and are taken off again afterwards
        value = _Partial(lits, top, self._model if self.settled else None)
        try:
            return self._cuts_for(value, top, lits, searches)
        finally:
            if self.settled:
                for lit in lits:
                    value.model[(lit if lit > 0 else -lit) - 1] = math.nan

    def _searches(self, top: int) -> dict[int, Any]:
        """Settled: per rule (by id), its cut search over the current root, built when the root
        has grown since the last one (None: the rule has none). Its filter is the probes' own
        but for ``top``, which only tells the rules' variables (all made before any search)
        from the placeholders of fresh ones, and grows only by fresh ones."""
        version, searches = self._rooted
        if version != self._root_version:
            version, searches = self._root_version, {}
        missing = [rule for rule in self.rules if id(rule) not in searches]
        if missing:
            root = _Partial([], top, self._model)
            keep = _acting(root.model, top)
            for rule in missing:
                searches[id(rule)] = self.session.over_root(rule, root, keep)
        self._rooted = (version, searches)
        return searches

    def _cuts_for(self, value: "_Partial", top: int, lits: Sequence[int] = (),
                  searches: dict[int, Any] | None = None) -> list[list[int]]:
        """The new cuts for ``value``, which is the root with ``lits`` on it where ``searches``
        (:meth:`_searches`) has a rule's search over the root."""
        scratch = _ScratchPool(self.pool)
        real: dict[int, int] = {}
        acts = _acting(value.model, top)

        def named(lit: int) -> int:
            if abs(lit) < _FRESH:
                return lit
            var = real.get(abs(lit))
            if var is None:
                var = real[abs(lit)] = self.pool.fresh("cut")
            return var if lit > 0 else -var

        cuts: list[list[list[int]]] = []
        for rule in self.rules:
            search = None if searches is None else searches.get(id(rule))
            cuts += self.session.cuts(value, scratch, acts, [rule]) if search is None \
                else search.cuts(value, lits, scratch, acts)
        new: list[list[int]] = []
        for cut in cuts:
            key = _canonical(cut, top)
            if key not in self._cuts:
                self._cuts.add(key)
                new += [list(map(named, clause)) for clause in cut]
        return new

    def unfixed(self, fixed: set[int]) -> list[int]:
        return [v for v in self.primary if v not in fixed and -v not in fixed]

    def all_fixed(self, fixed: set[int]) -> bool:
        """No primary variable unfixed (stops at the first unfixed one: probing asks after
        every fact it learns)."""
        return all(v in fixed or -v in fixed for v in self.primary)

    def probe(self, deadline: float | None = None,
              stop: Callable[[set[int]], bool] | None = None) -> tuple[str, set[int]]:
        """Failed-literal probing to a fixpoint (or until ``stop(fixed)`` holds).

        A probe propagates its literal and adds the rules' cuts for the probe's own partial
        assignment (a component a probe walls in shows only there). On a settled ladder, where
        a plain propagation is cheap, the cut searches dominate (on a 40x57 grid about 4 ms a
        probe against 0.1 without), so passes are plain while they learn facts; a plain pass
        that learns nothing is followed by a pass with cuts, which goes back to plain probes
        after its first fact and starts where the last such fact was found. The fixpoint is
        where a whole pass with cuts learns nothing: the same as probing with cuts every time (a
        failed literal stays failed as facts are added), found with a fraction of the cut
        searches (figures: encodings/grading.md, "Probing on a settled ladder").

        Returns ("fixpoint" | "stopped" | "conflict" | "limit", fixed literals). "conflict" means
        the assumptions contradict the rules (the puzzle has no solution)."""
        ok, lits = self.propagate()
        if not ok:
            return "conflict", set(lits)
        fixed = set(lits)
        # settled: the root's literals before this mark are in ``fixed`` (a probe with cuts
        # lists the whole root first: only what follows the mark is worth remembering)
        mark = len(self._root) if self.settled else 0
        # plain passes only where a probe is cheap (settled), and where there are cuts to leave out
        plain = self.settled and bool(self.rules)
        with_cuts = not plain
        start = 0  # a pass starts after the variable of the last fact found with cuts
        while True:
            progress = False
            # A literal implied by a probe that succeeded cannot fail in the same state and kind
            # of pass (propagation is monotone), so it is skipped until a new fact is learnt.
            harmless: set[int] = set()
            order = self.unfixed(fixed)
            cut = bisect.bisect_left(order, start)
            for v in order[cut:] + order[:cut]:
                for lit in (v, -v):
                    if lit in harmless or v in fixed or -v in fixed:
                        continue
                    if deadline is not None and time.monotonic() > deadline:
                        return "limit", fixed
                    self.probes += 1
                    if with_cuts:
                        ok, implied = self.propagate(extra=[lit])
                    else:  # what the probe adds is enough here
                        self.propagations += 1
                        ok, implied = self.session.propagate([*self.base, lit])
                        ok = ok and not self._contradiction
                    if ok:
                        harmless.update(implied[mark:] if with_cuts else implied)
                        continue
                    self.learn(-lit)
                    ok, lits = self.propagate()
                    if not ok:
                        return "conflict", set(lits)
                    fixed, harmless, progress = {*lits, -lit}, set(), True
                    mark = len(self._root) if self.settled else 0
                    if with_cuts and plain:
                        start, with_cuts = v + 1, False
                    if stop is not None and stop(fixed):
                        return "stopped", fixed
            if not progress:
                if with_cuts:
                    return "fixpoint", fixed
                with_cuts = True


_FRESH = 1 << 40  # placeholder names of fresh variables, above any real variable


def _acting(model: list[float], top: int) -> Callable[[Sequence[int]], bool]:
    """The ladder's filter of cuts (a :data:`~satgrid.connectivity.Keep`) for a partial
    assignment's ``model``: a head acts when at most one of its literals over the variables up
    to ``top`` is not fixed false (a conflict or a unit). Reads nothing but the head's values."""

    def acts(head: Sequence[int]) -> bool:
        # open = a literal over the old variables that is not fixed false (its variable
        # unassigned, NaN, or assigned its own sign)
        open_ = 0
        for x in head:
            var = x if x > 0 else -x
            if var <= top and not (model[var - 1] == -x):
                open_ += 1
                if open_ > 1:
                    return False
        return True

    return acts


class _ScratchPool:
    """A variable pool for cuts that may be thrown away: ``fresh`` gives placeholder names from
    ``_FRESH`` up; everything else (named variables) is the real pool's."""

    def __init__(self, pool):
        self._pool = pool
        self._next = _FRESH

    def fresh(self, *key) -> int:
        self._next += 1
        return self._next

    def __getattr__(self, name: str):
        return getattr(self._pool, name)


def root_facts(session: Session) -> list[int]:
    """Literals the solver holds at its root level: the encoding's unit clauses and the primary
    literals they force. ``propagate`` leaves these out of its answer (it lists what the
    assumptions add), so the ladder adds them back. Computed once per session: a grading session
    only ever gains clauses behind selectors or activation literals, which force nothing at the
    root."""
    cached = getattr(session, "_root_facts", None)
    if cached is not None:
        return cached
    units = {c[0] for c in session.encoding.clauses if len(c) == 1}
    for v in session.encoding.primary.values():
        if v in units or -v in units:
            continue
        for lit in (v, -v):
            ok, lits = session.propagate([lit])
            if lit not in lits:  # refused (false at the root) or already true there
                units.add(lit if ok else -lit)
                break
    facts = sorted(units, key=abs)
    session._root_facts = facts  # type: ignore[attr-defined]
    return facts


def _canonical(cut: list[list[int]], top: int) -> tuple:
    """A cut with its fresh variables (above ``top``) renamed by first appearance, so the same cut
    made twice is recognised."""
    names: dict[int, int] = {}

    def rename(lit: int) -> int:
        var = abs(lit)
        if var <= top:
            return lit
        name = names.setdefault(var, _FRESH + len(names))
        return name if lit > 0 else -name

    return tuple(sorted(tuple(sorted(rename(x) for x in clause)) for clause in cut))


# -- sessions that only propagate ---------------------------------------------------------------
_GRADERS: "OrderedDict[Hashable, Session]" = OrderedDict()
_MAX_GRADERS = 6


def grading_session(puzzle: Any, solver: str = DEFAULT_SOLVER,
                    connectivity: Connectivity = "lazy", shared: bool = True) -> tuple[Session, bool]:
    """A session for grading ``puzzle`` (shared by puzzles with the same encoding unless
    ``shared`` is False; it is never asked to search) and whether the caller owns it (True:
    close it when done)."""
    if is_external(solver):
        solver = DEFAULT_SOLVER  # a separate binary cannot propagate; grades do not depend on it
    from .registry import GENRES

    g = GENRES[puzzle.genre]
    key = g.cache_key(puzzle) if shared else None
    if key is None:
        return Session(g.encode(puzzle), solver, connectivity), True
    full = (key, solver, connectivity)
    if full in _GRADERS:
        _GRADERS.move_to_end(full)
        return _GRADERS[full], False
    session = Session(g.encode(puzzle), solver, connectivity)
    _GRADERS[full] = session
    if len(_GRADERS) > _MAX_GRADERS:
        _GRADERS.popitem(last=False)[1].close()
    return session, False


def probed_facts(puzzle: Any, deadline: float | None = None) -> dict[Hashable, bool] | None:
    """The primary facts (key -> value) that failed-literal probing with the rules' cuts proves
    from all of ``puzzle``'s clues, by a settled :class:`Ladder` on a private session of
    :data:`~satgrid.solver.DEFAULT_SOLVER` (closed afterwards). Each holds in every solution,
    so a search may take them as given. None: the clues contradict the rules. Stops at
    ``deadline`` (monotonic clock) with what it has; :class:`LimitReached` if the clues were not
    even built by then."""
    session, _ = grading_session(puzzle, shared=False)
    try:
        session.set_deadline(deadline)
        ladder = Ladder(session, list(session.selectors(puzzle.clues()).values()), settled=True)
        status, fixed = ladder.probe(deadline)
        if status == "conflict":
            return None
        return {key: var in fixed for key, var in session.encoding.primary.items()
                if var in fixed or -var in fixed}
    finally:
        session.close()


# -- grades -------------------------------------------------------------------------------------
#: A grid of more cells is graded on a session of its own with its clues settled (a
#: :class:`Ladder` with ``settled``): a published 15x25 grid grades in under a second instead of 15-30
#: (figures: encodings/grading.md, "Probing on a settled ladder"). Smaller grids share a grading
#: session between puzzles of the same encoding, which a generator's many small grades need.
SETTLED_GRADE_CELLS = 100

@dataclass
class Grade:
    """A puzzle's place on the ladder. ``level`` None: a time limit was reached, or propagation
    found the clues contradictory (``note`` says which)."""

    level: int | None
    primary: int
    fixed_by_propagation: int
    fixed_by_probing: int
    probes: int
    time_s: float
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"grade": self.level, "method": None if self.level is None else LEVELS[self.level],
                "primary": self.primary, "fixed_by_propagation": self.fixed_by_propagation,
                "fixed_by_probing": self.fixed_by_probing, "probes": self.probes,
                "time_s": round(self.time_s, 6), **({"note": self.note} if self.note else {})}


def assess_clues(session: Session, clues: dict, time_limit: float | None = None,
                 max_level: int = 2, settled: bool = False) -> Grade:
    """The grade of the clue set ``clues`` on a grading ``session`` (see :func:`assess`).

    ``max_level=0`` stops after propagation (a level-2 answer then means "not level 0").
    ``settled``: the session is this grade's own, and the ladder settles the clues in it
    (:class:`Ladder`); the grade is the same."""
    start = time.perf_counter()
    deadline = None if time_limit is None else time.monotonic() + time_limit
    ladder = Ladder(session, [session.selector(k, v) for k, v in clues.items()], settled)
    try:
        primary = len(ladder.primary)
        ok, lits = ladder.propagate()
        if not ok:
            return Grade(None, primary, 0, 0, 0, time.perf_counter() - start,
                         "propagation finds the clues contradictory (no solution)")
        fixed0 = primary - len(ladder.unfixed(set(lits)))
        if fixed0 == primary or max_level == 0:
            level = 0 if fixed0 == primary else 2
            return Grade(level, primary, fixed0, fixed0, 0, time.perf_counter() - start)
        status, fixed = ladder.probe(deadline, stop=ladder.all_fixed)
        fixed1 = primary - len(ladder.unfixed(fixed))
        elapsed = time.perf_counter() - start
        if status == "conflict":
            return Grade(None, primary, fixed0, fixed1, ladder.probes, elapsed,
                         "probing finds the clues contradictory (no solution)")
        if status == "limit":
            return Grade(None, primary, fixed0, fixed1, ladder.probes, elapsed, "time limit reached")
        return Grade(1 if fixed1 == primary else 2, primary, fixed0, fixed1, ladder.probes, elapsed)
    finally:
        ladder.close()


def assess(puzzle: Any, solver: str = DEFAULT_SOLVER, connectivity: Connectivity = "lazy",
           time_limit: float | None = None) -> Grade:
    """Where ``puzzle`` sits on the ladder: level 0, 1 or 2 (None: limit or contradiction).
    A grid of more than :data:`SETTLED_GRADE_CELLS` cells is graded on a session of its own."""
    settled = puzzle.rows * puzzle.cols > SETTLED_GRADE_CELLS
    session, owned = grading_session(puzzle, solver, connectivity, shared=not settled)
    try:
        return assess_clues(session, puzzle.clues(), time_limit, settled=settled)
    finally:
        if owned:
            session.close()


def grade(puzzle: Any, solver: str = DEFAULT_SOLVER, connectivity: Connectivity = "lazy",
          time_limit: float | None = None) -> int | None:
    """The ladder level of ``puzzle``: 0 propagation, 1 probing, 2 search (None: see :class:`Grade`)."""
    return assess(puzzle, solver, connectivity, time_limit).level


# -- partial states -----------------------------------------------------------------------------
State = dict[Hashable, bool]  # primary key -> value


@dataclass(frozen=True)
class StateFormat:
    """How a genre writes a partial solution, and how its decisions read: a genre's record
    declares one as ``STATE`` (``parse(puzzle, text, source) -> State`` raises ParseError;
    ``describe(puzzle, key, value)`` words one primary variable's value, e.g. "r1c2 is black")."""

    parse: Callable[[Any, str, str], State]
    describe: Callable[[Any, Hashable, bool], str]
    #: Can the player write this fact in the state? (E.g. a digit, not a crossed-out candidate.)
    decision: Callable[[Hashable, bool], bool]
    help: str
    #: Facts the puzzle itself shows (given digits, white numbered cells): never hinted.
    shown: Callable[[Any], State] = lambda puzzle: {}
    #: What a hint calls one of the puzzle's clues ("clue", "given").
    clue: str = "clue"
    #: A whole part's (cell's) value in words from all its primary facts (``{key: value}``), for a
    #: value no one fact words alone (a size in binary digits beside a one-hot "above the cap");
    #: None, or a None answer: the facts one by one, through ``describe``.
    part_words: Callable[[Any, dict], str | None] | None = None


def state_lines(text: str) -> list[tuple[int, str]]:
    """The lines of a state text with their 1-based numbers (for a genre's ``STATE.parse``)."""
    return [(n, t.rstrip("\r\n")) for n, t in enumerate(text.split("\n"), 1)]


def state_format(puzzle: Any) -> StateFormat:
    """The partial-solution format of ``puzzle``'s genre: its record's ``STATE``."""
    from .registry import genre as genre_named

    g = genre_named(puzzle.genre)
    fmt = g.part("STATE")
    if fmt is None:
        raise SatgridError(f"no hints for genre {g.name}: its record declares no partial-state "
                           "format (STATE)")
    return fmt


def read_state(puzzle: Any, text: str, source: str = "<state>") -> State:
    """A partial solution of ``puzzle`` in its genre's state format (:func:`state_format`)."""
    return state_format(puzzle).parse(puzzle, text, source)


# -- hints --------------------------------------------------------------------------------------
@dataclass
class Hint:
    """The answer of :func:`hint`. ``status``: "hint" (``fact`` forced, proved at ``level`` from
    ``clues`` and the decided entries ``decided``), "wrong" (``wrong`` lists the state's entries
    that contradict the solution), "solved" (the state is complete), "multiple" (several
    solutions: ``forced`` undecided facts hold in all of them, and ``fact`` is the next of those,
    as for "hint"), "unsatisfiable" (no solution), "unknown" (a limit was hit)."""

    status: str
    message: str
    fact: tuple[Hashable, bool] | None = None
    level: int | None = None
    clues: list = field(default_factory=list)
    decided: list = field(default_factory=list)
    wrong: list = field(default_factory=list)
    #: For a puzzle with several solutions: how many undecided facts hold in every solution.
    forced: int | None = None
    #: The named rules of the reason (their names as the rulebook words them).
    rules: list = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "message": self.message}
        if self.forced is not None:
            out["forced"] = self.forced
        if self.fact is not None:
            key, value = self.fact
            out.update(key=list(key), value=value, level=self.level, method=LEVELS[self.level],
                       clues=[list(k) for k in self.clues], rules=list(self.rules),
                       decided=[[list(k), v] for k, v in self.decided])
        if self.wrong:
            out["wrong"] = [[list(k), v] for k, v in self.wrong]
        return out


def _clue_name(fmt: StateFormat, key: Hashable, value: object, puzzle: Any = None) -> str:
    """A clue as a hint names it: ``clue 3 at r2c1``, or, when ``puzzle``'s genre words its
    clues (``CLUE_WORDS``, where a value's plain ``str`` is not words), as a repair does."""
    from .registry import genre as genre_named

    words = None if puzzle is None else genre_named(puzzle.genre).part("CLUE_WORDS")
    if words is not None:
        from .repair import clue_words

        return clue_words(key, value, words)
    if isinstance(key, tuple) and len(key) == 2 and all(isinstance(x, int) for x in key):
        return f"{fmt.clue} {value} at {cell_name(*key)}"
    return f"{fmt.clue} {key}={value}"


def _listing(names: list[str], most: int = 6) -> str:
    if not names:
        return ""
    shown = names[:most] + ([f"{len(names) - most} more"] if len(names) > most else [])
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def hint(puzzle: Any, state: State | None = None, solver: str = DEFAULT_SOLVER,
         connectivity: Connectivity = "lazy", candidates: int = 12,
         time_limit: float | None = None) -> Hint:
    """The next forced fact of ``puzzle`` from the partial solution ``state``.

    The weakest ladder level that proves some undecided fact is used; among the facts it proves
    (the first ``candidates`` in reading order), the one with the smallest reason is chosen
    (the fewest clues, rules and decided entries): at levels 0 and 1 a reason from which the
    level's own propagation proves the fact, with no element to spare for that (its "unit
    propagation from ..." is then exactly true; a smaller set may force the fact by search
    alone), at level 2 a minimal unsatisfiable subset (:meth:`satgrid.explain.Reasoner.reason`).
    A puzzle with several solutions still has forced facts, its
    backbone (what holds in every solution, :meth:`PuzzleQueries.backbone`): the hint is the next
    of those, with status "multiple". ``time_limit`` (wall-clock seconds, building included):
    status "unknown" once it passes (the reason's search stops as :func:`satgrid.explain.explain`'s
    does, so a hint given is proved as without a limit)."""
    deadline = None if time_limit is None else time.monotonic() + time_limit
    try:
        return _hint(puzzle, dict(state or {}), solver, connectivity, candidates, deadline)
    except LimitReached:
        return Hint("unknown", "the time limit was reached before the next step was proved")


def _hint(puzzle: Any, state: State, solver: str, connectivity: Connectivity, candidates: int,
          deadline: float | None) -> Hint:
    """:func:`hint`, every query under ``deadline`` (monotonic clock): LimitReached past it."""
    from . import api

    fmt = state_format(puzzle)
    describe = lambda key, value: fmt.describe(puzzle, key, value)  # noqa: E731
    options = api.Options(solver=solver)
    queries, owned = api.solve_queries(puzzle, options, deadline, audit=False)
    search = queries.session
    given: list[int] = []  # the guard of the facts a slow first query probed (api.first_query)
    try:
        primary = search.encoding.primary
        unknown = [k for k in state if k not in primary]
        if unknown:
            raise SatgridError(f"the state names {unknown[0]!r}, which is not part of this puzzle")
        first, given, _ = api.first_query(puzzle, queries, options, False, deadline)
        if first.status != "sat":
            status = "unsatisfiable" if first.status == "unsat" else "unknown"
            return Hint(status, "the puzzle has no solution" if status == "unsatisfiable"
                        else "a limit was reached before a solution was found")
        assert first.assignment is not None
        solution = {key: first.assignment(var) for key, var in primary.items()}
        projection = queries.project(first.assignment)
        second = queries.other_solution(projection, need_model=False, extra=given)
        if second.status == "unknown":
            return Hint("unknown", "a limit was reached while proving the solution unique")
        unique = second.status == "unsat"
        if not unique:  # the facts forced by the clues alone: those true in every solution
            forced = queries.backbone(projection)
            solution = {k: var in forced if var in forced or -var in forced else None
                        for k, var in primary.items()}
        whom = "the solution" if unique else "every solution"
        wrong = [(k, v) for k, v in state.items() if solution[k] is not None and solution[k] != v]
        if wrong:
            return Hint("wrong", "the state is wrong: " + _listing([describe(k, v) for k, v in wrong])
                        + (" contradicts " if len(wrong) == 1 else " contradict ") + whom,
                        wrong=wrong)
        shown = fmt.shown(puzzle)
        open_facts = [(k, v) for k, v in solution.items()
                      if v is not None and k not in state and k not in shown and fmt.decision(k, v)]
        if not open_facts:
            if not unique:
                return Hint("multiple", f"{_NOT_UNIQUE}, and no undecided fact holds in every "
                            "solution: nothing is forced by the clues", forced=0)
            return Hint("solved", "the state is complete: every cell is decided, and correctly")
    finally:
        search.set_deadline(None)
        queries.retire()
        if given:
            search.add([[-lit] for lit in given])
        if owned:
            search.close()
    found = _hint_from(puzzle, state, open_facts, solver, connectivity, candidates, fmt, deadline)
    if unique:
        return found
    return replace(found, status="multiple", forced=len(open_facts),
                   message=f"{_NOT_UNIQUE}; still, {len(open_facts)} undecided "
                           f"{'fact holds' if len(open_facts) == 1 else 'facts hold'} in every "
                           f"solution (forced by the clues). Next: {found.message}")


_NOT_UNIQUE = "the puzzle is not unique (it has more than one solution)"


def _hint_from(puzzle, state: State, open_facts, solver, connectivity, candidates,
               fmt: StateFormat, deadline: float | None = None) -> Hint:
    """The hint: the weakest level that forces some of ``open_facts`` from the clues, the named
    rules and ``state``, and among the first ``candidates`` facts it forces the one with the
    smallest reason (see :func:`hint`); LimitReached once ``deadline`` (monotonic clock)
    passes."""
    from .explain import Reasoner, explain_step, forced_facts, smallest_cores

    if deadline is not None and time.monotonic() >= deadline:
        raise LimitReached("time limit reached before the hint's reason")
    reasoner = Reasoner(puzzle, solver, connectivity)
    reasoner.deadline = deadline
    try:
        items = reasoner.items()
        level, found = forced_facts(reasoner, items, state, open_facts, candidates)
        if not found:
            raise SatgridError("internal error: no hinted fact is forced by the clues")
        # the candidates whose solver's cores are the smallest (at search, the first of them)
        chosen = smallest_cores(reasoner, items, state, found[:candidates], level)
        if level < 2:  # their cores shrunk by the level's own propagation (no SAT call)
            best = min((explain_step(reasoner, items, state, f, level, core=core, proved=False)
                        for f, core in chosen), key=lambda step: step.size)
        else:  # shrunk to a MUS
            [(fact, core)] = chosen[:1]
            best = explain_step(reasoner, items, state, fact, level, core=core)
    finally:
        reasoner.close()
    parts = [_clue_name(fmt, k, puzzle.clues()[k], puzzle) for k in best.clues]
    if best.facts:
        facts = [fmt.describe(puzzle, k, v) for k, v in best.facts]
        parts.append(f"the decided fact{'s' if len(facts) > 1 else ''} that " + _listing(facts, 4))
    names = _listing(parts, 8) or "the rules alone"
    if best.rules:
        names += f" by the rule{'s' if len(best.rules) > 1 else ''} " + _listing([f'"{r}"' for r in best.rules], 8)
    why = {0: f"unit propagation from {names}",
           1: f"otherwise propagation from {names} runs into a contradiction (failed-literal probing)",
           2: f"needs search: the SAT solver refutes the opposite from {names}"}[level]
    return Hint("hint", f"{best.text}: {why}", best.fact, level, best.clues, best.facts, rules=best.rules)
