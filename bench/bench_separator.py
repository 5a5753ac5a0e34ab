"""The separator search of the connected rule's lazy cuts (``satgrid.connectivity.separator``):
CPU time on random wall-like grids, the same inputs for every tree.

    .venv/bin/python bench/bench_separator.py [--sizes 20x20,40x40] [--grids 200] [--density 0.6]
    .venv/bin/python bench/old_vs_new.py --old REV --new-script bench/bench_separator.py

Each grid gets random true cells (``--density``, seed = the grid's number); every component
but the largest is parted from the largest, as a CEGAR round of the wall rule does. Printed per
size: calls, CPU ms for all of them, mean separator size and side size (equal across trees: the
minimum cut nearest the sources is unique).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from satgrid.connectivity import separator  # noqa: E402
from satgrid.grid import Grid  # noqa: E402
from bench.common import table  # noqa: E402


def instances(rows: int, cols: int, grids: int, density: float) -> list[tuple]:
    """(neighbours, sources, sinks, on) for every component but the largest of each grid."""
    grid = Grid.of(rows, cols)
    out = []
    for seed in range(grids):
        rng = random.Random(seed)
        on = [rng.random() < density for _ in grid.cells]
        parts = sorted(grid.components({p for p, x in zip(grid.cells, on) if x}), key=len, reverse=True)
        largest = [grid.index(p) for p in parts[0]] if parts else []
        for part in parts[1:]:
            out.append((grid.near, [grid.index(p) for p in part], largest, on))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="20x20,40x40")
    parser.add_argument("--grids", type=int, default=200)
    parser.add_argument("--density", type=float, default=0.6)
    args = parser.parse_args()
    rows_out = []
    for size in args.sizes.split(","):
        rows, cols = (int(x) for x in size.lower().split("x"))
        calls = instances(rows, cols, args.grids, args.density)
        start = time.process_time()
        found = [separator(*call) for call in calls]
        ms = (time.process_time() - start) * 1000
        rows_out.append([size, str(len(calls)), f"{ms:.0f}",
                         f"{sum(len(cut) for _, cut in found) / max(len(found), 1):.2f}",
                         f"{sum(len(side) for side, _ in found) / max(len(found), 1):.2f}"])
    table(f"separator, random grids (density {args.density:g}, {args.grids} a size)",
          ["size", "calls", "CPU ms", "mean cut", "mean side"], rows_out)


if __name__ == "__main__":
    main()
