"""Sudoku generator: the dig-hole method of Xue, Jiang and Li, "Sudoku puzzles generating: from
easy to evil" (2009), on one shared incremental solver per size.

1. A full grid: a randomised depth-first fill in pure Python (the empty cell with the fewest
   candidates next, ties and values in random order, a restart with fresh draws after a node
   budget). Every valid grid has a positive chance; like the paper's Las Vegas start (11 random
   givens, then a solver's completion) it is not exactly uniform, but it is driven by the seed
   alone, so a seed always gives the same grid (a solver's completion would depend on what the
   shared solver learnt before) (figures: encodings/sudoku.md, section "Generation: measured").
2. Dig holes in the level's order (below). A cell is dug when the puzzle stays unique, which is
   asked by *reduction to absurdity*: after digging cell (r, c) with value v the puzzle is unique
   iff it has no solution with (r, c) != v, one SAT call with the remaining givens and -v as
   assumptions (no second solve, no model read). A cheaper sufficient test comes first: v is a
   naked or hidden single of the remaining givens (then every solution has v there). A cheaper
   proof of the opposite comes next: the full grid's witnesses (:mod:`.witnesses`: value pairs
   swapped on one component of their cells give another valid grid) name sets of cells; once
   every other cell of such a set is dug, the other grid solves the puzzle without (r, c), so
   (r, c) stays with no SAT call.
3. Pruning as in the paper: each cell is tried once; a cell that cannot go is never retried (with
   fewer givens it still could not: removing clues only relaxes a puzzle) and a dug cell is never
   refilled. So the hardest level, which has no bound, ends clue-minimal.
   ``make(..., prune=False)`` is the unpruned search the paper times against it (the paper's
   timings: encodings/sudoku.md, section "Generation: measured"): it sweeps the dig order
   again and again, asking every cell that is still a given, the ones that failed before
   included, and stops after a pass that digs nothing (or once the givens bound is reached).
   Its first pass is the pruned run itself.
   After it, a cell that failed still fails: the puzzle only lost clues since, every solution of
   the earlier puzzle without that cell is one of the later puzzle without it, so a second
   solution stays a second solution. A cell skipped at its line bound stays at it (counts only
   fall). So the second pass digs nothing and the result is the pruned one, at level 5 and at
   every other level; the unpruned search only pays one more SAT call (or witness test) per
   remaining given (counted in ``DigStats.tried``, ``sat_calls``, ``witnessed`` and ``passes``;
   the single test never answers for a cell that must stay). That is about one pass more, far from the paper's fifty-fold gap,
   which its text does not break down (``bench/bench_generate.py`` prints both).
4. Variety: a random equivalence transform of the result (relabel the values, permute bands,
   rows within each band, stacks, columns within each stack, transpose when boxes are square).
   Givens count, per-line counts, uniqueness and minimality are invariant under all of them.

Levels (bounds for 9x9; for an n x n grid the givens band scales by n*n/81 and the line bound by
n/9, rounded; the givens bound is drawn at random inside the band for each puzzle):

=====  ==============  ==============  ==================  ===================================
level  name            givens (9x9)    givens per row/col  dig order
=====  ==============  ==============  ==================  ===================================
1      extremely easy  50-59           >= 5                random
2      easy            36-49           >= 4                random
3      medium          32-35           >= 3                jumping one cell (every other cell
                                                           along a boustrophedon, then the rest)
4      difficult       28-31           >= 2                wandering along S (boustrophedon)
5      evil            no bound        no bound            left to right, top to bottom:
                                                           dug until clue-minimal (22-27 seen)
=====  ==============  ==============  ==================  ===================================

The paper gives the bands only as a figure; these are the common reading (>50, 36-49, 32-35,
28-31, 22-27) with the evil band replaced by "no bound", so that level 5 is clue-minimal.
``paper_level`` is the paper's own difficulty score of a puzzle.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable

from ... import api
from ...errors import SatgridError
from . import DEFAULT_BOX, SudokuPuzzle
from ...queries import PuzzleQueries, by_clue
from .witnesses import witnesses as swap_witnesses

Grid = list[list[int]]


@dataclass(frozen=True)
class Level:
    """One difficulty level: givens band and per-line bound for 9x9, and the dig order."""

    number: int
    name: str
    givens: tuple[int, int] | None
    line: int
    order: str


LEVELS = {
    1: Level(1, "extremely easy", (50, 59), 5, "random"),
    2: Level(2, "easy", (36, 49), 4, "random"),
    3: Level(3, "medium", (32, 35), 3, "jumping"),
    4: Level(4, "difficult", (28, 31), 2, "snake"),
    5: Level(5, "evil", None, 0, "rows"),
}
HARDEST = 5
#: ``--flavour`` for Sudoku: hard = the hardest level (clue-minimal), normal = medium.
FLAVOURS = {"hard": 5, "normal": 3}


def bounds(level: int, n: int) -> tuple[tuple[int, int] | None, int]:
    """The givens band and the per-row/column lower bound of ``level`` for an n x n grid."""
    spec = LEVELS[level]
    line = round(spec.line * n / 9)
    if spec.givens is None:
        return None, line
    scale = n * n / 81
    low, high = (round(g * scale) for g in spec.givens)
    low = max(low, line * n)  # the line bound alone keeps line * n givens (4x4 level 2: 8)
    return (low, max(low, high)), line


# -- dig orders ---------------------------------------------------------------------------------
def snake(n: int) -> list[tuple[int, int]]:
    """Wandering along S: row 0 left to right, row 1 right to left, ..."""
    return [(r, c if r % 2 == 0 else n - 1 - c) for r in range(n) for c in range(n)]


def dig_order(kind: str, n: int, rng: random.Random) -> list[tuple[int, int]]:
    if kind == "random":
        cells = [(r, c) for r in range(n) for c in range(n)]
        rng.shuffle(cells)
        return cells
    if kind == "jumping":  # every other cell of the S path, then the cells it jumped over
        path = snake(n)
        return path[::2] + path[1::2]
    if kind == "snake":
        return snake(n)
    if kind == "rows":
        return [(r, c) for r in range(n) for c in range(n)]
    raise ValueError(f"unknown dig order {kind!r}")


# -- full grids ---------------------------------------------------------------------------------
def random_grid(n: int, h: int, w: int, rng: random.Random, budget: int | None = None) -> Grid:
    """A random valid n x n grid (boxes h x w): a depth-first fill with constraint propagation
    (naked and hidden singles), the cell with fewest candidates next (random among ties), values
    in random order, restarted with fresh draws once ``budget`` values have been tried, at most
    :data:`RESTARTS` times."""
    budget = budget or 4 * n * n
    units = _units(n, h, w)
    for _ in range(RESTARTS):
        grid = _fill(n, units, rng, budget)
        if grid is not None:
            return grid
    raise SatgridError(f"no full {n}x{n} grid found in {RESTARTS} fills of {budget} tries each")


#: Fills :func:`random_grid` starts before it gives up.
RESTARTS = 1000


def _units(n: int, h: int, w: int) -> tuple[list[list[int]], list[list[list[int]]], list[list[int]]]:
    """Rows, columns and boxes as lists of flat cell indices; each cell's units and peers."""
    units = [[r * n + c for c in range(n)] for r in range(n)]
    units += [[r * n + c for r in range(n)] for c in range(n)]
    units += [[(top + i) * n + left + j for i in range(h) for j in range(w)]
              for top in range(0, n, h) for left in range(0, n, w)]
    of_cell: list[list[list[int]]] = [[] for _ in range(n * n)]
    for unit in units:
        for i in unit:
            of_cell[i].append(unit)
    peers = [sorted({j for unit in of_cell[i] for j in unit} - {i}) for i in range(n * n)]
    return units, of_cell, peers


