"""Masyu (Nikoli; Simon Tatham's Pearl; puzz.link ``mashu``).

Rules (Nikoli's rulebook, as pzprjs ``mashu`` checks them): draw one loop through the centres
of cells, by links between side-adjacent cells; it never branches or crosses itself and passes
through every pearl. On a white pearl the loop goes straight, and it turns in at least one of
the two cells before and after the pearl. On a black pearl the loop turns, and it goes straight
through both cells next to the pearl.

Encoding (:func:`rules`, on the model builder; ``encodings/masyu.md`` has the clause counts and
measurements): a variable per link, ``("line", r, c, r2, c2)`` between cells ``(r, c)`` and
``(r2, c2)`` (the primary variables). One loop: the core's :class:`~satgrid.loop.SingleLoop`
over the cells (degree 0 or 2, non-empty, connected: lazy subtour cuts or eager parent pointers),
with the enclosure cuts of :mod:`.enclosing`. A pearl is a clue, its clauses behind the selector
``("clue", r, c, kind)``, so one base encoding serves every puzzle of a size. A pearl puts the
loop through its cell, so it is a *clue anchor* of the loop rule: a sub-loop that misses an
active pearl cannot be the whole loop (stronger lazy cuts, no variable of their own).
"""
from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from typing import ClassVar, Literal

from .checker import check_masyu
from .enclosing import EnclosingLoop
from ... import links as lk
from ...encoding import Encoding
from ...errors import ParseError, SatgridError
from ...grid import Grid
from ...model import Clue, Model, made_once
from ...links import exits, link_key
from ...puzzle import GridPuzzle, Source, cell_name, clues_added, edge_grids_from_json, edge_grids_json
from ...reader import Record, number
from ...session import Session
from ... import render_svg as svg
from ...formats import puzzlekit, puzzlink, pzprv3, tatham
from ...grading import StateFormat, state_lines

NAME = "masyu"
SUMMARY = "Masyu (Pearl): one loop through every pearl; straight on white, turning on black"
EXAMPLES = "masyu.txt"
ALIASES = ("pearl", "mashu")

Pearl = Literal["w", "b"]
WHITE: Pearl = "w"
BLACK: Pearl = "b"
Cell = tuple[int, int]
Pearls = tuple[tuple[Pearl | None, ...], ...]
Links = lk.Links
#: The loop's links as :mod:`satgrid.links` lays them out (``horizontal``, ``vertical``).
Solution = lk.LinkGrids


@dataclass(frozen=True)
class MasyuPuzzle(GridPuzzle):
    """Pearls (``"w"`` white, ``"b"`` black, None none) of a ``rows`` x ``cols`` Masyu."""

    genre: ClassVar[str] = NAME


# -- parsing ------------------------------------------------------------------------------------
#: What a cell of the text format may hold: a pearl, or ``.`` / ``-`` for none (case ignored).
SYMBOLS: dict[str, Pearl | None] = {"w": WHITE, "b": BLACK, ".": None, "-": None}
_TOKEN = re.compile(r"\S+")


def _cells(text: str) -> list[tuple[str, int]]:
    """The cell tokens of a line with their 1-based columns: whitespace-separated tokens when the
    line has inner whitespace, else one cell a character."""
    if any(ch.isspace() for ch in text.strip()):
        return [(m.group(), m.start() + 1) for m in _TOKEN.finditer(text)]
    start = len(text) - len(text.lstrip())
    return [(ch, start + i + 1) for i, ch in enumerate(text.strip())]


