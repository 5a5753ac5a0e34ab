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
#: (connectivity, the lazy cut form): both lazy cut forms, and the eager lowering.
LOWERINGS = [("lazy", "exit"), ("lazy", "whole"), ("eager", "exit")]
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


def loop_session(edges: list[Edge], mode: str, anchors=(), cut_form: str = "exit",
                 ) -> tuple[Session, dict[Edge, int], VarPool]:
    pool = VarPool()
    lits = {e: pool.var("edge", *e) for e in edges}
    rule = SingleLoop("loop", lits, pool, anchors=anchors(pool) if callable(anchors) else anchors,
                      cut_form=cut_form)  # type: ignore[arg-type]
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


@pytest.mark.parametrize("mode,cut_form", LOWERINGS)
@pytest.mark.parametrize("rows,cols", [(2, 2), (3, 3), (4, 4), (3, 5)])
def test_every_single_loop(mode: str, cut_form: str, rows: int, cols: int) -> None:
    edges = dot_grid_edges(rows, cols)
    session, lits, _ = loop_session(edges, mode, cut_form=cut_form)
    assert loops_found(session, lits) == simple_cycles(edges)


def square(r: int, c: int) -> list[Edge]:
    """The four edges around the cell whose top-left dot is (r, c)."""
    return [((r, c), (r, c + 1)), ((r + 1, c), (r + 1, c + 1)), ((r, c), (r + 1, c)), ((r, c + 1), (r + 1, c + 1))]


@pytest.mark.parametrize("mode,cut_form", LOWERINGS)
def test_broken_loops_are_refused(mode: str, cut_form: str) -> None:
    edges = dot_grid_edges(4, 4)
    session, lits, _ = loop_session(edges, mode, cut_form=cut_form)

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


@pytest.mark.parametrize("mode,cut_form", LOWERINGS)
def test_anchored_loops(mode: str, cut_form: str) -> None:
    """``anchors``: when the literal holds, the loop passes through one of the given dots."""
    edges = dot_grid_edges(4, 4)
    through = [(1, 1), (3, 0)]
    session, lits, pool = loop_session(edges, mode, anchors=lambda pool: [(pool.var("via"), through)],
                                       cut_form=cut_form)
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
    for mode, cut_form in LOWERINGS:
        session, lits, _ = loop_session(edges, mode, cut_form=cut_form)
        assumptions = [lits[e] if on else -lits[e] for e, on in forced.items()]
        assert loops_found(session, lits, assumptions) == expected, (mode, cut_form)


def rectangle(r: int, c: int, height: int, width: int) -> list[Edge]:
    """The loop round the block of cells ``height`` x ``width`` whose top-left dot is (r, c)."""
    top = [((r, j), (r, j + 1)) for j in range(c, c + width)]
    bottom = [((r + height, j), (r + height, j + 1)) for j in range(c, c + width)]
    left = [((i, c), (i + 1, c)) for i in range(r, r + height)]
    right = [((i, c + width), (i + 1, c + width)) for i in range(r, r + height)]
    return top + bottom + left + right


