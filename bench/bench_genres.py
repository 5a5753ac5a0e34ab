"""Every genre on the puzzlekit dataset's puzzles, satgrid against puzzlekit's own solver. One table.

    .venv/bin/python bench/bench_genres.py [--genre NAME ...] [--repeat N]

Genres: each registry genre with a ``PUZZLEKIT`` codec whose file
``<shared>/external/genres/puzzlekit_<dataset genre>.txt`` exists (30 janko.at and puzz.link
puzzles with their published solutions); Nurikabe, which those files lack, takes the first 30
puzzles of at most 400 cells of ``<shared>/external/nurikabe/janko_nurikabe_sample.txt`` (the same
dataset's puzzles in satgrid's block format), written out in the dataset's grid text by its codec.
``<shared>`` is ``$SATGRID_SHARED``, else ``shared/`` beside the checkout.

Per genre, over its puzzles: the median and max wall ms of

* satgrid (``api.solve``, cached sessions dropped before every run, so each run encodes afresh;
  one untimed solve first, which builds the grid size's geometry tables): solve; solve + unique;
  audit (solve + unique + every clue's redundancy, no grade);
* puzzlekit (``puzzlekit.solve(problem text, puzzle type)``: its parser, its OR-Tools CP-SAT model
  and the solve, with CP-SAT's default workers), one first call per genre not timed.

A run's time is the median of ``--repeat`` runs. Every satgrid run must find the puzzle unique and
equal to the published solution (the ``ok`` column counts them); ``pk ok`` counts puzzlekit's
answers equal to the published ones (tokens compared with their letters sorted: ``es`` = ``se``).
The speed targets are printed beside: satgrid's solve + unique median below puzzlekit's solve
median, and Hitori and Masyu up to 400 cells at most 20 ms solve + unique (the max over those).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from satgrid import api  # noqa: E402
from satgrid.formats import puzzlekit as pk  # noqa: E402
from satgrid.registry import GENRES, genre  # noqa: E402

from bench.common import drop_sessions, table  # noqa: E402

SHARED = Path(os.environ.get("SATGRID_SHARED", ROOT.parent / "shared"))
NURIKABE_SAMPLE = SHARED / "external" / "nurikabe" / "janko_nurikabe_sample.txt"
#: Issue 18's size bound and time bound of its second target.
SMALL_CELLS, SMALL_MS = 400, 20.0
#: Issue 20's bound on every puzzle of a genre's 30.
LARGE_MS = 1000.0
SMALL_TARGET = ("hitori", "masyu")


@dataclass
class Case:
    """One puzzle: satgrid's puzzle (with the published solution as its given solution), the
    dataset's problem text (puzzlekit's input) and the published solution's tokens."""

    puzzle: Any
    problem: str
    solution: list[list[str]]


def cases_of(text: str, source: str) -> list[Case]:
    blocks = pk.split(text, source).blocks
    puzzles = api.load_text(text, source)
    return [Case(p, "\n".join(" ".join(t for t, _ in tokens) for _, tokens in b.problem.lines),
                 [[t for t, _ in tokens] for _, tokens in b.solution.lines[1:]] if b.solution else [])
            for p, b in zip(puzzles, blocks)]


def genre_cases(name: str, count: int) -> tuple[str, list[Case]] | None:
    """(where the puzzles come from, the cases) of a genre, or None without a file."""
    codec = GENRES[name].part("PUZZLEKIT")
    path = SHARED / "external" / "genres" / f"puzzlekit_{codec.dataset.lower()}.txt"
    if path.exists():
        return path.name, cases_of(path.read_text(), str(path))[:count]
    if name == "nurikabe" and NURIKABE_SAMPLE.exists() and codec.write is not None:
        chosen = [p for p in api.load([str(NURIKABE_SAMPLE)]) if p.rows * p.cols <= SMALL_CELLS][:count]
        text = pk.header(codec, len(chosen)) + "\n".join(pk.write(p, p.given_solution.solution) for p in chosen)
        return f"{NURIKABE_SAMPLE.name} (first {len(chosen)} of <= {SMALL_CELLS} cells)", cases_of(text, "nurikabe-sample")
    return None


