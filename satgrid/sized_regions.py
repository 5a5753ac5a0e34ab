"""Regions whose sizes are numbers: every cell carries a number, and each 4-connected region of
cells carrying one number ``n`` has exactly ``n`` cells. This is the rule "divide the grid into
regions; a region's cells carry its size; regions of one size never share a side" (Nikoli), in
other words: two side-adjacent cells with one number lie in one region.

**Numbers** (:class:`SizedRegions`). A one-hot layer over ``1..cap`` and one more value
``cap + 1`` read "above the cap", and, per cell, ``bits`` holding the number in binary while it
is above the cap (``cap + 1 .. cells``; all bits false otherwise). So every number a region of
the grid can have is representable: there is no cap on the sizes, only a cap on the sizes that
get a variable of their own. A cell's number is its one-hot value, or its bits when the one-hot
value is "above the cap"; the primary variables (one-hot and bits) determine the solution, and
each solution has exactly one assignment of them, so counting and uniqueness are exact.
``cap`` is a speed knob only (measured in ``encodings/rules.md``).

**Local clauses** (implied by the rule, for propagation): for every connected set of up to
:data:`SMALL` cells (:meth:`~satgrid.grid.Grid.placements`), ``k`` cells do not all carry
``k - 1``, and the set is no whole group of a number ``v > k`` (nor of numbers above a cap of at
least ``k``); bits are zero unless above the cap, and in ``cap + 1 .. cells`` when above it;
``joined(p, q)`` <-> both above the cap with equal bits (one region), and up to ``min(SMALL,
cap)`` joined cells with no joined link out are impossible.

**Lazy cuts** (:meth:`SizedRegionsRule.cuts`, CEGAR): read every number each cell carries
(:meth:`SizedRegionsRule.values`), flood the components of cells carrying one number; for a cell
with two numbers, the clause "not both" (a cell lies in one region); for a component ``C`` of
number ``n``:

* ``n`` up to the cap, ``|C| > n``: a connected set ``T`` of ``n + 1`` cells of ``C`` (BFS
  order) cannot all carry ``n``: the clause ``OR_{x in T} not carries(x, n)``;
* ``n`` up to the cap, ``|C| < n``: ``C`` cannot be a whole component of number ``n``: some cell
  of ``C`` drops ``n`` or some neighbour of ``C`` takes it (``OR_{x in C} not carries(x, n) OR
  OR_{y next to C} carries(y, n)``);
* ``n`` above the cap (``C`` joined along a spanning tree): cuts for every number the bits might
  hold at once. Joined along the tree, ``C`` lies in one region of at least ``|C|`` cells, so the
  bits of its first cell hold at least ``|C|``; with no joined link out as well, ``C`` is that
  whole region: impossible when ``|C| <= cap`` (a region above the cap has more cells), else its
  bits hold exactly ``|C|`` (binary bound clauses, :func:`not_below` and :func:`not_above`, each
  guarded by the tree's links and the links out).

Each is satisfied by every solution, whatever the clues, and the assignment they are made from
breaks one of each component's cuts, so every round makes progress.

**Over a root** (:meth:`SizedRegionsRule.over_root`, :class:`RootedRegions`): the grading ladder
asks for the cuts of many partial assignments that extend one root (a probe's literals over its
settled root); the numbers, components and cuts of the root are kept, and an extension redoes
only the cells it changes and the components they touch. The same cuts as from scratch (measured
in ``encodings/grading.md``).

**The rule alone.** An explanation asks whether "one number per cell" is needed by dropping it;
the rule then says: a cell carries at most one number (none is allowed), and each component of
cells carrying one number ``n`` (a number above the cap: cells above it with equal bits) has
``n`` cells. The cuts above read every number a cell carries, so the CEGAR loop accepts exactly
those assignments, as the eager lowering does (``tests/test_sized_regions.py`` checks both
against brute force). Reading only a cell's first number, as the first form did, let a model
with two numbers in a cell meet every cut made so far while breaking the rule, and the loop made
the same cut again without end.

**Eager lowering** (:meth:`SizedRegionsRule.eager_clauses`, exact on its own, for DIMACS export):
``same(p, q)`` <-> p and q carry equal numbers, for side neighbours; every cell is a root or
picks one parent among its neighbours with ``same``; each cell has a root id (binary), the
root's own index at a root, equal to the parent's and equal across ``same`` neighbours (so one
root per component), and no id exceeds its cell's own index (so the root is the component's
first cell: one root per solution, not any of its cells); each cell has a subtree size ``S``
(binary): ``S(p) = 1 + sum of S(child)`` over the cells whose parent is ``p``, with no overflow
(so ``S`` grows strictly along parent pointers: no cycles, and the parent pointers form one tree
per component), and a root's ``S`` is its number. Implied, for propagation: no cell's ``S``
exceeds its own number up to the cap (its subtree lies in its region). Proof of exactness, and
where the two last clause families are measured, in ``encodings/rules.md``.
"""
from __future__ import annotations

