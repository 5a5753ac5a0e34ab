"""Nurikabe rules, checked on a finished colouring (plain Python + networkx, no SAT).

Rules (R. Hui, J wiki essay "Essays/Nurikabe"): numbered cells are white; every white region
("island") is 4-connected, holds exactly one number and has exactly that many cells (a ``?``
number: any size); all black cells form one 4-connected region; no 2x2 block is all black.
"""
from __future__ import annotations

from typing import Mapping, Sequence, Union

import networkx as nx

ClueValue = Union[int, str]  # a size, or "?" for a number whose value is not given


def _name(r: int, c: int) -> str:
    return f"r{r + 1}c{c + 1}"


def check_nurikabe(
    rows: int,
    cols: int,
    clues: Mapping[tuple[int, int], ClueValue],
    solution: Sequence[str],
) -> list[str]:
    """Broken rules of ``solution`` (rows of ``#`` black / ``.`` white); empty = valid.

    ``clues`` maps every numbered cell, ``?`` ones included, to its size or ``"?"``.
    """
    if len(solution) != rows or any(len(row) != cols for row in solution):
        return [f"solution is not {rows}x{cols}"]
    if any(ch not in "#." for row in solution for ch in row):
        return ["solution holds characters other than '#' and '.'"]
    problems: list[str] = []
    black = {(r, c) for r in range(rows) for c in range(cols) if solution[r][c] == "#"}
    for (r, c) in clues:
        if (r, c) in black:
            problems.append(f"numbered cell {_name(r, c)} is black")
    for r in range(rows - 1):
        for c in range(cols - 1):
            if {(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)} <= black:
                problems.append(f"2x2 black block at {_name(r, c)}")

    def regions(cells: set[tuple[int, int]]) -> list[set[tuple[int, int]]]:
        graph = nx.Graph()
        graph.add_nodes_from(cells)
        for r, c in cells:
            for q in ((r + 1, c), (r, c + 1)):
                if q in cells:
                    graph.add_edge((r, c), q)
        return [set(part) for part in nx.connected_components(graph)]

    walls = regions(black)
    if len(walls) > 1:
        problems.append(f"black cells form {len(walls)} separate regions")
    white = {(r, c) for r in range(rows) for c in range(cols)} - black
    for island in regions(white):
        numbers = sorted(p for p in island if p in clues)
        first = min(island)
        if not numbers:
            problems.append(f"island at {_name(*first)} ({len(island)} cells) has no number")
        elif len(numbers) > 1:
            names = ", ".join(_name(*p) for p in numbers)
            problems.append(f"island at {_name(*first)} holds {len(numbers)} numbers ({names})")
        else:
            size = clues[numbers[0]]
            if size != "?" and len(island) != size:
                problems.append(
                    f"island of {_name(*numbers[0])} has {len(island)} cells, its number is {size}"
                )
    return problems
