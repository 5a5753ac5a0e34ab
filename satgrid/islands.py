"""Islands with one seed: the core rule for genres whose white cells fall into islands around
given numbered cells.

Rule (:meth:`satgrid.model.Model.islands_with_one_seed`): every white region ("island", 4-connected
white cells) holds exactly one seed cell; a seed with a size ``n`` has an island of exactly ``n``
cells, a seed without one (``None``, a ``?`` number) an island of any size. Seeds are white.

Lowering (clause counts in ``encodings/rules.md``; proofs and measurements in the encodings
document of the genre that first used it):

1. **Reach** (:func:`reach`): island ``i`` of size ``n`` covers only cells at BFS distance < ``n``
   from its seed through cells that neither are nor touch another seed (any distance without a
   size). Proof: an island is connected, so each of its cells lies on a path of island cells from
   the seed of fewer than ``n`` steps; a white cell touching another seed is in that seed's island.
2. **Crowded cells** (:func:`crowded`): a cell touching two seeds is not white (a unit clause):
   white, it would join two islands. This holds whatever sizes are known.
3. **Labels** ``("label", seed, cell)`` = "the cell is white and in this seed's island", only on
   the seed's reach: a label implies white, spreads to white neighbours inside the reach, and the
   seed carries its own.
4. **Sizes are clues** (:meth:`SeededIslands.size`, behind the clue's selector, so a size switched
   off turns the seed into a seed without size: an exact relaxation for audits): exactly ``n``
   labelled cells (:func:`satgrid.cnf.exactly` by a capped totalizer), a labelled cell's
   neighbour outside the reach is not white, and a labelled cell other than the seed has a
   labelled neighbour (local connectivity; from ``eager_from`` on, the core's parent pointers
   inside the reach instead).
   From size 3 on, *levels* (:meth:`SeededIslands._levels`) keep the island connected inside the
   search: a labelled cell lies within ``n - 1`` steps of the seed through labelled cells
   (bounded-distance reach, up to :data:`LEVELS_LIMIT` variables an island; measured in
   ``encodings/rules.md``).
5. ``all`` (the literal ``("all",)``) holds iff every sized seed's clue is on; behind it, a white
   cell carries the label of some seed that reaches it (cells no seed reaches are not white).
   The clue :meth:`SeededIslands.sizeless` states one seed without its size and the others with
   theirs: labels for that seed on its unbounded reach, and the same rule over them.
6. **Global rule** :class:`Islands`: every white region holds exactly one seed. Lazy: CEGAR cuts
   (a region without a seed grows or vanishes; a labelled cell of such a region has a labelled
   path out while its clue is on; a region with two seeds loses a cell of a shortest path between
   them); with ``one_wall`` (the cells outside the islands form one connected wall), barrier
   cuts on grids of more than :data:`BARRIER_CELLS` cells (:class:`Islands`). Eager: every
   white cell reaches a seed (the core's anchored
   :class:`~satgrid.connectivity.ConnectedSubgraph` over a virtual node joined to the seeds) and
   carries a binary island number, equal across white neighbours and fixed on each seed.

Labels on size-bounded reaches rather than a label per seed on every cell keep the CNF small
(measured in the encodings documents).

**Placed islands** (``places``; :meth:`SeededIslands._placed`): an island of known size whose
seed is on exactly one of several cells, the place chosen by assumptions (a generator that moves
numbers keeps one solver for all their placements). Its labels sit on the reach of all its
places; a cell that is or touches every place of an island counts as touching its seed (a
reach stops there, and a cell touching two such islands is crowded). Exact for every placement
(brute force in tests/test_placed_islands.py); the cuts of the global rule name the places they
rest on, so they serve every later placement.

The encoder works on cell indices (reading order, the tables of :class:`~satgrid.grid.Grid`):
lists indexed by cell beat dicts of tuples here (n7's encoding is built in a few milliseconds).
"""
from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Hashable, Iterable, Mapping, Sequence

from .cnf import Clause, VarPool, exactly
from .connectivity import ConnectedSubgraph, Keep, TruthReader, holds
from .errors import SatgridError
from .global_rule import GlobalRule
from .grid import Cell, Grid
from .puzzle import cell_name

if TYPE_CHECKING:
    from .model import Clue, Model

Near = Sequence[Sequence[int]]
#: The clue value of :meth:`SeededIslands.sizeless` (a seed's number read as ``?``).
SIZELESS = "?"
#: The most level variables one island's connectivity gets (an island of 994 cells on a 32x32
#: grid would need a million); beyond it, local connectivity and the lazy cuts.
LEVELS_LIMIT = 30_000
#: Barrier cuts (:class:`Islands`) only on grids of more cells than this: on 10x10 grids their
#: extra cuts cost more than the rounds they save (measured in the encodings document of the
#: genre that first used islands).
BARRIER_CELLS = 100


