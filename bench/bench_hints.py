"""The first hint (``satgrid.grading.hint``, from the empty grid) of the biggest published puzzles
of every collection satgrid reads: the level, the reason's size and the CPU time. Prints a table.

    .venv/bin/python bench/bench_hints.py [--most 2] [--only nurikabe,fillomino] [--time-limit 60]

Collections: ``$SATGRID_SHARED/external/`` (janko.at's Nurikabes and Slitherlinks, and every
``genres/puzzlekit_<genre>.txt`` satgrid reads) and ``bench/data/`` (the generated big grids);
``--most`` biggest puzzles of each (by cells). Each hint runs in a process of its own (so one
puzzle's sessions never serve the next) under ``--time-limit`` wall seconds; CPU seconds are the
child's. Old against new in one run:

    .venv/bin/python bench/old_vs_new.py --old REV --new-script bench/bench_hints.py
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import table  # noqa: E402
from satgrid import api  # noqa: E402
from satgrid.errors import SatgridError  # noqa: E402

SHARED = Path(os.environ.get("SATGRID_SHARED", ROOT.parent / "shared"))
EXTERNAL = SHARED / "external"

CHILD = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from satgrid import api, grading
[puzzle] = [p for p in api.load([sys.argv[2]]) if p.name == sys.argv[3]]
answer = grading.hint(puzzle, time_limit=float(sys.argv[4]))
print(json.dumps({"status": answer.status, "level": answer.level,
                  "size": len(answer.clues) + len(answer.rules) + len(answer.decided)}))
"""


def collections(only: list[str]) -> list[Path]:
    files = sorted((EXTERNAL / "genres").glob("puzzlekit_*.txt"))
    files += [EXTERNAL / "nurikabe" / "janko_nurikabe_sample.txt",
              EXTERNAL / "slitherlink" / "janko_slitherlink_sample.txt"]
    files += sorted((ROOT / "bench" / "data").glob("*.txt"))
    return [f for f in files if f.exists() and (not only or any(o in f.name for o in only))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--most", type=int, default=2, help="biggest puzzles of each collection")
    ap.add_argument("--only", default="", help="collections whose file names contain one of these (comma-separated)")
    ap.add_argument("--time-limit", type=float, default=60.0)
    a = ap.parse_args()
    rows = []
    for path in collections([o for o in a.only.split(",") if o]):
        try:
            puzzles = api.load([str(path)])
        except SatgridError:  # a genre satgrid does not read
            continue
        puzzles.sort(key=lambda p: -p.rows * p.cols)
        for puzzle in puzzles[:a.most]:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            try:
                done = subprocess.run([sys.executable, "-c", CHILD, str(ROOT), str(path), puzzle.name,
                                       str(a.time_limit)], capture_output=True, text=True,
                                      timeout=a.time_limit + 120)
                answer = json.loads(done.stdout) if done.returncode == 0 else \
                    {"status": "error: " + done.stderr.strip().splitlines()[-1][:60]}
            except subprocess.TimeoutExpired:
                answer = {"status": "killed"}
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            rows.append([path.stem, puzzle.name, f"{puzzle.rows}x{puzzle.cols}", answer["status"],
                         str(answer.get("level", "")), str(answer.get("size", "")), f"{cpu:.2f}"])
    table(f"first hint of the biggest published puzzles (time limit {a.time_limit:g} s)",
          ["collection", "puzzle", "size", "status", "level", "reason size", "cpu s"], rows)


if __name__ == "__main__":
    main()
