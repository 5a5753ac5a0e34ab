"""Nurikabe: solution sets against brute force (lazy and eager), '?' numbers, clue audits as
'?' relaxations, the seven essay puzzles, parsing errors, output formats, exact DIMACS, CLI."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from satgrid import api
from satgrid.genres.nurikabe.checker import check_nurikabe
from satgrid.cli import main
from satgrid.errors import ParseError
from satgrid.genres import nurikabe as nk
from satgrid.queries import PuzzleQueries
from satgrid.registry import GENRES
from satgrid.session import Session

from .helpers import engine_solutions, shared_file

ROOT = Path(__file__).resolve().parents[1]
MODES = ("lazy", "eager")


# -- brute force ------------------------------------------------------------------------------------
def brute_force(rows: int, cols: int, numbers: dict) -> set[tuple[str, ...]]:
    """Every colouring that obeys the rules, by enumerating the unnumbered cells (bit masks)."""
    n = rows * cols
    full = (1 << n) - 1
    first_col = sum(1 << (r * cols) for r in range(rows))
    last_col = first_col << (cols - 1)

    def spread(s: int) -> int:
        return (s | ((s << 1) & ~first_col) | ((s >> 1) & ~last_col) | (s << cols) | (s >> cols)) & full

    def flood(seed: int, inside: int) -> int:
        region = seed
        while True:
            grown = spread(region) & inside
            if grown == region:
                return region
            region = grown

    bit = {(r, c): 1 << (r * cols + c) for r in range(rows) for c in range(cols)}
    blocks = [bit[r, c] | bit[r + 1, c] | bit[r, c + 1] | bit[r + 1, c + 1]
              for r in range(rows - 1) for c in range(cols - 1)]
    free = [bit[p] for p in sorted(bit) if p not in numbers]
    found = set()
    for m in range(1 << len(free)):
        black = sum(b for j, b in enumerate(free) if m >> j & 1)
        if any(black & b == b for b in blocks):
            continue
        if black and flood(black & -black, black) != black:
            continue
        white, ok = full & ~black, True
        while white and ok:
            region = flood(white & -white, full & ~black)
            white &= ~region
            inside = [p for p in numbers if bit[p] & region]
            ok = len(inside) == 1 and numbers[inside[0]] in ("?", bin(region).count("1"))
        if ok:
            found.add(tuple("".join("#" if black & bit[r, c] else "." for c in range(cols))
                            for r in range(rows)))
    return found


def puzzle_of(rows: int, cols: int, numbers: dict) -> nk.NurikabePuzzle:
    grid = tuple(tuple(numbers.get((r, c)) for c in range(cols)) for r in range(rows))
    return nk.NurikabePuzzle(grid, "t")


def satgrid_solutions(puzzle: nk.NurikabePuzzle, connectivity: str = "lazy", limit: int = 400) -> set:
    return engine_solutions(nk, puzzle, connectivity, limit)


@st.composite
def small_puzzles(draw, max_cells: int = 12):
    rows = draw(st.integers(1, 4))
    cols = draw(st.integers(1, max(1, min(4, max_cells // rows))))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    where = draw(st.lists(st.sampled_from(cells), min_size=1, max_size=min(3, len(cells)), unique=True))
    values = st.one_of(st.integers(1, min(len(cells), 7)), st.just("?"))
    return rows, cols, {p: draw(values) for p in where}


# -- encoding against brute force ---------------------------------------------------------------
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles())
def test_solution_sets_match_brute_force(case):
    rows, cols, numbers = case
    expected = brute_force(rows, cols, numbers)
    puzzle = puzzle_of(rows, cols, numbers)
    for mode in MODES:
        assert satgrid_solutions(puzzle, mode) == expected, mode
        status = api.solve(puzzle, unique=True, options=api.Options(connectivity=mode)).status
        assert status == {0: "unsatisfiable", 1: "unique"}.get(len(expected), "multiple")


@pytest.mark.parametrize("numbers", [
    {(0, 0): 3, (3, 3): 3},
    {(1, 1): 2, (2, 3): 1, (3, 0): 2},
    {(0, 3): "?", (2, 0): 2},
    {(0, 0): 12},
    {(1, 2): 4, (3, 1): 1},
])
def test_four_by_four_solution_sets(numbers):
    expected = brute_force(4, 4, numbers)
    for mode in MODES:
        assert satgrid_solutions(puzzle_of(4, 4, numbers), mode) == expected


def question_marked(numbers: dict, keep) -> dict:
    return {p: (v if p in keep or v == "?" else "?") for p, v in numbers.items()}


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(small_puzzles())
def test_audit_matches_brute_force_with_question_marks(case):
    """A clue is redundant iff the puzzle with that number replaced by '?' stays unique."""
    rows, cols, numbers = case
    assume(len(brute_force(rows, cols, numbers)) == 1)
    puzzle = puzzle_of(rows, cols, numbers)
    sized = puzzle.clues()
    expected = sorted(
        p for p in sized if len(brute_force(rows, cols, question_marked(numbers, set(sized) - {p}))) == 1
    )
    for mode in MODES:
        result = api.solve(puzzle, audit=True, minimize=True, options=api.Options(connectivity=mode))
        assert result.status == "unique"
        assert result.redundant_clues == expected
        kept = set(result.minimal_clues)
        assert len(brute_force(rows, cols, question_marked(numbers, kept))) == 1
        for p in kept:
            assert len(brute_force(rows, cols, question_marked(numbers, kept - {p}))) > 1


def test_with_clues_turns_dropped_numbers_into_question_marks():
    puzzle = puzzle_of(2, 3, {(0, 0): 2, (1, 2): 1, (0, 2): "?"})
    assert puzzle.clues() == {(0, 0): 2, (1, 2): 1}
    smaller = puzzle.with_clues({(1, 2): 1})
    assert smaller.numbers() == {(0, 0): "?", (0, 2): "?", (1, 2): 1}


# -- the essay's puzzles --------------------------------------------------------------------------
def essay_puzzles():
    path = shared_file("nurikabe", "jwiki.txt")
    puzzles = api.load([str(path)])
    solutions = {}
    name = None
    section = None
    for line in path.read_text().splitlines():
        word = line.strip()
        if word.startswith("puzzle "):
            name, section = word.split()[1], None
        elif word in ("givens:", "solution:"):
            section = word
        elif word == "end":
            section = None
        elif section == "solution:":
            solutions.setdefault(name, []).append(word)
    return [(p, tuple(solutions[p.name])) for p in puzzles]


def test_essay_puzzles_are_unique_with_the_published_solutions():
    cases = essay_puzzles()
    assert [p.name for p, _ in cases] == ["n1", "n2", "n3", "n4", "n5", "n6", "n7"]
    for puzzle, solution in cases:
        result = api.solve(puzzle, unique=True)
        assert result.status == "unique", puzzle.name
        assert result.solution == solution
        assert check_nurikabe(puzzle.rows, puzzle.cols, puzzle.numbers(), solution) == []


def test_essay_puzzles_eager():
    for puzzle, solution in essay_puzzles()[:6]:
        result = api.solve(puzzle, unique=True, options=api.Options(connectivity="eager"))
        assert (result.status, result.solution) == ("unique", solution), puzzle.name
        assert result.stats.cuts == 0


def test_essay_n7_audit_keeps_its_solution_unique():
    puzzle, solution = essay_puzzles()[6]
    result = api.solve(puzzle, audit=True)
    assert result.status == "unique" and result.redundant_clues is not None
    # Each reported clue, replaced by '?', leaves the solution unique; check one of them again on
    # a fresh encoding of the relaxed puzzle.
    sized = puzzle.clues()
    for key in result.redundant_clues[:2]:
        relaxed = puzzle.with_clues({p: v for p, v in sized.items() if p != key})
        again = api.solve(relaxed, unique=True)
        assert (again.status, again.solution) == ("unique", solution)


def test_bundled_examples_solve():
    puzzles = api.load([str(ROOT / "satgrid" / "data" / "nurikabe.txt")])
    assert [p.name for p in puzzles] == ["n1", "n2", "n3"]
    assert all(api.solve(p, unique=True).status == "unique" for p in puzzles)


# -- big numbers, '?' and impossible puzzles ------------------------------------------------------
def test_number_of_ten_or_more():
    [puzzle] = api.load_text("nurikabe\n. . . .\n. 12 . .\n. . . .\n. . . .\n")
    assert puzzle.numbers() == {(1, 1): 12}
    expected = brute_force(4, 4, {(1, 1): 12})
    assert satgrid_solutions(puzzle, "lazy") == expected
    result = api.solve(puzzle, unique=True)
    assert result.status == {0: "unsatisfiable", 1: "unique"}.get(len(expected), "multiple")
    assert nk.render(puzzle).splitlines()[1] == " . 12  .  ."


@pytest.mark.parametrize("text, status", [
    ("nurikabe\n1 1\n. .\n", "unsatisfiable"),      # two numbers side by side
    ("nurikabe\n3 . 3\n. . .\n", "unsatisfiable"),  # the sizes cannot fit
    ("nurikabe\n. . .\n. 9 .\n. . .\n", "unique"),  # one island fills the grid, no wall
    ("nurikabe\n? . ?\n", "unique"),  # the middle cell touches two numbers
    ("nurikabe\n? . . ?\n", "multiple"),
])
def test_small_puzzles_get_the_brute_force_status(text, status):
    [puzzle] = api.load_text(text)
    expected = brute_force(puzzle.rows, puzzle.cols, puzzle.numbers())
    assert status == {0: "unsatisfiable", 1: "unique"}.get(len(expected), "multiple")
    for mode in MODES:
        assert api.solve(puzzle, unique=True, options=api.Options(connectivity=mode)).status == status


# -- parsing ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, where, words", [
    ("nurikabe\n. 1 .\n. .\n", "<text>:3", "row has 2 cells"),
    ("nurikabe\n. 1 .\n. x .\n", "<text>:3:3", "token 'x'"),
    ("nurikabe\n. 1 .\n. -2 .\n", "<text>:3:3", "token '-2'"),
    ("nurikabe\n. 7 .\n. . .\n", "<text>:2:3", "bigger than the 2x3 grid"),
    ("puzzle a\ngenre: nurikabe\nrows: 3\ngivens:\n. 1\n. .\nend\n", "<text>:1", "rows: 3"),
])
def test_parse_errors_name_line_and_column(text, where, words):
    with pytest.raises(ParseError) as caught:
        api.load_text(text)
    message = str(caught.value)
    assert message.startswith(where + ":") and words in message and "\n" not in message


def test_parse_tokens_and_several_grids():
    text = "genre: nurikabe\n. 0 ?\n2 . .\n\n1 .\n. .\n"
    first, second = api.load_text(text)
    assert first.numbers() == {(0, 2): "?", (1, 0): 2}
    assert (second.rows, second.cols, second.clues()) == (2, 2, {(0, 0): 1})


# -- output -----------------------------------------------------------------------------------------
def test_render_and_json():
    puzzle = puzzle_of(2, 3, {(0, 0): 11, (1, 2): "?"})
    solution = ("..#", "#..")
    assert nk.render(puzzle, solution) == "11  .  #\n #  .  ?"
    assert nk.render(puzzle) == "11  .  .\n .  .  ?"
    assert GENRES["nurikabe"].solution_json(puzzle, solution) == ["..#", "#.."]
    assert nk.puzzle_json(puzzle) == [[11, 0, 0], [0, 0, "?"]]
    assert GENRES["nurikabe"].differences(puzzle, solution, ("...", "#..")) == [(0, 2)]


# -- checker ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("numbers, solution, words", [
    ({(0, 1): 3, (2, 0): 3}, ("##.", "##.", "..."), "2x2 black block"),
    ({(0, 1): 3, (2, 0): 3}, ("#.#", "...", "..."), "2 separate regions"),
    ({(0, 0): 1, (2, 0): 3}, (".#.", "###", "..."), "has no number"),
    ({(0, 0): "?", (0, 1): 3, (2, 0): 3}, ("..#", "###", "..."), "holds 2 numbers"),
    ({(0, 1): 3, (2, 0): 3}, ("#..", "###", "..."), "has 2 cells, its number is 3"),
    ({(0, 1): 3, (2, 0): 3}, ("##", "..", ".."), "not 3x3"),
])
def test_checker_names_each_broken_rule(numbers, solution, words):
    problems = check_nurikabe(3, 3, numbers, solution)
    assert any(words in p for p in problems), problems


def test_checker_accepts_every_brute_force_solution():
    numbers = {(0, 0): 2, (2, 2): "?"}
    solutions = brute_force(4, 3, numbers)
    assert len(solutions) > 1
    assert all(check_nurikabe(4, 3, numbers, s) == [] for s in solutions)


def reference_problems(rows, cols, numbers, solution):
    """The checker's messages, from the rules over networkx graphs of cell tuples (the checker's
    first form): its index-based flood fill and bit-mask 2x2 test must say the same."""
    import networkx as nx

    name = lambda p: f"r{p[0] + 1}c{p[1] + 1}"  # noqa: E731
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    black = {p for p in cells if solution[p[0]][p[1]] == "#"}
    problems = [f"numbered cell {name(p)} is black" for p in numbers if p in black]
    problems += [f"2x2 black block at {name((r, c))}" for r in range(rows - 1) for c in range(cols - 1)
                 if {(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)} <= black]

    def parts(group):
        graph = nx.Graph()
        graph.add_nodes_from(group)
        graph.add_edges_from((p, q) for p in group for q in ((p[0] + 1, p[1]), (p[0], p[1] + 1)) if q in group)
        return sorted((sorted(c) for c in nx.connected_components(graph)), key=min)
    walls = parts(black)
    if len(walls) > 1:
        problems.append(f"black cells form {len(walls)} separate regions")
    for island in parts({p for p in cells if p not in black}):
        held = [p for p in island if p in numbers]
        size = f"{len(island)} {'cell' if len(island) == 1 else 'cells'}"
        if not held:
            problems.append(f"island at {name(island[0])} ({size}) has no number")
        elif len(held) > 1:
            problems.append(f"island at {name(island[0])} holds {len(held)} numbers "
                            f"({', '.join(name(p) for p in held)})")
        elif numbers[held[0]] != "?" and len(island) != numbers[held[0]]:
            problems.append(f"island of {name(held[0])} has {size}, its number is {numbers[held[0]]}")
    return problems


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_checker_says_what_the_rules_say(rows, cols, data):
    """Random shadings and numbers, most of them broken in several ways: every message, in
    order, as the reference derives it."""
    solution = tuple("".join(row) for row in data.draw(st.lists(
        st.lists(st.sampled_from("#."), min_size=cols, max_size=cols), min_size=rows, max_size=rows)))
    cells = st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1))
    numbers = data.draw(st.dictionaries(cells, st.sampled_from([1, 2, 3, 5, "?"]), max_size=4))
    assert check_nurikabe(rows, cols, numbers, solution) == reference_problems(rows, cols, numbers, solution)


def test_checker_rejects_a_black_number():
    assert any("is black" in p for p in check_nurikabe(1, 2, {(0, 0): 1}, ("#.",)))


# -- DIMACS -----------------------------------------------------------------------------------------
def test_eager_dimacs_has_exactly_the_solutions(tmp_path):
    from pysat.formula import CNF
    from pysat.solvers import Solver

    from satgrid import dimacs

    numbers = {(0, 0): 2, (2, 2): "?", (3, 0): 1}
    puzzle = puzzle_of(4, 3, numbers)
    export = dimacs.build(puzzle, "eager")
    path = tmp_path / "n.cnf"
    path.write_text(export.text)
    cnf = CNF(from_file=str(path))
    black = {tuple(key[1:]): int(var) for var, key in export.varmap["primary"].items()}
    found = set()
    with Solver(name="cadical153", bootstrap_with=cnf.clauses) as solver:
        while solver.solve():
            model = set(solver.get_model())
            found.add(tuple("".join("#" if black[r, c] in model else "." for c in range(3)) for r in range(4)))
            solver.add_clause([-v if v in model else v for v in black.values()])
    assert found == brute_force(4, 3, numbers)


# -- CLI --------------------------------------------------------------------------------------------
N1 = "nurikabe\n. 1 . . .\n. . . . 2\n. . . . .\n3 . . . .\n. . . 2 .\n"
N1_SOLUTION = ["#.###", "###..", "#.###", "..#.#", "###.#"]


def test_cli_solve_json_audit_and_encode(tmp_path):
    path = tmp_path / "n1.txt"
    path.write_text(N1)
    runner = CliRunner()
    out = runner.invoke(main, ["solve", str(path), "--unique", "--format", "json"])
    assert out.exit_code == 0, out.output
    report = json.loads(out.output)
    report = report[0] if isinstance(report, list) else report
    assert report["status"] == "unique" and report["solution"] == N1_SOLUTION
    out = runner.invoke(main, ["audit", str(path), "--format", "json", "--connectivity", "eager"])
    report = json.loads(out.output)
    report = report[0] if isinstance(report, list) else report
    assert out.exit_code == 0 and report["status"] == "unique" and "redundant_clues" in report
    cnf = tmp_path / "n1.cnf"
    out = runner.invoke(main, ["encode", str(path), "--dimacs", "-o", str(cnf)])
    assert out.exit_code == 0, out.output
    assert cnf.read_text().startswith("c ") and "p cnf" in cnf.read_text()


def test_cli_bad_input_is_one_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("nurikabe\n. 1 .\n. 40 .\n")
    out = CliRunner().invoke(main, ["solve", str(path)])
    assert out.exit_code != 0
    assert "bad.txt:3:3" in out.output and "bigger than the 2x3 grid" in out.output
    assert "Traceback" not in out.output


def test_cli_subprocess_with_genre_option(tmp_path):
    path = tmp_path / "n1.txt"
    path.write_text(N1.split("\n", 1)[1])
    done = subprocess.run(
        [sys.executable, "-m", "satgrid", "solve", str(path), "--genre", "nurikabe", "--unique"],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "unique" in done.stdout and "# 1 # # #" in done.stdout


# -- the rules on the model builder ---------------------------------------------------------------
def test_rules_are_short_and_name_their_clauses():
    """The rulebook fits in 60 lines of code, and the encoding's clauses and global rules carry
    the rules' names."""
    from satgrid.model import statement_lines

    assert statement_lines(nk.rules) <= 60
    [puzzle] = api.load_text(N1)
    encoding = nk.encode(puzzle)
    names = [name for name, _, _ in encoding.spans]
    assert names[:2] == ["numbered cells are white", "no 2x2 block is all black"]
    assert "with every size on, a black cell or pair has a black neighbour" in names
    assert [rule.name for rule in encoding.rules] == ["each island holds one number, and has its size",
                                                      "the black cells form one wall"]
    assert set(encoding.layers) == {"black"} and len(encoding.primary) == 25


