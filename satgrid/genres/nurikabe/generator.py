"""Nurikabe generator: a random valid solution, every island numbered with its size (the standard
Nikoli form), numbers placed so that the solution is unique; sizes turn into ``?`` only when asked
(``unknown_sizes``).

1. A solution (:class:`Layout`): every cell starts black. While some 2x2 block is all black, an
   island of a random size in ``islands`` (a range, default 1-6) grows from a random cell of such a
   block, one random cell at a time, through cells that touch no other island and whose loss keeps
   the black wall 4-connected (first tested inside the cell's 3x3 box, then, if that fails, over
   the whole wall). A block where nothing can grow loses a neighbouring island (its cells turn
   black; the wall stays connected, the island touched it) and growth goes on. So the result
   obeys every rule: islands of sizes in the range, separated by black cells, one connected black
   wall, no 2x2 black block.
2. Pins (:func:`flip_cells`): with every other island fixed, an island of ``n`` cells may have
   other shapes: ``n`` connected cells that touch no other island, keep the wall connected and
   leave no 2x2 block black (enumerated as connected subsets of the island's neighbourhood,
   Wernicke's ESU algorithm, each once). Such a shape is a second solution exactly when it holds
   the island's number, so the number goes on a cell of the island outside every such shape:
   the one that fewest *loose* shapes hold (:func:`fragility`: connected sets of the island's
   size over its cells and black cells, touching other islands or not, so the second solutions
   in which neighbouring islands move together are fewer), then the one with most island
   neighbours (a second solution moves an island's ends more often than its middle). An island
   with no such cell can never be pinned by its number: it is removed and the grid refilled
   around it.
3. Uniqueness (CEGAR over the numbers' places): one session per layout serves every placement
   of its numbers (:func:`~satgrid.genres.nurikabe.encode_places`: the core's placed islands,
   each island's number on one of its pinned cells, the cell chosen by assumptions), so the
   cuts and learnt clauses of one placement serve the next. It is asked for another solution
   of the placement, branching towards ours (:meth:`~satgrid.session.Session.prefer`), so it
   differs in few places; on big grids first inside squares (:data:`WINDOWS`, :func:`squares`;
   the other cells fixed by assumptions; a square that has none is skipped until a number
   beside it moves), then, once every square is quiet, on the whole grid (a placement whose
   squares gave rivals moves its numbers first: the whole grid is the slow question). The
   difference splits into local changes (cells that differ, joined when they share a 2x2
   window or an island of either solution); each
   change that alone keeps every rule is a second solution of its own (:class:`Rival`) and is
   remembered; the session then bars, by one clause behind an activation literal of the
   placement, every solution that blackens the same cells of our islands (a number on one of
   them kills them all) and is asked again, until a placement has :data:`PER_SESSION` rivals.
   Then numbers move inside their islands, onto pinned cells (among equal moves, onto the least
   fragile), until no remembered rival is a solution any more (a rival dies when one of its
   islands has no number, two, or the wrong size; counted per move in O(1)); a move that would
   revive a dead rival is made only when no other kills a live one, at most :data:`DETOURS`
   times a layout. When no move kills a rival,
   the layout changes where the rival differs: a new ``1`` island on a cell the rival paints
   white and ours leaves lonely (the rival's island there then holds two numbers), else the
   islands it changes are removed, all of them, and the grid refilled (a new layout: a new
   session; growing the rival's island in ours by a cell, or removing one island only, reshapes
   more often: measured in encodings/nurikabe.md; a remembered rival whose colouring the refill
   made ours is forgotten: it is our solution now). The new session starts with the wall's cuts
   of the layout's earlier sessions (a cut of the wall names cells only, so it holds whatever
   the numbers and islands: :meth:`~satgrid.connectivity.ConnectedSubgraph.side_cuts`), and the
   squares beside nothing the reshape changed stay quiet (measured in encodings/nurikabe.md).
   Then the next placement is asked, until one
   answers "no other solution" with nothing barred. A layout that has taken more
   than :data:`CALLS_PER_CELL` SAT calls a cell is dropped for a new one (a restart: the costly
   layouts are those whose islands slide together in long chains, each found by a slow
   question about the whole grid).
4. Flavours: "hard" accepts every unique puzzle; "normal" only one whose grade
   (:mod:`satgrid.grading`) is at most 1 (propagation and failed-literal probing solve it),
   else a new grid.
5. ``unknown_sizes``: sizes are relaxed to ``?`` in shuffled order while the solution stays
   unique (the core's greedy deletion on a session of the puzzle, one SAT call a size; for
   "normal" also while the grade stays at most 1). In Nurikabe a number cannot vanish (its
   cell is the island's seed), so this is the genre's clue switch, and the result is
   clue-minimal in the audit's sense (no size can become ``?``). Without it every island has
   its size; no number can be dropped either (an island without a number breaks the rules),
   but sizes may be redundant in the audit's sense, so the audit's ``minimal`` is not
   promised then.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Mapping

from ... import api
from ...connectivity import ConnectedSubgraph
from ...errors import SatgridError
from ...grading import assess
from ...grid import Grid
from ...queries import PuzzleQueries
from ...session import Session
from . import UNKNOWN, WALL, NurikabePuzzle, Places, encode, encode_places
from .checker import check_nurikabe

Cell = tuple[int, int]
Window = tuple[Cell, ...]
#: Shapes in a group: the cells ``known`` with each cell of ``last`` (see :func:`_shapes`).
Group = tuple[list[Cell], list[Cell]]
ISLANDS = (1, 6)
FLAVOURS = ("normal", "hard")
#: Islands larger than this are not searched for other shapes (their pins are all their cells):
#: the shapes of an island grow exponentially with its size; the SAT check finds them instead.
PIN_LIMIT = 9
#: Islands larger than this get no :func:`fragility` count (their shapes over black cells are many).
FRAGILITY_LIMIT = 6
#: Rivals a placement gathers (each barred before the next question) before the numbers move
#: (measured in encodings/nurikabe.md).
PER_SESSION = 2
#: Moves that revive a dead rival, allowed per layout when no other move kills a live one.
DETOURS = 20
#: The sides of the squares a second solution is first looked for in (see :func:`_rivals`): the
#: largest of which the grid holds more than two squares' cells (20x20: 12, 12x12: 8; measured in
#: encodings/nurikabe.md).
WINDOWS = (8, 12)


class Layout:
    """A grid being filled with islands (``owner[p]`` = island index, or None for black), each
    island's number (``seeds``) and the cells its number may take (``pins``, None when stale)."""

    def __init__(self, rows: int, cols: int):
        self.rows, self.cols = rows, cols
        grid = Grid.of(rows, cols)
        #: The side neighbours of a cell (up, down, left, right).
        self.near: Callable[[Cell], tuple[Cell, ...]] = grid.adjacency.__getitem__
        self.cells = grid.cells
        #: Cell indices (reading order) and their side neighbours, for :meth:`wall_connected`.
        self.index: Callable[[Cell], int] = grid.index
        self.near_index = grid.near
        #: ``dark[i]`` = 1 while cell ``i`` is black (kept by :meth:`set`).
        self.dark = bytearray(b"\x01" * (rows * cols))
        windows = grid.windows()
        self.windows_of: dict[Cell, list[Window]] = {p: [] for p in grid.cells}
        for window in windows:
            for p in window:
                self.windows_of[p].append(window)
        #: The 2x2 blocks that are all black (a dict: insertion order keeps runs reproducible).
        self.blocks: dict[Window, None] = dict.fromkeys(windows)
        self.owner: dict[Cell, int | None] = dict.fromkeys(grid.cells)
        self.islands: list[list[Cell]] = []
        self.seeds: list[Cell | None] = []
        self.pins: list[list[Cell] | None] = []
        self.black = rows * cols
        self.checks = 0  # calls of can_join: the work spent on this layout
        self.changed: set[Cell] = set()  # cells whose colour changed since the last refresh
        #: :func:`fragility` of the cells of the islands whose numbers were placed (kept from the
        #: last count of each island's cells; a move prefers the least fragile pin).
        self.fragile: dict[Cell, int] = {}

    # -- growth -------------------------------------------------------------------------------
    def can_join(self, p: Cell, island: int) -> bool:
        """Black ``p`` may turn white in ``island``: it touches no other island and the black
        cells stay connected without it."""
        self.checks += 1
        owner = self.owner
        if owner[p] is not None or self.black <= 1:
            return False
        if any(owner[q] is not None and owner[q] != island for q in self.near(p)):
            return False
        return self._black_connected_without(p)

    def _black_connected_without(self, p: Cell) -> bool:
        owner = self.owner
        black = [q for q in self.near(p) if owner[q] is None]
        if len(black) <= 1:
            return True  # p is an end of the wall (or its last cell but one)
        r, c = p
        box = {q for q in ((r - 1, c - 1), (r - 1, c), (r - 1, c + 1), (r, c - 1), (r, c + 1),
                           (r + 1, c - 1), (r + 1, c), (r + 1, c + 1)) if q in owner and owner[q] is None}
        if all(q in _reach(black[0], box.__contains__, self.near) for q in black[1:]):
            return True  # joined around p inside its 3x3 box
        return self.wall_connected(whiter=(p,))

    def wall_connected(self, whiter: Iterable[Cell] = (), blacker: Iterable[Cell] = ()) -> bool:
        """Whether the black cells are connected once the black cells ``whiter`` turn white and
        the white cells ``blacker`` turn black (a search over cell indices; the layout's
        colouring is not changed)."""
        dark, index, near = bytearray(self.dark), self.index, self.near_index
        for p in whiter:
            dark[index(p)] = 0
        for p in blacker:
            dark[index(p)] = 1
        total = dark.count(1)
        if total == 0:
            return True
        start = dark.find(1)
        dark[start] = 0  # a cell found is cleared: dark doubles as "not seen yet"
        stack, found = [start], 1
        while stack:
            for q in near[stack.pop()]:
                if dark[q]:
                    dark[q] = 0
                    found += 1
                    stack.append(q)
        return found == total

    def set(self, p: Cell, island: int | None) -> None:
        was_black = self.owner[p] is None
        self.black += (island is None) - was_black
        self.owner[p] = island
        self.dark[self.index(p)] = island is None
        if was_black != (island is None):
            self.changed.add(p)
        if island is None and not was_black:
            owner = self.owner
            for window in self.windows_of[p]:
                if all(owner[q] is None for q in window):
                    self.blocks[window] = None
        elif island is not None and was_black:
            for window in self.windows_of[p]:
                self.blocks.pop(window, None)

    def grow(self, start: Cell, size: int, smallest: int, rng: random.Random) -> bool:
        """An island of ``size`` cells (at least ``smallest``) from ``start``; False (and nothing
        changed) if it cannot reach ``smallest``."""
        index = len(self.islands)
        if not self.can_join(start, index):
            return False
        cells = [start]
        self.set(start, index)
        while len(cells) < size:
            frontier = sorted({q for p in cells for q in self.near(p) if self.owner[q] is None})
            rng.shuffle(frontier)
            nxt = next((q for q in frontier if self.can_join(q, index)), None)
            if nxt is None:
                break
            cells.append(nxt)
            self.set(nxt, index)
        if len(cells) < smallest:
            for p in cells:
                self.set(p, None)
            return False
        self.islands.append(cells)
        self.seeds.append(None)
        self.pins.append(None)
        return True

    def extend(self, p: Cell, largest: int) -> bool:
        """Add ``p`` to the one island it touches, if that island has fewer than ``largest``
        cells and the rules allow it."""
        owners = {self.owner[q] for q in self.near(p)} - {None}
        if len(owners) != 1:
            return False
        (island,) = owners
        if len(self.islands[island]) >= largest or not self.can_join(p, island):
            return False
        self.set(p, island)
        self.islands[island].append(p)
        return True

    def remove(self, i: int) -> None:
        """Island ``i`` turns black (the wall stays connected: the island touches it, or it is
        the only white); the last island takes its index."""
        for p in self.islands[i]:
            self.set(p, None)
        last = len(self.islands) - 1
        if i != last:
            self.islands[i], self.seeds[i], self.pins[i] = self.islands[last], self.seeds[last], self.pins[last]
            for p in self.islands[i]:
                self.owner[p] = i
        del self.islands[last], self.seeds[last], self.pins[last]

    def fill(self, rng: random.Random, lo: int, hi: int, budget: int) -> bool:
        """Grow islands of ``lo``-``hi`` cells until no 2x2 block is all black (see the module
        doc); False once the growth checks spent on this layout pass ``budget``."""
        while self.checks <= budget:
            if not self.blocks:
                if self.islands and self.black >= 1:
                    return True
                cells = [self.cells[rng.randrange(len(self.cells))]]  # a grid too thin for blocks
            else:
                blocks = list(self.blocks)
                a, b, c, d = blocks[rng.randrange(len(blocks))]
                cells = [a, c, b, d]  # column-major: seeded generation shuffles this order
                rng.shuffle(cells)
            if any(self.grow(p, rng.randint(lo, hi), lo, rng) or self.extend(p, hi) for p in cells):
                continue
            near = sorted({self.owner[q] for p in cells for q in self.near(p)} - {None})
            if near:
                self.remove(near[rng.randrange(len(near))])
        return False

    def black_blocks(self) -> list[Window]:
        """The 2x2 blocks (cells row-major, :meth:`~satgrid.grid.Grid.windows`) that are all black."""
        return list(self.blocks)

    # -- numbers ------------------------------------------------------------------------------
    def refresh(self, reach: int) -> None:
        """Mark stale the pins of the islands within ``reach`` rows and columns of a cell that
        changed colour since the last refresh."""
        if not self.changed:
            return
        # the changed cells widened along rows, then along columns (each cell once)
        rows, cols = self.rows, self.cols
        across = {(r, b) for r, c in self.changed for b in range(max(0, c - reach), min(cols, c + reach + 1))}
        near = {(a, b) for r, b in across for a in range(max(0, r - reach), min(rows, r + reach + 1))}
        for i, cells in enumerate(self.islands):
            if any(p in near for p in cells):
                self.pins[i] = None
        self.changed.clear()

    def pin(self, rng: random.Random, lo: int, hi: int, budget: int, rounds: int = 50) -> bool:
        """Pins for every island (:func:`flip_cells`), the number of each on one of them; an
        island that cannot be pinned is removed and the grid refilled. False when the budget or
        ``rounds`` run out."""
        for _ in range(rounds):
            self.refresh(hi + 2)
            unpinned = []
            for i, cells in enumerate(self.islands):
                if self.pins[i] is None:
                    flips = flip_cells(self, i) if len(cells) <= PIN_LIMIT else set()
                    self.pins[i] = [p for p in cells if p not in flips]
                    if self.seeds[i] not in self.pins[i] and self.pins[i]:
                        # the pinned cells in fewest other shapes, then with most island
                        # neighbours: a second solution moves an island's ends more often than
                        # its middle
                        mine = set(cells)
                        weight = fragility(self, i) if len(self.pins[i]) > 1 else {}
                        self.fragile.update(weight)
                        rank = {p: (-weight.get(p, 0), sum(q in mine for q in self.near(p))) for p in self.pins[i]}
                        choice = [p for p in self.pins[i] if rank[p] == max(rank.values())]
                        self.seeds[i] = choice[rng.randrange(len(choice))]
                if not self.pins[i]:
                    unpinned.append(i)
            if not unpinned:
                return True
            for i in sorted(unpinned, reverse=True):
                self.remove(i)
            if not self.fill(rng, lo, hi, budget):
                return False
        return False

    def white(self) -> set[Cell]:
        """The cells of the islands."""
        return {p for p in self.cells if self.owner[p] is not None}

    def numbers(self) -> dict[Cell, int]:
        return {p: len(cells) for p, cells in zip(self.seeds, self.islands)}

    def places(self) -> Places:
        """Per island, its size and its pinned cells (where its number may go)."""
        return tuple((len(cells), tuple(pins or ())) for cells, pins in zip(self.islands, self.pins))

    def puzzle(self) -> NurikabePuzzle:
        numbers = self.numbers()
        return NurikabePuzzle(tuple(tuple(numbers.get((r, c)) for c in range(self.cols))
                                    for r in range(self.rows)))

    def solution(self) -> tuple[str, ...]:
        return tuple("".join("#" if self.owner[r, c] is None else "." for c in range(self.cols))
                     for r in range(self.rows))


