"""Grades (the propagation ladder) and hints, on real puzzles with known solutions."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from satgrid import api, grading
from satgrid.cli import main
from satgrid.errors import ParseError, SatgridError
from satgrid.registry import GENRES

from .helpers import SHARED, assert_minimal_for_level, deadline_after, satisfiable, shared_file

ROOT = Path(__file__).resolve().parents[1]


def load(*parts: str) -> dict:
    return {p.name: p for p in api.load([str(shared_file(*parts))])}


@pytest.fixture(scope="module")
def sudokus():
    return load("sudoku", "tatham.txt")


@pytest.fixture(scope="module")
def loops():
    return load("slitherlink", "tatham.txt")


@pytest.fixture(scope="module")
def islands():
    return load("nurikabe", "jwiki.txt")


def holds(puzzle, solution, key, value: bool) -> bool:
    """Does the fact ``key = value`` hold in ``solution`` (as the genre decodes it)?"""
    if puzzle.genre == "sudoku":
        _, r, c, d = key
        return (solution[r][c] == d) == value
    if puzzle.genre == "slitherlink":
        _, kind, i, j = key
        return bool(solution[0 if kind == "h" else 1][i][j]) == value
    _, r, c = key
    return (solution[r][c] == "#") == value


def probed(puzzle) -> tuple[str, dict]:
    """Failed-literal probing of ``puzzle`` to its fixpoint: the status and the primary facts
    fixed (key -> value)."""
    session, _ = grading.grading_session(puzzle)
    ladder = grading.Ladder(session, [session.selector(k, v) for k, v in puzzle.clues().items()])
    try:
        status, fixed = ladder.probe()
    finally:
        ladder.close()
    primary = session.encoding.primary
    return status, {key: var in fixed for key, var in primary.items() if var in fixed or -var in fixed}


# -- grades -------------------------------------------------------------------------------------
def test_easy_sudoku_is_level_0_and_tatham_unreasonable_is_level_1(sudokus):
    easy = grading.assess(sudokus["solo-3x3db-1"])  # Solo "basic"
    assert easy.level == 0 and easy.fixed_by_propagation == easy.primary == 729
    hard = grading.assess(sudokus["solo-3x3du-1"])  # Solo "unreasonable"
    assert hard.level == 1
    assert hard.fixed_by_propagation < 729 and hard.fixed_by_probing == 729 and hard.probes > 0


def test_puzzles_the_ladder_cannot_finish_are_level_2(loops):
    loop = grading.assess(loops["loopy-10x10t0dh-1"])  # Loopy "hard", unique
    assert loop.level == 2 and loop.fixed_by_probing < loop.primary
    assert api.solve(loops["loopy-10x10t0dh-1"], unique=True).status == "unique"
    # janko 0042 (8x8, unique). Nikoli's n7 was the example until the islands' barrier cuts
    # (satgrid/islands.py), which act on partial assignments too, let probing finish it.
    path = SHARED / "external" / "nurikabe" / "janko_nurikabe_sample.txt"
    if not path.exists():
        pytest.skip(f"shared data not found at {path}")
    [puzzle] = [p for p in api.load([str(path)]) if p.name == "janko-nurikabe-0042"]
    island = grading.assess(puzzle)
    assert island.level == 2 and island.fixed_by_probing < island.primary
    assert api.solve(puzzle, unique=True).status == "unique"


def test_a_puzzle_with_two_solutions_is_level_2():
    [puzzle] = api.load_text("genre: sudoku\n" + "034005000075020100000000875340000009000260340"
                             "060340000003580090000000003000000000")  # J. Clark's example
    assert api.solve(puzzle, unique=True).status == "multiple"
    assert grading.grade(puzzle) == 2


def test_loopy_difficulties_order_the_grades(loops):
    assert [grading.grade(loops[n]) for n in ("loopy-7x7t0de-1", "loopy-7x7t0de-2",
                                              "loopy-10x10t0dn-1", "loopy-10x10t0dn-3")] == [1, 1, 1, 1]


@pytest.mark.parametrize("names", [
    ("sudoku", ["solo-3x3db-1", "solo-3x3di-1", "solo-3x3de-2", "solo-3x3du-3", "solo-2x3di-1"]),
    ("slitherlink", ["loopy-7x7t0de-1", "loopy-7x7t0de-2", "loopy-10x10t0dn-2", "loopy-10x10t0dh-1"]),
    ("nurikabe", ["n1", "n2", "n3", "n4", "n5"]),
])
def test_grades_are_the_same_lazy_and_eager(names, sudokus, loops, islands):
    genre, chosen = names
    pool = {"sudoku": sudokus, "slitherlink": loops, "nurikabe": islands}[genre]
    for name in chosen:
        lazy, eager = grading.assess(pool[name], connectivity="lazy"), grading.assess(pool[name], connectivity="eager")
        assert (lazy.level, lazy.fixed_by_propagation, lazy.fixed_by_probing) == \
               (eager.level, eager.fixed_by_propagation, eager.fixed_by_probing), name


def test_grades_do_not_depend_on_history(loops, islands):
    first = [grading.assess(loops[n]) for n in ("loopy-7x7t0de-1", "loopy-10x10t0dh-1")]
    # Searching on the shared solving sessions, and grading other puzzles, changes nothing.
    for p in loops.values():
        if p.rows <= 10:
            api.solve(p, audit=True)
    grading.assess(islands["n4"])
    again = [grading.assess(loops[n]) for n in ("loopy-7x7t0de-1", "loopy-10x10t0dh-1")]
    assert [(g.level, g.fixed_by_propagation, g.fixed_by_probing, g.probes) for g in first] == \
           [(g.level, g.fixed_by_propagation, g.fixed_by_probing, g.probes) for g in again]


@pytest.mark.parametrize("genre,name", [("sudoku", "solo-3x3du-2"), ("slitherlink", "loopy-10x10t0dn-3"),
                                        ("nurikabe", "n5")])
def test_what_the_ladder_fixes_is_the_solution(genre, name, sudokus, loops, islands):
    puzzle = {"sudoku": sudokus, "slitherlink": loops, "nurikabe": islands}[genre][name]
    solution = api.solve(puzzle).solution
    status, facts = probed(puzzle)
    assert status == "fixpoint"
    assert len(facts) == len(grading.grading_session(puzzle)[0].encoding.primary)
    assert all(holds(puzzle, solution, key, value) for key, value in facts.items())


def test_a_solver_without_propagation_is_refused(sudokus):
    with pytest.raises(SatgridError, match="propagation"):
        grading.assess(sudokus["solo-2x2-1"], solver="cadical103")


def test_audit_json_carries_the_grade(sudokus, loops):
    assert api.solve(sudokus["solo-3x3du-1"], audit=True).to_json()["grade"] == 1
    assert api.solve(loops["loopy-10x10t0dh-1"], audit=True).to_json()["grade"] == 2
    assert "grade" not in api.solve(sudokus["solo-3x3du-1"], unique=True).to_json()


# -- hints --------------------------------------------------------------------------------------
@pytest.mark.parametrize("genre,name,steps", [("sudoku", "solo-2x2-1", 300), ("nurikabe", "n1", 300),
                                              ("slitherlink", "loopy-7x7t0de-1", 12)])
def test_following_the_hints_solves_the_puzzle(genre, name, steps, sudokus, loops, islands):
    """Every hint holds in the solution; Sudoku and Nurikabe are followed to the end (the
    Slitherlink for its first ``steps`` hints, to keep the test short)."""
    puzzle = {"sudoku": sudokus, "slitherlink": loops, "nurikabe": islands}[genre][name]
    solution = api.solve(puzzle).solution
    clue_cells = {f"r{r + 1}c{c + 1}" for r, c in puzzle.clues()}
    state: dict = {}
    levels = set()
    for _ in range(steps):
        answer = grading.hint(puzzle, state)
        if answer.status == "solved":
            break
        assert answer.status == "hint", answer.message
        key, value = answer.fact
        assert holds(puzzle, solution, key, value), answer.message
        assert key not in state
        levels.add(answer.level)
        if answer.clues:  # the reason names the clues it used, by their cells
            named = [c for c in clue_cells if f"at {c}" in answer.message]
            assert named and len(named) == len(answer.clues), answer.message
        state[key] = value
    else:
        if steps == 300:
            pytest.fail("the hints never finished the puzzle")
    assert levels <= {0, 1}


def test_first_sudoku_hint_names_the_givens_that_force_it(sudokus):
    puzzle = sudokus["solo-3x3du-1"]
    answer = grading.hint(puzzle)
    assert answer.status == "hint" and answer.level == 0
    # a hidden single: the givens 5 in its rows, columns and boxes and the 8 beside it leave r6c1
    # the only place for a 5 in its box
    assert answer.message == ("r6c1 is 5: unit propagation from given 5 at r2c2, given 8 at r4c1, "
                              'given 5 at r5c8 and given 5 at r7c3 by the rules "one digit per '
                              'cell" and "no digit twice in a row, a column or a box"')
    assert sorted(puzzle.clues()[k] for k in answer.clues) == [5, 5, 5, 8]
    assert_minimal_reason(puzzle, answer)


@pytest.mark.parametrize("stop_after", [0, 3, 30])
def test_a_time_limit_gives_unknown_or_the_hint_of_no_limit(sudokus, monkeypatch, stop_after):
    """The reasoner's deadline passing after ``stop_after`` checks: status unknown, never a
    different hint; a limit of 0 stops before the first query."""
    puzzle = sudokus["solo-3x3du-1"]
    full = grading.hint(puzzle)
    assert grading.hint(puzzle, time_limit=0).status == "unknown"
    deadline_after(monkeypatch, stop_after)
    cut = grading.hint(puzzle, time_limit=3600)
    assert cut.status == "unknown" and "time limit" in cut.message
    monkeypatch.undo()
    assert grading.hint(puzzle, time_limit=3600) == full
    out = CliRunner().invoke(main, ["hint", str(shared_file("sudoku", "tatham.txt")), "--puzzle", "solo-3x3du-1", "--time-limit", "0",
                                    "--format", "json"])
    assert out.exit_code == 0 and json.loads(out.output)["status"] == "unknown", out.output


def test_a_level_2_hint_after_the_ladder_is_exhausted(loops):
    puzzle = loops["loopy-10x10t0dh-1"]
    solution = api.solve(puzzle).solution
    _, state = probed(puzzle)
    answer = grading.hint(puzzle, state)
    assert answer.status == "hint" and answer.level == 2
    assert holds(puzzle, solution, *answer.fact)
    assert "needs search" in answer.message and answer.clues
    assert_minimal_reason(puzzle, answer)


def assert_minimal_reason(puzzle, answer) -> None:
    """The hint's reason (clues, rules, decided facts) forces its fact and is minimal: by SAT at
    level 2, by the level's own propagation at levels 0 and 1 (tests/helpers)."""
    assert_minimal_for_level(puzzle, answer.clues, answer.rules, answer.decided, answer.fact,
                             answer.level, answer.message)


