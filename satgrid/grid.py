"""Geometry of rectangular grids: cells, neighbours, the loop lattice, windows, lines, runs,
rooms, sightlines and polyomino shapes. Plain Python (no pysat), so checkers may use it too.

Conventions, as everywhere in satgrid:

* A *cell* is ``(r, c)``, 0-based, row-major; its *index* is ``r * cols + c`` (reading order).
* A *dot* (vertex of the lattice) is ``(i, j)`` with ``0 <= i <= rows`` and ``0 <= j <= cols``;
  cell ``(r, c)`` has the dots ``(r, c)``, ``(r, c + 1)``, ``(r + 1, c)``, ``(r + 1, c + 1)``.
* An *edge* of the lattice (a segment between two dots; loops on the dot lattice run on them) is
  ``("h", i, j)``, on dot row ``i`` between dot columns ``j`` and ``j + 1``, or ``("v", i, j)``,
  in cell row ``i`` on dot column ``j``. The same key names the *border* between the two cells on
  either side of it (a room border).
* Neighbour order is up, down, left, right (:data:`ORTHOGONAL`), then the diagonals.

A :class:`Grid` is a frozen dataclass; its tables are computed on first use and kept on the
instance, and :meth:`Grid.of` shares one instance per size so the tables are built once.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Callable, Collection, Hashable, Iterable, Sequence

Cell = tuple[int, int]
Dot = tuple[int, int]
EdgeKey = tuple[str, int, int]
Shape = frozenset[Cell]

#: Steps to the four side neighbours: up, down, left, right.
ORTHOGONAL: tuple[Cell, ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))
#: Steps to the four corner neighbours: up-left, up-right, down-left, down-right.
DIAGONAL: tuple[Cell, ...] = ((-1, -1), (-1, 1), (1, -1), (1, 1))
#: Steps to the eight neighbours (side ones first).
KING: tuple[Cell, ...] = ORTHOGONAL + DIAGONAL


@dataclass(frozen=True)
class Grid:
    """A ``rows`` x ``cols`` grid of cells, with its dots and lattice edges."""

    rows: int
    cols: int

    def __post_init__(self) -> None:
        if self.rows < 0 or self.cols < 0:
            raise ValueError(f"a grid has at least 0 rows and columns, not {self.rows}x{self.cols}")

    @staticmethod
    def of(rows: int, cols: int) -> Grid:
        """The shared grid of this size (its cached tables are built once per process)."""
        return _shared(rows, cols)

    # -- cells ----------------------------------------------------------------------------------
    def __contains__(self, p: object) -> bool:
        """Is ``p`` a cell of the grid?"""
        return (isinstance(p, tuple) and len(p) == 2
                and 0 <= p[0] < self.rows and 0 <= p[1] < self.cols)

    def __len__(self) -> int:
        return self.rows * self.cols

    @cached_property
    def cells(self) -> tuple[Cell, ...]:
        """Every cell in reading order (``cells[index(p)] == p``)."""
        return tuple((r, c) for r in range(self.rows) for c in range(self.cols))

    def index(self, p: Cell) -> int:
        """The reading-order index of cell ``p``."""
        return p[0] * self.cols + p[1]

    def neighbours(self, p: Cell) -> list[Cell]:
        """The side neighbours of ``p`` inside the grid: up, down, left, right."""
        r, c = p
        rows, cols = self.rows, self.cols
        return [(a, b) for a, b in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                if 0 <= a < rows and 0 <= b < cols]

    def king_neighbours(self, p: Cell) -> list[Cell]:
        """The eight neighbours of ``p`` inside the grid, in :data:`KING` order."""
        r, c = p
        return [(r + dr, c + dc) for dr, dc in KING if (r + dr, c + dc) in self]

    @cached_property
    def near(self) -> tuple[tuple[int, ...], ...]:
        """For each cell index, its side neighbours' indices (up, down, left, right)."""
        return tuple(tuple(self.index(q) for q in self.neighbours(p)) for p in self.cells)

    @cached_property
    def adjacency(self) -> dict[Cell, tuple[Cell, ...]]:
        """Each cell's side neighbours (as :meth:`neighbours` lists them), looked up by cell: a
        table for loops that ask often."""
        return {p: tuple(self.neighbours(p)) for p in self.cells}

    @cached_property
    def links(self) -> tuple[tuple[int, int], ...]:
        """Every pair of side-adjacent cells once, as indices ``(p, q)`` with ``p < q``: for each
        cell in reading order, the link down, then the link right."""
        return tuple((p, q) for p, around in enumerate(self.near) for q in around if p < q)

    def adjacent_pairs(self) -> list[tuple[Cell, Cell]]:
        """:attr:`links` as cell pairs (the edges between cells)."""
        cells = self.cells
        return [(cells[p], cells[q]) for p, q in self.links]

    # -- the lattice: dots and the edges between them ------------------------------------------
    @cached_property
    def dots(self) -> tuple[Dot, ...]:
        """Every dot, row-major: ``rows + 1`` rows of ``cols + 1``."""
        return tuple((i, j) for i in range(self.rows + 1) for j in range(self.cols + 1))

    @cached_property
    def edge_keys(self) -> tuple[EdgeKey, ...]:
        """Every lattice edge: the horizontal ones row-major, then the vertical ones row-major."""
        return tuple([("h", i, j) for i in range(self.rows + 1) for j in range(self.cols)]
                     + [("v", i, j) for i in range(self.rows) for j in range(self.cols + 1)])

    @cached_property
    def edge_index(self) -> dict[EdgeKey, int]:
        """Each lattice edge's position in :attr:`edge_keys`."""
        return {key: k for k, key in enumerate(self.edge_keys)}

    @cached_property
    def edge_dots(self) -> tuple[tuple[Dot, Dot], ...]:
        """:meth:`edge_ends` of every edge, in :attr:`edge_keys` order."""
        return tuple(self.edge_ends(key) for key in self.edge_keys)

    @cached_property
    def side_indices(self) -> tuple[tuple[int, ...], ...]:
        """For each cell index, the :attr:`edge_index` of its :meth:`sides` (top, bottom, left,
        right): a table for per-cell sums over values listed in :attr:`edge_keys` order."""
        index = self.edge_index
        return tuple(tuple(index[key] for key in self.sides(p)) for p in self.cells)

    @cached_property
    def edge_dot_indices(self) -> tuple[tuple[int, int], ...]:
        """:attr:`edge_dots` as dot indices ``i * (cols + 1) + j`` (:attr:`dots` order)."""
        width = self.cols + 1
        return tuple((i * width + j, a * width + b) for (i, j), (a, b) in self.edge_dots)

    @cached_property
    def dot_edges(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """For each dot index ``i * (cols + 1) + j`` (:attr:`dots` order), the edges that end
        there as ``(edge index, index of the dot at the other end)`` (edge index: the position
        in :attr:`edge_keys`): a table for walks along a loop's edges by index."""
        at: list[list[tuple[int, int]]] = [[] for _ in self.dots]
        for k, (a, b) in enumerate(self.edge_dot_indices):
            at[a].append((k, b))
            at[b].append((k, a))
        return tuple(tuple(edges) for edges in at)

    @staticmethod
    def edge_ends(key: EdgeKey) -> tuple[Dot, Dot]:
        """The two dots of a lattice edge (left then right, or top then bottom)."""
        kind, i, j = key
        return ((i, j), (i, j + 1)) if kind == "h" else ((i, j), (i + 1, j))

    @staticmethod
    def sides(p: Cell) -> list[EdgeKey]:
        """The four lattice edges around cell ``p``: top, bottom, left, right (the order of
        :data:`ORTHOGONAL`, so side k faces neighbour k)."""
        r, c = p
        return [("h", r, c), ("h", r + 1, c), ("v", r, c), ("v", r, c + 1)]

    @staticmethod
    def corners(p: Cell) -> list[Dot]:
        """The four dots of cell ``p``, row-major."""
        r, c = p
        return [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]

    def edges_at(self, dot: Dot) -> list[EdgeKey]:
        """The lattice edges that end at ``dot``: up, down, left, right."""
        i, j = dot
        found: list[EdgeKey] = []
        if i > 0:
            found.append(("v", i - 1, j))
        if i < self.rows:
            found.append(("v", i, j))
        if j > 0:
            found.append(("h", i, j - 1))
        if j < self.cols:
            found.append(("h", i, j))
        return found

    def cells_beside(self, key: EdgeKey) -> list[Cell]:
        """The cells on the two sides of a lattice edge that lie in the grid (above then below,
        or left then right): one on the border of the grid, else two."""
        kind, i, j = key
        pair = ((i - 1, j), (i, j)) if kind == "h" else ((i, j - 1), (i, j))
        return [p for p in pair if p in self]

    @staticmethod
    def border(p: Cell, q: Cell) -> EdgeKey:
        """The lattice edge between side-adjacent cells ``p`` and ``q``."""
        (r, c), (a, b) = sorted((p, q))
        if (a - r, b - c) == (1, 0):
            return ("h", a, c)
        if (a - r, b - c) == (0, 1):
            return ("v", r, b)
        raise ValueError(f"cells {p} and {q} are not side neighbours")

    # -- windows, lines and runs ---------------------------------------------------------------
    def windows(self, height: int = 2, width: int = 2) -> list[tuple[Cell, ...]]:
        """Every ``height`` x ``width`` block of cells (its cells row-major), blocks ordered by
        their top-left cell in reading order."""
        return list(_windows(self.rows, self.cols, height, width))

    def boxes(self, height: int, width: int) -> list[tuple[Cell, ...]]:
        """The ``height`` x ``width`` boxes that tile the grid, row-major, each with
        its cells row-major. The box size must divide the grid."""
        if height <= 0 or width <= 0 or self.rows % height or self.cols % width:
            raise ValueError(f"boxes {height}x{width} do not tile a {self.rows}x{self.cols} grid")
        return [tuple((top + a, left + b) for a in range(height) for b in range(width))
                for top in range(0, self.rows, height) for left in range(0, self.cols, width)]

    def row(self, r: int) -> list[Cell]:
        """The cells of row ``r``, left to right."""
        return [(r, c) for c in range(self.cols)]

    def column(self, c: int) -> list[Cell]:
        """The cells of column ``c``, top to bottom."""
        return [(r, c) for r in range(self.rows)]

    def lines(self) -> list[list[Cell]]:
        """Every row (top to bottom), then every column (left to right)."""
        return [self.row(r) for r in range(self.rows)] + [self.column(c) for c in range(self.cols)]

    def runs(self, predicate: Callable[[Cell], bool]) -> list[tuple[Cell, ...]]:
        """The maximal runs of cells satisfying ``predicate`` in every row, then every column
        (:func:`runs` on each of :meth:`lines`). A single cell is a run of length 1 in its row
        and in its column."""
        return [run for line in self.lines() for run in runs(line, predicate)]

    def segments_across(self, apart: Callable[[Cell, Cell], bool], count: int) -> list[tuple[Cell, ...]]:
        """Every straight segment of cells (in a row or a column) that crosses ``count`` borders,
        minimally: it starts at the cell before one border and ends at the cell after the
        ``count``-th border from there. ``apart(p, q)`` says whether a border separates the
        consecutive cells ``p`` and ``q``. A run of cells crosses ``count`` borders or more
        exactly when it contains one of these segments. Rows top to bottom, then columns."""
        if count < 1:
            raise ValueError(f"a segment crosses at least 1 border, not {count}")
        found: list[tuple[Cell, ...]] = []
        for line in self.lines():
            cuts = [i for i in range(len(line) - 1) if apart(line[i], line[i + 1])]
            found += [tuple(line[cuts[k]:cuts[k + count - 1] + 2]) for k in range(len(cuts) - count + 1)]
        return found

    # -- sightlines ------------------------------------------------------------------------------
    def sightline(self, p: Cell, step: Cell, blocked: Callable[[Cell], bool]) -> list[Cell]:
        """The cells seen from ``p`` looking along ``step`` (e.g. ``(0, 1)``: right): from the
        next cell on, up to but not including the first blocked cell or the grid's edge."""
        dr, dc = step
        r, c = p[0] + dr, p[1] + dc
        seen: list[Cell] = []
        while 0 <= r < self.rows and 0 <= c < self.cols and not blocked((r, c)):
            seen.append((r, c))
            r, c = r + dr, c + dc
        return seen

    def sightlines(self, p: Cell, blocked: Callable[[Cell], bool]) -> list[list[Cell]]:
        """:meth:`sightline` in the four directions of :data:`ORTHOGONAL` (up, down, left, right)."""
        return [self.sightline(p, step, blocked) for step in ORTHOGONAL]

    # -- regions and rooms ----------------------------------------------------------------------
    def components(self, cells: Iterable[Cell], diagonal: bool = False) -> list[list[Cell]]:
        """The connected groups of ``cells`` (side-connected, or also through corners with
        ``diagonal``), by :meth:`groups` over their membership. Groups are ordered by their first cell and their cells
        listed in reading order."""
        rows, cols, cells = self.rows, self.cols, list(cells)
        member = bytearray(rows * cols)  # 1: in ``cells``
        for r, c in cells:
            if not (0 <= r < rows and 0 <= c < cols):  # a cell off the grid: its own group
                inside = set(cells)
                return self._flood(sorted(inside), None, KING if diagonal else ORTHOGONAL, inside)
            member[r * cols + c] = 1
        groups, _ = self.groups(member, diagonal, only=1)
        return [[divmod(j, cols) for j in sorted(group)] for group in groups]

    def groups(self, values: Sequence[Hashable], diagonal: bool = False,
               only: Hashable | None = None) -> tuple[list[list[int]], list[int]]:
        """The connected groups (side-connected, or also through corners with ``diagonal``) of
        cells with equal values, ``values`` given per cell index (e.g. a shading's rows joined
        into one string), by flood fill over cell indices and a neighbour table made once per
        size (checkers call it for every solution they check; figures in
        encodings/diagnostics.md): the groups as lists of cell indices, each starting with its
        first cell in reading order (the rest in no order), ordered by that cell; and the
        position of each cell's group in that list, per cell index. Every cell is in one group,
        or with ``only`` only the cells of that value are (the others' position is -1)."""
        rows, cols = self.rows, self.cols
        if len(values) != rows * cols:
            raise ValueError(f"{len(values)} values for the {rows * cols} cells of a {rows}x{cols} grid")
        near = _neighbour_table(rows, cols, diagonal)
        label = [-1] * (rows * cols)
        groups: list[list[int]] = []
        for start, value in enumerate(values):
            if label[start] >= 0 or (only is not None and value != only):
                continue
            k = label[start] = len(groups)
            group, stack = [start], [start]
            while stack:
                for j in near[stack.pop()]:
                    if label[j] < 0 and values[j] == value:
                        label[j] = k
                        group.append(j)
                        stack.append(j)
            groups.append(group)
        return groups, label

    def placements(self, size: int) -> list[tuple[Cell, ...]]:
        """Every side-connected set of ``size`` cells inside the grid (each fixed polyomino,
        :func:`fixed_polyominoes`, at every offset where it fits), cells in reading order."""
        out = []
        for shape in sorted(fixed_polyominoes(size), key=sorted):
            cells = sorted(shape)
            height, width = max(r for r, _ in cells) + 1, max(c for _, c in cells) + 1
            for r0 in range(self.rows - height + 1):
                for c0 in range(self.cols - width + 1):
                    out.append(tuple((r + r0, c + c0) for r, c in cells))
        return out

    def rooms_from_ids(self, ids: Sequence[Sequence[Hashable]]) -> list[list[Cell]]:
        """Rooms of an id grid (``ids[r][c]``, one row per grid row): side-connected groups of
        cells with equal ids. Two separate groups with one id are two rooms."""
        if len(ids) != self.rows or any(len(line) != self.cols for line in ids):
            raise ValueError(f"the id grid is not {self.rows}x{self.cols}")
        return self._flood(self.cells, lambda p, q: ids[p[0]][p[1]] == ids[q[0]][q[1]], ORTHOGONAL)

    def rooms_from_borders(self, borders: Collection[EdgeKey]) -> list[list[Cell]]:
        """Rooms drawn by ``borders`` (lattice edges between cells): side-connected groups of
        cells that meet without crossing a border. Borders on the grid's edge change nothing."""
        walls = set(borders)
        border = self.border
        return self._flood(self.cells, lambda p, q: border(p, q) not in walls, ORTHOGONAL)

    def _flood(self, starts: Iterable[Cell], joins: Callable[[Cell, Cell], bool] | None,
               steps: Sequence[Cell], inside: Collection[Cell] = ()) -> list[list[Cell]]:
        """Groups reached from each not yet grouped start cell over steps between grid cells
        that ``joins`` accepts (depth-first); ``joins`` None: steps into ``inside``. (Checkers
        call this for every solution they check: no method call per step.)"""
        seen: set[Cell] = set()
        groups: list[list[Cell]] = []
        rows, cols = self.rows, self.cols
        for start in starts:
            if start in seen:
                continue
            seen.add(start)
            group, stack = [start], [start]
            while stack:
                r, c = p = stack.pop()
                for dr, dc in steps:
                    q = (r + dr, c + dc)
                    if q not in seen and 0 <= q[0] < rows and 0 <= q[1] < cols \
                            and (q in inside if joins is None else joins(p, q)):
                        seen.add(q)
                        group.append(q)
                        stack.append(q)
            groups.append(sorted(group))
        return groups


@lru_cache(maxsize=64)
def _shared(rows: int, cols: int) -> Grid:
    return Grid(rows, cols)


@lru_cache(maxsize=64)
def _neighbour_table(rows: int, cols: int, diagonal: bool) -> tuple[tuple[int, ...], ...]:
    """Per cell index ``r * cols + c``: the indices of its neighbours inside the grid (sides, or
    sides and corners), for :meth:`Grid.components`."""
    steps = KING if diagonal else ORTHOGONAL
    return tuple(tuple((r + dr) * cols + c + dc for dr, dc in steps
                       if 0 <= r + dr < rows and 0 <= c + dc < cols)
                 for r in range(rows) for c in range(cols))


@lru_cache(maxsize=64)
def _windows(rows: int, cols: int, height: int, width: int) -> tuple[tuple[Cell, ...], ...]:
    """:meth:`Grid.windows`, made once per size (checkers ask for it per solution)."""
    return tuple(tuple((r + a, c + b) for a in range(height) for b in range(width))
                 for r in range(rows - height + 1) for c in range(cols - width + 1))


def runs(line: Sequence[Cell], predicate: Callable[[Cell], bool]) -> list[tuple[Cell, ...]]:
    """The maximal runs of consecutive cells of ``line`` that satisfy ``predicate``, in order."""
    found: list[tuple[Cell, ...]] = []
    current: list[Cell] = []
    for p in line:
        if predicate(p):
            current.append(p)
        elif current:
            found.append(tuple(current))
            current = []
    if current:
        found.append(tuple(current))
    return found


# -- polyomino shapes ---------------------------------------------------------------------------
def normalise(cells: Iterable[Cell]) -> Shape:
    """``cells`` moved so that the top row and the leftmost column are 0 (shape up to
    translation)."""
    cells = list(cells)
    if not cells:
        return frozenset()
    top, left = min(r for r, _ in cells), min(c for _, c in cells)
    return frozenset((r - top, c - left) for r, c in cells)


def transforms(cells: Iterable[Cell]) -> list[Shape]:
    """The 8 images of a shape under the symmetries of the square (4 rotations, each also
    mirrored), normalised: the identity first. Symmetric shapes repeat images."""
    cells = list(cells)
    images = []
    for mirror in (False, True):
        for turns in range(4):
            image = []
            for r, c in cells:
                if mirror:
                    c = -c
                for _ in range(turns):
                    r, c = c, -r  # a quarter turn
                image.append((r, c))
            images.append(normalise(image))
    return images


def canonical(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    """The shape of ``cells`` up to translation, rotation and reflection: the smallest sorted
    cell tuple among its :func:`transforms`. Two cell sets have the same shape iff their
    canonical forms are equal."""
    return min(tuple(sorted(image)) for image in transforms(cells))


@lru_cache(maxsize=16)
def fixed_polyominoes(size: int) -> frozenset[Shape]:
    """Every polyomino of ``size`` cells up to translation only (normalised), grown one side
    neighbour at a time from the monomino."""
    if size < 1:
        raise ValueError(f"a polyomino has at least 1 cell, not {size}")
    shapes: set[Shape] = {frozenset([(0, 0)])}
    for _ in range(size - 1):
        grown: set[Shape] = set()
        for shape in shapes:
            for r, c in shape:
                for dr, dc in ORTHOGONAL:
                    if (r + dr, c + dc) not in shape:
                        grown.add(normalise(shape | {(r + dr, c + dc)}))
        shapes = grown
    return frozenset(shapes)


def shading_shape_problems(rows: int, cols: int, solution: Sequence[str]) -> list[str]:
    """Why ``solution`` is not a rows x cols shading (rows of ``#`` and ``.``); empty when it is.
    The first check of every shading genre's independent checker."""
    if len(solution) != rows or any(len(row) != cols for row in solution):
        return [f"solution is not {rows}x{cols}"]
    if not set().union(*solution) <= {"#", "."}:
        return ["solution holds characters other than '#' and '.'"]
    return []


def seen_from(solution: Sequence[str], r: int, c: int) -> int:
    """The unshaded cells of ``solution`` (rows of ``#`` shaded, anything else unshaded) seen from
    (r, c) in the four directions, up to the first shaded cell or the edge, (r, c) included (a
    shading checker's sightline count)."""
    rows, cols = len(solution), len(solution[0])
    count = 1
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        y, x = r + dr, c + dc
        while 0 <= y < rows and 0 <= x < cols and solution[y][x] != "#":
            count += 1
            y, x = y + dr, x + dc
    return count


def shading_rule_problems(grid: Grid, shaded: Collection[Cell]) -> list[str]:
    """The two rules many shading genres share, checked on a finished shading:
    shaded cells never share a side; the unshaded cells form one side-connected region. One
    message per touching pair, one for a split; empty when both hold. For independent checkers."""
    def name(p: Cell) -> str:
        return f"r{p[0] + 1}c{p[1] + 1}"

    problems = [f"shaded cells {name(p)} and {name(q)} touch"
                for p, q in grid.adjacent_pairs() if p in shaded and q in shaded]
    return problems + unshaded_split(grid, shaded)


def unshaded_split(grid: Grid, shaded: Collection[Cell]) -> list[str]:
    """The message for unshaded cells that do not form one side-connected region (naming each
    region's size and first cell), or none. For independent checkers."""
    regions = grid.components(p for p in grid.cells if p not in shaded)
    if len(regions) < 2:
        return []
    sizes = ", ".join(f"{len(region)} at r{region[0][0] + 1}c{region[0][1] + 1}" for region in regions)
    return [f"the unshaded cells form {len(regions)} separate regions ({sizes})"]


def king_packing_bound(cells: Iterable[Cell]) -> int:
    """An upper bound on how many of ``cells`` can be chosen with no two touching by a side or a
    corner: tile the plane by 2x2 blocks (four ways, by the tiling's offset); a block holds at
    most one chosen cell, so the fewest blocks ``cells`` meet under any offset bounds the count.
    Exact for a line of cells (``ceil(n / 2)``) and for rectangles of even sides."""
    cells = list(cells)
    return min(len({((r + dr) // 2, (c + dc) // 2) for r, c in cells})
               for dr in (0, 1) for dc in (0, 1))
