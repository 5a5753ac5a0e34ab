"""The single-loop rule for loops through cell centres, with *enclosure cuts* (lazy lowering).

The core's anchored subtour cut (:mod:`satgrid.loop`, :mod:`satgrid.connectivity`) bars one
sub-loop S that misses an active anchor: "selector & some link of S -> some link leaving S". A
variant of S that shares links with it but leaves it elsewhere is a new sub-loop and costs a new
CEGAR round; on 16x20 Masyus the solver met a hundred such variants of one big second loop
(encodings/masyu.md). On a planar grid a stronger cut is as cheap: S, a simple closed curve,
splits the other cells into inside and outside (the even-odd rule: a cell is inside when the ray
from its centre to the left crosses S an odd number of times). Let X be S's cells with the side
that holds no cell of the anchor. The loop passes an anchor cell outside X, so while the anchor's
selector holds, a loop with a link inside X must have a link that crosses X's border:

    selector & (some link with both cells in X) -> OR(links with one cell in X)

This bars S and every loop that stays inside X at once. It is sound for any anchor whose cells
all lie outside X, and carries the selector, so it stays sound when the clue is switched off.
Sub-loops without such an anchor, partial assignments (``keep``) and the eager lowering are the
core's, unchanged.

Generic (any loop through cell centres on a grid); kept in the Masyu folder until the core's
:class:`~satgrid.loop.SingleLoop` offers it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ...cnf import VarPool
from ...connectivity import Cut, Keep, Value, holds
from ...grid import Cell, Grid
from ...loop import SingleLoop


@dataclass
class EnclosingLoop(SingleLoop):
    """:class:`~satgrid.loop.SingleLoop` over links between the cells of ``grid`` (``edges``:
    ``{(p, q): literal}``), its anchored cuts the enclosure cuts of the module doc."""

    grid: Grid = field(default_factory=lambda: Grid.of(0, 0))
    _links: list[tuple[Cell, Cell]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        self._links = list(self.edges)

    def cuts(self, value: Value, pool: VarPool, keep: Keep | None = None,
             anchors: Sequence[tuple[int, frozenset[int]]] = ()) -> list[Cut]:
        loops = None if keep is not None or not anchors else self._cell_loops(value)
        if loops is None or len(loops) < 2:
            return super().cuts(value, pool, keep, anchors)
        held = self.connected.anchors_for(loops, value, anchors)
        cuts = []
        for i, loop in enumerate(loops[1:], 1):
            region = self._region(loop, anchors, held[i]) if i in held else None
            if region is None:
                return super().cuts(value, pool, keep, anchors)
            cuts.append(self._enclosure_cut(region, held[i], pool))
        return cuts

    def _cell_loops(self, value: Value) -> list[list[int]] | None:
        """The loops of the links true under ``value`` (as link indices, largest first), or None
        when a cell has one link or more than two."""
        on = holds(value, list(self.edges.values()))
        at: dict[Cell, list[int]] = {}
        for k, (p, q) in enumerate(self._links):
            if on[k]:
                at.setdefault(p, []).append(k)
                at.setdefault(q, []).append(k)
        if any(len(ks) != 2 for ks in at.values()):
            return None
        loops, seen = [], set()
        for start in at:
            if start in seen:
                continue
            members, cell, previous = [], start, None
            while True:
                seen.add(cell)
                k = at[cell][0] if at[cell][0] != previous else at[cell][1]
                members.append(k)
                p, q = self._links[k]
                cell, previous = (q if p == cell else p), k
                if cell == start:
                    break
            loops.append(members)
        loops.sort(key=len, reverse=True)
        return loops

    def _region(self, loop: list[int], anchors: Sequence[tuple[int, frozenset[int]]],
                selector: int) -> set[Cell] | None:
        """The loop's cells with the side (inside or outside) that holds no cell of the anchor
        switched on by ``selector``; None when the anchor has cells on both sides."""
        on, down = set(), set()
        for k in loop:
            p, q = self._links[k]
            on.update((p, q))
            if p[1] == q[1]:
                down.add(min(p, q))  # a vertical link, from its upper cell
        inside = set()
        for r in range(self.grid.rows):
            odd = False
            for c in range(self.grid.cols):
                if (r, c) in down:
                    odd = not odd
                elif odd and (r, c) not in on:
                    inside.add((r, c))
        nodes = next(nodes for lit, nodes in anchors if lit == selector)
        for side in (inside, set(self.grid.cells) - inside - on):
            region = on | side
            # the anchor misses the loop, so its cells lie on one side; on the other side no
            # link at them has both cells in the region
            if not any(self._links[k][0] in region and self._links[k][1] in region for k in nodes):
                return region
        return None

    def _enclosure_cut(self, region: set[Cell], selector: int, pool: VarPool) -> Cut:
        """``selector & (a link inside region) -> a link across its border``."""
        t = pool.fresh("cut")
        cut, border = [], []
        for (p, q), lit in self.edges.items():
            if p in region and q in region:
                cut.append([-lit, t])
            elif p in region or q in region:
                border.append(lit)
        cut.append([-t, -selector, *border])
        return cut
