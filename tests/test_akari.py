"""Akari (Light Up): the runs rules of the vocabulary on their own, solution sets and audits
against brute force, the checker, parsing errors, output, exact DIMACS, the CLI, the codecs
(puz.link, pzprv3, Light Up game IDs, the puzzlekit dataset), the puz.link engine's verdict,
generation, drawing and hints."""
from __future__ import annotations

import itertools
import random
import shutil
import subprocess
from functools import lru_cache

import pytest
from click.testing import CliRunner
from pysat.solvers import Solver

from satgrid import api, formats, render_svg
from satgrid.cli import main
from satgrid.errors import ParseError, UnsupportedGenre
from satgrid.genres import akari as ak
from satgrid.genres.akari.checker import check_akari
from satgrid.grid import Grid
from satgrid.model import Model

from .helpers import SHARED, dimacs_decoded, engine_solutions, first_report, one

PUZZLEKIT = SHARED / "external" / "genres" / "puzzlekit_akari.txt"
A1 = "akari\n. . 1 .\nx . . .\n. . . 2\n. 0 . .\n"
A1_SOLUTION = (".ox.", "x..o", "o..x", ".x.o")


# -- brute force ------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def brute_force(puzzle: ak.AkariPuzzle) -> frozenset[tuple[str, ...]]:
    """Every light placement the checker accepts, over all subsets of the white cells."""
    white = [(r, c) for r, row in enumerate(puzzle.grid) for c, v in enumerate(row) if v is None]
    found = set()
    for bits in range(1 << len(white)):
        lights = {p for i, p in enumerate(white) if bits >> i & 1}
        solution = ak.decode_lights(puzzle, lights)
        if not ak.check(puzzle, solution):
            found.add(solution)
    return frozenset(found)


def satgrid_solutions(puzzle: ak.AkariPuzzle, connectivity: str = "lazy") -> set:
    return engine_solutions(ak, puzzle, connectivity)


def random_puzzle(rng: random.Random, rows: int, cols: int) -> ak.AkariPuzzle:
    """A random layout: about a quarter black, some black cells numbered (any number that fits)."""
    grid = [[ak.BLACK if rng.random() < 0.25 else None for _ in range(cols)] for _ in range(rows)]
    for r, c in itertools.product(range(rows), range(cols)):
        if grid[r][c] == ak.BLACK and rng.random() < 0.6:
            free = sum(grid[y][x] is None for y, x in Grid.of(rows, cols).neighbours((r, c)))
            grid[r][c] = rng.randint(0, free)
    return ak.AkariPuzzle(tuple(map(tuple, grid)), "t")


CASES = [random_puzzle(random.Random(seed), 3, 3 + seed % 2) for seed in range(24)]


def test_runs_rules_on_their_own():
    """at_most_in_runs and seen_in_runs over a 3x3 grid with its centre closed: every subset of
    the open cells that meets each rule, counted against a direct reading of the rules."""
    grid = Grid.of(3, 3)
    open_cells = [p for p in grid.cells if p != (1, 1)]
    runs = grid.runs(lambda p: p != (1, 1))
    for rule in ("at most one", "seen", "both"):
        m = Model(grid)
        lits = m.cells("x", open_cells)
        if rule != "seen":
            m.at_most_in_runs("one a run", runs, lits)
        if rule != "at most one":
            m.seen_in_runs("seen", runs, lits)
        found = set()
        with Solver(name="cadical153", bootstrap_with=m.build().clauses) as solver:
            while solver.solve():
                model = set(solver.get_model())
                on = frozenset(p for p in open_cells if lits[p] in model)
                found.add(on)
                solver.add_clause([-lits[p] if p in on else lits[p] for p in open_cells])
        expected = set()
        for bits in range(1 << len(open_cells)):
            on = frozenset(p for i, p in enumerate(open_cells) if bits >> i & 1)
            few = all(len(on & set(run)) <= 1 for run in runs)
            seen = all(any(on & set(run) for run in runs if p in run) for p in open_cells)
            if {"at most one": few, "seen": seen, "both": few and seen}[rule]:
                expected.add(on)
        assert found == expected, rule
    # two opposite corners light the ring; two corners of one side see each other
    assert frozenset({(0, 0), (2, 2)}) in expected and frozenset({(0, 0), (0, 2), (2, 1)}) not in expected


