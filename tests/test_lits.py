"""LITS: solution sets against brute force (lazy and eager), the checker rule by rule (and against
the puz.link engine's verdicts), parsing errors with line and column, the solution letters, the
codecs (puz.link border body byte for byte as the engine writes it, pzprv3, puzzlekit, JSON),
exact DIMACS, the CLI, hints, the room sampler and the separators option it measured."""
from __future__ import annotations

import json
import random
import shutil
from itertools import combinations, product
from pathlib import Path

import pytest
from click.testing import CliRunner
from pysat.solvers import Solver

from satgrid import api, dimacs, formats, grading, render_svg
from satgrid.cli import main
from satgrid.errors import ParseError
from satgrid.genres import lits as lt
from satgrid.genres.lits import sampler
from satgrid.genres.lits.checker import check_lits
from satgrid.grid import Grid
from satgrid.model import read
from satgrid.reader import Record
from satgrid.registry import GENRES
from satgrid.formats import puzzlink, pzprv3
from satgrid.rooms import borders, random_rooms, room_ids, rooms_from_ids
from satgrid.session import Session

ROOT = Path(__file__).resolve().parents[1]
MODES = ("lazy", "eager")
NODE = shutil.which("node")

#: satgrid/data/lits.txt g1 (5x5) and its solution.
G1 = "1 1 1 2 2\n1 3 3 2 2\n1 3 2 2 3\n3 3 2 2 3\n3 3 3 3 3\n"
G1_SOLUTION = ("LLLI.", "L..I.", "...I.", ".L.I.", ".LLL.")


def puzzle_of(ids: list[list[int]]) -> lt.LitsPuzzle:
    return lt.lits_puzzle(len(ids), len(ids[0]), rooms_from_ids(ids))


# -- brute force ------------------------------------------------------------------------------------
TETROMINO_SHAPES = {  # every fixed tetromino but O, by letter, written out by hand
    "I": [((0, 0), (0, 1), (0, 2), (0, 3)), ((0, 0), (1, 0), (2, 0), (3, 0))],
    "T": [((0, 0), (0, 1), (0, 2), (1, 1)), ((0, 1), (1, 0), (1, 1), (1, 2)),
          ((0, 0), (1, 0), (1, 1), (2, 0)), ((0, 1), (1, 0), (1, 1), (2, 1))],
    "S": [((0, 1), (0, 2), (1, 0), (1, 1)), ((0, 0), (0, 1), (1, 1), (1, 2)),
          ((0, 0), (1, 0), (1, 1), (2, 1)), ((0, 1), (1, 0), (1, 1), (2, 0))],
    "L": [((0, 0), (1, 0), (2, 0), (2, 1)), ((0, 1), (1, 1), (2, 1), (2, 0)),
          ((0, 0), (0, 1), (1, 1), (2, 1)), ((0, 0), (0, 1), (1, 0), (2, 0)),
          ((0, 0), (0, 1), (0, 2), (1, 0)), ((0, 0), (0, 1), (0, 2), (1, 2)),
          ((0, 0), (1, 0), (1, 1), (1, 2)), ((0, 2), (1, 0), (1, 1), (1, 2))],
}


def letter(cells: set) -> str | None:
    top, left = min(r for r, _ in cells), min(c for _, c in cells)
    shape = tuple(sorted((r - top, c - left) for r, c in cells))
    return next((k for k, shapes in TETROMINO_SHAPES.items() if shape in map(tuple, map(sorted, shapes))), None)


