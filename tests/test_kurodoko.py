"""Kurodoko: solution sets against brute force (lazy and eager), audits as number removals, the
checker, golden samples and bundled examples, parsing errors, output, exact DIMACS, the CLI, the
codecs (puz.link, pzprv3, Tatham's Range), the puz.link engine's verdict on the answers,
generation, drawing and hints."""
from __future__ import annotations

import random
import shutil
import subprocess
import sys
from itertools import product
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from satgrid import api, formats
from satgrid.cli import main
from satgrid.errors import ParseError, UnsupportedGenre
from satgrid.genres import kurodoko as kd
from satgrid.genres.kurodoko.checker import check_kurodoko
from satgrid.registry import GENRES, genre

from .helpers import SHARED, dimacs_decoded, engine_solutions, first_report, one

ROOT = Path(__file__).resolve().parents[1]
MODES = ("lazy", "eager")
PUZZLEKIT = SHARED / "external" / "genres" / "puzzlekit_kuromasu.txt"
SGT_RANGE = shutil.which("sgt-range") or shutil.which("sgt-range", path="/usr/games")


# -- brute force ------------------------------------------------------------------------------------
def brute_force(rows: int, cols: int, numbers: dict) -> set[tuple[str, ...]]:
    """Every shading that obeys the rules, written here from the rulebook alone."""
    found = set()
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    for bits in product((False, True), repeat=rows * cols):
        black = {p for p, b in zip(cells, bits) if b}
        if any((r, c + 1) in black or (r + 1, c) in black for r, c in black):
            continue
        white = [p for p in cells if p not in black]
        if white:  # flood fill from one white cell
            reached, todo = {white[0]}, [white[0]]
            while todo:
                r, c = todo.pop()
                for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    if q in cells and q not in black and q not in reached:
                        reached.add(q)
                        todo.append(q)
            if len(reached) != len(white):
                continue
        ok = True
        for (r, c), k in numbers.items():
            if (r, c) in black:
                ok = False
                break
            seen = 1
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                y, x = r + dr, c + dc
                while (y, x) in cells and (y, x) not in black:
                    seen, y, x = seen + 1, y + dr, x + dc
            ok = ok and seen == k
        if ok:
            found.add(tuple("".join("#" if (r, c) in black else "." for c in range(cols)) for r in range(rows)))
    return found


def puzzle_of(rows: int, cols: int, numbers: dict) -> kd.KurodokoPuzzle:
    return kd.KurodokoPuzzle(tuple(tuple(numbers.get((r, c)) for c in range(cols)) for r in range(rows)), "t")


def satgrid_solutions(puzzle: kd.KurodokoPuzzle, connectivity: str = "lazy", limit: int = 5000) -> set:
    return engine_solutions(kd, puzzle, connectivity, limit)


