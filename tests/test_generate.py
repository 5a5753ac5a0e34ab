"""Generators: the Sudoku dig-hole generator at every size and level, the batch driver and the
``satgrid generate`` command. Every generated puzzle is re-audited here through the public API
(unique, clue-minimal at the hardest level) and its solution checked by the independent checker."""
from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from satgrid import api
from satgrid.genres.sudoku.checker import check_sudoku
from satgrid.cli import main
from satgrid.errors import SatgridError
from satgrid.generators import (GENERATORS, GenerationFailed, audit_generated, derive_seed,
                                generate_one, generate_puzzles, make_timed)
from satgrid.genres.sudoku import generator as sg
from satgrid.genres.sudoku import DEFAULT_BOX, SudokuPuzzle

ROOT = Path(__file__).resolve().parents[1]
#: Every size's path: 20 (boxes 4 tall x 5 wide) is the smallest whose at-most-ones are sequential
#: counters (over cnf.PAIRWISE_AMO_LIMIT), as 25's are, at a sixth of 25's cost at the hardest
#: level (25x25: up to 38 s under load); 25x25 encodings are checked in test_sudoku.py.
SIZES = [4, 6, 9, 12, 16, 20]


def givens_count(puzzle: SudokuPuzzle) -> int:
    return len(puzzle.clues())


def line_counts(puzzle: SudokuPuzzle) -> list[int]:
    n = puzzle.size
    rows = [sum(d is not None for d in row) for row in puzzle.givens]
    cols = [sum(puzzle.givens[r][c] is not None for r in range(n)) for c in range(n)]
    return rows + cols


def audit(puzzle: SudokuPuzzle) -> api.Result:
    """Uniqueness and clue minimality re-checked by a fresh audit (no grade: not asserted here)."""
    result = api.solve(puzzle, audit=True, grade=False)
    assert result.status == "unique"
    assert check_sudoku(puzzle.givens, puzzle.box_height, puzzle.box_width, result.solution) == []
    return result


# -- the Sudoku generator -----------------------------------------------------------------------
@pytest.mark.parametrize("n", SIZES)
def test_hardest_level_is_unique_and_clue_minimal_at_every_size(n):
    count = 1 if n >= 16 else 3
    for seed in range(count):
        made = sg.make(n, n, random.Random(seed), level=5)
        puzzle = made.puzzle
        assert (puzzle.box_height, puzzle.box_width) == DEFAULT_BOX[n]
        result = audit(puzzle)
        assert result.minimal is True and result.redundant_clues == []
        assert [list(row) for row in result.solution] == made.solution
        assert 0 < givens_count(puzzle) < n * n


@pytest.mark.parametrize("level", [1, 2, 3, 4])
@pytest.mark.parametrize("n", [4, 9, 16])
def test_levels_respect_their_bounds(n, level):
    band, line = sg.bounds(level, n)
    for seed in range(2 if n == 16 else 4):
        made = sg.make(n, n, random.Random(seed), level=level)
        puzzle = made.puzzle
        assert band[0] <= made.givens_bound <= band[1] and made.line_bound == line
        assert givens_count(puzzle) >= made.givens_bound
        assert min(line_counts(puzzle)) >= line
        if level <= 2:  # random order with loose bounds always gets down to the drawn bound
            assert givens_count(puzzle) == made.givens_bound
        audit(puzzle)


def test_level_table_for_9x9_and_scaling():
    assert [sg.bounds(level, 9) for level in range(1, 6)] == [
        ((50, 59), 5), ((36, 49), 4), ((32, 35), 3), ((28, 31), 2), (None, 0)]
    assert sg.bounds(4, 16) == ((88, 98), 4)
    assert sg.bounds(1, 25) == ((386, 455), 14)
    assert sg.bounds(3, 4) == ((6, 7), 1)


def test_harder_levels_have_fewer_givens():
    medians = []
    for level in range(1, 6):
        counts = sorted(givens_count(sg.generate(9, 9, random.Random(s), level=level)) for s in range(9))
        medians.append(counts[4])
    assert medians == sorted(medians, reverse=True) and medians[0] >= 50 and medians[-1] <= 27