def brute_force(ids: list[list[int]]) -> set[tuple[str, ...]]:
    """Every solution, by the rules as written in the module docstring: each room's every 4 cells
    that form an L, I, T or S, in every combination over the rooms, kept if the rest holds."""
    rows, cols = len(ids), len(ids[0])
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    pairs = [((r, c), (r + dr, c + dc)) for r, c in cells for dr, dc in ((0, 1), (1, 0))
             if r + dr < rows and c + dc < cols]
    rooms: dict[int, list] = {}
    for p in cells:
        rooms.setdefault(ids[p[0]][p[1]], []).append(p)
    choices = [[(k, set(four), letter(set(four))) for four in combinations(room, 4) if letter(set(four))]
               for k, room in rooms.items()]
    found = set()
    for pick in product(*choices):
        on = set().union(*(four for _, four, _ in pick))
        shapes = {k: name for k, _, name in pick}
        if any({(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)} <= on for r in range(rows - 1) for c in range(cols - 1)):
            continue
        if any(p in on and q in on and ids[p[0]][p[1]] != ids[q[0]][q[1]]
               and shapes[ids[p[0]][p[1]]] == shapes[ids[q[0]][q[1]]] for p, q in pairs):
            continue
        seen, stack = set(), [min(on)]
        while stack:
            p = stack.pop()
            if p not in seen:
                seen.add(p)
                stack += [q for a, b in pairs for q in ((b,) if a == p else (a,) if b == p else ()) if q in on]
        if seen == on:
            found.add(tuple("".join(shapes[ids[r][c]] if (r, c) in on else "." for c in range(cols))
                            for r in range(rows)))
    return found


def all_solutions(puzzle: lt.LitsPuzzle, connectivity: str) -> set[tuple[str, ...]]:
    encoding = lt.encode(puzzle)
    session = Session(encoding, connectivity=connectivity)
    lits = encoding.layers["shaded"]
    found = set()
    try:
        while True:
            outcome = session.solve([])
            if outcome.status != "sat":
                assert outcome.status == "unsat"
                return found
            solution = lt.decode(puzzle, encoding, outcome.assignment)
            assert check_lits(puzzle.room_ids, solution) == []
            found.add(solution)
            on = read(encoding, "shaded", outcome.assignment)
            session.solver.add([[-lit if on[p] else lit for p, lit in lits.items()]])
    finally:
        session.close()


def random_layouts(count: int, seed: int) -> list[list[list[int]]]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        rows, cols = rng.choice([(2, 4), (3, 4), (4, 3), (2, 6), (3, 5), (4, 4)])
        rooms = random_rooms(rows, cols, rng, min_size=4, max_size=rng.choice([5, 6, 8]))
        out.append([list(row) for row in room_ids(rows, cols, rooms)])
    return out


@pytest.mark.parametrize("connectivity", MODES)
def test_every_solution_against_brute_force(connectivity):
    kinds = set()
    for ids in random_layouts(25, 7):
        expected = brute_force(ids)
        assert all_solutions(puzzle_of(ids), connectivity) == expected, ids
        kinds.add(min(len(expected), 2))
    assert kinds == {0, 1, 2}  # unsatisfiable, unique and multiple layouts all met


def test_the_golden_puzzle_against_brute_force():
    ids = [[int(x) for x in line.split()] for line in G1.splitlines()]
    assert brute_force(ids) == {G1_SOLUTION}


# -- the checker ------------------------------------------------------------------------------------
@pytest.mark.parametrize("change, words", [
    ((4, ".LLL.", ".LLL+"), "solution holds characters other than"),
    ((0, "LLLI.", "LL#I."), "r1c3 says #"),
    ((4, ".LLL.", ".LL.."), "holds 3 shaded cells, not 4"),
    ((4, ".LLL.", ".LL.L"), "not side-connected"),
    ((1, "L..I.", "L..T."), "holds an I tetromino, but r2c4 says T"),
    ((2, "...I.", "..SI."), "holds 5 shaded cells"),
])
def test_the_checker_names_each_broken_rule(change, words):
    row, old, new = change
    assert G1_SOLUTION[row] == old
    broken = list(G1_SOLUTION)
    broken[row] = new
    [puzzle] = api.load_text(G1, genre="lits")
    problems = check_lits(puzzle.room_ids, broken)
    assert any(words in p for p in problems), problems
    assert check_lits(puzzle.room_ids, G1_SOLUTION) == []


