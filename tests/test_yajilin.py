"""Yajilin end to end: solution counts against brute force for every subset of the arrows (lazy,
eager, DIMACS), the puzzlekit text written and read back (the 30 puzzles against their published
solutions: test_puzzlekit.py), parsing and bad
input, the checker, formats checked by the puz.link engine, generation, hints and the CLI."""
from __future__ import annotations

import functools
import itertools
import json
import random
import subprocess
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner
from pysat.formula import CNF
from pysat.solvers import Solver

from satgrid import api, formats
from satgrid.cli import main
from satgrid.errors import ParseError
from satgrid.formats import puzzlekit, puzzlink, pzprv3
from satgrid.genres import yajilin as yj
from satgrid.genres.yajilin.checker import check_yajilin
from satgrid.queries import PuzzleQueries
from satgrid.session import Session

from .helpers import SHARED, run_pzpr

ROOT = Path(__file__).resolve().parents[1]
PUZZLEKIT = SHARED / "external" / "genres" / "puzzlekit_yajilin.txt"
STEP = {"n": (-1, 0), "s": (1, 0), "e": (0, 1), "w": (0, -1)}


# -- brute force ----------------------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def all_loops(rows: int, cols: int) -> dict[frozenset, tuple]:
    """Every simple cycle through cell centres of a rows x cols grid, as link grids, by the set
    of cells it passes."""
    loops: dict[frozenset, list] = {}
    for cycle in nx.simple_cycles(nx.grid_2d_graph(rows, cols).to_directed()):
        if len(cycle) < 4:
            continue
        h = [[0] * (cols - 1) for _ in range(rows)]
        v = [[0] * cols for _ in range(rows - 1)]
        for a, b in zip(cycle, cycle[1:] + cycle[:1]):
            (r1, c1), (r2, c2) = sorted((a, b))
            if r1 == r2:
                h[r1][c1] = 1
            else:
                v[r1][c1] = 1
        loops.setdefault(frozenset(cycle), set()).add((tuple(map(tuple, h)), tuple(map(tuple, v))))
    return {cells: tuple(sorted(found)) for cells, found in loops.items()}


def brute_solutions(puzzle: yj.YajilinPuzzle) -> set:
    """Every solution, by enumeration: shadings of non-clue cells without touching pairs that
    satisfy the arrows (counted here, not by the checker), each with every loop through all
    the other non-clue cells."""
    rows, cols = puzzle.rows, puzzle.cols
    holes = puzzle.clue_cells()
    free = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in holes]
    out = set()
    for mask in range(1 << len(free)):
        shaded = {p for i, p in enumerate(free) if mask >> i & 1}
        if any((r + 1, c) in shaded or (r, c + 1) in shaded for r, c in shaded):
            continue
        ok = True
        for (r, c), (d, n) in puzzle.clues().items():
            dr, dc = STEP[d]
            seen = sum((r + k * dr, c + k * dc) in shaded for k in range(1, max(rows, cols)))
            ok &= seen == n
        if not ok:
            continue
        shading = tuple("".join("#" if (r, c) in shaded else "." for c in range(cols)) for r in range(rows))
        for loop in all_loops(rows, cols).get(frozenset(p for p in free if p not in shaded), ()):
            out.add((shading, *loop))
    return out


def enumerate_all(puzzle: yj.YajilinPuzzle, connectivity: str = "lazy") -> set:
    session = Session(yj.encode(puzzle), connectivity=connectivity)
    queries = PuzzleQueries(session, puzzle.clues())
    found, blocked = set(), []
    while (outcome := queries.solve(extra=blocked)).status == "sat":
        solution = yj.decode(puzzle, session.encoding, outcome.assignment)
        assert yj.check(puzzle, solution) == []
        assert solution not in found
        found.add(solution)
        blocked.append(queries.blocker(queries.project(outcome.assignment)))
    assert outcome.status == "unsat"
    session.close()
    return found


def puzzle_of(text: str) -> yj.YajilinPuzzle:
    [puzzle] = api.load_text(text, genre="yajilin")
    return puzzle


