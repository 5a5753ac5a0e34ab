"""The global-rule protocol (:mod:`satgrid.global_rule`): every rule of every registered genre
answers its optional parts plainly (parity clauses: none unless the rule states some), and the
explainer's guarded rule puts a rule's parity clauses behind its selector."""
from __future__ import annotations

from importlib import resources

from satgrid import api
from satgrid.cnf import VarPool
from satgrid.connectivity import ConnectedSubgraph
from satgrid.explain import GuardedRule
from satgrid.global_rule import GlobalRule
from satgrid.loop import SingleLoop
from satgrid.registry import GENRES


def test_every_genre_rule_is_a_global_rule_with_parity_clauses() -> None:
    seen = 0
    for g in GENRES.values():
        puzzle = api.load([str(resources.files("satgrid") / "data" / g.examples)])[0]
        enc = g.encode(puzzle)
        for rule in enc.rules:
            assert GlobalRule in type(rule).__mro__, (g.name, rule)  # inherits the defaults
            clauses = rule.parity_clauses(enc.pool)
            assert isinstance(clauses, list)
            assert clauses == [] or isinstance(rule, SingleLoop), (g.name, rule.name)
            # the connected part the explainer fences: the rule itself, a loop's "one piece"
            part = rule.connected_part()
            if isinstance(rule, ConnectedSubgraph):
                assert part is rule
            elif isinstance(rule, SingleLoop):
                assert part is rule.connected and isinstance(part, ConnectedSubgraph)
            else:
                assert part is None, (g.name, rule.name)
            assert GuardedRule(rule, enc.pool.fresh("rule")).fenceable is part
            seen += 1
    assert seen


def test_guarded_rule_puts_parity_behind_its_selector() -> None:
    pool = VarPool()
    square = [((0, 0), (0, 1)), ((0, 1), (1, 1)), ((1, 0), (1, 1)), ((0, 0), (1, 0))]
    loop = SingleLoop("loop", {e: pool.var("edge", e) for e in square}, pool)
    selector = pool.fresh("rule")
    plain = loop.parity_clauses(pool)
    guarded = GuardedRule(loop, selector).parity_clauses(pool)
    assert plain and len(guarded) == len(plain)
    assert all(-selector in clause for clause in guarded)
