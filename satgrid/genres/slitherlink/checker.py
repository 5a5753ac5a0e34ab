"""Slitherlink rules: the chosen edges form one simple closed loop; a clue k in a cell means
exactly k of the cell's four sides are on the loop.

Edges, as everywhere in satgrid: ``horizontal[i][j]`` lies on dot row ``i`` between dot columns
``j`` and ``j + 1`` (``rows + 1`` lists of ``cols``), ``vertical[i][j]`` lies in cell row ``i`` on
dot column ``j`` (``rows`` lists of ``cols + 1``).
"""
from __future__ import annotations

from typing import Sequence

from satgrid.grid import Grid


def check_slitherlink(
    clues: Sequence[Sequence[int | None]],
    horizontal: Sequence[Sequence[int]],
    vertical: Sequence[Sequence[int]],
) -> list[str]:
    rows = len(clues)
    cols = len(clues[0]) if rows else 0
    if rows == 0 or cols == 0 or any(len(row) != cols for row in clues):
        return ["the clue grid is empty or not rectangular"]
    if len(horizontal) != rows + 1 or any(len(row) != cols for row in horizontal):
        return [f"horizontal edges are not {rows + 1} rows of {cols}"]
    if len(vertical) != rows or any(len(row) != cols + 1 for row in vertical):
        return [f"vertical edges are not {rows} rows of {cols + 1}"]
    # edge values in the grid's edge order: horizontal rows, then vertical rows
    value = [x for row in horizontal for x in row] + [x for row in vertical for x in row]
    if not set(value) <= {0, 1}:
        return ["edge values must be 0 or 1"]
    problems: list[str] = []
    grid = Grid.of(rows, cols)
    for (r, c), (top, bottom, left, right) in zip(grid.cells, grid.side_indices):
        k = clues[r][c]
        if k is None:
            continue
        sides = value[top] + value[bottom] + value[left] + value[right]
        if sides != k:
            problems.append(f"cell r{r + 1}c{c + 1} has clue {k} but {sides} loop sides")
    # the loop's dots and their neighbours along chosen edges (plain lists: a networkx graph
    # of a 30x30 loop took most of the check; figures in encodings/diagnostics.md)
    near: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for (a, b), x in zip(grid.edge_dots, value):
        if x:
            near.setdefault(a, []).append(b)
            near.setdefault(b, []).append(a)
    if not near:
        return problems + ["no loop: no edge is chosen"]
    for dot in sorted(near):
        if len(near[dot]) != 2:
            problems.append(f"dot ({dot[0]}, {dot[1]}) touches {len(near[dot])} loop edges, not 0 or 2")
    parts, seen = 0, set()
    for start in near:
        if start in seen:
            continue
        parts += 1
        seen.add(start)
        stack = [start]
        while stack:
            for q in near[stack.pop()]:
                if q not in seen:
                    seen.add(q)
                    stack.append(q)
    if parts != 1:
        problems.append(f"the loop edges form {parts} separate pieces, not one loop")
    return problems