def _reach(start: Cell, inside: Callable[[Cell], bool], near: Callable[[Cell], tuple[Cell, ...]]) -> set[Cell]:
    """The cells ``inside`` connected to ``start`` (``start`` included)."""
    seen, stack = {start}, [start]
    while stack:
        for q in near(stack.pop()):
            if q not in seen and inside(q):
                seen.add(q)
                stack.append(q)
    return seen


# -- pins -----------------------------------------------------------------------------------------
def flip_cells(layout: Layout, i: int) -> set[Cell]:
    """The cells of island ``i`` that lie in another shape of it (every other island fixed) that
    keeps every rule: a number there leaves that second solution open (module doc, step 2)."""
    island = layout.islands[i]
    n, mine = len(island), set(island)
    owner, near = layout.owner, layout.near

    def free(q: Cell) -> bool:
        return owner[q] is None and all(owner[t] is None or owner[t] == i for t in near(q))

    covered: set[Cell] = set()
    for known, last in _island_shapes(layout, i, free):
        for p in last:
            shape = frozenset((*known, p))
            inside = shape & mine
            if len(inside) == n or inside <= covered or not _keeps_rules(layout, mine, shape):
                continue
            covered |= inside
            if len(covered) == n:
                return covered
    return covered


def fragility(layout: Layout, i: int) -> dict[Cell, int]:
    """For each cell of island ``i``, how many other shapes of the island hold it: connected sets
    of its size over its own cells and black cells, whether or not they touch other islands or
    keep the other rules (the neighbouring islands may move too). A number on a cell few of them
    hold leaves fewer second solutions in which several islands move at once (module doc, step
    2). Zero everywhere for islands above :data:`FRAGILITY_LIMIT` cells."""
    island = layout.islands[i]
    count = dict.fromkeys(island, 0)
    if len(island) > FRAGILITY_LIMIT:
        return count
    owner = layout.owner
    for known, last in _island_shapes(layout, i, lambda q: owner[q] is None):
        for p in known:  # in every shape of the group
            if p in count:
                count[p] += len(last)
        for p in last:
            if p in count:
                count[p] += 1
    return count


