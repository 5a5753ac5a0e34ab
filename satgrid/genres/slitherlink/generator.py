"""Slitherlink generator after van Dam's thesis ("Takegaki", Leiden 2008), on one incremental
solver per puzzle.

1. A loop: the boundary of a region of cells grown from one random cell (a unit square loop) by
   about ``10 * rows * cols`` applications of three growth rules, picked at random with the
   ``ratios`` (default 33/33/34):

   * rule 1, *shrink*: a cell of the region leaves it (the loop is pulled in over one cell);
   * rule 2, *extend*: a cell with exactly one side on the region joins it (the loop pushes out
     a corridor; with 33/67/0 tight corridors span the grid);
   * rule 3, *fatten*: a cell with two or more sides on the region joins it (it fills a bay;
     with 33/7/60 the loop stays broad and in a small part of the grid).

   A change is made only when the boundary stays one simple loop: the region and its complement
   stay 4-connected, no hole appears and no two region cells touch by a corner alone (the loop
   would touch itself at a dot). This is checked locally, with a table of the 256 patterns of a
   cell's eight neighbours (the classic simple-point test of digital topology): the changed cell
   has exactly one run of region cells and one of outside cells around it, and no 2x2 block
   around it becomes a checkerboard. The thesis text gives the rule ratios and their effects;
   the three rules above are our reading of them.
2. Every cell gets its edge count; if that full grid has another solution, start over.
3. Numbers are removed in shuffled order; a removal that breaks uniqueness (one SAT call: a
   solution other than the loop without the removed numbers, by assumptions on the puzzle's
   solver, cuts kept from query to query) is undone. Removing clues only relaxes a puzzle, so a
   number that must stay once must stay later, and one pass reaches the fixpoint of the thesis's
   "reshuffle and repeat until no number can go": the result is clue-minimal. The pass is the
   core's greedy deletion, which tries runs of numbers at once while they can go (same result,
   fewer SAT calls), and keeps with no SAT call a number that moving one cell, or two cells
   that share a neighbour, across the loop would alone break (:func:`flip_witnesses`: that other
   loop solves the puzzle without the number), or that the other loop a failed run returned
   breaks alone (:func:`counts_broken`). A question about one number asks for a solution that
   breaks it (the core's ``one_more_gone``). The puzzle's solver serves this pass only, so
   decided numbers become unit clauses (``settle``); it starts from a copy of the size's
   encoding (:func:`~satgrid.genres.slitherlink.encode`), and loops round at most three cells
   are barred up front (:func:`~satgrid.genres.slitherlink.small_loop_lemma`); a sub-loop is
   cut by one clause, "not all of its edges" (:data:`CUT_FORM`), and positive numbers anchor
   the cuts through their selectors (no anchor variables). Each of these choices, and the
   solver, was kept because it made generation faster; the ideas tried and dropped are logged
   with their figures (figures: encodings/slitherlink.md, section "Generation: measured").
4. Flavours: "hard" accepts any unique puzzle; "normal" also undoes removals after which the
   puzzle is no longer solved by the propagation ladder's levels 0-1 (:mod:`satgrid.grading`:
   propagation and failed-literal probing, the loop rule's cuts included). Grades only fall as
   clues go, so one pass is again the fixpoint. Normal puzzles are minimal for that property,
   not necessarily clue-minimal.
"""
from __future__ import annotations

import random
import time
from functools import lru_cache
from dataclasses import dataclass, field
from itertools import compress, repeat
from typing import Callable, Sequence

from ... import api
from ...errors import SatgridError
from . import SlitherlinkPuzzle, encode, sides, small_loop_lemma
from ...grading import assess_clues, grading_session
from ...queries import PuzzleQueries
from ...session import Session
from ...solver import DEFAULT_SOLVER

RATIOS = (33, 33, 34)
#: The generator's options unless the caller gives some: MiniSat's GitHub version answers the
#: removal questions faster than cadical153 (the default elsewhere) and minisat22, with fewer
#: SAT calls (figures: encodings/slitherlink.md, section "Generation: measured").
OPTIONS = api.Options(solver="minisat-gh")
#: The loop rule's lazy cut in generation (:class:`~satgrid.loop.SingleLoop`): "whole", one
#: clause "S is not whole" per sub-loop, where solving keeps the stronger "exit" cut. The
#: sub-loops a removal question meets are mostly splits of the known loop, rarely met twice, so
#: the one clause costs less than the stronger cut (figures: encodings/slitherlink.md, section
#: "Generation: measured").
CUT_FORM = "whole"
#: Lowering of the loop rule while grading "normal" removals; the audit grades with the same
#: default (lazy), so the grade a generated puzzle reports is the one the generator checked.
GRADE_CONNECTIVITY = "lazy"
FLAVOURS = ("normal", "hard")

