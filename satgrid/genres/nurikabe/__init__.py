"""Nurikabe: shade cells so that the white islands match their numbers and the black wall is one.

Rules (R. Hui, J wiki essay "Essays/Nurikabe"): cells are black or white; numbered cells are
white. Each white region ("island") is 4-connected, holds exactly one number and has exactly that
many cells; a ``?`` number is an island of unknown size. All black cells form one 4-connected
region. No 2x2 block is all black.

Encoding (details, proofs and measurements in ``encodings/nurikabe.md``):

* ``("black", r, c)`` per cell: the primary variables.
* Island identity: every cell carries a binary island number (``("island", r, c, bit)``, one bit
  per power of two up to the count of numbered cells); numbered cell i holds number i, and two
  white neighbours hold equal numbers. A white region therefore holds at most one numbered cell.
* Every white region reaches a numbered cell: one anchored connected-subgraph rule over the white
  cells, whose anchor is a virtual node linked to every numbered cell (lazy cut: "a clue-free
  white region grows or shrinks"; eager: parent pointers and ranks).
* All black cells are connected: the core's connected-subgraph rule over the black literals.
* Sizes: label ``("label", i, r, c)`` = "this cell is white and in island i", only on the cells
  clue i can reach within its size (BFS distance < n through cells that touch no other number).
  Labels spread to white neighbours inside the reach; clue i's switch asserts that no labelled
  cell has a white neighbour outside the reach and that exactly n cells are labelled.
* Redundant strengthening, behind the literal ``all`` (= every numbered clue switched on): a white
  cell carries a label of some clue that reaches it (so cells no clue reaches are black).

Clue switches: a number in Nurikabe cannot vanish (its cell stays an island seed), so switching a
clue "off" turns it into ``?``: the island keeps its cell and its identity, only its size (and the
reach that follows from the size) is dropped. This is an exact relaxation: the audit's "redundant"
means "the puzzle with this number replaced by ``?`` still has one solution". ``?`` numbers of the
puzzle itself are not clues in this sense (``clues()`` lists sized numbers only).
"""
from __future__ import annotations

import math
import re
from collections import deque
from dataclasses import dataclass, field
from typing import ClassVar, Iterable, Union

from ... import grid as geometry
from .checker import check_nurikabe
from ...cnf import Clause, VarPool, exactly
from ...connectivity import ConnectedSubgraph, Keep, holds
from ...encoding import ClueEncoding, Encoding
from ...errors import SatgridError
from ...puzzle import GivenSolution, Source, cell_name
from ...reader import Record, number, split_on_blank_lines
from ...formats import puzzlink, pzprv3

NAME = "nurikabe"
SUMMARY = "Nurikabe: numbered white islands of their size, one connected black wall, no 2x2 black"
EXAMPLES = "nurikabe.txt"

UNKNOWN = "?"
#: Islands up to this size anchor the black wall's cuts (see encode).
SMALL_ISLAND = 4
Cell = tuple[int, int]
Number = Union[int, str]  # a size, or "?"
Grid = tuple[tuple[Union[Number, None], ...], ...]
Solution = tuple[str, ...]


@dataclass(frozen=True)
class NurikabePuzzle:
    """Numbers of a Nurikabe grid: an int size, ``"?"`` (size unknown) or None (empty cell)."""

    grid: Grid
    name: str = ""
    source: Source = Source()
    #: The solution written in the input, if any (set by ``api.load``; not part of equality).
    given_solution: GivenSolution | None = field(default=None, compare=False, repr=False)
    genre: ClassVar[str] = NAME

    @property
    def rows(self) -> int:
        return len(self.grid)

    @property
    def cols(self) -> int:
        return len(self.grid[0]) if self.grid else 0

    def numbers(self) -> dict[Cell, Number]:
        """Every numbered cell, ``?`` included, in reading order."""
        return {(r, c): v for r, row in enumerate(self.grid) for c, v in enumerate(row) if v is not None}

    def clues(self) -> dict[Cell, int]:
        """The sized numbers: the clues that queries switch on and off."""
        return {p: v for p, v in self.numbers().items() if v != UNKNOWN}

    def with_clues(self, clues: dict[Cell, int]) -> "NurikabePuzzle":
        """This puzzle keeping the sizes in ``clues``; every other number becomes ``?``."""
        grid = tuple(
            tuple(None if v is None else clues.get((r, c), UNKNOWN) for c, v in enumerate(row))
            for r, row in enumerate(self.grid)
        )
        return NurikabePuzzle(grid, self.name, self.source)


