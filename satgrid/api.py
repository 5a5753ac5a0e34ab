"""The library API: one pipeline parse -> encode -> solve -> decode -> check -> report.

>>> from satgrid import api
>>> [puzzle] = api.load_text("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
>>> api.solve(puzzle, unique=True).status
'unique'

One incremental solver serves every puzzle that shares an encoding (for most genres: every
puzzle of a size, its clues behind selectors or assumptions), so batches pay for the base CNF
once. Every solution passes the genre's independent rule checker before it is returned; a
failure raises :class:`CheckFailed`.
"""
from __future__ import annotations

import contextlib
import functools
import time
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Collection, Hashable, Iterable, Iterator, Sequence

from . import formats
from .errors import CheckFailed, LimitReached, ParseError, SatgridError
from .external import is_external
from .puzzle import GivenSolution, part_name, printable
from .queries import PuzzleQueries, asking, by_clue
from .reader import Limits, read_text, split_records
from .registry import ALIASES, GENRES, Genre, genre as genre_named
from .session import Connectivity, Outcome, Session, Stats, check_connectivity, within
from .solver import DEFAULT_SOLVER, check_conflict_limit, check_time_limit, open_solver


@dataclass(frozen=True)
class Options:
    """How to solve: solver name, limits, the lowering of global rules, whether an external
    solver's UNSAT answers are taken on trust instead of re-solved (see satgrid.external), and
    whether a slow search stops to probe (:data:`PROBE_AFTER_S`).

    ``time_limit`` is wall-clock seconds for the whole of one puzzle, from the start of
    :func:`solve` (building the encoding included) to its report; ``conflict_limit`` is
    conflicts per SAT call. Bad limits (negative, nan, inf, out of range) are a SolverError."""

    solver: str = DEFAULT_SOLVER
    time_limit: float | None = None
    conflict_limit: int | None = None
    connectivity: Connectivity = "lazy"
    trust_external_unsat: bool = False
    probe: bool = True

    def __post_init__(self) -> None:
        check_time_limit(self.time_limit)
        check_conflict_limit(self.conflict_limit)
        check_connectivity(self.connectivity, self.solver)

    def check_solver(self) -> None:
        """SolverError now if the solver cannot be opened (unknown name, missing binary),
        rather than after the first puzzle's encoding is built."""
        open_solver(self.solver, self.conflict_limit, self.trust_external_unsat).close()


