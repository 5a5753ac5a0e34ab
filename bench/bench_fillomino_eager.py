"""The eager lowering of Fillomino's sized regions (``--connectivity eager``, what ``satgrid
encode --dimacs`` exports) on the puzzlekit Fillominos: per puzzle, the eager CNF's size, and
solve + unique through the eager and the lazy lowering in CPU seconds (``time.process_time``,
sessions dropped before each solve), with a time limit. Prints a table; nothing is asserted.

    SATGRID_SHARED=../shared .venv/bin/python bench/bench_fillomino_eager.py [--cells 100] [--limit 20]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import drop_sessions, table  # noqa: E402
from satgrid import api, dimacs  # noqa: E402

SHARED = Path(os.environ.get("SATGRID_SHARED", ROOT.parent / "shared"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cells", type=int, default=100, help="the largest grid (cells)")
    ap.add_argument("--limit", type=float, default=20.0, help="seconds per solve")
    args = ap.parse_args()
    puzzles = [p for p in api.load([str(SHARED / "external" / "genres" / "puzzlekit_fillomino.txt")])
               if p.rows * p.cols <= args.cells]
    rows, eager_cpu = [], []
    for p in puzzles:
        cnf = next(line for line in dimacs.build(p, "eager", "plain").text.splitlines() if line.startswith("p cnf"))
        row = [p.name, cnf.split()[2], cnf.split()[3]]
        for lowering in ("eager", "lazy"):
            drop_sessions()
            started = time.process_time()
            result = api.solve(p, unique=True, options=api.Options(connectivity=lowering, time_limit=args.limit))
            cpu = time.process_time() - started
            row += [result.status, f"{cpu:.2f}"]
            if lowering == "eager":
                eager_cpu.append(cpu)
        rows.append(row)
    table(f"puzzlekit Fillominos up to {args.cells} cells, solve + unique, limit {args.limit:g} s",
          ["puzzle", "eager vars", "eager clauses", "eager", "eager cpu s", "lazy", "lazy cpu s"], rows)
    print(f"eager cpu s: median {statistics.median(eager_cpu):.2f}, max {max(eager_cpu):.2f}, "
          f"sum {sum(eager_cpu):.2f}; settled {sum(r[3] == 'unique' for r in rows)} of {len(rows)}")


if __name__ == "__main__":
    main()
