"""Masyu end to end: loop counts against brute force (lazy, eager, unanchored), the puzzlekit
text written and read back (the 30 puzzles against their published solutions:
test_puzzlekit.py), parsing and bad input, the drawing, the checker, DIMACS exactness and the CLI."""
from __future__ import annotations

import functools
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st
from pysat.formula import CNF
from pysat.solvers import Solver

from satgrid import api
from satgrid.cli import main
from satgrid.errors import ParseError
from satgrid.genres import masyu as ma
from satgrid.genres.masyu.checker import check_masyu
from satgrid.queries import PuzzleQueries
from satgrid.reader import read_text, split_records
from satgrid.session import Session

from .helpers import SHARED, run_pzpr

ROOT = Path(__file__).resolve().parents[1]
PUZZLEKIT = SHARED / "external" / "genres" / "puzzlekit_masyu.txt"


# -- brute force ----------------------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def all_loops(rows: int, cols: int) -> tuple[ma.Solution, ...]:
    """Every simple cycle through cell centres of a rows x cols grid, as a solution."""
    loops = set()
    for cycle in nx.simple_cycles(nx.grid_2d_graph(rows, cols)):
        h = [[0] * (cols - 1) for _ in range(rows)]
        v = [[0] * cols for _ in range(rows - 1)]
        for a, b in zip(cycle, cycle[1:] + cycle[:1]):
            (r1, c1), (r2, c2) = sorted((a, b))
            if r1 == r2:
                h[r1][c1] = 1
            else:
                v[r1][c1] = 1
        loops.add((tuple(map(tuple, h)), tuple(map(tuple, v))))
    return tuple(sorted(loops))


def steps(solution: ma.Solution, r: int, c: int) -> set[tuple[int, int]]:
    """The directions the loop leaves cell (r, c) by."""
    h, v = solution
    found = set()
    if c > 0 and h[r][c - 1]:
        found.add((0, -1))
    if c < len(h[r]) and h[r][c]:
        found.add((0, 1))
    if r > 0 and v[r - 1][c]:
        found.add((-1, 0))
    if r < len(v) and v[r][c]:
        found.add((1, 0))
    return found


def straight(solution: ma.Solution, r: int, c: int) -> bool:
    out = steps(solution, r, c)
    return out in ({(0, -1), (0, 1)}, {(-1, 0), (1, 0)})


def pearl_holds(solution: ma.Solution, r: int, c: int, kind: str) -> bool:
    """The pearl rule at (r, c), read off the drawing directly (independent of the checker)."""
    out = steps(solution, r, c)
    if not out:
        return False
    if kind == "w":
        return straight(solution, r, c) and any(not straight(solution, r + dr, c + dc) for dr, dc in out)
    return not straight(solution, r, c) and all(straight(solution, r + dr, c + dc) for dr, dc in out)


def natural_pearl(solution: ma.Solution, r: int, c: int) -> str | None:
    """The pearl the loop allows at (r, c), if any."""
    return next((k for k in "wb" if pearl_holds(solution, r, c, k)), None)


def brute_solutions(givens) -> list[ma.Solution]:
    rows, cols = len(givens), len(givens[0])
    return [s for s in all_loops(rows, cols)
            if all(k is None or pearl_holds(s, r, c, k) for r, row in enumerate(givens) for c, k in enumerate(row))]


def enumerate_all(puzzle: ma.MasyuPuzzle, connectivity: str = "lazy", anchored: bool = True) -> set:
    encoding = ma.build(puzzle.rows, puzzle.cols, anchored)
    session = Session(encoding, connectivity=connectivity)
    queries = PuzzleQueries(session, puzzle.clues())
    found, blocked = set(), []
    while (outcome := queries.solve(extra=blocked)).status == "sat":
        solution = ma.decode(puzzle, session.encoding, outcome.assignment)
        assert ma.check(puzzle, solution) == []
        assert solution not in found
        found.add(solution)
        blocked.append(queries.blocker(queries.project(outcome.assignment)))
    assert outcome.status == "unsat"
    session.close()
    return found


def blank(rows: int, cols: int) -> ma.MasyuPuzzle:
    return ma.MasyuPuzzle(tuple((None,) * cols for _ in range(rows)))


def pearled(loop: ma.Solution, rows: int, cols: int, rnd: random.Random, share: float) -> ma.MasyuPuzzle:
    """A puzzle with some of the pearls ``loop`` allows."""
    return ma.MasyuPuzzle(tuple(tuple(natural_pearl(loop, r, c) if rnd.random() < share else None
                                      for c in range(cols)) for r in range(rows)))


