"""Heyawake: shade cells of a grid divided into rooms.

Rules (Nikoli, "Heyawake"; pzprjs ``heyawake.js``): shaded cells never share a side; the unshaded
cells form one side-connected region; a number in a room counts the shaded cells of the room; no
horizontal or vertical run of unshaded cells crosses two room borders (spans three rooms). A
room without a number may hold any count.

Encoding (:func:`rules`, on the model builder; clause counts and measurements in
``encodings/heyawake.md``):

* ``("shaded", r, c)`` per cell: the primary variables.
* Shaded cells do not touch, and the unshaded cells are connected: the rules Hitori states, the
  core's ``not_adjacent`` and ``connected`` (lazy component cuts, or parent pointers and ranks;
  the smallest-separator cuts are off: slower here, encodings/heyawake.md).
* No unshaded run crosses two room borders: the vocabulary's ``no_run_across`` (a clause per
  minimal straight segment across two borders: one of its cells is shaded).
* A room's number is a clue: exactly ``k`` of the room's cells are shaded (direct clauses, a
  sequential counter or a totalizer by size), behind its selector, so an audit switches numbers
  off. The rules depend on the rooms alone: one encoding serves every numbering of a layout.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, ClassVar

from ... import shading
from ...connectivity import with_eager
from ...formats import puzzlekit, puzzlink, pzprv3
from ...encoding import Encoding
from ...grid import Grid
from ...model import Clue, Model, made_once, read_shading
from ...puzzle import Source, cell_name, shading_rows_from_json
from ...reader import Record, number
from ...rooms import (RoomPuzzle, Rooms, RoomText, canonical, random_rectangles, read_text, room_lines,
                      rooms_json, top_cell)
from .checker import check_heyawake

NAME = "heyawake"
SUMMARY = "Heyawake: shade cells; room numbers count them, shaded cells never touch, unshaded connected"
EXAMPLES = "heyawake.txt"

Cell = tuple[int, int]
Solution = tuple[str, ...]


@dataclass(frozen=True)
class HeyawakePuzzle(RoomPuzzle):
    """A Heyawake grid: ``rooms`` partition it (:mod:`satgrid.rooms`, canonical); ``grid`` holds
    each numbered room's number in the room's top cell (:func:`~satgrid.rooms.top_cell`, where
    pzprjs keeps it; None elsewhere)."""

    genre: ClassVar[str] = NAME

    def room_numbers(self) -> list[int | None]:
        """Each room's number (None: none), in room order."""
        return [self.grid[r][c] for r, c in map(top_cell, self.rooms)]


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
EMPTY = "."


def placed(rows: int, cols: int, rooms: Rooms, numbers: dict[Cell, int],
           error: Callable[[Cell, str], Exception]) -> tuple[tuple[int | None, ...], ...]:
    """The clue grid of ``numbers`` (``{cell: k}``, a number in any cell of its room): each in its
    room's top cell. ``error(cell, message)`` is raised for a second number in a room or a number
    larger than its room can hold (:func:`capacity`: no two shaded cells touch)."""
    room_of = {p: room for room in rooms for p in room}
    values: dict[Cell, int] = {}
    first: dict[Cell, Cell] = {}
    for p in sorted(numbers):
        room, k = room_of[p], numbers[p]
        top = top_cell(room)
        if top in first:
            raise error(p, f"a second number in the room of {cell_name(*top)} (the first at "
                           f"{cell_name(*first[top])})")
        most = capacity(room)
        if k > most:
            raise error(p, f"number {k} is larger than its room can hold: the {len(room)}-cell room of "
                           f"{cell_name(*top)} holds at most {most} shaded cells (no two touching)")
        first[top], values[top] = p, k
    return tuple(tuple(values.get((r, c)) for c in range(cols)) for r in range(rows))


