"""The separator search of the connected rule's lazy cuts (``satgrid.connectivity.separator``):
CPU time on random wall-like grids, the same inputs for every tree.

    .venv/bin/python bench/bench_separator.py [--sizes 20x20,40x40] [--grids 200] [--density 0.6]
    .venv/bin/python bench/old_vs_new.py --old REV --new-script bench/bench_separator.py

Each grid gets random true cells (``--density``, seed = the grid's number); every component
but the largest is parted from the largest, as a CEGAR round of the wall rule does. Printed per
size: calls, CPU ms for all of them, mean separator size and side size (equal across trees: the
minimum cut nearest the sources is unique). A second table (trees that have
``connectivity.FlowGraph``) times the same calls on one contracted flow graph a grid, as the
cuts of a round share one (its building counted; the components are given, as the round's
component search finds them).
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


def rounds(rows: int, cols: int, grids: int, density: float) -> list[tuple]:
    """(neighbours, on, components largest first) of each grid."""
    grid = Grid.of(rows, cols)
    out = []
    for seed in range(grids):
        rng = random.Random(seed)
        on = [rng.random() < density for _ in grid.cells]
        parts = sorted(grid.components({p for p, x in zip(grid.cells, on) if x}), key=len, reverse=True)
        out.append((grid.near, on, [[grid.index(p) for p in part] for part in parts]))
    return out


def instances(rows: int, cols: int, grids: int, density: float) -> list[tuple]:
    """(neighbours, sources, sinks, on) for every component but the largest of each grid."""
    return [(near, part, parts[0], on) for near, on, parts in rounds(rows, cols, grids, density)
            for part in parts[1:]]


def per_round(sizes: list[str], grids: int, density: float) -> None:
    """The second table: one ``FlowGraph`` a grid, when the tree has it."""
    try:
        from satgrid.connectivity import FlowGraph
    except ImportError:
        return
    rows_out = []
    for size in sizes:
        rows, cols = (int(x) for x in size.lower().split("x"))
        made = rounds(rows, cols, grids, density)
        start = time.process_time()
        found = [graph.separator(part, parts[0]) for near, on, parts in made
                 for graph in [FlowGraph(near, on, parts)] for part in parts[1:]]
        ms = (time.process_time() - start) * 1000
        rows_out.append([size, str(len(found)), f"{ms:.0f}"])
    table(f"one contracted flow graph a grid (density {density:g}, {grids} a size)",
          ["size", "calls", "CPU ms"], rows_out)


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
    per_round(args.sizes.split(","), args.grids, args.density)


if __name__ == "__main__":
    main()