def _island_shapes(layout: Layout, i: int, free: Callable[[Cell], bool]) -> Iterator[Group]:
    """Every connected set of island ``i``'s size that holds one of its cells and is otherwise made
    of ``free`` cells, once each, in groups (:func:`_shapes`; the island itself included)."""
    island = layout.islands[i]
    n, mine, near = len(island), set(island), layout.near
    region, frontier = set(island), list(island)
    for _ in range(n - 1):
        frontier = [q for p in frontier for q in near(p) if q not in region and free(q)]
        region.update(frontier)
    # the island's cells first: a shape meeting the island has its first cell there (ESU root)
    order = {p: k for k, p in enumerate([*sorted(island), *sorted(region - mine)])}
    return _shapes(sorted(island), order, near, n)


def _shapes(roots: list[Cell], order: dict[Cell, int], near, n: int) -> Iterator[Group]:
    """Every connected ``n``-cell subset of ``order``'s cells whose first cell (in ``order``) is a
    root, once each: Wernicke's ESU ("Efficient detection of network motifs", 2006), extending a
    set only by neighbours after its root that no earlier cell of the set already touches. The
    search runs on the cells' positions in ``order``. The shapes come in groups ``(known, last)``:
    ``known`` and one cell of ``last`` (the search's last level), so a count need not build each
    shape (:func:`fragility`'s shapes are most of those the pins go through; encodings/nurikabe.md)."""
    cells = list(order)
    adj = [[order[u] for u in near(p) if u in order] for p in cells]

    def extend(shape: list[int], ext: list[int], root: int) -> Iterator[Group]:
        if len(shape) == n - 1:  # each cell of ext completes a shape: no further extension
            yield [cells[k] for k in shape], [cells[w] for w in reversed(ext)]
            return
        border = {*ext, *shape}
        for k in shape:
            border.update(adj[k])
        ext = list(ext)
        while ext:
            w = ext.pop()
            new = [u for u in adj[w] if u > root and u not in border]
            shape.append(w)
            yield from extend(shape, ext + new, root)
            shape.pop()

    for v in roots:
        root = order[v]
        if n == 1:
            yield [], [v]
        else:
            yield from extend([root], [u for u in adj[root] if u > root], root)


