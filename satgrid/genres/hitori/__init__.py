"""Hitori: shade cells so that no number repeats among the unshaded cells of a row or column.

Rules (Nikoli, "Hitori ni shite kure"; pzprjs ``hitori.js``): no number appears twice among the
unshaded cells of a row or of a column; shaded cells never share a side; the unshaded cells form
one side-connected region. A cell without a number (an audit removed it) is free.

Encoding (:func:`rules`, on the model builder; clause counts and measurements in
``encodings/hitori.md``):

* ``("shaded", r, c)`` per cell: the primary variables.
* Shaded cells do not touch: ``-shaded p | -shaded q`` for every pair of side neighbours.
* The unshaded cells are connected: the core's connected-subgraph rule over the unshaded literals
  (lazy cuts, or parent pointers and ranks).
* Each number is a clue whose selector ``("clue", r, c, n)`` is a switch in the base clauses:
  for two cells ``p``, ``q`` of one row or column holding the same number,
  ``switch p & switch q -> shaded p | shaded q``, so among the switched-on cells of a line holding
  one number at most one is unshaded (pairwise at-most-one). A number switched off leaves its
  cell free, so the audit's "redundant" means "the puzzle without this number (the cell blank)
  still has one solution".
"""
from __future__ import annotations

import random
import re
from collections import defaultdict
from dataclasses import dataclass
from itertools import combinations
from typing import ClassVar

from ... import shading
from ...cnf import Clause
from ...connectivity import with_eager
from ...encoding import Encoding
from ...errors import SatgridError, UnsupportedGenre
from ...formats import puzzlink, tatham
from ...grid import Grid as Geometry
from ...model import Clue, Model, read_shading
from ...puzzle import GridPuzzle, Source, cell_name, shading_rows_from_json
from ...reader import Record, number
from .checker import check_hitori

NAME = "hitori"
SUMMARY = "Hitori: shade repeated numbers away; shaded cells never touch, unshaded cells connected"
EXAMPLES = "hitori.txt"

Cell = tuple[int, int]
Grid = tuple[tuple[int | None, ...], ...]
Solution = tuple[str, ...]


@dataclass(frozen=True)
class HitoriPuzzle(GridPuzzle):
    """The numbers of a Hitori grid: a number 1..max(rows, cols) per cell, or None (no number)."""

    genre: ClassVar[str] = NAME


# -- parsing ------------------------------------------------------------------------------------
def parse(record: Record) -> HitoriPuzzle:
    """Rows of whitespace-separated tokens: a number 1..max(rows, cols), or ``.`` (no number)."""
    return shading.parse_numbers(record, HitoriPuzzle, _top,
                                 lambda rows, cols: f"the longer side of the {rows}x{cols} grid")


parse_solution = shading.parse_shading


# -- encoding -----------------------------------------------------------------------------------
def cache_key(puzzle: HitoriPuzzle) -> tuple:
    """The grid itself: which cells repeat a number decides the clauses."""
    return (NAME, puzzle.grid)


def rules(m: Model, puzzle: HitoriPuzzle) -> None:
    """The three rules of the module docstring, with each number a clue that audits switch off."""
    shaded = m.cells("shaded")
    m.not_adjacent("shaded cells do not touch", shaded)
    m.connected("unshaded cells are connected", {p: -x for p, x in shaded.items()})
    numbers = puzzle.numbers()
    switch = {p: m.switch(p, n) for p, n in numbers.items()}
    repeats: list[Clause] = []
    for line in m.grid.lines():
        same: dict[int, list[Cell]] = defaultdict(list)
        for p in line:
            if p in numbers:
                same[numbers[p]].append(p)
        for n, cells in same.items():
            # Among the switched-on cells of the line holding n, at most one is unshaded.
            repeats += ([-switch[p], -switch[q], shaded[p], shaded[q]] for p, q in combinations(cells, 2))
    m.require("no number repeats unshaded in a row or column", repeats)

    @m.clue
    def number(c: Clue, cell: Cell, n: object) -> None:
        """A number is a switch: its selector stands in the repeat clauses. Its one clause is the
        selector itself (behind the selector a tautology), so an export without selectors
        (DIMACS ``--clues plain``) sets the switch on."""
        if numbers.get(cell) != n:
            raise SatgridError(f"hitori: clue {n!r} at {cell_name(*cell)} does not fit this encoding "
                               f"(it was built for {numbers.get(cell)!r} there)")
        c.require([[switch[cell]]])


