"""Repair suggestions: the fewest clues to add so that a puzzle with several solutions becomes
unique, or the fewest clues to remove so that an unsatisfiable puzzle becomes solvable.

**Adding clues.** The clues a repair may add are the genre's ``CANDIDATES`` for a solution S to
keep: every clue the genre allows that the puzzle lacks and S supports. A set H of them repairs
the puzzle iff S is the only solution with H added. Another solution T survives H unless H holds
a clue that T *breaks* (T's value there differs), so H is a repair iff it hits the set of clues
each other solution breaks: a minimum hitting set problem over sets far too many to list.
*Implicit hitting sets* list them lazily (Moreno-Centeno & Karp, "The implicit hitting set
approach to solve combinatorial optimization problems", Operations Research 61(2), 2013;
Davies & Bacchus, "Solving MAXSAT by solving a sequence of simpler SAT instances", CP 2011):

1. H = a minimum hitting set of the sets found so far (python-sat's
   :class:`~pysat.examples.hitman.Hitman` over the MaxSAT solver RC2: Ignatiev, Morgado &
   Marques-Silva, "PySAT: a Python toolkit for prototyping with SAT oracles", SAT 2018, and
   "RC2: an efficient MaxSAT solver", JSAT 11, 2019);
2. one SAT check on one incremental solver (the candidates behind selectors, switched on by
   assumptions; :meth:`~satgrid.queries.PuzzleQueries.other_solution`): is there a solution
   other than S with H on? None: H is a smallest repair (every repair hits every set, so none is
   smaller than the minimum hitting set). One, T: the clues T breaks form a new set, which H
   does not hit, and the loop goes on.

Between two hitting-set calls the check is repeated greedily (add the clue of the new set that
the most sets share, until the puzzle is unique; then drop each added clue that is not needed),
which gives a repair at once (an upper bound) and several sets per MaxSAT call; the loop ends
when the minimum hitting set is as large as the best repair. Past ``max_rounds`` hitting-set
calls, or at the time limit, the best repair so far is reported as "found greedily, not proved
smallest". Whether T breaks a candidate is read off T's own candidates (same value: kept) and
otherwise checked exactly: a given digit by its literal, any other clue by unit propagation
under T's primary literals and the puzzle's clues (the candidate's selector forced false), else
by one SAT call under those and the candidate's selector. This needs candidates that
bind each other not at all (a solution that fits each fits them together); the genres'
``CANDIDATES`` promise it.

Without a solution to keep, the solutions are enumerated (up to a limit) and each one's
smallest repair is searched, a hitting-set bound below the best so far cutting a solution
short; the smallest of them is smallest over all solutions only when every solution was
enumerated.

**Removing clues.** For an unsatisfiable puzzle a smallest set of clues whose removal makes it
solvable is a minimum *correction set*, a minimum hitting set of its unsatisfiable cores
(Reiter's hitting-set duality; Liffiton & Sakallah, "Algorithms for computing minimal
unsatisfiable subsets of constraints", JAR 40, 2008): the same loop, each failed check giving
the core over the clue selectors (:meth:`~satgrid.session.Session.core`, with the rule cuts
learnt so far). One minimal unsatisfiable core (MUS) is shrunk from the first core by deletion,
each UNSAT answer's core narrowing the rest (clause-set refinement: Belov & Marques-Silva,
"Accelerating MUS extraction with recursive model rotation", FMCAD 2011).

Every repair is re-checked on a fresh session built for the repaired puzzle alone: unique, with
the kept solution (or solvable, after removal); anything else is an internal error.
Measured in encodings/diagnostics.md, "Repair".
"""
from __future__ import annotations

import json
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterable

from pysat.examples.hitman import Hitman

from . import api, formats
from .errors import CheckFailed, LimitReached, ParseError, SatgridError, SolverError
from .puzzle import cell_name
from .queries import PuzzleQueries
from .reader import Limits, Record, read_text
from .registry import GENRES, Genre
from .session import Outcome, Session

#: Solutions tried without ``keep`` (each gets its own repair search).
MAX_SOLUTIONS = 20
#: Minimum-hitting-set calls per search before the best repair found greedily is reported.
MAX_ROUNDS = 200


