"""Numbered shading grids: the parts that genres share whose puzzle is a grid of numbers (None:
a cell without one) and whose solution shades cells, rows of ``#`` (shaded) and ``.``.

A genre's record builds its text, JSON, drawing, hint state and codecs from these; the rules and
the bounds on the numbers stay the genre's:

* text: rows of whitespace-separated tokens, a number or ``.`` (:func:`parse_numbers`), written
  back right-aligned with ``#`` on shaded cells (:func:`render`); a ``solution:`` section of ``#``
  and ``.``/``+`` or the cell's number (:func:`parse_shading`);
* JSON: rows of numbers, ``0`` for none (:func:`numbers_json`, :func:`numbers_from_json`);
* drawing: numbers, shaded cells black, a number on a shaded cell grey, room borders if any
  (:func:`draw`);
* hints: the state grid (:data:`STATE`; :func:`state_format` with another cell label);
* pzprv3: the clue grid and pzprjs's ``decodeCellAns`` answer (:func:`pzprv3_codec`; the
  answer alone: :func:`pzprv3_answer`, :func:`pzprv3_solution`);
* the puzzlekit dataset: ``-`` empty, numbers; solutions ``x`` shaded, ``-`` not
  (:func:`puzzlekit_codec`).
"""
from __future__ import annotations

import re
from typing import Callable, Sequence, TypeVar

from .errors import ParseError
from .formats import puzzlekit, pzprv3
from .grading import StateFormat, state_lines
from .puzzle import GridPuzzle, Source, cell_name
from .reader import Record, number

EMPTY = "."
_TOKEN = re.compile(r"\S+")
Solution = tuple[str, ...]
P = TypeVar("P", bound=GridPuzzle)
#: ``bound(rows, cols)``: the largest (or smallest) number a grid of that size may hold.
Bound = Callable[[int, int], int]
#: ``error(message, line, column)``: the ParseError of a grid reader.
Fail = Callable[[str, "int | None", "int | None"], Exception]


# -- text ---------------------------------------------------------------------------------------
def parse_numbers(record: Record, make: type[P], high: Bound, why: Callable[[int, int], str],
                  low: int = 1, unknown: str | None = None) -> P:
    """Rows of whitespace-separated tokens, each a number ``low..high(rows, cols)`` or ``.``, or
    ``unknown`` (if given: a clue without a value, kept as that token, e.g. ``?``);
    ``why(rows, cols)`` says where the upper bound comes from in the out-of-range error. Errors
    name the line (and column): rows of unequal length, a token that is no number, a number out
    of range, ``rows:``/``cols:`` headers that disagree with the grid."""
    rows = record.token_rows()
    if not rows:
        raise record.error("no grid of numbers found")
    width, height = len(rows[0][1]), len(rows)
    for line, tokens in rows:
        if len(tokens) != width:
            raise record.error(
                f"row has {len(tokens)} cells, the first row has {width} (rows must be equally long)", line)
    for key, actual in (("rows", height), ("cols", width)):
        if key in record.meta and number(record.meta[key]) != actual:
            raise record.error(f"header says {key}: {record.meta[key]}, the grid has {actual}")
    top = high(height, width)
    grid = []
    for line, tokens in rows:
        cells: list[int | None] = []
        for tok, col in tokens:
            value = number(tok)
            if tok == EMPTY:
                cells.append(None)
            elif unknown is not None and tok == unknown:
                cells.append(unknown)
            elif value is None:
                also = f", {unknown!r}" if unknown is not None else ""
                raise record.error(f"token {tok!r} is not a number{also} or '.' (a cell without one)", line, col)
            elif not low <= value <= top:
                raise record.error(f"number {tok} is out of range {low}..{top} ({why(height, width)})",
                                   line, col)
            else:
                cells.append(value)
        grid.append(tuple(cells))
    return make(tuple(grid), record.name, Source(record.source, record.line))


def grid_tokens(lines: list[tuple[int, str]], puzzle: GridPuzzle, what: str,
                error: Fail) -> list[list[tuple[str, int, int]]]:
    """The rows of a solution or state grid as ``(token, line, column)``: one character a cell, or
    whitespace-separated tokens (as :func:`render` prints them); ``error(message, line, column)``."""
    lines = [(n, t) for n, t in lines if t.strip()]
    if len(lines) != puzzle.rows:
        raise error(f"the {what} has {len(lines)} rows, the grid {puzzle.rows}", lines[0][0] if lines else None, None)
    rows = []
    for line, text in lines:
        if len(text.split()) > 1:
            tokens = [(m.group(), line, m.start() + 1) for m in _TOKEN.finditer(text)]
        else:
            tokens = [(ch, line, i + 1) for i, ch in enumerate(text) if not ch.isspace()]
        if len(tokens) != puzzle.cols:
            raise error(f"{what} row has {len(tokens)} cells, the grid {puzzle.cols}", line, None)
        rows.append(tokens)
    return rows