def room_numbers(record: Record, text: RoomText) -> tuple[tuple[int | None, ...], ...]:
    """The clue grid of a text over its rooms: ``.`` (or ``-``) a cell without a number, else the
    number of the cell's room (:func:`placed`), with errors at the token's line and column."""
    numbers: dict[Cell, int] = {}
    where: dict[Cell, tuple[int, int]] = {}
    for r, (line, tokens) in enumerate(text.clues):
        for c, (tok, col) in enumerate(tokens):
            if tok in (EMPTY, "-"):
                continue
            k = number(tok)
            if k is None:
                hint = " (a room's number must be known)" if tok == "?" else ""
                raise record.error(f"token {tok!r} is not a room's number or '.' (no number){hint}", line, col)
            numbers[r, c], where[r, c] = k, (line, col)
    return placed(text.rows, text.cols, text.rooms, numbers, lambda p, message: record.error(message, *where[p]))


def parse(record: Record) -> HeyawakePuzzle:
    """The clue grid (:func:`room_numbers`), then a grid of room ids as many rows high
    (:func:`satgrid.rooms.read_text`: a room is a side-connected group of one id)."""
    text = read_text(record)
    for key, actual in (("rows", text.rows), ("cols", text.cols)):
        if key in record.meta and number(record.meta[key]) != actual:
            raise record.error(f"header says {key}: {record.meta[key]}, the grid has {actual}")
    return HeyawakePuzzle(room_numbers(record, text), record.name, Source(record.source, record.line),
                          rooms=text.rooms)


def render(puzzle: HeyawakePuzzle, solution: Solution | None = None) -> str:
    """The clue grid (numbers, ``#`` shaded, ``.``; columns line up), then the room ids 1..n."""
    clue_rows = [["#" if solution is not None and solution[r][c] == "#" else EMPTY if v is None else str(v)
                  for c, v in enumerate(row)] for r, row in enumerate(puzzle.grid)]
    width = max(len(t) for row in clue_rows for t in row)
    return "\n".join([*(" ".join(t.rjust(width) for t in row) for row in clue_rows),
                      *room_lines(puzzle.rows, puzzle.cols, puzzle.rooms)])


def puzzle_json(puzzle: HeyawakePuzzle) -> dict:
    """``{"numbers": rows (null: none), "rooms": rows of room ids 1..n}``."""
    return {"numbers": [list(row) for row in puzzle.grid], "rooms": rooms_json(puzzle.rows, puzzle.cols, puzzle.rooms)}


def puzzle_from_json(record: Record, value: object) -> HeyawakePuzzle:
    """The inverse of :func:`puzzle_json`, written out as text and parsed (so its checks apply)."""
    if not (isinstance(value, dict) and isinstance(value.get("numbers"), list)
            and isinstance(value.get("rooms"), list)):
        raise record.error('not {"numbers": rows, "rooms": rows}')
    lines = []
    for row in [*value["numbers"], *value["rooms"]]:
        if not isinstance(row, list) or not all(v is None or (type(v) is int and v >= 0)
                                                or (isinstance(v, str) and v.isalnum()) for v in row):
            raise record.error("a row holds something other than numbers (null: none) or room ids")
        lines.append((record.line, " ".join(EMPTY if v is None else str(v) for v in row)))
    return parse(record.part(record.line, lines, record.name))


# -- the rules ----------------------------------------------------------------------------------
def rules(m: Model, rooms: Rooms) -> None:
    """The four rules of the module docstring, each room's number a clue at its top cell."""
    shaded = m.cells("shaded")
    unshaded = {p: -x for p, x in shaded.items()}
    m.not_adjacent("shaded cells do not touch", shaded)
    m.connected("unshaded cells are connected", unshaded, separators=False)
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
    return with_eager((variables, clauses), cells, connectivity)


solution_from_json = shading_rows_from_json


#: A block's ``solution:`` section: rows of ``#`` (shaded) and ``.`` or ``+`` (unshaded), one
#: character a cell, or tokens as :func:`render` prints them (a number: unshaded).
parse_solution = shading.parse_shading
#: ``hint --state``: the grid, ``#`` shaded, ``.``/``+`` unshaded, ``?`` or the number undecided.
STATE = shading.STATE



# -- generation ---------------------------------------------------------------------------------
#: The generator's rooms: rectangles of sides up to this (published puzzles mostly have rooms of
#: 2 to 9 cells; smaller rooms make full numberings unique more often, encodings/heyawake.md).
ROOM_SIDE = 3


