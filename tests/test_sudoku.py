"""Sudoku end to end: encoding counts against brute force, golden puzzles, parsing, audits."""
from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from satgrid import api
from satgrid.errors import ParseError
from satgrid.genres import sudoku
from satgrid.queries import PuzzleQueries
from satgrid.session import Session

from .helpers import shared_file


def all_4x4_grids() -> list[tuple[tuple[int, ...], ...]]:
    """Every valid 4x4 Sudoku grid, by brute force over row permutations."""
    perms = list(itertools.permutations(range(1, 5)))
    grids = []
    for rows in itertools.product(perms, repeat=4):
        if any(len({rows[r][c] for r in range(4)}) < 4 for c in range(4)):
            continue
        boxes_ok = all(
            len({rows[r][c] for r in (br, br + 1) for c in (bc, bc + 1)}) == 4
            for br in (0, 2) for bc in (0, 2)
        )
        if boxes_ok:
            grids.append(rows)
    return grids


GRIDS_4X4 = all_4x4_grids()


def completions(givens) -> list:
    return [g for g in GRIDS_4X4 if all(d is None or g[r][c] == d for r, row in enumerate(givens)
                                        for c, d in enumerate(row))]


def test_empty_4x4_has_all_288_grids():
    assert len(GRIDS_4X4) == 288
    puzzle = sudoku.SudokuPuzzle(tuple((None,) * 4 for _ in range(4)), 2, 2)
    session = Session(sudoku.encode(puzzle))
    queries = PuzzleQueries(session, {})
    found = set()
    blocked = []
    while True:
        outcome = queries.solve(extra=blocked)
        if outcome.status != "sat":
            break
        solution = sudoku.decode(puzzle, session.encoding, outcome.assignment)
        assert sudoku.check(puzzle, solution) == []
        found.add(solution)
        blocked.append(queries.blocker(queries.project(outcome.assignment)))
    assert found == set(GRIDS_4X4)


@st.composite
def partial_4x4(draw):
    grid = draw(st.sampled_from(GRIDS_4X4))
    cells = draw(st.sets(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=0, max_size=8))
    noise = draw(st.booleans())
    givens = [[grid[r][c] if (r, c) in cells else None for c in range(4)] for r in range(4)]
    if noise and cells:  # change one given: often unsatisfiable, sometimes still fine
        r, c = sorted(cells)[0]
        givens[r][c] = givens[r][c] % 4 + 1
    return tuple(tuple(row) for row in givens)


def _as_puzzle(givens):
    return sudoku.SudokuPuzzle(givens, 2, 2, name="p")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(partial_4x4())
def test_status_matches_brute_force(givens):
    # duplicate givens are a parse error; build the puzzle directly to test the solver
    expected = completions(givens)
    result = api.solve(_as_puzzle(givens), unique=True)
    if not expected:
        assert result.status == "unsatisfiable"
    elif len(expected) == 1:
        assert result.status == "unique"
        assert result.solution == expected[0]
    else:
        assert result.status == "multiple"
        assert result.solution in expected and result.second_solution in expected
        assert result.solution != result.second_solution


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(GRIDS_4X4), st.randoms(use_true_random=False))
def test_audit_and_minimize_match_brute_force(grid, rnd):
    cells = [(r, c) for r in range(4) for c in range(4)]
    rnd.shuffle(cells)
    givens = [[None] * 4 for _ in range(4)]
    for r, c in cells:  # add clues until unique
        givens[r][c] = grid[r][c]
        if len(completions(givens)) == 1:
            break
    puzzle = _as_puzzle(tuple(map(tuple, givens)))
    result = api.solve(puzzle, audit=True, minimize=True)
    assert result.status == "unique"
    clues = puzzle.clues()
    expected = []
    for key in clues:
        rest = {k: v for k, v in clues.items() if k != key}
        if len(completions(puzzle.with_clues(rest).givens)) == 1:
            expected.append(key)
    assert result.redundant_clues == sorted(expected)
    assert result.minimal == (not expected)
    kept = {k: clues[k] for k in result.minimal_clues}
    assert len(completions(puzzle.with_clues(kept).givens)) == 1
    for key in kept:  # minimal: no single kept clue can go
        rest = {k: v for k, v in kept.items() if k != key}
        assert len(completions(puzzle.with_clues(rest).givens)) > 1


def _blocks(path):
    return api.load([str(path)])


def test_tatham_golden_puzzles_solve_uniquely_to_the_known_solution():
    path = shared_file("sudoku", "tatham.txt")
    from satgrid.reader import split_records

    records = split_records(str(path), path.read_text(), {"sudoku"}, None)
    puzzles = _blocks(path)
    assert len(puzzles) == len(records) == 18
    sizes = set()
    for record, puzzle in zip(records, puzzles):
        expected = tuple(tuple(int(x) for x in line.split()) for _, line in record.solution_lines)
        result = api.solve(puzzle, unique=True)
        assert result.status == "unique", puzzle.name
        assert result.solution == expected, puzzle.name
        sizes.add((puzzle.size, puzzle.box_height, puzzle.box_width))
    assert {(4, 2, 2), (6, 2, 3), (9, 3, 3), (16, 4, 4)} <= sizes