# -- parsing ------------------------------------------------------------------------------------
_TOKEN = re.compile(r"\S+")
_EMPTY = {".", "0", "_", "-"}


def split(record: Record) -> list[Record]:
    """One record per grid: a ``puzzle ... end`` block, or grids separated by blank lines."""
    if record.name:
        return [record]
    groups = split_on_blank_lines(record.lines)
    return [record.part(lines[0][0], lines, str(i) if len(groups) > 1 else "")
            for i, lines in enumerate(groups, 1)]


def parse(record: Record) -> NurikabePuzzle:
    """Rows of whitespace-separated tokens: ``.`` or ``0`` empty, a positive size, ``?``."""
    rows = []
    for n, t in record.lines:
        tokens = [(m.group(), m.start() + 1) for m in _TOKEN.finditer(t)]
        if tokens:
            rows.append((n, tokens))
            record.check_cells(len(rows), len(rows[0][1]), n)
    if not rows:
        raise record.error("no Nurikabe grid found")
    width = len(rows[0][1])
    for line, tokens in rows:
        if len(tokens) != width:
            raise record.error(
                f"row has {len(tokens)} cells, the first row has {width} (rows must be equally long)", line
            )
    height = len(rows)
    for key, actual in (("rows", height), ("cols", width)):
        if key in record.meta:
            declared = record.meta[key]
            if number(declared) != actual:
                raise record.error(f"header says {key}: {declared}, the grid has {actual}")
    area = height * width
    grid = []
    for line, tokens in rows:
        cells: list[Number | None] = []
        for tok, col in tokens:
            if tok in _EMPTY:
                cells.append(None)
            elif tok == UNKNOWN:
                cells.append(UNKNOWN)
            elif (value := number(tok)) is not None:
                if value == 0:
                    raise record.error(f"number {tok} is no island size ('.' or '0' is an empty cell)", line, col)
                if value > area:
                    raise record.error(
                        f"number {tok} is bigger than the {height}x{width} grid ({area} cells)", line, col
                    )
                cells.append(value)
            else:
                raise record.error(
                    f"token {tok!r} is not a number, '?' or an empty cell ('.' or '0')", line, col
                )
        grid.append(tuple(cells))
    return NurikabePuzzle(tuple(grid), record.name, Source(record.source, record.line))


def parse_solution(record: Record, puzzle: NurikabePuzzle) -> Solution | None:
    """The solution in a block's ``solution:`` section (None when it has none): rows of ``#``
    (black) and ``.`` or ``+`` (white), one character a cell, or whitespace-separated tokens as
    :func:`render` prints them, where a numbered cell shows its number (or ``?``)."""
    lines = [(n, t) for n, t in record.solution_lines if t.strip()]
    if not lines:
        return None
    if len(lines) != puzzle.rows:
        raise record.error(f"the solution has {len(lines)} rows, the grid {puzzle.rows}", lines[0][0])
    numbers = puzzle.numbers()
    rows = []
    for r, (line, text) in enumerate(lines):
        if len(text.split()) > 1:
            tokens = [(m.group(), m.start() + 1) for m in _TOKEN.finditer(text)]
        else:
            tokens = [(ch, i + 1) for i, ch in enumerate(text) if not ch.isspace()]
        if len(tokens) != puzzle.cols:
            raise record.error(f"solution row has {len(tokens)} cells, the grid {puzzle.cols}", line)
        row = []
        for c, (tok, col) in enumerate(tokens):
            if tok == "#":
                row.append("#")
            elif tok in (".", "+"):
                row.append(".")
            elif tok == str(numbers.get((r, c))):
                row.append(".")
            else:
                raise record.error(f"{tok!r} is not a solution cell for {cell_name(r, c)}: use '#' "
                                   "(black), '.' (white) or the cell's number", line, col)
        rows.append("".join(row))
    return tuple(rows)


