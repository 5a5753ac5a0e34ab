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
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import repeat
from typing import Any, Callable, ClassVar

from ... import grid as geometry
from .checker import check_sudoku
from .witnesses import witnesses as swap_witnesses
from ...cnf import PAIRWISE_AMO_LIMIT
from ...encoding import Encoding
from ...grid import Cell
from ...model import Clue, Model, read_numbers
from ...puzzle import GivenSolution, Source, cell_name, printable
from ...reader import Record, is_decimal, number, split_on_blank_lines
from ...errors import ParseError, SatgridError, UnsupportedGenre
from ...formats import ipuz, puzzlink, pzprv3, tatham

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
        """The same grid with ``clues`` as its givens (SatgridError: a cell off the grid or a
        value outside 1..n)."""
        n = self.size
        for (r, c), d in clues.items():
            if not (0 <= r < n and 0 <= c < n) or isinstance(d, bool) or d not in range(1, n + 1):
                raise SatgridError(f"given {d!r} at {(r, c)}: a given is a value 1..{n} in a cell "
                                   f"of the {n}x{n} grid")
        grid = tuple(tuple(clues.get((r, c)) for c in range(n)) for r in range(n))
        return SudokuPuzzle(grid, self.box_height, self.box_width, self.name, self.source, self.symbols)


# -- parsing ------------------------------------------------------------------------------------
#: Characters that draw box borders and rule lines; a ``+`` or ``-`` glued to a symbol is a sign,
#: which _value rejects.
_LAYOUT = " \t|+-"
_NUMBER = re.compile(r"[0-9]+|[._]")
#: A character that makes :func:`_cells` look closer: whitespace or a layout character.
_SPACED = re.compile(r"[\s|+-]")


@lru_cache(maxsize=64)
def _cells(text: str) -> tuple[tuple[str, int], ...]:
    """The cell tokens of a line with their 1-based columns; layout characters are skipped.

    Whitespace-separated numbers when every word is a number or blank and some number has two
    digits (16x16 and up), else one symbol a character; ``|``, ``+`` and ``-`` draw box borders
    and rule lines. (Cached: :func:`split` and :func:`parse` both read each line.)
    """
    if not _SPACED.search(text):  # one symbol a character, no layout: the common one-line form
        return tuple(zip(text, range(1, len(text) + 1)))
    words = [(m.group().strip("|+"), m.start() + 1) for m in re.finditer(r"\S+", text)]
    words = [(w, col) for w, col in words if set(w) - set("-|+")]
    if (len(words) > 1 and all(_NUMBER.fullmatch(w) for w, _ in words)
            and any(len(w) > 1 for w, _ in words)):
        return tuple(words)
    cells = []
    for col, ch in enumerate(text):
        if ch not in _LAYOUT:
            signed = col and text[col - 1] in "+-"
            cells.append((text[col - 1] + ch, col) if signed else (ch, col + 1))
    return tuple(cells)


