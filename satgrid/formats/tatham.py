"""Simon Tatham's game IDs: Solo (Sudoku) ``CxR:DESC`` and Loopy (Slitherlink) ``WxHt0:DESC``.

A game ID is ``<params>:<description>`` (puzzles source, ``solo.c`` and ``loopy.c``);
``<params>#<seed>`` is a random seed that only the game itself can expand into a puzzle.

Solo: params ``C[xR]`` then flags (``j`` jigsaw, ``x`` X diagonals, ``k`` killer; symmetry and
difficulty settings may follow and mean nothing for a given grid). The grid is n x n, n = C*R, and
cell (y, x) lies in block (y div C, x div R): boxes C tall and R wide. The description runs row
by row: a lowercase letter is a run of blanks (``a`` = 1 ... ``z`` = 26), a decimal number a given,
``_`` separates two adjacent numbers.

Loopy: params ``WxH`` then ``t<type>`` (0 = the square grid; other numbers are other tilings)
and ``d<difficulty>``. The description runs over the faces row by row: a digit is a clue, ``a``-
``z`` a run of 1-26 faces without one. satgrid's Slitherlink genre reads these descriptions
(``satgrid.genres.slitherlink``); this module tells the two games apart and writes both.

Which game: ``t`` in the params means Loopy (sgt-loopy always writes it), the Solo flags and
``_`` mean Solo; otherwise the description must fit exactly one of the two (its cell count), or
the error names both.
"""
from __future__ import annotations

import re
from typing import Any

from ..errors import ParseError, UnsupportedGenre
from ..genres.sudoku import SudokuPuzzle
from ..puzzle import Source
from ..reader import Record, is_decimal, number
from .puzzlink import duplicate_givens

#: ``WIDTH[xHEIGHT][FLAGS](:|#)REST``. The flags start with a letter, so no digit can belong to both
#: a size and the flags: every backtracking step fails at once and matching is linear.
_ID = re.compile(r"^([0-9]+)(?:x([0-9]+))?((?:[a-z][a-z0-9]*)?)([:#])(.*)$")
_LOOPY_PARAMS = re.compile(r"^(t[0-9]+)?(d[a-z])?$")
GAMES = {"solo": "sudoku", "loopy": "slitherlink"}
MAX_SIZE = 1000
#: Sides n = C*R of the Solo grids satgrid reads and writes.
SOLO_SIDES = range(2, 37)


def looks_like_id(text: str) -> bool:
    """Whether a line is meant as a Tatham game ID or seed (``3x3:...``, ``10x10t0dh#123``)."""
    return _ID.match(text.strip()) is not None


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


def game_of(text: str, genre: str | None, source: str, line: int) -> str:
    """``"solo"`` or ``"loopy"`` for an ID line; errors for variants and seeds say why."""
    lead = len(text) - len(text.lstrip())
    s = text.strip()
    m = _ID.match(s)
    if m is None:
        raise ParseError(source, line, "not a game ID (expected PARAMS:DESCRIPTION, e.g. 3x3:a2e9...)", lead + 1)
    width, height, flags, sep, desc = m.groups()
    colon = lead + m.start(4) + 1
    if genre is not None and genre not in GAMES.values():
        raise ParseError(source, line, f"a Tatham game ID is a Solo (sudoku) or Loopy (slitherlink) puzzle, "
                                       f"not {genre}", lead + 1)
    loopy_params = _LOOPY_PARAMS.match(flags) is not None and height is not None
    if "t" in flags and loopy_params:
        game = "loopy"
        tiling = flags[1:].split("d")[0]
        if tiling != "0":
            raise ParseError(source, line, f"Loopy grid type t{tiling} is not the square grid (t0): "
                                           "satgrid solves square-grid Slitherlink only", lead + m.start(3) + 1)
    elif genre == "slitherlink":
        game = "loopy"
    elif genre == "sudoku" or not loopy_params or "_" in desc or "," in desc:
        game = "solo"
    elif sep == "#":
        raise ParseError(source, line, f"random-seed ID {s!r}: only the game can expand a seed, and "
                                       "this one could be Solo or Loopy; paste the game ID (PARAMS:DESC)", colon)
    elif _fits_loopy(width, height, desc) and not _fits_solo(width, height, desc):
        game = "loopy"  # a Loopy ID written without its t0
    elif _fits_solo(width, height, desc):
        if _fits_loopy(width, height, desc):
            raise ParseError(
                source, line,
                f"{s[:m.end(3)]!r} fits both Solo (sudoku) and Loopy (slitherlink): write Loopy IDs "
                f"with t0 ({width}x{height}t0:...) or pass --genre sudoku|slitherlink", lead + 1)
        game = "solo"
    else:
        game = "solo"  # the games write Loopy IDs with t0: without it, report Solo's errors
    if game == "solo":
        variant = _solo_flags(flags)
        for flag, name in (("j", "jigsaw"), ("k", "killer"), ("x", "X (diagonal)")):
            if variant[flag]:
                raise UnsupportedGenre(f"{source}:{line}: Solo {name} Sudoku ({s[:m.end(3)]}) is not "
                                       "supported yet: satgrid solves standard box Sudoku")
    if sep == "#":
        program = "sgt-solo" if game == "solo" else "sgt-loopy"
        raise ParseError(source, line,
                         f"{s!r} is a random-seed ID: only the game can expand it into a puzzle "
                         f"({program} --generate 1 {s!r} prints its game ID; in the game, enter the "
                         "seed with Game > Random Seed... and copy the ID from Game > Specific...)", colon)
    return game