def encode(puzzle: HitoriPuzzle) -> Encoding:
    m = Model(Geometry.of(puzzle.rows, puzzle.cols))
    rules(m, puzzle)
    return m.build()


def decode(puzzle: HitoriPuzzle, encoding: Encoding, value) -> Solution:
    return read_shading(encoding, "shaded", value, puzzle.rows, puzzle.cols)


def check(puzzle: HitoriPuzzle, solution: Solution) -> list[str]:
    return check_hitori(puzzle.rows, puzzle.cols, puzzle.numbers(), solution)


#: Golden samples: (the genre's text, the status of ``solve --unique``, the solution or None).
SAMPLES = (
    ("3 3 1 4\n4 3 2 2\n1 3 4 2\n3 4 3 2\n", "unique", (".#..", "...#", ".#..", "#..#")),
    ("1 1\n2 2\n", "unsatisfiable", None),  # shading a 1 and a 2 splits the unshaded cells
    ("1 2\n2 1\n", "multiple", None),  # nothing repeats: any one cell may be shaded
)


# -- generation ---------------------------------------------------------------------------------
def SAMPLE(rows: int, cols: int, rng: random.Random) -> HitoriPuzzle:
    """A puzzle with every number, for the generic generator (:mod:`satgrid.generators.generic`,
    which keeps it only if it is unique, then removes numbers), after Tatham's Singles
    (``singles.c``, ``new_game_desc``): a random shading that obeys the rules and to which no
    cell can be added (shade cells in random order while no shaded cell touches and the
    unshaded cells stay connected: an unshaded cell that could be shaded would be a second
    solution); the unshaded cells numbered from a random Latin square (rows, columns and symbols
    of the cyclic square permuted, cut to size), so no number repeats among them; each shaded
    cell given a number of an unshaded cell in its row or column, so it repeats one. Fewer than
    3 cells are too small: one of them may always be shaded or not (a lone unshaded cell is
    connected, and two equal numbers may lose either), so no such puzzle is unique."""
    if rows * cols < 3:
        raise SatgridError(f"a {rows}x{cols} Hitori is too small: with fewer than 3 cells no puzzle "
                           "is unique (a cell may always be shaded or not)")
    grid = Geometry.of(rows, cols)
    shaded: set[Cell] = set()
    order = list(grid.cells)
    rng.shuffle(order)
    for p in order:
        if not any(q in shaded for q in grid.neighbours(p)):
            if len(grid.components(q for q in grid.cells if q not in shaded and q != p)) <= 1:
                shaded.add(p)
    n = max(rows, cols)
    row_order, col_order, symbols = (rng.sample(range(n), n) for _ in range(3))
    numbers = {(r, c): symbols[(row_order[r] + col_order[c]) % n] + 1 for r, c in grid.cells}
    for r, c in sorted(shaded):
        seen = [numbers[q] for q in grid.row(r) + grid.column(c) if q not in shaded]
        numbers[r, c] = rng.choice(seen) if seen else numbers[r, c]
    return HitoriPuzzle(tuple(tuple(numbers[r, c] for c in range(cols)) for r in range(rows)))


# -- output -------------------------------------------------------------------------------------
render = shading.render
puzzle_json = shading.numbers_json


def puzzle_from_json(record: Record, value: object) -> HitoriPuzzle:
    """The inverse of :func:`puzzle_json`, through :func:`parse`."""
    return shading.numbers_from_json(record, value, parse)


