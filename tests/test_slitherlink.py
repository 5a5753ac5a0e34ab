"""Slitherlink end to end: loop counts against brute force (lazy and eager, both cut forms),
golden Loopy puzzles, parsing and bad input, the checker, DIMACS exactness and the CLI."""
from __future__ import annotations

import functools
import json
import random
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
from satgrid.genres.slitherlink.checker import check_slitherlink
from satgrid.cli import main
from satgrid.errors import ParseError
from satgrid.genres import slitherlink as sl
from satgrid.queries import PuzzleQueries
from satgrid.reader import read_text, split_records
from satgrid.session import Session

from .helpers import shared_file

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"


# -- brute force ----------------------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def all_loops(rows: int, cols: int) -> tuple[sl.Solution, ...]:
    """Every simple cycle of the (rows+1) x (cols+1) dot lattice, as a solution."""
    lattice = nx.grid_2d_graph(rows + 1, cols + 1)
    loops = set()
    for cycle in nx.simple_cycles(lattice):
        h = [[0] * cols for _ in range(rows + 1)]
        v = [[0] * (cols + 1) for _ in range(rows)]
        for a, b in zip(cycle, cycle[1:] + cycle[:1]):
            (i1, j1), (i2, j2) = sorted((a, b))
            if i1 == i2:
                h[i1][j1] = 1
            else:
                v[i1][j1] = 1
        loops.add((tuple(map(tuple, h)), tuple(map(tuple, v))))
    return tuple(sorted(loops))


def side_count(solution: sl.Solution, r: int, c: int) -> int:
    h, v = solution
    return h[r][c] + h[r + 1][c] + v[r][c] + v[r][c + 1]


def brute_solutions(givens) -> list[sl.Solution]:
    rows, cols = len(givens), len(givens[0])
    return [s for s in all_loops(rows, cols)
            if all(k is None or side_count(s, r, c) == k
                   for r, row in enumerate(givens) for c, k in enumerate(row))]


def enumerate_all(puzzle: sl.SlitherlinkPuzzle, connectivity: str, anchored: bool = True,
                  cut_form: str = "exit") -> set:
    encoding = sl.build(puzzle.rows, puzzle.cols, anchored, cut_form)  # type: ignore[arg-type]
    session = Session(encoding, connectivity=connectivity)
    queries = PuzzleQueries(session, puzzle.clues())
    found, blocked = set(), []
    while (outcome := queries.solve(extra=blocked)).status == "sat":
        solution = sl.decode(puzzle, session.encoding, outcome.assignment)
        assert sl.check(puzzle, solution) == []
        assert solution not in found
        found.add(solution)
        blocked.append(queries.blocker(queries.project(outcome.assignment)))
    assert outcome.status == "unsat"
    session.close()
    return found


def blank(rows: int, cols: int) -> sl.SlitherlinkPuzzle:
    return sl.SlitherlinkPuzzle(tuple((None,) * cols for _ in range(rows)))


# -- the encoding against brute force --------------------------------------------------------------
@pytest.mark.parametrize("rows, cols, count", [(1, 1, 1), (1, 3, 6), (2, 2, 13), (2, 3, 40), (3, 3, 213)])
def test_every_loop_of_an_empty_grid_lazy(rows, cols, count):
    assert len(all_loops(rows, cols)) == count  # OEIS A140517 (n x n) and A059525 (2 x n)
    assert enumerate_all(blank(rows, cols), "lazy") == set(all_loops(rows, cols))


@pytest.mark.parametrize("rows, cols", [(1, 2), (2, 2), (2, 3), (3, 3)])
def test_every_loop_of_an_empty_grid_eager_pair_cuts_and_whole_cuts(rows, cols):
    assert enumerate_all(blank(rows, cols), "eager") == set(all_loops(rows, cols))
    assert enumerate_all(blank(rows, cols), "lazy", anchored=False) == set(all_loops(rows, cols))
    assert enumerate_all(blank(rows, cols), "lazy", cut_form="whole") == set(all_loops(rows, cols))