@pytest.mark.parametrize("puzzle", CASES)
def test_solution_sets_match_brute_force(puzzle):
    assert satgrid_solutions(puzzle) == brute_force(puzzle)


@pytest.mark.parametrize("puzzle", [p for p in CASES if len(brute_force(p)) == 1][:6])
def test_audit_matches_brute_force(puzzle):
    """A number is redundant exactly when erasing it (its cell stays black) leaves one solution."""
    result = api.solve(puzzle, audit=True, grade=False)
    assert result.status == "unique"
    expected = [p for p in puzzle.clues()
                if len(brute_force(puzzle.with_clues({q: v for q, v in puzzle.clues().items() if q != p}))) == 1]
    assert sorted(result.redundant_clues) == sorted(expected)


def test_with_clues_erases_numbers_and_keeps_black_cells():
    [puzzle] = api.load_text(A1)
    assert puzzle.clues() == {(0, 2): 1, (2, 3): 2, (3, 1): 0}
    bare = puzzle.with_clues({(2, 3): 2})
    assert bare.grid[0][2] == ak.BLACK and bare.grid[3][1] == ak.BLACK and bare.grid[1][0] == ak.BLACK
    assert bare.clues() == {(2, 3): 2} and bare.layout() == puzzle.layout()


# -- the checker -------------------------------------------------------------------------------------
@pytest.mark.parametrize("solution, words", [
    (("..x", "...", "x.o"), ["not lit", "the 1 at r3c1 has 0 lights"]),
    (("o.x", "o..", "x.."), ["shine on each other", "not lit (r3c2, r3c3)"]),
    (("oxx", "...", "x.."), ["is white in the puzzle"]),
    (("oo", ".."), ["not 3 rows"]),
])
def test_checker_names_each_broken_rule(solution, words):
    black = {(0, 2): None, (2, 0): 1}
    problems = check_akari(3, 3, black, solution)
    assert problems and all(any(w in p for p in problems) for w in words), problems


def test_checker_accepts_a_valid_placement():
    assert check_akari(3, 3, {(0, 2): None, (2, 0): 1}, (".ox", "o..", "x.o")) == []


def test_checker_accepts_exactly_the_brute_force_solutions():
    puzzle = CASES[1]
    for bits in range(1 << 12):
        lights = {(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)
                  if bits >> (r * puzzle.cols + c) & 1 and puzzle.grid[r][c] is None}
        solution = ak.decode_lights(puzzle, lights)
        assert (ak.check(puzzle, solution) == []) == (solution in brute_force(puzzle))


# -- parsing ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, where, words", [
    ("akari\n. 5 .\n. . .\n", (2, 3), "out of range 0..4"),
    ("akari\n3 . .\n. . .\n", (2, 1), "has 2 white cells beside it"),
    ("akari\n. x .\n. 4 .\n. x .\n", (3, 3), "has 2 white cells beside it"),
    ("akari\n. # .\n", (2, 3), "'#' is not a cell"),
    ("akari\n. . .\n. .\n", (3, None), "row has 2 cells, expected 3"),
    ("akari\n..1.\nx...\n...2\n.05.\n", (5, 3), "out of range 0..4"),
])
def test_parse_errors_name_line_and_column(text, where, words):
    with pytest.raises(ParseError) as caught:
        api.load_text(text, "p.txt")
    assert (caught.value.line, caught.value.column) == where and words in str(caught.value), str(caught.value)


def test_characters_and_tokens_read_alike():
    [tokens] = api.load_text(A1)
    [chars] = api.load_text("akari\n..1.\nx...\n...2\n.0..\n")
    assert tokens.grid == chars.grid


