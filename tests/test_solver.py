"""The solver layer and Session: names, limits ("unknown", never an exception), reuse afterwards."""
from __future__ import annotations

import dataclasses
import itertools
import math
import time

import pytest
import pysat.solvers

from satgrid.cnf import VarPool, at_least, at_most, guarded
from satgrid.connectivity import ConnectedSubgraph
from satgrid.encoding import Encoding
from satgrid.errors import SatgridError, SolverError
from satgrid.session import Session
from satgrid.propagator import PROPAGATOR_SOLVERS
from satgrid.solver import Assignment, EmbeddedSolver, embedded_solver_names

#: Solvers with python-sat's ``interrupt`` (a timer stops them) and without it (CaDiCaL: the time
#: limit runs as conflict-budget slices).
LIMITED_SOLVERS = ["cadical153", "cadical195", "cadical300", "glucose4", "minisat22", "minisat-gh", "maplechrono"]


def pigeonhole(pigeons: int, holes: int):
    """PHP(pigeons, holes) with the last pigeon's "needs a hole" clause behind a selector.

    With the selector assumed and more pigeons than holes it is UNSAT and hard for resolution;
    without it, easy and satisfiable.
    """
    pool = VarPool()
    x = {(p, h): pool.var("in", p, h) for p in range(pigeons) for h in range(holes)}
    last = pool.var("last pigeon")
    clauses = []
    for p in range(pigeons):
        needs = at_least([x[p, h] for h in range(holes)], 1, pool)
        clauses += guarded(needs, last) if p == pigeons - 1 else needs
    for h in range(holes):
        clauses += at_most([x[p, h] for p in range(pigeons)], 1, pool)
    encoding = Encoding(pool, clauses, {("in", *k): v for k, v in x.items()}, _no_clue)
    return encoding, x, last


def _no_clue(key, value):
    raise AssertionError("no clues here")


def valid_placement(x, assignment: Assignment, pigeons: int, holes: int) -> bool:
    per_hole = [sum(assignment(x[p, h]) for p in range(pigeons)) for h in range(holes)]
    placed = [sum(assignment(x[p, h]) for h in range(holes)) for p in range(pigeons - 1)]
    return max(per_hole) <= 1 and min(placed) >= 1


def test_unknown_solver_name_lists_the_known_ones() -> None:
    with pytest.raises(SolverError) as caught:
        Session(pigeonhole(2, 2)[0], "minisat99")
    message = str(caught.value)
    assert "minisat99" in message
    for known in ("cadical153", "glucose4", "minisat22", "lingeling"):
        assert known in message
    assert isinstance(caught.value, SatgridError)
    assert set(embedded_solver_names()) >= {"cadical153", "cd15", "kissat404", "m22"}


@pytest.mark.parametrize("name", ["kissat404", "kissat", "ks4"])
def test_kissat_is_refused_for_incremental_use(name: str) -> None:
    with pytest.raises(SolverError, match=r"kissat.*assumptions.*one-shot"):
        Session(pigeonhole(2, 2)[0], name)


def test_solver_without_its_package_is_a_solver_error() -> None:
    if pysat.solvers.cms_present:
        pytest.skip("pycryptosat is installed here")
    with pytest.raises(SolverError, match="pycryptosat"):
        EmbeddedSolver("cryptominisat5")


def test_bad_connectivity_mode() -> None:
    with pytest.raises(SolverError, match="lazy, eager, propagator"):
        Session(pigeonhole(2, 2)[0], connectivity="sometimes")  # type: ignore[arg-type]


@pytest.mark.parametrize("name", LIMITED_SOLVERS)
def test_conflict_limit_gives_unknown_and_the_session_goes_on(name: str) -> None:
    encoding, x, last = pigeonhole(10, 9)
    session = Session(encoding, name, conflict_limit=1)
    assert session.solve([last]).status == "unknown"
    assert session.solve([last]).status == "unknown"  # again: no exception, no stale state
    # Queries settled by propagation alone need no conflict: the session still answers them.
    diagonal = [x[p, p] for p in range(9)]
    outcome = session.solve(diagonal)
    assert outcome.status == "sat" and valid_placement(x, outcome.assignment, 10, 9)
    assert session.solve([x[0, 0], x[1, 0]]).status == "unsat"
    assert session.stats.sat_calls == 4


