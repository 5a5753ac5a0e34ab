"""A second user's pass: exports, formats, batch and the library (encodings/diagnostics.md, "A
second user's pass: exports, formats, batch and the library"). Each test here failed before its
fix."""
from __future__ import annotations

from pathlib import Path

from .test_user_pass import one_line_error, run

#: A Star Battle pzprv3 and puzz.link can hold, then one with a blocked cell, which they cannot.
STARS_THEN_BLOCKED = """puzzle ok
genre: starbattle
stars: 1
givens:
1 2 2 2 2
1 3 2 2 2
4 3 3 3 2
4 4 5 3 3
4 5 5 5 5
end

puzzle blocked
genre: starbattle
stars: 1
givens:
1 1 2 2
1 # 2 2
3 3 4 4
3 3 4 4
end
"""


def test_a_puzzle_pzprv3_cannot_hold_writes_nothing(tmp_path: Path) -> None:
    """``solve --format pzprv3`` wrote the answers of the puzzles before an unrepresentable one,
    then the error: redirected to a file, a partial output. Now nothing, and the line names the
    puzzle's file and line (``convert`` too, which named neither)."""
    source = tmp_path / "stars.txt"
    source.write_text(STARS_THEN_BLOCKED)
    result = run("solve", str(source), "--format", "pzprv3")
    one_line_error(result, f"{source}:12", "no blocked cells")
    assert result.stdout == ""
    for target in ("pzprv3", "url"):
        result = run("convert", str(source), "--to", target, "--solution")
        one_line_error(result, f"{source}:12", "no blocked cells")
        assert result.stdout == ""
    assert run("solve", str(source), "--format", "text").exit_code == 0


#: A 5x5 Nurikabe (FORMATS.md's test vector) with a unique solution.
ISLANDS = "genre: nurikabe\n. 5 . . .\n. . 2 . .\n. . . . .\n. . 1 . .\n. . . 3 .\n"


