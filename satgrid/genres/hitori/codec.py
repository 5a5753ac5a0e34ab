"""Hitori in other programs' formats: the puzz.link URL body, the pzprv3 grids, Tatham's Singles.

* puzz.link body (pzprjs ``src/variety/hitori.js``, ``encodeHitori``/``decodeHitori``): one
  piece a cell, row by row: a base-36 digit ``0``-``9``/``a``-``z`` a number 0-35, ``-`` and two
  base-36 digits a number 36-1295, ``.`` a cell without a number (``%``/``@`` a ``?``, which
  satgrid's Hitori has not). Older pzprjs wrote ``-`` and one digit for 16-35, which its own
  decoder misreads; satgrid writes the current form, which every version reads.
* pzprv3 (``FileIO``: ``decodeCellQnum``, ``decodeCellAns``): the clue grid (a number, ``.``
  none, ``-`` a ``?``), then the answer grid: ``#`` shaded, ``+`` a dot (unshaded), ``.`` open.
* Tatham's Singles (``singles.c``: ``unpick_desc``, ``generate_desc``, ``n2c``/``c2n``): params
  ``W[xH]`` (a ``d<difficulty>`` may follow), description ``W*H`` characters, each a number
  ``1``-``9``, ``a``-``z`` (10-35), ``A``-``Z`` (36-61), no larger than ``max(W, H)``; every
  cell holds a number, and sides run 2..62.

Each reader takes ``fail(index, message)`` to turn a problem at a character or token into the
caller's error (with line and column); writers raise :class:`UnsupportedGenre` for what the
format cannot hold.
"""
from __future__ import annotations

from typing import Callable, Sequence

from ...errors import ParseError, UnsupportedGenre

Fail = Callable[[int, str], ParseError]
Cells = list[int | None]
_DIGITS36 = "0123456789abcdefghijklmnopqrstuvwxyz"
_SINGLES = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: Grid sides Singles plays (``validate_params``).
SINGLES_SIDES = range(2, 63)


def _check(value: int, top: int, at: int, fail: Fail) -> int:
    if not 1 <= value <= top:
        raise fail(at, f"number {value} is out of range 1..{top} (the grid's longer side)")
    return value


# -- puzz.link ------------------------------------------------------------------------------------
def decode_body(body: str, rows: int, cols: int, fail: Fail) -> Cells:
    """The numbers of a ``hitori`` URL body, row by row; exactly ``rows * cols`` cells."""
    n, top = rows * cols, max(rows, cols)
    cells: Cells = []
    i = 0
    while i < len(body):
        ch = body[i]
        if len(cells) >= n:
            raise fail(i, f"extra characters after the {n} cells of the grid")
        if ch in _DIGITS36:
            cells.append(_check(int(ch, 36), top, i, fail))
            i += 1
        elif ch == "-":
            digits = body[i + 1: i + 3]
            if len(digits) < 2 or not set(digits) <= set(_DIGITS36):
                raise fail(i, f"'-' must be followed by 2 base-36 digits, found {digits!r}")
            cells.append(_check(int(digits, 36), top, i, fail))
            i += 3
        elif ch == ".":
            cells.append(None)
            i += 1
        elif ch in "%@":
            raise fail(i, "a '?' number: satgrid's Hitori needs every number's value")
        else:
            raise fail(i, f"bad character {ch!r} in the puzzle body")
    if len(cells) < n:
        raise fail(len(body), f"the body describes {len(cells)} cells, a {cols}x{rows} grid has {n}")
    return cells


def encode_body(cells: Sequence[int | None]) -> str:
    """The ``hitori`` URL body of the numbers, row by row (pzprjs's current ``encodeHitori``)."""
    out = []
    for v in cells:
        if v is None:
            out.append(".")
        elif v < 36:
            out.append(_DIGITS36[v])
        elif v < 36 * 36:
            out.append("-" + _DIGITS36[v // 36] + _DIGITS36[v % 36])
        else:
            raise UnsupportedGenre(f"a number {v} is too big for a puz.link URL (1295 at most)")
    return "".join(out)


# -- pzprv3 ---------------------------------------------------------------------------------------
def read_clues(tokens: Sequence[str], top: int, fail: Fail) -> Cells:
    """The clue grid's tokens (row by row): a number, ``.`` none."""
    cells: Cells = []
    for i, word in enumerate(tokens):
        if word == ".":
            cells.append(None)
        elif word == "-":
            raise fail(i, "a '?' number: satgrid's Hitori needs every number's value")
        elif word.isascii() and word.isdigit():
            cells.append(_check(int(word), top, i, fail))
        else:
            raise fail(i, f"{word!r} is not a number or '.'")
    return cells


def read_answer(tokens: Sequence[str], fail: Fail) -> str | None:
    """The answer grid's tokens as one ``#``/``.`` character a cell, or None when nothing is
    shaded (an unsolved file)."""
    for i, word in enumerate(tokens):
        if word not in ("#", "+", "."):
            raise fail(i, f"{word!r} is not an answer cell ('#' shaded, '+' or '.' unshaded)")
    if "#" not in tokens:
        return None
    return "".join("#" if word == "#" else "." for word in tokens)


def clue_tokens(cells: Sequence[int | None]) -> list[str]:
    return ["." if v is None else str(v) for v in cells]


def answer_tokens(shading: str | None, count: int) -> list[str]:
    """``#`` shaded and ``+`` unshaded (every cell decided), or ``.`` everywhere without one."""
    if shading is None:
        return ["."] * count
    return ["#" if ch == "#" else "+" for ch in shading]


# -- Tatham's Singles -----------------------------------------------------------------------------
def decode_singles(desc: str, rows: int, cols: int, fail: Fail) -> list[int]:
    """The numbers of a Singles description (``fail`` gets the index in ``desc``)."""
    if rows not in SINGLES_SIDES or cols not in SINGLES_SIDES:
        raise fail(0, f"a {cols}x{rows} Singles grid: its sides run {SINGLES_SIDES.start}.."
                      f"{SINGLES_SIDES.stop - 1}")
    n, top = rows * cols, max(rows, cols)
    cells = []
    for i, ch in enumerate(desc):
        if i >= n:
            raise fail(i, f"extra characters after the {n} cells of the grid")
        value = _SINGLES.find(ch)
        if value < 1:
            raise fail(i, f"bad character {ch!r}: a Singles cell is 1-9, a-z or A-Z")
        cells.append(_check(value, top, i, fail))
    if len(cells) < n:
        raise fail(len(desc), f"the description has {len(cells)} cells, a {cols}x{rows} grid has {n}")
    return cells


def encode_singles(cells: Sequence[int | None], rows: int, cols: int) -> str:
    """The Singles game ID ``WxH:DESC`` of a grid whose every cell holds a number."""
    if rows not in SINGLES_SIDES or cols not in SINGLES_SIDES:
        raise UnsupportedGenre(f"Singles plays grids of {SINGLES_SIDES.start}..{SINGLES_SIDES.stop - 1} "
                               f"a side, not {cols}x{rows}")
    if any(v is None for v in cells):
        raise UnsupportedGenre("a Singles game ID needs a number in every cell")
    if max(cells) >= len(_SINGLES):  # type: ignore[type-var]
        raise UnsupportedGenre(f"a number {max(cells)} is too big for a Singles game ID "
                               f"({len(_SINGLES) - 1} at most)")
    return f"{cols}x{rows}:" + "".join(_SINGLES[v] for v in cells)  # type: ignore[index]