def test_the_checker_finds_2x2_equal_shapes_and_parts():
    square = puzzle_of([[1, 1, 2, 2], [1, 1, 2, 2], [3, 3, 3, 3]])
    assert any("2x2 block at r1c2" in p for p in check_lits(square.room_ids, ("LLL.", ".LLL", "....")))
    twins = puzzle_of([[1, 1, 1, 1], [2, 2, 2, 2]])
    assert any("two I tetrominoes touch" in p for p in check_lits(twins.room_ids, ("IIII", "IIII")))
    apart = puzzle_of([[1, 1, 1, 1, 2, 2, 2, 2, 2], [1, 1, 1, 1, 2, 2, 2, 2, 2]])
    problems = check_lits(apart.room_ids, ("IIII.....", ".....IIII"))
    assert any("2 separate groups" in p for p in problems)


# -- text, solutions and errors -----------------------------------------------------------------------
def test_text_reads_room_ids_and_writes_canonical_ones():
    [puzzle] = api.load_text("genre: lits\na a b b b\na a c b b\nc c c c d\nc e e d d\ne e e d d\n")
    assert len(puzzle.rooms) == 5 and puzzle.clues() == {}
    assert lt.render(puzzle).splitlines()[0] == "1 1 2 2 2"
    [again] = api.load_text(formats.write(puzzle, "text"))
    assert again.rooms == puzzle.rooms


@pytest.mark.parametrize("text, where", [
    ("1 1 1 1 3\n2 2 2 2 3\n", "x:2:9: the room at r1c5 has 2 cells: a room holds a tetromino (4 cells)"),
    ("1 1 1 1\n2 2 2\n", "x:3:"),
    ("1 1 1 1\n2 2 2 ?\n", "x:3:7: '?' is not a room id"),
])
def test_bad_room_grids_are_one_line_with_line_and_column(text, where):
    with pytest.raises(ParseError) as caught:
        api.load_text("genre: lits\n" + text, "x")
    assert str(caught.value).startswith(where), str(caught.value)


def test_the_cli_reports_a_small_room_in_one_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("genre: lits\n1 1 1 1 2\n1 1 3 3 2\n")
    out = CliRunner().invoke(main, ["solve", str(path)])
    assert out.exit_code != 0
    assert out.output.strip().splitlines() == [f"satgrid: error: {path}:2:9: the room at r1c5 has 2 cells: "
                                               "a room holds a tetromino (4 cells)"]


def test_solution_sections_take_letters_or_hashes_and_judge_the_letters():
    block = "puzzle a\ngenre: lits\ngivens:\n" + G1 + "solution:\n{}end\n"
    [letters] = api.load_text(block.format("\n".join(G1_SOLUTION) + "\n"))
    [hashes] = api.load_text(block.format("\n".join(r.replace("L", "#").replace("I", "#") for r in G1_SOLUTION) + "\n"))
    assert letters.given_solution.solution == hashes.given_solution.solution == G1_SOLUTION
    assert api.solve(letters, unique=True).given_solution == "matches"
    [wrong] = api.load_text(block.format("\n".join(G1_SOLUTION).replace("L..I.", "L..T.") + "\n"))
    assert api.solve(wrong).given_solution == "invalid"
    [unread] = api.load_text(block.format("\n".join(G1_SOLUTION).replace("LLLI", "ZZZI") + "\n"), "x")
    assert unread.given_solution.error.startswith("x:10:1: 'Z' is not a solution cell")


def test_solve_unique_shows_the_second_solution():
    out = CliRunner().invoke(main, ["solve", "--genre", "lits", "--unique", "-"], input="1 1 1 1 1\n")
    assert out.exit_code == 0, out.output
    assert "multiple" in out.output and "second solution (2 differences: r1c1, r1c5)" in out.output


def test_audit_says_there_are_no_clues(tmp_path):
    path = tmp_path / "g1.txt"
    path.write_text("genre: lits\n" + G1)
    out = CliRunner().invoke(main, ["audit", str(path)])
    assert out.exit_code == 0, out.output
    assert "0 clues): unique" in out.output and "the puzzle has no clues to remove" in out.output


