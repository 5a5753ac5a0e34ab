"""A correctness sweep: every published puzzle we hold, through every road, against its published
solution.

Collections: ``$SATGRID_SHARED/external/`` (Norvig's lists, a seeded sample of Royle's 17-clue
Sudokus, janko.at's 16x16 Sudokus, Nurikabes and Slitherlinks, and every
``genres/puzzlekit_<genre>.txt`` whose genre satgrid reads) and ``$SATGRID_SHARED/data/``.
Roads (see ``ROADS``): the default ``api.solve(unique=True)`` with and without a time limit, the
eager lowering, the connectivity propagator on cadical195 and cadical300, other embedded solvers
and the external binaries on a sample, the eager DIMACS export solved by a binary and its model
decoded back (``satgrid encode --dimacs`` / ``satgrid decode``: :mod:`satgrid.dimacs`), and audits
(``redundant_clues``) compared between the lazy and eager lowerings on a sample. A sample of each
puz.link genre's answers is also judged by the puz.link engine (``tests/pzpr_engine.py``).

An answer *agrees* when it passes the genre's checker (every road's answer does, or it raises),
equals the published solution, and is proved unique where the collection says uniqueness is
established; *unknown* is a limit reached (or uniqueness left open by one); anything else (another
solution, UNSAT, "multiple" for an established-unique puzzle, an exception) *disagrees*.

Times are CPU seconds of this process and its children (``time.process_time`` plus the children's
``os.times``), as the machine is shared; wall seconds beside them.

    nice -n 10 python bench/sweep_published.py [--limit 10] [--royle 200] [--sample 5] ...
"""
from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import drop_sessions, table  # noqa: E402
from satgrid import api, dimacs  # noqa: E402
from satgrid.errors import SatgridError  # noqa: E402
from satgrid.formats import pzprv3  # noqa: E402
from satgrid.registry import GENRES  # noqa: E402
from tests import pzpr_engine  # noqa: E402

SHARED = Path(os.environ.get("SATGRID_SHARED", ROOT.parent / "shared"))
EXTERNAL, DATA = SHARED / "external", SHARED / "data"


@dataclass
class Item:
    """One published puzzle: its collection, the puzzle (carrying the published solution as its
    given solution, when the collection has one) and what the collection says of uniqueness:
    "unique", "multiple" or None (not established)."""

    collection: str
    puzzle: Any
    expect: str | None
    index: int = 0

    @property
    def id(self) -> str:
        return self.puzzle.name or str(self.puzzle.source)

    @property
    def cells(self) -> int:
        return self.puzzle.rows * self.puzzle.cols

    @property
    def published(self) -> Any:
        given = self.puzzle.given_solution
        return None if given is None else given.solution


@dataclass
class Outcome:
    verdict: str  # agreed, disagreed, unknown, multiple (not established unique; both checked)
    why: str = ""
    cpu: float = 0.0
    wall: float = 0.0
    solution: Any = None
    second: Any = None
    redundant: Any = None


# -- collections ---------------------------------------------------------------------------------
def _uniqueness(path: Path) -> dict[str, str | None]:
    """``puzzle <id>`` -> "unique" for blocks whose ``unique:`` line says yes (None otherwise)."""
    said: dict[str, str | None] = {}
    name = None
    for line in path.read_text().splitlines():
        if line.startswith("puzzle "):
            name = line.split(None, 1)[1].strip()
            said[name] = None
        elif line.startswith("unique:") and name is not None:
            said[name] = "unique" if line.split(":", 1)[1].strip().startswith("yes") else None
    return said


def _sudoku_block(name: str, givens: str, solution: str) -> str:
    n = int(len(givens) ** 0.5)
    rows = [" ".join(x if x not in "0." else "." for x in givens[r * n:(r + 1) * n]) for r in range(n)]
    sol = [" ".join(solution[r * n:(r + 1) * n]) for r in range(n)]
    return "\n".join([f"puzzle {name}", "genre: sudoku", "givens:", *rows, "solution:", *sol, "end", ""])


