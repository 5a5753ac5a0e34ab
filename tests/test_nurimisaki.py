"""Nurimisaki: solution sets against brute force (lazy, eager, propagator), audits as numbers
turned into ``?`` circles, the checker against brute force and on broken published solutions,
golden samples and bundled examples, parsing errors, output, exact DIMACS, the CLI, the codecs
(puz.link, pzprv3, JSON), the puz.link engine on the URL bodies, generation, drawing and hints."""
from __future__ import annotations

import random
import subprocess
import sys
from itertools import product
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from satgrid import api, formats
from satgrid.cli import main
from satgrid.errors import ParseError
from satgrid.genres import nurimisaki as nm
from satgrid.genres.nurimisaki.checker import check_nurimisaki
from satgrid.reader import Record
from satgrid.registry import GENRES, genre

from .helpers import SHARED, dimacs_decoded, engine_solutions, first_report, one

ROOT = Path(__file__).resolve().parents[1]
MODES = ("lazy", "eager", "propagator")
#: The propagator runs on a solver with IPASIR-UP (satgrid.propagator.PROPAGATOR_SOLVERS).
PROPAGATOR_SOLVER = "cadical195"


def options(mode: str) -> api.Options:
    return api.Options(connectivity=mode, **({"solver": PROPAGATOR_SOLVER} if mode == "propagator" else {}))
PUZZLEKIT = SHARED / "external" / "genres" / "puzzlekit_nurimisaki.txt"
DATA = ROOT / "satgrid" / "data" / "nurimisaki.txt"


# -- brute force ------------------------------------------------------------------------------------
def shadings(rows: int, cols: int):
    """Every shading of the grid, as rows of ``#`` and ``.``."""
    for bits in product("#.", repeat=rows * cols):
        yield tuple("".join(bits[r * cols:(r + 1) * cols]) for r in range(rows))


