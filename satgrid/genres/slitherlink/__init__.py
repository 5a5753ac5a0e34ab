"""Slitherlink (Nikoli; Simon Tatham's Loopy on the square grid).

Rules (as S. Takegaki's Slitherlink thesis, Leiden 2008, states them): choose edges of the dot
lattice of a rectangular grid so that they form one simple closed loop that never touches or
crosses itself; a number 0-4 in a cell counts how many of its four sides are on the loop.

Encoding (:func:`rules`, stated with the model builder :mod:`satgrid.model`;
``encodings/slitherlink.md`` has the clause counts and measurements): one variable per edge, ``("edge", "h", i, j)`` on dot row ``i`` between dot columns ``j`` and ``j + 1`` and
``("edge", "v", i, j)`` in cell row ``i`` on dot column ``j``. The core's
:class:`~satgrid.loop.SingleLoop` rule states "one loop" (degree 0 or 2 at every dot, non-empty,
connected), lazily by subtour cuts or eagerly by parent pointers with ranks. A clue ``k`` in cell
``(r, c)`` is "exactly k of its four sides" behind the selector ``("clue", r, c, k)``, so the base
CNF is the same for every puzzle of a size and one solver (and its cuts) serves them all.

A clue above 0 puts a side of its cell on the loop, so the loop passes a corner dot of the cell:
the clue is a *clue anchor* of the loop rule (no clause or variable of its own), and it makes the
lazy cut the *generalised* subtour cut (SAT notes): a sub-loop S that no corner of an active
positive clue touches cannot be the whole loop, so as soon as one dot of S is on the loop an edge
must leave S. The cut carries the clue's selector literal, so it stays sound when clues are
switched off for audits.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, combinations
from typing import ClassVar, Literal

from ... import grid as geometry
from .checker import check_slitherlink
from ...cnf import Clause
from ...encoding import Encoding
from ...grid import ORTHOGONAL, fixed_polyominoes
from ...model import Clue, Model, layer_values, made_once
from ...puzzle import GridPuzzle, Source, edge_grids_from_json, edge_grids_json
from ...reader import Record, number, split_on_blank_lines
from ...errors import ParseError
from ...formats import puzzlink, pzprv3, tatham

NAME = "slitherlink"
SUMMARY = "Slitherlink (Loopy): one closed loop on the dot lattice; a cell's number counts its loop sides"
EXAMPLES = "slitherlink.txt"

MAX_CLUE = 4
Grid = tuple[tuple[int | None, ...], ...]
Edges = tuple[tuple[int, ...], ...]
#: ``(horizontal, vertical)``: ``rows + 1`` rows of ``cols`` and ``rows`` rows of ``cols + 1`` 0/1.
Solution = tuple[Edges, Edges]
EdgeKey = geometry.EdgeKey
Cell = tuple[int, int]


@dataclass(frozen=True)
class SlitherlinkPuzzle(GridPuzzle):
    """Clues (``None`` = no clue, else 0-4) of a ``rows`` x ``cols`` Slitherlink."""

    genre: ClassVar[str] = NAME


# -- parsing ------------------------------------------------------------------------------------
#: A Loopy game ID ``WxHt0:DESC`` (``WxHt0dh#seed`` is a seed only sgt-loopy can expand).
_TATHAM = re.compile(r"^([0-9]+)x([0-9]+)(t[0-9]+)?(d[a-z])?([:#])(.*)$")


def _is_tatham(text: str) -> bool:
    return _TATHAM.match(text.strip()) is not None


def split(record: Record) -> list[Record]:
    """One record per puzzle: a block, a grid (puzzles separated by blank lines) or a Loopy ID a line."""
    if record.name:
        return [record]
    groups: list[list[tuple[int, str]]] = []
    for group in split_on_blank_lines(record.lines):
        if all(_is_tatham(t) for _, t in group):
            groups.extend([line] for line in group)
        else:
            groups.append(group)
    return [record.part(g[0][0], g) for g in groups]


def _cells(text: str) -> list[tuple[str, int]]:
    """The cell tokens of a line with their 1-based columns: whitespace-separated tokens when the
    line has inner whitespace, else one cell a character."""
    if any(ch.isspace() for ch in text.strip()):
        return [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", text)]
    start = len(text) - len(text.lstrip())
    return [(ch, start + i + 1) for i, ch in enumerate(text.strip())]


def _clue(record: Record, token: str, line: int, col: int) -> int | None:
    if token == ".":
        return None
    k = number(token)
    if k is not None:
        if k > MAX_CLUE:
            raise record.error(f"clue {token} is more than {MAX_CLUE} (a cell has four sides)", line, col)
        return k
    raise record.error(f"{token!r} is not a clue: use 0-{MAX_CLUE}, or '.' for no clue", line, col)


def parse(record: Record) -> SlitherlinkPuzzle:
    """A Slitherlink from rows of characters (``.`` no clue, ``0``-``4``), rows of
    whitespace-separated tokens, or one Loopy game ID ``WxHt0:DESC``."""
    rows = [(n, t) for n, t in record.lines if t.strip()]
    if not rows:
        raise record.error("no Slitherlink grid found")
    source = Source(record.source, record.line)
    if len(rows) == 1 and _is_tatham(rows[0][1]):
        givens = _from_tatham(record, *rows[0])
    else:
        grid: list[tuple[int | None, ...]] = []
        for n, text in rows:
            if _is_tatham(text):
                raise record.error("a Loopy game ID must stand alone (one puzzle a line)", n)
            cells = _cells(text)
            record.check_cells(len(grid) + 1, len(cells), n)
            if grid and len(cells) != len(grid[0]):
                raise record.error(
                    f"row has {len(cells)} cells, expected {len(grid[0])} (as in the first row)", n
                )
            grid.append(tuple(_clue(record, tok, n, col) for tok, col in cells))
        givens = tuple(grid)
    for key, size in (("rows", len(givens)), ("cols", len(givens[0]))):
        stated = record.meta.get(key)
        if stated is not None and stated.strip() != str(size):
            raise record.error(f"the header says {key}: {stated} but the grid has {size}")
    return SlitherlinkPuzzle(givens, record.name, source)


def _from_tatham(record: Record, line: int, text: str) -> Grid:
    """Decode ``WxHt0:DESC``: faces row by row, a digit is a clue, ``a``-``z`` a run of 1-26
    faces without one (Simon Tatham's loopy.c)."""
    m = _TATHAM.match(text.strip())
    assert m is not None
    width, height = number(m.group(1)) or 0, number(m.group(2)) or 0
    if m.group(3) not in (None, "t0"):
        raise record.error(f"Loopy grid type {m.group(3)!r} is not the square grid (t0)", line)
    if m.group(5) == "#":
        raise record.error("a Loopy random-seed ID; expand it with sgt-loopy --generate first", line)
    if width < 1 or height < 1:
        raise record.error(f"a {width}x{height} (width x height) grid has no cells", line)
    record.check_cells(height, width, line)
    cells: list[int | None] = []
    offset = text.index(":") + 1 + (len(text) - len(text.lstrip()))
    for i, ch in enumerate(m.group(6)):
        if "a" <= ch <= "z":
            cells.extend([None] * (ord(ch) - ord("a") + 1))
        else:
            cells.append(_clue(record, ch, line, offset + i + 1))
    if len(cells) != width * height:
        raise record.error(f"the game ID describes {len(cells)} cells, {width}x{height} (width x height) has "
                           f"{width * height}", line)
    return tuple(tuple(cells[r * width:(r + 1) * width]) for r in range(height))


def parse_solution(record: Record, puzzle: SlitherlinkPuzzle) -> Solution | None:
    """The solution drawn in a block's ``solution:`` section as :func:`render` draws it (``+``
    dots, ``-``/``|`` loop edges, blank or ``x`` off, the clues in the cells), or None when the
    block has none."""
    if not record.solution_lines:
        return None
    lines = [t for _, t in record.solution_lines]
    rows, cols = puzzle.rows, puzzle.cols
    if len(lines) != 2 * rows + 1:
        raise record.error(f"the solution drawing has {len(lines)} lines, expected {2 * rows + 1}",
                           record.solution_lines[0][0])
    width = 2 * cols + 1
    for (n, text), padded in zip(record.solution_lines, lines):
        if len(padded.rstrip()) > width:
            raise record.error(f"the solution line is {len(padded.rstrip())} characters wide, "
                               f"the drawing {width}", n, width + 1)
    lines = [t.ljust(width) for t in lines]

    def edge(i: int, j: int, on: str) -> int:
        """The mark at line ``i``, column ``j`` (0-based): ``on``, or blank/``x`` for off."""
        ch = lines[i][j]
        if ch not in (on, " ", "x"):
            raise record.error(f"{ch!r} is not an edge mark: use {on!r} on the loop, blank or 'x' off",
                               record.solution_lines[i][0], j + 1)
        return int(ch == on)

    for i in range(0, 2 * rows + 1, 2):
        for j in range(0, width, 2):
            if lines[i][j] != "+":
                raise record.error(f"expected the dot '+', found {lines[i][j]!r}",
                                   record.solution_lines[i][0], j + 1)
    horizontal = tuple(tuple(edge(2 * i, 2 * j + 1, "-") for j in range(cols)) for i in range(rows + 1))
    vertical = tuple(tuple(edge(2 * i + 1, 2 * j, "|") for j in range(cols + 1)) for i in range(rows))
    return horizontal, vertical


# -- encoding -----------------------------------------------------------------------------------
def cache_key(puzzle: SlitherlinkPuzzle) -> tuple:
    """Every Slitherlink of one size has the same base encoding (clues are assumptions)."""
    return (NAME, puzzle.rows, puzzle.cols)


def sides(rows: int, cols: int, r: int, c: int) -> list[EdgeKey]:
    """The four edges around cell ``(r, c)``: top, bottom, left, right
    (:meth:`~satgrid.grid.Grid.sides`)."""
    return geometry.Grid.sides((r, c))


def rules(m: Model, puzzle: SlitherlinkPuzzle, *, anchored: bool = True,
          cut_form: Literal["exit", "whole"] = "exit") -> None:
    """The rulebook: the chosen lattice edges form one loop; a number counts its cell's sides on
    the loop. Clues are switched on by their selectors, so the rules do not read ``puzzle``: one
    encoding serves every puzzle of its size.

    A number above 0 puts a side of its cell on the loop, so the loop passes a corner dot of the
    cell: the clue anchors the loop rule's cuts there (a sub-loop that misses every corner of an
    active positive number cannot be the loop; no clause or variable of its own).
    ``anchored=False`` leaves the anchors out (the core's clue-independent pair cuts only; kept
    for the measurements in encodings/slitherlink.md). ``cut_form``: the loop rule's lazy cut
    (:class:`~satgrid.loop.SingleLoop`; "whole" for generation). When broken (audits), a number
    excludes each choice of exactly k sides, a clause each. The edges are made first, so their
    variables are 1..n in :attr:`~satgrid.grid.Grid.edge_keys` order (:func:`small_loop_lemma`
    relies on it).
    """
    edge = m.edges("edge")
    loop = m.single_loop("the edges form one loop", edge, cut_form=cut_form)

    @m.clue
    def number(c: Clue, cell: Cell, k: int) -> None:
        around = [edge[s] for s in m.grid.sides(cell)]
        c.exactly(around, k)
        c.broken([-e if i in chosen else e for i, e in enumerate(around)]
                 for chosen in combinations(range(4), k))
        if anchored and k > 0:
            c.anchor(loop, m.grid.corners(cell))


def build(rows: int, cols: int, anchored: bool = True,
          cut_form: Literal["exit", "whole"] = "exit") -> Encoding:
    """The base encoding of every ``rows`` x ``cols`` Slitherlink (:func:`rules`), made anew."""
    m = Model(geometry.Grid.of(rows, cols))
    rules(m, SlitherlinkPuzzle(tuple(tuple([None] * cols) for _ in range(rows))), anchored=anchored,
          cut_form=cut_form)
    return m.build()


@made_once(maxsize=16)
def _base(rows: int, cols: int, cut_form: Literal["exit", "whole"]) -> Encoding:
    """The default base encoding of a size, made once, with the small-loop lemma's guard
    variable numbered alike in every copy."""
    encoding = build(rows, cols, cut_form=cut_form)
    encoding.pool.var("small_loops_barred", SMALL_LOOP_CELLS)
    return encoding


def encode(puzzle: SlitherlinkPuzzle, cut_form: Literal["exit", "whole"] = "exit") -> Encoding:
    """A copy of the base encoding of the puzzle's size, made once per size
    (:func:`~satgrid.model.made_once`: copies draw clue selectors from pools of their own, so
    a solver holds only the variables its clues use, since unused variables slow every SAT
    call; figures: encodings/slitherlink.md, section "Clause families"). ``cut_form``: the loop
    rule's lazy cut."""
    return _base(puzzle.rows, puzzle.cols, cut_form)


#: Loops around this many cells or fewer are forbidden up front in generation
#: (:func:`small_loop_lemma`).
SMALL_LOOP_CELLS = 3


@lru_cache(maxsize=8)
def small_loops(rows: int, cols: int, cells: int) -> tuple[tuple[EdgeKey, ...], ...]:
    """The loops that enclose at most ``cells`` cells (1 to 6): the boundaries of every placement
    of every polyomino of that size. Up to 6 cells each boundary is one simple loop: a hole
    needs 8 cells round it, and two cells touching at a corner alone need 7 to be joined."""
    if not 1 <= cells <= 6:
        raise ValueError(f"small loops enclose 1 to 6 cells, not {cells}")
    found = set().union(*(fixed_polyominoes(size) for size in range(1, cells + 1)))
    loops = []
    for shape in sorted(found, key=sorted):
        height, width = max(r for r, _ in shape) + 1, max(c for _, c in shape) + 1
        for r0 in range(rows - height + 1):
            for c0 in range(cols - width + 1):
                placed = {(r + r0, c + c0) for r, c in shape}
                loops.append(tuple(s for r, c in sorted(placed)
                                   for s, (dr, dc) in zip(geometry.Grid.sides((r, c)), ORTHOGONAL)
                                   if (r + dr, c + dc) not in placed))
    return tuple(loops)


def small_loop_lemma(encoding: Encoding, rows: int, cols: int, clues: dict[Cell, int],
                     selectors: dict[Cell, int], cells: int = SMALL_LOOP_CELLS) -> list[Clause]:
    """Clauses that forbid the loops around at most ``cells`` cells (:func:`small_loops`)
    while two positive clues too far apart for such a loop to touch both are switched on.

    Sound: the edges of such a loop S, all on, give each of its dots degree 2, so S is a whole
    component and, by the loop rule, the whole loop; but a loop around at most n cells touches
    only cells within Manhattan distance n + 1 of each other (its cells and their neighbours),
    so it misses one of the two clues. A literal ``big`` guards the forbidding clauses. The grid
    is cut into square blocks of ``cells + 1`` cells a side; a block's literal follows from the
    selector of every positive clue in it, and two blocks whose cells all lie more than
    ``cells + 1`` apart imply ``big``. So ``big`` holds while two such blocks each have a positive
    clue on, whichever clues go, and it may be false otherwise.
    Without the lemma the lazy loop rule finds such small sub-loops one CEGAR round at a time.
    """
    edge = encoding.layers["edge"]
    if list(edge.values()) != list(range(1, len(edge) + 1)):
        raise ValueError("the small-loop lemma needs build's edge variables: 1..n in edge_keys order")
    big = encoding.pool.var("small_loops_barred", cells)
    side = cells + 1
    blocks: dict[Cell, int] = {}
    clauses = list(_barred(rows, cols, cells, big))
    for (r, c), k in clues.items():
        if k > 0:
            block = blocks.get((r // side, c // side))
            if block is None:
                block = blocks[r // side, c // side] = encoding.pool.fresh("clued_block")
            clauses.append([-selectors[r, c], block])
    for a, b in _far_blocks(rows, cols, side):
        if a in blocks and b in blocks:
            clauses.append([-blocks[a], -blocks[b], big])
    return clauses


@lru_cache(maxsize=8)
def _far_blocks(rows: int, cols: int, side: int) -> tuple[tuple[Cell, Cell], ...]:
    """Pairs of ``side`` x ``side`` blocks whose cells are all more than ``side`` apart."""
    cells_of: dict[Cell, list[Cell]] = {}
    for r in range(rows):
        for c in range(cols):
            cells_of.setdefault((r // side, c // side), []).append((r, c))
    return tuple((a, b) for a, b in combinations(sorted(cells_of), 2)
                 if min(abs(x[0] - y[0]) + abs(x[1] - y[1]) for x in cells_of[a] for y in cells_of[b]) > side)


@lru_cache(maxsize=8)
def _barred(rows: int, cols: int, cells: int, big: int) -> tuple[Clause, ...]:
    """``big -> not every edge of S`` for each small loop S (edge variables as :func:`build`
    numbers them: 1..n in :attr:`~satgrid.grid.Grid.edge_keys` order)."""
    variable = {key: k + 1 for key, k in geometry.Grid.of(rows, cols).edge_index.items()}
    return tuple([-big, *(-variable[key] for key in loop)] for loop in small_loops(rows, cols, cells))


def decode(puzzle: SlitherlinkPuzzle, encoding: Encoding, value) -> Solution:
    """The edge layer read as rows of 0/1: horizontal edges, then vertical ones."""
    rows, cols = puzzle.rows, puzzle.cols
    keys, truth = layer_values(encoding, "edge", value)
    if keys == geometry.Grid.of(rows, cols).edge_keys:  # the layer in that order: cut in rows
        flat = bytes(truth)
        top = (rows + 1) * cols
        return (tuple(tuple(flat[k:k + cols]) for k in range(0, top, cols)),
                tuple(tuple(flat[k:k + cols + 1]) for k in range(top, len(flat), cols + 1)))
    on = dict(zip(keys, truth))
    horizontal = tuple(tuple(int(on["h", i, j]) for j in range(cols)) for i in range(rows + 1))
    vertical = tuple(tuple(int(on["v", i, j]) for j in range(cols + 1)) for i in range(rows))
    return horizontal, vertical


def check(puzzle: SlitherlinkPuzzle, solution: Solution) -> list[str]:
    return check_slitherlink(puzzle.givens, *solution)


def WITNESSES(puzzle: SlitherlinkPuzzle, solution: Solution) -> list[frozenset[Cell]]:
    """Numbers that other loops break: the loop moved over one cell, or two cells that share a
    neighbour, where it stays one simple loop (the generator's
    :func:`~satgrid.genres.slitherlink.generator.flip_witnesses`, on the region inside the loop:
    a cell is inside when an odd number of the loop's vertical edges lie left of its centre)."""
    from .generator import Region, flip_witnesses  # the generator imports the api

    vertical = solution[1]
    inside = [(r, c) for r, row in enumerate(vertical)
              for c, crossed in enumerate(accumulate(row[:puzzle.cols])) if crossed % 2]
    if not inside:  # no loop: not a solution of the rules
        return []
    region = Region.of(puzzle.rows, puzzle.cols, inside)
    return list({part for parts in flip_witnesses(region, puzzle.clues()).values() for part in parts})


# -- output -------------------------------------------------------------------------------------
def _symbol(k: int | None) -> str:
    return "." if k is None else str(k)


def render(puzzle: SlitherlinkPuzzle, solution: Solution | None = None) -> str:
    """The clue rows (without a solution), or the loop drawn on the dot lattice: ``+`` dots,
    ``-`` and ``|`` loop edges, spaces elsewhere, clues (or ``.``) in the cells."""
    if solution is None:
        return "\n".join("".join(_symbol(k) for k in row) for row in puzzle.givens)
    horizontal, vertical = solution
    lines = []
    for i in range(puzzle.rows + 1):
        lines.append("+" + "".join(("-" if horizontal[i][j] else " ") + "+" for j in range(puzzle.cols)))
        if i < puzzle.rows:
            cells = [("|" if vertical[i][j] else " ") + _symbol(k) for j, k in enumerate(puzzle.givens[i])]
            lines.append("".join(cells) + ("|" if vertical[i][puzzle.cols] else " "))
    return "\n".join(lines)


def puzzle_json(puzzle: SlitherlinkPuzzle) -> list[str]:
    """The clues as strings, one per row, ``.`` = no clue (the text input format)."""
    return ["".join("." if k is None else str(k) for k in row) for row in puzzle.givens]


def differences(puzzle: SlitherlinkPuzzle, a: Solution, b: Solution) -> list[EdgeKey]:
    """The edges on one loop and not the other, as ``("h"|"v", i, j)``."""
    return [
        (kind, i, j)
        for kind, ga, gb in (("h", a[0], b[0]), ("v", a[1], b[1]))
        for i, (ra, rb) in enumerate(zip(ga, gb))
        for j, (x, y) in enumerate(zip(ra, rb))
        if x != y
    ]


def puzzle_from_json(record: Record, value: object) -> SlitherlinkPuzzle:
    """The inverse of :func:`puzzle_json`: rows of clue characters, parsed as text rows, so every
    check of :func:`parse` applies."""
    if not isinstance(value, list) or not value or not all(isinstance(row, str) and row.strip()
                                                           for row in value):
        raise record.error("not a list of clue rows (strings such as '.3.2')")
    if any(_is_tatham(row) for row in value):
        raise record.error("rows are clue rows, not Loopy game IDs")
    lines = [(record.line, row) for row in value]
    return parse(record.part(record.line, lines, record.name))


solution_json = edge_grids_json


def solution_from_json(puzzle: SlitherlinkPuzzle, value: object) -> Solution:
    """The inverse of :func:`~satgrid.puzzle.edge_grids_json`; ValueError unless both edge grids
    fit the puzzle."""
    rows, cols = puzzle.rows, puzzle.cols
    return edge_grids_from_json(value, (rows + 1, cols), (rows, cols + 1), "edges")


def estimate(rows: int, cols: int, connectivity: str = "lazy") -> tuple[int, int]:
    """(variables, clauses) expected of the encoding of a rows x cols grid: one variable per edge
    and about 8 clauses a cell for the degree and clue rules; the eager loop rule adds parent
    pointers and ranks, whose clauses per cell grow with the rank's bits (log2 of the cells).
    The figures behind the per-cell constants are in encodings/slitherlink.md."""
    cells = rows * cols
    edges = 2 * cells + rows + cols
    if connectivity != "eager":
        return edges, 8 * cells + 1
    bits = math.log2(max(cells, 2))
    return int(cells * (25 + 3.5 * bits)), int(cells * (80 + 8.5 * bits))


# -- formats ------------------------------------------------------------------------------------
ALIASES = ("slither", "loopy")
_NO_UNKNOWN = f"a '?' clue: satgrid's Slitherlink has clues 0-{MAX_CLUE} only"


def _from_url(cells: puzzlink.Cells) -> SlitherlinkPuzzle:
    return SlitherlinkPuzzle(cells.numbers(0, MAX_CLUE, "clue", unknown=_NO_UNKNOWN), "", cells.source)


PUZZLINK = puzzlink.Codec(pids=("slither", "slitherlink"), body=puzzlink.FOUR, read=_from_url,
                          write=lambda puzzle: puzzle.givens)


def _from_pzprv3(grids: pzprv3.Grids) -> tuple[SlitherlinkPuzzle, Solution | None]:
    """The clue grid, then (the answer) the lattice's vertical and horizontal edges."""
    for r, row in enumerate(grids["clue grid"]):
        for c, v in enumerate(row):
            if v == "?":
                raise grids.error("clue grid", r, c, _NO_UNKNOWN)
    puzzle = SlitherlinkPuzzle(tuple(map(tuple, grids["clue grid"])), "", grids.source)
    if "vertical edges" not in grids:
        return puzzle, None
    vertical, horizontal = (tuple(map(tuple, grids[name])) for name in ("vertical edges", "horizontal edges"))
    return puzzle, (horizontal, vertical) if any(map(any, vertical + horizontal)) else None


def _to_pzprv3(puzzle: SlitherlinkPuzzle, solution: Solution | None) -> dict[str, object]:
    rows, cols = puzzle.rows, puzzle.cols
    horizontal, vertical = solution if solution is not None else (
        [[0] * cols for _ in range(rows + 1)], [[0] * (cols + 1) for _ in range(rows)])
    return {"clue grid": puzzle.givens, "background colour grid": [[0] * cols for _ in range(rows)],
            "vertical edges": [[int(e) for e in row] for row in vertical],
            "horizontal edges": [[int(e) for e in row] for row in horizontal]}


#: pzprjs writes ``slither`` files as pzprv3.1: clues, background colours, then the edges.
PZPRV3 = pzprv3.Codec(
    pids=("slither", "slitherlink"), version="pzprv3.1",
    sections=(pzprv3.Section("clue grid", pzprv3.clues(0, MAX_CLUE)),
              pzprv3.Section("background colour grid", pzprv3.IGNORED, answer=True, version="pzprv3.1"),
              pzprv3.Section("vertical edges", pzprv3.EDGES, (0, 1), answer=True),
              pzprv3.Section("horizontal edges", pzprv3.EDGES, (1, 0), answer=True)),
    read=_from_pzprv3, write=_to_pzprv3)

#: Loopy's params: ``WxH``, then ``t<type>`` (0 = the square grid) and ``d<difficulty>``.
_LOOPY_PARAMS = re.compile(r"^(t[0-9]+)?(d[a-z])?$")


def _loopy_params(gid: tatham.GameId) -> bool:
    return gid.height is not None and _LOOPY_PARAMS.match(gid.flags) is not None


def _loopy_cells(gid: tatham.GameId) -> int:
    return (number(gid.width) or 0) * (number(gid.height or gid.width) or 0)


def _loopy_tiling(gid: tatham.GameId) -> None:
    tiling = gid.flags[1:].split("d")[0] if gid.flags.startswith("t") else "0"
    if tiling != "0":
        raise gid.error(f"Loopy grid type t{tiling} is not the square grid (t0): satgrid solves "
                        "square-grid Slitherlink only", gid.column(3))


def decode_loopy(gid: tatham.GameId) -> SlitherlinkPuzzle:
    """A Slitherlink from a Loopy game ID (:func:`parse` reads Loopy descriptions); a description
    of the wrong length is reported at the character that goes past the grid, or at its end."""
    try:
        return parse(Record(gid.source, gid.line, "", NAME, {}, [(gid.line, gid.text)]))
    except ParseError as exc:
        count, _ = tatham.run_cells(gid.desc, digits=True)
        cells = _loopy_cells(gid)
        if exc.column is not None or count == cells:
            raise
        at, total = gid.lead + gid.match.end(5) + 1, 0
        for k, ch in enumerate(gid.desc):
            total += ord(ch) - ord("a") + 1 if "a" <= ch <= "z" else 1
            if total > cells:
                at = gid.column(5, k)
                break
        raise gid.error(f"the game ID describes {count} cells, a {gid.width}x{gid.height or gid.width} grid has {cells}",
                        at) from None


def encode_loopy(puzzle: SlitherlinkPuzzle) -> str:
    """The Loopy game ID (loopy.c: faces row by row, a digit a clue, runs of up to 26 blank faces)."""
    return f"{puzzle.cols}x{puzzle.rows}t0:" + tatham.encode_runs(v for row in puzzle.givens for v in row)


TATHAM = tatham.Codec(
    game="Loopy", program="sgt-loopy", params=_loopy_params,
    fits=lambda gid: tatham.run_cells(gid.desc, digits=True) == (_loopy_cells(gid), None),
    decode=decode_loopy, encode=encode_loopy, signs=lambda gid: "t" in gid.flags, marked=True,
    hint="write Loopy IDs with t0 ({width}x{height}t0:...)", check=_loopy_tiling)


# -- drawing and hints ---------------------------------------------------------------------------
from ... import render_svg as svg  # noqa: E402  (kept with the parts that use it)
from ...genre_options import GENERATE, Option, whole_numbers  # noqa: E402
from ...grading import StateFormat, state_lines  # noqa: E402
from ...puzzle import cell_name  # noqa: E402


def DRAW(puzzle: SlitherlinkPuzzle, solution: Solution | None, marks: svg.Marks) -> list[str]:
    """The dot lattice, clues, the loop as thick lines."""
    clues = puzzle.clues()
    out = svg.highlights(clues, marks)
    if solution is not None:
        horizontal, vertical = solution
        out += svg.edge_lines([key for key in geometry.Grid.of(puzzle.rows, puzzle.cols).edge_keys
                               if (horizontal if key[0] == "h" else vertical)[key[1]][key[2]]], marks)
    return [*out, *svg.lattice(puzzle), *svg.givens({k: str(v) for k, v in clues.items()}, svg.CELL * 0.55)]


def _read_state(puzzle: SlitherlinkPuzzle, text: str, source: str) -> dict:
    """A hint's partial state: the dot lattice as :func:`render` prints it, ``-``/``|`` on the
    loop, ``x`` crossed, blank (or ``?``) undecided."""
    rows, cols = puzzle.rows, puzzle.cols
    lines = state_lines(text)
    while lines and not lines[-1][1].strip():
        lines.pop()
    if len(lines) != 2 * rows + 1:
        raise ParseError(source, None, f"the state has {len(lines)} lines; a {rows}x{cols} lattice "
                                       f"has {2 * rows + 1} ('+' dots, '-'/'|' on, 'x' crossed, blank undecided)")
    state = {}
    for index, (n, line) in enumerate(lines):
        line = line.ljust(2 * cols + 1)
        i, horizontal = divmod(index, 2)
        positions = range(1, 2 * cols, 2) if horizontal == 0 else range(0, 2 * cols + 1, 2)
        on = "-" if horizontal == 0 else "|"
        for j, pos in enumerate(positions):
            ch = line[pos]
            key = ("edge", "h", i, j) if horizontal == 0 else ("edge", "v", i, j)
            if ch == on:
                state[key] = True
            elif ch in "xX":
                state[key] = False
            elif ch not in " ?":
                raise ParseError(source, n, f"{ch!r} is not an edge mark: use '{on}' (on the loop), "
                                            "'x' (crossed) or a blank (undecided)", pos + 1)
    return state


def _describe(puzzle: SlitherlinkPuzzle, key, value: bool) -> str:
    _, kind, i, j = key
    if kind == "h":
        where = f"top of {cell_name(i, j)}" if i < puzzle.rows else f"bottom of {cell_name(i - 1, j)}"
    else:
        where = f"left of {cell_name(i, j)}" if j < puzzle.cols else f"right of {cell_name(i, j - 1)}"
    return f"the edge at the {where} is {'on the loop' if value else 'crossed'}"


STATE = StateFormat(_read_state, _describe, lambda key, value: True,
                    "the dot lattice as 'solve' prints it: '+' dots, '-' and '|' edges on the loop, "
                    "'x' crossed, blank (or '?') undecided")


OPTIONS = (
    Option("--ratios", "Slitherlink: weights of the loop-growth rules shrink/extend/fatten "
           "[default: 33/33/34; 33/67/0 tight corridors, 33/7/60 broad loops].",
           GENERATE, whole_numbers("/", 3, "33/33/34"), "A/B/C"),
)


# -- logic rules (R. van Dam's thesis) --------------------------------------------------------
from . import logic_rules as _logic_rules, rule_solver as _rule_solver  # noqa: E402

RULES = _logic_rules.RuleBook(_logic_rules.default_path, _logic_rules.load_rules, _logic_rules.prove,
                              _rule_solver.grade, _logic_rules.counterexample_svg)


# -- golden samples -----------------------------------------------------------------------------
#: (the genre's text, the status of ``solve --unique``, the solution or None), checked against
#: brute force when written; run through every path by tests/test_genres.py.
SAMPLES = (
    ("33\n..\n", "unique", (((1, 1), (1, 1), (0, 0)), ((1, 0, 1), (0, 0, 0)))),  # round the top row
    ("..\n..\n", "multiple", None),
    ("44\n", "unsatisfiable", None),  # the middle edge would meet three edges at its dots
)


# -- repair -------------------------------------------------------------------------------------
def CANDIDATES(puzzle: SlitherlinkPuzzle, solution: Solution) -> dict[Cell, int]:
    """The numbers a repair may add: in every cell without one, how many of its sides the loop
    takes."""
    h, v = solution  # the sides of cell (r, c): h[r][c], h[r + 1][c], v[r][c], v[r][c + 1]
    return {(r, c): h[r][c] + h[r + 1][c] + v[r][c] + v[r][c + 1]
            for r, row in enumerate(puzzle.grid) for c, k in enumerate(row) if k is None}