@dataclass
class Result:
    """The report for one puzzle; ``to_json`` gives the documented JSON contract."""

    puzzle: Any
    status: str
    solver: str
    solution: Any = None
    second_solution: Any = None
    redundant_clues: list | None = None
    minimal: bool | None = None
    #: An audit a limit stopped among its clues: (the clues proved redundant, the clues left
    #: undecided); ``redundant_clues`` and ``minimal`` stay None (the audit is not complete).
    partial_audit: tuple[list, list] | None = None
    minimal_clues: list | None = None
    stats: Stats = field(default_factory=Stats)
    note: str = ""
    #: The propagation-ladder grade (satgrid.grading), set by audits of unique puzzles.
    grade: int | None = None
    #: The input's own solution (a ``solution:`` section) against the one found: "matches",
    #: "differs", "invalid" (does not read or breaks a rule) or "unchecked" (no solution found
    #: to compare with); None without one. ``given_note`` says why, for the last three.
    given_solution: str | None = None
    given_note: str = ""
    #: Whether the solution is unique (True "unique", False "multiple"), None when a limit stopped
    #: the search for a second solution after a first was found (status "solved"); only
    #: reported (``to_json``'s "unique") when the query asked for uniqueness (``asked_unique``).
    unique: bool | None = None
    asked_unique: bool = False
    #: For a puzzle with several solutions, when asked (``solve(..., ambiguity=cap)``): the
    #: ambiguity report (:class:`satgrid.ambiguity.Ambiguity`: backbone, undecided parts, count).
    ambiguity: Any = None
    #: For a solve raced over several configurations (``solve(..., jobs=N)``): what ran and which
    #: one won (:class:`satgrid.portfolio.Race`).
    race: Any = None

    @property
    def genre(self) -> Genre:
        return GENRES[self.puzzle.genre]

    @property
    def id(self) -> str:
        p = self.puzzle
        return p.name or str(p.source)

    @property
    def label(self) -> str:
        """The id as text output shows it: unprintable characters as U+FFFD (JSON keeps the id)."""
        return printable(self.id)

    def unsat_line(self) -> str | None:
        """How this puzzle's UNSAT answers from an external solver were established, in words
        (None for an embedded solver, whose answers are the project's own)."""
        return unsat_line(self.solver, self.stats.unsat_checks)

    def to_json(self) -> dict[str, Any]:
        g, p = self.genre, self.puzzle
        out: dict[str, Any] = {
            "id": self.id,
            "genre": g.name,
            "rows": p.rows,
            "cols": p.cols,
            "status": self.status,
            "puzzle": g.puzzle_json(p),
            **g.puzzle_meta(p),
            "solution": None if self.solution is None else g.solution_json(p, self.solution),
        }
        if self.asked_unique:
            out["unique"] = self.unique
        if self.second_solution is not None:
            out["second_solution"] = g.solution_json(p, self.second_solution)
        if self.redundant_clues is not None:
            out["redundant_clues"] = [list(k) for k in self.redundant_clues]
            out["minimal"] = self.minimal
        if self.partial_audit is not None:
            out["audit_partial"] = {"redundant": [list(k) for k in self.partial_audit[0]],
                                    "undecided": [list(k) for k in self.partial_audit[1]]}
        if self.minimal_clues is not None:
            out["minimal_clues"] = [list(k) for k in self.minimal_clues]
        if self.grade is not None:
            out["grade"] = self.grade
        if self.ambiguity is not None:
            found = self.ambiguity.to_json()
            out["ambiguity"] = {k: v for k, v in found.items()
                                if k not in ("status", "solution", "second_solution", "stats")}
        if self.note:
            out["note"] = self.note
        if self.race is not None:
            out["race"] = self.race.to_json()
        if self.given_solution is not None:
            out["given_solution"] = self.given_solution
            if self.given_note:
                out["given_note"] = self.given_note
        out["solver"] = self.solver
        if is_external(self.solver):
            out["unsat_checks"] = dict(self.stats.unsat_checks)
        out["stats"] = self.stats.to_json()
        return out


def unsat_line(solver: str, checks: dict[str, int]) -> str | None:
    """``UNSAT answers of external:X: 3 verified by embedded re-solve (cadical153)`` (or
    ``none``); None when ``solver`` is embedded."""
    if not is_external(solver):
        return None
    said = ", ".join(f"{n} {how}" for how, n in sorted(checks.items())) or "none"
    return f"UNSAT answers of {solver}: {said}"


# -- loading ------------------------------------------------------------------------------------
def load_text(text: str, source: str = "<text>", genre: str | None = None,
              meta: dict[str, str] | None = None, genre_from: str = "--genre",
              limits: Limits = Limits()) -> list[Any]:
    """Every puzzle in ``text`` (see :mod:`satgrid.reader` for formats and genre detection; puzz.link
    URLs, pzprv3 files, Tatham game IDs and ipuz JSON are read by :mod:`satgrid.formats`).

    ``genre`` (a name or alias) is what ``genre_from`` asks for; a genre the text declares must
    agree with it. Every puzzle is within ``limits``: its cells, and the clauses its genre's
    ``estimate`` expects for ``limits.connectivity``."""
    if genre is not None:
        genre = genre_named(genre).name
    limits.check_lines(source, text)
    found = formats.read_with_solutions(text, source, genre, genre_from)
    if found is not None:
        return [_within(_given(GENRES[f.puzzle.genre], f.puzzle, f.solution, source), limits)
                for f in found]
    records = split_records(source, text, GENRES, genre, ALIASES, genre_from, limits)
    puzzles = []
    for record in records:
        if meta:
            record.meta.update({k: v for k, v in meta.items() if v is not None})
        g = GENRES[record.genre or _guess_genre(record)]
        record.genre = g.name
        for sub in g.split(record):
            puzzles.append(_within(_with_given_solution(g, sub, g.parse(sub)), limits))
    if not puzzles:
        raise SatgridError(f"{source}: no puzzle found")
    return puzzles


def _within(puzzle: Any, limits: Limits) -> Any:
    """``puzzle``, once its cells and estimated encoding are within ``limits``."""
    problem = limits.cells_error(puzzle.rows, puzzle.cols)
    if problem is None:
        problem = encoding_error(puzzle.genre, puzzle.rows, puzzle.cols, limits)
    if problem is not None:
        raise ParseError(puzzle.source.file, puzzle.source.line or None, problem)
    return puzzle


