"""Shared test helpers: the shared data folder and the block format's solutions."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

#: ``shared/`` stands beside the checkout (in CI too); SATGRID_SHARED points elsewhere.
SHARED = Path(os.environ.get("SATGRID_SHARED", Path(__file__).resolve().parents[2] / "shared"))
DATA = SHARED / "data"


def shared_file(*parts: str) -> Path:
    path = DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared data not found at {path}")
    return path


def first_report(output: str) -> dict:
    """The first report of a ``--format json`` output (one report, or a list of them)."""
    report = json.loads(output)
    return report[0] if isinstance(report, list) else report


def dimacs_decoded(runner: Any, path: Path, tmp_path: Path, solver: str = "cadical153") -> dict:
    """``satgrid encode --dimacs`` of a puzzle file, solved from the file alone, and the model
    read back by ``satgrid decode --format json``: the decode's report."""
    from pysat.formula import CNF
    from pysat.solvers import Solver

    from satgrid.cli import main

    cnf, model = tmp_path / f"{path.stem}.cnf", tmp_path / f"{path.stem}.model"
    out = runner.invoke(main, ["encode", str(path), "--dimacs", "-o", str(cnf)])
    assert out.exit_code == 0, out.output
    with Solver(name=solver, bootstrap_with=CNF(from_file=str(cnf)).clauses) as sat:
        assert sat.solve()
        model.write_text("s SATISFIABLE\nv " + " ".join(map(str, sat.get_model())) + " 0\n")
    out = runner.invoke(main, ["decode", str(path), str(model), "--format", "json"])
    assert out.exit_code == 0, out.output
    return first_report(out.output)


def engine_solutions(genre: Any, puzzle: Any, connectivity: str = "lazy", limit: int = 5000,
                     true_keys: list | None = None, solver: str | None = None) -> set:
    """Every solution of ``puzzle`` through the engine (a genre module's ``encode``, a session,
    the queries): solve, block the projection, solve again; each solution passes the genre's
    checker and none comes twice. ``true_keys``, if given, receives per solution the set of its
    primary variables' keys that are true. ``solver``: the session's (the default if None; the
    propagator lowering needs one that takes a propagator)."""
    from satgrid.queries import PuzzleQueries
    from satgrid.session import Session

    session = Session(genre.encode(puzzle), **({"solver_name": solver} if solver else {}), connectivity=connectivity)
    queries = PuzzleQueries(session, puzzle.clues())
    found: set = set()
    blockers: list = []
    while True:
        outcome = queries.solve(extra=blockers)
        if outcome.status == "unsat":
            return found
        assert outcome.status == "sat"
        solution = genre.decode(puzzle, session.encoding, outcome.assignment)
        assert genre.check(puzzle, solution) == [] and solution not in found
        found.add(solution)
        assert len(found) <= limit
        if true_keys is not None:
            true_keys.append({k for k, v in session.encoding.primary.items() if outcome.assignment(v)})
        blockers.append(queries.blocker(queries.project(outcome.assignment)))


def deadline_after(monkeypatch: Any, checks: int) -> None:
    """Make an explanation's deadline (:class:`satgrid.explain.Reasoner`) pass after ``checks``
    of its checks (SAT calls, propagations, CEGAR rounds), whatever the clock says."""
    from satgrid.explain import Reasoner

    seen = {"n": 0}
    in_time = Reasoner._in_time

    def counted(self: Any) -> None:
        seen["n"] += 1
        if seen["n"] > checks:
            self.deadline = 0.0  # passed
        in_time(self)

    monkeypatch.setattr(Reasoner, "_in_time", counted)


def run_pzpr(items: list[str]) -> list[dict]:
    """The puz.link engine's reports on ``items`` (tests.pzpr_engine): skips without node, fails
    when node is here but pzpr is not installed."""
    from . import pzpr_engine

    if pzpr_engine.NODE is None:
        pytest.skip(pzpr_engine.missing())
    if pzpr_engine.missing() is not None:
        pytest.fail(pzpr_engine.missing())
    return pzpr_engine.reports(items, timeout=300)


def sleeping_binary(folder: Path) -> Path:
    """An executable ``folder/slowsat`` that sleeps a minute: a SAT binary that never answers."""
    binary = folder / "slowsat"
    binary.write_text("#!/bin/sh\nsleep 60\n")
    binary.chmod(0o755)
    return binary


