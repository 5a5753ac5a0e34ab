"""Nurimisaki: solve and solve + unique CPU times per connectivity lowering, on the puzzlekit
dataset's 30 published puzzles and on big sampled grids. One table per set. With ``--generate``,
generation times instead.

    .venv/bin/python bench/bench_nurimisaki.py [--repeat N] [--sizes 20,30,50] [--seed S] [--eager-cells N]
    .venv/bin/python bench/bench_nurimisaki.py --generate 15x15:1-10,20x20:1-5 [--attempts N]

Puzzles:

* ``<shared>/external/genres/puzzlekit_nurimisaki.txt`` (30 janko.at puzzles with their
  published solutions; ``<shared>`` is ``$SATGRID_SHARED``, else ``shared/`` beside the checkout):
  every run must be unique and equal to the published solution (the ``ok`` column);
* big grids: a random shading of the rules without circles (the first round of the genre's
  ``SAMPLE``: random phases from ``--seed``) with a numbered circle on each cape, at each
  ``--sizes`` side, once with every number ("numbered") and once with every circle a ``?``
  ("?"); such a grid has no published status, so the table prints satgrid's.

Per lowering (lazy, eager, and propagator on cadical195, the solver it needs) the median and max
CPU ms (``time.process_time``) of ``api.solve`` and ``api.solve(unique=True)``, each run on a
fresh session (cached sessions dropped, so each run encodes afresh; one untimed solve first per
grid size builds the geometry tables). A run's time is the median of ``--repeat`` runs. The eager
lowering is left out (``-``) on grids of more than ``--eager-cells`` cells (default 400: a 20x20
grid takes it seconds, encodings/nurimisaki.md).

``--generate SIZE:SEEDS,...``: per size and seed, the CPU seconds of the generic generator (flavour
hard, as ``satgrid generate nurimisaki --size SIZE --seed SEED``), the circles and numbers of its
puzzle (checked unique and clue-minimal by an audit, not timed), or ``failed`` when it gave up; then
per size the seeds made and the median and max CPU seconds of all seeds (a failure counts with the
time it took). ``--attempts`` caps the generator's random samples (default: the generator's own,
50), so that a run against a revision that fails ends in time.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from satgrid import api  # noqa: E402
from satgrid.genres import nurimisaki as nm  # noqa: E402
from satgrid.model import read_shading  # noqa: E402
from satgrid.session import Session  # noqa: E402

from bench.common import drop_sessions, table  # noqa: E402

SHARED = Path(os.environ.get("SATGRID_SHARED", ROOT.parent / "shared"))
PUZZLEKIT = SHARED / "external" / "genres" / "puzzlekit_nurimisaki.txt"
LOWERINGS = (("lazy", "cadical153"), ("eager", "cadical153"), ("propagator", "cadical195"))


def cpu_ms(run: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The median CPU ms of ``repeat`` runs of ``run`` (sessions dropped before each), and the
    last run's result."""
    times, result = [], None
    for _ in range(repeat):
        drop_sessions()
        start = time.process_time()
        result = run()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times), result


def measure(puzzles: list, repeat: int, published: bool, eager_cells: int) -> list[list[str]]:
    rows = []
    for connectivity, solver in LOWERINGS:
        if connectivity == "eager" and max(p.rows * p.cols for p in puzzles) > eager_cells:
            rows.append([connectivity, str(len(puzzles)), "-", "-", "-"])
            continue
        options = api.Options(connectivity=connectivity, solver=solver)
        solve, unique, ok, statuses = [], [], 0, {}
        for p in puzzles:
            api.solve(p, options=options)  # not timed: geometry tables of the size
            solve.append(cpu_ms(lambda: api.solve(p, options=options), repeat)[0])
            ms, result = cpu_ms(lambda: api.solve(p, unique=True, options=options), repeat)
            unique.append(ms)
            statuses[result.status] = statuses.get(result.status, 0) + 1
            ok += result.status == "unique" and (not published or result.given_solution == "matches")
        rows.append([connectivity, str(len(puzzles)),
                     f"{ok}/{len(puzzles)}" if published else ", ".join(f"{n} {s}" for s, n in sorted(statuses.items())),
                     f"{statistics.median(solve):.1f} / {max(solve):.1f}",
                     f"{statistics.median(unique):.1f} / {max(unique):.1f}"])
    return rows


