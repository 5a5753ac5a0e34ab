"""The generic generator: unique, clue-minimal puzzles for every genre whose clues can be read
off a solution.

1. **A random solution of the rules without clues.** The genre's ``BLANK(rows, cols)`` puzzle
   (no clue) is encoded and solved with random phases on its primary variables, so the solver
   starts its search from a random assignment and lands on a random solution near it (phase
   initialisation, as in the random restarts of CDCL solvers). A genre whose clue-less rules
   admit solutions that no clue set makes unique, or whose clues are not determined by the
   solution (numbers that a shading leaves open), gives a sampler of its own: ``SAMPLE(rows, cols, rng)``, a puzzle
   with every clue.
2. **Every clue read off.** ``READ_CLUES(blank, solution)``: the puzzle with every clue the
   solution supports (e.g. a circle wherever a loop obeys a circle's rule).
3. **Unique?** With every clue on, the solution must be the only one; if not, another random
   solution is drawn (at most :data:`ATTEMPTS`).
4. **Greedy deletion** in random order, the core's
   (:meth:`~satgrid.queries.PuzzleQueries.minimal_clue_set`): a clue goes while the rest still
   forces the solution. Removing clues only relaxes a puzzle, so the result is clue-minimal.
   Flavour "normal" also keeps a clue whose removal would leave a puzzle that propagation and
   probing do not solve (grading levels 0-1, :func:`~satgrid.grading.assess_clues`).

Every step draws from the one ``rng`` (phases, order), and every session is the generator's own,
so a seed reproduces its puzzle.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from .. import api
from ..errors import LimitReached, SatgridError
from ..grading import assess_clues
from ..queries import PuzzleQueries
from ..registry import Genre
from ..session import Session

#: Random solutions drawn before giving up on a size whose full clue sets are not unique.
ATTEMPTS = 50


@dataclass(frozen=True)
class GenericGenerator:
    """A generator module's interface (``generate``, ``check_options``) for a genre that has
    the record parts ``READ_CLUES`` and ``BLANK``, or ``SAMPLE``."""

    genre: Genre

    def check_options(self, rows: int, cols: int) -> None:
        """The generic generator has no options of its own."""

    def generate(self, rows: int, cols: int, rng: random.Random, *, flavour: str | None = "hard",
                 options: api.Options = api.Options()) -> Any:
        for _ in range(ATTEMPTS):
            full = self._sample(rows, cols, rng, options)
            made = self._reduce(full, rng, flavour or "hard", options)
            if made is not None:
                return made
        raise SatgridError(f"no unique {self.genre.name} of size {rows}x{cols} in {ATTEMPTS} random "
                           "solutions (its full clue sets are not unique)")

    def _sample(self, rows: int, cols: int, rng: random.Random, options: api.Options) -> Any:
        """A puzzle with every clue of a random solution (step 1 and 2)."""
        sample: Callable[..., Any] | None = self.genre.part("SAMPLE")
        if sample is not None:
            return sample(rows, cols, rng)
        blank = self.genre.part("BLANK")(rows, cols)
        solution = random_solution(self.genre, blank, rng, options)
        if solution is None:
            raise SatgridError(f"the rules of {self.genre.name} have no {rows}x{cols} solution")
        return self.genre.part("READ_CLUES")(blank, solution)

    def _reduce(self, puzzle: Any, rng: random.Random, flavour: str, options: api.Options) -> Any | None:
        """``puzzle`` with clues removed by greedy deletion in random order while it stays
        unique (step 3 and 4); None if it is not unique with every clue."""
        clues = puzzle.clues()
        encoding = self.genre.encode(puzzle)
        session = Session(encoding, options.solver, options.connectivity, options.conflict_limit)
        try:
            queries = PuzzleQueries(session, clues)
            found = queries.solve()
            if found.status != "sat":
                raise SatgridError(f"internal error: a sampled {self.genre.name} has no solution")
            projection = queries.project(found.assignment)
            if queries.other_solution(projection).status != "unsat":
                return None
            order = list(clues)
            rng.shuffle(order)
            accept = None
            if flavour == "normal":
                accept = lambda gone: _easy(self.genre, puzzle, clues, gone, options)  # noqa: E731
            kept = queries.minimal_clue_set(projection, order, accept=accept)
        finally:
            session.close()
        if kept is None:
            raise LimitReached("limit reached while removing clues")
        return puzzle.with_clues({key: clues[key] for key in kept})


def random_solution(genre: Genre, puzzle: Any, rng: random.Random,
                    options: api.Options = api.Options()) -> Any | None:
    """A random solution of ``puzzle`` (step 1; a sampler's too, e.g. on random rooms), or None
    when it has none: its encoding solved with random phases on the primary variables, on a
    session of its own."""
    encoding = genre.encode(puzzle)
    session = Session(encoding, options.solver, options.connectivity, options.conflict_limit)
    try:
        session.prefer([lit if rng.random() < 0.5 else -lit for lit in encoding.primary.values()])
        outcome = session.solve([])
        if outcome.status != "sat":
            return None
        return genre.decode(puzzle, encoding, outcome.assignment)
    finally:
        session.close()


def _easy(genre: Genre, puzzle: Any, clues: dict, gone: list, options: api.Options) -> bool:
    """Do propagation and probing solve the puzzle without the clues ``gone``?"""
    from ..grading import grading_session
    session, owned = grading_session(puzzle, options.solver, options.connectivity)
    try:
        removed = set(gone)
        return assess_clues(session, {k: v for k, v in clues.items() if k not in removed}).level in (0, 1)
    finally:
        if owned:
            session.close()


def for_genre(genre: Genre) -> GenericGenerator | None:
    """The generic generator of ``genre`` if its record has what it needs."""
    if genre.part("SAMPLE") is not None or (genre.part("READ_CLUES") is not None
                                            and genre.part("BLANK") is not None):
        return GenericGenerator(genre)
    return None