@pytest.mark.parametrize("name", LIMITED_SOLVERS)
def test_time_limit_gives_unknown_and_the_session_goes_on(name: str) -> None:
    encoding, x, last = pigeonhole(10, 9)
    session = Session(encoding, name)
    session.set_time_limit(0.05)
    assert session.solve([last]).status == "unknown"
    session.set_time_limit(None)
    # the last pigeon off (a solver that branches on it first, maplechrono, would refute the
    # pigeonhole before it flips it: 40 s); a stale assumption of it would make this UNSAT
    outcome = session.solve([-last])
    assert outcome.status == "sat" and valid_placement(x, outcome.assignment, 10, 9)
    # A limit already used up answers "unknown" at once, even for an easy query.
    session.set_time_limit(-1.0)
    assert session.solve().status == "unknown"
    session.set_time_limit(30.0)  # a generous limit: easy queries are still answered
    assert session.solve([x[0, 0], -x[1, 1]]).status == "sat"
    assert session.solve([last, x[0, 0], x[1, 0]]).status == "unsat"


def with_free_region(encoding: Encoding) -> tuple[Encoding, ConnectedSubgraph]:
    """``encoding`` with one more rule: the true cells of a 2x2 grid of new variables are
    connected (a rule the connectivity propagator takes, on cells no clause mentions)."""
    pool = encoding.pool
    nodes = {(r, c): pool.var("free", r, c) for r in range(2) for c in range(2)}
    links = [((0, 0), (0, 1), None), ((1, 0), (1, 1), None), ((0, 0), (1, 0), None),
             ((0, 1), (1, 1), None)]
    rule = ConnectedSubgraph("free", nodes, links)
    return dataclasses.replace(encoding, rules=[*encoding.rules, rule]), rule


@pytest.mark.parametrize("name", PROPAGATOR_SOLVERS)
def test_time_limit_through_the_propagator(monkeypatch, name: str) -> None:
    """With the connectivity propagator a time limit ends the one SAT call through a stop
    literal (no conflict-budget slices); the session goes on, its answers right, also with a
    conflict limit beside the time limit."""
    monkeypatch.setattr(EmbeddedSolver, "_solve_in_slices", None)  # never sliced
    encoding, x, last = pigeonhole(11, 10)
    encoding, rule = with_free_region(encoding)
    for conflict_limit in (None, 10**6):
        session = Session(encoding, name, connectivity="propagator", conflict_limit=conflict_limit)
        assert session.propagator is not None
        for limit in (0.05, 0.2):
            session.set_time_limit(limit)
            started = time.monotonic()
            assert session.solve([last]).status == "unknown"
            assert time.monotonic() - started < limit + 20  # generous: the machine is shared
            assert session.stats.sat_calls == (1 if limit == 0.05 else 2)
        session.set_time_limit(30.0)
        outcome = session.solve([-last])
        assert outcome.status == "sat" and valid_placement(x, outcome.assignment, 11, 10)
        assert session.solve([last, x[0, 0], x[1, 0]]).status == "unsat"
        assert session.solver.core() in ([x[0, 0], x[1, 0]], [x[1, 0], x[0, 0]])
        # the two diagonal cells alone are not connected: UNSAT, under the time limit too
        diagonal = [rule.nodes[0, 0], rule.nodes[1, 1], -rule.nodes[0, 1], -rule.nodes[1, 0]]
        assert session.solve(diagonal).status == "unsat"
        assert session.solve(diagonal[:2]).status == "sat"
        session.close()


def test_solver_without_limits_says_so() -> None:
    """python-sat's lingeling has neither interrupt nor conflict budget: a time limit is kept
    between its calls only (and said so), a conflict limit is refused when it is opened."""
    encoding, _, last = pigeonhole(3, 2)
    session = Session(encoding, "lingeling")
    assert session.solve([last]).status == "unsat"  # no limit set: a plain solve
    assert session.solver.limit_note == ""
    session.set_time_limit(10.0)
    assert session.solve([last]).status == "unsat"
    assert "cannot interrupt a SAT call" in session.solver.limit_note
    session.set_time_limit(-1.0)  # past the deadline: no call is made
    assert session.solve([last]).status == "unknown"
    with pytest.raises(SolverError, match="lingeling takes no --conflict-limit"):
        Session(encoding, "lingeling", conflict_limit=10)


@pytest.mark.parametrize("name", ["cadical153", "glucose4", "minisat22", "maplechrono", "lingeling"])
def test_solvers_agree_on_the_number_of_placements(projections, name: str) -> None:
    """5 pigeons in 5 holes: 5! placements, whichever embedded solver enumerates them."""
    encoding, x, last = pigeonhole(5, 5)
    session = Session(encoding, name)
    found = projections(session, list(x.values()), [last])
    assert len(found) == math.factorial(5)
    expected = {
        tuple(perm[p] == h for p in range(5) for h in range(5))
        for perm in itertools.permutations(range(5))
    }
    assert found == expected
    # The enumeration's blocking clauses are switched off afterwards.
    assert session.solve([last]).status == "sat"
    assert session.solve([last, *(x[p, (p + 1) % 5] for p in range(5))]).status == "sat"