def _keeps_rules(layout: Layout, mine: set[Cell], shape: frozenset[Cell]) -> bool:
    """The island ``mine`` reshaped to ``shape`` leaves no 2x2 block black and the wall
    connected (the shape touches no other island by construction)."""
    owner = layout.owner
    gone, new = mine - shape, shape - mine

    def black(q: Cell) -> bool:
        return q in gone or (owner[q] is None and q not in new)

    if any(all(map(black, window)) for p in gone for window in layout.windows_of[p]):
        return False
    return layout.wall_connected(new, gone)


# -- second solutions -----------------------------------------------------------------------------
class Rival:
    """A colouring that keeps the number-free rules (islands apart, one wall, no 2x2 black): its
    islands, and, for one placement of the numbers (:meth:`load`), how many of them are broken
    (no number, two, or the wrong size) plus numbers on black cells. ``bad == 0``: the rival is a
    solution of that puzzle."""

    def __init__(self, white: set[Cell], near):
        self.white = white
        self.comp: dict[Cell, int] = {}
        self.sizes: list[int] = []
        for p in sorted(white):
            if p not in self.comp:
                cells = _reach(p, white.__contains__, near)
                self.comp.update(dict.fromkeys(cells, len(self.sizes)))
                self.sizes.append(len(cells))
        self.bad = 0
        #: The numbers the counts are for (``frozenset(numbers.items())``; None: not loaded).
        self.numbers: frozenset[tuple[Cell, int]] | None = None

    def load(self, numbers: Mapping[Cell, int]) -> int:
        self.numbers = frozenset(numbers.items())
        self.count = [0] * len(self.sizes)
        self.total = [0] * len(self.sizes)
        on_black = 0
        for p, n in numbers.items():
            k = self.comp.get(p)
            if k is None:
                on_black += 1
            else:
                self.count[k] += 1
                self.total[k] += n
        self.bad = on_black + sum(not (c == 1 and t == s) for c, t, s in zip(self.count, self.total, self.sizes))
        return self.bad

    def after(self, n: int, s: Cell, p: Cell) -> int:
        """``bad`` once the number ``n`` moves from ``s`` to ``p`` (after :meth:`load`)."""
        comp, count, total, sizes = self.comp, self.count, self.total, self.sizes
        ks, kp = comp.get(s), comp.get(p)
        bad = self.bad - (ks is None) + (kp is None)
        if ks == kp:
            return bad
        if ks is not None:
            bad += (not (count[ks] == 2 and total[ks] - n == sizes[ks])) - (not (count[ks] == 1 and total[ks] == sizes[ks]))
        if kp is not None:
            bad += (not (count[kp] == 0 and n == sizes[kp])) - (not (count[kp] == 1 and total[kp] == sizes[kp]))
        return bad

    def move(self, n: int, s: Cell, p: Cell) -> None:
        """The number ``n`` moves from ``s`` to ``p``: the counts of :meth:`load` follow in O(1)."""
        self.bad = self.after(n, s, p)
        for cell, step in ((s, -1), (p, 1)):
            k = self.comp.get(cell)
            if k is not None:
                self.count[k] += step
                self.total[k] += step * n


