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

import re
from collections import deque
from dataclasses import dataclass
from typing import ClassVar, Union

from ..checkers.nurikabe import check_nurikabe
from ..cnf import Clause, VarPool, exactly
from ..connectivity import ConnectedSubgraph
from ..encoding import ClueEncoding, Encoding
from ..errors import SatgridError
from ..puzzle import Source, cell_name
from ..reader import Record, split_on_blank_lines

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
    return [
        Record(record.source, lines[0][0], str(i) if len(groups) > 1 else "", record.genre,
               dict(record.meta), lines)
        for i, lines in enumerate(groups, 1)
    ]


def parse(record: Record) -> NurikabePuzzle:
    """Rows of whitespace-separated tokens: ``.`` or ``0`` empty, a positive size, ``?``."""
    rows = [(n, [(m.group(), m.start() + 1) for m in _TOKEN.finditer(t)]) for n, t in record.lines]
    rows = [(n, tokens) for n, tokens in rows if tokens]
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
            if not declared.isdigit() or int(declared) != actual:
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
            elif tok.isdigit():
                value = int(tok)
                if value > area:
                    raise record.error(
                        f"number {value} is bigger than the {height}x{width} grid ({area} cells)", line, col
                    )
                cells.append(value)
            else:
                raise record.error(
                    f"token {tok!r} is not a number, '?' or an empty cell ('.' or '0')", line, col
                )
        grid.append(tuple(cells))
    return NurikabePuzzle(tuple(grid), record.name, Source(record.source, record.line))


# -- geometry -----------------------------------------------------------------------------------
def _neighbours(p: Cell, rows: int, cols: int) -> list[Cell]:
    r, c = p
    return [(a, b) for a, b in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= a < rows and 0 <= b < cols]


def reach(puzzle: NurikabePuzzle, clue: Cell, size: int | None) -> dict[Cell, int]:
    """Cells island ``clue`` can cover, with their BFS distance: paths of fewer than ``size``
    steps (any length for None) through cells that neither hold nor touch another number.

    Proof: an island is connected, so each of its cells lies at distance < size from its number
    along island cells; a cell touching another number is white only inside that number's island.
    """
    rows, cols = puzzle.rows, puzzle.cols
    numbers = puzzle.numbers()
    blocked = {p for p in numbers if p != clue}
    blocked |= {q for p in numbers if p != clue for q in _neighbours(p, rows, cols)}
    dist = {clue: 0}
    queue = deque([clue])
    while queue:
        p = queue.popleft()
        if size is not None and dist[p] >= size - 1:
            continue
        for q in _neighbours(p, rows, cols):
            if q not in dist and q not in blocked:
                dist[q] = dist[p] + 1
                queue.append(q)
    return dist


