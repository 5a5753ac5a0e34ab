"""Sudoku benchmark: satgrid (warm, one incremental solver per size) against a naive fresh-solver
baseline and PyPI peers, on the same puzzles in the same run. Prints tables.

    .venv/bin/python bench/bench_sudoku.py [--quick]

Puzzles: bench/data/sudoku9_hard.txt (sgt-solo's hardest level, 300 puzzles), 16x16 from
bench/data/sudoku16.txt, and 25x25 made here from a shuffled pattern grid (thinned at random, then
clues added back from the grid until unique).
"""
from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from pysat.solvers import Solver

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from satgrid import api  # noqa: E402
from satgrid.genres import sudoku  # noqa: E402

import bench.peers as peers  # noqa: E402
from bench.common import median_time, table  # noqa: E402

DATA = ROOT / "bench" / "data"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f}"


# -- naive baseline: a fresh python-sat solver per query, as a typical user writes it ------------
def naive_query(base: list[list[int]], puzzle, extra: list[list[int]], skip=None) -> list[int] | None:
    var = lambda r, c, d: 1 + (r * puzzle.size + c) * puzzle.size + d - 1  # noqa: E731
    units = [[var(r, c, d)] for (r, c), d in puzzle.clues().items() if (r, c) != skip]
    with Solver(name="cadical153", bootstrap_with=base + units + extra) as s:
        return s.get_model() if s.solve() else None


def naive_unique(base, puzzle) -> bool:
    model = naive_query(base, puzzle, [])
    block = [[-v for v in model[: puzzle.size ** 3] if v > 0]]
    return naive_query(base, puzzle, block) is None


def naive_audit(base, puzzle) -> list:
    model = naive_query(base, puzzle, [])
    block = [[-v for v in model[: puzzle.size ** 3] if v > 0]]
    assert naive_query(base, puzzle, block) is None
    return [key for key in puzzle.clues() if naive_query(base, puzzle, block, skip=key) is None]


# -- puzzles ------------------------------------------------------------------------------------
def load_set(name: str, limit: int | None = None):
    path = DATA / name
    if not path.exists():
        return []
    puzzles = api.load([str(path)])
    return puzzles[:limit] if limit else puzzles