# -- the encoding against brute force --------------------------------------------------------------
@pytest.mark.parametrize("rows, cols, count", [(1, 3, 0), (2, 2, 1), (2, 3, 3), (3, 3, 13), (3, 4, 40)])
def test_every_loop_of_an_empty_grid(rows, cols, count):
    assert len(all_loops(rows, cols)) == count  # OEIS A140517 (n x n: 1, 13) and A059525 (2 x n)
    want = set(all_loops(rows, cols))
    assert enumerate_all(blank(rows, cols), "lazy") == want
    assert enumerate_all(blank(rows, cols), "eager") == want


def test_pearled_puzzle_counts_match_in_every_lowering():
    rnd = random.Random(18)
    for rows, cols in [(3, 3), (3, 4), (4, 4)] * 5:
        loop = rnd.choice(all_loops(rows, cols))
        puzzle = pearled(loop, rows, cols, rnd, 0.4)
        want = set(brute_solutions(puzzle.givens))
        assert loop in want
        assert enumerate_all(puzzle, "lazy") == want
        assert enumerate_all(puzzle, "eager") == want
        assert enumerate_all(puzzle, "lazy", anchored=False) == want


def test_every_pearl_at_every_cell_of_a_small_grid():
    """Each single pearl (both colours, every cell of 4x4, corners and edges included) allows
    exactly the loops brute force finds."""
    for r in range(4):
        for c in range(4):
            for kind in "wb":
                givens = tuple(tuple(kind if (i, j) == (r, c) else None for j in range(4)) for i in range(4))
                puzzle = ma.MasyuPuzzle(givens)
                assert enumerate_all(puzzle) == set(brute_solutions(givens)), (r, c, kind)


@st.composite
def small_puzzles(draw):
    rows, cols = draw(st.integers(2, 4)), draw(st.integers(2, 4))
    loop = draw(st.sampled_from(all_loops(rows, cols)))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    shown = draw(st.sets(st.sampled_from(cells)))
    givens = [[natural_pearl(loop, r, c) if (r, c) in shown else None for c in range(cols)] for r in range(rows)]
    if draw(st.booleans()):  # sometimes a pearl the loop does not allow: fewer solutions or none
        r, c = draw(st.sampled_from(cells))
        givens[r][c] = draw(st.sampled_from("wb"))
    return ma.MasyuPuzzle(tuple(map(tuple, givens)))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles())
def test_status_solution_and_audit_match_brute_force(puzzle):
    want = brute_solutions(puzzle.givens)
    expected = "unsatisfiable" if not want else "unique" if len(want) == 1 else "multiple"
    for connectivity in ("lazy", "eager"):
        result = api.solve(puzzle, audit=True, options=api.Options(connectivity=connectivity))
        assert result.status == expected
        if want:
            assert result.solution in want
        if expected == "multiple":
            assert result.second_solution in want and result.second_solution != result.solution
        if expected == "unique":  # a pearl is redundant iff the others alone leave one loop
            clues = puzzle.clues()
            redundant = [key for key in clues
                         if len(brute_solutions(puzzle.with_clues({k: v for k, v in clues.items() if k != key}).givens)) == 1]
            assert result.redundant_clues == sorted(redundant)


def test_pearls_anchor_the_loop_cuts():
    """A pearl is a clue anchor of the loop rule: the cut of a sub-loop that misses an active
    pearl carries the pearl's selector; with the pearl off the cut is the clue-free pair cut."""
    from satgrid.solver import Assignment

    puzzle = ma.MasyuPuzzle(((None, "w", None, None),) + ((None,) * 4,) * 3)
    encoding = ma.encode(puzzle)
    session = Session(encoding)
    queries = PuzzleQueries(session, puzzle.clues())
    white = queries.selectors[0, 1]
    # a loop round the top-left 2x3 cells (through the pearl) and a square round the bottom-right 2x2
    cells = [(0, 0), (0, 1), (0, 2), (1, 2), (1, 1), (1, 0)]
    square = [(2, 2), (2, 3), (3, 3), (3, 2)]
    links = [ma.link_key(p, q) for loop in (cells, square) for p, q in zip(loop, loop[1:] + loop[:1])]
    on = {encoding.primary[key] for key in links} | {white}
    model = [v if v in on else -v for v in range(1, encoding.pool.top + 1)]
    cuts = session.cuts(Assignment(model), encoding.pool)
    assert len(cuts) == 1 and -white in cuts[0][-1]
    model[white - 1] = -white  # the pearl switched off: the clue-free pair cut
    cuts = session.cuts(Assignment(model), encoding.pool)
    assert len(cuts) == 1 and -white not in {x for clause in cuts[0] for x in clause}
    session.close()