from collections import deque
from functools import cached_property
from typing import TYPE_CHECKING, Any, Sequence

from .cnf import Clause, VarPool, at_most
from .connectivity import Keep, TruthReader, Value, holds
from .global_rule import GlobalRule
from .grid import Cell, Grid

if TYPE_CHECKING:
    from .encoding import Encoding
    from .model import Model


def _bits_of(n: int, width: int) -> list[int]:
    """``n`` in binary, least significant bit first."""
    return [n >> b & 1 for b in range(width)]


def not_below(bits: Sequence[int], low: int, guard: Sequence[int] = ()) -> list[Clause]:
    """``guard -> value(bits) >= low`` (bits least significant first): for each bit set in
    ``low``, not (that bit false while every higher bit equals ``low``'s)."""
    width, want = len(bits), _bits_of(low, len(bits))
    if low >= 1 << width:
        return [list(guard)]
    out = []
    for i in range(width):
        if want[i]:
            out.append([*guard, bits[i], *(-bits[j] if want[j] else bits[j] for j in range(i + 1, width))])
    return out


def not_above(bits: Sequence[int], high: int, guard: Sequence[int] = ()) -> list[Clause]:
    """``guard -> value(bits) <= high``: for each bit clear in ``high``, not (that bit true while
    every higher bit equals ``high``'s)."""
    width = len(bits)
    if high >= (1 << width) - 1:
        return []
    want = _bits_of(high, width)
    return [[*guard, -bits[i], *(-bits[j] if want[j] else bits[j] for j in range(i + 1, width))]
            for i in range(width) if not want[i]]


#: Connected sets of up to this many cells get their cuts as clauses from the start (measured in
#: encodings/rules.md).
SMALL = 3


