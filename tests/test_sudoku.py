"""Sudoku end to end: encoding counts against brute force, golden puzzles, parsing, audits."""
from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from satgrid import api
from satgrid.cnf import VarPool, at_least, at_most
from satgrid.errors import ParseError
from satgrid.genres import sudoku
from satgrid.model import statement_lines
from satgrid.queries import PuzzleQueries
from satgrid.session import Session
from satgrid.solver import Assignment

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


# -- the encoding on the model builder ----------------------------------------------------------
def extended_encoding(n: int, h: int, w: int, pool: VarPool) -> list[list[int]]:
    """Lynce & Ouaknine's extended encoding written out by hand (as the genre wrote it before the
    model builder): ("digit", r, c, d) numbered 1 + (r*n + c)*n + d - 1; at-least-one and
    at-most-one (satgrid.cnf's choice) per cell, and per value in each row, column and box."""
    x = {(r, c, d): pool.var("digit", r, c, d) for r in range(n) for c in range(n) for d in range(1, n + 1)}
    units = ([[(r, c) for c in range(n)] for r in range(n)] + [[(r, c) for r in range(n)] for c in range(n)]
             + [[(r, c) for r in range(t, t + h) for c in range(s, s + w)]
                for t in range(0, n, h) for s in range(0, n, w)])
    groups = [[x[r, c, d] for d in range(1, n + 1)] for r in range(n) for c in range(n)]
    groups += [[x[r, c, d] for r, c in unit] for d in range(1, n + 1) for unit in units]
    return [clause for lits in groups for clause in at_least(lits, 1, pool) + at_most(lits, 1, pool)]


@pytest.mark.parametrize("n,box", [(4, (2, 2)), (6, (2, 3)), (9, (3, 3)), (12, (3, 4)), (16, (4, 4)),
                                   (25, (5, 5))])
def test_rules_lower_to_the_extended_encoding(n, box):
    """The rules' clauses are the hand-written extended encoding's, clause for clause in the same
    order and variable for variable (the sequential counters' auxiliaries at 25x25 included)."""
    puzzle = sudoku.SudokuPuzzle(tuple((None,) * n for _ in range(n)), *box)
    enc = sudoku.encode(puzzle)
    reference = extended_encoding(n, *box, pool := VarPool())
    assert enc.clauses == reference and enc.pool.top == pool.top
    assert {("digit", r, c, d): v for (_, r, c, d), v in enc.primary.items()} == \
        {k: v for k, v in pool.idpool.obj2id.items() if k[0] == "digit"}
    assert sudoku.estimate(n, n) == (enc.pool.top, len(enc.clauses))
    assert [name for name, _, _ in enc.spans] == [
        "one digit per cell", "no digit twice in a row, a column or a box"]
    # a given is its digit variable itself: no selector, no clause
    given = enc.encode_clue((1, 2), 3)
    assert given.selector == enc.primary["digit", 1, 2, 3] and given.clauses == ()


def test_rules_fit_in_sixty_lines():
    """Issue 18: a genre's rules in at most 60 lines of code (model.statement_lines)."""
    assert statement_lines(sudoku.rules) <= 60


def test_decode_reads_the_digit_layer_from_any_model():
    """decode gives the grid the digit variables say, from a solver's model and from a value
    function alike; a cell with no true digit reads 0 (which the checker rejects)."""
    puzzle = sudoku.SudokuPuzzle(tuple((None,) * 4 for _ in range(4)), 2, 2)
    enc = sudoku.encode(puzzle)
    grid = GRIDS_4X4[77]
    true = {enc.primary["digit", r, c, grid[r][c]] for r in range(4) for c in range(4) if (r, c) != (3, 1)}
    model = [v if v in true else -v for v in range(1, enc.pool.top + 1)]
    expected = tuple(tuple(0 if (r, c) == (3, 1) else grid[r][c] for c in range(4)) for r in range(4))
    assert sudoku.decode(puzzle, enc, Assignment(model)) == expected
    assert sudoku.decode(puzzle, enc, lambda lit: lit in true) == expected
    assert sudoku.check(puzzle, expected) != []


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
        ("." * 31 + "7" + "." * 16 + "7" + "." * 32, r"given 7 twice in box 5 \(r4c5 and r6c4\)"),
        ("7" + "." * 12 + "7" + "." * 35 + "7" + "." * 31, r"given 7 twice in column 5 \(r2c5 and r6c5\)"),
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


def test_with_clues_refuses_values_and_cells_outside_the_grid():
    from satgrid.errors import SatgridError

    [puzzle] = api.load_text("genre: sudoku\n1 2 . .\n. . 1 2\n. 1 . .\n. . . 1\n")
    for bad in ({(0, 0): 5}, {(0, 0): 0}, {(4, 0): 1}, {(0, -1): 1}, {(0, 0): True}, {(0, 0): "1"}):
        with pytest.raises(SatgridError, match="a given is a value 1..4"):
            puzzle.with_clues(bad)
    assert puzzle.with_clues({(0, 0): 4}).givens[0][0] == 4
