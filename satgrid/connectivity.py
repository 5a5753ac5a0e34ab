"""The *connected subgraph* rule, lowered lazily (CEGAR cuts) or eagerly (parent pointers + ranks).

Rule: the nodes whose literal is true, joined by the links that are usable, form one connected
component. A link ``(u, v, lit)`` is usable when both ends are true and, if ``lit`` is given, ``lit``
is true: cells of a grid region use ``lit=None`` (adjacency), a loop's dots use the edge literal.
With an ``anchor`` node the rule reads "every true node is connected to the anchor" (an island
and its numbered cell); without one, "all true nodes form one component" (a connected wall).

Lazy cut (the connectivity cuts of CEGAR approaches to grid puzzles; see SAT_NOTES):
for a component S of the true nodes, every usable path from S to a true node outside S leaves S
through a link whose *guard* is true (the far cell's literal, or the link's own literal). So, with
``t_S`` meaning "some node of S is true" and ``t_R`` the same for another component R (or the
anchor's side):  ``t_S & t_R -> OR(guards of the links leaving S)``. The cut depends on the rule
only, never on clues, so it stays sound for every later query on the same solver.

Anchored cut (optional ``anchors``): a pair ``(lit, nodes)`` adds the rule "when ``lit`` is true,
some node of ``nodes`` is true" (a loop clue above 0 behind its selector needs a corner dot
on the loop). Then a component S that contains no node of an anchor whose ``lit`` holds cannot be
the whole structure: ``t_S & lit -> OR(guards of the links leaving S)``. The anchor's ``lit`` is
fixed by an assumption (a clue selector), so the cut acts as soon as one node of S is true, and
it needs no ``t_R`` clauses over the largest component (SAT_NOTES, "Cuts that worked": the
generalised subtour cut). Like the pair cut it is made for every component but the largest (on
60x60 loop puzzles cutting the largest too cost |largest| clauses an iteration and was slower),
unless the caller asks for it (``cut_largest``): a caller that sees the same largest component
in two models in a row cuts it too, since a largest component that obeys its own part of the
puzzle is otherwise never cut and the search only reshapes the others (the loop rule's case,
measured in the dot-lattice loop genre's encodings/ page). Without a usable anchor a component falls back to the
pair cut (the largest one paired with the second largest).

Clue anchors: a clue whose own clauses already force one of some nodes true while its selector
is on (a number above 0 counting a cell's loop sides puts a side of the cell on the loop)
anchors the cuts with no clause and no variable of its own. The session passes such
``(selector, clue_anchor(nodes))`` pairs to :meth:`ConnectedSubgraph.cuts` (``anchors``), where
they act like the rule's own anchors, with fewer variables and clauses than an anchor variable
per cell implied by the clue (figures: encodings/connectivity.md, "Figures moved out of the
code").

Eager form: a root (the anchor, or the first true node in a fixed order), a parent pointer from
every other true node to a true neighbour over a usable link, and binary ranks that strictly
decrease along parent pointers (so pointer chains are acyclic and end at the root). Every
connected set has such pointers (a BFS tree, rank = depth), so solutions are preserved exactly.
Size: O(links * log nodes) clauses.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property
from itertools import chain, compress
from operator import itemgetter
from typing import Callable, Hashable, Iterable, Iterator, Sequence

from .cnf import Clause, VarPool
from .global_rule import GlobalRule

Node = Hashable
#: A side of more nodes than this is stood for by its far nodes in :meth:`ConnectedSubgraph.side_cuts`.
BIG_SIDE = 32
Value = Callable[[int], bool]
Cut = list[Clause]
#: A filter a caller may pass to a rule's ``cuts``: given the literals of a cut's last clause (its
#: head, as an iterable the filter may stop reading; the cut's own fresh variables may be left out
#: or included, so a filter must not count on them), is the cut wanted? Rules ask it as early as they can, before building the cut if
#: possible (the grading ladder keeps only cuts that act on a partial assignment).
Keep = Callable[[Iterable[int]], bool]


@dataclass
class ConnectedSubgraph(GlobalRule):
    """True nodes, joined by usable links, form one component (or all reach ``anchor``)."""

    name: str
    nodes: dict[Node, int]
    links: Sequence[tuple[Node, Node, int | None]]
    anchor: Node | None = None
    #: The most nodes that can be true at once (bounds the eager ranks); None = all nodes.
    max_true: int | None = None
    #: ``(lit, nodes)``: when ``lit`` is true, some node of ``nodes`` is true. Part of the rule (its
    #: clauses are added in both lowerings); lazily it strengthens the cuts (see the module doc).
    anchors: Sequence[tuple[int, Sequence[Node]]] = ()
    #: Lazy cuts through smallest separators (:func:`separator`; plain adjacency only): on by
    #: default for regions of cells (:meth:`satgrid.model.Model.connected`), not for loops.
    separators: bool = False

    def connected_part(self) -> ConnectedSubgraph:
        """The rule itself (:meth:`GlobalRule.connected_part`)."""
        return self

    def __post_init__(self) -> None:
        # Index arrays for :meth:`components`, which runs once per CEGAR iteration: a plain
        # search over them is much faster than building a networkx graph (figures:
        # encodings/connectivity.md, "Figures moved out of the code").
        # Node i is the i-th key of ``nodes`` (:meth:`component_indices` speaks of these).
        self._keys = list(self.nodes)
        index = {n: i for i, n in enumerate(self._keys)}
        #: Node -> its index i (read by rules that share this region's tables).
        self.node_index = index
        self._node_lits = list(self.nodes.values())
        self._link_lits = [lit for _, _, lit in self.links]
        #: Every link is plain adjacency (no literal): the search skips the link test.
        self._plain = self._link_lits.count(None) == len(self._link_lits)
        #: Per node index, its neighbours' indices, every link counted whatever its literal
        #: (the links with their numbers: :attr:`_neighbours`); read by rules that share it.
        self.node_neighbours: list[list[int]] = [[] for _ in self._keys]
        for i, j, _ in self._link_ends():
            self.node_neighbours[i].append(j)
            self.node_neighbours[j].append(i)
        self._anchor_sets = [self.clue_anchor(nodes) for _, nodes in self.anchors]
        self._read_nodes = TruthReader(self._node_lits)
        self._read_links = None if self._plain else TruthReader(self._link_lits)
        self._read_anchors = TruthReader([lit for lit, _ in self.anchors])
        #: The inside nodes of every cut made since :meth:`record_sides` (None: not recording).
        self._sides: list[frozenset[int]] | None = None

    def _link_ends(self) -> Iterator[tuple[int, int, int]]:
        """Each link between two nodes as (node index, node index, link number): one lookup per
        end (a region's rule is built for every puzzle)."""
        index = self.node_index
        for k, (u, v, _) in enumerate(self.links):
            i, j = index.get(u), index.get(v)
            if i is not None and j is not None:
                yield i, j, k

    @cached_property
    def _neighbours(self) -> list[list[tuple[int, int]]]:
        """Per node, its neighbours with the number of the link to each: for links with
        literals, and for cuts that read their guards one by one (made when first asked; plain
        adjacency searches :attr:`node_neighbours`)."""
        neighbours: list[list[tuple[int, int]]] = [[] for _ in self._keys]
        for i, j, k in self._link_ends():
            neighbours[i].append((j, k))
            neighbours[j].append((i, k))
        return neighbours

    @cached_property
    def _plain_sets(self) -> list[frozenset[int]]:
        """Per node, its neighbours as a set (made when a cut first asks)."""
        return [frozenset(near) for near in self.node_neighbours]

    def clue_anchor(self, nodes: Iterable[Node]) -> frozenset[int]:
        """The form a clue anchor on ``nodes`` takes in :meth:`cuts` (``anchors``)."""
        index = self.node_index
        return frozenset(index[n] for n in nodes if n in index)

    # -- always-on clauses -------------------------------------------------------------------
    def clauses(self, pool: VarPool) -> list[Clause]:
        """Clauses the rule needs in both lowerings: one per anchor (none for plain connectivity)."""
        return [[-lit, *(self.nodes[n] for n in nodes)] for lit, nodes in self.anchors]

    # -- lazy lowering ------------------------------------------------------------------------
    def components(self, value: Value) -> list[set[Node]]:
        """The components of the true nodes under ``value``, largest first."""
        keys = self._keys
        return [{keys[i] for i in members} for members in self.component_indices(value)]

    def component_indices(self, value: Value) -> list[list[int]]:
        """:meth:`components` as lists of node indices (the order of ``nodes``), largest first:
        for callers that keep their own index arrays (no sets of keys built)."""
        return self._search(value)[0]

    def _search(self, value: Value) -> tuple[list[list[int]], list[bool] | None]:
        """The components (as :meth:`component_indices`) and which links are usable (None when
        every link is plain adjacency)."""
        on = self._read_nodes(value)
        seen = [not x for x in on]
        components = []
        usable = None
        if self._plain:
            neighbours = self.node_neighbours
            for start in [i for i, x in enumerate(on) if x]:
                if seen[start]:
                    continue
                seen[start] = True
                stack, members = [start], [start]
                while stack:
                    for v in neighbours[stack.pop()]:
                        if not seen[v]:
                            seen[v] = True
                            stack.append(v)
                            members.append(v)
                components.append(members)
        else:
            usable = self._read_links(value)  # type: ignore[misc]
            links = self._neighbours
            for start in [i for i, x in enumerate(on) if x]:
                if seen[start]:
                    continue
                seen[start] = True
                stack, members = [start], [start]
                while stack:
                    for v, k in links[stack.pop()]:
                        if not seen[v] and usable[k]:
                            seen[v] = True
                            stack.append(v)
                            members.append(v)
                components.append(members)
        components.sort(key=len, reverse=True)
        return components, usable

    def cuts(self, value: Value, pool: VarPool, keep: Keep | None = None,
             components: list[list[int]] | None = None,
             anchors: Sequence[tuple[int, frozenset[int]]] = (),
             cut_largest: bool = False) -> list[Cut]:
        """Cut clauses excluding this assignment's disconnected parts (empty when it obeys).

        The pair cuts of one call share the largest component's literal ``t_R`` (its clauses
        come with the first cut that uses it): |largest| clauses a round instead of a cut.
        ``keep`` (see :data:`Keep`) is asked before a cut is built. ``components`` (as
        :meth:`component_indices`) may come from a caller that found them faster; then every
        link inside a component must be usable and no link between two of them. ``anchors``:
        clue anchors ``(selector, self.clue_anchor(nodes))`` (see the module doc).
        ``cut_largest``: cut the largest component too (anchored if an anchor misses it, else
        paired with the second largest), for callers that see it recur (see the module doc).
        """
        if components is None:
            components, usable = self._search(value)
        elif len(components) < 2 and self.anchor is None:
            return []
        else:
            usable = None if self._plain else self._read_links(value)  # type: ignore[misc]
        if self.anchor is not None:
            root = self.node_index.get(self.anchor)
            made = [self._cut(s, None, pool, usable, keep=keep) for s in components if root not in s]
            return [cut for cut in made if cut is not None]
        if len(components) < 2:
            return []
        first = 0 if cut_largest else 1
        anchor_nodes: dict[int, frozenset[int]] = {}
        held = self.anchors_for(components, value, anchors, first, nodes_of=anchor_nodes) \
            if self.anchors or anchors else {}
        cuts = []
        shared: list[int] = []  # t_R of the largest component, once made
        narrow = self.separators and keep is None and usable is None and self._plain
        # the round's separators share one contracted flow graph (FlowGraph)
        graph = FlowGraph(self.node_neighbours, self._read_nodes(value), components) if narrow else None
        order = [*range(1, len(components)), *([0] if cut_largest else [])]  # the largest last
        for index in order:
            s = components[index]
            if index in held and graph is not None:
                # parted from the anchor's nodes and the largest component too: still parted from
                # the anchor, and the separator stays near S (one anchor cell far off has a
                # smaller ring of its own, a cut that says little)
                far = [*anchor_nodes[index], *components[1 if index == 0 else 0]]
                cut = self._separator_cut(s, far, graph, pool, condition=held[index])
            elif index in held:
                cut = self._cut(s, None, pool, usable, condition=held[index], keep=keep)
            elif graph is not None:
                other = components[1 if index == 0 else 0]
                cut = self._separator_cut(s, other, graph, pool, shared=shared if index else None)
            else:
                other = components[1 if index == 0 else 0]
                cut = self._cut(s, other, pool, usable, shared=shared if index else None, keep=keep)
            if cut is not None:
                cuts.append(cut)
        return cuts

    def fenced_cuts(self, value: Value, pool: VarPool, off: set[int]) -> list[Cut]:
        """Cuts of every component but the largest through a smallest separator in which the
        nodes whose literal is in ``off`` (known false for the question at hand, for example
        assumed false) cost nothing: ``t_A & t_B -> OR(guards)``, where A is the component's side
        of the separator, the guards are A's neighbours outside it (the separator and the nodes
        of ``off`` round A) and ``t_B`` is implied by every node beyond (so the cut holds
        whichever literals are false: a path from A to a node beyond leaves A through a guard).
        A fence of known-false nodes with a few gaps round a part of the grid (a sub-loop on one
        side of a wall of crossed-out edges) is one cut through its gaps, where cuts round the
        components alone reshape them one CEGAR round at a time. Plain adjacency only (else
        none); measured in encodings/diagnostics.md ("Explanations")."""
        if not self._plain:
            return []
        components = self.component_indices(value)
        if len(components) < 2:
            return []
        lits, full = self._node_lits, self.node_neighbours
        open_ = [lit not in off for lit in lits]
        neighbours = [[w for w in near if open_[w]] for near in full]
        # the nodes of ``off`` are false in ``value`` (assumed false), so the components of the
        # true nodes are the same without them
        graph = FlowGraph(neighbours, self._read_nodes(value), components)
        cuts = []
        for inside in components[1:]:
            side, _ = graph.separator(inside, components[0])
            mark = set(side)
            rim = {w for u in side for w in full[u] if w not in mark}
            beyond = [w for w in range(len(lits)) if w not in mark and w not in rim]
            cuts.append(self._assemble(side, beyond, pool, {lits[w] for w in rim}, None, None))
        return cuts

    def _separator_cut(self, inside: list[int], other: list[int], graph: FlowGraph, pool: VarPool,
                       shared: list[int] | None = None, condition: int | None = None) -> Cut:
        """The cut of ``inside`` through a smallest separator (:func:`separator`, on the round's
        ``graph``): a fewest set of false nodes whose removal parts ``inside`` from ``other``, A
        the side of ``inside``.
        Against another component R (``shared`` holds its ``t_R`` once made, None: not shared):
        ``t_A & t_R -> OR(separator)``;
        against an anchor's nodes: ``t_A & condition -> OR(separator)``."""
        side, cut_nodes = graph.separator(inside, other)
        lits = self._node_lits
        return self._assemble(side, None if condition is not None else list(other), pool,
                              {lits[v] for v in cut_nodes}, condition, shared)

    def _assemble(self, inside: Iterable[int], other: list[int] | None, pool: VarPool,
                  guards: set[int], condition: int | None, shared: list[int] | None) -> Cut:
        """``t_in & [condition] & [t_other] -> OR(guards)``, with ``t_in`` implied by each node of
        ``inside`` and ``t_other`` by each node of ``other`` (or taken from ``shared``, where a
        new one is left for the next cut of the round)."""
        lits = self._node_lits
        if self._sides is not None:
            self._sides.append(frozenset(inside))
        t_in = pool.fresh("cut")
        cut = [[-lits[u], t_in] for u in inside]
        head = [-t_in]
        if condition is not None:
            head.append(-condition)
        if other is not None:
            if shared:
                t_other = shared[0]
            else:
                t_other = pool.fresh("cut")
                cut += [[-lits[u], t_other] for u in other]
                if shared is not None:
                    shared.append(t_other)
            head.append(-t_other)
        cut.append(head + sorted(guards))
        return cut

    def anchors_for(self, components: list[list[int]], value: Value,
                    clue_anchors: Sequence[tuple[int, frozenset[int]]] = (),
                    first: int = 1, nodes_of: dict[int, frozenset[int]] | None = None) -> dict[int, int]:
        """For each component from index ``first`` on (by default all but the largest) the
        literal of the first true anchor (the rule's own, then the clue anchors) with no node
        in it, by component index (and that anchor's nodes into ``nodes_of``, if given)."""
        found: dict[int, int] = {}
        members = [set(s) for s in components[first:]]
        own = [(lit, nodes) for (lit, _), nodes, on in
               zip(self.anchors, self._anchor_sets, self._read_anchors(value)) if on]
        for lit, nodes in chain(own, ((lit, nodes) for lit, nodes in clue_anchors if value(lit))):
            for i, s in enumerate(members, first):
                if i not in found and s.isdisjoint(nodes):
                    found[i] = lit
                    if nodes_of is not None:
                        nodes_of[i] = nodes
            if len(found) == len(members):
                break
        return found

    def _cut(
        self,
        inside: list[int],
        other: list[int] | None,
        pool: VarPool,
        usable: list[bool] | None,
        condition: int | None = None,
        shared: list[int] | None = None,
        keep: Keep | None = None,
    ) -> Cut | None:
        # A link leaving S is usable only if its far node and its own literal are both true, so
        # either one alone is a sound guard. Take one that is false now, or the cut would not
        # exclude this assignment and the CEGAR loop would spin: a link literal can be true
        # beside a false far node unless the genre ties links to their ends (loops do).
        lits, links, neighbours = self._node_lits, self._link_lits, self._neighbours
        mark = set(inside)

        def leaving():
            seen = set()
            for u in inside:
                for v, k in neighbours[u]:
                    if v not in mark:
                        guard = lits[v] if usable is None or usable[k] else links[k]
                        if guard not in seen:
                            seen.add(guard)
                            yield guard

        # ``keep`` may stop reading the guards early (most path segments of a partial loop are
        # refused at their second open guard)
        if keep is not None and not keep(chain([-condition] if condition is not None else [], leaving())):
            return None
        if usable is None and self._plain:  # links are adjacency: the far nodes are the guards
            guards = {lits[v] for v in set().union(*[self._plain_sets[u] for u in inside]) - mark}
        else:
            guards = set(leaving())
        return self._assemble(inside, other, pool, guards, condition, shared)

    # -- cuts carried to another encoding of the graph ----------------------------------------
    def record_sides(self) -> None:
        """Keep the inside nodes of every cut made from now on (:meth:`sides`), for
        :meth:`side_cuts` on another encoding of the same graph. Plain adjacency and no anchor
        node only: there a side is a fact about the graph alone (see :meth:`side_cuts`)."""
        if not self._plain or self.anchor is not None:
            raise ValueError(f"{self.name}: sides are kept for plain adjacency without an anchor only")
        self._sides = []

    def sides(self) -> list[frozenset[Node]]:
        """The inside nodes (by key) of the cuts made since :meth:`record_sides`, each once."""
        keys = self._keys
        return list(dict.fromkeys(frozenset(keys[i] for i in side) for side in self._sides or ()))

    def side_cuts(self, sides: Iterable[frozenset[Node]], far: Iterable[Node], pool: VarPool) -> list[Clause]:
        """Cuts over the sides ``sides`` (sets of node keys, from :meth:`sides` of a rule on the
        same graph, under any clues and anchors), valid in every assignment that obeys this rule:
        for a side A with neighbours N(A), ``x_a & t_X -> OR(N(A))`` for each node ``a`` of A,
        where X holds the nodes of ``far`` outside A (nodes the caller expects true: the cut acts
        when one of them is) and ``t_X`` is implied by each node of X. Proof: a path of true nodes
        from ``a`` to a true node of X leaves A through a node of N(A); a node of X in N(A)
        satisfies the head itself. A node of A must not count in X (A alone may hold every true
        node). So the cut names the nodes only: no clue, anchor or layout of the encoding the
        side came from, however the side was found. ``t_X`` is shared by the sides with the same
        X; a side of more than :data:`BIG_SIDE` nodes gets the clauses of its far nodes only (any
        part of A may stand for it). One clause a node rather than a literal ``t_A`` implied by
        each node: the solver's calls stay cheaper (measured in the encodings document of the
        genre whose generator carries them). Plain adjacency and no anchor node only
        (:meth:`record_sides`); a side with a node this rule lacks is skipped."""
        if not self._plain or self.anchor is not None:
            raise ValueError(f"{self.name}: side cuts are for plain adjacency without an anchor only")
        index, lits, near = self.node_index, self._node_lits, self.node_neighbours
        far = [index[n] for n in far if n in index]
        shared: dict[frozenset[int], int] = {}
        clauses: list[Clause] = []
        for keys in sides:
            if any(n not in index for n in keys):
                continue
            inside = {index[n] for n in keys}
            rim = {w for u in inside for w in near[u] if w not in inside}
            beyond = frozenset(w for w in far if w not in inside)
            if not rim or not beyond:
                continue
            t_far = shared.get(beyond)
            if t_far is None:
                t_far = shared[beyond] = pool.fresh("cut")
                clauses += [[-lits[w], t_far] for w in sorted(beyond)]
            # a big side is stood for by its far nodes: t_A may be implied by any part of A
            some = inside if len(inside) <= BIG_SIDE else (inside.intersection(far) or inside)
            head = sorted(lits[w] for w in rim)
            clauses += [[-lits[u], -t_far, *head] for u in sorted(some)]
        return clauses

    # -- eager lowering -----------------------------------------------------------------------
    def eager_clauses(self, pool: VarPool) -> list[Clause]:
        """A complete CNF encoding of the rule (parent pointers with binary ranks)."""
        name, x = self.name, self.nodes
        order = list(self.nodes)
        most = self.max_true if self.max_true is not None else len(order)
        bits = max(1, (max(most, 2) - 1).bit_length())
        rank = {n: [pool.var(name, "rank", n, b) for b in range(bits)] for n in order}
        clauses: list[Clause] = []
        root: dict[Node, int] = {}
        if self.anchor is None:
            # The root is the first true node in ``order``: root_n <-> x_n & ~before_n, where
            # before_n means "some node earlier than n is true". One root, fixed by the solution.
            before = None
            for n in order:
                r = root[n] = pool.var(name, "root", n)
                seen = pool.var(name, "seen", n)
                if before is None:
                    clauses += [[-r, x[n]], [-x[n], r], [-seen, x[n]], [-x[n], seen]]
                else:
                    clauses += [[-r, x[n]], [-r, -before], [-x[n], before, r]]
                    clauses += [[-seen, before, x[n]], [-before, seen], [-x[n], seen]]
                before = seen
        # the links of each node, made here: only this lowering reads them (made for every
        # encoding, they were a sixth of the objects a lazy query's rules allocate; measured in
        # the encodings document of the first genre with islands, "The collector's share of a
        # fresh query")
        adjacent: dict[Node, list[tuple[Node, int | None]]] = defaultdict(list)
        for u, v, lit in self.links:
            adjacent[u].append((v, lit))
            adjacent[v].append((u, lit))
        for u in order:
            parents = []
            for v, lit in adjacent[u]:
                p = pool.var(name, "parent", u, v)
                parents.append(p)
                clauses += [[-p, x[u]], [-p, x[v]]]
                if lit is not None:
                    clauses.append([-p, lit])
                clauses += _less_than(p, rank[v], rank[u], pool)
            if u == self.anchor:
                continue
            clauses.append([-x[u], *([root[u]] if u in root else []), *parents])
        return clauses


def eager_size(cells: int) -> tuple[int, int]:
    """(variables, clauses) that the eager lowering of a connected region over ``cells`` grid
    cells (side adjacency) adds: parent pointers and binary ranks, whose size per cell grows with
    the rank's bits (about 5 variables and 13 clauses a cell a bit, as measured on the built
    encodings of the shading genres). For the genres' ``estimate``."""
    bits = max(1, (max(cells, 2) - 1).bit_length())
    return 5 * bits * cells, 13 * bits * cells


def with_eager(size: tuple[int, int], cells: int, connectivity: str) -> tuple[int, int]:
    """A genre's estimate ``size`` (variables, clauses) of its rules but the connected one, plus
    :func:`eager_size` when ``connectivity`` is the eager lowering (the lazy cuts are not counted:
    they come during the search)."""
    if connectivity != "eager":
        return size
    more = eager_size(cells)
    return size[0] + more[0], size[1] + more[1]


def separator(neighbours: Sequence[Sequence[int]], sources: Iterable[int], sinks: Iterable[int],
              on: Sequence[bool]) -> tuple[list[int], list[int]]:
    """A fewest set of false nodes (``on[v]`` false) that meets every path from ``sources`` (a
    component of the true nodes) to ``sinks`` (nodes outside it and its false neighbours' reach
    through true nodes: another component, or an anchor's nodes, where a false sink may itself be
    in the separator), and the nodes on the sources' side of it (the sources included), both in
    ascending order. :class:`FlowGraph` states the algorithm; this one runs it on the graph as it
    is (no component contracted), the cuts of a CEGAR round share a contracted one."""
    return FlowGraph(neighbours, on).separator(sources, sinks)


class FlowGraph:
    """The graph ``neighbours`` under one assignment ``on``, each component of true nodes
    contracted to one node, for :meth:`separator`: smallest sets of false nodes that part a
    component from some sinks. The calls of one CEGAR round share it (a component's false
    neighbours are listed the first time a search enters it, then kept).

    Max flow with unit node capacities (Ford-Fulkerson on the node-split graph: ``in(v) ->
    out(v)`` of capacity 1 for a false node, unbounded for a true one; links unbounded). A
    component of true nodes is strongly connected in every residual graph (its links and node
    capacities are unbounded both ways), so contracting it to one node (its first member in
    ``components`` stands for it) changes no maximum flow and no residual reach; the searches
    cross it in one step instead of two states a node. The side is what the last search of the
    residual graph reached (the minimum cut nearest the sources; it is the same for every maximum
    flow, so neither the paths taken nor the search order change the answer). The flow is at
    most the false neighbours of ``sources`` (a separator itself).
    Every search starts at the sources' neighbours, all false (``sources`` is a component): the
    sources are marked reached from the start, and the flow from a source into its neighbour
    is not recorded, since undoing it would only lead back into the sources. Before any search
    the paths through one false node (a neighbour that is a sink or touches a true one) are
    taken, then greedy paths: from each neighbour with no flow, a depth-first walk forward
    over nodes with no flow to a true sink, no node entered by two walks (one pass over the
    graph in all). When these paths are as many as the sources' neighbours, those neighbours are
    the separator and no search is needed. The augmenting searches that remain (one per missing
    unit of flow, and the last one that finds none) go depth first (a stack). Measured in
    encodings/connectivity.md.
    """

    def __init__(self, neighbours: Sequence[Sequence[int]], on: Sequence[bool],
                 components: Iterable[list[int]] = ()):
        """``components``: components of the true nodes to contract, each a whole component
        (some or all of them; none: the plain node-split graph)."""
        #: The graph as given (node indices) and the assignment.
        self.neighbours, self.on = neighbours, on
        #: Per node, the node standing for its component (itself when false or alone).
        self.rep = rep = list(range(len(neighbours)))
        #: The members of each component of two or more nodes, by the node standing for it.
        self.members = {members[0]: members for members in components if len(members) > 1}
        #: Per node, its neighbours (None for a component of two or more, until first needed).
        self.near: list[Sequence[int] | None] = list(neighbours)
        for r, members in self.members.items():
            for v in members:
                rep[v] = r
            self.near[r] = None

    def _fill(self, r: int) -> Sequence[int]:
        """The false neighbours of the component ``r`` stands for (kept for later calls)."""
        members = self.members.get(r)
        if members is None:
            return self.neighbours[r]
        base, on = self.neighbours, self.on
        near = self.near[r] = list({w for u in members for w in base[u] if not on[w]})
        return near

    def separator(self, sources: Iterable[int], sinks: Iterable[int]) -> tuple[list[int], list[int]]:
        """:func:`separator` on this graph: ``sources`` a component of the true nodes, a true
        sink standing for its whole component (no node of it is on the sources' side)."""
        rep, members = self.rep, self.members
        side, cut = self._flow({rep[s] for s in sources}, {rep[t] for t in sinks})
        out: list[int] = []
        for v in side:
            if v in members:
                out += members[v]
            else:
                out.append(v)
        out.sort()
        cut.sort()
        return out, cut

    def _flow(self, inside: set[int], sinks: set[int]) -> tuple[list[int], list[int]]:
        """The side (contracted) and the separator of the contracted graph (see the class)."""
        near, fill, rep, on = self.near, self._fill, self.rep, self.on
        n = len(near)
        target = [False] * n
        hit = [False] * n  # a true sink: reached at its in-state
        for v in sinks:
            target[v] = True
            hit[v] = on[v]
        # states: 2v = in(v), 2v+1 = out(v); reach[state]: 0 unseen, -1 a start, p + 1 reached
        # from state p (0 for unseen, so that the reached states read as truth values at the end)
        start = [0] * (2 * n)
        first = []  # the in-states next to the sources, where every search starts
        for s in inside:
            start[2 * s] = start[2 * s + 1] = -1  # the sources: never entered again
        for s in inside:
            for w in near[s] or fill(s):
                if not start[2 * w]:
                    start[2 * w] = -1
                    first.append(2 * w)
        through = [0] * n  # flow through v (in(v) -> out(v))
        into: list = [None] * n  # into[v][u]: flow on out(u) -> in(v), u not a source
        paths = 0
        for state in first:  # paths through one false node, taken with no search
            w = state >> 1
            if target[w]:
                through[w] = 1
                paths += 1
                continue
            for x in near[w]:  # w is false: its own neighbours
                x = rep[x]
                if hit[x]:
                    through[w] = 1
                    paths += 1
                    into[x] = {**(into[x] or {}), w: 1}
                    break
        # Greedy paths before any search: from each neighbour with no flow yet, a depth-first
        # walk forward over nodes no earlier walk entered (false ones with no flow) to a true
        # sink. A walk that leaves a node finds no path from it, nor can a later walk (nodes only
        # get used up), so no node is entered twice and the walks together cost one pass.
        entered = [False] * n
        for state in first:
            w = state >> 1
            if through[w] or entered[w]:
                continue
            entered[w] = True
            path, ways, end = [w], [iter(near[w])], -1
            while path and end < 0:
                for x in ways[-1]:
                    x = rep[x]
                    if hit[x]:
                        end = x
                        break
                    if not entered[x] and not target[x] and x not in inside and (on[x] or not through[x]):
                        entered[x] = True
                        path.append(x)
                        ways.append(iter(near[x] or fill(x)))
                        break
                else:
                    path.pop()
                    ways.pop()
            if end >= 0:  # the flow along the path to end
                paths += 1
                for u, x in zip(path, [*path[1:], end]):
                    through[u] += 1
                    flows = into[x] = into[x] or {}
                    flows[u] = flows.get(u, 0) + 1
        if paths == len(first):  # as many paths as neighbours: they are the separator
            return list(inside), [state >> 1 for state in first]
        while True:
            reach = start[:]
            found = -1
            stack = list(first)
            while stack and found < 0:
                state = stack.pop()
                v = state >> 1
                if state & 1:
                    for w in near[v] or fill(v):
                        nxt = 2 * rep[w]
                        if not reach[nxt]:
                            reach[nxt] = state + 1
                            stack.append(nxt)
                            if hit[nxt >> 1]:
                                found = nxt
                                break
                    if through[v] and not reach[state - 1]:  # undo flow through v
                        reach[state - 1] = state + 1
                        stack.append(state - 1)
                elif not hit[v]:
                    if (on[v] or not through[v]) and not reach[state + 1]:
                        reach[state + 1] = state + 1
                        stack.append(state + 1)
                        if target[v]:  # a false sink, reached through itself
                            found = state + 1
                            continue
                    flows = into[v]
                    if flows:
                        for u, units in flows.items():  # undo flow on out(u) -> in(v)
                            if units and not reach[2 * u + 1]:
                                reach[2 * u + 1] = state + 1
                                stack.append(2 * u + 1)
            if found < 0:
                # reached: the side's out-states (the sources' marked from the start) and the
                # separator's in-states
                outs = reach[1::2]
                side = list(compress(range(n), outs))
                return side, [v for v in compress(range(n), reach[0::2]) if not outs[v]]
            state = found
            while reach[state] > 0:
                prev = reach[state] - 1
                v, u = state >> 1, prev >> 1
                if u == v:
                    through[v] += 1 if state & 1 else -1  # in(v) -> out(v), or undone
                elif not state & 1:  # out(u) -> in(v)
                    flows = into[v]
                    if flows is None:
                        flows = into[v] = {}
                    flows[u] = flows.get(u, 0) + 1
                else:  # in(u) -> out(v): undoing flow on out(v) -> in(u)
                    into[u][v] -= 1
                state = prev


class TruthReader:
    """Reads the truth of a fixed list of literals (``None`` = always true) under a value.

    When every literal is a variable of one sign, a model list is read by one ``itemgetter``
    call (the CEGAR loop reads thousands of node and link literals per iteration); otherwise,
    and for values that are not models, through :func:`holds`.
    """

    def __init__(self, lits: Sequence[int | None]):
        self.lits = list(lits)
        signs = {None if lit is None else lit > 0 for lit in self.lits}
        self.sign = signs.pop() if len(signs) == 1 else None  # True, False, or None (mixed)
        self.top = max((abs(lit) for lit in self.lits if lit is not None), default=0)
        self.get = itemgetter(*(abs(lit) - 1 for lit in self.lits)) if len(self.lits) > 1 \
            and self.sign is not None else None
        #: The literals are consecutive variables k..k+n-1 in order: a slice of the model.
        first = self.lits[0] if self.lits and self.lits[0] is not None else 0
        self.block = first > 0 and self.lits == list(range(first, first + len(self.lits)))
        #: ... starting at variable 1: a model's first n entries.
        self.leading = self.block and first == 1

    def __call__(self, value: Value) -> list[bool]:
        model = getattr(value, "model", None)
        if self.get is None or model is None or self.top > len(model):
            return holds(value, self.lits)
        if self.block:
            return [x > 0 for x in model[self.lits[0] - 1:self.top]]
        # ``x > 0`` and ``x <= 0`` are both false for an unassigned (NaN) entry of a partial
        # assignment, whose literals count as false (see :func:`holds`).
        if self.sign:
            return [x > 0 for x in self.get(model)]
        return [x <= 0 for x in self.get(model)]


def holds(value: Value, lits: Iterable[int | None]) -> list[bool]:
    """The truth of each literal under ``value`` (``None``, an unguarded link, is true).

    Reads an :class:`~satgrid.solver.Assignment`'s model list directly (no call per literal).
    """
    model = getattr(value, "model", None)
    if model is None:
        return [lit is None or value(lit) for lit in lits]
    size = len(model)
    return [
        lit is None
        or (0 < lit <= size and model[lit - 1] > 0)
        or (lit < 0 and (-lit > size or model[-lit - 1] <= 0))
        for lit in lits
    ]


def _less_than(guard: int, a: list[int], b: list[int], pool: VarPool) -> list[Clause]:
    """``guard -> a < b`` for binary numbers given most significant bit first."""
    clauses: list[Clause] = []
    equal_so_far = guard
    for i, (ai, bi) in enumerate(zip(a, b)):
        clauses.append([-equal_so_far, -ai, bi])  # never a_i = 1 while b_i = 0
        if i == len(a) - 1:  # equal all the way is not "less than"
            clauses += [[-equal_so_far, -ai, -bi], [-equal_so_far, ai, bi]]
        else:
            nxt = pool.fresh("lt")
            clauses += [[-equal_so_far, -ai, -bi, nxt], [-equal_so_far, ai, bi, nxt]]
            equal_so_far = nxt
    return clauses
