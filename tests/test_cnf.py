"""Cardinality helpers and the variable pool, checked against counting.

Each constraint is loaded into a solver and asked, with the constrained literals fixed by
assumptions and every auxiliary left free, whether the assignment is allowed: the answer must be
"yes" exactly when the count of true literals obeys the bound.
"""
from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings, strategies as st
from pysat.solvers import Solver

from satgrid.cnf import (
    DIRECT_LIMIT,
    PAIRWISE_AMO_LIMIT,
    VarPool,
    at_least,
    at_most,
    exactly,
    guarded,
    implies_any,
    unary_sum,
)

HELPERS = {"at_most": at_most, "at_least": at_least, "exactly": exactly,
           "exactly_totalizer": lambda lits, k, pool: exactly(lits, k, pool, totalizer=True)}
RULES = {
    "at_most": lambda count, k: count <= k,
    "at_least": lambda count, k: count >= k,
    "exactly": lambda count, k: count == k,
    "exactly_totalizer": lambda count, k: count == k,
}


def constrained(helper: str, n: int, k: int, signs: list[bool]):
    """A solver holding ``helper(lits, k)`` over ``n`` literals of mixed polarity.

    Returns the solver, the literals and the pool. Negated literals catch encodings that confuse a
    literal with its variable.
    """
    pool = VarPool()
    lits = [pool.var("x", i) if s else -pool.var("x", i) for i, s in enumerate(signs)]
    clauses = HELPERS[helper](lits, k, pool)
    for clause in clauses:
        for lit in clause:
            assert abs(lit) <= pool.top, "an auxiliary was not drawn from the pool"
    solver = Solver(name="minisat22", bootstrap_with=clauses)
    return solver, lits, pool


def allowed(solver: Solver, lits: list[int], truth: tuple[bool, ...]) -> bool:
    return solver.solve(assumptions=[lit if t else -lit for lit, t in zip(lits, truth)])


@pytest.mark.parametrize("helper", sorted(HELPERS))
@pytest.mark.parametrize("n", range(1, 10))
def test_every_assignment_of_small_sets(helper: str, n: int) -> None:
    rng = random.Random(n)
    for k in range(-1, n + 2):
        signs = [rng.random() < 0.7 for _ in range(n)]
        solver, lits, _ = constrained(helper, n, k, signs)
        with solver:
            for truth in itertools.product((False, True), repeat=n):
                expected = RULES[helper](sum(truth), k)
                assert allowed(solver, lits, truth) == expected, (helper, n, k, truth)


def projected_models(solver: Solver, lits: list[int]) -> set[tuple[bool, ...]]:
    """Every assignment of ``lits`` that extends to a model (enumerated with blocking clauses)."""
    found = set()
    while solver.solve():
        model = set(solver.get_model())
        truth = tuple(lit in model for lit in lits)
        found.add(truth)
        solver.add_clause([-lit if t else lit for lit, t in zip(lits, truth)])
    return found


PROJECTED = [(h, n, k) for h in sorted(HELPERS) for n, k in [(12, 3), (8, 1), (10, 8), (9, 5)]]
PROJECTED += [("at_most", 20, 1), ("exactly", 20, 1), ("exactly", 14, 2), ("at_most", 13, 2)]


@pytest.mark.parametrize("helper,n,k", PROJECTED)
def test_projection_of_pysat_encodings(helper: str, n: int, k: int) -> None:
    """Sizes past the direct limit: the projected models are exactly the right-count subsets."""
    assert n > DIRECT_LIMIT
    solver, lits, _ = constrained(helper, n, k, [i % 3 != 1 for i in range(n)])
    with solver:
        found = projected_models(solver, lits)
    expected = {
        frozenset(subset)
        for size in range(n + 1) if RULES[helper](size, k)
        for subset in itertools.combinations(range(n), size)
    }
    assert {frozenset(i for i, t in enumerate(truth) if t) for truth in found} == expected


# n * k above 2000 switches to the modulo totalizer; below it the sequential counter.
BIG = [(30, 5), (17, 1), (45, 44), (50, 45), (60, 40), (70, 3)]