def test_parse_solution_forms():
    text = ("puzzle a\ngenre: akari\ngivens:\n" + A1.split("\n", 1)[1] + "solution:\n")
    [puzzle] = api.load_text(A1)
    solution = api.solve(puzzle).solution
    for drawn in (ak.render(puzzle, solution), "\n".join(solution).replace("x", "."),
                  "\n".join(row.replace(".", "+") for row in solution)):
        [again] = api.load_text(text + drawn + "\nend\n")
        assert again.given_solution.solution == solution, drawn
    [bad] = api.load_text(text + ". . o .\no . . .\n. . . 2\n. 0 . .\nend\n", "s.txt")
    assert bad.given_solution.solution is None
    assert bad.given_solution.error.startswith("s.txt:9:5:") and "that cell is black" in bad.given_solution.error


def test_render_and_json_round_trip():
    [puzzle] = api.load_text(A1)
    result = api.solve(puzzle, unique=True)
    assert [line.split() for line in ak.render(puzzle).splitlines()][1] == ["x", ".", ".", "."]
    value = ak.puzzle_json(puzzle)
    assert value[1][0] == "x" and value[0][2] == 1 and value[0][0] is None
    from satgrid.reader import Record

    again = ak.puzzle_from_json(Record("<json>", 1, "a", "akari", {}, []), value)
    assert again.grid == puzzle.grid
    assert ak.solution_from_json(puzzle, list(result.solution)) == result.solution
    with pytest.raises(ValueError):
        ak.solution_from_json(puzzle, ["o" * 4] * 4)


# -- exact DIMACS, CLI, external solvers --------------------------------------------------------------
@pytest.mark.parametrize("puzzle", CASES[:6])
def test_eager_dimacs_has_exactly_the_solutions(puzzle):
    from satgrid import dimacs

    export = dimacs.build(puzzle, "eager")
    lights = {tuple(key[1:]): int(var) for var, key in export.varmap["primary"].items()}
    found = set()
    with Solver(name="cadical153", bootstrap_with=export.clauses) as solver:
        while solver.solve():
            model = set(solver.get_model())
            found.add(ak.decode_lights(puzzle, {p for p, v in lights.items() if v in model}))
            solver.add_clause([-v if v in model else v for v in lights.values()])
    assert found == brute_force(puzzle)



def test_cli_solve_unique_audit_encode_decode(tmp_path):
    path = tmp_path / "a1.txt"
    path.write_text(A1)
    runner = CliRunner()
    out = runner.invoke(main, ["solve", str(path), "--unique", "--format", "json"])
    assert out.exit_code == 0, out.output
    report = first_report(out.output)
    solution = report["solution"]
    assert report["status"] == "unique" and solution == list(A1_SOLUTION)
    out = runner.invoke(main, ["audit", str(path), "--format", "json"])
    assert out.exit_code == 0 and first_report(out.output)["status"] == "unique", out.output
    assert dimacs_decoded(runner, path, tmp_path, "minisat22")["solution"] == solution


def test_cli_multiple_shows_a_second_solution(tmp_path):
    path = tmp_path / "m.txt"
    path.write_text("akari\n. . .\n. x .\n. . .\n")
    report = first_report(CliRunner().invoke(main, ["solve", str(path), "--unique", "--format", "json"]).output)
    assert report["status"] == "multiple" and report["second_solution"] != report["solution"]
    [puzzle] = api.load([str(path)])
    assert ak.check(puzzle, tuple(report["second_solution"])) == []


def test_cli_bad_input_is_one_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("akari\n. . .\n. 7 .\n")
    out = CliRunner().invoke(main, ["solve", str(path)])
    assert out.exit_code != 0 and "Traceback" not in out.output
    assert out.output.strip().splitlines() == [f"satgrid: error: {path}:3:3: number 7 is out of range 0..4 "
                                               "(a black cell has four sides)"]


@pytest.mark.skipif(shutil.which("minisat") is None, reason="minisat is not installed")
def test_an_external_solver_finds_the_unique_solution():
    [puzzle] = api.load_text(A1)
    mine = api.solve(puzzle, unique=True)
    result = api.solve(puzzle, unique=True, options=api.Options(solver="external:minisat"))
    assert (result.status, result.solution) == ("unique", mine.solution)


