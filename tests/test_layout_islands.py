"""Placed islands on a live session (satgrid/layout_islands.py): layouts stated one after another
on one session, islands kept, retired and made again; every placement of every layout has
exactly the brute-force solutions (lazy and eager), and the generator's base encoding with a
layout stated matches the plain encoding of each placement, over several layouts."""
from __future__ import annotations

import random
from itertools import product

import pytest

from satgrid import islands as islands_module
from satgrid.errors import SatgridError
from satgrid.genres.nurikabe import NurikabePuzzle, encode, encode_layouts
from satgrid.genres.nurikabe.generator import random_solution
from satgrid.grid import Grid
from satgrid.layout_islands import LayoutIslands
from satgrid.model import Model
from satgrid.session import Session

from .test_placed_islands import all_solutions, solutions

GRID = Grid.of(3, 4)
#: Layouts stated in this order on one session: the second keeps two islands of the first, the
#: third retires one of them and keeps the other, the fourth states the first again (islands made
#: afresh), the next two let a kept island's reach grow (it must be made again); in the last
#: two, without levels, the island of 4 (kept) could count the new placed island of 2 as half of
#: its cells but for the clauses between islands.
LAYOUTS = [
    [(2, [(0, 0), (0, 1)]), (1, [(2, 3), (2, 1)]), (1, [(0, 3)])],
    [(2, [(0, 0), (0, 1)]), (1, [(2, 3), (2, 1)]), (2, [(1, 2), (0, 3)])],
    [(3, [(2, 0), (1, 0)]), (1, [(2, 3), (2, 1)]), (1, [(0, 3), (0, 2)])],
    [(2, [(0, 0), (0, 1)]), (1, [(2, 3), (2, 1)]), (1, [(0, 3)])],
    [(2, [(0, 0), (0, 1)]), (1, [(0, 3)])],
    [(2, [(0, 0), (0, 1)])],
    [(4, [(0, 0)]), (1, [(2, 3)])],
    [(4, [(0, 0)]), (2, [(0, 2), (2, 3)])],
]


def brute(grid: Grid, places, on) -> set[tuple]:
    """The white cell sets whose islands each hold exactly one chosen place, with its size."""
    chosen = {p: n for p, (n, _) in zip(on, places)}
    found = set()
    for bits in product((0, 1), repeat=len(grid.cells)):
        white = {p for p, b in zip(grid.cells, bits) if b}
        if set(chosen) <= white and all(
                len(inside := [p for p in island if p in chosen]) == 1 and chosen[inside[0]] == len(island)
                for island in grid.components(white)):
            found.add(tuple(sorted(white)))
    return found


@pytest.mark.parametrize("levels", [True, False])
@pytest.mark.parametrize("connectivity", ["lazy", "eager"])
def test_each_layout_on_one_session_has_the_brute_force_solutions(connectivity, levels, monkeypatch):
    if not levels:
        monkeypatch.setattr(islands_module, "LEVELS_LIMIT", 0)
    m = Model(GRID)
    white = m.cells("white")
    islands = LayoutIslands(m, "islands", white)
    m.clue(islands.size)
    session = Session(m.build(), connectivity=connectivity)
    some = 0
    for places in LAYOUTS:
        islands.update(session, places)
        for on in product(*(group for _, group in places)):
            chosen = session.selectors({p: n for p, (n, _) in zip(on, places)})
            found = brute(GRID, places, on)
            some += bool(found)
            assert solutions(session, "white", [islands.current, *chosen.values()]) == found, (places, on)
    assert some >= 10  # the cases are not all unsatisfiable
    session.close()


def test_bad_layouts_and_clues_are_refused():
    m = Model(Grid.of(2, 3))
    islands = LayoutIslands(m, "islands", m.cells("white"))
    m.clue(islands.size)
    session = Session(m.build())
    for places in ([(2, [(1, 1)]), (1, [(1, 1)])], [(0, [(1, 1)])], [(2, [])]):
        with pytest.raises(SatgridError, match="places of its own"):
            islands.update(session, places)
    islands.update(session, [(2, [(0, 0), (0, 1)])])
    with pytest.raises(SatgridError, match="no island of 1 cells has a place at"):
        session.selector((0, 0), 1)


@pytest.mark.parametrize("seed", [3, 8])
def test_the_generators_base_matches_the_plain_encoding_over_layouts(seed):
    """Random 4x4 layouts, each island's cells its places, stated one after another on one
    session (the next layout: one island removed and the grid refilled, so most islands stay):
    each placement has the plain encoding's solutions of that puzzle."""
    rng = random.Random(seed)
    layout = random_solution(4, 4, rng, (1, 3))
    encoding, islands = encode_layouts(4, 4)
    session = Session(encoding)
    count = 0
    for _ in range(3):
        places = tuple((len(cells), tuple(cells)) for cells in layout.islands)
        islands.update(session, places)
        for on in product(*(cells for _, cells in places)):
            numbers = {p: n for p, (n, _) in zip(on, places)}
            puzzle = NurikabePuzzle(tuple(tuple(numbers.get((r, c)) for c in range(4)) for r in range(4)))
            plain = Session(encode(puzzle))
            assert all_solutions(session, numbers, [islands.current]) == all_solutions(plain, puzzle.clues())
            plain.close()
            count += 1
        layout.remove(rng.randrange(len(layout.islands)))
        assert layout.fill(rng, 1, 3, 10**6)
    assert count
    session.close()
