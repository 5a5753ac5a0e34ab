"""The connected rule as a propagator inside CaDiCaL's search (IPASIR-UP), the third lowering.

:class:`ConnectivityPropagator` takes :class:`~satgrid.connectivity.ConnectedSubgraph` rules whose
links are plain adjacency (``lit=None``; rules with link literals, such as a loop's, stay lazy) and
is attached to python-sat's CaDiCaL 1.9.5 (``connect_propagator``; IPASIR-UP: Fazekas, Niemetz,
Preiner, Kirchweger, Szeider, Biere, SAT 2023). It watches the node literals and reasons over the
*partial* assignment the solver holds at each propagation fixpoint, as cspuz_core's connectivity
propagator does (semiexp/cspuz_core):

* **Open graph.** The nodes not assigned false. A true node can only ever reach the true nodes
  of its own component of the open graph.
* **Conflict.** Two true nodes in different open components (anchored rule: a true node outside the
  anchor's open component). For an open component S holding one of them, every neighbour of S
  outside S is false (that is what a component is): the clause
  ``~t1 | ~t2 | OR(neighbours of S)`` (anchored: ``~t | OR(neighbours of S)``) is falsified now and
  holds in every connected assignment, since a true path from t1 to t2 leaves S through one of
  those neighbours. Of the two components the one with fewer neighbours gives the clause.
* **Propagation.** When the true nodes all lie in one open component C (anchored: the anchor's),
  every unassigned node outside C is false, with the reason ``~v | ~t | OR(neighbours of C)``
  (anchored: ``~v | OR(neighbours of C)``), by the same path argument. (While an anchor is false
  nothing is forced: a true node is then a conflict.)
* **Models.** ``check_model`` runs the same search on the full assignment; the clause is then
  the usual connectivity cut (all the cut's nodes are false).

Cost control (the callbacks are Python, called by C for every assignment of a watched variable):
``on_assignment`` only records the value, pushes the node on a trail and decides whether the
search must run again; ``propagate`` runs one breadth-first search per rule whose state changed
and nothing otherwise. After a search the nodes of the true component C carry its stamp, so:

* a node turning true inside C, or false outside C, cannot create a conflict or a new
  propagation: no search. A node turning false inside C may split it; one turning true outside
  C is a conflict (or, after a backtrack, see below, may have merged into C): search.
* After a backtrack the open graph only grew, so "in C" stays true while "outside C" may be
  stale: the rule is marked stale and its next change searches again.

Rules with several nodes on one variable, anchors of :attr:`ConnectedSubgraph.anchors` and clue
anchors are taken as plain connectivity (the anchors' clauses are loaded as ever; they only
strengthen lazy cuts). Not done: propagating the articulation points of C that must be true
between two true nodes (cspuz_core does); measured figures in ``encodings/connectivity.md``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Iterable, Sequence

from pysat.engines import Propagator

from .connectivity import ConnectedSubgraph

#: The solver names (python-sat's) that take an external propagator.
PROPAGATOR_SOLVERS = ("cadical195",)


def supports(rule: object) -> bool:
    """Whether :class:`ConnectivityPropagator` can take ``rule`` (a ConnectedSubgraph whose links
    are all plain adjacency)."""
    return isinstance(rule, ConnectedSubgraph) and all(lit is None for _, _, lit in rule.links)


@dataclass
class PropagatorStats:
    """Counters of the callbacks (for the benchmark's cost per callback)."""

    assignments: int = 0
    propagate_calls: int = 0
    searches: int = 0
    search_s: float = 0.0
    conflicts: int = 0
    propagated: int = 0
    model_checks: int = 0
    model_cuts: int = 0


class _Rule:
    """One connected rule's arrays: node i has literal ``lits[i]``, neighbours ``near[i]``, value
    ``val[i]`` (1 true, -1 false, 0 open) and ``stamp[i]`` (== ``main`` when in the true component
    of the last search)."""

    def __init__(self, rule: ConnectedSubgraph):
        self.name = rule.name
        self.lits: list[int] = list(rule.nodes.values())
        self.near: list[list[int]] = [list(n) for n in rule._plain_neighbours]
        index = {n: i for i, n in enumerate(rule.nodes)}
        self.anchor: int | None = None if rule.anchor is None else index.get(rule.anchor, -1)
        self.val = [0] * len(self.lits)
        self.fixed = [False] * len(self.lits)
        self.stamp = [0] * len(self.lits)
        self.main = 0  # stamp of the true component; 0 = no search yet
        self.stale = True

    def component(self, start: int, val: list[int], mark: list[int], gen: int) -> tuple[list[int], list[int]]:
        """The open component of ``start`` (stamped ``gen`` in ``mark``) and its false neighbours."""
        near = self.near
        mark[start] = gen
        stack, members, rim = [start], [start], []
        while stack:
            for v in near[stack.pop()]:
                if mark[v] != gen:
                    if val[v] < 0:
                        mark[v] = gen
                        rim.append(v)
                    else:
                        mark[v] = gen
                        stack.append(v)
                        members.append(v)
        return members, rim

    def analyse(self, val: list[int], gen: int, partial: bool
                ) -> tuple[list[int] | None, list[int], list[int]]:
        """One search under ``val``: (a conflict clause or None, the unassigned nodes forced
        false, the base of their reason clauses). Stamps the true component with ``gen``."""
        lits, stamp = self.lits, self.stamp
        anchor = self.anchor
        self.main = gen  # nothing stamped yet: every node is outside the true component
        if anchor is not None:
            if anchor < 0 or val[anchor] < 0:
                start = None
            else:
                start = anchor
        else:
            start = next((i for i, x in enumerate(val) if x > 0), None)
            if start is None:
                return None, [], []
        if start is None:  # anchored, the anchor is false (or no node): no node may be true
            t = next((i for i, x in enumerate(val) if x > 0), None)
            if t is None:
                return None, [], []
            scratch = [0] * len(val)
            _, rim = self.component(t, val, scratch, 1)
            return [-lits[t], *(lits[s] for s in rim)], [], []
        members, rim = self.component(start, val, stamp, gen)
        other = next((i for i, x in enumerate(val) if x > 0 and stamp[i] != gen), None)
        if other is not None:
            scratch = [0] * len(val)
            _, rim2 = self.component(other, val, scratch, 1)
            if anchor is not None:
                return [-lits[other], *(lits[s] for s in rim2)], [], []
            cut = rim if len(rim) <= len(rim2) else rim2
            return [-lits[start], -lits[other], *(lits[s] for s in cut)], [], []
        if not partial or len(members) == len(val):
            return None, [], []
        forced = [i for i, x in enumerate(val) if x == 0 and stamp[i] != gen]
        base = [lits[s] for s in rim]
        if anchor is None:
            base.insert(0, -lits[start])
        return None, forced, base


class ConnectivityPropagator(Propagator):
    """An IPASIR-UP propagator for connected rules (module doc)."""

    def __init__(self, rules: Sequence[ConnectedSubgraph]):
        super().__init__()
        self.is_lazy = False
        self.rules = [_Rule(r) for r in rules]
        #: variable -> ((rule, node, literal is positive), ...)
        watch: dict[int, list[tuple[_Rule, int, bool]]] = {}
        for rule in self.rules:
            for i, lit in enumerate(rule.lits):
                watch.setdefault(abs(lit), []).append((rule, i, lit > 0))
        self.watch = {v: tuple(w) for v, w in watch.items()}
        self.trail: list[tuple[_Rule, int]] = []
        self.marks: list[int] = []  # trail length at the start of each decision level
        self.dirty: set[_Rule] = set()
        self.gen = 0
        self.pending: list[list[int]] = []  # clauses for add_clause
        self.reasons: dict[int, list[int]] = {}  # propagated literal -> reason base
        self.stats = PropagatorStats()

    def variables(self) -> Iterable[int]:
        """The variables to :meth:`observe`."""
        return self.watch.keys()

    # -- notifications -------------------------------------------------------------------------
    def on_assignment(self, lit: int, fixed: bool = False) -> None:
        self.stats.assignments += 1
        positive = lit > 0
        for rule, i, sign in self.watch[lit if positive else -lit]:
            truth = positive == sign
            if fixed:
                rule.fixed[i] = True
            if rule.val[i] == 0:
                self.trail.append((rule, i))
            rule.val[i] = 1 if truth else -1
            inside = rule.stamp[i] == rule.main
            if rule.stale or (inside if not truth else not inside):
                self.dirty.add(rule)

    def on_new_level(self) -> None:
        self.marks.append(len(self.trail))

    def on_backtrack(self, to: int) -> None:
        if to >= len(self.marks):
            return
        cut = self.marks[to]
        del self.marks[to:]
        trail = self.trail
        kept = []
        for rule, i in trail[cut:]:
            if rule.fixed[i]:
                kept.append((rule, i))
            else:
                rule.val[i] = 0
                rule.stale = True
        del trail[cut:]
        if to == 0:
            trail.extend(kept)
        else:  # fixed at a level above ``to``: keep it with the lowest level's entries
            trail[0:0] = kept
            self.marks = [m + len(kept) for m in self.marks]

    # -- the search ----------------------------------------------------------------------------
    def _run(self, rule: _Rule, val: list[int], partial: bool) -> tuple[list[int] | None, list[int], list[int]]:
        self.gen += 1
        started = time.perf_counter()
        out = rule.analyse(val, self.gen, partial)
        self.stats.searches += 1
        self.stats.search_s += time.perf_counter() - started
        if partial:
            rule.stale = False
        return out

    def propagate(self) -> list[int]:
        self.stats.propagate_calls += 1
        if not self.dirty or self.pending:
            return []
        out: list[int] = []
        for rule in list(self.dirty):
            self.dirty.discard(rule)
            conflict, forced, base = self._run(rule, rule.val, True)
            if conflict is not None:
                self.stats.conflicts += 1
                self.pending.append(conflict)
                self.dirty.add(rule)  # search again once the conflict is resolved
                return []
            for i in forced:
                lit = -rule.lits[i]
                self.reasons[lit] = base
                out.append(lit)
        self.stats.propagated += len(out)
        return out

    def provide_reason(self, lit: int) -> list[int]:
        return [lit, *self.reasons[lit]]

    def add_clause(self) -> list[int]:
        return self.pending.pop() if self.pending else []

    def check_model(self, model: list[int]) -> bool:
        """``model`` holds the observed variables' literals only (python-sat passes those)."""
        self.stats.model_checks += 1
        true = {lit for lit in model if lit > 0}
        for rule in self.rules:
            val = [1 if (lit in true if lit > 0 else -lit not in true) else -1 for lit in rule.lits]
            conflict, _, _ = self._run(rule, val, False)
            rule.stale = True
            if conflict is not None:
                self.stats.model_cuts += 1
                self.pending.append(conflict)
                return False
        return True

    def decide(self) -> int:
        return 0
