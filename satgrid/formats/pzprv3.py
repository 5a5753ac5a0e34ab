"""pzprv3 files: puzz.link's save format, with the answer (pzprjs ``src/puzzle/FileData.js`` and
each variety's ``FileIO``).

Lines: ``pzprv3`` (or ``pzprv3.1``), the pid, the size (rows then columns; Sudoku has one size
line), then grids of space-separated tokens, one grid row a line (pzprjs ends each token with a
space). Clue tokens: ``.`` empty, ``-`` a ``?`` clue, a number. Then the answer:

* ``nurikabe``: one grid holding clues and answer: ``#`` shaded, ``+`` a dot (unshaded);
* ``sudoku``: the clue grid, then the answer grid (``.`` at given cells and empty cells; pencil
  marks ``+ - = %`` and candidate lists ``[1,2,,]`` are read as empty);
* ``slither``: the clue grid, (``pzprv3.1`` only) a grid of background colours, then the
  ``rows x (cols + 1)`` vertical edges and the ``(rows + 1) x cols`` horizontal edges: ``1`` a
  line, ``-1`` a cross, ``0`` nothing.

Lines after the grids (pzprjs's ``history:``/``info:`` records) are ignored. Several files may be
concatenated: each ``pzprv3`` line starts a puzzle.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import ParseError, UnsupportedGenre
from ..genres.nurikabe import NurikabePuzzle
from ..genres.slitherlink import SlitherlinkPuzzle
from ..genres.sudoku import SudokuPuzzle
from ..puzzle import Source
from ..reader import number
from .puzzlink import MAX_SIDE, PIDS, SUDOKU_BOX, WRITE_PID, check_sides, duplicate_givens

Line = tuple[int, str]


@dataclass(frozen=True)
class Loaded:
    """A puzzle and the answer the file holds (None when it holds none)."""

    puzzle: Any
    solution: Any = None


def is_pzprv3(text: str) -> bool:
    return text.lstrip("\ufeff \t\r\n").startswith("pzprv3")


def read(text: str, source: str = "<pzprv3>", genre: str | None = None) -> list[Loaded]:
    """Every puzzle (with its answer) in a pzprv3 text; one-line errors with line and column."""
    lines = [(i + 1, raw.rstrip("\r")) for i, raw in enumerate(text.split("\n"))]
    starts = [k for k, (_, t) in enumerate(lines) if t.strip().startswith("pzprv3")]
    if not starts or any(t.strip() for _, t in lines[: starts[0]]):
        first = next(n for n, t in lines if t.strip())
        raise ParseError(source, first, "a pzprv3 file starts with a 'pzprv3' line")
    out = []
    for a, b in zip(starts, starts[1:] + [len(lines)]):
        out.append(_read_one(lines[a:b], source, genre))
    return out


class _Cursor:
    """The lines of one file, read grid row by grid row; errors name the line and token."""

    def __init__(self, lines: list[Line], source: str):
        self.lines, self.source, self.at = lines, source, 0

    def error(self, message: str, line: int | None = None, col: int | None = None) -> ParseError:
        if line is None:
            line = self.lines[min(self.at, len(self.lines) - 1)][0]
        return ParseError(self.source, line, message, col)

    def next_line(self, what: str) -> Line:
        while self.at < len(self.lines) and not self.lines[self.at][1].strip():
            self.at += 1
        if self.at >= len(self.lines):
            last = max(n for n, t in self.lines if t.strip())
            raise self.error(f"the file ends before {what} (truncated pzprv3 file)", last)
        self.at += 1
        return self.lines[self.at - 1]

    def more(self) -> bool:
        return any(t.strip() for _, t in self.lines[self.at:])

    def size(self, what: str) -> int:
        n, t = self.next_line(f"the number of {what}")
        value = number(t.strip())
        if value is None or not 1 <= value <= MAX_SIDE:
            raise self.error(f"number of {what} {t.strip()!r} is not a number 1..{MAX_SIDE}", n, 1)
        return value

    def grid(self, rows: int, cols: int, what: str) -> list[list[tuple[str, int, int]]]:
        """``rows`` lines of ``cols`` tokens: (token, line, 1-based column)."""
        out = []
        for r in range(rows):
            n, t = self.next_line(f"row {r + 1} of the {what}")
            tokens, col = [], 0
            for word in t.split():
                col = t.index(word, col)
                tokens.append((word, n, col + 1))
                col += len(word)
            if len(tokens) != cols:
                raise self.error(f"row {r + 1} of the {what} has {len(tokens)} cells, expected {cols}", n)
            out.append(tokens)
        return out


def _read_one(lines: list[Line], source: str, genre: str | None) -> Loaded:
    cur = _Cursor(lines, source)
    n0, header = cur.next_line("the header")
    version = header.strip()
    if version not in ("pzprv3", "pzprv3.1"):
        raise cur.error(f"unknown pzprv3 version {version!r} (pzprv3 or pzprv3.1)", n0, 1)
    n1, pid_text = cur.next_line("the puzzle type")
    pid = pid_text.strip()
    if pid not in PIDS:
        raise cur.error(f"unknown puzzle type {pid!r}; satgrid reads sudoku, nurikabe, slither", n1, 1)
    found = PIDS[pid]
    if genre is not None and genre != found:
        raise cur.error(f"the file holds a {found} puzzle but the genre asked for is {genre}", n1, 1)
    src = Source(source, n0)
    if found == "sudoku":
        return _sudoku(cur, src)
    rows, cols = cur.size("rows"), cur.size("columns")
    if found == "nurikabe":
        return _nurikabe(cur, src, rows, cols)
    return _slither(cur, src, rows, cols, version == "pzprv3.1")


def _clue(cur: _Cursor, token: tuple[str, int, int], low: int, top: int, extra: dict[str, Any] | None = None) -> Any:
    """A clue token: None (``.``), ``"?"`` (``-``), a number ``low..top``, or ``extra[token]``."""
    word, n, col = token
    extra = extra or {}
    if word == ".":
        return None
    if word == "-":
        return "?"
    if word in extra:
        return extra[word]
    value = number(word)
    if value is not None:
        if not low <= value <= top:
            raise cur.error(f"clue {word} is out of range {low}..{top}", n, col)
        return value
    raise cur.error(f"{word!r} is not a clue ('.', '-' or a number)", n, col)


def _sudoku(cur: _Cursor, src: Source) -> Loaded:
    size = cur.size("rows and columns")
    if size not in SUDOKU_BOX:
        raise cur.error(f"a {size}x{size} Sudoku: puzz.link's Sudoku is 4x4, 6x6, 9x9, 16x16 or 25x25")
    clues = cur.grid(size, size, "clue grid")
    givens = []
    for row in clues:
        values = [_clue(cur, tok, 1, size) for tok in row]
        for v, (_, n, col) in zip(values, row):
            if v == "?":
                raise cur.error("a '?' given: a Sudoku given needs its value", n, col)
        givens.append(tuple(values))
    h, w = SUDOKU_BOX[size]
    puzzle = SudokuPuzzle(tuple(givens), h, w, "", src)
    at = [[(v, (n, col)) for v, (_, n, col) in zip(values, row)] for values, row in zip(givens, clues)]
    duplicate_givens(puzzle, at, lambda where, message: cur.error(message, *where))
    if not cur.more():
        return Loaded(puzzle)
    answer = cur.grid(size, size, "answer grid")
    filled = []
    for r, row in enumerate(answer):
        out = []
        for c, (word, n, col) in enumerate(row):
            word = word.split("[", 1)[0]
            if givens[r][c] is not None:
                out.append(givens[r][c])
            elif (value := number(word)) is not None:
                if not 1 <= value <= size:
                    raise cur.error(f"answer {word} is out of range 1..{size}", n, col)
                out.append(value)
            elif word in (".", "+", "-", "=", "%", ""):
                out.append(0)
            else:
                raise cur.error(f"{word!r} is not an answer (a number or '.')", n, col)
        filled.append(tuple(out))
    complete = all(all(row) for row in filled)
    return Loaded(puzzle, tuple(filled) if complete else None)


def _nurikabe(cur: _Cursor, src: Source, rows: int, cols: int) -> Loaded:
    grid = cur.grid(rows, cols, "grid")
    marks = {"#": "#", "+": "+"}
    cells = [[_clue(cur, tok, 1, rows * cols, marks) for tok in row] for row in grid]
    puzzle = NurikabePuzzle(
        tuple(tuple(None if v in marks else v for v in row) for row in cells), "", src)
    if not any(v == "#" for row in cells for v in row):
        return Loaded(puzzle)
    solution = tuple("".join("#" if v == "#" else "." for v in row) for row in cells)
    return Loaded(puzzle, solution)


def _slither(cur: _Cursor, src: Source, rows: int, cols: int, v31: bool) -> Loaded:
    clues = cur.grid(rows, cols, "clue grid")
    for row in clues:
        for word, n, col in row:
            if word == "-":
                raise cur.error("a '?' clue: satgrid's Slitherlink has clues 0-4 only", n, col)
    puzzle = SlitherlinkPuzzle(tuple(tuple(_clue(cur, tok, 0, 4) for tok in row) for row in clues), "", src)
    if not cur.more():
        return Loaded(puzzle)
    if v31:
        cur.grid(rows, cols, "background colour grid")
    vertical = _edges(cur, rows, cols + 1, "vertical edges")
    horizontal = _edges(cur, rows + 1, cols, "horizontal edges")
    if not any(any(row) for row in vertical + horizontal):
        return Loaded(puzzle)
    return Loaded(puzzle, (horizontal, vertical))


def _edges(cur: _Cursor, rows: int, cols: int, what: str) -> tuple[tuple[int, ...], ...]:
    out = []
    for row in cur.grid(rows, cols, what):
        values = []
        for word, n, col in row:
            crossed = word.startswith("-")
            value = number(word[1:] if crossed else word)
            if value is None:
                raise cur.error(f"{word!r} is not an edge (1 line, -1 cross, 0 nothing)", n, col)
            values.append(1 if value > 0 and not crossed else 0)
        out.append(tuple(values))
    return tuple(out)


# -- writing --------------------------------------------------------------------------------------
def _row(tokens) -> str:
    return "".join(f"{t} " for t in tokens)


def _token(v: Any) -> str:
    return "." if v is None else "-" if v == "?" else str(v)


def write(puzzle: Any, solution: Any = None) -> str:
    """The pzprv3 text of ``puzzle``, with ``solution`` filled in as the answer when given."""
    genre = puzzle.genre
    if genre not in WRITE_PID:
        raise UnsupportedGenre(f"no pzprv3 format for genre {genre}")
    check_sides(puzzle)
    if genre == "sudoku":
        if SUDOKU_BOX.get(puzzle.size) != (puzzle.box_height, puzzle.box_width):
            raise UnsupportedGenre(
                f"puzz.link has no {puzzle.size}x{puzzle.size} Sudoku with {puzzle.box_height}x"
                f"{puzzle.box_width} boxes")
        lines = ["pzprv3", "sudoku", str(puzzle.size)]
        lines += [_row(_token(v) for v in row) for row in puzzle.givens]
        for r, row in enumerate(puzzle.givens):
            lines.append(_row("." if v is not None or solution is None else str(solution[r][c])
                              for c, v in enumerate(row)))
    elif genre == "nurikabe":
        lines = ["pzprv3", "nurikabe", str(puzzle.rows), str(puzzle.cols)]
        for r, row in enumerate(puzzle.grid):
            lines.append(_row(
                _token(v) if v is not None or solution is None else ("#" if solution[r][c] == "#" else "+")
                for c, v in enumerate(row)))
    else:
        rows, cols = puzzle.rows, puzzle.cols
        lines = ["pzprv3.1", "slither", str(rows), str(cols)]
        lines += [_row(_token(v) for v in row) for row in puzzle.givens]
        lines += [_row("0" for _ in range(cols)) for _ in range(rows)]
        horizontal, vertical = solution if solution is not None else (
            [[0] * cols for _ in range(rows + 1)], [[0] * (cols + 1) for _ in range(rows)])
        lines += [_row(str(int(e)) for e in row) for row in vertical]
        lines += [_row(str(int(e)) for e in row) for row in horizontal]
    return "\n".join(lines) + "\n"
