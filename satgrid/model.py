"""The model builder: a genre states its rulebook as named rules over variable layers, and the
builder lowers them to an :class:`~satgrid.encoding.Encoding`.

A genre's rules read like its rulebook::

    def rules(m: Model, puzzle) -> None:
        shaded = m.cells("shaded")
        m.not_adjacent("shaded cells do not touch", shaded)
        m.connected("unshaded cells are connected", {p: -x for p, x in shaded.items()})

        @m.clue
        def number(c: Clue, cell, k):          # one clue: its clauses, behind its selector
            c.exactly(..., k)

The builder hides what every genre would otherwise repeat: the variable pool and readable keys,
which variables are *primary* (a solution is read from and compared on them), clue selectors and
the ``rebind`` of clue encodings to the pools of copies, and how a model is read back
(:func:`read`, :func:`read_numbers`).

**Names.** Every rule takes its name first, worded as the rulebook words it. The name labels the
rule's clauses (:attr:`Model.spans`: which clauses each rule produced, for explanations and
clause counts) and names its global rule (connectivity, loops), whose lazy cuts and eager
clauses the session produces under that name.

**Lowering.** Each rule decides its own: local rules are plain CNF (pairs, windows, cardinality
constraints through :mod:`satgrid.cnf`, which picks direct clauses, sequential counters or
totalizers by size); :meth:`Model.connected` and :meth:`Model.single_loop` are the core's global
rules (:class:`~satgrid.connectivity.ConnectedSubgraph`, :class:`~satgrid.loop.SingleLoop`),
lowered lazily by CEGAR cuts or eagerly by parent pointers and ranks, unchanged. Clause counts
per rule are in ``encodings/rules.md``.

**Clues.** A clue (a given number, a circle in a cell) is switched on by assuming its selector
literal, so one encoding serves a puzzle and every subset of its clues (audits), and, when the
rules do not depend on the clues, every puzzle of a size. A genre's ``@m.clue`` function states one clue's
clauses through a :class:`Clue`; rules that tie several clues together use
:meth:`Model.switch`, the same selector literal in the base clauses.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache, wraps
from typing import Callable, Hashable, Iterable, Mapping, Sequence

from .cnf import Clause, VarPool, at_least, at_most, exactly, guarded, unary_sum
from .connectivity import ConnectedSubgraph, TruthReader, Value, holds
from .encoding import ClueEncoding, Encoding, GlobalRule
from .grid import Cell, EdgeKey, Grid, transforms
from .islands import SeededIslands
from .loop import SingleLoop
from .sized_regions import SizedRegions

Lits = Mapping[Hashable, int]
#: Names of clause families that only define auxiliary variables (a constant, what a cell sees)
#: and so never restrict a solution: explanations leave them out of reasons.
DEFINITIONS = frozenset({"true", "sightline"})
ClueFunction = Callable[["Clue", Hashable, object], None]


@dataclass
class Clue:
    """One clue being stated: its clauses (behind the selector the builder gives it), optional
    clauses for the clue *broken*, an anchor for a global rule's cuts, or the one literal the clue
    *is* (a given digit: the digit variable itself). Cardinality helpers draw auxiliaries from the clue's
    pool, which is the pool of the solver's copy of the encoding."""

    pool: VarPool
    clauses: list[Clause] = field(default_factory=list)
    broken_clauses: list[Clause] = field(default_factory=list)
    anchored: tuple[str, object] | None = None
    literal: int | None = None

    def require(self, clauses: Iterable[Clause]) -> None:
        self.clauses += clauses

    def exactly(self, lits: Sequence[int], k: int) -> None:
        self.clauses += exactly(lits, k, self.pool)

    def at_most(self, lits: Sequence[int], k: int) -> None:
        self.clauses += at_most(lits, k, self.pool)

    def at_least(self, lits: Sequence[int], k: int) -> None:
        self.clauses += at_least(lits, k, self.pool)

    def broken(self, clauses: Iterable[Clause]) -> None:
        """Clauses that hold exactly when this clue is broken (audits ask for such solutions)."""
        self.broken_clauses += clauses

    def anchor(self, rule: "ConnectedSubgraph | SingleLoop", nodes: Iterable[Hashable]) -> None:
        """While this clue is on, ``rule`` passes one of ``nodes`` (its cuts get stronger; no
        clause or variable is added)."""
        self.anchored = (rule.name, rule.clue_anchor(list(nodes)))

    def is_literal(self, lit: int) -> None:
        """This clue is the literal ``lit`` itself (no selector, no clause)."""
        self.literal = lit

    def sightline_count(self, lines: Sequence[Sequence[int]], k: int) -> None:
        """The clue's cell and the cells it sees along ``lines`` (the chains of
        :meth:`Model.sightlines`, made in the base) are exactly ``k``: the chains are unary
        numbers that sum to ``k - 1`` (:func:`~satgrid.cnf.unary_sum`)."""
        self.clauses += unary_sum(lines, k - 1, self.pool)


