"""PuzzleQueries against brute force: uniqueness, backbone, redundant clues, minimal clue sets.

Sudoku 4x4 (all 288 grids are enumerated, so every answer has an exact reference), and a small
"connected region with row/column counts" puzzle whose lazy connectivity cuts accumulate in one
session across many puzzles and queries, compared with fresh sessions and brute force.
"""
from __future__ import annotations

import itertools
import random
from functools import lru_cache

import pytest
from hypothesis import given, settings, strategies as st

from satgrid.cnf import VarPool, exactly
from satgrid.connectivity import ConnectedSubgraph
from satgrid.encoding import ClueEncoding, Encoding
from satgrid.genres import sudoku
from satgrid.queries import PuzzleQueries
from satgrid.registry import GENRES
from satgrid.session import Session

from .helpers import bundled
from .test_connectivity import connected_subsets, grid

Grid = tuple[tuple[int, ...], ...]


# -- Sudoku 4x4 ------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def all_grids() -> tuple[Grid, ...]:
    """Every valid 4x4 Sudoku grid (288), by brute force over row permutations."""
    perms = list(itertools.permutations(range(1, 5)))
    found: list[Grid] = []

    def extend(rows: tuple) -> None:
        if len(rows) == 4:
            found.append(rows)
            return
        r = len(rows)
        for perm in perms:
            columns_ok = all(perm[c] != row[c] for row in rows for c in range(4))
            box_mate = rows[r - 1] if r % 2 else None  # the row sharing this row's boxes
            boxes_ok = box_mate is None or all(
                {perm[b], perm[b + 1]}.isdisjoint({box_mate[b], box_mate[b + 1]}) for b in (0, 2)
            )
            if columns_ok and boxes_ok:
                extend(rows + (perm,))

    extend(())
    return tuple(found)


def completions(clues: dict[tuple[int, int], int]) -> list[Grid]:
    return [g for g in all_grids() if all(g[r][c] == d for (r, c), d in clues.items())]


def puzzle_of(clues: dict[tuple[int, int], int]) -> sudoku.SudokuPuzzle:
    givens = tuple(tuple(clues.get((r, c)) for c in range(4)) for r in range(4))
    return sudoku.SudokuPuzzle(givens, 2, 2, name="t")


@lru_cache(maxsize=None)
def shared_sudoku_session() -> Session:
    """One session for every 4x4 puzzle in this file, as the API shares them (same cache key)."""
    return Session(sudoku.encode(puzzle_of({})))


def sudoku_queries(clues: dict[tuple[int, int], int], shared: bool = True):
    puzzle = puzzle_of(clues)
    session = shared_sudoku_session() if shared else Session(sudoku.encode(puzzle))
    return puzzle, session, PuzzleQueries(session, puzzle.clues())


def first_solution(puzzle, session, queries):
    outcome = queries.solve()
    assert outcome.status == "sat"
    solution = sudoku.decode(puzzle, session.encoding, outcome.assignment)
    assert sudoku.check(puzzle, solution) == []
    return solution, queries.project(outcome.assignment)


def digit_literals(session: Session, grid_: Grid) -> set[int]:
    var = session.encoding.pool.var
    return {var("digit", r, c, grid_[r][c]) for r in range(4) for c in range(4)}


def unique_clue_set(grid_: Grid, seed: int, size: int) -> dict[tuple[int, int], int]:
    """``size`` givens of ``grid_`` that leave it the only completion (random, by brute force)."""
    rng = random.Random(seed)
    cells = [(r, c) for r in range(4) for c in range(4)]
    while True:
        clues = {cell: grid_[cell[0]][cell[1]] for cell in rng.sample(cells, size)}
        if len(completions(clues)) == 1:
            return clues


def test_brute_force_reference() -> None:
    assert len(all_grids()) == 288
    assert all(sudoku.check(puzzle_of({}), g) == [] for g in all_grids())


def test_unique_puzzle() -> None:
    target = all_grids()[100]
    clues = unique_clue_set(target, seed=1, size=5)
    puzzle, session, queries = sudoku_queries(clues)
    solution, projection = first_solution(puzzle, session, queries)
    assert solution == target
    assert set(projection) == digit_literals(session, target)
    assert queries.other_solution(projection).status == "unsat"
    # Blocking is behind an activation literal: the solution is still found afterwards.
    assert first_solution(puzzle, session, queries)[0] == target
    queries.retire()