@st.composite
def small_puzzles(draw, max_cells: int = 12, density: float = 0.4):
    rows = draw(st.integers(1, 4))
    cols = draw(st.integers(1, max(1, min(4, max_cells // rows))))
    numbers = {}
    for r in range(rows):
        for c in range(cols):
            if draw(st.floats(0, 1)) < density:
                numbers[r, c] = draw(st.integers(1, rows + cols - 1))
    return rows, cols, numbers


def status_of(count: int) -> str:
    return {0: "unsatisfiable", 1: "unique"}.get(count, "multiple")


# -- encoding against brute force -------------------------------------------------------------------
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles())
def test_solution_sets_match_brute_force(case):
    rows, cols, numbers = case
    expected = brute_force(rows, cols, numbers)
    puzzle = puzzle_of(rows, cols, numbers)
    for mode in MODES:
        assert satgrid_solutions(puzzle, mode) == expected, mode
        assert api.solve(puzzle, unique=True, options=api.Options(connectivity=mode)).status == \
            status_of(len(expected))


def solved_from(rows: int, cols: int, rng: random.Random) -> dict:
    """Every unshaded cell's count, for a random solution of the clue-less rules."""
    shading = rng.choice(sorted(brute_force(rows, cols, {})))
    return {(r, c): kd.checker.seen_from(shading, r, c) for r in range(rows) for c in range(cols)
            if shading[r][c] == "."}


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 3), st.integers(2, 4), st.randoms(use_true_random=False))
def test_audit_matches_brute_force(rows, cols, rng):
    """A number is redundant iff the puzzle without it (its cell free) keeps one solution; the
    minimal clue set found keeps it, and each of its numbers is needed."""
    numbers = solved_from(rows, cols, rng)
    assume(len(brute_force(rows, cols, numbers)) == 1)
    puzzle = puzzle_of(rows, cols, numbers)
    expected = sorted(p for p in numbers
                      if len(brute_force(rows, cols, {q: v for q, v in numbers.items() if q != p})) == 1)
    for mode in MODES:
        result = api.solve(puzzle, audit=True, minimize=True, grade=False, options=api.Options(connectivity=mode))
        assert result.status == "unique" and result.redundant_clues == expected
        kept = set(result.minimal_clues)
        assert len(brute_force(rows, cols, {p: numbers[p] for p in kept})) == 1
        for p in kept:
            assert len(brute_force(rows, cols, {q: numbers[q] for q in kept - {p}})) > 1


@pytest.mark.parametrize("text, status, solution", kd.SAMPLES)
def test_golden_samples_agree_with_brute_force_and_the_solver(text, status, solution):
    [puzzle] = api.load_text(text, genre="kurodoko")
    if puzzle.rows * puzzle.cols <= 16:
        assert status_of(len(brute_force(puzzle.rows, puzzle.cols, puzzle.numbers()))) == status
    result = api.solve(puzzle, unique=True)
    assert result.status == status
    if solution is not None:
        assert result.solution == solution and check_kurodoko(7, 7, puzzle.numbers(), solution) == []


def test_bundled_examples_solve_to_their_solutions():
    puzzles = api.load([str(ROOT / "satgrid" / "data" / "kurodoko.txt")])
    assert len(puzzles) >= 4
    for puzzle in puzzles:
        result = api.solve(puzzle, unique=True)
        assert result.status == "unique" and result.given_solution == "matches", puzzle.name


@pytest.mark.skipif(not PUZZLEKIT.exists(), reason="the puzzlekit dataset's files are not here")
def test_published_puzzles_eager_on_the_small_ones():
    """The lazy run of all 30 is in tests/test_puzzlekit.py; the eager rule agrees on the small."""
    puzzles = [p for p in api.load([str(PUZZLEKIT)]) if p.rows * p.cols <= 100]
    assert puzzles
    for puzzle in puzzles:
        result = api.solve(puzzle, unique=True, options=api.Options(connectivity="eager"))
        assert result.status == "unique" and result.given_solution == "matches", puzzle.name


# -- the checker ------------------------------------------------------------------------------------
@pytest.mark.parametrize("solution, words", [
    (("#.", ".."), "the number 2 at r1c1 is shaded"),
    (("..", ".#"), "the number 2 at r1c1 sees 3 unshaded cells"),
    ((".#", "#."), "separate regions"),
    (("##", ".."), "touch"),
    (("..", "x."), "not 2 rows"),
])
def test_checker_names_each_broken_rule(solution, words):
    problems = check_kurodoko(2, 2, {(0, 0): 2}, solution)
    assert any(words in p for p in problems), problems


def test_checker_accepts_exactly_the_brute_force_solutions():
    numbers = {(0, 0): 3, (2, 2): 2}
    valid = brute_force(3, 3, numbers)
    for bits in product("#.", repeat=9):
        solution = tuple("".join(bits[r * 3:r * 3 + 3]) for r in range(3))
        assert (check_kurodoko(3, 3, numbers, solution) == []) == (solution in valid), solution


# -- text -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, where, words", [
    ("kurodoko\n2 . .\n. .\n", "<text>:3", "row has 2 cells"),
    ("kurodoko\n2 . .\n. x .\n", "<text>:3:3", "token 'x'"),
    ("kurodoko\n2 . .\n. 0 .\n", "<text>:3:3", "out of range 1..4"),
    ("kurodoko\n. . .\n. 5 .\n", "<text>:3:3", "sees at most its row and its column, 4 cells"),
])
def test_parse_errors_name_line_and_column(text, where, words):
    with pytest.raises(ParseError) as caught:
        api.load_text(text)
    message = str(caught.value)
    assert message.startswith(where + ":") and words in message and "\n" not in message


