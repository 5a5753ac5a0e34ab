"""The *single loop* rule: chosen edges form exactly one simple closed loop.

Rule (as Slitherlink and other loop genres state it): every vertex touches 0 or 2 chosen edges,
at least one edge is chosen, and the chosen edges are connected. The first two parts are plain
clauses; connectivity is the :class:`~satgrid.connectivity.ConnectedSubgraph` rule over the
vertices on the loop (``on_v <-> some incident edge is chosen``) linked by the edge literals, so
it lowers lazily (subtour cuts: a sub-loop S and another sub-loop R cannot both be present unless
an edge leaves S) or eagerly (parent pointers with ranks) like any connectivity rule.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from itertools import combinations, compress
from typing import Hashable, Sequence

from .cnf import Clause, VarPool, at_most
from .connectivity import ConnectedSubgraph, Cut, Keep, TruthReader, Value
from .solver import Assignment

Vertex = Hashable


@dataclass
class SingleLoop:
    """Edges (``{(u, v): literal}``) whose chosen ones form one simple cycle."""

    name: str
    edges: dict[tuple[Vertex, Vertex], int]
    pool: VarPool
    #: ``(lit, vertices)``: when ``lit`` is true the loop passes through one of ``vertices``
    #: (see :class:`~satgrid.connectivity.ConnectedSubgraph`: anchored subtour cuts).
    anchors: Sequence[tuple[int, Sequence[Vertex]]] = ()
    connected: ConnectedSubgraph = field(init=False)
    incident: dict[Vertex, list[int]] = field(init=False)
    _ends: list[tuple[int, int]] = field(init=False, repr=False)
    _read_edges: TruthReader = field(init=False, repr=False)
    _link_indices: range = field(init=False, repr=False)
    _clauses: list[Clause] | None = field(init=False, repr=False, default=None)

    def __post_init__(self) -> None:
        self.incident = defaultdict(list)
        for (u, v), lit in self.edges.items():
            self.incident[u].append(lit)
            self.incident[v].append(lit)
        on = {v: self.pool.var(self.name, "on", v) for v in self.incident}
        links = [(u, v, lit) for (u, v), lit in self.edges.items()]
        self.connected = ConnectedSubgraph(self.name, on, links, anchors=self.anchors)
        index = {v: i for i, v in enumerate(on)}  # the connected rule's node indices
        self._ends = [(index[u], index[v]) for u, v, _ in links]
        self._read_edges = TruthReader([lit for _, _, lit in links])
        self._link_indices = range(len(links))

    def clauses(self, pool: VarPool) -> list[Clause]:
        """Degree 0 or 2 at every vertex, ``on_v`` defined, and a non-empty loop.

        Made once: later calls return the same list, so they must pass ``pool`` or a copy of it
        (:meth:`~satgrid.cnf.VarPool.copy`; only dots of degree above 6 draw auxiliaries)."""
        if self._clauses is None:
            self._clauses = self._make_clauses(pool)
        return self._clauses

    def _make_clauses(self, pool: VarPool) -> list[Clause]:
        clauses: list[Clause] = []
        for v, lits in self.incident.items():
            on = self.connected.nodes[v]
            clauses.append([-on, *lits])
            clauses += [[-e, on] for e in lits]
            clauses += [[-e, *(o for o in lits if o != e)] for e in lits]  # never degree 1
            if len(lits) <= 6:
                clauses += [[-a, -b, -c] for a, b, c in combinations(lits, 3)]
            else:
                clauses += at_most(lits, 2, pool)
        clauses.append(list(self.edges.values()))
        return clauses + self.connected.clauses(pool)

    def cuts(self, value: Value, pool: VarPool, keep: Keep | None = None) -> list[Cut]:
        components = self._loops(value) if keep is None and isinstance(value, Assignment) else None
        return self.connected.cuts(value, pool, keep, components)

    def _loops(self, value: Assignment) -> list[list[int]] | None:
        """The loops of a solver model, as lists of the connected rule's node indices, largest
        first; None if some chosen edge ends at a dot without a second one (not a model of the
        degree clauses). A walk along each loop reads about one edge a step: on a 10x10
        Slitherlink model it took about a quarter of the general component search's time (which
        reads every dot and every edge)."""
        on = self._read_edges(value)
        chosen = list(compress(self._link_indices, on))
        ends, near = self._ends, self.connected._neighbours
        seen = [False] * len(near)
        loops: list[list[int]] = []
        left = len(chosen)
        for first in chosen:
            start, node = ends[first]
            if seen[start]:
                continue
            seen[start] = True
            members, previous = [start], first
            while node != start:
                seen[node] = True
                members.append(node)
                for other, k in near[node]:
                    if on[k] and k != previous:
                        node, previous = other, k
                        break
                else:
                    return None
            loops.append(members)
            left -= len(members)
            if not left:
                break
        loops.sort(key=len, reverse=True)
        return loops

    def eager_clauses(self, pool: VarPool) -> list[Clause]:
        return self.connected.eager_clauses(pool)
