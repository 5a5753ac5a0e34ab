"""Helpers every bench script shares: timing and the printed tables."""
from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterable

#: The checkout these scripts belong to.
ROOT = Path(__file__).resolve().parents[1]


def median_time(fn: Callable[[Any], Any], items: Iterable[Any]) -> float:
    """Median wall seconds of ``fn(item)`` over ``items``."""
    times = []
    for item in items:
        start = time.perf_counter()
        fn(item)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def drop_sessions() -> None:
    """Forget api's cached sessions, so the next solve encodes afresh (a cold run)."""
    from satgrid import api

    while api._SESSIONS:
        _, (_, session) = api._SESSIONS.popitem()
        session.close()


def table(title: str, header: list[str], rows: list[list[str]]) -> None:
    """Print a titled table with aligned columns (flushed, so long runs show progress)."""
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    print(f"\n## {title}")
    print("  ".join(h.ljust(wd) for h, wd in zip(header, widths)))
    for row in rows:
        print("  ".join(str(x).ljust(wd) for x, wd in zip(row, widths)))
    sys.stdout.flush()


def export(rev: str, into: Path) -> Path:
    """The tree of git revision ``rev`` of this checkout written into ``into`` (``git archive``),
    for old-against-new runs."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into
