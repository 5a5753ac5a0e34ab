"""Regenerate the benchmark puzzle files in this folder from Debian's sgt-puzzles.

Usage:  python bench/data/make_data.py [NAME ...] [--raw DIR]

Each NAME is one of the keys of JOBS (default: all).  The generators are run
with a fixed seed, so the output is reproducible for the same sgt-puzzles
version (these files were made with 20230122.806ae71, Debian 20230122.806ae71-2).
With --raw DIR, a job whose raw generator output exists as DIR/NAME.out is
decoded from that file instead of running the generator again.

The Tatham game IDs are decoded by satgrid's own reader (satgrid/formats/tatham.py:
Solo ``CxR:DESC`` with boxes C tall and R wide, Loopy ``WxHt0:DESC``).
"""
from __future__ import annotations

import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

from satgrid.formats import tatham  # noqa: E402
GAMES = "/usr/games"

# file name -> list of (genre, program, count, params, timeout seconds).
# Solo levels: t trivial, b basic, i intermediate, a advanced, e extreme,
# u unreasonable.  Loopy levels: e easy, n normal, t tricky, h hard.
# Rough generation times on the 2-core dev machine: sudoku9_hard 31 s,
# sudoku16 (4x4du) 186 s, 5x5db 7 s, 5x5di 38 s (5x5de made none of 3 in
# 300 s), slither30 24 s, slither60 about 6 min.
JOBS = {
    "sudoku9_hard": [("sudoku", "sgt-solo", 300, "3x3du#bench", 600)],
    "sudoku16": [("sudoku", "sgt-solo", 10, "4x4du#bench", 600)],
    "sudoku25": [("sudoku", "sgt-solo", 3, "5x5db#bench", 600),
                 ("sudoku", "sgt-solo", 3, "5x5di#bench", 600)],
    "slither10_hard": [("slitherlink", "sgt-loopy", 30, "10x10t0dh#bench", 300)],
    "slither30": [("slitherlink", "sgt-loopy", 5, "30x30t0dh#bench", 600)],
    "slither60": [("slitherlink", "sgt-loopy", 3, "60x60t0dh#bench", 900)],
}


def block(name: str, genre: str, game_id: str, command: str) -> str:
    lines = [f"puzzle {name}", f"genre: {genre}"]
    if genre == "sudoku":
        puzzle = tatham.decode(game_id, genre=genre)
        lines += [f"rows: {puzzle.size}", f"cols: {puzzle.size}",
                  f"box: {puzzle.box_height}x{puzzle.box_width}"]
        grid = [" ".join("." if v is None else str(v) for v in row) for row in puzzle.givens]
    else:
        puzzle = tatham.decode(game_id, genre=genre)
        lines += [f"rows: {puzzle.rows}", f"cols: {puzzle.cols}"]
        grid = ["".join("." if v is None else str(v) for v in row) for row in puzzle.givens]
    lines += [f"tatham: {game_id}", f"made-by: {command}", "givens:", *grid, "end"]
    return "\n".join(lines) + "\n"


def run_job(name: str, raw_dir: str | None) -> None:
    """Write NAME.txt; raw output of spec k is read from DIR/NAME.out (one spec) or DIR/NAME.k.out."""
    specs = JOBS[name]
    blocks = []
    for k, (genre, prog, count, params, limit) in enumerate(specs):
        command = f"{prog} --generate {count} '{params}'"
        raw = None
        if raw_dir:
            raw = os.path.join(raw_dir, f"{name}.out" if len(specs) == 1 else f"{name}.{k}.out")
        if raw and os.path.exists(raw):
            with open(raw) as f:
                out = f.read()
            print(f"{name}: decoding {raw}", file=sys.stderr)
        else:
            t0 = time.monotonic()
            proc = subprocess.run([os.path.join(GAMES, prog), "--generate", str(count), params],
                                  capture_output=True, text=True, timeout=limit)
            proc.check_returncode()
            out = proc.stdout
            print(f"{name}: {command} took {time.monotonic() - t0:.1f}s", file=sys.stderr)
        ids = [line.strip() for line in out.splitlines() if line.strip()]
        if len(ids) != count:
            raise SystemExit(f"{name}: expected {count} game IDs from {command}, got {len(ids)}")
        tag = name if len(specs) == 1 else f"{name}-{params.split('#')[0]}"
        width = 3 if count >= 100 else 1
        blocks += [block(f"{tag}-{i + 1:0{width}d}", genre, gid, command) for i, gid in enumerate(ids)]
    with open(os.path.join(HERE, name + ".txt"), "w") as f:
        f.write("\n".join(blocks))
    print(f"{name}: wrote {len(blocks)} puzzles", file=sys.stderr)


def main(argv: list[str]) -> None:
    raw_dir = None
    if "--raw" in argv:
        k = argv.index("--raw")
        raw_dir = argv[k + 1]
        argv = argv[:k] + argv[k + 2:]
    for name in argv or list(JOBS):
        run_job(name, raw_dir)


if __name__ == "__main__":
    main(sys.argv[1:])