def running(path: Path) -> list[int]:
    """The processes whose command line holds ``path`` (read from /proc)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if str(path) in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace"):
                found.append(int(pid))
        except OSError:  # gone meanwhile
            pass
    return found


def layer_solutions(encoding: Any, name: str) -> set[frozenset]:
    """Every solution of ``encoding`` (a vocabulary rule's model, built) as the set of cells true
    in its layer ``name``: solve, block that set, solve again; no set comes twice."""
    from satgrid.model import read
    from satgrid.session import Session

    lits = encoding.layers[name]
    session = Session(encoding)
    found: set[frozenset] = set()
    try:
        while True:
            outcome = session.solve([])
            if outcome.status != "sat":
                return found
            true = frozenset(p for p, v in read(encoding, name, outcome.assignment).items() if v)
            assert true not in found
            found.add(true)
            session.add([[-lits[p] if p in true else lits[p] for p in lits]])
    finally:
        session.close()


# -- explanations: the test's own check of a reason ----------------------------------------------
def satisfiable(puzzle, clues, rules, facts, negated=None) -> bool:
    """Whether the genre's rules named ``rules``, the clues ``clues``, the facts ``facts`` (and
    the fact ``negated`` false) have a solution (:class:`Consistency`)."""
    with Consistency(puzzle, clues, rules, facts) as check:
        return check(negated)


def assert_minimal_for_level(puzzle, clues, rules, facts, fact, level, label: str = "",
                             proving=None) -> None:
    """A reason (``clues``, rule names ``rules``, earlier ``facts``) of ``fact`` at ``level``
    forces the fact (the test's own SAT calls, :class:`Consistency`), and no element can go: at
    level 2 still so by SAT (a minimal unsatisfiable subset), at levels 0 and 1 still so by the
    level's own propagation (with the rules' cuts, in a fresh explanation session).

    Propagation also uses the cuts a session has learnt (each a consequence of its rule alone),
    so it only gets stronger as a session goes on: ``proving``, the session that gave the
    reason (or one that has gone further), must prove the step from the reason; a fresh session
    (no stronger than the one that gave it) must not prove it from any smaller part."""
    from satgrid.explain import Reasoner

    elements = [("clue", k) for k in clues] + [("rule", r) for r in rules] + [("fact", f) for f in facts]

    def forced(left) -> bool:
        return not satisfiable(puzzle, [k for kind, k in left if kind == "clue"],
                               [k for kind, k in left if kind == "rule"],
                               [k for kind, k in left if kind == "fact"], fact)

    assert forced(elements), label
    if level == 2:
        for drop in elements:
            assert not forced([e for e in elements if e != drop]), f"{label}: {drop} is not needed"
        return
    def proved(reasoner, left) -> bool:
        lits = {("clue", k): x for k, x in reasoner.clue_lits.items()}
        lits.update((("rule", r), x) for r, x in reasoner.rule_lits.items())
        lits.update((("fact", f), reasoner.lit(f)) for f in facts)
        chosen, target = [lits[e] for e in left], reasoner.lit(fact)
        if level == 0:
            ok, fixed = reasoner.propagated(chosen)
            return ok and target in fixed
        return not reasoner.propagated(chosen, [-target])[0]

    fresh = Reasoner(puzzle)
    try:
        assert proved(proving or fresh, elements), label
        for drop in elements:
            assert not proved(fresh, [e for e in elements if e != drop]), f"{label}: {drop} is not needed"
    finally:
        fresh.close()


class Consistency:
    """The test's own solver and CEGAR loop for the genre's rules named ``rules``, the clues
    ``clues`` and the facts ``facts``; called with a fact ``negated`` (or None), whether they
    and that fact false have a solution. One solver answers every call (the cuts follow from the
    rules alone). After 200 rounds the global rules' eager CNF goes in too: a relaxed reason's
    region sizes can take thousands of rounds of cuts."""

    def __init__(self, puzzle, clues, rules, facts):
        from pysat.solvers import Solver

        from satgrid.model import DEFINITIONS
        from satgrid.registry import GENRES
        from satgrid.solver import Assignment

        enc = self.enc = GENRES[puzzle.genre].encode(puzzle)
        rules = set(rules)
        clauses = [c for name, a, b in enc.spans
                   if name in DEFINITIONS or name in rules or name.split(": ", 1)[0] in rules
                   for c in enc.clauses[a:b]]
        self.active = [rule for rule in enc.rules if rule.name in rules]
        for rule in self.active:
            clauses += rule.clauses(enc.pool)
        given = puzzle.clues()
        self.lits = [enc.primary[k] if v else -enc.primary[k] for k, v in facts]
        for key in clues:  # behind its selector, assumed: rules tied to the clue see it on
            clue = enc.encode_clue(key, given[key])
            clauses += clue.switched
            self.lits.append(clue.selector)
        self.sat = Solver(name="cadical153", bootstrap_with=clauses)
        self.assignment = Assignment
        self.rounds = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.sat.delete()

    def __call__(self, negated=None) -> bool:
        enc, sat, lits = self.enc, self.sat, list(self.lits)
        if negated is not None:
            key, value = negated
            lits.append(-enc.primary[key] if value else enc.primary[key])
        while True:
            self.rounds += 1
            if self.rounds == 200:
                for rule in self.active:
                    sat.append_formula(rule.eager_clauses(enc.pool))
            if not sat.solve(assumptions=lits):
                return False
            value = self.assignment(sat.get_model())
            cuts = [cut for rule in self.active for cut in rule.cuts(value, enc.pool)]
            if not cuts:
                return True
            for cut in cuts:
                sat.append_formula(cut)


def one(text: str, genre: str | None = None):
    """The one puzzle (with its solution, if any) that ``text`` holds, read in any format."""
    from satgrid import formats

    [loaded] = formats.read_with_solutions(text, "<t>", genre)
    return loaded


def bundled(name: str) -> list:
    """The bundled example puzzles of genre ``name`` (``satgrid/data``)."""
    from importlib import resources

    from satgrid import api
    from satgrid.registry import GENRES

    return api.load([str(resources.files("satgrid") / "data" / GENRES[name].examples)])
