"""The connectivity propagator (satgrid.propagator): solution sets against brute force and the
lazy and eager lowerings, every conflict and reason clause against networkx and brute force, and
Hitori/Nurikabe solved through the API as with the lazy lowering."""
from __future__ import annotations

import random

import networkx as nx
import pytest
from click.testing import CliRunner

from satgrid import api
from satgrid.cli import main
from satgrid.cnf import VarPool
from satgrid.connectivity import ConnectedSubgraph
from satgrid.encoding import Encoding
from satgrid.errors import SolverError
from satgrid.propagator import ConnectivityPropagator, _Rule, supports
from satgrid.session import Session

from .helpers import SHARED
from .test_connectivity import brute, brute_dot_grid, grid, masks, no_clue

SOLVER = "cadical195"
MODES = ("lazy", "eager", "propagator")


def region(rows: int, cols: int, anchor=None, negative: bool = False
           ) -> tuple[ConnectedSubgraph, VarPool]:
    """The rule "the true cells of a rows x cols grid are connected"; ``negative``: the node
    literals are negated variables (as Hitori's white cells are)."""
    pool = VarPool()
    cells, adjacent = grid(rows, cols)
    sign = -1 if negative else 1
    nodes = {cell: sign * pool.var("x", *cell) for cell in cells}
    return ConnectedSubgraph("region", nodes, [(u, v, None) for u, v in adjacent], anchor), pool


def session_of(rule: ConnectedSubgraph, pool: VarPool, mode: str) -> Session:
    return Session(Encoding(pool, [], {}, no_clue, [rule]), SOLVER, connectivity=mode)


@pytest.mark.parametrize("negative", [False, True])
@pytest.mark.parametrize("rows,cols", [(1, 1), (2, 2), (3, 3), (3, 4), (2, 5)])
def test_solution_sets_equal_brute_force_and_the_other_lowerings(projections, rows, cols, negative):
    cells, expected = brute(rows, cols)
    found = {}
    for mode in MODES:
        rule, pool = region(rows, cols, negative=negative)
        session = session_of(rule, pool, mode)
        found[mode] = masks(projections(session, list(rule.nodes.values())))
        if mode == "propagator":
            assert session.propagator is not None and session.lazy_rules == []
            assert session.stats.cegar_iterations == 0  # the propagator did the work
    assert found["propagator"] == found["lazy"] == found["eager"] == expected


@pytest.mark.parametrize("anchor", [(0, 0), (1, 2), (2, 3)])
def test_anchored_solution_sets(projections, anchor):
    """Anchored: the connected sets holding the anchor, and the empty set; under assumptions on
    the anchor, in one session (the propagator survives several solve calls)."""
    cells, expected = brute(3, 4)
    bit = 1 << cells.index(anchor)
    with_anchor = {m for m in expected if m & bit}
    for mode in MODES:
        rule, pool = region(3, 4, anchor=anchor)
        session = session_of(rule, pool, mode)
        lits = list(rule.nodes.values())
        assert masks(projections(session, lits)) == with_anchor | {0}, mode
        assert masks(projections(session, lits, [rule.nodes[anchor]])) == with_anchor, mode
        assert masks(projections(session, lits, [-rule.nodes[anchor]])) == {0}, mode


def test_rules_with_link_literals_stay_lazy(projections):
    """A rule whose links have literals is not the propagator's: it stays lazy, still exact."""
    pool = VarPool()
    dots, adjacent = grid(2, 3)
    nodes = {d: pool.var("dot", *d) for d in dots}
    edges = {(u, v): pool.var("edge", u, v) for u, v in adjacent}
    rule = ConnectedSubgraph("dots", nodes, [(u, v, lit) for (u, v), lit in edges.items()])
    assert not supports(rule)
    clauses = [[-lit, nodes[end]] for (u, v), lit in edges.items() for end in (u, v)]
    session = Session(Encoding(pool, clauses, {}, no_clue, [rule]), SOLVER, connectivity="propagator")
    assert session.propagator is None and session.lazy_rules == [rule]
    lits = [*nodes.values(), *edges.values()]
    assert projections(session, lits) == set(brute_dot_grid(2, 3, True))


# -- the clauses, against networkx and brute force ---------------------------------------------
def false_under(clause: list[int], lits: list[int], val: list[int]) -> bool:
    index = {lit: i for i, lit in enumerate(lits)}
    return all((lit in index and val[index[lit]] < 0) or (-lit in index and val[index[-lit]] > 0)
               for lit in clause)


