"""Which part of a big Nurikabe makes its first SAT call hard: the puzzle solved with the
published solution's colours fixed everywhere but a chosen region. Prints a table.

    .venv/bin/python bench/bench_fixed_regions.py [--file FILE] [--name ID] [--islands N]
                                                  [--connectivity C] [--solver NAME]
                                                  [--time-limit S] [--levels-limit N] [SET ...]

``--file`` defaults to the janko sample (``SATGRID_SHARED``), ``--name`` to ``janko-nurikabe-1055``.
The islands of the published solution with at least ``--islands`` cells (default 50) are
numbered 0, 1, ... in reading order of their first cell (the table's head lists them). Each SET
names the free cells, every other cell is fixed to its published colour by unit clauses added
before the first SAT call (on a fresh session, as ``api.solve`` builds it):

* ``all``: nothing fixed (the puzzle itself);
* ``big``: the big islands and the cells next to them;
* ``rest``: everything but the big islands and the cells next to them;
* ``0,2,3``: the listed big islands and the cells next to them.

The head lists each big island's seed (1-based, as puzzle books name cells), reach and level cost (``islands.level_cost``; whether it
gets levels under the limit). Printed per SET: the free cells, the status of ``api.solve`` (no uniqueness), the first call's
CPU seconds and CaDiCaL's conflicts (python-sat's ``accum_stats``; "-" where the solver gives
none). The default SETs: ``big rest`` and each big island alone. ``--levels-limit N`` sets
``islands.LEVELS_LIMIT`` for the run (islands whose levels would need more variables get none):
with 20,000 the three widest 50-islands of 1055 lose theirs.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from satgrid import api, islands as island_rule, session as sessions  # noqa: E402
from satgrid.grid import Grid  # noqa: E402
from satgrid.puzzle import cell_name  # noqa: E402

SHARED = Path(os.environ.get("SATGRID_SHARED", ROOT.parent / "shared"))
DEFAULT = SHARED / "external" / "nurikabe" / "janko_nurikabe_sample.txt"


def islands(solution: tuple[str, ...]) -> list[list[tuple[int, int]]]:
    """The white regions of ``solution`` (rows of '#' and '.'), in reading order."""
    rows, cols = len(solution), len(solution[0])
    seen: set[tuple[int, int]] = set()
    out = []
    for r in range(rows):
        for c in range(cols):
            if solution[r][c] != "." or (r, c) in seen:
                continue
            seen.add((r, c))
            stack, cells = [(r, c)], [(r, c)]
            while stack:
                a, b = stack.pop()
                for p in ((a + 1, b), (a - 1, b), (a, b + 1), (a, b - 1)):
                    if 0 <= p[0] < rows and 0 <= p[1] < cols and solution[p[0]][p[1]] == "." \
                            and p not in seen:
                        seen.add(p)
                        stack.append(p)
                        cells.append(p)
            out.append(cells)
    return out


def ring(cells, rows: int, cols: int) -> set[tuple[int, int]]:
    """``cells`` and the cells next to them."""
    out = set(cells)
    out |= {(a + dr, b + dc) for a, b in cells for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if 0 <= a + dr < rows and 0 <= b + dc < cols}
    return out


def free_cells(name: str, big: list[list[tuple[int, int]]], rows: int, cols: int) -> set[tuple[int, int]]:
    everything = {(r, c) for r in range(rows) for c in range(cols)}
    around = set().union(*(ring(b, rows, cols) for b in big)) if big else set()
    if name == "all":
        return everything
    if name == "big":
        return around
    if name == "rest":
        return everything - around
    return set().union(*(ring(big[int(k)], rows, cols) for k in name.split(",")))


def run(puzzle, solution, free, options) -> tuple[str, float | None, int | None]:
    """``api.solve`` with the cells outside ``free`` fixed before the first SAT call."""
    first: dict = {}
    solve = sessions.Session.solve

    def fixed_solve(self, assumptions=(), *args, **kwargs):
        if not first:
            black = self.encoding.layers["black"]
            self.solver.add([[lit if solution[p[0]][p[1]] == "#" else -lit]
                             for p, lit in black.items() if p not in free])
            started = time.process_time()
            out = solve(self, assumptions, *args, **kwargs)
            first["cpu"] = time.process_time() - started
            stats = getattr(getattr(self.solver, "_solver", None), "accum_stats", lambda: None)()
            first["conflicts"] = stats.get("conflicts") if stats else None
            return out
        return solve(self, assumptions, *args, **kwargs)

    sessions.Session.solve = fixed_solve  # type: ignore[method-assign]
    try:
        for _, session in api._SESSIONS.values():  # a fresh session for each run
            session.close()
        api._SESSIONS.clear()
        result = api.solve(puzzle, options=options)
    finally:
        sessions.Session.solve = solve  # type: ignore[method-assign]
    return result.status, first.get("cpu"), first.get("conflicts")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--file", default=str(DEFAULT))
    ap.add_argument("sets", nargs="*")
    ap.add_argument("--name", default="janko-nurikabe-1055")
    ap.add_argument("--islands", type=int, default=50)
    ap.add_argument("--connectivity", default="propagator")
    ap.add_argument("--solver", default=None)
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--levels-limit", type=int, default=None,
                    help="islands.LEVELS_LIMIT for this run (default: the library's)")
    args = ap.parse_args()
    if args.levels_limit is not None:
        island_rule.LEVELS_LIMIT = args.levels_limit
    solver = args.solver or ("cadical195" if args.connectivity == "propagator" else "cadical153")
    puzzle = next(p for p in api.load([args.file]) if p.name == args.name)
    solution = puzzle.given_solution.solution
    rows, cols = len(solution), len(solution[0])
    big = [cells for cells in islands(solution) if len(cells) >= args.islands]
    print(f"{args.name}: {len(big)} islands of {args.islands}+ cells, {args.connectivity}, {solver}, "
          f"time limit {args.time_limit:g} s, levels limit {island_rule.LEVELS_LIMIT:,}")
    numbers = {p: v for p, v in puzzle.clues().items() if v is not None}
    grid = Grid.of(rows, cols)
    for k, cells in enumerate(big):
        seed = next((p for p in cells if p in numbers), None)
        levels = ""
        if seed is not None and isinstance(numbers[seed], int):
            dist = island_rule.reach(grid, numbers, seed, numbers[seed])
            levels = (f", seed {cell_name(*seed)}, reach {len(dist)} cells, level cost "
                      f"{island_rule.level_cost(dist, numbers[seed]):,} "
                      f"({'levels' if island_rule.has_levels(dist, numbers[seed]) else 'no levels'})")
        print(f"  island {k}: {len(cells)} cells, rows {min(r for r, _ in cells)}-{max(r for r, _ in cells)}, "
              f"columns {min(c for _, c in cells)}-{max(c for _, c in cells)}{levels}")
    options = api.Options(solver=solver, connectivity=args.connectivity, time_limit=args.time_limit)
    print(f"{'set':>12} {'free':>6} {'status':>8} {'cpu s':>7} {'conflicts':>10}")
    for name in args.sets or ["big", "rest", *map(str, range(len(big)))]:
        free = free_cells(name, big, rows, cols)
        status, cpu, conflicts = run(puzzle, solution, free, options)
        print(f"{name:>12} {len(free):>6} {status:>8} {'-' if cpu is None else f'{cpu:.1f}':>7} "
              f"{'-' if conflicts is None else conflicts:>10}", flush=True)


if __name__ == "__main__":
    main()
