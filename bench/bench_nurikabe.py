"""Nurikabe benchmark: prints one table (times in ms, CPU of this process unless marked wall).

    .venv/bin/python bench/bench_nurikabe.py            # the table
    .venv/bin/python bench/bench_nurikabe.py --generate # (re)make bench/data/nurikabe_*.txt
    .venv/bin/python bench/bench_nurikabe.py --n7       # only the n7 rows (the issue's targets)

Rows:
- n1-n7 (shared data): solve + uniqueness, median of warm runs, each on a *fresh* encoding and
  solver (the honest figure), and through ``api.solve`` whose session cache reuses the cuts of
  earlier runs of the same grid; n7 full clue audit (fresh);
- generated 10x10, 30x30 and 40x40 unique puzzles (bench/data): lazy and eager, with SAT calls,
  CEGAR iterations and cuts;
- naive baseline: a fresh solver per query (solve, then a new solver with the blocking clause for
  uniqueness), lazy cuts rebuilt every time;
- peer: grilops (z3) on the 10x10 via bench/peers.py, solve + uniqueness (count up to 2).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from satgrid import api  # noqa: E402
from satgrid.genres import nurikabe as nk  # noqa: E402
from satgrid.queries import PuzzleQueries  # noqa: E402
from satgrid.session import Session  # noqa: E402

DATA = ROOT / "bench" / "data"
#: ``shared/`` stands beside the checkout; SATGRID_SHARED points elsewhere (as in the tests).
SHARED = Path(os.environ.get("SATGRID_SHARED", ROOT.parent / "shared")) / "data" / "nurikabe" / "jwiki.txt"
SIZES = {"10x10": (10, 10), "30x30": (30, 30), "40x40": (40, 40)}


def cpu_ms(fn, repeat: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        start = time.process_time()
        out = fn()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times), out


# -- satgrid runs ---------------------------------------------------------------------------------
def fresh_unique(puzzle, connectivity: str = "lazy", variant: nk.Variant = nk.Variant()):
    """Encode, load, solve, decode + check, uniqueness: everything a first query pays."""
    session = Session(nk.encode(puzzle, variant), connectivity=connectivity)
    queries = PuzzleQueries(session, puzzle.clues())
    first = queries.solve()
    assert first.status == "sat"
    solution = nk.decode(puzzle, session.encoding, first.assignment)
    assert nk.check(puzzle, solution) == []
    second = queries.other_solution(queries.project(first.assignment))
    session.close()
    return second.status, session.stats


def fresh_audit(puzzle):
    session = Session(nk.encode(puzzle))
    queries = PuzzleQueries(session, puzzle.clues())
    first = queries.solve()
    projection = queries.project(first.assignment)
    assert queries.other_solution(projection).status == "unsat"
    redundant, unknown = queries.redundant_clues(projection)
    session.close()
    return len(redundant), unknown, session.stats


def naive_unique(puzzle):
    """A fresh solver per query: nothing (cuts, learned clauses) carries over."""
    s1 = Session(nk.encode(puzzle))
    q1 = PuzzleQueries(s1, puzzle.clues())
    first = q1.solve()
    projection = q1.project(first.assignment)
    s1.close()
    s2 = Session(nk.encode(puzzle))
    q2 = PuzzleQueries(s2, puzzle.clues())
    s2.add([[-lit for lit in projection]])
    second = q2.solve()
    s2.close()
    return second.status, s1.stats.cegar_iterations + s2.stats.cegar_iterations


# -- generation -----------------------------------------------------------------------------------
def random_solution(rows: int, cols: int, rng: random.Random, biggest: int) -> list[list[bool]]:
    """A random valid colouring (True = black): whiten cells of 2x2 black blocks while the wall
    stays connected and islands stay at most ``biggest`` cells."""
    black = [[True] * cols for _ in range(rows)]

    def near(r, c):
        return [(a, b) for a, b in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= a < rows and 0 <= b < cols]

    def island(r, c):
        seen, queue = {(r, c)}, deque([(r, c)])
        while queue:
            for q in near(*queue.popleft()):
                if q not in seen and not black[q[0]][q[1]]:
                    seen.add(q)
                    queue.append(q)
        return seen

    def wall_connected_without(r, c):
        black[r][c] = False
        start = next(((a, b) for a, b in near(r, c) if black[a][b]), None)
        total = sum(map(sum, black))
        ok = True
        if start is not None:
            seen, queue = {start}, deque([start])
            while queue:
                for q in near(*queue.popleft()):
                    if q not in seen and black[q[0]][q[1]]:
                        seen.add(q)
                        queue.append(q)
            ok = len(seen) == total
        black[r][c] = True
        return ok

    stuck: set[tuple[int, int]] = set()
    while True:
        blocks = [(r, c) for r in range(rows - 1) for c in range(cols - 1)
                  if (r, c) not in stuck and black[r][c] and black[r + 1][c] and black[r][c + 1] and black[r + 1][c + 1]]
        if not blocks:
            break
        r0, c0 = rng.choice(blocks)
        cells = [(r0, c0), (r0 + 1, c0), (r0, c0 + 1), (r0 + 1, c0 + 1)]
        rng.shuffle(cells)
        for r, c in cells:
            black[r][c] = False
            size = len(island(r, c))
            black[r][c] = True
            if size <= biggest and wall_connected_without(r, c):
                black[r][c] = False
                break
        else:
            stuck.add((r0, c0))
    if any(black[r][c] and black[r + 1][c] and black[r][c + 1] and black[r + 1][c + 1]
           for r in range(rows - 1) for c in range(cols - 1)):
        return random_solution(rows, cols, rng, biggest)
    return black


def generate(rows: int, cols: int, seed: int, biggest: int = 7, rounds: int = 60) -> nk.NurikabePuzzle:
    """A unique puzzle: a random solution, one number per island at a random cell; while a second
    solution exists, move the number of an island to one of its cells that the second solution
    paints black (that kills the second solution and keeps the first)."""
    rng = random.Random(seed)
    black = random_solution(rows, cols, rng, biggest)
    owner: dict[tuple[int, int], int] = {}
    islands: list[list[tuple[int, int]]] = []
    for r in range(rows):
        for c in range(cols):
            if not black[r][c] and (r, c) not in owner:
                cells, queue = [(r, c)], deque([(r, c)])
                owner[r, c] = len(islands)
                while queue:
                    a, b = queue.popleft()
                    for q in ((a - 1, b), (a + 1, b), (a, b - 1), (a, b + 1)):
                        if 0 <= q[0] < rows and 0 <= q[1] < cols and not black[q[0]][q[1]] and q not in owner:
                            owner[q] = len(islands)
                            cells.append(q)
                            queue.append(q)
                islands.append(cells)
    where = [rng.choice(cells) for cells in islands]
    for _ in range(rounds):
        numbers = {p: len(islands[i]) for i, p in enumerate(where)}
        grid = tuple(tuple(numbers.get((r, c)) for c in range(cols)) for r in range(rows))
        puzzle = nk.NurikabePuzzle(grid, f"gen-{rows}x{cols}-{seed}")
        session = Session(nk.encode(puzzle))
        queries = PuzzleQueries(session, puzzle.clues())
        intended = tuple(v if black[key[1]][key[2]] else -v for key, v in session.encoding.primary.items())
        other = queries.other_solution(intended)
        second = None if other.status == "unsat" else nk.decode(puzzle, session.encoding, other.assignment)
        session.close()
        if second is None:
            return puzzle
        # A cell that the second solution paints white, lonely in ours (no white neighbour): make
        # it a new island "1" when the wall stays connected. The second solution's island there
        # already holds a number, so it dies; ours stays valid.
        lonely = [(r, c) for r in range(rows) for c in range(cols)
                  if black[r][c] and second[r][c] == "." and all(
                      black[a][b] for a, b in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                      if 0 <= a < rows and 0 <= b < cols)]
        rng.shuffle(lonely)
        for d in lonely:
            if wall_stays_connected(black, d):
                black[d[0]][d[1]] = False
                owner[d] = len(islands)
                islands.append([d])
                where.append(d)
                break
        else:
            if not grow_an_island(black, owner, islands, second, rng):
                move_numbers(owner, second, where, rng)

    return generate(rows, cols, seed + 1000, biggest, rounds)  # stuck: start from another solution


def wall_stays_connected(black: list[list[bool]], cell: tuple[int, int]) -> bool:
    """Would the black cells stay one region without ``cell``?"""
    rows, cols = len(black), len(black[0])
    r, c = cell
    black[r][c] = False
    try:
        cells = [(a, b) for a in range(rows) for b in range(cols) if black[a][b]]
        if not cells:
            return True
        seen, queue = {cells[0]}, deque([cells[0]])
        while queue:
            a, b = queue.popleft()
            for q in ((a - 1, b), (a + 1, b), (a, b - 1), (a, b + 1)):
                if 0 <= q[0] < rows and 0 <= q[1] < cols and black[q[0]][q[1]] and q not in seen:
                    seen.add(q)
                    queue.append(q)
        return len(seen) == len(cells)
    finally:
        black[r][c] = True


def grow_an_island(black, owner, islands, second, rng) -> bool:
    """Half the time, perturb our solution: a cell the second solution paints white and that
    touches exactly one of our islands joins it (when the wall stays connected); moving numbers
    alone can cycle between shapes of one island."""
    if rng.random() < 0.5:
        return False
    rows, cols = len(black), len(black[0])
    candidates = []
    for r in range(rows):
        for c in range(cols):
            if black[r][c] and second[r][c] == ".":
                touching = {owner[q] for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if q in owner}
                if len(touching) == 1:
                    candidates.append(((r, c), touching.pop()))
    rng.shuffle(candidates)
    for d, i in candidates:
        if wall_stays_connected(black, d):
            black[d[0]][d[1]] = False
            owner[d] = i
            islands[i].append(d)
            return True
    return False


def move_numbers(owner, second, where, rng) -> None:
    """Move each island's number to one of its cells that the second solution paints black."""
    choices: dict[int, list[tuple[int, int]]] = {}
    for (r, c), i in owner.items():
        if second[r][c] == "#":
            choices.setdefault(i, []).append((r, c))
    for i, cells in choices.items():
        where[i] = rng.choice(cells)


