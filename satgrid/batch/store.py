"""The results store of a batch: one SQLite database, one row per finished task.

Tables:

* ``results``: one row per task, keyed by the task's stable id (see :mod:`.tasks`): genre,
  input (puzz.link URL where the genre has one, and text), status, message, solution, second
  solution, redundant clues (JSON), minimal, grade, seed, timings, satgrid version, worker.
* ``runs``: one row per ``satgrid batch run``: the command line, verb and options, satgrid
  version, solver, seed, task counts and the counts by status when it ended.

Atomicity: the database is in WAL mode (readers never block the writer) and each chunk of results
is one transaction, so a run killed at any point (even ``kill -9``) leaves every chunk it
committed and none half; a row is only ever inserted for a task id the store does not hold, so
a resumed run writes none twice. One run writes a store at a time: a second one is refused (an
advisory lock on ``STORE.lock``, released by the kernel when its holder dies). A forked child
(a pool worker) closes its copy of the lock's descriptor at once: a ``flock`` lock lasts while any
copy is open, so a worker outliving a killed run would hold the store until its watchdog ends it. A write that
fails (a full disk) rolls its chunk back and stops the run with one line; what was committed
stays readable.
"""
from __future__ import annotations

import contextlib
import csv
import fcntl
import io
import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Any, Iterable, Iterator

from ..errors import SatgridError
from ..files import atomic_target

#: The columns of ``results``, in order, with their SQL types (JSON columns hold text).
COLUMNS: dict[str, str] = {
    "task_id": "TEXT PRIMARY KEY", "run_id": "INTEGER", "verb": "TEXT", "genre": "TEXT",
    "name": "TEXT", "source": "TEXT", "line": "INTEGER", "rows": "INTEGER", "cols": "INTEGER",
    "clues": "INTEGER", "url": "TEXT", "input": "TEXT", "status": "TEXT", "message": "TEXT",
    "solution": "TEXT", "second_solution": "TEXT", "redundant_clues": "TEXT", "minimal": "INTEGER",
    "grade": "INTEGER", "level": "INTEGER", "seed": "INTEGER", "solver": "TEXT",
    "sat_calls": "INTEGER", "solve_s": "REAL", "generate_s": "REAL", "task_s": "REAL",
    "version": "TEXT", "worker": "TEXT", "finished_at": "REAL", "report": "TEXT",
}
JSON_COLUMNS = ("solution", "second_solution", "redundant_clues", "report")
RUN_COLUMNS: dict[str, str] = {
    "run_id": "INTEGER PRIMARY KEY", "started_at": "REAL", "finished_at": "REAL",
    "command": "TEXT", "verb": "TEXT", "options": "TEXT", "version": "TEXT", "solver": "TEXT",
    "seed": "INTEGER", "executor": "TEXT", "tasks": "INTEGER", "skipped": "INTEGER",
    "written": "INTEGER", "counts": "TEXT", "outcome": "TEXT",
}
#: PRAGMAs each connection runs first (tests add ``max_page_count`` to make the disk "full").
PRAGMAS = ["journal_mode=WAL", "synchronous=NORMAL"]
#: Seconds a connection waits for a lock before it reports the store busy.
BUSY_TIMEOUT = 5.0


class StoreError(SatgridError):
    """The store cannot be opened, locked, read or written."""


def _schema(table: str, columns: dict[str, str]) -> str:
    return f"CREATE TABLE IF NOT EXISTS {table} ({', '.join(f'{c} {t}' for c, t in columns.items())})"


def _problem(exc: BaseException) -> str:
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)


#: The lock descriptors this process holds (see the module doc): a forked child closes them.
_HELD_LOCKS: set[int] = set()


def _drop_inherited_locks() -> None:
    for fd in _HELD_LOCKS:
        with contextlib.suppress(OSError):
            os.close(fd)
    _HELD_LOCKS.clear()


os.register_at_fork(after_in_child=_drop_inherited_locks)