def test_decode_words_a_binary_model_and_selectors_left_off(tmp_path: Path) -> None:
    """``decode`` of a binary model file said "not a puzzle text"; a model of a clue-selector
    export solved without the selectors' units was refused without saying that its clues were
    off; a lazy model breaking two rules ran their names together with commas."""
    from pysat.solvers import Solver

    puzzle = tmp_path / "islands.txt"
    puzzle.write_text(ISLANDS)
    binary = tmp_path / "model.bin"
    binary.write_bytes(b"s SATISFIABLE\nv 1 \x00\x01\x02 0\n")
    one_line_error(run("decode", str(puzzle), str(binary)), f"{binary}:2", "not a model text")

    cnf = tmp_path / "selectors.cnf"
    assert run("encode", str(puzzle), "-o", str(cnf), "--clue-selectors").exit_code == 0
    from pysat.formula import CNF
    with Solver(name="cadical153", bootstrap_with=CNF(from_file=str(cnf)).clauses) as solver:
        # every clue off: the island sizes are free, and the 1 at r4c3 alone as a 5-island
        assert solver.solve()
        while True:
            model = solver.get_model()
            (tmp_path / "m.txt").write_text("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
            result = run("decode", str(puzzle), str(tmp_path / "m.txt"), "--clue-selectors")
            if result.exit_code:
                break
            solver.add_clause([-lit for lit in model])
    one_line_error(result, "not a solution", "clue selectors off", "a unit clause for every selector")

    lazy = tmp_path / "lazy.cnf"
    assert run("encode", str(puzzle), "-o", str(lazy), "--connectivity", "lazy").exit_code == 0
    with Solver(name="cadical153", bootstrap_with=CNF(from_file=str(lazy)).clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            (tmp_path / "m.txt").write_text("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
            result = run("decode", str(puzzle), str(tmp_path / "m.txt"), "--connectivity", "lazy")
            if "rules" in result.stderr:
                break
            solver.add_clause([-lit for lit in model])
    one_line_error(result, 'breaks the rules "', '" and "', ", which a lazy export leaves out")


def test_an_external_solvers_garbage_is_quoted_printable(tmp_path: Path) -> None:
    """A binary printing terminal escapes and bytes (not a SAT solver at all) was quoted raw in
    the error line: an escape cleared the user's screen. Now each unprintable character is
    U+FFFD, and the error is still one line."""
    liar = tmp_path / "garbage.sh"
    liar.write_text("#!/bin/sh\nprintf 'c hello\\033[2J\\033[31m red \\001\\002 done\\r\\n'\n")
    liar.chmod(0o755)
    puzzle = tmp_path / "islands.txt"
    puzzle.write_text(ISLANDS)
    result = run("solve", str(puzzle), "--solver", f"external:{liar}")
    one_line_error(result, "no result line", "it said: c hello\ufffd[2J\ufffd[31m red \ufffd\ufffd done")
    assert not any(ch in result.stderr for ch in "\x1b\x01\x02\r")


def test_fillomino_differences_name_the_sizes_the_solutions_show() -> None:
    """Sizes above the largest given were worded "above 2" in both solutions of a difference
    (the one-hot value stops at the cap; the size is in binary digits beside it): now the size."""
    import json

    text = "genre: fillomino\n. . . .\n. 2 . .\n. . . .\n. . . 1\n"
    result = run("ambiguity", "-", "--count-solutions", "3", "--format", "json", input=text)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    first, second = report["solution"], report["second_solution"]
    assert report["differences"]
    for d in report["differences"]:
        r, c = d["part"]
        assert (d["first"], d["second"]) == (f"{d['name']} is {first[r][c]}", f"{d['name']} is {second[r][c]}")
    assert "above" not in run("ambiguity", "-", "--count-solutions", "3", input=text).stdout


def test_a_sudoku_hint_state_with_a_repeated_digit_is_not_called_a_given(tmp_path: Path) -> None:
    """``hint --state`` read the player's digits as a puzzle and refused a repeat as "given 1
    twice": the digits are the state's, not givens."""
    puzzle = tmp_path / "s.txt"
    puzzle.write_text("genre: sudoku\n1 . . .\n. . . 2\n. . . .\n. . . .\n")
    state = tmp_path / "state.txt"
    state.write_text("1 1 . .\n. . . 2\n. . . .\n. . . .\n")
    result = run("hint", str(puzzle), "--state", str(state))
    one_line_error(result, f"{state}:1:3", "the state has digit 1 twice in row 1 (r1c1 and r1c2)")
    assert "given" not in result.stderr
    # the puzzle's own repeats are still givens
    puzzle.write_text("genre: sudoku\n1 1 . .\n. . . 2\n. . . .\n. . . .\n")
    one_line_error(run("solve", str(puzzle)), "given 1 twice in row 1")


def test_repair_does_not_depend_on_what_ran_before() -> None:
    """``repair`` enumerated solutions and met counterexamples on the process's shared session,
    whose learnt clauses and phases depend on earlier queries: the clues it suggested for a
    puzzle changed after a solve or an ambiguity report of it in the same process. It now works
    on sessions of its own."""
    from satgrid import ambiguity, api, repair

    [puzzle] = [p for p in api.load([str(Path(__file__).parents[1] / "satgrid/data/sudoku.txt")])
                if p.name == "solo-2x3di-1"]
    clues = puzzle.clues()
    holey = puzzle.with_clues({k: v for i, (k, v) in enumerate(sorted(clues.items())) if i % 3})
    before = repair.repair(holey)
    assert before.status == "multiple" and before.found
    api.solve(holey, unique=True)
    api.solve(holey, audit=True)
    ambiguity.report(holey, api.Options(), cap=10)
    after = repair.repair(holey)
    assert (after.added, after.proved, after.over_all) == (before.added, before.proved, before.over_all)


def test_text_of_a_grid_with_a_line_starting_with_a_blocked_cell_reads_back(tmp_path: Path) -> None:
    """``convert --to text`` (and ``repair -o``, the batch store's input) wrote a Star Battle
    whose row starts with a blocked cell ``#`` in the header-and-grid format, which reads such a
    line as a comment: the puzzle read back lost the row ("a 3x4 grid: Star Battle's grid is
    square"). Such a grid is now written in the block format."""
    from satgrid import api, formats

    source = tmp_path / "stars.txt"
    source.write_text("puzzle b\ngenre: starbattle\nstars: 1\ngivens:\n1 1 2 2\n# 1 2 2\n3 3 4 4\n3 3 4 4\nend\n")
    [puzzle] = api.load([str(source)])
    result = run("convert", str(source), "--to", "text")
    assert result.exit_code == 0, result.output
    [back] = api.load_text(result.stdout)
    assert (back.rows, back.cols, back.rooms) == (puzzle.rows, puzzle.cols, puzzle.rooms)
    assert formats.text_of(back) == result.stdout


def test_a_bad_line_in_a_batch_file_of_urls_fails_alone(tmp_path: Path) -> None:
    """A file of puzz.link URLs and game IDs is one task a line, but only while every line was
    one: a single bad line made the whole file one failed task, its good puzzles never run."""
    import sqlite3

    urls = tmp_path / "urls.txt"
    urls.write_text("https://puzz.link/p?slither/5/5/cbcbcddad\nnot a url\n\n"
                    "2x3:5c2e1c4a6_1_6_3a2c6e2c5\nhttps://puzz.link/p?foo/1/1/a\n")
    store = tmp_path / "s.sqlite"
    result = run("batch", "run", "solve", str(urls), "--store", str(store))
    assert result.exit_code == 0, result.output
    with sqlite3.connect(store) as db:
        rows = db.execute("SELECT line, status, message FROM results ORDER BY line").fetchall()
    assert [(line, status) for line, status, _ in rows] == [(1, "solved"), (2, "error"), (4, "solved"),
                                                            (5, "error")]
    assert rows[3][2].startswith(f"{urls}:5:") and "unknown puzz.link puzzle type 'foo'" in rows[3][2]


def test_the_readme_library_snippets_run_as_shown(tmp_path: Path, monkeypatch) -> None:
    """The README's Python blocks, run one after the other on a ``puzzle.txt`` (a bundled
    Nurikabe): the live editor's line removed the clue at ``(0, 0)``, which most puzzles lack
    (SatgridError: the puzzle has no clue at (0, 0))."""
    import contextlib
    import io
    import re

    root = Path(__file__).resolve().parents[1]
    # the blocks at the margin (an indented one in "Adding a genre" is a sketch, not a program)
    blocks = re.findall(r"^```python\n(.*?)^```", (root / "README.md").read_text(), re.S | re.M)
    assert len(blocks) >= 2
    (tmp_path / "puzzle.txt").write_text(ISLANDS)
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile("\n".join(blocks), "README.md", "exec"), {})
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("unique ")
    assert lines[1] == "too small to race"  # a 5x5 is not raced (satgrid.portfolio.RACE_CELLS)
    assert lines[2].startswith("unique exactly 1")
    assert lines[3].startswith("multiple: ")  # a clue removed: several solutions


def test_encode_to_standard_output_takes_one_puzzle(tmp_path: Path) -> None:
    """``encode FILE -o -`` on a file of several puzzles printed their DIMACS texts one after
    another: cadical refused the second header, and minisat read every clause as one formula
    (puzzles sharing variable numbers) and answered UNSATISFIABLE for satisfiable puzzles. Now
    it is an error, and ``--puzzle ID`` picks one puzzle."""
    from pysat.solvers import Solver
    from satgrid import dimacs

    source = Path(__file__).resolve().parents[1] / "satgrid/data/hitori.txt"
    one_line_error(run("encode", str(source), "-o", "-"), "holds 3 puzzles", "--puzzle ID")
    result = run("encode", str(source), "-o", "-", "--puzzle", "s2")
    assert result.exit_code == 0 and result.stdout.count("\np cnf ") == 1
    clauses = [[int(t) for t in line.split()[:-1]] for line in result.stdout.splitlines()
               if line and line[0] not in "cp"]
    with Solver(name="minisat22", bootstrap_with=clauses) as solver:
        assert solver.solve()
        from satgrid import api
        [s2] = [p for p in api.load([str(source)]) if p.name == "s2"]
        decoded = dimacs.decode_model(s2, tuple(solver.get_model()))
        assert decoded.problems == [] and decoded.solution == api.solve(s2).solution
    one_line_error(run("encode", str(source), "--puzzle", "s9", "-o", str(tmp_path)), "no puzzle 's9'")


def test_output_named_as_a_directory_is_refused(tmp_path: Path) -> None:
    """``repair -o out/`` (and ``render``, ``convert``) wrote a file called ``out``: the path
    lost its trailing slash. A name ending in ``/``, or an existing directory, is now one line,
    found before the work (``repair`` printed its report first)."""
    puzzle = tmp_path / "amb.txt"
    puzzle.write_text("genre: sudoku\n1 2 . .\n. . 1 2\n. 1 . .\n. . . 1\n")
    folder = tmp_path / "out"
    for args in (["repair", str(puzzle)], ["render", str(puzzle)], ["convert", str(puzzle), "--to", "url"]):
        result = run(*args, "-o", f"{folder}/")
        one_line_error(result, f"{folder}/: a directory")
        assert result.stdout == "" and not folder.exists()
    folder.mkdir()
    one_line_error(run("render", str(puzzle), "-o", str(folder)), f"{folder}: a directory")
    assert run("render", str(puzzle), "-o", str(folder / "a.svg")).exit_code == 0


def test_encode_one_puzzle_into_a_new_directory(tmp_path: Path) -> None:
    """``encode FILE -o out/`` with one puzzle wrote a file named ``out`` (and ``out.map.json``):
    the trailing slash was lost. It now makes the directory and writes ``out/FILE.cnf`` into it,
    as it does for several puzzles."""
    puzzle = tmp_path / "islands.txt"
    puzzle.write_text(ISLANDS)
    folder = tmp_path / "out"
    result = run("encode", str(puzzle), "-o", f"{folder}/")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in folder.iterdir()) == ["islands.cnf", "islands.map.json"]


def test_grade_text_gives_a_notes_whole_sentence(tmp_path: Path) -> None:
    """``grade``'s table put a puzzle's note in the 22-character method column, cut to
    "propagation finds the"; the JSON had the whole note and method null. Now the column says
    "-" and the note follows the table whole."""
    import json

    puzzle = tmp_path / "none.txt"
    puzzle.write_text("genre: nurikabe\n1 1 .\n. . .\n. . .\n")
    [note] = [json.loads(run("grade", str(puzzle), "--format", "json").stdout)["note"]]
    text = run("grade", str(puzzle)).stdout.splitlines()
    assert text[1].split()[5:7] == ["-", "-"]
    assert text[2] == f"note: {puzzle}:2: {note}" and note.endswith("(no solution)")


def test_an_output_that_cannot_be_written_is_found_before_the_work(tmp_path: Path) -> None:
    """``repair -o FILE`` into a place no file can be made (a parent that is a file) printed its
    report, then failed ("cannot write: File exists"); ``render`` of several puzzles failing at
    ``out-2.svg`` (a directory of that name) left ``out-1.svg`` behind. Both are now one line
    before the work, and nothing is written."""
    puzzle = tmp_path / "amb.txt"
    puzzle.write_text("genre: sudoku\n1 2 . .\n. . 1 2\n. 1 . .\n. . . 1\n")
    (tmp_path / "afile").write_text("")
    for args in (["repair", str(puzzle)], ["render", str(puzzle)], ["convert", str(puzzle), "--to", "url"]):
        result = run(*args, "-o", str(tmp_path / "afile" / "out.txt"))
        one_line_error(result, f"{tmp_path / 'afile' / 'out.txt'}: cannot write", "is not a directory")
        assert result.stdout == ""
    several = Path(__file__).resolve().parents[1] / "satgrid/data/hitori.txt"  # 3 puzzles
    (tmp_path / "out-2.svg").mkdir()
    result = run("render", str(several), "-o", str(tmp_path / "out.svg"), "--solution")
    one_line_error(result, f"{tmp_path / 'out-2.svg'}: cannot write: a directory")
    assert not (tmp_path / "out-1.svg").exists()
    (tmp_path / "out-2.svg").rmdir()
    assert run("render", str(several), "-o", str(tmp_path / "out.svg")).exit_code == 0
    assert all((tmp_path / f"out-{i}.svg").is_file() for i in (1, 2, 3))
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_batch_line_that_is_no_puzzle_says_what_is_wrong_with_it(tmp_path: Path) -> None:
    """A ``{"url": 5}`` line of a ``.jsonl`` file was "not an ipuz Sudoku (kind None)", and a
    line of a URL file that is no URL was read as a one-line puzzle ("cannot tell the genre"):
    each now says what is wrong with the line, at its file:line."""
    import sqlite3

    jsonl = tmp_path / "list.jsonl"
    result = run("solve", "-", "--format", "json", input=ISLANDS).stdout.strip()  # a "puzzle" grid
    jsonl.write_text('{"url": "https://puzz.link/p?slither/5/5/cbcbcddad"}\n{"url": 5}\n{"puzzle": null}\n'
                     + result + "\n")
    urls = tmp_path / "urls.txt"
    urls.write_text("https://puzz.link/p?slither/5/5/cbcbcddad\nnot a url\n")
    store = tmp_path / "s.sqlite"
    for source in (jsonl, urls):
        assert run("batch", "run", "solve", str(source), "--store", str(store)).exit_code == 0
    with sqlite3.connect(store) as db:
        rows = db.execute("SELECT source, line, status, message FROM results ORDER BY source, line").fetchall()
    errors = {(source, line): message for source, line, status, message in rows if status == "error"}
    assert sorted(errors) == [(str(jsonl), 2), (str(jsonl), 3), (str(urls), 2)]
    assert [status for source, line, status, _ in rows if (source, line) == (str(jsonl), 4)] == ["solved"]
    assert errors[str(jsonl), 2] == f"{jsonl}:2: the JSON object's 'url' is 5, not a string " \
                                    "(a puzz.link URL, game ID or one-line puzzle)"
    assert errors[str(jsonl), 3].startswith(f"{jsonl}:3: the JSON object's 'puzzle' is null")
    assert errors[str(urls), 2].startswith(f"{urls}:2: not a puzz.link URL or game ID")


def test_the_connectivity_propagator_runs_on_cadical300(projections) -> None:
    """``--connectivity propagator`` refused cadical300, whose python-sat class has the same
    IPASIR-UP calls as cadical195's (``cadical300_pconn``, ``cadical300_vobserve``, ...). It now
    runs there: the connected sets of a 3x3 grid equal brute force with the propagator doing the
    work (no CEGAR cut), and a small Nurikabe and Slitherlink solve unique to the lazy solution."""
    from satgrid import api
    from satgrid.encoding import Encoding
    from satgrid.session import Session

    from .test_connectivity import brute, masks, no_clue
    from .test_propagator import region

    rule, pool = region(3, 3)
    session = Session(Encoding(pool, [], {}, no_clue, [rule]), "cadical300", connectivity="propagator")
    assert masks(projections(session, list(rule.nodes.values()))) == brute(3, 3)[1]
    assert session.propagator is not None and session.propagator.stats.propagate_calls > 0
    assert session.stats.cegar_iterations == 0
    for text in (ISLANDS, "https://puzz.link/p?slither/5/5/cbcbcddad"):
        [puzzle] = api.load_text(text)
        lazy = api.solve(puzzle, unique=True)
        found = api.solve(puzzle, unique=True, options=api.Options(solver="cadical300", connectivity="propagator"))
        assert found.status == lazy.status == "unique" and found.solution == lazy.solution
    result = run("solve", "-", "--unique", "--connectivity", "propagator", "--solver", "cadical300", input=ISLANDS)
    assert result.exit_code == 0 and "unique" in result.stdout


def test_lingeling_keeps_a_time_limit_between_calls_and_says_so() -> None:
    """``--solver lingeling --time-limit S`` was an error (python-sat's lingeling has neither
    interrupt nor conflict budget). The CEGAR loop's deadline is now kept between SAT calls and
    the result says that one call cannot be interrupted; ``--conflict-limit``, which cannot be
    kept at all, stays an error, one line naming the option."""
    import json

    result = run("solve", "-", "--unique", "--solver", "lingeling", "--time-limit", "30", input=ISLANDS)
    assert result.exit_code == 0, result.output
    assert "note: solver lingeling cannot interrupt a SAT call: the time limit is checked between " \
           "calls only" in result.stdout and "unique" in result.stdout
    report = json.loads(run("solve", "-", "--unique", "--solver", "lingeling", "--time-limit", "30",
                            "--format", "json", input=ISLANDS).stdout)
    assert report["status"] == "unique" and "cannot interrupt" in report["note"]
    assert "note" not in json.loads(run("solve", "-", "--solver", "lingeling", "--format", "json",
                                        input=ISLANDS).stdout)
    one_line_error(run("solve", "-", "--solver", "lingeling", "--conflict-limit", "100", input=ISLANDS),
                   "solver lingeling takes no --conflict-limit")


def _room_layouts(rows: int, cols: int) -> list[str]:
    """Every split of a rows x cols grid into connected rooms, as room-letter grids."""
    import itertools

    import networkx as nx

    cells = [(r, c) for r in range(rows) for c in range(cols)]
    out = []
    for labels in itertools.product(range(len(cells)), repeat=len(cells)):
        if any(labels[i] > max(labels[:i], default=-1) + 1 for i in range(len(cells))):
            continue  # each split once: labels in order of first appearance
        rooms = {}
        for p, label in zip(cells, labels):
            rooms.setdefault(label, []).append(p)
        if all(nx.is_connected(nx.grid_2d_graph(rows, cols).subgraph(room)) for room in rooms.values()):
            out.append("\n".join(" ".join("abcdefgh"[labels[r * cols + c]] for c in range(cols))
                                 for r in range(rows)) + "\n")
    return out


def test_degenerate_generator_sizes_say_they_are_too_small() -> None:
    """``generate hitori --size 1x1`` (and Masyu, Yajilin, Norinori, LITS at sizes where no
    unique puzzle exists) gave up after a loop of random draws with words about the draws: now one
    line saying the size is too small, checked here by brute force over every puzzle of the size
    (Hitori's numbers, Norinori's and LITS's room layouts, Masyu's pearls)."""
    import itertools

    from satgrid import api
    from satgrid.errors import SatgridError

    def unique(genre: str, text: str) -> bool:
        try:
            [puzzle] = api.load_text(f"genre: {genre}\n" + text)
        except SatgridError:  # a layout the genre refuses (a Norinori room of one cell)
            return False
        return api.solve(puzzle, unique=True).status == "unique"

    def none_unique(genre: str, texts) -> bool:
        return not any(unique(genre, t) for t in texts)

    assert none_unique("hitori", ["1\n", "1 1\n", "1 2\n", "1\n1\n", "1\n2\n"])
    assert none_unique("norinori", [t for size in ((1, 3), (1, 4), (3, 1), (2, 2)) for t in _room_layouts(*size)])
    assert none_unique("lits", ["a a a\na a a\n", "a a\na a\na a\n"])
    assert none_unique("masyu", [" ".join(p) + "\n" for p in itertools.product(".wb", repeat=2)])
    # 2x2: only the pearl-less puzzle is unique, which the generator (a pearl on every loop cell)
    # cannot make: it says it needs 3x3
    assert [t for t in itertools.product(".wb", repeat=4) if unique("masyu", "{} {}\n{} {}\n".format(*t))] \
        == [tuple("....")]
    for genre, sizes in {"hitori": ("1x1", "1x2", "2x1"), "masyu": ("1x1", "1x5", "4x1"),
                         "yajilin": ("1x1", "1x4", "3x1"), "norinori": ("1x3", "1x4", "4x1", "2x2"),
                         "lits": ("2x3", "3x2")}.items():
        for size in sizes:
            one_line_error(run("generate", genre, "--size", size, "--seed", "1"), f"a {size} ", "is too small")
    for size in ("2x2", "2x5"):
        one_line_error(run("generate", "masyu", "--size", size, "--seed", "1"),
                       f"a {size} grid is too small for the Masyu generator, which needs at least 3x3")
    for genre, size in (("hitori", "1x3"), ("masyu", "3x3"), ("norinori", "1x5"), ("yajilin", "2x2")):
        assert run("generate", genre, "--size", size, "--seed", "1").stdout.startswith("puzzle "), (genre, size)


def test_ambiguity_and_repair_carry_the_between_calls_note() -> None:
    """``ambiguity`` and ``repair`` with ``--solver lingeling --time-limit S`` kept the limit
    between calls as ``solve`` does, but did not say so: now their reports (text and JSON) carry
    the solver's note as ``solve``'s does."""
    import json

    note = "solver lingeling cannot interrupt a SAT call: the time limit is checked between calls only"
    for command in ("ambiguity", "repair"):
        limited = ("--solver", "lingeling", "--time-limit", "30")
        text = run(command, "-", *limited, input=ISLANDS)
        assert text.exit_code == 0, text.output
        assert "unique" in text.stdout and f"note: {note}" in text.stdout, (command, text.stdout)
        report = json.loads(run(command, "-", *limited, "--format", "json", input=ISLANDS).stdout)
        assert report["status"] == "unique" and note in report["note"], (command, report)
        plain = json.loads(run(command, "-", "--solver", "lingeling", "--format", "json", input=ISLANDS).stdout)
        assert "note" not in plain, (command, plain)


def test_several_outputs_are_renamed_only_once_all_are_written(tmp_path: Path, monkeypatch) -> None:
    """``convert --to svg -o OUT`` of several puzzles renamed each temporary file as its write
    ended (the last target first): a rename that failed left later targets replaced and the
    message named the wrong file. Now every temporary file is written before any rename; a failed
    rename removes the temporary files not yet renamed, and the one line says which targets were
    written."""
    import os

    from satgrid import files

    source = tmp_path / "three.txt"
    block = ISLANDS.replace("genre: nurikabe\n", "genre: nurikabe\ngivens:\n")
    source.write_text("".join(f"puzzle p{i}\n{block}end\n\n" for i in range(3)))
    targets = [tmp_path / f"out-{i}.svg" for i in (1, 2, 3)]
    for target in targets:
        target.write_text("old")
    real = os.replace

    def replace(src, dst):
        if Path(dst) == targets[1]:
            raise PermissionError(13, "Permission denied")
        return real(src, dst)

    monkeypatch.setattr(files.os, "replace", replace)
    result = run("convert", str(source), "--to", "svg", "-o", str(tmp_path / "out.svg"))
    one_line_error(result, f"{targets[1]}: cannot write: Permission denied",
                   f"{targets[0]} was written", f"{targets[2]} was not")
    assert [t.read_text() == "old" for t in targets] == [False, True, True]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out-1.svg", "out-2.svg", "out-3.svg", "three.txt"]


def test_a_sudoku_hint_state_keeps_other_messages_as_they_are(tmp_path: Path) -> None:
    """The state's wording was made by rewriting any message that began with "given": a state
    written as a Tatham game ID with a digit out of range said "the state has digit 5 is out of
    range 1..4". Now only a repeated digit is reworded (from its parts, not its message)."""
    puzzle = tmp_path / "s.txt"
    puzzle.write_text("genre: sudoku\n1 . . .\n. . . 2\n. . . .\n. . . .\n")
    state = tmp_path / "state.txt"
    state.write_text("2x2:1c5c2g\n")
    result = run("hint", str(puzzle), "--state", str(state))
    one_line_error(result, "given 5 is out of range 1..4")
    assert "state has digit" not in result.stderr
    state.write_text("2x2:1_1b2c2g\n")  # as a game ID, a repeat is still the state's digit
    one_line_error(run("hint", str(puzzle), "--state", str(state)), "the state has digit 1 twice in row 1")
