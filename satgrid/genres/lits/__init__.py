"""LITS: shade one tetromino in every room.

Rules (Nikoli, "LITS"; pzprjs ``lits.js``): each room holds one tetromino of shaded cells; all
shaded cells are connected; no 2x2 block is shaded; two tetrominoes of the same shape (rotations
and reflections count as the same) never touch across a room border.

**No clues.** The rooms are the puzzle: LITS gives no number or mark beyond them, so
:meth:`LitsPuzzle.clues` is empty, an audit finds nothing to remove (the clue set is trivially
minimal) and a generator's work is the room layout.

Encoding (:func:`rules`, on the model builder; clause counts and measurements in
``encodings/lits.md``):

* ``("shaded", r, c)`` per cell: the primary variables.
* One tetromino per room: :meth:`~satgrid.model.Model.shapes_in_rooms` over L, I, T and S (a
  literal per placement of a shape inside its room, exactly one per room; a cell is shaded iff a
  chosen placement covers it; per room a literal per shape). O, the 2x2 block, is left out: the
  no-2x2 rule forbids it anyway.
* No 2x2: a clause per window (:meth:`~satgrid.model.Model.no_2x2`).
* Equal shapes apart: :meth:`~satgrid.model.Model.equal_shapes_apart` (two shaded cells side
  by side in different rooms never both belong to rooms holding the same shape).
* Connected: the core's connected-subgraph rule over the shaded literals (lazy cuts, or parent
  pointers and ranks). The lazy cuts are the plain ones (the false cells around a component),
  not the smallest separators: LITS's SAT calls are cheap and its components large, so the
  separators' max flow cost more than the rounds they save (measured in encodings/lits.md).
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, Callable, ClassVar

from ...encoding import Encoding
from ...errors import LimitReached, ParseError
from ...formats import puzzlekit
from ...grid import Grid
from ...model import Model, read
from ...puzzle import GridPuzzle, Source, cell_name
from ...queries import PuzzleQueries
from ...reader import Record
from ...session import Session
from . import sampler
from .checker import TETROMINOES, check_lits, letter_of

NAME = "lits"
SUMMARY = "LITS: one tetromino in every room, all connected, no 2x2, equal shapes never touch"
EXAMPLES = "lits.txt"

Cell = tuple[int, int]
Solution = tuple[str, ...]  # rows of a letter L/I/T/S per shaded cell, '.' unshaded
LETTERS = tuple(TETROMINOES)


@dataclass(frozen=True)
class LitsPuzzle(GridPuzzle):
    """The room grid: per cell the number of its room (rooms numbered 0, 1, ... in reading order
    of their first cells). LITS has no clues: :meth:`clues` is empty."""

    genre: ClassVar[str] = NAME

    @cached_property
    def rooms(self) -> list[list[Cell]]:
        """The cells of each room, by room number."""
        return Grid.of(self.rows, self.cols).rooms_from_ids(self.grid)

    def clues(self) -> dict[Cell, Any]:
        return {}

    def with_clues(self, clues: dict[Cell, Any]) -> "LitsPuzzle":
        return replace(self, given_solution=None)


def numbered(rows: int, cols: int, ids: Any) -> tuple[tuple[int, ...], ...]:
    """The room grid of an id grid (any hashable ids; two separate groups of one id are two
    rooms): room numbers 0, 1, ... in reading order of each room's first cell."""
    number: dict[Cell, int] = {}
    for i, room in enumerate(Grid.of(rows, cols).rooms_from_ids(ids)):
        number.update((p, i) for p in room)
    return tuple(tuple(number[r, c] for c in range(cols)) for r in range(rows))


# -- text ---------------------------------------------------------------------------------------
_TOKEN = re.compile(r"\S+")


