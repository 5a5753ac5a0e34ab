"""External SAT binaries (cadical, minisat, picosat, cryptominisat5) through the one CEGAR loop:
same answers as the embedded solver on real puzzles of every genre, exact eager exports checked
externally (one solution for unique puzzles, two for two), and every fault (missing binary, crash,
garbage, wrong assignment, picosat's exit 0 on a parse error, timeout) an error or "unknown",
never a wrong answer. Tests that need a binary skip, naming the Debian package."""
from __future__ import annotations

import itertools
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from pysat.formula import CNF

from satgrid import api, dimacs, external
from satgrid.cli import main
from satgrid.errors import SolverError
from satgrid.external import GRACE_S, PROFILES, ExternalSolver
from satgrid.registry import GENRES
from satgrid.session import Session

from .helpers import running, shared_file, sleeping_binary

ROOT = Path(__file__).resolve().parents[1]
SOLVERS = list(PROFILES)


def needs(binary: str):
    package = PROFILES[binary].package if binary in PROFILES else binary
    return pytest.mark.skipif(
        shutil.which(binary) is None,
        reason=f"{binary} not installed (Debian package {package}; 'make test' as root installs it)")


SOLVER_PARAMS = [pytest.param(s, marks=needs(s), id=s) for s in SOLVERS]

#: Real puzzles per genre (shared data, all unique) and one small puzzle with exactly two solutions.
REAL = {
    "sudoku": (("sudoku", "tatham.txt"), ["solo-2x3di-1", "solo-3x3da-1"]),
    "slitherlink": (("slitherlink", "tatham.txt"), ["loopy-7x7t0de-1"]),
    "nurikabe": (("nurikabe", "jwiki.txt"), ["n1", "n4"]),
}
TWO = {
    "slitherlink": "genre: slitherlink\n3..\n.1.\n0.0\n",
    "nurikabe": "genre: nurikabe\n2 . . .\n. . . .\n. . 3 .\n. . . .\n",
}


def genre_or_skip(name: str) -> None:
    if name not in GENRES:
        pytest.skip(f"genre {name} is not registered in satgrid/registry.py yet")


def real_puzzles(genre: str) -> list:
    genre_or_skip(genre)
    parts, names = REAL[genre]
    puzzles = {p.name: p for p in api.load([str(shared_file(*parts))])}
    return [puzzles[n] for n in names]


def two_solution_puzzle(genre: str):
    """A small puzzle with exactly two solutions, and its solutions by brute force."""
    genre_or_skip(genre)
    if genre == "sudoku":
        return _sudoku_rectangle()
    [puzzle] = api.load_text(TWO[genre])
    if genre == "slitherlink":
        from .test_slitherlink import brute_solutions

        found = set(brute_solutions(puzzle.givens))
        return puzzle, found
    from .test_nurikabe import brute_force

    return puzzle, set(brute_force(puzzle.rows, puzzle.cols, puzzle.clues()))


def _sudoku_rectangle():
    """Tatham's 4x4 solution with the four cells of an a-b/b-a rectangle blanked: two solutions."""
    solution = ((4, 3, 2, 1), (2, 1, 3, 4), (1, 2, 4, 3), (3, 4, 1, 2))
    n = 4
    for r1 in range(n):
        for r2 in range(r1 + 1, n):
            for c1 in range(n):
                for c2 in range(c1 + 1, n):
                    s = solution
                    if s[r1][c1] == s[r2][c2] and s[r1][c2] == s[r2][c1]:
                        holes = {(r1, c1), (r1, c2), (r2, c1), (r2, c2)}
                        text = "\n".join("".join("." if (r, c) in holes else str(s[r][c])
                                                 for c in range(n)) for r in range(n))
                        [puzzle] = api.load_text("genre: sudoku\nbox: 2x2\n" + text + "\n")
                        g = GENRES["sudoku"]
                        found = set()  # brute force: every filling of the holes the checker accepts
                        for values in itertools.product(range(1, n + 1), repeat=4):
                            grid = [list(row) for row in s]
                            for (r, c), d in zip(sorted(holes), values):
                                grid[r][c] = d
                            candidate = tuple(map(tuple, grid))
                            if not g.check(puzzle, candidate):
                                found.add(candidate)
                        return puzzle, found
    raise AssertionError("no rectangle in the 4x4 solution")