def test_enclosure_cut_bars_every_loop_inside_the_sub_loop():
    """The cut of a sub-loop S that misses an active pearl bars S and the loops inside the region
    S encloses that use a link at S (satgrid.genres.masyu.enclosing), also one that leaves S
    inwards (which the core's exit cut allows); the pearl outside stays reachable."""
    from satgrid.solver import Assignment

    puzzle = ma.MasyuPuzzle(((None, None, None, "w", None, None, None),) + ((None,) * 7,) * 6)
    encoding = ma.encode(puzzle)
    session = Session(encoding)
    white = PuzzleQueries(session, puzzle.clues()).selectors[0, 3]

    def ring(top: int, left: int, bottom: int, right: int) -> list[tuple]:
        cells = ([(top, c) for c in range(left, right + 1)] + [(r, right) for r in range(top + 1, bottom + 1)]
                 + [(bottom, c) for c in range(right - 1, left - 1, -1)] + [(r, left) for r in range(bottom - 1, top, -1)])
        return [ma.link_key(p, q) for p, q in zip(cells, cells[1:] + cells[:1])]

    big, sub, inner = ring(0, 0, 1, 6), ring(2, 2, 5, 5), ring(2, 2, 4, 4)
    assert set(sub) & set(inner) and set(inner) - set(sub)
    on = {encoding.primary[key] for key in big + sub} | {white}
    model = [v if v in on else -v for v in range(1, encoding.pool.top + 1)]
    [cut] = session.cuts(Assignment(model), encoding.pool)
    assert -white in cut[-1]
    links = encoding.primary
    with Solver(name="cadical153", bootstrap_with=cut) as solver:
        inside = [links[k] for k in inner] + [-v for k, v in links.items() if k not in inner] + [white]
        assert not solver.solve(assumptions=inside)
        through = [links[k] for k in big] + [-v for k, v in links.items() if k not in big] + [white]
        assert solver.solve(assumptions=through)
    session.close()


# -- real puzzles ---------------------------------------------------------------------------------
def puzzlekit_puzzles() -> list[ma.MasyuPuzzle]:
    """The shared puzzlekit file, read through Masyu's PUZZLEKIT codec: each puzzle with the
    published solution (direction tokens) as its given solution."""
    if not PUZZLEKIT.exists():
        pytest.skip(f"shared data not found at {PUZZLEKIT}")
    return api.load([str(PUZZLEKIT)])


def test_puzzlekit_text_round_trips():
    from satgrid.formats import puzzlekit

    for puzzle in puzzlekit_puzzles()[:8]:
        text = puzzlekit.header(ma.PUZZLEKIT, 1) + puzzlekit.write(puzzle, puzzle.given_solution.solution)
        [again] = api.load_text(text)
        assert again.givens == puzzle.givens and again.given_solution.solution == puzzle.given_solution.solution


def test_bundled_examples_are_unique_and_drawn_as_given():
    source, text = read_text(str(ROOT / "satgrid" / "data" / "masyu.txt"))
    records = split_records(source, text, {"masyu"}, None)
    assert len(records) == 4
    for record in records:
        puzzle = ma.parse(record)
        known = ma.parse_solution(record, puzzle)
        result = api.solve(puzzle, unique=True)
        assert result.status == "unique" and result.solution == known, record.name
        drawn = [t.rstrip() for _, t in record.solution_lines]
        assert ma.render(puzzle, result.solution).splitlines() == drawn


# -- parsing --------------------------------------------------------------------------------------
def test_characters_and_tokens_read_alike():
    [a] = api.load_text("genre: masyu\n.....\n.b.b.\n.....\nw....\n....b\n")
    [b] = api.load_text("masyu\n- - - - -\n- B - B -\n. . . . .\nW - - - -\n- - - - b\n")
    assert a.givens == b.givens
    assert a.rows == a.cols == 5 and a.clues() == {(1, 1): "b", (1, 3): "b", (3, 0): "w", (4, 4): "b"}
    assert api.solve(a, unique=True).status == "unique"


def test_puzzles_separated_by_blank_lines():
    puzzles = api.load_text("genre: masyu\nw.\n..\n\nb..\n...\n")
    assert [(p.rows, p.cols) for p in puzzles] == [(2, 2), (2, 3)]