# -- formats ------------------------------------------------------------------------------------------
def test_url_round_trip_and_pids():
    [puzzle] = api.load_text(A1)
    url = formats.write(puzzle, "url").strip()
    assert url == "https://puzz.link/p?akari/4/4/h6.l7a"
    for pid in ("akari", "lightup", "lightup_edit"):
        assert one(url.replace("akari", pid)).puzzle.grid == puzzle.grid


@pytest.mark.parametrize("url, column, words", [
    ("lightup/2/2/3i", 13, "has 2 white cells beside it"),
    ("lightup/2/2/0i0", 15, "extra characters"),
    ("lightup/2/2/0!", 14, "bad character"),
])
def test_url_errors_name_the_column(url, column, words):
    with pytest.raises(ParseError) as caught:
        formats.read(url, "<t>")
    assert caught.value.column == column and words in str(caught.value), str(caught.value)


def test_pzprv3_round_trip_with_and_without_answer():
    [puzzle] = api.load_text(A1)
    solution = api.solve(puzzle).solution
    text = formats.write(puzzle, "pzprv3", solution)
    assert text.splitlines()[:5] == ["pzprv3", "lightup", "4", "4", "+ # 1 + "]
    assert text.splitlines()[5] == "- + + # "
    loaded = one(text)
    assert (loaded.puzzle.grid, loaded.solution) == (puzzle.grid, solution)
    bare = one(formats.write(puzzle, "pzprv3"))
    assert (bare.puzzle.grid, bare.solution) == (puzzle.grid, None)
    with pytest.raises(ParseError) as caught:
        formats.read("pzprv3\nlightup\n1\n2\n5 . \n", "<t>")
    assert (caught.value.line, caught.value.column) == (5, 1) and "out of range" in str(caught.value)


LIGHTUP_IDS = ["7x7:aBc2a1a1cBeBdBdBe2c1aBa3c1a", "10x10:cBg0b0d3BgBb2f1d2e0BeBd0fBb2gB2d2b2gBc",
               "7x7:d0Ba2a2d0d0i0dBd0aBa01d"]


@pytest.mark.parametrize("game_id", LIGHTUP_IDS)
def test_light_up_ids_round_trip_and_are_unique(game_id):
    puzzle = one(game_id).puzzle
    assert puzzle.genre == "akari" and formats.write(puzzle, "tatham").strip() == game_id
    assert api.solve(puzzle, unique=True).status == "unique"


def test_light_up_writes_long_runs_as_lightup_c_does():
    puzzle = ak.AkariPuzzle(((None,) * 27 + (ak.BLACK,), (None,) * 27 + (1,)))
    assert formats.write(puzzle, "tatham").strip() == "28x2:zaBza1"
    assert one("28x2:zaBza1", "akari").puzzle.grid == puzzle.grid


@pytest.mark.parametrize("game_id, column, words", [
    ("3x3:aBcX", 8, "bad character 'X'"), ("3x3:aBd", 8, "has 6 cells"),
    ("3x3:4h", 5, "has 2 white cells beside it"), ("2x2:aBcB", 7, "goes past"),
])
def test_light_up_errors_name_the_column(game_id, column, words):
    with pytest.raises(ParseError) as caught:
        formats.read(game_id, "<t>", genre="akari")
    assert caught.value.column == column and words in str(caught.value), str(caught.value)


def test_light_up_ids_are_told_from_pearl_and_loopy():
    assert one("3x3b20s0d0:aBg").puzzle.genre == "akari"  # Light Up's own params
    assert one("3x3:1Bg").puzzle.genre == "akari"  # a B and a number
    assert one("3x3:aBg").puzzle.genre == "masyu"  # a B alone is Pearl's
    with pytest.raises(ParseError, match="Loopy"):  # numbers alone: Loopy's or Range's, never Light Up's
        one("3x3:1h")
    assert one("3x3:1h", "slitherlink").puzzle.genre == "slitherlink"
    assert one("3x3:1h", "akari").puzzle.grid == ((1, None, None), (None,) * 3, (None,) * 3)
    assert one("3x3b20:1h").puzzle.genre == "akari"


