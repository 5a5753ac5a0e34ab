"""Barrier cuts of the islands rule (satgrid/islands.py, ``Contacts``): islands whose contacts
(diagonal, or with the border) close a cycle wall part of a connected wall off.

Checked three ways: each cut made for a random colouring is false under that colouring and holds
for every Nurikabe solution of the grid (brute force, each solution's islands labelled with their
own cells); the engine's solution sets with the cuts on equal brute force's on small puzzles
(some sizes '?'); and a full audit gives the same redundant clues with and without them."""
from __future__ import annotations

import random

import pytest

from satgrid import api
from satgrid.genres import nurikabe as nk
from satgrid import islands as islands_module
from satgrid.islands import Contacts, Islands

from .test_nurikabe import brute_force, essay_puzzles, fresh_audit, puzzle_of, satgrid_solutions


@pytest.fixture(autouse=True)
def barriers_on_small_grids(monkeypatch):
    """The cuts are made on grids above ``BARRIER_CELLS`` cells only; these tests want them on
    small grids too."""
    monkeypatch.setattr(islands_module, "BARRIER_CELLS", 0)


def test_the_cuts_are_made_only_above_the_cell_threshold(monkeypatch):
    monkeypatch.setattr(islands_module, "BARRIER_CELLS", 100)
    small, big = (nk.encode(puzzle_of(rows, 10, {(0, 0): 2})) for rows in (10, 11))
    assert islands_rule(small)._contacts is None and islands_rule(big)._contacts is not None


def islands_rule(encoding) -> Islands:
    return next(rule for rule in encoding.rules if isinstance(rule, Islands))


def labelled(encoding, rule: Islands, rows: int, cols: int, black: set) -> dict[int, bool]:
    """The truth of the white and label variables for a colouring: each white cell carries the
    label of the seed in its white region (if the seed reaches it) and no other."""
    from satgrid.grid import Grid

    grid = Grid.of(rows, cols)
    white = set(grid.cells) - black
    truth = {abs(lit): (p not in black) == (lit > 0) for p, lit in rule.white.items()}
    region_of = {}
    for region in grid.components(white):
        for p in region:
            region_of[p] = region
    for (seed, cell), lit in rule.labels.items():
        truth[lit] = cell in white and seed in region_of[cell]
    return truth


def value_of(truth: dict[int, bool]):
    return lambda lit: truth[lit] if lit > 0 else not truth[-lit]


def random_colourings(rows: int, cols: int, count: int, rng: random.Random):
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    for _ in range(count):
        density = rng.uniform(0.3, 0.7)
        yield {p for p in cells if rng.random() < density}


@pytest.mark.parametrize("rows, cols, numbers", [
    (4, 4, {(0, 1): 4, (2, 3): 3, (3, 0): 2}),
    (4, 4, {(0, 0): 5, (3, 3): 4}),
    (4, 5, {(0, 2): 3, (2, 0): 3, (3, 4): 2}),
])
def test_cuts_are_violated_and_hold_in_every_solution(rows, cols, numbers):
    """For random colourings with the seeds white: every barrier cut is false under the
    colouring, and true for every solution of the puzzle with all sizes '?' (a superset of
    the solutions of any sizes), labelled by its islands."""
    puzzle = puzzle_of(rows, cols, numbers)
    encoding = nk.encode(puzzle)
    rule = islands_rule(encoding)
    solutions = brute_force(rows, cols, {p: "?" for p in numbers})
    truths = [labelled(encoding, rule, rows, cols,
                       {(r, c) for r in range(rows) for c in range(cols) if s[r][c] == "#"})
              for s in solutions]
    rng = random.Random(rows * 100 + cols)
    made = 0
    for black in random_colourings(rows, cols, 400, rng):
        black -= set(numbers)
        value = value_of(labelled(encoding, rule, rows, cols, black))
        islands = [(region, seeds[0]) for region in rule.region.component_indices(value)
                   if len(seeds := [j for j in region if rule._seeded[j]]) == 1]
        for cut in rule._contacts.cuts(islands, value):
            made += 1
            (clause,) = cut
            assert not any(value(lit) for lit in clause)
            for truth in truths:
                assert any(value_of(truth)(lit) for lit in clause)
    assert made > 20  # the colourings do make barriers


def test_solution_sets_match_brute_force_on_random_puzzles(monkeypatch):
    """Random 4x4 puzzles with two to four numbers, some '?': the engine's solutions (lazy,
    the barrier cuts on, and made: counted) are brute force's."""
    made = []
    cuts = Contacts.cuts
    monkeypatch.setattr(Contacts, "cuts", counting(cuts, made))
    rng = random.Random(6)
    cells = [(r, c) for r in range(4) for c in range(4)]
    for _ in range(48):
        where = rng.sample(cells, rng.randint(2, 4))
        numbers = {p: rng.choice([1, 2, 3, 4, 5, "?"]) for p in where}
        assert satgrid_solutions(puzzle_of(4, 4, numbers)) == brute_force(4, 4, numbers), numbers
    assert len(made) > 10


def counting(cuts, made: list):
    """``Contacts.cuts`` that also appends each cut it makes to ``made``."""
    def wrapped(self, *args):
        found = cuts(self, *args)
        made.extend(found)
        return found
    return wrapped


def test_a_barrier_is_cut_by_labels_on_a_real_puzzle():
    """On n7 (14x24) the cuts fire and the puzzle stays unique with its published solution."""
    puzzle, solution = essay_puzzles()[6]
    result = api.solve(puzzle, unique=True)
    assert (result.status, result.solution) == ("unique", solution)


def test_audit_is_the_same_with_and_without_barrier_cuts(monkeypatch):
    """The barrier cuts hold whatever sizes are on, so an audit must not feel them: on n6 the
    same redundant clues with the cuts and without."""
    puzzle, solution = essay_puzzles()[5]
    results = []
    for barriers in (True, False):
        monkeypatch.setattr(nk.encode, "__defaults__", (nk.Variant(barriers=barriers),))
        results.append(fresh_audit(puzzle, solution))
    assert results[0] == results[1]
