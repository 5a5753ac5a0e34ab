"""The rule "no straight run of true cells crosses k borders" (``Model.no_run_across``) and its
geometry (``Grid.segments_across``), against brute force on random room layouts."""
from __future__ import annotations

import random

import pytest

from satgrid.grid import Grid
from satgrid.model import Model

from .test_model import all_solutions, brute


def random_rooms(grid: Grid, rng: random.Random, ids: int) -> dict:
    """A random id per cell; rooms are the side-connected groups of equal ids."""
    layout = [[rng.randrange(ids) for _ in range(grid.cols)] for _ in range(grid.rows)]
    return {p: i for i, room in enumerate(grid.rooms_from_ids(layout)) for p in room}


def crossings(grid: Grid, run: tuple, room_of: dict) -> int:
    return sum(room_of[p] != room_of[q] for p, q in zip(run, run[1:]))


def test_segments_across_on_a_hand_made_row() -> None:
    grid = Grid.of(1, 6)
    room_of = {(0, 0): 0, (0, 1): 0, (0, 2): 1, (0, 3): 2, (0, 4): 2, (0, 5): 3}
    apart = lambda p, q: room_of[p] != room_of[q]  # noqa: E731
    assert grid.segments_across(apart, 2) == [((0, 1), (0, 2), (0, 3)), ((0, 2), (0, 3), (0, 4), (0, 5))]
    assert grid.segments_across(apart, 3) == [((0, 1), (0, 2), (0, 3), (0, 4), (0, 5))]
    assert grid.segments_across(apart, 4) == []
    assert len(grid.segments_across(apart, 1)) == 3 + 0  # the three borders of the row; columns have none
    with pytest.raises(ValueError):
        grid.segments_across(apart, 0)


@pytest.mark.parametrize("seed", range(20))
def test_segments_across_are_the_minimal_runs_that_cross(seed: int) -> None:
    """A run of cells crosses k borders or more iff it contains a segment; each segment crosses
    exactly k and loses that by dropping either end."""
    rng = random.Random(seed)
    grid = Grid.of(rng.randint(1, 5), rng.randint(1, 5))
    room_of = random_rooms(grid, rng, 3)
    k = rng.randint(1, 3)
    segments = set(grid.segments_across(lambda p, q: room_of[p] != room_of[q], k))
    for line in grid.lines():
        for i in range(len(line)):
            for j in range(i, len(line)):
                run = tuple(line[i:j + 1])
                contains = any(run[a:b] in segments for a in range(len(run)) for b in range(a + 1, len(run) + 1))
                assert contains == (crossings(grid, run, room_of) >= k)
                if run in segments:
                    assert crossings(grid, run, room_of) == k
                    assert crossings(grid, run[1:], room_of) < k and crossings(grid, run[:-1], room_of) < k


@pytest.mark.parametrize("seed", range(8))
def test_no_run_across_against_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    grid = Grid.of(3, rng.randint(2, 4))
    room_of = random_rooms(grid, rng, 4)
    m = Model(grid)
    shaded = m.cells()
    apart = lambda p, q: room_of[p] != room_of[q]  # noqa: E731
    m.no_run_across("no unshaded run crosses two borders", {p: -x for p, x in shaded.items()}, apart, 2)

    def ok(on: set) -> bool:
        return all(crossings(grid, run, room_of) < 2 for run in grid.runs(lambda p: p not in on))
    expected = brute(grid.cells, ok)
    assert bool(grid.segments_across(apart, 2)) == (() not in expected)
    assert all_solutions(m, "shaded") == expected