@dataclass
class Layer:
    """A family of primary variables: ``kind`` "bool" (a literal per key) or "one-hot" (per key
    a dict value -> literal, exactly one true)."""

    name: str
    kind: str
    lits: dict


class OneHot(dict):
    """A one-hot layer ``{cell: {value: literal}}`` over one ``domain``. ``first`` is its first
    variable when its variables are numbered consecutively, cell by cell in domain order (what
    :meth:`Model.numbers` makes on a fresh pool), else None: :func:`read_numbers` then reads the
    layer from one slice of the model."""

    def __init__(self, lits: dict[Cell, dict[int, int]], domain: Sequence[int]):
        super().__init__(lits)
        self.domain = tuple(domain)
        flat = [lit for values in lits.values() for lit in values.values()]
        consecutive = bool(flat) and flat == list(range(flat[0], flat[0] + len(flat)))
        self.first: int | None = flat[0] if consecutive else None
        self.keys_in_order = tuple(lits)


class Model:
    """Builds the encoding of one puzzle (or of every puzzle of a size) on a :class:`Grid`."""

    def __init__(self, grid: Grid):
        self.grid = grid
        self.pool = VarPool()
        self.clauses: list[Clause] = []
        self.rules: list[GlobalRule] = []
        self.layers: dict[str, Layer] = {}
        #: ``(rule name, first clause, end)``: the clauses each rule produced, in order.
        self.spans: list[tuple[str, int, int]] = []
        self._clue: ClueFunction | None = None
        self._loops: set[str] = set()  # layers whose every variable is an edge of one loop

    # -- variable layers -------------------------------------------------------------------
    def cells(self, name: str = "shaded", cells: Iterable[Cell] | None = None) -> dict[Cell, int]:
        """A boolean per cell (``(name, r, c)``), primary."""
        lits = {p: self.pool.var(name, *p) for p in (self.grid.cells if cells is None else cells)}
        self.layers[name] = Layer(name, "bool", lits)
        return lits

    def numbers(self, name: str, domain: Sequence[int],
                cells: Iterable[Cell] | None = None) -> dict[Cell, dict[int, int]]:
        """An integer per cell over ``domain``, one-hot (``(name, r, c, v)``): exactly one value
        per cell (rule "one {name} per cell": per cell its at-least-one clause, then its
        at-most-one). Variables are numbered cell by cell in domain order."""
        lits = OneHot({p: {v: self.pool.var(name, *p, v) for v in domain}
                       for p in (self.grid.cells if cells is None else cells)}, domain)
        self.layers[name] = Layer(name, "one-hot", lits)
        clauses: list[Clause] = []
        for values in lits.values():
            clauses += at_least(list(values.values()), 1, self.pool)
            clauses += at_most(list(values.values()), 1, self.pool)
        self.require(f"one {name} per cell", clauses)
        return lits

    def links(self, name: str = "line") -> dict[tuple[Cell, Cell], int]:
        """A boolean per pair of side-adjacent cells ``(p, q)``, ``p`` before ``q`` in reading
        order (``(name, r1, c1, r2, c2)``): lines through cell centres. Primary."""
        lits = {(p, q): self.pool.var(name, *p, *q) for p, q in self.grid.adjacent_pairs()}
        self.layers[name] = Layer(name, "bool", lits)
        return lits

    def edges(self, name: str = "edge") -> dict[EdgeKey, int]:
        """A boolean per edge of the dot lattice (``(name, "h"|"v", i, j)``, numbered 1..n in
        :attr:`~satgrid.grid.Grid.edge_keys` order when made first). Primary."""
        lits = {key: self.pool.var(name, *key) for key in self.grid.edge_keys}
        self.layers[name] = Layer(name, "bool", lits)
        return lits

    def true(self) -> int:
        """A literal that is always true (one variable: its unit clause is added once, with no
        marker variable, which would shift the solver's search)."""
        lit = self.pool.var("true")
        if not any(name == "true" for name, _, _ in self.spans):
            self.require("true", [[lit]])
        return lit

    # -- rules -----------------------------------------------------------------------------
    def require(self, name: str, clauses: Iterable[Clause]) -> None:
        """Any named family of clauses."""
        start = len(self.clauses)
        self.clauses.extend(clauses)
        if len(self.clauses) > start:
            if self.spans and self.spans[-1][0] == name and self.spans[-1][2] == start:
                start = self.spans.pop()[1]  # the same rule again: one span
            self.spans.append((name, start, len(self.clauses)))

    def exactly(self, name: str, lits: Sequence[int], k: int) -> None:
        self.require(name, exactly(list(lits), k, self.pool))

    count = exactly

    def at_most(self, name: str, lits: Sequence[int], k: int) -> None:
        self.require(name, at_most(list(lits), k, self.pool))

    def at_least(self, name: str, lits: Sequence[int], k: int) -> None:
        self.require(name, at_least(list(lits), k, self.pool))

    def count_in(self, name: str, room: Iterable[Cell], lits: Lits, k: int) -> None:
        """Exactly ``k`` of the room's cells are true in ``lits``."""
        self.exactly(name, [lits[p] for p in room if p in lits], k)

    def not_adjacent(self, name: str, lits: Lits) -> None:
        """No two side-adjacent cells are both true: a binary clause per pair."""
        self.require(name, ([-lits[p], -lits[q]] for p, q in self.grid.adjacent_pairs()
                            if p in lits and q in lits))

    def no_2x2(self, name: str, lits: Lits) -> None:
        """No 2x2 window is all true: a clause per window, its literals column by column (the
        solver watches the first two, so its search, and so generated puzzles, follow this order)."""
        self.require(name, ([-lits[a], -lits[c], -lits[b], -lits[d]] for a, b, c, d in self.grid.windows()
                            if a in lits and b in lits and c in lits and d in lits))

    def no_closed_pieces(self, name: str, lits: Lits, most: int, guard: int | None = None) -> None:
        """While ``guard`` holds (always, if None), no 4-connected set of at most ``most`` cells
        of ``lits`` is true and closed off: some side neighbour of it in ``lits`` is true too.
        Sound for a connected region known to have more than ``most`` cells; the lazy cuts of
        :meth:`connected` would find such a piece one CEGAR round later, this keeps the search
        from building it (``most = 1``: a true cell has a true neighbour). Lowering: per set,
        singles in the order of ``lits`` then pairs and so on, one clause ``-guard | -cells |
        neighbours`` (measured in encodings/connectivity.md)."""
        if most < 1:
            return
        # on cell indices (reading order): a piece is a sorted tuple of them; ``at`` is a cell's
        # literal (0: not in ``lits``), ``out`` its neighbours in ``lits``, in ``near``'s order
        near, index = self.grid.near, self.grid.index
        at = [0] * len(near)
        for p, x in lits.items():
            at[index(p)] = x
        out = [[q for q in around if at[q]] for around in near]
        head = [] if guard is None else [-guard]
        singles = [index(p) for p in lits]
        clauses: list[Clause] = [[-at[p], *head, *[at[q] for q in out[p]]] for p in singles]
        if most >= 2:  # pairs: side-adjacent cells in ``lits``, sorted (the pieces' order below);
            # two side-adjacent cells have no side neighbour in common (a square grid has no
            # triangles), so their neighbours are listed one after the other
            pieces = [(p, q) for p in sorted(singles) for q in sorted(out[p]) if p < q]
            clauses += [[-at[p], -at[q], *head, *[at[s] for s in out[p] if s != q],
                         *[at[s] for s in out[q] if s != p]] for p, q in pieces]
        for _ in range(3, most + 1):  # larger pieces: grown from the smaller by a neighbour
            pieces = sorted({tuple(sorted((*piece, q))) for piece in pieces for p in piece
                             for q in out[p] if q not in piece})
            for piece in pieces:
                around = dict.fromkeys(q for p in piece for q in out[p] if q not in piece)
                clauses.append([*(-at[p] for p in piece), *head, *(at[q] for q in around)])
        self.require(name, clauses)

    def all_different(self, name: str, numbers: Mapping[Cell, Mapping[int, int]],
                      units: Iterable[Sequence[Cell]]) -> None:
        """In each unit no value repeats: at most one cell per value. When a unit has as many
        cells as values, each value also occurs (pigeonhole: implied, and it propagates).
        Clauses go value by value, then unit by unit, at-least-one before at-most-one (the
        order of the hand-written encoding it replaced; the solver's search, and so its speed
        and the solutions it finds first, depend on the order)."""
        units = [list(unit) for unit in units]
        domains = [list(numbers[unit[0]]) for unit in units]
        clauses: list[Clause] = []
        for v in dict.fromkeys(v for domain in domains for v in domain):
            for unit, domain in zip(units, domains):
                if v not in domain:
                    continue
                lits = [numbers[p][v] for p in unit if v in numbers[p]]
                if len(unit) == len(domain):
                    clauses += at_least(lits, 1, self.pool)
                clauses += at_most(lits, 1, self.pool)
        self.require(name, clauses)

    def connected(self, name: str, lits: Lits, links: Iterable[tuple[Hashable, Hashable]] | None = None,
                  anchor: Hashable | None = None, anchors: Sequence[tuple[int, Sequence[Hashable]]] = (),
                  max_true: int | None = None, separators: bool = True) -> ConnectedSubgraph:
        """The true nodes of ``lits`` form one connected region (with ``anchor``: each reaches the
        anchor node). ``links`` default to side adjacency of the cells in ``lits``. ``anchors``:
        ``(lit, nodes)``, while ``lit`` holds some node of ``nodes`` is true. ``separators``: the
        lazy cuts go through smallest separators (fewer CEGAR rounds, each round's max flow
        costlier); off, through the false cells next to each component, the cheaper choice where
        SAT calls are cheap and components large (measured in encodings/rules.md)."""
        if links is None:
            links = ((p, q) for p, q in self.grid.adjacent_pairs() if p in lits and q in lits)
        rule = ConnectedSubgraph(name, dict(lits), [(p, q, None) for p, q in links], anchor=anchor,
                                 anchors=anchors, max_true=max_true, separators=separators)
        return self.rule(rule)

    def single_loop(self, name: str, lines: Lits, through: Iterable[Hashable] = (),
                    cut_form: str = "exit") -> SingleLoop:
        """The true ``lines`` form one simple closed loop. ``lines`` is a :meth:`links` layer
        (loops through cell centres; vertices are cells) or an :meth:`edges` layer (loops on the
        dot lattice; vertices are dots). ``through``: vertices the loop must visit."""
        edges = {self._ends(key): lit for key, lit in lines.items()}
        rule = SingleLoop(name, edges, self.pool, cut_form=cut_form)  # type: ignore[arg-type]
        visits = list(through)
        if visits:
            self.require(f"{name}: passes through", (rule.incident[v] for v in visits))
        for layer in self.layers.values():
            if layer.lits is lines or (layer.kind == "bool" and set(layer.lits) == set(lines)):
                self._loops.add(layer.name)
        return self.rule(rule)

    def loop_visits(self, name: str, loop: SingleLoop, lits: Lits) -> None:
        """The loop passes through exactly the vertices whose literal in ``lits`` is true (a
        vertex left out of ``lits`` is free): per vertex ``v`` with edges ``E(v)``,
        ``lit_v -> OR E(v)`` and ``e -> lit_v`` for each ``e`` in ``E(v)``. With the loop's
        degree rule (0 or 2) a true vertex has two links, a false one none. E.g. a loop through
        every unshaded cell: ``{p: -shaded[p]}``; a cell the loop never visits: a false literal."""
        clauses: list[Clause] = []
        for v, x in lits.items():
            around = loop.incident.get(v, [])
            clauses.append([-x, *around])
            clauses += ([x, -e] for e in around)
        self.require(name, clauses)

    def rule(self, rule: GlobalRule) -> GlobalRule:
        """Adds a global rule (an object with ``clauses``, ``cuts`` and ``eager_clauses``)."""
        self.rules.append(rule)
        return rule

    def sightline_count(self, name: str, cell: Cell, open_lits: Lits, k: int) -> None:
        """From ``cell``, the cells seen in the four directions up to the first closed cell (a
        cell whose ``open_lits`` literal is false, or the border), ``cell`` included, are exactly
        ``k``. Lowering: :meth:`sightlines`, whose chains are unary numbers, summed to ``k - 1``
        by :func:`~satgrid.cnf.unary_sum`. (In a clue: the chains made in the base, and
        :meth:`Clue.sightline_count`.)"""
        self.require(name, unary_sum(self.sightlines(cell, open_lits), k - 1, self.pool))

    def sightlines(self, cell: Cell, open_lits: Lits) -> list[list[int]]:
        """Per direction, literals "the i-th cell from ``cell`` is seen" (made once per cell)."""
        out = []
        for line in self.grid.sightlines(cell, lambda p: p not in open_lits):
            chain, before = [], None
            for i, p in enumerate(line):
                if not self.pool.has("seen", *cell, *p):
                    s = self.pool.var("seen", *cell, *p)
                    o = open_lits[p]
                    if before is None:
                        self.require("sightline", [[-s, o], [s, -o]])
                    else:
                        self.require("sightline", [[-s, o], [-s, before], [s, -o, -before]])
                s = self.pool.var("seen", *cell, *p)
                chain.append(s)
                before = s
            out.append(chain)
        return out

    # -- runs: the row and column segments of open cells between closed ones ------------------
    def at_most_in_runs(self, name: str, runs: Iterable[Sequence[Cell]], lits: Lits, k: int = 1) -> None:
        """In each run (a maximal row or column stretch of open cells, :meth:`Grid.runs` of the
        open cells), at most ``k`` cells are true in ``lits``: with ``k = 1``, no true cell sees
        another along a row or column. Lowering: an at-most-k per run of two or more cells
        (:func:`~satgrid.cnf.at_most` picks pairwise clauses or a sequential counter)."""
        clauses: list[Clause] = []
        for run in runs:
            xs = [lits[p] for p in run if p in lits]
            if len(xs) > k:
                clauses += at_most(xs, k, self.pool)
        self.require(name, clauses)

    def seen_in_runs(self, name: str, runs: Iterable[Sequence[Cell]], lits: Lits) -> None:
        """Every cell of the runs shares a run with a true cell (itself included): it sees a
        true cell along its row or its column, never past a closed cell. Lowering: one clause per
        cell, the literals of the union of the runs through it (a cell lies in one row run and
        one column run)."""
        through: dict[Cell, list[Cell]] = {}
        for run in runs:
            for p in run:
                through.setdefault(p, []).extend(run)
        self.require(name, ([lits[q] for q in dict.fromkeys(cells) if q in lits]
                            for p, cells in through.items()))

    def shapes_in_rooms(self, name: str, rooms: Sequence[Sequence[Cell]], lits: Lits,
                        shapes: Iterable[Iterable[Cell]]) -> dict[int, dict[int, int]]:
        """In each room the true cells of ``lits`` form exactly one of ``shapes`` (up to rotation
        and reflection; e.g. the tetrominoes). Lowering: a literal per placement of a shape
        inside the room, exactly one per room, and a cell is true iff a chosen placement covers
        it. Returns, per room index, ``{shape index: literal "the room holds that shape"}``."""
        kinds = [sorted({tuple(sorted(image)) for image in transforms(s)}) for s in shapes]
        out: dict[int, dict[int, int]] = {}
        clauses: list[Clause] = []
        for i, room in enumerate(rooms):
            inside, placed = set(room), []
            kind_lits: dict[int, list[int]] = {}
            covers: dict[Cell, list[int]] = {p: [] for p in room}
            for k, variants in enumerate(kinds):
                for variant in variants:
                    for r0, c0 in room:
                        dr, dc = r0 - variant[0][0], c0 - variant[0][1]
                        cells = [(r + dr, c + dc) for r, c in variant]
                        if all(p in inside for p in cells):
                            x = self.pool.var(name, "placement", i, k, *cells)
                            placed.append(x)
                            kind_lits.setdefault(k, []).append(x)
                            for p in cells:
                                covers[p].append(x)
            clauses += exactly(placed, 1, self.pool)
            for p, xs in covers.items():
                clauses += [[-lits[p], *xs], *([lits[p], -x] for x in xs)]
            out[i] = {}
            for k, xs in kind_lits.items():
                y = out[i][k] = self.pool.var(name, "shape", i, k)
                clauses += [[-y, *xs], *([y, -x] for x in xs)]
        self.require(name, clauses)
        return out

    def equal_shapes_apart(self, name: str, rooms: Sequence[Sequence[Cell]], lits: Lits,
                           shape_of: Mapping[int, Mapping[int, int]]) -> None:
        """Two true cells side by side in different rooms never belong to equal shapes
        (``shape_of`` from :meth:`shapes_in_rooms`)."""
        room_of = {p: i for i, room in enumerate(rooms) for p in room}
        clauses = []
        for p, q in self.grid.adjacent_pairs():
            a, b = room_of.get(p), room_of.get(q)
            if a is None or b is None or a == b or p not in lits or q not in lits:
                continue
            for k, y in shape_of[a].items():
                z = shape_of[b].get(k)
                if z is not None:
                    clauses.append([-lits[p], -lits[q], -y, -z])
        self.require(name, clauses)

    def no_run_across(self, name: str, lits: Lits, apart: Callable[[Cell, Cell], bool], count: int) -> None:
        """No straight run of true cells of ``lits`` (along a row or a column) crosses ``count``
        borders (``apart(p, q)``: a border separates consecutive cells ``p`` and ``q``, e.g. room
        borders). Lowering: a clause per minimal segment that crosses ``count``
        borders (:meth:`~satgrid.grid.Grid.segments_across`): one of its cells is false. A cell
        outside ``lits`` breaks every run through it."""
        self.require(name, ([-lits[p] for p in segment] for segment in self.grid.segments_across(apart, count)
                            if all(p in lits for p in segment)))

    def islands_with_one_seed(self, name: str, white: Lits, seeds: Mapping[Cell, int | None],
                              eager_from: int | None = None,
                              places: Sequence[tuple[int, Sequence[Cell]]] = (),
                              one_wall: bool = False) -> SeededIslands:
        """Every island (4-connected region of true cells of ``white``, a literal per cell of the
        grid) holds exactly one of ``seeds``, and a seed with a size has an island of that many
        cells (``{seed: size, or None for any size}``); seeds are white. Sizes are clues: state
        them with ``m.clue(islands.size)`` (a size switched off leaves a seed of any size).

        Lowering (:mod:`satgrid.islands`): each seed's *reach* (BFS distance below its size
        through cells that neither are nor touch another seed), labels "white and in this seed's
        island" on it, cells touching two seeds not white, the size clue as a cardinality over
        the labels with local connectivity (from ``eager_from`` on: parent pointers), a literal
        ``all`` (every size on) behind which a white cell lies in some reach, and the global rule
        :class:`~satgrid.islands.Islands` (lazy cuts, or eager island numbers). Returns the
        :class:`~satgrid.islands.SeededIslands` built: its ``size`` clue, ``all``, ``selectors``,
        ``crowded`` cells and each seed's ``reach`` and ``rim``.

        ``places`` (``(size, cells)`` each): islands of known size whose seed is on exactly one
        of ``cells``, chosen by assumptions: the clue ``(cell, size)`` is the literal "the seed
        is here" (``present[cell]``), and a place not chosen is an ordinary cell. One encoding
        then serves every placement of these seeds, exactly (a generator moving numbers).

        ``one_wall``: the cells outside the islands form one 4-connected region (a rule the
        caller states, such as :meth:`connected`), so the lazy cuts also rule out islands that
        wall part of it off (barrier cuts, :class:`~satgrid.islands.Islands`; not with
        ``places``, whose islands' labels are not keyed by a seed's cell)."""
        return SeededIslands(self, name, white, seeds, eager_from, places, one_wall)

    # -- neighbour counts ------------------------------------------------------------------
    def true_neighbours(self, name: str, lits: Lits, k: int) -> None:
        """Each true cell of ``lits`` has exactly ``k`` true side neighbours among ``lits``
        (``k = 1``: the true cells form dominoes). Lowering: per cell ``p``, ``exactly(k)`` over
        its neighbours' literals, every clause guarded by ``-lits[p]`` (:func:`~satgrid.cnf.guarded`;
        up to four neighbours, so direct clauses: for ``k = 1`` one at-least clause and six
        pairwise at-most clauses a cell). A cell with fewer than ``k`` neighbours is false."""
        clauses: list[Clause] = []
        for p, x in lits.items():
            around = [lits[q] for q in self.grid.neighbours(p) if q in lits]
            clauses += guarded(exactly(around, k, self.pool), x)
        self.require(name, clauses)

    def dead_ends(self, name: str, lits: Lits, ends: Iterable[Cell]) -> None:
        """The dead ends of the true cells of ``lits`` (a true cell with exactly one true side
        neighbour among ``lits``) are exactly the cells of ``ends``: each of them is true with one
        true neighbour, and no other true cell has exactly one. Lowering: per cell of ``ends`` a
        unit and ``exactly(1)`` over its neighbours (one at-least clause, pairwise at-most); per
        other cell ``p`` and neighbour ``q``, ``¬p ∨ ¬q ∨ OR(p's other neighbours)`` (with ``q``
        true, some other neighbour is true too). A true cell with no true neighbour is no dead end."""
        ends = set(ends)
        clauses: list[Clause] = []
        for p, x in lits.items():
            around = [lits[q] for q in self.grid.neighbours(p) if q in lits]
            if p in ends:
                clauses.append([x])
                clauses += exactly(around, 1, self.pool)
            else:
                clauses += ([-x, -y, *(z for z in around if z != y)] for y in around)
        self.require(name, clauses)

    # -- touching by corners ----------------------------------------------------------------
    def not_touching(self, name: str, lits: Lits) -> None:
        """No two cells that touch by a side or a corner (a king's move apart) are both true: a
        binary clause per such pair, each pair once (every pair lies in a 2x2 window, so this
        is also "at most one true cell in every 2x2 window")."""
        self.require(name, ([-lits[p], -lits[q]] for p in self.grid.cells if p in lits
                            for q in self.grid.king_neighbours(p) if q > p and q in lits))

    def sized_regions(self, name: str, cap: int, layer: str = "number") -> SizedRegions:
        """Every cell carries a number, and each 4-connected region of cells carrying one number
        ``n`` has exactly ``n`` cells (regions whose sizes are numbers). Numbers ``1..cap`` are a
        one-hot layer ``layer``; any larger number (up to the cells of the grid) is the layer's
        value ``cap + 1`` with the number in binary (``(layer + " bit", r, c, b)``), so ``cap``
        never bounds the sizes. Lowering (:mod:`satgrid.sized_regions`): local clauses, then lazy
        cuts on components whose size is not their number, or the exact eager tree lowering.
        Returns the :class:`~satgrid.sized_regions.SizedRegions` built (``carries(cell, n)``
        states a given number)."""
        return SizedRegions(self, name, cap, layer)

    # -- clues -----------------------------------------------------------------------------
    def clue(self, function: ClueFunction) -> ClueFunction:
        """Decorator: ``function(c, key, value)`` states clue ``key = value`` through ``c``."""
        self._clue = function
        return function

    def switch(self, key: Hashable, value: object) -> int:
        """The selector literal of clue ``key = value``, for rules that tie clues together."""
        return self.pool.var("clue", *_flat(key), value)

    # -- the result ------------------------------------------------------------------------
    def build(self) -> Encoding:
        """The encoding: the rules' clauses, global rules, primary layers, and clue encoders
        that draw selectors (and auxiliaries) from the pool of each copy."""
        primary: dict = {}
        for layer in self.layers.values():  # one loop per kind: built for every puzzle
            name = layer.name
            if layer.kind == "one-hot":
                primary.update(((name, *_flat(key), v), lit)
                               for key, values in layer.lits.items() for v, lit in values.items())
            else:
                primary.update(((name, *_flat(key)), lit) for key, lit in layer.lits.items())
        block_true_only = all(layer.kind == "one-hot" or layer.name in self._loops
                              for layer in self.layers.values())
        clue_function = self._clue
        #: Shared by every copy: what the clue function said of each clue that drew no variable
        #: (the literal it is, or its clauses, broken clauses and anchor), and the encodings made
        #: of it per selector (copies that number their selectors alike share them).
        said: dict[tuple[Hashable, object], tuple[int | None, tuple, tuple, object]] = {}
        made: dict[tuple[Hashable, object, int], ClueEncoding] = {}

        def rebind(pool: VarPool) -> Callable[[Hashable, object], ClueEncoding]:
            def encode_clue(key: Hashable, value: object) -> ClueEncoding:
                if clue_function is None:
                    raise ValueError("this genre has no clues")
                known = said.get((key, value))
                if known is None:
                    top = pool.top
                    c = Clue(pool)
                    clue_function(c, key, value)
                    known = (c.literal, tuple(c.clauses), tuple(c.broken_clauses), c.anchored)
                    if pool.top != top:  # auxiliaries of this pool: not for other copies
                        if c.literal is not None:
                            return ClueEncoding(c.literal)
                        return _encoded(pool.var("clue", *_flat(key), value), *known)
                    if len(said) >= 100_000:
                        said.clear()
                        made.clear()
                    said[key, value] = known
                if known[0] is not None:
                    # no selector drawn: unused variables only widen the solver's range and slow
                    # every SAT call (measured in encodings/rules.md)
                    return ClueEncoding(known[0])
                selector = pool.var("clue", *_flat(key), value)
                encoded = made.get((key, value, selector))
                if encoded is None:
                    encoded = made[key, value, selector] = _encoded(selector, *known)
                return encoded
            return encode_clue

        return Encoding(self.pool, self.clauses, primary, rebind(self.pool), self.rules,
                        block_true_only=block_true_only, rebind=rebind,
                        layers={name: layer.lits for name, layer in self.layers.items()},
                        spans=list(self.spans))

    # -- internals -------------------------------------------------------------------------
    def _ends(self, key: Hashable) -> tuple[Hashable, Hashable]:
        if isinstance(key, tuple) and len(key) == 3 and key[0] in ("h", "v"):
            return Grid.edge_ends(key)  # type: ignore[arg-type]
        return key  # type: ignore[return-value]


