"""Batch benchmark: the 49,151 17-clue Sudokus of Royle's collection through ``satgrid batch``,
and generation into a store.

    .venv/bin/python bench/bench_batch.py [--puzzles N] [--jobs 2] [--sudokus 10000]
        [--slitherlinks 1000] [--skip-dask] [--skip-generate]

Tables (wall seconds, and CPU seconds of this process and its children, since the machine may
be shared; every figure is one run):
1. Full audit (no grade) with ``--jobs`` local workers: into a SQLite store, and the same run
   with the rows thrown away (no store, the /dev/null run): wall, puzzles/s, CPU, the store's
   overhead; every puzzle must come out unique and minimal (counted in the store). Then
   ``satgrid batch run`` as a command (process start-up and the listing of the file included),
   and the old ``satgrid audit FILE --jobs N --no-grade --format json > /dev/null`` for
   comparison, unless --skip-old.
2. The same run on ``--dask-local 2`` (a distributed.LocalCluster), against the local pool.
3. Kill and resume: the command killed with SIGKILL once about half of the rows are stored, then
   run again: the total time against the uninterrupted command, and the number of rows (which
   must be exactly the number of puzzles, all distinct).
4. Generation into a store: 9x9 level-5 Sudokus and 10x10 hard Slitherlinks (--sudokus,
   --slitherlinks puzzles), puzzles/s; then the first 20 of each made again with the same seed
   into a second store: identical puzzles (inputs and solutions) or not.
"""
from __future__ import annotations

import argparse
import contextlib
import functools
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import table  # noqa: E402
from satgrid import batch  # noqa: E402
from satgrid.batch.executors import Dask, LocalPool  # noqa: E402
from satgrid.batch.tasks import run_chunk  # noqa: E402


def shared() -> Path:
    return Path(os.environ.get("SATGRID_SHARED", ROOT.parent / "shared"))


