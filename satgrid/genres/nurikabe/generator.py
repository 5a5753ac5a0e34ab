"""Nurikabe generator: a random valid solution, one number per island, then numbers moved until
the puzzle is unique and relaxed to ``?`` until it is clue-minimal.

1. A solution: every cell starts black. While some 2x2 block is all black, an island of a random
   size in ``islands`` (a range, default 1-6) grows from a random cell of such a block, one random
   cell at a time, through cells that touch no other island and whose loss keeps the black wall
   4-connected. An island that cannot reach the smallest size is undone; after too many failures
   the grid starts again. So the result obeys every rule: islands of sizes in the range, separated
   by black cells, one connected black wall, no 2x2 black block.
2. Numbers: each island gets its size on a random cell of it. While the puzzle has a second
   solution, the number of an island beside a cell where the two solutions differ moves to
   another cell of its island (a limited number of moves, then a new grid).
3. Relaxing: in Nurikabe a number cannot vanish (its cell is the island's seed), so a clue is
   removed by turning it into ``?`` (encodings/nurikabe.md: the genre's clue switch). Sizes are
   relaxed in shuffled order; a relaxation that admits a second solution is undone (one SAT call
   by assumptions on the layout's session, cuts kept). Relaxing only adds solutions, so one pass
   leaves a clue-minimal puzzle (the audit's "minimal").
4. Flavours: "hard" accepts every unique relaxation; "normal" also keeps only those after which
   the puzzle's grade (:mod:`satgrid.grading`) is at most 1 (propagation and failed-literal
   probing solve it); grades only rise as sizes go, so one pass is the fixpoint here too.

The encoding depends on where the numbers are (``cache_key`` is the grid), so each layout (after
each move) gets one session of its own, used for all of that layout's queries.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Callable

from ... import api
from .checker import check_nurikabe
from ...errors import SatgridError
from . import NurikabePuzzle, encode
from ...grading import assess
from ...grid import Grid
from ...queries import PuzzleQueries
from ...session import Session

Cell = tuple[int, int]
ISLANDS = (1, 6)
FLAVOURS = ("normal", "hard")


class Layout:
    """A grid being filled with islands (``owner[p]`` = island index, or None for black)."""

    def __init__(self, rows: int, cols: int):
        self.rows, self.cols = rows, cols
        grid = Grid.of(rows, cols)
        #: The side neighbours of a cell (up, down, left, right).
        self.near: Callable[[Cell], tuple[Cell, ...]] = grid.adjacency.__getitem__
        self._blocks = grid.windows()
        self.owner: dict[Cell, int | None] = dict.fromkeys(grid.cells)
        self.islands: list[list[Cell]] = []
        self.black = rows * cols
        self.checks = 0  # calls of can_join: the work spent on this layout

    def can_join(self, p: Cell, island: int) -> bool:
        """Black ``p`` may turn white in ``island``: it touches no other island and the black
        cells stay connected without it."""
        self.checks += 1
        if self.owner[p] is not None or self.black <= 1:
            return False
        if any(self.owner[q] not in (None, island) for q in self.near(p)):
            return False
        return self._black_connected_without(p)

    def _black_connected_without(self, p: Cell) -> bool:
        black = [q for q in self.near(p) if self.owner[q] is None]
        if len(black) <= 1:
            return True  # p is an end of the wall (or its last cell but one)
        seen, stack = {p, black[0]}, [black[0]]
        while stack:
            for q in self.near(stack.pop()):
                if q not in seen and self.owner[q] is None:
                    seen.add(q)
                    stack.append(q)
        return len(seen) - 1 == self.black - 1

    def set(self, p: Cell, island: int | None) -> None:
        self.black += (island is None) - (self.owner[p] is None)
        self.owner[p] = island

    def black_blocks(self) -> list[tuple[Cell, ...]]:
        """The 2x2 blocks (cells row-major, :meth:`~satgrid.grid.Grid.windows`) that are all black."""
        o = self.owner
        return [block for block in self._blocks
                if o[block[0]] is None and o[block[1]] is None and o[block[2]] is None and o[block[3]] is None]

    def grow(self, start: Cell, size: int, smallest: int, rng: random.Random) -> bool:
        """An island of ``size`` cells (at least ``smallest``) from ``start``; False (and nothing
        changed) if it cannot reach ``smallest``."""
        index = len(self.islands)
        if not self.can_join(start, index):
            return False
        cells = [start]
        self.set(start, index)
        while len(cells) < size:
            frontier = sorted({q for p in cells for q in self.near(p) if self.owner[q] is None})
            rng.shuffle(frontier)
            nxt = next((q for q in frontier if self.can_join(q, index)), None)
            if nxt is None:
                break
            cells.append(nxt)
            self.set(nxt, index)
        if len(cells) < smallest:
            for p in cells:
                self.set(p, None)
            return False
        self.islands.append(cells)
        return True

    def extend(self, p: Cell, largest: int) -> bool:
        """Add ``p`` to the one island it touches, if that island has fewer than ``largest``
        cells and the rules allow it."""
        owners = {self.owner[q] for q in self.near(p)} - {None}
        if len(owners) != 1:
            return False
        (island,) = owners
        if len(self.islands[island]) >= largest or not self.can_join(p, island):
            return False
        self.set(p, island)
        self.islands[island].append(p)
        return True

    def solution(self) -> tuple[str, ...]:
        return tuple("".join("#" if self.owner[r, c] is None else "." for c in range(self.cols))
                     for r in range(self.rows))


#: Fresh grids :func:`random_solution` starts before it gives up, and the island-growth checks
#: (:meth:`Layout.can_join`, each a walk over the wall) it may spend per cell of the grid in all:
#: solvable requests spend a few dozen a cell, so a request that exhausts this is unlikely to
#: succeed at all.
RESTARTS = 1000
CHECKS_PER_CELL = 1000


def check_options(rows: int, cols: int, islands: tuple[int, int] = ISLANDS) -> None:
    """Refuse a request no attempt can serve: an island range that is empty or starts below 1,
    or a smallest island that leaves no cell for the black wall."""
    lo, hi = islands
    if not 1 <= lo <= hi:
        raise SatgridError(f"island sizes must be a range 1 <= min <= max, not {lo}-{hi}")
    if rows * cols < 2:
        raise SatgridError("a Nurikabe needs at least two cells")
    if lo > rows * cols - 1:
        raise SatgridError(f"an island of {lo} cells leaves no black cell in a {rows}x{cols} grid "
                           f"(rows x columns, {rows * cols} cells): the smallest island size is at "
                           f"most {rows * cols - 1}")


def random_solution(rows: int, cols: int, rng: random.Random, islands: tuple[int, int] = ISLANDS,
                    max_failures: int = 200) -> Layout:
    """A random valid Nurikabe solution with island sizes in ``islands`` (see the module doc); at
    most :data:`RESTARTS` grids, each given up after ``max_failures`` failed islands, and at most
    :data:`CHECKS_PER_CELL` growth checks a cell in all."""
    check_options(rows, cols, islands)
    lo, hi = islands
    budget, spent = CHECKS_PER_CELL * rows * cols, 0
    for _ in range(RESTARTS):
        layout, failures = Layout(rows, cols), 0
        while failures < max_failures and spent + layout.checks <= budget:
            blocks = layout.black_blocks()
            if not blocks:
                if layout.islands and layout.black >= 1:
                    return layout
                cells = [(rng.randrange(rows), rng.randrange(cols))]  # a grid too thin for blocks
            else:
                a, b, c, d = blocks[rng.randrange(len(blocks))]
                cells = [a, c, b, d]  # column-major: seeded generation shuffles this order
                rng.shuffle(cells)
            if not any(layout.grow(p, rng.randint(lo, hi), lo, rng) or layout.extend(p, hi)
                       for p in cells):
                failures += 1
        spent += layout.checks
        if spent > budget:
            break
    raise SatgridError(f"no {rows}x{cols} Nurikabe solution with islands of {lo}-{hi} cells found "
                       f"within {RESTARTS} grids and {budget:,} growth checks: try other --islands")


@dataclass
class Generated:
    """A generated puzzle with its solution and counters."""

    puzzle: NurikabePuzzle
    solution: tuple[str, ...]
    grids: int = 0
    moves: int = 0
    checks: int = 0
    times: dict[str, float] = field(default_factory=dict)


def _puzzle(layout: Layout, seeds: list[Cell], sizes: dict[Cell, int] | None = None) -> NurikabePuzzle:
    numbers = {p: len(cells) for p, cells in zip(seeds, layout.islands)}
    if sizes is not None:
        numbers = {p: sizes.get(p, "?") for p in numbers}
    return NurikabePuzzle(tuple(tuple(numbers.get((r, c)) for c in range(layout.cols))
                                for r in range(layout.rows)))


def make(rows: int, cols: int, rng: random.Random, *, flavour: str = "hard",
         islands: tuple[int, int] = ISLANDS, options: api.Options = api.Options(),
         max_moves: int | None = None, max_grids: int = 200) -> Generated:
    """A unique, relaxed ``rows`` x ``cols`` Nurikabe (see the module doc), with counters."""
    if flavour not in FLAVOURS:
        raise SatgridError(f"flavour must be one of {', '.join(FLAVOURS)}, not {flavour!r}")
    times = {"grid": 0.0, "unique": 0.0, "relax": 0.0}
    moves = 0
    for grid in range(1, max_grids + 1):
        start = time.perf_counter()
        layout = random_solution(rows, cols, rng, islands)
        solution = layout.solution()
        times["grid"] += time.perf_counter() - start
        seeds = [cells[rng.randrange(len(cells))] for cells in layout.islands]
        start = time.perf_counter()
        for _ in range(max_moves if max_moves is not None else 4 * len(seeds)):
            puzzle = _puzzle(layout, seeds)
            problems = check_nurikabe(rows, cols, puzzle.numbers(), solution)
            if problems:
                raise SatgridError(f"internal error: a generated Nurikabe solution breaks a rule: {problems[0]}")
            session = Session(encode(puzzle), options.solver, options.connectivity, options.conflict_limit)
            try:
                queries = PuzzleQueries(session, puzzle.clues())
                black = session.encoding.primary
                projection = tuple(v if solution[r][c] == "#" else -v for (_, r, c), v in black.items())
                other = queries.other_solution(projection)
                if other.status == "unknown":
                    raise SatgridError("a limit was reached while generating")
                if other.status == "unsat" and flavour == "normal" and \
                        assess(puzzle, solver=options.solver).level not in (0, 1):
                    break  # even every size does not make it a propagation puzzle: a new grid
                if other.status == "unsat":
                    times["unique"] += time.perf_counter() - start
                    start = time.perf_counter()
                    kept, checks = _relax(puzzle, queries, projection, rng, flavour, options)
                    times["relax"] += time.perf_counter() - start
                    final = _puzzle(layout, seeds, kept)
                    return Generated(final, solution, grid, moves, checks, times)
                assert other.assignment is not None
                differ = {(r, c) for (_, r, c), v in black.items()
                          if other.assignment(v) != (solution[r][c] == "#")}
            finally:
                session.close()
            moves += 1
            _move(layout, seeds, differ, rng)
        times["unique"] += time.perf_counter() - start
    raise SatgridError(f"no unique {rows}x{cols} Nurikabe after {max_grids} grids")


def _move(layout: Layout, seeds: list[Cell], differ: set[Cell], rng: random.Random) -> None:
    """Move the number of an island next to a cell where a second solution differs."""
    near = {q for p in differ for q in [p, *layout.near(p)]}
    candidates = [i for i, cells in enumerate(layout.islands) if len(cells) > 1 and near & set(cells)]
    if not candidates:
        candidates = [i for i, cells in enumerate(layout.islands) if len(cells) > 1]
    if not candidates:
        return
    i = candidates[rng.randrange(len(candidates))]
    others = [p for p in layout.islands[i] if p != seeds[i]]
    seeds[i] = others[rng.randrange(len(others))]


def _relax(puzzle: NurikabePuzzle, queries: PuzzleQueries, projection: tuple[int, ...],
           rng: random.Random, flavour: str, options: api.Options) -> tuple[dict[Cell, int], int]:
    """Turn sizes into ``?`` in shuffled order while the solution stays unique (and, for the
    normal flavour, the grade stays at most 1), by the core's greedy deletion
    (:meth:`~satgrid.queries.PuzzleQueries.minimal_clue_set`); the sizes kept and the SAT calls
    made."""
    clues = puzzle.clues()
    order = sorted(clues)
    rng.shuffle(order)

    def gradable(removed: list[Cell]) -> bool:
        gone = set(removed)
        rest = {k: v for k, v in clues.items() if k not in gone}
        return assess(puzzle.with_clues(rest), solver=options.solver).level in (0, 1)

    before = queries.session.stats.sat_calls
    kept = queries.minimal_clue_set(projection, order, gradable if flavour == "normal" else None,
                                    settle=True)
    if kept is None:
        raise SatgridError("a limit was reached while generating")
    return {k: clues[k] for k in kept}, queries.session.stats.sat_calls - before


def generate(rows: int, cols: int, rng: random.Random, *, flavour: str | None = "hard",
             islands: tuple[int, int] = ISLANDS, options: api.Options = api.Options()) -> NurikabePuzzle:
    """A unique ``rows`` x ``cols`` Nurikabe with island sizes in ``islands``: "hard" clue-minimal
    (no size can become ``?``), "normal" solvable by propagation and probing (grade <= 1)."""
    return make(rows, cols, rng, flavour=flavour or "hard", islands=islands, options=options).puzzle