@pytest.mark.parametrize("index", [5, 6])  # n6 (10x18) and n7 (14x24), Nikoli's samples
def test_audit_is_the_same_with_and_without_the_islands_levels(index, monkeypatch):
    """The islands' level variables (satgrid.islands, behind each clue's selector) are a
    deduction the audit must not feel: the same redundant clues and minimal set without them."""
    from satgrid import islands

    puzzle, solution = essay_puzzles()[index]
    results = []
    for limit in (islands.LEVELS_LIMIT, 0):
        monkeypatch.setattr(islands, "LEVELS_LIMIT", limit)
        results.append(fresh_audit(puzzle, solution))
    assert results[0] == results[1]


def fresh_audit(puzzle, solution):
    """The redundant clues of a full audit on a new session (the puzzle is unique with
    ``solution``)."""
    for _, session in api._SESSIONS.values():
        session.close()
    api._SESSIONS.clear()
    result = api.solve(puzzle, audit=True, grade=False)
    assert (result.status, result.solution) == ("unique", solution)
    return result.redundant_clues


def test_audit_is_the_same_with_and_without_closed_pieces(monkeypatch):
    """The wall's closed-piece clauses (no black cell or pair walled in, behind ``all``) are a
    deduction the audit must not feel: on n6 the same redundant clues with pieces of up to 2
    cells and with none."""
    puzzle, solution = essay_puzzles()[5]
    results = []
    for most in (2, 0):
        monkeypatch.setattr(nk.encode, "__defaults__", (nk.Variant(black_degree=most),))
        results.append(fresh_audit(puzzle, solution))
    assert results[0] == results[1]


@pytest.mark.parametrize("numbers", [{(0, 0): 15}, {(1, 1): 14, (3, 3): 1}, {(0, 0): 14, (2, 2): 1}])
def test_a_small_wall_is_counted_exactly(numbers):
    """A wall of at most a tenth of the grid gets an exact count behind ``all``: the solutions
    (all of them, by blocking) are brute force's, and an audit still relaxes a size to '?'."""
    from satgrid.genres import nurikabe as nk

    puzzle = puzzle_of(4, 4, numbers)
    encoding = nk.encode(puzzle)
    assert any("small wall" in name for name, _, _ in encoding.spans)
    expected = brute_force(4, 4, numbers)
    session = Session(encoding)
    queries = PuzzleQueries(session, puzzle.clues())
    found = set()
    while (outcome := queries.solve()).status == "sat":
        solution = nk.decode(puzzle, encoding, outcome.assignment)
        found.add(solution)
        session.add([[-lit if outcome.assignment(lit) else lit for lit in encoding.primary.values()]])
    assert found == expected
