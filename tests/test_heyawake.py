"""Heyawake: solution sets against brute force (lazy and eager), audits as number removals, the
checker, room capacities, parsing errors, the 30 puzzlekit puzzles."""
from __future__ import annotations

import json
import random
from itertools import product
from pathlib import Path

import pytest
from click.testing import CliRunner

from satgrid import api, formats, grading, rooms
from satgrid.cli import main
from satgrid.errors import ParseError
from satgrid.formats import puzzlekit, pzprv3
from satgrid.generators.generic import for_genre
from satgrid.genres import heyawake as hy
from satgrid.genres.heyawake.checker import check_heyawake
from satgrid.grid import Grid
from satgrid.reader import Record
from satgrid.registry import GENRES

from .helpers import SHARED, engine_solutions
from .pzpr_engine import NODE

MODES = ("lazy", "eager")
PUZZLEKIT = SHARED / "external" / "genres" / "puzzlekit_heyawake.txt"


def rooms_of(ids: list[str]) -> rooms.Rooms:
    """Rooms of an id grid given as strings, one character a cell."""
    return rooms.rooms_from_ids(ids)


def puzzle_of(ids: list[str], numbers: dict) -> hy.HeyawakePuzzle:
    """A puzzle on the rooms of ``ids`` with ``numbers`` ({room index: k}) at the rooms' top cells."""
    found = rooms_of(ids)
    at = {rooms.top_cell(found[i]): k for i, k in numbers.items()}
    grid = tuple(tuple(at.get((r, c)) for c in range(len(ids[0]))) for r in range(len(ids)))
    return hy.HeyawakePuzzle(grid, "t", rooms=found)


def brute_force(puzzle: hy.HeyawakePuzzle) -> set[tuple[str, ...]]:
    """Every shading the checker accepts, over all 2^cells shadings."""
    rows, cols = puzzle.rows, puzzle.cols
    found = set()
    for bits in product(".#", repeat=rows * cols):
        solution = tuple("".join(bits[r * cols:(r + 1) * cols]) for r in range(rows))
        if hy.check(puzzle, solution) == []:
            found.add(solution)
    return found


def satgrid_solutions(puzzle: hy.HeyawakePuzzle, connectivity: str = "lazy") -> set:
    return engine_solutions(hy, puzzle, connectivity)


def random_case(seed: int) -> hy.HeyawakePuzzle:
    rng = random.Random(seed)
    rows, cols = rng.randint(2, 3), rng.randint(2, 4)
    ids = ["".join(rng.choice("abc") for _ in range(cols)) for _ in range(rows)]
    numbers = {i: rng.randint(0, hy.capacity(room)) for i, room in enumerate(rooms_of(ids)) if rng.random() < 0.6}
    return puzzle_of(ids, numbers)


# -- encoding against brute force ---------------------------------------------------------------
@pytest.mark.parametrize("seed", range(25))
def test_solution_sets_match_brute_force(seed):
    puzzle = random_case(seed)
    expected = brute_force(puzzle)
    for mode in MODES:
        assert satgrid_solutions(puzzle, mode) == expected, mode


def test_a_run_across_two_borders_is_broken_by_shading():
    """Three one-column rooms side by side: some cell of every row is shaded."""
    puzzle = puzzle_of(["abc", "abc"], {})
    for solution in satgrid_solutions(puzzle, "lazy"):
        assert all("#" in row for row in solution)
    # one shaded cell a row, apart, and no unshaded cell cut off: the two opposite corners
    assert satgrid_solutions(puzzle, "lazy") == brute_force(puzzle) == {("#..", "..#"), ("..#", "#..")}


@pytest.mark.parametrize("seed", range(8))
def test_audit_matches_brute_force(seed):
    """A number is redundant iff the puzzle without it stays unique."""
    rng = random.Random(100 + seed)
    for _ in range(200):
        puzzle = random_case(rng.randrange(10 ** 6))
        if puzzle.clues() and len(brute_force(puzzle)) == 1:
            break
    else:
        pytest.skip("no unique random case")
    clues = puzzle.clues()
    expected = sorted(p for p in clues
                      if len(brute_force(puzzle.with_clues({q: v for q, v in clues.items() if q != p}))) == 1)
    for mode in MODES:
        result = api.solve(puzzle, audit=True, grade=False, options=api.Options(connectivity=mode))
        assert result.status == "unique" and result.redundant_clues == expected


