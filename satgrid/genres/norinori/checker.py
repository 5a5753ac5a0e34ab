"""Norinori rules, checked on a finished shading (plain Python and networkx, no SAT).

Rules (Nikoli, "Norinori"; pzprjs ``lits.js``, whose Norinori checks are the same): every room
holds exactly two shaded cells, and each shaded cell touches exactly one other shaded cell side
by side, so the shaded cells form dominoes (a domino may lie across a room border).
"""
from __future__ import annotations

from typing import Sequence

import networkx as nx

from satgrid.grid import shading_shape_problems


def _name(p: tuple[int, int]) -> str:
    return f"r{p[0] + 1}c{p[1] + 1}"


def check_norinori(rows: int, cols: int, rooms: Sequence[Sequence[tuple[int, int]]],
                   solution: Sequence[str]) -> list[str]:
    """Broken rules of ``solution`` (rows of ``#`` shaded / ``.`` unshaded) in the grid divided
    into ``rooms`` (lists of cells); empty = valid."""
    malformed = shading_shape_problems(rows, cols, solution)
    if malformed:
        return malformed
    problems: list[str] = []
    shaded = {(r, c) for r in range(rows) for c in range(cols) if solution[r][c] == "#"}
    for k, room in enumerate(rooms, 1):
        count = sum(p in shaded for p in room)
        if count != 2:
            problems.append(f"room {k} (at {_name(min(room))}) holds {count} shaded cells, not 2")
    graph = nx.Graph()
    graph.add_nodes_from(shaded)
    graph.add_edges_from((p, (p[0] + dr, p[1] + dc)) for p in shaded for dr, dc in ((0, 1), (1, 0))
                         if (p[0] + dr, p[1] + dc) in shaded)
    for p in sorted(shaded):
        degree = graph.degree[p]
        if degree != 1:
            problems.append(f"shaded cell {_name(p)} touches {degree} shaded cells, not 1")
    return problems