def test_assignment_reads_literals() -> None:
    value = Assignment([1, -2, 3])
    assert value(1) and not value(-1)
    assert not value(2) and value(-2)
    assert value(3) and not value(-3)
    assert not value(7) and value(-7)  # beyond the model: unset, read as false


def test_propagate() -> None:
    encoding, x, last = pigeonhole(3, 3)
    session = Session(encoding, "glucose4")
    ok, implied = session.propagate([x[0, 0]])
    assert ok and -x[1, 0] in implied and -x[2, 0] in implied
    ok, _ = session.propagate([x[0, 0], x[1, 0]])
    assert not ok


def test_tuned_options_name_embedded_solvers() -> None:
    from satgrid.solver import TUNED_OPTIONS, _canonical_name
    for name in TUNED_OPTIONS:
        assert _canonical_name(name) == name and name in embedded_solver_names()
        EmbeddedSolver(name).close()  # configure() is accepted on a new solver


@pytest.mark.parametrize("name", ["minisat22", "minisat-gh", "cadical153", "cadical195", "cadical300",
                                  "glucose4"])
def test_direct_clause_adder_is_found_and_answers_alike(name: str) -> None:
    """The solvers of DIRECT_ADD get python-sat's C clause adder (a change in python-sat's layout
    shows here, not as a silent fallback), and clauses added through it give the answers
    append_formula gives: PHP(4, 3) is UNSAT with the selector on, SAT without it."""
    encoding, _, last = pigeonhole(4, 3)
    clauses = encoding.clauses
    direct = EmbeddedSolver(name)
    assert direct._direct_add is not None
    plain = EmbeddedSolver(name)
    plain._direct_add = None
    for solver in (direct, plain):
        solver.add(clauses)
    assert [direct.solve([last]), direct.solve([])] == [plain.solve([last]), plain.solve([])] == [False, True]
    direct.close()
    plain.close()


@pytest.mark.parametrize("name", ["cadical153", "cadical195", "cadical300"])
def test_direct_solve_is_found_and_answers_alike(name: str) -> None:
    """The solvers of DIRECT_SOLVE get python-sat's C solve (cadical300 was missing), and its
    answers, models and cores are python-sat's wrapper's: PHP(4, 3) under its selector is UNSAT
    with the selector in the core, SAT without it."""
    encoding, _, last = pigeonhole(4, 3)
    direct = EmbeddedSolver(name)
    assert direct._direct_solve is not None
    plain = EmbeddedSolver(name)
    plain._direct_solve = None
    answers = []
    for solver in (direct, plain):
        solver.add(encoding.clauses)
        answers.append((solver.solve([last]), solver.core(), solver.solve([]), len(solver.model())))
        solver.close()
    assert answers[0] == answers[1] and answers[0][:3] == (False, [last], True)


INTERRUPTED_CHILD = r"""
import sys, time
from pysat.examples.genhard import PHP
from satgrid.errors import SolverError
from satgrid.solver import EmbeddedSolver

solver = EmbeddedSolver(sys.argv[1])
solver.add(PHP(12).clauses)  # far beyond the test's patience
print("solving", flush=True)
try:
    solver.solve()
    print("finished")
except KeyboardInterrupt:
    print("KeyboardInterrupt", solver.broken)
solver.add([[1, 2]])  # ignored, not an abort of the process
try:
    solver.solve()
except SolverError as exc:
    print("refused:", exc)
solver.close()
print("closed")
"""


@pytest.mark.parametrize("name", ["cadical153", "glucose4"])
def test_ctrl_c_in_a_solver_call_is_a_keyboard_interrupt_and_leaves_the_process_sound(tmp_path, name):
    """SIGINT while the C solver runs: KeyboardInterrupt (not python-sat's error), the solver
    marked broken, later calls refused in one line, and the process ends normally (CaDiCaL
    used to abort it with "invalid API usage" on the next call)."""
    import signal
    import subprocess
    import sys
    import time

    script = tmp_path / "child.py"
    script.write_text(INTERRUPTED_CHILD)
    proc = subprocess.Popen([sys.executable, str(script), name], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "solving"
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert out.splitlines() == ["KeyboardInterrupt True",
                                f"refused: solver {name} was interrupted (Ctrl-C) and cannot answer again",
                                "closed"], (out, err)