def implied(clause: list[int], lits: list[int], solutions: set[int]) -> bool:
    """Whether ``clause`` holds in every solution mask: no solution has every node of a positive
    literal false and every node of a negative literal true (a literal of no node never holds)."""
    index = {lit: i for i, lit in enumerate(lits)}
    pos = sum(1 << index[lit] for lit in clause if lit in index)
    neg = sum(1 << index[-lit] for lit in clause if -lit in index)
    return not any(not m & pos and m & neg == neg for m in solutions)


def open_graph(rows: int, cols: int, val: list[int]) -> tuple[nx.Graph, list[tuple[int, int]]]:
    cells, adjacent = grid(rows, cols)
    g = nx.Graph()
    g.add_nodes_from(c for c, x in zip(cells, val) if x >= 0)
    g.add_edges_from((u, v) for u, v in adjacent if u in g and v in g)
    return g, cells


def rule_and_solutions(rows: int, cols: int, anchor=None, negative: bool = False):
    """:func:`region`'s rule, its cells, node literals and solution masks (brute force; anchored:
    the connected sets holding the anchor, and the empty set)."""
    rule, _ = region(rows, cols, anchor=anchor, negative=negative)
    cells, expected = brute(rows, cols)
    solutions = set(expected)
    if anchor is not None:
        bit = 1 << cells.index(anchor)
        solutions = {m for m in expected if m & bit} | {0}
    return rule, cells, list(rule.nodes.values()), solutions


@pytest.mark.parametrize("rows,cols,anchor", [(3, 3, None), (3, 4, None), (3, 3, (1, 1)),
                                              (3, 4, (0, 3)), (4, 4, None)])
def test_partial_assignments_against_networkx(rows, cols, anchor):
    """On random partial assignments: a conflict exactly when networkx finds the true cells split
    (anchored: a true cell away from the anchor's component) in the graph of cells not false;
    every conflict clause is false now and holds in every connected solution (brute force);
    exactly the open cells outside the true component are forced false (none while an anchor is
    false), each with a reason that holds in every solution and whose other literals are false
    now."""
    rule, cells, lits, solutions = rule_and_solutions(rows, cols, anchor)
    state = _Rule(rule)
    rng = random.Random(f"{rows}x{cols}{anchor}")
    conflicts = forcings = 0
    for gen in range(1, 600):
        p_false = rng.choice([0.2, 0.35, 0.5])
        p_true = rng.choice([0.1, 0.2, 0.3])
        val = [-1 if r < p_false else 1 if r > 1 - p_true else 0
               for r in (rng.random() for _ in cells)]
        conflict, forced, base = state.analyse(val, gen, True)
        g, _ = open_graph(rows, cols, val)
        true = [c for c, x in zip(cells, val) if x > 0]
        if anchor is None:
            seats = {frozenset(nx.node_connected_component(g, c)) for c in true}
            split = len(seats) > 1
            home = next(iter(seats)) if len(seats) == 1 else None
        else:
            # the anchor false: any true cell is a conflict, and (not done) nothing is forced
            home = nx.node_connected_component(g, anchor) if anchor in g else None
            split = any(home is None or c not in home for c in true)
        assert (conflict is not None) == split, (val, conflict)
        if conflict is not None:
            conflicts += 1
            assert false_under(conflict, lits, val)
            assert implied(conflict, lits, solutions)
            continue
        want = set() if home is None else {i for i, (c, x) in enumerate(zip(cells, val))
                                           if x == 0 and c not in home}
        assert set(forced) == want
        for i in forced:
            forcings += 1
            reason = [-lits[i], *base]
            assert false_under(base, lits, val)
            assert implied(reason, lits, solutions)
    assert conflicts > 50 and forcings > 50  # both kinds were tried


