"""TEMPLATE: the whole shape of a genre, on a small one (mines, as in Minesweeper puzzles).

Not in the registry: ``tests/test_template.py`` registers it for the length of a test and runs it
through every path a registered genre takes. To start a genre, copy this folder to
``satgrid/genres/<name>/``, rename, state the rulebook in :func:`rules`, add one line to
``satgrid/registry.py``, an examples file ``satgrid/data/<name>.txt``, ``encodings/<name>.md`` and
``tests/test_<name>.py``. Real genres show the optional parts this one leaves out: codecs
(``PUZZLINK``, ``PZPRV3``, ``TATHAM``, ``PUZZLEKIT``: ``satgrid/genres/hitori/``,
``satgrid/genres/masyu/``), hint states (``STATE``), command-line options (``OPTIONS``).

Rules: shade some cells (mines). A numbered cell holds no mine, and its number counts the mines
among its up to eight neighbours (sides and corners).

Encoding (:func:`rules`): ``("mine", r, c)`` per cell, primary. Each number is a clue behind its
selector: the cell holds no mine, and exactly ``k`` of its neighbours do (direct clauses up to six
literals, a sequential counter beyond). The rules do not depend on the numbers, so one encoding
serves every puzzle of a size (``cache_key``), and an audit switches numbers off.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from ...encoding import Encoding
from ...grid import Grid
from ...model import Clue, Model, made_once, read
from ...puzzle import GridPuzzle, Source, clues_added
from ...reader import Record, number
from .checker import check_mines

NAME = "template"
SUMMARY = "TEMPLATE (mines): a number counts the mines among its eight neighbours"
EXAMPLES = "template.txt"  # a registered genre's examples: satgrid/data/<name>.txt

Cell = tuple[int, int]
Numbers = tuple[tuple[int | None, ...], ...]
Solution = tuple[str, ...]  # rows of "*" (mine) and "." (no mine)


# -- the puzzle ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class MinesPuzzle(GridPuzzle):
    """Numbers 0-8 (None: no number) of a rows x cols grid."""

    genre: ClassVar[str] = NAME


# -- text ---------------------------------------------------------------------------------------
_TOKEN = re.compile(r"\S+")


def _rows(record: Record, lines: list[tuple[int, str]], width: int | None = None) -> list[list[tuple[str, int, int]]]:
    """Rows of ``(token, line, column)``, all of one width (errors name the line)."""
    rows = []
    for n, text in lines:
        tokens = [(m.group(), n, m.start() + 1) for m in _TOKEN.finditer(text)]
        if tokens:
            width = width or len(tokens)
            if len(tokens) != width:
                raise record.error(f"row has {len(tokens)} cells, expected {width}", n)
            rows.append(tokens)
            record.check_cells(len(rows), width, n)
    if not rows:
        raise record.error("no grid found")
    return rows


def parse(record: Record) -> MinesPuzzle:
    """Rows of whitespace-separated tokens: ``.`` no number, or a number 0-8."""
    grid = []
    for row in _rows(record, record.lines):
        cells = []
        for tok, line, col in row:
            k = None if tok == "." else number(tok)
            if tok != "." and (k is None or k > 8):
                raise record.error(f"{tok!r} is not a number 0-8 or '.'", line, col)
            cells.append(k)
        grid.append(tuple(cells))
    return MinesPuzzle(tuple(grid), record.name, Source(record.source, record.line))


def parse_solution(record: Record, puzzle: MinesPuzzle) -> Solution | None:
    """A ``solution:`` section: rows of ``*`` (mine) and ``.``, one token a cell."""
    if not record.solution_lines:
        return None
    rows = _rows(record, record.solution_lines, puzzle.cols)
    if len(rows) != puzzle.rows:
        raise record.error(f"the solution has {len(rows)} rows, the grid {puzzle.rows}")
    for row in rows:
        for tok, line, col in row:
            if tok not in ("*", "."):
                raise record.error(f"{tok!r} is not '*' (mine) or '.'", line, col)
    return tuple("".join(tok for tok, _, _ in row) for row in rows)


# -- the rules ----------------------------------------------------------------------------------
def rules(m: Model) -> None:
    """The rulebook in the vocabulary of encodings/rules.md: a layer, then named rules."""
    mine = m.cells("mine")

    @m.clue
    def count(c: Clue, cell: Cell, k: object) -> None:
        c.require([[-mine[cell]]])  # a numbered cell holds no mine
        c.exactly([mine[q] for q in m.grid.king_neighbours(cell)], int(k))  # type: ignore[call-overload]


@made_once()
def build(rows: int, cols: int) -> Encoding:
    """The encoding of every puzzle of a size, made once and copied per solver."""
    m = Model(Grid.of(rows, cols))
    rules(m)
    return m.build()


def cache_key(puzzle: MinesPuzzle) -> tuple:
    return (NAME, puzzle.rows, puzzle.cols)


def encode(puzzle: MinesPuzzle) -> Encoding:
    return build(puzzle.rows, puzzle.cols)


def decode(puzzle: MinesPuzzle, encoding: Encoding, value) -> Solution:
    on = read(encoding, "mine", value)
    return tuple("".join("*" if on[r, c] else "." for c in range(puzzle.cols)) for r in range(puzzle.rows))


def check(puzzle: MinesPuzzle, solution: Solution) -> list[str]:
    return check_mines(puzzle.rows, puzzle.cols, puzzle.clues(), solution)


# -- output and JSON ----------------------------------------------------------------------------
def render(puzzle: MinesPuzzle, solution: Solution | None = None) -> str:
    """The grid: numbers, ``*`` mines of the solution, ``.`` elsewhere."""
    return "\n".join(" ".join(str(k) if k is not None else (solution[r][c] if solution else ".")
                              for c, k in enumerate(row)) for r, row in enumerate(puzzle.grid))


def puzzle_json(puzzle: MinesPuzzle) -> list[list[int | None]]:
    return [list(row) for row in puzzle.grid]


def puzzle_from_json(record: Record, value: object) -> MinesPuzzle:
    """The inverse of :func:`puzzle_json`, through the text parser (so its checks apply)."""
    if not isinstance(value, list) or not all(isinstance(row, list) for row in value):
        raise record.error("not a list of rows of numbers (null: no number)")
    lines = [(record.line, " ".join("." if k is None else str(k) for k in row)) for row in value]
    return parse(record.part(record.line, lines, record.name))


def solution_from_json(puzzle: MinesPuzzle, value: object) -> Solution:
    if not (isinstance(value, list) and len(value) == puzzle.rows and all(
            isinstance(row, str) and len(row) == puzzle.cols and set(row) <= set("*.") for row in value)):
        raise ValueError(f"not {puzzle.rows} rows of {puzzle.cols} '*' or '.'")
    return tuple(value)


def estimate(rows: int, cols: int, connectivity: str = "lazy") -> tuple[int, int]:
    """(variables, clauses): a variable per cell, no clause without clues."""
    return rows * cols, 0


# -- drawing ------------------------------------------------------------------------------------
from ... import render_svg as svg  # noqa: E402  (kept with the parts that use it)


def DRAW(puzzle: MinesPuzzle, solution: Solution | None, marks: svg.Marks) -> list[str]:
    """Generic parts: cells, the solution's mines shaded, the numbers."""
    numbers = puzzle.clues()
    out = svg.cells(puzzle, marks, numbers)
    if solution is not None:
        out += svg.shaded([(r, c) for r, row in enumerate(solution) for c, x in enumerate(row) if x == "*"], marks)
    return [*out, *svg.border(puzzle), *svg.givens({p: str(k) for p, k in numbers.items()})]


# -- the generic generator ----------------------------------------------------------------------
def BLANK(rows: int, cols: int) -> MinesPuzzle:
    return MinesPuzzle(tuple((None,) * cols for _ in range(rows)))


def READ_CLUES(blank: MinesPuzzle, solution: Solution) -> MinesPuzzle:
    """Every mine-free cell's number."""
    grid = Grid.of(blank.rows, blank.cols)
    return blank.with_clues({p: sum(solution[q[0]][q[1]] == "*" for q in grid.king_neighbours(p))
                             for p in grid.cells if solution[p[0]][p[1]] == "."})


# -- repair -------------------------------------------------------------------------------------
#: The clues ``satgrid repair`` may add: every mine-free cell's number that the puzzle lacks (a
#: genre without addable clues declares ``CANDIDATES = None``).
CANDIDATES = clues_added(READ_CLUES)


# -- golden samples -----------------------------------------------------------------------------
#: (text, status of ``solve --unique``, solution), checked by hand: one mine beside three 1s.
SAMPLES = (
    ("1 1\n. 1\n", "unique", ("..", "*.")),
    (". .\n. .\n", "multiple", None),
    ("8 .\n. .\n", "unsatisfiable", None),  # a corner has three neighbours
)
