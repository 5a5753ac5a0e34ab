"""The size of each genre's statement and of its encoding: the lines of its ``rules`` function
(code only: no docstrings, comments or blank lines) and, on its first bundled example, the
clauses each named rule produces (the builder's spans), each global rule's clauses in its two
lowerings, and the clues' clauses.

    .venv/bin/python bench/genre_sizes.py
"""
from __future__ import annotations

import sys
from collections import Counter
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from satgrid import api  # noqa: E402
from satgrid.model import statement_lines  # noqa: E402
from satgrid.registry import GENRES  # noqa: E402


def main() -> None:
    print("## rules per genre (lines of code of its rules function)")
    print(f"{'genre':<14} {'lines':>5}")
    for name, genre in GENRES.items():
        rules = getattr(genre.module, "rules", None)
        print(f"{name:<14} {statement_lines(rules) if rules else 'not on the builder':>5}")
    print()
    print("## clauses per named rule on the first bundled example")
    for name, genre in GENRES.items():
        puzzle = api.load([str(resources.files("satgrid") / "data" / genre.examples)])[0]
        encoding = genre.encode(puzzle)
        sizes: Counter[str] = Counter()
        for rule, start, end in encoding.spans:
            sizes[rule] += end - start
        print(f"### {name} {puzzle.name} ({puzzle.rows}x{puzzle.cols}): {encoding.pool.top} variables, "
              f"{len(encoding.clauses)} clauses, global rules: "
              f"{', '.join(rule.name for rule in encoding.rules) or 'none'}")
        for rule, count in sizes.items():
            print(f"  {count:>7}  {rule}")
        if not encoding.spans:
            print("  (no named rules: not on the builder)")
        for rule in encoding.rules:
            always = len(rule.clauses(encoding.pool))
            eager = len(rule.eager_clauses(encoding.pool.copy()))
            print(f"  {always:>7}  {rule.name} (global rule: clauses in both lowerings; eager "
                  f"lowering {eager} more; lazy: cuts as needed)")
        clues = puzzle.clues()
        clue_clauses = sum(len(encoding.encode_clue(key, value).plain()) for key, value in clues.items())
        print(f"  {clue_clauses:>7}  the {len(clues)} clues (behind their selectors)")


if __name__ == "__main__":
    main()