def SAMPLE(rows: int, cols: int, rng: random.Random) -> HeyawakePuzzle:
    """A puzzle with every room numbered, for the generic generator (which keeps it only if it is
    unique, then removes numbers).

    1. Random rectangular rooms (:func:`satgrid.rooms.random_rectangles`, sides 1..:data:`ROOM_SIDE`,
       at least two cells when the grid allows) and a random solution of the rules on them (the
       generic generator's random phases; a layout without one is drawn again).
    2. The solution grown: further cells shaded in random order while no two shaded cells touch
       and the unshaded cells stay connected (the run rule only gains from shading; a fuller
       shading leaves fewer rivals).
    3. Every room numbered with its count; while another solution exists, a room holding a cell
       where the two differ is cut in two along a row or column line (chosen at random among the
       cuts after which the solution still keeps the run rule), and numbered again. Each cut adds
       a room, and single cells leave no rival, so this ends; when no cut fits, the puzzle goes
       back as it is (the generic generator draws again)."""
    from ... import api
    from ...generators.generic import random_solution
    from ...registry import genre

    least = 2 if min(rows, cols) >= 2 else 1
    grid = Grid.of(rows, cols)
    while True:
        found = random_rectangles(rows, cols, rng, ROOM_SIDE, least)
        solution = random_solution(genre(NAME), _numbered(rows, cols, found, set()), rng)
        if solution is not None:
            break
    shaded = {p for p in grid.cells if solution[p[0]][p[1]] == "#"}
    order = list(grid.cells)
    rng.shuffle(order)
    for p in order:
        if p not in shaded and not any(q in shaded for q in grid.neighbours(p)) \
                and len(grid.components(q for q in grid.cells if q not in shaded and q != p)) <= 1:
            shaded.add(p)
    rows_of = tuple("".join("#" if (r, c) in shaded else "." for c in range(cols)) for r in range(rows))
    while True:
        puzzle = _numbered(rows, cols, found, shaded)
        other = api.solve(puzzle, unique=True).second_solution
        if other is None:
            return puzzle
        differ = [p for p in grid.cells if other[p[0]][p[1]] != rows_of[p[0]][p[1]]]
        rng.shuffle(differ)
        cut = next((parts for p in differ for parts in _cuts(found, p, rng)
                    if check_heyawake(rows, cols, parts, {}, rows_of) == []), None)
        if cut is None:
            return puzzle
        found = cut


def _numbered(rows: int, cols: int, found: Rooms, shaded: set[Cell]) -> HeyawakePuzzle:
    """The puzzle on rooms ``found`` with each room's count of ``shaded`` cells as its number."""
    grid = [[None] * cols for _ in range(rows)]
    for room in found:
        r, c = top_cell(room)
        grid[r][c] = sum(p in shaded for p in room)
    return HeyawakePuzzle(tuple(map(tuple, grid)), rooms=found)


def _cuts(found: Rooms, p: Cell, rng: random.Random) -> list[Rooms]:
    """The rooms with the (rectangular) room of ``p`` cut in two along one row or column line,
    every such cut in random order."""
    room = next(room for room in found if p in room)
    rest = [other for other in found if other is not room]
    out = []
    for axis in (0, 1):
        for line in sorted({q[axis] for q in room})[1:]:
            out.append(canonical([*rest, [q for q in room if q[axis] < line], [q for q in room if q[axis] >= line]]))
    rng.shuffle(out)
    return out


# -- formats ------------------------------------------------------------------------------------
_NO_UNKNOWN = "a '?' number: satgrid's Heyawake needs every room number's value"


def _from_url(parts: puzzlink.Parts) -> HeyawakePuzzle:
    """The rooms of the border body and the room numbers (room order), placed in top cells."""
    found: Rooms = parts["rooms"]
    numbers = {top_cell(room): k for room, k in zip(found, parts["room numbers"]) if k is not None}
    index = {top_cell(room): i for i, room in enumerate(found)}
    grid = placed(parts.rows, parts.cols, found, numbers,
                  lambda p, message: parts.error("room numbers", index[p], message))
    return HeyawakePuzzle(grid, "", parts.source, rooms=found)


