"""LITS rules, checked on a finished shading (plain Python and networkx, no SAT).

Rules (Nikoli, "LITS"; pzprjs ``lits.js`` checks the same, its checklist named in brackets):
no 2x2 block is shaded (``check2x2ShadeCell``); each room holds exactly four shaded cells
(``checkOverShadeCellInArea``, ``checkLessShadeCellInArea``, ``checkNoShadeCellInArea``), side
connected (``checkSeqBlocksInRoom``): a tetromino; two tetrominoes of the same shape (rotations
and reflections count as the same) never touch across a room border (``checkTetromino``); all
shaded cells are connected (``checkConnectShade``). A solution names each shaded cell's
tetromino by its letter (L, I, T, S; S covers its mirror image Z; the fifth tetromino, O, is a
2x2 block), and the letter must be the shape's.
"""
from __future__ import annotations

from typing import Sequence

import networkx as nx

from satgrid.grid import Grid, canonical

Cell = tuple[int, int]

#: The tetrominoes by their letters: O, the 2x2 block, breaks the no-2x2 rule and has none.
TETROMINOES: dict[str, tuple[Cell, ...]] = {
    "L": ((0, 0), (1, 0), (2, 0), (2, 1)),
    "I": ((0, 0), (1, 0), (2, 0), (3, 0)),
    "T": ((0, 0), (0, 1), (0, 2), (1, 1)),
    "S": ((0, 1), (0, 2), (1, 0), (1, 1)),
}
_LETTER = {canonical(cells): letter for letter, cells in TETROMINOES.items()}


def _name(r: int, c: int) -> str:
    return f"r{r + 1}c{c + 1}"


def letter_of(cells: Sequence[Cell]) -> str | None:
    """The letter of a tetromino's shape, or None when ``cells`` are not one of L, I, T, S."""
    return _LETTER.get(canonical(cells)) if len(cells) == 4 else None


def check_lits(rooms: Sequence[Sequence[int]], solution: Sequence[str]) -> list[str]:
    """Broken rules of ``solution`` (rows of a letter L/I/T/S per shaded cell, ``.`` unshaded;
    ``#`` a shaded cell without its letter, which is only right in a room that breaks a rule
    anyway) on the room grid ``rooms`` (a room number per cell); empty = valid."""
    rows, cols = len(rooms), len(rooms[0]) if rooms else 0
    if len(solution) != rows or any(len(row) != cols for row in solution):
        return [f"solution is not {rows}x{cols}"]
    if any(ch not in "LITS#." for row in solution for ch in row):
        return ["solution holds characters other than the letters L, I, T, S, '#' and '.'"]
    grid = Grid.of(rows, cols)
    shaded = {p for p in grid.cells if solution[p[0]][p[1]] != "."}
    problems: list[str] = []
    for window in grid.windows():
        if all(p in shaded for p in window):
            problems.append(f"the 2x2 block at {_name(*window[0])} is shaded")
    members: dict[int, list[Cell]] = {}
    for p in grid.cells:
        members.setdefault(rooms[p[0]][p[1]], []).append(p)
    shape: dict[int, str] = {}
    for room, cells in members.items():
        inside = [p for p in cells if p in shaded]
        where = f"the room at {_name(*cells[0])}"
        graph = nx.Graph()
        graph.add_nodes_from(inside)
        graph.add_edges_from((p, q) for p in inside for q in grid.neighbours(p) if q in graph)
        if len(inside) != 4:
            problems.append(f"{where} holds {len(inside)} shaded cells, not 4")
        elif not nx.is_connected(graph):
            problems.append(f"{where}: its 4 shaded cells are not side-connected")
        elif letter_of(inside) is None:
            problems.append(f"{where} holds an O tetromino")
        else:
            shape[room] = letter_of(inside)  # type: ignore[assignment]
            wrong = [p for p in inside if solution[p[0]][p[1]] != shape[room]]
            if wrong:
                problems.append(f"{where} holds an {shape[room]} tetromino, but {_name(*wrong[0])} "
                                f"says {solution[wrong[0][0]][wrong[0][1]]}")
    for p, q in grid.adjacent_pairs():
        a, b = rooms[p[0]][p[1]], rooms[q[0]][q[1]]
        if p in shaded and q in shaded and a != b and a in shape and shape.get(b) == shape[a]:
            problems.append(f"two {shape[a]} tetrominoes touch at {_name(*p)} and {_name(*q)}")
    graph = nx.Graph()
    graph.add_nodes_from(shaded)
    graph.add_edges_from((p, q) for p, q in grid.adjacent_pairs() if p in shaded and q in shaded)
    if len(shaded) > 0 and not nx.is_connected(graph):
        parts = sorted(nx.connected_components(graph), key=min)
        sizes = ", ".join(f"{len(part)} at {_name(*min(part))}" for part in parts)
        problems.append(f"the shaded cells form {len(parts)} separate groups ({sizes})")
    return problems
