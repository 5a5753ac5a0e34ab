"""A solve that switches no clue off runs, on grids over ``api.SETTLED_CELLS`` cells, on a session
of its own whose clues are unit clauses: the same answers as on the shared session."""
from __future__ import annotations

import pytest

from satgrid import api
from satgrid.registry import GENRES

from .helpers import bundled


def answer(result: api.Result) -> tuple:
    """What a solve decides: the status, and the solution when it is the only one."""
    return result.status, result.unique, result.solution if result.status == "unique" else None


@pytest.mark.parametrize("name", sorted(GENRES))
def test_settled_solve_answers_as_the_shared_session(name: str, monkeypatch) -> None:
    for puzzle in bundled(name)[:2]:
        api._SESSIONS.clear()
        shared = api.solve(puzzle, unique=True)
        assert api._SESSIONS, "a small grid's solve uses the shared session"
        monkeypatch.setattr(api, "SETTLED_CELLS", 0)
        api._SESSIONS.clear()
        settled = api.solve(puzzle, unique=True)
        plain = api.solve(puzzle)
        monkeypatch.undo()
        assert not api._SESSIONS, "a settled session is the solve's own, closed after it"
        assert answer(settled) == answer(shared)
        assert plain.status == "solved" and (shared.status != "unique" or plain.solution == shared.solution)


def test_settled_solve_finds_a_second_solution_and_its_ambiguity(monkeypatch) -> None:
    """Two solutions (the 2 takes either neighbour); the ambiguity report asks with every clue
    on, so it runs on the settled session too."""
    [puzzle] = api.load_text("genre: nurikabe\n2 .\n. .\n")
    shared = api.solve(puzzle, unique=True, ambiguity=5)
    monkeypatch.setattr(api, "SETTLED_CELLS", 0)
    api._SESSIONS.clear()
    result = api.solve(puzzle, unique=True, ambiguity=5)
    assert not api._SESSIONS
    assert result.status == "multiple" and result.solution != result.second_solution
    assert not api.GENRES["nurikabe"].check(puzzle, result.second_solution)
    assert result.ambiguity.lines(drawings=False) == shared.ambiguity.lines(drawings=False)


def test_audits_keep_the_shared_session(monkeypatch) -> None:
    """An audit switches clues off one by one: never on a settled session."""
    puzzle = bundled("nurikabe")[0]
    api._SESSIONS.clear()
    before = api.solve(puzzle, audit=True, grade=False)
    monkeypatch.setattr(api, "SETTLED_CELLS", 0)
    api._SESSIONS.clear()
    after = api.solve(puzzle, audit=True, grade=False)
    assert api._SESSIONS
    assert after.redundant_clues == before.redundant_clues and after.status == before.status == "unique"
