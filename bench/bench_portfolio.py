"""The portfolio race on one puzzle (``solve --jobs N``, satgrid.portfolio) against each of its
configurations alone. Prints tables.

    .venv/bin/python bench/bench_portfolio.py [--only IDS] [--cpu-limit S] [--jobs 2,3]
                                              [--genres N] [--overhead]

(a) Per puzzle: each configuration the race takes (:func:`satgrid.portfolio.configurations` of
    the default options, as many as the largest ``--jobs``) alone, solve + unique in a fresh
    process under ``RLIMIT_CPU`` = S (CPU ms of each, and wall ms of the first, the default:
    what ``--jobs 1`` costs; ``cpu-limit`` when the kernel stopped it), then the race with each ``--jobs`` count in a fresh process (wall ms, the winner's
    number, and the CPU ms of all its workers together). The puzzles: the big janko.at
    Nurikabes of ``../shared/external/nurikabe/janko_nurikabe_sample.txt`` (``--only`` ids) and
    the ``--genres`` largest puzzles of each ``../shared/external/genres/puzzlekit_*.txt`` file
    that satgrid reads (``--rival-niceness``: the rivals' niceness in the races). The load average is printed per row: the machine is shared, so wall
    figures are noisy; CPU figures less so.
(b) ``--overhead``: what a race costs where it cannot pay: per size band of the janko sample,
    the median wall ms of a plain solve + unique and of a race of two (``RACE_CELLS`` at 0), each
    in a fresh process (session building included in both).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from common import table  # noqa: E402

SHARED = Path(os.environ.get("SATGRID_SHARED", ROOT.parent / "shared"))
JANKO = SHARED / "external" / "nurikabe" / "janko_nurikabe_sample.txt"
BIG = "0460,0094,0680,1030,0690,1050,1055,1108,0683,0689,0570,1046,0688"


def one(path: str, name: str, mode: str, cpu: float, niceness: int | None = None) -> None:
    """In a fresh process: ``mode`` ``config:I`` (configuration I alone) or ``race:N`` (a race of
    N; ``race0:N`` with RACE_CELLS at 0) or ``plain`` on puzzle ``name``; one JSON line."""
    resource.setrlimit(resource.RLIMIT_CPU, (int(cpu), int(cpu) + 1))
    from satgrid import api, portfolio

    if niceness is not None:
        portfolio.RIVAL_NICENESS = niceness
    puzzle = next(p for p in api.load([path]) if p.name == name)
    kind, _, arg = mode.partition(":")
    start, cpu0 = time.perf_counter(), time.process_time()
    if kind == "config":
        options = portfolio.configurations(api.Options(), int(arg) + 1)[int(arg)]
        result = api.solve(puzzle, unique=True, options=options)
    elif kind in ("race", "race0"):
        if kind == "race0":
            portfolio.RACE_CELLS = 0
        result = api.solve(puzzle, unique=True, jobs=int(arg))
    else:
        result = api.solve(puzzle, unique=True)
    wall = (time.perf_counter() - start) * 1000
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(json.dumps({
        "status": result.status, "given": result.given_solution, "wall_ms": wall,
        "cpu_ms": (time.process_time() - cpu0 + children.ru_utime + children.ru_stime) * 1000,
        "won": None if result.race is None or result.race.winner is None else result.race.winner + 1}))


def ask(path: Path, name: str, mode: str, cpu: float, niceness: int | None = None) -> dict:
    nice = [] if niceness is None else ["--rival-niceness", str(niceness)]
    try:
        proc = subprocess.run([sys.executable, __file__, "--one", name, "--file", str(path),
                               "--mode", mode, "--cpu-limit", str(cpu), *nice],
                              capture_output=True, text=True, timeout=cpu * 6 + 30)
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "wall_ms": None, "cpu_ms": None, "won": None, "given": None}
    lines = proc.stdout.strip().splitlines()
    if proc.returncode == 0 and lines:
        return json.loads(lines[-1])
    return {"status": "cpu-limit", "wall_ms": None, "cpu_ms": cpu * 1000, "won": None, "given": None}


def ms(record: dict, key: str) -> str:
    value = record[key]
    if record["status"] != "unique" or value is None:
        return record["status"]
    flag = "" if record["given"] in (None, "matches") else f" given {record['given']}"
    return f"{value:,.0f}{flag}"


def largest(path: Path, count: int) -> list[tuple[Path, str, int]]:
    from satgrid import api

    try:
        puzzles = api.load([str(path)])
    except Exception:  # noqa: BLE001 - a genre satgrid does not read
        return []
    puzzles.sort(key=lambda p: -p.rows * p.cols)
    return [(path, p.name, p.rows * p.cols) for p in puzzles[:count]]


def races(args: argparse.Namespace) -> None:
    from satgrid import api, portfolio

    jobs = [int(j) for j in args.jobs.split(",")]
    configs = portfolio.configurations(api.Options(), max(jobs))
    for i, options in enumerate(configs, 1):
        print(f"configuration {i}: {portfolio.flags(options)}")
    wanted = [(JANKO, p.name, p.rows * p.cols) for p in api.load([str(JANKO)])
              if any(i in p.name for i in args.only.split(","))] if JANKO.exists() else []
    if args.genres:
        for path in sorted((SHARED / "external" / "genres").glob("puzzlekit_*.txt")):
            wanted += largest(path, args.genres)
    rows = []
    for path, name, cells in wanted:
        load = os.getloadavg()[0]
        alone = [ask(path, name, f"config:{i}", args.cpu_limit) for i in range(len(configs))]
        raced = [ask(path, name, f"race:{n}", args.cpu_limit, args.rival_niceness) for n in jobs]
        settled = [r["cpu_ms"] for r in alone if r["status"] == "unique"]
        rows.append([name, cells, f"{load:.1f}", ms(alone[0], "wall_ms"), *(ms(r, "cpu_ms") for r in alone),
                     f"{min(settled):,.0f}" if settled else "-",
                     *(f"{ms(r, 'wall_ms')} ({r['won']})" for r in raced),
                     *(ms(r, "cpu_ms") for r in raced)])
        print("  ".join(map(str, rows[-1])), flush=True)
    table(f"solve + unique, fresh process each, RLIMIT_CPU {args.cpu_limit:g} s a process; "
          "alone: wall ms of configuration 1 and CPU ms of each; race: wall ms (winner) and CPU ms "
          "of all its processes",
          ["puzzle", "cells", "load", "alone 1 wall", *(f"alone {i} cpu" for i in range(1, len(configs) + 1)),
           "best alone", *(f"race {n} wall" for n in jobs), *(f"race {n} cpu" for n in jobs)], rows)


def overhead(args: argparse.Namespace) -> None:
    from satgrid import api

    puzzles = api.load([str(JANKO)])
    rows = []
    for lo, hi in ((0, 100), (101, 200), (201, 300), (301, 400), (401, 900)):
        inside = [p for p in puzzles if lo <= p.rows * p.cols <= hi][:args.per_band]
        plain = [ask(JANKO, p.name, "plain", args.cpu_limit) for p in inside]
        raced = [ask(JANKO, p.name, "race0:2", args.cpu_limit) for p in inside]
        med = [statistics.median(r["wall_ms"] for r in got if r["wall_ms"] is not None)
               for got in (plain, raced)]
        rows.append([f"{lo}-{hi}", len(inside), f"{os.getloadavg()[0]:.1f}", f"{med[0]:.1f}",
                     f"{med[1]:.1f}", f"{med[1] - med[0]:+.1f}"])
        print("  ".join(map(str, rows[-1])), flush=True)
    table("race overhead: median wall ms of solve + unique, fresh process each",
          ["cells", "puzzles", "load", "plain", "race of 2", "difference"], rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default=BIG, help="comma-separated parts of janko puzzle ids")
    ap.add_argument("--cpu-limit", type=float, default=20.0)
    ap.add_argument("--jobs", default="2,3")
    ap.add_argument("--genres", type=int, default=1, help="largest puzzles of each genre file")
    ap.add_argument("--overhead", action="store_true")
    ap.add_argument("--per-band", type=int, default=8)
    ap.add_argument("--rival-niceness", type=int, default=None,
                    help="the rivals' niceness in the races (default: portfolio.RIVAL_NICENESS)")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("--file", help=argparse.SUPPRESS)
    ap.add_argument("--mode", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        one(args.file, args.one, args.mode, args.cpu_limit, args.rival_niceness)
    elif not JANKO.exists():
        raise SystemExit(f"{JANKO} not found (set SATGRID_SHARED)")
    elif args.overhead:
        overhead(args)
    else:
        races(args)


if __name__ == "__main__":
    main()
