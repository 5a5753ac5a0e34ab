"""Heyawake: shade cells of a grid divided into rooms.

Rules (Nikoli, "Heyawake"; pzprjs ``heyawake.js``): shaded cells never share a side; the unshaded
cells form one side-connected region; a number in a room counts the shaded cells of the room; no
horizontal or vertical run of unshaded cells crosses two room borders (spans three rooms). A
room without a number may hold any count.

Encoding (:func:`rules`, on the model builder; clause counts and measurements in
``encodings/heyawake.md``):

* ``("shaded", r, c)`` per cell: the primary variables.
* Shaded cells do not touch, and the unshaded cells are connected: the rules Hitori states, the
  core's ``not_adjacent`` and ``connected`` (lazy cuts, or parent pointers and ranks).
* No unshaded run crosses two room borders: the vocabulary's ``no_run_across`` (a clause per
  minimal straight segment across two borders: one of its cells is shaded).
* A room's number is a clue: exactly ``k`` of the room's cells are shaded (direct clauses, a
  sequential counter or a totalizer by size), behind its selector, so an audit switches numbers
  off. The rules depend on the rooms alone: one encoding serves every numbering of a layout.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from ... import shading
from ...encoding import Encoding
from ...grid import Grid
from ...model import Clue, Model, made_once, read_shading
from ...puzzle import GridPuzzle, Source, cell_name, shading_rows_from_json
from ...reader import Record, number
from .checker import check_heyawake

NAME = "heyawake"
SUMMARY = "Heyawake: shade cells; room numbers count them, shaded cells never touch, unshaded connected"
EXAMPLES = "heyawake.txt"

Cell = tuple[int, int]
Rooms = tuple[tuple[Cell, ...], ...]
Solution = tuple[str, ...]


@dataclass(frozen=True)
class HeyawakePuzzle(GridPuzzle):
    """A Heyawake grid: ``rooms`` partition it (each room's cells in reading order, rooms by their
    first cell); ``grid`` holds each numbered room's number in the room's top cell
    (:func:`top_cell`; None elsewhere)."""

    genre: ClassVar[str] = NAME
    rooms: Rooms = ()


def top_cell(room: tuple[Cell, ...]) -> Cell:
    """pzprjs's top cell of a room, where it keeps the room's number: the topmost cell of the
    leftmost column."""
    return min(room, key=lambda p: (p[1], p[0]))


# -- room capacities ----------------------------------------------------------------------------
def capacity(room: tuple[Cell, ...]) -> int:
    """The most cells of ``room`` no two of which share a side: the room's size less a maximum
    matching of its side-adjacency graph, which is bipartite (König's theorem); the matching by
    augmenting paths (Kuhn's algorithm) from the cells of even colour."""
    inside = set(room)
    match: dict[Cell, Cell] = {}

    def augment(p: Cell, seen: set[Cell]) -> bool:
        r, c = p
        for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if q in inside and q not in seen:
                seen.add(q)
                if q not in match or augment(match[q], seen):
                    match[q] = p
                    return True
        return False

    pairs = sum(augment(p, set()) for p in room if (p[0] + p[1]) % 2 == 0)
    return len(room) - pairs


# -- text ---------------------------------------------------------------------------------------
Token = tuple[str, int, int]  # (text, line, column)
_TOKEN = re.compile(r"\S+")
EMPTY = "."


def _token_rows(record: Record, lines: list[tuple[int, str]]) -> list[list[Token]]:
    """The non-blank lines as rows of ``(token, line, column)``, all as wide as the first."""
    rows: list[list[Token]] = []
    for n, text in lines:
        tokens = [(m.group(), n, m.start() + 1) for m in _TOKEN.finditer(text)]
        if tokens:
            if rows and len(tokens) != len(rows[0]):
                raise record.error(f"row has {len(tokens)} cells, the first row has {len(rows[0])} "
                                   "(rows must be equally long)", n)
            rows.append(tokens)
            record.check_cells(len(rows), len(tokens), n)
    return rows


def room_numbers(record: Record, rows: list[list[Token]], rooms: Rooms) -> tuple[tuple[int | None, ...], ...]:
    """The clue grid over its rooms: ``.`` (or ``-``) a cell without a number, else the number of
    the cell's room, in any cell of it (at most one a room), no larger than the room can hold
    (:func:`capacity`). The grid that comes out holds each number in its room's top cell."""
    room_of = {p: room for room in rooms for p in room}
    where: dict[Cell, Token] = {}
    values: dict[Cell, int] = {}
    for r, row in enumerate(rows):
        for c, (tok, line, col) in enumerate(row):
            if tok in (EMPTY, "-"):
                continue
            k = number(tok)
            if k is None:
                hint = " (a room's number must be known)" if tok == "?" else ""
                raise record.error(f"token {tok!r} is not a room's number or '.' (no number){hint}", line, col)
            room = room_of[r, c]
            top = top_cell(room)
            if top in where:
                raise record.error(f"a second number in the room of {cell_name(*top)} (its first at "
                                   f"line {where[top][1]}, column {where[top][2]})", line, col)
            most = capacity(room)
            if k > most:
                raise record.error(f"number {tok} is larger than its room can hold: the {len(room)}-cell "
                                   f"room of {cell_name(*top)} holds at most {most} shaded cells "
                                   "(no two touching)", line, col)
            where[top], values[top] = (tok, line, col), k
    height, width = len(rows), len(rows[0]) if rows else 0
    return tuple(tuple(values.get((r, c)) for c in range(width)) for r in range(height))


def parse(record: Record) -> HeyawakePuzzle:
    """The clue grid (:func:`room_numbers`), then as many rows of room ids (a room: side-connected
    cells of one id)."""
    rows = _token_rows(record, record.lines)
    if not rows or len(rows) % 2:
        raise record.error("a Heyawake grid is a clue grid followed by a room id grid of as many rows")
    height, width = len(rows) // 2, len(rows[0])
    ids = [[tok for tok, _, _ in row] for row in rows[height:]]
    rooms = tuple(tuple(room) for room in Grid.of(height, width).rooms_from_ids(ids))
    grid = room_numbers(record, rows[:height], rooms)
    return HeyawakePuzzle(grid, record.name, Source(record.source, record.line), rooms=rooms)


def _ids(puzzle: HeyawakePuzzle) -> list[list[str]]:
    """A room id a cell: rooms numbered in reading order of their first cells."""
    ids = [[""] * puzzle.cols for _ in range(puzzle.rows)]
    for i, room in enumerate(puzzle.rooms):
        for r, c in room:
            ids[r][c] = str(i)
    return ids


def render(puzzle: HeyawakePuzzle, solution: Solution | None = None) -> str:
    """The clue grid (numbers, ``#`` shaded, ``.``), then the room ids; columns line up."""
    ids = _ids(puzzle)
    clue_rows = [["#" if solution is not None and solution[r][c] == "#" else EMPTY if v is None else str(v)
                  for c, v in enumerate(row)] for r, row in enumerate(puzzle.grid)]
    width = max(len(t) for row in clue_rows + ids for t in row)
    return "\n".join(" ".join(t.rjust(width) for t in row) for row in clue_rows + ids)


def puzzle_json(puzzle: HeyawakePuzzle) -> dict:
    """``{"numbers": rows (null: none), "rooms": rows of room ids}``."""
    return {"numbers": [list(row) for row in puzzle.grid], "rooms": [[int(i) for i in row] for row in _ids(puzzle)]}


def puzzle_from_json(record: Record, value: object) -> HeyawakePuzzle:
    """The inverse of :func:`puzzle_json`, written out as text and parsed (so its checks apply)."""
    if not (isinstance(value, dict) and isinstance(value.get("numbers"), list)
            and isinstance(value.get("rooms"), list)):
        raise record.error('not {"numbers": rows, "rooms": rows}')
    lines = []
    for row in [*value["numbers"], *value["rooms"]]:
        if not isinstance(row, list) or not all(v is None or (type(v) is int and v >= 0) for v in row):
            raise record.error("a row holds something other than numbers (null: none)")
        lines.append((record.line, " ".join(EMPTY if v is None else str(v) for v in row)))
    return parse(record.part(record.line, lines, record.name))


# -- the rules ----------------------------------------------------------------------------------
def rules(m: Model, rooms: Rooms) -> None:
    """The four rules of the module docstring, each room's number a clue at its top cell."""
    shaded = m.cells("shaded")
    unshaded = {p: -x for p, x in shaded.items()}
    m.not_adjacent("shaded cells do not touch", shaded)
    m.connected("unshaded cells are connected", unshaded)
    room_of = {p: i for i, room in enumerate(rooms) for p in room}
    m.no_run_across("no unshaded run crosses two room borders", unshaded,
                    lambda p, q: room_of[p] != room_of[q], 2)
    room_at = {top_cell(room): room for room in rooms}

    @m.clue
    def number(c: Clue, cell: Cell, k: object) -> None:
        c.exactly([shaded[p] for p in room_at[cell]], int(k))  # type: ignore[call-overload]


@made_once()
def build(rows: int, cols: int, rooms: Rooms) -> Encoding:
    """The encoding of every puzzle on one room layout, made once and copied per solver."""
    m = Model(Grid.of(rows, cols))
    rules(m, rooms)
    return m.build()


def cache_key(puzzle: HeyawakePuzzle) -> tuple:
    """The room layout: the numbers are clues behind selectors."""
    return (NAME, puzzle.rows, puzzle.cols, puzzle.rooms)


def encode(puzzle: HeyawakePuzzle) -> Encoding:
    return build(puzzle.rows, puzzle.cols, puzzle.rooms)


def decode(puzzle: HeyawakePuzzle, encoding: Encoding, value) -> Solution:
    return read_shading(encoding, "shaded", value, puzzle.rows, puzzle.cols)


def check(puzzle: HeyawakePuzzle, solution: Solution) -> list[str]:
    return check_heyawake(puzzle.rows, puzzle.cols, puzzle.rooms, puzzle.numbers(), solution)


def estimate(rows: int, cols: int, connectivity: str = "lazy") -> tuple[int, int]:
    """(variables, clauses) expected of the encoding of a rows x cols grid, from the grid alone:
    a variable a cell and the room counts' auxiliaries, two neighbour clauses a cell, fewer run
    clauses, and the room counts (up to seven clauses a cell on the published puzzles with big
    rooms); the eager connectivity rule adds parent pointers and ranks as for Hitori. The figures
    behind the constants are in encodings/heyawake.md."""
    cells = rows * cols
    variables, clauses = 4 * cells, 10 * cells
    if connectivity == "eager":
        bits = max(1, (max(cells, 2) - 1).bit_length())
        variables += 5 * bits * cells
        clauses += 13 * bits * cells
    return variables, clauses


solution_from_json = shading_rows_from_json


def _label(puzzle: HeyawakePuzzle) -> shading.Label:
    """The token a cell shows: its room's number, in the room's top cell."""
    return lambda r, c: None if puzzle.grid[r][c] is None else str(puzzle.grid[r][c])


def parse_solution(record: Record, puzzle: HeyawakePuzzle) -> Solution | None:
    """A block's ``solution:`` section: rows of ``#`` (shaded) and ``.`` or ``+`` (unshaded),
    one character a cell, or tokens as :func:`render` prints them (a number: unshaded)."""
    return shading.parse_solution(record, puzzle, _label(puzzle))


STATE = shading.state(_label)



# -- golden samples -----------------------------------------------------------------------------
#: (text, status of ``solve --unique``, solution), each checked against brute force over every
#: shading (tests/test_heyawake.py): six rooms and one number; one room without a number (any
#: one cell, or none, may be shaded); three rooms in a row, each with 0 (the row must be broken).
SAMPLES = (
    (". . . .\n. . . .\n2 . . .\n. . . .\n1 1 2 3\n1 1 2 3\n4 4 4 3\n5 5 6 6\n", "unique",
     ("...#", ".#..", "#.#.", "....")),
    (". .\n. .\n1 1\n1 1\n", "multiple", None),
    ("0 0 0\n1 2 3\n", "unsatisfiable", None),
)


# -- drawing ------------------------------------------------------------------------------------
from ... import render_svg as svg  # noqa: E402  (kept with the parts that use it)


def DRAW(puzzle: HeyawakePuzzle, solution: Solution | None, marks: svg.Marks) -> list[str]:
    """The grid, its rooms' borders bold and the numbers; a solution's shaded cells black."""
    room_of = {p: i for i, room in enumerate(puzzle.rooms) for p in room}
    return shading.draw(puzzle, solution, marks, puzzle.numbers(),
                        svg.room_borders(puzzle, lambda r, c: room_of[r, c]))
