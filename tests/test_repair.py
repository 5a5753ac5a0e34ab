"""Repair suggestions (satgrid.repair) against independent re-solves and brute force.

For every genre with candidates: a unique bundled puzzle loses 1 and 3 clues; every suggested
repair must make the puzzle unique when solved from scratch (with the kept solution, when one is
kept), use only clues the genre allows, and, where the candidates are few enough, be minimum:
no candidate set one clue smaller works (adding clues only removes solutions, so if a smaller
set worked, some set of exactly one clue less would too). Unsatisfiable puzzles (a clue changed
to contradict) get a correction set checked the same way, and a core checked for being
unsatisfiable and minimal.
"""
from __future__ import annotations

import itertools
import json
import random
from importlib import resources

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from satgrid import api, formats
from satgrid.cli import main
from satgrid.errors import SatgridError
from satgrid.registry import GENRES
from satgrid.repair import clue_words, repair

from .helpers import engine_solutions
from .test_queries import all_grids

#: Brute force only where it stays small: subsets of one clue less than the repair.
BRUTE_LIMIT = 400
WITH_CANDIDATES = [name for name, g in GENRES.items() if g.part("CANDIDATES") is not None]


def unique_sample(name: str):
    """The smallest unique puzzle among the genre's bundled examples, and its solution."""
    g = GENRES[name]
    puzzles = api.load([str(resources.files("satgrid") / "data" / g.examples)])
    for puzzle in sorted(puzzles, key=lambda p: p.rows * p.cols):
        result = api.solve(puzzle, unique=True)
        if result.status == "unique" and len(puzzle.clues()) >= 3:
            return puzzle, result.solution
    pytest.skip(f"no unique {name} sample with clues")


def unique_with(puzzle, solution, clues) -> bool:
    """Whether ``puzzle`` with exactly ``clues`` has ``solution`` as its only solution (a fresh
    solve through the library)."""
    g = GENRES[puzzle.genre]
    result = api.solve(puzzle.with_clues(clues), unique=True)
    return result.status == "unique" and not g.differences(puzzle, result.solution, solution)


def weakened(name: str, drop: int, seed: int):
    """A unique sample with ``drop`` clues taken away (chosen so that it is no longer unique,
    where some choice is), its solution and the removed clues."""
    puzzle, solution = unique_sample(name)
    clues = puzzle.clues()
    rng = random.Random(seed)
    for _ in range(20):
        gone = rng.sample(sorted(clues), drop)
        kept = {k: v for k, v in clues.items() if k not in gone}
        if api.solve(puzzle.with_clues(kept), unique=True).status == "multiple":
            return puzzle.with_clues(kept), solution, {k: clues[k] for k in gone}
    pytest.skip(f"{name}: taking {drop} clues away keeps it unique")


@pytest.mark.parametrize("drop", [1, 3])
@pytest.mark.parametrize("name", WITH_CANDIDATES)
def test_repair_keeping_the_solution(name: str, drop: int) -> None:
    puzzle, solution, gone = weakened(name, drop, seed=drop)
    g = GENRES[name]
    found = repair(puzzle, keep=solution)
    assert found.status == "multiple" and found.found and found.proved, found.note
    candidates = g.part("CANDIDATES")(puzzle, solution)
    assert found.added.items() <= candidates.items()
    clues = {**puzzle.clues(), **found.added}
    assert unique_with(puzzle, solution, clues)
    assert not g.differences(puzzle, found.solution, solution)
    if gone.items() <= candidates.items():  # putting the removed clues back is a repair
        assert len(found.added) <= len(gone)
    smaller = len(found.added) - 1
    if smaller >= 0 and len(list(itertools.combinations(candidates, smaller))) <= BRUTE_LIMIT:
        for subset in itertools.combinations(candidates, smaller):
            assert not unique_with(puzzle, solution, {**puzzle.clues(), **{k: candidates[k] for k in subset}})