def write_puzzle(path: Path, puzzle: nk.NurikabePuzzle, seed: int) -> None:
    result = api.solve(puzzle, unique=True)
    lines = [f"# generated by bench/bench_nurikabe.py --generate (from seed {seed}); unique",
             f"puzzle {puzzle.name}", "genre: nurikabe", f"rows: {puzzle.rows}", f"cols: {puzzle.cols}",
             "givens:", nk.render(puzzle), "solution:", *result.solution, "end", ""]
    path.write_text("\n".join(lines))


def make_data() -> None:
    DATA.mkdir(exist_ok=True)
    for label, (rows, cols) in SIZES.items():
        seed = 1
        start = time.perf_counter()
        print(f"generating {label} ...", flush=True)
        puzzle = generate(rows, cols, seed)
        write_puzzle(DATA / f"nurikabe_{label}.txt", puzzle, seed)
        print(f"{label}: {len(puzzle.clues())} clues, {time.perf_counter() - start:.1f} s")


# -- the table ------------------------------------------------------------------------------------
def row(*cells) -> None:
    print(" | ".join(str(c) for c in cells))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--generate", action="store_true")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--n7", action="store_true", help="only n7: solve+unique (fresh, cached) and audit")
    args = parser.parse_args()
    if args.generate:
        make_data()
        return
    essay = api.load([str(SHARED)])
    generated = {label: api.load([str(DATA / f"nurikabe_{label}.txt")])[0] for label in SIZES}

    print("| puzzle | query | mode | ms (median CPU) | SAT calls | CEGAR iterations | cuts |")
    print("|---|---|---|---|---|---|---|")
    for puzzle in essay[-1:] if args.n7 else essay:
        fresh_unique(puzzle)  # warm: modules and caches, not this puzzle's encoding
        ms, (status, stats) = cpu_ms(lambda: fresh_unique(puzzle), args.repeat)
        row(f"| {puzzle.name} {puzzle.rows}x{puzzle.cols}", "solve+unique, fresh", "lazy",
            f"{ms:.1f}", stats.sat_calls, stats.cegar_iterations, f"{stats.cuts} |")
        assert status == "unsat"
    n7 = essay[-1]
    api.solve(n7, unique=True)
    ms, result = cpu_ms(lambda: api.solve(n7, unique=True), args.repeat)
    row("| n7", "solve+unique, api (cached session)", "lazy", f"{ms:.1f}", result.stats.sat_calls,
        result.stats.cegar_iterations, f"{result.stats.cuts} |")
    ms, (redundant, unknown, stats) = cpu_ms(lambda: fresh_audit(n7), 5 if args.n7 else 3)
    row("| n7", f"full audit, fresh ({redundant} of {len(n7.clues())} redundant)", "lazy", f"{ms:.1f}",
        stats.sat_calls, stats.cegar_iterations, f"{stats.cuts} |")
    if args.n7:
        return
    for label, puzzle in [("n6", essay[5]), ("n7", n7), *generated.items()]:
        for mode in ("lazy", "eager"):
            if mode == "eager" and label == "40x40":
                continue
            reps = 1 if (mode == "eager" or label in ("30x30", "40x40")) else 3
            ms, (status, stats) = cpu_ms(lambda: fresh_unique(puzzle, mode), reps)
            row(f"| {label} ({len(puzzle.clues())} clues)", "solve+unique, fresh", mode, f"{ms:.1f}",
                stats.sat_calls, stats.cegar_iterations, f"{stats.cuts} |")
        if label in ("n6", "n7"):
            variant = nk.Variant(eager_from=2)
            ms, (status, stats) = cpu_ms(lambda: fresh_unique(puzzle, "lazy", variant), 3)
            row(f"| {label}", "solve+unique, eager islands variant", "lazy", f"{ms:.1f}",
                stats.sat_calls, stats.cegar_iterations, f"{stats.cuts} |")
            variant = nk.Variant(black_degree=False)
            ms, (status, stats) = cpu_ms(lambda: fresh_unique(puzzle, "lazy", variant), 3)
            row(f"| {label}", "solve+unique, no black-degree clauses", "lazy", f"{ms:.1f}",
                stats.sat_calls, stats.cegar_iterations, f"{stats.cuts} |")
        ours, _ = cpu_ms(lambda: fresh_unique(puzzle), 1 if label in ("30x30", "40x40") else 3)
        naive, (status, iterations) = cpu_ms(lambda: naive_unique(puzzle), 1 if label in ("30x30", "40x40") else 3)
        row(f"| {label}", "naive: fresh solver per query", "lazy", f"{naive:.1f} ({naive / ours:.1f}x ours)",
            "2", iterations, "- |")

    ten = generated["10x10"]
    try:
        import peers  # bench/peers.py

        if not peers.available("nurikabe_grilops"):
            raise ImportError("grilops is not installed")
        clues = [[None if v is None else v for v in r] for r in ten.grid]
        start = time.perf_counter()
        count = peers.nurikabe_grilops_count(clues, limit=2, timeout=600)
        wall = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        fresh_unique(ten)
        ours = (time.perf_counter() - start) * 1000
        row("| 10x10", f"grilops (z3) solve+unique: {count} solution(s) found", "-",
            f"{wall:.0f} wall ({wall / ours:.0f}x ours: {ours:.1f} wall)", "-", "-", "- |")
    except ImportError as exc:
        row("| 10x10", f"grilops not run: {exc}", "-", "-", "-", "-", "- |")


if __name__ == "__main__":
    main()
