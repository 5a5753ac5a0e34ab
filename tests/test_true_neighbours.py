"""The vocabulary rule ``Model.true_neighbours`` on its own: its solutions on small grids are
exactly the brute-force sets in which every true cell has k true side neighbours."""
from __future__ import annotations

import itertools

import pytest

from satgrid.grid import Grid
from satgrid.model import Model

from .helpers import layer_solutions


def models(rows: int, cols: int, k: int) -> set[frozenset]:
    m = Model(Grid.of(rows, cols))
    lits = m.cells("on")
    m.true_neighbours("each true cell has k true neighbours", lits, k)
    return layer_solutions(m.build(), "on")


def brute(rows: int, cols: int, k: int) -> set[frozenset]:
    grid = Grid.of(rows, cols)
    out = set()
    for bits in itertools.product((0, 1), repeat=rows * cols):
        true = frozenset(p for p, b in zip(grid.cells, bits) if b)
        if all(sum(q in true for q in grid.neighbours(p)) == k for p in true):
            out.add(true)
    return out


@pytest.mark.parametrize("rows, cols, k", [(1, 4, 1), (2, 3, 1), (3, 3, 1), (3, 3, 2), (2, 4, 2), (3, 4, 1),
                                           (2, 2, 3), (3, 3, 0)])
def test_true_neighbours_matches_brute_force(rows, cols, k):
    assert models(rows, cols, k) == brute(rows, cols, k)