def random_puzzle(rows: int, cols: int, rnd: random.Random) -> yj.YajilinPuzzle:
    """A few clue cells, most with an arrow and a number that fits."""
    grid: list[list] = [[None] * cols for _ in range(rows)]
    for _ in range(rnd.randint(1, 4)):
        r, c = rnd.randrange(rows), rnd.randrange(cols)
        if rnd.random() < 0.2:
            grid[r][c] = yj.HOLE
            continue
        d = rnd.choice("nsew")
        grid[r][c] = (d, 0)
        puzzle = yj.YajilinPuzzle(tuple(map(tuple, grid)))
        grid[r][c] = (d, rnd.randint(0, yj.capacity(puzzle, (r, c), d)))
    return yj.YajilinPuzzle(tuple(map(tuple, grid)))


# -- the encoding against brute force --------------------------------------------------------------
def test_every_solution_of_small_grids_for_every_subset_of_the_arrows():
    """Switching arrows off (with_clues: the clue cell stays, without a number) gives exactly the
    solutions of the puzzle without those numbers, in both lowerings."""
    rnd = random.Random(20)
    checked = 0
    for rows, cols in [(3, 3), (3, 4), (4, 3), (4, 4)] * 3:
        puzzle = random_puzzle(rows, cols, rnd)
        clues = puzzle.clues()
        for k in range(len(clues) + 1):
            for kept in itertools.combinations(sorted(clues), k):
                sub = puzzle.with_clues({p: clues[p] for p in kept})
                assert sub.clue_cells() == puzzle.clue_cells()
                want = brute_solutions(sub)
                assert enumerate_all(sub, "lazy") == want, (puzzle, kept)
                assert enumerate_all(sub, "eager") == want, (puzzle, kept)
                checked += bool(want)
    assert checked >= 10


def test_status_and_audit_match_brute_force():
    rnd = random.Random(5)
    seen = set()
    for rows, cols in [(3, 4), (4, 4)] * 8:
        puzzle = random_puzzle(rows, cols, rnd)
        want = brute_solutions(puzzle)
        expected = "unsatisfiable" if not want else "unique" if len(want) == 1 else "multiple"
        seen.add(expected)
        result = api.solve(puzzle, audit=True)
        assert result.status == expected
        if want:
            assert result.solution in want
        if expected == "multiple":
            assert result.second_solution in want and result.second_solution != result.solution
        if expected == "unique":  # an arrow is redundant iff the puzzle without its number stays unique
            clues = puzzle.clues()
            redundant = [p for p in clues
                         if len(brute_solutions(puzzle.with_clues({q: v for q, v in clues.items() if q != p}))) == 1]
            assert result.redundant_clues == sorted(redundant)
    assert seen == {"unsatisfiable", "unique", "multiple"}


@pytest.mark.parametrize("text, status", [(t, s) for t, s, _ in yj.SAMPLES])
def test_samples_against_brute_force(text, status):
    puzzle = puzzle_of(text)
    want = brute_solutions(puzzle)
    assert status == ("unsatisfiable" if not want else "unique" if len(want) == 1 else "multiple")
    sample = dict((t, s) for t, _, s in yj.SAMPLES)[text]
    if sample is not None:
        assert want == {sample}


@pytest.mark.parametrize("text", ["1e . . .\n. . . .\n. . . .\n", ". . .\n. x .\n. . .\n", ". . . .\n. . . .\n. . . .\n. . 1n .\n"])
def test_eager_dimacs_export_is_exact(tmp_path, text):
    path = tmp_path / "p.txt"
    path.write_text("genre: yajilin\n" + text)
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
    want = set()
    for shading, h, v in brute_solutions(puzzle_of(text)):
        want.add(frozenset({("shaded", r, c) for r, row in enumerate(shading) for c, x in enumerate(row) if x == "#"}
                           | {("line", r, c, r, c + 1) for r, row in enumerate(h) for c, x in enumerate(row) if x}
                           | {("line", r, c, r + 1, c) for r, row in enumerate(v) for c, x in enumerate(row) if x}))
    assert found == want and want


