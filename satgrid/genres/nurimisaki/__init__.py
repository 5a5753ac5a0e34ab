"""Nurimisaki: shade cells so that the unshaded cells form one connected area whose dead ends
("capes") are exactly the circles; a number in a circle counts the cells it sees.

Rules (Nikoli's Nurimisaki; pzprjs ``kurodoko.js``, pid ``nurimisaki``, checks this list:
``checkShadeCellExist``, ``check2x2ShadeCell``, ``checkConnectUnshade``, ``checkViewOfNumber``,
``check2x2UnshadeCell``, ``checkCirclePromontory``, ``checkNonCircleNotPromontory``): some cell is
shaded; no 2x2 block is all shaded and none is all unshaded; the unshaded cells form one
side-connected area; a *cape* is an unshaded cell with exactly one unshaded side neighbour, and
the circles stand on exactly the capes (every circle is a cape, every cape has a circle); a
number in a circle counts the cells seen from it, itself included, up to the first shaded cell
or the edge (pzprjs counts all four directions; from a cape only one is open). A ``?`` circle
has no number.

**What a clue is.** A circle is part of the puzzle's shape, not a clue: erasing one would forbid
a cape there, which no solution of the puzzle obeys (the puzzle with a circle erased is not a
relaxation of it). The clue is the *number* in a circle. An audit (and the generator's
minimisation) switches numbers off, leaving a ``?`` circle, still a cape: the puzzle with that
number erased, a real Nurimisaki puzzle whose solutions include every solution of the puzzle
(as Nurikabe's sizes and Yajilin's arrows). So "redundant" means "the puzzle with this number
replaced by ``?`` still has one solution".

Encoding (:func:`rules`, on the model builder; clause counts and measurements in
``encodings/nurimisaki.md``):

* ``("shaded", r, c)`` per cell: the primary variables.
* Some cell is shaded: one clause. No 2x2 block of either colour: ``no_2x2`` twice.
* The unshaded cells are connected: the core's connected-subgraph rule.
* The capes are exactly the circles: the core's ``dead_ends`` rule over the unshaded literals (a
  circle: unshaded, exactly one unshaded neighbour; any other cell: unshaded with one unshaded
  neighbour implies a second).
* Implied, with a circle on the grid: an unshaded cell has an unshaded neighbour (the connected
  area holds a cape and its neighbour; ``no_closed_pieces`` with ``most = 1``). It saves the lazy
  connectivity rule's cuts around lone unshaded cells (measured in encodings/nurimisaki.md).
* For each circle, its sightlines (:meth:`~satgrid.model.Model.sightlines`) in the base; each
  number ``k`` a clue behind its selector: the chains sum to ``k - 1``
  (:meth:`~satgrid.model.Clue.sightline_count`).

The encoding depends on where the circles are (``cache_key``); their numbers are clues.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from ... import render_svg as svg
from ... import shading
from ...connectivity import with_eager
from ...encoding import Encoding
from ...errors import SatgridError
from ...formats import puzzlink
from ...grid import Grid
from ...model import Clue, Model, made_once, read_shading
from ...puzzle import GridPuzzle, cell_name, clues_added, shading_rows_from_json
from ...reader import Record
from .checker import check_nurimisaki, open_neighbours, seen_from

NAME = "nurimisaki"
SUMMARY = "Nurimisaki: circles are exactly the dead ends of one connected unshaded area; no 2x2 of one colour"
EXAMPLES = "nurimisaki.txt"

UNKNOWN = "?"
Cell = tuple[int, int]
Solution = tuple[str, ...]


@dataclass(frozen=True)
class NurimisakiPuzzle(GridPuzzle):
    """The circles of a Nurimisaki grid: a number 2..rows+cols-1, ``"?"`` (a circle without a
    number) or None (no circle) per cell."""

    genre: ClassVar[str] = NAME

    def circles(self) -> tuple[Cell, ...]:
        """Every cell with a circle, in reading order."""
        return tuple(self.numbers())

    def clues(self) -> dict[Cell, int]:
        """The numbers in circles: the clues that queries switch on and off."""
        return {p: v for p, v in self.numbers().items() if v != UNKNOWN}

    def with_clues(self, clues: dict[Cell, Any]) -> "NurimisakiPuzzle":
        """This puzzle keeping the numbers in ``clues``; every other circle becomes ``?``."""
        grid = tuple(tuple(clues.get((r, c), None if v is None else UNKNOWN) for c, v in enumerate(row))
                     for r, row in enumerate(self.grid))
        return replace(self, grid=grid, given_solution=None)


def _top(rows: int, cols: int) -> int:
    """The largest number pzprjs allows (``maxnum``, shared with Kurodoko): a row and a column."""
    return rows + cols - 1


#: pzprjs's ``minnum``: a cape sees itself and its unshaded neighbour.
LOW = 2


# -- text and JSON ------------------------------------------------------------------------------
def parse(record: Record) -> NurimisakiPuzzle:
    """Rows of whitespace-separated tokens: a number 2..rows+cols-1 (a numbered circle), ``?`` (a
    circle without a number) or ``.`` (no circle)."""
    return shading.parse_numbers(
        record, NurimisakiPuzzle, _top,
        lambda rows, cols: f"a circle sees itself and at most its row and its column, 2..{_top(rows, cols)}",
        low=LOW, unknown=UNKNOWN)


parse_solution = shading.parse_shading
render = shading.render
puzzle_json = shading.numbers_json
solution_from_json = shading_rows_from_json


def puzzle_from_json(record: Record, value: object) -> NurimisakiPuzzle:
    """The inverse of :func:`puzzle_json` (rows of numbers, ``0`` no circle, ``"?"``), through
    :func:`parse`."""
    return shading.numbers_from_json(record, value, parse, unknown=UNKNOWN)


# -- the rules ----------------------------------------------------------------------------------
def rules(m: Model, circles: tuple[Cell, ...] | None) -> None:
    """The rulebook of the module docstring; each number a clue that audits switch off.
    ``circles`` None: every rule but the capes' (the generator's sampler, whose circles come
    from the solution)."""
    shaded = m.cells("shaded")
    unshaded = {p: -x for p, x in shaded.items()}
    m.at_least("some cell is shaded", list(shaded.values()), 1)
    m.no_2x2("no 2x2 block is all shaded", shaded)
    m.no_2x2("no 2x2 block is all unshaded", unshaded)
    m.connected("unshaded cells are connected", unshaded)
    if circles is None:
        return
    m.dead_ends("the capes are exactly the circles", unshaded, circles)
    if circles:  # implied: a cape and its neighbour make the connected area two cells or more
        m.no_closed_pieces("an unshaded cell has an unshaded neighbour", unshaded, 1)
    sight = {p: m.sightlines(p, unshaded) for p in circles}

    @m.clue
    def number(c: Clue, cell: Cell, k: object) -> None:
        """A circle's number: the circle sees ``k`` cells, itself included."""
        if cell not in sight:
            raise SatgridError(f"nurimisaki: no circle at {cell_name(*cell)} in this encoding")
        c.sightline_count(sight[cell], int(k))  # type: ignore[call-overload]