# -- reach ---------------------------------------------------------------------------------------
def touching(seeds: Iterable[int], near: Near, size: int) -> list[list[int]]:
    """For each cell index, the seeds (indices) it is or touches."""
    touch: list[list[int]] = [[] for _ in range(size)]
    for p in seeds:
        touch[p].append(p)
        for q in near[p]:
            touch[q].append(p)
    return touch


def reach_indices(start: int, size: int | None, near: Near, touch: list[list[int]]) -> dict[int, int]:
    """:func:`reach` on cell indices (``touch`` from :func:`touching`)."""
    return reach_from([start], size, near, touch, start)


def reach_from(starts: Sequence[int], size: int | None, near: Near, touch: list[list[int]],
               own: int) -> dict[int, int]:
    """The cells within ``size - 1`` steps of some of ``starts`` through cells that touch no seed
    but ``own`` (in ``touch``), with their distance (:func:`reach` for an island whose seed is
    one of ``starts``)."""
    dist = dict.fromkeys(starts, 0)
    queue = deque(starts)
    while queue:
        p = queue.popleft()
        d = dist[p]
        if size is not None and d >= size - 1:
            continue
        for q in near[p]:
            if q not in dist:
                seeds = touch[q]
                if seeds.count(own) == len(seeds):  # it touches no seed but ``own``
                    dist[q] = d + 1
                    queue.append(q)
    return dist


def reach(grid: Grid, seeds: Iterable[Cell], seed: Cell, size: int | None) -> dict[Cell, int]:
    """Cells the island of ``seed`` can cover, with their BFS distance: paths of fewer than
    ``size`` steps (any length for None) through cells that neither are nor touch another of
    ``seeds`` (see the module doc for the proof)."""
    cells = grid.cells
    touch = touching((grid.index(p) for p in seeds), grid.near, len(cells))
    return {cells[q]: d for q, d in reach_indices(grid.index(seed), size, grid.near, touch).items()}


def level_cost(dist: Mapping[int, int] | Mapping[Cell, int], size: int) -> int:
    """What :data:`LEVELS_LIMIT` bounds for an island of ``size`` cells over the reach ``dist``
    (cell -> distance from the seed, as :func:`reach` gives it): ``size - distance`` summed over
    the reach, about its level variables (:meth:`SeededIslands._levels`)."""
    return sum(size - d for d in dist.values())


def has_levels(dist: Mapping[int, int] | Mapping[Cell, int], size: int) -> bool:
    """Whether an island of ``size`` cells over the reach ``dist`` is kept connected by levels
    (unless it is eager): from size 3 on, while its :func:`level_cost` is at most
    :data:`LEVELS_LIMIT`; beyond, by local connectivity and the lazy cuts."""
    return size > 2 and level_cost(dist, size) <= LEVELS_LIMIT


def crowded(grid: Grid, seeds: Iterable[Cell]) -> set[Cell]:
    """Cells (not seeds) touching two different seeds: white, they would join two islands."""
    seeds = set(seeds)
    count: dict[Cell, int] = {}
    for p in seeds:
        for q in grid.neighbours(p):
            if q not in seeds:
                count[q] = count.get(q, 0) + 1
    return {q for q, k in count.items() if k >= 2}


