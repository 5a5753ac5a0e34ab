"""Fillomino: divide the grid into regions; each region's cells carry its size.

Rules (Nikoli, "Fillomino"; pzprjs ``fillomino.js`` ``AnsCheck``; Tatham's Filling,
``filling.c``): divide the grid into regions (polyominoes); write in each cell the size of its
region; two regions of the same size never share a side; a given number is the size of its
cell's region. Since two side-adjacent cells with one number then always lie in one region, a
solution is a number per cell such that each 4-connected group of cells with one number ``n`` has
``n`` cells; regions without a given number may have any size.

Encoding (:func:`rules`; the lowering, its exactness and measurements in ``encodings/fillomino.md``):

* the core rule :meth:`~satgrid.model.Model.sized_regions` (regions whose sizes are numbers,
  :mod:`satgrid.sized_regions`): ``("number", r, c, v)`` one-hot for ``v`` up to a cap (the
  largest given), the cap's next value meaning "above the cap" with the
  number in binary (``("number bit", r, c, b)``), so no size is ruled out; local clauses, then
  lazy cuts on groups whose size is not their number, or the exact eager tree lowering;
* a given number is a clue: "this cell carries n", behind its selector; an audit switches numbers
  off (the cell becomes blank). The rules do not depend on the numbers, so one encoding serves
  every puzzle of a size and cap.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any, ClassVar

from ...encoding import Encoding
from ...errors import ParseError, UnsupportedGenre
from ...formats import puzzlekit, puzzlink, pzprv3, tatham
from ...grid import Grid
from ...model import Clue, Model, made_once
from ...puzzle import GridPuzzle, Source, cell_name
from ...reader import Record, number
from ...sized_regions import read_region_numbers
from .checker import check_fillomino

NAME = "fillomino"
SUMMARY = "Fillomino: regions whose cells carry their size; regions of one size never share a side"
EXAMPLES = "fillomino.txt"
ALIASES = ("filling",)

EMPTY = "."

Cell = tuple[int, int]
Numbers = tuple[tuple[int | None, ...], ...]
Solution = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class FillominoPuzzle(GridPuzzle):
    """The given numbers of a Fillomino grid: a size per cell, or None (blank)."""

    genre: ClassVar[str] = NAME


# -- text ---------------------------------------------------------------------------------------
_TOKEN = re.compile(r"\S+")
_BLANKS = (".", "-", "_", "0")


def _rows(record: Record, lines: list[tuple[int, str]], what: str,
          width: int | None = None) -> list[list[tuple[str, int, int]]]:
    """Rows of ``(token, line, column)``, all of one width: whitespace-separated tokens, or one
    character a cell in a row without spaces (``4.41``)."""
    rows = []
    for n, text in lines:
        if not text.strip():
            continue
        if len(text.split()) > 1 or (width == 1):
            tokens = [(m.group(), n, m.start() + 1) for m in _TOKEN.finditer(text)]
        else:
            tokens = [(ch, n, i + 1) for i, ch in enumerate(text) if not ch.isspace()]
        width = width or len(tokens)
        if len(tokens) != width:
            raise record.error(f"{what} row has {len(tokens)} cells, expected {width} (rows must be equally "
                               "long)", n)
        rows.append(tokens)
        record.check_cells(len(rows), width, n)
    if not rows:
        raise record.error(f"no Fillomino {what} found")
    return rows


def parse(record: Record) -> FillominoPuzzle:
    """Rows of whitespace-separated tokens (or one character a cell): ``.`` (or ``-``, ``_``,
    ``0``) blank, or a size ``1..rows*cols``."""
    rows = _rows(record, record.lines, "grid")
    height, width = len(rows), len(rows[0])
    for key, actual in (("rows", height), ("cols", width)):
        if key in record.meta and number(record.meta[key]) != actual:
            raise record.error(f"header says {key}: {record.meta[key]}, the grid has {actual}")
    area = height * width
    grid = []
    for row in rows:
        cells: list[int | None] = []
        for tok, line, col in row:
            value = number(tok)
            if tok in _BLANKS:
                cells.append(None)
            elif value is None:
                raise record.error(f"token {tok!r} is not a size or '.' (a blank cell)", line, col)
            elif value > area:
                raise record.error(f"number {tok} is bigger than the {height}x{width} grid ({area} cells): "
                                   "no region has that size", line, col)
            else:
                cells.append(value)
        grid.append(tuple(cells))
    return FillominoPuzzle(tuple(grid), record.name, Source(record.source, record.line))


def parse_solution(record: Record, puzzle: FillominoPuzzle) -> Solution | None:
    """A ``solution:`` section: the filled grid, a size per cell (as :func:`render` prints it)."""
    if not any(t.strip() for _, t in record.solution_lines):
        return None
    rows = _rows(record, record.solution_lines, "solution", puzzle.cols)
    if len(rows) != puzzle.rows:
        raise record.error(f"the solution has {len(rows)} rows, the grid {puzzle.rows}")
    out = []
    for row in rows:
        values = []
        for tok, line, col in row:
            value = number(tok)
            if value is None or not 1 <= value <= puzzle.rows * puzzle.cols:
                raise record.error(f"{tok!r} is not a region size 1..{puzzle.rows * puzzle.cols}", line, col)
            values.append(value)
        out.append(tuple(values))
    return tuple(out)


# -- the rules ----------------------------------------------------------------------------------
def cap_of(puzzle: FillominoPuzzle) -> int:
    """The one-hot cap: the largest given (at least 1). Larger sizes stay possible, in binary; a
    cap of 9 or 12 was slower (encodings/fillomino.md)."""
    return min(puzzle.rows * puzzle.cols, max([1, *puzzle.numbers().values()]))


def rules(m: Model, cap: int) -> None:
    """The rulebook: regions whose sizes are numbers; a given number is its cell's region's size."""
    regions = m.sized_regions("each region's cells carry its size; equal sizes never touch", cap)

    @m.clue
    def given(c: Clue, cell: Cell, n: object) -> None:
        """A size up to the cap is its one-hot literal itself (no selector); a larger one is its
        bits, behind a selector."""
        size = int(n)  # type: ignore[call-overload]
        if size <= regions.cap:
            c.is_literal(regions.numbers[cell][size])
        else:
            c.require(regions.carries(cell, size))


@made_once()
def build(rows: int, cols: int, cap: int) -> Encoding:
    m = Model(Grid.of(rows, cols))
    rules(m, cap)
    return m.build()


def cache_key(puzzle: FillominoPuzzle) -> tuple:
    return (NAME, puzzle.rows, puzzle.cols, cap_of(puzzle))


def encode(puzzle: FillominoPuzzle) -> Encoding:
    return build(puzzle.rows, puzzle.cols, cap_of(puzzle))


def decode(puzzle: FillominoPuzzle, encoding: Encoding, value) -> Solution:
    numbers = read_region_numbers(encoding, "number", value)
    return tuple(tuple(numbers[r, c] for c in range(puzzle.cols)) for r in range(puzzle.rows))


def check(puzzle: FillominoPuzzle, solution: Solution) -> list[str]:
    return check_fillomino(puzzle.rows, puzzle.cols, puzzle.numbers(), solution)


# -- output and JSON ----------------------------------------------------------------------------
def render(puzzle: FillominoPuzzle, solution: Solution | None = None) -> str:
    """The grid: the solution's numbers (or the givens, ``.`` blank); columns line up."""
    grid = solution if solution is not None else puzzle.grid
    width = max([1, *(len(str(v)) for row in grid for v in row if v is not None)])
    return "\n".join(" ".join((EMPTY if v is None else str(v)).rjust(width) for v in row) for row in grid)