# The eight neighbours of a cell in ring order: N, NE, E, SE, S, SW, W, NW (even = orthogonal).
_RING = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))


def _runs(bits: list[bool]) -> int:
    """Runs of True in the cyclic sequence ``bits`` (all True counts as one)."""
    if all(bits):
        return 1
    return sum(1 for i in range(8) if bits[i] and not bits[i - 1])


def _simple(ring: int, inside: bool) -> bool:
    """May the cell whose eight neighbours are ``ring`` (bit i = neighbour i is in the region)
    change sides? ``inside`` = it is in the region now (so it would leave)."""
    bits = [bool(ring >> i & 1) for i in range(8)]
    # After the change the cell is on the side it is not on now; "same" marks neighbours there.
    same = [not b for b in bits] if inside else bits
    if not any(same[i] for i in (0, 2, 4, 6)) or all(same):
        return False  # it would be cut off, or it would fill a hole
    if _runs(same) != 1 or _runs([not b for b in same]) != 1:
        return False  # it would join two parts of its side, or split the other side
    for d in (1, 3, 5, 7):  # a 2x2 checkerboard: the loop would touch itself at a dot
        if same[d] and not same[d - 1] and not same[(d + 1) % 8]:
            return False
    return True


_CAN_JOIN = [_simple(ring, False) for ring in range(256)]
#: A ring bit (neighbour k) to the bit of the opposite neighbour (k + 4).
_OPPOSITE_BIT = {1 << k: 1 << ((k + 4) % 8) for k in range(8)}
_CAN_LEAVE = [_simple(ring, True) for ring in range(256)]
_SIDES_IN = [sum(ring >> i & 1 for i in (0, 2, 4, 6)) for ring in range(256)]
#: By rule (2 extend, 3 fatten): may an outside cell with this ring join the region by it?
_JOINS = {2: [_CAN_JOIN[ring] and _SIDES_IN[ring] == 1 for ring in range(256)],
          3: [_CAN_JOIN[ring] and _SIDES_IN[ring] != 1 for ring in range(256)]}
#: By rule number: None for rule 1 (shrink), else the rule's :data:`_JOINS` table.
_RULE_TABLES = (None, None, _JOINS[2], _JOINS[3])


