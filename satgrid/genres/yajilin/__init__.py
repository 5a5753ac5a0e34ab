"""Yajilin (Nikoli, "Yajirin"; puz.link ``yajilin``, pzprjs ``yajirin.js``).

Rules (Nikoli's rulebook, as pzprjs ``yajirin`` checks them): shade some cells and draw one loop
through the centres of all other cells that are not clue cells, by links between side-adjacent
cells; the loop never branches or crosses itself. Shaded cells never touch side to side. Clue
cells are neither shaded nor on the loop; an arrow with a number counts the shaded cells from its
cell to the grid's edge in its direction (clue cells on the way count nothing: they are never
shaded).

A clue cell holds an arrow and a number (``2e``: two shaded cells to the east), or less: a cell
without a number (``x``, a grey cell; pzprjs's ``?``), an arrow without a number (``?e``) or a
number without an arrow (``3``) count nothing. **A clue** in the sense of audits and the
generator is an arrow *with* its number. Switching it off erases the count and leaves a clue
cell without a number, still neither shaded nor on the loop: which cells are clue cells is part
of the puzzle's shape, not a clue. So an audit's "redundant" means "the puzzle with this
number erased (the grey cell kept) still has one solution", and a solution stays a solution of
every subset of the clues, which the generator's clue removal needs.

Encoding (:func:`rules`, on the model builder; clause counts and measurements in
``encodings/yajilin.md``):

* ``("line", r1, c1, r2, c2)`` per pair of side-adjacent cells and ``("shaded", r, c)`` per
  cell: the primary variables (links numbered first, as Masyu's).
* One loop: the core's ``single_loop`` over the links (degree 0 or 2, non-empty, connected:
  lazy subtour cuts or eager parent pointers and ranks).
* The loop visits exactly the cells that are neither shaded nor clue cells
  (``loop_visits``: ``not shaded p <-> some link at p``; a clue cell's links are off).
* Clue cells are not shaded; shaded cells do not touch (``not_adjacent``).
* Each arrow with its number is a clue behind its selector ``("clue", r, c, (d, n))``:
  exactly ``n`` of the shaded literals of the non-clue cells in direction ``d``.

The base encoding depends on the clue cells only (not on the arrows), so ``cache_key`` is the
size and the set of clue cells.
"""
from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from .checker import WORDS, check_yajilin
from ... import links as lk
from ... import render_svg as svg
from ...encoding import Encoding
from ...errors import ParseError, SatgridError
from ...formats import puzzlekit, puzzlink, pzprv3
from ...grading import StateFormat, state_lines
from ...grid import Grid, runs
from ...model import Clue, Model, made_once, read_shading
from ...puzzle import (GridPuzzle, Source, cell_name, edge_grids_from_json, edge_grids_json,
                       shading_rows_from_json)
from ...reader import Record, is_decimal
from ...session import Session

NAME = "yajilin"
SUMMARY = "Yajilin: shade cells and draw one loop through all the others; arrows count shaded cells"
EXAMPLES = "yajilin.txt"
ALIASES = ("yajirin",)

Cell = tuple[int, int]
#: A clue cell: ``(direction, number)``, direction ``n``/``s``/``e``/``w`` or ``""`` (no arrow),
#: number or None (no number).
Arrow = tuple[str, "int | None"]
Links = lk.Links
#: ``(shading, horizontal, vertical)``: rows of ``#`` (shaded) and ``.``, then the loop's links
#: (:mod:`satgrid.links`).
Solution = tuple[tuple[str, ...], Links, Links]

STEPS: dict[str, Cell] = dict(lk.DIRECTIONS)
HOLE: Arrow = ("", None)
#: The largest number a clue cell holds (pzprjs's URL writes numbers up to 4095).
MAX_NUMBER = 4095


@dataclass(frozen=True)
class YajilinPuzzle(GridPuzzle):
    """The clue cells of a Yajilin grid: an :data:`Arrow` per clue cell, None per other cell."""

    genre: ClassVar[str] = NAME

    def clue_cells(self) -> frozenset[Cell]:
        """Every clue cell (with or without an arrow and a number)."""
        return frozenset(self.numbers())

    def clues(self) -> dict[Cell, Arrow]:
        """The clues queries switch on and off: arrows with their numbers."""
        return {p: v for p, v in self.numbers().items() if v[0] and v[1] is not None}

    def with_clues(self, clues: dict[Cell, Any]) -> "YajilinPuzzle":
        """This puzzle keeping the arrows in ``clues``; every other clue cell keeps no number
        (``x``), ordinary cells stay ordinary."""
        grid = tuple(tuple(None if v is None else clues.get((r, c), v if not (v[0] and v[1] is not None) else HOLE)
                           for c, v in enumerate(row)) for r, row in enumerate(self.grid))
        return replace(self, grid=grid, given_solution=None)


