"""The library API: one pipeline parse -> encode -> solve -> decode -> check -> report.

>>> from satgrid import api
>>> [puzzle] = api.load_text("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
>>> api.solve(puzzle, unique=True).status
'unique'

One incremental solver serves every puzzle that shares an encoding (all Sudokus of a size, all
Slitherlinks of a size), so batches pay for the base CNF once. Every solution passes the genre's
independent rule checker before it is returned; a failure raises :class:`CheckFailed`.
"""
from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Hashable, Iterable

from . import formats
from .errors import CheckFailed, ParseError, SatgridError
from .queries import PuzzleQueries
from .reader import Limits, read_text, split_records
from .registry import ALIASES, GENRES, Genre, genre as genre_named
from .session import Connectivity, Session, Stats
from .solver import DEFAULT_SOLVER


@dataclass(frozen=True)
class Options:
    """How to solve: solver name, limits (per puzzle), and the lowering of global rules."""

    solver: str = DEFAULT_SOLVER
    time_limit: float | None = None
    conflict_limit: int | None = None
    connectivity: Connectivity = "lazy"


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
    minimal_clues: list | None = None
    stats: Stats = field(default_factory=Stats)
    note: str = ""
    #: The propagation-ladder grade (satgrid.grading), set by audits of unique puzzles.
    grade: int | None = None

    @property
    def genre(self) -> Genre:
        return GENRES[self.puzzle.genre]

    @property
    def id(self) -> str:
        p = self.puzzle
        return p.name or str(p.source)

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
        if self.second_solution is not None:
            out["second_solution"] = g.solution_json(p, self.second_solution)
        if self.redundant_clues is not None:
            out["redundant_clues"] = [list(k) for k in self.redundant_clues]
            out["minimal"] = self.minimal
        if self.minimal_clues is not None:
            out["minimal_clues"] = [list(k) for k in self.minimal_clues]
        if self.grade is not None:
            out["grade"] = self.grade
        if self.note:
            out["note"] = self.note
        out["solver"] = self.solver
        s = self.stats
        out["stats"] = {"time_s": round(s.time_s, 6), "sat_calls": s.sat_calls,
                        "cegar_iterations": s.cegar_iterations, "cuts": s.cuts}
        return out


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
    found = formats.read(text, source, genre, genre_from)
    if found is not None:
        return [_within(p, limits) for p in found]
    records = split_records(source, text, GENRES, genre, ALIASES, genre_from, limits)
    puzzles = []
    for record in records:
        if meta:
            record.meta.update({k: v for k, v in meta.items() if v is not None})
        g = GENRES[record.genre or _guess_genre(record)]
        record.genre = g.name
        for sub in g.split(record):
            puzzles.append(_within(g.parse(sub), limits))
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


def _guess_genre(record) -> str:
    """Only the Sudoku line format is recognisable without a header (see satgrid.reader): every
    line one word of 16 or more symbols, and not a square grid (which could be another genre)."""
    words = [t.split() for _, t in record.lines if t.strip()]
    widths = {len(w[0]) for w in words if len(w) == 1}
    square = len(widths) == 1 and len(words) in widths
    if words and all(len(w) == 1 for w in words) and min(widths) >= 16 and not square:
        return "sudoku"
    raise record.error(
        "cannot tell the genre: add a first line 'genre: " + "|".join(GENRES) + "' or pass --genre"
    )


# -- sessions -----------------------------------------------------------------------------------
_SESSIONS: "OrderedDict[Hashable, tuple[Any, Session]]" = OrderedDict()
_MAX_SESSIONS = 8


def session_for(puzzle: Any, options: Options) -> tuple[Session, bool]:
    """A session for ``puzzle`` (shared with earlier puzzles of the same encoding) and whether
    the caller owns it (True: close it when done).

    Sessions on external solvers (``external:NAME``) are shared too: their clause list only grows
    by sound clauses (rule cuts, clue clauses behind selectors, blocking clauses switched off by
    ``retire``), which is what makes sharing an embedded solver correct; cuts found for one
    puzzle then save runs for the next."""
    g = GENRES[puzzle.genre]
    key = g.cache_key(puzzle)
    if key is None:
        return _new_session(g, puzzle, options), True
    full_key = (key, options.solver, options.connectivity, options.conflict_limit)
    if full_key in _SESSIONS:
        _SESSIONS.move_to_end(full_key)
        return _SESSIONS[full_key][1], False
    session = _new_session(g, puzzle, options)
    _SESSIONS[full_key] = (key, session)
    if len(_SESSIONS) > _MAX_SESSIONS:
        _, (_, old) = _SESSIONS.popitem(last=False)
        old.close()
    return session, False