@dataclass
class Repair:
    """What :func:`repair` found. ``status`` is the input's: "unique" (nothing to repair),
    "multiple" (``added`` clues make it unique with ``solution``), "unsatisfiable" (removing
    ``removed`` makes it solvable; ``core`` is one minimal unsatisfiable set of clues) or
    "unknown" (a limit stopped the first solve). ``found`` says whether a repair was found;
    ``proved`` whether it is proved smallest (for its solution); ``over_all`` whether it is
    smallest over all solutions (None with a kept solution)."""

    puzzle: Any
    status: str
    found: bool = False
    added: dict = field(default_factory=dict)
    removed: dict = field(default_factory=dict)
    core: dict = field(default_factory=dict)
    proved: bool = False
    over_all: bool | None = None
    repaired: Any = None
    solution: Any = None
    #: Solutions whose repair was searched, and whether they are all the puzzle's solutions.
    solutions: int = 0
    complete: bool = False
    rounds: int = 0
    note: str = ""
    time_s: float = 0.0
    #: Whether the repaired puzzle has one solution (after removing clues it may have several).
    unique: bool | None = None
    #: With a kept solution that no added clue can single out: another solution that fits every
    #: clue the kept one supports.
    rival: Any = None

    @property
    def genre(self) -> Genre:
        return GENRES[self.puzzle.genre]

    def words(self, clues: dict) -> list[str]:
        """Each of ``clues`` in words (:func:`clue_words`)."""
        words = self.genre.part("CLUE_WORDS")
        return [clue_words(k, v, words) for k, v in clues.items()]

    def lines(self) -> list[str]:
        """The clues to add or remove, in words: ``add 5 at r3c4``."""
        return ([f"add {w}" for w in self.words(self.added)]
                + [f"remove {w}" for w in self.words(self.removed)])

    def url(self) -> str | None:
        """The repaired puzzle as a puzz.link URL, where the genre has a codec."""
        if self.repaired is None or self.genre.part("PUZZLINK") is None:
            return None
        return formats.write(self.repaired, "url").strip()

    def to_json(self) -> dict[str, Any]:
        p = self.puzzle
        out: dict[str, Any] = {"id": p.name or str(p.source), "genre": p.genre, "rows": p.rows,
                               "cols": p.cols, "status": self.status, "found": self.found}
        if self.status == "multiple":
            out["added"] = [{"clue": list(k), "value": v, "text": t}
                            for (k, v), t in zip(self.added.items(), self.lines())]
            out.update(proved_smallest=self.proved, smallest_over_all_solutions=self.over_all,
                       solutions_tried=self.solutions, all_solutions_tried=self.complete)
        if self.status == "unsatisfiable":
            out["removed"] = [{"clue": list(k), "value": v, "text": t}
                              for (k, v), t in zip(self.removed.items(), self.lines())]
            out["proved_smallest"] = self.proved
            out["core"] = [{"clue": list(k), "value": v, "text": t}
                           for (k, v), t in zip(self.core.items(), self.words(self.core))]
        if self.rival is not None:
            out["rival"] = self.genre.solution_json(self.puzzle, self.rival)
        if self.repaired is not None:
            out["repaired"] = formats.text_of(self.repaired)
            out["repaired_unique"] = self.unique
            out["url"] = self.url()
            out["solution"] = self.genre.solution_json(self.repaired, self.solution)
        out.update(rounds=self.rounds, time_s=round(self.time_s, 6))
        if self.note:
            out["note"] = self.note
        return out


def clue_words(key: Hashable, value: object, words: Callable[[Any], str] | None = None) -> str:
    """A clue in words: ``5 at r3c4``, the value as the genre's ``CLUE_WORDS`` gives it (else
    as it prints, a value made of parts part after part)."""
    shown = words(value) if words is not None else \
        " ".join(map(str, value)) if isinstance(value, tuple) else str(value)
    if isinstance(key, tuple) and len(key) == 2 and all(isinstance(x, int) for x in key):
        return f"{shown} at {cell_name(*key)}"
    return f"{shown} at {key}"


class _Stopped(Exception):
    """A time limit stopped a check inside the hitting-set loop."""