def ray(rows: int, cols: int, p: Cell, direction: str) -> list[Cell]:
    """The cells from ``p`` (excluded) to the grid's edge in ``direction``."""
    return Grid.of(rows, cols).sightline(p, STEPS[direction], lambda q: False)


def capacity(puzzle: YajilinPuzzle, p: Cell, direction: str) -> int:
    """The most shaded cells the ray from ``p`` can hold: ``ceil(k / 2)`` in each run of ``k``
    non-clue cells (shaded cells do not touch; clue cells are never shaded)."""
    holes = puzzle.clue_cells()
    line = ray(puzzle.rows, puzzle.cols, p, direction)
    return sum((len(run) + 1) // 2 for run in runs(line, lambda q: q not in holes))


# -- text ---------------------------------------------------------------------------------------
_TOKEN = re.compile(r"\S+")
#: Ordinary cells in the text format.
EMPTY = (".", "-")


def read_token(token: str) -> Arrow | None:
    """A cell token: ``.`` or ``-`` None; ``x`` (or ``?``) a clue cell without a number; ``2e``
    an arrow with its number, ``?e`` an arrow without; ``3`` a number without an arrow.
    ValueError for anything else."""
    if token in EMPTY:
        return None
    low = token.lower()
    if low in ("x", "?"):
        return HOLE
    direction = low[-1] if low[-1] in STEPS else ""
    body = low[:-1] if direction else low
    if body == "?" and direction:
        return (direction, None)
    if is_decimal(body) and len(body) <= 6:
        return (direction, int(body))
    raise ValueError(f"{token!r} is not a cell: use '.' (empty), 'x' (a clue cell without a number), "
                     "a number with an arrow n/s/e/w ('2e'), '?e' or a number alone")


def write_token(value: Arrow | None) -> str:
    """The inverse of :func:`read_token`: ``.``, ``x``, ``2e``, ``?e``, ``3``."""
    if value is None:
        return "."
    direction, n = value
    if n is None:
        return f"?{direction}" if direction else "x"
    return f"{n}{direction}"


def clue_problem(puzzle: YajilinPuzzle, p: Cell) -> str | None:
    """Why the clue at ``p`` cannot hold: an arrow pointing off the grid with a number above 0
    (published puzzles hold ``0`` arrows at the edge, pointing off it), or a number larger than
    the cells in its direction can hold (or than :data:`MAX_NUMBER`)."""
    direction, n = puzzle.grid[p[0]][p[1]]
    if direction and n and not ray(puzzle.rows, puzzle.cols, p, direction):
        return f"the arrow at {cell_name(*p)} points {WORDS[direction]}, off the grid, and says {n}"
    if n is not None and n > MAX_NUMBER:
        return f"the number {n} at {cell_name(*p)} is larger than {MAX_NUMBER}"
    if direction and n is not None and n > capacity(puzzle, p, direction):
        return (f"the arrow at {cell_name(*p)} says {n} shaded cells {WORDS[direction]}, but the cells "
                f"there hold at most {capacity(puzzle, p, direction)} (shaded cells do not touch)")
    return None


def _checked(puzzle: YajilinPuzzle, error: Any) -> YajilinPuzzle:
    """``puzzle`` once every clue can hold (:func:`clue_problem`); else ``error(r, c, message)``."""
    for p in sorted(puzzle.clue_cells()):
        problem = clue_problem(puzzle, p)
        if problem is not None:
            raise error(*p, problem)
    return puzzle


def parse(record: Record) -> YajilinPuzzle:
    """Rows of whitespace-separated tokens (:func:`read_token`): ``.`` or ``-`` an empty cell,
    ``x`` a clue cell without a number, ``2e`` an arrow (``n``, ``s``, ``e``, ``w``) with its
    number. Errors name the token: a bad token, an arrow pointing off the grid, a number larger
    than the cells in its direction can hold."""
    rows = record.token_rows()
    for n, tokens in rows:
        if len(tokens) != len(rows[0][1]):
            raise record.error(f"row has {len(tokens)} cells, the first row has {len(rows[0][1])} "
                               "(rows must be equally long)", n)
    if not rows:
        raise record.error("no Yajilin grid found")
    for key, size in (("rows", len(rows)), ("cols", len(rows[0][1]))):
        stated = record.meta.get(key)
        if stated is not None and stated.strip() != str(size):
            raise record.error(f"the header says {key}: {stated} but the grid has {size}")
    grid = []
    for n, tokens in rows:
        cells = []
        for token, col in tokens:
            try:
                cells.append(read_token(token))
            except ValueError as exc:
                raise record.error(str(exc), n, col) from None
        grid.append(tuple(cells))
    puzzle = YajilinPuzzle(tuple(grid), record.name, Source(record.source, record.line))
    return _checked(puzzle, lambda r, c, message: record.error(message, rows[r][0], rows[r][1][c][1]))


def _solution_rows(lines: list[tuple[int, str]], puzzle: YajilinPuzzle, what: str,
                   error: Any) -> list[list[tuple[str, int, int]]]:
    """The ``rows`` lines of a solution or state, each ``cols`` tokens ``(token, line, column)``."""
    lines = [(n, t) for n, t in lines if t.strip()]
    if len(lines) != puzzle.rows:
        raise error(f"the {what} has {len(lines)} rows, the grid {puzzle.rows}", lines[0][0] if lines else None, None)
    out = []
    for n, text in lines:
        tokens = [(m.group(), n, m.start() + 1) for m in _TOKEN.finditer(text)]
        if len(tokens) != puzzle.cols:
            raise error(f"{what} row has {len(tokens)} cells, the grid {puzzle.cols}", n, None)
        out.append(tokens)
    return out


def _steps(token: str) -> set[Cell]:
    return {STEPS[ch] for ch in token.lower()}


def parse_solution(record: Record, puzzle: YajilinPuzzle) -> Solution | None:
    """The solution in a block's ``solution:`` section (None when it has none), as
    :func:`render` prints it: a token a cell, ``#`` (or ``x``) shaded, a loop cell's two
    directions (``ns``, ``ew``, ``ne``, ``nw``, ``se``, ``sw``), and at a clue cell its own token
    or ``-`` (the puzzlekit dataset's solutions read as they are)."""
    if not any(t.strip() for _, t in record.solution_lines):
        return None
    holes = puzzle.clue_cells()
    shading: list[str] = []
    steps: dict[Cell, tuple[str, int, int]] = {}
    for r, tokens in enumerate(_solution_rows(record.solution_lines, puzzle, "solution", record.error)):
        row = ""
        for c, (token, n, col) in enumerate(tokens):
            if (r, c) in holes:
                if token not in ("-", ".", write_token(puzzle.grid[r][c])):
                    raise record.error(f"{token!r} at the clue cell {cell_name(r, c)}: write its clue "
                                       f"{write_token(puzzle.grid[r][c])!r} or '-'", n, col)
                row += "."
            elif token in ("#", "x", "X"):
                row += "#"
            elif lk.is_token(token):
                row += "."
                steps[r, c] = (token, n, col)
            else:
                raise record.error(f"{token!r} is not a solution cell for {cell_name(r, c)}: use '#' (shaded) "
                                   "or the loop's two directions (ns, ew, ne, nw, se, sw)", n, col)
        shading.append(row)
    horizontal, vertical = lk.from_tokens(puzzle.rows, puzzle.cols, steps, lambda m, n, col: record.error(m, n, col))
    return tuple(shading), horizontal, vertical


# -- encoding -----------------------------------------------------------------------------------
def cache_key(puzzle: YajilinPuzzle) -> tuple:
    """The size and the clue cells: the arrows are assumptions."""
    return (NAME, puzzle.rows, puzzle.cols, tuple(sorted(puzzle.clue_cells())))


def rules(m: Model, clue_cells: frozenset[Cell]) -> None:
    """The rulebook of the module docstring over the vocabulary; arrows are clues."""
    line = m.links("line")
    shaded = m.cells("shaded")
    loop = m.single_loop("one loop through the centres of cells", line)
    false = -m.true() if clue_cells else 0
    m.loop_visits("the loop visits every cell that is neither shaded nor a clue cell", loop,
                  {p: false if p in clue_cells else -x for p, x in shaded.items()})
    m.require("clue cells are not shaded", ([-shaded[p]] for p in sorted(clue_cells)))
    m.not_adjacent("shaded cells do not touch", shaded)
    rows, cols = m.grid.rows, m.grid.cols

    @m.clue
    def arrow(c: Clue, cell: Cell, value: object) -> None:
        direction, n = value  # type: ignore[misc]
        c.exactly([shaded[q] for q in ray(rows, cols, cell, direction) if q not in clue_cells], n)


@made_once(maxsize=16)
def build(rows: int, cols: int, clue_cells: tuple[Cell, ...]) -> Encoding:
    """The base encoding of every puzzle of a size with these clue cells, made once."""
    m = Model(Grid.of(rows, cols))
    rules(m, frozenset(clue_cells))
    return m.build()


def encode(puzzle: YajilinPuzzle) -> Encoding:
    return build(puzzle.rows, puzzle.cols, tuple(sorted(puzzle.clue_cells())))


def decode(puzzle: YajilinPuzzle, encoding: Encoding, value: Any) -> Solution:
    shading = read_shading(encoding, "shaded", value, puzzle.rows, puzzle.cols)
    return (shading, *lk.read_links(encoding, "line", value, puzzle.rows, puzzle.cols))


def check(puzzle: YajilinPuzzle, solution: Solution) -> list[str]:
    return check_yajilin(puzzle.rows, puzzle.cols, puzzle.numbers(), *solution)


# -- output -------------------------------------------------------------------------------------
def _cell_tokens(puzzle: YajilinPuzzle, solution: Solution | None) -> list[list[str]]:
    out = lk.exits(solution[1:]) if solution is not None else {}
    return [[write_token(v) if v is not None or solution is None else
             "#" if solution[0][r][c] == "#" else lk.token(out.get((r, c), ())) or "-"
             for c, v in enumerate(row)] for r, row in enumerate(puzzle.grid)]


def render(puzzle: YajilinPuzzle, solution: Solution | None = None) -> str:
    """The grid, a token a cell in aligned columns: clues (``2e``, ``x``), ``.`` empty; with a
    solution, ``#`` shaded and each loop cell's two directions (``se``, ``ew``, ...)."""
    tokens = _cell_tokens(puzzle, solution)
    width = max(len(t) for row in tokens for t in row)
    return "\n".join(" ".join(t.ljust(width) for t in row).rstrip() for row in tokens)


def puzzle_json(puzzle: YajilinPuzzle) -> list[list[str]]:
    """Rows of cell tokens (:func:`write_token`)."""
    return [[write_token(v) for v in row] for row in puzzle.grid]


def puzzle_from_json(record: Record, value: object) -> YajilinPuzzle:
    """The inverse of :func:`puzzle_json`, parsed as text rows, so every check of :func:`parse`
    applies."""
    if not isinstance(value, list) or not value or not all(
            isinstance(row, list) and row and all(isinstance(t, str) and t and not any(ch.isspace() for ch in t)
                                                  for t in row) for row in value):
        raise record.error("not a list of rows of cell tokens (such as [\".\", \"2e\", \"x\"])")
    return parse(record.part(record.line, [(record.line, " ".join(row)) for row in value], record.name))


def solution_json(puzzle: YajilinPuzzle, solution: Solution) -> dict[str, list]:
    """``{"shaded": rows of '#'/'.', "horizontal": ..., "vertical": ...}`` (the links as Masyu's)."""
    return {"shaded": list(solution[0]), **edge_grids_json(puzzle, solution[1:])}


def solution_from_json(puzzle: YajilinPuzzle, value: object) -> Solution:
    """The inverse of :func:`solution_json`; ValueError unless it fits the puzzle."""
    if not isinstance(value, dict):
        raise ValueError("not an object with 'shaded', 'horizontal' and 'vertical'")
    shading = shading_rows_from_json(puzzle, value.get("shaded"))
    rows, cols = puzzle.rows, puzzle.cols
    return (shading, *edge_grids_from_json(value, (rows, cols - 1), (rows - 1, cols), "links"))


def differences(puzzle: YajilinPuzzle, a: Solution, b: Solution) -> list[Cell]:
    """The cells shaded in one solution only or passed differently by the two loops."""
    found = lk.differences(a[1:], b[1:])
    found |= {(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if a[0][r][c] != b[0][r][c]}
    return sorted(found)


def estimate(rows: int, cols: int, connectivity: str = "lazy") -> tuple[int, int]:
    """(variables, clauses) expected of the encoding of a rows x cols grid: a shaded variable and
    about two links a cell, up to 8 degree clauses, 5 visit clauses and 2 neighbour clauses a
    cell; the eager loop rule adds parent pointers and ranks, whose clauses per cell grow with the
    rank's bits. The figures behind the constants are in encodings/yajilin.md."""
    cells = rows * cols
    if connectivity != "eager":
        return 3 * cells + 1, 16 * cells + 1
    bits = math.log2(max(cells, 2))
    return int(cells * (4 + 5.3 * bits)), int(cells * (28 + 13.1 * bits))


# -- drawing ------------------------------------------------------------------------------------
def DRAW(puzzle: YajilinPuzzle, solution: Solution | None, marks: svg.Marks) -> list[str]:
    """The grid; clue cells pale grey with their number and an arrow beside it; a solution's
    shaded cells black and its loop through the cell centres."""
    holes = puzzle.numbers()
    out = svg.cells(puzzle, marks, puzzle.clues())
    out += svg.clue_cells([p for p in holes if p not in marks.redundant])
    if solution is not None:
        out += svg.shaded([(r, c) for r, row in enumerate(solution[0]) for c, x in enumerate(row) if x == "#"], marks)
        out += svg.centre_lines(lk.pairs(solution[1:]), marks)
    return [*out, *svg.border(puzzle),
            *svg.arrow_numbers({p: (d, "" if n is None else str(n)) for p, (d, n) in holes.items()})]


# -- hint state ---------------------------------------------------------------------------------
def read_state(puzzle: YajilinPuzzle, text: str, source: str) -> dict[tuple, bool]:
    """A hint's partial solution, a token a cell as :func:`render` prints a solution: ``#``
    shaded, ``.`` (or ``+``) unshaded (on the loop), a loop cell's two directions (its four links
    decided), ``?`` (or ``_``) or a clue cell's token undecided."""
    def error(message: str, line: int | None, column: int | None) -> ParseError:
        return ParseError(source, line, message, column)

    grid = Grid.of(puzzle.rows, puzzle.cols)
    holes = puzzle.clue_cells()
    state: dict[tuple, bool] = {}
    for r, tokens in enumerate(_solution_rows(state_lines(text), puzzle, "state", error)):
        for c, (token, n, col) in enumerate(tokens):
            p = (r, c)
            if p in holes:
                if token not in ("-", ".", "?", "_", write_token(puzzle.grid[r][c])):
                    raise error(f"{token!r} at the clue cell {cell_name(r, c)}: write its clue or '-'", n, col)
            elif token in ("#", ".", "+"):
                state[("shaded", r, c)] = token == "#"
            elif lk.is_token(token):
                state[("shaded", r, c)] = False
                on = _steps(token)
                for q in grid.neighbours(p):
                    state[lk.link_key(p, q)] = (q[0] - r, q[1] - c) in on
            elif token not in ("?", "_"):
                raise error(f"{token!r} is not a cell mark for {cell_name(r, c)}: use '#' (shaded), '.' "
                            "(unshaded), two directions (a loop cell) or '?' (undecided)", n, col)
    return state


def describe(puzzle: YajilinPuzzle, key: tuple, value: bool) -> str:
    """One primary variable in words: a cell shaded or not, a link on the loop or crossed out."""
    if key[0] == "shaded":
        return f"{cell_name(*key[1:])} is {'shaded' if value else 'not shaded (on the loop)'}"
    return lk.describe(key, value)


def shown(puzzle: YajilinPuzzle) -> dict[tuple, bool]:
    """What the grid itself shows: a clue cell is not shaded and no link touches it."""
    grid = Grid.of(puzzle.rows, puzzle.cols)
    facts: dict[tuple, bool] = {}
    for p in puzzle.clue_cells():
        facts[("shaded", *p)] = False
        facts.update((lk.link_key(p, q), False) for q in grid.neighbours(p))
    return facts


STATE = StateFormat(read_state, describe, lambda key, value: True,
                    "a token a cell, as 'solve' prints a solution: '#' shaded, '.' unshaded, a loop "
                    "cell's two directions (ns, ew, ne, nw, se, sw), '?' undecided", shown=shown, clue="arrow")


# -- formats ------------------------------------------------------------------------------------
#: pzprjs's ``qdir``: 0 none, 1 up, 2 down, 3 left, 4 right.
QDIR: dict[str, int] = {"": 0, "n": 1, "s": 2, "w": 3, "e": 4}
DIRECTION_OF: dict[int, str] = {v: k for k, v in QDIR.items()}


def _url_values(puzzle: YajilinPuzzle) -> list[list[tuple[int, object] | None]]:
    return [[None if v is None else (QDIR[v[0]], puzzlink.UNKNOWN if v[1] is None else v[1]) for v in row]
            for row in puzzle.grid]


def _from_url(cells: puzzlink.Cells) -> YajilinPuzzle:
    grid = tuple(tuple(None if v is None else (DIRECTION_OF[v[0]], None if v[1] == puzzlink.UNKNOWN else v[1])
                       for v in row) for row in cells.values)  # type: ignore[index]
    return _checked(YajilinPuzzle(grid, "", cells.source), cells.error)


#: puz.link ``yajilin`` (``yajirin`` read too): pzprjs's ``decodeArrowNumber16``
#: (:data:`~satgrid.formats.puzzlink.ARROW_NUMBERS`). The ``b`` flag (grey clue cells) only
#: changes the engine's display; satgrid writes none, as the engine's default display.
PUZZLINK = puzzlink.Codec(pids=("yajilin", "yajirin"), body=puzzlink.ARROW_NUMBERS, read=_from_url,
                          write=_url_values)


def _pzprv3_clue(word: str, rows: int, cols: int) -> tuple[int, object] | None:
    """pzprjs's ``decodeCellDirecQnum``: ``.`` none, ``d,n`` a clue cell (``d`` 0-4, ``n`` a
    number or ``-`` for none)."""
    if word == ".":
        return None
    d, comma, n = word.partition(",")
    if not comma or d not in ("0", "1", "2", "3", "4") or not (n == "-" or (is_decimal(n) and len(n) <= 6)):
        raise ValueError(f"{word!r} is not a clue cell ('.' or 'direction,number': 0-4 and a number or '-')")
    return int(d), "?" if n == "-" else int(n)


def _from_pzprv3(grids: pzprv3.Grids) -> tuple[YajilinPuzzle, Solution | None]:
    grid = tuple(tuple(None if v is None else (DIRECTION_OF[v[0]], None if v[1] == "?" else v[1]) for v in row)
                 for row in grids["clue grid"])
    puzzle = _checked(YajilinPuzzle(grid, "", grids.source), lambda r, c, m: grids.error("clue grid", r, c, m))
    if "answer" not in grids:
        return puzzle, None
    shading = tuple("".join(row) for row in grids["answer"])
    horizontal, vertical = (tuple(map(tuple, grids[name])) for name in ("horizontal links", "vertical links"))
    if "#" not in "".join(shading) and not any(map(any, horizontal + vertical)):
        return puzzle, None
    return puzzle, (shading, horizontal, vertical)


def _to_pzprv3(puzzle: YajilinPuzzle, solution: Solution | None) -> dict[str, object]:
    """The clue grid as ``d,n`` tokens; the answer ``#`` shaded, ``+`` other non-clue cells (``.``
    without a solution, and at clue cells); the links across the borders between cells."""
    rows, cols = puzzle.rows, puzzle.cols
    clue_grid = [["." if v is None else f"{QDIR[v[0]]},{'-' if v[1] is None else v[1]}" for v in row]
                 for row in puzzle.grid]
    shading = solution[0] if solution is not None else None
    answer = [["." if shading is None or v is not None else "#" if shading[r][c] == "#" else "+"
               for c, v in enumerate(row)] for r, row in enumerate(puzzle.grid)]
    horizontal, vertical = solution[1:] if solution is not None else lk.empty(rows, cols)
    return {"clue grid": clue_grid, "answer": answer, "horizontal links": horizontal, "vertical links": vertical}


#: pzprjs's ``yajirin`` file (``FileIO``: ``decodeCellDirecQnum``, ``decodeCellAns``,
#: ``decodeBorderLine``): the clue grid, the shading, then the links across the borders between
#: cells (the borders between side-by-side cells first).
PZPRV3 = pzprv3.Codec(
    pids=("yajirin", "yajilin"),
    sections=(pzprv3.Section("clue grid", _pzprv3_clue),
              pzprv3.Section("answer", pzprv3.SHADING, answer=True),
              pzprv3.Section("horizontal links", pzprv3.EDGES, (0, -1), answer=True),
              pzprv3.Section("vertical links", pzprv3.EDGES, (-1, 0), answer=True)),
    read=_from_pzprv3, write=_to_pzprv3)


def _puzzlekit_rows(puzzle: YajilinPuzzle, solution: Solution | None) -> tuple[list[list[str]], list[list[str]] | None]:
    """The dataset's tokens: ``-`` empty, ``x`` a clue cell without a number, ``2e`` an arrow; the
    solution ``x`` shaded, a loop cell's two directions, ``-`` at clue cells."""
    problem = [["-" if v is None else write_token(v) for v in row] for row in puzzle.grid]
    if solution is None:
        return problem, None
    answer = [["-" if t in ("-",) or puzzle.grid[r][c] is not None else "x" if t == "#" else t
               for c, t in enumerate(row)] for r, row in enumerate(_cell_tokens(puzzle, solution))]
    return problem, answer


#: The puzzlekit dataset's Yajilin grids (``assets/data/Yajilin``): ``-`` empty, ``x`` a clue
#: cell without a number, ``2e`` an arrow with its number, which :func:`parse` reads as they are;
#: solutions ``x`` shaded, ``-`` clue cells, loop cells their two directions.
PUZZLEKIT = puzzlekit.Codec("Yajilin", problem=puzzlekit.Tokens(), solution=puzzlekit.Tokens({"x": "#"}),
                            write=_puzzlekit_rows)


# -- generation ---------------------------------------------------------------------------------
def blank(rows: int, cols: int) -> YajilinPuzzle:
    """The puzzle of a size without clue cells."""
    return YajilinPuzzle(tuple((None,) * cols for _ in range(rows)))


#: Share of a sampled solution's shaded cells that start as clue cells (:func:`sample`).
CLUE_SHARE = 0.25
#: Random solutions :func:`sample` grows a puzzle on before it gives up.
SAMPLE_DRAWS = 20


def _solution_near(puzzle: YajilinPuzzle, rng: random.Random, near: Solution | None = None) -> Solution | None:
    """A solution of ``puzzle``'s rules and clues, from random phases on the shaded and link
    variables, or (``near``) the phases of that solution, so that the solver lands close to it."""
    encoding = encode(puzzle)
    session = Session(encoding)
    try:
        if near is None:
            phases = [lit if rng.random() < 0.5 else -lit for layer in ("shaded", "line")
                      for lit in encoding.layers[layer].values()]
        else:
            shaded = encoding.layers["shaded"]
            on = set(lk.pairs(near[1:]))
            phases = [lit if near[0][r][c] == "#" else -lit for (r, c), lit in shaded.items()]
            phases += [lit if pq in on else -lit for pq, lit in encoding.layers["line"].items()]
        session.prefer(phases)
        outcome = session.solve()
        return decode(puzzle, encoding, outcome.assignment) if outcome.status == "sat" else None
    finally:
        session.close()


def _counts(solution: Solution, arrows: dict[Cell, str], rows: int, cols: int,
            numbered: bool = True) -> YajilinPuzzle:
    """The puzzle whose clue cells are ``arrows`` (cell -> direction), each numbered with the
    shaded cells of ``solution`` in its direction (none with ``numbered=False``)."""
    shading = solution[0]
    grid: list[list[Arrow | None]] = [[None] * cols for _ in range(rows)]
    for p, d in arrows.items():
        n = sum(shading[r][c] == "#" for r, c in ray(rows, cols, p, d))
        grid[p[0]][p[1]] = (d, n if numbered else None)
    return YajilinPuzzle(tuple(map(tuple, grid)))


def _unshaded(solution: Solution, cells: Any) -> Solution:
    """``solution`` with ``cells`` (shaded cells turned into clue cells) no longer shaded."""
    shading = tuple("".join("." if (r, c) in cells else x for c, x in enumerate(row)) for r, row in enumerate(solution[0]))
    return (shading, *solution[1:])


def _two_solutions(puzzle: YajilinPuzzle) -> list[Solution]:
    """Up to two solutions of ``puzzle``, on a solver of its own (so a seed reproduces them)."""
    from ...queries import PuzzleQueries

    encoding = encode(puzzle)
    session = Session(encoding)
    try:
        queries = PuzzleQueries(session, puzzle.clues())
        found = queries.solve()
        if found.status != "sat":
            return []
        out = [decode(puzzle, encoding, found.assignment)]
        other = queries.other_solution(queries.project(found.assignment))
        if other.status == "sat":
            out.append(decode(puzzle, encoding, other.assignment))
        return out
    finally:
        session.close()


def _fewer_clue_cells(puzzle: YajilinPuzzle, rng: random.Random) -> YajilinPuzzle:
    """``puzzle`` (unique) without each clue cell, in random order, that it stays unique without:
    the cell becomes an ordinary cell and the other numbers are those of the new solution."""
    order = sorted(puzzle.clue_cells())
    rng.shuffle(order)
    for p in order:
        grid = [list(row) for row in puzzle.grid]
        grid[p[0]][p[1]] = None
        trial = YajilinPuzzle(tuple(map(tuple, grid)))
        if len(_two_solutions(trial)) == 1:
            puzzle = trial
    return puzzle


def sample(rows: int, cols: int, rng: random.Random) -> YajilinPuzzle:
    """A unique puzzle with every clue (the generic generator's ``SAMPLE``), grown on a random
    solution of the clue-less rules:

    1. A random solution (random phases); about :data:`CLUE_SHARE` of its shaded cells become
       clue cells with an arrow in a random direction that has a cell. A shaded cell can become
       a clue cell without breaking the solution: the loop never visits it, and no rule forbids
       a clue cell beside another cell. Numbers are the solution's counts.
    2. While the puzzle has a second solution, one more cell becomes a clue cell, chosen to rule
       the second out: a shaded cell of the first that the second's loop passes (a clue cell is
       never on the loop) or, failing that, one whose arrow counts differently in the second
       (its arrow points where the two differ). When the two differ in their loops only, no
       shaded cell tells them apart: a cell where the loops differ becomes a clue cell, and the
       solution is drawn again with the new clue cell, near the old one (its phases).

    3. Clue cells go whole (they become ordinary cells), in random order, while the puzzle stays
       unique (:func:`_fewer_clue_cells`): the generic generator later erases numbers only, and
       leaves their clue cells grey, so this keeps its puzzles from filling with grey cells.

    Steps 1-2 follow Tatham's generators, which add clues that rule out the solver's alternative
    (e.g. ``pearl.c``'s ``new_clues``). Measured in encodings/yajilin.md.

    A grid of one row or column is too small: the rules ask for a loop, which needs two of each."""
    if min(rows, cols) < 2:
        raise SatgridError(f"a {rows}x{cols} Yajilin is too small: its loop needs at least 2 rows and "
                           "2 columns")
    for _ in range(SAMPLE_DRAWS):
        solution = _solution_near(blank(rows, cols), rng)
        if solution is None:
            continue
        arrows: dict[Cell, str] = {}

        def directions(p: Cell) -> list[str]:
            return [d for d in STEPS if ray(rows, cols, p, d)]

        for p in (p for p in Grid.of(rows, cols).cells if solution[0][p[0]][p[1]] == "#"):
            if rng.random() < CLUE_SHARE:
                arrows[p] = rng.choice(directions(p))
        solution = _unshaded(solution, arrows)
        for _ in range(rows * cols):
            puzzle = _counts(solution, arrows, rows, cols)
            found = _two_solutions(puzzle)
            if len(found) == 1:
                return _fewer_clue_cells(puzzle, rng)
            other = next((s for s in found if s != solution), None)
            if other is None:
                break
            shaded = [(r, c) for r in range(rows) for c in range(cols) if solution[0][r][c] == "#"]
            passed = lk.exits(other[1:])
            killing = [p for p in shaded if p in passed]

            def differs(p: Cell, d: str) -> bool:
                return any(solution[0][r][c] != other[0][r][c] for r, c in ray(rows, cols, p, d))

            telling = [p for p in shaded if any(differs(p, d) for d in directions(p))]
            if killing or telling:
                p = rng.choice(killing or telling)
                arrows[p] = rng.choice([d for d in directions(p) if differs(p, d)] or directions(p))
                solution = _unshaded(solution, {p})
                continue
            p = rng.choice(sorted(lk.differences(solution[1:], other[1:])))
            arrows[p] = rng.choice(directions(p))
            redrawn = _solution_near(_counts(solution, arrows, rows, cols, numbered=False), rng, solution)
            if redrawn is None:
                break
            solution = redrawn
    raise SatgridError(f"no unique {rows}x{cols} Yajilin grown on {SAMPLE_DRAWS} random solutions")


SAMPLE = sample


# -- golden samples -----------------------------------------------------------------------------
#: (the genre's text, the status of ``solve --unique``, the solution or None), checked against
#: brute force (tests/test_yajilin.py).
SAMPLES = (
    (". . . .\n. . . .\n. . . .\n. . 1n .\n", "unique",
     (("#...", "..#.", "....", "...#"), ((0, 1, 1), (1, 0, 0), (0, 1, 1), (1, 0, 0)),
      ((0, 1, 0, 1), (1, 0, 0, 1), (1, 1, 0, 0)))),
    (". . .\n. x .\n. . .\n", "unique", (("...", "...", "..."), ((1, 1), (0, 0), (1, 1)), ((1, 0, 1), (1, 0, 1)))),
    ("1e . . .\n. . . .\n. . . .\n", "multiple", None),  # the shaded cell at r1c2 or r1c4
    (". . .\n. 1n .\n. . .\n", "unsatisfiable", None),  # r1c2 shaded: r1c1 and r1c3 are cut off
)


# -- repair -------------------------------------------------------------------------------------
def CANDIDATES(puzzle: YajilinPuzzle, solution: Solution) -> dict[Cell, Arrow]:
    """The arrows a repair may add: on every clue cell without a number, the count of shaded
    cells in its arrow's direction (a cell without an arrow takes the direction of its longest
    ray: one arrow per cell, the one that covers most)."""
    shading, holes, out = solution[0], puzzle.clue_cells(), {}
    for p, (arrow, n) in puzzle.numbers().items():
        if n is None or not arrow:
            way = arrow or max(STEPS, key=lambda d: len(ray(puzzle.rows, puzzle.cols, p, d)))
            out[p] = (way, sum(shading[r][c] == "#" for r, c in ray(puzzle.rows, puzzle.cols, p, way)
                               if (r, c) not in holes))
    return out


def CLUE_WORDS(value: Arrow) -> str:
    """An arrow with its number in words: ``2e (2 shaded right)``."""
    direction, n = value
    return f"{write_token(value)} ({n} shaded {WORDS[direction]})"
