"""Hitori: solution sets against brute force (lazy and eager), audits as number removals, the
checker, the 30 puzzlekit puzzles, parsing errors, output, exact DIMACS, the CLI, the codecs
(puz.link body, pzprv3, Tatham's Singles) and the puz.link engine's verdict on the answers."""
from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from satgrid import api, formats
from satgrid.cli import main
from satgrid.errors import ParseError, UnsupportedGenre
from satgrid.genres import hitori as ht
from satgrid.genres.hitori.checker import check_hitori
from satgrid.reader import Record
from satgrid.registry import GENRES

from .helpers import SHARED, dimacs_decoded, engine_solutions, first_report, one, run_pzpr

ROOT = Path(__file__).resolve().parents[1]
MODES = ("lazy", "eager")
PUZZLEKIT = SHARED / "external" / "genres" / "puzzlekit_hitori.txt"


# -- brute force ------------------------------------------------------------------------------------
def brute_force(rows: int, cols: int, numbers: dict) -> set[tuple[str, ...]]:
    """Every shading that obeys the rules, over all 2^(rows*cols) bit masks."""
    n = rows * cols
    full = (1 << n) - 1
    first_col = sum(1 << (r * cols) for r in range(rows))
    last_col = first_col << (cols - 1)

    def spread(s: int) -> int:
        return (s | ((s << 1) & ~first_col) | ((s >> 1) & ~last_col) | (s << cols) | (s >> cols)) & full

    lines = [[r * cols + c for c in range(cols)] for r in range(rows)]
    lines += [[r * cols + c for r in range(rows)] for c in range(cols)]
    index = {r * cols + c: v for (r, c), v in numbers.items()}
    found = set()
    for black in range(1 << n):
        if black & (black << 1) & ~first_col or black & (black << cols):
            continue
        white = full & ~black
        if white:
            region = white & -white
            while (grown := spread(region) & white) != region:
                region = grown
            if region != white:
                continue
        values = [[index[i] for i in line if i in index and not black >> i & 1] for line in lines]
        if any(len(v) != len(set(v)) for v in values):
            continue
        found.add(tuple("".join("#" if black >> (r * cols + c) & 1 else "." for c in range(cols))
                        for r in range(rows)))
    return found


def puzzle_of(rows: int, cols: int, numbers: dict) -> ht.HitoriPuzzle:
    return ht.HitoriPuzzle(tuple(tuple(numbers.get((r, c)) for c in range(cols)) for r in range(rows)), "t")


def satgrid_solutions(puzzle: ht.HitoriPuzzle, connectivity: str = "lazy", limit: int = 2000) -> set:
    return engine_solutions(ht, puzzle, connectivity, limit)


