"""The core rule islands_with_one_seed (satgrid/islands.py) on its own: solution sets against brute
force on tiny grids, in both lowerings, with every size, some sizes and no size switched on, and
with one size replaced by the sizeless clue; the reach and crowded-cell helpers; a size that does
not fit the encoding is refused."""
from __future__ import annotations

import pytest

from satgrid.errors import SatgridError
from satgrid import islands as islands_module
from satgrid.grid import Grid
from satgrid.islands import crowded, reach
from satgrid.model import Model, read
from satgrid.session import Session

from .test_model import all_solutions, brute

CASES = [
    (Grid.of(3, 3), {(0, 0): 2, (2, 2): None}),
    (Grid.of(3, 4), {(0, 0): 3, (0, 3): 1, (2, 2): None}),
    (Grid.of(2, 4), {(0, 0): 1, (1, 3): 4}),
    (Grid.of(3, 3), {(1, 1): 5}),
    (Grid.of(4, 4), {(0, 0): 6, (3, 3): 3, (0, 3): None}),
]


def islands_ok(grid: Grid, seeds: dict, sizes: dict, white: set) -> bool:
    """Every island holds exactly one seed; a seed whose size is on has an island of that size."""
    if not set(seeds) <= white:
        return False
    for island in grid.components(white):
        inside = [p for p in island if p in seeds]
        if len(inside) != 1 or sizes.get(inside[0], len(island)) != len(island):
            return False
    return True


@pytest.mark.parametrize("levels", [True, False])
@pytest.mark.parametrize("connectivity", ["lazy", "eager"])
@pytest.mark.parametrize("grid, seeds", CASES)
def test_islands_with_one_seed_match_brute_force(grid, seeds, connectivity, levels, monkeypatch):
    """With the islands' level variables (bounded-distance connectivity) and without them
    (their limit set to 0: local connectivity and lazy cuts only)."""
    if not levels:
        monkeypatch.setattr(islands_module, "LEVELS_LIMIT", 0)
    m = Model(grid)
    white = m.cells("white")
    islands = m.islands_with_one_seed("islands with one seed", white, seeds)
    m.clue(islands.size)
    sized = {p: n for p, n in seeds.items() if n is not None}
    for on in (sized, dict(list(sized.items())[:1]), {}):
        expected = brute(grid.cells, lambda cells: islands_ok(grid, seeds, on, cells))
        assert expected, on
        assert all_solutions(m, "white", on, connectivity) == expected, on


@pytest.mark.parametrize("connectivity", ["lazy", "eager"])
@pytest.mark.parametrize("grid, seeds", CASES[:3])
def test_sizeless_clue_matches_brute_force(grid, seeds, connectivity):
    """The clue "this seed has no size, every other its own" (:meth:`SeededIslands.sizeless`,
    the value ``SIZELESS``) on the encoding built with the size: the solutions of the seeds with
    that one size dropped, for each sized seed, with the other sizes assumed or (their clauses
    loaded) switched on by it."""
    m = Model(grid)
    white = m.cells("white")
    islands = m.islands_with_one_seed("islands with one seed", white, seeds)
    m.clue(islands.size)
    sized = {p: n for p, n in seeds.items() if n is not None}
    for gone in sized:
        rest = {p: n for p, n in sized.items() if p != gone}
        expected = brute(grid.cells, lambda cells: islands_ok(grid, seeds, rest, cells))
        clues = {**rest, gone: islands_module.SIZELESS}
        assert all_solutions(m, "white", clues, connectivity) == expected, gone
        # assumed alone, with the other sizes' clauses loaded, it switches them on
        session = Session(m.build(), connectivity=connectivity)
        session.selectors(rest)
        alone = [session.selector(gone, islands_module.SIZELESS)]
        found = set()
        while (outcome := session.solve(alone)).status == "sat":
            values = read(session.encoding, "white", outcome.assignment)
            found.add(tuple(sorted(p for p, on in values.items() if on)))
            session.add([[-lit if values[p] else lit for p, lit in session.encoding.layers["white"].items()]])
        assert found == expected, gone


