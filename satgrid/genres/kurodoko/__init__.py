"""Kurodoko (Kuromasu; Simon Tatham's Range): shade cells so that every number sees as many
unshaded cells as it says.

Rules (Nikoli's Kurodoko; pzprjs ``kurodoko.js`` checks the same list, Tatham's ``range.c`` too):
shaded cells never share a side; the unshaded cells form one side-connected region; a number
stands on an unshaded cell and counts the unshaded cells seen from it in the four directions, up
to the first shaded cell or the edge of the grid, itself included. A cell without a number (an
audit removed it) is free: it may be shaded.

Encoding (:func:`rules`, on the model builder; clause counts and measurements in
``encodings/kurodoko.md``):

* ``("shaded", r, c)`` per cell: the primary variables.
* Shaded cells do not touch: ``-shaded p | -shaded q`` for every pair of side neighbours.
* The unshaded cells are connected: the core's connected-subgraph rule over the unshaded literals.
* For each numbered cell, its sightlines (:meth:`~satgrid.model.Model.sightlines`): per direction
  a chain ``seen_i <-> seen_(i-1) & unshaded_i``, made in the base clauses, so a number switched
  off leaves them defined and harmless.
* Each number ``k`` is a clue behind its selector: its cell is unshaded, and the four chains,
  unary counts, sum to ``k - 1`` (:meth:`~satgrid.model.Clue.sightline_count`).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from ... import shading
from ...connectivity import with_eager
from ...encoding import Encoding
from ...errors import SatgridError, UnsupportedGenre
from ...formats import puzzlink, tatham
from ...grid import Grid
from ...model import Clue, Model, made_once, read_shading
from ...puzzle import GridPuzzle, Source, cell_name, clues_added, shading_rows_from_json
from ...reader import Record, number
from .checker import check_kurodoko, seen_from

NAME = "kurodoko"
SUMMARY = "Kurodoko: a number sees that many unshaded cells; shaded cells never touch, unshaded connected"
EXAMPLES = "kurodoko.txt"
ALIASES = ("kuromasu", "range")

Cell = tuple[int, int]
Solution = tuple[str, ...]


@dataclass(frozen=True)
class KurodokoPuzzle(GridPuzzle):
    """The numbers of a Kurodoko grid: a number 1..rows+cols-1 per cell, or None (no number)."""

    genre: ClassVar[str] = NAME


def _top(rows: int, cols: int) -> int:
    """The most cells a number can see: its row and its column (pzprjs's ``maxnum``, range.c)."""
    return rows + cols - 1


# -- text ---------------------------------------------------------------------------------------
def parse(record: Record) -> KurodokoPuzzle:
    """Rows of whitespace-separated tokens: a number 1..rows+cols-1, or ``.`` (no number)."""
    return shading.parse_numbers(
        record, KurodokoPuzzle, _top,
        lambda rows, cols: f"a cell of a {rows}x{cols} grid sees at most its row and its column, "
                           f"{_top(rows, cols)} cells")


parse_solution = shading.parse_shading
render = shading.render
puzzle_json = shading.numbers_json
solution_from_json = shading_rows_from_json


def puzzle_from_json(record: Record, value: object) -> KurodokoPuzzle:
    """The inverse of :func:`puzzle_json`, through :func:`parse`."""
    return shading.numbers_from_json(record, value, parse)


# -- the rules ----------------------------------------------------------------------------------
def rules(m: Model, numbered: tuple[Cell, ...]) -> None:
    """The rulebook of the module docstring; each number a clue that audits switch off."""
    shaded = m.cells("shaded")
    unshaded = {p: -x for p, x in shaded.items()}
    m.not_adjacent("shaded cells do not touch", shaded)
    m.connected("unshaded cells are connected", unshaded)
    sight = {p: m.sightlines(p, unshaded) for p in numbered}

    @m.clue
    def number(c: Clue, cell: Cell, k: object) -> None:
        """A number stands on an unshaded cell and sees ``k`` cells, itself included."""
        if cell not in sight:
            raise SatgridError(f"kurodoko: no number at {cell_name(*cell)} in this encoding")
        c.require([[unshaded[cell]]])
        c.sightline_count(sight[cell], int(k))  # type: ignore[call-overload]


@made_once()
def build(rows: int, cols: int, numbered: tuple[Cell, ...]) -> Encoding:
    """The encoding of every puzzle with numbers on the cells ``numbered`` (the values are clues)."""
    m = Model(Grid.of(rows, cols))
    rules(m, numbered)
    return m.build()


def cache_key(puzzle: KurodokoPuzzle) -> tuple:
    """Where the numbers stand decides the sightlines; their values are clues."""
    return (NAME, puzzle.rows, puzzle.cols, tuple(puzzle.numbers()))


def encode(puzzle: KurodokoPuzzle) -> Encoding:
    return build(puzzle.rows, puzzle.cols, tuple(puzzle.numbers()))


def decode(puzzle: KurodokoPuzzle, encoding: Encoding, value) -> Solution:
    return read_shading(encoding, "shaded", value, puzzle.rows, puzzle.cols)


def check(puzzle: KurodokoPuzzle, solution: Solution) -> list[str]:
    return check_kurodoko(puzzle.rows, puzzle.cols, puzzle.numbers(), solution)


def estimate(rows: int, cols: int, connectivity: str = "lazy") -> tuple[int, int]:
    """(variables, clauses) expected of a rows x cols grid, from the grid alone: a shaded
    variable and two neighbour clauses a cell; numbers on about a fifth of the cells, each with
    sightlines of ``rows + cols - 2`` variables (three clauses each) and about as many clauses
    again for its count; the eager connectivity rule's parent pointers and ranks as Hitori's. The
    figures behind the constants are in encodings/kurodoko.md."""
    cells, numbers, line = rows * cols, rows * cols // 5 + 1, rows + cols
    variables, clauses = cells + numbers * 3 * line // 2, 2 * cells + numbers * 6 * line
    return with_eager((variables, clauses), cells, connectivity)


# -- formats ------------------------------------------------------------------------------------
_NO_UNKNOWN = "a '?' number: satgrid's Kurodoko needs every number's value"

#: puz.link ``kurodoko`` (pzprjs ``src/variety/kurodoko.js``: ``decodeNumber16``/``encodeNumber16``).
PUZZLINK = puzzlink.Codec(
    pids=("kurodoko",),
    body=puzzlink.numbers("kurodoko"),
    read=lambda cells: KurodokoPuzzle(cells.numbers(1, _top(cells.rows, cells.cols), unknown=_NO_UNKNOWN),
                                      "", cells.source),
    write=lambda puzzle: puzzle.grid)

#: pzprv3 ``kurodoko`` (``FileIO``: ``decodeCellQnum``, ``decodeCellAns``): the clue grid, then the answer.
PZPRV3 = shading.pzprv3_codec(("kurodoko",), KurodokoPuzzle, 1, _top, _NO_UNKNOWN)


#: range.c's ``validate_params``: a number is stored in a signed char, so ``w + h - 1 <= 127``.
RANGE_TOP = 127


def _range_size(gid: tatham.GameId) -> tuple[int, int]:
    """(rows, cols) of Range's params ``W[xH]`` (``W`` alone is a square)."""
    return number(gid.height or gid.width) or 0, number(gid.width) or 0


def _range_fits(gid: tatham.GameId) -> bool:
    rows, cols = _range_size(gid)
    return tatham.run_cells(gid.desc, digits=False, separator="_") == (rows * cols, None)


def _range_signs(gid: tatham.GameId) -> bool:
    """A fitting description with ``_`` (two numbers side by side) or a number from 5 up, which
    a square-grid Loopy description (one digit 0-4 a cell) never holds."""
    return _range_fits(gid) and ("_" in gid.desc or any(
        int(n) >= 5 for n in "".join(ch if ch.isdigit() else " " for ch in gid.desc).split()))


def _from_range(gid: tatham.GameId) -> KurodokoPuzzle:
    """Range's ``new_game``/``validate_desc``: cells row by row, ``a``-``z`` a run of 1-26 cells
    without a number, a decimal number 1..W+H-1, ``_`` between two numbers."""
    rows, cols = _range_size(gid)
    if not (rows >= 1 and cols >= 1 and _top(rows, cols) <= RANGE_TOP):
        raise gid.error(f"a {gid.width}x{gid.height or gid.width} (width x height) Range grid: Range plays "
                        f"sides of 1 and up with width + height - 1 at most {RANGE_TOP}", gid.lead + 1)
    cells = tatham.decode_runs(gid.desc, rows * cols, lambda i, message: gid.error(message, gid.column(5, i)),
                               f"a {cols}x{rows} grid", separator="_", what="a Range description")
    top, values = _top(rows, cols), []
    for text, i in cells:
        value = None if text is None else number(text)
        if value is not None and not 1 <= value <= top:
            raise gid.error(f"number {text} is out of range 1..{top} (a cell of a {cols}x{rows} grid "
                            f"sees at most {top} cells)", gid.column(5, i))
        values.append(value)
    return KurodokoPuzzle(tuple(tuple(values[r * cols:(r + 1) * cols]) for r in range(rows)), "",
                          Source(gid.source, gid.line))


def _to_range(puzzle: KurodokoPuzzle) -> str:
    """Range's ``newdesc_encode_game_description``: ``WxH:``, runs of up to 26 blanks as
    ``a``-``z``, numbers in decimal, ``_`` only between two numbers."""
    if _top(puzzle.rows, puzzle.cols) > RANGE_TOP:
        raise UnsupportedGenre(f"Range plays grids whose width + height - 1 is at most {RANGE_TOP}, "
                               f"not {puzzle.cols}x{puzzle.rows}")
    return f"{puzzle.cols}x{puzzle.rows}:" + tatham.encode_runs((v for row in puzzle.grid for v in row),
                                                                separator="_")


#: Tatham's Range game IDs ``W[xH]:DESC`` (range.c; no flags). Its signs: :func:`_range_signs`.
TATHAM = tatham.Codec(
    game="Range", program="sgt-range", params=lambda gid: gid.flags == "", fits=_range_fits,
    decode=_from_range, encode=_to_range, signs=_range_signs)

#: The puzzlekit dataset's Kuromasu grids (``assets/data/Kuromasu``): numbers (``-`` none);
#: solution ``x`` shaded and ``-`` unshaded.
PUZZLEKIT = shading.puzzlekit_codec("Kuromasu", "kuromasu")


# -- drawing and hints --------------------------------------------------------------------------
#: The grid and its numbers (plain, as Nikoli and Range print them); a solution's shaded cells black.
DRAW = shading.draw
#: The partial state of ``hint --state``; numbered cells are unshaded by the rules, so never hinted.
STATE = replace(shading.STATE, shown=lambda puzzle: {("shaded", *p): False for p in puzzle.numbers()})


# -- the generic generator ----------------------------------------------------------------------
def BLANK(rows: int, cols: int) -> KurodokoPuzzle:
    """The grid without numbers: its solutions are the shadings the rules allow."""
    return KurodokoPuzzle(tuple((None,) * cols for _ in range(rows)))


def READ_CLUES(blank: KurodokoPuzzle, solution: Solution) -> KurodokoPuzzle:
    """Every unshaded cell's count. Unique: a second solution keeps the numbered cells unshaded,
    and unshading a shaded cell would raise the count of a numbered neighbour."""
    grid = Grid.of(blank.rows, blank.cols)
    return blank.with_clues({p: seen_from(solution, *p) for p in grid.cells if solution[p[0]][p[1]] == "."})


# -- golden samples -----------------------------------------------------------------------------
#: (text, status of ``solve --unique``, solution): the first is the example in Tatham's
#: ``range.c`` with the solution its comment draws; the small ones are checked against brute
#: force in tests/test_kurodoko.py.
SAMPLES = (
    (". . . . 7 . .\n3 . . . . . 8\n. . . . . 5 .\n. . 7 . 7 . .\n. 13 . . . . .\n4 . . . . . 8\n"
     ". . 4 . . . .\n", "unique",
     (".......", "..#.#..", "#..#...", ".....#.", ".......", "..#.#..", "#....#.")),
    (". .\n. 2\n", "multiple", None),  # the 2 sees one more cell: r1c2 or r2c1 shaded
    ("1 .\n. .\n", "unsatisfiable", None),  # a 1 walls itself in: its neighbours shaded, cut off
)


# -- repair -------------------------------------------------------------------------------------
#: The numbers a repair may add: every unshaded cell's count (:func:`READ_CLUES`).
CANDIDATES = clues_added(READ_CLUES)
