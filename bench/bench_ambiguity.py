"""Ambiguity report and live re-check benchmark: prints three tables (times in ms).

    .venv/bin/python bench/bench_ambiguity.py            # all tables
    .venv/bin/python bench/bench_ambiguity.py --report   # only (a)
    .venv/bin/python bench/bench_ambiguity.py --live     # only (b) and (c)

(a) The ambiguity report (:func:`satgrid.ambiguity.report`, default cap 10) of unique puzzles with
    1 and with 5 clues removed (chosen by a seeded generator): 9x9 Sudoku (bench/data's hard ones;
    the issue's 10x10 is no Sudoku size), 10x10 Slitherlink (bench/data) and 10x10 Nurikabe
    (bench/data's and, when ../shared is there, the janko.at 10x10 sample). Median CPU time of this
    process (``time.process_time``) and median wall time; the session cache is warm for genres
    whose encoding is the size's (Sudoku, Slitherlink), cold for Nurikabe (its encoding is the
    grid's, so a puzzle with a clue removed is a new encoding: the figure includes building it).
(b) Live re-checks (:class:`satgrid.live.Editor`) of a 30x30 Slitherlink and a 30x30 Nurikabe
    (bench/data), per edit (a clue removed; then put back): a *fresh* check of the edited puzzle
    (no session: encode, load, solve, the report, checker; on a plain session, as ``satgrid
    ambiguity`` checks) against its re-check on the editor's session, which checked the
    puzzle before the edit: by search alone (``keep_proofs=False``), and with the proofs the
    editor keeps (:mod:`satgrid.live`). CPU medians over the edits; with ``--best-of N`` each
    time is the least of N runs (fresh editors and sessions), which a loaded machine inflates less.
(c) The fresh checks of (b) on a plain session and on one that learns over the clue selectors
    (:attr:`satgrid.session.Session.clue_learning`), as an editor's first check does.
"""
from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from common import drop_sessions, table  # noqa: E402
from satgrid import api  # noqa: E402
from satgrid.ambiguity import report  # noqa: E402
from satgrid.live import Editor  # noqa: E402

DATA = ROOT / "bench" / "data"
SHARED = Path(os.environ.get("SATGRID_SHARED", ROOT.parent / "shared"))


def load(path: Path, count: int, size: tuple[int, int] | None = None) -> list:
    if not path.exists():
        return []
    puzzles = api.load([str(path)])
    if size is not None:
        puzzles = [p for p in puzzles if (p.rows, p.cols) == size]
    return puzzles[:count]


def removed(puzzle, k: int, seed: int):
    clues = puzzle.clues()
    rng = random.Random(seed)
    for key in rng.sample(sorted(clues), k):
        del clues[key]
    return puzzle.with_clues(clues)