def encoding_error(genre: str, rows: int, cols: int, limits: Limits) -> str | None:
    """Why the encoding of a rows x cols puzzle of ``genre`` would be too big, else None."""
    variables, clauses = GENRES[genre].estimate(rows, cols, limits.connectivity)
    if clauses <= limits.clauses:
        return None
    return (f"the {limits.connectivity} encoding of a {rows}x{cols} {genre} (rows x columns) would "
            f"have about {clauses:,} clauses, {limits.over('clauses')}")


def load(paths: Iterable[str], genre: str | None = None, meta: dict[str, str] | None = None,
         limits: Limits = Limits()) -> list[Any]:
    """Every puzzle in the files ``paths`` (``-`` is standard input); a path that is no file but a
    puzz.link URL or a Tatham game ID is read as the puzzle itself. A file name ending that names
    a genre (``.sdk``) must agree with ``genre``."""
    if genre is not None:
        genre = genre_named(genre).name
    puzzles = []
    for path in paths:
        if formats.looks_inline(path) and not Path(path).exists():
            source, text = "<argument>", path
        else:
            source, text = read_text(path, limits)
        wanted, wanted_from = genre, "--genre"
        by_name = formats.genre_of_path(path)
        if by_name is not None:
            ending = path[path.rfind("."):]
            if genre is not None and genre != by_name:
                raise ParseError(path, None, f"--genre says {genre}, but the file name's {ending} "
                                             f"ending says {by_name}: they must agree")
            wanted, wanted_from = by_name, f"the file name's {ending} ending"
        puzzles += load_text(text, source, wanted, meta, wanted_from, limits)
    return puzzles


def _with_given_solution(g: Genre, record, puzzle: Any) -> Any:
    """``puzzle`` carrying the solution of the record's ``solution:`` section, if it has one:
    read and put through the rule checker now; a section that does not read or breaks a rule is
    kept as its error (reported as "invalid" beside the result, it does not stop the run)."""
    if not record.solution_lines:
        return puzzle
    where = f"{record.source}:{record.solution_lines[0][0]}"
    try:
        solution = g.parse_solution(record, puzzle)
    except ParseError as exc:
        return replace(puzzle, given_solution=GivenSolution(error=str(exc)))
    return _given(g, puzzle, solution, where)


def _given(g: Genre, puzzle: Any, solution: Any, where: str) -> Any:
    """``puzzle`` carrying ``solution`` (a solution the input holds, from ``where``; None for
    none) as its given solution, or the rule it breaks as its error."""
    if solution is None:
        return puzzle
    problems = g.check(puzzle, solution)
    if problems:
        return replace(puzzle, given_solution=GivenSolution(
            error=f"{where}: the given solution breaks a rule: {problems[0]}"))
    return replace(puzzle, given_solution=GivenSolution(solution))


def _guess_genre(record) -> str:
    """The genre of a text without a genre header: the one whose record's ``GUESS`` claims it
    (see satgrid.reader); none, or more than one, is an error asking for the header."""
    claims = [name for name, g in GENRES.items()
              if (guess := g.part("GUESS")) is not None and guess(record)]
    if len(claims) == 1:
        return claims[0]
    maybe = f" (it could be {' or '.join(claims)})" if claims else ""
    raise record.error(f"cannot tell the genre{maybe}: add a first line 'genre: "
                       + "|".join(GENRES) + "' or pass --genre")


# -- sessions -----------------------------------------------------------------------------------
_SESSIONS: "OrderedDict[Hashable, tuple[Any, Session]]" = OrderedDict()
_MAX_SESSIONS = 8
#: A solve of a grid of more cells than this, which switches no clue off (no audit, no minimising;
#: an ambiguity report keeps every clue on), runs on a session of its own whose clues are unit
#: clauses: as assumptions they hold only above level 0, where CaDiCaL cannot simplify the
#: formula with them, and the long first SAT calls of big grids cost up to 1.6x more a conflict
#: (figures: the encodings document of the first genre with islands, "Settled clues for big
#: solves").
SETTLED_CELLS = 400

