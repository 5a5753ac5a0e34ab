"""How an encoding reaches the solver and leaves memory: each new clue's clauses are loaded as
soon as it is built, behind its selector, and not kept (only its broken clauses, for breakers);
the variable pool has no reference cycle, so a session and its encoding are freed as soon as
they go, without the cyclic garbage collector; the keys of fresh variables hold nothing the
collector must keep tracking (encodings/nurikabe.md, "The collector's share of a fresh query")."""
from __future__ import annotations

import gc
import weakref
from contextlib import contextmanager
from pathlib import Path

import pytest
from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from satgrid import api, cnf
from satgrid.queries import PuzzleQueries
from satgrid.registry import GENRES
from satgrid.session import Session

#: A bundled island puzzle (sizes: counters, levels) and a loop puzzle (counts with broken
#: clauses), both unique.
DATA = Path(__file__).resolve().parents[1] / "satgrid" / "data"
ISLANDS, LOOP = DATA / "nurikabe.txt", DATA / "slitherlink.txt"


@contextmanager
def collector_off():
    """No cyclic collection in the block (what is freed there, reference counting freed)."""
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class Recorder:
    """Stands in front of a session's solver and keeps a copy of every clause added."""

    def __init__(self, solver):
        self.solver, self.added = solver, []

    def add(self, clauses):
        clauses = [list(c) for c in clauses]
        self.added += clauses
        self.solver.add(clauses)

    def __getattr__(self, name):
        return getattr(self.solver, name)


@pytest.mark.parametrize("path", [ISLANDS, LOOP], ids=["islands", "loop"])
def test_loaded_clauses_are_each_clues_clauses_behind_its_selector(path):
    puzzle = api.load([str(path)])[0]
    genre = GENRES[puzzle.genre]
    session = Session(genre.encode(puzzle))
    recorder = session.solver = Recorder(session.solver)
    clues = puzzle.clues()
    selectors = session.selectors(clues)
    # a second encoding of the same puzzle numbers its variables alike: its clue encodings, made
    # in the same order, are the clauses the session must have loaded
    twin = genre.encode(puzzle)
    expected, literal = [], set()
    for key, value in clues.items():
        clue = twin.encode_clue(key, value)
        assert clue.selector == selectors[key]
        expected += [[*c, -clue.selector] for c in clue.clauses]
        if not clue.clauses:
            literal.add(clue.selector)
    assert expected and recorder.added == expected
    assert session.literal_clues == literal
    # the clues are known: asking again loads nothing
    assert session.selectors(clues) == selectors and recorder.added == expected
    # the answers are those of a solver given the same clauses
    queries = PuzzleQueries(session, clues)
    first = queries.solve()
    assert first.status == "sat"
    assert queries.other_solution(queries.project(first.assignment)).status == "unsat"
    session.close()


def test_breakers_use_the_broken_clauses_kept_per_clue():
    puzzle = api.load([str(LOOP)])[0]
    genre = GENRES[puzzle.genre]
    session = Session(genre.encode(puzzle))
    clues = puzzle.clues()
    selectors = session.selectors(clues)
    twin = genre.encode(puzzle)
    recorder = session.solver = Recorder(session.solver)
    for key, value in clues.items():
        broken = twin.encode_clue(key, value).broken
        recorder.added.clear()
        lit = session.breaker(selectors[key])
        if not broken:
            assert lit is None and recorder.added == []
        else:
            assert recorder.added == [[*c, -lit] for c in broken]
            assert session.breaker(selectors[key]) == lit  # made once
    session.close()


@pytest.mark.parametrize("path", [ISLANDS, LOOP], ids=["islands", "loop"])
def test_a_session_and_its_encoding_are_freed_without_the_cyclic_collector(path):
    puzzle = api.load([str(path)])[0]
    genre = GENRES[puzzle.genre]
    with collector_off():
        session = Session(genre.encode(puzzle))
        queries = PuzzleQueries(session, puzzle.clues())
        first = queries.solve()
        queries.other_solution(queries.project(first.assignment))
        gone = [weakref.ref(x) for x in (session, session.encoding, session.encoding.pool,
                                         session.encoding.pool.idpool)]
        session.close()
        del session, queries, first
        assert [ref() for ref in gone] == [None] * len(gone)


def test_fresh_keys_are_untracked_after_a_collection():
    pool = cnf.VarPool()
    named = pool.var("cell", 0, 0)
    fresh = [pool.fresh("unary sum") for _ in range(3)]
    gc.collect()
    assert not any(gc.is_tracked(pool.idpool.id2obj[v]) for v in fresh)
    assert pool.key(fresh[0]) != pool.key(fresh[1]) and pool.key(named) == ("cell", 0, 0)
    assert all(not isinstance(pool.key(v)[0], str) for v in fresh)  # never a genre's key


def test_the_pool_numbers_as_pythonsats_pool():
    ours, theirs = cnf._IDPool(occupied=[[4, 6]]), IDPool(occupied=[[4, 6]])
    keys = ["a", None, ("b", 1), "a", None, ("c",), ("b", 1), "d", "e"]
    assert [ours.id(k) for k in keys] == [theirs.id(k) for k in keys]
    assert ours.top == theirs.top and ours.id2obj == theirs.id2obj
    assert dict(ours.obj2id) == dict(theirs.obj2id) and type(ours.obj2id) is dict
    negated, plain = cnf._IDPool(with_neg=True), IDPool(with_neg=True)
    assert [negated.id(k) for k in (5, 7, -5)] == [plain.id(k) for k in (5, 7, -5)]
    # cardinality encodings draw their auxiliaries alike
    for method in (CardEnc.atmost, CardEnc.equals):
        for encoding in (EncType.seqcounter, EncType.kmtotalizer):
            a, b = cnf._IDPool(start_from=20), IDPool(start_from=20)
            assert method(lits=list(range(1, 9)), bound=3, vpool=a, encoding=encoding).clauses == \
                method(lits=list(range(1, 9)), bound=3, vpool=b, encoding=encoding).clauses
            assert a.top == b.top
    twin = cnf.VarPool()
    twin.var("x")
    copy = twin.copy()
    assert type(copy.idpool) is cnf._IDPool and copy.var("x") == 1 and copy.var("y") == 2