@pytest.mark.parametrize("name", WITH_CANDIDATES)
def test_repair_with_any_solution(name: str) -> None:
    puzzle, _, _ = weakened(name, 1, seed=7)
    g = GENRES[name]
    found = repair(puzzle, max_solutions=8)
    assert found.status == "multiple" and 1 <= found.solutions <= 8
    if not found.found:  # every solution tried shares all its clues with another: said so
        assert "no added clues" in found.note
        return
    result = api.solve(found.repaired, unique=True)
    assert result.status == "unique"
    assert not g.differences(puzzle, result.solution, found.solution)
    assert found.over_all in (True, False)
    if found.over_all:  # smallest over all solutions needs them all enumerated, and a proof
        # (or a repair of one clue: a puzzle with several solutions needs at least one)
        assert (found.complete or len(found.added) == 1) and found.proved and found.solutions <= 8


def test_smallest_over_all_solutions_by_brute_force() -> None:
    """A small Sudoku with every solution enumerated: the reported size is the minimum over all
    solutions of each one's minimum (checked subset by subset)."""
    puzzle, _, _ = weakened("sudoku", 2, seed=2)  # 59 solutions, each needing 1 or 2 more givens
    if puzzle.rows > 6:
        pytest.skip("the smallest Sudoku sample is too big for brute force")
    g = GENRES["sudoku"]
    everyone = engine_solutions(g, puzzle, limit=100)
    found = repair(puzzle, max_solutions=100)
    assert found.found and found.complete and found.over_all
    assert found.solutions == len(everyone)
    smaller = len(found.added) - 1
    for other in everyone:
        candidates = g.part("CANDIDATES")(puzzle, other)
        for subset in itertools.combinations(candidates, smaller):
            assert not unique_with(puzzle, other, {**puzzle.clues(), **{k: candidates[k] for k in subset}})


