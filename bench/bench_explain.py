"""Explanations (satgrid.explain): the whole step-by-step path for 10x10 Slitherlinks and the
hardest 9x9 Sudokus, with the steps, the largest reason, the depth and the CPU time.

Puzzles: janko.at's 10x10 Slitherlinks (with ``--loopy-hard`` also 10x10 Loopy puzzles of
Tatham's "hard" level, made with Debian's sgt-loopy), and Norvig's "hardest" Sudokus, all from
``../shared`` (SATGRID_SHARED). ``--hard`` runs only the two harder 10x10s of the figures:
janko.at's 3rd 10x10 of the sample and the first "hard" Loopy of the fixed seed.
``--fillomino`` runs only the bundled Fillominos (4x4, 5x5, 7x9 and 9x13, rows by columns; their steps once ran
the necessity checks of the sized-region rule out of their limits).
CPU time (``time.process_time``): the machine is shared.

``--big`` runs instead the big published grids of several genres (janko.at's Nurikabes 0460 and
0094, 20x36; puzzlekit's Fillomino 210, 20x36; the first 25x25 Sudoku of ``bench/data``; janko.at's
Slitherlink 0100, 30x45), each in a process of its own under ``--time-limit`` wall seconds
(default 60): the steps done by then and the child's CPU seconds. ``--reasons mus,level`` (the
default: a table each) asks for minimal sets and for reasons minimal for their level
(``explain(reasons="level")``); a revision without that option prints "n/a". Old against new:

    .venv/bin/python bench/old_vs_new.py --old REV --new-script --rounds 1 bench/bench_explain.py --big
Figures: encodings/diagnostics.md, "Explanations"."""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's package first (bench/old_vs_new.py runs two)

from bench.common import table  # noqa: E402
from satgrid import api  # noqa: E402
from satgrid.explain import explain  # noqa: E402

SHARED = Path(os.environ.get("SATGRID_SHARED", ROOT.parent / "shared"))
LOOPY = "/usr/games/sgt-loopy"


def puzzles(limit: int, loopy_hard: bool = False, hard: bool = False,
            fillomino: bool = False) -> list[tuple[str, object]]:
    out: list[tuple[str, object]] = []
    if fillomino:
        return [("bundled", p) for p in api.load([str(ROOT / "satgrid" / "data" / "fillomino.txt")])]
    janko = SHARED / "external" / "slitherlink" / "janko_slitherlink_sample.txt"
    if janko.exists():
        tens = [p for p in api.load([str(janko)]) if (p.rows, p.cols) == (10, 10)]
        out += [("janko 3rd", p) for p in tens[2:3]] if hard else [("janko", p) for p in tens[:limit]]
    if (loopy_hard or hard) and Path(LOOPY).exists():  # seconds each (encodings/diagnostics.md)
        ids = subprocess.run([LOOPY, "--generate", str(1 if hard else limit), "10x10t0dh#explain"],
                             capture_output=True, text=True, check=True).stdout.split()
        out += [("loopy hard", p) for i in ids for p in api.load_text(i.split("#")[0] if ":" in i else i)]
    if hard:
        return out
    hardest = SHARED / "external" / "sudoku" / "norvig_hardest.txt"
    if hardest.exists():
        lines = [t.split()[0] for t in hardest.read_text().splitlines() if t.strip() and not t.startswith("#")]
        out += [("norvig hardest", p) for t in lines[:limit] for p in api.load_text(t)]
    return out


BIG = [("external/nurikabe/janko_nurikabe_sample.txt", "janko-nurikabe-0460"),
       ("external/nurikabe/janko_nurikabe_sample.txt", "janko-nurikabe-0094"),
       ("external/genres/puzzlekit_fillomino.txt", "fillomino-210_20x36"),
       ("bench/data/sudoku25.txt", "sudoku25-5x5db-1"),
       ("external/slitherlink/janko_slitherlink_sample.txt", "janko-slitherlink-0100")]

CHILD = """
import inspect, json, sys
sys.path.insert(0, sys.argv[1])
from satgrid import api
from satgrid.explain import explain
[puzzle] = [p for p in api.load([sys.argv[2]]) if p.name == sys.argv[3]]
options = {} if sys.argv[5] == "mus" else {"reasons": sys.argv[5]}
if options and "reasons" not in inspect.signature(explain).parameters:
    print(json.dumps({"status": "n/a"}))
    raise SystemExit
e = explain(puzzle, time_limit=float(sys.argv[4]), **options)
print(json.dumps({"status": e.status, "steps": len(e.steps), "todo": len(e.steps) + e.undecided,
                  "largest": e.largest, "rounds": e.rounds, "sat_calls": e.sat_calls,
                  "levels": "/".join(str(sum(s.level == n for s in e.steps)) for n in (0, 1, 2))}))
"""


def big(time_limit: float, reasons: str) -> None:
    """The big grids (see the module doc), one process each."""
    rows = []
    for name, key in BIG:
        path = ROOT / name if name.startswith("bench/") else SHARED / name
        if not path.exists():
            continue
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run([sys.executable, "-c", CHILD, str(ROOT), str(path), key, str(time_limit),
                               reasons], capture_output=True, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        out = json.loads(done.stdout) if done.returncode == 0 else \
            {"status": "error: " + (done.stderr.strip().splitlines() or [""])[-1][:60]}
        rows.append([key, out["status"], f"{out.get('steps', '')} of {out.get('todo', '')}",
                     out.get("levels", ""), out.get("largest", ""), out.get("rounds", ""),
                     out.get("sat_calls", ""), f"{cpu:.2f}"])
    table(f"explain of big grids, reasons {reasons}, time limit {time_limit:g} s (CPU seconds of the child)",
          ["puzzle", "status", "steps", "steps by level 0/1/2", "largest reason", "rounds", "SAT calls",
           "cpu s"], rows)


def main(limit: int = 3, loopy_hard: bool = False, hard: bool = False, fillomino: bool = False) -> None:
    rows = []
    for source, puzzle in puzzles(limit, loopy_hard, hard, fillomino):
        start = time.process_time()
        e = explain(puzzle)
        cpu = time.process_time() - start
        levels = "/".join(str(sum(s.level == n for s in e.steps)) for n in (0, 1, 2))
        rows.append([source, puzzle.genre, f"{puzzle.rows}x{puzzle.cols}", e.status, len(e.steps),
                     levels, e.largest, e.depth, e.rounds, e.sat_calls,
                     sum(not s.minimal for s in e.steps), f"{cpu:.2f}"])
    table("explain: the whole path (CPU seconds)",
          ["source", "genre", "size", "status", "steps", "steps by level 0/1/2", "largest reason",
           "depth", "rounds", "SAT calls", "not proved minimal", "cpu s"], rows)


if __name__ == "__main__":
    if "--big" in sys.argv:
        def option(name: str, default: str) -> str:
            return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default
        for reasons in option("--reasons", "mus,level").split(","):
            big(float(option("--time-limit", "60")), reasons)
        raise SystemExit
    numbers = [a for a in sys.argv[1:] if not a.startswith("--")]
    main(int(numbers[0]) if numbers else 3, "--loopy-hard" in sys.argv, "--hard" in sys.argv,
         "--fillomino" in sys.argv)
