"""The independent checker of the TEMPLATE genre (mines): plain Python, no pysat, no code shared
with the encoder. Rules: a numbered cell holds no mine; a number counts the mines among its up to
eight neighbours (sides and corners)."""
from __future__ import annotations

from typing import Mapping, Sequence

from satgrid.grid import Grid


def check_mines(rows: int, cols: int, numbers: Mapping[tuple[int, int], int],
                solution: Sequence[str]) -> list[str]:
    """The broken rules of ``solution`` (rows of ``*`` mine and ``.`` no mine); empty = valid."""
    if len(solution) != rows or any(len(row) != cols or set(row) - set("*.") for row in solution):
        return [f"the solution is not {rows} rows of {cols} '*' or '.'"]
    grid = Grid.of(rows, cols)
    problems = []
    for (r, c), k in numbers.items():
        if solution[r][c] == "*":
            problems.append(f"r{r + 1}c{c + 1} holds a number and a mine")
        around = sum(solution[q[0]][q[1]] == "*" for q in grid.king_neighbours((r, c)))
        if around != k:
            problems.append(f"r{r + 1}c{c + 1}: {k} wants {k} mines around it, there are {around}")
    return problems
