"""Nurikabe generation: CPU time a puzzle by size (median, max and mean over seeds), SAT calls,
numbers and ``?`` sizes per puzzle.

    .venv/bin/python bench/bench_nurikabe_generate.py [--sizes 10x10,20x20] [--seeds 10]
        [--seed 2009] [--flavour hard|normal] [--unknown-sizes] [--islands 1-6]

Each puzzle is ``satgrid.genres.nurikabe.generator.make`` on its own seed (``--seed`` + size +
i), timed by ``time.process_time`` (the CPU time of this process: the machine is shared); then,
untimed, ``api.solve(..., unique=True)`` confirms it is unique. A request the generator cannot
serve counts as failed (its time counts too). The table also says whether the generator numbers
every island by default: ``bench/old_vs_new.py --new-script`` runs this script against an older
generator, whose ``make`` has no ``unknown_sizes`` (it always relaxed sizes to ``?``).
"""
from __future__ import annotations

import argparse
import inspect
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from satgrid import api  # noqa: E402
from satgrid.errors import SatgridError  # noqa: E402
from satgrid.genres.nurikabe import generator  # noqa: E402
from bench.common import table  # noqa: E402


def size(text: str) -> tuple[int, int]:
    rows, cols = text.lower().split("x")
    return int(rows), int(cols)


def run(rows: int, cols: int, seeds: list[int], flavour: str, islands: tuple[int, int],
        unknown_sizes: bool) -> list[str]:
    kwargs = {"unknown_sizes": True} if unknown_sizes else {}
    times, calls, numbers, unknown, failed = [], [], [], [], 0
    for seed in seeds:
        start = time.process_time()
        try:
            made = generator.make(rows, cols, random.Random(seed), flavour=flavour, islands=islands, **kwargs)
        except SatgridError:
            times.append(time.process_time() - start)
            failed += 1
            continue
        times.append(time.process_time() - start)
        calls.append(made.checks)
        given = made.puzzle.numbers()
        numbers.append(len(given))
        unknown.append(sum(v == "?" for v in given.values()))
        assert api.solve(made.puzzle, unique=True).status == "unique"
    ms = [t * 1000 for t in times]

    def mid(values: list[int]) -> str:
        return f"{statistics.median(values):g}" if values else "-"

    return [f"{rows}x{cols}", str(len(seeds)), str(failed), f"{statistics.median(ms):.0f}",
            f"{max(ms):.0f}", f"{statistics.mean(ms):.0f}", mid(calls), mid(numbers), mid(unknown)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10x10,20x20")
    parser.add_argument("--seeds", type=int, default=10, help="puzzles per size")
    parser.add_argument("--seed", type=int, default=2009)
    parser.add_argument("--flavour", choices=["hard", "normal"], default="hard")
    parser.add_argument("--islands", default="1-6", help="island sizes LO-HI")
    parser.add_argument("--unknown-sizes", action="store_true",
                        help="sizes relaxed to '?' (the generator's unknown_sizes)")
    args = parser.parse_args()
    lo, hi = (int(x) for x in args.islands.split("-"))
    has_option = "unknown_sizes" in inspect.signature(generator.make).parameters
    if args.unknown_sizes and not has_option:
        parser.error("this generator has no unknown_sizes (it always relaxes sizes to '?')")
    form = ("every island numbered" if has_option and not args.unknown_sizes
            else "sizes relaxed to ? while unique")
    rows = []
    for text in args.sizes.split(","):
        r, c = size(text)
        seeds = [args.seed + r * 1000 + c + i for i in range(args.seeds)]
        rows.append(run(r, c, seeds, args.flavour, (lo, hi), args.unknown_sizes))
    table(f"Nurikabe generation, {args.flavour}, islands {lo}-{hi}, {form} (CPU ms a puzzle)",
          ["size", "puzzles", "failed", "ms median", "ms max", "ms mean", "SAT calls median",
           "numbers median", "? median"], rows)


if __name__ == "__main__":
    main()
