"""ConnectedSubgraph, lazy and eager, counted against brute force on small grids.

A solution is projected on the node literals (and link literals where links have their own); the
set of projections must equal the brute-force set of connected subsets, whatever the lowering.
"""
from __future__ import annotations

import itertools
from functools import lru_cache

import pytest
from hypothesis import given, settings, strategies as st

from satgrid.cnf import VarPool, at_most, exactly, guarded
from satgrid.connectivity import ConnectedSubgraph
from satgrid.encoding import ClueEncoding, Encoding
from satgrid.session import Session

MODES = ["lazy", "eager"]


def grid(rows: int, cols: int) -> tuple[list[tuple[int, int]], list[tuple[tuple[int, int], tuple[int, int]]]]:
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    adjacent = [((r, c), (r, c + 1)) for r in range(rows) for c in range(cols - 1)]
    adjacent += [((r, c), (r + 1, c)) for r in range(rows - 1) for c in range(cols)]
    return cells, adjacent


def is_connected(mask: int, neighbours: list[int]) -> bool:
    """Whether the nodes in bit ``mask`` form one component (the empty set counts as connected)."""
    if not mask:
        return True
    reach = mask & -mask
    while True:
        grown, rest = reach, reach
        while rest:
            bit = rest & -rest
            grown |= neighbours[bit.bit_length() - 1]
            rest ^= bit
        grown &= mask
        if grown == reach:
            return reach == mask
        reach = grown


@lru_cache(maxsize=None)
def connected_subsets(n: int, links: tuple[tuple[int, int], ...]) -> frozenset[int]:
    """Every node subset (as a bit mask) of the graph that is connected, the empty set included."""
    neighbours = [0] * n
    for u, v in links:
        neighbours[u] |= 1 << v
        neighbours[v] |= 1 << u
    return frozenset(m for m in range(1 << n) if is_connected(m, neighbours))


def brute(rows: int, cols: int) -> tuple[list[tuple[int, int]], frozenset[int]]:
    cells, adjacent = grid(rows, cols)
    index = {cell: i for i, cell in enumerate(cells)}
    links = tuple((index[u], index[v]) for u, v in adjacent)
    return cells, connected_subsets(len(cells), links)


def masks(projections: set[tuple[bool, ...]]) -> set[int]:
    return {sum(1 << i for i, t in enumerate(p) if t) for p in projections}


def no_clue(key, value) -> ClueEncoding:
    raise AssertionError("these encodings have no clues")


def region_session(
    rows: int, cols: int, mode: str, anchor=None, max_true=None, extra=None
) -> tuple[Session, list[int], VarPool]:
    """A session whose only rule is "the true cells of a rows x cols grid are connected"."""
    pool = VarPool()
    cells, adjacent = grid(rows, cols)
    nodes = {cell: pool.var("black", *cell) for cell in cells}
    rule = ConnectedSubgraph("region", nodes, [(u, v, None) for u, v in adjacent], anchor, max_true)
    clauses = extra(pool, list(nodes.values())) if extra else []
    encoding = Encoding(pool, clauses, {("black", *c): v for c, v in nodes.items()}, no_clue, [rule])
    return Session(encoding, connectivity=mode), list(nodes.values()), pool


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("rows,cols", [(1, 1), (2, 2), (3, 3), (3, 4), (2, 5), (4, 4)])
def test_all_connected_subsets(projections, mode: str, rows: int, cols: int) -> None:
    _, expected = brute(rows, cols)
    session, lits, _ = region_session(rows, cols, mode)
    assert masks(projections(session, lits)) == expected
    if mode == "lazy" and rows * cols > 4:
        assert session.stats.cuts > 0  # the lazy rule did the work