def test_clauses_given_to_the_solver_are_implied(projections):
    """In a live search (every solution enumerated, with and without assumptions): every clause
    the propagator gives the solver, conflict or reason, holds in every connected solution."""
    cells, expected = brute(3, 4)
    rule, pool = region(3, 4)
    lits = list(rule.nodes.values())
    session = session_of(rule, pool, "propagator")
    given: list[list[int]] = []
    propagator = session.propagator
    assert isinstance(propagator, ConnectivityPropagator)
    add_clause, provide_reason = propagator.add_clause, propagator.provide_reason

    def recording_add() -> list[int]:
        clause = add_clause()
        if clause:
            given.append(clause)
        return clause

    def recording_reason(lit: int) -> list[int]:
        clause = provide_reason(lit)
        assert clause[0] == lit
        given.append(clause)
        return clause

    propagator.add_clause = recording_add  # type: ignore[method-assign]
    propagator.provide_reason = recording_reason  # type: ignore[method-assign]
    assert masks(projections(session, lits)) == expected
    corner, far = rule.nodes[0, 0], rule.nodes[2, 3]
    assert masks(projections(session, lits, [corner, far, -rule.nodes[1, 1]])) == \
        {m for m in expected if m & 1 and m >> 11 & 1 and not m >> 5 & 1}
    assert len(given) > 10 and propagator.stats.conflicts > 0
    for clause in given:
        assert implied(clause, lits, set(expected)), clause


# -- through the API ---------------------------------------------------------------------------
@pytest.mark.parametrize("genre", ["hitori", "nurikabe"])
def test_bundled_puzzles_solve_as_with_lazy(genre):
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "satgrid" / "data" / f"{genre}.txt"
    for puzzle in api.load([str(path)]):
        lazy = api.solve(puzzle, unique=True, options=api.Options(solver=SOLVER))
        prop = api.solve(puzzle, unique=True, options=api.Options(solver=SOLVER, connectivity="propagator"))
        assert prop.status == lazy.status == "unique", puzzle.id
        assert prop.solution == lazy.solution


def test_audit_with_the_propagator_matches_lazy():
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "satgrid" / "data" / "hitori.txt"
    puzzle = api.load([str(path)])[0]
    lazy = api.solve(puzzle, audit=True, options=api.Options(solver=SOLVER), grade=False)
    prop = api.solve(puzzle, audit=True, options=api.Options(solver=SOLVER, connectivity="propagator"),
                     grade=False)
    assert prop.redundant_clues == lazy.redundant_clues
    assert prop.solution == lazy.solution


def test_other_solvers_are_refused_in_one_line(tmp_path):
    with pytest.raises(SolverError, match="needs solver cadical195"):
        api.Options(connectivity="propagator")
    rule, pool = region(2, 2)
    with pytest.raises(SolverError, match="needs solver cadical195"):
        Session(Encoding(pool, [], {}, no_clue, [rule]), "minisat22", connectivity="propagator")
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "satgrid" / "data" / "hitori.txt"
    result = CliRunner().invoke(main, ["solve", "--connectivity", "propagator", str(path)])
    assert result.exit_code != 0
    assert result.output.strip().splitlines() == [
        "satgrid: error: connectivity propagator needs solver cadical195 or cadical300 (python-sat's IPASIR-UP), "
        "not cadical153"]
    ok = CliRunner().invoke(main, ["solve", "--unique", "--connectivity", "propagator", "--solver",
                                   SOLVER, str(path)])
    assert ok.exit_code == 0 and "3 unique" in ok.output


# -- the incremental state, driven as the solver drives it --------------------------------------
@pytest.mark.parametrize("rows,cols,anchor,negative", [
    (3, 4, None, False), (4, 4, None, True), (3, 4, (1, 1), False)])