def test_a_hint_below_search_gives_a_reason_minimal_for_its_level_without_sat_calls(sudokus):
    """Below search each candidate's reason is shrunk by its level's own propagation, with no
    SAT call: from it propagation proves the fact, from no smaller part of it; it is marked
    not proved a MUS, and it still forces the fact (the test's own SAT call)."""
    from satgrid.explain import Reasoner, explain_step, forced_facts

    puzzle = sudokus["solo-3x3du-1"]
    fmt = grading.state_format(puzzle)
    reasoner = Reasoner(puzzle)
    try:
        items = reasoner.items()
        solution = reasoner.solution(list(items.values()))
        todo = [(k, v) for k, v in solution.items() if fmt.decision(k, v) and k not in fmt.shown(puzzle)]
        level, found = forced_facts(reasoner, items, {}, todo)
        assert level == 0 and len(found) >= 12
        calls = reasoner.sat_calls
        steps = [explain_step(reasoner, items, {}, f, level, proved=False) for f in found[:12]]
        assert reasoner.sat_calls == calls
        for step in steps:
            assert not step.minimal
            lits = [reasoner.lit(f) for f in step.facts] + [items[("clue", k)] for k in step.clues] + \
                [items[("rule", r)] for r in step.rules]
            assert reasoner.lit(step.fact) in reasoner.propagated(lits)[1]
            for drop in lits:
                assert reasoner.lit(step.fact) not in reasoner.propagated([x for x in lits if x != drop])[1]
            assert not satisfiable(puzzle, step.clues, step.rules, step.facts, step.fact)
    finally:
        reasoner.close()
    answer = grading.hint(puzzle)
    assert answer.level == 0
    assert_minimal_reason(puzzle, answer)


