"""satgrid batch: tasks and their ids, the SQLite store (resume, kill -9, lock, full disk),
export, verify, and the local and Dask executors."""
from __future__ import annotations

import contextlib
import csv
import fcntl
import importlib.util
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from satgrid import api, batch
from satgrid.batch import store as store_module
from satgrid.batch.executors import LocalPool
from satgrid.batch.progress import Bar
from satgrid.batch.store import Store
from satgrid.cli import main

from .helpers import SHARED

ROOT = Path(__file__).resolve().parents[1]
ROYLE = SHARED / "external" / "sudoku" / "royle_17clue.txt"
#: Eight distinct 4x4 Sudokus, one a line: five unique, two with several solutions, one without.
SMALL = ["......43.314....", "2.4...........13", "..2.....2.1.1.3.", ".314..........31",
         "24.1....41......", "1...2.......3..4", "12..34..........", "..1.2.......3..4"]
BAD = ["1.3", "11..............", "1234"]


def _store_rows(path: Path, sql: str = "SELECT task_id, status FROM results") -> list[tuple]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return db.execute(sql).fetchall()


def _list_file(tmp_path: Path, lines: list[str], name: str = "list.txt") -> Path:
    path = tmp_path / name
    path.write_text("# a comment\n" + "\n".join(lines) + "\n")
    return path


def _run(args: list[str]):
    return CliRunner().invoke(main, ["batch", "run", *args])


def _expected(lines: list[str]) -> dict[str, str]:
    """Each line's status as satgrid solve --unique finds it (an error when it does not read)."""
    out = {}
    for line in lines:
        try:
            [p] = api.load_text(line, genre="sudoku")
        except Exception:
            out[line] = "error"
            continue
        out[line] = api.solve(p, unique=True).status
    return out


def test_audit_list_file_resume_and_errors(tmp_path: Path):
    lines = SMALL + BAD
    source = _list_file(tmp_path, lines)
    db = tmp_path / "r.sqlite"
    out = _run(["audit", str(source), "--lines", "--genre", "sudoku", "--store", str(db)])
    assert out.exit_code == 0, out.output
    rows = {r[0]: r[1:] for r in _store_rows(db, "SELECT input, status, message, line, minimal, "
                                                 "redundant_clues, solution, url FROM results")}
    assert len(rows) == len(lines)
    expected = _expected(lines)
    for line in lines:
        status, message, number, minimal, redundant, solution, url = rows[line]
        assert status == expected[line]
        assert number == lines.index(line) + 2  # after the comment line
        if status == "error":
            assert message.startswith(f"{source}:{number}") and "\n" not in message
        if status == "unique":
            [p] = api.load_text(line, genre="sudoku")
            audit = api.solve(p, audit=True, grade=False)
            assert json.loads(redundant) == [list(k) for k in audit.redundant_clues]
            assert bool(minimal) == audit.minimal
            assert json.loads(solution) == audit.genre.solution_json(p, audit.solution)
            assert url.startswith("https://puzz.link/p?sudoku/4/4/")
    assert f"{len(lines)} tasks: 0 already stored, {len(lines)} run now" in out.output
    # the same command again: nothing to do, nothing written twice
    again = _run(["audit", str(source), "--lines", "--genre", "sudoku", "--store", str(db)])
    assert again.exit_code == 0 and f"{len(lines)} already stored, 0 run now" in again.output
    assert len(_store_rows(db)) == len(lines)
    runs = _store_rows(db, "SELECT verb, tasks, skipped, written, outcome FROM runs ORDER BY run_id")
    assert runs == [("audit", 11, 0, 11, "finished"), ("audit", 11, 11, 0, "finished")]