def parse(record: Record) -> MasyuPuzzle:
    """A Masyu from rows of characters or of whitespace-separated tokens: ``w`` a white pearl,
    ``b`` a black one, ``.`` or ``-`` an empty cell (upper case too)."""
    grid: list[tuple[Pearl | None, ...]] = []
    for n, text in record.lines:
        if not text.strip():
            continue
        cells = _cells(text)
        record.check_cells(len(grid) + 1, len(cells), n)
        if grid and len(cells) != len(grid[0]):
            raise record.error(f"row has {len(cells)} cells, expected {len(grid[0])} (as in the first row)", n)
        row = []
        for token, col in cells:
            if token.lower() not in SYMBOLS:
                raise record.error(f"{token!r} is not a cell: use 'w' (white pearl), 'b' (black pearl) "
                                   "or '.' (empty)", n, col)
            row.append(SYMBOLS[token.lower()])
        grid.append(tuple(row))
    if not grid:
        raise record.error("no Masyu grid found")
    for key, size in (("rows", len(grid)), ("cols", len(grid[0]))):
        stated = record.meta.get(key)
        if stated is not None and stated.strip() != str(size):
            raise record.error(f"the header says {key}: {stated} but the grid has {size}")
    return MasyuPuzzle(tuple(grid), record.name, Source(record.source, record.line))