def _eliminate(masks: list[int], todo: list[tuple[int, int]], of_cell, peers) -> bool:
    """Remove each (cell, value bit) of ``todo`` and what follows by naked and hidden singles;
    False on a contradiction."""
    while todo:
        i, bit = todo.pop()
        m = masks[i]
        if not m & bit:
            continue
        m &= ~bit
        if not m:
            return False
        masks[i] = m
        if not m & (m - 1):  # one value left: no peer can take it
            todo.extend((j, m) for j in peers[i] if masks[j] & m)
        for unit in of_cell[i]:  # where can ``bit`` go in this unit now?
            places = [j for j in unit if masks[j] & bit]
            if not places:
                return False
            if len(places) == 1:
                j = places[0]
                if masks[j] != bit:
                    rest = masks[j] & ~bit
                    todo.extend((j, 1 << k) for k in range(rest.bit_length()) if rest >> k & 1)
    return True


def _fill(n: int, units, rng: random.Random, budget: int) -> Grid | None:
    _, of_cell, peers = units
    cells = n * n
    stack = [[(1 << n) - 1] * cells]
    choices: list[tuple[int, list[int]]] = []
    tries = 0
    while True:
        masks = stack[-1]
        best, best_count, ties = -1, n + 1, 0
        for i in range(cells):
            count = masks[i].bit_count()
            if count == 1:
                continue
            if count < best_count:
                best, best_count, ties = i, count, 1
            elif count == best_count:
                ties += 1
                if rng.randrange(ties) == 0:
                    best = i
        if best < 0:  # every cell has one value
            return [[masks[r * n + c].bit_length() for c in range(n)] for r in range(n)]
        values = [1 << k for k in range(n) if masks[best] >> k & 1]
        rng.shuffle(values)
        choices.append((best, values))
        while True:  # the next value of the deepest choice that has one left
            if tries > budget or not choices:
                return None
            cell, values = choices[-1]
            if not values:
                choices.pop()
                stack.pop()
                continue
            bit = values.pop()
            tries += 1
            trial = list(stack[-1])  # the state the deepest choice was made in
            rest = trial[cell] & ~bit
            if _eliminate(trial, [(cell, 1 << k) for k in range(n) if rest >> k & 1], of_cell, peers):
                stack.append(trial)
                break