def _encoded(selector: int, literal: int | None, clauses: tuple, broken: tuple,
             anchored: object) -> ClueEncoding:
    """A clue's encoding behind ``selector`` (or the literal it is). A switch only has the clause
    "selector" (a tautology behind the selector; in a plain export it switches the tied rules
    on), never a bare literal clue; no always-true variable in the base: its unit clause changed
    the solver's search and made it slower (measured in encodings/rules.md)."""
    if literal is not None:
        return ClueEncoding(literal)
    return ClueEncoding(selector, clauses or ([selector],), broken, anchored)  # type: ignore[arg-type]


def _flat(key: Hashable) -> tuple:
    """A key as a flat tuple: ``((r, c), (r2, c2))`` -> ``(r, c, r2, c2)``."""
    if not isinstance(key, tuple):
        return (key,)
    for part in key:
        if isinstance(part, tuple):
            return tuple(x for part in key for x in (_flat(part) if isinstance(part, tuple) else (part,)))
    return key  # a cell: already flat (the common case, once per primary variable)


# -- reading an assignment ----------------------------------------------------------------------
#: ``id(layer) -> (layer, its keys, a reader of its literals)`` for the boolean layers read
#: lately (decoding reads the same layer for every solution of a session).
_READERS: dict[int, tuple[dict, tuple, TruthReader]] = {}