def _sudoku_lines(collection: str, path: Path, pick: Callable[[list], list] = lambda x: x) -> list[Item]:
    """A file of ``givens solution`` lines (``#`` comments), ``path``:line as each id."""
    lines = [(n, line.split()) for n, line in enumerate(path.read_text().splitlines(), 1)
             if line.strip() and not line.startswith("#")]
    items = []
    for n, (givens, solution, *_) in pick(lines):
        [p] = api.load_text(_sudoku_block(f"{path.stem}:{n}", givens, solution), str(path))
        items.append(Item(collection, p, "unique"))
    return items


def _hui(path: Path) -> list[Item]:
    """R. Hui's lines: ``name givens solution [multiple]  # source``."""
    items = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, givens, solution, *rest = line.split("#")[0].split()
        [p] = api.load_text(_sudoku_block(name, givens, solution), str(path))
        items.append(Item("data/sudoku/hui_j", p, "multiple" if "multiple" in rest else "unique"))
    return items


def _blocks(collection: str, path: Path, default: str | None) -> list[Item]:
    said = _uniqueness(path)
    return [Item(collection, p, said.get(p.name, default) if said else default) for p in api.load([str(path)])]


def collections(args: argparse.Namespace) -> dict[str, list[Item]]:
    found: dict[str, list[Item]] = {}
    rng = random.Random(args.seed)
    sud = EXTERNAL / "sudoku"
    for name in ("norvig_top95", "norvig_hardest"):
        found[f"sudoku/{name}"] = _sudoku_lines(f"sudoku/{name}", sud / f"{name}.txt")
    found["sudoku/royle_17clue (sample)"] = _sudoku_lines(
        "sudoku/royle_17clue (sample)", sud / "royle_17clue_solutions_sample.txt",
        lambda lines: sorted(rng.sample(lines, min(args.royle, len(lines)))))
    if args.royle_all:  # further puzzles of the whole list: no published solution, unique
        lines = [(n, line) for n, line in enumerate((sud / "royle_17clue.txt").read_text().splitlines(), 1)
                 if line.strip() and not line.startswith("#")]
        found["sudoku/royle_17clue (whole list)"] = [
            Item("sudoku/royle_17clue (whole list)",
                 api.load_text(f"puzzle royle:{n}\ngenre: sudoku\ngivens:\n{line.strip()}\nend\n")[0], "unique")
            for n, line in sorted(rng.sample(lines, args.royle_all))]
    for name, path in (("sudoku/janko_sudoku16", sud / "janko_sudoku16_sample.txt"),
                       ("nurikabe/janko", EXTERNAL / "nurikabe" / "janko_nurikabe_sample.txt"),
                       ("slitherlink/janko", EXTERNAL / "slitherlink" / "janko_slitherlink_sample.txt")):
        found[name] = _blocks(name, path, None)
    for path in sorted((EXTERNAL / "genres").glob("puzzlekit_*.txt")):
        try:
            puzzles = api.load([str(path)])
        except SatgridError:  # a genre satgrid does not read
            continue
        found[f"puzzlekit/{path.stem.split('_', 1)[1]}"] = [
            Item(f"puzzlekit/{path.stem.split('_', 1)[1]}", p, None) for p in puzzles]
    for path in sorted(DATA.glob("*/*.txt")):
        name = f"data/{path.parent.name}/{path.stem}"
        found[name] = _hui(path) if path.stem == "hui_j" else _blocks(name, path, "unique")
    if args.only:
        found = {k: v for k, v in found.items() if any(o in k for o in args.only)}
    if args.ids:
        found = {k: kept for k, v in found.items() if (kept := [i for i in v if i.id in args.ids])}
    for items in found.values():
        for i, item in enumerate(items):
            item.index = i
    return found