@pytest.mark.parametrize("text, message, line, column", [
    ("w.\n.x\n", "'x' is not a cell", 3, 2),
    ("w . .\n. . 2\n", "'2' is not a cell", 3, 5),
    ("w..\n..\n", "row has 2 cells, expected 3", 3, None),
])
def test_bad_input_is_a_parse_error_with_a_place(text, message, line, column):
    with pytest.raises(ParseError) as info:
        api.load_text("genre: masyu\n" + text, source="p.txt")
    assert message in info.value.message
    assert info.value.line == line and info.value.column == column


def test_header_size_must_match_the_grid():
    with pytest.raises(ParseError, match="rows: 3 but the grid has 2"):
        api.load_text("puzzle x\ngenre: masyu\nrows: 3\ngivens:\nw.\n..\nend\n")


BLOCK = "puzzle x\ngenre: masyu\ngivens:\nb.\n..\nsolution:\n{}\nend\n"


@pytest.mark.parametrize("drawing, message, line, column", [
    ("b-+\n| |", "the solution has 2 lines: a drawing has 3, rows of direction tokens 2", 7, None),
    ("se sw\nne nx", "'nx' is not a direction token", 8, 4),
    ("se sw\nne -", "towards r2c2, whose token does not come back", 7, 4),
    ("es ws\nnw ne", "'nw' at r2c1 leaves the grid", 8, 1),
    ("b-+\n| |\n+-+-+", "5 characters wide", 9, 4),
    ("b=+\n| |\n+-+", "'=' is not a link mark", 7, 2),
    ("b-+\n|x|\n+-+", "'x' between four cells", 8, 2),
    ("w-+\n| |\n+-+", "not the mark of cell r1c1", 7, 1),
])
def test_bad_solution_drawings(drawing, message, line, column):
    [puzzle] = api.load_text(BLOCK.format(drawing))
    assert puzzle.given_solution.solution is None
    error = puzzle.given_solution.error
    assert message in error
    assert f"<text>:{line}:{column}: " in error if column else f"<text>:{line}: " in error


def test_solutions_drawn_or_as_direction_tokens_read_alike():
    drawn = api.load_text(BLOCK.format("b-+\n| |\n+-+"))[0].given_solution.error
    tokens = api.load_text(BLOCK.format("se sw\nne nw"))[0].given_solution.error
    assert drawn.replace(":7:", ":X:") == tokens.replace(":7:", ":X:") != ""
    # a drawing whose link lines are blank (the reader drops blank lines) reads as drawn
    puzzle = ma.blank(4, 3)
    solution = (((1, 1), (1, 1), (0, 0), (0, 0)), ((1, 0, 1), (0, 0, 0), (0, 0, 0)))  # round the top 2x3
    drawing = ma.render(puzzle, solution)
    assert drawing.splitlines()[3] == ""
    [again] = api.load_text(f"puzzle x\ngenre: masyu\ngivens:\n{ma.render(puzzle)}\nsolution:\n{drawing}\nend\n")
    assert again.given_solution.solution == solution


def test_a_given_solution_that_breaks_a_rule_is_reported():
    [puzzle] = api.load_text(BLOCK.format("b-+\n| |\n+-+"))
    assert puzzle.given_solution.solution is None
    assert "breaks a rule: the loop turns in r2c1, next to the black pearl at r1c1" in puzzle.given_solution.error


# -- output ---------------------------------------------------------------------------------------
def test_render_json_and_differences():
    [puzzle] = api.load_text("masyu\n.w.\n...\n...\n")
    result = api.solve(puzzle, unique=True)
    assert result.status == "multiple"
    assert ma.render(puzzle) == ".w.\n...\n..."
    for solution in (result.solution, result.second_solution):
        drawing = ma.render(puzzle, solution).splitlines()
        assert len(drawing) == 5 and drawing[0][2] == "w"
    diff = ma.differences(puzzle, result.solution, result.second_solution)
    assert diff and all(len(cell) == 2 for cell in diff)
    out = result.to_json()
    assert out["puzzle"] == [".w.", "...", "..."]
    assert [len(out["solution"]["horizontal"]), len(out["solution"]["horizontal"][0])] == [3, 2]
    assert [len(out["solution"]["vertical"]), len(out["solution"]["vertical"][0])] == [2, 3]
    record = split_records("j", "masyu\nw..\n", {"masyu"}, None)[0]
    assert ma.puzzle_from_json(record, out["puzzle"]).givens == puzzle.givens
    assert ma.solution_from_json(puzzle, out["solution"]) == result.solution
    with pytest.raises(ValueError, match="'vertical' is not 2 rows of 3"):
        ma.solution_from_json(puzzle, {**out["solution"], "vertical": [[0, 1, 2], [0, 0, 0]]})