def _cells(game: str, desc: str) -> tuple[int, int | None]:
    """How many cells ``desc`` describes for ``game``, and the index of the first character that
    is not part of that game's descriptions (None when all are)."""
    count = 0
    for m in re.finditer(r"[0-9]+|[a-z]|.", desc):
        token = m.group()
        if is_decimal(token):
            count += 1 if game == "solo" else len(token)
        elif "a" <= token <= "z":
            count += ord(token) - ord("a") + 1
        elif token != "_" or game == "loopy":
            return count, m.start()
    return count, None


def _fits_solo(width: str, height: str | None, desc: str) -> bool:
    n = (number(width) or 0) * (number(height or width) or 0)
    return _cells("solo", desc) == (n * n, None)


def _fits_loopy(width: str, height: str | None, desc: str) -> bool:
    return _cells("loopy", desc) == ((number(width) or 0) * (number(height or width) or 0), None)


# -- Solo -----------------------------------------------------------------------------------------
def decode_solo(text: str, source: str = "<game id>", line: int = 1) -> SudokuPuzzle:
    """A Sudoku from a Solo game ID ``CxR:DESC`` (boxes C tall, R wide)."""
    lead = len(text) - len(text.lstrip())
    s = text.strip()
    m = _ID.match(s)
    assert m is not None and m.group(4) == ":"
    c = number(m.group(1)) or 0
    r = number(m.group(2)) or 0 if m.group(2) else c
    n = c * r
    if not 1 <= c <= MAX_SIZE or not 1 <= r <= MAX_SIZE or n not in SOLO_SIDES:
        size = f"{m.group(1)}x{m.group(2) or m.group(1)}"
        grid = f"makes a {n}x{n} grid" if c <= MAX_SIZE and r <= MAX_SIZE else "is too big"
        raise ParseError(source, line, f"Solo size {size} {grid}; satgrid reads {SOLO_SIDES[0]}.."
                                       f"{SOLO_SIDES[-1]}", lead + 1)
    start = lead + m.start(5)  # 0-based column of the description
    desc = m.group(5)
    cells: list[tuple[int | None, int]] = []  # (value, 1-based column)
    i = 0
    while i < len(desc):
        ch = desc[i]
        at = start + i + 1
        if len(cells) >= n * n:
            raise ParseError(source, line, f"the description goes on after the {n * n} cells of a "
                                           f"{n}x{n} grid", at)
        if "a" <= ch <= "z":
            run = ord(ch) - ord("a") + 1
            if len(cells) + run > n * n:
                raise ParseError(source, line, f"a run of {run} blanks goes past the {n * n} cells of "
                                               f"a {n}x{n} grid", at)
            cells += [(None, at)] * run
            i += 1
        elif is_decimal(ch):
            j = i
            while j < len(desc) and is_decimal(desc[j]):
                j += 1
            value = number(desc[i:j]) or 0
            if not 1 <= value <= n:
                raise ParseError(source, line, f"given {desc[i:j]} is out of range 1..{n}", at)
            cells.append((value, at))
            i = j
        elif ch == "_":
            i += 1
        else:
            raise ParseError(source, line, f"bad character {ch!r} in a Solo description", at)
    if len(cells) != n * n:
        raise ParseError(source, line, f"the description has {len(cells)} cells, a {n}x{n} grid has "
                                       f"{n * n}", start + len(desc) + 1)
    grid = [cells[y * n:(y + 1) * n] for y in range(n)]
    puzzle = SudokuPuzzle(tuple(tuple(v for v, _ in row) for row in grid), c, r, "", Source(source, line))
    duplicate_givens(puzzle, grid, lambda at, message: ParseError(source, line, message, at))
    return puzzle


