"""Sudoku of every size n = h*w (boxes h tall, w wide): 4x4, 6x6, 9x9, 12x12, 16x16, 25x25.

Rules: fill the n x n grid with 1..n so that every row, column and box holds each value once;
givens stay.

Encoding (:func:`rules`, on :class:`~satgrid.model.Model`; Lynce & Ouaknine, "Sudoku as a SAT
problem", 2006, the *extended* encoding): a one-hot layer ``("digit", r, c, d)``; exactly one value
per cell, and each value exactly once in each row, column and box (at-least-one and at-most-one
for all four families, redundant but strong: unit propagation alone solves 44.6% of Royle's
17-clue puzzles, against 0% for the minimal encoding). A given is the digit literal itself,
assumed, so one solver serves every puzzle of a size. See ``encodings/sudoku.md`` for sizes.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import ClassVar

from ... import grid as geometry
from .checker import check_sudoku
from ...cnf import PAIRWISE_AMO_LIMIT
from ...encoding import Encoding
from ...grid import Cell
from ...model import Clue, Model, read_numbers
from ...puzzle import GivenSolution, Source, cell_name
from ...reader import Record, is_decimal, number, split_on_blank_lines

NAME = "sudoku"
SUMMARY = "Sudoku of any size n = h*w (4x4 ... 25x25); every row, column and box holds 1..n once"
EXAMPLES = "sudoku.txt"

#: Default box (height, width) for each size: square boxes, 6x6 and 12x12 as puzzle books print.
DEFAULT_BOX = {4: (2, 2), 6: (2, 3), 8: (2, 4), 9: (3, 3), 10: (2, 5), 12: (3, 4), 16: (4, 4),
               20: (4, 5), 25: (5, 5), 36: (6, 6)}
DIGITS = "123456789"
#: One symbol per value up to 35 (ipuz's default charset for big grids).
#: Symbols of sizes above 9 (36 of them: 0 stands for 36, after Z).
WIDE_SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ0"
BLANKS = "._"
#: Characters no symbol set can use: the grid reads them as layout, blanks or (first in a row) a
#: comment or a ``key:`` header.
RESERVED = " |+-._#:"

Grid = tuple[tuple[int | None, ...], ...]
Solution = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class SudokuPuzzle:
    """Givens (``None`` = blank) of an n x n Sudoku with boxes ``box_height`` x ``box_width``."""

    givens: Grid
    box_height: int
    box_width: int
    name: str = ""
    source: Source = Source()
    symbols: str | None = None
    #: The solution written in the input, if any (set by ``api.load``; not part of equality).
    given_solution: GivenSolution | None = field(default=None, compare=False, repr=False)
    genre: ClassVar[str] = NAME

    @property
    def size(self) -> int:
        return len(self.givens)

    @property
    def rows(self) -> int:
        return self.size

    @property
    def cols(self) -> int:
        return self.size

    def clues(self) -> dict[tuple[int, int], int]:
        return {(r, c): d for r, row in enumerate(self.givens) for c, d in enumerate(row) if d is not None}

    def with_clues(self, clues: dict[tuple[int, int], int]) -> "SudokuPuzzle":
        n = self.size
        grid = tuple(tuple(clues.get((r, c)) for c in range(n)) for r in range(n))
        return SudokuPuzzle(grid, self.box_height, self.box_width, self.name, self.source, self.symbols)


# -- parsing ------------------------------------------------------------------------------------
#: Characters that draw box borders and rule lines; a ``+`` or ``-`` glued to a symbol is a sign,
#: which _value rejects.
_LAYOUT = " \t|+-"
_NUMBER = re.compile(r"[0-9]+|[._]")


def _cells(text: str) -> list[tuple[str, int]]:
    """The cell tokens of a line with their 1-based columns; layout characters are skipped.

    Whitespace-separated numbers when every word is a number or blank and some number has two
    digits (16x16 and up), else one symbol a character; ``|``, ``+`` and ``-`` draw box borders
    and rule lines.
    """
    words = [(m.group().strip("|+"), m.start() + 1) for m in re.finditer(r"\S+", text)]
    words = [(w, col) for w, col in words if set(w) - set("-|+")]
    if (len(words) > 1 and all(_NUMBER.fullmatch(w) for w, _ in words)
            and any(len(w) > 1 for w, _ in words)):
        return words
    cells = []
    for col, ch in enumerate(text):
        if ch not in _LAYOUT:
            signed = col and text[col - 1] in "+-"
            cells.append((text[col - 1] + ch, col) if signed else (ch, col + 1))
    return cells


def split(record: Record) -> list[Record]:
    """One record per puzzle: a square grid, or one puzzle a line (n*n symbols)."""
    if record.name:  # a ``puzzle ... end`` block holds one puzzle
        return [record]
    puzzles: list[list[tuple[int, str]]] = []
    for group in split_on_blank_lines(record.lines):
        rows = [(n, t) for n, t in group if _cells(t)]
        widths = [len(_cells(t)) for _, t in rows]
        square_grid = len(rows) > 1 and set(widths) == {len(rows)}
        if all(w >= 16 and math.isqrt(w) ** 2 == w for w in widths) and not square_grid:
            puzzles.extend([row] for row in rows)
        elif rows:
            puzzles.append(rows)
    return [record.part(lines[0][0], lines) for lines in puzzles]


def parse(record: Record) -> SudokuPuzzle:
    """A Sudoku from a record: one line of n*n symbols, or n rows of n cells."""
    rows = []
    for n, t in record.lines:
        cells = _cells(t)
        if cells:
            rows.append((n, cells))
            record.check_cells(len(rows), len(cells), n)
    if not rows:
        raise record.error("no Sudoku grid found")
    if len(rows) == 1:
        line, cells = rows[0]
        n = math.isqrt(len(cells))
        if n * n != len(cells) or n < 1:
            raise record.error(f"a one-line Sudoku needs n*n symbols (16, 36, 81, ...); found {len(cells)}", line)
        grid_cells = [[(line, cells[r * n + c]) for c in range(n)] for r in range(n)]
    else:
        n = len(rows)
        for line, cells in rows:
            if len(cells) != n:
                raise record.error(f"row has {len(cells)} cells, expected {n} (the grid has {n} rows)", line)
        grid_cells = [[(line, cell) for cell in cells] for line, cells in rows]
    box = _box(record, n)
    symbols = record.meta.get("symbols")
    numeric = any(len(tok) > 1 for row in grid_cells for _, (tok, _) in row)
    if symbols is None and not numeric and n > 9:
        raise record.error(
            f"a {n}x{n} Sudoku written one symbol per cell needs its symbol set "
            "(--symbols, e.g. 123456789ABCDEFG or 0123456789ABCDEF), or write it as numbers"
        )
    problem = None if symbols is None else symbols_problem(symbols, n)
    if problem:
        raise record.error(problem)
    givens = tuple(
        tuple(_value(record, line, tok, col, n, symbols, numeric) for line, (tok, col) in row)
        for row in grid_cells
    )
    puzzle = SudokuPuzzle(givens, box[0], box[1], record.name, Source(record.source, record.line), symbols)
    _check_duplicates(record, puzzle, grid_cells)
    return puzzle


def parse_solution(record: Record, puzzle: SudokuPuzzle) -> Solution | None:
    """The solution in a block's ``solution:`` section (None when it has none): the full grid as
    the puzzle is written or as :func:`render` prints it (box borders optional), n rows of n
    values or one line of n*n."""
    rows = [(n, cells) for n, cells in ((n, _cells(t)) for n, t in record.solution_lines) if cells]
    if not rows:
        return None
    n = puzzle.size
    if len(rows) == 1 and len(rows[0][1]) == n * n:
        line, cells = rows[0]
        rows = [(line, cells[r * n:(r + 1) * n]) for r in range(n)]
    if len(rows) != n:
        raise record.error(f"the solution has {len(rows)} rows, the {n}x{n} grid needs {n}", rows[0][0])
    numeric = puzzle.symbols is None or any(len(tok) > 1 for _, cells in rows for tok, _ in cells)
    grid = []
    for r, (line, cells) in enumerate(rows):
        if len(cells) != n:
            raise record.error(f"solution row has {len(cells)} cells, expected {n}", line)
        values = []
        for c, (tok, col) in enumerate(cells):
            value = _value(record, line, tok, col, n, puzzle.symbols, numeric)
            if value is None:
                raise record.error(f"the solution leaves {cell_name(r, c)} blank", line, col)
            values.append(value)
        grid.append(tuple(values))
    return tuple(grid)


def charset_problem(symbols: str, n: int) -> str | None:
    """Why ``symbols`` cannot be the symbols of an n x n Sudoku at all (None when they can): n
    different printable characters. An ipuz charset or a JSON result's ``symbols`` may hold
    characters the text grid cannot (see :func:`symbols_problem`); nothing may hold unprintable ones."""
    if len(symbols) != n or len(set(symbols)) != n:
        return f"symbol set {symbols!r} has {len(set(symbols))} different symbols in {len(symbols)}, the grid needs {n}"
    if not symbols.isprintable():
        return f"symbol set {symbols!r} holds a character that cannot be printed"
    return None


def symbols_problem(symbols: str, n: int) -> str | None:
    """Why ``symbols`` cannot be the symbol set of an n x n Sudoku grid in the text format (None
    when it can): a :func:`charset_problem`, or one of :data:`RESERVED`."""
    problem = charset_problem(symbols, n)
    if problem is not None:
        return problem
    bad = next((ch for ch in symbols if ch in RESERVED or ch.isspace()), None)
    if bad is not None:
        return f"symbol set {symbols!r} holds {bad!r}, which a grid reads as layout, a blank, a comment or a header"
    return None


def _box(record: Record, n: int) -> tuple[int, int]:
    text = record.meta.get("box")
    if text is None:
        if n not in DEFAULT_BOX:
            raise record.error(f"no standard box shape for a {n}x{n} Sudoku; give 'box: HxW'")
        return DEFAULT_BOX[n]
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(is_decimal(x.strip()) for x in parts):
        raise record.error(f"box {text!r} is not HxW (height x width, e.g. 2x3)")
    h, w = (number(x.strip()) or 0 for x in parts)
    if h < 1 or w < 1 or h * w != n:
        raise record.error(f"box {h}x{w} does not fit a {n}x{n} grid")
    return h, w


def _value(record: Record, line: int, tok: str, col: int, n: int, symbols: str | None, numeric: bool):
    if tok in BLANKS or (tok == "0" and (symbols is None or "0" not in symbols)):
        return None
    if tok[0] in "+-" and len(tok) > 1:
        raise record.error(f"{tok!r} is signed: a given is a value 1..{n}, written without a sign",
                           line, col)
    if symbols is not None and not numeric:
        index = symbols.find(tok)
        if index < 0:  # case-insensitive, symbol by symbol ('ß'.upper() is two letters)
            index = next((i for i, s in enumerate(symbols) if s.upper() == tok.upper()), -1)
        if index < 0:
            raise record.error(f"symbol {tok!r} is not in the symbol set {symbols!r}", line, col)
        return index + 1
    value = number(tok)
    if value is not None and 1 <= value <= n:
        return value
    if value is not None:
        raise record.error(f"value {tok} is out of range 1..{n}", line, col)
    raise record.error(f"symbol {tok!r} is not a value 1..{n} or a blank ('.' or '0')", line, col)


def _check_duplicates(record: Record, puzzle: SudokuPuzzle, grid_cells) -> None:
    n, h, w = puzzle.size, puzzle.box_height, puzzle.box_width
    seen: dict[tuple[str, int, int], tuple[int, int]] = {}
    for r in range(n):
        for c in range(n):
            d = puzzle.givens[r][c]
            if d is None:
                continue
            for kind, index in (("row", r), ("column", c), ("box", (r // h) * (n // w) + c // w)):
                other = seen.setdefault((kind, index, d), (r, c))
                if other != (r, c):
                    line, (_, col) = grid_cells[r][c]
                    raise record.error(
                        f"given {d} twice in {kind} {index + 1} ({cell_name(*other)} and {cell_name(r, c)})",
                        line, col,
                    )


# -- encoding -----------------------------------------------------------------------------------
def cache_key(puzzle: SudokuPuzzle) -> tuple:
    """Every Sudoku of one size and box shape has the same encoding (givens are assumptions)."""
    return (NAME, puzzle.size, puzzle.box_height, puzzle.box_width)


def rules(m: Model, puzzle: SudokuPuzzle) -> None:
    """Sudoku's rulebook: one value 1..n per cell, no value twice in a row, a column or a box (each
    unit has n cells, so each value also occurs in it: the *extended* encoding's redundant
    at-least-one clauses), and a given is the digit variable itself."""
    grid = m.grid
    digit = m.numbers("digit", range(1, puzzle.size + 1))
    rows = [grid.row(r) for r in range(grid.rows)]
    columns = [grid.column(c) for c in range(grid.cols)]
    boxes = grid.boxes(puzzle.box_height, puzzle.box_width)
    m.all_different("no digit twice in a row, a column or a box", digit, rows + columns + boxes)

    @m.clue
    def given(c: Clue, cell: Cell, d: int) -> None:
        c.is_literal(digit[cell][d])


def encode(puzzle: SudokuPuzzle) -> Encoding:
    """The model of :func:`rules` on the n x n grid (the same for every puzzle of a size and box
    shape: givens are assumptions)."""
    m = Model(geometry.Grid.of(puzzle.size, puzzle.size))
    rules(m, puzzle)
    return m.build()


def decode(puzzle: SudokuPuzzle, encoding: Encoding, value) -> Solution:
    """The digit layer row by row (0 marks a cell left empty, which the checker rejects)."""
    n = puzzle.size
    digits = list(read_numbers(encoding, "digit", value, empty=0).values())  # reading order
    return tuple(tuple(digits[r * n:(r + 1) * n]) for r in range(n))


def check(puzzle: SudokuPuzzle, solution: Solution) -> list[str]:
    return check_sudoku(puzzle.givens, puzzle.box_height, puzzle.box_width, solution)


# -- output -------------------------------------------------------------------------------------
def _symbol(puzzle: SudokuPuzzle, d: int | None) -> str:
    if puzzle.symbols is not None:
        return "." if d is None else puzzle.symbols[d - 1]
    width = len(str(puzzle.size))
    return ("." if d is None else str(d)).rjust(width)


def render(puzzle: SudokuPuzzle, solution: Solution | None = None) -> str:
    """The grid with box borders, as puzzle books print it."""
    n, h, w = puzzle.size, puzzle.box_height, puzzle.box_width
    grid = solution if solution is not None else puzzle.givens
    lines = []
    for r in range(n):
        if r and r % h == 0:
            parts = ["-" * (len(" ".join(_symbol(puzzle, 1) for _ in range(w))) + 2)] * (n // w)
            lines.append("+".join(parts)[1:-1])
        boxes = [" ".join(_symbol(puzzle, grid[r][c]) for c in range(b, b + w)) for b in range(0, n, w)]
        lines.append(" | ".join(boxes))
    return "\n".join(lines)


def solution_json(puzzle: SudokuPuzzle, solution: Solution) -> list[list[int]]:
    return [list(row) for row in solution]


def puzzle_json(puzzle: SudokuPuzzle) -> list[list[int]]:
    return [[d or 0 for d in row] for row in puzzle.givens]


def differences(puzzle: SudokuPuzzle, a: Solution, b: Solution) -> list[tuple[int, int]]:
    return [(r, c) for r in range(puzzle.size) for c in range(puzzle.size) if a[r][c] != b[r][c]]


def puzzle_meta(puzzle: SudokuPuzzle) -> dict[str, str]:
    """What the givens alone do not say: a box shape other than the size's default, the symbols."""
    meta = {}
    if DEFAULT_BOX.get(puzzle.size) != (puzzle.box_height, puzzle.box_width):
        meta["box"] = f"{puzzle.box_height}x{puzzle.box_width}"
    if puzzle.symbols:
        meta["symbols"] = puzzle.symbols
    return meta