def test_clued_puzzle_counts_match_in_every_lowering():
    rnd = random.Random(4)
    for _ in range(12):
        loop = rnd.choice(all_loops(3, 3))
        givens = tuple(tuple(side_count(loop, r, c) if rnd.random() < 0.4 else None for c in range(3))
                       for r in range(3))
        puzzle = sl.SlitherlinkPuzzle(givens)
        want = set(brute_solutions(givens))
        assert enumerate_all(puzzle, "lazy") == want
        assert enumerate_all(puzzle, "eager") == want
        assert enumerate_all(puzzle, "lazy", anchored=False) == want
        assert enumerate_all(puzzle, "lazy", cut_form="whole") == want


def test_positive_clues_anchor_the_loop_cuts_with_no_variable_of_their_own():
    """A clue above 0 is a clue anchor of the loop rule (its selector conditions the cut of a
    sub-loop that misses its cell); a 0 is not; the encoding has no anchor variables."""
    from satgrid.solver import Assignment

    puzzle = sl.SlitherlinkPuzzle(((3, None, None, 0), (None,) * 4, (None,) * 4, (None,) * 4))
    encoding = sl.encode(puzzle)
    assert not any(isinstance(key, tuple) and key[:1] == ("loop_at",)
                   for key in encoding.pool.idpool.obj2id)
    session = Session(encoding)
    queries = PuzzleQueries(session, puzzle.clues())
    three, zero = queries.selectors[0, 0], queries.selectors[0, 3]
    # the loop round cells (1, 0) and (2, 0), and a unit square round cell (3, 3) that misses
    # the corners of both clue cells
    edge = encoding.primary
    loops = [{("h", 1, 0), ("h", 3, 0), ("v", 1, 0), ("v", 2, 0), ("v", 1, 1), ("v", 2, 1)},
             set(sl.sides(4, 4, 3, 3))]
    on = {edge["edge", *key] for loop in loops for key in loop} | {three, zero}
    model = [v if v in on else -v for v in range(1, encoding.pool.top + 1)]
    cuts = session.cuts(Assignment(model), encoding.pool)
    assert len(cuts) == 1 and -three in cuts[0][-1] and -zero not in cuts[0][-1]
    model[three - 1] = -three  # the 3 switched off: no anchor left, the clue-free pair cut
    cuts = session.cuts(Assignment(model), encoding.pool.copy())  # a pool with no loop memory
    assert len(cuts) == 1 and not {-three, -zero} & {x for clause in cuts[0] for x in clause}
    session.close()


@st.composite
def small_puzzles(draw):
    rows, cols = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    loop = draw(st.sampled_from(all_loops(rows, cols)))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    shown = draw(st.sets(st.sampled_from(cells)))
    givens = [[side_count(loop, r, c) if (r, c) in shown else None for c in range(cols)]
              for r in range(rows)]
    if draw(st.booleans()):  # sometimes a wrong or unusual clue: unsatisfiable or a 4
        r, c = draw(st.sampled_from(cells))
        givens[r][c] = draw(st.integers(0, 4))
    return sl.SlitherlinkPuzzle(tuple(map(tuple, givens)))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles())
def test_status_solution_and_audit_match_brute_force(puzzle):
    want = brute_solutions(puzzle.givens)
    expected = "unsatisfiable" if not want else "unique" if len(want) == 1 else "multiple"
    for connectivity in ("lazy", "eager"):
        result = api.solve(puzzle, audit=True, options=api.Options(connectivity=connectivity))
        assert result.status == expected
        if want:
            assert result.solution in want
            assert check_slitherlink(puzzle.givens, *result.solution) == []
        if expected == "multiple":
            assert result.second_solution in want and result.second_solution != result.solution
        if expected == "unique":  # a clue is redundant iff the others alone leave one loop
            clues = puzzle.clues()
            redundant = [key for key in clues
                         if len(brute_solutions(puzzle.with_clues({k: v for k, v in clues.items() if k != key}).givens)) == 1]
            assert result.redundant_clues == sorted(redundant)