#: A solve whose first query has not found a solution after this many seconds stops it, proves
#: what failed-literal probing with the rules' cuts proves from the clues (for at most
#: :data:`PROBE_FOR_S` seconds, :func:`satgrid.grading.probed_facts`), and searches on with
#: those facts given. Published puzzles are made to be solved by deductions: probing settles
#: a published 15x25 puzzle in 0.6 s that takes the search 80,000 conflicts and 10-13 s. But
#: on most big puzzles the search is quicker than probing, so only a slow search probes
#: (figures: encodings/grading.md, "Probing before a slow search").
PROBE_AFTER_S = 5.0
PROBE_FOR_S = 5.0
#: Grids of this many cells or fewer never probe before a search (their searches take
#: milliseconds; the same bound as a race's, :data:`satgrid.portfolio.RACE_CELLS`).
PROBE_CELLS = 100


def session_for(puzzle: Any, options: Options, deadline: float | None = None,
                clue_learning: bool = False, cache: "OrderedDict | None" = None,
                shared: bool = True) -> tuple[Session, bool]:
    """A session for ``puzzle`` (shared with earlier puzzles of the same encoding and the same
    ``clue_learning``, :attr:`Session.clue_learning`; with ``shared=False`` a new one) and whether
    the caller owns it (True: close it when done). Building a new one stops at ``deadline``
    (monotonic clock) with :class:`LimitReached`. ``cache``: a caller's own cache of sessions in
    place of the process's (the caller closes them): a query whose answer may depend on the
    solver's history (which of several solutions comes first) then depends on nothing run before
    it.

    Sessions on external solvers (``external:NAME``) are shared too: their clause list only grows
    by sound clauses (rule cuts, clue clauses behind selectors, blocking clauses switched off by
    ``retire``), which is what makes sharing an embedded solver correct; cuts found for one
    puzzle then save runs for the next."""
    g = GENRES[puzzle.genre]
    key = g.cache_key(puzzle) if shared else None
    if key is None:
        with within(deadline):
            return _new_session(g, puzzle, options, clue_learning), True
    full_key = (key, options.solver, options.connectivity, options.conflict_limit,
                options.trust_external_unsat, clue_learning)
    sessions = _SESSIONS if cache is None else cache
    if full_key in sessions:
        sessions.move_to_end(full_key)
        return sessions[full_key][1], False
    with within(deadline):
        session = _new_session(g, puzzle, options, clue_learning)
    sessions[full_key] = (key, session)
    if len(sessions) > _MAX_SESSIONS:
        _, (_, old) = sessions.popitem(last=False)
        old.close()
    return session, False


def _release(session: Session, cache: "OrderedDict | None" = None) -> None:
    """Once a puzzle is done with a shared session: drop it from the cache if it is worn
    (:meth:`Session.worn`), so that the next puzzle of its encoding gets a fresh one."""
    if not session.worn():
        return
    sessions = _SESSIONS if cache is None else cache
    for key, (_, cached) in list(sessions.items()):
        if cached is session:
            del sessions[key]
            session.close()


@contextlib.contextmanager
def puzzle_queries(puzzle: Any, options: Options, deadline: float | None = None,
                   clues: dict | None = None, cache: "OrderedDict | None" = None) -> Iterator[PuzzleQueries]:
    """``with puzzle_queries(puzzle, options, deadline) as queries:`` the queries of ``puzzle``'s
    clues (or of ``clues``) on its session (:func:`session_for`) through
    :func:`~satgrid.queries.asking`; afterwards a session the caller would own is closed, and a
    worn shared one leaves the cache (:func:`_release`); ``cache`` as for :func:`session_for`.
    Building the session or the clues after ``deadline`` raises :class:`LimitReached`."""
    session, owned = session_for(puzzle, options, deadline, cache=cache)
    try:
        with asking(session, puzzle.clues() if clues is None else clues, deadline) as queries:
            yield queries
    finally:
        if owned:
            session.close()
        else:
            _release(session, cache)


def _new_session(g: Genre, puzzle: Any, options: Options, clue_learning: bool = False) -> Session:
    return Session(g.encode(puzzle), options.solver, options.connectivity, options.conflict_limit,
                   trust_external_unsat=options.trust_external_unsat, clue_learning=clue_learning)


