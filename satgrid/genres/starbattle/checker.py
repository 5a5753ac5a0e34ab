"""Star Battle rules, checked on a finished placement of stars (plain Python and networkx, no SAT,
no code shared with the encoder).

Rules (Nikoli's and janko.at's "Sternenschlacht"; pzprjs ``starbattle.js`` checks the same:
``checkAroundStars``, ``checkOverSaturatedStars``, ``checkInsufficientStars``,
``checkStarCountInLine``): every row, every column and every room holds exactly ``k`` stars, and
no two stars touch, by a side or by a corner. Rooms are the side-connected groups of cells with
one room id, found here with networkx. A blocked cell (janko.at's black cells; id None) is in no
room and holds no star.
"""
from __future__ import annotations

from typing import Hashable, Sequence

import networkx as nx


def _name(r: int, c: int) -> str:
    return f"r{r + 1}c{c + 1}"


def rooms_of(ids: Sequence[Sequence[Hashable]]) -> list[list[tuple[int, int]]]:
    """The rooms of a room-id grid (None: a blocked cell, in no room): connected components of
    the graph whose edges join side neighbours with equal ids, each in reading order, ordered by
    first cell."""
    rows, cols = len(ids), len(ids[0]) if ids else 0
    g = nx.Graph()
    g.add_nodes_from((r, c) for r in range(rows) for c in range(cols) if ids[r][c] is not None)
    g.add_edges_from(((r, c), (r + dr, c + dc)) for r in range(rows) for c in range(cols)
                     for dr, dc in ((0, 1), (1, 0))
                     if r + dr < rows and c + dc < cols and ids[r][c] is not None
                     and ids[r][c] == ids[r + dr][c + dc])
    return sorted(sorted(room) for room in nx.connected_components(g))


def check_starbattle(ids: Sequence[Sequence[Hashable]], stars: int, solution: Sequence[str]) -> list[str]:
    """Broken rules of ``solution`` (rows of ``#`` star and ``.`` no star) on the room-id grid
    ``ids`` (None: a blocked cell, which holds no star) with ``stars`` stars per row, column and
    room; empty = valid."""
    rows, cols = len(ids), len(ids[0]) if ids else 0
    if len(solution) != rows or any(len(row) != cols or set(row) - set("#.") for row in solution):
        return [f"the solution is not {rows} rows of {cols} '#' (star) or '.'"]
    star = {(r, c) for r in range(rows) for c in range(cols) if solution[r][c] == "#"}
    problems = [f"{_name(r, c)} is blocked and holds a star" for r, c in sorted(star) if ids[r][c] is None]
    for kind, lines in (("row", [[(r, c) for c in range(cols)] for r in range(rows)]),
                        ("column", [[(r, c) for r in range(rows)] for c in range(cols)])):
        for i, line in enumerate(lines, 1):
            n = sum(p in star for p in line)
            if n != stars:
                problems.append(f"{kind} {i} holds {n} stars, not {stars}")
    for room in rooms_of(ids):
        n = sum(p in star for p in room)
        if n != stars:
            r, c = room[0]
            problems.append(f"the room of {_name(r, c)} holds {n} stars, not {stars}")
    for r, c in sorted(star):
        for q in ((r, c + 1), (r + 1, c - 1), (r + 1, c), (r + 1, c + 1)):
            if q in star:
                problems.append(f"stars {_name(r, c)} and {_name(*q)} touch")
    return problems