class Store:
    """A results store, opened for reading (``write=False``) or for one run's writes."""

    def __init__(self, path: str | os.PathLike, write: bool = False) -> None:
        self.path = Path(path)
        self._lock: int | None = None
        if not write and not self.path.is_file():
            raise StoreError(f"{self.path}: no such store")
        if write:
            self._take_lock()
        try:
            self.db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None)
            for pragma in PRAGMAS:
                self.db.execute(f"PRAGMA {pragma}")
            if write:
                self.db.execute(_schema("results", COLUMNS))
                self.db.execute(_schema("runs", RUN_COLUMNS))
                self._add_missing_columns()
            tables = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        except sqlite3.DatabaseError as exc:
            self.close()
            raise StoreError(f"{self.path}: cannot open the store: {exc}") from None
        if "results" not in tables:
            self.close()
            raise StoreError(f"{self.path}: not a satgrid batch store (no results table)")

    def _add_missing_columns(self) -> None:
        """Columns a newer satgrid stores that an older store lacks (``report``) are added, empty
        in the old rows, so one store can take the rows of every version."""
        have = {r[1] for r in self.db.execute("PRAGMA table_info(results)")}
        for name, kind in COLUMNS.items():
            if name not in have:
                self.db.execute(f"ALTER TABLE results ADD COLUMN {name} {kind}")

    def _take_lock(self) -> None:
        """The run lock: ``STORE.lock`` locked for as long as this store is open (a dead holder's
        lock is gone with it), holding the holder's process id for the message."""
        lock_path = self.path.with_name(self.path.name + ".lock")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as exc:
            raise StoreError(f"{lock_path}: cannot create the store's lock: {_problem(exc)}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise StoreError(f"{self.path}: in use by another batch run (process {holder}); wait "
                             "for it to end, or give another --store") from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._lock = fd
        _HELD_LOCKS.add(fd)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.db.close()
        if self._lock is not None and self._lock in _HELD_LOCKS:  # not a copy a fork closed
            _HELD_LOCKS.discard(self._lock)
            os.close(self._lock)
        self._lock = None

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- writing ----------------------------------------------------------------------------------
    @contextlib.contextmanager
    def _transaction(self, what: str) -> Iterator[None]:
        """One transaction; a failure rolls it back and becomes one line (StoreError)."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
        except (sqlite3.Error, OSError) as exc:
            busy = "locked" in str(exc) or "busy" in str(exc)
            why = "another process holds the database lock" if busy else _problem(exc)
            raise StoreError(f"{self.path}: cannot write {what}: {why}; the store keeps what "
                             "was committed before (re-run the same command to resume)") from None

    def start_run(self, **fields: Any) -> int:
        fields.setdefault("started_at", time.time())
        names = ", ".join(fields)
        with self._transaction("the run record"):
            cur = self.db.execute(f"INSERT INTO runs ({names}) VALUES ({', '.join('?' * len(fields))})",
                                  list(fields.values()))
        return int(cur.lastrowid)

    def end_run(self, run_id: int, **fields: Any) -> None:
        fields.setdefault("finished_at", time.time())
        sets = ", ".join(f"{k} = ?" for k in fields)
        with self._transaction("the run record"):
            self.db.execute(f"UPDATE runs SET {sets} WHERE run_id = ?", [*fields.values(), run_id])

    def write(self, rows: list[dict[str, Any]], run_id: int) -> int:
        """Insert a chunk's rows in one transaction; rows whose task is already stored are left
        out. Returns how many were written."""
        now = time.time()
        names = list(COLUMNS)
        values = [[run_id if c == "run_id" else now if c == "finished_at" else row.get(c)
                   for c in names] for row in rows]
        with self._transaction(f"a chunk of {len(rows)} results"):
            before = self.db.total_changes
            self.db.executemany(f"INSERT OR IGNORE INTO results ({', '.join(names)}) "
                                f"VALUES ({', '.join('?' * len(names))})", values)
            return self.db.total_changes - before

    # -- reading ----------------------------------------------------------------------------------
    def finished(self) -> set[str]:
        """The ids of the stored tasks."""
        return {r[0] for r in self._read("SELECT task_id FROM results")}

    def counts(self, run_id: int | None = None) -> dict[str, int]:
        """Rows by status (of one run, or of the whole store)."""
        where, args = ("WHERE run_id = ?", (run_id,)) if run_id is not None else ("", ())
        return dict(self._read(f"SELECT status, COUNT(*) FROM results {where} GROUP BY status "
                               "ORDER BY COUNT(*) DESC", args))

    def _read(self, sql: str, args: tuple = ()) -> list[tuple]:
        try:
            return self.db.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot read the store: {exc}") from None

    def rows(self, where: str = "", args: tuple = ()) -> Iterator[dict[str, Any]]:
        """The result rows as dicts (JSON columns as text), in task id order."""
        try:
            cur = self.db.execute(f"SELECT * FROM results {where} ORDER BY task_id", args)
            names = [d[0] for d in cur.description]
            for values in cur:
                yield dict(zip(names, values))
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot read the store: {exc}") from None


# -- export -------------------------------------------------------------------------------------
EXPORTS = ("jsonl", "csv", "parquet")


def _decoded(row: dict[str, Any]) -> dict[str, Any]:
    """A row with its JSON columns as values and ``minimal`` as a boolean."""
    out = dict(row)
    for c in JSON_COLUMNS:
        if out.get(c) is not None:
            out[c] = json.loads(out[c])
    if out.get("minimal") is not None:
        out["minimal"] = bool(out["minimal"])
    return out


def export(store: Store, target: str, to: str) -> int:
    """Write every result row of ``store`` to ``target`` as ``to`` (one of :data:`EXPORTS`),
    through a temporary file renamed into place; returns the rows written. JSON Lines: one object
    a row, JSON columns as JSON; CSV: a header and the columns as stored (JSON as text);
    Parquet (needs pyarrow, ``pip install satgrid[parquet]``): the columns as stored."""
    if to == "parquet":
        try:
            import pyarrow
            import pyarrow.parquet
        except ImportError:
            raise StoreError("--to parquet needs pyarrow: pip install 'satgrid[parquet]'") from None
    path = Path(target)
    n = 0
    try:
        with atomic_target(path) as tmp:
            if to == "parquet":
                columns: dict[str, list] = {c: [] for c in COLUMNS}
                for row in store.rows():
                    for c in COLUMNS:
                        columns[c].append(row.get(c))
                    n += 1
                types = {"INTEGER": pyarrow.int64(), "REAL": pyarrow.float64()}
                schema = pyarrow.schema([(c, types.get(t.split()[0], pyarrow.string()))
                                         for c, t in COLUMNS.items()])
                pyarrow.parquet.write_table(pyarrow.table(columns, schema=schema), tmp)
            else:
                with open(tmp, "w", encoding="utf-8", newline="") as handle:
                    n = _write_text(store.rows(), handle, to)
    except OSError as exc:
        raise StoreError(f"{target}: cannot write: {_problem(exc)}") from None
    return n


def _write_text(rows: Iterable[dict[str, Any]], handle: io.TextIOBase, to: str) -> int:
    n = 0
    if to == "csv":
        writer = csv.DictWriter(handle, fieldnames=list(COLUMNS))
        writer.writeheader()
        for row in rows:
            writer.writerow(row)
            n += 1
        return n
    for row in rows:
        handle.write(json.dumps(_decoded(row)) + "\n")
        n += 1
    return n