@pytest.mark.parametrize("mode", MODES)
def test_connected_k_subsets_of_4x4(projections, mode: str) -> None:
    """Exactly-k constraints behind selectors, one session for every k (cuts persist)."""
    _, expected = brute(4, 4)
    selectors: dict[int, int] = {}

    def by_size(pool: VarPool, lits: list[int]) -> list[list[int]]:
        clauses = []
        for k in range(17):
            selectors[k] = pool.var("size", k)
            clauses += guarded(exactly(lits, k, pool), selectors[k])
        return clauses

    session, lits, _ = region_session(4, 4, mode, extra=by_size)
    total = 0
    for k in [1, 2, 3, 4, 16, 15, 14, 13, 0, 5, 6, 7, 8, 9, 10, 11, 12]:
        found = masks(projections(session, lits, [selectors[k]]))
        assert found == {m for m in expected if m.bit_count() == k}, k
        total += len(found)
    # Connected k-cell sets of a 4x4 = fixed polyomino placements: 16 monominoes, 24 dominoes,
    # 16 + 36 triominoes, 8 I + 9 O + 24 T + 24 S/Z + 48 L/J tetrominoes.
    sizes = {k: sum(1 for m in expected if m.bit_count() == k) for k in range(17)}
    assert [sizes[k] for k in (0, 1, 2, 3, 4, 16)] == [1, 16, 24, 52, 113, 1]
    assert total == len(expected) == 11507


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("k", [3, 5, 8])
def test_max_true_bounds_the_ranks(projections, mode: str, k: int) -> None:
    """With at most k true nodes and ``max_true=k`` (fewer rank bits), nothing is lost or added."""
    _, expected = brute(4, 4)
    session, lits, _ = region_session(
        4, 4, mode, max_true=k, extra=lambda pool, lits: at_most(lits, k, pool)
    )
    assert masks(projections(session, lits)) == {m for m in expected if m.bit_count() <= k}


def test_max_true_rank_bits_are_tight() -> None:
    """A path of 8 cells needs ranks 0..7 (3 bits): max_true=8 allows it, so the long snake
    across a 1x8 strip must be found eagerly with the smallest rank width."""
    pool = VarPool()
    cells, adjacent = grid(1, 8)
    nodes = {cell: pool.var("black", *cell) for cell in cells}
    rule = ConnectedSubgraph("strip", nodes, [(u, v, None) for u, v in adjacent], max_true=8)
    session = Session(Encoding(pool, [], {}, no_clue, [rule]), connectivity="eager")
    assert session.solve(list(nodes.values())).status == "sat"
    assert session.solve([nodes[0, 0], -nodes[0, 3], nodes[0, 7]]).status == "unsat"
    assert session.solve([nodes[0, 0], nodes[0, 7]]).assignment is not None


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("anchor", [(0, 0), (1, 2)])
def test_anchored_region(projections, mode: str, anchor) -> None:
    """"Every true node reaches the anchor": the connected sets holding the anchor, plus the empty
    set (with the anchor false no node can reach it, so nothing else may be true)."""
    cells, expected = brute(3, 4)
    bit = 1 << cells.index(anchor)
    session, lits, _ = region_session(3, 4, mode, anchor=anchor)
    with_anchor = {m for m in expected if m & bit}
    assert masks(projections(session, lits)) == with_anchor | {0}
    anchor_lit = lits[cells.index(anchor)]
    assert masks(projections(session, lits, [anchor_lit])) == with_anchor
    assert masks(projections(session, lits, [-anchor_lit])) == {0}


def dot_grid_session(rows: int, cols: int, mode: str, edges_need_ends: bool):
    """Dots joined by edge literals: the true dots, over the true edges, form one component."""
    pool = VarPool()
    dots, adjacent = grid(rows, cols)
    nodes = {d: pool.var("dot", *d) for d in dots}
    edges = {(u, v): pool.var("edge", u, v) for u, v in adjacent}
    rule = ConnectedSubgraph("dots", nodes, [(u, v, lit) for (u, v), lit in edges.items()])
    clauses = []
    if edges_need_ends:
        clauses = [[-lit, nodes[end]] for (u, v), lit in edges.items() for end in (u, v)]
    encoding = Encoding(pool, clauses, {}, no_clue, [rule])
    return Session(encoding, connectivity=mode), nodes, edges


