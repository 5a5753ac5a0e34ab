"""Regenerate the benchmark puzzle files in this folder from Debian's sgt-puzzles.

Usage:  python bench/data/make_data.py [NAME ...] [--raw DIR]

Each NAME is one of the keys of JOBS (default: all).  The generators are run
with a fixed seed, so the output is reproducible for the same sgt-puzzles
version (these files were made with 20230122.806ae71, Debian 20230122.806ae71-2).
With --raw DIR, a job whose raw generator output exists as DIR/NAME.out is
decoded from that file instead of running the generator again.

Tatham game IDs decoded here:
  Solo   ``CxR:DESC``   n = C*R; blocks are C cells tall and R cells wide
                         (cell (y, x) is in block (y div C, x div R)); DESC is
                         row-major: a lowercase letter is a run of 1..26 blanks,
                         a decimal number is a given, ``_`` separates numbers.
  Loopy  ``WxHt0:DESC``  H rows of W faces, row-major: a digit is a clue, a
                         lowercase letter is a run of 1..26 faces with no clue.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
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


def decode_solo(game_id: str):
    """Return (n, (box_height, box_width), rows of int|None) for a Solo game ID."""
    params, desc = game_id.split(":", 1)
    m = re.fullmatch(r"(\d+)x(\d+)", params)
    if not m:
        raise ValueError(f"unsupported Solo parameters {params!r} (jigsaw/killer/X not handled)")
    c, r = int(m.group(1)), int(m.group(2))
    n = c * r
    cells: list[int | None] = []
    i = 0
    while i < len(desc):
        ch = desc[i]
        if "a" <= ch <= "z":
            cells.extend([None] * (ord(ch) - ord("a") + 1))
            i += 1
        elif ch.isdigit():
            j = i
            while j < len(desc) and desc[j].isdigit():
                j += 1
            v = int(desc[i:j])
            if not 1 <= v <= n:
                raise ValueError(f"given {v} out of range 1..{n}")
            cells.append(v)
            i = j
        elif ch == "_":
            i += 1
        else:
            raise ValueError(f"unexpected character {ch!r} in Solo description")
    if len(cells) != n * n:
        raise ValueError(f"Solo description has {len(cells)} cells, expected {n * n}")
    return n, (c, r), [cells[y * n:(y + 1) * n] for y in range(n)]


def decode_loopy(game_id: str):
    """Return (rows, cols, list of row strings with '.' or a digit) for a square-grid Loopy ID."""
    params, desc = game_id.split(":", 1)
    m = re.fullmatch(r"(\d+)x(\d+)t0", params)
    if not m:
        raise ValueError(f"unsupported Loopy parameters {params!r} (only square grids, t0)")
    w, h = int(m.group(1)), int(m.group(2))
    faces: list[str] = []
    for ch in desc:
        if "a" <= ch <= "z":
            faces.extend("." * (ord(ch) - ord("a") + 1))
        elif ch in "01234":
            faces.append(ch)
        else:
            raise ValueError(f"unexpected character {ch!r} in Loopy description")
    if len(faces) != w * h:
        raise ValueError(f"Loopy description has {len(faces)} faces, expected {w * h}")
    return h, w, ["".join(faces[y * w:(y + 1) * w]) for y in range(h)]


def _self_test():
    n, box, rows = decode_solo("2x3:5c2e1c4a6_1_6_3a2c6e2c5")
    got = ["".join("." if v is None else str(v) for v in row) for row in rows]
    assert n == 6 and box == (2, 3), (n, box)
    assert got == ["5...2.", "....1.", "..4.61", "63.2..", ".6....", ".2...5"], got
    h, w, rows = decode_loopy("3x2t0:1b2a0")
    assert (h, w, rows) == (2, 3, ["1..", "2.0"]), (h, w, rows)


def block(name: str, genre: str, game_id: str, command: str) -> str:
    lines = [f"puzzle {name}", f"genre: {genre}"]
    if genre == "sudoku":
        n, (bh, bw), rows = decode_solo(game_id)
        lines += [f"rows: {n}", f"cols: {n}", f"box: {bh}x{bw}"]
        grid = [" ".join("." if v is None else str(v) for v in row) for row in rows]
    else:
        h, w, grid = decode_loopy(game_id)
        lines += [f"rows: {h}", f"cols: {w}"]
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
    _self_test()
    raw_dir = None
    if "--raw" in argv:
        k = argv.index("--raw")
        raw_dir = argv[k + 1]
        argv = argv[:k] + argv[k + 2:]
    for name in argv or list(JOBS):
        run_job(name, raw_dir)


if __name__ == "__main__":
    main(sys.argv[1:])
