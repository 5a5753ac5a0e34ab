"""Questions about one puzzle, asked of a shared :class:`~satgrid.session.Session`.

Clues sit behind selector literals and are switched on by assumptions, so one solver answers:
``solve``; ``other_solution`` (uniqueness: the found solution, projected on the primary
variables, is blocked behind an activation literal, so the solver stays usable); ``backbone``;
``redundant_clues`` (clue minimality); ``minimal_clue_set`` (greedy deletion).
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import AbstractSet, Callable, Iterable, Iterator, Mapping, Sequence

from .encoding import ClueKey
from .errors import LimitReached
from .session import Outcome, Session
from .external import is_external
from .solver import Assignment, conflict_budget

Projection = tuple[int, ...]

#: An audit's passes over its clues (:meth:`PuzzleQueries.redundant_clues`): (conflicts per SAT
#: call, CEGAR rounds) of a question; the last, (None, None), has no limit.
AUDIT_PASSES: tuple[tuple[int | None, int | None], ...] = ((2_000, 10), (20_000, 40), (None, None))


class PuzzleQueries:
    """The queries of one puzzle (its clues) on a session."""

    def __init__(self, session: Session, clues: dict[ClueKey, object]):
        self.session = session
        self.selectors = session.selectors(clues)
        self._blockers: dict[Projection, int] = {}
        self._primary = session.encoding.primary_vars
        self._all: int | None = None
        #: Every clue is a literal (given digits): assumed as they are, no activation literal.
        self._literal = set(self.selectors.values()) <= session.literal_clues
        self._leading = session.encoding.primary_leading

    # -- building blocks -----------------------------------------------------------------------
    def assumptions(self, without: Iterable[ClueKey] = ()) -> list[int]:
        """Selectors of every clue except ``without`` (all of them: their activation literal,
        unless the session learns over the selectors, :attr:`Session.clue_learning`)."""
        off = set(without)
        if not off and not self._literal and not self.session.clue_learning:
            return [self.all_clues()]
        return [lit for key, lit in self.selectors.items() if key not in off]

    def all_clues(self) -> int:
        """One activation literal that switches every clue on (``all -> selector`` clauses).

        Assuming it instead of every selector keeps the solver at one assumption level, which
        pays off when there are many clue selectors. Literal clues (given digits) are facts, not
        switches, and are assumed as they are: for them the activation literal only costs
        (figures: encodings/queries.md, section "One activation literal for all clues")."""
        if self._all is None:
            self._all = self.session.encoding.pool.fresh("all")
            self.session.add([[-self._all, lit] for lit in self.selectors.values()])
        return self._all

    def project(self, assignment: Assignment) -> Projection:
        """The assignment on the primary variables, as the literals that hold."""
        model = assignment.model
        size = len(model)
        true_only = self.session.encoding.block_true_only
        if self._leading and size >= len(self._primary):
            # primary variables are 1..n, so the model's first n entries are their literals
            head = model[: len(self._primary)]
            return tuple(filter((0).__lt__, head)) if true_only else tuple(head)
        holds = [v if v <= size and model[v - 1] > 0 else -v for v in self._primary]
        return tuple(v for v in holds if v > 0) if true_only else tuple(holds)

    def blocker(self, projection: Projection) -> int:
        """An activation literal that, when assumed, excludes ``projection``."""
        lit = self._blockers.get(projection)
        if lit is None:
            lit = self.session.encoding.pool.fresh("block")
            self.session.add([[-lit, *(-x for x in projection)]])
            self._blockers[projection] = lit
        return lit

    def retire(self) -> None:
        """Switch off this puzzle's blocking clauses for good (the solver drops them)."""
        done = [*self._blockers.values(), *([self._all] if self._all is not None else [])]
        self.session.add([[-lit] for lit in done])
        self._blockers.clear()
        self._all = None

    def _prefer(self, projection: Projection) -> None:
        """Branch towards the known solution in clue queries that block it: a needed clue then
        shows with a solution close to this one, found in fewer conflicts and CEGAR rounds.
        Literal clues are asked by reduction to absurdity, mostly UNSAT, where the hint only
        costs, so it is not set for them (figures: encodings/queries.md, section "Branching
        towards the known solution")."""
        if not self._literal:
            self.session.prefer(projection)

    # -- queries -------------------------------------------------------------------------------
    def solve(self, without: Iterable[ClueKey] = (), extra: Sequence[int] = (),
              need_model: bool = True) -> Outcome:
        return self.session.solve([*self.assumptions(without), *extra], need_model)

    def other_solution(
        self, projection: Projection, without: Iterable[ClueKey] = (), extra: Sequence[int] = (),
        need_model: bool = True,
    ) -> Outcome:
        """A solution whose projection differs from ``projection`` ("unsat" = unique)."""
        return self.solve(without, [*extra, self.blocker(projection)], need_model)

    def one_more_gone(self, projection: Projection, key: ClueKey) -> int:
        """The literal that, assumed beside the clues still on, asks whether ``projection``
        stays the only solution once clue ``key`` goes too ("unsat" = yes).

        Precondition: with ``key`` on, the puzzle has ``projection`` as its only solution. Then
        the equivalent question "is there a solution that breaks the clue?" is cheaper ("reduction
        to absurdity": every solution without the clue that satisfies it is a solution of the
        unique puzzle), and it starts the search at the clue. For a literal clue (a given digit)
        it is the literal's negation; for a clue whose genre states when it is broken, its
        :meth:`~satgrid.session.Session.breaker` (faster than the blocker; figures:
        encodings/queries.md, section "A clue's breaker instead of the blocker"). Otherwise: the
        blocker of ``projection``.
        """
        return self.breaking(self.selectors[key], projection)

    def breaking(self, selector: int, projection: Projection) -> int:
        """The literal that asks for a solution that breaks the clue ``selector`` switches on:
        the negation of a literal clue, the clue's breaker, else the blocker of ``projection``
        (see :meth:`one_more_gone`)."""
        if selector in self.session.literal_clues:
            return -selector
        breaker = self.session.breaker(selector)
        return breaker if breaker is not None else self.blocker(projection)

    def backbone(self, projection: Projection) -> set[int]:
        """The primary literals that hold in every solution (given one solution's projection).

        Repeatedly asks for a solution that flips at least one remaining candidate; each answer
        removes the candidates it flips, until no flip is possible.
        """
        holds = set(projection)
        candidates = {v if v in holds else -v for v in self.session.encoding.primary.values()}
        while candidates:
            outcome = self.other_solution(tuple(sorted(candidates, key=abs)))
            if outcome.status != "sat":
                if outcome.status == "unknown":
                    raise LimitReached("backbone: a time or conflict limit was reached")
                break
            assert outcome.assignment is not None
            candidates = {lit for lit in candidates if outcome.assignment(lit)}
        return candidates

    def redundant_clues(
        self, projection: Projection, witnesses: Iterable[AbstractSet[ClueKey]] = (),
        passes: Sequence[tuple[int | None, int | None]] | None = None,
    ) -> tuple[list[ClueKey], list[ClueKey]]:
        """Clues whose removal alone keeps the solution unique, and clues left undecided.

        A clue is redundant iff the puzzle without it has no solution other than ``projection``.
        ``witnesses`` (see :meth:`minimal_clue_set`; typically the genre's ``WITNESSES``) are
        sets of clues, each the clues some other solution breaks: a set of one clue shows that
        clue needed without a SAT call. A set of several clues decides nothing here (that other
        solution breaks a clue that stays on in each question).

        **Passes** (``passes``, default :data:`AUDIT_PASSES`): each clue's question is asked
        with the first pass's conflict budget per SAT call, the clues it leaves open again with
        the next one, and so on; the last pass (None) has no budget, so every answer is exact
        and the same as one pass in order. On a big grid a few questions are hard while most are
        easy once the solver has learnt from the others (on a published 20x36 puzzle the first
        two took over 10 s each when asked first, and most others a fraction of a second), so
        a limit stops with most clues decided rather than a few; figures in
        ``encodings/queries.md``, "Audits in passes". An external solver (a run of its own a
        question) gets the last pass alone.
        """
        redundant: list[ClueKey] = []
        needed = {key for clues in witnesses if len(clues) == 1 for key in clues}
        self._prefer(projection)
        # One question (:meth:`one_more_gone`) per clue, the assumptions sliced from one list:
        # the questions are short, and rebuilding the list per question was a visible share of
        # an audit (figures: encodings/queries.md, section "Assumptions sliced from one list").
        keys, lits = list(self.selectors), list(self.selectors.values())
        solver = self.session.solver
        budgets = AUDIT_PASSES if passes is None else passes
        if is_external(self.session.solver_name):  # a run a question: one pass
            budgets = [(None, None)]
        todo = [i for i, key in enumerate(keys) if key not in needed]
        for conflicts, rounds in budgets:
            left = []
            with conflict_budget(solver, conflicts):
                for i in todo:
                    last = self.one_more_gone(projection, keys[i])
                    status = self.session.solve([*lits[:i], *lits[i + 1:], last], need_model=False,
                                                rounds=rounds).status
                    if status == "unsat":
                        redundant.append(keys[i])
                    elif status == "unknown":
                        left.append(i)
            todo = left
            if not todo:
                break
        unknown = [keys[i] for i in todo]
        order = {key: i for i, key in enumerate(keys)}
        return sorted(redundant, key=order.__getitem__), unknown

    def minimal_clue_set(
        self, projection: Projection, order: Sequence[ClueKey] | None = None,
        accept: Callable[[list[ClueKey]], bool] | None = None,
        witnesses: Mapping[ClueKey, Sequence[AbstractSet[ClueKey]]] | None = None,
        settle: bool = False,
        broken: Callable[[Assignment, Sequence[ClueKey]], set[ClueKey]] | None = None,
    ) -> list[ClueKey] | None:
        """A clue subset that keeps the solution unique and from which no clue can go.

        Greedy deletion in ``order``: a clue is dropped when the rest still forces the solution
        (and ``accept(removed)`` still holds, if given: a further condition that, like
        uniqueness, can only fail more as clues go, e.g. "still solved by propagation").
        Removing clues only relaxes a puzzle, so a clue needed once stays needed and the result
        is minimal (for uniqueness and ``accept`` together). None if a limit was hit.

        ``witnesses``, if given, vouch for clues that must stay: ``witnesses[key]`` holds sets
        of clues (``key`` among them), each the clues some other solution breaks (typically one
        the genre finds by a small change of the known solution). Once all of a set but ``key``
        are gone, that solution solves the puzzle without ``key``, so ``key`` stays, without a
        SAT call. A set must never name a solution that does not exist.

        Runs of clues are tried at once (galloping): when the next ``k`` clues can all go
        together, one-at-a-time deletion would drop each of them too (every prefix of the run
        goes as well, by the same monotonicity), so the result is exactly the one-at-a-time
        result, in fewer SAT calls while most clues can go. A run stops before a clue that a
        witness vouches for; a run that fails is retried from its first clue alone; a run that
        succeeds doubles the next one.

        ``broken(assignment, keys)``, if given, names the clues among ``keys`` an assignment
        breaks. A run that fails comes with a solution that breaks some of the run's clues and no
        clue still on; it becomes a witness too (the retried run then often keeps one of those
        clues without a SAT call).

        ``settle=True`` is for a session that serves this one deletion and is then closed (the
        generators' own sessions): a decided clue is decided for good, so it becomes a unit
        clause (a kept clue's selector, a dropped clue's negated selector; a dropped literal
        clue just stops being assumed), the breaker of a clue asked about alone is switched off,
        and only the undecided clues are assumed. The answers are
        the same; the solver re-propagates fewer assumptions after each conflict (figures:
        encodings/queries.md, section "Settled clues"). The session must not serve other clue sets
        afterwards: its kept selectors are forced on.
        """
        keys = list(order) if order is not None else list(self.selectors)
        sel, literal = self.selectors, self.session.literal_clues
        removed: list[ClueKey] = []
        gone: set[ClueKey] = set()
        given = witnesses if witnesses is not None else {}
        found: dict[ClueKey, list[set[ClueKey]]] = {}  # from failed runs
        self._prefer(projection)

        def vouched(key: ClueKey, off: set[ClueKey]) -> bool:
            """Some witness of ``key`` breaks no clue outside ``off`` (which holds ``key``)."""
            return any(clues <= off for clues in given.get(key, ())) or \
                any(clues <= off for clues in found.get(key, ()))

        # with ``settle``: the unit clauses of clues decided since the last question, added in
        # one call before the next (a run of vouched clues makes one call, not one each)
        settled: list[list[int]] = []

        def keep(key: ClueKey) -> None:
            if settle:
                settled.append([sel[key]])

        if settle:
            ordered = set(keys)
            for key in sel:
                if key not in ordered:
                    keep(key)  # never tried, so never dropped
        lits = [sel[k] for k in keys]
        i, size = 0, 1
        while i < len(keys):
            run: list[ClueKey] = []
            off = set(gone)  # gone, the run so far and the clue asked about
            for key in keys[i:i + size]:
                off.add(key)
                if vouched(key, off):
                    break
                run.append(key)
            if not run:
                keep(keys[i])  # vouched for: this clue stays
                i += 1
                size = 1
                continue
            trial = [*removed, *run]
            on = lits[i + len(run):] if settle else self.assumptions(trial)
            if len(run) == 1:
                extra = self.one_more_gone(projection, run[0])
            else:  # several clues go at once: negations and breakers speak of one clue
                extra = self.blocker(projection)
            witness = broken is not None and len(run) > 1  # a lone clue that fails is kept anyway
            if settled:
                self.session.add(settled)
                settled.clear()
            outcome = self.session.solve([*on, extra], need_model=witness)
            status = outcome.status
            if status == "sat" and witness and outcome.assignment is not None:
                breaks = broken(outcome.assignment, run)
                for key in breaks:
                    found.setdefault(key, []).append(breaks)
            if status == "unknown":
                return None
            # a settled clue is asked about no more: its breaker goes for good (fewer free
            # variables for the solver to branch on; figures: encodings/queries.md, section
            # "Settled clues")
            if settle and len(run) == 1:
                settled += self.session.retire_breaker(sel[run[0]])
            if status == "unsat" and (accept is None or accept(trial)):
                removed, i, size = trial, i + len(run), 2 * size
                gone.update(run)
                if settle:
                    settled += ([-sel[k]] for k in run if sel[k] not in literal)
            elif len(run) == 1:
                keep(run[0])  # this clue stays
                i += 1
            else:
                size = 1
        if settled:
            self.session.add(settled)
        return [key for key in self.selectors if key not in gone]


def by_clue(witnesses: Iterable[AbstractSet[ClueKey]]) -> dict[ClueKey, list[AbstractSet[ClueKey]]]:
    """Witness sets (each the clues some other solution breaks) keyed by each clue they hold:
    the ``witnesses`` mapping of :meth:`PuzzleQueries.minimal_clue_set`."""
    out: dict[ClueKey, list[AbstractSet[ClueKey]]] = {}
    for clues in witnesses:
        for key in clues:
            out.setdefault(key, []).append(clues)
    return out


@contextmanager
def asking(session: Session, clues: dict[ClueKey, object],
           deadline: float | None = None) -> Iterator[PuzzleQueries]:
    """``with asking(session, clues, deadline) as queries:`` the queries of one clue set, every
    SAT call stopping at ``deadline`` (monotonic clock); afterwards the clue set's blocking
    clauses are retired and the deadline cleared, so the session serves the next puzzle.
    Building the clues may raise :class:`LimitReached`."""
    session.set_deadline(deadline)
    queries = None
    try:
        queries = PuzzleQueries(session, clues)
        yield queries
    finally:
        if queries is not None:
            queries.retire()
        session.set_deadline(None)
