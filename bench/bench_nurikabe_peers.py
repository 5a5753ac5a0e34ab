"""The big published Nurikabes: satgrid beside its peers, puzzle by puzzle in one run. Prints a table.

    .venv/bin/python bench/bench_nurikabe_peers.py [FILE] [--only IDS] [--cells N]
                                                   [--limit S] [--peers NAMES]

FILE defaults to ``../shared/external/nurikabe/janko_nurikabe_sample.txt`` (SATGRID_SHARED points
elsewhere); the puzzles are those of more than ``--cells`` cells (default 400: the sample's 16
big ones) or the ``--only`` ids (comma-separated, matched against the end of the name). Each
puzzle runs, one after the other so that all see the same machine:

* satgrid as a user runs it: ``satgrid solve PUZZLE --unique --format json --time-limit S`` in a
  process of its own (the command's defaults: ``--jobs auto``, which races a big puzzle on the
  machine's CPUs);
* each peer of ``bench/peers.py`` for Nurikabe that is installed (``pip install -e .[bench]``), in
  a forked child with the same limit: clingo (an ASP model of the rules, so clasp's unfounded-set
  check is its connectivity propagator; solutions counted up to 2, as a uniqueness proof),
  puzzlekit (OR-Tools CP-SAT, solve only) and grilops (z3, solve only; slow, so only with
  ``--peers``).

Per tool: ``unique`` (two solutions looked for, one found), ``solved`` (one asked for), ``many``,
``none``, ``unknown`` (its limit), ``error``; the wall seconds; and ``!`` after a solution that is
not the published one. Wall time on a shared machine: the load is printed at the start and the end.
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
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import peers  # noqa: E402  (bench/peers.py)

from bench.common import table  # noqa: E402

SHARED = Path(os.environ.get("SATGRID_SHARED", ROOT.parent / "shared"))
DEFAULT = SHARED / "external" / "nurikabe" / "janko_nurikabe_sample.txt"
DEFAULT_PEERS = ("nurikabe_clingo", "nurikabe_puzzlekit")
SATGRID = [sys.executable, "-m", "satgrid"]


def blocks(path: Path) -> list[tuple[str, list[str]]]:
    """(name, the block's lines from ``puzzle NAME`` to ``end``) of each puzzle of a block-format
    file: the text the command is given, one puzzle at a time."""
    out, current = [], None
    for line in path.read_text().splitlines():
        if line.startswith("puzzle "):
            current = [line]
        elif current is not None:
            current.append(line)
            if line.strip() == "end":
                out.append((current[0].split(None, 1)[1].strip(), current))
                current = None
    return out


def clues_of(puzzle) -> list[list[int | None]]:
    """The puzzle's clue grid as bench/peers.py takes it."""
    clues = puzzle.clues()
    return [[clues.get((r, c)) for c in range(puzzle.cols)] for r in range(puzzle.rows)]


def satgrid_run(block: list[str], limit: float) -> tuple[str, float, list[str] | None]:
    """(status, wall s, solution rows) of the CLI on one puzzle."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        handle.write("\n".join(block) + "\n")
    try:
        start = time.perf_counter()
        done = subprocess.run([*SATGRID, "solve", handle.name, "--unique", "--format", "json",
                               "--time-limit", f"{limit:g}"], cwd=ROOT, capture_output=True, text=True,
                              timeout=limit * 3 + 60)
        took = time.perf_counter() - start
    finally:
        os.unlink(handle.name)
    try:
        record = json.loads(done.stdout)
    except json.JSONDecodeError:
        return "error", took, None
    status = record.get("status", "error")
    if status == "solved" and record.get("unique") is None:
        status = "unknown"  # a solution, its uniqueness undecided at the limit
    return status, took, record.get("solution")


def peer_run(name: str, clues: list[list[int | None]], limit: float) -> tuple[str, float, list[str] | None]:
    """(status, wall s, first solution) of one peer, in a child killed at ``limit`` + 30 s: up to
    two solutions where the peer lists them (``solutions`` in ``peers.PEERS``), else its first."""
    info = peers.PEERS[name]
    listed = info.get("solutions")

    def run() -> tuple[int, list[str] | None]:
        if listed is not None:
            found = listed(clues, 2, limit)
            return len(found), found[0] if found else None
        rows = info["function"](clues, limit)
        return (1 if rows else 0), rows

    start = time.perf_counter()
    status, result, _ = peers.call_with_timeout(run, timeout=limit + 30)
    took = time.perf_counter() - start
    if status != "ok":
        return ("unknown" if status == "timeout" else "error"), took, None
    count, rows = result
    label = {0: "none", 1: "unique" if listed is not None else "solved"}.get(count, "many")
    return label, took, rows


def cell(status: str, took: float, rows: list[str] | None, published: list[str]) -> str:
    wrong = "!" if rows is not None and rows != published else ""
    return f"{status}{wrong} {took:.1f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", nargs="?", type=Path, default=DEFAULT)
    ap.add_argument("--only", default=None, help="comma-separated ids (the end of the puzzle names)")
    ap.add_argument("--cells", type=int, default=400, help="without --only: puzzles of more cells")
    ap.add_argument("--limit", type=float, default=20.0, help="seconds per puzzle and tool")
    ap.add_argument("--peers", default=",".join(DEFAULT_PEERS),
                    help="comma-separated bench/peers.py Nurikabe peers")
    args = ap.parse_args()
    if not args.file.exists():
        raise SystemExit(f"{args.file}: no such file (set SATGRID_SHARED)")
    from satgrid import api

    texts = dict(blocks(args.file))
    chosen = api.load([str(args.file)])
    if args.only:
        ids = [i.strip() for i in args.only.split(",") if i.strip()]
        chosen = [p for p in chosen if any(p.name.endswith(i) for i in ids)]
    else:
        chosen = [p for p in chosen if p.rows * p.cols > args.cells]
    names = [n for n in args.peers.split(",") if n]
    for n in names:
        if n not in peers.PEERS or peers.PEERS[n]["genre"] != "nurikabe":
            raise SystemExit(f"--peers: {n!r} is not a Nurikabe peer of bench/peers.py")
    present = [n for n in names if peers.available(n)]
    for n in names:
        if n not in present:
            print(f"# {n}: not installed ({peers.PEERS[n]['package']}), skipped")
    print(f"# {args.file.name}: {len(chosen)} puzzles, --limit {args.limit:g} s per tool (wall), "
          f"load {os.getloadavg()[0]:.1f}")
    head = ["puzzle", "size", "satgrid"] + [n.split("_", 1)[1] for n in present]
    rows, won = [], {n: 0 for n in present}
    for puzzle in chosen:
        clues = clues_of(puzzle)
        published = list(puzzle.given_solution.solution) if puzzle.given_solution else []
        ours = satgrid_run(texts[puzzle.name], args.limit)
        row = [puzzle.name.rsplit("-", 1)[-1], f"{puzzle.rows}x{puzzle.cols}", cell(*ours, published)]
        for n in present:
            theirs = peer_run(n, clues, args.limit)
            row.append(cell(*theirs, published))
            settled = {"unique", "solved", "none", "many"}
            if theirs[0] in settled and (ours[0] not in settled or theirs[1] < ours[1]):
                won[n] += 1
        rows.append(row)
        print("# " + "  ".join(row), flush=True)
    table("wall s per tool (satgrid: the command, process start included)", head, rows)
    for n in present:
        print(f"# {n}: settled sooner than satgrid on {won[n]} of {len(rows)}")
    print(f"# load at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