def solution_json(puzzle: FillominoPuzzle, solution: Solution) -> list[list[int]]:
    return [list(row) for row in solution]


def puzzle_json(puzzle: FillominoPuzzle) -> list[list[int]]:
    """Rows of numbers, 0 for a blank cell."""
    return [[0 if v is None else v for v in row] for row in puzzle.grid]


def puzzle_from_json(record: Record, value: object) -> FillominoPuzzle:
    """The inverse of :func:`puzzle_json`, written out as text rows and parsed (its checks apply)."""
    if not isinstance(value, list) or not value or not all(isinstance(row, list) and row for row in value):
        raise record.error("not a list of rows of numbers (0: blank)")
    lines = []
    for r, row in enumerate(value, 1):
        if not all(type(v) is int and v >= 0 for v in row):
            raise record.error(f"row {r} holds something other than numbers (0 for blank)")
        lines.append((record.line, " ".join(EMPTY if v == 0 else str(v) for v in row)))
    return parse(record.part(record.line, lines, record.name))


def solution_from_json(puzzle: FillominoPuzzle, value: object) -> Solution:
    area = puzzle.rows * puzzle.cols
    if not (isinstance(value, list) and len(value) == puzzle.rows and all(
            isinstance(row, list) and len(row) == puzzle.cols and all(type(v) is int and 1 <= v <= area for v in row)
            for row in value)):
        raise ValueError(f"not {puzzle.rows} rows of {puzzle.cols} sizes 1..{area}")
    return tuple(tuple(row) for row in value)