def _changes(layout: Layout, white: set[Cell]) -> list[list[Cell]]:
    """The cells where ``white`` differs from the layout, in groups: joined when they share a 2x2
    window or an island of either colouring (islands overlapping in both join too)."""
    owner = layout.owner
    differ = [p for p in layout.cells if (owner[p] is not None) != (p in white)]
    theirs = Rival(white, layout.near).comp
    parent: dict[object, object] = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a, b) -> None:
        parent[find(a)] = find(b)

    for p in white:
        if owner[p] is not None:
            union(("ours", owner[p]), ("theirs", theirs[p]))
    marked = set(differ)
    for p in differ:
        parent.setdefault(p, p)
        for window in layout.windows_of[p]:
            for q in window:
                if q in marked:
                    union(p, q)
        union(p, ("ours", owner[p]) if owner[p] is not None else ("theirs", theirs[p]))
    groups: dict[object, list[Cell]] = {}
    for p in differ:
        groups.setdefault(find(p), []).append(p)
    return list(groups.values())


def _wall_ok(layout: Layout, white: set[Cell], changed: list[Cell]) -> bool:
    """The colouring ``white`` (the layout's, changed at ``changed``) has one black wall and no
    2x2 black block."""
    def black(q: Cell) -> bool:
        return q not in white

    if any(all(map(black, window)) for p in changed if p not in white for window in layout.windows_of[p]):
        return False
    return layout.wall_connected([p for p in changed if p in white], [p for p in changed if p not in white])


def squares(rows: int, cols: int) -> list[set[Cell]]:
    """The squares, overlapping by half, that second solutions are first looked for in: of the
    largest side in :data:`WINDOWS` whose squares the grid holds more than two of in cells (none
    on smaller grids)."""
    sides = [side for side in WINDOWS if rows * cols > 2 * side * side]
    if not sides:
        return []
    side = max(sides)
    step = side // 2
    return [{(r, c) for r in range(r0, min(rows, r0 + side)) for c in range(c0, min(cols, c0 + side))}
            for r0 in range(0, max(1, rows - step), step) for c0 in range(0, max(1, cols - step), step)]


def _rivals(layout: Layout, session: Session, queries: PuzzleQueries, projection: tuple[int, ...],
            numbers: Mapping[Cell, int], limit: int, ask: list[set[Cell]],
            bar: int) -> tuple[list[Rival] | None, list[set[Cell]]]:
    """Up to ``limit`` rivals of the layout's puzzle, each local change of a second solution that
    alone keeps the rules one rival (module doc, step 3), None if the puzzle is unique; and the
    squares of ``ask`` found to hold none.

    The session is first asked inside each square of ``ask`` (every cell outside it fixed to
    ours by assumptions), where most second solutions lie and the search is small, each square
    again while it has one; the whole grid is asked after, once, and only when the squares gave
    no rival (a question about the whole grid takes several times the SAT calls of a square's;
    the rivals found are killed first). Only an unsat answer of the whole grid, with nothing
    barred yet, means unique. The bars hold while ``bar`` is assumed (as
    every question here does): the session serves the layout's next placement too."""
    black = session.encoding.primary
    ours = layout.white()
    found: list[Rival] = []
    todo, quiet = list(ask), []
    while len(found) < limit:
        square = todo[-1] if todo else None
        if square is None and found:
            break  # the whole grid only once the squares are quiet
        fixed = [] if square is None else [-v if (r, c) in ours else v for (_, r, c), v in black.items()
                                           if (r, c) not in square]
        other = queries.other_solution(projection, extra=[bar, *fixed])
        if other.status == "unknown":
            raise SatgridError("a limit was reached while generating")
        if other.status == "unsat":
            if square is None:
                return found or None, quiet
            quiet.append(todo.pop())
            continue
        assert other.assignment is not None
        value = other.assignment
        white = {(r, c) for (_, r, c), v in black.items() if not value(v)}
        bars = []
        for group in _changes(layout, white):
            local = (ours - set(group)) | (set(group) & white)
            rival = Rival(local, layout.near)
            if rival.load(numbers) == 0 and _wall_ok(layout, local, group):
                found.append(rival)
                # every solution that paints all of our cells lost here black is a rival killed
                # by a number on one of them: barred at once, the session looks elsewhere
                lost = [-black["black", r, c] for r, c in group if (r, c) in ours]
                bars.append(lost or [black["black", r, c] for r, c in group])
        if not bars:  # the changes need each other: the whole second solution is the rival
            found.append(Rival(white, layout.near))
            bars.append([-v if value(v) else v for v in black.values()])
        session.add([[-bar, *clause] for clause in bars])
    return found, quiet