def _reader(lits: dict) -> tuple[tuple, TruthReader]:
    known = _READERS.get(id(lits))
    if known is None or known[0] is not lits:
        if len(_READERS) >= 16:
            _READERS.clear()
        known = _READERS[id(lits)] = (lits, tuple(lits), TruthReader(list(lits.values())))
    return known[1], known[2]


def layer_values(encoding: Encoding, layer: str, value: Value) -> tuple[tuple, list[bool]]:
    """A boolean layer's keys and their values, in the layer's order. Read off a solver's model
    by :class:`~satgrid.connectivity.TruthReader` (a slice of the model for a layer numbered
    consecutively), made once per layer."""
    keys, reader = _reader(encoding.layers[layer])
    return keys, reader(value)


def read(encoding: Encoding, layer: str, value: Value) -> dict:
    """A boolean layer's values: ``{key: bool}``."""
    keys, truth = layer_values(encoding, layer, value)
    return dict(zip(keys, truth))


#: Truth values (0, 1) as shading characters.
_SHADE = bytes.maketrans(b"\x00\x01", b".#")


def read_shading(encoding: Encoding, layer: str, value: Value, rows: int, cols: int) -> tuple[str, ...]:
    """A boolean cell layer as a shading solution: rows of ``#`` (true) and ``.`` (false)."""
    keys, truth = layer_values(encoding, layer, value)
    if keys == Grid.of(rows, cols).cells:  # the layer in reading order: one string, cut in rows
        flat = bytes(truth).translate(_SHADE).decode()
        return tuple(flat[r * cols:(r + 1) * cols] for r in range(rows))
    on = dict(zip(keys, truth))
    return tuple("".join("#" if on[r, c] else "." for c in range(cols)) for r in range(rows))