@lru_cache(maxsize=None)
def brute_dot_grid(rows: int, cols: int, edges_need_ends: bool) -> frozenset[tuple[bool, ...]]:
    """Every (dots, edges) assignment whose true dots are connected over usable edges."""
    dots, adjacent = grid(rows, cols)
    index = {d: i for i, d in enumerate(dots)}
    found = set()
    for node_bits in itertools.product((False, True), repeat=len(dots)):
        mask = sum(1 << i for i, t in enumerate(node_bits) if t)
        inside = [e for e, (u, v) in enumerate(adjacent) if node_bits[index[u]] and node_bits[index[v]]]
        outside = [e for e in range(len(adjacent)) if e not in inside]
        for inside_bits in itertools.product((False, True), repeat=len(inside)):
            neighbours = [0] * len(dots)
            for e, on in zip(inside, inside_bits):
                u, v = (index[d] for d in adjacent[e])
                if on:
                    neighbours[u] |= 1 << v
                    neighbours[v] |= 1 << u
            if not is_connected(mask, neighbours):
                continue
            # An edge with a false end never connects anything; it may be true only when edges
            # are not tied to their ends.
            choices = [(False,)] if edges_need_ends else [(False, True)]
            for outside_bits in itertools.product(*choices * len(outside)):
                edge_bits = [False] * len(adjacent)
                for e, on in [*zip(inside, inside_bits), *zip(outside, outside_bits)]:
                    edge_bits[e] = on
                found.add(node_bits + tuple(edge_bits))
    return frozenset(found)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("rows,cols,edges_need_ends", [(2, 3, True), (3, 3, True), (2, 3, False)])
def test_links_with_their_own_literals(projections, mode, rows, cols, edges_need_ends) -> None:
    """A link is usable only when its literal and both ends are true. Without the "edge -> ends"
    clauses an edge may be true beside a false dot; it must not connect anything then."""
    session, nodes, edges = dot_grid_session(rows, cols, mode, edges_need_ends)
    lits = [*nodes.values(), *edges.values()]
    expected = brute_dot_grid(rows, cols, edges_need_ends)
    assert projections(session, lits) == expected


@settings(max_examples=25, deadline=None)
@given(
    rows=st.integers(1, 3),
    cols=st.integers(1, 4),
    data=st.data(),
)
def test_random_graphs_lazy_and_eager_agree_with_brute_force(rows, cols, data) -> None:
    """Random subgraphs of a small grid, optional anchor, some nodes forced true or false."""
    from .conftest import _projections

    cells, adjacent = grid(rows, cols)
    kept = [link for link in adjacent if data.draw(st.booleans(), label=f"keep {link}")]
    anchor = data.draw(st.one_of(st.none(), st.sampled_from(cells)), label="anchor")
    index = {cell: i for i, cell in enumerate(cells)}
    expected = connected_subsets(len(cells), tuple((index[u], index[v]) for u, v in kept))
    if anchor is not None:
        expected = frozenset(m for m in expected if not m or m >> index[anchor] & 1)
    fixed = data.draw(st.dictionaries(st.sampled_from(cells), st.booleans(), max_size=3), label="fixed")
    expected = frozenset(
        m for m in expected if all((m >> index[c] & 1) == int(t) for c, t in fixed.items())
    )
    for mode in MODES:
        pool = VarPool()
        nodes = {cell: pool.var("black", *cell) for cell in cells}
        rule = ConnectedSubgraph("g", nodes, [(u, v, None) for u, v in kept], anchor)
        session = Session(Encoding(pool, [], {}, no_clue, [rule]), connectivity=mode)
        assumptions = [nodes[c] if t else -nodes[c] for c, t in fixed.items()]
        assert masks(_projections(session, list(nodes.values()), assumptions)) == expected, mode


