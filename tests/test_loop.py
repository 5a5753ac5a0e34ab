"""SingleLoop, lazy and eager, against brute-force simple cycles of small dot grids."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from satgrid.cnf import VarPool
from satgrid.encoding import Encoding
from satgrid.loop import SingleLoop
from satgrid.session import Session

from .conftest import _projections

MODES = ["lazy", "eager"]
Dot = tuple[int, int]
Edge = tuple[Dot, Dot]


def dot_grid_edges(rows: int, cols: int) -> list[Edge]:
    """The edges of a grid of rows x cols dots."""
    edges = [((r, c), (r, c + 1)) for r in range(rows) for c in range(cols - 1)]
    edges += [((r, c), (r + 1, c)) for r in range(rows - 1) for c in range(cols)]
    return edges


def simple_cycles(edges: list[Edge]) -> set[frozenset[Edge]]:
    """Every simple cycle of the graph, as its edge set: paths from each start vertex through
    larger vertices only, closed back at the start (each cycle is met twice, once per direction)."""
    adjacent: dict[Dot, list[tuple[Dot, Edge]]] = {}
    for u, v in edges:
        adjacent.setdefault(u, []).append((v, (u, v)))
        adjacent.setdefault(v, []).append((u, (u, v)))
    cycles: set[frozenset[Edge]] = set()

    def extend(start: Dot, at: Dot, visited: set[Dot], path: list[Edge]) -> None:
        for nxt, edge in adjacent[at]:
            if nxt == start and len(path) >= 2 and edge not in path:
                cycles.add(frozenset([*path, edge]))
            elif nxt > start and nxt not in visited:
                visited.add(nxt)
                path.append(edge)
                extend(start, nxt, visited, path)
                path.pop()
                visited.remove(nxt)

    for start in adjacent:
        extend(start, start, {start}, [])
    return cycles


def loop_session(edges: list[Edge], mode: str, anchors=()) -> tuple[Session, dict[Edge, int], VarPool]:
    pool = VarPool()
    lits = {e: pool.var("edge", *e) for e in edges}
    rule = SingleLoop("loop", lits, pool, anchors=anchors(pool) if callable(anchors) else anchors)
    encoding = Encoding(pool, [], {("edge", *e): v for e, v in lits.items()}, _no_clue, [rule])
    return Session(encoding, connectivity=mode), lits, pool


def _no_clue(key, value):
    raise AssertionError("no clues here")


def loops_found(session: Session, lits: dict[Edge, int], assumptions=()) -> set[frozenset[Edge]]:
    edges = list(lits)
    return {
        frozenset(e for e, on in zip(edges, p) if on)
        for p in _projections(session, list(lits.values()), assumptions)
    }


def test_brute_force_cycle_counts() -> None:
    """The brute force itself: simple cycles of grid graphs P_n x P_n are 1, 13, 213 (OEIS A140517)."""
    assert [len(simple_cycles(dot_grid_edges(n, n))) for n in (2, 3, 4)] == [1, 13, 213]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("rows,cols", [(2, 2), (3, 3), (4, 4), (3, 5)])
def test_every_single_loop(mode: str, rows: int, cols: int) -> None:
    edges = dot_grid_edges(rows, cols)
    session, lits, _ = loop_session(edges, mode)
    assert loops_found(session, lits) == simple_cycles(edges)


def square(r: int, c: int) -> list[Edge]:
    """The four edges around the cell whose top-left dot is (r, c)."""
    return [((r, c), (r, c + 1)), ((r + 1, c), (r + 1, c + 1)), ((r, c), (r + 1, c)), ((r, c + 1), (r + 1, c + 1))]


@pytest.mark.parametrize("mode", MODES)
def test_broken_loops_are_refused(mode: str) -> None:
    edges = dot_grid_edges(4, 4)
    session, lits, _ = loop_session(edges, mode)

    def exactly_these(chosen: list[Edge]) -> str:
        return session.solve([lits[e] if e in chosen else -lits[e] for e in edges]).status

    assert exactly_these(square(0, 0)) == "sat"
    assert exactly_these(square(0, 0) + square(2, 2)) == "unsat"  # two loops
    assert exactly_these(square(0, 0) + square(1, 1)) == "unsat"  # figure of eight (degree 4)
    assert exactly_these(square(0, 0)[:3]) == "unsat"  # an open path (two degree-1 ends)
    assert exactly_these([]) == "unsat"  # the loop is not empty
    # Three edges at one dot (degree 3) on top of a loop.
    assert exactly_these([*square(0, 0), ((1, 1), (1, 2))]) == "unsat"
    # Two disjoint squares are refused even when only their edges are forced on.
    assert session.solve([lits[e] for e in square(0, 0) + square(2, 2)]).status == "unsat"
    # Corners far apart: the loop must join them, and only a single loop may come back.
    corners = [((0, 0), (0, 1)), ((0, 0), (1, 0)), ((2, 3), (3, 3)), ((3, 2), (3, 3))]
    outcome = session.solve([lits[e] for e in corners])
    assert outcome.status == "sat" and outcome.assignment is not None
    on = {e for e in edges if outcome.assignment(lits[e])}
    assert on in simple_cycles(edges) and set(corners) <= on


@pytest.mark.parametrize("mode", MODES)
def test_anchored_loops(mode: str) -> None:
    """``anchors``: when the literal holds, the loop passes through one of the given dots."""
    edges = dot_grid_edges(4, 4)
    through = [(1, 1), (3, 0)]
    session, lits, pool = loop_session(edges, mode, anchors=lambda pool: [(pool.var("via"), through)])
    via = pool.var("via")
    cycles = simple_cycles(edges)
    passing = {c for c in cycles if any(d in through for e in c for d in e)}
    assert loops_found(session, lits, [via]) == passing
    assert loops_found(session, lits, [-via]) == cycles


@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_random_subgraphs(data) -> None:
    """Loops of random subgraphs of a 4x4 dot grid, with some edges forced, in both modes."""
    edges = [e for e in dot_grid_edges(4, 4) if data.draw(st.integers(0, 5), label=str(e))]
    if not edges:
        return
    forced = data.draw(st.dictionaries(st.sampled_from(edges), st.booleans(), max_size=3), label="forced")
    expected = {c for c in simple_cycles(edges) if all((e in c) == on for e, on in forced.items())}
    for mode in MODES:
        session, lits, _ = loop_session(edges, mode)
        assumptions = [lits[e] if on else -lits[e] for e, on in forced.items()]
        assert loops_found(session, lits, assumptions) == expected, mode


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_loop_walk_finds_the_components_of_the_general_search(data) -> None:
    """Disjoint cycles of a 5x5 dot grid, as a solver model: the loop walk the lazy lowering
    uses finds the same loops as the connected rule's general component search."""
    from satgrid.solver import Assignment

    edges = dot_grid_edges(5, 5)
    cycles = sorted(simple_cycles(edges), key=sorted)
    chosen: set[Edge] = set()
    for cycle in data.draw(st.lists(st.sampled_from(cycles), max_size=4), label="cycles"):
        dots = {d for e in cycle for d in e}
        if not any(d in e for e in chosen for d in dots):  # vertex-disjoint from those kept
            chosen |= cycle
    pool = VarPool()
    lits = {e: pool.var("edge", *e) for e in edges}
    rule = SingleLoop("loop", lits, pool)
    model = [0] * pool.top
    for e, v in lits.items():
        model[v - 1] = v if e in chosen else -v
    value = Assignment(model)
    walked = rule._loops(value)
    assert walked is not None
    assert sorted(map(sorted, walked)) == sorted(map(sorted, rule.connected.component_indices(value)))
    assert [len(c) for c in walked] == sorted((len(c) for c in walked), reverse=True)
    assert bool(rule.cuts(value, pool)) == (len(walked) > 1)
    if chosen:  # a dangling edge is no model of the degree clauses: the walk gives up
        end = sorted(chosen)[0]
        model[lits[end] - 1] = -lits[end]
        assert rule._loops(Assignment(model)) is None