def puzzle_from_json(record: Record, value: object) -> SudokuPuzzle:
    """The inverse of :func:`puzzle_json` (rows of values, 0 blank), with the ``box`` and
    ``symbols`` of :func:`puzzle_meta` in ``record.meta``: written out as symbol rows and parsed,
    so every check of :func:`parse` applies."""
    if not isinstance(value, list) or not value or not all(isinstance(row, list) for row in value):
        raise record.error("not a list of rows of numbers")
    n = len(value)
    symbols = record.meta.get("symbols")
    problem = None if symbols is None else charset_problem(symbols, n)
    if problem is not None:
        raise record.error(problem)
    # a set the text grid cannot hold (an ipuz charset) is parsed through the default symbols
    drawn = symbols if symbols and not symbols_problem(symbols, n) else (DIGITS if n <= 9 else WIDE_SYMBOLS)[:n]
    lines = []
    for r, row in enumerate(value, 1):
        if len(row) != n or not all(type(d) is int and 0 <= d <= min(n, len(drawn)) for d in row):
            raise record.error(f"row {r} is not {n} numbers 0..{n} (0 = blank)")
        lines.append((record.line, "".join(drawn[d - 1] if d else "." for d in row)))
    meta = {**record.meta, "symbols": drawn}
    puzzle = parse(Record(record.source, record.line, record.name, NAME, meta, lines, limits=record.limits))
    return SudokuPuzzle(puzzle.givens, puzzle.box_height, puzzle.box_width, puzzle.name, puzzle.source,
                        symbols)