# -- judging -------------------------------------------------------------------------------------
def judge(item: Item, status: str, solution: Any, second: Any = None, note: str = "") -> Outcome:
    """The verdict on one answer (status as api.Result has it; solutions already checked)."""
    g, p, published = GENRES[item.puzzle.genre], item.puzzle, item.published
    if status in ("unknown",):
        return Outcome("unknown", note)
    if status == "unsatisfiable":
        return Outcome("disagreed", "UNSAT")
    differs = published is not None and solution is not None and bool(g.differences(p, solution, published))
    if status == "multiple":
        if item.expect == "unique":
            return Outcome("disagreed", "multiple, but established unique", solution=solution, second=second)
        return Outcome("agreed" if item.expect == "multiple" else "multiple", "", solution=solution, second=second)
    if differs:
        return Outcome("disagreed", f"{status}, differs from the published solution", solution=solution)
    if status == "solved" and item.expect is not None and note:
        return Outcome("unknown", note, solution=solution)  # uniqueness left open by a limit
    if item.expect == "multiple" and status == "unique":
        return Outcome("disagreed", "unique, but the collection shows several solutions", solution=solution)
    return Outcome("agreed", solution=solution)


def via_api(unique: bool = True, **options: Any) -> Callable[[Item, float], Outcome]:
    def road(item: Item, limit: float) -> Outcome:
        result = api.solve(item.puzzle, unique=unique, options=api.Options(time_limit=limit, **options))
        return judge(item, result.status, result.solution, result.second_solution, result.note)
    return road


def unlimited(item: Item, limit: float) -> Outcome:
    result = api.solve(item.puzzle, unique=True)
    return judge(item, result.status, result.solution, result.second_solution, result.note)


#: How each binary reads a DIMACS file and writes a model (minisat: a result file).
BINARIES = {"cadical": ["cadical", "-q"], "picosat": ["picosat"], "cryptominisat5": ["cryptominisat5", "--verb", "0"],
            "minisat": ["minisat", "-verb=0"]}


def dimacs_road(item: Item, limit: float) -> Outcome:
    """The eager export solved by one binary (by the item's index, in turn) and decoded back."""
    binary = sorted(BINARIES)[item.index % len(BINARIES)]
    export = dimacs.build(item.puzzle, "eager", "plain")
    with tempfile.TemporaryDirectory() as tmp:
        cnf, out = Path(tmp) / "p.cnf", Path(tmp) / "p.out"
        cnf.write_text(export.text)
        command = BINARIES[binary] + [str(cnf)] + ([str(out)] if binary == "minisat" else [])
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=limit)
        except subprocess.TimeoutExpired:
            return Outcome("unknown", f"{binary}: time limit")
        text = out.read_text() if binary == "minisat" else done.stdout
    answer = dimacs.read_model(text, binary)
    if answer.status != "sat":
        return Outcome("disagreed" if answer.status == "unsat" else "unknown", f"{binary}: {answer.status}")
    decoded = dimacs.decode_model(item.puzzle, answer.literals, "eager", "plain", None, binary)
    if decoded.problems:
        return Outcome("disagreed", f"{binary}: decoded model breaks a rule: {decoded.problems[0]}")
    out_ = judge(item, "solved", decoded.solution)
    out_.why = (out_.why + f" ({binary})").strip()
    return out_


def audit_road(item: Item, limit: float) -> Outcome:
    """Redundant clues by the lazy and by the eager lowering: the same set, or a disagreement."""
    found = []
    for lowering in ("lazy", "eager"):
        r = api.solve(item.puzzle, audit=True, grade=False,
                      options=api.Options(time_limit=limit, connectivity=lowering))
        if r.status != "unique" or r.redundant_clues is None:
            verdict = judge(item, r.status, r.solution, r.second_solution, r.note or "audit stopped")
            verdict.why = f"{lowering}: {verdict.why or r.status}"
            return verdict if verdict.verdict != "agreed" else Outcome("unknown", f"{lowering}: {r.note}")
        found.append(set(map(tuple, r.redundant_clues)))
    if found[0] != found[1]:
        return Outcome("disagreed", f"redundant clues differ: lazy only {sorted(found[0] - found[1])[:3]}, "
                                    f"eager only {sorted(found[1] - found[0])[:3]}")
    return Outcome("agreed", redundant=found[0])


@dataclass
class Road:
    name: str
    run: Callable[[Item, float], Outcome]
    #: Whether the road runs on an item (args, item, the outcomes so far).
    applies: Callable[[argparse.Namespace, Item, dict], bool] = lambda a, i, done: True