def test_cut_excludes_the_disconnected_assignment() -> None:
    """Each cut is violated by the assignment it came from (else the CEGAR loop could spin)."""
    pool = VarPool()
    cells, adjacent = grid(3, 3)
    nodes = {cell: pool.var("black", *cell) for cell in cells}
    rule = ConnectedSubgraph("region", nodes, [(u, v, None) for u, v in adjacent])
    true = {nodes[0, 0], nodes[2, 2], nodes[0, 2], nodes[1, 2]}
    value = lambda lit: (abs(lit) in true) == (lit > 0)
    components = rule.components(value)
    assert sorted(map(len, components)) == [1, 3]
    cuts = rule.cuts(value, pool)
    assert len(cuts) == 1
    # Auxiliaries t are free: the cut is violated iff no extension of ``value`` satisfies it.
    from pysat.solvers import Solver

    with Solver(name="minisat22", bootstrap_with=cuts[0]) as solver:
        fixed = [v if v in true else -v for v in nodes.values()]
        assert not solver.solve(assumptions=fixed)
    assert rule.cuts(lambda lit: (abs(lit) in true - {nodes[0, 0]}) == (lit > 0), pool) == []


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_components_match_networkx(data) -> None:
    """``components`` (read straight off a model, or through a plain function) against networkx."""
    import networkx as nx

    from satgrid.solver import Assignment

    rows, cols = data.draw(st.integers(1, 5), label="rows"), data.draw(st.integers(1, 5), label="cols")
    pool = VarPool()
    cells, adjacent = grid(rows, cols)
    nodes = {cell: pool.var("cell", *cell) for cell in cells}
    own = data.draw(st.booleans(), label="links have literals")
    links = [(u, v, pool.var("link", u, v) if own else None) for u, v in adjacent]
    rule = ConnectedSubgraph("g", nodes, links)
    model = [v if data.draw(st.booleans(), label=f"x{v}") else -v for v in range(1, pool.top + 1)]
    model = model[: data.draw(st.integers(0, len(model)), label="model length")]  # unset = false
    value = Assignment(model)
    graph = nx.Graph()
    graph.add_nodes_from(n for n, lit in nodes.items() if value(lit))
    graph.add_edges_from(
        (u, v) for u, v, lit in links if u in graph and v in graph and (lit is None or value(lit))
    )
    expected = sorted(map(frozenset, nx.connected_components(graph)), key=sorted)
    for reader in (value, lambda lit: value(lit)):
        found = rule.components(reader)
        assert [len(s) for s in found] == sorted((len(s) for s in found), reverse=True)
        assert sorted(map(frozenset, found), key=sorted) == expected
        assert (rule.cuts(reader, pool) == []) == (len(expected) <= 1)


@pytest.mark.parametrize("mode", MODES)
def test_anchor_literals(projections, mode: str) -> None:
    """``anchors=[(lit, nodes)]``: when ``lit`` holds, some node of ``nodes`` is true (and the
    region, being connected, reaches it). Two such literals on one session, in every combination."""
    cells, expected = brute(3, 4)
    pool = VarPool()
    _, adjacent = grid(3, 4)
    nodes = {cell: pool.var("black", *cell) for cell in cells}
    corners, middle = [(0, 0), (2, 3)], [(1, 1)]
    a, b = pool.var("a"), pool.var("b")
    rule = ConnectedSubgraph(
        "region", nodes, [(u, v, None) for u, v in adjacent], anchors=[(a, corners), (b, middle)]
    )
    session = Session(Encoding(pool, [], {}, no_clue, [rule]), connectivity=mode)

    def touching(group):
        bits = sum(1 << cells.index(cell) for cell in group)
        return {m for m in expected if m & bits}

    lits = list(nodes.values())
    assert masks(projections(session, lits, [a])) == touching(corners)
    assert masks(projections(session, lits, [b])) == touching(middle)
    assert masks(projections(session, lits, [a, b])) == touching(corners) & touching(middle)
    assert masks(projections(session, lits, [-a, -b])) == set(expected)