def parse_solution(record: Record, puzzle: MasyuPuzzle) -> Solution | None:
    """The solution in a block's ``solution:`` section, or None when the block has none: drawn
    as :func:`render` draws it (cell marks at even lines and columns: the pearl, ``+`` a loop
    cell, ``.`` a cell off the loop; ``-`` and ``|`` the links between them, blank for no link),
    or as rows of direction tokens, one a cell, as the puzzlekit dataset writes them (``ns``,
    ``ew``, ``ne``, ``nw``, ``se``, ``sw``: the directions the loop leaves by; ``-`` or ``.`` off
    the loop)."""
    if not record.solution_lines:
        return None
    given: list[tuple[int, str]] = []
    for n, text in record.solution_lines:  # readers drop blank lines: a drawing may have some
        given += [(m, "") for m in range(given[-1][0] + 1, n)] if given else []
        given.append((n, text))
    if puzzle.rows > 1 and len(given) == puzzle.rows and all(
            t in ("-", ".") or lk.is_token(t) for t in given[0][1].split()):
        return _directions(record, puzzle, given)
    height, width = 2 * puzzle.rows - 1, 2 * puzzle.cols - 1
    numbers = [n for n, _ in given]
    if len(numbers) != height:
        raise record.error(f"the solution has {len(numbers)} lines: a drawing has {height}, rows of "
                           f"direction tokens {puzzle.rows}", numbers[0])
    lines = []
    for n, text in given:
        if len(text.rstrip()) > width:
            raise record.error(f"the solution line is {len(text.rstrip())} characters wide, the drawing "
                               f"{width}", n, width + 1)
        lines.append(text.ljust(width))

    def link(i: int, j: int, on: str) -> int:
        ch = lines[i][j]
        if ch not in (on, " "):
            raise record.error(f"{ch!r} is not a link mark: use {on!r} on the loop, blank off", numbers[i], j + 1)
        return int(ch == on)

    for i in range(height):
        for j in range(width):
            ch = lines[i][j]
            if i % 2 == 0 and j % 2 == 0:
                pearl = puzzle.givens[i // 2][j // 2]
                allowed = (pearl,) if pearl else ("+", ".")
                if ch not in allowed:
                    raise record.error(f"{ch!r} is not the mark of cell {cell_name(i // 2, j // 2)}: use "
                                       + " or ".join(map(repr, allowed)), numbers[i], j + 1)
            elif i % 2 and j % 2 and ch != " ":
                raise record.error(f"{ch!r} between four cells: the drawing has a blank there", numbers[i], j + 1)
    horizontal = tuple(tuple(link(2 * r, 2 * c + 1, "-") for c in range(puzzle.cols - 1)) for r in range(puzzle.rows))
    vertical = tuple(tuple(link(2 * r + 1, 2 * c, "|") for c in range(puzzle.cols)) for r in range(puzzle.rows - 1))
    return horizontal, vertical


def _directions(record: Record, puzzle: MasyuPuzzle, lines: list[tuple[int, str]]) -> Solution:
    """A solution from rows of direction tokens (:func:`parse_solution`,
    :func:`satgrid.links.from_tokens`); each link must be named from both of its cells."""
    tokens: dict[Cell, tuple[str, int, int]] = {}
    for r, (n, text) in enumerate(lines):
        cells = _cells(text)
        if len(cells) != puzzle.cols:
            raise record.error(f"the solution row has {len(cells)} cells, the grid {puzzle.cols}", n)
        for c, (token, col) in enumerate(cells):
            if token not in ("-", ".") and not lk.is_token(token):
                raise record.error(f"{token!r} is not a direction token: use two of n, s, e, w (ns, ew, ne, "
                                   "nw, se, sw) or '-' off the loop", n, col)
            if token not in ("-", "."):
                tokens[r, c] = (token, n, col)
    return lk.from_tokens(puzzle.rows, puzzle.cols, tokens, lambda message, n, col: record.error(message, n, col))


# -- encoding -----------------------------------------------------------------------------------
def cache_key(puzzle: MasyuPuzzle) -> tuple:
    """Every Masyu of one size has the same base encoding (pearls are assumptions)."""
    return (NAME, puzzle.rows, puzzle.cols)


VERTICAL: tuple[Cell, Cell] = ((-1, 0), (1, 0))
HORIZONTAL: tuple[Cell, Cell] = ((0, -1), (0, 1))


def rules(m: Model, anchored: bool = True) -> None:
    """Masyu's rulebook, pearls as clues. A pearl's clauses speak of its legs: per step (up,
    down, left, right) the link to the neighbour and the link from there one cell further, a
    false literal past the grid's edge. An axis is the pair of legs up/down or left/right.

    * white: straight through, ``U <-> D``, ``L <-> R``, ``U | L``, ``not (U & L)``; and a turn
      next to it, ``not (L & R & LL & RR)`` per axis;
    * black: a turn, exactly one leg of each axis; straight on, ``L -> LL`` per leg.

    Both put the loop through the pearl's cell (two links there), so the pearl anchors the
    loop's cuts (``anchored=False`` leaves that out, for measurements). Stated with equivalences
    rather than as "no turn" alone, so that unit propagation follows a pearl along its axes.
    """
    line = m.links("line")
    loop = m.rule(EnclosingLoop("one loop", dict(line), m.pool, grid=m.grid))
    false = -m.true()

    def link(p: Cell, q: Cell) -> int:
        return line[(p, q) if p < q else (q, p)] if q in m.grid else false

    @m.clue
    def pearl(c: Clue, cell: Cell, kind: object) -> None:
        (row, col) = cell
        leg = {(dr, dc): (link(cell, (row + dr, col + dc)),
                          link((row + dr, col + dc), (row + 2 * dr, col + 2 * dc)) if (row + dr, col + dc) in m.grid else false)
               for dr, dc in VERTICAL + HORIZONTAL}
        (u, uu), (d, dd), (lt, ll), (rt, rr) = leg.values()
        if anchored:
            c.anchor(loop, [cell])
        if kind == WHITE:
            c.require([[-u, d], [-d, u], [-lt, rt], [-rt, lt], [u, lt], [-u, -lt]])  # straight through
            c.require([[-u, -d, -uu, -dd], [-lt, -rt, -ll, -rr]])  # and a turn next to it
        elif kind == BLACK:
            c.require([[u, d], [-u, -d], [lt, rt], [-lt, -rt]])  # a turn
            c.require([-x, xx] for x, xx in leg.values())  # straight on in both next cells
        else:
            raise ValueError(f"a pearl is 'w' or 'b', not {kind!r}")


def build(rows: int, cols: int, anchored: bool = True) -> Encoding:
    """The base encoding of every ``rows`` x ``cols`` Masyu (:func:`rules` on the builder), made
    anew: link variables 1..n in :meth:`~satgrid.grid.Grid.adjacent_pairs` order (the loop rule
    walks a model's first n entries), pearls behind their selectors."""
    m = Model(Grid.of(rows, cols))
    rules(m, anchored)
    return m.build()


@made_once(maxsize=16)
def _base(rows: int, cols: int) -> Encoding:
    """The base encoding of a size, made once (:func:`~satgrid.model.made_once`)."""
    return build(rows, cols)


def encode(puzzle: MasyuPuzzle) -> Encoding:
    """A copy of the base encoding of the puzzle's size, made once per size; copies draw pearl
    selectors from pools of their own."""
    return _base(puzzle.rows, puzzle.cols)


def decode(puzzle: MasyuPuzzle, encoding: Encoding, value) -> Solution:
    return lk.read_links(encoding, "line", value, puzzle.rows, puzzle.cols)


def check(puzzle: MasyuPuzzle, solution: Solution) -> list[str]:
    return check_masyu(puzzle.givens, *solution)


def blank(rows: int, cols: int) -> MasyuPuzzle:
    """The puzzle of a size without pearls (the generic generator's ``BLANK``)."""
    return MasyuPuzzle(tuple((None,) * cols for _ in range(rows)))


def read_pearls(puzzle: MasyuPuzzle, solution: Solution) -> MasyuPuzzle:
    """``puzzle`` with a pearl wherever the loop obeys a pearl's rule (the generic generator's
    ``READ_CLUES``): white where it goes straight and turns next door, black where it turns and
    goes straight on in both next cells."""
    out = exits(solution)

    def straight(p: Cell) -> bool:
        (a, b), (c, d) = out[p]
        return a + c == 0 and b + d == 0

    pearls: dict[Cell, Pearl] = {}
    for (r, c), steps in out.items():
        nexts = [straight((r + dr, c + dc)) for dr, dc in steps]
        if straight((r, c)) and not all(nexts):
            pearls[r, c] = WHITE
        elif not straight((r, c)) and all(nexts):
            pearls[r, c] = BLACK
    return puzzle.with_clues(pearls)


#: Draws of :func:`sample` before it gives up (a draw fails when its spread cells admit no loop).
SAMPLE_DRAWS = 20


def sample(rows: int, cols: int, rng: random.Random) -> MasyuPuzzle:
    """A random loop on which every cell can hold a pearl, with every pearl (the generic
    generator's ``SAMPLE``).

    Random loops of the clue-less rules are small, and their full pearl sets rarely make them
    unique: a loop cell where no pearl fits (a turn next to a turn, a straight between
    straights) leaves stretches that can move. Simon Tatham's Pearl biases its loop generator
    towards cells that take pearls (pearl.c, ``pearl_loopgen_bias``); this sampler asks for that
    of every loop cell: each loop cell's links switch on the white or the black pearl's rules
    there (the pearls' own clauses, behind their selectors). A few cells spread over the grid
    (a k x k pattern of blocks, one cell each) must be on the loop, so it spans the grid; the
    links start from random phases. Measured in encodings/masyu.md.

    A grid of one row or column holds no loop: too small. In a grid 2 cells wide every loop turns
    in a cell beside the edge it runs along, where no pearl fits (a black pearl needs two
    straight cells beyond its turn, a white one goes straight): this sampler, which puts a pearl
    on every loop cell, needs at least 3x3 (a 2x2 grid's one puzzle has no pearl at all).
    """
    if min(rows, cols) < 2:
        raise SatgridError(f"a {rows}x{cols} Masyu is too small: no loop fits")
    if min(rows, cols) < 3:
        raise SatgridError(f"a {rows}x{cols} grid is too small for the Masyu generator, which needs at "
                           "least 3x3 (it puts a pearl on every loop cell, and a loop 2 cells wide turns "
                           "where none fits)")
    puzzle = blank(rows, cols)
    grid = Grid.of(rows, cols)
    k = min(2 if max(rows, cols) <= 10 else 3, rows, cols)  # k x k blocks, one loop cell each
    for _ in range(SAMPLE_DRAWS):
        encoding = encode(puzzle)
        session = Session(encoding)
        try:
            links = encoding.layers["line"]
            at: dict[Cell, list[int]] = {p: [] for p in grid.cells}
            for (p, q), lit in links.items():
                at[p].append(lit)
                at[q].append(lit)
            session.add([[-lit, session.selector(p, WHITE), session.selector(p, BLACK)]
                         for p, lits in at.items() for lit in lits])
            spread = [(rng.randrange(rows * i // k, rows * (i + 1) // k), rng.randrange(cols * j // k, cols * (j + 1) // k))
                      for i in range(k) for j in range(k)]
            session.add([at[p] for p in spread])
            session.prefer([lit if rng.random() < 0.5 else -lit for lit in links.values()])
            outcome = session.solve()
            if outcome.status == "sat":
                return read_pearls(puzzle, decode(puzzle, encoding, outcome.assignment))
        finally:
            session.close()
    raise SatgridError(f"no {rows}x{cols} loop with a pearl on every cell through {SAMPLE_DRAWS} random sets of cells")


BLANK = blank
READ_CLUES = read_pearls
SAMPLE = sample


# -- output -------------------------------------------------------------------------------------
def render(puzzle: MasyuPuzzle, solution: Solution | None = None) -> str:
    """The pearl rows (``w``, ``b``, ``.``) without a solution; with one, the loop drawn through
    the cell centres: each cell's mark (its pearl, ``+`` on the loop, ``.`` off it) with ``-``
    and ``|`` links between marks."""
    if solution is None:
        return "\n".join("".join(k or "." for k in row) for row in puzzle.givens)
    horizontal, vertical = solution
    on_loop = exits(solution)
    lines = []
    for r, row in enumerate(puzzle.givens):
        marks = [k or ("+" if (r, c) in on_loop else ".") for c, k in enumerate(row)]
        links = ["-" if x else " " for x in horizontal[r]] + [""]
        lines.append("".join(m + x for m, x in zip(marks, links)).rstrip())
        if r < puzzle.rows - 1:
            lines.append(" ".join("|" if x else " " for x in vertical[r]).rstrip())
    return "\n".join(lines)


def puzzle_json(puzzle: MasyuPuzzle) -> list[str]:
    """The pearls as strings, one per row, ``.`` = no pearl (the text input format)."""
    return ["".join(k or "." for k in row) for row in puzzle.givens]


def differences(puzzle: MasyuPuzzle, a: Solution, b: Solution) -> list[Cell]:
    """The cells the two loops pass differently (a link at them is on one loop only)."""
    return sorted(lk.differences(a, b))


def puzzle_from_json(record: Record, value: object) -> MasyuPuzzle:
    """The inverse of :func:`puzzle_json`: rows of pearl characters, parsed as text rows, so
    every check of :func:`parse` applies."""
    if not isinstance(value, list) or not value or not all(isinstance(row, str) and row.strip()
                                                           and not any(ch.isspace() for ch in row)
                                                           for row in value):
        raise record.error("not a list of pearl rows (strings such as '.w..b')")
    return parse(record.part(record.line, [(record.line, row) for row in value], record.name))


solution_json = edge_grids_json


def solution_from_json(puzzle: MasyuPuzzle, value: object) -> Solution:
    """The inverse of :func:`~satgrid.puzzle.edge_grids_json`; ValueError unless both link grids
    fit the puzzle."""
    rows, cols = puzzle.rows, puzzle.cols
    return edge_grids_from_json(value, (rows, cols - 1), (rows - 1, cols), "links")


def estimate(rows: int, cols: int, connectivity: str = "lazy") -> tuple[int, int]:
    """(variables, clauses) expected of the encoding of a rows x cols grid: one variable per link,
    at most 8 degree clauses a cell and 7 clauses a pearl (every cell a pearl at worst); the eager
    loop rule adds parent pointers and ranks, whose clauses per cell grow with the rank's bits
    (log2 of the cells). The figures behind the constants are in encodings/masyu.md."""
    cells = rows * cols
    if connectivity != "eager":
        return 2 * cells, 15 * cells + 1
    bits = math.log2(max(cells, 2))
    return int(cells * (3 + 5.3 * bits)), int(cells * (26 + 13.1 * bits))


# -- formats ------------------------------------------------------------------------------------
#: pzprjs's ``Cell.qnum`` of a pearl (``mashu``): 1 white, 2 black (its ``uramashu`` swaps them).
QNUM: dict[Pearl, int] = {WHITE: 1, BLACK: 2}
PEARL_OF: dict[int, Pearl] = {v: k for k, v in QNUM.items()}


def _qnums(puzzle: MasyuPuzzle) -> list[list[int | None]]:
    return [[QNUM[k] if k else None for k in row] for row in puzzle.givens]


def _from_url(cells: puzzlink.Cells) -> MasyuPuzzle:
    return MasyuPuzzle(tuple(tuple(PEARL_OF.get(v) for v in row) for row in cells.values), "", cells.source)  # type: ignore[arg-type]


#: puz.link ``mashu`` (``masyu`` read too): pzprjs's ``decodeCircle``, three cells a base-27 digit.
PUZZLINK = puzzlink.Codec(pids=("mashu", "masyu"), body=puzzlink.CIRCLES, read=_from_url, write=_qnums)


def _from_pzprv3(grids: pzprv3.Grids) -> tuple[MasyuPuzzle, Solution | None]:
    """The pearl grid, then (the answer) the links across the borders between cells."""
    for r, row in enumerate(grids["pearl grid"]):
        for c, v in enumerate(row):
            if v == "?":
                raise grids.error("pearl grid", r, c, "a '?' pearl: satgrid's Masyu has white (1) and black (2) pearls")
    puzzle = MasyuPuzzle(tuple(tuple(PEARL_OF.get(v) for v in row) for row in grids["pearl grid"]), "", grids.source)
    if "horizontal links" not in grids:
        return puzzle, None
    horizontal, vertical = (tuple(map(tuple, grids[name])) for name in ("horizontal links", "vertical links"))
    return puzzle, (horizontal, vertical) if any(map(any, horizontal + vertical)) else None


def _to_pzprv3(puzzle: MasyuPuzzle, solution: Solution | None) -> dict[str, object]:
    rows, cols = puzzle.rows, puzzle.cols
    horizontal, vertical = solution if solution is not None else lk.empty(rows, cols)
    return {"pearl grid": _qnums(puzzle), "horizontal links": horizontal, "vertical links": vertical}


#: pzprjs's ``mashu`` file: ``decodeCellQnum`` (1 white, 2 black), then ``decodeBorderLine`` on
#: the borders between cells: a link crosses the border between its two cells.
PZPRV3 = pzprv3.Codec(
    pids=("mashu",),
    sections=(pzprv3.Section("pearl grid", pzprv3.clues(1, 2)),
              pzprv3.Section("horizontal links", pzprv3.EDGES, (0, -1), answer=True),
              pzprv3.Section("vertical links", pzprv3.EDGES, (-1, 0), answer=True)),
    read=_from_pzprv3, write=_to_pzprv3)

#: Pearl's params: ``WxH``, then ``d<difficulty>`` and ``n`` (pearl.c ``decode_params``). Pearl
#: also reads ``W`` alone as ``WxW``, but always writes ``WxH``; only that form is taken as
#: Pearl's, so a bare ``6#seed`` stays Solo's.
_PEARL_PARAMS = re.compile(r"^(d[a-z])?n?$")


def _pearl_cells(desc: str) -> tuple[int, int | None]:
    """Cells a Pearl description describes, and the index of its first foreign character."""
    count = 0
    for i, ch in enumerate(desc):
        if "a" <= ch <= "z":
            count += ord(ch) - ord("a") + 1
        elif ch in "BW":
            count += 1
        else:
            return count, i
    return count, None


def _pearl_size(gid: tatham.GameId) -> tuple[int, int]:
    return number(gid.height or gid.width) or 0, number(gid.width) or 0


def decode_pearl(gid: tatham.GameId) -> MasyuPuzzle:
    """A Masyu from a Pearl game ID ``WxH:DESC`` (pearl.c ``new_game_desc``): cells row by row,
    ``W`` a white pearl (the loop goes straight), ``B`` a black one (a corner), ``a``-``z`` a run
    of 1-26 cells without one."""
    rows, cols = _pearl_size(gid)
    if not (1 <= rows <= tatham.MAX_SIZE and 1 <= cols <= tatham.MAX_SIZE):
        raise gid.error(f"a {gid.width}x{gid.height or gid.width} (width x height) Pearl grid is out of range "
                        f"1..{tatham.MAX_SIZE}", gid.lead + 1)
    cells: list[Pearl | None] = []
    for i, ch in enumerate(gid.desc):
        if ch not in "BW" and not "a" <= ch <= "z":
            raise gid.error(f"bad character {ch!r} in a Pearl description (B, W, a-z)", gid.column(5, i))
        cells += [None] * (ord(ch) - ord("a") + 1) if "a" <= ch <= "z" else [SYMBOLS[ch.lower()]]
        if len(cells) > rows * cols:
            raise gid.error(f"the description goes past the {rows * cols} cells of a {cols}x{rows} grid",
                            gid.column(5, i))
    if len(cells) != rows * cols:
        raise gid.error(f"the description has {len(cells)} cells, a {cols}x{rows} grid has {rows * cols}",
                        gid.column(5, len(gid.desc)))
    givens = tuple(tuple(cells[r * cols:(r + 1) * cols]) for r in range(rows))
    return MasyuPuzzle(givens, "", Source(gid.source, gid.line))  # type: ignore[arg-type]


def encode_pearl(puzzle: MasyuPuzzle) -> str:
    """The Pearl game ID: runs of up to 26 cells without a pearl as ``a``-``z``, pearls ``W``/``B``."""
    out, run = [], 0
    for k in [*(k for row in puzzle.givens for k in row), "end"]:
        if k is None:
            run += 1
            continue
        while run:
            out.append(chr(ord("a") + min(run, 26) - 1))
            run -= min(run, 26)
        if k != "end":
            out.append(k.upper())
    return f"{puzzle.cols}x{puzzle.rows}:" + "".join(out)


#: Simon Tatham's Pearl: its descriptions hold ``B`` and ``W`` and never a digit (Light Up writes
#: ``B`` beside its numbers).
TATHAM = tatham.Codec(
    game="Pearl", program="sgt-pearl",
    params=lambda gid: gid.height is not None and _PEARL_PARAMS.match(gid.flags) is not None,
    fits=lambda gid: _pearl_cells(gid.desc) == (_pearl_size(gid)[0] * _pearl_size(gid)[1], None),
    decode=decode_pearl, encode=encode_pearl, signs=lambda gid: any(ch in "BW" for ch in gid.desc)
    and not any(ch.isdigit() for ch in gid.desc))


# -- the puzzlekit dataset ----------------------------------------------------------------------
def _puzzlekit_rows(puzzle: MasyuPuzzle, solution: Solution | None) -> tuple[list[list[str]], list[list[str]] | None]:
    """The dataset's tokens: ``w``, ``b`` or ``-``; a loop cell's two directions, ``-`` off it."""
    problem = [[k or "-" for k in row] for row in puzzle.givens]
    if solution is None:
        return problem, None
    out = exits(solution)
    answer = [[lk.token(out.get((r, c), ())) or "-" for c in range(puzzle.cols)] for r in range(puzzle.rows)]
    return problem, answer


#: The puzzlekit dataset's Masyu grids (``assets/data/Masyu``): pearls ``w``/``b`` (some puzzles
#: write pzprjs's ``1``/``2``), ``-`` empty; solutions in direction tokens, which
#: :func:`parse_solution` reads.
PUZZLEKIT = puzzlekit.Codec(
    "Masyu",
    problem=puzzlekit.Tokens({"-": ".", "1": "w", "2": "b"}),
    solution=puzzlekit.Tokens(),
    solver="masyu",
    write=_puzzlekit_rows,
)


# -- drawing ------------------------------------------------------------------------------------
def DRAW(puzzle: MasyuPuzzle, solution: Solution | None, marks: svg.Marks) -> list[str]:
    """The grid, the loop through the cell centres, pearls as white and black circles."""
    pearls = puzzle.clues()
    out = svg.cells(puzzle, marks, pearls)
    if solution is not None:
        out += svg.centre_lines(lk.pairs(solution), marks)
    return [*out, *svg.border(puzzle), *svg.circles({p: "white" if k == WHITE else "black" for p, k in pearls.items()})]


# -- hint state ---------------------------------------------------------------------------------
def read_state(puzzle: MasyuPuzzle, text: str, source: str) -> dict[tuple, bool]:
    """A hint's partial solution, laid out as :func:`render` draws a solution: ``-`` and ``|``
    links on the loop, ``x`` links crossed out, blank (or ``?``) undecided; cell marks (pearls,
    ``+``, ``.``) are not read. ParseError with the line and column of a bad mark."""
    lines = state_lines(text)
    while lines and not lines[-1][1].strip():
        lines.pop()
    height, width = 2 * puzzle.rows - 1, 2 * puzzle.cols - 1
    if len(lines) != height:
        raise ParseError(source, None, f"the state has {len(lines)} lines; a {puzzle.rows}x{puzzle.cols} "
                                       f"drawing has {height} (cells, then links: '-'/'|' on, 'x' crossed)")
    state: dict[tuple, bool] = {}
    for i, (n, line) in enumerate(lines):
        if len(line.rstrip()) > width:
            raise ParseError(source, n, f"the line is {len(line.rstrip())} characters wide, the drawing {width}",
                             width + 1)
        for j, ch in enumerate(line.ljust(width)):
            r, c = i // 2, j // 2
            if i % 2 == 0 and j % 2 == 0:
                if ch not in " ?+.wbWB":
                    raise ParseError(source, n, f"{ch!r} is not a cell mark: a pearl, '+', '.' or blank", j + 1)
                continue
            if i % 2 == 1 and j % 2 == 1:
                if ch not in " ?":
                    raise ParseError(source, n, f"{ch!r} between four cells: leave it blank", j + 1)
                continue
            on, key = ("-", link_key((r, c), (r, c + 1))) if i % 2 == 0 else ("|", link_key((r, c), (r + 1, c)))
            if ch == on:
                state[key] = True
            elif ch in "xX":
                state[key] = False
            elif ch not in " ?":
                raise ParseError(source, n, f"{ch!r} is not a link mark: use {on!r} (on the loop), 'x' (crossed) "
                                            "or blank (undecided)", j + 1)
    return state


def describe_link(puzzle: MasyuPuzzle, key: tuple, value: bool) -> str:
    """One link's value in words: ``the link r1c2-r1c3 is on the loop`` (or ``crossed out``)."""
    return lk.describe(key, value)


STATE = StateFormat(read_state, describe_link, lambda key, value: True,
                    "the drawing 'solve' prints: cells (pearls, '+', '.'), '-' and '|' links on the loop, "
                    "'x' crossed out, blank (or '?') undecided", clue="pearl")


# -- golden samples -----------------------------------------------------------------------------
#: (the genre's text, the status of ``solve --unique``, the solution or None), checked against
#: brute force when written; run through every path by tests/test_genres.py.
SAMPLES = (
    ("b . .\n. . w\n. . .\n", "unique", (((1, 1), (0, 0), (1, 1)), ((1, 0, 1), (1, 0, 1)))),
    ("b . .\n. . .\n. . .\n", "multiple", None),  # round the border, or in through the centre
    ("b . .\n. . .\n. . w\n", "unsatisfiable", None),  # a white pearl in a corner cannot go straight
)


# -- repair -------------------------------------------------------------------------------------
#: The pearls a repair may add: wherever the loop obeys a pearl's rule (:func:`read_pearls`).
CANDIDATES = clues_added(read_pearls)
#: A pearl in words.
CLUE_WORDS = {WHITE: "a white pearl", BLACK: "a black pearl"}.__getitem__
