"""Star Battle: the vocabulary's king-move rule and the packing bound on their own, the encoding
against brute force on small grids, the independent checker, bad input with its place, the CLI
(solve, --unique, audit of a puzzle without clues, hint)."""
from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from satgrid import api
from satgrid.errors import ParseError
from satgrid.genres import starbattle
from satgrid.genres.starbattle import StarBattlePuzzle, puzzle_of
from satgrid.genres.starbattle.checker import check_starbattle
from satgrid.grid import Grid, king_packing_bound
from satgrid.model import Model
from satgrid.rooms import rooms_from_ids

from .test_model import all_solutions, brute

ROOT = Path(__file__).resolve().parents[1]


def load(text: str) -> StarBattlePuzzle:
    [puzzle] = api.load_text(text, "<sb>", "starbattle")
    return puzzle


def placements(ids, k: int) -> list[tuple[str, ...]]:
    """Every solution by brute force: rows of k non-touching stars chosen row by row (pruned only
    on column counts and on touching the row above), each full placement judged by the checker."""
    n = len(ids)
    rows = [set(c) for c in itertools.combinations(range(n), k) if all(b - a >= 2 for a, b in zip(c, c[1:]))]
    found = []

    def place(chosen: list[set[int]], columns: list[int]) -> None:
        if len(chosen) == n:
            sol = tuple("".join("#" if c in row else "." for c in range(n)) for row in chosen)
            if not check_starbattle(ids, k, sol):
                found.append(sol)
            return
        for row in rows:
            if chosen and any(abs(a - b) <= 1 for a in row for b in chosen[-1]):
                continue
            if any(columns[c] == k for c in row):
                continue
            place(chosen + [row], [x + (c in row) for c, x in enumerate(columns)])

    place([], [0] * n)
    return found


# -- the vocabulary -------------------------------------------------------------------------------
@pytest.mark.parametrize("rows, cols", [(3, 3), (2, 4), (1, 5)])
def test_not_touching_is_no_two_true_cells_a_kings_move_apart(rows, cols):
    grid = Grid.of(rows, cols)
    m = Model(grid)
    m.not_touching("cells do not touch", m.cells("on"))
    expected = brute(grid.cells, lambda on: not any(q in on for p in on for q in grid.king_neighbours(p)))
    assert all_solutions(m, "on") == expected
    assert len(expected) > 10


def test_king_packing_bound_is_an_upper_bound_and_exact_on_lines_and_even_boxes():
    grid = Grid.of(4, 4)
    rng = random.Random(3)
    for _ in range(60):
        cells = rng.sample(grid.cells, rng.randint(1, 9))
        most = max(len(s) for s in brute(cells, lambda on: not any(
            q in on for p in on for q in grid.king_neighbours(p))))
        assert king_packing_bound(cells) >= most
    assert king_packing_bound([(0, c) for c in range(7)]) == 4
    assert king_packing_bound([(r, 0) for r in range(6)]) == 3
    assert king_packing_bound([(r, c) for r in range(4) for c in range(2)]) == 2
    assert king_packing_bound([(r, c) for r in range(3) for c in range(3)]) == 4


# -- the encoding ---------------------------------------------------------------------------------
def random_ids(n: int, rng: random.Random) -> list[list[str]]:
    """A random partition into n rooms grown from n random cells (rooms may be any shape)."""
    grid = Grid.of(n, n)
    owner = {p: i for i, p in enumerate(rng.sample(grid.cells, n))}
    while len(owner) < n * n:
        p = rng.choice(sorted(owner))
        q = rng.choice(grid.neighbours(p))
        owner.setdefault(q, owner[p])
    return [["abcdefgh"[owner[r, c]] for c in range(n)] for r in range(n)]


