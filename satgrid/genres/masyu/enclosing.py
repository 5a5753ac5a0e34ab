"""The single-loop rule for loops through cell centres, with *enclosure cuts* (lazy lowering).

The core's anchored subtour cut (:mod:`satgrid.loop`, :mod:`satgrid.connectivity`) bars one
sub-loop S that misses an active anchor: "selector & some link of S -> some link leaving S". A
variant of S that shares links with it but leaves it elsewhere is a new sub-loop and costs a new
CEGAR round; on 16x20 Masyus the solver met a hundred such variants of one big second loop
(encodings/masyu.md). On a planar grid a stronger cut is as cheap. S, a simple closed curve,
splits the other cells into an inside and an outside (even-odd rule: a cell is inside when the
ray from its centre to the left crosses S an odd number of times), and two side-adjacent cells
off S lie on the same side (the segment between their centres meets no link of S). Let A be the
side that holds no cell of the anchor, B the other, X = S + A. The loop passes an anchor cell in
B, so while the anchor's selector holds, a loop with a link inside X crosses from X to B, and
only links from a cell of S to a cell of B do:

    selector & (a link between two cells of S, or from S into A) -> OR(links from S into B)

This bars S and every loop inside X that uses a link at S (the variants met above); links deep
inside A are left out, which keeps the cut at O(|S|) literals. It is sound for any anchor whose
cells all lie in B, and carries the selector, so it stays sound when the clue is switched off.
Sub-loops without such an anchor, partial assignments (``keep``) and the eager lowering are the
core's, unchanged.

Generic (any loop through cell centres on a grid); kept in the Masyu folder until the core's
:class:`~satgrid.loop.SingleLoop` offers it.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Hashable, Sequence

from ...cnf import VarPool
from ...connectivity import Cut, Keep, Value
from ...grid import Cell, Grid
from ...loop import SingleLoop
from ...solver import Assignment


@dataclass
class EnclosingLoop(SingleLoop):
    """:class:`~satgrid.loop.SingleLoop` over links between the cells of ``grid`` (``edges``:
    ``{(p, q): literal}``), its anchored cuts the enclosure cuts of the module doc."""

    grid: Grid = field(default_factory=lambda: Grid.of(0, 0))
    _links: list[tuple[Cell, Cell]] = field(init=False, repr=False)
    _lits: list[int] = field(init=False, repr=False)
    #: Per cell, (link index, neighbour) for each of its links.
    _around: dict[Cell, list[tuple[int, Cell]]] = field(init=False, repr=False)
    #: The cells of each clue anchor made by :meth:`clue_anchor`.
    _anchor_cells: dict[frozenset[int], tuple[Cell, ...]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        self._links, self._lits = list(self.edges), list(self.edges.values())
        self._around = {}
        for k, (p, q) in enumerate(self._links):
            self._around.setdefault(p, []).append((k, q))
            self._around.setdefault(q, []).append((k, p))
        self._anchor_cells = {}

    def clue_anchor(self, vertices: Sequence[Hashable]) -> frozenset[int]:
        anchor = super().clue_anchor(vertices)
        self._anchor_cells[anchor] = tuple(vertices)  # type: ignore[arg-type]
        return anchor

    def cuts(self, value: Value, pool: VarPool, keep: Keep | None = None,
             anchors: Sequence[tuple[int, frozenset[int]]] = ()) -> list[Cut]:
        loops = None
        if keep is None and anchors and isinstance(value, Assignment):
            loops = self._loops(value)
        if loops is None or len(loops) < 2:
            return super().cuts(value, pool, keep, anchors)
        held = self.connected.anchors_for(loops, value, anchors)
        cells_of = {lit: self._anchor_cells.get(nodes) for lit, nodes in anchors}
        cuts = []
        for i, loop in enumerate(loops[1:], 1):
            cut = self._enclosure_cut(loop, held[i], cells_of[held[i]], pool) if i in held else None
            if cut is None:
                return super().cuts(value, pool, keep, anchors)
            cuts.append(cut)
        return cuts

    def _enclosure_cut(self, loop: list[int], selector: int, anchor: tuple[Cell, ...] | None,
                       pool: VarPool) -> Cut | None:
        """The cut of the module doc for the sub-loop of link indices ``loop``; None when the
        anchor's cells are unknown or lie on both sides."""
        if not anchor:
            return None
        on: set[Cell] = set()
        down: dict[int, list[int]] = {}  # per row, the columns of S's links to the row below
        for k in loop:
            p, q = self._links[k]
            on.update((p, q))
            if p[1] == q[1]:
                down.setdefault(min(p[0], q[0]), []).append(p[1])
        for columns in down.values():
            columns.sort()

        def inside(p: Cell) -> bool:
            return bisect_left(down.get(p[0], ()), p[1]) % 2 == 1

        sides = {inside(p) for p in anchor}
        if len(sides) != 1:
            return None
        far = sides.pop()  # the side B of the anchor
        lits = self._lits
        t = pool.fresh("cut")
        cut, border = [], []
        for p in on:
            for k, q in self._around[p]:
                if q not in on and inside(q) == far:
                    border.append(lits[k])
                elif q not in on or p < q:
                    cut.append([-lits[k], t])
        cut.append([-t, -selector, *border])
        return cut