# -- the rule as built -------------------------------------------------------------------------------
class SeededIslands:
    """What :meth:`~satgrid.model.Model.islands_with_one_seed` built: the labels on each seed's
    reach, the ``all`` literal, the crowded cells, the global rule, and :meth:`size` (the clue
    "this seed's island has n cells")."""

    def __init__(self, m: "Model", name: str, white: Mapping[Cell, int],
                 seeds: Mapping[Cell, int | None], eager_from: int | None = None,
                 places: Sequence[tuple[int, Sequence[Cell]]] = (), one_wall: bool = False):
        grid = m.grid
        pool = m.pool
        cells, near = grid.cells, grid.near
        size = len(cells)
        self.name, self.grid, self.eager_from = name, grid, eager_from
        self.seeds: dict[Cell, int | None] = dict(seeds)
        numbers = {grid.index(p): v for p, v in seeds.items()}
        sized = {p: v for p, v in numbers.items() if v is not None}
        #: Islands whose seed is one of several cells (:meth:`_placed`): ``(size, places)`` each.
        self.places = [(n, tuple(group)) for n, group in places]
        #: Per place, the literal "the seed of its island is here" (the clue ``(place, size)``).
        self.present: dict[Cell, int] = {p: m.switch(p, n) for n, group in self.places for p in group}
        where = [[grid.index(p) for p in group] for _, group in self.places]
        if len(self.present) != sum(map(len, where)) or not self.present.keys().isdisjoint(self.seeds) \
                or not all(group and isinstance(n, int) and n >= 1 for n, group in self.places):
            raise SatgridError(f"{name}: each placed island needs a size of at least 1 and places of "
                               "its own, none of them a seed")
        self._white = white_lit = [white[p] for p in cells]
        self._touch = touch = touching(numbers, near, size)
        for g, group in enumerate(where):  # a cell that is or touches every place of an island
            for q in set.intersection(*({p, *near[p]} for p in group)):
                touch[q].append(-1 - g)
        self._dark = dark = [len(touch[q]) >= 2 and q not in numbers for q in range(size)]
        #: Cells touching two seeds: never white.
        self.crowded: list[Cell] = [cells[p] for p in range(size) if dark[p]]
        m.require(f"{name}: a cell touching two seeds is not white",
                  ([-white_lit[p]] for p in range(size) if dark[p]))

        # Labels on each seed's reach; a label spreads to white neighbours inside the reach.
        self._reach = reaches = {i: reach_indices(i, sized.get(i), near, touch) for i in numbers}
        # a placed island's labels sit on the reach of all its places, keyed by its first place
        starts = [[p for p in group if all(t == -1 - g for t in touch[p])] for g, group in enumerate(where)]
        self._rep = {p: group[0] for group in where for p in group}
        reaches.update((where[g][0], reach_from(starts[g], n, near, touch, -1 - g))
                       for g, (n, _) in enumerate(self.places))
        self._labels = labels = {}
        self._labels_of = labels_of = [[] for _ in range(size)]  # type: list[list[int]]
        clauses: list[Clause] = []
        for i, dist in reaches.items():
            ci = cells[i]
            own = labels[i] = {q: pool.var("label", *ci, *cells[q]) for q in dist}
            for q, lit in own.items():
                labels_of[q].append(lit)
                white_q = white_lit[q]
                clauses.append([-lit, white_q])
                for s in near[q]:
                    other = own.get(s)
                    if other is not None:
                        clauses.append([-lit, -white_lit[s], other])
            if i in numbers:
                clauses.append([own[i]])
        m.require(f"{name}: labels spread over each seed's reach", clauses)
        if self.places:
            m.require(f"{name}: a placed island has its size and its seed on one of its places, "
                      "and no other island comes near it", self._placed(m, numbers, where, starts))

        # ``all`` <-> every sized seed's clue is on; then a white cell carries a label.
        self.all = everything = pool.var("all")
        self.selectors = {cells[p]: m.switch(cells[p], v) for p, v in sized.items()}
        sel = list(self.selectors.values())
        m.require(f"{name}: all sizes are on",
                  [*([-everything, s] for s in sel), [everything, *(-s for s in sel)]])
        m.require(f"{name}: with all sizes on, a white cell is in a reach",
                  ([-white_lit[p], -everything, *labels_of[p]] for p in range(size)
                   if p not in numbers and not dark[p]))

        open_cells = {cells[p]: white_lit[p] for p in range(size) if not dark[p]}
        # No barrier cuts with placed islands: their labels are keyed by an island's first place
        # (a cut would have to name a place's own label too), and made so they did not pay on a
        # generator's layout session (measured in the encodings document of the genre that
        # first used islands).
        self.rule = m.rule(Islands(
            name, open_cells, [cells[p] for p in numbers],
            [(cells[p], cells[q]) for p, q in grid.links if not dark[p] and not dark[q]],
            {(cells[i], cells[q]): lit for i, own in labels.items() for q, lit in own.items()},
            {**self.selectors, **({cells[group[0]]: m.true() for group in where} if where else {})},
            self.present, grid if one_wall and not self.places and size > BARRIER_CELLS else None,
            everything))

    def _placed(self, m: "Model", numbers: Mapping[int, object], where: list[list[int]],
                starts: list[list[int]]) -> list[Clause]:
        """The clauses of the placed islands (``places``): island ``g`` of ``n`` cells has its
        seed on exactly one of its places (``x_p``: "the seed is at ``p``"; the others are
        ordinary cells), and, unlike a seed's size, its size always holds, so its clauses are
        not behind a selector.

        Reach: whichever place holds the seed, the island lies within ``n - 1`` steps of it,
        through cells that touch no other seed for sure: a fixed seed, or every place of
        another island (the ``touch`` marks). Labels ``(g, q)`` sit on that reach; a place
        on carries the label; exactly ``n`` labels; the island stops at its reach and is
        connected (levels from the places on, or a labelled neighbour). A place outside the
        reach (it touches another seed for sure) is never on. A label of ``g`` on or beside a
        place of another island is false while that place is on, and so is a white cell beside
        places of two islands (or a place and a fixed seed): this is what excluding other
        seeds from a reach does for fixed seeds (labels closed under white neighbours and
        stopping at the reach are a whole island, not part of a neighbour's), and a
        brute-force test fails without it. Each clause holds in every solution of every
        placement, so with the global rule (which counts a place as a seed only while it is on)
        the solutions are exactly those of the puzzle with the seeds placed."""
        grid = self.grid
        cells, near, white, present = grid.cells, grid.near, self._white, self.present
        x = {grid.index(p): lit for p, lit in present.items()}
        group_of = {p: g for g, group in enumerate(where) for p in group}
        clauses: list[Clause] = [[-lit, white[p]] for p, lit in x.items()]
        for g, (n, _) in enumerate(self.places):
            group, on = where[g], {p: x[p] for p in starts[g]}
            clauses += exactly([x[p] for p in group], 1, m.pool)
            clauses += ([-x[p]] for p in group if p not in on)
            clauses += ([-lit, self._labels[group[0]][p]] for p, lit in on.items())
            clauses += self._size_clauses(group[0], n, m.pool, on)
        # labels of every island kept off the places of others that are on, and their neighbours
        for i, own in self._labels.items():
            g = group_of.get(i)
            for q, lit in own.items():
                clauses += ([-lit, -x[p]] for p in {q, *near[q]} if p in group_of and group_of[p] != g)
        #: Cells beside places of two islands (or a place and a fixed seed), with the places'
        #: literals: the cell is not white while they hold.
        self.crowded_if: list[tuple[Cell, tuple[int, ...]]] = []
        for q in range(len(cells)):
            if q in numbers or self._dark[q]:
                continue
            beside = [(group_of.get(p, -1 - p), p) for p in near[q] if p in numbers or p in group_of]
            for k, (g, a) in enumerate(beside):
                self.crowded_if += ((cells[q], tuple(x[p] for p in (a, b) if p in x))
                                    for h, b in beside[k + 1:] if g != h)
        clauses += ([-white[grid.index(q)], *(-lit for lit in lits)] for q, lits in self.crowded_if)
        return clauses

    def reach(self, seed: Cell) -> list[Cell]:
        """The cells the island of ``seed`` (a seed or a place) can cover (with its size, if it
        has one)."""
        cells = self.grid.cells
        return [cells[q] for q in self._reach[self._key(seed)]]

    def rim(self, seed: Cell) -> list[Cell]:
        """The reach of ``seed`` and the cells beside it, in reading order, seeds left out: an
        island smaller than the grid has a non-white cell there."""
        near, cells = self.grid.near, self.grid.cells
        dist = self._reach[self._key(seed)]
        rim = {s for q in dist for s in near[q]} | set(dist)
        return [cells[q] for q in sorted(rim) if cells[q] not in self.seeds]

    def _key(self, seed: Cell) -> int:
        """The index of ``seed``'s labels and reach: its cell, or its island's first place."""
        i = self.grid.index(seed)
        return self._rep.get(i, i)

    def size(self, c: "Clue", key: Hashable, value: object) -> None:
        """The clue "the island of seed ``key`` has ``value`` cells" (``value`` at most the size
        the encoding was built for: a smaller one reaches less far than the labels); ``value``
        :data:`SIZELESS`: :meth:`sizeless`."""
        grid = self.grid
        own = self.seeds.get(key) if isinstance(key, tuple) and len(key) == 2 else None
        if key in self.present:  # a place: the clue is the literal "the seed is here"
            size = next(n for n, group in self.places if key in group)
            if value != size:
                raise SatgridError(f"{self.name}: the place {cell_name(*key)} takes only its "  # type: ignore[misc]
                                   f"island's size {size}, not {value!r}")
            c.is_literal(self.present[key])  # type: ignore[index]
            return
        if value == SIZELESS and own is not None:
            self.sizeless(c, key)  # type: ignore[arg-type]
            return
        if own is None or not isinstance(value, int) or not 1 <= value <= own:
            where = cell_name(*key) if isinstance(key, tuple) and len(key) == 2 else repr(key)
            raise SatgridError(f"{self.name}: clue {value!r} at {where} does not fit this encoding "
                               f"(it was built for {own!r} there)")
        i = grid.index(key)  # type: ignore[arg-type]
        near = grid.near
        dist, label = self._reach[i], self._labels[i]
        eager = value > 1 and self.eager_from is not None and value >= self.eager_from
        # The seed's own label (always true) first: the clue is never an empty list of clauses.
        clauses = [[label[i]], *self._size_clauses(i, value, c.pool, None, eager)]
        if eager:
            cells = grid.cells
            clauses += ConnectedSubgraph(
                f"island{key}", {cells[q]: label[q] for q in dist},
                [(cells[q], cells[s], None) for q in dist for s in near[q] if s in dist and q < s],
                anchor=key, max_true=value,
            ).eager_clauses(c.pool)
        c.require(clauses)

    def sizeless(self, c: "Clue", seed: Cell) -> None:
        """The clue "``seed`` has no size and every other sized seed has its size": the puzzle
        with that seed's number replaced by ``?``, on the encoding built with the number (an
        editor's re-check after removing the number keeps its solver; ``satgrid.live``).

        With ``seed``'s size off the encoding is an exact relaxation already, but the rule
        behind ``all`` (a white cell carries a label) is off with it, and the islands are held by
        lazy cuts alone. This clue restores it: labels of ``seed`` on its unbounded reach (as a
        seed without size gets them), spreading like the others, and every white cell that can
        be in an island carries a label, the new ones included. Every solution of the edited
        puzzle labels each island's cells with its seed, so the clauses keep them all; and
        they force the other sizes' selectors on, under which the old labels are exact (so the
        other size clues must be in the solver: a caller asks this clue beside them)."""
        grid, pool = self.grid, c.pool
        cells, near, white, dark = grid.cells, grid.near, self._white, self._dark
        i = grid.index(seed)
        free = {q: pool.var("sizeless label", *seed, *cells[q]) for q in
                reach_indices(i, None, near, self._touch)}
        clauses: list[Clause] = [[free[i]], *([s] for p, s in self.selectors.items() if p != seed)]
        for q, lit in free.items():
            clauses.append([-lit, white[q]])
            clauses += ([-lit, -white[s], free[s]] for s in near[q] if s in free)
        seeds = {grid.index(p) for p in self.seeds}
        clauses += ([-white[p], *self._labels_of[p], *([free[p]] if p in free else [])]
                    for p in range(len(cells)) if p not in seeds and not dark[p])
        c.require(clauses)

    def _size_clauses(self, i: int, value: int, pool: VarPool, starts: Mapping[int, int] | None,
                      eager: bool = False) -> list[Clause]:
        """Island ``i`` (its labels' key) has ``value`` labels, stops at its reach, and (unless
        ``eager``) is connected: levels, or a labelled neighbour for each labelled cell but the
        seed. ``starts``: the literal of each place that may hold the seed (None: the seed is
        the fixed cell ``i``, whose label holds)."""
        near, dark, white = self.grid.near, self._dark, self._white
        dist, label = self._reach[i], self._labels[i]
        if starts is None:
            clauses = exactly([label[q] for q in dist if q != i], value - 1, pool, totalizer=True)
        else:
            clauses = exactly(list(label.values()), value, pool, totalizer=True)
        local = value > 1 and not eager
        if not eager and has_levels(dist, value):
            clauses += self._levels(i, value, pool, starts)
        for q, lit in label.items():
            inside = []
            for s in near[q]:
                other = label.get(s)
                if other is not None:
                    inside.append(other)
                elif not dark[s]:  # the island stops at its reach
                    clauses.append([-lit, -white[s]])
            if local and (starts is not None or q != i):  # an island cell has an island neighbour
                clauses.append([-lit, *([starts[q]] if starts and q in starts else []), *inside])
        return clauses

    def _levels(self, i: int, value: int, pool: VarPool, starts: Mapping[int, int] | None = None) -> list[Clause]:
        """Island ``i`` of ``value`` cells is connected: a labelled cell lies within ``value - 1``
        steps of the seed through labelled cells. ``level(q, k)`` (for ``dist(q) <= k < value``):
        q is labelled and reached within k steps; it needs ``level(q, k - 1)`` or a neighbour's,
        and (redundant, measured in ``encodings/rules.md``) follows from ``level(q, k - 1)``.
        With ``starts`` (a placed island) ``level(p, 0)`` is the literal of place ``p``."""
        near, cells, var = self.grid.near, self.grid.cells, pool.var
        dist, label = self._reach[i], self._labels[i]
        seed = cells[i]
        fixed = starts is None
        # level(q, k) is levels[q][k - base[q]]: lists per cell rather than a dict keyed by
        # (q, k), since this runs for every clue of every puzzle (measured in the encodings
        # document of the genre that first used islands)
        levels: dict[int, list[int]] = {}
        base: dict[int, int] = {}
        for q, d in dist.items():
            if fixed and q == i:
                continue
            head = ("level", *seed, *cells[q])
            lits = [var(*head, k) for k in range(max(d, 1), value)]
            if not fixed and q in starts:  # a place: at distance 0, its literal is level 0
                levels[q], base[q] = [starts[q], *lits], 0
            else:
                levels[q], base[q] = lits, max(d, 1)
        clauses: list[Clause] = []
        add = clauses.append
        for q, own in levels.items():
            d, lab, lo = dist[q], label[q], base[q]
            add([-lab, own[-1]])
            # the cell itself, then its neighbours with levels, with the step of their first
            around = [(own, lo), *[(levels[s], base[s]) for s in near[q] if s in levels]]
            for k in range(max(d, 1), value):
                lit = own[k - lo]
                add([-lit, lab])
                if k > d:  # redundant: reached within k - 1 steps is within k
                    add([-own[k - lo - 1], lit])
                if k == 1 and fixed:
                    continue  # a neighbour of the seed: reached in one step
                add([-lit, *[lits[k - 1 - b] for lits, b in around if b < k]])
        return clauses


