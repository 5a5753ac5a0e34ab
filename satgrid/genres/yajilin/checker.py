"""Yajilin rules, checked on a finished drawing (plain Python and networkx, no SAT).

Rules (Nikoli; pzprjs ``yajirin.js`` checks the same, its checklist names in brackets): shade
some cells and draw one loop through the centres of all other cells that are not clue cells, by
links between side-adjacent cells; the loop never branches or crosses itself
(``checkBranchLine``, ``checkCrossLine``, ``checkDeadendLine``, ``checkOneLoop``) and passes
through every cell that is neither shaded nor a clue cell (``checkEmptyCell_yajirin``); no link
touches a shaded cell (``checkLineOnShadeCell``) or a clue cell; shaded cells never share a side
(``checkAdjacentShadeCell``); clue cells are not shaded; an arrow with a number counts the shaded
cells from its cell to the grid's edge in its direction (``checkArrowNumber``).
"""
from __future__ import annotations

from typing import Mapping, Sequence

import networkx as nx

from satgrid.grid import Grid, shading_shape_problems

Cell = tuple[int, int]
STEPS = {"n": (-1, 0), "s": (1, 0), "e": (0, 1), "w": (0, -1)}
WORDS = {"n": "up", "s": "down", "e": "right", "w": "left"}


def _name(p: Cell) -> str:
    return f"r{p[0] + 1}c{p[1] + 1}"


def check_yajilin(rows: int, cols: int, clue_cells: Mapping[Cell, tuple[str, int | None]],
                  shading: Sequence[str], horizontal: Sequence[Sequence[int]],
                  vertical: Sequence[Sequence[int]]) -> list[str]:
    """Broken rules of the drawing (empty = a valid solution). ``clue_cells`` maps every clue
    cell to ``(direction, number)``: direction ``n``/``s``/``e``/``w`` or ``""`` (none), number
    or None (none: the cell counts nothing). ``shading``: rows of ``#`` (shaded) and ``.``;
    ``horizontal[r][c]`` links ``(r, c)`` to ``(r, c + 1)``, ``vertical[r][c]`` ``(r, c)`` to
    ``(r + 1, c)``."""
    malformed = shading_shape_problems(rows, cols, shading)
    if malformed:
        return malformed
    if len(horizontal) != rows or any(len(row) != cols - 1 for row in horizontal):
        return [f"horizontal links are not {rows} rows of {cols - 1}"]
    if len(vertical) != rows - 1 or any(len(row) != cols for row in vertical):
        return [f"vertical links are not {rows - 1} rows of {cols}"]
    if any(type(v) is not int or v not in (0, 1) for grid in (horizontal, vertical) for row in grid for v in row):
        return ["link values must be 0 or 1"]
    grid = Grid.of(rows, cols)
    shaded = {p for p in grid.cells if shading[p[0]][p[1]] == "#"}
    loop = nx.Graph()
    loop.add_edges_from(((r, c), (r, c + 1)) for r, row in enumerate(horizontal) for c, x in enumerate(row) if x)
    loop.add_edges_from(((r, c), (r + 1, c)) for r, row in enumerate(vertical) for c, x in enumerate(row) if x)
    problems: list[str] = []
    if loop.number_of_edges() == 0:
        problems.append("no loop: no link is drawn")
    for p in sorted(clue_cells):
        if p in shaded:
            problems.append(f"the clue cell {_name(p)} is shaded")
        if p in loop:
            problems.append(f"the loop passes through the clue cell {_name(p)}")
    for p in sorted(shaded):
        if p in loop:
            problems.append(f"the loop passes through the shaded cell {_name(p)}")
    for p, q in grid.adjacent_pairs():
        if p in shaded and q in shaded:
            problems.append(f"shaded cells {_name(p)} and {_name(q)} touch")
    for p in grid.cells:
        degree = loop.degree(p) if p in loop else 0
        if degree == 0 and p not in shaded and p not in clue_cells:
            problems.append(f"{_name(p)} is neither shaded nor on the loop")
        elif degree == 1:
            problems.append(f"the loop ends at {_name(p)}")
        elif degree > 2:
            problems.append(f"the loop branches at {_name(p)} ({degree} links meet)")
    if loop.number_of_edges() and nx.number_connected_components(loop) > 1:
        problems.append(f"the links form {nx.number_connected_components(loop)} separate pieces, not one loop")
    for p, (direction, n) in sorted(clue_cells.items()):
        if not direction or n is None:
            continue
        dr, dc = STEPS[direction]
        count, (r, c) = 0, (p[0] + dr, p[1] + dc)
        while 0 <= r < rows and 0 <= c < cols:
            count += (r, c) in shaded
            r, c = r + dr, c + dc
        if count != n:
            problems.append(f"the arrow at {_name(p)} says {n} shaded cells {WORDS[direction]}, there are {count}")
    return problems