def split(record: Record) -> list[Record]:
    """One record per puzzle: a square grid, or one puzzle a line (n*n symbols)."""
    if record.name:  # a ``puzzle ... end`` block holds one puzzle
        return [record]
    puzzles: list[list[tuple[int, str]]] = []
    for group in split_on_blank_lines(record.lines):
        counted = [(n, t, len(_cells(t))) for n, t in group]
        rows = [(n, t) for n, t, width in counted if width]
        widths = [width for _, _, width in counted if width]
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
    else:
        n = len(rows)
        for line, cells in rows:
            if len(cells) != n:
                raise record.error(f"row has {len(cells)} cells, expected {n} (the grid has {n} rows)", line)
    box = _box(record, n)
    symbols = record.meta.get("symbols")
    tokens = [tok for _, cells in rows for tok, _ in cells]

    def placed(i: int) -> tuple[int, tuple[str, int]]:
        """The line and the (token, column) of cell ``i`` in reading order."""
        line, cells = rows[0] if len(rows) == 1 else rows[i // n]
        return line, cells[i if len(rows) == 1 else i % n]

    numeric = max(map(len, tokens)) > 1
    if symbols is None and not numeric and n > 9:
        raise record.error(
            f"a {n}x{n} Sudoku written one symbol per cell needs its symbol set "
            "(--symbols, e.g. 123456789ABCDEFG or 0123456789ABCDEF), or write it as numbers"
        )
    problem = None if symbols is None else symbols_problem(symbols, n)
    if problem:
        raise record.error(problem)
    plain = _plain_symbols(n) if symbols is None and not numeric else {}
    values = list(map(plain.get, tokens, repeat(_UNREAD)))
    if _UNREAD in values:
        for i, value in enumerate(values):
            if value is _UNREAD:
                line, (tok, col) = placed(i)
                values[i] = _value(record, line, tok, col, n, symbols, numeric)
    givens = tuple(tuple(values[r * n:(r + 1) * n]) for r in range(n))
    puzzle = SudokuPuzzle(givens, box[0], box[1], record.name, Source(record.source, record.line), symbols)

    def error(r: int, c: int, message: str) -> ParseError:
        line, (_, col) = placed(r * n + c)
        return record.error(message, line, col)

    check_givens(puzzle, error)
    return puzzle


#: A token :func:`_plain_symbols` does not know: read by :func:`_value`.
_UNREAD = object()


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


@lru_cache(maxsize=8)
def _plain_symbols(n: int) -> dict[str, int | None]:
    """What :func:`_value` makes of the one-character tokens that are always valid in an n x n
    grid without a symbol set (blanks, ``0``, the digits 1..min(n, 9)); looked up instead of
    parsed one by one (a batch reads tens of thousands of grids)."""
    return {**dict.fromkeys([*BLANKS, "0"]), **{str(d): d for d in range(1, min(n, 9) + 1)}}


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


class RepeatedGiven(ParseError):
    """A given that repeats one of its row, column or box (:func:`check_givens`); ``twice`` is the
    message after its first word, so that a reader of other digits than givens (a hint's state)
    words it as its own: ``exc.reworded("the state has digit")``."""

    def __init__(self, where: ParseError, twice: str):
        super().__init__(where.source, where.line, f"given {twice}", where.column)
        self.twice = twice

    def reworded(self, lead: str) -> ParseError:
        return ParseError(self.source, self.line, f"{lead} {self.twice}", self.column)


def duplicate(puzzle: SudokuPuzzle) -> tuple[int, int, str] | None:
    """The first given (in reading order) that repeats a given of its row, column or box, as
    ``(r, c, what)``, ``what`` saying what repeats where ("4 twice in row 1 (r1c1 and r1c2)");
    None when no given repeats.

    One pass with a bit mask of values per row, column and box (a batch reads tens of thousands
    of grids); at the first repeat the unit's earlier cell with that value, the only one, is
    looked up for the message."""
    n, h, w = puzzle.size, puzzle.box_height, puzzle.box_width
    across = n // w
    givens = puzzle.givens
    row_seen, col_seen, box_seen = [0] * n, [0] * n, [0] * n
    for r, row in enumerate(givens):
        for c, d in enumerate(row):
            if d is None:
                continue
            bit, b = 1 << d, (r // h) * across + c // w
            if (row_seen[r] | col_seen[c] | box_seen[b]) & bit:
                if row_seen[r] & bit:
                    kind, index, unit = "row", r, [(r, j) for j in range(n)]
                elif col_seen[c] & bit:
                    kind, index, unit = "column", c, [(i, c) for i in range(n)]
                else:
                    top, left = (b // across) * h, (b % across) * w
                    kind, index, unit = "box", b, [(top + i, left + j) for i in range(h) for j in range(w)]
                other = next(cell for cell in unit if givens[cell[0]][cell[1]] == d)
                return r, c, f"{d} twice in {kind} {index + 1} ({cell_name(*other)} and {cell_name(r, c)})"
            row_seen[r] |= bit
            col_seen[c] |= bit
            box_seen[b] |= bit
    return None


def check_givens(puzzle: SudokuPuzzle, error: Callable[[int, int, str], ParseError]) -> SudokuPuzzle:
    """``puzzle``, once no given repeats; else raise :class:`RepeatedGiven` where
    ``error(r, c, message)`` (the format's error at a cell) places it."""
    found = duplicate(puzzle)
    if found is not None:
        r, c, twice = found
        raise RepeatedGiven(error(r, c, f"given {twice}"), twice)
    return puzzle


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
    sequential counter (n - 1 variables, 3n - 4 clauses)."""
    n = max(rows, cols)
    groups = 4 * n * n
    if n <= PAIRWISE_AMO_LIMIT:
        return n ** 3, groups * (1 + n * (n - 1) // 2)
    return n ** 3 + groups * (n - 1), groups * (1 + 3 * n - 4)


# -- formats ------------------------------------------------------------------------------------
ALIASES = ("solo",)
SUFFIXES = (".sdk", ".ss")

#: Sudoku sizes puzz.link draws, with its box (height, width): square boxes, 6x6 3 wide x 2 tall.
PUZZLINK_BOX = {4: (2, 2), 6: (2, 3), 9: (3, 3), 16: (4, 4), 25: (5, 5)}
_UNKNOWN_GIVEN = "a '?' given: a Sudoku given needs its value"


def _puzzlink_size(rows: int, cols: int) -> str | None:
    if rows == cols and cols in PUZZLINK_BOX:
        return None
    return f"a {cols}x{rows} Sudoku: puzz.link's Sudoku is 4x4, 6x6, 9x9, 16x16 or 25x25"


def _puzzlink_refusal(puzzle: SudokuPuzzle) -> str | None:
    if PUZZLINK_BOX.get(puzzle.size) == (puzzle.box_height, puzzle.box_width):
        return None
    return (f"puzz.link has no {puzzle.size}x{puzzle.size} Sudoku with {puzzle.box_height}x{puzzle.box_width} "
            "boxes (its sizes: 4, 6 (boxes 2 tall x 3 wide), 9, 16, 25)")


def _from_url(cells: puzzlink.Cells) -> SudokuPuzzle:
    givens = cells.numbers(1, cells.cols, "value", unknown=_UNKNOWN_GIVEN)
    return check_givens(SudokuPuzzle(givens, *PUZZLINK_BOX[cells.cols], "", cells.source), cells.error)  # type: ignore[arg-type]


PUZZLINK = puzzlink.Codec(pids=("sudoku",), body=puzzlink.NUMBERS, read=_from_url,
                          write=lambda puzzle: puzzle.givens, size=_puzzlink_size, refuse=_puzzlink_refusal)


def _from_pzprv3(grids: pzprv3.Grids) -> tuple[SudokuPuzzle, Solution | None]:
    """The clue grid (no ``?``, no repeats) and, when the file has one, the answer grid: complete
    (every cell a given or a value) or no answer at all."""
    clues = grids["clue grid"]
    for r, row in enumerate(clues):
        for c, v in enumerate(row):
            if v == "?":
                raise grids.error("clue grid", r, c, _UNKNOWN_GIVEN)
    givens = tuple(map(tuple, clues))
    puzzle = SudokuPuzzle(givens, *PUZZLINK_BOX[grids.rows], "", grids.source)
    check_givens(puzzle, lambda r, c, message: grids.error("clue grid", r, c, message))
    if "answer grid" not in grids:
        return puzzle, None
    filled = tuple(tuple(g or v for g, v in zip(given_row, row)) for given_row, row in zip(givens, grids["answer grid"]))
    return puzzle, filled if all(all(row) for row in filled) else None


def _to_pzprv3(puzzle: SudokuPuzzle, solution: Solution | None) -> dict[str, Any]:
    """pzprjs's ``encodeCellQnum`` then ``encodeCellAnumsub``: the answer grid holds ``.`` at the
    givens."""
    answer = [["." if v is not None or solution is None else solution[r][c] for c, v in enumerate(row)]
              for r, row in enumerate(puzzle.givens)]
    return {"clue grid": puzzle.givens, "answer grid": answer}


def _side(rows: int, cols: int) -> int:
    return rows


PZPRV3 = pzprv3.Codec(
    pids=("sudoku",),
    sections=(pzprv3.Section("clue grid", pzprv3.clues(1, _side)),
              pzprv3.Section("answer grid", pzprv3.answers(1, _side), answer=True)),
    read=_from_pzprv3, write=_to_pzprv3, square=True, size=_puzzlink_size, refuse=_puzzlink_refusal)

#: Sides n = C*R of the Solo grids satgrid reads and writes.
SOLO_SIDES = range(2, 37)


def _solo_flags(flags: str) -> dict[str, bool]:
    """Which of Solo's variant flags ``flags`` holds (skipping symmetry/difficulty settings)."""
    seen = {"j": False, "x": False, "k": False}
    i = 0
    while i < len(flags):
        ch = flags[i]
        if ch in seen:
            seen[ch] = True
            i += 1
        elif ch == "d" and i + 1 < len(flags):
            i += 2  # difficulty letter
        elif ch in "rm":
            i += 1
            while i < len(flags) and (flags[i].isdigit() or flags[i] == "d"):
                i += 1
        else:
            i += 1
    return seen


def _solo_variants(gid: tatham.GameId) -> None:
    variant = _solo_flags(gid.flags)
    for flag, name in (("j", "jigsaw"), ("k", "killer"), ("x", "X (diagonal)")):
        if variant[flag]:
            raise UnsupportedGenre(f"{gid.source}:{gid.line}: Solo {name} Sudoku ({gid.params}) is not "
                                   "supported yet: satgrid solves standard box Sudoku")


def _solo_box(gid: tatham.GameId) -> tuple[int, int]:
    """Solo's ``CxR``: boxes C tall and R wide (cell (y, x) lies in block (y div C, x div R))."""
    c = number(gid.width) or 0
    return c, (number(gid.height) or 0) if gid.height else c


def _solo_fits(gid: tatham.GameId) -> bool:
    n = _solo_box(gid)[0] * _solo_box(gid)[1]
    return tatham.run_cells(gid.desc, digits=False, separator="_") == (n * n, None)


def decode_solo(gid: tatham.GameId) -> SudokuPuzzle:
    """A Sudoku from a Solo game ID ``CxR:DESC`` (solo.c): the description runs row by row, a
    lowercase letter a run of blanks, a decimal number a given, ``_`` between two numbers."""
    c, r = _solo_box(gid)
    n = c * r
    if not 1 <= c <= tatham.MAX_SIZE or not 1 <= r <= tatham.MAX_SIZE or n not in SOLO_SIDES:
        size = f"{gid.width}x{gid.height or gid.width}"
        grid = f"makes a {n}x{n} grid" if c <= tatham.MAX_SIZE and r <= tatham.MAX_SIZE else "is too big"
        raise gid.error(f"Solo size {size} {grid}; satgrid reads {SOLO_SIDES[0]}..{SOLO_SIDES[-1]}", gid.lead + 1)
    cells = tatham.decode_runs(gid.desc, n * n, lambda i, message: gid.error(message, gid.column(5, i)),
                               f"a {n}x{n} grid", separator="_", what="a Solo description")
    values = [None if text is None else number(text) for text, _ in cells]
    for value, (text, i) in zip(values, cells):
        if value is not None and not 1 <= value <= n:
            raise gid.error(f"given {text} is out of range 1..{n}", gid.column(5, i))
    givens = tuple(tuple(values[y * n:(y + 1) * n]) for y in range(n))
    return check_givens(SudokuPuzzle(givens, c, r, "", Source(gid.source, gid.line)),
                        lambda y, x, message: gid.error(message, gid.column(5, cells[y * n + x][1])))


def encode_solo(puzzle: SudokuPuzzle) -> str:
    """The Solo game ID (solo.c's ``encode_grid``: ``_`` only between adjacent numbers)."""
    if puzzle.size not in SOLO_SIDES:
        raise UnsupportedGenre(f"no Solo game ID for a {puzzle.size}x{puzzle.size} Sudoku (Solo grids are "
                               f"{SOLO_SIDES[0]}..{SOLO_SIDES[-1]} wide)")
    desc = tatham.encode_runs((v for row in puzzle.givens for v in row), separator="_")
    return f"{puzzle.box_height}x{puzzle.box_width}:{desc}"


TATHAM = tatham.Codec(
    game="Solo", program="sgt-solo", params=lambda gid: True, fits=_solo_fits, decode=decode_solo,
    encode=encode_solo, signs=lambda gid: "," in gid.desc or ("_" in gid.desc and _solo_fits(gid)),
    fallback=True, check=_solo_variants)

IPUZ_KIND = "http://ipuz.org/sudoku#1"


def _from_ipuz(doc: ipuz.Document) -> tuple[SudokuPuzzle, Solution | None]:
    """ipuz Sudoku (PuzzleKind ``http://ipuz.org/sudoku#1``). Fields read: ``puzzle`` (rows of
    SudokuGiven: a number, a charset symbol, ``{"given": value}``; ``0``, ``null``, ``""`` or the
    ``empty`` value for a blank), ``solution`` (rows of values), ``charset`` (default
    ``123456789``), ``boxes`` (standard boxes, the default; ``false`` is a Latin square, which
    satgrid does not solve), ``title`` (unprintable characters become U+FFFD). ``zones``
    (irregular regions) and ``cages`` (killer) are variants satgrid does not solve yet. ipuz has
    no box-shape field: boxes are the standard ones for the size (6x6: 2 tall x 3 wide)."""
    for key, name in (("zones", "irregular regions (zones)"), ("cages", "killer cages")):
        if doc.get(key):
            raise UnsupportedGenre(f"{doc.source}: ipuz Sudoku with {name} is not supported yet")
    if doc.get("boxes") is False:
        raise UnsupportedGenre(f"{doc.source}: an ipuz Sudoku without boxes (a Latin square) is not supported yet")
    rows = doc.get("puzzle")
    if not isinstance(rows, list) or not rows or not all(isinstance(r, list) for r in rows):
        raise doc.error("'puzzle' must be a list of rows")
    n = len(rows)
    if n not in DEFAULT_BOX:
        raise doc.error(f"a {n}x{n} grid has no standard box shape")
    charset = doc.get("charset", DIGITS[:n] if n <= 9 else None)
    if charset is None:
        raise doc.error(f"a {n}x{n} ipuz Sudoku needs its 'charset'")
    if not isinstance(charset, str):
        raise doc.error(f"charset {charset!r} must be a string of {n} different symbols", "charset")
    if (problem := charset_problem(charset, n)) is not None:
        raise doc.error(problem, "charset")
    empty = doc.get("empty", 0)

    def value(cell: Any, r: int, c: int, where: str, blank_ok: bool) -> int | None:
        if isinstance(cell, dict):
            cell = cell.get("given", cell.get("value"))
        if cell is None or cell == "" or cell == empty or cell == 0 or (cell == "0" and "0" not in charset):
            if blank_ok:
                return None
            raise doc.error(f"{where} row {r + 1} column {c + 1} is empty", where)
        if isinstance(cell, int) and not isinstance(cell, bool) and 1 <= cell <= n:
            return cell  # a number is the value itself
        if isinstance(cell, str) and len(cell) == 1 and cell in charset:
            return charset.index(cell) + 1
        if isinstance(cell, str) and 1 <= (number(cell) or 0) <= n:
            return number(cell)
        raise doc.error(f"{where} row {r + 1} column {c + 1}: {cell!r} is not a value 1..{n} or a symbol "
                        f"of the charset {charset!r}", where)

    givens = []
    for r, row in enumerate(rows):
        if len(row) != n:
            raise doc.error(f"puzzle row {r + 1} has {len(row)} cells, expected {n}")
        givens.append(tuple(value(cell, r, c, "puzzle", True) for c, cell in enumerate(row)))
    title = doc.get("title") if isinstance(doc.get("title"), str) else ""
    puzzle = SudokuPuzzle(tuple(givens), *DEFAULT_BOX[n], printable(title), Source(doc.source, 1),
                          None if charset == DIGITS[:n] else charset)
    check_givens(puzzle, lambda r, c, message: doc.error(message))
    solution = doc.get("solution")
    if solution is None:
        return puzzle, None
    if not isinstance(solution, list) or len(solution) != n or not all(isinstance(r, list) and len(r) == n
                                                                      for r in solution):
        raise doc.error(f"'solution' must be {n} rows of {n} values", "solution")
    return puzzle, tuple(tuple(value(cell, r, c, "solution", False) for c, cell in enumerate(row))  # type: ignore[misc]
                         for r, row in enumerate(solution))


def _to_ipuz(puzzle: SudokuPuzzle, solution: Solution | None) -> dict[str, Any]:
    """The fields of an ipuz Sudoku: title, charset (the puzzle's symbols, else digits or
    :data:`WIDE_SYMBOLS`), standard boxes, the givens (0 blank) and the solution."""
    n = puzzle.size
    if DEFAULT_BOX.get(n) != (puzzle.box_height, puzzle.box_width):
        raise UnsupportedGenre(f"ipuz has no box-shape field: a {n}x{n} Sudoku with {puzzle.box_height}x"
                               f"{puzzle.box_width} boxes cannot be written")
    charset = puzzle.symbols or (DIGITS[:n] if n <= 9 else WIDE_SYMBOLS[:n])

    def cell(v: int | None) -> int | str:
        if v is None:
            return 0
        return v if n <= 9 and puzzle.symbols is None else charset[v - 1]

    fields: dict[str, Any] = {"title": puzzle.name} if puzzle.name else {}
    fields.update({"charset": charset, "displaycharset": True, "boxes": True})
    fields["puzzle"] = [[cell(v) for v in row] for row in puzzle.givens]
    if solution is not None:
        fields["solution"] = [[cell(v) for v in row] for row in solution]
    return fields


IPUZ = ipuz.Codec(kind=IPUZ_KIND, title="Sudoku", read=_from_ipuz, write=_to_ipuz)


def text_form(puzzle: SudokuPuzzle) -> SudokuPuzzle:
    """The puzzle as the text format writes it: without a symbol set the text grid cannot hold
    (an ipuz charset), and with one symbol a cell above 9x9 (:data:`WIDE_SYMBOLS`)."""
    if puzzle.symbols is not None and symbols_problem(puzzle.symbols, puzzle.size):
        puzzle = replace(puzzle, symbols=None)
    if puzzle.symbols is None and puzzle.size > 9:
        puzzle = replace(puzzle, symbols=WIDE_SYMBOLS[:puzzle.size])
    return puzzle


TEXT = text_form


# -- drawing and hints ---------------------------------------------------------------------------
from ... import render_svg as svg  # noqa: E402  (kept with the parts that use it)
from ...genre_options import GENERATE, INPUT, Option, whole_number  # noqa: E402
from ...grading import StateFormat  # noqa: E402


def _label(puzzle: SudokuPuzzle, d: int) -> str:
    """Value ``d`` as the puzzle writes it (its symbol, else the number)."""
    return puzzle.symbols[d - 1] if puzzle.symbols else str(d)


def DRAW(puzzle: SudokuPuzzle, solution: Solution | None, marks: svg.Marks) -> list[str]:
    """Thin cell lines, bold box lines and border; givens bold, solution digits blue."""
    n, h, w = puzzle.size, puzzle.box_height, puzzle.box_width
    size = svg.CELL * (0.6 if n <= 9 or puzzle.symbols else 0.45)
    clues = puzzle.clues()
    found = {} if solution is None else {(r, c): _label(puzzle, solution[r][c]) for r in range(n)
                                         for c in range(n) if (r, c) not in clues and solution[r][c]}
    return [*svg.cells(puzzle, marks, clues), *svg.room_borders(puzzle, lambda r, c: (r // h, c // w)),
            *svg.border(puzzle), *svg.givens({k: _label(puzzle, d) for k, d in clues.items()}, size),
            *svg.values(found, marks, size)]


def _read_state(puzzle: SudokuPuzzle, text: str, source: str) -> dict:
    """A hint's partial state: the grid with more digits filled in, read as a puzzle of the same
    box shape and symbols."""
    from ... import api  # the api imports the registry, which imports this module

    meta = {"box": f"{puzzle.box_height}x{puzzle.box_width}", "symbols": puzzle.symbols}
    try:
        found = api.load_text(text, source, NAME, meta)
    except RepeatedGiven as exc:  # the state's digits are the player's, not givens
        raise exc.reworded("the state has digit") from None
    if len(found) != 1 or found[0].size != puzzle.size:
        raise ParseError(source, None, f"expected one {puzzle.size}x{puzzle.size} Sudoku grid as the state")
    return {("digit", r, c, d): True for (r, c), d in found[0].clues().items()}


def _describe(puzzle: SudokuPuzzle, key, value: bool) -> str:
    _, r, c, d = key
    return f"{cell_name(r, c)} is {'' if value else 'not '}{_label(puzzle, d)}"


STATE = StateFormat(_read_state, _describe, lambda key, value: value,
                    "the grid with more digits filled in ('.' or '0' undecided)",
                    lambda p: {("digit", r, c, d): True for (r, c), d in p.clues().items()},
                    clue="given")


def _level(text: str) -> int:
    from .generator import LEVELS  # the generator imports the api, which imports the registry

    return whole_number(min(LEVELS), max(LEVELS))(text)


OPTIONS = (
    Option("--symbols", "Sudoku symbol set, e.g. 123456789ABCDEFG for 16x16.", INPUT),
    Option("--box", "Sudoku box shape HxW (height x width), e.g. 2x3.", INPUT),
    Option("--level", "Sudoku level: 1 extremely easy ... 5 evil (clue-minimal) [default: 5].",
           GENERATE, _level, "N"),
)


def GUESS(record: Record) -> bool:
    """The line format is recognisable without a header: every line one word of 16 or more
    symbols, and not a square grid (which could be another genre)."""
    words = [t.split() for _, t in record.lines if t.strip()]
    widths = {len(w[0]) for w in words if len(w) == 1}
    square = len(widths) == 1 and len(words) in widths
    return bool(words) and all(len(w) == 1 for w in words) and min(widths) >= 16 and not square


# -- golden samples -----------------------------------------------------------------------------
#: (the genre's text, the status of ``solve --unique``, the solution or None); checked against
#: brute force when written, run through every path by tests/test_genres.py.
SAMPLES = (
    ("genre: sudoku\nbox: 2x2\n. 2 . 4\n3 . 1 .\n. 1 . 3\n4 . 2 .\n", "unique",
     ((1, 2, 3, 4), (3, 4, 1, 2), (2, 1, 4, 3), (4, 3, 2, 1))),
    ("genre: sudoku\nbox: 2x2\n1 . . .\n. . . .\n. . . .\n. . . 1\n", "multiple", None),
    ("genre: sudoku\nbox: 2x2\n1 2 . .\n. . . 4\n. . 3 .\n. . . .\n", "unsatisfiable", None),  # r1c3
)


# -- witnesses ----------------------------------------------------------------------------------
def WITNESSES(puzzle: SudokuPuzzle, solution: Solution) -> list[frozenset[Cell]]:
    """Givens that other solutions break, from digit swaps on pair components (proved to keep
    every rule: :mod:`satgrid.genres.sudoku.witnesses`)."""
    return swap_witnesses(puzzle.givens, solution, puzzle.box_height, puzzle.box_width)


# -- repair -------------------------------------------------------------------------------------
def CANDIDATES(puzzle: SudokuPuzzle, solution: Solution) -> dict[Cell, int]:
    """The givens a repair may add: the solution's digit in every blank cell."""
    return {(r, c): solution[r][c] for r, row in enumerate(puzzle.givens) for c, d in enumerate(row)
            if d is None}