# -- the checker ------------------------------------------------------------------------------------
IDS = ["aab", "cdb", "cdb"]  # rooms a, b (the number 2), c, d


@pytest.mark.parametrize("solution, words", [
    (("..#", "#..", "..#"), ""),
    (("..#", "#..", "..."), "the room of r1c3 holds 1 shaded cells, its number says 2"),
    (("..#", "#.#", "..."), "shaded cells r1c3 and r2c3 touch"),
    ((".#.", "#..", "..#"), "the unshaded cells form 2 separate regions"),
    (("..#", "...", "..#"), "the unshaded run r2c1-r2c3 crosses 2 room borders"),
    (("#..", "..#"), "not 3x3"),
    (("..#", "#..", "..x"), "characters other than"),
])
def test_checker_names_each_broken_rule(solution, words):
    puzzle = puzzle_of(IDS, {1: 2})
    problems = check_heyawake(3, 3, puzzle.rooms, puzzle.numbers(), solution)
    assert (problems == []) if not words else any(words in p for p in problems), problems


def test_checker_counts_borders_in_a_run_as_pzprjs_does():
    """A run that leaves a room and comes back crosses two borders though it spans two rooms."""
    found = rooms_of(["aba", "aaa"])
    assert any("crosses 2 room borders" in p for p in check_heyawake(2, 3, found, {}, ("...", ".#.")))
    assert check_heyawake(2, 3, found, {}, (".#.", "...")) == []


# -- room capacities --------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(30))
def test_capacity_is_the_largest_set_of_cells_apart(seed):
    rng = random.Random(seed)
    grid = Grid.of(rng.randint(1, 4), rng.randint(1, 4))
    room = tuple(rng.choice(grid.components(rng.sample(grid.cells, rng.randint(1, len(grid.cells))))))
    best = max(sum(bits) for bits in product((0, 1), repeat=len(room))
               if not any(bits[i] and bits[j] for i, p in enumerate(room) for j, q in enumerate(room)
                          if i < j and abs(p[0] - q[0]) + abs(p[1] - q[1]) == 1))
    assert hy.capacity(room) == best


def test_capacity_of_rectangles():
    for rows, cols, most in ((1, 1, 1), (1, 4, 2), (1, 5, 3), (2, 5, 5), (3, 3, 5), (4, 4, 8)):
        assert hy.capacity(Grid.of(rows, cols).cells) == most


# -- text ---------------------------------------------------------------------------------------
def load(text: str) -> hy.HeyawakePuzzle:
    [puzzle] = api.load_text("heyawake\n" + text, "<t>")
    return puzzle


def test_a_number_anywhere_in_its_room_moves_to_the_top_cell():
    puzzle = load(". . .\n. . 1\n. . .\na a b\nc c b\nc c b\n")
    assert puzzle.numbers() == {(0, 2): 1}


@pytest.mark.parametrize("text, words, line, column", [
    (". 2\n. .\na a\nb b\n", "number 2 is larger than its room can hold: the 2-cell room of r1c1 "
     "holds at most 1", 2, 3),
    ("6 . .\n. . .\n. . .\na a a\na a a\na a a\n", "at most 5 shaded cells", 2, 1),
    ("1 1\n. .\na a\nb b\n", "a second number in the room of r1c1 (the first at r1c1)", 2, 3),
    ("x .\n. .\na a\nb b\n", "'x' is not a room's number", 2, 1),
    ("? .\n. .\na a\nb b\n", "must be known", 2, 1),
])
def test_bad_input_names_file_line_and_column(text, words, line, column):
    with pytest.raises(ParseError) as info:
        load(text)
    assert words in str(info.value)
    assert (info.value.line, info.value.column) == (line, column)


