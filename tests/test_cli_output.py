"""What the CLI prints and writes (issue 17): streamed reports, worker caps, the progress line,
pzprv3 status lines, given solutions, hints on non-unique puzzles, exports and drawings.
Each item runs ``python -m satgrid`` in a real subprocess."""
from __future__ import annotations

import io
import json
import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest

from satgrid import api
from satgrid.errors import CheckFailed
from satgrid.registry import GENRES

LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
CLARK = "034005000075020100000000875340000009000260340060340000003580090000000003000000000"


def satgrid(*args: str, cwd: Path | None = None, input: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "satgrid", *args], capture_output=True, text=True,
                          cwd=cwd, input=input, timeout=120)


def assert_clean(proc: subprocess.CompletedProcess, code: int, stderr_lines: int | None) -> None:
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stderr
    if stderr_lines is not None:
        assert len(proc.stderr.splitlines()) == stderr_lines, proc.stderr


@pytest.fixture
def three(tmp_path: Path) -> Path:
    path = tmp_path / "three.txt"
    path.write_text(f"{LINE}\n{CLARK}\n{SOLUTION[:-1]}.\n")
    return path


# -- item 19: solve --help, demo --format, encode without --dimacs --------------------------------
def test_unique_comes_first_in_solve_help_and_demo_format_has_help():
    proc = satgrid("solve", "--help")
    assert_clean(proc, 0, 0)
    options = re.findall(r"^  (--[\w-]+)", proc.stdout, re.M)
    assert options[0] == "--unique"
    proc = satgrid("demo", "--help")
    assert_clean(proc, 0, 0)
    assert re.search(r"--format \[text\|json\]\s+\S", proc.stdout)


# -- item 13: solve streams each puzzle's report, --summary the table alone ----------------------
def test_solve_prints_every_solution_then_the_table(three):
    proc = satgrid("solve", str(three), "--unique")
    assert_clean(proc, 0, 0)
    out = proc.stdout
    reports = re.findall(r"^puzzle (\S+) \(sudoku 9x9, \d+ clues\): (\w+)$", out, re.M)
    assert [status for _, status in reports] == ["unique", "multiple", "unique"]
    assert "4 1 7 | 3 6 9 | 8 2 5" in out  # the first solution, drawn
    assert "second solution" in out
    table = out.index("id ")
    assert all(out.index(f"puzzle {name} ") < table for name, _ in reports)
    assert "3 puzzles: 2 unique, 1 multiple" in out

    summary = satgrid("solve", str(three), "--unique", "--summary")
    assert_clean(summary, 0, 0)
    assert "puzzle " not in summary.stdout and "4 1 7 |" not in summary.stdout
    assert summary.stdout.splitlines()[0].startswith("id ")
    assert len(summary.stdout.splitlines()) == 1 + 3 + 1


