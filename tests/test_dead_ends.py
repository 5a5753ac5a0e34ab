"""The vocabulary rule ``Model.dead_ends`` on its own: its solutions on small grids are exactly
the brute-force sets whose dead ends (true cells with exactly one true side neighbour) are the
given cells."""
from __future__ import annotations

import itertools

import pytest

from satgrid.grid import Grid
from satgrid.model import Model

from .helpers import layer_solutions


def models(rows: int, cols: int, ends: set) -> set[frozenset]:
    m = Model(Grid.of(rows, cols))
    lits = m.cells("on")
    m.dead_ends("the dead ends are the given cells", lits, ends)
    return layer_solutions(m.build(), "on")


def brute(rows: int, cols: int, ends: set) -> set[frozenset]:
    grid = Grid.of(rows, cols)
    out = set()
    for bits in itertools.product((0, 1), repeat=rows * cols):
        true = frozenset(p for p, b in zip(grid.cells, bits) if b)
        if {p for p in true if sum(q in true for q in grid.neighbours(p)) == 1} == ends:
            out.add(true)
    return out


@pytest.mark.parametrize("rows, cols, ends", [
    (1, 4, set()), (1, 4, {(0, 0), (0, 3)}), (2, 3, {(0, 0)}), (2, 3, {(0, 0), (1, 2)}),
    (3, 3, set()), (3, 3, {(1, 1)}), (3, 3, {(0, 0), (2, 2)}), (3, 4, {(0, 1), (2, 3), (1, 0)}),
    (1, 1, set()), (1, 1, {(0, 0)}),
])
def test_dead_ends_match_brute_force(rows, cols, ends):
    assert models(rows, cols, ends) == brute(rows, cols, ends)


def test_the_cases_are_not_vacuous():
    assert len(brute(3, 4, {(0, 1), (2, 3), (1, 0)})) > 1 and len(brute(2, 3, {(0, 0), (1, 2)})) > 1
    assert brute(3, 3, {(1, 1)}) == set()  # the centre alone a dead end: its neighbour has one too


def test_a_lone_true_cell_is_no_dead_end():
    assert frozenset({(1, 1)}) in models(3, 3, set())
    assert frozenset() in models(3, 3, set())