# -- codecs -------------------------------------------------------------------------------------------
def test_json_round_trip():
    [puzzle] = api.load_text(G1, genre="lits")
    value = json.loads(json.dumps(lt.puzzle_json(puzzle)))
    assert lt.puzzle_from_json(Record("j", 1, "", "lits"), value).rooms == puzzle.rooms
    assert lt.solution_from_json(puzzle, list(G1_SOLUTION)) == G1_SOLUTION
    with pytest.raises(ValueError):
        lt.solution_from_json(puzzle, ["#" * 5] * 5)


def test_url_round_trip_and_small_rooms_refused():
    [puzzle] = api.load_text(G1, genre="lits")
    url = formats.write(puzzle, "url").strip()
    assert url == "https://puzz.link/p?lits/5/5/5bagc5g6"
    [back] = formats.read(url)
    assert back.rooms == puzzle.rooms and back.genre == "lits"
    small = rooms_from_ids([[1, 2, 2, 2], [1, 2, 2, 2]])
    body = puzzlink.encode_borders(borders(2, 4, small), 2, 4)
    assert body == "i00"
    with pytest.raises(ParseError, match="r1c1 has 2 cells: a room holds a tetromino"):
        formats.read(f"https://puzz.link/p?lits/4/2/{body}")


def test_pzprv3_round_trip_with_the_answer():
    [puzzle] = api.load_text(G1, genre="lits")
    text = formats.write(puzzle, "pzprv3", G1_SOLUTION)
    assert text.split("\n")[:5] == ["pzprv3", "lits", "5", "5", "3"]
    [loaded] = pzprv3.read(text)
    assert loaded.puzzle.rooms == puzzle.rooms and loaded.solution == G1_SOLUTION
    [bare] = pzprv3.read(formats.write(puzzle, "pzprv3"))
    assert bare.solution is None


def test_puzzlekit_write_reads_back():
    from satgrid.formats import puzzlekit

    [puzzle] = api.load_text(G1, genre="lits")
    text = puzzlekit.header(lt.PUZZLEKIT, 1) + puzzlekit.write(puzzle, G1_SOLUTION, "g1")
    [again] = api.load_text(text)
    assert again.rooms == puzzle.rooms and again.given_solution.solution == G1_SOLUTION


@pytest.mark.skipif(NODE is None, reason="node is not installed: the puz.link engine cannot run")
def test_urls_are_written_as_the_engine_writes_them_and_verdicts_agree():
    """Sampled puzzles: pzpr writes satgrid's URL back byte for byte; it accepts the solution's
    pzprv3 answer and refuses a broken one exactly when satgrid's checker does."""
    from .helpers import run_pzpr

    rng = random.Random(5)
    puzzles = [lt.SAMPLE(rows, cols, rng) for rows, cols in ((4, 5), (5, 5), (6, 7), (7, 6))]
    puzzles += api.load([str(ROOT / "satgrid" / "data" / "lits.txt")])
    items, expected = [], []
    for puzzle in puzzles:
        solution = api.solve(puzzle).solution
        items += [formats.write(puzzle, "url").strip(), formats.write(puzzle, "pzprv3", solution)]
        grid = Grid.of(puzzle.rows, puzzle.cols)
        for _ in range(3):  # flip two random cells: a shading that breaks rules (or not)
            cells = set(rng.sample(grid.cells, 2))
            flipped = tuple("".join(("." if ch != "." else "#") if (r, c) in cells else ch
                                    for c, ch in enumerate(row)) for r, row in enumerate(solution))
            answer = lt.lettered(puzzle, {(r, c) for r, row in enumerate(flipped) for c, ch in enumerate(row) if ch != "."})
            items.append(formats.write(puzzle, "pzprv3", tuple(row.replace("#", "L") for row in answer)))
            expected.append(check_lits(puzzle.room_ids, answer) == [])
    reports = run_pzpr(items)
    verdicts = []
    for k, puzzle in enumerate(puzzles):
        url, file, *broken = reports[5 * k:5 * k + 5]
        assert url["url"].split("?", 1)[1] == items[5 * k].split("?", 1)[1]
        assert file["complete"] is True, file
        verdicts += [b["complete"] for b in broken]
    assert verdicts == expected and not all(expected)