def test_aliases_and_the_solution_section():
    for name in ("kuromasu", "Range", "kurodoko"):
        assert genre(name).name == "kurodoko"
    block = "puzzle a\ngenre: {}\ngivens:\n{} .\n. .\nsolution:\n{} #\n. .\nend\n"
    [puzzle] = api.load_text(block.format("kuromasu", 2, 2))
    assert puzzle.given_solution.solution == (".#", "..")
    [puzzle] = api.load_text(block.format("range", 3, 3))  # the 3 sees 2 cells: not a solution
    assert puzzle.given_solution.solution is None and "sees 2 unshaded cells" in puzzle.given_solution.error


def test_render_and_json_round_trip():
    puzzle = puzzle_of(2, 11, {(0, 0): 11, (1, 2): 3})
    solution = ("." * 10 + "#", "." * 11)
    assert kd.render(puzzle, solution).splitlines()[0] == "11" + "  ." * 9 + "  #"
    [again] = api.load_text("kurodoko\n" + kd.render(puzzle) + "\n")
    assert again.grid == puzzle.grid
    from satgrid.reader import Record

    record = Record("<json>", 1, "x", "kurodoko")
    assert kd.puzzle_from_json(record, kd.puzzle_json(puzzle)).grid == puzzle.grid
    assert kd.solution_from_json(puzzle, GENRES["kurodoko"].solution_json(puzzle, solution)) == solution
    with pytest.raises(ParseError):
        kd.puzzle_from_json(record, [[40, 0]])


# -- DIMACS and external solvers --------------------------------------------------------------------
@pytest.mark.parametrize("grid", ["4 . .\n. . .\n. . 2", ". 4 .\n. . .\n2 . .", "3 . .\n. . .\n. . ."])
def test_eager_dimacs_has_exactly_the_solutions(tmp_path, grid):
    from pysat.formula import CNF
    from pysat.solvers import Solver

    from satgrid import dimacs

    [puzzle] = api.load_text("kurodoko\n" + grid + "\n")
    export = dimacs.build(puzzle, "eager")
    path = tmp_path / "k.cnf"
    path.write_text(export.text)
    shaded = {tuple(key[1:]): int(var) for var, key in export.varmap["primary"].items()}
    found = set()
    with Solver(name="cadical153", bootstrap_with=CNF(from_file=str(path)).clauses) as solver:
        while solver.solve():
            model = set(solver.get_model())
            found.add(tuple("".join("#" if shaded[r, c] in model else "." for c in range(puzzle.cols))
                            for r in range(puzzle.rows)))
            solver.add_clause([-v if v in model else v for v in shaded.values()])
    assert found == brute_force(puzzle.rows, puzzle.cols, puzzle.numbers()) and found


@pytest.mark.skipif(shutil.which("minisat") is None, reason="minisat is not installed")
@pytest.mark.parametrize("connectivity", MODES)
def test_an_external_solver_finds_the_unique_solution(connectivity):
    text, _, solution = kd.SAMPLES[0]
    [puzzle] = api.load_text(text, genre="kurodoko")
    result = api.solve(puzzle, unique=True, options=api.Options(solver="external:minisat",
                                                                 connectivity=connectivity))
    assert (result.status, result.solution) == ("unique", solution)


# -- CLI --------------------------------------------------------------------------------------------
K1 = "kurodoko\n" + kd.SAMPLES[0][0]
K1_SOLUTION = list(kd.SAMPLES[0][2])



