"""A shared session stays cached while its clues' variables are all it has grown by: the
variables a clue's clauses draw (counters, the islands' levels) are part of the encoding, made
once per clue, not the wear that retired blocking literals leave (:meth:`Session.worn`)."""
from __future__ import annotations

from satgrid import api, session as session_module
from satgrid.genres import nurikabe
from satgrid.session import Session

#: Two islands of 7 on a 6x6 grid: their sizes draw more variables (counters, levels) than the
#: rules (the puzzle has no solution; only its session matters here).
PUZZLE = "genre: nurikabe\n" + "\n".join(["7 . . . . ."] + [". . . . . ."] * 4 + [". . . . . 7"]) + "\n"


def test_clue_variables_are_no_wear(monkeypatch):
    monkeypatch.setattr(session_module, "MIN_WEAR", 0)
    [puzzle] = api.load_text(PUZZLE)
    session = Session(nurikabe.encode(puzzle))
    rules = session.encoding.pool.top
    session.selectors(puzzle.clues())
    assert session.encoding.pool.top - rules > rules  # counted as wear, the session were worn
    assert not session.worn()
    session.close()

    first = api.solve(puzzle, unique=True)
    shared, owned = api.session_for(puzzle, api.Options())
    assert not owned and not shared.worn()
    again = api.solve(puzzle, unique=True)
    assert api.session_for(puzzle, api.Options())[0] is shared  # reused, not rebuilt
    assert first.status == again.status == "unsatisfiable"