@pytest.mark.skipif(shutil.which("sgt-lightup") is None and not __import__("os").path.exists("/usr/games/sgt-lightup"),
                    reason="sgt-lightup is not installed")
def test_sgt_lightup_puzzles_are_unique():
    program = shutil.which("sgt-lightup") or "/usr/games/sgt-lightup"
    done = subprocess.run([program, "--generate", "3", "10x10b20s2d2"], capture_output=True, text=True, timeout=120)
    ids = [line for line in done.stdout.split() if ":" in line]
    assert len(ids) == 3
    for game_id in ids:
        puzzle = one(game_id).puzzle
        assert api.solve(puzzle, unique=True).status == "unique"
        assert formats.write(puzzle, "tatham").strip() == game_id


def test_puzzlekit_round_trip_and_errors(tmp_path):
    from satgrid.formats import puzzlekit

    [puzzle] = api.load_text(A1)
    solution = api.solve(puzzle).solution
    text = puzzlekit.header(ak.PUZZLEKIT, 1) + puzzlekit.write(puzzle, solution)
    path = tmp_path / "a.txt"
    path.write_text(text)
    [again] = api.load([str(path)])
    assert again.grid == puzzle.grid and again.given_solution.solution == solution
    path.write_text(text.replace("- - 1 -", "- - 5 -", 1))
    with pytest.raises(ParseError) as caught:
        api.load([str(path)])
    assert "out of range 0..4" in str(caught.value) and caught.value.column == 5


def test_pzpr_reads_the_urls_and_accepts_the_answers():
    from .helpers import run_pzpr
    from .pzpr_engine import NODE

    if NODE is None:
        pytest.skip("node is not installed")
    cases = [(p, api.solve(p).solution) for p in api.load([str(ak.__file__).rsplit("/genres", 1)[0] + "/data/akari.txt"])]
    cases += [(p, api.solve(p).solution) for p in CASES if len(brute_force(p)) >= 1][:8]
    broken = []
    for puzzle, solution in cases:
        lights = [(r, c) for r, row in enumerate(solution) for c, x in enumerate(row) if x == "o"]
        r, c = lights[0]
        broken.append(solution[:r] + (solution[r][:c] + "." + solution[r][c + 1:],) + solution[r + 1:])
    items = ([formats.write(p, "url") for p, _ in cases] + [formats.write(p, "pzprv3", s) for p, s in cases]
             + [formats.write(p, "pzprv3", b) for (p, _), b in zip(cases, broken)])
    reports = run_pzpr(items)
    n = len(cases)
    for (puzzle, solution), url, answer, wrong, ours in zip(cases, reports[:n], reports[n:2 * n], reports[2 * n:],
                                                            items[:n]):
        assert url["pid"] == "lightup" and (url["rows"], url["cols"]) == (puzzle.rows, puzzle.cols)
        assert url["clues"] == [-1 if v is None else -2 if v == ak.BLACK else v for row in puzzle.grid for v in row]
        assert url["url"].split("?", 1)[1] == ours.strip().split("?", 1)[1]  # byte for byte
        assert answer["complete"], (puzzle.name, answer["text"])
        assert not wrong["complete"], puzzle.name
        loaded = one(answer["file"])
        assert (loaded.puzzle.grid, loaded.solution) == (puzzle.grid, solution)
        assert one(url["url"]).puzzle.grid == puzzle.grid


# -- the rules, generation, drawing, hints ---------------------------------------------------------
def test_rules_are_short_and_name_their_clauses():
    from satgrid.model import statement_lines

    assert statement_lines(ak.rules) <= 15
    [puzzle] = api.load_text(A1)
    names = {name for name, _, _ in ak.encode(puzzle).spans}
    assert names == {"no light shines on another light", "every white cell is lit"}