def test_one_by_one_grids():
    for text, status in (("4", "unique"), (".", "unique"), ("0", "unsatisfiable"), ("1", "unsatisfiable"),
                         ("3", "unsatisfiable")):
        [puzzle] = api.load_text(text, genre="slitherlink")
        assert api.solve(puzzle, unique=True).status == status, text


# -- golden puzzles -------------------------------------------------------------------------------
def golden_records():
    source, text = read_text(str(shared_file("slitherlink", "tatham.txt")))
    return split_records(source, text, {"slitherlink"}, None)


@pytest.mark.parametrize("connectivity", ["lazy", "eager"])
def test_tatham_puzzles_solve_uniquely_to_the_known_solution(connectivity):
    records = golden_records()
    assert len(records) == 14
    for record in records:
        puzzle = sl.parse(record)
        if connectivity == "eager" and puzzle.rows > 10:
            continue  # the eager form is exact but slow on big grids (see encodings/slitherlink.md)
        known = sl.parse_solution(record, puzzle)
        assert check_slitherlink(puzzle.givens, *known) == []
        result = api.solve(puzzle, unique=True, options=api.Options(connectivity=connectivity))
        assert result.status == "unique", record.name
        assert result.solution == known, record.name
        drawn = [t.rstrip() for _, t in record.solution_lines]
        assert [t.rstrip() for t in sl.render(puzzle, result.solution).splitlines()] == drawn


def test_tatham_game_id_reads_the_same_puzzle_as_the_grid():
    for record in golden_records()[:4]:
        from_grid = sl.parse(record)
        [from_id] = api.load_text(record.meta["tatham"], genre="slitherlink")
        assert from_id.givens == from_grid.givens


def test_bundled_examples_are_unique():
    for puzzle in api.load([str(ROOT / "satgrid" / "data" / "slitherlink.txt")]):
        assert puzzle.genre == "slitherlink"
        assert api.solve(puzzle, unique=True).status == "unique"


# -- parsing --------------------------------------------------------------------------------------
def test_character_rows_tokens_and_ids_read_alike():
    chars = "genre: slitherlink\n2..1.\n.2..1\n..2..\n3..3.\n.0..3\n"
    tokens = "slitherlink\n2 . . 1 .\n. 2 . . 1\n. . 2 . .\n3 . . 3 .\n. 0 . . 3\n"
    [a] = api.load_text(chars)
    [b] = api.load_text(tokens)
    assert a.givens == b.givens
    assert a.givens[0] == (2, None, None, 1, None) and a.givens[4][1] == 0
    assert a.rows == a.cols == 5 and a.clues()[(3, 3)] == 3
    result = api.solve(a, unique=True)
    assert result.status == "unique"
    # the same puzzle as a Loopy ID (FORMATS.md's vector), several IDs one a line
    ids = api.load_text("5x5t0:a211b2213e2a2a2c20\n7x7t0:122b221e322a12a230d13c1a3b3a32a3b322a\n",
                        genre="loopy")
    assert [p.rows for p in ids] == [5, 7]
    assert api.solve(ids[0], unique=True).status == "unique"


def test_puzzles_separated_by_blank_lines():
    puzzles = api.load_text("genre: slitherlink\n3.\n.3\n\n2..\n...\n")
    assert [(p.rows, p.cols) for p in puzzles] == [(2, 2), (2, 3)]