@dataclass
class _Search:
    """One implicit-hitting-set search: the best set found, whether it is proved smallest (or,
    with a bound, proved no smaller than the bound: ``best`` None), the hitting-set calls made,
    and why it stopped early."""

    best: set | None = None
    proved: bool = False
    rounds: int = 0
    stopped: str = ""


def minimum_hitting_set(order: list, check: Callable[[set], frozenset | None], max_rounds: int,
                        bound: int | None = None) -> _Search:
    """The implicit hitting-set loop (module doc) over the elements ``order``: ``check(on)`` is
    None when ``on`` is a solution, else a set of elements disjoint from ``on`` of which every
    solution holds one (it raises :class:`_Stopped` at a limit). With ``bound``, the search
    gives up (``best`` None, ``proved`` True) once no set smaller than ``bound`` can work."""
    rank = {k: i for i, k in enumerate(order)}
    hitman = Hitman(htype="sorted")
    count: Counter = Counter()
    found = 0
    search = _Search()

    def learn(new: frozenset) -> None:
        nonlocal found
        if not new:
            raise CheckFailed("internal error: a check found a counterexample no element can rule out")
        hitman.hit(sorted(new, key=rank.__getitem__))
        count.update(new)
        found += 1

    try:
        while True:
            least = set(hitman.get()) if found else set()
            if search.best is not None and len(least) >= len(search.best):
                search.proved = True
                return search
            if bound is not None and len(least) >= bound:
                search.proved, search.best = True, None
                return search
            if search.rounds >= max_rounds and search.best is not None:
                search.stopped = f"{max_rounds} hitting-set rounds"
                return search
            search.rounds += 1
            on = set(least)
            while (new := check(on)) is not None:  # greedy: the element most sets share
                if new & on:
                    raise CheckFailed("internal error: a check's set meets the elements already on")
                learn(new)
                on.add(min(new, key=lambda k: (-count[k], rank[k])))
            for k in sorted(on - least, key=rank.__getitem__, reverse=True):
                if (new := check(on - {k})) is None:
                    on.discard(k)
                else:
                    learn(new)
            if search.best is None or len(on) < len(search.best):
                search.best = on
    except _Stopped as exc:
        search.stopped = str(exc)
        return search
    finally:
        hitman.delete()


def _status(outcome: Outcome) -> str:
    if outcome.status == "unknown":
        raise _Stopped("the time limit")
    return outcome.status


def _implied(session: Session, assumptions: list[int]) -> set[int]:
    """The literals unit propagation derives from ``assumptions`` (none from a solver without a
    propagation call, or on a conflict). With a solution's every primary literal assumed, a
    candidate whose clauses speak of primary variables alone has its selector forced false when
    the solution breaks it: one call answers for all of them (10x10 loop puzzles: ~8 SAT calls a
    solution saved)."""
    try:
        ok, lits = session.propagate(assumptions)
    except (SolverError, AttributeError):
        return set()
    return set(lits) if ok else set()


def _literal_reader(session: Session) -> Callable[[Any], list[int]]:
    """``assignment -> its values of every primary variable, as literals``: the model's head when
    the primary variables are the first ones, as the model builder numbers them."""
    primary = list(session.encoding.primary.values())
    n = len(primary)
    if primary == list(range(1, n + 1)):
        return lambda a: list(a.model[:n]) if len(a.model) >= n else [v if a(v) else -v for v in primary]
    return lambda a: [v if a(v) else -v for v in primary]


# -- adding clues -------------------------------------------------------------------------------
@dataclass
class _Kept:
    """The search for one solution's repair: the added clues (None: none found, or not smaller
    than the bound), proved, rounds, why it stopped, and a second solution that every candidate
    fits (then no added clue can keep this solution alone)."""

    added: dict | None
    proved: bool
    rounds: int = 0
    stopped: str = ""
    rival: Any = None


