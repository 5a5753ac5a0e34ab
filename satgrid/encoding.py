"""What a genre's encoder hands to the engine: the CNF of a puzzle's rules, its global rules,
its primary variables, and how each clue becomes literals."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Callable, Hashable, Iterator

from .cnf import Clause, Key, VarPool
from .global_rule import GlobalRule

ClueKey = Hashable


@dataclass(frozen=True)
class ClueEncoding:
    """A clue as CNF: its ``clauses``, switched on by assuming ``selector``.

    When ``clauses`` is empty the clue *is* the literal ``selector`` (a given digit: the digit
    variable itself), so assuming it needs no extra clause. Switching a clue off means leaving its
    selector unassumed; that is sound because every genre's clue only restricts its solutions.
    """

    selector: int
    clauses: tuple[Clause, ...] = ()
    #: Optional: clauses that hold when the clue is *broken* (a count of loop sides: "not exactly
    #: k sides"); a session puts them behind a literal of their own when first asked. Questions
    #: about removing the clue then ask for a solution that breaks it
    #: (:meth:`~satgrid.queries.PuzzleQueries.one_more_gone`).
    broken: tuple[Clause, ...] = ()
    #: Optional: ``(rule name, that rule's clue_anchor(nodes))`` when the clue's clauses force
    #: one of ``nodes`` true in that rule while the selector is on; the session hands the pair to
    #: the rule's cuts (a clue anchor: stronger cuts, no clause or variable of its own).
    anchor: tuple[str, object] | None = None

    def plain(self) -> list[Clause]:
        """The clue as hard clauses (no selector), for exports."""
        return list(self.clauses) if self.clauses else [[self.selector]]

    @property
    def switched(self) -> Iterator[Clause]:
        """The clauses behind the selector (each gains ``-selector``), made as they are read: a
        session loads them once, and lists kept beside :attr:`clauses` would only be walked by
        the cyclic garbage collector (measured in the encodings document of the first genre
        with islands, "The collector's share of a fresh query")."""
        selector = -self.selector
        return ([*clause, selector] for clause in self.clauses)


@dataclass
class Encoding:
    """The CNF of a puzzle without its clues, plus what the engine needs to query it.

    ``primary`` maps readable keys to the variables a solution is decoded from and projected on
    (uniqueness compares solutions on these only). ``encode_clue(key, value)`` returns a
    :class:`ClueEncoding`. A genre's ``cache_key(puzzle)`` says which puzzles share an encoding,
    so one solver can serve many puzzles (for most genres every puzzle of a size).
    """

    pool: VarPool
    clauses: list[Clause]
    primary: dict[Key, int]
    encode_clue: Callable[[ClueKey, object], ClueEncoding]
    rules: list[GlobalRule] = field(default_factory=list)
    #: True when two solutions differ iff some primary variable true in one is false in the
    #: other (one-hot values, single loops): blocking clauses then list the true ones only.
    block_true_only: bool = False
    #: Optional: ``encode_clue`` made for another pool (see :meth:`copy`).
    rebind: Callable[[VarPool], Callable[[ClueKey, object], ClueEncoding]] | None = None
    #: Optional (made by :class:`~satgrid.model.Model`): the primary variables by layer name,
    #: ``{layer: {key: literal}}`` (one-hot layers: ``{key: {value: literal}}``).
    layers: dict[str, dict] = field(default_factory=dict)
    #: Optional: ``(rule name, first clause, end)`` over :attr:`clauses`: which rule made which.
    spans: list[tuple[str, int, int]] = field(default_factory=list)

    @cached_property
    def primary_vars(self) -> list[int]:
        """The primary variables in order, made once (every puzzle's queries read them)."""
        return list(self.primary.values())

    @cached_property
    def primary_leading(self) -> bool:
        """Whether the primary variables are 1..n: a model's first n entries are then their
        literals."""
        return self.primary_vars == list(range(1, len(self.primary_vars) + 1))

    def copy(self) -> "Encoding":
        """An encoding for one more solver: its own pool (cuts, blocking clauses and, through
        ``rebind``, clue selectors draw variables from it), everything else shared. Safe when
        nothing allocates on the original pool any more: without ``rebind``, ``encode_clue``
        and the rules' ``clauses`` must only look variables up."""
        pool = self.pool.copy()
        return replace(self, pool=pool,
                       encode_clue=self.rebind(pool) if self.rebind else self.encode_clue)
