"""Failed-literal probing on a settled ladder (clues and facts as unit clauses, plain passes
first): the same fixpoint and grades as the shared ladder, facts that hold in every solution, and
a solve that probes when its search is slow gives the same answers."""
from __future__ import annotations


import pytest

from satgrid import api, grading
from satgrid.queries import PuzzleQueries
from satgrid.registry import GENRES

from .helpers import DATA, SHARED, bundled, shared_file


def shared_puzzles() -> list:
    """Bundled puzzles of every genre, and shared ones the ladder cannot finish (level 2) when
    the shared data is there."""
    out = [p for name in sorted(GENRES) for p in bundled(name)[:3]]
    path = DATA / "slitherlink" / "tatham.txt"
    if not path.exists():
        return out
    loops = {p.name: p for p in api.load([str(path)])}
    return out + [loops["loopy-10x10t0dh-1"], loops["loopy-7x7t0de-1"]]


def fixpoint(puzzle, settled: bool) -> tuple[str, dict]:
    """Probing to the fixpoint, on the shared grading session or settled on a session of its
    own: the status and the primary facts (key -> value)."""
    session, owned = grading.grading_session(puzzle, shared=not settled)
    ladder = grading.Ladder(session, list(session.selectors(puzzle.clues()).values()), settled)
    try:
        status, fixed = ladder.probe()
        primary = session.encoding.primary
        return status, {key: var in fixed for key, var in primary.items()
                        if var in fixed or -var in fixed}
    finally:
        ladder.close()
        if owned:
            session.close()


@pytest.mark.parametrize("puzzle", shared_puzzles(), ids=lambda p: f"{p.genre}-{p.name}")
def test_a_settled_ladder_reaches_the_fixpoint_of_the_shared_one(puzzle) -> None:
    shared = fixpoint(puzzle, settled=False)
    assert fixpoint(puzzle, settled=True) == shared
    assert shared[0] == "fixpoint"


def test_the_settled_ladder_probes_plain_first_and_finishes_with_cuts() -> None:
    """A level-1 loop puzzle needs the cuts (closed sub-loops) at some probe; plain passes
    alone stop short. The settled ladder still reaches the whole solution."""
    loops = {p.name: p for p in api.load([str(shared_file("slitherlink", "tatham.txt"))])}
    puzzle = loops["loopy-10x10t0dn-3"]
    status, facts = fixpoint(puzzle, settled=True)
    session, _ = grading.grading_session(puzzle, shared=False)
    try:
        assert status == "fixpoint" and len(facts) == len(session.encoding.primary)
        ladder = grading.Ladder(session, list(session.selectors(puzzle.clues()).values()), True)
        ladder.rules = []  # no cuts at all: plain probing stops short of the solution
        status, fixed = ladder.probe()
        assert len([v for v in ladder.primary if v in fixed or -v in fixed]) < len(facts)
    finally:
        session.close()


def rooted_cases() -> list:
    """Bundled puzzles of every genre, and puzzlekit Fillominos that need the sized-region cuts
    at many probes (levels 1 and 2) when the shared data is there."""
    out = [p for name in sorted(GENRES) for p in bundled(name)[:2]]
    path = SHARED / "external" / "genres" / "puzzlekit_fillomino.txt"
    if path.exists():
        wanted = {"fillomino-203_10x10", "fillomino-257_10x10", "fillomino-762_10x10"}
        out += [p for p in api.load([str(path)]) if p.name in wanted]
    return out


@pytest.mark.parametrize("puzzle", rooted_cases(), ids=lambda p: f"{p.genre}-{p.name}")
def test_cut_searches_over_the_root_change_no_fact_and_no_grade(puzzle, monkeypatch) -> None:
    """The settled ladder's cut searches over its root (a rule's ``over_root``, which redoes
    only what a probe touches) against searches from scratch at every probe: the same facts at
    the fixpoint (so the same grade), after the same probes."""
    found = []
    for rooted in (False, True):
        monkeypatch.setattr(grading.Ladder, "rooted", rooted)
        session, _ = grading.grading_session(puzzle, shared=False)
        try:
            ladder = grading.Ladder(session, list(session.selectors(puzzle.clues()).values()), True)
            status, fixed = ladder.probe()
            found.append((status, {v for v in ladder.primary if v in fixed or -v in fixed},
                          {v for v in ladder.primary if v in fixed}, ladder.probes))
        finally:
            session.close()
    assert found[1] == found[0]


@pytest.mark.parametrize("name", sorted(GENRES))
def test_settled_grades_are_the_shared_grades(name: str) -> None:
    for puzzle in bundled(name)[:2]:
        shared_session, owned = grading.grading_session(puzzle)
        shared = grading.assess_clues(shared_session, puzzle.clues())
        if owned:
            shared_session.close()
        own, _ = grading.grading_session(puzzle, shared=False)
        try:
            settled = grading.assess_clues(own, puzzle.clues(), settled=True)
        finally:
            own.close()
        assert (settled.level, settled.fixed_by_propagation, settled.fixed_by_probing) == \
               (shared.level, shared.fixed_by_propagation, shared.fixed_by_probing), puzzle.name