def _others(value: object) -> list:
    """Other values of a clue's kind, to contradict it with."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value + d for d in (1, -1, 2, -2)]
    if isinstance(value, str):
        return [v for v in ("w", "b") if v != value]
    if isinstance(value, tuple):
        return [(value[0], value[1] + d) for d in (1, -1)]
    return []


def contradicted(name: str, times: int = 1):
    """A unique sample with ``times`` contradicting clues, each making it unsatisfiable on its
    own, at different cells: a clue the genre allows added with a value its solution does not
    support, or, where the puzzle has no room for one, a clue changed."""
    puzzle, solution = unique_sample(name)
    clues = puzzle.clues()
    addable = GENRES[name].part("CANDIDATES")(puzzle, solution)
    bad: dict = {}
    for key, value in [*addable.items(), *clues.items()]:
        for other in _others(value):
            if isinstance(other, int) and not 0 <= other <= max(puzzle.rows, puzzle.cols):
                continue
            try:
                if api.solve(puzzle.with_clues({**clues, key: other})).status == "unsatisfiable":
                    bad[key] = other
                    break
            except SatgridError:
                continue
        if len(bad) == times:
            return puzzle.with_clues({**clues, **bad})
    pytest.skip(f"no {times} contradicting {name} clues found")


@pytest.mark.parametrize("times", [1, 2])
@pytest.mark.parametrize("name", WITH_CANDIDATES)
def test_unsatisfiable_puzzle_correction_set(name: str, times: int) -> None:
    puzzle = contradicted(name, times)
    found = repair(puzzle)
    assert found.status == "unsatisfiable" and found.found and found.proved, found.note
    clues = puzzle.clues()
    assert found.removed.items() <= clues.items()
    rest = {k: v for k, v in clues.items() if k not in found.removed}
    assert api.solve(puzzle.with_clues(rest), unique=True).status == ("unique" if found.unique else "multiple")
    assert found.solution is not None
    smaller = len(found.removed) - 1
    if len(list(itertools.combinations(clues, smaller))) <= BRUTE_LIMIT:
        for subset in itertools.combinations(clues, smaller):
            left = {k: v for k, v in clues.items() if k not in subset}
            assert api.solve(puzzle.with_clues(left)).status == "unsatisfiable"
    # the core: unsatisfiable on its own, satisfiable without any one of its clues
    core = found.core
    assert core and core.items() <= clues.items()
    assert api.solve(puzzle.with_clues(core)).status == "unsatisfiable"
    for key in core:
        assert api.solve(puzzle.with_clues({k: v for k, v in core.items() if k != key})).status != "unsatisfiable"


def test_unique_puzzle_needs_no_repair() -> None:
    puzzle, solution = unique_sample("sudoku")
    found = repair(puzzle, keep=solution)
    assert found.status == "unique" and not found.found and not found.added


def test_keep_solution_must_be_a_solution() -> None:
    puzzle, solution, _ = weakened("sudoku", 1, seed=2)
    wrong = tuple(tuple(row[::-1]) for row in solution)
    with pytest.raises(SatgridError, match="not a solution"):
        repair(puzzle, keep=wrong)


def test_genres_without_candidates_say_so() -> None:
    assert {name for name, g in GENRES.items() if g.part("CANDIDATES") is None} == \
        {"lits", "norinori", "starbattle"}


def test_clue_words() -> None:
    assert clue_words((2, 3), 5) == "5 at r3c4"
    assert clue_words((0, 0), ("e", 2)) == "e 2 at r1c1"
    assert clue_words((0, 0), ("e", 2), GENRES["yajilin"].part("CLUE_WORDS")) == "2e (2 shaded right) at r1c1"
    assert clue_words((1, 0), "b", GENRES["masyu"].part("CLUE_WORDS")) == "a black pearl at r2c1"


def test_greedy_fallback_is_said() -> None:
    """With one hitting-set round the first greedy repair stands, reported as not proved unless
    it was already as small as the bound; it still makes the puzzle unique."""
    puzzle, solution, _ = weakened("sudoku", 3, seed=3)
    found = repair(puzzle, keep=solution, max_rounds=1)
    assert found.found
    assert unique_with(puzzle, solution, {**puzzle.clues(), **found.added})
    exact = repair(puzzle, keep=solution)
    assert len(exact.added) <= len(found.added)
    if not found.proved:
        assert "greedily" in found.note


# -- the command --------------------------------------------------------------------------------
def _write(tmp_path, puzzle, name="p.txt"):
    path = tmp_path / name
    path.write_text(formats.text_of(puzzle))
    return path


def test_cli_repair_text_json_and_output(tmp_path) -> None:
    puzzle, solution, _ = weakened("sudoku", 3, seed=4)
    path = _write(tmp_path, puzzle)
    keep = tmp_path / "keep.json"
    keep.write_text(json.dumps(GENRES["sudoku"].solution_json(puzzle, solution)))
    runner = CliRunner()
    out = runner.invoke(main, ["repair", str(path), "--keep-solution", str(keep),
                               "-o", str(tmp_path / "fixed.txt")])
    assert out.exit_code == 0, out.output
    assert "add " in out.output and "repaired puzzle (unique):" in out.output
    assert "url: https://puzz.link" in out.output
    fixed = api.load([str(tmp_path / "fixed.txt")])[0]
    result = api.solve(fixed, unique=True)
    assert result.status == "unique" and result.solution == solution
    out = runner.invoke(main, ["repair", str(path), "--keep-solution", str(keep), "--format", "json"])
    report = json.loads(out.output)
    assert report["status"] == "multiple" and report["found"] and report["proved_smallest"]
    assert all(item["text"].startswith("add ") for item in report["added"])


def test_cli_keep_solution_as_a_solution_section(tmp_path) -> None:
    puzzle, solution, _ = weakened("sudoku", 1, seed=5)
    path = _write(tmp_path, puzzle)
    keep = tmp_path / "keep.txt"
    keep.write_text("solution:\n" + GENRES["sudoku"].render(puzzle.with_clues({}), solution) + "\nend\n")
    out = CliRunner().invoke(main, ["repair", str(path), "--keep-solution", str(keep)])
    assert out.exit_code == 0, out.output
    assert "add 1 clue" in out.output


def test_cli_bad_input(tmp_path) -> None:
    runner = CliRunner()
    out = runner.invoke(main, ["repair", str(tmp_path / "missing.txt")])
    assert out.exit_code == 1 and out.output.count("\n") == 1 and "no such file" in out.output
    puzzle, solution, _ = weakened("sudoku", 1, seed=6)
    path = _write(tmp_path, puzzle)
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps([list(row[::-1]) for row in solution]))
    out = runner.invoke(main, ["repair", str(path), "--keep-solution", str(wrong)])
    assert out.exit_code == 1 and out.output.count("\n") == 1 and "not a solution" in out.output
    garbage = tmp_path / "garbage.txt"
    garbage.write_text("hello\n")
    out = runner.invoke(main, ["repair", str(path), "--keep-solution", str(garbage)])
    assert out.exit_code == 1 and out.output.count("\n") == 1 and "garbage.txt" in out.output
    assert not (tmp_path / "out.txt").exists()


def test_cli_unique_and_no_candidates(tmp_path) -> None:
    runner = CliRunner()
    puzzle, _ = unique_sample("sudoku")
    out = runner.invoke(main, ["repair", str(_write(tmp_path, puzzle))])
    assert out.exit_code == 0 and "needs no repair" in out.output
    rooms = tmp_path / "rooms.txt"
    rooms.write_text("genre: norinori\na a\na a\n")  # one 2x2 room: four dominoes fit
    out = runner.invoke(main, ["repair", str(rooms)])
    assert out.exit_code == 0 and out.output.count("\n") == 1 and "no clue to add" in out.output


def test_template_genre_repairs(monkeypatch) -> None:
    """A genre copied from the TEMPLATE repairs through its CANDIDATES, like the registered ones."""
    from satgrid import registry
    from satgrid.genres import TEMPLATE

    monkeypatch.setitem(registry.GENRES, TEMPLATE.NAME, registry.Genre.from_module(TEMPLATE))
    [puzzle] = api.load_text(". .\n. .\n", "<template>", TEMPLATE.NAME)
    found = repair(puzzle, max_solutions=100)
    assert found.status == "multiple" and found.found and found.complete and found.over_all
    result = api.solve(found.repaired, unique=True)
    assert result.status == "unique" and result.solution == found.solution


def test_time_limit_is_an_outcome() -> None:
    """A time limit that ends the search at once is reported, never raised."""
    puzzle, solution, _ = weakened("sudoku", 3, seed=8)
    found = repair(puzzle, keep=solution, options=api.Options(time_limit=0.0))
    assert found.status in ("unknown", "multiple")
    assert not found.found or unique_with(puzzle, solution, {**puzzle.clues(), **found.added})
    assert found.note


def test_unsatisfiable_whatever_is_removed() -> None:
    """Two Nurikabe numbers side by side share an island whatever their sizes (a removed size
    leaves its ``?``): no removal helps, and the report says so rather than failing."""
    [puzzle] = api.load_text("1 1\n", "<two numbers>", "nurikabe")
    found = repair(puzzle)
    assert found.status == "unsatisfiable" and not found.found
    assert "even with every clue removed" in found.note


def test_a_solution_no_clue_can_single_out(tmp_path) -> None:
    """Hitori with every cell numbered can take no number more: keeping one of two solutions is
    impossible, and the report shows the other one (a real solution, checked)."""
    g = GENRES["hitori"]
    sample = next(s for s in g.part("SAMPLES") if s[1] == "multiple")
    [puzzle] = api.load_text(sample[0], "<sample>", "hitori")
    result = api.solve(puzzle, unique=True)
    found = repair(puzzle, keep=result.solution)
    assert found.status == "multiple" and not found.found and "another solution" in found.note
    assert found.rival is not None and g.check(puzzle, found.rival) == []
    assert g.differences(puzzle, found.rival, result.solution)


def test_cli_keep_the_solution_section_of_the_puzzle_file(tmp_path) -> None:
    """--keep-solution may name the puzzle's own file when its block holds a solution: section."""
    path = tmp_path / "mine.txt"
    path.write_text("puzzle mine\ngenre: sudoku\ngivens:\n1 . . .\n. . . 2\n. . . .\n. . . .\n"
                    "solution:\n1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\nend\n")
    out = CliRunner().invoke(main, ["repair", str(path), "--keep-solution", str(path),
                                    "--format", "json"])
    assert out.exit_code == 0, out.output
    report = json.loads(out.output)
    assert report["found"] and report["proved_smallest"] and report["repaired_unique"]
    assert report["solution"] == [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]