# -- the pipeline -------------------------------------------------------------------------------
def _compare_given(result: Result) -> None:
    """Set ``result.given_solution`` from the puzzle's own solution (see :class:`Result`). A given
    solution passed the rule checker when it was read, so one that differs from the solution found
    is a second solution; where the solver proved none (unsatisfiable) or no other (unique), that
    is a bug in the encoding or the solver: :class:`CheckFailed`."""
    given = result.puzzle.given_solution
    if given is None:
        return
    g, p = result.genre, result.puzzle
    if given.solution is None:
        result.given_solution, result.given_note = "invalid", given.error
    elif result.solution is not None:
        diff = g.differences(p, result.solution, given.solution)
        if not diff:
            result.given_solution = "matches"
            return
        if result.status == "unique":
            raise CheckFailed(f"internal error: {result.id}: proved unique, but the given solution "
                              "differs and passes the rule checker; this is an encoding or solver "
                              "bug, no answer was printed")
        result.given_solution = "differs"
        names = ", ".join(part_name(k, p.rows, p.cols) for k in diff[:6]) + (", ..." if len(diff) > 6 else "")
        why = "it is another solution: the puzzle is not unique"
        result.given_note = (f"the given solution differs from the one found in {len(diff)} "
                             f"{'place' if len(diff) == 1 else 'places'} ({names}); {why}")
    elif result.status == "unsatisfiable":
        raise CheckFailed(f"internal error: {result.id}: found unsatisfiable, but the given solution "
                          "passes the rule checker; this is an encoding or solver bug")
    else:
        result.given_solution = "unchecked"
        result.given_note = "no solution was found to compare the given solution with"


def _reports_given_solution(solve_puzzle: Callable[..., Result]) -> Callable[..., Result]:
    """Decorate :func:`solve`: each result compares the puzzle's given solution, if any."""
    @functools.wraps(solve_puzzle)
    def solve_and_compare(*args: Any, **kwargs: Any) -> Result:
        result = solve_puzzle(*args, **kwargs)
        _compare_given(result)
        return result
    return solve_and_compare


@_reports_given_solution
def solve(puzzle: Any, unique: bool = False, audit: bool = False, minimize: bool = False,
          options: Options = Options(), grade: bool | None = None,
          ambiguity: int | None = None, jobs: int = 1, fixed: Collection[str] = (),
          configs: Sequence[Options] | None = None) -> Result:
    """Solve ``puzzle``; with ``unique`` look for a second solution; with ``audit`` also find the
    redundant clues (implies ``unique``); with ``minimize`` also a minimal clue subset. An audit
    also grades the puzzle on the propagation ladder unless ``grade=False``. With ``ambiguity``
    (a solution count's cap) and ``unique``, a puzzle with several solutions also gets its
    ambiguity report (:mod:`satgrid.ambiguity`).

    ``options.time_limit`` runs from here: a new encoding that is not built by then gives status
    "unknown" with a note, and every SAT call after it stops at the same deadline.

    With ``jobs`` over 1, a solve (no audit, no minimising) of a grid of more than
    :data:`satgrid.portfolio.RACE_CELLS` cells races up to ``jobs`` configurations in worker
    processes, ``options`` first, varying its solver and connectivity but for the fields named in
    ``fixed`` (:func:`satgrid.portfolio.race`); the result's ``race`` says which one won.
    ``configs``, the configurations of :func:`satgrid.portfolio.configurations` made once for
    many puzzles, ``options`` first, stands for ``jobs`` and ``fixed``."""
    if (jobs > 1 or configs is not None) and not (audit or minimize):
        from .portfolio import configurations, race, worth_racing

        if configs is None:
            configs = configurations(options, jobs, fixed)
        if len(configs) > 1 and worth_racing(puzzle):
            return race(puzzle, list(configs), unique, ambiguity)
    started = time.perf_counter()
    deadline = None if options.time_limit is None else time.monotonic() + options.time_limit
    unique = unique or audit or minimize
    g = GENRES[puzzle.genre]
    try:
        queries, owned = solve_queries(puzzle, options, deadline, audit or minimize)
    except LimitReached as exc:
        return Result(puzzle, "unknown", options.solver, note=str(exc), asked_unique=unique,
                      stats=Stats(time_s=time.perf_counter() - started))
    session = queries.session
    before = session.stats.copy()
    result = Result(puzzle, "unknown", options.solver, asked_unique=unique)
    given: list[int] = []  # the guard of the probed facts, once there are some
    try:
        first, given, result.stats.probed = first_query(puzzle, queries, options, audit or minimize,
                                                        deadline)
        if first.status != "sat":
            result.status = "unsatisfiable" if first.status == "unsat" else "unknown"
            if result.status == "unknown":
                result.note = "limit reached before a solution was found"
            return result
        result.solution = checked(g, puzzle, session, first.assignment)
        if not unique:
            result.status = "solved"
            return result
        projection = queries.project(first.assignment)
        second = queries.other_solution(projection, extra=given)
        if second.status == "unknown":
            result.status = "solved"  # the solution stands; only its uniqueness is unknown
            result.note = "limit reached while looking for a second solution: uniqueness unknown"
            return result
        result.unique = second.status != "sat"
        if second.status == "sat":
            result.status = "multiple"
            result.second_solution = checked(g, puzzle, session, second.assignment)
            if ambiguity is not None:
                from .ambiguity import analyse

                result.ambiguity = analyse(queries, puzzle, first.assignment, ambiguity,
                                           second.assignment)
                if result.ambiguity.note:
                    result.note = result.ambiguity.note
            return result
        result.status = "unique"
        found = witnesses(g, puzzle, result.solution) if audit or minimize else []
        if audit:
            redundant, undecided = queries.redundant_clues(projection, found)
            if undecided:
                result.note = f"limit reached: {len(undecided)} clues undecided"
                result.partial_audit = (sorted(redundant), sorted(undecided))
            else:
                result.redundant_clues = sorted(redundant)
                result.minimal = not redundant
        if minimize and not result.note:
            kept = queries.minimal_clue_set(projection, witnesses=by_clue(found))
            if kept is None:
                result.note = "limit reached while minimising"
            else:
                result.minimal_clues = sorted(kept)
        if (audit if grade is None else grade) and result.redundant_clues is not None:
            _grade(result, options, deadline)
        return result
    finally:
        queries.retire()
        if given:
            session.add([[-lit] for lit in given])
        session.set_deadline(None)
        result.note = with_limit_note(result.note, session, deadline)
        probed, result.stats = result.stats.probed, session.stats.since(before)
        result.stats.probed = probed
        result.stats.time_s = time.perf_counter() - started
        if owned:
            session.close()
        else:
            _release(session)


