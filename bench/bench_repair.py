"""Repair benchmark: the smallest set of clues to add (satgrid.repair) on puzzles made ambiguous
by taking 1 or 5 clues away from unique ones. Prints tables.

    .venv/bin/python bench/bench_repair.py [--count N] [--seed S]

Puzzles: the first N unique puzzles of bench/data/sudoku9_hard.txt (9x9, sgt-solo's hardest
level) and bench/data/slither10_hard.txt (10x10, sgt-loopy's hard level), and N 10x10 Nurikabe
from satgrid's generator (seeds derived from --seed; not timed). From each, 1 or
5 clues chosen at random go (draws that leave the puzzle unique are drawn again). Two modes:
``keep`` repairs for the intended solution (--keep-solution), ``any`` for any of the first 20
solutions (the default). Times are CPU seconds of this process (time.process_time; the machine
is shared, so wall time is noisy), sessions warm after the first puzzle of a size, as a setter's
session would be; "proved" is the share whose repair is proved smallest for its solution, "over
all" (``any``) the share proved smallest over all solutions, which needs every solution
enumerated.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from satgrid import api  # noqa: E402
from satgrid.generators import generate_puzzles  # noqa: E402
from satgrid.repair import repair  # noqa: E402

from bench.common import table  # noqa: E402

DATA = ROOT / "bench" / "data"
FILES = {"sudoku 9x9": "sudoku9_hard.txt", "nurikabe 10x10": None,
         "slitherlink 10x10": "slither10_hard.txt"}


def weakened(puzzles: list, drop: int, count: int, rng: random.Random) -> list[tuple]:
    """(puzzle with ``drop`` clues gone, the intended solution) for the first ``count`` unique
    puzzles from which some draw of ``drop`` clues leaves several solutions."""
    out = []
    for puzzle in puzzles:
        if len(out) == count:
            break
        result = api.solve(puzzle, unique=True)
        if result.status != "unique":
            continue
        clues = puzzle.clues()
        for _ in range(20):
            gone = set(rng.sample(sorted(clues), drop))
            less = puzzle.with_clues({k: v for k, v in clues.items() if k not in gone})
            if api.solve(less, unique=True).status == "multiple":
                out.append((less, result.solution))
                break
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10, help="puzzles per genre and drop")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rows = []
    for label, name in FILES.items():
        if name is None:
            made = generate_puzzles("nurikabe", 10, 10, args.count, args.seed)
            puzzles = [item.puzzle for item in made]
        else:
            puzzles = api.load([str(DATA / name)])
        for drop in (1, 5):
            cases = weakened(puzzles, drop, args.count, random.Random(args.seed))
            for mode in ("keep", "any"):
                times, sizes, proved, over_all = [], [], 0, 0
                for puzzle, solution in cases:
                    start = time.process_time()
                    found = repair(puzzle, keep=solution if mode == "keep" else None)
                    times.append(time.process_time() - start)
                    sizes.append(len(found.added) if found.found else None)
                    proved += found.found and found.proved
                    over_all += bool(found.over_all)
                n = len(cases)
                got = [s for s in sizes if s is not None]
                rows.append([label, str(drop), mode, str(n), f"{statistics.median(times):.3f}",
                             f"{max(times):.3f}", f"{len(got)}/{n}", f"{proved}/{n}",
                             f"{over_all}/{n}" if mode == "any" else "-",
                             f"{statistics.mean(got):.1f}" if got else "-"])
    table("repair: CPU seconds per puzzle (median, max); repaired; proved smallest for its solution; "
          "proved smallest over all solutions; mean clues added",
          ["puzzles", "removed", "mode", "n", "median s", "max s", "repaired", "proved",
           "over all", "added"], rows)


if __name__ == "__main__":
    main()
