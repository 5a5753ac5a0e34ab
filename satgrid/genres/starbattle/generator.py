"""Star Battle generator: the stars first, rooms grown around them, rooms mended until unique.

A Star Battle has no clues: the room layout is the puzzle, so the generator draws layouts (the
issue's "Star Battle: rooms" sampler) and keeps one only when its solution is unique.

1. **Stars** (:func:`random_stars`): a random placement of ``k`` stars in every row and column,
   none touching another: the rules with the rows as rooms, solved with random phases on the
   star variables (the generic generator's way to a random solution).
2. **Seeds** (:func:`seed_groups`): the stars in groups of ``k``, one group a room: a random
   star that has no group takes the ``k - 1`` stars nearest to it (breadth-first distance
   through cells no group holds) and the cells of a shortest path to each, so every group is
   side-connected. A draw that leaves a star without a way to its group starts again.
3. **Rooms** (:func:`satgrid.rooms.grow_rooms`): each group grows into a room by random steps
   into free neighbouring cells, so every room holds exactly its ``k`` stars and the placement
   is a solution of the puzzle.
4. **Mending** (:func:`mend`): while the puzzle has another solution, a cell where the other
   solution has a star and ours has none moves from its room to a neighbouring room (one whose
   room stays side-connected without it): the other solution then has ``k - 1`` stars in the
   old room, ours keeps its ``k`` there (the cell holds none of ours) and gains nothing in the
   new one. Each step kills the solution found; steps stop at a unique puzzle, or give up
   (a new draw) after :data:`STEPS_PER_CELL` steps a cell or when no cell can move.
5. Flavour "normal" keeps a puzzle only when propagation and failed-literal probing solve it
   (grade at most 1, :mod:`satgrid.grading`); "hard" keeps every unique one.
"""
from __future__ import annotations

import random
from collections import deque
from typing import Sequence

from ... import api
from ...errors import LimitReached, SatgridError
from ...grid import Grid
from ...rooms import Rooms, canonical, grow_rooms
from ...queries import PuzzleQueries
from ...session import Session
from . import StarBattlePuzzle, decode, encode, problems, puzzle_of

Cell = tuple[int, int]
#: Layouts drawn before giving up on a request.
ATTEMPTS = 60
#: Mending steps allowed per cell of the grid before a layout is dropped.
STEPS_PER_CELL = 2