@pytest.mark.parametrize("text, message, line, column", [
    ("22.\n3.5\n", "clue 5 is more than 4", 3, 3),
    ("2 . 12\n. . .\n", "clue 12 is more than 4", 2, 5),
    ("22.\n3.x\n", "'x' is not a clue", 3, 3),
    ("22.\n3.\n", "row has 2 cells, expected 3", 3, None),
    ("10x10t0dh#seed\n", "random-seed ID", 2, 10),
    ("3x3t1:a2a\n", "not the square grid", 2, 4),
    ("3x3t0:a2a\n", "describes 3 cells", 2, 10),
    ("3x3t0:a2a9f\n", "clue 9 is more than 4", 2, 10),
])
def test_bad_input_is_a_parse_error_with_a_place(text, message, line, column):
    with pytest.raises(ParseError) as info:
        api.load_text("genre: slitherlink\n" + text, source="p.txt")
    assert message in info.value.message
    assert info.value.line == line and info.value.column == column
    assert str(info.value).startswith(f"p.txt:{line}")


def test_header_size_must_match_the_grid():
    block = "puzzle x\ngenre: slitherlink\nrows: 3\ncols: 2\ngivens:\n22\n3.\nend\n"
    with pytest.raises(ParseError, match="rows: 3 but the grid has 2"):
        api.load_text(block)


# -- output ---------------------------------------------------------------------------------------
def test_render_json_and_differences():
    [puzzle] = api.load_text("slitherlink\n3.\n..\n")
    result = api.solve(puzzle, unique=True)
    assert result.status == "multiple"
    assert sl.render(puzzle) == "3.\n.."
    for solution in (result.solution, result.second_solution):
        drawing = sl.render(puzzle, solution).splitlines()
        assert len(drawing) == 5 and all(len(t) == 5 for t in drawing)
        assert drawing[1][1] == "3" and drawing[0][0::2] == "+++"
    diff = sl.differences(puzzle, result.solution, result.second_solution)
    assert diff and all(kind in "hv" for kind, _, _ in diff)
    out = result.to_json()
    assert out["puzzle"] == ["3.", ".."]
    assert len(out["solution"]["horizontal"]) == 3 and len(out["solution"]["horizontal"][0]) == 2
    assert len(out["solution"]["vertical"]) == 2 and len(out["solution"]["vertical"][0]) == 3
    assert out["second_solution"] != out["solution"]


# -- the checker ----------------------------------------------------------------------------------
def test_checker_names_each_broken_rule():
    clues = ((3, None), (None, None))
    square = (((1, 0), (0, 0), (0, 0)), ((1, 0, 0), (0, 0, 0)))  # not even closed
    assert any("touches 1 loop edges" in p for p in check_slitherlink(clues, *square))
    cell = (((1, 0), (1, 0), (0, 0)), ((1, 1, 0), (0, 0, 0)))
    assert check_slitherlink(clues, *cell) == ["cell r1c1 has clue 3 but 4 loop sides"]
    two = (((1, 0, 1), (1, 0, 1)), ((1, 1, 1, 1),))
    assert any("2 separate pieces" in p for p in check_slitherlink(((None,) * 3,), *two))
    empty = (((0,), (0,)), ((0, 0),))
    assert check_slitherlink(((None,),), *empty) == ["no loop: no edge is chosen"]
    assert check_slitherlink(((None,),), ((1,),), ((1, 1),)) == ["horizontal edges are not 2 rows of 1"]


