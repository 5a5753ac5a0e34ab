"""Published puzzles with known solutions, solved and proved unique one by one; old against new
in one run. Prints tables.

    .venv/bin/python bench/bench_samples.py [FILE] [--old REV] [--time-limit S] [--only IDS]
                                            [--audit N] [--connectivity lazy|eager|propagator]
                                            [--solver NAME] [--old-solver NAME]
                                            [--old-connectivity C] [--clock wall|cpu]
                                            [--cpu-limit S] [--solver-options JSON]
                                            [--old-solver-options JSON]

FILE defaults to ``../shared/external/nurikabe/janko_nurikabe_sample.txt`` (194 janko.at
Nurikabes, 3x3 to 50x50; SATGRID_SHARED points elsewhere). Each puzzle runs ``api.solve(unique=
True)`` with ``--time-limit`` seconds (wall, encoding included) on a fresh session, in a worker
process per tree: with ``--old REV`` a second worker runs the tree of REV (``git archive``) and the
two alternate puzzle by puzzle, so both see the same machine load. Printed: one row per puzzle
(status, wall ms, SAT calls, cuts; old beside new), then per size band the count settled, the
median and the worst; the slowest puzzles; and with ``--audit N`` a full audit (every clue's
necessity, no grade) of the N largest puzzles, new tree only. ``--old-solver`` and
``--old-connectivity`` run the old tree with other options (default: the new tree's);
``--clock cpu`` prints and ranks CPU ms instead of wall ms (the machine is shared).
``--cpu-limit S`` replaces the wall limit by a CPU limit for puzzles under heavy load: each
puzzle runs in a process of its own per tree, with no time limit in the library (so no
conflict-budget slices: the solver's search is one call, as without ``--time-limit``) and
``RLIMIT_CPU`` = S; a process the limit kills is reported as ``cpu-limit``.
``--solver-options '{"inprocessing": 1}'`` replaces the options the worker's tree sets on a new
embedded solver (its ``satgrid.solver.TUNED_OPTIONS`` entry for the solver; ``'{}'``: CaDiCaL's
defaults); ``--old-solver-options`` does so for the old tree (default: its own).

A status other than unique, or a solution other than the published one (``given_solution``), is
printed in the row: the table is also a correctness check against the published solutions.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("SATGRID_SHARED", ROOT.parent / "shared"))
DEFAULT = SHARED / "external" / "nurikabe" / "janko_nurikabe_sample.txt"
BANDS = ((0, 100), (101, 400), (401, 10**9))


def measured(api, puzzle, query: str, options) -> dict:
    """One query of ``puzzle`` (``unique``: solve + unique; ``audit``), timed, as a JSON record."""
    import time

    start, cpu = time.perf_counter(), time.process_time()
    if query == "audit":
        result = api.solve(puzzle, audit=True, grade=False, options=options)
    else:
        result = api.solve(puzzle, unique=True, options=options)
    return {"status": result.status, "wall_ms": (time.perf_counter() - start) * 1000,
            "cpu_ms": (time.process_time() - cpu) * 1000, "calls": result.stats.sat_calls,
            "cuts": result.stats.cuts, "given": result.given_solution,
            "redundant": None if result.redundant_clues is None else len(result.redundant_clues)}


def tune(solver: str | None, tuned: str | None) -> None:
    """Replace the options the tree on ``sys.path`` sets on a new ``solver`` (its default solver
    if None) by the JSON object ``tuned`` (None: leave them)."""
    if tuned is None:
        return
    from satgrid import solver as solvers

    name = solvers._canonical_name(solver or solvers.DEFAULT_SOLVER)
    solvers.TUNED_OPTIONS[name] = json.loads(tuned)


def worker(tree: str, path: str, connectivity: str, solver: str | None, tuned: str | None = None) -> None:
    """Answer one JSON line per request line ``name<TAB>query<TAB>limit`` on stdin."""
    sys.path.insert(0, tree)
    from satgrid import api

    tune(solver, tuned)

    puzzles = {p.name: p for p in api.load([path])}
    for line in sys.stdin:
        name, query, limit = line.rstrip("\n").split("\t")
        options = api.Options(time_limit=float(limit), connectivity=connectivity,
                              **({} if solver is None else {"solver": solver}))
        for _, session in api._SESSIONS.values():  # a fresh session: each run pays its encoding
            session.close()
        api._SESSIONS.clear()
        print(json.dumps(measured(api, puzzles[name], query, options)), flush=True)


def one(tree: str, path: str, name: str, connectivity: str, solver: str | None, cpu: float,
        tuned: str | None = None) -> None:
    """Solve + unique of one puzzle, no library time limit, killed by the kernel at ``cpu`` s."""
    import resource

    resource.setrlimit(resource.RLIMIT_CPU, (int(cpu), int(cpu) + 1))
    sys.path.insert(0, tree)
    from satgrid import api

    tune(solver, tuned)
    puzzle = next(p for p in api.load([path]) if p.name == name)
    options = api.Options(connectivity=connectivity, **({} if solver is None else {"solver": solver}))
    print(json.dumps(measured(api, puzzle, "unique", options)), flush=True)


def passed(setup: tuple) -> list[str]:
    """The command-line options that give a worker the solver and its options of ``setup``."""
    _, solver, tuned = setup
    return [*(() if solver is None else ("--solver", solver)),
            *(() if tuned is None else ("--solver-options", tuned))]


def ask_one(tree: Path, path: Path, name: str, setup: tuple, cpu: float) -> dict:
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), str(path), "--one", name, "--worker", str(tree),
         "--connectivity", setup[0], "--cpu-limit", str(cpu), *passed(setup)],
        capture_output=True, text=True, cwd=tree)
    if proc.returncode == 0 and proc.stdout.strip():
        return json.loads(proc.stdout.strip().splitlines()[-1])
    return {"status": "cpu-limit", "wall_ms": 0.0, "cpu_ms": cpu * 1000, "calls": 0, "cuts": 0, "given": None}


class Worker:
    def __init__(self, tree: Path, path: Path, setup: tuple):
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), str(path), "--worker", str(tree),
             "--connectivity", setup[0], *passed(setup)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=tree)

    def ask(self, name: str, query: str, limit: float) -> dict:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(f"{name}\t{query}\t{limit}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"worker for {name} died")
        return json.loads(line)

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait()


CLOCK = "wall_ms"  # or "cpu_ms" (--clock cpu)


def cell(r: dict) -> str:
    flag = "" if r["given"] in (None, "matches", "unchecked") else f" given {r['given']}"
    return f"{r['status']:<8} {r[CLOCK]:9.1f} {r['calls']:6} {r['cuts']:6}{flag}"


def bands(rows: list[tuple], label: str, key: int) -> None:
    print(f"\n{label}: per size band (cells), settled = unique as published")
    print(f"{'cells':<10} {'puzzles':>7} {'settled':>7} {'median ms':>10} {'worst ms':>10}  worst")
    for lo, hi in BANDS:
        inside = [r for r in rows if lo <= r[1] <= hi]
        if not inside:
            continue
        done = [r for r in inside if r[key]["status"] == "unique"]
        worst = max(inside, key=lambda r: r[key][CLOCK])
        print(f"{f'{lo}-{hi}' if hi < 10**9 else f'{lo}+':<10} {len(inside):>7} {len(done):>7} "
              f"{statistics.median(r[key][CLOCK] for r in inside):>10.1f} "
              f"{worst[key][CLOCK]:>10.1f}  {worst[0]}")
    every = [r[key][CLOCK] for r in rows]
    print(f"{'all':<10} {len(rows):>7} {sum(r[key]['status'] == 'unique' for r in rows):>7} "
          f"{statistics.median(every):>10.1f} {max(every):>10.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", nargs="?", default=str(DEFAULT))
    ap.add_argument("--old", help="a git revision to run beside the working tree")
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--only", help="comma-separated parts of puzzle ids")
    ap.add_argument("--audit", type=int, default=0, help="full audit of the N largest puzzles")
    ap.add_argument("--connectivity", default="lazy")
    ap.add_argument("--solver", default=None, help="default: the tree's default solver")
    ap.add_argument("--old-connectivity", default=None, help="default: --connectivity")
    ap.add_argument("--old-solver", default=None, help="default: --solver")
    ap.add_argument("--solver-options", default=None,
                    help="JSON: the options set on a new embedded solver (default: the tree's)")
    ap.add_argument("--old-solver-options", default=None, help="JSON, for the old tree")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    ap.add_argument("--cpu-limit", type=float, default=None,
                    help="a CPU limit (s) per puzzle instead of the wall limit, a process each")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--one", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        one(args.worker, args.file, args.one, args.connectivity, args.solver, args.cpu_limit,
            args.solver_options)
        return
    if args.worker:
        worker(args.worker, args.file, args.connectivity, args.solver, args.solver_options)
        return
    global CLOCK
    CLOCK = f"{args.clock}_ms"
    path = Path(args.file)
    if not path.exists():
        raise SystemExit(f"{path} not found (set SATGRID_SHARED)")
    sys.path.insert(0, str(ROOT))
    from satgrid import api
    from bench.common import export

    puzzles = api.load([str(path)])
    if args.only:
        parts = args.only.split(",")
        puzzles = [p for p in puzzles if any(part in p.name for part in parts)]
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"new": ROOT}
        if args.old:
            trees = {"old": export(args.old, Path(tmp)), "new": ROOT}
        setups = {"new": (args.connectivity, args.solver, args.solver_options),
                  "old": (args.old_connectivity or args.connectivity, args.old_solver or args.solver,
                          args.old_solver_options)}
        workers = {} if args.cpu_limit else {k: Worker(tree, path, setups[k]) for k, tree in trees.items()}
        limit = f"--cpu-limit {args.cpu_limit:g} s" if args.cpu_limit else f"--time-limit {args.time_limit:g} s wall"
        print(f"# {path.name}: {len(puzzles)} puzzles, solve + unique, fresh session each, "
              f"{limit}; {args.clock} ms on a shared 2-core machine; "
              f"trees: " + ", ".join(f"{k} {args.old if k == 'old' else 'working tree'} "
                                     f"({setups[k][0]}, {setups[k][1] or 'default solver'}"
                                     f"{'' if setups[k][2] is None else ', options ' + setups[k][2]})"
                                     for k in trees))
        head = "  ".join(f"{k + ' status':<8} {args.clock + ' ms':>9} {'calls':>6} {'cuts':>6}" for k in trees)
        print(f"{'puzzle':<24} {'size':>6} {'cells':>5}  {head}")
        rows = []
        for p in puzzles:
            if args.cpu_limit:
                got = {k: ask_one(tree, path, p.name, setups[k], args.cpu_limit) for k, tree in trees.items()}
            else:
                got = {k: w.ask(p.name, "unique", args.time_limit) for k, w in workers.items()}
            rows.append((p.name, p.rows * p.cols, got))
            print(f"{p.name:<24} {f'{p.rows}x{p.cols}':>6} {p.rows * p.cols:>5}  "
                  + "  ".join(cell(got[k]) for k in trees), flush=True)
        for k in trees:
            bands([(n, c, got[k]) for n, c, got in rows], k, 2)
            slow = sorted(rows, key=lambda r: -r[2][k][CLOCK])[:10]
            print(f"{k}: slowest: " + ", ".join(f"{n} {g[k][CLOCK] / 1000:.2f} s ({g[k]['status']})"
                                                 for n, _, g in slow))
        if args.audit and workers:
            largest = sorted(puzzles, key=lambda p: -p.rows * p.cols)[:args.audit]
            print(f"\nfull audit (every clue's necessity, no grade), the {len(largest)} largest, new tree, "
                  f"--time-limit {args.time_limit:g} s")
            print(f"{'puzzle':<24} {'size':>6} {'clues':>5} {'status':<8} {args.clock + ' ms':>9} {'calls':>6} redundant")
            for p in largest:
                r = workers["new"].ask(p.name, "audit", args.time_limit)
                print(f"{p.name:<24} {f'{p.rows}x{p.cols}':>6} {len(p.clues()):>5} {r['status']:<8} "
                      f"{r[CLOCK]:>9.1f} {r['calls']:>6} {r['redundant']}", flush=True)
        for w in workers.values():
            w.close()


if __name__ == "__main__":
    main()
