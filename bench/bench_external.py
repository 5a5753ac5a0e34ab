"""External SAT binaries against the embedded default, per genre on one mid-size puzzle. Prints tables.

    .venv/bin/python bench/bench_external.py [--time-limit S] [--repeat N]

Table 1, per genre: DIMACS export time (``dimacs.build``, median of N) and file size, eager vs lazy.
Table 2, per genre and solver (embedded default first, then each external binary found on PATH),
lazy and eager connectivity: wall time of ``api.solve(unique=True)`` on a fresh session (encode +
solve + uniqueness proof + checker), SAT calls (= binary runs for external solvers), CEGAR
iterations, and the time spent inside the binaries. Sessions are dropped between runs so every
row pays for its own encoding.

Puzzles (shared data, all unique): Sudoku solo-3x3du-1 (9x9, sgt-solo's hardest level) and
solo-4x4db-1 (16x16), Slitherlink loopy-15x15t0dh-1, Nurikabe n6 (10x18, Nikoli sample 6).
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from satgrid import api, dimacs  # noqa: E402
from satgrid.external import PROFILES  # noqa: E402
from satgrid.registry import GENRES  # noqa: E402
from satgrid.solver import DEFAULT_SOLVER  # noqa: E402
from bench.common import drop_sessions  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"
PUZZLES = [
    ("sudoku", "sudoku/tatham.txt", "solo-3x3du-1"),
    ("sudoku", "sudoku/tatham.txt", "solo-4x4db-1"),
    ("slitherlink", "slitherlink/tatham.txt", "loopy-15x15t0dh-1"),
    ("nurikabe", "nurikabe/jwiki.txt", "n6"),
]


def load_puzzles() -> list:
    found = []
    for genre, file, name in PUZZLES:
        if genre not in GENRES:
            print(f"# {genre}: not registered, skipped")
            continue
        path = SHARED / file
        if not path.exists():
            print(f"# {path} not found, skipped")
            continue
        found += [p for p in api.load([str(path)]) if p.name == name]
    return found


def export_table(puzzles: list, repeat: int) -> None:
    print(f"{'puzzle':<22} {'genre':<11} {'size':>6} {'mode':<6} {'export ms':>10} {'KiB':>8} "
          f"{'vars':>7} {'clauses':>8}")
    for p in puzzles:
        for mode in ("eager", "lazy"):
            times = []
            for _ in range(repeat):
                start = time.perf_counter()
                export = dimacs.build(p, mode)
                times.append(time.perf_counter() - start)
            v = export.varmap
            print(f"{p.name:<22} {p.genre:<11} {f'{p.rows}x{p.cols}':>6} {mode:<6} "
                  f"{statistics.median(times) * 1000:>10.1f} {len(export.text.encode()) / 1024:>8.1f} "
                  f"{v['variables']:>7} {v['clauses']:>8}")


def solve_table(puzzles: list, time_limit: float) -> None:
    solvers = [DEFAULT_SOLVER] + [f"external:{s}" for s in PROFILES if shutil.which(s)]
    missing = [s for s in PROFILES if not shutil.which(s)]
    if missing:
        print(f"# not installed, skipped: {', '.join(missing)}")
    print(f"{'puzzle':<22} {'solver':<24} {'conn':<6} {'status':<8} {'wall ms':>9} {'x embedded':>10} "
          f"{'calls':>6} {'cegar':>6} {'in binary ms':>12}")
    for p in puzzles:
        for mode in ("lazy", "eager"):
            base = None
            for name in solvers:
                drop_sessions()
                options = api.Options(solver=name, connectivity=mode, time_limit=time_limit)
                start = time.perf_counter()
                result = api.solve(p, unique=True, options=options)
                wall = time.perf_counter() - start
                session, _ = api.session_for(p, options)
                binary = getattr(session.solver, "run_time_s", None)
                base = wall if base is None else base
                s = result.stats
                print(f"{p.name:<22} {name:<24} {mode:<6} {result.status:<8} {wall * 1000:>9.1f} "
                      f"{wall / base:>10.1f} {s.sat_calls:>6} {s.cegar_iterations:>6} "
                      f"{'-' if binary is None else f'{binary * 1000:.1f}':>12}")
    drop_sessions()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=120.0, help="seconds per solve")
    parser.add_argument("--repeat", type=int, default=3, help="exports per timing")
    args = parser.parse_args()
    puzzles = load_puzzles()
    print("## DIMACS export (median of", args.repeat, "runs)")
    export_table(puzzles, args.repeat)
    print()
    print("## solve + uniqueness, fresh session per row (x embedded: wall time / embedded default's)")
    solve_table(puzzles, args.time_limit)


if __name__ == "__main__":
    main()
