"""Masyu rules, checked on a finished drawing (plain Python and networkx, no SAT).

Rules (Nikoli; the puzz.link checklist of pzprjs ``mashu`` names the same failures): draw one
loop through the centres of cells, by links between side-adjacent cells, that never branches or
crosses itself; it passes through every pearl. On a white pearl it goes straight and turns in at
least one of the two cells before and after the pearl. On a black pearl it turns and goes
straight through both cells next to the pearl.

Links, as the Masyu genre writes them: ``horizontal[r][c]`` joins cell ``(r, c)`` to ``(r, c + 1)``
(``rows`` lists of ``cols - 1``), ``vertical[r][c]`` joins ``(r, c)`` to ``(r + 1, c)`` (``rows - 1``
lists of ``cols``).
"""
from __future__ import annotations

from typing import Sequence

import networkx as nx

from satgrid.grid import Grid

Cell = tuple[int, int]
NAMES = {"w": "white", "b": "black"}


def _name(p: Cell) -> str:
    return f"r{p[0] + 1}c{p[1] + 1}"


def check_masyu(
    pearls: Sequence[Sequence[str | None]],
    horizontal: Sequence[Sequence[int]],
    vertical: Sequence[Sequence[int]],
) -> list[str]:
    """Broken rules of the drawing (empty = a valid solution); ``pearls[r][c]`` is ``"w"``,
    ``"b"`` or None."""
    rows = len(pearls)
    cols = len(pearls[0]) if rows else 0
    if rows == 0 or cols == 0 or any(len(row) != cols for row in pearls):
        return ["the pearl grid is empty or not rectangular"]
    if any(v not in (None, "w", "b") for row in pearls for v in row):
        return ["a pearl is neither 'w' (white) nor 'b' (black)"]
    if len(horizontal) != rows or any(len(row) != cols - 1 for row in horizontal):
        return [f"horizontal links are not {rows} rows of {cols - 1}"]
    if len(vertical) != rows - 1 or any(len(row) != cols for row in vertical):
        return [f"vertical links are not {rows - 1} rows of {cols}"]
    if any(v not in (0, 1) or type(v) is not int for grid in (horizontal, vertical) for row in grid for v in row):
        return ["link values must be 0 or 1"]
    grid = Grid.of(rows, cols)
    loop = nx.Graph()
    loop.add_edges_from(((r, c), (r, c + 1)) for r, row in enumerate(horizontal) for c, x in enumerate(row) if x)
    loop.add_edges_from(((r, c), (r + 1, c)) for r, row in enumerate(vertical) for c, x in enumerate(row) if x)
    if loop.number_of_edges() == 0:
        return ["no loop: no link is drawn"]
    problems: list[str] = []
    for p, degree in sorted(loop.degree()):
        if degree == 1:
            problems.append(f"the loop ends at {_name(p)}")
        elif degree > 2:
            problems.append(f"the loop branches at {_name(p)} ({degree} links meet)")
    parts = nx.number_connected_components(loop)
    if parts != 1:
        problems.append(f"the links form {parts} separate pieces, not one loop")

    def linked(p: Cell, q: Cell) -> bool:
        return loop.has_edge(p, q)

    def straight(p: Cell) -> bool | None:
        """Whether the loop goes straight through ``p`` (None: ``p`` is not a plain loop cell)."""
        if p not in loop or loop.degree(p) != 2:
            return None
        (a, b), (c, d) = (tuple(q) for q in loop[p])
        return a == c or b == d

    for p in grid.cells:
        kind = pearls[p[0]][p[1]]
        if kind is None:
            continue
        pearl = f"the {NAMES[kind]} pearl at {_name(p)}"
        here = straight(p)
        if p not in loop:
            problems.append(f"the loop does not pass through {pearl}")
        elif here is None:
            continue  # a branch, already reported
        elif kind == "w" and not here:
            problems.append(f"the loop turns on {pearl} (it must go straight)")
        elif kind == "b" and here:
            problems.append(f"the loop goes straight through {pearl} (it must turn)")
        elif kind == "w":
            if all(straight(q) for q in loop[p]):
                problems.append(f"the loop goes straight through both cells next to {pearl} "
                                "(it must turn in at least one)")
        else:
            for q in grid.neighbours(p):
                if linked(p, q) and straight(q) is False:
                    problems.append(f"the loop turns in {_name(q)}, next to {pearl} (it must go straight there)")
    return problems