def _new_session(g: Genre, puzzle: Any, options: Options) -> Session:
    return Session(g.encode(puzzle), options.solver, options.connectivity, options.conflict_limit)


# -- the pipeline -------------------------------------------------------------------------------
def solve(puzzle: Any, unique: bool = False, audit: bool = False, minimize: bool = False,
          options: Options = Options(), grade: bool | None = None) -> Result:
    """Solve ``puzzle``; with ``unique`` look for a second solution; with ``audit`` also find the
    redundant clues (implies ``unique``); with ``minimize`` also a minimal clue subset. An audit
    also grades the puzzle on the propagation ladder unless ``grade=False``."""
    started = time.perf_counter()
    unique = unique or audit or minimize
    g = GENRES[puzzle.genre]
    session, owned = session_for(puzzle, options)
    before = session.stats.copy()
    session.set_time_limit(options.time_limit)
    queries = PuzzleQueries(session, puzzle.clues())
    result = Result(puzzle, "unknown", options.solver)
    try:
        first = queries.solve()
        if first.status != "sat":
            result.status = "unsatisfiable" if first.status == "unsat" else "unknown"
            if result.status == "unknown":
                result.note = "limit reached before a solution was found"
            return result
        result.solution = _checked(g, puzzle, session, first.assignment)
        if not unique:
            result.status = "solved"
            return result
        projection = queries.project(first.assignment)
        second = queries.other_solution(projection)
        if second.status == "unknown":
            result.status = "unknown"
            result.note = "limit reached while looking for a second solution"
            return result
        if second.status == "sat":
            result.status = "multiple"
            result.second_solution = _checked(g, puzzle, session, second.assignment)
            return result
        result.status = "unique"
        if audit:
            redundant, undecided = queries.redundant_clues(projection)
            if undecided:
                result.note = f"limit reached: {len(undecided)} clues undecided"
            else:
                result.redundant_clues = sorted(redundant)
                result.minimal = not redundant
        if minimize and not result.note:
            kept = queries.minimal_clue_set(projection)
            if kept is None:
                result.note = "limit reached while minimising"
            else:
                result.minimal_clues = sorted(kept)
        if (audit if grade is None else grade) and result.redundant_clues is not None:
            _grade(result, options, started)
        return result
    finally:
        queries.retire()
        session.set_time_limit(None)
        result.stats = session.stats.since(before)
        result.stats.time_s = time.perf_counter() - started
        if owned:
            session.close()


#: Seconds an audit spends on the grade when no time limit is given (probing costs about a
#: millisecond per cell on 20x20 Slitherlinks; bigger grids may run out and report no grade).
GRADE_TIME_LIMIT = 5.0


def _grade(result: Result, options: Options, started: float) -> None:
    """The audit's grade (the propagation ladder of satgrid.grading), within what is left of the
    time limit; a grade cut short is reported in the note. Grades come from the embedded default
    solver whatever solver searched (a propagation fixpoint does not depend on the solver, and
    external solvers cannot propagate)."""
    from .grading import assess  # grading uses this module's sessions

    limit = GRADE_TIME_LIMIT
    if options.time_limit is not None:
        limit = max(0.0, options.time_limit - (time.perf_counter() - started))
    graded = assess(result.puzzle, DEFAULT_SOLVER, options.connectivity, limit)
    result.grade = graded.level
    if graded.level is None:
        result.note = (result.note + "; " if result.note else "") + f"no grade: {graded.note}"


def _checked(g: Genre, puzzle: Any, session: Session, assignment) -> Any:
    solution = g.decode(puzzle, session.encoding, assignment)
    problems = g.check(puzzle, solution)
    if problems:
        raise CheckFailed(
            f"internal error: the {g.name} solution found for {puzzle.name or puzzle.source} breaks "
            f"a rule ({problems[0]}); this is an encoding bug, no answer was printed"
        )
    return solution
