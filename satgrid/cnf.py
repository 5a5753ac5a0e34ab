"""Variables, clauses and cardinality constraints over one shared variable pool.

Every variable has a readable key (``("digit", r, c, d)``, ``("black", r, c)``, ``("edge", ...)``),
and every cardinality encoding draws its auxiliary variables from the same pool, so auxiliaries
never collide with puzzle variables (PySAT: ``CardEnc(..., vpool=pool)``).
"""
from __future__ import annotations

from itertools import combinations
from typing import Hashable, Iterable, Sequence

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

Clause = list[int]
Key = Hashable

#: Up to this many literals, cardinality constraints are written out directly (no auxiliaries):
#: exactly-k of 4 needs at most 8 clauses, the fastest form for clue cells and dot degrees.
DIRECT_LIMIT = 6
#: At-most-one is pairwise up to this many literals (faster than sequential counters at these
#: sizes), and a sequential counter beyond (linear size) (figures: encodings/rules.md, section
#: "Measured choices of the builder").
PAIRWISE_AMO_LIMIT = 16


#: First element of every ``fresh`` key: bytes, unequal to any string a genre could use. Not an
#: instance of a class of ours: the cyclic garbage collector tracks those, and with them every
#: key tuple that holds one, for as long as the pool lives; a tuple of bytes, strings and ints
#: it stops tracking at its first pass (measured in the encodings document of the first genre
#: with islands, "The collector's share of a fresh query").
_AUX = b"aux"


class _IDPool(IDPool):
    """python-sat's ``IDPool`` without its reference cycle.

    ``IDPool`` keeps its keys in a ``defaultdict`` whose factory, a lambda over the pool, refers
    back to the pool: a pool, every key in it and the two dicts that hold them are then freed
    only by the cyclic garbage collector's full pass, which walks every tracked object of the
    process (measured in the encodings document of the first genre with islands, "The
    collector's share of a fresh query"). A plain dict frees them as soon as the encoding goes.
    ``id`` does what ``IDPool.id`` does (cardinality encodings use only ``top``, ``_occupied``
    and ``_next``)."""

    def restart(self, start_from: int = 1, occupied: Sequence = (), with_neg: bool = False) -> None:
        super().restart(start_from, list(occupied), with_neg)
        self.obj2id = {}

    def id(self, obj: Key = None) -> int:
        if obj is None:
            return self._next()
        vid = self.obj2id.get(obj)
        if vid is None:
            vid = self.obj2id[obj] = self._next()
            self.id2obj[vid] = obj
            if self.with_neg and hasattr(obj, "__neg__"):
                self.obj2id[-obj] = -vid
                self.id2obj[-vid] = -obj
        return vid


class VarPool:
    """A python-sat ``IDPool`` whose variables are named by readable keys."""

    def __init__(self) -> None:
        self.idpool = _IDPool()
        self._fresh = 0

    def var(self, *key: Key) -> int:
        """The variable for ``key`` (created on first use)."""
        # A known key is one dict lookup (``IDPool.id`` costs a method call and a second lookup
        # for every variable an encoder names; measured in the encodings document of the first
        # genre with islands).
        pool = self.idpool
        found = pool.obj2id.get(key)
        if found is None:  # a new key: the top's successor (no occupied ranges), as ``IDPool.id``
            pool.top = found = pool.top + 1
            pool.obj2id[key] = found
            pool.id2obj[found] = key
        return found

    def fresh(self, tag: str = "aux") -> int:
        """A new auxiliary variable, never returned before (its key starts with a private marker,
        so no readable key can collide with it)."""
        self._fresh += 1
        key = (_AUX, tag, self._fresh)
        pool = self.idpool  # no occupied ranges: the next id is the top's successor
        pool.top = vid = pool.top + 1
        pool.obj2id[key] = vid
        pool.id2obj[vid] = key
        return vid

    def copy(self) -> "VarPool":
        """An independent pool holding the same variables (new ones continue from the top)."""
        twin = VarPool()
        twin.idpool = _IDPool(start_from=self.idpool.top + 1)
        twin.idpool.obj2id.update(self.idpool.obj2id)
        twin.idpool.id2obj.update(self.idpool.id2obj)
        twin._fresh = self._fresh
        return twin

    def key(self, var: int) -> Key | None:
        """The key of ``var``, or None for a cardinality auxiliary."""
        return self.idpool.obj(abs(var))

    def has(self, *key: Key) -> bool:
        return key in self.idpool.obj2id

    @property
    def top(self) -> int:
        """The largest variable id handed out so far (auxiliaries included)."""
        return self.idpool.top


def at_most(lits: Sequence[int], k: int, pool: VarPool) -> list[Clause]:
    """Clauses for "at most ``k`` of ``lits`` are true"."""
    lits = list(lits)
    n = len(lits)
    if k < 0:
        return [[]]
    if k >= n:
        return []
    if k == 0:
        return [[-x] for x in lits]
    if n <= DIRECT_LIMIT or (k == 1 and n <= PAIRWISE_AMO_LIMIT):
        return [[-x for x in subset] for subset in combinations(lits, k + 1)]
    return _card(CardEnc.atmost, lits, k, pool)


def at_least(lits: Sequence[int], k: int, pool: VarPool) -> list[Clause]:
    """Clauses for "at least ``k`` of ``lits`` are true"."""
    lits = list(lits)
    n = len(lits)
    if k <= 0:
        return []
    if k > n:
        return [[]]
    if k == 1:
        return [lits]
    if n <= DIRECT_LIMIT or k == n:
        return [list(subset) for subset in combinations(lits, n - k + 1)]
    return _card(CardEnc.atleast, lits, k, pool)


