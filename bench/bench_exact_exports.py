"""Is each genre's eager DIMACS export exact on its own? Prints a table.

    .venv/bin/python bench/bench_exact_exports.py [--solver NAME] [--cap N]

Per genre, its bundled puzzles of at most 64 cells (the first two), with clues removed in a fixed
order until the puzzle has several solutions (the room genres have no clues: they stay unique).
Two counts of the solutions, projected on the primary variables:

* **eager**: every model of the eager export (``dimacs.build``, what ``satgrid encode`` writes),
  enumerated with blocking clauses by ``--solver`` (an embedded name, or ``external:cadical``
  and the like: then one run of the binary a model), each decoded and passed through the
  genre's independent checker (a model that fails it is an error of the export);
* **brute force**: every model of the lazy export (the rules without the connectivity and loop
  rules, a superset of the solutions), each decoded and judged by the checker alone; the
  accepted ones are the solutions. Stops after ``--cap`` base models (then "?").

The two sets of solutions (as the genre renders them) must be equal. CPU seconds of this process
(``time.process_time``; an external binary's time is not in it).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from satgrid import api, dimacs  # noqa: E402
from satgrid.registry import GENRES  # noqa: E402
from satgrid.solver import open_solver  # noqa: E402
from bench.common import table  # noqa: E402


def solutions(puzzle, connectivity: str, solver: str, cap: int) -> tuple[set[str] | None, int]:
    """The rendered solutions among the export's models (None past ``cap`` models), and the
    models seen. Eager models must all pass the checker."""
    g = GENRES[puzzle.genre]
    export = dimacs.build(puzzle, connectivity)
    primary = [int(v) for v in export.varmap["primary"]]
    found: set[str] = set()
    models = 0
    sat = open_solver(solver)
    try:
        sat.add(export.clauses)
        while sat.solve():
            models += 1
            if models > cap:
                return None, models
            model = sat.model()
            decoded = dimacs.decode_model(puzzle, tuple(model), connectivity, "plain")
            if decoded.problems and connectivity == "eager":
                raise AssertionError(f"{puzzle.name}: a model of the eager export breaks a rule: "
                                     f"{decoded.problems[0]}")
            if not decoded.problems:
                found.add(g.render(puzzle, decoded.solution))
            sat.add([[-v if model[v - 1] > 0 else v for v in primary]])
    finally:
        sat.close()
    return found, models


def ambiguous(puzzle):
    """``puzzle`` with clues removed (every other one, in key order, one at a time) until it has
    several solutions, or with all of them removed that way."""
    current = puzzle
    for key in sorted(puzzle.clues())[::2]:
        current = current.with_clues({k: v for k, v in current.clues().items() if k != key})
        if api.solve(current, unique=True).status == "multiple":
            break
    return current


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--solver", default="cadical153")
    parser.add_argument("--cap", type=int, default=20000, help="base models enumerated at most")
    args = parser.parse_args()
    rows = []
    for name in GENRES:
        puzzles = [p for p in api.load([str(ROOT / "satgrid" / "data" / f"{name}.txt")])
                   if p.rows * p.cols <= 64][:2]
        for original in puzzles:
            puzzle = ambiguous(original)
            started = time.process_time()
            eager, models = solutions(puzzle, "eager", args.solver, args.cap)
            brute, base = solutions(puzzle, "lazy", "cadical153", args.cap)
            verdict = "?" if brute is None else "yes" if brute == eager else "NO"
            rows.append([name, puzzle.name, f"{puzzle.rows}x{puzzle.cols}", len(puzzle.clues()),
                         len(eager), base if brute is not None else f">{args.cap}",
                         "?" if brute is None else len(brute), verdict,
                         f"{time.process_time() - started:.2f}"])
    table(f"eager exports against brute force (eager models enumerated by {args.solver})",
          ["genre", "puzzle", "size", "clues", "eager solutions", "base models", "brute force",
           "equal", "cpu s"], rows)


if __name__ == "__main__":
    main()
