"""``satgrid batch verify``: re-check stored solutions with the genres' independent checkers.

A random sample of the rows that hold a solution is read back: the puzzle from the stored input
(its text, else its puzz.link URL), read with the input options its run recorded (``--box``,
``--symbols``: the run's ``meta``), the solution (and second solution) from their JSON, and each
is put through the genre's rule checker (``checker.py``, plain Python, no SAT). A second
solution must also differ from the first. Nothing is solved again.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from .. import api
from ..errors import SatgridError
from ..registry import GENRES
from .store import Store


@dataclass
class Verified:
    """Rows checked, out of the rows with a solution, and the problems found (one line each)."""

    checked: int
    stored: int
    problems: list[str] = field(default_factory=list)


def verify(store: Store, sample: int, seed: int = 0) -> Verified:
    """Check ``sample`` rows drawn at random (``seed``) from those with a solution."""
    ids = [r[0] for r in store.db.execute(
        "SELECT task_id FROM results WHERE solution IS NOT NULL ORDER BY task_id")]
    chosen = sorted(random.Random(seed).sample(ids, min(sample, len(ids))))
    out = Verified(len(chosen), len(ids))
    metas = {run_id: _meta(options) for run_id, options in
             store.db.execute("SELECT run_id, options FROM runs")}
    for task_id in chosen:
        [row] = store.rows("WHERE task_id = ?", (task_id,))
        problem = _problem(row, metas.get(row["run_id"], {}))
        if problem:
            out.problems.append(f"task {task_id} ({row['source']}"
                                f"{'' if row['line'] is None else ':' + str(row['line'])}): {problem}")
    return out


def _meta(options: str | None) -> dict[str, str]:
    """The input options (``meta``: box, symbols) a run recorded with its verb's options."""
    try:
        meta = json.loads(options or "{}").get("meta") or {}
    except (ValueError, AttributeError):
        return {}
    return {k: v for k, v in meta.items() if isinstance(k, str) and isinstance(v, str)}


def _problem(row: dict[str, Any], meta: dict[str, str]) -> str | None:
    """Why the row's solution does not stand, or None."""
    try:
        [puzzle] = api.load_text(row["input"] or row["url"], row["source"] or "<store>", row["genre"],
                                 meta)
    except (SatgridError, ValueError) as exc:
        return f"the stored input does not read back: {exc}"
    g = GENRES[puzzle.genre]
    solutions = []
    for column in ("solution", "second_solution"):
        if row[column] is None:
            continue
        try:
            solution = g.solution_from_json(puzzle, json.loads(row[column]))
        except ValueError as exc:
            return f"the stored {column.replace('_', ' ')} does not read back: {exc}"
        problems = g.check(puzzle, solution)
        if problems:
            return f"the stored {column.replace('_', ' ')} breaks a rule: {problems[0]}"
        solutions.append(solution)
    if len(solutions) == 2 and not g.differences(puzzle, *solutions):
        return "the second solution is the first one"
    return None