def exactly(lits: Sequence[int], k: int, pool: VarPool, totalizer: bool = False) -> list[Clause]:
    """Clauses for "exactly ``k`` of ``lits`` are true".

    Direct clauses for few literals; beyond them the sequential counter or the modulo totalizer
    (:func:`_card`), or with ``totalizer`` a totalizer capped at ``k + 1`` (:func:`unary_sum`
    over one-literal chains; above ``n / 2`` over the negations, capped at ``n - k + 1``), whose
    unit propagation keeps both bounds consistent (too many true, or too few left open, is a
    conflict at once). The capped totalizer is for counts over
    big sets where propagation decides the search, the size of an island over its reach
    (figures: encodings/rules.md, "Island sizes by a capped totalizer": the modulo totalizer
    propagates less, and the first SAT call of the big published island puzzles took 5-25x the
    conflicts)."""
    lits = list(lits)
    n = len(lits)
    if k < 0 or k > n:
        return [[]]
    if k == 0 or k == n or k == 1 or n <= DIRECT_LIMIT:
        return at_most(lits, k, pool) + at_least(lits, k, pool)
    if totalizer:  # counted on the smaller side: exactly n - k of the negations
        return unary_sum([[x] for x in lits], k, pool) if 2 * k <= n else \
            unary_sum([[-x] for x in lits], n - k, pool)
    return _card(CardEnc.equals, lits, k, pool)


def _card(method, lits: list[int], k: int, pool: VarPool) -> list[Clause]:
    """A PySAT cardinality encoding, chosen by size.

    Sequential counter (Sinz 2005) for small bounds; the modulo totalizer (Ogawa et al. 2013,
    ``kmtotalizer``) once ``k * n`` grows, where it is much smaller than seqcounter (figures:
    encodings/rules.md, section "Measured choices of the builder").
    """
    encoding = EncType.seqcounter if k * len(lits) <= 2000 else EncType.kmtotalizer
    return method(lits=lits, bound=k, vpool=pool.idpool, encoding=encoding).clauses


def implies_any(lit: int, options: Iterable[int]) -> Clause:
    """The clause ``lit -> (o1 | o2 | ...)``."""
    return [-lit, *options]


def guarded(clauses: Iterable[Clause], selector: int) -> list[Clause]:
    """``clauses`` made conditional on ``selector`` (each clause gains ``-selector``)."""
    return [[*clause, -selector] for clause in clauses]


def unary_sum(numbers: Sequence[Sequence[int]], k: int, pool: VarPool) -> list[Clause]:
    """Clauses for "the unary numbers sum to exactly ``k``". Each number is a chain of literals,
    ``chain[i]`` meaning "at least ``i + 1``", sorted: each literal implies the one before it
    (the caller's clauses say so, e.g. sightlines). Values above ``k`` need not be told apart, so
    each chain is cut after ``k + 1`` literals.

    A totalizer (Bailleux and Boufkhad, CP 2003) over the chains: pairs of unary numbers are
    merged, in a balanced tree, into unary sums capped at ``k + 1`` (for outputs ``A >= i & B >= j
    -> C >= i + j`` and ``A < i + 1 & B < j + 1 -> C < i + j + 1``), and the root pair is compared
    with ``k`` directly (``A >= i -> B <= k - i`` and ``A <= i -> B >= k - i``). Unit propagation
    keeps the sum's bounds consistent with every chain's, as for the totalizer of single
    literals; the size is a few clauses per pair of values up to ``k`` instead of per literal
    and count."""
    if k < 0:
        return [[]]
    cap = k + 1
    layer = [list(chain[:cap]) for chain in numbers if chain]
    if sum(len(chain) for chain in layer) < k:
        return [[]]
    clauses: list[Clause] = []
    while len(layer) > 2:
        merged = []
        for a, b in zip(layer[::2], layer[1::2]):
            out = [pool.fresh("unary sum") for _ in range(min(len(a) + len(b), cap))]
            for i in range(len(a) + 1):
                for j in range(len(b) + 1):
                    if 0 < i + j <= len(out):  # a >= i and b >= j -> out >= i + j
                        clauses.append([*([-a[i - 1]] if i else []), *([-b[j - 1]] if j else []), out[i + j - 1]])
                    if i + j < len(out):  # a <= i and b <= j -> out <= i + j
                        clauses.append([*([a[i]] if i < len(a) else []), *([b[j]] if j < len(b) else []),
                                        -out[i + j]])
            merged.append(out)
        if len(layer) % 2:
            merged.append(layer[-1])
        layer = merged
    a, b = (layer + [[], []])[:2]
    for i in range(len(a) + 1):
        j = k - i
        at_least_i = [-a[i - 1]] if i else []
        if j < 0:  # a >= i is too many
            clauses.append(at_least_i)
        elif j < len(b):  # a >= i -> b <= j
            clauses.append([*at_least_i, -b[j]])
        at_most_i = [a[i]] if i < len(a) else []
        if 1 <= j <= len(b):  # a <= i -> b >= j
            clauses.append([*at_most_i, b[j - 1]])
        elif j > len(b):  # b cannot make up j: a > i
            clauses.append(at_most_i)
    return clauses