def estimate(rows: int, cols: int, connectivity: str = "lazy") -> tuple[int, int]:
    """(variables, clauses) of the encoding with a cap of 9 (the usual largest given), from the
    grid alone: per cell ten one-hot values and the binary bits of a size above the cap, their
    at-most-one, the neighbour and bit-range clauses; the eager lowering adds ``same`` links,
    parent pointers, root ids and subtree-size adders, whose size per cell grows with the bits.
    The figures behind the constants are in encodings/fillomino.md."""
    cells = rows * cols
    bits = max(1, cells.bit_length())
    variables, clauses = cells * (10 + 3 * bits), cells * (120 + 10 * bits)
    if connectivity == "eager":
        variables += cells * 14 * bits
        clauses += cells * (105 * bits - 100)
    return variables, clauses


# -- formats ------------------------------------------------------------------------------------
_NO_UNKNOWN = "a '?' number: satgrid's Fillomino needs every given's size"


def _area(rows: int, cols: int) -> int:
    return rows * cols


#: puz.link ``fillomino`` (pzprjs ``fillomino.js``: ``decodeNumber16``/``encodeNumber16``).
PUZZLINK = puzzlink.Codec(
    pids=("fillomino",), body=puzzlink.NUMBERS,
    read=lambda cells: FillominoPuzzle(cells.numbers(1, cells.rows * cells.cols, unknown=_NO_UNKNOWN), "",
                                       cells.source),
    write=lambda puzzle: puzzle.grid)


def _border(word: str, rows: int, cols: int) -> int:
    """pzprjs's ``decodeBorderAns``: ``1`` or ``2`` a border line, ``-1`` a cross, ``0`` none."""
    if word not in ("0", "1", "2", "-1"):
        raise ValueError(f"{word!r} is not a border (1 or 2 a line, -1 a cross, 0 nothing)")
    return 1 if word in ("1", "2") else 0


def _from_pzprv3(grids: pzprv3.Grids) -> tuple[FillominoPuzzle, Solution | None]:
    """The clue grid and, when every cell is a given or an answer number, the answer."""
    for r, row in enumerate(grids["clue grid"]):
        for c, v in enumerate(row):
            if v == "?":
                raise grids.error("clue grid", r, c, _NO_UNKNOWN)
    puzzle = FillominoPuzzle(tuple(map(tuple, grids["clue grid"])), "", grids.source)
    if "answer grid" not in grids:
        return puzzle, None
    filled = tuple(tuple(g or v for g, v in zip(given, row)) for given, row in zip(puzzle.grid, grids["answer grid"]))
    return puzzle, filled if all(all(row) for row in filled) else None


def _to_pzprv3(puzzle: FillominoPuzzle, solution: Solution | None) -> dict[str, Any]:
    """pzprjs's ``encodeCellQnum``, ``encodeCellAnumsub`` (``.`` at the givens) and
    ``encodeBorderAns`` (a border between cells of different numbers)."""
    rows, cols = puzzle.rows, puzzle.cols
    answer = [["." if v is not None or solution is None else solution[r][c] for c, v in enumerate(row)]
              for r, row in enumerate(puzzle.grid)]
    def wall(a: int, b: int) -> int:
        return 0 if solution is None or a == b else 1
    vertical = [[wall(solution[r][c], solution[r][c + 1]) if solution else 0 for c in range(cols - 1)]
                for r in range(rows)]
    horizontal = [[wall(solution[r][c], solution[r + 1][c]) if solution else 0 for c in range(cols)]
                  for r in range(rows - 1)]
    return {"clue grid": puzzle.grid, "answer grid": answer, "vertical borders": vertical,
            "horizontal borders": horizontal}