class Region:
    """A set of cells whose boundary is one simple loop, on a grid padded by an outside frame."""

    def __init__(self, rows: int, cols: int, start: tuple[int, int]):
        self.rows, self.cols, self.width = rows, cols, cols + 2
        self.inside = [False] * ((rows + 2) * self.width)
        self.offsets = [dr * self.width + dc for dr, dc in _RING]
        self.orthogonal = self.offsets[0::2]
        #: No cell may join the region there: the frame, or a cell of the region.
        self.closed = [not (1 <= i // self.width <= rows and 1 <= i % self.width <= cols)
                       for i in range((rows + 2) * self.width)]
        #: For each ring neighbour k: (offset to it, the bit that stands for this cell in its ring).
        self._ring_back = [(off, 1 << ((k + 4) % 8)) for k, off in enumerate(self.offsets)]
        self.cells: list[int] = []
        self.where: dict[int, int] = {}
        #: Each cell's ring pattern (:meth:`ring`), kept up to date by :meth:`apply`: the growth
        #: rules read a pattern per try, a change updates eight (figures: encodings/slitherlink.md,
        #: section "Generation: measured").
        self.rings = [0] * len(self.inside)
        self._join(self.index(*start))

    @classmethod
    def of(cls, rows: int, cols: int, cells: Sequence[tuple[int, int]]) -> "Region":
        """The region of ``cells``: a non-empty set whose boundary is one simple loop (the inside
        of a solution's loop)."""
        region = cls(rows, cols, cells[0])
        for r, c in cells[1:]:
            region._join(region.index(r, c))
        return region

    def _join(self, i: int) -> None:
        """Cell ``i`` joins the region (:meth:`apply` writes the same change out inline)."""
        self.inside[i] = self.closed[i] = True
        self.where[i] = len(self.cells)
        self.cells.append(i)
        for off, bit in self._ring_back:  # the cell is in its neighbours' rings
            self.rings[i + off] ^= bit

    def index(self, r: int, c: int) -> int:
        return (r + 1) * self.width + c + 1

    def ring(self, i: int) -> int:
        """The pattern of the eight neighbours (bit k = ring neighbour k is in the region)."""
        inside = self.inside
        n, ne, e, se, s, sw, w, nw = self.offsets
        return (inside[i + n] | inside[i + ne] << 1 | inside[i + e] << 2 | inside[i + se] << 3
                | inside[i + s] << 4 | inside[i + sw] << 5 | inside[i + w] << 6 | inside[i + nw] << 7)

    def apply(self, rules: Sequence[int], rng: random.Random, tries: int = 8) -> None:
        """Apply growth rules 1, 2 or 3 in turn, each to a random fitting cell (up to ``tries``
        random picks; a rule that finds none is skipped; the region never becomes empty).

        One loop for all the steps (a 10x10 grid takes a thousand), the change of a cell written
        out in it: ``cells`` and ``where`` (a cell's place in ``cells``), ``inside`` and
        ``closed``, and the eight rings around the cell. A changed cell is a grid cell, so its
        eight neighbours lie inside the padded frame (faster than a method call per change). A
        random pick is ``getrandbits`` of just enough bits, drawn again while too large (uniform,
        like ``int(random() * n)``, and cheaper) (figures: encodings/slitherlink.md, section
        "Generation: measured")."""
        cells, where, inside, closed, rings = self.cells, self.where, self.inside, self.closed, self.rings
        orthogonal, draw = self.orthogonal, rng.getrandbits
        (o0, b0), (o1, b1), (o2, b2), (o3, b3), (o4, b4), (o5, b5), (o6, b6), (o7, b7) = self._ring_back
        attempts = range(tries)
        for joins in map(_RULE_TABLES.__getitem__, rules):
            count = len(cells)
            if joins is None:  # rule 1: a region cell leaves
                if count == 1:  # it may not
                    continue
                bits = (count - 1).bit_length()
                for _ in attempts:
                    pick = draw(bits)  # uniform below count: bits drawn, too large ones redrawn
                    while pick >= count:
                        pick = draw(bits)
                    i = cells[pick]
                    if _CAN_LEAVE[rings[i]]:
                        inside[i] = closed[i] = False
                        k = where.pop(i)
                        last = cells.pop()
                        if last != i:
                            cells[k] = last
                            where[last] = k
                        break
                else:
                    continue
            else:  # rules 2 and 3: an outside cell joins
                span = 4 * count
                bits = (span - 1).bit_length()
                for _ in attempts:
                    pick = draw(bits)  # a region cell and a side, from one draw
                    while pick >= span:
                        pick = draw(bits)
                    i = cells[pick >> 2] + orthogonal[pick & 3]
                    if not closed[i] and joins[rings[i]]:
                        inside[i] = closed[i] = True
                        where[i] = count
                        cells.append(i)
                        break
                else:
                    continue
            rings[i + o0] ^= b0
            rings[i + o1] ^= b1
            rings[i + o2] ^= b2
            rings[i + o3] ^= b3
            rings[i + o4] ^= b4
            rings[i + o5] ^= b5
            rings[i + o6] ^= b6
            rings[i + o7] ^= b7

    def clues(self) -> dict[tuple[int, int], int]:
        """Every cell's count of loop sides (sides between the region and the rest): read off
        its ring, the region neighbours of a cell outside, the others of a cell inside."""
        inside, rings, index = self.inside, self.rings, self.index
        return {(r, c): 4 - _SIDES_IN[rings[i]] if inside[i] else _SIDES_IN[rings[i]]
                for r in range(self.rows) for c in range(self.cols) for i in (index(r, c),)}

    def loop_edges(self) -> list[tuple[str, int, int]]:
        """The loop's edges as ``("h"|"v", i, j)`` keys of the Slitherlink encoding."""
        inside, index = self.inside, self.index
        edges = []
        for i in range(self.rows + 1):
            for j in range(self.cols):
                if inside[index(i - 1, j)] != inside[index(i, j)]:
                    edges.append(("h", i, j))
        for i in range(self.rows):
            for j in range(self.cols + 1):
                if inside[index(i, j - 1)] != inside[index(i, j)]:
                    edges.append(("v", i, j))
        return edges


def check_options(rows: int, cols: int, ratios: tuple[int, int, int] = RATIOS) -> None:
    """Refuse a request no attempt can serve: an empty grid, or growth ratios that draw no rule."""
    if rows * cols < 1:
        raise SatgridError("a Slitherlink needs at least one cell")
    if len(ratios) != 3 or min(ratios) < 0 or sum(ratios) <= 0:
        raise SatgridError(f"growth ratios {'/'.join(map(str, ratios))} draw no rule: give three "
                           "non-negative weights, not all 0")


def grow(rows: int, cols: int, rng: random.Random, ratios: tuple[int, int, int] = RATIOS,
         steps: int | None = None) -> Region:
    """A random region (its boundary is the loop), grown by ``steps`` (default 10*rows*cols) rule
    applications."""
    check_options(rows, cols, ratios)
    region = Region(rows, cols, (rng.randrange(rows), rng.randrange(cols)))
    region.apply(_rule_draws(rng, ratios, steps if steps is not None else 10 * rows * cols), rng)
    return region


def _rule_draws(rng: random.Random, ratios: tuple[int, int, int], steps: int) -> list[int]:
    """``steps`` growth rules (1, 2 or 3) drawn with the weights ``ratios``. Integer weights
    that add up to at most 4096 index a table by random bits (entries past their sum are drawn
    again), in C-level loops, faster than ``random.choices`` (figures: encodings/slitherlink.md,
    section "Generation: measured")."""
    total = sum(ratios)
    if not all(isinstance(w, int) for w in ratios) or total > 4096:
        return rng.choices((1, 2, 3), weights=ratios, k=steps)
    bits = (total - 1).bit_length()
    table = [1] * ratios[0] + [2] * ratios[1] + [3] * ratios[2] + [0] * ((1 << bits) - total)
    rules: list[int] = []
    while len(rules) < steps:
        draws = map(rng.getrandbits, repeat(bits, steps - len(rules)))
        rules += filter(None, map(table.__getitem__, draws))
    return rules


@dataclass
class Generated:
    """A generated puzzle with its loop and counters."""

    puzzle: SlitherlinkPuzzle
    loop: list[tuple[str, int, int]]
    attempts: int = 0
    checks: int = 0
    graded: int = 0
    times: dict[str, float] = field(default_factory=dict)


def make(rows: int, cols: int, rng: random.Random, *, flavour: str = "hard",
         ratios: tuple[int, int, int] = RATIOS, steps: int | None = None,
         options: api.Options = OPTIONS, max_attempts: int = 1000) -> Generated:
    """A unique ``rows`` x ``cols`` Slitherlink (see the module doc), with counters."""
    if flavour not in FLAVOURS:
        raise SatgridError(f"flavour must be one of {', '.join(FLAVOURS)}, not {flavour!r}")
    template = SlitherlinkPuzzle(tuple(tuple([None] * cols) for _ in range(rows)))
    # A solver of its own per puzzle: on a solver shared from puzzle to puzzle the cuts of every
    # earlier loop pile up, and generation was slower (figures: encodings/slitherlink.md,
    # section "Generation: measured").
    session = Session(encode(template, CUT_FORM), options.solver, options.connectivity,
                      options.conflict_limit)
    grader = grading_session(template, DEFAULT_SOLVER, GRADE_CONNECTIVITY)[0] if flavour == "normal" else None
    times = {"grow": 0.0, "unique": 0.0, "remove": 0.0}
    try:
        for attempt in range(1, max_attempts + 1):
            start = time.perf_counter()
            region = grow(rows, cols, rng, ratios, steps)
            clues = region.clues()
            times["grow"] += time.perf_counter() - start
            start = time.perf_counter()
            queries = PuzzleQueries(session, clues)
            session.add(small_loop_lemma(session.encoding, rows, cols, clues, queries.selectors))
            edge = session.encoding.layers["edge"]
            loop = region.loop_edges()
            projection = tuple(sorted(edge[key] for key in loop))
            try:
                # every number assumed as it is: the one activation literal for all of them
                # (PuzzleQueries.all_clues) would cost a hundred clauses for this one question
                status = session.solve([*queries.selectors.values(), queries.blocker(projection)],
                                       need_model=False).status
                times["unique"] += time.perf_counter() - start
                if status == "unknown":
                    raise SatgridError("a limit was reached while generating")
                if status == "sat":
                    continue
                if grader is not None and assess_clues(grader, clues).level not in (0, 1):
                    continue
                start = time.perf_counter()
                kept, checks, graded = _remove(queries, projection, region, clues, rng, grader)
                times["remove"] += time.perf_counter() - start
            finally:
                queries.retire()
            givens = tuple(tuple(kept.get((r, c)) for c in range(cols)) for r in range(rows))
            return Generated(SlitherlinkPuzzle(givens), loop, attempt, checks, graded, times)
        raise SatgridError(f"no unique {rows}x{cols} Slitherlink in {max_attempts} loops")
    finally:
        session.close()


Cell = tuple[int, int]
#: Second cells of a two-cell flip, from the first: they share grid neighbours with it (a
#: diagonal neighbour shares two, a cell two steps away one), where the two count changes can
#: cancel. In witnesses the solver found, such pairs were the commonest moves after one cell.
_PARTNERS = ((-1, -1), (-1, 1), (1, -1), (1, 1), (0, 2), (2, 0), (0, -2), (-2, 0))


@dataclass(frozen=True)
class _MoveLayout:
    """For moves on a grid, cells by flat index p = r * cols + c."""

    keys: list[Cell]  # p's key (r, c)
    padded: list[int]  # p's index in a region's padded arrays (:meth:`Region.index`)
    #: the keys of p's grid neighbours, without and with p's own key first
    around: list[tuple[Cell, ...]]
    around_self: list[tuple[Cell, ...]]
    #: p's partners (q > p): (q, the bit that stands for p in q's ring when p is q's diagonal
    #: neighbour else 0, the grid neighbours p and q share, the keys of the other grid
    #: neighbours of p or q)
    partners: list[tuple[tuple[int, int, tuple[int, ...], tuple[Cell, ...]], ...]]


@lru_cache(maxsize=16)
def _move_layout(rows: int, cols: int) -> _MoveLayout:
    """The :class:`_MoveLayout` of a ``rows`` x ``cols`` grid."""
    width = cols + 2
    keys = [(r, c) for r in range(rows) for c in range(cols)]
    padded = [(r + 1) * width + c + 1 for r, c in keys]
    flat = {key: p for p, key in enumerate(keys)}

    def around(r: int, c: int) -> tuple[int, ...]:
        return tuple(flat[r + dr, c + dc] for dr, dc in _RING[0::2] if (r + dr, c + dc) in flat)

    neighbours = [around(r, c) for r, c in keys]
    partners = []
    for p, (r, c) in enumerate(keys):
        mine = []
        for dr, dc in _PARTNERS:
            q = flat.get((r + dr, c + dc))
            if q is not None and q > p:
                bit = 1 << ((_RING.index((dr, dc)) + 4) % 8) if dr and dc else 0
                shared = set(neighbours[p]) & set(neighbours[q])
                others = tuple(keys[z] for z in sorted(set(neighbours[p]) ^ set(neighbours[q])))
                mine.append((q, bit, tuple(sorted(shared)), others))
        partners.append(tuple(mine))
    near = [tuple(keys[q] for q in ns) for ns in neighbours]
    return _MoveLayout(keys, padded, near, [(key, *ns) for key, ns in zip(keys, near)], partners)


def flips(region: Region) -> dict[tuple[Cell, ...], Sequence[Cell]]:
    """Moves of one or two cells across the loop that keep it one simple loop, each with the
    cells whose edge count the move alters.

    Moving cell x across the loop flips its four sides on or off: its own count k becomes 4 - k
    (unchanged only for k = 2) and each grid neighbour's count moves by one, up if it was on
    x's side before. Each move is legal by the local test the growth rules use (the region
    stays non-empty). A pair ``(x, y)``: y is a diagonal neighbour of x or two steps from it in
    line, x moves first (legal alone), then y (legal once x has moved: a diagonal move changes
    y's ring); their sides are disjoint, so the count changes add up, and a shared neighbour
    keeps its count when it was on x's side and not on y's or the other way round. The cells
    a move alters are read off the grid's :class:`_MoveLayout`, made once per size (figures:
    encodings/slitherlink.md, section "Generation: measured").
    """
    layout = _move_layout(region.rows, region.cols)
    keys, padded, partners = layout.keys, layout.padded, layout.partners
    inside, rings = region.inside, region.rings
    size = len(region.cells)
    side = [inside[i] for i in padded]
    # own[p]: p's count changes when p moves (it is not 2); alone[p]: p may move alone
    own = [(4 - _SIDES_IN[rings[i]] if here else _SIDES_IN[rings[i]]) != 2  # as in clues()
           for i, here in zip(padded, side)]
    alone = [(_CAN_LEAVE[rings[i]] and size > 1) if here else _CAN_JOIN[rings[i]]
             for i, here in zip(padded, side)]
    out: dict[tuple[Cell, ...], Sequence[Cell]] = {
        (keys[p],): (layout.around_self if own[p] else layout.around)[p]
        for p in compress(range(len(keys)), alone)}
    for p, mine in enumerate(partners):
        for q, bit, shared, others in mine:
            if alone[p]:  # the first mover must be legal alone: p if it is, else q
                x, y = p, q
            elif alone[q]:
                x, y = q, p
            else:
                continue
            # y's ring once x has moved: x's bit flips when x is y's diagonal neighbour (``bit``
            # stands for p in q's ring; q in p's ring is the opposite neighbour)
            ring = rings[padded[y]] ^ ((bit if y == q else _OPPOSITE_BIT[bit]) if bit else 0)
            x_in, y_in = side[x], side[y]  # inside now, so leaving
            if (x_in and y_in and size <= 2) or not (_CAN_LEAVE[ring] if y_in else _CAN_JOIN[ring]):
                continue
            changed = [*others]
            if own[x]:
                changed.append(keys[x])
            if own[y]:
                changed.append(keys[y])
            # a shared neighbour z keeps its count when it was on one mover's side only
            changed += [keys[z] for z in shared if (side[z] == x_in) == (side[z] == y_in)]
            out[keys[x], keys[y]] = changed
    return out


def flip_witnesses(region: Region, clues: dict) -> dict[Cell, list[frozenset[Cell]]]:
    """Witnesses that numbers must stay (for the core's greedy deletion): for each number, the
    sets of numbers that the legal moves (:func:`flips`) altering it alter. Once the others of
    such a set are gone, the moved loop solves the puzzle without that number, so it is not
    unique any more. No SAT call."""
    witnesses: dict[Cell, list[frozenset[Cell]]] = {cell: [] for cell in clues}
    every_cell = len(clues) == region.rows * region.cols
    for changed in flips(region).values():
        numbers = frozenset(changed if every_cell else [k for k in changed if k in clues])
        for cell in numbers:
            witnesses[cell].append(numbers)
    return witnesses


def counts_broken(session: Session, region: Region, clues: dict) -> Callable[[object, list], set]:
    """The numbers among ``keys`` whose edge count an assignment does not match."""
    edge = session.encoding.layers["edge"]
    rows, cols = region.rows, region.cols

    def broken(assignment, keys) -> set:
        return {(r, c) for r, c in keys
                if sum(assignment(edge[s]) for s in sides(rows, cols, r, c)) != clues[r, c]}

    return broken


def _remove(queries: PuzzleQueries, projection: tuple[int, ...], region: Region, clues: dict,
            rng: random.Random, grader) -> tuple[dict, int, int]:
    """Greedy removal in shuffled order (see the module doc) by the core's
    :meth:`~satgrid.queries.PuzzleQueries.minimal_clue_set`; the kept clues, the SAT calls made
    and the grades computed. (No unit-propagation pre-test per clue: it was slower than the SAT
    call it saves; figures: encodings/slitherlink.md, section "Generation: measured".)"""
    order = sorted(clues)
    rng.shuffle(order)
    graded = 0

    def gradable(removed: list) -> bool:
        nonlocal graded
        graded += 1
        gone = set(removed)
        return assess_clues(grader, {k: v for k, v in clues.items() if k not in gone}).level in (0, 1)

    before = queries.session.stats.sat_calls
    kept = queries.minimal_clue_set(projection, order, gradable if grader is not None else None,
                                    witnesses=flip_witnesses(region, clues), settle=True,
                                    broken=counts_broken(queries.session, region, clues))
    if kept is None:
        raise SatgridError("a limit was reached while generating")
    return {k: clues[k] for k in kept}, queries.session.stats.sat_calls - before, graded


def generate(rows: int, cols: int, rng: random.Random, *, flavour: str | None = "hard",
             ratios: tuple[int, int, int] = RATIOS, steps: int | None = None,
             options: api.Options = OPTIONS) -> SlitherlinkPuzzle:
    """A unique ``rows`` x ``cols`` Slitherlink: "hard" clue-minimal, "normal" solvable by
    propagation and probing (grade <= 1) and minimal for that."""
    return make(rows, cols, rng, flavour=flavour or "hard", ratios=ratios, steps=steps,
                options=options).puzzle