def _keeping(g: Genre, puzzle: Any, solution: Any, options: api.Options, deadline: float | None,
             bound: int | None, max_rounds: int, sessions: OrderedDict) -> _Kept:
    """The smallest set of candidates (the genre's ``CANDIDATES`` for ``solution``) that makes
    ``puzzle`` unique with ``solution``, searched on one session built for the puzzle with every
    candidate (each behind its selector, off unless a check switches it on)."""
    read = g.part("CANDIDATES")
    clues, candidates = puzzle.clues(), read(puzzle, solution)
    every = {**clues, **candidates}
    full = puzzle.with_clues(every)
    if full.clues() != every:
        raise CheckFailed(f"internal error: {g.name}'s with_clues does not keep the candidates")
    with api.puzzle_queries(full, options, deadline, every, sessions) as queries:
        session = queries.session
        first = queries.solve()
        if _status(first) != "sat":
            raise CheckFailed("internal error: the puzzle with every clue its solution supports "
                              "has no solution")
        found = g.decode(full, session.encoding, first.assignment)
        projection = queries.project(first.assignment)
        second = queries.other_solution(projection)
        if _status(second) == "sat":  # two solutions fit every candidate: no repair keeps one
            other = g.decode(full, session.encoding, second.assignment)
            rival = other if not g.differences(puzzle, found, solution) else found
            return _Kept(None, True, rival=rival)
        if g.differences(puzzle, found, solution):
            raise CheckFailed("internal error: the puzzle with every clue its solution supports "
                              "has another solution alone")
        sel, literal = queries.selectors, session.literal_clues
        literals = _literal_reader(session)
        every_literal = all(sel[k] in literal for k in candidates)

        def broken(assignment: Any) -> frozenset:
            """The candidates the solution ``assignment`` breaks (exactly; module doc)."""
            if every_literal:
                return frozenset(k for k in candidates if not assignment(sel[k]))
            theirs = read(puzzle, g.decode(full, session.encoding, assignment))
            differ = [k for k, v in candidates.items() if theirs.get(k) != v]
            out = {k for k in differ if sel[k] in literal and not assignment(sel[k])}
            rest = [k for k in differ if sel[k] not in literal]
            if rest:
                lits = [*literals(assignment), *(sel[k] for k in clues)]
                implied = _implied(session, lits)
                for key in rest:
                    if -sel[key] in implied or _status(
                            session.solve([*lits, sel[key]], need_model=False)) == "unsat":
                        out.add(key)
            return frozenset(out)

        def check(on: set) -> frozenset | None:
            outcome = queries.other_solution(projection, without=[k for k in candidates if k not in on])
            if _status(outcome) == "unsat":
                return None
            return broken(outcome.assignment)

        search = minimum_hitting_set(list(candidates), check, max_rounds, bound)
        added = None if search.best is None else {k: candidates[k] for k in candidates if k in search.best}
        return _Kept(added, search.proved, search.rounds, search.stopped)


def _solutions(g: Genre, puzzle: Any, queries: PuzzleQueries, first: Outcome,
               most: int) -> tuple[list[Any], bool]:
    """Up to ``most`` solutions of ``puzzle`` (the first one given), and whether they are all.
    They are searched, not reported: the one a repair keeps passes the rule checker in the
    re-check (:func:`_recheck`), as every reported solution does."""
    session = queries.session
    found = [g.decode(puzzle, session.encoding, first.assignment)]
    seen = [queries.project(first.assignment)]
    while len(found) < most:
        outcome = queries.other_solution(seen[0], extra=[queries.blocker(p) for p in seen[1:]])
        if outcome.status != "sat":
            return found, outcome.status == "unsat"
        found.append(g.decode(puzzle, session.encoding, outcome.assignment))
        seen.append(queries.project(outcome.assignment))
    return found, False


