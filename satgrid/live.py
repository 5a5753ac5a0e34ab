"""Live re-checks while a puzzle is edited: :class:`Editor`.

An editor holds a puzzle and re-checks it after each edit (a clue set or removed, or the whole
puzzle read again from its file) on the incremental session of an earlier check, so the rules'
cuts and the clauses the solver learnt stay, and nothing is built again:

* **sessions**: :func:`satgrid.api.session_for`'s shared ones, made to learn over the clue
  selectors (:attr:`~satgrid.session.Session.clue_learning`: each selector assumed on its own,
  assumption literals kept in learnt clauses), so what the solver learnt in one check serves the
  next wherever it rests only on clues both share. The genre's ``cache_key`` says
  which puzzles share an encoding (most genres: every puzzle of a size or of a room layout, the
  clues behind selectors), so an edit that keeps the key is answered by the session of the
  previous check. An edit that changes the key (a genre whose encoding depends on where the
  clues stand or on their values, as island sizes shape the islands' encoding) gets that key's
  session: a new one, or the one an earlier check left (putting a removed clue back). Such a
  genre may name in its record a ``REMOVED_CLUE`` value: a puzzle that is an earlier checked
  one with one clue removed is then asked on that puzzle's session, the removed key given that
  value (a clue that states the puzzle without it, every other clue on), and no encoding is
  built;
* **no rebuilding**: a clue's clauses are made once per (key, value) and kept behind its
  selector (:meth:`~satgrid.session.Session.selectors`), so a clue removed and put back, or set
  to a value it had before, costs nothing; a new value adds that one clue's clauses;
* **proofs kept**: clues only restrict, so once a clue set C has been proved to have the one
  solution S on a session, (1) a clue set that holds C (same keys, same values) and that S
  satisfies (the genre's checker says so) has S as its one solution, with no SAT call; (2) for a
  clue set C minus one clue k, any other solution must break k, so one SAT call asks for a
  solution that breaks k ("reduction to absurdity", the audits' question:
  :meth:`~satgrid.queries.PuzzleQueries.one_more_gone`): none means S is still the only
  solution, one is the second solution of the report (with several clues gone, the question
  blocks S instead). A clue that states no broken clauses is asked where it reads: a genre may
  name (``CLUE_READS``) the parts whose values in S decide the clue, so that every solution that
  agrees with S there obeys it; any other solution then differs from S there, and the question
  blocks S's values on those parts alone (a few cells round the clue, where blocking all of S
  lets the solver differ anywhere, each far-off difference a CEGAR round of the global rules);
* **phase hints**: otherwise the solver branches first towards the previous check's solution, so
  a re-check after a small edit mostly confirms a nearby solution;
* the report is :mod:`satgrid.ambiguity`'s: unique, multiple (with the backbone, the undecided
  parts and two solutions), unsatisfiable, or unknown (a limit).

The blocking clauses of a check are switched off afterwards (``PuzzleQueries.retire``), so the
next check starts from the same clauses plus what was learnt. Measured in
``encodings/diagnostics.md`` ("Live re-checks").
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Hashable

from . import api
from .ambiguity import Ambiguity, analyse, check as check_queries, parts_of
from .errors import LimitReached, SatgridError
from .queries import PuzzleQueries, asking
from .registry import GENRES
from .session import Session
from .solver import Assignment

#: The solution count's cap of a live check (2: enough to tell unique from multiple).
LIVE_CAP = 2
#: Proofs of uniqueness kept (the most recent).
MAX_PROOFS = 16
#: Puzzles kept as bases of a removed clue's re-check (the most recent).
MAX_BASES = 4


@dataclass
class LiveCheck:
    """One check: the report (:class:`~satgrid.ambiguity.Ambiguity`), whether its session was
    an earlier check's (``reused``: no encoding built, cuts and learnt clauses kept), how it was
    answered (``how``: "search", "kept proof" (1), "one clue gone" (2) of the module doc), and
    the seconds it took (wall clock, building a session included)."""

    report: Ambiguity
    reused: bool
    time_s: float
    how: str = "search"

    @property
    def status(self) -> str:
        return self.report.status

    def line(self) -> str:
        """One status line: the report's summary, the time and how it was answered."""
        how = ("same solver" if self.reused else "new solver") + \
            ("" if self.how == "search" else f", {self.how}")
        return f"{self.report.summary()} ({self.time_s * 1000:.1f} ms, {how})"