def test_dig_orders():
    rng = random.Random(0)
    assert sg.dig_order("rows", 3, rng) == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2),
                                            (2, 0), (2, 1), (2, 2)]
    assert sg.dig_order("snake", 3, rng) == [(0, 0), (0, 1), (0, 2), (1, 2), (1, 1), (1, 0),
                                             (2, 0), (2, 1), (2, 2)]
    assert sg.dig_order("jumping", 3, rng) == [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2),
                                               (0, 1), (1, 2), (1, 0), (2, 1)]
    cells = sg.dig_order("random", 9, rng)
    assert sorted(cells) == sg.dig_order("rows", 9, rng) and cells != sg.dig_order("rows", 9, rng)


@pytest.mark.parametrize("level", [3, 5])
def test_single_shortcut_gives_the_same_puzzles_as_sat_alone(level):
    """The naked/hidden single test only replaces SAT calls that would answer "unique": with it
    switched off, every SAT answer must dig the very same cells."""
    with_singles = [sg.make(9, 9, random.Random(s), level=level) for s in range(6)]
    assert all(m.stats.singles > 0 for m in with_singles)
    sat_only = [sg.make(9, 9, random.Random(s), level=level, singles=False) for s in range(6)]
    assert all(m.stats.singles == 0 for m in sat_only)
    assert [m.puzzle for m in sat_only] == [m.puzzle for m in with_singles]


def test_each_cell_tried_at_most_once():
    for level in (3, 5):
        made = sg.make(9, 9, random.Random(3), level=level)
        s = made.stats
        assert s.tried + s.skipped <= 81 and s.singles + s.witnessed + s.sat_calls == s.tried
        assert s.passes == 1


@pytest.mark.parametrize("n, singles", [(9, True), (9, False), (4, True)])
def test_unpruned_search_gives_the_pruned_puzzle_at_more_cost(n, singles):
    """Without pruning every remaining given is asked again after the first pass; removing clues
    only relaxes a puzzle, so each of them fails again: the same clue-minimal puzzle, one more
    pass and exactly one more SAT call or witness per given."""
    for seed in range(3):
        pruned = sg.make(n, n, random.Random(seed), level=5, singles=singles)
        unpruned = sg.make(n, n, random.Random(seed), level=5, singles=singles, prune=False)
        assert unpruned.puzzle == pruned.puzzle and unpruned.solution == pruned.solution
        result = audit(unpruned.puzzle)
        assert result.minimal is True and result.redundant_clues == []
        givens = givens_count(unpruned.puzzle)
        p, u = pruned.stats, unpruned.stats
        assert (p.passes, u.passes) == (1, 2) and p.tried == n * n
        assert u.tried == p.tried + givens
        assert u.sat_calls + u.witnessed == p.sat_calls + p.witnessed + givens
        assert u.singles == p.singles and u.singles + u.witnessed + u.sat_calls == u.tried
        assert singles or u.witnessed == 0


def test_unpruned_search_keeps_the_bounds():
    """At a bounded level the extra passes stop at the givens bound and skip lines at their
    bound; some 4x4 seeds end the first pass above the bound and so do take a second pass."""
    second_pass = 0
    for n, seeds in ((9, range(4)), (4, range(30))):
        for seed in seeds:
            pruned = sg.make(n, n, random.Random(seed), level=2)
            unpruned = sg.make(n, n, random.Random(seed), level=2, prune=False)
            assert unpruned.puzzle == pruned.puzzle
            assert givens_count(unpruned.puzzle) >= unpruned.givens_bound
            assert min(line_counts(unpruned.puzzle)) >= unpruned.line_bound
            assert unpruned.stats.tried >= pruned.stats.tried
            second_pass += unpruned.stats.passes > 1
            audit(unpruned.puzzle)
    assert second_pass > 0


@pytest.mark.parametrize("n", [6, 9, 12, 16])
def test_random_grids_and_transforms_are_valid(n):
    h, w = DEFAULT_BOX[n]
    blank = [[None] * n for _ in range(n)]
    rng = random.Random(n)
    grids = [sg.random_grid(n, h, w, rng) for _ in range(3)]
    assert len({tuple(map(tuple, g)) for g in grids}) == 3
    for grid in grids:
        assert check_sudoku(blank, h, w, grid) == []
        moved = sg.random_transform(n, h, w, rng)(grid)
        assert check_sudoku(blank, h, w, moved) == [] and moved != grid
    # a transform maps givens and solution alike: blanks stay blanks, givens keep their solution
    holes = [[d if (r + c) % 3 else 0 for c, d in enumerate(row)] for r, row in enumerate(grids[0])]
    apply = sg.random_transform(n, h, w, random.Random(1))
    moved_holes, moved_grid = apply(holes), apply(grids[0])
    assert all(g in (0, s) for hr, sr in zip(moved_holes, moved_grid) for g, s in zip(hr, sr))
    assert sum(map(bool, sum(moved_holes, []))) == sum(map(bool, sum(holes, [])))