def encode_solo(puzzle: SudokuPuzzle) -> str:
    """The Solo game ID (solo.c's ``encode_grid``: ``_`` only between adjacent numbers)."""
    if puzzle.size not in SOLO_SIDES:
        raise UnsupportedGenre(f"no Solo game ID for a {puzzle.size}x{puzzle.size} Sudoku (Solo grids are "
                               f"{SOLO_SIDES[0]}..{SOLO_SIDES[-1]} wide)")
    out: list[str] = []
    run = 0
    cells = [v for row in puzzle.givens for v in row] + [-1]
    for v in cells:
        if v is None:
            run += 1
            continue
        if run:
            while run > 0:
                step = min(run, 26)
                out.append(chr(ord("a") - 1 + step))
                run -= step
        elif out and v > 0:
            out.append("_")
        if v > 0:
            out.append(str(v))
    return f"{puzzle.box_height}x{puzzle.box_width}:" + "".join(out)


# -- Loopy ----------------------------------------------------------------------------------------
def decode_loopy(text: str, source: str = "<game id>", line: int = 1) -> Any:
    """A Slitherlink from a Loopy game ID (the genre's own reader of Loopy descriptions)."""
    from ..genres import slitherlink

    try:
        return slitherlink.parse(Record(source, line, "", "slitherlink", {}, [(line, text)]))
    except ParseError as exc:
        lead = len(text) - len(text.lstrip())
        m = _ID.match(text.strip())
        if exc.column is not None or m is None:
            raise
        width, height = number(m.group(1)) or 0, number(m.group(2) or m.group(1)) or 0
        count, _ = _cells("loopy", m.group(5))
        if count == width * height:
            raise
        at, total = lead + m.end(5) + 1, 0  # the end, or the character that goes past the grid
        for k, ch in enumerate(m.group(5)):
            total += ord(ch) - ord("a") + 1 if "a" <= ch <= "z" else 1
            if total > width * height:
                at = lead + m.start(5) + k + 1
                break
        raise ParseError(source, line, f"the game ID describes {count} cells, a {width}x{height} grid "
                                       f"has {width * height}", at) from None


def encode_loopy(puzzle: Any) -> str:
    """The Loopy game ID of a Slitherlink (loopy.c: runs of up to 26 blank faces)."""
    out: list[str] = []
    run = 0
    for row in puzzle.givens:
        for v in row:
            if v is None:
                run += 1
                if run == 26:
                    out.append("z")
                    run = 0
                continue
            if run:
                out.append(chr(ord("a") - 1 + run))
                run = 0
            out.append(str(v))
    if run:
        out.append(chr(ord("a") - 1 + run))
    return f"{puzzle.cols}x{puzzle.rows}t0:" + "".join(out)


def decode(text: str, source: str = "<game id>", line: int = 1, genre: str | None = None) -> Any:
    """The puzzle of a Solo or Loopy game ID."""
    game = game_of(text, genre, source, line)
    return decode_solo(text, source, line) if game == "solo" else decode_loopy(text, source, line)


def encode(puzzle: Any) -> str:
    """The Tatham game ID of a Sudoku (Solo) or Slitherlink (Loopy)."""
    if puzzle.genre == "sudoku":
        return encode_solo(puzzle)
    if puzzle.genre == "slitherlink":
        return encode_loopy(puzzle)
    raise UnsupportedGenre(f"no Tatham game ID for genre {puzzle.genre} (Solo is sudoku, Loopy slitherlink)")