# -- same answers as the embedded solver ----------------------------------------------------------
@pytest.mark.parametrize("solver", SOLVER_PARAMS)
@pytest.mark.parametrize("genre", list(REAL))
def test_same_solution_as_embedded(genre, solver):
    for puzzle in real_puzzles(genre):
        reference = api.solve(puzzle, unique=True)
        assert reference.status == "unique"
        modes = ("lazy", "eager") if genre != "sudoku" else ("lazy",)
        for connectivity in modes:
            options = api.Options(solver=f"external:{solver}", connectivity=connectivity)
            result = api.solve(puzzle, unique=True, options=options)
            assert result.status == "unique", (puzzle.name, connectivity, result.note)
            assert result.solution == reference.solution
            assert result.solver == f"external:{solver}"
            assert result.stats.sat_calls >= 2  # one run for the solution, one for uniqueness
            if connectivity == "eager":
                assert result.stats.cegar_iterations == 0


@pytest.mark.parametrize("solver", SOLVER_PARAMS)
@pytest.mark.parametrize("genre", list(REAL))
def test_exported_eager_cnf_of_a_unique_puzzle_has_one_solution(tmp_path, genre, solver):
    puzzle = real_puzzles(genre)[0]
    reference = api.solve(puzzle).solution
    export = dimacs.build(puzzle, "eager")
    path = tmp_path / "p.cnf"
    dimacs.write(export, path)
    # the binary on the exported file itself, its output read back as `satgrid decode` does
    if solver == "minisat":
        subprocess.run([solver, "-verb=0", str(path), str(tmp_path / "out.txt")], capture_output=True)
        text = (tmp_path / "out.txt").read_text()
    else:
        text = subprocess.run([solver, *PROFILES[solver].args, str(path)], capture_output=True,
                              text=True).stdout
    model = dimacs.read_model(text)
    assert model.status == "sat"
    decoded = dimacs.decode_model(puzzle, model.literals, "eager", "plain")
    assert decoded.problems == [] and decoded.solution == reference
    # a second solution, projected on the primary variables: none
    primary = [int(v) for v in json.loads(path.with_suffix(".map.json").read_text())["primary"]]
    holds = set(model.literals)
    external = ExternalSolver(f"external:{solver}")
    external.add(CNF(from_file=str(path)).clauses)
    external.add([[-v if v in holds else v for v in primary]])
    assert external.solve() is False
    assert external.runs == 1


@pytest.mark.parametrize("solver", SOLVER_PARAMS)
@pytest.mark.parametrize("genre", list(REAL))
def test_exported_eager_cnf_of_a_two_solution_puzzle_has_two(genre, solver):
    puzzle, brute = two_solution_puzzle(genre)
    assert len(brute) == 2
    export = dimacs.build(puzzle, "eager")
    primary = [int(v) for v in export.varmap["primary"]]
    external = ExternalSolver(f"external:{solver}")
    external.add(export.clauses)
    found = set()
    while external.solve():
        model = external.model()
        decoded = dimacs.decode_model(puzzle, tuple(model), "eager", "plain")
        assert decoded.problems == []
        assert decoded.solution not in found
        found.add(decoded.solution)
        external.add([[-v if model[v - 1] > 0 else v for v in primary]])
        assert len(found) <= 2
    assert found == brute
    # and through the API, with the lazy CEGAR loop
    lazy = api.solve(puzzle, unique=True, options=api.Options(solver=f"external:{solver}"))
    assert lazy.status == "multiple" and lazy.solution != lazy.second_solution