def test_a_killed_run_keeps_the_reports_already_printed(tmp_path):
    """Streaming: the first puzzle's report is on stdout while the second (a blank 60x60
    Slitherlink with the eager loop rule: seconds of work) still runs."""
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text(LINE + "\n")
    second.write_text("genre: slitherlink\n" + "\n".join(["." * 60] * 60) + "\n")
    proc = subprocess.Popen([sys.executable, "-m", "satgrid", "solve", str(first), str(second),
                             "--unique", "--connectivity", "eager"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().rstrip().endswith("(sudoku 9x9, 17 clues): unique")
        assert proc.poll() is None  # the second puzzle is still being solved
    finally:
        proc.kill()
        proc.wait()


# -- item 10: the worker pool is capped -----------------------------------------------------------
def test_jobs_is_capped_at_tasks_and_cpus(three):
    proc = satgrid("solve", str(three), "--jobs", "500", "--format", "json")
    cpus = len(os.sched_getaffinity(0))
    assert_clean(proc, 0, 2)  # the cap line and the summary line
    cap = re.search(r"--jobs 500 capped at (\d+) \(3 tasks, (\d+) CPUs?\)", proc.stderr)
    assert cap and int(cap.group(1)) == min(3, cpus) and int(cap.group(2)) == cpus
    assert len(proc.stdout.splitlines()) == 3
    quiet = satgrid("solve", str(three), "--jobs", "1", "--format", "json")
    assert "capped" not in quiet.stderr


def test_generate_jobs_is_capped():
    proc = satgrid("generate", "sudoku", "--size", "4x4", "--count", "2", "--jobs", "64", "--seed", "1")
    assert_clean(proc, 0, 1)
    assert re.search(r"--jobs 64 capped at [12] \(2 tasks, \d+ CPUs?\)", proc.stderr)
    assert proc.stdout.count("puzzle ") == 2


def test_workers_helper_caps_and_says_so(capsys):
    from satgrid.cli import _workers

    cpus = len(os.sched_getaffinity(0))
    assert _workers(1, 10) == 1
    assert _workers(500, 3) == min(3, cpus)
    assert "capped" in capsys.readouterr().err


# -- item 15: pzprv3 output says which puzzles are not unique ------------------------------------
def test_pzprv3_unique_reports_the_status_on_stderr(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"{CLARK}\n")
    proc = satgrid("solve", str(path), "--format", "pzprv3", "--unique")
    assert_clean(proc, 0, 1)
    assert proc.stderr.strip().endswith(": multiple")
    assert proc.stdout.startswith("pzprv3")
    assert_clean(satgrid("solve", str(path), "--format", "pzprv3", "--require-unique"), 3, 1)
    path.write_text(f"{LINE}\n")
    assert_clean(satgrid("solve", str(path), "--format", "pzprv3", "--require-unique"), 0, 0)


# -- item 17: the progress line never overwrites a result ----------------------------------------
def _screen(data: str) -> list[str]:
    """The lines a terminal shows for ``data``: carriage return, erase to end of line, newline."""
    lines, row, col = [""], 0, 0
    i = 0
    while i < len(data):
        if data.startswith("\x1b[K", i):
            lines[row] = lines[row][:col]
            i += 3
            continue
        ch = data[i]
        i += 1
        if ch == "\r":
            col = 0
        elif ch == "\n":
            row, col = row + 1, 0
            if row == len(lines):
                lines.append("")
        else:
            line = lines[row].ljust(col)
            lines[row] = line[:col] + ch + line[col + 1:]
            col += 1
    return lines


def test_progress_line_on_a_shared_terminal_leaves_results_whole(three):
    controller, terminal = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "satgrid", "solve", str(three), "--unique"],
                            stdin=subprocess.DEVNULL, stdout=terminal, stderr=terminal)
    os.close(terminal)
    chunks = []
    while True:
        ready, _, _ = select.select([controller], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(controller)
    assert proc.wait(timeout=60) == 0
    data = b"".join(chunks).decode()
    assert "solving 1/3" in data  # the counter was drawn between results
    screen = _screen(data)
    for name, status in (("#1", "unique"), ("#2", "multiple"), ("#3", "unique")):
        line = next(t for t in screen if t.startswith("puzzle") and f": {status}" in t)
        assert re.fullmatch(r"puzzle \S+ \(sudoku 9x9, \d+ clues\): \w+", line.rstrip()), line
    assert not any("solving" in t for t in screen)  # erased at the end
    assert any(t.startswith("3 puzzles:") for t in screen)


def test_progress_helper_erases_its_line_before_each_result():
    from satgrid.cli import Progress

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    stream = Tty()
    progress = Progress("solving", 2, stream)
    with progress.between():
        stream.write("result 1\n")
    with progress.between():
        stream.write("result 2\n")
    progress.clear()
    assert _screen(stream.getvalue()) == ["result 1", "result 2", ""]
    assert "solving 1/2" in stream.getvalue()


# -- item 11: exports ------------------------------------------------------------------------------
def _blocks(*names: str) -> str:
    return "".join(f"puzzle {name}\ngenre: sudoku\ngivens:\n{LINE}\nend\n\n" for name in names)


def test_encode_gives_colliding_ids_files_of_their_own(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(_blocks("a/b", "a_b", "x", "x"))
    proc = satgrid("encode", str(path), "-o", str(tmp_path / "out"))  # no --dimacs: the default
    assert_clean(proc, 0, 0)
    cnfs = sorted(p.name for p in (tmp_path / "out").glob("*.cnf"))
    assert cnfs == ["p-a_b-2.cnf", "p-a_b.cnf", "p-x-2.cnf", "p-x.cnf"]
    assert len(list((tmp_path / "out").glob("*.map.json"))) == 4
    assert len(proc.stdout.splitlines()) == 4
    assert_clean(satgrid("encode", str(path), "--dimacs", "-o", str(tmp_path / "again")), 0, 0)


def test_encode_of_several_puzzles_to_one_cnf_name_is_an_error(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(_blocks("a", "b", "c"))
    proc = satgrid("encode", str(path), "-o", str(tmp_path / "one.cnf"))
    assert_clean(proc, 1, 1)
    assert proc.stderr.startswith(f"satgrid: error: {tmp_path / 'one.cnf'}: 3 puzzles")
    assert not (tmp_path / "one.cnf").exists()
    (tmp_path / "file").write_text("")
    assert_clean(satgrid("encode", str(path), "-o", str(tmp_path / "file")), 1, 1)


def test_exported_and_converted_files_get_the_umask_mode(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(LINE + "\n")
    script = ("import os, sys; os.umask(int(sys.argv[1], 8)); from satgrid.cli import main; "
              "main(sys.argv[2:])")
    for umask, mode in (("022", 0o644), ("077", 0o600)):
        out = tmp_path / umask
        for args in (["encode", str(path), "-o", str(out / "p.cnf")],
                     ["convert", str(path), "--to", "svg", "-o", str(out / "p.svg")],
                     ["convert", str(path), "--to", "url", "-o", str(out / "p.url")],
                     ["render", str(path), "-o", str(out / "r.svg")]):
            proc = subprocess.run([sys.executable, "-c", script, umask, *args], capture_output=True,
                                  text=True, timeout=60)
            assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
        files = sorted(out.iterdir())
        assert {p.name for p in files} == {"p.cnf", "p.map.json", "p.svg", "p.url", "r.svg"}
        assert all(p.stat().st_mode & 0o777 == mode for p in files), [oct(p.stat().st_mode) for p in files]


def test_a_killed_write_leaves_no_temporary_file_after_the_next_run(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(LINE + "\n")
    out = tmp_path / "out"
    out.mkdir()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = [out / f".p.cnf.{dead.pid}.abc123.tmp", out / f".p.map.json.{dead.pid}.x.tmp",
             out / f".p.svg.{dead.pid}.y.tmp"]
    for file in stale:
        file.write_text("half a file")
    live = out / f".p.cnf.{os.getpid()}.zz.tmp"  # a write in progress: left alone
    live.write_text("being written")
    assert_clean(satgrid("encode", str(path), "-o", str(out / "p.cnf")), 0, 0)
    assert_clean(satgrid("convert", str(path), "--to", "svg", "-o", str(out / "p.svg")), 0, 1)
    assert not any(file.exists() for file in stale)
    assert live.exists()
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == [
        "p.cnf", "p.map.json", "p.svg"]


# -- item 16: hint on a puzzle with several solutions ------------------------------------------
def test_hint_on_a_non_unique_puzzle_says_so_and_gives_a_forced_fact(tmp_path):
    path = tmp_path / "clark.txt"
    path.write_text(CLARK + "\n")
    proc = satgrid("hint", str(path))
    assert_clean(proc, 0, 0)
    assert proc.stdout.startswith("the puzzle is not unique")
    assert "no fact is forced" not in proc.stdout
    answer = json.loads(satgrid("hint", str(path), "--format", "json").stdout)
    assert answer["status"] == "multiple" and answer["forced"] >= 1
    _, r, c, d = answer["key"]
    assert answer["value"] is True
    # forced: every other digit in that cell leaves the puzzle without a solution
    [puzzle] = api.load([str(path)])
    assert puzzle.givens[r][c] is None
    for other in set(range(1, 10)) - {d}:
        changed = puzzle.with_clues({**puzzle.clues(), (r, c): other})
        assert api.solve(changed).status == "unsatisfiable"


def test_hint_on_a_puzzle_with_nothing_forced(tmp_path):
    path = tmp_path / "blank.txt"
    path.write_text("genre: slitherlink\n....\n....\n....\n")
    proc = satgrid("hint", str(path))
    assert_clean(proc, 0, 0)
    assert proc.stdout.startswith("the puzzle is not unique") and "no undecided fact" in proc.stdout


# -- item 4: a solution block in the input is compared with the solution found -------------------
ISLANDS = ". 1 . . .\n. . . . 2\n. . . . .\n3 . . . .\n. . . 2 .\n"
ISLANDS_SOLUTION = "#.###\n###..\n#.###\n..#.#\n###.#\n"


def _block(name: str, genre: str, givens: str, solution: str) -> str:
    return f"puzzle {name}\ngenre: {genre}\ngivens:\n{givens}solution:\n{solution}end\n\n"


def _grid(rows) -> str:
    return "".join(" ".join(map(str, row)) + "\n" for row in rows)


def test_given_solutions_match_in_every_genre_and_render_format(tmp_path):
    path = tmp_path / "p.txt"
    loop = api.load([str(Path(__file__).parents[1] / "satgrid" / "data" / "slitherlink.txt")])[0]
    loop_text = GENRES["slitherlink"].render(loop) + "\n"
    loop_solution = api.solve(loop).solution
    sudoku = api.solve(api.load_text(LINE)[0])
    path.write_text(
        _block("s", "sudoku", LINE + "\n", GENRES["sudoku"].render(sudoku.puzzle, sudoku.solution) + "\n")
        + _block("s-line", "sudoku", LINE + "\n", SOLUTION + "\n")
        + _block("n", "nurikabe", ISLANDS, ISLANDS_SOLUTION)
        + _block("n-render", "nurikabe", ISLANDS, "# 1 # # #\n# # # . 2\n# . # # #\n3 . # . #\n# # # 2 #\n")
        + _block("l", "slitherlink", loop_text, GENRES["slitherlink"].render(loop, loop_solution) + "\n"))
    proc = satgrid("solve", str(path), "--format", "json", "--require-unique")
    assert_clean(proc, 0, 1)  # the summary line
    assert [json.loads(t)["given_solution"] for t in proc.stdout.splitlines()] == ["matches"] * 5
    assert_clean(satgrid("solve", str(path), "--summary"), 0, 0)  # no warning


def test_invalid_given_solutions_are_warnings_not_errors(tmp_path):
    path = tmp_path / "p.txt"
    unreadable = ISLANDS_SOLUTION.replace("#.###\n..#", "#.#x#\n..#", 1)
    broken = ISLANDS_SOLUTION.replace("#.###\n..#", "#####\n..#", 1)  # a 2x2 black block
    short = SOLUTION[:-1] + ".\n"
    path.write_text(_block("unreadable", "nurikabe", ISLANDS, unreadable)
                    + _block("broken", "nurikabe", ISLANDS, broken)
                    + _block("short", "sudoku", LINE + "\n", short))
    proc = satgrid("solve", str(path), "--unique")
    assert_clean(proc, 0, 3)
    lines = proc.stderr.splitlines()
    assert lines[0].startswith(f"satgrid: warning: unreadable: given solution invalid: {path}:")
    assert "'x' is not a solution cell for r3c4" in lines[0]
    assert lines[1].startswith("satgrid: warning: broken: given solution invalid: ")
    assert "breaks a rule: 2x2 black block" in lines[1]
    assert "short: given solution invalid: " in lines[2] and "leaves r9c9 blank" in lines[2]
    assert proc.stdout.count(": unique") == 3  # every puzzle still solved and reported
    out = satgrid("solve", str(path), "--format", "json", "--require-unique")
    assert_clean(out, 0, 1)  # "invalid" alone does not fail --require-unique
    records = [json.loads(t) for t in out.stdout.splitlines()]
    assert [r["given_solution"] for r in records] == ["invalid"] * 3
    assert all(r["given_note"] for r in records)


def test_a_given_solution_that_differs_fails_require_unique(tmp_path):
    found = api.solve(api.load_text(CLARK)[0], unique=True)
    assert found.status == "multiple"
    path = tmp_path / "p.txt"
    path.write_text(_block("clark", "sudoku", CLARK + "\n", _grid(found.second_solution)))
    proc = satgrid("solve", str(path))
    assert_clean(proc, 0, 1)
    assert proc.stderr.startswith("satgrid: warning: clark: given solution differs: the given "
                                  "solution differs from the one found in ")
    out = satgrid("solve", str(path), "--format", "json", "--require-unique")
    assert_clean(out, 3, 0)
    record = json.loads(out.stdout)
    assert record["given_solution"] == "differs" and "not unique" in record["given_note"]
    assert record["solution"] != [list(row) for row in found.second_solution]


def test_given_solution_without_a_solution_found(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(_block("s", "sudoku", LINE + "\n", SOLUTION + "\n"))
    out = satgrid("solve", str(path), "--format", "json", "--time-limit", "0")
    assert_clean(out, 0, 0)
    assert json.loads(out.stdout)["given_solution"] == "unchecked"
    # an "unsatisfiable" answer against a given solution that passes the checker is a bug
    [puzzle] = api.load([str(path)])
    with pytest.raises(CheckFailed, match="given solution passes the rule checker"):
        api._compare_given(api.Result(puzzle, "unsatisfiable", "test"))


# -- item 18: drawings have a title and legend, text second solutions name their differences -----
def _svg(path: Path):
    import xml.etree.ElementTree as ET

    root = ET.parse(path).getroot()
    texts = {cls: [e.text for e in root.iter("{http://www.w3.org/2000/svg}text") if e.get("class") == cls]
             for cls in ("title", "legend")}
    return root, texts


def test_rendered_audit_has_id_status_and_legend(tmp_path):
    proc = satgrid("render", str(Path(__file__).parents[1] / "satgrid" / "data" / "nurikabe.txt"),
                   "--audit", "-o", str(tmp_path / "n.svg"))
    assert_clean(proc, 0, 3)  # "wrote ..." for each of the three puzzles
    _, texts = _svg(tmp_path / "n-3.svg")
    assert texts["title"] == ["n3 (nurikabe 5x5): unique, 3 redundant clues"]
    assert texts["legend"] == ["yellow = redundant clue"]
    _, texts = _svg(tmp_path / "n-1.svg")
    assert texts["title"] == ["n1 (nurikabe 5x5): unique, no redundant clue (minimal)"]


def test_rendered_second_solution_and_conversion_are_titled_and_readable(tmp_path):
    path = tmp_path / "clark.txt"
    path.write_text(f"puzzle clark\ngenre: sudoku\ngivens:\n{CLARK}\nend\n")
    assert_clean(satgrid("render", str(path), "--solution", "-o", str(tmp_path / "c.svg")), 0, 1)
    root, texts = _svg(tmp_path / "c.svg")
    assert texts["title"] == ["clark (sudoku 9x9): multiple"]
    assert texts["legend"] == ["red = cells that differ"]
    assert float(root.get("width")) / (2 * 9) >= 32 and float(root.get("height")) / 9 >= 32
    assert_clean(satgrid("convert", str(path), "--to", "svg", "-o", str(tmp_path / "p.svg")), 0, 1)
    root, texts = _svg(tmp_path / "p.svg")
    assert texts["title"] == ["clark (sudoku 9x9)"] and texts["legend"] == []
    assert float(root.get("width")) / 9 >= 32


def test_text_second_solution_names_the_differences(tmp_path):
    path = tmp_path / "clark.txt"
    path.write_text(CLARK + "\n")
    proc = satgrid("solve", str(path), "--unique")
    assert_clean(proc, 0, 0)
    rows = [re.findall(r"\d", t) for t in proc.stdout.splitlines() if re.fullmatch(r"[\d |]+", t)]
    first, second = rows[:9], rows[9:18]
    cells = [f"r{r + 1}c{c + 1}" for r in range(9) for c in range(9) if first[r][c] != second[r][c]]
    assert cells and f"second solution ({len(cells)} differences: {', '.join(cells)}):" in proc.stdout
    loop = tmp_path / "loop.txt"
    loop.write_text("genre: slitherlink\n3.\n..\n")
    proc = satgrid("solve", str(loop), "--unique")
    assert_clean(proc, 0, 0)
    named = re.search(r"second solution \((\d+) differences: (.*)\):", proc.stdout)
    assert named and len(named.group(2).split(", ")) == int(named.group(1))
    assert all(re.fullmatch(r"r[12]c[12] (top|bottom|left|right)", name)
               for name in named.group(2).split(", "))


def test_an_unreadable_slitherlink_drawing_is_an_invalid_given_solution(tmp_path):
    loop = api.load([str(Path(__file__).parents[1] / "satgrid" / "data" / "slitherlink.txt")])[0]
    drawing = GENRES["slitherlink"].render(loop, api.solve(loop).solution).splitlines()
    drawing[2] = "?" + drawing[2][1:]  # a dot that is not '+'
    path = tmp_path / "p.txt"
    path.write_text(_block("l", "slitherlink", GENRES["slitherlink"].render(loop) + "\n",
                           "\n".join(drawing) + "\n"))
    proc = satgrid("solve", str(path))
    assert_clean(proc, 0, 1)
    n = 3 + loop.rows + 1 + 3  # three header lines, the givens, 'solution:', the third line
    assert proc.stderr.strip() == (f"satgrid: warning: l: given solution invalid: {path}:{n}:1: "
                                   "expected the dot '+', found '?'")


def test_a_name_with_control_characters_draws_well_formed_svg(tmp_path):
    """A block name may hold any character but a line break; drawn in a caption it must not
    make the SVG unreadable (a control character is not allowed in XML, escaped or not)."""
    from xml.etree import ElementTree

    path = tmp_path / "odd.txt"
    path.write_text("puzzle a\x1bb\x07c\ngenre: sudoku\ngivens:\n" + "\n".join(
        ["1 . . .", ". . 3 .", ". 4 . .", ". . . 2"]) + "\nend\n")
    out = tmp_path / "odd.svg"
    proc = subprocess.run([sys.executable, "-m", "satgrid", "render", str(path), "--solution", "-o", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    root = ElementTree.fromstring(out.read_text())
    assert any("a\ufffdb" in (t.text or "") for t in root.iter("{http://www.w3.org/2000/svg}text"))


def test_text_output_shows_a_names_control_characters_as_replacement(tmp_path):
    """A name with an escape character must not reach the terminal as a control sequence."""
    path = tmp_path / "esc.txt"
    path.write_text("puzzle a\x1b[31mb\ngenre: sudoku\ngivens:\n1 . . .\n. . 3 .\n. 4 . .\n. . . 2\nend\n")
    proc = subprocess.run([sys.executable, "-m", "satgrid", "solve", str(path)], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "\x1b" not in proc.stdout and "puzzle a\ufffd[31mb " in proc.stdout
    as_json = subprocess.run([sys.executable, "-m", "satgrid", "solve", str(path), "--format", "json"],
                             capture_output=True, text=True, timeout=120)
    assert json.loads(as_json.stdout)["id"] == "a\x1b[31mb"  # JSON keeps the name (escaped)