def test_diagnostics_verbs_store_their_reports(tmp_path: Path):
    """ambiguity and repair rows hold the same report as the commands' library calls, and an
    old store without the report column takes their rows."""
    from satgrid.ambiguity import report
    from satgrid.repair import repair

    source = _list_file(tmp_path, SMALL)
    db = tmp_path / "d.sqlite"
    with contextlib.closing(sqlite3.connect(db)) as old:  # a store written before the column
        columns = {k: v for k, v in store_module.COLUMNS.items() if k != "report"}
        old.execute(store_module._schema("results", columns))
    for verb in ("ambiguity", "repair"):
        out = _run([verb, str(source), "--lines", "--genre", "sudoku", "--store", str(db)])
        assert out.exit_code == 0, out.output
    rows = _store_rows(db, "SELECT verb, input, status, report FROM results")
    assert len(rows) == 2 * len(SMALL)
    for verb, line, status, stored in rows:
        [p] = api.load_text(line, genre="sudoku")
        doc = json.loads(stored)
        if verb == "ambiguity":
            found = report(p, cap=10)
            assert (status, doc["solution_count"], doc["undecided_count"]) == \
                (found.status, found.count, len(found.undecided))
        else:
            fixed = repair(p)
            assert (status, doc["found"], len(doc.get("added", []))) == \
                (fixed.status, fixed.found, len(fixed.added))
    statuses = {status for verb, _, status, _ in rows if verb == "ambiguity"}
    assert statuses == {"unique", "multiple", "unsatisfiable"}


def test_task_ids_are_stable_and_follow_the_options(tmp_path: Path):
    source = _list_file(tmp_path, SMALL)
    plain = batch.Verb("audit", genre="sudoku", solver="cadical153")
    ids = [t.id for t in batch.input_tasks(plain, (str(source),), lines=True)]
    assert ids == [t.id for t in batch.input_tasks(plain, (str(source),), lines=True)]
    assert len(set(ids)) == len(SMALL)
    graded = batch.Verb("audit", genre="sudoku", solver="cadical153", grade=True)
    assert not set(ids) & {t.id for t in batch.input_tasks(graded, (str(source),), lines=True)}
    # blanks around a line do not change its id; a different line does
    padded = _list_file(tmp_path, [f"  {SMALL[0]}  "], "padded.txt")
    assert [t.id for t in batch.input_tasks(plain, (str(padded),), lines=True)] == ids[:1]
    # generation: genre, size, options and the puzzle's own seed
    gen = batch.Verb("generate", genre="sudoku", rows=4, cols=4, level=5)
    first = [t.id for t in batch.generation_tasks(gen, 3, 7)]
    assert first == [t.id for t in batch.generation_tasks(gen, 3, 7)] and len(set(first)) == 3
    assert not set(first) & {t.id for t in batch.generation_tasks(gen, 3, 8)}


def test_inputs_globs_jsonl_urls_and_puzzle_files(tmp_path: Path):
    (tmp_path / "a.jsonl").write_text(
        json.dumps(SMALL[0]) + "\n" + json.dumps({"url": "https://puzz.link/p?sudoku/4/4/1i2m3h4"})
        + "\n" + json.dumps({"genre": "sudoku", "puzzle": [[1, 0, 0, 0], [0] * 4,
                                                           [0] * 4, [0] * 4]}) + "\n")
    (tmp_path / "b.txt").write_text("https://puzz.link/p?sudoku/4/4/g1k3h2g4i\n")
    examples = ROOT / "satgrid" / "data" / "sudoku.txt"
    verb = batch.Verb("solve", solver="cadical153", unique=True)
    tasks = list(batch.input_tasks(verb, (str(tmp_path / "*.*"), str(examples)), lines=False))
    whole = api.load([str(examples)])
    assert len(tasks) == 3 + 1 + len(whole)
    db = tmp_path / "s.sqlite"
    outcome = batch.run(verb, tasks, str(db), "test")
    assert outcome.written == len(tasks) and "error" not in outcome.counts
    names = {r[0] for r in _store_rows(db, "SELECT name FROM results WHERE source LIKE '%sudoku.txt'")}
    assert names == {p.name for p in whole}


def test_bad_inputs_are_one_line_errors(tmp_path: Path):
    db = str(tmp_path / "s.sqlite")
    for args, code, words in [
        (["audit", str(tmp_path / "missing.txt"), "--store", db], 1, "no such file"),
        (["audit", str(tmp_path / "*.none"), "--store", db], 1, "no file matches"),
        (["generate", "sudoku", "--store", db], 2, "--size"),
        (["generate", "nosuchgenre", "--size", "4x4", "--store", db], 1, "nosuchgenre"),
        (["audit", "x.txt", "--store", db, "--dask-local", "2", "--scheduler", "tcp://h:1"], 2, "not both"),
        (["audit", "x.txt", "--store", db, "--solver", "nosuchsolver"], 1, "nosuchsolver"),
    ]:
        out = _run(args)
        assert out.exit_code == code, (args, out.output)
        assert words in out.output and "Traceback" not in out.output
    not_a_store = tmp_path / "text.sqlite"
    not_a_store.write_text("hello")
    for args in (["batch", "export", str(not_a_store), "--to", "csv", "-o", str(tmp_path / "o.csv")],
                 ["batch", "verify", str(tmp_path / "none.sqlite")]):
        out = CliRunner().invoke(main, args)
        assert out.exit_code == 1 and out.output.count("\n") == 1, out.output