def forced_black(puzzle: NurikabePuzzle) -> set[Cell]:
    """Cells touching two different numbers: white, they would join two islands."""
    touching: dict[Cell, int] = {}
    numbers = puzzle.numbers()
    for p in numbers:
        for q in _neighbours(p, puzzle.rows, puzzle.cols):
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
    """

    name = "islands"

    def __init__(self, black: dict[Cell, int], numbers: list[Cell], links: list[tuple[Cell, Cell]],
                 labels: dict[tuple[Cell, Cell], int], selectors: dict[Cell, int]):
        self.black, self.numbers, self.links = black, numbers, links
        self.labels, self.selectors = labels, selectors
        self.labels_at: dict[Cell, list[tuple[Cell, int]]] = {p: [] for p in black}
        for (i, q), lit in labels.items():
            if i in selectors and q in self.labels_at:
                self.labels_at[q].append((i, lit))
        self.numbered = set(numbers)
        self.region = ConnectedSubgraph("white", {p: -x for p, x in black.items()},
                                        [(p, q, None) for p, q in links])
        self.adjacent: dict[Cell, list[Cell]] = {p: [] for p in black}
        for p, q in links:
            self.adjacent[p].append(q)
            self.adjacent[q].append(p)

    def clauses(self, pool: VarPool) -> list[Clause]:
        return []

    def cuts(self, value, pool: VarPool) -> list[list[Clause]]:
        cuts = []
        for region in self.region.components(value):
            numbers = [p for p in region if p in self.numbered]
            if not numbers:
                cuts.append(self._grow(region, pool))
                cuts += self._reconnect(region, value, pool)
            elif len(numbers) > 1:
                cuts.append([[self.black[p] for p in self._path(region, numbers[0])]])
        return cuts

    def _grow(self, region: set[Cell], pool: VarPool) -> list[Clause]:
        black, t = self.black, pool.fresh("cut")
        border = {q for p in region for q in self.adjacent[p] if q not in region}
        return [*([black[p], t] for p in region), [-t, *sorted(-black[q] for q in border)]]

    def _reconnect(self, region: set[Cell], value, pool: VarPool) -> list[list[Clause]]:
        """For each switched-on clue i labelling ``region``: island i is connected and holds its
        number, so a labelled cell of ``region`` has a labelled path out of it. The cut depends on
        clue i, so it carries i's selector (sound for every later query)."""
        on = {i for p in region for i, lit in self.labels_at[p] if value(lit) and value(self.selectors[i])}
        cuts = []
        for i in on:
            t, labels = pool.fresh("cut"), self.labels
            inside = [labels[i, p] for p in region if (i, p) in labels]
            border = {labels[i, q] for p in region for q in self.adjacent[p]
                      if q not in region and (i, q) in labels}
            cuts.append([*([-x, t] for x in inside), [-self.selectors[i], -t, *sorted(border)]])
        return cuts

    def _path(self, region: set[Cell], start: Cell) -> list[Cell]:
        """The unnumbered cells of a shortest path inside ``region`` from ``start`` to another
        number."""
        parent: dict[Cell, Cell | None] = {start: None}
        queue = deque([start])
        while queue:
            p = queue.popleft()
            for q in self.adjacent[p]:
                if q in region and q not in parent:
                    parent[q] = p
                    if q in self.numbered:
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
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    near = {p: _neighbours(p, rows, cols) for p in cells}
    numbers = puzzle.numbers()
    sized = puzzle.clues()
    pool = VarPool()
    black = {p: pool.var("black", *p) for p in cells}
    clauses: list[Clause] = []

    # Numbered cells are white; cells touching two numbers are black (see forced_black).
    clauses += [[-black[p]] for p in numbers]
    dark = forced_black(puzzle)
    clauses += [[black[p]] for p in sorted(dark)]
    for r in range(rows - 1):
        for c in range(cols - 1):
            clauses.append([-black[r, c], -black[r + 1, c], -black[r, c + 1], -black[r + 1, c + 1]])
    edges = [(p, q) for p in cells for q in near[p] if p < q]

    # Labels on each number's reach (its size bound; "?" numbers reach without bound). A label
    # spreads to white neighbours inside the reach; numbered cell i carries label i.
    reaches = {p: reach(puzzle, p, sized.get(p)) for p in numbers}
    label = {(i, q): pool.var("label", *i, *q) for i, dist in reaches.items() for q in dist}
    labels_of: dict[Cell, list[int]] = {p: [] for p in cells}
    for (i, q), lit in label.items():
        labels_of[q].append(lit)
        clauses.append([-lit, -black[q]])
        for s in near[q]:
            other = label.get((i, s))
            if other is not None:
                clauses.append([-lit, black[s], other])
    clauses += [[label[i, i]] for i in numbers]

    # ``all`` <-> every sized clue is switched on. Then every white cell carries a label (so cells
    # no clue reaches are black) and, with no "?" and two or more black cells, a black cell has a
    # black neighbour.
    everything = pool.var("all")
    selectors = {p: pool.var("clue", *p, v) for p, v in sized.items()}
    clauses += [[-everything, s] for s in selectors.values()]
    clauses.append([everything, *(-s for s in selectors.values())])
    for p in cells:
        if p not in numbers and p not in dark:
            clauses.append([black[p], -everything, *labels_of[p]])
    if variant.black_degree and len(sized) == len(numbers) and rows * cols - sum(sized.values()) >= 2:
        for p in cells:
            if p not in numbers:
                clauses.append([-black[p], -everything, *(black[q] for q in near[p] if q not in numbers)])

    # Anchors for the wall's cuts (a black component that misses an anchor cannot be the whole
    # wall): a cell touching two numbers is black; a switched-on island smaller than the grid has
    # a black cell next to it, inside its reach or on the reach's rim.
    true = pool.var("true")
    clauses.append([true])
    anchors: list[tuple[int, list[Cell]]] = [(true, [p]) for p in sorted(dark)]
    for i, n in sized.items():
        if n <= SMALL_ISLAND and n < rows * cols:
            rim = {s for q in reaches[i] for s in near[q]} | set(reaches[i])
            anchors.append((selectors[i], sorted(rim - set(numbers))))
    open_cells = {p: black[p] for p in cells if p not in dark}
    rules = [
        Islands(open_cells, list(numbers), [(p, q) for p, q in edges if p in open_cells and q in open_cells],
                label, selectors),
        ConnectedSubgraph(
            "black",
            {p: black[p] for p in cells if p not in numbers},
            [(p, q, None) for p, q in edges if p not in numbers and q not in numbers],
            anchors=anchors,
        ),
    ]

    def encode_clue(key: Cell, value: object) -> ClueEncoding:
        own = sized.get(key)
        if own is None or not isinstance(value, int) or not 1 <= value <= own:
            raise SatgridError(
                f"nurikabe: clue {value!r} at {cell_name(*key)} does not fit this encoding "
                f"(it was built for {own!r} there)"
            )
        dist = reaches[key]
        # The clue's own label (always true) keeps the clause list non-empty: this clue is never
        # a bare literal, whose negation the audits could assume.
        clue_clauses = [[label[key, key]], *exactly([label[key, q] for q in dist if q != key], value - 1, pool)]
        for q in dist:
            lit = label[key, q]
            inside = []
            for s in near[q]:
                if s in dist:
                    inside.append(label[key, s])
                elif s not in dark:  # the island stops at its reach
                    clue_clauses.append([-lit, black[s]])
            if q != key and value > 1 and not value >= variant.eager_from:
                clue_clauses.append([-lit, *inside])  # an island cell has an island neighbour
        if value > 1 and value >= variant.eager_from:
            clue_clauses += ConnectedSubgraph(
                f"island{key}", {q: label[key, q] for q in dist},
                [(q, s, None) for q in dist for s in near[q] if s in dist and q < s],
                anchor=key, max_true=value,
            ).eager_clauses(pool)
        return ClueEncoding(pool.var("clue", *key, value), tuple(clue_clauses))

    return Encoding(pool, clauses, {("black", *p): black[p] for p in cells}, encode_clue, rules)


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
