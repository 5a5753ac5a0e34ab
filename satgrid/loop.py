"""The *single loop* rule: chosen edges form exactly one simple closed loop.

Rule (as loop genres state it): every vertex touches 0 or 2 chosen edges,
at least one edge is chosen, and the chosen edges are connected. The first two parts are plain
clauses on the edge literals. Connectivity is a :class:`~satgrid.connectivity.ConnectedSubgraph`
rule, lowered two ways:

* lazily (subtour cuts), over the *edges*: the chosen edges, two of them adjacent when they share
  a vertex, form one component. A sub-loop S then gets the cut "S and another sub-loop (or an
  anchor S misses) cannot both be present unless an edge next to S is chosen". No variable per
  vertex: fewer variables and clauses than stating the rule over vertices, and faster
  generation (figures: encodings/rules.md, section "The single loop rule: measured"). With ``cut_form="whole"`` the cut is instead one clause: "S and
  another sub-loop (or an anchor S misses) cannot both be present unless S is not whole", that
  is, not every edge of S is chosen. It is sound because a whole cycle S in a graph whose
  vertices have degree 0 or 2 is a component by itself. It is weaker (it bars this one cycle,
  where the default acts as soon as one edge of S is chosen) but has no variable and no clause
  per edge of S: generation, whose sub-loops are splits of a loop it already knows, runs faster
  with it (figures: same section);
* eagerly (parent pointers with ranks), over the *vertices*: ``on_v <-> some incident edge is
  chosen``, and the vertices on the loop, linked by the edge literals, are connected. Over
  vertices the ranks are shorter and there are fewer links than over edges (a vertex of degree 4
  links 6 pairs of edges), so the exported CNF is smaller.
"""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import combinations, compress
from typing import Hashable, Literal, Sequence
from weakref import WeakKeyDictionary

from .cnf import Clause, VarPool, at_most
from .connectivity import ConnectedSubgraph, Cut, Keep, TruthReader, Value
from .global_rule import GlobalRule
from .solver import Assignment

Vertex = Hashable
Edge = tuple[Vertex, Vertex]