# -- geometry -----------------------------------------------------------------------------------
# Cells are numbered in reading order (index r * cols + c) inside the encoder: lists indexed by
# cell beat dicts and sets of tuples (n7's encoding is built in a few milliseconds). The tables
# (cells, neighbour indices, links) come from the shared :class:`~satgrid.grid.Grid` of the size.
def _touching(numbers: Iterable[int], near, size: int) -> list[list[int]]:
    """For each cell index, the numbered cells it is or touches."""
    touch: list[list[int]] = [[] for _ in range(size)]
    for p in numbers:
        touch[p].append(p)
        for q in near[p]:
            touch[q].append(p)
    return touch


def _reach(start: int, size: int | None, near, touch: list[list[int]]) -> dict[int, int]:
    """:func:`reach` on cell indices (``touch`` from :func:`_touching`)."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        p = queue.popleft()
        d = dist[p]
        if size is not None and d >= size - 1:
            continue
        for q in near[p]:
            if q not in dist and all(t == start for t in touch[q]):
                dist[q] = d + 1
                queue.append(q)
    return dist


def reach(puzzle: NurikabePuzzle, clue: Cell, size: int | None) -> dict[Cell, int]:
    """Cells island ``clue`` can cover, with their BFS distance: paths of fewer than ``size``
    steps (any length for None) through cells that neither hold nor touch another number.

    Proof: an island is connected, so each of its cells lies at distance < size from its number
    along island cells; a cell touching another number is white only inside that number's island.
    """
    rows, cols = puzzle.rows, puzzle.cols
    grid = geometry.Grid.of(rows, cols)
    cells, near = grid.cells, grid.near
    touch = _touching((r * cols + c for r, c in puzzle.numbers()), near, len(cells))
    dist = _reach(clue[0] * cols + clue[1], size, near, touch)
    return {cells[q]: d for q, d in dist.items()}


def forced_black(puzzle: NurikabePuzzle) -> set[Cell]:
    """Cells touching two different numbers: white, they would join two islands."""
    touching: dict[Cell, int] = {}
    numbers = puzzle.numbers()
    grid = geometry.Grid.of(puzzle.rows, puzzle.cols)
    for p in numbers:
        for q in grid.neighbours(p):
            if q not in numbers:
                touching[q] = touching.get(q, 0) + 1
    return {q for q, k in touching.items() if k >= 2}


# -- encoding -----------------------------------------------------------------------------------
def cache_key(puzzle: NurikabePuzzle) -> tuple:
    """The grid itself: the encoding depends on where the numbers are and on their sizes (the
    reach), so only puzzles with the same grid share one (a later audit reuses the solve's cuts)."""
    return (NAME, puzzle.grid)


@dataclass(frozen=True)
class Variant:
    """Encoding choices, measured in ``bench/bench_nurikabe.py`` (defaults = the fastest).

    ``islands``: how a switched-on island stays connected inside its reach: ``"local"`` (every
    labelled cell but the number has a labelled neighbour; the lazy region cuts do the rest) or
    ``"eager"`` (the core's parent-pointer lowering per island, bounded by its size).
    ``black_degree``: with every clue on and no ``?``, a black cell has a black neighbour.
    """

    eager_from: int = 10**9
    black_degree: bool = True


class Islands:
    """Global rule: every white region holds exactly one numbered cell.

    Lazy cuts (both hold in every solution, whatever clues are switched on):
    a white region without a number grows or loses a cell (``t_S -> some white cell next to S``);
    a white region with two numbers is cut along a shortest path between them inside the region
    (some cell of the path is black). Eager lowering: every white cell reaches a number (the core's
    anchored connected-subgraph rule over a virtual node linked to all numbers) and carries a
    binary island number, equal across white neighbours and fixed on each numbered cell.

    ``black``: the cells that can be white (node i of the white region is the i-th key);
    ``labels``: ``{(number, cell): literal}``; ``selectors``: ``{number: selector}`` of the sized
    numbers.
    """

    name = "islands"

    def __init__(self, black: dict[Cell, int], numbers: list[Cell], links: list[tuple[Cell, Cell]],
                 labels: dict[tuple[Cell, Cell], int], selectors: dict[Cell, int]):
        self.black, self.numbers, self.links = black, numbers, links
        self.labels, self.selectors = labels, selectors
        self.region = ConnectedSubgraph("white", {p: -x for p, x in black.items()},
                                        [(p, q, None) for p, q in links])
        # Index arrays over the white region's nodes (the cuts run once per CEGAR iteration).
        index = {p: j for j, p in enumerate(black)}
        self._black = list(black.values())
        self._adjacent: list[list[int]] = [[] for _ in self._black]
        for p, q in links:
            self._adjacent[index[p]].append(index[q])
            self._adjacent[index[q]].append(index[p])
        self._numbered = [False] * len(self._black)
        for p in numbers:
            self._numbered[index[p]] = True
        #: Per sized number: its selector and its labels by node index; per node: the sized
        #: numbers labelling it.
        self._clues: list[tuple[int, dict[int, int]]] = []
        self._labels_at: list[list[tuple[int, int]]] = [[] for _ in self._black]
        ids = {i: k for k, i in enumerate(selectors)}
        self._clues = [(sel, {}) for sel in selectors.values()]
        for (i, q), lit in labels.items():
            k = ids.get(i)
            if k is not None and q in index:
                self._clues[k][1][index[q]] = lit
                self._labels_at[index[q]].append((k, lit))

    def clauses(self, pool: VarPool) -> list[Clause]:
        return []

    def cuts(self, value, pool: VarPool, keep: Keep | None = None) -> list[list[Clause]]:
        """Cuts for white regions without a number (grow out, or a labelled path out) and for
        regions with two numbers (a cell of the path between them is black). ``keep``: see
        :data:`satgrid.connectivity.Keep` (asked of the built cuts; they are few)."""
        cuts = []
        numbered = self._numbered
        for region in self.region.component_indices(value):
            numbers = [j for j in region if numbered[j]]
            if not numbers:
                inside = set(region)
                cuts.append(self._grow(region, inside, pool))
                cuts += self._reconnect(region, inside, value, pool)
            elif len(numbers) > 1:
                cuts.append([[self._black[j] for j in self._path(set(region), numbers[0])]])
        return cuts if keep is None else [cut for cut in cuts if keep(cut[-1])]

    def _grow(self, region: list[int], inside: set[int], pool: VarPool) -> list[Clause]:
        black, adjacent, t = self._black, self._adjacent, pool.fresh("cut")
        border = {q for p in region for q in adjacent[p] if q not in inside}
        return [*([black[p], t] for p in region), [-t, *sorted(-black[q] for q in border)]]

    def _reconnect(self, region: list[int], inside: set[int], value, pool: VarPool) -> list[list[Clause]]:
        """For each switched-on clue i labelling ``region``: island i is connected and holds its
        number, so a labelled cell of ``region`` has a labelled path out of it. The cut depends on
        clue i, so it carries i's selector (sound for every later query)."""
        seen = [(k, lit) for p in region for k, lit in self._labels_at[p]]
        if not seen:
            return []
        truth = holds(value, [x for pair in seen for x in (pair[1], self._clues[pair[0]][0])])
        on = {k for j, (k, _) in enumerate(seen) if truth[2 * j] and truth[2 * j + 1]}
        cuts = []
        for k in sorted(on):
            selector, labels = self._clues[k]
            t = pool.fresh("cut")
            labelled = [labels[p] for p in region if p in labels]
            border = {labels[q] for p in region for q in self._adjacent[p] if q not in inside and q in labels}
            cuts.append([*([-x, t] for x in labelled), [-selector, -t, *sorted(border)]])
        return cuts

    def _path(self, region: set[int], start: int) -> list[int]:
        """The unnumbered cells of a shortest path inside ``region`` from ``start`` to another
        number."""
        parent: dict[int, int | None] = {start: None}
        queue = deque([start])
        while queue:
            p = queue.popleft()
            for q in self._adjacent[p]:
                if q in region and q not in parent:
                    parent[q] = p
                    if self._numbered[q]:
                        path, at = [], parent[q]
                        while at is not None and at != start:
                            path.append(at)
                            at = parent[at]
                        return path
                    queue.append(q)
        raise AssertionError("a region with two numbers connects them")

    def eager_clauses(self, pool: VarPool) -> list[Clause]:
        black, root, true = self.black, "numbers", pool.var("true")
        nodes: dict = {p: -x for p, x in black.items()}
        nodes[root] = true
        links: list = [(p, q, None) for p, q in self.links] + [(root, p, None) for p in self.numbers]
        clauses = [[true], *ConnectedSubgraph("white-reach", nodes, links, anchor=root).eager_clauses(pool)]
        bits = max(1, (len(self.numbers) - 1).bit_length())
        ident = {p: [pool.var("island", *p, b) for b in range(bits)] for p in black}
        for i, p in enumerate(self.numbers):
            clauses += [[x if i >> b & 1 else -x] for b, x in enumerate(ident[p])]
        for p, q in self.links:
            for x, y in zip(ident[p], ident[q]):
                clauses += [[black[p], black[q], -x, y], [black[p], black[q], x, -y]]
        return clauses


def encode(puzzle: NurikabePuzzle, variant: Variant = Variant()) -> Encoding:
    rows, cols = puzzle.rows, puzzle.cols
    grid = geometry.Grid.of(rows, cols)
    cells, near = grid.cells, grid.near
    size = len(cells)
    numbers = {r * cols + c: v for (r, c), v in puzzle.numbers().items()}
    sized = {p: v for p, v in numbers.items() if v != UNKNOWN}
    pool = VarPool()
    black = [pool.var("black", *p) for p in cells]
    clauses: list[Clause] = []

    # Numbered cells are white; cells touching two numbers are black (see forced_black).
    touch = _touching(numbers, near, size)
    dark = [len(touch[q]) >= 2 and q not in numbers for q in range(size)]
    clauses += [[-black[p]] for p in numbers]
    clauses += [[black[p]] for p in range(size) if dark[p]]
    # Literals column-major in each block: the solver's search, so generated puzzles, follow it.
    clauses += [[-black[grid.index(q)] for q in (a, c, b, d)] for a, b, c, d in grid.windows()]
    edges = grid.links

    # Labels on each number's reach (its size bound; "?" numbers reach without bound). A label
    # spreads to white neighbours inside the reach; numbered cell i carries label i.
    reaches = {i: _reach(i, sized.get(i), near, touch) for i in numbers}
    labels: dict[int, dict[int, int]] = {}
    labels_of: list[list[int]] = [[] for _ in range(size)]
    for i, dist in reaches.items():
        ci = cells[i]
        own = labels[i] = {q: pool.var("label", *ci, *cells[q]) for q in dist}
        for q, lit in own.items():
            labels_of[q].append(lit)
            clauses.append([-lit, -black[q]])
            for s in near[q]:
                other = own.get(s)
                if other is not None:
                    clauses.append([-lit, black[s], other])
        clauses.append([own[i]])

    # ``all`` <-> every sized clue is switched on. Then every white cell carries a label (so cells
    # no clue reaches are black) and, with no "?" and two or more black cells, a black cell has a
    # black neighbour.
    everything = pool.var("all")
    selectors = {p: pool.var("clue", *cells[p], v) for p, v in sized.items()}
    clauses += [[-everything, s] for s in selectors.values()]
    clauses.append([everything, *(-s for s in selectors.values())])
    for p in range(size):
        if p not in numbers and not dark[p]:
            clauses.append([black[p], -everything, *labels_of[p]])
    if variant.black_degree and len(sized) == len(numbers) and size - sum(sized.values()) >= 2:
        for p in range(size):
            if p not in numbers:
                clauses.append([-black[p], -everything, *(black[q] for q in near[p] if q not in numbers)])

    # Anchors for the wall's cuts (a black component that misses an anchor cannot be the whole
    # wall): a cell touching two numbers is black; a switched-on island smaller than the grid has
    # a black cell next to it, inside its reach or on the reach's rim.
    true = pool.var("true")
    clauses.append([true])
    anchors: list[tuple[int, list[Cell]]] = [(true, [cells[p]]) for p in range(size) if dark[p]]
    for i, n in sized.items():
        if n <= SMALL_ISLAND and n < size:
            rim = {s for q in reaches[i] for s in near[q]} | set(reaches[i])
            anchors.append((selectors[i], [cells[q] for q in sorted(rim) if q not in numbers]))
    open_cells = {cells[p]: black[p] for p in range(size) if not dark[p]}
    rules = [
        Islands(open_cells, [cells[p] for p in numbers],
                [(cells[p], cells[q]) for p, q in edges if not dark[p] and not dark[q]],
                {(cells[i], cells[q]): lit for i, own in labels.items() for q, lit in own.items()},
                {cells[p]: lit for p, lit in selectors.items()}),
        ConnectedSubgraph(
            "black",
            {cells[p]: black[p] for p in range(size) if p not in numbers},
            [(cells[p], cells[q], None) for p, q in edges if p not in numbers and q not in numbers],
            anchors=anchors,
        ),
    ]

    def encode_clue(key: Cell, value: object) -> ClueEncoding:
        i = key[0] * cols + key[1] if isinstance(key, tuple) and len(key) == 2 else None
        own = sized.get(i)
        if own is None or not isinstance(value, int) or not 1 <= value <= own:
            raise SatgridError(
                f"nurikabe: clue {value!r} at {cell_name(*key)} does not fit this encoding "
                f"(it was built for {own!r} there)"
            )
        dist, label = reaches[i], labels[i]
        # The clue's own label (always true) keeps the clause list non-empty: this clue is never
        # a bare literal, whose negation the audits could assume.
        clue_clauses = [[label[i]], *exactly([label[q] for q in dist if q != i], value - 1, pool)]
        local = value > 1 and not value >= variant.eager_from
        for q, lit in label.items():
            inside = []
            for s in near[q]:
                other = label.get(s)
                if other is not None:
                    inside.append(other)
                elif not dark[s]:  # the island stops at its reach
                    clue_clauses.append([-lit, black[s]])
            if q != i and local:
                clue_clauses.append([-lit, *inside])  # an island cell has an island neighbour
        if value > 1 and value >= variant.eager_from:
            clue_clauses += ConnectedSubgraph(
                f"island{key}", {cells[q]: label[q] for q in dist},
                [(cells[q], cells[s], None) for q in dist for s in near[q] if s in dist and q < s],
                anchor=key, max_true=value,
            ).eager_clauses(pool)
        return ClueEncoding(pool.var("clue", *key, value), tuple(clue_clauses))

    return Encoding(pool, clauses, {("black", *p): black[k] for k, p in enumerate(cells)}, encode_clue, rules)


def decode(puzzle: NurikabePuzzle, encoding: Encoding, value) -> Solution:
    var = encoding.pool.var
    return tuple(
        "".join("#" if value(var("black", r, c)) else "." for c in range(puzzle.cols))
        for r in range(puzzle.rows)
    )


def check(puzzle: NurikabePuzzle, solution: Solution) -> list[str]:
    return check_nurikabe(puzzle.rows, puzzle.cols, puzzle.numbers(), solution)


# -- output -------------------------------------------------------------------------------------
def render(puzzle: NurikabePuzzle, solution: Solution | None = None) -> str:
    """The grid: numbers (or ``?``), ``.`` white, ``#`` black; columns line up for big numbers."""
    width = max([1, *(len(str(v)) for v in puzzle.numbers().values())])
    lines = []
    for r, row in enumerate(puzzle.grid):
        tokens = []
        for c, v in enumerate(row):
            if v is not None:
                tokens.append(str(v))
            elif solution is not None and solution[r][c] == "#":
                tokens.append("#")
            else:
                tokens.append(".")
        lines.append(" ".join(t.rjust(width) for t in tokens))
    return "\n".join(lines)


def solution_json(puzzle: NurikabePuzzle, solution: Solution) -> list[str]:
    return list(solution)


def puzzle_json(puzzle: NurikabePuzzle) -> list[list[Number]]:
    """Rows of numbers: 0 empty, a size, or ``"?"``."""
    return [[0 if v is None else v for v in row] for row in puzzle.grid]


def differences(puzzle: NurikabePuzzle, a: Solution, b: Solution) -> list[Cell]:
    return [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if a[r][c] != b[r][c]]


def puzzle_meta(puzzle: NurikabePuzzle) -> dict[str, str]:
    """Nothing beyond the grid."""
    return {}


def puzzle_from_json(record: Record, value: object) -> NurikabePuzzle:
    """The inverse of :func:`puzzle_json`: rows of 0 (empty), sizes and ``"?"``, written out as
    text rows and parsed, so every check of :func:`parse` applies."""
    if not isinstance(value, list) or not value or not all(isinstance(row, list) and row for row in value):
        raise record.error("not a list of rows of numbers")
    lines = []
    for r, row in enumerate(value, 1):
        if not all((type(v) is int and v >= 0) or v == UNKNOWN for v in row):
            raise record.error(f"row {r} holds something other than 0, a size or {UNKNOWN!r}")
        lines.append((record.line, " ".join("." if v == 0 else str(v) for v in row)))
    return parse(record.part(record.line, lines, record.name))


def solution_from_json(puzzle: NurikabePuzzle, value: object) -> Solution:
    """The inverse of :func:`solution_json`; ValueError unless rows of ``#`` and ``.`` fit the grid."""
    if not (isinstance(value, list) and len(value) == puzzle.rows
            and all(isinstance(row, str) and len(row) == puzzle.cols and set(row) <= set("#.")
                    for row in value)):
        raise ValueError(f"not {puzzle.rows} rows of {puzzle.cols} '#' or '.'")
    return tuple(value)


def estimate(rows: int, cols: int, connectivity: str = "lazy") -> tuple[int, int]:
    """(variables, clauses) expected of the encoding of a rows x cols grid, from the grid alone:
    the size labels depend on the numbers (each clue labels the cells it reaches), so this takes
    the per-cell figures of densely numbered puzzles, an upper estimate for most; the eager
    connectivity rules add parent pointers and ranks, whose clauses per cell grow with the rank's
    bits (log2 of the cells). The figures behind the constants are in encodings/nurikabe.md."""
    cells = rows * cols
    variables, clauses = 40 * cells, 200 * cells
    if connectivity == "eager":
        bits = math.log2(max(cells, 2))
        variables += int(cells * max(10.0, 12 * bits - 20))
        clauses += int(cells * max(30.0, 30 * bits - 45))
    return variables, clauses


# -- formats ------------------------------------------------------------------------------------
def _from_url(cells: puzzlink.Cells) -> NurikabePuzzle:
    return NurikabePuzzle(cells.numbers(1, cells.rows * cells.cols), "", cells.source)


PUZZLINK = puzzlink.Codec(pids=("nurikabe",), body=puzzlink.NUMBERS, read=_from_url,
                          write=lambda puzzle: puzzle.grid)

#: pzprjs's answer marks in the one grid of a Nurikabe file: ``#`` shaded, ``+`` a dot (unshaded).
_MARKS = {"#": "#", "+": "+"}


def _from_pzprv3(grids: pzprv3.Grids) -> tuple[NurikabePuzzle, Solution | None]:
    """One grid of numbers and marks (pzprjs's ``decodeCellQnumAns``); it holds an answer when a
    cell is shaded."""
    cells = grids["grid"]
    puzzle = NurikabePuzzle(tuple(tuple(None if v in _MARKS else v for v in row) for row in cells), "",
                            grids.source)
    if not any(v == "#" for row in cells for v in row):
        return puzzle, None
    return puzzle, tuple("".join("#" if v == "#" else "." for v in row) for row in cells)


def _to_pzprv3(puzzle: NurikabePuzzle, solution: Solution | None) -> dict[str, list[list[object]]]:
    return {"grid": [[v if v is not None or solution is None else "#" if solution[r][c] == "#" else "+"
                      for c, v in enumerate(row)] for r, row in enumerate(puzzle.grid)]}


PZPRV3 = pzprv3.Codec(
    pids=("nurikabe",),
    sections=(pzprv3.Section("grid", pzprv3.clues(1, lambda rows, cols: rows * cols, _MARKS)),),
    read=_from_pzprv3, write=_to_pzprv3)


# -- drawing and hints ---------------------------------------------------------------------------
from ... import render_svg as svg  # noqa: E402  (kept with the parts that use it)
from ...errors import ParseError  # noqa: E402
from ...genre_options import GENERATE, Option, whole_numbers  # noqa: E402
from ...grading import StateFormat, state_lines  # noqa: E402


def DRAW(puzzle: NurikabePuzzle, solution: Solution | None, marks: svg.Marks) -> list[str]:
    """The grid, numbers (``?`` as is), shaded cells black, unshaded solution cells dotted."""
    numbers = puzzle.numbers()
    out = svg.cells(puzzle, marks, numbers)
    if solution is not None:
        cells = geometry.Grid.of(puzzle.rows, puzzle.cols).cells
        out += svg.shaded([p for p in cells if solution[p[0]][p[1]] == "#"], marks)
        out += svg.dotted([p for p in cells if solution[p[0]][p[1]] != "#" and p not in numbers])
    return [*out, *svg.border(puzzle), *svg.givens({k: str(v) for k, v in numbers.items()})]


def _read_state(puzzle: NurikabePuzzle, text: str, source: str) -> dict:
    """A hint's partial state: the grid, ``#`` black, ``.`` (or ``+``) white, ``?`` (or ``_``)
    undecided, numbers as in the puzzle."""
    rows = [(n, t) for n, t in state_lines(text) if t.strip()]
    if len(rows) != puzzle.rows:
        raise ParseError(source, None, f"the state has {len(rows)} rows, the puzzle {puzzle.rows}")
    numbers = puzzle.numbers()
    state = {}
    for r, (n, line) in enumerate(rows):
        tokens = line.split() if any(ch.isspace() for ch in line.strip()) else list(line.strip())
        if len(tokens) != puzzle.cols:
            raise ParseError(source, n, f"row has {len(tokens)} cells, the puzzle {puzzle.cols}")
        for c, tok in enumerate(tokens):
            if tok == "#":
                state[("black", r, c)] = True
            elif (r, c) in numbers or tok in "?_":
                continue  # a numbered cell is white anyway; '?' and '_' are undecided
            elif tok in (".", "+"):
                state[("black", r, c)] = False
            else:
                raise ParseError(source, n, f"{tok!r} is not a cell mark: use '#' (black), '.' "
                                            "(white), '?' (undecided) or the cell's number")
    return state


def _describe(puzzle: NurikabePuzzle, key, value: bool) -> str:
    _, r, c = key
    return f"{cell_name(r, c)} is {'black' if value else 'white'}"


STATE = StateFormat(_read_state, _describe, lambda key, value: True,
                    "the grid: '#' black, '.' (or '+') white, '?' undecided, numbers as in the puzzle",
                    lambda p: {("black", *cell): False for cell in p.numbers()})


OPTIONS = (
    Option("--islands", "Nurikabe: the island sizes of the random solution [default: 1-6].",
           GENERATE, whole_numbers("-", 2, "2-5"), "LO-HI"),
)
