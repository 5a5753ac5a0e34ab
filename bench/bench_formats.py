"""Format throughput: reading and writing puzz.link URLs, pzprv3 files, Tatham IDs and SVG
drawings for the bundled and benchmark puzzles, and one pzpr (node) round for comparison. Prints a
table; nothing is asserted.

    .venv/bin/python bench/bench_formats.py
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from satgrid import api, render_svg  # noqa: E402
from satgrid.formats import puzzlink, pzprv3, tatham  # noqa: E402
from tests import pzpr_engine  # noqa: E402


def timed(label: str, items: list, fn) -> tuple[str, int, float]:
    start = time.perf_counter()
    for item in items:
        fn(item)
    return label, len(items), time.perf_counter() - start


def main() -> None:
    puzzles = []
    for name in ("sudoku9_hard.txt", "nurikabe_10x10.txt"):
        path = ROOT / "bench" / "data" / name
        if path.exists():
            puzzles += api.load([str(path)], genre="nurikabe" if "nurikabe" in name else None)
    for example in ("sudoku.txt", "nurikabe.txt", "slitherlink.txt"):
        puzzles += api.load([str(ROOT / "satgrid" / "data" / example)])
    solutions = [api.solve(p).solution for p in puzzles]
    urls = [puzzlink.encode(p) for p in puzzles]
    files = [pzprv3.write(p, s) for p, s in zip(puzzles, solutions)]
    ids = [tatham.encode(p) for p in puzzles if p.genre != "nurikabe"]
    rows = [
        timed("URL write", puzzles, puzzlink.encode),
        timed("URL read", urls, puzzlink.decode),
        timed("pzprv3 write (answer)", list(zip(puzzles, solutions)), lambda ps: pzprv3.write(*ps)),
        timed("pzprv3 read (answer)", files, pzprv3.read),
        timed("Tatham ID write", [p for p in puzzles if p.genre != "nurikabe"], tatham.encode),
        timed("Tatham ID read", ids, tatham.decode),
        timed("SVG with solution", list(zip(puzzles, solutions)), lambda ps: render_svg.svg(*ps)),
    ]
    if pzpr_engine.missing() is None:
        start = time.perf_counter()
        pzpr_engine.reports(files)
        rows.append(("pzpr open + check (node)", len(files), time.perf_counter() - start))
    print(f"{len(puzzles)} puzzles ({', '.join(sorted({p.genre for p in puzzles}))})")
    print(f"{'operation':<26} {'items':>6} {'total s':>9} {'us/item':>9}")
    for label, count, seconds in rows:
        print(f"{label:<26} {count:>6} {seconds:>9.3f} {seconds / count * 1e6:>9.1f}")


if __name__ == "__main__":
    main()
