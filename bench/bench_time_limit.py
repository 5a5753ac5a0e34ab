"""What a time limit costs the search: published puzzles solved and proved unique without a
library time limit and with one that is never reached, each run in a process of its own; CPU
seconds and the embedded solver's counters side by side. Prints a table.

    .venv/bin/python bench/bench_time_limit.py [FILE] --only IDS [--connectivity C] [--solver NAME]
                                               [--time-limit S] [--old REV] [--rounds N]

FILE defaults to the janko Nurikabe sample (``$SATGRID_SHARED/external/nurikabe``). Per puzzle
and mode, ``api.solve(unique=True)`` in a fresh process: ``none`` without a time limit (every SAT
call one solver call), ``limit`` with ``--time-limit`` seconds (default 1000, never reached: what
the limit's mechanism alone costs). With ``--old REV`` the tree of REV (``git archive``) runs the
same, puzzle by puzzle alternating with the working tree, so both see the same load; ``--rounds``
repeats every run. Columns: tree, mode, status, CPU s, SAT calls (CEGAR rounds), solver calls
(python-sat ``solve``/``solve_limited`` calls: conflict-budget slices show here), and the
solver's conflicts and propagations (CaDiCaL's counters, summed over the solvers the run closed).
To count the solver calls, every call goes through python-sat's wrapper (``DIRECT_SOLVE`` is
emptied: a few microseconds a call more without a limit).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("SATGRID_SHARED", ROOT.parent / "shared"))
DEFAULT = SHARED / "external" / "nurikabe" / "janko_nurikabe_sample.txt"


def one(tree: str, path: str, name: str, connectivity: str, solver: str | None,
        limit: float | None) -> None:
    """One solve + unique of puzzle ``name`` in this process, with the tree ``tree``: a JSON line."""
    sys.path.insert(0, tree)
    import pysat.solvers
    from satgrid import api
    from satgrid import solver as solvers

    calls = [0]
    for method in ("solve", "solve_limited"):
        original = getattr(pysat.solvers.Solver, method)

        def counted(self, *a, _original=original, **k):
            calls[0] += 1
            return _original(self, *a, **k)
        setattr(pysat.solvers.Solver, method, counted)
    if hasattr(solvers, "DIRECT_SOLVE"):
        solvers.DIRECT_SOLVE.clear()  # (the direct C call would bypass the count; no limit only)
    totals: dict[str, int] = {}
    close = solvers.EmbeddedSolver.close

    def closing(self) -> None:
        for key, value in (self._solver.accum_stats() or {}).items():
            totals[key] = totals.get(key, 0) + value
        close(self)
    solvers.EmbeddedSolver.close = closing  # type: ignore[method-assign]
    puzzle = next(p for p in api.load([path]) if p.name == name)
    options = api.Options(time_limit=limit, connectivity=connectivity,
                          **({} if solver is None else {"solver": solver}))
    cpu = time.process_time()
    result = api.solve(puzzle, unique=True, options=options)
    cpu = time.process_time() - cpu
    while api._SESSIONS:
        _, (_, session) = api._SESSIONS.popitem()
        session.close()
    print(json.dumps({"status": result.status, "cpu_s": cpu, "sat_calls": result.stats.sat_calls,
                      "solver_calls": calls[0], "conflicts": totals.get("conflicts", 0),
                      "propagations": totals.get("propagations", 0)}))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?", default=str(DEFAULT))
    ap.add_argument("--only", required=True, help="comma-separated parts of puzzle ids")
    ap.add_argument("--connectivity", default="lazy")
    ap.add_argument("--solver", default=None, help="default: the tree's default solver")
    ap.add_argument("--time-limit", type=float, default=1000.0)
    ap.add_argument("--old", help="a git revision to run beside the working tree")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--modes", default="none,limit")
    ap.add_argument("--one", nargs=3, help=argparse.SUPPRESS)  # TREE NAME LIMIT
    args = ap.parse_args()
    if args.one:
        tree, name, limit = args.one
        one(tree, args.file, name, args.connectivity, args.solver,
            None if limit == "none" else float(limit))
        return
    sys.path.insert(0, str(ROOT))
    from satgrid import api
    from bench.common import export

    names = [p.name for p in api.load([args.file]) if any(part in p.name for part in args.only.split(","))]
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"new": ROOT}
        if args.old:
            trees = {"old": export(args.old, Path(tmp)), "new": ROOT}
        print(f"# {Path(args.file).name}: solve + unique, one process a run, {args.connectivity}, "
              f"{args.solver or 'default solver'}; limit = --time-limit {args.time_limit:g} s; "
              f"trees: " + ", ".join(f"{k} {args.old if k == 'old' else 'working tree'}" for k in trees))
        print(f"{'puzzle':<22} {'tree':<4} {'mode':<6} {'status':<8} {'cpu s':>7} {'sat':>5} "
              f"{'solver':>6} {'conflicts':>10} {'propagations':>13}")
        modes = args.modes.split(",")
        for name in names:
            for _ in range(args.rounds):
                for mode in modes:
                    for key, tree in trees.items():
                        limit = "none" if mode == "none" else str(args.time_limit)
                        command = [sys.executable, str(Path(__file__).resolve()), args.file,
                                   "--only", name, "--connectivity", args.connectivity,
                                   *(() if args.solver is None else ("--solver", args.solver)),
                                   "--one", str(tree), name, limit]
                        done = subprocess.run(command, capture_output=True, text=True, cwd=tree)
                        if done.returncode != 0 or not done.stdout.strip():
                            print(f"{name:<22} {key:<4} {mode:<6} failed: {done.stderr.strip()[-200:]}")
                            continue
                        r = json.loads(done.stdout.strip().splitlines()[-1])
                        print(f"{name:<22} {key:<4} {mode:<6} {r['status']:<8} {r['cpu_s']:>7.2f} "
                              f"{r['sat_calls']:>5} {r['solver_calls']:>6} {r['conflicts']:>10} "
                              f"{r['propagations']:>13}", flush=True)


if __name__ == "__main__":
    main()