@pytest.mark.parametrize("grid, seeds", CASES)
def test_the_size_clauses_alone_keep_each_island_connected(grid, seeds):
    """The size clues without any cut of the global rule (no lazy rule asked): in every model,
    each switched-on seed's labelled cells are connected, hold the seed and have its size (the
    levels from size 3 on, the labelled neighbour for size 2). So the levels lose no solution
    (the brute-force test above) and let no disconnected labelling past them."""
    m = Model(grid)
    white = m.cells("white")
    islands = m.islands_with_one_seed("islands with one seed", white, seeds)
    m.clue(islands.size)
    sized = {p: n for p, n in seeds.items() if n is not None}
    session = Session(m.build())
    session.lazy_rules = []  # the clauses alone
    assumptions = list(session.selectors(sized).values())
    cells = grid.cells
    labels = {cells[i]: {cells[q]: lit for q, lit in own.items()} for i, own in islands._labels.items()}
    shown = [lit for p in sized for lit in labels[p].values()] + list(white.values())
    models = 0
    while (outcome := session.solve(assumptions)).status == "sat":
        value = outcome.assignment
        for p, n in sized.items():
            island = {q for q, lit in labels[p].items() if value(lit)}
            assert p in island and len(island) == n, (p, island)
            assert len(grid.components(island)) == 1, (p, island)
        session.add([[-lit if value(lit) else lit for lit in shown]])
        models += 1
    assert models


def test_a_size_switched_on_smaller_than_built_and_eager_islands():
    """A size below the one the labels were built for still reaches inside its labels; the
    eager island lowering (``eager_from``) gives the same solutions."""
    grid = Grid.of(3, 3)
    seeds = {(0, 0): 3, (2, 2): None}
    for eager_from in (None, 2):
        m = Model(grid)
        white = m.cells("white")
        m.clue(m.islands_with_one_seed("islands", white, seeds, eager_from=eager_from).size)
        for n in (1, 2, 3):
            expected = brute(grid.cells, lambda cells: islands_ok(grid, seeds, {(0, 0): n}, cells))
            assert all_solutions(m, "white", {(0, 0): n}) == expected


def test_a_size_that_does_not_fit_is_refused():
    m = Model(Grid.of(2, 2))
    islands = m.islands_with_one_seed("islands", m.cells("white"), {(0, 0): 2, (1, 1): None})
    m.clue(islands.size)
    encoding = m.build()
    for key, value in (((0, 0), 3), ((1, 1), 1), ((0, 1), 1), ((0, 0), "2")):
        with pytest.raises(SatgridError, match="does not fit"):
            encoding.encode_clue(key, value)


def test_reach_rim_and_crowded_cells():
    grid = Grid.of(3, 4)
    seeds = [(0, 0), (0, 2), (2, 3)]
    # (0, 1) touches two seeds; (1, 2) touches (0, 2) only.
    assert crowded(grid, seeds) == {(0, 1)}
    assert reach(grid, seeds, (0, 0), 3) == {(0, 0): 0, (1, 0): 1, (2, 0): 2, (1, 1): 2}
    assert reach(grid, seeds, (0, 0), 1) == {(0, 0): 0}
    # Without a size: any distance, around the cells that touch the other seeds.
    assert set(reach(grid, seeds, (2, 3), None)) == {(2, 3), (1, 3), (2, 2), (2, 1), (2, 0), (1, 1)}
    m = Model(grid)
    islands = m.islands_with_one_seed("islands", m.cells("white"), {(0, 0): 3, (0, 2): 1, (2, 3): 2})
    assert islands.crowded == [(0, 1)]
    assert sorted(islands.reach((0, 0))) == [(0, 0), (1, 0), (1, 1), (2, 0)]
    assert islands.rim((0, 2)) == [(0, 1), (0, 3), (1, 2)]


def test_level_cost_decides_which_islands_get_levels(monkeypatch):
    """``level_cost`` sums ``size - distance`` over the reach; ``has_levels`` is the test the
    size clue applies: from size 3 on, up to ``LEVELS_LIMIT``, and an island over the limit
    gets no level variable."""
    grid = Grid.of(3, 4)
    seeds = {(0, 0): 3, (0, 2): 1, (2, 3): 2}
    dist = reach(grid, seeds, (0, 0), 3)  # distances 0, 1, 2, 2
    assert islands_module.level_cost(dist, 3) == 3 + 2 + 1 + 1
    assert islands_module.has_levels(dist, 3)
    assert not islands_module.has_levels(reach(grid, seeds, (2, 3), 2), 2)

    def level_keys() -> set:
        m = Model(grid)
        m.clue(m.islands_with_one_seed("islands", m.cells("white"), seeds).size)
        encoding = m.build()
        encoding.encode_clue((0, 0), 3)
        return {k for k in encoding.pool.idpool.obj2id if k and k[0] == "level"}

    assert level_keys()
    monkeypatch.setattr(islands_module, "LEVELS_LIMIT", 6)
    assert not islands_module.has_levels(dist, 3)
    assert not level_keys()
    monkeypatch.setattr(islands_module, "LEVELS_LIMIT", 7)
    assert level_keys()
