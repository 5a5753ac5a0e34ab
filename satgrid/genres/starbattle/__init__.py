"""Star Battle: place k stars in every row, column and room; no two stars touch, diagonals included.

Rules (Nikoli; janko.at "Sternenschlacht"; pzprjs ``starbattle.js``): the grid is divided into
rooms; every row, every column and every room holds exactly ``k`` stars (``k``, the star count,
is part of the puzzle); no two stars touch, neither by a side nor by a corner.

Star Battle has **no clues** beyond the room layout and ``k``: nothing in the puzzle can be
switched off, so an audit has no clue to test (it reports 0 of 0 clues, minimal) and the
generator's work is the room layout itself.

Encoding (:func:`rules`, on the model builder; clause counts and measurements in
``encodings/starbattle.md``):

* ``("star", r, c)`` per cell: the primary variables.
* ``k`` stars in every row, column and room: ``exactly k`` over the line's or room's stars
  (direct clauses for small lines, a sequential counter beyond, :func:`satgrid.cnf.exactly`).
* Stars do not touch: the vocabulary's :meth:`~satgrid.model.Model.not_touching`, a binary clause
  per pair of cells a king's move apart.

The encoding depends on the rooms and ``k`` (``cache_key``), not on anything a query switches.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from ...encoding import Encoding
from ...errors import ParseError
from ...grid import Grid, king_packing_bound
from ...model import Model, made_once, read_shading
from ...puzzle import GridPuzzle, Source, cell_name, shading_rows_from_json
from ...reader import Record, number
from .checker import check_starbattle

NAME = "starbattle"
ALIASES = ("star-battle",)
SUMMARY = "Star Battle: k stars in every row, column and room; stars never touch, not even diagonally"
EXAMPLES = "starbattle.txt"

Cell = tuple[int, int]
Solution = tuple[str, ...]  # rows of "#" (a star) and "." (no star)

#: Tokens that mean something in a solution or a hint state, so never a room id.
MARKS = ("*", "#", ".", "+", "-", "?", "_")
#: The header key of the star count.
STARS = "stars"


@dataclass(frozen=True)
class StarBattlePuzzle(GridPuzzle):
    """The room id of every cell (``grid``, strings, row by row) and the star count ``stars``
    (``k``): stars per row, column and room. It has no clues (:meth:`clues` is empty)."""

    genre: ClassVar[str] = NAME
    stars: int = 1

    def clues(self) -> dict[Cell, Any]:
        """None: the rooms and ``k`` are the puzzle, not clues a query could switch off."""
        return {}

    def with_clues(self, clues: dict[Cell, Any]) -> "StarBattlePuzzle":
        return replace(self, given_solution=None)

    def rooms(self) -> list[list[Cell]]:
        """The rooms: side-connected groups of cells with one id, ordered by first cell."""
        return Grid.of(self.rows, self.cols).rooms_from_ids(self.grid)

    def room_index(self) -> tuple[tuple[int, ...], ...]:
        """Each cell's room as its index in :meth:`rooms`: the layout without its ids' spelling."""
        index = {p: i for i, room in enumerate(self.rooms()) for p in room}
        return tuple(tuple(index[r, c] for c in range(self.cols)) for r in range(self.rows))


# -- text -----------------------------------------------------------------------------------------
_TOKEN = re.compile(r"\S+")
_STARS_LINE = re.compile(r"^\s*stars\s*:\s*(\S*)\s*$", re.IGNORECASE)
Token = tuple[str, int, int]  # text, line, column


def _tokens(line: int, text: str) -> list[Token]:
    """A grid line's cells: whitespace-separated tokens, or one character a cell when the line
    has no whitespace inside (``AABBC``)."""
    if len(text.split()) > 1:
        return [(m.group(), line, m.start() + 1) for m in _TOKEN.finditer(text)]
    start = len(text) - len(text.lstrip())
    return [(ch, line, start + i + 1) for i, ch in enumerate(text.strip())]


def _grid(record: Record, lines: list[tuple[int, str]], what: str, rows: int | None = None,
          cols: int | None = None) -> list[list[Token]]:
    """The rows of a grid as tokens, all of one width (the first row's, or ``cols``)."""
    grid: list[list[Token]] = []
    for n, text in lines:
        if not text.strip():
            continue
        tokens = _tokens(n, text)
        width = cols if cols is not None else len(grid[0]) if grid else len(tokens)
        if len(tokens) != width:
            first = "the grid" if cols is not None else "the first row"
            raise record.error(f"a {what} row of {len(tokens)} cells; {first} has {width} "
                               "(the grid is not rectangular)", n)
        grid.append(tokens)
        record.check_cells(len(grid), width, n)
    if not grid:
        raise record.error(f"no {what} grid found")
    if rows is not None and len(grid) != rows:
        raise record.error(f"the {what} has {len(grid)} rows, the grid {rows}", grid[-1][0][1])
    return grid


def _stars(record: Record, lines: list[tuple[int, str]]) -> tuple[int, list[tuple[int, str]]]:
    """The star count (a header ``stars: k``, or a first body line ``stars: k``) and the rest."""
    found: list[tuple[str, int | None]] = []
    if STARS in record.meta:
        found.append((record.meta[STARS], None))
    body = [(n, t) for n, t in lines if t.strip()]
    if body and _STARS_LINE.match(body[0][1]):
        found.append((_STARS_LINE.match(body[0][1]).group(1), body[0][0]))  # type: ignore[union-attr]
        body = body[1:]
    if not found:
        raise record.error("no star count: a Star Battle needs a header line 'stars: k' (k stars "
                           "in every row, column and room)")
    values = []
    for text, line in found:
        k = number(text)
        if k is None or k < 1:
            raise record.error(f"the star count {text!r} is not a whole number of at least 1", line)
        values.append(k)
    if len(set(values)) > 1:
        raise record.error(f"two star counts that differ: {values[0]} and {values[1]}", found[1][1])
    return values[0], body


def parse(record: Record) -> StarBattlePuzzle:
    """A header ``stars: k`` and the room grid: a room id a cell (any token but ``* # . + - ? _``),
    whitespace-separated or one character a cell. Refused with their place: a grid that is not
    a rectangle, not square (k stars in every row and every column), a room id in two separate
    pieces, as many rooms as rows, and a ``k`` that cannot fit (:func:`fits`)."""
    k, body = _stars(record, record.lines)
    grid = _grid(record, body, "room")
    for row in grid:
        for tok, line, col in row:
            if tok in MARKS:
                raise record.error(f"{tok!r} is not a room id (it marks cells in solutions and "
                                   "hint states)", line, col)
    rows, cols = len(grid), len(grid[0])
    if rows != cols:
        raise record.error(f"a {rows}x{cols} grid: Star Battle's grid is square ({_stars_text(k)} in "
                           f"every row make {k * rows}, in every column {k * cols})", grid[-1][0][1])
    ids = tuple(tuple(tok for tok, _, _ in row) for row in grid)
    puzzle = StarBattlePuzzle(ids, record.name, Source(record.source, record.line), stars=k)
    rooms = puzzle.rooms()
    place = {(r, c): (line, col) for r, row in enumerate(grid) for c, (_, line, col) in enumerate(row)}
    first: dict[str, Cell] = {}
    for room in rooms:
        r, c = room[0]
        if ids[r][c] in first:
            other = first[ids[r][c]]
            raise record.error(f"room id {ids[r][c]!r} is in separate pieces ({cell_name(*other)} and "
                               f"{cell_name(r, c)}): give each piece its own id", *place[r, c])
        first[ids[r][c]] = (r, c)
    if len(rooms) != rows:
        raise record.error(f"{len(rooms)} rooms in a {rows}x{cols} grid: Star Battle has one room "
                           f"per row ({_stars_text(k)} in every row and in every room)")
    for problem, cell in fits(puzzle):
        raise record.error(problem, *(place[cell] if cell else (None, None)))
    return puzzle


def _stars_text(k: int) -> str:
    return f"{k} star" if k == 1 else f"{k} stars"


def fits(puzzle: StarBattlePuzzle) -> list[tuple[str, Cell | None]]:
    """Why ``k`` non-touching stars cannot fit (with the cell to point at): a row (``ceil(n/2)``
    stars at most), two neighbouring rows or columns (they share ``ceil(n/2)`` 2x2 blocks, which
    hold one star each, and need ``2k``), or a room (the fewest 2x2 blocks of a tiling it meets,
    :func:`~satgrid.grid.king_packing_bound`). An upper bound below ``k`` means no solution."""
    k, n = puzzle.stars, puzzle.rows
    problems: list[tuple[str, Cell | None]] = []
    if (n + 1) // 2 < k:
        problems.append((f"{_stars_text(k)} cannot fit in a row of {n} cells without touching "
                         f"(at most {(n + 1) // 2})", None))
    elif n > 1 and (n + 1) // 2 < 2 * k:
        problems.append((f"{_stars_text(k)} in each of two neighbouring rows cannot fit: two rows of {n} "
                         f"cells hold at most {(n + 1) // 2} stars that do not touch", None))
    for room in puzzle.rooms():
        most = king_packing_bound(room)
        if most < k:
            r, c = room[0]
            problems.append((f"{_stars_text(k)} cannot fit in the room of {cell_name(r, c)} "
                             f"({puzzle.grid[r][c]!r}, {len(room)} cells): at most {most} without "
                             "touching", room[0]))
    return problems


def parse_solution(record: Record, puzzle: StarBattlePuzzle) -> Solution | None:
    """A ``solution:`` section: rows of ``*`` or ``#`` (a star) and ``.``, ``+``, ``-`` or the
    cell's room id (no star), as :func:`render` prints them."""
    if not any(t.strip() for _, t in record.solution_lines):
        return None
    rows = []
    for r, row in enumerate(_grid(record, record.solution_lines, "solution", puzzle.rows, puzzle.cols)):
        out = []
        for c, (tok, line, col) in enumerate(row):
            if tok in ("*", "#"):
                out.append("#")
            elif tok in (".", "+", "-") or tok == puzzle.grid[r][c]:
                out.append(".")
            else:
                raise record.error(f"{tok!r} is not a solution cell for {cell_name(r, c)}: use '*' (a "
                                   "star), '.' or the cell's room id", line, col)
        rows.append("".join(out))
    return tuple(rows)


# -- the rules ------------------------------------------------------------------------------------
def rules(m: Model, puzzle: StarBattlePuzzle) -> None:
    """The rulebook: k stars in every row, column and room; stars never touch."""
    star = m.cells("star")
    k = puzzle.stars
    for line in m.grid.lines():
        m.count_in("k stars in every row and column", line, star, k)
    for room in puzzle.rooms():
        m.count_in("k stars in every room", room, star, k)
    m.not_touching("stars do not touch, not even diagonally", star)


@made_once()
def build(rows: int, cols: int, stars: int, layout: tuple[tuple[int, ...], ...]) -> Encoding:
    """The encoding of one room layout and star count (made once, copied per solver)."""
    m = Model(Grid.of(rows, cols))
    rules(m, StarBattlePuzzle(layout, stars=stars))
    return m.build()


def cache_key(puzzle: StarBattlePuzzle) -> tuple:
    return (NAME, puzzle.stars, puzzle.room_index())


def encode(puzzle: StarBattlePuzzle) -> Encoding:
    return build(puzzle.rows, puzzle.cols, puzzle.stars, puzzle.room_index())


def decode(puzzle: StarBattlePuzzle, encoding: Encoding, value) -> Solution:
    return read_shading(encoding, "star", value, puzzle.rows, puzzle.cols)


def check(puzzle: StarBattlePuzzle, solution: Solution) -> list[str]:
    return check_starbattle(puzzle.grid, puzzle.stars, solution)


# -- output and JSON ------------------------------------------------------------------------------
def render(puzzle: StarBattlePuzzle, solution: Solution | None = None) -> str:
    """The room grid, a solution's stars as ``*``; columns line up."""
    width = max(len(t) for row in puzzle.grid for t in row)
    return "\n".join(" ".join(("*" if solution is not None and solution[r][c] == "#" else t).rjust(width)
                              for c, t in enumerate(row)) for r, row in enumerate(puzzle.grid))


def puzzle_meta(puzzle: StarBattlePuzzle) -> dict[str, str]:
    return {STARS: str(puzzle.stars)}


def puzzle_json(puzzle: StarBattlePuzzle) -> list[list[str]]:
    """Rows of room ids (``stars`` is a key of its own, :func:`puzzle_meta`)."""
    return [list(row) for row in puzzle.grid]


def puzzle_from_json(record: Record, value: object) -> StarBattlePuzzle:
    """The inverse of :func:`puzzle_json` (with ``stars`` among the record's keys), through
    :func:`parse`, so its checks apply."""
    if not (isinstance(value, list) and value and all(
            isinstance(row, list) and row and all(isinstance(t, (str, int)) and not isinstance(t, bool)
                                                  and str(t).strip() == str(t) and str(t) for t in row)
            for row in value)):
        raise record.error("not a list of rows of room ids")
    lines = [(record.line, " ".join(str(t) for t in row)) for row in value]
    return parse(record.part(record.line, lines, record.name))


solution_from_json = shading_rows_from_json


def estimate(rows: int, cols: int, connectivity: str = "lazy") -> tuple[int, int]:
    """(variables, clauses) of a rows x cols grid: a variable a cell, four touching pairs a cell,
    and the counts of rows, columns and rooms (sequential counters: about 3 auxiliaries and 7
    clauses a cell each, for a ``k`` near ``rows / 5``). The figures behind the constants are in
    encodings/starbattle.md."""
    cells = rows * cols
    k = max(1, min(rows, cols) // 5)
    return cells * (1 + 9 * k), cells * (4 + 21 * k)


# -- golden samples -------------------------------------------------------------------------------
#: (text, status of ``solve --unique``, solution), each checked against the rules by hand (and by
#: brute force over every placement in tests/test_starbattle.py).
SAMPLES = (
    ("stars: 1\nb b b b d\nb d d d d\nc d d d d\nc a e e e\na a e e e\n", "unique",
     ("..#..", "....#", "#....", "...#.", ".#...")),
    ("stars: 1\nabbb\nabbb\naccd\ncccd\n", "unique", ("..#.", "#...", "...#", ".#..")),
    # a 4x4 with k=1 has two placements (columns 2413 and 3142): room a holds two stars in both
    ("stars: 1\naaab\nacdb\nacdb\nacdd\n", "unsatisfiable", None),
    ("stars: 1\naabbb\naabbb\ncccdd\ncccdd\neeeee\n", "multiple", None),
)


# -- drawing and hints ----------------------------------------------------------------------------
from ... import render_svg as svg  # noqa: E402  (kept with the parts that use it)
from ...grading import StateFormat, state_lines  # noqa: E402


def DRAW(puzzle: StarBattlePuzzle, solution: Solution | None, marks: svg.Marks) -> list[str]:
    """A puzzle book's Star Battle: thin cell lines, bold room borders, ``k`` and a star above
    the grid's right corner as pzprjs shows it; a solution's stars black (red where two solutions
    differ), its other cells a grey dot."""
    index = puzzle.room_index()
    out = [*svg.cells(puzzle, marks), *svg.room_borders(puzzle, lambda r, c: index[r][c]), *svg.border(puzzle),
           *svg.note(puzzle, f"{puzzle.stars} \u2605 in every row, column and room" if puzzle.cols >= 8
                     else f"{puzzle.stars} \u2605")]
    if solution is not None:
        out += svg.stars([(r, c) for r, row in enumerate(solution) for c, x in enumerate(row) if x == "#"], marks)
        out += svg.dotted([(r, c) for r, row in enumerate(solution) for c, x in enumerate(row) if x != "#"])
    return out


def _read_state(puzzle: StarBattlePuzzle, text: str, source: str) -> dict:
    """A hint's partial state: the grid, ``*`` (or ``#``) a star, ``.`` (or ``+``, ``-``) no star,
    ``?`` (or ``_``) or the cell's room id undecided (so :func:`render`'s output reads)."""
    record = Record(source, 1, "", NAME, lines=state_lines(text))
    state = {}
    for r, row in enumerate(_grid(record, record.lines, "state", puzzle.rows, puzzle.cols)):
        for c, (tok, line, col) in enumerate(row):
            if tok in ("*", "#", ".", "+", "-"):
                state[("star", r, c)] = tok in ("*", "#")
            elif tok not in ("?", "_") and tok != puzzle.grid[r][c]:
                raise ParseError(source, line, f"{tok!r} is not a cell mark for {cell_name(r, c)}: use "
                                               "'*' (a star), '.' (no star), '?' or the room id (undecided)", col)
    return state


STATE = StateFormat(
    _read_state, lambda puzzle, key, value: f"{cell_name(*key[1:])} {'holds a star' if value else 'holds no star'}",
    lambda key, value: True,
    "the grid: '*' a star, '.' no star, '?' or the cell's room id undecided")