class Islands(GlobalRule):
    """Global rule: every white region holds exactly one seed.

    Lazy cuts (both hold in every solution, whatever clues are switched on): a white region
    without a seed grows or loses a cell (``t_S -> some white cell next to S``); a white region
    with two seeds is cut along a shortest path between them inside the region (some cell of the
    path is not white). Eager lowering: every white cell reaches a seed (the core's anchored
    connected-subgraph rule over a virtual node linked to all seeds) and carries a binary island
    number, equal across white neighbours and fixed on each seed.

    *Barrier cuts* (with ``wall``, the grid, when a rule stated beside this one makes the cells
    outside the islands one 4-connected region, a wall): islands that touch diagonally
    (both corner cells not white) or touch the grid's border form a *contact graph* (a node per
    island and one for the border; an edge per diagonal contact and per run of border cells of
    an island). A cycle in it is a closed curve through island cells, or a curve from border to
    border, that has non-white cells on both sides: the two corners of a diagonal contact on it
    (locally on either side of the diagonal step, so on either side of the whole simple curve,
    Jordan), or for an island touching the border in two runs, the cells after each run. So
    the islands on the cycle cannot all hold their contact cells while those corners are
    non-white: ``OR(-label(island, contact cell)) | OR(white corners)``. Labels, not cells: two
    cells in one island are joined by a path inside it, whatever its shape, so one cut rules out
    every shape of the islands with the same contacts, where the wall's separator cut lists the
    whole white barrier cell by cell. The clause only forbids labels, so it holds for the
    labelling of each island's own cells in every solution, whatever clues are on. They are made
    only for assignments where ``every_size`` (the literal "every size is on") holds: in the
    queries with a size off, chains of small islands abound and the cuts cost more rounds than
    they save (measured in ``encodings/rules.md``).

    ``white``: the cells that can be white (node i of the white region is the i-th key);
    ``labels``: ``{(seed, cell): literal}``; ``selectors``: ``{seed: selector}`` of the sized
    seeds; ``switchable``: ``{cell: literal}``, seeds that count only while their literal holds
    (off, an ordinary cell): the cuts that rest on such a seed being on or off name its literal.
    ``wall``: the grid, for barrier cuts; ``every_size``: the literal that gates them (None:
    always).
    """

    def __init__(self, name: str, white: dict[Cell, int], seeds: list[Cell], links: list[tuple[Cell, Cell]],
                 labels: dict[tuple[Cell, Cell], int], selectors: dict[Cell, int],
                 switchable: dict[Cell, int] | None = None, wall: Grid | None = None,
                 every_size: int | None = None):
        self.name = name
        self.white, self.seeds, self.links = white, seeds, links
        self.labels, self.selectors = labels, selectors
        self._contacts = None if wall is None else Contacts(wall, white, labels)
        self.every_size = every_size
        self.region = ConnectedSubgraph(f"{name}: white", dict(white), [(p, q, None) for p, q in links])
        # Index arrays over the white region's nodes (the cuts run once per CEGAR iteration):
        # the region's own (node i is the i-th key of ``white``)
        index = self.region.node_index
        self._black = [-x for x in white.values()]
        self._adjacent: list[list[int]] = self.region.node_neighbours
        self._seeded = [False] * len(self._black)
        for p in seeds:
            self._seeded[index[p]] = True
        self.switchable = dict(switchable or {})
        #: Node index and literal of each switchable seed; per node, its literal (0: none).
        self._switch = [(index[p], lit) for p, lit in self.switchable.items() if p in index]
        self._present = [0] * len(self._black)
        for j, lit in self._switch:
            self._present[j] = lit
        #: Per sized seed: its selector and its labels by node index; per node: the sized seeds
        #: labelling it.
        self._labels_at: list[list[tuple[int, int]]] = [[] for _ in self._black]
        ids = {i: k for k, i in enumerate(selectors)}
        self._clues: list[tuple[int, dict[int, int]]] = [(sel, {}) for sel in selectors.values()]
        for (i, q), lit in labels.items():
            k = ids.get(i)
            if k is not None:
                j = index.get(q)
                if j is not None:
                    self._clues[k][1][j] = lit
                    self._labels_at[j].append((k, lit))

    def clauses(self, pool: VarPool) -> list[Clause]:
        return []

    def cuts(self, value, pool: VarPool, keep: Keep | None = None) -> list[list[Clause]]:
        """Cuts for white regions without a seed (grow out, or a labelled path out) and for
        regions with two seeds (a cell of the path between them is not white). ``keep``: see
        :data:`satgrid.connectivity.Keep` (asked of the built cuts; they are few)."""
        cuts = []
        seeded, present = self._seeded, self._present
        if self._switch:  # the switchable seeds on in ``value`` count as seeds
            seeded = list(seeded)
            for (j, _), on in zip(self._switch, holds(value, [lit for _, lit in self._switch])):
                seeded[j] = seeded[j] or on
        islands = []  # (region, its seed) for the regions with one seed
        for region in self.region.component_indices(value):
            seeds = [j for j in region if seeded[j]]
            if len(seeds) == 1:
                islands.append((region, seeds[0]))
            elif not seeds:
                inside = set(region)
                grow = self._grow(region, inside, pool)
                grow[-1] += [present[j] for j in region if present[j]]  # unless a seed there is on
                cuts.append(grow)
                cuts += self._reconnect(region, inside, value, pool)
            elif len(seeds) > 1:
                path, end = self._path(set(region), seeds[0], seeded)
                # only while both ends are seeds
                ends = [-present[j] for j in (seeds[0], end) if present[j]]
                cuts.append([[*(self._black[j] for j in path), *ends]])
        if self._contacts is not None and (self.every_size is None or value(self.every_size)):
            cuts += self._contacts.cuts(islands, value)
        return cuts if keep is None else [cut for cut in cuts if keep(cut[-1])]

    def _grow(self, region: list[int], inside: set[int], pool: VarPool) -> list[Clause]:
        black, adjacent, t = self._black, self._adjacent, pool.fresh("cut")
        border = {q for p in region for q in adjacent[p] if q not in inside}
        return [*([black[p], t] for p in region), [-t, *sorted(-black[q] for q in border)]]

    def _reconnect(self, region: list[int], inside: set[int], value, pool: VarPool) -> list[list[Clause]]:
        """For each switched-on clue i labelling ``region``: island i is connected and holds its
        seed, so a labelled cell of ``region`` has a labelled path out of it. The cut depends on
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

    def _path(self, region: set[int], start: int, seeded: list[bool]) -> tuple[list[int], int]:
        """The unseeded cells of a shortest path inside ``region`` from ``start`` to another
        seed (``seeded``: per node), and that seed."""
        parent: dict[int, int | None] = {start: None}
        queue = deque([start])
        while queue:
            p = queue.popleft()
            for q in self._adjacent[p]:
                if q in region and q not in parent:
                    parent[q] = p
                    if seeded[q]:
                        path, at = [], parent[q]
                        while at is not None and at != start:
                            path.append(at)
                            at = parent[at]
                        return path, q
                    queue.append(q)
        raise AssertionError("a region with two seeds connects them")

    def eager_clauses(self, pool: VarPool) -> list[Clause]:
        white, root, true = self.white, "seeds", pool.var("true")
        nodes: dict = dict(white)
        nodes[root] = true
        links: list = [(p, q, None) for p, q in self.links] + [(root, p, None) for p in self.seeds]
        links += [(root, p, lit) for p, lit in self.switchable.items() if p in white]
        clauses = [[true], *ConnectedSubgraph(f"{self.name}: reach a seed", nodes, links,
                                              anchor=root).eager_clauses(pool)]
        seeds = [(p, None) for p in self.seeds] + [(p, lit) for p, lit in self.switchable.items() if p in white]
        bits = max(1, (len(seeds) - 1).bit_length())
        ident = {p: [pool.var("island", *p, b) for b in range(bits)] for p in white}
        for i, (p, lit) in enumerate(seeds):
            clauses += [[*([] if lit is None else [-lit]), x if i >> b & 1 else -x] for b, x in enumerate(ident[p])]
        for p, q in self.links:
            for x, y in zip(ident[p], ident[q]):
                clauses += [[-white[p], -white[q], -x, y], [-white[p], -white[q], x, -y]]
        return clauses


BORDER = -1  # the border's node in the contact graph


class Contacts:
    """The barrier cuts of :class:`Islands` (its doc): the contact graph of the islands of an
    assignment and a cut per cycle in it.

    The nodes are the white region's (:class:`Islands`), cells of ``grid`` not among them are
    never white. Tables: per node its diagonal neighbours below it with the two corner cells
    (node indices, None for a cell that is never white), and the border cells in cyclic order."""

    def __init__(self, grid: Grid, white: dict[Cell, int], labels: dict[tuple[Cell, Cell], int]):
        self.cells = list(white)
        index = {p: j for j, p in enumerate(self.cells)}
        self._white = list(white.values())
        self._read = TruthReader(self._white)
        self._labels = labels
        self._diagonal: list[list[tuple[int, int | None, int | None]]] = [[] for _ in self.cells]
        for j, (r, c) in enumerate(self.cells):
            for dc in (-1, 1):
                k = index.get((r + 1, c + dc))
                if k is not None:
                    self._diagonal[j].append((k, index.get((r, c + dc)), index.get((r + 1, c))))
        rows, cols = grid.rows, grid.cols
        ring = [(0, c) for c in range(cols)] + [(r, cols - 1) for r in range(1, rows)] + \
            [(rows - 1, c) for c in range(cols - 2, -1, -1)] + [(r, 0) for r in range(rows - 2, 0, -1)]
        # A grid one cell wide has no inside: its border cells are no cycle (no border edges).
        self._ring = [index.get(p) for p in ring] if rows > 1 and cols > 1 else []

    def cuts(self, islands: list[tuple[list[int], int]], value) -> list[list[Clause]]:
        """A cut for each edge that closes a cycle of the contact graph of ``value``'s islands
        (``(nodes, seed node)`` of each white region with one seed)."""
        island = [-1] * len(self.cells)  # node -> its island's seed node
        for region, seed in islands:
            for j in region:
                island[j] = seed
        white = self._read(value)
        diagonal = self._diagonal
        # Edges (island a, island b, cell of a, cell of b, the non-white cells on both sides).
        edges: list[tuple[int, int, int | None, int | None, tuple]] = []
        for region, seed in islands:
            for j in region:
                for k, x, y in diagonal[j]:
                    b = island[k]
                    if b >= 0 and (x is None or not white[x]) and (y is None or not white[y]):
                        edges.append((seed, b, j, k, (x, y)))
        ring = self._ring
        n = len(ring)
        if ring and any(q is None or island[q] < 0 for q in ring):
            for i, q in enumerate(ring):  # a run's last cell, the non-white cell after it
                if q is None or island[q] < 0:
                    continue
                after = ring[(i + 1) % n]
                if after is None or not white[after]:
                    edges.append((BORDER, island[q], None, q, (after,)))
        parent: dict[int, int] = {}
        tree: dict[int, list[tuple[int, int]]] = {}  # node -> (neighbour, edge index)

        def find(u: int) -> int:
            while parent.get(u, u) != u:
                u = parent[u]
            return u

        cuts = []
        for e, (a, b, _, _, _) in enumerate(edges):
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[ra] = rb
                tree.setdefault(a, []).append((b, e))
                tree.setdefault(b, []).append((a, e))
                continue
            cut = self._cut([edges[f] for f in [e, *self._tree_path(tree, b, a)]], value)
            if cut is not None:
                cuts.append([cut])
        return cuts

    @staticmethod
    def _tree_path(tree: dict[int, list[tuple[int, int]]], start: int, goal: int) -> list[int]:
        """The edges of the forest path from ``start`` to ``goal`` (same tree)."""
        back: dict[int, tuple[int, int] | None] = {start: None}
        queue = deque([start])
        while queue:
            u = queue.popleft()
            if u == goal:
                break
            for v, e in tree.get(u, ()):
                if v not in back:
                    back[v] = (u, e)
                    queue.append(v)
        path, at = [], goal
        while back[at] is not None:
            at, e = back[at]  # type: ignore[misc]
            path.append(e)
        return path

    def _cut(self, cycle: list[tuple[int, int, int | None, int | None, tuple]], value) -> Clause | None:
        """The clause of a cycle: some contact cell leaves its island, or a witness is white.
        None when a contact cell has no true label for its island in ``value`` (outside the
        seed's reach, or a size switched off): the clause would not cut ``value``."""
        cells, labels = self.cells, self._labels
        diagonal = [e for e in cycle if e[0] != BORDER]
        witnesses = diagonal[0][4] if diagonal else tuple(w for e in cycle for w in e[4])
        lits: set[int] = set()
        for a, b, p, q in ((e[0], e[1], e[2], e[3]) for e in cycle):
            for seed, cell in ((a, p), (b, q)):
                if cell is None or cell == seed:
                    continue  # the border, or the seed's own label (always true)
                lit = labels.get((cells[seed], cells[cell]))
                if lit is None or not value(lit):
                    return None
                lits.add(-lit)
        lits.update(self._white[w] for w in witnesses if w is not None)
        return sorted(lits)