# -- smallest separators ------------------------------------------------------------------------
def reference_separator(near: list[list[int]], on: list[bool], sources: list[int],
                        sinks: list[int]) -> tuple[list[int], list[int]]:
    """The minimum cut nearest ``sources`` by networkx: a maximum flow on the node-split graph
    (capacity 1 on false nodes), then what the residual network reaches from the sources: the
    side (out-states reached) and the separator (in-state reached, out-state not)."""
    import networkx as nx

    n = len(near)
    flow = nx.DiGraph()
    for v in range(n):
        flow.add_edge(("in", v), ("out", v), capacity=1 if not on[v] else n)
        for w in near[v]:
            flow.add_edge(("out", v), ("in", w), capacity=n)
    for v in sources:
        flow.add_edge("s", ("in", v), capacity=n)
    for v in sinks:
        flow.add_edge(("out", v), "t", capacity=n)
    residual = nx.algorithms.flow.edmonds_karp(flow, "s", "t")
    open_arcs = nx.DiGraph((u, v) for u, v, arc in residual.edges(data=True)
                           if arc["capacity"] > arc["flow"])
    reached = nx.descendants(open_arcs, "s")
    side = sorted(v for v in range(n) if ("out", v) in reached)
    cut = sorted(v for v in range(n) if ("in", v) in reached and ("out", v) not in reached)
    assert len(cut) == residual.graph["flow_value"]
    return side, cut


def test_separator_is_a_minimum_false_node_cut_against_networkx():
    """``separator`` on random grids and assignments: it holds only false nodes, parts the two
    components in the grid graph, its side is closed (a side node's neighbours are side or
    separator), its size is networkx's maximum flow with unit capacities on false nodes, and its
    side is the minimum cut nearest the sources (what the residual network reaches from them). Half
    the cases add false sinks (an anchor's nodes), which may be cut themselves."""
    import random

    import networkx as nx

    from satgrid.connectivity import separator
    from satgrid.grid import Grid

    rng = random.Random(7)
    tried = 0
    while tried < 150:
        rows, cols = rng.randint(2, 7), rng.randint(2, 7)
        grid = Grid.of(rows, cols)
        n = rows * cols
        on = [rng.random() < 0.45 for _ in range(n)]
        graph = nx.Graph([(v, w) for v in range(n) for w in grid.near[v]])
        graph.add_nodes_from(range(n))
        parts = [sorted(c) for c in nx.connected_components(graph.subgraph([v for v in range(n) if on[v]]))]
        if len(parts) < 2:
            continue
        tried += 1
        a, b = parts[0], parts[1]
        if tried % 2:
            b = b + rng.sample([v for v in range(n) if not on[v]], min(2, n - sum(on)))
        side, cut = separator(grid.near, a, b, on)
        assert set(a) <= set(side) and not set(cut) & set(side) and not set(cut) & set(parts[1])
        assert not any(on[v] for v in cut)
        assert all(w in side or w in cut for v in side for w in grid.near[v])
        rest = graph.copy()
        rest.remove_nodes_from(cut)
        assert not any(nx.has_path(rest, a[0], v) for v in b if v in rest)
        assert (side, cut) == reference_separator(grid.near, on, a, b)