# -- random 4x4 Sudokus against brute force -------------------------------------------------------
def _sudoku4(givens: dict):
    """A 4x4 Sudoku with ``givens`` (through ``with_clues``: the parser would refuse a digit twice
    in a line, which the correction test wants)."""
    [blank] = api.load_text("genre: sudoku\n" + ". . . .\n" * 4, "<4x4>")
    return blank.with_clues(givens)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), keep=st.integers(3, 6))
def test_random_4x4_repairs_are_minimum(seed: int, keep: int) -> None:
    """A random full 4x4 grid thinned to ``keep`` givens: the repair keeping the grid is minimum
    (no candidate set of one clue less works), and so is the repair over all solutions (no
    solution has a smaller one), both checked by brute force."""
    rng = random.Random(seed)
    grid = rng.choice(all_grids())
    cells = rng.sample([(r, c) for r in range(4) for c in range(4)], keep)
    puzzle = _sudoku4({p: grid[p[0]][p[1]] for p in cells})
    if api.solve(puzzle, unique=True).status != "multiple":
        return
    g = GENRES["sudoku"]
    found = repair(puzzle, keep=grid)
    assert found.found and found.proved
    assert unique_with(puzzle, grid, {**puzzle.clues(), **found.added})
    candidates = g.part("CANDIDATES")(puzzle, grid)
    for subset in itertools.combinations(candidates, len(found.added) - 1):
        assert not unique_with(puzzle, grid, {**puzzle.clues(), **{k: candidates[k] for k in subset}})
    anyone = repair(puzzle, max_solutions=300)
    assert anyone.found and anyone.complete and anyone.over_all
    assert len(anyone.added) <= len(found.added)
    for other in engine_solutions(g, puzzle, limit=300):
        theirs = g.part("CANDIDATES")(puzzle, other)
        for subset in itertools.combinations(theirs, len(anyone.added) - 1):
            assert not unique_with(puzzle, other, {**puzzle.clues(), **{k: theirs[k] for k in subset}})


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.integers(5, 10))
def test_random_4x4_corrections_are_minimum(seed: int, size: int) -> None:
    """Random givens (often contradicting): the correction set is minimum and the core minimal,
    by brute force over every smaller removal."""
    rng = random.Random(seed)
    cells = rng.sample([(r, c) for r in range(4) for c in range(4)], size)
    puzzle = _sudoku4({p: rng.randint(1, 4) for p in cells})
    if api.solve(puzzle).status != "unsatisfiable":
        return
    found = repair(puzzle)
    assert found.status == "unsatisfiable" and found.found and found.proved
    clues = puzzle.clues()
    rest = {k: v for k, v in clues.items() if k not in found.removed}
    assert api.solve(puzzle.with_clues(rest)).status != "unsatisfiable"
    for smaller in range(len(found.removed)):
        for subset in itertools.combinations(clues, smaller):
            left = {k: v for k, v in clues.items() if k not in subset}
            assert api.solve(puzzle.with_clues(left)).status == "unsatisfiable"
    assert api.solve(puzzle.with_clues(found.core)).status == "unsatisfiable"
    for key in found.core:
        less = {k: v for k, v in found.core.items() if k != key}
        assert api.solve(puzzle.with_clues(less)).status != "unsatisfiable"