@made_once()
def build(rows: int, cols: int, circles: tuple[Cell, ...] | None) -> Encoding:
    """The encoding of every puzzle with circles on the cells ``circles`` (numbers are clues)."""
    m = Model(Grid.of(rows, cols))
    rules(m, circles)
    return m.build()


def cache_key(puzzle: NurimisakiPuzzle) -> tuple:
    """Where the circles stand decides the rules; their numbers are clues."""
    return (NAME, puzzle.rows, puzzle.cols, puzzle.circles())


def encode(puzzle: NurimisakiPuzzle) -> Encoding:
    return build(puzzle.rows, puzzle.cols, puzzle.circles())


def decode(puzzle: NurimisakiPuzzle, encoding: Encoding, value) -> Solution:
    return read_shading(encoding, "shaded", value, puzzle.rows, puzzle.cols)


def check(puzzle: NurimisakiPuzzle, solution: Solution) -> list[str]:
    return check_nurimisaki(puzzle.rows, puzzle.cols, puzzle.numbers(), solution)


def estimate(rows: int, cols: int, connectivity: str = "lazy") -> tuple[int, int]:
    """(variables, clauses) expected of a rows x cols grid, from the grid alone: a shaded
    variable, two 2x2 clauses and about four dead-end clauses a cell; circles on about a seventh
    of the cells, each with sightlines of about ``rows + cols`` variables (2.5 clauses each) and
    half as many variables again and about as many clauses for its count; the eager connectivity
    rule's parent pointers and ranks as Hitori's. The figures behind the constants are in
    encodings/nurimisaki.md."""
    cells, circles, line = rows * cols, rows * cols // 7 + 1, rows + cols
    variables, clauses = cells + circles * 3 * line // 2, 6 * cells + circles * 5 * line
    return with_eager((variables, clauses), cells, connectivity)


# -- formats ------------------------------------------------------------------------------------
#: puz.link ``nurimisaki`` (pzprjs ``src/variety/kurodoko.js``, which serves Kurodoko and
#: Nurimisaki with one ``decodeNumber16``/``encodeNumber16``): ``.`` a ``?`` circle.
PUZZLINK = puzzlink.Codec(
    pids=("nurimisaki",),
    body=puzzlink.numbers("nurimisaki"),
    read=lambda cells: NurimisakiPuzzle(cells.numbers(LOW, _top(cells.rows, cells.cols), noun="circle"),
                                        "", cells.source),
    write=lambda puzzle: puzzle.grid)

#: pzprv3 ``nurimisaki`` (``FileIO``: ``decodeCellQnum``, ``decodeCellAns``): the circles (``-``
#: a ``?`` circle), then the answer.
PZPRV3 = shading.pzprv3_codec(("nurimisaki",), NurimisakiPuzzle, LOW, _top, None)

