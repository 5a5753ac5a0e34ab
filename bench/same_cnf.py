"""The guard of a change that must leave the CNF alone: fingerprints of every encoding, clue
encoding, DIMACS export and solver conversation, in an old revision and the working tree.

    .venv/bin/python bench/same_cnf.py --old REV [--quick]     # compare; exit 1 on a difference
    .venv/bin/python bench/same_cnf.py --tree PATH [--quick]   # print one tree's fingerprints

Per puzzle (every genre's bundled examples; bench/data's puzzles; with ``SATGRID_SHARED``, the
janko.at Nurikabe and Slitherlink samples, the J-essay Nurikabes and the first puzzles of each
puzzlekit genre file) a SHA-256 of:

- ``encoding``: the base clauses, spans, primary variables, ``block_true_only``, every global
  rule's always-on clauses, then each clue's selector, clauses, broken clauses and anchor, with
  the pool's top after each, and at the end every key of the pool with its number;
- ``eager`` (grids of up to 100 cells): the eager clauses of every global rule, on a new encoding;
- ``dimacs`` (bundled examples): the DIMACS export (text and variable map), eager with plain
  clues and lazy with clues behind selectors;
- ``stream`` (up to 100 cells, the J essay, bench/data's 10x10s, Nurikabe 10x10s with 1 and 5
  clues removed, four generated 10x10 Nurikabes): every clause handed to a solver in order, every
  assumption list and every answer, for a fresh solve + unique (and the ambiguity report or the
  generator where named); ``audit`` (bundled examples of up to 100 cells): the same for an
  audit with its grade on a new session (the grading ladder's cuts on partial assignments).

Both trees run this file (the working tree's copy), so only the package differs. The old tree is
``git archive``'d into a temporary folder, as ``bench/old_vs_new.py`` does.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("SATGRID_SHARED", ROOT.parent / "shared"))
SMALL = 100  # cells: grids this small also get their eager clauses and a solver conversation


class Digest:
    def __init__(self) -> None:
        self.h = hashlib.sha256()

    def __call__(self, *items: object) -> None:
        for item in items:
            self.h.update(repr(item).encode())
            self.h.update(b"\n")

    def hex(self) -> str:
        return self.h.hexdigest()[:20]


def encoding_digest(g, puzzle) -> str:
    d = Digest()
    enc = g.encode(puzzle)
    d(enc.clauses, enc.spans, sorted(enc.primary.items(), key=lambda kv: kv[1]), enc.block_true_only)
    for rule in enc.rules:
        d(type(rule).__name__, getattr(rule, "name", None), rule.clauses(enc.pool))
    for key, value in puzzle.clues().items():
        clue = enc.encode_clue(key, value)
        anchor = clue.anchor if clue.anchor is None else (clue.anchor[0], sorted(clue.anchor[1]))
        d(key, value, clue.selector, [list(c) for c in clue.clauses], [list(c) for c in clue.broken], anchor,
          enc.pool.top)
    d(sorted(enc.pool.idpool.obj2id.items(), key=lambda kv: kv[1]), enc.pool.top)
    return d.hex()


def eager_digest(g, puzzle) -> str:
    d = Digest()
    enc = g.encode(puzzle)
    for rule in enc.rules:
        d(rule.clauses(enc.pool), rule.eager_clauses(enc.pool))
    d(enc.pool.top)
    return d.hex()


def dimacs_digest(puzzle, tmp: Path) -> str:
    from satgrid import dimacs

    d = Digest()
    for connectivity, clues in (("eager", "plain"), ("lazy", "selectors")):
        export = dimacs.build(puzzle, connectivity, clues)
        path = dimacs.write(export, tmp / "export.cnf")
        d(path.read_bytes(), *(p.read_bytes() for p in sorted(tmp.iterdir()) if p != path))
        for p in tmp.iterdir():
            p.unlink()
    return d.hex()


class Recorder:
    """Records what every embedded solver is told and answers (patched into the tree's class)."""

    def __init__(self) -> None:
        from satgrid import solver

        self.cls = solver.EmbeddedSolver
        self.add, self.solve = self.cls.add, self.cls.solve
        self.digest: Digest | None = None
        recorder = self

        def add(inner, clauses):
            clauses = [list(c) for c in clauses]
            if recorder.digest is not None:
                recorder.digest("add", clauses)
            return recorder.add(inner, clauses)

        def solve(inner, assumptions=()):
            answer = recorder.solve(inner, assumptions)
            if recorder.digest is not None:
                recorder.digest("solve", list(assumptions), answer)
            return answer

        self.cls.add, self.cls.solve = add, solve

    def run(self, fn) -> str:
        self.digest = Digest()
        try:
            self.digest("result", fn())
        finally:
            digest, self.digest = self.digest, None
        return digest.hex()


def fresh_unique(g, puzzle):
    from satgrid.queries import PuzzleQueries
    from satgrid.session import Session

    session = Session(g.encode(puzzle))
    queries = PuzzleQueries(session, puzzle.clues())
    first = queries.solve()
    out = [first.status]
    if first.status == "sat":
        out.append(queries.other_solution(queries.project(first.assignment)).status)
    session.close()
    return out


def removed(puzzle, k: int, seed: int):
    clues = puzzle.clues()
    for key in random.Random(seed).sample(sorted(clues), k):
        del clues[key]
    return puzzle.with_clues(clues)


def fingerprints(tree: Path, quick: bool) -> list[str]:
    sys.path.insert(0, str(tree))
    from satgrid import api
    from satgrid.registry import GENRES

    recorder = Recorder()
    lines = []

    def drop_sessions() -> None:
        while api._SESSIONS:
            _, (_, session) = api._SESSIONS.popitem()
            session.close()

    def emit(label: str, part: str, value: str) -> None:
        lines.append(f"{label} {part} {value}")
        print(lines[-1], flush=True)

    def puzzles_of(path: Path, count: int | None = None, cells: int | None = None) -> list:
        if not path.exists():
            return []
        puzzles = api.load([str(path)])
        if cells is not None:
            puzzles = [p for p in puzzles if p.rows * p.cols <= cells]
        return puzzles[:count]

    def check(label: str, puzzle, stream: bool, dimacs: bool = False) -> None:
        g = GENRES[puzzle.genre]
        label = f"{puzzle.genre}:{label}:{puzzle.name}:{puzzle.rows}x{puzzle.cols}".replace(" ", "_")
        emit(label, "encoding", encoding_digest(g, puzzle))
        small = puzzle.rows * puzzle.cols <= SMALL
        if small:
            emit(label, "eager", eager_digest(g, puzzle))
        if dimacs:
            with tempfile.TemporaryDirectory() as tmp:
                emit(label, "dimacs", dimacs_digest(puzzle, Path(tmp)))
        if stream or small:
            emit(label, "stream", recorder.run(lambda: fresh_unique(g, puzzle)))
        if dimacs and small:  # an audit with its grade (the ladder's partial cuts) on a new session
            drop_sessions()
            emit(label, "audit", recorder.run(lambda: (lambda r: (r.status, r.redundant_clues, r.grade))(
                api.solve(puzzle, audit=True))))

    for name in sorted(GENRES):
        for puzzle in puzzles_of(ROOT / "satgrid" / "data" / f"{name}.txt"):
            check("example", puzzle, True, dimacs=True)
    for path in sorted((ROOT / "bench" / "data").glob("*.txt")):
        for puzzle in puzzles_of(path, 2 if quick else 5):
            check(path.stem, puzzle, puzzle.rows * puzzle.cols <= 100)
    essay = puzzles_of(SHARED / "data" / "nurikabe" / "jwiki.txt")
    for puzzle in essay:
        check("essay", puzzle, True)
    janko = SHARED / "external"
    for puzzle in puzzles_of(janko / "nurikabe" / "janko_nurikabe_sample.txt", 40 if quick else None):
        check("janko", puzzle, False)
    for puzzle in puzzles_of(janko / "slitherlink" / "janko_slitherlink_sample.txt", 20 if quick else 60,
                             cells=400):
        check("janko", puzzle, False)
    for path in sorted((janko / "genres").glob("puzzlekit_*.txt")):
        try:
            found = puzzles_of(path, 3 if quick else 8, cells=400)
        except Exception:  # a genre satgrid does not have
            continue
        for puzzle in found:
            check(path.stem, puzzle, False)
    # the ambiguity reports' puzzles (bench_ambiguity.py --report) and the generator
    from satgrid.ambiguity import report

    tens = puzzles_of(ROOT / "bench" / "data" / "nurikabe_10x10.txt", 5) + \
        [p for p in puzzles_of(janko / "nurikabe" / "janko_nurikabe_sample.txt") if (p.rows, p.cols) == (10, 10)][:5]
    for puzzle in tens[:3] if quick else tens:
        for k in (1, 5):
            for seed in range(1 if quick else 3):
                edited = removed(puzzle, k, seed)
                drop_sessions()
                label = f"nurikabe:report-{k}-{seed}:{puzzle.name}"
                emit(label, "stream", recorder.run(lambda: (lambda r: (r.status, r.count, sorted(r.undecided)))(
                    report(edited))))
    from satgrid.genres.nurikabe import generator

    for seed in range(2 if quick else 4):
        drop_sessions()
        emit(f"nurikabe:generate-10x10:{seed}", "stream",
             recorder.run(lambda: generator.make(10, 10, random.Random(seed)).puzzle.grid))
    return lines


def compare(old: str, quick: bool) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        sys.path.insert(0, str(ROOT))
        from bench.common import export

        tree = export(old, Path(tmp))
        runs = {}
        for label, where in (("old", tree), ("new", ROOT)):
            done = subprocess.run([sys.executable, __file__, "--tree", str(where), *(["--quick"] if quick else [])],
                                  capture_output=True, text=True, cwd=where)
            if done.returncode != 0:
                raise SystemExit(f"{label} tree failed:\n{done.stderr}")
            runs[label] = done.stdout.splitlines()
    old_lines, new_lines = runs["old"], runs["new"]
    differ = [(a, b) for a, b in zip(old_lines, new_lines) if a != b]
    for a, b in differ[:20]:
        print(f"old: {a}\nnew: {b}")
    same = len(old_lines) == len(new_lines) and not differ
    parts = {}
    for line in new_lines:
        part = line.split()[1]
        parts[part] = parts.get(part, 0) + 1
    print(f"{len(new_lines)} fingerprints ({', '.join(f'{n} {p}' for p, n in sorted(parts.items()))}): "
          + ("all identical" if same else f"{len(differ)} differ, {len(old_lines)} old lines, {len(new_lines)} new"))
    return 0 if same else 1


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--old", help="revision to compare the working tree with")
    parser.add_argument("--tree", help="print the fingerprints of the package in this tree")
    parser.add_argument("--quick", action="store_true", help="fewer puzzles")
    args = parser.parse_args()
    if args.tree:
        fingerprints(Path(args.tree), args.quick)
    elif args.old:
        raise SystemExit(compare(args.old, args.quick))
    else:
        parser.error("give --old REV or --tree PATH")


if __name__ == "__main__":
    main()