def obeys(rows: int, cols: int, circles: dict, s: tuple[str, ...]) -> bool:
    """The rulebook, written here alone (no code shared with the genre or its checker)."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    white = {p for p in cells if s[p[0]][p[1]] == "."}
    if len(white) == len(cells):
        return False  # some cell is shaded
    for r in range(rows - 1):
        for c in range(cols - 1):
            if len({s[r][c], s[r][c + 1], s[r + 1][c], s[r + 1][c + 1]}) == 1:
                return False
    if white:
        start = min(white)
        reached, todo = {start}, [start]
        while todo:
            r, c = todo.pop()
            for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if q in white and q not in reached:
                    reached.add(q)
                    todo.append(q)
        if reached != white:
            return False
    for p in cells:
        r, c = p
        ways = [q for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if q in white]
        cape = p in white and len(ways) == 1
        if cape != (p in circles):
            return False
        k = circles.get(p)
        if isinstance(k, int):
            (y, x), dy, dx = ways[0], ways[0][0] - r, ways[0][1] - c
            seen = 1
            while (y, x) in white:
                seen, y, x = seen + 1, y + dy, x + dx
            if seen != k:
                return False
    return True


def brute_force(rows: int, cols: int, circles: dict) -> set[tuple[str, ...]]:
    return {s for s in shadings(rows, cols) if obeys(rows, cols, circles, s)}


def puzzle_of(rows: int, cols: int, circles: dict) -> nm.NurimisakiPuzzle:
    return nm.NurimisakiPuzzle(tuple(tuple(circles.get((r, c)) for c in range(cols)) for r in range(rows)), "t")


def status_of(count: int) -> str:
    return {0: "unsatisfiable", 1: "unique"}.get(count, "multiple")


def capes_of(s: tuple[str, ...]) -> dict:
    """Every cape of a shading with its count (the puzzle with every number)."""
    return nm.READ_CLUES(nm.BLANK(len(s), len(s[0])), s).numbers()


@st.composite
def small_puzzles(draw):
    """Circles where a random shading has its capes (each a number or ``?``), sometimes one circle
    moved or dropped (mostly unsatisfiable layouts), on grids of up to 12 cells."""
    rows = draw(st.integers(1, 3))
    cols = draw(st.integers(2, 4))
    bits = draw(st.lists(st.sampled_from("#."), min_size=rows * cols, max_size=rows * cols))
    s = tuple("".join(bits[r * cols:(r + 1) * cols]) for r in range(rows))
    circles = {p: (k if draw(st.booleans()) else nm.UNKNOWN) for p, k in capes_of(s).items()}
    if draw(st.integers(0, 3)) == 0:
        p = (draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1)))
        if p in circles:
            del circles[p]
        else:
            circles[p] = draw(st.sampled_from([2, 3, nm.UNKNOWN]))
    return rows, cols, circles


# -- encoding against brute force -------------------------------------------------------------------
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles())
def test_solution_sets_match_brute_force(case):
    rows, cols, circles = case
    expected = brute_force(rows, cols, circles)
    puzzle = puzzle_of(rows, cols, circles)
    for mode in MODES:
        solver = PROPAGATOR_SOLVER if mode == "propagator" else None
        assert engine_solutions(nm, puzzle, mode, solver=solver) == expected, mode
    assert api.solve(puzzle, unique=True).status == status_of(len(expected))


def test_brute_force_cases_have_solutions():
    """The strategy above is not vacuous: layouts read off a valid shading have solutions."""
    s = ("..#", "#..", "..#")
    assert obeys(3, 3, capes_of(s), s) and check_nurimisaki(3, 3, capes_of(s), s) == []
    assert len(brute_force(3, 3, {p: nm.UNKNOWN for p in capes_of(s)})) > 1


def test_rules_without_circles_have_no_capes_and_the_sampler_rules_have_them():
    """With no circle, every solution is cape-free; ``circles=None`` (the sampler) drops that rule."""
    found = engine_solutions(nm, puzzle_of(2, 3, {}))
    assert found == brute_force(2, 3, {}) and found
    from satgrid.model import read_shading
    from satgrid.session import Session

    encoding = nm.build(2, 3, None)
    session = Session(encoding)
    shaded = [encoding.primary["shaded", r, c] for r in range(2) for c in range(3)]
    sampled = set()
    while (outcome := session.solve([])).status == "sat":
        s = read_shading(encoding, "shaded", outcome.assignment, 2, 3)
        sampled.add(s)
        session.add([[-x if outcome.assignment(x) else x for x in shaded]])
    session.close()
    assert sampled == {s for s in shadings(2, 3) if obeys(2, 3, capes_of(s), s)}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 3), st.integers(3, 4), st.randoms(use_true_random=False))
def test_audit_matches_brute_force(rows, cols, rng):
    """A number is redundant iff the puzzle with it turned into ``?`` keeps one solution; the
    minimal clue set found keeps it, and each of its numbers is needed."""
    valid = sorted(s for s in shadings(rows, cols) if obeys(rows, cols, capes_of(s), s))
    assume(valid)
    circles = capes_of(rng.choice(valid))
    assume(len(brute_force(rows, cols, circles)) == 1)

    def without(keys) -> dict:
        return {p: (k if p in keys else nm.UNKNOWN) for p, k in circles.items()}

    puzzle = puzzle_of(rows, cols, circles)
    expected = sorted(p for p in circles if len(brute_force(rows, cols, without(set(circles) - {p}))) == 1)
    for mode in ("lazy", "eager"):
        result = api.solve(puzzle, audit=True, minimize=True, grade=False, options=api.Options(connectivity=mode))
        assert result.status == "unique" and result.redundant_clues == expected
        kept = set(result.minimal_clues)
        assert len(brute_force(rows, cols, without(kept))) == 1
        for p in kept:
            assert len(brute_force(rows, cols, without(kept - {p}))) > 1


def test_a_switched_off_number_leaves_a_question_mark_circle():
    puzzle = puzzle_of(2, 2, {(0, 0): 2, (0, 1): 2})
    assert puzzle.clues() == {(0, 0): 2, (0, 1): 2}
    fewer = puzzle.with_clues({(0, 0): 2})
    assert fewer.grid == ((2, nm.UNKNOWN), (None, None)) and fewer.clues() == {(0, 0): 2}
    assert nm.cache_key(fewer) == nm.cache_key(puzzle)
    assert brute_force(2, 2, fewer.numbers()) >= brute_force(2, 2, puzzle.numbers())


@pytest.mark.parametrize("text, status, solution", nm.SAMPLES)
def test_golden_samples_agree_with_brute_force_and_the_solver(text, status, solution):
    [puzzle] = api.load_text(text, genre="nurimisaki")
    if puzzle.rows * puzzle.cols <= 16:
        assert status_of(len(brute_force(puzzle.rows, puzzle.cols, puzzle.numbers()))) == status
    result = api.solve(puzzle, unique=True)
    assert result.status == status
    if solution is not None:
        assert result.solution == solution and check_nurimisaki(6, 6, puzzle.numbers(), solution) == []


def test_bundled_examples_solve_to_their_solutions():
    puzzles = api.load([str(DATA)])
    assert len(puzzles) >= 4
    for puzzle in puzzles:
        for mode in MODES:
            result = api.solve(puzzle, unique=True, options=options(mode))
            assert result.status == "unique" and result.given_solution == "matches", (puzzle.name, mode)


def published():
    if not PUZZLEKIT.exists():
        pytest.skip("the puzzlekit dataset's files are not here")
    puzzles = api.load([str(PUZZLEKIT)])
    assert len(puzzles) == 30
    return puzzles


@pytest.mark.parametrize("mode", ["eager", "propagator"])
def test_published_puzzles_in_the_other_lowerings(mode):
    """The lazy run of all 30 is in tests/test_puzzlekit.py; the other lowerings agree."""
    for puzzle in published():
        result = api.solve(puzzle, unique=True, options=options(mode))
        assert result.status == "unique" and result.given_solution == "matches", puzzle.name


# -- the checker ------------------------------------------------------------------------------------
def test_checker_rejects_every_published_solution_with_one_cell_flipped():
    for puzzle in published():
        good = puzzle.given_solution.solution
        assert good is not None and nm.check(puzzle, good) == []
        for r in range(puzzle.rows):
            for c in range(puzzle.cols):
                row = good[r][:c] + ("#" if good[r][c] == "." else ".") + good[r][c + 1:]
                assert nm.check(puzzle, good[:r] + (row,) + good[r + 1:]), (puzzle.name, r, c)


@pytest.mark.parametrize("circles, solution, words", [
    ({(0, 0): 2}, ("..", ".."), "no cell is shaded"),
    ({(0, 0): 2}, ("..", ".."), "all unshaded"),
    ({}, ("##", "##"), "all shaded"),
    ({(0, 0): 2}, ("#.", ".#"), "is shaded"),
    ({(0, 0): nm.UNKNOWN}, (".#", "#."), "no cape: it has 0"),
    ({(0, 0): 3}, ("..", "#."), "sees 2 unshaded cells"),
    ({(0, 0): 2}, ("..", "#."), "r2c2 is a cape (one unshaded neighbour) without a circle"),
    ({}, (".#", "#."), "separate regions"),
    ({}, ("..", "x."), "not 2 rows"),
])
def test_checker_names_each_broken_rule(circles, solution, words):
    problems = check_nurimisaki(2, 2, circles, solution)
    assert any(words in p for p in problems), problems


def test_checker_accepts_exactly_the_brute_force_solutions():
    for circles in ({(0, 0): 3, (2, 2): nm.UNKNOWN}, {(0, 0): nm.UNKNOWN, (2, 0): 3}, {}):
        valid = brute_force(3, 3, circles)
        for s in shadings(3, 3):
            assert (check_nurimisaki(3, 3, circles, s) == []) == (s in valid), (circles, s)


# -- text, JSON, errors -----------------------------------------------------------------------------
@pytest.mark.parametrize("text, where, words", [
    ("nurimisaki\n2 . .\n. .\n", "<text>:3", "row has 2 cells"),
    ("nurimisaki\n2 . .\n. x .\n", "<text>:3:3", "token 'x' is not a number, '?' or '.'"),
    ("nurimisaki\n2 . .\n. 1 .\n", "<text>:3:3", "out of range 2..4"),
    ("nurimisaki\n. . .\n. 5 .\n", "<text>:3:3", "at most its row and its column, 2..4"),
])
def test_parse_errors_name_line_and_column(text, where, words):
    with pytest.raises(ParseError) as caught:
        api.load_text(text)
    message = str(caught.value)
    assert message.startswith(where + ":") and words in message and "\n" not in message


def test_render_and_json_round_trip():
    puzzle = puzzle_of(2, 11, {(0, 0): 11, (1, 2): nm.UNKNOWN})
    solution = ("." * 10 + "#", "." * 11)
    assert nm.render(puzzle, solution).splitlines()[0] == "11" + "  ." * 9 + "  #"
    [again] = api.load_text("nurimisaki\n" + nm.render(puzzle) + "\n")
    assert again.grid == puzzle.grid
    record = Record("<json>", 1, "x", "nurimisaki")
    assert nm.puzzle_json(puzzle)[1][:3] == [0, 0, "?"]
    assert nm.puzzle_from_json(record, nm.puzzle_json(puzzle)).grid == puzzle.grid
    assert nm.solution_from_json(puzzle, GENRES["nurimisaki"].solution_json(puzzle, solution)) == solution
    for bad in ([[40, 0]], [["x", 0]]):
        with pytest.raises(ParseError):
            nm.puzzle_from_json(record, bad)


def test_solution_section_may_show_the_circles():
    block = "puzzle a\ngenre: nurimisaki\ngivens:\n2 2\n. .\nsolution:\n{}\n# #\nend\n"
    [puzzle] = api.load_text(block.format("2 2"))
    assert puzzle.given_solution.solution == ("..", "##")
    [puzzle] = api.load_text(block.format("2 #"))
    assert puzzle.given_solution.solution is None and "shaded" in puzzle.given_solution.error


# -- DIMACS, CLI ------------------------------------------------------------------------------------
@pytest.mark.parametrize("grid", ["? . ?\n. . .", "3 . .\n. . ?\n. . .", "2 .\n. 2"])
def test_eager_dimacs_has_exactly_the_solutions(grid):
    from pysat.solvers import Solver

    from satgrid import dimacs

    [puzzle] = api.load_text("nurimisaki\n" + grid + "\n")
    export = dimacs.build(puzzle, "eager")
    shaded = {tuple(key[1:]): int(var) for var, key in export.varmap["primary"].items()}
    found = set()
    with Solver(name="cadical153", bootstrap_with=export.clauses) as solver:
        while solver.solve():
            model = set(solver.get_model())
            found.add(tuple("".join("#" if shaded[r, c] in model else "." for c in range(puzzle.cols))
                            for r in range(puzzle.rows)))
            solver.add_clause([-v if v in model else v for v in shaded.values()])
    assert found == brute_force(puzzle.rows, puzzle.cols, puzzle.numbers()) and found


M1 = "nurimisaki\n" + nm.SAMPLES[0][0]
M1_SOLUTION = list(nm.SAMPLES[0][2])


def test_cli_solve_unique_audit_encode_decode(tmp_path):
    path = tmp_path / "m1.txt"
    path.write_text(M1)
    runner = CliRunner()
    out = runner.invoke(main, ["solve", str(path), "--unique", "--format", "json"])
    assert out.exit_code == 0, out.output
    assert first_report(out.output)["status"] == "unique" and first_report(out.output)["solution"] == M1_SOLUTION
    out = runner.invoke(main, ["audit", str(path), "--format", "json"])
    assert out.exit_code == 0, out.output
    assert first_report(out.output)["redundant_clues"] == []  # generated clue-minimal
    assert dimacs_decoded(runner, path, tmp_path)["solution"] == M1_SOLUTION


def test_cli_bad_input_is_one_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("nurimisaki\n2 . .\n. 9 .\n")
    done = subprocess.run([sys.executable, "-m", "satgrid", "solve", str(path)], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line.startswith(f"satgrid: error: {path}:3:3: number 9 is out of range 2..4")


# -- formats ----------------------------------------------------------------------------------------
def test_url_round_trip_and_errors():
    grid = ((2, None, "?", 34) + (None,) * 30,)
    puzzle = nm.NurimisakiPuzzle(grid)
    url = formats.write(puzzle, "url").strip()
    assert url == "https://puzz.link/p?nurimisaki/34/1/2g.-22zp"
    assert one(url).puzzle.grid == grid
    for bad, column, words in (("nurimisaki/3/1/2g9", 18, "circle 9 is out of range 2..3"),
                               ("nurimisaki/3/1/1g.", 16, "circle 1 is out of range 2..3"),
                               ("nurimisaki/3/1/2g", 18, "describes 2 cells")):
        with pytest.raises(ParseError) as caught:
            formats.read(bad, "<t>")
        assert caught.value.column == column and words in str(caught.value), str(caught.value)


def test_pzprv3_round_trip_with_and_without_answer():
    [puzzle] = api.load_text(M1)
    solution = api.solve(puzzle).solution
    text = formats.write(puzzle, "pzprv3", solution)
    assert text.splitlines()[:4] == ["pzprv3", "nurimisaki", "6", "6"]
    assert text.splitlines()[4] == "6 . . . 3 . " and text.splitlines()[10] == "+ # # # + # "
    loaded = one(text)
    assert (loaded.puzzle.grid, loaded.solution) == (puzzle.grid, solution)
    assert one(formats.write(puzzle, "pzprv3")).solution is None
    with pytest.raises(ParseError) as caught:
        formats.read("pzprv3\nnurimisaki\n1\n2\n2 1 \n. . \n", "<t>")
    assert caught.value.line == 5 and "out of range 2..2" in str(caught.value)


def test_cli_convert_round_trips(tmp_path):
    path = tmp_path / "m1.txt"
    path.write_text(M1)
    runner = CliRunner()
    for to in ("url", "pzprv3", "text"):
        out = runner.invoke(main, ["convert", str(path), "--to", to])
        assert out.exit_code == 0, (to, out.output)
        back = tmp_path / f"back-{to}.txt"
        back.write_text(out.output)
        again = runner.invoke(main, ["solve", str(back), "--unique", "--format", "json"])
        assert again.exit_code == 0, (to, again.output)
        assert first_report(again.output)["solution"] == M1_SOLUTION, to


def test_pzpr_reads_the_url_bodies_as_satgrid_writes_them():
    """pzpr 0.10.1 has no ``nurimisaki`` type, but pzprjs writes Nurimisaki's URL body with
    Kurodoko's code (``kurodoko.js`` serves both pids; ``?`` circles as ``.``). Opened under the
    ``kurodoko`` pid, pzpr reads satgrid's bodies to the same circles (``?`` as -2) and writes the
    same body back, byte for byte: the engine judges the body. Its checker cannot judge the
    answers (no Nurimisaki rules in 0.10.1): the independent checker and brute force do."""
    from .helpers import run_pzpr

    rng = random.Random(24)
    puzzles = [api.solve(p).puzzle for p in api.load([str(DATA)])]
    for rows, cols, density in ((12, 30, 0.2), (9, 9, 0.05), (3, 45, 0.5)):
        circles = {(r, c): (rng.randint(2, rows + cols - 1) if rng.random() < 0.7 else nm.UNKNOWN)
                   for r in range(rows) for c in range(cols) if rng.random() < density}
        circles[rows - 1, cols - 1] = rows + cols - 1
        puzzles.append(puzzle_of(rows, cols, circles))
    bodies = [formats.write(p, "url").strip().split("?", 1)[1] for p in puzzles]
    assert all(b.startswith("nurimisaki/") for b in bodies)
    reports = run_pzpr(["https://puzz.link/p?kurodoko/" + b.split("/", 1)[1] for b in bodies])
    for puzzle, body, report in zip(puzzles, bodies, reports):
        assert report["clues"] == [-1 if v is None else -2 if v == nm.UNKNOWN else v
                                   for row in puzzle.grid for v in row]
        assert report["url"].split("?", 1)[1].split("/", 1)[1] == body.split("/", 1)[1]


# -- the statement, generation, drawing, hints ------------------------------------------------------
def test_rules_are_short_and_name_their_clauses():
    from satgrid.model import statement_lines

    assert statement_lines(nm.rules) <= 60
    names = {name for name, _, _ in nm.encode(puzzle_of(2, 3, {(0, 0): 2})).spans}
    assert {"some cell is shaded", "no 2x2 block is all shaded", "no 2x2 block is all unshaded",
            "the capes are exactly the circles", "sightline"} <= names


def test_one_encoding_serves_every_number_on_the_same_circles():
    a = puzzle_of(3, 3, {(0, 0): 3, (2, 2): 2})
    b = puzzle_of(3, 3, {(0, 0): nm.UNKNOWN, (2, 2): 5})
    assert nm.cache_key(a) == nm.cache_key(b) != nm.cache_key(puzzle_of(3, 3, {(0, 0): 3}))
    assert api.solve(b, unique=True).status == status_of(len(brute_force(3, 3, b.numbers())))


def test_generic_generator_makes_unique_minimal_nurimisaki():
    from satgrid.generators import GENERATORS

    puzzle = GENERATORS["nurimisaki"](6, 6, random.Random(3))
    assert (puzzle.rows, puzzle.cols) == (6, 6)
    result = api.solve(puzzle, audit=True, grade=False)
    assert result.status == "unique" and result.minimal is True
    assert GENERATORS["nurimisaki"](6, 6, random.Random(3)) == puzzle


def test_read_clues_circles_every_cape():
    solution = ("..#", "#..", "..#")
    puzzle = nm.READ_CLUES(nm.BLANK(3, 3), solution)
    assert puzzle.numbers() == {(0, 0): 2, (1, 2): 2, (2, 0): 2}
    assert check_nurimisaki(3, 3, puzzle.numbers(), solution) == []


def test_svg_draws_circles_numbers_and_shaded_cells(tmp_path):
    from satgrid import render_svg

    [puzzle] = api.load_text(M1)
    drawing = render_svg.svg(puzzle, M1_SOLUTION)
    assert drawing.count('class="shaded"') == "".join(M1_SOLUTION).count("#")
    assert drawing.count("white-circle") == 8 and drawing.count('class="clue"') == 3
    out = CliRunner().invoke(main, ["render", str(DATA), "--solution", "-o", str(tmp_path / "m.svg")])
    assert out.exit_code == 0, out.output
    assert all((tmp_path / f"m-{i}.svg").read_text().startswith("<svg") for i in (1, 2, 3, 4))


def test_hints_never_name_a_circle_and_read_a_state():
    from satgrid import grading

    [puzzle] = api.load_text(M1)
    first = grading.hint(puzzle)
    assert first.status == "hint" and first.fact[0][0] == "shaded"
    r, c = first.fact[0][1:]
    assert puzzle.grid[r][c] is None and (M1_SOLUTION[r][c] == "#") == first.fact[1]
    assert genre("nurimisaki").part("STATE") is not None


@pytest.mark.parametrize("seed", [3, 6])
def test_sampler_makes_a_unique_full_puzzle_at_15x15(seed):
    """The sampler's local restarts (new phases around the cells where a second solution
    differs) end on a shading whose full clue set is unique; fixing one differing cell to the
    second solution's value (the former sampler) ran out of rounds on these seeds."""
    full = nm.SAMPLE(15, 15, random.Random(seed))
    result = api.solve(full, unique=True, grade=False)
    assert result.status == "unique"
    assert check_nurimisaki(15, 15, full.numbers(), tuple(result.solution)) == []
    assert nm.READ_CLUES(nm.BLANK(15, 15), tuple(result.solution)) == full  # every cape numbered


def test_generator_makes_a_unique_clue_minimal_15x15():
    from satgrid.generators import GENERATORS

    puzzle = GENERATORS["nurimisaki"](15, 15, random.Random(1))
    result = api.solve(puzzle, audit=True, grade=False)
    assert result.status == "unique" and result.minimal is True
    assert check_nurimisaki(15, 15, puzzle.numbers(), tuple(result.solution)) == []
    assert len(puzzle.clues()) < len(puzzle.circles())  # numbers were removed, circles kept