@pytest.mark.parametrize("name", sorted(GENRES))
def test_every_genres_first_hint_has_a_minimal_reason(name):
    genre = GENRES[name]
    if genre.part("STATE") is None:
        pytest.skip(f"{name} has no state format")
    puzzle = next(p for p in api.load([str(ROOT / "satgrid" / "data" / genre.examples)])
                  if p.rows * p.cols <= 100 and api.solve(p, unique=True).status == "unique")
    answer = grading.hint(puzzle)
    assert answer.status == "hint", answer.message
    assert_minimal_reason(puzzle, answer)


def test_a_wrong_state_is_reported(sudokus):
    puzzle = sudokus["solo-3x3du-1"]
    solution = api.solve(puzzle).solution
    r, c = next((r, c) for r in range(9) for c in range(9) if puzzle.givens[r][c] is None)
    wrong = solution[r][c] % 9 + 1
    grid = [[d or 0 for d in row] for row in puzzle.givens]
    grid[r][c] = wrong
    state = grading.read_state(puzzle, "\n".join("".join(map(str, row)) for row in grid))
    answer = grading.hint(puzzle, state)
    assert answer.status == "wrong"
    assert answer.wrong == [(("digit", r, c, wrong), True)]
    assert f"r{r + 1}c{c + 1} is {wrong}" in answer.message and "contradicts the solution" in answer.message