def parse(record: Record) -> LitsPuzzle:
    """Rows of whitespace-separated room ids (any word: numbers, letters); side-neighbouring
    cells with one id are in one room. Every room has at least 4 cells."""
    rows: list[list[tuple[str, int, int]]] = []
    for n, text in record.lines:
        tokens = [(m.group(), n, m.start() + 1) for m in _TOKEN.finditer(text)]
        if tokens:
            if rows and len(tokens) != len(rows[0]):
                raise record.error(f"row has {len(tokens)} cells, the first row has {len(rows[0])} "
                                   "(a room grid is rectangular)", n)
            rows.append(tokens)
            record.check_cells(len(rows), len(tokens), n)
    if not rows:
        raise record.error("no LITS room grid found")
    grid = numbered(len(rows), len(rows[0]), [[tok for tok, _, _ in row] for row in rows])
    puzzle = LitsPuzzle(grid, record.name, Source(record.source, record.line))
    for room in puzzle.rooms:
        if len(room) < 4:
            (r, c) = room[0]
            _, line, col = rows[r][c]
            raise record.error(f"the room of {rows[r][c][0]!r} at {cell_name(r, c)} has {len(room)} "
                               "cells: a room holds a tetromino (4 cells)", line, col)
    return puzzle


def _grid_tokens(lines: list[tuple[int, str]], puzzle: LitsPuzzle, what: str,
                 error: Callable[[str, int | None, int | None], Exception]) -> list[list[tuple[str, int, int]]]:
    """The rows of a solution or state grid as ``(token, line, column)``: one character a cell,
    or whitespace-separated tokens (as :func:`render` prints them)."""
    lines = [(n, t) for n, t in lines if t.strip()]
    if len(lines) != puzzle.rows:
        raise error(f"the {what} has {len(lines)} rows, the grid {puzzle.rows}", lines[0][0] if lines else None, None)
    out = []
    for line, text in lines:
        if len(text.split()) > 1:
            tokens = [(m.group(), line, m.start() + 1) for m in _TOKEN.finditer(text)]
        else:
            tokens = [(ch, line, i + 1) for i, ch in enumerate(text) if not ch.isspace()]
        if len(tokens) != puzzle.cols:
            raise error(f"{what} row has {len(tokens)} cells, the grid {puzzle.cols}", line, None)
        out.append(tokens)
    return out


def lettered(puzzle: LitsPuzzle, shaded: set[Cell]) -> Solution:
    """The solution of a shading: each shaded cell the letter of its room's tetromino (``#``
    where a room's shaded cells are not one of L, I, T, S), ``.`` elsewhere."""
    letters = {}
    for room in puzzle.rooms:
        inside = [p for p in room if p in shaded]
        letter = letter_of(inside) or "#"
        letters.update((p, letter) for p in inside)
    return tuple("".join(letters.get((r, c), ".") for c in range(puzzle.cols)) for r in range(puzzle.rows))


def parse_solution(record: Record, puzzle: LitsPuzzle) -> Solution | None:
    """A ``solution:`` section: rows of a letter ``L``, ``I``, ``T``, ``S`` or ``#`` per shaded cell
    and ``.`` (or ``-``, ``+``) per unshaded cell. ``#`` takes its room's letter; a letter must
    be its tetromino's (the checker judges that)."""
    if not any(t.strip() for _, t in record.solution_lines):
        return None
    rows = []
    for tokens in _grid_tokens(record.solution_lines, puzzle, "solution", record.error):
        row = ""
        for tok, line, col in tokens:
            if tok not in ("L", "I", "T", "S", "#", ".", "-", "+"):
                raise record.error(f"{tok!r} is not a solution cell: use L, I, T, S or '#' (shaded), "
                                   "'.' (unshaded)", line, col)
            row += "." if tok in ("-", "+") else tok
        rows.append(row)
    derived = lettered(puzzle, {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "."})
    return tuple("".join(d if ch == "#" else ch for ch, d in zip(row, drow)) for row, drow in zip(rows, derived))


# -- the rules ----------------------------------------------------------------------------------
def rules(m: Model, puzzle: LitsPuzzle) -> None:
    """The four rules of the module docstring."""
    shaded = m.cells("shaded")
    rooms = puzzle.rooms
    shape = m.shapes_in_rooms("each room holds one tetromino", rooms, shaded, TETROMINOES.values())
    m.no_2x2("no 2x2 block is shaded", shaded)
    m.equal_shapes_apart("equal tetrominoes do not touch across a room border", rooms, shaded, shape)
    m.connected("shaded cells are connected", shaded, separators=False)


