"""Hitori rules, checked on a finished shading (plain Python, no SAT).

Rules (Nikoli, "Hitori ni shite kure"; pzprjs ``hitori.js`` checks the same three): no number
appears twice among the unshaded cells of a row or of a column; shaded cells never share a side;
the unshaded cells form one side-connected region. A cell without a number may be shaded or not.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from satgrid.grid import Grid, shading_rule_problems, shading_shape_problems


def _name(r: int, c: int) -> str:
    return f"r{r + 1}c{c + 1}"


def check_hitori(rows: int, cols: int, numbers: Mapping[tuple[int, int], int],
                 solution: Sequence[str]) -> list[str]:
    """Broken rules of ``solution`` (rows of ``#`` shaded / ``.`` unshaded); empty = valid.

    ``numbers`` maps every cell that holds a number to it."""
    malformed = shading_shape_problems(rows, cols, solution)
    if malformed:
        return malformed
    problems: list[str] = []
    grid = Grid.of(rows, cols)
    shaded = {p for p in grid.cells if solution[p[0]][p[1]] == "#"}
    for kind, lines in (("row", [grid.row(r) for r in range(rows)]),
                        ("column", [grid.column(c) for c in range(cols)])):
        for index, line in enumerate(lines, 1):
            seen: dict[int, list[tuple[int, int]]] = {}
            for p in line:
                if p in numbers and p not in shaded:
                    seen.setdefault(numbers[p], []).append(p)
            for n, cells in seen.items():
                if len(cells) > 1:
                    where = ", ".join(_name(*p) for p in cells)
                    problems.append(f"number {n} is unshaded {len(cells)} times in {kind} {index} ({where})")
    problems += shading_rule_problems(grid, shaded)
    return problems
