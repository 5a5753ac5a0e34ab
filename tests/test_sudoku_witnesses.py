"""Sudoku witnesses (digit swaps on pair components): every swapped grid passes the checker, the
components are the brute-force ones, and audits and minimal clue sets come out the same with and
without witnesses."""
from __future__ import annotations

import itertools
import random

import networkx as nx
import pytest

from satgrid import api
from satgrid.genres import sudoku
from satgrid.genres.sudoku.checker import check_sudoku
from satgrid.genres.sudoku.generator import random_grid
from satgrid.genres.sudoku.witnesses import DigitPairs, swapped, witnesses
from satgrid.queries import PuzzleQueries, by_clue

from .helpers import SHARED
from .test_sudoku import GRIDS_4X4

#: (n, box height, box width) of the sizes tested
SHAPES = ((4, 2, 2), (6, 2, 3), (8, 2, 4), (9, 3, 3), (16, 4, 4))


def brute_components(grid, h: int, w: int, d: int, e: int) -> list[frozenset]:
    """The components of the d/e cells linked by sharing a row, column or box (networkx)."""
    n = len(grid)
    cells = [(r, c) for r in range(n) for c in range(n) if grid[r][c] in (d, e)]
    graph = nx.Graph()
    graph.add_nodes_from(cells)
    for (r, c), (s, t) in itertools.combinations(cells, 2):
        if r == s or c == t or (r // h, c // w) == (s // h, t // w):
            graph.add_edge((r, c), (s, t))
    return [frozenset(part) for part in nx.connected_components(graph)]


def read_components(grid, h: int, w: int, d: int, e: int) -> list[frozenset]:
    """DigitPairs' components as cell sets."""
    label = DigitPairs(grid, h, w).components(d, e) or [0] * len(grid)
    parts: dict[int, set] = {}
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            if v in (d, e):
                parts.setdefault(label[r], set()).add((r, c))
    return [frozenset(p) for p in parts.values()]


@pytest.mark.parametrize("n,h,w", SHAPES)
def test_components_are_the_brute_force_ones_and_every_swap_passes_the_checker(n, h, w):
    rng = random.Random(n)
    blank = [[None] * n for _ in range(n)]
    for _ in range(2 if n < 16 else 1):
        grid = random_grid(n, h, w, rng)
        for d, e in itertools.combinations(range(1, n + 1), 2):
            found = read_components(grid, h, w, d, e)
            assert sorted(map(sorted, found)) == sorted(map(sorted, brute_components(grid, h, w, d, e)))
            label = DigitPairs(grid, h, w).components(d, e) or [0] * len(grid)
            for part in found:
                rows = {label[r] for r, _ in part}
                assert len(rows) == 1
                other = swapped(grid, d, e, [r for r in range(n) if label[r] in rows])
                assert check_sudoku(blank, h, w, other) == []
                changed = {(r, c) for r in range(n) for c in range(n) if other[r][c] != grid[r][c]}
                assert changed == part


def test_every_swap_of_every_4x4_grid_is_a_valid_grid():
    valid = set(GRIDS_4X4)
    for grid in GRIDS_4X4:
        pairs = DigitPairs(grid, 2, 2)
        for d, e in itertools.combinations(range(1, 5), 2):
            label = pairs.components(d, e) or [0] * 4
            for part in set(label):
                other = swapped(grid, d, e, [r for r in range(4) if label[r] == part])
                assert tuple(map(tuple, other)) in valid and other != [list(r) for r in grid]


def _random_puzzle(n: int, h: int, w: int, rng: random.Random, extra: int):
    """A unique puzzle of a random grid: givens added in random order until unique (asked of the
    solver), then ``extra`` more (so some are redundant); its queries and solution."""
    grid = random_grid(n, h, w, rng)
    cells = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(cells)
    full = sudoku.SudokuPuzzle(tuple(map(tuple, grid)), h, w)
    session, _ = api.session_for(full, api.Options())
    queries = PuzzleQueries(session, full.clues())
    first = queries.solve()
    projection = queries.project(first.assignment)
    count, step = 0, max(1, n * n // 40)
    while count < n * n:
        count = min(n * n, count + step)
        if queries.other_solution(projection, without=cells[count:], need_model=False).status == "unsat":
            break
    queries.retire()
    kept = set(cells[:count + extra])
    givens = tuple(tuple(v if (r, c) in kept else None for c, v in enumerate(row))
                   for r, row in enumerate(grid))
    return sudoku.SudokuPuzzle(givens, h, w), tuple(map(tuple, grid))


def _answers(puzzle, found):
    """The redundant clues and the minimal clue set (one order), with ``found`` as witnesses."""
    session, _ = api.session_for(puzzle, api.Options())
    queries = PuzzleQueries(session, puzzle.clues())
    try:
        projection = queries.project(queries.solve().assignment)
        assert queries.other_solution(projection, need_model=False).status == "unsat"
        redundant, unknown = queries.redundant_clues(projection, found)
        assert unknown == []
        calls = session.stats.sat_calls
        kept = queries.minimal_clue_set(projection, witnesses=by_clue(found))
        return sorted(redundant), sorted(kept), calls
    finally:
        queries.retire()


@pytest.mark.parametrize("n,h,w", SHAPES)
def test_audits_and_minimal_sets_are_the_same_with_and_without_witnesses(n, h, w):
    rng = random.Random(100 + n)
    for extra in (0, 2, 5) if n < 16 else (3,):
        puzzle, grid = _random_puzzle(n, h, w, rng, extra)
        found = sudoku.WITNESSES(puzzle, grid)
        clues = puzzle.clues()
        for part in found:  # every set: givens of the puzzle that a valid grid breaks
            assert part and part <= set(clues)
        with_w, without = _answers(puzzle, found), _answers(puzzle, [])
        assert with_w[:2] == without[:2]
        if any(len(part) == 1 for part in found):
            assert with_w[2] < without[2]  # fewer SAT calls


def test_a_set_of_several_clues_decides_nothing_alone():
    # A full grid: every given is redundant, and every witness set holds several givens (a
    # component has at least four cells, all of them givens).
    grid = GRIDS_4X4[7]
    puzzle = sudoku.SudokuPuzzle(grid, 2, 2)
    found = sudoku.WITNESSES(puzzle, grid)
    assert found and all(len(part) >= 4 for part in found)
    redundant, kept, _ = _answers(puzzle, found)
    assert redundant == sorted(puzzle.clues())
    assert (redundant, kept) == _answers(puzzle, [])[:2]


def test_api_audit_and_minimize_use_the_witnesses(monkeypatch):
    rng = random.Random(5)
    puzzle, _ = _random_puzzle(9, 3, 3, rng, 3)
    with_w = api.solve(puzzle, audit=True, minimize=True, grade=False)
    monkeypatch.delattr(sudoku, "WITNESSES")
    without = api.solve(puzzle, audit=True, minimize=True, grade=False)
    assert with_w.status == without.status == "unique"
    assert with_w.redundant_clues == without.redundant_clues
    assert with_w.minimal_clues == without.minimal_clues
    assert with_w.stats.sat_calls < without.stats.sat_calls


def test_royle_puzzles_audit_minimal_with_fewer_sat_calls():
    path = SHARED / "external" / "sudoku" / "royle_17clue_solutions_sample.txt"
    if not path.exists():
        pytest.skip(f"{path} not found")
    lines = [line.split() for line in path.read_text().splitlines() if line and not line.startswith("#")]
    for text, solution in lines[:20]:
        [puzzle] = api.load_text(text, "royle", "sudoku")
        grid = tuple(tuple(int(solution[r * 9 + c]) for c in range(9)) for r in range(9))
        result = api.solve(puzzle, audit=True, grade=False)
        assert result.solution == grid and result.minimal is True
        singles = {k for part in witnesses(puzzle.givens, grid, 3, 3) if len(part) == 1 for k in part}
        assert result.stats.sat_calls == 2 + 17 - len(singles)