def solution_from_json(puzzle: SudokuPuzzle, value: object) -> Solution:
    """The inverse of :func:`solution_json`; ValueError when ``value`` is not an n x n grid of 1..n."""
    n = puzzle.size
    if not (isinstance(value, list) and len(value) == n
            and all(isinstance(row, list) and len(row) == n
                    and all(type(d) is int and 1 <= d <= n for d in row) for row in value)):
        raise ValueError(f"not {n} rows of {n} values 1..{n}")
    return tuple(tuple(row) for row in value)


def estimate(rows: int, cols: int, connectivity: str = "lazy") -> tuple[int, int]:
    """(variables, clauses) of :func:`encode` for an n x n grid (``connectivity`` does not apply):
    n**3 digit variables; 4 n**2 groups of n literals, each with one at-least-one clause and an
    at-most-one that is pairwise (n(n-1)/2 clauses) up to ``PAIRWISE_AMO_LIMIT`` literals, else a
    sequential counter (n - 1 variables, 3n - 4 clauses); and the model builder's always-true
    literal with its unit clause."""
    n = max(rows, cols)
    groups = 4 * n * n
    if n <= PAIRWISE_AMO_LIMIT:
        return n ** 3 + 1, groups * (1 + n * (n - 1) // 2) + 1
    return n ** 3 + groups * (n - 1) + 1, groups * (1 + 3 * n - 4) + 1
