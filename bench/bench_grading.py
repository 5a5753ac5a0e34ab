"""Grades (the propagation ladder, ``satgrid.grading.assess``) of published puzzles: the level,
the primary variables fixed by propagation and by probing, the probes and the CPU time. Prints a
table.

    .venv/bin/python bench/bench_grading.py [FILE] [--ids 1050,0094,...] [--time-limit S]

FILE defaults to ``../shared/external/nurikabe/janko_nurikabe_sample.txt`` (SATGRID_SHARED
points elsewhere); ``--ids`` picks puzzles by parts of their names (default: the sample's big
ones the ladder settles, and one it does not). Each grade runs on a fresh process state (no
grading session kept from the puzzle before). Old against new in one run:

    .venv/bin/python bench/old_vs_new.py --old REV --new-script bench/bench_grading.py
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from satgrid import api, grading  # noqa: E402

SHARED = Path(os.environ.get("SATGRID_SHARED", ROOT.parent / "shared"))
DEFAULT = SHARED / "external" / "nurikabe" / "janko_nurikabe_sample.txt"
IDS = "1050,0094,0460,0570,1046,0688"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", default=str(DEFAULT))
    ap.add_argument("--ids", default=IDS)
    ap.add_argument("--time-limit", type=float, default=120.0)
    args = ap.parse_args()
    wanted = args.ids.split(",")
    puzzles = [p for p in api.load([args.file]) if any(w in p.name for w in wanted)]
    print(f"# {Path(args.file).name}: {len(puzzles)} puzzles, grading.assess, "
          f"--time-limit {args.time_limit:g} s, CPU s")
    print(f"{'puzzle':24} {'size':>6} {'level':>5} {'primary':>8} {'propagation':>11} "
          f"{'probing':>8} {'probes':>7} {'cpu s':>7}")
    for p in puzzles:
        grading._GRADERS.clear()  # no session of an earlier puzzle
        start = time.process_time()
        g = grading.assess(p, time_limit=args.time_limit)
        cpu = time.process_time() - start
        level = "limit" if g.level is None else str(g.level)
        print(f"{p.name:24} {p.rows:>3}x{p.cols:<3}{level:>5} {g.primary:>8} "
              f"{g.fixed_by_propagation:>11} {g.fixed_by_probing:>8} {g.probes:>7} {cpu:>7.2f}",
              flush=True)


if __name__ == "__main__":
    main()
