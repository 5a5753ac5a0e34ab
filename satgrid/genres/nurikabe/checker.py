"""Nurikabe rules, checked on a finished colouring (plain Python, no SAT).

Rules (R. Hui, J wiki essay "Essays/Nurikabe"): numbered cells are white; every white region
("island") is 4-connected, holds exactly one number and has exactly that many cells (a ``?``
number: any size); all black cells form one 4-connected region; no 2x2 block is all black.
"""
from __future__ import annotations

from typing import Mapping, Sequence, Union

from satgrid.grid import Grid, shading_shape_problems

ClueValue = Union[int, str]  # a size, or "?" for a number whose value is not given


def _name(r: int, c: int) -> str:
    return f"r{r + 1}c{c + 1}"


def _cells(n: int) -> str:
    """``n`` cells in words: "1 cell", "5 cells"."""
    return f"{n} {'cell' if n == 1 else 'cells'}"


def check_nurikabe(
    rows: int,
    cols: int,
    clues: Mapping[tuple[int, int], ClueValue],
    solution: Sequence[str],
) -> list[str]:
    """Broken rules of ``solution`` (rows of ``#`` black / ``.`` white); empty = valid.

    ``clues`` maps every numbered cell, ``?`` ones included, to its size or ``"?"``.
    """
    malformed = shading_shape_problems(rows, cols, solution)
    if malformed:
        return malformed
    problems: list[str] = []
    grid = Grid.of(rows, cols)
    black = {(r, c) for r, c in grid.cells if solution[r][c] == "#"}
    for (r, c) in clues:
        if (r, c) in black:
            problems.append(f"numbered cell {_name(r, c)} is black")
    for block in grid.windows():
        if black.issuperset(block):
            problems.append(f"2x2 black block at {_name(*block[0])}")
    walls = grid.components(black)
    if len(walls) > 1:
        problems.append(f"black cells form {len(walls)} separate regions")
    white = [p for p in grid.cells if p not in black]
    for island in grid.components(white):
        numbers = sorted(p for p in island if p in clues)
        first = min(island)
        if not numbers:
            problems.append(f"island at {_name(*first)} ({_cells(len(island))}) has no number")
        elif len(numbers) > 1:
            names = ", ".join(_name(*p) for p in numbers)
            problems.append(f"island at {_name(*first)} holds {len(numbers)} numbers ({names})")
        else:
            size = clues[numbers[0]]
            if size != "?" and len(island) != size:
                problems.append(
                    f"island of {_name(*numbers[0])} has {_cells(len(island))}, its number is {size}"
                )
    return problems
