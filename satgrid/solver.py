"""The solver layer: python-sat's embedded solvers by name, with time and conflict limits.

A limit that is hit makes ``solve`` return ``None`` (status "unknown"), never an exception.
"""
from __future__ import annotations

import threading
import time
from typing import Iterable, Sequence

from pysat.solvers import Solver, SolverNames

from .cnf import Clause
from .errors import SolverError

#: Chosen by ``bench/solvers.py`` (many small incremental calls on Sudoku/Nurikabe/Slitherlink).
DEFAULT_SOLVER = "cadical153"

#: Solvers python-sat embeds that cannot serve incremental queries, with the reason.
NOT_INCREMENTAL = {
    "kissat404": "python-sat's kissat ignores assumptions and aborts on add_clause after solve; "
    "it can only serve one-shot solves (satgrid encode + an external solver)",
}


def embedded_solver_names() -> list[str]:
    """Every solver name (alias included) python-sat accepts."""
    names = []
    for attr in dir(SolverNames):
        if not attr.startswith("_"):
            names.extend(getattr(SolverNames, attr))
    return sorted(set(names))


class Assignment:
    """A SAT model as a function from literal to truth value (unset variables are false)."""

    __slots__ = ("model",)

    def __init__(self, model: Sequence[int]):
        self.model = model

    def __call__(self, lit: int) -> bool:
        var = lit if lit > 0 else -lit
        value = var <= len(self.model) and self.model[var - 1] > 0
        return value if lit > 0 else not value


class EmbeddedSolver:
    """One python-sat solver, used incrementally."""

    def __init__(self, name: str = DEFAULT_SOLVER, conflict_limit: int | None = None):
        if name in NOT_INCREMENTAL:
            raise SolverError(f"solver {name} cannot be used here: {NOT_INCREMENTAL[name]}")
        try:
            self._solver = Solver(name=name)
        except (NotImplementedError, ValueError):
            raise SolverError(
                f"unknown solver {name!r}; embedded solvers: {', '.join(embedded_solver_names())}"
            ) from None
        self.name = name
        self.conflict_limit = conflict_limit
        self.deadline: float | None = None

    def add(self, clauses: Iterable[Clause]) -> None:
        self._solver.append_formula(clauses)

    def solve(self, assumptions: Sequence[int] = ()) -> bool | None:
        """True (SAT), False (UNSAT) or None (a limit was hit)."""
        if self.deadline is None and self.conflict_limit is None:
            return self._solver.solve(assumptions=assumptions)
        timer = None
        if self.deadline is not None:
            remaining = self.deadline - time.monotonic()
            if remaining <= 0:
                return None
            timer = threading.Timer(remaining, self._solver.interrupt)
            timer.daemon = True
            timer.start()
        if self.conflict_limit is not None:
            self._solver.conf_budget(self.conflict_limit)
        try:
            return self._solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
        finally:
            if timer is not None:
                timer.cancel()
                self._solver.clear_interrupt()

    def model(self) -> list[int]:
        return self._solver.get_model()

    def propagate(self, assumptions: Sequence[int]) -> tuple[bool, list[int]]:
        """Unit propagation under ``assumptions``: (no conflict, implied literals)."""
        ok, lits = self._solver.propagate(assumptions=assumptions)
        return bool(ok), list(lits)

    def close(self) -> None:
        self._solver.delete()
