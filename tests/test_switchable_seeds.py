"""Seeds that a selector switches on and off (``switchable`` of the core rule
islands_with_one_seed, satgrid/islands.py): one encoding, every choice of seeds, each with
exactly the solutions of the puzzle whose seeds are the fixed ones and those switched on
(brute force over every cell set on tiny grids, lazy and eager, with and without the islands'
levels); and the Nurikabe encoding of a generator's layout (a number per island, on one of its
places) against the plain encoding of each placement."""
from __future__ import annotations

from itertools import combinations, product

import pytest

from satgrid import islands as islands_module
from satgrid.errors import SatgridError
from satgrid.grid import Grid
from satgrid.model import Model, read
from satgrid.session import Session

from .test_islands import islands_ok
from .test_model import brute

CASES = [
    # grid, fixed seeds, switchable seeds
    (Grid.of(3, 3), {}, {(0, 0): 2, (0, 1): 3, (2, 2): 1, (1, 1): 2}),
    (Grid.of(3, 4), {(0, 0): 3}, {(0, 2): 1, (0, 3): 2, (2, 1): 2, (2, 3): 4}),
    (Grid.of(2, 4), {(1, 3): None}, {(0, 0): 2, (0, 1): 1, (1, 1): 3}),
    (Grid.of(3, 4), {(1, 0): 4}, {(2, 3): 3, (1, 2): 5, (0, 3): 1, (2, 0): 2}),
    (Grid.of(2, 5), {(0, 0): 2}, {(1, 4): 3, (0, 2): 1, (1, 2): 2, (0, 4): 2}),
]


def solutions(session: Session, layer: str, assumptions: list[int]) -> set[tuple]:
    """Every solution under ``assumptions``, projected on ``layer`` (blocked behind a fresh
    literal, retired after, so the session serves the next choice)."""
    encoding = session.encoding
    lits = encoding.layers[layer]
    act = encoding.pool.fresh("test")
    found = set()
    while (outcome := session.solve([*assumptions, act])).status == "sat":
        values = read(encoding, layer, outcome.assignment)
        found.add(tuple(sorted(p for p, on in values.items() if on)))
        session.add([[-act, *(-lit if values[p] else lit for p, lit in lits.items())]])
    assert outcome.status == "unsat"
    session.add([[-act]])
    return found


_EXPECTED: dict[tuple[int, bool], dict[frozenset, set[tuple]]] = {}


def expected(case: int, sized: bool = True) -> dict[frozenset, set[tuple]]:
    """Per choice of switchable seeds (the set switched on), the brute-force solutions, the
    fixed seeds with their sizes (``sized``) or without: every cell set checked once against
    every choice (made once per case, shared by the lowerings)."""
    if (case, sized) not in _EXPECTED:
        grid, seeds, switchable = CASES[case]
        fixed = seeds if sized else dict.fromkeys(seeds)
        choices = [frozenset(on) for k in range(len(switchable) + 1) for on in combinations(switchable, k)]
        out: dict[frozenset, set[tuple]] = {on: set() for on in choices}
        for bits in product((0, 1), repeat=len(grid.cells)):
            white = {p for p, b in zip(grid.cells, bits) if b}
            islands = grid.components(white)
            for on in choices:
                chosen = {**fixed, **{p: switchable[p] for p in on}}
                if set(chosen) <= white and all(
                        len(inside := [p for p in island if p in chosen]) == 1
                        and chosen[inside[0]] in (None, len(island)) for island in islands):
                    out[on].add(tuple(sorted(white)))
        _EXPECTED[case, sized] = out
    return _EXPECTED[case, sized]


def test_the_fast_brute_force_is_the_plain_one():
    grid, seeds, switchable = CASES[1]
    for on, found in expected(1).items():
        chosen = {**seeds, **{p: switchable[p] for p in on}}
        sizes = {p: n for p, n in chosen.items() if n is not None}
        assert found == brute(grid.cells, lambda cells: islands_ok(grid, chosen, sizes, cells))


@pytest.mark.parametrize("levels", [True, False])
@pytest.mark.parametrize("connectivity", ["lazy", "eager"])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_switchable_seeds_match_brute_force(case, connectivity, levels, monkeypatch):
    """Every choice of switchable seeds, the fixed seeds' sizes on and then off (a fixed seed's
    island may then reach a switchable seed beyond its labels: the cuts must not keep a
    verdict that rests on seeds switched on for a later choice)."""
    grid, seeds, switchable = CASES[case]
    if not levels:
        monkeypatch.setattr(islands_module, "LEVELS_LIMIT", 0)
    m = Model(grid)
    white = m.cells("white")
    islands = m.islands_with_one_seed("islands with one seed", white, seeds, switchable=switchable)
    m.clue(islands.size)
    session = Session(m.build(), connectivity=connectivity)
    fixed = session.selectors({p: n for p, n in seeds.items() if n is not None})
    present = session.selectors(switchable)
    assert present == islands.present
    keys = list(switchable)
    some = 0
    for sized in (True, False):
        for on, found in expected(case, sized).items():
            some += bool(found)
            assumptions = [*(fixed.values() if sized else ()), *(present[p] if p in on else -present[p] for p in keys)]
            assert solutions(session, "white", assumptions) == found, (sized, on)
    assert some >= 2  # the cases are not all unsatisfiable


def test_a_switchable_seed_takes_only_its_size():
    m = Model(Grid.of(2, 3))
    white = m.cells("white")
    islands = m.islands_with_one_seed("islands", white, {(0, 0): 2}, switchable={(1, 2): 2})
    m.clue(islands.size)
    session = Session(m.build())
    with pytest.raises(SatgridError, match="only its size 2"):
        session.selector((1, 2), 1)
    with pytest.raises(SatgridError, match="only its size 2"):
        session.selector((1, 2), islands_module.SIZELESS)
    with pytest.raises(SatgridError, match="no seed"):
        Model(Grid.of(2, 3)).islands_with_one_seed("islands", white, {(0, 0): 2}, switchable={(0, 0): 2})
