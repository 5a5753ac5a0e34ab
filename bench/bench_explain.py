"""Explanations (satgrid.explain): the whole step-by-step path for 10x10 Slitherlinks and the
hardest 9x9 Sudokus, with the steps, the largest reason, the depth and the CPU time.

Puzzles: janko.at's 10x10 Slitherlinks (with ``--loopy-hard`` also 10x10 Loopy puzzles of
Tatham's "hard" level, made with Debian's sgt-loopy), and Norvig's "hardest" Sudokus, all from
``../shared`` (SATGRID_SHARED). CPU time (``time.process_time``): the machine is shared.
Figures: encodings/diagnostics.md, "Explanations"."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from bench.common import table
from satgrid import api
from satgrid.explain import explain

SHARED = Path(os.environ.get("SATGRID_SHARED", Path(__file__).resolve().parents[2] / "shared"))
LOOPY = "/usr/games/sgt-loopy"


def puzzles(limit: int, loopy_hard: bool = False) -> list[tuple[str, object]]:
    out: list[tuple[str, object]] = []
    janko = SHARED / "external" / "slitherlink" / "janko_slitherlink_sample.txt"
    if janko.exists():
        out += [("janko", p) for p in api.load([str(janko)]) if (p.rows, p.cols) == (10, 10)][:limit]
    if loopy_hard and Path(LOOPY).exists():  # minutes each (encodings/diagnostics.md)
        ids = subprocess.run([LOOPY, "--generate", str(limit), "10x10t0dh#explain"], capture_output=True,
                             text=True, check=True).stdout.split()
        out += [("loopy hard", p) for i in ids for p in api.load_text(i.split("#")[0] if ":" in i else i)]
    hardest = SHARED / "external" / "sudoku" / "norvig_hardest.txt"
    if hardest.exists():
        lines = [t.split()[0] for t in hardest.read_text().splitlines() if t.strip() and not t.startswith("#")]
        out += [("norvig hardest", p) for t in lines[:limit] for p in api.load_text(t)]
    return out


def main(limit: int = 3, loopy_hard: bool = False) -> None:
    rows = []
    for source, puzzle in puzzles(limit, loopy_hard):
        start = time.process_time()
        e = explain(puzzle)
        cpu = time.process_time() - start
        levels = "/".join(str(sum(s.level == n for s in e.steps)) for n in (0, 1, 2))
        rows.append([source, puzzle.genre, f"{puzzle.rows}x{puzzle.cols}", e.status, len(e.steps),
                     levels, e.largest, e.depth, e.rounds, e.sat_calls, f"{cpu:.2f}"])
    table("explain: the whole path (CPU seconds)",
          ["source", "genre", "size", "status", "steps", "steps by level 0/1/2", "largest reason",
           "depth", "rounds", "SAT calls", "cpu s"], rows)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3, "--loopy-hard" in sys.argv)
