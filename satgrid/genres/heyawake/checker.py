"""Heyawake rules, checked on a finished shading (plain Python, no SAT).

Rules (Nikoli, "Heyawake"; pzprjs ``heyawake.js`` checks the same four: ``checkAdjacentShadeCell``,
``checkConnectUnshadeRB``, ``checkShadeCellCount``, ``checkCountinuousUnshadeCell``): shaded cells
never share a side; the unshaded cells form one side-connected region; a room's number counts the
shaded cells in the room; no horizontal or vertical run of unshaded cells crosses two room
borders (pzprjs counts the borders inside each maximal run: at most one).
"""
from __future__ import annotations

from typing import Mapping, Sequence

from satgrid.grid import Grid, shading_rule_problems, shading_shape_problems

Cell = tuple[int, int]


def _name(p: Cell) -> str:
    return f"r{p[0] + 1}c{p[1] + 1}"


def check_heyawake(rows: int, cols: int, rooms: Sequence[Sequence[Cell]], numbers: Mapping[Cell, int],
                   solution: Sequence[str]) -> list[str]:
    """Broken rules of ``solution`` (rows of ``#`` shaded / ``.`` unshaded); empty = valid.

    ``rooms`` partition the grid; ``numbers`` maps the cell that holds a room's number (any cell
    of the room) to it."""
    malformed = shading_shape_problems(rows, cols, solution)
    if malformed:
        return malformed
    grid = Grid.of(rows, cols)
    shaded = {p for p in grid.cells if solution[p[0]][p[1]] == "#"}
    problems = shading_rule_problems(grid, shaded)
    room_of: dict[Cell, int] = {}
    for i, room in enumerate(rooms):
        for p in room:
            room_of[p] = i
    if set(room_of) != set(grid.cells):
        return problems + ["the rooms do not cover the grid"]
    for p, k in numbers.items():
        room = rooms[room_of[p]]
        count = sum(q in shaded for q in room)
        if count != k:
            problems.append(f"the room of {_name(p)} holds {count} shaded cells, its number says {k}")
    for run in grid.runs(lambda p: p not in shaded):
        borders = sum(room_of[p] != room_of[q] for p, q in zip(run, run[1:]))
        if borders >= 2:
            problems.append(f"the unshaded run {_name(run[0])}-{_name(run[-1])} crosses {borders} room borders")
    return problems
