"""The LITS room sampler: rooms around a planted solution, repaired until the solution is unique.

1. **A planted shading.** Tetrominoes (L, I, T, S in any of their orientations) are laid one by
   one, each touching the shading so far, so the shaded cells stay connected; a placement is
   refused if it covers a shaded cell, completes a shaded 2x2 block or touches a tetromino of
   its own letter. A random cell next to the shading is tried with every placement through it in
   random order; a cell no placement fits is dropped; laying stops when no cell is left.
2. **Rooms.** Each tetromino is the seed of a room; the unshaded cells join neighbouring rooms
   one at a time, a random cell next to a random room, until every cell has its room (the grid
   is connected, so all do). The planted shading obeys every rule in these rooms.
3. **Repair.** The solver looks for a second solution. If there is one, an unshaded cell of the
   planted shading that it shades moves to a neighbouring room, with the cells of its room that
   it alone joined to the room's tetromino: that solution's room loses a cell of its tetromino
   and the room taking the cell would hold five shaded ones, so that solution is gone, and the
   planted shading still obeys the rules (its shaded cells keep their rooms). Repeated until the solver finds none (a unique puzzle) or no cell
   can move (start again).

Step 1 follows the usual way of setting LITS by hand (the tetromino chain first, then the rooms
drawn around it, then closing the gaps a second solution shows); step 3 is the closing, left to
the solver.
"""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, Callable

from ...errors import SatgridError
from ...grid import Grid, transforms
from .checker import TETROMINOES

Cell = tuple[int, int]

#: Every orientation of the four letters, as (letter, normalised cells).
ORIENTED = [(letter, tuple(sorted(image))) for letter, cells in TETROMINOES.items()
            for image in dict.fromkeys(transforms(cells))]
#: Repair steps before a planting is dropped, per room.
REPAIRS_PER_ROOM = 4
#: Plantings before a size is given up.
PLANTINGS = 100


def plant(grid: Grid, rng: random.Random) -> list[tuple[str, tuple[Cell, ...]]]:
    """Step 1: the planted tetrominoes, as (letter, cells), in the order laid."""
    letter_at: dict[Cell, str] = {}
    pieces: list[tuple[str, tuple[Cell, ...]]] = []
    inside, adjacent, windows = frozenset(grid.cells), grid.adjacency, _windows_at(grid.rows, grid.cols)

    def fits(letter: str, cells: tuple[Cell, ...]) -> bool:
        if any(p not in inside or p in letter_at for p in cells):
            return False
        for p in cells:
            for q in adjacent[p]:
                if letter_at.get(q) == letter and q not in cells:
                    return False
        for p in cells:  # the 2x2 windows around each new cell
            for window in windows[p]:
                if all(q in letter_at or q in cells for q in window):
                    return False
        for p in cells:  # a cell walled in by this tetromino alone would be its room's for good
            for q in adjacent[p]:
                if q not in cells and q not in letter_at and all(s in cells for s in adjacent[q]):
                    return False
        return True

    def lay(letter: str, cells: tuple[Cell, ...]) -> None:
        pieces.append((letter, cells))
        for p in cells:
            letter_at[p] = letter

    first = [(letter, tuple((r + r0, c + c0) for r, c in shape)) for letter, shape in ORIENTED
             for r0, c0 in grid.cells]
    rng.shuffle(first)  # the first that fits is uniform among those that fit
    for letter, cells in first:
        if fits(letter, cells):
            lay(letter, cells)
            break
    frontier = {q for p in letter_at for q in grid.neighbours(p) if q not in letter_at}
    while frontier:
        p = rng.choice(sorted(frontier))
        frontier.discard(p)
        options = [(letter, shape, anchor) for letter, shape in ORIENTED for anchor in shape]
        rng.shuffle(options)
        for letter, shape, (ar, ac) in options:
            cells = tuple((r + p[0] - ar, c + p[1] - ac) for r, c in shape)
            if fits(letter, cells):
                lay(letter, cells)
                frontier |= {q for s in cells for q in grid.neighbours(s) if q not in letter_at}
                frontier -= set(cells)
                break
    return pieces


def rooms_around(grid: Grid, pieces: list[tuple[str, tuple[Cell, ...]]], rng: random.Random) -> dict[Cell, int]:
    """Step 2: a room number per cell, room ``i`` grown from piece ``i``. Each step gives a cell
    next to a room to the room where it makes the fewest *alternatives* (ties at random): other
    tetrominoes through the cell inside the room that the rules allow beside the planted
    tetrominoes of the other rooms (:func:`alternatives`). A cell that makes none adds no second
    solution in which only its room changes."""
    room = {p: i for i, (_, cells) in enumerate(pieces) for p in cells}
    letter = {p: pieces[i][0] for p, i in room.items()}
    # scores of the (cell, room) pairs, kept up to date: a cell joining room i changes only the
    # scores for room i of cells within 3 steps of it (a tetromino spans at most 3)
    score: dict[tuple[Cell, int], tuple[int, float]] = {}

    def rescore(q: Cell, i: int) -> None:
        score[q, i] = (alternatives(grid, room, letter, q, i), rng.random())

    for p in sorted(room):
        for q in grid.neighbours(p):
            if q not in room and (q, room[p]) not in score:
                rescore(q, room[p])
    while score:
        q, i = min(score, key=lambda pair: (score[pair], pair))
        room[q] = i
        for pair in [pair for pair in score if pair[0] == q]:
            del score[pair]
        for pair in [pair for pair in score if pair[1] == i and abs(pair[0][0] - q[0]) + abs(pair[0][1] - q[1]) <= 3]:
            rescore(*pair)
        for s in grid.neighbours(q):
            if s not in room and (s, i) not in score:
                rescore(s, i)
    return room