def _sample(a: argparse.Namespace, item: Item, done: dict) -> bool:
    return item.index % a.sample == 0


def _eager_size(a: argparse.Namespace, item: Item, done: dict) -> bool:
    return item.cells <= a.eager_cells


ROADS = [
    Road("default+limit", via_api()),
    # without a limit only where the limited road finished in under half its limit (so it ends)
    Road("default", unlimited, lambda a, i, done: done["default+limit"].verdict != "unknown"
         and done["default+limit"].wall < a.limit / 2),
    Road("eager", via_api(connectivity="eager"), _eager_size),
    Road("propagator/cadical195", via_api(connectivity="propagator", solver="cadical195")),
    Road("propagator/cadical300", via_api(connectivity="propagator", solver="cadical300")),
    *(Road(s, via_api(solver=s), _sample) for s in ("minisat22", "glucose4", "lingeling")),
    *(Road(f"external:{b}", via_api(solver=f"external:{b}"), _sample)
      for b in ("cadical", "minisat", "picosat", "cryptominisat5")),
    Road("dimacs eager -> binary -> decode", dimacs_road, lambda a, i, d: _sample(a, i, d) and _eager_size(a, i, d)),
    Road("audit lazy = eager", audit_road, lambda a, i, d: _sample(a, i, d) and i.cells <= a.audit_cells),
]


def timed(road: Road, item: Item, limit: float) -> Outcome:
    cpu0, kids0, wall0 = time.process_time(), os.times(), time.perf_counter()
    try:
        outcome = road.run(item, limit)
    except Exception as exc:  # noqa: BLE001 - every exception is a finding
        outcome = Outcome("disagreed", f"{type(exc).__name__}: {str(exc)[:200]}")
    kids1 = os.times()
    outcome.cpu = (time.process_time() - cpu0 + kids1.children_user - kids0.children_user
                   + kids1.children_system - kids0.children_system)
    outcome.wall = time.perf_counter() - wall0
    return outcome


# -- the puz.link engine -------------------------------------------------------------------------
def pzpr_verdicts(items: list[tuple[Item, Any, str]]) -> list[tuple[Item, str, str]]:
    """(item, which, "accepted" / "rejected: ..." / "not written: ..." / "no verdict: ...") for
    each (item, solution, which) through the engine (tests/pzpr_engine.py), in one node process
    ("no verdict": the engine lacks the puzzle type)."""
    texts, keep, out = [], [], []
    for item, solution, which in items:
        try:
            texts.append(pzprv3.write(item.puzzle, solution))
            keep.append((item, which))
        except Exception as exc:  # noqa: BLE001
            out.append((item, which, f"not written: {exc}"))
    if not texts:
        return out
    try:
        reports = pzpr_engine.reports(texts)
    except pzpr_engine.EngineError as exc:
        return out + [(item, which, f"engine failed: {str(exc)[:200]}") for item, which in keep]
    for (item, which), report in zip(keep, reports):
        if pzpr_engine.unknown_type(report):
            out.append((item, which, "no verdict: the engine lacks this puzzle type"))
        elif "error" in report:
            out.append((item, which, f"engine error: {report['error']}"))
        else:
            out.append((item, which, "accepted" if report["complete"] else f"rejected: {report['text']}"))
    return out