def reference_problems(clues, horizontal, vertical):
    """The checker's messages after its shape checks, from the rules over a networkx graph of
    dot tuples (the checker's first form): its index-based walk must say the same."""
    rows, cols = len(clues), len(clues[0])
    problems = []
    for r in range(rows):
        for c in range(cols):
            k = clues[r][c]
            sides = horizontal[r][c] + horizontal[r + 1][c] + vertical[r][c] + vertical[r][c + 1]
            if k is not None and sides != k:
                problems.append(f"cell r{r + 1}c{c + 1} has clue {k} but {sides} loop sides")
    loop = nx.Graph()
    loop.add_edges_from(((i, j), (i, j + 1)) for i, row in enumerate(horizontal) for j, x in enumerate(row) if x)
    loop.add_edges_from(((i, j), (i + 1, j)) for i, row in enumerate(vertical) for j, x in enumerate(row) if x)
    if not loop:
        return problems + ["no loop: no edge is chosen"]
    problems += [f"dot ({d[0]}, {d[1]}) touches {loop.degree(d)} loop edges, not 0 or 2"
                 for d in sorted(loop) if loop.degree(d) != 2]
    if nx.number_connected_components(loop) != 1:
        problems.append(f"the loop edges form {nx.number_connected_components(loop)} separate pieces, not one loop")
    return problems


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.data())
def test_checker_says_what_the_rules_say(rows, cols, data):
    """Random edge sets and clues (and every loop of a small lattice): every message, in order,
    as the reference derives it."""
    def grid(height, width, values):
        return tuple(tuple(row) for row in data.draw(st.lists(st.lists(
            values, min_size=width, max_size=width), min_size=height, max_size=height)))
    clues = grid(rows, cols, st.sampled_from([None, None, 0, 1, 2, 3]))
    horizontal, vertical = grid(rows + 1, cols, st.integers(0, 1)), grid(rows, cols + 1, st.integers(0, 1))
    assert check_slitherlink(clues, horizontal, vertical) == reference_problems(clues, horizontal, vertical)
    if rows * cols <= 6:
        for loop in all_loops(rows, cols):
            assert check_slitherlink(clues, *loop) == reference_problems(clues, *loop)


# -- DIMACS export and the CLI --------------------------------------------------------------------
def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


@pytest.mark.parametrize("text", ["...\n...\n", "3..\n.2.\n"])
def test_eager_dimacs_export_is_exact(tmp_path, text):
    path = tmp_path / "p.txt"
    path.write_text("genre: slitherlink\n" + text)
    out = tmp_path / "p.cnf"
    assert run("encode", str(path), "--dimacs", "-o", str(out)).exit_code == 0
    varmap = json.loads((tmp_path / "p.map.json").read_text())
    primary = {int(v): tuple(k) for v, k in varmap["primary"].items()}
    found = set()
    with Solver(name="cadical153", bootstrap_with=CNF(from_file=str(out)).clauses) as solver:
        while solver.solve():
            model = set(solver.get_model())
            on = frozenset(key for v, key in primary.items() if v in model)
            found.add(on)
            solver.add_clause([-v for v in primary if v in model])
    [puzzle] = api.load_text(text, genre="slitherlink")
    want = {frozenset(("edge", "h", i, j) for i, row in enumerate(s[0]) for j, x in enumerate(row) if x)
            | frozenset(("edge", "v", i, j) for i, row in enumerate(s[1]) for j, x in enumerate(row) if x)
            for s in brute_solutions(puzzle.givens)}
    assert found == want