# -- removing clues -----------------------------------------------------------------------------
def _correction(g: Genre, puzzle: Any, queries: PuzzleQueries, max_rounds: int,
                result: Repair) -> None:
    """Fill ``result`` for an unsatisfiable puzzle: a minimum correction set and one MUS of its
    clues (module doc), on the puzzle's own session (its clues behind selectors)."""
    session, clues = queries.session, puzzle.clues()
    sel = queries.selectors
    keys = list(clues)
    by_lit = {sel[k]: k for k in keys}

    def core_of(on: Iterable) -> frozenset | None:
        """None if the clues ``on`` allow a solution, else the keys of an UNSAT core."""
        if _status(session.solve([sel[k] for k in on], need_model=False)) == "sat":
            return None
        return frozenset(by_lit[x] for x in session.core() if x in by_lit)

    if core_of([]) is not None:  # (then every core below names some clue)
        result.note = "no solution even with every clue removed: removing clues cannot help"
        return
    first = core_of(keys)
    if first is None:
        raise CheckFailed("internal error: an unsatisfiable puzzle is satisfiable with every clue on")
    search = minimum_hitting_set(keys, lambda off: core_of(k for k in keys if k not in off), max_rounds)
    result.rounds = search.rounds
    if search.best is None:
        result.note = f"stopped by {search.stopped} before a correction was found"
        return
    result.found, result.proved = True, search.proved
    result.removed = {k: clues[k] for k in keys if k in search.best}
    if search.stopped:
        result.note = f"found greedily, not proved smallest (stopped by {search.stopped})"
    try:
        mus = [k for k in keys if k in first]
        i = 0
        while i < len(mus):
            rest = mus[:i] + mus[i + 1:]
            core = core_of(rest)
            if core is None:
                i += 1
            else:
                mus = [k for k in rest if k in core]
        result.core = {k: clues[k] for k in mus}
    except _Stopped:
        result.note = (result.note + "; " if result.note else "") + "no minimal core: time limit"


# -- the re-check -------------------------------------------------------------------------------
def _recheck(g: Genre, repaired: Any, options: api.Options, keep: Any | None) -> tuple[Any, bool]:
    """Solve ``repaired`` on a fresh session of its own: its solution (through the rule checker)
    and whether it is the only one. With ``keep`` it must be the only one and equal to ``keep``,
    and without it there must be one; CheckFailed (an internal error) otherwise."""
    session = Session(g.encode(repaired), options.solver, options.connectivity)
    try:
        queries = PuzzleQueries(session, repaired.clues())
        first = queries.solve()
        if first.status != "sat":
            raise CheckFailed(f"internal error: the repaired {g.name} has no solution ({first.status})")
        solution = api.checked(g, repaired, session, first.assignment)
        second = queries.other_solution(queries.project(first.assignment), need_model=False)
        if keep is not None and (second.status != "unsat" or g.differences(repaired, solution, keep)):
            raise CheckFailed(f"internal error: the repaired {g.name} is not unique with the "
                              "solution it was repaired for")
        return solution, second.status == "unsat"
    finally:
        session.close()


# -- the report ---------------------------------------------------------------------------------
def report(found: Repair) -> str:
    """A repair in words: the verdict, the clues to add or remove, the repaired puzzle as text and
    as a puzz.link URL."""
    p, g = found.puzzle, found.genre
    head = f"puzzle {p.name or p.source} ({g.name} {p.rows}x{p.cols}, {len(p.clues())} clues)"
    n = len(found.added) + len(found.removed)
    clues = f"{n} {'clue' if n == 1 else 'clues'}"
    if found.status == "unique":
        return f"{head}: unique: needs no repair" + (f"\nnote: {found.note}" if found.note else "")
    if found.status == "unknown":
        return f"{head}: unknown: {found.note}"
    if not found.found:
        what = "several solutions" if found.status == "multiple" else "no solution"
        line = f"{head}: {what}; no repair: {found.note}"
        if found.rival is None:
            return line
        return f"{line}:\n{g.render(p, found.rival)}"
    if found.status == "multiple":
        how = "proved smallest" if found.proved else "found greedily, not proved smallest"
        if found.over_all is True and found.complete:
            how += f", smallest over all {found.solutions} solutions"
        elif found.over_all is True:
            how += ", smallest over all solutions: none has fewer than one clue"
        elif found.over_all is False:
            how += (f" for its solution; the smallest over {found.solutions} solutions tried, "
                    "not proved smallest over all")
        lines = [f"{head}: several solutions; add {clues} to make it unique ({how}):"]
    else:
        how = "proved smallest" if found.proved else "found greedily, not proved smallest"
        lines = [f"{head}: no solution; remove {clues} to make it solvable ({how}):"]
    lines += [f"  {line}" for line in found.lines()]
    if found.core:
        words = ", ".join(found.words(found.core))
        lines.append(f"a minimal set of clues that cannot hold together ({len(found.core)}): {words}")
    said = "; ".join(part for part in found.note.split("; ") if part and "greedily" not in part)
    if said:  # (a greedy repair says so above)
        lines.append(f"note: {said}")
    after = "unique" if found.unique else "several solutions: repair it again to make it unique"
    lines += [f"repaired puzzle ({after}):", formats.text_of(found.repaired).rstrip("\n")]
    url = found.url()
    if url:
        lines.append(f"url: {url}")
    return "\n".join(lines)