def test_one_encoding_per_layout():
    [puzzle] = api.load_text(A1)
    assert ak.cache_key(puzzle) == ak.cache_key(puzzle.with_clues({}))
    assert ak.cache_key(puzzle) != ak.cache_key(ak.AkariPuzzle(((None,) * 4,) * 4))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sample_is_a_numbered_layout_with_one_solution(seed):
    puzzle = ak.SAMPLE(8, 9, random.Random(seed))
    assert (puzzle.rows, puzzle.cols) == (8, 9) and all(isinstance(v, int) for v in puzzle.black().values())
    assert api.solve(puzzle, unique=True).status == "unique"
    assert ak.SAMPLE(8, 9, random.Random(seed)) == puzzle


def test_generic_generator_makes_unique_minimal_akari():
    from satgrid.generators import GENERATORS

    puzzle = GENERATORS["akari"](10, 10, random.Random(7))
    result = api.solve(puzzle, audit=True, grade=False)
    assert result.status == "unique" and result.minimal is True and result.redundant_clues == []
    assert GENERATORS["akari"](10, 10, random.Random(7)) == puzzle


def test_svg_draws_black_cells_white_numbers_and_lights(tmp_path):
    [puzzle] = api.load_text(A1)
    solution = api.solve(puzzle).solution
    drawing = render_svg.svg(puzzle, solution)
    assert drawing.count('class="shaded"') == 4 and drawing.count('class="clue"') == 3
    assert drawing.count('fill="#fff" text-anchor') == 3  # white numbers on black cells
    assert drawing.count("light circle") == sum(row.count("o") for row in solution)
    audit = api.solve(puzzle, audit=True, grade=False)
    marked = render_svg.svg(puzzle, solution, redundant=audit.redundant_clues)
    assert marked.count('class="clue redundant"') == len(audit.redundant_clues)
    out = CliRunner().invoke(main, ["render", str(ak.__file__).rsplit("/genres", 1)[0] + "/data/akari.txt",
                                    "--solution", "-o", str(tmp_path / "a.svg")])
    assert out.exit_code == 0, out.output
    assert all((tmp_path / f"a-{i}.svg").read_text().startswith("<svg") for i in (1, 2, 3))


def test_hints_from_the_empty_grid_and_from_a_state(tmp_path):
    from satgrid import grading

    [puzzle] = api.load_text(A1)
    solution = api.solve(puzzle).solution
    first = grading.hint(puzzle)
    assert first.status == "hint" and first.fact[0][0] == "light"
    r, c = first.fact[0][1:]
    assert (solution[r][c] == "o") == first.fact[1]
    state = grading.read_state(puzzle, "? ? 1 ?\nx ? o ?\n? ? ? 2\n? 0 + ?\n")
    assert state == {("light", 1, 2): True, ("light", 3, 2): False}
    wrong = grading.hint(puzzle, grading.read_state(puzzle, "? ? 1 ?\nx ? ? ?\n? ? ? 2\no 0 ? ?\n"))
    assert wrong.status == "wrong"
    with pytest.raises(ParseError) as caught:
        grading.read_state(puzzle, "? ? 1 ?\nx # ? ?\n? ? ? 2\n? 0 ? ?\n", "s.txt")
    assert str(caught.value).startswith("s.txt:2:3:") and "'#' is not a mark" in str(caught.value)
    path, state_path = tmp_path / "a1.txt", tmp_path / "state.txt"
    path.write_text(A1)
    state_path.write_text("? ? 1 ?\nx ? ? ?\n? ? ? 2\n? 0 ? ?\n")
    out = CliRunner().invoke(main, ["hint", str(path), "--state", str(state_path)])
    assert out.exit_code == 0 and "light" in out.output, out.output
    with pytest.raises(UnsupportedGenre):
        formats.write(ak.AkariPuzzle(((None,),)), "tatham")


@pytest.mark.parametrize("n", [2, 9, 16, 17, 30])
def test_the_estimate_bounds_every_layout(n):
    """An all-white square is the worst layout for its size (every run as long as it gets)."""
    rng = random.Random(n)
    for layout in (tuple((False,) * n for _ in range(n)),
                   tuple(tuple(rng.random() < 0.2 for _ in range(n)) for _ in range(n))):
        built = ak.build.template(layout)
        variables, clauses = ak.estimate(n, n)
        assert built.pool.top <= variables and len(built.clauses) <= clauses
