"""Sudoku rules: every row, column and box holds each of 1..n exactly once; givens are kept."""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from satgrid.grid import Cell, Grid


@lru_cache(maxsize=16)
def _units(n: int, box_height: int, box_width: int) -> tuple[tuple[str, int, tuple[Cell, ...]], ...]:
    """``(kind, 1-based index, cells)`` of every row, column and box (a batch checks thousands
    of grids of one shape: the units are made once)."""
    grid = Grid.of(n, n)
    units = [("row", r + 1, tuple(grid.row(r))) for r in range(n)]
    units += [("column", c + 1, tuple(grid.column(c))) for c in range(n)]
    units += [("box", b + 1, box) for b, box in enumerate(grid.boxes(box_height, box_width))]
    return tuple(units)


def check_sudoku(
    givens: Sequence[Sequence[int | None]],
    box_height: int,
    box_width: int,
    solution: Sequence[Sequence[int]],
) -> list[str]:
    n = len(givens)
    problems: list[str] = []
    if len(solution) != n or any(len(row) != n for row in solution):
        return [f"solution is not {n}x{n}"]
    if box_height <= 0 or box_width <= 0 or box_height * box_width != n:
        return [f"boxes {box_height}x{box_width} do not tile a {n}x{n} grid"]
    values = set(range(1, n + 1))
    for r, (given_row, row) in enumerate(zip(givens, solution)):
        for c, (given, value) in enumerate(zip(given_row, row)):
            if given is not None and value != given:
                problems.append(f"r{r + 1}c{c + 1} is {value}, the given is {given}")
    for kind, index, cells in _units(n, box_height, box_width):
        seen = {solution[r][c] for r, c in cells}
        if seen != values:
            problems.append(f"{kind} {index} holds {sorted(seen)} instead of 1..{n} once each")
    return problems