def _settle(layout: Layout, rivals: list[Rival], rng: random.Random, detours: list[int]) -> Rival | None:
    """Move numbers onto pinned cells until no rival is a solution. Each move kills the first
    live rival; it is one that revives no dead rival and kills most others, else (while
    ``detours[0]``, counted down, is positive; never undoing the move before) the one that kills
    most others net of those it revives; among equals, one onto the least fragile pin
    (:func:`fragility`, as the numbers were first placed), then at random. The rival no move
    kills, or None when every rival is dead. Only the rivals whose counts are for other numbers
    are counted again (the others moved with every move of the last call)."""
    numbers = layout.numbers()
    now = frozenset(numbers.items())
    for rival in rivals:
        if rival.numbers != now:
            rival.load(numbers)
    try:
        return _moves(layout, rivals, rng, detours, numbers)
    finally:
        now = frozenset(numbers.items())  # every rival moved with every move
        for rival in rivals:
            rival.numbers = now


def _moves(layout: Layout, rivals: list[Rival], rng: random.Random, detours: list[int],
           numbers: dict[Cell, int]) -> Rival | None:
    """The moves of :func:`_settle`, on rivals counted for ``numbers`` (kept up to date)."""
    last = None
    while True:
        live = [rival for rival in rivals if rival.bad == 0]
        if not live:
            return None
        target, best, score, detour, net = live[0], [], -1, [], None
        for i, cells in enumerate(layout.islands):
            n, s = len(cells), layout.seeds[i]
            for p in layout.pins[i] or ():
                if p == s or target.after(n, s, p) == 0 or (i, p) == last:
                    continue
                kills = revived = 0
                for rival in rivals:
                    after = rival.after(n, s, p)
                    revived += after == 0 and rival.bad > 0
                    kills += after > 0 and rival.bad == 0
                if not revived:
                    if kills > score:
                        best, score = [(i, p)], kills
                    elif kills == score:
                        best.append((i, p))
                elif not best and detours[0] > 0:
                    if net is None or kills - revived > net:
                        detour, net = [(i, p)], kills - revived
                    elif kills - revived == net:
                        detour.append((i, p))
        if not best:
            if not detour:
                return target
            best = detour
            detours[0] -= 1
        low = min(layout.fragile.get(p, 0) for _, p in best)  # the least fragile among the best
        best = [(i, p) for i, p in best if layout.fragile.get(p, 0) == low]
        i, p = best[rng.randrange(len(best))]
        last = (i, layout.seeds[i])
        for rival in rivals:
            rival.move(len(layout.islands[i]), layout.seeds[i], p)
        del numbers[layout.seeds[i]]
        layout.seeds[i] = p
        numbers[p] = len(layout.islands[i])


def _reshape(layout: Layout, rival: Rival, rng: random.Random, lo: int, hi: int, budget: int) -> bool:
    """Change the layout where ``rival`` differs (module doc, step 3); False when refilling runs
    out of budget."""
    owner, near = layout.owner, layout.near
    white = sorted(p for p in rival.white if owner[p] is None)
    rng.shuffle(white)
    if lo <= 1:
        for p in white:
            if all(owner[q] is None for q in near(p)) and layout.can_join(p, len(layout.islands)):
                layout.set(p, len(layout.islands))
                layout.islands.append([p])
                layout.seeds.append(p)
                layout.pins.append([p])
                return True
    changed = sorted({owner[p] for p in layout.cells if owner[p] is not None and p not in rival.white}
                     | {owner[q] for p in white for q in near(p) if owner[q] is not None})
    for i in reversed(changed):  # all of them (one at random reshapes more: encodings/nurikabe.md)
        layout.remove(i)  # the last island takes index i, so the higher indices go first
    return layout.fill(rng, lo, hi, budget)


# -- the generator --------------------------------------------------------------------------------
#: Fresh grids :func:`random_solution` starts before it gives up, and the island-growth checks
#: (:meth:`Layout.can_join`) it may spend per cell of the grid in all.
RESTARTS = 1000
CHECKS_PER_CELL = 1000
#: SAT calls a layout may take, per cell of the grid, before :func:`make` starts a new one.
CALLS_PER_CELL = 6


def check_options(rows: int, cols: int, islands: tuple[int, int] = ISLANDS, **_: object) -> None:
    """Refuse a request no attempt can serve: an island range that is empty or starts below 1,
    or a smallest island that leaves no cell for the black wall."""
    lo, hi = islands
    if not 1 <= lo <= hi:
        raise SatgridError(f"island sizes must be a range 1 <= min <= max, not {lo}-{hi}")
    if rows * cols < 2:
        raise SatgridError("a Nurikabe needs at least two cells")
    if lo > rows * cols - 1:
        raise SatgridError(f"an island of {lo} cells leaves no black cell in a {rows}x{cols} grid "
                           f"(rows x columns, {rows * cols} cells): the smallest island size is at "
                           f"most {rows * cols - 1}")


