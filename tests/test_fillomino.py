"""Fillomino: solution sets against brute force (lazy and eager, every subset of a solution's
numbers), audits, sizes above the one-hot cap, the checker, the 30 puzzlekit puzzles, parsing
errors, output, exact DIMACS, the CLI, the codecs (puz.link, pzprv3, Tatham's Filling), the
puz.link engine's verdict, generation and hints."""
from __future__ import annotations

import random
import shutil
import subprocess
import sys
from itertools import combinations, product
from pathlib import Path

import pytest
from click.testing import CliRunner

from satgrid import api, formats
from satgrid.cli import main
from satgrid.errors import ParseError, UnsupportedGenre
from satgrid.genres import fillomino as fm
from satgrid.genres.fillomino.checker import check_fillomino
from satgrid.grid import Grid
from satgrid.reader import Record
from satgrid.registry import GENRES

from .helpers import SHARED, dimacs_decoded, engine_solutions, first_report, one
from .test_sized_regions import brute

ROOT = Path(__file__).resolve().parents[1]
MODES = ("lazy", "eager")
PUZZLEKIT = SHARED / "external" / "genres" / "puzzlekit_fillomino.txt"


def puzzle_of(rows: int, cols: int, numbers: dict) -> fm.FillominoPuzzle:
    return fm.FillominoPuzzle(tuple(tuple(numbers.get((r, c)) for c in range(cols)) for r in range(rows)), "t")


def as_rows(rows: int, cols: int, flat: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(flat[r * cols:(r + 1) * cols]) for r in range(rows))


def expected(rows: int, cols: int, numbers: dict, every: set | None = None) -> set:
    """Brute force: every filling of the grid that keeps the given numbers."""
    grid = Grid.of(rows, cols)
    every = brute(grid) if every is None else every
    index = {grid.index(p): v for p, v in numbers.items()}
    return {as_rows(rows, cols, s) for s in every if all(s[i] == v for i, v in index.items())}


def satgrid_solutions(puzzle: fm.FillominoPuzzle, connectivity: str = "lazy", limit: int = 5000) -> set:
    return engine_solutions(fm, puzzle, connectivity, limit)


def status_of(count: int) -> str:
    return {0: "unsatisfiable", 1: "unique"}.get(count, "multiple")


