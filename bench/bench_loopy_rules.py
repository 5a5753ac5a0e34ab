"""The thesis's logic rules against sgt-loopy's difficulty levels: generate square-grid puzzles
at each level (easy, normal, tricky, hard) with Debian's sgt-loopy, grade each with the shipped
rules (``satgrid rules grade``) and print the agreement table: the share solved by the rules
alone (with and without loop avoidance), the share of edges they decide, the rules used.

    python bench/bench_loopy_rules.py [--size 7] [--count 20] [--seed S]

Times are CPU seconds (time.process_time) of the deduction alone; the machine is shared.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import time
from collections import Counter

from common import table

from satgrid import api
from satgrid.genres.slitherlink import logic_rules, rule_solver

LEVELS = (("easy", "e"), ("normal", "n"), ("tricky", "t"), ("hard", "h"))


def generate(size: int, level: str, count: int, seed: str) -> list[str]:
    params = f"{size}x{size}t0d{level}"
    out = subprocess.run(["/usr/games/sgt-loopy", "--generate", str(count), f"{params}#{seed}"],
                         check=True, capture_output=True, text=True).stdout
    return [line.strip() for line in out.splitlines() if line.strip()]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=7)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed", default="rules")
    args = ap.parse_args()
    rules = tuple(logic_rules.load_rules())
    rows, used_rows = [], []
    for name, letter in LEVELS:
        ids = generate(args.size, letter, args.count, args.seed)
        puzzles = api.load_text("\n\n".join(ids))
        alone = alone_without = 0
        shares, cpu, used, fallback = [], [], Counter(), 0
        for puzzle in puzzles:
            start = time.process_time()
            graded = rule_solver.grade(puzzle, rules)
            cpu.append(time.process_time() - start)
            bare = rule_solver.deduce(puzzle.clues(), puzzle.rows, puzzle.cols, rules, loop_avoidance=False)
            alone += not graded.search
            alone_without += rule_solver.solution_of(bare) is not None
            fallback += graded.search
            shares.append((graded.by_rules + graded.by_loop_avoidance) / graded.deduction.edges)
            used.update(graded.rules_used().keys())
        n = len(puzzles)
        rows.append([name, str(n), f"{100 * alone_without / n:.0f}%", f"{100 * alone / n:.0f}%",
                     f"{100 * fallback / n:.0f}%", f"{100 * statistics.mean(shares):.0f}%",
                     f"{100 * min(shares):.0f}%", f"{len(used)}", f"{1000 * statistics.median(cpu):.0f}"])
        used_rows.append([name, " ".join(f"{r}:{used[r]}" for r in sorted(used, key=lambda r: int(r[1:])))])
    table(f"sgt-loopy levels against the 36 logic rules ({args.size}x{args.size}, {args.count} a level, "
          f"seed {args.seed!r})",
          ["level", "puzzles", "rules alone", "+loop avoid.", "search", "edges decided (mean)",
           "(min)", "rules used", "grade CPU ms (median)"], rows)
    table("rules used (puzzles that needed each rule)", ["level", "rule:puzzles"], used_rows)


if __name__ == "__main__":
    main()