def random_solution(rows: int, cols: int, rng: random.Random, islands: tuple[int, int] = ISLANDS) -> Layout:
    """A random valid Nurikabe solution with island sizes in ``islands`` (see the module doc); at
    most :data:`RESTARTS` grids and :data:`CHECKS_PER_CELL` growth checks a cell in all."""
    check_options(rows, cols, islands)
    lo, hi = islands
    budget, spent = CHECKS_PER_CELL * rows * cols, 0
    for _ in range(RESTARTS):
        layout = Layout(rows, cols)
        if layout.fill(rng, lo, hi, budget - spent):
            return layout
        spent += layout.checks
        if spent > budget:
            break
    raise SatgridError(f"no {rows}x{cols} Nurikabe solution with islands of {lo}-{hi} cells found "
                       f"within {RESTARTS} grids and {budget:,} growth checks: try other --islands")


@dataclass
class Generated:
    """A generated puzzle with its solution and counters."""

    puzzle: NurikabePuzzle
    solution: tuple[str, ...]
    grids: int = 0
    moves: int = 0
    checks: int = 0  # SAT calls for uniqueness (and relaxing)
    reshapes: int = 0
    times: dict[str, float] = field(default_factory=dict)


def make(rows: int, cols: int, rng: random.Random, *, flavour: str = "hard",
         islands: tuple[int, int] = ISLANDS, unknown_sizes: bool = False,
         options: api.Options = api.Options(), max_sessions: int | None = None,
         max_grids: int = 200) -> Generated:
    """A unique ``rows`` x ``cols`` Nurikabe (see the module doc), with counters."""
    if flavour not in FLAVOURS:
        raise SatgridError(f"flavour must be one of {', '.join(FLAVOURS)}, not {flavour!r}")
    lo, hi = islands
    times = {"grid": 0.0, "unique": 0.0, "relax": 0.0}
    out = Generated(NurikabePuzzle(()), (), times=times)
    for out.grids in range(1, max_grids + 1):
        start = time.perf_counter()
        layout = random_solution(rows, cols, rng, islands)
        budget = layout.checks + CHECKS_PER_CELL * rows * cols
        pinned = layout.pin(rng, lo, hi, budget)
        times["grid"] += time.perf_counter() - start
        if not pinned:
            continue
        start = time.perf_counter()
        rivals: list[Rival] = []
        # squares with no second solution for the numbers as they are (module doc, step 3)
        areas, quiet = squares(rows, cols), []
        detours = [DETOURS]
        spent = out.checks  # SAT calls before this layout
        session: Session | None = None  # the layout's (module doc, step 3)
        sides: list[frozenset[Cell]] = []  # the wall's cuts of the layout's earlier sessions
        try:
            for _ in range(max_sessions if max_sessions is not None else 4 * len(layout.islands)):
                solution, puzzle = layout.solution(), layout.puzzle()
                if session is None:  # a new layout (a move keeps each number in its island)
                    _check(puzzle, solution)
                    session = Session(encode_places(rows, cols, layout.places()), options.solver,
                                      options.connectivity, options.conflict_limit)
                    projection = _projection(session, solution)
                    session.prefer(projection)
                    _carry(session, sides, layout)
                queries = PuzzleQueries(session, puzzle.clues())
                calls = session.stats.sat_calls
                ask = [a for a in areas if a not in quiet]
                bar = session.encoding.pool.fresh("bar")  # this placement's bars (see _rivals)
                found, calm = _rivals(layout, session, queries, projection, layout.numbers(),
                                      PER_SESSION, ask, bar)
                quiet += calm
                out.checks += session.stats.sat_calls - calls
                if found is None:
                    if flavour == "normal" and assess(puzzle, solver=options.solver).level not in (0, 1):
                        break  # unique, but not a propagation puzzle: a new grid
                    times["unique"] += time.perf_counter() - start
                    _check(puzzle, solution)
                    out.puzzle, out.solution = puzzle, solution
                    if unknown_sizes:
                        start = time.perf_counter()
                        kept, calls = _relax(puzzle, solution, rng, flavour, options)
                        out.checks += calls
                        out.puzzle = puzzle.with_clues(kept)
                        times["relax"] += time.perf_counter() - start
                    return out
                queries.retire()
                session.add([[-bar]])
                rivals.extend(found)
                if out.checks - spent > CALLS_PER_CELL * rows * cols:
                    break  # a costly layout: a new one (module doc, step 3)
                before = list(layout.seeds)
                stuck = _settle(layout, rivals, rng, detours)
                moved = {q for i, (a, b) in enumerate(zip(before, layout.seeds)) if a != b
                         for p in layout.islands[i] for q in (p, *layout.near(p))}
                out.moves += sum(a != b for a, b in zip(before, layout.seeds))
                # a square's answer depends on the numbers of the islands in it or beside it
                quiet = [a for a in quiet if a.isdisjoint(moved)]
                if stuck is not None:
                    detours[0] = DETOURS
                    out.reshapes += 1
                    was = (layout.white(), set(layout.numbers().items()))
                    # the wall's cuts are facts about the grid: the next session starts with them
                    sides = list(dict.fromkeys([*sides, *_wall(session).sides()]))
                    session.close()
                    session = None
                    if not (_reshape(layout, stuck, rng, lo, hi, budget) and layout.pin(rng, lo, hi, budget)):
                        break
                    # the squares beside nothing the reshape changed stay quiet (with the wall's
                    # cuts carried, the new session need not learn them again square by square)
                    touched = _touched(layout, *was)
                    quiet = [a for a in quiet if a.isdisjoint(touched)]
                    # a refill can make a remembered rival's colouring ours: no rival any more
                    # (no move kills it, so the layout would be stuck at once, again and again)
                    ours = layout.white()
                    rivals = [rival for rival in rivals if rival.white != ours]
        finally:
            if session is not None:
                session.close()
        times["unique"] += time.perf_counter() - start
    raise SatgridError(f"no unique {rows}x{cols} Nurikabe after {max_grids} grids")


