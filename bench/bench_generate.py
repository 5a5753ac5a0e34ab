"""Generation benchmark: the source papers' experiments, side by side with Debian's sgt-puzzles.

    .venv/bin/python bench/bench_generate.py [--quick] [--skip-sgt] [--sgt-timeout S] [--only GENRE]

Tables:
1. Sudoku 9x9, levels 1-5 (Xue, Jiang, Li 2009), 100 puzzles a level (--quick: 20): givens
   (median/min/max), ms per puzzle (median and max; generation only, and the audit every puzzle
   gets from the driver), share of clue-minimal puzzles, the paper's difficulty score, and, when
   satgrid/grading.py exists, the propagation grade. Level 5 again with a SAT call for every cell
   (no singles test). The paper: 1088 ms per evil puzzle with pruning, 55106 ms without, on a
   2.66 GHz Pentium 4. Then level 5 with and without pruning (``make(prune=False)``: passes over
   the dig order until one digs nothing), with and without the singles test, on the level-5
   row's seeds: givens, ms and SAT calls per puzzle, the ratio to the pruned run, and how many
   puzzles came out the same as the pruned run's.
2. sgt-solo --generate at every difficulty letter (t trivial, b basic, i intermediate, a advanced,
   e extreme, u unreasonable), asymmetric ('3x3ad<letter>'), same count: time per puzzle (the
   whole run divided by the count), givens, and the share satgrid's audit finds clue-minimal.
3. Sudoku 16x16 and 25x25 at level 5 (and sgt-solo at the same sizes, within --sgt-timeout).
4. Slitherlink 3x3 ... 10x10 (van Dam 2008), normal and hard, against sgt-loopy
   --generate 'WxHt0d<e|n|t|h>': time per puzzle and remaining clues as a fraction of cells.
   Like sgt-loopy's batch, satgrid's puzzles are timed back to back and audited afterwards.
   satgrid hard and sgt-loopy h take turns for --rounds rounds (default 9) of the same puzzles;
   their time is the median of the rounds' means, with the range; below the table, each size's
   round-by-round ratio (satgrid hard's mean over sgt-loopy h's, the two batches of a round run
   back to back, so a slow spell of the machine falls on both). The hard rows also give the
   mean with the driver's audit between puzzles (same puzzles). Runs
   only when satgrid/genres/slitherlink/generator.py exists (it is written separately); otherwise the
   table says so.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from satgrid import api  # noqa: E402
from bench.common import table  # noqa: E402
from satgrid.generators import (GENERATORS, audit_generated, default_options, derive_seed,  # noqa: E402
                                generate_one, make_timed)
from satgrid.genres.sudoku import generator as sg  # noqa: E402

import random  # noqa: E402

SOLO = "/usr/games/sgt-solo"
LOOPY = "/usr/games/sgt-loopy"
SOLO_LETTERS = {"t": "trivial", "b": "basic", "i": "intermediate", "a": "advanced",
                "e": "extreme", "u": "unreasonable"}
LOOPY_LETTERS = {"e": "easy", "n": "normal", "t": "tricky", "h": "hard"}


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):g} / {min(values):g} / {max(values):g}"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def distribution(values: list[int]) -> str:
    return " ".join(f"{v}:{values.count(v)}" for v in sorted(set(values)))


# -- satgrid ------------------------------------------------------------------------------------
def sudoku_rows(n: int, levels, count: int, seed: int) -> list[list[str]]:
    generate_one("sudoku", n, n, seed, level=5)  # warm: the size's solver is built once
    rows = []
    for level in levels:
        made = [generate_one("sudoku", n, n, derive_seed(seed + level, i), level=level)
                for i in range(count)]
        givens = [len(m.puzzle.clues()) for m in made]
        gen = [m.generate_s for m in made]
        audit = [m.result.stats.time_s for m in made]
        grades = [m.grade for m in made if m.grade is not None]
        rows.append([f"{n}x{n}", str(level), sg.LEVELS[level].name, str(count), spread(givens),
                     ms(statistics.median(gen)), ms(max(gen)), ms(statistics.median(audit)),
                     f"{100 * sum(bool(m.result.minimal) for m in made) / count:.0f}%",
                     distribution([m.extra["paper_level"] for m in made]),
                     distribution(grades) if grades else "-"])
    return rows


def timed_evil(count: int, seed: int, **options) -> tuple[list[float], list[sg.Generated]]:
    """Seconds and results of ``sg.make`` at 9x9 level 5 on the level-5 row's seeds."""
    times, made = [], []
    for i in range(count):
        start = time.perf_counter()
        made.append(sg.make(9, 9, random.Random(derive_seed(seed + 5, i)), level=5, **options))
        times.append(time.perf_counter() - start)
    return times, made