#: ``label(puzzle, r, c)``: what the text output shows on an unshaded cell (its number; a room
#: genre's room id), which solution and state grids may show there too.
Label = Callable[[GridPuzzle, int, int], str]


def number_label(puzzle: GridPuzzle, r: int, c: int) -> str:
    return str(puzzle.grid[r][c])


def parse_shading(record: Record, puzzle: GridPuzzle, label: Label = number_label,
                  noun: str = "number") -> Solution | None:
    """The solution in a block's ``solution:`` section (None when it has none): rows of ``#``
    (shaded) and ``.`` or ``+`` (unshaded), one character a cell, or whitespace-separated tokens
    as :func:`render` prints them, where an unshaded cell shows its ``label`` (its number, or
    what ``noun`` names)."""
    if not any(t.strip() for _, t in record.solution_lines):
        return None
    rows = []
    for r, tokens in enumerate(grid_tokens(record.solution_lines, puzzle, "solution", record.error)):
        row = []
        for c, (tok, line, col) in enumerate(tokens):
            if tok == "#":
                row.append("#")
            elif tok in (".", "+") or tok == label(puzzle, r, c):
                row.append(".")
            else:
                raise record.error(f"{tok!r} is not a solution cell for {cell_name(r, c)}: use '#' "
                                   f"(shaded), '.' (unshaded) or the cell's {noun}", line, col)
        rows.append("".join(row))
    return tuple(rows)


def render(puzzle: GridPuzzle, solution: Solution | None = None) -> str:
    """The grid: numbers (``.`` without one), ``#`` for shaded cells; columns line up."""
    width = max([1, *(len(str(v)) for v in puzzle.numbers().values())])
    lines = []
    for r, row in enumerate(puzzle.grid):
        tokens = ["#" if solution is not None and solution[r][c] == "#" else EMPTY if v is None else str(v)
                  for c, v in enumerate(row)]
        lines.append(" ".join(t.rjust(width) for t in tokens))
    return "\n".join(lines)


# -- JSON ---------------------------------------------------------------------------------------
def numbers_json(puzzle: GridPuzzle) -> list[list[int | str]]:
    """Rows of numbers, 0 for a cell without one (a clue without a value as its token, ``"?"``)."""
    return [[0 if v is None else v for v in row] for row in puzzle.grid]


def numbers_from_json(record: Record, value: object, parse: Callable[[Record], P],
                      unknown: str | None = None) -> P:
    """The inverse of :func:`numbers_json`, written out as text rows and read by the genre's
    ``parse``, so every check of it applies; ``unknown`` (e.g. ``"?"``) passes on as it is."""
    if not isinstance(value, list) or not value or not all(isinstance(row, list) and row for row in value):
        raise record.error("not a list of rows of numbers")
    lines = []
    for r, row in enumerate(value, 1):
        if not all((type(v) is int and v >= 0) or (unknown is not None and v == unknown) for v in row):
            also = f", {unknown!r}" if unknown is not None else ""
            raise record.error(f"row {r} holds something other than numbers{also} (0 for none)")
        lines.append((record.line, " ".join(EMPTY if v == 0 else str(v) for v in row)))
    return parse(record.part(record.line, lines, record.name))


# -- drawing and hints --------------------------------------------------------------------------
from . import render_svg as svg  # noqa: E402  (kept with the parts that use it)


def draw(puzzle: GridPuzzle, solution: Solution | None, marks: svg.Marks, walls: Sequence[str] = ()) -> list[str]:
    """The grid and its numbers; a solution's shaded cells black, a number on one grey; ``walls``
    (room borders, :func:`satgrid.render_svg.rooms`) over the cells, under the outer border."""
    numbers = puzzle.numbers()
    dark = {p for p in numbers if solution is not None and solution[p[0]][p[1]] == "#"}
    out = svg.cells(puzzle, marks, numbers)
    if solution is not None:
        out += svg.shaded([(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)
                           if solution[r][c] == "#"], marks)
    return [*out, *walls, *svg.border(puzzle), *svg.givens({p: str(v) for p, v in numbers.items() if p not in dark}),
            *svg.labels({p: str(numbers[p]) for p in dark}, "clue", svg.GREY)]