def solve_queries(puzzle: Any, options: Options, deadline: float | None,
                  audit: bool) -> tuple[PuzzleQueries, bool]:
    """The queries of a solve of ``puzzle`` and whether the caller owns their session (True:
    close it when done), the session's deadline set to ``deadline``. Unless ``audit`` (queries
    that switch clues off), a grid of more than :data:`SETTLED_CELLS` cells gets a session of
    its own with every clue's selector a unit clause. Building stops at ``deadline`` (monotonic
    clock) with :class:`LimitReached`, the session closed if new."""
    settle = not audit and puzzle.rows * puzzle.cols > SETTLED_CELLS
    session, owned = session_for(puzzle, options, deadline, shared=not settle)
    session.set_deadline(deadline)
    try:
        queries = PuzzleQueries(session, puzzle.clues())
        if settle:  # every query has every clue on
            session.add([[lit] for lit in queries.selectors.values()])
    except LimitReached:  # the clues' clauses were not all built in time
        session.set_deadline(None)
        if owned:
            session.close()
        raise
    return queries, owned


def first_query(puzzle: Any, queries: PuzzleQueries, options: Options, audit: bool,
                deadline: float | None) -> tuple[Outcome, list[int], int]:
    """The first query of a solve, every clue on: (its outcome, the guard of the probed facts
    for the later queries to assume ([] if none), how many facts were probed). Past
    :data:`PROBE_AFTER_S` with no solution it probes (:func:`_probe_at`, :func:`_probe`) and asks
    again with the facts; the caller turns the guard off when done (a unit clause of its
    negation). ``deadline`` is the session's own (monotonic clock)."""
    session = queries.session
    given: list[int] = []
    probed = 0
    probe_at = _probe_at(puzzle, options, audit, deadline)
    if probe_at is not None:
        session.set_deadline(probe_at)
    try:
        first = queries.solve()
    finally:
        if probe_at is not None:
            session.set_deadline(deadline)
    if probe_at is not None and first.status == "unknown" \
            and (deadline is None or time.monotonic() < deadline):
        given, probed = _probe(puzzle, session, deadline)
        first = queries.solve(extra=given)
    return first, given, probed