def made_puzzles(n: int, h: int, w: int, count: int, seed: int = 1):
    """Unique n x n puzzles: shuffled pattern grid, thinned, clues added back until unique."""
    rnd = random.Random(seed)
    out = []
    for k in range(count):
        digits = list(range(1, n + 1))
        rnd.shuffle(digits)
        bands = rnd.sample(range(n // h), n // h)
        rows = [b * h + r for b in bands for r in rnd.sample(range(h), h)]
        stacks = rnd.sample(range(n // w), n // w)
        cols = [s * w + c for s in stacks for c in rnd.sample(range(w), w)]
        grid = [[digits[(w * (r % h) + r // h + c) % n] for c in cols] for r in rows]
        givens = {(r, c): grid[r][c] for r in range(n) for c in range(n) if rnd.random() < 0.40}
        empty = tuple((None,) * n for _ in range(n))
        base = sudoku.SudokuPuzzle(empty, h, w, name=f"made-{n}x{n}-{k + 1}")
        while True:
            result = api.solve(base.with_clues(givens), unique=True)
            if result.status == "unique":
                break
            diff = result.genre.differences(base, result.solution, result.second_solution)
            r, c = rnd.choice(diff)
            givens[r, c] = grid[r][c]
        out.append(base.with_clues(givens))
    return out


# -- tables -------------------------------------------------------------------------------------
def satgrid_row(label: str, puzzles) -> list[str]:
    api.solve(puzzles[0], audit=True)  # warm: the size's solvers are built once
    solve = median_time(lambda p: api.solve(p), puzzles)
    unique = median_time(lambda p: api.solve(p, unique=True), puzzles)
    audit = median_time(lambda p: api.solve(p, audit=True, grade=False), puzzles)
    graded = median_time(lambda p: api.solve(p, audit=True), puzzles)
    clues = statistics.median(len(p.clues()) for p in puzzles)
    return [label, str(len(puzzles)), str(clues), ms(solve), ms(unique), ms(audit), ms(graded)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer puzzles (a smoke run)")
    args = parser.parse_args()
    nine = load_set("sudoku9_hard.txt", 40 if args.quick else None)
    if not nine:
        nine = api.load([str(ROOT / "satgrid" / "data" / "sudoku.txt")])[:1]
    sixteen = load_set("sudoku16.txt", 3 if args.quick else None)
    twentyfive = made_puzzles(25, 5, 5, 1 if args.quick else 3)
    print("# satgrid Sudoku benchmark")
    print(f"python-sat solver: {api.Options().solver}; times are medians per puzzle, warm process")

    rows = [satgrid_row("9x9 sgt-solo hardest", nine)]
    if sixteen:
        rows.append(satgrid_row("16x16 sgt-solo", sixteen))
    rows.append(satgrid_row("25x25 made here", twentyfive))
    table("satgrid (ms; full audit = solve + unique + every clue's redundancy)",
          ["set", "puzzles", "clues", "solve", "solve+unique", "full audit", "audit + grade"], rows)

    # naive baseline on the same 9x9 puzzles
    subset = nine[: 30 if args.quick else 100]
    base = sudoku.encode(subset[0]).clauses
    n_unique = median_time(lambda p: naive_unique(base, p), subset)
    n_audit = median_time(lambda p: naive_audit(base, p), subset)
    assert all(naive_audit(base, p) == api.solve(p, audit=True, grade=False).redundant_clues
               for p in subset[:10])
    s_unique = median_time(lambda p: api.solve(p, unique=True), subset)
    s_audit = median_time(lambda p: api.solve(p, audit=True, grade=False), subset)
    table("9x9 against a naive fresh-solver-per-query baseline (same puzzles, ms)",
          ["query", "puzzles", "satgrid", "naive", "naive / satgrid"],
          [["solve+unique", str(len(subset)), ms(s_unique), ms(n_unique), f"{n_unique / s_unique:.1f}x"],
           ["full audit", str(len(subset)), ms(s_audit), ms(n_audit), f"{n_audit / s_audit:.1f}x"]])

    # peers
    peer_rows = []
    box = (3, 3)
    peer_set = nine[: 20 if args.quick else 100]
    grids = [[list(row) for row in p.givens] for p in peer_set]
    s_solve = median_time(lambda p: api.solve(p), peer_set)
    s_unique = median_time(lambda p: api.solve(p, unique=True), peer_set)
    for name, solve_fn, unique_fn in [
        ("multi-puzzle-solver", peers.sudoku_multi_puzzle_solver,
         lambda g: peers.sudoku_multi_puzzle_solver_count(g, box) == 1),
        ("py-sudoku", peers.sudoku_py_sudoku, lambda g: not peers.sudoku_py_sudoku_has_multiple(g, box)),
    ]:
        key = "sudoku_" + name.replace("-", "_")
        if not peers.available(key):
            peer_rows.append([name, "not installed", "", "", ""])
            continue
        for g, p in zip(grids[:5], peer_set):
            assert [list(r) for r in api.solve(p).solution] == [list(r) for r in solve_fn(g, box)]
        t_solve = median_time(lambda g: solve_fn(g, box), grids)
        t_unique = median_time(unique_fn, grids)
        peer_rows.append([name, ms(t_solve), f"{t_solve / s_solve:.0f}x", ms(t_unique),
                          f"{t_unique / s_unique:.0f}x"])
    table(f"9x9 peers (same {len(peer_set)} puzzles, ms; ratio = peer / satgrid)",
          ["peer", "solve", "ratio", "solve+unique", "ratio"],
          [["satgrid", ms(s_solve), "1x", ms(s_unique), "1x"], *peer_rows])

    # throughput through the CLI, one vs two processes
    path = DATA / "sudoku9_hard.txt"
    if path.exists() and not args.quick:
        rows = []
        for jobs in (1, 2):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "satgrid", "audit", str(path), "--jobs", str(jobs),
                            "--no-grade", "--format", "json"], check=True, capture_output=True, cwd=ROOT)
            wall = time.perf_counter() - start
            rows.append([str(jobs), str(len(nine)), f"{wall:.2f}", f"{len(nine) / wall:.0f}"])
        table("CLI audit throughput (whole process, start-up included)",
              ["jobs", "puzzles", "wall s", "puzzles/s"], rows)

    # solver choice (the default is picked from this table)
    rows = []
    sample = nine[:60]
    for name in ("cadical153", "cadical195", "minisat22", "glucose4", "maplechrono"):
        options = api.Options(solver=name)
        api.solve(sample[0], audit=True, grade=False, options=options)
        t_unique = median_time(lambda p: api.solve(p, unique=True, options=options), sample)
        t_audit = median_time(lambda p: api.solve(p, audit=True, grade=False, options=options), sample)
        rows.append([name, ms(t_unique), ms(t_audit)])
    table(f"embedded solver choice (9x9, {len(sample)} puzzles, ms)", ["solver", "solve+unique", "audit"], rows)


if __name__ == "__main__":
    main()
