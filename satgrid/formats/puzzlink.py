"""puzz.link URLs (the pzprjs engine's URL format) for Sudoku, Nurikabe and Slitherlink.

Shape (pzprjs ``src/pzpr/parser.js``): ``https://puzz.link/p?<pid>/[<flag>/]<cols>/<rows>/<body>``.
Only the text after ``?`` counts, so ``http://pzv.jp/p.html?...`` and a bare ``nurikabe/5/5/...``
read the same; a ``_edit``/``_play`` suffix on the pid only sets a viewing mode. Cells run row by
row. The two bodies (``src/variety-common/Encode.js``):

* number body (``sudoku``, ``nurikabe``): ``0``-``9``/``a``-``f`` a value 0-15, ``-hh`` 16-255,
  ``+hhh`` 256-4095, ``=hhh`` 4096+, ``%hhh``/``@hhh`` 8192+, ``*hhhh`` 12240+, ``$hhhhh``
  77776+, ``.`` a ``?`` clue, ``g``-``z`` a run of 1-20 blank cells;
* 4-cell body (``slither``): ``0``-``4`` a clue, ``5``-``9`` a clue then one blank, ``a``-``e``
  a clue then two blanks, ``g``-``z`` 1-20 blanks, ``.`` a ``?`` clue (``f`` reads as one blank).

Reading is strict where pzprjs is lenient: a body must describe exactly ``cols * rows`` cells and
hold no other characters, so a typo is an error at its column rather than a different puzzle.
Writing follows pzprjs's encoders character for character, with the canonical address.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Union

from ..errors import ParseError, UnsupportedGenre
from ..genres.nurikabe import NurikabePuzzle
from ..genres.slitherlink import SlitherlinkPuzzle
from ..genres.sudoku import SudokuPuzzle
from ..puzzle import Source
from ..reader import is_decimal, number

CANONICAL = "https://puzz.link/p?"
#: puzz.link pid -> satgrid genre (``slitherlink`` is the Kanpen name, accepted when reading).
PIDS = {"sudoku": "sudoku", "nurikabe": "nurikabe", "slither": "slitherlink", "slitherlink": "slitherlink"}
#: satgrid genre -> the pid satgrid writes.
WRITE_PID = {"sudoku": "sudoku", "nurikabe": "nurikabe", "slitherlink": "slither"}
#: Sudoku sizes puzz.link draws, with its box (height, width): square boxes, 6x6 3 wide x 2 tall.
SUDOKU_BOX = {4: (2, 2), 6: (2, 3), 9: (3, 3), 16: (4, 4), 25: (5, 5)}
MAX_SIDE = 1000
UNKNOWN = "?"
Cell = Union[int, str, None]  # a value, "?" or None (blank)

_PID = re.compile(r"([a-z][a-z0-9]*?)(?:_(edit|play|test|make))?")
_URL_START = re.compile(r"^(?:https?://\S|(?:p(?:\.html)?\?)?[a-z][a-z0-9_]*/)")


def looks_like_url(text: str) -> bool:
    """Whether a line is meant as a puzz.link URL (an address with ``?``, or a bare ``pid/...``)."""
    return _URL_START.match(text.strip()) is not None


@dataclass(frozen=True)
class Url:
    """A URL split into its parts; ``body_col`` is the 1-based column of the body in its line."""

    pid: str
    genre: str
    cols: int
    rows: int
    body: str
    body_col: int


def _error(source: str, line: int, col: int, message: str) -> ParseError:
    return ParseError(source, line, message, col)


def split(text: str, source: str = "<url>", line: int = 1) -> Url:
    """The pid, size and body of a URL; errors name the column in ``text``."""
    lead = len(text) - len(text.lstrip())
    s = text.strip()
    q = s.find("?")
    start = q + 1 if s.startswith(("http://", "https://")) or 0 <= q < s.find("/") else 0
    if s.startswith(("http://", "https://")) and q < 0:
        raise _error(source, line, lead + 1, "a puzz.link URL needs '?' before the puzzle (…/p?sudoku/9/9/…)")
    fields: list[tuple[str, int]] = []  # (text, 1-based column)
    col = lead + start + 1
    for part in s[start:].split("/"):
        fields.append((part, col))
        col += len(part) + 1
    if len(fields) > 1 and fields[-1][0] == "":
        fields.pop()  # the trailing '/' writers add after a body that ends in a non-alphanumeric
    pid_text, pid_col = fields[0]
    m = _PID.fullmatch(pid_text)
    if m is None or m.group(1) not in PIDS:
        raise _error(source, line, pid_col,
                     f"unknown puzz.link puzzle type {pid_text!r}; satgrid reads "
                     + ", ".join(p for p in PIDS if p != "slitherlink"))
    pid = m.group(1)
    rest = fields[1:]
    if rest and rest[0][0] and not is_decimal(rest[0][0]):
        rest = rest[1:]  # a pflag: no meaning for these genres (pzprjs ignores it too)
    sizes = []
    for name in ("columns", "rows"):
        if not rest:
            raise _error(source, line, lead + len(s) + 1, f"the URL ends before its number of {name}")
        value, at = rest.pop(0)
        size = number(value)
        if size is None:
            raise _error(source, line, at, f"number of {name} {value!r} is not a number")
        if not 1 <= size <= MAX_SIDE:
            raise _error(source, line, at, f"number of {name} {value} is out of range 1..{MAX_SIDE}")
        sizes.append(size)
    body = "/".join(part for part, _ in rest)
    body_col = rest[0][1] if rest else col
    return Url(pid, PIDS[pid], sizes[0], sizes[1], body, body_col)


# -- bodies ---------------------------------------------------------------------------------------
_WIDE = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "%": (3, 8192), "@": (3, 8192), "*": (4, 12240),
         "$": (5, 77776)}
_HEX = set("0123456789abcdef")


def _run(ch: str) -> int | None:
    return int(ch, 36) - 15 if "g" <= ch <= "z" else None


def decode_numbers(body: str, n: int, fail: Callable[[int, str], ParseError]) -> list[tuple[Cell, int]]:
    """The number body: ``(value, index in body)`` for each of the ``n`` cells."""
    cells: list[tuple[Cell, int]] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if len(cells) >= n:
            raise fail(i, f"extra characters after the {n} cells of the grid")
        if ch in _HEX:
            cells.append((int(ch, 16), i))
            i += 1
        elif ch in _WIDE:
            width, base = _WIDE[ch]
            digits = body[i + 1: i + 1 + width]
            if len(digits) < width or not set(digits) <= _HEX:
                raise fail(i, f"{ch!r} must be followed by {width} hex digits, found {digits!r}")
            cells.append((base + int(digits, 16), i))
            i += 1 + width
        elif ch == ".":
            cells.append((UNKNOWN, i))
            i += 1
        elif _run(ch) is not None:
            count = _run(ch)
            if len(cells) + count > n:
                raise fail(i, f"a run of {count} blank cells goes past the {n} cells of the grid")
            cells += [(None, i)] * count
            i += 1
        else:
            raise fail(i, f"bad character {ch!r} in the puzzle body")
    return cells


def decode_four(body: str, n: int, fail: Callable[[int, str], ParseError]) -> list[tuple[Cell, int]]:
    """The 4-cell body (clues 0-4) of Slitherlink."""
    cells: list[tuple[Cell, int]] = []
    for i, ch in enumerate(body):
        if len(cells) >= n:
            raise fail(i, f"extra characters after the {n} cells of the grid")
        if "0" <= ch <= "9" or "a" <= ch <= "e":
            v = int(ch, 16)
            blanks = 0 if v < 5 else 1 if v < 10 else 2
            cells.append((v - 5 * blanks, i))
            cells += [(None, i)] * min(blanks, n - len(cells))  # pzprjs: a clue in the last cell is 'a'-'e'
        elif ch == "f" or _run(ch) is not None:
            count = 1 if ch == "f" else _run(ch)
            if len(cells) + count > n:
                raise fail(i, f"a run of {count} blank cells goes past the {n} cells of the grid")
            cells += [(None, i)] * count
        elif ch == ".":
            cells.append((UNKNOWN, i))
        else:
            raise fail(i, f"bad character {ch!r} in the puzzle body")
    return cells


def _blanks(count: int) -> str:
    """A run of 1-20 blank cells: ``g``-``z``."""
    return "0123456789abcdefghijklmnopqrstuvwxyz"[count + 15]


def encode_numbers(cells: list[Cell]) -> str:
    """pzprjs's ``encodeNumber16``; wide values are zero-padded (its decoder reads fixed widths)."""
    out, count = [], 0
    for v in cells:
        piece = ""
        if v is None:
            count += 1
        elif v == UNKNOWN:
            piece = "."
        elif v < 16:
            piece = format(v, "x")
        elif v < 256:
            piece = "-" + format(v, "02x")
        elif v < 4096:
            piece = "+" + format(v, "03x")
        elif v < 8192:
            piece = "=" + format(v - 4096, "03x")
        elif v < 12288:
            piece = "%" + format(v - 8192, "03x")
        else:
            raise UnsupportedGenre(f"a number {v} is too big for a puzz.link URL (12287 at most)")
        if count == 0:
            out.append(piece)
        elif piece or count == 20:
            out.append(_blanks(count) + piece)
            count = 0
    if count:
        out.append(_blanks(count))
    return "".join(out)


