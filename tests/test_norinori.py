"""Norinori: solution sets against brute force, the golden samples, the checker, parsing errors
(rooms too small, grids that are not rectangular), output, exact DIMACS, the CLI (audit of a
puzzle without clues, hints), the codecs (puz.link border body, pzprv3 with rooms, the puzzlekit
dataset), the sampler, and the puz.link engine's verdict on the answers and URLs."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from satgrid import api, formats, render_svg, rooms
from satgrid.cli import main
from satgrid.errors import ParseError, SatgridError
from satgrid.genres import norinori as nn
from satgrid.genres.norinori.checker import check_norinori
from satgrid.grid import Grid
from satgrid.reader import Record
from satgrid.registry import GENRES

from .helpers import SHARED, dimacs_decoded, first_report, one, run_pzpr

ROOT = Path(__file__).resolve().parents[1]
PUZZLEKIT = SHARED / "external" / "genres" / "puzzlekit_norinori.txt"


# -- brute force ------------------------------------------------------------------------------------
def brute_force(rows: int, cols: int, found: rooms.Rooms) -> set[tuple[str, ...]]:
    """Every shading with two shaded cells a room and exactly one shaded neighbour a shaded cell,
    over all 2^(rows*cols) masks (room counts first, to prune)."""
    grid = Grid.of(rows, cols)
    index = {p: i for i, p in enumerate(grid.cells)}
    masks = [sum(1 << index[p] for p in room) for room in found]
    near = [sum(1 << index[q] for q in grid.neighbours(p)) for p in grid.cells]
    out = set()
    for black in range(1 << (rows * cols)):
        if any(bin(black & m).count("1") != 2 for m in masks):
            continue
        if all(bin(black & near[i]).count("1") == 1 for i in range(rows * cols) if black >> i & 1):
            out.add(tuple("".join("#" if black >> index[(r, c)] & 1 else "." for c in range(cols))
                          for r in range(rows)))
    return out


def status_of(count: int) -> str:
    return {0: "unsatisfiable", 1: "unique"}.get(count, "multiple")


def random_puzzles(count: int, seed: int, most: int = 12) -> list[nn.NorinoriPuzzle]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        rows, cols = rng.randint(1, 4), rng.randint(2, 4)
        if rows * cols > most:
            continue
        found = rooms.random_rooms(rows, cols, rng, min_size=2, max_size=rng.choice([3, 4, 6]))
        out.append(nn.puzzle_of(found, rows, cols))
    return out


def test_solution_sets_match_brute_force():
    for puzzle in random_puzzles(40, 1):
        expected = brute_force(puzzle.rows, puzzle.cols, puzzle.rooms)
        result = api.solve(puzzle, unique=True)
        assert result.status == status_of(len(expected)), nn.render(puzzle)
        if expected:
            assert result.solution in expected
            assert result.second_solution is None or result.second_solution in expected


@pytest.mark.parametrize("text, status, solution", nn.SAMPLES)
def test_samples_are_what_brute_force_says(text, status, solution):
    [puzzle] = api.load_text("norinori\n" + text)
    expected = brute_force(puzzle.rows, puzzle.cols, puzzle.rooms)
    assert status_of(len(expected)) == status
    assert solution is None or expected == {solution}


# -- the checker ------------------------------------------------------------------------------------
SAMPLE_PUZZLE = api.load_text("norinori\n" + nn.SAMPLES[0][0])[0]


@pytest.mark.parametrize("solution, words", [
    (("#.##", "#...", "...#", "##.#"), ""),
    (("#.##", "#...", "....", "##.#"), "room 3 (at r2c3) holds 1 shaded cells, not 2"),
    (("#.##", "#...", "...#", "##.#")[:3] + ("###.",), "r4c2 touches 2 shaded cells, not 1"),
    (("..##", "#...", "...#", "##.#"), "shaded cell r2c1 touches 0 shaded cells"),
    (("#.#", "#..", "..#", "##."), "not 4x4"),
    (("#.#x", "#...", "...#", "##.#"), "characters other than"),
])
def test_checker_names_each_broken_rule(solution, words):
    problems = nn.check(SAMPLE_PUZZLE, solution)
    assert (problems == []) if not words else any(words in p for p in problems), problems


def test_checker_accepts_exactly_the_brute_force_solutions():
    """On a 3x4 grid every one of the 4096 shadings is accepted iff brute force lists it."""
    found = rooms.rooms_from_ids([list("aaab"), list("aabb"), list("cccb")])
    good = brute_force(3, 4, found)
    assert len(good) == 7
    for mask in range(1 << 12):
        shading = tuple("".join("#" if mask >> (4 * r + c) & 1 else "." for c in range(4)) for r in range(3))
        assert (check_norinori(3, 4, found, shading) == []) == (shading in good)


# -- the puzzlekit puzzles (janko.at, with published solutions) ----------------------------------
def test_puzzlekit_text_reads_and_writes_back():
    """Solving the dataset to its published solutions: tests/test_puzzlekit.py, for every genre."""
    if not PUZZLEKIT.exists():
        pytest.skip(f"shared data not found at {PUZZLEKIT}")
    loaded = formats.read_with_solutions(PUZZLEKIT.read_text(), str(PUZZLEKIT))
    assert len(loaded) == 30 and all(nn.check(x.puzzle, x.solution) == [] for x in loaded)
    codec = GENRES["norinori"].part("PUZZLEKIT")
    written = formats.puzzlekit.header(codec, 1) + formats.puzzlekit.write(loaded[0].puzzle, loaded[0].solution)
    again = formats.read_with_solutions(written, "<w>")
    assert (again[0].puzzle.rooms, again[0].solution) == (loaded[0].puzzle.rooms, loaded[0].solution)


def test_bundled_examples_solve_to_their_solutions():
    puzzles = api.load([str(ROOT / "satgrid" / "data" / "norinori.txt")])
    assert len(puzzles) == 4
    for puzzle in puzzles:
        result = api.solve(puzzle, unique=True)
        assert result.status == "unique" and result.given_solution == "matches", puzzle.name


# -- parsing ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, where, words", [
    ("norinori\na a b\na c b\n", "<text>:3:3", "a room of one cell (at r2c2)"),
    ("norinori\na a b\na a\n", "<text>:3", "not rectangular"),
    ("norinori\na a b\na - b\n", "<text>:3:3", "'-' is not a room id"),
    ("puzzle a\ngenre: norinori\nrows: 3\ngivens:\na a\nb b\nend\n", "<text>:1", "rows: 3"),
])
def test_parse_errors_name_line_and_column(text, where, words):
    with pytest.raises(ParseError) as caught:
        api.load_text(text)
    message = str(caught.value)
    assert message.startswith(where + ":") and words in message and "\n" not in message


def test_parse_solution_forms_and_errors():
    text = "puzzle a\ngenre: norinori\ngivens:\na a b b\na a b b\nsolution:\n{}\nend\n"
    for rows in ("##..\n..##", "# # 2 2\n1 1 # #", "##++\n++##", "# # . 2\n. 1 # #"):
        [puzzle] = api.load_text(text.format(rows))
        assert puzzle.given_solution.solution == ("##..", "..##"), rows
    [puzzle] = api.load_text(text.format("# # 2 2\n2 1 # #"))  # 2 is not this cell's room id
    assert puzzle.given_solution.solution is None and "'2' is not a solution cell for r2c1" in puzzle.given_solution.error


# -- output -----------------------------------------------------------------------------------------
def test_render_and_json_round_trip():
    found = rooms.rooms_from_ids([[str(c // 2) for c in range(20)], [str(c // 2) for c in range(20)]])
    puzzle = nn.puzzle_of(found, 2, 20)
    solution = ("#." * 10, "#." * 10)
    assert nn.render(puzzle).splitlines()[0] == " 1  1  2  2  3  3  4  4  5  5  6  6  7  7  8  8  9  9 10 10"
    assert nn.render(puzzle, solution).splitlines()[1].startswith(" #  1  #  2")
    [again] = api.load_text("norinori\n" + nn.render(puzzle) + "\n")
    assert again.rooms == puzzle.rooms
    record = Record("<json>", 1, "x", "norinori")
    assert nn.puzzle_from_json(record, nn.puzzle_json(puzzle)).rooms == puzzle.rooms
    assert nn.solution_from_json(puzzle, GENRES["norinori"].solution_json(puzzle, solution)) == solution
    with pytest.raises(ParseError):
        nn.puzzle_from_json(record, {"rooms": [[1, 1], [2]]})
    with pytest.raises(ParseError):
        nn.puzzle_from_json(record, [[1, 1]])
    drawing = render_svg.svg(puzzle, solution)
    assert drawing.count('class="shaded"') == 20 and drawing.count('class="box"') == 9  # 9 walls


# -- DIMACS -----------------------------------------------------------------------------------------
def test_dimacs_has_exactly_the_solutions(tmp_path):
    from pysat.formula import CNF
    from pysat.solvers import Solver

    from satgrid import dimacs

    for puzzle in random_puzzles(6, 3):
        export = dimacs.build(puzzle, "eager")
        path = tmp_path / "n.cnf"
        path.write_text(export.text)
        shaded = {tuple(key[1:]): int(var) for var, key in export.varmap["primary"].items()}
        found = set()
        with Solver(name="cadical153", bootstrap_with=CNF(from_file=str(path)).clauses) as solver:
            while solver.solve():
                model = set(solver.get_model())
                found.add(tuple("".join("#" if shaded[r, c] in model else "." for c in range(puzzle.cols))
                                for r in range(puzzle.rows)))
                solver.add_clause([-v if v in model else v for v in shaded.values()])
        assert found == brute_force(puzzle.rows, puzzle.cols, puzzle.rooms)


# -- CLI --------------------------------------------------------------------------------------------
N1 = "norinori\n" + nn.SAMPLES[0][0]
N1_SOLUTION = list(nn.SAMPLES[0][2])



def test_cli_solve_audit_encode_decode(tmp_path):
    path = tmp_path / "n1.txt"
    path.write_text(N1)
    runner = CliRunner()
    out = runner.invoke(main, ["solve", str(path), "--unique", "--format", "json"])
    assert out.exit_code == 0, out.output
    assert first_report(out.output)["solution"] == N1_SOLUTION
    out = runner.invoke(main, ["audit", str(path)])
    assert out.exit_code == 0, out.output
    assert "redundant clues: none (the puzzle has no clues to remove" in out.output
    out = runner.invoke(main, ["audit", str(path), "--format", "json"])
    assert first_report(out.output)["redundant_clues"] == []
    assert dimacs_decoded(runner, path, tmp_path)["solution"] == N1_SOLUTION


def test_cli_multiple_and_bad_input(tmp_path):
    path = tmp_path / "m.txt"
    path.write_text("norinori\na a\na a\n")
    report = first_report(CliRunner().invoke(main, ["solve", str(path), "--unique", "--format", "json"]).output)
    assert report["status"] == "multiple" and report["second_solution"] != report["solution"]
    path.write_text("norinori\na a b\nc a b\n")
    out = CliRunner().invoke(main, ["solve", str(path)])
    assert out.exit_code != 0 and "m.txt:3:1" in out.output and "one cell" in out.output
    assert "Traceback" not in out.output


def test_hint_names_a_forced_cell(tmp_path):
    path, state = tmp_path / "n1.txt", tmp_path / "state.txt"
    path.write_text(N1)
    state.write_text("# ? ? ?\n? ? ? ?\n? ? ? ?\n? ? ? ?\n")
    out = CliRunner().invoke(main, ["hint", str(path), "--state", str(state)])
    assert out.exit_code == 0, out.output
    assert "shaded" in out.output
    state.write_text("# ? x ?\n? ? ? ?\n? ? ? ?\n? ? ? ?\n")
    out = CliRunner().invoke(main, ["hint", str(path), "--state", str(state)])
    assert out.exit_code != 0 and "state.txt:1:5" in out.output


# -- formats ----------------------------------------------------------------------------------------
def test_url_round_trip():
    puzzle = SAMPLE_PUZZLE
    url = formats.write(puzzle, "url").strip()
    # vertical borders row by row (3 a row), then horizontal ones: 2 + 3 characters
    assert url == "https://puzz.link/p?norinori/4/4/" + url.rsplit("/", 1)[1]
    assert len(url.rsplit("/", 1)[1]) == 3 + 3
    assert one(url).puzzle.rooms == puzzle.rooms


@pytest.mark.parametrize("url, column, words", [
    ("norinori/2/2/0", 15, "has 2 characters, found 1"),
    ("norinori/2/2/oo", 14, "a room of one cell"),
    ("norinori/2/2/00x", 16, "extra characters after the rooms"),
    ("norinori/2/2/0w", 15, "bad character 'w'"),
])
def test_url_errors_name_the_column(url, column, words):
    with pytest.raises(ParseError) as caught:
        formats.read(url, "<t>")
    assert caught.value.column == column and words in str(caught.value), str(caught.value)


def test_pzprv3_round_trip_with_and_without_answer():
    solution = nn.SAMPLES[0][2]
    text = formats.write(SAMPLE_PUZZLE, "pzprv3", solution)
    assert text.splitlines()[:6] == ["pzprv3", "norinori", "4", "4", "4", "0 1 1 1 "]
    assert text.splitlines()[9] == "# + # # "
    loaded = one(text)
    assert (loaded.puzzle.rooms, loaded.solution) == (SAMPLE_PUZZLE.rooms, solution)
    bare = one(formats.write(SAMPLE_PUZZLE, "pzprv3"))
    assert (bare.puzzle.rooms, bare.solution) == (SAMPLE_PUZZLE.rooms, None)
    with pytest.raises(ParseError) as caught:
        formats.read("pzprv3\nnorinori\n1\n3\n2\n0 0 1 \n", "<t>")
    assert (caught.value.line, caught.value.column) == (6, 5) and "one cell" in str(caught.value)
    with pytest.raises(ParseError) as caught:
        formats.read("pzprv3\nnorinori\n1\n2\n1\n0 0 \n# x \n", "<t>")
    assert (caught.value.line, caught.value.column) == (7, 3) and "not an answer cell" in str(caught.value)


def test_cli_convert_round_trips(tmp_path):
    path = tmp_path / "n1.txt"
    path.write_text(N1)
    runner = CliRunner()
    for to in ("url", "pzprv3", "text"):
        out = runner.invoke(main, ["convert", str(path), "--to", to])
        assert out.exit_code == 0, out.output
        back = tmp_path / f"back-{to}.txt"
        back.write_text(out.output)
        again = runner.invoke(main, ["solve", str(back), "--unique", "--format", "json"])
        assert again.exit_code == 0, again.output
        assert first_report(again.output)["solution"] == N1_SOLUTION, to


# -- the sampler ------------------------------------------------------------------------------------
@pytest.mark.parametrize("rows, cols", [(4, 4), (5, 7), (6, 6)])
def test_sampled_puzzles_are_unique_and_reproducible(rows, cols):
    for seed in range(3):
        puzzle = nn.SAMPLE(rows, cols, random.Random(seed))
        assert rooms.problems(rows, cols, puzzle.rooms) == []
        assert all(len(room) >= 2 for room in puzzle.rooms)
        assert api.solve(puzzle, unique=True).status == "unique"
        assert nn.SAMPLE(rows, cols, random.Random(seed)) == puzzle


def test_the_sampler_refuses_a_grid_without_room_for_a_domino():
    with pytest.raises(SatgridError):
        nn.SAMPLE(1, 1, random.Random(1))


def test_cli_generate(tmp_path):
    out = CliRunner().invoke(main, ["generate", "norinori", "--size", "5x5", "--seed", "4", "--format", "json"])
    assert out.exit_code == 0, out.output
    report = first_report(out.output)
    assert report["status"] == "unique"


# -- the puz.link engine ----------------------------------------------------------------------------




def test_pzpr_reads_the_urls_and_accepts_the_answers():
    """Generated and bundled puzzles: pzpr opens satgrid's URL and writes it back byte for byte,
    accepts the pzprv3 answer, and rejects it with one cell flipped; satgrid reads pzpr's file."""
    cases = [(p, api.solve(p).solution) for p in api.load([str(ROOT / "satgrid" / "data" / "norinori.txt")])]
    cases += [(p, api.solve(p).solution) for p in (nn.SAMPLE(5, 6, random.Random(s)) for s in range(4))]
    rng = random.Random(20)
    broken = []
    for puzzle, solution in cases:
        r, c = rng.randrange(puzzle.rows), rng.randrange(puzzle.cols)
        row = solution[r]
        broken.append(solution[:r] + (row[:c] + ("." if row[c] == "#" else "#") + row[c + 1:],) + solution[r + 1:])
    urls = [formats.write(p, "url").strip() for p, _ in cases]
    items = urls + [formats.write(p, "pzprv3", s) for p, s in cases] + [
        formats.write(p, "pzprv3", b) for (p, _), b in zip(cases, broken)]
    reports = run_pzpr(items)
    n = len(cases)
    for k, ((puzzle, solution), url) in enumerate(zip(cases, urls)):
        assert reports[k]["url"].split("?", 1)[1] == url.split("?", 1)[1]
        assert reports[n + k]["complete"] is True, reports[n + k]
        assert reports[2 * n + k]["complete"] is False
        loaded = one(reports[n + k]["file"])
        assert (loaded.puzzle.rooms, loaded.solution) == (puzzle.rooms, solution)