def sampled(side: int, seed: int) -> nm.NurimisakiPuzzle:
    """A random shading of a side x side grid under the rules without circles, a numbered circle
    on each of its capes (``SAMPLE``'s first round, without its fixes towards uniqueness)."""
    rng = random.Random(seed)
    encoding = nm.build(side, side, None)
    session = Session(encoding)
    try:
        session.prefer([lit if rng.random() < 0.5 else -lit for lit in encoding.primary.values()])
        outcome = session.solve([])
        return nm.READ_CLUES(nm.BLANK(side, side), read_shading(encoding, "shaded", outcome.assignment, side, side))
    finally:
        session.close()


def seeds_of(spec: str) -> list[int]:
    """``1-5`` or ``1,3`` (``;``-free) -> the seeds."""
    first, _, last = spec.partition("-")
    return list(range(int(first), int(last or first) + 1))


def generation(spec: str, attempts: int | None) -> None:
    """The ``--generate`` tables (module docstring)."""
    from satgrid.errors import SatgridError
    from satgrid.generators import GENERATORS, generic

    if attempts is not None:
        generic.ATTEMPTS = attempts
    summary = []
    for part in spec.split(","):
        size, _, seeds = part.partition(":")
        rows, cols = (int(x) for x in size.split("x"))
        lines, times = [], []
        for seed in seeds_of(seeds or "1"):
            start = time.process_time()
            try:
                puzzle = GENERATORS["nurimisaki"](rows, cols, random.Random(seed))
            except SatgridError:
                puzzle = None
            times.append(time.process_time() - start)
            if puzzle is None:
                lines.append([size, str(seed), "failed", "-", "-", f"{times[-1]:.2f}"])
                continue
            audit = api.solve(puzzle, audit=True, grade=False)
            ok = "yes" if audit.status == "unique" and audit.minimal else f"NO ({audit.status})"
            lines.append([size, str(seed), ok, str(len(puzzle.circles())), str(len(puzzle.clues())),
                          f"{times[-1]:.2f}"])
        table(f"generate nurimisaki {size}, flavour hard", ["size", "seed", "unique and minimal",
                                                           "circles", "numbers", "CPU s"], lines)
        made = sum(line[2] == "yes" for line in lines)
        summary.append([size, f"{made}/{len(lines)}", f"{statistics.median(times):.2f}", f"{max(times):.2f}"])
    table("generation per size", ["size", "made", "CPU s median", "CPU s max"], summary)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per puzzle, the median counts")
    parser.add_argument("--sizes", default="20,30,50", help="sides of the sampled square grids")
    parser.add_argument("--seed", type=int, default=1, help="the sampler's seed")
    parser.add_argument("--eager-cells", type=int, default=400, help="largest grid the eager lowering runs on")
    parser.add_argument("--generate", default="", help="SIZE:SEEDS,... e.g. 15x15:1-10,20x20:1-5: generation times")
    parser.add_argument("--attempts", type=int, default=None, help="the generator's random samples (--generate)")
    args = parser.parse_args()
    if args.generate:
        print(f"# Nurimisaki generation, CPU s; load {os.getloadavg()[0]:.2f}")
        generation(args.generate, args.attempts)
        print(f"# load after: {os.getloadavg()[0]:.2f}")
        return
    header = ["lowering", "puzzles", "ok", "solve ms (median / max)", "solve+unique ms (median / max)"]
    print(f"# Nurimisaki, CPU ms, median of {args.repeat} run(s) each; load {os.getloadavg()[0]:.2f}")
    if PUZZLEKIT.exists():
        table(f"{PUZZLEKIT.name}", header, measure(api.load([str(PUZZLEKIT)]), args.repeat, True, args.eager_cells))
    else:
        print(f"# {PUZZLEKIT} not found: the published puzzles are skipped")
    for side in (int(s) for s in args.sizes.split(",") if s):
        full = sampled(side, args.seed)
        circles = len(full.numbers())
        table(f"sampled {side}x{side}, seed {args.seed}, {circles} circles, numbered", header,
              measure([full], args.repeat, False, args.eager_cells))
        table(f"sampled {side}x{side}, seed {args.seed}, {circles} circles, all '?'", header,
              measure([full.with_clues({})], args.repeat, False, args.eager_cells))
    print(f"# load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