# -- reading a solution to keep -------------------------------------------------------------------
def read_solution(puzzle: Any, path: str, limits: Limits = Limits()) -> Any:
    """The solution of ``puzzle`` in the file ``path``: the genre's JSON form (``solution_json``,
    alone or as the ``solution`` of a ``satgrid solve --format json`` line), a block's
    ``solution:`` section, or the solution's text alone. ParseError when it does not read."""
    g = GENRES[puzzle.genre]
    source, text = read_text(path, limits)
    stripped = text.strip()
    if stripped[:1] in ("[", "{"):
        try:
            value = json.loads(stripped)
        except ValueError as exc:
            raise ParseError(source, None, f"not JSON: {exc}") from None
        if isinstance(value, dict) and "solution" in value:
            value = value["solution"]
        try:
            return g.solution_from_json(puzzle, value)
        except ValueError as exc:
            raise ParseError(source, None, f"not a {g.name} solution of the puzzle: {exc}") from None
    lines = list(enumerate(text.split("\n"), 1))
    starts = [i for i, (_, t) in enumerate(lines) if t.strip().lower() == "solution:"]
    if starts:
        lines = lines[starts[0] + 1:]
    ends = [i for i, (_, t) in enumerate(lines) if t.strip().lower() == "end"]
    lines = lines[:ends[0]] if ends else lines
    record = Record(source, lines[0][0] if lines else 1, "", g.name, solution_lines=lines, limits=limits)
    solution = g.parse_solution(record, puzzle)
    if solution is None:
        raise ParseError(source, None, f"no {g.name} solution found")
    return solution


# -- the entry point ----------------------------------------------------------------------------
def repair(puzzle: Any, keep: Any = None, options: api.Options = api.Options(),
           max_solutions: int = MAX_SOLUTIONS, max_rounds: int = MAX_ROUNDS) -> Repair:
    """The smallest repair of ``puzzle`` (module doc): for several solutions, the fewest clues to
    add so that it is unique with ``keep`` (a solution of it) or, without ``keep``, with any of
    the first ``max_solutions`` solutions; for none, the fewest clues to remove. A ``keep`` that
    is not a solution is a SatgridError. ``options.time_limit`` bounds the whole search."""
    started = time.monotonic()
    deadline = None if options.time_limit is None else started + options.time_limit
    g = GENRES[puzzle.genre]
    if keep is not None:
        problems = g.check(puzzle, keep)
        if problems:
            raise SatgridError(f"the solution to keep is not a solution of the puzzle: {problems[0]}")
    result = Repair(puzzle, "unknown")
    # Sessions of this repair's own, never the process's shared ones: which solutions come first
    # and which counterexamples the checks meet depend on a solver's history (its learnt clauses
    # and phases), so on a shared session the repair found depended on what ran before.
    sessions: OrderedDict = OrderedDict()
    try:
        return _repair(g, puzzle, keep, options, deadline, max_solutions, max_rounds, result,
                       sessions, started)
    finally:
        for _, session in sessions.values():
            session.close()