class SizedRegions:
    """What :meth:`~satgrid.model.Model.sized_regions` built: ``numbers`` (``{cell: {value:
    literal}}``, values ``1..cap + 1``, ``cap + 1`` = above the cap), ``bits`` (``{cell: [literal,
    ...]}`` least significant first), ``cap``, the global rule, and :meth:`carries` for clues."""

    def __init__(self, m: "Model", name: str, cap: int, layer: str = "number", small: int = SMALL):
        from .model import Layer

        grid = m.grid
        size = len(grid.cells)
        self.cap = cap = max(1, min(cap, size))
        self.above = above = cap + 1 if cap < size else None
        self.width = width = size.bit_length() if above is not None else 0
        domain = list(range(1, cap + 1)) + ([above] if above is not None else [])
        self.numbers = numbers = m.numbers(layer, domain)
        self.bits: dict[Cell, list[int]] = {p: [m.pool.var(f"{layer} bit", *p, b) for b in range(width)]
                                            for p in grid.cells}
        if width:
            m.layers[f"{layer} bit"] = Layer(f"{layer} bit", "bool",
                                             {(*p, b): x for p, xs in self.bits.items() for b, x in enumerate(xs)})
        clauses: list[Clause] = []
        for k in range(1, small + 1):
            for placed in grid.placements(k):
                rim = sorted({q for p in placed for q in grid.adjacency[p]} - set(placed), key=grid.index)
                for v, x in numbers[placed[0]].items():
                    if v == above:  # k <= cap cells above the cap: too small for any number
                        if k <= cap:
                            clauses.append([*(-numbers[p][v] for p in placed), *(numbers[q][v] for q in rim)])
                    elif v == k - 1:  # k cells of number k - 1: a group too large
                        clauses.append([-numbers[p][v] for p in placed])
                    elif v > k:  # a whole group of k < v cells: too small
                        clauses.append([*(-numbers[p][v] for p in placed), *(numbers[q][v] for q in rim)])
        m.require(f"{name}: groups of up to {small} cells", clauses)
        if above is not None:
            clauses = []
            for p, xs in self.bits.items():
                big = numbers[p][above]
                clauses += ([big, -x] for x in xs)
                clauses += not_below(xs, cap + 1, [-big]) + not_above(xs, size, [-big])
            m.require(f"{name}: a number above {cap} in binary", clauses)
        #: ``{(p, q): literal}`` per side-neighbour pair (both orders): both above the cap with
        #: equal bits (one region). Empty without numbers above the cap.
        self.joined: dict[tuple[Cell, Cell], int] = {}
        if above is not None:
            clauses = []
            for p, q in grid.adjacent_pairs():
                j = self.joined[p, q] = self.joined[q, p] = m.pool.var(f"{layer} joined", *p, *q)
                a, b = numbers[p][above], numbers[q][above]
                equal = []
                clauses += [[-j, a], [-j, b]]
                for x, y in zip(self.bits[p], self.bits[q]):
                    e = m.pool.var(f"{layer} equal bit", *p, *q, len(equal))
                    equal.append(e)
                    clauses += [[-j, -x, y], [-j, x, -y], [e, x, y], [e, -x, -y]]
                clauses.append([-a, -b, *(-e for e in equal), j])
            # groups of up to ``small`` joined cells: too small for a number above the cap
            for k in range(1, min(small, cap) + 1):
                for placed in grid.placements(k):
                    inside = set(placed)
                    tree = _spanning_edges(placed, grid.adjacency)
                    out = [self.joined[p, q] for p in placed for q in grid.adjacency[p] if q not in inside]
                    first = [-numbers[placed[0]][above]] if k == 1 else []
                    clauses.append([*first, *(-self.joined[e] for e in tree), *out])
            m.require(f"{name}: regions above {cap} join equal neighbours", clauses)
        self.grid = grid
        self.rule = m.rule(SizedRegionsRule(name, grid, numbers, self.bits, cap, above, self.joined))

    def carries(self, cell: Cell, n: int) -> list[Clause]:
        """Clauses "``cell`` carries ``n``" (unit clauses)."""
        if n <= self.cap:
            return [[self.numbers[cell][n]]]
        return [[self.numbers[cell][self.above]],  # type: ignore[index]
                *([x if bit else -x] for x, bit in zip(self.bits[cell], _bits_of(n, self.width)))]