@st.composite
def small_puzzles(draw, max_cells: int = 12, blanks: bool = True):
    rows = draw(st.integers(1, 4))
    cols = draw(st.integers(1, max(1, min(4, max_cells // rows))))
    top = max(rows, cols)
    value = st.one_of(st.none(), st.integers(1, top)) if blanks else st.integers(1, top)
    numbers = {(r, c): draw(value) for r in range(rows) for c in range(cols)}
    return rows, cols, {p: v for p, v in numbers.items() if v is not None}


def status_of(count: int) -> str:
    return {0: "unsatisfiable", 1: "unique"}.get(count, "multiple")


# -- encoding against brute force ---------------------------------------------------------------
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles())
def test_solution_sets_match_brute_force(case):
    rows, cols, numbers = case
    expected = brute_force(rows, cols, numbers)
    puzzle = puzzle_of(rows, cols, numbers)
    for mode in MODES:
        assert satgrid_solutions(puzzle, mode) == expected, mode
        assert api.solve(puzzle, unique=True, options=api.Options(connectivity=mode)).status == status_of(len(expected))


@pytest.mark.parametrize("grid", [
    "1 1 2\n2 1 1\n1 2 1",
    "1 2 1 1\n2 2 1 3\n1 3 3 4\n4 1 2 2",
    "2 2 2 2\n2 2 2 2\n2 2 2 2",
    "1 . 1\n. . .\n1 . 1",
])
def test_named_grids_match_brute_force(grid):
    [puzzle] = api.load_text("hitori\n" + grid + "\n")
    expected = brute_force(puzzle.rows, puzzle.cols, puzzle.numbers())
    for mode in MODES:
        assert satgrid_solutions(puzzle, mode) == expected, mode


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(small_puzzles(blanks=False))
def test_audit_matches_brute_force(case):
    """A number is redundant iff the puzzle without it (its cell blank) stays unique."""
    rows, cols, numbers = case
    assume(len(brute_force(rows, cols, numbers)) == 1)
    puzzle = puzzle_of(rows, cols, numbers)
    expected = sorted(p for p in numbers
                      if len(brute_force(rows, cols, {q: v for q, v in numbers.items() if q != p})) == 1)
    for mode in MODES:
        result = api.solve(puzzle, audit=True, minimize=True, grade=False,
                           options=api.Options(connectivity=mode))
        assert result.status == "unique"
        assert result.redundant_clues == expected
        kept = set(result.minimal_clues)
        assert len(brute_force(rows, cols, {p: numbers[p] for p in kept})) == 1
        for p in kept:
            assert len(brute_force(rows, cols, {q: numbers[q] for q in kept - {p}})) > 1


def test_with_clues_blanks_the_dropped_numbers():
    puzzle = puzzle_of(2, 2, {(0, 0): 1, (0, 1): 1, (1, 1): 2})
    assert puzzle.with_clues({(0, 1): 1}).numbers() == {(0, 1): 1}


# -- the checker ------------------------------------------------------------------------------------
GRID = {(0, 0): 1, (0, 1): 1, (0, 2): 2, (1, 0): 2, (1, 1): 3, (1, 2): 1, (2, 0): 3, (2, 1): 2, (2, 2): 1}


@pytest.mark.parametrize("solution, words", [
    ((".#.", "...", "..#"), ""),
    (("...", "...", "..#"), "number 1 is unshaded 2 times in row 1 (r1c1, r1c2)"),
    ((".#.", "...", "..."), "number 1 is unshaded 2 times in column 3 (r2c3, r3c3)"),
    (("##.", "...", "..#"), "shaded cells r1c1 and r1c2 touch"),
    ((".#.", "#..", "..#"), "the unshaded cells form 2 separate regions (1 at r1c1, 5 at r1c3)"),
    ((".#", "..", ".."), "not 3x3"),
    ((".x.", "...", "..#"), "characters other than"),
])
def test_checker_names_each_broken_rule(solution, words):
    problems = check_hitori(3, 3, GRID, solution)
    assert (problems == []) if not words else any(words in p for p in problems), problems


def test_checker_accepts_exactly_the_brute_force_solutions():
    """On a 3x3 grid every one of the 512 shadings is accepted iff brute force lists it."""
    good = brute_force(3, 3, GRID)
    assert len(good) > 1
    for mask in range(512):
        shading = tuple("".join("#" if mask >> (3 * r + c) & 1 else "." for c in range(3)) for r in range(3))
        assert (check_hitori(3, 3, GRID, shading) == []) == (shading in good)


# -- the puzzlekit puzzles (janko.at, with published solutions) ----------------------------------
def puzzlekit_puzzles() -> list[tuple[ht.HitoriPuzzle, tuple[str, ...]]]:
    """The dataset's blocks: ``problem:`` and ``solution:`` grids after a ``rows cols`` line,
    ``-`` a cell without a number, ``x`` shaded."""
    if not PUZZLEKIT.exists():
        pytest.skip(f"shared data not found at {PUZZLEKIT}")
    out, name, section, grids = [], "", "", {}
    for line in PUZZLEKIT.read_text().splitlines():
        word = line.strip()
        if word.startswith("puzzle "):
            name, section, grids = word.split()[1], "", {"problem:": [], "solution:": []}
        elif word in grids:
            section = word
        elif word == "end":
            rows = [r.split() for r in grids["problem:"][1:]]
            grid = tuple(tuple(None if t == "-" else int(t) for t in row) for row in rows)
            solution = tuple("".join("#" if t == "x" else "." for t in r.split()) for r in grids["solution:"][1:])
            out.append((ht.HitoriPuzzle(grid, name), solution))
        elif word and section:
            grids[section].append(word)
    return out


def test_the_dataset_format_reads_as_the_tiny_reader_does():
    """satgrid reads the dataset's grid text itself (the record's PUZZLEKIT codec)."""
    cases = puzzlekit_puzzles()
    loaded = formats.read_with_solutions(PUZZLEKIT.read_text(), str(PUZZLEKIT))
    assert [(x.puzzle.grid, x.solution) for x in loaded] == [(p.grid, s) for p, s in cases]
    assert [p.name for p in api.load([str(PUZZLEKIT)])] == [p.name for p, _ in cases]


def test_puzzlekit_puzzles_eager():
    for puzzle, solution in puzzlekit_puzzles()[:8]:
        result = api.solve(puzzle, unique=True, options=api.Options(connectivity="eager"))
        assert (result.status, result.solution) == ("unique", solution), puzzle.name
        assert result.stats.cuts == 0


def test_audit_of_a_real_puzzle_keeps_its_solution():
    puzzle, solution = puzzlekit_puzzles()[2]
    result = api.solve(puzzle, audit=True, grade=False)
    assert result.status == "unique" and result.redundant_clues
    for key in result.redundant_clues[:3]:
        smaller = puzzle.with_clues({p: v for p, v in puzzle.numbers().items() if p != key})
        assert (api.solve(smaller, unique=True).status, api.solve(smaller).solution) == ("unique", solution)


def test_bundled_examples_solve_to_their_solutions():
    puzzles = api.load([str(ROOT / "satgrid" / "data" / "hitori.txt")])
    assert [p.name for p in puzzles] == ["s1", "s2", "s3"]
    for puzzle in puzzles:
        result = api.solve(puzzle, unique=True)
        assert result.status == "unique" and result.given_solution == "matches", puzzle.name


# -- parsing ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, where, words", [
    ("hitori\n1 2 1\n2 1\n", "<text>:3", "row has 2 cells"),
    ("hitori\n1 2 1\n2 x 1\n", "<text>:3:3", "token 'x'"),
    ("hitori\n1 2 1\n2 0 1\n", "<text>:3:3", "out of range 1..3"),
    ("hitori\n1 2\n2 12\n", "<text>:3:3", "out of range 1..2"),
    ("puzzle a\ngenre: hitori\ncols: 3\ngivens:\n1 2\n2 1\nend\n", "<text>:1", "cols: 3"),
    ("puzzle a\ngenre: hitori\ngivens:\n1 2\n2 1\nsolution:\n#.\n.x\nend\n", None, None),
])
def test_parse_errors_name_line_and_column(text, where, words):
    if where is None:  # a broken solution section is reported, not fatal
        [puzzle] = api.load_text(text)
        assert puzzle.given_solution.solution is None and "'x'" in puzzle.given_solution.error
        return
    with pytest.raises(ParseError) as caught:
        api.load_text(text)
    message = str(caught.value)
    assert message.startswith(where + ":") and words in message and "\n" not in message


def test_parse_blank_cells_big_numbers_and_several_grids():
    first, second = api.load_text("genre: hitori\n" + " ".join(["12"] + ["."] * 11) + "\n\n1 .\n. 1\n")
    assert first.numbers() == {(0, 0): 12} and (first.rows, first.cols) == (1, 12)
    assert second.numbers() == {(0, 0): 1, (1, 1): 1}


def test_parse_solution_forms():
    text = "puzzle a\ngenre: hitori\ngivens:\n1 1\n1 2\nsolution:\n{}\nend\n"
    for rows in ("#.\n..", "# 1\n1 2", "#+\n++"):
        [puzzle] = api.load_text(text.format(rows))
        assert puzzle.given_solution.solution == ("#.", ".."), rows


# -- output -----------------------------------------------------------------------------------------
def test_render_and_json_round_trip():
    puzzle = puzzle_of(2, 11, {(0, 0): 11, (1, 2): 3})
    solution = ("#" + "." * 10, "." * 11)
    assert ht.render(puzzle, solution).splitlines()[0] == " #" + "  ." * 10
    assert ht.render(puzzle).splitlines()[1] == " .  .  3" + "  ." * 8
    assert ht.puzzle_json(puzzle)[0][:2] == [11, 0]
    assert GENRES["hitori"].differences(puzzle, solution, ("." * 11, "." * 11)) == [(0, 0)]
    [again] = api.load_text("hitori\n" + ht.render(puzzle) + "\n")
    assert again.grid == puzzle.grid
    record = Record("<json>", 1, "x", "hitori")
    assert ht.puzzle_from_json(record, ht.puzzle_json(puzzle)).grid == puzzle.grid
    assert ht.solution_from_json(puzzle, GENRES["hitori"].solution_json(puzzle, solution)) == solution
    with pytest.raises(ValueError):
        ht.solution_from_json(puzzle, ["#"])


# -- DIMACS -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("grid", ["1 1 2\n2 1 1\n1 2 1", "1 2 1 1\n2 . 1 3\n1 3 3 4\n4 1 2 2"])
def test_eager_dimacs_has_exactly_the_solutions(tmp_path, grid):
    from pysat.formula import CNF
    from pysat.solvers import Solver

    from satgrid import dimacs

    [puzzle] = api.load_text("hitori\n" + grid + "\n")
    export = dimacs.build(puzzle, "eager")
    path = tmp_path / "h.cnf"
    path.write_text(export.text)
    cnf = CNF(from_file=str(path))
    shaded = {tuple(key[1:]): int(var) for var, key in export.varmap["primary"].items()}
    found = set()
    with Solver(name="cadical153", bootstrap_with=cnf.clauses) as solver:
        while solver.solve():
            model = set(solver.get_model())
            found.add(tuple("".join("#" if shaded[r, c] in model else "." for c in range(puzzle.cols))
                            for r in range(puzzle.rows)))
            solver.add_clause([-v if v in model else v for v in shaded.values()])
    assert found == brute_force(puzzle.rows, puzzle.cols, puzzle.numbers())


# -- CLI --------------------------------------------------------------------------------------------
H1 = "hitori\n3 3 1 4\n4 3 2 2\n1 3 4 2\n3 4 3 2\n"
H1_SOLUTION = [".#..", "...#", ".#..", "#..#"]



def test_cli_solve_unique_audit_encode_decode(tmp_path):
    path = tmp_path / "h1.txt"
    path.write_text(H1)
    runner = CliRunner()
    out = runner.invoke(main, ["solve", str(path), "--unique", "--format", "json"])
    assert out.exit_code == 0, out.output
    report = first_report(out.output)
    assert report["status"] == "unique" and report["solution"] == H1_SOLUTION
    out = runner.invoke(main, ["audit", str(path), "--format", "json"])
    assert out.exit_code == 0, out.output
    report = first_report(out.output)
    assert report["status"] == "unique" and isinstance(report["redundant_clues"], list)
    assert dimacs_decoded(runner, path, tmp_path)["solution"] == H1_SOLUTION


def test_cli_multiple_shows_a_second_solution(tmp_path):
    path = tmp_path / "m.txt"
    path.write_text("hitori\n1 2\n2 1\n")
    out = CliRunner().invoke(main, ["solve", str(path), "--unique", "--format", "json"])
    report = first_report(out.output)
    assert report["status"] == "multiple" and report["second_solution"] != report["solution"]


def test_cli_bad_input_is_one_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("hitori\n1 2 1\n2 40 1\n")
    out = CliRunner().invoke(main, ["solve", str(path)])
    assert out.exit_code != 0
    assert "bad.txt:3:3" in out.output and "out of range" in out.output and "Traceback" not in out.output


def test_cli_subprocess_with_genre_option(tmp_path):
    path = tmp_path / "h1.txt"
    path.write_text(H1.split("\n", 1)[1])
    done = subprocess.run([sys.executable, "-m", "satgrid", "solve", str(path), "--genre", "hitori", "--unique"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "unique" in done.stdout and "# 4 3 #" in done.stdout


# -- formats: puz.link URLs, pzprv3 files, Singles game IDs -----------------------------------------
def test_url_round_trip_and_pzprjs_forms():
    grid = ((1, None, 12, 35, 36, 40) + (None,) * 34,)
    puzzle = ht.HitoriPuzzle(grid)
    url = formats.write(puzzle, "url").strip()
    assert url == "https://puzz.link/p?hitori/40/1/1.cz-10-14" + "." * 34 + "/"
    assert one(url).puzzle.grid == grid
    # pzprjs reads two digits after '-' (pzpr 0.10.1 wrote '-g' for 16, which it misreads)
    assert one("hitori/21/2/-0g" + "." * 41).puzzle.grid[0][0] == 16
    with pytest.raises(UnsupportedGenre):
        formats.write(ht.HitoriPuzzle(((1296,) + (None,) * 1295,)), "url")


@pytest.mark.parametrize("url, column, words", [
    ("hitori/3/1/12", 14, "describes 2 cells"), ("hitori/3/1/1234", 15, "extra characters"),
    ("hitori/3/1/1%3", 13, "'?' number"), ("hitori/3/1/12-z", 14, "2 base-36 digits"),
    ("hitori/3/1/1!3", 13, "bad character"), ("hitori/3/1/103", 13, "out of range 1..3"),
])
def test_url_errors_name_the_column(url, column, words):
    with pytest.raises(ParseError) as caught:
        formats.read(url, "<t>")
    assert caught.value.column == column and words in str(caught.value), str(caught.value)


def test_pzprv3_round_trip_with_and_without_answer():
    [puzzle] = api.load_text(H1)
    solution = api.solve(puzzle).solution
    text = formats.write(puzzle, "pzprv3", solution)
    assert text.splitlines()[4:6] == ["3 3 1 4 ", "4 3 2 2 "] and text.splitlines()[8] == "+ # + + "
    loaded = one(text)
    assert (loaded.puzzle.grid, loaded.solution) == (puzzle.grid, solution)
    bare = one(formats.write(puzzle, "pzprv3"))
    assert (bare.puzzle.grid, bare.solution) == (puzzle.grid, None)
    with pytest.raises(ParseError) as caught:
        formats.read("pzprv3\nhitori\n1\n2\n1 - \n. . \n", "<t>")
    assert (caught.value.line, caught.value.column) == (5, 3) and "'?' number" in str(caught.value)
    with pytest.raises(ParseError) as caught:
        formats.read("pzprv3\nhitori\n1\n2\n1 2 \n# x \n", "<t>")
    assert (caught.value.line, caught.value.column) == (6, 3) and "not an answer cell" in str(caught.value)


def test_singles_ids_round_trip():
    cells = tuple(range(1, 37)) * 2
    puzzle = ht.HitoriPuzzle((cells[:36], cells[36:]))
    text = formats.write(puzzle, "tatham").strip()
    assert text == "36x2:" + "123456789abcdefghijklmnopqrstuvwxyzA" * 2
    assert one(text).puzzle.grid == puzzle.grid
    assert one("5x5:5343423114413221125325112").puzzle.grid[0] == (5, 3, 4, 3, 4)
    for unwritable in (ht.HitoriPuzzle(((1, None), (2, 1))), ht.HitoriPuzzle(((1,),))):
        with pytest.raises(UnsupportedGenre):
            formats.write(unwritable, "tatham")


@pytest.mark.parametrize("game_id, column, words", [
    ("2x2:121", 8, "has 3 cells"), ("2x2:12121", 9, "goes on after"),
    ("2x2:1231", 7, "'3' is not a Singles number 1..2"), ("70x2:" + "1" * 140, 1, "sides run 2..62"),
])
def test_singles_errors_name_the_column(game_id, column, words):
    with pytest.raises(ParseError) as caught:
        formats.read(game_id, "<t>", "hitori")
    assert caught.value.column == column and words in str(caught.value), str(caught.value)


def test_a_singles_id_of_digits_up_to_4_could_be_loopy():
    with pytest.raises(ParseError) as caught:
        formats.read("2x2:1221", "<t>")
    assert "--genre" in str(caught.value)
    assert one("2x2:1221", "hitori").puzzle.grid == ((1, 2), (2, 1))


SGT_SINGLES = shutil.which("sgt-singles") or shutil.which("sgt-singles", path="/usr/games")


@pytest.mark.skipif(SGT_SINGLES is None, reason="sgt-singles (sgt-puzzles) is not installed")
def test_sgt_singles_puzzles_are_unique():
    """Tatham's generator makes puzzles its solver solves: they read and are unique here."""
    done = subprocess.run([SGT_SINGLES, "--generate", "4", "7x9dk#18"],
                          capture_output=True, text=True, timeout=60)
    ids = done.stdout.split()
    assert len(ids) == 4 and all(i.startswith("7x9:") for i in ids)
    for game_id in ids:
        puzzle = one(game_id).puzzle
        assert (puzzle.rows, puzzle.cols) == (9, 7)
        assert api.solve(puzzle, unique=True).status == "unique"
        assert formats.write(puzzle, "tatham").strip() == game_id


def test_cli_convert_round_trips(tmp_path):
    path = tmp_path / "h1.txt"
    path.write_text(H1)
    runner = CliRunner()
    for to in ("url", "pzprv3", "tatham", "text"):
        out = runner.invoke(main, ["convert", str(path), "--to", to])
        assert out.exit_code == 0, out.output
        back = tmp_path / f"back-{to}.txt"
        back.write_text(out.output)
        again = runner.invoke(main, ["solve", str(back), "--unique", "--format", "json"] +
                              (["--genre", "hitori"] if to == "tatham" else []))
        assert again.exit_code == 0, again.output
        assert first_report(again.output)["solution"] == H1_SOLUTION, to


# -- the puz.link engine ----------------------------------------------------------------------------




def cells_of(puzzle: ht.HitoriPuzzle) -> list:
    return [v for row in puzzle.grid for v in row]


def test_pzpr_reads_the_urls_and_accepts_the_answers():
    cases = puzzlekit_puzzles() + [(p, api.solve(p).solution)
                                   for p in api.load([str(ROOT / "satgrid" / "data" / "hitori.txt")])]
    rng = random.Random(18)
    broken = []
    for puzzle, solution in cases:
        r, c = rng.randrange(puzzle.rows), rng.randrange(puzzle.cols)
        row = solution[r]
        broken.append(solution[:r] + (row[:c] + ("." if row[c] == "#" else "#") + row[c + 1:],) + solution[r + 1:])
    items = ([formats.write(p, "url") for p, _ in cases] + [formats.write(p, "pzprv3", s) for p, s in cases]
             + [formats.write(p, "pzprv3", b) for (p, _), b in zip(cases, broken)])
    reports = run_pzpr(items)
    n = len(cases)
    for (puzzle, solution), url, answer, wrong in zip(cases, reports[:n], reports[n:2 * n], reports[2 * n:]):
        assert url["pid"] == "hitori" and (url["rows"], url["cols"]) == (puzzle.rows, puzzle.cols)
        assert url["clues"] == [-1 if v is None else v for v in cells_of(puzzle)], puzzle.name
        assert answer["complete"], (puzzle.name, answer["text"])
        assert not wrong["complete"], puzzle.name
        # pzpr's own file reads back to the puzzle and answer; its URL too where pzpr 0.10.1
        # writes numbers its decoder reads (it writes 16-35 as '-' and one digit, reads two).
        loaded = one(answer["file"])
        assert (loaded.puzzle.grid, loaded.solution) == (puzzle.grid, solution)
        if all(v is None or v < 16 for v in cells_of(puzzle)):
            assert one(url["url"]).puzzle.grid == puzzle.grid


def test_rules_fit_in_sixty_lines_and_name_their_clauses():
    from satgrid.model import statement_lines

    assert statement_lines(ht.rules) <= 60
    [puzzle] = api.load_text("hitori\n1 1 2\n2 1 1\n1 2 1\n")
    names = {name for name, _, _ in ht.encode(puzzle).spans}
    assert {"shaded cells do not touch", "no number repeats unshaded in a row or column"} <= names


def test_a_copy_of_the_encoding_switches_the_same_numbers():
    """Sessions solve on copies: every clue's selector is the switch the base clauses use,
    repeated numbers or not."""
    [puzzle] = api.load_text("hitori\n1 1 2\n2 3 1\n3 2 1\n")
    encoding = ht.encode(puzzle)
    twin = encoding.copy()
    for key, value in puzzle.clues().items():
        assert twin.encode_clue(key, value).selector == encoding.encode_clue(key, value).selector
        assert twin.encode_clue(key, value).plain() == [[encoding.encode_clue(key, value).selector]]


# -- generation -------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sample_is_a_full_grid_with_a_valid_maximal_shading(seed):
    """SAMPLE's numbers come from a shading that obeys the rules: that shading is a solution."""
    puzzle = ht.SAMPLE(6, 7, random.Random(seed))
    assert (puzzle.rows, puzzle.cols) == (6, 7) and len(puzzle.numbers()) == 42
    assert all(1 <= v <= 7 for v in puzzle.numbers().values())
    assert api.solve(puzzle).status == "solved"
    assert ht.SAMPLE(6, 7, random.Random(seed)) == puzzle


def test_generic_generator_makes_unique_minimal_hitori():
    from satgrid.generators import GENERATORS

    puzzle = GENERATORS["hitori"](6, 6, random.Random(7))
    result = api.solve(puzzle, audit=True, grade=False)
    assert result.status == "unique" and result.minimal is True
    assert GENERATORS["hitori"](6, 6, random.Random(7)) == puzzle


@pytest.mark.parametrize("text, status, solution", ht.SAMPLES)
def test_golden_samples(text, status, solution):
    [puzzle] = api.load_text(text, genre="hitori")
    result = api.solve(puzzle, unique=True)
    assert result.status == status
    if solution is not None:
        assert result.solution == solution


# -- drawing and hints ------------------------------------------------------------------------------
def test_svg_draws_numbers_and_shaded_cells(tmp_path):
    from satgrid import render_svg

    [puzzle] = api.load_text(H1)
    solution = tuple(H1_SOLUTION)
    drawing = render_svg.svg(puzzle, solution)
    assert drawing.count('class="shaded"') == 5 and drawing.count('class="clue"') == 16
    assert drawing.count(f'fill="{render_svg.GREY}" text-anchor') == 5  # numbers on shaded cells
    other = (".#..", "...#", ".#..", "#...")
    assert 'class="shaded diff"' in render_svg.svg(puzzle, solution, other)
    out = CliRunner().invoke(main, ["render", str(ROOT / "satgrid" / "data" / "hitori.txt"), "--solution",
                                    "-o", str(tmp_path / "h.svg")])
    assert out.exit_code == 0, out.output
    assert all((tmp_path / f"h-{i}.svg").read_text().startswith("<svg") for i in (1, 2, 3))


def test_hints_from_the_empty_grid_and_from_a_state(tmp_path):
    from satgrid import grading

    [puzzle] = api.load_text(H1)
    first = grading.hint(puzzle)
    assert first.status == "hint" and first.fact[0][0] == "shaded"
    r, c = first.fact[0][1:]
    assert (H1_SOLUTION[r][c] == "#") == first.fact[1]
    state = grading.read_state(puzzle, "3 # 1 4\n4 3 2 #\n1 ? 4 2\n3 4 3 2\n")
    assert state == {("shaded", 0, 1): True, ("shaded", 1, 3): True}
    wrong = grading.hint(puzzle, grading.read_state(puzzle, "# . ? ?\n? ? ? ?\n? ? ? ?\n? ? ? ?\n"))
    assert wrong.status == "wrong"
    with pytest.raises(ParseError) as caught:
        grading.read_state(puzzle, "3 # 1 4\n4 x 2 #\n1 ? 4 2\n3 4 3 2\n", "s.txt")
    assert str(caught.value).startswith("s.txt:2:3:") and "'x' is not a cell mark" in str(caught.value)
    path, state_path = tmp_path / "h1.txt", tmp_path / "state.txt"
    path.write_text(H1)
    state_path.write_text("3 # 1 4\n4 3 2 #\n1 ? 4 2\n3 4 3 2\n")
    out = CliRunner().invoke(main, ["hint", str(path), "--state", str(state_path)])
    assert out.exit_code == 0 and "unshaded" in out.output, out.output


@pytest.mark.skipif(shutil.which("minisat") is None, reason="minisat is not installed")
@pytest.mark.parametrize("connectivity", MODES)
def test_an_external_solver_finds_the_unique_solution(connectivity):
    [puzzle] = api.load_text(H1)
    result = api.solve(puzzle, unique=True, options=api.Options(solver="external:minisat",
                                                                 connectivity=connectivity))
    assert (result.status, list(result.solution)) == ("unique", H1_SOLUTION)