# -- encoding against brute force ---------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_every_subset_of_a_solutions_numbers_matches_brute_force(mode):
    """2x3: every subset of two solutions' numbers as givens; each status through the api too."""
    rows, cols = 2, 3
    every = brute(Grid.of(rows, cols))
    cells = list(Grid.of(rows, cols).cells)
    for chosen in sorted(every)[:: len(every) // 2][:2]:
        for k in range(len(cells) + 1):
            for pick in combinations(range(len(cells)), k):
                numbers = {cells[i]: chosen[i] for i in pick}
                want = expected(rows, cols, numbers, every)
                puzzle = puzzle_of(rows, cols, numbers)
                assert satgrid_solutions(puzzle, mode) == want, numbers
                result = api.solve(puzzle, unique=True, options=api.Options(connectivity=mode))
                assert result.status == status_of(len(want)), numbers


@pytest.mark.parametrize("mode", MODES)
def test_random_clue_sets_on_3x3_and_2x4_match_brute_force(mode):
    """Random numbers (not only a solution's: also unsatisfiable sets) on 3x3 and 2x4."""
    rng = random.Random(20)
    for rows, cols in ((3, 3), (2, 4)):
        every = brute(Grid.of(rows, cols))
        cells = list(Grid.of(rows, cols).cells)
        for _ in range(8):
            numbers = {p: rng.randint(1, 5) for p in rng.sample(cells, rng.randint(1, 3))}
            assert satgrid_solutions(puzzle_of(rows, cols, numbers), mode) == expected(rows, cols, numbers, every)


def test_the_small_golden_samples_match_brute_force():
    for text, status, solution in fm.SAMPLES[1:]:
        [puzzle] = api.load_text("fillomino\n" + text)
        want = expected(puzzle.rows, puzzle.cols, puzzle.numbers())
        assert status == status_of(len(want)) and (solution is None or want == {solution})


def test_audit_matches_brute_force():
    """A number is redundant iff the puzzle without it (the cell blank) stays unique."""
    rows, cols = 3, 3
    every = brute(Grid.of(rows, cols))
    rng = random.Random(5)
    done = 0
    for chosen in rng.sample(sorted(every), 40):
        cells = list(Grid.of(rows, cols).cells)
        numbers = {p: chosen[Grid.of(rows, cols).index(p)] for p in rng.sample(cells, 5)}
        if len(expected(rows, cols, numbers, every)) != 1:
            continue
        want = sorted(p for p in numbers
                      if len(expected(rows, cols, {q: v for q, v in numbers.items() if q != p}, every)) == 1)
        result = api.solve(puzzle_of(rows, cols, numbers), audit=True, grade=False)
        assert result.status == "unique" and result.redundant_clues == want, numbers
        done += 1
    assert done >= 3


def test_sizes_above_the_cap_stay_exact(monkeypatch):
    """With the one-hot cap at 1, every size but 1 lives in binary: the examples still solve to
    their solutions and stay unique; a blank 2x2 has brute force's solutions."""
    monkeypatch.setattr(fm, "cap_of", lambda puzzle: 1)
    for puzzle in api.load([str(ROOT / "satgrid" / "data" / "fillomino.txt")])[:3]:
        assert fm.encode(puzzle).layers["number"].domain == (1, 2)
        full = api.solve(puzzle, unique=True)
        assert full.status == "unique" and full.given_solution == "matches", puzzle.name
    blank = puzzle_of(2, 2, {})
    for mode in MODES:
        assert satgrid_solutions(blank, mode) == expected(2, 2, {})


def test_an_unclued_region_bigger_than_every_given():
    """1x5 with a 1 at each end: the middle is one region of 3 (or 1 3 3 3 1 only)."""
    puzzle = puzzle_of(1, 5, {(0, 0): 1, (0, 4): 1})
    assert satgrid_solutions(puzzle, "lazy") == expected(1, 5, puzzle.numbers()) == {((1, 3, 3, 3, 1),)}
    big = puzzle_of(1, 12, {(0, 0): 1})
    assert api.solve(big).solution == ((1,) + (11,) * 11,)



@pytest.mark.parametrize("cell", [(3, 0), (3, 1), (3, 2), (3, 3)])
def test_a_4x4_with_one_clue_is_reported_ambiguous(cell):
    """The first example with three of its four givens removed: on a nearly empty grid the
    sized-region cuts once took about 4,000 CEGAR rounds (15-30 s) for the ambiguity report
    (encodings/fillomino.md). Both solutions found keep the given and pass the checker, and the
    report counts up to its cap with the given's cell decided."""
    from satgrid.ambiguity import report

    example = api.load([str(Path(fm.__file__).parents[2] / "data" / fm.EXAMPLES)])[0]
    puzzle = example.with_clues({cell: example.clues()[cell]})
    result = api.solve(puzzle, unique=True)
    assert result.status == "multiple" and result.solution != result.second_solution
    for solution in (result.solution, result.second_solution):
        assert check_fillomino(4, 4, puzzle.numbers(), solution) == []
    ambiguity = report(puzzle, cap=10)
    assert ambiguity.status == "multiple" and ambiguity.count == 10 and not ambiguity.exact
    assert cell in ambiguity.decided

# -- the checker ------------------------------------------------------------------------------------
@pytest.mark.parametrize("solution, words", [
    (((1, 2, 2), (3, 3, 3)), ""),
    (((1, 2, 2), (3, 3, 1)), "has 2 cells, not 3"),
    (((2, 2, 2), (3, 3, 3)), "has 3 cells, not 2"),
    (((1, 2, 2), (3, 3)), "not 2 rows of 3"),
    (((1, 2, 2), (3, 3, 0)), "positive numbers"),
    (((3, 3, 3), (1, 2, 2)), "the given 1 holds 3"),
])
def test_checker_names_each_broken_rule(solution, words):
    problems = check_fillomino(2, 3, {(0, 0): 1}, solution)
    assert (problems == []) if not words else any(words in p for p in problems), problems


def test_checker_accepts_exactly_the_brute_force_solutions():
    """On 2x2 and 1x4 every grid of numbers 1..4 is accepted iff brute force lists it."""
    for rows, cols in ((2, 2), (1, 4)):
        good = expected(rows, cols, {})
        for flat in product(range(1, 5), repeat=rows * cols):
            grid = as_rows(rows, cols, flat)
            assert (check_fillomino(rows, cols, {}, grid) == []) == (grid in good)


# -- the puzzlekit puzzles (janko.at, with published solutions) ----------------------------------
def puzzlekit_puzzles() -> list:
    if not PUZZLEKIT.exists():
        pytest.skip(f"shared data not found at {PUZZLEKIT}")
    return formats.read_with_solutions(PUZZLEKIT.read_text(), str(PUZZLEKIT))


def test_puzzlekit_puzzles_eager():
    for item in puzzlekit_puzzles()[:1]:
        result = api.solve(item.puzzle, unique=True, options=api.Options(connectivity="eager"))
        assert (result.status, result.solution) == ("unique", item.solution), item.puzzle.name
        assert result.stats.cuts == 0


def test_audit_of_a_real_puzzle_keeps_its_solution():
    item = puzzlekit_puzzles()[1]
    result = api.solve(item.puzzle, audit=True, grade=False)
    assert result.status == "unique"
    for key in result.redundant_clues[:3]:
        smaller = item.puzzle.with_clues({p: v for p, v in item.puzzle.numbers().items() if p != key})
        again = api.solve(smaller, unique=True)
        assert (again.status, again.solution) == ("unique", item.solution)


def test_bundled_examples_solve_to_their_solutions():
    puzzles = api.load([str(ROOT / "satgrid" / "data" / "fillomino.txt")])
    assert [p.name for p in puzzles] == ["f1", "f2", "f3", "f4"]
    for puzzle in puzzles:
        result = api.solve(puzzle, unique=True)
        assert result.status == "unique" and result.given_solution == "matches", puzzle.name


# -- parsing ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, where, words", [
    ("fillomino\n1 2 1\n2 1\n", "<text>:3", "row has 2 cells"),
    ("fillomino\n1 2 1\n2 x 1\n", "<text>:3:3", "token 'x'"),
    ("fillomino\n1 2 1\n2 7 1\n", "<text>:3:3", "bigger than the 2x3 grid"),
    ("fillomino\n1 2\n2 -3\n", "<text>:3:3", "token '-3'"),
    ("puzzle a\ngenre: fillomino\ncols: 3\ngivens:\n1 2\n2 1\nend\n", "<text>:1", "cols: 3"),
    ("puzzle a\ngenre: fillomino\ngivens:\n1 .\n. .\nsolution:\n1 3\n3 3\nend\n", None, None),
    ("puzzle a\ngenre: fillomino\ngivens:\n1 .\n. .\nsolution:\n1 5\n3 3\nend\n", None, "'5'"),
])
def test_parse_errors_name_line_and_column(text, where, words):
    if where is None:  # a solution section is kept; a broken one is reported, not fatal
        [puzzle] = api.load_text(text)
        if words is None:
            assert puzzle.given_solution.solution == ((1, 3), (3, 3))
        else:
            assert puzzle.given_solution.solution is None and words in puzzle.given_solution.error
        return
    with pytest.raises(ParseError) as caught:
        api.load_text(text)
    message = str(caught.value)
    assert message.startswith(where + ":") and words in message and "\n" not in message


