"""Slitherlink rules: the chosen edges form one simple closed loop; a clue k in a cell means
exactly k of the cell's four sides are on the loop.

Edges, as everywhere in satgrid: ``horizontal[i][j]`` lies on dot row ``i`` between dot columns
``j`` and ``j + 1`` (``rows + 1`` lists of ``cols``), ``vertical[i][j]`` lies in cell row ``i`` on
dot column ``j`` (``rows`` lists of ``cols + 1``).
"""
from __future__ import annotations

from itertools import chain, compress
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
    value = [*chain.from_iterable(horizontal), *chain.from_iterable(vertical)]
    if value.count(0) + value.count(1) != len(value):
        return ["edge values must be 0 or 1"]
    problems: list[str] = []
    grid = Grid.of(rows, cols)
    side_indices = grid.side_indices
    for r, row in enumerate(clues):
        for c, k in enumerate(row):
            if k is None:
                continue
            top, bottom, left, right = side_indices[r * cols + c]
            sides = value[top] + value[bottom] + value[left] + value[right]
            if sides != k:
                problems.append(f"cell r{r + 1}c{c + 1} has clue {k} but {sides} loop sides")
    # the loop's dots by index, over a table of each dot's edges made once per size (plain
    # lists: a networkx graph of a 30x30 loop took most of the check, and then a dict of dot
    # tuples; figures in encodings/diagnostics.md)
    if _one_loop(grid, value):
        return problems
    chosen = list(compress(range(len(value)), value))
    if not chosen:
        return problems + ["no loop: no edge is chosen"]
    width, dot_edges, ends = cols + 1, grid.dot_edges, grid.edge_dot_indices
    degree = [0] * len(dot_edges)
    for k in chosen:
        a, b = ends[k]
        degree[a] += 1
        degree[b] += 1
    if degree.count(1) + degree.count(3) + degree.count(4):
        for d, n in enumerate(degree):
            if n not in (0, 2):
                problems.append(f"dot ({d // width}, {d % width}) touches {n} loop edges, not 0 or 2")
    parts, seen = 0, bytearray(len(dot_edges))
    for k in chosen:
        start = ends[k][0]
        if seen[start]:
            continue
        parts += 1
        seen[start] = 1
        stack = [start]
        while stack:
            for e, q in dot_edges[stack.pop()]:
                if value[e] and not seen[q]:
                    seen[q] = 1
                    stack.append(q)
    if parts != 1:
        problems.append(f"the loop edges form {parts} separate pieces, not one loop")
    return problems


def _one_loop(grid: Grid, value: list[int]) -> bool:
    """Whether the chosen edges (``value`` in the grid's edge order) form one simple loop, by a
    walk: from the first chosen edge, every dot reached has exactly one more chosen edge, the
    walk comes back to its first dot (which has no third chosen edge), and it walked every
    chosen edge. The common case, proved without listing degrees or pieces; the full pass
    names what is broken otherwise."""
    count = sum(value)
    if not count:
        return False
    dot_edges, ends = grid.dot_edges, grid.edge_dot_indices
    came = value.index(1)
    start, dot = ends[came]
    steps = 1
    while steps <= count:
        step = -1
        for e, q in dot_edges[dot]:
            if value[e] and e != came:
                if step >= 0:
                    return False  # a dot with three or four chosen edges
                step, far = e, q
        if step < 0:
            return False  # a dead end
        steps += 1
        if far == start:
            # closed: the first dot has no third edge, and no chosen edge is off the walk
            return sum(value[e] for e, _ in dot_edges[start]) == 2 and steps == count
        came, dot = step, far
    return False