@pytest.mark.parametrize("cut_form", ["exit", "whole"])
def test_clue_anchors_condition_the_cut(cut_form: str) -> None:
    """A clue anchor (a selector whose clue puts the loop through some dots, passed to ``cuts``)
    conditions the cut of a sub-loop that misses those dots; an anchor the sub-loop touches, or
    a false selector, anchors nothing and the cut falls back to the pair form. "whole": one
    clause, not every edge of the small loop; "exit": an edge of it forces an edge leaving it."""
    from satgrid.solver import Assignment

    edges = dot_grid_edges(5, 5)
    pool = VarPool()
    lits = {e: pool.var("edge", *e) for e in edges}
    rule = SingleLoop("loop", lits, pool, cut_form=cut_form)  # type: ignore[arg-type]
    near, far = pool.var("clue", "near"), pool.var("clue", "far")
    anchors = [(near, rule.clue_anchor([(0, 0)])), (far, rule.clue_anchor([(4, 4)]))]
    small, large = rectangle(0, 0, 1, 1), rectangle(2, 2, 1, 2)
    model = [-v for v in range(1, pool.top + 1)]
    for e in small + large:
        model[lits[e] - 1] = lits[e]
    model[near - 1], model[far - 1] = near, far
    small_lits = sorted(lits[e] for e in small)
    at_small = {lits[e] for e in edges if set(e) & {d for x in small for d in x}} - set(small_lits)

    (cut,) = rule.cuts(Assignment(model), pool, anchors=anchors)
    if cut_form == "whole":
        assert len(cut) == 1 and sorted(cut[0]) == sorted([-far, *(-x for x in small_lits)])
    else:
        t_small = cut[0][1]  # one "edge -> t_S" clause per edge of S, then the head
        assert sorted(c[0] for c in cut[:-1]) == sorted(-x for x in small_lits)
        assert all(c[1] == t_small for c in cut[:-1])
        assert sorted(cut[-1]) == sorted([-t_small, -far, *at_small])

    model[far - 1] = -far  # "near" is on, but the small loop passes its dot: the pair form
    # the largest loop is the one of the call before: it is cut too, anchored on "near" (whose
    # dot it misses)
    pair, largest = rule.cuts(Assignment(model), pool, anchors=anchors)
    if cut_form == "whole":
        assert sorted(pair[0]) == sorted(-lits[e] for e in small + large)
        assert sorted(largest[0]) == sorted([-near, *(-lits[e] for e in large)])
    else:
        assert not {-near, -far} & {x for clause in pair for x in clause}
        t_small, t_large = pair[0][1], pair[len(small)][1]  # the pair's t_S, then t_R clauses
        assert sorted(pair[-1]) == sorted([-t_small, -t_large, *at_small])
        assert sorted(c[0] for c in largest[:-1]) == sorted(-lits[e] for e in large)
        assert sorted(largest[-1]) == sorted([-largest[0][1], -near, *exits(lits, edges, large)])


def exits(lits: dict[Edge, int], edges: list[Edge], loop: list[Edge]) -> set[int]:
    """The literals of the edges that touch a dot of ``loop`` and are not on it."""
    dots = {d for e in loop for d in e}
    return {lits[e] for e in edges if set(e) & dots} - {lits[e] for e in loop}


def test_a_recurring_largest_loop_is_cut_too() -> None:
    """Exit form: the largest loop is cut only when it is also the largest loop of the model
    before; with no anchor that misses it, paired with the second largest (t_S & t_R ->
    an edge leaving the largest loop). A model of one loop leaves the memory as it is."""
    from satgrid.solver import Assignment

    edges = dot_grid_edges(5, 5)
    pool = VarPool()
    lits = {e: pool.var("edge", *e) for e in edges}
    rule = SingleLoop("loop", lits, pool)
    small, large, other = rectangle(0, 0, 1, 1), rectangle(2, 2, 1, 2), rectangle(3, 0, 1, 1)

    def model(*loops: list[Edge]) -> Assignment:
        on = {lits[e] for loop in loops for e in loop}
        return Assignment([v if v in on else -v for v in range(1, pool.top + 1)])

    assert len(rule.cuts(model(small, large), pool)) == 1  # nothing remembered yet
    assert rule.cuts(model(large), pool) == []
    assert len(rule.cuts(model(other, large), pool)) == 2  # the large loop again: cut too
    (_, largest) = rule.cuts(model(small, large), pool)
    t_large, t_small = largest[0][1], largest[len(large)][1]
    assert sorted(c[0] for c in largest[:len(large)]) == sorted(-lits[e] for e in large)
    assert sorted(c[0] for c in largest[len(large):-1]) == sorted(-lits[e] for e in small)
    assert sorted(largest[-1]) == sorted([-t_large, -t_small, *exits(lits, edges, large)])
    assert len(rule.cuts(model(small, other), pool)) == 1  # a different largest loop


