"""Every genre's golden samples (its record's ``SAMPLES``: text, status of ``solve --unique``,
solution) through every path of the pipeline: solve, unique, audit, the eager DIMACS export solved
by a separate python-sat solver and decoded, the text, URL and game-ID round trips, the pzprv3
answer checked by the puz.link engine, the drawing; and the size of each genre's rules."""
from __future__ import annotations

import pytest
from pysat.solvers import Solver

from satgrid import api, dimacs, formats, render_svg
from satgrid.model import statement_lines
from satgrid.registry import GENRES

from .helpers import run_pzpr

#: The issue's bound on a genre's rules, in lines of code (no docstrings, comments, blank lines).
MAX_RULES_LINES = 60

SAMPLES = [(name, i, *sample) for name, genre in GENRES.items()
           for i, sample in enumerate(genre.part("SAMPLES", ()) or ())]


def load(name: str, text: str):
    [puzzle] = api.load_text(text, f"<{name} sample>", name)
    return puzzle


@pytest.mark.parametrize("name", sorted(GENRES))
def test_every_genre_has_golden_samples_and_short_rules(name):
    genre = GENRES[name]
    samples = genre.part("SAMPLES", ()) or ()
    assert any(status == "unique" and solution is not None for _, status, solution in samples), \
        f"{name} has no unique golden sample with its solution"
    rules = getattr(genre.module, "rules", None)
    assert rules is not None, f"{name} does not state its rules on the model builder"
    assert statement_lines(rules) <= MAX_RULES_LINES


@pytest.mark.parametrize("name, index, text, status, solution", SAMPLES)
def test_golden_sample_solves_and_audits(name, index, text, status, solution):
    puzzle = load(name, text)
    result = api.solve(puzzle, unique=True)
    assert result.status == status
    if solution is not None:
        assert result.solution == solution
    if status == "multiple":
        assert result.second_solution is not None and result.second_solution != result.solution
    if status == "unique":
        audit = api.solve(puzzle, audit=True)
        assert audit.status == "unique" and audit.minimal is not None
        assert set(audit.redundant_clues) <= set(puzzle.clues())


@pytest.mark.parametrize("name, index, text, status, solution",
                         [s for s in SAMPLES if s[3] != "multiple"])
def test_golden_sample_through_an_exact_dimacs_export(name, index, text, status, solution):
    """The eager export alone (no CEGAR), solved by a separate solver, decodes to the solution;
    an unsatisfiable sample's export is unsatisfiable."""
    puzzle = load(name, text)
    export = dimacs.build(puzzle, "eager")
    with Solver(name="minisat22", bootstrap_with=export.clauses) as solver:
        sat = solver.solve()
        model = solver.get_model() if sat else None
    assert sat == (status != "unsatisfiable")
    if sat:
        decoded = dimacs.decode_model(puzzle, tuple(model), "eager")
        assert decoded.problems == []
        if solution is not None:
            assert decoded.solution == solution


@pytest.mark.parametrize("name, index, text, status, solution", SAMPLES)
def test_golden_sample_round_trips_and_draws(name, index, text, status, solution):
    genre = GENRES[name]
    puzzle = load(name, text)
    again = load(name, formats.write(puzzle, "text"))
    assert again.clues() == puzzle.clues() and (again.rows, again.cols) == (puzzle.rows, puzzle.cols)
    for part, to in (("PUZZLINK", "url"), ("TATHAM", "tatham")):
        if genre.part(part) is not None:
            [back] = formats.read(formats.write(puzzle, to), genre=name)
            assert back.clues() == puzzle.clues()
    drawing = render_svg.svg(puzzle, solution)
    assert drawing.startswith("<svg") or drawing.startswith("<?xml")


@pytest.fixture(scope="module")
def pzpr_reports():
    """pzpr's verdict on the pzprv3 answer of every unique sample of every genre with a PZPRV3
    codec, in one node process."""
    items = [(name, index, formats.write(load(name, text), "pzprv3", solution))
             for name, index, text, status, solution in SAMPLES
             if status == "unique" and solution is not None and GENRES[name].part("PZPRV3") is not None]
    reports = run_pzpr([file for _, _, file in items])
    return {(name, index): report for (name, index, _), report in zip(items, reports)}


@pytest.mark.parametrize("name, index, text, status, solution",
                         [s for s in SAMPLES if s[3] == "unique" and s[4] is not None
                          and GENRES[s[0]].part("PZPRV3") is not None])
def test_golden_answer_is_accepted_by_the_puzzlink_engine(pzpr_reports, name, index, text, status, solution):
    from .pzpr_engine import NAME, unknown_type

    report = pzpr_reports[name, index]
    if unknown_type(report):
        pytest.skip(f"{NAME} does not have the pzprv3 type of {name}")
    assert report.get("complete") is True, report