#: puz.link ``heyawake`` (pzprjs ``heyawake.js``, ``decodePzpr``: ``decodeBorder`` then
#: ``decodeRoomNumber16``): the room borders, then one number a room in room order.
PUZZLINK = puzzlink.Codec(
    pids=("heyawake",), body=(puzzlink.ROOMS, puzzlink.room_numbers()), read=_from_url,
    write=lambda puzzle: {"rooms": puzzle.rooms, "room numbers": puzzle.room_numbers()})


def _from_pzprv3(grids: pzprv3.Grids) -> tuple[HeyawakePuzzle, Solution | None]:
    """The rooms, the clue grid (a number in any cell of its room, as :func:`placed` checks) and
    the answer when a cell of it is shaded."""
    found = pzprv3.rooms_of(grids)
    numbers: dict[Cell, int] = {}
    for r, row in enumerate(grids["clue grid"]):
        for c, v in enumerate(row):
            if v == "?":
                raise grids.error("clue grid", r, c, _NO_UNKNOWN)
            if v is not None:
                numbers[r, c] = v
    grid = placed(grids.rows, grids.cols, found, numbers,
                  lambda p, message: grids.error("clue grid", p[0], p[1], message))
    puzzle = HeyawakePuzzle(grid, "", grids.source, rooms=found)
    return puzzle, shading.pzprv3_solution(grids)


#: pzprv3 ``heyawake`` (``FileIO``: ``decodeAreaRoom``, ``decodeCellQnum``, ``decodeCellAns``):
#: the room count and room grid, the clue grid, then the answer.
PZPRV3 = pzprv3.Codec(
    pids=("heyawake",),
    sections=(*pzprv3.room_sections(), pzprv3.Section("clue grid", pzprv3.clues(0, lambda rows, cols: rows * cols)),
              pzprv3.Section("answer", pzprv3.SHADING, answer=True)),
    read=_from_pzprv3,
    write=lambda puzzle, solution: {**pzprv3.room_grids(puzzle.rows, puzzle.cols, puzzle.rooms),
                                    "clue grid": [list(row) for row in puzzle.grid],
                                    "answer": shading.pzprv3_answer(puzzle, solution)})


def _puzzlekit_rows(puzzle: HeyawakePuzzle, solution: Solution | None) -> tuple[list[list[str]], list[list[str]] | None]:
    """The dataset's problem (the clue grid, ``-`` no number, then room ids 1..n) and solution
    (``x`` shaded, ``-`` unshaded)."""
    clues = [["-" if v is None else str(v) for v in row] for row in puzzle.grid]
    ids = [[str(k) for k in row] for row in rooms_json(puzzle.rows, puzzle.cols, puzzle.rooms)]
    answer = None if solution is None else [["x" if ch == "#" else "-" for ch in row] for row in solution]
    return clues + ids, answer


#: The puzzlekit dataset's Heyawake grids (``assets/data/Heyawake``): the clue grid (``-`` no
#: number; a room's number in its top-left cell), then the room ids; solution ``x`` shaded.
PUZZLEKIT = puzzlekit.Codec(
    "Heyawake",
    problem=puzzlekit.WithRooms(puzzlekit.Tokens({"-": "."})),
    solution=puzzlekit.Tokens({"x": "#", "-": "."}, strict=True),
    solver="heyawake",
    write=_puzzlekit_rows,
)


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
    return shading.draw(puzzle, solution, marks, svg.rooms(puzzle))


# -- repair -------------------------------------------------------------------------------------
def CANDIDATES(puzzle: HeyawakePuzzle, solution: Solution) -> dict[Cell, int]:
    """The numbers a repair may add: in every room without one (at its top cell), the room's
    shaded cells."""
    return {top: sum(solution[r][c] == "#" for r, c in room)
            for room in puzzle.rooms if puzzle.grid[(top := top_cell(room))[0]][top[1]] is None}