def test_json_results_read_back():
    [puzzle] = api.load([str(ROOT / "satgrid" / "data" / "masyu.txt")])[:1]
    line = json.dumps(api.solve(puzzle, unique=True).to_json())
    [again] = api.load_text(line)
    assert again.givens == puzzle.givens and again.given_solution.solution == api.solve(puzzle).solution


# -- the checker ----------------------------------------------------------------------------------
def test_checker_names_each_broken_rule():
    empty = ((None,) * 3,) * 3
    ring = (((1, 1), (0, 0), (1, 1)), ((1, 0, 1), (1, 0, 1)))  # round the 3x3 border
    assert check_masyu(empty, *ring) == []
    assert check_masyu(empty, ((0, 0),) * 3, ((0, 0, 0),) * 2) == ["no loop: no link is drawn"]
    assert check_masyu((("b", None, None),) + empty[1:], *ring) == []
    assert check_masyu(((None, "b", None),) + empty[1:], *ring) == [
        "the loop goes straight through the black pearl at r1c2 (it must turn)"]
    tall = (((1,),) + ((0,),) * 3 + ((1,),), ((1, 1),) * 4)  # round a 5x2 grid
    assert check_masyu(((None, None),) * 2 + (("w", None),) + ((None, None),) * 2, *tall) == [
        "the loop goes straight through both cells next to the white pearl at r3c1 (it must turn in at least one)"]
    assert check_masyu((("w", None, None),) + empty[1:], *ring) == [
        "the loop turns on the white pearl at r1c1 (it must go straight)"]
    assert check_masyu(((None, None, None), (None, "b", None), empty[2]), *ring) == [
        "the loop does not pass through the black pearl at r2c2"]
    square = (((1, 0), (1, 0), (0, 0)), ((1, 1, 0), (0, 0, 0)))  # round the top-left 2x2
    assert check_masyu(((None, "b", None),) + empty[1:], *square) == [
        "the loop turns in r2c2, next to the black pearl at r1c2 (it must go straight there)",
        "the loop turns in r1c1, next to the black pearl at r1c2 (it must go straight there)"]
    two = (((1, 0, 1), (1, 0, 1)), ((1, 1, 1, 1),))  # two 2x2 squares
    assert check_masyu(((None,) * 4,) * 2, *two) == ["the links form 2 separate pieces, not one loop"]
    spur = (((1, 1), (1, 1), (0, 0)), ((1, 1, 1), (0, 0, 0)))
    assert check_masyu(empty, *spur) == ["the loop branches at r1c2 (3 links meet)",
                                         "the loop branches at r2c2 (3 links meet)"]
    assert check_masyu(empty, (((1, 0),) + ((0, 0),) * 2), ((0, 0, 0),) * 2) == [
        "the loop ends at r1c1", "the loop ends at r1c2"]
    assert check_masyu(empty, ((1,),) * 3, ((0, 0, 0),) * 2) == ["horizontal links are not 3 rows of 2"]


# -- DIMACS export and the CLI --------------------------------------------------------------------
def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.mark.parametrize("text", ["...\n...\n...\n", ".w.\n...\n..b\n", "b...\n....\n....\n"])
def test_eager_dimacs_export_is_exact(tmp_path, text):
    path = tmp_path / "p.txt"
    path.write_text("genre: masyu\n" + text)
    out = tmp_path / "p.cnf"
    assert run("encode", str(path), "--dimacs", "-o", str(out)).exit_code == 0
    varmap = json.loads((tmp_path / "p.map.json").read_text())
    primary = {int(v): tuple(k) for v, k in varmap["primary"].items()}
    found = set()
    with Solver(name="cadical153", bootstrap_with=CNF(from_file=str(out)).clauses) as solver:
        while solver.solve():
            model = set(solver.get_model())
            found.add(frozenset(key for v, key in primary.items() if v in model))
            solver.add_clause([-v for v in primary if v in model])
    [puzzle] = api.load_text(text, genre="masyu")
    want = {frozenset(("line", r, c, r, c + 1) for r, row in enumerate(s[0]) for c, x in enumerate(row) if x)
            | frozenset(("line", r, c, r + 1, c) for r, row in enumerate(s[1]) for c, x in enumerate(row) if x)
            for s in brute_solutions(puzzle.givens)}
    assert found == want and want


