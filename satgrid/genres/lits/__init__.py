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
from dataclasses import dataclass
from typing import Any, ClassVar

from ...connectivity import with_eager
from ...encoding import Encoding
from ...errors import LimitReached, ParseError, SatgridError
from ...formats import puzzlekit, puzzlink, pzprv3
from ...grid import Grid
from ...model import Model, read
from ...puzzle import Source, cell_name
from ...queries import PuzzleQueries
from ...reader import Record
from ...rooms import RoomPuzzle, Rooms, read_text, room_lines, rooms_from_ids, rooms_from_json, rooms_json
from ...session import Session
from ...shading import grid_tokens
from . import sampler
from .checker import TETROMINOES, check_lits, letter_of

NAME = "lits"
SUMMARY = "LITS: one tetromino in every room, all connected, no 2x2, equal shapes never touch"
EXAMPLES = "lits.txt"

Cell = tuple[int, int]
Solution = tuple[str, ...]  # rows of a letter L/I/T/S per shaded cell, '.' unshaded
LETTERS = tuple(TETROMINOES)


@dataclass(frozen=True)
class LitsPuzzle(RoomPuzzle):
    """The rooms (:class:`~satgrid.rooms.RoomPuzzle`; its clue grid is all None): LITS has no
    clues, so :meth:`clues` is empty."""

    genre: ClassVar[str] = NAME


def lits_puzzle(rows: int, cols: int, rooms: Rooms, name: str = "", source: Source = Source()) -> LitsPuzzle:
    """The puzzle of a room layout."""
    return LitsPuzzle(((None,) * cols,) * rows, name, source, rooms=rooms)


def small_room(rooms: Rooms) -> int | None:
    """The index of the first room of fewer than 4 cells (no tetromino fits), or None."""
    return next((k for k, room in enumerate(rooms) if len(room) < 4), None)


# -- text ---------------------------------------------------------------------------------------
def parse(record: Record) -> LitsPuzzle:
    """The room grid (:func:`satgrid.rooms.read_text`, no clue grid): rows of room ids, letters
    and digits, one a cell; side-neighbouring cells with one id are one room. Every room has at
    least 4 cells."""
    text = read_text(record, clues=False)
    k = small_room(text.rooms)
    if k is not None:
        room = text.rooms[k]
        raise record.error(f"the room at {cell_name(*room[0])} has {len(room)} cells: a room holds a "
                           "tetromino (4 cells)", *text.places[room[0][0]][room[0][1]])
    return lits_puzzle(text.rows, text.cols, text.rooms, record.name, Source(record.source, record.line))


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
    for tokens in grid_tokens(record.solution_lines, puzzle, "solution", record.error):
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
    return (NAME, puzzle.rows, puzzle.cols, puzzle.rooms)


def encode(puzzle: LitsPuzzle) -> Encoding:
    m = Model(Grid.of(puzzle.rows, puzzle.cols))
    rules(m, puzzle)
    return m.build()


def decode(puzzle: LitsPuzzle, encoding: Encoding, value: Any) -> Solution:
    on = read(encoding, "shaded", value)
    return lettered(puzzle, {p for p, v in on.items() if v})


def check(puzzle: LitsPuzzle, solution: Solution) -> list[str]:
    return check_lits(puzzle.room_ids, solution)


# -- output and JSON ----------------------------------------------------------------------------
def render(puzzle: LitsPuzzle, solution: Solution | None = None) -> str:
    """The room grid (:func:`satgrid.rooms.room_lines`: rooms numbered from 1), or with a solution
    its rows: a letter per shaded cell, ``.`` elsewhere."""
    if solution is not None:
        return "\n".join(" ".join(row) for row in solution)
    return "\n".join(room_lines(puzzle.rows, puzzle.cols, puzzle.rooms))


def puzzle_json(puzzle: LitsPuzzle) -> list[list[int]]:
    """Rows of room ids, from 1 (:func:`satgrid.rooms.rooms_json`)."""
    return rooms_json(puzzle.rows, puzzle.cols, puzzle.rooms)


def puzzle_from_json(record: Record, value: object) -> LitsPuzzle:
    """The inverse of :func:`puzzle_json`, written out as text and parsed (so its checks apply)."""
    rows = len(value) if isinstance(value, list) else 0
    cols = len(value[0]) if rows and isinstance(value[0], list) else 0
    try:
        found = rooms_from_json(value, rows, cols) if rows and cols else None
    except ValueError as exc:
        raise record.error(str(exc)) from None
    if found is None:
        raise record.error("not a list of rows of room ids")
    lines = [(record.line, line) for line in room_lines(rows, cols, found)]
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
    return with_eager((variables, clauses), cells, connectivity)


# -- formats ------------------------------------------------------------------------------------
def _puzzlekit_rows(puzzle: LitsPuzzle, solution: Solution | None) -> tuple[list[list[str]], list[list[str]] | None]:
    """The dataset's grids: room ids from 1; a letter per shaded cell, ``-`` elsewhere."""
    answer = None if solution is None else [["-" if ch == "." else ch for ch in row] for row in solution]
    return [[str(k) for k in row] for row in puzzle_json(puzzle)], answer


#: The puzzlekit dataset's LITS grids (``assets/data/LITS``): the room-id grid alone, which
#: :func:`parse` reads; solution a letter per shaded cell, ``-`` unshaded.
PUZZLEKIT = puzzlekit.Codec(
    "LITS",
    problem=puzzlekit.WithRooms(None),
    solution=puzzlekit.Tokens({"-": ".", **{x: x for x in LETTERS}}, strict=True),
    solver="lits",
    write=_puzzlekit_rows,
)