def test_loop_visits_rule_on_its_own():
    """The vocabulary's loop_visits: the loop passes exactly the cells whose literal is true."""
    from satgrid.grid import Grid
    from satgrid.model import Model

    m = Model(Grid.of(2, 3))
    line = m.links("line")
    on = m.cells("on")
    loop = m.single_loop("loop", line)
    m.loop_visits("visits", loop, on)
    encoding = m.build()
    session = Session(encoding)
    found = set()
    while (outcome := session.solve()).status == "sat":
        value = outcome.assignment
        cells = frozenset(p for p, lit in on.items() if value(lit))
        linked = {p for (a, b), lit in line.items() if value(lit) for p in (a, b)}
        assert cells == linked
        found.add(cells)
        session.add([[-lit if value(lit) else lit for lit in [*on.values(), *line.values()]]])
    session.close()
    squares = {frozenset({(0, 0), (0, 1), (1, 0), (1, 1)}), frozenset({(0, 1), (0, 2), (1, 1), (1, 2)})}
    assert found == squares | {frozenset((r, c) for r in range(2) for c in range(3))}


# -- the published puzzles ------------------------------------------------------------------------
def puzzlekit_puzzles():
    if not PUZZLEKIT.exists():
        pytest.skip(f"shared data not found at {PUZZLEKIT}")
    return api.load([str(PUZZLEKIT)])


def test_puzzlekit_text_round_trips():
    for puzzle in puzzlekit_puzzles()[:8]:
        text = puzzlekit.header(yj.PUZZLEKIT, 1) + puzzlekit.write(puzzle, puzzle.given_solution.solution)
        [again] = api.load_text(text)
        assert again.givens == puzzle.givens and again.given_solution.solution == puzzle.given_solution.solution


def test_bundled_examples_are_unique_and_printed_as_given():
    from satgrid.reader import read_text, split_records

    source, text = read_text(str(ROOT / "satgrid" / "data" / "yajilin.txt"))
    records = split_records(source, text, {"yajilin"}, None)
    assert len(records) >= 3
    for record in records:
        puzzle = yj.parse(record)
        known = yj.parse_solution(record, puzzle)
        result = api.solve(puzzle, unique=True)
        assert result.status == "unique" and result.solution == known, record.name
        assert yj.render(puzzle, result.solution).splitlines() == [t.rstrip() for _, t in record.solution_lines]


# -- parsing and bad input --------------------------------------------------------------------------
def test_tokens():
    puzzle = puzzle_of("- 1w 0N\n. x ?e\n3 . .\n")
    assert puzzle.grid == ((None, ("w", 1), ("n", 0)), (None, yj.HOLE, ("e", None)), (("", 3), None, None))
    assert puzzle.clues() == {(0, 1): ("w", 1), (0, 2): ("n", 0)}
    assert puzzle.clue_cells() == {(0, 1), (0, 2), (1, 1), (1, 2), (2, 0)}
    assert yj.puzzle_json(puzzle) == [[".", "1w", "0n"], [".", "x", "?e"], ["3", ".", "."]]
    # switching an arrow off keeps its clue cell, without a number
    assert puzzle.with_clues({(0, 2): ("n", 0)}).grid[0][1] == yj.HOLE


@pytest.mark.parametrize("text, message, line, column", [
    (". 1n .\n. . .\n", "the arrow at r1c2 points up, off the grid, and says 1", 2, 3),
    (". . .\n. . 2w\n", "the arrow at r2c3 says 2 shaded cells left, but the cells there hold at most 1", 3, 5),
    ("3e . x . .\n. . . . .\n", "says 3 shaded cells right, but the cells there hold at most 2", 2, 1),
    (". . q\n", "'q' is not a cell", 2, 5),
    (". 2x .\n", "'2x' is not a cell", 2, 3),
    (". . .\n. .\n", "row has 2 cells, the first row has 3", 3, None),
])
def test_bad_input_is_a_parse_error_with_a_place(text, message, line, column):
    with pytest.raises(ParseError) as info:
        api.load_text("genre: yajilin\n" + text)
    assert message in info.value.message
    assert (info.value.line, info.value.column) == (line, column)


def test_an_arrow_with_0_may_point_off_the_grid():
    puzzle = puzzle_of("0n . .\n. . .\n. . .\n")
    assert api.solve(puzzle, unique=True).status in ("unique", "multiple")