def read_numbers(encoding: Encoding, layer: str, value: Value, empty: object = None) -> dict:
    """A one-hot layer's values: ``{cell: value}`` in the layer's cell order (``empty`` where no
    value is true; where several are, the first in domain order).

    A layer numbered consecutively (:attr:`OneHot.first`) read off a solver's model is one pass
    over the slice of the model that holds it: each true variable names its cell and value by
    its offset (about as fast as indexing the model by hand)."""
    lits = encoding.layers[layer]
    first = getattr(lits, "first", None)
    model = getattr(value, "model", None)
    if first is not None and model is not None:
        cells, domain = lits.keys_in_order, lits.domain
        k = len(domain)
        end = first - 1 + len(cells) * k
        if len(model) >= end:
            out = dict.fromkeys(cells, empty)
            for lit in reversed(model[first - 1:end]):
                if lit > 0:
                    i = lit - first
                    out[cells[i // k]] = domain[i % k]
            return out
    out = {}
    for p, values in lits.items():
        truth = holds(value, values.values())
        out[p] = next((v for v, t in zip(values, truth) if t), empty)
    return out


# -- one encoding per key, copied ---------------------------------------------------------------
def made_once(maxsize: int = 16) -> Callable[[Callable[..., Encoding]], Callable[..., Encoding]]:
    """Decorator for an encoder whose encoding depends only on its (hashable) arguments, as when
    every clue is a selector and the genre's ``cache_key`` is the grid size: the encoding is
    built once per arguments (the last ``maxsize`` kept), its global rules' clauses made on it,
    and each call returns an :meth:`~satgrid.encoding.Encoding.copy` (a pool of its own for the
    solver's selectors, cuts and blocking clauses; clauses, rules and clue encodings shared).

    A generator makes a solver per puzzle; building the encoding anew for each had been a large
    part of generation time (measured in encodings/rules.md). The decorated function's
    ``template(*args)`` is the shared original, which nothing may allocate on."""
    def decorate(build: Callable[..., Encoding]) -> Callable[..., Encoding]:
        @lru_cache(maxsize=maxsize)
        def template(*args: Hashable) -> Encoding:
            base = build(*args)
            for rule in base.rules:
                rule.clauses(base.pool)
            return base

        @wraps(build)
        def copy(*args: Hashable) -> Encoding:
            return template(*args).copy()

        copy.template = template  # type: ignore[attr-defined]
        return copy
    return decorate


# -- the size of a genre's statement ------------------------------------------------------------
def statement_lines(function: Callable[..., object]) -> int:
    """The lines of code of ``function`` (a genre's ``rules``): its source without the ``def``
    line, docstrings (its own and those of functions inside it), comments and blank lines."""
    import ast
    import inspect
    import textwrap

    source = textwrap.dedent(inspect.getsource(function))
    tree = ast.parse(source)
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                skip.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    outer = tree.body[0]
    start = outer.body[0].lineno  # type: ignore[attr-defined]
    lines = source.splitlines()[start - 1:]
    return sum(1 for n, text in enumerate(lines, start)
               if n not in skip and text.strip() and not text.strip().startswith("#"))