def default_stars(n: int) -> int:
    """The usual star count of an ``n x n`` grid: 1 up to 8, 2 from 9 to 13, 3 from 14 on (as
    janko.at's Sternenschlacht grows), never less than 1."""
    return max(1, (n + 1) // 5)


def check_options(rows: int, cols: int, stars: int | None = None, **_: object) -> None:
    """Refuse a request no attempt can serve: a grid that is not square, or a star count whose
    stars cannot fit (the puzzle's own checks on a layout of rows)."""
    if rows != cols:
        raise SatgridError(f"a {rows}x{cols} Star Battle: its grid is square (k stars in every row and "
                           "column), ask for NxN")
    k = default_stars(rows) if stars is None else stars
    rooms = canonical([(r, c) for c in range(cols)] for r in range(rows))
    for message, _ in problems(puzzle_of(rows, cols, rooms, k)):
        raise SatgridError(f"no {rows}x{cols} Star Battle with {k} stars: {message}")


def random_stars(n: int, k: int, rng: random.Random, options: api.Options) -> tuple[str, ...]:
    """A random placement (step 1): rows of ``#`` (a star) and ``.``."""
    rows = puzzle_of(n, n, canonical([(r, c) for c in range(n)] for r in range(n)), k)
    encoding = encode(rows)
    session = Session(encoding, options.solver, options.connectivity, options.conflict_limit)
    try:
        session.prefer([lit if rng.random() < 0.3 else -lit for lit in encoding.primary.values()])
        outcome = session.solve([])
        if outcome.status != "sat":
            raise SatgridError(f"no placement of {k} star(s) a row and column on a {n}x{n} grid, none "
                               "touching another")
        return decode(rows, encoding, outcome.assignment)
    finally:
        session.close()


def seed_groups(solution: Sequence[str], k: int, rng: random.Random) -> list[list[Cell]] | None:
    """The stars in side-connected groups of ``k`` (step 2), or None when a draw fails."""
    n = len(solution)
    grid = Grid.of(n, n)
    stars = [(r, c) for r in range(n) for c in range(n) if solution[r][c] == "#"]
    rng.shuffle(stars)
    taken: set[Cell] = set()
    groups = []
    for start in stars:
        if start in taken:
            continue
        group = [start]
        taken.add(start)
        for _ in range(k - 1):
            path = _path_to_free_star(grid, group, set(stars), taken)
            if path is None:
                return None
            group += path
            taken.update(path)
        groups.append(group)
    return groups


def _path_to_free_star(grid: Grid, group: list[Cell], stars: set[Cell], taken: set[Cell]) -> list[Cell] | None:
    """The cells from ``group`` to the nearest star outside every group (breadth first through
    free cells that are not stars), the star last; None when none is reachable."""
    before: dict[Cell, Cell | None] = {p: None for p in group}
    queue = deque(group)
    while queue:
        p = queue.popleft()
        for q in grid.neighbours(p):
            if q in before or (q in taken and q not in group):
                continue
            before[q] = p
            if q in stars:
                path = [q]
                while before[path[-1]] is not None and before[path[-1]] not in group:
                    path.append(before[path[-1]])  # type: ignore[arg-type]
                return path[::-1]
            queue.append(q)
    return None


def mend(puzzle: StarBattlePuzzle, solution: tuple[str, ...], rng: random.Random,
         options: api.Options) -> StarBattlePuzzle | None:
    """``puzzle`` with rooms changed until ``solution`` is its only one (step 4), or None."""
    n = puzzle.rows
    grid = Grid.of(n, n)
    for _ in range(STEPS_PER_CELL * n * n):
        other = _other_solution(puzzle, solution, options)
        if other is None:
            return puzzle
        rooms = [set(room) for room in puzzle.rooms]
        room_of = {p: i for i, room in enumerate(rooms) for p in room}
        moves = []
        for p in grid.cells:
            if other[p[0]][p[1]] == "#" and solution[p[0]][p[1]] != "#":
                rest = rooms[room_of[p]] - {p}
                if rest and len(grid.components(rest)) == 1:
                    moves += [(p, room_of[q]) for q in grid.neighbours(p) if q in room_of and room_of[q] != room_of[p]]
        if not moves:
            return None
        p, target = rng.choice(moves)
        rooms[room_of[p]].discard(p)
        rooms[target].add(p)
        puzzle = puzzle_of(n, n, canonical(rooms), puzzle.stars)
    return None


def _other_solution(puzzle: StarBattlePuzzle, solution: tuple[str, ...], options: api.Options) -> tuple[str, ...] | None:
    """A solution of ``puzzle`` other than ``solution``, or None when there is none, on a session
    of the generator's own (so a seed reproduces its puzzle). LimitReached when the solver stops."""
    encoding = encode(puzzle)
    session = Session(encoding, options.solver, options.connectivity, options.conflict_limit)
    try:
        queries = PuzzleQueries(session, {})
        found = queries.solve()
        if found.status == "sat":
            first = decode(puzzle, encoding, found.assignment)
            if first != solution:
                return first
            found = queries.other_solution(queries.project(found.assignment))
        if found.status == "sat":
            return decode(puzzle, encoding, found.assignment)
        if found.status != "unsat":
            raise LimitReached("limit reached while looking for a second solution")
        return None
    finally:
        session.close()


def layout(n: int, k: int, rng: random.Random, options: api.Options) -> tuple[Rooms, tuple[str, ...]] | None:
    """Steps 1-3: a placement and rooms grown around it, or None when this draw fails."""
    solution = random_stars(n, k, rng, options)
    groups = seed_groups(solution, k, rng)
    if groups is None:
        return None
    rooms = grow_rooms(n, n, groups, rng)
    return None if rooms is None else (rooms, solution)


def generate(rows: int, cols: int, rng: random.Random, *, flavour: str | None = "hard",
             stars: int | None = None, options: api.Options = api.Options()) -> StarBattlePuzzle:
    """A unique ``rows x cols`` Star Battle with ``stars`` stars (default :func:`default_stars`)
    in every row, column and room (see the module doc)."""
    check_options(rows, cols, stars)
    k = default_stars(rows) if stars is None else stars
    for _ in range(ATTEMPTS):
        drawn = layout(rows, k, rng, options)
        if drawn is None:
            continue
        rooms, solution = drawn
        puzzle = mend(puzzle_of(rows, cols, rooms, k), solution, rng, options)
        if puzzle is None:
            continue
        if flavour == "normal":
            grade = api.solve(puzzle, audit=True, options=options).grade
            if grade is None or grade > 1:
                continue
        return puzzle
    raise SatgridError(f"no unique {rows}x{cols} Star Battle with {k} stars found in {ATTEMPTS} layouts")


def promises_minimal(level: int | None, flavour: str, **_: object) -> bool:
    """A Star Battle has no clues, so every puzzle is clue-minimal."""
    return True


def report(puzzle: StarBattlePuzzle) -> dict[str, int]:
    """The number of rooms (the star count is a header of the puzzle itself)."""
    return {"rooms": len(puzzle.rooms)}