@pytest.mark.parametrize("solution, message, line, column", [
    ("#  se ew sw\nse nw #  ns\nns se ew nw\nne nw 1n #", None, None, None),
    ("# se ew sw\nse nw # ns\nns se ew nw\nne nw - x", None, None, None),
    ("#  se ew sw\nse nw #  ns\nns se ew nw\nne nw 1n", "solution row has 3 cells, the grid 4", 12, None),
    ("#  se ew qq\nse nw #  ns\nns se ew nw\nne nw 1n #", "'qq' is not a solution cell for r1c4", 9, 10),
    ("#  se ew sw\nse nw #  ns\nns se ew nw\nne nw 2n #", "'2n' at the clue cell r4c3", 12, 7),
    ("#  ne ew sw\nse nw #  ns\nns se ew nw\nne nw 1n #", "'ne' at r1c2 leaves the grid", 9, 4),
    ("#  se ew sw\nse nw #  ns\nns se ns nw\nne nw 1n #", "r3c2 towards r3c3, whose token does not come back", 11, 4),
])
def test_solution_sections(solution, message, line, column):
    text = f"puzzle x\ngenre: yajilin\ngivens:\n{yj.SAMPLES[0][0]}solution:\n{solution}\nend\n"
    [puzzle] = api.load_text(text)
    if message is None:
        assert puzzle.given_solution.solution == yj.SAMPLES[0][2]
        return
    error = puzzle.given_solution.error
    assert message in error
    assert f"<text>:{line}:{column}: " in error if column else f"<text>:{line}: " in error


def test_checker_names_each_broken_rule():
    puzzle = puzzle_of(yj.SAMPLES[0][0])
    clue_cells = puzzle.numbers()
    good, h, v = yj.SAMPLES[0][2]
    assert check_yajilin(4, 4, clue_cells, good, h, v) == []
    problems = check_yajilin(4, 4, clue_cells, ("....", "....", "....", "...."), h, v)
    assert "r1c1 is neither shaded nor on the loop" in problems
    assert "the arrow at r4c3 says 1 shaded cells up, there are 0" in problems
    assert "the clue cell r4c3 is shaded" in check_yajilin(4, 4, clue_cells, ("#...", "..#.", "....", "..##"), h, v)
    problems = check_yajilin(4, 4, clue_cells, ("##..", "..#.", "....", "...#"), h, v)
    assert "shaded cells r1c1 and r1c2 touch" in problems and "the loop passes through the shaded cell r1c2" in problems
    two = ((1, 0, 1), (1, 0, 1)), ((1, 1, 1, 1),)
    assert check_yajilin(2, 4, {}, ("....", "...."), *two) == ["the links form 2 separate pieces, not one loop"]
    assert "no loop: no link is drawn" in check_yajilin(1, 2, {}, ("#.",), ((0,),), ())
    assert check_yajilin(4, 4, {}, ("...",), h, v) == ["solution is not 4x4"]
    assert check_yajilin(4, 4, {}, good, ((0, 0),) * 4, v) == ["horizontal links are not 4 rows of 3"]


# -- output, JSON, hints ----------------------------------------------------------------------------
def test_render_json_and_differences():
    puzzle = puzzle_of(yj.SAMPLES[0][0])
    solution = yj.SAMPLES[0][2]
    assert yj.render(puzzle) == ".  .  .  .\n.  .  .  .\n.  .  .  .\n.  .  1n ."
    assert yj.render(puzzle, solution) == "#  se ew sw\nse nw #  ns\nns se ew nw\nne nw 1n #"
    data = yj.solution_json(puzzle, solution)
    assert data["shaded"] == list(solution[0]) and yj.solution_from_json(puzzle, data) == solution
    with pytest.raises(ValueError):
        yj.solution_from_json(puzzle, {"shaded": data["shaded"]})
    loose = puzzle_of(". . . .\n. . . .\n. . . .\n")
    other = api.solve(loose, unique=True)
    assert other.status == "multiple"
    assert yj.differences(loose, other.solution, other.second_solution)
    from satgrid import render_svg

    drawing = render_svg.svg(puzzle, solution)
    assert 'class="arrow"' in drawing and 'class="shaded"' in drawing and 'class="loop"' in drawing
    assert '>1</text>' in drawing and 'class="clue-cell"' in drawing