def test_slitherlink_state_format(loops):
    puzzle = loops["loopy-7x7t0de-1"]
    drawing = api.solve(puzzle).solution
    text = api.GENRES["slitherlink"].render(puzzle, drawing)
    state = grading.read_state(puzzle, text)
    assert len(state) == sum(map(sum, drawing[0])) + sum(map(sum, drawing[1]))  # blanks undecided
    lines = text.split("\n")
    lines[0] = "+x" + lines[0][2:]
    state = grading.read_state(puzzle, "\n".join(lines))
    assert state[("edge", "h", 0, 0)] is False
    lines[0] = "+?" + lines[0][2:]
    assert ("edge", "h", 0, 0) not in grading.read_state(puzzle, "\n".join(lines))
    lines[0] = "+o" + lines[0][2:]
    with pytest.raises(ParseError, match=r"<state>:1:2: 'o' is not an edge mark"):
        grading.read_state(puzzle, "\n".join(lines))
    with pytest.raises(ParseError, match="has 15"):
        grading.read_state(puzzle, "\n".join(lines[:5]))


def test_nurikabe_state_format(islands):
    puzzle = islands["n1"]
    state = grading.read_state(puzzle, "# 1 # ? ?\n? ? ? ? 2\n? ? ? ? ?\n3 . ? ? ?\n? ? ? 2 ?\n")
    assert state == {("black", 0, 0): True, ("black", 0, 2): True, ("black", 3, 1): False}
    with pytest.raises(ParseError, match="'x' is not a cell mark"):
        grading.read_state(puzzle, "x 1 # ? ?\n? ? ? ? 2\n? ? ? ? ?\n3 . ? ? ?\n? ? ? 2 ?\n")


