"""A race of configurations on one puzzle (satgrid.portfolio): the same checked answer as a plain
solve, no worker left behind, a worker's wrong answer caught by the parent, the time limit in
every worker, and the command line's ``solve --jobs N`` with fewer puzzles than N."""
from __future__ import annotations

import fcntl
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from importlib import resources
from multiprocessing import resource_tracker
from pathlib import Path

import pytest
from click.testing import CliRunner

from satgrid import api, portfolio
from satgrid.cli import main
from satgrid.errors import CheckFailed, SatgridError, SolverError
from satgrid.registry import GENRES

from .helpers import bundled, running, sleeping_binary


def children() -> list[int]:
    """The processes whose parent is this one, read from /proc (any, not only multiprocessing's)."""
    found = []
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        found += [int(pid) for pid in (task / "children").read_text().split()]
    return found


@pytest.fixture
def racing(monkeypatch, tmp_path):
    """Every grid is raced (no size threshold); temporary files go under ``tmp_path/scratch``,
    which must be empty after the test, and no child process started during the test may be
    left (children of earlier tests in this process, a test run's own helpers, are not the
    race's)."""
    monkeypatch.setattr(portfolio, "RACE_CELLS", 0)
    monkeypatch.setattr(portfolio, "RIVAL_DELAY_S", 0)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(scratch))
    proc = Path("/proc/self/task").exists()
    before = set(children()) if proc else set()
    yield tmp_path
    assert not multiprocessing.active_children()
    if proc:
        # multiprocessing's resource tracker, which a spawn start runs once for the process's life
        tracker = {resource_tracker._resource_tracker._pid}
        assert not set(children()) - before - tracker, "a worker outlived its race"
    assert not list(scratch.iterdir()), "the race left files behind"


def answer(result: api.Result) -> tuple:
    """What a solve decides: the status, and the solution when it is the only one."""
    return result.status, result.unique, result.solution if result.status == "unique" else None