#: The puzzlekit dataset's Nurimisaki grids (``assets/data/Nurimisaki``): numbers and ``?``
#: circles (``-`` none); solution ``x`` shaded and ``-`` unshaded.
PUZZLEKIT = shading.puzzlekit_codec("Nurimisaki", "nurimisaki")


# -- drawing and hints --------------------------------------------------------------------------
def DRAW(puzzle: NurimisakiPuzzle, solution: Solution | None, marks: svg.Marks) -> list[str]:
    """The grid, a circle on each circle cell with its number (none on ``?``, as pzprjs draws
    it), a solution's shaded cells black."""
    circles = puzzle.numbers()
    out = svg.cells(puzzle, marks, circles)
    if solution is not None:
        out += svg.shaded([(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)
                           if solution[r][c] == "#"], marks)
    return [*out, *svg.border(puzzle), *svg.circles({p: "white" for p in circles}),
            *svg.givens({p: str(v) for p, v in circles.items() if v != UNKNOWN})]


#: The partial state of ``hint --state``; circles are unshaded by the rules, so never hinted.
STATE = replace(shading.state_format(noun="circle", clue="circle"),
                shown=lambda puzzle: {("shaded", *p): False for p in puzzle.circles()})


# -- the generic generator ----------------------------------------------------------------------
def BLANK(rows: int, cols: int) -> NurimisakiPuzzle:
    """The grid without circles."""
    return NurimisakiPuzzle(tuple((None,) * cols for _ in range(rows)))


def READ_CLUES(blank: NurimisakiPuzzle, solution: Solution) -> NurimisakiPuzzle:
    """A numbered circle on every cape of ``solution``."""
    grid = Grid.of(blank.rows, blank.cols)
    return blank.with_clues({p: seen_from(solution, *p) for p in grid.cells
                             if solution[p[0]][p[1]] == "." and open_neighbours(solution, *p) == 1})


def SAMPLE(rows: int, cols: int, rng: random.Random) -> NurimisakiPuzzle:
    """A random shading of the rules without circles (the capes' rule would need the circles
    first), solved with random phases, and a numbered circle on each of its capes
    (:func:`READ_CLUES`). Two shadings often share their capes and counts (an L-shaped corner
    whose cape looks along the other arm, shaded cells swapped inside an unshaded ring), so
    while that full puzzle has a second solution, the phases of the cells of one random
    side-connected part of the cells where the two differ, and of their neighbours
    (8-neighbourhood), are drawn afresh and the shading solved again: a local restart, so the
    shading changes near one ambiguity at a time and keeps the rest, at most
    ``rows * cols // 2`` times; the last full puzzle is returned either way (the generic
    generator checks it; measured, with the dropped alternatives, in encodings/nurimisaki.md)."""
    from ... import api
    from ...session import Session

    encoding, blank = build(rows, cols, None), BLANK(rows, cols)
    shaded, grid = encoding.primary, Grid.of(rows, cols)
    session = Session(encoding)
    try:
        session.prefer([lit if rng.random() < 0.5 else -lit for lit in shaded.values()])
        full = None
        for _ in range(max(1, rows * cols // 2)):
            outcome = session.solve()
            if outcome.status != "sat":
                raise SatgridError(f"the rules of {NAME} have no {rows}x{cols} solution")
            solution = read_shading(encoding, "shaded", outcome.assignment, rows, cols)
            full = READ_CLUES(blank, solution)
            result = api.solve(full, unique=True, grade=False)
            if result.status == "unique":
                break
            other = result.second_solution if tuple(result.solution) == solution else result.solution
            part = rng.choice(grid.components((r, c) for r in range(rows) for c in range(cols)
                                              if solution[r][c] != other[r][c]))
            near = {(r + dr, c + dc) for r, c in part for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                    if 0 <= r + dr < rows and 0 <= c + dc < cols}
            session.prefer([shaded["shaded", *p] * rng.choice((1, -1)) for p in sorted(near)])
        assert full is not None
        return full
    finally:
        session.close()


# -- golden samples -----------------------------------------------------------------------------
#: (text, status of ``solve --unique``, solution): the first is the bundled example m1 (made by
#: ``satgrid generate nurimisaki --size 6x6 --seed 3`` with the former sampler, which fixed
#: cells; its ``source:`` line says so); the small ones are checked against brute
#: force in tests/test_nurimisaki.py.
SAMPLES = (
    ("6 . . . 3 .\n. ? . ? . .\n. . ? . . .\n. . . . . .\n. . . . . .\n. ? . 2 . ?\n", "unique",
     (".###.#", "..#..#", ".#.#..", "...##.", ".#....", "..#.#.")),
    ("2 .\n. 2\n", "multiple", None),  # r1c2 or r2c1 shaded: each 2 sees its cape's neighbour
    ("? .\n. .\n", "unsatisfiable", None),  # a connected area of two or more cells has two dead ends
)


# -- repair -------------------------------------------------------------------------------------
#: The numbers a repair may add: a number in each ``?`` circle (the capes of a solution are its
#: circles, so :func:`READ_CLUES` numbers exactly them).
CANDIDATES = clues_added(READ_CLUES)
