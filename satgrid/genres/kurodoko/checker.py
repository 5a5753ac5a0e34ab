"""Kurodoko rules, checked on a finished shading (plain Python, no SAT, nothing shared with the
encoder).

Rules (Nikoli's Kurodoko; pzprjs ``kurodoko.js`` checks the same list, Tatham's ``range.c`` too):
shaded cells never share a side; the unshaded cells form one side-connected region; a number
stands on an unshaded cell and counts the unshaded cells seen from it along its row and its
column up to the first shaded cell or the edge, itself included.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from satgrid.grid import Grid, seen_from, unshaded_split

Cell = tuple[int, int]


def _name(r: int, c: int) -> str:
    return f"r{r + 1}c{c + 1}"


def check_kurodoko(rows: int, cols: int, numbers: Mapping[Cell, int], solution: Sequence[str]) -> list[str]:
    """Broken rules of ``solution`` (rows of ``#`` shaded / ``.`` unshaded); empty = valid.
    ``numbers`` maps every cell that holds a number to it."""
    if len(solution) != rows or any(len(row) != cols or set(row) - set("#.") for row in solution):
        return [f"the solution is not {rows} rows of {cols} '#' or '.'"]
    problems: list[str] = []
    for (r, c), k in sorted(numbers.items()):
        if solution[r][c] == "#":
            problems.append(f"the number {k} at {_name(r, c)} is shaded")
            continue
        seen = seen_from(solution, r, c)
        if seen != k:
            problems.append(f"the number {k} at {_name(r, c)} sees {seen} unshaded cells")
    shaded = set()
    for r in range(rows):
        for c in range(cols):
            if solution[r][c] == "#":
                shaded.add((r, c))
                if c + 1 < cols and solution[r][c + 1] == "#":
                    problems.append(f"shaded cells {_name(r, c)} and {_name(r, c + 1)} touch")
                if r + 1 < rows and solution[r + 1][c] == "#":
                    problems.append(f"shaded cells {_name(r, c)} and {_name(r + 1, c)} touch")
    return problems + unshaded_split(Grid.of(rows, cols), shaded)