#: pzprv3 ``fillomino`` (``FileIO``: ``decodeCellQnum``, ``decodeCellAnumsub``,
#: ``decodeBorderAns``): the clue grid, the answer numbers, the borders the player drew.
PZPRV3 = pzprv3.Codec(
    pids=("fillomino",),
    sections=(pzprv3.Section("clue grid", pzprv3.clues(1, _area)),
              pzprv3.Section("answer grid", pzprv3.answers(1, _area), answer=True),
              pzprv3.Section("vertical borders", _border, (0, -1), answer=True),
              pzprv3.Section("horizontal borders", _border, (-1, 0), answer=True)),
    read=_from_pzprv3, write=_to_pzprv3)


#: Tatham's Filling (``filling.c``): params ``WxH`` (or ``W``, a square); the description, row by
#: row, is ``1``-``9`` a given (one digit a cell) or ``a``-``z`` a run of 1-26 blank cells.
FILLING_DIGITS = "123456789"


def _filling_size(gid: tatham.GameId) -> tuple[int, int]:
    cols = number(gid.width) or 0
    return number(gid.height or gid.width) or 0, cols


def _filling_cells(desc: str) -> int | None:
    """The cells a Filling description describes (None: a character it never holds)."""
    count = 0
    for ch in desc:
        if ch in FILLING_DIGITS:
            count += 1
        elif "a" <= ch <= "z":
            count += ord(ch) - ord("a") + 1
        else:
            return None
    return count


def _filling_fits(gid: tatham.GameId) -> bool:
    rows, cols = _filling_size(gid)
    return _filling_cells(gid.desc) == rows * cols


def _filling_signs(gid: tatham.GameId) -> bool:
    """What only a Filling description holds: it fits, with two digits side by side (two cells
    to Filling, one number to Range), a digit from 5 up (square Loopy clues run 0-4) and a run of
    two blanks or more (Singles writes one character a cell). Other Filling IDs also read as
    Loopy's (digits a cell, letters runs): they need ``--genre fillomino``."""
    return (_filling_fits(gid) and re.search(r"[1-9][1-9]", gid.desc) is not None
            and re.search(r"[5-9]", gid.desc) is not None and re.search(r"[b-z]", gid.desc) is not None)


def _from_filling(gid: tatham.GameId) -> FillominoPuzzle:
    """Filling's ``validate_desc``/``new_game``: a digit a given, a letter a run of blanks."""
    rows, cols = _filling_size(gid)
    if not (1 <= rows <= tatham.MAX_SIZE and 1 <= cols <= tatham.MAX_SIZE):
        raise gid.error(f"a {cols}x{rows} Filling grid: its sides run 1..{tatham.MAX_SIZE}", gid.lead + 1)
    area, cells = rows * cols, []
    for i, ch in enumerate(gid.desc):
        if len(cells) >= area:
            raise gid.error(f"the description goes on after the {area} cells of the grid", gid.column(5, i))
        if ch in FILLING_DIGITS:
            value = int(ch)
            if value > area:
                raise gid.error(f"{ch} is bigger than the {cols}x{rows} grid", gid.column(5, i))
            cells.append(value)
        elif "a" <= ch <= "z":
            run = ord(ch) - ord("a") + 1
            if len(cells) + run > area:
                raise gid.error(f"a run of {run} blanks goes past the {area} cells of the grid", gid.column(5, i))
            cells += [None] * run
        else:
            raise gid.error(f"bad character {ch!r} in a Filling description (1-9 a given, a-z blanks)",
                            gid.column(5, i))
    if len(cells) != area:
        raise gid.error(f"the description has {len(cells)} cells, a {cols}x{rows} grid has {area}",
                        gid.column(5, len(gid.desc)))
    return FillominoPuzzle(tuple(tuple(cells[r * cols:(r + 1) * cols]) for r in range(rows)), "",
                           Source(gid.source, gid.line))