# -- the puzzlekit puzzles (janko.at and others, with published solutions) -----------------------
def puzzlekit_cases() -> list[tuple[str, str, tuple[str, ...]]]:
    """(name, satgrid text, published solution) of every block of the dataset file."""
    if not PUZZLEKIT.exists():
        pytest.skip(f"shared data not found at {PUZZLEKIT}")
    out = []
    for block in PUZZLEKIT.read_text().split("\npuzzle ")[1:]:
        lines = block.splitlines()
        at, sol = lines.index("problem:"), lines.index("solution:")
        rows = int(lines[at + 1].split()[0])
        clue_rows = [line.replace("-", ".") for line in lines[at + 2:at + 2 + rows]]
        text = "\n".join(clue_rows + lines[at + 2 + rows:at + 2 + 2 * rows]) + "\n"
        solution = tuple("".join("#" if t == "x" else "." for t in line.split())
                         for line in lines[sol + 2:sol + 2 + rows])
        out.append((lines[0], text, solution))
    return out


def test_the_published_puzzles_solve_to_their_solutions_and_are_unique():
    cases = puzzlekit_cases()
    assert len(cases) == 30
    for name, text, solution in cases:
        result = api.solve(load(text), unique=True)
        assert (name, result.status, result.solution) == (name, "unique", solution)


@pytest.mark.parametrize("text, status, solution", hy.SAMPLES)
def test_golden_samples_agree_with_brute_force(text, status, solution):
    found = brute_force(load(text))
    assert {0: "unsatisfiable", 1: "unique"}.get(len(found), "multiple") == status
    if solution is not None:
        assert found == {solution}


# -- formats and the puz.link engine --------------------------------------------------------------
def published() -> list[hy.HeyawakePuzzle]:
    return [load(text) for _, text, _ in puzzlekit_cases()]


def examples() -> list[hy.HeyawakePuzzle]:
    return api.load([str(Path(hy.__file__).parents[2] / "data" / hy.EXAMPLES)])


def qnums(puzzle: hy.HeyawakePuzzle) -> list[int]:
    return [-1 if v is None else v for row in puzzle.grid for v in row]


def test_text_url_pzprv3_json_and_puzzlekit_round_trip():
    for puzzle in examples() + [load(text) for text, _, _ in hy.SAMPLES]:
        solution = api.solve(puzzle).solution
        for to in ("text", "url"):
            [back] = api.load_text(formats.write(puzzle, to), "<again>", "heyawake")
            assert (back.grid, back.rooms) == (puzzle.grid, puzzle.rooms), to
        if solution is not None and any("#" in row for row in solution):  # else: a file without an answer
            [loaded] = pzprv3.read(formats.write(puzzle, "pzprv3", solution))
            assert (loaded.puzzle.grid, loaded.puzzle.rooms, loaded.solution) == (puzzle.grid, puzzle.rooms, solution)
            [again] = puzzlekit.read(puzzlekit.write(puzzle, solution), genre="heyawake")
            assert (again.puzzle.grid, again.puzzle.rooms, again.solution) == (puzzle.grid, puzzle.rooms, solution)
        back = hy.puzzle_from_json(Record("<json>", 1, "", "heyawake"), json.loads(json.dumps(hy.puzzle_json(puzzle))))
        assert (back.grid, back.rooms) == (puzzle.grid, puzzle.rooms)


def test_a_url_body_in_hand():
    """Six rooms (borders 'dig' vertical, '1ro' horizontal), the fourth room numbered 2."""
    [puzzle] = formats.read("https://puzz.link/p?heyawake/4/4/dig1roi2h")
    sample = load(hy.SAMPLES[0][0])
    assert (puzzle.grid, puzzle.rooms) == (sample.grid, sample.rooms)
    assert formats.write(puzzle, "url") == "https://puzz.link/p?heyawake/4/4/dig1roi2h\n"


@pytest.mark.parametrize("text, words, column", [
    ("heyawake/2/2/003", "number 3 is larger than its room can hold", 16),
    ("heyawake/2/2/00", "the room numbers describe 0 rooms, the borders draw 1", 16),
])
def test_bad_urls_name_the_column(text, words, column):
    with pytest.raises(ParseError) as info:
        api.load_text(text, source="u.txt")
    assert words in info.value.message and info.value.column == column