@needs("cadical")
@pytest.mark.parametrize("genre", list(REAL))
def test_audit_with_an_external_solver_matches_embedded(genre):
    puzzle = real_puzzles(genre)[0]
    reference = api.solve(puzzle, audit=True)
    result = api.solve(puzzle, audit=True, options=api.Options(solver="external:cadical"))
    assert result.status == "unique" and result.solution == reference.solution
    assert result.redundant_clues == reference.redundant_clues
    assert result.minimal == reference.minimal
    # one run per clue at least, but for the clues the genre's witnesses prove needed
    witnessed = {k for found in api.witnesses(GENRES[puzzle.genre], puzzle, reference.solution)
                 if len(found) == 1 for k in found}
    assert result.stats.sat_calls >= len(puzzle.clues()) - len(witnessed) + 2


@needs("cadical")
def test_external_sessions_are_shared_between_puzzles_and_stay_correct():
    a, b = real_puzzles("sudoku")[1], {p.name: p for p in api.load(
        [str(shared_file("sudoku", "tatham.txt"))])}["solo-3x3da-2"]
    options = api.Options(solver="external:cadical")
    first = api.solve(a, unique=True, options=options)
    session, owned = api.session_for(b, options)
    assert not owned and session.solver.clauses  # the cached external session
    size = len(session.solver.clauses)
    second = api.solve(b, unique=True, options=options)
    assert len(session.solver.clauses) >= size
    assert (first.status, second.status) == ("unique", "unique")
    assert second.solution == api.solve(b).solution


