"""The connected rule as a propagator inside CaDiCaL's search (IPASIR-UP), the third lowering.

:class:`ConnectivityPropagator` takes :class:`~satgrid.connectivity.ConnectedSubgraph` rules whose
links are plain adjacency (``lit=None``; rules with link literals, such as a loop's, stay lazy) and
is attached to python-sat's CaDiCaL 1.9.5 or 3.0.0 (``connect_propagator``; IPASIR-UP: Fazekas, Niemetz,
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
the propagator keeps C, the open component of the true nodes, between calls (``home``), and a
change costs about what it touches:

* ``on_assignment`` records the value. A node turning true inside C, or false outside C, changes
  nothing. One turning true outside C means C is stale (a conflict, or C must be found again):
  one search whole at the next fixpoint.
* A node of C turning false may split C. At the next fixpoint the removed nodes are taken one by
  one: on a grid a look at the eight cells around the node first (its open neighbours joined
  around it: no split); else :meth:`_Rule.split` searches from its open neighbours in turn,
  breadth-first, joining searches that meet, until at most one is unfinished: every finished
  search is a piece cut off C (without a true node: its open nodes forced false; with one: a
  conflict, or C is that piece), at a cost of about the pieces' size, not C's (the idea of
  Even and Shiloach's decremental connectivity, "An on-line edge-deletion problem", JACM 1981).
* Every change to C is logged per decision level and undone on backtrack, so a backtrack costs
  what it undoes, and C stays exact at every fixpoint (the callbacks test checks it against
  networkx). A search whole runs only when C is stale: the first true node, a true node outside
  C, a fixed literal kept through a backtrack, or a conflict clause found by a search whole.

Rules with several nodes on one variable, anchors of :attr:`ConnectedSubgraph.anchors` and clue
anchors are taken as plain connectivity (the anchors' clauses are loaded as ever; they only
strengthen lazy cuts). Anchored rules search whole at every change. Measured figures in
``encodings/connectivity.md``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Iterable, Sequence

from pysat.engines import Propagator

from .connectivity import ConnectedSubgraph

#: The solver names (python-sat's) that take an external propagator.
PROPAGATOR_SOLVERS = ("cadical195", "cadical300")


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
    splits: int = 0
    split_s: float = 0.0


def grid_rings(rule: ConnectedSubgraph) -> list[tuple[int, ...]] | None:
    """For a rule over grid cells ``(row, col)`` joined exactly by side adjacency: per node, the
    nodes of the eight cells around it (N, NE, E, SE, S, SW, W, NW; -1 for no node); else None."""
    index = {n: i for i, n in enumerate(rule.nodes)}
    if not all(isinstance(n, tuple) and len(n) == 2 and all(isinstance(x, int) for x in n)
               for n in index):
        return None
    linked = {frozenset((u, v)) for u, v, _ in rule.links if u in index and v in index}
    sides = {frozenset(((r, c), (r + dr, c + dc))) for r, c in index for dr, dc in ((0, 1), (1, 0))
             if (r + dr, c + dc) in index}
    if linked != sides:
        return None
    around = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
    return [tuple(index.get((r + dr, c + dc), -1) for dr, dc in around) for r, c in index]


class _Rule:
    """One connected rule's arrays: node i has literal ``lits[i]``, neighbours ``near[i]``, value
    ``val[i]`` (1 true, -1 false, 0 open) and ``home[i]`` (in C, the believed open component of the
    true nodes; module doc)."""

    def __init__(self, rule: ConnectedSubgraph):
        self.name = rule.name
        self.lits: list[int] = list(rule.nodes.values())
        self.near: list[list[int]] = [list(n) for n in rule.node_neighbours]
        index = {n: i for i, n in enumerate(rule.nodes)}
        self.anchor: int | None = None if rule.anchor is None else index.get(rule.anchor, -1)
        n = len(self.lits)
        self.val = [0] * n
        self.fixed = [False] * n
        self.stamp = [0] * n  # scratch marks of :meth:`analyse`
        self.label = [0] * n  # scratch marks of :meth:`split`
        self.home = [True] * n
        #: C may not be the open component of the true nodes: the next change searches it whole.
        self.loose = True
        self.trues = 0  # true nodes now
        self.true_list: list[int] = []  # every node assigned true, newest last (some no more)
        self.removed: list[int] = []  # nodes of C assigned false since the last search
        self.ring = grid_rings(rule)

    def local_ok(self, v: int) -> bool:
        """Whether the open neighbours of grid node ``v`` in C are joined around it (through its
        eight surrounding cells), so that taking ``v`` out of C cannot split C."""
        val, home = self.val, self.home
        o = [j >= 0 and val[j] >= 0 and home[j] for j in self.ring[v]]  # type: ignore[index]
        sides = o[0] + o[2] + o[4] + o[6]
        if sides <= 1:
            return True
        joins = (o[0] and o[1] and o[2]) + (o[2] and o[3] and o[4]) + (o[4] and o[5] and o[6]) + \
            (o[6] and o[7] and o[0])
        return sides - joins <= 1

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

    def split(self, removed: list[int], gen: int
              ) -> list[tuple[list[int], list[int], list[int]]] | None:
        """The pieces that the nodes ``removed`` cut off C: open components of C, each as
        (members, false neighbours, true members), found by one search per open neighbour of a
        removed node, run in turn one node at a time and joined where they meet, until at most
        one is unfinished (the rest of C, never searched to its end). So the cost is about the
        size of the pieces cut off, not of C (breadth-first: searches on the two sides of a
        short cycle meet after a few steps). None when a search meets an open node outside C (C
        is stale) or the searches grow past half the nodes: search it whole."""
        val, near, home, label = self.val, self.near, self.home, self.label
        starts: list[int] = []
        base = gen * (len(val) + 1)  # label[i] - base = the search that reached i (this call)
        for v in removed:
            for w in near[v]:
                if val[w] >= 0 and label[w] < base:
                    if not home[w]:
                        return None
                    label[w] = base + len(starts)
                    starts.append(w)
        if len(starts) < 2:
            return []
        root = list(range(len(starts)))
        queues = [[s] for s in starts]  # a search's queue is also its piece's members
        heads = [0] * len(starts)
        rims: list[list[int]] = [[] for _ in starts]
        trues = [[s] if val[s] > 0 else [] for s in starts]
        done: list[int] = []
        live = len(starts)

        def find(k: int) -> int:
            while root[k] != k:
                root[k] = root[root[k]]
                k = root[k]
            return k

        budget = len(val) // 2  # beyond it one search whole costs less (no turns, no joins)
        while live > 1:
            budget -= 1
            if budget < 0:
                return None
            for g in range(len(starts)):
                if root[g] != g or heads[g] < 0:
                    continue
                queue = queues[g]
                if heads[g] == len(queue):
                    heads[g] = -1  # finished: a piece cut off
                    done.append(g)
                    live -= 1
                    if live <= 1:
                        break
                    continue
                x = queue[heads[g]]
                heads[g] += 1
                for w in near[x]:
                    v = val[w]
                    if v < 0:
                        rims[g].append(w)
                        continue
                    if not home[w]:
                        return None
                    k = label[w] - base
                    if k < 0:
                        label[w] = base + g
                        queue.append(w)
                        if v > 0:
                            trues[g].append(w)
                    else:
                        h = find(k)
                        if h != g:  # the searches met: one piece (h is unfinished, see below)
                            root[h] = g
                            # g's queue keeps its order: h's members go before its head
                            queues[g] = queue = queues[h][:heads[h]] + queue[:heads[g]] + \
                                queues[h][heads[h]:] + queue[heads[g]:]
                            heads[g] += heads[h]
                            rims[g] += rims[h]
                            trues[g] += trues[h]
                            heads[h] = -1
                            live -= 1
        # A finished search never meets an unfinished one: it has looked at every open
        # neighbour of its piece, and would have joined the other search there.
        return [(queues[g], rims[g], trues[g]) for g in done]

    def some_true(self, outside: set[int]) -> int | None:
        """A true node not in ``outside`` (None if there is none)."""
        val, trues = self.val, self.true_list
        while trues and val[trues[-1]] <= 0:
            trues.pop()
        return next((t for t in reversed(trues) if val[t] > 0 and t not in outside), None)


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
        #: Changes of ``home`` and ``loose`` to undo on backtrack: (rule, node or -1, old value).
        self.undo: list[tuple[_Rule, int, bool]] = []
        self.undo_marks: list[int] = []  # undo length at the start of each decision level
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
        # CaDiCaL 3.0.0 also tells of literals fixed at level 0 whose variables were never
        # observed (a clue cell's): they are no node, and say nothing here
        for rule, i, sign in self.watch.get(lit if positive else -lit, ()):
            if fixed:
                rule.fixed[i] = True
            before = rule.val[i]
            if before == 0:
                self.trail.append((rule, i))
            elif before == (1 if positive == sign else -1):  # told again (now fixed)
                continue
            if positive == sign:
                rule.val[i] = 1
                rule.trues += 1
                rule.true_list.append(i)
                if rule.loose or not rule.home[i]:
                    rule.loose = True
                    self.dirty.add(rule)
            else:
                rule.val[i] = -1
                if rule.home[i]:
                    rule.removed.append(i)
                    self.dirty.add(rule)

    def on_new_level(self) -> None:
        self.marks.append(len(self.trail))
        self.undo_marks.append(len(self.undo))

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
                if rule.val[i] > 0:
                    rule.trues -= 1
                rule.val[i] = 0
        del trail[cut:]
        if to == 0:
            trail.extend(kept)
        else:  # fixed at a level above ``to``: keep it with the lowest level's entries
            trail[0:0] = kept
            self.marks = [m + len(kept) for m in self.marks]
        undo = self.undo
        for rule, i, old in reversed(undo[self.undo_marks[to]:]):
            if i < 0:
                rule.loose = old
            else:
                rule.home[i] = old
        del undo[self.undo_marks[to]:]
        del self.undo_marks[to:]
        for rule, _ in kept:  # C at level ``to`` was found with these open: search again
            rule.loose = True
        for rule in self.rules:
            if rule.loose:  # stale at level ``to`` (or made so above): search it at the fixpoint
                self.dirty.add(rule)
            if rule.removed:
                rule.removed = [i for i in rule.removed if rule.val[i] < 0]
            val, trues = rule.val, rule.true_list  # drop the nodes no more true from its end
            while trues and val[trues[-1]] <= 0:
                trues.pop()

    # -- the searches --------------------------------------------------------------------------
    def _run(self, rule: _Rule, val: list[int], partial: bool) -> tuple[list[int] | None, list[int], list[int]]:
        self.gen += 1
        started = time.perf_counter()
        out = rule.analyse(val, self.gen, partial)
        self.stats.searches += 1
        self.stats.search_s += time.perf_counter() - started
        return out

    def _set_home(self, rule: _Rule, i: int, value: bool) -> None:
        self.undo.append((rule, i, rule.home[i]))
        rule.home[i] = value

    def _whole(self, rule: _Rule, out: list[int]) -> list[int] | None:
        """Search ``rule`` whole; C becomes the true component. A conflict clause, or None with
        the forced literals appended to ``out``."""
        conflict, forced, base = self._run(rule, rule.val, True)
        rule.removed = []
        if conflict is not None:
            rule.loose = True  # search again once the conflict is resolved
            return conflict
        stamp, gen, home = rule.stamp, self.gen, rule.home
        for i, inside in enumerate(home):
            if inside != (stamp[i] == gen):
                self._set_home(rule, i, not inside)
        if rule.loose:
            self.undo.append((rule, -1, True))
            rule.loose = False
        for i in forced:
            lit = -rule.lits[i]
            self.reasons[lit] = base
            out.append(lit)
        return None

    def _cut_off(self, rule: _Rule, out: list[int]) -> list[int] | None:
        """The pieces the removed nodes cut off C, taken out one by one (the later ones still
        open), each first by :meth:`_Rule.local_ok` on grids, then by :meth:`_Rule.split`: a
        conflict clause when true nodes lie in two pieces (or in one and the rest of C), else
        the open nodes of the pieces without a true node forced false; one search whole when the
        true nodes all lie in one piece or C was stale."""
        batch, rule.removed = rule.removed, []
        val, home, lits = rule.val, rule.home, rule.lits
        for v in batch:  # all false: open again until their turn
            val[v] = 0
        try:
            for k, v in enumerate(batch):
                val[v] = -1
                if not home[v] or (rule.ring is not None and rule.local_ok(v)):
                    continue
                self.gen += 1
                started = time.perf_counter()
                pieces = rule.split([v], self.gen)
                self.stats.splits += 1
                self.stats.split_s += time.perf_counter() - started
                if pieces is None:
                    break
                if not pieces:
                    continue
                held = [p for p in pieces if p[2]]
                rest = rule.trues - sum(len(p[2]) for p in held)
                if len(held) + (rest > 0) > 1:  # true nodes cut apart
                    members, rim, trues = held[0]
                    other = held[1][2][0] if len(held) > 1 else rule.some_true(set(members))
                    if other is None:
                        break
                    # C is left as it was: once the solver has backtracked, the removed nodes
                    # still false are searched from again
                    rule.removed = batch[k:]
                    return [-lits[trues[0]], -lits[other], *(lits[s] for s in set(rim))]
                if held:  # every true node in one piece: C is that piece
                    break
                later = set(batch[k + 1:])
                t = rule.some_true({i for p in pieces for i in p[0]})
                if t is None:
                    break
                for members, rim, _ in pieces:
                    base = [-lits[t], *(lits[s] for s in set(rim))]
                    for i in members:
                        self._set_home(rule, i, False)
                        if val[i] == 0 and i not in later:
                            lit = -lits[i]
                            self.reasons[lit] = base
                            out.append(lit)
            else:
                return None
        finally:
            for v in batch:
                val[v] = -1
        return self._whole(rule, out)

    def propagate(self) -> list[int]:
        self.stats.propagate_calls += 1
        if self.pending or not self.dirty:
            return []
        out: list[int] = []
        for rule in list(self.dirty):
            self.dirty.discard(rule)
            if rule.anchor is None and not rule.trues:
                if rule.removed:  # C may fall apart while no node is true: search it whole later
                    rule.removed = []
                    rule.loose = True
                continue
            if rule.loose or rule.anchor is not None:
                conflict = self._whole(rule, out)
            else:
                conflict = self._cut_off(rule, out)
            if conflict is not None:
                self.stats.conflicts += 1
                self.pending.append(conflict)
                self.dirty.add(rule)
                return []
        if len(out) > 1:
            out = list(dict.fromkeys(out))  # a search whole after pieces may force them again
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
            if conflict is not None:
                self.stats.model_cuts += 1
                self.pending.append(conflict)
                return False
        return True

    def decide(self) -> int:
        return 0
