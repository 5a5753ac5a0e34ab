"""The connected rule's three lowerings, side by side: lazy CEGAR cuts, the propagator inside
CaDiCaL 1.9.5 (satgrid.propagator), and the eager parent pointers.

(a) janko.at Nurikabes from ``../shared/external/nurikabe/janko_nurikabe_sample.txt`` (the hard
    ones of issue 19 and a few easy ones): solve + unique, cold (a new session each run).
(b) A shading genre on big grids: Hitori puzzles of 30x30 and 45x31 (the generic generator if it
    makes them within ``--gen-limit`` seconds, else random grids whose only connected constraint
    is the white region: see :func:`random_hitori`), solve + unique.

Every figure is the median of ``--repeat`` runs (wall seconds; CPU seconds beside), since the
machine is shared. ``--time-limit`` bounds each run; a run that hits it prints ``>limit``.
The propagator columns add its own counters (callbacks, searches and their time) from the last
run. Lowerings: ``lazy153`` (the default solver), ``lazy`` (cadical195), ``prop`` (cadical195),
``eager`` (cadical195).

    PYTHONPATH=. python bench/bench_connectivity.py [--repeat 3] [--time-limit 60] [--part a|b]
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from bench.common import drop_sessions, table
from satgrid import api

HARD = ("0092 0094 0350 0460 0570 0680 0683 0688 0689 0690 0721 0724 0981 0995 0999 1030 1032 "
        "1047 1050 1054 1055 1108 1109").split()
EASY = "0001 0164 0251 0017 0720 1046 0262 0229".split()
LOWERINGS = {"lazy153": ("cadical153", "lazy"), "lazy": ("cadical195", "lazy"),
             "prop": ("cadical195", "propagator"), "eager": ("cadical195", "eager")}


def shared() -> Path:
    return Path(os.environ.get("SATGRID_SHARED", Path(__file__).resolve().parents[2] / "shared"))


def run(puzzle: Any, lowering: str, limit: float | None) -> dict[str, Any]:
    """One cold solve + unique: wall and CPU seconds, status, SAT calls, propagator counters."""
    solver, connectivity = LOWERINGS[lowering]
    drop_sessions()
    options = api.Options(solver=solver, connectivity=connectivity, time_limit=limit)
    wall, cpu = time.perf_counter(), time.process_time()
    result = api.solve(puzzle, unique=True, options=options, grade=False)
    out = {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
           "status": result.status, "calls": result.stats.sat_calls}
    sessions = list(api._SESSIONS.values())
    propagator = sessions[-1][1].propagator if sessions else None
    if propagator is not None:
        out["prop"] = propagator.stats
    return out


def measure(puzzle: Any, lowering: str, limit: float | None, repeat: int) -> dict[str, Any]:
    runs = [run(puzzle, lowering, limit)]
    # a run that hit the limit is not repeated (it would hit it again)
    while len(runs) < repeat and runs[0]["status"] != "unknown":
        runs.append(run(puzzle, lowering, limit))
    last = runs[-1]
    return {**last, "wall": statistics.median(r["wall"] for r in runs),
            "cpu": statistics.median(r["cpu"] for r in runs), "runs": len(runs)}


def cell(m: dict[str, Any], limit: float | None) -> str:
    if m["status"] == "unknown":
        return f">{limit:g}s"
    mark = "" if m["status"] in ("unique", "multiple") else f" {m['status']}"
    return f"{m['wall']:.3f} ({m['cpu']:.3f}) {m['calls']}{mark}"


def prop_cell(m: dict[str, Any]) -> str:
    s = m.get("prop")
    if s is None:
        return "-"
    per = 1e6 * s.search_s / s.searches if s.searches else 0.0
    split = 1e6 * s.split_s / s.splits if s.splits else 0.0
    return (f"{s.assignments} asg, {s.propagate_calls} prop, {s.searches} searches "
            f"({per:.0f} us each, {s.search_s:.2f} s), {s.splits} splits ({split:.0f} us each, "
            f"{s.split_s:.2f} s), {s.conflicts} confl, {s.propagated} forced")


def compare(title: str, puzzles: list[tuple[str, Any]], lowerings: list[str], limit: float | None,
            repeat: int) -> None:
    header = ["puzzle", "size", *(f"{low} s (cpu) calls" for low in lowerings), "propagator counters"]
    rows = []
    for name, puzzle in puzzles:
        found = {low: measure(puzzle, low, limit, repeat) for low in lowerings}
        rows.append([name, f"{puzzle.rows}x{puzzle.cols}", *(cell(found[low], limit) for low in lowerings),
                     prop_cell(found.get("prop", {}))])
        print("  ..", rows[-1], file=sys.stderr, flush=True)
    table(title, header, rows)


def janko(ids: list[str]) -> list[tuple[str, Any]]:
    puzzles = api.load([str(shared() / "external" / "nurikabe" / "janko_nurikabe_sample.txt")])
    by_id = {str(p.name).rsplit("-", 1)[-1]: p for p in puzzles}
    return [(i, by_id[i]) for i in ids if i in by_id]


def random_hitori(rows: int, cols: int, seed: int) -> Any:
    """A Hitori grid made from a random valid shading: shaded cells apart and the white cells one
    region (grown by random valid shadings, rejected if they cut the white region), then numbers:
    every white cell gets a number not yet in its row or column among white cells where possible,
    every shaded cell a copy of a white number of its row or column (so it must be shaded in
    some solution). Not necessarily unique: the bench reports "multiple" when it is not."""
    from satgrid.grid import Grid

    g = Grid.of(rows, cols)
    rng = random.Random(seed)
    shaded: set[tuple[int, int]] = set()
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    rng.shuffle(cells)

    def white_connected() -> bool:
        start = next(p for p in g.cells if p not in shaded)
        seen, stack = {start}, [start]
        while stack:
            for q in g.adjacency[stack.pop()]:
                if q not in shaded and q not in seen:
                    seen.add(q)
                    stack.append(q)
        return len(seen) == rows * cols - len(shaded)

    for p in cells:
        if len(shaded) >= rows * cols // 4:
            break
        if any(q in shaded for q in g.adjacency[p]):
            continue
        shaded.add(p)
        if not white_connected():
            shaded.discard(p)
    size = max(rows, cols)
    numbers: dict[tuple[int, int], int] = {}
    for r in range(rows):
        for c in range(cols):
            if (r, c) in shaded:
                continue
            used = {numbers.get((r, k)) for k in range(cols)} | {numbers.get((k, c)) for k in range(rows)}
            free = [n for n in range(1, size + 1) if n not in used]
            numbers[r, c] = rng.choice(free) if free else rng.randint(1, size)
    for r, c in shaded:
        line = [numbers[r, k] for k in range(cols) if (r, k) in numbers] + \
               [numbers[k, c] for k in range(rows) if (k, c) in numbers]
        numbers[r, c] = rng.choice(line)
    text = "\n".join(" ".join(str(numbers[r, c]) for c in range(cols)) for r in range(rows))
    block = f"puzzle random-{rows}x{cols}-{seed}\ngenre: hitori\nrows: {rows}\ncols: {cols}\ngivens:\n{text}\nend\n"
    return api.load_text(block, genre="hitori")[0]


def generated_hitori(rows: int, cols: int, seed: int, limit: float) -> Any | None:
    """A Hitori from the generic generator, or None when it takes longer than ``limit`` s."""
    import subprocess

    try:
        done = subprocess.run([sys.executable, "-m", "satgrid", "generate", "hitori", "--size",
                               f"{rows}x{cols}", "--seed", str(seed)],
                              timeout=limit, check=True, capture_output=True, text=True)
    except (subprocess.TimeoutExpired, subprocess.CalledProcessError) as e:
        print(f"  .. generator {rows}x{cols}: {type(e).__name__}", file=sys.stderr)
        return None
    return api.load_text(done.stdout, genre="hitori")[0]


def callback_cost(puzzles: list[tuple[str, Any]], limit: float | None) -> None:
    """(c) Time spent inside each Python callback of the propagator (perf_counter around each
    call, so the C-to-Python crossing itself is not in it), against the run's CPU time."""
    from satgrid import propagator as prop

    kinds = ("on_assignment", "on_new_level", "on_backtrack", "propagate", "provide_reason",
             "add_clause", "check_model")
    spent = {k: [0, 0.0] for k in kinds}
    originals = {k: getattr(prop.ConnectivityPropagator, k) for k in kinds}

    def timed(kind: str, fn: Any) -> Any:
        def wrapper(self: Any, *args: Any) -> Any:
            start = time.perf_counter()
            try:
                return fn(self, *args)
            finally:
                entry = spent[kind]
                entry[0] += 1
                entry[1] += time.perf_counter() - start
        return wrapper

    rows = []
    try:
        for k in kinds:
            setattr(prop.ConnectivityPropagator, k, timed(k, originals[k]))
        for name, puzzle in puzzles:
            for entry in spent.values():
                entry[0], entry[1] = 0, 0.0
            m = run(puzzle, "prop", limit)
            total = sum(t for _, t in spent.values())
            parts = ", ".join(f"{k} {n} x {1e6 * t / n:.1f} us" for k, (n, t) in spent.items() if n)
            rows.append([name, m["status"], f"{m['wall']:.2f}", f"{total:.2f} ({100 * total / max(m['wall'], 1e-9):.0f}%)",
                         parts])
    finally:
        for k, fn in originals.items():
            setattr(prop.ConnectivityPropagator, k, fn)
    table("propagator callback cost (one run each)", ["puzzle", "status", "wall s", "in callbacks s", "calls x mean"],
          rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--part", default="abc", help="any of a (janko), b (big Hitori), c (callback cost)")
    ap.add_argument("--lowerings", default="lazy153,lazy,prop,eager")
    ap.add_argument("--ids", default=None, help="janko ids (comma separated) instead of the default set")
    ap.add_argument("--gen-limit", type=float, default=60.0)
    args = ap.parse_args()
    lowerings = args.lowerings.split(",")
    print("# bench_connectivity: median of up to", args.repeat, "cold runs, wall s (cpu s) and SAT calls;"
          " the machine is shared with other jobs, so wall times are noisy")
    if "a" in args.part:
        ids = args.ids.split(",") if args.ids else [*EASY, *HARD]
        compare("janko Nurikabes, solve + unique", janko(ids), lowerings, args.time_limit, args.repeat)
    if "b" in args.part:
        puzzles = []
        for rows, cols in [(30, 30), (45, 31)]:
            made = generated_hitori(rows, cols, 1, args.gen_limit)
            if made is not None:
                puzzles.append((f"generated {rows}x{cols}", made))
            for seed in (1, 2):
                puzzles.append((f"random {rows}x{cols} #{seed}", random_hitori(rows, cols, seed)))
        compare("Hitori on big grids, solve + unique", puzzles, lowerings, args.time_limit, args.repeat)
    if "c" in args.part:
        puzzles = janko(["0251", "0229", "0721", "1109"])
        puzzles += [(f"random 45x31 #{seed}", random_hitori(45, 31, seed)) for seed in (1, 2)]
        callback_cost(puzzles, args.time_limit)


if __name__ == "__main__":
    main()