def test_one_flow_graph_serves_a_whole_round():
    """One :class:`FlowGraph` (components contracted; in a third of the rounds all but the
    largest) for every separator of an assignment, as a CEGAR round asks them: every component but
    the largest against the largest, and against an anchor's nodes (true ones in other components,
    false ones anywhere) with the largest, on random grids and on random graphs; each answer is
    networkx's minimum cut nearest the sources."""
    import random

    import networkx as nx

    from satgrid.connectivity import FlowGraph
    from satgrid.grid import Grid

    rng = random.Random(11)
    rounds = calls = 0
    while rounds < 60:
        if rounds % 2:
            grid = Grid.of(rng.randint(2, 8), rng.randint(2, 8))
            near = [list(x) for x in grid.near]
        else:  # a random graph of mean degree 3
            n = rng.randint(6, 40)
            near = [[] for _ in range(n)]
            for _ in range(3 * n // 2):
                v, w = rng.sample(range(n), 2)
                if w not in near[v]:
                    near[v].append(w)
                    near[w].append(v)
        n = len(near)
        on = [rng.random() < 0.5 for _ in range(n)]
        graph = nx.Graph([(v, w) for v in range(n) for w in near[v] if on[v] and on[w]])
        graph.add_nodes_from(v for v in range(n) if on[v])
        parts = sorted((sorted(c) for c in nx.connected_components(graph)), key=len, reverse=True)
        if len(parts) < 2:
            continue
        rounds += 1
        contracted = FlowGraph(near, on, parts if rounds % 3 else parts[1:])  # or not the largest
        for sources in parts[1:]:
            outside = [v for v in range(n) if v not in sources]
            for sinks in (parts[0], parts[0] + rng.sample(outside, min(3, len(outside)))):
                calls += 1
                assert contracted.separator(sources, sinks) == reference_separator(near, on, sources, sinks)
    assert calls > 100


def test_round_flow_graphs_answer_as_the_plain_graph_on_the_bundled_puzzles(monkeypatch) -> None:
    """Every separator the lazy cuts ask of a round's :class:`FlowGraph` (its components from the
    round's component search) while the bundled puzzles of every genre are solved and
    proved unique, on fresh sessions, equals the plain function's on the uncontracted graph."""
    from importlib import resources

    from satgrid import api, connectivity
    from satgrid.queries import PuzzleQueries
    from satgrid.registry import GENRES

    asked = connectivity.FlowGraph.separator
    answers = []

    def compared(graph, sources, sinks):
        sources, sinks = list(sources), list(sinks)
        found = asked(graph, sources, sinks)
        answers.append(found == asked(connectivity.FlowGraph(graph.neighbours, graph.on), sources, sinks))
        return found

    monkeypatch.setattr(connectivity.FlowGraph, "separator", compared)
    for genre in GENRES.values():
        for puzzle in api.load([str(resources.files("satgrid") / "data" / genre.examples)]):
            session = Session(genre.encode(puzzle))
            queries = PuzzleQueries(session, puzzle.clues())
            first = queries.solve()
            assert first.status == "sat"
            queries.other_solution(queries.project(first.assignment))
            session.close()
    assert len(answers) > 20 and all(answers)


def test_separator_may_cut_a_false_sink():
    """Against an anchor's nodes, a false anchor node next to the component is itself cut."""
    from satgrid.connectivity import separator
    from satgrid.grid import Grid

    grid = Grid.of(1, 4)  # nodes 0 1 2 3 in a row; 0 true, the anchor is {1, 3}, both false
    side, cut = separator(grid.near, [0], [1, 3], [True, False, False, False])
    assert side == [0] and cut == [1]


@pytest.mark.parametrize("connectivity", ["lazy", "eager"])
def test_separator_cuts_keep_the_solutions(connectivity):
    """A connected region with anchors on a 3x4 grid (the separator cuts in the lazy lowering,
    anchored and paired) against brute force; with separators off the same set."""
    from satgrid.grid import Grid
    from satgrid.model import Model

    from .test_model import all_solutions, brute

    grid = Grid.of(3, 4)
    found = []
    for separators in (True, False):
        m = Model(grid)
        cells = m.cells("black")
        rule = m.connected("black cells are connected", cells, anchors=[(m.true(), [(0, 0), (2, 3)])],
                           separators=separators)
        assert rule.separators is separators
        found.append(all_solutions(m, "black", {}, connectivity))
    expected = brute(grid.cells, lambda black: bool(black) and bool(black & {(0, 0), (2, 3)})
                     and len(grid.components(black)) == 1)
    assert found[0] == found[1] == expected


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_fenced_cuts_keep_every_connected_set_and_exclude_their_model(data) -> None:
    """``fenced_cuts`` with random known-false nodes (``off``) on random models of 3x3 and smaller
    grids: each cut is violated by its model (its auxiliaries free) and obeyed by every connected
    set of nodes (brute force), whichever nodes ``off`` names."""
    from pysat.solvers import Solver

    from satgrid.solver import Assignment

    rows, cols = data.draw(st.integers(1, 3), label="rows"), data.draw(st.integers(2, 3), label="cols")
    pool = VarPool()
    cells, adjacent = grid(rows, cols)
    nodes = {cell: pool.var("cell", *cell) for cell in cells}
    rule = ConnectedSubgraph("g", nodes, [(u, v, None) for u, v in adjacent])
    lits = list(nodes.values())
    model = [v if data.draw(st.booleans(), label=f"x{v}") else -v for v in lits]
    off = {v for v in lits if -v in model and data.draw(st.booleans(), label=f"off{v}")}
    cuts = rule.fenced_cuts(Assignment(model), pool, off)
    assert (cuts == []) == (len(rule.components(Assignment(model))) < 2)
    index = {cell: i for i, cell in enumerate(cells)}
    near = [0] * len(cells)
    for u, v in adjacent:
        near[index[u]] |= 1 << index[v]
        near[index[v]] |= 1 << index[u]
    connected = [mask for mask in range(1 << len(cells)) if is_connected(mask, near)]
    for cut in cuts:
        with Solver(name="minisat22", bootstrap_with=cut) as solver:
            assert not solver.solve(assumptions=model)
            for mask in connected:
                assert solver.solve(assumptions=[v if mask >> i & 1 else -v for i, v in enumerate(lits)])


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_side_cuts_keep_every_connected_set(data) -> None:
    """``side_cuts`` over random sides (any node sets, not only cuts' sides) and random far nodes,
    some inside the sides, on 3x3 and smaller grids: every connected set of nodes (brute force)
    satisfies them all, and a cut acts (excludes a side's node true with a far node beyond its
    rim true and the rim false)."""
    from pysat.solvers import Solver

    rows, cols = data.draw(st.integers(1, 3), label="rows"), data.draw(st.integers(2, 3), label="cols")
    pool = VarPool()
    cells, adjacent = grid(rows, cols)
    nodes = {cell: pool.var("cell", *cell) for cell in cells}
    rule = ConnectedSubgraph("g", nodes, [(u, v, None) for u, v in adjacent])
    some = st.frozensets(st.sampled_from(cells), min_size=1)
    sides = data.draw(st.lists(some, min_size=1, max_size=4), label="sides")
    far = data.draw(some, label="far")
    clauses = rule.side_cuts(sides, sorted(far), pool)
    lits = list(nodes.values())
    index = {cell: i for i, cell in enumerate(cells)}
    near = [0] * len(cells)
    for u, v in adjacent:
        near[index[u]] |= 1 << index[v]
        near[index[v]] |= 1 << index[u]
    with Solver(name="minisat22", bootstrap_with=clauses) as solver:
        for mask in range(1 << len(cells)):
            if is_connected(mask, near):
                assert solver.solve(assumptions=[v if mask >> i & 1 else -v for i, v in enumerate(lits)])
        for side in sides:
            rim = {q for p in side for u, q in adjacent + [(v, u) for u, v in adjacent] if u == p} - side
            beyond = [q for q in far if q not in side and q not in rim]
            if rim and beyond:
                true = {min(side), beyond[0]}
                assert not solver.solve(assumptions=[nodes[p] if p in true else -nodes[p] for p in cells
                                                     if p in true or p in rim])


def test_recorded_sides_are_the_cuts_insides() -> None:
    """A lazy session on a 3x4 grid records the inside of each of the rule's cuts; carried into
    another session of the same graph they keep its solutions (brute force)."""
    from satgrid.grid import Grid
    from satgrid.model import Model

    from .test_model import all_solutions, brute as brute_sets

    grid_ = Grid.of(3, 4)
    m = Model(grid_)
    rule = m.connected("black", m.cells("black"))
    rule.record_sides()
    enc = m.build()
    session = Session(enc)
    far = [(0, 0), (2, 3)]
    # a disconnected model: the two far corners black, everything else white
    outcome = session.solve([enc.pool.var("black", 0, 0), enc.pool.var("black", 2, 3),
                             *(-enc.pool.var("black", *p) for p in grid_.cells if p not in far)])
    assert outcome.status == "unsat"
    sides = rule.sides()
    assert sides and all(side.isdisjoint({(2, 3)}) or side.isdisjoint({(0, 0)}) for side in sides)
    m2 = Model(grid_)
    other = m2.connected("black", m2.cells("black"))
    m2.require("carried", other.side_cuts(sides, far, m2.pool))
    expected = brute_sets(grid_.cells, lambda black: len(grid_.components(black)) <= 1)
    assert all_solutions(m2, "black", {}, "lazy") == expected
