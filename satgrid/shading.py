"""What shading genres share outside their rules: a solution is rows of ``#`` (shaded) and ``.``
(unshaded), one mark a cell, on a grid whose cells may show a label (a number).

* Text: :func:`grid_tokens` reads the rows of a solution or hint state, one character a cell or
  whitespace-separated tokens (as genres' ``render`` prints them); :func:`parse_solution` reads a
  block's ``solution:`` section; :func:`state` is the hint-state format (``STATE``).
* pzprv3 (pzprjs ``FileIO.decodeCellAns``/``encodeCellAns``): :func:`pzprv3_answer` reads an
  answer cell (``#`` shaded, ``+`` a dot, ``.`` undecided), :func:`pzprv3_answer_rows` writes
  one, :func:`solution_of_answer` reads the answer grid back.
* Drawing: :func:`draw` the cells, the solution's shaded cells, room borders, and the labels
  (grey on shaded cells).

A genre passes ``label(r, c)``: the token its text shows in a cell (a number), or None; a
solution or state may write that token for an unshaded (solution) or undecided (state) cell.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Sequence

from . import render_svg as svg
from .errors import ParseError
from .grading import StateFormat, state_lines
from .puzzle import cell_name
from .reader import Record

Solution = tuple[str, ...]
Label = Callable[[int, int], "str | None"]
Token = tuple[str, int, int]  # (text, line, column)
_TOKEN = re.compile(r"\S+")


def grid_tokens(lines: list[tuple[int, str]], rows: int, cols: int, what: str,
                error: Callable[[str, int | None, int | None], Exception]) -> list[list[Token]]:
    """The rows of a solution or state grid as ``(token, line, column)``: one character a cell, or
    whitespace-separated tokens (as a genre's ``render`` prints them); ``error(message, line,
    column)`` makes the exception raised."""
    lines = [(n, t) for n, t in lines if t.strip()]
    if len(lines) != rows:
        raise error(f"the {what} has {len(lines)} rows, the grid {rows}", lines[0][0] if lines else None, None)
    out = []
    for line, text in lines:
        if len(text.split()) > 1:
            tokens = [(m.group(), line, m.start() + 1) for m in _TOKEN.finditer(text)]
        else:
            tokens = [(ch, line, i + 1) for i, ch in enumerate(text) if not ch.isspace()]
        if len(tokens) != cols:
            raise error(f"{what} row has {len(tokens)} cells, the grid {cols}", line, None)
        out.append(tokens)
    return out


def parse_solution(record: Record, puzzle: Any, label: Label) -> Solution | None:
    """The solution in a block's ``solution:`` section (None when it has none): rows of ``#``
    (shaded) and ``.`` or ``+`` (unshaded), or the cell's label (unshaded)."""
    if not any(t.strip() for _, t in record.solution_lines):
        return None
    rows = []
    for r, tokens in enumerate(grid_tokens(record.solution_lines, puzzle.rows, puzzle.cols, "solution",
                                           record.error)):
        row = []
        for c, (tok, line, col) in enumerate(tokens):
            if tok == "#":
                row.append("#")
            elif tok in (".", "+") or tok == label(r, c):
                row.append(".")
            else:
                raise record.error(f"{tok!r} is not a solution cell for {cell_name(r, c)}: use '#' "
                                   "(shaded), '.' (unshaded) or the cell's number", line, col)
        rows.append("".join(row))
    return tuple(rows)


def read_state(puzzle: Any, text: str, source: str, label: Label, layer: str = "shaded") -> dict:
    """A hint's partial state: the grid, ``#`` shaded, ``.`` (or ``+``) unshaded, ``?`` (or ``_``)
    or the cell's label undecided; keys ``(layer, r, c)``."""
    def error(message: str, line: int | None, column: int | None) -> ParseError:
        return ParseError(source, line, message, column)

    state = {}
    for r, tokens in enumerate(grid_tokens(state_lines(text), puzzle.rows, puzzle.cols, "state", error)):
        for c, (tok, line, col) in enumerate(tokens):
            if tok in ("#", ".", "+"):
                state[(layer, r, c)] = tok == "#"
            elif tok not in ("?", "_") and tok != label(r, c):
                raise error(f"{tok!r} is not a cell mark for {cell_name(r, c)}: use '#' (shaded), '.' "
                            "(unshaded), '?' or the cell's number (undecided)", line, col)
    return state


def state(label_of: Callable[[Any], Label], clue: str = "number") -> StateFormat:
    """The hint-state format of a shading genre whose primary layer is ``shaded``;
    ``label_of(puzzle)`` is the puzzle's :data:`Label`."""
    return StateFormat(
        lambda puzzle, text, source: read_state(puzzle, text, source, label_of(puzzle)),
        lambda puzzle, key, value: f"{cell_name(*key[1:])} is {'shaded' if value else 'unshaded'}",
        lambda key, value: True,
        "the grid: '#' shaded, '.' (or '+') unshaded, '?' or the cell's number undecided", clue=clue)


# -- pzprv3 answers -----------------------------------------------------------------------------
def pzprv3_answer(word: str, rows: int, cols: int) -> str:
    """pzprjs's ``decodeCellAns``: ``#`` shaded, ``+`` a dot (unshaded), ``.`` undecided."""
    if word not in ("#", "+", "."):
        raise ValueError(f"{word!r} is not an answer cell ('#' shaded, '+' or '.' unshaded)")
    return "#" if word == "#" else "."


def pzprv3_answer_rows(puzzle: Any, solution: Solution | None) -> list[list[str]]:
    """pzprjs's ``encodeCellAns``: ``#`` shaded and ``+`` unshaded (every cell decided), ``.``
    everywhere without a solution."""
    return [["." if solution is None else "#" if solution[r][c] == "#" else "+" for c in range(puzzle.cols)]
            for r in range(puzzle.rows)]


def solution_of_answer(answer: list[list[str]]) -> Solution | None:
    """The answer grid read by :func:`pzprv3_answer` as a solution, or None when no cell of it is
    shaded (a file without an answer)."""
    if not any("#" in row for row in answer):
        return None
    return tuple("".join(row) for row in answer)


# -- drawing ------------------------------------------------------------------------------------
def draw(puzzle: Any, solution: Solution | None, marks: svg.Marks, numbers: dict,
         walls: Sequence[str] = ()) -> list[str]:
    """The grid's cells and ``numbers`` (``{cell: value}``); a solution's shaded cells black, the
    numbers on them grey; ``walls`` (room borders, :func:`satgrid.render_svg.room_borders`) over
    the cells, under the outer border."""
    dark = {p for p in numbers if solution is not None and solution[p[0]][p[1]] == "#"}
    out = svg.cells(puzzle, marks, numbers)
    if solution is not None:
        out += svg.shaded([(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)
                           if solution[r][c] == "#"], marks)
    return [*out, *walls, *svg.border(puzzle),
            *svg.givens({p: str(v) for p, v in numbers.items() if p not in dark}),
            *svg.labels({p: str(numbers[p]) for p in dark}, "clue", svg.GREY)]
