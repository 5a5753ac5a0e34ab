"""Placed islands (``places`` of the core rule islands_with_one_seed, satgrid/islands.py): islands
of known size whose seed is on one of several cells, chosen by assumptions. One encoding, every
placement, each with exactly the solutions of the puzzle whose seeds are the fixed ones and the
chosen places (brute force over every cell set on tiny grids, lazy and eager, with and without
the islands' levels, the fixed seeds' sizes on and off); and the Nurikabe encoding of a
generator's layout against the plain encoding of each placement."""
from __future__ import annotations

import random
from itertools import product

import pytest

from satgrid import islands as islands_module
from satgrid.errors import SatgridError
from satgrid.genres.nurikabe import NurikabePuzzle, encode, encode_places
from satgrid.genres.nurikabe.generator import random_solution
from satgrid.grid import Grid
from satgrid.model import Model, read
from satgrid.session import Session

from .test_islands import islands_ok
from .test_model import brute

CASES = [
    # grid, fixed seeds, placed islands (size, places)
    (Grid.of(3, 3), {}, [(2, [(0, 0), (0, 1)]), (1, [(2, 2), (2, 1)]), (1, [(2, 0), (1, 2)])]),
    (Grid.of(3, 4), {(0, 0): 2}, [(1, [(0, 3), (2, 3)]), (2, [(2, 0), (2, 1)]), (1, [(1, 2), (0, 2)])]),
    (Grid.of(3, 4), {(2, 3): None}, [(2, [(0, 0), (0, 1), (1, 0)]), (1, [(0, 3), (2, 1)])]),
    (Grid.of(3, 4), {(1, 0): 2}, [(3, [(2, 3), (1, 3)]), (1, [(1, 2), (0, 3)]), (1, [(0, 1), (2, 1)])]),
    (Grid.of(2, 5), {(0, 0): 2}, [(3, [(1, 4), (0, 2), (1, 2)]), (1, [(0, 4), (1, 0)])]),
    # without levels, (0, 0)'s labels could count a chosen place's island of 2 as half of its 4
    (Grid.of(3, 4), {(0, 0): 4}, [(2, [(0, 2), (2, 3)])]),
]

_EXPECTED: dict[tuple[int, bool], dict[tuple, set[tuple]]] = {}


def expected(case: int, sized: bool = True) -> dict[tuple, set[tuple]]:
    """Per placement (a place of each island), the brute-force solutions, the fixed seeds with
    their sizes (``sized``) or without: every cell set checked once against every placement
    (made once per case, shared by the lowerings)."""
    if (case, sized) not in _EXPECTED:
        grid, seeds, places = CASES[case]
        fixed = seeds if sized else dict.fromkeys(seeds)
        choices = list(product(*(group for _, group in places)))
        out: dict[tuple, set[tuple]] = {on: set() for on in choices}
        for bits in product((0, 1), repeat=len(grid.cells)):
            white = {p for p, b in zip(grid.cells, bits) if b}
            islands = grid.components(white)
            for on in choices:
                chosen = {**fixed, **{p: n for p, (n, _) in zip(on, places)}}
                if set(chosen) <= white and all(
                        len(inside := [p for p in island if p in chosen]) == 1
                        and chosen[inside[0]] in (None, len(island)) for island in islands):
                    out[on].add(tuple(sorted(white)))
        _EXPECTED[case, sized] = out
    return _EXPECTED[case, sized]


def test_the_fast_brute_force_is_the_plain_one():
    grid, seeds, places = CASES[1]
    for on, found in expected(1).items():
        chosen = {**seeds, **{p: n for p, (n, _) in zip(on, places)}}
        assert found == brute(grid.cells, lambda cells: islands_ok(grid, chosen, chosen, cells))


def solutions(session: Session, layer: str, assumptions: list[int]) -> set[tuple]:
    """Every solution under ``assumptions``, projected on ``layer`` (blocked behind a fresh
    literal, retired after, so the session serves the next placement)."""
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


@pytest.mark.parametrize("levels", [True, False])
@pytest.mark.parametrize("connectivity", ["lazy", "eager"])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_placed_islands_match_brute_force(case, connectivity, levels, monkeypatch):
    """Every placement on one session, the fixed seeds' sizes on and then off (a fixed seed's
    island may then reach a chosen place beyond its labels: a cut must not keep a verdict that
    rests on the places chosen before)."""
    grid, seeds, places = CASES[case]
    if not levels:
        monkeypatch.setattr(islands_module, "LEVELS_LIMIT", 0)
    m = Model(grid)
    white = m.cells("white")
    islands = m.islands_with_one_seed("islands with one seed", white, seeds, places=places)
    m.clue(islands.size)
    session = Session(m.build(), connectivity=connectivity)
    fixed = session.selectors({p: n for p, n in seeds.items() if n is not None})
    some = 0
    for sized in (True, False):
        for on, found in expected(case, sized).items():
            some += bool(found)
            chosen = session.selectors({p: n for p, (n, _) in zip(on, places)})
            assert list(chosen.values()) == [islands.present[p] for p in on]
            assumptions = [*(fixed.values() if sized else ()), *chosen.values()]
            assert solutions(session, "white", assumptions) == found, (sized, on)
    assert some >= 2  # the cases are not all unsatisfiable


def test_a_place_takes_only_its_islands_size():
    m = Model(Grid.of(2, 3))
    white = m.cells("white")
    islands = m.islands_with_one_seed("islands", white, {(0, 0): 2}, places=[(2, [(1, 2), (0, 2)])])
    m.clue(islands.size)
    session = Session(m.build())
    with pytest.raises(SatgridError, match="only its island's size 2"):
        session.selector((1, 2), 1)
    with pytest.raises(SatgridError, match="only its island's size 2"):
        session.selector((1, 2), islands_module.SIZELESS)
    for places in ([(2, [(0, 0)])], [(2, [(1, 1)]), (1, [(1, 1)])], [(0, [(1, 1)])], [(2, [])]):
        with pytest.raises(SatgridError, match="places of its own"):
            Model(Grid.of(2, 3)).islands_with_one_seed("islands", white, {(0, 0): 2}, places=places)


def all_solutions(session: Session, clues: dict, extra=()) -> set[tuple]:
    return solutions(session, "black", [*session.selectors(clues).values(), *extra])


@pytest.mark.parametrize("seed", [3, 8])
def test_a_layouts_encoding_has_each_placements_solutions(seed):
    """A random 4x4 layout, every cell of each island a place: on one session, each placement
    has the plain encoding's solutions of that puzzle."""
    rng = random.Random(seed)
    layout = random_solution(4, 4, rng, (1, 3))
    places = tuple((len(cells), tuple(cells)) for cells in layout.islands)
    session = Session(encode_places(4, 4, places))
    count = 0
    for on in product(*(cells for _, cells in places)):
        numbers = {p: n for p, (n, _) in zip(on, places)}
        puzzle = NurikabePuzzle(tuple(tuple(numbers.get((r, c)) for c in range(4)) for r in range(4)))
        found = all_solutions(session, numbers)
        plain = Session(encode(puzzle))
        assert found == all_solutions(plain, puzzle.clues()), numbers
        plain.close()
        count += len(found)
    assert count