def encode_four(cells: list[Cell]) -> str:
    """pzprjs's ``encode4Cell``: a clue absorbs the one or two blanks after it when it can."""
    out, count, i, n = [], 0, 0, len(cells)
    while i < n:
        v, piece = cells[i], ""
        if isinstance(v, int):
            if i + 1 < n and cells[i + 1] is not None:
                piece = format(v, "x")
            elif i + 2 < n and cells[i + 2] is not None:
                piece, i = format(v + 5, "x"), i + 1
            else:
                piece, i = format(v + 10, "x"), i + 2
        elif v == UNKNOWN:
            piece = "."
        else:
            count += 1
        if count == 0:
            out.append(piece)
        elif piece or count == 20:
            out.append(_blanks(count) + piece)
            count = 0
        i += 1
    if count:
        out.append(_blanks(count))
    return "".join(out)


# -- puzzles --------------------------------------------------------------------------------------
def decode(text: str, source: str = "<url>", line: int = 1, genre: str | None = None) -> Any:
    """The puzzle a URL describes (``genre``, when given, must agree with its pid)."""
    url = split(text, source, line)
    if genre is not None and genre != url.genre:
        raise _error(source, line, url.body_col,
                     f"the URL holds a {url.genre} puzzle (pid {url.pid!r}) but the genre asked for is {genre}")

    def fail(index: int, message: str) -> ParseError:
        return _error(source, line, url.body_col + index, message)

    if url.genre == "sudoku" and (url.cols != url.rows or url.cols not in SUDOKU_BOX):
        raise _error(source, line, url.body_col,
                     f"a {url.cols}x{url.rows} Sudoku: puzz.link's Sudoku is 4x4, 6x6, 9x9, 16x16 or 25x25")
    n = url.cols * url.rows
    reader = decode_four if url.genre == "slitherlink" else decode_numbers
    cells = reader(url.body, n, fail)
    if len(cells) < n:
        raise fail(len(url.body), f"the body describes {len(cells)} cells, a {url.cols}x{url.rows} grid has {n}")
    src = Source(source, line)
    grid = [[cells[r * url.cols + c] for c in range(url.cols)] for r in range(url.rows)]
    if url.genre == "sudoku":
        return _sudoku(url, grid, src, fail)
    if url.genre == "nurikabe":
        for row in grid:
            for v, at in row:
                if isinstance(v, int) and not 1 <= v <= n:
                    raise fail(at, f"number {v} is out of range 1..{n} (the grid has {n} cells)")
        return NurikabePuzzle(tuple(tuple(v for v, _ in row) for row in grid), "", src)
    for row in grid:
        for v, at in row:
            if v == UNKNOWN:
                raise fail(at, "a '?' clue: satgrid's Slitherlink has clues 0-4 only")
    return SlitherlinkPuzzle(tuple(tuple(v for v, _ in row) for row in grid), "", src)