@dataclass(frozen=True)
class _Proof:
    """Clue set ``clues`` (of ``puzzle``) has ``solution`` (its assignment) as its only solution
    on ``session``."""

    session: Session
    clues: dict
    assignment: Assignment
    solution: Any
    puzzle: Any


class Editor:
    """A puzzle being edited and re-checked (the module doc says how sessions are reused).

    ``keep_proofs=False`` answers every check by search, ``clue_learning=False`` checks on
    plain sessions (the benchmark's comparisons)."""

    def __init__(self, puzzle: Any, options: api.Options | None = None, cap: int = LIVE_CAP,
                 keep_proofs: bool = True, clue_learning: bool = True):
        self.puzzle = puzzle
        self.options = options if options is not None else api.Options()
        self.cap = cap
        self.keep_proofs = keep_proofs
        self.clue_learning = clue_learning
        self._seen: list[Session] = []  # every session a check has used (to tell reuse)
        self._owned: list[tuple[Hashable, Session]] = []  # not in api's cache: closed by close()
        self._proofs: list[_Proof] = []
        self._phases: tuple[int, ...] = ()
        self._last: Session | None = None
        #: Puzzles checked on their own encoding's session, the latest first (see _relaxed).
        self._bases: list[Any] = []

    # -- edits ---------------------------------------------------------------------------------
    def set_clue(self, key: Hashable, value: object) -> None:
        """Set clue ``key`` to ``value`` (a place the puzzle holds clues at: ``with_clues``
        keeps it); SatgridError if the genre cannot put that clue there."""
        edited = self.puzzle.with_clues({**self.puzzle.clues(), key: value})
        if edited.clues().get(key) != value:
            raise SatgridError(f"cannot set the clue at {key!r} to {value!r} in this "
                               f"{self.puzzle.genre} puzzle: not a place for a clue")
        self.puzzle = edited

    def remove_clue(self, key: Hashable) -> None:
        """Switch clue ``key`` off (SatgridError if the puzzle has no clue there)."""
        clues = self.puzzle.clues()
        if key not in clues:
            raise SatgridError(f"the puzzle has no clue at {key!r}")
        del clues[key]
        self.puzzle = self.puzzle.with_clues(clues)

    def load(self, puzzle: Any) -> None:
        """Replace the puzzle (its file was read again)."""
        self.puzzle = puzzle

    # -- checks --------------------------------------------------------------------------------
    def check(self) -> LiveCheck:
        """Solve the current puzzle and report on it, reusing what the module doc lists."""
        started = time.perf_counter()
        deadline = None if self.options.time_limit is None else \
            time.monotonic() + self.options.time_limit
        puzzle = self.puzzle
        try:
            relaxed = self._relaxed(puzzle, deadline)
            if relaxed is None:
                session, clues = self._session(puzzle, deadline), puzzle.clues()
                self._bases = [puzzle, *(p for p in self._bases if p != puzzle)][:MAX_BASES]
            else:
                session, clues = relaxed
        except LimitReached as exc:
            return LiveCheck(Ambiguity(puzzle, "unknown", self.cap, complete=False, note=str(exc)),
                             False, time.perf_counter() - started)
        reused = any(session is s for s in self._seen)
        if not reused:
            self._seen.append(session)
        hint = self._phases if session is self._last else ()
        self._last = session
        how = "search"
        try:
            with asking(session, clues, deadline) as queries:
                before = session.stats.copy()
                kept = self._from_proofs(queries, puzzle) if self.keep_proofs else None
                if kept is not None:
                    how, report = kept
                    report.stats = session.stats.since(before)
                else:
                    report = check_queries(queries, puzzle, self.cap, hint)
        except LimitReached as exc:
            report = Ambiguity(puzzle, "unknown", self.cap, complete=False, note=str(exc))
        self._phases = report.projection
        if report.status == "unique" and report.assignment is not None:
            self._proofs = [_Proof(session, puzzle.clues(), report.assignment, report.solution, puzzle),
                            *self._proofs[:MAX_PROOFS - 1]]
        took = time.perf_counter() - started
        report.stats.time_s = took
        return LiveCheck(report, reused, took, how)

    def close(self) -> None:
        """Close the sessions this editor owns (api's shared ones stay for other users)."""
        for _, session in self._owned:
            session.close()
        self._owned.clear()
        self._seen.clear()
        self._proofs.clear()
        self._last = None
        self._bases.clear()

    def __enter__(self) -> "Editor":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals -----------------------------------------------------------------------------
    def _session(self, puzzle: Any, deadline: float | None) -> Session:
        key = GENRES[puzzle.genre].cache_key(puzzle)
        for held, session in self._owned:
            if key is not None and held == key:
                return session
        session, owned = api.session_for(puzzle, self.options, deadline, self.clue_learning)
        if owned:
            self._owned.append((key, session))
        return session

    def _relaxed(self, puzzle: Any, deadline: float | None) -> tuple[Session, dict] | None:
        """For a genre whose encoding depends on its clues (``REMOVED_CLUE`` in its record): when
        ``puzzle`` is an earlier checked puzzle with one clue removed, that puzzle's session and
        the clues that state ``puzzle`` on it (the removed key given the ``REMOVED_CLUE`` value);
        else None."""
        g = GENRES[puzzle.genre]
        removed = g.part("REMOVED_CLUE")
        if removed is None:
            return None
        clues, key = puzzle.clues(), g.cache_key(puzzle)
        for base in self._bases:
            if base.genre != puzzle.genre or g.cache_key(base) == key:
                continue
            held = base.clues()
            gone = [k for k in held if k not in clues]
            if len(gone) == 1 and _within(clues, held) and base.with_clues(clues) == puzzle:
                return self._session(base, deadline), {**clues, gone[0]: removed}
        return None

    def _from_proofs(self, queries: PuzzleQueries, puzzle: Any) -> tuple[str, Ambiguity] | None:
        """The report from a kept proof ((1) or (2) of the module doc), else None."""
        session, clues = queries.session, puzzle.clues()
        g = GENRES[puzzle.genre]
        for proof in self._proofs:
            if proof.session is not session:
                continue
            first = proof.assignment
            if _within(proof.clues, clues):
                solution = g.decode(puzzle, session.encoding, first)
                if g.check(puzzle, solution):
                    continue  # the new clues break the proved solution
                return "kept proof", analyse(queries, puzzle, first, self.cap, unique=True,
                                             solution=solution)
            if not _within(clues, proof.clues):
                continue
            gone = [k for k in proof.clues if k not in clues]
            projection = queries.project(first)
            question = _gone(queries, puzzle, proof, gone[0]) if len(gone) == 1 else \
                queries.blocker(projection)
            outcome = queries.solve(extra=[question])
            if outcome.status == "unknown":
                return None
            second = outcome.assignment if outcome.status == "sat" else None
            how = "one clue gone" if len(gone) == 1 else "clues gone"
            return how, analyse(queries, puzzle, first, self.cap, second=second,
                                unique=second is None)
        return None


