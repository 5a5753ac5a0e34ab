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
    # By cell index over the rows joined into one string, and by a bit mask per row for the
    # 2x2 blocks: no set of cell tuples is built (figures in encodings/diagnostics.md).
    problems: list[str] = []
    flat = "".join(solution)
    for (r, c) in clues:
        if flat[r * cols + c] == "#":
            problems.append(f"numbered cell {_name(r, c)} is black")
    masks = [int("0" + row[::-1].replace("#", "1").replace(".", "0"), 2) for row in solution]
    for r in range(rows - 1):
        both = masks[r] & masks[r + 1]
        pairs = both & (both >> 1)  # bit c: cells c and c + 1 black in both rows
        while pairs:
            low = pairs & -pairs
            problems.append(f"2x2 black block at {_name(r, low.bit_length() - 1)}")
            pairs ^= low
    groups, label = Grid.of(rows, cols).groups(flat)
    walls = sum(1 for group in groups if flat[group[0]] == "#")
    if walls > 1:
        problems.append(f"black cells form {walls} separate regions")
    numbers: dict[int, list[tuple[int, int]]] = {}  # group -> the numbered cells in it
    for (r, c) in clues:
        numbers.setdefault(label[r * cols + c], []).append((r, c))
    for k, island in enumerate(groups):
        if flat[island[0]] == "#":
            continue
        held = numbers.get(k)
        if held is not None and len(held) == 1:
            size = clues[held[0]]
            if size != "?" and len(island) != size:
                problems.append(f"island of {_name(*held[0])} has {_cells(len(island))}, its number is {size}")
            continue
        first = divmod(island[0], cols)  # a group starts with its first cell in reading order
        if held is None:
            problems.append(f"island at {_name(*first)} ({_cells(len(island))}) has no number")
        else:
            names = ", ".join(_name(*p) for p in sorted(held))
            problems.append(f"island at {_name(*first)} holds {len(held)} numbers ({names})")
    return problems
