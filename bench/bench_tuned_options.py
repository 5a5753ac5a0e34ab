"""Whether :data:`satgrid.solver.TUNED_OPTIONS`' CaDiCaL options (inprocessing off) help a solver
that has none set (cadical300): solve+unique of the same puzzles with and without them, each on a
fresh session, in CPU seconds (``time.process_time``: the machine is shared). Prints a table.

    nice python bench/bench_tuned_options.py [--solver cadical300] [--options '{"inprocessing": 0}'] [--rounds 3]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import drop_sessions, table  # noqa: E402
from satgrid import api, solver  # noqa: E402

#: (label, file under bench/data, how many of its puzzles, lowering)
SETS = [
    ("60x60 loop, lazy", "slither60.txt", 2, "lazy"),
    ("30x30 loop, lazy", "slither30.txt", 3, "lazy"),
    ("10x10 hard loop, eager", "slither10_hard.txt", 3, "eager"),
    ("30x30 islands, lazy", "nurikabe_30x30.txt", 2, "lazy"),
    ("30x30 islands, propagator", "nurikabe_30x30.txt", 2, "propagator"),
    ("16x16 digits", "sudoku16.txt", 5, "lazy"),
]


def cpu_per_puzzle(puzzles: list, name: str, lowering: str) -> float:
    times = []
    for puzzle in puzzles:
        drop_sessions()
        start = time.process_time()
        result = api.solve(puzzle, unique=True, options=api.Options(solver=name, connectivity=lowering))
        times.append(time.process_time() - start)
        assert result.status == "unique", (puzzle.name, result.status)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--solver", default="cadical300")
    ap.add_argument("--options", default='{"inprocessing": 0}')
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    tuned = json.loads(args.options)
    rows = []
    for label, file, count, lowering in SETS:
        puzzles = api.load([str(ROOT / "bench" / "data" / file)])[:count]
        runs: dict[str, list[float]] = {"without": [], "with": []}
        for _ in range(args.rounds):  # interleaved, so that load on the machine hits both alike
            for which in runs:
                solver.TUNED_OPTIONS.pop(args.solver, None)
                if which == "with":
                    solver.TUNED_OPTIONS[args.solver] = tuned
                runs[which].append(cpu_per_puzzle(puzzles, args.solver, lowering))
        solver.TUNED_OPTIONS.pop(args.solver, None)
        without, with_ = min(runs["without"]), min(runs["with"])
        rows.append([label, count, f"{without * 1000:.0f}", f"{with_ * 1000:.0f}", f"{with_ / without:.2f}"])
    table(f"{args.solver}: solve+unique, median CPU ms a puzzle (best of {args.rounds} rounds), "
          f"without and with {tuned}", ["set", "puzzles", "without", "with", "with/without"], rows)


if __name__ == "__main__":
    main()