def _gone(queries: PuzzleQueries, puzzle: Any, proof: _Proof, key: Hashable) -> int:
    """The literal that asks for the solutions of ``puzzle`` other than ``proof``'s, ``puzzle``
    being ``proof``'s clue set without the clue at ``key`` ((2) of the module doc): each of them
    breaks that clue. So: :meth:`~satgrid.queries.PuzzleQueries.breaking` (a literal clue's
    negation, a breaker), but for a clue with neither, where the genre names the parts it reads
    (``CLUE_READS``: a solution that agrees with ``proof``'s there obeys the clue, so every other
    solution differs there, and ``proof``'s does not), the blocker of ``proof``'s values there
    rather than of its whole projection, the search branching towards ``proof``'s solution."""
    session = queries.session
    lit = session.selector(key, proof.clues[key])
    reads = GENRES[puzzle.genre].part("CLUE_READS")
    if reads is not None and lit not in session.literal_clues and session.breaker(lit) is None:
        parts, held = parts_of(session.encoding), proof.assignment
        values = tuple(v if held(v) else -v for part in reads(proof.puzzle, proof.solution, key)
                       for v in parts.get(part, ()))
        if values:
            # the question asks for a difference there: elsewhere the search keeps to S
            session.prefer(queries.project(held))
            return queries.blocker(values)
    return queries.breaking(lit, queries.project(proof.assignment))


def _within(some: dict, other: dict) -> bool:
    """Every clue of ``some`` is a clue of ``other`` with the same value."""
    return all(k in other and other[k] == v for k, v in some.items())