@needs("cadical")
def test_cli_solve_with_an_external_solver(tmp_path):
    text = shared_file("sudoku", "tatham.txt").read_text()
    path = tmp_path / "small.txt"  # up to 9x9: a 16x16 audit is ~100 runs on a 124k-clause CNF
    path.write_text(text[:text.index("puzzle solo-4x4")])
    result = CliRunner().invoke(main, ["solve", str(path), "--solver", "external:cadical",
                                       "--unique", "--format", "json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in result.stdout.splitlines()]
    assert len(lines) == 16 and {o["status"] for o in lines} == {"unique"}
    assert {o["solver"] for o in lines} == {"external:cadical"}
    few = tmp_path / "few.txt"
    few.write_text(text[:text.index("puzzle solo-3x3db-1")])
    real = subprocess.run([sys.executable, "-m", "satgrid", "audit", str(few), "--solver",
                           "external:cadical", "--format", "json"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert real.returncode == 0, real.stderr
    audited = [json.loads(x) for x in real.stdout.splitlines()]
    assert len(audited) == 4
    assert all(o["status"] == "unique" and "redundant_clues" in o for o in audited)


# -- limits -------------------------------------------------------------------------------------
def pigeons(n: int) -> list[list[int]]:
    """n pigeons, n - 1 holes: UNSAT and hard for resolution."""
    var = lambda p, h: p * (n - 1) + h + 1  # noqa: E731
    clauses = [[var(p, h) for h in range(n - 1)] for p in range(n)]
    clauses += [[-var(p, h), -var(q, h)] for h in range(n - 1) for p in range(n) for q in range(p + 1, n)]
    return clauses


@pytest.mark.parametrize("solver", [pytest.param(s, marks=needs(s), id=s)
                                    for s in ("cadical", "cryptominisat5")])
def test_conflict_limit_gives_unknown_then_the_answer(solver):
    external = ExternalSolver(f"external:{solver}", conflict_limit=50)
    external.add(pigeons(9))
    assert external.solve() is None
    small = ExternalSolver(f"external:{solver}", conflict_limit=100000)
    small.add(pigeons(4))
    assert small.solve() is False


@pytest.mark.parametrize("solver", ["minisat", "picosat"])
def test_conflict_limit_refused_where_the_binary_has_none(solver, tmp_path):
    fake = script(tmp_path, solver, "exit 0")
    with pytest.raises(SolverError, match="has no conflict limit"):
        ExternalSolver(f"external:{fake}", conflict_limit=10)


@needs("cadical")
def test_time_limit_goes_to_the_solvers_own_flag(tmp_path):
    log = tmp_path / "args.txt"
    fake = script(tmp_path, "cadical", f'echo "$@" > {log}\nexec {shutil.which("cadical")} "$@"')
    puzzle = real_puzzles("sudoku")[0]
    result = api.solve(puzzle, options=api.Options(solver=f"external:{fake}", time_limit=100))
    assert result.status == "solved"
    args = log.read_text().split()
    assert args[:3] == ["-q", "-t", "100"] and args[-1].endswith(".cnf")


def test_a_solver_that_sleeps_past_the_limit_is_killed_and_gives_unknown(tmp_path):
    # the script's child would keep the output pipe open: the whole process group must go
    fake = script(tmp_path, "slow", "sleep 30 &\nwait")
    puzzle = api.load_text("1234341221434321\n")[0]
    start = time.monotonic()
    result = api.solve(puzzle, options=api.Options(solver=f"external:{fake}", time_limit=0.5))
    assert result.status == "unknown" and "limit" in result.note
    assert time.monotonic() - start < 0.5 + GRACE_S + 3


# -- faults -------------------------------------------------------------------------------------
def script(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


SUDOKU = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n"


def solve_with(path: Path) -> api.Result:
    [puzzle] = api.load_text(SUDOKU)
    return api.solve(puzzle, unique=True, options=api.Options(solver=f"external:{path}"))


@pytest.mark.parametrize("name, package", [(s, p.package) for s, p in PROFILES.items()])
def test_missing_binary_names_its_debian_package(monkeypatch, tmp_path, name, package):
    monkeypatch.setenv("PATH", str(tmp_path))
    [puzzle] = api.load_text(SUDOKU)
    with pytest.raises(SolverError, match=f"install the Debian package {package} "):
        Session(GENRES["sudoku"].encode(puzzle), f"external:{name}")


def test_missing_binary_through_the_cli(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    path = tmp_path / "p.txt"
    path.write_text(SUDOKU)
    result = CliRunner().invoke(main, ["solve", str(path), "--solver", "external:cryptominisat5"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "external solver cryptominisat5 not found on PATH: install the Debian package " \
           "cryptominisat" in result.output
    result = CliRunner().invoke(main, ["solve", str(path), "--solver", "external:/no/such/solver"])
    assert result.exit_code == 1 and "external solver /no/such/solver: no such file" in result.output


@pytest.mark.parametrize(
    "name, body, message",
    [
        ("garbage", "echo hello world", "no result line"),
        ("crash", "echo 'out of memory' >&2\nexit 3", "(exit status 3)"),
        ("vgarbage", "echo 's SATISFIABLE'\necho 'v 1 2 x 0'\nexit 10", "garbage in assignment line 2"),
        ("novalues", "echo 's SATISFIABLE'\nexit 10", "without a complete assignment"),
        ("allfalse", "echo 's SATISFIABLE'\necho 'v 0'\nexit 10", "its assignment falsifies clause"),
        ("twoanswers", "echo 's SATISFIABLE'\necho 's UNSATISFIABLE'", "two different result lines"),
        ("bothways", "echo 's SATISFIABLE'\necho 'v 1 -1 0'\nexit 10", "sets variable 1 both ways"),
        ("strange", "echo 's MAYBE'\nexit 0", "unknown result line 's MAYBE'"),
        ("picosat", "echo \"$1:2: expected number\"\nexit 0", "picosat exits 0 on a DIMACS parse error"),
        ("cadical", "echo 's UNSATISFIABLE'\nexit 0", "said UNSATISFIABLE with an exit status other than 20"),
        ("minisat", "echo 'PARSE ERROR! Unexpected char: x' >&2\nexit 3", "no result file"),
        ("signal", "kill -9 $$", "killed by signal 9"),
    ],
)
def test_faults_are_errors_with_clear_messages(tmp_path, name, body, message):
    fake = script(tmp_path, name, body)
    with pytest.raises(SolverError) as caught:
        solve_with(fake)
    text = str(caught.value)
    assert message in text and "no answer taken from it" in text
    if name == "crash":
        assert "out of memory" in text


def test_a_fault_through_the_cli_is_one_line(tmp_path):
    fake = script(tmp_path, "garbage", "echo hello")
    path = tmp_path / "p.txt"
    path.write_text(SUDOKU)
    result = CliRunner().invoke(main, ["solve", str(path), "--solver", f"external:{fake}"])
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "no result line" in result.stderr


def test_minisat_result_file_with_garbage(tmp_path):
    fake = script(tmp_path, "minisat", 'printf "SAT\\n1 2 zz 0\\n" > "$3"\nexit 10')
    with pytest.raises(SolverError, match="garbage in the result file"):
        solve_with(fake)


@needs("cadical")
def test_any_binary_printing_competition_output_works(tmp_path):
    wrapper = script(tmp_path, "mysolver", f'exec {shutil.which("cadical")} "$@"')
    result = solve_with(wrapper)
    assert result.status == "unique"
    assert result.solution == api.solve(api.load_text(SUDOKU)[0]).solution


def test_propagate_is_not_supported(tmp_path):
    fake = script(tmp_path, "any", "exit 0")
    with pytest.raises(SolverError, match="not supported by external solvers"):
        ExternalSolver(f"external:{fake}").propagate([1])
    with pytest.raises(SolverError, match="name a solver after 'external:'"):
        ExternalSolver("external:")
    not_exec = tmp_path / "plain"
    not_exec.write_text("")
    with pytest.raises(SolverError, match="not executable"):
        ExternalSolver(f"external:{not_exec}")
    assert os.path.exists(fake)


@needs("picosat")
def test_a_model_the_checker_rejects_is_never_printed(monkeypatch):
    """The rule checker has the last word on external answers too (here made to object)."""
    import dataclasses

    from satgrid.errors import CheckFailed

    g = GENRES["sudoku"]
    monkeypatch.setitem(GENRES, "sudoku", dataclasses.replace(g, check=lambda p, s: ["row 1 twice"]))
    [puzzle] = api.load_text(SUDOKU)
    with pytest.raises(CheckFailed, match=r"breaks a rule \(row 1 twice\)"):
        api.solve(puzzle, options=api.Options(solver="external:picosat"))


@needs("cadical")
def test_jobs_with_an_external_solver_give_the_same_answers(tmp_path):
    text = shared_file("sudoku", "tatham.txt").read_text()
    path = tmp_path / "few.txt"
    path.write_text(text[:text.index("puzzle solo-3x3db-1")])
    args = ["solve", str(path), "--solver", "external:cadical", "--unique", "--format", "json"]
    one = CliRunner().invoke(main, args, catch_exceptions=False).stdout.splitlines()
    two = CliRunner().invoke(main, [*args, "--jobs", "2"], catch_exceptions=False).stdout.splitlines()
    strip = lambda lines: [{k: v for k, v in json.loads(x).items() if k != "stats"} for x in lines]  # noqa: E731
    assert strip(one) == strip(two) and len(one) == 4


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_signal_while_the_binary_starts_leaves_it_not_running(tmp_path, monkeypatch, signum):
    """Ctrl-C or SIGTERM (SystemExit, as a race worker has it) that arrives inside
    ``subprocess.Popen``, after the binary has started: the binary is killed and reaped all the
    same (satgrid.processes.signals_held)."""
    binary = sleeping_binary(tmp_path)
    popen = subprocess.Popen

    def started_then_signalled(*args, **kwargs):
        proc = popen(*args, **kwargs)
        signal.raise_signal(signum)  # its handler runs here, before Popen returns
        return proc

    def leave(signum, frame):
        raise SystemExit(128 + signum)

    monkeypatch.setattr(subprocess, "Popen", started_then_signalled)
    handlers = {s: signal.signal(s, h) for s, h in ((signal.SIGINT, signal.default_int_handler),
                                                    (signal.SIGTERM, leave))}
    try:
        with pytest.raises(KeyboardInterrupt if signum == signal.SIGINT else SystemExit):
            external.run([str(binary)], None)
    finally:
        for s, h in handlers.items():
            signal.signal(s, h)
        left = running(binary)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
    assert not left, "the binary outlived the signal"
