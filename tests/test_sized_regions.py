"""The core rule sized_regions (satgrid/sized_regions.py) on its own: every solution of small
grids against brute force (all partitions of the cells into connected regions, each cell carrying
its region's size, regions of one size never side by side), in both lowerings, with caps that put
some sizes above the one-hot layer, and for every subset of a solution's numbers as givens."""
from __future__ import annotations

import functools
import random
from itertools import combinations

import pytest

from satgrid.grid import Grid
from satgrid.model import Model
from satgrid.session import Session
from satgrid.sized_regions import SizedRegions, not_above, not_below


def partitions(items: list):
    """Every set partition of ``items`` (lists of blocks)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in partitions(rest):
        yield [[first], *part]
        for i in range(len(part)):
            yield [*part[:i], [first, *part[i]], *part[i + 1:]]


def brute(grid: Grid) -> set[tuple[int, ...]]:
    """Every Fillomino filling of ``grid`` as a tuple of numbers in cell order."""
    out = set()
    for part in partitions(list(grid.cells)):
        if any(len(grid.components(block)) != 1 for block in part):
            continue
        number = {p: len(block) for block in part for p in block}
        if any(number[p] == number[q] and not any(p in b and q in b for b in part)
               for p, q in grid.adjacent_pairs()):
            continue
        out.add(tuple(number[p] for p in grid.cells))
    return out


def model(grid: Grid, cap: int) -> tuple[Model, SizedRegions]:
    m = Model(grid)
    regions = m.sized_regions("regions whose sizes are numbers", cap)

    @m.clue
    def given(c, cell, n):
        c.require(regions.carries(cell, n))
    return m, regions


def numbers_of(encoding, regions: SizedRegions, value) -> tuple[int, ...]:
    return tuple(regions.rule.numbers(value))


def solutions(m: Model, regions: SizedRegions, clues: dict, connectivity: str) -> set[tuple[int, ...]]:
    """Every solution, by blocking clauses on the primary variables of one session."""
    encoding = m.build()
    session = Session(encoding, connectivity=connectivity)
    assumptions = list(session.selectors(clues).values())
    primary = list(encoding.primary.values())
    found = set()
    while True:
        outcome = session.solve(list(assumptions))
        if outcome.status != "sat":
            assert outcome.status == "unsat"
            return found
        numbers = numbers_of(encoding, regions, outcome.assignment)
        assert numbers not in found  # one assignment of the primary variables per solution
        found.add(numbers)
        truth = [outcome.assignment(x) for x in primary]
        session.solver.add([[-x if t else x for x, t in zip(primary, truth)]])


GRIDS = [Grid.of(1, 5), Grid.of(2, 2), Grid.of(2, 3), Grid.of(3, 3), Grid.of(2, 4)]


@pytest.mark.parametrize("connectivity", ["lazy", "eager"])
@pytest.mark.parametrize("grid", GRIDS, ids=lambda g: f"{g.rows}x{g.cols}")
def test_every_filling_matches_brute_force(grid, connectivity):
    """Every cap up to 3 and no cap on the small grids; on 3x3 (445 fillings, about 2 s a cap
    and lowering) a cap of 2 and no cap."""
    expected = brute(grid)
    caps = (1, 2, 3) if len(grid.cells) <= 8 else (2,)
    for cap in (*caps, len(grid.cells)):
        m, regions = model(grid, cap)
        assert solutions(m, regions, {}, connectivity) == expected, cap


@pytest.mark.parametrize("connectivity", ["lazy", "eager"])
def test_every_subset_of_givens(connectivity):
    """On 2x3 every subset of a solution's numbers; on 3x3 20 random subsets of two solutions'."""
    rng = random.Random(20)
    for grid, subsets in ((Grid.of(2, 3), None), (Grid.of(3, 3), 20)):
        every = brute(grid)
        for chosen in sorted(every)[::max(1, len(every) // 2)][:2]:
            m, regions = model(grid, 2)
            cells = list(grid.cells)
            picks = [set(s) for k in range(len(cells) + 1) for s in combinations(range(len(cells)), k)]
            if subsets is not None:
                picks = rng.sample(picks, subsets)
            for pick in picks:
                clues = {cells[i]: chosen[i] for i in pick}
                want = {s for s in every if all(s[i] == chosen[i] for i in pick)}
                assert solutions(m, regions, clues, connectivity) == want, clues


def test_binary_bounds():
    from satgrid.cnf import VarPool
    from itertools import product
    pool = VarPool()
    bits = [pool.var("b", i) for i in range(4)]
    for low, high in ((3, 11), (1, 15), (8, 8), (0, 9)):
        clauses = not_below(bits, low) + not_above(bits, high)
        for assignment in product((0, 1), repeat=4):
            value = sum(b << i for i, b in enumerate(assignment))
            ok = all(any((lit > 0) == bool(assignment[abs(lit) - 1]) for lit in c) for c in clauses)
            assert ok == (low <= value <= high), (low, high, value)


@pytest.mark.parametrize("grid", [Grid.of(2, 2), Grid.of(2, 3)], ids=lambda g: f"{g.rows}x{g.cols}")
def test_cuts_of_partial_assignments_hold_in_every_solution(grid):
    """The grading ladder asks for cuts of *partial* assignments (unfixed cells carry no number):
    every cut made from any part of any solution's primary literals is satisfied by every
    solution (a cut about cells with no number read once excluded real solutions)."""
    from satgrid.grading import _Partial

    rng = random.Random(3)
    for cap in (1, 2, len(grid.cells)):
        m, regions = model(grid, cap)
        encoding = m.build()
        session = Session(encoding)
        primary = list(encoding.primary.values())
        models = []
        while (outcome := session.solve()).status == "sat":
            models.append(outcome.assignment)
            session.solver.add([[-x if outcome.assignment(x) else x for x in primary]])
        for assignment in models:
            truth = [x if assignment(x) else -x for x in primary]
            for _ in range(12):
                part = [lit for lit in truth if rng.random() < 0.5]
                for cut in regions.rule.cuts(_Partial(part, encoding.pool.top), encoding.pool):
                    head = cut[-1]  # side clauses define fresh literals; the head must hold
                    fresh = {abs(x) for clause in cut[:-1] for x in clause}
                    for other in models:
                        assert any(other(x) for x in head if abs(x) not in fresh) or \
                            any(abs(x) in fresh for x in head), (cut, part)


@functools.lru_cache(maxsize=None)
def brute_alone(rows: int, cols: int) -> frozenset[tuple]:
    """Every assignment of at most one number to each cell (None: none) in which each component
    of cells with one number ``n`` has ``n`` cells: the rule alone, without "one number per
    cell"'s at-least-one. Per set of numbered cells, every partition of them into connected
    regions, each numbered its size, no two of one size side by side (as :func:`brute`)."""
    grid = Grid.of(rows, cols)
    cells = list(grid.cells)
    out = set()
    for k in range(len(cells) + 1):
        for filled in combinations(cells, k):
            for part in partitions(list(filled)):
                if any(len(grid.components(block)) != 1 for block in part):
                    continue
                number = {p: len(block) for block in part for p in block}
                region = {p: i for i, block in enumerate(part) for p in block}
                if any(p in number and q in number and number[p] == number[q] and region[p] != region[q]
                       for p, q in grid.adjacent_pairs()):
                    continue
                out.add(tuple(number.get(p) for p in cells))
    return frozenset(out)


@pytest.mark.parametrize("connectivity", ["lazy", "eager"])
@pytest.mark.parametrize("shape,cap", [((2, 2), 4), ((2, 2), 1), ((1, 5), 2), ((2, 3), 2)],
                         ids=["2x2", "2x2-cap1", "1x5-cap2", "2x3-cap2"])
def test_the_rule_alone_without_one_number_per_cell(shape, cap, connectivity):
    """An explanation drops "one number per cell" to ask whether it is needed: the rule alone
    then allows a cell with no number but never one with two (a cell lies in one region), and
    each component of cells carrying one number has that many cells. Both lowerings give exactly
    those assignments (brute force); the lazy one ends (its cuts once read only a cell's first
    number, and a check spun on cuts the model already met)."""
    from dataclasses import replace

    grid = Grid.of(*shape)
    m, regions = model(grid, cap)
    encoding = m.build()
    kept = [c for name, a, b in encoding.spans if name != "one number per cell" for c in encoding.clauses[a:b]]
    session = Session(replace(encoding, clauses=kept, spans=[]), connectivity=connectivity)
    primary = list(encoding.primary.values())
    found = set()
    while (outcome := session.solve(rounds=2000)).status == "sat":
        values = regions.rule.values(outcome.assignment)
        assert all(len(vs) <= 1 for vs in values)
        numbers = tuple(vs[0] if vs else None for vs in values)
        assert numbers not in found  # one assignment of the primary variables each
        found.add(numbers)
        session.solver.add([[-x if outcome.assignment(x) else x for x in primary]])
    assert outcome.status == "unsat"
    assert found == brute_alone(*shape)


def random_literals(grid: Grid, regions: SizedRegions, rng: random.Random) -> list[int]:
    """Random literals over the rule's variables, one a variable at most: cells carrying one of a
    few numbers (so components form; now and then two numbers in a cell), other values of a cell
    often false, bits and joined links at random."""
    lits = []
    for p in grid.cells:
        row = regions.numbers[p]
        values = list(row)
        few = values[:3] + values[-1:]
        chosen = {rng.choice(few) for _ in range(2 if rng.random() < 0.1 else 1)} if rng.random() < 0.8 else set()
        for v, x in row.items():
            if v in chosen:
                lits.append(x)
            elif rng.random() < 0.5:
                lits.append(-x)
        lits += (rng.choice((x, -x)) for x in regions.bits[p] if rng.random() < 0.7)
    lits += (rng.choice((x, -x)) for (p, q), x in regions.joined.items() if p < q and rng.random() < 0.5)
    rng.shuffle(lits)
    return lits


@pytest.mark.parametrize("shape,cap", [((3, 4), 2), ((4, 4), 3), ((3, 5), 15), ((2, 6), 1)],
                         ids=lambda x: str(x))
def test_the_cut_search_over_a_root_is_the_search_from_scratch(shape, cap):
    """:meth:`SizedRegionsRule.over_root` (the grading ladder's search at every probe of a settled
    root): for random roots and random extensions of each, the same cuts in the same order as
    :meth:`SizedRegionsRule.cuts` on the extension from scratch, with the ladder's filter (which
    reads the extension's values) and with none."""
    from satgrid.grading import _acting, _Partial

    grid = Grid.of(*shape)
    m, regions = model(grid, cap)
    encoding = m.build()
    rule, pool, top = regions.rule, encoding.pool, encoding.pool.top
    rng = random.Random(11)
    compared = nonempty = 0
    for _ in range(60):
        lits = random_literals(grid, regions, rng)
        root = lits[:rng.randrange(len(lits) + 1)]
        model_ = _Partial(root, top).model
        keep = _acting(model_, top)
        searches = [(rule.over_root(_Partial([], top, model_), keep), keep),
                    (rule.over_root(_Partial([], top, model_)), None)]
        rest = lits[len(root):]
        for _ in range(8):
            extension = [x for x in rest if rng.random() < 0.3]
            whole = _Partial([*root, *extension], top)
            value = _Partial(extension, top, model_)
            for search, filter_ in searches:
                expected = rule.cuts(whole, pool, None if filter_ is None else _acting(whole.model, top))
                assert search.cuts(value, extension, pool, filter_) == expected, (root, extension)
                compared += 1
                nonempty += bool(expected)
            for x in extension:  # the root again
                model_[abs(x) - 1] = float("nan")
    assert nonempty > compared // 2
