"""Slitherlink at real scale: solve + uniqueness of every janko.at puzzle of the shared sample.

Usage:  .venv/bin/python bench/bench_slitherlink_janko.py [--solvers cadical153,minisat22]
            [--symmetries] [--slowest 5] [--time-limit S] [FILE ...]

Puzzles: ``shared/external/slitherlink/janko_slitherlink_sample.txt`` (146 janko.at puzzles,
4x4 to 30x45, up to 5 per grid size; SATGRID_SHARED points at ``shared/`` when it does not stand
beside the checkout), or the files given. They are read with ``satgrid.api.load`` and never
copied. ``--symmetries`` also runs each puzzle under the 7 other symmetries of the square
(rotated, mirrored, transposed): the same puzzle with its variables numbered in another order,
so a solver meets it on another search path.

Each puzzle is solved as ``satgrid solve --unique FILE`` solves one puzzle:
``api.solve(unique=True)`` on a fresh session (api's session cache emptied first, so every
puzzle pays for its encoding; garbage collected before the clock starts, and what lives on moved
out of the collector's way with ``gc.freeze``, so no full collection of earlier puzzles' objects
lands in a timing). Wall and CPU (``time.process_time``) milliseconds; the machine is shared, so
CPU is the steadier figure. Per solver: medians and maxima by grid
size (cells), then the slowest puzzles with their SAT calls and cuts. Statuses other than
"unique" are counted (the sample is all unique).
"""
from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from common import drop_sessions, table  # noqa: E402
from satgrid import api  # noqa: E402
from satgrid.solver import DEFAULT_SOLVER  # noqa: E402

SHARED = Path(os.environ.get("SATGRID_SHARED", ROOT.parent / "shared"))
SAMPLE = SHARED / "external" / "slitherlink" / "janko_slitherlink_sample.txt"
#: Size classes by cells: (label, most cells).
SIZES = [("<=100", 100), ("101-400", 400), ("401-900", 900), (">900", 10**9)]


@dataclass
class Run:
    name: str
    rows: int
    cols: int
    wall_ms: float
    cpu_ms: float
    status: str
    calls: int
    cuts: int


def symmetries(givens: tuple) -> list[tuple]:
    """The 8 images of a grid under the symmetries of the square, the grid itself first."""
    out, grid = [], givens
    for _ in range(4):
        out += [grid, tuple(zip(*grid))]
        grid = tuple(zip(*grid[::-1]))  # a quarter turn clockwise
    return out


def puzzles(paths: list[str], all_symmetries: bool) -> list:
    found = api.load(paths)
    if not all_symmetries:
        return found
    return [type(p)(g, f"{p.name}/{k}", p.source) for p in found
            for k, g in enumerate(symmetries(p.givens))]


def run(puzzle, options: api.Options) -> Run:
    drop_sessions()
    gc.collect()  # cheap: what lived before is frozen (below)
    gc.freeze()
    cpu, wall = time.process_time(), time.perf_counter()
    result = api.solve(puzzle, unique=True, options=options)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return Run(puzzle.name, puzzle.rows, puzzle.cols, wall * 1000, cpu * 1000, result.status,
               result.stats.sat_calls, result.stats.cuts)


def report(solver: str, runs: list[Run], slowest: int) -> None:
    rows = []
    for label, most in SIZES:
        least = max([m for _, m in SIZES if m < most], default=0)
        some = [r for r in runs if least < r.rows * r.cols <= most]
        if some:
            rows.append(summary(label, some))
    rows.append(summary("all", runs))
    others = sum(r.status != "unique" for r in runs)
    header = ["cells", "puzzles", "median wall", "median cpu", "max wall", "max cpu", "max calls"]
    table(f"{solver}: solve+unique, ms (not unique: {others})", header, rows)
    worst = sorted(runs, key=lambda r: r.cpu_ms, reverse=True)[:slowest]
    table(f"{solver}: slowest by CPU", ["puzzle", "size", "wall ms", "cpu ms", "SAT calls", "cuts"],
          [[r.name, f"{r.rows}x{r.cols}", f"{r.wall_ms:.0f}", f"{r.cpu_ms:.0f}", str(r.calls),
            str(r.cuts)] for r in worst])


def summary(label: str, runs: list[Run]) -> list[str]:
    wall, cpu = [r.wall_ms for r in runs], [r.cpu_ms for r in runs]
    return [label, str(len(runs)), f"{statistics.median(wall):.1f}", f"{statistics.median(cpu):.1f}",
            f"{max(wall):.0f}", f"{max(cpu):.0f}", str(max(r.calls for r in runs))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help=f"puzzle files (default: {SAMPLE})")
    parser.add_argument("--solvers", default=DEFAULT_SOLVER, help="comma-separated solver names")
    parser.add_argument("--symmetries", action="store_true", help="also the 7 other symmetries")
    parser.add_argument("--slowest", type=int, default=5, help="slowest puzzles listed")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds a puzzle")
    options = parser.parse_args()
    found = puzzles(options.files or [str(SAMPLE)], options.symmetries)
    print(f"# {len(found)} Slitherlinks{' (8 symmetries each)' if options.symmetries else ''}, "
          "solve+unique, a fresh session each")
    for solver in options.solvers.split(","):
        runs = [run(p, api.Options(solver=solver, time_limit=options.time_limit)) for p in found]
        report(solver, runs, options.slowest)


if __name__ == "__main__":
    main()