# -- the sweep -----------------------------------------------------------------------------------
def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--limit", type=float, default=10.0, help="seconds per puzzle and road")
    ap.add_argument("--royle", type=int, default=200, help="Royle puzzles drawn from the solutions sample")
    ap.add_argument("--royle-all", type=int, default=0, help="more Royle puzzles drawn from the whole list")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sample", type=int, default=5, help="the sampled roads take every Nth puzzle")
    ap.add_argument("--eager-cells", type=int, default=400, help="the eager roads' largest grid (cells)")
    ap.add_argument("--audit-cells", type=int, default=100, help="the audit road's largest grid (cells)")
    ap.add_argument("--pzpr", type=int, default=10, help="answers per puz.link collection for the engine")
    ap.add_argument("--only", nargs="*", help="collections whose name holds one of these")
    ap.add_argument("--roads", nargs="*", help="roads whose name holds one of these")
    ap.add_argument("--ids", nargs="*", help="only the puzzles of these ids")
    args = ap.parse_args()
    roads = [r for r in ROADS if not args.roads or r.name == "default+limit"
             or any(x in r.name for x in args.roads)]
    found = collections(args)
    engine_here = pzpr_engine.missing() is None
    print(f"# sweep: limit {args.limit:g} s, sample every {args.sample}, eager up to {args.eager_cells} "
          f"cells, audit up to {args.audit_cells} cells, Royle {args.royle}+{args.royle_all} (seed {args.seed})")
    if not engine_here:
        print(f"# the puz.link engine is not run: {pzpr_engine.missing()}")
    summary = []
    for name, items in found.items():
        stats: dict[str, dict] = defaultdict(lambda: {"run": 0, "agreed": 0, "disagreed": [], "unknown": [],
                                                      "multiple": [], "cpu": 0.0, "wall": 0.0, "worst": ""})
        for_pzpr: list[tuple[Item, Any, str]] = []
        for item in items:
            done: dict[str, Outcome] = {}
            for road in roads:
                if not road.applies(args, item, done):
                    continue
                out = done[road.name] = timed(road, item, args.limit)
                s = stats[road.name]
                s["run"] += 1
                if out.verdict == "agreed":
                    s["agreed"] += 1
                else:
                    s[out.verdict].append(item.id)
                if out.verdict in ("disagreed", "multiple"):
                    print(f"  {out.verdict.upper()} {name} {item.id} [{road.name}]: {out.why}", flush=True)
                if out.cpu > s["cpu"]:
                    s["cpu"], s["wall"], s["worst"] = out.cpu, out.wall, item.id
            base = done["default+limit"]
            pz = GENRES[item.puzzle.genre].part("PZPRV3") is not None
            if pz and engine_here and base.solution is not None and len({i.id for i, _, _ in for_pzpr}) < args.pzpr:
                for_pzpr.append((item, base.solution, "solution"))
                if base.second is not None:
                    for_pzpr.append((item, base.second, "second solution"))
        drop_sessions()
        rows = [[road, s["run"], s["agreed"], _ids(s["disagreed"]), _ids(s["unknown"]), _ids(s["multiple"]),
                 f"{s['cpu']:.2f}", f"{s['wall']:.2f}", s["worst"]] for road, s in stats.items()]
        if for_pzpr:
            verdicts = pzpr_verdicts(for_pzpr)
            bad = [f"{i.id} ({which}: {v})" for i, which, v in verdicts
                   if v != "accepted" and not v.startswith("no verdict")]
            none = [f"{i.id} ({which})" for i, which, v in verdicts if v.startswith("no verdict")]
            rows.append([f"puz.link engine ({pzpr_engine.NAME})", len(verdicts) - len(none),
                         len(verdicts) - len(none) - len(bad), _ids(bad),
                         f"{len(none)}: the engine lacks the type" if none else "", "", "", "", ""])
        table(f"{name}: {len(items)} puzzles", ["road", "run", "agreed", "disagreed", "unknown", "not unique",
                                              "worst cpu s", "its wall s", "worst puzzle"], rows)
        summary.append([name, len(items), sum(s["run"] for s in stats.values()),
                        sum(s["agreed"] for s in stats.values()),
                        sum(len(s["disagreed"]) for s in stats.values()),
                        sum(len(s["unknown"]) for s in stats.values()),
                        f"{max((s['cpu'] for s in stats.values()), default=0):.2f}"])
    table("all collections", ["collection", "puzzles", "answers", "agreed", "disagreed", "unknown",
                              "worst cpu s"], summary)


def _ids(ids: list[str], most: int = 4) -> str:
    if not ids:
        return "0"
    return f"{len(ids)}: " + ", ".join(ids[:most]) + (", ..." if len(ids) > most else "")


if __name__ == "__main__":
    main()
