"""The protocol of a global rule: what the engine asks of a rule that plain clauses do not state
(connectivity, one loop, islands, sized regions), and the defaults of its optional parts.

The engine's rules subclass :class:`GlobalRule` (so they inherit the defaults); a rule that only
matches it structurally still works wherever the optional parts are not asked for.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, Sequence

from .cnf import Clause, VarPool

if TYPE_CHECKING:
    from .connectivity import ConnectedSubgraph, Cut, Keep, Value


class RootedCuts(Protocol):
    """A rule's cut search over the assignments that extend one partial assignment (the root):
    what the rule's ``cuts`` gives for the root with the literals ``lits`` fixed as well, found
    by redoing only what ``lits`` touch (:meth:`GlobalRule.over_root`)."""

    def cuts(self, value: Value, lits: Sequence[int], pool: VarPool,
             keep: Keep | None = None) -> list[Cut]: ...


class GlobalRule(Protocol):
    """A rule with a lazy (cuts) and an eager (complete CNF) lowering.

    A rule may also take *clue anchors* (:class:`~satgrid.connectivity.ConnectedSubgraph`: a
    clue whose clauses force one of some nodes true while it is on): it then has a method
    ``clue_anchor(nodes)`` and its ``cuts`` take ``anchors=[(selector, clue_anchor(nodes)), ...]``.
    """

    name: str

    def clauses(self, pool: VarPool) -> list[Clause]: ...
    def cuts(self, value: Value, pool: VarPool, keep: Keep | None = None) -> list[Cut]: ...
    def eager_clauses(self, pool: VarPool) -> list[Clause]: ...

    def parity_clauses(self, pool: VarPool) -> list[Clause]:
        """Optional: redundant clauses that every solution of the rule obeys and that let unit
        propagation see a parity argument the other clauses only reach by long searches (a
        loop's inside and outside, :meth:`satgrid.loop.SingleLoop.parity_clauses`). The
        explainer (:class:`satgrid.explain.Reasoner`) puts them behind the rule's selector and a
        literal of their own that its SAT calls assume. Default: none."""
        return []

    def over_root(self, root: Value, keep: Keep | None = None) -> RootedCuts | None:
        """Optional: the rule's cut search over assignments that extend the partial assignment
        ``root`` (no variable ``root`` fixes changes; more get fixed), built once for ``root``:
        its ``cuts(value, lits, pool, keep)`` are this rule's ``cuts(value, pool, keep)``, for
        ``value`` = ``root`` with ``lits`` fixed as well. ``keep`` (the same filter at the root
        and in every call) must read only the values of the head's literals, so that its
        answer for a head no literal of ``lits`` names is its answer at the root. The grading
        ladder's probes extend its settled root (:class:`satgrid.grading.Ladder`). Default:
        none (the caller asks ``cuts`` every time)."""
        return None

    def connected_part(self) -> ConnectedSubgraph | None:
        """Optional: the rule's connected part, whose fenced cuts
        (:meth:`satgrid.connectivity.ConnectedSubgraph.fenced_cuts`) the explainer adds to the
        rule's own during its checks (a connected rule itself; a loop's "one piece"). Default:
        none."""
        return None
