"""The independent checker of Fillomino: plain Python and networkx, no pysat, no code shared with
the encoder. Rules (Nikoli; pzprjs ``fillomino.js`` ``AnsCheck``): every cell holds a number; a
region (4-connected cells of one number) has as many cells as its number, so two regions of one
size never share a side; a given number stays in its cell."""
from __future__ import annotations

from typing import Mapping, Sequence

import networkx as nx


def check_fillomino(rows: int, cols: int, givens: Mapping[tuple[int, int], int],
                    solution: Sequence[Sequence[int]]) -> list[str]:
    """The broken rules of ``solution`` (rows of positive numbers); empty = valid."""
    if len(solution) != rows or any(len(row) != cols for row in solution) or not all(
            type(v) is int and v >= 1 for row in solution for v in row):
        return [f"the solution is not {rows} rows of {cols} positive numbers"]
    problems = []
    for (r, c), v in givens.items():
        if solution[r][c] != v:
            problems.append(f"r{r + 1}c{c + 1}: the given {v} holds {solution[r][c]}")
    graph = nx.Graph()
    graph.add_nodes_from((r, c) for r in range(rows) for c in range(cols))
    for r in range(rows):
        for c in range(cols):
            for q in ((r + 1, c), (r, c + 1)):
                if q[0] < rows and q[1] < cols and solution[r][c] == solution[q[0]][q[1]]:
                    graph.add_edge((r, c), q)
    for region in nx.connected_components(graph):
        r, c = min(region)
        v = solution[r][c]
        if len(region) != v:
            problems.append(f"the region of {v}s at r{r + 1}c{c + 1} has {len(region)} cells, not {v}")
    return problems
