"""rooms.random_rectangles: random partitions into rectangles, within their bounds, reproducible
per seed, and every small partition into rectangles reachable."""
from __future__ import annotations

import random

import pytest

from satgrid import rooms


def is_rectangle(room) -> bool:
    rs, cs = [r for r, _ in room], [c for _, c in room]
    return len(room) == (max(rs) - min(rs) + 1) * (max(cs) - min(cs) + 1)


@pytest.mark.parametrize("seed", range(30))
def test_random_rectangles_partition_the_grid_within_the_bounds(seed):
    rng = random.Random(seed)
    rows, cols, side, least = rng.randint(1, 9), rng.randint(1, 9), rng.randint(1, 4), rng.randint(1, 2)
    if side < 3 or min(rows, cols) < 2:
        least = 1  # rows of 1x2 and 1x3 rooms tile any grid of sides 2 and more
    found = rooms.random_rectangles(rows, cols, rng, side, least)
    assert rooms.problems(rows, cols, found) == []
    assert found == rooms.canonical(found)
    for room in found:
        rs, cs = {r for r, _ in room}, {c for _, c in room}
        assert is_rectangle(room) and len(rs) <= side and len(cs) <= side and len(room) >= least
    assert rooms.random_rectangles(rows, cols, random.Random(seed + 1000), side, least) == \
        rooms.random_rectangles(rows, cols, random.Random(seed + 1000), side, least)


def test_every_partition_of_a_small_grid_into_rectangles_comes_out():
    """A 2x3 grid has 34 partitions into rectangles (sides up to 3); many draws find them all."""
    rng = random.Random(7)
    seen = {rooms.random_rectangles(2, 3, rng) for _ in range(4000)}
    assert len(seen) == 34


def test_random_rectangles_refuse_impossible_bounds():
    with pytest.raises(ValueError):
        rooms.random_rectangles(3, 3, random.Random(1), max_side=1, min_size=2)
    with pytest.raises(ValueError):
        rooms.random_rectangles(1, 1, random.Random(1), max_side=3, min_size=2)