@pytest.mark.parametrize("seed", range(12))
def test_solutions_and_status_agree_with_brute_force(seed):
    rng = random.Random(seed)
    n = rng.choice([4, 5, 6])
    ids = random_ids(n, rng)
    puzzle = puzzle_of(n, n, rooms_from_ids(ids), 1)
    expected = placements(ids, 1)
    result = api.solve(puzzle, unique=True)
    assert result.status == ("unsatisfiable" if not expected else "unique" if len(expected) == 1 else "multiple")
    if expected:
        assert result.solution in expected
    if len(expected) > 1:
        assert result.second_solution in expected and result.second_solution != result.solution


def test_two_stars_on_a_hand_checked_grid():
    """k = 2 on 8x8 rooms of two rows each: brute force and SAT agree on the count."""
    ids = [[str(r // 2 * 2 + (c >= 4)) for c in range(8)] for r in range(8)]
    puzzle = puzzle_of(8, 8, rooms_from_ids(ids), 2)
    solutions = placements(ids, 2)
    assert len(solutions) > 1
    result = api.solve(puzzle, unique=True)
    assert result.status == "multiple" and {result.solution, result.second_solution} <= set(solutions)


# -- the checker ----------------------------------------------------------------------------------
def test_checker_names_each_broken_rule():
    text, _, solution = starbattle.SAMPLES[0]  # rooms b b b b d / b d d d d / c d d d d / c a e e e / a a e e e
    puzzle = load(text)
    assert starbattle.check(puzzle, solution) == []
    moved = ("#....", *solution[1:])  # r1's star to r1c1: column 1 holds two, column 3 none
    problems = starbattle.check(puzzle, moved)
    assert "column 1 holds 2 stars, not 1" in problems and "column 3 holds 0 stars, not 1" in problems
    assert not any("touch" in p for p in problems)
    diagonal = (".#...", "#....", ".....", ".....", ".....")
    assert "stars r1c2 and r2c1 touch" in starbattle.check(puzzle, diagonal)
    side = ("##...", ".....", ".....", ".....", ".....")
    assert "stars r1c1 and r1c2 touch" in starbattle.check(puzzle, side)
    rooms = ("#....", "..#..", "....#", ".#...", "...#.")  # rows and columns fine; d two, c none
    assert set(starbattle.check(puzzle, rooms)) == {"the room of r1c5 holds 2 stars, not 1",
                                                   "the room of r3c1 holds 0 stars, not 1"}
    assert starbattle.check(puzzle, ("..#..",)) != []
    assert starbattle.check(puzzle, tuple(row.replace("#", "*") for row in solution)) != []


def test_checker_finds_rooms_on_its_own():
    """Two separate pieces with one id are two rooms for the checker (as for pzprjs)."""
    assert check_starbattle([["a", "b"], ["b", "a"]], 1, ("#.", "..")) != []
    from satgrid.genres.starbattle.checker import rooms_of
    assert len(rooms_of([["a", "b"], ["b", "a"]])) == 4


# -- bad input ------------------------------------------------------------------------------------
GOOD = "genre: starbattle\nstars: 1\nb b b b d\nb d d d d\nc d d d d\nc a e e e\na a e e e\n"
TEN = "".join(" ".join(str(r) * 10) + "\n" for r in range(10))


@pytest.mark.parametrize("text, where, words", [
    (GOOD.replace("stars: 1", "stars: 2"), ":3", "2 stars in each of rows 1 and 2 cannot fit"),
    (GOOD.replace("c d d d d", "c d d d"), ":5", "not rectangular"),
    (GOOD.replace("a a e e e\n", ""), ":", "square"),
    (GOOD.replace("c a e e e", "c e e e e").replace("a a e e e", "e e e e e"), ":", "4 rooms in a 5x5 grid"),
    (GOOD.replace("stars: 1\n", ""), ":", "stars: k"),
    (GOOD.replace("stars: 1", "stars: x"), ":", "star count"),
    (GOOD.replace("stars: 1", "stars: 0"), ":", "star count"),
    ("genre: starbattle\nstars: 2\n" + TEN.replace("9 9 9 9 9 9 9 9 9 9", "9 9 8 8 8 8 8 8 8 8"),
     ":12:1", "cannot fit in the room of r10c1"),
    ("genre: starbattle\nstars: 6\n" + TEN, ":3", "cannot fit in row 1 (10 free cells)"),
    ("genre: starbattle\nstars: 2\n" + TEN.replace("4 4 4 4 4 4 4 4 4 4", "4 4 # # # # # # # #"), ":3",
     "cannot fit in row 5 (2 free cells)"),
])
def test_bad_input_is_one_line_with_its_place(tmp_path, text, where, words):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(ParseError) as info:
        api.load_text(text, str(path))
    message = str(info.value)
    assert f"{path}{where}" in message and words in message and "\n" not in message


def test_bad_input_on_the_command_line_is_one_error_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(GOOD.replace("stars: 1", "stars: 2"))
    run = cli("solve", str(path))
    assert run.returncode != 0 and run.stdout == ""
    assert run.stderr.startswith(f"satgrid: error: {path}:3: ") and run.stderr.count("\n") == 1


# -- the command line -----------------------------------------------------------------------------
def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "satgrid", *args], capture_output=True, text=True, cwd=ROOT)


def test_solve_unique_shows_the_second_solution_and_audit_says_there_are_no_clues(tmp_path):
    path = tmp_path / "sb.txt"
    path.write_text("genre: star-battle\n" + starbattle.SAMPLES[-1][0])
    run = cli("solve", "--unique", str(path))
    assert run.returncode == 0 and ": multiple" in run.stdout and "second solution" in run.stdout
    path.write_text(GOOD)
    run = cli("audit", str(path))
    assert run.returncode == 0, run.stderr
    assert "(starbattle 5x5, 0 clues): unique" in run.stdout
    assert "no clues to remove" in run.stdout
    assert "1 1 * 1 2\n1 2 2 2 *\n* 2 2 2 2\n3 4 5 * 5\n4 * 5 5 5" in run.stdout


def test_hint_names_a_forced_cell(tmp_path):
    path, state = tmp_path / "sb.txt", tmp_path / "state.txt"
    path.write_text(GOOD)
    state.write_text("? ? * ? ?\n? ? ? ? ?\n? ? ? ? ?\n? ? ? ? ?\n? ? ? ? ?\n")
    run = cli("hint", str(path), "--state", str(state))
    assert run.returncode == 0, run.stderr
    assert "holds no star" in run.stdout or "holds a star" in run.stdout
    state.write_text("? ? x ? ?\n")
    run = cli("hint", str(path), "--state", str(state))
    assert run.returncode != 0 and run.stderr.startswith("satgrid: error: ")


# -- formats --------------------------------------------------------------------------------------
def examples() -> list[StarBattlePuzzle]:
    return api.load([str(ROOT / "satgrid" / "data" / "starbattle.txt")])


def test_formats_round_trip_to_the_same_rooms_and_count(tmp_path):
    from satgrid import formats
    from satgrid.formats import puzzlekit

    for puzzle in examples():
        solution = api.solve(puzzle).solution
        for text in (formats.write(puzzle, "url"), formats.write(puzzle, "pzprv3", solution),
                     formats.write(puzzle, "text"), puzzlekit.write(puzzle, solution),
                     json.dumps(api.solve(puzzle).to_json())):
            [back] = api.load_text(text, "<back>", "starbattle")
            assert (back.rooms, back.stars, back.rows) == (puzzle.rooms, puzzle.stars, puzzle.rows)
        [back] = api.load_text(puzzlekit.write(puzzle, solution), "<back>", "starbattle")
        assert back.given_solution.solution == solution


def test_blocked_cells_read_solve_draw_and_are_refused_by_puzzlink_formats():
    from satgrid import formats, render_svg
    from satgrid.errors import UnsupportedGenre

    # the 5x5 sample with its room d's corner r1c5 blocked: the stars stay where they were
    text = "genre: starbattle\nstars: 1\nb b b b #\nb d d d d\nc d d d d\nc a e e e\na a e e e\n"
    puzzle = load(text)
    assert starbattle.blocked(puzzle) == [(0, 4)] and len(puzzle.rooms) == 5
    result = api.solve(puzzle, unique=True)
    assert result.status == "unique" and result.solution == starbattle.SAMPLES[0][2]
    assert starbattle.check(puzzle, ("....#", *result.solution[1:])) != []
    assert render_svg.svg(puzzle, result.solution).count('class="shaded"') == 1
    assert starbattle.render(puzzle).split("\n")[0] == "1 1 1 1 #"
    [again] = api.load_text(formats.write(puzzle, "text"), "<again>")
    assert again.rooms == puzzle.rooms
    for fmt in ("url", "pzprv3"):
        with pytest.raises(UnsupportedGenre, match="no blocked cells"):
            formats.write(puzzle, fmt, result.solution)


def test_the_puzzlink_engine_writes_our_urls_and_answer_files_byte_for_byte():
    """pzpr opens satgrid's URL and pzprv3 answer, accepts the answer, and writes both back
    exactly as satgrid wrote them (its URL on its own host)."""
    from satgrid import formats

    from .helpers import run_pzpr
    from .pzpr_engine import NODE

    if NODE is None:
        pytest.skip("node is not installed")
    items = []
    for puzzle in examples():
        items += [formats.write(puzzle, "url").strip(), formats.write(puzzle, "pzprv3", api.solve(puzzle).solution)]
    reports = run_pzpr(items)
    for url, answer, seen, solved in zip(items[::2], items[1::2], reports[::2], reports[1::2]):
        assert seen["url"].split("?", 1)[1] == url.split("?", 1)[1]
        assert solved["complete"] is True and solved["file"] == answer
        assert seen["complete"] is False  # the empty board is not a solution


@pytest.mark.parametrize("change, words", [
    ("starbattle/5/5/1/", "Star Battle's grid is square"),
    ("starbattle/5/5/0/", "out of range"),
    ("starbattle/5/5/2/", "2 stars in each of rows 1 and 2 cannot fit"),
])
def test_bad_urls_are_one_line_errors_at_the_body(change, words):
    from satgrid import formats

    url = formats.write(examples()[0], "url").strip()
    bad = url.replace("starbattle/5/5/1/", change.replace("5/5/1", "5/4/1") if "square" in words else change)
    with pytest.raises(ParseError) as info:
        api.load_text(bad, "<url>")
    assert words in info.value.message and info.value.column is not None


# -- the generator --------------------------------------------------------------------------------
@pytest.mark.parametrize("n, k, seed", [(5, 1, 1), (6, 1, 2), (8, 1, 3), (9, 2, 4)])
def test_generated_puzzles_are_unique_with_k_stars_in_n_rooms(n, k, seed):
    from satgrid.genres.starbattle import generator

    puzzle = generator.generate(n, n, random.Random(seed), stars=k)
    assert (puzzle.rows, puzzle.cols, puzzle.stars, len(puzzle.rooms)) == (n, n, k, n)
    assert starbattle.problems(puzzle) == []
    result = api.solve(puzzle, audit=True)
    assert result.status == "unique" and result.minimal is True
    again = generator.generate(n, n, random.Random(seed), stars=k)
    assert again.rooms == puzzle.rooms  # a seed makes its puzzle again


def test_seed_groups_are_connected_and_hold_k_stars_each():
    from satgrid.genres.starbattle import generator

    rng = random.Random(7)
    solution = generator.random_stars(10, 2, rng, api.Options())
    groups = None
    while groups is None:
        groups = generator.seed_groups(solution, 2, rng)
    grid = Grid.of(10, 10)
    assert len(groups) == 10
    for group in groups:
        assert sum(solution[r][c] == "#" for r, c in group) == 2
        assert len(grid.components(group)) == 1
    assert len({p for g in groups for p in g}) == sum(map(len, groups))


def test_mending_moves_a_cell_of_the_other_solution_out_of_its_room():
    """The 5x5 'multiple' sample: mending makes the first solution the only one."""
    from satgrid.genres.starbattle import generator

    puzzle = load(starbattle.SAMPLES[-1][0])
    ours = api.solve(puzzle).solution
    mended = generator.mend(puzzle, ours, random.Random(1), api.Options())
    assert mended is not None and len(mended.rooms) == 5
    result = api.solve(mended, unique=True)
    assert result.status == "unique" and result.solution == ours


@pytest.mark.parametrize("size, stars, words", [("6x8", None, "square"), ("3x3", None, "no placement"),
                                                ("6x6", "2", "cannot fit")])
def test_generate_refuses_what_cannot_be(size, stars, words):
    run = cli("generate", "starbattle", "--size", size, *(("--stars", stars) if stars else ()))
    assert run.returncode != 0 and words in run.stderr and "Traceback" not in run.stderr


def test_generate_on_the_command_line_reads_back(tmp_path):
    run = cli("generate", "star-battle", "--size", "9x9", "--stars", "2", "--seed", "5")
    assert run.returncode == 0, run.stderr
    path = tmp_path / "made.txt"
    path.write_text(run.stdout)
    [puzzle] = api.load([str(path)])
    assert puzzle.stars == 2 and api.solve(puzzle, unique=True).status == "unique"


@pytest.mark.parametrize("n", [10, 14, 20, 25])
def test_the_estimate_is_close_to_the_built_encoding(n):
    from satgrid.rooms import canonical

    k = max(1, (n + 1) // 5)
    puzzle = puzzle_of(n, n, canonical([(r, c) for c in range(n)] for r in range(n)), k)
    built = len(starbattle.encode(puzzle).clauses)
    assert 0.8 * built <= starbattle.estimate(n, n)[1] <= 1.25 * built


# -- what this genre added to the shared layers ---------------------------------------------------
def test_rooms_layer_cells_outside_every_room():
    from satgrid import rooms
    from satgrid.reader import Record

    ids = [["a", "#", "b"], ["a", "#", "b"], ["#", "#", "b"]]
    found = rooms.rooms_from_ids(ids, outside=("#",))
    assert found == (((0, 0), (1, 0)), ((0, 2), (1, 2), (2, 2)))
    assert rooms.room_ids(3, 3, found)[2] == (-1, -1, 1)
    assert rooms.room_lines(3, 3, found, "#") == ["1 # 2", "1 # 2", "# # 2"]
    assert rooms.rooms_from_json(rooms.rooms_json(3, 3, found), 3, 3, outside=(0,)) == found
    record = Record("r.txt", 1, "", None, lines=[(1, "a # b"), (2, "a # b"), (3, "# # b")])
    assert rooms.read_text(record, clues=False, outside=("#",)).rooms == found
    with pytest.raises(ParseError, match="'#' is not a room id"):
        rooms.read_text(record, clues=False)


def test_puzzlekit_grid_lines_may_start_with_a_hash():
    from satgrid.formats import puzzlekit

    text = "# Starbattle: 1 puzzle in puzzlekit-dataset\npuzzle x\nproblem:\n2 2 1\n# a\nb b\nend\n"
    [block] = puzzlekit.split(text, "x.txt").blocks
    assert [[t for t, _ in row] for _, row in block.problem.lines] == [["2", "2", "1"], ["#", "a"], ["b", "b"]]


@pytest.mark.parametrize("text, status, solution", starbattle.SAMPLES)
def test_golden_samples_agree_with_brute_force(text, status, solution):
    ids = [line.split() for line in text.strip().split("\n")[1:]]
    found = placements(ids, int(text.split("\n")[0].split(":")[1]))
    assert status == ("unsatisfiable" if not found else "unique" if len(found) == 1 else "multiple")
    assert solution is None or found == [solution]