# -- DIMACS, external solvers and drawing ----------------------------------------------------------------
def test_the_eager_dimacs_export_is_exact():
    [puzzle] = api.load_text(G1, genre="lits")
    export = dimacs.build(puzzle, "eager")
    with Solver(name="minisat22", bootstrap_with=export.clauses) as solver:
        assert solver.solve()
        decoded = dimacs.decode_model(puzzle, tuple(solver.get_model()), "eager")
        assert decoded.problems == [] and decoded.solution == G1_SOLUTION


@pytest.mark.skipif(shutil.which("minisat") is None, reason="minisat is not installed")
def test_an_external_solver_finds_the_unique_solution():
    [puzzle] = api.load_text(G1, genre="lits")
    result = api.solve(puzzle, unique=True, options=api.Options(solver="external:minisat"))
    assert (result.status, result.solution) == ("unique", G1_SOLUTION)


def test_the_drawing_has_room_borders_and_shaded_cells():
    [puzzle] = api.load_text(G1, genre="lits")
    drawing = render_svg.svg(puzzle, G1_SOLUTION)
    assert drawing.count('class="shaded"') == 12 and 'class="box"' in drawing


# -- hints ----------------------------------------------------------------------------------------------
def test_hints_from_the_empty_grid_and_from_a_state():
    [puzzle] = api.load_text(G1, genre="lits")
    first = grading.hint(puzzle)
    assert first.status == "hint" and first.fact[0][0] == "shaded"
    r, c = first.fact[0][1:]
    assert (G1_SOLUTION[r][c] != ".") == first.fact[1]
    state = grading.read_state(puzzle, "L???.\n?????\n?????\n?????\nIII#?\n")
    assert state == {("shaded", 0, 0): True, ("shaded", 0, 4): False, **{("shaded", 4, c): True for c in range(4)}}
    wrong = grading.hint(puzzle, grading.read_state(puzzle, "????#\n?????\n?????\n?????\n?????\n"))
    assert wrong.status == "wrong"
    with pytest.raises(ParseError) as caught:
        grading.read_state(puzzle, "L???.\n??x??\n?????\n?????\n?????\n", "s.txt")
    assert str(caught.value).startswith("s.txt:2:3:") and "'x' is not a cell mark" in str(caught.value)


# -- generation -------------------------------------------------------------------------------------------
def test_planted_shadings_obey_the_rules_and_rooms_hold_them():
    rng = random.Random(2)
    for rows, cols in ((5, 5), (6, 8), (9, 7)):
        grid = Grid.of(rows, cols)
        pieces = sampler.plant(grid, rng)
        room = sampler.rooms_around(grid, pieces, rng)
        puzzle = lt.lits_puzzle(rows, cols, rooms_from_ids([[room[r, c] for c in range(cols)] for r in range(rows)]))
        assert len(puzzle.rooms) == len(pieces)
        shaded = {p for _, cells in pieces for p in cells}
        assert check_lits(puzzle.room_ids, lt.lettered(puzzle, shaded)) == []


def test_generated_puzzles_are_unique_and_reproducible():
    out = CliRunner().invoke(main, ["generate", "lits", "--size", "6x6", "--seed", "3", "--count", "2",
                                    "--format", "json"])
    assert out.exit_code == 0, out.output
    made = [json.loads(line) for line in out.output.splitlines()]
    assert [m["status"] for m in made] == ["unique", "unique"]
    again = CliRunner().invoke(main, ["generate", "lits", "--size", "6x6", "--seed", "3", "--format", "json"])
    assert json.loads(again.output.splitlines()[0])["puzzle"] == made[0]["puzzle"]


def test_a_grid_too_small_for_a_tetromino_is_refused():
    with pytest.raises(Exception, match="no tetromino fits a 1x3 grid"):
        lt.SAMPLE(1, 3, random.Random(1))


def test_the_rules_state_the_plain_cuts():
    encoding = GENRES["lits"].encode(api.load_text(G1, genre="lits")[0])
    [rule] = encoding.rules
    assert rule.separators is False