def sat_only_row(count: int, seed: int) -> list[str]:
    times, made = timed_evil(count, seed, singles=False)
    givens = [len(m.puzzle.clues()) for m in made]
    return ["9x9", "5", "evil, SAT call for every cell", str(count), spread(givens),
            ms(statistics.median(times)), ms(max(times)), "-", "-", "-", "-"]


def pruning_rows(count: int, seed: int) -> list[list[str]]:
    """Level 5 with and without pruning, each with and without the singles test."""
    rows = []
    for singles in (True, False):
        runs = {prune: timed_evil(count, seed, singles=singles, prune=prune) for prune in (True, False)}
        base, pruned = statistics.median(runs[True][0]), runs[True][1]
        for prune in (True, False):
            times, made = runs[prune]
            same = "-" if prune else f"{sum(m.puzzle == p.puzzle for m, p in zip(made, pruned))}/{count}"
            rows.append(["with" if prune else "without", "singles test" if singles else "SAT only",
                         str(count), spread([len(m.puzzle.clues()) for m in made]),
                         ms(statistics.median(times)),
                         f"{statistics.median(m.stats.sat_calls for m in made):g}",
                         f"{statistics.median(m.stats.tried for m in made):g}",
                         f"{statistics.median(m.stats.passes for m in made):g}",
                         f"{statistics.median(times) / base:.2f}", same])
    return rows