def test_cli_solve_draws_the_loop_and_the_second_one(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("genre: slitherlink\n3.\n..\n")
    result = run("solve", str(path), "--unique")
    assert result.exit_code == 0, result.output
    assert "multiple" in result.output and "second solution" in result.output
    assert result.output.count("+-+") >= 2
    one = run("solve", str(shared_file("slitherlink", "tatham.txt")), "--unique", "--format", "json")
    lines = [json.loads(t) for t in one.stdout.splitlines()]
    assert len(lines) == 14 and {o["status"] for o in lines} == {"unique"}
    assert all(o["genre"] == "slitherlink" and set(o["solution"]) == {"horizontal", "vertical"} for o in lines)


def test_cli_audit_and_bad_input(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("genre: slitherlink\n333\n...\n")
    out = json.loads(run("audit", str(path), "--format", "json").stdout)
    [only] = brute_solutions(((3, 3, 3), (None,) * 3))
    assert out["status"] == "unique"
    assert (out["solution"]["horizontal"], out["solution"]["vertical"]) == ([list(r) for r in only[0]], [list(r) for r in only[1]])
    assert out["solution"]["vertical"][0] == [1, 1, 1, 1]  # the loop snakes round the 3s
    assert out["redundant_clues"] == [] and out["minimal"] is True
    bad = tmp_path / "bad.txt"
    bad.write_text("genre: slitherlink\n22\n5.\n")
    result = CliRunner().invoke(main, ["solve", str(bad)])
    assert result.exit_code == 1
    assert "bad.txt:3:1: clue 5 is more than 4" in result.output
    assert "Traceback" not in result.output


def test_real_subprocess(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("genre: slitherlink\n3.\n.3\n")
    proc = subprocess.run([sys.executable, "-m", "satgrid", "solve", str(path), "--unique", "--format", "json"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["status"] == "multiple"


def test_encodings_of_one_size_share_a_template_but_not_a_pool():
    """encode() copies one base encoding per size: sessions on two copies draw blocking clauses
    and cuts from pools of their own, the template's pool never grows, answers stay right."""
    from satgrid.genres.slitherlink.generator import grow
    from satgrid.session import Session

    template = sl._base.template(6, 6, "exit")
    top = template.pool.top
    blank = sl.SlitherlinkPuzzle(tuple(tuple([None] * 6) for _ in range(6)))
    first, second = sl.encode(blank), sl.encode(blank)
    assert first.pool is not second.pool and first.clauses is second.clauses
    rng = random.Random(5)
    for encoding in (first, second, first):
        region = grow(6, 6, rng)
        session = Session(encoding)
        queries = PuzzleQueries(session, region.clues())
        loop = tuple(sorted(encoding.primary["edge", *key] for key in region.loop_edges()))
        found = queries.solve()
        assert found.status == "sat" and queries.project(found.assignment) != ()
        queries.other_solution(loop)
        assert encoding.pool.top > top  # the blocking clause drew a fresh variable
        session.close()
    assert template.pool.top == top
    assert first.pool.top > top and second.pool.top > top


def test_breaking_a_clue_asks_the_same_as_blocking_the_loop():
    """For a unique puzzle, "a solution breaking clue c once c is off" (the breaker literal
    one_more_gone uses) exists exactly when "a solution other than the loop" does: checked on
    full grids (clues mostly redundant) and on generated clue-minimal puzzles (none is)."""
    from satgrid.genres.slitherlink.generator import make
    from satgrid.session import Session

    rng = random.Random(8)
    blank = sl.SlitherlinkPuzzle(tuple(tuple([None] * 5) for _ in range(5)))
    compared = {"sat": 0, "unsat": 0}
    for _ in range(4):
        made = make(5, 5, rng)
        for clues in (made.puzzle.clues(), {k: len([e for e in sl.sides(5, 5, *k) if e in made.loop])
                                            for k in [(r, c) for r in range(5) for c in range(5)]}):
            session = Session(sl.encode(blank))
            queries = PuzzleQueries(session, clues)
            loop = tuple(sorted(session.encoding.primary["edge", *key] for key in made.loop))
            assert queries.other_solution(loop).status == "unsat"
            keys, lits = list(queries.selectors), list(queries.selectors.values())
            for i, key in enumerate(keys):
                rest = [*lits[:i], *lits[i + 1:]]
                breaker = queries.one_more_gone(loop, key)
                assert breaker != queries.blocker(loop)
                by_breaker = session.solve([*rest, breaker]).status
                assert by_breaker == session.solve([*rest, queries.blocker(loop)]).status
                compared[by_breaker] += 1
            session.close()
    assert compared["sat"] > 20 and compared["unsat"] > 20


def loop_edges(solution: sl.Solution) -> set[sl.EdgeKey]:
    h, v = solution
    return {("h", i, j) for i, row in enumerate(h) for j, x in enumerate(row) if x} | \
        {("v", i, j) for i, row in enumerate(v) for j, x in enumerate(row) if x}


def enclosed(solution: sl.Solution) -> int:
    """Cells inside the loop (a cell is inside when an odd number of loop edges lie left of it)."""
    _, v = solution
    return sum(sum(v[r][:c + 1]) % 2 for r in range(len(v)) for c in range(len(v[0]) - 1))


@pytest.mark.parametrize("rows, cols", [(3, 3), (2, 4)])
@pytest.mark.parametrize("cells", [1, 2, 3, 4, 5, 6])
def test_small_loops_are_every_loop_around_few_cells(rows, cols, cells):
    """small_loops lists exactly the simple loops of the lattice that enclose at most ``cells``
    cells (brute force over every simple cycle); beyond 6 cells it refuses."""
    listed = {frozenset(loop) for loop in sl.small_loops(rows, cols, cells)}
    brute = {frozenset(loop_edges(s)) for s in all_loops(rows, cols) if enclosed(s) <= cells}
    assert listed == brute and len(sl.small_loops(rows, cols, cells)) == len(listed)
    with pytest.raises(ValueError):
        sl.small_loops(rows, cols, 7)


def test_small_loop_lemma_keeps_every_solution_and_bars_small_loops():
    """Every loop and every clue set it satisfies (on a 4x4, clues sampled) satisfy the lemma,
    ``big`` set as its pair clauses force; with a far pair of clues on, the four sides of a cell
    fail by unit propagation alone."""
    rows = cols = 4
    rng = random.Random(3)
    blank4 = blank(rows, cols)
    encoding = sl.encode(blank4)
    session = Session(encoding)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    for solution in rng.sample(all_loops(rows, cols), 150):
        on = {encoding.primary["edge", *key] for key in loop_edges(solution)}
        clues = {cell: side_count(solution, *cell) for cell in rng.sample(cells, rng.randint(0, 16))}
        queries = PuzzleQueries(session, clues)
        lemma = sl.small_loop_lemma(encoding, rows, cols, clues, queries.selectors)
        value = on | set(queries.selectors.values())
        # the lemma's own literals (blocks, big) true only as its Horn clauses force them
        own = {c[-1] for c in lemma if c[-1] > 0}
        while forced := {c[-1] for c in lemma if c[-1] in own and c[-1] not in value
                         and all(-x in value for x in c[:-1])}:
            value |= forced
        assert all(any(x in value if x > 0 else -x not in value for x in c) for c in lemma)
    session.close()
    rows = cols = 10
    encoding = sl.encode(blank(rows, cols))
    session = Session(encoding)
    clues = {(0, 0): 1, (9, 9): 1}
    queries = PuzzleQueries(session, clues)
    session.add(sl.small_loop_lemma(encoding, rows, cols, clues, queries.selectors))
    sides = [encoding.primary["edge", *key] for key in sl.sides(rows, cols, 3, 4)]
    on = list(queries.selectors.values())
    assert -sides[3] in session.propagate([*on, *sides[:3]])[1]
    assert -sides[3] not in session.propagate([on[0], *sides[:3]])[1]  # one clue alone: no bar
    assert session.solve(on).status == "sat"
    session.close()


def test_the_rules_are_a_short_statement_over_the_builder():
    """``rules`` fits in 60 lines (docstring aside); its encoding names the loop rule, keeps the
    edges 1..n in edge_keys order, and a number's clue is "exactly k sides" with "broken" clauses
    (one per choice of k sides) and, above 0, an anchor on the loop rule."""
    from satgrid.model import statement_lines

    assert statement_lines(sl.rules) <= 60
    encoding = sl.build(3, 4)
    assert [rule.name for rule in encoding.rules] == ["the edges form one loop"]
    edge = encoding.layers["edge"]
    assert list(edge) == list(sl.geometry.Grid.of(3, 4).edge_keys)
    assert list(edge.values()) == list(range(1, len(edge) + 1))
    for k, broken in enumerate([1, 4, 6, 4, 1]):
        clue = encoding.encode_clue((1, 2), k)
        assert clue.selector == encoding.pool.var("clue", 1, 2, k)
        assert len(clue.broken) == broken and (clue.anchor is not None) == (k > 0)
        assert {abs(x) for c in clue.clauses for x in c} == {edge[s] for s in sl.sides(3, 4, 1, 2)}
    assert sl.build(3, 4, anchored=False).encode_clue((1, 2), 2).anchor is None
