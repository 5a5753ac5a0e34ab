"""Masyu in other programs' formats: puzz.link URLs, pzprv3 files (with the answer) and Simon
Tatham's Pearl game IDs. Plain functions until the generic codecs of :mod:`satgrid.formats`
take them over.

* puzz.link (pzprjs ``mashu``; ``masyu`` is read too): ``p?mashu/COLS/ROWS/BODY``, the body
  pzprjs's ``decodeCircle``: three cells a base-27 character, each cell a base-3 digit (weights
  9, 3, 1), 1 a white pearl, 2 a black one (pzprjs ``Cell.qnum``; its ``uramashu`` swaps them).
* pzprv3 (pzprjs ``FileIO`` of ``mashu``): ``pzprv3``, ``mashu``, rows, cols, the cell grid
  (``decodeCellQnum``: ``1`` white, ``2`` black, ``.`` none), then the answer
  (``decodeBorderLine`` on a board with inner borders only): ``rows`` lines of ``cols - 1``
  borders between side-by-side cells, then ``rows - 1`` lines of ``cols`` borders between cells
  one above the other; ``1`` the loop crosses the border (a link), ``0`` not, ``-1`` crossed out.
* Tatham's Pearl (pearl.c ``new_game_desc``): ``WxH:DESC``, cells row by row, ``W`` a white
  pearl (the loop goes straight), ``B`` a black one (a corner), ``a``-``z`` a run of 1-26 cells
  without one.
"""
from __future__ import annotations

import re

from . import BLACK, WHITE, MasyuPuzzle, Pearl, Solution
from ...errors import ParseError
from ...puzzle import Source

_BASE27 = "0123456789abcdefghijklmnopq"
QNUM: dict[Pearl, int] = {WHITE: 1, BLACK: 2}
PEARL = {v: k for k, v in QNUM.items()}


def _pearls(cells: list[Pearl | None], rows: int, cols: int) -> tuple[tuple[Pearl | None, ...], ...]:
    return tuple(tuple(cells[r * cols:(r + 1) * cols]) for r in range(rows))


# -- puzz.link ----------------------------------------------------------------------------------
def url(puzzle: MasyuPuzzle) -> str:
    """The puzz.link URL of ``puzzle`` (pzprjs ``encodeCircle``)."""
    cells = [QNUM[k] if k else 0 for row in puzzle.givens for k in row]
    body = "".join(_BASE27[sum(w * v for w, v in zip((9, 3, 1), cells[i:i + 3]))] for i in range(0, len(cells), 3))
    return f"https://puzz.link/p?mashu/{puzzle.cols}/{puzzle.rows}/{body}"


_URL = re.compile(r"^(?:https?://[^?\s]*\?)?(mashu|masyu)(?:_(?:edit|play|test))?/([0-9]+)/([0-9]+)/([0-9a-q]*)/?$")


def from_url(text: str, source: str = "<url>", line: int = 1) -> MasyuPuzzle:
    """The Masyu of a puzz.link URL (pid ``mashu`` or ``masyu``)."""
    m = _URL.match(text.strip())
    if m is None:
        raise ParseError(source, line, "not a puzz.link Masyu URL (…?mashu/COLS/ROWS/BODY)")
    cols, rows, body = int(m.group(2)), int(m.group(3)), m.group(4)
    if not (0 < rows <= 1000 and 0 < cols <= 1000):
        raise ParseError(source, line, f"a {cols}x{rows} (columns x rows) grid is out of range")
    n = rows * cols
    if len(body) != -(-n // 3):
        raise ParseError(source, line, f"the body has {len(body)} characters, a {cols}x{rows} grid takes {-(-n // 3)}")
    digits = [_BASE27.index(ch) // w % 3 for ch in body for w in (9, 3, 1)]
    if any(digits[n:]):
        raise ParseError(source, line, f"a pearl past the {n} cells of the grid")
    return MasyuPuzzle(_pearls([PEARL.get(d) for d in digits[:n]], rows, cols), source=Source(source, line))


# -- pzprv3 -------------------------------------------------------------------------------------
def pzprv3(puzzle: MasyuPuzzle, solution: Solution | None = None) -> str:
    """pzprjs's file of ``puzzle`` (``FileIO.encodeData`` of ``mashu``), with the loop of
    ``solution`` as the answer (none drawn without one)."""
    rows, cols = puzzle.rows, puzzle.cols
    horizontal, vertical = solution if solution is not None else (
        ((0,) * (cols - 1),) * rows, ((0,) * cols,) * (rows - 1))
    lines = ["pzprv3", "mashu", str(rows), str(cols)]
    lines += ["".join(f"{QNUM[k] if k else '.'} " for k in row) for row in puzzle.givens]
    lines += ["".join(f"{x} " for x in row) for row in (*horizontal, *vertical)]
    return "\n".join(lines) + "\n"


# -- Tatham's Pearl -----------------------------------------------------------------------------
def tatham(puzzle: MasyuPuzzle) -> str:
    """Pearl's game ID ``WxH:DESC`` of ``puzzle``."""
    out, run = [], 0
    for k in [k for row in puzzle.givens for k in row] + ["end"]:
        if k is None:
            run += 1
            continue
        while run:
            out.append(chr(ord("a") + min(run, 26) - 1))
            run -= min(run, 26)
        if k != "end":
            out.append(k.upper())
    return f"{puzzle.cols}x{puzzle.rows}:" + "".join(out)


_ID = re.compile(r"^([0-9]+)x([0-9]+)(?:d[a-z])?(?:n)?:([a-zBW]*)$")


def from_tatham(text: str, source: str = "<game id>", line: int = 1) -> MasyuPuzzle:
    """The Masyu of a Pearl game ID (``WxH:DESC``)."""
    m = _ID.match(text.strip())
    if m is None:
        raise ParseError(source, line, "not a Pearl game ID (WxH:DESC, DESC of B, W and a-z)")
    cols, rows = int(m.group(1)), int(m.group(2))
    if not (0 < rows <= 1000 and 0 < cols <= 1000):
        raise ParseError(source, line, f"a {cols}x{rows} (width x height) grid is out of range")
    cells: list[Pearl | None] = []
    for ch in m.group(3):
        cells += [None] * (ord(ch) - ord("a") + 1) if ch.islower() else [ch.lower()]  # type: ignore[list-item]
    if len(cells) != rows * cols:
        raise ParseError(source, line, f"the game ID describes {len(cells)} cells, {cols}x{rows} has {rows * cols}")
    return MasyuPuzzle(_pearls(cells, rows, cols), source=Source(source, line))