# -- sgt-puzzles --------------------------------------------------------------------------------
def sgt_run(program: str, params: str, count: int, timeout: float) -> tuple[float, list[str]] | None:
    """(seconds per puzzle, game IDs) of ``program --generate count params``, None on timeout."""
    start = time.perf_counter()
    try:
        proc = subprocess.run([program, "--generate", str(count), params], capture_output=True,
                              text=True, timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return None
    wall = time.perf_counter() - start
    ids = proc.stdout.split()
    return wall / len(ids), ids


def solo_rows(size: str, letters: str, count: int, timeout: float, audit: bool = True) -> list[list[str]]:
    rows = []
    for letter in letters:
        params = f"{size}ad{letter}#satgrid-bench"
        run = sgt_run(SOLO, params, count, timeout)
        if run is None:
            rows.append([params, SOLO_LETTERS[letter], str(count), f"not done in {timeout:g} s",
                         "-", "-"])
            continue
        per, ids = run
        puzzles = [api.load_text(i)[0] for i in ids]
        givens = [len(p.clues()) for p in puzzles]
        minimal = "-"
        if audit:
            share = sum(bool(api.solve(p, audit=True).minimal) for p in puzzles) / len(puzzles)
            minimal = f"{100 * share:.0f}%"
        rows.append([params, SOLO_LETTERS[letter], str(len(ids)), ms(per), spread(givens), minimal])
    return rows


# -- Slitherlink --------------------------------------------------------------------------------
def loopy_row(size: int, letter: str, run: tuple[float, list[str]] | None, count: int,
              timeout: float, per: str | None = None) -> list[str]:
    """The table row of an sgt-loopy batch (``per``: its time column, if not the batch's own)."""
    if run is None:
        return [f"{size}x{size}", f"sgt-loopy {letter}", str(count), f"not done in {timeout:g} s",
                "-", "-", "-", "-"]
    seconds, ids = run
    puzzles = [api.load_text(i)[0] for i in ids]
    fraction = [len(p.clues()) / (size * size) for p in puzzles]
    minimal = sum(bool(api.solve(p, audit=True).minimal) for p in puzzles) / len(puzzles)
    return [f"{size}x{size}", f"sgt-loopy {letter} ({LOOPY_LETTERS[letter]})", str(len(ids)), "-",
            per or ms(seconds), "-", f"{100 * statistics.mean(fraction):.1f}%", f"{100 * minimal:.0f}%"]


def over_rounds(means: list[float]) -> str:
    """The median of per-round means, with their range when there are several rounds."""
    middle = ms(statistics.median(means))
    return middle if len(means) == 1 else f"{middle} ({ms(min(means))}-{ms(max(means))})"


def slitherlink_rows(sizes, count: int, seed: int, timeout: float, skip_sgt: bool,
                     rounds: int) -> tuple[list[list[str]], dict[int, list[float]]]:
    """satgrid's rows time a batch the way sgt-loopy's --generate does: the puzzles are made back
    to back, then every one is audited (unique, minimal). The hard flavour and sgt-loopy's hard
    level take turns for ``rounds`` rounds of the same puzzles, so a slow spell of the machine
    falls on both; their time column is the median of the rounds' means (and the range). The
    driver audits each puzzle before it makes the next; the hard rows also give that mean
    ("audit between"), on the same seeds. The hard rows' median is the median of the rounds'.
    Also returned, by size: each round's satgrid hard mean over sgt-loopy h's (the two batches
    of a round run back to back)."""
    rows, paired = [], {}
    for size in sizes:
        seeds = [derive_seed(seed + size, i) for i in range(count)]
        normal = [audit_generated(m) for m in
                  [make_timed("slitherlink", size, size, s, flavour="normal") for s in seeds]]
        hard_medians, hard_means, loopy_means, hard, loopy = [], [], [], [], None
        for _ in range(rounds):
            batch = [make_timed("slitherlink", size, size, s, flavour="hard") for s in seeds]
            assert not hard or [m.puzzle for m in batch] == [m.puzzle for m in hard]
            hard, gen = batch, [m.generate_s for m in batch]
            hard_medians.append(statistics.median(gen))
            hard_means.append(statistics.mean(gen))
            if not skip_sgt:
                run = sgt_run(LOOPY, f"{size}x{size}t0dh#satgrid-bench", count, timeout)
                loopy = loopy or run
                if run is not None:
                    loopy_means.append(run[0])
                    paired.setdefault(size, []).append(hard_means[-1] / run[0])
        audited = [audit_generated(m) for m in hard]
        one_by_one = [generate_one("slitherlink", size, size, s, flavour="hard") for s in seeds]
        assert [m.puzzle.givens for m in one_by_one] == [m.puzzle.givens for m in audited]
        for flavour, made, mean in (("normal", normal, None), ("hard", audited, hard_means)):
            fraction = [len(m.puzzle.clues()) / (size * size) for m in made]
            gen = [m.generate_s for m in made]
            rows.append([f"{size}x{size}", f"satgrid {flavour}", str(count),
                         ms(statistics.median(hard_medians if mean else gen)),
                         over_rounds(mean) if mean else ms(statistics.mean(gen)),
                         ms(statistics.mean(m.generate_s for m in one_by_one)) if mean else "-",
                         f"{100 * statistics.mean(fraction):.1f}%",
                         f"{100 * sum(bool(m.result.minimal) for m in made) / count:.0f}%"])
        if skip_sgt:
            continue
        for letter in LOOPY_LETTERS:
            if letter == "h":
                per = over_rounds(loopy_means) if loopy_means else None
                rows.append(loopy_row(size, letter, loopy, count, timeout, per))
            else:
                params = f"{size}x{size}t0d{letter}#satgrid-bench"
                rows.append(loopy_row(size, letter, sgt_run(LOOPY, params, count, timeout), count,
                                      timeout))
    return rows, paired


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer puzzles (a smoke run)")
    parser.add_argument("--skip-sgt", action="store_true", help="leave out sgt-puzzles")
    parser.add_argument("--sgt-timeout", type=float, default=None,
                        help="seconds per sgt-puzzles run (default 300, --quick 60)")
    parser.add_argument("--seed", type=int, default=2009)
    parser.add_argument("--only", choices=["sudoku", "slitherlink"], help="one genre's tables")
    parser.add_argument("--rounds", type=int, default=None,
                        help="rounds of Slitherlink hard against sgt-loopy h (default 9, --quick 2)")
    args = parser.parse_args()
    if args.rounds is not None and args.rounds < 1:
        parser.error("--rounds must be at least 1")
    count = 20 if args.quick else 100
    timeout = args.sgt_timeout or (60 if args.quick else 300)
    have_sgt = not args.skip_sgt and Path(SOLO).exists()

    print("# satgrid generation benchmark")
    print(f"python-sat solvers: each generator's own (Sudoku {api.Options().solver}, Slitherlink "
          f"{default_options('slitherlink').solver}); ms are wall-clock per puzzle in one warm "
          f"process; seed {args.seed}")

    if args.only != "slitherlink":
        sudoku_tables(args, count, timeout, have_sgt)
    if args.only != "sudoku":
        slitherlink_table(args, timeout, not args.skip_sgt and Path(LOOPY).exists())


def sudoku_tables(args, count: int, timeout: float, have_sgt: bool) -> None:
    header = ["size", "level", "name", "puzzles", "givens med/min/max", "gen ms med", "gen ms max",
              "audit ms med", "minimal", "paper level", "grade"]
    rows = sudoku_rows(9, range(1, 6), count, args.seed)
    rows.append(sat_only_row(count, args.seed))
    table("Sudoku 9x9 by dig-hole, levels 1-5 (with pruning: each cell tried once)", header, rows)
    print("paper (Xue, Jiang, Li 2009, 2.66 GHz Pentium 4): 1088 ms per evil puzzle with pruning, "
          "55106 ms without")
    table("Sudoku 9x9 level 5 without pruning (every remaining given asked again, pass after "
          "pass, until a pass digs nothing), same seeds as level 5",
          ["pruning", "uniqueness test", "puzzles", "givens med/min/max", "gen ms med",
           "SAT calls med", "tried med", "passes med", "x pruned ms", "same puzzle as pruned"],
          pruning_rows(count, args.seed))
    print(f"paper: 1088 ms with pruning, 55106 ms without ({55106 / 1088:.1f}x)")

    if have_sgt:
        table(f"sgt-solo --generate {count} '3x3ad<letter>#seed' (asymmetric), same machine",
              ["params", "difficulty", "puzzles", "ms per puzzle", "givens med/min/max", "minimal"],
              solo_rows("3x3", "tbiaeu", count, timeout))

    big = [(16, 2 if args.quick else 10), (25, 1 if args.quick else 3)]
    rows = []
    for n, k in big:
        rows += sudoku_rows(n, [5], k, args.seed)
    table("Sudoku 16x16 and 25x25, level 5 (clue-minimal)", header, rows)
    if have_sgt:
        rows = []
        for size, k in (("4x4", 2 if args.quick else 5), ("5x5", 1 if args.quick else 2)):
            rows += solo_rows(size, "tbu", k, timeout, audit=False)
        table(f"sgt-solo at 16x16 and 25x25 (asymmetric; each run limited to {timeout:g} s)",
              ["params", "difficulty", "puzzles", "ms per puzzle", "givens med/min/max", "minimal"],
              rows)


def slitherlink_table(args, timeout: float, have_sgt: bool) -> None:
    sizes = range(3, 11)
    if "slitherlink" in GENERATORS:
        header = ["size", "generator", "puzzles", "gen ms med", "ms per puzzle (mean)",
                  "mean, audit between", "clues / cells", "minimal"]
        rows, paired = slitherlink_rows(sizes, 10 if args.quick else 100, args.seed, timeout,
                                        not have_sgt, args.rounds or (2 if args.quick else 9))
        table("Slitherlink 3x3 ... 10x10 (van Dam 2008: about 44% normal, 41% hard), "
              "against sgt-loopy", header, rows)
        if paired:
            print("\nsatgrid hard / sgt-loopy h, round by round (a round's two batches run back "
                  "to back): median (range)")
            for size, ratios in paired.items():
                print(f"  {size}x{size}: {statistics.median(ratios):.2f} "
                      f"({min(ratios):.2f}-{max(ratios):.2f}), {len(ratios)} rounds")
    else:
        print("\n## Slitherlink 3x3 ... 10x10 against sgt-loopy")
        print("not run: satgrid/genres/slitherlink/generator.py is not present yet (this table fills "
              "in once GENERATORS has 'slitherlink')")


if __name__ == "__main__":
    main()