def state_format(label: Label = number_label, noun: str = "number", clue: str = "number") -> StateFormat:
    """``hint --state`` of a genre whose primary layer is ``("shaded", r, c)``: the grid, ``#``
    shaded, ``.`` (or ``+``) unshaded, ``?`` (or ``_``) or the cell's ``label`` undecided."""
    def read(puzzle: GridPuzzle, text: str, source: str) -> dict:
        def error(message: str, line: int | None, column: int | None) -> ParseError:
            return ParseError(source, line, message, column)

        state = {}
        for r, tokens in enumerate(grid_tokens(state_lines(text), puzzle, "state", error)):
            for c, (tok, line, col) in enumerate(tokens):
                if tok in ("#", ".", "+"):
                    state[("shaded", r, c)] = tok == "#"
                elif tok not in ("?", "_") and tok != label(puzzle, r, c):
                    raise error(f"{tok!r} is not a cell mark for {cell_name(r, c)}: use '#' (shaded), '.' "
                                f"(unshaded), '?' or the cell's {noun} (undecided)", line, col)
        return state

    return StateFormat(
        read, lambda puzzle, key, value: f"{cell_name(*key[1:])} is {'shaded' if value else 'unshaded'}",
        lambda key, value: True,
        f"the grid: '#' shaded, '.' (or '+') unshaded, '?' or the cell's {noun} undecided", clue=clue)


#: ``hint --state`` of a numbered shading genre.
STATE = state_format()


# -- formats ------------------------------------------------------------------------------------
def pzprv3_codec(pids: tuple[str, ...], make: type[P], low: int | Bound, high: Bound,
                 unknown: str | None) -> pzprv3.Codec:
    """pzprv3 with pzprjs's ``decodeCellQnum`` then ``decodeCellAns``: the clue grid (numbers
    ``low..high(rows, cols)``; a ``?`` number is refused with the message ``unknown``, or kept as
    ``"?"`` when ``unknown`` is None), then the
    answer, ``#`` shaded and ``+`` unshaded (every cell decided), ``.`` without a solution. A file
    whose answer shades nothing reads as a puzzle without one."""
    def read(grids: pzprv3.Grids) -> tuple[P, Solution | None]:
        for r, row in enumerate(grids["clue grid"]):
            for c, v in enumerate(row):
                if v == "?" and unknown is not None:
                    raise grids.error("clue grid", r, c, unknown)
        return make(tuple(map(tuple, grids["clue grid"])), "", grids.source), pzprv3_solution(grids)

    def write(puzzle: GridPuzzle, solution: Solution | None) -> dict[str, list[list[object]]]:
        return {"clue grid": [list(row) for row in puzzle.grid], "answer": pzprv3_answer(puzzle, solution)}

    return pzprv3.Codec(pids=pids, sections=(pzprv3.Section("clue grid", pzprv3.clues(low, high)),
                                             pzprv3.Section("answer", pzprv3.SHADING, answer=True)),
                        read=read, write=write)


def pzprv3_answer(puzzle: GridPuzzle, solution: Solution | None) -> list[list[str]]:
    """pzprjs's ``encodeCellAns`` of a shading: ``#`` shaded and ``+`` unshaded (every cell
    decided), or ``.`` everywhere without a solution."""
    return [["." if solution is None else "#" if solution[r][c] == "#" else "+" for c in range(puzzle.cols)]
            for r in range(puzzle.rows)]


def pzprv3_solution(grids: pzprv3.Grids) -> Solution | None:
    """The answer grid (:data:`pzprv3.SHADING`, section ``"answer"``) as a solution; None when
    the file holds none or it shades nothing."""
    answer = grids["answer"] if "answer" in grids else []
    if not any("#" in row for row in answer):
        return None
    return tuple("".join(row) for row in answer)


def puzzlekit_codec(dataset: str, solver: str) -> puzzlekit.Codec:
    """The puzzlekit dataset's numbered shading grids: problem numbers (``-`` none), which the
    genre's text parser reads as they are; solution ``x`` shaded and ``-`` unshaded."""
    return puzzlekit.Codec(dataset, problem=puzzlekit.Tokens({"-": "."}),
                           solution=puzzlekit.Tokens({"x": "#", "-": "."}, strict=True), solver=solver)

