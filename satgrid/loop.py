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
from itertools import combinations
from typing import Hashable, Sequence

from .cnf import Clause, VarPool, at_most
from .connectivity import ConnectedSubgraph, Cut, Keep, Value

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

    def __post_init__(self) -> None:
        self.incident = defaultdict(list)
        for (u, v), lit in self.edges.items():
            self.incident[u].append(lit)
            self.incident[v].append(lit)
        on = {v: self.pool.var(self.name, "on", v) for v in self.incident}
        links = [(u, v, lit) for (u, v), lit in self.edges.items()]
        self.connected = ConnectedSubgraph(self.name, on, links, anchors=self.anchors)

    def clauses(self, pool: VarPool) -> list[Clause]:
        """Degree 0 or 2 at every vertex, ``on_v`` defined, and a non-empty loop."""
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
        return self.connected.cuts(value, pool, keep)

    def eager_clauses(self, pool: VarPool) -> list[Clause]:
        return self.connected.eager_clauses(pool)