def _probe_at(puzzle: Any, options: Options, audit: bool, deadline: float | None) -> float | None:
    """When this solve's first query stops to probe (:data:`PROBE_AFTER_S`), or None: never
    without ``options.probe``, for an audit or minimising (their queries switch clues off), an
    external solver (a stopped call is a lost run) or a conflict limit (a per-call budget), nor
    for a grid of :data:`PROBE_CELLS` cells or fewer, nor when the time limit comes first."""
    if not options.probe or audit or is_external(options.solver) \
            or options.conflict_limit is not None or puzzle.rows * puzzle.cols <= PROBE_CELLS:
        return None
    at = time.monotonic() + PROBE_AFTER_S
    return at if deadline is None or at < deadline else None


def _probe(puzzle: Any, session: Session, deadline: float | None) -> tuple[list[int], int]:
    """Probe ``puzzle`` (see :data:`PROBE_AFTER_S`) and put the facts into ``session`` behind a
    fresh literal: ([that literal], facts) for the queries to assume, ([], 0) if none."""
    from .grading import probed_facts

    until = time.monotonic() + PROBE_FOR_S
    try:
        facts = probed_facts(puzzle, until if deadline is None else min(until, deadline))
    except LimitReached:
        return [], 0
    if not facts:  # none, or the clues contradict the rules: the search will say so
        return [], 0
    guard, primary = session.encoding.pool.fresh("probed"), session.encoding.primary
    session.add([[primary[key] if value else -primary[key], -guard]
                 for key, value in facts.items()])
    return [guard], len(facts)


def with_limit_note(note: str, session: Session, deadline: float | None) -> str:
    """``note`` with the solver's note on a time limit it kept between SAT calls only
    (:attr:`satgrid.solver.EmbeddedSolver.limit_note`) added, when a ``deadline`` was set; every
    query under a time limit (solve, ambiguity, repair) reports it so."""
    said = getattr(session.solver, "limit_note", "") if deadline is not None else ""
    if not said or said in note:
        return note
    return "; ".join(filter(None, (note, said)))


#: Seconds an audit spends on the grade when no time limit is given (probing costs up to about a
#: millisecond per cell on 20x20 grids; bigger grids may run out and report no grade).
GRADE_TIME_LIMIT = 5.0


def _grade(result: Result, options: Options, deadline: float | None) -> None:
    """The audit's grade (the propagation ladder of satgrid.grading), within what is left of the
    time limit; a grade cut short is reported in the note. Grades come from the embedded default
    solver whatever solver searched (a propagation fixpoint does not depend on the solver, and
    external solvers cannot propagate)."""
    from .grading import assess  # grading uses this module's sessions

    limit = GRADE_TIME_LIMIT if deadline is None else deadline - time.monotonic()
    if limit > 0:
        # the grading solver is the default one, which takes no propagator: lazy in its place
        lowering = "eager" if options.connectivity == "eager" else "lazy"
        graded = assess(result.puzzle, DEFAULT_SOLVER, lowering, limit)
        result.grade, why = graded.level, graded.note
    else:  # not even the grading session is built after the deadline
        why = "time limit reached"
    if result.grade is None:
        result.note = (result.note + "; " if result.note else "") + f"no grade: {why}"


def witnesses(g: Genre, puzzle: Any, solution: Any) -> list:
    """The genre's witness sets for ``solution`` (its ``WITNESSES`` part: sets of clues, each
    exactly the clues some other solution breaks), none when it has no such part."""
    part = g.part("WITNESSES")
    return [] if part is None else part(puzzle, solution)


def checked(g: Genre, puzzle: Any, session: Session, assignment) -> Any:
    """The solution ``assignment`` decodes to, once the genre's independent rule checker passes
    it; :class:`CheckFailed` (an encoding bug: nothing is printed) otherwise."""
    return check_solution(g, puzzle, g.decode(puzzle, session.encoding, assignment))


def check_solution(g: Genre, puzzle: Any, solution: Any) -> Any:
    """``solution``, once the genre's independent rule checker passes it; :class:`CheckFailed`
    (an encoding bug: nothing is printed) otherwise."""
    problems = g.check(puzzle, solution)
    if problems:
        raise CheckFailed(
            f"internal error: the {g.name} solution found for {puzzle.name or puzzle.source} breaks "
            f"a rule ({problems[0]}); this is an encoding bug, no answer was printed"
        )
    return solution
