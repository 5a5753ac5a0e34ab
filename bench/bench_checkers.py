"""The per-solution cost of decoding and checking: prints one table (microseconds of CPU).

    .venv/bin/python bench/bench_checkers.py [--repeat 300]

For each bench puzzle (bench/data: 30x30 and 10x10 Slitherlink and Nurikabe), the solution is
found once; then the genre's ``decode`` (the solver's assignment read into the solution) and its
independent ``check`` (every rule, on the decoded solution) are timed, each the best of five
batches of ``--repeat`` calls (``time.process_time``). A live re-check and an ambiguity report
decode and check each solution they report (one or two a check; measured in
encodings/diagnostics.md, "Live re-checks"). Only uses the registry's ``decode`` and ``check``,
so ``bench/old_vs_new.py --new-script`` runs it on older trees too.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from common import table  # noqa: E402
from satgrid import api  # noqa: E402
from satgrid.queries import asking  # noqa: E402
from satgrid.registry import GENRES  # noqa: E402

DATA = ROOT / "bench" / "data"
PUZZLES = [("slitherlink 30x30", "slither30.txt"), ("slitherlink 10x10", "slither10_hard.txt"),
           ("nurikabe 30x30", "nurikabe_30x30.txt"), ("nurikabe 10x10", "nurikabe_10x10.txt")]


def best_us(fn, repeat: int) -> float:
    """The best of five batches of ``repeat`` calls, CPU microseconds a call."""
    times = []
    for _ in range(5):
        start = time.process_time()
        for _ in range(repeat):
            fn()
        times.append((time.process_time() - start) / repeat * 1e6)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=300, help="calls in a timed batch")
    args = ap.parse_args()
    rows = []
    for label, name in PUZZLES:
        puzzle = api.load([str(DATA / name)])[0]
        g = GENRES[puzzle.genre]
        session, _ = api.session_for(puzzle, api.Options())
        with asking(session, puzzle.clues(), None) as queries:
            assignment = queries.solve().assignment
        encoding = session.encoding
        solution = g.decode(puzzle, encoding, assignment)
        if g.check(puzzle, solution):
            raise SystemExit(f"{name}: the solution found does not pass the checker")
        rows.append([label, f"{best_us(lambda: g.decode(puzzle, encoding, assignment), args.repeat):.0f}",
                     f"{best_us(lambda: g.check(puzzle, solution), args.repeat):.0f}"])
    table("decode and check one solution (us CPU, best of 5 batches)",
          ["puzzle", "decode", "check"], rows)


if __name__ == "__main__":
    main()
