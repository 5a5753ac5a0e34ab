"""Shared fixtures for the core's tests: enumerating every solution of a session."""
from __future__ import annotations

from typing import Callable, Sequence

import pytest

from satgrid.session import Session

Enumerate = Callable[..., set[tuple[bool, ...]]]


def _projections(
    session: Session, lits: Sequence[int], assumptions: Sequence[int] = (), limit: int = 100_000
) -> set[tuple[bool, ...]]:
    """Every solution of ``session`` under ``assumptions``, projected on ``lits``.

    Goes through :meth:`Session.solve` (so lazy rules add their cuts), blocking each projection
    found behind one activation literal that is switched off at the end: the session stays usable
    for later queries, as the engine's own uniqueness checks leave it.
    """
    act = session.encoding.pool.fresh("enumerate")
    found: set[tuple[bool, ...]] = set()
    try:
        while True:
            outcome = session.solve([*assumptions, act])
            if outcome.status == "unsat":
                return found
            assert outcome.status == "sat" and outcome.assignment is not None
            projection = tuple(outcome.assignment(lit) for lit in lits)
            assert projection not in found, "a blocked solution came back"
            found.add(projection)
            assert len(found) <= limit, "more solutions than expected"
            session.add([[-act, *(-lit if t else lit for lit, t in zip(lits, projection))]])
    finally:
        session.add([[-act]])


@pytest.fixture
def projections() -> Enumerate:
    """``projections(session, lits, assumptions=())``: every solution, projected on ``lits``."""
    return _projections