solution_from_json = shading_rows_from_json


def estimate(rows: int, cols: int, connectivity: str = "lazy") -> tuple[int, int]:
    """(variables, clauses) expected of the encoding of a rows x cols grid, from the grid alone:
    two variables a cell (shaded, number), two neighbour clauses a cell and about as many repeat
    clauses (at most one pair a cell in each direction when the numbers run 1..n); the eager
    connectivity rule adds parent pointers and ranks, whose size per cell grows with the rank's
    bits. The figures behind the constants are in encodings/hitori.md."""
    cells = rows * cols
    variables, clauses = 2 * cells, 4 * cells
    return with_eager((variables, clauses), cells, connectivity)


# -- formats ------------------------------------------------------------------------------------
def _top(rows: int, cols: int) -> int:
    """The largest number of a rows x cols grid (pzprjs's ``maxnum``, Singles' ``o``)."""
    return max(rows, cols)


_NO_UNKNOWN = "a '?' number: satgrid's Hitori needs every number's value"

#: puz.link ``hitori`` (pzprjs ``src/variety/hitori.js``, ``decodeHitori``/``encodeHitori``): one
#: base-36 digit a number 0-35, ``-`` and two digits 36-1295, ``.`` a cell without a number,
#: ``%`` a ``?`` (refused). pzpr 0.10.1 writes 16-35 as ``-`` and one digit, which its own decoder
#: reads as two; satgrid writes the current form, one digit, which every version reads.
PUZZLINK = puzzlink.Codec(
    pids=("hitori",),
    body=puzzlink.numbers("hitori", base=36, singles=36, wide=(("-", 2, 0),), read_only=(),
                          unknown="%", runs=None, blank="."),
    read=lambda cells: HitoriPuzzle(cells.numbers(1, _top(cells.rows, cells.cols), unknown=_NO_UNKNOWN),
                                    "", cells.source),
    write=lambda puzzle: puzzle.grid)


#: pzprv3 ``hitori`` (``FileIO``: ``decodeCellQnum``, ``decodeCellAns``): the clue grid, then the answer.
PZPRV3 = shading.pzprv3_codec(("hitori",), HitoriPuzzle, 1, _top, _NO_UNKNOWN)

#: Singles (``singles.c``, ``n2c``/``c2n``): a cell is ``1``-``9``, ``a``-``z`` (10-35) or
#: ``A``-``Z`` (36-61); every cell holds a number no larger than the longer side; sides 2..62.
_SINGLES = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
SINGLES_SIDES = range(2, 63)
_SINGLES_FLAGS = re.compile(r"(d[a-z])?")


def _singles_size(gid: tatham.GameId) -> tuple[int, int]:
    """(rows, cols) of the params (``W`` alone is a square)."""
    cols = number(gid.width) or 0
    return number(gid.height or gid.width) or 0, cols


def _singles_fits(gid: tatham.GameId) -> bool:
    rows, cols = _singles_size(gid)
    top = _top(rows, cols)
    return (rows in SINGLES_SIDES and cols in SINGLES_SIDES and len(gid.desc) == rows * cols
            and all(0 < _SINGLES.find(ch) <= top for ch in gid.desc))


def _from_singles(gid: tatham.GameId) -> HitoriPuzzle:
    """Singles' ``unpick_desc``: ``W*H`` characters, each a number ``1..max(W, H)``."""
    rows, cols = _singles_size(gid)
    if rows not in SINGLES_SIDES or cols not in SINGLES_SIDES:
        raise gid.error(f"a {cols}x{rows} Singles grid: its sides run 2..62", gid.lead + 1)
    top, cells = _top(rows, cols), []
    for i, ch in enumerate(gid.desc):
        if i >= rows * cols:
            raise gid.error(f"the description goes on after the {rows * cols} cells of the grid", gid.column(5, i))
        value = _SINGLES.find(ch)
        if not 0 < value <= top:
            raise gid.error(f"{ch!r} is not a Singles number 1..{top} (1-9, a-z 10-35, A-Z 36-61)",
                            gid.column(5, i))
        cells.append(value)
    if len(cells) < rows * cols:
        raise gid.error(f"the description has {len(cells)} cells, a {cols}x{rows} grid has {rows * cols}",
                        gid.column(5, len(gid.desc)))
    return HitoriPuzzle(tuple(tuple(cells[r * cols:(r + 1) * cols]) for r in range(rows)), "",
                        Source(gid.source, gid.line))