def test_time_limit_gives_unknown(tmp_path: Path):
    source = _list_file(tmp_path, SMALL[:2])
    db = tmp_path / "t.sqlite"
    out = _run(["solve", str(source), "--lines", "--genre", "sudoku", "--time-limit", "0", "--store", str(db)])
    assert out.exit_code == 0, out.output
    assert {r[1] for r in _store_rows(db)} == {"unknown"}


def test_generate_is_reproducible(tmp_path: Path):
    def puzzles(name: str) -> list[tuple]:
        db = tmp_path / name
        out = _run(["generate", "sudoku", "--size", "4x4", "--count", "5", "--seed", "11",
                    "--level", "5", "--store", str(db)])
        assert out.exit_code == 0, out.output
        return sorted(_store_rows(db, "SELECT seed, input, url, solution, status, minimal FROM results"))

    first = puzzles("a.sqlite")
    assert len(first) == 5 and {r[4:] for r in first} == {("unique", 1)}
    assert first == puzzles("b.sqlite")
    seeds = [r[0] for r in first]
    assert _store_rows(tmp_path / "a.sqlite", "SELECT seed FROM runs") == [(11,)] and len(set(seeds)) == 5


def test_export_jsonl_csv_parquet(tmp_path: Path):
    source = _list_file(tmp_path, SMALL + BAD[:1])
    db = tmp_path / "e.sqlite"
    assert _run(["audit", str(source), "--lines", "--genre", "sudoku", "--store", str(db)]).exit_code == 0
    stored = dict(_store_rows(db, "SELECT task_id, solution FROM results"))
    runner = CliRunner()
    out = runner.invoke(main, ["batch", "export", str(db), "--to", "jsonl", "-o", str(tmp_path / "r.jsonl")])
    assert out.exit_code == 0, out.output
    docs = [json.loads(t) for t in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert {d["task_id"]: d["solution"] for d in docs} == {k: v and json.loads(v) for k, v in stored.items()}
    assert runner.invoke(main, ["batch", "export", str(db), "--to", "csv", "-o", str(tmp_path / "r.csv")]).exit_code == 0
    with open(tmp_path / "r.csv", newline="") as handle:
        assert {r["task_id"]: r["solution"] or None for r in csv.DictReader(handle)} == stored
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    if importlib.util.find_spec("pyarrow") is None:
        pytest.skip("pyarrow not installed: parquet export untested")
    import pyarrow.parquet

    out = runner.invoke(main, ["batch", "export", str(db), "--to", "parquet", "-o", str(tmp_path / "r.parquet")])
    assert out.exit_code == 0, out.output
    table = pyarrow.parquet.read_table(tmp_path / "r.parquet").to_pydict()
    assert dict(zip(table["task_id"], table["solution"])) == stored


def test_verify_finds_a_tampered_solution(tmp_path: Path):
    source = _list_file(tmp_path, SMALL)
    db = tmp_path / "v.sqlite"
    assert _run(["audit", str(source), "--lines", "--genre", "sudoku", "--store", str(db)]).exit_code == 0
    runner = CliRunner()
    out = runner.invoke(main, ["batch", "verify", str(db), "--sample", "100"])
    assert out.exit_code == 0 and "checked 7 of 7 stored solutions: all pass" in out.output, out.output
    with contextlib.closing(sqlite3.connect(db)) as con:
        task_id, solution = con.execute("SELECT task_id, solution FROM results WHERE solution IS NOT NULL").fetchone()
        grid = json.loads(solution)
        grid[0][0], grid[0][1] = grid[0][1], grid[0][0]
        con.execute("UPDATE results SET solution = ? WHERE task_id = ?", (json.dumps(grid), task_id))
        con.commit()
    out = runner.invoke(main, ["batch", "verify", str(db), "--sample", "100"])
    assert out.exit_code == 1 and f"task {task_id}" in out.output and "breaks a rule" in out.output


def test_a_store_in_use_is_refused(tmp_path: Path):
    source = _list_file(tmp_path, SMALL)
    db = tmp_path / "l.sqlite"
    with Store(db, write=True):
        out = _run(["audit", str(source), "--lines", "--genre", "sudoku", "--store", str(db)])
    assert out.exit_code == 1 and "in use by another batch run" in out.output
    assert out.output.count("\n") == 1
    assert _run(["audit", str(source), "--lines", "--genre", "sudoku", "--store", str(db)]).exit_code == 0


def _royle(tmp_path: Path, count: int) -> Path:
    if not ROYLE.exists():
        pytest.skip(f"{ROYLE} not found")
    lines = [t for t in ROYLE.read_text().splitlines() if t and not t.startswith("#")][:count]
    return _list_file(tmp_path, lines, "royle.txt")


def _full_disk_then_resume(tmp_path: Path, db: Path, source: Path, count: int) -> int:
    """A run on a store that cannot grow fails with one line; the store is intact, keeps whole
    chunks only, and the same command later completes it exactly."""
    args = ["audit", str(source), "--lines", "--genre", "sudoku", "--store", str(db)]
    out = _run(args)
    assert out.exit_code == 1, out.output
    assert out.output.count("\n") == 1 and "full" in out.output and "re-run" in out.output
    with contextlib.closing(sqlite3.connect(db)) as con:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        kept = con.execute("SELECT COUNT(*) FROM results").fetchone()[0]
    assert 0 < kept < count
    return kept


def test_full_disk_simulated_by_a_page_limit(tmp_path: Path, monkeypatch):
    source = _royle(tmp_path, 400)
    db = tmp_path / "full.sqlite"
    monkeypatch.setattr(store_module, "PRAGMAS", [*store_module.PRAGMAS, "max_page_count=40"])
    _full_disk_then_resume(tmp_path, db, source, 400)
    monkeypatch.undo()
    assert _run(["audit", str(source), "--lines", "--genre", "sudoku", "--store", str(db)]).exit_code == 0
    rows = _store_rows(db)
    assert len(rows) == 400 == len({r[0] for r in rows})


def test_full_disk_on_a_small_tmpfs(tmp_path: Path):
    source = _royle(tmp_path, 400)
    mount = tmp_path / "small"
    mount.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=96k", "tmpfs", str(mount)],
                                           capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs (needs root)")
    try:
        kept = _full_disk_then_resume(tmp_path, mount / "r.sqlite", source, 400)
        # readable where it is, and complete once moved to where there is room
        moved = tmp_path / "moved.sqlite"
        with contextlib.closing(sqlite3.connect(mount / "r.sqlite")) as con, \
                contextlib.closing(sqlite3.connect(moved)) as dst:
            con.backup(dst)
    finally:
        subprocess.run(["umount", str(mount)], check=False)
    assert len(_store_rows(moved)) == kept
    assert _run(["audit", str(source), "--lines", "--genre", "sudoku", "--store", str(moved)]).exit_code == 0
    assert len({r[0] for r in _store_rows(moved)}) == 400 == len(_store_rows(moved))


@pytest.mark.parametrize("jobs", [1, 2])
def test_kill_9_and_resume(tmp_path: Path, jobs: int):
    """A run killed with kill -9 leaves its committed rows, and its store free at once: the pool
    workers, which live on until their watchdog sees the client gone, hold no copy of its lock."""
    count = 600
    source = _royle(tmp_path, count)
    db = tmp_path / "k.sqlite"
    args = [sys.executable, "-m", "satgrid", "batch", "run", "audit", str(source), "--lines",
            "--genre", "sudoku", "--store", str(db), "--jobs", str(jobs)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    stored = 0
    while time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
        with contextlib.suppress(sqlite3.Error):
            stored = len(_store_rows(db))
        if stored >= 50:
            break
    assert proc.poll() is None, "the run ended before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    fd = os.open(tmp_path / "k.sqlite.lock", os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # BlockingIOError while a worker holds it
    finally:
        os.close(fd)
    before = _store_rows(db)
    assert 50 <= len(before) < count
    out = subprocess.run(args, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert f"{len(before)} already stored" in out.stdout
    after = _store_rows(db)
    assert len(after) == count == len({r[0] for r in after})
    assert set(before) <= set(after) and {r[1] for r in after} == {"unique"}


def test_local_pool_matches_in_process(tmp_path: Path):
    source = _list_file(tmp_path, SMALL + BAD)
    verb = batch.Verb("audit", genre="sudoku", solver="cadical153")
    tasks = list(batch.input_tasks(verb, (str(source),), lines=True))
    one = batch.run(verb, tasks, str(tmp_path / "1.sqlite"), "test")
    two = batch.run(verb, tasks, str(tmp_path / "2.sqlite"), "test", LocalPool(2))
    assert one.counts == two.counts and two.written == len(tasks)
    # a puzzle with several solutions may show any two: its solutions depend on the solver's history
    columns = ("SELECT task_id, status, CASE status WHEN 'unique' THEN solution END, redundant_clues, "
               "message FROM results ORDER BY task_id")
    assert _store_rows(tmp_path / "1.sqlite", columns) == _store_rows(tmp_path / "2.sqlite", columns)


def test_progress_bar():
    stream = io.StringIO()
    bar = Bar("audit", True, stream)
    bar(0, 10)
    bar(10, 10)
    bar.close()
    text = stream.getvalue()
    assert "10/10 100.0%" in text and "/s ETA" in text and text.endswith("\n")
    quiet = io.StringIO()
    Bar("audit", False, quiet)(5, 10)
    assert quiet.getvalue() == ""


def test_dask_local_cluster_survives_a_killed_worker(tmp_path: Path):
    distributed = pytest.importorskip("distributed")
    from satgrid.batch.executors import Dask

    source = _royle(tmp_path, 300)
    verb = batch.Verb("audit", genre="sudoku", solver="cadical153")
    tasks = list(batch.input_tasks(verb, (str(source),), lines=True))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        pids = sorted(client.run(os.getpid).values())
        killed = []

        def kill_one(done: int, total: int) -> None:
            if done and not killed:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(done)

        outcome = batch.run(verb, tasks, str(tmp_path / "d.sqlite"), "test", Dask(client=client),
                            progress=kill_one)
        assert killed and killed[0] < len(tasks)
    rows = _store_rows(tmp_path / "d.sqlite")
    assert outcome.written == len(tasks) == len(rows) == len({r[0] for r in rows})
    assert {r[1] for r in rows} == {"unique"}
    pids_seen = {int(r[0].rsplit(":", 1)[1]) for r in _store_rows(tmp_path / "d.sqlite", "SELECT worker FROM results")}
    # tasks were left when the worker died: another worker (or its replacement) ran them; the
    # killed one may or may not have finished a chunk before, as the schedule fell
    assert pids_seen - {pids[0]}


def test_a_worn_session_is_replaced():
    from satgrid.session import MIN_WEAR

    [puzzle] = api.load_text(SMALL[0], genre="sudoku")
    first, owned = api.session_for(puzzle, api.Options())
    assert not owned and not first.worn()
    for _ in range(max(first.built_top, MIN_WEAR) + 2):  # each audit retires a blocking literal
        result = api.solve(puzzle, audit=True, grade=False)
        assert result.status == "unique" and result.minimal
    again, _ = api.session_for(puzzle, api.Options())
    assert again is not first and not again.worn()


def test_verify_reads_the_inputs_with_the_runs_input_options(tmp_path: Path):
    """A 6x6 Sudoku with 3x2 boxes (not the default 2x3) solved with --box: verify reads each
    row back with the box its run recorded, and the solutions pass."""
    [blank] = api.load_text("genre: sudoku\nbox: 3x2\n" + "." * 36 + "\n")
    grid = api.solve(blank).solution
    line = "".join(str(d) for row in grid for d in row)
    line = "." + line[1:7] + "." + line[8:20] + "." + line[21:]
    source = _list_file(tmp_path, [line])
    db = tmp_path / "b.sqlite"
    out = _run(["solve", str(source), "--lines", "--genre", "sudoku", "--box", "3x2", "--store", str(db)])
    assert out.exit_code == 0, out.output
    assert _store_rows(db) == [(_store_rows(db)[0][0], "solved")]
    out = CliRunner().invoke(main, ["batch", "verify", str(db), "--sample", "10"])
    assert out.exit_code == 0 and "checked 1 of 1 stored solutions: all pass" in out.output, out.output