def test_same_seed_same_puzzle_other_seed_other_puzzle():
    first = sg.generate(9, 9, random.Random(42))
    # other work on the same shared solver in between (learnt clauses must not matter)
    for s in range(3):
        sg.generate(9, 9, random.Random(s), level=2)
    api.solve(first, audit=True)
    assert sg.generate(9, 9, random.Random(42)) == first
    others = {sg.generate(9, 9, random.Random(s)).givens for s in range(43, 48)}
    assert first.givens not in others and len(others) == 5
    big = sg.generate(16, 16, random.Random(7), level=3)
    assert sg.generate(16, 16, random.Random(7), level=3) == big


def test_bad_requests():
    with pytest.raises(SatgridError, match="square"):
        sg.generate(9, 6, random.Random(0))
    with pytest.raises(SatgridError, match="no standard box shape for a 7x7"):
        sg.generate(7, 7, random.Random(0))
    with pytest.raises(SatgridError, match="level must be 1..5"):
        sg.generate(9, 9, random.Random(0), level=6)
    with pytest.raises(SatgridError, match="flavour"):
        sg.generate(9, 9, random.Random(0), level=None, flavour="easy")


def test_other_box_shapes():
    puzzle = sg.generate(6, 6, random.Random(1), box=(3, 2))
    assert (puzzle.box_height, puzzle.box_width) == (3, 2)
    assert audit(puzzle).minimal is True


# -- the paper's difficulty score ---------------------------------------------------------------
def brute_nodes(grid: list[list[int]], h: int, w: int, limit: int) -> int:
    """The plain enumeration written the obvious way: recursion, cells row-major, values up."""
    n = len(grid)
    blanks = [(r, c) for r in range(n) for c in range(n) if not grid[r][c]]
    nodes = 0

    def ok(r, c, d):
        top, left = r - r % h, c - c % w
        return (d not in grid[r] and all(grid[i][c] != d for i in range(n))
                and all(grid[top + i][left + j] != d for i in range(h) for j in range(w)))

    def search(k):
        nonlocal nodes
        if k == len(blanks):
            return True
        r, c = blanks[k]
        for d in range(1, n + 1):
            if ok(r, c, d):
                nodes += 1
                grid[r][c] = d
                if nodes >= limit or search(k + 1):
                    return True
                grid[r][c] = 0
        return False

    search(0)
    return nodes


def test_search_count_against_plain_recursion():
    for seed in range(6):
        n = (4, 6, 9)[seed % 3]
        h, w = DEFAULT_BOX[n]
        puzzle = sg.generate(n, n, random.Random(seed), level=5)
        grid = [[d or 0 for d in row] for row in puzzle.givens]
        # the same traversal: equal counts, also when both stop at the limit
        assert sg.search_count(puzzle.givens, h, w, 20_000) == brute_nodes(grid, h, w, 20_000)
    empty = [[0] * 4 for _ in range(4)]
    assert sg.search_count(empty, 2, 2) == brute_nodes(empty, 2, 2, 10**6) >= 16
    assert sg.search_count([[None] * 9 for _ in range(9)], 3, 3, limit=50) == 50