def cpu() -> float:
    """CPU seconds (user + system) of this process and its waited-for children."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


@contextlib.contextmanager
def timed(out: dict):
    wall, used = time.perf_counter(), cpu()
    yield
    out["wall"], out["cpu"] = time.perf_counter() - wall, cpu() - used


def rows_of(db: Path, sql: str) -> list[tuple]:
    with contextlib.closing(sqlite3.connect(db)) as con:
        return con.execute(sql).fetchall()


def null_run(verb: batch.Verb, tasks: list, executor) -> int:
    """The batch loop (chunks sized as :func:`batch.run` sizes them) with the rows thrown away."""
    chunker = batch.Chunker(tasks, executor.workers)
    n = 0
    try:
        for rows in executor.run(functools.partial(run_chunk, verb), chunker):
            chunker.record(rows)
            n += len(rows)
    finally:
        executor.close()
    return n


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "satgrid", *args]


ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}


def audit_tables(source: Path, count: int, jobs: int, work: Path, skip_dask: bool, skip_old: bool) -> None:
    verb = batch.Verb("audit", genre="sudoku", solver="cadical153")
    tasks = list(batch.input_tasks(verb, (str(source),), lines=True))
    assert len(tasks) == count, (len(tasks), count)
    rows, figures = [], {}

    def line(name: str, f: dict, note: str = "") -> list[str]:
        return [name, f"{f['wall']:.1f}", f"{count / f['wall']:.0f}", f"{f['cpu']:.1f}",
                f"{f['cpu'] / count * 1000:.2f}", note]

    store = work / "audit.sqlite"
    with timed(f := {}):
        outcome = batch.run(verb, tasks, str(store), "bench", LocalPool(jobs))
    figures["store"] = f
    good = rows_of(store, "SELECT COUNT(*) FROM results WHERE status = 'unique' AND minimal = 1")[0][0]
    rows.append(line(f"store, --jobs {jobs}", f, f"{good} of {outcome.written} unique and minimal"))
    with timed(f := {}):
        null_run(verb, tasks, LocalPool(jobs))
    figures["null"] = f
    overhead = figures["store"]["wall"] / f["wall"] - 1
    rows.append(line(f"no store, --jobs {jobs}", f, f"store overhead {overhead * 100:+.1f}% wall"))
    cmd_store = work / "cmd.sqlite"
    command = cli("batch", "run", "audit", str(source), "--lines", "--genre", "sudoku", "--jobs", str(jobs),
                  "--store", str(cmd_store))
    with timed(f := {}):
        subprocess.run(command, env=ENV, check=True, capture_output=True)
    figures["command"] = f
    rows.append(line("satgrid batch run (command)", f))
    if not skip_old:
        with timed(f := {}), open(os.devnull, "w") as null:
            subprocess.run(cli("audit", str(source), "--jobs", str(jobs), "--no-grade", "--format", "json"),
                           env=ENV, check=True, stdout=null, stderr=subprocess.DEVNULL)
        rows.append(line("satgrid audit --no-grade (old path)", f))
    if not skip_dask:
        with timed(f := {}):
            batch.run(verb, tasks, str(work / "dask.sqlite"), "bench", Dask(local=2))
        rows.append(line("store, --dask-local 2", f, f"{figures['store']['wall'] / f['wall']:.2f}x the "
                                                     "local pool's throughput"))
    table(f"Audit of {count} 17-clue Sudokus (no grade)",
          ["run", "wall s", "puzzles/s", "CPU s", "CPU ms/puzzle", "note"], rows)
    kill_and_resume(command, cmd_store, count, figures["command"]["wall"])


def kill_and_resume(command: list[str], store: Path, count: int, uninterrupted: float) -> None:
    store.unlink()
    for extra in ("-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            Path(str(store) + extra).unlink()
    start = time.perf_counter()
    proc = subprocess.Popen(command, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    stored = 0
    while proc.poll() is None:
        time.sleep(0.2)
        with contextlib.suppress(sqlite3.Error):
            stored = rows_of(store, "SELECT COUNT(*) FROM results")[0][0]
        if stored >= count // 2:
            proc.send_signal(signal.SIGKILL)
            break
    proc.wait()
    killed_at = time.perf_counter() - start
    at_kill = rows_of(store, "SELECT COUNT(*) FROM results")[0][0]
    resumed = time.perf_counter()
    subprocess.run(command, env=ENV, check=True, capture_output=True)
    total = time.perf_counter() - start
    final, distinct = rows_of(store, "SELECT COUNT(*), COUNT(DISTINCT task_id) FROM results")[0]
    table("Kill -9 at about 50% and resume (the command)",
          ["rows at kill", "killed after s", "resume s", "total s", "uninterrupted s", "ratio", "rows", "distinct"],
          [[str(at_kill), f"{killed_at:.1f}", f"{time.perf_counter() - resumed:.1f}", f"{total:.1f}",
            f"{uninterrupted:.1f}", f"{total / uninterrupted:.2f}", str(final), str(distinct)]])


def generation_table(work: Path, sudokus: int, slitherlinks: int, jobs: int) -> None:
    rows = []
    for genre, size, count, extra in (("sudoku", (9, 9), sudokus, {"level": 5}),
                                      ("slitherlink", (10, 10), slitherlinks, {"flavour": "hard"})):
        if not count:
            continue
        verb = batch.Verb("generate", genre=genre, rows=size[0], cols=size[1], **extra)
        store = work / f"gen-{genre}.sqlite"
        with timed(f := {}):
            batch.run(verb, list(batch.generation_tasks(verb, count, 1)), str(store), "bench", LocalPool(jobs))
        again = work / f"gen-{genre}-again.sqlite"
        batch.run(verb, list(batch.generation_tasks(verb, min(20, count), 1)), str(again), "bench")
        sql = "SELECT seed, input, solution FROM results ORDER BY seed"
        first = {r[0]: r for r in rows_of(store, sql)}
        same = all(first.get(r[0]) == r for r in rows_of(again, sql))
        good = rows_of(store, "SELECT COUNT(*) FROM results WHERE status = 'unique' AND minimal = 1")[0][0]
        rows.append([f"{genre} {size[0]}x{size[1]} {extra}", str(count), f"{f['wall']:.1f}",
                     f"{count / f['wall']:.2f}", f"{f['cpu'] / count:.3f}", str(good),
                     "identical" if same else "DIFFERENT"])
    table(f"Generation into a store, --jobs {jobs}",
          ["what", "puzzles", "wall s", "puzzles/s", "CPU s/puzzle", "unique+minimal", "re-run (20, same seed)"],
          rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--puzzles", type=int, default=49151, help="the first N puzzles of the collection")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--sudokus", type=int, default=10000)
    ap.add_argument("--slitherlinks", type=int, default=1000)
    ap.add_argument("--skip-dask", action="store_true")
    ap.add_argument("--skip-old", action="store_true", help="skip the old 'satgrid audit' run")
    ap.add_argument("--skip-audit", action="store_true")
    ap.add_argument("--skip-generate", action="store_true")
    args = ap.parse_args()
    royle = shared() / "external" / "sudoku" / "royle_17clue.txt"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if not args.skip_audit:
            if not royle.exists():
                sys.exit(f"{royle} not found (set SATGRID_SHARED)")
            lines = [t for t in royle.read_text().splitlines() if t and not t.startswith("#")][:args.puzzles]
            source = work / "royle.txt"
            source.write_text("\n".join(lines) + "\n")
            audit_tables(source, len(lines), args.jobs, work, args.skip_dask, args.skip_old)
        if not args.skip_generate:
            generation_table(work, args.sudokus, args.slitherlinks, args.jobs)
    print(f"\n(machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the end; "
          "CPU s counts this process and the worker processes it waited for)")


if __name__ == "__main__":
    main()