@pytest.mark.parametrize("name", sorted(GENRES))
def test_race_answers_as_a_plain_solve(name: str, racing) -> None:
    """A unique puzzle of each genre, and the same puzzle with most clues gone (several
    solutions, or still one): the race's status and solution are the plain solve's, each
    solution passes the genre's checker, and the result names the configuration that won."""
    g = GENRES[name]
    puzzle = bundled(name)[0]
    clues = puzzle.clues()
    fewer = puzzle.with_clues(dict(list(clues.items())[:len(clues) // 3]))
    for each in (puzzle, fewer):
        plain = api.solve(each, unique=True)
        raced = api.solve(each, unique=True, jobs=2)
        assert raced.race is not None and raced.race.winner is not None
        assert answer(raced) == answer(plain)
        for solution in (raced.solution, raced.second_solution):
            assert solution is None or not g.check(each, solution)
        if raced.status == "multiple":
            assert raced.solution != raced.second_solution
        assert raced.to_json()["race"]["won"] == raced.race.configurations[raced.race.winner]


UNSATISFIABLE = {
    "sudoku": "genre: sudoku\nbox: 2x2\n1 2 . .\n. . 3 .\n. . 4 .\n. . . .\n",  # r1c3: 3 or 4, both in its column
    "nurikabe": "genre: nurikabe\n1 1\n. .\n",
}


@pytest.mark.parametrize("text", UNSATISFIABLE.values(), ids=list(UNSATISFIABLE))
def test_race_proves_unsatisfiable(text: str, racing) -> None:
    [puzzle] = api.load_text(text)
    raced = api.solve(puzzle, unique=True, jobs=2)
    assert raced.status == api.solve(puzzle, unique=True).status == "unsatisfiable"
    assert raced.solution is None and raced.race.winner is not None


def test_the_loser_is_stopped_at_once(racing, monkeypatch) -> None:
    """A configuration that would take a minute is killed as soon as the other one answers."""
    solve = api.solve

    def slow_rival(puzzle, **kwargs):
        if kwargs["options"].solver != api.DEFAULT_SOLVER:
            time.sleep(60)
        return solve(puzzle, **kwargs)

    monkeypatch.setattr(api, "solve", slow_rival)  # the workers are forked: they call it too
    puzzle = bundled("nurikabe")[0]
    started = time.monotonic()
    raced = portfolio.race(puzzle, portfolio.configurations(api.Options(), 2), unique=True)
    assert time.monotonic() - started < 30
    assert raced.status == "unique" and raced.race.winner == 0


def started_workers(monkeypatch) -> list[int]:
    """The pids of the race's workers as the parent starts them (it makes each a group leader)."""
    pids: list[int] = []
    lead = portfolio._lead_group

    def counted(pid: int) -> None:
        if pid:
            pids.append(pid)
        lead(pid)

    monkeypatch.setattr(portfolio, "_lead_group", counted)
    return pids


def test_a_quick_answer_starts_no_rival(racing, monkeypatch) -> None:
    """The user's configuration settles the puzzle within the rivals' delay: no rival is started."""
    monkeypatch.setattr(portfolio, "RIVAL_DELAY_S", 60)
    pids = started_workers(monkeypatch)
    started = time.monotonic()
    raced = portfolio.race(bundled("nurikabe")[0], portfolio.configurations(api.Options(), 2),
                           unique=True)
    assert time.monotonic() - started < 30
    assert raced.status == "unique" and raced.race.winner == 0 and len(pids) == 1
    assert raced.race.started == 1 and not raced.race.rivals_ran
    assert raced.to_json()["race"]["started"] == 1


def test_rivals_start_after_the_delay(racing, monkeypatch) -> None:
    """A slow first configuration: the rival starts after the delay, with what is left of the time
    limit, and wins."""
    solve = api.solve
    # written at once (a Queue's feeder thread may not have sent it when the worker is killed)
    limits = multiprocessing.get_context(portfolio.START_METHOD).SimpleQueue()

    def slow_own(puzzle, **kwargs):
        options = kwargs["options"]
        limits.put((options.solver, options.time_limit))
        if options.solver == api.DEFAULT_SOLVER:
            time.sleep(60)
        return solve(puzzle, **kwargs)

    monkeypatch.setattr(api, "solve", slow_own)
    monkeypatch.setattr(portfolio, "RIVAL_DELAY_S", 0.3)
    pids = started_workers(monkeypatch)
    started = time.monotonic()
    configs = portfolio.configurations(api.Options(time_limit=100), 2)
    raced = portfolio.race(bundled("nurikabe")[0], configs, unique=True)
    assert 0.3 <= time.monotonic() - started < 30
    assert raced.status == "unique" and raced.race.winner == 1 and len(pids) == 2
    seen = dict(limits.get() for _ in range(2))
    assert seen[api.DEFAULT_SOLVER] == 100 and seen[configs[1].solver] <= 100 - 0.3


def test_rivals_start_at_once_when_the_first_gives_up(racing, monkeypatch) -> None:
    """The first configuration fails within the delay: the rivals start without waiting."""
    solve = api.solve

    def failing_own(puzzle, **kwargs):
        if kwargs["options"].solver == api.DEFAULT_SOLVER:
            raise SolverError("no such solver here")
        return solve(puzzle, **kwargs)

    monkeypatch.setattr(api, "solve", failing_own)
    monkeypatch.setattr(portfolio, "RIVAL_DELAY_S", 60)
    started = time.monotonic()
    raced = portfolio.race(bundled("nurikabe")[0], portfolio.configurations(api.Options(), 2),
                           unique=True)
    assert time.monotonic() - started < 30
    assert raced.status == "unique" and raced.race.winner == 1


def test_a_losing_sat_binary_is_stopped_too(racing) -> None:
    """A configuration on an external SAT binary (which runs in a session of its own) loses: the
    binary is killed with its worker."""
    binary = sleeping_binary(racing)
    configs = [api.Options(solver=f"external:{binary}"), api.Options()]
    raced = portfolio.race(bundled("nurikabe")[0], configs, unique=True)
    assert raced.status == "unique" and raced.race.winner == 1
    assert not running(binary), "the losing worker's SAT binary is still running"


def test_a_wrong_answer_from_a_worker_is_caught_by_the_parent(racing, monkeypatch) -> None:
    solve = api.solve

    def wrong(puzzle, **kwargs):
        result = solve(puzzle, **kwargs)
        result.solution = tuple("#" * puzzle.cols for _ in range(puzzle.rows))  # 2x2 black pools
        return result

    monkeypatch.setattr(api, "solve", wrong)
    puzzle = bundled("nurikabe")[0]
    with pytest.raises(CheckFailed, match="breaks a rule"):
        portfolio.race(puzzle, portfolio.configurations(api.Options(), 2), unique=True)


def test_a_rival_that_fails_is_dropped(racing, monkeypatch) -> None:
    solve = api.solve

    def failing_rival(puzzle, **kwargs):
        if kwargs["options"].solver != api.DEFAULT_SOLVER:
            raise SolverError("no such solver here")
        return solve(puzzle, **kwargs)

    monkeypatch.setattr(api, "solve", failing_rival)
    puzzle = bundled("nurikabe")[0]
    raced = portfolio.race(puzzle, portfolio.configurations(api.Options(), 2), unique=True)
    assert raced.status == "unique" and raced.race.winner == 0


def test_ctrl_c_stops_every_worker(racing, monkeypatch) -> None:
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(portfolio, "wait", interrupted)
    with pytest.raises(KeyboardInterrupt):
        portfolio.race(bundled("nurikabe")[0], portfolio.configurations(api.Options(), 2), unique=True)


@pytest.mark.skipif(signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL,
                    reason="SIGTERM has a handler here: the race leaves it alone")
def test_sigterm_stops_every_worker(racing, monkeypatch) -> None:
    """``kill`` (or ``timeout``) of the parent during a race: SystemExit, after the workers are
    stopped and the race's files removed (the fixture checks both)."""
    monkeypatch.setattr(api, "solve", lambda puzzle, **kwargs: time.sleep(60))
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGTERM))
    timer.start()
    try:
        with pytest.raises(SystemExit):
            portfolio.race(bundled("nurikabe")[0], portfolio.configurations(api.Options(), 2))
    finally:
        timer.cancel()
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


def test_time_limit_in_every_worker_is_unknown(racing) -> None:
    puzzle = bundled("nurikabe")[0]
    raced = api.solve(puzzle, unique=True, jobs=2, options=api.Options(time_limit=0))
    assert raced.status == "unknown" and raced.solution is None
    assert "a limit reached in every configuration" in raced.note
    assert raced.race.winner is None and "none settled" in raced.race.line()


def test_workers_past_the_time_limit_are_killed(racing, monkeypatch) -> None:
    """Workers that do not stop at the limit themselves (stuck in a long call) are killed once
    the parent's grace after the limit has passed."""
    monkeypatch.setattr(api, "solve", lambda puzzle, **kwargs: time.sleep(60))
    monkeypatch.setattr(portfolio, "GRACE_S", 0.2)
    started = time.monotonic()
    configs = portfolio.configurations(api.Options(time_limit=0.1), 2)
    raced = portfolio.race(bundled("nurikabe")[0], configs, unique=True)
    assert time.monotonic() - started < 30
    assert raced.status == "unknown" and "time limit reached in all 2 configurations" in raced.note


def test_configurations_keep_what_the_user_fixed() -> None:
    default = api.Options()
    assert portfolio.configurations(default, 1) == [default]
    assert len(portfolio.configurations(default, 5)) == 1 + len(portfolio.RIVALS)
    # the solver fixed at one that takes no propagator: no rival changes only the lowering
    for options in portfolio.configurations(default, 5, fixed=("solver",)):
        assert options.solver == default.solver
    for options in portfolio.configurations(default, 5, fixed=("connectivity",)):
        assert options.connectivity == default.connectivity
    mine = api.Options(solver="cadical195", time_limit=3)
    raced = portfolio.configurations(mine, 5, fixed=("solver",))
    assert raced[0] == mine and len(raced) == len(set(raced)) > 1
    assert all(o.solver == "cadical195" and o.time_limit == 3 for o in raced)


def test_small_grids_are_not_raced() -> None:
    puzzle = bundled("nurikabe")[0]
    assert puzzle.rows * puzzle.cols <= portfolio.RACE_CELLS
    assert api.solve(puzzle, unique=True, jobs=2).race is None


def bundled_text(name: str, blocks: int) -> str:
    """The first ``blocks`` puzzles of a genre's bundled file, as text."""
    text = (resources.files("satgrid") / "data" / GENRES[name].examples).read_text()
    return "\nend\n".join(text.split("\nend\n")[:blocks]) + "\nend\n"


def test_cli_races_one_puzzle(racing) -> None:
    one = racing / "one.txt"
    one.write_text(bundled_text("nurikabe", 1))
    runner = CliRunner()
    out = runner.invoke(main, ["solve", str(one), "--unique", "--jobs", "2", "--format", "json"])
    assert out.exit_code == 0, out.output
    report = json.loads(out.output)
    assert report["status"] == "unique"
    if len(os.sched_getaffinity(0)) > 1:  # else --jobs is capped at 1: no race
        assert report["race"]["won"] in report["race"]["configurations"]
    text = runner.invoke(main, ["solve", str(one), "--unique", "--jobs", "2", "--connectivity", "lazy"])
    assert text.exit_code == 0, text.output
    if len(os.sched_getaffinity(0)) > 1:
        assert "race: won by --solver " in text.output
        assert "--connectivity propagator" not in text.output  # given on the command line: kept


@pytest.mark.parametrize("cpus, args, raced", [
    (2, [], True),                   # the default is auto: one big puzzle, two CPUs
    (8, ["--jobs", "auto"], True),   # more CPUs than configurations: silently capped
    (1, [], False),                  # one CPU: nothing to race on
    (2, ["--jobs", "1"], False),     # asked for one process
])
def test_cli_jobs_auto_races_a_puzzle_alone(racing, monkeypatch, cpus, args, raced) -> None:
    """``--jobs auto`` (the default) races a puzzle solved alone over the usable CPUs, with no
    stderr line about the configurations it could not run; a small grid is not raced."""
    from satgrid import cli

    monkeypatch.setattr(cli, "_cpus", lambda: cpus)
    one = racing / "one.txt"
    one.write_text(bundled_text("nurikabe", 1))
    runner = CliRunner()
    out = runner.invoke(main, ["solve", str(one), "--unique", "--format", "json", *args])
    assert out.exit_code == 0, out.output
    report = json.loads(out.stdout)
    assert report["status"] == "unique"
    assert ("race" in report) == raced
    if raced:
        count = min(cpus, len(portfolio.configurations(api.Options(), cpus)))
        assert len(report["race"]["configurations"]) == report["race"]["started"] == count
    assert "capped" not in out.stderr
    puzzle = api.load([str(one)])[0]
    monkeypatch.setattr(portfolio, "RACE_CELLS", puzzle.rows * puzzle.cols)  # not above it
    monkeypatch.setattr(cli, "ProcessPoolExecutor", None)  # nor a pool of workers
    out = runner.invoke(main, ["solve", str(one), "--unique", "--format", "json", *args])
    assert out.exit_code == 0, out.output
    assert "race" not in json.loads(out.stdout) and "capped" not in out.stderr


def test_cli_text_has_no_race_line_when_no_rival_started(racing, monkeypatch) -> None:
    """A puzzle the first configuration settles before the rivals' start: a plain report."""
    from satgrid import cli

    monkeypatch.setattr(cli, "_cpus", lambda: 2)
    monkeypatch.setattr(portfolio, "RIVAL_DELAY_S", 60)
    one = racing / "one.txt"
    one.write_text(bundled_text("nurikabe", 1))
    out = CliRunner().invoke(main, ["solve", str(one), "--unique"])
    assert out.exit_code == 0, out.output
    assert ": unique" in out.stdout and "race:" not in out.stdout
    data = CliRunner().invoke(main, ["solve", str(one), "--unique", "--format", "json"])
    assert json.loads(data.stdout)["race"]["started"] == 1


def test_cli_jobs_auto_neither_audits_nor_pools_in_workers(racing, monkeypatch) -> None:
    """An audit, and a file with as many puzzles as CPUs, run in this process under ``auto``."""
    from satgrid import cli

    monkeypatch.setattr(cli, "_cpus", lambda: 2)
    monkeypatch.setattr(cli, "ProcessPoolExecutor", None)  # a pool would fail the run
    two = racing / "two.txt"
    two.write_text(bundled_text("nurikabe", 2))
    for command in (["solve", "--unique"], ["audit"]):
        out = CliRunner().invoke(main, [*command, str(two), "--format", "json"])
        assert out.exit_code == 0, out.output
        reports = [json.loads(line) for line in out.output.splitlines() if line.startswith("{")]
        assert len(reports) == 2 and all("race" not in r for r in reports)


def test_cli_jobs_with_as_many_puzzles_keeps_the_pool(racing) -> None:
    two = racing / "two.txt"
    two.write_text(bundled_text("nurikabe", 2))
    out = CliRunner().invoke(main, ["solve", str(two), "--unique", "--jobs", "2", "--format", "json"])
    assert out.exit_code == 0, out.output
    reports = [json.loads(line) for line in out.output.splitlines() if line.startswith("{")]
    assert len(reports) == 2 and all(r["status"] == "unique" and "race" not in r for r in reports)


@pytest.mark.parametrize("solver", [api.DEFAULT_SOLVER, "slowsat"])
def test_workers_started_by_spawn(racing, monkeypatch, solver) -> None:
    """Where the platform cannot fork, workers are fresh interpreters (``spawn``): the same
    answer, each worker stopped and reaped, its files removed (the fixture), the binary of a
    losing external configuration killed too."""
    monkeypatch.setattr(portfolio, "START_METHOD", "spawn")
    puzzle = bundled("nurikabe")[0]
    if solver == "slowsat":
        binary = sleeping_binary(racing)
        configs = [api.Options(solver=f"external:{binary}"), api.Options()]
    else:
        configs = portfolio.configurations(api.Options(), 2)
    raced = portfolio.race(puzzle, configs, unique=True)
    assert answer(raced) == answer(api.solve(puzzle, unique=True))
    assert raced.race.winner is not None
    if solver == "slowsat":
        assert raced.race.winner == 1
        assert not running(binary)


def test_the_files_of_a_killed_race_go_with_the_next_race(racing) -> None:
    """A race whose parent is killed outright (SIGKILL) cannot remove its directory; once its
    workers are gone too, the next race removes it."""
    scratch = racing / "scratch"
    script = "\n".join([
        "import tempfile, time",
        "from satgrid import api, portfolio",
        f"tempfile.tempdir = {str(scratch)!r}",
        "api.solve = lambda puzzle, **kwargs: time.sleep(60)",
        f"puzzle = api.load([{str(resources.files('satgrid') / 'data' / GENRES['nurikabe'].examples)!r}])[0]",
        "portfolio.race(puzzle, portfolio.configurations(api.Options(), 2))",
    ])
    parent = subprocess.Popen([sys.executable, "-c", script], cwd=Path(__file__).resolve().parents[1])
    try:
        until = time.monotonic() + 30
        while not list(scratch.iterdir()) and time.monotonic() < until:
            time.sleep(0.05)
        [left] = list(scratch.iterdir())
    finally:
        parent.kill()
        parent.wait()
    until = time.monotonic() + 30  # the workers die with their parent (Linux), or at their limit
    while _locked(left) and time.monotonic() < until:
        time.sleep(0.05)
    assert left.exists()
    raced = portfolio.race(bundled("nurikabe")[0], portfolio.configurations(api.Options(), 2), unique=True)
    assert raced.status == "unique"
    assert not left.exists(), "the killed race's directory is still there"


def _locked(path: Path) -> bool:
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except OSError:
        return True
    finally:
        os.close(fd)


def test_a_running_race_keeps_its_files(racing) -> None:
    """The directory of a race that runs is not another race's to remove."""
    with portfolio._scratch() as mine:
        (Path(mine) / "in.cnf").write_text("p cnf 0 0\n")
        portfolio._remove_stale()
        assert (Path(mine) / "in.cnf").exists()
    assert not Path(mine).exists()


def test_a_platform_without_process_groups_is_refused_in_one_line(racing, monkeypatch) -> None:
    monkeypatch.delattr(os, "killpg")
    with pytest.raises(SatgridError, match="needs process groups"):
        portfolio.race(bundled("nurikabe")[0], portfolio.configurations(api.Options(), 2))


def test_cli_makes_the_race_configurations_once(racing, monkeypatch) -> None:
    """Two puzzles raced by ``--jobs 3``: the configurations (and the cap on them) are made once
    for the run, not again for each puzzle."""
    made = []
    configurations = portfolio.configurations

    def counted(*args, **kwargs):
        made.append(args)
        return configurations(*args, **kwargs)

    monkeypatch.setattr(portfolio, "configurations", counted)
    two = racing / "two.txt"
    two.write_text(bundled_text("nurikabe", 2))
    out = CliRunner().invoke(main, ["solve", str(two), "--unique", "--jobs", "3", "--format", "json"])
    assert out.exit_code == 0, out.output
    reports = [json.loads(line) for line in out.output.splitlines() if line.startswith("{")]
    assert [r["status"] for r in reports] == ["unique", "unique"]
    assert len(made) == 1