def _repair(g: Genre, puzzle: Any, keep: Any, options: api.Options, deadline: float | None,
            max_solutions: int, max_rounds: int, result: Repair, sessions: OrderedDict,
            started: float) -> Repair:
    """:func:`repair` on the sessions ``sessions``."""
    solutions: list[Any] = []
    said = ""  # the solver's note on a time limit kept between calls only, said once at the end
    try:
        with api.puzzle_queries(puzzle, options, deadline, cache=sessions) as queries:
            session = queries.session
            first = queries.solve()
            if first.status == "unknown":
                result.note = "limit reached before a solution was found"
            elif first.status == "unsat":
                result.status = "unsatisfiable"
                try:
                    _correction(g, puzzle, queries, max_rounds, result)
                except _Stopped:
                    result.note = "stopped by the time limit before a correction was found"
            else:
                projection = queries.project(first.assignment)
                second = queries.other_solution(projection, need_model=False)
                if second.status == "unknown":
                    result.note = "limit reached while looking for a second solution"
                elif second.status == "unsat":
                    result.status = "unique"
                    result.solution = api.checked(g, puzzle, session, first.assignment)
                    if keep is not None and g.differences(puzzle, result.solution, keep):
                        raise CheckFailed("internal error: a unique puzzle has a second solution that "
                                          "passes the rule checker")
                else:
                    result.status = "multiple"
                    if keep is not None:
                        solutions, result.complete = [keep], False
                    else:
                        solutions, result.complete = _solutions(g, puzzle, queries, first, max_solutions)
            said = api.with_limit_note("", session, deadline)  # every later session: the same solver
    except LimitReached as exc:  # the encoding or the clues' clauses were not built in time
        result.note = str(exc)
    if result.status == "multiple":
        _add_clues(g, puzzle, solutions, keep is not None, options, deadline, max_rounds, result,
                   sessions)
    if result.found:
        clues = {k: v for k, v in puzzle.clues().items() if k not in result.removed}
        result.repaired = puzzle.with_clues({**clues, **result.added})
        result.solution, result.unique = _recheck(g, result.repaired, options, result.solution)
    result.note = "; ".join(filter(None, (result.note, said)))
    result.time_s = time.monotonic() - started
    return result


def _add_clues(g: Genre, puzzle: Any, solutions: list[Any], kept: bool, options: api.Options,
               deadline: float | None, max_rounds: int, result: Repair, sessions: OrderedDict) -> None:
    """Fill ``result`` with the smallest repair over ``solutions`` (:func:`_keeping` each, the best
    size so far bounding the next)."""
    if g.part("CANDIDATES") is None:
        result.note = f"{g.name} has no clue to add (its puzzle is its layout)"
        return
    best: tuple[dict, Any] | None = None
    proved_all, stopped, rivals = True, "", 0
    for solution in solutions:
        try:
            attempt = _keeping(g, puzzle, solution, options, deadline,
                               None if best is None else len(best[0]), max_rounds, sessions)
        except (LimitReached, _Stopped):
            attempt = _Kept(None, False, stopped="the time limit")
        result.solutions += 1
        result.rounds += attempt.rounds
        if attempt.rival is not None:
            rivals += 1
            if kept:
                problems = g.check(puzzle, attempt.rival)
                if problems:
                    raise CheckFailed(f"internal error: a {g.name} solution found breaks a rule "
                                      f"({problems[0]}); this is an encoding bug")
                result.rival = attempt.rival
            continue
        proved_all = proved_all and attempt.proved
        stopped = stopped or attempt.stopped
        if attempt.added is not None and (best is None or len(attempt.added) < len(best[0])):
            best = (attempt.added, solution)
            result.proved = attempt.proved
        if attempt.stopped == "the time limit":
            break
    # A puzzle with several solutions needs at least one clue: one clue is smallest, over all.
    one = best is not None and len(best[0]) == 1
    result.over_all = None if kept else (one or proved_all and result.complete
                                         and result.solutions == len(solutions))
    result.proved = result.proved or one
    if best is None:
        if stopped:
            result.note = f"stopped by {stopped} before a repair was found"
        elif kept:
            result.note = ("no added clues can make the puzzle unique with this solution: another "
                           "solution fits every clue it supports (shown)")
        else:
            result.note = (f"no added clues can make the puzzle unique with any of the "
                           f"{result.solutions} solutions tried: each shares every clue it "
                           "supports with another solution")
        return
    result.found = True
    result.added, result.solution = best
    if stopped and not result.proved:
        result.note = f"found greedily, not proved smallest (stopped by {stopped})"
    elif stopped:
        result.note = f"stopped by {stopped} before every solution was searched"