def region_boundary(rows: int, cols: int, cells: set[tuple[int, int]]) -> set[Edge]:
    """The edges between the cells in ``cells`` and the rest (outside the grid counts as rest)."""
    out: set[Edge] = set()
    for r in range(rows):
        for c in range(cols):
            for edge, (dr, dc) in zip(square(r, c), ((-1, 0), (1, 0), (0, -1), (0, 1))):
                if ((r, c) in cells) != ((r + dr, c + dc) in cells):
                    out.add(edge)
    return out


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_the_model_walk_finds_the_loops_the_component_search_finds(data) -> None:
    """On a grid whose edges are the variables 1..n, :meth:`SingleLoop._loops` walks a model's
    loops on the model itself; it must find the same loops as the walk over every edge's truth
    (:meth:`SingleLoop._loops_of`) and as networkx's components: random regions of a 5x6 grid
    whose boundaries are loops (one, several, nested), and ones that are not loops at all."""
    import networkx as nx

    from satgrid.solver import Assignment

    rows, cols = 5, 6
    edges = dot_grid_edges(rows + 1, cols + 1)
    pool = VarPool()
    lits = {e: pool.var("edge", *e) for e in edges}
    rule = SingleLoop("loop", lits, pool, cut_form="whole")
    cells = data.draw(st.sets(st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1))), label="cells")
    chosen = region_boundary(rows, cols, cells)
    if data.draw(st.booleans(), label="break a loop"):
        chosen ^= set(data.draw(st.lists(st.sampled_from(edges), max_size=2), label="toggled"))
    graph = nx.Graph(list(chosen))
    degrees = {d for _, d in graph.degree}
    if max(degrees, default=0) > 2:  # models of the degree clauses have none (the walks assume it)
        return
    model = [lits[e] if e in chosen else -lits[e] for e in edges]
    walked = rule._loops(Assignment(model + [7, -8]))  # later variables are not edges
    general = rule._loops_of([e in chosen for e in edges])
    if degrees <= {2}:  # loops: one component each
        index = {frozenset(e): lits[e] - 1 for e in edges}
        expected = sorted((sorted(index[frozenset(e)] for e in graph.subgraph(part).edges)
                           for part in nx.connected_components(graph)), key=len, reverse=True)
        assert [sorted(loop) for loop in walked] == [sorted(loop) for loop in general]
        assert sorted(map(sorted, walked)) == sorted(expected)
    else:  # an open path: not a model of the degree clauses
        assert walked is None and general is None


def even_everywhere(chosen: list[Edge]) -> bool:
    degree: dict[Dot, int] = {}
    for u, v in chosen:
        degree[u] = degree.get(u, 0) + 1
        degree[v] = degree.get(v, 0) + 1
    return all(d % 2 == 0 for d in degree.values())


def connected(edges: list[Edge]) -> bool:
    adjacent: dict[Dot, set[Dot]] = {}
    for u, v in edges:
        adjacent.setdefault(u, set()).add(v)
        adjacent.setdefault(v, set()).add(u)
    start = next(iter(adjacent))
    seen, stack = {start}, [start]
    while stack:
        for w in adjacent[stack.pop()] - seen:
            seen.add(w)
            stack.append(w)
    return len(seen) == len(adjacent)


@settings(max_examples=12, deadline=None)
@given(data=st.data())
def test_parity_clauses_allow_exactly_the_even_edge_sets(data) -> None:
    """``parity_clauses`` on random subgraphs of a 3x3 dot grid (holes, bridges, tails): an edge
    set extends to the faces' inside/outside variables iff every dot has an even number of its
    edges (so every loop does, and parity is all they add); none for a disconnected graph."""
    from itertools import product

    from pysat.solvers import Solver

    edges = [e for e in dot_grid_edges(3, 3) if data.draw(st.integers(0, 3), label=str(e))]
    if not edges:
        return
    pool = VarPool()
    lits = {e: pool.var("edge", e) for e in edges}
    clauses = SingleLoop("loop", lits, pool).parity_clauses(pool)
    if not connected(edges):
        assert clauses == []
        return
    assert clauses
    with Solver(name="cadical153", bootstrap_with=clauses) as sat:
        for values in product([False, True], repeat=len(edges)):
            chosen = [e for e, on in zip(edges, values) if on]
            assumptions = [lits[e] if on else -lits[e] for e, on in zip(edges, values)]
            assert sat.solve(assumptions=assumptions) == even_everywhere(chosen), chosen


def test_parity_clauses_need_a_drawing_without_crossings() -> None:
    """Only unit edges between integer points are drawn (no two can cross); else no clauses."""
    pool = VarPool()
    square = [((0, 0), (0, 1)), ((0, 1), (1, 1)), ((1, 1), (1, 0)), ((1, 0), (0, 0))]
    assert SingleLoop("loop", {e: pool.var("edge", e) for e in square}, pool).parity_clauses(pool)
    crossed = [*square, ((0, 0), (1, 1)), ((0, 1), (1, 0))]
    assert SingleLoop("loop", {e: pool.var("x", e) for e in crossed}, pool).parity_clauses(pool) == []
    named = [(("a", 0), ("b", 0)), (("b", 0), ("c", 0)), (("c", 0), ("a", 0))]
    assert SingleLoop("loop", {e: pool.var("y", e) for e in named}, pool).parity_clauses(pool) == []