def test_parse_compact_rows_blanks_and_big_numbers():
    [compact] = api.load_text("fillomino\n4.41\n-4__\n")
    assert compact.grid == ((4, None, 4, 1), (None, 4, None, None))
    [wide] = api.load_text("fillomino\n12 " + " ".join(["."] * 11) + "\n")
    assert wide.numbers() == {(0, 0): 12}


# -- output -----------------------------------------------------------------------------------------
def test_render_json_and_svg():
    puzzle = puzzle_of(1, 12, {(0, 0): 1})
    solution = ((1,) + (11,) * 11,)
    assert fm.render(puzzle).split() == ["1"] + ["."] * 11
    assert fm.render(puzzle, solution).split()[:3] == ["1", "11", "11"]
    [again] = api.load_text("fillomino\n" + fm.render(puzzle) + "\n")
    assert again.grid == puzzle.grid
    record = Record("<json>", 1, "x", "fillomino")
    assert fm.puzzle_from_json(record, fm.puzzle_json(puzzle)).grid == puzzle.grid
    g = GENRES["fillomino"]
    assert fm.solution_from_json(puzzle, g.solution_json(puzzle, solution)) == solution
    with pytest.raises(ValueError):
        fm.solution_from_json(puzzle, [[1]])
    from satgrid import render_svg
    picture = render_svg.svg(puzzle, solution)
    assert picture.count('class="clue"') == 1 and picture.count('class="value"') == 11
    assert picture.count('class="box"') == 1  # the one border between the 1 and the 11s