def test_puzzle_with_several_solutions() -> None:
    clues = {(0, 0): 1, (1, 2): 3, (3, 3): 2}
    expected = set(completions(clues))
    assert len(expected) > 2
    puzzle, session, queries = sudoku_queries(clues)
    first, projection = first_solution(puzzle, session, queries)
    outcome = queries.other_solution(projection)
    assert outcome.status == "sat"
    second = sudoku.decode(puzzle, session.encoding, outcome.assignment)
    assert second != first and sudoku.check(puzzle, second) == []
    assert {first, second} <= expected
    assert GENRES["sudoku"].differences(puzzle, first, second)
    # Blocking every solution found, one by one, finds exactly the brute-force completions.
    found, blockers = {first, second}, [queries.blocker(projection)]
    blockers.append(queries.blocker(queries.project(outcome.assignment)))
    while (outcome := queries.solve(extra=blockers)).status == "sat":
        found.add(sudoku.decode(puzzle, session.encoding, outcome.assignment))
        blockers.append(queries.blocker(queries.project(outcome.assignment)))
    assert found == expected
    queries.retire()
    assert queries.solve().status == "sat"  # retired blockers no longer exclude anything


def expected_backbone(session: Session, clues) -> set[int]:
    grids = completions(clues)
    var = session.encoding.pool.var
    backbone = set()
    for r, c, d in itertools.product(range(4), range(4), range(1, 5)):
        held = {g[r][c] == d for g in grids}
        if held == {True}:
            backbone.add(var("digit", r, c, d))
        elif held == {False}:
            backbone.add(-var("digit", r, c, d))
    return backbone


@pytest.mark.parametrize("clues", [
    {(0, 0): 1, (1, 2): 3, (3, 3): 2},
    {(0, 0): 1, (0, 1): 2},
    {(1, 1): 4},
    {},
    {(0, 0): 1, (1, 1): 3, (2, 2): 1, (3, 3): 3},
])
def test_backbone_is_the_intersection_of_all_solutions(clues) -> None:
    puzzle, session, queries = sudoku_queries(clues)
    _, projection = first_solution(puzzle, session, queries)
    assert queries.backbone(projection) == expected_backbone(session, clues)
    queries.retire()


def brute_redundant(clues) -> set[tuple[int, int]]:
    return {key for key in clues if len(completions({k: v for k, v in clues.items() if k != key})) == 1}


def assert_minimal(clues, kept) -> None:
    """``kept`` forces the solution, and no single clue of it can go (brute force)."""
    kept_clues = {k: clues[k] for k in kept}
    assert len(completions(kept_clues)) == 1
    for key in kept:
        assert len(completions({k: v for k, v in kept_clues.items() if k != key})) > 1, key


@pytest.mark.parametrize("seed,size", [(2, 6), (3, 8), (4, 10), (5, 16)])
def test_redundant_and_minimal_clues(seed: int, size: int) -> None:
    target = all_grids()[seed * 37 % 288]
    clues = unique_clue_set(target, seed, size)
    puzzle, session, queries = sudoku_queries(clues)
    _, projection = first_solution(puzzle, session, queries)
    redundant, unknown = queries.redundant_clues(projection)
    assert unknown == []
    assert set(redundant) == brute_redundant(clues)
    assert len(redundant) == len(set(redundant))
    kept = queries.minimal_clue_set(projection)
    assert kept is not None
    assert_minimal(clues, kept)
    reverse = queries.minimal_clue_set(projection, order=list(reversed(list(clues))))
    assert reverse is not None
    assert_minimal(clues, reverse)
    # The audit left the session as it found it.
    assert queries.other_solution(projection).status == "unsat"
    queries.retire()