@pytest.mark.parametrize("helper", sorted(HELPERS))
@pytest.mark.parametrize("n,k", BIG)
def test_sampled_assignments_of_big_sets(helper: str, n: int, k: int) -> None:
    rng = random.Random(n * 100 + k)
    signs = [rng.random() < 0.5 for _ in range(n)]
    solver, lits, _ = constrained(helper, n, k, signs)
    with solver:
        for count in range(max(0, k - 3), min(n, k + 3) + 1):
            for _ in range(6):
                chosen = set(rng.sample(range(n), count))
                truth = tuple(i in chosen for i in range(n))
                assert allowed(solver, lits, truth) == RULES[helper](count, k), (helper, n, k, count)
        # Partial assumptions: fixing ``t`` literals true and ``f`` false leaves the rest free,
        # so the constraint is satisfiable iff some completion has an allowed count.
        for _ in range(30):
            t = rng.randrange(0, n + 1)
            f = rng.randrange(0, n - t + 1)
            order = rng.sample(range(n), n)
            assumptions = [lits[i] for i in order[:t]] + [-lits[i] for i in order[t:t + f]]
            possible = any(RULES[helper](c, k) for c in range(t, n - f + 1))
            assert solver.solve(assumptions=assumptions) == possible, (helper, n, k, t, f)


@settings(max_examples=60, deadline=None)
@given(
    helper=st.sampled_from(sorted(HELPERS)),
    n=st.integers(1, 24),
    data=st.data(),
)
def test_random_bounds_and_assignments(helper: str, n: int, data) -> None:
    k = data.draw(st.integers(-1, n + 1), label="k")
    signs = data.draw(st.lists(st.booleans(), min_size=n, max_size=n), label="signs")
    truths = data.draw(
        st.lists(st.lists(st.booleans(), min_size=n, max_size=n), min_size=1, max_size=8),
        label="assignments",
    )
    solver, lits, _ = constrained(helper, n, k, signs)
    with solver:
        for truth in truths:
            assert allowed(solver, lits, tuple(truth)) == RULES[helper](sum(truth), k)


def test_small_constraints_need_no_auxiliaries() -> None:
    pool = VarPool()
    lits = [pool.var("x", i) for i in range(DIRECT_LIMIT)]
    for k in range(DIRECT_LIMIT + 1):
        exactly(lits, k, pool)
    at_most([pool.var("y", i) for i in range(PAIRWISE_AMO_LIMIT)], 1, pool)
    assert pool.top == DIRECT_LIMIT + PAIRWISE_AMO_LIMIT
    assert len(exactly(lits[:4], 2, pool)) <= 8


def test_pool_keys_round_trip() -> None:
    pool = VarPool()
    keys = [("black", r, c) for r in range(3) for c in range(3)] + [("edge", (0, 0), (0, 1))]
    ids = [pool.var(*key) for key in keys]
    assert ids == list(range(1, len(keys) + 1))
    assert [pool.var(*key) for key in keys] == ids  # same key, same variable
    assert [pool.key(v) for v in ids] == keys
    assert [pool.key(-v) for v in ids] == keys  # a negative literal names its variable
    assert pool.has("black", 2, 2) and not pool.has("black", 3, 3)
    assert pool.top == len(keys)


def test_fresh_and_cardinality_auxiliaries_never_collide() -> None:
    pool = VarPool()
    xs = [pool.var("x", i) for i in range(20)]
    seen = set(xs)
    for round_ in range(3):
        before = pool.top
        clauses = exactly(xs, 7, pool) + at_most(xs, 3, pool) + at_least(xs, 12, pool)
        aux = {abs(lit) for clause in clauses for lit in clause} - set(xs)
        assert aux and min(aux) > before and max(aux) <= pool.top
        assert not aux & seen
        assert all(pool.key(a) is None for a in aux)  # auxiliaries have no readable key
        seen |= aux
        fresh = [pool.fresh(), pool.fresh("cut"), pool.fresh("cut")]
        assert len(set(fresh)) == 3 and not set(fresh) & seen
        seen |= set(fresh)
        named = pool.var("late", round_)
        assert named not in seen
        seen.add(named)
    assert pool.top == max(seen)


