"""Star Battle: place k stars in every row, column and room; no two stars touch, diagonals included.

Rules (Nikoli; janko.at "Sternenschlacht"; pzprjs ``starbattle.js``): the grid is divided into
rooms; every row, every column and every room holds exactly ``k`` stars (``k``, the star count,
is part of the puzzle); no two stars touch, neither by a side nor by a corner. janko.at also
has blocked cells (black, in no room, never a star); pzprjs has none.

Star Battle has **no clues** beyond the room layout and ``k``: nothing in the puzzle can be
switched off, so an audit has no clue to test (it says the puzzle has no clues to remove; JSON
``redundant_clues: []``, ``minimal: true``) and the generator's work is the room layout itself.

Encoding (:func:`rules`, on the model builder; clause counts and measurements in
``encodings/starbattle.md``):

* ``("star", r, c)`` per cell: the primary variables.
* ``k`` stars in every row, column and room: ``exactly k`` over the line's or room's stars
  (direct clauses for small lines, a sequential counter beyond, :func:`satgrid.cnf.exactly`).
* Blocked cells hold no star (a unit clause each).
* Stars do not touch: the vocabulary's :meth:`~satgrid.model.Model.not_touching`, a binary clause
  per pair of cells a king's move apart.

The encoding depends on the rooms and ``k`` (``cache_key``), not on anything a query switches.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, ClassVar

from ... import rooms as room_layer
from ...encoding import Encoding
from ...errors import ParseError
from ...grid import Grid, king_packing_bound
from ...model import Model, made_once, read_shading
from ...puzzle import Source, cell_name, shading_rows_from_json
from ...reader import Record, number
from ...rooms import RoomPuzzle, Rooms
from .checker import check_starbattle

NAME = "starbattle"
ALIASES = ("star-battle",)
SUMMARY = "Star Battle: k stars in every row, column and room; stars never touch, not even diagonally"
EXAMPLES = "starbattle.txt"

Cell = tuple[int, int]
Solution = tuple[str, ...]  # rows of "#" (a star) and "." (no star)

#: The header key of the star count.
STARS = "stars"
#: A blocked cell in the room grid: in no room, never a star (janko.at's black cells).
BLOCKED = "#"


@dataclass(frozen=True)
class StarBattlePuzzle(RoomPuzzle):
    """The rooms (:data:`satgrid.rooms.Rooms`) and the star count ``stars`` (``k``): stars per
    row, column and room. The clue grid is empty (every cell None): Star Battle has no clues."""

    genre: ClassVar[str] = NAME
    stars: int = 1


def puzzle_of(rows: int, cols: int, rooms: Rooms, stars: int, name: str = "",
              source: Source = Source()) -> StarBattlePuzzle:
    """The puzzle of a room layout and a star count (the empty clue grid filled in)."""
    return StarBattlePuzzle(((None,) * cols,) * rows, name, source, rooms=rooms, stars=stars)


# -- what a puzzle must satisfy, whatever format it came in -----------------------------------------
def problems(puzzle: StarBattlePuzzle) -> list[tuple[str, Cell | None]]:
    """Why ``puzzle`` cannot be a Star Battle, each with the cell to point at (None: the whole
    puzzle): a grid that is not square (``k`` stars in every row make ``k * rows``, in every
    column ``k * cols``), not one room per row, and a ``k`` that cannot fit in a row or column,
    in two neighbouring ones (``2k``) or in a room, by :func:`~satgrid.grid.king_packing_bound`
    over their cells outside blocked ones (a row of ``n`` free cells holds at most ``ceil(n / 2)``
    stars that do not touch; two rows share 2x2 blocks, which hold one star each). Each bound is
    an upper bound, so nothing with a solution is refused."""
    k, rows, cols = puzzle.stars, puzzle.rows, puzzle.cols
    stars = f"{k} star" if k == 1 else f"{k} stars"
    if k < 1:
        return [(f"the star count {k} is not a whole number of at least 1", None)]
    if rows != cols:
        return [(f"a {rows}x{cols} grid: Star Battle's grid is square ({stars} in every row make "
                 f"{k * rows}, in every column {k * cols})", None)]
    if len(puzzle.rooms) != rows:
        return [(f"{len(puzzle.rooms)} rooms in a {rows}x{cols} grid: Star Battle has one room per "
                 f"row ({stars} in every row and in every room)", None)]
    free = [[puzzle.room_ids[r][c] >= 0 for c in range(cols)] for r in range(rows)]
    for kind, lines in (("row", [[(r, c) for c in range(cols) if free[r][c]] for r in range(rows)]),
                        ("column", [[(r, c) for r in range(rows) if free[r][c]] for c in range(cols)])):
        for i, line in enumerate(lines):
            most = king_packing_bound(line)
            if most < k:
                return [(f"{stars} cannot fit in {kind} {i + 1} ({len(line)} free cells) without "
                         f"touching (at most {most})", None)]
        for i in range(len(lines) - 1):
            most = king_packing_bound(lines[i] + lines[i + 1])
            if most < 2 * k:
                return [(f"{stars} in each of {kind}s {i + 1} and {i + 2} cannot fit: together they "
                         f"hold at most {most} stars that do not touch", None)]
    out: list[tuple[str, Cell | None]] = []
    for room in puzzle.rooms:
        most = king_packing_bound(room)
        if most < k:
            out.append((f"{stars} cannot fit in the room of {cell_name(*room[0])} ({len(room)} "
                        f"cells): at most {most} without touching", room[0]))
    return out


def blocked(puzzle: StarBattlePuzzle) -> list[Cell]:
    """The blocked cells: in no room, never a star (janko.at's black cells)."""
    return [(r, c) for r, row in enumerate(puzzle.room_ids) for c, k in enumerate(row) if k < 0]


def _checked(puzzle: StarBattlePuzzle, error: Callable[[str, Cell | None], Exception]) -> StarBattlePuzzle:
    """``puzzle``, or the first of its :func:`problems` raised through ``error``."""
    for message, cell in problems(puzzle):
        raise error(message, cell)
    return puzzle


# -- text -----------------------------------------------------------------------------------------
_TOKEN = re.compile(r"\S+")
_STARS_LINE = re.compile(r"^\s*stars\s*:\s*(\S*)\s*$", re.IGNORECASE)
Token = tuple[str, int, int]  # text, line, column


def _grid(record: Record, lines: list[tuple[int, str]], what: str, rows: int, cols: int) -> list[list[Token]]:
    """The ``rows x cols`` tokens of a solution or state grid (whitespace-separated, or one
    character a cell in a line without whitespace), with their lines and columns."""
    grid: list[list[Token]] = []
    for n, text in lines:
        if not text.strip():
            continue
        if len(text.split()) > 1:
            tokens = [(m.group(), n, m.start() + 1) for m in _TOKEN.finditer(text)]
        else:
            start = len(text) - len(text.lstrip())
            tokens = [(ch, n, start + i + 1) for i, ch in enumerate(text.strip())]
        if len(tokens) != cols:
            raise record.error(f"a {what} row of {len(tokens)} cells; the grid has {cols}", n)
        grid.append(tokens)
    if len(grid) != rows:
        raise record.error(f"the {what} has {len(grid)} rows, the grid {rows}", grid[-1][0][1] if grid else None)
    return grid


def _stars(record: Record) -> tuple[int, list[tuple[int, str]]]:
    """The star count (a header ``stars: k``, or a first body line ``stars: k``) and the lines
    after it."""
    found: list[tuple[str, int | None]] = []
    if STARS in record.meta:
        found.append((record.meta[STARS], None))
    body = [(n, t) for n, t in record.lines if t.strip()]
    line = _STARS_LINE.match(body[0][1]) if body else None
    if line:
        found.append((line.group(1), body[0][0]))
        body = body[1:]
    if not found:
        raise record.error("no star count: a Star Battle needs a header line 'stars: k' (k stars "
                           "in every row, column and room)")
    values = []
    for text, n in found:
        k = number(text)
        if k is None or k < 1:
            raise record.error(f"the star count {text!r} is not a whole number of at least 1", n)
        values.append(k)
    if len(set(values)) > 1:
        raise record.error(f"two star counts that differ: {values[0]} and {values[1]}", found[1][1])
    return values[0], body


def parse(record: Record) -> StarBattlePuzzle:
    """A header ``stars: k`` and the room grid (:func:`satgrid.rooms.read_text`: a room id a cell,
    letters and digits, ``#`` a blocked cell). Refused with their place: the room layer's errors
    (a grid that is not rectangular, a bad id) and :func:`problems`."""
    k, body = _stars(record)
    text = room_layer.read_text(record.part(body[0][0] if body else record.line, body, record.name),
                                clues=False, outside=(BLOCKED,))
    puzzle = puzzle_of(text.rows, text.cols, text.rooms, k, record.name, Source(record.source, record.line))

    def error(message: str, cell: Cell | None) -> ParseError:
        if cell is None:
            return record.error(message, body[-1][0] if puzzle.rows != puzzle.cols else None)
        return record.error(message, *text.places[cell[0]][cell[1]])

    return _checked(puzzle, error)


def parse_solution(record: Record, puzzle: StarBattlePuzzle) -> Solution | None:
    """A ``solution:`` section: rows of ``*`` (a star) and ``.``, ``+``, ``-``, ``#`` (a blocked
    cell) or a room id (no star), as :func:`render` prints them."""
    if not any(t.strip() for _, t in record.solution_lines):
        return None
    rows = []
    for r, row in enumerate(_grid(record, record.solution_lines, "solution", puzzle.rows, puzzle.cols)):
        out = []
        for c, (tok, line, col) in enumerate(row):
            if tok == "*":
                out.append("#")
            elif tok in (".", "+", "-", BLOCKED) or tok.isalnum():
                out.append(".")
            else:
                raise record.error(f"{tok!r} is not a solution cell for {cell_name(r, c)}: use '*' (a "
                                   "star), '.' or a room id (no star)", line, col)
        rows.append("".join(out))
    return tuple(rows)


# -- the rules ------------------------------------------------------------------------------------
def rules(m: Model, puzzle: StarBattlePuzzle) -> None:
    """The rulebook: k stars in every row, column and room; stars never touch."""
    star = m.cells("star")
    k = puzzle.stars
    for line in m.grid.lines():
        m.count_in("k stars in every row and column", line, star, k)
    for room in puzzle.rooms:
        m.count_in("k stars in every room", room, star, k)
    m.require("blocked cells hold no star", ([-star[p]] for p in blocked(puzzle)))
    m.not_touching("stars do not touch, not even diagonally", star)


@made_once()
def build(rows: int, cols: int, stars: int, rooms: Rooms) -> Encoding:
    """The encoding of one room layout and star count (made once, copied per solver)."""
    m = Model(Grid.of(rows, cols))
    rules(m, puzzle_of(rows, cols, rooms, stars))
    return m.build()


def cache_key(puzzle: StarBattlePuzzle) -> tuple:
    return (NAME, puzzle.rows, puzzle.cols, puzzle.stars, puzzle.rooms)


def encode(puzzle: StarBattlePuzzle) -> Encoding:
    return build(puzzle.rows, puzzle.cols, puzzle.stars, puzzle.rooms)


def decode(puzzle: StarBattlePuzzle, encoding: Encoding, value) -> Solution:
    return read_shading(encoding, "star", value, puzzle.rows, puzzle.cols)


def check(puzzle: StarBattlePuzzle, solution: Solution) -> list[str]:
    return check_starbattle([[k if k >= 0 else None for k in row] for row in puzzle.room_ids], puzzle.stars,
                            solution)


# -- output and JSON ------------------------------------------------------------------------------
def render(puzzle: StarBattlePuzzle, solution: Solution | None = None) -> str:
    """The room grid (:func:`satgrid.rooms.room_lines`: ids 1..n in room order), a solution's
    stars as ``*``; columns line up."""
    lines = room_layer.room_lines(puzzle.rows, puzzle.cols, puzzle.rooms, BLOCKED)
    if solution is None:
        return "\n".join(lines)
    width = len(lines[0].split()[0])
    return "\n".join(" ".join("*".rjust(width) if solution[r][c] == "#" else t for c, t in enumerate(line.split()))
                     for r, line in enumerate(lines))


def puzzle_meta(puzzle: StarBattlePuzzle) -> dict[str, str]:
    return {STARS: str(puzzle.stars)}


def puzzle_json(puzzle: StarBattlePuzzle) -> list[list[int]]:
    """The room grid (:func:`satgrid.rooms.rooms_json`, ids 1..n); ``stars`` is a key of its own
    (:func:`puzzle_meta`)."""
    return room_layer.rooms_json(puzzle.rows, puzzle.cols, puzzle.rooms)


def puzzle_from_json(record: Record, value: object) -> StarBattlePuzzle:
    """The inverse of :func:`puzzle_json` (``stars`` among the record's keys), checked as the
    text is (:func:`problems`)."""
    rows = len(value) if isinstance(value, list) else 0
    cols = len(value[0]) if rows and isinstance(value[0], list) else 0  # type: ignore[index]
    try:
        rooms = room_layer.rooms_from_json(value, rows, cols, outside=(0,))
    except ValueError as exc:
        raise record.error(str(exc)) from None
    k, _ = _stars(record.part(record.line, [], record.name))
    puzzle = puzzle_of(rows, cols, rooms, k, record.name, Source(record.source, record.line))
    return _checked(puzzle, lambda message, cell: record.error(message))


solution_from_json = shading_rows_from_json


def estimate(rows: int, cols: int, connectivity: str = "lazy") -> tuple[int, int]:
    """(variables, clauses) of a rows x cols grid with the usual ``k`` (1 up to 8x8, then one
    more for every 5 rows): a variable a cell and about ``5k`` counter auxiliaries, four
    touching pairs a cell and about ``10k`` counter clauses (the counts of rows, columns and
    rooms). The figures behind the constants are in encodings/starbattle.md."""
    cells = rows * cols
    k = max(1, (min(rows, cols) + 1) // 5)
    return cells * (1 + 5 * k), cells * (4 + 10 * k)


# -- golden samples -------------------------------------------------------------------------------
#: (text, status of ``solve --unique``, solution), each checked against the rules by hand (and by
#: brute force over every placement in tests/test_starbattle.py).
SAMPLES = (
    ("stars: 1\nb b b b d\nb d d d d\nc d d d d\nc a e e e\na a e e e\n", "unique",
     ("..#..", "....#", "#....", "...#.", ".#...")),
    ("stars: 1\na b b b\na b b b\na c c d\nc c c d\n", "unique", ("..#.", "#...", "...#", ".#..")),
    # a 4x4 with k=1 has two placements (columns 2413 and 3142): room a holds two stars in both
    ("stars: 1\na a a b\na c d b\na c d b\na c d d\n", "unsatisfiable", None),
    ("stars: 1\na a b b b\na a b b b\nc c c d d\nc c c d d\ne e e e e\n", "multiple", None),
)


# -- options ------------------------------------------------------------------------------------
from ...genre_options import GENERATE, INPUT, Option, whole_number  # noqa: E402

OPTIONS = (
    Option("--stars", "Star Battle: k, the stars in every row, column and room (generate: default 1 up "
           "to 8x8, 2 up to 13x13, 3 beyond; other commands: the 'stars:' header of a room grid).",
           GENERATE + INPUT, whole_number(1, 99), "K"),
)


# -- formats --------------------------------------------------------------------------------------
from ...formats import puzzlekit, puzzlink, pzprv3  # noqa: E402  (kept with the parts that use it)


def _square(rows: int, cols: int) -> str | None:
    return None if rows == cols else (f"a {cols}x{rows} grid (columns x rows): Star Battle's grid "
                                      "is square")


def _no_blocked(puzzle: StarBattlePuzzle, what: str) -> str | None:
    """pzprjs's Star Battle has no blocked cells: every cell is in a room."""
    return (f"{what} of Star Battle has no blocked cells (pzprjs puts every cell in a room)"
            if blocked(puzzle) else None)


def _from_url(parts: puzzlink.Parts) -> StarBattlePuzzle:
    """The puzzle of a URL body (the star count, then the borders); :func:`problems` point at
    the star count, a room's at the borders."""
    puzzle = puzzle_of(parts.rows, parts.cols, parts["rooms"], parts["star count"], "", parts.source)
    return _checked(puzzle, lambda message, cell: parts.error("star count" if cell is None else "rooms", 0, message))


#: puz.link ``starbattle`` (pzprjs ``starbattle.js``: ``decodeStarCount`` then ``decodeBorder``):
#: ``starbattle/C/R/k/<borders>``, the rooms drawn by borders (:data:`satgrid.formats.puzzlink.ROOMS`).
PUZZLINK = puzzlink.Codec(
    pids=("starbattle",),
    body=(puzzlink.count_part("star count"), puzzlink.ROOMS),
    read=_from_url,
    write=lambda puzzle: {"star count": puzzle.stars, "rooms": puzzle.rooms},
    size=_square, refuse=lambda puzzle: _no_blocked(puzzle, "a puz.link URL"))


def _count(word: str, rows: int, cols: int) -> int:
    value = number(word)
    if value is None or value < 1:
        raise ValueError(f"{word!r} is not a star count (a whole number of at least 1)")
    return value


def _from_pzprv3(grids: pzprv3.Grids) -> tuple[StarBattlePuzzle, Solution | None]:
    """The star count line, the room sections, and the answer when it holds a star."""
    [[k]] = grids["star count"]
    puzzle = puzzle_of(grids.rows, grids.cols, pzprv3.rooms_of(grids), k, "", grids.source)

    def error(message: str, cell: Cell | None) -> ParseError:
        return grids.error("star count", 0, 0, message) if cell is None else grids.error("room grid", *cell, message)

    _checked(puzzle, error)
    answer = grids["answer"] if "answer" in grids else []
    if not any("#" in row for row in answer):
        return puzzle, None
    return puzzle, tuple("".join(row) for row in answer)


def _to_pzprv3(puzzle: StarBattlePuzzle, solution: Solution | None) -> dict[str, list[list[object]]]:
    """The answer: ``#`` a star and ``+`` (a dot) elsewhere, ``.`` without a solution."""
    answer = [["." if solution is None else "#" if solution[r][c] == "#" else "+" for c in range(puzzle.cols)]
              for r in range(puzzle.rows)]
    return {"star count": [[puzzle.stars]], **pzprv3.room_grids(puzzle.rows, puzzle.cols, puzzle.rooms),
            "answer": answer}


#: pzprv3 ``starbattle`` (``FileIO``: ``readLine`` the star count, ``decodeAreaRoom``,
#: ``decodeCellAns``: ``#`` a star, ``+`` a dot, :data:`~satgrid.formats.pzprv3.SHADING`).
PZPRV3 = pzprv3.Codec(
    pids=("starbattle",),
    sections=(pzprv3.Section("star count", _count, line=True), *pzprv3.room_sections(),
              pzprv3.Section("answer", pzprv3.SHADING, answer=True)),
    read=_from_pzprv3, write=_to_pzprv3, size=_square, refuse=lambda puzzle: _no_blocked(puzzle, "a pzprv3 file"))


def _puzzlekit_problem(section: puzzlekit.Section) -> list[puzzlekit.Row]:
    """The dataset's problem: ``rows cols k``, then the room grid (``#`` and ``@`` blocked cells);
    in the genre's text a first line ``stars: k`` (at the dataset's column of ``k``), then the
    room grid (blocked cells ``#``)."""
    rooms = puzzlekit.WithRooms(None)(section)
    n, tokens = section.lines[0]
    if len(section.extra) != 1:
        raise section.error("a Star Battle's size line is 'rows cols k' (k stars in every row, column "
                            "and room)", n, tokens[-1][1])
    k, col = section.extra[0]
    rooms = [(line, tuple((BLOCKED if t in ("#", "@") else t, at) for t, at in row)) for line, row in rooms]
    return [(n, (("stars:", col), (k, col))), *rooms]


def _puzzlekit_rows(puzzle: StarBattlePuzzle, solution: Solution | None) -> tuple[list[list[str]], list[list[str]] | None]:
    """The room grid (ids 1..n, ``#`` blocked) and the solution, ``x`` a star and ``-`` elsewhere."""
    problem = [[str(k + 1) if k >= 0 else BLOCKED for k in row] for row in puzzle.room_ids]
    answer = None if solution is None else [["x" if ch == "#" else "-" for ch in row] for row in solution]
    return problem, answer


#: The puzzlekit dataset's Star Battle (``assets/data/Starbattle``): a size line ``rows cols k``,
#: the room-id grid; solution ``x`` a star, ``-`` none.
PUZZLEKIT = puzzlekit.Codec(
    "Starbattle",
    problem=_puzzlekit_problem,
    solution=puzzlekit.Tokens({"x": "*", "-": "."}, strict=True),
    write=_puzzlekit_rows,
    size_extra=lambda puzzle: [str(puzzle.stars)],
)


# -- drawing and hints ----------------------------------------------------------------------------
from ... import render_svg as svg  # noqa: E402  (kept with the parts that use it)
from ...grading import StateFormat, state_lines  # noqa: E402


def DRAW(puzzle: StarBattlePuzzle, solution: Solution | None, marks: svg.Marks) -> list[str]:
    """A puzzle book's Star Battle: thin cell lines, bold room borders, ``k`` and a star above
    the grid's right corner as pzprjs shows it; a solution's stars black (red where two solutions
    differ), its other cells a grey dot; blocked cells black."""
    closed = blocked(puzzle)
    out = [*svg.cells(puzzle, marks), *svg.shaded(closed, svg.Marks()), *svg.rooms(puzzle), *svg.border(puzzle),
           *svg.note(puzzle, f"{puzzle.stars} \u2605 in every row, column and room" if puzzle.cols >= 8
                     else f"{puzzle.stars} \u2605")]
    if solution is not None:
        out += svg.stars([(r, c) for r, row in enumerate(solution) for c, x in enumerate(row) if x == "#"], marks)
        out += svg.dotted([(r, c) for r, row in enumerate(solution) for c, x in enumerate(row)
                           if x != "#" and puzzle.room_ids[r][c] >= 0])
    return out


def _read_state(puzzle: StarBattlePuzzle, text: str, source: str) -> dict:
    """A hint's partial state: the grid, ``*`` a star, ``.`` (or ``+``, ``-``, ``#`` on a blocked
    cell) no star, ``?`` (or ``_``) or a room id undecided (so :func:`render`'s output reads)."""
    record = Record(source, 1, "", NAME, lines=state_lines(text))
    state = {}
    for r, row in enumerate(_grid(record, record.lines, "state", puzzle.rows, puzzle.cols)):
        for c, (tok, line, col) in enumerate(row):
            if tok in ("*", ".", "+", "-", BLOCKED):
                state[("star", r, c)] = tok == "*"
            elif tok not in ("?", "_") and not tok.isalnum():
                raise ParseError(source, line, f"{tok!r} is not a cell mark for {cell_name(r, c)}: use "
                                               "'*' (a star), '.' (no star), '?' or a room id (undecided)", col)
    return state


STATE = StateFormat(
    _read_state, lambda puzzle, key, value: f"{cell_name(*key[1:])} {'holds a star' if value else 'holds no star'}",
    lambda key, value: True,
    "the grid: '*' a star, '.' no star, '?' or a room id undecided",
    lambda puzzle: {("star", *p): False for p in blocked(puzzle)})


# -- repair -------------------------------------------------------------------------------------
#: No clue to add: the rooms and the star count are the puzzle (``satgrid repair`` says so).
CANDIDATES = None