def test_callbacks_against_networkx(rows, cols, anchor, negative):
    """The callbacks driven as CaDiCaL drives them (decisions on new levels, the propagated
    literals assigned, backtracks to random levels after a conflict and at random, fixed literals
    at level 0, assigned literals told again as fixed above it): every conflict clause is false now and holds in every connected solution, every
    reason holds in every solution with its other literals false, and at each fixpoint the
    propagator is complete: true cells split in the open graph (networkx) give a conflict, and
    every open cell outside the true cells' component (the anchor's) is false or forced."""
    rule, cells, lits, solutions = rule_and_solutions(rows, cols, anchor, negative)
    rng = random.Random(f"callbacks {rows}x{cols}{anchor}{negative}")
    checked = {"conflict": 0, "forced": 0, "fixpoint": 0}
    for _ in range(40):
        prop = ConnectivityPropagator([rule])
        val = [0] * len(cells)  # the solver's view: 1 node true, -1 false
        level_of = [-1] * len(cells)
        level = 0

        def assign(i: int, truth: bool, fixed: bool = False) -> None:
            val[i] = 1 if truth else -1
            level_of[i] = level
            prop.on_assignment(lits[i] if truth else -lits[i], fixed)

        def backtrack(to: int) -> None:
            nonlocal level
            for i, lv in enumerate(level_of):
                if lv > to:
                    val[i], level_of[i] = 0, -1
            level = to
            prop.on_backtrack(to)

        for _ in range(rng.randint(0, 2)):  # units at level 0
            free = [i for i, x in enumerate(val) if x == 0]
            assign(rng.choice(free), rng.random() < 0.5, fixed=True)
        steps = 0
        while steps < 40 and 0 in val:
            steps += 1
            forced = prop.propagate()
            clause = prop.add_clause()
            if clause:
                checked["conflict"] += 1
                assert not forced
                assert false_under(clause, lits, val) and implied(clause, lits, solutions)
                backtrack(rng.randint(0, max(level - 1, 0)))
                continue
            if forced:
                for lit in forced:
                    reason = prop.provide_reason(lit)
                    i = lits.index(lit if lit in lits else -lit)
                    assert reason[0] == lit and val[i] == 0
                    assert false_under(reason[1:], lits, val) and implied(reason, lits, solutions)
                    checked["forced"] += 1
                for lit in forced:
                    assign(lits.index(lit if lit in lits else -lit), lit in lits)
                continue
            checked["fixpoint"] += 1
            g, _ = open_graph(rows, cols, val)
            true = [c for c, x in zip(cells, val) if x > 0]
            if anchor is None:
                homes = {frozenset(nx.node_connected_component(g, c)) for c in true}
                assert len(homes) <= 1, val
                home = next(iter(homes)) if homes else None
            else:
                home = nx.node_connected_component(g, anchor) if anchor in g else None
                assert all(home is not None and c in home for c in true), val
            if home is not None:
                assert all(x != 0 or c in home for c, x in zip(cells, val)), val
            if level and rng.random() < 0.1:  # an assigned literal becomes fixed (told again)
                i = rng.choice([i for i, lv in enumerate(level_of) if lv > 0] or [None])
                if i is not None:
                    level_of[i] = 0
                    prop.on_assignment(lits[i] if val[i] > 0 else -lits[i], True)
            if level and rng.random() < 0.2:
                backtrack(rng.randint(0, level - 1))
                continue
            level += 1
            prop.on_new_level()
            free = [i for i, x in enumerate(val) if x == 0]
            assign(rng.choice(free), rng.random() < 0.4)
    assert min(checked.values()) > 20, checked


def test_a_fixed_literal_of_a_variable_not_watched_is_ignored():
    """CaDiCaL 3.0.0 (python-sat's cadical300) tells the propagator of literals fixed at level 0
    whose variables it never observed (a clue cell's, fixed white, which is no node of the wall):
    ``on_assignment`` raised KeyError on them, and the solve failed (the sweep over the published
    puzzles, encodings/diagnostics.md). Such a literal says nothing about a node: it is ignored."""
    rule, pool = region(2, 2)
    prop = ConnectivityPropagator([rule])
    other = pool.var("y", 0)
    prop.on_assignment(-other, True)
    prop.on_assignment(other, True)
    assert prop.trail == [] and not prop.dirty and all(r.val == [0] * 4 for r in prop.rules)
    prop.on_assignment(rule.nodes[(0, 0)], True)  # a watched one still counts
    assert prop.rules[0].val[0] == 1


def test_a_published_puzzle_where_cadical300_tells_unobserved_literals():
    """The published puzzle (janko.at Nurikabe 988, 14x18, in the shared sample) on which the
    sweep found cadical300 telling the propagator of a clue cell's fixed literal (under a time
    limit: python-sat's solve_limited; its plain solve did not)."""
    path = SHARED / "external" / "nurikabe" / "janko_nurikabe_sample.txt"
    if not path.exists():
        pytest.skip(f"shared data not found at {path}")
    [puzzle] = [p for p in api.load([str(path)]) if p.name == "janko-nurikabe-0988"]
    found = api.solve(puzzle, unique=True, options=api.Options(solver="cadical300", connectivity="propagator",
                                                                time_limit=300))
    assert (found.status, found.given_solution) == ("unique", "matches")


def test_a_solver_without_propagators_names_those_that_take_one():
    """The refusal named cadical195 alone; cadical300 takes a propagator too."""
    from satgrid.solver import open_solver

    rule, _ = region(2, 2)
    sat = open_solver("minisat22")
    try:
        with pytest.raises(SolverError, match=r"takes no propagator \(python-sat's cadical195 and cadical300 do\)"):
            sat.connect_propagator(ConnectivityPropagator([rule]))
    finally:
        sat.close()