def wall_ms(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Median wall ms of ``repeat`` runs of ``fn`` (each after dropping api's sessions), and its last value."""
    times, out = [], None
    for _ in range(repeat):
        drop_sessions()
        start = time.perf_counter()
        out = fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), out


def same(a: list[list[str]], b: list[list[str]]) -> bool:
    key = [["".join(sorted(t)) for t in row] for row in a]
    return bool(a) and key == [["".join(sorted(t)) for t in row] for row in b]


def puzzlekit_solve(case: Case, kind: str) -> list[list[str]] | None:
    """puzzlekit's solution tokens for a case (None when it finds none)."""
    import puzzlekit

    result = puzzlekit.solve(case.problem, kind)
    if not result.is_solved:
        return None
    return [row.split() for row in str(result.sol_grid).splitlines()[1:]]


def measure(name: str, cases: list[Case], repeat: int) -> dict[str, Any]:
    """The figures of one genre (lists of per-puzzle ms, counts)."""
    out: dict[str, Any] = {"solve": [], "unique": [], "audit": [], "small": [], "ok": 0, "pk": [], "pk_ok": 0}
    for case in cases:
        p = case.puzzle
        wall_ms(lambda: api.solve(p), 1)  # not timed: the size's geometry tables are built once
        solve, _ = wall_ms(lambda: api.solve(p), repeat)
        unique, result = wall_ms(lambda: api.solve(p, unique=True), repeat)
        audit, _ = wall_ms(lambda: api.solve(p, audit=True, grade=False), repeat)
        out["solve"].append(solve)
        out["unique"].append(unique)
        out["audit"].append(audit)
        if p.rows * p.cols <= SMALL_CELLS:
            out["small"].append((unique, f"{p.name} {p.rows}x{p.cols}"))
        out["ok"] += (result.status, result.given_solution) == ("unique", "matches")
    try:
        import puzzlekit  # noqa: F401
    except ImportError:
        out["pk_error"] = "puzzlekit not installed (pip install puzzlekit)"
        return out
    kind = GENRES[name].part("PUZZLEKIT").solver_type
    try:
        puzzlekit_solve(cases[0], kind)  # the first call loads OR-Tools
    except Exception as exc:  # noqa: BLE001 - a peer's failure is reported, not raised
        out["pk_error"] = f"puzzlekit {kind!r}: {type(exc).__name__}: {exc}"
        return out
    for case in cases:
        took, answer = wall_ms(lambda: puzzlekit_solve(case, kind), repeat)
        out["pk"].append(took)
        out["pk_ok"] += same(answer or [], case.solution)
    return out


def med_max(values: list[float]) -> str:
    return f"{statistics.median(values):.1f} / {max(values):.1f}" if values else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--genre", action="append", help="only these genres (repeatable)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per puzzle, the median counts")
    parser.add_argument("--count", type=int, default=30, help="puzzles per genre at most")
    args = parser.parse_args()
    names = [genre(n).name for n in args.genre or []] or \
        [n for n, g in GENRES.items() if g.part("PUZZLEKIT") is not None]
    print("# satgrid against puzzlekit on the puzzlekit dataset's puzzles")
    print(f"solver {api.Options().solver}; wall ms, median / max over the puzzles, median of {args.repeat} "
          "run(s) each; satgrid runs encode afresh")
    rows, targets = [], []
    for name in names:
        if GENRES[name].part("PUZZLEKIT") is None:
            print(f"# {name}: no genre with a PUZZLEKIT codec, skipped")
            continue
        found = genre_cases(name, args.count)
        if found is None:
            print(f"# {name}: no puzzlekit dataset file under {SHARED / 'external'}, skipped")
            continue
        where, cases = found
        print(f"# {name}: {len(cases)} puzzles from {where}")
        m = measure(name, cases, args.repeat)
        if "pk_error" in m:
            print(f"# {name}: {m['pk_error']}")
        rows.append([name, str(len(cases)), f"{m['ok']}/{len(cases)}", med_max(m["solve"]), med_max(m["unique"]),
                     med_max(m["audit"]), med_max(m["pk"]), f"{m['pk_ok']}/{len(m['pk'])}" if m["pk"] else "-"])
        if m["pk"]:
            ours, theirs = statistics.median(m["unique"]), statistics.median(m["pk"])
            targets.append([name, "solve+unique median < puzzlekit solve median", f"{ours:.1f} < {theirs:.1f}",
                            "met" if ours < theirs else "MISSED"])
        if m["small"]:
            worst, which = max(m["small"])
            verdict = ("met" if worst <= SMALL_MS else "MISSED") if name in SMALL_TARGET else "(not a target)"
            targets.append([name, f"solve+unique max over {len(m['small'])} puzzles <= {SMALL_CELLS} cells "
                                  f"<= {SMALL_MS:g} ms", f"{worst:.1f} ({which})", verdict])
            small = statistics.median(ms for ms, _ in m["small"])
            targets.append([name, f"solve+unique median over them <= {SMALL_MS:g} ms (issue 20)", f"{small:.1f}",
                            "met" if small <= SMALL_MS else "MISSED"])
        if m["unique"]:
            targets.append([name, f"solve+unique max over all {len(m['unique'])} <= {LARGE_MS:g} ms (issue 20)",
                            f"{max(m['unique']):.1f}", "met" if max(m["unique"]) <= LARGE_MS else "MISSED"])
    table("satgrid and puzzlekit per genre (wall ms, median / max)",
          ["genre", "puzzles", "ok", "solve", "solve+unique", "audit", "puzzlekit solve", "pk ok"], rows)
    table("targets", ["genre", "target", "measured ms", "verdict"], targets)


if __name__ == "__main__":
    main()
