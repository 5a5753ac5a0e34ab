"""The size of each genre's statement and of its encoding: the lines of its ``rules`` function
(code only: no docstrings, comments or blank lines) and, on its first bundled example, the
clauses each named rule produces (the builder's spans), each global rule's clauses in its two
lowerings, and the clues' clauses.

    .venv/bin/python bench/genre_sizes.py [--vocabulary]

``--vocabulary``: instead, each rule of the vocabulary built alone on an empty grid (the figures
of encodings/rules.md).
"""
from __future__ import annotations

import sys
from collections import Counter
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from satgrid import api  # noqa: E402
from satgrid.grid import Grid  # noqa: E402
from satgrid.model import Model, statement_lines  # noqa: E402
from satgrid.registry import GENRES  # noqa: E402


TETROMINOES = [((0, 0), (0, 1), (0, 2), (0, 3)), ((0, 0), (0, 1), (1, 0), (1, 1)),
               ((0, 0), (1, 0), (2, 0), (2, 1)), ((0, 0), (0, 1), (0, 2), (1, 1)),
               ((0, 0), (0, 1), (1, 1), (1, 2))]


def vocabulary() -> None:
    """Each rule built alone: clauses per named rule, and the global rules' two lowerings."""
    ten, nine = Grid.of(10, 10), Grid.of(9, 9)
    rooms = [[(r, c) for r in range(r0, r0 + 2) for c in range(c0, c0 + 5)]
             for r0 in range(0, 10, 2) for c0 in range(0, 10, 5)]

    def cells(m: Model) -> None:
        s = m.cells()
        m.not_adjacent("not_adjacent", s)
        m.no_2x2("no_2x2", s)
        m.connected("connected", {p: -x for p, x in s.items()})

    def shapes(m: Model) -> None:
        s = m.cells()
        m.equal_shapes_apart("equal_shapes_apart", rooms, s, m.shapes_in_rooms("shapes_in_rooms", rooms, s, TETROMINOES))

    def counts(m: Model) -> None:
        s = m.cells()
        m.count_in("count_in (10 cells, k=3)", ten.row(0), s, 3)
        m.exactly("exactly (100 cells, k=30)", list(s.values()), 30)

    seeds = {(1, 1): 4, (1, 8): 3, (5, 5): 6, (8, 2): None, (8, 8): 2}

    def islands(m: Model) -> None:
        s = m.cells()
        m.clue(m.islands_with_one_seed("islands_with_one_seed", {p: -x for p, x in s.items()}, seeds).size)

    cases = [
        ("10x10 cells", ten, cells),
        ("10x10 links", ten, lambda m: m.single_loop("single_loop (cell centres)", m.links())),
        ("10x10 edges", ten, lambda m: m.single_loop("single_loop (lattice)", m.edges())),
        ("9x9 numbers", nine, lambda m: m.all_different("all_different", m.numbers("digit", range(1, 10)),
                                                        [*nine.lines(), *nine.boxes(3, 3)])),
        ("10x10 counts", ten, counts),
        ("10x10 sightline", ten, lambda m: m.sightline_count(
            "sightline_count (centre, k=7)", (4, 4), {p: -x for p, x in m.cells().items()}, 7)),
        ("10x10 in 10 rooms of 2x5", ten, shapes),
        ("10x10 with 5 seeds (sizes 4, 3, 6, none, 2)", ten, islands),
    ]
    for label, grid, build in cases:
        m = Model(grid)
        build(m)
        encoding = m.build()
        sizes: Counter[str] = Counter()
        for rule, start, end in encoding.spans:
            sizes[rule] += end - start
        print(f"### {label}: {encoding.pool.top} variables")
        for rule, count in sizes.items():
            print(f"  {count:>7}  {rule}")
        for rule in encoding.rules:
            print(f"  {len(rule.clauses(encoding.pool)):>7}  {rule.name} (both lowerings); eager lowering "
                  f"{len(rule.eager_clauses(encoding.pool.copy()))} more")
        if build is islands:
            sized = {p: n for p, n in seeds.items() if n is not None}
            print(f"  {sum(len(encoding.encode_clue(p, n).clauses) for p, n in sized.items()):>7}  "
                  f"the {len(sized)} sizes (clues, behind their selectors)")


def main() -> None:
    if "--vocabulary" in sys.argv[1:]:
        vocabulary()
        return
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