def test_cli_encode_then_decode_with_an_external_solver(tmp_path):
    cadical = "/usr/bin/cadical"
    if not os.path.exists(cadical):
        pytest.skip("cadical not installed (Debian package cadical)")
    path = tmp_path / "p.txt"
    path.write_text((ROOT / "satgrid" / "data" / "masyu.txt").read_text().split("\n\npuzzle pearl-8x8dt")[0] + "\n")
    out = tmp_path / "p.cnf"
    assert run("encode", str(path), "--dimacs", "-o", str(out)).exit_code == 0
    model = subprocess.run([cadical, "-q", str(out)], capture_output=True, text=True).stdout
    (tmp_path / "model.txt").write_text(model)
    decoded = run("decode", str(path), str(tmp_path / "model.txt"), "--format", "json")
    assert decoded.exit_code == 0, decoded.output
    [puzzle] = api.load([str(path)])
    assert json.loads(decoded.output)["solution"] == ma.solution_json(puzzle, puzzle.given_solution.solution)


def test_cli_solve_draws_the_loop_and_the_second_one(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("genre: masyu\n.w.\n...\n...\n")
    result = run("solve", str(path), "--unique")
    assert result.exit_code == 0, result.output
    assert "multiple" in result.output and "second solution" in result.output
    assert result.output.count("w") >= 2
    many = run("solve", str(ROOT / "satgrid" / "data" / "masyu.txt"), "--unique", "--format", "json")
    lines = [json.loads(t) for t in many.stdout.splitlines()]
    assert len(lines) == 4 and {o["status"] for o in lines} == {"unique"}
    assert {o["given_solution"] for o in lines} == {"matches"}


def test_cli_audit_and_bad_input(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("genre: masyu\n.....\n.b.b.\n.....\nw....\n....b\n")
    out = json.loads(run("audit", str(path), "--format", "json").stdout)
    assert out["status"] == "unique" and out["redundant_clues"] == [] and out["minimal"] is True
    # the same pearls and a fifth one the loop allows: that one is redundant
    path.write_text("genre: masyu\n.....\n.b.b.\n.....\nw....\n...wb\n")
    out = json.loads(run("audit", str(path), "--format", "json").stdout)
    assert out["status"] == "unique" and [4, 3] in out["redundant_clues"] and out["minimal"] is False
    bad = tmp_path / "bad.txt"
    bad.write_text("genre: masyu\nw.\n.q\n")
    result = CliRunner().invoke(main, ["solve", str(bad)])
    assert result.exit_code == 1
    assert "bad.txt:3:2: 'q' is not a cell" in result.output and "Traceback" not in result.output


def test_real_subprocess(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("genre: masyu\nb..\n...\n..b\n")
    proc = subprocess.run([sys.executable, "-m", "satgrid", "solve", str(path), "--unique", "--format", "json"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["status"] == "unique"


# -- generation -----------------------------------------------------------------------------------
def test_pearls_read_off_a_loop_hold_every_published_pearl():
    """READ_CLUES puts a pearl wherever the loop obeys a pearl's rule: on each published solution
    that is every published pearl, and the loop solves the full pearl set."""
    for puzzle in puzzlekit_puzzles()[:12]:
        known = puzzle.given_solution.solution
        full = ma.read_pearls(ma.blank(puzzle.rows, puzzle.cols), known)
        assert puzzle.clues().items() <= full.clues().items(), puzzle.name
        assert ma.check(full, known) == []
        assert all(natural_pearl(known, r, c) == k for (r, c), k in full.clues().items())


@pytest.mark.parametrize("rows, cols, seed", [(5, 5, 1), (8, 10, 2)])
def test_generic_generator_makes_unique_minimal_puzzles(rows, cols, seed):
    from satgrid.generators import GENERATORS

    puzzle = GENERATORS["masyu"](rows, cols, random.Random(seed))
    assert (puzzle.rows, puzzle.cols) == (rows, cols)
    result = api.solve(puzzle, audit=True)
    assert result.status == "unique" and result.minimal is True
    assert GENERATORS["masyu"](rows, cols, random.Random(seed)) == puzzle


def test_sampled_loops_hold_a_pearl_on_every_cell():
    rng = random.Random(7)
    for rows, cols in [(6, 6), (7, 11)]:
        full = ma.sample(rows, cols, rng)
        result = api.solve(full)
        on_loop = ma.exits(result.solution)
        assert set(full.clues()) <= set(on_loop) and len(full.clues()) >= 8


# -- formats: puzz.link, pzprv3 (checked by the puz.link engine), Tatham's Pearl --------------------
from satgrid import formats  # noqa: E402
from satgrid.formats import puzzlink, pzprv3, tatham  # noqa: E402





def real_puzzles() -> list[tuple[ma.MasyuPuzzle, ma.Solution]]:
    """The puzzlekit puzzles and the bundled examples, with their known solutions."""
    found = [(p, p.given_solution.solution) for p in puzzlekit_puzzles()]
    for puzzle in api.load([str(ROOT / "satgrid" / "data" / "masyu.txt")]):
        found.append((puzzle, puzzle.given_solution.solution))
    return found


def test_pzpr_accepts_every_answer_and_reads_every_url():
    puzzles = real_puzzles()
    broken = []
    for puzzle, (h, v) in puzzles:
        flipped = [list(row) for row in v]
        flipped[0][0] ^= 1
        broken.append(pzprv3.write(puzzle, (h, tuple(map(tuple, flipped)))))
    reports = run_pzpr([puzzlink.encode(p) for p, _ in puzzles] + [pzprv3.write(p, s) for p, s in puzzles] + broken)
    n = len(puzzles)
    for (puzzle, solution), on_url, on_file, on_broken in zip(puzzles, reports[:n], reports[n:2 * n], reports[2 * n:]):
        qnums = [ma.QNUM[k] if k else -1 for row in puzzle.givens for k in row]
        assert (on_url["pid"], on_url["rows"], on_url["cols"], on_url["clues"]) == ("mashu", puzzle.rows, puzzle.cols, qnums)
        assert on_url["url"].split("?")[1] == puzzlink.encode(puzzle).split("?")[1]
        assert on_file["complete"] is True, on_file["text"]
        assert on_broken["complete"] is False
        # satgrid reads back what pzpr writes: the URL, and the file with its answer
        [again] = api.load_text(on_url["url"])
        assert again.givens == puzzle.givens
        [loaded] = formats.read_with_solutions(on_file["file"])
        assert loaded.puzzle.givens == puzzle.givens and loaded.solution == solution


def test_pzpr_accepts_the_answers_of_generated_puzzles():
    from satgrid.generators import GENERATORS

    puzzles = [GENERATORS["masyu"](7, 9, random.Random(seed)) for seed in (11, 12)]
    files = [pzprv3.write(p, api.solve(p).solution) for p in puzzles]
    assert all(report["complete"] for report in run_pzpr(files))


def test_url_and_game_id_round_trips():
    for puzzle, solution in real_puzzles()[-6:]:
        [from_url] = api.load_text(puzzlink.encode(puzzle))
        [from_masyu_pid] = api.load_text(puzzlink.encode(puzzle).replace("mashu", "masyu"))
        [from_id] = api.load_text(tatham.encode(puzzle))
        [(from_file, answer)] = [(f.puzzle, f.solution) for f in formats.read_with_solutions(pzprv3.write(puzzle, solution))]
        assert from_url.givens == from_masyu_pid.givens == from_id.givens == from_file.givens == puzzle.givens
        assert answer == solution and from_url.genre == "masyu"
    for record in split_records(*read_text(str(ROOT / "satgrid" / "data" / "masyu.txt")), {"masyu"}, None):
        assert tatham.encode(ma.parse(record)) == record.meta["tatham"]  # as sgt-pearl wrote it
        [read] = api.load_text(record.meta["tatham"])
        assert read.givens == ma.parse(record).givens


@pytest.mark.parametrize("text, message, column", [
    ("https://puzz.link/p?mashu/3/3/00", "the body describes 6 cells", None),
    ("6x6:BhWgBaWWaWaWaWaWgX", "bad character 'X' in a Pearl description", 22),
    ("3x3:BBBBBBBBBB", "past the 9 cells", 14),
    ("3x3:BBBB", "the description has 4 cells, a 3x3 grid has 9", 9),
    ("pzprv3\nmashu\n2\n2\n1 - \n. . \n", "a '?' pearl", 3),
])
def test_format_errors_name_their_place(text, message, column):
    with pytest.raises(ParseError) as info:
        api.load_text(text, source="f.txt")
    assert message in info.value.message
    if column is not None:
        assert info.value.column == column


def test_cli_convert_round_trips(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text((ROOT / "satgrid" / "data" / "masyu.txt").read_text())
    puzzles = api.load([str(path)])
    for target in ("url", "tatham", "text"):
        out = run("convert", str(path), "--to", target)
        assert out.exit_code == 0, out.output
        (tmp_path / f"c.{target}").write_text(out.output)
        assert [p.givens for p in api.load([str(tmp_path / f"c.{target}")], genre="masyu")] == [p.givens for p in puzzles]
    out = run("convert", str(path), "--to", "pzprv3", "--solution")
    assert out.exit_code == 0 and out.output.count("pzprv3\nmashu") == 4
    (tmp_path / "c.pzprv3").write_text(out.output)
    again = api.load([str(tmp_path / "c.pzprv3")])
    assert [p.given_solution.solution for p in again] == [p.given_solution.solution for p in puzzles]
    svg = run("convert", str(path), "--to", "svg", "--solution", "-o", str(tmp_path / "m.svg"))
    assert svg.exit_code == 0, svg.output
    drawn = (tmp_path / "m-1.svg").read_text()
    assert drawn.count("white-circle") == 7 and drawn.count("black-circle") == 2 and 'class="loop"' in drawn


# -- hint state -----------------------------------------------------------------------------------
def test_state_reads_links_on_crossed_and_undecided():
    [puzzle] = api.load_text("masyu\n.b.\n...\n...\n")
    state = ma.read_state(puzzle, ". b-+\n  x |\n. . +\n\n. . .\n", "s.txt")
    assert state == {ma.link_key((0, 1), (0, 2)): True, ma.link_key((0, 2), (1, 2)): True,
                     ma.link_key((0, 1), (1, 1)): False}
    assert ma.describe_link(puzzle, ma.link_key((0, 1), (1, 1)), False) == "the link r1c2-r2c2 is crossed out"
    for text, message, line, column in [(". b-+\n", "the state has 1 lines", None, None),
                                        (". b=+\n\n\n\n.\n", "'=' is not a link mark", 1, 4),
                                        (". b-+\n |\n\n\n.\n", "'|' between four cells", 2, 2),
                                        (". b-+\n   | x\n\n\n.\n", "6 characters wide", 2, 6)]:
        with pytest.raises(ParseError) as info:
            ma.read_state(puzzle, text, "s.txt")
        assert message in info.value.message and (info.value.line, info.value.column) == (line, column)


@pytest.mark.skipif(not os.path.exists("/usr/bin/cadical"), reason="cadical not installed (Debian package cadical)")
def test_external_solver_gives_the_same_answers():
    for puzzle in api.load([str(ROOT / "satgrid" / "data" / "masyu.txt")])[:2]:
        for connectivity in ("lazy", "eager"):
            result = api.solve(puzzle, unique=True, options=api.Options(solver="external:cadical",
                                                                      connectivity=connectivity))
            assert result.status == "unique" and result.solution == puzzle.given_solution.solution


def test_cli_hint_and_grade(tmp_path):
    data = str(ROOT / "satgrid" / "data" / "masyu.txt")
    first = run("hint", data, "--puzzle", "pearl-6x6de")
    assert first.exit_code == 0 and first.output.startswith("the link r1c1-r2c1 is on the loop: unit propagation")
    state = tmp_path / "s.txt"
    state.write_text("b-+\n|\n+\n" + "\n" * 7 + ".\n")
    second = run("hint", data, "--puzzle", "pearl-6x6de", "--state", str(state))
    assert second.exit_code == 0 and re.match(r"the link r\dc\d-r\dc\d is (on the loop|crossed out): "
                                              r"unit propagation", second.output)
    # the hinted fact is the unique solution's
    from satgrid import grading
    from satgrid.queries import PuzzleQueries

    [puzzle] = [p for p in api.load([data]) if p.name == "pearl-6x6de"]
    found = grading.hint(puzzle, grading.read_state(puzzle, state.read_text()))
    key, value = found.fact
    assert grading.state_format(puzzle).describe(puzzle, key, value) in second.output
    session, owned = api.session_for(puzzle, api.Options())
    queries = PuzzleQueries(session, puzzle.clues())
    try:
        assert queries.solve().assignment(session.encoding.primary[key]) == value
    finally:
        queries.retire()
    state.write_text("bx+\n|\n+\n" + "\n" * 7 + ".\n")  # crossing a link the loop takes
    wrong = CliRunner().invoke(main, ["hint", data, "--puzzle", "pearl-6x6de", "--state", str(state)])
    assert "the state is wrong: the link r1c1-r1c2 is crossed out contradicts the solution" in wrong.output
    graded = run("grade", data, "--format", "json")
    assert [json.loads(line)["grade"] for line in graded.output.splitlines()] == [1, 1, 1, 1]