# -- CLI ----------------------------------------------------------------------------------------
def test_cli_grade_table_and_json():
    path = str(shared_file("sudoku", "tatham.txt"))
    out = CliRunner().invoke(main, ["grade", path])
    assert out.exit_code == 0, out.output
    rows = {line.split()[0]: line.split() for line in out.output.splitlines()[1:]}
    assert rows["solo-3x3db-1"][5] == "0" and rows["solo-3x3du-1"][5] == "1"
    out = CliRunner().invoke(main, ["grade", path, "--format", "json", "--connectivity", "eager"])
    records = [json.loads(line) for line in out.output.splitlines()]
    assert len(records) == 18 and {r["grade"] for r in records} == {0, 1}
    assert all(r["status"] == "unique" for r in records)


def test_cli_hint_with_a_state(tmp_path):
    path = str(shared_file("nurikabe", "jwiki.txt"))
    out = CliRunner().invoke(main, ["hint", path, "--puzzle", "n1"])
    assert out.exit_code == 0, out.output
    assert " is " in out.output and "clue" in out.output
    state = tmp_path / "state.txt"
    state.write_text("# 1 # # #\n? ? ? # 2\n? ? ? ? ?\n3 ? ? ? ?\n? ? ? 2 ?\n")  # r2c4 is white
    out = CliRunner().invoke(main, ["hint", path, "--puzzle", "n1", "--state", str(state), "--format", "json"])
    record = json.loads(out.output)
    assert record["status"] == "wrong" and record["wrong"] == [[["black", 1, 3], True]]
    assert record["message"] == "the state is wrong: r2c4 is black contradicts the solution"
    out = CliRunner().invoke(main, ["hint", path])
    assert out.exit_code == 1 and "holds 7 puzzles" in out.output


def test_hint_subprocess():
    path = str(shared_file("sudoku", "tatham.txt"))
    done = subprocess.run([sys.executable, "-m", "satgrid", "hint", path, "--puzzle", "solo-3x3du-1"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("r6c1 is 5: unit propagation from given 5 at r2c2, given 8 at ")


def test_grading_spends_fresh_variables_only_on_the_cuts_it_keeps(loops):
    """Probing a partial loop meets a path segment per component; the cuts it drops must not
    use up variables (the session's variable count sizes every partial assignment)."""
    puzzle = max(loops.values(), key=lambda p: p.rows * p.cols)
    session, _ = grading.grading_session(puzzle)
    before = session.encoding.pool.top
    graded = grading.assess(puzzle)
    assert graded.probes > 50
    spent = session.encoding.pool.top - before
    assert spent <= graded.probes  # with a fresh variable per dropped cut: thousands


def test_every_genre_with_a_state_format_hints_in_its_own_words():
    """Hints come from the genre's record: its STATE reads the state and names the clues."""
    from satgrid.registry import GENRES

    for name, genre in GENRES.items():
        fmt = genre.part("STATE")
        if fmt is None:
            continue
        assert isinstance(fmt, grading.StateFormat) and fmt.help and fmt.clue
        puzzle = next(p for p in api.load([str(ROOT / "satgrid" / "data" / genre.examples)])
                      if api.solve(p, unique=True).status == "unique")
        answer = grading.hint(puzzle)
        assert answer.status == "hint", (name, answer.message)
        key, value = answer.fact
        assert fmt.describe(puzzle, key, value) in answer.message
        if answer.clues:
            assert f"{fmt.clue} " in answer.message


def test_a_genre_without_a_state_format_says_so_in_one_line(monkeypatch):
    from satgrid.registry import GENRES

    monkeypatch.delattr(GENRES["nurikabe"].module, "STATE")
    [puzzle] = api.load_text("genre: nurikabe\n2 . .\n. . .\n. . 1\n")
    with pytest.raises(SatgridError, match="no hints for genre nurikabe"):
        grading.hint(puzzle)
    out = CliRunner().invoke(main, ["hint", "-"], input="genre: nurikabe\n2 . .\n. . .\n. . 1\n")
    assert out.exit_code == 1 and out.stderr.count("\n") == 1
    assert out.stderr.startswith("satgrid: error: no hints for genre nurikabe")
    example = api.load([str(ROOT / "satgrid" / "data" / GENRES["nurikabe"].examples)])[0]
    assert grading.grade(example) in (0, 1, 2)  # grading needs no state format
