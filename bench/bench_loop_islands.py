"""Slitherlink and Nurikabe generators and the grading ladder: time per puzzle, clue share, grades,
and sgt-loopy in the same run.

    .venv/bin/python bench/bench_loop_islands.py [--count N] [--seed S]

Wall-clock and CPU time (this process; sgt-loopy: its user+sys time from the kernel) per puzzle,
generation only (no audit). The machine is a shared 2-core VM: read CPU figures when it is busy.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from satgrid import api, grading  # noqa: E402
from satgrid.genres.nurikabe import generator as nk  # noqa: E402
from satgrid.genres.slitherlink import generator as sl  # noqa: E402
from bench.common import table  # noqa: E402

LOOPY = "/usr/games/sgt-loopy"


def timed(make, count: int, seed: int):
    wall, cpu, out = [], [], []
    for i in range(count):
        w, c = time.perf_counter(), time.process_time()
        out.append(make(random.Random(seed + i)))
        wall.append(time.perf_counter() - w)
        cpu.append(time.process_time() - c)
    return wall, cpu, out


def ms(values: list[float]) -> str:
    return f"{1000 * statistics.median(values):.1f} / {1000 * statistics.mean(values):.1f}"


def loopy(size: int, letter: str, count: int) -> tuple[float, float, float] | None:
    """sgt-loopy: wall and CPU seconds per puzzle, mean clue share."""
    if not Path(LOOPY).exists():
        return None
    before = os.times()
    start = time.perf_counter()
    done = subprocess.run([LOOPY, "--generate", str(count), f"{size}x{size}t0d{letter}#bench"],
                          capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    shares = [len(api.load_text(line)[0].clues()) / size ** 2 for line in done.stdout.split()]
    return wall / count, cpu / count, statistics.mean(shares)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2008)
    args = parser.parse_args()
    n, seed = args.count, args.seed

    rows = []
    for size in (5, 7, 10):
        for flavour in ("hard", "normal"):
            wall, cpu, made = timed(lambda rng: sl.make(size, size, rng, flavour=flavour), n, seed)
            share = statistics.mean(len(m.puzzle.clues()) / size ** 2 for m in made)
            grades = [grading.grade(m.puzzle) for m in made]
            rows.append([f"{size}x{size}", f"satgrid {flavour}", str(n), ms(wall), ms(cpu),
                         f"{100 * share:.1f}%", "/".join(str(grades.count(g)) for g in (0, 1, 2))])
        for letter in ("n", "h"):
            found = loopy(size, letter, n)
            if found is not None:
                wall_s, cpu_s, share = found
                rows.append([f"{size}x{size}", f"sgt-loopy d{letter}", str(n), f"{1000 * wall_s:.1f} (mean)",
                             f"{1000 * cpu_s:.1f} (mean)", f"{100 * share:.1f}%", "-"])
    table("Slitherlink: generation per puzzle", ["size", "generator", "n", "wall ms median / mean",
                                                 "CPU ms median / mean", "clues", "grades 0/1/2"], rows)

    rows = []
    for size, islands in ((5, (1, 4)), (7, (1, 6)), (10, (1, 6))):
        for flavour in ("hard", "normal"):
            count = max(3, n // 4) if size == 10 else n
            wall, cpu, made = timed(lambda rng: nk.make(size, size, rng, flavour=flavour, islands=islands),
                                    count, seed)
            numbers = statistics.mean(len(m.puzzle.numbers()) for m in made)
            sized = statistics.mean(len(m.puzzle.clues()) for m in made)
            moves = statistics.mean(m.moves for m in made)
            grades = [grading.grade(m.puzzle) for m in made]
            rows.append([f"{size}x{size}", f"{islands[0]}-{islands[1]}", flavour, str(count), ms(wall), ms(cpu),
                         f"{numbers:.1f}", f"{sized:.1f}", f"{moves:.0f}",
                         "/".join(str(grades.count(g)) for g in (0, 1, 2))])
    table("Nurikabe: generation per puzzle", ["size", "islands", "flavour", "n", "wall ms median / mean",
                                              "CPU ms median / mean", "numbers", "sized", "moves",
                                              "grades 0/1/2"], rows)


if __name__ == "__main__":
    main()