def _to_singles(puzzle: HitoriPuzzle) -> str:
    """Singles' ``generate_desc``: ``WxH:`` and a character a cell."""
    if puzzle.rows not in SINGLES_SIDES or puzzle.cols not in SINGLES_SIDES:
        raise UnsupportedGenre(f"Singles plays grids of 2..62 a side, not {puzzle.cols}x{puzzle.rows}")
    cells = [v for row in puzzle.grid for v in row]
    if any(v is None for v in cells):
        raise UnsupportedGenre("a Singles game ID needs a number in every cell")
    return f"{puzzle.cols}x{puzzle.rows}:" + "".join(_SINGLES[v] for v in cells)  # type: ignore[index]


#: Tatham's Singles game IDs ``WxH[d<difficulty>]:DESC`` (Singles always writes both sides). Its
#: sign: a digit 5-9 in a description that fits, which a square-grid Loopy ID (clues 0-4) never
#: holds.
TATHAM = tatham.Codec(
    game="Singles", program="sgt-singles",
    params=lambda gid: gid.height is not None and _SINGLES_FLAGS.fullmatch(gid.flags) is not None,
    fits=_singles_fits,
    decode=_from_singles, encode=_to_singles,
    signs=lambda gid: _singles_fits(gid) and any(ch in "56789" for ch in gid.desc))


#: The puzzlekit dataset's Hitori grids (``assets/data/Hitori``): problem numbers (``-`` none),
#: which :func:`parse` reads as they are; solution ``x`` shaded and ``-`` unshaded.
PUZZLEKIT = shading.puzzlekit_codec("Hitori", "hitori")


# -- drawing and hints --------------------------------------------------------------------------
#: The grid and its numbers; a solution's shaded cells black, their numbers grey on them (pzprjs
#: and Singles draw them the same way).
DRAW = shading.draw
STATE = shading.STATE


# -- repair -------------------------------------------------------------------------------------
def CANDIDATES(puzzle: HitoriPuzzle, solution: Solution) -> dict[tuple[int, int], int]:
    """The numbers a repair may add, one per blank cell (a cell takes many numbers; this is one
    that tells something): on a shaded cell, the number of an unshaded numbered cell of its row
    or column (so one of the two is shaded); on an unshaded cell, the smallest number no unshaded
    cell of its lines holds, preferring one a shaded cell there holds. No two added numbers in a
    line are equal, so each clue binds only the given ones (a solution that fits each added clue
    fits them together, as the repair's hitting sets need). A cell where no such number exists
    gets none."""
    grid, top = puzzle.grid, max(puzzle.rows, puzzle.cols)
    out: dict[tuple[int, int], int] = {}
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            if v is not None:
                continue
            line = [(r, x) for x in range(puzzle.cols) if x != c] + [(y, c) for y in range(puzzle.rows) if y != r]
            added = {out[q] for q in line if q in out}
            given = [(grid[y][x], solution[y][x] == "#") for y, x in line if grid[y][x] is not None]
            if solution[r][c] == "#":
                pick = sorted(n for n, shaded in given if not shaded and n not in added)
            else:
                taken = added | {n for n, shaded in given if not shaded}
                shown = {n for n, shaded in given if shaded}
                pick = sorted((n for n in range(1, top + 1) if n not in taken), key=lambda n: n not in shown)
            if pick:
                out[r, c] = pick[0]
    return out