def _from_url(parts: puzzlink.Parts) -> LitsPuzzle:
    rooms = parts["rooms"]
    k = small_room(rooms)
    if k is not None:
        raise parts.error("rooms", k, f"the room at {cell_name(*rooms[k][0])} has {len(rooms[k])} cells: "
                                      "a room holds a tetromino (4 cells)")
    return lits_puzzle(parts.rows, parts.cols, rooms, "", parts.source)


#: puz.link ``lits`` (pzprjs ``src/variety/lits.js``, ``encodePzpr``: ``encodeBorder``): the
#: border body alone (:data:`satgrid.formats.puzzlink.ROOMS`). pzprjs also reads an old
#: room-id body (its flag ``d``), which it never writes and satgrid does not read.
PUZZLINK = puzzlink.Codec(
    pids=("lits",), body=(puzzlink.ROOMS,), read=_from_url, write=lambda puzzle: {"rooms": puzzle.rooms})


def _from_pzprv3(grids: pzprv3.Grids) -> tuple[LitsPuzzle, Solution | None]:
    """The rooms, and the answer when a cell of it is shaded."""
    rooms = pzprv3.rooms_of(grids)
    k = small_room(rooms)
    if k is not None:
        r, c = rooms[k][0]
        raise grids.error("room grid", r, c, f"the room at {cell_name(r, c)} has {len(rooms[k])} cells: "
                                             "a room holds a tetromino (4 cells)")
    puzzle = lits_puzzle(grids.rows, grids.cols, rooms, "", grids.source)
    answer = grids["answer"] if "answer" in grids else []
    if not any("#" in row for row in answer):
        return puzzle, None
    return puzzle, lettered(puzzle, {(r, c) for r, row in enumerate(answer) for c, x in enumerate(row) if x == "#"})


def _to_pzprv3(puzzle: LitsPuzzle, solution: Solution | None) -> dict[str, list[list[object]]]:
    """The rooms; the answer ``#`` shaded and ``+`` unshaded, ``.`` without a solution."""
    answer = [["." if solution is None else "+" if solution[r][c] == "." else "#" for c in range(puzzle.cols)]
              for r in range(puzzle.rows)]
    return {**pzprv3.room_grids(puzzle.rows, puzzle.cols, puzzle.rooms), "answer": answer}


#: pzprv3 ``lits`` (``FileIO``: ``decodeAreaRoom``, ``decodeCellAns``): the room count and the
#: room grid, then the answer.
PZPRV3 = pzprv3.Codec(
    pids=("lits",),
    sections=(*pzprv3.room_sections(), pzprv3.Section("answer", pzprv3.SHADING, answer=True)),
    read=_from_pzprv3, write=_to_pzprv3)


# -- drawing and hints --------------------------------------------------------------------------
from ... import render_svg as svg  # noqa: E402  (kept with the parts that use it)
from ...grading import StateFormat, state_lines  # noqa: E402


def DRAW(puzzle: LitsPuzzle, solution: Solution | None, marks: svg.Marks) -> list[str]:
    """The grid, bold room borders; a solution's shaded cells black, its unshaded cells dotted."""
    out = svg.cells(puzzle, marks)
    if solution is not None:
        cells = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)]
        out += svg.shaded([p for p in cells if solution[p[0]][p[1]] != "."], marks)
    return [*out, *svg.rooms(puzzle), *svg.border(puzzle)]


def _read_state(puzzle: LitsPuzzle, text: str, source: str) -> dict:
    """A hint's partial state: the grid, a letter or ``#`` shaded, ``.`` (or ``+``) unshaded,
    ``?`` (or ``_``) undecided."""
    def error(message: str, line: int | None, column: int | None) -> ParseError:
        return ParseError(source, line, message, column)

    state = {}
    for r, tokens in enumerate(grid_tokens(state_lines(text), puzzle, "state", error)):
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
    """Rooms around a planted solution, repaired until it is the only one (:mod:`.sampler`). A 2x3
    grid is too small: it holds one room (a room needs 4 cells), in which every tetromino has a
    second place, its mirror image."""
    if sorted((rows, cols)) == [2, 3]:
        raise SatgridError(f"a {rows}x{cols} LITS is too small: it holds one room, in which every "
                           "tetromino has a second place (its mirror image)")
    return sampler.sample(rows, cols, rng, lambda room: lits_puzzle(rows, cols, rooms_from_ids(
        [[room[r, c] for c in range(cols)] for r in range(rows)])), _second)


# -- golden samples -----------------------------------------------------------------------------
#: (text, status of ``solve --unique``, solution), checked by hand.
SAMPLES = (
    # satgrid/data/lits.txt g2 (the room sampler, seed 1); its solution checked by hand.
    ("1 2 2 2 2 3\n1 1 3 3 3 3\n1 3 3 4 4 4\n1 3 3 4 4 5\n1 1 3 3 5 5\n1 1 3 3 3 5\n", "unique",
     (".IIII.", "..S...", ".SSLLL", "LS.L.T", "L...TT", "LL...T")),
    ("1 1 2 2\n1 1 2 2\n", "unsatisfiable", None),  # each room a 2x2 block: an O
    ("1 1 1 1\n2 2 2 2\n", "unsatisfiable", None),  # two I side by side
    ("1 1 1 1 1\n", "multiple", None),  # an I at either end
)


# -- repair -------------------------------------------------------------------------------------
#: No clue to add: the rooms are the puzzle (``satgrid repair`` says so).
CANDIDATES = None
