"""Placed islands on a live session, one layout after another: a generator that changes a few
islands of its layout keeps its solver, its cuts and its learnt clauses.

The placed islands of :mod:`satgrid.islands` (``places``: an island of known size whose seed is on
one of several cells, the place chosen by assumptions) serve every placement of one layout's
numbers on one session. :class:`LayoutIslands` lets the layout itself change on that session:
:meth:`LayoutIslands.update` states the islands of a new layout, keeps those it already states
and retires the others.

How each clause stays true in every later layout:

1. *Each island's own clauses* (its labels on its reach, its size, its levels, its seed on one
   of its places: :func:`~satgrid.islands.placed_island`) are behind an activation literal of
   the island; the layout's literal (below) implies it while the island is in the layout, a
   unit clause switches it off for good when it leaves. Its labels and levels are variables of
   its own (named by a serial number), so an island made again later starts afresh.
2. *What holds between islands* (a label of one island is false on or beside a place of another
   that is on; a white cell beside places of two islands that are on is not white) names the
   places' literals, the clues ``(cell, size)``: "a seed of this size is here". Those clauses
   hold for any seeds, in every layout, so they are added once, when the second island of the
   pair comes.
3. *What depends on the whole layout* (a cell touching every place of two islands is not white;
   with every island stated, a white cell carries the label of an island that reaches it; the
   global rule's cuts, which count the layout's places as the only seeds) is behind the
   layout's literal (:attr:`LayoutIslands.current`), which every question assumes, switched off
   for good by the next layout (the rule is wrapped in :class:`Guarded`, whose cuts carry the
   literal).
4. *The wall's anchors* (a rule stated beside, ``wall``, whose cuts may rest on "one of these
   cells is not white"): a small island's rim, behind the island's literal, and the crowded
   cells, behind the layout's; the wall rule is made again with them for each layout, and its
   earlier cuts name the literals they rest on.

An island is kept only when its size and places are the same and the new layout's reach of it
(BFS from its places through cells that touch no other island's places for sure) lies inside
the reach it was stated with, no cell closer than before: its labels and levels then cover every
way it can lie in the new layout (a kept reach may be larger than a fresh one, which only costs
variables). The solutions of each layout's placements are exactly those of the plain encoding
(brute force in tests/test_layout_islands.py, lazy and eager, over sequences of layouts on one
session).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Hashable, Mapping, Sequence

from .cnf import Clause, VarPool, guarded
from .connectivity import ConnectedSubgraph, Keep, Value
from .errors import SatgridError
from .global_rule import GlobalRule
from .grid import Cell
from .islands import Islands, label_clauses, placed_island, reach_from, touching

if TYPE_CHECKING:
    from .connectivity import Cut
    from .model import Clue, Model
    from .session import Session


class Guarded(GlobalRule):
    """``rule`` while ``lit`` holds: its clauses and every cut it makes carry ``-lit`` (a cut of an
    assignment where ``lit`` holds still cuts it)."""

    def __init__(self, rule: GlobalRule, lit: int):
        self.rule, self.lit, self.name = rule, lit, rule.name

    def clauses(self, pool: VarPool) -> list[Clause]:
        return guarded(self.rule.clauses(pool), self.lit)

    def cuts(self, value: Value, pool: VarPool, keep: Keep | None = None) -> list[Cut]:
        return [guarded(cut, self.lit) for cut in self.rule.cuts(value, pool, keep)]

    def eager_clauses(self, pool: VarPool) -> list[Clause]:
        return guarded(self.rule.eager_clauses(pool), self.lit)


@dataclass
class _Island:
    """An island as stated: size, places and reach (cell indices), labels, activation literal."""

    n: int
    places: tuple[int, ...]
    dist: dict[int, int]
    label: dict[int, int]
    active: int
    present: dict[int, int]


class LayoutIslands:
    """The islands of a generator's layouts on one session (module doc). Built with the model
    (``white``: a literal per cell of the grid; ``wall``: a connected rule over the cells that
    are not white, whose cuts the small islands' rims anchor, or None); :meth:`update` then
    states each layout. ``roomy``: a literal that holds while the layout's islands leave at
    least ``spare`` cells non-white (for rules of the caller that need them). Clues: ``(place,
    size)`` is the literal "the seed is here" (:meth:`size`)."""

    def __init__(self, m: "Model", name: str, white: Mapping[Cell, int],
                 wall: ConnectedSubgraph | None = None, small: int = 0, spare: int = 0):
        self.name, self.grid, self._switch = name, m.grid, m.switch
        self._white = [white[p] for p in m.grid.cells]
        self._wall, self._small, self._spare = wall, small, spare
        self.roomy = m.pool.fresh("roomy")
        #: The layout's literal (None before the first :meth:`update`): every question assumes it.
        self.current: int | None = None
        self._islands: dict[tuple[int, tuple[int, ...]], _Island] = {}
        self._rule: GlobalRule | None = None
        self._serial = 0

    def size(self, c: "Clue", key: Hashable, value: object) -> None:
        """The clue ``(place, size)``: the literal "the seed of that size is here"."""
        if not any(value == n and self.grid.index(key) in places  # type: ignore[arg-type]
                   for n, places in self._islands):
            raise SatgridError(f"{self.name}: no island of {value!r} cells has a place at {key!r}")
        c.is_literal(self._switch(key, value))

    def update(self, session: "Session", places: Sequence[tuple[int, Sequence[Cell]]]) -> None:
        """States the layout ``places`` (``(size, cells)`` per island: its seed on one of the
        cells) on ``session``, built from the model this was made with (module doc)."""
        grid, pool = self.grid, session.encoding.pool
        cells, near, white = grid.cells, grid.near, self._white
        where = [tuple(grid.index(p) for p in group) for _, group in places]
        if len({p for group in where for p in group}) != sum(map(len, where)) \
                or not all(group and isinstance(n, int) and n >= 1 for (n, _), group in zip(places, where)):
            raise SatgridError(f"{self.name}: each placed island needs a size of at least 1 and "
                               "places of its own")
        touch = touching((), near, len(cells))
        for g, group in enumerate(where):  # a cell that is or touches every place of an island
            for q in set.intersection(*({p, *near[p]} for p in group)):
                touch[q].append(-1 - g)
        clauses: list[Clause] = []
        old, now, new = self._islands, {}, []
        for g, (n, _) in enumerate(places):
            group = where[g]
            starts = [p for p in group if all(t == -1 - g for t in touch[p])]
            dist = reach_from(starts, n, near, touch, -1 - g)
            island = old.get((n, group))
            if island is not None and all(island.dist.get(q, n) <= d for q, d in dist.items()):
                now[n, group] = old.pop((n, group))
                continue
            self._serial += 1
            key = ("placed", self._serial)
            label = {q: pool.var("label", *key, *cells[q]) for q in dist}
            island = _Island(n, group, dist, label, pool.fresh("island"),
                             {p: self._switch(cells[p], n) for p in group})
            clauses += ([-x, white[p]] for p, x in island.present.items())  # a seed is white
            clauses += guarded([*label_clauses(label, near, white),
                                *placed_island(grid, white, [False] * len(cells), dist, label, n, group,
                                               starts, island.present, pool, key)], island.active)
            now[n, group] = island
            new.append(island)
        clauses += ([-island.active] for island in old.values())  # retired for good
        self._islands = now
        clauses += self._between(list(now.values()), {id(island) for island in new})

        # the layout's own clauses, behind its literal
        if self.current is not None:
            clauses.append([-self.current])
        layout = self.current = pool.fresh("layout")
        clauses += ([-layout, island.active] for island in now.values())
        if sum(n for n, _ in places) <= len(cells) - self._spare:
            clauses.append([-layout, self.roomy])
        crowded = [q for q in range(len(cells)) if len(touch[q]) >= 2]
        clauses += ([-layout, -white[q]] for q in crowded)
        labels_of: list[list[int]] = [[] for _ in cells]
        for island in now.values():
            for q, lit in island.label.items():
                labels_of[q].append(lit)
        clauses += ([-layout, -white[q], *labels_of[q]] for q in range(len(cells)))
        session.add(clauses)

        switchable = {cells[p]: x for island in now.values() for p, x in island.present.items()}
        rule = Guarded(Islands(self.name, dict(zip(cells, white)), [], grid.adjacent_pairs(), {}, {},
                               switchable), layout)
        session.replace_rule(self._rule, rule)
        self._rule = rule
        if self._wall is not None and session.connectivity == "lazy":
            anchors = [(layout, [cells[q]]) for q in crowded]
            anchors += [(island.active, self._rim(island)) for island in now.values() if island.n <= self._small]
            wall = dataclasses.replace(self._wall, anchors=anchors)
            session.replace_rule(self._wall, wall)
            self._wall = wall

    def _between(self, islands: list[_Island], new: set[int]) -> list[Clause]:
        """The clauses between two islands (module doc, 2) for the pairs with a new island: a
        label of one is false on or beside a place of the other that is on, and a cell beside
        places of both is not white while they are on."""
        near, white = self.grid.near, self._white
        owner = {p: island for island in islands for p in island.places}
        clauses: list[Clause] = []
        for a in islands:
            for q, lit in a.label.items():
                for p in {q, *near[q]}:
                    b = owner.get(p)
                    if b is not None and b is not a and (id(a) in new or id(b) in new):
                        clauses.append([-lit, -b.present[p]])
        for q in range(len(white)):
            beside = [(owner[p], p) for p in near[q] if p in owner]
            for k, (a, p) in enumerate(beside):
                clauses += ([-white[q], -a.present[p], -b.present[s]] for b, s in beside[k + 1:]
                            if b is not a and (id(a) in new or id(b) in new))
        return clauses

    def _rim(self, island: _Island) -> list[Cell]:
        """The island's reach and the cells beside it: an island smaller than the grid has a
        non-white cell there."""
        near, cells = self.grid.near, self.grid.cells
        return [cells[q] for q in sorted({s for q in island.dist for s in near[q]} | set(island.dist))]