def cache_key(puzzle: LitsPuzzle) -> tuple:
    """The rooms decide the clauses."""
    return (NAME, puzzle.grid)


def encode(puzzle: LitsPuzzle) -> Encoding:
    m = Model(Grid.of(puzzle.rows, puzzle.cols))
    rules(m, puzzle)
    return m.build()


def decode(puzzle: LitsPuzzle, encoding: Encoding, value: Any) -> Solution:
    on = read(encoding, "shaded", value)
    return lettered(puzzle, {p for p, v in on.items() if v})


def check(puzzle: LitsPuzzle, solution: Solution) -> list[str]:
    return check_lits(puzzle.grid, solution)


# -- output and JSON ----------------------------------------------------------------------------
def render(puzzle: LitsPuzzle, solution: Solution | None = None) -> str:
    """The room grid (rooms numbered from 1), or with a solution its rows: a letter per shaded
    cell, ``.`` elsewhere; columns line up."""
    if solution is not None:
        return "\n".join(" ".join(row) for row in solution)
    width = len(str(len(puzzle.rooms)))
    return "\n".join(" ".join(str(k + 1).rjust(width) for k in row) for row in puzzle.grid)


def puzzle_json(puzzle: LitsPuzzle) -> list[list[int]]:
    """Rows of room numbers, from 1."""
    return [[k + 1 for k in row] for row in puzzle.grid]


def puzzle_from_json(record: Record, value: object) -> LitsPuzzle:
    """The inverse of :func:`puzzle_json`, through the text parser (so its checks apply)."""
    if not (isinstance(value, list) and value and all(isinstance(row, list) and row for row in value)
            and all(type(k) is int for row in value for k in row)):
        raise record.error("not a list of rows of room numbers")
    lines = [(record.line, " ".join(str(k) for k in row)) for row in value]
    return parse(record.part(record.line, lines, record.name))


def solution_json(puzzle: LitsPuzzle, solution: Solution) -> list[str]:
    return list(solution)


def solution_from_json(puzzle: LitsPuzzle, value: object) -> Solution:
    if not (isinstance(value, list) and len(value) == puzzle.rows and all(
            isinstance(row, str) and len(row) == puzzle.cols and set(row) <= set("LITS.") for row in value)):
        raise ValueError(f"not {puzzle.rows} rows of {puzzle.cols} letters L, I, T, S or '.'")
    return tuple(value)


def estimate(rows: int, cols: int, connectivity: str = "lazy") -> tuple[int, int]:
    """(variables, clauses) expected from the grid alone: a cell's variable, about two
    placements a cell and a shape literal a room, and per cell about twelve placement clauses,
    one 2x2 clause and three equal-shape clauses; the eager connectivity rule adds parent pointers
    and ranks. Figures in encodings/lits.md."""
    cells = rows * cols
    variables, clauses = 4 * cells, 16 * cells
    if connectivity == "eager":
        bits = max(1, (max(cells, 2) - 1).bit_length())
        variables += 5 * bits * cells
        clauses += 13 * bits * cells
    return variables, clauses


# -- formats ------------------------------------------------------------------------------------
def _puzzlekit_rows(puzzle: LitsPuzzle, solution: Solution | None) -> tuple[list[list[str]], list[list[str]] | None]:
    """The dataset's grids: room numbers from 1; a letter per shaded cell, ``-`` elsewhere."""
    answer = None if solution is None else [["-" if ch == "." else ch for ch in row] for row in solution]
    return [[str(k + 1) for k in row] for row in puzzle.grid], answer


#: The puzzlekit dataset's LITS grids (``assets/data/LITS``): a room id per cell, which
#: :func:`parse` reads as it is; solution a letter per shaded cell, ``-`` unshaded.
PUZZLEKIT = puzzlekit.Codec(
    "LITS",
    problem=puzzlekit.Tokens(),
    solution=puzzlekit.Tokens({"-": ".", **{x: x for x in LETTERS}}, strict=True),
    solver="lits",
    write=_puzzlekit_rows,
)