def test_guarded_and_implies_any() -> None:
    pool = VarPool()
    xs = [pool.var("x", i) for i in range(8)]
    sel = pool.var("sel")
    clauses = guarded(exactly(xs, 3, pool), sel)
    clauses.append(implies_any(xs[0], [xs[1], xs[2]]))
    with Solver(name="minisat22", bootstrap_with=clauses) as solver:
        for truth in itertools.product((False, True), repeat=8):
            assumed = [x if t else -x for x, t in zip(xs, truth)]
            implication = not truth[0] or truth[1] or truth[2]
            assert solver.solve(assumptions=[-sel, *assumed]) == implication
            assert solver.solve(assumptions=[sel, *assumed]) == (implication and sum(truth) == 3)


def test_copied_pool_keeps_every_key_and_grows_apart() -> None:
    pool = VarPool()
    named = [pool.var("edge", i) for i in range(5)]
    aux = pool.fresh("cut")
    twin = pool.copy()
    assert [twin.var("edge", i) for i in range(5)] == named and twin.top == pool.top
    assert twin.key(named[2]) == ("edge", 2) and twin.key(aux) == pool.key(aux)
    grown = [twin.fresh("cut"), twin.var("late")]
    assert min(grown) > pool.top  # new variables continue from the top ...
    assert pool.top == aux and not pool.has("late")  # ... and the original never sees them
    assert pool.fresh("cut") == grown[0]  # each pool goes on alone


# -- sums of unary numbers ------------------------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 5), max_size=5), st.integers(0, 14))
def test_unary_sum_allows_exactly_the_values_that_sum_to_k(lengths: list[int], k: int) -> None:
    """Every combination of chain values (a chain of length n holds 0..n) is allowed, with the
    auxiliaries free, exactly when the values sum to k; and fixing all chains but one propagates
    the last one's value (as a totalizer does)."""
    pool = VarPool()
    chains = [[pool.var("c", n, i) for i in range(length)] for n, length in enumerate(lengths)]
    sorted_chains = [[-chain[i], chain[i - 1]] for chain in chains for i in range(1, len(chain))]
    clauses = unary_sum(chains, k, pool) + sorted_chains  # the chains are sorted, as required

    def lits(values: tuple[int, ...]) -> list[int]:
        return [x if i < v else -x for chain, v in zip(chains, values) for i, x in enumerate(chain)]

    with Solver(name="cadical153", bootstrap_with=clauses) as solver:
        for values in itertools.product(*(range(n + 1) for n in lengths)):
            assert solver.solve(assumptions=lits(values)) == (sum(values) == k), (values, k)
    with Solver(name="minisat22", bootstrap_with=clauses) as solver:
        for values in itertools.product(*(range(n + 1) for n in lengths[:-1])):
            rest = k - sum(values)
            if lengths and 0 <= rest <= lengths[-1]:
                for x in lits((*values, rest))[len(lits((*values, 0))) - lengths[-1]:]:
                    assert not solver.propagate(assumptions=[*lits(values), -x])[0], (values, x)


@pytest.mark.parametrize("n,k", [(9, 3), (20, 7), (31, 12), (40, 39), (25, 17)])
def test_exactly_by_totalizer_propagates_both_bounds(n: int, k: int) -> None:
    """Unit propagation alone: with ``t`` literals fixed true and ``f`` false, too many true or too
    few left open is a conflict, ``k`` true forces the rest false, and ``n - f == k`` forces the
    rest true (the capped totalizer is arc consistent, which the island sizes rely on)."""
    rng = random.Random(n * 1000 + k)
    pool = VarPool()
    lits = [pool.var("x", i) if rng.random() < 0.6 else -pool.var("x", i) for i in range(n)]
    with Solver(name="minisat22", bootstrap_with=exactly(lits, k, pool, totalizer=True)) as solver:
        for _ in range(200):
            t = rng.randrange(0, min(n, k + 1) + 1)
            f = rng.randrange(0, n - t + 1)
            order = rng.sample(range(n), n)
            fixed = [lits[i] for i in order[:t]] + [-lits[i] for i in order[t:t + f]]
            rest = [lits[i] for i in order[t + f:]]
            ok, implied = solver.propagate(assumptions=fixed)
            if t > k or n - f < k:
                assert not ok, (t, f)
                continue
            assert ok, (t, f)
            implied = set(implied)
            if t == k:
                assert all(-x in implied for x in rest), (t, f)
            elif n - f == k:
                assert all(x in implied for x in rest), (t, f)