@dataclass
class SingleLoop(GlobalRule):
    """Edges (``{(u, v): literal}``) whose chosen ones form one simple cycle."""

    name: str
    edges: dict[Edge, int]
    pool: VarPool
    #: ``(lit, vertices)``: when ``lit`` is true the loop passes through one of ``vertices``
    #: (see :class:`~satgrid.connectivity.ConnectedSubgraph`: anchored subtour cuts). Over edges:
    #: one of the edges at those vertices is chosen.
    anchors: Sequence[tuple[int, Sequence[Vertex]]] = ()
    #: "exit" (the default: the connected rule's cut, an edge must leave S) or "whole" (S is
    #: not whole; see the module doc).
    cut_form: Literal["exit", "whole"] = "exit"
    #: The connected rule of the lazy lowering: its nodes are the edges (keys of :attr:`edges`).
    connected: ConnectedSubgraph = field(init=False)
    incident: dict[Vertex, list[int]] = field(init=False)
    _steps: list[list[tuple[int, int]]] = field(init=False, repr=False)
    _ends: list[tuple[int, int]] = field(init=False, repr=False)
    _after: list[tuple[int, ...]] = field(init=False, repr=False)
    _read_edges: TruthReader = field(init=False, repr=False)
    _off: list[int] = field(init=False, repr=False)
    _edge_indices: range = field(init=False, repr=False)
    _edges_at: dict[Vertex, list[Edge]] = field(init=False, repr=False)
    _clauses: list[Clause] | None = field(init=False, repr=False, default=None)
    #: Per pool (one per solver: :meth:`~satgrid.encoding.Encoding.copy`), the largest loop of
    #: the last model of two or more loops cut with it (a heuristic memory, see :meth:`_recurring`).
    _last_largest: "WeakKeyDictionary[VarPool, list[int]]" = field(
        init=False, repr=False, default_factory=WeakKeyDictionary)

    def __post_init__(self) -> None:
        self.incident = defaultdict(list)
        at: dict[Vertex, list[Edge]] = defaultdict(list)
        for (u, v), lit in self.edges.items():
            self.incident[u].append(lit)
            self.incident[v].append(lit)
            at[u].append((u, v))
            at[v].append((u, v))
        links = [(a, b, None) for around in at.values() for a, b in combinations(around, 2)]
        self._edges_at = dict(at)
        order = {e: k for k, e in enumerate(self.edges)}
        anchors = [(lit, sorted({e for v in vertices for e in at.get(v, ())}, key=order.__getitem__))
                   for lit, vertices in self.anchors]
        self.connected = ConnectedSubgraph(self.name, dict(self.edges), links, anchors=anchors)
        # The loop walk's arrays: edge k (the k-th key of ``edges``, the connected rule's node k)
        # joins vertices ends[k]; vertex i has the steps steps[i].
        vertex = {v: i for i, v in enumerate(at)}
        self._ends = [(vertex[u], vertex[v]) for u, v in self.edges]
        #: vertex i: (edge k at it, the vertex at k's other end) for each of its edges
        self._steps = [[] for _ in vertex]
        for k, (a, b) in enumerate(self._ends):
            self._steps[a].append((k, b))
            self._steps[b].append((k, a))
        #: The walk on directed edges: state 2k + d = edge k walked to its end ``ends[k][d]``;
        #: after[state] = (k2, the state of k2 walked on from there, ...) for the other edges
        #: there, flat, the last one repeated up to three. Only when every vertex has 2 to 4
        #: edges (grids); else empty, and the walk reads every edge's truth first.
        self._after = []
        if all(2 <= len(steps) <= 4 for steps in self._steps):
            for k, ends in enumerate(self._ends):
                for end in ends:
                    nexts = [(k2, 2 * k2 + (self._ends[k2][0] == end))
                             for k2, _ in self._steps[end] if k2 != k]
                    nexts += nexts[-1:] * (3 - len(nexts))
                    self._after.append(tuple(x for pair in nexts for x in pair))
        self._read_edges = TruthReader(list(self.edges.values()))
        self._off = [-lit for lit in self.edges.values()]
        self._edge_indices = range(len(self.edges))

    def clauses(self, pool: VarPool) -> list[Clause]:
        """Degree 0 or 2 at every vertex, a non-empty loop, and the anchors' clauses.

        Made once: later calls return the same list, so they must pass ``pool`` or a copy of it
        (:meth:`~satgrid.cnf.VarPool.copy`; only vertices of degree above 6 draw auxiliaries)."""
        if self._clauses is None:
            self._clauses = self._make_clauses(pool)
        return self._clauses

    def _make_clauses(self, pool: VarPool) -> list[Clause]:
        clauses: list[Clause] = []
        for lits in self.incident.values():
            clauses += [[-e, *(o for o in lits if o != e)] for e in lits]  # never degree 1
            if len(lits) <= 6:
                clauses += [[-a, -b, -c] for a, b, c in combinations(lits, 3)]
            else:
                clauses += at_most(lits, 2, pool)
        clauses.append(list(self.edges.values()))
        return clauses + self.connected.clauses(pool)

    def connected_part(self) -> ConnectedSubgraph:
        """The loop's "one piece" rule (:meth:`GlobalRule.connected_part`)."""
        return self.connected

    def parity_clauses(self, pool: VarPool) -> list[Clause]:
        """Redundant clauses for the loop's inside and outside: a variable per face of the plane
        graph of the edges (true: inside the loop), the outer face outside, and each edge
        chosen iff the faces on its two sides differ (an edge with the same face on both sides,
        a bridge, is never chosen). Every loop obeys them (Jordan's curve theorem: a simple
        closed curve parts the plane in two, and an edge is on the curve iff it has the inside
        on one side); with the degree clauses, assignments that obey them are exactly those
        whose chosen edges have even degree everywhere (the cycle space of a plane graph is the
        cut space of its dual). They let the solver use parity at unit propagation (the number
        of chosen edges round any set of faces is even), which plain clauses and subtour cuts
        only reach by long searches: the "inside and outside" technique of loop puzzles
        (measured in encodings/diagnostics.md, "Explanations").

        Faces are traced on the straight-line drawing of the vertices as points ``(row,
        col)``: none (an empty list) unless every vertex is such a pair, every edge joins two
        points at distance 1 (so no two edges cross) and the graph is connected (the traced
        walks are then its faces, and the outer one is the walk of negative area)."""
        points = {v for e in self.edges for v in e}
        if not points or not all(isinstance(v, tuple) and len(v) == 2
                                 and all(isinstance(x, int) for x in v) for v in points):
            return []
        if any(abs(u[0] - v[0]) + abs(u[1] - v[1]) != 1 for u, v in self.edges):
            return []
        around: dict[Vertex, list[Vertex]] = defaultdict(list)
        for u, v in self.edges:
            around[u].append(v)
            around[v].append(u)
        seen, stack = {next(iter(points))}, [next(iter(points))]
        while stack:
            for w in around[stack.pop()]:
                if w not in seen:
                    seen.add(w)
                    stack.append(w)
        if len(seen) != len(points):
            return []
        for v, near in around.items():  # counter-clockwise by angle, rows growing downwards
            near.sort(key=lambda w: math.atan2(v[0] - w[0], w[1] - v[1]))
        face: dict[tuple[Vertex, Vertex], int] = {}  # directed edge -> its face's number
        areas: list[int] = []
        for start in ((u, v) for u, v in self.edges for u, v in ((u, v), (v, u))):
            if start in face:
                continue
            area, (u, v) = 0, start
            while (u, v) not in face:
                face[u, v] = len(areas)
                area += u[1] * -v[0] - v[1] * -u[0]  # the shoelace formula with y = -row
                near = around[v]
                u, v = v, near[(near.index(u) - 1) % len(near)]
            areas.append(area)
        outer = min(range(len(areas)), key=areas.__getitem__)
        inside = {f: pool.fresh("inside") for f in range(len(areas)) if f != outer}
        clauses: list[Clause] = []
        for (u, v), e in self.edges.items():
            a, b = inside.get(face[u, v]), inside.get(face[v, u])
            if face[u, v] == face[v, u]:
                clauses.append([-e])
            elif a is None or b is None:
                x = a if b is None else b
                clauses += [[-e, x], [e, -x]]  # type: ignore[list-item]
            else:
                clauses += [[-e, a, b], [-e, -a, -b], [e, -a, b], [e, a, -b]]
        return clauses

    def clue_anchor(self, vertices: Sequence[Vertex]) -> frozenset[int]:
        """A clue anchor "the loop passes one of ``vertices``", in the form :meth:`cuts` takes
        (see :class:`~satgrid.connectivity.ConnectedSubgraph`: clue anchors)."""
        return self.connected.clue_anchor(e for v in vertices for e in self._edges_at.get(v, ()))

    def cuts(self, value: Value, pool: VarPool, keep: Keep | None = None,
             anchors: Sequence[tuple[int, frozenset[int]]] = ()) -> list[Cut]:
        """Cuts excluding the sub-loops of ``value`` (none when its chosen edges are one loop);
        ``anchors``: clue anchors made by :meth:`clue_anchor`."""
        components = self._loops(value) if keep is None and isinstance(value, Assignment) else None
        if components is None:
            return self.connected.cuts(value, pool, keep, None, anchors)
        recurring = self._recurring(components, pool)
        if self.cut_form == "whole":
            return self._whole_cuts(components, value, anchors, recurring)
        return self.connected.cuts(value, pool, keep, components, anchors, cut_largest=recurring)

    def _recurring(self, loops: list[list[int]], pool: VarPool) -> bool:
        """Whether a model of two or more loops has the largest loop of the previous such model
        cut with ``pool`` (then it is cut too). A search that keeps one loop and varies the
        others would otherwise spend a round on each variant: the kept loop obeys every clue it
        passes, and the cuts of the others only reshape them (figures: encodings/rules.md,
        section "The single loop rule: measured"). The memory only chooses which sound cuts to
        add."""
        if len(loops) < 2:
            return False
        last = self._last_largest.get(pool)
        self._last_largest[pool] = loops[0]
        return last is not None and len(last) == len(loops[0]) and set(last) == set(loops[0])

    def _whole_cuts(self, loops: list[list[int]], value: Value,
                    anchors: Sequence[tuple[int, frozenset[int]]], recurring: bool) -> list[Cut]:
        """``condition -> not every edge of S`` for each loop S but the largest: the condition
        is an anchor S misses, else the largest loop being whole too. The largest loop gets an
        anchored cut as well when it is ``recurring`` (:meth:`_recurring`)."""
        if len(loops) < 2:
            return []
        held = self.connected.anchors_for(loops, value, anchors, first=0 if recurring else 1)
        off = self._off.__getitem__  # edge k -> its negated literal
        cuts = [[[-held[i], *map(off, loop)] if i in held else [*map(off, loop), *map(off, loops[0])]]
                for i, loop in enumerate(loops[1:], 1)]
        if 0 in held:
            cuts.append([[-held[0], *map(off, loops[0])]])
        return cuts

    def _loops(self, value: Assignment) -> list[list[int]] | None:
        """The loops of a solver model, as lists of edge indices (the connected rule's nodes),
        largest first; None if some chosen edge ends at a vertex without a second one (not a
        model of the degree clauses). A walk along each loop reads about one edge a step, where
        the general component search reads every edge and every pair of adjacent edges.

        On a grid (every vertex has 2 to 4 edges) whose edges are the variables 1..n (a model's
        first n entries), the loops are walked on the model itself (:meth:`_walk`: a step is a
        table lookup and at most three reads), and the walk stops once the variables of the
        loops found add up to those of every chosen edge: the sum of the first n entries (+v
        chosen, -v not, summed in C) is twice that minus 1 + ... + n. Python reads no edge
        beyond the first chosen one and the loops' neighbours (figures: encodings/rules.md,
        section "The single loop rule: measured")."""
        model = value.model
        n = len(self._ends)
        if not (self._after and self._read_edges.leading and len(model) >= n):
            return self._loops_of(self._read_edges(value))
        head = model[:n]
        left = (sum(head) + n * (n + 1) // 2) // 2  # the sum of the chosen edges' variables
        loops: list[list[int]] = []
        walked: set[int] = set()
        for first in compress(self._edge_indices, map((0).__lt__, head)):
            if first in walked:
                continue
            members = self._walk(head, first)
            if members is None:
                return None
            loops.append(members)
            left -= sum(members) + len(members)
            if not left:
                break
            walked.update(members)
        loops.sort(key=len, reverse=True)
        return loops

    def _walk(self, head: list[int], first: int) -> list[int] | None:
        """The loop through edge ``first`` on a model's first n entries (:meth:`_loops`); None
        if it does not close (a vertex of degree 1, or 3 and more)."""
        members, after = [first], self._after
        state = start = 2 * first + 1
        for _ in self._edge_indices:  # a loop has at most n edges
            c = after[state]
            if head[c[0]] > 0:
                state = c[1]
            elif head[c[2]] > 0:
                state = c[3]
            elif head[c[4]] > 0:
                state = c[5]
            else:
                return None
            if state == start:
                return members
            members.append(state >> 1)
        return None

    def _loops_of(self, on: list[bool]) -> list[list[int]] | None:
        """:meth:`_loops` from the truth of every edge, for any graph."""
        chosen = list(compress(self._edge_indices, on))
        ends, steps = self._ends, self._steps
        loops: list[list[int]] = []
        left = len(chosen)
        walked: set[int] = set()  # edges of the loops found so far (unused for a single loop)
        for first in chosen:
            if first in walked:
                continue
            members, previous = [first], first
            start, node = ends[first]
            while node != start:
                for k, node_after in steps[node]:
                    if on[k] and k != previous:
                        break
                else:
                    return None
                members.append(k)
                previous, node = k, node_after
            loops.append(members)
            left -= len(members)
            if not left:
                break
            walked.update(members)
        loops.sort(key=len, reverse=True)
        return loops

    def eager_clauses(self, pool: VarPool) -> list[Clause]:
        """The vertices on the loop (``on_v <-> some incident edge is chosen``), linked by the
        edge literals, are connected: parent pointers with ranks over vertices."""
        on = {v: pool.var(self.name, "on", v) for v in self.incident}
        clauses: list[Clause] = []
        for v, lits in self.incident.items():
            clauses.append([-on[v], *lits])
            clauses += [[-e, on[v]] for e in lits]
        vertices = ConnectedSubgraph(self.name, on, [(u, v, lit) for (u, v), lit in self.edges.items()])
        return clauses + vertices.eager_clauses(pool)
