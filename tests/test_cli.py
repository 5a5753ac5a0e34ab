"""The command line: JSON contract, exit codes, one-line errors, exports, a real subprocess."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from pysat.formula import CNF

from satgrid.cli import main

LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
CLARK = "034005000075020100000000875340000009000260340060340000003580090000000003000000000"


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


@pytest.fixture
def puzzles(tmp_path: Path) -> Path:
    path = tmp_path / "two.txt"
    path.write_text(f"{LINE}\n{CLARK}\n")
    return path


def test_solve_json_contract(puzzles):
    result = run("solve", str(puzzles), "--unique", "--format", "json")
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    first, second = lines
    assert first["status"] == "unique" and second["status"] == "multiple"
    assert "".join(str(d) for row in first["solution"] for d in row) == SOLUTION
    assert second["second_solution"] != second["solution"]
    for obj in lines:
        assert {"id", "genre", "rows", "cols", "status", "solution", "solver", "stats"} <= obj.keys()
        assert set(obj["stats"]) == {"time_s", "sat_calls", "cegar_iterations", "cuts"}
        assert obj["genre"] == "sudoku" and obj["rows"] == obj["cols"] == 9


def test_audit_reports_redundant_clues_and_minimal_set(tmp_path):
    # the 17-clue puzzle plus one extra given from its solution: that given is redundant
    extra = LINE[:1] + SOLUTION[1] + LINE[2:]
    path = tmp_path / "p.txt"
    path.write_text(extra + "\n")
    out = json.loads(run("audit", str(path), "--minimize", "--format", "json").stdout)
    assert out["status"] == "unique"
    assert out["minimal"] is False and [0, 1] in out["redundant_clues"]
    assert len(out["minimal_clues"]) < 18
    text = run("audit", str(path)).stdout
    assert "redundant clues:" in text and "not minimal" in text


def test_require_unique_exit_status(puzzles, tmp_path):
    assert run("solve", str(puzzles), "--require-unique").exit_code == 3
    single = tmp_path / "one.txt"
    single.write_text(LINE + "\n")
    assert run("solve", str(single), "--require-unique").exit_code == 0


def test_stdin_and_table_output(puzzles):
    result = run("solve", "-", "--unique", input=puzzles.read_text())
    assert result.exit_code == 0
    assert "unique" in result.stdout and "multiple" in result.stdout
    assert "2 puzzles: 1 unique, 1 multiple" in result.output


def test_time_limit_gives_unknown_not_a_crash(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(LINE + "\n")
    out = json.loads(run("solve", str(path), "--time-limit", "0", "--format", "json").stdout)
    assert out["status"] == "unknown" and out["solution"] is None


def test_unsatisfiable_is_a_result(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("12..\n..3.\n....\n....\n")  # 4x4: r2c3=3 leaves no value for r1c3/r1c4
    result = run("solve", str(path), "--format", "json", "--genre", "sudoku")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["status"] == "unsatisfiable"


@pytest.mark.parametrize(
    "content,args,message",
    [
        (None, [], "no such file"),
        ("", [], "empty file"),
        (b"\x00\x01binary", [], "binary file"),
        (LINE[:-3] + "\n", [], ":1: a one-line Sudoku needs n*n symbols"),
        ("44" + LINE[2:] + "\n", [], ":1:2: given 4 twice in row 1"),
        (LINE + "\n", ["--genre", "kakuro"], "unknown genre 'kakuro'"),
        (LINE + "\n", ["--solver", "nosuch"], "unknown solver 'nosuch'"),
        (LINE + "\n", ["--solver", "kissat404"], "kissat"),
        (". . .\n. 1 .\n", [], "cannot tell the genre"),
    ],
)
def test_bad_input_is_one_line_and_exit_1(tmp_path, content, args, message):
    path = tmp_path / "bad.txt"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    result = run("solve", str(path), *args)
    assert result.exit_code == 1
    assert result.stdout == ""
    err = result.stderr.strip()
    assert err.count("\n") == 0 and err.startswith("satgrid: error: ")
    assert message in err


def test_encode_writes_dimacs_and_map_atomically(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(LINE + "\n")
    out = tmp_path / "out.cnf"
    result = run("encode", str(path), "--dimacs", "-o", str(out))
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert text.startswith("c satgrid ")
    assert text.count("c satgrid var ") == 729
    sidecar = json.loads((tmp_path / "out.map.json").read_text())
    assert len(sidecar["primary"]) == 729 and sidecar["genre"] == "sudoku"
    cnf = CNF(from_file=str(out))
    assert len(cnf.clauses) == sidecar["clauses"] and cnf.nv == sidecar["variables"]
    # the exported CNF has exactly the one solution
    from pysat.solvers import Solver

    with Solver(bootstrap_with=cnf.clauses) as s:
        assert s.solve()
        model = set(s.get_model())
        true = [sidecar["primary"][str(v)] for v in map(int, sidecar["primary"]) if v in model]
        assert len(true) == 81
        s.add_clause([-v for v in map(int, sidecar["primary"]) if v in model])
        assert not s.solve()
    # deterministic: same input, same bytes
    again = tmp_path / "again.cnf"
    run("encode", str(path), "--dimacs", "-o", str(again))
    assert again.read_bytes() == out.read_bytes()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_encode_defaults_to_cnf_out_and_stdout(tmp_path, monkeypatch):
    path = tmp_path / "puz.txt"
    path.write_text(LINE + "\n")
    monkeypatch.chdir(tmp_path)
    assert run("encode", str(path), "--dimacs").exit_code == 0
    assert (tmp_path / "cnf_out" / "puz.cnf").exists()
    assert (tmp_path / "cnf_out" / "puz.map.json").exists()
    result = run("encode", str(path), "--dimacs", "-o", "-", "--clue-selectors")
    assert "c satgrid selector " in result.stdout and "p cnf " in result.stdout


def test_genres_and_help_list_every_command():
    assert "sudoku" in run("genres").stdout
    help_text = run("--help").stdout
    for command in ("solve", "audit", "encode", "genres", "demo"):
        assert command in help_text


def test_jobs_gives_the_same_results(puzzles):
    one = run("solve", str(puzzles), "--unique", "--format", "json").stdout.splitlines()
    two = run("solve", str(puzzles), "--unique", "--format", "json", "--jobs", "2").stdout.splitlines()
    def essentials(lines):  # a second solution may be any other one; unique answers must agree
        objs = [json.loads(x) for x in lines]
        return [(o["id"], o["status"], o["solution"] if o["status"] == "unique" else None) for o in objs]

    assert essentials(one) == essentials(two)
    assert [json.loads(x)["status"] for x in two] == ["unique", "multiple"]


def test_real_subprocess_python_m_satgrid(puzzles):
    env = dict(os.environ)
    proc = subprocess.run([sys.executable, "-m", "satgrid", "solve", str(puzzles), "--unique"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "unique" in proc.stdout and "Traceback" not in proc.stderr
    bad = subprocess.run([sys.executable, "-m", "satgrid", "solve", str(puzzles) + ".missing"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    assert bad.stderr.startswith("satgrid: error: ")


def test_demo_runs_on_bundled_examples():
    result = run("demo")
    assert result.exit_code == 0
    assert "unique" in result.stdout


def test_audit_grades_unless_told_not_to(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(LINE + "\n")
    graded = json.loads(run("audit", str(path), "--format", "json").stdout)
    assert graded["grade"] in (0, 1, 2)
    plain = json.loads(run("audit", str(path), "--no-grade", "--format", "json").stdout)
    assert "grade" not in plain and plain["minimal"] is True


def test_the_genres_own_options_and_help_lists_come_from_the_registry():
    """A genre's OPTIONS are flags of the commands they name; an option of one genre given to
    another's generator is bad usage naming its owner; help texts list genres by their parts."""
    from satgrid.genre_options import INPUT, Option
    from satgrid.registry import GENRES

    declared = {}
    for name, genre in GENRES.items():
        for option in genre.part("OPTIONS", ()):
            assert isinstance(option, Option) and option.help and option.commands
            assert set(option.commands) <= {*INPUT, "generate"}
            declared.setdefault(option.flag, set()).add(name)
            for command in option.commands:
                assert option.flag in run(command, "--help").stdout, (option.flag, command)
    assert declared, "some genre declares an option"
    for flag, owners in declared.items():
        if not any("generate" in o.commands for g in owners for o in GENRES[g].part("OPTIONS", ())
                   if o.flag == flag):
            continue
        stranger = next((n for n in GENRES if n not in owners), None)
        if stranger is not None:
            switch = any(o.switch for g in owners for o in GENRES[g].part("OPTIONS", ()) if o.flag == flag)
            value = [] if switch else ["1"]  # a switch takes no value
            out = CliRunner().invoke(main, ["generate", stranger, "--size", "4x4", flag, *value])
            assert out.exit_code == 2 and f"{flag} is for " in out.output
            assert all(owner in out.output for owner in owners) and f"not {stranger}" in out.output
    hint_help = " ".join(run("hint", "--help").stdout.split())
    for name, genre in GENRES.items():
        assert (f"{name}:" in hint_help) == (genre.part("STATE") is not None)