def _to_filling(puzzle: FillominoPuzzle) -> str:
    """Filling's ``generate_desc``: ``WxH:`` and the run-length description."""
    big = [v for v in puzzle.numbers().values() if v > 9]
    if big:
        raise UnsupportedGenre(f"a Filling game ID holds givens 1-9, not {big[0]}")
    return f"{puzzle.cols}x{puzzle.rows}:" + tatham.encode_runs(v for row in puzzle.grid for v in row)


TATHAM = tatham.Codec(
    game="Filling", program="sgt-filling",
    params=lambda gid: gid.flags == "",
    fits=_filling_fits, decode=_from_filling, encode=_to_filling, signs=_filling_signs)


#: The puzzlekit dataset's Fillomino grids (``assets/data/Fillomino``): givens ``-`` blank or a
#: number; the solution a size per cell.
PUZZLEKIT = puzzlekit.Codec(
    "Fillomino",
    problem=puzzlekit.Tokens({"-": "."}),
    solution=puzzlekit.Tokens(),
    solver="fillomino",
    write=lambda puzzle, solution: (
        [["-" if v is None else str(v) for v in row] for row in puzzle.grid],
        None if solution is None else [[str(v) for v in row] for row in solution]),
)


# -- drawing and hints --------------------------------------------------------------------------
from ... import render_svg as svg  # noqa: E402  (kept with the parts that use it)
from ...grading import StateFormat, state_lines  # noqa: E402


def DRAW(puzzle: FillominoPuzzle, solution: Solution | None, marks: svg.Marks) -> list[str]:
    """As a puzzle book prints it: givens bold, the solution's numbers lighter, region borders
    thick."""
    givens = puzzle.numbers()
    out = svg.cells(puzzle, marks, givens)
    if solution is not None:
        out += svg.room_borders(puzzle, lambda r, c: solution[r][c])
        out += svg.values({(r, c): str(v) for r, row in enumerate(solution) for c, v in enumerate(row)
                           if (r, c) not in givens}, marks)
    return [*out, *svg.border(puzzle), *svg.givens({p: str(v) for p, v in givens.items()})]


def _read_state(puzzle: FillominoPuzzle, text: str, source: str) -> dict:
    """A hint's partial state: the grid with more numbers filled in (``.`` undecided)."""
    rows = [(n, t) for n, t in state_lines(text) if t.strip()]
    if len(rows) != puzzle.rows:
        raise ParseError(source, None, f"the state has {len(rows)} rows, the puzzle {puzzle.rows}")
    cap, area, givens = cap_of(puzzle), puzzle.rows * puzzle.cols, puzzle.numbers()
    state: dict = {}
    for r, (n, line) in enumerate(rows):
        if len(line.split()) > 1:
            tokens = [(m.group(), m.start() + 1) for m in _TOKEN.finditer(line)]
        else:
            tokens = [(ch, i + 1) for i, ch in enumerate(line) if not ch.isspace()]
        if len(tokens) != puzzle.cols:
            raise ParseError(source, n, f"state row has {len(tokens)} cells, the puzzle {puzzle.cols}")
        for c, (tok, col) in enumerate(tokens):
            value = number(tok)
            if tok in _BLANKS or tok == "?" or (r, c) in givens:
                continue  # undecided, or a given (shown by the puzzle)
            if value is None or not 1 <= value <= area:
                raise ParseError(source, n, f"{tok!r} is not a size 1..{area} or '.' (undecided)", col)
            if value <= cap:
                state[("number", r, c, value)] = True
            else:
                state[("number", r, c, cap + 1)] = True
                state.update({("number bit", r, c, b): bool(value >> b & 1) for b in range(area.bit_length())})
    return state


def _describe(puzzle: FillominoPuzzle, key: tuple, value: bool) -> str:
    if key[0] == "number bit":
        _, r, c, b = key
        return f"{cell_name(r, c)}'s size {'has' if value else 'lacks'} binary digit {1 << b}"
    _, r, c, v = key
    what = str(v) if v <= cap_of(puzzle) else f"above {v - 1}"
    return f"{cell_name(r, c)} is {'' if value else 'not '}{what}"