def test_bad_pzprv3_numbers_name_line_and_column():
    text = formats.write(load(". .\n. .\n1 1\n2 2\n"), "pzprv3")
    with pytest.raises(ParseError) as info:
        pzprv3.read(text.replace(". . \n. . \n", "2 . \n. . \n", 1), "f.txt")
    assert "number 2 is larger than its room can hold" in info.value.message
    assert (info.value.line, info.value.column) == (8, 1)
    with pytest.raises(ParseError) as info:
        pzprv3.read(text.replace(". . \n. . \n", "- . \n. . \n", 1), "f.txt")
    assert "'?' number" in info.value.message


@pytest.mark.skipif(NODE is None, reason="node is not installed: the puz.link engine cannot run")
def test_the_engine_reads_our_urls_to_the_same_clues_writes_them_back_and_accepts_our_answers():
    from .helpers import run_pzpr

    puzzles = examples() + published()
    solutions = [api.solve(p).solution for p in puzzles]
    broken = []
    for s in solutions:
        r, c = next((r, c) for r, row in enumerate(s) for c, ch in enumerate(row) if ch == "#")
        broken.append(tuple(row if i != r else row[:c] + "." + row[c + 1:] for i, row in enumerate(s)))
    items = ([formats.write(p, "url").strip() for p in puzzles]
             + [formats.write(p, "pzprv3", s) for p, s in zip(puzzles, solutions)]
             + [formats.write(p, "pzprv3", s) for p, s in zip(puzzles, broken)])
    reports = run_pzpr(items)
    n = len(puzzles)
    for k, puzzle in enumerate(puzzles):
        url, answer, wrong = reports[k], reports[n + k], reports[2 * n + k]
        assert url["pid"] == "heyawake" and url["clues"] == qnums(puzzle)
        assert url["url"].split("?", 1)[1] == items[k].split("?", 1)[1]
        assert answer["complete"] is True, (puzzle.name, answer["text"])
        assert wrong["complete"] is False
        [again] = api.load_text(url["url"])
        assert (again.grid, again.rooms) == (puzzle.grid, puzzle.rooms)
        [loaded] = pzprv3.read(answer["file"])
        assert (loaded.puzzle.grid, loaded.puzzle.rooms, loaded.solution) == (puzzle.grid, puzzle.rooms, solutions[k])


# -- the CLI, hints, generation ------------------------------------------------------------------
def test_cli_solve_unique_shows_a_second_solution_and_bad_input_is_one_line(tmp_path):
    runner = CliRunner()
    path = tmp_path / "h.txt"
    path.write_text("heyawake\n" + hy.SAMPLES[1][0])
    done = runner.invoke(main, ["solve", str(path), "--unique"])
    assert done.exit_code == 0 and "multiple" in done.output
    path.write_text("heyawake\n. 2\n. .\na a\nb b\n")
    done = runner.invoke(main, ["solve", str(path)])
    assert done.exit_code != 0
    assert done.output.strip().splitlines()[-1].startswith(f"satgrid: error: {path}:2:3: number 2 is larger")


def test_a_hint_from_a_partial_state():
    puzzle = load(hy.SAMPLES[0][0])
    state = grading.read_state(puzzle, "...#\n????\n2???\n????\n")
    assert state == {("shaded", 0, 0): False, ("shaded", 0, 1): False, ("shaded", 0, 2): False,
                     ("shaded", 0, 3): True}
    hint = grading.hint(puzzle, state)
    assert hint.status == "hint" and hint.fact is not None
    key, value = hint.fact
    assert key not in state and api.solve(puzzle).solution[key[1]][key[2]] == ("#" if value else ".")
    wrong = grading.hint(puzzle, {**state, ("shaded", 1, 3): True})
    assert wrong.status == "wrong"


@pytest.mark.parametrize("rows, cols, seed", [(5, 5, 1), (6, 8, 2), (8, 8, 3)])
def test_generated_puzzles_are_unique_and_clue_minimal(rows, cols, seed):
    puzzle = for_genre(GENRES["heyawake"]).generate(rows, cols, random.Random(seed))
    assert all(len({r for r, _ in room}) <= hy.ROOM_SIDE and len(room) == len({r for r, _ in room})
               * len({c for _, c in room}) for room in puzzle.rooms)
    result = api.solve(puzzle, audit=True, grade=False)
    assert result.status == "unique" and result.redundant_clues == []