# -- DIMACS -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("rows, cols, numbers", [(2, 3, {(0, 0): 2}), (3, 3, {(1, 1): 3, (0, 0): 1})])
def test_eager_dimacs_has_exactly_the_solutions(tmp_path, rows, cols, numbers):
    """Every model of the exported CNF, projected on the primary variables, is a solution; each
    solution comes once."""
    from pysat.formula import CNF
    from pysat.solvers import Solver

    from satgrid import dimacs

    puzzle = puzzle_of(rows, cols, numbers)
    export = dimacs.build(puzzle, "eager")
    path = tmp_path / "f.cnf"
    path.write_text(export.text)
    cnf = CNF(from_file=str(path))
    primary = {int(var): tuple(key) for var, key in export.varmap["primary"].items()}
    above = fm.cap_of(puzzle) + 1
    found = []
    with Solver(name="cadical153", bootstrap_with=cnf.clauses) as solver:
        while solver.solve():
            model = set(solver.get_model())
            on = {key for var, key in primary.items() if var in model}
            values = {}
            for key in on:
                if key[0] == "number":
                    values[key[1], key[2]] = 0 if key[3] == above else key[3]
            bits = [key for key in on if key[0] == "number bit"]  # a size above the cap, in binary
            assert all(values[key[1], key[2]] == 0 for key in bits)
            for key in bits:
                values[key[1], key[2]] += 1 << key[3]
            found.append(tuple(tuple(values[r, c] for c in range(cols)) for r in range(rows)))
            solver.add_clause([-v if v in model else v for v in primary])
    assert len(found) == len(set(found))
    assert set(found) == expected(rows, cols, numbers)


# -- CLI --------------------------------------------------------------------------------------------
F1 = "fillomino\n. . . .\n. . . .\n. . . .\n3 4 3 4\n"
F1_SOLUTION = [[1, 4, 1, 4], [3, 4, 3, 4], [3, 4, 3, 4], [3, 4, 3, 4]]



def test_cli_solve_unique_audit_encode_decode(tmp_path):
    path = tmp_path / "f1.txt"
    path.write_text(F1)
    runner = CliRunner()
    out = runner.invoke(main, ["solve", str(path), "--unique", "--format", "json"])
    assert out.exit_code == 0, out.output
    report = first_report(out.output)
    assert report["status"] == "unique" and report["solution"] == F1_SOLUTION
    out = runner.invoke(main, ["audit", str(path), "--format", "json"])
    assert out.exit_code == 0, out.output
    report = first_report(out.output)
    assert report["status"] == "unique" and report["redundant_clues"] == []
    assert dimacs_decoded(runner, path, tmp_path)["solution"] == F1_SOLUTION


def test_cli_multiple_shows_a_second_solution(tmp_path):
    path = tmp_path / "m.txt"
    path.write_text("fillomino\n. .\n. .\n")
    out = CliRunner().invoke(main, ["solve", str(path), "--unique", "--format", "json"])
    report = first_report(out.output)
    assert report["status"] == "multiple" and report["second_solution"] != report["solution"]


def test_cli_bad_input_is_one_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("fillomino\n1 2 1\n2 40 1\n")
    out = CliRunner().invoke(main, ["solve", str(path)])
    assert out.exit_code != 0
    assert "bad.txt:3:3" in out.output and "bigger than" in out.output and "Traceback" not in out.output