def test_cli_solve_unique_audit_encode_decode(tmp_path):
    path = tmp_path / "k1.txt"
    path.write_text(K1)
    runner = CliRunner()
    out = runner.invoke(main, ["solve", str(path), "--unique", "--format", "json"])
    assert out.exit_code == 0, out.output
    assert first_report(out.output)["status"] == "unique" and first_report(out.output)["solution"] == K1_SOLUTION
    out = runner.invoke(main, ["audit", str(path), "--format", "json"])
    assert out.exit_code == 0, out.output
    assert isinstance(first_report(out.output)["redundant_clues"], list)
    assert dimacs_decoded(runner, path, tmp_path)["solution"] == K1_SOLUTION


def test_cli_multiple_shows_a_second_solution(tmp_path):
    path = tmp_path / "m.txt"
    path.write_text("kurodoko\n. .\n. 2\n")
    out = CliRunner().invoke(main, ["solve", str(path), "--unique", "--format", "json"])
    report = first_report(out.output)
    assert report["status"] == "multiple" and {report["solution"][0], report["second_solution"][0]} == {".#", ".."}


def test_cli_bad_input_is_one_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("kuromasu\n2 . .\n. 9 .\n")
    done = subprocess.run([sys.executable, "-m", "satgrid", "solve", str(path)], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line.startswith(f"satgrid: error: {path}:3:3: number 9 is out of range 1..4")


# -- formats ----------------------------------------------------------------------------------------
def test_url_round_trip_and_errors():
    grid = ((2, None, 16, 34) + (None,) * 30,)
    puzzle = kd.KurodokoPuzzle(grid)
    url = formats.write(puzzle, "url").strip()
    assert url == "https://puzz.link/p?kurodoko/34/1/2g-10-22zp"
    assert one(url).puzzle.grid == grid
    for bad, column, words in (("kurodoko/3/1/2.g", 15, "'?' number"), ("kurodoko/3/1/2g9", 16, "out of range 1..3"),
                               ("kurodoko/3/1/2g", 16, "describes 2 cells")):
        with pytest.raises(ParseError) as caught:
            formats.read(bad, "<t>")
        assert caught.value.column == column and words in str(caught.value), str(caught.value)


def test_pzprv3_round_trip_with_and_without_answer():
    [puzzle] = api.load_text(K1)
    solution = api.solve(puzzle).solution
    text = formats.write(puzzle, "pzprv3", solution)
    assert text.splitlines()[:4] == ["pzprv3", "kurodoko", "7", "7"]
    assert text.splitlines()[4] == ". . . . 7 . . " and text.splitlines()[12] == "+ + # + # + + "
    loaded = one(text)
    assert (loaded.puzzle.grid, loaded.solution) == (puzzle.grid, solution)
    assert one(formats.write(puzzle, "pzprv3")).solution is None
    with pytest.raises(ParseError) as caught:
        formats.read("pzprv3\nkurodoko\n1\n2\n2 - \n. . \n", "<t>")
    assert (caught.value.line, caught.value.column) == (5, 3) and "'?' number" in str(caught.value)


def test_range_ids_both_ways():
    game_id = "9x6:a7i7d6_9c6_6h7_10c2_4d5i2a"
    puzzle = one(game_id).puzzle
    assert puzzle.genre == "kurodoko" and (puzzle.rows, puzzle.cols) == (6, 9)
    assert puzzle.grid[0][:3] == (None, 7, None) and puzzle.grid[2][:4] == (None, None, None, 6)
    assert formats.write(puzzle, "tatham").strip() == game_id
    assert one("3:a5b2d", "kurodoko").puzzle.grid == ((None, 5, None), (None, 2, None), (None, None, None))
    for bad, column, words in (("3x2:a9d", 6, "out of range 1..4"), ("3x2:a2f", 7, "goes past"),
                               ("3x2:a2!c", 7, "bad character '!'"), ("100x29:z", 1, "at most 127")):
        with pytest.raises(ParseError) as caught:
            formats.read(bad, "<t>", "kurodoko")
        assert caught.value.column == column and words in str(caught.value), str(caught.value)
    assert formats.write(puzzle_of(1, 127, {}), "tatham").strip() == "127x1:zzzzw"
    with pytest.raises(UnsupportedGenre, match="at most 127"):
        formats.write(puzzle_of(2, 127, {}), "tatham")


@pytest.mark.skipif(SGT_RANGE is None, reason="sgt-range (sgt-puzzles) is not installed")
def test_sgt_range_puzzles_read_back_are_unique_and_write_the_same_ids():
    done = subprocess.run([SGT_RANGE, "--generate", "3", "8x7#20"], capture_output=True, text=True, timeout=60)
    ids = done.stdout.split()
    assert len(ids) == 3 and all(i.startswith("8x7:") for i in ids)
    for game_id in ids:
        puzzle = one(game_id).puzzle
        assert puzzle.genre == "kurodoko" and (puzzle.rows, puzzle.cols) == (7, 8)
        assert api.solve(puzzle, unique=True).status == "unique"
        assert formats.write(puzzle, "tatham").strip() == game_id


def test_cli_convert_round_trips(tmp_path):
    path = tmp_path / "k1.txt"
    path.write_text(K1)
    runner = CliRunner()
    for to in ("url", "pzprv3", "tatham", "text"):
        out = runner.invoke(main, ["convert", str(path), "--to", to])
        assert out.exit_code == 0, (to, out.output)
        back = tmp_path / f"back-{to}.txt"
        back.write_text(out.output)
        again = runner.invoke(main, ["solve", str(back), "--unique", "--format", "json"])
        assert again.exit_code == 0, (to, again.output)
        assert first_report(again.output)["solution"] == K1_SOLUTION, to


def test_pzpr_reads_the_urls_and_accepts_the_answers():
    from .helpers import run_pzpr

    cases = [(p, api.solve(p).solution) for p in api.load([str(ROOT / "satgrid" / "data" / "kurodoko.txt")])]
    broken = [(p, (s[0][:1] + ("#" if s[0][1] == "." else ".") + s[0][2:],) + s[1:]) for p, s in cases]
    reports = run_pzpr([formats.write(p, "url") for p, _ in cases]
                       + [formats.write(p, "pzprv3", s) for p, s in cases + broken])
    n = len(cases)
    for (puzzle, solution), url, answer, wrong in zip(cases, reports[:n], reports[n:2 * n], reports[2 * n:]):
        assert url["pid"] == "kurodoko" and (url["rows"], url["cols"]) == (puzzle.rows, puzzle.cols)
        assert url["clues"] == [-1 if v is None else v for row in puzzle.grid for v in row]
        assert answer["complete"], (puzzle.name, answer["text"])
        assert not wrong["complete"], puzzle.name
        assert one(url["url"]).puzzle.grid == puzzle.grid
        assert url["url"].split("?", 1)[1] == formats.write(puzzle, "url").strip().split("?", 1)[1]
        loaded = one(answer["file"])
        assert (loaded.puzzle.grid, loaded.solution) == (puzzle.grid, solution)


def test_pzpr_writes_the_same_url_bodies_for_random_grids():
    """Numbers 16 and up (``-hh``), long runs of blanks, a number in the last cell: pzpr reads
    satgrid's URL to the same numbers and writes the same body back, byte for byte."""
    from .helpers import run_pzpr

    rng = random.Random(20)
    puzzles = []
    for rows, cols, density in ((12, 30, 0.2), (9, 9, 0.05), (3, 45, 0.5)):
        numbers = {(r, c): rng.randint(1, rows + cols - 1) for r in range(rows) for c in range(cols)
                   if rng.random() < density}
        numbers[rows - 1, cols - 1] = rows + cols - 1
        puzzles.append(puzzle_of(rows, cols, numbers))
    urls = [formats.write(p, "url").strip() for p in puzzles]
    for puzzle, url, report in zip(puzzles, urls, run_pzpr(urls)):
        assert report["clues"] == [-1 if v is None else v for row in puzzle.grid for v in row]
        assert report["url"].split("?", 1)[1] == url.split("?", 1)[1]


# -- the statement, generation, drawing, hints ------------------------------------------------------
def test_rules_are_short_and_name_their_clauses():
    from satgrid.model import statement_lines

    assert statement_lines(kd.rules) <= 60
    names = {name for name, _, _ in kd.encode(puzzle_of(2, 2, {(0, 0): 2})).spans}
    assert {"shaded cells do not touch", "sightline"} <= names


def test_one_encoding_serves_every_value_on_the_same_cells():
    a, b = puzzle_of(3, 3, {(0, 0): 3, (2, 2): 2}), puzzle_of(3, 3, {(0, 0): 4, (2, 2): 5})
    assert kd.cache_key(a) == kd.cache_key(b) != kd.cache_key(puzzle_of(3, 3, {(0, 0): 3}))
    assert api.solve(b, unique=True).status == status_of(len(brute_force(3, 3, b.numbers())))


def test_generic_generator_makes_unique_minimal_kurodoko():
    from satgrid.generators import GENERATORS

    puzzle = GENERATORS["kurodoko"](6, 7, random.Random(5))
    assert (puzzle.rows, puzzle.cols) == (6, 7)
    result = api.solve(puzzle, audit=True, grade=False)
    assert result.status == "unique" and result.minimal is True
    assert GENERATORS["kurodoko"](6, 7, random.Random(5)) == puzzle


def test_read_clues_numbers_every_unshaded_cell():
    solution = ("#..", "...", ".#.")
    puzzle = kd.READ_CLUES(kd.BLANK(3, 3), solution)
    assert puzzle.numbers() == {(0, 1): 3, (0, 2): 4, (1, 0): 4, (1, 1): 4, (1, 2): 5, (2, 0): 2, (2, 2): 3}
    assert check_kurodoko(3, 3, puzzle.numbers(), solution) == []
    assert api.solve(puzzle, unique=True).solution == solution


def test_svg_draws_numbers_and_shaded_cells(tmp_path):
    from satgrid import render_svg

    [puzzle] = api.load_text(K1)
    drawing = render_svg.svg(puzzle, K1_SOLUTION)
    assert drawing.count('class="shaded"') == "".join(K1_SOLUTION).count("#") == 9
    assert drawing.count('class="clue"') == 10
    out = CliRunner().invoke(main, ["render", str(ROOT / "satgrid" / "data" / "kurodoko.txt"), "--solution",
                                    "-o", str(tmp_path / "k.svg")])
    assert out.exit_code == 0, out.output
    assert all((tmp_path / f"k-{i}.svg").read_text().startswith("<svg") for i in (1, 2, 3, 4))


def test_hints_never_name_a_numbered_cell_and_read_a_state():
    from satgrid import grading

    [puzzle] = api.load_text(K1)
    first = grading.hint(puzzle)
    assert first.status == "hint" and first.fact[0][0] == "shaded"
    r, c = first.fact[0][1:]
    assert puzzle.grid[r][c] is None and (K1_SOLUTION[r][c] == "#") == first.fact[1]
    rows = [" ".join(v if v != "." else "?" for v in kd.render(puzzle).split("\n")[i].split()) for i in range(7)]
    rows[1] = "3 ? # ? ? ? 8"
    state = grading.read_state(puzzle, "\n".join(rows) + "\n")
    assert state == {("shaded", 1, 2): True}
    assert grading.hint(puzzle, state).status == "hint"
    rows[1] = "3 # ? ? ? ? 8"
    assert grading.hint(puzzle, grading.read_state(puzzle, "\n".join(rows) + "\n")).status == "wrong"
    with pytest.raises(ParseError, match="'x' is not a cell mark"):
        grading.read_state(puzzle, "\n".join(rows).replace("#", "x", 1) + "\n")

