"""Per-puzzle CPU of a batch worker's audit on Royle's 17-clue Sudokus, in one process: the
worker's own path (:func:`satgrid.batch.tasks.run_chunk`, chunks of 150), so that two trees can
be compared with ``bench/old_vs_new.py --new-script``.

    .venv/bin/python bench/bench_witnesses.py [--puzzles 5000] [--skip N]

Prints CPU ms a puzzle (``time.process_time``), SAT calls a puzzle, and how many rows came out
unique and minimal; with a tree that has the genre's ``WITNESSES`` part, also the share of
givens it shows needed without SAT and its own CPU per puzzle.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import table  # noqa: E402
from satgrid import api, batch  # noqa: E402
from satgrid.batch.tasks import Task, run_chunk  # noqa: E402
from satgrid.registry import GENRES  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--puzzles", type=int, default=5000)
    ap.add_argument("--skip", type=int, default=0, help="start after the first N puzzles")
    args = ap.parse_args()
    shared = Path(os.environ.get("SATGRID_SHARED", ROOT.parent / "shared"))
    royle = shared / "external" / "sudoku" / "royle_17clue.txt"
    lines = [t for t in royle.read_text().splitlines() if t and not t.startswith("#")]
    lines = lines[args.skip:args.skip + args.puzzles]
    verb = batch.Verb("audit", genre="sudoku", solver="cadical153")
    tasks = [Task(str(i), "royle", text, i) for i, text in enumerate(lines)]
    rows = []
    start = time.process_time()
    for i in range(0, len(tasks), 150):
        rows += run_chunk(verb, tasks[i:i + 150])
    used = time.process_time() - start
    good = sum(r["status"] == "unique" and r["minimal"] is True for r in rows)
    calls = sum(r["sat_calls"] for r in rows)
    out = [["audit (worker path)", str(len(rows)), f"{used / len(rows) * 1000:.3f}",
            f"{calls / len(rows):.2f}", str(good)]]
    table(f"Audit of {len(rows)} 17-clue Sudokus in one process",
          ["run", "puzzles", "CPU ms/puzzle", "SAT calls/puzzle", "unique+minimal"], out)
    part = GENRES["sudoku"].module.__dict__.get("WITNESSES")
    if part is not None:
        puzzles = [(api.load_text(t, "royle", "sudoku")[0], json.loads(r["solution"])) for t, r in zip(lines, rows)]
        start = time.process_time()
        found = [part(p, s) for p, s in puzzles]
        spent = time.process_time() - start
        needed = sum(len({k for part in sets if len(part) == 1 for k in part}) for sets in found)
        givens = sum(len(p.clues()) for p, _ in puzzles)
        print(f"\nwitnesses: {needed} of {givens} givens shown needed without SAT "
              f"({needed / givens * 100:.1f}%), {spent / len(puzzles) * 1000:.3f} CPU ms a puzzle")


if __name__ == "__main__":
    main()