def _cell_words(puzzle: FillominoPuzzle, facts: dict) -> str | None:
    """A cell's size from its one-hot value and, above the cap, its binary digits ("r1c3 is 5",
    where the one-hot value alone says "above 4"); None for facts of no one cell's size."""
    cells = {key[1:3] for key in facts}
    if len(cells) != 1:
        return None
    [(r, c)] = cells
    cap = cap_of(puzzle)
    values = [key[3] for key, holds in facts.items() if key[0] == "number" and holds]
    if len(values) != 1:
        return None
    if values[0] <= cap:
        return f"{cell_name(r, c)} is {values[0]}"
    size = sum(1 << key[3] for key, holds in facts.items() if key[0] == "number bit" and holds)
    return f"{cell_name(r, c)} is {size}" if size > cap else None


STATE = StateFormat(_read_state, _describe, lambda key, value: key[0] == "number" and value,
                    "the grid with more numbers filled in ('.' undecided)",
                    lambda p: {("number", r, c, v): True for (r, c), v in p.numbers().items() if v <= cap_of(p)},
                    clue="given", part_words=_cell_words)


# -- the generic generator ----------------------------------------------------------------------
#: The largest region a generated puzzle gets (Tatham's Filling: 9, one digit).
GENERATED_MAX = 9


def SAMPLE(rows: int, cols: int, rng: random.Random) -> FillominoPuzzle:
    """A puzzle with every number, after Tatham's Filling (``filling.c``, ``make_board``): start
    from single cells, merge random side-neighbouring regions while their sum stays at most
    :data:`GENERATED_MAX` (stopping each region at a random target size), then merge every pair of
    side-neighbouring regions of one size that fits; a layout that keeps two equal neighbours is
    drawn again. The generic generator then removes numbers while the solution stays unique."""
    grid = Grid.of(rows, cols)
    top = min(GENERATED_MAX, rows * cols)
    while True:
        region = {p: i for i, p in enumerate(grid.cells)}
        members = {i: [p] for i, p in enumerate(grid.cells)}
        target = {i: rng.randint(1, top) for i in members}
        changed = True
        while changed:
            changed = False
            pairs = [(region[p], region[q]) for p, q in grid.adjacent_pairs() if region[p] != region[q]]
            rng.shuffle(pairs)
            for a, b in pairs:
                if a not in members or b not in members or a == b:
                    continue
                merged = len(members[a]) + len(members[b])
                equal = len(members[a]) == len(members[b])
                if merged <= top and (equal or merged <= min(target[a], target[b])):
                    for p in members[b]:
                        region[p] = a
                    members[a] += members.pop(b)
                    changed = True
        size = {p: len(members[region[p]]) for p in grid.cells}
        if all(size[p] != size[q] or region[p] == region[q] for p, q in grid.adjacent_pairs()):
            return FillominoPuzzle(tuple(tuple(size[r, c] for c in range(cols)) for r in range(rows)))


# -- golden samples -----------------------------------------------------------------------------
#: (text, status of ``solve --unique``, solution): Tatham's Filling 4x4:l3434 (unique by its own
#: solver), a blank 2x2 (two dominoes either way, or one 4), two 1s side by side; the last two
#: checked against brute force in tests/test_fillomino.py.
SAMPLES = (
    (". . . .\n. . . .\n. . . .\n3 4 3 4\n", "unique", ((1, 4, 1, 4), (3, 4, 3, 4), (3, 4, 3, 4), (3, 4, 3, 4))),
    (". .\n. .\n", "multiple", None),
    ("1 1\n", "unsatisfiable", None),
)


# -- repair -------------------------------------------------------------------------------------
def CANDIDATES(puzzle: FillominoPuzzle, solution: Solution) -> dict[tuple[int, int], int]:
    """The numbers a repair may add: the solution's number in every blank cell."""
    return {(r, c): solution[r][c] for r, row in enumerate(puzzle.grid) for c, v in enumerate(row)
            if v is None}