def test_a_big_grid_is_graded_on_a_session_of_its_own(monkeypatch) -> None:
    puzzle = bundled("nurikabe")[0]
    grading._GRADERS.clear()
    small = grading.assess(puzzle)
    assert grading._GRADERS
    grading._GRADERS.clear()
    monkeypatch.setattr(grading, "SETTLED_GRADE_CELLS", 0)
    big = grading.assess(puzzle)
    assert not grading._GRADERS
    assert (big.level, big.fixed_by_probing) == (small.level, small.fixed_by_probing)


@pytest.mark.parametrize("name", sorted(GENRES))
def test_probed_facts_hold_in_the_solution(name: str) -> None:
    for puzzle in bundled(name)[:2]:
        facts = grading.probed_facts(puzzle)
        assert facts is not None
        if api.solve(puzzle, unique=True).status != "unique":
            continue
        wrong = {key for key, value in facts.items() if solution_values(puzzle)[key] != value}
        assert not wrong, (puzzle.name, sorted(wrong)[:5])


def solution_values(puzzle) -> dict:
    """A unique puzzle's primary values, read off a model with every clue on."""
    session, _ = grading.grading_session(puzzle, shared=False)
    try:
        outcome = PuzzleQueries(session, puzzle.clues()).solve()
        assert outcome.status == "sat"
        return {key: outcome.assignment(var) for key, var in session.encoding.primary.items()}
    finally:
        session.close()


#: 4x4: r2c3 = 3 leaves no value for r1c3 and r1c4.
UNSATISFIABLE = "genre: sudoku\n1 2 . .\n. . 3 .\n. . . .\n. . . .\n"


def test_contradictory_clues_give_no_facts() -> None:
    [puzzle] = api.load_text(UNSATISFIABLE)
    assert grading.probed_facts(puzzle) is None


@pytest.fixture
def probe_at_once(monkeypatch):
    """Every solve probes before its first search (no grid too small, no wait)."""
    monkeypatch.setattr(api, "PROBE_CELLS", 0)
    monkeypatch.setattr(api, "PROBE_AFTER_S", 0.0)


def answer(result: api.Result) -> tuple:
    return result.status, result.unique, result.solution if result.status == "unique" else None


@pytest.mark.parametrize("name", sorted(GENRES))
def test_a_solve_that_probes_answers_as_one_that_does_not(name: str, monkeypatch) -> None:
    puzzles = bundled(name)[:2]
    plain = [api.solve(p, unique=True) for p in puzzles]
    assert all(r.stats.probed == 0 for r in plain)
    monkeypatch.setattr(api, "PROBE_CELLS", 0)
    monkeypatch.setattr(api, "PROBE_AFTER_S", 0.0)
    probing = [api.solve(p, unique=True) for p in puzzles]
    assert [answer(r) for r in probing] == [answer(r) for r in plain]
    assert any(r.stats.probed for r in probing)


def test_a_level_1_sudoku_is_settled_by_probing(probe_at_once) -> None:
    sudokus = {p.name: p for p in api.load([str(shared_file("sudoku", "tatham.txt"))])}
    result = api.solve(sudokus["solo-3x3du-1"], unique=True)
    assert result.status == "unique"
    assert result.stats.probed == 729 and result.stats.to_json()["probed"] == 729


def test_probing_keeps_a_second_solution(probe_at_once) -> None:
    [puzzle] = api.load_text("genre: nurikabe\n2 .\n. .\n")
    result = api.solve(puzzle, unique=True)
    assert result.status == "multiple" and result.solution != result.second_solution
    assert not GENRES["nurikabe"].check(puzzle, result.second_solution)


def test_probing_on_unsatisfiable_clues(probe_at_once) -> None:
    [puzzle] = api.load_text(UNSATISFIABLE)
    assert api.solve(puzzle, unique=True).status == "unsatisfiable"


def test_audits_never_probe(probe_at_once) -> None:
    puzzle = bundled("nurikabe")[0]
    result = api.solve(puzzle, audit=True, grade=False)
    assert result.status == "unique" and result.stats.probed == 0


@pytest.mark.parametrize("name", sorted(GENRES))
def test_a_hint_after_probing_on_a_settled_session_is_the_plain_hint(name: str, monkeypatch) -> None:
    """A hint solves as a solve does (api.solve_queries, api.first_query): with every grid
    settled and probed at once, the hint is the one of a plain session, and the state's check
    against the solution still finds a wrong entry."""
    if GENRES[name].part("STATE") is None:
        pytest.skip(f"{name} has no state format")
    puzzle = bundled(name)[0]
    plain = grading.hint(puzzle)
    probes = []
    real_probe = api._probe
    monkeypatch.setattr(api, "_probe", lambda *a: probes.append(1) or real_probe(*a))
    monkeypatch.setattr(api, "PROBE_CELLS", 0)
    monkeypatch.setattr(api, "PROBE_AFTER_S", 0.0)
    monkeypatch.setattr(api, "SETTLED_CELLS", 0)
    assert grading.hint(puzzle) == plain and probes
    if plain.status == "hint":
        key, value = plain.fact
        wrong = grading.hint(puzzle, {key: not value})
        assert wrong.status == "wrong" and wrong.wrong == [(key, not value)]


def test_a_hint_after_probing_keeps_a_second_solution(probe_at_once) -> None:
    [puzzle] = api.load_text("genre: nurikabe\n2 . .\n. . .\n. . 2\n")
    answer = grading.hint(puzzle)
    assert answer.status == "multiple", answer.message
