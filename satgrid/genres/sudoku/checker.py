"""Sudoku rules: every row, column and box holds each of 1..n exactly once; givens are kept."""
from __future__ import annotations

from typing import Sequence

from satgrid.grid import Grid


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
    for r in range(n):
        for c in range(n):
            if givens[r][c] is not None and solution[r][c] != givens[r][c]:
                problems.append(f"r{r + 1}c{c + 1} is {solution[r][c]}, the given is {givens[r][c]}")
    grid = Grid.of(n, n)
    groups = [("row", r + 1, grid.row(r)) for r in range(n)]
    groups += [("column", c + 1, grid.column(c)) for c in range(n)]
    groups += [("box", b + 1, box) for b, box in enumerate(grid.boxes(box_height, box_width))]
    for kind, index, cells in groups:
        seen = {solution[r][c] for r, c in cells}
        if seen != values:
            problems.append(f"{kind} {index} holds {sorted(seen)} instead of 1..{n} once each")
    return problems
