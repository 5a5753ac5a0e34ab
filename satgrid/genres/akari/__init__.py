"""Akari (Light Up, Bijutsukan): place lights in white cells so that every white cell is lit.

Rules (Nikoli's Akari; pzprjs ``lightup.js``; Tatham's ``lightup.c``): lights stand in white
cells; a light shines along its row and column until a black cell or the grid's edge; every white
cell is lit (holds a light or is shone on); no light shines on another light; a number on a black
cell counts the lights in the (up to four) cells beside it.

**What a clue is.** The black cells are the layout: they are given and fixed (an audit never
removes one). A clue is the *number* on a black cell: an audit switches numbers off, leaving the
black cell black and unnumbered, and "redundant" means "the puzzle with that black cell's number
erased still has one solution".

Encoding (:func:`rules`, on the model builder; clause counts and measurements in
``encodings/akari.md``):

* ``("light", r, c)`` per white cell: the primary variables (black cells have none).
* The black cells cut every row and column into *runs* (segments) of white cells, fixed by the
  puzzle: a light shines exactly over its row run and its column run. So "no light shines on
  another" is an at-most-one per run (:meth:`~satgrid.model.Model.at_most_in_runs`) and "every
  white cell is lit" one clause per cell, the lights of its two runs
  (:meth:`~satgrid.model.Model.seen_in_runs`).
* Each number is a clue behind its selector: exactly ``k`` lights among the white cells beside
  its black cell. The rules depend on the black cells only, so one encoding serves a layout and
  every subset of its numbers (:func:`cache_key`).
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from typing import Any, Callable, ClassVar

from ...encoding import Encoding
from ...errors import ParseError, UnsupportedGenre
from ...formats import puzzlekit, puzzlink, pzprv3, tatham
from ...grid import Grid
from ...model import Clue, Model, made_once, read
from ...puzzle import GridPuzzle, Source, cell_name
from ...reader import Record, number
from .checker import check_akari

NAME = "akari"
SUMMARY = "Akari (Light Up): lights light every white cell, never each other; numbers count lights beside"
EXAMPLES = "akari.txt"
ALIASES = ("lightup", "light-up", "light_up", "bijutsukan")

Cell = tuple[int, int]
#: A black cell without a number; a numbered black cell is its number 0-4; a white cell None.
BLACK = "x"
MAX_NUMBER = 4
Value = int | str | None
Solution = tuple[str, ...]  # rows of "o" (light), "." (white, no light), "x" (black)
LIGHT, DARK = "o", "."


@dataclass(frozen=True)
class AkariPuzzle(GridPuzzle):
    """The layout of an Akari: per cell None (white), ``"x"`` (black) or 0-4 (a numbered black
    cell). Only the numbers are clues: :meth:`with_clues` erases numbers, never black cells."""

    genre: ClassVar[str] = NAME

    def clues(self) -> dict[Cell, Any]:
        return {(r, c): v for r, row in enumerate(self.grid) for c, v in enumerate(row) if isinstance(v, int)}

    def with_clues(self, clues: dict[Cell, Any]) -> "AkariPuzzle":
        grid = tuple(tuple(clues.get((r, c), BLACK) if v is not None else None for c, v in enumerate(row))
                     for r, row in enumerate(self.grid))
        return replace(self, grid=grid, given_solution=None)

    def black(self) -> dict[Cell, int | None]:
        """Every black cell -> its number (None: unnumbered)."""
        return {(r, c): (v if isinstance(v, int) else None)
                for r, row in enumerate(self.grid) for c, v in enumerate(row) if v is not None}

    def layout(self) -> tuple[tuple[bool, ...], ...]:
        """Per cell: black?"""
        return tuple(tuple(v is not None for v in row) for row in self.grid)


def number_problem(grid: tuple[tuple[Value, ...], ...], r: int, c: int) -> str | None:
    """Why the number at ``(r, c)`` cannot hold: more lights than it has white cells beside it."""
    k = grid[r][c]
    if not isinstance(k, int):
        return None
    rows, cols = len(grid), len(grid[0])
    white = sum(grid[y][x] is None for y, x in Grid.of(rows, cols).neighbours((r, c)))
    if k > white:
        return (f"the {k} at {cell_name(r, c)} has {white} white cell{'s' if white != 1 else ''} beside it: "
                f"it cannot see {k} lights")
    return None


def _checked(grid: tuple[tuple[Value, ...], ...], error: Callable[[int, int, str], Exception]) -> None:
    """Every number fits beside its black cell (else ``error(r, c, message)``)."""
    for r, row in enumerate(grid):
        for c in range(len(row)):
            problem = number_problem(grid, r, c)
            if problem is not None:
                raise error(r, c, problem)


# -- text ---------------------------------------------------------------------------------------
_TOKEN = re.compile(r"\S+")


def _grid_tokens(lines: list[tuple[int, str]], what: str, error: Callable[..., Exception],
                 check: Callable[[int, int, int | None], None] = lambda rows, cols, line: None,
                 shape: tuple[int, int] | None = None) -> list[list[tuple[str, int, int]]]:
    """Rows of ``(token, line, column)``: whitespace-separated tokens, or one character a cell
    when a line is one word of several characters; all rows of one width (``shape``: rows, cols
    when known)."""
    rows: list[list[tuple[str, int, int]]] = []
    for n, text in lines:
        words = [(m.group(), m.start() + 1) for m in _TOKEN.finditer(text)]
        if not words:
            continue
        if len(words) == 1 and len(words[0][0]) > 1:
            word, start = words[0]
            tokens = [(ch, n, start + i) for i, ch in enumerate(word)]
        else:
            tokens = [(w, n, col) for w, col in words]
        width = shape[1] if shape else len(rows[0]) if rows else len(tokens)
        if len(tokens) != width:
            raise error(f"{what} row has {len(tokens)} cells, expected {width}", n, None)
        rows.append(tokens)
        check(len(rows), width, n)
    if not rows:
        raise error(f"no Akari {what} found", None, None)
    if shape and len(rows) != shape[0]:
        raise error(f"the {what} has {len(rows)} rows, the grid {shape[0]}", rows[-1][0][1], None)
    return rows


def parse(record: Record) -> AkariPuzzle:
    """Rows of cells: ``.`` white, ``x`` black, ``0``-``4`` a numbered black cell; tokens separated
    by spaces, or one character a cell (``..2.x``). (Not ``#``, which would start a comment line
    in satgrid's text files.)"""
    def error(message: str, line: int | None, col: int | None) -> ParseError:
        return record.error(message, line, col)

    rows = _grid_tokens(record.lines, "grid", error, lambda h, w, n: record.check_cells(h, w, n))
    grid: list[tuple[Value, ...]] = []
    for tokens in rows:
        cells: list[Value] = []
        for tok, line, col in tokens:
            k = number(tok)
            if tok == ".":
                cells.append(None)
            elif tok == BLACK:
                cells.append(BLACK)
            elif k is None:
                raise record.error(f"{tok!r} is not a cell: use '.' (white), 'x' (black) or a number "
                                   f"0-{MAX_NUMBER} on a black cell", line, col)
            elif k > MAX_NUMBER:
                raise record.error(f"number {tok} is out of range 0..{MAX_NUMBER} (a black cell has four sides)",
                                   line, col)
            else:
                cells.append(k)
        grid.append(tuple(cells))
    out = tuple(grid)
    _checked(out, lambda r, c, message: record.error(message, rows[r][c][1], rows[r][c][2]))
    return AkariPuzzle(out, record.name, Source(record.source, record.line))


def _solution_rows(puzzle: AkariPuzzle, lines: list[tuple[int, str]], what: str,
                   error: Callable[..., Exception], undecided: str = "") -> list[list[Any]]:
    """The cells of a solution (or, with ``undecided`` marks, a hint state) as :func:`render`
    prints them: ``o`` a light, ``.`` or ``+`` a white cell without one, ``x``, the number or
    ``.`` at a black cell (some published solutions leave black cells out); per cell ``True`` (light), ``False``, ``None`` (black or undecided)."""
    out = []
    for r, tokens in enumerate(_grid_tokens(lines, what, error, shape=(puzzle.rows, puzzle.cols))):
        row = []
        for c, (tok, line, col) in enumerate(tokens):
            v = puzzle.grid[r][c]
            if v is not None:
                if tok not in (BLACK, str(v), DARK, "+"):
                    raise error(f"{tok!r} at {cell_name(r, c)}: that cell is black in the puzzle "
                                f"(write 'x', its number or '.')", line, col)
                row.append(None)
            elif tok in (LIGHT, "O", "L", "*"):
                row.append(True)
            elif tok in (DARK, "+"):
                row.append(False)
            elif tok in undecided:
                row.append(None)
            else:
                marks = f"'{LIGHT}' (light), '.' or '+' (no light)" + (", '?' (undecided)" if undecided else "")
                raise error(f"{tok!r} is not a mark for the white cell {cell_name(r, c)}: use {marks}", line, col)
        out.append(row)
    return out


def parse_solution(record: Record, puzzle: AkariPuzzle) -> Solution | None:
    """A block's ``solution:`` section: the grid with ``o`` lights (see :func:`_solution_rows`)."""
    if not any(t.strip() for _, t in record.solution_lines):
        return None
    rows = _solution_rows(puzzle, record.solution_lines, "solution", record.error)
    return tuple("".join(BLACK if puzzle.grid[r][c] is not None else LIGHT if x else DARK
                         for c, x in enumerate(row)) for r, row in enumerate(rows))


# -- the rules ----------------------------------------------------------------------------------
def rules(m: Model, layout: tuple[tuple[bool, ...], ...]) -> None:
    """The rulebook of the module docstring over the black cells of ``layout``."""
    light = m.cells("light", [p for p in m.grid.cells if not layout[p[0]][p[1]]])
    runs = m.grid.runs(lambda p: p in light)  # the row and column segments between black cells
    m.at_most_in_runs("no light shines on another light", runs, light)
    m.seen_in_runs("every white cell is lit", runs, light)

    @m.clue
    def number(c: Clue, cell: Cell, k: object) -> None:
        """A number counts the lights beside its black cell."""
        c.exactly([light[q] for q in m.grid.neighbours(cell) if q in light], int(k))  # type: ignore[call-overload]


@made_once()
def build(layout: tuple[tuple[bool, ...], ...]) -> Encoding:
    """The encoding of every puzzle of a black-cell layout, made once and copied per solver."""
    m = Model(Grid.of(len(layout), len(layout[0])))
    rules(m, layout)
    return m.build()


def cache_key(puzzle: AkariPuzzle) -> tuple:
    """The black cells decide the clauses; the numbers are clues."""
    return (NAME, puzzle.layout())


def encode(puzzle: AkariPuzzle) -> Encoding:
    return build(puzzle.layout())


def decode(puzzle: AkariPuzzle, encoding: Encoding, value) -> Solution:
    return decode_lights(puzzle, {p for p, x in read(encoding, "light", value).items() if x})


def decode_lights(puzzle: AkariPuzzle, lights: set[Cell]) -> Solution:
    """The solution with lights in the cells ``lights``."""
    return tuple("".join(BLACK if v is not None else LIGHT if (r, c) in lights else DARK for c, v in enumerate(row))
                 for r, row in enumerate(puzzle.grid))


def check(puzzle: AkariPuzzle, solution: Solution) -> list[str]:
    return check_akari(puzzle.rows, puzzle.cols, puzzle.black(), solution)


# -- output and JSON ----------------------------------------------------------------------------
def render(puzzle: AkariPuzzle, solution: Solution | None = None) -> str:
    """The grid: ``x`` or the number at black cells, ``o`` the solution's lights, ``.`` elsewhere."""
    return "\n".join(" ".join(str(v) if v is not None else (solution[r][c] if solution else DARK)
                              for c, v in enumerate(row)) for r, row in enumerate(puzzle.grid))


def puzzle_json(puzzle: AkariPuzzle) -> list[list[int | str | None]]:
    """Rows of cells: null white, ``"x"`` black, a number on a black cell."""
    return [list(row) for row in puzzle.grid]


def puzzle_from_json(record: Record, value: object) -> AkariPuzzle:
    """The inverse of :func:`puzzle_json`, through the text parser (so its checks apply)."""
    if not isinstance(value, list) or not value or not all(isinstance(row, list) and row for row in value):
        raise record.error("not a list of rows of cells (null white, 'x' black, a number)")
    lines = []
    for r, row in enumerate(value, 1):
        if not all(v is None or v == BLACK or type(v) is int and v >= 0 for v in row):
            raise record.error(f"row {r} holds something other than null, 'x' or a number")
        lines.append((record.line, " ".join(DARK if v is None else str(v) for v in row)))
    return parse(record.part(record.line, lines, record.name))


def solution_from_json(puzzle: AkariPuzzle, value: object) -> Solution:
    """Rows of ``o``, ``.`` and ``x`` (black exactly where the puzzle's black cells are)."""
    if not (isinstance(value, list) and len(value) == puzzle.rows and all(
            isinstance(row, str) and len(row) == puzzle.cols
            and all((ch == BLACK) == (v is not None) and ch in "o.x" for ch, v in zip(row, line))
            for row, line in zip(value, puzzle.grid))):
        raise ValueError(f"not {puzzle.rows} rows of {puzzle.cols} 'o' (light), '.' or 'x' (the black cells)")
    return tuple(value)


def estimate(rows: int, cols: int, connectivity: str = "lazy") -> tuple[int, int]:
    """(variables, clauses) at most, from the grid alone (an upper bound over every layout): a
    variable a cell and one for each cell of a long run in each direction (the sequential
    counter :func:`~satgrid.cnf.at_most` uses past 16 cells); a lit clause a cell, and at most
    7.5 pairwise at-most-one clauses a cell in each direction (runs of 16). The clause counts
    of real layouts are in encodings/akari.md."""
    cells = rows * cols
    return 3 * cells, 16 * cells


# -- formats ------------------------------------------------------------------------------------
def _from_values(values: tuple[tuple[Value, ...], ...], source: Source,
                 error: Callable[[int, int, str], Exception]) -> AkariPuzzle:
    """A puzzle from a format's cells (``"?"`` black), its numbers checked."""
    grid = tuple(tuple(BLACK if v == "?" else v for v in row) for row in values)
    _checked(grid, error)
    return AkariPuzzle(grid, "", source)


#: puz.link ``lightup`` (pzprjs ``lightup.js``: ``decode4Cell``/``encode4Cell``): a numbered black
#: cell is its number 0-4, an unnumbered one the ``?`` clue ``.``; the engine writes the pid
#: ``akari`` (its ``pzprurl``) and reads both.
PUZZLINK = puzzlink.Codec(
    pids=("akari", "lightup"),
    body=puzzlink.FOUR,
    read=lambda cells: _from_values(cells.values, cells.source, cells.error),
    write=lambda puzzle: [[puzzlink.UNKNOWN if v == BLACK else v for v in row] for row in puzzle.grid])

_LIT, _DOT = "light", "dot"


def _from_pzprv3(grids: pzprv3.Grids) -> tuple[AkariPuzzle, Solution | None]:
    """The one grid holds both: numbers and ``-`` black cells, ``#`` lights, ``+`` dots."""
    values = grids["grid"]
    puzzle = _from_values(tuple(tuple(None if v in (_LIT, _DOT) else v for v in row) for row in values),
                          grids.source, lambda r, c, message: grids.error("grid", r, c, message))
    if not any(v == _LIT for row in values for v in row):
        return puzzle, None
    return puzzle, tuple("".join(BLACK if v not in (None, _LIT, _DOT) else LIGHT if v == _LIT else DARK
                                 for v in row) for row in values)


def _to_pzprv3(puzzle: AkariPuzzle, solution: Solution | None) -> dict[str, list[list[object]]]:
    """pzprjs's ``encodeCellQnumAns``: a number, ``-`` an unnumbered black cell, ``#`` a light,
    ``+`` a white cell without one (``.`` without a solution)."""
    return {"grid": [["?" if v == BLACK else v if v is not None else
                      "." if solution is None else "#" if solution[r][c] == LIGHT else "+"
                      for c, v in enumerate(row)] for r, row in enumerate(puzzle.grid)]}


#: pzprv3 ``lightup`` (``FileIO``: ``decodeCellQnumAns``, then a grid of ``qcmp`` marks that the
#: engine writes only when a number is marked done, read as lines after the grid).
PZPRV3 = pzprv3.Codec(
    pids=("lightup", "akari"),
    sections=(pzprv3.Section("grid", pzprv3.clues(0, MAX_NUMBER, {"#": _LIT, "+": _DOT})),),
    read=_from_pzprv3, write=_to_pzprv3)

#: Light Up's params (``lightup.c`` ``decode_params``): ``WxH``, then ``b<black %>``, ``s<symmetry>``,
#: ``r`` (old "recursive") and ``d<difficulty>``.
_LIGHTUP_PARAMS = re.compile(r"(b[0-9]+)?(s[0-9]+)?r?(d[0-9]+)?")
_LIGHTUP_CHARS = re.compile(r"[0-4Ba-z]*")


def _lightup_size(gid: tatham.GameId) -> tuple[int, int]:
    cols = number(gid.width) or 0
    return number(gid.height or gid.width) or 0, cols


def _lightup_cells(desc: str) -> int:
    return sum(ord(ch) - ord("a") + 1 if "a" <= ch <= "z" else 1 for ch in desc)


def _lightup_fits(gid: tatham.GameId) -> bool:
    """A Light Up description of the grid's cells (sides at least 2) with its mark: a ``B`` or
    Light Up's own params. Without one it is also a Loopy description, which satgrid reads as
    Loopy (as before Light Up came), unless ``--genre akari`` says otherwise."""
    rows, cols = _lightup_size(gid)
    return (rows >= 2 and cols >= 2 and _LIGHTUP_CHARS.fullmatch(gid.desc) is not None
            and _lightup_cells(gid.desc) == rows * cols and ("B" in gid.desc or any(ch in "bs" for ch in gid.flags)))


def _from_lightup(gid: tatham.GameId) -> AkariPuzzle:
    """``lightup.c`` ``new_game``: cells row by row, ``B`` a black cell, ``0``-``4`` a numbered
    one, ``a``-``z`` a run of 1-26 white cells."""
    rows, cols = _lightup_size(gid)
    if not (2 <= rows <= tatham.MAX_SIZE and 2 <= cols <= tatham.MAX_SIZE):
        raise gid.error(f"a {cols}x{rows} Light Up grid: its sides run 2..{tatham.MAX_SIZE}", gid.lead + 1)
    cells: list[Value] = []
    at: list[int] = []
    for i, ch in enumerate(gid.desc):
        if "a" <= ch <= "z":
            run = ord(ch) - ord("a") + 1
        elif ch == "B" or "0" <= ch <= "4":
            run = 1
        else:
            raise gid.error(f"bad character {ch!r} in a Light Up description (0-4, B, a-z)", gid.column(5, i))
        if len(cells) + run > rows * cols:
            raise gid.error(f"the description goes past the {rows * cols} cells of a {cols}x{rows} grid",
                            gid.column(5, i))
        cells += [None] * run if "a" <= ch <= "z" else [BLACK if ch == "B" else int(ch)]
        at += [gid.column(5, i)] * run
    if len(cells) != rows * cols:
        raise gid.error(f"the description has {len(cells)} cells, a {cols}x{rows} grid has {rows * cols}",
                        gid.column(5, len(gid.desc)))
    grid = tuple(tuple(cells[r * cols:(r + 1) * cols]) for r in range(rows))
    return _from_values(grid, Source(gid.source, gid.line), lambda r, c, message: gid.error(message, at[r * cols + c]))


def _to_lightup(puzzle: AkariPuzzle) -> str:
    """``lightup.c`` ``new_game_desc``: ``WxH:``, runs of white cells ``a``-``z`` (a 27th white cell
    starts a new run), ``B`` a black cell, its number for a numbered one."""
    if puzzle.rows < 2 or puzzle.cols < 2:
        raise UnsupportedGenre(f"Light Up plays grids of at least 2x2, not {puzzle.cols}x{puzzle.rows}")
    out, run = [], 0
    for v in [*(v for row in puzzle.grid for v in row), "end"]:
        if v is None:
            if run == 26:
                out.append("z")
                run = 0
            run += 1
            continue
        if run:
            out.append(chr(ord("a") - 1 + run))
            run = 0
        if v != "end":
            out.append("B" if v == BLACK else str(v))
    return f"{puzzle.cols}x{puzzle.rows}:" + "".join(out)


#: Simon Tatham's Light Up. Its sign: a description with a ``B`` and a number (Pearl writes
#: ``B`` but no digits, Loopy digits but no ``B``), or its own params (``b``, ``s``). An ID with
#: ``B`` and no number is Pearl's, one without ``B`` Loopy's, unless ``--genre akari``.
TATHAM = tatham.Codec(
    game="Light Up", program="sgt-lightup",
    params=lambda gid: gid.height is not None and _LIGHTUP_PARAMS.fullmatch(gid.flags) is not None,
    fits=_lightup_fits, decode=_from_lightup, encode=_to_lightup,
    signs=lambda gid: _lightup_fits(gid) and (any(ch.isdigit() for ch in gid.desc)
                                              or any(ch in "bs" for ch in gid.flags)),
    hint="write Light Up IDs with their black percentage ({width}x{height}b20:...)")


def _puzzlekit_rows(puzzle: AkariPuzzle, solution: Solution | None) -> tuple[list[list[str]], list[list[str]] | None]:
    """The dataset's tokens: ``-`` white, ``x`` black, a number; the solution adds ``o`` lights."""
    problem = [["-" if v is None else "x" if v == BLACK else str(v) for v in row] for row in puzzle.grid]
    if solution is None:
        return problem, None
    return problem, [[tok if tok != "-" else ("o" if solution[r][c] == LIGHT else "-") for c, tok in enumerate(row)]
                     for r, row in enumerate(problem)]


#: The puzzlekit dataset's Akari grids (``assets/data/Akari``): ``-`` white, ``x`` black, numbers
#: on black cells; the solution the same with ``o`` lights.
PUZZLEKIT = puzzlekit.Codec(
    "Akari",
    problem=puzzlekit.Tokens({"-": ".", "x": BLACK}),
    solution=puzzlekit.Tokens({"-": ".", "x": BLACK}),
    solver="akari",
    write=_puzzlekit_rows,
)


# -- drawing and hints --------------------------------------------------------------------------
from ... import render_svg as svg  # noqa: E402  (kept with the parts that use it)
from ...grading import StateFormat, state_lines  # noqa: E402


def DRAW(puzzle: AkariPuzzle, solution: Solution | None, marks: svg.Marks) -> list[str]:
    """The puzzle-book look: black cells, their numbers in white (yellow when an audit found the
    number redundant), the solution's lights as circles."""
    black = puzzle.black()
    out = [*svg.cells(puzzle, marks), *svg.shaded(black, marks)]
    numbers = {p: str(k) for p, k in black.items() if k is not None}
    out += svg.labels({p: t for p, t in numbers.items() if p not in marks.redundant}, "clue", "#fff")
    out += svg.labels({p: t for p, t in numbers.items() if p in marks.redundant}, "clue redundant", svg.YELLOW)
    if solution is not None:
        out += svg.circles({(r, c): "white" for r, row in enumerate(solution) for c, x in enumerate(row) if x == LIGHT},
                           "light")
    return [*out, *svg.border(puzzle)]


def _read_state(puzzle: AkariPuzzle, text: str, source: str) -> dict:
    """A hint's partial state: the grid as :func:`render` prints it, ``o`` a light, ``+`` (or
    ``.``) no light, ``?`` (or ``_``) undecided; black cells ``x`` or their number."""
    def error(message: str, line: int | None, column: int | None) -> ParseError:
        return ParseError(source, line, message, column)

    rows = _solution_rows(puzzle, state_lines(text), "state", error, undecided="?_")
    state = {}
    for r, row in enumerate(rows):
        for c, x in enumerate(row):
            if x is not None:
                state[("light", r, c)] = x
    return state


STATE = StateFormat(
    _read_state, lambda puzzle, key, value: f"{cell_name(*key[1:])} {'holds a light' if value else 'has no light'}",
    lambda key, value: True,
    "the grid: 'o' a light, '+' or '.' no light, '?' undecided; black cells 'x' or their number", clue="number")


# -- golden samples -----------------------------------------------------------------------------
#: (text, status of ``solve --unique``, solution), checked by hand.
SAMPLES = (
    # the 2 takes both its neighbours, which light every other white cell
    ("2 . .\n. . .\n. . x\n", "unique", ("xo.", "o..", "..x")),
    (". . .\n. x .\n. . .\n", "multiple", None),  # two opposite corners, either pair
    ("0 .\n. 0\n", "unsatisfiable", None),  # both white cells touch a 0: nothing lights them
)


# -- generation ---------------------------------------------------------------------------------
#: The share of black cells the sampler starts from (lightup.c's default, 20%).
BLACK_SHARE = 0.2


def SAMPLE(rows: int, cols: int, rng: random.Random) -> AkariPuzzle:
    """A layout with every number, for the generic generator (:mod:`satgrid.generators.generic`,
    which erases numbers from it while it stays unique), after Tatham's ``lightup.c``
    (``set_blacks``, ``place_lights``, ``place_numbers``): black cells at random with 180-degree
    rotational symmetry, about :data:`BLACK_SHARE` of the grid; lights placed in random order on
    every white cell that no light shines on yet (so every white cell ends lit and no light sees
    another); every black cell numbered with the lights beside it.

    Where lightup.c draws a new layout with more black cells when every number still leaves
    several solutions, this sampler repairs the layout it has: while a second solution exists,
    one of that solution's lights that is not one of ours (and its mirror cell, unless that holds
    one of our lights) turns black, white cells left dark by the new black cell get lights (no
    light shines on a dark cell, so none sees another), and the numbers are read again. Each
    round adds a black cell and rules the second solution out, so the rounds end, with a layout
    whose numbers allow one solution: ours."""
    grid = Grid.of(rows, cols)
    black: set[Cell] = set()
    for r, c in rng.sample(grid.cells, len(grid.cells)):
        if len(black) >= BLACK_SHARE * rows * cols:
            break
        black |= {(r, c), (rows - 1 - r, cols - 1 - c)}
    lights: set[Cell] = set()
    while True:
        lit = {q for p in lights for line in grid.sightlines(p, lambda q: q in black) for q in line} | lights
        dark = [p for p in grid.cells if p not in black and p not in lit]
        rng.shuffle(dark)
        for p in dark:
            if p not in lit:
                lights.add(p)
                lit |= {p, *(q for line in grid.sightlines(p, lambda q: q in black) for q in line)}
        values = {p: sum(q in lights for q in grid.neighbours(p)) for p in black}
        puzzle = AkariPuzzle(tuple(tuple(values.get((r, c)) for c in range(cols)) for r in range(rows)))
        other = _other_solution(puzzle, decode_lights(puzzle, lights))
        if other is None:
            return puzzle
        theirs = [(r, c) for r, row in enumerate(other) for c, x in enumerate(row) if x == LIGHT and (r, c) not in lights]
        p = rng.choice(theirs)
        mirror = (rows - 1 - p[0], cols - 1 - p[1])
        black |= {p} if mirror in lights else {p, mirror}


def _other_solution(puzzle: AkariPuzzle, ours: Solution) -> Solution | None:
    """A solution of ``puzzle`` other than ``ours``, or None, on a session of its own (so that a
    seed makes the same layout again: a cached session would carry what earlier calls learnt)."""
    from ...queries import PuzzleQueries
    from ...session import Session

    session = Session(encode(puzzle))
    try:
        queries = PuzzleQueries(session, puzzle.clues())
        first = queries.solve()
        found = decode(puzzle, session.encoding, first.assignment)
        if found != ours:
            return found
        second = queries.other_solution(queries.project(first.assignment))
        return None if second.status == "unsat" else decode(puzzle, session.encoding, second.assignment)
    finally:
        session.close()


# -- repair -------------------------------------------------------------------------------------
def CANDIDATES(puzzle: AkariPuzzle, solution: Solution) -> dict[Cell, int]:
    """The numbers a repair may add: on every black cell without one, its lights beside."""
    near = Grid.of(puzzle.rows, puzzle.cols).adjacency
    return {p: sum(solution[q[0]][q[1]] == LIGHT for q in near[p])
            for p, v in puzzle.black().items() if v is None}