def alternatives(grid: Grid, room: dict[Cell, int], letter: dict[Cell, str], q: Cell, i: int) -> int:
    """The tetrominoes through ``q`` inside room ``i`` (with ``q`` added) that, with every other
    room's planted tetromino (``letter``: the letter of each planted cell), complete no shaded
    2x2 block, touch no tetromino of their own letter and touch some other room's shaded cell."""
    count = 0
    for name, shape in ORIENTED:
        for ar, ac in shape:
            cells = [(r + q[0] - ar, c + q[1] - ac) for r, c in shape]
            if not all(p == q or room.get(p) == i for p in cells):
                continue
            mine = set(cells)
            touching = [letter[s] for p in cells for s in grid.neighbours(p)
                        if s not in mine and s in letter and room[s] != i]
            if not touching or name in touching:
                continue
            if any(all(s in mine or (s in letter and room[s] != i) for s in window)
                   for p in cells for window in _windows_at(grid.rows, grid.cols)[p]):
                continue
            count += 1
    return count


@lru_cache(maxsize=8)
def _windows_at(rows: int, cols: int) -> dict[Cell, list[tuple[Cell, ...]]]:
    """Per cell, the 2x2 windows holding it."""
    out: dict[Cell, list[tuple[Cell, ...]]] = {(r, c): [] for r in range(rows) for c in range(cols)}
    for window in Grid.of(rows, cols).windows():
        for p in window:
            out[p].append(window)
    return out


def _moves(grid: Grid, room: dict[Cell, int], shaded: set[Cell], x: Cell) -> list[tuple[list[Cell], int]]:
    """The ways to take unshaded ``x`` out of its room: ``x``, or a shortest path of unshaded
    cells of its room from ``x`` to one beside another room, moves to that room, with the cells
    of the room it parts from the room's tetromino."""
    home = room[x]
    members = {p for p in grid.cells if room[p] == home}
    before = {x: x}
    queue = [x]
    out = []
    for p in queue:
        targets = sorted({room[q] for q in grid.neighbours(p) if room[q] != home})
        if targets:
            path = [p]
            while path[-1] != x:
                path.append(before[path[-1]])
            rest = members.difference(path)
            kept = next((part for part in grid.components(rest) if any(q in shaded for q in part)), [])
            moved = [*path, *sorted(rest.difference(kept))]
            out += [(moved, i) for i in targets]
            continue  # a longer path through it would move more than needed
        for q in grid.neighbours(p):
            if q in members and q not in shaded and q not in before:
                before[q] = p
                queue.append(q)
    return out


def sample(rows: int, cols: int, rng: random.Random, make: Callable[[dict[Cell, int]], Any],
           second: Callable[[Any, set[Cell]], set[Cell] | None]) -> Any:
    """A LITS puzzle of ``rows x cols`` whose planted solution is its only one. ``make(room of
    each cell)`` builds the puzzle; ``second(puzzle, shaded)`` returns the shaded cells of a
    solution other than ``shaded``, or None when there is none."""
    grid = Grid.of(rows, cols)
    for _ in range(PLANTINGS):
        pieces = plant(grid, rng)
        if not pieces:
            raise SatgridError(f"no tetromino fits a {rows}x{cols} grid")
        shaded = {p for _, cells in pieces for p in cells}
        room = rooms_around(grid, pieces, rng)
        letter = {p: pieces[room[p]][0] for p in shaded}
        if any(not _moves(grid, room, shaded, x) and alternatives(grid, room, letter, x, room[x])
               for x in grid.cells if x not in shaded):
            continue  # a cell no repair can move lies on another tetromino of its room
        left: set[tuple[Cell, int]] = set()  # (cell, room) it moved out of: back only if nothing else
        for _ in range(REPAIRS_PER_ROOM * len(pieces) + 1):
            puzzle = make(room)
            other = second(puzzle, shaded)
            if other is None:
                return puzzle
            moves = [(any((p, i) in left for p in cells), sum(alternatives(grid, room, letter, p, i) for p in cells),
                      rng.random(), cells, i)
                     for x in sorted(other - shaded) for cells, i in _moves(grid, room, shaded, x)]
            if not moves:
                break
            *_, cells, new = min(moves)
            left.update((p, room[p]) for p in cells)
            room.update((p, new) for p in cells)
    raise SatgridError(f"no unique {rows}x{cols} LITS in {PLANTINGS} planted solutions")