def test_hui_puzzles_including_one_with_many_solutions():
    path = shared_file("sudoku", "hui_j.txt")
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("#")[0].split()
        name, givens, answer = fields[0], fields[1], fields[2]
        [puzzle] = api.load_text(givens, name)
        result = api.solve(puzzle, unique=True)
        flat = "".join(str(d) for row in result.solution for d in row)
        if "multiple" in fields:
            assert result.status == "multiple", name
            assert sudoku.check(puzzle, tuple(tuple(int(answer[r * 9 + c]) for c in range(9))
                                              for r in range(9))) == []
        else:
            assert result.status == "unique", name
            assert flat == answer, name


@pytest.mark.parametrize("n,box", [(12, (3, 4)), (25, (5, 5))])
def test_big_sizes_solve_from_a_permuted_pattern(n, box):
    """A valid n x n grid (shifted pattern), thinned at random: the solver completes it."""
    h, w = box
    grid = [[(w * (r % h) + r // h + c) % n + 1 for c in range(n)] for r in range(n)]
    rnd = random.Random(n)
    givens = tuple(tuple(d if rnd.random() < 0.55 else None for d in row) for row in grid)
    puzzle = sudoku.SudokuPuzzle(givens, h, w)
    assert sudoku.check(puzzle, tuple(map(tuple, grid))) == []
    result = api.solve(puzzle)
    assert result.status == "solved"
    assert all(result.solution[r][c] == d for r, row in enumerate(givens) for c, d in enumerate(row) if d)


# -- parsing ------------------------------------------------------------------------------------
LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_line_drawn_sdk_and_ss_formats_read_the_same_puzzle():
    rows = [LINE[i:i + 9] for i in range(0, 81, 9)]
    drawn = "\n".join(
        ("------+-------+------\n" if r in (3, 6) else "") + " | ".join(
            " ".join(rows[r][c:c + 3]) for c in (0, 3, 6))
        for r in range(9)
    )
    sdk = "#A someone\n#D a comment\n" + "\n".join(rows)
    ss = "\n".join(("-----------\n" if r in (3, 6) else "") + "|".join(
        rows[r][c:c + 3] for c in (0, 3, 6)) for r in range(9))
    numbers = "\n".join(" ".join("0" if ch == "." else ch for ch in row) for row in rows)
    expected = api.load_text(LINE)[0].givens
    for text in (drawn, sdk, ss, numbers):
        [puzzle] = api.load_text(text, genre="sudoku")
        assert puzzle.givens == expected


def test_many_puzzles_one_a_line():
    text = "\n".join([LINE, LINE.replace("4", ".", 1), ""])
    puzzles = api.load_text(text)
    assert len(puzzles) == 2
    assert [p.source.line for p in puzzles] == [1, 2]


def test_16x16_with_symbols_and_numeric_grids():
    [puzzle] = api.load([str(shared_file("sudoku", "tatham.txt"))])[-1:]
    assert puzzle.size == 16
    symbols = "123456789ABCDEFG"
    line = "".join("." if d is None else symbols[d - 1] for row in puzzle.givens for d in row)
    [from_symbols] = api.load_text(line, meta={"symbols": symbols})
    assert from_symbols.givens == puzzle.givens
    hexa = "0123456789ABCDEF"
    line0 = "".join("." if d is None else hexa[d - 1] for row in puzzle.givens for d in row)
    [from_hex] = api.load_text(line0, meta={"symbols": hexa})
    assert from_hex.givens == puzzle.givens
    with pytest.raises(ParseError, match="needs its symbol set"):
        api.load_text(line)


def test_6x6_boxes_are_two_tall_three_wide():
    [puzzle] = api.load_text("5...2.....1...4.6163.2...6.....2...5", genre="sudoku")
    assert (puzzle.size, puzzle.box_height, puzzle.box_width) == (6, 2, 3)
    result = api.solve(puzzle, unique=True)
    assert result.status == "unique"
    assert "".join(str(d) for row in result.solution for d in row) == "516423342516254361631254465132123645"


@pytest.mark.parametrize(
    "text,message",
    [
        (LINE[:80], "n\\*n symbols"),
        (LINE[:-1] + "x", "not a value 1..9"),
        ("44" + LINE[2:], "given 4 twice in row 1"),
        ("4" + LINE[1:9] + "4" + LINE[10:], "given 4 twice in column 1"),
        ("4" + LINE[1:10] + "4" + LINE[11:], "given 4 twice in box 1"),
        ("1 2 3 4\n1 2\n. . . .\n. . . .", "row has 2 cells, expected 4"),
    ],
)
def test_bad_sudoku_text_is_a_parse_error_with_a_line(text, message):
    with pytest.raises(ParseError, match=message) as info:
        api.load_text(text, "bad.txt", genre="sudoku")
    assert str(info.value).startswith("bad.txt:")


def test_render_draws_box_borders():
    [puzzle] = api.load_text(LINE)
    lines = sudoku.render(puzzle).splitlines()
    assert len(lines) == 11
    assert lines[3] == "------+-------+------"
    assert lines[0] == "4 . . | . . . | 8 . 5"