@settings(max_examples=30, deadline=None)
@given(index=st.integers(0, 287), mask=st.integers(0, 2**16 - 1), order_seed=st.integers(0, 99))
def test_random_puzzles_on_one_shared_session(index: int, mask: int, order_seed: int) -> None:
    target = all_grids()[index]
    clues = {(i // 4, i % 4): target[i // 4][i % 4] for i in range(16) if mask >> i & 1}
    grids = completions(clues)
    puzzle, session, queries = sudoku_queries(clues)
    first, projection = first_solution(puzzle, session, queries)
    assert first in grids
    other = queries.other_solution(projection)
    assert (other.status == "unsat") == (len(grids) == 1)
    if other.status == "sat":
        second = sudoku.decode(puzzle, session.encoding, other.assignment)
        assert second in grids and second != first
    assert queries.backbone(projection) == expected_backbone(session, clues)
    if len(grids) == 1:
        assert set(queries.redundant_clues(projection)[0]) == brute_redundant(clues)
        order = list(clues)
        random.Random(order_seed).shuffle(order)
        kept = queries.minimal_clue_set(projection, order)
        assert kept is not None
        assert_minimal(clues, kept)
    queries.retire()


def test_shared_and_fresh_sessions_agree() -> None:
    clues = unique_clue_set(all_grids()[7], seed=9, size=7)
    answers = []
    for shared in (True, False):
        puzzle, session, queries = sudoku_queries(clues, shared)
        _, projection = first_solution(puzzle, session, queries)
        answers.append((projection, queries.redundant_clues(projection), queries.minimal_clue_set(projection)))
        queries.retire()
    assert answers[0] == answers[1]


# -- a lazy rule with clues: a connected region given by row and column counts -----------------
ROWS = COLS = 4
CELLS, ADJACENT = grid(ROWS, COLS)
INDEX = {cell: i for i, cell in enumerate(CELLS)}


def region_encoding() -> Encoding:
    """Black cells form one connected region; clues: ("row", r) / ("col", c) = number of black
    cells (a cardinality constraint behind a selector) and ("cell", r, c) = black or not (the cell
    literal or its negation itself: a literal clue)."""
    pool = VarPool()
    black = {cell: pool.var("black", *cell) for cell in CELLS}
    rule = ConnectedSubgraph("region", black, [(u, v, None) for u, v in ADJACENT])

    def encode_clue(key, value) -> ClueEncoding:
        kind, *where = key
        if kind == "cell":
            return ClueEncoding(black[tuple(where)] if value else -black[tuple(where)])
        line = [black[cell] for cell in CELLS if cell[0 if kind == "row" else 1] == where[0]]
        return ClueEncoding(pool.var("clue", *key, value), tuple(exactly(line, value, pool)))

    primary = {("black", *cell): v for cell, v in black.items()}
    return Encoding(pool, [], primary, encode_clue, [rule])


@lru_cache(maxsize=None)
def regions() -> tuple[frozenset[tuple[int, int]], ...]:
    links = tuple((INDEX[u], INDEX[v]) for u, v in ADJACENT)
    return tuple(
        frozenset(cell for cell in CELLS if mask >> INDEX[cell] & 1)
        for mask in sorted(connected_subsets(len(CELLS), links))
    )


def region_clues(region, cell_clues=()) -> dict:
    clues: dict = {("row", r): sum(1 for c in range(COLS) if (r, c) in region) for r in range(ROWS)}
    clues.update({("col", c): sum(1 for r in range(ROWS) if (r, c) in region) for c in range(COLS)})
    clues.update({("cell", *cell): cell in region for cell in cell_clues})
    return clues


@lru_cache(maxsize=None)
def obeying(key, value) -> int:
    """The regions (a bit per index into ``regions()``) that obey clue ``key = value``."""
    kind, *where = key
    bits = 0
    for i, region in enumerate(regions()):
        if kind == "cell":
            ok = (tuple(where) in region) == value
        else:
            ok = sum(1 for cell in region if cell[0 if kind == "row" else 1] == where[0]) == value
        bits |= ok << i
    return bits


def region_solutions(clues) -> list:
    bits = (1 << len(regions())) - 1
    for key, value in clues.items():
        bits &= obeying(key, value)
    return [region for i, region in enumerate(regions()) if bits >> i & 1]


def audit(session: Session, clues) -> dict:
    """Every query's answer for one puzzle, in solver-independent form."""
    queries = PuzzleQueries(session, clues)
    outcome = queries.solve()
    if outcome.status != "sat":
        return {"status": outcome.status}
    projection = queries.project(outcome.assignment)
    found = frozenset(cell for cell in CELLS if outcome.assignment(session.encoding.primary["black", *cell]))
    unique = queries.other_solution(projection).status == "unsat"
    cells = {v: k[1:] for k, v in session.encoding.primary.items()}
    answers = {
        "status": "sat",
        "unique": unique,
        "backbone": {(cells[abs(lit)], lit > 0) for lit in queries.backbone(projection)},
    }
    if unique:
        answers["solution"] = found
        answers["redundant"] = queries.redundant_clues(projection)
        answers["minimal"] = queries.minimal_clue_set(projection)
    queries.retire()
    return answers


def brute_audit(clues) -> dict:
    solutions = region_solutions(clues)
    if not solutions:
        return {"status": "unsat"}
    answers = {
        "status": "sat",
        "unique": len(solutions) == 1,
        "backbone": {
            (cell, held.pop())
            for cell in CELLS
            if len(held := {cell in s for s in solutions}) == 1
        },
    }
    if len(solutions) == 1:
        answers["solution"] = solutions[0]
        redundant = [
            k for k in clues if len(region_solutions({q: v for q, v in clues.items() if q != k})) == 1
        ]
        answers["redundant"] = (redundant, [])
        # Greedy deletion in clue order, by brute force: the same rule minimal_clue_set follows.
        kept = dict(clues)
        for key in list(clues):
            trial = {q: v for q, v in kept.items() if q != key}
            if len(region_solutions(trial)) == 1:
                kept = trial
        answers["minimal"] = list(kept)
    return answers


def region_puzzles() -> list[dict]:
    rng = random.Random(5)
    picked = rng.sample([r for r in regions() if 3 <= len(r) <= 11], 14)
    puzzles = []
    for i, region in enumerate(picked):
        cell_clues = rng.sample(CELLS, i % 4)
        puzzles.append(region_clues(region, cell_clues))
    # Clue sets that are no region's: a contradiction (row counts 4 and 0 side by side with a
    # column count of 0) and a partial set.
    puzzles.append({("row", 0): 4, ("col", 0): 0})
    puzzles.append({("row", 1): 2, ("cell", 0, 0): True, ("cell", 3, 3): True})
    return puzzles


def test_region_audits_with_persistent_cuts() -> None:
    """One lazy session serves every puzzle and query; its cuts (from earlier puzzles' clue sets)
    must never change an answer: each matches brute force and a fresh session per puzzle."""
    puzzles = region_puzzles()
    expected = [brute_audit(clues) for clues in puzzles]
    assert any(e.get("unique") for e in expected) and any(e.get("unique") is False for e in expected)
    assert any(e["status"] == "unsat" for e in expected)
    shared = Session(region_encoding(), connectivity="lazy")
    for clues, answer in zip(puzzles, expected):
        assert audit(shared, clues) == answer, clues
    assert shared.stats.cuts > 0
    # And again in reverse order, on the same session: still the same answers.
    for clues, answer in reversed(list(zip(puzzles, expected))):
        assert audit(shared, clues) == answer, clues
    for mode in ("lazy", "eager"):
        for clues, answer in list(zip(puzzles, expected))[::3]:
            assert audit(Session(region_encoding(), connectivity=mode), clues) == answer, (mode, clues)


def test_all_clues_literal_switches_every_clue_on_and_retires() -> None:
    from satgrid.genres import slitherlink

    puzzle = slitherlink.SlitherlinkPuzzle(((3, None), (None, 1)))
    session = Session(slitherlink.encode(puzzle))
    queries = PuzzleQueries(session, puzzle.clues())
    everything = queries.assumptions()
    assert everything == [queries.all_clues()]  # one assumption instead of one per clue
    assert sorted(queries.assumptions(without=[(0, 0)])) == [queries.selectors[1, 1]]
    ok, implied = session.propagate(everything)
    assert ok and set(queries.selectors.values()) <= set(implied)
    assert queries.solve().status == "sat"
    queries.retire()
    # Retired: the literal is false for good, and a later puzzle on the session is unaffected.
    assert session.propagate(everything)[0] is False
    later = slitherlink.SlitherlinkPuzzle(((None, 3), (1, None)))
    assert PuzzleQueries(session, later.clues()).solve().status == "sat"
    # Literal clues (Sudoku givens) are assumed as they are.
    _, _, sudoku_queries_ = sudoku_queries(unique_clue_set(all_grids()[100], seed=1, size=5))
    assert sorted(sudoku_queries_.assumptions()) == sorted(sudoku_queries_.selectors.values())


def greedy_by_brute_force(clues, order, limit=None) -> list:
    """One-at-a-time deletion in ``order`` (with at most ``limit`` clues gone, if given)."""
    kept, gone = dict(clues), 0
    for key in order:
        trial = {q: v for q, v in kept.items() if q != key}
        if len(completions(trial)) == 1 and (limit is None or gone < limit):
            kept, gone = trial, gone + 1
    return sorted(kept)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_minimal_clue_set_runs_and_hooks_give_the_one_at_a_time_result(seed: int) -> None:
    clues = unique_clue_set(all_grids()[seed * 50], seed, 14)  # most clues can go: runs succeed
    order = list(clues)
    random.Random(seed).shuffle(order)
    puzzle, session, queries = sudoku_queries(clues)
    _, projection = first_solution(puzzle, session, queries)
    assert sorted(queries.minimal_clue_set(projection, order)) == greedy_by_brute_force(clues, order)
    # accept: a monotone extra condition (here: at most 3 clues gone)
    capped = queries.minimal_clue_set(projection, order, accept=lambda removed: len(removed) <= 3)
    assert sorted(capped) == greedy_by_brute_force(clues, order, limit=3)
    # witnesses: every other grid, as the clues it breaks, vouches for the clues that must stay;
    # the answer does not change and the SAT calls fall
    witnesses: dict = {}
    for grid_ in all_grids():
        breaks = frozenset(q for q, v in clues.items() if grid_[q[0]][q[1]] != v)
        for key in breaks:
            witnesses.setdefault(key, []).append(breaks)
    calls = session.stats.sat_calls
    assert sorted(queries.minimal_clue_set(projection, order)) == greedy_by_brute_force(clues, order)
    calls, before = session.stats.sat_calls - calls, session.stats.sat_calls
    assert sorted(queries.minimal_clue_set(projection, order, witnesses=witnesses)) == \
        greedy_by_brute_force(clues, order)
    assert session.stats.sat_calls - before < calls
    # a witness is taken at its word: one that names no real solution keeps a clue that could go
    first_gone = next(key for key in order if key not in greedy_by_brute_force(clues, order))
    assert first_gone in queries.minimal_clue_set(projection, order, witnesses={first_gone: [{first_gone}]})
    queries.retire()


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_settled_deletion_and_failed_run_witnesses_give_the_one_at_a_time_result(seed: int) -> None:
    """``settle`` (decided clues become unit clauses on a session of its own) and ``broken``
    (the solutions of failed runs vouch for clues later) change the SAT calls, not the answer."""
    clues = unique_clue_set(all_grids()[seed * 40], seed, 12)
    order = list(clues)
    random.Random(seed).shuffle(order)
    expected = greedy_by_brute_force(clues, order)
    witnessed = 0
    for settle, use_broken in [(True, False), (False, True), (True, True)]:
        puzzle, session, queries = sudoku_queries(clues, shared=False)
        _, projection = first_solution(puzzle, session, queries)
        seen: list[set] = []

        def broken(assignment, keys) -> set:
            out = {k for k in keys if not assignment(queries.selectors[k])}
            assert out, "a failed run's solution breaks at least one of the run's clues"
            seen.append(out)
            return out

        kept = queries.minimal_clue_set(projection, order, settle=settle,
                                        broken=broken if use_broken else None)
        assert sorted(kept) == expected, (settle, use_broken)
        witnessed += len(seen)
        if settle:  # the kept givens are now facts of the solver: no assumption needed
            assert all(session.solve([-queries.selectors[k]]).status == "unsat" for k in kept)
        session.close()
    assert witnessed > 0  # some run failed and left a witness


def test_settled_deletion_retires_the_breakers_of_clues_asked_alone() -> None:
    """With ``settle``, a clue asked about alone is decided for good, so its breaker is switched
    off by a unit clause (the solver no longer branches on it) and forgotten by the session; the
    answer is the one-at-a-time answer of an unsettled session."""
    import random as random_

    from satgrid.genres.slitherlink.generator import grow
    from satgrid.genres import slitherlink

    region = grow(4, 4, random_.Random(5))
    clues = region.clues()
    puzzle = slitherlink.SlitherlinkPuzzle(tuple(tuple(clues[r, c] for c in range(4)) for r in range(4)))
    order = sorted(clues)
    random_.Random(5).shuffle(order)
    answers, retired = [], []
    for settle in (False, True):
        session = Session(slitherlink.encode(puzzle))
        queries = PuzzleQueries(session, puzzle.clues())
        outcome = queries.solve()
        assert outcome.status == "sat" and outcome.assignment is not None
        projection = queries.project(outcome.assignment)
        made = []
        breaker = session.breaker
        session.breaker = lambda selector: made.append(breaker(selector)) or made[-1]  # type: ignore[method-assign]
        answers.append(sorted(queries.minimal_clue_set(projection, order, settle=settle)))
        if settle:
            retired = [lit for lit in made if lit is not None]
            assert retired and not session._breakers
            # false at the root: assuming one fails at once, before any propagation
            assert all(session.propagate([lit])[0] is False for lit in retired)
        session.close()
    assert answers[0] == answers[1]


# -- audits in passes --------------------------------------------------------------------------
def _audited(puzzle) -> tuple[PuzzleQueries, tuple[int, ...]]:
    """A fresh session's queries of ``puzzle`` (clues behind selectors) and its one solution."""
    session = Session(GENRES[puzzle.genre].encode(puzzle))
    queries = PuzzleQueries(session, puzzle.clues())
    first = queries.solve()
    assert first.status == "sat"
    projection = queries.project(first.assignment)
    assert queries.other_solution(projection).status == "unsat"
    return queries, projection


def test_audit_passes_give_the_answers_of_one_pass() -> None:
    """Budgets so small that questions go on to later passes: the same redundant clues, in the
    same order, and none undecided, as one pass without limits (every genre's examples); the
    first pass alone leaves some clues undecided, so the later passes are exercised."""
    from satgrid import api

    carried = 0
    for name in sorted(GENRES):
        for puzzle in bundled(name)[:3]:
            if not puzzle.clues() or api.solve(puzzle, unique=True).status != "unique":
                continue
            queries, projection = _audited(puzzle)
            try:
                once = queries.redundant_clues(projection, passes=((None, None),))
                tiny = queries.redundant_clues(projection, passes=((1, 1), (20, 2), (None, None)))
                carried += len(queries.redundant_clues(projection, passes=((1, 1),))[1])
            finally:
                queries.session.close()
            assert tiny == once and once[1] == [], puzzle.name
    assert carried


def test_an_audit_stopped_among_its_clues_reports_what_it_decided() -> None:
    """A conflict limit that stops some clue questions: the result keeps the clues proved
    redundant and lists the undecided ones (JSON ``audit_partial``), while ``redundant_clues``
    and ``minimal`` stay unset; the proved ones are redundant in the complete audit, and every
    clue the complete audit calls redundant is proved or undecided."""
    from satgrid import api

    puzzle = next(p for p in bundled("nurikabe") if p.name == "n3")
    full = api.solve(puzzle, audit=True, grade=False)
    stopped = api.solve(puzzle, audit=True, grade=False, options=api.Options(conflict_limit=1))
    assert full.redundant_clues and full.partial_audit is None
    assert stopped.status == "unique" and stopped.redundant_clues is None and stopped.minimal is None
    redundant, undecided = stopped.partial_audit
    assert undecided and set(redundant) <= set(full.redundant_clues)
    assert set(full.redundant_clues) <= set(redundant) | set(undecided)
    out = stopped.to_json()
    assert out["audit_partial"] == {"redundant": [list(k) for k in redundant],
                                    "undecided": [list(k) for k in undecided]}
    assert "redundant_clues" not in out and "limit reached" in out["note"]