def _sudoku(url: Url, grid, src: Source, fail) -> SudokuPuzzle:
    size = url.cols
    for row in grid:
        for v, at in row:
            if v == UNKNOWN:
                raise fail(at, "a '?' given: a Sudoku given needs its value")
            if v is not None and not 1 <= v <= size:
                raise fail(at, f"value {v} is out of range 1..{size}")
    h, w = SUDOKU_BOX[size]
    puzzle = SudokuPuzzle(tuple(tuple(v for v, _ in row) for row in grid), h, w, "", src)
    duplicate_givens(puzzle, grid, fail)
    return puzzle


def duplicate_givens(puzzle: SudokuPuzzle, grid, fail) -> None:
    """Raise ``fail(position, message)`` at a given that repeats in its row, column or box;
    ``grid`` holds ``(value, position)`` per cell."""
    n, h, w = puzzle.size, puzzle.box_height, puzzle.box_width
    seen: dict[tuple[str, int, int], tuple[int, int]] = {}
    for r in range(n):
        for c in range(n):
            d, at = grid[r][c]
            if d is None:
                continue
            for kind, index in (("row", r), ("column", c), ("box", (r // h) * (n // w) + c // w)):
                if seen.setdefault((kind, index, d), (r, c)) != (r, c):
                    raise fail(at, f"given {d} twice in {kind} {index + 1}")


def check_sides(puzzle: Any) -> None:
    """Refuse a grid with a side longer than the URL and pzprv3 readers take (:data:`MAX_SIDE`)."""
    if max(puzzle.rows, puzzle.cols) > MAX_SIDE:
        raise UnsupportedGenre(f"a grid of {puzzle.rows} rows and {puzzle.cols} columns: puzz.link URLs and "
                               f"pzprv3 files are read up to {MAX_SIDE} a side")


def encode(puzzle: Any) -> str:
    """The canonical URL of ``puzzle`` (pzprjs's encoders, the puzz.link address)."""
    genre = puzzle.genre
    if genre not in WRITE_PID:
        raise UnsupportedGenre(f"no puzz.link URL for genre {genre}")
    check_sides(puzzle)
    cells: list[Cell] = []
    if genre == "sudoku":
        box = SUDOKU_BOX.get(puzzle.size)
        if box != (puzzle.box_height, puzzle.box_width):
            raise UnsupportedGenre(
                f"puzz.link has no {puzzle.size}x{puzzle.size} Sudoku with {puzzle.box_height}x"
                f"{puzzle.box_width} boxes (its sizes: 4, 6 (boxes 2 tall x 3 wide), 9, 16, 25)")
        rows = puzzle.givens
    elif genre == "nurikabe":
        rows = puzzle.grid
    else:
        rows = puzzle.givens
    for row in rows:
        cells.extend(row)
    body = encode_four(cells) if genre == "slitherlink" else encode_numbers(cells)
    url = f"{CANONICAL}{WRITE_PID[genre]}/{puzzle.cols}/{puzzle.rows}/{body}"
    return url if url[-1].isalnum() else url + "/"
