"""Slitherlink benchmark: satgrid (lazy anchored cuts, lazy pair cuts, eager) and the peers
multi-puzzle-solver and puzzlekit on the same puzzles, in the same run.

Usage:  .venv/bin/python bench/bench_slitherlink.py [--sets 10,30,60] [--no-peers]
            [--solver NAME] [--also S1,S2] [--no-variants] [--eager-limit S] [--peer-timeout S]
        .venv/bin/python bench/bench_slitherlink.py --minimise   (cut forms under many queries)

Puzzles: bench/data/slither10_hard.txt (30 Loopy 10x10 hard), slither30.txt (5 x 30x30 hard),
slither60.txt (3 x 60x60 hard), all made by Debian's sgt-loopy (see bench/data/make_data.py).

satgrid rows (every solution passes the independent checker; times in ms, medians over the set):
  lazy/anchored shared  the library default: one solver per grid size for the whole set (what
                        `satgrid solve FILE` does), clue-anchored subtour cuts; cuts and clue
                        clauses stay in the solver from puzzle to puzzle
  lazy/anchored fresh   a new solver per puzzle (build = base CNF + loading, shown apart)
  lazy/pair fresh       the core's clue-independent pair cut t_S & t_R -> edge leaving S only
  eager fresh           the complete parent-pointer + rank encoding, no CEGAR
"solve" = first solution (decode and check included), "unique" = the query for a second one.
Peers run in a forked child (imports done beforehand); "solve+unique" for multi-puzzle-solver is
its enumeration up to 2 solutions, puzzlekit only solves. Ratios = peer / satgrid median.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from satgrid import api  # noqa: E402
from satgrid.genres import slitherlink as sl  # noqa: E402
from satgrid.queries import PuzzleQueries  # noqa: E402
from satgrid.session import Session  # noqa: E402
from satgrid.solver import DEFAULT_SOLVER  # noqa: E402

SETS = {"10": "slither10_hard.txt", "30": "slither30.txt", "60": "slither60.txt"}


@dataclass
class Row:
    """Per-puzzle figures of one method on one set."""

    solve: list[float] = field(default_factory=list)
    unique: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    build: list[float] = field(default_factory=list)
    calls: list[int] = field(default_factory=list)
    iterations: list[int] = field(default_factory=list)
    cuts: list[int] = field(default_factory=list)
    failed: int = 0

    def total(self) -> list[float]:
        return [a + b for a, b in zip(self.solve, self.unique)]


def med(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def run_one(session: Session, puzzle, row: Row, limit: float | None = None) -> tuple | None:
    """Solve and check uniqueness of ``puzzle`` on ``session``; record the figures in ``row``."""
    session.set_time_limit(limit)
    queries = PuzzleQueries(session, puzzle.clues())
    before = session.stats.copy()
    cpu0, t0 = time.process_time(), time.perf_counter()
    first = queries.solve()
    if first.status != "sat":
        row.failed += 1
        queries.retire()
        return None
    solution = sl.decode(puzzle, session.encoding, first.assignment)
    assert sl.check(puzzle, solution) == [], "checker rejected a satgrid solution"
    t1 = time.perf_counter()
    second = queries.other_solution(queries.project(first.assignment))
    t2, cpu1 = time.perf_counter(), time.process_time()
    queries.retire()
    session.set_time_limit(None)
    if second.status != "unsat":
        row.failed += 1
        return solution
    stats = session.stats.since(before)
    row.solve.append(1000 * (t1 - t0))
    row.unique.append(1000 * (t2 - t1))
    row.cpu.append(1000 * (cpu1 - cpu0))
    row.calls.append(stats.sat_calls)
    row.iterations.append(stats.cegar_iterations)
    row.cuts.append(stats.cuts)
    return solution


def new_session(puzzle, connectivity: str, anchored: bool, row: Row, solver: str) -> Session:
    t0 = time.perf_counter()
    encoding = sl.build(puzzle.rows, puzzle.cols, anchored)
    session = Session(encoding, solver, connectivity=connectivity)
    row.build.append(1000 * (time.perf_counter() - t0))
    return session


def bench_satgrid(puzzles, solver: str, others: list[str], eager_limit: float,
                  variants: bool) -> tuple[dict[str, Row], list]:
    rows: dict[str, Row] = {}
    solutions: list = []
    for name in [solver, *others]:
        row = rows[f"lazy/anchored shared {name}"] = Row()
        session = new_session(puzzles[0], "lazy", True, row, name)
        found = [run_one(session, p, row) for p in puzzles]
        solutions = solutions or found
        session.close()
    methods = [("lazy/anchored fresh", "lazy", True)]
    if variants:
        methods.append(("lazy/pair fresh", "lazy", False))
    methods.append(("eager fresh", "eager", True))
    for name, connectivity, anchored in methods:
        row = rows[f"{name} {solver}"] = Row()
        for puzzle in puzzles:
            session = new_session(puzzle, connectivity, anchored, row, solver)
            run_one(session, puzzle, row, eager_limit if connectivity == "eager" else None)
            session.close()
    return rows, solutions


def bench_peers(puzzles, solutions, timeout: float) -> dict[str, Row]:
    import peers

    rows: dict[str, Row] = {}
    jobs = []
    if peers.available("slitherlink_multi_puzzle_solver"):
        import puzzle_solver.puzzles.slitherlink.slitherlink  # noqa: F401  (imported before forking)
        jobs += [("multi-puzzle-solver solve", peers.slitherlink_multi_puzzle_solver, "solve"),
                 ("multi-puzzle-solver count<=2", peers.slitherlink_multi_puzzle_solver_count, "count")]
    else:
        print("multi-puzzle-solver is not installed: skipped")
    if peers.available("slitherlink_puzzlekit"):
        import puzzlekit  # noqa: F401
        jobs.append(("puzzlekit solve", peers.slitherlink_puzzlekit, "solve"))
    else:
        print("puzzlekit is not installed: skipped")
    for name, fn, kind in jobs:
        row = rows[name] = Row()
        for puzzle, ours in zip(puzzles, solutions):
            clues = [list(r) for r in puzzle.givens]
            kwargs = {"time_limit": timeout} if fn is peers.slitherlink_puzzlekit else {}
            status, result, seconds = peers.call_with_timeout(fn, clues, timeout=timeout + 5, **kwargs)
            if status != "ok" or result is None:
                row.failed += 1
                continue
            if kind == "solve":
                same = ours is not None and (tuple(map(tuple, result[0])), tuple(map(tuple, result[1]))) == ours
                if not same:
                    row.failed += 1
                    continue
                row.solve.append(1000 * seconds)
                row.unique.append(0.0)
            else:
                if result != 1:
                    row.failed += 1
                    continue
                row.solve.append(0.0)
                row.unique.append(1000 * seconds)
    return rows


def bench_minimise(solver: str, seeds: int) -> None:
    """Cut forms under many incremental queries: clue every cell of a known loop, then find a
    greedy minimal clue set in a random order (one uniqueness query per clue), anchored against
    pair cuts, on the same orders."""
    import random

    shared = HERE.parent.parent / "shared" / "data" / "slitherlink" / "tatham.txt"
    puzzles: dict[int, object] = {}
    for p in api.load([str(shared)]):
        if p.rows in (15, 20, 25):
            puzzles.setdefault(p.rows, p)
    print(f"{'grid':<8}{'seed':>5}  {'cuts':<10}{'clues':>12}{'cpu s':>8}{'calls':>7}{'iters':>7}{'cuts':>7}")
    for size, puzzle in sorted(puzzles.items()):
        session = Session(sl.build(size, size), solver)
        queries = PuzzleQueries(session, puzzle.clues())
        h, v = sl.decode(puzzle, session.encoding, queries.solve().assignment)
        session.close()
        full = {(r, c): h[r][c] + h[r + 1][c] + v[r][c] + v[r][c + 1]
                for r in range(size) for c in range(size)}
        for seed in range(1, seeds + 1):
            order = list(full)
            random.Random(seed).shuffle(order)
            for anchored in (True, False):
                session = Session(sl.build(size, size, anchored), solver)
                queries = PuzzleQueries(session, full)
                cpu = time.process_time()
                first = queries.solve()
                kept = queries.minimal_clue_set(queries.project(first.assignment), order)
                cpu = time.process_time() - cpu
                st = session.stats
                print(f"{size}x{size:<5}{seed:>5}  {'anchored' if anchored else 'pair':<10}{len(full):>6} ->"
                      f"{len(kept):>4}{cpu:>8.2f}{st.sat_calls:>7}{st.cegar_iterations:>7}{st.cuts:>7}",
                      flush=True)
                session.close()


def fmt(x: float) -> str:
    if x != x:
        return "-"
    return f"{x:.1f}" if x < 1000 else f"{x:.0f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="10,30,60")
    ap.add_argument("--no-peers", action="store_true")
    ap.add_argument("--solver", default=DEFAULT_SOLVER, help="embedded solver for every satgrid row")
    ap.add_argument("--also", default="glucose4,minisat22",
                    help="more solvers for the shared lazy/anchored row (comma list, '' for none)")
    ap.add_argument("--no-variants", action="store_true", help="skip the pair-cut row")
    ap.add_argument("--eager-limit", type=float, default=20.0, help="seconds per eager puzzle")
    ap.add_argument("--peer-timeout", type=float, default=120.0, help="seconds per peer call")
    ap.add_argument("--minimise", action="store_true", help="only the cut-form minimisation runs")
    ap.add_argument("--seeds", type=int, default=3, help="clue orders per grid for --minimise")
    args = ap.parse_args()
    if args.minimise:
        bench_minimise(args.solver, args.seeds)
        return
    header = (f"{'set':<14}{'method':<38}{'n':>3}{'build':>8}{'solve':>9}{'unique':>9}{'total':>9}"
              f"{'max':>9}{'cpu':>9}{'calls':>7}{'iters':>7}{'cuts':>7}{'fail':>6}")
    print(header)
    print("-" * len(header))
    ratios = []
    for key in args.sets.split(","):
        path = HERE / "data" / SETS[key]
        puzzles = api.load([str(path)])
        label = f"{puzzles[0].rows}x{puzzles[0].cols} ({len(puzzles)})"
        others = [x for x in args.also.split(",") if x]
        rows, solutions = bench_satgrid(puzzles, args.solver, others, args.eager_limit, not args.no_variants)
        if not args.no_peers:
            rows.update(bench_peers(puzzles, solutions, args.peer_timeout))
        for name, row in rows.items():
            total = row.total()
            print(f"{label:<14}{name:<38}{len(total):>3}{fmt(med(row.build)):>8}{fmt(med(row.solve)):>9}"
                  f"{fmt(med(row.unique)):>9}{fmt(med(total)):>9}{fmt(max(total, default=float('nan'))):>9}"
                  f"{fmt(med(row.cpu)):>9}{fmt(med(row.calls)):>7}{fmt(med(row.iterations)):>7}"
                  f"{fmt(med(row.cuts)):>7}{row.failed:>6}")
        ours = rows[f"lazy/anchored shared {args.solver}"]
        fresh = rows[f"lazy/anchored fresh {args.solver}"]
        for name, row in rows.items():
            if name.startswith(("multi", "puzzle")) and (row.total() or row.failed):
                # multi-puzzle-solver's count is solve + uniqueness; compare like with like
                if "count" in name:
                    base, base_fresh = med(ours.total()), med(fresh.total()) + med(fresh.build)
                else:
                    base, base_fresh = med(ours.solve), med(fresh.solve) + med(fresh.build)
                # a peer that failed (timed out) everywhere: its limit is a lower bound
                peer, bound = (med(row.total()), "") if row.total() else (1000 * args.peer_timeout, ">")
                ratios.append((label, name, peer, bound, base, base_fresh, row.failed))
    if ratios:
        print()
        print(f"{'set':<14}{'peer':<38}{'peer ms':>9}{'/ shared':>10}{'/ fresh+build':>15}{'fail':>6}")
        for label, name, peer, bound, base, base_fresh, failed in ratios:
            print(f"{label:<14}{name:<38}{bound + fmt(peer):>9}{bound + f'{peer / base:.1f}':>9}x"
                  f"{bound + f'{peer / base_fresh:.1f}':>14}x{failed:>6}")


if __name__ == "__main__":
    main()