def _touched(layout: Layout, white: set[Cell], numbers: set[tuple[Cell, int]]) -> set[Cell]:
    """The cells a reshape changed, from the layout's ``white`` cells and ``numbers`` before it:
    those that changed colour, the cells of the islands whose number moved or changed, and the
    cells beside either (a square's answer depends on them)."""
    changed = white ^ layout.white()
    for p, _ in numbers ^ set(layout.numbers().items()):
        i = layout.owner[p]
        changed.update(layout.islands[i] if i is not None else (p,))
    return {q for p in changed for q in (p, *layout.near(p))}


def _wall(session: Session) -> ConnectedSubgraph:
    """The session's rule of the black wall (a :class:`~satgrid.connectivity.ConnectedSubgraph`)."""
    return next(rule for rule in session.encoding.rules if rule.name == WALL)


def _carry(session: Session, sides: list[frozenset[Cell]], layout: Layout) -> None:
    """The wall's cuts of the layout's earlier sessions (``sides``) into a new session, and the
    wall's new cuts recorded. A cut of the wall is a fact about the grid alone, whatever the
    numbers and islands (:meth:`~satgrid.connectivity.ConnectedSubgraph.side_cuts`), so a
    reshape need not learn again the cuts of the cells it left alone; the far cells that make
    a cut act are black cells of the layout spread over the grid (one a 4x4 block)."""
    wall = _wall(session)
    if any(rule is wall for rule in session.lazy_rules):  # not under the eager or propagator lowering
        wall.record_sides()
    if sides:
        far = [p for p in layout.cells if layout.owner[p] is None and p[0] % 4 == 2 and p[1] % 4 == 2]
        session.add(wall.side_cuts(sides, far, session.encoding.pool))


def _check(puzzle: NurikabePuzzle, solution: tuple[str, ...]) -> None:
    """The independent checker's word on a layout and its numbers (an internal error if it
    finds a broken rule)."""
    problems = check_nurikabe(puzzle.rows, puzzle.cols, puzzle.numbers(), solution)
    if problems:
        raise SatgridError(f"internal error: a generated Nurikabe solution breaks a rule: {problems[0]}")


def _projection(session: Session, solution: tuple[str, ...]) -> tuple[int, ...]:
    """``solution`` as the literals of the session's primary (black) variables."""
    return tuple(v if solution[r][c] == "#" else -v for (_, r, c), v in session.encoding.primary.items())


def _relax(puzzle: NurikabePuzzle, solution: tuple[str, ...], rng: random.Random, flavour: str,
           options: api.Options) -> tuple[dict[Cell, int], int]:
    """Turn sizes into ``?`` in shuffled order while the solution stays unique (and, for the
    normal flavour, the grade stays at most 1), by the core's greedy deletion
    (:meth:`~satgrid.queries.PuzzleQueries.minimal_clue_set`) on a session of the puzzle itself
    (there a clue switched off is a ``?``, on the layout's session an empty cell); the sizes
    kept and the SAT calls made."""
    clues = puzzle.clues()
    order = sorted(clues)
    rng.shuffle(order)

    def gradable(removed: list[Cell]) -> bool:
        gone = set(removed)
        rest = {k: v for k, v in clues.items() if k not in gone}
        return assess(puzzle.with_clues(rest), solver=options.solver).level in (0, 1)

    session = Session(encode(puzzle), options.solver, options.connectivity, options.conflict_limit)
    try:
        kept = PuzzleQueries(session, clues).minimal_clue_set(
            _projection(session, solution), order, gradable if flavour == "normal" else None, settle=True)
    finally:
        session.close()
    if kept is None:
        raise SatgridError("a limit was reached while generating")
    return {k: clues[k] for k in kept}, session.stats.sat_calls


def generate(rows: int, cols: int, rng: random.Random, *, flavour: str | None = "hard",
             islands: tuple[int, int] = ISLANDS, unknown_sizes: bool = False,
             options: api.Options = api.Options()) -> NurikabePuzzle:
    """A unique ``rows`` x ``cols`` Nurikabe with island sizes in ``islands``, every island
    numbered with its size; ``unknown_sizes``: sizes relaxed to ``?`` while unique ("hard":
    clue-minimal, no size can become ``?``; "normal": while the grade stays at most 1). "normal"
    puzzles are solved by propagation and probing (grade <= 1)."""
    return make(rows, cols, rng, flavour=flavour or "hard", islands=islands,
                unknown_sizes=unknown_sizes, options=options).puzzle


def promises_minimal(level: int | None, flavour: str, unknown_sizes: bool = False, **_: object) -> bool:
    """Clue-minimal in the audit's sense (no size can become ``?``) only with ``unknown_sizes``
    and the hard flavour: a puzzle with every size given usually has sizes the audit finds
    redundant."""
    return unknown_sizes and flavour != "normal"


def report(puzzle: NurikabePuzzle) -> dict[str, int]:
    """The numbers of the puzzle and how many of them are ``?`` (0: the standard form)."""
    numbers = puzzle.numbers()
    return {"numbers": len(numbers), "unknown_sizes": sum(v == UNKNOWN for v in numbers.values())}