class SizedRegionsRule(GlobalRule):
    """Global rule: each component of cells carrying one number ``n`` has ``n`` cells (see the
    module doc for the cuts and the eager lowering)."""

    def __init__(self, name: str, grid: Grid, numbers: dict[Cell, dict[int, int]],
                 bits: dict[Cell, list[int]], cap: int, above: int | None,
                 joined: dict[tuple[Cell, Cell], int] | None = None):
        self.name, self.grid, self.cap, self.above = name, grid, cap, above
        #: Per pair of cell indices: the literal "both above the cap, equal bits".
        self._joined = {(grid.index(p), grid.index(q)): x for (p, q), x in (joined or {}).items()}
        cells = grid.cells
        self._near = grid.near
        #: Per cell index: the one-hot literals in domain order, the domain, and the bits.
        self._domain = list(numbers[cells[0]])
        self._onehot = [[numbers[p][v] for v in self._domain] for p in cells]
        self._flat = [x for row in self._onehot for x in row]
        #: Their reader: one model slice when they are consecutive variables (as
        #: :meth:`Model.numbers` makes them).
        self._read = TruthReader(self._flat)
        self._bits = [bits[p] for p in cells]
        self.width = len(self._bits[0]) if self._bits else 0

    def clauses(self, pool: VarPool) -> list[Clause]:
        return []

    # -- reading ---------------------------------------------------------------------------
    def numbers(self, value: Value) -> list[int]:
        """Every cell's number (index order) under ``value``: its first one-hot value (the bits'
        number above the cap), 0 for none."""
        return [vs[0] if vs else 0 for vs in self.values(value)]

    def values(self, value: Value) -> list[list[int]]:
        """Every cell's numbers (index order) under ``value``: each one-hot value true in it, in
        domain order, "above the cap" read as its bits' number. One each in a solution; more or
        none only while "one number per cell" is off (an explanation's check)."""
        k, domain = len(self._domain), self._domain
        true = [j for j, t in enumerate(self._read(value)) if t]
        out: list[list[int]] = [[] for _ in self._onehot]
        for j in true:
            out[j // k].append(domain[j % k])
        if self.above is not None:
            for i, vs in enumerate(out):
                if vs and vs[-1] == self.above:
                    vs[-1] = self._bits_number(value, i)
        return out

    def cell_values(self, value: Value, i: int) -> list[int]:
        """Cell ``i``'s numbers under ``value``, as :meth:`values` reads them."""
        vs = [v for v, t in zip(self._domain, holds(value, self._onehot[i])) if t]
        if self.above is not None and vs and vs[-1] == self.above:
            vs[-1] = self._bits_number(value, i)
        return vs

    def _bits_number(self, value: Value, i: int) -> int:
        """The number cell ``i``'s bits hold under ``value``, or 0 when it is not above the cap
        (bits a partial assignment leaves unread)."""
        n = sum(1 << b for b, t in enumerate(holds(value, self._bits[i])) if t)
        return n if n > self.cap else 0

    def _not_carries(self, i: int, n: int) -> list[int]:
        """Literals whose disjunction says "cell ``i`` does not carry ``n``"."""
        if n <= self.cap:
            return [-self._onehot[i][n - 1]]
        want = _bits_of(n, self.width)
        return [-self._onehot[i][-1], *(-x if bit else x for x, bit in zip(self._bits[i], want))]

    # -- lazy ------------------------------------------------------------------------------
    def components(self, values: list[list[int]]) -> list[tuple[int, list[int]]]:
        """The components of equal numbers: ``(number, cell indices in BFS order)``, a cell in
        one for each of its ``values`` (:meth:`values`; one number a cell: a partition)."""
        near = self._near
        left = [vs.copy() for vs in values]  # per cell, the numbers not yet in a component
        out = []
        for start, vs in enumerate(values):
            for n in vs:
                if n not in left[start]:
                    continue
                left[start].remove(n)
                order, queue = [start], deque([start])
                while queue:
                    p = queue.popleft()
                    for q in near[p]:
                        if n in left[q]:
                            left[q].remove(n)
                            order.append(q)
                            queue.append(q)
                out.append((n, order))
        return out

    def cuts(self, value: Value, pool: VarPool, keep: Keep | None = None) -> list[list[Clause]]:
        """A cut for each cell with two numbers and each component whose size is not its number
        (module doc). No cut names a fresh variable."""
        values = self.values(value)
        cuts: list[list[Clause]] = []
        for i, vs in enumerate(values):
            if len(vs) > 1:
                head = self.two_numbers(value, i)
                if keep is None or keep(head):
                    cuts.append([head])
        for n, comp in self.components(values):
            cuts += (cut for cut in self.component_cuts(n, comp) if keep is None or keep(cut[-1]))
        return cuts

    def two_numbers(self, value: Value, i: int) -> Clause:
        """The cut of cell ``i`` with two numbers or more under ``value``: a cell lies in one
        region, so not both of its first two."""
        true = [x for x, t in zip(self._onehot[i], holds(value, self._onehot[i])) if t]
        return [-true[0], -true[1]]

    def component_cuts(self, n: int, comp: list[int]) -> list[list[Clause]]:
        """The cuts of the component ``comp`` (cell indices in BFS order from its first cell) of
        number ``n`` (module doc): none when its size is ``n``."""
        if len(comp) == n or n < 1:
            # n < 1: a cell above the cap whose bits a partial assignment (the grading
            # ladder's) leaves unread, of which no cut speaks
            return []
        if n > self.cap:
            # joined cells: one region above the cap, whatever its bits; one cut for every
            # number the bits might hold
            return [[head] for head in self._joined_cuts(comp)]
        if len(comp) > n:
            return [[[lit for i in comp[:n + 1] for lit in self._not_carries(i, n)]]]
        inside, near = set(comp), self._near
        border = sorted({q for p in comp for q in near[p] if q not in inside})
        head = [lit for i in comp for lit in self._not_carries(i, n)]
        return [[head + [self._onehot[q][n - 1] for q in border]]]  # n up to the cap: one-hot

    @cached_property
    def cell_of_variable(self) -> dict[int, int]:
        """Per variable of a cell's one-hot value or bits: the cell's index."""
        return {abs(x): i for i, (row, bits) in enumerate(zip(self._onehot, self._bits))
                for x in (*row, *bits)}

    def over_root(self, root: Value, keep: Keep | None = None) -> "RootedRegions":
        """The cut search over assignments that extend ``root`` (:class:`RootedRegions`)."""
        return RootedRegions(self, root, keep)

    def _joined_cuts(self, comp: list[int]) -> list[Clause]:
        """Clauses for the component ``comp`` of cells above the cap with equal bits (joined
        along a spanning tree), for every number its bits might hold at once: joined along the
        tree, its cells lie in one region of at least ``|comp|`` cells, so its number is at least
        ``|comp|``; with no joined link out as well, ``comp`` is that whole region: none at all
        when ``|comp| <= cap`` (a region above the cap has more cells), else its number is
        ``|comp|``."""
        inside, near, size = set(comp), self._near, len(comp)
        tree = [-self._joined[e] for e in _spanning_edges(comp, near)]
        if size == 1:
            tree = [-self._onehot[comp[0]][-1]]
        out = [self._joined[p, q] for p in comp for q in near[p] if q not in inside]
        if size <= self.cap:
            return [[*tree, *out]]
        bits = self._bits[comp[0]]
        return not_below(bits, size, tree) + not_above(bits, size, [*tree, *out])

    # -- eager -----------------------------------------------------------------------------
    def eager_clauses(self, pool: VarPool) -> list[Clause]:
        """The tree lowering of the module doc: ``same`` links, parent pointers, root ids and
        subtree sizes (binary, least significant bit first)."""
        grid, cells, near = self.grid, self.grid.cells, self._near
        size = len(cells)
        width = size.bit_length()
        id_width = max(1, (size - 1).bit_length())
        tag = self.name
        clauses: list[Clause] = []
        onehot, bits, domain, above = self._onehot, self._bits, self._domain, self.above

        # same(p, q) <-> equal numbers
        same: dict[tuple[int, int], int] = {}
        for p, q in grid.links:
            s = same[p, q] = same[q, p] = pool.var(tag, "same", p, q)
            for k, v in enumerate(domain):
                a, b = onehot[p][k], onehot[q][k]
                clauses += [[-s, -a, b], [-s, a, -b]]
                if v != above:
                    clauses.append([-a, -b, s])
            if above is not None:
                a, b = onehot[p][-1], onehot[q][-1]
                xs = []
                for x, y in zip(bits[p], bits[q]):
                    e = pool.var(tag, "equal bit", p, q, len(xs))
                    xs.append(e)
                    clauses += [[e, x, y], [e, -x, -y], [-s, -x, y], [-s, x, -y]]
                clauses.append([-a, -b, *(-e for e in xs), s])
        # parent pointers: a root, or exactly one parent among the same neighbours
        parent: dict[tuple[int, int], int] = {}
        root = [pool.var(tag, "root", p) for p in range(size)]
        for p in range(size):
            choices = [root[p]]
            for q in near[p]:
                x = parent[p, q] = pool.var(tag, "parent", p, q)
                clauses.append([-x, same[p, q]])
                choices.append(x)
            clauses.append(choices)
            clauses += at_most(choices, 1, pool)
        # root ids
        ident = [[pool.var(tag, "id", p, b) for b in range(id_width)] for p in range(size)]
        for p in range(size):
            clauses += ([-root[p], x if bit else -x] for x, bit in zip(ident[p], _bits_of(p, id_width)))
            # no id above the cell's own index: the root is its component's first cell
            clauses += not_above(ident[p], p)
            for q in near[p]:
                if p < q:
                    s = same[p, q]
                    for x, y in zip(ident[p], ident[q]):
                        clauses += [[-s, -x, y], [-s, x, -y]]
        # subtree sizes: S(p) = 1 + sum over children of S(child), no overflow
        sizes = [[pool.var(tag, "size", p, b) for b in range(width)] for p in range(size)]
        for p in range(size):
            total: list[int] | None = None  # running sum, starts at the constant 1
            for q in near[p]:
                gated = []
                for b, x in enumerate(sizes[q]):
                    g = pool.var(tag, "child size", p, q, b)
                    gated.append(g)
                    clauses += [[-g, parent[q, p]], [-g, x], [g, -parent[q, p], -x]]
                total, more = _add(total, gated, pool, tag, clauses)
                clauses.append([-more])
            if total is None:
                clauses += ([x] if b == 0 else [-x] for b, x in enumerate(sizes[p]))
            else:
                for x, y in zip(sizes[p], total):
                    clauses += [[-x, y], [x, -y]]
            # no subtree larger than its cell's number (implied: the subtree lies in the region)
            clauses += (clause for k, v in enumerate(domain) if v != above
                        for clause in not_above(sizes[p], v, [-onehot[p][k]]))
            # a root's subtree is its number
            for k, v in enumerate(domain):
                if v == above:
                    for x, y in zip(sizes[p], bits[p]):
                        clauses += [[-root[p], -onehot[p][k], -x, y], [-root[p], -onehot[p][k], x, -y]]
                else:
                    clauses += ([-root[p], -onehot[p][k], x if bit else -x]
                                for x, bit in zip(sizes[p], _bits_of(v, width)))
        return clauses


class RootedRegions:
    """:meth:`SizedRegionsRule.cuts` for assignments that extend one partial assignment, the
    *root* (the grading ladder's settled root, which only grows: a probe adds literals to it).

    Built once per root: every cell's numbers, the components, their cuts and which of them
    ``keep`` takes at the root. For an extension by the literals ``lits`` (:meth:`cuts`), only
    what they touch is redone: the cells whose numbers they change (a one-hot value or a bit
    fixed true) get their numbers read again; the root components holding such a cell, or of a
    number such a cell now carries next to it, are flooded again from their cells and the changed
    ones (such a flood reaches no other component: a path of one number from a changed cell into
    an untouched component would enter it at a neighbour of a changed cell carrying that
    number). Every other component keeps its cuts, and ``keep`` is asked again about one of them
    only when ``lits`` fix a variable of its head: ``keep`` must read nothing but the values of
    the head's literals, as the grading ladder's does. The cuts are those of
    :meth:`SizedRegionsRule.cuts` for the extension, in the same order
    (``tests/test_sized_regions.py`` compares them on random partial assignments).
    """

    def __init__(self, rule: SizedRegionsRule, root: Value, keep: Keep | None = None):
        self.rule = rule
        self.values = values = rule.values(root)
        self._cell_of = rule.cell_of_variable
        self.components = rule.components(values)
        #: Per cell: number -> the index of its root component.
        self.member: list[dict[int, int]] = [{} for _ in values]
        for k, (n, comp) in enumerate(self.components):
            for i in comp:
                self.member[i][n] = k
        #: Per root component, its cuts; per variable, the cuts whose heads name it.
        self.cuts_of = [rule.component_cuts(n, comp) for n, comp in self.components]
        self.by_var: dict[int, list[tuple[int, int]]] = {}
        for k, cuts in enumerate(self.cuts_of):
            for j, cut in enumerate(cuts):
                for var in {abs(x) for x in cut[-1]}:
                    self.by_var.setdefault(var, []).append((k, j))
        #: The cuts ``keep`` takes at the root (component, cut).
        self.kept = [(k, j) for k, cuts in enumerate(self.cuts_of) for j, cut in enumerate(cuts)
                     if keep is None or keep(cut[-1])]
        self.two = [i for i, vs in enumerate(values) if len(vs) > 1]

    def cuts(self, value: Value, lits: Sequence[int], pool: VarPool,
             keep: Keep | None = None) -> list[list[Clause]]:
        """:meth:`SizedRegionsRule.cuts` for ``value``: the root with ``lits`` fixed as well
        (none of them on a variable the root fixes)."""
        rule, cell_of = self.rule, self._cell_of
        new = {i: rule.cell_values(value, i) for i in {cell_of[x] for x in lits if x > 0 and x in cell_of}}
        dirty: set[int] = set()  # the root components flooded again
        for i, vs in new.items():
            dirty.update(self.member[i].values())
            dirty.update(self.member[q][n] for n in vs for q in rule._near[i] if n in self.member[q])
        two = {*(i for i in self.two if i not in new), *(i for i, vs in new.items() if len(vs) > 1)}
        out = [[head] for i in sorted(two) for head in [rule.two_numbers(value, i)]
               if keep is None or keep(head)]
        # the components' cuts as (first cell, place of the number among its numbers, cut
        # number): the order of SizedRegionsRule.components
        ranked = self._kept(lits, dirty, keep) + self._flooded(new, dirty, keep)
        ranked.sort(key=lambda f: f[:3])
        return out + [cut for *_, cut in ranked]

    def _kept(self, lits: Sequence[int], dirty: set[int], keep: Keep | None) -> list[tuple]:
        """The cuts of the root components not in ``dirty`` that ``keep`` takes: its answer at
        the root, or asked again where ``lits`` name a variable of the head."""
        touched = {kj for x in lits for kj in self.by_var.get(abs(x), ()) if kj[0] not in dirty}
        found = [(k, j) for k, j in self.kept if k not in dirty and (k, j) not in touched]
        found += (kj for kj in touched if keep is None or keep(self.cuts_of[kj[0]][kj[1]][-1]))
        return [(comp[0], self.values[comp[0]].index(n), j, self.cuts_of[k][j])
                for k, j in found for n, comp in [self.components[k]]]

    def _flooded(self, new: dict[int, list[int]], dirty: set[int], keep: Keep | None) -> list[tuple]:
        """The cuts ``keep`` takes of the components over the cells of ``dirty`` and the changed
        cells (``new``: their numbers now), each flooded from its first cell."""
        values, near = self.values, self.rule._near
        seeds = {(i, n) for k in dirty for n, comp in [self.components[k]] for i in comp}
        seeds.update((i, n) for i, vs in new.items() for n in vs)
        done: set[tuple[int, int]] = set()
        out: list[tuple] = []
        for start, n in sorted(seeds):  # every cell of such a component is a seed
            if (start, n) in done or n not in new.get(start, values[start]):
                continue
            done.add((start, n))
            order, queue = [start], deque([start])
            while queue:
                p = queue.popleft()
                for q in near[p]:
                    if (q, n) not in done and n in new.get(q, values[q]):
                        done.add((q, n))
                        order.append(q)
                        queue.append(q)
            place = new.get(start, values[start]).index(n)
            out += ((start, place, j, cut) for j, cut in enumerate(self.rule.component_cuts(n, order))
                    if keep is None or keep(cut[-1]))
        return out


def _add(total: list[int] | None, gated: list[int], pool: VarPool, tag: str,
         clauses: list[Clause]) -> tuple[list[int], int]:
    """``total + gated`` as ripple-carry adder clauses (``total`` None: the constant 1, added as
    the first carry); returns the sum bits and the final carry (to be forced false)."""
    out = []
    carry: int | None = None
    for b, y in enumerate(gated):
        x = None if total is None else total[b]
        c_in = carry
        if total is None and b == 0:
            # 1 + y: sum = not y, carry = y
            s = pool.fresh("sum")
            clauses += [[s, y], [-s, -y]]
            out.append(s)
            carry = y
            continue
        inputs = [lit for lit in (x, y, c_in) if lit is not None]
        s, c = pool.fresh("sum"), pool.fresh("carry")
        _full_adder(inputs, s, c, clauses)
        out.append(s)
        carry = c
    if carry is None:
        carry = pool.fresh("carry")
        clauses.append([-carry])
    return out, carry


def _full_adder(inputs: list[int], s: int, c: int, clauses: list[Clause]) -> None:
    """``s`` <-> parity of ``inputs`` and ``c`` <-> at least two of them (one to three inputs)."""
    from itertools import product

    n = len(inputs)
    for signs in product((0, 1), repeat=n):
        ones = sum(signs)
        lits = [-x if bit else x for x, bit in zip(inputs, signs)]
        clauses.append([*lits, s if ones % 2 else -s])
        clauses.append([*lits, c if ones >= 2 else -c])



def _spanning_edges(nodes: Sequence[Any], near: Any) -> list[tuple[Any, Any]]:
    """The edges of a BFS spanning tree of ``nodes`` (connected), ``near[p]`` the neighbours of
    node ``p`` (cells and ``Grid.adjacency``, or cell indices and ``Grid.near``)."""
    inside, seen, edges = set(nodes), {nodes[0]}, []
    queue = deque([nodes[0]])
    while queue:
        p = queue.popleft()
        for q in near[p]:
            if q in inside and q not in seen:
                seen.add(q)
                edges.append((p, q))
                queue.append(q)
    return edges


def read_region_numbers(encoding: "Encoding", layer: str, value: Value) -> dict[Cell, int]:
    """Every cell's number under ``value``: its one-hot value, or, at the value "above the cap"
    (the layer's last, when it has bits), the number its bits hold."""
    from .model import read_numbers

    numbers = read_numbers(encoding, layer, value, empty=0)
    bits = encoding.layers.get(f"{layer} bit")
    if bits:
        above = encoding.layers[layer].domain[-1]  # type: ignore[attr-defined]
        for p, v in numbers.items():
            if v == above:
                lits = [lit for (r, c, _), lit in bits.items() if (r, c) == p]
                numbers[p] = sum(1 << b for b, t in enumerate(holds(value, lits)) if t)
    return numbers