# -- drawing and hints --------------------------------------------------------------------------
from ... import render_svg as svg  # noqa: E402  (kept with the parts that use it)
from ...grading import StateFormat, state_lines  # noqa: E402


def DRAW(puzzle: LitsPuzzle, solution: Solution | None, marks: svg.Marks) -> list[str]:
    """The grid, bold room borders; a solution's shaded cells black, its unshaded cells dotted."""
    out = svg.cells(puzzle, marks)
    if solution is not None:
        cells = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)]
        out += svg.shaded([p for p in cells if solution[p[0]][p[1]] != "."], marks)
    return [*out, *svg.room_borders(puzzle, lambda r, c: puzzle.grid[r][c]), *svg.border(puzzle)]


def _read_state(puzzle: LitsPuzzle, text: str, source: str) -> dict:
    """A hint's partial state: the grid, a letter or ``#`` shaded, ``.`` (or ``+``) unshaded,
    ``?`` (or ``_``) undecided."""
    def error(message: str, line: int | None, column: int | None) -> ParseError:
        return ParseError(source, line, message, column)

    state = {}
    for r, tokens in enumerate(_grid_tokens(state_lines(text), puzzle, "state", error)):
        for c, (tok, line, col) in enumerate(tokens):
            if tok in ("#", "L", "I", "T", "S", ".", "+"):
                state[("shaded", r, c)] = tok not in (".", "+")
            elif tok not in ("?", "_"):
                raise error(f"{tok!r} is not a cell mark for {cell_name(r, c)}: use '#' or a letter "
                            "(shaded), '.' (unshaded), '?' (undecided)", line, col)
    return state


STATE = StateFormat(
    _read_state, lambda puzzle, key, value: f"{cell_name(*key[1:])} is {'shaded' if value else 'unshaded'}",
    lambda key, value: True,
    "the grid: '#' or a letter shaded, '.' (or '+') unshaded, '?' undecided")


# -- the generic generator ----------------------------------------------------------------------
def _second(puzzle: LitsPuzzle, shaded: set[Cell]) -> set[Cell] | None:
    """The shaded cells of a solution of ``puzzle`` other than ``shaded``, or None."""
    encoding = encode(puzzle)
    session = Session(encoding)
    try:
        queries = PuzzleQueries(session, {})
        lits = encoding.layers["shaded"]
        outcome = queries.other_solution(tuple(x if p in shaded else -x for p, x in lits.items()))
        if outcome.status == "unsat":
            return None
        if outcome.status != "sat":
            raise LimitReached("a limit was reached while sampling LITS rooms")
        return {p for p, on in read(encoding, "shaded", outcome.assignment).items() if on}
    finally:
        session.close()


def SAMPLE(rows: int, cols: int, rng: random.Random) -> LitsPuzzle:
    """Rooms around a planted solution, repaired until it is the only one (:mod:`.sampler`)."""
    return sampler.sample(rows, cols, rng, lambda room: LitsPuzzle(numbered(
        rows, cols, [[room[r, c] for c in range(cols)] for r in range(rows)])), _second)


# -- golden samples -----------------------------------------------------------------------------
#: (text, status of ``solve --unique``, solution), checked by hand.
SAMPLES = (
    # satgrid/data/lits.txt g2 (the room sampler, seed 1); its solution checked by hand.
    ("1 1 2 3 3 3\n1 2 2 2 3 3\n1 1 2 4 4 3\n1 4 4 4 4 4\n1 5 4 6 6 4\n5 5 5 5 6 6\n", "unique",
     ("I.T.S.", "ITTTSS", "I..L.S", "ILLL..", ".T.SS.", "TTT.SS")),
    ("1 1 2 2\n1 1 2 2\n", "unsatisfiable", None),  # each room a 2x2 block: an O
    ("1 1 1 1\n2 2 2 2\n", "unsatisfiable", None),  # two I side by side
    ("1 1 1 1 1\n", "multiple", None),  # an I at either end
)