def test_paper_level():
    full = SudokuPuzzle(tuple(tuple(row) for row in sg.random_grid(9, 3, 3, random.Random(0))), 3, 3)
    assert sg.search_count(full.givens, 3, 3) == 0 and sg.paper_level(full) == 1
    seventeen = api.load_text(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")[0]
    assert sg.paper_level(seventeen) >= 4
    levels = [sg.paper_level(sg.generate(9, 9, random.Random(s), level=1)) for s in range(3)]
    assert levels == [1, 1, 1]


# -- the driver and the command -----------------------------------------------------------------
def test_driver_seeds_and_reports():
    assert "sudoku" in GENERATORS
    made = list(generate_puzzles("sudoku", 9, 9, 3, seed=11))
    assert [m.seed for m in made] == [11, derive_seed(11, 1), derive_seed(11, 2)]
    assert len({m.seed for m in made}) == 3
    again = generate_one("sudoku", 9, 9, made[2].seed)
    assert again.puzzle == made[2].puzzle
    for m in made:
        out = m.to_json()
        assert out["status"] == "unique" and out["minimal"] is True and out["level"] == 5
        assert 1 <= out["paper_level"] <= 5 and out["seed"] == m.seed
    easy = generate_one("sudoku", 9, 9, 3, level=1)
    assert easy.result.minimal is False and easy.to_json()["minimal"] is False
    with pytest.raises(SatgridError, match="no generator"):
        list(generate_puzzles("sudoku-x", 9, 9, 1, 0))


def test_timed_making_then_audit_is_generate_one():
    made = make_timed("sudoku", 9, 9, 5)
    assert made.generate_s > 0 and made.puzzle.name == "sudoku-9x9-5"
    checked = audit_generated(made)
    again = generate_one("sudoku", 9, 9, 5)
    assert checked.puzzle == again.puzzle
    assert checked.result.status == "unique" and checked.result.minimal is True
    assert checked.level == again.level == 5 and checked.seed == 5


def test_audit_refuses_a_puzzle_the_generator_did_not_promise():
    made = make_timed("sudoku", 9, 9, 8)
    solution = audit_generated(made).result.solution
    grid = [list(row) for row in made.puzzle.givens]
    (r, c), _ = next(iter(made.puzzle.clues().items()))
    grid[r][c] = None  # a clue-minimal puzzle without one of its clues has other solutions
    fewer = replace(made, puzzle=replace(made.puzzle, givens=tuple(map(tuple, grid))))
    with pytest.raises(GenerationFailed, match="seed 8.* is multiple, not unique"):
        audit_generated(fewer)
    grid = [list(row) for row in made.puzzle.givens]
    r, c = next((r, c) for r in range(9) for c in range(9) if grid[r][c] is None)
    grid[r][c] = solution[r][c]  # one clue more than a clue-minimal puzzle needs
    more = replace(made, puzzle=replace(made.puzzle, givens=tuple(map(tuple, grid))))
    with pytest.raises(GenerationFailed, match="has redundant clues"):
        audit_generated(more)


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_cli_json_contract_and_resolve():
    result = run("generate", "sudoku", "--size", "9x9", "--count", "3", "--seed", "1", "--format", "json")
    assert result.exit_code == 0, result.output
    objs = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(objs) == 3
    for obj in objs:
        assert {"id", "genre", "rows", "cols", "status", "puzzle", "solution", "solver", "stats",
                "minimal", "seed"} <= obj.keys()
        assert set(obj["stats"]) == {"time_s", "sat_calls", "cegar_iterations", "cuts"}
        assert obj["genre"] == "sudoku" and obj["rows"] == obj["cols"] == 9
        assert obj["status"] == "unique" and obj["minimal"] is True
        assert isinstance(obj["seed"], int) and 1 <= obj["paper_level"] <= 5
        if importlib.util.find_spec("satgrid.grading") is not None:
            assert obj["grade"] in (0, 1, 2)
        else:
            assert "grade" not in obj
        grid = obj["puzzle"]
        assert all(len(row) == 9 and all(0 <= d <= 9 for d in row) for row in grid)
        text = "".join(str(d) for row in grid for d in row)
        [puzzle] = api.load_text(text)
        again = api.solve(puzzle, unique=True)
        assert again.status == "unique"
        assert [list(row) for row in again.solution] == obj["solution"]
    assert objs[0]["seed"] == 1 and len({json.dumps(o["puzzle"]) for o in objs}) == 3


def test_cli_text_levels_and_errors():
    out = run("generate", "sudoku", "--size", "4x4", "--level", "2", "--seed", "5").stdout
    assert out.startswith("puzzle sudoku-4x4-5\ngenre: sudoku\nrows: 4\ncols: 4\nstatus: unique\nlevel: 2\n")
    assert "seed: 5\ngivens:\n" in out and "flavour" not in out
    normal = run("generate", "solo", "--size", "9x9", "--flavour", "normal", "--seed", "2").stdout
    assert "level: 3\nflavour: normal\n" in normal
    bad = run("generate", "sudoku", "--size", "9x9", "--level", "2", "--flavour", "hard")
    assert bad.exit_code == 2 and "not both" in bad.output
    bad = run("generate", "sudoku", "--size", "nine")
    assert bad.exit_code == 2 and "is not ROWSxCOLS" in bad.output
    bad = run("generate", "sudoku", "--size", "9x9", "--level", "6")
    assert bad.exit_code == 2
    bad = run("generate", "sudoku", "--size", "7x7")
    assert bad.exit_code == 1 and "no standard box shape" in bad.output
    bad = run("generate", "chess", "--size", "8x8")
    assert bad.exit_code == 1 and "unknown genre" in bad.output


def test_real_subprocess_with_jobs_matches_library():
    proc = subprocess.run(
        [sys.executable, "-m", "satgrid", "generate", "sudoku", "--size", "6x6", "--count", "3",
         "--seed", "9", "--jobs", "2", "--format", "json"],
        capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    objs = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [o["seed"] for o in objs] == [9, derive_seed(9, 1), derive_seed(9, 2)]
    for obj in objs:
        mine = generate_one("sudoku", 6, 6, obj["seed"])
        assert mine.to_json()["puzzle"] == obj["puzzle"]


def test_the_driver_calls_a_generators_hooks_and_has_defaults(monkeypatch):
    """A generator with ``generate`` alone: no levels, minimal unless "normal", no extra report
    fields; with hooks, the driver asks them (levels, minimality, report)."""
    import types

    from satgrid import generators

    calls: list = []

    def generate(rows, cols, rng, *, options, flavour="hard", **kwargs):
        calls.append(("generate", kwargs, flavour))
        return sg.generate(rows, cols, rng, level=5, options=options)

    bare = types.ModuleType("bare_generator")
    bare.generate = generate
    monkeypatch.setitem(generators.MODULES, "sudoku", bare)
    monkeypatch.setitem(generators.GENERATORS, "sudoku", generate)
    made = generators.generate_one("sudoku", 4, 4, 3)
    assert made.level is None and made.extra == {} and made.result.minimal
    assert calls == [("generate", {}, "hard")] and generators.promises_minimal("sudoku", None, "hard")
    assert not generators.promises_minimal("sudoku", None, "normal")
    with pytest.raises(SatgridError, match="has flavours .* not levels"):
        generators.check_request("sudoku", 4, 4, 2, None)

    bare.resolve_level = lambda level, flavour: level or 4
    bare.promises_minimal = lambda level, flavour: True
    bare.report = lambda puzzle: {"givens_left": len(puzzle.clues())}
    bare.check_options = lambda rows, cols: calls.append(("check", rows, cols))
    calls.clear()
    made = generators.generate_one("sudoku", 4, 4, 3, level=2)
    assert made.level == 2 and made.extra == {"givens_left": len(made.puzzle.clues())}
    assert ("generate", {"level": 2}, "hard") in calls and ("check", 4, 4) in calls
    from satgrid.cli import _generated_text

    assert "givens-left: " in _generated_text(made)


def test_a_time_limit_gives_the_same_puzzles_or_says_how_many_were_made():
    """Within the limit: the very puzzles of a run without one (the same seeds, made in worker
    processes); past it: LimitReached naming how many were made, and no worker left running."""
    import multiprocessing

    from satgrid.errors import LimitReached

    plain = [(p.seed, p.puzzle.clues()) for p in generate_puzzles("sudoku", 4, 4, 2, 7)]
    limited = [(p.seed, p.puzzle.clues()) for p in generate_puzzles("sudoku", 4, 4, 2, 7, time_limit=120)]
    assert limited == plain and len(plain) == 2
    made = []
    with pytest.raises(LimitReached, match="0 of 2 puzzles made"):
        made.extend(generate_puzzles("nurikabe", 30, 30, 2, 7, time_limit=0))
    assert made == [] and multiprocessing.active_children() == []


def test_cli_time_limit_reached_is_an_outcome():
    out = CliRunner().invoke(main, ["generate", "nurikabe", "--size", "30x30", "--count", "2",
                                    "--seed", "7", "--time-limit", "0"])
    assert out.exit_code == 3, out.output
    assert out.stdout == "" and out.stderr.strip() == "satgrid: time limit reached: 0 of 2 puzzles made"