def timed(fn):
    gc.collect()  # the garbage of earlier encodings is not collected on this one's clock
    cpu, wall = time.process_time(), time.perf_counter()
    out = fn()
    return out, (time.process_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000


def report_rows(seeds: int) -> list[list[str]]:
    sets = [
        ("sudoku 9x9", load(DATA / "sudoku9_hard.txt", 10)),
        ("slitherlink 10x10", load(DATA / "slither10_hard.txt", 10)),
        ("nurikabe 10x10", load(DATA / "nurikabe_10x10.txt", 5)
         + load(SHARED / "external" / "nurikabe" / "janko_nurikabe_sample.txt", 5, (10, 10))),
    ]
    rows = []
    for label, puzzles in sets:
        for k in (1, 5):
            cpu, wall, statuses, undecided = [], [], {}, []
            for p in puzzles:
                report(p)  # warm the shared session where the genre shares one
                for seed in range(seeds):
                    found, c, w = timed(lambda: report(removed(p, k, seed)))
                    cpu.append(c)
                    wall.append(w)
                    statuses[found.status] = statuses.get(found.status, 0) + 1
                    undecided.append(len(found.undecided))
            rows.append([label, str(k), str(len(cpu)), f"{statistics.median(cpu):.1f}",
                         f"{max(cpu):.1f}", f"{statistics.median(wall):.1f}",
                         ", ".join(f"{n} {s}" for s, n in sorted(statuses.items())),
                         f"{statistics.median(undecided):g}"])
    return rows


#: Each timing of table (b) and (c) is the least of this many runs (``--best-of``).
BEST_OF = 1


def fresh_check(puzzle, clue_learning: bool = False) -> tuple[object, float]:
    """A check with no session to reuse (encode, load, solve, report, checker): CPU ms, the least
    of :data:`BEST_OF` runs. On a plain session (as ``satgrid ambiguity`` checks), or
    (``clue_learning``) on one that learns over the clue selectors, as an editor's first check
    does."""
    best = None
    for _ in range(BEST_OF):
        drop_sessions()
        with Editor(puzzle, clue_learning=clue_learning) as editor:
            check, cpu, _ = timed(editor.check)
        assert not check.reused
        best = cpu if best is None else min(best, cpu)
    return check, best


def rechecks(puzzle, key, value, keep_proofs: bool) -> list[tuple[object, float]]:
    """An editor that checked ``puzzle`` re-checks it with the clue at ``key`` removed, then put
    back (``value``): each (check, CPU ms), the times the least of :data:`BEST_OF` editors."""
    runs = []
    for _ in range(BEST_OF):
        drop_sessions()
        editor = Editor(puzzle, keep_proofs=keep_proofs)
        editor.check()
        editor.remove_clue(key)
        removed, cpu_removed, _ = timed(editor.check)
        editor.set_clue(key, value)
        back, cpu_back, _ = timed(editor.check)
        editor.close()
        runs.append([(removed, cpu_removed), (back, cpu_back)])
    return [(runs[0][k][0], min(run[k][1] for run in runs)) for k in range(2)]


def live_rows(edits: int) -> tuple[list[list[str]], list[list[str]]]:
    """Per puzzle and edit kind (a clue removed; put back): the median CPU of a fresh check of
    the edited puzzle, and of its re-check on the editor's session, answered by search alone
    (``keep_proofs=False``) and with the editor's kept proofs, over ``edits`` clues (table b);
    and of the fresh check on a plain session and on a learning one (table c)."""
    rows: list[list[str]] = []
    learning: list[list[str]] = []  # table (c)
    for label, path in (("slitherlink 30x30", DATA / "slither30.txt"),
                        ("nurikabe 30x30", DATA / "nurikabe_30x30.txt")):
        puzzle = api.load([str(path)])[0]
        clues = puzzle.clues()
        keys = random.Random(1).sample(sorted(clues), edits)
        kinds = ("clue removed", "clue put back")
        times: dict[str, dict[str, list[float]]] = {
            k: {"fresh": [], "learning": [], "search": [], "proofs": []} for k in kinds}
        statuses: dict[str, int] = {}
        reused: dict[str, int] = {k: 0 for k in kinds}
        for key in keys:
            edited = dict(clues)
            del edited[key]
            for kind, target in zip(kinds, (puzzle.with_clues(edited), puzzle)):
                check, cpu = fresh_check(target)
                times[kind]["fresh"].append(cpu)
                times[kind]["learning"].append(fresh_check(target, clue_learning=True)[1])
                if kind == kinds[0]:
                    statuses[check.status] = statuses.get(check.status, 0) + 1
            for mode in ("search", "proofs"):
                for kind, (check, cpu) in zip(kinds, rechecks(puzzle, key, clues[key], mode == "proofs")):
                    times[kind][mode].append(cpu)
                    reused[kind] += check.reused and mode == "search"
        for kind in kinds:
            f = statistics.median(times[kind]["fresh"])
            a, b = statistics.median(times[kind]["search"]), statistics.median(times[kind]["proofs"])
            learning.append([label, kind, str(len(keys)), f"{f:.1f}",
                             f"{statistics.median(times[kind]['learning']):.1f}"])
            rows.append([label, kind, str(len(keys)), f"{f:.1f}", f"{a:.1f}", f"1/{f / a:.1f}",
                         f"{b:.1f}", f"1/{f / b:.1f}", f"{reused[kind]}/{len(keys)}",
                         ", ".join(f"{n} {s}" for s, n in sorted(statuses.items()))
                         if kind == kinds[0] else "unique"])
    return rows, learning


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--report", action="store_true", help="only (a)")
    ap.add_argument("--live", action="store_true", help="only (b) and (c)")
    ap.add_argument("--seeds", type=int, default=3, help="removals per puzzle in (a)")
    ap.add_argument("--edits", type=int, default=10, help="clues edited in (b)")
    ap.add_argument("--best-of", type=int, default=1,
                    help="each time in (b) and (c) the least of this many runs (a loaded machine)")
    args = ap.parse_args()
    global BEST_OF
    BEST_OF = max(1, args.best_of)
    both = not (args.report or args.live)
    if args.report or both:
        table("(a) ambiguity report, clues removed from unique puzzles (ms; cap 10)",
              ["puzzles", "removed", "runs", "median CPU", "max CPU", "median wall",
               "statuses", "median undecided"], report_rows(args.seeds))
    if args.live or both:
        rows, learning = live_rows(args.edits)
        table("(b) live re-check after one edit against a fresh check of the edited puzzle (ms CPU)",
              ["puzzle", "edit", "edits", "fresh", "re-check by search", "ratio",
               "re-check with proofs", "ratio", "same solver", "statuses"], rows)
        table("(c) a fresh check on a plain session and on one that learns over the clue "
              "selectors (an editor's first check; ms CPU)",
              ["puzzle", "edit", "edits", "fresh", "fresh, learning"], learning)


if __name__ == "__main__":
    main()
