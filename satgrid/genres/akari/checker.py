"""Akari (Light Up) rules, checked on a finished placement of lights (plain Python, no SAT, no
code shared with the encoder: the light rays are walked cell by cell here).

Rules (Nikoli, "Bijutsukan" / Akari; pzprjs ``lightup.js`` checks ``akariDup``, ``nmAkariNe``,
``ceDark``; Tatham's ``lightup.c`` ``grid_lit``/``grid_overlap``/``grid_addsup``): lights stand in
white cells; a light shines along its row and column until a black cell or the grid's edge; every
white cell is lit (holds a light or is shone on); no light shines on another light; a number on a
black cell counts the lights in the (up to four) cells beside it.
"""
from __future__ import annotations

from typing import Mapping, Sequence

_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def _name(r: int, c: int) -> str:
    return f"r{r + 1}c{c + 1}"


def check_akari(rows: int, cols: int, black: Mapping[tuple[int, int], int | None],
                solution: Sequence[str]) -> list[str]:
    """Broken rules of ``solution`` (rows of ``o`` light, ``.`` white without a light, ``x`` black
    cell) for the black cells ``black`` (cell -> its number, or None); empty = valid."""
    if len(solution) != rows or any(len(row) != cols or set(row) - set("o.x") for row in solution):
        return [f"the solution is not {rows} rows of {cols} 'o', '.' or 'x'"]
    problems: list[str] = []
    for r in range(rows):
        for c in range(cols):
            if ((r, c) in black) != (solution[r][c] == "x"):
                problems.append(f"{_name(r, c)} is {'black' if (r, c) in black else 'white'} in the puzzle "
                                f"but {solution[r][c]!r} in the solution")
    if problems:
        return problems
    lights = [(r, c) for r in range(rows) for c in range(cols) if solution[r][c] == "o"]
    lit = set(lights)
    for r, c in lights:
        for dr, dc in _STEPS:
            y, x = r + dr, c + dc
            while 0 <= y < rows and 0 <= x < cols and solution[y][x] != "x":
                lit.add((y, x))
                if solution[y][x] == "o" and (y, x) > (r, c):
                    problems.append(f"the lights at {_name(r, c)} and {_name(y, x)} shine on each other")
                y, x = y + dr, x + dc
    dark = [(r, c) for r in range(rows) for c in range(cols) if solution[r][c] == "." and (r, c) not in lit]
    if dark:
        shown = ", ".join(_name(*p) for p in dark[:8]) + (", ..." if len(dark) > 8 else "")
        problems.append(f"{len(dark)} white cell{'s are' if len(dark) > 1 else ' is'} not lit ({shown})")
    for (r, c), k in black.items():
        if k is None:
            continue
        around = sum(0 <= r + dr < rows and 0 <= c + dc < cols and solution[r + dr][c + dc] == "o"
                     for dr, dc in _STEPS)
        if around != k:
            problems.append(f"the {k} at {_name(r, c)} has {around} light{'s' if around != 1 else ''} beside it")
    return problems