# -- equivalence transforms ---------------------------------------------------------------------
def random_transform(n: int, h: int, w: int, rng: random.Random) -> Callable[[Grid], Grid]:
    """A random symmetry of n x n Sudoku with h x w boxes, as a function on grids (0 = blank)."""
    relabel = list(range(1, n + 1))
    rng.shuffle(relabel)
    bands = list(range(n // h))
    rng.shuffle(bands)
    row_map = [b * h + i for b in bands for i in rng.sample(range(h), h)]
    stacks = list(range(n // w))
    rng.shuffle(stacks)
    col_map = [s * w + j for s in stacks for j in rng.sample(range(w), w)]
    transpose = h == w and rng.random() < 0.5

    def apply(grid: Grid) -> Grid:
        out = [[relabel[grid[row_map[r]][col_map[c]] - 1] if grid[row_map[r]][col_map[c]] else 0
                for c in range(n)] for r in range(n)]
        return [list(col) for col in zip(*out)] if transpose else out

    return apply


# -- digging ------------------------------------------------------------------------------------
@dataclass
class DigStats:
    """Where the uniqueness answers came from."""

    tried: int = 0  # uniqueness questions asked (a cell asked again in a later pass counts again)
    singles: int = 0  # dug because the value is a naked or hidden single of the other givens
    witnessed: int = 0  # kept because a witness (another grid) breaks no other given
    sat_calls: int = 0  # reduction-to-absurdity SAT calls
    skipped: int = 0  # not tried: a line at its bound (counted in every pass)
    passes: int = 0  # sweeps of the dig order (1 with pruning)
    grid_s: float = 0.0
    dig_s: float = 0.0


@dataclass
class Generated:
    """A generated puzzle with its solution and how it was made."""

    puzzle: SudokuPuzzle
    solution: Grid
    level: int
    givens_bound: int
    line_bound: int
    stats: DigStats = field(default_factory=DigStats)


class _Digger:
    """The givens of one puzzle being dug, with per-unit value masks for the single tests."""

    def __init__(self, grid: Grid, h: int, w: int, queries: PuzzleQueries):
        n = self.n = len(grid)
        self.grid, self.h, self.w = grid, h, w
        self.given = [[True] * n for _ in range(n)]
        self.box_of = [[(r // h) * (n // w) + c // w for c in range(n)] for r in range(n)]
        full = (1 << n) - 1
        self.rows, self.cols, self.boxes = [full] * n, [full] * n, [full] * n
        self.row_count, self.col_count = [n] * n, [n] * n
        self.count = n * n
        self.queries = queries
        self.lits = dict(queries.selectors)  # (r, c) -> the literal of its given
        self.stats = DigStats()
        self.singles = True
        #: (r, c) -> sets of cells (r, c) among them, each the cells another valid grid changes
        self.witnesses = by_clue(swap_witnesses(grid, grid, h, w))

    def box_cells(self, b: int) -> Iterable[tuple[int, int]]:
        top, left = (b // (self.n // self.w)) * self.h, (b % (self.n // self.w)) * self.w
        return ((top + i, left + j) for i in range(self.h) for j in range(self.w))

    def forced(self, r: int, c: int) -> bool:
        """Is the value at (r, c) a naked or hidden single of the other givens? (Sound: then every
        solution of the puzzle without (r, c) has that value there.)"""
        v, n = self.grid[r][c], self.n
        bit, full, b = 1 << (v - 1), (1 << n) - 1, self.box_of[r][c]
        rows, cols, boxes, box_of, given = self.rows, self.cols, self.boxes, self.box_of, self.given
        # the masks as they are once (r, c) is dug: v is in no unit of (r, c) any more
        row_r, col_c, box_b = rows[r] & ~bit, cols[c] & ~bit, boxes[b] & ~bit
        if row_r | col_c | box_b == full & ~bit:
            return True  # naked single: every other value is in a peer
        # hidden single: v fits nowhere else in one unit of (r, c)
        if all(given[r][cc] or (cols[cc] | boxes[box_of[r][cc]]) & bit
               for cc in range(n) if cc != c and box_of[r][cc] != b):
            # the cells of row r inside box b: v is in none of their units but their column
            if all(given[r][cc] or cols[cc] & bit for cc in range(n) if cc != c and box_of[r][cc] == b):
                return True
        if all(given[rr][c] or (rows[rr] | boxes[box_of[rr][c]]) & bit
               for rr in range(n) if rr != r and box_of[rr][c] != b):
            if all(given[rr][c] or rows[rr] & bit for rr in range(n) if rr != r and box_of[rr][c] == b):
                return True
        return all(given[rr][cc] or (rows[rr] if rr != r else 0) & bit or (cols[cc] if cc != c else 0) & bit
                   for rr, cc in self.box_cells(b) if (rr, cc) != (r, c))

    def unique_without(self, r: int, c: int) -> bool:
        """Is the puzzle still unique once (r, c) is dug? (Reduction to absurdity.)"""
        if self.singles and self.forced(r, c):
            self.stats.singles += 1
            return True
        given = self.given
        for part in self.witnesses.get((r, c), ()):
            if not any(given[rr][cc] for rr, cc in part if (rr, cc) != (r, c)):
                self.stats.witnessed += 1
                return False
        self.stats.sat_calls += 1
        lit = self.lits[r, c]
        assumptions = [self.lits[rr, cc] for rr in range(self.n) for cc in range(self.n)
                       if self.given[rr][cc] and (rr, cc) != (r, c)]
        outcome = self.queries.session.solve([*assumptions, -lit], need_model=False)
        if outcome.status == "unknown":
            raise SatgridError("limit reached while generating a Sudoku")
        return outcome.status == "unsat"

    def dig(self, r: int, c: int) -> None:
        bit = 1 << (self.grid[r][c] - 1)
        self.given[r][c] = False
        self.rows[r] &= ~bit
        self.cols[c] &= ~bit
        self.boxes[self.box_of[r][c]] &= ~bit
        self.row_count[r] -= 1
        self.col_count[c] -= 1
        self.count -= 1

    def sweep(self, order: list[tuple[int, int]], min_givens: int, min_line: int) -> int:
        """One pass over ``order``: dig each given cell that can go; the number dug."""
        self.stats.passes += 1
        dug = 0
        for r, c in order:
            if self.count <= min_givens:
                break
            if not self.given[r][c]:
                continue
            if self.row_count[r] <= min_line or self.col_count[c] <= min_line:
                self.stats.skipped += 1
                continue
            self.stats.tried += 1
            if self.unique_without(r, c):
                self.dig(r, c)
                dug += 1
        return dug

    def run(self, order: list[tuple[int, int]], min_givens: int, min_line: int,
            prune: bool = True) -> None:
        """Dig along ``order``: one pass with pruning, else passes until one digs nothing."""
        while True:
            dug = self.sweep(order, min_givens, min_line)
            if prune or not dug or self.count <= min_givens:
                return


def resolve_level(level: int | None, flavour: str | None) -> int:
    """The level asked for: ``level`` itself, else the one ``flavour`` stands for."""
    if level is None:
        if flavour not in FLAVOURS:
            raise SatgridError(f"Sudoku flavour must be one of {', '.join(FLAVOURS)}, not {flavour!r}")
        return FLAVOURS[flavour]
    if level not in LEVELS:
        raise SatgridError(f"Sudoku level must be 1..{HARDEST}, not {level}")
    return level


def _box(rows: int, cols: int, box: tuple[int, int] | None) -> tuple[int, int]:
    if rows != cols:
        raise SatgridError(f"a Sudoku is square; {rows}x{cols} (rows x columns) is not")
    if box is None:
        if rows not in DEFAULT_BOX:
            raise SatgridError(f"no standard box shape for a {rows}x{rows} Sudoku; sizes: "
                               + ", ".join(f"{n}x{n}" for n in DEFAULT_BOX))
        return DEFAULT_BOX[rows]
    if box[0] * box[1] != rows:
        raise SatgridError(f"box {box[0]}x{box[1]} does not fit a {rows}x{rows} grid")
    return box


def make(rows: int, cols: int, rng: random.Random, *, level: int | None = None,
         flavour: str | None = "hard", box: tuple[int, int] | None = None,
         options: api.Options = api.Options(), transform: bool = True,
         singles: bool = True, prune: bool = True) -> Generated:
    """A unique Sudoku of ``level`` (1..5, or from ``flavour``), with its solution and counters.
    ``singles=False`` asks the SAT solver about every cell (no single test, no witness), ``prune=False`` asks every remaining
    given again in further passes until one digs nothing (the paper's unpruned search; the same
    puzzle, more SAT calls); both for benchmarks."""
    level = resolve_level(level, flavour)
    h, w = _box(rows, cols, box)
    n = rows
    stats = DigStats()
    start = time.perf_counter()
    grid = random_grid(n, h, w, rng)
    stats.grid_s = time.perf_counter() - start
    band, line = bounds(level, n)
    givens_bound = 0 if band is None else rng.randint(*band)
    order = dig_order(LEVELS[level].order, n, rng)

    start = time.perf_counter()
    full = SudokuPuzzle(tuple(map(tuple, grid)), h, w)
    session, owned = api.session_for(full, options)
    session.set_time_limit(options.time_limit)
    try:
        digger = _Digger(grid, h, w, PuzzleQueries(session, full.clues()))
        digger.stats, digger.singles = stats, singles
        if not singles:
            digger.witnesses = {}
        digger.run(order, givens_bound, line, prune)
    finally:
        session.set_time_limit(None)
        if owned:
            session.close()
    stats.dig_s = time.perf_counter() - start

    givens = [[grid[r][c] if digger.given[r][c] else 0 for c in range(n)] for r in range(n)]
    solution = grid
    if transform:
        apply = random_transform(n, h, w, rng)
        givens, solution = apply(givens), apply(grid)
    puzzle = SudokuPuzzle(tuple(tuple(d or None for d in row) for row in givens), h, w)
    return Generated(puzzle, solution, level, givens_bound, line, stats)


def generate(rows: int, cols: int, rng: random.Random, *, level: int | None = None,
             flavour: str | None = "hard", box: tuple[int, int] | None = None,
             options: api.Options = api.Options(), transform: bool = True) -> SudokuPuzzle:
    """A unique ``rows`` x ``cols`` Sudoku of ``level`` (1..5; without one ``flavour`` hard = 5,
    normal = 3). Level 5 is clue-minimal."""
    return make(rows, cols, rng, level=level, flavour=flavour, box=box, options=options,
                transform=transform).puzzle


def check_options(rows: int, cols: int) -> None:
    """Refuse a size no attempt can serve: not square, or without a standard box shape."""
    _box(rows, cols, None)


def promises_minimal(level: int | None, flavour: str | None, **_: object) -> bool:
    """Only the hardest level digs without bounds, so only it is clue-minimal by construction."""
    return resolve_level(level, flavour) == HARDEST


# -- the paper's difficulty score ---------------------------------------------------------------
#: Thresholds of each factor's level 1..4 (9x9; the rest is level 5): givens at least, smallest
#: row/column count at least, exhaustive-search count below.
PAPER_GIVENS = (50, 36, 32, 28)
PAPER_LINE = (5, 4, 3, 2)
PAPER_SEARCH = (100, 1_000, 10_000, 100_000)
PAPER_WEIGHTS = (0.4, 0.3, 0.3)


def search_count(givens: Iterable[Iterable[int | None]], h: int, w: int,
                 limit: int = PAPER_SEARCH[-1]) -> int:
    """Nodes of a plain exhaustive search (the paper's enumeration): cells left to right, top to
    bottom, values in increasing order, one node per value placed, until the first solution
    (stops counting at ``limit``)."""
    grid = [list(row) for row in givens]
    n = len(grid)
    rows, cols, boxes = [0] * n, [0] * n, [0] * n
    box_of = [(r // h) * (n // w) + c // w for r in range(n) for c in range(n)]
    blanks = []
    for r in range(n):
        for c in range(n):
            d = grid[r][c]
            if d:
                bit = 1 << (d - 1)
                rows[r] |= bit; cols[c] |= bit; boxes[box_of[r * n + c]] |= bit  # noqa: E702
            else:
                blanks.append((r, c, box_of[r * n + c]))
    full = (1 << n) - 1
    nodes, depth = 0, 0
    tried = [0] * (len(blanks) + 1)  # at each depth: the value bit placed there (0 = none yet)
    while 0 <= depth < len(blanks):
        r, c, b = blanks[depth]
        current = tried[depth]
        if current:  # take back the value placed here before trying the next one
            rows[r] &= ~current; cols[c] &= ~current; boxes[b] &= ~current  # noqa: E702
        free = full & ~(rows[r] | cols[c] | boxes[b]) & ~((current << 1) - 1 if current else 0)
        if not free:
            tried[depth] = 0
            depth -= 1
            continue
        bit = free & -free
        tried[depth] = bit
        rows[r] |= bit; cols[c] |= bit; boxes[b] |= bit  # noqa: E702
        nodes += 1
        if nodes >= limit:
            return nodes
        depth += 1
    return nodes


def paper_level(puzzle: SudokuPuzzle, search_limit: int = PAPER_SEARCH[-1]) -> int:
    """Xue, Jiang and Li's score: 0.4 x level of the givens count + 0.3 x level of the smallest
    row/column givens count + 0.3 x level of the exhaustive-search count, each factor's level
    1..5 from the paper's bands (counts scaled by n*n/81 and n/9 for other sizes), rounded to the
    nearest level."""
    n, givens = puzzle.size, puzzle.givens
    count = sum(d is not None for row in givens for d in row)
    line = min(min(sum(d is not None for d in row) for row in givens),
               min(sum(givens[r][c] is not None for r in range(n)) for c in range(n)))

    def by_floor(value: int, floors: tuple[int, ...], scale: float) -> int:
        return next((i + 1 for i, f in enumerate(floors) if value >= round(f * scale)), 5)

    nodes = search_count(givens, puzzle.box_height, puzzle.box_width, search_limit)
    levels = (
        by_floor(count, PAPER_GIVENS, n * n / 81),
        by_floor(line, PAPER_LINE, n / 9),
        next((i + 1 for i, top in enumerate(PAPER_SEARCH) if nodes < top), 5),
    )
    score = sum(wt * lv for wt, lv in zip(PAPER_WEIGHTS, levels))
    return min(5, max(1, math.floor(score + 0.5)))


def report(puzzle: SudokuPuzzle) -> dict[str, int]:
    """The generator driver's extra report field: the paper's own score (:func:`paper_level`)."""
    return {"paper_level": paper_level(puzzle)}