def test_hint_state_reads_cells_and_links():
    puzzle = puzzle_of(yj.SAMPLES[0][0])
    state = yj.read_state(puzzle, "? ? ? #\n? se . ?\n? ? ? ?\n? ? 1n ?\n", "<state>")
    assert state[("shaded", 0, 3)] is True and state[("shaded", 1, 2)] is False
    assert state[("line", 1, 1, 1, 2)] is True and state[("line", 1, 0, 1, 1)] is False
    assert state[("line", 0, 1, 1, 1)] is False and state[("line", 1, 1, 2, 1)] is True
    with pytest.raises(ParseError) as info:
        yj.read_state(puzzle, "? ? ? #\n? se q ?\n? ? ? ?\n? ? - ?\n", "<state>")
    assert (info.value.line, info.value.column) == (2, 6)
    assert yj.describe(puzzle, ("shaded", 0, 3), True) == "r1c4 is shaded"


def test_cli_hint_and_grade(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("genre: yajilin\n" + yj.SAMPLES[0][0])
    state = tmp_path / "s.txt"
    state.write_text("? ? ? ?\n? ? ? ?\n? ? ? ?\n? ? 1n ?\n")
    result = run("hint", str(path), "--state", str(state))
    assert result.exit_code == 0, result.output
    assert "r1" in result.output or "link" in result.output
    graded = run("grade", str(path))
    assert graded.exit_code == 0, graded.output


# -- the CLI ----------------------------------------------------------------------------------------
def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_cli_solve_unique_shows_the_second_solution(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("genre: yajilin\n. . . .\n. . . .\n. . . .\n")
    result = run("solve", str(path), "--unique")
    assert result.exit_code == 0 and "multiple" in result.output and "second solution" in result.output


def test_cli_audit_and_bad_input(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("genre: yajilin\n" + yj.SAMPLES[0][0])
    out = json.loads(run("audit", str(path), "--format", "json").stdout)
    assert out["status"] == "unique" and out["redundant_clues"] == [] and out["minimal"] is True
    path.write_text("genre: yajilin\n0e . . .\n. . . .\n. . . .\n. . 1n 0w\n")  # the 0s add nothing
    out = json.loads(run("audit", str(path), "--format", "json").stdout)
    assert out["status"] == "unique" and out["redundant_clues"] == [[0, 0], [3, 3]]
    bad = tmp_path / "bad.txt"
    bad.write_text("genre: yajilin\n. 3s .\n. . .\n")
    result = CliRunner().invoke(main, ["solve", str(bad)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "bad.txt:2:3: the arrow at r1c2 says 3 shaded cells down" in result.output


def test_cli_encode_then_decode_with_an_external_solver(tmp_path):
    cadical = "/usr/bin/cadical"
    if not Path(cadical).exists():
        pytest.skip("cadical not installed (Debian package cadical)")
    path = tmp_path / "p.txt"
    path.write_text("genre: yajilin\n" + yj.SAMPLES[0][0])
    out = tmp_path / "p.cnf"
    assert run("encode", str(path), "--dimacs", "-o", str(out)).exit_code == 0
    model = subprocess.run([cadical, "-q", str(out)], capture_output=True, text=True).stdout
    (tmp_path / "model.txt").write_text(model)
    decoded = run("decode", str(path), str(tmp_path / "model.txt"), "--format", "json")
    assert decoded.exit_code == 0, decoded.output
    assert json.loads(decoded.output)["solution"] == yj.solution_json(puzzle_of(yj.SAMPLES[0][0]), yj.SAMPLES[0][2])


# -- generation -----------------------------------------------------------------------------------
@pytest.mark.parametrize("rows, cols, seed", [(5, 5, 1), (7, 7, 2)])
def test_generic_generator_makes_unique_minimal_puzzles(rows, cols, seed):
    from satgrid.generators import GENERATORS

    puzzle = GENERATORS["yajilin"](rows, cols, random.Random(seed))
    assert (puzzle.rows, puzzle.cols) == (rows, cols) and puzzle.clues()
    result = api.solve(puzzle, audit=True)
    assert result.status == "unique" and result.minimal is True
    assert GENERATORS["yajilin"](rows, cols, random.Random(seed)) == puzzle


# -- formats: puzz.link and pzprv3, checked by the puz.link engine ------------------------------------




def known_puzzles() -> list[tuple[yj.YajilinPuzzle, yj.Solution]]:
    found = []
    for puzzle in api.load([str(ROOT / "satgrid" / "data" / "yajilin.txt")]):
        found.append((puzzle, puzzle.given_solution.solution))
    if PUZZLEKIT.exists():
        found += [(p, p.given_solution.solution) for p in api.load([str(PUZZLEKIT)])]
    return found


def qnums(puzzle: yj.YajilinPuzzle) -> list[int]:
    return [-1 if v is None else -2 if v[1] is None else v[1] for row in puzzle.grid for v in row]


def test_pzpr_accepts_every_answer_and_reads_every_url():
    puzzles = known_puzzles()
    broken = []
    for puzzle, (shading, h, v) in puzzles:
        flipped = [list(row) for row in v]
        flipped[-1][-1] ^= 1
        broken.append(pzprv3.write(puzzle, (shading, h, tuple(map(tuple, flipped)))))
    reports = run_pzpr([puzzlink.encode(p) for p, _ in puzzles] + [pzprv3.write(p, s) for p, s in puzzles] + broken)
    n = len(puzzles)
    for (puzzle, solution), on_url, on_file, on_broken in zip(puzzles, reports[:n], reports[n:2 * n], reports[2 * n:]):
        assert (on_url["pid"], on_url["rows"], on_url["cols"], on_url["clues"]) == ("yajirin", puzzle.rows, puzzle.cols, qnums(puzzle))
        assert on_url["url"].split("?")[1] == puzzlink.encode(puzzle).split("?")[1]  # byte for byte
        assert on_file["complete"] is True, (puzzle.name, on_file["text"])
        assert on_broken["complete"] is False
        [again] = api.load_text(on_url["url"])
        assert again.givens == puzzle.givens
        [loaded] = formats.read_with_solutions(on_file["file"])
        assert loaded.puzzle.givens == puzzle.givens and loaded.solution == solution


def test_pzpr_accepts_the_answers_of_generated_puzzles():
    from satgrid.generators import GENERATORS

    puzzles = [GENERATORS["yajilin"](6, 8, random.Random(seed)) for seed in (11, 12)]
    files = [pzprv3.write(p, api.solve(p).solution) for p in puzzles]
    assert all(report["complete"] for report in run_pzpr(files))


def test_url_body_every_form():
    """Each form of pzprjs's arrow-number body, both ways: a direction and a hex digit, the
    direction + 5 and two, '-', the direction and three, '?' as '.', runs of blanks 'a'-'z'."""
    grid = ((("s", 1), None, ("", 20), yj.HOLE), (("", 300), ("e", None), None, None), (None,) * 4)
    puzzle = yj.YajilinPuzzle(grid)
    url = puzzlink.encode(puzzle)
    assert url == "https://puzz.link/p?yajilin/4/3/21a5140.-012c4.f"
    [again] = api.load_text(url)
    assert again.grid == grid
    [alias] = api.load_text(url.replace("yajilin/", "yajirin/b/"))
    assert alias.grid == grid
    report = run_pzpr([url])[0]
    assert report["url"].split("?")[1] == url.split("?")[1] and report["clues"] == qnums(puzzle)
    assert puzzlink.ARROW_NUMBERS.encode([(4, 4095), None, *[None] * 27]) == "-4fffzb"


@pytest.mark.parametrize("text, message, column", [
    ("https://puzz.link/p?yajilin/3/1/41", "the body describes 1 cells", 35),
    ("https://puzz.link/p?yajilin/3/1/41!", "bad character '!'", 35),
    ("https://puzz.link/p?yajilin/3/1/12b", "the arrow at r1c1 points up, off the grid, and says 2", 33),
    ("https://puzz.link/p?yajilin/3/1/a42a", "says 2 shaded cells right, but the cells there hold at most 1", 34),
    ("https://puzz.link/p?yajilin/3/1/-1", "'-1' must be followed by 3 hex digits", 33),
    ("pzprv3\nyajirin\n1\n2\n4,5 . \n", "says 5 shaded cells right", 1),
])
def test_bad_urls_and_files(text, message, column):
    with pytest.raises(ParseError) as info:
        api.load_text(text)
    assert message in info.value.message
    assert info.value.column == column