def test_cli_subprocess_with_the_alias(tmp_path):
    path = tmp_path / "f1.txt"
    path.write_text(F1.split("\n", 1)[1])
    done = subprocess.run([sys.executable, "-m", "satgrid", "solve", str(path), "--genre", "filling", "--unique"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "unique" in done.stdout and "1 4 1 4" in done.stdout


def test_generate_unique_and_clue_minimal():
    from satgrid.generators import generate_one

    made = generate_one("fillomino", 5, 5, 7)
    puzzle = made.puzzle
    assert (puzzle.rows, puzzle.cols) == (5, 5)
    result = api.solve(puzzle, audit=True, grade=False)
    assert result.status == "unique" and result.redundant_clues == []
    assert generate_one("fillomino", 5, 5, 7).puzzle == puzzle


def test_hint_and_grade():
    from satgrid.grading import grade, hint, read_state

    [puzzle] = api.load_text(F1)
    state = read_state(puzzle, "1 . . .\n. . . .\n. . . .\n3 4 3 4\n")
    assert state == {("number", 0, 0, 1): True}
    step = hint(puzzle, state)
    assert step is not None
    assert grade(puzzle) in (0, 1, 2, 3)
    with pytest.raises(ParseError):
        read_state(puzzle, "1 x . .\n. . . .\n. . . .\n3 4 3 4\n")


# -- formats: puz.link URLs, pzprv3 files, Filling game IDs -----------------------------------------
def test_url_round_trip():
    grid = ((1, None, 12, 16), (None,) * 4, (None,) * 4, (11, None, None, 4))
    puzzle = fm.FillominoPuzzle(grid)
    url = formats.write(puzzle, "url").strip()
    assert url == "https://puzz.link/p?fillomino/4/4/1gc-10nbh4"
    assert one(url).puzzle.grid == grid


@pytest.mark.parametrize("url, column, words", [
    ("fillomino/3/1/12", 17, "describes 2 cells"), ("fillomino/3/1/1234", 18, "extra characters"),
    ("fillomino/3/1/1.3", 16, "'?' number"), ("fillomino/3/1/103", 16, "out of range 1..3"),
])
def test_url_errors_name_the_column(url, column, words):
    with pytest.raises(ParseError) as caught:
        formats.read(url, "<t>")
    assert caught.value.column == column and words in str(caught.value), str(caught.value)


def test_pzprv3_round_trip_with_and_without_answer():
    [puzzle] = api.load_text(F1)
    solution = api.solve(puzzle).solution
    text = formats.write(puzzle, "pzprv3", solution)
    lines = text.splitlines()
    assert lines[:4] == ["pzprv3", "fillomino", "4", "4"]
    assert lines[7] == "3 4 3 4 " and lines[8] == "1 4 1 4 " and lines[11] == ". . . . "
    assert lines[12] == "1 1 1 " and lines[16:19] == ["1 0 1 0 ", "0 0 0 0 ", "0 0 0 0 "]
    loaded = one(text)
    assert (loaded.puzzle.grid, loaded.solution) == (puzzle.grid, solution)
    bare = one(formats.write(puzzle, "pzprv3"))
    assert (bare.puzzle.grid, bare.solution) == (puzzle.grid, None)
    with pytest.raises(ParseError) as caught:
        formats.read("pzprv3\nfillomino\n1\n2\n1 - \n. . \n0 \n", "<t>")
    assert (caught.value.line, caught.value.column) == (5, 3) and "'?' number" in str(caught.value)
    with pytest.raises(ParseError) as caught:
        formats.read("pzprv3\nfillomino\n1\n2\n1 . \n. 1 \n7 \n", "<t>")
    assert caught.value.line == 7 and "not a border" in str(caught.value)


def test_filling_ids_round_trip():
    puzzle = fm.FillominoPuzzle(((None,) * 4, (None,) * 4, (None,) * 4, (3, 4, 3, 4)))
    assert formats.write(puzzle, "tatham").strip() == "4x4:l3434"
    assert one("4x4:l3434", "fillomino").puzzle.grid == puzzle.grid
    with pytest.raises(ParseError) as caught:  # also a Loopy ID (a digit a cell, clues 0-4)
        one("4x4:l3434")
    assert "--genre" in str(caught.value)
    signed = one("5x5:2a45a2e533a3b31a5c")  # two digits side by side, a 5, a run of 5 blanks
    assert signed.puzzle.genre == "fillomino" and signed.puzzle.grid[0] == (2, None, 4, 5, None)
    with pytest.raises(UnsupportedGenre):
        formats.write(fm.FillominoPuzzle(((10,) + (None,) * 10,)), "tatham")


@pytest.mark.parametrize("game_id, column, words", [
    ("2x2:12", 7, "has 2 cells"), ("2x2:1212a", 9, "goes on after"),
    ("2x2:1d", 6, "goes past"), ("2x2:1_21", 6, "bad character"), ("2x2:1a50", 7, "bigger than"),
])
def test_filling_errors_name_the_column(game_id, column, words):
    with pytest.raises(ParseError) as caught:
        formats.read(game_id, "<t>", "fillomino")
    assert caught.value.column == column and words in str(caught.value), str(caught.value)


SGT_FILLING = shutil.which("sgt-filling") or shutil.which("sgt-filling", path="/usr/games")


@pytest.mark.skipif(SGT_FILLING is None, reason="sgt-filling (sgt-puzzles) is not installed")
def test_sgt_filling_puzzles_are_unique():
    """Tatham's generator makes puzzles its solver solves: they read, are unique, write back."""
    done = subprocess.run([SGT_FILLING, "--generate", "3", "7x6#20"], capture_output=True, text=True, timeout=60)
    ids = done.stdout.split()
    assert len(ids) == 3 and all(i.startswith("7x6:") for i in ids)
    for game_id in ids:
        puzzle = one(game_id).puzzle
        assert (puzzle.rows, puzzle.cols) == (6, 7)
        assert api.solve(puzzle, unique=True).status == "unique"
        assert formats.write(puzzle, "tatham").strip() == game_id


NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node is not installed: the puz.link engine cannot run")
def test_the_puzzlink_engine_reads_the_urls_and_accepts_the_answers():
    """pzpr opens every URL satgrid writes to the same numbers and writes the same URL back; it
    accepts every solution written as pzprv3 as complete, and rejects one with a cell changed."""
    from .helpers import run_pzpr

    puzzles = api.load([str(ROOT / "satgrid" / "data" / "fillomino.txt")])
    puzzles.append(fm.FillominoPuzzle(((1, None, 12, 16), (None,) * 4, (None,) * 4, (11, None, None, 4))))
    urls = [formats.write(p, "url").strip() for p in puzzles]
    solved = puzzles[:-1]
    solutions = [api.solve(p).solution for p in solved]
    broken = []
    for p, s in zip(solved, solutions):
        r, c = next((r, c) for r in range(p.rows) for c in range(p.cols) if p.grid[r][c] is None)
        rows = [list(row) for row in s]
        rows[r][c] = rows[r][c] % 9 + 1
        broken.append(formats.write(p, "pzprv3", tuple(map(tuple, rows))))
    reports = run_pzpr(urls + [formats.write(p, "pzprv3", s) for p, s in zip(solved, solutions)] + broken)
    n, m = len(puzzles), len(solved)
    for p, url, report in zip(puzzles, urls, reports[:n]):
        assert report["pid"] == "fillomino" and report["url"].split("?", 1)[1] == url.split("?", 1)[1]
        assert report["clues"] == [-1 if v is None else v for row in p.grid for v in row]
    assert all(report["complete"] for report in reports[n:n + m]), reports[n:n + m]
    assert not any(report["complete"] for report in reports[n + m:])


@pytest.mark.skipif(shutil.which("cadical") is None, reason="the cadical binary is not installed")
def test_an_external_solver_finds_the_same_unique_solution():
    [puzzle] = api.load_text(F1)
    result = api.solve(puzzle, unique=True, options=api.Options(solver="external:cadical"))
    assert (result.status, [list(row) for row in result.solution]) == ("unique", F1_SOLUTION)
