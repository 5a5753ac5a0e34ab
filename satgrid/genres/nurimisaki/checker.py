"""Nurimisaki rules, checked on a finished shading (plain Python, no SAT, nothing
shared with the encoder).

Rules (Nikoli's Nurimisaki; pzprjs ``kurodoko.js``, pid ``nurimisaki``, checks this list:
``checkShadeCellExist``, ``check2x2ShadeCell``, ``checkConnectUnshade``, ``checkViewOfNumber``,
``check2x2UnshadeCell``, ``checkCirclePromontory``, ``checkNonCircleNotPromontory``): some cell
is shaded; no 2x2 block is all shaded, none all unshaded; the unshaded cells form one
side-connected region; a circle stands on an unshaded cell with exactly one unshaded side
neighbour (a cape), and every such cell holds a circle; a number in a circle counts the
unshaded cells seen from it along its row and its column up to the first shaded cell or the
edge, itself included.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from satgrid.grid import Grid, seen_from, unshaded_split

Cell = tuple[int, int]


def _name(r: int, c: int) -> str:
    return f"r{r + 1}c{c + 1}"


def open_neighbours(solution: Sequence[str], r: int, c: int) -> int:
    """How many side neighbours of (r, c) are unshaded."""
    rows, cols = len(solution), len(solution[0])
    return sum(0 <= y < rows and 0 <= x < cols and solution[y][x] != "#"
               for y, x in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)))


def check_nurimisaki(rows: int, cols: int, circles: Mapping[Cell, object], solution: Sequence[str]) -> list[str]:
    """Broken rules of ``solution`` (rows of ``#`` shaded / ``.`` unshaded); empty = valid.
    ``circles`` maps every cell holding a circle to its number, or to ``"?"`` (no number)."""
    if len(solution) != rows or any(len(row) != cols or set(row) - set("#.") for row in solution):
        return [f"the solution is not {rows} rows of {cols} '#' or '.'"]
    problems: list[str] = []
    if not any("#" in row for row in solution):
        problems.append("no cell is shaded")
    for r in range(rows - 1):
        for c in range(cols - 1):
            block = {solution[r][c], solution[r][c + 1], solution[r + 1][c], solution[r + 1][c + 1]}
            if block == {"#"}:
                problems.append(f"the 2x2 block at {_name(r, c)} is all shaded")
            elif block == {"."}:
                problems.append(f"the 2x2 block at {_name(r, c)} is all unshaded")
    for r in range(rows):
        for c in range(cols):
            k = circles.get((r, c))
            if k is None:
                if solution[r][c] == "." and open_neighbours(solution, r, c) == 1:
                    problems.append(f"{_name(r, c)} is a cape (one unshaded neighbour) without a circle")
                continue
            if solution[r][c] == "#":
                problems.append(f"the circle at {_name(r, c)} is shaded")
                continue
            around = open_neighbours(solution, r, c)
            if around != 1:
                problems.append(f"the circle at {_name(r, c)} is no cape: it has {around} unshaded neighbours")
            if isinstance(k, int) and (seen := seen_from(solution, r, c)) != k:
                problems.append(f"the circle {k} at {_name(r, c)} sees {seen} unshaded cells")
    shaded = {(r, c) for r in range(rows) for c in range(cols) if solution[r][c] == "#"}
    return problems + unshaded_split(Grid.of(rows, cols), shaded)
